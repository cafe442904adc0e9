//! Every refusal names the rule it enforces: one case per rule, the rules page lists them all,
//! and along random play every action that is not legal is refused by a listed rule.

use crate::refusal_checks;
use std::collections::VecDeque;

use proptest::prelude::*;

use crate::game::{Game, Rule, RuleErrorKind, Seat};
use crate::geometry::Square;
use crate::rng::Rng;

use super::rules::*;
use super::tests::{
    new_game, new_game_seeded, pick_by_kind, position_game, position_game_with, short_match_options,
};
use super::{AWAY, Action, HOME, XFutebol};

/// A state, the seat to act in it, an action in notation, and the rule that refuses it.
struct Case {
    game: XFutebol,
    seat: Seat,
    action: &'static str,
    rule: Rule,
}

fn case(game: XFutebol, action: &'static str, rule: Rule) -> Case {
    let seat = game.to_act;
    Case {
        game,
        seat,
        action,
        rule,
    }
}

/// `game` after the actions, given in notation, each by the seat to act.
fn after(mut game: XFutebol, actions: &[&str]) -> XFutebol {
    for text in actions {
        let seat = game.to_act;
        let action = game.parse_action(seat, text).expect("a legal action");
        game.apply(seat, &action).expect("a legal action");
    }
    game
}

/// Home has chosen the 5-3-2 formation and named the listed specials.
fn lineup(actions: &[&str]) -> XFutebol {
    let mut all = vec!["formation 5-3-2"];
    all.extend_from_slice(actions);
    after(new_game(&[], &[]), &all)
}

/// Away has just fouled in its own penalty area: home picks its penalty taker.
fn penalty_phase() -> XFutebol {
    after(position_game("Ae14", "Kd16,De15", "e14", "a"), &["e15-e14"])
}

/// Away's fourth foul: it picks the piece its red card removes.
fn send_off_phase() -> XFutebol {
    let mut game = position_game_with(
        &[("min_pieces", 1)],
        &[],
        "Ae12,Ma1",
        "Kd16,De13,Dh16",
        "e12",
        "a",
    );
    game.fouls = [0, 3];
    after(game, &["e13-e12"])
}

/// Home's piece on `fouled` was just fouled by away's piece on `fouler`, outside the area.
fn free_kick_due(home: &str, away: &str, fouled: &'static str, fouler: &str) -> XFutebol {
    let game = position_game(home, away, fouled, "a");
    after(game, &[&format!("{fouler}-{fouled}")])
}

fn cases() -> Vec<Case> {
    vec![
        case(new_game(&[], &[]), "c8-c9", PHASE_ACTIONS),
        case(penalty_phase(), "e14-e13", PHASE_ACTIONS),
        case(send_off_phase(), "penalty h16", PHASE_ACTIONS),
        case(position_game("Ac8", "Dc10", "c8", "h"), "c10-c9", OWN_PIECE),
        case(position_game("Ac8", "", "c8", "h"), "e5-e6", OWN_PIECE),
        case(penalty_phase(), "penalty d16", OWN_PIECE),
        case(send_off_phase(), "sendoff e12", OWN_PIECE),
        case(new_game(&[], &[]), "c2=L", FORMATION_FIRST),
        case(new_game(&[], &[]), "confirm", FORMATION_FIRST),
        case(lineup(&[]), "default", FORMATION_ONCE),
        case(lineup(&[]), "d1=L", SPECIAL_PLAIN_OUTFIELDER),
        case(lineup(&["b2=R"]), "b2=G", SPECIAL_PLAIN_OUTFIELDER),
        case(lineup(&["b2=R", "c3=R"]), "f3=R", TWO_OF_EACH_SPECIAL),
        case(lineup(&["b2=R"]), "confirm", TWO_OF_EACH_SPECIAL),
        case(lineup(&["place b2-a8"]), "place a8-a7", PLACE_ONCE),
        case(lineup(&[]), "place b2-b9", LINEUP_SQUARE),
        case(lineup(&[]), "place d1-d3", LINEUP_SQUARE),
        case(lineup(&[]), "place b2-c3", LINEUP_SQUARE),
        case(
            after(position_game("Mc5,Md5", "", "c5", "h"), &["pass c5-d5"]),
            "pass d5-c5",
            TURN_NEEDS_A_MOVE,
        ),
        case(
            position_game("Mc5,Md5", "", "c5", "h"),
            "end",
            END_AFTER_MOVE,
        ),
        case(
            after(position_game("Mc5,Md5", "", "c5", "h"), &["pass c5-d5"]),
            "end",
            END_AFTER_MOVE,
        ),
        case(position_game("Ac8", "", "c8", "h"), "c8-d9", MOVE_PATTERN),
        case(position_game("Ac8", "", "c8", "h"), "c8-c11", MOVE_PATTERN),
        case(
            position_game("Ac8,Dc9", "", "c8", "h"),
            "c8-c10",
            MOVE_BLOCKED,
        ),
        case(
            position_game("Ac8,Dc9", "", "c8", "h"),
            "c8-c9",
            MOVE_BLOCKED,
        ),
        case(
            position_game("Ac4,Ma1", "", "a1", "h"),
            "sprint c4-c9",
            SPRINT_PATTERN,
        ),
        case(
            position_game("Ac4,Ma1", "Dc6", "a1", "h"),
            "sprint c4-c8",
            SPRINT_FREE,
        ),
        case(
            position_game("Ac4,Ma1", "Dc6", "a1", "h"),
            "sprint c4-c6",
            SPRINT_FREE,
        ),
        case(
            position_game("Ad14", "Kb16", "d14", "h"),
            "d14-d16",
            GOALS_BY_KICKS,
        ),
        case(
            position_game("Ad14", "Kb16", "d14", "h"),
            "pass d14-d16",
            GOALS_BY_KICKS,
        ),
        case(
            position_game("Ad15", "Kb16,De14", "d15", "h"),
            "dribble d15-e16",
            GOALS_BY_KICKS,
        ),
        case(
            position_game("Ac8,Mc5", "", "c5", "h"),
            "pass c8-c10",
            BALL_HOLDER,
        ),
        case(
            position_game("Ac4", "", "c4", "h"),
            "pass c4-d5",
            PASS_RANGE,
        ),
        case(
            position_game("Ac4", "Dc6", "c4", "h"),
            "pass c4-c6",
            PASS_TARGET,
        ),
        case(
            position_game("Ac4,Ac6", "", "c4", "h"),
            "pass c4-c7",
            LINE_OF_SIGHT,
        ),
        case(
            position_game("Ae13,Me14", "Kd16", "e13", "h"),
            "shoot e13-e16",
            LINE_OF_SIGHT,
        ),
        case(
            position_game("Mc4", "", "c4", "h"),
            "long c4-c6",
            LONG_EXPERTS_ONLY,
        ),
        case(
            position_game("Ae10", "Kd16", "e10", "h"),
            "longshoot e10-e11-d16",
            LONG_EXPERTS_ONLY,
        ),
        case(
            position_game("LMc4", "", "c4", "h"),
            "long c4-g4",
            LONG_PASS_RANGE,
        ),
        case(
            position_game("LMc4", "", "c4", "h"),
            "long c4-e4-e6",
            LONG_PASS_RANGE,
        ),
        case(
            position_game("LMc4", "Dc6", "c4", "h"),
            "long c4-c7",
            LONG_PATH_CLEAR,
        ),
        case(
            position_game("LAe10", "Kd16,De12", "e10", "h"),
            "longshoot e10-e13-d16",
            LONG_PATH_CLEAR,
        ),
        case(
            position_game("LAe10", "Kd16", "e10", "h"),
            "longshoot e10-e12-e16",
            CURVE_MUST_BEND,
        ),
        case(
            position_game("LMc4", "", "c4", "h"),
            "long c4-c5-c7",
            CURVE_MUST_BEND,
        ),
        case(
            position_game("Rc4", "Dc7", "c4", "h"),
            "dribble c4-d5",
            DRIBBLE_NEEDS_OPPONENT,
        ),
        case(
            position_game("Rc4", "Dc5", "c4", "h"),
            "dribble c4-c6",
            DRIBBLE_STEP,
        ),
        case(
            position_game("Ac8", "Dc10", "c8", "a"),
            "challenge c10-c8",
            CHALLENGE_TARGET,
        ),
        case(
            position_game("Ac8", "Dc9", "c9", "a"),
            "challenge c9-c8",
            CHALLENGE_TARGET,
        ),
        case(
            position_game("Ae13", "Kd16", "e13", "h"),
            "shoot e13-f16",
            SHOOT_AT_GOAL,
        ),
        case(
            position_game("Ae11", "Kd16", "e11", "h"),
            "shoot e11-e16",
            SHOT_RANGE,
        ),
        case(
            position_game("Me12", "Kd16", "e12", "h"),
            "longshoot e12-e16",
            LONG_SHOT_RANGE,
        ),
        case(
            position_game_with(
                &[],
                &[("long_shoot_by", "long_experts")],
                "Ae10",
                "Kd16",
                "e10",
                "h",
            ),
            "longshoot e10-e16",
            LONG_SHOOT_BY,
        ),
        case(
            position_game("Ae12", "Kd16", "e12", "h"),
            "freekick e12-e16",
            FREE_KICK_TAKER,
        ),
        // Further ways to break some rules, each diagnosed on its own path.
        case(
            position_game("Ae8~2,Ma1", "Mh16", "a1", "h"),
            "e8-e9",
            OWN_PIECE,
        ),
        case(position_game("", "Ac9", "c9", "a"), "c9-c11", MOVE_PATTERN),
        case(
            position_game("Ad12", "Kb16", "d12", "h"),
            "sprint d12-d16",
            GOALS_BY_KICKS,
        ),
        case(
            position_game("LAd12", "Kb16", "d12", "h"),
            "long d12-d16",
            GOALS_BY_KICKS,
        ),
        case(
            position_game("Ac8", "Dc10", "c10", "h"),
            "pass c8-c9",
            BALL_HOLDER,
        ),
        case(
            position_game("Ac8", "", "c12", "h"),
            "shoot c8-d16",
            BALL_HOLDER,
        ),
        case(
            position_game("LMc4", "Dc6", "c4", "h"),
            "long c4-c6",
            PASS_TARGET,
        ),
        case(
            position_game("LAc4", "", "c4", "h"),
            "long c4-d5-d7",
            LONG_PASS_RANGE,
        ),
        case(
            position_game("LMc4", "", "c4", "h"),
            "long c4-c5-d6",
            LONG_PASS_RANGE,
        ),
        case(
            position_game("LMc4", "Dd5", "c4", "h"),
            "long c4-d4-d6",
            LONG_PATH_CLEAR,
        ),
        case(
            position_game("LMc4", "Dd4", "c4", "h"),
            "long c4-d4-d6",
            LONG_PATH_CLEAR,
        ),
        case(
            position_game("LAe13", "Kd16", "e13", "h"),
            "longshoot e13-e12-e16",
            CURVE_MUST_BEND,
        ),
        case(
            position_game("LAe10", "Kd16", "e10", "h"),
            "longshoot e10-f10-d16",
            LONG_SHOT_RANGE,
        ),
        case(
            position_game("LAe10", "Kd16", "e10", "h"),
            "longshoot e10-f11-d16",
            LONG_SHOT_RANGE,
        ),
        case(
            position_game("Rc4", "Dc5", "c4", "h"),
            "dribble c4-c5",
            DRIBBLE_STEP,
        ),
        case(
            position_game("Ac8", "Dc10", "c12", "a"),
            "challenge c10-c11",
            CHALLENGE_TARGET,
        ),
        case(
            position_game("Ac8,Ab8", "Dc9", "c8", "a"),
            "challenge c9-b8",
            CHALLENGE_TARGET,
        ),
        case(
            free_kick_due("Ae12,Ac13", "Kd16,De13", "e12", "e13"),
            "freekick c13-d16",
            FREE_KICK_TAKER,
        ),
        case(
            free_kick_due("Ae11", "Kd16,De12", "e11", "e12"),
            "freekick e11-e16",
            SHOT_RANGE,
        ),
    ]
}

#[test]
fn each_case_is_refused_by_its_rule_through_apply_and_notation() {
    for Case {
        game,
        seat,
        action: text,
        rule,
    } in cases()
    {
        let action: Action = text.parse().expect("readable notation");
        let mut copy = game.clone();
        let refusal = copy.apply(seat, &action).expect_err(text);
        assert_eq!(refusal.kind, RuleErrorKind::IllegalAction, "{text}");
        assert_eq!(
            refusal.rule.map(|r| r.id),
            Some(rule.id),
            "`{text}`: {}",
            refusal.message
        );
        assert!(
            refusal
                .message
                .starts_with(&format!("{}: `{text}`", rule.text)),
            "{}",
            refusal.message
        );
        assert!(
            refusal.message.contains("legal now: "),
            "{}",
            refusal.message
        );
        assert_eq!(copy, game, "`{text}` changed the state");
        assert_eq!(game.parse_action(seat, text), Err(refusal), "{text}");
    }
}

/// The rules page's Refusals table has one row per rule: its id, then its text.
#[test]
fn every_rule_has_a_case_and_a_unique_kebab_case_id() {
    let cases = cases();
    refusal_checks::assert_listed_and_covered::<XFutebol>(
        XFutebol::rules(),
        cases.iter().map(|case| case.rule.id),
    );
}

#[test]
fn the_rules_page_explains_every_rule_by_its_id_and_words() {
    refusal_checks::assert_documented(
        include_str!("../../../../docs/rules/xfutebol.md"),
        XFutebol::rules(),
    );
}

/// What a bot might send that is not legal now: actions legal a few states ago for either
/// seat, the other seat's actions, and legal actions with a square moved or the kind changed.
fn candidates(legal: &[Action], recent: &VecDeque<Vec<Action>>, rng: &mut Rng) -> Vec<Action> {
    let mut found: Vec<Action> = recent
        .iter()
        .filter(|list| !list.is_empty())
        .map(|list| rng.pick(list).clone())
        .collect();
    if !legal.is_empty() {
        for _ in 0..6 {
            let text = pick_by_kind(legal, rng).notation();
            found.push(
                perturbed(&text, rng)
                    .parse()
                    .expect("perturbed notation reads"),
            );
        }
    }
    found
}

/// The notation with one square moved (usually the last, the target, and usually by a few
/// squares, so the action stays near legal) and, for a movement between two squares, sometimes
/// under another movement's word.
fn perturbed(text: &str, rng: &mut Rng) -> String {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&i| {
            (b'a'..=b'h').contains(&bytes[i])
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
                && (i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'-')
        })
        .collect();
    let mut text = text.to_owned();
    if let Some(&last) = starts.last() {
        let start = if rng.below(4) == 0 {
            *rng.pick(&starts)
        } else {
            last
        };
        let end = (start + 1..text.len())
            .find(|&i| !text.as_bytes()[i].is_ascii_digit())
            .unwrap_or(text.len());
        let old = Square::parse(&text[start..end]).expect("a square name");
        let shift = |rng: &mut Rng| rng.below(7) as i8 - 3;
        let square = if rng.below(4) == 0 {
            Square::new(1 + rng.below(8) as i8, 1 + rng.below(16) as i8)
        } else {
            let moved = old.offset(shift(rng), shift(rng));
            Square::new(moved.file.clamp(1, 8), moved.rank.clamp(1, 16))
        };
        text.replace_range(start..end, &square.name());
    }
    let squares: Vec<&str> = text.rsplit(' ').next().unwrap_or("").split('-').collect();
    if squares.len() == 2 && rng.below(3) == 0 {
        let words = [
            "",
            "sprint ",
            "pass ",
            "long ",
            "dribble ",
            "challenge ",
            "shoot ",
            "longshoot ",
            "freekick ",
        ];
        text = format!("{}{}-{}", rng.pick(&words), squares[0], squares[1]);
    }
    text
}

/// Plays a kind-balanced random match and, at every state, sends what is not legal: each must
/// be refused, by a listed rule when it is the seat's turn, and change nothing.
fn refusals_along_a_match(ints: &[(&str, i64)], texts: &[(&str, &str)], seed: u64) {
    let mut game = new_game_seeded(ints, texts, seed);
    let mut rng = Rng::new(seed ^ 0x7e5);
    let mut recent: VecDeque<Vec<Action>> = VecDeque::new();
    let mut played = 0;
    while game.outcome().is_none() && played < 600 {
        let seat = game.to_act;
        let legal = game.legal_actions(seat);
        for action in candidates(&legal, &recent, &mut rng) {
            if legal.contains(&action) {
                continue;
            }
            let before = game.clone();
            let refusal = game.apply(seat, &action).expect_err("not legal");
            assert_eq!(game, before, "refusing `{action}` changed the state");
            assert_eq!(refusal.kind, RuleErrorKind::IllegalAction, "{refusal}");
            let rule = refusal.rule.expect("an illegal action names its rule");
            assert!(
                XFutebol::rules().contains(&rule),
                "{} is not listed",
                rule.id
            );
            assert!(refusal.message.starts_with(rule.text), "{refusal}");
            assert_eq!(game.parse_action(seat, &action.notation()), Err(refusal));
        }
        if let Some(action) = legal.first() {
            let idle = seat.opponent();
            let before = game.clone();
            let refusal = game.apply(idle, action).expect_err("out of turn");
            assert_eq!(game, before, "refusing the idle seat changed the state");
            assert_eq!(refusal.kind, RuleErrorKind::NotYourTurn);
            let parsed = game.parse_action(idle, &action.notation()).unwrap_err();
            assert_eq!(parsed.kind, RuleErrorKind::NotYourTurn);
        }
        // Actions legal a moment ago, often the other seat's.
        recent.push_back(legal.clone());
        if recent.len() > 6 {
            recent.pop_front();
        }
        let action = pick_by_kind(&legal, &mut rng);
        game.apply(seat, &action).expect("a legal action");
        played += 1;
    }
    if game.outcome().is_some() {
        for seat in [HOME, AWAY] {
            let refusal = game.clone().apply(seat, &Action::EndTurn).unwrap_err();
            assert_eq!(refusal.kind, RuleErrorKind::GameOver);
            let parsed = game.parse_action(seat, "end").unwrap_err();
            assert_eq!(parsed.kind, RuleErrorKind::GameOver);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn actions_that_are_not_legal_are_refused_by_a_listed_rule(
        seed in any::<u64>(),
        style in 0usize..4,
        text_rules in any::<bool>(),
    ) {
        let (ints, texts) = short_match_options(style, text_rules);
        refusals_along_a_match(&ints, &texts, seed);
    }
}
