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
    /// Challenges, the queue, assigned matches and ratings between some of `bots`; fixtures
    /// from before leagues (schema 10) have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub league: Option<LeagueRecord>,
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
    /// The spectator view's position notation (in Gridiron with the hidden parts unknown), as
    /// the current notation writes it: refreshed when a notation grew (the whole-state forms).
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// One item of a bot's inbox. Fixtures from before leagues (schema 10) hold `match_finished`
/// items alone, without a rating change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InboxItemRecord {
    pub seq: u64,
    /// The item's kind by its field name: `match_finished`, `challenge_received`,
    /// `challenge_resolved`, `match_assigned` or `quota_changed`.
    #[serde(default = "InboxItemRecord::match_finished")]
    pub kind: String,
    /// The match told of (`match_finished`, `match_assigned`); empty for the other kinds.
    pub match_id: String,
    pub variant_id: String,
    /// The bot's seat.
    pub seat: String,
    /// `MatchOutcome` by its proto name (`match_finished`); empty for the other kinds.
    pub outcome: String,
    /// The match's result as the item carried it.
    pub result: Option<ResultRecord>,
    /// A rated match's rating change, as `match_finished` carried it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<RatingChangeRecord>,
    /// The challenge of `challenge_received` and `challenge_resolved`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeRecord>,
    /// The rest of `match_assigned`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assigned: Option<AssignedRecord>,
    /// The caps of `quota_changed`: `max_concurrent`, `daily_cap`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<(u32, u32)>,
}

impl InboxItemRecord {
    fn match_finished() -> String {
        "match_finished".to_owned()
    }

    /// The item as a record; `None` for an item without a kind.
    pub fn of(item: &pb::InboxItem) -> Option<Self> {
        use pb::inbox_item::Kind;
        let mut record = Self {
            seq: item.seq,
            kind: String::new(),
            match_id: String::new(),
            variant_id: String::new(),
            seat: String::new(),
            outcome: String::new(),
            result: None,
            rating_change: None,
            challenge: None,
            assigned: None,
            quota: None,
        };
        match item.kind.as_ref()? {
            Kind::MatchFinished(finished) => {
                record.kind = Self::match_finished();
                record.match_id = finished.match_id.clone();
                record.variant_id = finished.variant_id.clone();
                record.seat = finished.seat.clone();
                record.outcome = finished.outcome().as_str_name().to_owned();
                record.result = finished.result.as_ref().map(ResultRecord::of);
                record.rating_change = finished.rating_change.as_ref().map(RatingChangeRecord::of);
            }
            Kind::ChallengeReceived(challenge) => {
                record.kind = "challenge_received".to_owned();
                record.challenge = Some(ChallengeRecord::of(challenge));
            }
            Kind::ChallengeResolved(challenge) => {
                record.kind = "challenge_resolved".to_owned();
                record.challenge = Some(ChallengeRecord::of(challenge));
            }
            Kind::MatchAssigned(assigned) => {
                record.kind = "match_assigned".to_owned();
                record.match_id = assigned.match_id.clone();
                record.variant_id = assigned.variant_id.clone();
                record.seat = assigned.seat.clone();
                record.assigned = Some(AssignedRecord {
                    opponent_id: assigned.opponent_id.clone(),
                    opponent_name: assigned.opponent_name.clone(),
                    rated: assigned.rated,
                    pool: assigned.pool.clone(),
                    show_up_by: TimeRecord::of(assigned.show_up_by.as_ref()),
                });
            }
            Kind::QuotaChanged(quota) => {
                record.kind = "quota_changed".to_owned();
                record.quota = Some((quota.max_concurrent, quota.daily_cap));
            }
            // No fixture before schema 12 holds tournaments: the kind is enough to tell them.
            Kind::RoundPaired(round) => {
                record.kind = "round_paired".to_owned();
                record.match_id = round.match_ids.first().cloned().unwrap_or_default();
            }
            Kind::TournamentFinished(_) => record.kind = "tournament_finished".to_owned(),
        }
        Some(record)
    }
}

/// A moment as the API showed it (`google.protobuf.Timestamp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TimeRecord {
    pub seconds: i64,
    pub nanos: i32,
}

impl TimeRecord {
    pub fn of(time: Option<&prost_types::Timestamp>) -> Option<Self> {
        time.map(|t| Self {
            seconds: t.seconds,
            nanos: t.nanos,
        })
    }
}

/// What `match_assigned` tells beside the match, its variant and the bot's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignedRecord {
    pub opponent_id: String,
    pub opponent_name: String,
    pub rated: bool,
    pub pool: String,
    pub show_up_by: Option<TimeRecord>,
}

/// `MatchTerms` as the API showed them. No fixture asks for a time control; the server shows
/// an empty one (`has_time_control`), untimed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermsRecord {
    pub variant_id: String,
    /// Each option as `<kind>:<value>` (`int:4`, `bool:true`, `string:movement_count`).
    pub options: BTreeMap<String, String>,
    pub has_time_control: bool,
    pub rated: bool,
    /// `SeatPreference` by its proto name.
    pub seat: String,
    pub rematch_of: String,
    /// `SpeedClass` by its proto name.
    pub speed: String,
    pub pool: String,
}

impl TermsRecord {
    pub fn of(terms: &pb::MatchTerms) -> Self {
        use pb::option_value::Kind;
        Self {
            variant_id: terms.variant_id.clone(),
            options: terms
                .options
                .iter()
                .map(|(name, value)| {
                    let shown = match &value.kind {
                        Some(Kind::IntValue(v)) => format!("int:{v}"),
                        Some(Kind::BoolValue(v)) => format!("bool:{v}"),
                        Some(Kind::StringValue(v)) => format!("string:{v}"),
                        None => String::new(),
                    };
                    (name.clone(), shown)
                })
                .collect(),
            has_time_control: terms.time_control.is_some(),
            rated: terms.rated,
            seat: terms.seat().as_str_name().to_owned(),
            rematch_of: terms.rematch_of.clone(),
            speed: terms.speed().as_str_name().to_owned(),
            pool: terms.pool.clone(),
        }
    }
}

/// A challenge as the API showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRecord {
    pub challenge_id: String,
    pub challenger_id: String,
    pub challenger_name: String,
    pub target_id: String,
    pub target_name: String,
    pub terms: Option<TermsRecord>,
    pub create_time: Option<TimeRecord>,
    pub expire_time: Option<TimeRecord>,
    /// `ChallengeStatus` by its proto name.
    pub status: String,
    pub responder_id: String,
    /// `DeclineReason` by its proto name.
    pub decline_reason: String,
    pub match_id: String,
}

impl ChallengeRecord {
    pub fn of(challenge: &pb::Challenge) -> Self {
        Self {
            challenge_id: challenge.challenge_id.clone(),
            challenger_id: challenge.challenger_id.clone(),
            challenger_name: challenge.challenger_name.clone(),
            target_id: challenge.target_id.clone(),
            target_name: challenge.target_name.clone(),
            terms: challenge.terms.as_ref().map(TermsRecord::of),
            create_time: TimeRecord::of(challenge.create_time.as_ref()),
            expire_time: TimeRecord::of(challenge.expire_time.as_ref()),
            status: challenge.status().as_str_name().to_owned(),
            responder_id: challenge.responder_id.clone(),
            decline_reason: challenge.decline_reason().as_str_name().to_owned(),
            match_id: challenge.match_id.clone(),
        }
    }
}

/// A Glicko-2 rating as the API showed it. The floats are kept exactly: serde_json writes
/// the shortest form that reads back as the same number (`float_roundtrip` reads it so).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingRecord {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub last_rated_time: Option<TimeRecord>,
    pub provisional: bool,
}

impl RatingRecord {
    pub fn of(rating: &pb::Rating) -> Self {
        Self {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
            games: rating.games,
            last_rated_time: TimeRecord::of(rating.last_rated_time.as_ref()),
            provisional: rating.provisional,
        }
    }
}

/// One rated result of a bot, as `ListRatingChanges` and `match_finished` showed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChangeRecord {
    pub match_id: String,
    pub pool: String,
    pub bot_id: String,
    pub opponent_id: String,
    /// `MatchOutcome` by its proto name.
    pub outcome: String,
    pub before: Option<RatingRecord>,
    pub after: Option<RatingRecord>,
    pub time: Option<TimeRecord>,
}

impl RatingChangeRecord {
    pub fn of(change: &pb::RatingChange) -> Self {
        Self {
            match_id: change.match_id.clone(),
            pool: change.pool.clone(),
            bot_id: change.bot_id.clone(),
            opponent_id: change.opponent_id.clone(),
            outcome: change.outcome().as_str_name().to_owned(),
            before: change.before.as_ref().map(RatingRecord::of),
            after: change.after.as_ref().map(RatingRecord::of),
            time: TimeRecord::of(change.time.as_ref()),
        }
    }
}

/// A bot's acceptance policy as `GetAcceptancePolicy` showed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyRecord {
    pub variants: Vec<String>,
    pub rated_only: bool,
    pub casual_only: bool,
    /// `SpeedClass`es by their proto names.
    pub speeds: Vec<String>,
    pub min_rating: f64,
    pub max_rating: f64,
}

impl PolicyRecord {
    pub fn of(policy: &pb::AcceptancePolicy) -> Self {
        Self {
            variants: policy.variants.clone(),
            rated_only: policy.rated_only,
            casual_only: policy.casual_only,
            speeds: policy
                .speeds
                .iter()
                .map(|&s| {
                    pb::SpeedClass::try_from(s)
                        .map_or_else(|_| s.to_string(), |s| s.as_str_name().to_owned())
                })
                .collect(),
            min_rating: policy.min_rating,
            max_rating: policy.max_rating,
        }
    }
}

/// A queue ticket as `ListTickets` showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TicketRecord {
    pub ticket_id: String,
    pub pool: String,
    pub terms: Option<TermsRecord>,
    pub enter_time: Option<TimeRecord>,
    /// `TicketStatus` by its proto name.
    pub status: String,
    pub match_id: String,
}

impl TicketRecord {
    pub fn of(ticket: &pb::Ticket) -> Self {
        Self {
            ticket_id: ticket.ticket_id.clone(),
            pool: ticket.pool.clone(),
            terms: ticket.terms.as_ref().map(TermsRecord::of),
            enter_time: TimeRecord::of(ticket.enter_time.as_ref()),
            status: ticket.status().as_str_name().to_owned(),
            match_id: ticket.match_id.clone(),
        }
    }
}

/// What the league held when the fixture was written. Bots are named as in
/// [`Manifest::bots`]; every bot's inbox is recorded there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeagueRecord {
    /// The bot with an acceptance policy, and the policy.
    pub policy_bot: String,
    pub policy: PolicyRecord,
    /// Every challenge made, by what it is for (`rated-played`, `casual-played`, `declined`,
    /// `cancelled`, `open`, `unjoined`), as `GetChallenge` showed it last.
    pub challenges: BTreeMap<String, ChallengeRecord>,
    /// The one waiting ticket: its bot, and the ticket as `ListTickets` showed it.
    pub waiting_bot: String,
    pub waiting_ticket: TicketRecord,
    /// The assigned match one bot joined and the other did not (yet).
    pub unjoined: UnjoinedRecord,
    /// Per bot with a rating: `GetRatings` (the deviation aged to when it was asked).
    pub ratings: BTreeMap<String, Vec<(String, RatingRecord)>>,
    /// Per bot with a rating: `ListRatingChanges`, as listed.
    pub rating_changes: BTreeMap<String, Vec<RatingChangeRecord>>,
}

/// An assigned match with one seat taken and the other still reserved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnjoinedRecord {
    pub match_id: String,
    pub variant_id: String,
    /// By seat, the bot it is reserved for.
    pub seats: BTreeMap<String, String>,
    /// The bot that took its seat.
    pub joined: String,
    /// The bot that did not.
    pub absent: String,
    pub show_up_by: Option<TimeRecord>,
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
