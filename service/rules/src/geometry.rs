//! Board coordinates shared by every game.

use std::fmt;

/// A cell of a board, in 1-based coordinates that match the games' notations: file 1 is `a`,
/// rank 1 is `1`. Cells just off the board (Soccer Chess crossbars on rank 0 and rank 18) are
/// representable, which is why the fields are signed.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct Square {
    pub file: i8,
    pub rank: i8,
}

impl Square {
    pub const fn new(file: i8, rank: i8) -> Self {
        Self { file, rank }
    }

    /// The square `df` files and `dr` ranks away.
    pub const fn offset(self, df: i8, dr: i8) -> Self {
        Self {
            file: self.file + df,
            rank: self.rank + dr,
        }
    }

    /// Parses algebraic names such as `e4`, `k17` or `f0` (letters `a`..`z`, then a rank).
    pub fn parse(text: &str) -> Option<Self> {
        let mut chars = text.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.len() > 1 && digits.starts_with('0') {
            return None;
        }
        let rank: i8 = digits.parse().ok()?;
        Some(Self::new((letter as u8 - b'a') as i8 + 1, rank))
    }

    /// Whether the square is dark, with a1 dark as on a chessboard.
    pub const fn is_dark(self) -> bool {
        (self.file + self.rank) % 2 == 0
    }

    /// Chebyshev distance: the number of king steps between two squares.
    pub fn king_distance(self, other: Self) -> i8 {
        (self.file - other.file)
            .abs()
            .max((self.rank - other.rank).abs())
    }
}

impl Square {
    /// The algebraic name, as `to_string` gives it, built without the formatting machinery:
    /// listing a state's legal actions names hundreds of squares.
    pub fn name(self) -> String {
        let mut name = String::with_capacity(4);
        self.push_name(&mut name);
        name
    }

    /// Appends the algebraic name to `out`, as `name` gives it, without allocating a string of
    /// its own: notations are built by pushing their parts into one buffer.
    pub fn push_name(self, out: &mut String) {
        out.push(file_letter(self.file));
        let rank = self.rank;
        if rank < 0 {
            out.push('-');
        }
        let rank = rank.unsigned_abs();
        if rank >= 100 {
            out.push(char::from(b'0' + rank / 100));
        }
        if rank >= 10 {
            out.push(char::from(b'0' + rank / 10 % 10));
        }
        out.push(char::from(b'0' + rank % 10));
    }
}

/// The letter of a file: `a` for 1. A typed action may name any file at all, so one with no
/// letter (far off every board) reads `?` rather than overflowing.
fn file_letter(file: i8) -> char {
    let code = i16::from(b'a') + i16::from(file) - 1;
    u8::try_from(code)
        .ok()
        .filter(u8::is_ascii)
        .map_or('?', char::from)
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_letter(self.file), self.rank)
    }
}

/// The eight king directions, orthogonal first.
pub const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
pub const KING_DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_far_off_every_board_still_have_a_name() {
        for (file, rank, name) in [
            (1, 1, "a1"),
            (26, 9, "z9"),
            (100, 5, "?5"),
            (i8::MAX, i8::MIN, "?-128"),
            (i8::MIN, 3, "?3"),
        ] {
            let square = Square::new(file, rank);
            assert_eq!(square.name(), name);
            assert_eq!(square.to_string(), name);
        }
    }

    #[test]
    fn names_round_trip() {
        for name in ["a1", "e4", "k17", "f0", "g18", "r11"] {
            assert_eq!(Square::parse(name).unwrap().to_string(), name);
        }
    }

    #[test]
    fn malformed_names_are_rejected() {
        for name in ["", "a", "1a", "A1", "a01", "a123", "e-1", "ä1"] {
            assert_eq!(Square::parse(name), None, "{name}");
        }
    }

    #[test]
    fn colours_alternate_like_a_chessboard() {
        assert!(Square::parse("a1").unwrap().is_dark());
        assert!(!Square::parse("b1").unwrap().is_dark());
        assert!(Square::parse("h8").unwrap().is_dark());
    }

    #[test]
    fn a_square_name_is_its_display() {
        for file in 1..=26 {
            for rank in -1..=120 {
                let square = Square { file, rank };
                assert_eq!(square.name(), square.to_string());
                let mut pushed = "x".to_owned();
                square.push_name(&mut pushed);
                assert_eq!(pushed, format!("x{square}"));
            }
        }
    }
}
