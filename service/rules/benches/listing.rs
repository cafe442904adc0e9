//! Listing a seat's legal actions with their notation, per engine, on one core.
//!
//! `cargo bench -p pitchmate-rules --bench listing [-- VARIANT...]`
//!
//! This is what the server does for every state a seat is to act in: `legal_actions(seat)`,
//! then `format_actions(seat, &actions)`. For each variant the bench plays seeded random
//! playouts (the same seeds every run, so every build lists the same states) and, at every
//! state, lists each seat to act three ways, in rotating order:
//!
//! - `list`: `legal_actions` + `format_actions`, what the server does;
//! - `one-by-one`: `legal_actions` + `format_action` called per action, what the default
//!   `format_actions` does (the baseline);
//! - `legal`: `legal_actions` alone (the floor: what generating the list costs).
//!
//! Each way is timed three times per listing, interleaved with the others, and the fastest of
//! the three counts, so that a preemption by another process does not land in the figures.
//!
//! It prints per variant and per phase the listings measured, the average list length, the
//! microseconds per listing of each way, and the ratios one-by-one / list and list / legal. It
//! also checks, untimed, that `format_actions` gives exactly the one-by-one notations.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use pitchmate_rules::chessyball::Chessyball;
use pitchmate_rules::gridiron::Gridiron;
use pitchmate_rules::kings_goal::KingsGoal;
use pitchmate_rules::playout::random_playout;
use pitchmate_rules::soccer_chess::SoccerChess;
use pitchmate_rules::xfutebol::XFutebol;
use pitchmate_rules::{Game, Rng, start};

/// Playouts are added, seed after seed, until this many listings were measured.
const LISTINGS: u64 = 20_000;
const MAX_ACTIONS: usize = 200_000;
/// Times each way is measured per listing; the fastest counts.
const ROUNDS: u64 = 3;

/// A variant id and the measurement of its engine.
type Variant = (&'static str, fn() -> Figures);

#[derive(Default)]
struct Tally {
    listings: u64,
    actions: u64,
    legal: Duration,
    list: Duration,
    one_by_one: Duration,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.listings += other.listings;
        self.actions += other.actions;
        self.legal += other.legal;
        self.list += other.list;
        self.one_by_one += other.one_by_one;
    }
}

#[derive(Default)]
struct Figures {
    playouts: u64,
    /// Per phase name, in the order the phases were first met.
    phases: Vec<(String, Tally)>,
}

fn time<T>(work: impl FnOnce() -> T) -> Duration {
    let began = Instant::now();
    black_box(work());
    began.elapsed()
}

/// Lists `seat`'s actions in `game` the three ways, the order rotated by `turn`.
fn measure_listing<G: Game>(game: &G, seat: pitchmate_rules::Seat, turn: u64, tally: &mut Tally) {
    let legal = || game.legal_actions(black_box(seat));
    let list = || {
        let actions = legal();
        game.format_actions(seat, &actions)
    };
    let one_by_one = || {
        let actions = legal();
        actions
            .iter()
            .map(|action| game.format_action(seat, action))
            .collect::<Vec<String>>()
    };
    // Each way ROUNDS times, interleaved, keeping its fastest: a listing takes microseconds, and
    // on a shared machine one preemption would otherwise outweigh hundreds of them.
    let mut best = [Duration::MAX; 3];
    for round in 0..ROUNDS {
        for step in 0..3 {
            let way = ((turn + round + step) % 3) as usize;
            let took = match way {
                0 => time(legal),
                1 => time(list),
                _ => time(one_by_one),
            };
            best[way] = best[way].min(took);
        }
    }
    tally.legal += best[0];
    tally.list += best[1];
    tally.one_by_one += best[2];
    let expected = one_by_one();
    assert_eq!(
        list(),
        expected,
        "format_actions differs from format_action one by one"
    );
    tally.listings += 1;
    tally.actions += expected.len() as u64;
}

fn measure<G: Game>() -> Figures {
    let mut figures = Figures::default();
    let mut by_phase: BTreeMap<String, (usize, Tally)> = BTreeMap::new();
    let mut listings = 0u64;
    let mut seed = 0u64;
    while listings < LISTINGS {
        seed += 1;
        let game: G = start(
            &Default::default(),
            pitchmate_rules::Seed::from_number(seed),
            None,
        )
        .expect("default setup starts");
        let playout = random_playout(game.clone(), &mut Rng::new(seed ^ 0x5eed), MAX_ACTIONS);
        let mut game = game;
        for (seat, action) in &playout.log {
            let turn = game.turn();
            let first_seen = by_phase.len();
            let (_, tally) = by_phase
                .entry(turn.phase.clone())
                .or_insert_with(|| (first_seen, Tally::default()));
            for &to_act in &turn.to_act {
                measure_listing(&game, to_act, listings, tally);
                listings += 1;
            }
            game.apply(*seat, action)
                .expect("replay accepts the logged actions");
        }
        figures.playouts += 1;
    }
    let mut phases: Vec<(usize, String, Tally)> = by_phase
        .into_iter()
        .map(|(name, (order, tally))| (order, name, tally))
        .collect();
    phases.sort_by_key(|(order, _, _)| *order);
    figures.phases = phases
        .into_iter()
        .map(|(_, name, tally)| (name, tally))
        .collect();
    figures
}

fn micros(total: Duration, listings: u64) -> f64 {
    total.as_secs_f64() * 1e6 / listings as f64
}

fn row(label: &str, t: &Tally) {
    println!(
        "{label:<24} {:>9} {:>8.1} {:>10.2} {:>10.2} {:>12.2} {:>12.2}x {:>11.2}x",
        t.listings,
        t.actions as f64 / t.listings as f64,
        micros(t.legal, t.listings),
        micros(t.list, t.listings),
        micros(t.one_by_one, t.listings),
        t.one_by_one.as_secs_f64() / t.list.as_secs_f64(),
        t.list.as_secs_f64() / t.legal.as_secs_f64(),
    );
}

fn report(id: &str, figures: &Figures) {
    let mut total = Tally::default();
    for (_, tally) in &figures.phases {
        total.add(tally);
    }
    row(&format!("{id} ({} playouts)", figures.playouts), &total);
    if figures.phases.len() > 1 {
        for (phase, tally) in &figures.phases {
            row(&format!("  {phase}"), tally);
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; anything else names the variants to run.
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!(
        "{:<24} {:>9} {:>8} {:>10} {:>10} {:>12} {:>13} {:>12}",
        "variant / phase",
        "listings",
        "avg len",
        "legal us",
        "list us",
        "one-by-one",
        "1-by-1/list",
        "list/legal"
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
