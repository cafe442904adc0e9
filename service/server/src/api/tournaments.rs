//! `TournamentService`: tournaments, run by the leagues crate's `Tournaments`, on the wire.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use pitchmate_proto::v1 as pb;
use tokio::sync::watch;
use tokio_stream::StreamExt;
use tonic::{Request, Response, Status};

use super::challenges::{terms_from_proto, terms_to_proto};
use super::credentials::Credentials;
use super::{EdgeStream, edge, paging};
use crate::error::{ServiceError, to_status};
use crate::hosting::durable::{from_nanos, nanos};
use pitchmate_leagues::tournaments::log::LogItem;
use pitchmate_leagues::tournaments::plan::Loaded;
use pitchmate_leagues::tournaments::spec::{
    Conditions, DEFAULT_ROUND_INTERVAL_MS, Kind, NOT_SCHEDULED, Spec, default_tie_breaks,
};
use pitchmate_leagues::tournaments::{NewTournament, Tournaments, game_outcome, random_u64};
use pitchmate_leagues::{Accounts, LeagueError};
use pitchmate_store::{EntryRow, EntryState, TournamentLogRow, TournamentRow, TournamentState};
use pitchmate_tournaments::Outcome;
use pitchmate_tournaments::record::{self, Record};
use pitchmate_tournaments::standings::{Standing, TieBreak};

pub struct TournamentApi {
    credentials: Arc<Credentials>,
    accounts: Arc<Accounts>,
    tournaments: Arc<Tournaments>,
    stopping: watch::Receiver<bool>,
}

impl TournamentApi {
    pub fn new(
        credentials: Arc<Credentials>,
        accounts: Arc<Accounts>,
        tournaments: Arc<Tournaments>,
        stopping: watch::Receiver<bool>,
    ) -> Self {
        Self {
            credentials,
            accounts,
            tournaments,
            stopping,
        }
    }

    async fn bot_names(&self, ids: Vec<String>) -> BTreeMap<String, String> {
        let mut names = BTreeMap::new();
        for id in ids {
            if let Ok(bot) = self.accounts.bot(&id).await {
                names.insert(id, bot.name);
            }
        }
        names
    }

    async fn entry_to_proto(&self, entry: &EntryRow) -> pb::Entry {
        let names = self.bot_names(vec![entry.bot_id.clone()]).await;
        entry_to_proto(entry, &names)
    }

    async fn standings_to_proto(&self, loaded: &Loaded) -> Vec<pb::Standing> {
        let standings = Tournaments::standings(loaded);
        let ids: Vec<String> = standings.iter().map(|s| s.id.clone()).collect();
        let names = self.bot_names(ids).await;
        standings
            .iter()
            .map(|s| standing_to_proto(s, loaded, &names))
            .collect()
    }

    /// A log row as the update it announces, read as things now stand.
    async fn update_to_proto(
        &self,
        row: TournamentLogRow,
    ) -> Result<pb::WatchTournamentResponse, ServiceError> {
        use pb::watch_tournament_response::Kind as UpdateKind;
        let item = LogItem::from_bytes(&row.body).map_err(LeagueError::Unavailable)?;
        let loaded = self.tournaments.load(&row.tournament_id).await?;
        let kind = match item {
            LogItem::Created => UpdateKind::Created(tournament_to_proto(&loaded)),
            LogItem::Finished => UpdateKind::Finished(tournament_to_proto(&loaded)),
            LogItem::EntryChanged { bot_id } => {
                let entry = loaded
                    .entries
                    .iter()
                    .find(|e| e.bot_id == bot_id)
                    .ok_or_else(|| {
                        LeagueError::Unavailable(format!(
                            "the log names entry `{bot_id}` that is not stored"
                        ))
                    })?;
                UpdateKind::EntryChanged(self.entry_to_proto(entry).await)
            }
            LogItem::RoundPaired { round } => UpdateKind::RoundPaired(
                rounds_to_proto(&loaded)
                    .into_iter()
                    .find(|r| r.number == round)
                    .unwrap_or_default(),
            ),
            LogItem::GameFinished { round, match_id } => {
                let game = loaded
                    .games
                    .iter()
                    .find(|g| g.match_id == match_id)
                    .map(game_to_proto)
                    .unwrap_or_default();
                UpdateKind::GameFinished(pb::TournamentGameFinished {
                    round,
                    game: Some(game),
                })
            }
        };
        Ok(pb::WatchTournamentResponse {
            seq: row.seq,
            time: Some(from_nanos(row.time_nanos).into()),
            kind: Some(kind),
        })
    }
}

#[tonic::async_trait]
impl pb::tournament_service_server::TournamentService for TournamentApi {
    type WatchTournamentStream = EdgeStream<pb::WatchTournamentResponse>;

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CreateTournament"))]
    async fn create_tournament(
        &self,
        request: Request<pb::CreateTournamentRequest>,
    ) -> Result<Response<pb::CreateTournamentResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let spec = request.into_inner().spec.unwrap_or_default();
            let new = spec_from_proto(spec)?;
            let loaded = self.tournaments.create(&caller, new).await?;
            Ok(Response::new(pb::CreateTournamentResponse {
                tournament: Some(tournament_to_proto(&loaded)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetTournament"))]
    async fn get_tournament(
        &self,
        request: Request<pb::GetTournamentRequest>,
    ) -> Result<Response<pb::GetTournamentResponse>, Status> {
        edge(async move {
            let id = request.into_inner().tournament_id;
            let loaded = self.tournaments.load(&id).await?;
            Ok(Response::new(pb::GetTournamentResponse {
                tournament: Some(tournament_to_proto(&loaded)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListTournaments"))]
    async fn list_tournaments(
        &self,
        request: Request<pb::ListTournamentsRequest>,
    ) -> Result<Response<pb::ListTournamentsResponse>, Status> {
        edge(async move {
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let state = state_from_proto(request.status)?;
            let scope = format!("tournaments/{}", request.status);
            let offset = paging::decode(&scope, &request.page_token)?.unwrap_or(0);
            let rows = self.tournaments.list(state).await?;
            let (page, next_page_token) = paging::slice(&scope, &rows, offset, size);
            let mut tournaments = Vec::with_capacity(page.len());
            for (row, _) in page {
                let loaded = self.tournaments.load(&row.tournament_id).await?;
                tournaments.push(tournament_to_proto(&loaded));
            }
            Ok(Response::new(pb::ListTournamentsResponse {
                tournaments,
                next_page_token,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "EnterTournament"))]
    async fn enter_tournament(
        &self,
        request: Request<pb::EnterTournamentRequest>,
    ) -> Result<Response<pb::EnterTournamentResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let entry = self
                .tournaments
                .enter(&caller, &request.tournament_id, &request.bot)
                .await?;
            Ok(Response::new(pb::EnterTournamentResponse {
                entry: Some(self.entry_to_proto(&entry).await),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "SetEntryStatus"))]
    async fn set_entry_status(
        &self,
        request: Request<pb::SetEntryStatusRequest>,
    ) -> Result<Response<pb::SetEntryStatusResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let state = match pb::EntryStatus::try_from(request.status) {
                Ok(pb::EntryStatus::Active) => EntryState::Active,
                Ok(pb::EntryStatus::Paused) => EntryState::Paused,
                Ok(pb::EntryStatus::Withdrawn) => EntryState::Withdrawn,
                _ => {
                    return Err(ServiceError::InvalidArgument(
                        "`status` is ACTIVE, PAUSED or WITHDRAWN".into(),
                    )
                    .at("status"));
                }
            };
            let entry = self
                .tournaments
                .set_entry_state(&caller, &request.tournament_id, &request.bot, state)
                .await?;
            Ok(Response::new(pb::SetEntryStatusResponse {
                entry: Some(self.entry_to_proto(&entry).await),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "StartTournament"))]
    async fn start_tournament(
        &self,
        request: Request<pb::StartTournamentRequest>,
    ) -> Result<Response<pb::StartTournamentResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let id = request.into_inner().tournament_id;
            let loaded = self.tournaments.start(&caller, &id).await?;
            Ok(Response::new(pb::StartTournamentResponse {
                tournament: Some(tournament_to_proto(&loaded)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "CancelTournament"))]
    async fn cancel_tournament(
        &self,
        request: Request<pb::CancelTournamentRequest>,
    ) -> Result<Response<pb::CancelTournamentResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let id = request.into_inner().tournament_id;
            let loaded = self.tournaments.cancel(&caller, &id).await?;
            Ok(Response::new(pb::CancelTournamentResponse {
                tournament: Some(tournament_to_proto(&loaded)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListEntries"))]
    async fn list_entries(
        &self,
        request: Request<pb::ListEntriesRequest>,
    ) -> Result<Response<pb::ListEntriesResponse>, Status> {
        edge(async move {
            let id = request.into_inner().tournament_id;
            let loaded = self.tournaments.load(&id).await?;
            let ids: Vec<String> = loaded.entries.iter().map(|e| e.bot_id.clone()).collect();
            let names = self.bot_names(ids).await;
            Ok(Response::new(pb::ListEntriesResponse {
                entries: loaded
                    .entries
                    .iter()
                    .map(|e| entry_to_proto(e, &names))
                    .collect(),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetStandings"))]
    async fn get_standings(
        &self,
        request: Request<pb::GetStandingsRequest>,
    ) -> Result<Response<pb::GetStandingsResponse>, Status> {
        edge(async move {
            let id = request.into_inner().tournament_id;
            let loaded = self.tournaments.load(&id).await?;
            Ok(Response::new(pb::GetStandingsResponse {
                standings: self.standings_to_proto(&loaded).await,
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListRounds"))]
    async fn list_rounds(
        &self,
        request: Request<pb::ListRoundsRequest>,
    ) -> Result<Response<pb::ListRoundsResponse>, Status> {
        edge(async move {
            let request = request.into_inner();
            let size = match request.page_size {
                0 => 20,
                n if n < 0 => {
                    return Err(ServiceError::InvalidArgument(format!(
                        "page_size {n} is negative; use 0 for the default of 20"
                    ))
                    .at("page_size"));
                }
                n => (n as usize).min(200),
            };
            let loaded = self.tournaments.load(&request.tournament_id).await?;
            let rounds = rounds_to_proto(&loaded)
                .into_iter()
                .filter(|r| r.number >= request.from_round)
                .take(size)
                .collect();
            Ok(Response::new(pb::ListRoundsResponse { rounds }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "WatchTournament"))]
    async fn watch_tournament(
        &self,
        request: Request<pb::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        edge(async move {
            let request = request.into_inner();
            // Refuses an unknown tournament before the stream starts.
            self.tournaments.load(&request.tournament_id).await?;
            let api = self.clone_handle();
            let rows = self.tournaments.follow(
                request.tournament_id,
                request.after_seq,
                self.stopping.clone(),
            );
            let updates = rows.then(move |row| {
                let api = api.clone_handle();
                async move {
                    match row {
                        Ok(row) => api.update_to_proto(row).await.map_err(to_status),
                        Err(error) => Err(to_status(error.into())),
                    }
                }
            });
            Ok(Response::new(
                Box::pin(updates) as Self::WatchTournamentStream
            ))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ExportTournament"))]
    async fn export_tournament(
        &self,
        request: Request<pb::ExportTournamentRequest>,
    ) -> Result<Response<pb::ExportTournamentResponse>, Status> {
        edge(async move {
            let id = request.into_inner().tournament_id;
            let loaded = self.tournaments.load(&id).await?;
            let record = Tournaments::record(&loaded);
            let document = serde_json::to_string(&record)
                .map_err(|e| LeagueError::Unavailable(e.to_string()))?;
            Ok(Response::new(pb::ExportTournamentResponse { document }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "VerifyTournament"))]
    async fn verify_tournament(
        &self,
        request: Request<pb::VerifyTournamentRequest>,
    ) -> Result<Response<pb::VerifyTournamentResponse>, Status> {
        use pb::verify_tournament_request::Source;
        edge(async move {
            let record: Record = match request.into_inner().source {
                Some(Source::TournamentId(id)) => {
                    Tournaments::record(&self.tournaments.load(&id).await?)
                }
                Some(Source::Document(document)) => {
                    serde_json::from_str(&document).map_err(|e| {
                        ServiceError::InvalidArgument(format!(
                            "`document` is not a tournament export ({}): {e}",
                            record::FORMAT
                        ))
                        .at("document")
                    })?
                }
                None => {
                    return Err(ServiceError::InvalidArgument(
                        "give a tournament_id or an export's document".into(),
                    )
                    .at("source"));
                }
            };
            // Re-pairing a large event is CPU work: off the runtime's threads.
            let (rounds, discrepancies) =
                tokio::task::spawn_blocking(move || (record.rounds.len(), record::verify(&record)))
                    .await
                    .map_err(|e| LeagueError::Unavailable(e.to_string()))?;
            Ok(Response::new(pb::VerifyTournamentResponse {
                rounds_checked: rounds as u32,
                discrepancies: discrepancies
                    .into_iter()
                    .map(|d| pb::Discrepancy {
                        round: d.round,
                        expected: d.expected,
                        recorded: d.recorded,
                    })
                    .collect(),
            }))
        })
        .await
    }
}

impl TournamentApi {
    fn clone_handle(&self) -> Self {
        Self {
            credentials: Arc::clone(&self.credentials),
            accounts: Arc::clone(&self.accounts),
            tournaments: Arc::clone(&self.tournaments),
            stopping: self.stopping.clone(),
        }
    }
}

fn invalid(field: &str, message: String) -> ServiceError {
    ServiceError::InvalidArgument(message).at(field)
}

fn spec_from_proto(spec: pb::TournamentSpec) -> Result<NewTournament, ServiceError> {
    let kind = match pb::TournamentKind::try_from(spec.kind) {
        Ok(pb::TournamentKind::RoundRobin) => Kind::RoundRobin,
        Ok(pb::TournamentKind::DoubleRoundRobin) => Kind::DoubleRoundRobin,
        Ok(pb::TournamentKind::Swiss) => Kind::Swiss,
        Ok(pb::TournamentKind::Ladder) => Kind::Ladder,
        _ => {
            return Err(invalid(
                "spec.kind",
                "`spec.kind` is ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS or LADDER".into(),
            ));
        }
    };
    let terms = terms_from_proto(spec.terms.unwrap_or_default()).map_err(|e| e.at("spec"))?;
    let round_interval_ms = match spec.round_interval {
        None => DEFAULT_ROUND_INTERVAL_MS,
        Some(interval) => Duration::try_from(interval)
            .map_err(|_| invalid("spec.round_interval", "`round_interval` is negative".into()))?
            .as_millis()
            .try_into()
            .unwrap_or(u64::MAX),
    };
    let starts = spec
        .start_time
        .map(|t| {
            SystemTime::try_from(t)
                .map_err(|_| invalid("spec.start_time", "`start_time` is not a time".into()))
        })
        .transpose()?;
    let ends_nanos = spec
        .end_time
        .map(|t| {
            SystemTime::try_from(t)
                .map(nanos)
                .map_err(|_| invalid("spec.end_time", "`end_time` is not a time".into()))
        })
        .transpose()?;
    let tie_breaks = if spec.tie_breaks.is_empty() {
        default_tie_breaks()
    } else {
        spec.tie_breaks
            .iter()
            .map(|&t| tie_break_from_proto(t))
            .collect::<Result<_, _>>()?
    };
    let seed = match spec.seed {
        Some(seed) => seed,
        None => random_u64()?,
    };
    let conditions = spec.conditions.unwrap_or_default();
    let mut forbidden: Vec<(String, String)> = spec
        .forbidden_pairs
        .into_iter()
        .map(|p| {
            if p.first_bot_id <= p.second_bot_id {
                (p.first_bot_id, p.second_bot_id)
            } else {
                (p.second_bot_id, p.first_bot_id)
            }
        })
        .collect();
    forbidden.sort();
    forbidden.dedup();
    Ok(NewTournament {
        spec: Spec {
            name: spec.name,
            kind,
            terms,
            rounds: spec.rounds,
            round_interval_ms,
            seed,
            tie_breaks,
            conditions: Conditions {
                min_rating: Some(conditions.min_rating).filter(|&r| r != 0),
                max_rating: Some(conditions.max_rating).filter(|&r| r != 0),
                min_rated_games: conditions.min_rated_games,
                operator_entries_only: conditions.operator_entries_only,
                max_entries: conditions.max_entries,
            },
            forbidden,
            ladder_games_per_bot: spec.ladder_games_per_bot,
            ends_nanos,
            paired_games: spec.paired_games,
            chance_secret: 0,
        },
        starts,
    })
}

fn tie_break_from_proto(value: i32) -> Result<TieBreak, ServiceError> {
    Ok(match pb::TieBreak::try_from(value) {
        Ok(pb::TieBreak::Buchholz) => TieBreak::Buchholz,
        Ok(pb::TieBreak::BuchholzCut1) => TieBreak::BuchholzCut1,
        Ok(pb::TieBreak::SonnebornBerger) => TieBreak::SonnebornBerger,
        Ok(pb::TieBreak::DirectEncounter) => TieBreak::DirectEncounter,
        Ok(pb::TieBreak::Wins) => TieBreak::Wins,
        _ => {
            return Err(invalid(
                "spec.tie_breaks",
                format!("tie-break {value} is none of TieBreak's"),
            ));
        }
    })
}

fn tie_break_to_proto(tie_break: TieBreak) -> pb::TieBreak {
    match tie_break {
        TieBreak::Buchholz => pb::TieBreak::Buchholz,
        TieBreak::BuchholzCut1 => pb::TieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger => pb::TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter => pb::TieBreak::DirectEncounter,
        TieBreak::Wins => pb::TieBreak::Wins,
    }
}

/// A tie-break's value in points (the standings count half-points, and Sonneborn-Berger
/// half-points times half-points).
fn tie_break_value(tie_break: TieBreak, value: i64) -> f64 {
    match tie_break {
        TieBreak::Wins => value as f64,
        TieBreak::SonnebornBerger => value as f64 / 4.0,
        _ => value as f64 / 2.0,
    }
}

fn state_from_proto(value: i32) -> Result<Option<TournamentState>, ServiceError> {
    Ok(match pb::TournamentStatus::try_from(value) {
        Ok(pb::TournamentStatus::Unspecified) => None,
        Ok(pb::TournamentStatus::Open) => Some(TournamentState::Open),
        Ok(pb::TournamentStatus::Running) => Some(TournamentState::Running),
        Ok(pb::TournamentStatus::Finished) => Some(TournamentState::Finished),
        Ok(pb::TournamentStatus::Cancelled) => Some(TournamentState::Cancelled),
        Err(_) => {
            return Err(invalid(
                "status",
                format!("status {value} is none of TournamentStatus's"),
            ));
        }
    })
}

fn state_to_proto(state: TournamentState) -> pb::TournamentStatus {
    match state {
        TournamentState::Open => pb::TournamentStatus::Open,
        TournamentState::Running => pb::TournamentStatus::Running,
        TournamentState::Finished => pb::TournamentStatus::Finished,
        TournamentState::Cancelled => pb::TournamentStatus::Cancelled,
    }
}

fn entry_state_to_proto(state: EntryState) -> pb::EntryStatus {
    match state {
        EntryState::Active => pb::EntryStatus::Active,
        EntryState::Paused => pb::EntryStatus::Paused,
        EntryState::Withdrawn => pb::EntryStatus::Withdrawn,
    }
}

fn kind_to_proto(kind: Kind) -> pb::TournamentKind {
    match kind {
        Kind::RoundRobin => pb::TournamentKind::RoundRobin,
        Kind::DoubleRoundRobin => pb::TournamentKind::DoubleRoundRobin,
        Kind::Swiss => pb::TournamentKind::Swiss,
        Kind::Ladder => pb::TournamentKind::Ladder,
    }
}

fn spec_to_proto(row: &TournamentRow, spec: &Spec) -> pb::TournamentSpec {
    pb::TournamentSpec {
        name: row.name.clone(),
        kind: kind_to_proto(spec.kind) as i32,
        terms: Some(terms_to_proto(&spec.terms)),
        rounds: spec.rounds,
        start_time: (row.starts_nanos != NOT_SCHEDULED)
            .then(|| from_nanos(row.starts_nanos).into()),
        round_interval: prost_types::Duration::try_from(Duration::from_millis(
            spec.round_interval_ms,
        ))
        .ok(),
        seed: Some(spec.seed),
        tie_breaks: spec
            .tie_breaks
            .iter()
            .map(|&t| tie_break_to_proto(t) as i32)
            .collect(),
        conditions: Some(pb::EntryConditions {
            min_rating: spec.conditions.min_rating.unwrap_or(0),
            max_rating: spec.conditions.max_rating.unwrap_or(0),
            min_rated_games: spec.conditions.min_rated_games,
            operator_entries_only: spec.conditions.operator_entries_only,
            max_entries: spec.conditions.max_entries,
        }),
        forbidden_pairs: spec
            .forbidden
            .iter()
            .map(|(a, b)| pb::ForbiddenPair {
                first_bot_id: a.clone(),
                second_bot_id: b.clone(),
            })
            .collect(),
        ladder_games_per_bot: spec.ladder_games_per_bot,
        end_time: spec.ends_nanos.map(|n| from_nanos(n).into()),
        paired_games: spec.paired_games,
    }
}

fn tournament_to_proto(loaded: &Loaded) -> pb::Tournament {
    let row = &loaded.row;
    pb::Tournament {
        tournament_id: row.tournament_id.clone(),
        spec: Some(spec_to_proto(row, &loaded.spec)),
        status: state_to_proto(row.state) as i32,
        create_time: Some(from_nanos(row.created_nanos).into()),
        rounds_paired: row.rounds_paired,
        rounds_planned: loaded.rounds_planned().unwrap_or(0),
        entries: loaded.entries.len() as u32,
        finish_time: row.finished_nanos.map(|n| from_nanos(n).into()),
        end_reason: row.end_reason.clone(),
    }
}

fn entry_to_proto(entry: &EntryRow, names: &BTreeMap<String, String>) -> pb::Entry {
    pb::Entry {
        bot_id: entry.bot_id.clone(),
        bot_name: names.get(&entry.bot_id).cloned().unwrap_or_default(),
        rating: entry.rating,
        status: entry_state_to_proto(entry.state) as i32,
        first_round: entry.first_round,
        enter_time: Some(from_nanos(entry.joined_nanos).into()),
    }
}

fn outcome_to_proto(outcome: Option<Outcome>) -> pb::GameOutcome {
    match outcome {
        None => pb::GameOutcome::Pending,
        Some(Outcome::FirstWon) => pb::GameOutcome::FirstWon,
        Some(Outcome::SecondWon) => pb::GameOutcome::SecondWon,
        Some(Outcome::Draw) => pb::GameOutcome::Draw,
        Some(Outcome::NeitherCame) => pb::GameOutcome::NeitherCame,
    }
}

fn game_to_proto(game: &pitchmate_store::TournamentGameRow) -> pb::TournamentGame {
    pb::TournamentGame {
        match_id: game.match_id.clone(),
        first_bot_id: game.bots[0].clone(),
        second_bot_id: game.bots[1].clone(),
        outcome: outcome_to_proto(game_outcome(game)) as i32,
    }
}

/// Every round with its pairings, results and why. The why is read from the pairing's own
/// account (JSON): Swiss rounds keep score groups and each pair's costs; ladder waves each
/// pair's costs.
fn rounds_to_proto(loaded: &Loaded) -> Vec<pb::TournamentRound> {
    loaded
        .rounds
        .iter()
        .map(|(row, body)| {
            let why = &body.why;
            let pair_whys: Vec<&serde_json::Value> = why
                .get("pairs")
                .and_then(|p| p.as_array())
                .or_else(|| why.as_array())
                .map(|a| a.iter().collect())
                .unwrap_or_default();
            let pairings = body
                .pairs
                .iter()
                .enumerate()
                .map(|(board, (first, second))| {
                    let game = loaded
                        .games
                        .iter()
                        .find(|g| {
                            g.round == row.round && g.bots[0] == *first && g.bots[1] == *second
                        })
                        .map(game_to_proto)
                        .unwrap_or_else(|| pb::TournamentGame {
                            first_bot_id: first.clone(),
                            second_bot_id: second.clone(),
                            outcome: pb::GameOutcome::Pending as i32,
                            ..Default::default()
                        });
                    let return_game = loaded
                        .spec
                        .paired_games
                        .then(|| {
                            loaded.games.iter().find(|g| {
                                g.round == row.round && g.bots[0] == *second && g.bots[1] == *first
                            })
                        })
                        .flatten()
                        .map(game_to_proto);
                    // A Swiss pair's why names its bots; a ladder's comes in board order.
                    let why = if why.is_array() {
                        pair_whys.get(board).copied()
                    } else {
                        pair_whys.iter().copied().find(|w| {
                            w.get("first").and_then(|v| v.as_str()) == Some(first)
                                && w.get("second").and_then(|v| v.as_str()) == Some(second)
                        })
                    };
                    let (cost, cost_parts, seat_reason) =
                        why.map_or((0, Vec::new(), String::new()), pair_why);
                    pb::Pairing {
                        board: board as u32 + 1,
                        game: Some(game),
                        cost,
                        cost_parts,
                        seat_reason,
                        return_game,
                    }
                })
                .collect();
            let score_groups = why
                .get("groups")
                .and_then(|g| g.as_array())
                .map(|groups| {
                    groups
                        .iter()
                        .map(|g| pb::ScoreGroup {
                            points: g.get("points").and_then(|p| p.as_f64()).unwrap_or(0.0) / 2.0,
                            bot_ids: g
                                .get("members")
                                .and_then(|m| m.as_array())
                                .map(|m| {
                                    m.iter()
                                        .filter_map(|v| v.as_str().map(str::to_owned))
                                        .collect()
                                })
                                .unwrap_or_default(),
                        })
                        .collect()
                })
                .unwrap_or_default();
            pb::TournamentRound {
                number: row.round,
                pair_time: Some(from_nanos(row.paired_nanos).into()),
                deadline: Some(from_nanos(row.deadline_nanos).into()),
                pairings,
                bye_bot_id: body.bye.clone().unwrap_or_default(),
                bye_reason: why
                    .get("bye")
                    .and_then(|b| b.as_str())
                    .unwrap_or_default()
                    .to_owned(),
                field: body.field.clone(),
                score_groups,
                total_cost: why.get("total_cost").and_then(|c| c.as_u64()).unwrap_or(0),
            }
        })
        .collect()
}

/// A pair's cost, the named numbers it is made of, and why its seats are so.
fn pair_why(why: &serde_json::Value) -> (u64, Vec<pb::CostPart>, String) {
    let mut cost = 0;
    let mut parts = Vec::new();
    let mut seat = String::new();
    if let Some(fields) = why.as_object() {
        for (name, value) in fields {
            match (name.as_str(), value) {
                ("first" | "second", _) => {}
                ("cost", v) => cost = v.as_u64().unwrap_or(0),
                ("seat", v) => seat = v.as_str().unwrap_or_default().to_owned(),
                (name, v) => {
                    if let Some(n) = v.as_u64() {
                        parts.push(pb::CostPart {
                            name: name.to_owned(),
                            value: n,
                        });
                    }
                    // A pair of numbers (a ladder's ranks, games): one part per bot.
                    if let Some([a, b]) = v.as_array().map(Vec::as_slice) {
                        for (bot, value) in [("first", a), ("second", b)] {
                            if let Some(n) = value.as_u64() {
                                parts.push(pb::CostPart {
                                    name: format!("{name}_{bot}"),
                                    value: n,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    (cost, parts, seat)
}

fn standing_to_proto(
    standing: &Standing,
    loaded: &Loaded,
    names: &BTreeMap<String, String>,
) -> pb::Standing {
    let status = loaded
        .entries
        .iter()
        .find(|e| e.bot_id == standing.id)
        .map_or(pb::EntryStatus::Unspecified, |e| {
            entry_state_to_proto(e.state)
        });
    pb::Standing {
        rank: standing.rank,
        bot_id: standing.id.clone(),
        bot_name: names.get(&standing.id).cloned().unwrap_or_default(),
        points: f64::from(standing.points) / 2.0,
        played: standing.played,
        wins: standing.wins,
        draws: standing.draws,
        losses: standing.losses,
        byes: standing.byes,
        tie_breaks: loaded
            .spec
            .tie_breaks
            .iter()
            .zip(&standing.tiebreaks)
            .map(|(&t, &v)| pb::TieBreakValue {
                tie_break: tie_break_to_proto(t) as i32,
                value: tie_break_value(t, v),
            })
            .collect(),
        status: status as i32,
    }
}
