//! Reading the position notation (see [`super::position`]): each part is checked as the rules
//! would check the state it describes, and unknown parts are drawn from the seed.

use std::cell::Cell;
use std::fmt::Display;

use super::field::{self, AWAY, HOME, Location};
use super::position::{PARTS, UNKNOWN, parse_phase, phase_text};
use super::refusals::Words;
use super::roster::{self, Ability, Kind, RosterDraft};
use super::sampling::Hidden;
use super::{Action, Fake, Gridiron, Phase, notation};
use crate::game::RuleError;
use crate::rng::Rng;

/// The text being read, for error messages, and its parts after the nine fields.
struct Reader<'a> {
    text: &'a str,
    parts: Vec<(&'a str, &'a str)>,
    /// Which parts the reading looked at: any other has no place in the position's phase.
    read: Vec<Cell<bool>>,
}

impl<'a> Reader<'a> {
    fn bad(&self, why: impl Display) -> RuleError {
        RuleError::invalid_position(format!("{why} in {:?}", self.text))
    }

    fn new(text: &'a str, words: &[&'a str]) -> Result<Self, RuleError> {
        let mut reader = Reader {
            text,
            parts: Vec::new(),
            read: Vec::new(),
        };
        for word in words {
            let Some((name, value)) = word.split_once('=') else {
                return Err(reader.bad(format_args!(
                    "`{word}` is no part: after the nine fields come name=value parts"
                )));
            };
            if !PARTS.contains(&name) {
                return Err(reader.bad(format_args!(
                    "`{name}` is no part of a position; the parts are {}",
                    PARTS.join(", ")
                )));
            }
            if reader.parts.iter().any(|(seen, _)| *seen == name) {
                return Err(reader.bad(format_args!("`{name}` is given twice")));
            }
            if value.is_empty() {
                return Err(reader.bad(format_args!("`{name}=` has no value")));
            }
            reader.parts.push((name, value));
            reader.read.push(Cell::new(false));
        }
        Ok(reader)
    }

    fn get(&self, name: &str) -> Option<&'a str> {
        let index = self.parts.iter().position(|(seen, _)| *seen == name)?;
        self.read[index].set(true);
        Some(self.parts[index].1)
    }

    /// Refuses a part the reading of this phase never looked at.
    fn all_read(&self, phase: Phase) -> Result<(), RuleError> {
        match self
            .parts
            .iter()
            .zip(&self.read)
            .find(|(_, read)| !read.get())
        {
            Some(((name, _), _)) => Err(self.bad(format_args!(
                "`{name}` has no place in the {} phase",
                phase_text(phase)
            ))),
            None => Ok(()),
        }
    }

    /// Refuses part `name` unless `allowed`, saying where it belongs.
    fn only(&self, name: &str, allowed: bool, belongs: &str) -> Result<Option<&'a str>, RuleError> {
        match self.get(name) {
            Some(_) if !allowed => Err(self.bad(format_args!("`{name}` belongs {belongs}"))),
            value => Ok(value),
        }
    }

    fn number<T: std::str::FromStr>(&self, text: &str, what: &str) -> Result<T, RuleError> {
        text.parse()
            .map_err(|_| self.bad(format_args!("{what}: `{text}` is not a number in range")))
    }
}

impl Gridiron {
    /// Reads a position into a fresh game. Without parts it starts the given down (at the
    /// fourth-down choice on fourth down, else at the offence's formation) with every piece
    /// where the text puts it; parts set the rest of the state, and unknown parts are drawn.
    pub(crate) fn load_position(&mut self, text: &str) -> Result<(), RuleError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (start, parts) = fields.split_at(fields.len().min(9));
        let reader = Reader::new(text, parts)?;
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
        ] = start
        else {
            return Err(reader.bad(
                "expected 9 fields: pieces, offense, down, line of scrimmage, first-down line, \
                 holder, period, possessions, score (then name=value parts)",
            ));
        };
        self.offense =
            field::parse_seat(offense).ok_or_else(|| reader.bad("offense is home or away"))?;
        let pair = |s: &str, what: &str| -> Result<[u32; 2], RuleError> {
            let (a, b) = s.split_once('-').ok_or_else(|| reader.bad(what))?;
            Ok([reader.number(a, what)?, reader.number(b, what)?])
        };
        let [sh, sa] = pair(score, "the score is home-away")?;
        self.scores = [sh, sa];
        let mut hidden = Hidden::default();
        if *teams == "-/-" {
            let before_rosters = [down, los, line, holder, period]
                == [&"0", &"0", &"0", &"-", &"0"]
                && *possessions == "0-0";
            if !before_rosters {
                return Err(reader.bad(
                    "without pieces (`-/-`) the match is in its roster phase: down, lines and \
                     period 0, holder -, possessions 0-0",
                ));
            }
            self.phase = match reader.get("phase").map(parse_phase) {
                None | Some(Some(Phase::Roster)) => Phase::Roster,
                _ => return Err(reader.bad("without pieces the phase is the roster phase")),
            };
        } else {
            self.read_teams(&reader, teams)?;
            self.read_down(&reader, [down, los, line, period, possessions])?;
            self.phase = match reader.get("phase") {
                None => self.default_phase(),
                Some(name) => parse_phase(name).ok_or_else(|| {
                    reader.bad(format_args!(
                        "`{name}` is no phase: roster, fourth-down, formation:<seat>, snap, \
                         reaction:<seat> or over"
                    ))
                })?,
            };
            match self.phase {
                Phase::Roster => {
                    return Err(
                        reader.bad("the roster phase comes before any piece is on the field")
                    );
                }
                Phase::FourthDown if self.down != 4 => {
                    return Err(reader.bad("the fourth-down choice needs down 4"));
                }
                Phase::Over => {}
                _ if self.down == 5 => return Err(reader.bad("the down is 1 to 4")),
                _ => {}
            }
            self.drafts = [HOME, AWAY].map(|_| RosterDraft {
                committed: true,
                ..Default::default()
            });
            self.read_toss(&reader)?;
            self.read_ball(&reader, holder, &mut hidden)?;
            self.read_turn(&reader)?;
            self.read_pieces_state(&reader)?;
            self.read_placed(&reader)?;
        }
        self.read_committed(&reader)?;
        if self.phase == Phase::Roster {
            self.read_drafts(&reader, &mut hidden)?;
        }
        self.read_plans(&reader, &mut hidden)?;
        reader.all_read(self.phase)?;
        if self.phase == Phase::Over {
            self.outcome = Some(self.final_outcome());
        }
        if hidden.any() {
            let mut draws = Rng::new(self.rng.next_u64());
            self.draw_hidden(hidden, &mut draws);
        }
        Ok(())
    }

    fn read_teams(&mut self, reader: &Reader, teams: &str) -> Result<(), RuleError> {
        let (home, away) = teams
            .split_once('/')
            .ok_or_else(|| reader.bad("no `/` between the teams"))?;
        for (seat, list) in [(HOME, home), (AWAY, away)] {
            let mut kinds = Vec::new();
            let mut locs = Vec::new();
            for item in list.split(',') {
                let mut chars = item.chars();
                let kind = chars
                    .next()
                    .and_then(Kind::from_symbol)
                    .ok_or_else(|| reader.bad("unknown piece symbol"))?;
                let loc = Location::parse(chars.as_str())
                    .ok_or_else(|| reader.bad("a piece needs a location such as h8.c"))?;
                kinds.push(kind);
                locs.push(loc);
            }
            roster::check_roster(&kinds)?;
            self.add_team(seat, &kinds);
            let first = self.pieces.len() - locs.len();
            for (piece, loc) in self.pieces[first..].iter_mut().zip(locs) {
                piece.loc = loc;
                piece.start = loc;
                piece.origin = loc;
                piece.snap_rank = loc.square.rank;
            }
        }
        for piece in &self.pieces {
            if let Some(other) = self.piece_at(piece.loc, piece.id) {
                return Err(reader.bad(format_args!(
                    "#{} and #{other} share {}",
                    piece.id, piece.loc
                )));
            }
        }
        Ok(())
    }

    /// Down, lines, period and possessions of a match under way.
    fn read_down(
        &mut self,
        reader: &Reader,
        [down, los, line, period, possessions]: [&&str; 5],
    ) -> Result<(), RuleError> {
        // Down 5 is a failed fourth down; only a match it ended stays there.
        self.down = reader.number(down, "the down is 1 to 4")?;
        if !(1..=5).contains(&self.down) {
            return Err(reader.bad("the down is 1 to 4"));
        }
        let rank = |s: &str| -> Result<i8, RuleError> {
            let r: i8 = reader.number(s, "ranks are 1 to 48")?;
            if (1..=field::RANKS).contains(&r) {
                Ok(r)
            } else {
                Err(reader.bad("ranks are 1 to 48"))
            }
        };
        self.los = rank(los)?;
        self.line = rank(line)?;
        if field::own_end_zone(self.offense, self.los)
            || field::scoring_end_zone(self.offense, self.los)
        {
            return Err(reader.bad("the line of scrimmage lies outside both end zones"));
        }
        if field::gain(self.offense, self.los, self.line) <= 0 {
            return Err(reader.bad("the first-down line lies beyond the line of scrimmage"));
        }
        self.period = reader.number(period, "no such period with these options")?;
        if self.period == 0 || self.period > 2 + self.settings.overtime_periods {
            return Err(reader.bad("no such period with these options"));
        }
        let what = "possessions are home-away";
        let (ph, pa) = possessions
            .split_once('-')
            .ok_or_else(|| reader.bad(what))?;
        let counts: [u8; 2] = [reader.number(ph, what)?, reader.number(pa, what)?];
        let per_team = self.period_drives() / 2;
        if counts.iter().any(|c| *c > per_team) {
            return Err(reader.bad("possessions exceed the period's"));
        }
        self.possessions = counts;
        if self.possessions[self.offense.index()] == 0 {
            return Err(reader.bad("the offense's current possession must be counted"));
        }
        Ok(())
    }

    fn read_toss(&mut self, reader: &Reader) -> Result<(), RuleError> {
        if let Some(seat) = reader.get("toss") {
            self.coin_winner = field::parse_seat(seat)
                .ok_or_else(|| reader.bad("the toss winner is home or away"))?;
        }
        Ok(())
    }

    /// The holder field and the play action in force.
    fn read_ball(
        &mut self,
        reader: &Reader,
        holder: &str,
        hidden: &mut Hidden,
    ) -> Result<(), RuleError> {
        let in_play = self.in_play();
        let fake = reader.only("fake", in_play, "to a snap or reaction turn")?;
        let keeper = reader.get("keeper");
        if holder == UNKNOWN {
            let fake = fake.ok_or_else(|| {
                reader.bad("holder `?` needs the play action hiding it: fake=<passer>,<partner>")
            })?;
            let (passer, partner) = fake
                .split_once(',')
                .ok_or_else(|| reader.bad("the play action is fake=<passer>,<partner>"))?;
            let passer: u32 = reader.number(passer, "the faking passer is a piece id")?;
            let partner: u32 = reader.number(partner, "the fake partner is a piece id")?;
            let own = |id: u32| self.piece_opt(id).filter(|p| p.owner == self.offense);
            if !own(passer).is_some_and(|p| p.kind.is_passer()) {
                return Err(reader.bad("the faking passer is the offense's qb or scrambler"));
            }
            if !own(partner).is_some_and(|p| p.id != passer && !p.kind.is_heavy()) {
                return Err(
                    reader.bad("the fake partner is another offense piece, not a heavy type")
                );
            }
            self.fake = Some(Fake { passer, partner });
            match keeper {
                None => {
                    return Err(
                        reader.bad("a play action needs keeper=<id>, or keeper=? when hidden")
                    );
                }
                Some(UNKNOWN) => {
                    hidden.holder = true;
                    self.holder = passer;
                }
                Some(id) => {
                    self.holder = reader.number(id, "the keeper is a piece id")?;
                    if self.holder != passer && self.holder != partner {
                        return Err(reader.bad("the keeper is the faking passer or its partner"));
                    }
                }
            }
        } else {
            if fake.is_some() || keeper.is_some() {
                return Err(reader.bad("a play action in force writes the holder as `?`"));
            }
            let id: u32 = reader.number(holder, "the holder must be a piece of the offense")?;
            match self.piece_opt(id) {
                Some(p) if p.owner == self.offense => self.holder = id,
                _ => return Err(reader.bad("the holder must be a piece of the offense")),
            }
        }
        let Some(pass) = reader.get("pass") else {
            return Ok(());
        };
        if pass == "thrown" {
            if !in_play && self.phase != Phase::Over {
                return Err(reader.bad("`pass=thrown` belongs to a down under way"));
            }
            self.pass_thrown = true;
            return Ok(());
        }
        if !self.defense_reacting() {
            return Err(reader.bad(
                "a pass waits to resolve (pass=<passer>><receiver>) only in the defence's \
                 reaction turn",
            ));
        }
        let (passer, receiver) = pass
            .split_once('>')
            .ok_or_else(|| reader.bad("the pass is pass=thrown or pass=<passer>><receiver>"))?;
        let passer: u32 = reader.number(passer, "the passer is a piece id")?;
        let receiver: u32 = reader.number(receiver, "the receiver is a piece id")?;
        let own = |id: u32| self.piece_opt(id).filter(|p| p.owner == self.offense);
        if !own(passer).is_some_and(|p| p.kind.is_passer())
            || !own(receiver).is_some_and(|p| p.id != passer && p.kind.eligible_receiver())
        {
            return Err(reader.bad(
                "a waiting pass goes from the offense's qb or scrambler to an eligible team-mate",
            ));
        }
        self.pending_pass = Some((passer, receiver));
        Ok(())
    }

    fn read_turn(&mut self, reader: &Reader) -> Result<(), RuleError> {
        let turn = reader
            .get("turn")
            .map(|t| reader.number::<u32>(t, "the turn is a number"))
            .transpose()?;
        let limit = self.settings.turns_per_down;
        self.round = match (self.phase, turn) {
            (Phase::Snap, None | Some(1)) => 1,
            (Phase::Reaction(_), Some(t)) if (2..=limit).contains(&t) => t,
            (Phase::Reaction(_), _) => {
                return Err(reader.bad(format_args!(
                    "a reaction turn needs turn=<2 to {limit}> (the snap is turn 1)"
                )));
            }
            (Phase::Over, Some(t)) if t <= limit => t,
            (_, None) => 0,
            _ => {
                return Err(reader.bad(
                    "`turn` counts the turns of a down's play: 1 at the snap, 2 and more in \
                     reaction turns",
                ));
            }
        };
        // Only the difference between an effect's last turn and the clock matters.
        self.clock = self.round;
        if self.defense_reacting() {
            for piece in self.pieces.iter_mut().filter(|p| p.owner == self.offense) {
                piece.moved = true;
            }
        }
        Ok(())
    }

    /// Where pieces stood, the abilities they used and the effects on them.
    fn read_pieces_state(&mut self, reader: &Reader) -> Result<(), RuleError> {
        let in_play = self.in_play();
        let belongs = "to a snap or reaction turn";
        let from = reader.only("from", in_play, belongs)?;
        for (id, loc) in self.per_piece(reader, "from", from)? {
            let loc = Location::parse(loc)
                .ok_or_else(|| reader.bad("from=<id>:<location>, e.g. 3:h9.c"))?;
            self.piece_mut(id).start = loc;
        }
        let snap = reader.only("snap", in_play, belongs)?;
        for (id, rank) in self.per_piece(reader, "snap", snap)? {
            let rank: i8 = reader.number(rank, "snap=<id>:<rank at the snap>")?;
            if !(1..=field::RANKS).contains(&rank) {
                return Err(reader.bad("ranks are 1 to 48"));
            }
            self.piece_mut(id).snap_rank = rank;
        }
        for (id, names) in self.per_piece(reader, "used", reader.get("used"))? {
            for name in names.split('+') {
                let ability = Ability::parse(name)
                    .filter(|a| a.limited())
                    .ok_or_else(|| {
                        reader.bad(format_args!("`{name}` is no once-per-series ability"))
                    })?;
                let piece = self.piece_mut(id);
                if piece.used.contains(&ability) {
                    return Err(reader.bad(format_args!("#{id} uses {name} twice")));
                }
                piece.used.push(ability);
            }
        }
        for (name, next) in [("change", false), ("change-next", true)] {
            for (id, change) in self.per_piece(reader, name, reader.get(name))? {
                let change: i8 =
                    reader.number(change, "a movement change is a number such as -1")?;
                let piece = self.piece_mut(id);
                *(if next {
                    &mut piece.change_next
                } else {
                    &mut piece.change_now
                }) = change;
            }
        }
        for (name, next) in [("chopped", false), ("chopped-next", true)] {
            for id in self.piece_ids(reader, name, reader.get(name))? {
                let piece = self.piece_mut(id);
                *(if next {
                    &mut piece.frozen_next
                } else {
                    &mut piece.frozen_now
                }) = true;
            }
        }
        for name in ["jammed", "anchored", "sealing"] {
            for (id, left) in self.per_piece(reader, name, reader.get(name))? {
                let left = match left {
                    "0" | "1" => self.clock + u32::from(left == "1"),
                    _ => {
                        return Err(reader.bad(format_args!(
                            "{name}=<id>:<turns left after this one, 0 or 1>"
                        )));
                    }
                };
                let piece = self.piece_mut(id);
                *match name {
                    "jammed" => &mut piece.jammed_until,
                    "anchored" => &mut piece.anchored_until,
                    _ => &mut piece.sealing_until,
                } = Some(left);
            }
        }
        Ok(())
    }

    fn read_placed(&mut self, reader: &Reader) -> Result<(), RuleError> {
        let forming = match self.phase {
            Phase::Formation(seat) => Some(seat),
            _ => None,
        };
        let placed = reader.only("placed", forming.is_some(), "to a formation")?;
        for id in self.piece_ids(reader, "placed", placed)? {
            if Some(self.piece(id).owner) != forming {
                return Err(reader.bad(format_args!("#{id} is not of the team forming")));
            }
            self.placed.push(id);
        }
        Ok(())
    }

    /// `name=<id>:<value>,...` as (id, value) pairs, each piece at most once.
    fn per_piece<'t>(
        &self,
        reader: &Reader,
        name: &str,
        value: Option<&'t str>,
    ) -> Result<Vec<(u32, &'t str)>, RuleError> {
        let mut items: Vec<(u32, &'t str)> = Vec::new();
        for item in value.into_iter().flat_map(|v| v.split(',')) {
            let (id, value) = item.split_once(':').ok_or_else(|| {
                reader.bad(format_args!("{name}=<id>:<value>,... reads no `{item}`"))
            })?;
            let id = self.read_piece_id(reader, name, id)?;
            if items.iter().any(|(seen, _)| *seen == id) {
                return Err(reader.bad(format_args!("`{name}` names #{id} twice")));
            }
            items.push((id, value));
        }
        Ok(items)
    }

    /// `name=<id>,...`, each piece at most once.
    fn piece_ids(
        &self,
        reader: &Reader,
        name: &str,
        value: Option<&str>,
    ) -> Result<Vec<u32>, RuleError> {
        let mut ids = Vec::new();
        for id in value.into_iter().flat_map(|v| v.split(',')) {
            let id = self.read_piece_id(reader, name, id)?;
            if ids.contains(&id) {
                return Err(reader.bad(format_args!("`{name}` names #{id} twice")));
            }
            ids.push(id);
        }
        Ok(ids)
    }

    fn read_piece_id(&self, reader: &Reader, name: &str, id: &str) -> Result<u32, RuleError> {
        reader
            .number::<u32>(id, &format!("`{name}` names pieces by id"))
            .ok()
            .filter(|id| self.piece_opt(*id).is_some())
            .ok_or_else(|| reader.bad(format_args!("`{name}` names no piece as `{id}`")))
    }

    /// Which teams committed their hidden roster or orders (public; in the defence's reaction
    /// turn the offence has, without saying so).
    fn read_committed(&mut self, reader: &Reader) -> Result<(), RuleError> {
        let drafting = matches!(self.phase, Phase::Roster | Phase::Snap);
        let value = reader.only("committed", drafting, "to the roster phase and the snap")?;
        for name in value.into_iter().flat_map(|v| v.split(',')) {
            let seat = field::parse_seat(name)
                .ok_or_else(|| reader.bad("committed=<seat>, a seat being home or away"))?;
            if self.committed[seat.index()] {
                return Err(reader.bad(format_args!("`committed` names {name} twice")));
            }
            self.committed[seat.index()] = true;
        }
        if self.committed == [true, true] {
            return Err(reader
                .bad("once both teams committed the rules reveal the rosters or run the orders"));
        }
        if self.defense_reacting() {
            self.committed[self.offense.index()] = true;
        }
        Ok(())
    }

    fn read_drafts(&mut self, reader: &Reader, hidden: &mut Hidden) -> Result<(), RuleError> {
        for (name, seat) in [("roster.home", HOME), ("roster.away", AWAY)] {
            let draft = &mut self.drafts[seat.index()];
            draft.committed = self.committed[seat.index()];
            match reader.get(name) {
                None => {}
                Some(UNKNOWN) => hidden.drafts[seat.index()] = true,
                Some(text) => {
                    let mut symbols = text.chars();
                    let captain = symbols.next().filter(|c| *c != '-');
                    let kind = |symbol: char| {
                        Kind::from_symbol(symbol).ok_or_else(|| {
                            reader.bad(format_args!("`{symbol}` in {name} is no piece symbol"))
                        })
                    };
                    let as_position = |e: RuleError| reader.bad(format_args!("{name}: {e}"));
                    if let Some(captain) = captain {
                        let captain = kind(captain)?;
                        draft.check_captain::<Words>(captain).map_err(as_position)?;
                        draft.captain = Some(captain);
                    }
                    for symbol in symbols {
                        let recruit = kind(symbol)?;
                        draft.check_recruit::<Words>(recruit).map_err(as_position)?;
                        draft.standard.push(recruit);
                    }
                }
            }
            if draft.committed && !hidden.drafts[seat.index()] && !draft.is_complete() {
                return Err(reader.bad(format_args!(
                    "{} committed a roster that is not complete",
                    field::seat_name(seat)
                )));
            }
        }
        Ok(())
    }

    /// The orders written this turn, checked as the rules check them when written; in the
    /// defence's reaction turn the offence's orders have run already and are only kept.
    fn read_plans(&mut self, reader: &Reader, hidden: &mut Hidden) -> Result<(), RuleError> {
        for (name, seat) in [("orders.home", HOME), ("orders.away", AWAY)] {
            let writing = match self.phase {
                Phase::Snap => true,
                Phase::Reaction(acting) => acting == seat,
                _ => false,
            };
            let ran = self.defense_reacting() && seat == self.offense;
            let belongs = "to a snap or reaction turn of a team writing (or that wrote) them";
            let Some(value) = reader.only(name, writing || ran, belongs)? else {
                continue;
            };
            if value == UNKNOWN {
                hidden.plans[seat.index()] = true;
                continue;
            }
            if hidden.holder && seat == self.offense {
                // Its play actions name the keeper; the drawn keeper could contradict them.
                return Err(reader.bad(format_args!(
                    "with keeper=? the offence's orders are unknown too: {name}=?"
                )));
            }
            let committed = std::mem::replace(&mut self.committed[seat.index()], false);
            for item in value.split(',') {
                let words = item.replace('_', " ");
                let action = notation::parse_action(&words)
                    .ok()
                    .filter(Action::is_order)
                    .ok_or_else(|| reader.bad(format_args!("`{item}` in {name} is no order")))?;
                if ran {
                    let own = action
                        .order_piece()
                        .and_then(|id| self.piece_opt(id))
                        .is_some_and(|p| p.owner == seat);
                    if !own {
                        return Err(reader.bad(format_args!(
                            "`{item}` orders no piece of {}",
                            field::seat_name(seat)
                        )));
                    }
                } else {
                    self.check(seat, &action)
                        .map_err(|e| reader.bad(format_args!("`{item}` in {name}: {e}")))?;
                }
                self.plans[seat.index()].push(action);
            }
            self.committed[seat.index()] = committed;
        }
        Ok(())
    }
}
