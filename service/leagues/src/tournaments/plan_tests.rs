//! What a tournament does next, decided from its rows and the time.

use std::collections::BTreeMap;

use pitchmate_store::{
    EntryRow, EntryState, TournamentGameRow, TournamentRoundRow, TournamentRow, TournamentState,
};

use super::*;
use crate::terms::{Clock, SeatChoice, Terms};
use crate::tournaments::spec::{Conditions, Spec, default_tie_breaks};

const START: i64 = 1_000;
const HOUR: i64 = 3_600_000_000_000;

fn spec(kind: Kind) -> Spec {
    Spec {
        name: "t".into(),
        kind,
        terms: Terms {
            variant_id: "kings-goal".into(),
            options: BTreeMap::new(),
            clock: Clock::None,
            rated: false,
            seat: SeatChoice::Any,
            rematch_of: None,
        },
        rounds: if kind == Kind::Swiss { 3 } else { 0 },
        round_interval_ms: 3_600_000,
        seed: 5,
        tie_breaks: default_tie_breaks(),
        conditions: Conditions::default(),
        forbidden: Vec::new(),
        ladder_games_per_bot: if kind == Kind::Ladder { 2 } else { 0 },
        ends_nanos: None,
        paired_games: false,
        chance_secret: 0,
    }
}

fn entry(bot: &str, rating: i32) -> EntryRow {
    EntryRow {
        tournament_id: "t".into(),
        bot_id: bot.into(),
        rating,
        joined_nanos: 1,
        first_round: 1,
        state: EntryState::Active,
    }
}

fn loaded(kind: Kind, bots: &[&str]) -> Loaded {
    Loaded {
        row: TournamentRow {
            tournament_id: "t".into(),
            name: "t".into(),
            organiser: "ops".into(),
            spec: Vec::new(),
            state: TournamentState::Open,
            created_nanos: 0,
            starts_nanos: START,
            rounds_paired: 0,
            finished_nanos: None,
            end_reason: String::new(),
        },
        spec: spec(kind),
        entries: bots
            .iter()
            .enumerate()
            .map(|(i, b)| entry(b, 1700 - 10 * i as i32))
            .collect(),
        rounds: Vec::new(),
        games: Vec::new(),
    }
}

/// Writes what `next` said, as the runner would, with the outcomes given for its pairs (in
/// board order; `None` for a game still under way).
fn write(loaded: &mut Loaded, next: Next, at: i64, outcomes: &[Option<Outcome>]) {
    let Next::Pair { number, body } = next else {
        panic!("expected a round, got {next:?}");
    };
    for (board, (first, second)) in body.pairs.iter().enumerate() {
        let outcome = outcomes.get(board).copied().flatten();
        loaded.games.push(TournamentGameRow {
            match_id: format!("m{number}-{board}"),
            tournament_id: "t".into(),
            round: number,
            bots: [first.clone(), second.clone()],
            outcome: outcome.map(outcome_code),
            ended_nanos: outcome.map(|_| at + 1),
        });
    }
    loaded.rounds.push((
        TournamentRoundRow {
            tournament_id: "t".into(),
            round: number,
            body: Vec::new(),
            paired_nanos: at,
            deadline_nanos: at + HOUR,
        },
        body,
    ));
    loaded.row.rounds_paired = number;
    loaded.row.state = TournamentState::Running;
}

#[test]
fn it_waits_for_its_start_and_is_cancelled_without_two_entries() {
    let alone = loaded(Kind::Swiss, &["a"]);
    assert_eq!(alone.next(START - 1), Next::Wait);
    match alone.next(START) {
        Next::Finish { cancelled, .. } => assert!(cancelled),
        other => panic!("{other:?}"),
    }
    let mut paused = loaded(Kind::Swiss, &["a", "b"]);
    paused.entries[1].state = EntryState::Paused;
    assert!(matches!(
        paused.next(START),
        Next::Finish {
            cancelled: true,
            ..
        }
    ));
}

#[test]
fn a_round_robin_pairs_its_berger_table_and_finishes_after_the_last_round() {
    let mut t = loaded(Kind::RoundRobin, &["a", "b", "c", "d"]);
    let Next::Pair { number, body } = t.next(START) else {
        panic!("round 1");
    };
    assert_eq!(number, 1);
    let order = berger::order(&t.entrants(), 5);
    assert_eq!(body.field, order);
    assert_eq!(
        (body.pairs.clone(), body.bye.clone()),
        berger::round(&order, 1, false)
    );
    write(&mut t, Next::Pair { number, body }, START, &[None, None]);
    assert_eq!(t.rounds_planned(), Some(3));
    // Under way and before its deadline: nothing; once both results are in: round 2.
    assert_eq!(t.next(START + 10), Next::Wait);
    for game in &mut t.games {
        game.outcome = Some(outcome_code(Outcome::Draw));
        game.ended_nanos = Some(START + 5);
    }
    for round in 2..=3 {
        let next = t.next(START + 10);
        assert!(matches!(next, Next::Pair { number, .. } if number == round));
        write(&mut t, next, START + 10, &[Some(Outcome::FirstWon); 2]);
    }
    match t.next(START + 20) {
        Next::Finish { cancelled, reason } => {
            assert!(!cancelled);
            assert_eq!(reason, "all 3 rounds played");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_swiss_round_past_its_deadline_leaves_bots_still_playing_out_and_records_their_games() {
    let mut t = loaded(Kind::Swiss, &["a", "b", "c", "d", "e", "f"]);
    let first = t.next(START);
    let decided = Some(Outcome::FirstWon);
    write(&mut t, first, START, &[decided, decided, None]);
    assert_eq!(t.next(START + HOUR - 1), Next::Wait, "before the deadline");
    let Next::Pair { number, body } = t.next(START + HOUR) else {
        panic!("the deadline pairs round 2");
    };
    assert_eq!(number, 2);
    let playing = &t.games[2].bots;
    assert_eq!(body.field.len(), 4);
    assert!(body.field.iter().all(|bot| !playing.contains(bot)));
    assert_eq!(body.pairs.len(), 2);
    assert_eq!(body.pending, vec![t.games[2].match_id.clone()]);
}

#[test]
fn a_swiss_event_that_cannot_pair_waits_for_its_games_then_ends() {
    // Two bots who have met cannot meet again: round 2 has no valid pairing.
    let mut t = loaded(Kind::Swiss, &["a", "b"]);
    let first = t.next(START);
    write(&mut t, first, START, &[None]);
    assert_eq!(
        t.next(START + HOUR),
        Next::Wait,
        "bots still playing sit out"
    );
    t.games[0].outcome = Some(outcome_code(Outcome::Draw));
    t.games[0].ended_nanos = Some(START + 1);
    match t.next(START + HOUR) {
        Next::Finish { cancelled, reason } => {
            assert!(!cancelled);
            assert!(reason.starts_with("round 2"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_ladder_pairs_idle_bots_credits_late_entrants_and_ends_when_all_have_played() {
    let mut t = loaded(Kind::Ladder, &["a", "b", "c", "d"]);
    let first = t.next(START);
    write(&mut t, first, START, &[Some(Outcome::FirstWon), None]);
    // A late entrant is counted from the fewest games of the others (1), not from 0.
    t.entries.push(EntryRow {
        joined_nanos: START + 2,
        ..entry("e", 1500)
    });
    let Next::Pair { body, .. } = t.next(START + 3) else {
        panic!("the idle bots are paired again");
    };
    let late = body.ladder.iter().find(|b| b.id == "e").unwrap();
    assert_eq!(late.games, 1);
    let busy: Vec<&str> = t.games[1].bots.iter().map(String::as_str).collect();
    for bot in &body.ladder {
        assert_eq!(bot.idle, !busy.contains(&bot.id.as_str()), "{}", bot.id);
    }
    // Three bots of two games each, every game decided at once: waves until each has played
    // its two, then the end.
    let mut done = loaded(Kind::Ladder, &["a", "b", "c"]);
    let mut at = START;
    loop {
        match done.next(at) {
            Next::Finish { reason, .. } => {
                assert_eq!(reason, "every bot played its 2 games");
                break;
            }
            Next::Wait => panic!("a ladder of idle bots with games left stalled"),
            next => write(&mut done, next, at, &[Some(Outcome::Draw); 3]),
        }
        at += 10;
        assert!(done.rounds.len() <= 3, "three games make the ladder");
    }
    for bot in ["a", "b", "c"] {
        let games = done
            .games
            .iter()
            .filter(|g| g.bots.contains(&bot.to_owned()))
            .count();
        assert_eq!(games, 2, "{bot}");
    }
}

#[test]
fn a_ladder_where_no_game_can_be_paired_any_more_ends() {
    // Three games each: a and c have played theirs, b has two and no one left to play.
    let mut t = loaded(Kind::Ladder, &["a", "b", "c"]);
    t.spec.ladder_games_per_bot = 3;
    t.row.state = TournamentState::Running;
    // The first wave had all three in its input, with no games yet.
    let Next::Pair { body, .. } = t.next(START) else {
        panic!("a first wave");
    };
    let played = [["c", "a"], ["c", "b"], ["a", "b"], ["c", "a"]];
    for (index, bots) in played.iter().enumerate() {
        let round = index as u32 + 1;
        t.rounds.push((
            TournamentRoundRow {
                tournament_id: "t".into(),
                round,
                body: Vec::new(),
                paired_nanos: START,
                deadline_nanos: START + HOUR,
            },
            body.clone(),
        ));
        t.games.push(TournamentGameRow {
            match_id: format!("m{round}"),
            tournament_id: "t".into(),
            round,
            bots: bots.map(str::to_owned),
            outcome: Some(outcome_code(Outcome::Draw)),
            ended_nanos: Some(START),
        });
    }
    match t.next(START) {
        Next::Finish { reason, cancelled } => {
            assert!(!cancelled);
            assert!(
                reason.starts_with("no more games can be paired"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    // With a game under way, it waits for it first.
    t.games[3].outcome = None;
    t.games[3].ended_nanos = None;
    assert_eq!(t.next(START), Next::Wait);
}
