//! The `pitchmate-verify` command as a bot author or platform runs it: on a replay file or
//! standard input, exit 0 when the match checks out, 1 with the reason when it does not.
//!
//! The replay here is made the way the server logs a match (the commitment in `match_created`,
//! the rules engine's opening events, each action with what it caused, the end), from a short
//! Chessyball match whose coin and ball placement come from its seed; the end-to-end tests
//! check replays of real servers.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use pitchmate_client::{pb, write_ndjson};
use pitchmate_games::chance::seed_commitment;
use pitchmate_games::{ActionChoice, GameRegistry};
use pitchmate_rules::{Seat, Seed};

const SEED: [u8; 32] = [0x5e; 32];
const SALT: [u8; 32] = [0x5a; 32];

fn event(seq: usize, kind: pb::match_event::Kind) -> pb::MatchEvent {
    pb::MatchEvent {
        seq: seq as u64 + 1,
        time: None,
        version: 0,
        kind: Some(kind),
    }
}

/// A Chessyball match of a few actions that `second` resigned.
fn resigned_match() -> pb::GetReplayResponse {
    let registry = GameRegistry::standard();
    let mut game = registry
        .start(
            "chessyball",
            &Default::default(),
            Seed::ChaCha20(SEED),
            None,
        )
        .unwrap();
    let info = game.info().clone();
    let commitment = seed_commitment(&SALT, &SEED).to_vec();
    let mut kinds = vec![pb::match_event::Kind::MatchCreated(pb::MatchCreated {
        variant_id: info.id.to_owned(),
        rules_version: info.rules_version.to_owned(),
        chance: Some(pb::Chance {
            generator: pb::ChanceGenerator::Chacha20 as i32,
            seed_source: pb::SeedSource::Server as i32,
            commitment: commitment.clone(),
            ..pb::Chance::default()
        }),
    })];
    kinds.extend(
        game.opening_events()
            .into_iter()
            .map(|event| pb::match_event::Kind::GameEvent(event.wire)),
    );
    for _ in 0..12 {
        let seat: Seat = game.turn().to_act[0];
        let played = game.play(seat, &ActionChoice::Index(0)).unwrap();
        kinds.push(pb::match_event::Kind::ActionTaken(pb::ActionTaken {
            seat: info.seats[seat.index()].to_owned(),
            action: Some(played.action),
            notation: played.notation,
        }));
        kinds.extend(
            played
                .events
                .into_iter()
                .map(|event| pb::match_event::Kind::GameEvent(event.wire)),
        );
    }
    let result = pb::MatchResult {
        winner: info.seats[0].to_owned(),
        scores: game
            .scores()
            .iter()
            .zip(&info.seats)
            .map(|(score, seat)| pb::SeatScore {
                seat: (*seat).to_owned(),
                score: *score,
            })
            .collect(),
        reason: pb::ResultReason::Resignation as i32,
        detail: "`second` resigned".to_owned(),
    };
    kinds.push(pb::match_event::Kind::MatchEnded(pb::MatchEnded {
        result: Some(result.clone()),
    }));
    pb::GetReplayResponse {
        header: Some(pb::ReplayHeader {
            match_id: "m".to_owned(),
            variant_id: info.id.to_owned(),
            rules_version: info.rules_version.to_owned(),
            status: pb::MatchStatus::Finished as i32,
            result: Some(result),
            chance: Some(pb::Chance {
                generator: pb::ChanceGenerator::Chacha20 as i32,
                seed_source: pb::SeedSource::Server as i32,
                commitment,
                seed: SEED.to_vec(),
                salt: SALT.to_vec(),
            }),
            ..pb::ReplayHeader::default()
        }),
        events: kinds
            .into_iter()
            .enumerate()
            .map(|(seq, kind)| event(seq, kind))
            .collect(),
    }
}

fn ndjson(replay: &pb::GetReplayResponse) -> String {
    write_ndjson(replay).join("\n") + "\n"
}

fn verify(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pitchmate-verify"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pitchmate-verify runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh file under the system's temporary directory, removed when dropped.
struct ReplayFile(std::path::PathBuf);

impl ReplayFile {
    fn new(name: &str, contents: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "pitchmate-verify-{}-{name}.ndjson",
            std::process::id()
        ));
        std::fs::write(&path, contents).unwrap();
        Self(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for ReplayFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_match_that_checks_out_exits_zero_from_a_file_or_standard_input() {
    let replay = resigned_match();
    let file = ReplayFile::new("good", &ndjson(&replay));
    for output in [
        verify(&["--file", file.path()], None),
        verify(&["--file", "-"], Some(&ndjson(&replay))),
    ] {
        assert!(output.status.success(), "{}", text(&output.stderr));
        let said = text(&output.stdout);
        assert!(said.starts_with("verified: chessyball"), "{said}");
        assert!(said.contains("the seed matches the commitment"), "{said}");
        assert!(said.contains("12 actions re-played"), "{said}");
    }
}

#[test]
fn a_tampered_seed_or_event_exits_one_with_the_reason() {
    let good = resigned_match();
    let mut other_seed = good.clone();
    other_seed
        .header
        .as_mut()
        .unwrap()
        .chance
        .as_mut()
        .unwrap()
        .seed[5] ^= 1;
    let mut other_event = good.clone();
    let last_game_event = other_event
        .events
        .iter()
        .rposition(|e| matches!(e.kind, Some(pb::match_event::Kind::GameEvent(_))))
        .unwrap();
    let moved = other_event.events[last_game_event - 1].kind.clone();
    other_event.events[last_game_event].kind = moved;
    for (name, replay, expected) in [
        ("seed", other_seed, "do not hash to the commitment"),
        ("event", other_event, "the rules give"),
    ] {
        let file = ReplayFile::new(name, &ndjson(&replay));
        let output = verify(&["--file", file.path()], None);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let said = text(&output.stderr);
        assert!(said.contains("the match does not check out"), "{said}");
        assert!(said.contains(expected), "{name}: {said}");
    }
}

#[test]
fn unreadable_input_and_unreachable_servers_exit_one() {
    let garbage = ReplayFile::new("garbage", "{not json\n");
    let output = verify(&["--file", garbage.path()], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("line 1"),
        "{}",
        text(&output.stderr)
    );

    let output = verify(&["--file", "/nonexistent/replay.ndjson"], None);
    assert_eq!(output.status.code(), Some(1));

    // Port 1 on the loopback refuses connections.
    let output = verify(&["--server", "http://127.0.0.1:1", "some-match"], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("cannot connect"),
        "{}",
        text(&output.stderr)
    );

    let output = verify(&[], None);
    assert_eq!(
        output.status.code(),
        Some(2),
        "a usage error names what is missing"
    );
}
