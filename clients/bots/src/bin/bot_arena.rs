//! The strong bot's benchmark: it plays the random bot and the greedy bot in process on the
//! rules engines, every variant (or the ones named), both seat orders, and prints per pairing
//! wins/draws/losses, the points share with its 95 % Wilson interval, and the strong bot's
//! mean time and search iterations per action. Single-threaded: one match at a time.
//!
//! `cargo run --release -p pitchmate-bots --bin bot-arena -- --games 20 --budget-ms 100`

use std::collections::BTreeMap;
use std::time::Duration;

use clap::Parser;
use pitchmate_bots::arena::{Tally, play_match};
use pitchmate_bots::{
    GreedyPlayer, Player, RandomPlayer, SearchLimits, SearchPlayer, SearchSettings,
};
use pitchmate_rules::chessyball::Chessyball;
use pitchmate_rules::gridiron::Gridiron;
use pitchmate_rules::kings_goal::KingsGoal;
use pitchmate_rules::soccer_chess::SoccerChess;
use pitchmate_rules::xfutebol::XFutebol;
use pitchmate_rules::{Game, OptionValue, Rng, Seat, Seed};

const VARIANTS: [&str; 5] = [
    "soccer-chess",
    "chessyball",
    "kings-goal",
    "xfutebol",
    "gridiron",
];

#[derive(Debug, Parser)]
#[command(about = "Plays the strong bot against the random and greedy bots and prints the tally")]
struct Args {
    /// Variants to play (repeatable); all five by default.
    #[arg(long = "variant")]
    variants: Vec<String>,
    /// Opponents: `random`, `greedy` (repeatable); both by default.
    #[arg(long = "opponent")]
    opponents: Vec<String>,
    /// Matches per variant and opponent, half with the strong bot in each seat.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// The strong bot's thinking time per action, in milliseconds.
    #[arg(long, default_value_t = 100)]
    budget_ms: u64,
    /// A match option for a variant, `variant:name=value` (repeatable), e.g.
    /// `gridiron:possessions_per_half=1`.
    #[arg(long = "option", value_name = "VARIANT:NAME=VALUE")]
    options: Vec<String>,
    /// Seeds the matches and the players; the same seed replays the same matches at a fixed
    /// iteration count (not under a time budget).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Actions after which an unfinished match counts as a draw.
    #[arg(long, default_value_t = 100_000)]
    max_actions: usize,
    /// Overrides the strong bot's UCT exploration constant (for tuning).
    #[arg(long)]
    exploration: Option<f64>,
    /// Overrides the random actions the strong bot plays past its tree (for tuning).
    #[arg(long)]
    playout_actions: Option<usize>,
    /// Overrides whether the strong bot creates all children of a node at once (for tuning).
    #[arg(long)]
    expand_whole_nodes: Option<bool>,
    /// Print one line per match as it ends.
    #[arg(long)]
    verbose: bool,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let variants: Vec<&str> = if args.variants.is_empty() {
        VARIANTS.to_vec()
    } else {
        args.variants.iter().map(String::as_str).collect()
    };
    let opponents: Vec<&str> = if args.opponents.is_empty() {
        vec!["random", "greedy"]
    } else {
        args.opponents.iter().map(String::as_str).collect()
    };
    println!(
        "strong bot at {} ms per action, {} matches per pairing (half in each seat), seed {}",
        args.budget_ms, args.games, args.seed
    );
    println!(
        "{:<13} {:<7} {:>5} {:>4} {:>4} {:>4} {:>8} {:>16} {:>9} {:>11}  options",
        "variant", "against", "games", "W", "D", "L", "points", "95% CI", "ms/move", "iter/move"
    );
    for variant in variants {
        let options = variant_options(&args.options, variant)?;
        for &opponent in &opponents {
            let tally = match variant {
                "soccer-chess" => pairing::<SoccerChess>(&args, &options, opponent)?,
                "chessyball" => pairing::<Chessyball>(&args, &options, opponent)?,
                "kings-goal" => pairing::<KingsGoal>(&args, &options, opponent)?,
                "xfutebol" => pairing::<XFutebol>(&args, &options, opponent)?,
                "gridiron" => pairing::<Gridiron>(&args, &options, opponent)?,
                other => return Err(format!("unknown variant {other:?}")),
            };
            let (low, high) = tally.interval();
            let moves = tally.moves.max(1) as f64;
            let shown: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            println!(
                "{variant:<13} {opponent:<7} {:>5} {:>4} {:>4} {:>4} {:>7.1}% {:>7.1}%-{:>6.1}% {:>9.1} {:>11.0}  {}{}",
                tally.games(),
                tally.wins,
                tally.draws,
                tally.losses,
                100.0 * tally.points(),
                100.0 * low,
                100.0 * high,
                tally.thinking.as_secs_f64() * 1000.0 / moves,
                tally.iterations as f64 / moves,
                if shown.is_empty() {
                    "defaults".to_owned()
                } else {
                    shown.join(",")
                },
                if tally.unfinished > 0 {
                    format!(" ({} cut at the action cap)", tally.unfinished)
                } else {
                    String::new()
                },
            );
        }
    }
    Ok(())
}

fn pairing<G: Game>(
    args: &Args,
    options: &BTreeMap<String, OptionValue>,
    opponent: &str,
) -> Result<Tally, String> {
    let mut tally = Tally::default();
    let mut rng = Rng::new(args.seed ^ 0xA7E7A);
    let limits = SearchLimits::per_move(Duration::from_millis(args.budget_ms));
    for index in 0..args.games {
        let match_seed = args
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(index));
        let player_seed = match_seed ^ 0x5EED;
        let mut settings = SearchSettings::for_variant(G::info().id);
        if let Some(exploration) = args.exploration {
            settings.exploration = exploration;
        }
        if let Some(whole) = args.expand_whole_nodes {
            settings.expand_whole_nodes = whole;
        }
        if let Some(actions) = args.playout_actions {
            settings.playout_actions = actions;
        }
        let mut strong = SearchPlayer::<G>::with_settings(limits, settings, player_seed);
        let mut other: Box<dyn Player<G>> = match opponent {
            "random" => Box::new(RandomPlayer::seeded(player_seed + 1)),
            "greedy" => Box::new(GreedyPlayer::new::<G>(player_seed + 1)),
            unknown => return Err(format!("unknown opponent {unknown:?}")),
        };
        // Consecutive matches swap seats; each pair of them shares its seed.
        let seat = Seat((index % 2) as u8);
        let record = play_match(
            options,
            Seed::from_number(match_seed / 2 * 2),
            &mut strong,
            other.as_mut(),
            seat,
            args.max_actions,
            &mut rng,
        )?;
        if args.verbose {
            eprintln!(
                "{} vs {opponent}: match {index}, seat {}, points {}, {} moves, {:.1} ms/move",
                G::info().id,
                seat.0,
                record.points,
                record.moves,
                record.thinking.as_secs_f64() * 1000.0 / record.moves.max(1) as f64
            );
        }
        tally.add(&record);
    }
    Ok(tally)
}

/// The `--option`s given for `variant`, typed.
fn variant_options(
    given: &[String],
    variant: &str,
) -> Result<BTreeMap<String, OptionValue>, String> {
    let mut options = BTreeMap::new();
    for option in given {
        let (for_variant, setting) = option
            .split_once(':')
            .ok_or_else(|| format!("option {option:?} is not VARIANT:NAME=VALUE"))?;
        if for_variant != variant {
            continue;
        }
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("option {option:?} is not VARIANT:NAME=VALUE"))?;
        let value = match (value.parse::<i64>(), value.parse::<bool>()) {
            (Ok(int), _) => OptionValue::Int(int),
            (_, Ok(flag)) => OptionValue::Bool(flag),
            _ => OptionValue::Text(value.to_owned()),
        };
        options.insert(name.to_owned(), value);
    }
    Ok(options)
}
