use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;
use crate::game::RuleErrorKind;
use crate::options::{OptionValue, Options};
use crate::playout::checked_random_playout;
use crate::rng::Rng;

pub(super) const START: &str = "8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w -/-";

pub(super) fn spec(position: Option<&str>, moves_per_half: i64) -> SetupSpec {
    let given = BTreeMap::from([(
        OPTION_MOVES_PER_HALF.to_owned(),
        OptionValue::Int(moves_per_half),
    )]);
    SetupSpec {
        options: Options::resolve(&KingsGoal::info().options, &given).unwrap(),
        seed: crate::Seed::from_number(7),
        position: position.map(str::to_owned),
    }
}

pub(super) fn at(position: &str) -> KingsGoal {
    KingsGoal::new(&spec(Some(position), 45)).unwrap_or_else(|e| panic!("{position}: {e}"))
}

pub(super) fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Plays one action given in notation by the seat to act.
fn play(game: &mut KingsGoal, text: &str) -> Vec<Event> {
    let seat = game.turn().to_act[0];
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.position()));
    game.apply(seat, &action)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into_iter()
        .map(|e| e.event)
        .collect()
}

fn legal_texts(game: &KingsGoal) -> Vec<String> {
    let seat = game.turn().to_act[0];
    game.legal_actions(seat)
        .iter()
        .map(|a| game.format_action(seat, a))
        .collect()
}

/// Refuses `text` (readable, but illegal now) without changing anything; returns the message.
fn refused(game: &mut KingsGoal, text: &str) -> String {
    let seat = game.turn().to_act[0];
    let before = game.clone();
    let err = game.parse_action(seat, text).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::IllegalAction, "{text}: {err}");
    assert_eq!(*game, before);
    err.message
}

fn piece_on(game: &KingsGoal, name: &str) -> Option<(Seat, PieceKind)> {
    game.piece_at(sq(name)).map(|p| (p.owner, p.kind))
}

fn holder_square(game: &KingsGoal) -> Square {
    game.board(Viewer::Spectator).ball.unwrap().square.unwrap()
}

/// A position after both sides chose and placed: white kicks off with a rook on e4.
pub(super) const KICKOFF: &str = "r2k4/2p2p2/3b4/4n3/4R3/2P5/3N1P2/B3K3 play w e4 1:0 0-0 w* -/-";

// ----- choice -----

#[test]
fn a_match_starts_with_white_choosing() {
    let game = KingsGoal::new(&spec(None, 45)).unwrap();
    assert_eq!(game.position(), START);
    let turn = game.turn();
    assert_eq!(turn.phase, "choice");
    assert_eq!(turn.to_act, vec![WHITE]);
    assert_eq!(turn.number, 1);
    assert_eq!(
        legal_texts(&game),
        ["+Q", "+R", "+B", "+N", "+P", "+default"]
    );
    assert!(game.legal_actions(BLACK).is_empty());
}

#[test]
fn choices_come_from_the_thirteen_left_in_the_box() {
    let mut game = at(START);
    play(&mut game, "+Q");
    assert!(refused(&mut game, "+Q").contains("no queen is left"));
    play(&mut game, "+R");
    play(&mut game, "+R");
    assert_eq!(
        game.chosen[0],
        [PieceKind::Queen, PieceKind::Rook, PieceKind::Rook]
    );
    // White is done; black now picks, white may not.
    assert_eq!(game.turn().to_act, vec![BLACK]);
    let err = game
        .apply(WHITE, &Action::Choose(PieceKind::Knight))
        .unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
    assert!(refused(&mut game, "+K").contains("one king"));
}

#[test]
fn the_kicking_side_may_not_pick_three_pawns_because_it_could_not_kick_off() {
    let mut game = at(START);
    play(&mut game, "+P");
    play(&mut game, "+P");
    assert!(!legal_texts(&game).contains(&"+P".to_owned()));
    assert!(refused(&mut game, "+P").contains("kick off"));
    play(&mut game, "+B");
    assert_eq!(
        game.chosen[0],
        [PieceKind::Pawn, PieceKind::Pawn, PieceKind::Bishop]
    );
    // Black kicks off the second half and is held to the same constraint there.
    let mut game = at("8/8/8/8/8/8/8/8 choice b - 2:0 0-0 b -/PP");
    assert!(!legal_texts(&game).contains(&"+P".to_owned()));
    assert!(refused(&mut game, "+P").contains("kick off"));
}

#[test]
fn the_side_not_kicking_off_may_pick_any_three_pieces_even_three_pawns() {
    let mut game = at(START);
    play(&mut game, "+default");
    play(&mut game, "+P");
    play(&mut game, "+P");
    assert!(legal_texts(&game).contains(&"+P".to_owned()));
    play(&mut game, "+P");
    assert_eq!(game.chosen[1], [PieceKind::Pawn; 3]);
    // King and five pawns place and play like any other side.
    play(&mut game, "@default");
    play(&mut game, "@default");
    assert_eq!(game.turn().phase, "play");
    assert_eq!(
        game.pieces
            .iter()
            .filter(|p| p.owner == BLACK && p.kind == PieceKind::Pawn)
            .count(),
        5
    );
    // In the second half white does not kick off, and may pick three pawns too.
    let mut game = at("8/8/8/8/8/8/8/8 choice w - 2:0 0-0 b PP/QRN");
    play(&mut game, "+P");
    assert_eq!(game.turn().phase, "placement");
    // A custom start may show the side not kicking off with three pawns picked.
    at("8/8/8/8/8/8/8/8 placement w - 1:0 0-0 w KPPQRN/KPPPPP");
}

#[test]
fn default_choice_completes_the_picks_with_queen_rook_knight() {
    let mut game = at(START);
    play(&mut game, "+Q");
    let events = play(&mut game, "+default");
    assert_eq!(
        events,
        [Event::Chosen {
            seat: WHITE,
            kinds: vec![PieceKind::Rook, PieceKind::Knight]
        }]
    );
    play(&mut game, "+default");
    assert_eq!(
        game.chosen[1],
        [PieceKind::Queen, PieceKind::Rook, PieceKind::Knight]
    );
    assert_eq!(game.turn().phase, "placement");
    assert_eq!(game.turn().to_act, vec![WHITE]);
    assert_eq!(game.unplaced[1].len(), 6);
}

#[test]
fn a_match_created_without_options_plays_45_moves_each_per_half() {
    let game = crate::game::start::<KingsGoal>(&BTreeMap::new(), crate::Seed::from_number(0), None)
        .unwrap();
    assert_eq!(game.details(Viewer::Spectator).plies_per_half, 90);
    assert_eq!(game.position(), START);
}

// ----- placement -----

fn placing() -> KingsGoal {
    let mut game = at(START);
    for text in ["+R", "+B", "+B", "+N", "+N", "+Q"] {
        play(&mut game, text);
    }
    game
}

#[test]
fn the_kicking_side_places_its_kick_off_piece_on_e4_first() {
    let mut game = placing();
    let legal = legal_texts(&game);
    assert_eq!(legal, ["R@e4", "B@e4", "@default"]);
    assert!(refused(&mut game, "K@d1").contains("kick-off piece"));
    assert!(refused(&mut game, "P@e4").contains("kick-off piece"));
    play(&mut game, "B@e4");
    assert_eq!(game.turn().to_act, vec![BLACK]);
    // Black does not kick off and may start with any piece.
    play(&mut game, "N@b8");
    assert_eq!(piece_on(&game, "b8"), Some((BLACK, PieceKind::Knight)));
}

#[test]
fn placement_keeps_to_the_own_half_the_goal_for_the_king_and_pawns_off_it() {
    let mut game = placing();
    play(&mut game, "R@e4");
    assert!(refused(&mut game, "K@d5").contains("goal squares"));
    assert!(refused(&mut game, "N@d4").contains("outside your half"));
    assert!(refused(&mut game, "P@c8").contains("own goal squares"));
    assert!(refused(&mut game, "B@d7").contains("no bishop left"));
    play(&mut game, "K@c8");
    play(&mut game, "B@d2");
    assert!(refused(&mut game, "N@c8").contains("occupied"));
    for name in ["c8", "d8", "e8", "f8"] {
        assert!(!legal_texts(&game).contains(&format!("P@{name}")));
    }
    play(&mut game, "P@a8");
}

#[test]
fn the_two_bishops_stand_on_different_colours() {
    let mut game = placing();
    play(&mut game, "B@e4");
    play(&mut game, "K@e8");
    // e4 is light, so white's second bishop must go on a dark square.
    assert!(refused(&mut game, "B@c2").contains("different colours"));
    assert!(legal_texts(&game).contains(&"B@d2".to_owned()));
    play(&mut game, "B@d2");
    assert_ne!(sq("e4").is_dark(), sq("d2").is_dark());
}

#[test]
fn the_kick_off_piece_is_always_left_a_team_mate_to_pass_to() {
    // White's knight on e4 reaches c3, d2, f2 and g3 in its half; white's last piece must go
    // to one of them.
    let mut game = at("3k4/2p2p2/2n5/3rr3/4N3/1P6/8/B1K3R1 placement w - 1:0 0-0 w P/-");
    let legal = legal_texts(&game);
    assert_eq!(legal, ["P@d2", "P@f2", "P@c3", "P@g3", "@default"]);
    assert!(refused(&mut game, "P@a2").contains("pass to"));
    assert_eq!(
        game.details(Viewer::Spectator).chosen,
        [
            vec![PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook],
            vec![PieceKind::Knight, PieceKind::Rook, PieceKind::Rook]
        ]
    );
    play(&mut game, "P@g3");
    assert_eq!(game.turn().phase, "play");
    assert_eq!(legal_texts(&game), ["Ne4>g3"]);
}

#[test]
fn placement_alternates_and_a_finished_side_lets_the_other_go_on() {
    let mut game = placing();
    play(&mut game, "R@e4");
    assert_eq!(game.turn().to_act, vec![BLACK]);
    play(&mut game, "@default");
    assert!(game.unplaced[1].is_empty());
    for _ in 0..5 {
        assert_eq!(game.turn().to_act, vec![WHITE]);
        let first = legal_texts(&game)[0].clone();
        play(&mut game, &first);
    }
    assert_eq!(game.turn().phase, "play");
}

#[test]
fn default_placement_obeys_every_placement_rule() {
    for picks in [
        ["+B", "+B", "+N"],
        ["+P", "+P", "+N"],
        ["+Q", "+R", "+R"],
        ["+N", "+N", "+P"],
    ] {
        let mut game = at(START);
        for text in picks.iter().chain(picks.iter()) {
            play(&mut game, text);
        }
        let events = play(&mut game, "@default");
        assert_eq!(events.len(), 6);
        play(&mut game, "@default");
        assert_eq!(game.turn().phase, "play", "{picks:?}");
        for seat in [WHITE, BLACK] {
            let mine: Vec<&Piece> = game.pieces.iter().filter(|p| p.owner == seat).collect();
            assert_eq!(mine.len(), 6);
            for p in &mine {
                assert!(in_half(seat, p.square));
                match p.kind {
                    PieceKind::King => assert!(is_goal_of(seat, p.square)),
                    PieceKind::Pawn => assert!(!is_goal_of(seat, p.square)),
                    _ => {}
                }
            }
            let bishops: Vec<bool> = mine
                .iter()
                .filter(|p| p.kind == PieceKind::Bishop)
                .map(|p| p.square.is_dark())
                .collect();
            if bishops.len() == 2 {
                assert_ne!(bishops[0], bishops[1]);
            }
        }
        assert!(
            legal_texts(&game)
                .iter()
                .all(|t| t.starts_with(&format!("{}e4>", game.holder().unwrap().kind.letter())))
        );
    }
}

// ----- kick-off and movement -----

#[test]
fn the_kick_off_must_be_a_pass_by_the_piece_on_e4() {
    let mut game = at(KICKOFF);
    assert_eq!(game.holder().unwrap().square, sq("e4"));
    assert_eq!(legal_texts(&game), ["Re4>e1"]);
    assert!(refused(&mut game, "Re3").contains("kick-off is a pass"));
    let events = play(&mut game, "Re4>e1");
    assert!(matches!(events[0], Event::Passed { .. }));
    assert_eq!(holder_square(&game), sq("e1"));
    assert!(!game.kickoff_pending);
    assert_eq!(game.turn().to_act, vec![BLACK]);
    assert_eq!(game.turn().number, 2);
}

#[test]
fn sliders_are_blocked_and_only_the_carrier_can_be_captured() {
    // White rook a4 carries; the black pawn on d4 blocks the rank and cannot be taken.
    let mut game = at("4k3/8/8/8/R2p4/8/8/3K4 play w a4 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    for text in ["Rb4", "Rc4", "Ra8", "Ra1"] {
        assert!(
            legal.contains(&text.to_owned()),
            "{text} missing from {legal:?}"
        );
    }
    assert!(!legal.iter().any(|t| t.contains("d4") || t.contains("e4")));
    refused(&mut game, "Rxd4");
    refused(&mut game, "Re4");
}

/// The squares the piece on `from` may move to (plain moves, no captures or passes).
fn move_targets(game: &KingsGoal, from: &str) -> Vec<Square> {
    let seat = game.turn().to_act[0];
    let mut targets: Vec<Square> = game
        .legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from: f, to, .. } if f == sq(from) => Some(to),
            _ => None,
        })
        .collect();
    targets.sort();
    targets
}

fn squares(names: &str) -> Vec<Square> {
    let mut list: Vec<Square> = names.split_whitespace().map(sq).collect();
    list.sort();
    list
}

#[test]
fn king_steps_one_square_queen_and_bishop_slide_along_their_lines() {
    // White: king e1 holding the ball, queen d4, bishop a1 (its diagonal ends at the queen).
    let game = at("4k3/8/8/8/3Q4/8/8/B3K3 play w e1 1:0 0-0 w -/-");
    assert_eq!(move_targets(&game, "e1"), squares("d1 f1 d2 e2 f2"));
    assert_eq!(move_targets(&game, "a1"), squares("b2 c3"));
    assert_eq!(
        move_targets(&game, "d4"),
        squares(
            "a4 b4 c4 e4 f4 g4 h4 d1 d2 d3 d5 d6 d7 d8 \
             b2 c3 e5 f6 g7 h8 a7 b6 c5 e3 f2 g1"
        )
    );
    // A rook keeps to ranks and files.
    let game = at("4k3/8/8/8/3R4/8/8/4K3 play w e1 1:0 0-0 w -/-");
    assert_eq!(
        move_targets(&game, "d4"),
        squares("a4 b4 c4 e4 f4 g4 h4 d1 d2 d3 d5 d6 d7 d8")
    );
}

#[test]
fn knights_jump_over_pieces() {
    let game = at("4k3/8/8/8/8/PPP5/1N1p4/3K4 play w d1 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    for text in ["Na4", "Nc4", "Nd3"] {
        assert!(
            legal.contains(&text.to_owned()),
            "{text} missing from {legal:?}"
        );
    }
}

#[test]
fn pawns_step_one_square_forward_only() {
    let mut game = at("4k3/8/8/8/8/8/4P3/3K4 play w e2 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    assert!(legal.contains(&"e3".to_owned()));
    refused(&mut game, "e4");
    refused(&mut game, "d3");
    play(&mut game, "e3");
    assert_eq!(holder_square(&game), sq("e3"));
    // Black pawns step towards rank 1.
    let game = at("4k3/3p4/8/8/8/8/8/3K4 play b d7 1:0 0-0 w -/-");
    assert!(legal_texts(&game).contains(&"d6".to_owned()));
}

#[test]
fn a_pawn_is_blocked_by_any_piece_in_front() {
    let mut game = at("4k3/8/8/8/8/4p3/4P3/3K4 play w d1 1:0 0-0 w -/-");
    refused(&mut game, "e3");
}

#[test]
fn moving_the_carrier_carries_the_ball_and_other_pieces_move_without_it() {
    let mut game = at("4k3/8/8/8/8/8/1N6/3K4 play w d1 1:0 0-0 w -/-");
    let events = play(&mut game, "Nc4");
    assert!(matches!(
        events[0],
        Event::Moved {
            with_ball: false,
            ..
        }
    ));
    assert_eq!(holder_square(&game), sq("d1"));
    play(&mut game, "Kd7");
    let events = play(&mut game, "Kd2");
    assert!(matches!(
        events[0],
        Event::Moved {
            with_ball: true,
            ..
        }
    ));
    assert_eq!(holder_square(&game), sq("d2"));
}

#[test]
fn captures_take_the_ball_and_the_square_and_remove_the_carrier() {
    // Black's knight on c6 carries; white's pawn on b5 captures it.
    let mut game = at("4k3/8/2n5/1P6/8/8/8/3K4 play w c6 1:0 0-0 w -/-");
    let captured = game.piece_at(sq("c6")).unwrap().id;
    let events = play(&mut game, "bxc6");
    assert!(matches!(events[0], Event::Captured { .. }));
    assert_eq!(piece_on(&game, "c6"), Some((WHITE, PieceKind::Pawn)));
    assert!(game.pieces.iter().all(|p| p.id != captured));
    assert_eq!(holder_square(&game), sq("c6"));
    assert_eq!(game.scores, [0, 0]);
    assert_eq!(game.turn().to_act, vec![BLACK]);
}

#[test]
fn pawns_capture_only_diagonally_forward() {
    let mut game = at("4k3/8/8/8/8/3P4/2n5/3K4 play w c2 1:0 0-0 w -/-");
    assert!(refused(&mut game, "dxc2").contains("diagonally forward"));
    let game = at("4k3/8/8/8/3n4/3P4/8/3K4 play w d4 1:0 0-0 w -/-");
    assert!(!legal_texts(&game).iter().any(|t| t.contains("xd4")));
}

// ----- passes -----

#[test]
fn passes_follow_the_passers_movement() {
    // Bishop c1 carries: it passes along its diagonal to the pawn on e3, not past it.
    let game = at("4k3/8/8/8/8/4P3/8/2B1K3 play w c1 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    assert!(legal.contains(&"Bc1>e3".to_owned()), "{legal:?}");
    assert!(!legal.iter().any(|t| t.contains(">e1")));
    // A rook cannot pass through a piece, whoever owns it.
    let game = at("4k3/8/8/8/R2p3N/8/8/3K4 play w a4 1:0 0-0 w -/-");
    assert!(!legal_texts(&game).iter().any(|t| t.contains('>')));
    // A knight passes by jumping.
    let game = at("4k3/8/8/8/8/PPP5/1N6/3K4 play w b2 1:0 0-0 w -/-");
    assert!(legal_texts(&game).contains(&"Nb2>d1".to_owned()));
}

#[test]
fn a_pawn_passes_diagonally_forward_only() {
    let mut game = at("4k3/8/8/8/2N1N3/3P4/2R5/3K4 play w d3 1:0 0-0 w -/-");
    let passes: Vec<String> = legal_texts(&game)
        .into_iter()
        .filter(|t| t.contains('>'))
        .collect();
    assert_eq!(passes, ["d3>c4", "d3>e4"]);
    refused(&mut game, "d3>c2");
    assert!(refused(&mut game, "Nd3>e4").contains("is a pawn; write its pass as `d3>e4`"));
    play(&mut game, "d3>e4");
    assert_eq!(holder_square(&game), sq("e4"));
}

#[test]
fn only_the_carrier_passes() {
    let mut game = at("4k3/8/8/8/8/8/3R4/3K4 play w d1 1:0 0-0 w -/-");
    assert!(refused(&mut game, "Rd2>d1").contains("only the ball carrier passes"));
    assert!(legal_texts(&game).contains(&"Kd1>d2".to_owned()));
}

// ----- goals -----

fn assert_goal(events: &[Event], seat: Seat, how: GoalKind) {
    assert!(
        events.iter().any(
            |e| matches!(e, Event::GoalScored { seat: s, how: h, .. } if *s == seat && *h == how)
        ),
        "no {how:?} goal for {seat:?} in {events:?}"
    );
}

#[test]
fn carrying_the_ball_onto_an_opponent_goal_square_scores() {
    let mut game = at("5k2/8/8/2R5/8/8/8/3K4 play w c5 1:0 0-0 w -/-");
    let events = play(&mut game, "Rc8");
    assert_goal(&events, WHITE, GoalKind::Carried);
    assert_eq!(game.scores, [1, 0]);
    // Everything resets; black conceded and starts choosing; the clock runs on.
    assert!(game.pieces.is_empty());
    assert_eq!(game.turn().phase, "choice");
    assert_eq!(game.turn().to_act, vec![BLACK]);
    assert_eq!(game.plies, 1);
    // The custom start handed out ids 1-3, so the position names the next id (the next
    // restart's pieces start from it) after the empty picks.
    assert_eq!(
        game.position(),
        "8/8/8/8/8/8/8/8 choice b - 1:1 1-0 b -/- -/- -:4"
    );
}

#[test]
fn the_squares_beside_the_goal_are_not_goals() {
    let mut game = at("5k2/8/8/R7/8/8/8/3K4 play w a5 1:0 0-0 w -/-");
    play(&mut game, "Ra8");
    assert_eq!(game.scores, [0, 0]);
    assert_eq!(game.turn().phase, "play");
}

#[test]
fn a_pass_to_a_team_mate_on_an_opponent_goal_square_scores() {
    let mut game = at("2N2k2/8/8/8/8/8/8/2RK4 play w c1 1:0 0-0 w -/-");
    let events = play(&mut game, "Rc1>c8");
    assert_goal(&events, WHITE, GoalKind::Passed);
}

#[test]
fn capturing_the_carrying_king_scores_anywhere() {
    let mut game = at("8/8/8/8/3k4/8/3R4/4K3 play w d4 1:0 0-0 w -/-");
    let events = play(&mut game, "Rxd4");
    assert_goal(&events, WHITE, GoalKind::KingCaptured);
    assert_eq!(game.turn().to_act, vec![BLACK]);
}

#[test]
fn capturing_a_carrier_on_its_own_goal_squares_scores() {
    // Black's rook holds the ball on d8, one of black's own goal squares.
    let mut game = at("3r1k2/8/8/8/8/8/8/3RK3 play w d8 1:0 0-0 w -/-");
    let events = play(&mut game, "Rxd8");
    assert_goal(&events, WHITE, GoalKind::CapturedOnGoalLine);
    // Black can score the same way at the other end.
    let mut game = at("4k3/8/8/8/8/8/8/2Rr2K1 play b c1 1:0 0-0 w -/-");
    let events = play(&mut game, "Rxc1");
    assert_goal(&events, BLACK, GoalKind::CapturedOnGoalLine);
    assert_eq!(game.turn().to_act, vec![WHITE]);
}

#[test]
fn standing_on_the_own_goal_with_the_ball_is_no_goal() {
    let mut game = at("4k3/8/8/8/8/8/2R5/3K4 play w c2 1:0 0-0 w -/-");
    play(&mut game, "Rc1");
    assert_eq!(game.scores, [0, 0]);
}

// ----- promotion -----

#[test]
fn a_pawn_reaching_the_last_rank_promotes_to_the_chosen_piece() {
    let mut game = at("4k3/P7/8/8/8/8/8/3K4 play w d1 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    for text in ["a8=Q", "a8=R", "a8=B", "a8=N"] {
        assert!(legal.contains(&text.to_owned()), "{legal:?}");
    }
    refused(&mut game, "a8");
    let events = play(&mut game, "a8=N");
    assert!(events.contains(&Event::Promoted {
        piece: game.piece_at(sq("a8")).unwrap().id,
        square: sq("a8"),
        kind: PieceKind::Knight,
    }));
    assert_eq!(piece_on(&game, "a8"), Some((WHITE, PieceKind::Knight)));
    // Black promotes on rank 1, capturing the carrier.
    let mut game = at("4k3/8/8/8/8/8/p7/1N1K4 play b b1 1:0 0-0 w -/-");
    play(&mut game, "axb1=Q");
    assert_eq!(piece_on(&game, "b1"), Some((BLACK, PieceKind::Queen)));
    assert_eq!(holder_square(&game), sq("b1"));
}

#[test]
fn a_pawn_scoring_on_the_last_rank_does_not_choose_a_promotion() {
    let mut game = at("5k2/3P4/8/8/8/8/8/3K4 play w d7 1:0 0-0 w -/-");
    assert!(legal_texts(&game).contains(&"d8".to_owned()));
    refused(&mut game, "d8=Q");
    let events = play(&mut game, "d8");
    assert_goal(&events, WHITE, GoalKind::Carried);
}

// ----- restarts, halves, the end -----

#[test]
fn king_against_king_restarts_with_the_side_that_lost_its_last_piece() {
    let mut game = at("8/8/8/3k4/3N4/8/8/4K3 play b d4 1:0 0-0 w -/-");
    let events = play(&mut game, "Kxd4");
    assert!(events.contains(&Event::Restarted {
        reason: RestartReason::KingVersusKing,
        kicking: WHITE,
        half: 1
    }));
    assert_eq!(game.scores, [0, 0]);
    assert_eq!(game.turn().phase, "choice");
    assert_eq!(game.turn().to_act, vec![WHITE]);
    assert_eq!(game.plies, 1);
}

#[test]
fn halves_end_after_the_moves_and_black_kicks_off_the_second_from_e5() {
    let spec_one = spec(None, 1);
    let mut game = KingsGoal::new(&spec_one).unwrap();
    for text in ["+default", "+default", "@default", "@default"] {
        play(&mut game, text);
    }
    let kick = legal_texts(&game)[0].clone();
    play(&mut game, &kick);
    let reply = legal_texts(&game)[0].clone();
    let events = play(&mut game, &reply);
    assert!(events.contains(&Event::HalfEnded {
        half: 1,
        scores: [0, 0]
    }));
    assert_eq!(game.half, 2);
    assert_eq!(game.turn().to_act, vec![BLACK]);
    for text in ["+default", "+default", "@default", "@default"] {
        play(&mut game, text);
    }
    assert_eq!(holder_square(&game), sq("e5"));
    assert_eq!(game.holder().unwrap().owner, BLACK);
    let kick = legal_texts(&game)[0].clone();
    play(&mut game, &kick);
    assert!(game.outcome().is_none());
    let reply = legal_texts(&game)[0].clone();
    let events = play(&mut game, &reply);
    assert!(matches!(
        events.last(),
        Some(Event::GameEnded { winner: None, .. })
    ));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert!(outcome.reason.contains("draw"));
    assert!(game.turn().to_act.is_empty());
    assert_eq!(game.turn().phase, "over");
    let err = game.apply(WHITE, &Action::Wait).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::GameOver);
}

#[test]
fn a_goal_on_the_last_move_of_the_match_decides_it() {
    let mut game = KingsGoal::new(&spec(
        Some("5k2/8/8/2R5/8/8/8/3K4 play w c5 2:1 0-0 w -/-"),
        1,
    ))
    .unwrap();
    play(&mut game, "Rc8");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(WHITE));
    assert_eq!(outcome.scores, [1, 0]);
}

#[test]
fn a_side_with_no_legal_move_waits_and_the_move_counts() {
    // White's king in the corner is hemmed in by black pieces that do not hold the ball.
    let mut game = at("4k3/8/8/8/8/8/pp6/Kn6 play w a1 1:0 0-0 w -/-");
    assert_eq!(legal_texts(&game), ["--"]);
    let events = play(&mut game, "--");
    assert_eq!(events, [Event::Waited { seat: WHITE }]);
    assert_eq!(game.plies, 1);
    let mut game = at("4k3/8/8/8/8/8/8/K1n5 play w a1 1:0 0-0 w -/-");
    assert!(refused(&mut game, "--").contains("only when it has no move"));
}

// ----- notation -----

#[test]
fn moves_name_their_origin_only_when_two_pieces_could_go_there() {
    let mut game = at("4k3/8/8/8/R6R/8/8/3K4 play w d1 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    assert!(legal.contains(&"Rad4".to_owned()) && legal.contains(&"Rhd4".to_owned()));
    assert!(legal.contains(&"Ra8".to_owned()));
    assert!(refused(&mut game, "Rd4").contains("ambiguous"));
    // Any correct origin reads, the canonical form uses the shortest.
    let mut full = game.clone();
    play(&mut full, "Rh4d4");
    assert_eq!(piece_on(&full, "d4"), Some((WHITE, PieceKind::Rook)));
    let game = at("4k3/R7/8/8/8/8/R7/3K4 play w d1 1:0 0-0 w -/-");
    let legal = legal_texts(&game);
    assert!(legal.contains(&"R7a5".to_owned()) && legal.contains(&"R2a5".to_owned()));
}

#[test]
fn unreadable_text_is_malformed_and_readable_illegal_text_is_illegal() {
    let game = at(KICKOFF);
    for text in [
        "", "Zd4", "e9", "+", "+QQ", "K@", "Re4>z9", "Rxx4", "e4=K", "exd",
    ] {
        let err = game.parse_action(WHITE, text).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::MalformedNotation, "{text}");
    }
    for text in ["Re3", "+Q", "@default", "K@d1", "Re4>f4"] {
        let err = game.parse_action(WHITE, text).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::IllegalAction, "{text}");
    }
}

// ----- position -----

#[test]
fn positions_round_trip_in_every_phase() {
    for text in [
        START,
        "8/8/8/8/8/8/8/8 choice b - 1:3 1-0 b -/QN",
        "8/8/8/8/8/8/8/8 choice w - 2:0 0-0 b RQ/NBB",
        "3k4/8/8/8/4R3/8/8/8 placement w - 1:0 0-0 w KPPQN/PPQRB",
        KICKOFF,
        "4k3/8/8/8/R2p4/8/8/3K4 play b a4 1:17 2-1 w -/-",
    ] {
        assert_eq!(at(text).position(), text);
    }
}

#[test]
fn invalid_positions_are_refused_with_the_reason() {
    for (text, reason) in [
        ("8/8/8/8/8/8/8 choice w - 1:0 0-0 w -/-", "8 ranks"),
        ("8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w", "8 fields"),
        ("8/8/8/8/8/8/8/7 choice w - 1:0 0-0 w -/-", "not 8"),
        ("8/8/8/8/8/8/8/9 choice w - 1:0 0-0 w -/-", "not a piece"),
        (
            "8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w PPP/-",
            "cannot have picked",
        ),
        (
            "8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w QRN/-",
            "would be to act",
        ),
        (
            "8/8/8/8/8/8/8/8 over - - 1:0 0-0 w -/-",
            "still to be played",
        ),
        (
            "4k3/8/8/8/8/8/8/3K4 play w d1 1:0 0-0 w -/-",
            "king against king",
        ),
        (
            "4k3/8/8/8/8/8/8/3KR3 play w d5 1:0 0-0 w -/-",
            "no piece stands",
        ),
        (
            "4k3/8/8/8/8/8/8/2RR4 play w d1 1:0 0-0 w -/-",
            "exactly one king",
        ),
        ("4k2P/8/8/8/8/8/8/3K4 play w d1 1:0 0-0 w -/-", "promoted"),
        (
            "4k3/8/8/8/8/8/8/2PK4 play w d1 1:0 0-0 w -/-",
            "own goal squares",
        ),
        (
            "4k3/8/8/8/8/NNNNNN2/8/3K4 play w d1 1:0 0-0 w -/-",
            "at most 6",
        ),
        (
            "4k3/8/8/8/8/8/8/3KR3 play w d1 1:90 0-0 w -/-",
            "a half has only",
        ),
        (
            "3k4/8/8/8/3R4/8/8/8 placement b - 1:0 0-0 w KPPQN/PPQRB",
            "not a legal placement",
        ),
        (
            "3k4/8/8/8/4R3/8/8/8 placement b - 1:0 0-0 w KPPQN/PPQRB",
            "is to act",
        ),
        (
            "3k4/8/8/8/4R3/8/8/8 placement w - 1:0 0-0 w KPPQQ/PPQRB",
            "three picks",
        ),
    ] {
        let err = KingsGoal::new(&spec(Some(text), 45)).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
        assert!(err.message.contains(reason), "{text}: {}", err.message);
    }
}

/// The ids of the board view, in the order the ranks of the notation list the pieces.
fn ids_in_rank_order(game: &KingsGoal) -> Vec<u32> {
    game.in_rank_order().iter().map(|p| p.id).collect()
}

#[test]
fn a_mid_match_position_holds_the_picks_and_the_piece_ids() {
    let mut game = KingsGoal::new(&spec(None, 45)).unwrap();
    for text in ["+default", "+default", "@default", "@default"] {
        play(&mut game, text);
    }
    // White places its kick-off rook first, then K P P N Q: ids 1-6; black K P P N R Q: 7-12.
    let text = game.position();
    assert_eq!(
        text,
        "3k4/2nq4/2p2p2/4r3/4R3/2P2P2/2N1Q3/3K4 play w e4 1:0 0-0 w* -/- QRN/QRN \
         7,10,12,8,9,11,1,3,4,5,6,2:13"
    );
    let rebuilt = at(&text);
    assert_eq!(rebuilt, game);
    assert_eq!(
        rebuilt.board(Viewer::Spectator),
        game.board(Viewer::Spectator)
    );
    assert_eq!(
        rebuilt.details(Viewer::Spectator).chosen,
        [kinds("QRN"), kinds("QRN")]
    );
    // The eight fields alone read as a start: no picks known, ids 1-12 in rank order.
    let eight: Vec<&str> = text.split(' ').take(8).collect();
    let short = at(&eight.join(" "));
    assert_eq!(short.chosen, [Vec::new(), Vec::new()]);
    assert_eq!(ids_in_rank_order(&short), (1..=12).collect::<Vec<_>>());
}

fn kinds(letters: &str) -> Vec<PieceKind> {
    letters
        .chars()
        .map(|c| PieceKind::from_letter(c).unwrap())
        .collect()
}

#[test]
fn each_optional_part_is_written_only_when_the_eight_fields_would_read_as_another_state() {
    // White picked Q, R, N but placed the rook first: read from the board and the hand, the
    // picks would come out R, Q, N. The ids follow the placement, as the reader's do.
    let mut game = at(START);
    for text in ["+default", "+default", "R@e4"] {
        play(&mut game, text);
    }
    assert_eq!(
        game.position(),
        "8/8/8/8/4R3/8/8/8 placement b - 1:0 0-0 w KPPQN/KPPQRN QRN/QRN"
    );
    // Picks in their derived order need no part.
    let mut game = at(START);
    for text in ["+R", "+Q", "+N", "+default", "R@e4"] {
        play(&mut game, text);
    }
    assert_eq!(
        game.position(),
        "8/8/8/8/4R3/8/8/8 placement b - 1:0 0-0 w KPPQN/KPPQRN"
    );
    // After a goal the board is empty, but the next restart's ids must not reuse 1-3.
    let mut game = at("5k2/8/8/2R5/8/8/8/3K4 play w c5 1:0 0-0 w -/-");
    play(&mut game, "Rc8");
    assert_eq!(
        game.position(),
        "8/8/8/8/8/8/8/8 choice b - 1:1 1-0 b -/- -/- -:4"
    );
}

#[test]
fn positions_with_picks_and_piece_ids_round_trip() {
    for text in [
        "8/8/8/8/8/8/8/8 choice b - 1:3 1-0 b -/QN -/QN -:25",
        "8/8/8/8/4R3/8/8/8 placement b - 1:0 0-0 w KPPQN/KPPQRN QRN/QRN",
        "3k4/8/8/8/4R3/8/8/8 placement w - 1:0 0-0 w KPPQN/PPQRB QRN/BQR 20,19:21",
        "4k3/8/8/8/R2p4/8/8/3K4 play b a4 1:17 2-1 w -/- QRN/-",
        // Black's rook, bishop and knight can only be pawns it picked, promoted.
        "r2k4/2p2p2/3b4/4n3/4R3/2P5/3N1P2/B3K3 play w e4 1:0 0-0 w* -/- RBN/PPP",
        "4k3/8/8/8/R2p4/8/8/3K4 play b a4 1:17 2-1 w -/- QRN/PPB 30,14,27,2:31",
        "4k3/8/8/8/R2p4/8/8/3K4 play b a4 1:17 2-1 w -/- -/- 30,14,27,2:31",
    ] {
        assert_eq!(at(text).position(), text);
    }
}

#[test]
fn the_piece_ids_given_are_the_ones_the_views_and_events_use() {
    let game = at("4k3/8/8/8/R2p4/8/8/3K4 play b a4 1:17 2-1 w -/- QRN/PPB 30,14,27,2:31");
    let view = game.board(Viewer::Spectator);
    let listed: Vec<(u32, Square)> = view.pieces.iter().map(|p| (p.id, p.square)).collect();
    assert_eq!(
        listed,
        [
            (2, sq("d1")),
            (14, sq("a4")),
            (27, sq("d4")),
            (30, sq("e8"))
        ]
    );
    assert_eq!(view.ball.unwrap().holder, Some(14));
    // The next id is where the pieces of the next restart start.
    let mut game = at("5k2/8/8/2R5/8/8/8/3K4 play w c5 1:0 0-0 w -/- -/- 7,9,3:12");
    let events = play(&mut game, "Rc8");
    assert!(events.contains(&Event::Moved {
        piece: 9,
        from: sq("c5"),
        to: sq("c8"),
        with_ball: true
    }));
    for text in ["+default", "+default"] {
        play(&mut game, text);
    }
    let events = play(&mut game, "@default");
    assert!(matches!(events[0], Event::Placed { piece: 12, .. }));
}

#[test]
fn an_old_position_reads_as_before() {
    // Ids 1, 2, ... in the order the ranks list the pieces, no picks known in play.
    let game = at(KICKOFF);
    assert_eq!(ids_in_rank_order(&game), (1..=12).collect::<Vec<_>>());
    assert_eq!(game.next_id, 13);
    assert_eq!(game.chosen, [Vec::new(), Vec::new()]);
    // Written out in full, the same meaning reads as the same state and is written short.
    let whole = format!("{KICKOFF} -/- 1,2,3,4,5,6,7,8,9,10,11,12:13");
    assert_eq!(at(&whole), game);
    assert_eq!(at(&whole).position(), KICKOFF);
    // In placement the picks come from the pieces on the board and in hand.
    let placing = "3k4/8/8/8/4R3/8/8/8 placement w - 1:0 0-0 w KPPQN/PPQRB";
    let game = at(placing);
    assert_eq!(game.chosen, [kinds("RQN"), kinds("QRB")]);
    assert_eq!(at(&format!("{placing} RQN/QRB 2,1:3")), game);
}

#[test]
fn a_finished_match_is_written_in_its_eight_fields() {
    let mut game = KingsGoal::new(&spec(
        Some("5k2/8/8/2R5/8/8/8/3K4 play w c5 2:1 0-0 w -/- RQN/- 7,9,3:12"),
        1,
    ))
    .unwrap();
    play(&mut game, "Rc8");
    assert_eq!(
        game.position(),
        "2R2k2/8/8/8/8/8/8/3K4 over - - 2:2 1-0 w -/-"
    );
}

#[test]
fn malformed_picks_and_piece_ids_are_refused_naming_the_part() {
    let play = "r2k4/2p2p2/3b4/4n3/4R3/2P5/3N1P2/B3K3 play w e4 1:0 0-0 w* -/-";
    for (text, reason) in [
        (format!("{START} -/- -:1 extra"), "8 fields"),
        (format!("{START} QRN"), "the picks are `<white>/<black>`"),
        (format!("{START} x/-"), "the picks `x/-`"),
        (
            "8/8/8/8/8/8/8/8 choice b - 1:3 1-0 b -/QN -/NQ".to_owned(),
            "the picks repeat the hands",
        ),
        (
            "8/8/8/8/4R3/8/8/8 placement b - 1:0 0-0 w KPPQN/KPPQRN QRB/QRN".to_owned(),
            "white's picks are its pieces beyond K, P, P",
        ),
        (
            format!("{play} PPP/-"),
            "white's picks `PPP` are not three picks",
        ),
        (
            format!("{play} QRN/-"),
            "white's pieces on the board cannot be",
        ),
        (
            format!("{play} -/QRN"),
            "black's pieces on the board cannot be",
        ),
        (
            format!("{START} -/- 1,2"),
            "the piece ids are `<id>,<id>,...:<next id>`",
        ),
        (
            format!("{START} -/- -:x"),
            "the next piece id must be a number",
        ),
        (
            format!("{START} -/- 1:2"),
            "name 1 pieces but the board has 0",
        ),
        (format!("{START} -/- -:0"), "must be above 0"),
        (
            format!("{play} -/- 1,2,3,4,5,6,7,8,9,10,11,x:13"),
            "a piece id must be a number",
        ),
        (
            format!("{play} -/- 1,2,3,4,5,6,7,8,9,10,11:13"),
            "name 11 pieces but the board has 12",
        ),
        (
            format!("{play} -/- 0,2,3,4,5,6,7,8,9,10,11,12:13"),
            "ids start at 1",
        ),
        (
            format!("{play} -/- 1,1,3,4,5,6,7,8,9,10,11,12:13"),
            "give two pieces one id",
        ),
        (
            format!("{play} -/- 1,2,3,4,5,6,7,8,9,10,11,12:12"),
            "must be above 12",
        ),
    ] {
        let err = KingsGoal::new(&spec(Some(&text), 45)).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
        assert!(err.message.contains(reason), "{text}: {}", err.message);
    }
}

// ----- views -----

#[test]
fn the_board_view_shows_goals_halves_pieces_and_the_ball_holder() {
    let game = at(KICKOFF);
    let view = game.board(Viewer::Spectator);
    assert_eq!((view.files, view.ranks), (8, 8));
    let goal = view
        .zones
        .iter()
        .find(|z| z.kind == ZoneKind::Goal && z.owner == Some(WHITE))
        .unwrap();
    assert_eq!(goal.squares, ["c1", "d1", "e1", "f1"].map(sq));
    let half = view
        .zones
        .iter()
        .find(|z| z.kind == ZoneKind::TeamArea && z.owner == Some(BLACK))
        .unwrap();
    assert_eq!(half.squares.len(), 32);
    assert!(half.squares.iter().all(|s| s.rank >= 5));
    assert_eq!(view.pieces.len(), 12);
    let ball = view.ball.unwrap();
    let holder = view
        .pieces
        .iter()
        .find(|p| Some(p.id) == ball.holder)
        .unwrap();
    assert_eq!((holder.kind.as_str(), holder.square), ("rook", sq("e4")));
    let details = game.details(Viewer::Seat(BLACK));
    assert!(details.kickoff_pending);
    assert_eq!(details.plies_per_half, 90);
}

#[test]
fn piece_ids_stay_stable_across_moves_and_are_never_reused() {
    let mut game = KingsGoal::new(&spec(None, 45)).unwrap();
    for text in ["+default", "+default", "@default", "@default"] {
        play(&mut game, text);
    }
    let ids: Vec<u32> = game.pieces.iter().map(|p| p.id).collect();
    assert_eq!(ids, (1..=12).collect::<Vec<_>>());
    let kick = legal_texts(&game)[0].clone();
    play(&mut game, &kick);
    let after: Vec<u32> = game.pieces.iter().map(|p| p.id).collect();
    assert_eq!(ids, after);
}

// ----- random play -----

/// What must hold in every reachable state.
fn check_invariants(game: &KingsGoal) {
    let mut squares: Vec<Square> = game.pieces.iter().map(|p| p.square).collect();
    squares.sort();
    squares.dedup();
    assert_eq!(squares.len(), game.pieces.len(), "pieces overlap");
    assert!(game.pieces.iter().all(|p| on_board(p.square)));
    let view = game.board(Viewer::Spectator);
    match game.phase {
        Phase::Play => {
            let holders = game
                .pieces
                .iter()
                .filter(|p| Some(p.id) == game.ball)
                .count();
            assert_eq!(holders, 1, "the ball must be held by exactly one piece");
            assert!(view.ball.is_some());
            for seat in [WHITE, BLACK] {
                let kings = game
                    .pieces
                    .iter()
                    .filter(|p| p.owner == seat && p.kind == PieceKind::King)
                    .count();
                assert_eq!(kings, 1);
                assert!(game.pieces.iter().filter(|p| p.owner == seat).count() <= 6);
            }
            assert!(!game.kings_only());
            if game.kickoff_pending {
                assert_eq!(game.holder().unwrap().square, kickoff_square(game.kicking));
            }
        }
        Phase::Choice => assert!(game.pieces.is_empty() && view.ball.is_none()),
        Phase::Placement => {
            assert!(view.ball.is_none());
            for p in &game.pieces {
                assert!(in_half(p.owner, p.square));
            }
        }
        Phase::Over => assert!(game.outcome().is_some()),
    }
    assert!(game.plies < game.plies_per_half() || game.phase == Phase::Over);
    if game.phase != Phase::Over {
        let text = game.position();
        let rebuilt = KingsGoal::from_position(&text, game.moves_per_half)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(rebuilt.position(), text);
    }
}

/// Near misses of the action about to be played, and actions of other phases: whichever of
/// them is not legal now must be refused without touching the state.
fn check_refusals_change_nothing(game: &mut KingsGoal, seat: Seat, action: &Action) {
    let shifted = |s: Square| Square::new(s.file % 8 + 1, s.rank);
    let mut attempts = vec![
        Action::Wait,
        Action::DefaultChoice,
        Action::DefaultPlacement,
        Action::Choose(PieceKind::King),
        Action::Place {
            kind: PieceKind::King,
            square: sq("e4"),
        },
    ];
    match *action {
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
            attempts.push(Action::Move {
                from,
                to: shifted(to),
                promotion,
            });
            attempts.push(Action::Capture {
                from,
                to,
                promotion,
            });
            attempts.push(Action::Pass { from, to });
        }
        Action::Pass { from, to } => {
            attempts.push(Action::Pass {
                from,
                to: shifted(to),
            });
            attempts.push(Action::Capture {
                from,
                to,
                promotion: None,
            });
        }
        Action::Place { kind, square } => attempts.push(Action::Place {
            kind,
            square: shifted(square),
        }),
        _ => {}
    }
    let legal = game.legal_actions(seat);
    let before = game.clone();
    for attempt in attempts.iter().filter(|a| !legal.contains(a)) {
        let err = game.apply(seat, attempt).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::IllegalAction, "{attempt:?}: {err}");
        assert_eq!(*game, before, "refusing {attempt:?} changed the state");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_matches_keep_the_contract_and_always_end(seed in any::<u64>()) {
        let setup = spec(None, 45);
        let playout = checked_random_playout::<KingsGoal>(&setup, &mut Rng::new(seed), 20_000);
        prop_assert!(playout.finished, "a random match did not end in 20000 actions");
        let mut game = KingsGoal::new(&setup).unwrap();
        for (seat, action) in &playout.log {
            check_refusals_change_nothing(&mut game, *seat, action);
            game.apply(*seat, action).unwrap();
            check_invariants(&game);
        }
        let outcome = game.outcome().unwrap();
        prop_assert_eq!(outcome.scores.iter().sum::<u32>(), game.scores.iter().sum::<u32>());
    }

    #[test]
    fn random_play_from_mid_match_positions_round_trips(seed in any::<u64>(), cut in 1usize..400) {
        let setup = spec(None, 10);
        let playout = checked_random_playout::<KingsGoal>(&setup, &mut Rng::new(seed), cut);
        let game = playout.game;
        if game.outcome().is_none() {
            let text = game.position();
            let rebuilt = KingsGoal::new(&spec(Some(&text), 10)).unwrap();
            prop_assert_eq!(rebuilt.position(), text.clone());
            let seat = game.turn().to_act[0];
            let notations = |g: &KingsGoal| -> Vec<String> {
                g.legal_actions(seat).iter().map(|a| g.format_action(seat, a)).collect()
            };
            prop_assert_eq!(notations(&rebuilt), notations(&game));
        }
    }
}

#[test]
fn random_match_lengths() {
    let mut lengths = Vec::new();
    let mut goals = Vec::new();
    for seed in 0..40 {
        let setup = spec(None, 45);
        let playout = crate::playout::random_playout(
            KingsGoal::new(&setup).unwrap(),
            &mut Rng::new(seed),
            20_000,
        );
        assert!(playout.finished);
        for seat in [WHITE, BLACK] {
            let moves = playout
                .log
                .iter()
                .filter(|(s, a)| {
                    *s == seat
                        && matches!(
                            a,
                            Action::Move { .. }
                                | Action::Capture { .. }
                                | Action::Pass { .. }
                                | Action::Wait
                        )
                })
                .count();
            assert_eq!(moves, 90, "each side plays exactly 45 moves in each half");
        }
        lengths.push(playout.log.len());
        goals.push(playout.game.scores.iter().sum::<u32>());
    }
    lengths.sort();
    eprintln!(
        "random match length in actions: min {} median {} max {}; goals per match: {:?}",
        lengths[0],
        lengths[lengths.len() / 2],
        lengths[lengths.len() - 1],
        goals
    );
}

#[test]
fn a_seat_out_of_time_chooses_and_places_its_whole_default_set_at_once() {
    let mut game = at(START);
    let white = game.turn().to_act[0];
    assert_eq!(game.default_action(white), Some(Action::DefaultChoice));
    let action = game.default_action(white).unwrap();
    game.apply(white, &action).unwrap();
    assert!(
        !game.turn().is_to_act(white) || game.turn().phase != "choice",
        "the default choice completes the seat's choosing: {}",
        game.position()
    );
    while game.turn().phase == "choice" {
        let seat = game.turn().to_act[0];
        let action = game.default_action(seat).unwrap();
        game.apply(seat, &action).unwrap();
    }
    let seat = game.turn().to_act[0];
    assert_eq!(game.phase.name(), "placement");
    assert_eq!(game.default_action(seat), Some(Action::DefaultPlacement));
}

// ----- listing legal actions -----

/// The notation of one action as the engine wrote it before lists were formatted at once:
/// every move by a piece other than a pawn regenerates the legal actions to find its rivals.
/// Kept as the reference the faster notation must match byte for byte.
fn reference_notation(game: &KingsGoal, seat: Seat, action: &Action) -> String {
    match action {
        Action::Choose(kind) => format!("+{}", kind.letter()),
        Action::DefaultChoice => "+default".to_owned(),
        Action::Place { kind, square } => format!("{}@{square}", kind.letter()),
        Action::DefaultPlacement => "@default".to_owned(),
        Action::Wait => "--".to_owned(),
        Action::Pass { from, to } => {
            let letter = match game.piece_at(*from).map(|p| p.kind) {
                Some(PieceKind::Pawn) | None => String::new(),
                Some(kind) => kind.letter().to_string(),
            };
            format!("{letter}{from}>{to}")
        }
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
            let capture = matches!(action, Action::Capture { .. });
            let kind = game.piece_at(*from).map_or(PieceKind::Pawn, |p| p.kind);
            let mut text = String::new();
            if kind == PieceKind::Pawn {
                if capture {
                    text.push((b'a' + (from.file - 1) as u8) as char);
                }
            } else {
                text.push(kind.letter());
                let rivals: Vec<Square> = game
                    .legal_actions(seat)
                    .into_iter()
                    .filter_map(|a| match a {
                        Action::Move { from: f, to: t, .. } if !capture => Some((f, t)),
                        Action::Capture { from: f, to: t, .. } if capture => Some((f, t)),
                        _ => None,
                    })
                    .filter(|(f, t)| {
                        *t == *to
                            && *f != *from
                            && game.piece_at(*f).is_some_and(|p| p.kind == kind)
                    })
                    .map(|(f, _)| f)
                    .collect();
                if rivals.is_empty() {
                } else if rivals.iter().all(|r| r.file != from.file) {
                    text.push((b'a' + (from.file - 1) as u8) as char);
                } else if rivals.iter().all(|r| r.rank != from.rank) {
                    text.push_str(&from.rank.to_string());
                } else {
                    text.push_str(&from.to_string());
                }
            }
            if capture {
                text.push('x');
            }
            text.push_str(&to.to_string());
            if let Some(p) = promotion {
                text.push('=');
                text.push(p.letter());
            }
            text
        }
    }
}

#[test]
fn a_listed_move_names_its_origin_as_when_formatted_alone() {
    // White's two knights can reach the same squares, and so can its two rooks on one file.
    let game = at("4k3/8/8/R7/8/2N1N3/8/R2K4 play w d1 1:0 0-0 w -/-");
    let legal = game.legal_actions(WHITE);
    let listed = game.format_actions(WHITE, &legal);
    for (action, text) in legal.iter().zip(&listed) {
        assert_eq!(*text, game.format_action(WHITE, action));
        assert_eq!(*text, reference_notation(&game, WHITE, action));
    }
    for text in ["Ncd5", "Ned5", "R1a3", "R5a3", "Rb1", "Ne4"] {
        assert!(listed.iter().any(|t| t == text), "{text} not in {listed:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Formatting the legal list at once agrees with formatting each action alone, and both
    /// with the engine's earlier notation, at every state of random matches.
    #[test]
    fn listing_the_legal_actions_matches_formatting_them_one_by_one(seed in any::<u64>()) {
        let setup = spec(None, 45);
        let playout = crate::playout::checked_listing_playout::<KingsGoal>(
            &setup,
            &mut Rng::new(seed),
            20_000,
            |game, seat, legal, listed| {
                for (action, text) in legal.iter().zip(listed) {
                    assert_eq!(*text, reference_notation(game, seat, action), "{action:?}");
                }
            },
        );
        prop_assert!(playout.finished);
    }
}
