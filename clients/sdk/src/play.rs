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
/// The stream is opened with turn prompts: whenever the seat is to act, the server sends its
/// legal actions, and the loop submits the bot's choice (fetching the view first when
/// [`Bot::needs_view`] says so). A turn of several actions is several prompts.
///
/// When the connection breaks, the server is unreachable or it is restarting, the loop waits as
/// `options.reconnect` says and reopens the stream after the last event it saw; the server
/// prompts again at once if the seat is to act. A bot may therefore be asked to choose twice
/// for the same state.
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
    loop {
        match player.follow(&mut backoff).await {
            Ok(result) => return Ok(result),
            Err(error) => backoff.wait(error).await?,
        }
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
    async fn follow(&mut self, backoff: &mut Backoff) -> Result<pb::MatchResult, ClientError> {
        let (client, seat) = (self.client, self.seat);
        let mut stream = client
            .watch_with_prompts(seat, self.last_seq, self.bot.action_detail())
            .await?;
        backoff.succeeded();
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
            match message.item {
                Some(Item::Event(event)) => {
                    self.last_seq = event.seq;
                    if let Some(Kind::MatchEnded(ended)) = event.kind {
                        return Ok(ended.result.unwrap_or_default());
                    }
                }
                Some(Item::YourTurn(turn)) => act(client, seat, &mut *self.bot, turn).await?,
                Some(Item::Heartbeat(_)) | None => {}
            }
        }
    }
}

/// Answers one prompt with the bot's choice. A refusal because the match moved on is no error:
/// the stream brings what happened, then a new prompt if the seat is still to act.
async fn act(
    client: &Client,
    seat: &SeatHandle,
    bot: &mut dyn Bot,
    prompt: pb::YourTurn,
) -> Result<(), ClientError> {
    let (version, actions, view) = if bot.needs_view() {
        let legal = client.legal_actions_in(seat, bot.action_detail()).await?;
        (legal.version, legal.actions, legal.view.unwrap_or_default())
    } else {
        (prompt.version, prompt.actions, pb::MatchView::default())
    };
    if actions.is_empty() {
        return Ok(());
    }
    let choice = bot.choose(&view, &actions);
    let client_action_id = format!("{}@{}", seat.seat, version);
    match submit_when_allowed(client, seat, version, &client_action_id, choice).await {
        Ok(_) => Ok(()),
        // Someone else acted first (a simultaneous phase, a clock), or the match ended.
        Err(e)
            if matches!(
                e.reason().as_deref(),
                Some("STALE_VERSION" | "NOT_YOUR_TURN" | "MATCH_NOT_ACTIVE")
            ) =>
        {
            tracing::debug!(seat = %seat.seat, error = %e, "state moved on; waiting for the stream");
            Ok(())
        }
        Err(e) => Err(e),
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
