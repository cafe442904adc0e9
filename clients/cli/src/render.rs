//! Draws any game's board from the generic board view: one cell per square, ranks top to
//! bottom, coordinates on every edge, zones shaded, pieces as letters (upper case for the first
//! seat, lower case for the second, and coloured by team), the ball marked.
//!
//! A pure function of the view: no terminal, no I/O, so every game's drawing can be checked
//! as text.

use std::fmt::Write as _;

use anstyle::{Ansi256Color, Color, Style};
use pitchmate_client::pb;

/// What a cell shows when it holds neither a piece nor the loose ball.
const EMPTY: char = '.';
/// The loose ball.
const BALL: char = 'o';
/// After a piece's letter: it holds the ball.
const CARRIER: char = '*';
/// After a piece's letter: the ball's holder is hidden and it may be this piece.
const MAYBE_CARRIER: char = '?';

// 256-colour palette indices, picked so that both teams' letters (white and black) stay
// readable on every shade.
/// The pitch's two alternating greens.
const PITCH: [u8; 2] = [28, 34];
/// Team areas: the pitch's checker tinted, yellow for the first seat and blue for the second.
const TEAM_AREA: [[u8; 2]; 2] = [[64, 70], [29, 35]];
const GOAL: u8 = 244;
const AREA: u8 = 65;
const PENALTY: u8 = 100;
const OUTSIDE_INNER: u8 = 66;
/// End zones, per seat.
const END_ZONE: [u8; 2] = [131, 67];
/// Pieces, per seat.
const TEAM: [u8; 2] = [231, 16];
const BALL_COLOUR: u8 = 208;
const COORDINATES: u8 = 244;

/// The board and the state of play (scores, whose turn) as `view` shows them, ending with a
/// newline. With `colour`, ANSI colours shade zones and tell teams apart; without, glyphs do.
pub fn render(view: &pb::MatchView, colour: bool) -> String {
    let board = view.board.clone().unwrap_or_default();
    let seats = seat_order(view, &board);
    let extent = Extent::of(&board);
    let mut out = String::new();
    let header = file_labels(&extent, colour);
    out.push_str(&header);
    for rank in (extent.min_rank..=extent.max_rank).rev() {
        let label = paint(&format!("{rank:>2} "), coordinates(), colour);
        out.push_str(&label);
        for file in extent.min_file..=extent.max_file {
            let cell = Cell::at(&board, &seats, file, rank);
            out.push_str(&cell.draw(colour));
        }
        out.push_str(&paint(&format!(" {rank}"), coordinates(), colour));
        out.push('\n');
    }
    out.push_str(&header);
    out.push_str(&legend(&board, &seats, colour));
    out.push_str(&status(view));
    out
}

/// The seats in seat order: as the scores list them, then any other owner of a piece or zone.
fn seat_order(view: &pb::MatchView, board: &pb::BoardView) -> Vec<String> {
    let mut seats: Vec<String> = view.scores.iter().map(|s| s.seat.clone()).collect();
    let owners = board
        .pieces
        .iter()
        .map(|p| &p.seat)
        .chain(board.zones.iter().map(|z| &z.seat));
    for owner in owners {
        if !owner.is_empty() && !seats.contains(owner) {
            seats.push(owner.clone());
        }
    }
    seats
}

/// The cells drawn: the board and whatever lies just off it (Soccer Chess's crossbars).
struct Extent {
    min_file: i32,
    max_file: i32,
    min_rank: i32,
    max_rank: i32,
}

impl Extent {
    fn of(board: &pb::BoardView) -> Self {
        let mut extent = Self {
            min_file: 1,
            max_file: board.files as i32,
            min_rank: 1,
            max_rank: board.ranks as i32,
        };
        let squares = board
            .zones
            .iter()
            .flat_map(|z| z.squares.iter())
            .chain(board.pieces.iter().filter_map(|p| p.square.as_ref()))
            .chain(board.ball.as_ref().and_then(|b| b.square.as_ref()));
        for square in squares {
            extent.min_file = extent.min_file.min(square.file);
            extent.max_file = extent.max_file.max(square.file);
            extent.min_rank = extent.min_rank.min(square.rank);
            extent.max_rank = extent.max_rank.max(square.rank);
        }
        extent
    }
}

/// A file's letter: file 1 is `a`.
fn file_letter(file: i32) -> char {
    match u8::try_from(file - 1) {
        Ok(offset) if offset < 26 => char::from(b'a' + offset),
        _ => '?',
    }
}

fn file_labels(extent: &Extent, colour: bool) -> String {
    let mut line = String::from("   ");
    for file in extent.min_file..=extent.max_file {
        let _ = write!(line, " {} ", file_letter(file));
    }
    format!("{}\n", paint(line.trim_end(), coordinates(), colour))
}

/// How a zone is drawn; the first zone in this order wins where zones overlap.
fn zone_priority(kind: pb::ZoneKind) -> u8 {
    match kind {
        pb::ZoneKind::Goal => 0,
        pb::ZoneKind::EndZone => 1,
        pb::ZoneKind::SmallArea | pb::ZoneKind::GoalArea | pb::ZoneKind::KeeperBox => 2,
        pb::ZoneKind::PenaltyArea => 3,
        pb::ZoneKind::TeamArea => 4,
        pb::ZoneKind::InnerArea | pb::ZoneKind::Unspecified => 5,
    }
}

/// The glyph of an empty cell of a zone, when drawn without colour.
fn zone_glyph(kind: pb::ZoneKind) -> char {
    match kind {
        pb::ZoneKind::Goal => '#',
        pb::ZoneKind::EndZone => '=',
        pb::ZoneKind::SmallArea | pb::ZoneKind::GoalArea | pb::ZoneKind::KeeperBox => ':',
        pb::ZoneKind::PenaltyArea => ',',
        pb::ZoneKind::TeamArea | pb::ZoneKind::InnerArea | pb::ZoneKind::Unspecified => EMPTY,
    }
}

fn zone_name(kind: pb::ZoneKind) -> &'static str {
    match kind {
        pb::ZoneKind::Goal => "goal",
        pb::ZoneKind::EndZone => "end zone",
        pb::ZoneKind::SmallArea => "small area",
        pb::ZoneKind::GoalArea => "goal area",
        pb::ZoneKind::KeeperBox => "keeper box",
        pb::ZoneKind::PenaltyArea => "penalty area",
        pb::ZoneKind::TeamArea => "team area",
        pb::ZoneKind::InnerArea => "inner area",
        pb::ZoneKind::Unspecified => "zone",
    }
}

/// One square as drawn: three characters, a space, the content and a mark.
struct Cell {
    content: char,
    mark: char,
    /// Whose piece the content is; `None` for the ball, a zone or an empty square.
    team: Option<usize>,
    background: Option<u8>,
}

impl Cell {
    fn at(board: &pb::BoardView, seats: &[String], file: i32, rank: i32) -> Self {
        let here = |square: &Option<pb::Square>| {
            square
                .as_ref()
                .is_some_and(|s| s.file == file && s.rank == rank)
        };
        let zone = board
            .zones
            .iter()
            .filter(|z| z.squares.iter().any(|s| s.file == file && s.rank == rank))
            .min_by_key(|z| zone_priority(z.kind()));
        let on_board =
            (1..=board.files as i32).contains(&file) && (1..=board.ranks as i32).contains(&rank);
        let checker = PITCH[(file + rank).rem_euclid(2) as usize];
        let background = match zone {
            Some(zone) => Some(zone_shade(zone, seats, file + rank).unwrap_or(checker)),
            None if !on_board => None,
            // Chessyball's inner area covers all but the rim: the rim is shaded darker.
            None if has_inner_area(board) => Some(OUTSIDE_INNER),
            None => Some(checker),
        };

        let ball = board.ball.as_ref();
        let holder = ball.and_then(|b| b.holder_id);
        let maybe_holders: &[u32] = ball.map_or(&[], |b| &b.possible_holder_ids);
        let mut pieces: Vec<&pb::Piece> = board.pieces.iter().filter(|p| here(&p.square)).collect();
        // The carrier shows first on a crowded square.
        pieces.sort_by_key(|p| (Some(p.id) != holder, !maybe_holders.contains(&p.id)));
        let loose_ball_here = ball.is_some_and(|b| here(&b.square))
            && holder.is_none_or(|id| !pieces.iter().any(|p| p.id == id));

        let Some(first) = pieces.first() else {
            let content = if loose_ball_here {
                BALL
            } else if on_board || zone.is_some() {
                zone.map_or(EMPTY, |z| zone_glyph(z.kind()))
            } else {
                ' '
            };
            return Self {
                content,
                mark: ' ',
                team: None,
                background,
            };
        };
        let team = seats.iter().position(|s| *s == first.seat);
        let mark = if Some(first.id) == holder || loose_ball_here {
            CARRIER
        } else if maybe_holders.contains(&first.id) {
            MAYBE_CARRIER
        } else if pieces.len() > 1 {
            char::from_digit(pieces.len() as u32, 10).unwrap_or('+')
        } else {
            ' '
        };
        Self {
            content: piece_letter(first, team),
            mark,
            team,
            background,
        }
    }

    fn draw(&self, colour: bool) -> String {
        if !colour {
            // Off-board squares that nothing marks stay blank.
            return format!(" {}{}", self.content, self.mark);
        }
        let base = Style::new().bg_color(self.background.map(ansi));
        let content_style = match (self.team, self.content) {
            (Some(team), _) => base.fg_color(Some(ansi(TEAM[team.min(1)]))).bold(),
            (None, BALL) => base.fg_color(Some(ansi(BALL_COLOUR))).bold(),
            // Empty squares are shown by their shade alone.
            (None, _) => base,
        };
        let content = match (self.team, self.content) {
            (None, c) if c != BALL => ' ',
            (_, c) => c,
        };
        let mark_style = match self.mark {
            CARRIER | MAYBE_CARRIER => base.fg_color(Some(ansi(BALL_COLOUR))).bold(),
            _ => content_style,
        };
        paint(" ", base, true)
            + &paint(&content.to_string(), content_style, true)
            + &paint(&self.mark.to_string(), mark_style, true)
    }
}

fn has_inner_area(board: &pb::BoardView) -> bool {
    board
        .zones
        .iter()
        .any(|z| z.kind() == pb::ZoneKind::InnerArea)
}

/// A zone's own shade on the square whose file and rank add up to `parity`; `None` for zones
/// drawn as plain pitch.
fn zone_shade(zone: &pb::Zone, seats: &[String], parity: i32) -> Option<u8> {
    let seat = seats
        .iter()
        .position(|s| *s == zone.seat)
        .unwrap_or(0)
        .min(1);
    match zone.kind() {
        pb::ZoneKind::Goal => Some(GOAL),
        pb::ZoneKind::EndZone => Some(END_ZONE[seat]),
        pb::ZoneKind::TeamArea => Some(TEAM_AREA[seat][parity.rem_euclid(2) as usize]),
        pb::ZoneKind::SmallArea | pb::ZoneKind::GoalArea | pb::ZoneKind::KeeperBox => Some(AREA),
        pb::ZoneKind::PenaltyArea => Some(PENALTY),
        pb::ZoneKind::InnerArea | pb::ZoneKind::Unspecified => None,
    }
}

/// The piece's notation letter, upper case for the first seat and lower case for the others,
/// so the teams differ without colour too.
fn piece_letter(piece: &pb::Piece, team: Option<usize>) -> char {
    let letter = piece
        .symbol
        .chars()
        .next()
        .or_else(|| piece.kind.chars().next())
        .unwrap_or('?');
    if team == Some(0) {
        letter.to_ascii_uppercase()
    } else {
        letter.to_ascii_lowercase()
    }
}

/// What the letters and marks mean, for what this board shows.
fn legend(board: &pb::BoardView, seats: &[String], colour: bool) -> String {
    let mut parts = Vec::new();
    for (index, seat) in seats.iter().enumerate().take(2) {
        let case = if index == 0 {
            "upper case"
        } else {
            "lower case"
        };
        let name = paint(
            seat,
            Style::new()
                .fg_color(Some(ansi(TEAM[index])))
                .bold()
                .bg_color(Some(ansi(PITCH[0]))),
            colour,
        );
        parts.push(format!("{name}: {case}"));
    }
    if let Some(ball) = &board.ball {
        if ball.holder_id.is_some() {
            parts.push(format!("{CARRIER} holds the ball"));
        }
        if !ball.possible_holder_ids.is_empty() {
            parts.push(format!("{MAYBE_CARRIER} may hold the ball"));
        }
        if ball.holder_id.is_none() && ball.square.is_some() {
            parts.push(format!("{BALL} ball"));
        }
    }
    let mut kinds: Vec<pb::ZoneKind> = board.zones.iter().map(|z| z.kind()).collect();
    kinds.sort_by_key(|k| zone_priority(*k));
    kinds.dedup();
    for kind in kinds {
        let glyph = zone_glyph(kind);
        if colour {
            let shade = board
                .zones
                .iter()
                .find(|z| z.kind() == kind)
                .and_then(|z| zone_shade(z, seats, 0))
                .unwrap_or(PITCH[0]);
            parts.push(format!(
                "{} {}",
                paint("   ", Style::new().bg_color(Some(ansi(shade))), true),
                zone_name(kind)
            ));
        } else if glyph != EMPTY {
            parts.push(format!("{glyph} {}", zone_name(kind)));
        }
    }
    if board
        .pieces
        .iter()
        .any(|p| board.pieces.iter().filter(|q| q.square == p.square).count() > 1)
    {
        parts.push("a digit: pieces on the square".to_owned());
    }
    format!("{}\n", parts.join("  "))
}

/// Scores and whose turn it is.
fn status(view: &pb::MatchView) -> String {
    let scores: Vec<String> = view
        .scores
        .iter()
        .map(|s| format!("{} {}", s.seat, s.score))
        .collect();
    let mut line = format!("score: {}", scores.join(" - "));
    if let Some(turn) = &view.turn {
        let _ = write!(line, "   turn {} ({})", turn.number, turn.phase);
        if turn.to_act.is_empty() {
            line.push_str(": nobody to act");
        } else {
            let _ = write!(line, ": {} to act", turn.to_act.join(" and "));
        }
        if let Some(left) = turn.actions_left {
            let _ = write!(
                line,
                ", {left} action{} left",
                if left == 1 { "" } else { "s" }
            );
        }
    }
    if !view.viewer_seat.is_empty() {
        let _ = write!(line, "   you are {}", view.viewer_seat);
    }
    line.push('\n');
    line
}

fn ansi(index: u8) -> Color {
    Color::Ansi256(Ansi256Color(index))
}

fn coordinates() -> Style {
    Style::new().fg_color(Some(ansi(COORDINATES)))
}

/// `text` in `style` when `colour`, else as it is.
fn paint(text: &str, style: Style, colour: bool) -> String {
    if colour {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_owned()
    }
}
