//! The one-shot commands (variants, create, join, matches) and `bot`, run as the built binary
//! against a real server in this process.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use pitchmate_e2e::TestServer;

fn cli(url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pitchmate-cli"));
    command.args(["--server", url]).args(args);
    command
}

/// Runs a command to its end; its standard output, after checking it succeeded.
fn output(mut command: Command) -> String {
    let out = command.output().expect("pitchmate-cli runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_create_join_and_two_bots() {
    let server = TestServer::start().await;
    let url = server.url();
    tokio::task::spawn_blocking(move || run(&url))
        .await
        .expect("the commands");
    server.stop().await;
}

fn run(url: &str) {
    let variants = output(cli(url, &["variants"]));
    for id in [
        "soccer-chess",
        "chessyball",
        "kings-goal",
        "xfutebol",
        "gridiron",
    ] {
        assert!(variants.contains(&format!("{id} - ")), "{variants}");
    }
    assert!(
        variants.contains("--option moves_per_half=45  (1 to 200)"),
        "{variants}"
    );

    let created = output(cli(
        url,
        &["create", "kings-goal", "--option", "moves_per_half=1"],
    ));
    let match_id = created.split(' ').nth(1).expect("an id").to_owned();
    assert!(created.contains("seats white, black"), "{created}");
    let joined = output(cli(
        url,
        &["join", &match_id, "--seat", "black", "--name", "ann"],
    ));
    assert!(
        joined.contains(&format!("seat black of match {match_id}")),
        "{joined}"
    );
    assert!(
        joined.contains(&format!("pitchmate-cli play {match_id} --token ")),
        "{joined}"
    );
    let waiting = output(cli(url, &["matches", "--status", "waiting"]));
    assert!(
        waiting.contains(&format!(
            "{match_id}  kings-goal   waiting  white (free), black ann"
        )),
        "{waiting}"
    );

    // One bot creates a match, another joins it; both play to the same end. The creator is the
    // strong bot, thinking briefly.
    let mut creator = cli(
        url,
        &[
            "bot",
            "--create",
            "kings-goal",
            "--option",
            "moves_per_half=2",
            "--seed",
            "5",
            "--strategy",
            "strong",
            "--think-ms",
            "10",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("spawn the first bot");
    let mut creator_out = BufReader::new(creator.stdout.take().expect("stdout"));
    let mut line = String::new();
    creator_out.read_line(&mut line).expect("the first line");
    let bot_match = line.split(' ').nth(1).expect("an id").to_owned();
    let joiner = output(cli(
        url,
        &["bot", "--join", &bot_match, "--strategy", "random"],
    ));
    let mut rest = String::new();
    creator_out.read_to_string(&mut rest).expect("the rest");
    assert!(creator.wait().expect("the first bot ends").success());
    let mut warnings = String::new();
    creator
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut warnings)
        .expect("the first bot's warnings");
    assert!(
        !warnings.contains("at random"),
        "the strong bot used its engine for every choice: {warnings}"
    );
    let result = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("result: "))
            .unwrap_or_else(|| panic!("no result in {text}"))
            .to_owned()
    };
    assert_eq!(result(&rest), result(&joiner));

    let finished = output(cli(
        url,
        &["matches", "--status", "finished", "--variant", "kings-goal"],
    ));
    assert!(finished.contains(&bot_match), "{finished}");
    assert!(finished.contains(&result(&joiner)), "{finished}");
    // Paging: two matches, one a page.
    let first_page = output(cli(url, &["matches", "--page-size", "1"]));
    let token = first_page
        .lines()
        .find_map(|l| l.strip_prefix("more: --page-token "))
        .unwrap_or_else(|| panic!("a next page: {first_page}"));
    let second_page = output(cli(
        url,
        &["matches", "--page-size", "1", "--page-token", token],
    ));
    let ids = |page: &str| {
        page.lines()
            .next()
            .and_then(|l| l.split(' ').next())
            .map(str::to_owned)
    };
    assert_ne!(ids(&first_page), ids(&second_page));
    for page in [&first_page, &second_page] {
        let id = ids(page).expect("a match");
        assert!(id == match_id || id == bot_match, "{page}");
    }
}

/// A bot's API key plays its seat by hand: `play MATCH --api-key` takes a seat for the bot when
/// it holds none, and `q` leaves with the way back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_takes_a_seat_for_an_api_key_and_q_leaves() {
    let server = TestServer::start().await;
    let url = server.url();
    let client = server.client().await;
    let bot = client.register_bot("handy", "ann").await.expect("a bot");
    let created = client
        .create_match(pitchmate_client::NewMatch::variant("kings-goal"))
        .await
        .expect("create");
    let match_id = created.match_id;
    client
        .join(&match_id, Some("black"), "bob")
        .await
        .expect("join");
    let shown = tokio::task::spawn_blocking(move || {
        let mut play = cli(&url, &["play", &match_id, "--api-key", &bot.secret]);
        let mut child = play
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn play");
        use std::io::Write as _;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"q\n")
            .expect("type");
        let out = child.wait_with_output().expect("play ends");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (match_id, String::from_utf8(out.stdout).expect("UTF-8"))
    })
    .await
    .expect("the person");
    let (match_id, shown) = shown;
    assert!(
        shown.contains(&format!("match {match_id} - you play white")),
        "{shown}"
    );
    assert!(shown.contains("handy takes seat white"), "{shown}");
    assert!(shown.contains("your action (1-"), "{shown}");
    assert!(
        shown.contains(&format!("pitchmate-cli play {match_id} --api-key KEY")),
        "{shown}"
    );
    server.stop().await;
}
