//! Creates the matches leagues assigned: each `Pending` assignment becomes a match in the match
//! core, under the id the assignment chose, with its seats reserved for its bots until their
//! show-up deadline; then, in one transaction, the assignment turns `Created` and both bots are
//! told in their inboxes. A crash between the two finds the match on the next pass (the core
//! refuses a second match of that id) and tells the bots then, so every assignment is created
//! once and told once. On the same beat, the queue is paired and open challenges past their
//! expiry are closed, and tournaments are run a step on (a round paired when its time
//! comes; see `tournaments`).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::sync::{Notify, watch};

use pitchmate_hosting::clock::Hosting;
use pitchmate_hosting::error::ErrorCode;
use pitchmate_hosting::setup::Reservation;
use pitchmate_hosting::{MatchRegistry, NewMatch};
use pitchmate_store::{AssignedMatchRow, AssignedState, Store, TournamentGameRow};

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
}

impl Scheduler {
    /// Runs until the server stops.
    pub async fn run(self, mut stopping: watch::Receiver<bool>) {
        let mut tournaments_changed = self.tournaments.signal().subscribe();
        loop {
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
            tokio::select! {
                () = self.assigned.notified() => {}
                _ = tournaments_changed.changed() => {}
                () = tokio::time::sleep(BEAT) => {}
                _ = stopping.wait_for(|stop| *stop) => return,
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
