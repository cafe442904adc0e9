//! The Soccer Chess pitch: its size, zones, goals, default formations and piece patterns.

use super::PieceKind;
use crate::geometry::{DIAGONAL, KING_DIRECTIONS, KNIGHT_JUMPS, ORTHOGONAL, Square};

pub(super) const FILES: i8 = 11;
pub(super) const RANKS: i8 = 17;
pub(super) const CELLS: usize = FILES as usize * RANKS as usize;
/// Where the ball starts and where it returns after a goal.
pub(super) const CENTRE: Square = Square::new(6, 9);
/// Files d-h: the width of the small areas and (files e-g) of the crossbars.
const SMALL_AREA_FILES: std::ops::RangeInclusive<i8> = 4..=8;
const CROSSBAR_FILES: std::ops::RangeInclusive<i8> = 5..=7;

pub(super) fn on_board(square: Square) -> bool {
    (1..=FILES).contains(&square.file) && (1..=RANKS).contains(&square.rank)
}

/// The index of an on-board square in a rank-major array.
pub(super) fn cell(square: Square) -> usize {
    debug_assert!(on_board(square), "{square} is off the board");
    (square.rank - 1) as usize * FILES as usize + (square.file - 1) as usize
}

/// Every board square, rank 1 first, file a first.
pub(super) fn all_squares() -> impl Iterator<Item = Square> {
    (1..=RANKS).flat_map(|rank| (1..=FILES).map(move |file| Square::new(file, rank)))
}

/// The two halves of the pitch. The visited side plays at the bottom, the visitor at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Half {
    Bottom,
    Top,
}

impl Half {
    pub(super) fn small_area_contains(self, square: Square) -> bool {
        let ranks = match self {
            Half::Bottom => 1..=2,
            Half::Top => RANKS - 1..=RANKS,
        };
        SMALL_AREA_FILES.contains(&square.file) && ranks.contains(&square.rank)
    }

    pub(super) fn team_area_contains(self, square: Square) -> bool {
        let ranks = match self {
            Half::Bottom => 1..=8,
            Half::Top => 10..=RANKS,
        };
        (1..=FILES).contains(&square.file) && ranks.contains(&square.rank)
    }

    /// The crossbar cells this half defends: the ball entering one scores against it.
    pub(super) fn goal_cells(self) -> [Square; 3] {
        let rank = match self {
            Half::Bottom => 0,
            Half::Top => RANKS + 1,
        };
        [5, 6, 7].map(|file| Square::new(file, rank))
    }

    /// The half's default formation: the page's sample start, the "cup" at the bottom and the
    /// visitor's loose display at the top, so that two default formations give the page's first
    /// diagram exactly.
    pub(super) fn default_formation(self) -> Vec<(PieceKind, Square)> {
        let text = match self {
            Half::Bottom => "Kf1 Nb7 Ne7 Ng7 Nj7 Ra8 Rk8 Bf4 Bf5 Qe8 Qg8",
            Half::Top => "Kf17 Ne13 Nf13 Ng13 Nh13 Rc11 Rg11 Be15 Bj11 Qd11 Qk11",
        };
        text.split(' ')
            .map(|entry| {
                let kind = PieceKind::from_symbol(entry.chars().next().unwrap_or(' '))
                    .expect("formation letters are piece symbols");
                let square = Square::parse(&entry[1..]).expect("formation squares are valid");
                (kind, square)
            })
            .collect()
    }
}

/// Whether a square lies in either small area.
pub(super) fn in_small_area(square: Square) -> bool {
    Half::Bottom.small_area_contains(square) || Half::Top.small_area_contains(square)
}

/// The half whose goal a crossbar cell belongs to; `None` for every other square.
pub(super) fn goal_defended_by(square: Square) -> Option<Half> {
    if !CROSSBAR_FILES.contains(&square.file) {
        return None;
    }
    match square.rank {
        0 => Some(Half::Bottom),
        r if r == RANKS + 1 => Some(Half::Top),
        _ => None,
    }
}

/// How a piece travels: single steps (king, knight) or slides until blocked.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pattern {
    Steps(&'static [(i8, i8)]),
    Slides(&'static [(i8, i8)]),
}

impl PieceKind {
    pub(super) const ALL: [PieceKind; 5] = [
        PieceKind::Keeper,
        PieceKind::Defender,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Attacker,
    ];

    pub(super) fn move_pattern(self) -> Pattern {
        match self {
            PieceKind::Keeper => Pattern::Steps(&KING_DIRECTIONS),
            other => other.kick_pattern(),
        }
    }

    /// Keepers kick like attackers; every other piece kicks the way it moves.
    pub(super) fn kick_pattern(self) -> Pattern {
        match self {
            PieceKind::Keeper | PieceKind::Attacker => Pattern::Slides(&KING_DIRECTIONS),
            PieceKind::Defender => Pattern::Steps(&KNIGHT_JUMPS),
            PieceKind::Rook => Pattern::Slides(&ORTHOGONAL),
            PieceKind::Bishop => Pattern::Slides(&DIAGONAL),
        }
    }

    pub(super) fn symbol(self) -> char {
        match self {
            PieceKind::Keeper => 'K',
            PieceKind::Defender => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Attacker => 'Q',
        }
    }

    pub(super) fn from_symbol(symbol: char) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.symbol() == symbol)
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            PieceKind::Keeper => "keeper",
            PieceKind::Defender => "defender",
            PieceKind::Rook => "rook",
            PieceKind::Bishop => "bishop",
            PieceKind::Attacker => "attacker",
        }
    }

    /// How many of this kind a full team has.
    pub(super) fn team_count(self) -> usize {
        ROSTER.iter().filter(|kind| **kind == self).count()
    }
}

/// A team's eleven pieces in id order: a piece's id is `seat * 11 + its index here`.
pub(super) const ROSTER: [PieceKind; 11] = [
    PieceKind::Keeper,
    PieceKind::Defender,
    PieceKind::Defender,
    PieceKind::Defender,
    PieceKind::Defender,
    PieceKind::Rook,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Bishop,
    PieceKind::Attacker,
    PieceKind::Attacker,
];
