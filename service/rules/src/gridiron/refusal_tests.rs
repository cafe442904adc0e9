//! Every refusal names the rule it enforces: one case per rule in [`RULES`], the rules page
//! explains every id, and along random matches every action that is not legal is refused with
//! a rule of the game (or as not the seat's turn, or as too late) and changes nothing.

use crate::refusal_checks::{self, assert_breaks};
use std::collections::VecDeque;

use proptest::prelude::*;

use super::field::{AWAY, HOME, Location, Spot};
use super::roster::{Ability, Kind};
use super::rules::{self, RULES};
use super::tests::{BASE, act, base_with, commit_all, snap_from, spec, throw, with_position};
use super::{Action, Event, Gridiron, MAX_ORDER_ITEMS, notation};
use crate::game::{Game, Rule, RuleError, RuleErrorKind, Seat};
use crate::geometry::Square;
use crate::rng::Rng;

/// A state, and an action of `seat` in it that breaks exactly `rule`.
struct Case {
    rule: Rule,
    game: Gridiron,
    seat: Seat,
    action: Action,
}

fn case(rule: Rule, game: Gridiron, seat: Seat, text: &str) -> Case {
    let action = notation::parse_action(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Case {
        rule,
        game,
        seat,
        action,
    }
}

/// A new match in the roster phase after home's `picks`.
fn roster_after(picks: &[&str]) -> Gridiron {
    let mut game = Gridiron::new(&spec(1, &[])).unwrap();
    for pick in picks {
        act(&mut game, HOME, pick);
    }
    game
}

/// `position` at the snap after home wrote `orders`.
fn snap_after(position: &str, orders: &[&str]) -> Gridiron {
    let mut game = snap_from(position);
    for order in orders {
        act(&mut game, HOME, order);
    }
    game
}

/// Home has a scrambler captain (#0, on d8) and a qb (#1, on h8) that holds the ball.
fn with_scrambler() -> String {
    base_with(&[("Bd2.c", "Xd8.c")])
}

/// Home's reaction turn after its scrambler completed a pass to its qb at the snap.
fn after_a_completed_pass() -> Gridiron {
    let position = base_with(&[("Bd2.c", "Xd8.c"), ("home 1 10 14 1", "home 1 10 14 0")]);
    (1..40)
        .map(|seed| throw(&position, seed, "#0 pass #1"))
        .find(|(game, events)| {
            game.turn().phase == "reaction"
                && events
                    .iter()
                    .any(|e| matches!(e, Event::PassCompleted { receiver: 1, .. }))
        })
        .expect("some seed completes the pass")
        .0
}

/// Home's reaction turn after away chop-blocked home's heavy #2 at the snap.
fn after_a_chop_block() -> Gridiron {
    let mut game = snap_from(BASE);
    act(&mut game, AWAY, "#9 chop #2");
    commit_all(&mut game);
    game
}

/// Home's reaction turn after its heavy #2 used its chop block at the snap.
fn after_using_chop_block() -> Gridiron {
    let mut game = snap_after(BASE, &["#2 chop #9"]);
    commit_all(&mut game);
    game
}

/// Five team-mates boost heavy #2 six times (lineman #0 chips and anchors it), so that #2 can
/// pay for eight spot changes, the most items one piece may write.
fn with_a_full_order() -> Gridiron {
    let position = base_with(&[("Bd2.c", "Lh10.c"), ("Fb10.c", "Hj10.c")]);
    let orders = [
        "#0 chip #2",
        "#0 anchor #2",
        "#3 chip #2",
        "#4 chip #2",
        "#5 chip #2",
        "#6 chip #2",
        "#2 g10.nw",
        "#2 g10.ne",
        "#2 g10.c",
        "#2 g10.sw",
        "#2 g10.se",
        "#2 g10.c",
        "#2 g10.nw",
        "#2 g10.ne",
    ];
    snap_after(&position, &orders)
}

fn cases() -> Vec<Case> {
    let formation = || with_position(BASE);
    let snap = || snap_from(BASE);
    vec![
        case(
            rules::CAPTAIN_KIND,
            roster_after(&[]),
            HOME,
            "captain heavy",
        ),
        case(
            rules::ONE_CAPTAIN,
            roster_after(&["captain safety"]),
            HOME,
            "captain rusher",
        ),
        case(
            rules::STANDARD_KIND,
            roster_after(&[]),
            HOME,
            "recruit safety",
        ),
        case(
            rules::SIX_STANDARD,
            roster_after(&[
                "recruit qb",
                "recruit heavy",
                "recruit heavy",
                "recruit strong",
                "recruit strong",
                "recruit fast",
            ]),
            HOME,
            "recruit fast",
        ),
        case(
            rules::STANDARD_KIND_LIMIT,
            roster_after(&["recruit qb"]),
            HOME,
            "recruit qb",
        ),
        case(
            rules::PASSER_REQUIRED,
            roster_after(&[
                "captain lineman",
                "recruit heavy",
                "recruit heavy",
                "recruit strong",
                "recruit strong",
                "recruit fast",
            ]),
            HOME,
            "recruit fast",
        ),
        case(
            rules::DEFAULT_ROSTER_WHEN_EMPTY,
            roster_after(&["recruit heavy"]),
            HOME,
            "roster default",
        ),
        case(
            rules::ROSTER_COMPLETE,
            roster_after(&["captain safety"]),
            HOME,
            "roster done",
        ),
        case(rules::PHASE_ACTIONS, roster_after(&[]), HOME, "commit"),
        case(rules::OWN_PIECES, formation(), HOME, "place #9 g7.c"),
        case(
            rules::ONE_PLACEMENT,
            {
                let mut game = formation();
                act(&mut game, HOME, "place #2 g6.nw");
                game
            },
            HOME,
            "place #2 g7.c",
        ),
        case(rules::FORMATION_AREA, formation(), HOME, "place #2 g12.nw"),
        case(rules::FREE_SPOT, formation(), HOME, "place #2 i10.c"),
        case(rules::CHOPPED, after_a_chop_block(), HOME, "#2 g9.c"),
        case(
            rules::ORDER_ENDED,
            snap_after(BASE, &["#3 push #10"]),
            HOME,
            "#3 i9.c",
        ),
        case(
            rules::ITEMS_PER_PIECE,
            with_a_full_order(),
            HOME,
            "#2 chop #9",
        ),
        case(rules::KING_STEP, snap(), HOME, "#3 i12.c"),
        Case {
            rule: rules::ON_FIELD,
            game: snap_from(&base_with(&[("Fb10.c", "Fa10.c")])),
            seat: HOME,
            action: Action::Move {
                piece: 6,
                to: Location::new(Square::new(0, 10), Spot::C),
            },
        },
        case(
            rules::MOVEMENT_POINTS,
            snap_after(BASE, &["#1 h9.c"]),
            HOME,
            "#1 h10.c",
        ),
        case(rules::OWN_ABILITIES, snap(), HOME, "#6 push #9"),
        case(
            rules::ONCE_PER_ORDER,
            snap_after(BASE, &["#4 chip #2"]),
            HOME,
            "#4 chip #2",
        ),
        case(
            rules::ONCE_PER_SERIES,
            after_using_chop_block(),
            HOME,
            "#2 chop #9",
        ),
        case(rules::ABILITY_TARGET, snap(), HOME, "#3 push #2"),
        case(rules::PASSERS, snap(), HOME, "#6 pass #1"),
        case(
            rules::ONE_PASS_PER_DOWN,
            after_a_completed_pass(),
            HOME,
            "#1 pass #6",
        ),
        case(
            rules::BALL_HOLDER,
            snap_from(&with_scrambler()),
            HOME,
            "#0 pass #6",
        ),
        case(
            rules::QB_PASSES_STANDING,
            snap_after(BASE, &["#1 h9.c"]),
            HOME,
            "#1 pass #6",
        ),
        case(rules::ELIGIBLE_RECEIVER, snap(), HOME, "#1 pass #2"),
        case(rules::FAKE_PARTNER, snap(), HOME, "#1 fake #2 keep #1"),
        case(rules::FAKE_KEEPER, snap(), HOME, "#1 fake #6 keep #4"),
    ]
}

/// Applies a refused action to a copy and checks that the copy did not change.
fn refusal(game: &Gridiron, seat: Seat, action: &Action) -> RuleError {
    let mut copy = game.clone();
    let refusal = copy
        .apply(seat, action)
        .expect_err("the action was accepted");
    assert_eq!(&copy, game, "refusing {action:?} changed the state");
    refusal
}

#[test]
fn each_rule_refuses_an_action_that_breaks_it_and_names_it() {
    let mut unwritable = Vec::new();
    for case in cases() {
        let Case {
            rule,
            game,
            seat,
            action,
        } = &case;
        assert!(!game.legal_actions(*seat).contains(action), "{action:?}");
        assert_breaks(&refusal(game, *seat, action), *rule);
        let text = notation::format_action(action);
        if notation::parse_action(&text).as_ref() == Ok(action) {
            let parsed = game.parse_action(*seat, &text).unwrap_err();
            assert_breaks(&parsed, *rule);
        } else {
            unwritable.push(rule.id);
        }
    }
    // Notation cannot name a square off the field; every other case is written too.
    assert_eq!(unwritable, [rules::ON_FIELD.id]);
    assert!(
        rules::ITEMS_PER_PIECE
            .text
            .contains(&MAX_ORDER_ITEMS.to_string())
    );
}

#[test]
fn every_rule_has_a_case_and_a_unique_kebab_case_id() {
    let cases = cases();
    refusal_checks::assert_listed_and_covered::<Gridiron>(
        RULES,
        cases.iter().map(|case| case.rule.id),
    );
}

#[test]
fn the_rules_page_explains_every_rule_by_its_id_and_words() {
    refusal_checks::assert_documented(include_str!("../../../../docs/rules/gridiron.md"), RULES);
}

// ---------------------------------------------------------------- random play

/// An action like `action` with one part changed at random: another piece, place, ability,
/// target, kind, or another action without parts.
fn perturbed(action: &Action, rng: &mut Rng) -> Action {
    let piece = |rng: &mut Rng| rng.below(16) as u32;
    let place = |rng: &mut Rng, at: Location| {
        let square = at
            .square
            .offset(rng.below(5) as i8 - 2, rng.below(5) as i8 - 2);
        Location::new(square, *rng.pick(&Spot::ALL))
    };
    let mut changed = action.clone();
    match &mut changed {
        Action::Captain(kind) | Action::Recruit(kind) => *kind = *rng.pick(&Kind::ALL),
        Action::Place { piece: id, to } | Action::Move { piece: id, to } => {
            if rng.below(2) == 0 {
                *id = piece(rng);
            } else {
                *to = place(rng, *to);
            }
        }
        Action::Use {
            piece: id,
            ability,
            target,
        } => match rng.below(3) {
            0 => *id = piece(rng),
            1 => *ability = *rng.pick(&Ability::ALL),
            _ => *target = (rng.below(4) > 0).then(|| piece(rng)),
        },
        Action::Pass {
            piece: id,
            receiver,
        } => {
            *(if rng.below(2) == 0 { id } else { receiver }) = piece(rng);
        }
        Action::Fake {
            piece: id,
            partner,
            keeper,
        } => {
            *[id, partner, keeper][rng.below(3) as usize] = piece(rng);
        }
        Action::DefaultRoster
        | Action::CommitRoster
        | Action::GoForIt
        | Action::Punt
        | Action::Ready
        | Action::Commit => {
            changed = rng
                .pick(&[
                    Action::DefaultRoster,
                    Action::CommitRoster,
                    Action::GoForIt,
                    Action::Punt,
                    Action::Ready,
                    Action::Commit,
                ])
                .clone();
        }
    }
    changed
}

/// Tries `action` for `seat`, whose legal actions are `legal`; when it is not one of them, checks the refusal: it names a rule of the
/// game when the seat is to act, says whose turn it is otherwise, or that the game is over;
/// notation that names the same action is refused the same way.
fn check_refusal(game: &Gridiron, seat: Seat, legal: &[Action], action: &Action) {
    if legal.contains(action) {
        return;
    }
    let refusal = refusal(game, seat, action);
    let expected = if game.outcome().is_some() {
        RuleErrorKind::GameOver
    } else if game.turn().is_to_act(seat) {
        RuleErrorKind::IllegalAction
    } else {
        RuleErrorKind::NotYourTurn
    };
    assert_eq!(refusal.kind, expected, "{action:?}: {refusal}");
    if expected == RuleErrorKind::IllegalAction {
        let rule = refusal.rule.expect("an illegal action names its rule");
        assert!(RULES.contains(&rule), "{rule:?}");
        assert_breaks(&refusal, rule);
    }
    let text = notation::format_action(action);
    if notation::parse_action(&text).as_ref() == Ok(action) {
        assert_eq!(game.parse_action(seat, &text), Err(refusal));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Along random matches, for both seats: the other seat's legal actions, actions legal a
    /// few states ago and legal actions with one part changed are refused as they should be.
    #[test]
    fn actions_that_are_not_legal_are_refused_with_their_rule(
        seed in any::<u64>(),
        walk in any::<u64>(),
    ) {
        let mut game = Gridiron::new(&spec(seed, &[("possessions_per_half", 1), ("turns_per_down", 3)])).unwrap();
        let mut rng = Rng::new(walk);
        let mut earlier: VecDeque<Vec<Action>> = VecDeque::new();
        for _ in 0..600 {
            let turn = game.turn();
            let legal = [HOME, AWAY].map(|seat| game.legal_actions(seat));
            for seat in [HOME, AWAY] {
                let (mine, theirs) = (&legal[seat.index()], &legal[seat.opponent().index()]);
                let mut tried: Vec<Action> = Vec::new();
                if !theirs.is_empty() {
                    tried.extend((0..6).map(|_| rng.pick(theirs).clone()));
                }
                for list in &earlier {
                    tried.extend(list.iter().take(2).cloned());
                    if !list.is_empty() {
                        tried.push(rng.pick(list).clone());
                    }
                }
                if !mine.is_empty() {
                    tried.extend((0..6).map(|_| perturbed(rng.pick(mine), &mut rng)));
                }
                for action in &tried {
                    check_refusal(&game, seat, mine, action);
                }
            }
            let Some(&seat) = turn.to_act.first() else {
                break;
            };
            let legal = legal.into_iter().nth(seat.index()).expect("two seats");
            let action = match legal.iter().find(|a| matches!(a, Action::Commit | Action::Ready)) {
                Some(end) if rng.below(4) == 0 => end.clone(),
                _ => rng.pick(&legal).clone(),
            };
            earlier.push_back(legal);
            if earlier.len() > 4 {
                earlier.pop_front();
            }
            game.apply(seat, &action).unwrap();
        }
        if game.outcome().is_some() {
            for list in &earlier {
                for action in list {
                    check_refusal(&game, HOME, &[], action);
                }
            }
        }
    }
}
