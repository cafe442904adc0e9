//! The tables against FIDE's printed ones, and what any round robin must keep to for fields of
//! 2 to 20 bots, single and double.

use std::collections::{HashMap, HashSet};

use super::{order, round, rounds};
use crate::{Entrant, seeded_key};

/// Bots named by their Berger number: "1" is number 1.
fn numbered(n: usize) -> Vec<String> {
    (1..=n).map(|i| i.to_string()).collect()
}

/// The table as printed: each round's boards as "first-second", space-separated.
fn printed(n: usize) -> Vec<String> {
    let order = numbered(n);
    (1..=rounds(n, false))
        .map(|r| {
            let (pairs, _) = round(&order, r, false);
            pairs
                .iter()
                .map(|(a, b)| format!("{a}-{b}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn four_bots_follow_fides_table() {
    assert_eq!(printed(4), ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
}

#[test]
fn six_bots_follow_fides_table() {
    assert_eq!(
        printed(6),
        [
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ]
    );
}

#[test]
fn eight_bots_follow_fides_table() {
    assert_eq!(
        printed(8),
        [
            "1-8 2-7 3-6 4-5",
            "8-5 6-4 7-3 1-2",
            "2-8 3-1 4-7 5-6",
            "8-6 7-5 1-4 2-3",
            "3-8 4-2 5-1 6-7",
            "8-7 1-6 2-5 3-4",
            "4-8 5-3 6-2 7-1",
        ]
    );
}

#[test]
fn an_odd_field_drops_the_phantoms_board() {
    // Five bots play the six-bot table; whoever meets number 6 sits out.
    let order = numbered(5);
    let sat_out: Vec<String> = (1..=5)
        .map(|r| round(&order, r, false).1.unwrap())
        .collect();
    assert_eq!(sat_out, ["1", "4", "2", "5", "3"]);
    assert_eq!(
        round(&order, 2, false).0,
        [("5".into(), "3".into()), ("1".into(), "2".into())]
    );
}

#[test]
fn rounds_count_the_cycle() {
    assert_eq!(rounds(0, false), 0);
    assert_eq!(rounds(1, true), 0);
    assert_eq!(rounds(2, false), 1);
    assert_eq!(rounds(2, true), 2);
    assert_eq!(rounds(6, false), 5);
    assert_eq!(rounds(7, false), 7);
    assert_eq!(rounds(7, true), 14);
}

#[test]
fn a_round_out_of_range_is_empty() {
    let order = numbered(6);
    for (number, double) in [(0, false), (6, false), (0, true), (11, true)] {
        assert_eq!(round(&order, number, double), (Vec::new(), None));
    }
    assert_eq!(round(&numbered(1), 1, false), (Vec::new(), None));
}

#[test]
fn the_second_cycle_swaps_the_seats() {
    let order = numbered(6);
    let (first_cycle, _) = round(&order, 2, true);
    let (second_cycle, _) = round(&order, 7, true);
    let swapped: Vec<_> = first_cycle.into_iter().map(|(a, b)| (b, a)).collect();
    assert_eq!(second_cycle, swapped);
    assert_eq!(round(&order, 2, true), round(&order, 2, false));
}

#[test]
fn order_sorts_by_seeded_key() {
    let entrants: Vec<Entrant> = ["ant", "bee", "cat", "dog", "eel"]
        .iter()
        .map(|id| Entrant {
            id: (*id).to_owned(),
            rating: 1500,
        })
        .collect();
    let seed = 42;
    let numbers = order(&entrants, seed);
    let keys: Vec<_> = numbers.iter().map(|id| seeded_key(seed, id)).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    let mut reversed = entrants.clone();
    reversed.reverse();
    assert_eq!(
        order(&reversed, seed),
        numbers,
        "the input order does not matter"
    );
    assert_ne!(order(&entrants, 43), numbers, "another seed, another order");
}

/// Checks one whole table of `n` bots: every pair meets once (a double round robin: once in
/// each seat order), nobody plays twice in a round or sits out while playing, each bot sits out
/// once a cycle in an odd field and never in an even one, and first seats are shared out
/// within one per cycle.
fn check_table(n: usize, double: bool) {
    let order = numbered(n);
    let total = rounds(n, double);
    let cycle = if double { total / 2 } else { total };
    let mut met: HashMap<(String, String), u32> = HashMap::new();
    let mut sat_out: HashMap<String, u32> = HashMap::new();
    for cycle_start in (0..total).step_by(cycle.max(1) as usize) {
        let mut firsts: HashMap<&str, u32> = order.iter().map(|id| (id.as_str(), 0)).collect();
        for r in cycle_start + 1..=cycle_start + cycle {
            let (pairs, out) = round(&order, r, double);
            assert_eq!(pairs.len(), n / 2, "{n} bots, round {r}");
            let mut seen = HashSet::new();
            for (a, b) in &pairs {
                assert_ne!(a, b);
                assert!(
                    seen.insert(a.clone()) && seen.insert(b.clone()),
                    "round {r}"
                );
                *met.entry((a.clone(), b.clone())).or_default() += 1;
                *firsts.get_mut(a.as_str()).unwrap() += 1;
            }
            assert_eq!(out.is_some(), n % 2 == 1, "{n} bots, round {r}");
            if let Some(out) = out {
                assert!(!seen.contains(&out), "round {r}: {out} sits out and plays");
                *sat_out.entry(out).or_default() += 1;
            }
        }
        let most = firsts.values().max().unwrap();
        let fewest = firsts.values().min().unwrap();
        assert!(most - fewest <= 1, "{n} bots: first seats {firsts:?}");
    }
    for a in &order {
        for b in &order {
            if a == b {
                continue;
            }
            let one_way = met.get(&(a.clone(), b.clone())).copied().unwrap_or(0);
            let other_way = met.get(&(b.clone(), a.clone())).copied().unwrap_or(0);
            if double {
                assert_eq!((one_way, other_way), (1, 1), "{n} bots: {a} and {b}");
            } else {
                assert_eq!(one_way + other_way, 1, "{n} bots: {a} and {b}");
            }
        }
    }
    let cycles = if double { 2 } else { 1 };
    for id in &order {
        let expected = if n % 2 == 1 { cycles } else { 0 };
        assert_eq!(
            sat_out.get(id).copied().unwrap_or(0),
            expected,
            "{n} bots: {id}"
        );
    }
}

#[test]
fn every_table_from_2_to_20_bots_is_a_round_robin() {
    for n in 2..=20 {
        check_table(n, false);
        check_table(n, true);
    }
}
