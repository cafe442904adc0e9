//! `pair` on hand-made ladders (one rule each), against an exhaustive search on small ones and
//! a whole-field matching on large ones, and in simulated ladders run for thousands of steps.

use std::collections::HashSet;

use integer_blossom::max_weight_matching;
use proptest::prelude::*;

use super::{BLOCK, LadderBot, LadderRound, LadderRules, SeatWhy, pair, ranking};
use crate::seeded_key;

const SEED: u64 = 7;

/// An idle bot with no games, waiting since 0.
fn bot(id: &str, rating: i32) -> LadderBot {
    LadderBot {
        id: id.to_owned(),
        rating,
        points: 0,
        games: 0,
        firsts: 0,
        last_opponent: None,
        idle: true,
        idle_since: 0,
    }
}

/// The pairs as sets of two ids, sorted, seats ignored.
fn matched(round: &LadderRound) -> Vec<[String; 2]> {
    let mut pairs: Vec<[String; 2]> = round
        .pairs
        .iter()
        .map(|(a, b)| {
            let mut pair = [a.clone(), b.clone()];
            pair.sort();
            pair
        })
        .collect();
    pairs.sort();
    pairs
}

fn pairs_of(ids: &[[&str; 2]]) -> Vec<[String; 2]> {
    let mut pairs: Vec<[String; 2]> = ids
        .iter()
        .map(|[a, b]| {
            let mut pair = [(*a).to_owned(), (*b).to_owned()];
            pair.sort();
            pair
        })
        .collect();
    pairs.sort();
    pairs
}

/// Whether the rules let `a` and `b` play now, judged from scratch.
fn legal(bots: &[LadderBot], a: usize, b: usize, spread: u32) -> bool {
    let fewest = bots.iter().map(|x| x.games).min().unwrap();
    legal_below(bots, fewest, a, b, spread)
}

/// [`legal`], with the fewest games in the ladder given.
fn legal_below(bots: &[LadderBot], fewest: u32, a: usize, b: usize, spread: u32) -> bool {
    let within = |x: &LadderBot| u64::from(x.games) < u64::from(fewest) + u64::from(spread);
    let (x, y) = (&bots[a], &bots[b]);
    a != b
        && x.idle
        && y.idle
        && within(x)
        && within(y)
        && x.last_opponent.as_deref() != Some(y.id.as_str())
        && y.last_opponent.as_deref() != Some(x.id.as_str())
}

/// Whether a cycle starting `pairs` (indices) keeps the rule against stranding, judged from
/// scratch with an exact matching: it takes no bot to the edge of the spread, or afterwards the
/// bots with the fewest games can each be given a different partner below the bound (idle or
/// busy), none its last opponent.
fn keeps_stragglers(bots: &[LadderBot], pairs: &[(usize, usize)], spread: u32) -> bool {
    let fewest = bots.iter().map(|b| b.games).min().unwrap();
    let edge = u64::from(fewest) + u64::from(spread) - 1;
    let closes = pairs
        .iter()
        .any(|&(a, b)| u64::from(bots[a].games) == edge || u64::from(bots[b].games) == edge);
    if !closes {
        return true;
    }
    let mut games: Vec<u32> = bots.iter().map(|b| b.games).collect();
    let mut last: Vec<Option<&str>> = bots.iter().map(|b| b.last_opponent.as_deref()).collect();
    for &(a, b) in pairs {
        games[a] += 1;
        games[b] += 1;
        last[a] = Some(bots[b].id.as_str());
        last[b] = Some(bots[a].id.as_str());
    }
    let fewest = *games.iter().min().unwrap();
    let bound = u64::from(fewest) + u64::from(spread);
    let open: Vec<usize> = (0..bots.len())
        .filter(|&i| u64::from(games[i]) < bound)
        .collect();
    let straggler = |i: usize| i64::from(games[i] == fewest);
    let m = open.len();
    let mut weights = vec![0i64; m * m];
    for x in 0..m {
        for y in x + 1..m {
            let (a, b) = (open[x], open[y]);
            if last[a] != Some(bots[b].id.as_str()) && last[b] != Some(bots[a].id.as_str()) {
                weights[x * m + y] = straggler(a) + straggler(b);
            }
        }
    }
    let mates = max_weight_matching(&weights, m);
    (0..m).all(|x| straggler(open[x]) == 0 || mates[x].is_some())
}

/// Checks what any answer must keep to: every pair legal, no bot twice, `why` in step, the
/// rule against stranding kept, no two bots left unpaired that could be paired as well, and
/// `held` listing every idle bot beyond the spread and only idle bots left unpaired.
fn check(bots: &[LadderBot], round: &LadderRound, rules: &LadderRules) {
    let index = |id: &str| bots.iter().position(|b| b.id == id).unwrap();
    let mut used = HashSet::new();
    let mut pairs = Vec::new();
    assert_eq!(round.pairs.len(), round.why.len());
    for (first, second) in &round.pairs {
        let (a, b) = (index(first), index(second));
        assert!(legal(bots, a, b, rules.spread), "{first} - {second}");
        assert!(
            used.insert(a) && used.insert(b),
            "{first} or {second} twice"
        );
        pairs.push((a, b));
    }
    assert!(
        keeps_stragglers(bots, &pairs, rules.spread),
        "strands: {round:?}"
    );
    let fewest = bots.iter().map(|b| b.games).min().unwrap_or(0);
    for a in 0..bots.len() {
        for b in a + 1..bots.len() {
            if !used.contains(&a)
                && !used.contains(&b)
                && legal_below(bots, fewest, a, b, rules.spread)
            {
                pairs.push((a, b));
                assert!(
                    !keeps_stragglers(bots, &pairs, rules.spread),
                    "{} and {} could play but wait",
                    bots[a].id,
                    bots[b].id
                );
                pairs.pop();
            }
        }
    }
    let held: HashSet<&str> = round.held.iter().map(String::as_str).collect();
    for b in bots {
        let ahead = u64::from(b.games) >= u64::from(fewest) + u64::from(rules.spread);
        if b.idle && ahead {
            assert!(
                held.contains(b.id.as_str()),
                "{} is not listed as held",
                b.id
            );
        }
        if held.contains(b.id.as_str()) {
            assert!(b.idle && !used.contains(&index(&b.id)), "{} is held", b.id);
        }
    }
}

fn pair_checked(bots: &[LadderBot], rules: &LadderRules) -> LadderRound {
    let round = pair(bots, SEED, rules);
    check(bots, &round, rules);
    round
}

#[test]
fn ranks_by_points_then_rating_then_seeded_key() {
    let mut bots = vec![
        bot("a", 1500),
        bot("b", 1600),
        bot("c", 1500),
        bot("d", 1400),
    ];
    bots[3].points = 4;
    let order: Vec<&str> = ranking(&bots, SEED)
        .into_iter()
        .map(|i| bots[i].id.as_str())
        .collect();
    let (a_key, c_key) = (seeded_key(SEED, "a"), seeded_key(SEED, "c"));
    let level = if a_key < c_key {
        ["a", "c"]
    } else {
        ["c", "a"]
    };
    assert_eq!(order, ["d", "b", level[0], level[1]]);
}

#[test]
fn only_idle_bots_play() {
    let mut bots = vec![bot("a", 1500), bot("b", 1500), bot("c", 1500)];
    bots[1].idle = false;
    let round = pair_checked(&bots, &LadderRules::default());
    assert_eq!(matched(&round), pairs_of(&[["a", "c"]]));
    bots[0].idle = false;
    assert!(
        pair_checked(&bots, &LadderRules::default())
            .pairs
            .is_empty()
    );
}

#[test]
fn a_bot_spread_games_ahead_of_the_fewest_is_held() {
    // The fewest is 3, busy c's; with spread 2 a bot may start a game while it has under 5:
    // a (5) is held; of b, d (4) and e (3), the pair plays e, and d is closer to it in rating.
    let mut bots = vec![
        bot("a", 1500),
        bot("b", 1000),
        bot("c", 1500),
        bot("d", 1500),
        bot("e", 1510),
    ];
    for (b, games) in bots.iter_mut().zip([5, 4, 3, 4, 3]) {
        b.games = games;
    }
    bots[2].idle = false;
    let rules = LadderRules::default();
    let round = pair_checked(&bots, &rules);
    assert_eq!(matched(&round), pairs_of(&[["d", "e"]]));
    assert_eq!(round.held, ["a"]);
    // Spread 1: only bots with the fewest games may play, and e has no one to play.
    let round = pair_checked(&bots, &LadderRules { spread: 1, ..rules });
    assert!(round.pairs.is_empty());
    assert_eq!(round.held.len(), 3);
    // Spread 0 pairs no one.
    let round = pair_checked(&bots, &LadderRules { spread: 0, ..rules });
    assert!(round.pairs.is_empty());
}

#[test]
fn the_bots_with_the_fewest_games_are_never_stranded() {
    // c (3 games) is busy; b and d (4) could play, but that would take them to 5, where they
    // may not play c (5 + 1 > 3 + 2), and a is there already: once c's game ended, no one
    // could ever play it, and no one else could play until it did. So b and d wait for c.
    let mut bots = vec![
        bot("a", 1500),
        bot("b", 1500),
        bot("c", 1500),
        bot("d", 1500),
    ];
    for (b, games) in bots.iter_mut().zip([5, 4, 3, 4]) {
        b.games = games;
    }
    bots[2].idle = false;
    let rules = LadderRules::default();
    let round = pair_checked(&bots, &rules);
    assert!(round.pairs.is_empty());
    let mut held = round.held.clone();
    held.sort();
    assert_eq!(held, ["a", "b", "d"]);
    // With a fifth bot still below the edge, c will have a partner: b and d may play.
    bots.push(bot("e", 1500));
    bots[4].games = 3;
    bots[4].idle = false;
    let round = pair_checked(&bots, &rules);
    assert_eq!(matched(&round), pairs_of(&[["b", "d"]]));
    // Games that leave both bots below the edge are never held back.
    let mut two = vec![bot("a", 1500), bot("b", 1500)];
    let round = pair_checked(&two, &rules);
    assert_eq!(round.pairs.len(), 1);
    two[0].last_opponent = Some("b".into());
    two[1].last_opponent = Some("a".into());
    assert!(
        pair_checked(&two, &rules).pairs.is_empty(),
        "two bots play once"
    );
}

#[test]
fn no_immediate_rematch() {
    let mut bots = vec![bot("a", 1500), bot("b", 1500)];
    bots[0].last_opponent = Some("b".into());
    assert!(
        pair_checked(&bots, &LadderRules::default())
            .pairs
            .is_empty()
    );
    // Either side's last game is enough.
    bots[0].last_opponent = None;
    bots[1].last_opponent = Some("a".into());
    assert!(
        pair_checked(&bots, &LadderRules::default())
            .pairs
            .is_empty()
    );
    // They may meet again once one of them has played someone else.
    bots.push(bot("c", 1500));
    bots[0].last_opponent = Some("b".into());
    bots[1].last_opponent = Some("c".into());
    let round = pair_checked(&bots, &LadderRules::default());
    assert_eq!(matched(&round), pairs_of(&[["a", "c"]]));
}

#[test]
fn the_most_pairs_before_the_closest() {
    // b-c is by far the closest pair, but it leaves a and d, who just played each other:
    // a-b and c-d (or a-c and b-d) make two pairs, which beats one close one.
    let mut bots = vec![
        bot("a", 1000),
        bot("b", 1500),
        bot("c", 1501),
        bot("d", 2000),
    ];
    bots[0].last_opponent = Some("d".into());
    let rules = LadderRules {
        top_rank_weight: 0,
        bottom_rank_weight: 0,
        ..LadderRules::default()
    };
    let round = pair_checked(&bots, &rules);
    assert_eq!(round.pairs.len(), 2);
    assert!(!matched(&round).contains(&[String::from("b"), String::from("c")]));
}

#[test]
fn bots_behind_in_games_play_first() {
    // Three idle bots, one game to start: c has one game fewer, so it plays, though a and b are
    // the closest in rank and rating. (Spread 3, so no game here takes a bot to the edge and
    // the rule against stranding has no say.)
    let mut bots = vec![bot("a", 1500), bot("b", 1501), bot("c", 2500)];
    bots[0].games = 1;
    bots[1].games = 1;
    let rules = LadderRules {
        spread: 3,
        ..LadderRules::default()
    };
    let round = pair_checked(&bots, &rules);
    assert_eq!(round.pairs.len(), 1);
    assert!(round.pairs[0].0 == "c" || round.pairs[0].1 == "c");
    assert!(round.held.is_empty());
}

#[test]
fn close_in_rank_and_rating() {
    // Ranks by points: a 1, b 2, c 3, d 4. Pairing neighbours costs (weight + 0) × 2; any
    // other pairing costs more.
    let mut bots = vec![
        bot("a", 1500),
        bot("b", 1500),
        bot("c", 1500),
        bot("d", 1500),
    ];
    for (b, points) in bots.iter_mut().zip([8, 6, 4, 2]) {
        b.points = points;
    }
    let round = pair_checked(&bots, &LadderRules::default());
    assert_eq!(matched(&round), pairs_of(&[["a", "b"], ["c", "d"]]));
    // The rank weight at the top is 300 + 1700 × (4 - 1) / 4 = 1575; lower down, for ranks 3
    // and 4, 300 + 1700 × 1 / 4 = 725.
    let costs: Vec<u64> = round.why.iter().map(|w| w.cost).collect();
    assert_eq!(costs, [1575, 725]);
    // With no rank weight and levels ratings, the rating gap decides.
    let rules = LadderRules {
        top_rank_weight: 0,
        bottom_rank_weight: 0,
        ..LadderRules::default()
    };
    for (b, rating) in bots.iter_mut().zip([1000, 2000, 1010, 2010]) {
        b.rating = rating;
    }
    let round = pair_checked(&bots, &rules);
    assert_eq!(matched(&round), pairs_of(&[["a", "c"], ["b", "d"]]));
    assert_eq!(round.why.iter().map(|w| w.cost).sum::<u64>(), 20);
}

#[test]
fn the_longest_wait_breaks_a_tie() {
    // Rank and rating weigh nothing: the one left out is the one that became idle last.
    let rules = LadderRules {
        top_rank_weight: 0,
        bottom_rank_weight: 0,
        ..LadderRules::default()
    };
    for last in ["a", "b", "c"] {
        let mut bots = vec![bot("a", 1500), bot("b", 1500), bot("c", 1500)];
        for (k, b) in bots.iter_mut().enumerate() {
            b.idle_since = if b.id == last { 10 } else { k as u64 };
        }
        let round = pair_checked(&bots, &rules);
        assert_eq!(round.pairs.len(), 1);
        assert!(
            round.pairs[0].0 != last && round.pairs[0].1 != last,
            "{last}"
        );
    }
}

#[test]
fn the_bot_that_sat_first_less_sits_first() {
    let mut bots = vec![bot("a", 1500), bot("b", 1500)];
    // a: 3 firsts of 4 games (3 - 1 = +2); b: 2 of 4 (0).
    bots[0].games = 4;
    bots[0].firsts = 3;
    bots[1].games = 4;
    bots[1].firsts = 2;
    let round = pair_checked(&bots, &LadderRules::default());
    assert_eq!(round.pairs, [("b".into(), "a".into())]);
    assert_eq!(round.why[0].seat, SeatWhy::FewerFirsts);
    assert_eq!(round.why[0].games, (4, 4));
    // Level: the smaller seeded key sits first.
    bots[1].firsts = 3;
    let round = pair_checked(&bots, &LadderRules::default());
    let first = if seeded_key(SEED, "a") < seeded_key(SEED, "b") {
        "a"
    } else {
        "b"
    };
    assert_eq!(round.pairs[0].0, first);
    assert_eq!(round.why[0].seat, SeatWhy::SeededKey);
}

#[test]
fn pairs_are_listed_by_their_better_rank() {
    let mut bots: Vec<LadderBot> = (0..8).map(|i| bot(&format!("b{i}"), 1500)).collect();
    for (i, b) in bots.iter_mut().enumerate() {
        b.points = 100 - i as u32;
    }
    let round = pair_checked(&bots, &LadderRules::default());
    let better: Vec<u32> = round.why.iter().map(|w| w.ranks.0.min(w.ranks.1)).collect();
    assert_eq!(better, [1, 3, 5, 7]);
}

/// A small generator (splitmix64) for the random ladders below.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random ladder of `n` bots: some busy, games within `spread` of each other, some last
/// opponents among them (a real history's: each bot's last opponent, if any, is another bot
/// whose own last opponent is it, or who played on since).
fn random_ladder(rng: &mut Rng, n: usize, spread: u32) -> Vec<LadderBot> {
    let base = rng.below(20) as u32;
    let mut bots: Vec<LadderBot> = (0..n)
        .map(|i| {
            let games = base + rng.below(u64::from(spread) + 1) as u32;
            LadderBot {
                id: format!("bot-{i}"),
                rating: 1000 + rng.below(1000) as i32,
                points: rng.below(4) as u32 * 2,
                games,
                firsts: rng.below(u64::from(games) + 1) as u32,
                last_opponent: None,
                idle: rng.below(10) != 0,
                idle_since: rng.below(50),
            }
        })
        .collect();
    // Replay some last games in order, so the last opponents are consistent.
    for _ in 0..n {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a != b {
            bots[a].last_opponent = Some(bots[b].id.clone());
            bots[b].last_opponent = Some(bots[a].id.clone());
        }
    }
    bots
}

/// The preference tuple of a set of pairs (higher is better), as the module doc orders them:
/// pairs, then fewest games of the paired bots, then smallest total cost (capped as `pair`
/// caps it), then the largest total wait rank.
fn preference(bots: &[LadderBot], round: &LadderRound) -> (usize, i64, i64) {
    let index = |id: &str| bots.iter().position(|b| b.id == id).unwrap();
    let games: i64 = round
        .pairs
        .iter()
        .map(|(a, b)| i64::from(bots[index(a)].games + bots[index(b)].games))
        .sum();
    let cost: i64 = round.why.iter().map(|w| w.cost.min(1 << 20) as i64).sum();
    (round.pairs.len(), -games, -cost)
}

/// Every legal matching of the idle bots that may play, by exhaustive search: the best
/// preference tuple any of them reaches.
fn best_by_search(bots: &[LadderBot], rules: &LadderRules) -> (usize, i64, i64) {
    let cost_of = |a: usize, b: usize| -> i64 {
        // The pair's arena cost, recomputed from the ranking.
        let ranks = ranking(bots, SEED);
        let rank = |i: usize| ranks.iter().position(|&r| r == i).unwrap() as i64 + 1;
        let field = bots.len() as i64;
        let (top, bottom) = (
            i64::from(rules.top_rank_weight),
            i64::from(rules.bottom_rank_weight),
        );
        let weight = (bottom + (top - bottom) * (field - rank(a).min(rank(b))) / field).max(0);
        let gap = (rank(a) - rank(b)).abs() * weight
            + (i64::from(bots[a].rating) - i64::from(bots[b].rating)).abs();
        gap.min(1 << 20)
    };
    let candidates: Vec<usize> = (0..bots.len())
        .filter(|&i| (0..bots.len()).any(|j| legal(bots, i, j, rules.spread)))
        .collect();
    fn search(
        left: &[usize],
        so_far: (usize, i64, i64),
        allowed: &dyn Fn(usize, usize) -> Option<(i64, i64)>,
    ) -> (usize, i64, i64) {
        let Some((&first, rest)) = left.split_first() else {
            return so_far;
        };
        let mut best = search(rest, so_far, allowed);
        for (k, &other) in rest.iter().enumerate() {
            if let Some((games, cost)) = allowed(first, other) {
                let mut remaining = rest.to_vec();
                remaining.remove(k);
                let with = (so_far.0 + 1, so_far.1 - games, so_far.2 - cost);
                best = best.max(search(&remaining, with, allowed));
            }
        }
        best
    }
    let allowed = |a: usize, b: usize| {
        legal(bots, a, b, rules.spread)
            .then(|| (i64::from(bots[a].games + bots[b].games), cost_of(a, b)))
    };
    search(&candidates, (0, 0, 0), &allowed)
}

/// On ladders small enough to search (one block), `pair` finds the best pairing by the
/// preferences, whenever the rule against stranding held nothing back.
#[test]
fn small_ladders_get_the_best_pairing() {
    let rules = LadderRules::default();
    let mut compared = 0;
    for seed in 0..400 {
        let mut rng = Rng(seed);
        let n = 2 + rng.below(9) as usize;
        let bots = random_ladder(&mut rng, n, rules.spread);
        let round = pair(&bots, SEED, &rules);
        check(&bots, &round, &rules);
        let fewest = bots.iter().map(|b| b.games).min().unwrap();
        let held_back = round.held.iter().any(|id| {
            bots.iter()
                .any(|b| b.id == *id && b.games < fewest + rules.spread)
        });
        if !held_back {
            assert_eq!(
                preference(&bots, &round),
                best_by_search(&bots, &rules),
                "seed {seed}"
            );
            compared += 1;
        }
    }
    assert!(compared > 300, "only {compared} compared");
}

proptest! {
    /// The result depends on the bots, not on their order in the slice.
    #[test]
    fn the_input_order_does_not_matter(seed in any::<u64>(), n in 2usize..=80) {
        let mut rng = Rng(seed);
        let rules = LadderRules::default();
        let bots = random_ladder(&mut rng, n, rules.spread);
        let mut reversed = bots.clone();
        reversed.reverse();
        prop_assert_eq!(pair(&reversed, SEED, &rules), pair(&bots, SEED, &rules));
    }
}

/// The most pairs any matching of the whole field could make (every legal pair weighs 1).
fn most_pairs(bots: &[LadderBot], spread: u32) -> usize {
    let n = bots.len();
    let mut weights = vec![0i64; n * n];
    for a in 0..n {
        for b in a + 1..n {
            if legal(bots, a, b, spread) {
                weights[a * n + b] = 1;
            }
        }
    }
    max_weight_matching(&weights, n)
        .iter()
        .filter(|m| m.is_some())
        .count()
        / 2
}

#[test]
fn blocks_make_as_many_pairs_as_a_whole_field_matching() {
    let rules = LadderRules::default();
    let mut rng = Rng(2024);
    for round in 0..30 {
        let n = 2 * BLOCK + 1 + rng.below(6 * BLOCK as u64) as usize;
        let bots = random_ladder(&mut rng, n, rules.spread);
        let answer = pair(&bots, round, &rules);
        check(&bots, &answer, &rules);
        assert_eq!(
            answer.pairs.len(),
            most_pairs(&bots, rules.spread),
            "{n} bots"
        );
    }
}

/// A ladder running in simulated time: games last 1 to `longest` steps; each step the games
/// due end (a random result), `pair` is called on every bot and its games start.
struct Simulation {
    bots: Vec<LadderBot>,
    /// Games under way: the two bots and the step they end.
    playing: Vec<(usize, usize, u64)>,
    rules: LadderRules,
    rng: Rng,
    now: u64,
    longest: u64,
}

impl Simulation {
    fn new(n: usize, seed: u64, rules: LadderRules, longest: u64) -> Self {
        let mut rng = Rng(seed);
        let bots = (0..n)
            .map(|i| bot(&format!("bot-{i}"), 1000 + rng.below(1000) as i32))
            .collect();
        Simulation {
            bots,
            playing: Vec::new(),
            rules,
            rng,
            now: 0,
            longest,
        }
    }

    fn spread_now(&self) -> u32 {
        let games = self.bots.iter().map(|b| b.games);
        games.clone().max().unwrap() - games.min().unwrap()
    }

    /// One step; checks every rule as it goes.
    fn step(&mut self) {
        self.now += 1;
        let now = self.now;
        let (ending, going_on): (Vec<_>, Vec<_>) =
            self.playing.iter().partition(|&&(_, _, end)| end <= now);
        self.playing = going_on;
        for (a, b, _) in ending {
            match self.rng.below(3) {
                0 => self.bots[a].points += 2,
                1 => self.bots[b].points += 2,
                _ => {
                    self.bots[a].points += 1;
                    self.bots[b].points += 1;
                }
            }
            for i in [a, b] {
                self.bots[i].idle = true;
                self.bots[i].idle_since = now;
            }
        }

        let round = pair(&self.bots, self.rng.next(), &self.rules);
        check(&self.bots, &round, &self.rules);
        // Two bots play once: after that each is the other's last opponent.
        let everyone_idle = self.bots.iter().all(|b| b.idle);
        assert!(
            !(everyone_idle && round.pairs.is_empty() && self.bots.len() > 2),
            "step {now}: everyone waits and no one can play: {:?}",
            self.bots
        );
        for (first, second) in &round.pairs {
            let index = |id: &str| self.bots.iter().position(|b| b.id == *id).unwrap();
            let (a, b) = (index(first), index(second));
            for (me, other) in [(a, b), (b, a)] {
                let opponent = self.bots[other].id.clone();
                let bot = &mut self.bots[me];
                assert_ne!(bot.last_opponent.as_ref(), Some(&opponent), "a rematch");
                bot.games += 1;
                bot.last_opponent = Some(opponent);
                bot.idle = false;
            }
            self.bots[a].firsts += 1;
            let length = 1 + self.rng.below(self.longest);
            self.playing.push((a, b, now + length));
        }
        assert!(
            self.spread_now() <= self.rules.spread,
            "step {now}: games spread {} over {}",
            self.spread_now(),
            self.rules.spread
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Thousands of steps of a ladder of 2 to 30 bots keep every rule at every step, and never
    /// leave everyone waiting with no one able to play.
    #[test]
    fn a_simulated_ladder_keeps_the_rules(
        seed in any::<u64>(),
        n in 2usize..=30,
        spread in 2u32..=3,
        longest in 1u64..=8,
    ) {
        let rules = LadderRules { spread, ..LadderRules::default() };
        let mut ladder = Simulation::new(n, seed, rules, longest);
        for _ in 0..2_000 {
            ladder.step();
        }
    }
}

#[test]
fn twelve_bots_reach_fifty_games_each() {
    let mut ladder = Simulation::new(12, 12, LadderRules::default(), 6);
    while ladder.bots.iter().any(|b| b.games < 50) {
        assert!(ladder.now < 5_000, "stalled at {:?}", ladder.bots);
        ladder.step();
    }
    // First seats stay balanced: within a few of half of each bot's games.
    for b in &ladder.bots {
        let balance = 2 * i64::from(b.firsts) - i64::from(b.games);
        assert!(
            balance.abs() <= 4,
            "{} has {} firsts of {}",
            b.id,
            b.firsts,
            b.games
        );
    }
}
