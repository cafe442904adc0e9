//! The command line every network bot of this crate shares (`random-bot`, `strong-bot`); only
//! the strategy differs.
//!
//! `--both` creates a match and plays both seats, printing every action and the result;
//! `--create` plays one seat of a new match and prints its id so a second bot can `--join` it;
//! `--league N` runs as a league bot with its API key: it waits in the queue's pool for
//! `--variant` (rated unless `--casual`), accepts every challenge it is sent, and plays whatever
//! it is assigned until N of its matches have ended (a house bot); `--tournament ID` enters a
//! tournament with its API key and plays its games until the tournament ends.

use std::process::ExitCode;
use std::time::Duration;

/// Prints a line of output; a reader that went away (`random-bot --both | head`) ends the bot
/// quietly, as a closed pipe ends other tools, instead of a panic.
macro_rules! say {
    ($($line:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($line)*).is_err() {
            std::process::exit(0);
        }
    }};
}

use clap::{CommandFactory, FromArgMatches};
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::stream_match_events_response::Item;
use std::sync::Arc;

use pitchmate_client::{
    Bot, BotMaker, Client, ClientError, EventStream, LeagueOptions, LeagueReport, NewMatch,
    RandomChoice, SeatHandle, authorized, pb, play, run_league,
};

use crate::network::SearchBot;
use crate::search::SearchLimits;

/// How a bot binary chooses its actions, with the command-line options of its own.
pub trait Strategy: clap::Args + Clone + Send + Sync + 'static {
    /// The binary's name: the default player name, and the prefix of its error messages.
    const NAME: &'static str;
    /// One line for `--help`.
    const ABOUT: &'static str;
    /// A player for one seat, its choices seeded by `seed` where it draws any.
    fn bot(&self, seed: u64) -> Box<dyn Bot>;
}

/// `random-bot`: uniformly random legal actions.
#[derive(Clone, Debug, clap::Args)]
pub struct RandomStrategy {}

impl Strategy for RandomStrategy {
    const NAME: &'static str = "random-bot";
    const ABOUT: &'static str = "Plays random legal actions on a Pitchmate server";

    fn bot(&self, seed: u64) -> Box<dyn Bot> {
        Box::new(RandomChoice::seeded(seed))
    }
}

/// `strong-bot`: the tree search on the rules engines ([`SearchBot`]).
#[derive(Clone, Debug, clap::Args)]
pub struct StrongStrategy {
    /// How long the bot thinks per action, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    think_ms: u64,
}

impl Strategy for StrongStrategy {
    const NAME: &'static str = "strong-bot";
    const ABOUT: &'static str =
        "Plays a Pitchmate server with a tree search on the rules engines, every variant";

    fn bot(&self, seed: u64) -> Box<dyn Bot> {
        let limits = SearchLimits::per_move(Duration::from_millis(self.think_ms));
        Box::new(SearchBot::new(limits, seed))
    }
}

#[derive(Debug, clap::Parser)]
#[command(version)]
struct Args<S: Strategy> {
    /// The server's URL.
    #[arg(
        long,
        default_value = "http://127.0.0.1:50051",
        env = "PITCHMATE_SERVER"
    )]
    server: String,
    /// The variant of a match to create.
    #[arg(long, default_value = "soccer-chess")]
    variant: String,
    /// Create a match, play both seats, print the result.
    #[arg(long, conflicts_with_all = ["create", "join"])]
    both: bool,
    /// Create a match, print its id, and play one seat of it.
    #[arg(long, conflicts_with_all = ["join", "league"])]
    create: bool,
    /// Run as a league bot (needs --api-key) until this many of its matches have ended.
    #[arg(long, value_name = "N", conflicts_with_all = ["both", "join"], requires = "api_key")]
    league: Option<usize>,
    /// Enter this tournament (needs --api-key) and play its games until it ends.
    #[arg(long, value_name = "ID", conflicts_with_all = ["both", "join", "create", "league"], requires = "api_key")]
    tournament: Option<String>,
    /// With --league: wait in the casual pool instead of the rated one.
    #[arg(long, requires = "league")]
    casual: bool,
    /// Join this match and play one seat of it.
    #[arg(long, value_name = "MATCH")]
    join: Option<String>,
    /// The seat to take (default: the first free one).
    #[arg(long)]
    seat: Option<String>,
    /// Seeds the bot's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With --create or --both: the match's seed, to reproduce a match. Without it the server
    /// draws one nobody can know; a match whose creator chose its seed says so and is never
    /// rated.
    #[arg(long, value_name = "N")]
    match_seed: Option<u64>,
    /// A match option, `name=value` (repeatable), e.g. `--option sets_per_game=10`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The player name shown to others (default: the bot's own name).
    #[arg(long)]
    name: Option<String>,
    /// With --create or --join: play as the bot whose API key (scope PLAY) this is, under its
    /// own name and with no seat token (BotService.CreateBot gives a bot its first key).
    #[arg(
        long,
        value_name = "KEY",
        env = "PITCHMATE_API_KEY",
        conflicts_with = "both"
    )]
    api_key: Option<String>,
    /// Print only the result, not every action.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    strategy: S,
}

impl<S: Strategy> Args<S> {
    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(S::NAME)
    }
}

/// A bot binary's `main`: parses its command line and plays.
pub fn main<S: Strategy>() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let matches = Args::<S>::command()
        .name(S::NAME)
        .about(S::ABOUT)
        .get_matches();
    let args = match Args::<S>::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(error) => error.exit(),
    };
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{}: {message}", S::NAME);
            ExitCode::FAILURE
        }
    }
}

async fn run<S: Strategy>(args: Args<S>) -> Result<(), String> {
    if !args.both
        && !args.create
        && args.join.is_none()
        && args.league.is_none()
        && args.tournament.is_none()
    {
        return Err(
            "say --both, --create, --join MATCH, --league N or --tournament ID (see --help)".into(),
        );
    }
    let client = Client::connect(&args.server)
        .await
        .map_err(|e| e.to_string())?;
    if let (Some(matches), Some(key)) = (args.league, &args.api_key) {
        return league(&client, key, matches, &args).await;
    }
    if let (Some(tournament_id), Some(key)) = (&args.tournament, &args.api_key) {
        return tournament(&client, key, tournament_id, &args).await;
    }
    let match_id = match &args.join {
        Some(id) => id.clone(),
        None => {
            let new = new_match(&args)?;
            let created = client.create_match(new).await.map_err(|e| e.to_string())?;
            say!(
                "match {} ({}) created",
                created.match_id,
                created.variant_id
            );
            created.match_id
        }
    };

    let printer = if args.quiet {
        None
    } else {
        let stream = client
            .watch(&match_id, 0, None)
            .await
            .map_err(|e| e.to_string())?;
        Some(tokio::spawn(print_events(stream)))
    };

    let result = if args.both {
        let first = client
            .join(&match_id, None, &format!("{}-1", args.name()))
            .await
            .map_err(|e| e.to_string())?;
        let second = client
            .join(&match_id, None, &format!("{}-2", args.name()))
            .await
            .map_err(|e| e.to_string())?;
        let (a, b) = tokio::join!(
            play_seat(client.clone(), first, args.strategy.bot(args.seed)),
            play_seat(
                client.clone(),
                second,
                args.strategy.bot(args.seed.wrapping_add(1))
            ),
        );
        b?;
        a?
    } else {
        let seat = match &args.api_key {
            Some(key) => {
                client
                    .join_as_bot(&match_id, args.seat.as_deref(), key)
                    .await
            }
            None => {
                client
                    .join(&match_id, args.seat.as_deref(), args.name())
                    .await
            }
        }
        .map_err(|e| e.to_string())?;
        say!("playing seat {} of match {match_id}", seat.seat);
        play_seat(client.clone(), seat, args.strategy.bot(args.seed)).await?
    };

    if let Some(printer) = printer {
        // The spectator stream closes after the match-ended event: let it finish printing.
        let _ = printer.await;
    }
    say!("{}", describe_result(&result));
    Ok(())
}

/// Plays in the league until `matches` of the bot's matches have ended, printing each.
async fn league<S: Strategy>(
    client: &Client,
    key: &str,
    matches: usize,
    args: &Args<S>,
) -> Result<(), String> {
    let terms = pb::MatchTerms {
        variant_id: args.variant.clone(),
        rated: !args.casual,
        ..Default::default()
    };
    let options = LeagueOptions {
        queue: vec![terms],
        accept: Some(Arc::new(|_: &pb::Challenge| true)),
        stop_after: Some(matches),
        ..LeagueOptions::default()
    };
    play_assigned(client, key, options, args).await.map(|_| ())
}

/// Enters the tournament and plays its games until it ends, printing each and where the bot
/// finished.
async fn tournament<S: Strategy>(
    client: &Client,
    key: &str,
    tournament_id: &str,
    args: &Args<S>,
) -> Result<(), String> {
    // Only what comes from now on: the bot's earlier items (matches long over) are not this
    // tournament's.
    let inbox = authorized(pb::GetInboxRequest {}, key).map_err(|e| e.to_string())?;
    let newest_seq = client
        .inboxes()
        .get_inbox(inbox)
        .await
        .map_err(|status| ClientError::from(status).to_string())?
        .into_inner()
        .newest_seq;
    let request = authorized(
        pb::EnterTournamentRequest {
            tournament_id: tournament_id.to_owned(),
            bot: String::new(),
        },
        key,
    )
    .map_err(|e| e.to_string())?;
    let entry = client
        .tournaments()
        .enter_tournament(request)
        .await
        .map_err(|status| ClientError::from(status).to_string())?
        .into_inner()
        .entry
        .unwrap_or_default();
    say!(
        "entered tournament {tournament_id} as {} (rating {})",
        entry.bot_name,
        entry.rating
    );
    let options = LeagueOptions {
        stop_after_tournaments: Some(1),
        after_seq: newest_seq,
        ..LeagueOptions::default()
    };
    let report = play_assigned(client, key, options, args).await?;
    for over in &report.tournaments {
        say!(
            "tournament {} over ({}): rank {}, {} points",
            over.tournament_id,
            over.end_reason,
            over.rank,
            over.points
        );
    }
    Ok(())
}

/// Runs the league loop with `options`, playing every match assigned with the strategy, and
/// prints each match's result.
async fn play_assigned<S: Strategy>(
    client: &Client,
    key: &str,
    options: LeagueOptions,
    args: &Args<S>,
) -> Result<LeagueReport, String> {
    let (strategy, seed) = (Arc::new(args.strategy.clone()), args.seed);
    let counter = std::sync::atomic::AtomicU64::new(0);
    let make_bot: BotMaker = Arc::new(move |assigned: &pb::InboxMatchAssigned| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let round = if assigned.tournament_id.is_empty() {
            String::new()
        } else {
            format!(", round {}", assigned.round)
        };
        say!(
            "assigned match {} ({}, seat {}{round}) against {}",
            assigned.match_id,
            assigned.variant_id,
            assigned.seat,
            assigned.opponent_name
        );
        strategy.bot(seed.wrapping_add(n))
    });
    let report = run_league(client, key, make_bot, options)
        .await
        .map_err(|e| e.to_string())?;
    for finished in &report.finished {
        let outcome = pb::MatchOutcome::try_from(finished.outcome).map_or("?", |o| {
            o.as_str_name().trim_start_matches("MATCH_OUTCOME_")
        });
        let rating = finished
            .rating_change
            .as_ref()
            .and_then(|c| Some((c.before.as_ref()?.rating, c.after.as_ref()?.rating)))
            .map(|(before, after)| format!(", rating {before:.0} -> {after:.0}"))
            .unwrap_or_default();
        say!("match {} {outcome}{rating}", finished.match_id);
    }
    for (match_id, error) in &report.failed {
        eprintln!("match {match_id} was not played to its end: {error}");
    }
    Ok(report)
}

async fn play_seat(
    client: Client,
    seat: SeatHandle,
    mut bot: Box<dyn Bot>,
) -> Result<pb::MatchResult, String> {
    play(&client, &seat, bot.as_mut())
        .await
        .map_err(|e: ClientError| e.to_string())
}

fn new_match<S: Strategy>(args: &Args<S>) -> Result<NewMatch, String> {
    let mut new = NewMatch::variant(&args.variant);
    if let Some(seed) = args.match_seed {
        new = new.seed(seed);
    }
    args.options
        .iter()
        .try_fold(new, |new, option| new.option_assignment(option))
}

async fn print_events(mut stream: EventStream) {
    while let Ok(Some(message)) = stream.message().await {
        let Some(Item::Event(event)) = message.item else {
            continue;
        };
        match event.kind {
            Some(Kind::SeatJoined(joined)) => say!(
                "{:>5}  {} joins as {}",
                event.seq,
                joined.player_name,
                joined.seat
            ),
            Some(Kind::ActionTaken(taken)) => {
                say!("{:>5}  {:<7} {}", event.seq, taken.seat, taken.notation)
            }
            Some(Kind::GameEvent(game)) => {
                if let Some(line) = describe_game_event(&game) {
                    say!("{:>5}  {line}", event.seq);
                }
            }
            Some(Kind::MatchEnded(_)) => return,
            _ => {}
        }
    }
}

/// The game events worth a line of their own while watching; moves are shown as actions.
fn describe_game_event(event: &pb::GameEvent) -> Option<String> {
    use pb::game_event::Game;
    use pb::soccer_chess_event::Kind as SoccerChess;
    let score = |scores: &[pb::SeatScore]| {
        scores
            .iter()
            .map(|s| format!("{} {}", s.seat, s.score))
            .collect::<Vec<_>>()
            .join(" - ")
    };
    match event.game.as_ref()? {
        Game::SoccerChess(event) => match event.kind.as_ref()? {
            SoccerChess::GoalScored(goal) => Some(format!(
                "GOAL for {} in game {} ({})",
                goal.seat,
                goal.game,
                score(&goal.game_score)
            )),
            SoccerChess::GameEnded(ended) => Some(format!(
                "game {} over: {}",
                ended.game,
                score(&ended.game_score)
            )),
            SoccerChess::GoldenGoalStarted(_) => {
                Some("level on aggregate and away goals: golden goal".to_owned())
            }
            _ => None,
        },
        Game::DiceRolled(roll) => Some(format!(
            "{} rolls {:?} for {}",
            roll.seat, roll.values, roll.purpose
        )),
        // Other games' moves show as actions and their scores come with the result.
        _ => None,
    }
}

fn describe_result(result: &pb::MatchResult) -> String {
    let scores: Vec<String> = result
        .scores
        .iter()
        .map(|s| format!("{} {}", s.seat, s.score))
        .collect();
    let winner = if result.winner.is_empty() {
        "draw".to_owned()
    } else {
        format!("{} wins", result.winner)
    };
    let detail = if result.detail.is_empty() {
        String::new()
    } else {
        format!(" ({})", result.detail)
    };
    format!("result: {winner}, {}{detail}", scores.join(" - "))
}
