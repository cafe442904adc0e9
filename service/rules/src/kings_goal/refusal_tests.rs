//! Every refusal names the rule it enforces: one case per rule, and random near misses along
//! random matches.

use crate::refusal_checks::{self, assert_breaks};

use proptest::prelude::*;

use super::rules::*;
use super::tests::{KICKOFF, START, at, spec, sq};
use super::*;
use crate::game::{Rule, RuleErrorKind};
use crate::playout::random_playout;
use crate::rng::Rng;

/// White to place, its rook already on the kick-off square: K, P, P, Q, N in hand.
const PLACING: &str = "3k4/8/8/8/4R3/8/8/8 placement w - 1:0 0-0 w KPPQN/PPQRB";
/// White's rook on a4 holds the ball; black's pawn on d4 stands in its way.
const ROOK_CARRIES: &str = "4k3/8/8/8/R2p4/8/8/3K4 play w a4 1:0 0-0 w -/-";
/// White's king on d1 holds the ball, its rook stands on d2.
const KING_CARRIES: &str = "4k3/8/8/8/8/8/3R4/3K4 play w d1 1:0 0-0 w -/-";

/// An action that breaks exactly `rule` in `position`: typed, and in notation where it can be
/// written (an off-board square cannot be). An ambiguous text and a wrong piece letter exist
/// only in notation.
struct Case {
    rule: Rule,
    position: &'static str,
    typed: Option<Action>,
    notation: Option<&'static str>,
}

fn case(rule: Rule, position: &'static str, typed: Action, notation: &'static str) -> Case {
    Case {
        rule,
        position,
        typed: Some(typed),
        notation: Some(notation),
    }
}

fn moving(from: &str, to: &str) -> Action {
    Action::Move {
        from: sq(from),
        to: sq(to),
        promotion: None,
    }
}

fn capturing(from: &str, to: &str) -> Action {
    Action::Capture {
        from: sq(from),
        to: sq(to),
        promotion: None,
    }
}

fn passing(from: &str, to: &str) -> Action {
    Action::Pass {
        from: sq(from),
        to: sq(to),
    }
}

fn placing(kind: PieceKind, square: &str) -> Action {
    Action::Place {
        kind,
        square: sq(square),
    }
}

fn cases() -> Vec<Case> {
    use PieceKind::{Bishop, King, Knight, Pawn, Queen};
    let off_board = Square::new(5, 9);
    vec![
        case(PHASE, START, placing(King, "d1"), "K@d1"),
        case(PHASE, PLACING, moving("e4", "e3"), "Re3"),
        case(PHASE, KICKOFF, Action::Choose(Queen), "+Q"),
        case(PICK_FROM_BOX, START, Action::Choose(King), "+K"),
        case(
            PICK_FROM_BOX,
            "8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w Q/-",
            Action::Choose(Queen),
            "+Q",
        ),
        case(
            KICK_OFF_PICK,
            "8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w PP/-",
            Action::Choose(Pawn),
            "+P",
        ),
        case(IN_HAND, PLACING, placing(Bishop, "c3"), "B@c3"),
        case(OWN_HALF, PLACING, placing(Knight, "d5"), "N@d5"),
        Case {
            rule: OWN_HALF,
            position: PLACING,
            typed: Some(Action::Place {
                kind: Knight,
                square: Square::new(0, 0),
            }),
            notation: None,
        },
        case(EMPTY_SQUARE, PLACING, placing(Knight, "e4"), "N@e4"),
        case(
            EMPTY_SQUARE,
            "4k3/8/8/8/8/4p3/4P3/3K4 play w d1 1:0 0-0 w -/-",
            moving("e2", "e3"),
            "e3",
        ),
        case(
            KICK_OFF_PIECE,
            "8/8/8/8/8/8/8/8 placement w - 1:0 0-0 w KPPQRN/KPPQRN",
            placing(King, "d1"),
            "K@d1",
        ),
        case(
            KICK_OFF_PIECE,
            "8/8/8/8/8/8/8/8 placement w - 1:0 0-0 w KPPQRN/KPPQRN",
            placing(Pawn, "e4"),
            "P@e4",
        ),
        case(KING_IN_GOAL, PLACING, placing(King, "d2"), "K@d2"),
        case(PAWN_OFF_GOAL, PLACING, placing(Pawn, "d1"), "P@d1"),
        case(
            BISHOP_COLOURS,
            "3k4/8/8/8/4B3/8/8/8 placement w - 1:0 0-0 w KPPBN/PPQRB",
            placing(Bishop, "c2"),
            "B@c2",
        ),
        case(
            KICK_OFF_RECEIVER,
            "3k4/2p2p2/2n5/3rr3/4N3/1P6/8/B1K3R1 placement w - 1:0 0-0 w P/-",
            placing(Pawn, "a2"),
            "P@a2",
        ),
        case(OWN_PIECE, ROOK_CARRIES, moving("d4", "d3"), "d3"),
        case(OWN_PIECE, ROOK_CARRIES, moving("e5", "e6"), "Ne6"),
        Case {
            rule: OWN_PIECE,
            position: "4k3/8/8/8/2N1N3/3P4/2R5/3K4 play w d3 1:0 0-0 w -/-",
            typed: None,
            notation: Some("Nd3>e4"),
        },
        case(KICK_OFF_PASS, KICKOFF, moving("e4", "e3"), "Re3"),
        case(KICK_OFF_PASS, KICKOFF, Action::Wait, "--"),
        case(
            MOVEMENT,
            "4k3/8/8/8/8/8/4P3/3K4 play w e2 1:0 0-0 w -/-",
            moving("e2", "e4"),
            "e4",
        ),
        case(
            MOVEMENT,
            "4k3/8/8/8/8/8/8/1N1K2N1 play w d1 1:0 0-0 w -/-",
            moving("b1", "d5"),
            "Nd5",
        ),
        Case {
            rule: MOVEMENT,
            position: ROOK_CARRIES,
            typed: Some(Action::Move {
                from: sq("a4"),
                to: off_board,
                promotion: None,
            }),
            notation: None,
        },
        case(CLEAR_PATH, ROOK_CARRIES, moving("a4", "e4"), "Re4"),
        case(CAPTURE_CARRIER, ROOK_CARRIES, capturing("a4", "d4"), "Rxd4"),
        case(CARRIER_PASSES, KING_CARRIES, passing("d2", "d1"), "Rd2>d1"),
        case(
            PASS_TO_TEAM_MATE,
            KING_CARRIES,
            passing("d1", "e1"),
            "Kd1>e1",
        ),
        case(
            PROMOTION,
            "4k3/P7/8/8/8/8/8/3K4 play w d1 1:0 0-0 w -/-",
            moving("a7", "a8"),
            "a8",
        ),
        case(
            PROMOTION,
            "5k2/3P4/8/8/8/8/8/3K4 play w d7 1:0 0-0 w -/-",
            Action::Move {
                from: sq("d7"),
                to: sq("d8"),
                promotion: Some(Queen),
            },
            "d8=Q",
        ),
        case(
            WAIT_WHEN_STUCK,
            "4k3/8/8/8/8/8/8/K1n5 play w a1 1:0 0-0 w -/-",
            Action::Wait,
            "--",
        ),
        Case {
            rule: NAME_THE_ORIGIN,
            position: "4k3/8/8/8/R6R/8/8/3K4 play w d1 1:0 0-0 w -/-",
            typed: None,
            notation: Some("Rd4"),
        },
    ]
}

/// Checks a refusal: an illegal action, citing `rule` by its words.

#[test]
fn each_rule_refuses_an_action_that_breaks_it_and_changes_nothing() {
    for case in cases() {
        let game = at(case.position);
        let seat = game.turn().to_act[0];
        if let Some(action) = &case.typed {
            let what = format!("{action:?} in {}", case.position);
            assert!(
                !game.legal_actions(seat).contains(action),
                "{what} is legal"
            );
            let mut refusing = game.clone();
            let error = refusing.apply(seat, action).unwrap_err();
            assert_breaks(&error, case.rule);
            assert_eq!(refusing, game, "refusing {what} changed the state");
        }
        if let Some(text) = case.notation {
            let error = game.parse_action(seat, text).unwrap_err();
            assert_breaks(&error, case.rule);
        }
    }
}

#[test]
fn every_rule_has_a_case_and_a_unique_kebab_case_id() {
    let cases = cases();
    refusal_checks::assert_listed_and_covered::<KingsGoal>(
        RULES,
        cases.iter().map(|case| case.rule.id),
    );
}

#[test]
fn the_rules_page_explains_every_rule_by_its_id_and_words() {
    refusal_checks::assert_documented(include_str!("../../../../docs/rules/kings-goal.md"), RULES);
}

#[test]
fn a_seat_not_to_act_or_a_finished_match_is_refused_before_its_text_is_read() {
    let game = at(KICKOFF);
    for text in ["Re4>e1", "+Q", "Zz"] {
        let error = game.parse_action(BLACK, text).unwrap_err();
        assert_eq!(error.kind, RuleErrorKind::NotYourTurn, "{text}: {error}");
    }
    let mut game = KingsGoal::new(&spec(
        Some("5k2/8/8/2R5/8/8/8/3K4 play w c5 2:1 0-0 w -/-"),
        1,
    ))
    .unwrap();
    game.apply(WHITE, &moving("c5", "c8")).unwrap();
    let error = game.parse_action(BLACK, "+Q").unwrap_err();
    assert_eq!(error.kind, RuleErrorKind::GameOver);
}

/// A random square of the board.
fn any_square(rng: &mut Rng) -> Square {
    Square::new(1 + rng.below(8) as i8, 1 + rng.below(8) as i8)
}

/// Actions close to `action`, most of them illegal: another target, origin, kind or promotion,
/// or the same squares as another kind of action.
fn near_misses(action: &Action, rng: &mut Rng) -> Vec<Action> {
    let kind = *rng.pick(&PieceKind::ALL);
    let promotion = Some(kind).filter(|_| rng.below(3) > 0);
    let square = any_square(rng);
    match *action {
        Action::Choose(_) => vec![Action::Choose(kind)],
        Action::Place { kind: placed, .. } => vec![
            Action::Place {
                kind: placed,
                square,
            },
            Action::Place {
                kind,
                square: any_square(rng),
            },
        ],
        Action::Move { from, to, .. } | Action::Capture { from, to, .. } => vec![
            Action::Move {
                from,
                to: square,
                promotion: None,
            },
            Action::Move {
                from,
                to,
                promotion,
            },
            Action::Capture {
                from,
                to: square,
                promotion: None,
            },
            Action::Capture {
                from,
                to,
                promotion,
            },
            Action::Pass { from, to },
            Action::Move {
                from: any_square(rng),
                to,
                promotion: None,
            },
        ],
        Action::Pass { from, to } => vec![
            Action::Pass { from, to: square },
            Action::Pass {
                from: any_square(rng),
                to,
            },
            Action::Capture {
                from,
                to,
                promotion: None,
            },
            Action::Move {
                from,
                to,
                promotion: None,
            },
        ],
        Action::DefaultChoice | Action::DefaultPlacement | Action::Wait => Vec::new(),
    }
}

/// Whether the notation of `action` can be read back: its squares are on the board and its
/// promotion is one a pawn may take.
fn writable(action: &Action) -> bool {
    match *action {
        Action::Place { square, .. } => on_board(square),
        Action::Move {
            from,
            to,
            promotion,
        }
        | Action::Capture {
            from,
            to,
            promotion,
        } => {
            on_board(from)
                && on_board(to)
                && promotion.is_none_or(|p| PieceKind::PROMOTIONS.contains(&p))
        }
        Action::Pass { from, to } => on_board(from) && on_board(to),
        _ => true,
    }
}

/// Refuses `attempt` (not legal for `seat` now) typed and, where it can be written, in
/// notation: by a rule of this game, without changing the state. Its notation may read as
/// another, legal action (a knight's move written `Nd5` names whichever knight can go there).
fn assert_refused_by_a_rule(game: &mut KingsGoal, seat: Seat, legal: &[Action], attempt: &Action) {
    let before = game.clone();
    let what = format!("{attempt:?} in {}", game.position());
    let error = game.apply(seat, attempt).unwrap_err();
    assert_eq!(*game, before, "refusing {what} changed the state");
    assert_eq!(error.kind, RuleErrorKind::IllegalAction, "{what}: {error}");
    let rule = error
        .rule
        .unwrap_or_else(|| panic!("{what}: no rule in {error}"));
    assert!(RULES.contains(&rule), "{what}: {rule:?} is not listed");
    assert!(error.message.starts_with(rule.text), "{what}: {error}");
    // The engine cites it for any placement that leaves the hand unplaceable, on the grounds
    // that only the kicking side's kick-off piece can ever make a hand unplaceable.
    if rule == KICK_OFF_RECEIVER {
        assert_eq!(seat, game.kicking, "{what}: {error}");
    }
    if writable(attempt) {
        let text = game.format_action(seat, attempt);
        match game.parse_action(seat, &text) {
            Ok(parsed) => assert!(legal.contains(&parsed), "`{text}` read as {parsed:?}"),
            Err(error) => {
                assert_eq!(
                    error.kind,
                    RuleErrorKind::IllegalAction,
                    "`{text}`: {error}"
                );
                assert!(
                    error.rule.is_some_and(|r| RULES.contains(&r)),
                    "`{text}`: {error}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Along a random match: near misses of legal actions, actions legal a few states ago and
    /// actions of every phase are refused by a listed rule when not legal now; the seat not to
    /// act is told it is not its turn; a finished match refuses everything as over.
    #[test]
    fn actions_not_legal_now_are_refused_by_a_listed_rule(seed in any::<u64>()) {
        let setup = spec(None, 8);
        let mut rng = Rng::new(seed);
        let playout = random_playout(KingsGoal::new(&setup).unwrap(), &mut rng, 5_000);
        prop_assert!(playout.finished);
        let mut game = KingsGoal::new(&setup).unwrap();
        let mut earlier: Vec<Action> = Vec::new();
        for (seat, action) in &playout.log {
            let legal = game.legal_actions(*seat);
            let mut attempts = vec![
                Action::Wait,
                Action::DefaultChoice,
                Action::DefaultPlacement,
                Action::Choose(*rng.pick(&PieceKind::ALL)),
                Action::Place { kind: *rng.pick(&PieceKind::ALL), square: any_square(&mut rng) },
            ];
            for _ in 0..4 {
                attempts.extend(near_misses(rng.pick(&legal), &mut rng));
            }
            attempts.extend(earlier.iter().rev().take(12).cloned());
            for attempt in attempts.iter().filter(|a| !legal.contains(a)) {
                assert_refused_by_a_rule(&mut game, *seat, &legal, attempt);
            }
            let idle = seat.opponent();
            let before = game.clone();
            let error = game.apply(idle, action).unwrap_err();
            prop_assert_eq!(error.kind, RuleErrorKind::NotYourTurn);
            prop_assert_eq!(&game, &before);
            let text = game.format_action(*seat, action);
            prop_assert_eq!(
                game.parse_action(idle, &text).unwrap_err().kind,
                RuleErrorKind::NotYourTurn
            );
            for _ in 0..3 {
                earlier.push(rng.pick(&legal).clone());
            }
            game.apply(*seat, action).unwrap();
        }
        let before = game.clone();
        for attempt in earlier.iter().rev().take(12) {
            prop_assert_eq!(game.apply(WHITE, attempt).unwrap_err().kind, RuleErrorKind::GameOver);
        }
        prop_assert_eq!(game, before);
    }
}
