//! Pitchmate bots: a strong one (Monte Carlo tree search on the rules engines, with
//! information-set sampling), a greedy one and a random one, for every game.
//!
//! [`Player`] is what a strategy answers: an action for a seat in a game. The arena
//! (`bot-arena`) plays them against each other in process; the network bots wrap them in the
//! SDK's `Bot`.

pub mod arena;
pub mod evaluate;
pub mod greedy;
pub mod network;
pub mod player;
pub mod runner;
pub mod search;

pub use greedy::GreedyPlayer;
pub use network::SearchBot;
pub use player::{Player, RandomPlayer};
pub use search::{SearchLimits, SearchPlayer, SearchSettings};
