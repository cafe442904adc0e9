//! The field: 16 files by 48 ranks, two end zones, five spots per square.

use std::fmt;

use crate::game::Seat;
use crate::geometry::Square;

pub const FILES: i8 = 16;
pub const RANKS: i8 = 48;
/// Depth of each end zone in ranks.
pub const END_ZONE_DEPTH: i8 = 4;
/// A drive starts with the ball on this rank counted from the offense's own goal line.
pub const DRIVE_START_RANK: i8 = 8;
/// Ranks to gain from the line of scrimmage for a first down (10 yards).
pub const FIRST_DOWN_GAIN: i8 = 4;

pub const HOME: Seat = Seat(0);
pub const AWAY: Seat = Seat(1);

/// The five places a piece can stand inside one square.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub enum Spot {
    Nw,
    Ne,
    C,
    Sw,
    Se,
}

impl Spot {
    pub const ALL: [Spot; 5] = [Spot::Nw, Spot::Ne, Spot::C, Spot::Sw, Spot::Se];

    pub fn name(self) -> &'static str {
        match self {
            Spot::Nw => "nw",
            Spot::Ne => "ne",
            Spot::C => "c",
            Spot::Sw => "sw",
            Spot::Se => "se",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == text)
    }
}

/// A square and a spot inside it: where exactly a piece stands.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct Location {
    pub square: Square,
    pub spot: Spot,
}

impl Location {
    pub const fn new(square: Square, spot: Spot) -> Self {
        Self { square, spot }
    }

    /// Reads `h8.nw`.
    pub fn parse(text: &str) -> Option<Self> {
        let (square, spot) = text.split_once('.')?;
        let square = Square::parse(square)?;
        if !on_field(square) {
            return None;
        }
        Some(Self::new(square, Spot::parse(spot)?))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.square, self.spot.name())
    }
}

pub fn on_field(square: Square) -> bool {
    (1..=FILES).contains(&square.file) && (1..=RANKS).contains(&square.rank)
}

/// +1 for the team attacking toward rank 48 (home), -1 for the other.
pub fn forward(seat: Seat) -> i8 {
    if seat == HOME { 1 } else { -1 }
}

/// The end zone `seat` defends.
pub fn own_end_zone(seat: Seat, rank: i8) -> bool {
    if seat == HOME {
        rank <= END_ZONE_DEPTH
    } else {
        rank > RANKS - END_ZONE_DEPTH
    }
}

/// The end zone `seat` scores in.
pub fn scoring_end_zone(seat: Seat, rank: i8) -> bool {
    own_end_zone(seat.opponent(), rank)
}

/// A rank counted from `seat`'s own end line (1 = its own end line).
pub fn rank_for(seat: Seat, own_rank: i8) -> i8 {
    if seat == HOME {
        own_rank
    } else {
        RANKS + 1 - own_rank
    }
}

/// How far `rank` lies beyond `from` in `seat`'s attacking direction.
pub fn gain(seat: Seat, from: i8, rank: i8) -> i8 {
    (rank - from) * forward(seat)
}

pub fn adjacent(a: Square, b: Square) -> bool {
    a.king_distance(b) <= 1
}

pub fn seat_name(seat: Seat) -> &'static str {
    if seat == HOME { "home" } else { "away" }
}

pub fn parse_seat(text: &str) -> Option<Seat> {
    match text {
        "home" => Some(HOME),
        "away" => Some(AWAY),
        _ => None,
    }
}

/// Every square of the end zone `owner` defends.
pub fn end_zone_squares(owner: Seat) -> Vec<Square> {
    let mut squares = Vec::new();
    for rank in 1..=RANKS {
        if own_end_zone(owner, rank) {
            for file in 1..=FILES {
                squares.push(Square::new(file, rank));
            }
        }
    }
    squares
}
