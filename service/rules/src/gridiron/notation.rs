//! Action notation and position notation.
//!
//! Actions: `captain lead-blocker`, `recruit heavy`, `roster default`, `roster done`, `go`,
//! `punt`, `place #3 h8.nw`, `ready`, `#3 h9.c` (a step), `#3 push #10`, `#5 juke`,
//! `#1 pass #6`, `#1 fake #6 keep #1`, `commit`.
//!
//! Position: `<home pieces>/<away pieces> <offense> <down> <line of scrimmage>
//! <first-down line> <ball holder> <period> <possessions home-away> <score home-away>`, pieces
//! as `<symbol><square>.<spot>` separated by commas, captain first, ids counted from 0 in that
//! order (home first). The holder is `?` while a play action hides it and `-` before the rosters
//! are revealed.

use super::field::{self, AWAY, HOME, Location};
use super::roster::{self, Ability, Kind};
use super::{Action, Gridiron, Phase};
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

impl Gridiron {
    pub(crate) fn position_text(&self) -> String {
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
            "?".to_owned()
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

    /// Starts from a custom position: the given down begins (at the fourth-down choice on
    /// fourth down, else at the offence's formation) with every piece where the text puts it.
    pub(crate) fn load_position(&mut self, text: &str) -> Result<(), RuleError> {
        let bad = |why: &str| RuleError::invalid_position(format!("{why} in {text:?}"));
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [
            teams,
            offense,
            down,
            los,
            line,
            holder,
            period,
            possessions,
            score,
        ] = fields.as_slice()
        else {
            return Err(bad(
                "expected 9 fields: pieces, offense, down, line of scrimmage, first-down line, \
                 holder, period, possessions, score",
            ));
        };
        let (home, away) = teams
            .split_once('/')
            .ok_or_else(|| bad("no `/` between the teams"))?;
        for (seat, list) in [(HOME, home), (AWAY, away)] {
            let mut kinds = Vec::new();
            let mut locs = Vec::new();
            for item in list.split(',') {
                let mut chars = item.chars();
                let kind = chars
                    .next()
                    .and_then(Kind::from_symbol)
                    .ok_or_else(|| bad("unknown piece symbol"))?;
                let loc = Location::parse(chars.as_str())
                    .ok_or_else(|| bad("a piece needs a location such as h8.c"))?;
                kinds.push(kind);
                locs.push(loc);
            }
            roster::check_roster(&kinds)?;
            self.add_team(seat, &kinds);
            let first = self.pieces.len() - locs.len();
            for (piece, loc) in self.pieces[first..].iter_mut().zip(locs) {
                piece.loc = loc;
            }
        }
        for piece in &self.pieces {
            if let Some(other) = self.piece_at(piece.loc, piece.id) {
                return Err(bad(&format!(
                    "#{} and #{other} share {}",
                    piece.id, piece.loc
                )));
            }
        }
        self.offense = field::parse_seat(offense).ok_or_else(|| bad("offense is home or away"))?;
        let number = |s: &str, what: &str| s.parse::<i64>().map_err(|_| bad(what));
        self.down = number(down, "down is a number")?
            .clamp(0, 5)
            .try_into()
            .map_err(|_| bad("down"))?;
        if !(1..=4).contains(&self.down) {
            return Err(bad("the down is 1 to 4"));
        }
        let rank = |s: &str| -> Result<i8, RuleError> {
            let r = number(s, "ranks are numbers")?;
            if (1..=i64::from(field::RANKS)).contains(&r) {
                Ok(r as i8)
            } else {
                Err(bad("ranks are 1 to 48"))
            }
        };
        self.los = rank(los)?;
        self.line = rank(line)?;
        if field::own_end_zone(self.offense, self.los)
            || field::scoring_end_zone(self.offense, self.los)
        {
            return Err(bad("the line of scrimmage lies outside both end zones"));
        }
        if field::gain(self.offense, self.los, self.line) <= 0 {
            return Err(bad("the first-down line lies beyond the line of scrimmage"));
        }
        let holder = number(holder, "the holder is a piece id")?;
        match self.pieces.get(holder as usize) {
            Some(p) if holder >= 0 && p.owner == self.offense => self.holder = p.id,
            _ => return Err(bad("the holder must be a piece of the offense")),
        }
        self.period = number(period, "period is a number")?
            .clamp(0, 100)
            .try_into()
            .map_err(|_| bad("period"))?;
        if self.period == 0 || self.period > 2 + self.settings.overtime_periods {
            return Err(bad("no such period with these options"));
        }
        let pair = |s: &str, what: &str| -> Result<[i64; 2], RuleError> {
            let (a, b) = s.split_once('-').ok_or_else(|| bad(what))?;
            Ok([number(a, what)?, number(b, what)?])
        };
        let [ph, pa] = pair(possessions, "possessions are home-away")?;
        let per_team = i64::from(self.period_drives() / 2);
        if !(0..=per_team).contains(&ph) || !(0..=per_team).contains(&pa) {
            return Err(bad("possessions exceed the period's"));
        }
        self.possessions = [ph as u8, pa as u8];
        if self.possessions[self.offense.index()] == 0 {
            return Err(bad("the offense's current possession must be counted"));
        }
        let [sh, sa] = pair(score, "the score is home-away")?;
        if sh < 0 || sa < 0 {
            return Err(bad("scores are not negative"));
        }
        self.scores = [sh as u32, sa as u32];
        self.drafts = [AWAY, HOME].map(|_| roster::RosterDraft {
            committed: true,
            ..Default::default()
        });
        self.clear_down_effects();
        self.phase = if self.down == 4 {
            Phase::FourthDown
        } else {
            Phase::Formation(self.offense)
        };
        Ok(())
    }
}
