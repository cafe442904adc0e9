//! Random-playout throughput of every engine, on one core.
//!
//! `cargo bench -p pitchmate-rules --bench playout [-- VARIANT...]`
//!
//! For each variant it plays complete random matches for a fixed wall-clock budget and reports
//! actions/s and matches/s. As a baseline measured in the same run it replays the very same
//! action logs without generating legal actions, so the ratio shows what choosing costs over
//! merely applying.

use std::time::{Duration, Instant};

use pitchmate_rules::chessyball::Chessyball;
use pitchmate_rules::gridiron::Gridiron;
use pitchmate_rules::kings_goal::KingsGoal;
use pitchmate_rules::playout::random_playout;
use pitchmate_rules::soccer_chess::SoccerChess;
use pitchmate_rules::xfutebol::XFutebol;
use pitchmate_rules::{Game, Rng, start};

const BUDGET: Duration = Duration::from_secs(3);
const MAX_ACTIONS: usize = 200_000;

/// A variant id and the measurement of its engine.
type Variant = (&'static str, fn() -> Figures);

struct Figures {
    matches: u64,
    unfinished: u64,
    actions: u64,
    playout: Duration,
    replay: Duration,
}

fn measure<G: Game>() -> Figures {
    let mut figures = Figures {
        matches: 0,
        unfinished: 0,
        actions: 0,
        playout: Duration::ZERO,
        replay: Duration::ZERO,
    };
    let mut seed = 0u64;
    while figures.playout < BUDGET {
        seed += 1;
        let game: G = start(
            &Default::default(),
            pitchmate_rules::Seed::from_number(seed),
            None,
        )
        .expect("default setup starts");
        let setup_copy = game.clone();
        let began = Instant::now();
        let playout = random_playout(game, &mut Rng::new(seed ^ 0x5eed), MAX_ACTIONS);
        figures.playout += began.elapsed();

        let began = Instant::now();
        let mut replayed = setup_copy;
        for (seat, action) in &playout.log {
            replayed
                .apply(*seat, action)
                .expect("replay accepts the logged actions");
        }
        figures.replay += began.elapsed();
        assert_eq!(replayed, playout.game, "replay diverged");

        figures.matches += 1;
        figures.unfinished += u64::from(!playout.finished);
        figures.actions += playout.log.len() as u64;
    }
    figures
}

fn report(id: &str, f: &Figures) {
    let playout_rate = f.actions as f64 / f.playout.as_secs_f64();
    let replay_rate = f.actions as f64 / f.replay.as_secs_f64();
    println!(
        "{id:<14} {:>8} {:>10.0} {:>14.0} {:>11.1} {:>14.0} {:>8.2}x {:>10}",
        f.matches,
        f.actions as f64 / f.matches as f64,
        playout_rate,
        f.matches as f64 / f.playout.as_secs_f64(),
        replay_rate,
        replay_rate / playout_rate,
        f.unfinished,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; anything else names the variants to run.
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!(
        "{:<14} {:>8} {:>10} {:>14} {:>11} {:>14} {:>9} {:>10}",
        "variant",
        "matches",
        "actions/m",
        "actions/s",
        "matches/s",
        "replay act/s",
        "replay/",
        "unfinished"
    );
    let variants: &[Variant] = &[
        ("soccer-chess", measure::<SoccerChess>),
        ("chessyball", measure::<Chessyball>),
        ("kings-goal", measure::<KingsGoal>),
        ("xfutebol", measure::<XFutebol>),
        ("gridiron", measure::<Gridiron>),
    ];
    for &(id, run) in variants {
        if wanted.is_empty() || wanted.iter().any(|w| w == id) {
            report(id, &run());
        }
    }
}
