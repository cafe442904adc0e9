//! Standings on small events worked by hand (one or more per tie-break), and properties of any
//! event: where the points come from, how ranks are shared, and that the order of the input
//! does not matter.

use proptest::prelude::*;

use super::{Standing, TieBreak, standings};
use crate::{DRAW, Entrant, Game, Outcome, Round, WIN};

const FIRST_WON: Option<Outcome> = Some(Outcome::FirstWon);
const SECOND_WON: Option<Outcome> = Some(Outcome::SecondWon);
const DRAWN: Option<Outcome> = Some(Outcome::Draw);
const NEITHER_CAME: Option<Outcome> = Some(Outcome::NeitherCame);

fn entrants(ids: &[&str]) -> Vec<Entrant> {
    ids.iter()
        .map(|id| Entrant {
            id: (*id).to_owned(),
            rating: 1500,
        })
        .collect()
}

fn game(first: &str, second: &str, outcome: Option<Outcome>) -> Game {
    Game {
        first: first.to_owned(),
        second: second.to_owned(),
        outcome,
    }
}

fn round(number: u32, games: Vec<Game>, bye: Option<&str>) -> Round {
    Round {
        number,
        games,
        bye: bye.map(str::to_owned),
    }
}

/// Each bot's (id, rank), in the standings' order.
fn ranking(table: &[Standing]) -> Vec<(&str, u32)> {
    table.iter().map(|s| (s.id.as_str(), s.rank)).collect()
}

/// Each bot's (id, tie-breaks), sorted by id.
fn tiebreaks(table: &[Standing]) -> Vec<(&str, Vec<i64>)> {
    let mut values: Vec<_> = table
        .iter()
        .map(|s| (s.id.as_str(), s.tiebreaks.clone()))
        .collect();
    values.sort();
    values
}

/// Five bots, three rounds, a bye worth a win (2 half-points) each round:
///
/// ```text
/// round 1: a beats b, c draws d, e has the bye
/// round 2: a draws c, e beats b, d has the bye
/// round 3: d beats a, c beats e, b has the bye
/// ```
///
/// Points (half-points): a 2+1+0 = 3, b 0+0+2 = 2, c 1+1+2 = 4, d 1+2+2 = 5, e 2+2+0 = 4.
/// c and e are level on 4.
fn five_bots() -> (Vec<Entrant>, Vec<Round>) {
    (
        entrants(&["a", "b", "c", "d", "e"]),
        vec![
            round(
                1,
                vec![game("a", "b", FIRST_WON), game("c", "d", DRAWN)],
                Some("e"),
            ),
            round(
                2,
                vec![game("a", "c", DRAWN), game("e", "b", FIRST_WON)],
                Some("d"),
            ),
            round(
                3,
                vec![game("d", "a", FIRST_WON), game("c", "e", FIRST_WON)],
                Some("b"),
            ),
        ],
    )
}

#[test]
fn points_and_counts() {
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[], WIN);
    let line = |id: &str| table.iter().find(|s| s.id == id).unwrap().clone();
    let d = line("d");
    assert_eq!(
        (d.points, d.played, d.wins, d.draws, d.losses, d.byes),
        (5, 2, 1, 1, 0, 1)
    );
    let b = line("b");
    assert_eq!(
        (b.points, b.played, b.wins, b.draws, b.losses, b.byes),
        (2, 2, 0, 0, 2, 1)
    );
    let points: Vec<(&str, u32)> = table.iter().map(|s| (s.id.as_str(), s.points)).collect();
    assert_eq!(points, [("d", 5), ("c", 4), ("e", 4), ("a", 3), ("b", 2)]);
}

#[test]
fn bots_level_on_everything_share_a_rank_listed_by_id() {
    // No tie-breaks: c and e share second place; a is fourth, behind three bots.
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[], WIN);
    assert_eq!(
        ranking(&table),
        [("d", 1), ("c", 2), ("e", 2), ("a", 4), ("b", 5)]
    );
}

#[test]
fn buchholz_sums_the_opponents_points_and_the_bots_own_for_a_bye() {
    // a: b 2 + c 4 + d 5 = 11
    // b: a 3 + e 4 + bye (its own 2) = 9
    // c: d 5 + a 3 + e 4 = 12
    // d: c 4 + bye (its own 5) + a 3 = 12
    // e: bye (its own 4) + b 2 + c 4 = 10
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[TieBreak::Buchholz], WIN);
    assert_eq!(
        tiebreaks(&table),
        [
            ("a", vec![11]),
            ("b", vec![9]),
            ("c", vec![12]),
            ("d", vec![12]),
            ("e", vec![10]),
        ]
    );
    assert_eq!(
        ranking(&table),
        [("d", 1), ("c", 2), ("e", 3), ("a", 4), ("b", 5)]
    );
}

#[test]
fn buchholz_cut_1_drops_the_lowest_term() {
    // The Buchholz terms above less the lowest: a 11 - 2 = 9, b 9 - 2 = 7, c 12 - 3 = 9,
    // d 12 - 3 = 9, e 10 - 2 = 8.
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[TieBreak::BuchholzCut1], WIN);
    assert_eq!(
        tiebreaks(&table),
        [
            ("a", vec![9]),
            ("b", vec![7]),
            ("c", vec![9]),
            ("d", vec![9]),
            ("e", vec![8]),
        ]
    );
}

#[test]
fn sonneborn_berger_weighs_each_opponent_by_the_score_against_it() {
    // Opponent's points × half-points scored:
    // a: b 2×2 + c 4×1 + d 5×0 = 8
    // b: a 3×0 + e 4×0 + bye (own 2)×2 = 4
    // c: d 5×1 + a 3×1 + e 4×2 = 16
    // d: c 4×1 + bye (own 5)×2 + a 3×2 = 20
    // e: bye (own 4)×2 + b 2×2 + c 4×0 = 12
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[TieBreak::SonnebornBerger], WIN);
    assert_eq!(
        tiebreaks(&table),
        [
            ("a", vec![8]),
            ("b", vec![4]),
            ("c", vec![16]),
            ("d", vec![20]),
            ("e", vec![12]),
        ]
    );
}

#[test]
fn wins_count_games_won_on_the_board_not_byes() {
    // a beat b, c beat e, d beat a, e beat b; b's bye is no win.
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[TieBreak::Wins], WIN);
    assert_eq!(
        tiebreaks(&table),
        [
            ("a", vec![1]),
            ("b", vec![0]),
            ("c", vec![1]),
            ("d", vec![1]),
            ("e", vec![1]),
        ]
    );
}

#[test]
fn direct_encounter_counts_among_bots_level_on_everything_before_it() {
    // c and e are level on 4 points and on wins (1 each); c beat e in round 3: 2 and 0.
    let (bots, rounds) = five_bots();
    let table = standings(
        &bots,
        &rounds,
        &[TieBreak::Wins, TieBreak::DirectEncounter],
        WIN,
    );
    assert_eq!(
        tiebreaks(&table),
        [
            ("a", vec![1, 0]),
            ("b", vec![0, 0]),
            ("c", vec![1, 2]),
            ("d", vec![1, 0]),
            ("e", vec![1, 0]),
        ]
    );
    // After Buchholz (c 12, e 10) they are no longer level: no one is, so all get 0.
    let table = standings(
        &bots,
        &rounds,
        &[TieBreak::Buchholz, TieBreak::DirectEncounter],
        WIN,
    );
    assert!(table.iter().all(|s| s.tiebreaks[1] == 0));
}

#[test]
fn direct_encounter_needs_every_two_level_bots_to_have_met() {
    // Round 1: a draws b, c draws d. Round 2: a beats c, b beats d.
    // a and b are level on 3 and met (a draw: 1 each); c and d on 1 and met (1 each).
    // After round 1 alone all four are level on 1 but a never met c: 0 for all.
    let bots = entrants(&["a", "b", "c", "d"]);
    let first = round(1, vec![game("a", "b", DRAWN), game("c", "d", DRAWN)], None);
    let second = round(
        2,
        vec![game("a", "c", FIRST_WON), game("b", "d", FIRST_WON)],
        None,
    );
    let order = [TieBreak::DirectEncounter];
    let after_one = standings(&bots, std::slice::from_ref(&first), &order, WIN);
    assert!(after_one.iter().all(|s| s.tiebreaks == [0] && s.rank == 1));
    let after_two = standings(&bots, &[first, second], &order, WIN);
    assert!(after_two.iter().all(|s| s.tiebreaks == [1]));
}

/// Four bots, a full round robin:
///
/// ```text
/// a beats b, c beats a, a draws d, b beats c, b draws d, c beats d
/// ```
///
/// Points: a 2+0+1 = 3, b 0+2+1 = 3, c 2+0+2 = 4, d 1+1+0 = 2.
/// a and b are level; a beat b (direct encounter a 2, b 0) and both won once, but
/// Sonneborn-Berger favours b: a = b 3×2 + c 4×0 + d 2×1 = 8; b = a 3×0 + c 4×2 + d 2×1 = 10.
fn four_bot_round_robin() -> (Vec<Entrant>, Vec<Round>) {
    (
        entrants(&["a", "b", "c", "d"]),
        vec![
            round(
                1,
                vec![game("a", "d", DRAWN), game("b", "c", FIRST_WON)],
                None,
            ),
            round(
                2,
                vec![game("d", "c", SECOND_WON), game("a", "b", FIRST_WON)],
                None,
            ),
            round(
                3,
                vec![game("b", "d", DRAWN), game("c", "a", FIRST_WON)],
                None,
            ),
        ],
    )
}

#[test]
fn the_order_of_tie_breaks_decides() {
    let (bots, rounds) = four_bot_round_robin();
    let by_sb = standings(
        &bots,
        &rounds,
        &[TieBreak::SonnebornBerger, TieBreak::DirectEncounter],
        0,
    );
    assert_eq!(ranking(&by_sb), [("c", 1), ("b", 2), ("a", 3), ("d", 4)]);
    assert_eq!(by_sb[1].tiebreaks, [10, 0], "b: no longer level with a");
    let by_de = standings(
        &bots,
        &rounds,
        &[TieBreak::DirectEncounter, TieBreak::SonnebornBerger],
        0,
    );
    assert_eq!(ranking(&by_de), [("c", 1), ("a", 2), ("b", 3), ("d", 4)]);
    assert_eq!(by_de[1].tiebreaks, [2, 8]);
    assert_eq!(by_de[2].tiebreaks, [0, 10]);
}

#[test]
fn neither_came_is_a_loss_for_both_and_an_unplayed_round() {
    // Round 1: neither a nor b came; c beats d. Round 2: a beats c, b draws d.
    // Points: a 0+2 = 2, b 0+1 = 1, c 2+0 = 2, d 0+1 = 1.
    // Buchholz: a own 2 + c 2 = 4; b own 1 + d 1 = 2; c d 1 + a 2 = 3; d c 2 + b 1 = 3.
    // Sonneborn-Berger: a 2×0 + 2×2 = 4; b 1×0 + 1×1 = 1; c 1×2 + 2×0 = 2; d 2×0 + 1×1 = 1.
    let bots = entrants(&["a", "b", "c", "d"]);
    let rounds = [
        round(
            1,
            vec![game("a", "b", NEITHER_CAME), game("c", "d", FIRST_WON)],
            None,
        ),
        round(
            2,
            vec![game("a", "c", FIRST_WON), game("b", "d", DRAWN)],
            None,
        ),
    ];
    let table = standings(
        &bots,
        &rounds,
        &[TieBreak::Buchholz, TieBreak::SonnebornBerger],
        WIN,
    );
    assert_eq!(
        tiebreaks(&table),
        [
            ("a", vec![4, 4]),
            ("b", vec![2, 1]),
            ("c", vec![3, 2]),
            ("d", vec![3, 1]),
        ]
    );
    let a = table.iter().find(|s| s.id == "a").unwrap();
    assert_eq!((a.points, a.played, a.wins, a.losses), (2, 1, 1, 1));
}

#[test]
fn an_unknown_outcome_counts_for_nothing_yet() {
    // a beats b; c and d are still playing: no points, no game, no unplayed round.
    let bots = entrants(&["a", "b", "c", "d"]);
    let rounds = [round(
        1,
        vec![game("a", "b", FIRST_WON), game("c", "d", None)],
        None,
    )];
    let table = standings(&bots, &rounds, &[TieBreak::Buchholz], WIN);
    let c = table.iter().find(|s| s.id == "c").unwrap();
    assert_eq!((c.points, c.played, c.losses, c.tiebreaks[0]), (0, 0, 0, 0));
    // b's Buchholz is a's 2; c and d have no terms yet.
    assert_eq!(ranking(&table), [("a", 1), ("b", 2), ("c", 3), ("d", 3)]);
}

#[test]
fn a_round_a_bot_is_absent_from_is_unplayed() {
    // Round 1: a beats b, c has the bye (2). Round 2: a beats b again; c is absent.
    // c: 2 points; Buchholz = own 2 (bye) + own 2 (absent) = 4, cut 1 = 2;
    // Sonneborn-Berger = 2×2 + 2×0 = 4.
    let bots = entrants(&["a", "b", "c"]);
    let rounds = [
        round(1, vec![game("a", "b", FIRST_WON)], Some("c")),
        round(2, vec![game("a", "b", FIRST_WON)], None),
    ];
    let order = [
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger,
    ];
    let table = standings(&bots, &rounds, &order, WIN);
    let c = table.iter().find(|s| s.id == "c").unwrap();
    assert_eq!(
        (c.points, c.byes, c.tiebreaks.clone()),
        (2, 1, vec![4, 2, 4])
    );
}

#[test]
fn the_bye_is_worth_what_the_event_says() {
    let (bots, rounds) = five_bots();
    let table = standings(&bots, &rounds, &[], DRAW);
    let b = table.iter().find(|s| s.id == "b").unwrap();
    assert_eq!(b.points, DRAW);
}

/// A random event: `n` bots, some rounds, each pairing a shuffled subset with random outcomes
/// (unknown ones included) and sometimes a bye.
fn event() -> impl Strategy<Value = (Vec<Entrant>, Vec<Round>, u32)> {
    (2usize..9, 0usize..6, 0u32..3).prop_flat_map(|(n, rounds, bye_points)| {
        let round = (
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
            proptest::collection::vec(0u8..6, n / 2),
            any::<bool>(),
        );
        (
            proptest::collection::vec(round, rounds),
            Just(n),
            Just(bye_points),
        )
            .prop_map(|(shapes, n, bye_points)| {
                let name = |i: usize| format!("bot-{i}");
                let bots = (0..n)
                    .map(|i| Entrant {
                        id: name(i),
                        rating: 1500,
                    })
                    .collect();
                let rounds = shapes
                    .into_iter()
                    .enumerate()
                    .map(|(r, (ids, outcomes, bye))| {
                        let games = outcomes
                            .iter()
                            .enumerate()
                            .map(|(k, &o)| Game {
                                first: name(ids[2 * k]),
                                second: name(ids[2 * k + 1]),
                                outcome: match o {
                                    0 => FIRST_WON,
                                    1 => SECOND_WON,
                                    2 => DRAWN,
                                    3 => NEITHER_CAME,
                                    _ => None,
                                },
                            })
                            .collect();
                        Round {
                            number: r as u32 + 1,
                            games,
                            bye: (n % 2 == 1 && bye).then(|| name(ids[n - 1])),
                        }
                    })
                    .collect();
                (bots, rounds, bye_points)
            })
    })
}

const ALL: [TieBreak; 5] = [
    TieBreak::Buchholz,
    TieBreak::BuchholzCut1,
    TieBreak::SonnebornBerger,
    TieBreak::DirectEncounter,
    TieBreak::Wins,
];

proptest! {
    #[test]
    fn points_come_from_games_and_byes((bots, rounds, bye_points) in event()) {
        let table = standings(&bots, &rounds, &ALL, bye_points);
        let mut expected = 0;
        for round in &rounds {
            for game in &round.games {
                expected += match game.outcome {
                    Some(Outcome::FirstWon | Outcome::SecondWon) => WIN,
                    Some(Outcome::Draw) => 2 * DRAW,
                    Some(Outcome::NeitherCame) | None => 0,
                };
            }
            expected += if round.bye.is_some() { bye_points } else { 0 };
        }
        prop_assert_eq!(table.iter().map(|s| s.points).sum::<u32>(), expected);
        prop_assert_eq!(table.len(), bots.len());
        for s in &table {
            prop_assert_eq!(s.tiebreaks.len(), ALL.len());
            prop_assert!(s.wins + s.draws <= s.played);
            prop_assert_eq!(s.points, s.wins * WIN + s.draws * DRAW + s.byes * bye_points);
            prop_assert!(s.tiebreaks[1] <= s.tiebreaks[0], "cut 1 is at most Buchholz");
        }
    }

    #[test]
    fn ranks_are_shared_by_equals_and_count_those_ahead((bots, rounds, bye_points) in event()) {
        let table = standings(&bots, &rounds, &ALL, bye_points);
        let key = |s: &Standing| (s.points, s.tiebreaks.clone());
        for (place, s) in table.iter().enumerate() {
            let ahead = table.iter().filter(|t| key(t) > key(s)).count();
            prop_assert_eq!(s.rank as usize, ahead + 1);
            if place > 0 {
                let before = &table[place - 1];
                prop_assert!(key(before) > key(s) || (key(before) == key(s) && before.id < s.id));
            }
        }
    }

    #[test]
    fn the_input_order_does_not_matter((bots, rounds, bye_points) in event()) {
        let table = standings(&bots, &rounds, &ALL, bye_points);
        let mut reversed_bots = bots.clone();
        reversed_bots.reverse();
        let reversed_rounds: Vec<Round> = rounds
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.games.reverse();
                r
            })
            .collect();
        prop_assert_eq!(standings(&reversed_bots, &reversed_rounds, &ALL, bye_points), table);
    }
}
