//! Creates the matches leagues assigned: each `Pending` assignment becomes a match in the match
//! core, under the id the assignment chose, with its seats reserved for its bots until their
//! show-up deadline; then, in one transaction, the assignment turns `Created` and both bots are
//! told in their inboxes. A crash between the two finds the match on the next pass (the core
//! refuses a second match of that id) and tells the bots then, so every assignment is created
//! once and told once. On the same beat, the queue is paired and open challenges past their
//! expiry are closed, and tournaments are run a step on (a round paired when its time
//! comes; see `tournaments`).
//!
//! When several servers share the database (cluster mode) one of them schedules at a time: the
//! holder of the lease `league/scheduler`, which it acquires or renews at every beat; the
//! others try at each beat to take it, and do once it is released or has lapsed. A server that
//! stops releases it after its last pass, so another takes over at once.
//!
//! The lease keeps the work on one server; it is not what keeps the work right. A scheduler
//! deposed while it was paused may still finish a pass beside the new holder's, and each of
//! its writes holds by itself: a cycle's pairs are written only while both tickets wait (their
//! rows locked), so no ticket is paired twice; a round is written only while its tournament
//! has paired exactly the rounds before it, so no round is paired twice; a match is created
//! under the id its assignment chose, once (the match's own lease and a stored match of that
//! id refuse a second), and the assignment turns `Created` only from `Pending`, so its bots
//! are told once; a challenge expires only while it is open. So its writes carry no token.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use tokio::sync::{Notify, watch};

use pitchmate_hosting::clock::Hosting;
use pitchmate_hosting::durable::setup_from_bytes;
use pitchmate_hosting::error::ErrorCode;
use pitchmate_hosting::setup::Reservation;
use pitchmate_hosting::{MatchRegistry, NewMatch};
use pitchmate_store::{
    AssignedMatchRow, AssignedState, Lease, SCHEDULER_LEASE, Store, StoreError, TournamentGameRow,
};

use crate::accounts::Accounts;
use crate::challenges::Challenges;
use crate::inbox::{Assignment, InboxBus, InboxItem};
use crate::nanos;
use crate::queue::Queue;
use crate::terms::Terms;
use crate::tournaments::Tournaments;
use crate::tournaments::spec::{Spec, paired_seed};

/// How often the scheduler looks again without being woken.
const BEAT: Duration = Duration::from_secs(1);

pub struct Scheduler {
    pub store: Store,
    pub accounts: Arc<Accounts>,
    pub registry: Arc<MatchRegistry>,
    pub challenges: Arc<Challenges>,
    pub queue: Arc<Queue>,
    pub bus: InboxBus,
    pub tournaments: Arc<Tournaments>,
    /// How long a bot has to take its seat once told.
    pub show_up: Duration,
    pub assigned: Arc<Notify>,
    /// In cluster mode, the lease this server schedules under; `None`: it always schedules,
    /// and no lease is written.
    pub lease: Option<SchedulerLease>,
    /// Whether this server schedules now (for a gauge).
    pub scheduling: Arc<AtomicBool>,
}

/// How a server holds the scheduler's lease (cluster mode).
#[derive(Clone, Debug)]
pub struct SchedulerLease {
    /// The holder this server's leases name.
    pub holder: String,
    /// How long the lease lasts unless renewed.
    pub ttl: Duration,
}

impl Scheduler {
    /// Runs until the server stops; in cluster mode, gives the lease up then.
    pub async fn run(self, mut stopping: watch::Receiver<bool>) {
        let mut tournaments_changed = self.tournaments.signal().subscribe();
        // Renewed often enough that it never lapses between two beats.
        let beat = self
            .lease
            .as_ref()
            .map_or(BEAT, |lease| BEAT.min(lease.ttl / 3));
        let mut held = None;
        if self.lease.is_none() {
            self.scheduling.store(true, Ordering::Relaxed);
        }
        loop {
            if self.may_schedule(&mut held).await {
                self.pass().await;
            }
            tokio::select! {
                () = self.assigned.notified() => {}
                _ = tournaments_changed.changed() => {}
                () = tokio::time::sleep(beat) => {}
                _ = stopping.wait_for(|stop| *stop) => break,
            }
        }
        if let Some(lease) = held {
            self.scheduling.store(false, Ordering::Relaxed);
            match self.store.release_lease(&lease).await {
                Ok(()) => tracing::info!("stopped scheduling the leagues: the server is stopping"),
                Err(error) => {
                    tracing::warn!(%error, "the scheduler's lease not released; it lapses")
                }
            }
        }
    }

    /// One pass: pairs the queue, runs tournaments on, creates the assigned matches and
    /// expires challenges.
    pub async fn pass(&self) {
        if let Err(error) = self.queue.cycle().await {
            tracing::warn!(%error, "cannot pair the queue now; trying again");
        }
        if let Err(error) = self.tournaments.advance_all().await {
            tracing::warn!(%error, "cannot run tournaments now; trying again");
        }
        if let Err(error) = self.create_pending().await {
            tracing::warn!(%error, "cannot create assigned matches now; trying again");
        }
        if let Err(error) = self.challenges.expire_due().await {
            tracing::warn!(%error, "cannot expire challenges now; trying again");
        }
    }

    /// Whether this server schedules on this beat: always outside cluster mode; in it, while
    /// it holds the scheduler's lease, acquired or renewed now (`held` is the lease as last
    /// granted).
    pub async fn may_schedule(&self, held: &mut Option<Lease>) -> bool {
        let Some(config) = &self.lease else {
            return true;
        };
        let granted = match held.as_ref() {
            Some(lease) => self.store.renew_lease(lease, config.ttl).await,
            None => {
                self.store
                    .acquire_lease(SCHEDULER_LEASE, &config.holder, config.ttl)
                    .await
            }
        };
        match granted {
            Ok(lease) => {
                if held.is_none() {
                    tracing::info!(token = lease.token, "this server schedules the leagues now");
                }
                *held = Some(lease);
                self.scheduling.store(true, Ordering::Relaxed);
                true
            }
            // Released by someone else, or taken after it lapsed: another server schedules.
            Err(StoreError::LeaseLost(_)) => {
                tracing::info!("stopped scheduling the leagues: another server took the lease");
                *held = None;
                self.scheduling.store(false, Ordering::Relaxed);
                false
            }
            Err(StoreError::LeaseHeld(_)) => false,
            // Renewed at the next beat if it can be; until then nothing is scheduled here.
            Err(error) => {
                tracing::warn!(%error, "cannot hold the scheduler's lease now; trying again");
                self.scheduling.store(false, Ordering::Relaxed);
                false
            }
        }
    }

    /// The seed of a tournament game played as one of a pair: shared by both games of the
    /// pairing, secret until they are played. `None` (the match core draws one) otherwise.
    async fn paired_seed(&self, game: &TournamentGameRow) -> Result<Option<u64>, String> {
        let Some(row) = self
            .store
            .tournament(&game.tournament_id)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(None);
        };
        let spec = Spec::from_bytes(&row.spec).map_err(|e| e.to_string())?;
        Ok(spec
            .paired_games
            .then(|| paired_seed(spec.chance_secret, game.round, &game.bots)))
    }

    async fn create_pending(&self) -> Result<(), String> {
        let pending = self
            .store
            .assigned_matches(AssignedState::Pending)
            .await
            .map_err(|e| e.to_string())?;
        for assigned in pending {
            self.create(assigned).await?;
        }
        Ok(())
    }

    async fn create(&self, assigned: AssignedMatchRow) -> Result<(), String> {
        let terms = Terms::from_bytes(&assigned.terms)?;
        let tournament = self
            .store
            .tournament_game(&assigned.match_id)
            .await
            .map_err(|e| e.to_string())?;
        let seed = match &tournament {
            Some(game) => self.paired_seed(game).await?,
            None => None,
        };
        let show_up_by = SystemTime::now() + self.show_up;
        let request = NewMatch {
            variant_id: terms.variant_id.clone(),
            options: terms.game_options(),
            hosting: Hosting {
                time_control: terms.clock.into(),
                ..Hosting::default()
            },
            match_id: Some(assigned.match_id.clone()),
            seed,
            reservation: Some(Reservation {
                accounts: assigned.bots.to_vec(),
                show_up_by,
            }),
            ..NewMatch::default()
        };
        let show_up_by = match self.registry.create(request).await {
            Ok(_) => show_up_by,
            // Another server hosts it: created by a scheduler deposed since, which did not tell
            // the bots. Its deadline is the stored one; one still being created waits a beat.
            Err(error) if error.reason() == "NOT_OWNER" => {
                let stored = self
                    .store
                    .load(&assigned.match_id)
                    .await
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("{} is being created elsewhere", assigned.match_id))?;
                setup_from_bytes(&stored.row.setup)
                    .map_err(|e| e.to_string())?
                    .reservation
                    .map_or(show_up_by, |r| r.show_up_by)
            }
            // Created before a crash: its deadline is the one it was created with.
            Err(error) if error.reason() == "MATCH_EXISTS" => {
                let handle = self
                    .registry
                    .get(&assigned.match_id)
                    .await
                    .map_err(|e| e.to_string())?;
                handle
                    .summary()
                    .setup
                    .reservation
                    .as_ref()
                    .map_or(show_up_by, |r| r.show_up_by)
            }
            // The terms no longer make a match (the game changed under a pending assignment):
            // it is over before it began, and its bots are free.
            Err(error)
                if matches!(
                    error.code(),
                    ErrorCode::InvalidArgument | ErrorCode::NotFound
                ) =>
            {
                tracing::warn!(match_id = assigned.match_id, %error, "an assigned match cannot be created");
                self.store
                    .mark_assigned(
                        &assigned.match_id,
                        AssignedState::Pending,
                        AssignedState::Over,
                        Vec::new(),
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                return Ok(());
            }
            // The store or the match cannot answer now: the assignment waits for the next beat.
            Err(error) => return Err(error.to_string()),
        };
        let seats = self
            .registry
            .games()
            .info(&terms.variant_id)
            .map_err(|e| e.to_string())?
            .seats
            .clone();
        let (tournament_id, round) =
            tournament.map_or((String::new(), 0), |g| (g.tournament_id, g.round));
        let mut items = Vec::new();
        let now = SystemTime::now();
        for (index, bot_id) in assigned.bots.iter().enumerate() {
            let opponent_id = &assigned.bots[1 - index];
            let opponent_name = match self.accounts.bot(opponent_id).await {
                Ok(bot) => bot.name,
                Err(error) => return Err(error.to_string()),
            };
            let item = InboxItem::MatchAssigned(Assignment {
                match_id: assigned.match_id.clone(),
                variant_id: terms.variant_id.clone(),
                seat: seats[index].to_string(),
                opponent_id: opponent_id.clone(),
                opponent_name,
                rated: terms.rated,
                pool: assigned.pool.clone(),
                show_up_by_nanos: nanos(show_up_by),
                tournament_id: tournament_id.clone(),
                round,
            });
            items.push(item.to_new(bot_id, now));
        }
        let told = self
            .store
            .mark_assigned(
                &assigned.match_id,
                AssignedState::Pending,
                AssignedState::Created,
                items,
            )
            .await
            .map_err(|e| e.to_string())?;
        if let Some(rows) = told {
            self.bus.publish(rows);
        }
        Ok(())
    }
}
