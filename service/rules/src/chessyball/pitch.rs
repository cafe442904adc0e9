//! The Chessyball pitch: which cells are goals, keeper boxes and the inner rectangle, for any
//! board size the options allow.

use crate::game::Seat;
use crate::geometry::Square;

use super::{AWAY, HOME};

/// Board dimensions and the zones derived from them. Files are even (so there is a centre
/// pair) and ranks odd (so there is a centre rank for the goals and boxes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pitch {
    pub files: i8,
    pub ranks: i8,
}

impl Pitch {
    pub fn centre_rank(self) -> i8 {
        (self.ranks + 1) / 2
    }

    pub fn contains(self, sq: Square) -> bool {
        (1..=self.files).contains(&sq.file) && (1..=self.ranks).contains(&sq.rank)
    }

    /// The lighter rectangle one cell in from every edge: the ball's whole world, goals aside.
    pub fn is_inner(self, sq: Square) -> bool {
        (2..self.files).contains(&sq.file) && (2..self.ranks).contains(&sq.rank)
    }

    /// The seat defending the goal this cell belongs to.
    pub fn goal_owner(self, sq: Square) -> Option<Seat> {
        if (sq.rank - self.centre_rank()).abs() > 1 {
            return None;
        }
        if sq.file == 1 {
            Some(HOME)
        } else if sq.file == self.files {
            Some(AWAY)
        } else {
            None
        }
    }

    /// The seat whose keeper box (two files deep, five ranks wide, in front of the goal) holds
    /// this cell.
    pub fn box_owner(self, sq: Square) -> Option<Seat> {
        if (sq.rank - self.centre_rank()).abs() > 2 {
            return None;
        }
        if (2..=3).contains(&sq.file) {
            Some(HOME)
        } else if (self.files - 2..=self.files - 1).contains(&sq.file) {
            Some(AWAY)
        } else {
            None
        }
    }

    /// The two centre squares: the one on the home half first.
    pub fn centre_squares(self) -> [Square; 2] {
        let rank = self.centre_rank();
        [
            Square::new(self.files / 2, rank),
            Square::new(self.files / 2 + 1, rank),
        ]
    }

    /// The centre square on `seat`'s half.
    pub fn centre_of(self, seat: Seat) -> Square {
        self.centre_squares()[seat.index()]
    }

    /// The same cell seen from the other side: files are mirrored, ranks kept.
    pub fn mirror(self, sq: Square) -> Square {
        Square::new(self.files + 1 - sq.file, sq.rank)
    }

    pub fn squares(self) -> impl Iterator<Item = Square> {
        let ranks = self.ranks;
        (1..=self.files).flat_map(move |file| (1..=ranks).map(move |rank| Square::new(file, rank)))
    }

    pub fn index(self, sq: Square) -> usize {
        (sq.file as usize - 1) * self.ranks as usize + (sq.rank as usize - 1)
    }

    pub fn cell_count(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The home team's default formation, keeper first, then the outfield slots in the order
    /// they are filled for smaller teams (centre first, wings last, so every team size stays
    /// compact). A 4-4-2 on the standard board: keeper b6; d3 d5 d7 d9; f2 f4 f8 f10; h4 h8.
    pub fn home_formation(self, team_size: usize) -> Vec<Square> {
        let c = self.centre_rank();
        let half = self.files / 2;
        let (defence, midfield, attack) = (4, half - 3, half - 1);
        let slots = [
            (2, c),
            (defence, c - 1),
            (defence, c + 1),
            (attack, c - 2),
            (attack, c + 2),
            (midfield, c - 2),
            (midfield, c + 2),
            (defence, c - 3),
            (defence, c + 3),
            (midfield, c - 4),
            (midfield, c + 4),
        ];
        slots
            .iter()
            .take(team_size)
            .map(|&(file, rank)| Square::new(file, rank))
            .collect()
    }
}
