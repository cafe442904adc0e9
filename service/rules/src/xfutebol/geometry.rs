//! The pitch: one 8 x 16 grid, areas, directions and ball paths.
//!
//! Home (seat 0) defends rank 1 and plays toward rank 16; away (seat 1) defends rank 16. A side's
//! own rank `r` is global rank `r` for home and `17 - r` for away; files are the same for both.

use crate::game::Seat;
use crate::geometry::{KING_DIRECTIONS, Square};

pub const FILES: i8 = 8;
pub const RANKS: i8 = 16;

pub fn on_board(square: Square) -> bool {
    (1..=FILES).contains(&square.file) && (1..=RANKS).contains(&square.rank)
}

/// +1 for home (toward rank 16), -1 for away.
pub fn forward(seat: Seat) -> i8 {
    if seat.0 == 0 { 1 } else { -1 }
}

/// The square on `file` and the side's own rank `own_rank`.
pub fn own_square(seat: Seat, file: i8, own_rank: i8) -> Square {
    if seat.0 == 0 {
        Square::new(file, own_rank)
    } else {
        Square::new(file, RANKS + 1 - own_rank)
    }
}

/// The rank of `square` counted from the side's own goal line (1 = goal line).
pub fn own_rank(seat: Seat, square: Square) -> i8 {
    if seat.0 == 0 {
        square.rank
    } else {
        RANKS + 1 - square.rank
    }
}

/// The two goal squares of the goal `defender` defends.
pub fn goal_squares(defender: Seat) -> [Square; 2] {
    [own_square(defender, 4, 1), own_square(defender, 5, 1)]
}

pub fn is_goal_square(defender: Seat, square: Square) -> bool {
    goal_squares(defender).contains(&square)
}

/// Files c-f on the side's own ranks 1-2.
pub fn in_goal_area(defender: Seat, square: Square) -> bool {
    on_board(square) && (3..=6).contains(&square.file) && own_rank(defender, square) <= 2
}

/// Files b-g on the side's own ranks 1-4.
pub fn in_penalty_area(defender: Seat, square: Square) -> bool {
    on_board(square) && (2..=7).contains(&square.file) && own_rank(defender, square) <= 4
}

pub fn in_own_half(seat: Seat, square: Square) -> bool {
    on_board(square) && own_rank(seat, square) <= RANKS / 2
}

/// Where the ball waits when `seat` kicks off: e8 for home, e9 for away.
pub fn kick_off_square(seat: Seat) -> Square {
    own_square(seat, 5, RANKS / 2)
}

/// Every square of the pitch, rank by rank from rank 1.
pub fn all_squares() -> impl Iterator<Item = Square> {
    (1..=RANKS).flat_map(|rank| (1..=FILES).map(move |file| Square::new(file, rank)))
}

/// How far a piece moves in each kind of direction, seen from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub forward: u8,
    pub backward: u8,
    pub sideways: u8,
    pub diagonal: u8,
}

impl Reach {
    /// The reach along `dir` (one of the eight king directions) for a piece of `seat`.
    pub fn along(self, seat: Seat, dir: (i8, i8)) -> u8 {
        match dir {
            (0, dr) if dr == forward(seat) => self.forward,
            (0, _) => self.backward,
            (_, 0) => self.sideways,
            _ => self.diagonal,
        }
    }

    /// The longest reach in any direction.
    pub fn longest(self) -> u8 {
        self.forward
            .max(self.backward)
            .max(self.sideways)
            .max(self.diagonal)
    }
}

/// The straight runs a piece of `seat` with `reach`, multiplied by `times`, can cover: for each
/// direction it may use, the on-board squares from 1 step up to its range, nearest first.
pub fn rays(seat: Seat, from: Square, reach: Reach, times: u8) -> Vec<((i8, i8), Vec<Square>)> {
    KING_DIRECTIONS
        .iter()
        .filter_map(|&dir| {
            let range = reach.along(seat, dir) * times;
            let squares: Vec<Square> = (1..=range as i8)
                .map(|k| from.offset(dir.0 * k, dir.1 * k))
                .take_while(|s| on_board(*s))
                .collect();
            (!squares.is_empty()).then_some((dir, squares))
        })
        .collect()
}

/// The straight run from `from` to `to` when `to` lies within `times` x `reach` along one of the
/// eight directions: the squares strictly between, nearest first. `None` when it does not.
pub fn straight_run(
    seat: Seat,
    from: Square,
    to: Square,
    reach: Reach,
    times: u8,
) -> Option<Vec<Square>> {
    let (df, dr) = (to.file - from.file, to.rank - from.rank);
    let steps = df.abs().max(dr.abs());
    let straight = df == 0 || dr == 0 || df.abs() == dr.abs();
    if steps == 0 || !straight || !on_board(to) {
        return None;
    }
    let dir = (df.signum(), dr.signum());
    if steps > (reach.along(seat, dir) * times) as i8 {
        return None;
    }
    Some(
        (1..steps)
            .map(|k| from.offset(dir.0 * k, dir.1 * k))
            .collect(),
    )
}

/// Whether a ball sent from `from` through `corner` to `to` changes direction at the corner:
/// false when the three squares lie on one straight line (a curve that is no curve).
pub fn bends(from: Square, corner: Square, to: Square) -> bool {
    let first = (
        i32::from(corner.file - from.file),
        i32::from(corner.rank - from.rank),
    );
    let second = (
        i32::from(to.file - corner.file),
        i32::from(to.rank - corner.rank),
    );
    first.0 * second.1 != first.1 * second.0
}

/// The squares a ball crosses strictly between `from` and `to`, nearest first: the grid line
/// through both centres, each step rounded half away from zero so the path is deterministic.
pub fn line_between(from: Square, to: Square) -> Vec<Square> {
    let df = i32::from(to.file - from.file);
    let dr = i32::from(to.rank - from.rank);
    let steps = df.abs().max(dr.abs());
    let round = |num: i32| -> i8 {
        let twice = 2 * num.abs() + steps;
        let magnitude = twice / (2 * steps);
        (num.signum() * magnitude) as i8
    };
    (1..steps)
        .map(|i| from.offset(round(df * i), round(dr * i)))
        .collect()
}

/// Chebyshev distance from `square` to the nearer goal square of `defender`.
pub fn distance_to_goal(defender: Seat, square: Square) -> i8 {
    goal_squares(defender)
        .iter()
        .map(|g| g.king_distance(square))
        .min()
        .unwrap_or(i8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: Seat = Seat(0);
    const AWAY: Seat = Seat(1);

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn areas_match_the_decided_coordinates() {
        assert_eq!(goal_squares(HOME), [sq("d1"), sq("e1")]);
        assert_eq!(goal_squares(AWAY), [sq("d16"), sq("e16")]);
        let goal_area = |seat| all_squares().filter(|s| in_goal_area(seat, *s)).count();
        let penalty_area = |seat| all_squares().filter(|s| in_penalty_area(seat, *s)).count();
        assert_eq!((goal_area(HOME), goal_area(AWAY)), (8, 8));
        assert_eq!((penalty_area(HOME), penalty_area(AWAY)), (24, 24));
        for name in ["c1", "f2"] {
            assert!(in_goal_area(HOME, sq(name)));
        }
        for name in ["c15", "f16"] {
            assert!(in_goal_area(AWAY, sq(name)));
        }
        assert!(in_penalty_area(HOME, sq("b4")) && in_penalty_area(HOME, sq("g1")));
        assert!(!in_penalty_area(HOME, sq("a1")) && !in_penalty_area(HOME, sq("b5")));
        assert!(in_penalty_area(AWAY, sq("b13")) && !in_penalty_area(AWAY, sq("b12")));
    }

    #[test]
    fn own_ranks_mirror_for_away() {
        assert_eq!(own_square(AWAY, 3, 2), sq("c15"));
        assert_eq!(own_rank(AWAY, sq("c15")), 2);
        assert_eq!(kick_off_square(HOME), sq("e8"));
        assert_eq!(kick_off_square(AWAY), sq("e9"));
        assert!(in_own_half(AWAY, sq("a9")) && !in_own_half(AWAY, sq("a8")));
    }

    #[test]
    fn reach_is_read_from_the_side_of_the_piece() {
        let attacker = Reach {
            forward: 2,
            backward: 1,
            sideways: 1,
            diagonal: 0,
        };
        assert_eq!(attacker.along(HOME, (0, 1)), 2);
        assert_eq!(attacker.along(AWAY, (0, 1)), 1);
        assert_eq!(attacker.along(AWAY, (0, -1)), 2);
        assert_eq!(attacker.along(HOME, (1, 1)), 0);
        let runs = rays(HOME, sq("a1"), attacker, 2);
        let forward = runs.iter().find(|(d, _)| *d == (0, 1)).unwrap();
        assert_eq!(forward.1, vec![sq("a2"), sq("a3"), sq("a4"), sq("a5")]);
        assert!(runs.iter().all(|(d, _)| *d != (-1, 0)), "off the board");
    }

    #[test]
    fn ball_lines_are_deterministic_grid_lines() {
        assert_eq!(line_between(sq("c4"), sq("d1")), vec![sq("c3"), sq("d2")]);
        assert_eq!(
            line_between(sq("e5"), sq("e1")),
            vec![sq("e4"), sq("e3"), sq("e2")]
        );
        assert_eq!(line_between(sq("e2"), sq("e1")), Vec::<Square>::new());
        assert_eq!(line_between(sq("a1"), sq("c3")), vec![sq("b2")]);
        assert_eq!(distance_to_goal(AWAY, sq("a12")), 4);
    }

    #[test]
    fn straight_runs_follow_the_pattern_seen_from_the_side() {
        let midfielder = Reach {
            forward: 1,
            backward: 1,
            sideways: 2,
            diagonal: 0,
        };
        assert_eq!(
            straight_run(HOME, sq("c4"), sq("f4"), midfielder, 2),
            Some(vec![sq("d4"), sq("e4")])
        );
        assert_eq!(straight_run(HOME, sq("c4"), sq("h4"), midfielder, 2), None);
        assert_eq!(straight_run(HOME, sq("c4"), sq("d5"), midfielder, 3), None);
        assert_eq!(straight_run(HOME, sq("c4"), sq("d6"), midfielder, 3), None);
        assert_eq!(straight_run(HOME, sq("c4"), sq("c4"), midfielder, 3), None);
        let attacker = Reach {
            forward: 2,
            backward: 1,
            sideways: 1,
            diagonal: 0,
        };
        assert!(straight_run(AWAY, sq("c9"), sq("c5"), attacker, 2).is_some());
        assert!(straight_run(HOME, sq("c9"), sq("c5"), attacker, 2).is_none());
    }

    /// Legal actions come from `rays`, refusals read a single run with `straight_run`: they
    /// must agree on every square, so a refusal never calls a listed target out of reach.
    #[test]
    fn straight_runs_are_exactly_the_rays() {
        let patterns = [(2, 1, 1, 0), (1, 1, 2, 0), (1, 1, 1, 1), (1, 1, 1, 0)];
        for (forward, backward, sideways, diagonal) in patterns {
            let reach = Reach {
                forward,
                backward,
                sideways,
                diagonal,
            };
            for (seat, times, from) in [HOME, AWAY]
                .into_iter()
                .flat_map(|seat| (1..=3).map(move |times| (seat, times)))
                .flat_map(|(seat, times)| all_squares().map(move |from| (seat, times, from)))
            {
                let runs = rays(seat, from, reach, times);
                for to in all_squares() {
                    let expected = runs.iter().find_map(|(_, squares)| {
                        let index = squares.iter().position(|s| *s == to)?;
                        Some(squares[..index].to_vec())
                    });
                    assert_eq!(straight_run(seat, from, to, reach, times), expected);
                }
            }
        }
    }

    #[test]
    fn a_bend_needs_the_corner_off_the_line() {
        assert!(bends(sq("e10"), sq("e11"), sq("d16")));
        assert!(bends(sq("c4"), sq("d4"), sq("d6")));
        assert!(!bends(sq("e10"), sq("e12"), sq("e16")), "same direction");
        assert!(
            !bends(sq("e13"), sq("e12"), sq("e16")),
            "turned back on its line"
        );
        assert!(!bends(sq("a1"), sq("b2"), sq("d4")), "a diagonal line");
        assert!(
            !bends(sq("e10"), sq("e16"), sq("e16")),
            "the corner is the target"
        );
    }
}
