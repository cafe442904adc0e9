//! Shared test helpers and the property tests over random legal play.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::game::{Game, Seat, SetupSpec};
use crate::geometry::Square;
use crate::options::{OptionValue, Options};
use crate::playout::checked_random_playout;
use crate::rng::Rng;

use super::lineup::Status;
use super::{Action, Ball, Phase, XFutebol};

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
        seed: crate::Seed::from_number(seed),
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

/// Picks an action kind uniformly, then one action of that kind. Uniform play over all legal
/// actions drowns in moves and sprints: it almost never shoots, fouls twice or reaches a red
/// card, so these tests would not exercise the duels and set pieces.
pub fn pick_by_kind(legal: &[Action], rng: &mut Rng) -> Action {
    let mut kinds = Vec::new();
    for action in legal {
        let kind = std::mem::discriminant(action);
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let kind = *rng.pick(&kinds);
    let of_kind: Vec<&Action> = legal
        .iter()
        .filter(|a| std::mem::discriminant(*a) == kind)
        .collect();
    (*rng.pick(&of_kind)).clone()
}

/// Whole-number and text options, as `setup` takes them.
pub type GivenOptions = ([(&'static str, i64); 3], [(&'static str, &'static str); 4]);

/// Short matches in winning style `style` (0..4), with the text or the shot rules for
/// penalties, free kicks and shots.
pub fn short_match_options(style: usize, text_rules: bool) -> GivenOptions {
    let styles = ["golden_goal", "two_halves", "goals", "movement_count"];
    let rule = if text_rules { "text" } else { "shot" };
    let shot_rule = if text_rules {
        "keeper_margin"
    } else {
        "simple"
    };
    (
        [
            ("movements_per_half", 40),
            ("attribute_variation", 15),
            ("min_pieces", 3),
        ],
        [
            ("winning_style", styles[style]),
            ("penalty_rule", rule),
            ("free_kick_rule", rule),
            ("shot_rule", shot_rule),
        ],
    )
}

/// Plays a kind-balanced random match, checking in every state the invariants, that a refused
/// action changes nothing, that notation round-trips, and (at turn starts in play) that the
/// position notation reloads to the same position; then that the log replays to an equal state.
fn random_match(ints: &[(&str, i64)], texts: &[(&str, &str)], seed: u64) -> (bool, usize) {
    let spec = setup(ints, texts, seed);
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut game = XFutebol::new(&spec).unwrap();
    let mut log = Vec::new();
    while game.outcome().is_none() && log.len() < 3000 {
        check_invariants(&game);
        let seat = game.turn().to_act[0];
        let legal = game.legal_actions(seat);
        assert!(!legal.is_empty(), "no legal action in {}", game.position());
        let before = game.clone();
        let refused = Action::Move {
            from: Square::new(1, 1),
            to: Square::new(1, 1),
        };
        assert!(game.apply(seat, &refused).is_err());
        assert!(game.apply(seat.opponent(), &legal[0]).is_err());
        assert_eq!(game, before, "a refused action changed the state");
        if game.phase == Phase::Play && game.movements_left == 2 && game.free_kick.is_none() {
            let text = game.position();
            let mut copy = XFutebol::new(&spec).unwrap();
            copy.load_position_unchecked(&text).unwrap();
            assert_eq!(copy.position(), text);
        }
        let action = pick_by_kind(&legal, &mut rng);
        let notation = game.format_action(seat, &action);
        assert_eq!(game.parse_action(seat, &notation), Ok(action.clone()));
        game.apply(seat, &action).unwrap();
        log.push((seat, action));
    }
    check_invariants(&game);
    assert!(game.turn().to_act.is_empty() == game.outcome().is_some());
    let mut replayed = XFutebol::new(&spec).unwrap();
    for (seat, action) in &log {
        replayed.apply(*seat, action).unwrap();
    }
    assert_eq!(replayed, game, "the log replays to another state");
    (game.outcome().is_some(), log.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn uniform_random_matches_keep_the_game_contract(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let playout = checked_random_playout::<XFutebol>(&setup(&[], &[], seed), &mut rng, 3000);
        prop_assert!(playout.finished);
    }

    #[test]
    fn random_default_matches_finish_and_keep_the_invariants(seed in any::<u64>()) {
        let (finished, _) = random_match(&[], &[], seed);
        prop_assert!(finished);
    }

    #[test]
    fn random_matches_of_every_style_and_rule_finish(
        seed in any::<u64>(),
        style in 0usize..4,
        text_rules in any::<bool>(),
    ) {
        let (ints, texts) = short_match_options(style, text_rules);
        let (finished, _) = random_match(&ints, &texts, seed);
        prop_assert!(finished);
    }
}

/// Every style ends within its bound at the default lengths.
#[test]
fn random_matches_of_every_style_end_at_default_lengths() {
    for style in ["two_halves", "golden_goal", "goals", "movement_count"] {
        for seed in 0..3 {
            let (finished, length) = random_match(&[], &[("winning_style", style)], seed);
            assert!(finished, "{style} seed {seed} did not finish");
            assert!(length < 3000);
        }
    }
}

/// The options table of the rules page, name and default, in declaration order.
#[test]
fn the_options_are_the_documented_ones_with_their_defaults() {
    let documented = [
        ("winning_style", "two_halves"),
        ("movements_per_half", "80"),
        ("goals_to_win", "3"),
        ("movement_limit", "50"),
        ("shot_rule", "keeper_margin"),
        ("keeper_margin", "20"),
        ("shoot_range", "2"),
        ("long_shoot_by", "everyone"),
        ("penalty_rule", "shot"),
        ("free_kick_rule", "keeper"),
        ("sprints_per_half", "3"),
        ("sprint_rest_turns", "3"),
        ("attribute_variation", "0"),
        ("shootout_rounds", "5"),
        ("sudden_death_rounds", "5"),
        ("min_pieces", "7"),
    ];
    let declared: Vec<(&str, String)> = XFutebol::info()
        .options
        .iter()
        .map(|o| match &o.default {
            OptionValue::Text(text) => (o.name, text.clone()),
            other => (o.name, other.to_string()),
        })
        .collect();
    let documented: Vec<(&str, String)> = documented
        .iter()
        .map(|(name, default)| (*name, (*default).to_owned()))
        .collect();
    assert_eq!(declared, documented);
}

// ----- listing legal actions -----

/// The notation of one action as `Display` wrote it with `write!`; kept as the reference the
/// faster notation must match byte for byte.
fn reference_notation(action: &Action) -> String {
    match action {
        Action::DefaultLineup => "default".to_owned(),
        Action::Formation(formation) => format!("formation {}", formation.name()),
        Action::AssignSpecial { at, special } => format!("{at}={}", special.role().symbol()),
        Action::Place { from, to } => format!("place {from}-{to}"),
        Action::ConfirmLineup => "confirm".to_owned(),
        Action::Move { from, to } => format!("{from}-{to}"),
        Action::Sprint { from, to } => format!("sprint {from}-{to}"),
        Action::Pass { from, to } => format!("pass {from}-{to}"),
        Action::LongPass { from, via, to } => match via {
            Some(via) => format!("long {from}-{via}-{to}"),
            None => format!("long {from}-{to}"),
        },
        Action::Dribble { from, to } => format!("dribble {from}-{to}"),
        Action::Challenge { from, target } => format!("challenge {from}-{target}"),
        Action::Shoot { from, goal } => format!("shoot {from}-{goal}"),
        Action::LongShoot { from, via, goal } => match via {
            Some(via) => format!("longshoot {from}-{via}-{goal}"),
            None => format!("longshoot {from}-{goal}"),
        },
        Action::FreeKick { from, goal } => format!("freekick {from}-{goal}"),
        Action::Penalty { kicker } => format!("penalty {kicker}"),
        Action::SendOff { at } => format!("sendoff {at}"),
        Action::EndTurn => "end".to_owned(),
    }
}

#[test]
fn every_kind_of_action_is_written_as_before() {
    use super::lineup::{Formation, SPECIALS};
    let (a, b, c) = (Square::new(1, 1), Square::new(8, 16), Square::new(5, 10));
    let mut actions = vec![
        Action::DefaultLineup,
        Action::Formation(Formation::FourThreeThree),
        Action::Formation(Formation::FiveThreeTwo),
        Action::Place { from: a, to: b },
        Action::ConfirmLineup,
        Action::Move { from: a, to: b },
        Action::Sprint { from: b, to: c },
        Action::Pass { from: c, to: a },
        Action::Dribble { from: a, to: c },
        Action::Challenge { from: b, target: a },
        Action::Shoot { from: c, goal: b },
        Action::FreeKick { from: a, goal: b },
        Action::Penalty { kicker: c },
        Action::SendOff { at: b },
        Action::EndTurn,
    ];
    for via in [None, Some(c)] {
        actions.push(Action::LongPass {
            from: a,
            via,
            to: b,
        });
        actions.push(Action::LongShoot {
            from: a,
            via,
            goal: b,
        });
    }
    actions.extend(SPECIALS.map(|special| Action::AssignSpecial { at: c, special }));
    for action in &actions {
        assert_eq!(action.notation(), reference_notation(action));
        assert_eq!(action.to_string(), reference_notation(action));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// At every state of random matches of every style and rule, formatting the legal list at
    /// once agrees with formatting each action alone and with the earlier notation.
    #[test]
    fn listing_the_legal_actions_matches_formatting_them_one_by_one(
        seed in any::<u64>(),
        style in 0usize..4,
        text_rules in any::<bool>(),
    ) {
        let (ints, texts) = short_match_options(style, text_rules);
        let setup = setup(&ints, &texts, seed);
        let playout = crate::playout::checked_listing_playout::<XFutebol>(
            &setup,
            &mut Rng::new(seed),
            3000,
            |_, _, legal, listed| {
                for (action, text) in legal.iter().zip(listed) {
                    assert_eq!(*text, reference_notation(action));
                }
            },
        );
        prop_assert!(playout.finished);
    }
}
