//! `store-fixture`: fills a running Pitchmate server with matches in many states, through the
//! public API (the Rust SDK) alone, and writes a manifest of them as JSON. Stopped afterwards,
//! the server's database is a fixture that later versions of the server must still open and
//! play on (`tests/fixtures/`, `tests/tests/stored_fixture.rs`).
//!
//! ```sh
//! store-fixture --server http://127.0.0.1:50999 --manifest manifest.json
//! ```
//!
//! Run it against a server with an empty data directory: the test expects the database to hold
//! exactly the matches of the manifest, and its bots.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Parser;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{
    Bot, Choice, Client, ClientError, NewMatch, RandomChoice, SeatHandle, authorized, pb, play,
};
use pitchmate_e2e::fixture::{
    BotRecord, ChallengeRecord, ClockRecord, HiddenRecord, InboxItemRecord, InboxRecord, KeyRecord,
    LeagueRecord, Manifest, PolicyRecord, RatingChangeRecord, RatingRecord, ResultRecord, Retry,
    SeatRecord, Seen, State, StoredMatch, TicketRecord, TurnRecord, UnjoinedRecord, bot_ids, hex,
};
use pitchmate_e2e::history_so_far;

/// Fills a running server with matches in many states and writes a manifest of them.
#[derive(Parser)]
struct Args {
    /// The server to fill, e.g. `http://127.0.0.1:50999`; its data directory should be empty.
    #[arg(long)]
    server: String,
    /// Where to write the manifest (JSON).
    #[arg(long)]
    manifest: PathBuf,
}

/// The longest duration a time control accepts.
const DAY: Duration = Duration::from_secs(24 * 60 * 60);

fn duration(value: Duration) -> Option<prost_types::Duration> {
    prost_types::Duration::try_from(value).ok()
}

/// Options that keep each game short, so that the test can play every unfinished match to its
/// end in seconds.
fn short(variant: &str) -> NewMatch {
    let new = NewMatch::variant(variant);
    match variant {
        "soccer-chess" => new
            .int_option("sets_per_game", 1)
            .int_option("golden_goal_max_sets", 1),
        "chessyball" => new.int_option("max_turns", 8),
        "kings-goal" => new.int_option("moves_per_half", 4),
        "xfutebol" => new
            .text_option("winning_style", "movement_count")
            .int_option("movement_limit", 10)
            .int_option("shootout_rounds", 1)
            .int_option("sudden_death_rounds", 0),
        "gridiron" => new
            .int_option("possessions_per_half", 1)
            .int_option("turns_per_down", 2)
            .int_option("overtime_periods", 0),
        other => panic!("no short options for {other}"),
    }
}

/// A match being made, before it is recorded.
struct Making {
    name: &'static str,
    state: State,
    match_id: String,
    client_seed: Option<u64>,
    seats: Vec<SeatHandle>,
    retry: Option<Retry>,
    /// The seat whose clock runs.
    clock_seat: Option<String>,
    /// Actions submitted with client action ids so far, to number the next id.
    submitted: usize,
    /// The seats bots took with their keys, by seat: the bot's name. Their handles in `seats`
    /// carry the key where a seat token would be.
    bot_seats: BTreeMap<String, String>,
}

impl Making {
    fn seat(&self, name: &str) -> SeatHandle {
        self.seats
            .iter()
            .find(|s| s.seat == name)
            .unwrap_or_else(|| panic!("{}: seat {name} not taken", self.name))
            .clone()
    }

    /// Acts as the bot-held `seat` with `key` from now on.
    fn use_key(&mut self, seat: &str, key: &str) {
        let name = self.name;
        let handle = self
            .seats
            .iter_mut()
            .find(|s| s.seat == seat)
            .unwrap_or_else(|| panic!("{name}: seat {seat} not taken"));
        handle.token = key.to_owned();
    }
}

/// Presents `key` as `authorization: Bearer`: the SDK wraps no BotService call, and a seat
/// handle is what puts a bearer header on a request (a bot's key goes where a seat token
/// would).
fn holder(key: &str) -> SeatHandle {
    SeatHandle {
        match_id: String::new(),
        seat: String::new(),
        token: key.to_owned(),
    }
}

struct Generator {
    client: Client,
    /// Picks among legal actions, from a fixed seed.
    chooser: RandomChoice,
}

impl Generator {
    async fn create(
        &self,
        name: &'static str,
        state: State,
        new: NewMatch,
        seats: &[&str],
    ) -> Making {
        let client_seed = new.seed;
        let created = self
            .client
            .create_match(new)
            .await
            .unwrap_or_else(|e| panic!("{name}: create: {e}"));
        let mut making = Making {
            name,
            state,
            match_id: created.match_id,
            client_seed,
            seats: Vec::new(),
            retry: None,
            clock_seat: None,
            submitted: 0,
            bot_seats: BTreeMap::new(),
        };
        for seat in seats {
            let taken = self
                .client
                .join(&making.match_id, Some(seat), &format!("{name}-{seat}"))
                .await
                .unwrap_or_else(|e| panic!("{name}: join {seat}: {e}"));
            making.seats.push(taken);
        }
        making
    }

    /// Takes `seat` for the bot named `bot`, whose key is `key`: the join answers no seat
    /// token, and the seat acts with the key.
    async fn join_bot(&self, making: &mut Making, seat: &str, bot: &str, key: &str) {
        let name = making.name;
        let request = holder(key)
            .authorize(pb::JoinMatchRequest {
                match_id: making.match_id.clone(),
                seat: seat.to_owned(),
                player_name: String::new(),
            })
            .expect("a key fits in a header");
        let joined = self
            .client
            .matches()
            .join_match(request)
            .await
            .unwrap_or_else(|e| panic!("{name}: {bot} joins as {seat}: {e}"))
            .into_inner();
        assert_eq!(joined.seat, seat, "{name}");
        assert_eq!(joined.seat_token, "", "{name}: a bot acts with its key");
        let shown = joined
            .r#match
            .unwrap_or_default()
            .seats
            .into_iter()
            .find(|s| s.seat == seat)
            .map(|s| s.player_name);
        assert_eq!(
            shown.as_deref(),
            Some(bot),
            "{name}: the seat shows the bot"
        );
        making.seats.push(SeatHandle {
            match_id: making.match_id.clone(),
            seat: seat.to_owned(),
            token: key.to_owned(),
        });
        making.bot_seats.insert(seat.to_owned(), bot.to_owned());
    }

    async fn summary(&self, match_id: &str) -> (pb::Match, pb::MatchView) {
        let got = self
            .client
            .get_match(match_id, None)
            .await
            .unwrap_or_else(|e| panic!("get match {match_id}: {e}"));
        (
            got.r#match.unwrap_or_default(),
            got.view.unwrap_or_default(),
        )
    }

    async fn turn(&self, match_id: &str) -> pb::TurnInfo {
        self.summary(match_id).await.0.turn.unwrap_or_default()
    }

    /// The first seat named to act.
    async fn seat_to_act(&self, making: &Making) -> SeatHandle {
        let turn = self.turn(&making.match_id).await;
        let name = turn
            .to_act
            .first()
            .unwrap_or_else(|| panic!("{}: nobody is to act", making.name));
        making.seat(name)
    }

    /// Submits, as `seat` and with a fresh client action id, the action `pick` chooses from the
    /// seat's legal actions (in notation), by index, and keeps it as the match's retry.
    async fn act(
        &mut self,
        making: &mut Making,
        seat: &SeatHandle,
        pick: impl FnOnce(&mut RandomChoice, &[pb::LegalAction]) -> pb::LegalAction,
    ) -> pb::SubmitActionResponse {
        let legal = self
            .client
            .legal_actions_in(seat, pb::ActionDetail::Notation)
            .await
            .unwrap_or_else(|e| panic!("{}: legal actions: {e}", making.name));
        assert!(
            !legal.actions.is_empty(),
            "{}: {} has nothing to do",
            making.name,
            seat.seat
        );
        let chosen = pick(&mut self.chooser, &legal.actions);
        making.submitted += 1;
        let client_action_id = format!("{}-{}", making.name, making.submitted);
        let answer = self
            .client
            .submit(
                seat,
                legal.version,
                &client_action_id,
                Choice::Index(chosen.index),
            )
            .await
            .unwrap_or_else(|e| panic!("{}: {} {}: {e}", making.name, seat.seat, chosen.notation));
        making.retry = Some(Retry {
            seat: seat.seat.clone(),
            client_action_id,
            expected_version: legal.version,
            notation: chosen.notation,
            answered_version: answer.version,
            answered_seqs: answer.events.iter().map(|e| e.seq).collect(),
        });
        answer
    }

    /// Acts as `seat` with the action of notation `notation`.
    async fn act_notation(&mut self, making: &mut Making, seat: &SeatHandle, notation: &str) {
        let wanted = notation.to_owned();
        let name = making.name;
        self.act(making, seat, |_, legal| {
            legal
                .iter()
                .find(|a| a.notation == wanted)
                .unwrap_or_else(|| panic!("{name}: `{wanted}` is not legal"))
                .clone()
        })
        .await;
    }

    /// Plays `count` actions of the seats to act, each a random legal action whose notation
    /// contains none of `avoid`.
    async fn play_random(&mut self, making: &mut Making, count: usize, avoid: &[&str]) {
        for _ in 0..count {
            let seat = self.seat_to_act(making).await;
            self.play_random_as(making, &seat, avoid).await;
        }
    }

    /// Acts once as `seat` with a random legal action whose notation contains none of
    /// `avoid`.
    async fn play_random_as(&mut self, making: &mut Making, seat: &SeatHandle, avoid: &[&str]) {
        self.act(making, seat, |chooser, legal| {
            let allowed: Vec<pb::LegalAction> = legal
                .iter()
                .filter(|a| !avoid.iter().any(|word| a.notation.contains(word)))
                .cloned()
                .collect();
            let Choice::Index(index) = chooser.choose(&pb::MatchView::default(), &allowed) else {
                unreachable!("the random bot picks by index")
            };
            allowed.into_iter().find(|a| a.index == index).unwrap()
        })
        .await;
    }

    /// Lets every seat to act play the first of `preferred` it may, until the turn's phase is
    /// `phase`.
    async fn advance_to_phase(&mut self, making: &mut Making, phase: &str, preferred: &[&str]) {
        for _ in 0..200 {
            let turn = self.turn(&making.match_id).await;
            if turn.phase == phase {
                return;
            }
            for name in &turn.to_act {
                let seat = making.seat(name);
                let label = making.name;
                self.act(making, &seat, |_, legal| {
                    preferred
                        .iter()
                        .find_map(|p| legal.iter().find(|a| a.notation == *p))
                        .unwrap_or_else(|| {
                            panic!("{label}: none of {preferred:?} is legal in {}", turn.phase)
                        })
                        .clone()
                })
                .await;
            }
        }
        panic!("{}: never reached phase {phase}", making.name);
    }

    /// Both seats played to the end by the SDK's play loop; the client action ids are the
    /// loop's own (`<seat>@<version>`).
    async fn play_to_end(&self, making: &mut Making) {
        let players: Vec<_> = making
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| {
                let (client, seat) = (self.client.clone(), seat.clone());
                tokio::spawn(async move {
                    play(&client, &seat, &mut RandomChoice::seeded(i as u64 + 1)).await
                })
            })
            .collect();
        for player in players {
            player
                .await
                .expect("player task")
                .unwrap_or_else(|e| panic!("{}: play: {e}", making.name));
        }
        // The last action of the last seat that acted, as the play loop numbered it.
        let mut last = None;
        for seat in &making.seats {
            let history = history_so_far(&self.client, &making.match_id, Some(seat)).await;
            if let Some(event) = history.iter().rev().find(|event| {
                matches!(&event.kind, Some(Kind::ActionTaken(taken)) if taken.seat == seat.seat)
            }) {
                last = Some((seat.clone(), event.clone()));
            }
        }
        let (seat, event) = last.expect("someone acted");
        let Some(Kind::ActionTaken(taken)) = event.kind else {
            unreachable!()
        };
        let expected_version = event.version - 1;
        // Asking again is the only way to learn what the loop was answered; a duplicate gets
        // exactly the first answer.
        let again = self
            .client
            .submit(
                &seat,
                expected_version,
                &format!("{}@{expected_version}", seat.seat),
                Choice::Notation(taken.notation.clone()),
            )
            .await
            .unwrap_or_else(|e| panic!("{}: retry of the play loop's id: {e}", making.name));
        assert!(again.duplicate, "{}: the play loop's id", making.name);
        making.retry = Some(Retry {
            seat: seat.seat.clone(),
            client_action_id: format!("{}@{expected_version}", seat.seat),
            expected_version,
            notation: taken.notation,
            answered_version: again.version,
            answered_seqs: again.events.iter().map(|e| e.seq).collect(),
        });
    }

    /// What the API shows of the match now, checked against what the generator meant to make.
    async fn record(&self, making: Making) -> StoredMatch {
        let name = making.name;
        let (summary, view) = self.summary(&making.match_id).await;
        let over = making.state.is_over();
        assert_eq!(
            summary.result.is_some(),
            over,
            "{name}: over is {over}, the server says {summary:?}"
        );
        let chance = summary.chance.clone().unwrap_or_default();
        assert_eq!(
            chance.seed_source(),
            if making.client_seed.is_some() {
                pb::SeedSource::Client
            } else {
                pb::SeedSource::Server
            },
            "{name}"
        );
        let mut seen_by_seat = BTreeMap::new();
        let mut legal_by_seat = BTreeMap::new();
        let mut drafted = BTreeMap::new();
        for seat in &making.seats {
            let got = self
                .client
                .get_match(&making.match_id, Some(seat))
                .await
                .unwrap_or_else(|e| panic!("{name}: get match as {}: {e}", seat.seat));
            let own = got.r#match.unwrap_or_default();
            seen_by_seat.insert(
                seat.seat.clone(),
                Seen {
                    last_seq: own.last_seq,
                    version: own.version,
                },
            );
            if let Some(pb::match_view::Details::Gridiron(details)) =
                got.view.and_then(|v| v.details)
            {
                drafted.insert(seat.seat.clone(), HiddenRecord::drafted_items(&details));
            }
            if summary.status() == pb::MatchStatus::Active {
                let legal = self
                    .client
                    .legal_actions_in(seat, pb::ActionDetail::Notation)
                    .await
                    .unwrap_or_else(|e| panic!("{name}: legal actions: {e}"));
                let mut notations: Vec<String> =
                    legal.actions.into_iter().map(|a| a.notation).collect();
                notations.sort();
                legal_by_seat.insert(seat.seat.clone(), notations);
            }
        }
        let hidden = match (&making.state, &view.details) {
            (State::HiddenPhase, Some(pb::match_view::Details::Gridiron(details))) => {
                Some(HiddenRecord {
                    phase: details.phase.clone(),
                    committed: details.committed.clone(),
                    drafted,
                })
            }
            (State::HiddenPhase, _) => panic!("{name}: a hidden phase outside Gridiron"),
            _ => None,
        };
        let clock = match &making.clock_seat {
            None => None,
            Some(seat) => {
                let history = history_so_far(&self.client, &making.match_id, None).await;
                let deadline = history
                    .iter()
                    .rev()
                    .find_map(|event| match &event.kind {
                        Some(Kind::TurnStarted(turn)) => turn.deadline,
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{name}: no running clock announced"));
                Some(ClockRecord {
                    seat: seat.clone(),
                    deadline_unix_secs: deadline.seconds,
                })
            }
        };
        let replay_events = if over {
            let replay = self
                .client
                .replay(&making.match_id)
                .await
                .unwrap_or_else(|e| panic!("{name}: replay: {e}"));
            Some(replay.events.len() as u64)
        } else {
            None
        };
        if let Some(retry) = &making.retry {
            self.check_retry(name, &making, retry).await;
        }
        let bot_ids = bot_ids(&summary);
        assert_eq!(
            bot_ids.keys().collect::<Vec<_>>(),
            making.bot_seats.keys().collect::<Vec<_>>(),
            "{name}: the seats that show a bot are the seats bots took"
        );
        StoredMatch {
            name: name.to_owned(),
            state: making.state,
            match_id: making.match_id.clone(),
            variant_id: summary.variant_id.clone(),
            status: summary.status().as_str_name().to_owned(),
            client_seed: making.client_seed,
            commitment: hex(&chance.commitment),
            seats: summary
                .seats
                .iter()
                .map(|s| SeatRecord {
                    seat: s.seat.clone(),
                    player_name: s.player_name.clone(),
                })
                .collect(),
            // A bot's seat has no token; the bot's keys are kept with the bot.
            tokens: making
                .seats
                .iter()
                .map(|s| {
                    let token = if making.bot_seats.contains_key(&s.seat) {
                        String::new()
                    } else {
                        s.token.clone()
                    };
                    (s.seat.clone(), token)
                })
                .collect(),
            bot_seats: making.bot_seats.clone(),
            bot_ids: Some(bot_ids),
            spectator: Seen {
                last_seq: summary.last_seq,
                version: summary.version,
            },
            seen_by_seat,
            turn: summary
                .turn
                .as_ref()
                .filter(|_| summary.status() == pb::MatchStatus::Active)
                .map(TurnRecord::of),
            position: view.position,
            legal_by_seat,
            draw_offered_by: summary.draw_offered_by.clone(),
            result: summary.result.as_ref().map(ResultRecord::of),
            replay_events,
            retry: making.retry,
            clock,
            hidden,
        }
    }

    /// A retry recorded in the manifest must be answered as a duplicate now, before the
    /// fixture is written, or the test could not hold a later server to it.
    async fn check_retry(&self, name: &str, making: &Making, retry: &Retry) {
        let seat = making.seat(&retry.seat);
        let again = self
            .client
            .submit(
                &seat,
                retry.expected_version,
                &retry.client_action_id,
                Choice::Notation(retry.notation.clone()),
            )
            .await
            .unwrap_or_else(|e| panic!("{name}: retry: {e}"));
        assert!(again.duplicate, "{name}: the retry is a duplicate");
        assert_eq!(again.version, retry.answered_version, "{name}");
        let seqs: Vec<u64> = again.events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, retry.answered_seqs, "{name}");
    }
}

/// Calls `claim` until the opponent has been away long enough, for at most `patience`.
async fn claim_when_away(client: &Client, claimant: &SeatHandle, patience: Duration) -> pb::Match {
    let started = tokio::time::Instant::now();
    loop {
        match client.claim_victory(claimant).await {
            Ok(summary) => return summary,
            Err(error)
                if error.reason().as_deref() == Some("OPPONENT_CONNECTED")
                    && started.elapsed() < patience =>
            {
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(error) => panic!("claim victory: {error}"),
        }
    }
}

async fn generate(client: Client, server: &str) -> Manifest {
    let mut generator = Generator {
        client: client.clone(),
        chooser: RandomChoice::seeded(2024),
    };
    let g = &mut generator;
    let mut made = Vec::new();

    // Unfinished, one or more of every game.

    let mut m = g
        .create(
            "soccer-chess-mid-setup",
            State::Setup,
            short("soccer-chess"),
            &["first", "second"],
        )
        .await;
    // Placing piece by piece, never the whole default formation, keeps the setup going.
    g.play_random(&mut m, 5, &["default"]).await;
    assert_eq!(g.turn(&m.match_id).await.phase, "setup", "{}", m.name);
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "chessyball-in-play",
            State::InPlay,
            short("chessyball")
                .seed(21)
                .bool_option("end_turn_early", true),
            &["home", "away"],
        )
        .await;
    g.play_random(&mut m, 4, &[]).await;
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "kings-goal-in-play",
            State::InPlay,
            short("kings-goal"),
            &["white", "black"],
        )
        .await;
    g.advance_to_phase(&mut m, "play", &["+default", "@default"])
        .await;
    g.play_random(&mut m, 2, &[]).await;
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "xfutebol-in-play",
            State::InPlay,
            short("xfutebol").seed(41),
            &["home", "away"],
        )
        .await;
    g.advance_to_phase(&mut m, "play", &["default"]).await;
    g.play_random(&mut m, 3, &[]).await;
    made.push(g.record(m).await);

    // The roster phase: home has drafted two picks in secret, away nothing.
    let mut m = g
        .create(
            "gridiron-roster-drafted-by-one-seat",
            State::HiddenPhase,
            short("gridiron"),
            &["home", "away"],
        )
        .await;
    let home = m.seat("home");
    g.act_notation(&mut m, &home, "captain safety").await;
    g.act_notation(&mut m, &home, "recruit heavy").await;
    made.push(g.record(m).await);

    // The first snap: home has written an order and committed, away has written one and not.
    let mut m = g
        .create(
            "gridiron-snap-orders-half-committed",
            State::HiddenPhase,
            short("gridiron").seed(51),
            &["home", "away"],
        )
        .await;
    g.advance_to_phase(
        &mut m,
        "snap",
        &["roster default", "roster done", "ready", "go"],
    )
    .await;
    let (home, away) = (m.seat("home"), m.seat("away"));
    g.play_random_as(&mut m, &home, &["commit"]).await;
    g.act_notation(&mut m, &home, "commit").await;
    g.play_random_as(&mut m, &away, &["commit"]).await;
    made.push(g.record(m).await);

    // A day per move and a day's bank, the longest the contract allows, and timeouts that
    // play the game's default instead of ending the match: whenever the test runs, the match
    // is still on and the offer still stands (see the fixture's README).
    let clocked = NewMatch {
        time_control: Some(pb::TimeControl {
            kind: Some(pb::time_control::Kind::PerMoveWithBank(
                pb::PerMoveWithBank {
                    per_move: duration(DAY),
                    bank: duration(DAY),
                },
            )),
        }),
        timeout_policy: Some(pb::TimeoutPolicy {
            action: pb::TimeoutAction::PlayDefault as i32,
            forfeit_after: 0,
        }),
        ..short("kings-goal")
    };
    let mut m = g
        .create(
            "kings-goal-clock-and-draw-offer",
            State::ClockWithDrawOffer,
            clocked,
            &["white", "black"],
        )
        .await;
    g.play_random(&mut m, 2, &["default"]).await;
    // The seat whose clock runs offers: a default action played for it when its time runs out
    // is its own, which does not decline its own offer.
    let offering = g.seat_to_act(&m).await;
    client
        .offer_draw(&offering)
        .await
        .unwrap_or_else(|e| panic!("{}: offer draw: {e}", m.name));
    m.clock_seat = Some(offering.seat.clone());
    made.push(g.record(m).await);

    let m = g
        .create(
            "xfutebol-waiting-nobody-joined",
            State::WaitingEmpty,
            short("xfutebol")
                .text_option("winning_style", "golden_goal")
                .int_option("movements_per_half", 10),
            &[],
        )
        .await;
    made.push(g.record(m).await);

    let m = g
        .create(
            "chessyball-waiting-one-seat-taken",
            State::WaitingOneSeat,
            short("chessyball").seed(91),
            &["away"],
        )
        .await;
    made.push(g.record(m).await);

    // Finished, every way a match can end.

    let mut m = g
        .create(
            "kings-goal-ended-by-rules",
            State::EndedByRules,
            short("kings-goal").seed(101),
            &["white", "black"],
        )
        .await;
    g.play_to_end(&mut m).await;
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "gridiron-ended-by-rules",
            State::EndedByRules,
            short("gridiron"),
            &["home", "away"],
        )
        .await;
    g.play_to_end(&mut m).await;
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "xfutebol-resigned",
            State::Resigned,
            short("xfutebol"),
            &["home", "away"],
        )
        .await;
    g.advance_to_phase(&mut m, "play", &["default"]).await;
    g.play_random(&mut m, 2, &[]).await;
    client
        .resign(&m.seat("away"))
        .await
        .unwrap_or_else(|e| panic!("{}: resign: {e}", m.name));
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "soccer-chess-draw-agreed",
            State::DrawAgreed,
            short("soccer-chess").seed(121),
            &["first", "second"],
        )
        .await;
    g.advance_to_phase(&mut m, "play", &["default"]).await;
    g.play_random(&mut m, 2, &[]).await;
    client
        .offer_draw(&m.seat("first"))
        .await
        .unwrap_or_else(|e| panic!("{}: offer draw: {e}", m.name));
    client
        .accept_draw(&m.seat("second"))
        .await
        .unwrap_or_else(|e| panic!("{}: accept draw: {e}", m.name));
    made.push(g.record(m).await);

    let m = g
        .create(
            "chessyball-aborted",
            State::Aborted,
            short("chessyball"),
            &["home", "away"],
        )
        .await;
    client
        .abort(&m.seat("home"))
        .await
        .unwrap_or_else(|e| panic!("{}: abort: {e}", m.name));
    made.push(g.record(m).await);

    // A third of a second a move: nobody acts, the server plays a default for each seat's
    // first timeout and the second in a row forfeits.
    let rushed = NewMatch {
        time_control: Some(pb::TimeControl {
            kind: Some(pb::time_control::Kind::PerMove(pb::PerMoveTime {
                per_move: duration(Duration::from_millis(300)),
                first_move: None,
            })),
        }),
        timeout_policy: Some(pb::TimeoutPolicy {
            action: pb::TimeoutAction::PlayDefault as i32,
            forfeit_after: 2,
        }),
        ..short("chessyball")
    };
    let m = g
        .create(
            "chessyball-timed-out",
            State::TimedOut,
            rushed,
            &["home", "away"],
        )
        .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while g.summary(&m.match_id).await.0.result.is_none() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{}: no timeout ended the match",
            m.name
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    made.push(g.record(m).await);

    let mut m = g
        .create(
            "xfutebol-abandoned",
            State::Abandoned,
            NewMatch {
                abandon_after: duration(Duration::from_secs(1)),
                ..short("xfutebol").seed(141)
            },
            &["home", "away"],
        )
        .await;
    let home = m.seat("home");
    g.act_notation(&mut m, &home, "default").await;
    // Away made no call since it joined: after a second it counts as gone.
    claim_when_away(&client, &home, Duration::from_secs(20)).await;
    made.push(g.record(m).await);

    let mut bots = bot_matches(g, server, &mut made).await;
    let league = league(g, &mut bots).await;
    Manifest {
        matches: made,
        bots,
        league: Some(league),
    }
}

const HOME_BOT: &str = "fixture-home";
const AWAY_BOT: &str = "fixture-away";

/// The part of `key` a record keeps, before it is known whether the key gets revoked.
fn key_record(key: Option<pb::ApiKey>, secret: String) -> KeyRecord {
    let key = key.expect("the answer shows the key");
    KeyRecord {
        key_id: key.key_id,
        label: key.label,
        scopes: KeyRecord::scope_names(&key.scopes),
        secret,
        revoked: false,
    }
}

/// Registers two bots and has them play, through their keys alone, a match to its end and
/// another that stays unfinished. The away bot's extra PLAY-only key takes its seat in the
/// unfinished one and is revoked while the match goes on: the seat belongs to the bot, not to
/// the key, so the bot's first key acts for it afterwards, as it must on a later server. Each
/// bot's inbox is recorded last, once the server has written it.
async fn bot_matches(
    g: &mut Generator,
    server: &str,
    made: &mut Vec<StoredMatch>,
) -> Vec<BotRecord> {
    let mut bots = pb::bot_service_client::BotServiceClient::connect(server.to_owned())
        .await
        .unwrap_or_else(|e| panic!("connect the bot service: {e}"));
    // Per bot: its id and its keys, oldest first.
    let mut registered: Vec<(String, Vec<KeyRecord>)> = Vec::new();
    for name in [HOME_BOT, AWAY_BOT] {
        let created = bots
            .create_bot(pb::CreateBotRequest {
                name: name.to_owned(),
                owner: "store-fixture".to_owned(),
                description: format!("{name} plays at random for the stored-match fixture"),
                variants: vec!["kings-goal".to_owned(), "xfutebol".to_owned()],
            })
            .await
            .unwrap_or_else(|e| panic!("create bot {name}: {e}"))
            .into_inner();
        let bot_id = created.bot.expect("the answer shows the bot").bot_id;
        registered.push((bot_id, vec![key_record(created.key, created.secret)]));
    }
    let home_key = registered[0].1[0].secret.clone();
    let away_key = registered[1].1[0].secret.clone();

    // Played to its end before the other is made, so that neither bot ever holds two live
    // matches: a new bot's cap (`max_concurrent`) is one, and a server that enforces it must
    // not find the store past it.
    let mut m = g
        .create(
            "xfutebol-bots-ended-by-rules",
            State::EndedByRules,
            short("xfutebol").seed(161),
            &[],
        )
        .await;
    g.join_bot(&mut m, "home", HOME_BOT, &home_key).await;
    g.join_bot(&mut m, "away", AWAY_BOT, &away_key).await;
    g.play_to_end(&mut m).await;
    made.push(g.record(m).await);

    let made_key = bots
        .create_api_key(
            holder(&away_key)
                .authorize(pb::CreateApiKeyRequest {
                    bot_id: registered[1].0.clone(),
                    label: "play-only".to_owned(),
                    scopes: vec![pb::ApiKeyScope::Play as i32],
                })
                .expect("a key fits in a header"),
        )
        .await
        .unwrap_or_else(|e| panic!("create a PLAY key: {e}"))
        .into_inner();
    let play_only = key_record(made_key.key, made_key.secret);

    let mut m = g
        .create(
            "kings-goal-bots-in-play",
            State::InPlay,
            short("kings-goal"),
            &[],
        )
        .await;
    g.join_bot(&mut m, "white", HOME_BOT, &home_key).await;
    g.join_bot(&mut m, "black", AWAY_BOT, &play_only.secret)
        .await;
    g.advance_to_phase(&mut m, "play", &["+default", "@default"])
        .await;
    g.play_random(&mut m, 1, &[]).await;
    let revoked = bots
        .revoke_api_key(
            holder(&away_key)
                .authorize(pb::RevokeApiKeyRequest {
                    key_id: play_only.key_id.clone(),
                })
                .expect("a key fits in a header"),
        )
        .await
        .unwrap_or_else(|e| panic!("revoke the PLAY key: {e}"))
        .into_inner();
    assert!(
        revoked.key.is_some_and(|k| k.revoke_time.is_some()),
        "the PLAY key is revoked"
    );
    let refused = g
        .client
        .legal_actions(&m.seat("black"))
        .await
        .expect_err("a revoked key acts for no seat");
    assert_eq!(refused.reason().as_deref(), Some("API_KEY_REVOKED"));
    m.use_key("black", &away_key);
    // Black acts at least once more, with the bot's first key: the stored match then shows
    // the seat acting on after the key that took it was revoked.
    for _ in 0..4 {
        let seat = g.seat_to_act(&m).await;
        g.play_random_as(&mut m, &seat, &[]).await;
        if seat.seat == "black" {
            break;
        }
    }
    assert_eq!(m.retry.as_ref().map(|r| r.seat.as_str()), Some("black"));
    made.push(g.record(m).await);
    registered[1].1.push(KeyRecord {
        revoked: true,
        ..play_only
    });

    let mut records = Vec::new();
    for (bot_id, keys) in registered {
        let bot = bots
            .get_bot(pb::GetBotRequest {
                bot_id: bot_id.clone(),
                name: String::new(),
            })
            .await
            .unwrap_or_else(|e| panic!("get bot {bot_id}: {e}"))
            .into_inner()
            .bot
            .expect("the answer shows the bot");
        // What the test will hold a later server to must hold now.
        for key in &keys {
            let answer = bots
                .who_am_i(
                    holder(&key.secret)
                        .authorize(pb::WhoAmIRequest {})
                        .expect("a key fits in a header"),
                )
                .await;
            match answer {
                Ok(me) if !key.revoked => {
                    let me = me.into_inner();
                    assert_eq!(me.bot.as_ref(), Some(&bot), "{}", key.key_id);
                    assert_eq!(me.key.map(|k| k.key_id), Some(key.key_id.clone()));
                }
                Err(status) if key.revoked => {
                    let reason = ClientError::from(status).reason();
                    assert_eq!(reason.as_deref(), Some("API_KEY_REVOKED"), "{}", key.key_id);
                }
                other => panic!(
                    "key {}: revoked {}, WhoAmI: {other:?}",
                    key.key_id, key.revoked
                ),
            }
        }
        records.push(BotRecord {
            bot_id: bot.bot_id,
            name: bot.name,
            owner: bot.owner,
            description: bot.description,
            variants: bot.variants,
            max_concurrent: bot.max_concurrent,
            daily_cap: bot.daily_cap,
            create_time_unix_secs: bot.create_time.map_or(0, |t| t.seconds),
            keys,
            inbox: None,
        });
    }
    for stored in made.iter() {
        for (seat, bot) in &stored.bot_seats {
            let shown = stored.bot_ids.as_ref().and_then(|ids| ids.get(seat));
            let registered = records.iter().find(|r| &r.name == bot).map(|r| &r.bot_id);
            assert_eq!(shown, registered, "{}: {seat} names its bot", stored.name);
        }
    }
    record_inboxes(server, made, &mut records).await;
    records
}

/// Each bot's inbox as WatchInbox from 0 and GetInbox show it, once the server's follower of
/// the lifecycle feed has caught up: it writes an item a few milliseconds after a match ends,
/// and learns of a seat a bot took as late, so reading at once could find either missing.
async fn record_inboxes(server: &str, made: &[StoredMatch], records: &mut [BotRecord]) {
    let mut inboxes = pb::inbox_service_client::InboxServiceClient::connect(server.to_owned())
        .await
        .unwrap_or_else(|e| panic!("connect the inbox service: {e}"));
    for bot in records.iter_mut() {
        let name = bot.name.clone();
        let held: Vec<&StoredMatch> = made
            .iter()
            .filter(|m| m.bot_seats.values().any(|b| *b == name))
            .collect();
        let finished: BTreeSet<&str> = held
            .iter()
            .filter(|m| m.state.is_over())
            .map(|m| m.match_id.as_str())
            .collect();
        let live: BTreeSet<&str> = held
            .iter()
            .filter(|m| !m.state.is_over())
            .map(|m| m.match_id.as_str())
            .collect();
        let key = bot.play_key().secret.clone();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        let snapshot = loop {
            let got = inboxes
                .get_inbox(
                    holder(&key)
                        .authorize(pb::GetInboxRequest {})
                        .expect("a key fits in a header"),
                )
                .await
                .unwrap_or_else(|e| panic!("{name}: get inbox: {e}"))
                .into_inner();
            let listed: BTreeSet<&str> = got
                .live_matches
                .iter()
                .map(|m| m.match_id.as_str())
                .collect();
            if got.newest_seq >= finished.len() as u64 && listed == live {
                break got;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{name}: the inbox never caught up: {got:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(
            (snapshot.oldest_seq, snapshot.newest_seq),
            (1, finished.len() as u64),
            "{name}: an item for each finished match, none pruned"
        );

        let mut stream = inboxes
            .watch_inbox(
                holder(&key)
                    .authorize(pb::WatchInboxRequest { after_seq: 0 })
                    .expect("a key fits in a header"),
            )
            .await
            .unwrap_or_else(|e| panic!("{name}: watch inbox: {e}"))
            .into_inner();
        let mut items = Vec::new();
        while (items.len() as u64) < snapshot.newest_seq {
            let message = tokio::time::timeout(Duration::from_secs(10), stream.message())
                .await
                .unwrap_or_else(|_| panic!("{name}: the inbox sent {} items", items.len()))
                .unwrap_or_else(|e| panic!("{name}: watch inbox: {e}"))
                .unwrap_or_else(|| panic!("{name}: the inbox stream ended"));
            if let Some(pb::watch_inbox_response::Kind::Item(item)) = message.kind {
                let record = InboxItemRecord::of(&item)
                    .unwrap_or_else(|| panic!("{name}: an item of another kind: {item:?}"));
                items.push(record);
            }
        }
        drop(stream);
        let seqs: Vec<u64> = items.iter().map(|i| i.seq).collect();
        assert_eq!(
            seqs,
            (1..=snapshot.newest_seq).collect::<Vec<_>>(),
            "{name}"
        );
        let heard: BTreeSet<&str> = items.iter().map(|i| i.match_id.as_str()).collect();
        assert_eq!(heard, finished, "{name}: once for each match it finished");
        // What the test will hold a later server to must agree with the match it tells of.
        for item in &items {
            let stored = held.iter().find(|m| m.match_id == item.match_id).unwrap();
            assert_eq!(
                stored.bot_seats.get(&item.seat),
                Some(&name),
                "{name}: {}",
                stored.name
            );
            assert_eq!(item.variant_id, stored.variant_id, "{}", stored.name);
            assert_eq!(item.result, stored.result, "{}: the result", stored.name);
        }
        bot.inbox = Some(InboxRecord {
            items,
            oldest_seq: snapshot.oldest_seq,
            newest_seq: snapshot.newest_seq,
            live_matches: snapshot
                .live_matches
                .into_iter()
                .map(|m| m.match_id)
                .collect(),
        });
    }
}

/// The league's bots. `POLICY` answers challenges by its acceptance policy; the others answer
/// by hand. Each holds at most one live match at a time (a new bot's `max_concurrent` is 1).
const POLICY: &str = "league-policy";
const RATED: &str = "league-rated";
const CHALLENGER: &str = "league-challenger";
const TARGET: &str = "league-target";
const WAITER: &str = "league-waiter";
const SHOWED_UP: &str = "league-showed-up";
const ABSENT: &str = "league-absent";
const LEAGUE_BOTS: [&str; 7] = [POLICY, RATED, CHALLENGER, TARGET, WAITER, SHOWED_UP, ABSENT];

/// The open challenge waits the longest the API allows.
const OPEN_FOR: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// Terms of a short game of `variant`, the challenger's seat `seat`.
fn terms(variant: &str, rated: bool, seat: pb::SeatPreference) -> pb::MatchTerms {
    pb::MatchTerms {
        variant_id: variant.to_owned(),
        options: short(variant).options,
        rated,
        seat: seat as i32,
        ..Default::default()
    }
}

/// `message` with `key` as `authorization: Bearer`.
fn keyed<T>(key: &str, message: T) -> tonic::Request<T> {
    authorized(message, key).expect("a key fits in a header")
}

/// The league's bots by name: id and first key.
struct LeagueBots {
    client: Client,
    ids: BTreeMap<&'static str, String>,
    keys: BTreeMap<&'static str, KeyRecord>,
}

impl LeagueBots {
    fn key(&self, bot: &str) -> &str {
        &self.keys[bot].secret
    }

    async fn challenge(
        &self,
        by: &str,
        target: &str,
        terms: pb::MatchTerms,
        expires_in: Option<Duration>,
    ) -> pb::Challenge {
        self.client
            .challenges()
            .create_challenge(keyed(
                self.key(by),
                pb::CreateChallengeRequest {
                    target: target.to_owned(),
                    terms: Some(terms),
                    expires_in: expires_in.and_then(duration),
                },
            ))
            .await
            .unwrap_or_else(|e| panic!("{by} challenges {target}: {e}"))
            .into_inner()
            .challenge
            .expect("the answer shows the challenge")
    }

    async fn get_challenge(&self, bot: &str, challenge_id: &str) -> pb::Challenge {
        self.client
            .challenges()
            .get_challenge(keyed(
                self.key(bot),
                pb::GetChallengeRequest {
                    challenge_id: challenge_id.to_owned(),
                },
            ))
            .await
            .unwrap_or_else(|e| panic!("get challenge {challenge_id}: {e}"))
            .into_inner()
            .challenge
            .expect("the answer shows the challenge")
    }

    /// The first item of `bot`'s inbox, from the start, that `wanted` picks.
    async fn wait_item(
        &self,
        bot: &str,
        what: &str,
        wanted: impl Fn(&InboxItemRecord) -> bool,
    ) -> InboxItemRecord {
        let mut stream = self
            .client
            .watch_inbox(self.key(bot), 0)
            .await
            .unwrap_or_else(|e| panic!("{bot}: watch inbox: {e}"));
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let message = tokio::time::timeout_at(deadline, stream.message())
                .await
                .unwrap_or_else(|_| panic!("{bot}: never told {what}"))
                .unwrap_or_else(|e| panic!("{bot}: watch inbox: {e}"))
                .unwrap_or_else(|| panic!("{bot}: the inbox stream ended"));
            if let Some(pb::watch_inbox_response::Kind::Item(item)) = message.kind {
                let record = InboxItemRecord::of(&item).expect("an item of a kind");
                if wanted(&record) {
                    return record;
                }
            }
        }
    }

    /// The seat `bot` was assigned in `match_id`, once its inbox tells of it.
    async fn assigned_seat(&self, bot: &str, match_id: &str) -> InboxItemRecord {
        self.wait_item(bot, "of its assigned match", |item| {
            item.kind == "match_assigned" && item.match_id == match_id
        })
        .await
    }

    /// Waits until `bot`'s inbox tells of the end of `match_id`.
    async fn finished(&self, bot: &str, match_id: &str) -> InboxItemRecord {
        self.wait_item(bot, "of its match's end", |item| {
            item.kind == "match_finished" && item.match_id == match_id
        })
        .await
    }
}

/// Plays the match an accepted challenge assigned to `home` and `away` to its end, each bot
/// joining its reserved seat with its key, and waits until both inboxes tell of the end.
async fn play_assigned(
    g: &mut Generator,
    league: &LeagueBots,
    name: &'static str,
    challenge: &pb::Challenge,
) {
    let match_id = challenge.match_id.clone();
    assert!(!match_id.is_empty(), "{name}: accepted without a match");
    let mut making = Making {
        name,
        state: State::EndedByRules,
        match_id: match_id.clone(),
        client_seed: None,
        seats: Vec::new(),
        retry: None,
        clock_seat: None,
        submitted: 0,
        bot_seats: BTreeMap::new(),
    };
    let bots = [
        challenge.challenger_name.clone(),
        challenge.target_name.clone(),
    ];
    for bot in &bots {
        let seat = league.assigned_seat(bot, &match_id).await.seat;
        g.join_bot(&mut making, &seat, bot, league.key(bot)).await;
    }
    g.play_to_end(&mut making).await;
    for bot in &bots {
        league.finished(bot, &match_id).await;
    }
}

/// Registers the league's bots and leaves, through their keys alone: a rated challenge the
/// policy bot's policy accepted, played to its end (both ratings moved once); a casual one
/// accepted by hand and played; one declined by hand and one by the policy; one cancelled; one
/// open for seven days; a waiting ticket of one bot; and an assigned match only one of its two
/// bots joined (the server's `bots.show_up_secs` must be long, see the README). Every league
/// bot is added to `records`, with its inbox.
async fn league(g: &mut Generator, records: &mut Vec<BotRecord>) -> LeagueRecord {
    let client = g.client.clone();
    let mut league = LeagueBots {
        client: client.clone(),
        ids: BTreeMap::new(),
        keys: BTreeMap::new(),
    };
    for name in LEAGUE_BOTS {
        let created = client
            .bots()
            .create_bot(pb::CreateBotRequest {
                name: name.to_owned(),
                owner: "store-fixture".to_owned(),
                description: format!("{name} plays in the stored-match fixture's league"),
                variants: vec!["kings-goal".to_owned(), "xfutebol".to_owned()],
            })
            .await
            .unwrap_or_else(|e| panic!("create bot {name}: {e}"))
            .into_inner();
        let bot_id = created.bot.expect("the answer shows the bot").bot_id;
        league.ids.insert(name, bot_id);
        league
            .keys
            .insert(name, key_record(created.key, created.secret));
    }

    let policy = pb::AcceptancePolicy {
        variants: vec!["xfutebol".to_owned()],
        rated_only: true,
        ..Default::default()
    };
    client
        .challenges()
        .set_acceptance_policy(keyed(
            league.key(POLICY),
            pb::SetAcceptancePolicyRequest {
                bot_id: league.ids[POLICY].clone(),
                policy: Some(policy),
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("set the acceptance policy: {e}"));

    let mut challenges: BTreeMap<String, String> = BTreeMap::new();

    // Rated, accepted at once by the policy, played to its end.
    let rated = league
        .challenge(
            RATED,
            POLICY,
            terms("xfutebol", true, pb::SeatPreference::First),
            None,
        )
        .await;
    assert_eq!(rated.status(), pb::ChallengeStatus::Accepted, "the policy");
    play_assigned(g, &league, "league-rated-played", &rated).await;
    for bot in [RATED, POLICY] {
        let told = league.finished(bot, &rated.match_id).await;
        assert!(told.rating_change.is_some(), "{bot}: a rated result");
    }
    challenges.insert("rated-played".to_owned(), rated.challenge_id);

    // Casual, accepted by hand, played to its end.
    let casual = league
        .challenge(
            CHALLENGER,
            TARGET,
            terms("kings-goal", false, pb::SeatPreference::Second),
            None,
        )
        .await;
    assert_eq!(casual.status(), pb::ChallengeStatus::Open);
    let casual = client
        .challenges()
        .accept_challenge(keyed(
            league.key(TARGET),
            pb::AcceptChallengeRequest {
                challenge_id: casual.challenge_id.clone(),
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("accept the casual challenge: {e}"))
        .into_inner()
        .challenge
        .expect("the answer shows the challenge");
    play_assigned(g, &league, "league-casual-played", &casual).await;
    challenges.insert("casual-played".to_owned(), casual.challenge_id);

    // Declined by hand, with a reason.
    let declined = league
        .challenge(
            RATED,
            CHALLENGER,
            terms("kings-goal", true, pb::SeatPreference::Unspecified),
            None,
        )
        .await;
    let declined = client
        .challenges()
        .decline_challenge(keyed(
            league.key(CHALLENGER),
            pb::DeclineChallengeRequest {
                challenge_id: declined.challenge_id.clone(),
                reason: pb::DeclineReason::Later as i32,
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("decline: {e}"))
        .into_inner()
        .challenge
        .expect("the answer shows the challenge");
    assert_eq!(declined.status(), pb::ChallengeStatus::Declined);
    challenges.insert("declined".to_owned(), declined.challenge_id);

    // Declined by the policy: a casual game it does not play.
    let refused = league
        .challenge(
            TARGET,
            POLICY,
            terms("xfutebol", false, pb::SeatPreference::Unspecified),
            None,
        )
        .await;
    assert_eq!(
        (refused.status(), refused.decline_reason()),
        (pb::ChallengeStatus::Declined, pb::DeclineReason::RatedOnly),
        "the policy"
    );
    challenges.insert("declined-by-policy".to_owned(), refused.challenge_id);

    // Cancelled by its challenger.
    let cancelled = league
        .challenge(
            TARGET,
            RATED,
            terms("xfutebol", false, pb::SeatPreference::Unspecified),
            None,
        )
        .await;
    let cancelled = client
        .challenges()
        .cancel_challenge(keyed(
            league.key(TARGET),
            pb::CancelChallengeRequest {
                challenge_id: cancelled.challenge_id.clone(),
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("cancel: {e}"))
        .into_inner()
        .challenge
        .expect("the answer shows the challenge");
    assert_eq!(cancelled.status(), pb::ChallengeStatus::Cancelled);
    challenges.insert("cancelled".to_owned(), cancelled.challenge_id);

    // Open for seven days: the test accepts it (or, after that, finds it expired).
    let open = league
        .challenge(
            CHALLENGER,
            TARGET,
            terms("xfutebol", false, pb::SeatPreference::First),
            Some(OPEN_FOR),
        )
        .await;
    assert_eq!(open.status(), pb::ChallengeStatus::Open);
    challenges.insert("open".to_owned(), open.challenge_id);

    // A ticket alone in its pool: it waits.
    let ticket = client
        .queue()
        .enter_queue(keyed(
            league.key(WAITER),
            pb::EnterQueueRequest {
                terms: Some(terms("xfutebol", false, pb::SeatPreference::Unspecified)),
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("enter the queue: {e}"))
        .into_inner()
        .ticket
        .expect("the answer shows the ticket");

    // Assigned; one bot shows up, the other does not.
    let unjoined = league
        .challenge(
            SHOWED_UP,
            ABSENT,
            terms("kings-goal", false, pb::SeatPreference::Unspecified),
            None,
        )
        .await;
    let unjoined = client
        .challenges()
        .accept_challenge(keyed(
            league.key(ABSENT),
            pb::AcceptChallengeRequest {
                challenge_id: unjoined.challenge_id.clone(),
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("accept the challenge left unjoined: {e}"))
        .into_inner()
        .challenge
        .expect("the answer shows the challenge");
    let match_id = unjoined.match_id.clone();
    let showed = league.assigned_seat(SHOWED_UP, &match_id).await;
    let absent = league.assigned_seat(ABSENT, &match_id).await;
    client
        .join_as_bot(&match_id, Some(&showed.seat), league.key(SHOWED_UP))
        .await
        .unwrap_or_else(|e| panic!("{SHOWED_UP} joins: {e}"));
    let show_up_by = showed.assigned.as_ref().and_then(|a| a.show_up_by);
    let week = SystemTime::now() + OPEN_FOR;
    let week_secs = week
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    assert!(
        show_up_by.is_some_and(|t| t.seconds > week_secs),
        "run the server with a long bots.show_up_secs: show up by {show_up_by:?}"
    );
    challenges.insert("unjoined".to_owned(), unjoined.challenge_id);
    let unjoined = UnjoinedRecord {
        match_id: match_id.clone(),
        variant_id: showed.variant_id.clone(),
        seats: [
            (showed.seat.clone(), SHOWED_UP.to_owned()),
            (absent.seat.clone(), ABSENT.to_owned()),
        ]
        .into_iter()
        .collect(),
        joined: SHOWED_UP.to_owned(),
        absent: ABSENT.to_owned(),
        show_up_by,
    };

    // Let the follower write what it has left to write (the join reaches the lifecycle feed
    // and the follower within milliseconds), and the queue pass a few times over the ticket.
    tokio::time::sleep(Duration::from_secs(3)).await;

    let mut recorded_challenges = BTreeMap::new();
    for (what, challenge_id) in challenges {
        let got = league.get_challenge(POLICY, &challenge_id).await;
        recorded_challenges.insert(what, ChallengeRecord::of(&got));
    }
    assert_eq!(recorded_challenges["open"].status, "CHALLENGE_STATUS_OPEN");
    let policy = client
        .challenges()
        .get_acceptance_policy(keyed(
            league.key(POLICY),
            pb::GetAcceptancePolicyRequest {
                bot_id: league.ids[POLICY].clone(),
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("get the acceptance policy: {e}"))
        .into_inner()
        .policy
        .expect("the answer shows the policy");
    let tickets = client
        .queue()
        .list_tickets(keyed(
            league.key(WAITER),
            pb::ListTicketsRequest {
                waiting_only: false,
                ..Default::default()
            },
        ))
        .await
        .unwrap_or_else(|e| panic!("list tickets: {e}"))
        .into_inner()
        .tickets;
    assert_eq!(tickets.len(), 1, "{WAITER}: one ticket");
    assert_eq!(tickets[0].ticket_id, ticket.ticket_id);
    assert_eq!(tickets[0].status(), pb::TicketStatus::Waiting);
    let waiting_ticket = TicketRecord::of(&tickets[0]);

    let mut ratings = BTreeMap::new();
    let mut rating_changes = BTreeMap::new();
    for name in LEAGUE_BOTS {
        let bot_id = league.ids[name].clone();
        let got = client
            .ratings()
            .get_ratings(pb::GetRatingsRequest {
                bot_id: bot_id.clone(),
            })
            .await
            .unwrap_or_else(|e| panic!("{name}: get ratings: {e}"))
            .into_inner();
        let pools: Vec<(String, RatingRecord)> = got
            .ratings
            .iter()
            .map(|r| {
                (
                    r.pool.clone(),
                    RatingRecord::of(r.rating.as_ref().expect("a rating")),
                )
            })
            .collect();
        let changes = client
            .ratings()
            .list_rating_changes(pb::ListRatingChangesRequest {
                bot_id,
                page_size: 100,
                page_token: String::new(),
            })
            .await
            .unwrap_or_else(|e| panic!("{name}: list rating changes: {e}"))
            .into_inner();
        assert!(changes.next_page_token.is_empty(), "{name}: one page");
        let changes: Vec<RatingChangeRecord> =
            changes.changes.iter().map(RatingChangeRecord::of).collect();
        let rated_bot = name == RATED || name == POLICY;
        assert_eq!(pools.len(), usize::from(rated_bot), "{name}: its pools");
        assert_eq!(changes.len(), usize::from(rated_bot), "{name}: its changes");
        ratings.insert(name.to_owned(), pools);
        rating_changes.insert(name.to_owned(), changes);
    }

    let mut league_records = Vec::new();
    for name in LEAGUE_BOTS {
        let bot = client
            .bots()
            .get_bot(pb::GetBotRequest {
                bot_id: league.ids[name].clone(),
                name: String::new(),
            })
            .await
            .unwrap_or_else(|e| panic!("get bot {name}: {e}"))
            .into_inner()
            .bot
            .expect("the answer shows the bot");
        let inbox = league_inbox(&league, name).await;
        league_records.push(BotRecord {
            bot_id: bot.bot_id,
            name: bot.name,
            owner: bot.owner,
            description: bot.description,
            variants: bot.variants,
            max_concurrent: bot.max_concurrent,
            daily_cap: bot.daily_cap,
            create_time_unix_secs: bot.create_time.map_or(0, |t| t.seconds),
            keys: vec![league.keys[name].clone()],
            inbox: Some(inbox),
        });
    }
    records.extend(league_records);

    LeagueRecord {
        policy_bot: POLICY.to_owned(),
        policy: PolicyRecord::of(&policy),
        challenges: recorded_challenges,
        waiting_bot: WAITER.to_owned(),
        waiting_ticket,
        unjoined,
        ratings,
        rating_changes,
    }
}

/// A league bot's whole inbox, as WatchInbox from 0 sends it and GetInbox shows it, once it
/// has stopped growing.
async fn league_inbox(league: &LeagueBots, name: &str) -> InboxRecord {
    let mut inboxes = league.client.inboxes();
    let key = league.key(name).to_owned();
    let snapshot = inboxes
        .get_inbox(keyed(&key, pb::GetInboxRequest {}))
        .await
        .unwrap_or_else(|e| panic!("{name}: get inbox: {e}"))
        .into_inner();
    let mut stream = league
        .client
        .watch_inbox(&key, 0)
        .await
        .unwrap_or_else(|e| panic!("{name}: watch inbox: {e}"));
    let mut items = Vec::new();
    while (items.len() as u64) < snapshot.newest_seq {
        let message = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .unwrap_or_else(|_| panic!("{name}: the inbox sent {} items", items.len()))
            .unwrap_or_else(|e| panic!("{name}: watch inbox: {e}"))
            .unwrap_or_else(|| panic!("{name}: the inbox stream ended"));
        if let Some(pb::watch_inbox_response::Kind::Item(item)) = message.kind {
            items.push(InboxItemRecord::of(&item).expect("an item of a kind"));
        }
    }
    let seqs: Vec<u64> = items.iter().map(|i| i.seq).collect();
    assert_eq!(
        seqs,
        (1..=snapshot.newest_seq).collect::<Vec<_>>(),
        "{name}"
    );
    let again = inboxes
        .get_inbox(keyed(&key, pb::GetInboxRequest {}))
        .await
        .unwrap_or_else(|e| panic!("{name}: get inbox: {e}"))
        .into_inner();
    assert_eq!(again, snapshot, "{name}: the inbox stopped growing");
    InboxRecord {
        items,
        oldest_seq: snapshot.oldest_seq,
        newest_seq: snapshot.newest_seq,
        live_matches: snapshot
            .live_matches
            .into_iter()
            .map(|m| m.match_id)
            .collect(),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let client = match Client::connect(args.server.clone()).await {
        Ok(client) => client,
        Err(error) => {
            eprintln!("store-fixture: {error}");
            return ExitCode::FAILURE;
        }
    };
    let manifest = generate(client, &args.server).await;
    for m in &manifest.matches {
        eprintln!(
            "{:<40} {:<14} {:<22} seq {:>4} {}",
            m.name,
            m.variant_id,
            m.status,
            m.spectator.last_seq,
            m.turn.as_ref().map_or("", |t| t.phase.as_str())
        );
    }
    for bot in &manifest.bots {
        eprintln!(
            "bot {:<36} {:<14} {} keys, {} revoked",
            bot.bot_id,
            bot.name,
            bot.keys.len(),
            bot.keys.iter().filter(|k| k.revoked).count()
        );
        if let Some(inbox) = &bot.inbox {
            eprintln!(
                "inbox of {:<14} seqs {}..={}, {} live",
                bot.name,
                inbox.oldest_seq,
                inbox.newest_seq,
                inbox.live_matches.len()
            );
        }
    }
    let json = serde_json::to_string_pretty(&manifest).expect("the manifest serializes");
    if let Err(error) = std::fs::write(&args.manifest, json + "\n") {
        eprintln!(
            "store-fixture: cannot write {}: {error}",
            args.manifest.display()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
