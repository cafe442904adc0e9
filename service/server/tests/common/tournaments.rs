//! Tournaments end to end: bots that play them with the SDK's league loop, and checks a test
//! makes of a tournament from the outside (its rounds as ListRounds gives them).

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use pitchmate_client::{
    BotMaker, Client, LeagueOptions, LeagueReport, PlayOptions, RandomChoice, ReconnectPolicy,
    authorized, pb, run_league,
};
use tokio::task::JoinHandle;

use super::process::{Options, ServerProcess, free_address, scratch_dir, url};

/// An operator key made by the `pitchmate` binary in `data_dir`, before a server runs there.
pub fn operator_key(data_dir: &std::path::Path) -> String {
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_pitchmate"))
        .arg("--data-dir")
        .arg(data_dir)
        .arg("operator-key")
        .output()
        .expect("run operator-key");
    assert!(made.status.success(), "{made:?}");
    String::from_utf8(made.stdout).unwrap().trim().to_owned()
}

/// A `pitchmate` process in a scratch directory with an operator key, a client, and `count`
/// registered bots named `prefix-N`.
pub struct Organised {
    pub address: SocketAddr,
    pub data_dir: std::path::PathBuf,
    pub server: ServerProcess,
    pub operator: String,
    pub client: Client,
    pub bots: Vec<TestBot>,
}

pub async fn organised(prefix: &str, count: usize) -> Organised {
    let address = free_address();
    let data_dir = scratch_dir();
    std::fs::create_dir_all(&data_dir).unwrap();
    let operator = operator_key(&data_dir);
    let options = Options {
        environment: &[("PITCHMATE__STREAM__HEARTBEAT_SECS", "1")],
        ..Options::default()
    };
    let server = ServerProcess::start_with(address, &data_dir, options).await;
    let client = Client::connect(url(address)).await.expect("connect");
    let bots = register_bots(&client, prefix, count).await;
    Organised {
        address,
        data_dir,
        server,
        operator,
        client,
        bots,
    }
}

impl Organised {
    /// Stops the server and removes its directory.
    pub async fn finish(self) {
        self.server.terminate().await;
        std::fs::remove_dir_all(&self.data_dir).unwrap();
    }
}

pub fn patient() -> ReconnectPolicy {
    ReconnectPolicy {
        first_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(500),
        give_up_after: Some(Duration::from_secs(120)),
        ..ReconnectPolicy::default()
    }
}

/// A bot registered for a test: its id and key.
#[derive(Clone, Debug)]
pub struct TestBot {
    pub id: String,
    pub key: String,
}

pub async fn register_bots(client: &Client, prefix: &str, count: usize) -> Vec<TestBot> {
    let mut bots = Vec::new();
    for index in 0..count {
        let created = client
            .register_bot(&format!("{prefix}-{index}"), "tests")
            .await
            .expect("register");
        bots.push(TestBot {
            id: created.bot.unwrap().bot_id,
            key: created.secret,
        });
    }
    bots
}

/// Each bot's league loop, playing random legal moves in every match it is assigned, until
/// `tournaments` tournaments it entered have ended and every match of its is over.
pub fn play_tournaments(
    address: SocketAddr,
    bots: &[TestBot],
    tournaments: usize,
) -> Vec<JoinHandle<LeagueReport>> {
    let seeds = Arc::new(AtomicU64::new(1));
    bots.iter()
        .map(|bot| {
            let key = bot.key.clone();
            let seeds = Arc::clone(&seeds);
            let make_bot: BotMaker = Arc::new(move |_: &pb::InboxMatchAssigned| {
                Box::new(RandomChoice::seeded(seeds.fetch_add(1, Ordering::Relaxed)))
            });
            tokio::spawn(async move {
                let client = loop {
                    if let Ok(client) = Client::connect(url(address)).await {
                        break client;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                };
                let options = LeagueOptions {
                    stop_after_tournaments: Some(tournaments),
                    play: PlayOptions {
                        reconnect: patient(),
                        ..PlayOptions::default()
                    },
                    reconnect: patient(),
                    ..LeagueOptions::default()
                };
                run_league(&client, &key, make_bot, options)
                    .await
                    .expect("the bot's league loop")
            })
        })
        .collect()
}

pub async fn reports(runs: Vec<JoinHandle<LeagueReport>>) -> Vec<LeagueReport> {
    let mut reports = Vec::new();
    for run in runs {
        let report = tokio::time::timeout(Duration::from_secs(300), run)
            .await
            .expect("every bot stops once its tournaments are over")
            .expect("the bot's task");
        reports.push(report);
    }
    reports
}

pub fn kings_goal(rated: bool) -> pb::MatchTerms {
    pb::MatchTerms {
        variant_id: "kings-goal".into(),
        rated,
        ..Default::default()
    }
}

pub async fn create(client: &Client, operator: &str, spec: pb::TournamentSpec) -> pb::Tournament {
    let request = authorized(pb::CreateTournamentRequest { spec: Some(spec) }, operator).unwrap();
    client
        .tournaments()
        .create_tournament(request)
        .await
        .expect("create the tournament")
        .into_inner()
        .tournament
        .unwrap()
}

pub async fn enter_all(client: &Client, tournament_id: &str, bots: &[TestBot]) {
    for bot in bots {
        let request = authorized(
            pb::EnterTournamentRequest {
                tournament_id: tournament_id.to_owned(),
                bot: String::new(),
            },
            &bot.key,
        )
        .unwrap();
        client
            .tournaments()
            .enter_tournament(request)
            .await
            .expect("enter");
    }
}

pub async fn start(client: &Client, operator: &str, tournament_id: &str) {
    let request = authorized(
        pb::StartTournamentRequest {
            tournament_id: tournament_id.to_owned(),
        },
        operator,
    )
    .unwrap();
    client
        .tournaments()
        .start_tournament(request)
        .await
        .expect("start");
}

/// The tournament as it stands; `None` while the server does not answer.
pub async fn tournament(address: SocketAddr, tournament_id: &str) -> Option<pb::Tournament> {
    let client = Client::connect(url(address)).await.ok()?;
    client
        .tournaments()
        .get_tournament(pb::GetTournamentRequest {
            tournament_id: tournament_id.to_owned(),
        })
        .await
        .ok()?
        .into_inner()
        .tournament
}

/// Waits until the tournament is over.
pub async fn finished(address: SocketAddr, tournament_id: &str) -> pb::Tournament {
    for _ in 0..6000 {
        if let Some(t) = tournament(address, tournament_id).await
            && t.status == pb::TournamentStatus::Finished as i32
        {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("tournament {tournament_id} never finished");
}

pub async fn rounds(client: &Client, tournament_id: &str) -> Vec<pb::TournamentRound> {
    client
        .tournaments()
        .list_rounds(pb::ListRoundsRequest {
            tournament_id: tournament_id.to_owned(),
            from_round: 0,
            page_size: 200,
        })
        .await
        .unwrap()
        .into_inner()
        .rounds
}

pub async fn standings(client: &Client, tournament_id: &str) -> Vec<pb::Standing> {
    client
        .tournaments()
        .get_standings(pb::GetStandingsRequest {
            tournament_id: tournament_id.to_owned(),
        })
        .await
        .unwrap()
        .into_inner()
        .standings
}

/// A pairing's games: its game, and its return game with paired games.
pub fn pairing_games(pairing: &pb::Pairing) -> impl Iterator<Item = &pb::TournamentGame> {
    pairing.game.iter().chain(pairing.return_game.iter())
}

/// The games of every round, in round and board order, as (round, first, second, outcome).
pub fn games(rounds: &[pb::TournamentRound]) -> Vec<(u32, String, String, i32)> {
    rounds
        .iter()
        .flat_map(|r| {
            r.pairings.iter().flat_map(pairing_games).map(move |game| {
                (
                    r.number,
                    game.first_bot_id.clone(),
                    game.second_bot_id.clone(),
                    game.outcome,
                )
            })
        })
        .collect()
}

/// Points in half-points of the first and second seat for an outcome.
fn points(outcome: i32) -> (u32, u32) {
    match pb::GameOutcome::try_from(outcome) {
        Ok(pb::GameOutcome::FirstWon) => (2, 0),
        Ok(pb::GameOutcome::SecondWon) => (0, 2),
        Ok(pb::GameOutcome::Draw) => (1, 1),
        Ok(pb::GameOutcome::NeitherCame) => (0, 0),
        other => panic!("a game without a result: {other:?}"),
    }
}

/// Points (half-points) and Buchholz (the sum of opponents' points, half-points, with a bye
/// counted as a game against an opponent with the bot's own points) computed here from the
/// rounds alone, independently of the server's standings. A bye is worth `bye_points`.
pub fn recomputed(rounds: &[pb::TournamentRound], bye_points: u32) -> BTreeMap<String, (u32, u32)> {
    let mut points_of: BTreeMap<String, u32> = BTreeMap::new();
    let mut opponents: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    for round in rounds {
        for game in round.pairings.iter().flat_map(pairing_games) {
            let (first, second) = points(game.outcome);
            *points_of.entry(game.first_bot_id.clone()).or_default() += first;
            *points_of.entry(game.second_bot_id.clone()).or_default() += second;
            let played = game.outcome != pb::GameOutcome::NeitherCame as i32;
            opponents
                .entry(game.first_bot_id.clone())
                .or_default()
                .push(played.then(|| game.second_bot_id.clone()));
            opponents
                .entry(game.second_bot_id.clone())
                .or_default()
                .push(played.then(|| game.first_bot_id.clone()));
        }
        if !round.bye_bot_id.is_empty() {
            *points_of.entry(round.bye_bot_id.clone()).or_default() += bye_points;
            opponents
                .entry(round.bye_bot_id.clone())
                .or_default()
                .push(None);
        }
    }
    points_of
        .iter()
        .map(|(bot, &own)| {
            let buchholz = opponents
                .get(bot)
                .map(|list| {
                    list.iter()
                        .map(|o| o.as_ref().map_or(own, |o| points_of[o]))
                        .sum()
                })
                .unwrap_or(0);
            (bot.clone(), (own, buchholz))
        })
        .collect()
}

/// Each bot's seats over its games in order: true for the first seat.
pub fn seats(rounds: &[pb::TournamentRound]) -> BTreeMap<String, Vec<bool>> {
    let mut seats: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    for (_, first, second, _) in games(rounds) {
        seats.entry(first).or_default().push(true);
        seats.entry(second).or_default().push(false);
    }
    seats
}

/// Every pair of bots that met, unordered, with how often.
pub fn meetings(rounds: &[pb::TournamentRound]) -> BTreeMap<(String, String), usize> {
    let mut met = BTreeMap::new();
    for (_, first, second, _) in games(rounds) {
        let key = if first < second {
            (first, second)
        } else {
            (second, first)
        };
        *met.entry(key).or_default() += 1;
    }
    met
}

/// Exports the tournament and verifies it, by id and as the exported document: no discrepancy.
/// Then verifies the document edited: with the first game of the last round's seats swapped,
/// that round must be reported; and, if `results_matter` (a ladder, whose waves record the
/// points they were paired from), with the first decided result of round 1 turned round,
/// some later round must be.
pub async fn export_verifies(client: &Client, tournament_id: &str, results_matter: bool) {
    use pb::verify_tournament_request::Source;
    let document = client
        .tournaments()
        .export_tournament(pb::ExportTournamentRequest {
            tournament_id: tournament_id.to_owned(),
        })
        .await
        .unwrap()
        .into_inner()
        .document;
    let verify = |source| {
        let mut tournaments = client.tournaments();
        async move {
            tournaments
                .verify_tournament(pb::VerifyTournamentRequest {
                    source: Some(source),
                })
                .await
                .unwrap()
                .into_inner()
        }
    };
    let by_id = verify(Source::TournamentId(tournament_id.to_owned())).await;
    assert!(by_id.discrepancies.is_empty(), "{:?}", by_id.discrepancies);
    let as_exported = verify(Source::Document(document.clone())).await;
    assert!(
        as_exported.discrepancies.is_empty(),
        "{:?}",
        as_exported.discrepancies
    );
    assert!(as_exported.rounds_checked > 1);

    let record: serde_json::Value = serde_json::from_str(&document).unwrap();
    let last = record["rounds"].as_array().unwrap().len() - 1;
    let mut swapped = record.clone();
    let game = &mut swapped["rounds"][last]["games"][0];
    let first = game["first"].clone();
    game["first"] = game["second"].clone();
    game["second"] = first;
    let seats = verify(Source::Document(swapped.to_string())).await;
    let last_number = record["rounds"][last]["number"].as_u64().unwrap() as u32;
    assert_eq!(
        seats
            .discrepancies
            .iter()
            .map(|d| d.round)
            .collect::<Vec<_>>(),
        vec![last_number],
        "a recorded seat order re-pairing does not give"
    );

    if results_matter {
        let mut flipped = record;
        let games = flipped["rounds"][0]["games"].as_array_mut().unwrap();
        let game = games
            .iter_mut()
            .find(|g| g["outcome"] == "first_won" || g["outcome"] == "second_won")
            .expect("a decided game in round 1");
        game["outcome"] = if game["outcome"] == "first_won" {
            "second_won".into()
        } else {
            "first_won".into()
        };
        let tampered = verify(Source::Document(flipped.to_string())).await;
        assert!(
            !tampered.discrepancies.is_empty(),
            "re-pairing finds a result changed"
        );
        assert!(tampered.discrepancies.iter().all(|d| d.round > 1));
    }
}

/// Every bot heard of each round it played or sat out, and of the end, once.
pub fn inbox_heard_everything(reports: &[LeagueReport], bots: &[TestBot], tournament_id: &str) {
    for (bot, report) in bots.iter().zip(reports) {
        let last = *report.seqs.last().expect("items");
        assert_eq!(
            report.seqs,
            (1..=last).collect::<Vec<_>>(),
            "{}'s inbox",
            bot.id
        );
        let rounds: Vec<u32> = report
            .rounds
            .iter()
            .filter(|r| r.tournament_id == tournament_id)
            .map(|r| r.round)
            .collect();
        let distinct: BTreeSet<u32> = rounds.iter().copied().collect();
        assert_eq!(
            rounds.len(),
            distinct.len(),
            "a round told twice to {}",
            bot.id
        );
        assert_eq!(
            report
                .tournaments
                .iter()
                .filter(|t| t.tournament_id == tournament_id)
                .count(),
            1
        );
        assert!(report.failed.is_empty(), "{:?}", report.failed);
    }
}
