//! Rust SDK for Pitchmate.
//!
//! ```no_run
//! # async fn run() -> Result<(), pitchmate_client::ClientError> {
//! use pitchmate_client::{Client, NewMatch, RandomChoice, play};
//!
//! let mut client = Client::connect("http://127.0.0.1:50051").await?;
//! let created = client.create_match(NewMatch::variant("soccer-chess")).await?;
//! let seat = client.join(&created.match_id, None, "my-bot").await?;
//! let result = play(&client, &seat, &mut RandomChoice::seeded(1)).await?;
//! println!("{result:?}");
//! # Ok(()) }
//! ```

mod bot;
mod client;
mod error;
mod league;
mod play;
mod reconnect;
mod verify;

pub use bot::{Bot, Choice, RandomChoice};
pub use client::{
    Client, EventStream, InboxStream, LifecycleStream, NewMatch, PlayStream, SeatHandle, authorized,
};
pub use error::ClientError;
pub use league::{BotMaker, ChallengePolicy, LeagueOptions, LeagueReport, run_league};
pub use pitchmate_proto::v1 as pb;
pub use play::{PlayOptions, play, play_with};
pub use reconnect::ReconnectPolicy;
pub use verify::{NdjsonError, Verified, VerifyError, read_ndjson, verify_replay, write_ndjson};
