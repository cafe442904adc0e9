//! A bot that lives in a league: it follows its inbox, answers the challenges it is sent, waits
//! in the queue's pools, and plays every match assigned to it, several at once up to its cap,
//! until it has finished as many as it was asked to. When the connection breaks or the server
//! restarts it waits, then follows its inbox again after the last item it read, and its matches
//! go on where they were: nothing it was told is missed or read twice.

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::bot::Bot;
use crate::client::{Client, SeatHandle, authorized};
use crate::error::ClientError;
use crate::pb;
use crate::pb::inbox_item::Kind as Item;
use crate::pb::watch_inbox_response::Kind;
use crate::play::{PlayOptions, play_with};
use crate::reconnect::{Backoff, ReconnectPolicy};

/// Makes the bot that plays one assigned match.
pub type BotMaker = Arc<dyn Fn(&pb::InboxMatchAssigned) -> Box<dyn Bot> + Send + Sync>;

/// Decides whether to accept a challenge the bot was sent.
pub type ChallengePolicy = Arc<dyn Fn(&pb::Challenge) -> bool + Send + Sync>;

/// How a bot takes part in a league.
#[derive(Clone, Default)]
pub struct LeagueOptions {
    /// The terms of the pools it waits in (the queue's), entered again after each match.
    pub queue: Vec<pb::MatchTerms>,
    /// Which challenges it accepts; the others it declines. `None` leaves them unanswered (for
    /// a policy stored on the server to answer, or for them to expire).
    pub accept: Option<ChallengePolicy>,
    /// Stops once this many of its matches have ended; `None` plays on until `until`.
    pub stop_after: Option<usize>,
    /// Stops once this many tournaments it entered have ended (`tournament_finished`).
    pub stop_after_tournaments: Option<usize>,
    /// Stops once this turns true. Stopping takes the bot out of the queue, then plays out
    /// every match already assigned to it (also one assigned while it was leaving) before the
    /// run returns, so no opponent wins by its absence.
    pub until: Option<watch::Receiver<bool>>,
    /// Follows the inbox after this seq: 0 for everything kept.
    pub after_seq: u64,
    /// How each match is played.
    pub play: PlayOptions,
    /// How the inbox is followed again after the connection is lost.
    pub reconnect: ReconnectPolicy,
}

/// What a league run saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeagueReport {
    /// Every inbox item's seq, in the order read.
    pub seqs: Vec<u64>,
    pub assigned: Vec<pb::InboxMatchAssigned>,
    pub finished: Vec<pb::InboxMatchFinished>,
    /// Tournament rounds it was paired in (or had a bye in).
    pub rounds: Vec<pb::InboxRoundPaired>,
    /// Tournaments it entered that ended, with where it finished.
    pub tournaments: Vec<pb::InboxTournamentFinished>,
    /// Matches whose play loop failed (the match still ends, by the server's clocks or its
    /// show-up deadline), with the error.
    pub failed: Vec<(String, String)>,
}

/// Runs the bot whose API key is `api_key` in the league until `options.stop_after` of its
/// matches have ended or `options.until` turns true, then until every match assigned to it has
/// ended. Needs a key with scopes PLAY and, to answer challenges or queue, CHALLENGE. The
/// inbox's heartbeats (every `stream.heartbeat_secs` on the server) are when a stopping bot
/// looks whether it is done.
pub async fn run_league(
    client: &Client,
    api_key: &str,
    make_bot: BotMaker,
    options: LeagueOptions,
) -> Result<LeagueReport, ClientError> {
    let mut league = League {
        client: client.clone(),
        api_key: api_key.to_owned(),
        make_bot,
        options,
        report: LeagueReport::default(),
        playing: HashSet::new(),
        plays: JoinSet::new(),
        last_seq: 0,
        pools: Vec::new(),
        stopping: false,
    };
    league.pools = vec![None; league.options.queue.len()];
    league.last_seq = league.options.after_seq;
    let mut backoff = Backoff::new(league.options.reconnect.clone());
    league.enter_queue().await?;
    loop {
        match league.follow(&mut backoff).await {
            Ok(()) => break,
            Err(error) => backoff.wait(error).await?,
        }
    }
    Ok(league.report)
}

struct League {
    client: Client,
    api_key: String,
    make_bot: BotMaker,
    options: LeagueOptions,
    report: LeagueReport,
    /// Matches with a play loop running or done.
    playing: HashSet<String>,
    plays: JoinSet<(String, Result<pb::MatchResult, ClientError>)>,
    last_seq: u64,
    /// Per queued terms, the pool the server put them in (learnt when it was entered).
    pools: Vec<Option<String>>,
    /// Out of the queue, playing out what it was assigned.
    stopping: bool,
}

impl League {
    /// Whether the bot should stop seeking matches.
    fn should_stop(&self) -> bool {
        self.stopping
            || self
                .options
                .stop_after
                .is_some_and(|n| self.report.finished.len() >= n)
            || self
                .options
                .stop_after_tournaments
                .is_some_and(|n| self.report.tournaments.len() >= n)
            || self
                .options
                .until
                .as_ref()
                .is_some_and(|until| *until.borrow())
    }

    /// Once stopping: leaves the queue (once) and says whether every match assigned to the bot
    /// has ended, counting those the server has assigned but not yet announced, and the inbox
    /// has been read to its end.
    async fn stopped(&mut self) -> Result<bool, ClientError> {
        if !self.should_stop() {
            return Ok(false);
        }
        if !self.stopping {
            self.stopping = true;
            self.leave_queue().await;
        }
        if !self.plays.is_empty() {
            return Ok(false);
        }
        let request = authorized(pb::GetQuotaRequest::default(), &self.api_key)?;
        let quota = self
            .client
            .challenges()
            .get_quota(request)
            .await?
            .into_inner();
        if quota.live > 0 {
            return Ok(false);
        }
        // The last match's end is written with its items, which may still be on their way.
        let request = authorized(pb::GetInboxRequest {}, &self.api_key)?;
        let inbox = self.client.inboxes().get_inbox(request).await?.into_inner();
        Ok(inbox.newest_seq <= self.last_seq)
    }

    /// One connection's worth of the inbox; `Ok` once enough matches have ended.
    async fn follow(&mut self, backoff: &mut Backoff) -> Result<(), ClientError> {
        let mut stream = match self.client.watch_inbox(&self.api_key, self.last_seq).await {
            Err(error) if error.reason().as_deref() == Some("INBOX_SEQ_EXPIRED") => {
                self.resume_from_snapshot().await?;
                self.client
                    .watch_inbox(&self.api_key, self.last_seq)
                    .await?
            }
            other => other?,
        };
        backoff.succeeded();
        let mut until = self.options.until.clone();
        loop {
            tokio::select! {
                Some(done) = self.plays.join_next(), if !self.plays.is_empty() => {
                    self.played(done);
                }
                _ = wait_for(&mut until), if !self.stopping => {}
                message = stream.message() => {
                    let message = message?
                        .ok_or_else(|| ClientError::StreamEnded("inbox".to_owned()))?;
                    if let Some(Kind::Item(item)) = message.kind {
                        self.last_seq = item.seq;
                        self.report.seqs.push(item.seq);
                        if let Some(kind) = item.kind {
                            self.handle(kind).await?;
                        }
                    }
                }
            }
            if self.stopped().await? {
                return Ok(());
            }
        }
    }

    /// An expired cursor: the live matches from the snapshot are played, and the inbox is
    /// followed from its newest item.
    async fn resume_from_snapshot(&mut self) -> Result<(), ClientError> {
        let request = authorized(pb::GetInboxRequest {}, &self.api_key)?;
        let snapshot = self.client.inboxes().get_inbox(request).await?.into_inner();
        self.last_seq = snapshot.newest_seq;
        for live in snapshot.live_matches {
            let assigned = pb::InboxMatchAssigned {
                match_id: live.match_id,
                variant_id: live.variant_id,
                seat: live.seat,
                ..Default::default()
            };
            self.start_play(assigned);
        }
        Ok(())
    }

    async fn handle(&mut self, item: Item) -> Result<(), ClientError> {
        match item {
            Item::ChallengeReceived(challenge) => self.answer(challenge).await?,
            Item::MatchAssigned(assigned) => {
                self.report.assigned.push(assigned.clone());
                self.start_play(assigned);
                if !self.should_stop() {
                    self.enter_queue().await?;
                }
            }
            Item::MatchFinished(finished) => {
                self.report.finished.push(finished);
                if !self.should_stop() {
                    self.enter_queue().await?;
                }
            }
            Item::RoundPaired(round) => self.report.rounds.push(round),
            Item::TournamentFinished(finished) => self.report.tournaments.push(finished),
            Item::ChallengeResolved(_) | Item::QuotaChanged(_) => {}
        }
        Ok(())
    }

    async fn answer(&mut self, challenge: pb::Challenge) -> Result<(), ClientError> {
        let Some(accept) = &self.options.accept else {
            return Ok(());
        };
        let mut challenges = self.client.challenges();
        let id = challenge.challenge_id.clone();
        let answer = if accept(&challenge) {
            let request = authorized(
                pb::AcceptChallengeRequest { challenge_id: id },
                &self.api_key,
            )?;
            challenges.accept_challenge(request).await.map(|_| ())
        } else {
            let request = authorized(
                pb::DeclineChallengeRequest {
                    challenge_id: id,
                    reason: pb::DeclineReason::Generic as i32,
                },
                &self.api_key,
            )?;
            challenges.decline_challenge(request).await.map(|_| ())
        };
        match answer.map_err(ClientError::from) {
            // Withdrawn or expired meanwhile, or the bot is at its cap: nothing to do.
            Err(error)
                if matches!(
                    error.reason().as_deref(),
                    Some("CHALLENGE_CLOSED" | "BOT_OVER_CAP")
                ) =>
            {
                Ok(())
            }
            other => other,
        }
    }

    /// Plays an assigned match in a task of its own, once.
    fn start_play(&mut self, assigned: pb::InboxMatchAssigned) {
        if !self.playing.insert(assigned.match_id.clone()) {
            return;
        }
        let (client, key) = (self.client.clone(), self.api_key.clone());
        let options = self.options.play.clone();
        let mut bot = (self.make_bot)(&assigned);
        self.plays.spawn(async move {
            let match_id = assigned.match_id.clone();
            let result = async {
                let seat = take_seat(&client, &assigned, &key, &options.reconnect).await?;
                play_with(&client, &seat, &mut *bot, &options).await
            }
            .await;
            (match_id, result)
        });
    }

    fn played(
        &mut self,
        done: Result<(String, Result<pb::MatchResult, ClientError>), tokio::task::JoinError>,
    ) {
        match done {
            Ok((_, Ok(_))) => {}
            Ok((match_id, Err(error))) => {
                tracing::warn!(match_id, %error, "a league match was not played to its end");
                self.report.failed.push((match_id, error.to_string()));
            }
            Err(error) => self.report.failed.push((String::new(), error.to_string())),
        }
    }

    /// Puts the bot in every pool it waits in where it has no waiting ticket.
    async fn enter_queue(&mut self) -> Result<(), ClientError> {
        if self.options.queue.is_empty() {
            return Ok(());
        }
        let mut queue = self.client.queue();
        let request = authorized(
            pb::ListTicketsRequest {
                waiting_only: true,
                ..Default::default()
            },
            &self.api_key,
        )?;
        let waiting: HashSet<String> = queue
            .list_tickets(request)
            .await?
            .into_inner()
            .tickets
            .into_iter()
            .map(|t| t.pool)
            .collect();
        for (index, terms) in self.options.queue.iter().enumerate() {
            if self.pools[index]
                .as_ref()
                .is_some_and(|pool| waiting.contains(pool))
            {
                continue;
            }
            let request = authorized(
                pb::EnterQueueRequest {
                    terms: Some(terms.clone()),
                },
                &self.api_key,
            )?;
            match queue.enter_queue(request).await.map_err(ClientError::from) {
                Ok(entered) => {
                    self.pools[index] = entered.into_inner().ticket.map(|t| t.pool);
                }
                Err(error) if error.reason().as_deref() == Some("ALREADY_QUEUED") => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Takes the bot out of every pool, so a stopped bot is not paired again.
    async fn leave_queue(&mut self) {
        let mut queue = self.client.queue();
        let Ok(request) = authorized(
            pb::ListTicketsRequest {
                waiting_only: true,
                ..Default::default()
            },
            &self.api_key,
        ) else {
            return;
        };
        let Ok(tickets) = queue.list_tickets(request).await else {
            return;
        };
        for ticket in tickets.into_inner().tickets {
            if let Ok(request) = authorized(
                pb::LeaveQueueRequest {
                    ticket_id: ticket.ticket_id,
                },
                &self.api_key,
            ) {
                let _ = queue.leave_queue(request).await;
            }
        }
    }
}

/// Resolves when `until` turns true; never without one.
async fn wait_for(until: &mut Option<watch::Receiver<bool>>) {
    match until {
        Some(until) => {
            if until.wait_for(|stop| *stop).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending::<()>().await,
    }
}

/// Takes the assigned seat with the key, retrying while the server restarts; a seat the bot
/// already holds (a play loop started again) is its own.
async fn take_seat(
    client: &Client,
    assigned: &pb::InboxMatchAssigned,
    key: &str,
    reconnect: &ReconnectPolicy,
) -> Result<SeatHandle, ClientError> {
    let mut backoff = Backoff::new(reconnect.clone());
    let seat = Some(assigned.seat.as_str()).filter(|s| !s.is_empty());
    loop {
        match client.join_as_bot(&assigned.match_id, seat, key).await {
            Ok(handle) => return Ok(handle),
            Err(error) if error.reason().as_deref() == Some("ALREADY_SEATED") => {
                return Ok(SeatHandle {
                    match_id: assigned.match_id.clone(),
                    seat: assigned.seat.clone(),
                    token: key.to_owned(),
                });
            }
            // Made and announced before its match exists only after a crash: soon it will.
            Err(error) if error.reason().as_deref() == Some("MATCH_NOT_FOUND") => {
                backoff
                    .wait(ClientError::StreamEnded(assigned.match_id.clone()))
                    .await?;
            }
            Err(error) => backoff.wait(error).await?,
        }
    }
}
