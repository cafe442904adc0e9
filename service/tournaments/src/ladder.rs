//! An always-on ladder (an arena): whenever bots are idle, pair them, so a bot that finishes a
//! game soon plays again.
//!
//! The server calls [`pair`] every cycle with every bot in the ladder, busy or idle, and starts
//! a game for each pair it returns, the first bot of the pair in the first seat. It is a pure
//! function of its input: no I/O, no clock; ties are broken by [`seeded_key`] of the seed it is
//! given and the bot's id.
//!
//! # Rank
//!
//! A bot's rank (1 best) orders the ladder: most ladder points first, then the higher rating,
//! then the smaller seeded key ([`ranking`]). Busy bots are ranked too.
//!
//! # Rules
//!
//! Two bots may play only if:
//!
//! - both are idle;
//! - each is within the spread: a bot plays only if its games (games started in this ladder)
//!   plus the new one stay within `spread` of the fewest games of any bot in the ladder, idle
//!   or busy (`games + 1 ≤ fewest + spread`). Games only grow and a game starts only within
//!   that bound, so at every moment the most games any bot has started exceed the fewest by at
//!   most `spread`. A bot that joins a running ladder must be given `games` equal to the
//!   ladder's current fewest (and `firsts` about half of it), or it holds everyone else back
//!   until it catches up. A `spread` of 0 pairs no one; 1 lets only the bots with the fewest
//!   games play, which stalls an odd number of bots for good; the default is 2. Idle bots that
//!   are too far ahead are listed as `held`;
//! - neither was the other's opponent in its last game (no immediate rematch), so a ladder of
//!   two bots plays one game;
//! - they are different bots.
//!
//! And the games a cycle starts must not strand anyone. The bots with the fewest games hold
//! everyone back, so they must always have someone left to play. Say the last two bots with the
//! fewest games play each other while everyone else plays on to the edge of the spread: when
//! they come back, they may not play each other (a rematch), no one else may play them (too
//! far ahead) and no one else may play at all (held by the spread): the ladder stops for good.
//! So a game that takes a bot to the edge (its `fewest + spread`-th game) starts only if,
//! afterwards, the bots with the fewest games (idle or busy) could each still be given a
//! different partner among the bots below the edge, none of them its last opponent. When the
//! pairs found would strand someone, games to the edge are held back, the furthest ahead
//! first (most games, then lowest in the ladder), until no one is stranded; then the bots left
//! are paired again, in rank order rather than by the preferences below, wherever that strands
//! no one. Bots held back this way are listed in `held`
//! too. A game that leaves both its bots below the edge is never held back.
//!
//! With at least three bots, a spread of 2 or more, and every bot's `games` and
//! `last_opponent` from the ladder's own history, this keeps the ladder going: whenever every
//! bot is idle, some pair may play. That was checked exhaustively, against every order in
//! which games may end and whichever pairs each cycle makes (so long as no further allowed pair
//! could be added), for ladders of 3 to 6 bots with a spread of 2 and of 3 to 5 bots with a
//! spread of 3, and by simulation in the tests; it is not proven in general. A bot leaving the
//! ladder can still strand others (it may have been the only partner left for a bot behind);
//! the caller sees every bot idle and no pair made.
//!
//! Among the pairings that keep to these, [`pair`] picks, in this order of importance:
//!
//! 1. as many pairs as possible;
//! 2. then games for the bots behind: the fewest games started, in total, by the bots paired
//!    (a pairing that plays a bot with fewer games beats one that plays a bot with more);
//! 3. then opponents close in the ladder, by lichess's arena cost, summed over the pairs: the
//!    rank gap times a rank weight, plus the rating gap. As in lichess, the rank weight is
//!    larger at the top of the ladder: `bottom_rank_weight + (top_rank_weight −
//!    bottom_rank_weight) × (N − r) / N`, where `r` is the better rank of the two and `N` the
//!    number of bots in the ladder (2,000 down to 300 by default, lichess's figures), so leaders
//!    meet leaders;
//! 4. then the bots that have waited longest (smallest `idle_since`; on a tie, the smaller
//!    seeded key counts as the longer wait).
//!
//! **Seats.** Of a pair, the bot that has sat first less, relative to its games (the smaller
//! `2 × firsts − games`: first seats minus second seats), sits first; on a tie the smaller
//! seeded key. Pairs are listed in the order of the better rank in each.
//!
//! # How, and what it costs
//!
//! As in the queue's pairing (`pitchmate_leagues::pairing`), a matching is found by the blossom
//! algorithm of `integer-blossom` on weights built so the order above is lexicographic: each
//! allowed pair weighs `PAIR_WEIGHT` (2⁵⁰), plus `GAMES_WEIGHT` (2³⁵) for each game each of its
//! bots is behind the most a bot may have to play (at most 255 counted), plus `CLOSE_WEIGHT`
//! (2¹⁰) per unit its cost is below 2²⁰ (a cost of 2²⁰ or more counts as 2²⁰), plus the wait
//! ranks of its two bots (1 for the shortest wait in the block, up to the block's size). The
//! constants are checked at compile time so that each preference outweighs all the later ones.
//!
//! The algorithm takes `O(n³)` time on a dense `n × n` matrix, far too much for a ladder of
//! 10,000 bots, so the idle bots that may play are taken in rank order and cut into blocks of
//! [`BLOCK`] consecutive bots, and each block is matched on its own. The bots a pass leaves
//! unpaired are blocked and matched again, in rank order, until a pass pairs no one; a last
//! sweep pairs any two bots still left that may play. What this gives up:
//!
//! - the order of preference holds within a block, not across the ladder: the closest
//!   opponent across a cut is not considered, a bot behind in games gets priority only over
//!   the bots of its block, and a bot left over by its block is paired in a later pass with
//!   another leftover, usually far from it in rank;
//! - the number of pairs is the most each block can make, and no two bots are left unpaired
//!   that could play each other; a block with an odd number of bots leaves one for the next
//!   pass. Against a matching of the whole field at once the count of pairs was the same in
//!   every test.
//!
//! The rule against stranding is checked once per cycle: a greedy pass gives the bots with the
//! fewest games partners in rank order, which nearly always succeeds at once; when it fails, an
//! exact matching (blossom again, each bot behind weighing 1) decides if at most
//! [`EXACT_LIMIT`] bots are below the edge, and beyond that the games to the edge are held back
//! as if someone would be stranded (only holding back games, never breaking a rule). Holding
//! back and pairing again happen only when someone would be stranded, which needs few bots
//! below the edge, and cost a check per pair tried.
//!
//! The cost: a SHA-256 per bot and a sort for the ranking, then `O(BLOCK²)` per bot for the
//! blocks and `O(n)` for the rule against stranding. `cargo bench -p pitchmate-tournaments
//! --bench ladder`, on this project's 2-core machine, with 10,000 bots of which 9,000 are idle
//! and may all play: a cycle takes (median) 22 ms with blocks of 16, 32 ms with 24 and 46 ms
//! with 32 (up to 70 ms while other builds shared the machine), against 2 ms for the ranking
//! alone, for the same 4,500 pairs, mean rank gap 1.1 and mean rating gap 10. 32, as in the
//! queue, keeps a cycle well under 100 ms; larger blocks would need the weights above retuned.

use std::cmp::Ordering;
use std::collections::HashMap;

use integer_blossom::max_weight_matching;
use serde::{Deserialize, Serialize};

use crate::seeded_key;

/// A bot in the ladder, as the server sees it at the start of a cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderBot {
    pub id: String,
    pub rating: i32,
    /// Ladder points so far.
    pub points: u32,
    /// Games started in this ladder, the one it is playing now included.
    pub games: u32,
    /// Of those, how many in the first seat.
    pub firsts: u32,
    /// The opponent in its last game (the one it is playing now, if busy).
    pub last_opponent: Option<String>,
    /// Waiting for a game; a busy bot is never paired.
    pub idle: bool,
    /// When it became idle, in any unit that only grows: smaller is a longer wait.
    pub idle_since: u64,
}

/// The ladder's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderRules {
    /// How many games a bot may be ahead of the bot with the fewest.
    pub spread: u32,
    /// The rank weight of a pair that includes the ladder's leader, in rating points per rank.
    pub top_rank_weight: u32,
    /// The rank weight of a pair at the bottom of the ladder.
    pub bottom_rank_weight: u32,
}

impl Default for LadderRules {
    fn default() -> Self {
        LadderRules {
            spread: 2,
            top_rank_weight: 2_000,
            bottom_rank_weight: 300,
        }
    }
}

/// One cycle's pairing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderRound {
    /// The games to start, first seat first.
    pub pairs: Vec<(String, String)>,
    /// Why each pair was made, in the order of `pairs`.
    pub why: Vec<LadderPairWhy>,
    /// Idle bots left waiting for the bots behind, in rank order: those `spread` games ahead,
    /// and those whose game to the edge of the spread was held back so as not to strand them.
    pub held: Vec<String>,
}

/// What a pair was made of, seats in the pair's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderPairWhy {
    /// The two bots' ranks in the ladder.
    pub ranks: (u32, u32),
    /// Their games before this one.
    pub games: (u32, u32),
    /// The pair's arena cost: rank gap × rank weight + rating gap.
    pub cost: u64,
    pub seat: SeatWhy,
}

/// Why the first bot of a pair sits first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatWhy {
    /// It had sat first less often, relative to its games.
    FewerFirsts,
    /// Both had sat first equally often relative to their games: the smaller seeded key.
    SeededKey,
}

/// The most bots matched at once by the blossom algorithm. Even, so a block whose bots may
/// all play each other pairs them all.
pub const BLOCK: usize = 32;

/// The most bots below the bound the stranding rule checks exactly when its greedy pass fails.
pub const EXACT_LIMIT: usize = 4 * BLOCK;

/// Costs at or above this count as equal.
const MAX_COST: u64 = 1 << 20;
/// Games behind beyond this count as this (only with a `spread` over 256).
const MAX_BEHIND: u64 = 255;
/// All wait ranks of a block together: `1 + 2 + … + BLOCK`.
const WAIT_RANKS: i64 = (BLOCK * (BLOCK + 1) / 2) as i64;
/// One unit of cost below `MAX_COST` outweighs all wait ranks of a block.
const CLOSE_WEIGHT: i64 = 1 << 10;
/// One game behind outweighs all closeness and wait ranks of a block's pairs.
const GAMES_WEIGHT: i64 = 1 << 35;
/// One more pair outweighs everything else of a block's pairs.
const PAIR_WEIGHT: i64 = 1 << 50;
/// The most any one pair adds on top of `PAIR_WEIGHT`.
const MAX_EXTRA: i64 =
    GAMES_WEIGHT * 2 * MAX_BEHIND as i64 + CLOSE_WEIGHT * MAX_COST as i64 + 2 * BLOCK as i64;

const _: () = assert!(BLOCK.is_multiple_of(2));
const _: () = assert!(CLOSE_WEIGHT > WAIT_RANKS);
const _: () =
    assert!(GAMES_WEIGHT > (BLOCK as i64 / 2) * CLOSE_WEIGHT * MAX_COST as i64 + WAIT_RANKS);
const _: () = assert!(PAIR_WEIGHT > (BLOCK as i64 / 2) * MAX_EXTRA);
// Far below the crate's bound (`i64::MAX / 4`, with weights doubled inside).
const _: () = assert!(PAIR_WEIGHT + MAX_EXTRA < i64::MAX / 64);

/// The bots' indices in ladder order, rank 1 first: most points, then highest rating, then
/// smallest [`seeded_key`], then (only for duplicate ids) lowest index.
pub fn ranking(bots: &[LadderBot], seed: u64) -> Vec<usize> {
    let keys = keys(bots, seed);
    rank_order(bots, &keys)
}

/// The games to start now among `bots` (every bot in the ladder, busy or idle), by the
/// [rules](self#rules) above. Ids are taken to be unique.
pub fn pair(bots: &[LadderBot], seed: u64, rules: &LadderRules) -> LadderRound {
    let Some(fewest) = bots.iter().map(|b| b.games).min() else {
        return LadderRound::default();
    };
    let keys = keys(bots, seed);
    let ranked = rank_order(bots, &keys);
    let mut rank = vec![0; bots.len()];
    for (place, &i) in ranked.iter().enumerate() {
        rank[i] = place as u32 + 1;
    }
    let index: HashMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.id.as_str(), i))
        .collect();
    let last = bots
        .iter()
        .map(|b| {
            b.last_opponent
                .as_deref()
                .and_then(|id| index.get(id).copied())
        })
        .collect();
    // A bot may start a game while its games stay below this.
    let bound = u64::from(fewest) + u64::from(rules.spread);
    let (candidates, ahead): (Vec<usize>, Vec<usize>) = ranked
        .iter()
        .filter(|&&i| bots[i].idle)
        .partition(|&&i| u64::from(bots[i].games) < bound);

    let mut ladder = Ladder {
        bots,
        keys,
        rank,
        ranked,
        last,
        rules,
        bound,
        weights: Vec::new(),
        pairs: Vec::with_capacity(candidates.len() / 2),
    };
    let mut left = candidates.clone();
    while left.len() >= 2 {
        let before = ladder.pairs.len();
        left = ladder.pass(&left);
        if ladder.pairs.len() == before {
            break;
        }
    }
    ladder.sweep(&left);
    let mut held = ahead;
    held.extend(ladder.guard(&candidates));
    held.sort_unstable_by_key(|&i| ladder.rank[i]);

    let mut pairs = std::mem::take(&mut ladder.pairs);
    pairs.sort_unstable_by_key(|&(a, b)| ladder.rank[a].min(ladder.rank[b]));
    let mut round = LadderRound {
        pairs: Vec::with_capacity(pairs.len()),
        why: Vec::with_capacity(pairs.len()),
        held: held.into_iter().map(|i| bots[i].id.clone()).collect(),
    };
    for (a, b) in pairs {
        let (first, second, seat) = ladder.seats(a, b);
        round
            .pairs
            .push((bots[first].id.clone(), bots[second].id.clone()));
        round.why.push(LadderPairWhy {
            ranks: (ladder.rank[first], ladder.rank[second]),
            games: (bots[first].games, bots[second].games),
            cost: ladder.cost(first, second),
            seat,
        });
    }
    round
}

fn keys(bots: &[LadderBot], seed: u64) -> Vec<[u8; 32]> {
    bots.iter().map(|b| seeded_key(seed, &b.id)).collect()
}

fn rank_order(bots: &[LadderBot], keys: &[[u8; 32]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bots.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (x, y) = (&bots[a], &bots[b]);
        y.points
            .cmp(&x.points)
            .then(y.rating.cmp(&x.rating))
            .then(keys[a].cmp(&keys[b]))
            .then(a.cmp(&b))
    });
    order
}

/// One cycle's state.
struct Ladder<'b> {
    bots: &'b [LadderBot],
    keys: Vec<[u8; 32]>,
    /// Each bot's rank, by index.
    rank: Vec<u32>,
    /// The bots' indices, rank 1 first.
    ranked: Vec<usize>,
    /// Each bot's last opponent, as an index (`None` also for an opponent no longer here).
    last: Vec<Option<usize>>,
    rules: &'b LadderRules,
    /// Games a bot may have before starting one more: fewer than this.
    bound: u64,
    /// A block's weight matrix, kept between blocks.
    weights: Vec<i64>,
    /// The pairs made so far, as indices (seats not yet chosen).
    pairs: Vec<(usize, usize)>,
}

impl Ladder<'_> {
    /// Whether `a` and `b` may play, both being idle and within the spread.
    fn may_play(&self, a: usize, b: usize) -> bool {
        self.last[a] != Some(b) && self.last[b] != Some(a) && self.bots[a].id != self.bots[b].id
    }

    /// The arena cost of a pair: rank gap × rank weight + rating gap.
    fn cost(&self, a: usize, b: usize) -> u64 {
        let (ra, rb) = (u64::from(self.rank[a]), u64::from(self.rank[b]));
        let field = self.bots.len() as i128;
        let (top, bottom) = (
            i128::from(self.rules.top_rank_weight),
            i128::from(self.rules.bottom_rank_weight),
        );
        let better = i128::from(self.rank[a].min(self.rank[b]));
        let weight = (bottom + (top - bottom) * (field - better) / field).max(0) as u64;
        let rating_gap =
            (i64::from(self.bots[a].rating) - i64::from(self.bots[b].rating)).unsigned_abs();
        ra.abs_diff(rb)
            .saturating_mul(weight)
            .saturating_add(rating_gap)
    }

    /// Which of two tied bots waited longer: smaller `idle_since`, then smaller key.
    fn waited_longer(&self, a: usize, b: usize) -> Ordering {
        self.bots[a]
            .idle_since
            .cmp(&self.bots[b].idle_since)
            .then(self.keys[a].cmp(&self.keys[b]))
            .then(a.cmp(&b))
    }

    /// Matches `ranked` (indices in rank order) block by block; returns the bots left
    /// unpaired, still in rank order.
    fn pass(&mut self, ranked: &[usize]) -> Vec<usize> {
        let mut paired = vec![false; ranked.len()];
        for (b, block) in ranked.chunks(BLOCK).enumerate() {
            for (x, y) in self.match_block(block) {
                paired[b * BLOCK + x] = true;
                paired[b * BLOCK + y] = true;
            }
        }
        ranked
            .iter()
            .zip(paired)
            .filter(|(_, paired)| !paired)
            .map(|(&i, _)| i)
            .collect()
    }

    /// Pairs, in rank order, each bot still left with the first one after it that it may play.
    fn sweep(&mut self, left: &[usize]) {
        let mut paired = vec![false; left.len()];
        for x in 0..left.len() {
            if paired[x] {
                continue;
            }
            if let Some(y) =
                (x + 1..left.len()).find(|&y| !paired[y] && self.may_play(left[x], left[y]))
            {
                paired[x] = true;
                paired[y] = true;
                self.pairs.push((left[x], left[y]));
            }
        }
    }

    /// The best matching of one block, as pairs of positions in it.
    fn match_block(&mut self, block: &[usize]) -> Vec<(usize, usize)> {
        let n = block.len();
        if n < 2 {
            return Vec::new();
        }
        // Wait ranks: n for the bot that waited longest, 1 for the shortest wait.
        let mut by_wait: Vec<usize> = (0..n).collect();
        by_wait.sort_unstable_by(|&x, &y| self.waited_longer(block[y], block[x]));
        let mut wait = vec![0; n];
        for (r, &p) in by_wait.iter().enumerate() {
            wait[p] = r as i64 + 1;
        }
        let behind: Vec<i64> = block
            .iter()
            .map(|&i| (self.bound - 1 - u64::from(self.bots[i].games)).min(MAX_BEHIND) as i64)
            .collect();

        let mut weights = std::mem::take(&mut self.weights);
        weights.clear();
        weights.resize(n * n, 0);
        let mut edges = 0;
        for x in 0..n {
            for y in x + 1..n {
                if !self.may_play(block[x], block[y]) {
                    continue;
                }
                let closeness = (MAX_COST - self.cost(block[x], block[y]).min(MAX_COST)) as i64;
                weights[x * n + y] = PAIR_WEIGHT
                    + GAMES_WEIGHT * (behind[x] + behind[y])
                    + CLOSE_WEIGHT * closeness
                    + wait[x]
                    + wait[y];
                edges += 1;
            }
        }
        let mut pairs = Vec::with_capacity(n / 2);
        if edges > 0 {
            for (x, mate) in max_weight_matching(&weights, n).into_iter().enumerate() {
                if let Some(y) = mate.filter(|&y| x < y) {
                    self.pairs.push((block[x], block[y]));
                    pairs.push((x, y));
                }
            }
        }
        self.weights = weights;
        pairs
    }

    /// Whether pair `(a, b)` takes a bot to the edge of the spread: after it, the bot may not
    /// start another game until the fewest games rise.
    fn closes(&self, (a, b): (usize, usize)) -> bool {
        let edge = self.bound - 1;
        u64::from(self.bots[a].games) == edge || u64::from(self.bots[b].games) == edge
    }

    /// Whether a cycle that starts `pairs` keeps the rule against stranding (see the module
    /// doc): it does, or it takes no bot to the edge of the spread.
    fn keeps_stragglers(&self, pairs: &[(usize, usize)]) -> bool {
        !pairs.iter().any(|&p| self.closes(p)) || self.stragglers_served(pairs)
    }

    /// Holds back pairs that would strand the bots with the fewest games; returns the bots
    /// held back and left unpaired. Drops the pairs that take a bot to the edge of the spread,
    /// the furthest ahead first (most games, then lowest in the ladder), until the rule holds
    /// or none is left; then pairs any two bots left that may play, as long as the rule holds.
    fn guard(&mut self, candidates: &[usize]) -> Vec<usize> {
        if self.keeps_stragglers(&self.pairs) {
            return Vec::new();
        }
        let mut closing: Vec<(usize, usize)> = self
            .pairs
            .iter()
            .copied()
            .filter(|&p| self.closes(p))
            .collect();
        closing.sort_unstable_by_key(|&(a, b)| {
            let games = u64::from(self.bots[a].games) + u64::from(self.bots[b].games);
            (
                std::cmp::Reverse(games),
                std::cmp::Reverse(self.rank[a].min(self.rank[b])),
            )
        });
        let mut dropped = Vec::new();
        for pair in closing {
            self.pairs.retain(|&p| p != pair);
            dropped.extend([pair.0, pair.1]);
            if self.keeps_stragglers(&self.pairs) {
                break;
            }
        }
        // Pair again what may be paired now; a pair made raises no other's chances but by
        // raising the fewest games, so repeat until nothing more can be paired.
        loop {
            let mut paired = vec![false; self.bots.len()];
            for &(a, b) in &self.pairs {
                paired[a] = true;
                paired[b] = true;
            }
            let free: Vec<usize> = candidates.iter().copied().filter(|&i| !paired[i]).collect();
            let mut made = None;
            'search: for (k, &x) in free.iter().enumerate() {
                for &y in &free[k + 1..] {
                    if self.may_play(x, y) {
                        self.pairs.push((x, y));
                        let keeps = self.keeps_stragglers(&self.pairs);
                        self.pairs.pop();
                        if keeps {
                            made = Some((x, y));
                            break 'search;
                        }
                    }
                }
            }
            match made {
                Some(pair) => self.pairs.push(pair),
                None => break,
            }
        }
        let mut paired = vec![false; self.bots.len()];
        for &(a, b) in &self.pairs {
            paired[a] = true;
            paired[b] = true;
        }
        dropped.retain(|&i| !paired[i]);
        dropped
    }

    /// Whether, once `pairs` start, the bots with the fewest games could each still be given
    /// a different partner among the bots below the bound (idle or busy), none of them its last
    /// opponent. A greedy pass in rank order settles it nearly always; when it fails, an exact
    /// matching decides among up to [`EXACT_LIMIT`] such bots, and beyond that the answer is
    /// no (which only holds games back).
    fn stragglers_served(&self, pairs: &[(usize, usize)]) -> bool {
        let n = self.bots.len();
        let mut playing = vec![usize::MAX; n];
        for &(a, b) in pairs {
            playing[a] = b;
            playing[b] = a;
        }
        let games = |i: usize| u64::from(self.bots[i].games) + u64::from(playing[i] != usize::MAX);
        let last = |i: usize| {
            if playing[i] == usize::MAX {
                self.last[i]
            } else {
                Some(playing[i])
            }
        };
        let apart = |x: usize, y: usize| x != y && last(x) != Some(y) && last(y) != Some(x);
        let Some(fewest) = (0..n).map(games).min() else {
            return true;
        };
        let bound = fewest + u64::from(self.rules.spread);
        // The stragglers first, then the other bots below the bound, each in rank order.
        let (mut order, others): (Vec<usize>, Vec<usize>) = self
            .ranked
            .iter()
            .copied()
            .filter(|&i| games(i) < bound)
            .partition(|&i| games(i) == fewest);
        let stragglers = order.len();
        order.extend(others);

        let mut used = vec![false; n];
        let mut head = 0;
        let mut greedy = true;
        for &x in &order[..stragglers] {
            if used[x] {
                continue;
            }
            used[x] = true;
            while head < order.len() && used[order[head]] {
                head += 1;
            }
            match order[head..].iter().find(|&&y| !used[y] && apart(x, y)) {
                Some(&y) => used[y] = true,
                None => {
                    greedy = false;
                    break;
                }
            }
        }
        if greedy {
            return true;
        }
        let m = order.len();
        if m > EXACT_LIMIT {
            return false;
        }
        // Each straggler a pair covers weighs 1: the best matching covers them all if any does.
        let mut weights = vec![0i64; m * m];
        for x in 0..m {
            for y in x + 1..m {
                if apart(order[x], order[y]) {
                    weights[x * m + y] = i64::from(x < stragglers) + i64::from(y < stragglers);
                }
            }
        }
        let mates = max_weight_matching(&weights, m);
        mates[..stragglers].iter().all(Option::is_some)
    }

    /// The pair in seat order: the bot with the smaller `2 × firsts − games` first, then the
    /// smaller key.
    fn seats(&self, a: usize, b: usize) -> (usize, usize, SeatWhy) {
        let balance = |i: usize| 2 * i64::from(self.bots[i].firsts) - i64::from(self.bots[i].games);
        match balance(a).cmp(&balance(b)) {
            Ordering::Less => (a, b, SeatWhy::FewerFirsts),
            Ordering::Greater => (b, a, SeatWhy::FewerFirsts),
            Ordering::Equal => {
                if (self.keys[a], a) <= (self.keys[b], b) {
                    (a, b, SeatWhy::SeededKey)
                } else {
                    (b, a, SeatWhy::SeededKey)
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "ladder_tests.rs"]
mod tests;
