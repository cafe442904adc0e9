//! Watching a live match as a spectator: the board redrawn after every burst of events, until
//! the match ends. A dropped connection is followed again after the last event seen.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::time::Duration;

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::stream_match_events_response::Item;
use pitchmate_client::{Client, ClientError, pb};

use crate::describe;
use crate::render::render;
use crate::screen::Output;

const LOG_LINES: usize = 10;
/// Events closer together than this are drawn as one frame (a whole history, a multi-step
/// turn).
const BURST: Duration = Duration::from_millis(30);
/// Between attempts to follow the match again after the connection dropped.
const RETRY_DELAY: Duration = Duration::from_secs(1);
/// Failed attempts in a row before giving up.
const RETRIES: u32 = 30;

/// Shows the match until it ends; returns its result (none for an aborted match).
pub async fn watch(
    client: &Client,
    match_id: &str,
    output: Output,
) -> Result<pb::MatchResult, ClientError> {
    let mut follower = Follower {
        client,
        match_id,
        output,
        last_seq: 0,
        log: VecDeque::new(),
    };
    let mut failures = 0;
    loop {
        match follower.follow().await {
            Ok(result) => return Ok(result),
            Err(error) if error.is_transient() && failures < RETRIES => {
                failures += 1;
                follower.log(format!("connection lost ({error}); following again"));
                tokio::time::sleep(RETRY_DELAY).await;
            }
            Err(error) => return Err(error),
        }
    }
}

struct Follower<'a> {
    client: &'a Client,
    match_id: &'a str,
    output: Output,
    last_seq: u64,
    log: VecDeque<String>,
}

impl Follower<'_> {
    fn log(&mut self, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    async fn follow(&mut self) -> Result<pb::MatchResult, ClientError> {
        let mut stream = self
            .client
            .watch(self.match_id, self.last_seq, None)
            .await?;
        loop {
            // Wait for the next event; then take in all that follow at once before drawing.
            let mut message = stream.message().await?;
            loop {
                let Some(received) = message else {
                    return Err(ClientError::StreamEnded(self.match_id.to_owned()));
                };
                if let Some(Item::Event(event)) = received.item {
                    self.last_seq = event.seq;
                    if let Some(line) = describe::event(&event) {
                        self.log(line);
                    }
                    if let Some(Kind::MatchEnded(ended)) = event.kind {
                        self.draw().await?;
                        return Ok(ended.result.unwrap_or_default());
                    }
                }
                match tokio::time::timeout(BURST, stream.message()).await {
                    Ok(next) => message = next?,
                    Err(_) => break,
                }
            }
            self.draw().await?;
        }
    }

    async fn draw(&self) -> Result<(), ClientError> {
        let got = self.client.get_match(self.match_id, None).await?;
        let summary = got.r#match.unwrap_or_default();
        let players: Vec<String> = summary
            .seats
            .iter()
            .map(|s| {
                let name = if s.occupied {
                    &s.player_name
                } else {
                    &"(free)".to_owned()
                };
                format!("{} {name}", s.seat)
            })
            .collect();
        let mut text = format!(
            "watching match {} ({}): {}\n",
            self.match_id,
            summary.variant_id,
            players.join(" vs ")
        );
        if let Some(view) = &got.view {
            text.push_str(&render(view, self.output.colour));
        }
        for line in &self.log {
            let _ = writeln!(text, "{line}");
        }
        self.output.frame(&text);
        Ok(())
    }
}
