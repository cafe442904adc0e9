use crate::bot::Bot;
use crate::client::{Client, SeatHandle};
use crate::error::ClientError;
use crate::pb;
use crate::pb::match_event::Kind;
use crate::pb::stream_match_events_response::Item;

/// Plays `seat` with `bot` until the match ends, following the match's event stream, and
/// returns the result.
///
/// Whenever the stream says the seat is to act, the loop asks for the legal actions and submits
/// the bot's choice, again and again while the turn lasts (a turn may hold several actions).
/// The client action id is derived from the seat and the version acted on, so a retried submit
/// can never act twice.
pub async fn play(
    client: &Client,
    seat: &SeatHandle,
    bot: &mut dyn Bot,
) -> Result<pb::MatchResult, ClientError> {
    let mut stream = client.watch(&seat.match_id, 0, Some(seat)).await?;
    while let Some(message) = stream.message().await? {
        let Some(Item::Event(event)) = message.item else {
            continue;
        };
        match event.kind {
            Some(Kind::MatchEnded(ended)) => return Ok(ended.result.unwrap_or_default()),
            Some(Kind::TurnStarted(started)) => {
                let to_act = started.turn.is_some_and(|t| t.to_act.contains(&seat.seat));
                if to_act {
                    take_turn(client, seat, bot).await?;
                }
            }
            _ => {}
        }
    }
    Err(ClientError::StreamEnded(seat.match_id.clone()))
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
        match client
            .submit(seat, legal.version, &client_action_id, choice)
            .await
        {
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
