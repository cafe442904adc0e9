//! `--mode memory`: what the server keeps in memory for matches nobody is playing, and for a
//! match that goes on and on.
//!
//! It starts `--server-bin` on fresh data directories of its own, with matches leaving memory
//! after `--unload-secs` of nobody calling, and reports the server's resident memory:
//!
//! - with nothing stored, the baseline;
//! - with `--stored-matches` matches of `--variant` whose seats are both taken and nobody acts:
//!   right after they were created (every one hosted), and once they have left memory;
//! - on a fresh server, with as many finished matches (seated, then resigned), once they have
//!   left memory;
//! - on a fresh server, while one match of `--variant` with its options set for the longest game
//!   is played by random actions, up to `--long-actions`, every thousand actions: the growth
//!   per action.

use std::time::Duration;

use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_service_client::MatchServiceClient;
use tokio::task::JoinSet;
use tonic::transport::Channel;

use crate::startup::{Scratch, Server, free_address, play, store_matches};
use crate::{Args, IDLE_CREATORS, SeatedMatch, describe, resident_kib};

pub async fn run(args: &Args) -> Result<bool, String> {
    let binary = args
        .server_bin
        .as_deref()
        .ok_or("--mode memory needs --server-bin, the pitchmate binary to start")?;
    let scratch = Scratch::new()?;
    let unload = args.unload_secs.to_string();
    let settings = [("PITCHMATE__LIMITS__UNLOAD_IDLE_SECS", unload.as_str())];
    let start = |name: &str| {
        Server::start_with(
            binary,
            free_address()?,
            &scratch.0.join(name),
            &scratch.0,
            &settings,
        )
    };
    // Long enough for every actor to have gone idle, retired and been dropped.
    let until_unloaded = Duration::from_secs(args.unload_secs * 2 + 5);
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "server {}, variant {}, {} matches, matches leave memory after {} s idle",
        binary.display(),
        args.variant,
        args.stored_matches,
        args.unload_secs
    );

    let empty = start("empty")?;
    empty.until_serving().await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let empty_kib = resident_kib(empty.pid())?;
    println!("empty: {:.1} MiB resident", mib(empty_kib));
    drop(empty);

    let idle = start("idle")?;
    let channel = idle.until_serving().await?.channel;
    store_matches(&channel, args, args.stored_matches, 0).await?;
    let hosted_kib = resident_kib(idle.pid())?;
    let per_match =
        |kib: u64| (kib.saturating_sub(empty_kib)) as f64 / f64::from(args.stored_matches);
    // Printed at once: the next reading waits twice the idle time.
    println!(
        "{} idle seated matches: {:.1} MiB resident right after creating the last ({:.1} KiB \
         each above empty)",
        args.stored_matches,
        mib(hosted_kib),
        per_match(hosted_kib),
    );
    tokio::time::sleep(until_unloaded).await;
    let idle_kib = resident_kib(idle.pid())?;
    println!(
        "{} idle seated matches: {:.1} MiB resident once they left memory ({:.2} KiB each above \
         empty)",
        args.stored_matches,
        mib(idle_kib),
        per_match(idle_kib),
    );
    drop(idle);

    let finished = start("finished")?;
    let channel = finished.until_serving().await?.channel;
    finish_matches(&channel, args).await?;
    let played_kib = resident_kib(finished.pid())?;
    tokio::time::sleep(until_unloaded).await;
    let finished_kib = resident_kib(finished.pid())?;
    println!(
        "{} finished matches: {:.1} MiB resident right after, {:.1} MiB once they left memory: \
         {:.1} MiB above empty ({:.2} KiB each)",
        args.stored_matches,
        mib(played_kib),
        mib(finished_kib),
        mib(finished_kib.saturating_sub(empty_kib)),
        per_match(finished_kib),
    );
    drop(finished);

    let long = start("long")?;
    let channel = long.until_serving().await?.channel;
    let client = MatchServiceClient::new(channel);
    let seated = SeatedMatch::create_with(&client, long_match(&args.variant))
        .await
        .map_err(|s| format!("creating a match: {}", describe(&s)))?;
    let mut rng = fastrand::Rng::with_seed(args.seed);
    // The first actions allocate what any match needs; growth is read after them.
    let mut played = play(&client, &seated, 1000, &mut rng).await?;
    let start_kib = resident_kib(long.pid())?;
    let start_actions = played;
    let mut readings = vec![(played, start_kib)];
    while played < args.long_actions {
        let more = play(&client, &seated, 1000, &mut rng).await?;
        played += more;
        readings.push((played, resident_kib(long.pid())?));
        if more < 1000 {
            break;
        }
    }
    let (last_actions, last_kib) = readings.last().copied().unwrap_or((played, start_kib));
    let actions = last_actions.saturating_sub(start_actions).max(1);
    println!(
        "one match, {} actions: {}; {:.2} KiB per action over the last {} actions",
        last_actions,
        readings
            .iter()
            .map(|(n, kib)| format!("{n}: {:.1} MiB", mib(*kib)))
            .collect::<Vec<_>>()
            .join(", "),
        last_kib.saturating_sub(start_kib) as f64 / f64::from(actions),
        actions,
    );
    Ok(true)
}

/// A match of `variant` with its options set for as many actions as they allow.
fn long_match(variant: &str) -> pb::CreateMatchRequest {
    let int = |value| pb::OptionValue {
        kind: Some(pb::option_value::Kind::IntValue(value)),
    };
    let options = match variant {
        "soccer-chess" => vec![("sets_per_game", 1000), ("golden_goal_max_sets", 1000)],
        "kings-goal" => vec![("moves_per_half", 200)],
        "xfutebol" => vec![("movement_limit", 2000)],
        _ => Vec::new(),
    };
    pb::CreateMatchRequest {
        variant_id: variant.to_owned(),
        options: options
            .into_iter()
            .map(|(name, value)| (name.to_owned(), int(value)))
            .collect(),
        ..Default::default()
    }
}

/// Creates `--stored-matches` matches with both seats taken, and has the first seat resign
/// each, `IDLE_CREATORS` at a time.
async fn finish_matches(channel: &Channel, args: &Args) -> Result<(), String> {
    let mut creators = JoinSet::new();
    for creator in 0..IDLE_CREATORS as u32 {
        let mut client = MatchServiceClient::new(channel.clone());
        let variant = args.variant.clone();
        let share = (creator..args.stored_matches)
            .step_by(IDLE_CREATORS)
            .count();
        creators.spawn(async move {
            for _ in 0..share {
                let seated = SeatedMatch::create(&client, &variant)
                    .await
                    .map_err(|s| format!("creating a match: {}", describe(&s)))?;
                client
                    .resign(seated.as_seat(
                        0,
                        pb::ResignRequest {
                            match_id: seated.match_id.clone(),
                        },
                    ))
                    .await
                    .map_err(|s| format!("Resign: {}", describe(&s)))?;
            }
            Ok::<_, String>(())
        });
    }
    while let Some(joined) = creators.join_next().await {
        joined.map_err(|e| format!("creating task: {e}"))??;
    }
    Ok(())
}
