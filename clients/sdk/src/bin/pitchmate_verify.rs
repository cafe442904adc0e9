//! Checks a finished Pitchmate match for yourself: that its seed was fixed before anyone acted
//! (the revealed seed and salt hash to the commitment the match published when it was created)
//! and that the server applied the rules (the rules engine, re-playing every logged action with
//! that seed, does exactly what the replay says, every roll and toss included).
//!
//! `pitchmate-verify MATCH_ID` fetches the replay from a server (`--save PATH` keeps it as
//! NDJSON); `pitchmate-verify --file replay.ndjson` checks an export (`ExportReplay`), `-`
//! reading it from standard input. Exits 0 when the match checks out, 1 when it does not or
//! cannot be read.

use std::io::Read;
use std::process::ExitCode;

use clap::Parser;
use pitchmate_client::{Client, Verified, pb, read_ndjson, verify_replay, write_ndjson};

#[derive(Debug, Parser)]
#[command(
    version,
    about = "Checks a finished Pitchmate match: its seed against the commitment, every event \
             against the rules"
)]
struct Args {
    /// The match to fetch from the server and check.
    #[arg(value_name = "MATCH", required_unless_present = "file")]
    match_id: Option<String>,
    /// Check this NDJSON export instead (`-` reads standard input).
    #[arg(long, value_name = "PATH", conflicts_with = "match_id")]
    file: Option<String>,
    /// Also write the fetched replay to this file as NDJSON, checked or not.
    #[arg(long, value_name = "PATH", conflicts_with = "file")]
    save: Option<String>,
    /// The server's URL.
    #[arg(
        long,
        default_value = "http://127.0.0.1:50051",
        env = "PITCHMATE_SERVER"
    )]
    server: String,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    match run(args).await {
        Ok(verified) => {
            println!("{}", describe(&verified));
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("pitchmate-verify: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<Verified, String> {
    let replay = match (&args.file, &args.match_id) {
        (Some(path), _) => read_ndjson(&read(path)?).map_err(|e| format!("{path}: {e}"))?,
        (None, Some(match_id)) => {
            let replay = fetch(&args.server, match_id).await?;
            if let Some(path) = &args.save {
                let mut text = write_ndjson(&replay).join("\n");
                text.push('\n');
                std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
            }
            replay
        }
        (None, None) => unreachable!("clap requires a match or a file"),
    };
    verify_replay(&replay).map_err(|e| format!("the match does not check out: {e}"))
}

fn read(path: &str) -> Result<String, String> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("standard input: {e}"))?;
    } else {
        text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(text)
}

async fn fetch(server: &str, match_id: &str) -> Result<pb::GetReplayResponse, String> {
    let client = Client::connect(server).await.map_err(|e| e.to_string())?;
    client.replay(match_id).await.map_err(|e| e.to_string())
}

fn describe(verified: &Verified) -> String {
    let chance = if verified.commitment_checked {
        "the seed matches the commitment published before play"
    } else {
        "created before seed commitments: its seed was public, so there is no commitment to check"
    };
    let chosen = if verified.seed_chosen_by_client {
        "; its seed was chosen by its creator, who could foresee every roll (never rated)"
    } else {
        ""
    };
    format!(
        "verified: {} (rules {}): {chance}{chosen}; {} actions re-played, {} game events \
         reproduced, {} dice rolls among them",
        verified.variant_id,
        verified.rules_version,
        verified.actions,
        verified.game_events,
        verified.dice_rolls
    )
}
