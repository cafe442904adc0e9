//! Whole-state positions: the fields after the board and the side to move.
//!
//! `<board> <side> <actions left> <home>-<away> <turn>`, then optional parts `name:value`, each
//! written only where it differs from what a start position means:
//!
//! - `phase:extension|place_ball|shootout` (default `play`);
//! - `first:h|a`, the side that took turn 1 (default: the side to move);
//! - `moved:no`, some action of this turn (in the shoot-out: of the last turn) did not move the
//!   ball (default `yes`);
//! - `last:<actions>` or `last:<actions>+<extra>`, in the shoot-out only: the actions of the
//!   last regular turn and of its extension (default `0`, no extension);
//! - `kicks:<home>/<away>`, the penalties so far, `o` scored, `x` saved, `-` none (default none);
//! - `pieces:<square>,...`, where each piece stands, by id (default: ids in reading order);
//! - `starts:<square>,...`, each piece's start square, by id, where a reset after a goal returns
//!   it (default: where it stands).
//!
//! The generator is no part of a position: a game read from one draws from its own seed.

use crate::game::{Game, RuleError, Seat};
use crate::geometry::Square;
use crate::rng::Rng;

use super::notation::{ReadPosition, format_board, piece_symbol};
use super::pitch::Pitch;
use super::settings::Settings;
use super::{
    AWAY, AfterGoal, Chessyball, Event, FULL_TURN, HOME, Phase, Piece, ShootoutDetails,
    validate_start,
};

/// Fields after the side to move that every whole state has: actions left, score, turn.
pub(super) const STATE_FIELDS: usize = 3;

/// The fields of a whole state as written, before they are checked against the options.
#[derive(Debug)]
pub(super) struct WholeState {
    actions_left: u32,
    score: [u32; 2],
    turn_number: u32,
    phase: Phase,
    /// In phase play: an extension runs.
    extension: bool,
    first: Option<Seat>,
    moved: bool,
    last_turn: LastTurn,
    kicks: [Vec<bool>; 2],
    /// By id.
    piece_squares: Option<Vec<Square>>,
    /// By id.
    start_squares: Option<Vec<Square>>,
}

/// What the last regular turn took, which the details still show during the shoot-out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LastTurn {
    actions: u32,
    extension: Option<u32>,
}

/// A refused whole-state position; the message says what the parts are.
pub(super) fn refusal(why: &str) -> RuleError {
    RuleError::invalid_position(format!(
        "{why}; a whole-state position is the board, the side to move (`h` or `a`), the actions \
         left, the score `home-away` and the turn number, then optional parts phase:, first:, \
         moved:, last:, kicks:, pieces: and starts:"
    ))
}

fn number(what: &str, text: &str) -> Result<u32, RuleError> {
    text.parse()
        .map_err(|_| refusal(&format!("{what} `{text}` is not a whole number")))
}

fn squares(name: &str, value: &str) -> Result<Vec<Square>, RuleError> {
    value
        .split(',')
        .map(|text| {
            Square::parse(text).ok_or_else(|| {
                refusal(&format!(
                    "`{text}` in the part `{name}:{value}` is not a square name such as `e9`"
                ))
            })
        })
        .collect()
}

fn kicks_of(name: &str, value: &str, side: &str) -> Result<Vec<bool>, RuleError> {
    if side == "-" {
        return Ok(Vec::new());
    }
    side.chars()
        .map(|c| match c {
            'o' => Ok(true),
            'x' => Ok(false),
            other => Err(refusal(&format!(
                "`{other}` in the part `{name}:{value}` is not `o` (scored) or `x` (saved)"
            ))),
        })
        .collect()
}

/// Reads the fields after the side to move: `fields` holds at least [`STATE_FIELDS`].
pub(super) fn parse_state(fields: &[&str]) -> Result<WholeState, RuleError> {
    let [left, score, turn, parts @ ..] = fields else {
        unreachable!("the caller passes at least {STATE_FIELDS} fields")
    };
    let score = match score.split_once('-') {
        Some((home, away)) => [
            number("the home score", home)?,
            number("the away score", away)?,
        ],
        None => return Err(refusal(&format!("the score `{score}` is not `home-away`"))),
    };
    let mut state = WholeState {
        actions_left: number("the actions left", left)?,
        score,
        turn_number: number("the turn number", turn)?,
        phase: Phase::Play,
        extension: false,
        first: None,
        moved: true,
        last_turn: LastTurn::default(),
        kicks: [Vec::new(), Vec::new()],
        piece_squares: None,
        start_squares: None,
    };
    let mut seen: Vec<&str> = Vec::new();
    for part in parts {
        let Some((name, value)) = part.split_once(':') else {
            return Err(refusal(&format!("`{part}` is not a part `name:value`")));
        };
        if seen.contains(&name) {
            return Err(refusal(&format!("the part `{name}:` is given twice")));
        }
        seen.push(name);
        let unknown = || {
            refusal(&format!(
                "`{value}` is not a value of the part `{name}:` (in `{part}`)"
            ))
        };
        match name {
            "phase" => {
                (state.phase, state.extension) = match value {
                    "play" => (Phase::Play, false),
                    "extension" => (Phase::Play, true),
                    "place_ball" => (Phase::PlaceBall, false),
                    "shootout" => (Phase::Shootout, false),
                    _ => return Err(unknown()),
                };
            }
            "first" => {
                state.first = Some(match value {
                    "h" => HOME,
                    "a" => AWAY,
                    _ => return Err(unknown()),
                })
            }
            "moved" => {
                state.moved = match value {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(unknown()),
                }
            }
            "last" => {
                let (actions, extra) = match value.split_once('+') {
                    Some((actions, extra)) => (actions, Some(extra)),
                    None => (value, None),
                };
                state.last_turn.actions = number("the actions of `last:`", actions)?;
                state.last_turn.extension = extra
                    .map(|extra| number("the extension actions of `last:`", extra))
                    .transpose()?;
            }
            "kicks" => {
                let Some((home, away)) = value.split_once('/') else {
                    return Err(refusal(&format!(
                        "the part `{part}` is not `kicks:<home>/<away>`, e.g. `kicks:oox/ox`"
                    )));
                };
                state.kicks = [kicks_of(name, value, home)?, kicks_of(name, value, away)?];
            }
            "pieces" => state.piece_squares = Some(squares(name, value)?),
            "starts" => state.start_squares = Some(squares(name, value)?),
            _ => {
                return Err(refusal(&format!(
                    "`{part}` names no part; the parts are phase:, first:, moved:, last:, \
                     kicks:, pieces: and starts:"
                )));
            }
        }
    }
    if seen.contains(&"last") && state.phase != Phase::Shootout {
        return Err(refusal(
            "the part `last:` belongs to a shoot-out; in a turn the actions left say how far it is",
        ));
    }
    if seen.contains(&"kicks") && state.phase != Phase::Shootout {
        return Err(refusal("the part `kicks:` belongs to a shoot-out"));
    }
    Ok(state)
}

/// The pieces in id order: `squares` names where each stands, else the board's reading order.
fn pieces_by_id(
    board: Vec<Piece>,
    squares: Option<&[Square]>,
    name: &str,
) -> Result<Vec<Piece>, RuleError> {
    let Some(squares) = squares else {
        return Ok(board);
    };
    if squares.len() != board.len() {
        return Err(refusal(&format!(
            "the part `{name}:` lists {} squares for the board's {} pieces",
            squares.len(),
            board.len()
        )));
    }
    let mut pieces = Vec::with_capacity(board.len());
    for (id, &square) in squares.iter().enumerate() {
        if squares[..id].contains(&square) {
            return Err(refusal(&format!("the part `{name}:` names {square} twice")));
        }
        let piece = board.iter().find(|p| p.square == square).ok_or_else(|| {
            refusal(&format!(
                "the part `{name}:` gives piece {id} the square {square}, where the board has \
                 no piece"
            ))
        })?;
        pieces.push(*piece);
    }
    Ok(pieces)
}

/// The start squares by id, checked like a start position's.
fn start_squares_of(
    pitch: Pitch,
    settings: &Settings,
    pieces: &[Piece],
    starts: Option<&[Square]>,
) -> Result<Vec<Square>, RuleError> {
    let Some(starts) = starts else {
        return Ok(pieces.iter().map(|p| p.square).collect());
    };
    if starts.len() != pieces.len() {
        return Err(refusal(&format!(
            "the part `starts:` lists {} squares for the board's {} pieces",
            starts.len(),
            pieces.len()
        )));
    }
    for (id, &square) in starts.iter().enumerate() {
        if !pitch.contains(square) {
            return Err(refusal(&format!(
                "the part `starts:` gives piece {id} the square {square}, off the board"
            )));
        }
        if starts[..id].contains(&square) {
            return Err(refusal(&format!("the part `starts:` names {square} twice")));
        }
    }
    let at_start: Vec<Piece> = pieces
        .iter()
        .zip(starts)
        .map(|(piece, &square)| Piece { square, ..*piece })
        .collect();
    validate_start(pitch, settings, &at_start)
        .map_err(|e| refusal(&format!("in the part `starts:`, {}", e.message)))?;
    Ok(starts.to_vec())
}

fn seat_letter(seat: Seat) -> char {
    if seat == HOME { 'h' } else { 'a' }
}

/// A match resumed from a whole-state position; `rng` is the new match's own generator.
pub(super) fn resume(
    settings: Settings,
    pitch: Pitch,
    rng: Rng,
    read: ReadPosition,
) -> Result<Chessyball, RuleError> {
    let ReadPosition {
        pieces: board,
        ball,
        to_move,
        state,
    } = read;
    let (Some(to_move), Some(state)) = (to_move, state) else {
        unreachable!("a whole state names the side to move")
    };
    let pieces = pieces_by_id(board, state.piece_squares.as_deref(), "pieces")?;
    validate_start(pitch, &settings, &pieces)?;
    let start_squares =
        start_squares_of(pitch, &settings, &pieces, state.start_squares.as_deref())?;
    let mut game = Chessyball::blank(settings, pitch, rng, pieces, start_squares);
    game.ball = ball;
    game.phase = state.phase;
    game.to_move = to_move;
    game.starting_seat = state.first.unwrap_or(to_move);
    game.turn_number = state.turn_number;
    game.actions_allowed = game.actions_allowed_in(state.turn_number);
    game.score = state.score;
    game.ball_moved_every_action = state.moved;
    game.check_score_and_turn()?;
    game.resume_turn(&state)?;
    game.check_ball()?;
    let mut opening = vec![Event::StartingSeatChosen {
        seat: game.starting_seat,
        by_coin: false,
    }];
    let turn_begins = match game.phase {
        Phase::Play => game.actions_taken == 0 && game.extension_actions.is_none(),
        Phase::PlaceBall => true,
        Phase::Shootout | Phase::Over => false,
    };
    if turn_begins {
        opening.push(Event::TurnStarted {
            seat: to_move,
            number: game.turn_number,
            actions: game.actions_allowed,
        });
    }
    // A side left without a move loses the rest of its turn, as in play.
    game.settle_turn(&mut opening);
    game.opening = opening;
    Ok(game)
}

impl Chessyball {
    fn check_score_and_turn(&self) -> Result<(), RuleError> {
        let s = &self.settings;
        let [home, away] = self.score;
        if self.turn_number == 0 {
            return Err(refusal("the turn number is 0; turns count from 1"));
        }
        if self.turn_number > s.max_turns {
            return Err(refusal(&format!(
                "turn {} is past the match's last turn ({} by the option `max_turns`)",
                self.turn_number, s.max_turns
            )));
        }
        if self.phase == Phase::Shootout {
            if !s.shootout {
                return Err(refusal(
                    "a shoot-out needs the option `shootout`, which this match has off",
                ));
            }
            if home != away {
                return Err(refusal(&format!(
                    "a shoot-out follows a level match, not {home}-{away}"
                )));
            }
            return Ok(());
        }
        let over = if s.first_to > 0 && home.max(away) >= s.first_to {
            Some(format!("a side has {} goals (`first_to`)", s.first_to))
        } else if s.total_goals > 0 && home + away >= s.total_goals {
            Some(format!(
                "{} goals were scored (`total_goals`)",
                s.total_goals
            ))
        } else {
            None
        };
        match over {
            Some(why) => Err(refusal(&format!(
                "the score {home}-{away} has ended the match: {why}"
            ))),
            None => Ok(()),
        }
    }

    /// How far the turn is, from the actions left and the phase.
    fn resume_turn(&mut self, state: &WholeState) -> Result<(), RuleError> {
        let left = state.actions_left;
        let allowed = self.actions_allowed;
        let limit = self.settings.extension_limit;
        let in_range = |low: u32, high: u32, what: &str| {
            if (low..=high).contains(&left) {
                Ok(())
            } else {
                Err(refusal(&format!(
                    "{left} actions left, but {what} has {low} to {high} left"
                )))
            }
        };
        let needs_moved = |what: &str| {
            if state.moved {
                Ok(())
            } else {
                Err(refusal(&format!(
                    "`moved:no` does not fit {what}, where every action so far moved the ball"
                )))
            }
        };
        match (self.phase, state.extension) {
            (Phase::Play, true) => {
                if !self.settings.extensions {
                    return Err(refusal(
                        "an extension needs the option `extensions`, which this match has off",
                    ));
                }
                if allowed != FULL_TURN {
                    return Err(refusal(&format!(
                        "turn {} allows {allowed} actions; only a full turn of {FULL_TURN} \
                         earns an extension",
                        self.turn_number
                    )));
                }
                in_range(1, limit, "an extension")?;
                needs_moved("an extension")?;
                self.actions_taken = FULL_TURN;
                self.extension_actions = Some(limit - left);
            }
            (Phase::Play, false) => {
                in_range(1, allowed, &format!("turn {}", self.turn_number))?;
                self.actions_taken = allowed - left;
                if self.actions_taken == 0 {
                    needs_moved("a turn with no action taken yet")?;
                }
            }
            (Phase::PlaceBall, _) => {
                if self.settings.after_goal != AfterGoal::DefenderPlaces {
                    return Err(refusal(
                        "phase `place_ball` needs the option `after_goal` = `defender_places`",
                    ));
                }
                in_range(allowed, allowed, "a turn that begins by placing the ball")?;
                needs_moved("a turn that has not begun")?;
                if self.free_box_squares(self.to_move).is_empty() {
                    return Err(refusal(&format!(
                        "the {} keeper box has no free square for the ball",
                        Self::seat_name(self.to_move)
                    )));
                }
            }
            (Phase::Shootout, _) => {
                in_range(1, 1, "a shoot-out")?;
                let last = state.last_turn;
                if last.actions > allowed {
                    return Err(refusal(&format!(
                        "`last:` takes {} actions in turn {}, which allows {allowed}",
                        last.actions, self.turn_number
                    )));
                }
                if last.extension.is_some_and(|extra| extra > limit) {
                    return Err(refusal(&format!(
                        "`last:` takes more extension actions than `extension_limit` {limit}"
                    )));
                }
                self.actions_taken = last.actions;
                self.extension_actions = last.extension;
                self.resume_shootout(&state.kicks)?;
            }
            (Phase::Over, _) => unreachable!("no part names phase `over`"),
        }
        Ok(())
    }

    fn resume_shootout(&mut self, kicks: &[Vec<bool>; 2]) -> Result<(), RuleError> {
        let first = self.starting_seat.opponent();
        self.shootout = ShootoutDetails {
            first: Some(first),
            kicks: kicks.clone(),
        };
        let taken = |seat: Seat| kicks[seat.index()].len();
        let (by_first, by_second) = (taken(first), taken(first.opponent()));
        if by_first != by_second && by_first != by_second + 1 {
            return Err(refusal(&format!(
                "in `kicks:` the {} side, which kicks first, has taken {by_first} and the other \
                 {by_second}; kicks alternate",
                Self::seat_name(first)
            )));
        }
        let next = if by_first > by_second {
            first.opponent()
        } else {
            first
        };
        if next != self.to_move {
            return Err(refusal(&format!(
                "after these kicks it is {}'s kick, not {}'s",
                Self::seat_name(next),
                Self::seat_name(self.to_move)
            )));
        }
        if self.shootout_winner().is_some() || by_first + by_second >= 2 * SHOOTOUT_KICKS {
            return Err(refusal(
                "`kicks:` holds a shoot-out that is already decided",
            ));
        }
        Ok(())
    }

    /// Where the ball may lie depends on the phase.
    fn check_ball(&self) -> Result<(), RuleError> {
        let ball = self.ball;
        let goal = self.pitch.goal_owner(ball);
        let fits = match self.phase {
            Phase::Play => self.pitch.is_inner(ball),
            Phase::PlaceBall => goal == Some(self.to_move),
            Phase::Shootout => self.pitch.is_inner(ball) || goal.is_some(),
            Phase::Over => unreachable!("no part names phase `over`"),
        };
        if fits {
            return Ok(());
        }
        let inner = format!(
            "the inner rectangle b2-{}",
            Square::new(self.pitch.files - 1, self.pitch.ranks - 1)
        );
        let place = match self.phase {
            Phase::PlaceBall => format!(
                "the {} goal it entered, until that side places it",
                Self::seat_name(self.to_move)
            ),
            Phase::Shootout => format!("{inner} or a goal"),
            _ => inner,
        };
        Err(refusal(&format!("the ball on {ball} must lie in {place}")))
    }
}

/// Kicks both sides may take before a coin decides the shoot-out.
const SHOOTOUT_KICKS: usize = super::SHOOTOUT_REGULAR_ROUNDS + super::SHOOTOUT_SUDDEN_DEATH_ROUNDS;

/// The whole state; parts at their defaults are left out, so a start reads as it is written.
pub(super) fn format_position(game: &Chessyball) -> String {
    let board = format_board(game.pitch, |sq| {
        if sq == game.ball {
            Some('o')
        } else {
            game.occupant(sq).map(|id| piece_symbol(&game.pieces[id]))
        }
    });
    let side = match game.phase {
        Phase::Over => '-',
        _ => seat_letter(game.to_move),
    };
    let actions_left = game
        .turn()
        .actions_left
        .map_or("-".to_owned(), |n| n.to_string());
    let mut text = format!(
        "{board} {side} {actions_left} {}-{} {}",
        game.score[0], game.score[1], game.turn_number
    );
    let phase = match (game.phase, game.extension_actions) {
        (Phase::Play, Some(_)) => Some("extension"),
        (Phase::PlaceBall, _) => Some("place_ball"),
        (Phase::Shootout, _) => Some("shootout"),
        (Phase::Play | Phase::Over, _) => None,
    };
    if let Some(phase) = phase {
        text.push_str(" phase:");
        text.push_str(phase);
    }
    if game.phase == Phase::Over || game.starting_seat != game.to_move {
        text.push_str(" first:");
        text.push(seat_letter(game.starting_seat));
    }
    if !game.ball_moved_every_action {
        text.push_str(" moved:no");
    }
    let turn_closed = matches!(game.phase, Phase::Shootout | Phase::Over);
    if turn_closed && (game.actions_taken, game.extension_actions) != (0, None) {
        text.push_str(&format!(" last:{}", game.actions_taken));
        if let Some(extra) = game.extension_actions {
            text.push_str(&format!("+{extra}"));
        }
    }
    if game.shootout.kicks.iter().any(|kicks| !kicks.is_empty()) {
        let side = |kicks: &[bool]| match kicks {
            [] => "-".to_owned(),
            _ => kicks.iter().map(|&s| if s { 'o' } else { 'x' }).collect(),
        };
        text.push_str(&format!(
            " kicks:{}/{}",
            side(&game.shootout.kicks[0]),
            side(&game.shootout.kicks[1])
        ));
    }
    let squares = |squares: &mut dyn Iterator<Item = Square>| {
        squares
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let reading_order =
        |a: &Piece, b: &Piece| (-a.square.rank, a.square.file) <= (-b.square.rank, b.square.file);
    if !game.pieces.is_sorted_by(reading_order) {
        text.push_str(" pieces:");
        text.push_str(&squares(&mut game.pieces.iter().map(|p| p.square)));
    }
    if game
        .pieces
        .iter()
        .zip(&game.start_squares)
        .any(|(piece, &start)| piece.square != start)
    {
        text.push_str(" starts:");
        text.push_str(&squares(&mut game.start_squares.iter().copied()));
    }
    text
}
