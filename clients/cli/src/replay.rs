//! Stepping through a finished match: the rules engine re-plays the replay's actions from its
//! revealed seed, giving the board after each one; the person moves between them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{pb, verify_replay};
use pitchmate_games::{ActionChoice, GameRegistry, option_from_proto};
use pitchmate_rules::{Seat, Seed, Viewer};

use crate::describe;
use crate::render::render;
use crate::screen::Output;

/// The match after one step: the start, then each action.
#[derive(Clone, Debug)]
pub struct Frame {
    pub view: pb::MatchView,
    /// The events of this step, in words.
    pub lines: Vec<String>,
}

/// Every step of a finished match, from the start to the end.
#[derive(Clone, Debug)]
pub struct Replay {
    pub title: String,
    pub frames: Vec<Frame>,
}

/// Re-plays `replay`, after checking it: its seed against its commitment, and every event
/// against the rules. The boards are as `seat` saw them (its hidden information), or as a
/// spectator did.
pub fn rebuild(replay: &pb::GetReplayResponse, seat: Option<&str>) -> Result<Replay, String> {
    let header = replay.header.clone().unwrap_or_default();
    if matches!(
        header.status(),
        pb::MatchStatus::Waiting | pb::MatchStatus::Active
    ) {
        return Err(format!(
            "match {0} is not over: its chance is revealed, and it can be replayed, once it \
             ends; follow it live with `pitchmate-cli watch {0}`",
            header.match_id
        ));
    }
    let verified = verify_replay(replay).map_err(|e| e.to_string())?;
    let chance = header.chance.clone().unwrap_or_default();
    let seed = match chance.generator() {
        pb::ChanceGenerator::Splitmix64 => {
            let bytes: [u8; 8] = chance.seed.as_slice().try_into().map_err(|_| "bad seed")?;
            Seed::SplitMix64(u64::from_le_bytes(bytes))
        }
        _ => Seed::ChaCha20(chance.seed.as_slice().try_into().map_err(|_| "bad seed")?),
    };
    let options = header
        .options
        .iter()
        .map(|(name, value)| Ok((name.clone(), option_from_proto(name, value)?)))
        .collect::<Result<BTreeMap<_, _>, pitchmate_games::GameError>>()
        .map_err(|e| e.to_string())?;
    let position = Some(header.start_position.clone()).filter(|p| !p.is_empty());
    let mut game = GameRegistry::standard()
        .start(&header.variant_id, &options, seed, position)
        .map_err(|e| e.to_string())?;
    let seats = game.info().seats.clone();
    let viewer = match seat {
        None => Viewer::Spectator,
        Some(name) => {
            let index = seats.iter().position(|s| *s == name).ok_or_else(|| {
                format!(
                    "the match has no seat {name:?}; its seats: {}",
                    seats.join(", ")
                )
            })?;
            Viewer::Seat(Seat(index as u8))
        }
    };

    let mut frames = vec![Frame {
        view: game.view(viewer, 0),
        lines: Vec::new(),
    }];
    for event in &replay.events {
        if let Some(Kind::ActionTaken(taken)) = &event.kind {
            let seat = seats
                .iter()
                .position(|s| *s == taken.seat)
                .ok_or_else(|| format!("event {} names no seat of the match", event.seq))?;
            let action = taken.action.clone().unwrap_or_default();
            game.play(Seat(seat as u8), &ActionChoice::Typed(action))
                .map_err(|e| format!("event {}: {e}", event.seq))?;
            frames.push(Frame {
                view: game.view(viewer, event.version),
                lines: Vec::new(),
            });
        }
        if let (Some(line), Some(frame)) = (describe::event(event), frames.last_mut()) {
            frame.lines.push(line);
        }
    }
    let players: Vec<String> = header
        .seats
        .iter()
        .map(|s| format!("{} {}", s.seat, s.player_name))
        .collect();
    let checked = if verified.commitment_checked {
        "seed checked against its commitment, every event re-played"
    } else {
        "every event re-played"
    };
    let seen_by = seat.map_or("a spectator".to_owned(), |name| format!("seat {name}"));
    Ok(Replay {
        title: format!(
            "replay of match {} ({}): {}, as {seen_by} saw it ({checked})",
            header.match_id,
            header.variant_id,
            players.join(" vs ")
        ),
        frames,
    })
}

/// Step `at` of `replay` drawn, with the keys that move on.
pub fn draw_frame(replay: &Replay, at: usize, colour: bool) -> String {
    let frame = &replay.frames[at];
    let last = replay.frames.len() - 1;
    let mut text = format!("{}\nstep {at} of {last}\n", replay.title);
    text.push_str(&render(&frame.view, colour));
    for line in &frame.lines {
        let _ = writeln!(text, "{line}");
    }
    text.push_str(
        "[Enter/n] next  [p] previous  [f] first  [l] last  [j N or N] jump to step N  [q] quit: ",
    );
    text
}

/// What the person asked for.
#[derive(Debug, PartialEq)]
enum Command {
    Step(usize),
    Quit,
    Unknown(String),
}

fn command(entry: &str, at: usize, last: usize) -> Command {
    let entry = entry.trim();
    let number = entry.strip_prefix('j').unwrap_or(entry).trim();
    match entry {
        "" | "n" => Command::Step((at + 1).min(last)),
        "p" => Command::Step(at.saturating_sub(1)),
        "f" => Command::Step(0),
        "l" => Command::Step(last),
        "q" => Command::Quit,
        _ => match number.parse::<usize>() {
            Ok(step) if step <= last => Command::Step(step),
            _ => Command::Unknown(entry.to_owned()),
        },
    }
}

/// Shows the replay step by step, reading one command a line from `input` until `q` or the end
/// of input.
pub fn step_through(replay: &Replay, input: impl BufRead, output: Output) {
    let last = replay.frames.len() - 1;
    let mut at = 0;
    output.frame(&draw_frame(replay, at, output.colour));
    for line in input.lines() {
        let Ok(line) = line else { break };
        let mut text = String::new();
        match command(&line, at, last) {
            Command::Quit => break,
            Command::Step(step) => at = step,
            Command::Unknown(entry) => {
                let _ = writeln!(text, "not a command: {entry:?}; steps go from 0 to {last}");
            }
        }
        text.push_str(&draw_frame(replay, at, output.colour));
        output.frame(&text);
    }
    println!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_move_within_the_steps() {
        assert_eq!(command("", 3, 10), Command::Step(4));
        assert_eq!(command("n", 10, 10), Command::Step(10));
        assert_eq!(command("p", 0, 10), Command::Step(0));
        assert_eq!(command("p", 5, 10), Command::Step(4));
        assert_eq!(command("j 7", 0, 10), Command::Step(7));
        assert_eq!(command("7", 0, 10), Command::Step(7));
        assert_eq!(command("l", 0, 10), Command::Step(10));
        assert_eq!(command("f", 9, 10), Command::Step(0));
        assert_eq!(command("q", 2, 10), Command::Quit);
        assert_eq!(command("j 11", 0, 10), Command::Unknown("j 11".into()));
        assert_eq!(command("x", 0, 10), Command::Unknown("x".into()));
    }
}
