//! Action notation: `captain lead-blocker`, `recruit heavy`, `roster default`, `roster done`,
//! `go`, `punt`, `place #3 h8.nw`, `ready`, `#3 h9.c` (a step), `#3 push #10`, `#5 juke`,
//! `#1 pass #6`, `#1 fake #6 keep #1`, `commit`. The position notation is in [`super::position`].

use super::Action;
use super::field::Location;
use super::roster::{Ability, Kind};
use crate::game::RuleError;
use crate::text::push_number;

pub(crate) fn format_action(action: &Action) -> String {
    let mut text = String::with_capacity(16);
    match action {
        Action::Captain(kind) => {
            text.push_str("captain ");
            text.push_str(kind.name());
        }
        Action::Recruit(kind) => {
            text.push_str("recruit ");
            text.push_str(kind.name());
        }
        Action::DefaultRoster => text.push_str("roster default"),
        Action::CommitRoster => text.push_str("roster done"),
        Action::GoForIt => text.push_str("go"),
        Action::Punt => text.push_str("punt"),
        Action::Place { piece, to } => {
            text.push_str("place ");
            push_piece(&mut text, *piece);
            text.push(' ');
            push_location(&mut text, *to);
        }
        Action::Ready => text.push_str("ready"),
        Action::Move { piece, to } => {
            push_piece(&mut text, *piece);
            text.push(' ');
            push_location(&mut text, *to);
        }
        Action::Use {
            piece,
            ability,
            target,
        } => {
            push_piece(&mut text, *piece);
            text.push(' ');
            text.push_str(ability.name());
            if let Some(target) = target {
                text.push(' ');
                push_piece(&mut text, *target);
            }
        }
        Action::Pass { piece, receiver } => {
            push_piece(&mut text, *piece);
            text.push_str(" pass ");
            push_piece(&mut text, *receiver);
        }
        Action::Fake {
            piece,
            partner,
            keeper,
        } => {
            push_piece(&mut text, *piece);
            text.push_str(" fake ");
            push_piece(&mut text, *partner);
            text.push_str(" keep ");
            push_piece(&mut text, *keeper);
        }
        Action::Commit => text.push_str("commit"),
    }
    text
}

/// Appends a piece reference: `#3`.
fn push_piece(text: &mut String, piece: u32) {
    text.push('#');
    push_number(text, piece);
}

/// Appends a location as its `Display` writes it: `h8.nw`.
fn push_location(text: &mut String, location: Location) {
    location.square.push_name(text);
    text.push('.');
    text.push_str(location.spot.name());
}

fn malformed(text: &str) -> RuleError {
    RuleError::malformed(format!(
        "cannot read {text:?}; examples: `captain safety`, `recruit heavy`, `roster default`, \
         `roster done`, `go`, `punt`, `place #3 h8.nw`, `ready`, `#3 h9.c`, `#3 push #10`, \
         `#5 juke`, `#1 pass #6`, `#1 fake #6 keep #1`, `commit`"
    ))
}

fn piece_ref(word: &str) -> Option<u32> {
    word.strip_prefix('#')?.parse().ok()
}

pub(crate) fn parse_action(text: &str) -> Result<Action, RuleError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = || malformed(text);
    let action = match words.as_slice() {
        ["captain", kind] => Action::Captain(Kind::parse(kind).ok_or_else(bad)?),
        ["recruit", kind] => Action::Recruit(Kind::parse(kind).ok_or_else(bad)?),
        ["roster", "default"] => Action::DefaultRoster,
        ["roster", "done"] => Action::CommitRoster,
        ["go"] => Action::GoForIt,
        ["punt"] => Action::Punt,
        ["ready"] => Action::Ready,
        ["commit"] => Action::Commit,
        ["place", piece, to] => Action::Place {
            piece: piece_ref(piece).ok_or_else(bad)?,
            to: Location::parse(to).ok_or_else(bad)?,
        },
        [piece, rest @ ..] if piece.starts_with('#') => {
            let piece = piece_ref(piece).ok_or_else(bad)?;
            match rest {
                ["pass", receiver] => Action::Pass {
                    piece,
                    receiver: piece_ref(receiver).ok_or_else(bad)?,
                },
                ["fake", partner, "keep", keeper] => Action::Fake {
                    piece,
                    partner: piece_ref(partner).ok_or_else(bad)?,
                    keeper: piece_ref(keeper).ok_or_else(bad)?,
                },
                [ability, target] => Action::Use {
                    piece,
                    ability: Ability::parse(ability).ok_or_else(bad)?,
                    target: Some(piece_ref(target).ok_or_else(bad)?),
                },
                [word] => match Ability::parse(word) {
                    Some(ability) => Action::Use {
                        piece,
                        ability,
                        target: None,
                    },
                    None => Action::Move {
                        piece,
                        to: Location::parse(word).ok_or_else(bad)?,
                    },
                },
                _ => return Err(bad()),
            }
        }
        _ => return Err(bad()),
    };
    Ok(action)
}
