//! The generic board view: enough for one viewer program to draw any of the games.

use crate::game::Seat;
use crate::geometry::Square;

/// What a marked region of the board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZoneKind {
    /// Cells where the ball scores against `owner`.
    Goal,
    /// Soccer Chess small area: only keepers may stand there.
    SmallArea,
    /// Where a team sets up its pieces.
    TeamArea,
    /// Chessyball keeper box.
    KeeperBox,
    /// Chessyball inner rectangle: the ball never leaves it except into a goal.
    InnerArea,
    /// XFutebol goal area.
    GoalArea,
    /// XFutebol penalty area.
    PenaltyArea,
    /// Gridiron end zone.
    EndZone,
}

/// A marked region, owned by a seat when it belongs to one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub kind: ZoneKind,
    pub owner: Option<Seat>,
    pub squares: Vec<Square>,
}

/// A piece as the viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceView {
    /// Stable within a match, so a viewer can animate moves.
    pub id: u32,
    pub owner: Seat,
    /// Game-specific kind, lower case: `keeper`, `knight`, `goaler`, `heavy`, ...
    pub kind: String,
    /// The letter the game's notation uses for it.
    pub symbol: String,
    pub square: Square,
    /// Gridiron's spot inside a square (`nw`, `ne`, `c`, `sw`, `se`); empty elsewhere.
    pub spot: String,
}

/// Where the ball is, as far as the viewer may know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BallView {
    /// The ball's square when it is loose or its square is public.
    pub square: Option<Square>,
    /// The piece holding it, when the game has carriers and the viewer may know which.
    pub holder: Option<u32>,
    /// When the holder is hidden from this viewer: the pieces that might hold it.
    pub possible_holders: Vec<u32>,
}

impl BallView {
    /// A ball lying on `square`, nobody holding it.
    pub fn loose(square: Square) -> Self {
        Self {
            square: Some(square),
            holder: None,
            possible_holders: Vec::new(),
        }
    }

    /// A ball held by piece `holder`, standing on `square`, both known to the viewer.
    pub fn held(square: Option<Square>, holder: u32) -> Self {
        Self {
            square,
            holder: Some(holder),
            possible_holders: Vec::new(),
        }
    }
}

/// Everything needed to draw the board for one viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    pub files: u8,
    pub ranks: u8,
    pub zones: Vec<Zone>,
    pub pieces: Vec<PieceView>,
    pub ball: Option<BallView>,
}
