//! Action notation.
//!
//! - choice: `+Q` (one piece), `+default`
//! - placement: `K@d1`, `@default`
//! - move: `Nc3`, `e5`, with the origin file, rank or square when two pieces of a kind could
//!   go to the same square (`Rad1`, `R1d4`, `Qb2d4`); promotion `e8=Q`
//! - capture of the ball carrier: `Nxe5`, `dxe5`, `dxe8=N`
//! - pass: `Nc3>e4`, `Ke1>d2`, pawns without a letter: `d4>e5`
//! - wait (only when nothing else is legal): `--`

use super::moves::Occupancy;
use super::rules::{MOVEMENT, NAME_THE_ORIGIN, OWN_PIECE};
use super::{Action, KingsGoal, Phase, PieceKind, seat_name};
use crate::game::{Game, RuleError, Seat};
use crate::geometry::Square;
use crate::rivals::{Rivals, push_origin_hint};

/// What a move or capture text says, before it is matched against the legal actions.
struct MoveText {
    kind: PieceKind,
    from_file: Option<i8>,
    from_rank: Option<i8>,
    capture: bool,
    to: Square,
    promotion: Option<PieceKind>,
}

fn file_letter(file: i8) -> char {
    (b'a' + (file - 1) as u8) as char
}

fn parse_square(text: &str, whole: &str) -> Result<Square, RuleError> {
    Square::parse(text)
        .filter(|s| (1..=8).contains(&s.file) && (1..=8).contains(&s.rank))
        .ok_or_else(|| {
            RuleError::malformed(format!(
                "`{whole}`: `{text}` is not a square of the board (a1..h8)"
            ))
        })
}

impl KingsGoal {
    pub(super) fn notation(&self, seat: Seat, action: &Action) -> String {
        let board = self.occupancy();
        let origins = self
            .needs_origins(seat, &board, action)
            .then(|| self.origins(seat, &board));
        write_notation(&board, action, origins.as_ref())
    }

    /// The notations of many actions of `seat`, exactly as [`KingsGoal::notation`] gives them one
    /// by one, with the legal moves that disambiguation looks at generated once for the list.
    pub(super) fn notations(&self, seat: Seat, actions: &[Action]) -> Vec<String> {
        let board = self.occupancy();
        let origins = actions
            .iter()
            .any(|a| self.needs_origins(seat, &board, a))
            .then(|| self.origins(seat, &board));
        actions
            .iter()
            .map(|action| write_notation(&board, action, origins.as_ref()))
            .collect()
    }

    /// The legal moves (class 0) and captures (class 1) of `seat`, for naming origins.
    fn origins(&self, seat: Seat, board: &Occupancy<'_>) -> Rivals<PieceKind> {
        let mut origins = Rivals::new(8, 1, 8, 2);
        for action in self.legal_actions(seat) {
            let (capture, from, to) = match action {
                Action::Move { from, to, .. } => (false, from, to),
                Action::Capture { from, to, .. } => (true, from, to),
                _ => continue,
            };
            if let Some(kind) = board.kind_at(from) {
                origins.add(usize::from(capture), to, kind, from);
            }
        }
        origins
    }
}

impl KingsGoal {
    /// Whether the notation of `action` may have to name its mover's origin: a move or capture
    /// by a piece other than a pawn, when `seat` has another piece of that kind that might make
    /// the same move.
    fn needs_origins(&self, seat: Seat, board: &Occupancy<'_>, action: &Action) -> bool {
        let from = match action {
            Action::Move { from, .. } | Action::Capture { from, .. } => *from,
            _ => return false,
        };
        match board.kind_at(from) {
            Some(PieceKind::Pawn) | None => false,
            Some(kind) => self
                .pieces
                .iter()
                .any(|p| p.owner == seat && p.kind == kind && p.square != from),
        }
    }
}

/// Writes the notation of `action`; `origins` holds the seat's legal moves and captures whenever
/// [`KingsGoal::needs_origins`] says the action needs them: without them no rival can exist.
fn write_notation(
    board: &Occupancy<'_>,
    action: &Action,
    origins: Option<&Rivals<PieceKind>>,
) -> String {
    let mut text = String::with_capacity(8);
    match action {
        Action::Choose(kind) => {
            text.push('+');
            text.push(kind.letter());
        }
        Action::DefaultChoice => text.push_str("+default"),
        Action::Place { kind, square } => {
            text.push(kind.letter());
            text.push('@');
            square.push_name(&mut text);
        }
        Action::DefaultPlacement => text.push_str("@default"),
        Action::Wait => text.push_str("--"),
        Action::Pass { from, to } => {
            match board.kind_at(*from) {
                Some(PieceKind::Pawn) | None => {}
                Some(kind) => text.push(kind.letter()),
            }
            from.push_name(&mut text);
            text.push('>');
            to.push_name(&mut text);
        }
        Action::Move {
            from,
            to,
            promotion,
        }
        | Action::Capture {
            from,
            to,
            promotion,
        } => {
            let capture = matches!(action, Action::Capture { .. });
            let kind = board.kind_at(*from).unwrap_or(PieceKind::Pawn);
            if kind == PieceKind::Pawn {
                if capture {
                    text.push(file_letter(from.file));
                }
            } else {
                text.push(kind.letter());
                if let Some(origins) = origins {
                    let rivals = origins.of(usize::from(capture), *to, kind, *from);
                    push_origin_hint(&mut text, rivals, *from);
                }
            }
            if capture {
                text.push('x');
            }
            to.push_name(&mut text);
            if let Some(p) = promotion {
                text.push('=');
                text.push(p.letter());
            }
        }
    }
    text
}

impl KingsGoal {
    pub(super) fn read_notation(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        self.check_turn(seat)?;
        let text = text.trim();
        let action = if text == "--" {
            Action::Wait
        } else if text == "+default" {
            Action::DefaultChoice
        } else if text == "@default" {
            Action::DefaultPlacement
        } else if let Some(rest) = text.strip_prefix('+') {
            let mut chars = rest.chars();
            let kind = match (chars.next().and_then(PieceKind::from_letter), chars.next()) {
                (Some(kind), None) => kind,
                _ => {
                    return Err(RuleError::malformed(format!(
                        "`{text}`: a choice is `+` and one piece letter (Q, R, B, N, P) or \
                         `+default`"
                    )));
                }
            };
            Action::Choose(kind)
        } else if let Some((piece, square)) = text.split_once('@') {
            let mut chars = piece.chars();
            let kind = match (chars.next().and_then(PieceKind::from_letter), chars.next()) {
                (Some(kind), None) => kind,
                _ => {
                    return Err(RuleError::malformed(format!(
                        "`{text}`: a placement is a piece letter, `@` and a square, e.g. `K@d1`"
                    )));
                }
            };
            Action::Place {
                kind,
                square: parse_square(square, text)?,
            }
        } else if let Some((left, right)) = text.split_once('>') {
            let (named, origin) = match left
                .chars()
                .next()
                .filter(|c| "KQRBN".contains(*c))
                .and_then(PieceKind::from_letter)
            {
                Some(kind) => (kind, &left[1..]),
                None => (PieceKind::Pawn, left),
            };
            let from = parse_square(origin, text)?;
            let to = parse_square(right, text)?;
            if self.phase == Phase::Play
                && let Some(piece) = self.piece_at(from).filter(|p| p.owner == seat)
                && named != piece.kind
            {
                return Err(RuleError::breaks(
                    OWN_PIECE,
                    format!(
                        "`{text}`: {} has no {} on {from}: the piece there is a {}; write its \
                         pass as `{}`",
                        seat_name(seat),
                        named.name(),
                        piece.kind.name(),
                        self.notation(seat, &Action::Pass { from, to })
                    ),
                ));
            }
            Action::Pass { from, to }
        } else {
            return self.match_move(seat, text, &parse_move(text)?);
        };
        if self.legal_actions(seat).contains(&action) {
            Ok(action)
        } else {
            Err(self.refusal(seat, &action))
        }
    }

    fn match_move(&self, seat: Seat, text: &str, wanted: &MoveText) -> Result<Action, RuleError> {
        let found: Vec<Action> = self
            .legal_actions(seat)
            .into_iter()
            .filter(|a| {
                let (from, to, promotion, capture) = match *a {
                    Action::Move {
                        from,
                        to,
                        promotion,
                    } => (from, to, promotion, false),
                    Action::Capture {
                        from,
                        to,
                        promotion,
                    } => (from, to, promotion, true),
                    _ => return false,
                };
                capture == wanted.capture
                    && to == wanted.to
                    && promotion == wanted.promotion
                    && wanted.from_file.is_none_or(|f| f == from.file)
                    && wanted.from_rank.is_none_or(|r| r == from.rank)
                    && self.piece_at(from).is_some_and(|p| p.kind == wanted.kind)
            })
            .collect();
        match found.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(self.no_such_move(seat, text, wanted)),
            several => Err(RuleError::breaks(
                NAME_THE_ORIGIN,
                format!(
                    "`{text}` is ambiguous; say which piece: {}",
                    several
                        .iter()
                        .map(|a| self.notation(seat, a))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

impl KingsGoal {
    /// Explains a readable move or capture that matches no legal action by the rule it
    /// breaks: the rule the named piece breaks, or when several pieces of the kind fit the text,
    /// the rule a piece whose movement reaches the target breaks, as that is the one meant.
    fn no_such_move(&self, seat: Seat, text: &str, wanted: &MoveText) -> RuleError {
        if self.phase != Phase::Play {
            return self.phase_refusal(seat);
        }
        let movers: Vec<Square> = self
            .pieces
            .iter()
            .filter(|p| {
                p.owner == seat
                    && p.kind == wanted.kind
                    && wanted.from_file.is_none_or(|f| f == p.square.file)
                    && wanted.from_rank.is_none_or(|r| r == p.square.rank)
            })
            .map(|p| p.square)
            .collect();
        let kinds = format!("{}s", wanted.kind.name());
        if movers.is_empty() {
            let origin = match (wanted.from_file, wanted.from_rank) {
                (Some(file), Some(rank)) => format!(" on {}", Square::new(file, rank)),
                (Some(file), None) => format!(" on the {}-file", file_letter(file)),
                (None, Some(rank)) => format!(" on rank {rank}"),
                (None, None) => String::new(),
            };
            return RuleError::breaks(
                OWN_PIECE,
                format!("`{text}`: {} has no {kinds}{origin}", seat_name(seat)),
            );
        }
        let (to, promotion) = (wanted.to, wanted.promotion);
        let refusals: Vec<RuleError> = movers
            .iter()
            .map(|&from| {
                let action = if wanted.capture {
                    Action::Capture {
                        from,
                        to,
                        promotion,
                    }
                } else {
                    Action::Move {
                        from,
                        to,
                        promotion,
                    }
                };
                self.refusal(seat, &action)
            })
            .collect();
        if let [only] = &refusals[..] {
            return only.clone();
        }
        if let Some(meant) = refusals.iter().find(|r| r.rule != Some(MOVEMENT)) {
            return meant.clone();
        }
        RuleError::breaks(
            MOVEMENT,
            format!(
                "`{text}`: none of your {kinds} (on {}) can {} {to}",
                movers
                    .iter()
                    .map(Square::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                if wanted.capture {
                    "capture on"
                } else {
                    "move to"
                }
            ),
        )
    }
}

fn parse_move(text: &str) -> Result<MoveText, RuleError> {
    let malformed = || {
        RuleError::malformed(format!(
            "`{text}` is not King's Goal notation: expected a move like `Nc3` or `e5`, a capture \
             like `Bxd5`, a pass like `Nc3>e4`, a promotion like `e8=Q`, a choice like `+Q`, a \
             placement like `K@d1`, `+default`, `@default` or `--`"
        ))
    };
    let (body, promotion) = match text.split_once('=') {
        Some((body, piece)) => {
            let mut chars = piece.chars();
            match (chars.next().and_then(PieceKind::from_letter), chars.next()) {
                (Some(kind), None) if PieceKind::PROMOTIONS.contains(&kind) => (body, Some(kind)),
                _ => return Err(malformed()),
            }
        }
        None => (text, None),
    };
    let (kind, body) = match body.chars().next() {
        Some(c) if c.is_ascii_uppercase() => (
            PieceKind::from_letter(c)
                .filter(|k| *k != PieceKind::Pawn)
                .ok_or_else(malformed)?,
            &body[1..],
        ),
        Some(_) => (PieceKind::Pawn, body),
        None => return Err(malformed()),
    };
    if body.len() < 2 || !body.is_ascii() {
        return Err(malformed());
    }
    let (head, target) = body.split_at(body.len() - 2);
    let to = parse_square(target, text)?;
    let (origin, capture) = match head.strip_suffix('x') {
        Some(origin) => (origin, true),
        None => (head, false),
    };
    let (from_file, from_rank) = match origin.as_bytes() {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some((f - b'a' + 1) as i8), None),
        [r @ b'1'..=b'8'] => (None, Some((r - b'0') as i8)),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Some((f - b'a' + 1) as i8), Some((r - b'0') as i8)),
        _ => return Err(malformed()),
    };
    if kind == PieceKind::Pawn && (capture != from_file.is_some() || from_rank.is_some()) {
        return Err(malformed());
    }
    Ok(MoveText {
        kind,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    })
}
