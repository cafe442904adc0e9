//! Clocks, timeouts and the endings besides the rules, on the referee alone: no tokio, no
//! store. Time is whatever the test says it is, so minutes of match time pass at once and
//! exactly; a rebuild replays the inputs at their events' times, as a restarted server does.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_event::Kind;
use pitchmate_rules::{Seat, Seed, Viewer};

use super::chance::MatchChance;
use super::clock::{Hosting, TimeControl, TimeoutPolicy};
use super::durable;
use super::lifecycle::EndReason;
use super::log::KeptEvent;
use super::referee::{Input, MatchSetup, Referee, SeatCall, Submission};
use super::setup::Reservation;
use super::status::MatchStatus;
use super::summary::MatchProgress;
use super::token::{SeatToken, TokenHash};
use crate::error::ServiceError;
use pitchmate_games::{ActionChoice, GameRegistry, HostedGame};

const SECOND: Duration = Duration::from_secs(1);

fn game(variant: &str) -> Box<dyn HostedGame> {
    GameRegistry::standard()
        .start(variant, &BTreeMap::new(), Seed::from_number(5), None)
        .unwrap()
}

fn timed(time_control: TimeControl, timeout_policy: TimeoutPolicy) -> Hosting {
    Hosting {
        time_control,
        timeout_policy,
        ..Hosting::default()
    }
}

/// A match on the referee, the seats' tokens by name, and the time now.
struct Table {
    referee: Referee,
    variant: &'static str,
    tokens: HashMap<String, String>,
    now: SystemTime,
}

impl Table {
    fn new(variant: &'static str, hosting: Hosting) -> Self {
        Self::reserved(variant, hosting, None)
    }

    /// A match whose seats a league assigned (`None`: an open match).
    fn reserved(variant: &'static str, hosting: Hosting, reservation: Option<Reservation>) -> Self {
        let now = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let setup = MatchSetup {
            match_id: "m".into(),
            variant_id: variant.into(),
            rules_version: "1".into(),
            options: BTreeMap::new(),
            chance: MatchChance::draw(Some(5)).unwrap(),
            start_position: None,
            create_time: now,
            hosting,
            reservation,
        };
        Table {
            referee: Referee::new(setup, game(variant), None),
            variant,
            tokens: HashMap::new(),
            now,
        }
    }

    /// Both seats taken.
    fn seated(variant: &'static str, hosting: Hosting) -> Self {
        let mut table = Self::new(variant, hosting);
        table.join();
        table.join();
        table
    }

    /// Takes the first free seat; its name.
    fn join(&mut self) -> String {
        let token = SeatToken::generate().unwrap();
        let seat = self
            .referee
            .join(None, "bot".into(), token.hash(), None, self.now)
            .unwrap();
        let name = self.referee.seat_name(seat).to_owned();
        self.tokens.insert(name.clone(), token.reveal());
        name
    }

    fn seat(&self, name: &str) -> Seat {
        self.referee.authenticate(Some(&self.tokens[name])).unwrap()
    }

    fn summary(&self) -> MatchProgress {
        self.referee.summary().progress
    }

    fn to_act(&self) -> String {
        self.named(self.summary().turn.to_act.first().copied())
    }

    /// The seat's name; empty for none.
    fn named(&self, seat: Option<Seat>) -> String {
        seat.map(|seat| self.referee.seat_name(seat).to_owned())
            .unwrap_or_default()
    }

    fn other(&self, seat: &str) -> String {
        self.tokens.keys().find(|s| *s != seat).unwrap().clone()
    }

    /// Plays for the seat to act: King's Goal's whole default choice or placement while it
    /// chooses or places (so every turn is one action), else the first legal action.
    fn play(&mut self) -> String {
        let name = self.to_act();
        let seat = self.seat(&name);
        let legal = self
            .referee
            .legal_actions(Viewer::Seat(seat), pb::ActionDetail::Unspecified);
        let index = legal
            .actions
            .iter()
            .find(|a| a.notation.ends_with("default"))
            .map_or(0, |a| a.index);
        let submission = Submission {
            expected_version: legal.version,
            client_action_id: String::new(),
            choice: ActionChoice::Index(index),
        };
        self.referee.submit(seat, submission, self.now).unwrap();
        name
    }

    /// Lets `time` pass; whatever falls due meanwhile happens at its moment.
    fn pass(&mut self, time: Duration) {
        let until = self.now + time;
        while let Some((at, due)) = self.referee.next_due().filter(|(at, _)| *at <= until) {
            self.referee.fall_due(due, at);
        }
        self.now = until;
    }

    fn call(&mut self, seat: &str, call: SeatCall) -> Result<MatchProgress, ServiceError> {
        self.call_away(seat, call, None)
    }

    /// A call by `seat` while its opponent has been away for `opponent_away`.
    fn call_away(
        &mut self,
        seat: &str,
        call: SeatCall,
        opponent_away: Option<Duration>,
    ) -> Result<MatchProgress, ServiceError> {
        let seat = self.seat(seat);
        self.referee
            .seat_call(seat, call, opponent_away, self.now)
            .map(|summary| summary.progress)
    }

    fn events(&self) -> Vec<Kind> {
        self.referee
            .log()
            .held()
            .iter()
            .map(|e| e.kind.clone())
            .collect()
    }

    /// The status, how the match ended, and the winner's name (empty for none).
    fn result(&self) -> (MatchStatus, Option<EndReason>, String) {
        let progress = self.summary();
        let end = progress.result.as_ref();
        (
            progress.status,
            end.map(|end| end.reason),
            self.named(end.and_then(|end| end.winner)),
        )
    }

    /// Its events and inputs as the store keeps them, read back.
    fn stored(&self) -> (Vec<KeptEvent>, Vec<Input>) {
        let events = self
            .referee
            .log()
            .held()
            .iter()
            .map(|e| durable::event_from_row(&durable::event_row(e)).unwrap())
            .collect();
        let inputs = self
            .referee
            .inputs_since(0)
            .iter()
            .enumerate()
            .map(|(number, input)| {
                durable::input_from_row(&durable::input_row(number, input)).unwrap()
            })
            .collect();
        (events, inputs)
    }

    /// The match rebuilt from its inputs and events as the store keeps them, as a restarted
    /// server does.
    fn rebuilt(&self) -> Table {
        let (events, inputs) = self.stored();
        let referee = Referee::rebuild(
            self.referee.setup().clone(),
            game(self.variant),
            None,
            inputs,
            events,
            [],
        )
        .unwrap();
        assert_eq!(
            referee.log().held(),
            self.referee.log().held(),
            "the rebuilt log is the original"
        );
        Table {
            referee,
            variant: self.variant,
            tokens: self.tokens.clone(),
            now: self.now,
        }
    }
}

fn timeouts(events: &[Kind]) -> Vec<pb::TimedOut> {
    events
        .iter()
        .filter_map(|k| match k {
            Kind::TimedOut(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn turn_started_carries_the_deadline_and_every_seats_clock() {
    let fischer = TimeControl::Fischer {
        base: 60 * SECOND,
        increment: 5 * SECOND,
    };
    let mut table = Table::seated("kings-goal", timed(fischer, TimeoutPolicy::Forfeit));
    table.pass(10 * SECOND);
    let before = table.referee.log().held().len();
    table.play();
    let turns: Vec<(pb::TurnStarted, std::time::SystemTime)> = table
        .referee
        .log()
        .held()
        .iter()
        .filter_map(|e| match &e.kind {
            Kind::TurnStarted(t) => Some((t.clone(), e.time)),
            _ => None,
        })
        .collect();
    let (first, started) = &turns[0];
    let deadline: std::time::SystemTime = first.deadline.unwrap().try_into().unwrap();
    assert_eq!(deadline, *started + 60 * SECOND);
    assert_eq!(first.clocks.len(), 2);
    let mover = &first.turn.as_ref().unwrap().to_act[0];
    for clock in &first.clocks {
        assert_eq!(
            clock.remaining,
            Some(prost_types::Duration::try_from(60 * SECOND).unwrap())
        );
        assert_eq!(clock.deadline.is_some(), &clock.seat == mover);
    }
    let (second, _) = turns.last().unwrap();
    assert!(table.referee.log().held().len() > before);
    // The mover used 10 s of 60 and gained 5.
    let mover_clock = second.clocks.iter().find(|c| &c.seat == mover).unwrap();
    assert_eq!(
        mover_clock.remaining,
        Some(prost_types::Duration::try_from(55 * SECOND).unwrap())
    );
}

#[test]
fn a_timeout_forfeits_under_the_forfeit_policy() {
    let per_move = TimeControl::PerMove {
        per_move: 10 * SECOND,
        first_move: 30 * SECOND,
    };
    let mut table = Table::seated("kings-goal", timed(per_move, TimeoutPolicy::Forfeit));
    let late = table.to_act();
    table.pass(29 * SECOND);
    assert_eq!(
        table.summary().status,
        MatchStatus::Active,
        "the first move has 30 s"
    );
    table.pass(2 * SECOND);
    let events = table.events();
    assert_eq!(
        timeouts(&events),
        vec![pb::TimedOut {
            seat: late.clone(),
            consecutive: 1,
            forfeited: true
        }]
    );
    assert_eq!(
        table.result(),
        (
            MatchStatus::Finished,
            Some(EndReason::Timeout),
            table.other(&late)
        )
    );
    assert!(matches!(events.last(), Some(Kind::MatchEnded(_))));
}

#[test]
fn the_server_plays_for_a_late_seat_and_forfeits_it_at_the_limit() {
    let per_move = TimeControl::PerMove {
        per_move: 5 * SECOND,
        first_move: 5 * SECOND,
    };
    let policy = TimeoutPolicy::PlayDefault { forfeit_after: 3 };
    let mut table = Table::seated("kings-goal", timed(per_move, policy));
    let late = table.to_act();
    let punctual = table.other(&late);
    // The late seat never acts; the punctual one acts in each of its turns.
    while table.summary().status == MatchStatus::Active {
        if table.to_act() == punctual {
            table.play();
        } else {
            table.pass(6 * SECOND);
        }
    }
    let events = table.events();
    let counted: Vec<(String, u32, bool)> = timeouts(&events)
        .into_iter()
        .map(|t| (t.seat, t.consecutive, t.forfeited))
        .collect();
    assert_eq!(
        counted,
        vec![
            (late.clone(), 1, false),
            (late.clone(), 2, false),
            (late.clone(), 3, true)
        ]
    );
    // Each timeout that did not forfeit is followed by the server's action for the seat.
    for (index, kind) in events.iter().enumerate() {
        if let Kind::TimedOut(t) = kind
            && !t.forfeited
        {
            assert!(
                matches!(&events[index + 1], Kind::ActionTaken(a) if a.seat == late),
                "{:?}",
                events[index + 1]
            );
        }
    }
    assert_eq!(
        table.result(),
        (MatchStatus::Finished, Some(EndReason::Timeout), punctual)
    );
    let inputs = table.referee.inputs_since(0);
    let for_timeout = inputs
        .iter()
        .filter(|i| {
            matches!(
                i,
                Input::Acted {
                    for_timeout: true,
                    ..
                }
            )
        })
        .count();
    assert_eq!(for_timeout, 2);
    assert!(matches!(
        inputs.last(),
        Some(Input::TimedOut {
            forfeited: true,
            ..
        })
    ));
    // A replay reproduces the server's actions: the rebuilt match equals the original.
    assert_eq!(table.rebuilt().summary(), table.summary());
}

#[test]
fn an_own_action_resets_the_count_of_consecutive_timeouts() {
    let per_move = TimeControl::PerMove {
        per_move: 5 * SECOND,
        first_move: 5 * SECOND,
    };
    let policy = TimeoutPolicy::PlayDefault { forfeit_after: 2 };
    let mut table = Table::seated("kings-goal", timed(per_move, policy));
    let late = table.to_act();
    // Timeout, own action, timeout: never two in a row, so no forfeit.
    let mut own_turn_of_late = 0;
    while timeouts(&table.events()).len() < 2 {
        if table.to_act() != late {
            table.play();
        } else if own_turn_of_late % 2 == 1 {
            own_turn_of_late += 1;
            table.play();
        } else {
            own_turn_of_late += 1;
            table.pass(6 * SECOND);
        }
    }
    let counted: Vec<(u32, bool)> = timeouts(&table.events())
        .into_iter()
        .map(|t| (t.consecutive, t.forfeited))
        .collect();
    assert_eq!(counted, vec![(1, false), (1, false)]);
    assert_eq!(table.summary().status, MatchStatus::Active);
}

#[test]
fn a_restarted_match_keeps_its_clocks() {
    let bank = TimeControl::PerMoveWithBank {
        per_move: 10 * SECOND,
        bank: 20 * SECOND,
    };
    let mut table = Table::seated("kings-goal", timed(bank, TimeoutPolicy::Forfeit));
    // The first seat spends 15 s: 5 s from its bank.
    table.pass(15 * SECOND);
    let first = table.play();
    table.pass(SECOND);
    let second = table.play();
    assert_eq!(table.to_act(), first);

    // The server is down for 20 s of the first seat's 25; after the restart it has 5 s left,
    // not a fresh clock.
    let mut rebuilt = table.rebuilt();
    drop(table);
    rebuilt.now += 20 * SECOND;
    rebuilt.pass(4 * SECOND);
    assert_eq!(rebuilt.summary().status, MatchStatus::Active);
    rebuilt.pass(2 * SECOND);
    assert_eq!(
        rebuilt.result(),
        (MatchStatus::Finished, Some(EndReason::Timeout), second)
    );
}

#[test]
fn a_draw_is_offered_and_accepted_and_playing_on_declines_it() {
    let mut table = Table::seated("kings-goal", Hosting::default());
    let first = table.to_act();
    let second = table.other(&first);
    let no_offer = table.call(&second, SeatCall::AcceptDraw);
    assert_eq!(no_offer.unwrap_err().reason(), "NO_DRAW_OFFER");

    let offered = table.call(&first, SeatCall::OfferDraw).unwrap();
    assert_eq!(table.named(offered.draw_offered_by), first);
    assert_eq!(offered.version, 0, "an offer leaves the version alone");
    for seat in [&first, &second] {
        let again = table.call(seat, SeatCall::OfferDraw);
        assert_eq!(again.unwrap_err().reason(), "DRAW_ALREADY_OFFERED");
    }
    let own = table.call(&first, SeatCall::AcceptDraw);
    assert_eq!(own.unwrap_err().reason(), "NO_DRAW_OFFER");
    // The offered seat plays on instead: the offer lapses.
    assert_eq!(table.play(), first);
    assert_eq!(
        table.named(table.summary().draw_offered_by),
        first,
        "the offering seat's own action"
    );
    assert_eq!(table.play(), second);
    assert_eq!(table.summary().draw_offered_by, None);
    let lapsed = table.call(&second, SeatCall::AcceptDraw);
    assert_eq!(lapsed.unwrap_err().reason(), "NO_DRAW_OFFER");

    table.call(&second, SeatCall::OfferDraw).unwrap();
    let drawn = table.call(&first, SeatCall::AcceptDraw).unwrap();
    assert_eq!(
        table.result(),
        (
            MatchStatus::Finished,
            Some(EndReason::DrawAgreed),
            String::new()
        )
    );
    assert_eq!(drawn.version, 3);
    let tail: Vec<Kind> = table.events().into_iter().rev().take(3).rev().collect();
    assert!(matches!(&tail[0], Kind::DrawOffered(d) if d.seat == second));
    assert!(matches!(&tail[1], Kind::DrawAccepted(d) if d.seat == first));
    assert!(matches!(&tail[2], Kind::MatchEnded(_)));
    assert_eq!(table.rebuilt().summary(), table.summary());
}

#[test]
fn a_game_that_always_has_a_winner_takes_no_draw_offers() {
    let mut table = Table::seated("xfutebol", Hosting::default());
    let seat = table.to_act();
    let before = table.summary();
    let refused = table.call(&seat, SeatCall::OfferDraw);
    assert_eq!(refused.unwrap_err().reason(), "DRAW_NOT_POSSIBLE");
    assert_eq!(table.summary(), before);
}

#[test]
fn a_match_aborts_only_before_anyone_played() {
    let mut table = Table::seated("kings-goal", Hosting::default());
    let seat = table.to_act();
    let aborted = table.call(&seat, SeatCall::Abort).unwrap();
    assert_eq!(aborted.status, MatchStatus::Aborted);
    assert_eq!(
        table.result(),
        (
            MatchStatus::Aborted,
            Some(EndReason::Aborted),
            String::new()
        )
    );
    assert!(matches!(
        table.events().iter().rev().nth(1),
        Some(Kind::MatchAborted(a)) if a.seat == seat
    ));
    assert_eq!(table.rebuilt().summary(), table.summary());

    let mut table = Table::seated("kings-goal", Hosting::default());
    let mover = table.play();
    let before = table.summary();
    for seat in [mover.clone(), table.other(&mover)] {
        let late = table.call(&seat, SeatCall::Abort);
        assert_eq!(late.unwrap_err().reason(), "ABORT_TOO_LATE");
    }
    assert_eq!(table.summary(), before);
}

#[test]
fn a_waiting_match_can_be_aborted_by_its_seated_player() {
    let mut table = Table::new("kings-goal", Hosting::default());
    let early = table.join();
    let aborted = table.call(&early, SeatCall::Abort).unwrap();
    assert_eq!(aborted.status, MatchStatus::Aborted);
    let late = table.referee.join(
        None,
        "late".into(),
        SeatToken::generate().unwrap().hash(),
        None,
        table.now,
    );
    assert_eq!(late.unwrap_err().reason(), "MATCH_NOT_ACTIVE");
}

#[test]
fn victory_is_claimed_once_the_opponent_stayed_away_long_enough() {
    let hosting = Hosting {
        abandon_after: 30 * SECOND,
        ..Hosting::default()
    };
    let mut table = Table::seated("kings-goal", hosting);
    let claimant = table.to_act();
    let absent = table.other(&claimant);
    // Connected (an open stream, or a call within `abandon_after`), or not away long enough.
    for away in [None, Some(29 * SECOND)] {
        let refused = table.call_away(&claimant, SeatCall::ClaimVictory, away);
        assert_eq!(refused.unwrap_err().reason(), "OPPONENT_CONNECTED");
        assert_eq!(table.summary().status, MatchStatus::Active);
    }
    table
        .call_away(&claimant, SeatCall::ClaimVictory, Some(30 * SECOND))
        .unwrap();
    assert_eq!(
        table.result(),
        (
            MatchStatus::Finished,
            Some(EndReason::Abandoned),
            claimant.clone()
        )
    );
    assert!(matches!(
        table.events().iter().rev().nth(1),
        Some(Kind::VictoryClaimed(v)) if v.seat == claimant && v.opponent == absent
    ));
    assert_eq!(table.rebuilt().summary(), table.summary());
}

#[test]
fn a_resignation_is_an_event() {
    let mut table = Table::seated("kings-goal", Hosting::default());
    let seat = table.to_act();
    table.call(&seat, SeatCall::Resign).unwrap();
    assert_eq!(
        table.result(),
        (
            MatchStatus::Finished,
            Some(EndReason::Resignation),
            table.other(&seat)
        )
    );
    assert!(matches!(
        table.events().iter().rev().nth(1),
        Some(Kind::Resigned(r)) if r.seat == seat
    ));
}

#[test]
fn both_clocks_run_in_a_simultaneous_phase() {
    let per_move = TimeControl::PerMove {
        per_move: 10 * SECOND,
        first_move: 10 * SECOND,
    };
    let policy = TimeoutPolicy::PlayDefault { forfeit_after: 0 };
    let mut table = Table::seated("gridiron", timed(per_move, policy));
    let turn = table.summary().turn;
    assert_eq!(
        turn.to_act.len(),
        2,
        "gridiron opens with both seats drafting"
    );
    table.pass(11 * SECOND);
    let mut late: Vec<String> = timeouts(&table.events())
        .into_iter()
        .map(|t| t.seat)
        .collect();
    late.sort();
    let mut seats: Vec<String> = turn.to_act.iter().map(|s| table.named(Some(*s))).collect();
    seats.sort();
    assert_eq!(late, seats, "each seat's own clock ran out");
    assert_eq!(table.summary().status, MatchStatus::Active);
    // Replaying the server's actions for both seats rebuilds the same match.
    assert_eq!(table.rebuilt().summary(), table.summary());
}

/// Plays `count` actions with client action ids, letting go of what the store would now hold
/// after each, as the actor does after a commit; the seats and ids, in order.
fn play_forgetting(table: &mut Table, count: usize, keep_events: usize) -> Vec<(Seat, String)> {
    let mut ids = Vec::new();
    for n in 0..count {
        let name = table.to_act();
        let seat = table.seat(&name);
        let submission = Submission {
            expected_version: table.referee.log().version_for(Viewer::Seat(seat)),
            client_action_id: format!("{name}-{n}"),
            choice: ActionChoice::Index(0),
        };
        let mark = table.referee.mark();
        table.referee.submit(seat, submission, table.now).unwrap();
        assert_eq!(table.referee.inputs_since(mark.inputs).len(), 1);
        table.referee.forget_stored(keep_events);
        ids.push((seat, format!("{name}-{n}")));
    }
    ids
}

#[test]
fn a_referee_lets_go_of_what_the_store_holds() {
    let mut table = Table::seated("soccer-chess", Hosting::default());
    let ids = play_forgetting(&mut table, 60, 4);
    let log = table.referee.log();
    assert!(log.held().len() < 8, "held {} events", log.held().len());
    assert!(log.last_seq() > 60, "every event still counts");
    assert_eq!(
        table.summary().last_seq,
        log.last_seq_for(Viewer::Spectator)
    );
    let mark = table.referee.mark();
    assert!(table.referee.inputs_since(mark.inputs).is_empty());
    // Answers whose events are held are answered from memory; older ones are left to the store.
    assert!(table.referee.forgot_answers());
    let (seat, newest) = ids.last().unwrap();
    assert!(table.referee.answered_before(*seat, newest).is_some());
    let (seat, oldest) = &ids[0];
    assert!(table.referee.answered_before(*seat, oldest).is_none());
    // It plays on.
    table.play();
}

/// Rows stored before hidden steps were recorded may not say which steps were hidden, so the
/// store cannot number such a log again: the match keeps all of it.
#[test]
fn a_match_whose_rows_do_not_number_its_log_keeps_all_of_it() {
    let mut table = Table::seated("soccer-chess", Hosting::default());
    for _ in 0..10 {
        table.play();
    }
    let (mut events, inputs) = table.stored();
    let rebuild = |events| {
        Referee::rebuild(
            table.referee.setup().clone(),
            game("soccer-chess"),
            None,
            inputs.clone(),
            events,
            [],
        )
        .unwrap()
    };
    let mut faithful = rebuild(events.clone());
    faithful.forget_stored(2);
    assert!(faithful.log().held().len() < 4);
    events[5].hidden_step = !events[5].hidden_step;
    let mut unfaithful = rebuild(events);
    unfaithful.forget_stored(2);
    assert_eq!(
        unfaithful.log().held().len() as u64,
        unfaithful.log().last_seq()
    );
}

/// Seats for bots `a` (first seat) and `b`, to be taken within a minute of creation.
fn league_match() -> Table {
    let created = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    Table::reserved(
        "kings-goal",
        Hosting::default(),
        Some(Reservation {
            accounts: vec!["a".into(), "b".into()],
            show_up_by: created + Duration::from_secs(60),
        }),
    )
}

impl Table {
    /// Takes a seat with an account's credential, as the edge does for a bot's key.
    fn join_as(&mut self, seat: Option<&str>, account: &str) -> Result<String, ServiceError> {
        let credential = crate::token::account_credential(account);
        let seat = self.referee.join(
            seat.map(str::to_owned),
            account.into(),
            TokenHash::of(&credential),
            Some(account.into()),
            self.now,
        )?;
        let name = self.referee.seat_name(seat).to_owned();
        self.tokens.insert(name.clone(), credential);
        Ok(name)
    }
}

#[test]
fn an_assigned_seat_is_taken_only_by_its_bot() {
    let mut table = league_match();
    let first = table.referee.seat_name(Seat(0)).to_owned();
    let second = table.referee.seat_name(Seat(1)).to_owned();
    // A seat token, or another bot, is refused both seats.
    let token = SeatToken::generate().unwrap();
    let refused = table
        .referee
        .join(None, "x".into(), token.hash(), None, table.now)
        .unwrap_err();
    assert_eq!(refused.reason(), "SEAT_RESERVED");
    assert_eq!(
        table.join_as(Some(&second), "c").unwrap_err().reason(),
        "SEAT_RESERVED"
    );
    assert_eq!(
        table.join_as(Some(&first), "b").unwrap_err().reason(),
        "SEAT_RESERVED"
    );
    // A bot that names no seat finds its own, whatever the order.
    assert_eq!(table.join_as(None, "b").unwrap(), second);
    assert_eq!(table.join_as(None, "a").unwrap(), first);
    assert_eq!(table.summary().status, MatchStatus::Active);
}

#[test]
fn a_bot_that_does_not_show_up_forfeits_to_the_one_that_did() {
    let mut table = league_match();
    let second = table.join_as(None, "b").unwrap();
    table.pass(Duration::from_secs(59));
    assert_eq!(table.summary().status, MatchStatus::Waiting);
    table.pass(Duration::from_secs(1));
    assert_eq!(
        table.result(),
        (MatchStatus::Finished, Some(EndReason::NoShow), second)
    );
    // As a restarted server rebuilds it.
    assert_eq!(
        table.rebuilt().result(),
        (
            MatchStatus::Finished,
            Some(EndReason::NoShow),
            table.result().2
        )
    );
}

#[test]
fn an_assigned_match_nobody_showed_up_for_is_aborted() {
    let mut table = league_match();
    table.pass(Duration::from_secs(60));
    assert_eq!(
        table.result(),
        (
            MatchStatus::Aborted,
            Some(EndReason::Expired),
            String::new()
        )
    );
}

#[test]
fn an_assigned_match_both_bots_showed_up_for_does_not_expire() {
    let mut table = league_match();
    table.join_as(None, "a").unwrap();
    table.join_as(None, "b").unwrap();
    table.pass(Duration::from_secs(3600));
    assert_eq!(table.summary().status, MatchStatus::Active);
}
