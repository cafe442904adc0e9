//! The manifest of a stored-match fixture: a database written by one version of the server,
//! and for every match in it what the public API showed when it was written. The generator
//! (`src/bin/store-fixture.rs`) writes it; `tests/stored_fixture.rs` reads it back and holds a
//! later server, opening the same database, to it.
//!
//! Everything here is what a client can learn through the public API, plus the seat tokens
//! and the bots' API keys, which the database keeps only as hashes: without them nobody could
//! play on, nor show that the stored keys still hold.

use std::collections::BTreeMap;

use pitchmate_client::pb;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub matches: Vec<StoredMatch>,
    /// The bots registered and their keys; fixtures from before bots (schema 7) have none.
    #[serde(default)]
    pub bots: Vec<BotRecord>,
}

impl Manifest {
    /// The recorded bot named `name`.
    pub fn bot(&self, name: &str) -> &BotRecord {
        self.bots
            .iter()
            .find(|bot| bot.name == name)
            .unwrap_or_else(|| panic!("the manifest has no bot {name}"))
    }

    /// What acting as `seat` of `stored` presents as `authorization: Bearer`: the seat's token,
    /// or for a seat a bot holds a key its bot still plays with (the seat has no token).
    pub fn credential(&self, stored: &StoredMatch, seat: &str) -> String {
        match stored.bot_seats.get(seat) {
            Some(bot) => self.bot(bot).play_key().secret.clone(),
            None => stored.tokens[seat].clone(),
        }
    }
}

/// What the generator left a match doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Created; no seat taken.
    WaitingEmpty,
    /// Created; one seat taken, the other free.
    WaitingOneSeat,
    /// Both seats taken, a placement or lineup phase still going.
    Setup,
    /// Both seats taken, in regular play.
    InPlay,
    /// Gridiron inside a simultaneous hidden phase: one seat has drafted (and maybe committed)
    /// what the other seat may not see, the other has drafted less or nothing.
    HiddenPhase,
    /// A time control running for the seat to act, which has offered a draw that still stands.
    ClockWithDrawOffer,
    /// Over: the rules ended it.
    EndedByRules,
    Resigned,
    DrawAgreed,
    /// Over: a seat ran out of time (after the server had played defaults for a timeout).
    TimedOut,
    /// Over: a seat claimed victory over an opponent away for `abandon_after`.
    Abandoned,
    Aborted,
}

impl State {
    /// Every state, each of which the fixture holds at least once.
    pub const ALL: [State; 12] = [
        State::WaitingEmpty,
        State::WaitingOneSeat,
        State::Setup,
        State::InPlay,
        State::HiddenPhase,
        State::ClockWithDrawOffer,
        State::EndedByRules,
        State::Resigned,
        State::DrawAgreed,
        State::TimedOut,
        State::Abandoned,
        State::Aborted,
    ];

    /// Whether the match was over when the fixture was written.
    pub fn is_over(self) -> bool {
        matches!(
            self,
            State::EndedByRules
                | State::Resigned
                | State::DrawAgreed
                | State::TimedOut
                | State::Abandoned
                | State::Aborted
        )
    }
}

/// One match of the fixture as the API showed it after the generator's last call on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredMatch {
    /// Unique within the manifest; says what the match is for.
    pub name: String,
    pub state: State,
    pub match_id: String,
    pub variant_id: String,
    /// `MatchStatus` by its proto name (`MATCH_STATUS_ACTIVE`, ...).
    pub status: String,
    /// The seed the creator chose; `None` when the server drew it.
    pub client_seed: Option<u64>,
    /// `Chance.commitment` in lower-case hex.
    pub commitment: String,
    /// Every seat of the variant in the match's order, with the name of the player who took it
    /// (empty when free).
    pub seats: Vec<SeatRecord>,
    /// The secret token of every seat taken, by seat name. Empty for a seat a bot took with its
    /// key: JoinMatch answers no token then (see `bot_seats`).
    pub tokens: BTreeMap<String, String>,
    /// The seats bots took with their keys, by seat name: the name of the bot (one of
    /// [`Manifest::bots`]). Such a seat acts with a key of its bot; fixtures from before bots
    /// have none.
    #[serde(default)]
    pub bot_seats: BTreeMap<String, String>,
    /// By seat, the `bot_id` GetMatch showed for each seat a bot holds (`SeatInfo.bot_id`).
    /// `None` in fixtures from before schema 8, whose server did not show it; `Some` and empty
    /// for a match no bot plays in, where every seat must show none.
    #[serde(default)]
    pub bot_ids: Option<BTreeMap<String, String>>,
    /// The spectator's numbering: last seq and version.
    pub spectator: Seen,
    /// Each taken seat's own numbering (higher than the spectator's by its hidden choices).
    pub seen_by_seat: BTreeMap<String, Seen>,
    /// `Match.turn`, for a match in play.
    pub turn: Option<TurnRecord>,
    /// The spectator view's position notation (empty in games with hidden information).
    pub position: String,
    /// For a match in play: each taken seat's legal actions in notation, sorted.
    pub legal_by_seat: BTreeMap<String, Vec<String>>,
    pub draw_offered_by: String,
    pub result: Option<ResultRecord>,
    /// For a finished match: how many events its whole replay holds.
    pub replay_events: Option<u64>,
    /// A submission the server answered with a client action id; sent again it must be
    /// answered as a duplicate with the same version and events.
    pub retry: Option<Retry>,
    /// The running clock, when the match has one.
    pub clock: Option<ClockRecord>,
    /// Gridiron's hidden phase, as each seat sees its own draft.
    pub hidden: Option<HiddenRecord>,
}

impl StoredMatch {
    pub fn status(&self) -> pb::MatchStatus {
        pb::MatchStatus::from_str_name(&self.status)
            .unwrap_or_else(|| panic!("{}: unknown status {}", self.name, self.status))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub seat: String,
    pub player_name: String,
}

/// Where one viewer's numbering stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    pub last_seq: u64,
    pub version: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    pub phase: String,
    pub to_act: Vec<String>,
    pub number: u32,
}

impl TurnRecord {
    pub fn of(turn: &pb::TurnInfo) -> Self {
        Self {
            phase: turn.phase.clone(),
            to_act: turn.to_act.clone(),
            number: turn.number,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// Empty for a draw or an aborted match.
    pub winner: String,
    /// `ResultReason` by its proto name.
    pub reason: String,
    pub scores: BTreeMap<String, u32>,
}

impl ResultRecord {
    pub fn of(result: &pb::MatchResult) -> Self {
        Self {
            winner: result.winner.clone(),
            reason: result.reason().as_str_name().to_owned(),
            scores: result
                .scores
                .iter()
                .map(|s| (s.seat.clone(), s.score))
                .collect(),
        }
    }
}

/// An accepted submission with a client action id, and what the server answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retry {
    pub seat: String,
    pub client_action_id: String,
    pub expected_version: u64,
    pub notation: String,
    /// The seat's version in the answer.
    pub answered_version: u64,
    /// The seqs, in the seat's numbering, of the events in the answer.
    pub answered_seqs: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRecord {
    /// The seat whose clock was running.
    pub seat: String,
    /// When its time runs out, in seconds since the Unix epoch.
    pub deadline_unix_secs: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenRecord {
    /// `GridironDetails.phase`.
    pub phase: String,
    /// The seats that had committed in the phase.
    pub committed: Vec<String>,
    /// Per seat: the items of its own draft its view showed (captain, standard pieces, orders).
    pub drafted: BTreeMap<String, usize>,
}

impl HiddenRecord {
    /// How many items of its own draft a seat's Gridiron view shows.
    pub fn drafted_items(details: &pb::GridironDetails) -> usize {
        let captain = details.own_captain != pb::GridironPieceKind::Unspecified as i32;
        usize::from(captain) + details.own_standard.len() + details.own_orders.len()
    }
}

/// A bot as GetBot showed it, and every key made for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    pub bot_id: String,
    pub name: String,
    pub owner: String,
    pub description: String,
    pub variants: Vec<String>,
    pub max_concurrent: u32,
    pub daily_cap: u32,
    /// `Bot.create_time`, in whole seconds since the Unix epoch.
    pub create_time_unix_secs: i64,
    /// Oldest first: the key CreateBot answered, then those CreateApiKey made.
    pub keys: Vec<KeyRecord>,
    /// The bot's inbox once every item the generator caused had been written; fixtures from
    /// before inboxes (schema 8) have none.
    #[serde(default)]
    pub inbox: Option<InboxRecord>,
}

impl BotRecord {
    /// The first of the bot's keys that is not revoked and may play.
    pub fn play_key(&self) -> &KeyRecord {
        self.keys
            .iter()
            .find(|key| !key.revoked && key.scopes.iter().any(|s| s == "API_KEY_SCOPE_PLAY"))
            .unwrap_or_else(|| panic!("bot {} has no key that plays", self.name))
    }
}

/// One API key as the answer that made it showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyRecord {
    pub key_id: String,
    pub label: String,
    /// `ApiKeyScope`s by their proto names, in the order the server listed them.
    pub scopes: Vec<String>,
    /// The whole key, `pmk_<key id>_<secret>`, shown only once by the server, which keeps its
    /// hash alone.
    pub secret: String,
    /// Whether RevokeApiKey revoked it before the fixture was written.
    pub revoked: bool,
}

impl KeyRecord {
    /// `scopes` by their proto names.
    pub fn scope_names(scopes: &[i32]) -> Vec<String> {
        scopes
            .iter()
            .map(|&s| {
                pb::ApiKeyScope::try_from(s)
                    .map_or_else(|_| s.to_string(), |s| s.as_str_name().to_owned())
            })
            .collect()
    }
}

/// A bot's inbox: what WatchInbox from 0 sent, and what GetInbox answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InboxRecord {
    /// Every item kept, oldest first.
    pub items: Vec<InboxItemRecord>,
    /// `GetInboxResponse.oldest_seq`.
    pub oldest_seq: u64,
    /// `GetInboxResponse.newest_seq`.
    pub newest_seq: u64,
    /// `GetInboxResponse.live_matches`, by match id, in the order listed (oldest first).
    pub live_matches: Vec<String>,
}

/// One `match_finished` item of a bot's inbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InboxItemRecord {
    pub seq: u64,
    pub match_id: String,
    pub variant_id: String,
    /// The bot's seat.
    pub seat: String,
    /// `MatchOutcome` by its proto name.
    pub outcome: String,
    /// The match's result as the item carried it.
    pub result: Option<ResultRecord>,
}

impl InboxItemRecord {
    /// The item as a record; `None` for an item of another kind, which no fixture holds.
    pub fn of(item: &pb::InboxItem) -> Option<Self> {
        let Some(pb::inbox_item::Kind::MatchFinished(finished)) = &item.kind else {
            return None;
        };
        Some(Self {
            seq: item.seq,
            match_id: finished.match_id.clone(),
            variant_id: finished.variant_id.clone(),
            seat: finished.seat.clone(),
            outcome: finished.outcome().as_str_name().to_owned(),
            result: finished.result.as_ref().map(ResultRecord::of),
        })
    }
}

/// By seat, the non-empty `SeatInfo.bot_id`s of a match summary.
pub fn bot_ids(summary: &pb::Match) -> BTreeMap<String, String> {
    summary
        .seats
        .iter()
        .filter(|s| !s.bot_id.is_empty())
        .map(|s| (s.seat.clone(), s.bot_id.clone()))
        .collect()
}

/// `bytes` in lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
