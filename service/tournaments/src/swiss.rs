//! A Swiss round's pairing: who plays whom, who sits out, and why.
//!
//! [`pair`] is a pure function of its [`SwissRequest`]: the event's seed, the bots to pair now,
//! every earlier round as known now, and the pairs that must never meet. It returns the pairs,
//! first seat first, in board order, the bot that sits out, and a [`Why`] that names the score
//! groups and, for each pair, its cost and what the cost is made of.
//!
//! # Score and rank
//!
//! A bot's score is what it has earned so far, in half-points ([`points`]): the points of every
//! game of the history whose outcome is known, plus a win for each bye (two wins with paired
//! games). A game whose outcome is not known yet scores nothing yet. The field is ranked by
//! score (highest first), then by rating (highest first), then by the event's seeded order
//! ([`seeded_key`], lowest first). The bots with the same score form a *score group*.
//!
//! # Rules that always hold
//!
//! 1. No two bots meet again: any game of the history between them counts, in either seat,
//!    whether its outcome is known or not.
//! 2. No forbidden pair meets (a forbidden pair is forbidden in either order).
//! 3. Seats, unless each pairing plays paired games (below):
//!    - a bot never sits in the same seat in three games in a row; its last two games played
//!      count, whatever rounds it sat out in between;
//!    - after the round, a bot's first seats and second seats differ by at most one: a bot that
//!      has sat first more often than second must sit second, and the other way round. (A
//!      history already further apart, which this pairing never makes, only has to move back
//!      toward even.)
//!
//!    Two bots may play if some seat order keeps both of them within these rules.
//!
//! With paired games, each pairing plays two games, one in each seat order, so the seat rules
//! do not apply and a bye is worth two wins.
//!
//! If the rules cannot all hold, [`pair`] pairs nobody and returns
//! [`SwissError::NoValidPairing`] with a reason an organiser can act on: the bots that may play
//! nobody left, or the groups of bots that cannot all be paired and the few bots that are
//! their only possible opponents. It is also the answer when a bot is in the field twice or the
//! history holds a round that is not earlier than the one being paired.
//!
//! # The bye
//!
//! An odd field has one bye; an even field none. The bye goes to the lowest-ranked bot that has
//! not had a bye yet, provided the others can then all be paired within the rules; if they
//! cannot, to the next one up, and so on. If no bot without a bye will do (or every bot has
//! had one), it goes to the lowest-ranked of those with the fewest byes that will do, then of
//! those with one bye more. The bye scores a win (the standings count it; this module only
//! chooses it). The bye is set aside first: the score groups below are those of the bots paired.
//!
//! # Preferences
//!
//! Among the pairings that keep the rules, [`pair`] looks for the best by these, in this order
//! of importance (one step of a preference outweighs anything below it):
//!
//! 1. Everybody paired: as many pairs as possible.
//! 2. Close scores: the smallest sum over the pairs of the squared score gap in half-points.
//!    Pairs stay within their score group where they can; when a group cannot be paired within
//!    itself, as few bots as possible float to another group, and as short a way as possible.
//! 3. Seats: as many bots as possible get their *due seat*: the seat they have had fewer times;
//!    on equal counts, the other one than in their last game. A bot that has not played yet has
//!    no due seat.
//! 4. Within a score group, the top half meets the bottom half, as in the Dutch system: the
//!    best pair is ranked half the group's size apart (the first meets the first of the bottom
//!    half, and so on down). A pair's *offset* is how far their distance in the group's ranking
//!    is from half the group's size (rounded down); for two bots of different groups it is the
//!    number of bots ranked between them, so the bot that floats down is the lowest of its group
//!    and meets the highest of the group below.
//! 5. The smaller rating gap.
//!
//! The seat order of a pair keeps the rules and then gives each bot its due seat. When both are
//! due the same seat, the higher-ranked gets it. When neither has played yet, the higher-ranked
//! sits first on board 1 if the seed is even, second if it is odd, and each board down the list
//! swaps, so round 1 alternates down the boards. With paired games the higher-ranked bot sits
//! first in the first game.
//!
//! Pairs come in board order: the pair with the highest-ranked bot first.
//!
//! A pair's `cost` in [`Why`] is its preferences 2 to 5 weighed into one number,
//! `gap² × GAP_WEIGHT + seat misses × SEAT_WEIGHT + offset × OFFSET_WEIGHT + rating gap`, with
//! each weight larger than everything below it can add up to in a block of [`MAX_BLOCK`] bots
//! (checked at compile time), so a smaller sum of costs is a better pairing. The parts are
//! capped for weighing: score gaps at 127 half-points, offsets at 1,023 and rating gaps at
//! 4,095; beyond a cap, differences count as ties.
//!
//! # How, and what it costs
//!
//! The matching is the blossom algorithm of the `integer-blossom` crate
//! ([`integer_blossom::max_weight_matching`]), with each allowed pair weighing
//! `PAIR_WEIGHT - cost` (`PAIR_WEIGHT` outweighs the costs of a whole block, so one more pair
//! beats any costs) and a pair that may not play weighing zero, which the crate reads as no
//! edge. The crate takes a dense matrix and runs in cubic time: 1,000 bots at once take 1.5 to
//! 3.5 s on this project's 2-core machine (and a table of 64 MB), 64 bots under 1 ms. So a
//! field larger than [`MAX_BLOCK`] bots is matched in blocks:
//!
//! - The bots are laid out score group by score group, highest first, and within each group
//!   its top half and bottom half interleaved (the group's first, the first of its bottom half,
//!   its second, the second of its bottom half, …, the extra bot of an odd group last). A
//!   block of consecutive bots of that layout thus holds the partners preference 4 wants, even
//!   when a group is far larger than a block (round 1 of 1,000 bots is one group).
//! - Blocks are taken from the top, each of [`MAX_BLOCK`] bots: the bots an earlier block left
//!   unpaired (at most half a block), then the next bots of the layout. Each block is matched
//!   on its own, optimally by the preferences above; whoever it cannot pair goes on to the next,
//!   lower block, as a floater goes down in the Dutch system.
//! - If bots are still unpaired at the end, a completing step (Edmonds' augmenting paths, on
//!   the whole field, trying opponents closest in rank first) adds one pair at a time by
//!   re-pairing the bots along one alternating path, until everybody is paired, or proves that
//!   no valid pairing exists. It always finds a valid pairing if there is one, but its pairs
//!   are not chosen by the preferences: the pairs it makes are marked `by_fallback` in [`Why`]. The same step tells which bots can take the bye
//!   when the lowest candidate cannot.
//!
//! A field of at most [`MAX_BLOCK`] bots is thus paired optimally. A larger one is optimal
//! within each block, but not across blocks: a block pairs its bots as well as it can without
//! knowing the blocks below. The cost is `O(n log n)` for the ranking and about `n / 64`
//! blossom runs of under 1 ms each; the completing step costs `O(n²)` per bot it pairs.
//!
//! `cargo bench -p pitchmate-tournaments --bench swiss`, on this project's 2-core machine
//! (medians of 11 runs, on a machine shared with other builds, so they vary by a few tens of
//! percent from run to run): 1,000 bots pair in 7 to 11 ms for round 1 (one score group) and 12
//! to 18 ms for round 7 of a simulated event (13 groups, six rounds of rematches and seats to
//! avoid), 10,000 bots in 55 to 70 ms and 105 to 140 ms; ranking the field alone takes 20 to
//! 40 times less. The blocks' size was chosen on round 7 of 1,000 bots: blocks of 32, 64, 128
//! and 256 bots took 5, 18, 36 and 131 ms, and larger blocks paired no better (6 to 8 bots
//! floated and 41 to 83 missed their due seat, with no trend), so 64. When the blocks fall
//! short, the completing step is what costs: where the 100 lowest-ranked of 1,000 bots may play
//! only the 100 highest-ranked, it makes some 110 pairs and the round takes 140 to 185 ms; with
//! 300 such bots, 0.5 to 0.7 s.
//!
//! # Determinism
//!
//! The result depends only on the request's contents, not on the order of the field, of the
//! history's rounds and games, or of the forbidden pairs: bots are ranked by a total order
//! (ids are unique), each bot's games are read in round order (and within a round by the seat
//! holders' ids), the forbidden pairs become a set, and the blossom and the completing step are
//! deterministic on a given ranked field.

use std::cmp::{Ordering, Reverse};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::ops::Range;

use integer_blossom::max_weight_matching;
use serde::{Deserialize, Serialize};

use crate::{Entrant, Game, Round, WIN, seeded_key};

/// What to pair: one round of a Swiss event.
#[derive(Clone, Copy, Debug)]
pub struct SwissRequest<'a> {
    /// The event's seed: it orders bots of equal score and rating, and seats round 1.
    pub seed: u64,
    /// The round to pair, from 1.
    pub number: u32,
    /// Who is to be paired now: entered, not paused or withdrawn, not still playing.
    pub field: &'a [Entrant],
    /// Every earlier round as known now. An unknown outcome (`None`) counts as a meeting that
    /// scored nothing yet.
    pub history: &'a [Round],
    /// Pairs that must never meet (either order).
    pub forbidden: &'a [(String, String)],
    /// Each pairing plays both seat orders (two games): seat rules do not apply, a bye is worth
    /// 2 × [`WIN`].
    pub paired_games: bool,
}

/// A round's pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// First seat, second seat; in board order. With paired games, the seats of the first game.
    pub pairs: Vec<(String, String)>,
    /// The bot that sits out, if the field is odd.
    pub bye: Option<String>,
    pub why: Why,
}

/// Why the pairing is what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct Why {
    /// The score groups of the bots paired (the bye set aside), highest score first.
    pub groups: Vec<ScoreGroup>,
    /// One per pair, in the order of the pairs.
    pub pairs: Vec<PairWhy>,
    /// Why the bye went to that bot.
    pub bye: Option<String>,
    /// The sum of the pairs' costs (saturating).
    pub total_cost: u64,
}

/// The bots of one score, in rank order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct ScoreGroup {
    /// In half-points.
    pub points: u32,
    pub members: Vec<String>,
}

/// One pair's cost and the parts it is made of (see the [module doc](self#preferences)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct PairWhy {
    pub first: String,
    pub second: String,
    /// The parts below weighed into one number; lower is better.
    pub cost: u64,
    /// The difference of their scores, in half-points: 0 within a score group.
    pub score_gap: u32,
    /// How many of the two do not get their due seat (0 to 2).
    pub seat_misses: u32,
    /// Why this seat order.
    pub seat: String,
    /// Within a score group, how far their distance in the group's ranking is from half the
    /// group's size; across groups, how many bots are ranked between them.
    pub offset: u32,
    /// The difference of their ratings.
    pub rating_gap: u32,
    /// Made by the completing step, not chosen by the preferences (see the module doc).
    pub by_fallback: bool,
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// No pairing keeps every rule; the reason names the bots in the way.
    NoValidPairing { reason: String },
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissError::NoValidPairing { reason } => write!(f, "no valid pairing: {reason}"),
        }
    }
}

impl std::error::Error for SwissError {}

/// The most bots matched by one run of the blossom algorithm (see the module doc).
pub const MAX_BLOCK: usize = 64;
/// The most bots a block passes on unpaired to the next; more wait for the completing step.
const MAX_CARRIED: usize = MAX_BLOCK / 2;

/// Caps on a pair's cost parts when weighed (see the module doc).
const GAP_CAP: u64 = 127;
const OFFSET_CAP: u64 = 1_023;
const RATING_CAP: u64 = 4_095;
const MAX_SEAT_MISSES: u64 = 2;
/// The most pairs in one block.
const BLOCK_PAIRS: u64 = (MAX_BLOCK / 2) as u64;

/// Each weight exceeds what the parts below it can add up to over a block's pairs, so the sum
/// of costs compares the parts lexicographically: one offset step outweighs all rating gaps of
/// a block, one seat miss all offsets and rating gaps, one unit of squared score gap all seats,
/// offsets and rating gaps.
const OFFSET_WEIGHT: u64 = BLOCK_PAIRS * RATING_CAP + 1;
const SEAT_WEIGHT: u64 = BLOCK_PAIRS * (OFFSET_CAP * OFFSET_WEIGHT + RATING_CAP) + 1;
const GAP_WEIGHT: u64 =
    BLOCK_PAIRS * (MAX_SEAT_MISSES * SEAT_WEIGHT + OFFSET_CAP * OFFSET_WEIGHT + RATING_CAP) + 1;
/// The largest cost of one pair.
const MAX_COST: u64 = GAP_CAP * GAP_CAP * GAP_WEIGHT
    + MAX_SEAT_MISSES * SEAT_WEIGHT
    + OFFSET_CAP * OFFSET_WEIGHT
    + RATING_CAP;
/// The weight of one pair, more than the costs of a whole block's pairs: one more pair beats
/// any costs.
const PAIR_WEIGHT: u64 = BLOCK_PAIRS * MAX_COST + 1;

const _: () = assert!(MAX_BLOCK.is_multiple_of(2));
const _: () = assert!(OFFSET_WEIGHT > BLOCK_PAIRS * RATING_CAP);
const _: () = assert!(SEAT_WEIGHT > BLOCK_PAIRS * (OFFSET_CAP * OFFSET_WEIGHT + RATING_CAP));
const _: () = assert!(
    GAP_WEIGHT
        > BLOCK_PAIRS * (MAX_SEAT_MISSES * SEAT_WEIGHT + OFFSET_CAP * OFFSET_WEIGHT + RATING_CAP)
);
// k + 1 pairs outweigh k pairs for every k < BLOCK_PAIRS, and every allowed pair weighs above
// zero (which the crate reads as no edge).
const _: () = assert!(PAIR_WEIGHT > BLOCK_PAIRS * MAX_COST);
// The crate doubles weights inside and bounds its slack at `i64::MAX / 4`.
const _: () = assert!(PAIR_WEIGHT < (i64::MAX / 64) as u64);

/// A bot's points in `history` (known outcomes and byes), in half-points. A bye is worth a win,
/// or two with paired games.
pub fn points(history: &[Round], id: &str, paired_games: bool) -> u32 {
    let mut total = 0;
    for round in history {
        for game in &round.games {
            if let Some(outcome) = game.outcome {
                if game.first == id {
                    total += outcome.points(0);
                }
                if game.second == id {
                    total += outcome.points(1);
                }
            }
        }
        if round.bye.as_deref() == Some(id) {
            total += bye_value(paired_games);
        }
    }
    total
}

fn bye_value(paired_games: bool) -> u32 {
    if paired_games { 2 * WIN } else { WIN }
}

/// Pairs one round by the rules of the [module doc](self).
pub fn pair(request: &SwissRequest) -> Result<SwissRound, SwissError> {
    let field = Field::new(request)?;
    let n = field.bots.len();
    if n.is_multiple_of(2) {
        let pairing = Pairing::new(&field, vec![true; n]);
        if !pairing.is_complete() {
            return Err(no_pairing(explain(
                &field,
                &pairing.layout.present,
                pairing.mate,
                false,
            )));
        }
        return Ok(round(&field, &pairing, None));
    }

    let candidates = bye_candidates(&field);
    let lowest = candidates[0];
    let pairing = Pairing::new(&field, without(n, lowest));
    if pairing.is_complete() {
        return Ok(round(&field, &pairing, Some((lowest, &[]))));
    }
    // The others cannot all be paired without `lowest`. With a largest pairing of the whole
    // field, which leaves one bot out when some bye will do, the bots that can sit out are
    // those an alternating path reaches from the one left out.
    let mut paths = Paths::new(&field, vec![true; n], pairing.mate);
    if let Some(end) = paths.search(lowest) {
        paths.augment(end);
    }
    let left_out = paths.exposed();
    if left_out.len() != 1 {
        let (present, mate) = (paths.present.clone(), paths.mate);
        return Err(no_pairing(explain(&field, &present, mate, true)));
    }
    let no_path = paths.search(left_out[0]).is_none();
    debug_assert!(no_path, "a largest pairing has no augmenting path");
    let chosen = candidates
        .iter()
        .position(|&bot| paths.outer[bot])
        .expect("the bot left out can sit out");
    let bye = candidates[chosen];
    let pairing = Pairing::new(&field, without(n, bye));
    if !pairing.is_complete() {
        // Not expected: the bot was chosen because the others can all be paired.
        return Err(no_pairing(explain(
            &field,
            &pairing.layout.present,
            pairing.mate,
            false,
        )));
    }
    Ok(round(&field, &pairing, Some((bye, &candidates[..chosen]))))
}

fn no_pairing(reason: String) -> SwissError {
    SwissError::NoValidPairing { reason }
}

fn without(n: usize, bot: usize) -> Vec<bool> {
    let mut present = vec![true; n];
    present[bot] = false;
    present
}

/// The order in which bots are considered for the bye: fewest byes first, then lowest-ranked
/// first.
fn bye_candidates(field: &Field) -> Vec<usize> {
    let mut candidates: Vec<usize> = (0..field.bots.len()).collect();
    candidates.sort_unstable_by_key(|&bot| (field.bots[bot].byes, Reverse(bot)));
    candidates
}

/// Marks a bot with no partner in a matching.
const NONE: usize = usize::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seat {
    First,
    Second,
}

impl Seat {
    fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// The seat's number in [`Outcome::points`](crate::Outcome::points).
    fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Seat::First => "first",
            Seat::Second => "second",
        }
    }
}

/// A bot's seats in the history, read in round order.
#[derive(Clone, Copy, Debug, Default)]
struct Seats {
    firsts: u32,
    seconds: u32,
    last: Option<Seat>,
    before_last: Option<Seat>,
}

impl Seats {
    fn record(&mut self, seat: Seat) {
        match seat {
            Seat::First => self.firsts += 1,
            Seat::Second => self.seconds += 1,
        }
        self.before_last = self.last;
        self.last = Some(seat);
    }

    fn count(&self, seat: Seat) -> u32 {
        match seat {
            Seat::First => self.firsts,
            Seat::Second => self.seconds,
        }
    }

    /// Whether taking `seat` keeps the seat rules: not a third time in a row, and not the seat
    /// it has had more often.
    fn may_take(&self, seat: Seat) -> bool {
        let third_in_a_row = self.last == Some(seat) && self.before_last == Some(seat);
        !third_in_a_row && self.count(seat) <= self.count(seat.other())
    }

    /// The seat it had fewer times; on equal counts the other one than its last; none before
    /// its first game.
    fn due(&self) -> Option<Seat> {
        match self.firsts.cmp(&self.seconds) {
            Ordering::Less => Some(Seat::First),
            Ordering::Greater => Some(Seat::Second),
            Ordering::Equal => self.last.map(Seat::other),
        }
    }

    /// What a bot's seat history asks of this game, in words.
    fn describe(&self) -> String {
        let counts = format!("{} first, {} second", self.firsts, self.seconds);
        match (self.may_take(Seat::First), self.may_take(Seat::Second)) {
            (false, false) => format!(
                "may take neither seat ({counts}, last two: both {})",
                self.last.map_or("?", Seat::name)
            ),
            (true, false) | (false, true) => {
                let seat = if self.may_take(Seat::First) {
                    Seat::First
                } else {
                    Seat::Second
                };
                if self.count(seat) < self.count(seat.other()) {
                    format!("must sit {} ({counts} so far)", seat.name())
                } else {
                    format!(
                        "must sit {} (sat {} in its last two games)",
                        seat.name(),
                        seat.other().name()
                    )
                }
            }
            (true, true) => match self.due() {
                None => "has not played yet".to_string(),
                Some(seat) => format!(
                    "is due {} ({counts}, last game {})",
                    seat.name(),
                    self.last.map_or("?", Seat::name)
                ),
            },
        }
    }
}

/// A bot of the field, as the history leaves it.
struct Bot<'a> {
    id: &'a str,
    rating: i32,
    /// Its score, in half-points.
    points: u32,
    byes: u32,
    seats: Seats,
    /// The bots (by rank) it may not meet: met before or forbidden. Sorted.
    barred: Vec<usize>,
}

/// The field, ranked: a bot's index is its rank (0 the highest).
struct Field<'a> {
    bots: Vec<Bot<'a>>,
    paired_games: bool,
    seed: u64,
}

impl<'a> Field<'a> {
    fn new(request: &SwissRequest<'a>) -> Result<Self, SwissError> {
        let n = request.field.len();
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(n);
        for (i, entrant) in request.field.iter().enumerate() {
            if index.insert(entrant.id.as_str(), i).is_some() {
                return Err(no_pairing(format!(
                    "`{}` is in the field twice",
                    entrant.id
                )));
            }
        }
        if let Some(late) = request
            .history
            .iter()
            .map(|r| r.number)
            .filter(|&k| k >= request.number)
            .min()
        {
            return Err(no_pairing(format!(
                "the history holds round {late}, which is not before round {} being paired",
                request.number
            )));
        }

        let mut points = vec![0u32; n];
        let mut byes = vec![0u32; n];
        let mut seats = vec![Seats::default(); n];
        let mut barred: Vec<Vec<usize>> = vec![Vec::new(); n];
        // Round order, then seat holders' ids: the order seats are read in.
        let mut games: Vec<(u32, &Game)> = request
            .history
            .iter()
            .flat_map(|r| r.games.iter().map(move |g| (r.number, g)))
            .collect();
        games.sort_unstable_by(|(ka, a), (kb, b)| {
            ka.cmp(kb)
                .then_with(|| a.first.cmp(&b.first))
                .then_with(|| a.second.cmp(&b.second))
        });
        for (_, game) in games {
            let first = index.get(game.first.as_str()).copied();
            let second = index.get(game.second.as_str()).copied();
            for (seat, bot) in [(Seat::First, first), (Seat::Second, second)] {
                let Some(bot) = bot else { continue };
                if let Some(outcome) = game.outcome {
                    points[bot] += outcome.points(seat.index());
                }
                if !request.paired_games {
                    seats[bot].record(seat);
                }
            }
            if let (Some(a), Some(b)) = (first, second)
                && a != b
            {
                barred[a].push(b);
                barred[b].push(a);
            }
        }
        for round in request.history {
            if let Some(bot) = round.bye.as_deref().and_then(|id| index.get(id)) {
                byes[*bot] += 1;
                points[*bot] += bye_value(request.paired_games);
            }
        }
        for (a, b) in request.forbidden {
            if let (Some(&a), Some(&b)) = (index.get(a.as_str()), index.get(b.as_str()))
                && a != b
            {
                barred[a].push(b);
                barred[b].push(a);
            }
        }

        let keys: Vec<[u8; 32]> = request
            .field
            .iter()
            .map(|e| seeded_key(request.seed, &e.id))
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_unstable_by(|&a, &b| {
            let (ea, eb) = (&request.field[a], &request.field[b]);
            points[b]
                .cmp(&points[a])
                .then(eb.rating.cmp(&ea.rating))
                .then(keys[a].cmp(&keys[b]))
                .then(ea.id.cmp(&eb.id))
        });
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let bots = order
            .iter()
            .map(|&i| {
                let mut bars: Vec<usize> = barred[i].iter().map(|&j| rank[j]).collect();
                bars.sort_unstable();
                bars.dedup();
                Bot {
                    id: &request.field[i].id,
                    rating: request.field[i].rating,
                    points: points[i],
                    byes: byes[i],
                    seats: seats[i],
                    barred: bars,
                }
            })
            .collect();
        Ok(Field {
            bots,
            paired_games: request.paired_games,
            seed: request.seed,
        })
    }

    fn barred(&self, a: usize, b: usize) -> bool {
        self.bots[a].barred.binary_search(&b).is_ok()
    }

    /// Which seat orders keep both within the seat rules: (`a` first, `b` first).
    fn orders(&self, a: usize, b: usize) -> (bool, bool) {
        if self.paired_games {
            return (true, true);
        }
        let (sa, sb) = (&self.bots[a].seats, &self.bots[b].seats);
        (
            sa.may_take(Seat::First) && sb.may_take(Seat::Second),
            sb.may_take(Seat::First) && sa.may_take(Seat::Second),
        )
    }

    /// Whether `a` and `b` may play this round.
    fn allowed(&self, a: usize, b: usize) -> bool {
        a != b && !self.barred(a, b) && {
            let (a_first, b_first) = self.orders(a, b);
            a_first || b_first
        }
    }

    /// How many of the two miss their due seat with `first` in the first seat.
    fn seat_misses(&self, first: usize, second: usize) -> u32 {
        if self.paired_games {
            return 0;
        }
        u32::from(self.bots[first].seats.due() == Some(Seat::Second))
            + u32::from(self.bots[second].seats.due() == Some(Seat::First))
    }

    fn names(&self, bots: &[usize]) -> String {
        const SHOWN: usize = 8;
        let mut text = bots
            .iter()
            .take(SHOWN)
            .map(|&b| format!("`{}`", self.bots[b].id))
            .collect::<Vec<_>>()
            .join(", ");
        if bots.len() > SHOWN {
            text.push_str(&format!(" and {} more", bots.len() - SHOWN));
        }
        text
    }
}

/// A pair's preferences 2 to 5 (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cost {
    score_gap: u32,
    seat_misses: u32,
    offset: u32,
    rating_gap: u32,
}

impl Cost {
    fn total(self) -> u64 {
        let gap = u64::from(self.score_gap).min(GAP_CAP);
        gap * gap * GAP_WEIGHT
            + u64::from(self.seat_misses) * SEAT_WEIGHT
            + u64::from(self.offset).min(OFFSET_CAP) * OFFSET_WEIGHT
            + u64::from(self.rating_gap).min(RATING_CAP)
    }
}

/// The bots to pair (the field less the bye) and their score groups.
struct Layout {
    /// By rank.
    present: Vec<bool>,
    /// The present bots, in rank order.
    members: Vec<usize>,
    /// Score groups as ranges of `members`, highest first.
    groups: Vec<Range<usize>>,
    /// By rank: position in `members`, its group, its position in the group.
    place: Vec<usize>,
    group: Vec<usize>,
    place_in_group: Vec<usize>,
}

impl Layout {
    fn new(field: &Field, present: Vec<bool>) -> Self {
        let n = field.bots.len();
        let members: Vec<usize> = (0..n).filter(|&b| present[b]).collect();
        let (mut place, mut group, mut place_in_group) =
            (vec![NONE; n], vec![NONE; n], vec![NONE; n]);
        let mut groups: Vec<Range<usize>> = Vec::new();
        for (p, &bot) in members.iter().enumerate() {
            match groups.last_mut() {
                Some(last) if field.bots[members[last.start]].points == field.bots[bot].points => {
                    last.end = p + 1;
                }
                _ => groups.push(p..p + 1),
            }
            place[bot] = p;
            group[bot] = groups.len() - 1;
            place_in_group[bot] = p - groups[groups.len() - 1].start;
        }
        Layout {
            present,
            members,
            groups,
            place,
            group,
            place_in_group,
        }
    }

    /// The present bots group by group, each group's top and bottom halves interleaved.
    fn interleaved(&self) -> Vec<usize> {
        let mut order = Vec::with_capacity(self.members.len());
        for range in &self.groups {
            let group = &self.members[range.clone()];
            let half = group.len() / 2;
            for i in 0..half {
                order.push(group[i]);
                order.push(group[half + i]);
            }
            if group.len() % 2 == 1 {
                order.push(group[group.len() - 1]);
            }
        }
        order
    }

    /// The cost of pairing `a` and `b`, if they may play.
    fn cost(&self, field: &Field, a: usize, b: usize) -> Option<Cost> {
        if a == b || field.barred(a, b) {
            return None;
        }
        let seat_misses = match field.orders(a, b) {
            (false, false) => return None,
            (true, false) => field.seat_misses(a, b),
            (false, true) => field.seat_misses(b, a),
            (true, true) => field.seat_misses(a, b).min(field.seat_misses(b, a)),
        };
        let (ba, bb) = (&field.bots[a], &field.bots[b]);
        let offset = if self.group[a] == self.group[b] {
            let half = self.groups[self.group[a]].len() / 2;
            self.place_in_group[a]
                .abs_diff(self.place_in_group[b])
                .abs_diff(half)
        } else {
            self.place[a].abs_diff(self.place[b]) - 1
        };
        Some(Cost {
            score_gap: ba.points.abs_diff(bb.points),
            seat_misses,
            offset: u32::try_from(offset).unwrap_or(u32::MAX),
            rating_gap: ba.rating.abs_diff(bb.rating),
        })
    }
}

/// The pairing of the present bots: blocks first, then the completing step.
struct Pairing {
    layout: Layout,
    /// By rank: the partner, or `NONE`.
    mate: Vec<usize>,
    /// The partners the blocks chose, before the completing step.
    block_mate: Vec<usize>,
}

impl Pairing {
    fn new(field: &Field, present: Vec<bool>) -> Self {
        let layout = Layout::new(field, present);
        let block_mate = match_blocks(field, &layout);
        let mut paths = Paths::new(field, layout.present.clone(), block_mate.clone());
        for root in paths.exposed() {
            if paths.mate[root] == NONE
                && let Some(end) = paths.search(root)
            {
                paths.augment(end);
            }
        }
        Pairing {
            mate: paths.mate,
            layout,
            block_mate,
        }
    }

    fn is_complete(&self) -> bool {
        self.layout.members.iter().all(|&b| self.mate[b] != NONE)
    }
}

/// Matches the present bots block by block (see the module doc); returns the partners.
fn match_blocks(field: &Field, layout: &Layout) -> Vec<usize> {
    let order = layout.interleaved();
    let mut mate = vec![NONE; field.bots.len()];
    let mut carried: Vec<usize> = Vec::new();
    let mut weights = Vec::new();
    let mut next = 0;
    while next < order.len() {
        // Whoever is carried beyond this waits for the completing step.
        carried.truncate(MAX_CARRIED);
        let take = (MAX_BLOCK - carried.len()).min(order.len() - next);
        let mut block = std::mem::take(&mut carried);
        block.extend_from_slice(&order[next..next + take]);
        next += take;
        for (a, b) in match_block(field, layout, &block, &mut weights) {
            mate[a] = b;
            mate[b] = a;
        }
        carried = block.into_iter().filter(|&b| mate[b] == NONE).collect();
    }
    mate
}

/// The best matching of one block by the preferences, as pairs of ranks.
fn match_block(
    field: &Field,
    layout: &Layout,
    block: &[usize],
    weights: &mut Vec<i64>,
) -> Vec<(usize, usize)> {
    let n = block.len();
    weights.clear();
    weights.resize(n * n, 0);
    let mut edges = false;
    for i in 0..n {
        for j in i + 1..n {
            if let Some(cost) = layout.cost(field, block[i], block[j]) {
                // Below `i64::MAX / 64` (checked at compile time).
                weights[i * n + j] = (PAIR_WEIGHT - cost.total()) as i64;
                edges = true;
            }
        }
    }
    if !edges {
        return Vec::new();
    }
    max_weight_matching(weights, n)
        .into_iter()
        .enumerate()
        .filter_map(|(i, mate)| mate.filter(|&j| i < j).map(|j| (block[i], block[j])))
        .collect()
}

/// Edmonds' augmenting paths for a largest valid pairing of the present bots, on the whole
/// field. Neighbours are tried closest in rank first, so paths stay short and local.
struct Paths<'f, 'a> {
    field: &'f Field<'a>,
    present: Vec<bool>,
    mate: Vec<usize>,
    /// The last search's state: the tree's links, each bot's blossom base, and the bots at
    /// an even distance from the root (those a largest pairing may leave out, once it is found
    /// that none can be added).
    parent: Vec<usize>,
    base: Vec<usize>,
    outer: Vec<bool>,
    marked: Vec<bool>,
    on_path: Vec<bool>,
    queue: VecDeque<usize>,
}

impl<'f, 'a> Paths<'f, 'a> {
    fn new(field: &'f Field<'a>, present: Vec<bool>, mate: Vec<usize>) -> Self {
        let n = field.bots.len();
        Paths {
            field,
            present,
            mate,
            parent: vec![NONE; n],
            base: (0..n).collect(),
            outer: vec![false; n],
            marked: vec![false; n],
            on_path: vec![false; n],
            queue: VecDeque::new(),
        }
    }

    fn exposed(&self) -> Vec<usize> {
        (0..self.mate.len())
            .filter(|&b| self.present[b] && self.mate[b] == NONE)
            .collect()
    }

    /// Looks for an augmenting path from the unpaired `root`; returns its other end.
    fn search(&mut self, root: usize) -> Option<usize> {
        let n = self.mate.len();
        self.parent.fill(NONE);
        self.outer.fill(false);
        for (b, base) in self.base.iter_mut().enumerate() {
            *base = b;
        }
        self.queue.clear();
        self.outer[root] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for distance in 1..n {
                for to in [v.wrapping_sub(distance), v + distance] {
                    if to >= n
                        || !self.present[to]
                        || self.base[v] == self.base[to]
                        || self.mate[v] == to
                        || !self.field.allowed(v, to)
                    {
                        continue;
                    }
                    if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                        self.contract(v, to);
                    } else if self.parent[to] == NONE {
                        self.parent[to] = v;
                        if self.mate[to] == NONE {
                            return Some(to);
                        }
                        let next = self.mate[to];
                        self.outer[next] = true;
                        self.queue.push_back(next);
                    }
                }
            }
        }
        None
    }

    /// Shrinks the odd cycle closed by the edge `v`–`to` into a blossom.
    fn contract(&mut self, v: usize, to: usize) {
        let base = self.common_base(v, to);
        self.marked.fill(false);
        self.mark_path(v, base, to);
        self.mark_path(to, base, v);
        for b in 0..self.mate.len() {
            if self.marked[self.base[b]] {
                self.base[b] = base;
                if !self.outer[b] {
                    self.outer[b] = true;
                    self.queue.push_back(b);
                }
            }
        }
    }

    fn common_base(&mut self, mut a: usize, mut b: usize) -> usize {
        self.on_path.fill(false);
        loop {
            a = self.base[a];
            self.on_path[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if self.on_path[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            self.marked[self.base[v]] = true;
            self.marked[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Flips the path found by [`Paths::search`] ending at `end`.
    fn augment(&mut self, mut end: usize) {
        while end != NONE {
            let parent = self.parent[end];
            let next = self.mate[parent];
            self.mate[end] = parent;
            self.mate[parent] = end;
            end = next;
        }
    }
}

/// Why no valid pairing exists, given a largest pairing `mate` of the present bots (one short
/// of complete at best for an odd field): the bots that may play nobody, or else the
/// Gallai–Edmonds barrier: groups with an odd number of bots whose only opponents outside the
/// group are fewer bots than there are groups.
fn explain(field: &Field, present: &[bool], mate: Vec<usize>, odd: bool) -> String {
    let n = field.bots.len();
    let members: Vec<usize> = (0..n).filter(|&b| present[b]).collect();
    let lonely: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&a| !members.iter().any(|&b| field.allowed(a, b)))
        .collect();
    if lonely.len() > usize::from(odd) {
        return format!(
            "{} may play none of the other bots in the field (each has met them, may not meet \
             them, or cannot take a seat opposite them within the seat rules){}",
            field.names(&lonely),
            if odd {
                ", and only one bot can sit out"
            } else {
                ""
            }
        );
    }

    let mut paths = Paths::new(field, present.to_vec(), mate);
    let exposed = paths.exposed();
    let mut reached = vec![false; n];
    for &root in &exposed {
        let none = paths.search(root).is_none();
        debug_assert!(none, "a largest pairing has no augmenting path");
        for (reached, outer) in reached.iter_mut().zip(&paths.outer) {
            *reached |= outer;
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut seen = vec![false; n];
    let mut barrier = vec![false; n];
    for &start in &members {
        if !reached[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut group = vec![start];
        let mut i = 0;
        while i < group.len() {
            let a = group[i];
            i += 1;
            for &b in &members {
                if field.allowed(a, b) {
                    if reached[b] {
                        if !seen[b] {
                            seen[b] = true;
                            group.push(b);
                        }
                    } else {
                        barrier[b] = true;
                    }
                }
            }
        }
        group.sort_unstable();
        groups.push(group);
    }
    let barrier: Vec<usize> = (0..n).filter(|&b| barrier[b]).collect();
    const SHOWN: usize = 6;
    let mut listed = groups
        .iter()
        .take(SHOWN)
        .map(|g| format!("[{}]", field.names(g)))
        .collect::<Vec<_>>()
        .join(", ");
    if groups.len() > SHOWN {
        listed.push_str(&format!(" and {} more groups", groups.len() - SHOWN));
    }
    let short = exposed.len() - usize::from(odd);
    let outside = if barrier.is_empty() {
        "none of their bots may play anyone outside its own group".to_string()
    } else {
        format!(
            "outside its own group, a bot of theirs may play only {} ({} {}), and a group is \
             paired in full only if one of those plays it",
            field.names(&barrier),
            barrier.len(),
            if barrier.len() == 1 { "bot" } else { "bots" }
        )
    };
    format!(
        "{}at most {} of the {} bots can be paired within the rules: {} {} an odd number of \
         bots ({listed}); {outside}; so {short} {} would stay unpaired",
        if odd { "even with one bye, " } else { "" },
        members.len() - exposed.len(),
        members.len(),
        groups.len(),
        if groups.len() == 1 {
            "group has"
        } else {
            "groups have"
        },
        if short == 1 { "bot" } else { "bots" },
    )
}

/// The round as the caller sees it, from a complete pairing and the bye with the bots passed
/// over for it.
fn round(field: &Field, pairing: &Pairing, bye: Option<(usize, &[usize])>) -> SwissRound {
    let layout = &pairing.layout;
    let mut pairs = Vec::with_capacity(layout.members.len() / 2);
    let mut why_pairs = Vec::with_capacity(layout.members.len() / 2);
    let mut total_cost = 0u64;
    let boards = layout.members.iter().filter(|&&a| pairing.mate[a] > a);
    for (board, &a) in boards.enumerate() {
        let b = pairing.mate[a];
        let cost = layout
            .cost(field, a, b)
            .expect("the pairing keeps the rules");
        let (first, second, seat) = seat_order(field, a, b, board);
        let seat_misses = field.seat_misses(first, second);
        let cost = Cost {
            seat_misses,
            ..cost
        };
        let (first, second) = (
            field.bots[first].id.to_string(),
            field.bots[second].id.to_string(),
        );
        total_cost = total_cost.saturating_add(cost.total());
        why_pairs.push(PairWhy {
            first: first.clone(),
            second: second.clone(),
            cost: cost.total(),
            score_gap: cost.score_gap,
            seat_misses,
            seat,
            offset: cost.offset,
            rating_gap: cost.rating_gap,
            by_fallback: pairing.block_mate[a] != b,
        });
        pairs.push((first, second));
    }
    let groups = layout
        .groups
        .iter()
        .map(|range| ScoreGroup {
            points: field.bots[layout.members[range.start]].points,
            members: layout.members[range.clone()]
                .iter()
                .map(|&b| field.bots[b].id.to_string())
                .collect(),
        })
        .collect();
    SwissRound {
        pairs,
        bye: bye.map(|(b, _)| field.bots[b].id.to_string()),
        why: Why {
            groups,
            pairs: why_pairs,
            bye: bye.map(|(b, passed_over)| bye_reason(field, b, passed_over)),
            total_cost,
        },
    }
}

/// The seat order of `a` (the higher-ranked) and `b` on `board` (from 0): first, second, and
/// why.
fn seat_order(field: &Field, a: usize, b: usize, board: usize) -> (usize, usize, String) {
    if field.paired_games {
        return (
            a,
            b,
            "paired games: one game in each seat order, the higher-ranked first in the first game"
                .to_string(),
        );
    }
    let (ia, ib) = (field.bots[a].id, field.bots[b].id);
    let (sa, sb) = (field.bots[a].seats, field.bots[b].seats);
    let state = format!("`{ia}` {}; `{ib}` {}", sa.describe(), sb.describe());
    let (first, second, verdict) = match field.orders(a, b) {
        (true, false) => (a, b, None),
        (false, true) => (b, a, None),
        _ => match field.seat_misses(a, b).cmp(&field.seat_misses(b, a)) {
            Ordering::Less => (a, b, None),
            Ordering::Greater => (b, a, None),
            // Equal misses with both orders open: both are due the same seat, or neither has
            // played.
            Ordering::Equal => match sa.due() {
                Some(Seat::First) => (
                    a,
                    b,
                    Some("both are due the same seat; the higher-ranked gets it".to_string()),
                ),
                Some(Seat::Second) => (
                    b,
                    a,
                    Some("both are due the same seat; the higher-ranked gets it".to_string()),
                ),
                None => {
                    let higher_first = (field.seed ^ board as u64) & 1 == 0;
                    let verdict = format!(
                        "on board {} the higher-ranked sits {} (the seed's parity, alternating \
                         down the boards)",
                        board + 1,
                        if higher_first { "first" } else { "second" }
                    );
                    if higher_first {
                        (a, b, Some(verdict))
                    } else {
                        (b, a, Some(verdict))
                    }
                }
            },
        },
    };
    let head = format!("`{}` first", field.bots[first].id);
    match verdict {
        Some(verdict) => (first, second, format!("{head}: {state}; {verdict}")),
        None => (first, second, format!("{head}: {state}")),
    }
}

/// Why `bye` sits out, given the bots considered before it and passed over.
fn bye_reason(field: &Field, bye: usize, passed_over: &[usize]) -> String {
    let bot = &field.bots[bye];
    let byes = match bot.byes {
        0 => "no bye yet".to_string(),
        1 => "1 bye".to_string(),
        k => format!("{k} byes"),
    };
    let head = format!(
        "`{}`, ranked {} of {}, has had {byes}",
        bot.id,
        bye + 1,
        field.bots.len()
    );
    if passed_over.is_empty() {
        if bot.byes == 0 {
            format!("{head}: the lowest-ranked bot without a bye")
        } else {
            format!(
                "{head}: every bot has had a bye, and it is the lowest-ranked of those with the fewest"
            )
        }
    } else {
        format!(
            "{head}: the first bot, from the fewest byes and the lowest rank up, whose bye leaves \
             the others pairable within the rules; passed over: {} (with any of them sitting out, \
             the others could not all be paired)",
            field.names(passed_over)
        )
    }
}

#[cfg(test)]
#[path = "swiss_tests.rs"]
mod tests;
