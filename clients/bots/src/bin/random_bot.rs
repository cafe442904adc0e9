//! `random-bot`: plays uniformly random legal actions on a Pitchmate server (`--help`).

fn main() -> std::process::ExitCode {
    pitchmate_bots::runner::main::<pitchmate_bots::runner::RandomStrategy>()
}
