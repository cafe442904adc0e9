//! Every refusal names the rule it enforces: one case per rule in [`RULES`], the rules page
//! explains every id, and along random matches nothing illegal is accepted or changes the state.

use crate::refusal_checks::{self, assert_breaks};

use proptest::prelude::*;

use super::rules::{self, RULES};
use super::tests::{
    custom, extension_cells, game_with, mv, option_strategy, play, shootout_game, sq, text,
    three_kicks, with_ball,
};
use super::*;
use crate::game::RuleErrorKind;
use crate::options::OptionValue;
use crate::rng::Rng;

/// A state, and an action of the side to act that breaks exactly `rule` there.
struct Case {
    rule: Rule,
    game: Chessyball,
    seat: Seat,
    action: Action,
}

fn case(rule: Rule, game: &Chessyball, seat: Seat, action: Action) -> Case {
    Case {
        rule,
        game: game.clone(),
        seat,
        action,
    }
}

fn place(square: &str) -> Action {
    Action::PlaceBall { square: sq(square) }
}

fn cases() -> Vec<Case> {
    // Home to move with one action: members on e9 and above its own goal on a9, the ball on h8.
    let open = custom(&with_ball("h8", &[("e9", 'M'), ("a9", 'M')]), "h", &[]);
    let opponent_on_e7 = custom(&with_ball("h8", &[("e9", 'M'), ("e7", 'm')]), "h", &[]);
    let ball_on_g9 = custom(&with_ball("g9", &[("e9", 'M')]), "h", &[]);
    let free_keeper = custom(
        &with_ball("h8", &[("e9", 'M')]),
        "h",
        &[("keeper_leaves_box", OptionValue::Bool(true))],
    );
    let mut extension = custom(
        &extension_cells(),
        "h",
        &[
            ("ball_start", text("anywhere")),
            ("extensions", OptionValue::Bool(true)),
        ],
    );
    three_kicks(&mut extension);
    assert_eq!(extension.turn().phase, "extension");
    let strict = game_with(&[("starting_seat", text("home"))], 1, None);
    let early = game_with(
        &[
            ("starting_seat", text("home")),
            ("end_turn_early", OptionValue::Bool(true)),
        ],
        1,
        None,
    );
    // Home scores on r6; away, which keeps its keeper on q8, must place the ball.
    let mut placing = custom(
        &with_ball("p6", &[("n6", 'M'), ("e3", 'M')]),
        "h",
        &[("after_goal", text("defender_places"))],
    );
    play(&mut placing, HOME, &mv("n6", "o6"));
    assert_eq!(placing.turn().phase, "place_ball");
    let shootout = shootout_game(3);

    vec![
        case(rules::OWN_PIECE, &open, HOME, mv("e8", "e7")),
        case(rules::OWN_PIECE, &open, HOME, mv("q8", "p7")),
        case(rules::ON_THE_BOARD, &open, HOME, mv("e9", "e12")),
        case(rules::STRAIGHT_LINE, &open, HOME, mv("e9", "f7")),
        case(rules::STRAIGHT_LINE, &open, HOME, mv("e9", "e9")),
        case(rules::BALL_BLOCKS, &ball_on_g9, HOME, mv("e9", "h9")),
        case(rules::BALL_BLOCKS, &ball_on_g9, HOME, mv("e9", "g9")),
        case(rules::CLEAR_PATH, &opponent_on_e7, HOME, mv("e9", "e5")),
        case(rules::EMPTY_TARGET, &opponent_on_e7, HOME, mv("e9", "e7")),
        case(rules::NOT_IN_OWN_GOAL, &open, HOME, mv("a9", "a7")),
        // The goal comes first: a keeper is refused its own goal even when free to roam.
        case(rules::NOT_IN_OWN_GOAL, &free_keeper, HOME, mv("b6", "a6")),
        case(rules::KEEPER_IN_BOX, &open, HOME, mv("b6", "d6")),
        case(rules::BOX_FOR_KEEPER, &open, HOME, mv("e9", "c7")),
        case(
            rules::EXTENSION_MOVES_BALL,
            &extension,
            HOME,
            mv("h10", "h11"),
        ),
        case(rules::USE_EVERY_ACTION, &strict, HOME, Action::EndTurn),
        case(rules::END_AFTER_AN_ACTION, &early, HOME, Action::EndTurn),
        case(rules::PLACE_BALL_FIRST, &placing, AWAY, mv("r11", "r10")),
        case(rules::PLACEMENT_IN_OWN_BOX, &placing, AWAY, place("c6")),
        case(
            rules::PLACEMENT_ON_EMPTY_SQUARE,
            &placing,
            AWAY,
            place("q8"),
        ),
        case(rules::PLACEMENT_AFTER_GOAL, &strict, HOME, place("c6")),
        case(rules::SHOOTOUT_ONLY_SHOOT, &shootout, AWAY, mv("o3", "o2")),
        case(rules::SHOOT_IN_SHOOTOUT, &strict, HOME, Action::Shoot),
    ]
}

#[test]
fn each_case_is_refused_by_its_rule_typed_and_in_notation_without_change() {
    for Case {
        rule,
        game,
        seat,
        action,
    } in cases()
    {
        let mut refused = game.clone();
        assert_breaks(&refused.apply(seat, &action).unwrap_err(), rule);
        assert_eq!(refused, game, "refusing {action:?} changed the state");

        let written = notation::format_action(&action);
        assert_breaks(&game.parse_action(seat, &written).unwrap_err(), rule);
    }
}

/// The server passes typed squares on as they come, so a refusal must name one far off any
/// board without a letter for its file.
#[test]
fn a_typed_square_far_off_the_board_is_refused_by_its_rule() {
    let game = custom(&with_ball("h8", &[("e9", 'M')]), "h", &[]);
    let far = Square::new(100, -100);
    for (action, rule) in [
        (
            Action::Move {
                from: sq("e9"),
                to: far,
            },
            rules::ON_THE_BOARD,
        ),
        (
            Action::Move {
                from: far,
                to: sq("e8"),
            },
            rules::OWN_PIECE,
        ),
    ] {
        let mut refused = game.clone();
        let err = refused.apply(HOME, &action).unwrap_err();
        assert_eq!(err.rule, Some(rule), "{}", err.message);
        assert!(
            err.message.contains("file 100 rank -100"),
            "{}",
            err.message
        );
        assert_eq!(refused, game);
    }
}

#[test]
fn every_rule_has_a_case_and_a_unique_kebab_case_id() {
    let cases = cases();
    refusal_checks::assert_listed_and_covered::<Chessyball>(
        RULES,
        cases.iter().map(|case| case.rule.id),
    );
}

#[test]
fn the_rules_page_explains_every_rule_by_its_id_and_words() {
    refusal_checks::assert_documented(include_str!("../../../../docs/rules/chessyball.md"), RULES);
}

/// Actions a confused bot might send: legal ones from a few states ago, legal ones with one
/// end moved a king step, a random piece of the side to a random square, and each action kind
/// with an arbitrary square.
fn near_misses(
    game: &Chessyball,
    seat: Seat,
    recent: &[Vec<Action>],
    rng: &mut Rng,
) -> Vec<Action> {
    let squares: Vec<Square> = game.pitch.squares().collect();
    let own: Vec<Square> = game
        .pieces
        .iter()
        .filter(|piece| piece.owner == seat)
        .map(|piece| piece.square)
        .collect();
    let mut out = vec![
        Action::EndTurn,
        Action::Shoot,
        Action::PlaceBall {
            square: *rng.pick(&squares),
        },
        Action::Move {
            from: *rng.pick(&own),
            to: *rng.pick(&squares),
        },
    ];
    for legal in recent.iter().filter(|legal| !legal.is_empty()) {
        let action = rng.pick(legal).clone();
        let (df, dr) = *rng.pick(&KING_DIRECTIONS);
        out.push(match action.clone() {
            Action::Move { from, to } if rng.below(2) == 0 => Action::Move {
                from: from.offset(df, dr),
                to,
            },
            Action::Move { from, to } => Action::Move {
                from,
                to: to.offset(df, dr),
            },
            Action::PlaceBall { square } => Action::PlaceBall {
                square: square.offset(df, dr),
            },
            other => other,
        });
        out.push(action);
    }
    out
}

/// `action` by `seat` is refused for the reason the state gives, names a rule of [`RULES`]
/// when it is illegal, changes nothing, and reads the same in notation.
fn assert_refused(game: &Chessyball, seat: Seat, action: &Action) {
    let mut refused = game.clone();
    let err = refused.apply(seat, action).unwrap_err();
    assert_eq!(&refused, game, "refusing {action:?} changed the state");
    let expected = if game.outcome().is_some() {
        RuleErrorKind::GameOver
    } else if !game.turn().is_to_act(seat) {
        RuleErrorKind::NotYourTurn
    } else {
        RuleErrorKind::IllegalAction
    };
    assert_eq!(err.kind, expected, "{action:?}: {}", err.message);
    match err.rule {
        Some(rule) => assert!(RULES.contains(&rule), "{rule:?} is not listed"),
        None => assert_ne!(err.kind, RuleErrorKind::IllegalAction, "{}", err.message),
    }
    let written = notation::format_action(action);
    if notation::parse_action(&written).as_ref() == Ok(action) {
        assert_eq!(game.parse_action(seat, &written), Err(err), "{written}");
    }
}

/// How many past states' legal actions a playout keeps to try again.
const RECENT_STATES: usize = 3;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn along_random_matches_every_illegal_action_is_refused_by_a_listed_rule(
        seed in any::<u64>(),
        given in option_strategy(),
    ) {
        let mut game = game_with(&given, seed, None);
        let mut rng = Rng::new(seed ^ 0x5eed_ba11);
        let mut recent: Vec<Vec<Action>> = Vec::new();
        while game.outcome().is_none() {
            let seat = game.turn().to_act[0];
            let legal = game.legal_actions(seat);
            recent.push(legal.clone());
            if recent.len() > RECENT_STATES {
                recent.remove(0);
            }
            for action in near_misses(&game, seat, &recent, &mut rng) {
                if !legal.contains(&action) {
                    assert_refused(&game, seat, &action);
                }
            }
            assert_refused(&game, seat.opponent(), rng.pick(&legal));
            play(&mut game, seat, &rng.pick(&legal).clone());
        }
        for seat in [HOME, AWAY] {
            for action in near_misses(&game, seat, &recent, &mut rng) {
                assert_refused(&game, seat, &action);
            }
        }
    }
}
