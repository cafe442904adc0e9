//! `pitchmate-cli`: Pitchmate from a terminal, for people. Lists variants and matches, creates
//! and joins matches, plays a seat by hand, watches a live match, steps through a finished one,
//! and runs a bot.
//!
//! The board drawing ([`render`]) is one pure function for all five games.

pub mod bots;
pub mod describe;
pub mod listing;
pub mod play;
pub mod render;
pub mod replay;
pub mod screen;
pub mod watch;
