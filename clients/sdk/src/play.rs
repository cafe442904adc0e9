use std::time::Duration;

use crate::bot::{Bot, Choice};
use crate::client::{Client, SeatHandle};
use crate::error::ClientError;
use crate::pb;
use crate::pb::match_event::Kind;
use crate::pb::stream_match_events_response::Item;
use crate::reconnect::{Backoff, ReconnectPolicy};

/// How [`play_with`] follows a match.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayOptions {
    /// When and how often to reconnect after the connection is lost.
    pub reconnect: ReconnectPolicy,
    /// A stream silent this long is taken for a dead connection and reopened; `None` waits
    /// forever. The server sends a heartbeat after 15 s of quiet by default, so the default of
    /// 60 s allows for three lost ones.
    pub silence_limit: Option<Duration>,
}

impl Default for PlayOptions {
    fn default() -> Self {
        Self {
            reconnect: ReconnectPolicy::default(),
            silence_limit: Some(Duration::from_secs(60)),
        }
    }
}

/// Plays `seat` with `bot` until the match ends and returns the result, reconnecting as
/// [`PlayOptions::default`] says when the connection is lost.
pub async fn play(
    client: &Client,
    seat: &SeatHandle,
    bot: &mut dyn Bot,
) -> Result<pb::MatchResult, ClientError> {
    play_with(client, seat, bot, &PlayOptions::default()).await
}

/// Plays `seat` with `bot` until the match ends, following the match's event stream, and
/// returns the result.
///
/// Whenever the stream says the seat is to act, the loop asks for the legal actions and submits
/// the bot's choice, again and again while the turn lasts (a turn may hold several actions).
///
/// When the connection breaks, the server is unreachable or it is restarting, the loop waits as
/// `options.reconnect` says, reopens the stream after the last event it saw and asks afresh
/// whether the seat is to act. A bot may therefore be asked to choose twice for the same state.
/// It never acts twice: the client action id is derived from the seat and the version acted on,
/// so a submission retried after a cut is answered with the original result if the first one
/// got through, and refused as stale if the match has moved on.
///
/// A submission refused by the server's rate limit (`RATE_LIMITED`) changed nothing; it is made
/// again after the delay the server gives in its `RetryInfo`.
pub async fn play_with(
    client: &Client,
    seat: &SeatHandle,
    bot: &mut dyn Bot,
    options: &PlayOptions,
) -> Result<pb::MatchResult, ClientError> {
    let mut backoff = Backoff::new(options.reconnect.clone());
    let mut player = Player {
        client,
        seat,
        bot,
        silence_limit: options.silence_limit,
        last_seq: 0,
    };
    let mut resuming = false;
    loop {
        match player.follow(resuming, &mut backoff).await {
            Ok(result) => return Ok(result),
            Err(error) => backoff.wait(error).await?,
        }
        resuming = true;
    }
}

/// A seat being played, and how far its player has followed the match.
struct Player<'a> {
    client: &'a Client,
    seat: &'a SeatHandle,
    bot: &'a mut dyn Bot,
    silence_limit: Option<Duration>,
    /// The newest event seen; a reopened stream starts after it.
    last_seq: u64,
}

impl Player<'_> {
    /// One connection's worth of play: watches the match after `last_seq` and acts on the
    /// seat's turns until the match ends or a call fails.
    async fn follow(
        &mut self,
        resuming: bool,
        backoff: &mut Backoff,
    ) -> Result<pb::MatchResult, ClientError> {
        let (client, seat) = (self.client, self.seat);
        let mut stream = client
            .watch(&seat.match_id, self.last_seq, Some(seat))
            .await?;
        backoff.succeeded();
        if resuming {
            // The cut may have fallen inside the seat's turn, after the event that announced
            // it: the events resent after `last_seq` will not announce it again.
            take_turn(client, seat, &mut *self.bot).await?;
        }
        loop {
            let message = match self.silence_limit {
                None => stream.message().await?,
                Some(limit) => tokio::time::timeout(limit, stream.message())
                    .await
                    .map_err(|_| ClientError::StreamSilent {
                        match_id: seat.match_id.clone(),
                        silent_for: limit,
                    })??,
            };
            // The server closes streams when it shuts down; the match goes on after a restart.
            let message = message.ok_or_else(|| ClientError::StreamEnded(seat.match_id.clone()))?;
            let Some(Item::Event(event)) = message.item else {
                continue;
            };
            self.last_seq = event.seq;
            match event.kind {
                Some(Kind::MatchEnded(ended)) => return Ok(ended.result.unwrap_or_default()),
                Some(Kind::TurnStarted(started)) => {
                    let to_act = started.turn.is_some_and(|t| t.to_act.contains(&seat.seat));
                    if to_act {
                        take_turn(client, seat, &mut *self.bot).await?;
                    }
                }
                _ => {}
            }
        }
    }
}

/// Acts until the seat has no legal action left, i.e. until its turn is over.
async fn take_turn(
    client: &Client,
    seat: &SeatHandle,
    bot: &mut dyn Bot,
) -> Result<(), ClientError> {
    loop {
        let legal = client.legal_actions(seat).await?;
        if legal.actions.is_empty() {
            return Ok(());
        }
        let view = legal.view.unwrap_or_default();
        let choice = bot.choose(&view, &legal.actions);
        let client_action_id = format!("{}@{}", seat.seat, legal.version);
        match submit_when_allowed(client, seat, legal.version, &client_action_id, choice).await {
            Ok(_) => {}
            // Someone else acted first (a simultaneous phase, or an old event): look again.
            Err(e)
                if matches!(
                    e.reason().as_deref(),
                    Some("STALE_VERSION" | "NOT_YOUR_TURN")
                ) =>
            {
                tracing::debug!(seat = %seat.seat, error = %e, "state moved on; looking again");
            }
            // The match ended between our look and our action.
            Err(e) if e.reason().as_deref() == Some("MATCH_NOT_ACTIVE") => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}

/// Submits, waiting out the server's rate limit as often as it asks: a rate-limited call
/// changed nothing, so the same submission is made again after the delay the server gave.
async fn submit_when_allowed(
    client: &Client,
    seat: &SeatHandle,
    version: u64,
    client_action_id: &str,
    choice: Choice,
) -> Result<pb::SubmitActionResponse, ClientError> {
    loop {
        match client
            .submit(seat, version, client_action_id, choice.clone())
            .await
        {
            Err(e) if e.reason().as_deref() == Some("RATE_LIMITED") => {
                let delay = e.retry_delay().unwrap_or(RATE_LIMIT_FALLBACK_DELAY);
                tracing::debug!(seat = %seat.seat, ?delay, "rate limited; waiting");
                tokio::time::sleep(delay).await;
            }
            outcome => return outcome,
        }
    }
}

/// The wait after a rate-limited call that did not say how long to wait.
const RATE_LIMIT_FALLBACK_DELAY: Duration = Duration::from_millis(100);
