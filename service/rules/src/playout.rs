//! Random playouts: the shared driver for property tests and the playout benchmark.

use crate::game::{Game, RuleErrorKind, Seat, SetupSpec, Turn};
use crate::rng::Rng;

/// What a random playout did.
#[derive(Clone, Debug)]
pub struct Playout<G: Game> {
    pub game: G,
    /// Every applied action with its seat, in order: the log a replay rebuilds from.
    pub log: Vec<(Seat, G::Action)>,
    pub finished: bool,
}

/// Plays uniformly random legal actions until the game ends or `max_actions` were applied.
pub fn random_playout<G: Game>(game: G, rng: &mut Rng, max_actions: usize) -> Playout<G> {
    let mut game = game;
    let mut log = Vec::new();
    while game.outcome().is_none() && log.len() < max_actions {
        let turn = game.turn();
        play_random_action(&mut game, &turn, rng, &mut log);
    }
    Playout::ended(game, log)
}

/// Plays like [`random_playout`] while checking the contract of [`Game`] at every step:
/// turn and outcome agree, only seats to act have actions, refusals change nothing, notation
/// round-trips and reads the same formatted alone or with the whole list, and replaying the log
/// rebuilds an equal state. Panics on the first breach.
pub fn checked_random_playout<G: Game>(
    setup: &SetupSpec,
    rng: &mut Rng,
    max_actions: usize,
) -> Playout<G> {
    let mut game = G::new(setup).expect("setup must be valid");
    let seats = G::info().seats.len() as u8;
    let mut log = Vec::new();
    while log.len() < max_actions {
        let turn = game.turn();
        if game.outcome().is_some() {
            assert!(
                turn.to_act.is_empty(),
                "a finished game still has seats to act: {turn:?}"
            );
            break;
        }
        assert!(
            !turn.to_act.is_empty(),
            "an unfinished game has nobody to act"
        );
        for seat in (0..seats).map(Seat) {
            if !turn.is_to_act(seat) {
                assert!(
                    game.legal_actions(seat).is_empty(),
                    "{seat:?} has actions out of turn"
                );
            }
        }
        let seat = *rng.pick(&turn.to_act);
        let legal = game.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "{seat:?} is to act but has no legal action in {}",
            game.position()
        );
        if let Some(idle) = (0..seats).map(Seat).find(|s| !turn.is_to_act(*s)) {
            let before = game.clone();
            let err = game
                .apply(idle, &legal[0])
                .expect_err("a seat not to act was allowed to act");
            assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
            assert_eq!(game, before, "a refused action changed the state");
        }
        let one_by_one: Vec<String> = legal
            .iter()
            .map(|action| game.format_action(seat, action))
            .collect();
        assert_eq!(
            game.format_actions(seat, &legal),
            one_by_one,
            "formatting the legal actions together differs from one by one"
        );
        let action = rng.pick(&legal).clone();
        let notation = game.format_action(seat, &action);
        let parsed = game
            .parse_action(seat, &notation)
            .unwrap_or_else(|e| panic!("notation {notation:?} of {action:?} does not parse: {e}"));
        assert_eq!(
            parsed, action,
            "notation {notation:?} parses to another action"
        );
        game.apply(seat, &action)
            .unwrap_or_else(|e| panic!("listed action {notation} refused: {e}"));
        log.push((seat, action));
    }
    let mut replayed = G::new(setup).expect("setup must be valid");
    for (seat, action) in &log {
        replayed
            .apply(*seat, action)
            .expect("replay must accept the logged actions");
    }
    assert_eq!(replayed, game, "replaying the log reached another state");
    Playout::ended(game, log)
}

/// Plays uniformly random legal actions like [`random_playout`] and, at every state, for every
/// seat to act, checks that [`Game::format_actions`] gives exactly what [`Game::format_action`]
/// gives one by one, in order, for the whole legal list and for a part of it (every other
/// action, so a list's notation cannot lean on being the whole list). `also` sees each listing
/// (seat, legal actions, their notations) for checks of an engine's own. Panics on the first
/// difference.
pub fn checked_listing_playout<G: Game>(
    setup: &SetupSpec,
    rng: &mut Rng,
    max_actions: usize,
    mut also: impl FnMut(&G, Seat, &[G::Action], &[String]),
) -> Playout<G> {
    let mut game = G::new(setup).expect("setup must be valid");
    let mut log = Vec::new();
    while game.outcome().is_none() && log.len() < max_actions {
        let turn = game.turn();
        for &seat in &turn.to_act {
            let legal = game.legal_actions(seat);
            let one_by_one: Vec<String> = legal
                .iter()
                .map(|action| game.format_action(seat, action))
                .collect();
            let listed = game.format_actions(seat, &legal);
            assert_eq!(
                listed,
                one_by_one,
                "{seat:?}: formatting the legal actions together differs from one by one in {}",
                game.position()
            );
            let part: Vec<G::Action> = legal.iter().step_by(2).cloned().collect();
            let part_one_by_one: Vec<String> = one_by_one.iter().step_by(2).cloned().collect();
            assert_eq!(
                game.format_actions(seat, &part),
                part_one_by_one,
                "{seat:?}: formatting every other legal action differs from one by one in {}",
                game.position()
            );
            also(&game, seat, &legal, &listed);
        }
        play_random_action(&mut game, &turn, rng, &mut log);
    }
    Playout::ended(game, log)
}

/// One uniformly random legal action of a seat picked at random among those to act in `turn`.
fn play_random_action<G: Game>(
    game: &mut G,
    turn: &Turn,
    rng: &mut Rng,
    log: &mut Vec<(Seat, G::Action)>,
) {
    let seat = *rng.pick(&turn.to_act);
    let legal = game.legal_actions(seat);
    let action = rng.pick(&legal).clone();
    game.apply(seat, &action)
        .expect("a listed legal action must apply");
    log.push((seat, action));
}

impl<G: Game> Playout<G> {
    fn ended(game: G, log: Vec<(Seat, G::Action)>) -> Self {
        let finished = game.outcome().is_some();
        Self {
            game,
            log,
            finished,
        }
    }
}
