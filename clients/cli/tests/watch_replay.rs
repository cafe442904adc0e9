//! `watch` follows a live match to its end, and `replay` steps through it afterwards, from the
//! server and from an exported NDJSON file: the built binary against a real server in this
//! process, two random bots playing.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use pitchmate_cli::render::render;
use pitchmate_client::{Client, NewMatch, RandomChoice, pb, play};
use pitchmate_e2e::TestServer;

fn cli(url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pitchmate-cli"));
    command.args(["--server", url]).args(args);
    command
}

/// Runs the CLI with `input` on its standard input; its standard output.
fn run_with_input(mut command: Command, input: &str) -> String {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pitchmate-cli");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the commands");
    let output = child.wait_with_output().expect("pitchmate-cli runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        output.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Plays both seats of `match_id` with seeded random bots; the result.
async fn play_both(client: &Client, match_id: &str) -> pb::MatchResult {
    let first = client.join(match_id, None, "one").await.expect("join");
    let second = client.join(match_id, None, "two").await.expect("join");
    let (client_a, client_b) = (client.clone(), client.clone());
    let a =
        tokio::spawn(async move { play(&client_a, &first, &mut RandomChoice::seeded(1)).await });
    let b =
        tokio::spawn(async move { play(&client_b, &second, &mut RandomChoice::seeded(2)).await });
    b.await.expect("task").expect("plays");
    a.await.expect("task").expect("plays")
}

/// The drawing of the final position as a spectator sees it, without the status line.
async fn final_board(client: &Client, match_id: &str) -> String {
    let view = client
        .get_match(match_id, None)
        .await
        .expect("the match")
        .view
        .expect("a view");
    let drawn = render(&view, false);
    let board_end = drawn.find("score:").expect("a status line");
    drawn[..board_end].to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_follows_a_live_match_and_replay_steps_through_it() {
    let server = TestServer::start().await;
    let url = server.url();
    let client = server.client().await;
    let created = client
        .create_match(NewMatch::variant("kings-goal").int_option("moves_per_half", 3))
        .await
        .expect("create");
    let match_id = created.match_id.clone();

    // The spectator is watching before anyone has taken a seat.
    let mut watcher = cli(&url, &["watch", &match_id])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn watch");
    let mut watched = BufReader::new(watcher.stdout.take().expect("stdout"));
    let mut first_frame = String::new();
    while !first_frame.contains("match created (kings-goal)") {
        let read = watched.read_line(&mut first_frame).expect("read");
        assert_ne!(read, 0, "watch ended early: {first_frame}");
    }
    let result = play_both(&client, &match_id).await;
    let (rest, status) = tokio::task::spawn_blocking(move || {
        let mut rest = String::new();
        watched.read_to_string(&mut rest).expect("read");
        (rest, watcher.wait().expect("watch ends"))
    })
    .await
    .expect("the watcher");
    assert!(status.success(), "{rest}");
    let expected = pitchmate_cli::describe::result(&result);
    // The first frame came before the seats were taken, the last after the end.
    assert!(
        first_frame.contains("white (free) vs black (free)"),
        "{first_frame}"
    );
    assert!(rest.contains("white one vs black two"), "{rest}");
    assert!(rest.ends_with(&format!("{expected}\n")), "{rest}");
    let board = final_board(&client, &match_id).await;
    assert!(
        rest.contains(&board),
        "the last frame shows the final board:\n{board}\n{rest}"
    );

    // From the server: forward, last, back, a jump, a bad command.
    let replay = client.replay(&match_id).await.expect("replay");
    let actions = replay
        .events
        .iter()
        .filter(|e| matches!(e.kind, Some(pb::match_event::Kind::ActionTaken(_))))
        .count();
    let shown = run_with_input(
        cli(&url, &["replay", &match_id]),
        "n\n\nl\np\nj 1\nbogus\nq\n",
    );
    assert!(
        shown.contains("seed checked against its commitment"),
        "{shown}"
    );
    for step in [0, 1, 2, actions, actions - 1] {
        assert!(
            shown.contains(&format!("step {step} of {actions}\n")),
            "step {step}: {shown}"
        );
    }
    let after_jump = shown.rsplit("step 1 of").next().expect("the jump");
    assert!(shown.contains("not a command: \"bogus\""), "{shown}");
    assert!(after_jump.contains("white plays"), "{after_jump}");
    let last_step = shown
        .split(&format!("step {actions} of {actions}\n"))
        .nth(1)
        .expect("the last step");
    assert!(last_step.starts_with(&board), "{board}\n{last_step}");
    assert!(last_step.contains(&expected), "{last_step}");

    // From an exported file: the same last step.
    let mut export = client
        .matches()
        .export_replay(pb::ExportReplayRequest {
            match_id: match_id.clone(),
        })
        .await
        .expect("export")
        .into_inner();
    let mut lines = String::new();
    while let Some(line) = export.message().await.expect("an export line") {
        lines.push_str(&line.line);
        lines.push('\n');
    }
    let file = std::env::temp_dir().join(format!("pitchmate-cli-replay-{match_id}.ndjson"));
    std::fs::write(&file, lines).expect("write the export");
    let path = file.to_str().expect("a UTF-8 path");
    // No server is asked: the address is one nothing listens on.
    let mut offline = Command::new(env!("CARGO_BIN_EXE_pitchmate-cli"));
    offline.args(["--server", "http://127.0.0.1:9", "replay", "--file", path]);
    let from_file = run_with_input(offline, "l\n");
    // As one seat saw it; a seat the match does not have is refused.
    let mut as_black = Command::new(env!("CARGO_BIN_EXE_pitchmate-cli"));
    as_black.args(["replay", "--file", path, "--seat", "black"]);
    let seen_by_black = run_with_input(as_black, "q\n");
    assert!(
        seen_by_black.contains("as seat black saw it"),
        "{seen_by_black}"
    );
    let refused = Command::new(env!("CARGO_BIN_EXE_pitchmate-cli"))
        .args(["replay", "--file", path, "--seat", "green"])
        .output()
        .expect("pitchmate-cli runs");
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("no seat \"green\"; its seats: white, black"),
        "{error}"
    );
    std::fs::remove_file(&file).expect("remove the export");
    let last_step = from_file
        .split(&format!("step {actions} of {actions}\n"))
        .nth(1)
        .expect("the last step");
    assert!(last_step.starts_with(&board), "{board}\n{last_step}");
    assert!(from_file.ends_with("(end of commands)\n"), "{from_file}");
    server.stop().await;
}
