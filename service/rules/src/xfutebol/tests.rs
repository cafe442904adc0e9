//! Shared test helpers and the property tests over random legal play.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::game::{Game, Seat, SetupSpec};
use crate::geometry::Square;
use crate::options::{OptionValue, Options};
use crate::playout::checked_random_playout;
use crate::rng::Rng;

use super::lineup::Status;
use super::{Ball, Phase, XFutebol};

pub fn sq(name: &str) -> Square {
    Square::parse(name).expect("a square name")
}

fn setup(ints: &[(&str, i64)], texts: &[(&str, &str)], seed: u64) -> SetupSpec {
    let mut given = BTreeMap::new();
    for (name, value) in ints {
        given.insert((*name).to_owned(), OptionValue::Int(*value));
    }
    for (name, value) in texts {
        given.insert((*name).to_owned(), OptionValue::Text((*value).to_owned()));
    }
    SetupSpec {
        options: Options::resolve(&XFutebol::info().options, &given).expect("valid options"),
        seed,
        position: None,
    }
}

pub fn new_game_seeded(ints: &[(&str, i64)], texts: &[(&str, &str)], seed: u64) -> XFutebol {
    XFutebol::new(&setup(ints, texts, seed)).expect("a new match")
}

pub fn new_game(ints: &[(&str, i64)], texts: &[(&str, &str)]) -> XFutebol {
    new_game_seeded(ints, texts, 7)
}

/// A small scene: the listed pieces only, `to` ("h" or "a") to move.
pub fn position_game_with(
    ints: &[(&str, i64)],
    texts: &[(&str, &str)],
    home: &str,
    away: &str,
    ball: &str,
    to: &str,
) -> XFutebol {
    let mut game = new_game(ints, texts);
    game.load_position_unchecked(&format!("h:{home};a:{away};ball:{ball};to:{to}"))
        .expect("a valid scene");
    game
}

pub fn position_game(home: &str, away: &str, ball: &str, to: &str) -> XFutebol {
    position_game_with(&[], &[], home, away, ball, to)
}

/// What must hold in every reachable state.
fn check_invariants(game: &XFutebol) {
    let mut squares: Vec<Square> = game.pieces.iter().filter_map(|p| p.square()).collect();
    let count = squares.len();
    squares.sort();
    squares.dedup();
    assert_eq!(squares.len(), count, "two pieces share a square");
    for seat in [Seat(0), Seat(1)] {
        assert!(game.team_size(seat) <= 11);
        if game.phase != Phase::Lineup {
            assert!(
                game.team_size(seat) >= game.settings.min_pieces.min(11),
                "red cards went below the minimum"
            );
        }
    }
    match game.ball {
        Ball::Held(id) => assert!(
            game.piece(id).square().is_some(),
            "the ball is held by a piece off the pitch"
        ),
        Ball::Loose(square) => {
            assert!(super::geometry::on_board(square));
            assert!(
                game.piece_at(square).is_none(),
                "a loose ball under a piece"
            );
        }
        Ball::Unplaced => assert_eq!(game.phase, Phase::Lineup),
    }
    for piece in &game.pieces {
        if let Status::Resting { turns_left, .. } = piece.status {
            assert!(turns_left <= game.settings.sprint_rest_turns);
        }
    }
    let board = game.board(crate::Viewer::Spectator);
    if game.phase != Phase::Lineup {
        let ball = board.ball.expect("a ball in play");
        assert!(ball.square.is_some(), "the ball is in exactly one place");
    }
    assert!(game.movements_played <= game.period_length() + 1);
}

fn random_match(ints: &[(&str, i64)], texts: &[(&str, &str)], seed: u64) -> (bool, usize) {
    let spec = setup(ints, texts, seed);
    let mut rng = Rng::new(seed ^ 0x5eed);
    let playout = checked_random_playout::<XFutebol>(&spec, &mut rng, 3000);
    // Replay step by step to check the invariants in every state.
    let mut game = XFutebol::new(&spec).unwrap();
    check_invariants(&game);
    for (seat, action) in &playout.log {
        game.apply(*seat, action).unwrap();
        check_invariants(&game);
    }
    (playout.finished, playout.log.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_default_matches_finish_and_keep_the_invariants(seed in any::<u64>()) {
        let (finished, _) = random_match(&[], &[], seed);
        prop_assert!(finished);
    }

    #[test]
    fn random_matches_of_every_style_finish(seed in any::<u64>(), style in 0usize..4) {
        let styles = ["golden_goal", "two_halves", "goals", "movement_count"];
        let (finished, _) = random_match(
            &[("movements_per_half", 40), ("attribute_variation", 15)],
            &[("winning_style", styles[style]), ("penalty_rule", "shot"), ("free_kick_rule", "shot")],
            seed,
        );
        prop_assert!(finished);
    }
}

#[test]
fn random_match_lengths() {
    for style in ["two_halves", "golden_goal", "goals", "movement_count"] {
        let lengths: Vec<usize> = (0..12)
            .map(|seed| {
                let (finished, length) = random_match(&[], &[("winning_style", style)], seed);
                assert!(finished, "{style} seed {seed} did not finish");
                length
            })
            .collect();
        let max = *lengths.iter().max().unwrap();
        let mean = lengths.iter().sum::<usize>() / lengths.len();
        println!("random {style} matches: mean {mean} actions, max {max}");
        assert!(max < 3000);
    }
}
