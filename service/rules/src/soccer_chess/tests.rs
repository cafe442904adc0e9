use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;
use crate::game::RuleErrorKind;
use crate::options::{OptionValue, Options};
use crate::playout::checked_random_playout;
use crate::rng::Rng;

const FIRST: Seat = Seat(0);
const SECOND: Seat = Seat(1);

/// The page's first diagram (ranks 17 down to 1), and the page's diagram after the two sample sets.
const PAGE_START: [&str; 17] = [
    ".....k.....",
    "...........",
    "....b......",
    "...........",
    "....nnnn...",
    "...........",
    "..rq..r..bq",
    "...........",
    ".....o.....",
    "R...Q.Q...R",
    ".N..N.N..N.",
    "...........",
    ".....B.....",
    ".....B.....",
    "...........",
    "...........",
    ".....K.....",
];
const PAGE_AFTER_SAMPLE: [&str; 17] = [
    ".....k.....",
    "...........",
    "o...b......",
    "..n........",
    "......n....",
    ".....n.....",
    "r..qn.r...q",
    "R.......b.R",
    ".....Q..N..",
    "......Q....",
    ".N..N.N.B..",
    "...........",
    ".....B.....",
    "...........",
    "...........",
    "...........",
    ".....K.....",
];
pub(super) const PAGE_START_POSITION: &str = "5k5/11/4b6/11/4nnnn3/11/2rq2r2bq/11/5o5/R3Q1Q3R/1N2N1N2N1/11/\
                                              5B5/5B5/11/11/5K5 first 1 - 1 0-0 0-0";
/// Which square each piece id takes in the two default formations (first visited): the f4
/// bishop is placed before the f5 one, the other way round from the board's reading order.
pub(super) const DEFAULT_FORMATION_IDS: &str =
    "f1,b7,e7,g7,j7,a8,k8,f4,f5,e8,g8/f17,e13,f13,g13,h13,c11,g11,e15,j11,d11,k11";
/// The page's puzzle: the visitor (lower case) to move can score.
pub(super) const PAGE_PUZZLE: &str = "11/4k6/4q6/4bn4r/7on2/4N6/3r7/4b6/6n4/3BR2Q3/q4Bn4/7N1N1/11/\
                                      4QNR4/11/11/5K5 second 1 - 1 0-0 0-0";

pub(super) fn spec(position: Option<String>, options: &[(&str, OptionValue)]) -> SetupSpec {
    let given: BTreeMap<String, OptionValue> = options
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect();
    SetupSpec {
        options: Options::resolve(&SoccerChess::info().options, &given).unwrap(),
        seed: crate::Seed::from_number(0),
        position,
    }
}

pub(super) fn game_at(position: &str, options: &[(&str, OptionValue)]) -> SoccerChess {
    SoccerChess::new(&spec(Some(position.to_owned()), options))
        .unwrap_or_else(|e| panic!("{position}: {e}"))
}

pub(super) fn fresh(options: &[(&str, OptionValue)]) -> SoccerChess {
    SoccerChess::new(&spec(None, options)).unwrap()
}

/// A position from a list of pieces such as `Qe5` (visited, bottom) or `ke16` (visitor, top).
pub(super) fn pos(pieces: &str, ball: &str, rest: &str) -> String {
    let mut rows = vec![vec!['.'; 11]; 17];
    let mut mark = |symbol: char, square: Square| {
        rows[(17 - square.rank) as usize][(square.file - 1) as usize] = symbol;
    };
    for entry in pieces.split_whitespace() {
        let symbol = entry.chars().next().unwrap();
        mark(symbol, sq(&entry[1..]));
    }
    mark('o', sq(ball));
    let board: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for c in row {
                if *c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text += &empty.to_string();
                        empty = 0;
                    }
                    text.push(*c);
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    format!("{} {rest}", board.join("/"))
}

pub(super) fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

pub(super) fn int(value: i64) -> OptionValue {
    OptionValue::Int(value)
}

/// Parses and applies one action of the seat to move.
pub(super) fn act(game: &mut SoccerChess, text: &str) -> Vec<Event> {
    let seat = game.to_move;
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into_iter()
        .map(|emitted| emitted.event)
        .collect()
}

/// Applies an action that must be refused, checks the state did not change, returns the error.
fn refused(game: &mut SoccerChess, seat: Seat, action: Action) -> RuleError {
    let before = game.clone();
    let err = game
        .apply(seat, &action)
        .expect_err("the action must be refused");
    assert_eq!(*game, before, "a refused action changed the state");
    err
}

/// The board as the page draws it: ranks 17 down to 1, `.` for empty.
fn diagram(game: &SoccerChess) -> Vec<String> {
    let view = game.board(Viewer::Spectator);
    let visitor = game.details(Viewer::Spectator).visitor;
    (1..=17)
        .rev()
        .map(|rank| {
            (1..=11)
                .map(|file| {
                    let square = Square::new(file, rank);
                    if let Some(piece) = view.pieces.iter().find(|p| p.square == square) {
                        let symbol = piece.symbol.chars().next().unwrap();
                        if piece.owner == visitor {
                            symbol.to_ascii_lowercase()
                        } else {
                            symbol
                        }
                    } else if view.ball.as_ref().and_then(|b| b.square) == Some(square) {
                        'o'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

fn assert_diagram(game: &SoccerChess, expected: &[&str; 17]) {
    let actual = diagram(game);
    for (row, rank) in (1..=17).rev().enumerate() {
        assert_eq!(actual[row], expected[row], "rank {rank} differs");
    }
}

fn destinations(game: &SoccerChess, from: &str) -> (Vec<Square>, Vec<Square>) {
    let from = sq(from);
    let mut moves = Vec::new();
    let mut kicks = Vec::new();
    for action in game.legal_actions(game.to_move) {
        match action {
            Action::Move { from: f, to } if f == from => moves.push(to),
            Action::Kick { from: f, target } if f == from => kicks.push(target),
            _ => {}
        }
    }
    moves.sort();
    kicks.sort();
    (moves, kicks)
}

fn squares(names: &str) -> Vec<Square> {
    let mut list: Vec<Square> = names.split_whitespace().map(sq).collect();
    list.sort();
    list
}

// ---------------------------------------------------------------- setup

#[test]
fn the_visitor_places_first_then_the_visited_who_kicks_off() {
    let mut game = fresh(&[]);
    let turn = game.turn();
    assert_eq!(
        (turn.phase.as_str(), turn.to_act.clone()),
        ("setup", vec![SECOND])
    );
    assert!(game.legal_actions(FIRST).is_empty());
    let err = refused(&mut game, FIRST, Action::DefaultFormation);
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
    act(&mut game, "default");
    assert_eq!(game.turn().to_act, vec![FIRST]);
    assert_eq!(game.turn().phase, "setup");
    act(&mut game, "default");
    let turn = game.turn();
    assert_eq!(turn.phase, "play");
    assert_eq!(turn.to_act, vec![FIRST]);
    assert_eq!(turn.number, 1);
    assert_eq!(turn.actions_left, Some(5));
    assert!(!turn.may_end_turn);
}

#[test]
fn the_default_formations_give_the_pages_first_diagram() {
    let mut game = fresh(&[]);
    act(&mut game, "default");
    act(&mut game, "default");
    assert_diagram(&game, &PAGE_START);
    assert_eq!(
        game.position(),
        format!("{PAGE_START_POSITION} {DEFAULT_FORMATION_IDS}")
    );
}

#[test]
fn placements_stay_in_the_own_team_area() {
    let mut game = fresh(&[]);
    for square in ["a9", "a8", "k1"] {
        let err = refused(
            &mut game,
            SECOND,
            Action::Place {
                kind: PieceKind::Rook,
                square: sq(square),
            },
        );
        assert_eq!(err.kind, RuleErrorKind::IllegalAction);
        assert!(err.message.contains("team area (ranks 10-17)"), "{err}");
    }
    act(&mut game, "R@a10");
    act(&mut game, "R@k17");
}

#[test]
fn the_keeper_starts_in_its_small_area_and_nobody_else_does() {
    let mut game = fresh(&[]);
    let err = game.parse_action(SECOND, "K@c17").unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert!(err.message.contains("small area"), "{err}");
    let err = game.parse_action(SECOND, "Q@e16").unwrap_err();
    assert!(err.message.contains("only the keeper"), "{err}");
    act(&mut game, "K@d16");
    act(&mut game, "Q@c16");
}

#[test]
fn bishops_start_on_different_colours() {
    let mut game = fresh(&[]);
    act(&mut game, "B@a10");
    let err = refused(
        &mut game,
        SECOND,
        Action::Place {
            kind: PieceKind::Bishop,
            square: sq("b11"),
        },
    );
    assert!(err.message.contains("different colours"), "{err}");
    act(&mut game, "B@a11");
}

#[test]
fn a_square_holds_one_piece_and_a_team_has_eleven() {
    let mut game = fresh(&[]);
    act(&mut game, "N@c12");
    let err = refused(
        &mut game,
        SECOND,
        Action::Place {
            kind: PieceKind::Defender,
            square: sq("c12"),
        },
    );
    assert!(err.message.contains("already holds"), "{err}");
    act(&mut game, "K@f17");
    let err = game.parse_action(SECOND, "K@e17").unwrap_err();
    assert!(err.message.contains("no keeper left"), "{err}");
}

#[test]
fn every_allowed_placement_is_listed_and_nothing_else() {
    let game = fresh(&[]);
    let legal = game.legal_actions(SECOND);
    // The default formation, the keeper on its 10 small-area squares, and four other kinds on
    // the 78 team-area squares outside the small area.
    assert_eq!(legal.len(), 1 + 10 + 4 * 78);
    assert!(legal.contains(&Action::DefaultFormation));
}

#[test]
fn the_default_formation_is_offered_only_before_any_placement() {
    let mut game = fresh(&[]);
    act(&mut game, "Q@a10");
    assert!(
        !game
            .legal_actions(SECOND)
            .contains(&Action::DefaultFormation)
    );
    let err = refused(&mut game, SECOND, Action::DefaultFormation);
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
}

#[test]
fn setup_refuses_play_and_play_refuses_setup() {
    let mut game = fresh(&[]);
    let err = refused(&mut game, SECOND, Action::EndSet);
    assert!(err.message.contains("still being placed"), "{err}");
    let mut game = game_at(PAGE_START_POSITION, &[]);
    let err = refused(&mut game, FIRST, Action::DefaultFormation);
    assert!(err.message.contains("already placed"), "{err}");
}

#[test]
fn details_list_the_pieces_still_to_place() {
    let mut game = fresh(&[]);
    act(&mut game, "K@f17");
    act(&mut game, "N@a10");
    let details = game.details(Viewer::Seat(SECOND));
    use PieceKind::*;
    assert_eq!(
        details.unplaced,
        vec![
            Defender, Defender, Defender, Rook, Rook, Bishop, Bishop, Attacker, Attacker
        ]
    );
    assert_eq!(details.visitor, SECOND);
    assert_eq!(details.game, 1);
}

// ---------------------------------------------------------------- movement

#[test]
fn the_keeper_steps_like_a_king_inside_its_small_area() {
    let game = game_at(&pos("Kd1 Qa5 kf17", "f9", "first 1 - 1 0-0 0-0"), &[]);
    assert_eq!(destinations(&game, "d1").0, squares("d2 e1 e2"));
}

#[test]
fn defenders_jump_like_knights_but_never_into_a_small_area() {
    let game = game_at(
        &pos("Nc3 Rb3 Rc4 nd3 nc2 Kf1 kf17", "f9", "first 1 - 1 0-0 0-0"),
        &[],
    );
    // d1 and e2 are small-area squares; the surrounding pieces do not block a jump.
    assert_eq!(destinations(&game, "c3").0, squares("a2 a4 b1 b5 d5 e4"));
}

#[test]
fn sliding_moves_stop_at_pieces_and_at_the_ball() {
    let game = game_at(
        &pos("Ra5 Ba8 qa3 Kf1 kf17", "c5", "first 1 - 1 0-0 0-0"),
        &[],
    );
    assert_eq!(destinations(&game, "a5").0, squares("a4 a6 a7 b5"));
    let game = game_at(&pos("Bc4 Nf7 Kf1 kf17", "a6", "first 1 - 1 0-0 0-0"), &[]);
    assert_eq!(destinations(&game, "c4").0, squares("b5 d5 e6 b3 a2 d3"));
    let game = game_at(&pos("Qc4 Nf7 Kf1 kf17", "c6", "first 1 - 1 0-0 0-0"), &[]);
    let moves = destinations(&game, "c4").0;
    assert!(moves.contains(&sq("c5")) && !moves.contains(&sq("c7")));
    assert!(moves.contains(&sq("e6")) && !moves.contains(&sq("g8")));
    assert!(moves.contains(&sq("k4")) && moves.contains(&sq("c3")));
    assert!(!moves.contains(&sq("e2")), "e2 is in a small area");
}

#[test]
fn sliders_may_not_cross_a_small_area_unless_the_option_allows_it() {
    let position = pos("Rc1 Kf2 kf17", "f9", "first 1 - 1 0-0 0-0");
    let blocked = game_at(&position, &[]);
    assert!(!destinations(&blocked, "c1").0.contains(&sq("i1")));
    let open = game_at(
        &position,
        &[("slide_through_small_areas", OptionValue::Bool(true))],
    );
    let moves = destinations(&open, "c1").0;
    assert!(moves.contains(&sq("i1")) && moves.contains(&sq("k1")));
    assert!(
        !moves.contains(&sq("e1")),
        "passing is allowed, stopping is not"
    );
}

// ---------------------------------------------------------------- kicks

#[test]
fn a_kick_follows_the_kick_pattern_from_the_balls_square() {
    // The queen steps onto e6 and kicks: its vacated e5 counts as empty, the ball may land in
    // the small area (e2, e1), but the own goal e0 is not allowed by default.
    let game = game_at(&pos("Qe5 Kg1 Nc8 kf17", "e6", "first 1 - 1 0-0 0-0"), &[]);
    let kicks = destinations(&game, "e5").1;
    for target in [
        "e5", "e4", "e2", "e1", "e17", "e18", "d6", "a6", "k6", "d7", "k12", "b3",
    ] {
        assert!(
            kicks.contains(&sq(target)),
            "{target} missing from {kicks:?}"
        );
    }
    // c8 holds a piece: the diagonal kick stops before it.
    assert!(kicks.contains(&sq("d7")) && !kicks.contains(&sq("c8")) && !kicks.contains(&sq("b9")));
    assert!(!kicks.contains(&sq("e0")), "own goal");
}

#[test]
fn a_kick_needs_a_clear_way_to_the_ball_and_a_free_landing_square() {
    let game = game_at(&pos("Ra4 Na6 Kf1 kf17", "a8", "first 1 - 1 0-0 0-0"), &[]);
    assert!(
        destinations(&game, "a4").1.is_empty(),
        "a6 blocks the way to the ball"
    );
    let game = game_at(
        &pos("Ra4 Nb4 Kf1 kf17 nh5", "a5", "first 1 - 1 0-0 0-0"),
        &[],
    );
    // From a5 sideways the ball stops before h5; b4 is not on a rook line from a5.
    assert_eq!(
        destinations(&game, "a4").1,
        squares("a1 a2 a3 a4 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 a17 b5 c5 d5 e5 f5 g5")
    );
}

#[test]
fn defenders_kick_like_knights_even_into_the_goal() {
    let game = game_at(&pos("Na16 Kf1 kf17", "c17", "first 1 - 1 0-0 0-0"), &[]);
    // e18 is a crossbar cell; d15 and a16 (the vacated square) are plain landing squares.
    assert_eq!(destinations(&game, "a16").1, squares("a16 b15 d15 e16 e18"));
}

#[test]
fn a_diagonal_kick_may_cross_a_small_area_into_the_goal() {
    let mut game = game_at(&pos("Bb14 Kf1 kf17", "c15", "first 1 - 1 0-0 0-0"), &[]);
    assert!(destinations(&game, "b14").1.contains(&sq("f18")));
    let events = act(&mut game, "Bxf18");
    assert!(matches!(events[1], Event::GoalScored { seat: FIRST, .. }));
}

#[test]
fn keepers_reach_the_ball_only_in_their_small_area_and_kick_like_queens() {
    let game = game_at(&pos("Kd1 kf17", "c2", "first 1 - 1 0-0 0-0"), &[]);
    assert!(destinations(&game, "d1").1.is_empty());
    let game = game_at(&pos("Kf1 kf17", "f2", "first 1 - 1 0-0 0-0"), &[]);
    let kicks = destinations(&game, "f1").1;
    for target in ["f1", "f16", "k7", "a7", "a2", "k2", "e1", "g1"] {
        assert!(
            kicks.contains(&sq(target)),
            "{target} missing from {kicks:?}"
        );
    }
    assert!(!kicks.contains(&sq("f17")) && !kicks.contains(&sq("f0")));
}

#[test]
fn only_a_keeper_can_play_a_ball_lying_in_a_small_area() {
    let game = game_at(&pos("Qf4 Kd1 kf17", "f2", "first 1 - 1 0-0 0-0"), &[]);
    assert!(destinations(&game, "f4").1.is_empty());
    assert!(destinations(&game, "f4").0.contains(&sq("f3")));
}

#[test]
fn own_goals_are_refused_by_default_and_count_for_the_opponent_when_allowed() {
    let position = pos("Qe4 Kg1 kf17", "e3", "first 1 - 1 0-0 0-0");
    let mut game = game_at(&position, &[]);
    let err = game.parse_action(FIRST, "Qxe0").unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    let mut allowed = game_at(&position, &[("own_goals", OptionValue::Bool(true))]);
    let events = act(&mut allowed, "Qxe0");
    assert_eq!(
        events[1],
        Event::GoalScored {
            seat: SECOND,
            game: 1,
            away_goal: true,
            own_goal: true,
            game_score: [0, 1],
        }
    );
    assert_eq!(allowed.scores(), vec![0, 1]);
    // The set of the side that scored against itself ends; strict alternation gives the move
    // to the side credited with the goal.
    assert_eq!(allowed.turn().to_act, vec![SECOND]);
    act(&mut game, "Qxe5");
}

// ---------------------------------------------------------------- sets

#[test]
fn each_piece_moves_at_most_once_per_set() {
    let mut game = game_at(PAGE_START_POSITION, &[]);
    act(&mut game, "Bi7");
    assert!(destinations(&game, "i7").0.is_empty());
    let err = refused(
        &mut game,
        FIRST,
        Action::Move {
            from: sq("i7"),
            to: sq("h6"),
        },
    );
    assert!(err.message.contains("already moved"), "{err}");
    assert_eq!(game.details(Viewer::Spectator).moved_piece_ids.len(), 1);
}

#[test]
fn a_set_passes_after_five_moves() {
    let mut game = game_at(PAGE_START_POSITION, &[]);
    for (i, text) in ["Bi7", "Nc5", "Nd5", "Ra1", "Rk3"].into_iter().enumerate() {
        assert_eq!(game.turn().actions_left, Some(5 - i as u32));
        let events = act(&mut game, text);
        if i == 4 {
            assert_eq!(
                events.last(),
                Some(&Event::SetEnded {
                    seat: FIRST,
                    set_number: 1,
                    moves: 5
                })
            );
        }
    }
    assert_eq!(game.turn().to_act, vec![SECOND]);
    assert_eq!(game.turn().number, 1);
    assert!(game.details(Viewer::Spectator).moved_piece_ids.is_empty());
}

#[test]
fn a_set_may_end_early_but_only_after_a_move() {
    let mut game = game_at(PAGE_START_POSITION, &[]);
    assert!(!game.legal_actions(FIRST).contains(&Action::EndSet));
    let err = refused(&mut game, FIRST, Action::EndSet);
    assert_eq!(err.rule, Some(rules::END_AFTER_A_MOVE), "{err}");
    act(&mut game, "Bi7");
    assert!(game.turn().may_end_turn);
    let events = act(&mut game, "end");
    assert_eq!(
        events,
        vec![Event::SetEnded {
            seat: FIRST,
            set_number: 1,
            moves: 1
        }]
    );
    act(&mut game, "Ra11");
    act(&mut game, "end");
    // Sets are numbered per side: both have played set 1, the visited opens set 2.
    assert_eq!(game.turn().to_act, vec![FIRST]);
    assert_eq!(game.turn().number, 2);
}

#[test]
fn a_side_that_cannot_move_may_pass() {
    let mut game = game_at(&pos("Ba1 nb2 kf17", "f9", "first 1 - 1 0-0 0-0"), &[]);
    assert_eq!(game.legal_actions(FIRST), vec![Action::EndSet]);
    let events = act(&mut game, "end");
    assert!(matches!(events[0], Event::SetEnded { moves: 0, .. }));
}

// ---------------------------------------------------------------- goals

#[test]
fn a_goal_scores_resets_the_ball_and_hands_the_move_to_the_conceding_side() {
    let mut game = game_at(&pos("Na16 Ra4 Kf1 kf17", "c17", "first 1 - 1 0-0 0-0"), &[]);
    act(&mut game, "Ra5");
    let events = act(&mut game, "Nxe18");
    assert_eq!(
        events,
        vec![
            Event::BallKicked {
                piece_id: 1,
                from: sq("a16"),
                ball_from: sq("c17"),
                ball_to: sq("e18"),
            },
            Event::GoalScored {
                seat: FIRST,
                game: 1,
                away_goal: false,
                own_goal: false,
                game_score: [1, 0],
            },
            Event::BallReset { square: sq("f9") },
            Event::SetEnded {
                seat: FIRST,
                set_number: 1,
                moves: 2
            },
        ]
    );
    assert_eq!(game.scores(), vec![1, 0]);
    assert_eq!(game.turn().to_act, vec![SECOND]);
    // Pieces stay where they are; the kicker ends on the ball's old square.
    assert_eq!(diagram(&game)[0], "..N..k.....");
    assert_eq!(diagram(&game)[12], "R..........");
}

#[test]
fn the_restart_avoids_a_piece_standing_on_the_centre() {
    let mut game = game_at(&pos("Na16 Qf9 Kf1 kf17", "c17", "first 1 - 1 0-0 0-0"), &[]);
    let events = act(&mut game, "Nxe18");
    assert!(events.contains(&Event::BallReset { square: sq("e9") }));
}

#[test]
fn a_goal_by_the_visitor_is_an_away_goal() {
    let mut game = game_at(PAGE_PUZZLE, &[]);
    for text in ["Nxi15", "Qexk15", "Rxk4"] {
        act(&mut game, text);
    }
    let events = act(&mut game, "Bxg0");
    assert_eq!(
        events[1],
        Event::GoalScored {
            seat: SECOND,
            game: 1,
            away_goal: true,
            own_goal: false,
            game_score: [0, 1],
        }
    );
    assert_eq!(game.details(Viewer::Spectator).away_goals, [0, 1]);
}

// ---------------------------------------------------------------- the match

fn end_both_sets(game: &mut SoccerChess) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..2 {
        let seat = game.to_move;
        let first_move = game
            .legal_actions(seat)
            .into_iter()
            .find(|a| matches!(a, Action::Move { .. }))
            .expect("a move is available");
        events.extend(
            game.apply(seat, &first_move)
                .unwrap()
                .into_iter()
                .map(|e| e.event),
        );
        events.extend(
            game.apply(seat, &Action::EndSet)
                .unwrap()
                .into_iter()
                .map(|e| e.event),
        );
    }
    events
}

#[test]
fn after_the_last_set_the_second_game_starts_with_sides_swapped() {
    let mut game = game_at(
        &PAGE_START_POSITION.replace(" 1 0-0", " 1 2-1"),
        &[("sets_per_game", int(1))],
    );
    let events = end_both_sets(&mut game);
    let tail = &events[events.len() - 3..];
    assert_eq!(
        tail,
        [
            Event::GameEnded {
                game: 1,
                game_score: [2, 1]
            },
            Event::SecondGameStarted { visitor: FIRST },
            Event::BallReset { square: sq("f9") },
        ]
    );
    assert!(game.board(Viewer::Spectator).pieces.is_empty());
    assert_eq!(game.turn().phase, "setup");
    assert_eq!(game.turn().to_act, vec![FIRST]);
    // first now visits: it sets up at the top and its default formation is the top one.
    assert!(game.parse_action(FIRST, "K@f1").is_err());
    act(&mut game, "default");
    let view = game.board(Viewer::Spectator);
    let keeper = view.pieces.iter().find(|p| p.symbol == "K").unwrap();
    assert_eq!(
        (keeper.id, keeper.square),
        (0, sq("f17")),
        "ids are stable for the match"
    );
    act(&mut game, "default");
    assert_eq!(game.turn().to_act, vec![SECOND], "the visited kicks off");
    let details = game.details(Viewer::Spectator);
    assert_eq!(details.game, 2);
    assert_eq!(details.game_scores, [[2, 1], [0, 0]]);
    assert_eq!(details.away_goals, [0, 1]);
}

/// A game-2 position (second visited, at the bottom) in its last set with the given scores.
fn last_set_of_game_two(scores: &str, options: &[(&str, OptionValue)]) -> SoccerChess {
    let position = pos("Kf1 Qa5 kf17 qa12", "f9", &format!("second 1 - 2 {scores}"));
    game_at(&position, options)
}

#[test]
fn more_goals_on_aggregate_win_the_match() {
    let mut game = last_set_of_game_two("2-0 0-1", &[("sets_per_game", int(1))]);
    let events = end_both_sets(&mut game);
    assert_eq!(
        events.last(),
        Some(&Event::GameEnded {
            game: 2,
            game_score: [0, 1]
        })
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(FIRST));
    assert_eq!(outcome.scores, vec![2, 1]);
    assert!(game.turn().to_act.is_empty());
    assert_eq!(
        refused(&mut game, FIRST, Action::EndSet).kind,
        RuleErrorKind::GameOver
    );
}

#[test]
fn on_an_aggregate_tie_away_goals_count_double() {
    // 1-1 in game 1 (second visited and scored away), 0-0 in game 2.
    let mut game = last_set_of_game_two("1-1 0-0", &[("sets_per_game", int(1))]);
    end_both_sets(&mut game);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(SECOND));
    assert!(outcome.reason.contains("away"), "{}", outcome.reason);
}

#[test]
fn a_full_tie_goes_to_golden_goal_and_the_next_goal_wins() {
    let mut game = last_set_of_game_two("1-0 0-1", &[("sets_per_game", int(1))]);
    let events = end_both_sets(&mut game);
    assert_eq!(
        events.last(),
        Some(&Event::GoldenGoalStarted { aggregate: [1, 1] })
    );
    assert!(game.outcome().is_none());
    assert!(game.details(Viewer::Spectator).golden_goal);
    assert_eq!(game.turn().number, 2);
    assert_eq!(game.turn().to_act, vec![SECOND]);
    let mut game = game_at(
        &pos("Na16 Kf1 kf17", "c17", "second 2 - 2 1-0 0-1"),
        &[("sets_per_game", int(1))],
    );
    let events = act(&mut game, "Nxe18");
    assert!(events.contains(&Event::GameEnded {
        game: 2,
        game_score: [0, 2]
    }));
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason.as_str()),
        (Some(SECOND), "golden goal")
    );
}

#[test]
fn golden_goal_ends_in_a_draw_after_its_set_limit() {
    let options = [("sets_per_game", int(1)), ("golden_goal_max_sets", int(2))];
    let mut game = last_set_of_game_two("0-0 0-0", &options);
    end_both_sets(&mut game);
    end_both_sets(&mut game);
    assert!(
        game.outcome().is_none(),
        "one golden-goal set is not the limit of two"
    );
    end_both_sets(&mut game);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.scores, vec![0, 0]);
}

// ---------------------------------------------------------------- the page

#[test]
fn the_pages_sample_game_replays_to_its_second_diagram() {
    let mut game = game_at(PAGE_START_POSITION, &[]);
    assert_diagram(&game, &PAGE_START);
    // The page calls the first kicker "the e5 Queen", but its diagram has queens on e8 and g8
    // and no piece on e5: it is the e8 queen, the file alone naming it.
    let visited = ["Qexi9", "Nxk10", "Rxa10", "Bi7", "Raxa15"];
    let visitor = ["Ra11", "Nc14", "Ne11", "Bi10", "Nf12"];
    for text in visited.into_iter().chain(visitor) {
        let seat = game.to_move;
        let action = game.parse_action(seat, text).unwrap();
        // Our canonical form names the file only when needed: the page's `Raxa15` names it
        // although the k10 rook has already moved in this set.
        let canonical = if text == "Raxa15" { "Rxa15" } else { text };
        assert_eq!(game.format_action(seat, &action), canonical);
        game.apply(seat, &action).unwrap();
    }
    assert_diagram(&game, &PAGE_AFTER_SAMPLE);
    assert_eq!(game.turn().to_act, vec![FIRST]);
    assert_eq!(game.turn().number, 2);
}

#[test]
fn the_pages_puzzle_the_visitor_scores_in_one_set() {
    let mut game = game_at(PAGE_PUZZLE, &[]);
    assert_eq!(game.turn().to_act, vec![SECOND]);
    // A knight flick, two long kicks, then the e10 bishop runs to k4 and kicks diagonally over
    // j3, i2 and h1 (in the small area) into g0.
    act(&mut game, "Nxi15");
    act(&mut game, "Qexk15");
    act(&mut game, "Rxk4");
    let events = act(&mut game, "Bxg0");
    assert!(matches!(events[1], Event::GoalScored { seat: SECOND, .. }));
    assert_eq!(game.scores(), vec![0, 1]);
}

// ---------------------------------------------------------------- notation

#[test]
fn disambiguation_uses_the_file_then_the_rank_then_both() {
    let game = game_at(
        &pos(
            "Nc3 Nc7 Ne3 Ne7 Ra2 Ra8 Kf1 kf17",
            "k17",
            "first 1 - 1 0-0 0-0",
        ),
        &[],
    );
    let format = |from: &str, to: &str| {
        game.format_action(
            FIRST,
            &Action::Move {
                from: sq(from),
                to: sq(to),
            },
        )
    };
    assert_eq!(format("c3", "d5"), "Nc3d5");
    assert_eq!(format("a2", "a5"), "R2a5");
    assert_eq!(format("c3", "b1"), "Nb1");
    assert_eq!(format("c3", "b5"), "N3b5");
    for text in [
        "Nc3d5", "Nc3-d5", "R2a5", "Ra2a5", "Nb1", "Ncb1", "N3b1", "Nc3b1",
    ] {
        let action = game.parse_action(FIRST, text).unwrap();
        assert_eq!(
            game.parse_action(FIRST, &game.format_action(FIRST, &action)),
            Ok(action)
        );
    }
}

#[test]
fn an_ambiguous_notation_names_the_candidates() {
    let game = game_at(PAGE_START_POSITION, &[]);
    let err = game.parse_action(FIRST, "Qxi9").unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert!(err.message.contains("Qexi9 or Qgxi9"), "{err}");
    assert_eq!(
        game.parse_action(FIRST, "Qe8xi9"),
        Ok(Action::Kick {
            from: sq("e8"),
            target: sq("i9")
        })
    );
    assert_eq!(
        game.parse_action(FIRST, " Qgxi9 ").unwrap(),
        Action::Kick {
            from: sq("g8"),
            target: sq("i9")
        }
    );
}

#[test]
fn unreadable_notation_is_malformed() {
    let game = game_at(PAGE_START_POSITION, &[]);
    for text in [
        "", "hello", "Z@a1", "Q", "Qe", "Qxz99", "Qa0", "Qxa0", "Q@m3", "Qe88i7", "Q0xi9",
    ] {
        let err = game.parse_action(FIRST, text).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::MalformedNotation, "{text}: {err}");
    }
}

#[test]
fn readable_but_illegal_notation_lists_what_the_piece_kind_can_do() {
    let game = game_at(PAGE_START_POSITION, &[]);
    let err = game.parse_action(FIRST, "Bxa1").unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    assert!(err.message.contains("legal for your bishops"), "{err}");
    assert!(err.message.contains("Bi7"), "{err}");
    let err = game.parse_action(FIRST, "K@f1").unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction);
    let err = game.parse_action(SECOND, "Ra11").unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
}

#[test]
fn setup_and_end_set_have_notations() {
    let mut game = fresh(&[]);
    let place = Action::Place {
        kind: PieceKind::Keeper,
        square: sq("f17"),
    };
    assert_eq!(game.format_action(SECOND, &place), "K@f17");
    assert_eq!(
        game.format_action(SECOND, &Action::DefaultFormation),
        "default"
    );
    assert_eq!(
        game.parse_action(SECOND, "DEFAULT"),
        Ok(Action::DefaultFormation)
    );
    act(&mut game, "default");
    act(&mut game, "default");
    act(&mut game, "Bi7");
    assert_eq!(game.format_action(FIRST, &Action::EndSet), "end");
    assert_eq!(game.parse_action(FIRST, "End"), Ok(Action::EndSet));
}

// ---------------------------------------------------------------- position notation

#[test]
fn positions_round_trip_through_the_notation() {
    let mut game = game_at(PAGE_START_POSITION, &[]);
    act(&mut game, "Qexi9");
    act(&mut game, "Nxk10");
    let text = game.position();
    assert_eq!(
        text,
        "5k5/11/4b6/11/4nnnn3/11/2rq2r2bq/10o/5Q2N2/R5Q3R/1N2N1N4/11/5B5/5B5/11/11/5K5 \
         first 1 f9,i9 1 0-0 0-0 \
         f1,b7,e7,g7,i9,a8,k8,f5,f4,f9,g8/f17,e13,f13,g13,h13,c11,g11,e15,j11,d11,k11"
    );
    let rebuilt = game_at(&text, &[]);
    assert_eq!(rebuilt.position(), text);
    assert_eq!(rebuilt, game);
    let listed = |g: &SoccerChess| -> Vec<String> {
        g.legal_actions(FIRST)
            .iter()
            .map(|a| g.format_action(FIRST, a))
            .collect()
    };
    assert_eq!(listed(&rebuilt), listed(&game));
    assert_eq!(rebuilt.details(Viewer::Spectator).moved_piece_ids.len(), 2);
}

#[test]
fn the_position_after_the_match_is_written_but_not_a_start() {
    let mut game = last_set_of_game_two("2-0 0-1", &[("sets_per_game", int(1))]);
    end_both_sets(&mut game);
    assert!(game.outcome().is_some());
    let text = game.position();
    assert!(text.ends_with(" - 1 - 2 2-0 0-1"), "{text}");
    let err = SoccerChess::new(&spec(Some(text), &[])).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::InvalidPosition);
    assert!(err.message.contains("finished match"), "{err}");
}

#[test]
fn invalid_positions_are_refused_with_a_reason() {
    let base = |pieces: &str, ball: &str, rest: &str| pos(pieces, ball, rest);
    let cases = [
        ("5k5/11 first 1 - 1 0-0 0-0".to_owned(), "17 ranks"),
        (base("Kf1 kf17", "f9", "first 1 - 1 0-0"), "7 fields"),
        (PAGE_START_POSITION.replace("5o5", "5o4"), "10 squares"),
        (PAGE_START_POSITION.replace("5o5", "5o5o"), "more than 11"),
        (PAGE_START_POSITION.replace("5o5", "11"), "no ball"),
        (
            PAGE_START_POSITION.replace("5o5", "o4o5"),
            "more than one ball",
        ),
        (
            base("Kf1 Kg2 kf17", "f9", "first 1 - 1 0-0 0-0"),
            "more than 1 keeper",
        ),
        (
            base("Kc1 kf17", "f9", "first 1 - 1 0-0 0-0"),
            "outside its own small area",
        ),
        (
            base("Kf1 kf2", "f9", "first 1 - 1 0-0 0-0"),
            "outside its own small area",
        ),
        (
            base("Kf1 Re2 kf17", "f9", "first 1 - 1 0-0 0-0"),
            "small area",
        ),
        (
            base("Kf1 Xe5 kf17", "f9", "first 1 - 1 0-0 0-0"),
            "not a piece",
        ),
        (
            base("Kf1 kf17", "f9", "third 1 - 1 0-0 0-0"),
            "first` or `second",
        ),
        (
            base("Kf1 kf17", "f9", "first 31 - 1 0-0 0-0"),
            "set 31 does not exist",
        ),
        (
            base("Kf1 kf17", "f9", "first 1 - 3 0-0 0-0"),
            "game is 1 or 2",
        ),
        (
            base("Kf1 kf17", "f9", "first 1 - 1 0-0 1-0"),
            "game 2 cannot have a score",
        ),
        (
            base("Kf1 kf17", "f9", "first 31 - 2 1-0 0-0"),
            "golden goal",
        ),
        (
            base("Kf1 kf17", "f9", "first 61 - 2 0-0 0-0"),
            "past the golden-goal limit",
        ),
        (
            base("Kf1 kf17", "f9", "first 1 - 1 0:0 0-0"),
            "first-second",
        ),
        (
            base("Kf1 Qa5 kf17", "f9", "first 1 a6 1 0-0 0-0"),
            "holds no piece of first",
        ),
        (
            base("Kf1 Qa5 kf17", "f9", "first 1 a5,a5 1 0-0 0-0"),
            "twice",
        ),
        (
            base(
                "Kf1 Qa5 Qa6 Ra7 Ra8 Ba9 kf17",
                "f9",
                "first 1 a5,a6,a7,a8,a9 1 0-0 0-0",
            ),
            "at most 4",
        ),
        (base("Kf1 kf17", "f9", "- 1 - 1 0-0 0-0"), "finished match"),
    ];
    for (text, reason) in cases {
        let err = SoccerChess::new(&spec(Some(text.clone()), &[])).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
        assert!(err.message.contains(reason), "{text}: {err}");
    }
}

#[test]
fn custom_positions_may_use_bishops_of_one_colour_as_the_pages_puzzle_does() {
    let game = game_at(PAGE_PUZZLE, &[]);
    assert_eq!(game.turn().phase, "play");
    let view = game.board(Viewer::Spectator);
    let visitor_bishops: Vec<Square> = view
        .pieces
        .iter()
        .filter(|p| p.owner == SECOND && p.symbol == "B")
        .map(|p| p.square)
        .collect();
    assert_eq!(visitor_bishops, vec![sq("e14"), sq("e10")]);
    assert_eq!(sq("e14").is_dark(), sq("e10").is_dark());
}

// ---------------------------------------------------------------- views

#[test]
fn the_board_view_marks_goals_small_areas_and_team_areas() {
    let game = game_at(PAGE_START_POSITION, &[]);
    let view = game.board(Viewer::Spectator);
    assert_eq!((view.files, view.ranks), (11, 17));
    let zone = |kind: ZoneKind, owner: Seat| {
        view.zones
            .iter()
            .find(|z| z.kind == kind && z.owner == Some(owner))
            .unwrap()
            .squares
            .clone()
    };
    assert_eq!(zone(ZoneKind::Goal, FIRST), squares("e0 f0 g0"));
    assert_eq!(zone(ZoneKind::Goal, SECOND), squares("e18 f18 g18"));
    let small = zone(ZoneKind::SmallArea, SECOND);
    assert_eq!(small.len(), 10);
    assert!(small.contains(&sq("d16")) && small.contains(&sq("h17")));
    assert!(
        zone(ZoneKind::TeamArea, FIRST)
            .iter()
            .all(|s| (1..=8).contains(&s.rank))
    );
    assert_eq!(zone(ZoneKind::TeamArea, SECOND).len(), 88);
    assert_eq!(view.pieces.len(), 22);
    let keeper = view.pieces.iter().find(|p| p.square == sq("f1")).unwrap();
    assert_eq!(
        (keeper.kind.as_str(), keeper.symbol.as_str()),
        ("keeper", "K")
    );
    assert_eq!(view.ball.unwrap().square, Some(sq("f9")));
}

#[test]
fn the_variant_declares_its_options_with_defaults() {
    let info = SoccerChess::info();
    assert_eq!(info.id, "soccer-chess");
    let game = fresh(&[]);
    assert_eq!(game.details(Viewer::Spectator).sets_per_game, 30);
    let defaults: Vec<(&str, OptionValue)> = info
        .options
        .iter()
        .map(|o| (o.name, o.default.clone()))
        .collect();
    assert_eq!(
        defaults,
        vec![
            ("sets_per_game", int(30)),
            ("own_goals", OptionValue::Bool(false)),
            ("slide_through_small_areas", OptionValue::Bool(false)),
            ("golden_goal_max_sets", int(30)),
        ]
    );
}

// ---------------------------------------------------------------- random play

/// Checks what must hold after every action.
fn check_invariants(game: &SoccerChess) {
    assert!(
        pitch::on_board(game.ball),
        "the ball left the board: {}",
        game.ball
    );
    assert!(
        game.piece_at(game.ball).is_none(),
        "a piece stands on the ball"
    );
    let mut seen = std::collections::BTreeSet::new();
    for (id, piece) in game.pieces.iter().enumerate() {
        let Some(square) = piece.square else { continue };
        assert!(seen.insert(square), "two pieces on {square}");
        assert_eq!(
            game.piece_at(square),
            Some(id as u32),
            "grid out of step on {square}"
        );
        if piece.kind == PieceKind::Keeper {
            assert!(game.half_of(piece.owner).small_area_contains(square));
        } else {
            assert!(
                !pitch::in_small_area(square),
                "{:?} in a small area",
                piece.kind
            );
        }
    }
    assert!(game.moved.len() < MOVES_PER_SET as usize);
    assert!(
        game.moved
            .iter()
            .all(|id| game.pieces[*id as usize].owner == game.to_move)
    );
    if game.phase == Phase::Play {
        for seat in [FIRST, SECOND] {
            let placed = SoccerChess::team_ids(seat)
                .filter(|id| game.pieces[*id as usize].square.is_some())
                .count();
            assert_eq!(placed, TEAM_SIZE);
        }
    }
}

/// The most actions a match can take: two setups, both games' sets and the golden-goal sets,
/// five moves each.
pub(super) fn action_bound(sets: u32, golden: u32) -> usize {
    (2 * 2 * TEAM_SIZE) + (2 * (2 * sets + golden) * MOVES_PER_SET) as usize
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_matches_keep_the_contract_and_end(
        seed in any::<u64>(),
        sets in 1i64..4,
        golden in 1i64..4,
        own_goals in any::<bool>(),
        slide in any::<bool>(),
    ) {
        let setup = spec(None, &[
            ("sets_per_game", int(sets)),
            ("golden_goal_max_sets", int(golden)),
            ("own_goals", OptionValue::Bool(own_goals)),
            ("slide_through_small_areas", OptionValue::Bool(slide)),
        ]);
        let bound = action_bound(sets as u32, golden as u32);
        let playout = checked_random_playout::<SoccerChess>(&setup, &mut Rng::new(seed), bound + 1);
        prop_assert!(playout.finished, "unfinished after {} actions", playout.log.len());
        check_invariants(&playout.game);
    }

    #[test]
    fn random_full_matches_keep_the_invariants(seed in any::<u64>()) {
        let mut game = fresh(&[]);
        let mut rng = Rng::new(seed);
        let mut goals = 0;
        let mut actions = 0;
        while game.outcome().is_none() {
            let seat = game.to_move;
            let legal = game.legal_actions(seat);
            prop_assert!(!legal.is_empty());
            let action = rng.pick(&legal).clone();
            for emitted in game.apply(seat, &action).unwrap() {
                if matches!(emitted.event, Event::GoalScored { .. }) {
                    goals += 1;
                }
            }
            check_invariants(&game);
            actions += 1;
            prop_assert!(actions <= action_bound(30, 30));
        }
        let outcome = game.outcome().unwrap();
        prop_assert_eq!(outcome.scores.iter().sum::<u32>(), goals);
        let details = game.details(Viewer::Spectator);
        prop_assert_eq!(details.game, 2);
        prop_assert_eq!(game.scores(), outcome.scores);
    }
}

// ----- listing legal actions -----

/// The notation of one action as the engine wrote it before lists were formatted with a table
/// of every movable piece's moves: the rivals' moves generated again for every action, and
/// `format!`. Kept as the reference the faster notation must match byte for byte.
fn reference_notation(game: &SoccerChess, seat: Seat, action: &Action) -> String {
    let piece_action = |from: Square, separator: &str, destination: Square| {
        let Some(id) = game.piece_at(from) else {
            return format!("{from}{separator}{destination}");
        };
        let kind = game.pieces[id as usize].kind;
        let rivals: Vec<Square> = game
            .movable_pieces(seat)
            .filter(|other| *other != id && game.pieces[*other as usize].kind == kind)
            .filter_map(|other| {
                let square = game.pieces[other as usize].square?;
                let relocated = match *action {
                    Action::Move { to, .. } => Action::Move { from: square, to },
                    Action::Kick { target, .. } => Action::Kick {
                        from: square,
                        target,
                    },
                    ref other => other.clone(),
                };
                game.piece_actions(other)
                    .contains(&relocated)
                    .then_some(square)
            })
            .collect();
        let disambiguation = if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|sq| sq.file != from.file) {
            from.to_string()[..1].to_owned()
        } else if rivals.iter().all(|sq| sq.rank != from.rank) {
            from.rank.to_string()
        } else {
            from.to_string()
        };
        format!("{}{disambiguation}{separator}{destination}", kind.symbol())
    };
    match *action {
        Action::Place { kind, square } => format!("{}@{square}", kind.symbol()),
        Action::DefaultFormation => "default".to_owned(),
        Action::EndSet => "end".to_owned(),
        Action::Move { from, to } => piece_action(from, "", to),
        Action::Kick { from, target } => piece_action(from, "x", target),
    }
}

#[test]
fn a_listed_move_or_kick_names_its_origin_as_when_formatted_alone() {
    let game = game_at(PAGE_PUZZLE, &[]);
    let seat = game.turn().to_act[0];
    let legal = game.legal_actions(seat);
    let listed = game.format_actions(seat, &legal);
    let mut hinted = 0;
    for (action, text) in legal.iter().zip(&listed) {
        assert_eq!(*text, game.format_action(seat, action));
        assert_eq!(*text, reference_notation(&game, seat, action));
        let (from, separator, destination) = match *action {
            Action::Move { from, to } => (from, "", to),
            Action::Kick { from, target } => (from, "x", target),
            _ => continue,
        };
        let kind = game.pieces[game.piece_at(from).unwrap() as usize].kind;
        if *text != format!("{}{separator}{destination}", kind.symbol()) {
            hinted += 1;
        }
    }
    assert!(
        hinted > 0,
        "the puzzle has moves two pieces of a kind could make: {listed:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// At every state of random matches (setup and play, every option), formatting the legal
    /// list at once agrees with formatting each action alone and with the earlier notation, and
    /// the turn's `may_end_turn` agrees with the list.
    #[test]
    fn listing_the_legal_actions_matches_formatting_them_one_by_one(
        seed in any::<u64>(),
        own_goals in any::<bool>(),
        slide in any::<bool>(),
        from_puzzle in any::<bool>(),
    ) {
        let options = [
            ("sets_per_game", int(3)),
            ("golden_goal_max_sets", int(2)),
            ("own_goals", OptionValue::Bool(own_goals)),
            ("slide_through_small_areas", OptionValue::Bool(slide)),
        ];
        let setup = spec(from_puzzle.then(|| PAGE_PUZZLE.to_owned()), &options);
        crate::playout::checked_listing_playout::<SoccerChess>(
            &setup,
            &mut Rng::new(seed),
            action_bound(3, 2),
            |game, seat, legal, listed| {
                for (action, text) in legal.iter().zip(listed) {
                    assert_eq!(*text, reference_notation(game, seat, action), "{action:?}");
                }
                // The turn says a set may end without listing the moves: it must agree.
                assert_eq!(
                    game.turn().may_end_turn,
                    legal.contains(&Action::EndSet),
                    "may_end_turn in {}",
                    game.position()
                );
            },
        );
    }
}
