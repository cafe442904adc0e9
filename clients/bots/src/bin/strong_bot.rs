//! `strong-bot`: plays a Pitchmate server with the tree search on the rules engines
//! (`--help`); the same command line as `random-bot`, plus `--think-ms`.

fn main() -> std::process::ExitCode {
    pitchmate_bots::runner::main::<pitchmate_bots::runner::StrongStrategy>()
}
