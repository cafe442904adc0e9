//! Bots that live on the server: identities that last beyond one seat, the API keys they act
//! with, and the inbox that tells each bot what concerns it. A league (challenges, a queue,
//! ratings, tournaments) is built on these; the match core
//! knows none of it and hosts a bot's seat as it hosts any other, by a credential whose hash it
//! keeps (see `pitchmate_hosting::token::account_credential`).
//!
//! Everything here is kept in the store; the keys are also held in memory (hashed), so that
//! checking a key on every action costs no database read.

pub mod accounts;
pub mod bot;
pub mod challenges;
pub mod error;
pub mod follower;
pub mod inbox;
pub mod key;
pub mod pairing;
pub mod policy;
pub mod queue;
pub mod rated;
pub mod rating;
pub mod remote;
pub mod scheduler;
pub mod scope;
pub mod terms;
pub mod tournaments;

pub use accounts::{Accounts, BotDefaults, Caller, NewBot};
pub use bot::{Bot, BotChange};
pub use error::LeagueError;
pub use inbox::{InboxBus, InboxEvent, InboxItem};
pub use key::{ApiKey, IssuedKey};
pub use scope::{Scope, Scopes};

// Times as the store keeps them: nanoseconds since the Unix epoch, as the match core writes them.
use pitchmate_hosting::durable::{from_nanos as time, nanos};

#[cfg(test)]
mod accounts_tests;
#[cfg(test)]
mod scheduler_tests;
