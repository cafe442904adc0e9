//! Standings: each bot's points and tie-breaks after the rounds so far, and its rank.
//!
//! # Points
//!
//! Points are half-points throughout: a win scores [`WIN`] (2), a draw [`DRAW`] (1), a loss 0,
//! and a bye the event's `bye_points`. A game whose outcome is not known yet scores nothing
//! and counts for nothing below: the standings are those of the games that have ended. When
//! neither bot came ([`Outcome::NeitherCame`]) both lose: it counts among their losses, scores
//! them 0 and, for tie-breaks, is a round they did not play. A win because the other bot never
//! came is recorded as [`Outcome::FirstWon`] or [`Outcome::SecondWon`] and counts here as a game
//! won and lost on the board: the record does not tell it apart.
//!
//! # Unplayed rounds
//!
//! A round a bot did not play — its bye, a game neither bot came to, or a round it is in
//! neither as a seat nor as the bye (it joined later or left) — counts for Buchholz and
//! Sonneborn-Berger as a game against a virtual opponent whose points are the bot's own final
//! points, in which the bot scored what it got in that round (`bye_points` for a bye, 0
//! otherwise). This is the approach of FIDE's 2023 tie-break regulations (a "dummy" opponent
//! with the participant's own points), simplified: FIDE also adjusts the points of an opponent
//! that had unplayed rounds before they count towards others' Buchholz; these standings use
//! every opponent's points as they are. Pass only rounds that have been paired: a round given
//! with none of its games would count as unplayed for everyone.
//!
//! # Tie-breaks
//!
//! Each is a whole number, higher is better:
//!
//! - [`TieBreak::Buchholz`]: the sum of the bot's opponents' points, one term per game with a
//!   known outcome and one per unplayed round (see above). In half-points.
//! - [`TieBreak::BuchholzCut1`]: the same less its single lowest term (0 with no terms).
//! - [`TieBreak::SonnebornBerger`]: the sum over the same terms of the opponent's points times
//!   what the bot scored against it, so a win counts its opponent's points twice and a draw
//!   once. In half-points × half-points: four times the value counted in whole points.
//! - [`TieBreak::DirectEncounter`]: among the bots level with this one on points and on every
//!   tie-break listed before this one, the points it scored in its games against them, if every
//!   two of them met in a game played on the board; otherwise 0 for each of them, as for a bot
//!   level with no one. In half-points. FIDE's rule goes further: when not all of the tied bots
//!   met, a bot that has met all the others still ranks first if no one else could catch its
//!   score, and the rule is applied again to those it leaves tied; these standings do neither.
//! - [`TieBreak::Wins`]: games won on the board (byes are not wins).
//!
//! # Order
//!
//! Bots are ordered by points, then by each tie-break in the event's order, all highest
//! first. Bots equal on all of them share a rank, one more than the number of bots strictly
//! ahead of them (two bots sharing first place are both 1, the next is 3), and are listed among
//! themselves by id. The standings depend on the entrants and rounds given, not on the order
//! of games within a round.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::{DRAW, Entrant, Outcome, Round, WIN};

/// A way to separate bots level on points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    Buchholz,
    BuchholzCut1,
    SonnebornBerger,
    DirectEncounter,
    Wins,
}

/// One bot's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub id: String,
    /// From 1; shared by bots equal on points and every tie-break.
    pub rank: u32,
    /// In half-points, byes included.
    pub points: u32,
    /// Games played on the board: won, drawn or lost (not byes, not games neither bot came to).
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    /// Games lost, games neither bot came to included.
    pub losses: u32,
    pub byes: u32,
    /// One value per tie-break, in the order asked for.
    pub tiebreaks: Vec<i64>,
}

/// The standings of `entrants` after `rounds`, best first, with the tie-breaks of `order`; a
/// bye is worth `bye_points` half-points. Ids are taken to be unique (a repeated entrant is
/// listed once); games against a bot not among the entrants count for its opponent, with the
/// points that bot scored in `rounds`.
pub fn standings(
    entrants: &[Entrant],
    rounds: &[Round],
    order: &[TieBreak],
    bye_points: u32,
) -> Vec<Standing> {
    let mut table = Table::default();
    for entrant in entrants {
        table.slot(&entrant.id);
    }
    let listed = table.records.len();
    for round in rounds {
        table.add_round(round, bye_points, listed);
    }

    let points: Vec<u32> = table.records.iter().map(|r| r.points).collect();
    let mut columns: Vec<Vec<i64>> = Vec::with_capacity(order.len());
    for &tie_break in order {
        let column = (0..listed)
            .map(|i| {
                let record = &table.records[i];
                match tie_break {
                    TieBreak::Buchholz => table.buchholz(i, &points).sum(),
                    TieBreak::BuchholzCut1 => {
                        let terms: Vec<i64> = table.buchholz(i, &points).collect();
                        terms.iter().sum::<i64>() - terms.iter().min().copied().unwrap_or(0)
                    }
                    TieBreak::SonnebornBerger => table.sonneborn_berger(i, &points),
                    TieBreak::Wins => i64::from(record.wins),
                    // Filled in below, once the bots level so far are known.
                    TieBreak::DirectEncounter => 0,
                }
            })
            .collect();
        columns.push(column);
        if tie_break == TieBreak::DirectEncounter {
            let before = columns.len() - 1;
            let column = table.direct_encounter(listed, &points, &columns[..before]);
            columns[before] = column;
        }
    }

    let key = |i: usize| -> (u32, Vec<i64>) { (points[i], columns.iter().map(|c| c[i]).collect()) };
    let keys: Vec<(u32, Vec<i64>)> = (0..listed).map(key).collect();
    let mut ranked: Vec<usize> = (0..listed).collect();
    ranked.sort_by(|&a, &b| {
        keys[b]
            .cmp(&keys[a])
            .then_with(|| table.ids[a].cmp(&table.ids[b]))
    });

    let mut standings = Vec::with_capacity(listed);
    let mut rank = 0;
    for (place, &i) in ranked.iter().enumerate() {
        if place == 0 || keys[ranked[place - 1]] != keys[i] {
            rank = place as u32 + 1;
        }
        let record = &table.records[i];
        standings.push(Standing {
            id: table.ids[i].clone(),
            rank,
            points: record.points,
            played: record.played,
            wins: record.wins,
            draws: record.draws,
            losses: record.losses,
            byes: record.byes,
            tiebreaks: keys[i].1.clone(),
        });
    }
    standings
}

/// One bot's results so far.
#[derive(Default)]
struct Record {
    points: u32,
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    byes: u32,
    /// Each game played on the board: the opponent's slot and what this bot scored.
    games: Vec<(usize, u32)>,
    /// What the bot scored in each round it did not play.
    unplayed: Vec<u32>,
}

/// Every bot's record, by slot: the entrants first, then any other bot the rounds name.
#[derive(Default)]
struct Table {
    ids: Vec<String>,
    slots: HashMap<String, usize>,
    records: Vec<Record>,
    /// What `a` scored against `b` in games played on the board, keyed `(a, b)`.
    between: HashMap<(usize, usize), u32>,
}

impl Table {
    fn slot(&mut self, id: &str) -> usize {
        if let Some(&slot) = self.slots.get(id) {
            return slot;
        }
        let slot = self.ids.len();
        self.ids.push(id.to_owned());
        self.slots.insert(id.to_owned(), slot);
        self.records.push(Record::default());
        slot
    }

    /// Adds one round; entrants (the first `listed` slots) absent from it get an unplayed round.
    fn add_round(&mut self, round: &Round, bye_points: u32, listed: usize) {
        let mut present = vec![false; listed];
        for game in &round.games {
            let seats = [self.slot(&game.first), self.slot(&game.second)];
            for &slot in &seats {
                if let Some(seen) = present.get_mut(slot) {
                    *seen = true;
                }
            }
            let Some(outcome) = game.outcome else {
                continue;
            };
            for seat in 0..2 {
                let (me, opponent) = (seats[seat], seats[1 - seat]);
                let scored = outcome.points(seat);
                let record = &mut self.records[me];
                record.points += scored;
                if outcome == Outcome::NeitherCame {
                    record.losses += 1;
                    record.unplayed.push(0);
                    continue;
                }
                record.played += 1;
                match scored {
                    WIN => record.wins += 1,
                    DRAW => record.draws += 1,
                    _ => record.losses += 1,
                }
                record.games.push((opponent, scored));
                *self.between.entry((me, opponent)).or_default() += scored;
            }
        }
        if let Some(bye) = &round.bye {
            let slot = self.slot(bye);
            if let Some(seen) = present.get_mut(slot) {
                *seen = true;
            }
            let record = &mut self.records[slot];
            record.points += bye_points;
            record.byes += 1;
            record.unplayed.push(bye_points);
        }
        for (slot, seen) in present.into_iter().enumerate() {
            if !seen {
                self.records[slot].unplayed.push(0);
            }
        }
    }

    /// Bot `i`'s Buchholz terms: each opponent's points, and its own for each unplayed round.
    fn buchholz<'a>(&'a self, i: usize, points: &'a [u32]) -> impl Iterator<Item = i64> + 'a {
        let record = &self.records[i];
        let played = record.games.iter().map(|&(o, _)| i64::from(points[o]));
        let unplayed = record.unplayed.iter().map(move |_| i64::from(points[i]));
        played.chain(unplayed)
    }

    fn sonneborn_berger(&self, i: usize, points: &[u32]) -> i64 {
        let record = &self.records[i];
        let played = record
            .games
            .iter()
            .map(|&(o, scored)| i64::from(points[o]) * i64::from(scored));
        let unplayed = record
            .unplayed
            .iter()
            .map(|&scored| i64::from(points[i]) * i64::from(scored));
        played.chain(unplayed).sum()
    }

    /// The direct-encounter column for the first `listed` slots, given the columns before it.
    fn direct_encounter(&self, listed: usize, points: &[u32], before: &[Vec<i64>]) -> Vec<i64> {
        let level =
            |i: usize| -> (u32, Vec<i64>) { (points[i], before.iter().map(|c| c[i]).collect()) };
        let mut groups: HashMap<(u32, Vec<i64>), Vec<usize>> = HashMap::new();
        for i in 0..listed {
            groups.entry(level(i)).or_default().push(i);
        }
        let mut column = vec![0; listed];
        for group in groups.values().filter(|g| g.len() > 1) {
            let all_met = group.iter().all(|&a| {
                group
                    .iter()
                    .all(|&b| a == b || self.between.contains_key(&(a, b)))
            });
            if !all_met {
                continue;
            }
            for &a in group {
                column[a] = group
                    .iter()
                    .filter_map(|&b| self.between.get(&(a, b)))
                    .map(|&scored| i64::from(scored))
                    .sum();
            }
        }
        column
    }
}

#[cfg(test)]
#[path = "standings_tests.rs"]
mod tests;
