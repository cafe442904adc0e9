//! The worked example of docs/leagues.md, computed by the crate: five bots, a three-round Swiss
//! event with seed 7, results chosen by hand. If a pairing rule or a tie-break changes, this
//! test fails, and the page must be changed with it.

use pitchmate_tournaments::record::{
    FORMAT, Kind, Record, RecordEntrant, RecordGame, RecordRound, verify,
};
use pitchmate_tournaments::standings::{TieBreak, standings};
use pitchmate_tournaments::swiss::{SwissRequest, pair};
use pitchmate_tournaments::{Entrant, Game, Outcome, Round, WIN};

fn entrants() -> Vec<Entrant> {
    [
        ("ada", 1700),
        ("bo", 1650),
        ("cy", 1600),
        ("di", 1550),
        ("ed", 1500),
    ]
    .into_iter()
    .map(|(id, rating)| Entrant {
        id: id.to_owned(),
        rating,
    })
    .collect()
}

/// Pairs the next round and plays it with the outcomes given for its boards in order.
fn play(history: &mut Vec<Round>, outcomes: &[Outcome]) -> (Vec<(String, String)>, Option<String>) {
    let field = entrants();
    let number = history.len() as u32 + 1;
    let request = SwissRequest {
        seed: 7,
        number,
        field: &field,
        history,
        forbidden: &[],
        paired_games: false,
    };
    let round = pair(&request).expect("a valid pairing");
    assert_eq!(round.pairs.len(), outcomes.len());
    history.push(Round {
        number,
        games: round
            .pairs
            .iter()
            .zip(outcomes)
            .map(|((first, second), &outcome)| Game {
                first: first.clone(),
                second: second.clone(),
                outcome: Some(outcome),
            })
            .collect(),
        bye: round.bye.clone(),
    });
    (round.pairs, round.bye)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[test]
fn five_bots_three_rounds() {
    use Outcome::*;
    let mut history = Vec::new();
    assert_eq!(
        play(&mut history, &[FirstWon, Draw]),
        (pairs(&[("cy", "ada"), ("bo", "di")]), Some("ed".to_owned()))
    );
    assert_eq!(
        play(&mut history, &[SecondWon, FirstWon]),
        (pairs(&[("di", "cy"), ("ed", "bo")]), Some("ada".to_owned()))
    );
    assert_eq!(
        play(&mut history, &[Draw, SecondWon]),
        (pairs(&[("cy", "ed"), ("ada", "bo")]), Some("di".to_owned()))
    );
    let order = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
    ];
    let table: Vec<(u32, String, u32, Vec<i64>)> = standings(&entrants(), &history, &order, WIN)
        .into_iter()
        .map(|s| (s.rank, s.id, s.points, s.tiebreaks))
        .collect();
    let expected = [
        (1, "ed", 5, [10, 13, 21, 0]),
        (2, "cy", 5, [8, 10, 15, 0]),
        (3, "di", 3, [8, 11, 9, 0]),
        (4, "bo", 3, [8, 10, 7, 0]),
        (5, "ada", 2, [8, 10, 4, 0]),
    ];
    assert_eq!(
        table,
        expected
            .iter()
            .map(|(rank, id, points, ties)| (*rank, (*id).to_owned(), *points, ties.to_vec()))
            .collect::<Vec<_>>()
    );
}

/// The example's record verifies as played; with round 1's first result turned round, round 2
/// re-pairs differently (cy, not ada, is then the lowest-ranked bot without a bye).
#[test]
fn the_example_verifies_and_a_changed_result_does_not() {
    use Outcome::*;
    let mut history = Vec::new();
    play(&mut history, &[FirstWon, Draw]);
    play(&mut history, &[SecondWon, FirstWon]);
    play(&mut history, &[Draw, SecondWon]);
    let mut record = Record {
        format: FORMAT.to_owned(),
        tournament_id: "example".into(),
        name: "example".into(),
        kind: Kind::Swiss,
        seed: 7,
        rounds_planned: Some(3),
        tie_breaks: Vec::new(),
        forbidden: Vec::new(),
        paired_games: false,
        entrants: entrants()
            .into_iter()
            .map(|e| RecordEntrant {
                id: e.id,
                rating: e.rating,
                first_round: 1,
                status: "active".into(),
            })
            .collect(),
        rounds: history
            .iter()
            .map(|round| RecordRound {
                number: round.number,
                field: entrants().into_iter().map(|e| e.id).collect(),
                pending: Vec::new(),
                games: round
                    .games
                    .iter()
                    .enumerate()
                    .map(|(board, g)| RecordGame {
                        match_id: format!("{}-{board}", round.number),
                        first: g.first.clone(),
                        second: g.second.clone(),
                        outcome: g.outcome,
                    })
                    .collect(),
                bye: round.bye.clone(),
                ladder: Vec::new(),
            })
            .collect(),
        standings: Vec::new(),
    };
    assert_eq!(verify(&record), Vec::new());
    record.rounds[0].games[0].outcome = Some(SecondWon);
    let found = verify(&record);
    assert_eq!(found[0].round, 2, "{found:?}");
    assert!(found[0].expected.ends_with("bye cy"), "{found:?}");
    assert!(found[0].recorded.ends_with("bye ada"), "{found:?}");
}
