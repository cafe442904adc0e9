//! Position notation, FEN-like: the board, then who moves, the set (0 while placing), the
//! pieces that already moved in it, the game, both games' scores, and the piece ids when the
//! board alone would give other ones.
//!
//! `5k5/11/4b6/11/4nnnn3/11/2rq2r2bq/11/5o5/R3Q1Q3R/1N2N1N2N1/11/5B5/5B5/11/11/5K5 first 1 - 1 0-0 0-0`

use super::pitch::{CELLS, CENTRE, FILES, RANKS, in_small_area, on_board};
use super::{MOVES_PER_SET, Phase, PieceKind, Rules, SoccerChess, TEAM_SIZE, seat_name};
use crate::game::{RuleError, Seat};
use crate::geometry::Square;

pub(super) const SUMMARY: &str = "ranks 17 to 1 separated by '/', visited (bottom) pieces KNRBQ, \
     visitor (top) pieces knrbq, o = ball, digits = empty squares; then the seat to move \
     (first|second), the set number (0 while placing), the squares of pieces already moved in \
     this set (a,b or -), the game (1|2), and the scores of game 1 and game 2 as first-second; \
     optionally the piece ids: the squares of first's pieces in id order (- when off the board), \
     '/', then second's";

pub(super) fn write(game: &SoccerChess) -> String {
    let mut ranks = Vec::new();
    for rank in (1..=RANKS).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 1..=FILES {
            let square = Square::new(file, rank);
            let symbol = match game.piece_at(square) {
                Some(id) => {
                    let piece = game.pieces[id as usize];
                    let symbol = piece.kind.symbol();
                    Some(if piece.owner == game.visitor() {
                        symbol.to_ascii_lowercase()
                    } else {
                        symbol
                    })
                }
                None => (square == game.ball).then_some('o'),
            };
            match symbol {
                Some(symbol) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(symbol);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    let to_move = if game.phase == Phase::Over {
        "-"
    } else {
        seat_name(game.to_move)
    };
    let moved: Vec<String> = game
        .moved
        .iter()
        .filter_map(|id| game.pieces[*id as usize].square)
        .map(|sq| sq.to_string())
        .collect();
    let score = |game_index: usize| {
        let [a, b] = game.game_scores[game_index];
        format!("{a}-{b}")
    };
    let mut text = format!(
        "{} {to_move} {} {} {} {} {}",
        ranks.join("/"),
        game.set_number,
        if moved.is_empty() {
            "-".to_owned()
        } else {
            moved.join(",")
        },
        game.game,
        score(0),
        score(1),
    );
    // Positions whose ids the board already implies keep the shorter form they always had.
    if !ids_follow_reading_order(game) {
        text.push(' ');
        text.push_str(&write_ids(game));
    }
    text
}

/// Board squares in the order the board field lists them: ranks 17 to 1, files a to k.
fn reading_order() -> impl Iterator<Item = Square> {
    (1..=RANKS)
        .rev()
        .flat_map(|rank| (1..=FILES).map(move |file| Square::new(file, rank)))
}

/// Whether the board field alone gives every piece its id: read without the ids field, each
/// piece takes the lowest free id of its side and kind, in reading order.
fn ids_follow_reading_order(game: &SoccerChess) -> bool {
    let mut read = SoccerChess::empty(game.rules);
    reading_order().all(|square| {
        let Some(id) = game.piece_at(square) else {
            return true;
        };
        let piece = game.pieces[id as usize];
        if read.first_unplaced(piece.owner, piece.kind) != Some(id) {
            return false;
        }
        read.put(id, square);
        true
    })
}

/// The ids field: each side's squares in id order, `-` for a piece off the board.
fn write_ids(game: &SoccerChess) -> String {
    [Seat(0), Seat(1)]
        .map(|seat| {
            let squares: Vec<String> = SoccerChess::team_ids(seat)
                .map(|id| match game.pieces[id as usize].square {
                    Some(square) => square.to_string(),
                    None => "-".to_owned(),
                })
                .collect();
            squares.join(",")
        })
        .join("/")
}

fn invalid(message: impl Into<String>) -> RuleError {
    RuleError::invalid_position(message)
}

pub(super) fn parse(text: &str, rules: Rules) -> Result<SoccerChess, RuleError> {
    let all: Vec<&str> = text.split_whitespace().collect();
    // The eighth field, the piece ids, is optional: without it the board gives the ids.
    let (fields, ids) = match all[..] {
        [ref seven @ .., ids] if seven.len() == 7 => (seven, Some(ids)),
        ref fields => (fields, None),
    };
    let [board, to_move, set, moved, game_number, score1, score2] = *fields else {
        return Err(invalid(format!(
            "a position has 7 fields separated by spaces (8 with the piece ids), got {}: \
             {SUMMARY}",
            all.len()
        )));
    };
    let mut game = SoccerChess::empty(rules);
    game.game = match game_number {
        "1" => 1,
        "2" => 2,
        other => return Err(invalid(format!("the game is 1 or 2, not `{other}`"))),
    };
    game.to_move = match to_move {
        "first" => Seat(0),
        "second" => Seat(1),
        "-" => return Err(invalid("a finished match cannot be a start position")),
        other => {
            return Err(invalid(format!(
                "the seat to move is `first` or `second`, not `{other}`"
            )));
        }
    };
    game.set_number = set.parse().map_err(|_| {
        invalid(format!(
            "the set number is a whole number, 0 during a placement phase, not `{set}`"
        ))
    })?;
    game.phase = if game.set_number == 0 {
        Phase::Setup
    } else {
        Phase::Play
    };
    game.game_scores = [parse_score(score1)?, parse_score(score2)?];
    read_board(&mut game, board)?;
    if let Some(ids) = ids {
        read_ids(&mut game, ids)?;
    }
    check_schedule(&game)?;
    if game.phase == Phase::Setup {
        check_placement(&game, moved)?;
    } else {
        read_moved(&mut game, moved)?;
    }
    Ok(game)
}

fn parse_score(text: &str) -> Result<[u32; 2], RuleError> {
    let parsed = text
        .split_once('-')
        .and_then(|(a, b)| Some([a.parse().ok()?, b.parse().ok()?]));
    parsed.ok_or_else(|| {
        invalid(format!(
            "a game score is `first-second` goals, e.g. `2-1`, not `{text}`"
        ))
    })
}

fn read_board(game: &mut SoccerChess, board: &str) -> Result<(), RuleError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != RANKS as usize {
        return Err(invalid(format!(
            "the board has {RANKS} ranks separated by '/', got {}",
            rows.len()
        )));
    }
    let mut ball = None;
    for (row, rank) in rows.iter().zip((1..=RANKS).rev()) {
        let mut file: i8 = 1;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut count = digit as i8;
                if let Some(next) = chars.peek().and_then(|n| n.to_digit(10)) {
                    chars.next();
                    count = count * 10 + next as i8;
                }
                if count == 0 {
                    return Err(invalid(format!("rank {rank}: empty runs count from 1")));
                }
                file += count;
                continue;
            }
            let square = Square::new(file, rank);
            if !on_board(square) {
                return Err(invalid(format!(
                    "rank {rank} has more than {FILES} squares"
                )));
            }
            if c == 'o' {
                if ball.replace(square).is_some() {
                    return Err(invalid("the board shows more than one ball"));
                }
            } else {
                place_piece(game, c, square)?;
            }
            file += 1;
        }
        if file != FILES + 1 {
            return Err(invalid(format!(
                "rank {rank} describes {} squares instead of {FILES}",
                file - 1
            )));
        }
    }
    game.ball = ball.ok_or_else(|| invalid("the board shows no ball (`o`)"))?;
    Ok(())
}

fn place_piece(game: &mut SoccerChess, symbol: char, square: Square) -> Result<(), RuleError> {
    let kind = PieceKind::from_symbol(symbol.to_ascii_uppercase()).ok_or_else(|| {
        invalid(format!(
            "`{symbol}` on {square} is not a piece (KNRBQ, knrbq) or the ball (o)"
        ))
    })?;
    let owner = if symbol.is_ascii_uppercase() {
        game.visited()
    } else {
        game.visitor()
    };
    let id = game.first_unplaced(owner, kind).ok_or_else(|| {
        invalid(format!(
            "{} has more than {} {}s",
            seat_name(owner),
            kind.team_count(),
            kind.name()
        ))
    })?;
    let half = game.half_of(owner);
    if kind == PieceKind::Keeper && !half.small_area_contains(square) {
        return Err(invalid(format!(
            "{}'s keeper on {square} is outside its own small area",
            seat_name(owner)
        )));
    }
    if kind != PieceKind::Keeper && in_small_area(square) {
        return Err(invalid(format!(
            "the {} on {square} stands in a small area, where only keepers may stand",
            kind.name()
        )));
    }
    game.put(id, square);
    Ok(())
}

/// Reads the piece ids field, `first`'s squares in id order, `/`, then `second`'s (`-` for a
/// piece off the board), and gives the pieces the board showed those ids.
fn read_ids(game: &mut SoccerChess, text: &str) -> Result<(), RuleError> {
    let sides: Vec<&str> = text.split('/').collect();
    let [first, second] = sides[..] else {
        return Err(invalid(format!(
            "the piece ids are first's squares, `/`, then second's; `{text}` is not two lists"
        )));
    };
    let mut listed: Vec<(u32, Square)> = Vec::new();
    for (seat, list) in [(Seat(0), first), (Seat(1), second)] {
        let names: Vec<&str> = list.split(',').collect();
        if names.len() != TEAM_SIZE {
            return Err(invalid(format!(
                "the piece ids list {TEAM_SIZE} squares (or `-`) per side, {} lists {}",
                seat_name(seat),
                names.len()
            )));
        }
        for (id, name) in SoccerChess::team_ids(seat).zip(names) {
            if name == "-" {
                continue;
            }
            let square = Square::parse(name)
                .filter(|sq| on_board(*sq))
                .ok_or_else(|| {
                    invalid(format!(
                        "the piece ids list squares or `-`; `{name}` is neither"
                    ))
                })?;
            let kind = game.pieces[id as usize].kind;
            let shown = game.piece_at(square).map(|on| game.pieces[on as usize]);
            if shown.is_none_or(|piece| piece.owner != seat || piece.kind != kind) {
                return Err(invalid(format!(
                    "the piece ids put {}'s {} (id {id}) on {square}, where the board shows none",
                    seat_name(seat),
                    kind.name()
                )));
            }
            if listed.iter().any(|(_, other)| *other == square) {
                return Err(invalid(format!("the piece ids list {square} twice")));
            }
            listed.push((id, square));
        }
    }
    if let Some(missing) = reading_order()
        .filter(|sq| game.piece_at(*sq).is_some())
        .find(|sq| listed.iter().all(|(_, other)| other != sq))
    {
        return Err(invalid(format!(
            "the piece ids leave out the piece on {missing}"
        )));
    }
    for piece in &mut game.pieces {
        piece.square = None;
    }
    game.grid = [None; CELLS];
    for (id, square) in listed {
        game.put(id, square);
    }
    Ok(())
}

/// Checks a placement phase (set 0): no piece has moved, the ball waits on the centre, the
/// pieces on the board are ones the placement rules let through, and the side placing is the
/// one whose turn it is (the visitor places its whole team, then the visited).
fn check_placement(game: &SoccerChess, moved: &str) -> Result<(), RuleError> {
    if moved != "-" {
        return Err(invalid(format!(
            "no piece has moved while pieces are being placed (set 0), so the moved pieces \
             are `-`, not `{moved}`"
        )));
    }
    if game.ball != CENTRE {
        return Err(invalid(format!(
            "while pieces are being placed the ball lies on {CENTRE}, not on {}",
            game.ball
        )));
    }
    for seat in [Seat(0), Seat(1)] {
        let half = game.half_of(seat);
        let mut bishops = Vec::new();
        for piece in SoccerChess::team_ids(seat).map(|id| game.pieces[id as usize]) {
            let Some(square) = piece.square else {
                continue;
            };
            if !half.team_area_contains(square) {
                return Err(invalid(format!(
                    "{}'s {} on {square} is outside its team area, where it was placed",
                    seat_name(seat),
                    piece.kind.name()
                )));
            }
            if piece.kind == PieceKind::Bishop {
                bishops.push(square);
            }
        }
        if let [one, other] = bishops[..]
            && one.is_dark() == other.is_dark()
        {
            return Err(invalid(format!(
                "{}'s bishops on {one} and {other} were placed on one colour",
                seat_name(seat)
            )));
        }
    }
    let (visitor, visited) = (game.visitor(), game.visited());
    let placing = game.to_move;
    let waiting = if placing == visitor { visited } else { visitor };
    if game.unplaced(placing).is_empty() {
        return Err(invalid(format!(
            "{} has placed its whole team, so it is not placing any more",
            seat_name(placing)
        )));
    }
    let waiting_placed = TEAM_SIZE - game.unplaced(waiting).len();
    let waiting_expected = if placing == visitor { 0 } else { TEAM_SIZE };
    if waiting_placed != waiting_expected {
        return Err(invalid(format!(
            "the visitor ({}) places its whole team before the visited ({}) places any, but \
             {} is placing while {} has placed {waiting_placed} of its {TEAM_SIZE}",
            seat_name(visitor),
            seat_name(visited),
            seat_name(placing),
            seat_name(waiting)
        )));
    }
    Ok(())
}

/// Checks that the set number and scores describe a point the schedule can reach.
fn check_schedule(game: &SoccerChess) -> Result<(), RuleError> {
    let sets = game.rules.sets_per_game;
    if game.game == 1 {
        if game.set_number > sets {
            return Err(invalid(format!(
                "game 1 has {sets} sets per side, set {} does not exist",
                game.set_number
            )));
        }
        if game.game_scores[1] != [0, 0] {
            return Err(invalid("game 2 cannot have a score while game 1 is played"));
        }
    } else if game.set_number == 0 {
        if game.game_scores[1] != [0, 0] {
            return Err(invalid(
                "game 2 cannot have a score while its pieces are being placed",
            ));
        }
    } else if game.set_number > sets {
        let aggregate = game.aggregate();
        let away = game.away_goals();
        if aggregate[0] != aggregate[1] || away[0] != away[1] {
            return Err(invalid(format!(
                "set {} is golden goal, which needs a tie on aggregate and on away goals",
                game.set_number
            )));
        }
        if game.set_number > sets + game.rules.golden_goal_max_sets {
            return Err(invalid(format!(
                "set {} is past the golden-goal limit of {} sets",
                game.set_number, game.rules.golden_goal_max_sets
            )));
        }
    }
    Ok(())
}

fn read_moved(game: &mut SoccerChess, moved: &str) -> Result<(), RuleError> {
    if moved == "-" {
        return Ok(());
    }
    for name in moved.split(',') {
        let square = Square::parse(name).filter(|sq| on_board(*sq)).ok_or_else(|| {
            invalid(format!(
                "moved pieces are listed by square, e.g. `e8,i9`, or `-`; `{name}` is not a square"
            ))
        })?;
        let id = game
            .piece_at(square)
            .filter(|id| game.pieces[*id as usize].owner == game.to_move)
            .ok_or_else(|| {
                invalid(format!(
                    "{square} is listed as moved but holds no piece of {}",
                    seat_name(game.to_move)
                ))
            })?;
        if game.moved.contains(&id) {
            return Err(invalid(format!("{square} is listed twice as moved")));
        }
        game.moved.push(id);
    }
    if game.moved.len() as u32 >= MOVES_PER_SET {
        return Err(invalid(format!(
            "a set ends after {MOVES_PER_SET} moves, so at most {} pieces can have moved",
            MOVES_PER_SET - 1
        )));
    }
    Ok(())
}
