//! The Pitchmate server: hosts matches of the Pitchmate games for bots over gRPC.
//!
//! Data flows one way: a gRPC handler ([`api`]) checks a request and hands it to the match's
//! actor ([`hosting`], the match core in its own crate), which plays it on the rules engine through the proto mapping
//! ([`games`]), appends the resulting events to the match's log, makes them durable in the
//! [`store`] and streams them to watchers.
//! [`serve`] assembles everything; [`Settings`] configures it.

pub mod api;
pub mod config;
pub mod error;
pub mod forward;
pub mod metrics;
pub mod server;
pub mod telemetry;
pub mod tls;
pub mod transport;
pub mod web;

pub use pitchmate_games as games;
pub use pitchmate_hosting as hosting;
pub use pitchmate_store as store;

pub use config::Settings;
pub use error::ServiceError;
pub use server::{Hosted, HttpService, ServeError, ServerBuilder, serve};
