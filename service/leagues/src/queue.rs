//! The matchmaking queue: a bot enters a pool (variant, speed, rated or casual) with a ticket;
//! once a second the scheduler pairs each pool's waiting tickets by rating closeness, the window
//! widening as they wait (`pairing`), and assigns each pair a match, which reaches both bots
//! through their inboxes as any assigned match does. Pairing two tickets is one transaction
//! that checks both still wait and both bots' caps admit one more match: a bot is never
//! double-booked, whatever other pools, challenges or servers do meanwhile.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use pitchmate_hosting::MatchRegistry;
use pitchmate_store::{
    AssignedMatchRow, AssignedState, BotCaps, Paired, Store, StoreError, TicketRow, TicketState,
};

use crate::accounts::{Accounts, Caller, random_id};
use crate::challenges::{check_terms, day_start, new_match_id};
use crate::error::LeagueError;
use crate::pairing::{self, PairingRules};
use crate::rated;
use crate::rating::RatingConfig;
use crate::scope::Scope;
use crate::terms::{SeatChoice, Terms};
use crate::{nanos, time};

/// A bot's place in a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub ticket_id: String,
    pub bot_id: String,
    pub pool: String,
    pub terms: Terms,
    pub entered: SystemTime,
    pub status: TicketStatus,
    pub match_id: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TicketStatus {
    Waiting,
    Paired,
    Left,
}

impl Ticket {
    fn from_row(row: TicketRow) -> Result<Self, LeagueError> {
        Ok(Self {
            terms: Terms::from_bytes(&row.terms).map_err(LeagueError::Unavailable)?,
            ticket_id: row.ticket_id,
            bot_id: row.bot_id,
            pool: row.pool,
            entered: time(row.entered_nanos),
            status: match row.state {
                TicketState::Waiting => TicketStatus::Waiting,
                TicketState::Paired => TicketStatus::Paired,
                TicketState::Left => TicketStatus::Left,
            },
            match_id: row.match_id,
        })
    }
}

/// The queue's pool for terms: `variant/speed/rated` (a rated pool is also where its results
/// are rated) or `variant/speed/casual`.
pub fn pool_of(terms: &Terms) -> String {
    let kind = if terms.rated { "rated" } else { "casual" };
    format!("{}/{}/{kind}", terms.variant_id, terms.speed().name())
}

/// What one pairing cycle did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cycle {
    pub waiting: usize,
    pub paired: usize,
}

pub struct Queue {
    store: Store,
    accounts: Arc<Accounts>,
    registry: Arc<MatchRegistry>,
    rules: PairingRules,
    ratings: RatingConfig,
    /// Woken when a pair is assigned, so its match is created at once.
    assigned: Arc<Notify>,
}

impl Queue {
    pub fn new(
        store: Store,
        accounts: Arc<Accounts>,
        registry: Arc<MatchRegistry>,
        ratings: RatingConfig,
        assigned: Arc<Notify>,
    ) -> Self {
        Self {
            store,
            accounts,
            registry,
            rules: PairingRules::default(),
            ratings,
            assigned,
        }
    }

    pub async fn enter(&self, caller: &Caller, terms: Terms) -> Result<Ticket, LeagueError> {
        let bot_id = caller.bot_with(Scope::Challenge, "entering the queue needs CHALLENGE")?;
        if terms.rematch_of.is_some() {
            return Err(LeagueError::InvalidField {
                field: "terms.rematch_of",
                message: "the queue pairs bots by rating; a rematch is a challenge".into(),
            });
        }
        check_terms(&self.registry, &terms)?;
        let terms = Terms {
            seat: SeatChoice::Any,
            ..terms
        };
        let row = TicketRow {
            ticket_id: random_id()?,
            bot_id: bot_id.to_owned(),
            pool: pool_of(&terms),
            terms: terms.to_bytes(),
            entered_nanos: nanos(SystemTime::now()),
            state: TicketState::Waiting,
            match_id: None,
        };
        match self.store.enter_ticket(row.clone()).await {
            Ok(()) => Ticket::from_row(row),
            Err(StoreError::Conflict(_)) => Err(LeagueError::AlreadyQueued(row.pool)),
            Err(error) => Err(error.into()),
        }
    }

    pub async fn leave(&self, caller: &Caller, ticket_id: &str) -> Result<(), LeagueError> {
        let bot_id = caller.bot_with(Scope::Challenge, "leaving the queue needs CHALLENGE")?;
        let owned = self
            .store
            .tickets(Some(bot_id), true)
            .await?
            .iter()
            .any(|t| t.ticket_id == ticket_id);
        if !owned || !self.store.leave_ticket(ticket_id).await? {
            return Err(LeagueError::TicketNotWaiting(ticket_id.to_owned()));
        }
        Ok(())
    }

    /// The bot's tickets, waiting ones only if `waiting_only`.
    pub async fn tickets(
        &self,
        caller: &Caller,
        waiting_only: bool,
    ) -> Result<Vec<Ticket>, LeagueError> {
        let bot_id = caller.bot()?;
        self.store
            .tickets(Some(bot_id), waiting_only)
            .await?
            .into_iter()
            .map(Ticket::from_row)
            .collect()
    }

    /// Pairs every pool's waiting tickets once.
    pub async fn cycle(&self) -> Result<Cycle, LeagueError> {
        let waiting = self.store.tickets(None, true).await?;
        let mut cycle = Cycle {
            waiting: waiting.len(),
            paired: 0,
        };
        let now = SystemTime::now();
        let today = day_start(now);
        let mut by_pool: Vec<Vec<TicketRow>> = Vec::new();
        for row in waiting {
            match by_pool.last_mut() {
                Some(pool) if pool[0].pool == row.pool => pool.push(row),
                _ => by_pool.push(vec![row]),
            }
        }
        for rows in by_pool {
            // Bots at a cap wait on; pairing them would only be refused.
            let mut eligible = Vec::with_capacity(rows.len());
            for row in rows {
                let bot = self.accounts.bot(&row.bot_id).await?;
                let load = self.store.bot_load(&row.bot_id, today).await?;
                if load.live < u64::from(bot.max_concurrent)
                    && load.today < u64::from(bot.daily_cap)
                {
                    eligible.push((row, bot));
                }
            }
            let mut tickets = Vec::with_capacity(eligible.len());
            for (index, (row, _)) in eligible.iter().enumerate() {
                let rating = self.rating(&row.pool, &row.bot_id, now).await?;
                tickets.push(pairing::Ticket {
                    id: index as u64,
                    bot: row.bot_id.clone(),
                    rating,
                    waited: now
                        .duration_since(time(row.entered_nanos))
                        .unwrap_or(Duration::ZERO),
                });
            }
            let rules = self.rules;
            let pairs =
                tokio::task::spawn_blocking(move || pairing::pair(&tickets, &rules, |_, _| true))
                    .await
                    .map_err(|e| LeagueError::Unavailable(format!("pairing failed: {e}")))?;
            for (a, b) in pairs {
                let ((first, first_bot), (second, second_bot)) = (&eligible[a], &eligible[b]);
                if self
                    .assign(first, second, [first_bot, second_bot], today)
                    .await?
                {
                    cycle.paired += 1;
                }
            }
        }
        if cycle.paired > 0 {
            self.assigned.notify_one();
        }
        Ok(cycle)
    }

    /// A bot's rating in a rated pool as of now; everyone's the same in a casual one.
    async fn rating(&self, pool: &str, bot_id: &str, now: SystemTime) -> Result<f64, LeagueError> {
        if !pool.ends_with("/rated") {
            return Ok(self.ratings.initial_rating);
        }
        Ok(rated::current(&self.store, &self.ratings, pool, bot_id)
            .await?
            .aged(nanos(now), &self.ratings)
            .rating)
    }

    /// Assigns a match to two tickets: on the terms of the one that waited longer, seats drawn.
    async fn assign(
        &self,
        longer: &TicketRow,
        other: &TicketRow,
        bots: [&crate::Bot; 2],
        today: i64,
    ) -> Result<bool, LeagueError> {
        let terms = Terms::from_bytes(&longer.terms).map_err(LeagueError::Unavailable)?;
        let match_id = new_match_id()?;
        let mut seated = [longer.bot_id.clone(), other.bot_id.clone()];
        if match_id.as_bytes()[0] % 2 == 1 {
            seated.swap(0, 1);
        }
        let assigned = AssignedMatchRow {
            match_id,
            bots: seated,
            pool: terms.pool(),
            terms: terms.to_bytes(),
            assigned_nanos: nanos(SystemTime::now()),
            state: AssignedState::Pending,
        };
        let caps = bots
            .iter()
            .map(|bot| BotCaps {
                bot_id: bot.bot_id.clone(),
                max_concurrent: bot.max_concurrent,
                daily_cap: bot.daily_cap,
                day_start_nanos: today,
            })
            .collect();
        let tickets = [longer.ticket_id.clone(), other.ticket_id.clone()];
        Ok(matches!(
            self.store.pair_tickets(tickets, assigned, caps).await?,
            Paired::Done
        ))
    }
}
