//! Rule engines for the Pitchmate games.
//!
//! Every engine is pure, synchronous and deterministic: given the same options, seed, start
//! position and sequence of actions it reaches the same state and emits the same events. Engines
//! know nothing of the wire protocol, storage or time; the server maps their types to protobuf.
//!
//! All games implement [`Game`]. A turn is a sequence of atomic actions; setup phases, lineups
//! and simultaneous hidden orders are expressed as actions too, so a client can always play by
//! picking one entry from [`Game::legal_actions`].

pub mod board;
pub mod chessyball;
pub mod game;
pub mod geometry;
pub mod gridiron;
pub mod kings_goal;
pub mod options;
pub mod playout;
#[cfg(test)]
mod position_checks;
#[cfg(test)]
mod refusal_checks;
mod rivals;
pub mod rng;
#[cfg(test)]
mod serde_checks;
pub mod soccer_chess;
mod text;
pub mod xfutebol;

pub use board::{BallView, BoardView, PieceView, Zone, ZoneKind};
pub use game::{
    Emitted, Game, Outcome, Rule, RuleError, RuleErrorKind, Seat, SetupSpec, Turn, TurnStructure,
    VariantInfo, Viewer, Visibility, start,
};
pub use geometry::Square;
pub use options::{OptionKind, OptionSpec, OptionValue, Options};
pub use rng::{Rng, Seed};
