//! Every refusal names the rule it enforces: a case per rule, the rules page explains every id,
//! and along random matches every action the seat to act may not take is refused with a rule of
//! this game and changes nothing.

use crate::refusal_checks::{self, assert_breaks};
use std::collections::VecDeque;

use proptest::prelude::*;

use super::pitch::Half;
use super::rules::*;
use super::tests::{
    PAGE_PUZZLE, PAGE_START_POSITION, act, action_bound, fresh, game_at, int, pos, spec, sq,
};
use super::*;
use crate::game::RuleErrorKind;
use crate::options::OptionValue;
use crate::rng::Rng;

const FIRST: Seat = Seat(0);

/// How a case's action reaches the engine.
enum Sent {
    /// As a typed action and as its notation.
    Both(Action, &'static str),
    /// Only typed: the notation cannot write it (off-board squares read as malformed).
    Typed(Action),
    /// Only as notation: the rule is about what the text names.
    Notation(&'static str),
}

/// A state and an action of the seat to move there that breaks `rule`.
struct Case {
    rule: Rule,
    game: SoccerChess,
    sent: Sent,
}

fn case(rule: Rule, game: SoccerChess, sent: Sent) -> Case {
    Case { rule, game, sent }
}

fn fresh_after(texts: &[&str]) -> SoccerChess {
    let mut game = fresh(&[]);
    for text in texts {
        act(&mut game, text);
    }
    game
}

fn page_start_after(texts: &[&str]) -> SoccerChess {
    let mut game = game_at(PAGE_START_POSITION, &[]);
    for text in texts {
        act(&mut game, text);
    }
    game
}

/// `first` (the visited side, at the bottom) to move in set 1 of game 1.
fn bottom_to_move(pieces: &str, ball: &str) -> SoccerChess {
    game_at(&pos(pieces, ball, "first 1 - 1 0-0 0-0"), &[])
}

fn place(kind: PieceKind, square: &str) -> Action {
    Action::Place {
        kind,
        square: sq(square),
    }
}

fn step(from: &str, to: &str) -> Action {
    Action::Move {
        from: sq(from),
        to: sq(to),
    }
}

fn kick(from: &str, target: &str) -> Action {
    Action::Kick {
        from: sq(from),
        target: sq(target),
    }
}

/// The page's first diagram has `first` at the bottom with Kf1, Nb7 Ne7 Ng7 Nj7, Ra8 Rk8, Bf4
/// Bf5, Qe8 Qg8, the ball on f9, and the visitor's defenders on e13-h13.
fn cases() -> Vec<Case> {
    use PieceKind::*;
    vec![
        // Setup: `second` visits and places first.
        case(SETUP_PHASE, fresh(&[]), Sent::Both(Action::EndSet, "end")),
        case(
            SETUP_PHASE,
            fresh(&[]),
            Sent::Both(step("f12", "f11"), "Qf11"),
        ),
        case(
            DEFAULT_FORMATION_FIRST,
            fresh_after(&["K@f17"]),
            Sent::Both(Action::DefaultFormation, "default"),
        ),
        case(
            TEAM_OF_ELEVEN,
            fresh_after(&["K@f17"]),
            Sent::Both(place(Keeper, "e17"), "K@e17"),
        ),
        case(TEAM_AREA, fresh(&[]), Sent::Both(place(Rook, "a9"), "R@a9")),
        case(
            BISHOP_COLOURS,
            fresh_after(&["B@a10"]),
            Sent::Both(place(Bishop, "b11"), "B@b11"),
        ),
        case(
            KEEPER_SMALL_AREA,
            fresh(&[]),
            Sent::Both(place(Keeper, "c17"), "K@c17"),
        ),
        case(
            SMALL_AREA_KEEPERS_ONLY,
            fresh(&[]),
            Sent::Both(place(Attacker, "e16"), "Q@e16"),
        ),
        case(
            ONE_PIECE_PER_SQUARE,
            fresh_after(&["N@c12"]),
            Sent::Both(place(Defender, "c12"), "N@c12"),
        ),
        // Play.
        case(
            PLAY_PHASE,
            page_start_after(&[]),
            Sent::Both(place(Keeper, "e1"), "K@e1"),
        ),
        case(
            OWN_PIECE,
            page_start_after(&[]),
            Sent::Both(step("f17", "f16"), "Kf17f16"),
        ),
        case(
            OWN_PIECE,
            page_start_after(&[]),
            Sent::Typed(step("a1", "a2")),
        ),
        case(
            ONCE_PER_SET,
            page_start_after(&["Bi7"]),
            Sent::Both(step("i7", "h6"), "Bi7h6"),
        ),
        case(
            ON_THE_BOARD,
            page_start_after(&[]),
            Sent::Typed(step("f1", "f0")),
        ),
        case(
            MOVE_PATTERN,
            page_start_after(&[]),
            Sent::Both(step("f4", "f6"), "Bf6"),
        ),
        case(
            MOVE_PATTERN,
            page_start_after(&[]),
            Sent::Both(step("f1", "f3"), "Kf3"),
        ),
        case(
            MOVE_PATTERN,
            page_start_after(&[]),
            Sent::Both(kick("b7", "b10"), "Nbxb10"),
        ),
        case(
            CLEAR_PATH,
            page_start_after(&[]),
            Sent::Both(step("a8", "f8"), "Rf8"),
        ),
        case(
            CLEAR_PATH,
            page_start_after(&[]),
            Sent::Both(step("g8", "e10"), "Qge10"),
        ),
        case(
            CLEAR_PATH,
            page_start_after(&[]),
            Sent::Both(kick("e8", "f14"), "Qexf14"),
        ),
        case(
            MUST_KICK,
            page_start_after(&[]),
            Sent::Both(step("e8", "f9"), "Qef9"),
        ),
        case(
            KICK_PATTERN,
            page_start_after(&[]),
            Sent::Both(kick("e8", "g12"), "Qexg12"),
        ),
        case(
            KICK_LANDING,
            page_start_after(&[]),
            Sent::Both(kick("e8", "f13"), "Qexf13"),
        ),
        case(
            KICK_LANDING,
            bottom_to_move("Ra4 Kf1 kf17", "a5"),
            Sent::Typed(kick("a4", "a0")),
        ),
        case(
            NO_OWN_GOAL,
            bottom_to_move("Qe4 Kg1 kf17", "e3"),
            Sent::Both(kick("e4", "e0"), "Qxe0"),
        ),
        case(
            END_AFTER_A_MOVE,
            page_start_after(&[]),
            Sent::Both(Action::EndSet, "end"),
        ),
        case(
            NAME_ONE_PIECE,
            page_start_after(&[]),
            Sent::Notation("Qxi9"),
        ),
        // The keeper and the small areas in play.
        case(
            KEEPER_SMALL_AREA,
            bottom_to_move("Kf2 kf17", "f9"),
            Sent::Both(step("f2", "f3"), "Kf3"),
        ),
        case(
            KEEPER_SMALL_AREA,
            bottom_to_move("Kd1 kf17", "c2"),
            Sent::Both(kick("d1", "c5"), "Kxc5"),
        ),
        case(
            SMALL_AREA_KEEPERS_ONLY,
            bottom_to_move("Qf4 Kd1 kf17", "f9"),
            Sent::Both(step("f4", "f2"), "Qf2"),
        ),
        case(
            SMALL_AREA_KEEPERS_ONLY,
            bottom_to_move("Rc1 Kf2 kf17", "f9"),
            Sent::Both(step("c1", "k1"), "Rk1"),
        ),
        case(
            SMALL_AREA_KEEPERS_ONLY,
            bottom_to_move("Qf4 Kd1 kf17", "f2"),
            Sent::Both(kick("f4", "f5"), "Qxf5"),
        ),
        case(
            ONE_PIECE_PER_SQUARE,
            page_start_after(&[]),
            Sent::Both(step("e7", "f5"), "Nef5"),
        ),
    ]
}

#[test]
fn each_case_is_refused_naming_the_rule_it_breaks_and_changes_nothing() {
    for Case { rule, game, sent } in cases() {
        let seat = game.to_move;
        let (typed, notation) = match sent {
            Sent::Both(action, text) => (Some(action), Some(text)),
            Sent::Typed(action) => (Some(action), None),
            Sent::Notation(text) => (None, Some(text)),
        };
        if let Some(action) = typed {
            assert!(!game.legal_actions(seat).contains(&action), "{action:?}");
            let mut tried = game.clone();
            let err = tried
                .apply(seat, &action)
                .expect_err("the case's action is refused");
            assert_breaks(&err, rule);
            assert_eq!(tried, game, "refusing {action:?} changed the state");
        }
        if let Some(text) = notation {
            let err = game
                .parse_action(seat, text)
                .expect_err("the case's notation is refused");
            assert_breaks(&err, rule);
        }
    }
}

#[test]
fn every_rule_has_a_case_and_a_unique_kebab_case_id() {
    let cases = cases();
    refusal_checks::assert_listed_and_covered::<SoccerChess>(
        RULES,
        cases.iter().map(|case| case.rule.id),
    );
}

#[test]
fn the_rules_page_explains_every_rule_by_its_id_and_words() {
    refusal_checks::assert_documented(
        include_str!("../../../../docs/rules/soccer-chess.md"),
        RULES,
    );
}

#[test]
fn a_refusal_says_what_breaks_the_rule_and_what_is_legal() {
    let game = bottom_to_move("Kf2 kf17", "f9");
    let err = game.clone().apply(FIRST, &step("f2", "f3")).unwrap_err();
    assert_eq!(
        err.message,
        "the keeper stays in its own small area: f3 is outside your small area (files d-h of \
         ranks 1-2); the keeper's legal moves and kicks: Kg2, Ke2, Kf1, Kg1, Ke1"
    );
    let game = page_start_after(&[]);
    let err = game.parse_action(FIRST, "Qf9").unwrap_err();
    assert!(
        err.message.starts_with(
            "a piece that goes to the ball must kick it: `Qf9`: the attacker on e8: the ball is \
             on f9; kick it somewhere instead; the attacker on g8: the ball is on f9"
        ),
        "{err}"
    );
    assert!(err.message.contains("legal for your attackers: "), "{err}");
    assert!(err.message.contains("Qexi9"), "{err}");
}

// ----- along random matches -----

/// A square up to two files and ranks from `square`, on the board or not.
fn nudged(square: Square, rng: &mut Rng) -> Square {
    square.offset(rng.below(5) as i8 - 2, rng.below(5) as i8 - 2)
}

/// An action near `action`: another square, the other kind of piece action, the ball's square,
/// a goal, another piece kind.
fn perturbed(game: &SoccerChess, action: &Action, rng: &mut Rng) -> Action {
    match *action {
        Action::Move { from, to } => match rng.below(4) {
            0 => Action::Move {
                from,
                to: nudged(to, rng),
            },
            1 => Action::Move {
                from: nudged(from, rng),
                to,
            },
            2 => Action::Kick { from, target: to },
            _ => Action::Move {
                from,
                to: game.ball,
            },
        },
        Action::Kick { from, target } => match rng.below(5) {
            0 => Action::Kick {
                from,
                target: nudged(target, rng),
            },
            1 => Action::Kick {
                from: nudged(from, rng),
                target,
            },
            2 => Action::Move { from, to: target },
            3 => Action::Move {
                from,
                to: game.ball,
            },
            _ => {
                let goals = [Half::Bottom.goal_cells(), Half::Top.goal_cells()].concat();
                Action::Kick {
                    from,
                    target: *rng.pick(&goals),
                }
            }
        },
        Action::Place { kind, square } => {
            if rng.below(2) == 0 {
                Action::Place {
                    kind,
                    square: nudged(square, rng),
                }
            } else {
                Action::Place {
                    kind: *rng.pick(&PieceKind::ALL),
                    square,
                }
            }
        }
        Action::DefaultFormation | Action::EndSet => Action::Place {
            kind: *rng.pick(&PieceKind::ALL),
            square: nudged(CENTRE, rng),
        },
    }
}

/// The notation of a move or kick naming its piece by square, so it reads as exactly that
/// piece's action; `None` when the text could not be read (off-board squares) or no own piece
/// stands on the origin.
fn full_notation(game: &SoccerChess, seat: Seat, action: &Action) -> Option<String> {
    let (from, separator, destination) = match *action {
        Action::Move { from, to } => (from, "", to),
        Action::Kick { from, target } => (from, "x", target),
        _ => return None,
    };
    let id = game.piece_at(from)?;
    let piece = game.pieces[id as usize];
    let readable = pitch::on_board(destination)
        || (separator == "x" && pitch::goal_defended_by(destination).is_some());
    (piece.owner == seat && readable)
        .then(|| format!("{}{from}{separator}{destination}", piece.kind.symbol()))
}

/// Checks that `seat` may not take `action` now: refused for a rule of this game, the state
/// unchanged, and the notation naming the same piece refused for the same rule.
fn assert_refused_for_a_rule(game: &SoccerChess, seat: Seat, action: &Action) {
    let mut tried = game.clone();
    let err = tried
        .apply(seat, action)
        .expect_err("an unlisted action was accepted");
    assert_eq!(err.kind, RuleErrorKind::IllegalAction, "{action:?}: {err}");
    let rule = err.rule.expect("an illegal action names its rule");
    assert!(RULES.contains(&rule), "{rule:?} is not in RULES");
    assert_eq!(tried, *game, "refusing {action:?} changed the state");
    if let &Action::Move { from, .. } | &Action::Kick { from, .. } = action
        && let Some(id) = game.piece_at(from)
        && game.phase == Phase::Play
        && game.pieces[id as usize].owner == seat
        && !game.moved.contains(&id)
    {
        assert!(
            game.diagnose(id, action).is_some(),
            "the diagnosis finds no rule against {action:?} in {}",
            game.position()
        );
    }
    if let Some(text) = full_notation(game, seat, action) {
        let err = game
            .parse_action(seat, &text)
            .expect_err("the notation of an unlisted action was accepted");
        assert_eq!(
            err.rule,
            Some(rule),
            "`{text}` and {action:?} name different rules"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// At every state of random matches, actions the seat to act may not take (stale ones,
    /// perturbed legal ones, the acting seat's own for the other seat) are refused for a rule
    /// or as out of turn, change nothing, and the diagnosis of a move or kick finds a rule
    /// exactly when the piece's list leaves it out.
    #[test]
    fn unlisted_actions_are_refused_for_a_rule_and_change_nothing(
        seed in any::<u64>(),
        own_goals in any::<bool>(),
        slide in any::<bool>(),
        from_puzzle in any::<bool>(),
    ) {
        let options = [
            ("sets_per_game", int(2)),
            ("golden_goal_max_sets", int(1)),
            ("own_goals", OptionValue::Bool(own_goals)),
            ("slide_through_small_areas", OptionValue::Bool(slide)),
        ];
        let mut game = SoccerChess::new(&spec(from_puzzle.then(|| PAGE_PUZZLE.to_owned()), &options)).unwrap();
        let mut rng = Rng::new(seed);
        let mut stale: VecDeque<Action> = VecDeque::new();
        for _ in 0..action_bound(2, 1) {
            if game.outcome().is_some() {
                break;
            }
            let seat = game.to_move;
            let legal = game.legal_actions(seat);
            for action in &legal {
                if let &Action::Move { from, .. } | &Action::Kick { from, .. } = action {
                    let id = game.piece_at(from).unwrap();
                    prop_assert!(game.diagnose(id, action).is_none(), "{:?} is listed", action);
                }
            }
            let mut tries: Vec<Action> = stale.iter().cloned().collect();
            for _ in 0..6 {
                tries.push(perturbed(&game, rng.pick(&legal), &mut rng));
            }
            tries.push(Action::EndSet);
            tries.push(Action::DefaultFormation);
            for action in tries.iter().filter(|action| !legal.contains(action)) {
                assert_refused_for_a_rule(&game, seat, action);
            }
            let mut tried = game.clone();
            let err = tried.apply(seat.opponent(), rng.pick(&legal)).unwrap_err();
            prop_assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
            prop_assert_eq!(&tried, &game);

            stale.push_back(rng.pick(&legal).clone());
            if stale.len() > 6 {
                stale.pop_front();
            }
            let action = rng.pick(&legal).clone();
            game.apply(seat, &action).unwrap();
        }
        if game.outcome().is_some() {
            for action in stale {
                let mut tried = game.clone();
                let err = tried.apply(game.to_move, &action).unwrap_err();
                prop_assert_eq!(err.kind, RuleErrorKind::GameOver);
                prop_assert_eq!(&tried, &game);
            }
        }
    }
}
