//! Action notation (the position notation is in `position`).
//!
//! Actions: `c2-c3` (MOVE), `sprint c2-c4`, `pass c2-c4`, `long c2-c5`, `long c2-c4-f4`
//! (curved through c4), `dribble c2-d3`, `challenge c2-d3`, `shoot e13-d16`,
//! `longshoot e10-d16`, `longshoot e10-e11-d16`, `freekick e12-e16`, `penalty e8`,
//! `sendoff c2`, `end`; lineup: `default`, `formation 4-3-3`, `c2=L`, `place c2-c4`,
//! `confirm`.

use std::fmt;
use std::str::FromStr;

use crate::game::RuleError;
use crate::geometry::Square;

use super::actions::Action;
use super::geometry::on_board;
use super::lineup::{Formation, Special};

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

pub(super) fn square(text: &str) -> Result<Square, RuleError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, RuleErrorKind};
    use crate::xfutebol::tests::{position_game, sq};
    use crate::xfutebol::{AWAY, HOME, XFutebol};

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
