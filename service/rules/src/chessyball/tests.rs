use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;

use super::notation::format_board;
use super::pitch::Pitch;
use super::*;
use crate::game::{RuleErrorKind, start};
use crate::options::{OptionKind, OptionValue};
use crate::playout::checked_random_playout;

const STANDARD: Pitch = Pitch {
    files: 18,
    ranks: 11,
};

pub(super) fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

pub(super) fn text(value: &str) -> OptionValue {
    OptionValue::Text(value.to_owned())
}

fn options(given: &[(&str, OptionValue)]) -> BTreeMap<String, OptionValue> {
    given
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect()
}

pub(super) fn game_with(
    given: &[(&str, OptionValue)],
    seed: u64,
    position: Option<String>,
) -> Chessyball {
    start::<Chessyball>(&options(given), crate::Seed::from_number(seed), position).unwrap()
}

/// A standard-board position from `(square, symbol)` pairs and the side to move.
fn position(cells: &[(&str, char)], side: &str) -> String {
    let map: HashMap<Square, char> = cells.iter().map(|&(name, c)| (sq(name), c)).collect();
    format!(
        "{} {side}",
        format_board(STANDARD, |s| map.get(&s).copied())
    )
}

pub(super) fn custom(
    cells: &[(&str, char)],
    side: &str,
    given: &[(&str, OptionValue)],
) -> Chessyball {
    game_with(given, 7, Some(position(cells, side)))
}

pub(super) fn mv(from: &str, to: &str) -> Action {
    Action::Move {
        from: sq(from),
        to: sq(to),
    }
}

pub(super) fn play(game: &mut Chessyball, seat: Seat, action: &Action) -> Vec<Event> {
    game.apply(seat, action)
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
        .into_iter()
        .map(|emitted| emitted.event)
        .collect()
}

fn destinations_of(game: &Chessyball, from: &str) -> Vec<String> {
    let mut out: Vec<String> = game
        .legal_actions(game.turn().to_act[0])
        .into_iter()
        .filter_map(|action| match action {
            Action::Move { from: f, to } if f == sq(from) => Some(to.to_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    out.sort();
    out
}

/// Home to move with one action (the match's first turn); the away keeper and a far-away away
/// member only make the teams legal.
pub(super) fn with_ball(
    ball: &'static str,
    extra: &[(&'static str, char)],
) -> Vec<(&'static str, char)> {
    let mut cells = vec![("b6", 'K'), ("q8", 'k'), ("r11", 'm'), (ball, 'o')];
    cells.extend_from_slice(extra);
    cells
}

// ---------------------------------------------------------------- the pitch and the start

#[test]
fn zones_match_the_reconstruction() {
    let game = game_with(&[], 1, None);
    let view = game.board(Viewer::Spectator);
    assert_eq!((view.files, view.ranks), (18, 11));
    let zone = |kind, owner| {
        let mut names: Vec<String> = view
            .zones
            .iter()
            .find(|z| z.kind == kind && z.owner == owner)
            .unwrap()
            .squares
            .iter()
            .map(Square::to_string)
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        zone(ZoneKind::Goal, Some(HOME)),
        sorted(&["a5", "a6", "a7"])
    );
    assert_eq!(
        zone(ZoneKind::Goal, Some(AWAY)),
        sorted(&["r5", "r6", "r7"])
    );
    let home_box: Vec<String> = ["b", "c"]
        .iter()
        .flat_map(|f| (4..=8).map(move |r| format!("{f}{r}")))
        .collect();
    let mut home_box_sorted = home_box.clone();
    home_box_sorted.sort();
    assert_eq!(zone(ZoneKind::KeeperBox, Some(HOME)), home_box_sorted);
    let away_box: Vec<String> = ["p", "q"]
        .iter()
        .flat_map(|f| (4..=8).map(move |r| format!("{f}{r}")))
        .collect();
    let mut away_box_sorted = away_box.clone();
    away_box_sorted.sort();
    assert_eq!(zone(ZoneKind::KeeperBox, Some(AWAY)), away_box_sorted);
    let inner = zone(ZoneKind::InnerArea, None);
    assert_eq!(inner.len(), 16 * 9);
    assert!(inner.contains(&"b2".to_owned()) && inner.contains(&"q10".to_owned()));
    assert!(!inner.contains(&"a6".to_owned()) && !inner.contains(&"h11".to_owned()));
}

#[test]
fn default_formation_is_a_mirrored_four_four_two() {
    let game = game_with(&[("ball_start", text("home_side"))], 1, None);
    assert_eq!(
        game.position().split(' ').next().unwrap(),
        "18/5M6m5/3M10m3/5M1M2m1m5/3M10m3/1K6o7k1/3M10m3/5M1M2m1m5/3M10m3/5M6m5/18"
    );
    let view = game.board(Viewer::Spectator);
    assert_eq!(view.pieces.len(), 22);
    for seat in [HOME, AWAY] {
        let team: Vec<_> = view.pieces.iter().filter(|p| p.owner == seat).collect();
        assert_eq!(team.len(), 11);
        let keepers: Vec<_> = team.iter().filter(|p| p.kind == "keeper").collect();
        assert_eq!(keepers.len(), 1);
        assert_eq!(STANDARD.box_owner(keepers[0].square), Some(seat));
    }
    for piece in view.pieces.iter().filter(|p| p.owner == HOME) {
        let mirrored = STANDARD.mirror(piece.square);
        assert!(
            view.pieces
                .iter()
                .any(|p| p.owner == AWAY && p.square == mirrored && p.kind == piece.kind),
            "no away piece mirrors {}",
            piece.square
        );
    }
}

#[test]
fn smaller_teams_and_other_board_sizes_keep_the_formation_legal() {
    let game = game_with(
        &[
            ("team_size", OptionValue::Int(5)),
            ("files", OptionValue::Int(20)),
            ("ranks", OptionValue::Int(13)),
        ],
        3,
        None,
    );
    let view = game.board(Viewer::Spectator);
    assert_eq!((view.files, view.ranks), (20, 13));
    assert_eq!(view.pieces.len(), 10);
    let goal = view
        .zones
        .iter()
        .find(|z| z.kind == ZoneKind::Goal && z.owner == Some(AWAY))
        .unwrap();
    assert_eq!(goal.squares, vec![sq("t6"), sq("t7"), sq("t8")]);
    let ball = view.ball.unwrap().square.unwrap();
    assert!([sq("j7"), sq("k7")].contains(&ball));
}

#[test]
fn a_smaller_team_fills_the_centre_of_the_formation_first() {
    let squares_of = |team_size: i64| {
        let game = game_with(
            &[
                ("team_size", OptionValue::Int(team_size)),
                ("ball_start", text("home_side")),
            ],
            1,
            None,
        );
        let view = game.board(Viewer::Spectator);
        let mut home: Vec<String> = view
            .pieces
            .iter()
            .filter(|p| p.owner == HOME)
            .map(|p| p.square.to_string())
            .collect();
        home.sort();
        let mut away: Vec<String> = view
            .pieces
            .iter()
            .filter(|p| p.owner == AWAY)
            .map(|p| STANDARD.mirror(p.square).to_string())
            .collect();
        away.sort();
        assert_eq!(home, away, "away mirrors home");
        home
    };
    // Keeper, central defenders, forwards, central midfielders, outer defenders, wide ones.
    assert_eq!(squares_of(2), sorted(&["b6", "d5"]));
    assert_eq!(squares_of(3), sorted(&["b6", "d5", "d7"]));
    assert_eq!(squares_of(5), sorted(&["b6", "d5", "d7", "h4", "h8"]));
    assert_eq!(
        squares_of(7),
        sorted(&["b6", "d5", "d7", "h4", "h8", "f4", "f8"])
    );
    assert_eq!(
        squares_of(9),
        sorted(&["b6", "d5", "d7", "h4", "h8", "f4", "f8", "d3", "d9"])
    );
}

#[test]
fn board_sizes_without_a_centre_are_refused() {
    for (name, value) in [("files", 17), ("ranks", 12)] {
        let err = start::<Chessyball>(
            &options(&[(name, OptionValue::Int(value))]),
            crate::Seed::from_number(1),
            None,
        )
        .unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidOption, "{name}");
        assert!(err.message.contains(name));
    }
}

#[test]
fn a_seeded_coin_picks_the_starting_side_unless_an_option_or_the_position_fixes_it() {
    let mut seen = [false; 2];
    for seed in 0..40 {
        let game = game_with(&[], seed, None);
        let starter = game.turn().to_act[0];
        seen[starter.index()] = true;
        assert_eq!(
            game.opening_events()[0].event,
            Event::StartingSeatChosen {
                seat: starter,
                by_coin: true
            }
        );
        assert_eq!(game_with(&[], seed, None), game, "same seed, same start");
    }
    assert_eq!(seen, [true, true]);
    for (choice, seat) in [("home", HOME), ("away", AWAY)] {
        let game = game_with(&[("starting_seat", text(choice))], 5, None);
        assert_eq!(game.turn().to_act, vec![seat]);
        assert_eq!(
            game.opening_events()[0].event,
            Event::StartingSeatChosen {
                seat,
                by_coin: false
            }
        );
    }
    let fixed = custom(&with_ball("h8", &[("e9", 'M')]), "a", &[]);
    assert_eq!(fixed.turn().to_act, vec![AWAY]);
}

#[test]
fn the_ball_starts_on_one_of_the_centre_pair_or_where_the_options_say() {
    let mut seen = Vec::new();
    for seed in 0..40 {
        let ball = game_with(&[], seed, None).ball;
        assert!([sq("i6"), sq("j6")].contains(&ball));
        if !seen.contains(&ball) {
            seen.push(ball);
        }
    }
    assert_eq!(seen.len(), 2, "the seeded choice reaches both squares");
    assert_eq!(
        game_with(&[("ball_start", text("home_side"))], 1, None).ball,
        sq("i6")
    );
    assert_eq!(
        game_with(&[("ball_start", text("away_side"))], 1, None).ball,
        sq("j6")
    );
}

#[test]
fn a_random_ball_start_lands_on_a_free_inner_square_and_lifts_the_opening() {
    let mut seen = Vec::new();
    for seed in 0..20 {
        let mut game = game_with(&[("ball_start", text("anywhere"))], seed, None);
        let ball = game.ball;
        assert!(STANDARD.is_inner(ball) && STANDARD.box_owner(ball).is_none());
        assert!(game.occupant(ball).is_none());
        assert!(
            game.opening_events()
                .iter()
                .map(|e| e.event.clone())
                .collect::<Vec<_>>()
                .contains(&Event::BallPlaced {
                    square: ball,
                    placement: BallPlacement::Random
                })
        );
        if !seen.contains(&ball) {
            seen.push(ball);
        }
        assert_eq!(game.turn().actions_left, Some(3));
        let first = game.turn().to_act[0];
        while game.turn().to_act == vec![first] {
            let action = game.legal_actions(first)[0].clone();
            play(&mut game, first, &action);
        }
        if game.turn_number == 2 {
            assert_eq!(game.turn().actions_left, Some(3));
        }
    }
    assert!(seen.len() > 5, "random starts vary: {seen:?}");
}

#[test]
fn the_opening_turns_allow_one_then_two_then_three_actions() {
    let mut game = game_with(&[("starting_seat", text("home"))], 2, None);
    for (turn, seat, actions) in [(1, HOME, 1), (2, AWAY, 2), (3, HOME, 3), (4, AWAY, 3)] {
        let now = game.turn();
        assert_eq!((now.number, now.to_act.clone()), (turn, vec![seat]));
        assert_eq!(now.actions_left, Some(actions));
        for _ in 0..actions {
            assert_eq!(game.turn().to_act, vec![seat]);
            // A quiet move far from the ball, so no goal interrupts the count.
            let quiet = game
                .legal_actions(seat)
                .into_iter()
                .find(|a| matches!(a, Action::Move { to, .. } if to.king_distance(game.ball) > 3))
                .unwrap();
            play(&mut game, seat, &quiet);
        }
    }
}

// ---------------------------------------------------------------- movement

#[test]
fn members_move_like_queens_and_stop_before_anyone_and_the_ball() {
    let game = custom(
        &with_ball("h8", &[("e6", 'M'), ("e8", 'M'), ("g6", 'm'), ("c4", 'm')]),
        "h",
        &[],
    );
    let expected = sorted(&[
        // up: e7 then the team-mate on e8 blocks
        "e7", // down: e5..e1
        "e5", "e4", "e3", "e2", "e1", // right: f6, then the opponent on g6
        "f6", // left: d6, then c6 and b6 are the own keeper box (b6 holds the keeper)
        "d6", // up-right: f7, g8, then the ball on h9? no: f7, g8, h9, i10, j11
        "f7", "g8", "h9", "i10", "j11", // down-right: f5, g4, h3, i2, j1
        "f5", "g4", "h3", "i2", "j1", // up-left: d7, c8 is the own box, b9, a10 pass through
        "d7", "b9", "a10", // down-left: d5, then the opponent on c4
        "d5",
    ]);
    assert_eq!(destinations_of(&game, "e6"), expected);
    let through_ball = custom(&with_ball("g8", &[("e8", 'M')]), "h", &[]);
    let blocked = destinations_of(&through_ball, "e8");
    assert!(blocked.contains(&"f8".to_owned()));
    assert!(!blocked.contains(&"g8".to_owned()) && !blocked.contains(&"h8".to_owned()));
}

#[test]
fn members_never_end_in_their_own_box_or_goal_but_may_cross_them() {
    let cells = [
        ("c4", 'K'),
        ("q8", 'k'),
        ("r11", 'm'),
        ("h8", 'o'),
        ("b2", 'M'),
        ("d6", 'M'),
    ];
    let game = custom(&cells, "h", &[]);
    let up = destinations_of(&game, "b2");
    for allowed in ["b1", "b3", "b9", "b10", "b11"] {
        assert!(up.contains(&allowed.to_owned()), "{allowed} in {up:?}");
    }
    for forbidden in ["b4", "b5", "b7", "b8"] {
        assert!(!up.contains(&forbidden.to_owned()), "{forbidden} in {up:?}");
    }
    let left = destinations_of(&game, "d6");
    assert!(!left.contains(&"c6".to_owned()));
    let mut blocked = game.clone();
    let err = blocked.apply(HOME, &mv("b2", "b5")).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert!(err.message.contains("own keeper box"), "{}", err.message);
    assert_eq!(blocked, game, "a refused move changes nothing");
    let goal = custom(&with_ball("h8", &[("b2", 'M'), ("a9", 'M')]), "h", &[]);
    let down = destinations_of(&goal, "a9");
    assert!(down.contains(&"a8".to_owned()));
    assert!(
        !down
            .iter()
            .any(|s| ["a5", "a6", "a7"].contains(&s.as_str()))
    );
    assert!(
        down.contains(&"a4".to_owned()),
        "crossing the own goal is allowed"
    );
}

#[test]
fn members_may_end_in_the_opponents_box_and_goal() {
    let game = custom(&with_ball("h8", &[("o5", 'M')]), "h", &[]);
    let moves = destinations_of(&game, "o5");
    for allowed in ["p5", "q5", "r5", "p4", "q3"] {
        assert!(
            moves.contains(&allowed.to_owned()),
            "{allowed} in {moves:?}"
        );
    }
}

#[test]
fn the_keeper_stays_in_its_box_unless_an_option_frees_it() {
    let cells = with_ball("h8", &[("e3", 'M')]);
    let game = custom(&cells, "h", &[]);
    let keeper = destinations_of(&game, "b6");
    assert_eq!(keeper, sorted(&["b4", "b5", "b7", "b8", "c5", "c6", "c7"]));
    let free = custom(
        &cells,
        "h",
        &[("keeper_leaves_box", OptionValue::Bool(true))],
    );
    let keeper = destinations_of(&free, "b6");
    assert!(keeper.contains(&"d6".to_owned()) && keeper.contains(&"b11".to_owned()));
    assert!(
        !keeper.contains(&"a6".to_owned()),
        "never into the own goal"
    );
    let mut refused = game.clone();
    let err = refused.apply(HOME, &mv("b6", "d6")).unwrap_err();
    assert!(err.message.contains("keeper box"), "{}", err.message);
}

#[test]
fn passing_over_team_members_follows_the_option() {
    let cells = with_ball("h10", &[("c2", 'M'), ("d2", 'M'), ("f2", 'm')]);
    let none = custom(&cells, "h", &[]);
    assert!(!destinations_of(&none, "c2").contains(&"e2".to_owned()));
    let own = custom(&cells, "h", &[("pass_through", text("own"))]);
    let moves = destinations_of(&own, "c2");
    assert!(moves.contains(&"e2".to_owned()) && !moves.contains(&"g2".to_owned()));
    let any = custom(&cells, "h", &[("pass_through", text("any"))]);
    let moves = destinations_of(&any, "c2");
    assert!(moves.contains(&"e2".to_owned()) && moves.contains(&"g2".to_owned()));
    assert!(!moves.contains(&"d2".to_owned()) && !moves.contains(&"f2".to_owned()));
    let ball_blocks = custom(
        &with_ball("e2", &[("c2", 'M')]),
        "h",
        &[("pass_through", text("any"))],
    );
    assert!(!destinations_of(&ball_blocks, "c2").contains(&"f2".to_owned()));
}

// ---------------------------------------------------------------- the kick

#[test]
fn worked_example_moving_to_g9_sends_the_ball_to_n2() {
    let mut game = custom(&with_ball("h8", &[("e9", 'M')]), "h", &[]);
    let events = play(&mut game, HOME, &mv("e9", "g9"));
    assert!(events.contains(&Event::BallKicked {
        piece: game.occupant(sq("g9")).unwrap() as u32,
        from: sq("h8"),
        to: sq("n2"),
    }));
    assert_eq!(game.ball, sq("n2"));
}

#[test]
fn worked_example_moving_to_g7_sends_the_ball_to_j10() {
    let mut game = custom(&with_ball("h8", &[("e9", 'M')]), "h", &[]);
    play(&mut game, HOME, &mv("e9", "g7"));
    assert_eq!(game.ball, sq("j10"));
}

#[test]
fn the_ball_stops_before_a_member_of_either_colour() {
    for blocker in ['M', 'm'] {
        let mut game = custom(&with_ball("h8", &[("e9", 'M'), ("l4", blocker)]), "h", &[]);
        play(&mut game, HOME, &mv("e9", "g9"));
        assert_eq!(game.ball, sq("k5"), "blocked by {blocker}");
    }
}

#[test]
fn a_blocked_ball_stays_and_a_move_away_from_the_ball_kicks_nothing() {
    let mut game = custom(&with_ball("h8", &[("e9", 'M'), ("i7", 'm')]), "h", &[]);
    let events = play(&mut game, HOME, &mv("e9", "g9"));
    assert!(events.contains(&Event::BallKicked {
        piece: game.occupant(sq("g9")).unwrap() as u32,
        from: sq("h8"),
        to: sq("h8"),
    }));
    assert_eq!(game.ball, sq("h8"));
    let mut quiet = custom(&with_ball("h8", &[("e9", 'M')]), "h", &[]);
    let events = play(&mut quiet, HOME, &mv("e9", "e5"));
    assert!(!events.iter().any(|e| matches!(e, Event::BallKicked { .. })));
    assert_eq!(quiet.ball, sq("h8"));
}

#[test]
fn the_keeper_kicks_like_any_member() {
    let mut game = custom(&with_ball("d7", &[("e3", 'M')]), "h", &[]);
    play(&mut game, HOME, &mv("b6", "c6"));
    assert_eq!(game.ball, sq("g10"), "e8 f9 g10, then h11 is outside");
}

#[test]
fn a_diagonal_kick_rolls_to_the_corner_of_the_inner_rectangle() {
    let mut game = custom(&with_ball("h8", &[("i8", 'M')]), "h", &[]);
    play(&mut game, HOME, &mv("i8", "i9"));
    assert_eq!(game.ball, sq("b2"), "g7 f6 e5 d4 c3 b2, then a1 is outside");
}

// ---------------------------------------------------------------- goals

#[test]
fn a_goal_scores_ends_the_turn_resets_and_the_conceding_side_kicks_off() {
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let mut game = custom(&cells, "h", &[]);
    let events = play(&mut game, HOME, &mv("n6", "o6"));
    assert!(events.contains(&Event::GoalScored {
        seat: HOME,
        own_goal: false,
        square: sq("r6"),
        score: [1, 0],
    }));
    assert!(events.contains(&Event::PiecesReset));
    assert!(events.contains(&Event::TurnEnded {
        seat: HOME,
        actions: 1,
        reason: TurnEndReason::Goal
    }));
    assert_eq!(game.scores(), vec![1, 0]);
    assert_eq!(game.turn().to_act, vec![AWAY]);
    assert_eq!(
        game.turn().actions_left,
        Some(2),
        "the match's second turn keeps the opening's two actions"
    );
    assert_eq!(game.ball, sq("j6"), "the conceding side's centre square");
    assert!(
        game.occupant(sq("n6")).is_some(),
        "the scorer went back to n6"
    );
    assert!(game.occupant(sq("o6")).is_none());
}

#[test]
fn a_goal_before_the_last_action_still_ends_the_turn() {
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let mut game = custom(&cells, "h", &[("ball_start", text("anywhere"))]);
    assert_eq!(game.turn().actions_left, Some(3));
    play(&mut game, HOME, &mv("n6", "o6"));
    assert_eq!(game.turn().to_act, vec![AWAY]);
}

#[test]
fn the_ball_enters_the_goal_diagonally() {
    let mut game = custom(&with_ball("q4", &[("n1", 'M')]), "h", &[]);
    play(&mut game, HOME, &mv("n1", "p3"));
    assert_eq!(game.scores(), vec![1, 0]);
}

#[test]
fn a_member_standing_in_the_goal_stops_the_ball() {
    let mut game = custom(&with_ball("p6", &[("n6", 'M'), ("r6", 'M')]), "h", &[]);
    play(&mut game, HOME, &mv("n6", "o6"));
    assert_eq!(game.scores(), vec![0, 0]);
    assert_eq!(game.ball, sq("q6"));
}

#[test]
fn an_own_goal_counts_for_the_opponent_who_then_defends_the_kick_off() {
    let cells = [
        ("c4", 'K'),
        ("q8", 'k'),
        ("r11", 'm'),
        ("c6", 'o'),
        ("f6", 'M'),
        ("e3", 'M'),
    ];
    let mut game = custom(&cells, "h", &[]);
    let events = play(&mut game, HOME, &mv("f6", "d6"));
    assert!(events.contains(&Event::GoalScored {
        seat: AWAY,
        own_goal: true,
        square: sq("a6"),
        score: [0, 1],
    }));
    assert_eq!(game.turn().to_act, vec![HOME], "home was scored against");
    assert_eq!(game.ball, sq("i6"));
}

#[test]
fn without_reset_the_ball_goes_to_the_conceding_sides_centre_square() {
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let mut game = custom(&cells, "h", &[("after_goal", text("ball_to_centre"))]);
    let events = play(&mut game, HOME, &mv("n6", "o6"));
    assert!(!events.contains(&Event::PiecesReset));
    assert!(game.occupant(sq("o6")).is_some(), "pieces stay");
    assert_eq!(game.ball, sq("j6"));
    // A piece on the conceding side's centre square sends the ball to the other one.
    let blocked = with_ball("p6", &[("n6", 'M'), ("j6", 'm')]);
    let mut game = custom(&blocked, "h", &[("after_goal", text("ball_to_centre"))]);
    let events = play(&mut game, HOME, &mv("n6", "o6"));
    assert!(events.contains(&Event::BallPlaced {
        square: sq("i6"),
        placement: BallPlacement::Centre
    }));
    // With both centre squares taken the nearest free inner square takes it: of the squares
    // one step from j6, the lowest file, then the lowest rank.
    let both = with_ball("p6", &[("n6", 'M'), ("j6", 'm'), ("i6", 'M')]);
    let mut game = custom(&both, "h", &[("after_goal", text("ball_to_centre"))]);
    let events = play(&mut game, HOME, &mv("n6", "o6"));
    assert!(events.contains(&Event::BallPlaced {
        square: sq("i5"),
        placement: BallPlacement::NearestFree
    }));
}

#[test]
fn a_fixed_ball_start_is_also_every_kick_off_square() {
    // Away concedes each time: `coin` uses the conceding side's centre square, the fixed
    // choices always their own square.
    for (choice, kick_off) in [("coin", "j6"), ("home_side", "i6"), ("away_side", "j6")] {
        let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
        let mut game = custom(&cells, "h", &[("ball_start", text(choice))]);
        let events = play(&mut game, HOME, &mv("n6", "o6"));
        assert!(
            events.contains(&Event::BallPlaced {
                square: sq(kick_off),
                placement: BallPlacement::Centre
            }),
            "{choice}: {events:?}"
        );
    }
}

#[test]
fn the_defender_may_place_the_ball_in_its_box_and_then_plays_its_turn() {
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let mut game = custom(&cells, "h", &[("after_goal", text("defender_places"))]);
    play(&mut game, HOME, &mv("n6", "o6"));
    let turn = game.turn();
    assert_eq!(
        (turn.phase.as_str(), turn.to_act.clone()),
        ("place_ball", vec![AWAY])
    );
    let legal = game.legal_actions(AWAY);
    assert_eq!(
        legal.len(),
        9,
        "the box's 10 squares less the keeper's: {legal:?}"
    );
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::PlaceBall { square }
        if STANDARD.box_owner(*square) == Some(AWAY)))
    );
    let mut refused = game.clone();
    let err = refused.apply(AWAY, &mv("r11", "r10")).unwrap_err();
    assert!(err.message.contains("place the ball"), "{}", err.message);
    assert_eq!(
        game.parse_action(AWAY, "ball@p5").unwrap(),
        Action::PlaceBall { square: sq("p5") }
    );
    play(&mut game, AWAY, &Action::PlaceBall { square: sq("p5") });
    assert_eq!(game.ball, sq("p5"));
    let turn = game.turn();
    assert_eq!((turn.phase.as_str(), turn.actions_left), ("play", Some(2)));
    assert_eq!(turn.to_act, vec![AWAY]);
}

// ---------------------------------------------------------------- turns

#[test]
fn ending_a_turn_early_needs_the_option_and_one_action() {
    let cells = with_ball("h8", &[("e3", 'M'), ("e4", 'M')]);
    let mut strict = custom(&cells, "h", &[("ball_start", text("anywhere"))]);
    play(&mut strict, HOME, &mv("e3", "f3"));
    assert!(!strict.turn().may_end_turn);
    let err = strict.apply(HOME, &Action::EndTurn).unwrap_err();
    assert_eq!(err.rule, Some(rules::USE_EVERY_ACTION), "{}", err.message);
    let mut early = custom(
        &cells,
        "h",
        &[
            ("ball_start", text("anywhere")),
            ("end_turn_early", OptionValue::Bool(true)),
        ],
    );
    assert!(!early.legal_actions(HOME).contains(&Action::EndTurn));
    play(&mut early, HOME, &mv("e3", "f3"));
    assert!(early.turn().may_end_turn);
    let events = play(&mut early, HOME, &Action::EndTurn);
    assert!(events.contains(&Event::TurnEnded {
        seat: HOME,
        actions: 1,
        reason: TurnEndReason::EndedEarly
    }));
    assert_eq!(early.turn().to_act, vec![AWAY]);
}

/// Home members around a ball on h6 that can kick it three times in a row:
/// e6-g6 rolls it to l6 (m6 stops it), m6-m7 sends it back to i3 (h2 stops it), g6-i4 sends
/// it down to i2, where h2 can go on kicking it.
pub(super) fn extension_cells() -> Vec<(&'static str, char)> {
    with_ball("h6", &[("e6", 'M'), ("h2", 'M'), ("m6", 'M'), ("h10", 'M')])
}

pub(super) fn three_kicks(game: &mut Chessyball) -> Vec<Event> {
    let mut events = Vec::new();
    for (from, to, ball) in [("e6", "g6", "l6"), ("m6", "m7", "i3"), ("g6", "i4", "i2")] {
        events.extend(play(game, HOME, &mv(from, to)));
        assert_eq!(game.ball, sq(ball));
    }
    events
}

#[test]
fn without_extensions_three_ball_moves_still_end_the_turn() {
    let mut game = custom(&extension_cells(), "h", &[("ball_start", text("anywhere"))]);
    let events = three_kicks(&mut game);
    assert!(events.contains(&Event::TurnEnded {
        seat: HOME,
        actions: 3,
        reason: TurnEndReason::ActionsUsed
    }));
    assert_eq!(game.turn().to_act, vec![AWAY]);
}

#[test]
fn extensions_follow_three_ball_moving_actions_and_demand_ball_moves() {
    let given = [
        ("ball_start", text("anywhere")),
        ("extensions", OptionValue::Bool(true)),
        ("extension_limit", OptionValue::Int(2)),
    ];
    let mut game = custom(&extension_cells(), "h", &given);
    let events = three_kicks(&mut game);
    assert!(events.contains(&Event::ExtensionStarted {
        seat: HOME,
        limit: 2
    }));
    let details = game.details(Viewer::Seat(AWAY));
    assert_eq!(
        (details.actions_taken, details.extension_actions),
        (3, Some(0))
    );
    assert!(details.ball_moved_every_action);
    let turn = game.turn();
    assert_eq!(turn.phase, "extension");
    assert_eq!(turn.actions_left, Some(2));
    assert!(turn.may_end_turn);
    let legal = game.legal_actions(HOME);
    assert!(legal.contains(&Action::EndTurn));
    let moves: Vec<&Action> = legal.iter().filter(|a| **a != Action::EndTurn).collect();
    assert!(!moves.is_empty());
    for action in &moves {
        let Action::Move { to, .. } = action else {
            unreachable!("only moves and `end` are listed")
        };
        assert!(game.moves_ball(*to), "{action:?} does not move the ball");
    }
    let mut refused = game.clone();
    let err = refused.apply(HOME, &mv("h10", "h11")).unwrap_err();
    assert_eq!(
        err.rule,
        Some(rules::EXTENSION_MOVES_BALL),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("h11 is not next to the ball"),
        "{}",
        err.message
    );
    assert_eq!(refused, game);
    let mut taken = 0;
    while game.turn().to_act == vec![HOME] {
        let ball_move = game.legal_actions(HOME)[0].clone();
        assert_ne!(ball_move, Action::EndTurn);
        let before = game.ball;
        let events = play(&mut game, HOME, &ball_move);
        taken += 1;
        assert!(
            game.ball != before || game.scores() != vec![0, 0],
            "an extension action moved the ball"
        );
        if let Some(Event::TurnEnded {
            reason, actions, ..
        }) = events.iter().find(|e| matches!(e, Event::TurnEnded { .. }))
        {
            assert!(taken <= 2);
            assert_eq!(*actions, 3 + taken);
            if taken == 2 {
                assert_eq!(*reason, TurnEndReason::ExtensionLimit);
            }
        }
    }
}

#[test]
fn a_kick_that_cannot_move_the_ball_does_not_count_in_an_extension() {
    let given = [
        ("ball_start", text("anywhere")),
        ("extensions", OptionValue::Bool(true)),
    ];
    let mut game = custom(&extension_cells(), "h", &given);
    three_kicks(&mut game);
    assert_eq!(game.turn().phase, "extension");
    // The ball is on i2 with the bottom edge right below it: from i3 or j3 the member on i4
    // would kick it straight off the inner rectangle, so it would not move.
    for blocked_kick in ["i3", "j3"] {
        let kick = game.kick_from(sq(blocked_kick)).unwrap();
        assert_eq!((kick.from, kick.to), (sq("i2"), sq("i2")));
        assert!(!game.legal_actions(HOME).contains(&mv("i4", blocked_kick)));
        let mut refused = game.clone();
        let err = refused.apply(HOME, &mv("i4", blocked_kick)).unwrap_err();
        assert_eq!(
            err.rule,
            Some(rules::EXTENSION_MOVES_BALL),
            "{}",
            err.message
        );
        assert!(
            err.message.contains("cannot move the ball off i2"),
            "{}",
            err.message
        );
        assert_eq!(refused, game);
    }
}

#[test]
fn a_kick_that_cannot_move_the_ball_forfeits_the_extension() {
    let given = [
        ("ball_start", text("anywhere")),
        ("extensions", OptionValue::Bool(true)),
    ];
    // The first action kicks the ball on h6 from g6 towards i6, where an opponent stands, so
    // the ball stays; the next two kicks move it, but the turn still ends after three.
    let cells = with_ball("h6", &[("e6", 'M'), ("i6", 'm'), ("h9", 'M'), ("l2", 'M')]);
    let mut game = custom(&cells, "h", &given);
    let events = play(&mut game, HOME, &mv("e6", "g6"));
    assert!(events.contains(&Event::BallKicked {
        piece: game.occupant(sq("g6")).unwrap() as u32,
        from: sq("h6"),
        to: sq("h6"),
    }));
    assert!(!game.details(Viewer::Spectator).ball_moved_every_action);
    play(&mut game, HOME, &mv("h9", "h7"));
    assert_eq!(game.ball, sq("h2"));
    let events = play(&mut game, HOME, &mv("l2", "i2"));
    assert_eq!(game.ball, sq("b2"));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ExtensionStarted { .. }))
    );
    assert_eq!(game.turn().to_act, vec![AWAY]);
}

#[test]
fn an_action_that_leaves_the_ball_alone_forfeits_the_extension() {
    let given = [
        ("ball_start", text("anywhere")),
        ("extensions", OptionValue::Bool(true)),
    ];
    let mut game = custom(&extension_cells(), "h", &given);
    play(&mut game, HOME, &mv("e6", "g6"));
    play(&mut game, HOME, &mv("h10", "h11"));
    assert!(!game.details(Viewer::Spectator).ball_moved_every_action);
    let events = play(&mut game, HOME, &mv("m6", "m7"));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ExtensionStarted { .. }))
    );
    assert_eq!(game.turn().to_act, vec![AWAY]);
}

#[test]
fn a_side_without_any_move_loses_its_turn() {
    let cells = [
        ("a1", 'M'),
        ("a2", 'm'),
        ("b1", 'm'),
        ("b2", 'm'),
        ("q6", 'k'),
        ("h6", 'o'),
    ];
    let game = custom(&cells, "h", &[]);
    assert!(
        game.opening_events()
            .iter()
            .map(|e| e.event.clone())
            .collect::<Vec<_>>()
            .contains(&Event::TurnEnded {
                seat: HOME,
                actions: 0,
                reason: TurnEndReason::NoLegalAction
            })
    );
    let turn = game.turn();
    assert_eq!(
        (turn.to_act, turn.number, turn.actions_left),
        (vec![AWAY], 2, Some(2))
    );
}

#[test]
fn acting_out_of_turn_or_after_the_end_is_refused_without_change() {
    let mut game = game_with(
        &[
            ("starting_seat", text("home")),
            ("max_turns", OptionValue::Int(1)),
        ],
        4,
        None,
    );
    let before = game.clone();
    let err = game.apply(AWAY, &mv("o3", "o2")).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
    assert_eq!(game, before);
    play(&mut game, HOME, &mv("d3", "d2"));
    assert!(game.outcome().is_some());
    let over = game.clone();
    let err = game.apply(HOME, &mv("d2", "d3")).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::GameOver);
    assert_eq!(game, over);
    assert!(game.legal_actions(HOME).is_empty() && game.legal_actions(AWAY).is_empty());
}

// ---------------------------------------------------------------- the end of a match

#[test]
fn the_first_side_to_reach_the_goal_target_wins() {
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let mut game = custom(&cells, "h", &[("first_to", OptionValue::Int(1))]);
    let events = play(&mut game, HOME, &mv("n6", "o6"));
    assert!(events.contains(&Event::MatchEnded {
        winner: Some(HOME),
        score: [1, 0],
        reason: MatchEndReason::GoalTarget
    }));
    let outcome = game.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.scores), (Some(HOME), vec![1, 0]));
    assert!(game.turn().to_act.is_empty());
    assert_eq!(game.turn().phase, "over");
}

#[test]
fn the_match_can_end_on_a_total_of_goals() {
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let given = [
        ("first_to", OptionValue::Int(0)),
        ("total_goals", OptionValue::Int(1)),
    ];
    let mut game = custom(&cells, "h", &given);
    let events = play(&mut game, HOME, &mv("n6", "o6"));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::MatchEnded {
            reason: MatchEndReason::TotalGoals,
            ..
        }
    )));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(HOME));
}

#[test]
fn the_turn_limit_ends_a_level_match_as_a_draw() {
    let mut game = game_with(
        &[
            ("starting_seat", text("home")),
            ("max_turns", OptionValue::Int(2)),
        ],
        4,
        None,
    );
    play(&mut game, HOME, &mv("d3", "d2"));
    assert!(game.outcome().is_none());
    play(&mut game, AWAY, &mv("o3", "o2"));
    let events = play(&mut game, AWAY, &mv("o2", "o1"));
    assert!(events.contains(&Event::MatchEnded {
        winner: None,
        score: [0, 0],
        reason: MatchEndReason::TurnLimit
    }));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert!(outcome.reason.starts_with("draw"), "{}", outcome.reason);
}

pub(super) fn shootout_game(seed: u64) -> Chessyball {
    let mut game = game_with(
        &[
            ("starting_seat", text("home")),
            ("max_turns", OptionValue::Int(1)),
            ("shootout", OptionValue::Bool(true)),
        ],
        seed,
        None,
    );
    let events = play(&mut game, HOME, &mv("d3", "d2"));
    assert!(events.contains(&Event::ShootoutStarted { first: AWAY }));
    game
}

/// Found by random play: a goal that levels the score and reaches `total_goals` sends the
/// match to penalties with the ball still in the goal it entered, as when a goal ends the match.
/// The board is the one random play reached on a 16 x 9 pitch (goals a4-a6 and p4-p6); home's
/// earlier goal is set directly.
#[test]
fn a_goal_that_sends_the_match_to_penalties_leaves_the_ball_in_the_goal() {
    let given = [
        ("ball_start", text("home_side")),
        ("pass_through", text("own")),
        ("after_goal", text("reset")),
        ("keeper_leaves_box", OptionValue::Bool(true)),
        ("shootout", OptionValue::Bool(true)),
        ("first_to", OptionValue::Int(2)),
        ("total_goals", OptionValue::Int(2)),
        ("max_turns", OptionValue::Int(29)),
        ("files", OptionValue::Int(16)),
        ("ranks", OptionValue::Int(9)),
    ];
    let board = "1M2m11/11M4/5K10/5M1M8/3m5m6/4M2m8/2m13/1M2o11/10m2k2 a";
    let mut game = game_with(&given, 7, Some(board.to_owned()));
    game.score = [1, 0];
    check_invariants(&game, 1);
    // The away keeper, out of its box, stops on f1 next to the ball on e2 and kicks it
    // diagonally d3 c4 b5 into home's goal on a6: 1-1, two goals in total.
    let events = play(&mut game, AWAY, &mv("n1", "f1"));
    assert!(events.contains(&Event::BallKicked {
        piece: 13,
        from: sq("e2"),
        to: sq("a6"),
    }));
    assert!(events.contains(&Event::GoalScored {
        seat: AWAY,
        own_goal: false,
        square: sq("a6"),
        score: [1, 1],
    }));
    assert!(matches!(events.last(), Some(Event::ShootoutStarted { .. })));
    assert_eq!(game.turn().phase, "shootout");
    assert_eq!(game.ball, sq("a6"));
    assert_eq!(
        game.board(Viewer::Spectator).ball.unwrap().square,
        Some(sq("a6"))
    );
    check_invariants(&game, 2);
    while game.outcome().is_none() {
        let seat = game.turn().to_act[0];
        play(&mut game, seat, &Action::Shoot);
        check_invariants(&game, 2);
    }
    assert_eq!(game.ball, sq("a6"));
}

#[test]
fn a_level_match_goes_to_penalties_that_alternate_and_always_end() {
    let mut decided_early = false;
    let mut sudden_death = false;
    for seed in 0..60 {
        let mut game = shootout_game(seed);
        let mut kicks = 0;
        let mut expected = AWAY;
        while game.outcome().is_none() {
            let turn = game.turn();
            assert_eq!(turn.phase, "shootout");
            assert_eq!(turn.to_act, vec![expected]);
            assert_eq!(game.legal_actions(expected), vec![Action::Shoot]);
            let events = play(&mut game, expected, &Action::Shoot);
            let Some(Event::PenaltyTaken { roll, scored, .. }) = events.first() else {
                panic!("no penalty event in {events:?}")
            };
            assert_eq!(*scored, *roll >= PENALTY_SCORES_FROM);
            kicks += 1;
            expected = expected.opponent();
        }
        let shots = game.details(Viewer::Spectator).shootout.unwrap();
        let goals = shots
            .kicks
            .clone()
            .map(|k| k.iter().filter(|&&g| g).count());
        let outcome = game.outcome().unwrap();
        let winner = outcome.winner.unwrap();
        assert_eq!(outcome.scores, vec![0, 0], "penalties are not match goals");
        assert!(goals[winner.index()] > goals[winner.opponent().index()]);
        assert!(outcome.reason.contains("penalty shoot-out"));
        decided_early |= kicks < 10;
        sudden_death |= kicks > 10;
        assert!(kicks <= 2 * (SHOOTOUT_REGULAR_ROUNDS + SHOOTOUT_SUDDEN_DEATH_ROUNDS));
    }
    assert!(decided_early && sudden_death);
}

#[test]
fn an_endless_shootout_is_settled_by_a_coin() {
    let mut game = shootout_game(1);
    // Every kick scores: the shoot-out can only end through the coin.
    let rounds = SHOOTOUT_REGULAR_ROUNDS + SHOOTOUT_SUDDEN_DEATH_ROUNDS;
    game.shootout.kicks = [vec![true; rounds - 1], vec![true; rounds]];
    game.to_move = HOME;
    let before = game.clone();
    let events = play(&mut game, HOME, &Action::Shoot);
    let scored = matches!(events[0], Event::PenaltyTaken { scored: true, .. });
    if scored {
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::ShootoutCoinFlipped { .. }))
        );
        assert_eq!(
            game.outcome().map(|o| o.reason),
            Some("penalty shoot-out 25-25, then a coin flip".to_owned())
        );
    } else {
        assert_eq!(game.outcome().unwrap().winner, Some(AWAY));
    }
    assert_ne!(game, before);
}

// ---------------------------------------------------------------- notation

/// The variants table of the rules page lists every option with its values, default first.
#[test]
fn every_option_is_documented_with_its_default() {
    let page = include_str!("../../../../docs/rules/chessyball.md");
    let variants = page
        .split("\n## ")
        .find(|section| section.starts_with("Variants"))
        .expect("the rules page has a Variants section");
    let documented: HashMap<&str, &str> = variants
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((name, *cells.get(2)?))
        })
        .collect();
    let specs = Chessyball::info().options;
    assert_eq!(documented.len(), specs.len(), "{documented:?}");
    for spec in specs {
        let values = documented
            .get(spec.name)
            .unwrap_or_else(|| panic!("`{}` is not in the options table", spec.name));
        let expected = match (&spec.kind, &spec.default) {
            (OptionKind::Int { min, max }, OptionValue::Int(default)) => {
                format!("`{default}` ({min}-{max}")
            }
            (OptionKind::Bool, OptionValue::Bool(default)) => {
                format!("`{default}`, `{}`", !default)
            }
            (OptionKind::Choice(choices), OptionValue::Text(default)) => {
                let rest = choices.iter().filter(|c| **c != default.as_str());
                std::iter::once(default.as_str())
                    .chain(rest.copied())
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            other => panic!("`{}` has a default of another kind: {other:?}", spec.name),
        };
        assert!(
            values.starts_with(&expected),
            "`{}`: the page says {values}, the engine {expected}",
            spec.name
        );
    }
}

#[test]
fn a_long_run_of_empty_cells_is_refused_not_overflowed() {
    let text = "99999999999/18/18/18/18/1K6o7k1/18/18/18/18/17M h";
    let err = start::<Chessyball>(
        &BTreeMap::new(),
        crate::Seed::from_number(1),
        Some(text.to_owned()),
    )
    .unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::InvalidPosition);
    assert!(
        err.message.contains("more than 18 cells"),
        "{}",
        err.message
    );
}

#[test]
fn actions_have_a_canonical_notation_that_parses_back() {
    for (action, written) in [
        (mv("e9", "g9"), "e9-g9"),
        (Action::PlaceBall { square: sq("c6") }, "ball@c6"),
        (Action::EndTurn, "end"),
        (Action::Shoot, "shoot"),
    ] {
        assert_eq!(notation::format_action(&action), written);
        assert_eq!(notation::parse_action(written).unwrap(), action);
    }
    assert_eq!(notation::parse_action(" E9-G9 ").unwrap(), mv("e9", "g9"));
}

#[test]
fn unreadable_notation_is_malformed_and_readable_illegal_notation_is_illegal() {
    let game = custom(&with_ball("h8", &[("e9", 'M')]), "h", &[]);
    for bad in ["", "e9g9", "e9-", "kick", "ball@", "9e-g9", "e9-g9-h9"] {
        let err = game.parse_action(HOME, bad).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::MalformedNotation, "{bad:?}");
    }
    let blocked = custom(&with_ball("h8", &[("e9", 'M'), ("e7", 'm')]), "h", &[]);
    let ball_in_the_way = custom(&with_ball("g9", &[("e9", 'M')]), "h", &[]);
    for (game, illegal, rule, hint) in [
        (&game, "e9-f7", rules::STRAIGHT_LINE, "not a straight"),
        (&game, "e9-e9", rules::STRAIGHT_LINE, "e9-e9 does not move"),
        (
            &game,
            "e8-e7",
            rules::OWN_PIECE,
            "no team-member of yours on e8",
        ),
        (&game, "q8-p8", rules::OWN_PIECE, "an opponent stands there"),
        (
            &game,
            "e9-c7",
            rules::BOX_FOR_KEEPER,
            "legal moves of this member: e9-f9 e9-g9",
        ),
        (&game, "shoot", rules::SHOOT_IN_SHOOTOUT, "play a move"),
        (
            &game,
            "end",
            rules::USE_EVERY_ACTION,
            "0 of 1 actions taken",
        ),
        (
            &blocked,
            "e9-e5",
            rules::CLEAR_PATH,
            "an opponent blocks the way on e7",
        ),
        (
            &blocked,
            "e9-e7",
            rules::EMPTY_TARGET,
            "an opponent stands on e7",
        ),
        (
            &ball_in_the_way,
            "e9-h9",
            rules::BALL_BLOCKS,
            "the ball blocks the way on g9",
        ),
    ] {
        let err = game.parse_action(HOME, illegal).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::IllegalAction, "{illegal}");
        assert_eq!(err.rule, Some(rule), "{illegal}: {}", err.message);
        assert!(err.message.contains(hint), "{illegal}: {}", err.message);
    }
}

#[test]
fn position_notation_writes_the_state_and_reads_back_as_a_start() {
    let cells = with_ball("h8", &[("e9", 'M')]);
    let game = custom(&cells, "h", &[]);
    let written = game.position();
    assert_eq!(
        written,
        "17m/18/4M13/7o8k1/18/1K16/18/18/18/18/18 h 1 0-0 1"
    );
    let board_and_side: Vec<&str> = written.split(' ').take(2).collect();
    let again = game_with(&[], 7, Some(board_and_side.join(" ")));
    assert_eq!(again.position(), written);
    let ids: Vec<u32> = game
        .board(Viewer::Spectator)
        .pieces
        .iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, vec![0, 1, 2, 3], "ids follow reading order");
    let first = &game.board(Viewer::Spectator).pieces[0];
    assert_eq!((first.symbol.as_str(), first.square), ("m", sq("r11")));
}

#[test]
fn malformed_or_illegal_start_positions_are_refused() {
    let good = position(&with_ball("h8", &[("e9", 'M')]), "h");
    assert!(
        start::<Chessyball>(
            &BTreeMap::new(),
            crate::Seed::from_number(1),
            Some(good.clone())
        )
        .is_ok()
    );
    let keeper_outside = [
        ("e6", 'K'),
        ("q8", 'k'),
        ("r11", 'm'),
        ("h8", 'o'),
        ("e9", 'M'),
    ];
    let cases: Vec<(String, &str)> = vec![
        (good.replacen("/18", "", 1), "ranks"),
        (good.replace(" h", " x"), "side to move"),
        (format!("{good} 3"), "1 or 2 fields"),
        (good.replace("4M13", "4M13m"), "more than 18"),
        (good.replace("4M13", "4M14"), "19 cells instead of 18"),
        (good.replace("4M13", "4M12"), "instead of 18"),
        (good.replace("4M13", "4X13"), "unknown symbol"),
        (good.replace("7o8k1", "16k1"), "no ball"),
        (good.replace("7o8k1", "7o7ok1"), "second ball"),
        (good.replace("4M13", "4M0M12"), "0 cells"),
        (
            position(&with_ball("h1", &[("e9", 'M')]), "h"),
            "outside the inner",
        ),
        (
            position(&with_ball("a6", &[("e9", 'M')]), "h"),
            "outside the inner",
        ),
        (
            position(&with_ball("h8", &[("e9", 'M'), ("c6", 'M')]), "h"),
            "own keeper box",
        ),
        (
            position(&with_ball("h8", &[("e9", 'M'), ("a6", 'M')]), "h"),
            "own goal",
        ),
        (position(&keeper_outside, "h"), "keeper outside"),
        (
            position(&with_ball("h8", &[("e9", 'M'), ("c5", 'K')]), "h"),
            "more than one keeper",
        ),
        (position(&[("h8", 'o'), ("e9", 'M')], "h"), "away has 0"),
    ];
    for (text, hint) in cases {
        let err = start::<Chessyball>(
            &BTreeMap::new(),
            crate::Seed::from_number(1),
            Some(text.clone()),
        )
        .unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
        assert!(err.message.contains(hint), "{text}: {}", err.message);
    }
    let freed = options(&[("keeper_leaves_box", OptionValue::Bool(true))]);
    assert!(
        start::<Chessyball>(
            &freed,
            crate::Seed::from_number(1),
            Some(position(&keeper_outside, "h"))
        )
        .is_ok()
    );
}

#[test]
fn piece_ids_stay_with_their_pieces_through_moves_and_resets() {
    let mut game = custom(&with_ball("p6", &[("n6", 'M'), ("e3", 'M')]), "h", &[]);
    let id_of = |g: &Chessyball, name: &str| {
        g.board(Viewer::Spectator)
            .pieces
            .iter()
            .find(|p| p.square == sq(name))
            .map(|p| p.id)
    };
    let mover = id_of(&game, "n6").unwrap();
    play(&mut game, HOME, &mv("n6", "o6"));
    assert_eq!(
        id_of(&game, "n6"),
        Some(mover),
        "reset returns the piece with its id"
    );
    let mut quiet = custom(&with_ball("h8", &[("e3", 'M')]), "h", &[]);
    let id = id_of(&quiet, "e3").unwrap();
    play(&mut quiet, HOME, &mv("e3", "e2"));
    assert_eq!(id_of(&quiet, "e2"), Some(id));
}

// ---------------------------------------------------------------- random play

pub(super) fn option_strategy() -> impl Strategy<Value = Vec<(&'static str, OptionValue)>> {
    (
        prop::sample::select(vec!["coin", "home_side", "away_side", "anywhere"]),
        prop::sample::select(vec!["none", "own", "any"]),
        prop::sample::select(vec!["reset", "ball_to_centre", "defender_places"]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        (0i64..4, 0i64..6, 4i64..80),
        (
            prop::sample::select(vec![16i64, 18, 20]),
            prop::sample::select(vec![9i64, 11, 13]),
            2i64..=11,
        ),
    )
        .prop_map(
            |(
                ball,
                pass,
                after,
                keeper,
                ext,
                early,
                shootout,
                (first, total, turns),
                (files, ranks, team),
            )| {
                vec![
                    ("ball_start", text(ball)),
                    ("pass_through", text(pass)),
                    ("after_goal", text(after)),
                    ("keeper_leaves_box", OptionValue::Bool(keeper)),
                    ("extensions", OptionValue::Bool(ext)),
                    ("end_turn_early", OptionValue::Bool(early)),
                    ("shootout", OptionValue::Bool(shootout)),
                    ("first_to", OptionValue::Int(first)),
                    ("total_goals", OptionValue::Int(total)),
                    ("max_turns", OptionValue::Int(turns)),
                    ("files", OptionValue::Int(files)),
                    ("ranks", OptionValue::Int(ranks)),
                    ("team_size", OptionValue::Int(team)),
                ]
            },
        )
}

/// Invariants that hold after every action.
fn check_invariants(game: &Chessyball, goals_seen: u32) {
    let pitch = game.pitch;
    let mut seen = std::collections::HashSet::new();
    for (id, piece) in game.pieces.iter().enumerate() {
        assert!(pitch.contains(piece.square));
        assert!(seen.insert(piece.square), "two pieces on {}", piece.square);
        assert_eq!(game.occupant(piece.square), Some(id), "grid out of step");
        assert_ne!(
            pitch.goal_owner(piece.square),
            Some(piece.owner),
            "in own goal"
        );
        let own_box = pitch.box_owner(piece.square) == Some(piece.owner);
        if piece.keeper {
            assert!(
                own_box || game.settings.keeper_leaves_box,
                "keeper left its box"
            );
        } else {
            assert!(!own_box, "a member in its own box");
        }
    }
    assert_eq!(
        game.grid.iter().filter(|&&c| c != EMPTY).count(),
        game.pieces.len()
    );
    assert!(
        game.occupant(game.ball).is_none(),
        "the ball shares a square"
    );
    // The ball rests in a goal cell only after the goal that put it there: while the conceding
    // side has still to place it, or when that goal ended regular play (the match is over, or
    // a level score sent it to the penalty shoot-out, which does not use the ball).
    let play_ended = matches!(game.phase, Phase::Over | Phase::Shootout);
    if game.phase == Phase::PlaceBall || (play_ended && pitch.goal_owner(game.ball).is_some()) {
        assert!(pitch.goal_owner(game.ball).is_some());
        assert!(
            game.score.iter().sum::<u32>() > 0,
            "a ball in goal without a goal"
        );
    } else {
        assert!(
            pitch.is_inner(game.ball),
            "the ball left the inner rectangle: {}",
            game.ball
        );
    }
    assert_eq!(game.score.iter().sum::<u32>(), goals_seen);
    let turn = game.turn();
    if game.phase == Phase::Play && game.extension_actions.is_none() {
        assert!(game.actions_taken < game.actions_allowed);
        assert!(turn.actions_left.unwrap() >= 1);
    }
    assert!(game.turn_number <= game.settings.max_turns);
}

/// In play, the board and the side to move written by `position` start an equal board.
fn check_position_round_trip(game: &Chessyball, given: &[(&str, OptionValue)]) {
    if game.phase != Phase::Play {
        return;
    }
    let written = game.position();
    let board_and_side: Vec<&str> = written.split(' ').take(2).collect();
    let again = start::<Chessyball>(
        &options(given),
        crate::Seed::from_number(0),
        Some(board_and_side.join(" ")),
    )
    .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
    assert!(
        again.position().starts_with(&board_and_side.join(" ")),
        "{written}"
    );
}

/// The setup of a random playout with `given` options, and the bound on its actions, which only
/// a match that does not end within `max_turns` exceeds.
fn playout_setup(given: &[(&str, OptionValue)], seed: u64) -> (SetupSpec, usize) {
    let setup = SetupSpec {
        options: crate::options::Options::resolve(&Chessyball::info().options, &options(given))
            .unwrap(),
        seed: crate::Seed::from_number(seed),
        position: None,
    };
    let max_turns = setup.options.int("max_turns") as usize;
    let bound = max_turns * (3 + 30 + 1) + 2 * 25 + 10;
    (setup, bound)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_play_keeps_the_contract_and_always_ends(seed in any::<u64>(), given in option_strategy()) {
        let (setup, bound) = playout_setup(&given, seed);
        let mut rng = crate::rng::Rng::new(seed ^ 0x5eed);
        let playout = checked_random_playout::<Chessyball>(&setup, &mut rng, bound);
        prop_assert!(playout.finished, "no end after {} actions", playout.log.len());
    }

    #[test]
    fn random_play_keeps_the_ball_and_the_pieces_in_order(seed in any::<u64>(), given in option_strategy()) {
        let mut game = game_with(&given, seed, None);
        let mut rng = crate::rng::Rng::new(seed.rotate_left(17));
        let mut goals = 0;
        check_invariants(&game, goals);
        let mut actions = 0;
        while game.outcome().is_none() {
            let seat = game.turn().to_act[0];
            let legal = game.legal_actions(seat);
            prop_assert!(!legal.is_empty());
            check_position_round_trip(&game, &given);
            let action = rng.pick(&legal).clone();
            let events = play(&mut game, seat, &action);
            goals += events.iter().filter(|e| matches!(e, Event::GoalScored { .. })).count() as u32;
            check_invariants(&game, goals);
            actions += 1;
            prop_assert!(actions < 40_000);
        }
    }
}

// ----- listing legal actions -----

/// The notation of one action as the engine wrote it with `format!`; kept as the reference the
/// faster notation must match byte for byte.
fn reference_notation(action: &Action) -> String {
    match action {
        Action::Move { from, to } => format!("{from}-{to}"),
        Action::PlaceBall { square } => format!("ball@{square}"),
        Action::EndTurn => "end".to_owned(),
        Action::Shoot => "shoot".to_owned(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// At every state of random matches, with every option, formatting the legal list at once
    /// agrees with formatting each action alone and with the earlier notation.
    #[test]
    fn listing_the_legal_actions_matches_formatting_them_one_by_one(
        seed in any::<u64>(),
        given in option_strategy(),
    ) {
        let (setup, bound) = playout_setup(&given, seed);
        crate::playout::checked_listing_playout::<Chessyball>(
            &setup,
            &mut crate::rng::Rng::new(seed ^ 0x5eed),
            bound,
            |_, _, legal, listed| {
                for (action, text) in legal.iter().zip(listed) {
                    assert_eq!(*text, reference_notation(action));
                }
            },
        );
    }
}
