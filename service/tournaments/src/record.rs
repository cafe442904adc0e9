//! An event's record: everything its pairings were made from, as a JSON document (format
//! `pitchmate-tournament/1`, described in the project's docs/leagues.md), and [`verify`], which
//! pairs every round again from the record alone and reports each round that comes out
//! differently.
//!
//! Each round's record holds what its pairing was given and could not derive from earlier
//! rounds: the field (who was to be paired), the games of earlier rounds still under way then
//! (their outcomes were unknown to it), and, for a ladder wave, the pairing's whole input. The
//! rest (scores, meetings, seats) is derived from the earlier rounds' games, so a record whose
//! results were edited re-pairs differently from that round on.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::ladder::{self, LadderBot, LadderRules};
use crate::standings::{Standing, TieBreak};
use crate::{Entrant, Game, Outcome, Round, berger, swiss};

/// The format this module writes and reads.
pub const FORMAT: &str = "pitchmate-tournament/1";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
    Ladder,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::RoundRobin => "round_robin",
            Kind::DoubleRoundRobin => "double_round_robin",
            Kind::Swiss => "swiss",
            Kind::Ladder => "ladder",
        }
    }

    /// Whether it is played in rounds that everyone plays at once (not a ladder's waves).
    pub fn has_rounds(self) -> bool {
        self != Kind::Ladder
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub format: String,
    pub tournament_id: String,
    pub name: String,
    pub kind: Kind,
    pub seed: u64,
    /// A Swiss event's rounds, a round robin's; `None` for a ladder.
    pub rounds_planned: Option<u32>,
    pub tie_breaks: Vec<TieBreak>,
    /// Pairs that may never meet.
    pub forbidden: Vec<(String, String)>,
    /// Each pairing played two games, its first and its return game with the seats swapped
    /// (listed one after the other).
    #[serde(default)]
    pub paired_games: bool,
    /// Every entry, with the rating it entered with.
    pub entrants: Vec<RecordEntrant>,
    pub rounds: Vec<RecordRound>,
    /// As computed when exported; not read by [`verify`].
    pub standings: Vec<Standing>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordEntrant {
    pub id: String,
    pub rating: i32,
    /// The first round it could be paired in.
    pub first_round: u32,
    /// `active`, `paused` or `withdrawn`, when exported.
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRound {
    pub number: u32,
    /// Who was to be paired (a round robin: the Berger order).
    pub field: Vec<String>,
    /// Earlier games still under way when it was paired, by match id.
    pub pending: Vec<String>,
    /// In board order.
    pub games: Vec<RecordGame>,
    pub bye: Option<String>,
    /// A ladder wave's input to its pairing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ladder: Vec<LadderBot>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordGame {
    pub match_id: String,
    pub first: String,
    pub second: String,
    /// `None` while under way.
    pub outcome: Option<Outcome>,
}

/// A round that re-paired differently from its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrepancy {
    pub round: u32,
    /// What re-pairing gives.
    pub expected: String,
    /// What the record says.
    pub recorded: String,
}

/// What one round re-pairs to: the pairs (first seat first, board order) and the bye.
type Pairing = (Vec<(String, String)>, Option<String>);

impl Record {
    /// The rounds before round `index` (0-based), with the outcomes of `hidden` matches unknown.
    fn history(&self, index: usize, hidden: &BTreeSet<&str>) -> Vec<Round> {
        self.rounds[..index]
            .iter()
            .map(|round| Round {
                number: round.number,
                games: round
                    .games
                    .iter()
                    .map(|g| Game {
                        first: g.first.clone(),
                        second: g.second.clone(),
                        outcome: g.outcome.filter(|_| !hidden.contains(g.match_id.as_str())),
                    })
                    .collect(),
                bye: round.bye.clone(),
            })
            .collect()
    }

    /// A ladder wave's recorded input against what the waves before it give: each bot's
    /// games (after the credit it entered with, its `games` in the first wave that had it),
    /// points from the results known then, first seats, last opponent, and whether it was idle.
    fn check_ladder_input(&self, index: usize) -> Result<(), String> {
        let round = &self.rounds[index];
        let hidden: BTreeSet<&str> = round.pending.iter().map(String::as_str).collect();
        let history = self.history(index, &hidden);
        for bot in &round.ladder {
            let credit = self.rounds[..=index]
                .iter()
                .find_map(|r| r.ladder.iter().find(|b| b.id == bot.id))
                .map_or(0, |first| first.games);
            let (mut games, mut points, mut firsts) = (credit, 0, 0);
            let mut last_opponent = None;
            for game in history.iter().flat_map(|r| &r.games) {
                let seat = if game.first == bot.id {
                    0
                } else if game.second == bot.id {
                    1
                } else {
                    continue;
                };
                games += 1;
                firsts += u32::from(seat == 0);
                points += game.outcome.map_or(0, |o| o.points(seat));
                last_opponent = Some(if seat == 0 { &game.second } else { &game.first });
            }
            let busy = self.rounds[..index].iter().flat_map(|r| &r.games).any(|g| {
                hidden.contains(g.match_id.as_str()) && (g.first == bot.id || g.second == bot.id)
            });
            let derived = (games, points, firsts, last_opponent.cloned(), !busy);
            let recorded = (
                bot.games,
                bot.points,
                bot.firsts,
                bot.last_opponent.clone(),
                bot.idle,
            );
            if derived != recorded {
                return Err(format!(
                    "the wave's input for `{}` (games, points, first seats, last opponent, \
                     idle) is {recorded:?}, but the waves before it give {derived:?}",
                    bot.id
                ));
            }
        }
        Ok(())
    }

    /// Round `index` paired again from the record.
    fn repair(&self, index: usize) -> Result<Pairing, String> {
        let round = &self.rounds[index];
        let ratings: BTreeMap<&str, i32> = self
            .entrants
            .iter()
            .map(|e| (e.id.as_str(), e.rating))
            .collect();
        let entrant = |id: &String| -> Result<Entrant, String> {
            ratings
                .get(id.as_str())
                .map(|&rating| Entrant {
                    id: id.clone(),
                    rating,
                })
                .ok_or_else(|| format!("`{id}` is in the field but not an entrant"))
        };
        match self.kind {
            Kind::RoundRobin | Kind::DoubleRoundRobin => {
                let first = &self.rounds[0].field;
                if index == 0 {
                    let entrants = first.iter().map(entrant).collect::<Result<Vec<_>, _>>()?;
                    let order = berger::order(&entrants, self.seed);
                    if &order != first {
                        return Err(format!(
                            "the Berger order drawn by the seed is {order:?}, not {first:?}"
                        ));
                    }
                }
                if &round.field != first {
                    return Err("a round robin's field is its first round's".into());
                }
                Ok(berger::round(
                    first,
                    round.number,
                    self.kind == Kind::DoubleRoundRobin,
                ))
            }
            Kind::Swiss => {
                let field = round
                    .field
                    .iter()
                    .map(entrant)
                    .collect::<Result<Vec<_>, _>>()?;
                let hidden: BTreeSet<&str> = round.pending.iter().map(String::as_str).collect();
                let history = self.history(index, &hidden);
                let request = swiss::SwissRequest {
                    seed: self.seed,
                    number: round.number,
                    field: &field,
                    history: &history,
                    forbidden: &self.forbidden,
                    paired_games: self.paired_games,
                };
                swiss::pair(&request)
                    .map(|paired| (paired.pairs, paired.bye))
                    .map_err(|e| e.to_string())
            }
            Kind::Ladder => {
                self.check_ladder_input(index)?;
                let wave = ladder::pair(&round.ladder, self.seed, &LadderRules::default());
                Ok((wave.pairs, None))
            }
        }
    }
}

fn describe(pairs: &[(String, String)], bye: &Option<String>) -> String {
    let mut text = pairs
        .iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(bye) = bye {
        text.push_str(&format!(" bye {bye}"));
    }
    text
}

/// The pairs a round's games record (with paired games, every first game, each followed by its
/// return game), and a game that breaks that pattern, if any.
fn recorded_pairs<'a>(
    record: &Record,
    round: &'a RecordRound,
) -> (Vec<(String, String)>, Option<&'a RecordGame>) {
    if !record.paired_games {
        let pairs = round
            .games
            .iter()
            .map(|g| (g.first.clone(), g.second.clone()))
            .collect();
        return (pairs, None);
    }
    let mut pairs = Vec::new();
    for legs in round.games.chunks(2) {
        match legs {
            [first, back] if first.first == back.second && first.second == back.first => {
                pairs.push((first.first.clone(), first.second.clone()));
            }
            [first, ..] => return (pairs, Some(first)),
            [] => {}
        }
    }
    (pairs, None)
}

/// Re-pairs every round of `record` from the record alone; each round that differs from what
/// was recorded (or cannot be re-paired) is a discrepancy. Empty: the record is consistent.
pub fn verify(record: &Record) -> Vec<Discrepancy> {
    let mut discrepancies = Vec::new();
    if record.format != FORMAT {
        discrepancies.push(Discrepancy {
            round: 0,
            expected: format!("format {FORMAT}"),
            recorded: format!("format {}", record.format),
        });
        return discrepancies;
    }
    for (index, round) in record.rounds.iter().enumerate() {
        if round.number as usize != index + 1 {
            discrepancies.push(Discrepancy {
                round: round.number,
                expected: format!("round number {}", index + 1),
                recorded: format!("round number {}", round.number),
            });
            continue;
        }
        let (recorded, unmatched) = recorded_pairs(record, round);
        if let Some(game) = unmatched {
            discrepancies.push(Discrepancy {
                round: round.number,
                expected: "each first game followed by its return game, seats swapped".into(),
                recorded: format!("{}-{} out of its place", game.first, game.second),
            });
            continue;
        }
        let recorded_text = describe(&recorded, &round.bye);
        match record.repair(index) {
            Ok((pairs, bye)) if pairs == recorded && bye == round.bye => {}
            Ok((pairs, bye)) => discrepancies.push(Discrepancy {
                round: round.number,
                expected: describe(&pairs, &bye),
                recorded: recorded_text,
            }),
            Err(error) => discrepancies.push(Discrepancy {
                round: round.number,
                expected: format!("no pairing: {error}"),
                recorded: recorded_text,
            }),
        }
    }
    discrepancies
}
