//! A league end to end: twenty bots (the SDK's league loop, each with `max_concurrent` 1) wait
//! in one rated queue and play whatever they are assigned, while the server is SIGKILLed twice.
//! Sampled every 100 ms, no bot ever has two live matches; every finished match moved each of
//! its bots' ratings exactly once; every inbox delivered its items once, in order, with no gap;
//! and recomputing the ratings from the stored results gives the live ones.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::process::{Options, ServerProcess, free_address, scratch_dir, url};
use pitchmate_client::{
    BotMaker, Client, LeagueOptions, LeagueReport, PlayOptions, RandomChoice, ReconnectPolicy,
    authorized, pb, run_league,
};
use tokio::sync::watch;

const BOTS: usize = 20;
/// Finished matches after which the server is killed, and after which the bots stop.
const KILL_AT: [usize; 2] = [8, 18];
const STOP_AT: usize = 28;

fn patient() -> ReconnectPolicy {
    ReconnectPolicy {
        first_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(500),
        give_up_after: Some(Duration::from_secs(120)),
        ..ReconnectPolicy::default()
    }
}

fn rated_kings_goal() -> pb::MatchTerms {
    pb::MatchTerms {
        variant_id: "kings-goal".into(),
        rated: true,
        ..Default::default()
    }
}

/// Finished matches on the server; `None` while it is not answering.
async fn finished_matches(address: std::net::SocketAddr) -> Option<usize> {
    let client = Client::connect(url(address)).await.ok()?;
    let mut matches = client.matches();
    let (mut count, mut token) = (0, String::new());
    loop {
        let page = matches
            .list_matches(pb::ListMatchesRequest {
                page_size: 500,
                page_token: token,
                status: pb::MatchStatus::Finished as i32,
                ..Default::default()
            })
            .await
            .ok()?
            .into_inner();
        count += page.matches.len();
        if page.next_page_token.is_empty() {
            return Some(count);
        }
        token = page.next_page_token;
    }
}

/// Every 100 ms, each bot's live matches; the most each ever had.
async fn sample_live(
    address: std::net::SocketAddr,
    keys: Vec<String>,
    mut stop: watch::Receiver<bool>,
) -> (Vec<u64>, usize) {
    let mut most = vec![0; keys.len()];
    let mut samples = 0;
    while !*stop.borrow() {
        if let Ok(client) = Client::connect(url(address)).await {
            for (index, key) in keys.iter().enumerate() {
                let Ok(request) = authorized(pb::GetQuotaRequest::default(), key) else {
                    continue;
                };
                if let Ok(quota) = client.challenges().get_quota(request).await {
                    most[index] = most[index].max(quota.into_inner().live);
                    samples += 1;
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
            _ = stop.changed() => {}
        }
    }
    (most, samples)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_league_bots_play_through_two_sigkills_and_ratings_hold() {
    let address = free_address();
    let data_dir = scratch_dir();
    let options = Options {
        environment: &[("PITCHMATE__STREAM__HEARTBEAT_SECS", "1")],
        ..Options::default()
    };
    let mut server = ServerProcess::start_with(address, &data_dir, options).await;
    let client = Client::connect(url(address)).await.expect("connect");
    let mut bots = Vec::new();
    for index in 0..BOTS {
        let created = client
            .register_bot(&format!("league-{index}"), "tests")
            .await
            .expect("register");
        bots.push((created.bot.unwrap().bot_id, created.secret));
    }
    let keys: Vec<String> = bots.iter().map(|(_, key)| key.clone()).collect();

    let (stop, until) = watch::channel(false);
    let (sampled, sampling) = watch::channel(false);
    let sampler = tokio::spawn(sample_live(address, keys.clone(), sampling));
    let seeds = Arc::new(AtomicU64::new(1));
    let mut runs = Vec::new();
    for key in &keys {
        let (key, until) = (key.clone(), until.clone());
        let seeds = Arc::clone(&seeds);
        let make_bot: BotMaker = Arc::new(move |_: &pb::InboxMatchAssigned| {
            Box::new(RandomChoice::seeded(seeds.fetch_add(1, Ordering::Relaxed)))
        });
        runs.push(tokio::spawn(async move {
            let client = loop {
                if let Ok(client) = Client::connect(url(address)).await {
                    break client;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            let options = LeagueOptions {
                queue: vec![rated_kings_goal()],
                until: Some(until),
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

    // Two SIGKILLs while matches are being played, then the bots are told to stop.
    let mut kills = KILL_AT.iter().peekable();
    loop {
        let finished = finished_matches(address).await.unwrap_or(0);
        if let Some(&&at) = kills.peek()
            && finished >= at
        {
            server.kill();
            server = ServerProcess::start_with(address, &data_dir, options).await;
            kills.next();
        }
        if kills.peek().is_none() && finished >= STOP_AT {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.send_replace(true);
    let mut reports: Vec<LeagueReport> = Vec::new();
    for run in runs {
        let report = tokio::time::timeout(Duration::from_secs(180), run)
            .await
            .expect("every bot stops once its matches are over")
            .expect("the bot's task")
            .expect("the bot's league loop");
        reports.push(report);
    }
    sampled.send_replace(true);
    let (most_live, samples) = sampler.await.unwrap();
    assert!(
        samples > 0 && most_live.contains(&1),
        "the sampler saw bots playing"
    );
    assert!(
        most_live.iter().all(|&live| live <= 1),
        "a bot had two live matches: {most_live:?}"
    );

    let channel = Client::connect(url(address)).await.unwrap();
    let mut finished_by_match: BTreeMap<String, Vec<pb::InboxMatchFinished>> = BTreeMap::new();
    for (index, report) in reports.iter().enumerate() {
        // Every item once, in order, none missed.
        let last = *report.seqs.last().expect("items");
        assert_eq!(
            report.seqs,
            (1..=last).collect::<Vec<_>>(),
            "bot {index}'s inbox"
        );
        let request = authorized(pb::GetInboxRequest {}, &keys[index]).unwrap();
        let inbox = channel
            .inboxes()
            .get_inbox(request)
            .await
            .unwrap()
            .into_inner();
        assert_eq!(inbox.newest_seq, last, "bot {index} read its whole inbox");
        assert!(report.failed.is_empty(), "bot {index}: {:?}", report.failed);
        let assigned: BTreeSet<&str> = report
            .assigned
            .iter()
            .map(|a| a.match_id.as_str())
            .collect();
        let finished: BTreeSet<&str> = report
            .finished
            .iter()
            .map(|f| f.match_id.as_str())
            .collect();
        assert_eq!(
            assigned.len(),
            report.assigned.len(),
            "each match assigned once"
        );
        assert_eq!(
            finished.len(),
            report.finished.len(),
            "each match finished once"
        );
        assert_eq!(
            assigned, finished,
            "bot {index} played out every match assigned"
        );
        for item in &report.finished {
            finished_by_match
                .entry(item.match_id.clone())
                .or_default()
                .push(item.clone());
        }
    }
    assert!(finished_by_match.len() >= STOP_AT);

    // Every finished match moved each of its two bots' ratings once, and nothing else did.
    let mut changes: HashMap<String, Vec<String>> = HashMap::new();
    for (bot_id, _) in &bots {
        let history = channel
            .ratings()
            .list_rating_changes(pb::ListRatingChangesRequest {
                bot_id: bot_id.clone(),
                page_size: 1000,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .changes;
        for change in history {
            changes
                .entry(change.match_id)
                .or_default()
                .push(bot_id.clone());
        }
    }
    for (match_id, items) in &finished_by_match {
        assert_eq!(items.len(), 2, "both bots of {match_id} heard it ended");
        let rated = items
            .iter()
            .all(|i| i.outcome != pb::MatchOutcome::Aborted as i32);
        let moved = changes.get(match_id).map_or(0, Vec::len);
        assert_eq!(
            moved,
            if rated { 2 } else { 0 },
            "rating changes of {match_id}"
        );
        for item in items {
            assert_eq!(item.rating_change.is_some(), rated, "{match_id}");
        }
    }
    assert_eq!(
        changes.len(),
        finished_by_match
            .values()
            .filter(|items| items[0].outcome != pb::MatchOutcome::Aborted as i32)
            .count(),
        "no rating change for a match no bot heard of"
    );
    server.terminate().await;

    // The operator's recomputation agrees with the live ratings.
    let recomputed = std::process::Command::new(env!("CARGO_BIN_EXE_pitchmate"))
        .arg("--data-dir")
        .arg(&data_dir)
        .arg("recompute-ratings")
        .output()
        .expect("run recompute-ratings");
    let said = String::from_utf8_lossy(&recomputed.stdout);
    assert!(recomputed.status.success(), "{said}");
    assert!(said.contains("0 differ"), "{said}");
    std::fs::remove_dir_all(&data_dir).unwrap();
}
