//! Position notation: the whole state of a match, or one viewer's view of it.
//!
//! Nine fields describe a down as it starts: `<home pieces>/<away pieces> <offense> <down>
//! <line of scrimmage> <first-down line> <ball holder> <period> <possessions home-away>
//! <score home-away>`, pieces as `<symbol><square>.<spot>` separated by commas, captain first,
//! ids counted from 0 in that order (home first). The holder is `?` while a play action hides
//! it and `-` before the rosters are revealed (the teams are then `-/-`).
//!
//! Then come `name=value` parts for whatever differs from such a start, each left out when it
//! has its default, so a start-of-down position is written as those nine fields alone. `?` as
//! a value is a hidden part the position does not tell; reading it draws the part from the
//! seed ([`Gridiron::draw_hidden`]). [`PARTS`] lists them in the order they are written; reading
//! is in [`super::position_reading`].

use std::fmt::Write;

use super::field::{self, AWAY, HOME};
use super::roster::{Kind, RosterDraft};
use super::sampling::Hidden;
use super::{Action, Gridiron, Phase, notation};
use crate::game::{Seat, Viewer};

/// Every part after the nine fields, in the order a position writes them.
pub(super) const PARTS: [&str; 22] = [
    "phase",
    "turn",
    "toss",
    "committed",
    "roster.home",
    "roster.away",
    "placed",
    "fake",
    "keeper",
    "pass",
    "from",
    "snap",
    "used",
    "change",
    "chopped",
    "change-next",
    "chopped-next",
    "jammed",
    "anchored",
    "sealing",
    "orders.home",
    "orders.away",
];

pub(super) const UNKNOWN: &str = "?";

pub(super) fn phase_text(phase: Phase) -> String {
    match phase {
        Phase::Roster => "roster".to_owned(),
        Phase::FourthDown => "fourth-down".to_owned(),
        Phase::Formation(seat) => format!("formation:{}", field::seat_name(seat)),
        Phase::Snap => "snap".to_owned(),
        Phase::Reaction(seat) => format!("reaction:{}", field::seat_name(seat)),
        Phase::Over => "over".to_owned(),
    }
}

pub(super) fn parse_phase(text: &str) -> Option<Phase> {
    Some(match text.split_once(':') {
        Some(("formation", seat)) => Phase::Formation(field::parse_seat(seat)?),
        Some(("reaction", seat)) => Phase::Reaction(field::parse_seat(seat)?),
        Some(_) => return None,
        None => match text {
            "roster" => Phase::Roster,
            "fourth-down" => Phase::FourthDown,
            "snap" => Phase::Snap,
            "over" => Phase::Over,
            _ => return None,
        },
    })
}

/// A draft as the captain's symbol (`-` while none) followed by the standard pieces' symbols
/// in recruit order: `BQHH`, `-HS`, `-`.
fn draft_text(draft: &RosterDraft) -> String {
    let mut text = String::new();
    text.push(draft.captain.map_or('-', Kind::symbol));
    text.extend(draft.standard.iter().map(|kind| kind.symbol()));
    text
}

/// An order item with its spaces written as `_`, so that it stays one word: `#1_pass_#6`.
fn order_text(action: &Action) -> String {
    notation::format_action(action).replace(' ', "_")
}

fn seat_list(seats: impl Iterator<Item = Seat>) -> String {
    seats.map(field::seat_name).collect::<Vec<_>>().join(",")
}

impl Gridiron {
    /// The phase a position without a `phase` part is in: the roster phase before any piece
    /// is on the field, else the fourth-down choice or the offence's formation.
    pub(super) fn default_phase(&self) -> Phase {
        if self.pieces.is_empty() {
            Phase::Roster
        } else if self.down == 4 {
            Phase::FourthDown
        } else {
            Phase::Formation(self.offense)
        }
    }

    pub(super) fn in_play(&self) -> bool {
        matches!(self.phase, Phase::Snap | Phase::Reaction(_))
    }

    /// The defence's reaction turn: the offence has committed and executed its orders.
    pub(super) fn defense_reacting(&self) -> bool {
        self.phase == Phase::Reaction(self.defense())
    }

    /// The position with the `hidden` parts written as unknown: nothing hidden is the whole
    /// state, [`Gridiron::hidden_from`] a viewer's view of it.
    pub(crate) fn position_text(&self, hidden: Hidden) -> String {
        let mut text = self.start_fields();
        for (name, value) in self.parts(hidden) {
            write!(text, " {name}={value}").expect("writing to a String cannot fail");
        }
        text
    }

    pub(crate) fn position_for_viewer(&self, viewer: Viewer) -> String {
        self.position_text(self.hidden_from(viewer))
    }

    /// The nine fields of a down's start.
    fn start_fields(&self) -> String {
        let team = |seat| {
            let pieces: Vec<String> = self
                .pieces
                .iter()
                .filter(|p| p.owner == seat)
                .map(|p| format!("{}{}", p.kind.symbol(), p.loc))
                .collect();
            if pieces.is_empty() {
                "-".to_owned()
            } else {
                pieces.join(",")
            }
        };
        let holder = if self.pieces.is_empty() {
            "-".to_owned()
        } else if self.fake.is_some() {
            UNKNOWN.to_owned()
        } else {
            self.holder.to_string()
        };
        format!(
            "{}/{} {} {} {} {} {} {} {}-{} {}-{}",
            team(HOME),
            team(AWAY),
            field::seat_name(self.offense),
            self.down,
            self.los,
            self.line,
            holder,
            self.period,
            self.possessions[0],
            self.possessions[1],
            self.scores[0],
            self.scores[1]
        )
    }

    /// The parts that differ from their defaults, in the order of [`PARTS`].
    fn parts(&self, hidden: Hidden) -> Vec<(&'static str, String)> {
        let mut parts = Vec::new();
        let mut put = |name: &'static str, value: Option<String>| {
            if let Some(value) = value.filter(|v| !v.is_empty()) {
                parts.push((name, value));
            }
        };
        put(
            "phase",
            (self.phase != self.default_phase()).then(|| phase_text(self.phase)),
        );
        let default_turn = u32::from(self.phase == Phase::Snap);
        put(
            "turn",
            (self.round != default_turn).then(|| self.round.to_string()),
        );
        put(
            "toss",
            (self.coin_winner != HOME).then(|| field::seat_name(self.coin_winner).to_owned()),
        );
        if matches!(self.phase, Phase::Roster | Phase::Snap) {
            let committed = [HOME, AWAY]
                .into_iter()
                .filter(|s| self.committed[s.index()]);
            put("committed", Some(seat_list(committed)));
        }
        for (name, seat) in [("roster.home", HOME), ("roster.away", AWAY)] {
            let draft = &self.drafts[seat.index()];
            put(
                name,
                match self.phase {
                    Phase::Roster if hidden.drafts[seat.index()] => Some(UNKNOWN.to_owned()),
                    Phase::Roster if !draft.is_empty() => Some(draft_text(draft)),
                    _ => None,
                },
            );
        }
        put("placed", Some(join(self.placed.iter())));
        if let Some(fake) = self.fake {
            put("fake", Some(format!("{},{}", fake.passer, fake.partner)));
            let keeper = if hidden.holder {
                UNKNOWN.to_owned()
            } else {
                self.holder.to_string()
            };
            put("keeper", Some(keeper));
        }
        let pass = match self.pending_pass {
            Some((passer, receiver)) if self.defense_reacting() => {
                Some(format!("{passer}>{receiver}"))
            }
            _ => self.pass_thrown.then(|| "thrown".to_owned()),
        };
        put("pass", pass);
        let in_play = self.in_play();
        put(
            "from",
            self.each_piece(|p| (in_play && p.start != p.loc).then(|| p.start.to_string())),
        );
        put(
            "snap",
            self.each_piece(|p| {
                (in_play && p.snap_rank != p.loc.square.rank).then(|| p.snap_rank.to_string())
            }),
        );
        put(
            "used",
            self.each_piece(|p| {
                let names: Vec<&str> = p.used.iter().map(|a| a.name()).collect();
                (!names.is_empty()).then(|| names.join("+"))
            }),
        );
        put(
            "change",
            self.each_piece(|p| (p.change_now != 0).then(|| format!("{:+}", p.change_now))),
        );
        put("chopped", self.pieces_where(|p| p.frozen_now));
        put(
            "change-next",
            self.each_piece(|p| (p.change_next != 0).then(|| format!("{:+}", p.change_next))),
        );
        put("chopped-next", self.pieces_where(|p| p.frozen_next));
        let turns_left = |until: Option<u32>| {
            until
                .filter(|last| self.clock <= *last)
                .map(|last| (last - self.clock).to_string())
        };
        put("jammed", self.each_piece(|p| turns_left(p.jammed_until)));
        put(
            "anchored",
            self.each_piece(|p| turns_left(p.anchored_until)),
        );
        put("sealing", self.each_piece(|p| turns_left(p.sealing_until)));
        for (name, seat) in [("orders.home", HOME), ("orders.away", AWAY)] {
            let plan = &self.plans[seat.index()];
            put(
                name,
                if hidden.plans[seat.index()] {
                    Some(UNKNOWN.to_owned())
                } else {
                    Some(plan.iter().map(order_text).collect::<Vec<_>>().join(","))
                },
            );
        }
        parts
    }

    /// `id:value` for every piece `value` gives one, separated by commas.
    fn each_piece(&self, value: impl Fn(&super::Piece) -> Option<String>) -> Option<String> {
        let items: Vec<String> = self
            .pieces
            .iter()
            .filter_map(|p| value(p).map(|v| format!("{}:{v}", p.id)))
            .collect();
        Some(items.join(","))
    }

    fn pieces_where(&self, holds: impl Fn(&super::Piece) -> bool) -> Option<String> {
        Some(join(self.pieces.iter().filter(|p| holds(p)).map(|p| &p.id)))
    }
}

fn join<'a>(ids: impl Iterator<Item = &'a u32>) -> String {
    ids.map(u32::to_string).collect::<Vec<_>>().join(",")
}
