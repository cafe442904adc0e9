//! What a tournament does next, decided from what the store holds of it and the time: wait,
//! pair a round (with the round's record), or end. A pure function of its input, so the runner
//! that writes its answer can be crashed and run again anywhere, and the same input always
//! pairs the same round.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use pitchmate_store::{
    EntryRow, EntryState, TournamentGameRow, TournamentRoundRow, TournamentRow, TournamentState,
};
use pitchmate_tournaments::ladder::{self, LadderBot, LadderRules};
use pitchmate_tournaments::{Entrant, Game, Outcome, Round, berger, swiss};

use super::spec::{Kind, Spec};

/// How a tournament game ended, as the store keeps it (never reused).
pub fn outcome_code(outcome: Outcome) -> u32 {
    match outcome {
        Outcome::FirstWon => 1,
        Outcome::SecondWon => 2,
        Outcome::Draw => 3,
        Outcome::NeitherCame => 4,
    }
}

pub fn outcome_from_code(code: u32) -> Option<Outcome> {
    Some(match code {
        1 => Outcome::FirstWon,
        2 => Outcome::SecondWon,
        3 => Outcome::Draw,
        4 => Outcome::NeitherCame,
        _ => return None,
    })
}

/// What a round's row keeps besides its games: who was paired, from what, and why.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundBody {
    /// The bots paired from. For a round robin, every round's field is the Berger order: the
    /// entries when it started, by Berger number.
    pub field: Vec<String>,
    /// Games of earlier rounds still under way when this round was paired, by match id: their
    /// outcomes were not known to the pairing.
    pub pending: Vec<String>,
    /// The pairs made, first seat first, in board order.
    pub pairs: Vec<(String, String)>,
    pub bye: Option<String>,
    /// A ladder's whole input to its pairing (the field holds its idle bots' ids).
    #[serde(default)]
    pub ladder: Vec<LadderBot>,
    /// Why: the Swiss pairing's score groups and costs, or the ladder's pair costs.
    #[serde(default)]
    pub why: serde_json::Value,
}

impl RoundBody {
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a round's record serialises")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        serde_json::from_slice(bytes).map_err(|e| format!("a stored round is unreadable: {e}"))
    }
}

/// A tournament as the store holds it.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub row: TournamentRow,
    pub spec: Spec,
    pub entries: Vec<EntryRow>,
    pub rounds: Vec<(TournamentRoundRow, RoundBody)>,
    pub games: Vec<TournamentGameRow>,
}

/// What to do now.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// Nothing until a result comes in or time passes.
    Wait,
    /// Pair round `number` as `body` says.
    Pair { number: u32, body: RoundBody },
    /// It is over: every round is played, or no more can be paired (`cancelled`: it never had
    /// enough entries to start).
    Finish { reason: String, cancelled: bool },
}

impl Loaded {
    /// The entrants with the ratings they entered with, every entry ever made.
    pub fn entrants(&self) -> Vec<Entrant> {
        self.entries
            .iter()
            .map(|e| Entrant {
                id: e.bot_id.clone(),
                rating: e.rating,
            })
            .collect()
    }

    /// The rounds as played, with outcomes known now except those of `hidden` matches.
    pub fn history(&self, hidden: &BTreeSet<String>) -> Vec<Round> {
        history(&self.rounds, &self.games, hidden)
    }

    /// Games not yet over, by match id.
    pub fn pending(&self) -> Vec<&TournamentGameRow> {
        self.games.iter().filter(|g| g.outcome.is_none()).collect()
    }

    fn active(&self) -> impl Iterator<Item = &EntryRow> {
        self.entries
            .iter()
            .filter(|e| e.state == EntryState::Active)
    }

    /// How many rounds it will have: a Swiss event's, a round robin's once started (from its
    /// field); `None` for a ladder, or a round robin not yet started.
    pub fn rounds_planned(&self) -> Option<u32> {
        match self.spec.kind {
            Kind::Swiss => Some(self.spec.rounds),
            Kind::RoundRobin | Kind::DoubleRoundRobin => self.rounds.first().map(|(_, body)| {
                berger::rounds(body.field.len(), self.spec.kind == Kind::DoubleRoundRobin)
            }),
            Kind::Ladder => None,
        }
    }

    /// What to do at `now` (nanoseconds).
    pub fn next(&self, now: i64) -> Next {
        match self.row.state {
            TournamentState::Finished | TournamentState::Cancelled => Next::Wait,
            TournamentState::Open if now < self.row.starts_nanos => Next::Wait,
            TournamentState::Open => {
                if self.active().count() < 2 {
                    return Next::Finish {
                        reason: "fewer than two entries when it was to start".into(),
                        cancelled: true,
                    };
                }
                match self.spec.kind {
                    Kind::Ladder => self.next_wave(now),
                    _ => self.pair_next(),
                }
            }
            TournamentState::Running => match self.spec.kind {
                Kind::Ladder => self.next_wave(now),
                _ => self.next_round(now),
            },
        }
    }

    fn next_round(&self, now: i64) -> Next {
        let Some((last, _)) = self.rounds.last() else {
            return self.pair_next();
        };
        let all_known = self.pending().is_empty();
        let planned = self.rounds_planned().unwrap_or(0);
        if last.round >= planned {
            return if all_known {
                Next::Finish {
                    reason: format!("all {planned} rounds played"),
                    cancelled: false,
                }
            } else {
                Next::Wait
            };
        }
        let round_done = self
            .games
            .iter()
            .filter(|g| g.round == last.round)
            .all(|g| g.outcome.is_some());
        if round_done || now >= last.deadline_nanos {
            match self.pair_next() {
                // No more rounds can be paired: it ends once the games under way are over.
                Next::Finish { .. } if !all_known => Next::Wait,
                next => next,
            }
        } else {
            Next::Wait
        }
    }

    /// Pairs the round after the last, or says why it cannot be.
    fn pair_next(&self) -> Next {
        let number = self.row.rounds_paired + 1;
        let pending: Vec<String> = self.pending().iter().map(|g| g.match_id.clone()).collect();
        let playing: BTreeSet<&str> = self
            .pending()
            .iter()
            .flat_map(|g| g.bots.iter().map(String::as_str))
            .collect();
        let result = match self.spec.kind {
            Kind::RoundRobin | Kind::DoubleRoundRobin => Ok(self.round_robin(number)),
            Kind::Swiss => {
                let field: Vec<Entrant> = self
                    .active()
                    .filter(|e| e.first_round <= number && !playing.contains(e.bot_id.as_str()))
                    .map(|e| Entrant {
                        id: e.bot_id.clone(),
                        rating: e.rating,
                    })
                    .collect();
                if field.len() < 2 {
                    if !pending.is_empty() {
                        // Its bots are still playing: the round waits for them.
                        return Next::Wait;
                    }
                    return Next::Finish {
                        reason: format!("round {number}: fewer than two bots are left to pair"),
                        cancelled: false,
                    };
                }
                self.swiss(number, field, &pending)
            }
            Kind::Ladder => return Next::Wait,
        };
        match result {
            Ok(mut body) => {
                body.pending = pending;
                Next::Pair { number, body }
            }
            Err(reason) => Next::Finish {
                reason,
                cancelled: false,
            },
        }
    }

    fn round_robin(&self, number: u32) -> RoundBody {
        let double = self.spec.kind == Kind::DoubleRoundRobin;
        // The table is drawn once, over the entries active when it starts.
        let order = match self.rounds.first() {
            Some((_, first)) => first.field.clone(),
            None => {
                let starting: Vec<Entrant> = self
                    .active()
                    .map(|e| Entrant {
                        id: e.bot_id.clone(),
                        rating: e.rating,
                    })
                    .collect();
                berger::order(&starting, self.spec.seed)
            }
        };
        let (pairs, bye) = berger::round(&order, number, double);
        RoundBody {
            field: order,
            pairs,
            bye,
            ..RoundBody::default()
        }
    }

    fn swiss(
        &self,
        number: u32,
        field: Vec<Entrant>,
        pending: &[String],
    ) -> Result<RoundBody, String> {
        let hidden: BTreeSet<String> = pending.iter().cloned().collect();
        let history = self.history(&hidden);
        let request = swiss::SwissRequest {
            seed: self.spec.seed,
            number,
            field: &field,
            history: &history,
            forbidden: self.spec.forbidden_pairs(),
            paired_games: self.spec.paired_games,
        };
        let paired = swiss::pair(&request).map_err(|e| format!("round {number}: {e}"))?;
        Ok(RoundBody {
            field: field.iter().map(|e| e.id.clone()).collect(),
            pairs: paired.pairs,
            bye: paired.bye,
            why: serde_json::to_value(&paired.why).unwrap_or_default(),
            ..RoundBody::default()
        })
    }

    /// A ladder: pairs whoever is idle now, or ends once no more games will be paired and the
    /// last is over.
    fn next_wave(&self, now: i64) -> Next {
        let closed = self.spec.ends_nanos.is_some_and(|end| now >= end);
        let bots = self.ladder_bots();
        let cap = self.spec.ladder_games_per_bot;
        let nobody = self.active().next().is_none();
        if closed || nobody || bots.iter().all(|b| b.games >= cap && cap > 0) {
            return if self.pending().is_empty() {
                Next::Finish {
                    reason: if closed {
                        "the ladder's end time came".into()
                    } else if nobody {
                        "no active entries are left".into()
                    } else {
                        format!("every bot played its {cap} games")
                    },
                    cancelled: false,
                }
            } else {
                Next::Wait
            };
        }
        let rules = LadderRules::default();
        let wave = ladder::pair(&bots, self.spec.seed, &rules);
        if wave.pairs.is_empty() {
            // Every bot idle and still none may play: the bots with games left have only their
            // last opponents, or bots with no games left, to play. Nothing changes that in a
            // ladder with a set number of games; one without waits for new entries.
            if cap > 0 && self.pending().is_empty() {
                return Next::Finish {
                    reason: format!(
                        "no more games can be paired: no bot short of {cap} games has an \
                         opponent it may play"
                    ),
                    cancelled: false,
                };
            }
            return Next::Wait;
        }
        Next::Pair {
            number: self.row.rounds_paired + 1,
            body: RoundBody {
                field: bots
                    .iter()
                    .filter(|b| b.idle)
                    .map(|b| b.id.clone())
                    .collect(),
                pending: self.pending().iter().map(|g| g.match_id.clone()).collect(),
                pairs: wave.pairs,
                bye: None,
                why: serde_json::to_value(&wave.why).unwrap_or_default(),
                ladder: bots,
            },
        }
    }

    /// The ladder's input: every active entry that has games left, with its games, points,
    /// seats and last opponent; idle when it has no game under way. A bot that enters a ladder
    /// under way is credited with the fewest games of the bots already in it, so it neither
    /// holds the others back nor races past them (see [`ladder_credit`]).
    fn ladder_bots(&self) -> Vec<LadderBot> {
        let cap = self.spec.ladder_games_per_bot;
        let credit = ladder_credit(&self.rounds);
        let mut stats: BTreeMap<&str, LadderBot> = BTreeMap::new();
        for entry in self.active() {
            stats.insert(
                &entry.bot_id,
                LadderBot {
                    id: entry.bot_id.clone(),
                    rating: entry.rating,
                    points: 0,
                    games: credit.get(entry.bot_id.as_str()).copied().unwrap_or(0),
                    firsts: 0,
                    last_opponent: None,
                    idle: true,
                    idle_since: u64::try_from(entry.joined_nanos).unwrap_or(0),
                },
            );
        }
        for game in &self.games {
            for seat in 0..2 {
                let Some(bot) = stats.get_mut(game.bots[seat].as_str()) else {
                    continue;
                };
                bot.games += 1;
                if seat == 0 {
                    bot.firsts += 1;
                }
                bot.last_opponent = Some(game.bots[1 - seat].clone());
                match (game.outcome.and_then(outcome_from_code), game.ended_nanos) {
                    (Some(outcome), Some(ended)) => {
                        bot.points += outcome.points(seat);
                        bot.idle_since = bot.idle_since.max(u64::try_from(ended).unwrap_or(0));
                    }
                    _ => bot.idle = false,
                }
            }
        }
        let fewest = stats
            .values()
            .filter(|b| credit.contains_key(b.id.as_str()))
            .map(|b| b.games)
            .min()
            .unwrap_or(0);
        for bot in stats.values_mut() {
            if !credit.contains_key(bot.id.as_str()) {
                bot.games = fewest;
            }
        }
        // A bot that has played its games is out, unless a game of its is still under way.
        stats
            .into_values()
            .filter(|b| cap == 0 || b.games < cap || !b.idle)
            .collect()
    }
}

/// What each ladder bot was credited with when it first entered a wave's input: its `games`
/// there (it had played none yet). Read back from the waves' records, so re-pairing credits
/// the same.
fn ladder_credit(rounds: &[(TournamentRoundRow, RoundBody)]) -> BTreeMap<&str, u32> {
    let mut credit = BTreeMap::new();
    for (_, body) in rounds {
        for bot in &body.ladder {
            credit.entry(bot.id.as_str()).or_insert(bot.games);
        }
    }
    credit
}

/// The rounds as played, from the stored rows: each round's games in board order (as its
/// record lists its pairs), outcomes known except those of `hidden` matches.
pub fn history(
    rounds: &[(TournamentRoundRow, RoundBody)],
    games: &[TournamentGameRow],
    hidden: &BTreeSet<String>,
) -> Vec<Round> {
    let mut by_round: BTreeMap<u32, Vec<&TournamentGameRow>> = BTreeMap::new();
    for game in games {
        by_round.entry(game.round).or_default().push(game);
    }
    rounds
        .iter()
        .map(|(row, body)| {
            let mut games: Vec<Game> = by_round
                .get(&row.round)
                .map(|games| {
                    games
                        .iter()
                        .map(|g| Game {
                            first: g.bots[0].clone(),
                            second: g.bots[1].clone(),
                            outcome: if hidden.contains(&g.match_id) {
                                None
                            } else {
                                g.outcome.and_then(outcome_from_code)
                            },
                        })
                        .collect()
                })
                .unwrap_or_default();
            // By board, and a pairing's return game (seats swapped) after its first.
            let board = |g: &Game| {
                body.pairs
                    .iter()
                    .enumerate()
                    .find_map(|(board, (a, b))| {
                        if *a == g.first && *b == g.second {
                            Some((board, 0))
                        } else if *a == g.second && *b == g.first {
                            Some((board, 1))
                        } else {
                            None
                        }
                    })
                    .unwrap_or((usize::MAX, 0))
            };
            games.sort_by_key(board);
            Round {
                number: row.round,
                games,
                bye: body.bye.clone(),
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
