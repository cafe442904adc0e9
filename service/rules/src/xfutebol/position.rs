//! Position notation: the whole state of a match as text, and back.
//!
//! `h:Kd1,Dc2,...;a:Kd16,...;ball:e8;to:h;score:0-0;fouls:0-0;sprints:0-0;half:1;played:0`
//! is the start-position form; the writer adds the rest of the state after it (`phase`, `turn`,
//! `left`, `moved`, `reds`, `first`, `formations`, and when they apply `placed`, `then`,
//! `freekick`, `shootout`, `offsets`). Every later field is optional and defaults to what a
//! start position always meant: a fresh turn of play, the side to move kicking off first.
//!
//! A piece is its role letter, the slot letter for specials, then its square (`~N` after it
//! when resting: it comes back at its team's N-th turn start from now; `-` instead of a square
//! when sent off), `@square` when it lines up elsewhere than it stands, then optional
//! attributes `[speed.skill.strength.goal.defense]`.

use crate::game::{RuleError, Seat};
use crate::geometry::Square;

use super::events::{PhaseKind, ShootoutDetails};
use super::geometry::{in_own_half, kick_off_square};
use super::lineup::{
    Attributes, Formation, LineupProgress, PER_SPECIAL, Piece, Role, SPECIALS, Special, Status,
    check_custom_team, legal_lineup_square, piece_id, special_count, specials_complete,
};
use super::notation::square;
use super::{AWAY, Ball, HOME, Phase, SetPiece, XFutebol};

const FIELD_NAMES: &str = "h, a, ball, to, score, fouls, sprints, half, played, phase, turn, \
                           left, moved, reds, first, formations, placed, then, freekick, \
                           shootout, offsets";

fn bad(message: impl Into<String>) -> RuleError {
    RuleError::invalid_position(message)
}

fn seat_letter(seat: Seat) -> &'static str {
    if seat == HOME { "h" } else { "a" }
}

fn parse_seat(key: &str, text: &str) -> Result<Seat, RuleError> {
    match text {
        "h" => Ok(HOME),
        "a" => Ok(AWAY),
        _ => Err(bad(format!(
            "`{key}:{text}` should be `{key}:h` or `{key}:a`"
        ))),
    }
}

fn pair_text(values: [u32; 2]) -> String {
    format!("{}-{}", values[0], values[1])
}

fn parse_pair(key: &str, text: &str) -> Result<[u32; 2], RuleError> {
    let wrong = || bad(format!("`{key}:{text}` should look like `{key}:1-0`"));
    let (a, b) = text.split_once('-').ok_or_else(wrong)?;
    Ok([
        a.parse().map_err(|_| wrong())?,
        b.parse().map_err(|_| wrong())?,
    ])
}

fn parse_count<T: std::str::FromStr>(key: &str, text: &str, what: &str) -> Result<T, RuleError> {
    text.parse()
        .map_err(|_| bad(format!("`{key}:{text}`: `{key}` is {what}")))
}

fn position_square(key: &str, text: &str) -> Result<Square, RuleError> {
    square(text).map_err(|e| bad(format!("`{key}`: {}", e.message)))
}

/// `home/away`, each side parsed by `side`.
fn per_team<T>(
    key: &str,
    text: &str,
    side: impl Fn(&str) -> Result<T, RuleError>,
) -> Result<[T; 2], RuleError> {
    let (home, away) = text.split_once('/').ok_or_else(|| {
        bad(format!(
            "`{key}:{text}` should give home and away as `home/away`"
        ))
    })?;
    Ok([side(home)?, side(away)?])
}

fn phase_from_name(text: &str) -> Result<PhaseKind, RuleError> {
    [
        PhaseKind::Lineup,
        PhaseKind::Play,
        PhaseKind::SendOff,
        PhaseKind::Penalty,
        PhaseKind::Shootout,
    ]
    .into_iter()
    .find(|kind| kind.name() == text)
    .ok_or_else(|| {
        let over = if text == PhaseKind::Over.name() {
            "a finished match is no position to play from; "
        } else {
            ""
        };
        bad(format!(
            "`phase:{text}`: {over}phases are lineup, play, send_off, penalty and shootout"
        ))
    })
}

/// Every field of a position, each at most once; `None` where the text leaves it out.
#[derive(Default)]
struct Fields<'a> {
    home: Option<&'a str>,
    away: Option<&'a str>,
    /// `Some(None)`: `ball:-`, no ball on the pitch (the lineup).
    ball: Option<Option<Square>>,
    to: Option<Seat>,
    score: Option<[u32; 2]>,
    fouls: Option<[u32; 2]>,
    sprints: Option<[u32; 2]>,
    half: Option<u8>,
    played: Option<u32>,
    phase: Option<PhaseKind>,
    turn: Option<u32>,
    left: Option<u8>,
    moved: Option<bool>,
    reds: Option<[u32; 2]>,
    first: Option<Option<Seat>>,
    formations: Option<[Option<Formation>; 2]>,
    placed: Option<[Vec<u8>; 2]>,
    then: Option<Option<SetPieceText>>,
    free_kick: Option<Square>,
    shootout: Option<ShootoutDetails>,
    offsets: Option<Vec<[i32; 5]>>,
}

/// A set piece as the notation names it: the foul square (the fouled piece stands on it).
#[derive(Clone, Copy)]
enum SetPieceText {
    FreeKick(Square),
    Penalty(Square),
}

fn set_once<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), RuleError> {
    if slot.replace(value).is_some() {
        return Err(bad(format!("the field `{key}` is given twice")));
    }
    Ok(())
}

impl<'a> Fields<'a> {
    fn parse(text: &'a str) -> Result<Self, RuleError> {
        let mut fields = Fields::default();
        for field in text.trim().split(';') {
            let (key, value) = field
                .split_once(':')
                .ok_or_else(|| bad(format!("`{field}` should be `key:value`")))?;
            let key = key.trim();
            match key {
                "h" => set_once(&mut fields.home, key, value)?,
                "a" => set_once(&mut fields.away, key, value)?,
                "ball" => {
                    let ball = match value {
                        "-" => None,
                        _ => Some(position_square(key, value)?),
                    };
                    set_once(&mut fields.ball, key, ball)?
                }
                "to" => set_once(&mut fields.to, key, parse_seat(key, value)?)?,
                "score" => set_once(&mut fields.score, key, parse_pair(key, value)?)?,
                "fouls" => set_once(&mut fields.fouls, key, parse_pair(key, value)?)?,
                "sprints" => set_once(&mut fields.sprints, key, parse_pair(key, value)?)?,
                "half" => {
                    let half = match value {
                        "1" => 1,
                        "2" => 2,
                        _ => return Err(bad("`half` is 1 or 2")),
                    };
                    set_once(&mut fields.half, key, half)?
                }
                "played" => set_once(
                    &mut fields.played,
                    key,
                    parse_count(key, value, "a count of movements")?,
                )?,
                "phase" => set_once(&mut fields.phase, key, phase_from_name(value)?)?,
                "turn" => set_once(
                    &mut fields.turn,
                    key,
                    parse_count(key, value, "the turn number")?,
                )?,
                "left" => {
                    let left = match value {
                        "0" => 0,
                        "1" => 1,
                        "2" => 2,
                        _ => {
                            return Err(bad(format!(
                                "`left:{value}`: a turn has 0 to 2 movements left"
                            )));
                        }
                    };
                    set_once(&mut fields.left, key, left)?
                }
                "moved" => {
                    let moved = match value {
                        "yes" => true,
                        "no" => false,
                        _ => {
                            return Err(bad(format!(
                                "`moved:{value}` should be `moved:yes` or `moved:no`"
                            )));
                        }
                    };
                    set_once(&mut fields.moved, key, moved)?
                }
                "reds" => set_once(&mut fields.reds, key, parse_pair(key, value)?)?,
                "first" => {
                    let first = match value {
                        "-" => None,
                        _ => Some(parse_seat(key, value)?),
                    };
                    set_once(&mut fields.first, key, first)?
                }
                "formations" => {
                    let formations = per_team(key, value, |side| match side {
                        "-" => Ok(None),
                        name => Formation::from_name(name).map(Some).ok_or_else(|| {
                            bad(format!(
                                "`formations:{value}`: `{name}` is no formation; use 4-3-3, \
                                 5-3-2 or - (not chosen yet)"
                            ))
                        }),
                    })?;
                    set_once(&mut fields.formations, key, formations)?
                }
                "placed" => {
                    let placed = per_team(key, value, |side| {
                        if side == "-" {
                            return Ok(Vec::new());
                        }
                        side.split('.')
                            .map(|number| match number.parse::<u8>() {
                                Ok(n @ 1..=11) => Ok(n),
                                _ => Err(bad(format!(
                                    "`placed:{value}`: `{number}` is no shirt number from 1 to 11"
                                ))),
                            })
                            .collect()
                    })?;
                    set_once(&mut fields.placed, key, placed)?
                }
                "then" => {
                    let then = parse_then(value)?;
                    set_once(&mut fields.then, key, then)?
                }
                "freekick" => set_once(&mut fields.free_kick, key, position_square(key, value)?)?,
                "shootout" => set_once(&mut fields.shootout, key, parse_shootout(value)?)?,
                "offsets" => set_once(&mut fields.offsets, key, parse_offsets(value)?)?,
                other => {
                    return Err(bad(format!(
                        "unknown field `{other}`; fields are {FIELD_NAMES}"
                    )));
                }
            }
        }
        Ok(fields)
    }
}

/// `freekick-e12`, `penalty-e5` or `end` (the period ends after the send-off).
fn parse_then(text: &str) -> Result<Option<SetPieceText>, RuleError> {
    let wrong = || {
        bad(format!(
            "`then:{text}` should be `then:freekick-<square>`, `then:penalty-<square>` or \
             `then:end`"
        ))
    };
    if text == "end" {
        return Ok(None);
    }
    let (kind, at) = text.split_once('-').ok_or_else(wrong)?;
    let at = position_square("then", at)?;
    match kind {
        "freekick" => Ok(Some(SetPieceText::FreeKick(at))),
        "penalty" => Ok(Some(SetPieceText::Penalty(at))),
        _ => Err(wrong()),
    }
}

/// `a/2-1/1-0`: who kicked first, kicks taken and goals scored (home-away).
fn parse_shootout(text: &str) -> Result<ShootoutDetails, RuleError> {
    let parts: Vec<&str> = text.split('/').collect();
    let [first, kicks, goals] = parts[..] else {
        return Err(bad(format!(
            "`shootout:{text}` should look like `shootout:a/2-1/1-0` (first kicker, kicks, \
             goals)"
        )));
    };
    let details = ShootoutDetails {
        first: Some(parse_seat("shootout", first)?),
        kicks: parse_pair("shootout kicks", kicks)?,
        goals: parse_pair("shootout goals", goals)?,
    };
    if details.goals[0] > details.kicks[0] || details.goals[1] > details.kicks[1] {
        return Err(bad(format!(
            "`shootout:{text}`: a side scores at most one goal a kick"
        )));
    }
    Ok(details)
}

/// 22 groups of five offsets, in piece-id order, separated by `/`.
fn parse_offsets(text: &str) -> Result<Vec<[i32; 5]>, RuleError> {
    let wrong = || {
        bad(format!(
            "`offsets:{text}` should hold 22 groups of five whole numbers like `3.-2.0.1.-5`, \
             separated by `/`"
        ))
    };
    let offsets: Vec<[i32; 5]> = text
        .split('/')
        .map(|group| {
            let values: Vec<i32> = group
                .split('.')
                .map(|v| v.parse().map_err(|_| wrong()))
                .collect::<Result<_, _>>()?;
            values.try_into().map_err(|_| wrong())
        })
        .collect::<Result<_, _>>()?;
    if offsets.len() != 22 {
        return Err(wrong());
    }
    Ok(offsets)
}

impl XFutebol {
    pub(super) fn write_position(&self) -> String {
        let formations = self.lineups.each_ref().map(|progress| {
            progress
                .formation
                .map_or("-".to_owned(), |f| f.name().to_owned())
        });
        let mut fields = vec![
            format!("h:{}", self.team_text(HOME)),
            format!("a:{}", self.team_text(AWAY)),
            format!(
                "ball:{}",
                self.ball_square()
                    .map_or_else(|| "-".to_owned(), |s| s.to_string())
            ),
            format!("to:{}", seat_letter(self.to_act)),
            format!("score:{}", pair_text(self.score)),
            format!("fouls:{}", pair_text(self.fouls)),
            format!("sprints:{}", pair_text(self.sprints)),
            format!("half:{}", self.half),
            format!("played:{}", self.movements_played),
            format!("phase:{}", self.phase_kind().name()),
            format!("turn:{}", self.turn_number),
            format!("left:{}", self.movements_left),
            format!("moved:{}", if self.moved { "yes" } else { "no" }),
            format!("reds:{}", pair_text(self.red_cards)),
            format!("first:{}", self.first_kick_off.map_or("-", seat_letter)),
            format!("formations:{}/{}", formations[0], formations[1]),
        ];
        if self.phase == Phase::Lineup
            && self
                .lineups
                .iter()
                .any(|progress| !progress.placed.is_empty())
        {
            let placed = self.lineups.each_ref().map(|progress| {
                if progress.placed.is_empty() {
                    return "-".to_owned();
                }
                progress
                    .placed
                    .iter()
                    .map(|id| self.piece(*id).number.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            });
            fields.push(format!("placed:{}/{}", placed[0], placed[1]));
        }
        if let Phase::SendOff { then } = self.phase {
            fields.push(format!(
                "then:{}",
                match then {
                    Some(SetPiece::FreeKick { square, .. }) => format!("freekick-{square}"),
                    Some(SetPiece::Penalty { square }) => format!("penalty-{square}"),
                    None => "end".to_owned(),
                }
            ));
        }
        // Only a free kick waits for the first movement of a turn; a penalty has its phase.
        if let Some(SetPiece::FreeKick { square, .. }) = self.free_kick {
            fields.push(format!("freekick:{square}"));
        }
        if let Some(first) = self.shootout.first {
            fields.push(format!(
                "shootout:{}/{}/{}",
                seat_letter(first),
                pair_text(self.shootout.kicks),
                pair_text(self.shootout.goals)
            ));
        }
        // Offsets only matter while pieces are still to be lined up or named specials; in
        // play every piece carries its values.
        if self.phase == Phase::Lineup && self.settings.attribute_variation > 0 {
            let groups: Vec<String> = self
                .offsets
                .iter()
                .map(|group| group.map(|v| v.to_string()).join("."))
                .collect();
            fields.push(format!("offsets:{}", groups.join("/")));
        }
        fields.join(";")
    }

    /// A team in shirt order, so that reading it back (numbers follow the order) keeps every
    /// piece's number and id.
    fn team_text(&self, seat: Seat) -> String {
        let mut team: Vec<&Piece> = self.pieces.iter().filter(|p| p.seat == seat).collect();
        team.sort_by_key(|p| p.id);
        team.into_iter()
            .map(|p| {
                let mut token = p.role().symbol().to_string();
                if p.special.is_some() {
                    token.push(p.slot.symbol());
                }
                let lines_up_where_it_is = match p.status {
                    Status::OnPitch(square) => {
                        token.push_str(&square.to_string());
                        square
                    }
                    Status::Resting {
                        turns_left,
                        left_from,
                    } => {
                        token.push_str(&format!("{left_from}~{}", turns_left + 1));
                        left_from
                    }
                    // A sent-off piece never lines up again.
                    Status::SentOff => {
                        token.push('-');
                        p.start
                    }
                };
                if p.start != lines_up_where_it_is {
                    token.push_str(&format!("@{}", p.start));
                }
                // With individual attributes a piece without values would be read with the
                // reader's own seeded offsets, so every piece carries its values then.
                if p.attributes != p.role().attributes() || self.settings.attribute_variation > 0 {
                    let [a, b, c, d, e] = p.attributes.as_array();
                    token.push_str(&format!("[{a}.{b}.{c}.{d}.{e}]"));
                }
                token
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// A custom start or a position written mid-match. Outside the lineup each side needs a
    /// whole team (11 pieces, sent-off ones included) lined up with its keeper in its own half.
    pub(super) fn load_position(&mut self, text: &str) -> Result<(), RuleError> {
        self.load_position_unchecked(text)?;
        if self.phase == Phase::Lineup {
            return Ok(());
        }
        for seat in [HOME, AWAY] {
            check_custom_team(&self.pieces, seat)?;
            for piece in self.pieces.iter().filter(|p| p.seat == seat) {
                if let Status::OnPitch(_) = piece.status
                    && piece.slot == Role::Keeper
                    && !in_own_half(seat, piece.start)
                {
                    return Err(bad(format!(
                        "the keeper lining up on {} must start in its own half",
                        piece.start
                    )));
                }
            }
        }
        Ok(())
    }

    /// Reads a position without checking team make-up (also used by tests for small scenes).
    pub(super) fn load_position_unchecked(&mut self, text: &str) -> Result<(), RuleError> {
        let fields = Fields::parse(text)?;
        if let Some(offsets) = &fields.offsets {
            self.offsets = offsets.clone();
        }
        let phase = fields.phase.unwrap_or(PhaseKind::Play);
        let in_lineup = phase == PhaseKind::Lineup;
        let formations = fields.formations.unwrap_or([None, None]);
        let mut pieces = Vec::new();
        for (seat, team) in [(HOME, fields.home), (AWAY, fields.away)] {
            let mut team_pieces = self.read_team(seat, team.unwrap_or(""))?;
            if let Some(formation) = formations[seat.index()] {
                order_by_formation(seat, formation, &mut team_pieces)?;
            }
            pieces.extend(team_pieces);
        }
        let mut squares: Vec<Square> = pieces.iter().filter_map(Piece::square).collect();
        let count = squares.len();
        squares.sort();
        squares.dedup();
        if squares.len() != count {
            return Err(bad("two pieces share a square"));
        }
        let to_act = fields.to.ok_or_else(|| bad("missing `to:h|a`"))?;
        self.pieces = pieces;
        self.ball = match fields.ball {
            Some(None) if in_lineup => Ball::Unplaced,
            None if in_lineup => Ball::Unplaced,
            Some(Some(_)) if in_lineup => {
                return Err(bad(
                    "`ball`: no ball is on the pitch during the lineup; use `ball:-`",
                ));
            }
            Some(None) => {
                return Err(bad("`ball:-`: outside the lineup the ball is on the pitch"));
            }
            Some(Some(square)) => match self.piece_at(square) {
                Some(p) => Ball::Held(p.id),
                None => Ball::Loose(square),
            },
            None => Ball::Loose(kick_off_square(to_act)),
        };
        if let Ball::Loose(square) = self.ball
            && self.piece_at(square).is_some()
        {
            return Err(bad("the ball's square is taken"));
        }
        self.to_act = to_act;
        self.score = fields.score.unwrap_or([0, 0]);
        self.fouls = fields.fouls.unwrap_or([0, 0]);
        self.sprints = fields.sprints.unwrap_or([0, 0]);
        self.half = fields.half.unwrap_or(1);
        self.movements_played = fields.played.unwrap_or(0);
        self.red_cards = fields.reds.unwrap_or([0, 0]);
        self.turn_number = fields.turn.unwrap_or(if in_lineup { 0 } else { 1 });
        self.movements_left = fields.left.unwrap_or(2);
        self.moved = fields.moved.unwrap_or(false);
        if phase == PhaseKind::Play && self.movements_left == 0 {
            return Err(bad("`left:0`: a turn in play has 1 or 2 movements left"));
        }
        self.first_kick_off = match fields.first {
            Some(first) => first,
            None if in_lineup => None,
            None => Some(to_act),
        };
        if in_lineup && self.first_kick_off.is_some() {
            return Err(bad(
                "`first`: nobody kicked off during the lineup; use `first:-`",
            ));
        }
        self.free_kick = match fields.free_kick {
            None => None,
            Some(square) => Some(self.free_kick_at(square, phase, to_act)?),
        };
        self.shootout = match (phase, fields.shootout) {
            (PhaseKind::Shootout, Some(shootout)) => shootout,
            (PhaseKind::Shootout, None) => {
                return Err(bad(
                    "the shootout phase needs `shootout:<first>/<kicks>/<goals>`",
                ));
            }
            (_, Some(_)) => return Err(bad("`shootout` belongs to the shootout phase")),
            (_, None) => ShootoutDetails::default(),
        };
        self.phase = match phase {
            PhaseKind::SendOff => {
                let then = fields
                    .then
                    .ok_or_else(|| bad("the send_off phase needs `then:` (what follows it)"))?;
                Phase::SendOff {
                    then: then
                        .map(|then| self.set_piece(then, to_act.opponent()))
                        .transpose()?,
                }
            }
            _ if fields.then.is_some() => {
                return Err(bad("`then` belongs to the send_off phase"));
            }
            PhaseKind::Lineup => Phase::Lineup,
            PhaseKind::Play => Phase::Play,
            PhaseKind::Penalty => Phase::Penalty,
            PhaseKind::Shootout => Phase::Shootout,
            PhaseKind::Over => unreachable!("the reader refuses `phase:over`"),
        };
        self.lineups = [HOME, AWAY].map(|seat| LineupProgress {
            formation: formations[seat.index()],
            placed: Vec::new(),
            // Home lines up first and hands over to away by confirming; away confirming ends
            // the lineup.
            confirmed: !in_lineup || (seat == HOME && to_act == AWAY),
        });
        match fields.placed {
            Some(placed) if in_lineup => {
                for seat in [HOME, AWAY] {
                    for &number in &placed[seat.index()] {
                        let id = piece_id(seat, number);
                        if !self.pieces.iter().any(|p| p.id == id) {
                            return Err(bad(format!(
                                "`placed`: {} has no piece with number {number}",
                                seat_name(seat)
                            )));
                        }
                        if self.lineups[seat.index()].placed.contains(&id) {
                            return Err(bad(format!(
                                "`placed`: {} number {number} is listed twice",
                                seat_name(seat)
                            )));
                        }
                        self.lineups[seat.index()].placed.push(id);
                    }
                }
            }
            Some(_) => return Err(bad("`placed` belongs to the lineup phase")),
            None => {}
        }
        if in_lineup {
            self.check_lineup()?;
        }
        Ok(())
    }

    /// The pending free kick on `square`: the fouled piece standing there takes it. In play it
    /// must be a piece of the side to act; in other phases a free kick left over from before the
    /// foul only shows in the details, and its piece may have left the pitch since.
    fn free_kick_at(
        &self,
        square: Square,
        phase: PhaseKind,
        to_act: Seat,
    ) -> Result<SetPiece, RuleError> {
        let kicker = self.piece_at(square);
        if phase == PhaseKind::Play && kicker.is_none_or(|p| p.seat != to_act) {
            return Err(bad(format!(
                "`freekick:{square}`: the free kick needs a piece of the side to act on its square"
            )));
        }
        Ok(SetPiece::FreeKick {
            square,
            kicker: kicker.map_or(0, |p| p.id),
        })
    }

    /// What follows a send-off, for the fouled side.
    fn set_piece(&self, then: SetPieceText, fouled: Seat) -> Result<SetPiece, RuleError> {
        let (square, name) = match then {
            SetPieceText::FreeKick(square) => (square, "freekick"),
            SetPieceText::Penalty(square) => (square, "penalty"),
        };
        let fouled_piece = self
            .piece_at(square)
            .filter(|p| p.seat == fouled)
            .ok_or_else(|| {
                bad(format!(
                    "`then:{name}-{square}`: the fouled piece of {} must stand on the foul square",
                    seat_name(fouled)
                ))
            })?;
        Ok(match then {
            SetPieceText::FreeKick(square) => SetPiece::FreeKick {
                square,
                kicker: fouled_piece.id,
            },
            SetPieceText::Penalty(square) => SetPiece::Penalty { square },
        })
    }

    /// A lineup in progress could have come from the lineup actions: a side with a formation
    /// has its 11 pieces on lineup squares with at most two of each special, none without; home
    /// finished (confirmed) exactly when away is to act, and away starts only after that.
    fn check_lineup(&self) -> Result<(), RuleError> {
        for seat in [HOME, AWAY] {
            let name = seat_name(seat);
            let progress = &self.lineups[seat.index()];
            let team: Vec<&Piece> = self.pieces.iter().filter(|p| p.seat == seat).collect();
            if progress.formation.is_none() {
                if !team.is_empty() {
                    return Err(bad(format!(
                        "{name} has pieces but no formation; give `formations:<home>/<away>`"
                    )));
                }
                if progress.confirmed {
                    return Err(bad(format!(
                        "{name} confirmed its lineup without a formation"
                    )));
                }
                continue;
            }
            if seat == AWAY && self.to_act == HOME {
                return Err(bad("away lines up only after home confirmed its lineup"));
            }
            for piece in &team {
                let Status::OnPitch(square) = piece.status else {
                    return Err(bad(format!(
                        "{name} number {}: during the lineup every piece stands on the pitch",
                        piece.number
                    )));
                };
                if !legal_lineup_square(seat, piece.slot, square) {
                    return Err(bad(format!(
                        "{name} number {} cannot line up on {square}",
                        piece.number
                    )));
                }
            }
            for special in SPECIALS {
                if special_count(&self.pieces, seat, special) > PER_SPECIAL {
                    return Err(bad(format!(
                        "{name} names more than {PER_SPECIAL} {}s",
                        special.role().name()
                    )));
                }
            }
            if progress.confirmed && !specials_complete(&self.pieces, seat) {
                return Err(bad(format!(
                    "{name} confirmed its lineup without two of each special"
                )));
            }
        }
        Ok(())
    }

    fn read_team(&self, seat: Seat, text: &str) -> Result<Vec<Piece>, RuleError> {
        let tokens: Vec<&str> = text.split(',').filter(|t| !t.is_empty()).collect();
        if tokens.len() > 11 {
            return Err(bad("a team has at most 11 pieces"));
        }
        tokens
            .iter()
            .enumerate()
            .map(|(index, token)| self.read_piece(seat, index as u8 + 1, token))
            .collect()
    }

    fn read_piece(&self, seat: Seat, number: u8, token: &str) -> Result<Piece, RuleError> {
        let wrong = |why: &str| {
            bad(format!(
                "piece `{token}`: {why}; pieces look like Kd1, Dc2, LDd3, Ae8~2, Ae12@e8, D- or \
                 Ac7[70.80.60.90.40]"
            ))
        };
        let (body, attributes) = match token.split_once('[') {
            Some((body, rest)) => {
                let values: Vec<u32> = rest
                    .strip_suffix(']')
                    .ok_or_else(|| wrong("unclosed attributes"))?
                    .split('.')
                    .map(|v| v.parse().map_err(|_| wrong("attributes are numbers")))
                    .collect::<Result<_, _>>()?;
                let values: [u32; 5] = values
                    .try_into()
                    .map_err(|_| wrong("five attributes are needed"))?;
                (body, Some(Attributes::from_array(values)))
            }
            None => (token, None),
        };
        let (body, start) = match body.split_once('@') {
            Some((body, start)) => (
                body,
                Some(square(start).map_err(|e| wrong(&format!("`@`: {}", e.message)))?),
            ),
            None => (body, None),
        };
        let mut chars = body.chars();
        let role = chars
            .next()
            .and_then(Role::from_symbol)
            .ok_or_else(|| wrong("unknown role letter"))?;
        let mut rest = chars.as_str();
        let special = match role {
            Role::Dribbler => Some(Special::Dribbler),
            Role::Goaler => Some(Special::Goaler),
            Role::LongExpert => Some(Special::LongExpert),
            _ => None,
        };
        let slot = match special {
            None => role,
            Some(_) => match rest.chars().next().and_then(Role::from_symbol) {
                Some(slot @ (Role::Defender | Role::Midfielder | Role::Attacker)) => {
                    rest = &rest[1..];
                    slot
                }
                _ => Role::Attacker,
            },
        };
        let id = piece_id(seat, number);
        let (status, stands) = if rest == "-" {
            (Status::SentOff, Square::new(0, 0))
        } else if let Some((at, turns)) = rest.split_once('~') {
            let at = square(at).map_err(|e| wrong(&e.message))?;
            let turns: u32 = turns.parse().map_err(|_| wrong("`~N` needs a number"))?;
            if turns == 0 {
                return Err(wrong("a resting piece rests at least 1 turn"));
            }
            (
                Status::Resting {
                    turns_left: turns - 1,
                    left_from: at,
                },
                at,
            )
        } else {
            let at = square(rest).map_err(|e| wrong(&e.message))?;
            (Status::OnPitch(at), at)
        };
        Ok(Piece {
            id,
            seat,
            number,
            slot,
            special,
            attributes: attributes
                .unwrap_or_else(|| role.attributes().shifted(self.offsets[id as usize - 1])),
            status,
            start: start.unwrap_or(stands),
        })
    }
}

fn seat_name(seat: Seat) -> &'static str {
    super::seat_name(seat)
}

/// A team whose formation is known lines up in the formation table's order (as the lineup
/// created it), and each piece fills its number's slot.
fn order_by_formation(
    seat: Seat,
    formation: Formation,
    team: &mut [Piece],
) -> Result<(), RuleError> {
    let name = seat_name(seat);
    if team.len() != 11 {
        return Err(bad(format!(
            "{name} plays {} and so lists 11 pieces, not {}",
            formation.name(),
            team.len()
        )));
    }
    let slots = formation.slots();
    for piece in team.iter() {
        let (_, slot, _, _) = slots
            .iter()
            .find(|(number, ..)| *number == piece.number)
            .expect("a formation numbers its slots 1 to 11");
        if piece.slot != *slot {
            return Err(bad(format!(
                "{name} number {} fills a {} slot in {}, not a {} slot",
                piece.number,
                slot.name(),
                formation.name(),
                piece.slot.name()
            )));
        }
    }
    team.sort_by_key(|piece| {
        slots
            .iter()
            .position(|(number, ..)| *number == piece.number)
            .expect("a formation numbers its slots 1 to 11")
    });
    Ok(())
}
