//! random-bot's output read by a reader that leaves early (`random-bot --both | head -1`): the
//! bot ends quietly and successfully, with no panic on the closed pipe.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use pitchmate_e2e::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_that_leaves_early_ends_the_bot_quietly() {
    let server = TestServer::start().await;
    let url = server.url();
    let (status, stderr) = tokio::task::spawn_blocking(move || {
        let mut bot = Command::new(env!("CARGO_BIN_EXE_random-bot"))
            .args(["--server", &url, "--both"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start random-bot");
        let mut first = String::new();
        BufReader::new(bot.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("a first line");
        assert!(first.contains("match"), "{first}");
        // The reader is gone; the bot's next line meets a closed pipe.
        let status = bot.wait().expect("the bot ends");
        let mut stderr = String::new();
        bot.stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .expect("stderr read");
        (status, stderr)
    })
    .await
    .expect("the bot's side");
    assert!(status.success(), "{status}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    server.stop().await;
}
