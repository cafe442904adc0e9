//! The `bot` command: a program plays a seat, one match or in the league, as `random-bot` does.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::ValueEnum;
use pitchmate_bots::{SearchBot, SearchLimits};
use pitchmate_client::{
    Bot, BotMaker, Client, ClientError, LeagueOptions, RandomChoice, SeatHandle, pb, play,
    run_league,
};

use crate::describe;

/// How the bot chooses its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Strategy {
    /// Uniformly among the legal actions (the SDK's `RandomChoice`).
    Random,
    /// The strong bot: a tree search on the rules engine, rebuilt from the position the server
    /// shows its seat, thinking `--think-ms` per action.
    Strong,
}

/// The bots to play with: a strategy, the seed of the first one's choices, and how long a
/// searching one thinks per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotPlan {
    pub strategy: Strategy,
    pub seed: u64,
    pub think: Duration,
}

impl BotPlan {
    /// The `n`th bot of the plan (its seed is the plan's plus `n`).
    pub fn bot(&self, n: u64) -> Box<dyn Bot> {
        let seed = self.seed.wrapping_add(n);
        match self.strategy {
            Strategy::Random => Box::new(RandomChoice::seeded(seed)),
            Strategy::Strong => Box::new(SearchBot::new(SearchLimits::per_move(self.think), seed)),
        }
    }
}

/// Plays `seat` to the end of its match and prints the result.
pub async fn play_seat(
    client: &Client,
    seat: &SeatHandle,
    plan: BotPlan,
) -> Result<(), ClientError> {
    println!("playing seat {} of match {}", seat.seat, seat.match_id);
    let mut bot = plan.bot(0);
    let result = play(client, seat, bot.as_mut()).await?;
    println!("{}", describe::result(&result));
    Ok(())
}

/// Plays in the league with the bot's API key until `matches` of its matches have ended:
/// waits in the pool of `variant` (rated unless `casual`), accepts every challenge, plays what it
/// is assigned, and prints each match's outcome.
pub async fn league(
    client: &Client,
    api_key: &str,
    variant: &str,
    casual: bool,
    matches: usize,
    plan: BotPlan,
) -> Result<(), ClientError> {
    let played = Arc::new(AtomicU64::new(0));
    let make_bot: BotMaker = Arc::new(move |assigned: &pb::InboxMatchAssigned| {
        let n = played.fetch_add(1, Ordering::Relaxed);
        println!(
            "assigned match {} ({}, seat {}) against {}",
            assigned.match_id, assigned.variant_id, assigned.seat, assigned.opponent_name
        );
        plan.bot(n)
    });
    let options = LeagueOptions {
        queue: vec![pb::MatchTerms {
            variant_id: variant.to_owned(),
            rated: !casual,
            ..Default::default()
        }],
        accept: Some(Arc::new(|_: &pb::Challenge| true)),
        stop_after: Some(matches),
        ..LeagueOptions::default()
    };
    let report = run_league(client, api_key, make_bot, options).await?;
    for finished in &report.finished {
        let outcome = pb::MatchOutcome::try_from(finished.outcome).map_or("?", |o| {
            o.as_str_name().trim_start_matches("MATCH_OUTCOME_")
        });
        println!("match {} {}", finished.match_id, outcome.to_lowercase());
    }
    for (match_id, error) in &report.failed {
        eprintln!("match {match_id} was not played to its end: {error}");
    }
    Ok(())
}
