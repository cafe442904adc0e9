//! The position notation holds the whole state: placement phases (set 0), the piece ids when
//! the board alone would give other ones, and the moved pieces in order; older positions read
//! as before, and malformed new parts are refused naming the part.

use super::tests::{
    DEFAULT_FORMATION_IDS, PAGE_PUZZLE, PAGE_START_POSITION, act, fresh, game_at, int, pos, spec,
    sq,
};
use super::*;
use crate::game::RuleErrorKind;
use crate::options::OptionValue;
use crate::rng::Rng;

const FIRST: Seat = Seat(0);
const SECOND: Seat = Seat(1);

/// The ids field from each side's squares in id order, the rest of the team off the board.
fn ids(first: &str, second: &str) -> String {
    let side = |listed: &str| {
        let mut squares: Vec<&str> = listed.split(',').filter(|s| !s.is_empty()).collect();
        squares.resize(TEAM_SIZE, "-");
        squares.join(",")
    };
    format!("{}/{}", side(first), side(second))
}

/// The game read from `game`'s position with the same options is the same state.
fn assert_reads_back(game: &SoccerChess, options: &[(&str, OptionValue)]) {
    let text = game.position();
    let rebuilt = game_at(&text, options);
    assert_eq!(&rebuilt, game, "{text}");
    assert_eq!(rebuilt.position(), text);
}

fn piece_id_on(game: &SoccerChess, square: &str) -> u32 {
    let view = game.board(Viewer::Spectator);
    view.pieces
        .iter()
        .find(|piece| piece.square == sq(square))
        .unwrap_or_else(|| panic!("no piece on {square}"))
        .id
}

#[test]
fn a_placement_phase_is_set_0_and_reads_back() {
    let mut game = fresh(&[]);
    let empty = "11/11/11/11/11/11/11/11/5o5/11/11/11/11/11/11/11/11";
    assert_eq!(game.position(), format!("{empty} second 0 - 1 0-0 0-0"));
    assert_reads_back(&game, &[]);

    act(&mut game, "K@f17");
    act(&mut game, "B@a10");
    let text = game.position();
    assert!(text.ends_with(" second 0 - 1 0-0 0-0"), "{text}");
    let rebuilt = game_at(&text, &[]);
    let turn = rebuilt.turn();
    assert_eq!(
        (turn.phase.as_str(), turn.to_act, turn.actions_left),
        ("setup", vec![SECOND], Some(9))
    );
    assert_eq!(rebuilt.legal_actions(SECOND), game.legal_actions(SECOND));
    assert_reads_back(&game, &[]);

    // The visitor has placed its team: the visited places next, and may still use `default`.
    let mut game = fresh(&[]);
    act(&mut game, "default");
    let rebuilt = game_at(&game.position(), &[]);
    assert_eq!(rebuilt.turn().to_act, vec![FIRST]);
    assert!(
        rebuilt
            .legal_actions(FIRST)
            .contains(&Action::DefaultFormation)
    );
    assert_reads_back(&game, &[]);
    act(&mut game, "K@f1");
    assert_reads_back(&game, &[]);
}

#[test]
fn the_second_games_placement_reads_with_its_visitor_and_scores() {
    let empty_board = "11/11/11/11/11/11/11/11/5o5/11/11/11/11/11/11/11/11";
    let mut game = game_at(&format!("{empty_board} first 0 - 2 2-1 0-0"), &[]);
    let turn = game.turn();
    assert_eq!((turn.phase.as_str(), turn.to_act), ("setup", vec![FIRST]));
    let details = game.details(Viewer::Spectator);
    assert_eq!(
        (details.game, details.visitor, details.game_scores),
        (2, FIRST, [[2, 1], [0, 0]])
    );
    // first visits in game 2, so its keeper goes to the top and is written in lower case.
    let mut keeper_placed = game.clone();
    act(&mut keeper_placed, "K@f17");
    assert_eq!(
        keeper_placed.position(),
        "5k5/11/11/11/11/11/11/11/5o5/11/11/11/11/11/11/11/11 first 0 - 2 2-1 0-0"
    );
    assert_reads_back(&keeper_placed, &[]);
    act(&mut game, "default");
    assert_eq!(piece_id_on(&game, "f17"), 0);
    assert_reads_back(&game, &[]);
    act(&mut game, "default");
    assert_eq!(game.turn().phase, "play");
    assert_eq!(game.turn().to_act, vec![SECOND]);
}

#[test]
fn piece_ids_are_written_only_when_the_board_alone_gives_other_ones() {
    let board_only = pos("Kf1 Ne5 Nb3 kf17", "f9", "first 1 - 1 0-0 0-0");
    // Read alone the board gives ids in reading order (rank 17 down, file a to k): e5 first.
    let game = game_at(&board_only, &[]);
    assert_eq!((piece_id_on(&game, "e5"), piece_id_on(&game, "b3")), (1, 2));
    assert_eq!(game.position(), board_only);

    let with_ids = format!("{board_only} {}", ids("f1,b3,e5", "f17"));
    let game = game_at(&with_ids, &[]);
    assert_eq!((piece_id_on(&game, "b3"), piece_id_on(&game, "e5")), (1, 2));
    assert_eq!(game.position(), with_ids);
}

#[test]
fn a_mid_set_position_keeps_the_ids_and_the_order_of_the_moved_pieces() {
    let mut game = fresh(&[]);
    act(&mut game, "default");
    act(&mut game, "default");
    act(&mut game, "Qexi9");
    act(&mut game, "Nxk10");
    act(&mut game, "Bd6");
    let text = game.position();
    assert!(
        text.contains(" first 1 f9,i9,d6 1 0-0 0-0 f1,b7,e7,g7,i9,a8,k8,d6,f5,f9,g8/"),
        "{text}"
    );
    let rebuilt = game_at(&text, &[]);
    assert_eq!(
        rebuilt.details(Viewer::Spectator).moved_piece_ids,
        vec![9, 4, 7]
    );
    assert_eq!(rebuilt, game);
}

#[test]
fn positions_written_the_old_way_read_as_before() {
    // The page's start: the board gives the f5 bishop id 7 and the f4 bishop id 8, and the
    // position is written back without an ids field.
    let game = game_at(PAGE_START_POSITION, &[]);
    assert_eq!((piece_id_on(&game, "f5"), piece_id_on(&game, "f4")), (7, 8));
    assert_eq!(game.position(), PAGE_START_POSITION);
    assert_eq!(game.turn().phase, "play");
    let puzzle = game_at(PAGE_PUZZLE, &[]);
    assert_eq!(puzzle.position(), PAGE_PUZZLE);
    // The same board with the default formations' ids is another state of the same diagram.
    let ids_given = game_at(
        &format!("{PAGE_START_POSITION} {DEFAULT_FORMATION_IDS}"),
        &[],
    );
    assert_eq!(
        (piece_id_on(&ids_given, "f4"), piece_id_on(&ids_given, "f5")),
        (7, 8)
    );
    assert_ne!(ids_given, game);
}

#[test]
fn every_state_of_random_matches_reads_back_from_its_position() {
    let mut placement_states = 0;
    let mut states_with_ids = 0;
    let mut golden_goal_states = 0;
    for seed in 0..6 {
        let options = [
            ("sets_per_game", int(2)),
            ("golden_goal_max_sets", int(2)),
            ("own_goals", OptionValue::Bool(seed % 2 == 1)),
            (
                "slide_through_small_areas",
                OptionValue::Bool(seed % 3 == 0),
            ),
        ];
        let mut game = SoccerChess::new(&spec(None, &options)).unwrap();
        let mut rng = Rng::new(seed);
        while game.outcome().is_none() {
            assert_reads_back(&game, &options);
            placement_states += usize::from(game.phase == Phase::Setup);
            states_with_ids += usize::from(game.position().split(' ').count() == 8);
            golden_goal_states += usize::from(game.in_golden_goal());
            let seat = game.to_move;
            let legal = game.legal_actions(seat);
            game.apply(seat, rng.pick(&legal)).unwrap();
        }
    }
    assert!(placement_states > 0 && states_with_ids > 0 && golden_goal_states > 0);
}

#[test]
fn malformed_new_parts_are_refused_naming_the_part() {
    let with_ids = |list: &str| {
        format!(
            "{} {list}",
            pos("Kf1 Ne5 Nb3 kf17", "f9", "first 1 - 1 0-0 0-0")
        )
    };
    let placing = |pieces: &str, ball: &str, rest: &str| pos(pieces, ball, rest);
    let visitor_team = "kf17 ne13 nf13 ng13 nh13 rc11 rg11 be15 bj11 qd11 qk11";
    let cases = [
        (
            format!("{PAGE_START_POSITION} {DEFAULT_FORMATION_IDS} extra"),
            "7 fields",
        ),
        (
            PAGE_START_POSITION.replace(" 1 - ", " x - "),
            "set number is a whole number",
        ),
        (with_ids("f1,b3,e5,-,-,-,-,-,-,-,-"), "is not two lists"),
        (with_ids("f1,b3,e5/f17"), "first lists 3"),
        (with_ids(&ids("f1,b3,z9", "f17")), "`z9` is neither"),
        (
            with_ids(&ids("f1,b3,-,-,-,-,-,-,-,-,e5", "f17")),
            "first's attacker (id 10) on e5, where the board shows none",
        ),
        (
            with_ids(&ids("f17,b3,e5", "f1")),
            "first's keeper (id 0) on f17",
        ),
        (with_ids(&ids("f1,b3,b3", "f17")), "list b3 twice"),
        (with_ids(&ids("f1,b3", "f17")), "leave out the piece on e5"),
        (
            placing("kf17", "f9", "second 0 f17 1 0-0 0-0"),
            "moved pieces are `-`",
        ),
        (
            placing("kf17", "f8", "second 0 - 1 0-0 0-0"),
            "the ball lies on f9",
        ),
        (
            placing("kf17 qa5", "f9", "second 0 - 1 0-0 0-0"),
            "outside its team area",
        ),
        (
            placing("kf17 ba10 bc10", "f9", "second 0 - 1 0-0 0-0"),
            "one colour",
        ),
        (
            placing("kf17 Kf1", "f9", "second 0 - 1 0-0 0-0"),
            "second is placing while first has placed 1 of its 11",
        ),
        (
            placing("kf17 Kf1", "f9", "first 0 - 1 0-0 0-0"),
            "first is placing while second has placed 1 of its 11",
        ),
        (
            placing(visitor_team, "f9", "second 0 - 1 0-0 0-0"),
            "second has placed its whole team",
        ),
        (
            placing("", "f9", "first 0 - 2 1-0 0-1"),
            "while its pieces are being placed",
        ),
    ];
    for (text, reason) in cases {
        let err = SoccerChess::new(&spec(Some(text.clone()), &[])).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
        assert!(err.message.contains(reason), "{text}: {err}");
    }
}
