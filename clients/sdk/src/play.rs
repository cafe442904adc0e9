use std::time::Duration;

use crate::bot::{Bot, Choice};
use crate::client::{Client, PlayStream, SeatHandle};
use crate::error::ClientError;
use crate::pb;
use crate::pb::action_outcome::Result as Outcome;
use crate::pb::match_event::Kind;
use crate::pb::play_response::Item;
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

/// Plays `seat` with `bot` until the match ends over one `Play` stream, and returns the
/// result.
///
/// Whenever the seat is to act, the server prompts it with its legal actions on the stream, and
/// the loop sends the bot's choice back on it (fetching the view first when
/// [`Bot::needs_view`] says so). A turn of several actions is several prompts.
///
/// When the connection breaks, the server is unreachable or it is restarting, the loop waits as
/// `options.reconnect` says and reopens the stream after the last event it saw; the server
/// prompts again at once if the seat is to act. A bot may therefore be asked to choose twice
/// for the same state.
/// It never acts twice: the client action id is derived from the seat and the version acted on,
/// so an action sent again after a cut is answered with the original outcome if the first one
/// got through, and refused as stale if the match has moved on.
///
/// An action refused by the server's rate limit (`RATE_LIMITED`) changed nothing; it is sent
/// again after the delay the server gives. One refused because the match moved on meanwhile
/// (`STALE_VERSION`, `NOT_YOUR_TURN`, `MATCH_NOT_ACTIVE`) is dropped: the stream brings what
/// happened and a new prompt. Any other refusal ends the loop with [`ClientError::Refused`],
/// unless [`Bot::retry_refused`] asks to choose again for the same turn.
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
        begun: false,
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
    /// Whether the bot was handed the match ([`Bot::begin`]).
    begun: bool,
}

impl Player<'_> {
    /// One connection's worth of play: follows the match after `last_seq` and acts on the
    /// seat's turns until the match ends or the stream fails.
    async fn follow(&mut self, backoff: &mut Backoff) -> Result<pb::MatchResult, ClientError> {
        let (client, seat) = (self.client, self.seat);
        if !self.begun && self.bot.needs_match() {
            let fetched = client.get_match(&seat.match_id, Some(seat)).await?;
            self.bot.begin(&fetched.r#match.unwrap_or_default());
            self.begun = true;
        }
        let mut stream = client
            .open_play(seat, self.last_seq, self.bot.action_detail())
            .await?;
        backoff.succeeded();
        // The action sent and not yet answered, to send again if the rate limit refuses it.
        let mut pending: Option<Pending> = None;
        // The latest prompt, to choose from again when the bot retries a refused choice.
        let mut prompt: Option<pb::YourTurn> = None;
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
                    self.bot.observe(&event);
                    if let Some(Kind::MatchEnded(ended)) = event.kind {
                        return Ok(ended.result.unwrap_or_default());
                    }
                }
                Some(Item::YourTurn(turn)) => {
                    prompt = Some(turn.clone());
                    if let Some(action) = choose(client, seat, &mut *self.bot, turn).await? {
                        action.send(&stream).await?;
                        pending = Some(action);
                    }
                }
                Some(Item::Acted(outcome)) => {
                    let Some(action) = pending.take() else {
                        continue;
                    };
                    self.bot.acted(&outcome);
                    let again = match after_outcome(seat, action, outcome).await {
                        Ok(again) => again,
                        Err(ClientError::Refused(refusal)) if self.bot.retry_refused(&refusal) => {
                            match prompt.clone() {
                                Some(turn) => choose(client, seat, &mut *self.bot, turn).await?,
                                None => None,
                            }
                        }
                        Err(error) => return Err(error),
                    };
                    if let Some(again) = again {
                        again.send(&stream).await?;
                        pending = Some(again);
                    }
                }
                Some(Item::Heartbeat(_)) | None => {}
            }
        }
    }
}

/// An action the loop sent.
#[derive(Clone, Debug)]
struct Pending {
    version: u64,
    client_action_id: String,
    choice: Choice,
}

impl Pending {
    async fn send(&self, stream: &PlayStream) -> Result<(), ClientError> {
        stream
            .act(self.version, &self.client_action_id, self.choice.clone())
            .await
    }
}

/// The bot's answer to one prompt, or `None` when there is nothing to choose from.
async fn choose(
    client: &Client,
    seat: &SeatHandle,
    bot: &mut dyn Bot,
    prompt: pb::YourTurn,
) -> Result<Option<Pending>, ClientError> {
    let (version, actions, view) = if bot.needs_view() {
        let legal = client.legal_actions_in(seat, bot.action_detail()).await?;
        (legal.version, legal.actions, legal.view.unwrap_or_default())
    } else {
        (prompt.version, prompt.actions, pb::MatchView::default())
    };
    if actions.is_empty() {
        return Ok(None);
    }
    Ok(Some(Pending {
        version,
        client_action_id: format!("{}@{}", seat.seat, version),
        choice: bot.choose(&view, &actions),
    }))
}

/// What to do after `action`'s outcome: nothing (it was applied, or the match moved on and the
/// stream brings what happened), send it again once the rate limit allows (returned), or give
/// up on a refusal retrying cannot mend.
async fn after_outcome(
    seat: &SeatHandle,
    action: Pending,
    outcome: pb::ActionOutcome,
) -> Result<Option<Pending>, ClientError> {
    let refused = match outcome.result {
        Some(Outcome::Refused(refused)) => ClientError::Refused(Box::new(refused)),
        Some(Outcome::Accepted(_)) | None => return Ok(None),
    };
    match refused.reason().as_deref() {
        Some("RATE_LIMITED") => {
            let delay = refused.retry_delay().unwrap_or(RATE_LIMIT_FALLBACK_DELAY);
            tracing::debug!(seat = %seat.seat, ?delay, "rate limited; waiting");
            tokio::time::sleep(delay).await;
            Ok(Some(action))
        }
        // Someone else acted first (a simultaneous phase, a clock), or the match ended.
        Some("STALE_VERSION" | "NOT_YOUR_TURN" | "MATCH_NOT_ACTIVE") => {
            tracing::debug!(seat = %seat.seat, error = %refused, "state moved on; waiting for the stream");
            Ok(None)
        }
        _ => Err(refused),
    }
}

/// The wait after a rate-limited action whose refusal did not say how long to wait.
const RATE_LIMIT_FALLBACK_DELAY: Duration = Duration::from_millis(100);
