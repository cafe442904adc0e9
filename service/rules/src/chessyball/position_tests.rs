//! Whole-state positions: every part written and read back, old forms reading as before,
//! malformed or impossible parts refused.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::tests::{
    custom, extension_cells, game_with, mv, option_strategy, play, shootout_game, sq, text,
    three_kicks, with_ball,
};
use super::*;
use crate::game::{RuleErrorKind, start};
use crate::options::OptionValue;

/// The standard-board start the other tests use: home keeper b6, away keeper q8, an away member
/// on r11, a home member on e9, the ball on h8.
const START: &str = "17m/18/4M13/7o8k1/18/1K16/18/18/18/18/18";

/// Match options as the tests write them.
type Given<'a> = &'a [(&'a str, OptionValue)];

fn read(given: Given, text: &str) -> Result<Chessyball, RuleError> {
    let options: BTreeMap<String, OptionValue> = given
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect();
    start::<Chessyball>(&options, crate::Seed::from_number(3), Some(text.to_owned()))
}

/// Reads `game`'s position under another seed and checks that it rebuilt the whole state: all
/// but the generator, which is no part of a position, and the opening, which the new match has
/// of its own.
fn assert_reads_back(game: &Chessyball, given: Given) {
    let written = game.position();
    let mut again = read(given, &written)
        .unwrap_or_else(|e| panic!("{written} does not read back: {}", e.message));
    again.rng = game.rng.clone();
    again.opening = game.opening.clone();
    assert_eq!(&again, game, "{written}");
}

fn part<'a>(written: &'a str, name: &str) -> Option<&'a str> {
    written
        .split(' ')
        .find_map(|field| field.strip_prefix(name)?.strip_prefix(':'))
}

// ----- the old forms -----

#[test]
fn a_start_written_the_old_way_reads_exactly_as_before() {
    for (side, given) in [
        ("h", vec![]),
        ("a", vec![]),
        ("h", vec![("ball_start", text("anywhere"))]),
    ] {
        let old = format!("{START} {side}");
        let game = read(&given, &old).unwrap();
        let written = game.position();
        assert_eq!(
            written.split(' ').count(),
            5,
            "no parts at a start: {written}"
        );
        assert_eq!(read(&given, &written).unwrap(), game, "{written}");
    }
    let lifted = read(&[("ball_start", text("anywhere"))], &format!("{START} a")).unwrap();
    assert_eq!(lifted.position(), format!("{START} a 3 0-0 1"));
}

#[test]
fn the_board_alone_still_leaves_the_first_side_to_the_options() {
    let game = read(&[("starting_seat", text("away"))], START).unwrap();
    assert_eq!(game.position(), format!("{START} a 1 0-0 1"));
}

// ----- each part, from play -----

#[test]
fn the_default_formation_writes_its_ids_and_start_squares_and_the_first_side() {
    let given = [
        ("starting_seat", text("away")),
        ("ball_start", text("home_side")),
    ];
    let mut game = game_with(&given, 1, None);
    let written = game.position();
    assert_eq!(
        part(&written, "pieces"),
        Some("b6,d5,d7,h4,h8,f4,f8,d3,d9,f2,f10,q6,o5,o7,k4,k8,m4,m8,o3,o9,m2,m10"),
        "ids follow the formation, not the reading order"
    );
    assert_eq!(
        part(&written, "starts"),
        None,
        "every piece on its start square"
    );
    assert_eq!(part(&written, "first"), None, "away starts and moves");
    assert_reads_back(&game, &given);
    play(&mut game, AWAY, &mv("k4", "j5"));
    let written = game.position();
    assert_eq!(part(&written, "first"), Some("a"));
    assert!(
        part(&written, "starts").is_some_and(|starts| starts.contains(",k4,")),
        "{written}"
    );
    assert!(part(&written, "pieces").is_some_and(|at| at.contains(",j5,")));
    assert_reads_back(&game, &given);
}

#[test]
fn a_reset_after_a_goal_sends_a_read_piece_to_its_written_start() {
    // Home n6-o6 kicks the ball from p6 into away's goal; the pieces go back to their starts.
    let cells = with_ball("p6", &[("n6", 'M'), ("e3", 'M')]);
    let mut game = custom(&cells, "h", &[]);
    // Ids in reading order: r11, q8, b6, n6, e3; the member on n6 is written to start on n5.
    let text = format!("{} starts:r11,q8,b6,n5,e3", game.position());
    let mut read_game = read(&[], &text).unwrap();
    assert_eq!(read_game.start_squares[3], sq("n5"));
    play(&mut game, HOME, &mv("n6", "o6"));
    let events = play(&mut read_game, HOME, &mv("n6", "o6"));
    assert!(events.contains(&Event::PiecesReset));
    assert_eq!(game.pieces[3].square, sq("n6"));
    assert_eq!(read_game.pieces[3].square, sq("n5"));
}

#[test]
fn a_turn_half_played_writes_the_actions_left_and_whether_each_moved_the_ball() {
    let given = [("ball_start", text("anywhere"))];
    let mut game = custom(&extension_cells(), "h", &given);
    play(&mut game, HOME, &mv("h10", "h9"));
    let written = game.position();
    assert!(written.contains(" h 2 0-0 1 moved:no"), "{written}");
    assert_reads_back(&game, &given);
    assert_eq!(read(&given, &written).unwrap().actions_taken, 1);
}

#[test]
fn an_extension_writes_its_phase_and_the_extra_actions_left() {
    let given = [
        ("ball_start", text("anywhere")),
        ("extensions", OptionValue::Bool(true)),
        ("extension_limit", OptionValue::Int(2)),
    ];
    let mut game = custom(&extension_cells(), "h", &given);
    three_kicks(&mut game);
    let written = game.position();
    assert!(written.contains(" h 2 0-0 1 phase:extension"), "{written}");
    assert_reads_back(&game, &given);
    let kick = game.legal_actions(HOME)[0].clone();
    play(&mut game, HOME, &kick);
    let written = game.position();
    assert!(
        written.contains(" h 1 0-0 1 phase:extension"),
        "{kick:?}: {written}"
    );
    assert_reads_back(&game, &given);
}

#[test]
fn a_ball_to_place_writes_its_phase_and_lies_in_the_goal() {
    let given = [("after_goal", text("defender_places"))];
    let mut game = custom(&with_ball("p6", &[("n6", 'M'), ("e3", 'M')]), "h", &given);
    play(&mut game, HOME, &mv("n6", "o6"));
    let written = game.position();
    assert!(
        written.contains(" a 2 1-0 2 phase:place_ball first:h"),
        "{written}"
    );
    assert_reads_back(&game, &given);
    let again = read(&given, &written).unwrap();
    assert_eq!(again.legal_actions(AWAY), game.legal_actions(AWAY));
}

#[test]
fn a_shoot_out_writes_its_kicks_and_the_last_turn() {
    let given = [
        ("starting_seat", text("home")),
        ("max_turns", OptionValue::Int(1)),
        ("shootout", OptionValue::Bool(true)),
    ];
    let mut game = shootout_game(4);
    let written = game.position();
    assert!(
        written.contains(" a 1 0-0 1 phase:shootout first:h moved:no last:1 pieces:"),
        "{written}"
    );
    assert_eq!(part(&written, "kicks"), None);
    assert_reads_back(&game, &given);
    play(&mut game, AWAY, &Action::Shoot);
    let written = game.position();
    let kick = if game.shootout.kicks[1][0] { "o" } else { "x" };
    assert_eq!(part(&written, "kicks"), Some(format!("-/{kick}").as_str()));
    assert_reads_back(&game, &given);
}

// ----- each part, written by hand -----

#[test]
fn hand_written_parts_mean_what_the_rules_page_says() {
    let given = [
        ("extensions", OptionValue::Bool(true)),
        ("shootout", OptionValue::Bool(true)),
    ];
    let extension = format!("{START} h 4 0-0 5 phase:extension");
    let game = read(&given, &extension).unwrap();
    assert_eq!(game.turn().phase, "extension");
    assert_eq!(game.turn().actions_left, Some(4));
    let details = game.details(Viewer::Spectator);
    assert_eq!(
        (details.actions_taken, details.extension_actions),
        (3, Some(6))
    );
    assert!(game.legal_actions(HOME).contains(&Action::EndTurn));
    assert_eq!(game.position(), extension);

    // Away took turn 1, so home kicks first; each side has kicked twice.
    let shootout =
        format!("{START} h 1 2-2 60 phase:shootout first:a moved:no last:3+2 kicks:ox/oo");
    let game = read(&given, &shootout).unwrap();
    let details = game.details(Viewer::Spectator);
    assert_eq!(details.starting_seat, AWAY);
    assert_eq!(
        details.shootout,
        Some(ShootoutDetails {
            first: Some(HOME),
            kicks: [vec![true, false], vec![true, true]],
        })
    );
    assert_eq!(
        (
            details.actions_taken,
            details.extension_actions,
            details.ball_moved_every_action
        ),
        (3, Some(2), false)
    );
    assert_eq!(
        (game.turn().phase.as_str(), game.turn().number),
        ("shootout", 3)
    );
    assert_eq!(game.legal_actions(HOME), vec![Action::Shoot]);
    assert_eq!(game.position(), shootout);

    let ids = format!("{START} h 1 0-0 1 pieces:b6,e9,q8,r11 starts:b6,d9,q8,r11");
    let game = read(&[], &ids).unwrap();
    let board = game.board(Viewer::Spectator);
    let id_on = |name: &str| {
        board
            .pieces
            .iter()
            .find(|p| p.square == sq(name))
            .map(|p| p.id)
    };
    assert_eq!(
        [id_on("b6"), id_on("e9"), id_on("q8"), id_on("r11")],
        [Some(0), Some(1), Some(2), Some(3)]
    );
    assert_eq!(game.start_squares[1], sq("d9"));
    assert_eq!(game.position(), ids);
}

#[test]
fn a_turn_read_at_its_start_opens_with_it_and_a_turn_read_midway_does_not() {
    let opening = |text: &str| -> Vec<Event> {
        read(&[], text)
            .unwrap()
            .opening_events()
            .into_iter()
            .map(|e| e.event)
            .collect()
    };
    let chosen = Event::StartingSeatChosen {
        seat: AWAY,
        by_coin: false,
    };
    assert_eq!(
        opening(&format!("{START} h 3 0-0 5 first:a")),
        vec![
            chosen.clone(),
            Event::TurnStarted {
                seat: HOME,
                number: 5,
                actions: 3
            }
        ]
    );
    assert_eq!(opening(&format!("{START} h 2 0-0 5 first:a")), vec![chosen]);
}

#[test]
fn a_side_read_without_a_move_loses_the_rest_of_its_turn() {
    // The home keeper on b4 is walled in by away members on b5, c4 and c5.
    let board = "18/18/18/18/18/7o8k1/1mm15/1Km15/18/18/18";
    let game = read(&[], &format!("{board} h 2 0-0 5 moved:no")).unwrap();
    assert_eq!(game.turn().to_act, vec![AWAY]);
    assert_eq!(game.turn().number, 6);
    assert!(game.opening_events().iter().any(|e| e.event
        == Event::TurnEnded {
            seat: HOME,
            actions: 1,
            reason: TurnEndReason::NoLegalAction
        }));
}

// ----- refusals -----

#[test]
fn malformed_or_impossible_parts_are_refused_naming_the_part() {
    let plain: Given = &[];
    let both: Given = &[
        ("extensions", OptionValue::Bool(true)),
        ("shootout", OptionValue::Bool(true)),
        ("after_goal", text("defender_places")),
    ];
    // Home's keeper on b5, the ball in home's goal on a6.
    let placing = "17m/18/4M13/18/18/o15k1/1K16/18/18/18/18";
    let cases: Vec<(Given, String, &str)> = vec![
        (plain, format!("{START} h 1 0-0"), "1 or 2 fields"),
        (plain, format!("{START} - - 3-0 9"), "finished match"),
        (plain, format!("{START} h x 0-0 1"), "actions left `x`"),
        (plain, format!("{START} h 1 0:0 1"), "score `0:0`"),
        (plain, format!("{START} h 1 a-0 1"), "home score `a`"),
        (plain, format!("{START} h 1 0-0 0"), "turns count from 1"),
        (
            plain,
            format!("{START} h 3 0-0 61"),
            "past the match's last turn",
        ),
        (plain, format!("{START} h 3 3-0 9"), "has ended the match"),
        (
            plain,
            format!("{START} h 4 0-0 5"),
            "turn 5 has 1 to 3 left",
        ),
        (
            plain,
            format!("{START} h 0 0-0 5"),
            "turn 5 has 1 to 3 left",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 phase"),
            "not a part `name:value`",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 colour:red"),
            "names no part",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 first:h first:a"),
            "given twice",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 phase:halftime"),
            "part `phase:`",
        ),
        (plain, format!("{START} h 2 0-0 2 first:x"), "part `first:`"),
        (
            plain,
            format!("{START} h 2 0-0 2 moved:maybe"),
            "part `moved:`",
        ),
        (plain, format!("{START} h 2 0-0 2 moved:no"), "does not fit"),
        (both, format!("{START} h 2 0-0 2 last:1"), "`last:` belongs"),
        (
            both,
            format!("{START} h 2 0-0 2 kicks:o/x"),
            "`kicks:` belongs",
        ),
        (
            plain,
            format!("{START} h 2 0-0 5 phase:extension"),
            "option `extensions`",
        ),
        (
            both,
            format!("{START} h 2 0-0 2 phase:extension"),
            "only a full turn",
        ),
        (
            both,
            format!("{START} h 11 0-0 5 phase:extension"),
            "1 to 10 left",
        ),
        (
            both,
            format!("{START} h 2 0-0 5 phase:extension moved:no"),
            "does not fit",
        ),
        (
            plain,
            format!("{placing} h 3 0-1 5 phase:place_ball"),
            "`defender_places`",
        ),
        (
            both,
            format!("{START} h 3 0-1 5 phase:place_ball"),
            "home goal it entered",
        ),
        (
            both,
            format!("{placing} h 2 0-1 5 phase:place_ball"),
            "begins by placing",
        ),
        (
            plain,
            format!("{START} h 1 1-1 60 phase:shootout"),
            "option `shootout`",
        ),
        (
            both,
            format!("{START} h 1 2-1 60 phase:shootout"),
            "follows a level match",
        ),
        (
            both,
            format!("{START} a 2 1-1 60 phase:shootout"),
            "1 to 1 left",
        ),
        (
            both,
            format!("{START} h 1 1-1 60 phase:shootout kicks:oq/o"),
            "`q` in the part",
        ),
        (
            both,
            format!("{START} h 1 1-1 60 phase:shootout kicks:oo"),
            "kicks:<home>/<away>",
        ),
        (
            both,
            format!("{START} h 1 1-1 60 phase:shootout first:a kicks:ooo/o"),
            "alternate",
        ),
        (
            both,
            format!("{START} h 1 1-1 60 phase:shootout first:a kicks:o/-"),
            "away's kick",
        ),
        (
            both,
            format!("{START} h 1 1-1 60 phase:shootout first:a kicks:ooo/xxx"),
            "already decided",
        ),
        (
            both,
            format!("{START} a 1 1-1 60 phase:shootout last:4"),
            "which allows 3",
        ),
        (
            both,
            format!("{START} a 1 1-1 60 phase:shootout last:3+11"),
            "`extension_limit`",
        ),
        (
            both,
            format!("{START} a 1 1-1 60 phase:shootout last:x"),
            "actions of `last:`",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 pieces:b6,e9,q8"),
            "3 squares for the board's 4",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 pieces:b6,e9,q8,r10"),
            "the board has no piece",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 pieces:b6,e9,b6,r11"),
            "names b6 twice",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 pieces:b6,e9,q8,zz"),
            "not a square name",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 starts:b6,e9,q8"),
            "3 squares for the board's 4",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 starts:r11,e9,q8,s11"),
            "off the board",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 starts:r11,e9,e9,b6"),
            "names e9 twice",
        ),
        (
            plain,
            format!("{START} h 2 0-0 2 starts:r11,c6,q8,b6"),
            "own keeper box",
        ),
        (plain, format!("{placing} h 2 0-1 2"), "inner rectangle"),
    ];
    for (given, text, hint) in cases {
        let err = read(given, &text).expect_err(&text);
        assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
        assert!(err.message.contains(hint), "{text}: {}", err.message);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Under every option, every state of a random match reads back as itself.
    #[test]
    fn every_state_of_random_matches_reads_back_as_itself(
        seed in any::<u64>(),
        given in option_strategy(),
    ) {
        let mut game = game_with(&given, seed, None);
        let mut rng = crate::rng::Rng::new(seed.rotate_left(9));
        while game.outcome().is_none() {
            assert_reads_back(&game, &given);
            let seat = game.turn().to_act[0];
            let legal = game.legal_actions(seat);
            play(&mut game, seat, rng.pick(&legal));
        }
    }
}

/// The mid-game example of the rules page.
#[test]
fn the_rules_page_example_is_what_the_engine_writes() {
    let example = "18/5M6m5/3M10m3/5M1M2m1m5/3M10m3/1K6o7k1/4M5m3m3/5M1M4m5/3M10m3/5M6m5/18 \
                   h 1 0-0 2 first:a moved:no \
                   pieces:b6,e5,d7,h4,h8,f4,f8,d3,d9,f2,f10,q6,o5,o7,k5,k8,m4,m8,o3,o9,m2,m10 \
                   starts:b6,d5,d7,h4,h8,f4,f8,d3,d9,f2,f10,q6,o5,o7,k4,k8,m4,m8,o3,o9,m2,m10";
    let given = [
        ("starting_seat", text("away")),
        ("ball_start", text("home_side")),
    ];
    let mut game = game_with(&given, 1, None);
    play(&mut game, AWAY, &mv("k4", "k5"));
    play(&mut game, HOME, &mv("d5", "e5"));
    assert_eq!(game.position(), example);
    assert_eq!(read(&given, example).unwrap().position(), example);
}
