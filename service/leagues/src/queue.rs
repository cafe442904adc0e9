//! The matchmaking queue: a bot enters a pool (variant, speed, rated or casual) with a ticket;
//! once a second the scheduler pairs each pool's waiting tickets by rating closeness, the window
//! widening as they wait (`pairing`), and assigns each pair a match, which reaches both bots
//! through their inboxes as any assigned match does. A cycle's pairs are written in one
//! transaction, each only if both its tickets still wait and both bots' caps admit one more
//! match (counting the pairs before it): a bot is never double-booked, whatever other pools,
//! challenges or servers do meanwhile.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use pitchmate_hosting::MatchRegistry;
use pitchmate_store::{
    AssignedMatchRow, AssignedState, BotLoad, Paired, Store, StoreError, TicketPair, TicketRow,
    TicketState,
};

use crate::Bot;
use crate::accounts::{Accounts, Caller, random_id};
use crate::challenges::{check_terms, day_start, first_seat_drawn, new_match_id};
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

/// Two tickets to pair, the one that waited longer first, with their bots.
#[derive(Clone, Debug)]
pub struct PlannedPair {
    pub tickets: [TicketRow; 2],
    pub bots: [Bot; 2],
}

/// What a cycle will pair.
#[derive(Clone, Debug)]
pub struct Plan {
    pub waiting: usize,
    pub pairs: Vec<PlannedPair>,
    /// The day the caps count in.
    pub day_start: i64,
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

    /// Pairs every pool's waiting tickets once: plans the pairs, then assigns them all in one
    /// transaction, each pair only if both tickets still wait and both bots' caps admit it.
    pub async fn cycle(&self) -> Result<Cycle, LeagueError> {
        let plan = self.plan(SystemTime::now()).await?;
        let pairs = plan
            .pairs
            .iter()
            .map(|pair| self.match_for(pair, plan.day_start))
            .collect::<Result<Vec<_>, _>>()?;
        let paired = self
            .store
            .pair_tickets(pairs)
            .await?
            .iter()
            .filter(|outcome| matches!(outcome, Paired::Done))
            .count();
        if paired > 0 {
            self.assigned.notify_one();
        }
        Ok(Cycle {
            waiting: plan.waiting,
            paired,
        })
    }

    /// The pairs of one cycle, as of `now`: every waiting ticket, every bot's caps, load and
    /// rating read at once (a few statements, however many tickets wait), then each pool paired
    /// (`pairing::pair`, off the async threads). Writes nothing.
    pub async fn plan(&self, now: SystemTime) -> Result<Plan, LeagueError> {
        let waiting = self.store.tickets(None, true).await?;
        let day_start = day_start(now);
        let mut plan = Plan {
            waiting: waiting.len(),
            pairs: Vec::new(),
            day_start,
        };
        if waiting.is_empty() {
            return Ok(plan);
        }
        let bots: HashMap<String, Bot> = self
            .accounts
            .bots(None, usize::MAX)
            .await?
            .into_iter()
            .map(|bot| (bot.bot_id.clone(), bot))
            .collect();
        let loads: HashMap<String, BotLoad> =
            self.store.bot_loads(day_start).await?.into_iter().collect();
        let mut by_pool: Vec<Vec<TicketRow>> = Vec::new();
        for row in waiting {
            match by_pool.last_mut() {
                Some(pool) if pool[0].pool == row.pool => pool.push(row),
                _ => by_pool.push(vec![row]),
            }
        }
        for rows in by_pool {
            let ratings = self.ratings_in(&rows[0].pool, now).await?;
            // Bots at a cap wait on; pairing them would only be refused.
            let eligible: Vec<(TicketRow, Bot)> = rows
                .into_iter()
                .filter_map(|row| {
                    let bot = bots.get(&row.bot_id)?.clone();
                    let load = loads.get(&row.bot_id).copied().unwrap_or_default();
                    bot.caps(day_start).admits(load).then_some((row, bot))
                })
                .collect();
            let tickets: Vec<pairing::Ticket> = eligible
                .iter()
                .enumerate()
                .map(|(index, (row, _))| pairing::Ticket {
                    id: index as u64,
                    bot: row.bot_id.clone(),
                    rating: ratings
                        .get(&row.bot_id)
                        .copied()
                        .unwrap_or(self.ratings.initial_rating),
                    waited: now
                        .duration_since(time(row.entered_nanos))
                        .unwrap_or(Duration::ZERO),
                })
                .collect();
            let rules = self.rules;
            let pairs =
                tokio::task::spawn_blocking(move || pairing::pair(&tickets, &rules, |_, _| true))
                    .await
                    .map_err(|e| LeagueError::Unavailable(format!("pairing failed: {e}")))?;
            for (a, b) in pairs {
                let ((longer, longer_bot), (other, other_bot)) = (&eligible[a], &eligible[b]);
                plan.pairs.push(PlannedPair {
                    tickets: [longer.clone(), other.clone()],
                    bots: [longer_bot.clone(), other_bot.clone()],
                });
            }
        }
        Ok(plan)
    }

    /// Every bot's rating in a rated pool as of `now`; none in a casual one, where every bot
    /// counts as a newcomer.
    async fn ratings_in(
        &self,
        pool: &str,
        now: SystemTime,
    ) -> Result<HashMap<String, f64>, LeagueError> {
        if !pool.ends_with("/rated") {
            return Ok(HashMap::new());
        }
        Ok(
            rated::standings_in(&self.store, &self.ratings, pool, nanos(now))
                .await?
                .into_iter()
                .map(|s| (s.bot_id, s.rating.rating))
                .collect(),
        )
    }

    /// The match of a planned pair: on the terms of the ticket that waited longer, seats drawn.
    fn match_for(&self, pair: &PlannedPair, today: i64) -> Result<TicketPair, LeagueError> {
        let [longer, other] = &pair.tickets;
        let terms = Terms::from_bytes(&longer.terms).map_err(LeagueError::Unavailable)?;
        let match_id = new_match_id()?;
        let mut seated = [longer.bot_id.clone(), other.bot_id.clone()];
        if !first_seat_drawn(&match_id) {
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
        let caps = pair.bots.iter().map(|bot| bot.caps(today)).collect();
        Ok(TicketPair {
            tickets: [longer.ticket_id.clone(), other.ticket_id.clone()],
            assigned,
            caps,
        })
    }
}
