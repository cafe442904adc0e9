//! Tournaments: round robins, Swiss events and ladders that the server carries from the first
//! round to the last. An operator creates one; bots enter; on every beat of the scheduler the
//! runner ([`Tournaments::advance_all`]) asks each tournament what it does next
//! ([`plan::Loaded::next`]) and writes the answer in one transaction: a round with its games,
//! their assigned matches (the scheduler creates them and tells the bots), inbox items and log
//! items; or the end, with every entrant told where it finished. Results are recorded by the
//! leagues' follower in the transaction that tells the bots (see `follower`).
//!
//! A round is written only if the tournament still has the rounds it had when it was planned,
//! so two runners (a restart racing a late write, or two replicas) never pair a round twice; a
//! crash before the write loses nothing, since the next beat plans the same round again.

pub mod log;
pub mod plan;
pub mod spec;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::sync::{Notify, watch};
use tokio_stream::Stream;

use pitchmate_hosting::MatchRegistry;
use pitchmate_store::{
    AssignedMatchRow, AssignedState, Entered, EntryRow, EntryState, NewInboxItem, PairedRound,
    Store, TournamentGameRow, TournamentLogRow, TournamentRoundRow, TournamentRow, TournamentState,
};
use pitchmate_tournaments::WIN;
use pitchmate_tournaments::record::{self, Record, RecordEntrant, RecordGame, RecordRound};
use pitchmate_tournaments::standings::{self, Standing};

use crate::accounts::{Accounts, Caller};
use crate::challenges::{check_terms, new_match_id};
use crate::error::LeagueError;
use crate::inbox::{InboxBus, InboxItem, RoundPairing, TournamentResult};
use crate::nanos;
use crate::rated;
use crate::rating::RatingConfig;
use crate::scope::Scope;
use crate::terms::SeatChoice;

use log::LogItem;
use plan::{Loaded, Next, RoundBody, outcome_from_code};
use spec::{NOT_SCHEDULED, Spec};

/// Tells watchers and the runner that some tournament changed (a number that only grows).
#[derive(Clone, Debug)]
pub struct Signal(Arc<watch::Sender<u64>>);

impl Default for Signal {
    fn default() -> Self {
        Self(Arc::new(watch::channel(0).0))
    }
}

impl Signal {
    pub fn bump(&self) {
        self.0.send_modify(|n| *n += 1);
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.0.subscribe()
    }
}

pub struct Tournaments {
    store: Store,
    accounts: Arc<Accounts>,
    registry: Arc<MatchRegistry>,
    bus: InboxBus,
    ratings: RatingConfig,
    signal: Signal,
    /// Wakes the scheduler to create the matches of a round just paired.
    assigned: Arc<Notify>,
}

/// What `create` is given.
pub struct NewTournament {
    pub spec: Spec,
    /// `None`: when an operator starts it.
    pub starts: Option<SystemTime>,
}

impl Tournaments {
    pub fn new(
        store: Store,
        accounts: Arc<Accounts>,
        registry: Arc<MatchRegistry>,
        bus: InboxBus,
        ratings: RatingConfig,
        signal: Signal,
        assigned: Arc<Notify>,
    ) -> Self {
        Self {
            store,
            accounts,
            registry,
            bus,
            ratings,
            signal,
            assigned,
        }
    }

    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    pub async fn create(&self, caller: &Caller, new: NewTournament) -> Result<Loaded, LeagueError> {
        caller.require_operator("creating a tournament needs an OPERATOR key")?;
        let mut spec = new.spec;
        spec.check()?;
        if spec.paired_games {
            spec.chance_secret = random_u64()?;
        }
        check_terms(&self.registry, &spec.terms)?;
        spec.terms.seat = SeatChoice::Any;
        spec.terms.rematch_of = None;
        let now = SystemTime::now();
        let row = TournamentRow {
            tournament_id: new_match_id()?,
            name: spec.name.trim().to_owned(),
            organiser: caller.key.key_id.clone(),
            spec: spec.to_bytes(),
            state: TournamentState::Open,
            created_nanos: nanos(now),
            starts_nanos: new.starts.map_or(NOT_SCHEDULED, nanos),
            rounds_paired: 0,
            finished_nanos: None,
            end_reason: String::new(),
        };
        let id = row.tournament_id.clone();
        self.store
            .create_tournament(row, vec![LogItem::Created.to_new(&id, now)])
            .await?;
        self.changed();
        self.load(&id).await
    }

    /// A tournament as the store holds it now.
    pub async fn load(&self, tournament_id: &str) -> Result<Loaded, LeagueError> {
        let row = self
            .store
            .tournament(tournament_id)
            .await?
            .ok_or_else(|| LeagueError::TournamentNotFound(tournament_id.to_owned()))?;
        let spec = Spec::from_bytes(&row.spec)?;
        let entries = self.store.entries(tournament_id).await?;
        let mut rounds = Vec::new();
        for round in self.store.tournament_rounds(tournament_id).await? {
            let body = RoundBody::from_bytes(&round.body).map_err(LeagueError::Unavailable)?;
            rounds.push((round, body));
        }
        let games = self.store.tournament_games(tournament_id).await?;
        Ok(Loaded {
            row,
            spec,
            entries,
            rounds,
            games,
        })
    }

    /// Tournaments, newest first; only those in `state` when given.
    pub async fn list(
        &self,
        state: Option<TournamentState>,
    ) -> Result<Vec<(TournamentRow, Spec)>, LeagueError> {
        let mut rows = self.store.tournaments(state).await?;
        rows.reverse();
        rows.into_iter()
            .map(|row| Spec::from_bytes(&row.spec).map(|spec| (row, spec)))
            .collect()
    }

    /// The bot a call is about: the caller's own (`named` empty, a key with CHALLENGE), or the
    /// one named, which an operator may name freely and a bot only as itself.
    async fn bot_for(&self, caller: &Caller, named: &str) -> Result<String, LeagueError> {
        if named.is_empty() {
            return Ok(caller
                .bot_with(Scope::Challenge, "or an OPERATOR key naming the bot")?
                .to_owned());
        }
        let bot = self.accounts.bot_by_id_or_name(named).await?;
        if !caller.is_operator() {
            let own = caller.bot_with(Scope::Challenge, "or an OPERATOR key naming the bot")?;
            if own != bot.bot_id {
                return Err(LeagueError::NotYourBot(bot.bot_id));
            }
        }
        Ok(bot.bot_id)
    }

    pub async fn enter(
        &self,
        caller: &Caller,
        tournament_id: &str,
        named: &str,
    ) -> Result<EntryRow, LeagueError> {
        let loaded = self.load(tournament_id).await?;
        let bot_id = self.bot_for(caller, named).await?;
        let spec = &loaded.spec;
        let condition = |why: String| LeagueError::EntryCondition {
            tournament_id: tournament_id.to_owned(),
            bot_id: bot_id.clone(),
            why,
        };
        if spec.conditions.operator_entries_only && !caller.is_operator() {
            return Err(condition("only an operator enters bots".into()));
        }
        if let Some(existing) = loaded.entries.iter().find(|e| e.bot_id == bot_id) {
            return Ok(existing.clone());
        }
        entries_open(&loaded)?;
        let rating_pool = format!(
            "{}/{}/rated",
            spec.terms.variant_id,
            spec.terms.speed().name()
        );
        let standing = rated::standings_of(&self.store, &self.ratings, &bot_id)
            .await?
            .into_iter()
            .find(|s| s.pool == rating_pool);
        let (rating, games) = standing.map_or((self.ratings.initial_rating, 0), |s| {
            (s.rating.rating, s.rating.games)
        });
        let rating = rating.round() as i32;
        let conditions = &spec.conditions;
        if conditions.min_rating.is_some_and(|min| rating < min)
            || conditions.max_rating.is_some_and(|max| rating > max)
        {
            return Err(condition(format!(
                "its rating in {rating_pool} is {rating}, outside {:?}..={:?}",
                conditions.min_rating, conditions.max_rating
            )));
        }
        if games < conditions.min_rated_games {
            return Err(condition(format!(
                "it has played {games} rated games in {rating_pool}, fewer than {}",
                conditions.min_rated_games
            )));
        }
        let now = SystemTime::now();
        let entry = EntryRow {
            tournament_id: tournament_id.to_owned(),
            bot_id: bot_id.clone(),
            rating,
            joined_nanos: nanos(now),
            first_round: loaded.row.rounds_paired + 1,
            state: EntryState::Active,
        };
        let log = vec![LogItem::EntryChanged { bot_id }.to_new(tournament_id, now)];
        let entered = self
            .store
            .enter_tournament(entry.clone(), Vec::new(), log)
            .await?;
        match entered {
            Entered::Done(rows) => {
                self.bus.publish(rows);
                self.changed();
                Ok(entry)
            }
            Entered::Already(entry) => Ok(entry),
            Entered::NotOpen(state) => Err(LeagueError::EntriesClosed {
                tournament_id: tournament_id.to_owned(),
                why: format!("it is {}", state.map_or("gone", state_name)),
            }),
        }
    }

    pub async fn set_entry_state(
        &self,
        caller: &Caller,
        tournament_id: &str,
        named: &str,
        state: EntryState,
    ) -> Result<EntryRow, LeagueError> {
        let loaded = self.load(tournament_id).await?;
        let bot_id = self.bot_for(caller, named).await?;
        let not_entered = || LeagueError::NotEntered {
            tournament_id: tournament_id.to_owned(),
            bot_id: bot_id.clone(),
        };
        let entry = loaded
            .entries
            .iter()
            .find(|e| e.bot_id == bot_id)
            .ok_or_else(not_entered)?;
        if entry.state == EntryState::Withdrawn && state != EntryState::Withdrawn {
            return Err(LeagueError::EntryWithdrawn {
                tournament_id: tournament_id.to_owned(),
                bot_id,
            });
        }
        let log = vec![
            LogItem::EntryChanged {
                bot_id: bot_id.clone(),
            }
            .to_new(tournament_id, SystemTime::now()),
        ];
        self.store
            .set_entry_state(tournament_id, &bot_id, state, log)
            .await?
            .ok_or_else(not_entered)?;
        self.changed();
        Ok(EntryRow {
            state,
            ..entry.clone()
        })
    }

    /// Starts an open tournament now: its first round is paired at once (or it is cancelled,
    /// without two entries).
    pub async fn start(&self, caller: &Caller, tournament_id: &str) -> Result<Loaded, LeagueError> {
        caller.require_operator("starting a tournament needs an OPERATOR key")?;
        let mut loaded = self.load(tournament_id).await?;
        if loaded.row.state == TournamentState::Open {
            loaded.row.starts_nanos = i64::MIN;
            let next = loaded.next(nanos(SystemTime::now()));
            self.apply(&loaded, next).await?;
        }
        self.load(tournament_id).await
    }

    /// Ends a tournament now: no more rounds; games under way are played out and recorded.
    pub async fn cancel(
        &self,
        caller: &Caller,
        tournament_id: &str,
    ) -> Result<Loaded, LeagueError> {
        caller.require_operator("cancelling a tournament needs an OPERATOR key")?;
        let loaded = self.load(tournament_id).await?;
        if matches!(
            loaded.row.state,
            TournamentState::Finished | TournamentState::Cancelled
        ) {
            return Err(LeagueError::TournamentOver {
                tournament_id: tournament_id.to_owned(),
                state: state_name(loaded.row.state),
            });
        }
        self.finish(&loaded, "cancelled by an operator".into(), true)
            .await?;
        self.load(tournament_id).await
    }

    /// Standings as of now, from the results known. A Swiss bye scores a win (two with paired
    /// games); a round robin's sitting out scores nothing (every bot of an odd field sits out
    /// once).
    pub fn standings(loaded: &Loaded) -> Vec<Standing> {
        let history = loaded.history(&BTreeSet::new());
        let games_per_pairing = if loaded.spec.paired_games { 2 } else { 1 };
        let bye_points = if loaded.spec.kind == spec::Kind::Swiss {
            WIN * games_per_pairing
        } else {
            0
        };
        standings::standings(
            &loaded.entrants(),
            &history,
            &loaded.spec.tie_breaks,
            bye_points,
        )
    }

    /// The record an export holds.
    pub fn record(loaded: &Loaded) -> Record {
        let mut by_round: BTreeMap<u32, Vec<&TournamentGameRow>> = BTreeMap::new();
        for game in &loaded.games {
            by_round.entry(game.round).or_default().push(game);
        }
        let history = loaded.history(&BTreeSet::new());
        Record {
            format: record::FORMAT.to_owned(),
            tournament_id: loaded.row.tournament_id.clone(),
            name: loaded.row.name.clone(),
            kind: loaded.spec.kind,
            seed: loaded.spec.seed,
            rounds_planned: loaded.rounds_planned(),
            tie_breaks: loaded.spec.tie_breaks.clone(),
            forbidden: loaded.spec.forbidden.clone(),
            paired_games: loaded.spec.paired_games,
            entrants: loaded
                .entries
                .iter()
                .map(|e| RecordEntrant {
                    id: e.bot_id.clone(),
                    rating: e.rating,
                    first_round: e.first_round,
                    status: entry_state_name(e.state).to_owned(),
                })
                .collect(),
            rounds: loaded
                .rounds
                .iter()
                .zip(&history)
                .map(|((row, body), played)| RecordRound {
                    number: row.round,
                    field: body.field.clone(),
                    pending: body.pending.clone(),
                    games: played
                        .games
                        .iter()
                        .map(|g| RecordGame {
                            match_id: by_round
                                .get(&row.round)
                                .and_then(|games| {
                                    games
                                        .iter()
                                        .find(|r| r.bots[0] == g.first && r.bots[1] == g.second)
                                })
                                .map(|r| r.match_id.clone())
                                .unwrap_or_default(),
                            first: g.first.clone(),
                            second: g.second.clone(),
                            outcome: g.outcome,
                        })
                        .collect(),
                    bye: body.bye.clone(),
                    ladder: body.ladder.clone(),
                })
                .collect(),
            standings: Self::standings(loaded),
        }
    }

    /// Runs every tournament that is open or running one step on: called by the scheduler on
    /// every beat. A tournament that fails is left for the next beat; the others go on.
    pub async fn advance_all(&self) -> Result<(), LeagueError> {
        let mut live = self.store.tournaments(Some(TournamentState::Open)).await?;
        live.extend(
            self.store
                .tournaments(Some(TournamentState::Running))
                .await?,
        );
        let now = nanos(SystemTime::now());
        for row in live {
            if row.state == TournamentState::Open && row.starts_nanos > now {
                continue;
            }
            if let Err(error) = self.advance(&row.tournament_id, now).await {
                tracing::warn!(
                    tournament_id = row.tournament_id,
                    %error,
                    "cannot run the tournament now; trying again"
                );
            }
        }
        Ok(())
    }

    async fn advance(&self, tournament_id: &str, now: i64) -> Result<(), LeagueError> {
        let loaded = self.load(tournament_id).await?;
        let next = loaded.next(now);
        self.apply(&loaded, next).await
    }

    async fn apply(&self, loaded: &Loaded, next: Next) -> Result<(), LeagueError> {
        match next {
            Next::Wait => Ok(()),
            Next::Pair { number, body } => self.pair(loaded, number, body).await,
            Next::Finish { reason, cancelled } => self.finish(loaded, reason, cancelled).await,
        }
    }

    /// Writes round `number` as `body` pairs it, in one transaction with everything it causes.
    async fn pair(&self, loaded: &Loaded, number: u32, body: RoundBody) -> Result<(), LeagueError> {
        let id = &loaded.row.tournament_id;
        let now = SystemTime::now();
        let terms = loaded.spec.terms.to_bytes();
        let pool = loaded.spec.terms.pool();
        let mut games = Vec::new();
        let mut assigned = Vec::new();
        let mut inbox = Vec::new();
        // With paired games, each pairing plays its return game too, seats swapped.
        let legs: &[bool] = if loaded.spec.paired_games {
            &[false, true]
        } else {
            &[false]
        };
        for (first, second) in &body.pairs {
            let mut match_ids = Vec::new();
            for &swapped in legs {
                let match_id = new_match_id()?;
                let bots = if swapped {
                    [second.clone(), first.clone()]
                } else {
                    [first.clone(), second.clone()]
                };
                games.push(TournamentGameRow {
                    match_id: match_id.clone(),
                    tournament_id: id.clone(),
                    round: number,
                    bots: bots.clone(),
                    outcome: None,
                    ended_nanos: None,
                });
                assigned.push(AssignedMatchRow {
                    match_id: match_id.clone(),
                    bots,
                    pool: pool.clone(),
                    terms: terms.clone(),
                    assigned_nanos: nanos(now),
                    state: AssignedState::Pending,
                });
                match_ids.push(match_id);
            }
            for (bot, opponent) in [(first, second), (second, first)] {
                inbox.push(told(id, number, bot, match_ids.clone(), opponent, now));
            }
        }
        if let Some(bye) = &body.bye {
            inbox.push(told(id, number, bye, Vec::new(), "", now));
        }
        let deadline = now + Duration::from_millis(loaded.spec.round_interval_ms);
        let paired = PairedRound {
            tournament_id: id.clone(),
            after: loaded.row.rounds_paired,
            round: TournamentRoundRow {
                tournament_id: id.clone(),
                round: number,
                body: body.to_bytes(),
                paired_nanos: nanos(now),
                deadline_nanos: nanos(deadline),
            },
            games,
            assigned,
            inbox,
            log: vec![LogItem::RoundPaired { round: number }.to_new(id, now)],
        };
        if let Some(rows) = self.store.pair_round(paired).await? {
            tracing::info!(
                tournament_id = id,
                round = number,
                "tournament round paired"
            );
            self.bus.publish(rows);
            self.assigned.notify_one();
            self.changed();
        }
        Ok(())
    }

    /// Ends the tournament, telling every entrant where it finished.
    async fn finish(
        &self,
        loaded: &Loaded,
        reason: String,
        cancelled: bool,
    ) -> Result<(), LeagueError> {
        let id = &loaded.row.tournament_id;
        let now = SystemTime::now();
        let inbox: Vec<NewInboxItem> = Self::standings(loaded)
            .into_iter()
            .map(|standing| {
                InboxItem::TournamentFinished(TournamentResult {
                    tournament_id: id.clone(),
                    cancelled,
                    end_reason: reason.clone(),
                    rank: standing.rank,
                    half_points: standing.points,
                })
                .to_new(&standing.id, now)
            })
            .collect();
        let state = if cancelled {
            TournamentState::Cancelled
        } else {
            TournamentState::Finished
        };
        let log = vec![LogItem::Finished.to_new(id, now)];
        if let Some(rows) = self
            .store
            .finish_tournament(id, state, nanos(now), &reason, inbox, log)
            .await?
        {
            tracing::info!(tournament_id = id, reason, "tournament over");
            self.bus.publish(rows);
            self.changed();
        }
        Ok(())
    }

    fn changed(&self) {
        self.signal.bump();
    }

    /// A tournament's log after `after_seq`: the stored items, then each new one as it is
    /// written, until the server stops or the reader leaves. Another replica's writes wake it
    /// as this server's do, through the store's remote changes (see `remote`); it also looks
    /// every [`POLL`] in case a wake-up was lost.
    pub fn follow(
        &self,
        tournament_id: String,
        after_seq: u64,
        stopping: watch::Receiver<bool>,
    ) -> impl Stream<Item = Result<TournamentLogRow, LeagueError>> + Send + 'static {
        struct Reader {
            store: Store,
            tournament_id: String,
            seq: u64,
            buffered: VecDeque<TournamentLogRow>,
            changed: watch::Receiver<u64>,
            stopping: watch::Receiver<bool>,
            failed: bool,
        }
        let reader = Reader {
            store: self.store.clone(),
            tournament_id,
            seq: after_seq,
            buffered: VecDeque::new(),
            changed: self.signal.subscribe(),
            stopping,
            failed: false,
        };
        futures_util::stream::unfold(reader, |mut reader| async move {
            loop {
                if reader.failed {
                    return None;
                }
                if let Some(row) = reader.buffered.pop_front() {
                    reader.seq = row.seq;
                    return Some((Ok(row), reader));
                }
                reader.changed.borrow_and_update();
                match reader
                    .store
                    .tournament_log_after(&reader.tournament_id, reader.seq, LOG_PAGE)
                    .await
                {
                    Ok(rows) if !rows.is_empty() => reader.buffered.extend(rows),
                    Ok(_) => {
                        tokio::select! {
                            changed = reader.changed.changed() => {
                                if changed.is_err() {
                                    return None;
                                }
                            }
                            () = tokio::time::sleep(POLL) => {}
                            _ = reader.stopping.wait_for(|stop| *stop) => return None,
                        }
                    }
                    Err(error) => {
                        reader.failed = true;
                        return Some((Err(error.into()), reader));
                    }
                }
            }
        })
    }
}

/// Log items read from the store at a time.
const LOG_PAGE: usize = 256;
/// How often a follower of a tournament's log looks in the store without being woken: only a
/// backstop, since every change on this server or another wakes it.
const POLL: Duration = Duration::from_secs(30);

/// A number from the system's randomness: a tournament's seed when none is given, its secret.
pub fn random_u64() -> Result<u64, LeagueError> {
    let mut bytes = [0; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| LeagueError::Unavailable(format!("no randomness for a secret: {e}")))?;
    Ok(u64::from_be_bytes(bytes))
}

/// An inbox item telling `bot` its part in a round.
fn told(
    tournament_id: &str,
    round: u32,
    bot: &str,
    match_ids: Vec<String>,
    opponent: &str,
    at: SystemTime,
) -> NewInboxItem {
    InboxItem::RoundPaired(RoundPairing {
        tournament_id: tournament_id.to_owned(),
        round,
        bye: match_ids.is_empty(),
        match_ids,
        opponent_id: opponent.to_owned(),
    })
    .to_new(bot, at)
}

/// Whether a tournament still takes entries: before it starts; a Swiss event until half its
/// rounds are paired; a ladder while it runs; a round robin not once its table is drawn.
fn entries_open(loaded: &Loaded) -> Result<(), LeagueError> {
    let closed = |why: &str| {
        Err(LeagueError::EntriesClosed {
            tournament_id: loaded.row.tournament_id.clone(),
            why: why.to_owned(),
        })
    };
    let spec = &loaded.spec;
    let max = spec.conditions.max_entries as usize;
    if max > 0 && loaded.entries.len() >= max {
        return closed("it is full");
    }
    match loaded.row.state {
        TournamentState::Open => Ok(()),
        TournamentState::Finished | TournamentState::Cancelled => closed("it is over"),
        TournamentState::Running => match spec.kind {
            spec::Kind::Ladder => Ok(()),
            spec::Kind::Swiss if 2 * loaded.row.rounds_paired < spec.rounds => Ok(()),
            spec::Kind::Swiss => closed("half its rounds are paired"),
            _ => closed("a round robin's table is drawn when it starts"),
        },
    }
}

pub fn state_name(state: TournamentState) -> &'static str {
    match state {
        TournamentState::Open => "open",
        TournamentState::Running => "running",
        TournamentState::Finished => "finished",
        TournamentState::Cancelled => "cancelled",
    }
}

pub fn entry_state_name(state: EntryState) -> &'static str {
    match state {
        EntryState::Active => "active",
        EntryState::Paused => "paused",
        EntryState::Withdrawn => "withdrawn",
    }
}

/// The outcome of a stored game, if known.
pub fn game_outcome(game: &TournamentGameRow) -> Option<pitchmate_tournaments::Outcome> {
    game.outcome.and_then(outcome_from_code)
}
