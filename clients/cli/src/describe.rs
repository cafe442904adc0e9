//! Events and results in a line of words each, for the log under the board.

use pitchmate_client::pb;
use pitchmate_client::pb::match_event::Kind;

/// One line for an event worth showing; `None` for bookkeeping (turn announcements, the
/// rules' own detailed events, which show on the board).
pub fn event(event: &pb::MatchEvent) -> Option<String> {
    let line = match event.kind.as_ref()? {
        Kind::MatchCreated(created) => format!("match created ({})", created.variant_id),
        Kind::SeatJoined(joined) => {
            format!("{} takes seat {}", name(&joined.player_name), joined.seat)
        }
        Kind::MatchStarted(_) => "the match starts".to_owned(),
        Kind::ActionTaken(taken) if taken.notation.is_empty() => {
            format!("{} acts (hidden)", taken.seat)
        }
        Kind::ActionTaken(taken) => format!("{} plays {}", taken.seat, taken.notation),
        Kind::GameEvent(game) => match game.game.as_ref()? {
            pb::game_event::Game::DiceRolled(roll) => {
                let whose = if roll.seat.is_empty() {
                    String::new()
                } else {
                    format!("{} ", roll.seat)
                };
                format!(
                    "{whose}rolls {:?} (d{}) for {}",
                    roll.values, roll.sides, roll.purpose
                )
            }
            _ => return None,
        },
        Kind::MatchEnded(ended) => result(&ended.result.clone().unwrap_or_default()),
        Kind::Resigned(resigned) => format!("{} resigns", resigned.seat),
        Kind::DrawOffered(offer) => format!("{} offers a draw", offer.seat),
        Kind::DrawAccepted(accept) => format!("{} accepts the draw", accept.seat),
        Kind::MatchAborted(aborted) => format!("{} aborts the match", aborted.seat),
        Kind::VictoryClaimed(claim) => format!(
            "{} claims the win: {} was away too long",
            claim.seat, claim.opponent
        ),
        Kind::TimedOut(out) if out.forfeited => {
            format!("{} ran out of time and forfeits", out.seat)
        }
        Kind::TimedOut(out) => format!("{} ran out of time", out.seat),
        Kind::TurnStarted(_) => return None,
    };
    Some(format!("{:>4}  {line}", event.seq))
}

fn name(player: &str) -> &str {
    if player.is_empty() {
        "a player"
    } else {
        player
    }
}

/// The result in words: `result: first wins, first 2 - second 1 (more goals)`.
pub fn result(result: &pb::MatchResult) -> String {
    let scores: Vec<String> = result
        .scores
        .iter()
        .map(|s| format!("{} {}", s.seat, s.score))
        .collect();
    let winner = if result.winner.is_empty() {
        "no winner".to_owned()
    } else {
        format!("{} wins", result.winner)
    };
    let reason = result
        .reason()
        .as_str_name()
        .trim_start_matches("RESULT_REASON_")
        .to_lowercase();
    let detail = if result.detail.is_empty() {
        reason
    } else {
        format!("{reason}: {}", result.detail)
    };
    format!("result: {winner}, {} ({detail})", scores.join(" - "))
}
