//! The position notation holds the whole state: each part is written and read back, older
//! positions mean what they meant, and malformed parts are refused by name.

use std::collections::BTreeMap;

use crate::game::{Game, RuleErrorKind, SetupSpec, Viewer};
use crate::options::{OptionValue, Options};
use crate::rng::{Rng, Seed};

use super::events::PhaseKind;
use super::tests::{pick_by_kind, short_match_options, sq};
use super::{AWAY, Action, Formation, HOME, Role, XFutebol};

const HOME_TEAM: &str = "Kd1,Dc2,Df2,LDd3,Dg3,LMe4,GAd7,RMb5,GAf7,RMh5,Ae8";
const AWAY_TEAM: &str = "Kd16,Dc15,Df15,LDd14,Dg14,LMe13,GAd10,RMb12,GAf10,RMh12,Ae9";

fn setup(
    ints: &[(&str, i64)],
    texts: &[(&str, &str)],
    seed: u64,
    position: Option<&str>,
) -> SetupSpec {
    let mut given = BTreeMap::new();
    for (name, value) in ints {
        given.insert((*name).to_owned(), OptionValue::Int(*value));
    }
    for (name, value) in texts {
        given.insert((*name).to_owned(), OptionValue::Text((*value).to_owned()));
    }
    SetupSpec {
        options: Options::resolve(&XFutebol::info().options, &given).expect("valid options"),
        seed: Seed::from_number(seed),
        position: position.map(str::to_owned),
    }
}

fn read(text: &str) -> XFutebol {
    XFutebol::new(&setup(&[], &[], 3, Some(text)))
        .unwrap_or_else(|e| panic!("{text} is refused: {}", e.message))
}

fn refusal(text: &str) -> String {
    let err = XFutebol::new(&setup(&[], &[], 3, Some(text))).expect_err(text);
    assert_eq!(err.kind, RuleErrorKind::InvalidPosition, "{text}");
    err.message
}

/// `game` rebuilt from its position with another seed shows and allows the same.
fn assert_rebuilds(game: &XFutebol, spec: &SetupSpec) {
    let text = game.position();
    let rebuilt = XFutebol::new(&SetupSpec {
        seed: Seed::from_number(0xBEEF),
        position: Some(text.clone()),
        ..spec.clone()
    })
    .unwrap_or_else(|e| panic!("its own position is refused: {}: {text}", e.message));
    assert_eq!(rebuilt.position(), text);
    assert_eq!(rebuilt.turn(), game.turn(), "{text}");
    assert_eq!(
        rebuilt.details(Viewer::Spectator),
        game.details(Viewer::Spectator),
        "{text}"
    );
    assert_eq!(
        rebuilt.board(Viewer::Spectator),
        game.board(Viewer::Spectator),
        "{text}"
    );
    for seat in [HOME, AWAY] {
        assert_eq!(
            rebuilt.legal_actions(seat),
            game.legal_actions(seat),
            "{text}"
        );
    }
}

/// Kind-balanced random matches of every style, with individual attributes and short halves,
/// rebuilt from the position at every state; between them they pass through the lineup, play,
/// a send-off and a shoot-out.
#[test]
fn every_state_of_random_matches_rebuilds_from_its_position() {
    const SEEDS: u64 = 36;
    let mut phases_seen = Vec::new();
    for seed in 0..SEEDS {
        let (ints, texts) = short_match_options(seed as usize % 4, seed % 8 < 4);
        let spec = setup(&ints, &texts, seed, None);
        let mut game = XFutebol::new(&spec).unwrap();
        let mut rng = Rng::new(seed);
        let mut actions = 0;
        while game.outcome().is_none() && actions < 3000 {
            assert_rebuilds(&game, &spec);
            if !phases_seen.contains(&game.phase_kind()) {
                phases_seen.push(game.phase_kind());
            }
            let seat = game.turn().to_act[0];
            let action = pick_by_kind(&game.legal_actions(seat), &mut rng);
            game.apply(seat, &action).unwrap();
            actions += 1;
        }
    }
    // Random play seldom fouls inside a penalty area; the penalty has its own test.
    for phase in [
        PhaseKind::Lineup,
        PhaseKind::Play,
        PhaseKind::SendOff,
        PhaseKind::Shootout,
    ] {
        assert!(phases_seen.contains(&phase), "no state in {phase:?}");
    }
}

#[test]
fn a_turn_in_progress_is_written_and_read_back() {
    let start = format!("h:{HOME_TEAM};a:{AWAY_TEAM};ball:e8;to:h");
    let mut game = read(&start);
    game.apply(
        HOME,
        &Action::Move {
            from: sq("c2"),
            to: sq("c3"),
        },
    )
    .unwrap();
    let text = game.position();
    assert!(
        text.ends_with(";phase:play;turn:1;left:1;moved:yes;reds:0-0;first:h;formations:-/-"),
        "{text}"
    );
    let copy = read(&text);
    assert_eq!(copy.turn().actions_left, Some(1));
    assert!(copy.turn().may_end_turn);
    assert!(copy.details(Viewer::Spectator).moved_this_turn);
    // The piece that moved still lines up on its table square at the next kick-off.
    assert!(text.contains("Dc3@c2"), "{text}");
    assert_eq!(copy.piece_at(sq("c3")).unwrap().start, sq("c2"));
    game.apply(HOME, &Action::EndTurn).unwrap();
    let text = game.position();
    assert!(text.contains(";to:a;") && text.contains(";turn:2;left:2;moved:no;"));
    assert_eq!(read(&text).turn().number, 2);
}

#[test]
fn a_lineup_in_progress_is_written_and_read_back() {
    let spec = setup(&[], &[], 5, None);
    let mut game = XFutebol::new(&spec).unwrap();
    let text = game.position();
    assert_eq!(
        text,
        "h:;a:;ball:-;to:h;score:0-0;fouls:0-0;sprints:0-0;half:1;played:0;phase:lineup;\
         turn:0;left:0;moved:no;reds:0-0;first:-;formations:-/-"
    );
    assert_rebuilds(&game, &spec);
    game.apply(HOME, &Action::Formation(Formation::FiveThreeTwo))
        .unwrap();
    game.apply(
        HOME,
        &Action::Place {
            from: sq("b2"),
            to: sq("a8"),
        },
    )
    .unwrap();
    let text = game.position();
    assert!(text.contains(";formations:5-3-2/-;placed:2/-"), "{text}");
    assert_rebuilds(&game, &spec);
    let copy = read(&text);
    assert_eq!(copy.turn().phase, "lineup");
    assert!(
        !copy
            .legal_actions(HOME)
            .iter()
            .any(|a| matches!(a, Action::Place { from, .. } if *from == sq("a8"))),
        "the re-placed piece stays re-placed"
    );
    let mut game = XFutebol::new(&spec).unwrap();
    game.apply(HOME, &Action::DefaultLineup).unwrap();
    let text = game.position();
    assert!(text.contains(";to:a;") && text.contains(";formations:4-3-3/-"));
    // Home is done: away lines up next and home has nothing to do.
    let copy = read(&text);
    assert_eq!(copy.legal_actions(HOME), vec![]);
    assert!(copy.legal_actions(AWAY).contains(&Action::DefaultLineup));
}

#[test]
fn the_offsets_still_to_be_applied_are_written_during_the_lineup() {
    let spec = setup(&[("attribute_variation", 10)], &[], 5, None);
    let mut game = XFutebol::new(&spec).unwrap();
    let text = game.position();
    assert!(text.contains(";offsets:"), "{text}");
    assert_rebuilds(&game, &spec);
    // Rebuilt with another seed, the pieces still to come get this match's values.
    let mut copy = XFutebol::new(&SetupSpec {
        seed: Seed::from_number(99),
        position: Some(text),
        ..spec.clone()
    })
    .unwrap();
    for seat in [HOME, AWAY] {
        game.apply(seat, &Action::DefaultLineup).unwrap();
        copy.apply(seat, &Action::DefaultLineup).unwrap();
    }
    assert_eq!(
        copy.details(Viewer::Spectator).pieces,
        game.details(Viewer::Spectator).pieces
    );
    // In play every piece carries its values instead, even one the offsets left unchanged.
    let text = game.position();
    assert!(!text.contains("offsets"), "{text}");
    assert_eq!(text.matches('[').count(), 22, "{text}");
}

#[test]
fn a_send_off_and_the_free_kick_after_it_are_written_and_read_back() {
    // Away's fourth foul: a red card, away picks the piece to remove, then home's free kick.
    let start = format!("h:{HOME_TEAM};a:{AWAY_TEAM};ball:e8;to:a;fouls:0-3");
    let mut game = read(&start);
    game.apply(
        AWAY,
        &Action::Move {
            from: sq("e9"),
            to: sq("e8"),
        },
    )
    .unwrap();
    let text = game.position();
    assert!(
        text.contains(";fouls:0-4;")
            && text.contains(";phase:send_off;")
            && text.contains(";reds:0-1;")
            && text.contains(";then:freekick-e8"),
        "{text}"
    );
    assert_rebuilds(&game, &setup(&[], &[], 3, None));
    let mut copy = read(&text);
    assert_eq!(copy.turn().phase, "send_off");
    assert_eq!(copy.legal_actions(AWAY), game.legal_actions(AWAY));
    for g in [&mut game, &mut copy] {
        g.apply(AWAY, &Action::SendOff { at: sq("h12") }).unwrap();
    }
    let text = game.position();
    assert!(
        text.contains(",RM-,Ae9;") && text.contains(";freekick:e8"),
        "{text}"
    );
    assert_eq!(copy.position(), text);
    let copy = read(&text);
    assert_eq!(
        copy.details(Viewer::Spectator).free_kick,
        Some(sq("e8")),
        "{text}"
    );
    assert_eq!(copy.legal_actions(HOME), game.legal_actions(HOME));
}

#[test]
fn a_penalty_to_take_is_written_and_read_back() {
    // Away's defender on d14 fouls the home attacker on e13, inside away's penalty area.
    let home = HOME_TEAM.replace("Ae8", "Ae13");
    let away = AWAY_TEAM.replace("LMe13", "LMe11");
    let mut game = read(&format!("h:{home};a:{away};ball:e13;to:a"));
    game.apply(
        AWAY,
        &Action::Move {
            from: sq("d14"),
            to: sq("e13"),
        },
    )
    .unwrap();
    let text = game.position();
    assert!(
        text.contains(";to:h;") && text.contains(";phase:penalty;"),
        "{text}"
    );
    let copy = read(&text);
    assert_eq!(copy.turn().phase, "penalty");
    assert_eq!(copy.legal_actions(HOME), game.legal_actions(HOME));
}

#[test]
fn a_shootout_in_progress_is_written_and_read_back() {
    let text = format!(
        "h:{HOME_TEAM};a:{AWAY_TEAM};ball:e9;to:h;score:1-1;fouls:0-0;sprints:0-0;half:2;\
         played:80;phase:shootout;turn:81;left:1;moved:yes;reds:0-0;first:h;\
         formations:4-3-3/4-3-3;shootout:a/1-2/0-1"
    );
    let game = read(&text);
    assert_eq!(game.position(), text);
    let shootout = game.details(Viewer::Spectator).shootout;
    assert_eq!(
        (shootout.first, shootout.kicks, shootout.goals),
        (Some(AWAY), [1, 2], [0, 1])
    );
    assert_eq!(game.turn().phase, "shootout");
    assert!(
        game.legal_actions(HOME)
            .iter()
            .all(|a| matches!(a, Action::Penalty { .. }))
    );
}

#[test]
fn a_known_formation_keeps_the_lineup_order_of_its_table() {
    let text = format!("h:{HOME_TEAM};a:{AWAY_TEAM};ball:e8;to:h;formations:4-3-3/-");
    let game = read(&text);
    let home: Vec<u8> = game
        .pieces
        .iter()
        .filter(|p| p.seat == HOME)
        .map(|p| p.number)
        .collect();
    assert_eq!(home, [1, 2, 3, 4, 5, 6, 8, 10, 7, 9, 11]);
    assert_eq!(
        game.details(Viewer::Spectator).formations,
        [Some(Formation::FourThreeThree), None]
    );
}

#[test]
fn a_start_position_of_the_old_form_means_what_it_meant() {
    let old = format!(
        "h:{HOME_TEAM};a:{AWAY_TEAM};ball:e9;to:a;score:1-0;fouls:2-0;sprints:1-2;half:1;\
         played:3"
    );
    let game = read(&old);
    let turn = game.turn();
    assert_eq!(
        (
            turn.phase.as_str(),
            turn.to_act,
            turn.number,
            turn.actions_left
        ),
        ("play", vec![AWAY], 1, Some(2))
    );
    let details = game.details(Viewer::Spectator);
    assert_eq!(details.kicked_off_first, Some(AWAY));
    assert_eq!(details.formations, [None, None]);
    assert_eq!((details.red_cards, details.free_kick), ([0, 0], None));
    assert!(!details.moved_this_turn);
    let numbers: Vec<u8> = game.pieces.iter().map(|p| p.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].repeat(2));
    assert!(game.pieces.iter().all(|p| Some(p.start) == p.square()));
    // Written back: the old fields as they were, the defaults spelled out after them.
    assert_eq!(
        game.position(),
        format!("{old};phase:play;turn:1;left:2;moved:no;reds:0-0;first:a;formations:-/-")
    );
    // Without a ball field the ball lies on the kick-off square of the side to move, which
    // must be free.
    let home = HOME_TEAM.replace("Ae8", "Ae7");
    let game = read(&format!("h:{home};a:{AWAY_TEAM};to:h"));
    assert_eq!(game.ball, super::Ball::Loose(sq("e8")));
    assert!(refusal(&format!("h:{HOME_TEAM};a:{AWAY_TEAM};to:h")).contains("ball"));
}

#[test]
fn a_keeper_may_stand_anywhere_once_it_lined_up_in_its_own_half() {
    let home = HOME_TEAM.replace("Kd1", "Kd9@d1");
    assert_eq!(
        read(&format!("h:{home};a:{AWAY_TEAM};ball:e8;to:h")).pieces[0].slot,
        Role::Keeper
    );
    let home = HOME_TEAM.replace("Kd1", "Kd9");
    assert!(refusal(&format!("h:{home};a:{AWAY_TEAM};ball:e8;to:h")).contains("keeper"));
}

#[test]
fn malformed_new_parts_are_refused_by_name() {
    let base = format!("h:{HOME_TEAM};a:{AWAY_TEAM};ball:e8;to:h");
    let lineup = "h:;a:;to:h;phase:lineup";
    let no_ball = format!("h:{HOME_TEAM};a:{AWAY_TEAM};to:h");
    for (text, named) in [
        (format!("{base};phase:warmup"), "phase:warmup"),
        (format!("{base};phase:over"), "finished"),
        (format!("{base};turn:x"), "turn"),
        (format!("{base};left:3"), "left:3"),
        (format!("{base};left:0"), "left:0"),
        (format!("{base};moved:maybe"), "moved"),
        (format!("{base};reds:1"), "reds"),
        (format!("{base};first:x"), "first"),
        (format!("{base};formations:4-4-2/-"), "formations"),
        (format!("{base};formations:5-3-2/-"), "slot"),
        (format!("{base};formations:4-3-3"), "formations"),
        (format!("{base};placed:2/-"), "placed"),
        (format!("{base};then:end"), "then"),
        (format!("{base};phase:send_off"), "then"),
        (format!("{base};phase:send_off;then:corner-e8"), "then"),
        (format!("{base};phase:send_off;then:freekick-e8"), "then"),
        (format!("{base};freekick:e9"), "freekick"),
        (format!("{base};freekick:z99"), "freekick"),
        (format!("{base};phase:shootout"), "shootout"),
        (
            format!("{base};phase:shootout;shootout:a/1-1/2-0"),
            "shootout",
        ),
        (format!("{base};shootout:a/1-1/0-0"), "shootout"),
        (format!("{base};offsets:1.2.3"), "offsets"),
        (format!("{base};turn:2;turn:3"), "twice"),
        (format!("{no_ball};ball:-"), "ball:-"),
        (format!("{lineup};ball:e8"), "ball"),
        (format!("{lineup};first:h"), "first"),
        (format!("{lineup};formations:-/-;placed:1/-"), "placed"),
        (
            format!("h:{HOME_TEAM};a:;ball:-;to:h;phase:lineup"),
            "formation",
        ),
        (
            format!("h:{HOME_TEAM};a:;ball:-;to:h;phase:lineup;formations:4-3-3/4-3-3"),
            "11 pieces",
        ),
        (
            "h:Kd1,Dc2,Df2,Dd3,Dg3,Me4,Ad7,Mb5,Af7,Mh5,Ae8;a:;to:a;phase:lineup;formations:4-3-3/-"
                .to_owned(),
            "confirmed",
        ),
        (format!("{base};h:Kd1"), "twice"),
        ("h:Ae12@z1;a:;to:h".to_owned(), "`@`"),
    ] {
        let message = refusal(&text);
        assert!(message.contains(named), "{text}: {message}");
    }
}

/// The mid-match example of the rules page.
const DOCUMENTED_EXAMPLE: &str = "h:Kd1,Dc3@c2,Df2,LDd3,Dg3,LMe5@e4,GAd7,RMb5,GAf7,RMh5,Ae8;\
     a:Kd16,Dc14@c15,Df15,LDd14,Dg14,LMe13,GAd10,RMb12,GAf10,RMh12,Ae9;ball:e8;to:a;\
     score:0-0;fouls:0-0;sprints:0-0;half:1;played:3;phase:play;turn:2;left:1;moved:yes;\
     reds:0-0;first:h;formations:4-3-3/4-3-3";

#[test]
fn the_documented_example_is_what_a_match_writes_and_reads_back() {
    // With this seed home wins the kick-off toss.
    let spec = setup(&[], &[], 0, None);
    let mut game = XFutebol::new(&spec).unwrap();
    game.apply(HOME, &Action::DefaultLineup).unwrap();
    game.apply(AWAY, &Action::DefaultLineup).unwrap();
    for (seat, action) in [(HOME, "c2-c3"), (HOME, "e4-e5"), (AWAY, "c15-c14")] {
        game.apply(seat, &action.parse().unwrap()).unwrap();
    }
    assert_eq!(game.position(), DOCUMENTED_EXAMPLE);
    let copy = read(DOCUMENTED_EXAMPLE);
    assert_eq!(copy.position(), DOCUMENTED_EXAMPLE);
    let turn = copy.turn();
    assert_eq!(
        (turn.number, turn.actions_left, turn.may_end_turn),
        (2, Some(1), true)
    );
    assert_rebuilds(&game, &spec);
}
