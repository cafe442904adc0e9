//! Action notation and position notation.
//!
//! Actions: `c2-c3` (MOVE), `sprint c2-c4`, `pass c2-c4`, `long c2-c5`, `long c2-c4-f4`
//! (curved through c4), `dribble c2-d3`, `challenge c2-d3`, `shoot e13-d16`,
//! `longshoot e10-d16`, `longshoot e10-e11-d16`, `freekick e12-e16`, `penalty e8`,
//! `sendoff c2`, `end`; lineup: `default`, `formation 4-3-3`, `c2=L`, `place c2-c4`,
//! `confirm`.
//!
//! Positions: `h:Kd1,Dc2,LDd3;a:Kd16,...;ball:e8;to:h;score:0-0;fouls:0-0;sprints:0-0;half:1;
//! played:0`. A piece is its role letter, the slot letter for specials, then its square
//! (`~N` after it when resting: it comes back at its team's N-th turn start from now; `-`
//! instead of a square when sent off), then
//! optional attributes `[speed.skill.strength.goal.defense]`.

use std::fmt;
use std::str::FromStr;

use crate::game::{RuleError, Seat};
use crate::geometry::Square;

use super::actions::Action;
use super::geometry::{in_own_half, kick_off_square, on_board};
use super::lineup::{
    Attributes, Formation, LineupProgress, Piece, Role, Special, Status, check_custom_team,
    piece_id,
};
use super::{AWAY, Ball, HOME, Phase, XFutebol};

fn special_letter(special: Special) -> char {
    special.role().symbol()
}

impl Action {
    /// The notation, its parts pushed into one buffer rather than through the formatting
    /// machinery: a listing writes a hundred or more. [`fmt::Display`] writes the same.
    pub fn notation(&self) -> String {
        let mut text = String::with_capacity(16);
        match self {
            Action::DefaultLineup => text.push_str("default"),
            Action::Formation(formation) => {
                text.push_str("formation ");
                text.push_str(formation.name());
            }
            Action::AssignSpecial { at, special } => {
                at.push_name(&mut text);
                text.push('=');
                text.push(special_letter(*special));
            }
            Action::Place { from, to } => squares_text(&mut text, "place ", &[*from, *to]),
            Action::ConfirmLineup => text.push_str("confirm"),
            Action::Move { from, to } => squares_text(&mut text, "", &[*from, *to]),
            Action::Sprint { from, to } => squares_text(&mut text, "sprint ", &[*from, *to]),
            Action::Pass { from, to } => squares_text(&mut text, "pass ", &[*from, *to]),
            Action::LongPass { from, via, to } => match via {
                Some(via) => squares_text(&mut text, "long ", &[*from, *via, *to]),
                None => squares_text(&mut text, "long ", &[*from, *to]),
            },
            Action::Dribble { from, to } => squares_text(&mut text, "dribble ", &[*from, *to]),
            Action::Challenge { from, target } => {
                squares_text(&mut text, "challenge ", &[*from, *target]);
            }
            Action::Shoot { from, goal } => squares_text(&mut text, "shoot ", &[*from, *goal]),
            Action::LongShoot { from, via, goal } => match via {
                Some(via) => squares_text(&mut text, "longshoot ", &[*from, *via, *goal]),
                None => squares_text(&mut text, "longshoot ", &[*from, *goal]),
            },
            Action::FreeKick { from, goal } => {
                squares_text(&mut text, "freekick ", &[*from, *goal]);
            }
            Action::Penalty { kicker } => squares_text(&mut text, "penalty ", &[*kicker]),
            Action::SendOff { at } => squares_text(&mut text, "sendoff ", &[*at]),
            Action::EndTurn => text.push_str("end"),
        }
        text
    }
}

/// Appends `word`, then the squares joined by `-`.
fn squares_text(text: &mut String, word: &str, squares: &[Square]) {
    text.push_str(word);
    for (i, square) in squares.iter().enumerate() {
        if i > 0 {
            text.push('-');
        }
        square.push_name(text);
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

fn square(text: &str) -> Result<Square, RuleError> {
    Square::parse(text)
        .filter(|s| on_board(*s))
        .ok_or_else(|| RuleError::malformed(format!("`{text}` is not a square from a1 to h16")))
}

/// `a-b` or `a-b-c` into squares.
fn squares(text: &str, allowed: &[usize]) -> Result<Vec<Square>, RuleError> {
    let parts: Vec<&str> = text.split('-').collect();
    if !allowed.contains(&parts.len()) {
        return Err(RuleError::malformed(format!(
            "`{text}` should be {} squares joined by `-`",
            allowed
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" or ")
        )));
    }
    parts.into_iter().map(square).collect()
}

impl FromStr for Action {
    type Err = RuleError;

    fn from_str(text: &str) -> Result<Self, RuleError> {
        let text = text.trim();
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        let rest = rest.trim();
        let pair = |rest: &str| -> Result<(Square, Square), RuleError> {
            let s = squares(rest, &[2])?;
            Ok((s[0], s[1]))
        };
        let curve = |rest: &str| -> Result<(Square, Option<Square>, Square), RuleError> {
            let s = squares(rest, &[2, 3])?;
            Ok(match s.len() {
                2 => (s[0], None, s[1]),
                _ => (s[0], Some(s[1]), s[2]),
            })
        };
        let action = match word {
            "default" if rest.is_empty() => Action::DefaultLineup,
            "confirm" if rest.is_empty() => Action::ConfirmLineup,
            "end" if rest.is_empty() => Action::EndTurn,
            "formation" => Action::Formation(Formation::from_name(rest).ok_or_else(|| {
                RuleError::malformed(format!("unknown formation `{rest}`; use 4-3-3 or 5-3-2"))
            })?),
            "place" => {
                let (from, to) = pair(rest)?;
                Action::Place { from, to }
            }
            "sprint" => {
                let (from, to) = pair(rest)?;
                Action::Sprint { from, to }
            }
            "pass" => {
                let (from, to) = pair(rest)?;
                Action::Pass { from, to }
            }
            "long" => {
                let (from, via, to) = curve(rest)?;
                Action::LongPass { from, via, to }
            }
            "dribble" => {
                let (from, to) = pair(rest)?;
                Action::Dribble { from, to }
            }
            "challenge" => {
                let (from, target) = pair(rest)?;
                Action::Challenge { from, target }
            }
            "shoot" => {
                let (from, goal) = pair(rest)?;
                Action::Shoot { from, goal }
            }
            "longshoot" => {
                let (from, via, goal) = curve(rest)?;
                Action::LongShoot { from, via, goal }
            }
            "freekick" => {
                let (from, goal) = pair(rest)?;
                Action::FreeKick { from, goal }
            }
            "penalty" => Action::Penalty {
                kicker: square(rest)?,
            },
            "sendoff" => Action::SendOff { at: square(rest)? },
            _ if rest.is_empty() && word.contains('=') => {
                let (at, letter) = word.split_once('=').expect("checked");
                let special = match letter {
                    "R" => Special::Dribbler,
                    "G" => Special::Goaler,
                    "L" => Special::LongExpert,
                    _ => {
                        return Err(RuleError::malformed(format!(
                            "`{letter}` is no special; use R (Dribbler), G (Goaler) or L (Long \
                             Expert)"
                        )));
                    }
                };
                Action::AssignSpecial {
                    at: square(at)?,
                    special,
                }
            }
            _ if rest.is_empty() && word.contains('-') => {
                let (from, to) = pair(word)?;
                Action::Move { from, to }
            }
            _ => {
                return Err(RuleError::malformed(format!(
                    "cannot read `{text}`; actions look like `c2-c3`, `sprint c2-c4`, `pass \
                     c2-c4`, `long c2-c5`, `dribble c2-d3`, `challenge c2-d3`, `shoot \
                     e13-d16`, `longshoot e10-d16`, `freekick e12-e16`, `penalty e8`, `sendoff \
                     c2`, `end`, `default`, `formation 4-3-3`, `c2=L`, `place c2-c4`, `confirm`"
                )));
            }
        };
        Ok(action)
    }
}

fn pair_text(values: [u32; 2]) -> String {
    format!("{}-{}", values[0], values[1])
}

fn parse_pair(key: &str, text: &str) -> Result<[u32; 2], RuleError> {
    let bad =
        || RuleError::invalid_position(format!("`{key}:{text}` should look like `{key}:1-0`"));
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    Ok([a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?])
}

impl XFutebol {
    pub(super) fn write_position(&self) -> String {
        // Shirt order, so that reading a team back (numbers follow the order) keeps every
        // piece's number and id.
        let team = |seat: Seat| -> String {
            let mut team: Vec<&Piece> = self.pieces.iter().filter(|p| p.seat == seat).collect();
            team.sort_by_key(|p| p.id);
            team.into_iter()
                .map(|p| {
                    let mut token = p.role().symbol().to_string();
                    if p.special.is_some() {
                        token.push(p.slot.symbol());
                    }
                    match p.status {
                        Status::OnPitch(square) => token.push_str(&square.to_string()),
                        Status::Resting {
                            turns_left,
                            left_from,
                        } => token.push_str(&format!("{left_from}~{}", turns_left + 1)),
                        Status::SentOff => token.push('-'),
                    }
                    if p.attributes != p.role().attributes() {
                        let [a, b, c, d, e] = p.attributes.as_array();
                        token.push_str(&format!("[{a}.{b}.{c}.{d}.{e}]"));
                    }
                    token
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let ball = self
            .ball_square()
            .map_or_else(|| "-".to_owned(), |s| s.to_string());
        format!(
            "h:{};a:{};ball:{ball};to:{};score:{};fouls:{};sprints:{};half:{};played:{}",
            team(HOME),
            team(AWAY),
            if self.to_act == HOME { "h" } else { "a" },
            pair_text(self.score),
            pair_text(self.fouls),
            pair_text(self.sprints),
            self.half,
            self.movements_played
        )
    }

    /// A custom start: the match begins in play, lineups done, the named side to move.
    pub(super) fn load_position(&mut self, text: &str) -> Result<(), RuleError> {
        self.load_position_unchecked(text)?;
        for seat in [HOME, AWAY] {
            check_custom_team(&self.pieces, seat)?;
            for piece in self.pieces.iter().filter(|p| p.seat == seat) {
                if let Some(square) = piece.square()
                    && piece.slot == Role::Keeper
                    && !in_own_half(seat, square)
                {
                    return Err(RuleError::invalid_position(format!(
                        "the keeper on {square} must start in its own half"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Reads a position without checking team make-up (also used by tests for small scenes).
    pub(super) fn load_position_unchecked(&mut self, text: &str) -> Result<(), RuleError> {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut ball = None;
        let mut to_act = None;
        for field in text.trim().split(';') {
            let (key, value) = field.split_once(':').ok_or_else(|| {
                RuleError::invalid_position(format!("`{field}` should be `key:value`"))
            })?;
            match key.trim() {
                "h" => self.read_team(HOME, value, &mut pieces)?,
                "a" => self.read_team(AWAY, value, &mut pieces)?,
                "ball" => {
                    ball = Some(square(value).map_err(|e| RuleError::invalid_position(e.message))?)
                }
                "to" => {
                    to_act = Some(match value {
                        "h" => HOME,
                        "a" => AWAY,
                        _ => {
                            return Err(RuleError::invalid_position(format!(
                                "`to:{value}` should be `to:h` or `to:a`"
                            )));
                        }
                    })
                }
                "score" => self.score = parse_pair("score", value)?,
                "fouls" => self.fouls = parse_pair("fouls", value)?,
                "sprints" => self.sprints = parse_pair("sprints", value)?,
                "half" => {
                    self.half = match value {
                        "1" => 1,
                        "2" => 2,
                        _ => return Err(RuleError::invalid_position("`half` is 1 or 2")),
                    }
                }
                "played" => {
                    self.movements_played = value.parse().map_err(|_| {
                        RuleError::invalid_position("`played` is a count of movements")
                    })?
                }
                other => {
                    return Err(RuleError::invalid_position(format!(
                        "unknown field `{other}`; fields are h, a, ball, to, score, fouls, \
                         sprints, half, played"
                    )));
                }
            }
        }
        let mut squares: Vec<Square> = pieces.iter().filter_map(Piece::square).collect();
        let count = squares.len();
        squares.sort();
        squares.dedup();
        if squares.len() != count {
            return Err(RuleError::invalid_position("two pieces share a square"));
        }
        let to_act = to_act.ok_or_else(|| RuleError::invalid_position("missing `to:h|a`"))?;
        self.pieces = pieces;
        self.ball = match ball {
            Some(square) => match self.piece_at(square) {
                Some(p) => Ball::Held(p.id),
                None => Ball::Loose(square),
            },
            None => Ball::Loose(kick_off_square(to_act)),
        };
        if let Ball::Loose(square) = self.ball
            && self.piece_at(square).is_some()
        {
            return Err(RuleError::invalid_position("the ball's square is taken"));
        }
        let formation = None;
        self.lineups = [
            LineupProgress {
                formation,
                placed: Vec::new(),
                confirmed: true,
            },
            LineupProgress {
                formation,
                placed: Vec::new(),
                confirmed: true,
            },
        ];
        self.phase = Phase::Play;
        self.first_kick_off = Some(to_act);
        self.reset_turn(to_act);
        Ok(())
    }

    fn read_team(&self, seat: Seat, text: &str, pieces: &mut Vec<Piece>) -> Result<(), RuleError> {
        let tokens: Vec<&str> = text.split(',').filter(|t| !t.is_empty()).collect();
        if tokens.len() > 11 {
            return Err(RuleError::invalid_position("a team has at most 11 pieces"));
        }
        for (index, token) in tokens.iter().enumerate() {
            let bad = |why: &str| {
                RuleError::invalid_position(format!(
                    "piece `{token}`: {why}; pieces look like Kd1, Dc2, LDd3, Ae8~2, D- or \
                     Ac7[70.80.60.90.40]"
                ))
            };
            let (body, attributes) = match token.split_once('[') {
                Some((body, rest)) => {
                    let values: Vec<u32> = rest
                        .strip_suffix(']')
                        .ok_or_else(|| bad("unclosed attributes"))?
                        .split('.')
                        .map(|v| v.parse().map_err(|_| bad("attributes are numbers")))
                        .collect::<Result<_, _>>()?;
                    let values: [u32; 5] = values
                        .try_into()
                        .map_err(|_| bad("five attributes are needed"))?;
                    (body, Some(Attributes::from_array(values)))
                }
                None => (*token, None),
            };
            let mut chars = body.chars();
            let role = chars
                .next()
                .and_then(Role::from_symbol)
                .ok_or_else(|| bad("unknown role letter"))?;
            let mut rest = chars.as_str();
            let (slot, special) = match role {
                Role::Dribbler | Role::Goaler | Role::LongExpert => {
                    let special = match role {
                        Role::Dribbler => Special::Dribbler,
                        Role::Goaler => Special::Goaler,
                        _ => Special::LongExpert,
                    };
                    let slot = match rest.chars().next().and_then(Role::from_symbol) {
                        Some(slot @ (Role::Defender | Role::Midfielder | Role::Attacker)) => {
                            rest = &rest[1..];
                            slot
                        }
                        _ => Role::Attacker,
                    };
                    (slot, Some(special))
                }
                _ => (role, None),
            };
            let number = index as u8 + 1;
            let id = piece_id(seat, number);
            let (status, start) = if rest == "-" {
                (Status::SentOff, Square::new(0, 0))
            } else if let Some((at, turns)) = rest.split_once('~') {
                let at = square(at).map_err(|e| bad(&e.message))?;
                let turns: u32 = turns.parse().map_err(|_| bad("`~N` needs a number"))?;
                if turns == 0 {
                    return Err(bad("a resting piece rests at least 1 turn"));
                }
                (
                    Status::Resting {
                        turns_left: turns - 1,
                        left_from: at,
                    },
                    at,
                )
            } else {
                let at = square(rest).map_err(|e| bad(&e.message))?;
                (Status::OnPitch(at), at)
            };
            pieces.push(Piece {
                id,
                seat,
                number,
                slot,
                special,
                attributes: attributes
                    .unwrap_or_else(|| role.attributes().shifted(self.offsets[id as usize - 1])),
                status,
                start,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, RuleErrorKind};
    use crate::xfutebol::tests::{position_game, sq};

    #[test]
    fn every_action_kind_round_trips() {
        let actions = [
            Action::DefaultLineup,
            Action::Formation(Formation::FiveThreeTwo),
            Action::AssignSpecial {
                at: sq("c2"),
                special: Special::LongExpert,
            },
            Action::Place {
                from: sq("c2"),
                to: sq("c4"),
            },
            Action::ConfirmLineup,
            Action::Move {
                from: sq("c2"),
                to: sq("c3"),
            },
            Action::Sprint {
                from: sq("c2"),
                to: sq("c4"),
            },
            Action::Pass {
                from: sq("c2"),
                to: sq("c4"),
            },
            Action::LongPass {
                from: sq("c2"),
                via: None,
                to: sq("c5"),
            },
            Action::LongPass {
                from: sq("c2"),
                via: Some(sq("c4")),
                to: sq("f4"),
            },
            Action::Dribble {
                from: sq("c2"),
                to: sq("d3"),
            },
            Action::Challenge {
                from: sq("c2"),
                target: sq("d3"),
            },
            Action::Shoot {
                from: sq("e13"),
                goal: sq("d16"),
            },
            Action::LongShoot {
                from: sq("e10"),
                via: None,
                goal: sq("d16"),
            },
            Action::LongShoot {
                from: sq("e10"),
                via: Some(sq("e11")),
                goal: sq("d16"),
            },
            Action::FreeKick {
                from: sq("e12"),
                goal: sq("e16"),
            },
            Action::Penalty { kicker: sq("e8") },
            Action::SendOff { at: sq("c2") },
            Action::EndTurn,
        ];
        for action in actions {
            let text = action.to_string();
            assert_eq!(text.parse::<Action>().unwrap(), action, "{text}");
        }
        assert_eq!(
            Action::LongPass {
                from: sq("c2"),
                via: Some(sq("c4")),
                to: sq("f4")
            }
            .to_string(),
            "long c2-c4-f4"
        );
    }

    #[test]
    fn unreadable_text_is_malformed_and_readable_illegal_text_is_illegal() {
        let game = position_game("Ac8", "", "c8", "h");
        for text in [
            "",
            "jump c2",
            "c2-z9",
            "pass c2",
            "c2=Q",
            "formation 4-4-2",
            "a0-a1",
        ] {
            assert_eq!(
                game.parse_action(HOME, text).unwrap_err().kind,
                RuleErrorKind::MalformedNotation,
                "{text}"
            );
        }
        let err = game.parse_action(HOME, "c8-d9").unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::IllegalAction);
        assert!(err.message.contains("legal now"), "{}", err.message);
        assert!(game.parse_action(HOME, "c8-c10").is_ok());
    }

    #[test]
    fn positions_round_trip_through_the_notation() {
        let mut game = crate::xfutebol::tests::new_game(&[], &[]);
        game.apply(HOME, &Action::DefaultLineup).unwrap();
        game.apply(AWAY, &Action::DefaultLineup).unwrap();
        let text = game.position();
        assert!(
            text.starts_with(
                "h:Kd1,Dc2,Df2,LDd3,Dg3,LMe4,GAd7,RMb5,GAf7,RMh5,Ae8;\
                 a:Kd16,Dc15,Df15,LDd14,Dg14,LMe13,GAd10,RMb12,GAf10,RMh12,Ae9;ball:"
            ),
            "{text}"
        );
        let setup = crate::game::SetupSpec {
            options: crate::Options::resolve(&XFutebol::info().options, &Default::default())
                .unwrap(),
            seed: crate::Seed::from_number(0),
            position: Some(text.clone()),
        };
        let copy = XFutebol::new(&setup).unwrap();
        assert_eq!(copy.position(), text);
        // Shirt numbers and ids survive: the notation lists each team in shirt order.
        let numbered = |g: &XFutebol| {
            let mut pieces: Vec<_> = g
                .details(crate::Viewer::Spectator)
                .pieces
                .into_iter()
                .map(|p| (p.id, p.number, p.square))
                .collect();
            pieces.sort();
            pieces
        };
        assert_eq!(numbered(&copy), numbered(&game));
        assert_eq!(copy.board(crate::Viewer::Spectator).pieces.len(), 22);
    }

    #[test]
    fn resting_pieces_round_trip_through_the_notation() {
        // Home to act with a piece that comes back at its team's second turn start from now.
        let game = position_game("Ae8~2,Ma1", "Mh16", "a1", "h");
        let text = game.position();
        assert!(text.contains("Ae8~2"), "{text}");
        let mut copy = crate::xfutebol::tests::new_game(&[], &[]);
        copy.load_position_unchecked(&text).unwrap();
        assert_eq!(copy.position(), text);
    }

    #[test]
    fn custom_positions_are_checked() {
        let options =
            crate::Options::resolve(&XFutebol::info().options, &Default::default()).unwrap();
        let setup = |position: &str| crate::game::SetupSpec {
            options: options.clone(),
            seed: crate::Seed::from_number(0),
            position: Some(position.to_owned()),
        };
        for bad in [
            "h:Kd1;a:Kd16;to:h",
            "nonsense",
            "h:Qd1;a:;to:h",
            "h:Kd1,Dd1;a:;to:h",
        ] {
            let err = XFutebol::new(&setup(bad)).unwrap_err();
            assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{bad}");
        }
    }
}
