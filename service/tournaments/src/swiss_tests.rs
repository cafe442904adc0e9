use std::collections::{HashMap, HashSet};

use proptest::prelude::*;

use super::*;
use crate::{DRAW, Outcome};

/// splitmix64: a fixed sequence from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

fn entrant(id: &str, rating: i32) -> Entrant {
    Entrant {
        id: id.to_string(),
        rating,
    }
}

/// `n` bots `b00`, `b01`, … rated 2000, 1990, … (so the id order is the rating order).
fn field_of(n: usize) -> Vec<Entrant> {
    (0..n)
        .map(|i| entrant(&format!("b{i:02}"), 2000 - 10 * i as i32))
        .collect()
}

fn game(first: &str, second: &str, outcome: Option<Outcome>) -> Game {
    Game {
        first: first.to_string(),
        second: second.to_string(),
        outcome,
    }
}

fn round_of(number: u32, games: Vec<Game>, bye: Option<&str>) -> Round {
    Round {
        number,
        games,
        bye: bye.map(str::to_string),
    }
}

fn forbid(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

fn request<'a>(
    field: &'a [Entrant],
    history: &'a [Round],
    forbidden: &'a [(String, String)],
) -> SwissRequest<'a> {
    SwissRequest {
        seed: 0,
        number: history.iter().map(|r| r.number).max().unwrap_or(0) + 1,
        field,
        history,
        forbidden,
        paired_games: false,
    }
}

fn pairs_of(round: &SwissRound) -> Vec<(&str, &str)> {
    round
        .pairs
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect()
}

fn reason(result: Result<SwissRound, SwissError>) -> String {
    match result {
        Err(SwissError::NoValidPairing { reason }) => reason,
        Ok(round) => panic!("expected no valid pairing, got {:?}", round.pairs),
    }
}

/// The rules, written again from the module doc without its code: which pairs may meet, in
/// which seats, and whether the others can all be paired.
struct Oracle {
    ids: Vec<String>,
    met: HashSet<(usize, usize)>,
    /// Each bot's seats in round order: `true` for first.
    seats: Vec<Vec<bool>>,
    byes: Vec<u32>,
    points: Vec<u32>,
    paired_games: bool,
}

impl Oracle {
    fn new(request: &SwissRequest) -> Self {
        let ids: Vec<String> = request.field.iter().map(|e| e.id.clone()).collect();
        let index: HashMap<&str, usize> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        let mut met = HashSet::new();
        let mut seats = vec![Vec::new(); ids.len()];
        let mut rounds: Vec<&Round> = request.history.iter().collect();
        rounds.sort_by_key(|r| r.number);
        for round in rounds {
            for g in &round.games {
                let (a, b) = (index.get(g.first.as_str()), index.get(g.second.as_str()));
                if let (Some(&a), Some(&b)) = (a, b) {
                    met.insert((a.min(b), a.max(b)));
                }
                if let Some(&a) = a {
                    seats[a].push(true);
                }
                if let Some(&b) = b {
                    seats[b].push(false);
                }
            }
        }
        for (a, b) in request.forbidden {
            if let (Some(&a), Some(&b)) = (index.get(a.as_str()), index.get(b.as_str())) {
                met.insert((a.min(b), a.max(b)));
            }
        }
        let byes = ids
            .iter()
            .map(|id| {
                request
                    .history
                    .iter()
                    .filter(|r| r.bye.as_deref() == Some(id))
                    .count() as u32
            })
            .collect();
        let points = ids
            .iter()
            .map(|id| {
                let mut p = 0;
                for r in request.history {
                    for g in &r.games {
                        match g.outcome {
                            Some(Outcome::FirstWon) if g.first == *id => p += 2,
                            Some(Outcome::SecondWon) if g.second == *id => p += 2,
                            Some(Outcome::Draw) if g.first == *id || g.second == *id => p += 1,
                            _ => {}
                        }
                    }
                    if r.bye.as_deref() == Some(id) {
                        p += if request.paired_games { 4 } else { 2 };
                    }
                }
                p
            })
            .collect();
        Oracle {
            ids,
            met,
            seats,
            byes,
            points,
            paired_games: request.paired_games,
        }
    }

    fn index(&self, id: &str) -> usize {
        self.ids.iter().position(|i| i == id).expect("a field bot")
    }

    /// Whether `bot` may take the first seat (`first`) or the second.
    fn may_sit(&self, bot: usize, first: bool) -> bool {
        let seq = &self.seats[bot];
        let firsts = seq.iter().filter(|&&s| s).count();
        let seconds = seq.len() - firsts;
        let (f, s) = if first {
            (firsts + 1, seconds)
        } else {
            (firsts, seconds + 1)
        };
        let before = firsts.abs_diff(seconds);
        let after = f.abs_diff(s);
        let third = seq.len() >= 2 && seq[seq.len() - 1] == first && seq[seq.len() - 2] == first;
        !third && (after <= 1 || after < before)
    }

    fn may_play_seated(&self, first: usize, second: usize) -> bool {
        first != second
            && !self.met.contains(&(first.min(second), first.max(second)))
            && (self.paired_games || (self.may_sit(first, true) && self.may_sit(second, false)))
    }

    fn may_play(&self, a: usize, b: usize) -> bool {
        self.may_play_seated(a, b) || self.may_play_seated(b, a)
    }

    /// Whether the bots of `mask` can all be paired.
    fn pairable(&self, mask: u32, memo: &mut HashMap<u32, bool>) -> bool {
        if mask == 0 {
            return true;
        }
        if let Some(&known) = memo.get(&mask) {
            return known;
        }
        let a = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << a);
        let mut ok = false;
        let mut others = rest;
        while others != 0 && !ok {
            let b = others.trailing_zeros() as usize;
            others &= !(1 << b);
            ok = self.may_play(a, b) && self.pairable(rest & !(1 << b), memo);
        }
        memo.insert(mask, ok);
        ok
    }

    /// The field's rank order, by the module doc.
    fn ranked(&self, request: &SwissRequest) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ids.len()).collect();
        order.sort_by(|&a, &b| {
            self.points[b]
                .cmp(&self.points[a])
                .then(request.field[b].rating.cmp(&request.field[a].rating))
                .then(
                    seeded_key(request.seed, &self.ids[a])
                        .cmp(&seeded_key(request.seed, &self.ids[b])),
                )
        });
        order
    }

    /// Whether any valid pairing exists, and the bot the bye rule picks (for an odd field).
    fn expected(&self, request: &SwissRequest) -> Option<Option<usize>> {
        let n = self.ids.len();
        let all = if n == 0 { 0 } else { u32::MAX >> (32 - n) };
        let mut memo = HashMap::new();
        if n.is_multiple_of(2) {
            return self.pairable(all, &mut memo).then_some(None);
        }
        let ranked = self.ranked(request);
        let mut candidates: Vec<usize> = ranked.iter().rev().copied().collect();
        candidates.sort_by_key(|&b| self.byes[b]);
        candidates
            .into_iter()
            .find(|&b| self.pairable(all & !(1 << b), &mut memo))
            .map(Some)
    }

    /// Panics unless `round` keeps every rule: each bot once, no rematch, no forbidden pair,
    /// the seat rules, and a bye exactly for an odd field.
    fn check(&self, round: &SwissRound) {
        let mut seen = vec![false; self.ids.len()];
        let mut mark = |bot: usize| {
            assert!(!seen[bot], "`{}` is paired twice", self.ids[bot]);
            seen[bot] = true;
        };
        for (first, second) in &round.pairs {
            let (a, b) = (self.index(first), self.index(second));
            mark(a);
            mark(b);
            assert!(
                self.may_play_seated(a, b),
                "{first} (first) may not play {second}"
            );
        }
        assert_eq!(
            round.bye.is_some(),
            self.ids.len() % 2 == 1,
            "a bye exactly for an odd field"
        );
        if let Some(bye) = &round.bye {
            mark(self.index(bye));
        }
        assert!(
            seen.iter().all(|&s| s),
            "every bot is paired or has the bye"
        );
        assert_eq!(round.why.pairs.len(), round.pairs.len());
        for (why, (first, second)) in round.why.pairs.iter().zip(&round.pairs) {
            assert_eq!((&why.first, &why.second), (first, second));
        }
    }
}

/// A random history of `rounds` rounds over `field` and one bot gone from it: each round pairs a
/// random part of them in random seats, with random or unknown outcomes, and maybe a bye.
fn random_history(rng: &mut Rng, field: &[Entrant], rounds: u32, paired: bool) -> Vec<Round> {
    let mut ids: Vec<String> = field.iter().map(|e| e.id.clone()).collect();
    ids.push("gone".to_string());
    let outcomes = [
        Some(Outcome::FirstWon),
        Some(Outcome::SecondWon),
        Some(Outcome::Draw),
        Some(Outcome::NeitherCame),
        None,
    ];
    (1..=rounds)
        .map(|number| {
            rng.shuffle(&mut ids);
            let playing = rng.below(ids.len() + 1);
            let mut games = Vec::new();
            for pair in ids[..playing].chunks_exact(2) {
                games.push(game(
                    &pair[0],
                    &pair[1],
                    outcomes[rng.below(outcomes.len())],
                ));
                if paired {
                    games.push(game(
                        &pair[1],
                        &pair[0],
                        outcomes[rng.below(outcomes.len())],
                    ));
                }
            }
            let bye = (playing < ids.len() && rng.below(2) == 0).then(|| ids[playing].as_str());
            round_of(number, games, bye)
        })
        .collect()
}

fn random_forbidden(rng: &mut Rng, field: &[Entrant], count: usize) -> Vec<(String, String)> {
    (0..count)
        .filter(|_| field.len() >= 2)
        .map(|_| {
            let a = rng.below(field.len());
            let b = rng.below(field.len());
            forbid(&field[a].id, &field[b].id)
        })
        .collect()
}

/// Plays `rounds` rounds of a Swiss event of `field` with results drawn from `seed` (the higher
/// rating wins more often, one game in ten is drawn); returns each round's request history and
/// pairing.
fn simulate(
    field: &[Entrant],
    rounds: u32,
    seed: u64,
    paired_games: bool,
) -> (Vec<Round>, Vec<SwissRound>) {
    let mut rng = Rng(seed);
    let rating: HashMap<&str, i32> = field.iter().map(|e| (e.id.as_str(), e.rating)).collect();
    let mut outcome = |first: &str, second: &str| {
        let roll = rng.below(100) as i32;
        let edge = ((rating[first] - rating[second]) / 20).clamp(-30, 30);
        if roll < 10 {
            Outcome::Draw
        } else if roll < 55 + edge {
            Outcome::FirstWon
        } else {
            Outcome::SecondWon
        }
    };
    let mut history: Vec<Round> = Vec::new();
    let mut pairings = Vec::new();
    for number in 1..=rounds {
        let request = SwissRequest {
            seed,
            number,
            field,
            history: &history,
            forbidden: &[],
            paired_games,
        };
        let round = pair(&request).unwrap_or_else(|e| panic!("round {number}: {e}"));
        Oracle::new(&request).check(&round);
        let mut games = Vec::new();
        for (a, b) in &round.pairs {
            games.push(game(a, b, Some(outcome(a, b))));
            if paired_games {
                games.push(game(b, a, Some(outcome(b, a))));
            }
        }
        history.push(round_of(number, games, round.bye.as_deref()));
        pairings.push(round);
    }
    (history, pairings)
}

// Score and rank.

#[test]
fn points_count_known_outcomes_and_byes() {
    let history = [
        round_of(
            1,
            vec![
                game("a", "b", Some(Outcome::FirstWon)),
                game("c", "d", None),
            ],
            Some("e"),
        ),
        round_of(
            2,
            vec![
                game("b", "a", Some(Outcome::Draw)),
                game("d", "c", Some(Outcome::NeitherCame)),
            ],
            None,
        ),
        round_of(3, vec![game("e", "a", Some(Outcome::SecondWon))], Some("b")),
    ];
    assert_eq!(points(&history, "a", false), WIN + DRAW + WIN);
    assert_eq!(points(&history, "b", false), DRAW + WIN);
    assert_eq!(
        points(&history, "c", false),
        0,
        "unknown outcomes and no-shows score nothing"
    );
    assert_eq!(points(&history, "e", false), WIN);
    assert_eq!(
        points(&history, "e", true),
        2 * WIN,
        "a bye is worth two wins with paired games"
    );
}

#[test]
fn rank_is_points_then_rating_then_seeded_order() {
    let field = [
        entrant("low", 1000),
        entrant("high", 2000),
        entrant("x", 1500),
        entrant("y", 1500),
        entrant("top", 900),
    ];
    let history = [round_of(1, vec![], Some("top"))];
    let forbidden = [];
    let mut req = request(&field, &history, &forbidden);
    for seed in 0..8 {
        req.seed = seed;
        let round = pair(&req).expect("pairable");
        let group_of = |id: &str| {
            round
                .why
                .groups
                .iter()
                .position(|g| g.members.iter().any(|m| m == id))
        };
        assert_eq!(round.why.groups[0].points, WIN);
        assert_eq!(
            round.why.groups[0].members,
            ["top"],
            "points first, before rating"
        );
        let rest = &round.why.groups[1];
        let bye = round.bye.as_deref().expect("odd field");
        let mut expected = vec!["high"];
        let (x, y) = if seeded_key(seed, "x") < seeded_key(seed, "y") {
            ("x", "y")
        } else {
            ("y", "x")
        };
        expected.extend([x, y, "low"]);
        expected.retain(|id| *id != bye);
        assert_eq!(
            rest.members, expected,
            "seed {seed}: rating, then the seeded order"
        );
        assert!(group_of(bye).is_none(), "the bye is set aside");
    }
}

// Rules that always hold.

#[test]
fn bots_that_met_never_meet_again_even_before_the_outcome_is_known() {
    let field = field_of(2);
    let history = [round_of(1, vec![game("b01", "b00", None)], None)];
    let why = reason(pair(&request(&field, &history, &[])));
    assert!(why.contains("`b00`") && why.contains("`b01`"), "{why}");

    // Four bots of one score: the Dutch pairs b00–b02, b01–b03 would be rematches.
    let field = field_of(4);
    let history = [round_of(
        1,
        vec![
            game("b00", "b02", Some(Outcome::Draw)),
            game("b03", "b01", None),
        ],
        None,
    )];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    for (a, b) in pairs_of(&round) {
        let pair = [a, b];
        assert!(!(pair.contains(&"b00") && pair.contains(&"b02")));
        assert!(!(pair.contains(&"b01") && pair.contains(&"b03")));
    }
}

#[test]
fn forbidden_pairs_never_meet_in_either_order() {
    let field = field_of(4);
    // Round 1 would pair b00–b02 and b01–b03.
    for forbidden in [vec![forbid("b00", "b02")], vec![forbid("b02", "b00")]] {
        let round = pair(&request(&field, &[], &forbidden)).expect("pairable");
        for (a, b) in pairs_of(&round) {
            assert!(
                !([a, b].contains(&"b00") && [a, b].contains(&"b02")),
                "{a}–{b}"
            );
        }
    }
    let field = field_of(2);
    let why = reason(pair(&request(&field, &[], &[forbid("b01", "b00")])));
    assert!(why.contains("may play none"), "{why}");
}

/// A history in which each named bot sat the seats given (`true` for first), one a round from
/// round 1, against bots outside the field, with outcomes unknown.
fn seats_history(plan: &[(&str, &[bool])]) -> Vec<Round> {
    let rounds = plan.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
    (0..rounds)
        .map(|r| {
            let games = plan
                .iter()
                .filter(|(_, s)| r < s.len())
                .map(|(bot, s)| {
                    let other = format!("{bot}-opponent-{r}");
                    if s[r] {
                        game(bot, &other, None)
                    } else {
                        game(&other, bot, None)
                    }
                })
                .collect();
            round_of(r as u32 + 1, games, None)
        })
        .collect()
}

#[test]
fn no_third_game_in_a_row_in_one_seat_even_across_a_bye() {
    // `a` sat second, second, first, (bye), first: even counts, but its last two games were
    // first. `b`, ranked higher (each had a bye), is due second too (even counts, first last),
    // so preferences alone would give `b` the second seat.
    let mut history = seats_history(&[
        ("a", &[false, false, true, true]),
        ("b", &[true, false, false, true]),
    ]);
    history.insert(3, round_of(4, vec![], Some("a")));
    history.push(round_of(6, vec![], Some("b")));
    for (i, round) in history.iter_mut().enumerate() {
        round.number = i as u32 + 1;
    }
    let field = [entrant("a", 1500), entrant("b", 1600)];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    assert_eq!(pairs_of(&round), [("b", "a")]);
    assert_eq!(
        round.why.pairs[0].seat_misses, 1,
        "b does not get its due seat"
    );
    assert!(
        round.why.pairs[0].seat.contains("must sit second"),
        "{}",
        round.why.pairs[0].seat
    );

    // Both must sit second: they cannot meet.
    let history = seats_history(&[
        ("a", &[false, false, true, true]),
        ("b", &[false, true, true]),
    ]);
    let field = [entrant("a", 1500), entrant("b", 1500)];
    let why = reason(pair(&request(&field, &history, &[])));
    assert!(why.contains("may play none"), "{why}");
}

#[test]
fn seat_counts_never_differ_by_more_than_one() {
    // `a` has sat first twice, second once: it must sit second. `b`, ranked higher, is due
    // second too (even counts, first last), so preferences alone would give `b` the second
    // seat.
    let history = seats_history(&[("a", &[true, true, false]), ("b", &[false, true])]);
    let field = [entrant("a", 1500), entrant("b", 1600)];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    assert_eq!(pairs_of(&round), [("b", "a")]);

    // Both have sat first once more than second: they cannot meet.
    let history = seats_history(&[("a", &[true, true, false]), ("b", &[true, false, true])]);
    let why = reason(pair(&request(&field, &history, &[])));
    assert!(why.contains("may play none"), "{why}");
}

#[test]
fn pairs_are_made_across_the_seats_bots_must_take() {
    // a and b must sit first, c and d second: the only pairs are across, though a–b and c–d
    // are each within a score group.
    let mut history = seats_history(&[
        ("a", &[false]),
        ("b", &[false]),
        ("c", &[true]),
        ("d", &[true]),
    ]);
    history[0].games[0].outcome = Some(Outcome::SecondWon);
    history[0].games[1].outcome = Some(Outcome::SecondWon);
    let field = [
        entrant("a", 1500),
        entrant("b", 1500),
        entrant("c", 1500),
        entrant("d", 1500),
    ];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    for (first, second) in pairs_of(&round) {
        assert!(
            ["a", "b"].contains(&first) && ["c", "d"].contains(&second),
            "{first}–{second}"
        );
    }
}

#[test]
fn no_valid_pairing_names_the_groups_and_their_only_opponents() {
    // b01, b02 and b03 met each other and may play only b00: three groups of one, one
    // opponent for them.
    let field = field_of(4);
    let history = [
        round_of(1, vec![game("b01", "b02", None)], Some("b00")),
        round_of(2, vec![game("b03", "b01", None)], None),
        round_of(3, vec![game("b02", "b03", None)], None),
    ];
    let why = reason(pair(&request(&field, &history, &[])));
    assert!(why.contains("at most 2 of the 4"), "{why}");
    assert!(
        why.contains("3 groups have an odd number of bots ([`b01`], [`b02`], [`b03`])"),
        "{why}"
    );
    assert!(why.contains("only `b00` (1 bot)"), "{why}");
    assert!(why.contains("so 2 bots would stay unpaired"), "{why}");
}

#[test]
fn a_field_with_a_bot_twice_or_a_late_history_is_refused() {
    let field = [entrant("a", 1), entrant("a", 2)];
    assert!(reason(pair(&request(&field, &[], &[]))).contains("twice"));
    let field = field_of(2);
    let history = [round_of(3, vec![], None)];
    let mut req = request(&field, &history, &[]);
    req.number = 3;
    assert!(reason(pair(&req)).contains("round 3"));
}

// The bye.

#[test]
fn the_bye_goes_to_the_lowest_ranked_bot_without_one() {
    let field = field_of(5);
    let history = [round_of(
        1,
        vec![game("b00", "b03", None), game("b01", "b02", None)],
        Some("b04"),
    )];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    // b04 has had one (and leads on points); b03 is the lowest without.
    assert_eq!(round.bye.as_deref(), Some("b03"));
    assert!(
        round
            .why
            .bye
            .as_deref()
            .unwrap()
            .contains("lowest-ranked bot without a bye")
    );
}

#[test]
fn the_bye_moves_up_when_the_others_could_not_all_be_paired() {
    // b03 and b04, the lowest, may play only each other: neither can sit out, so the bye moves
    // up to b02.
    let field = field_of(5);
    let forbidden: Vec<_> = ["b03", "b04"]
        .iter()
        .flat_map(|low| ["b00", "b01", "b02"].map(|high| forbid(low, high)))
        .collect();
    let round = pair(&request(&field, &[], &forbidden)).expect("pairable");
    assert_eq!(round.bye.as_deref(), Some("b02"));
    let why = round.why.bye.unwrap();
    assert!(why.contains("passed over: `b04`, `b03`"), "{why}");
}

#[test]
fn when_every_bot_has_had_a_bye_the_lowest_ranked_with_fewest_gets_it() {
    let field = field_of(3);
    let history = [
        round_of(1, vec![game("b00", "x", None)], Some("b02")),
        round_of(2, vec![], Some("b01")),
        round_of(3, vec![], Some("b00")),
        round_of(4, vec![], Some("b02")),
    ];
    // Every bot has had a bye, b02 two: b01 is the lowest-ranked with one.
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    assert_eq!(round.bye.as_deref(), Some("b01"), "{:?}", round.why);
    assert!(round.why.bye.unwrap().contains("every bot has had a bye"));
}

// Preferences.

#[test]
fn pairs_stay_within_score_groups() {
    // Two winners and two losers; by rating the winners are the top and the bottom.
    let field = [
        entrant("w1", 2000),
        entrant("l1", 1900),
        entrant("l2", 1800),
        entrant("w2", 1000),
    ];
    let history = [round_of(
        1,
        vec![
            game("w1", "l1", Some(Outcome::FirstWon)),
            game("l2", "w2", Some(Outcome::SecondWon)),
        ],
        None,
    )];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    let mut met: Vec<[&str; 2]> = pairs_of(&round)
        .iter()
        .map(|&(a, b)| {
            let mut p = [a, b];
            p.sort();
            p
        })
        .collect();
    met.sort();
    assert_eq!(met, [["l1", "l2"], ["w1", "w2"]]);
    assert!(round.why.pairs.iter().all(|p| p.score_gap == 0));
    assert_eq!(round.why.groups.len(), 2);
}

#[test]
fn a_float_outweighs_any_offset() {
    // a0…a7 won round 1, a0, a2, a4, a6 in the first seat and the others in the second; within
    // their group only a0–a1, a2–a3, a4–a5, a6–a7 may meet, each 3 from the Dutch distance of
    // 4 (offsets 12 in all). Floating a6 and a7 to b0 and b1 would cost offsets of 11 in all,
    // but two score gaps.
    let a: Vec<String> = (0..8).map(|i| format!("a{i}")).collect();
    let mut field: Vec<Entrant> = a
        .iter()
        .zip(0..)
        .map(|(id, i)| entrant(id, 2000 - i))
        .collect();
    field.extend([entrant("b0", 1000), entrant("b1", 1000)]);
    let games = a
        .iter()
        .enumerate()
        .map(|(i, id)| {
            if i % 2 == 0 {
                game(id, &format!("x{i}"), Some(Outcome::FirstWon))
            } else {
                game(&format!("x{i}"), id, Some(Outcome::SecondWon))
            }
        })
        .collect();
    let history = [round_of(1, games, None)];
    let mut forbidden = Vec::new();
    for i in 0..8 {
        for j in i + 1..8 {
            if !(i % 2 == 0 && j == i + 1) {
                forbidden.push(forbid(&a[i], &a[j]));
            }
        }
    }
    let round = pair(&request(&field, &history, &forbidden)).expect("pairable");
    assert!(
        round.why.pairs.iter().all(|p| p.score_gap == 0),
        "{:?}",
        round.pairs
    );
    assert_eq!(round.why.pairs.iter().map(|p| p.offset).sum::<u32>(), 12);
}

#[test]
fn the_lowest_of_an_odd_group_floats_down_to_the_highest_of_the_next() {
    // b00, b01 and b02 won round 1 (in seats that let b00–b01 and b01–b02 meet, not b00–b02);
    // b03, b04 and b05 have not played.
    let field = field_of(6);
    let history = [round_of(
        1,
        vec![
            game("x1", "b00", Some(Outcome::SecondWon)),
            game("b01", "x2", Some(Outcome::FirstWon)),
            game("x3", "b02", Some(Outcome::SecondWon)),
        ],
        None,
    )];
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    let mut met: Vec<[&str; 2]> = pairs_of(&round)
        .iter()
        .map(|&(a, b)| {
            let mut p = [a, b];
            p.sort();
            p
        })
        .collect();
    met.sort();
    assert_eq!(
        met,
        [["b00", "b01"], ["b02", "b03"], ["b04", "b05"]],
        "the lowest winner floats"
    );
    let floated = round.why.pairs.iter().find(|p| p.score_gap > 0).unwrap();
    assert_eq!((floated.score_gap, floated.offset), (WIN, 0));
}

#[test]
fn round_one_pairs_the_top_half_with_the_bottom_half_alternating_seats() {
    let field = field_of(8);
    for seed in [0, 1] {
        let mut req = request(&field, &[], &[]);
        req.seed = seed;
        let round = pair(&req).expect("pairable");
        let expected: Vec<(&str, &str)> = [
            ("b00", "b04"),
            ("b01", "b05"),
            ("b02", "b06"),
            ("b03", "b07"),
        ]
        .iter()
        .enumerate()
        .map(|(board, &(high, low))| {
            if (seed + board as u64).is_multiple_of(2) {
                (high, low)
            } else {
                (low, high)
            }
        })
        .collect();
        assert_eq!(pairs_of(&round), expected, "seed {seed}");
        assert!(
            round
                .why
                .pairs
                .iter()
                .all(|p| p.offset == 0 && p.cost == u64::from(p.rating_gap))
        );
        assert!(
            round.why.pairs[0].seat.contains("board 1"),
            "{}",
            round.why.pairs[0].seat
        );
    }
}

#[test]
fn bots_get_their_due_seats() {
    // Even counts: each is due the other seat than its last. b00 is due second, b01 first, b02
    // first, b03 second: the Dutch pairs b00–b02 and b01–b03 seat the higher-ranked first on
    // one board only.
    let history = seats_history(&[
        ("b00", &[false, true]),
        ("b01", &[true, false]),
        ("b02", &[true, false]),
        ("b03", &[false, true]),
    ]);
    let field = field_of(4);
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    assert_eq!(pairs_of(&round), [("b02", "b00"), ("b01", "b03")]);
    assert!(round.why.pairs.iter().all(|p| p.seat_misses == 0));

    // Both due first: the higher-ranked gets it.
    let history = seats_history(&[("b00", &[true, false]), ("b01", &[true, false])]);
    let field = field_of(2);
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    assert_eq!(pairs_of(&round), [("b00", "b01")]);
    assert_eq!(round.why.pairs[0].seat_misses, 1);
    assert!(round.why.pairs[0].seat.contains("higher-ranked gets it"));
}

#[test]
fn seats_outweigh_the_dutch_order() {
    // b00 and b02 are due first, b01 and b03 second: the Dutch pairs b00–b02 and b01–b03 would
    // each miss a due seat, so b00–b01 and b02–b03 meet instead (b00–b03 and b01–b02 would
    // keep the seats too, at the same offsets, with larger rating gaps).
    let history = seats_history(&[
        ("b00", &[true, false]),
        ("b01", &[false, true]),
        ("b02", &[true, false]),
        ("b03", &[false, true]),
    ]);
    let field = field_of(4);
    let round = pair(&request(&field, &history, &[])).expect("pairable");
    assert_eq!(pairs_of(&round), [("b00", "b01"), ("b02", "b03")]);
}

#[test]
fn among_equal_offsets_the_smaller_rating_gap_wins() {
    // One group, no history; b00–b02 forbidden. {b00–b01, b02–b03} and {b00–b03, b01–b02} are
    // equally far from the Dutch pairs; the first has the smaller rating gaps.
    let field = [
        entrant("b00", 1000),
        entrant("b01", 900),
        entrant("b02", 800),
        entrant("b03", 100),
    ];
    let round = pair(&request(&field, &[], &[forbid("b00", "b02")])).expect("pairable");
    let mut met: Vec<[&str; 2]> = pairs_of(&round)
        .iter()
        .map(|&(a, b)| {
            let mut p = [a, b];
            p.sort();
            p
        })
        .collect();
    met.sort();
    assert_eq!(met, [["b00", "b01"], ["b02", "b03"]]);
    assert_eq!(
        round.why.pairs.iter().map(|p| p.rating_gap).sum::<u32>(),
        800
    );
}

#[test]
fn pairs_come_in_board_order() {
    let field = field_of(10);
    let (_, rounds) = simulate(&field, 4, 7, false);
    for round in rounds {
        let rank: Vec<usize> = round
            .why
            .pairs
            .iter()
            .map(|p| {
                let members: Vec<&String> =
                    round.why.groups.iter().flat_map(|g| &g.members).collect();
                let at = |id: &String| members.iter().position(|m| *m == id).unwrap();
                at(&p.first).min(at(&p.second))
            })
            .collect();
        assert!(rank.windows(2).all(|w| w[0] < w[1]), "{rank:?}");
    }
}

#[test]
fn why_serializes_in_snake_case() {
    let field = field_of(3);
    let round = pair(&request(&field, &[], &[])).expect("pairable");
    let json = serde_json::to_value(&round.why).unwrap();
    assert!(json["pairs"][0]["score_gap"].is_number());
    assert!(json["total_cost"].is_number());
    let back: Why = serde_json::from_value(json).unwrap();
    assert_eq!(back, round.why);
}

// Simulated events.

#[test]
fn sixteen_bots_five_rounds() {
    for seed in 0..20 {
        let field = field_of(16);
        let (history, _) = simulate(&field, 5, seed, false);
        let oracle = Oracle::new(&SwissRequest {
            seed,
            number: 6,
            field: &field,
            history: &history,
            forbidden: &[],
            paired_games: false,
        });
        assert_eq!(oracle.met.len(), 16 * 5 / 2, "seed {seed}: no rematch");
        for (bot, seats) in oracle.seats.iter().enumerate() {
            let firsts = seats.iter().filter(|&&s| s).count();
            assert!(
                firsts == 2 || firsts == 3,
                "seed {seed}: {} sat first {firsts} times",
                oracle.ids[bot]
            );
            assert!(
                seats.windows(3).all(|w| w[0] != w[1] || w[1] != w[2]),
                "seed {seed}: {seats:?}"
            );
        }
    }
}

#[test]
fn fifteen_bots_five_rounds_five_byes_each_to_the_lowest_eligible() {
    for seed in 0..20 {
        let field = field_of(15);
        let (history, rounds) = simulate(&field, 5, seed, false);
        let mut holders: Vec<&str> = rounds.iter().map(|r| r.bye.as_deref().unwrap()).collect();
        for (r, round) in rounds.iter().enumerate() {
            let request = SwissRequest {
                seed,
                number: r as u32 + 1,
                field: &field,
                history: &history[..r],
                forbidden: &[],
                paired_games: false,
            };
            let oracle = Oracle::new(&request);
            let expected = oracle.expected(&request).expect("pairable").expect("odd");
            assert_eq!(
                round.bye.as_deref(),
                Some(oracle.ids[expected].as_str()),
                "seed {seed} round {}",
                r + 1
            );
        }
        holders.sort();
        holders.dedup();
        assert_eq!(holders.len(), 5, "seed {seed}: five different bye holders");
    }
}

#[test]
fn paired_games_play_both_seat_orders_without_seat_rules() {
    for seed in 0..10 {
        let field = field_of(9);
        let (history, rounds) = simulate(&field, 6, seed, true);
        let oracle = Oracle::new(&SwissRequest {
            seed,
            number: 7,
            field: &field,
            history: &history,
            forbidden: &[],
            paired_games: true,
        });
        assert_eq!(
            oracle.met.len(),
            9 * 6 / 2 - 3,
            "seed {seed}: no rematch (4 pairings a round)"
        );
        for round in &rounds {
            assert!(
                round
                    .why
                    .pairs
                    .iter()
                    .all(|p| p.seat_misses == 0 && p.seat.contains("paired games"))
            );
        }
        let bye = history[0].bye.as_deref().unwrap();
        assert!(points(&history[..1], bye, true) == 2 * WIN);
    }
    // Seats that would bar the pair without paired games do not.
    let history = seats_history(&[("a", &[true, true]), ("b", &[true, true])]);
    let field = [entrant("a", 1), entrant("b", 2)];
    let mut req = request(&field, &history, &[]);
    assert!(pair(&req).is_err());
    req.paired_games = true;
    assert_eq!(pairs_of(&pair(&req).expect("pairable")), [("b", "a")]);
}

#[test]
fn order_of_the_input_does_not_matter() {
    for seed in 0..10 {
        let field = field_of(21);
        let (history, _) = simulate(&field, 4, seed, false);
        let mut rng = Rng(seed);
        let forbidden = random_forbidden(&mut rng, &field, 15);
        let req = SwissRequest {
            seed,
            number: 5,
            field: &field,
            history: &history,
            forbidden: &forbidden,
            paired_games: false,
        };
        let expected = pair(&req);
        for _ in 0..5 {
            let mut field = field.clone();
            rng.shuffle(&mut field);
            let mut history = history.clone();
            rng.shuffle(&mut history);
            for round in &mut history {
                rng.shuffle(&mut round.games);
            }
            let mut forbidden = forbidden.clone();
            rng.shuffle(&mut forbidden);
            for pair in &mut forbidden {
                if rng.below(2) == 0 {
                    std::mem::swap(&mut pair.0, &mut pair.1);
                }
            }
            let shuffled = SwissRequest {
                field: &field,
                history: &history,
                forbidden: &forbidden,
                ..req
            };
            assert_eq!(pair(&shuffled), expected, "seed {seed}");
        }
    }
}

#[test]
fn large_fields_pair_in_blocks_and_keep_every_rule() {
    let field = field_of(90)
        .into_iter()
        .chain((90..250).map(|i| entrant(&format!("c{i}"), 1500)))
        .collect::<Vec<_>>();
    let (history, rounds) = simulate(&field, 8, 3, false);
    assert_eq!(history.len(), 8);
    // Round 1 of one large group follows the Dutch order exactly.
    assert!(
        rounds[0]
            .why
            .pairs
            .iter()
            .all(|p| p.offset == 0 && p.score_gap == 0)
    );
}

#[test]
fn the_completing_step_pairs_what_the_blocks_cannot() {
    // 200 bots in round 1; the lowest may play only the highest, whom the first block pairs.
    let field = field_of(100)
        .into_iter()
        .chain((100..200).map(|i| entrant(&format!("c{i}"), 1000 - i)))
        .collect::<Vec<_>>();
    let forbidden: Vec<_> = field[1..199]
        .iter()
        .map(|e| forbid(&e.id, "c199"))
        .collect();
    let req = request(&field, &[], &forbidden);
    let round = pair(&req).expect("pairable");
    Oracle::new(&req).check(&round);
    let last = round
        .why
        .pairs
        .iter()
        .find(|p| p.first == "c199" || p.second == "c199")
        .unwrap();
    assert!([&last.first, &last.second].contains(&&"b00".to_string()));
    assert!(last.by_fallback);

    // And when nothing can pair it, says so.
    let forbidden: Vec<_> = field[..199].iter().map(|e| forbid(&e.id, "c199")).collect();
    let why = reason(pair(&request(&field, &[], &forbidden)));
    assert!(why.contains("`c199` may play none"), "{why}");
}

/// The cheapest total cost of pairing every bot of the field but `bye`, by brute force.
fn cheapest(req: &SwissRequest, bye: Option<&str>) -> u64 {
    let field = Field::new(req).unwrap();
    let present: Vec<bool> = field.bots.iter().map(|b| Some(b.id) != bye).collect();
    let layout = Layout::new(&field, present);
    fn best(field: &Field, layout: &Layout, left: &[usize]) -> Option<u64> {
        let Some((&a, rest)) = left.split_first() else {
            return Some(0);
        };
        let mut min = None;
        for (i, &b) in rest.iter().enumerate() {
            if let Some(cost) = layout.cost(field, a, b) {
                let others: Vec<usize> = rest
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &c)| c)
                    .collect();
                if let Some(more) = best(field, layout, &others) {
                    let total = cost.total() + more;
                    min = Some(min.map_or(total, |m: u64| m.min(total)));
                }
            }
        }
        min
    }
    best(&field, &layout, &layout.members).expect("pairable")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Small fields with random histories and forbidden pairs, against brute force: an error
    /// exactly when no valid pairing exists; otherwise the rules kept, the bye by its rule, and
    /// the cheapest pairing.
    #[test]
    fn small_fields_match_brute_force(
        seed in any::<u64>(),
        n in 0usize..=10,
        rounds in 0u32..=5,
        forbidden in 0usize..=6,
        paired_games in any::<bool>(),
    ) {
        let mut rng = Rng(seed);
        let field: Vec<Entrant> = (0..n).map(|i| entrant(&format!("b{i}"), 1500 + 100 * rng.below(3) as i32)).collect();
        let history = random_history(&mut rng, &field, rounds, paired_games);
        let forbidden = random_forbidden(&mut rng, &field, forbidden);
        let req = SwissRequest { seed, number: rounds + 1, field: &field, history: &history, forbidden: &forbidden, paired_games };
        let oracle = Oracle::new(&req);
        match (oracle.expected(&req), pair(&req)) {
            (None, Ok(round)) => panic!("no valid pairing exists, got {:?} bye {:?}", round.pairs, round.bye),
            (Some(_), Err(e)) => panic!("a valid pairing exists, got {e}"),
            (None, Err(SwissError::NoValidPairing { reason })) => prop_assert!(!reason.is_empty()),
            (Some(bye), Ok(round)) => {
                oracle.check(&round);
                prop_assert_eq!(round.bye.clone(), bye.map(|b| oracle.ids[b].clone()));
                prop_assert_eq!(round.why.total_cost, cheapest(&req, round.bye.as_deref()));
                prop_assert!(round.why.pairs.iter().all(|p| !p.by_fallback));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Fields larger than a block, with random histories and a few bots with hardly any
    /// opponent: an error exactly when no valid pairing exists (by the blossom crate on the
    /// whole field), the rules and the bye rule kept otherwise.
    #[test]
    fn large_fields_are_complete(
        seed in any::<u64>(),
        n in 65usize..=140,
        rounds in 0u32..=6,
        forbidden in 0usize..=400,
        isolated in 0usize..=3,
    ) {
        let mut rng = Rng(seed);
        let field: Vec<Entrant> = (0..n).map(|i| entrant(&format!("b{i:03}"), 1500 + rng.below(400) as i32)).collect();
        let history = random_history(&mut rng, &field, rounds, false);
        let mut forbidden = random_forbidden(&mut rng, &field, forbidden);
        // A few bots that may play at most two others, so that some fields cannot be paired.
        for _ in 0..isolated {
            let bot = &field[rng.below(n)].id;
            let spared = [rng.below(n), rng.below(n)];
            for (i, other) in field.iter().enumerate() {
                if !spared.contains(&i) {
                    forbidden.push(forbid(bot, &other.id));
                }
            }
        }
        let req = SwissRequest { seed, number: rounds + 1, field: &field, history: &history, forbidden: &forbidden, paired_games: false };
        let oracle = Oracle::new(&req);
        let pairable_without = |bye: Option<usize>| {
            let weights: Vec<i64> = (0..n * n)
                .map(|k| {
                    let (a, b) = (k / n, k % n);
                    i64::from(Some(a) != bye && Some(b) != bye && oracle.may_play(a, b))
                })
                .collect();
            let mates = integer_blossom::max_weight_matching(&weights, n);
            mates.iter().filter(|m| m.is_some()).count() == n - usize::from(bye.is_some())
        };
        let expected = if n % 2 == 0 {
            pairable_without(None).then_some(None)
        } else {
            let ranked = oracle.ranked(&req);
            let mut candidates: Vec<usize> = ranked.iter().rev().copied().collect();
            candidates.sort_by_key(|&b| oracle.byes[b]);
            candidates.into_iter().find(|&b| pairable_without(Some(b))).map(Some)
        };
        match (expected, pair(&req)) {
            (None, Ok(round)) => panic!("no valid pairing exists, got {:?}", round.pairs),
            (Some(_), Err(e)) => panic!("a valid pairing exists, got {e}"),
            (None, Err(_)) => {}
            (Some(bye), Ok(round)) => {
                oracle.check(&round);
                prop_assert_eq!(round.bye.clone(), bye.map(|b| oracle.ids[b].clone()));
            }
        }
    }
}
