//! A league moves from SQLite to PostgreSQL with the binary's own commands. Two bots play rated
//! matches on a server over SQLite; it stops; `pitchmate export` writes its store to a file and
//! `pitchmate import` writes that into a fresh PostgreSQL schema (a second import is refused);
//! a server on PostgreSQL then shows the same matches, replays, bots, rating histories and
//! leaderboard, the bots' keys still authenticate, the bots play on, and `recompute-ratings`
//! finds every rating as the stored results make it.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::process::{Options, ServerProcess, free_address, scratch_dir, url};
use pitchmate_client::{
    BotMaker, Client, LeagueOptions, PlayOptions, RandomChoice, ReconnectPolicy, authorized, pb,
    run_league,
};
use pitchmate_store::scratch::ScratchSchema;

/// Rated matches the bots play on SQLite, then on PostgreSQL.
const BEFORE: usize = 3;
const AFTER: usize = 1;

fn patient() -> ReconnectPolicy {
    ReconnectPolicy {
        first_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(500),
        give_up_after: Some(Duration::from_secs(60)),
        ..ReconnectPolicy::default()
    }
}

/// Both bots wait in the rated King's Goal queue, from their inboxes' `after` seqs, until each
/// has played `matches`; the last seq each read.
async fn play(address: SocketAddr, keys: &[String], after: &[u64], matches: usize) -> Vec<u64> {
    let seeds = Arc::new(AtomicU64::new(after.iter().sum::<u64>() + 1));
    let mut runs = Vec::new();
    for (key, after_seq) in keys.iter().cloned().zip(after.iter().copied()) {
        let seeds = Arc::clone(&seeds);
        let make_bot: BotMaker = Arc::new(move |_: &pb::InboxMatchAssigned| {
            Box::new(RandomChoice::seeded(seeds.fetch_add(1, Ordering::Relaxed)))
        });
        runs.push(tokio::spawn(async move {
            let client = Client::connect(url(address)).await.expect("connect");
            let options = LeagueOptions {
                queue: vec![pb::MatchTerms {
                    variant_id: "kings-goal".into(),
                    rated: true,
                    ..Default::default()
                }],
                stop_after: Some(matches),
                after_seq,
                play: PlayOptions {
                    reconnect: patient(),
                    ..PlayOptions::default()
                },
                reconnect: patient(),
                ..LeagueOptions::default()
            };
            run_league(&client, &key, make_bot, options).await
        }));
    }
    let mut last = Vec::new();
    for run in runs {
        let report = tokio::time::timeout(Duration::from_secs(300), run)
            .await
            .expect("the bots play their matches")
            .expect("the bot's task")
            .expect("the bot's league loop");
        assert!(report.failed.is_empty(), "{:?}", report.failed);
        last.push(*report.seqs.last().expect("inbox items"));
    }
    last
}

/// What a server shows of the league over the API.
#[derive(Debug, PartialEq)]
struct Shown {
    matches: Vec<pb::Match>,
    replays: Vec<pb::GetReplayResponse>,
    bots: Vec<pb::Bot>,
    /// Who each key says it is.
    identities: Vec<pb::WhoAmIResponse>,
    changes: Vec<pb::RatingChange>,
    /// Rating, volatility, games and the time last rated of each bot in each pool: these are
    /// stored; the deviation grows with time as it is read, so it is left out.
    ratings: Vec<(
        String,
        String,
        f64,
        f64,
        u32,
        Option<prost_types::Timestamp>,
    )>,
    /// Empty while both bots are provisional, as after a few matches.
    leaderboard: Vec<(u32, String, String)>,
}

async fn shown(address: SocketAddr, bot_ids: &[String], keys: &[String]) -> Shown {
    let client = Client::connect(url(address)).await.expect("connect");
    let matches = client
        .matches()
        .list_matches(pb::ListMatchesRequest {
            page_size: 500,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .matches;
    let mut replays = Vec::new();
    for listed in &matches {
        let replay = client
            .matches()
            .get_replay(pb::GetReplayRequest {
                match_id: listed.match_id.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        replays.push(replay);
    }
    let bots = client
        .bots()
        .list_bots(pb::ListBotsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .bots;
    let mut identities = Vec::new();
    for key in keys {
        let request = authorized(pb::WhoAmIRequest {}, key).unwrap();
        identities.push(client.bots().who_am_i(request).await.unwrap().into_inner());
    }
    let (mut changes, mut ratings) = (Vec::new(), Vec::new());
    for bot_id in bot_ids {
        let history = client
            .ratings()
            .list_rating_changes(pb::ListRatingChangesRequest {
                bot_id: bot_id.clone(),
                page_size: 500,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .changes;
        changes.extend(history);
        let pools = client
            .ratings()
            .get_ratings(pb::GetRatingsRequest {
                bot_id: bot_id.clone(),
            })
            .await
            .unwrap()
            .into_inner()
            .ratings;
        for pool in pools {
            let rating = pool.rating.unwrap();
            ratings.push((
                bot_id.clone(),
                pool.pool,
                rating.rating,
                rating.volatility,
                rating.games,
                rating.last_rated_time,
            ));
        }
    }
    let pool = changes.first().expect("rated matches").pool.clone();
    let leaderboard = client
        .ratings()
        .get_leaderboard(pb::GetLeaderboardRequest {
            pool,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .entries
        .into_iter()
        .map(|e| (e.rank, e.bot_id, e.bot_name))
        .collect();
    Shown {
        matches,
        replays,
        bots,
        identities,
        changes,
        ratings,
        leaderboard,
    }
}

/// The `pitchmate` binary on `data_dir`, with `store_url` (empty: SQLite there).
fn pitchmate(data_dir: &Path, store_url: &str, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pitchmate"))
        .env("PITCHMATE__STORE__URL", store_url)
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .output()
        .expect("run pitchmate")
}

fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_league_moves_from_sqlite_to_postgres_with_export_and_import() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let outcome = tokio::spawn(moves(schema.url.clone())).await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

async fn moves(postgres: String) {
    let options = Options {
        environment: &[("PITCHMATE__STREAM__HEARTBEAT_SECS", "1")],
        ..Options::default()
    };
    let sqlite_dir = scratch_dir();
    let address = free_address();
    let server = ServerProcess::start_with(address, &sqlite_dir, options).await;
    let client = Client::connect(url(address)).await.expect("connect");
    let (mut bot_ids, mut keys) = (Vec::new(), Vec::new());
    for name in ["north", "south"] {
        let created = client.register_bot(name, "tests").await.expect("register");
        bot_ids.push(created.bot.unwrap().bot_id);
        keys.push(created.secret);
    }
    let seqs = play(address, &keys, &[0, 0], BEFORE).await;
    let before = shown(address, &bot_ids, &keys).await;
    assert!(before.changes.len() >= 2 * BEFORE, "{:?}", before.changes);
    assert_eq!(
        before.ratings.len(),
        2,
        "both bots are rated: {:?}",
        before.ratings
    );
    assert!(server.terminate().await.success());

    let file = sqlite_dir.join("league.ndjson");
    let file_arg = file.to_str().unwrap();
    let exported = pitchmate(&sqlite_dir, "", &["export", "--out", file_arg]);
    assert!(exported.status.success(), "{}", said(&exported));
    assert!(said(&exported).contains("exported"), "{}", said(&exported));

    // An export that fails leaves no file behind to be taken for a whole one.
    let nowhere = scratch_dir();
    let missing = nowhere.join("nothing.ndjson");
    let failed = pitchmate(
        &nowhere,
        "",
        &["export", "--out", missing.to_str().unwrap()],
    );
    assert_eq!(failed.status.code(), Some(2), "{}", said(&failed));
    assert!(
        said(&failed).contains("no SQLite store"),
        "{}",
        said(&failed)
    );
    assert!(!missing.exists());
    std::fs::remove_dir_all(&nowhere).unwrap();

    let postgres_dir = scratch_dir();
    let imported = pitchmate(&postgres_dir, &postgres, &["import", "--in", file_arg]);
    assert!(imported.status.success(), "{}", said(&imported));
    let again = pitchmate(&postgres_dir, &postgres, &["import", "--in", file_arg]);
    assert_eq!(again.status.code(), Some(2), "{}", said(&again));
    assert!(said(&again).contains("not empty"), "{}", said(&again));

    let environment = [
        ("PITCHMATE__STREAM__HEARTBEAT_SECS", "1"),
        ("PITCHMATE__STORE__URL", postgres.as_str()),
    ];
    let on_postgres = Options {
        environment: &environment,
        ..Options::default()
    };
    let address = free_address();
    let server = ServerProcess::start_with(address, &postgres_dir, on_postgres).await;
    assert_eq!(shown(address, &bot_ids, &keys).await, before);
    assert!(
        !postgres_dir.join(pitchmate_store::SQLITE_FILE).exists(),
        "the server runs on PostgreSQL"
    );

    // The league goes on where it stood: new matches take new keys, ratings move on.
    play(address, &keys, &seqs, AFTER).await;
    let after = shown(address, &bot_ids, &keys).await;
    assert_eq!(
        after.matches.len(),
        before.matches.len() + AFTER,
        "{:?}",
        after.matches
    );
    assert_eq!(after.changes.len(), before.changes.len() + 2 * AFTER);
    assert!(server.terminate().await.success());

    let recomputed = pitchmate(&postgres_dir, &postgres, &["recompute-ratings"]);
    assert!(recomputed.status.success(), "{}", said(&recomputed));
    assert!(
        said(&recomputed).contains("0 differ"),
        "{}",
        said(&recomputed)
    );
    std::fs::remove_dir_all(&sqlite_dir).unwrap();
    std::fs::remove_dir_all(&postgres_dir).unwrap();
}
