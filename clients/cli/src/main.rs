//! `pitchmate-cli`: Pitchmate from a terminal. See docs/cli.md.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use pitchmate_cli::bots::{self, BotPlan, Strategy};
use pitchmate_cli::listing::{self, Status};
use pitchmate_cli::screen::Output;
use pitchmate_cli::{describe, play, replay, watch};
use pitchmate_client::{Client, SeatHandle, pb, read_ndjson};

#[derive(Debug, Parser)]
#[command(
    version,
    about = "Pitchmate from a terminal: list, create and join matches, play by hand, watch, replay, run a bot"
)]
struct Cli {
    /// The server's URL.
    #[arg(
        long,
        global = true,
        default_value = "http://127.0.0.1:50051",
        env = "PITCHMATE_SERVER"
    )]
    server: String,
    /// No colours (also when NO_COLOR is set or the output is not a terminal).
    #[arg(long, global = true)]
    no_color: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the variants the server hosts, with their options.
    Variants,
    /// List matches, newest first.
    Matches {
        #[arg(long, value_enum)]
        status: Option<Status>,
        #[arg(long)]
        variant: Option<String>,
        /// Only matches in which a player of this name took a seat.
        #[arg(long)]
        player: Option<String>,
        /// Matches per page (the server's default is 50).
        #[arg(long, default_value_t = 20)]
        page_size: i32,
        /// The page after the one that printed this token.
        #[arg(long)]
        page_token: Option<String>,
    },
    /// Create a match with open seats.
    Create {
        variant: String,
        /// A match option, NAME=VALUE (repeatable); `variants` lists them.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Take a seat and print its secret token.
    Join {
        match_id: String,
        /// The seat to take (default: the first free one).
        #[arg(long)]
        seat: Option<String>,
        /// The name other players see.
        #[arg(long, default_value = "player")]
        name: String,
    },
    /// Play a seat by hand.
    Play(PlayArgs),
    /// Watch a live match as a spectator until it ends.
    Watch { match_id: String },
    /// Step through a finished match, from the server or an exported NDJSON file.
    Replay {
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        match_id: Option<String>,
        /// A replay exported as NDJSON (MatchService.ExportReplay).
        #[arg(long, value_name = "EXPORT.ndjson")]
        file: Option<std::path::PathBuf>,
        /// Show the boards as this seat saw them, its hidden information included (default: as
        /// a spectator).
        #[arg(long)]
        seat: Option<String>,
    },
    /// Run a bot: one match, or in the league with an API key.
    Bot(BotArgs),
}

#[derive(Debug, Args)]
struct PlayArgs {
    /// The match whose seat to play, with --token or --api-key.
    #[arg(conflicts_with_all = ["create", "join"])]
    match_id: Option<String>,
    /// The seat token that `join` printed.
    #[arg(long, requires = "match_id")]
    token: Option<String>,
    /// A bot's API key (scope PLAY): play its seat in the match, taking one if it has none.
    #[arg(long, env = "PITCHMATE_API_KEY")]
    api_key: Option<String>,
    /// Create a match of this variant and play its first free seat (or --seat).
    #[arg(long, value_name = "VARIANT", conflicts_with = "join")]
    create: Option<String>,
    /// Join this match and play its first free seat (or --seat).
    #[arg(long, value_name = "MATCH")]
    join: Option<String>,
    /// With --create: a match option, NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "create")]
    options: Vec<String>,
    /// The seat to take.
    #[arg(long)]
    seat: Option<String>,
    /// The name other players see.
    #[arg(long, default_value = "player")]
    name: String,
}

#[derive(Debug, Args)]
struct BotArgs {
    #[arg(long, value_enum, default_value = "random")]
    strategy: Strategy,
    /// Create a match of this variant and play one seat of it.
    #[arg(long, value_name = "VARIANT", conflicts_with_all = ["join", "league"])]
    create: Option<String>,
    /// Join this match and play one seat of it.
    #[arg(long, value_name = "MATCH", conflicts_with = "league")]
    join: Option<String>,
    /// Play in the league (needs --api-key) until this many of the bot's matches have ended.
    #[arg(long, value_name = "N", requires = "api_key")]
    league: Option<usize>,
    /// With --league: the variant whose pool to wait in.
    #[arg(long, default_value = "soccer-chess")]
    variant: String,
    /// With --league: wait in the casual pool instead of the rated one.
    #[arg(long, requires = "league")]
    casual: bool,
    /// With --create: a match option, NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "create")]
    options: Vec<String>,
    /// The seat to take.
    #[arg(long)]
    seat: Option<String>,
    /// The name other players see (a bot with an API key plays under its own).
    #[arg(long, default_value = "pitchmate-cli-bot")]
    name: String,
    /// The bot's API key (scope PLAY; CHALLENGE too for the league).
    #[arg(long, env = "PITCHMATE_API_KEY")]
    api_key: Option<String>,
    /// Seeds the bot's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// With --strategy strong: how long it thinks per action, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    think_ms: u64,
}

#[tokio::main]
async fn main() -> ExitCode {
    // Warnings (a strong bot that had to choose at random, a reconnect) go to standard error.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let cli = Cli::parse();
    match run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("pitchmate-cli: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    let output = Output::detect(cli.no_color);
    if let Command::Replay {
        file: Some(path),
        seat,
        ..
    } = &cli.command
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let replay = read_ndjson(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        return step_through(&replay, seat.as_deref(), output);
    }
    let client = Client::connect(&cli.server).await.map_err(|e| {
        format!("{e}; is a Pitchmate server listening there? Name another with --server URL")
    })?;
    let failed = |e: pitchmate_client::ClientError| e.to_string();
    match cli.command {
        Command::Variants => {
            let variants = client.list_variants().await.map_err(failed)?;
            print!("{}", listing::variants(&variants));
        }
        Command::Matches {
            status,
            variant,
            player,
            page_size,
            page_token,
        } => {
            let request = pb::ListMatchesRequest {
                page_size,
                page_token: page_token.unwrap_or_default(),
                variant_id: variant.unwrap_or_default(),
                status: status
                    .map_or(pb::MatchStatus::Unspecified, Into::into)
                    .into(),
                player_name: player.unwrap_or_default(),
            };
            let page = listing::list_matches(&client, request)
                .await
                .map_err(failed)?;
            print!("{}", listing::matches(&page));
        }
        Command::Create { variant, options } => {
            let new = listing::new_match(&variant, &options)?;
            let created = client.create_match(new).await.map_err(failed)?;
            let seats: Vec<&str> = created.seats.iter().map(|s| s.seat.as_str()).collect();
            println!(
                "match {} ({}) created; seats {}",
                created.match_id,
                created.variant_id,
                seats.join(", ")
            );
            println!("take a seat: pitchmate-cli join {}", created.match_id);
        }
        Command::Join {
            match_id,
            seat,
            name,
        } => {
            let seat = client
                .join(&match_id, seat.as_deref(), &name)
                .await
                .map_err(failed)?;
            println!("seat {} of match {match_id}", seat.seat);
            println!("seat token (secret, shown once): {}", seat.token);
            println!(
                "play it: pitchmate-cli play {match_id} --token {}",
                seat.token
            );
        }
        Command::Play(args) => {
            let seat = take_seat(&client, &args).await?;
            // An API key is the person's own secret: not printed, unlike a token `play` took.
            let come_back = match &args.api_key {
                Some(_) => format!("pitchmate-cli play {} --api-key KEY", seat.match_id),
                None => format!(
                    "pitchmate-cli play {} --token {}",
                    seat.match_id, seat.token
                ),
            };
            let mut title = format!("match {} - you play {}", seat.match_id, seat.seat);
            if args.create.is_some() {
                title.push_str(&format!(
                    "\nthe other seat is free: pitchmate-cli play --join {0} (a person) or \
                     pitchmate-cli bot --join {0} (a bot)",
                    seat.match_id
                ));
            }
            // The last frame shows the result.
            play::play_by_hand(&client, seat, title, come_back, output)
                .await
                .map_err(failed)?;
            println!();
        }
        Command::Watch { match_id } => {
            let result = watch::watch(&client, &match_id, output)
                .await
                .map_err(failed)?;
            println!("{}", describe::result(&result));
        }
        Command::Replay { match_id, seat, .. } => {
            let match_id = match_id.unwrap_or_default();
            let replay = client.replay(&match_id).await.map_err(failed)?;
            step_through(&replay, seat.as_deref(), output)?;
        }
        Command::Bot(args) => run_bot(&client, args).await?,
    }
    Ok(())
}

fn step_through(
    replay: &pb::GetReplayResponse,
    seat: Option<&str>,
    output: Output,
) -> Result<(), String> {
    let rebuilt = replay::rebuild(replay, seat)?;
    replay::step_through(&rebuilt, std::io::stdin().lock(), output);
    if !std::io::stdin().is_terminal() {
        // Commands came from a file or a pipe: say where the replay was left.
        println!("(end of commands)");
    }
    Ok(())
}

/// The seat `play` acts for: joined, created and joined, or already held with a token or key.
async fn take_seat(client: &Client, args: &PlayArgs) -> Result<SeatHandle, String> {
    let failed = |e: pitchmate_client::ClientError| e.to_string();
    let join = async |match_id: &str| match &args.api_key {
        Some(key) => {
            client
                .join_as_bot(match_id, args.seat.as_deref(), key)
                .await
        }
        None => {
            client
                .join(match_id, args.seat.as_deref(), &args.name)
                .await
        }
    };
    if let Some(variant) = &args.create {
        let new = listing::new_match(variant, &args.options)?;
        let created = client.create_match(new).await.map_err(failed)?;
        println!("match {} ({variant}) created", created.match_id);
        return join(&created.match_id).await.map_err(failed);
    }
    if let Some(match_id) = &args.join {
        return join(match_id).await.map_err(failed);
    }
    let Some(match_id) = &args.match_id else {
        return Err("say which seat: MATCH --token TOKEN, MATCH --api-key KEY, --join MATCH or --create VARIANT (see --help)".into());
    };
    let secret = match (&args.token, &args.api_key) {
        (Some(token), _) => token,
        (None, Some(key)) => key,
        (None, None) => {
            return Err(format!(
                "whose seat? add --token TOKEN (from `join`) or --api-key KEY, or say --join {match_id}"
            ));
        }
    };
    let held = SeatHandle {
        match_id: match_id.clone(),
        seat: String::new(),
        token: secret.clone(),
    };
    let seat = match client.get_match(match_id, Some(&held)).await {
        Ok(got) => got.view.map(|v| v.viewer_seat).unwrap_or_default(),
        // The bot holds no seat here yet: it takes one.
        Err(e) if e.reason().as_deref() == Some("BOT_NOT_SEATED") && args.token.is_none() => {
            return join(match_id).await.map_err(failed);
        }
        Err(e) => return Err(failed(e)),
    };
    if seat.is_empty() {
        return Err(format!("that token holds no seat in match {match_id}"));
    }
    Ok(SeatHandle { seat, ..held })
}

async fn run_bot(client: &Client, args: BotArgs) -> Result<(), String> {
    let failed = |e: pitchmate_client::ClientError| e.to_string();
    let plan = BotPlan {
        strategy: args.strategy,
        seed: args.seed,
        think: Duration::from_millis(args.think_ms),
    };
    if let (Some(matches), Some(key)) = (args.league, &args.api_key) {
        return bots::league(client, key, &args.variant, args.casual, matches, plan)
            .await
            .map_err(failed);
    }
    let match_id = match (&args.create, &args.join) {
        (Some(variant), _) => {
            let new = listing::new_match(variant, &args.options)?;
            let created = client.create_match(new).await.map_err(failed)?;
            println!("match {} ({variant}) created", created.match_id);
            created.match_id
        }
        (None, Some(match_id)) => match_id.clone(),
        (None, None) => {
            return Err("say --create VARIANT, --join MATCH or --league N (see --help)".into());
        }
    };
    let seat = match &args.api_key {
        Some(key) => {
            client
                .join_as_bot(&match_id, args.seat.as_deref(), key)
                .await
        }
        None => {
            client
                .join(&match_id, args.seat.as_deref(), &args.name)
                .await
        }
    }
    .map_err(failed)?;
    bots::play_seat(client, &seat, plan).await.map_err(failed)
}
