//! Tests of the Gridiron rules: one per rule, plus property tests over random play.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::field::{AWAY, HOME, Location, Spot};
use super::roster::{Ability, Kind};
use super::*;
use crate::game::{Game, RuleErrorKind, Seat, SetupSpec, Viewer, Visibility};
use crate::options::{OptionValue, Options};
use crate::playout::checked_random_playout;
use crate::rng::Rng;

fn spec(seed: u64, given: &[(&str, i64)]) -> SetupSpec {
    let given: BTreeMap<String, OptionValue> = given
        .iter()
        .map(|(k, v)| ((*k).to_owned(), OptionValue::Int(*v)))
        .collect();
    SetupSpec {
        options: Options::resolve(&Gridiron::info().options, &given).unwrap(),
        seed,
        position: None,
    }
}

fn with_position(position: &str) -> Gridiron {
    let mut setup = spec(1, &[]);
    setup.position = Some(position.to_owned());
    Gridiron::new(&setup).unwrap()
}

fn loc(text: &str) -> Location {
    Location::parse(text).unwrap()
}

fn act(game: &mut Gridiron, seat: Seat, text: &str) -> Vec<Event> {
    let action = game
        .parse_action(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(seat, &action)
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect()
}

fn refused(game: &Gridiron, seat: Seat, text: &str) -> RuleError {
    let before = game.clone();
    let mut copy = game.clone();
    let err = match notation::parse_action(text) {
        Ok(action) => copy.apply(seat, &action).unwrap_err(),
        Err(e) => e,
    };
    assert_eq!(copy, before, "a refused action changed the state");
    err
}

/// A game past the roster phase with default rosters, at the first formation.
fn started(seed: u64) -> Gridiron {
    let mut game = Gridiron::new(&spec(seed, &[])).unwrap();
    for seat in [HOME, AWAY] {
        act(&mut game, seat, "roster default");
        act(&mut game, seat, "roster done");
    }
    game
}

fn to_snap(game: &mut Gridiron) {
    let offense = game.offense;
    act(game, offense, "ready");
    act(game, offense.opponent(), "ready");
    assert_eq!(game.turn().phase, "snap");
}

/// Commits both teams (offence first) in the snap, or the seat to act in a reaction turn.
fn commit_all(game: &mut Gridiron) -> Vec<Event> {
    let mut events = Vec::new();
    for seat in game.turn().to_act {
        events.extend(act(game, seat, "commit"));
    }
    events
}

/// Home attacks upward from rank 10: a hand-made position for rule tests.
/// Home ids: 0 B (lead blocker) 1 Q 2 H 3 H 4 S 5 S 6 F; away ids: 7 Y (safety) 8 Q 9 H 10 H
/// 11 S 12 S 13 F.
const BASE: &str = "Bd2.c,Qh8.c,Hg10.c,Hi10.c,Sf9.c,Sk9.c,Fb10.c/\
                    Yh16.c,Qa40.c,Hg11.c,Hi11.c,Sf12.c,Sk12.c,Fn14.c \
                    home 1 10 14 1 1 1-0 0-0";

fn snap_from(position: &str) -> Gridiron {
    let mut game = with_position(position);
    to_snap(&mut game);
    game
}

fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}


fn with(position: &str, given: &[(&str, i64)]) -> Gridiron {
    let mut setup = spec(1, given);
    setup.position = Some(position.to_owned());
    Gridiron::new(&setup).unwrap()
}

/// `BASE` with pieces replaced: each pair is (old text, new text).
fn base_with(changes: &[(&str, &str)]) -> String {
    let mut text = BASE.to_owned();
    for (old, new) in changes {
        assert!(text.contains(old), "{old} not in the base position");
        text = text.replacen(old, new, 1);
    }
    text
}

// ---------------------------------------------------------------- rosters and formations

#[test]
fn roster_rules_are_enforced() {
    let mut game = Gridiron::new(&spec(1, &[])).unwrap();
    assert_eq!(game.turn().phase, "roster");
    assert_eq!(game.turn().to_act, vec![HOME, AWAY]);
    assert!(refused(&game, HOME, "captain heavy").message.contains("not a captain"));
    assert!(refused(&game, HOME, "recruit safety").message.contains("is a captain"));
    assert!(refused(&game, HOME, "roster done").message.contains("captain and six"));
    act(&mut game, HOME, "captain deep-threat");
    assert!(refused(&game, HOME, "roster default").message.contains("empty roster"));
    assert!(refused(&game, HOME, "captain safety").message.contains("already chosen"));
    for kind in ["fast", "fast", "fast"] {
        act(&mut game, HOME, &format!("recruit {kind}"));
    }
    assert!(refused(&game, HOME, "recruit fast").message.contains("at most 3"));
    act(&mut game, HOME, "recruit heavy");
    act(&mut game, HOME, "recruit heavy");
    assert!(refused(&game, HOME, "recruit strong").message.contains("must be a qb"));
    act(&mut game, HOME, "recruit qb");
    assert!(refused(&game, HOME, "recruit qb").message.contains("six standard"));
    act(&mut game, HOME, "roster done");
    assert_eq!(game.turn().to_act, vec![AWAY]);
    act(&mut game, AWAY, "roster default");
    let events = act(&mut game, AWAY, "roster done");
    let revealed: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::RosterRevealed { seat, pieces } => Some((*seat, pieces.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(revealed.len(), 2);
    assert_eq!(revealed[0].1[0], (0, Kind::DeepThreat));
    assert_eq!(revealed[1].1[0], (7, Kind::LeadBlocker));
    assert_eq!(game.pieces.len(), 14);
}

#[test]
fn a_scrambler_captain_replaces_the_qb_as_passer() {
    let mut game = Gridiron::new(&spec(1, &[])).unwrap();
    for kind in ["heavy", "heavy", "strong", "strong", "fast", "fast"] {
        act(&mut game, HOME, &format!("recruit {kind}"));
    }
    assert!(refused(&game, HOME, "captain lineman").message.contains("scrambler"));
    act(&mut game, HOME, "captain scrambler");
    act(&mut game, HOME, "roster done");
    act(&mut game, AWAY, "roster default");
    act(&mut game, AWAY, "roster done");
    assert_eq!(game.snap_passer(HOME), 0);
    assert_eq!(game.snap_passer(AWAY), 8);
}

#[test]
fn roster_choices_are_private_until_both_commit() {
    let mut game = Gridiron::new(&spec(1, &[])).unwrap();
    let action = Action::Captain(Kind::Safety);
    assert_eq!(game.action_visibility(HOME, &action), Visibility::Seat(HOME));
    let events = game.apply(HOME, &action).unwrap();
    assert!(events.iter().all(|e| e.visibility == Visibility::Seat(HOME)));
    assert_eq!(game.details(Viewer::Seat(AWAY)).own_roster, Some((None, vec![])));
    assert_eq!(game.details(Viewer::Spectator).own_roster, None);
    assert_eq!(
        game.details(Viewer::Seat(HOME)).own_roster,
        Some((Some(Kind::Safety), vec![]))
    );
}

#[test]
fn the_coin_toss_winner_starts_on_its_own_rank_8() {
    let game = started(3);
    let winner = game.coin_winner;
    assert_eq!(game.offense, winner);
    assert_eq!(game.los, field::rank_for(winner, 8));
    assert_eq!(game.line, field::rank_for(winner, 12));
    assert_eq!(game.down, 1);
    assert_eq!(game.turn().phase, "formation");
    assert_eq!(game.turn().to_act, vec![winner]);
    let other = (0..40)
        .map(started)
        .find(|g| g.coin_winner != winner)
        .expect("both sides win tosses");
    assert_eq!(other.los, field::rank_for(other.offense, 8));
}

#[test]
fn default_formation_puts_teams_on_their_side_and_the_ball_with_the_passer() {
    let game = started(1);
    let offense = game.offense;
    for piece in &game.pieces {
        assert!(game.formation_squares(piece.owner).contains(&piece.loc.square));
        assert!(game.piece_at(piece.loc, piece.id).is_none());
    }
    assert_eq!(game.holder, game.snap_passer(offense));
    let board = game.board(Viewer::Spectator);
    assert_eq!(board.ball.unwrap().holder, Some(game.holder));
    assert_eq!(board.zones.len(), 2);
    assert_eq!(board.zones[0].squares.len(), 64);
}

#[test]
fn placement_stays_in_the_own_area_on_free_spots_once_per_piece() {
    let mut game = with_position(BASE);
    assert!(refused(&game, HOME, "place #2 g11.c").message.contains("outside your formation"));
    assert!(refused(&game, HOME, "place #2 i10.c").message.contains("taken by #3"));
    assert_eq!(
        refused(&game, AWAY, "place #9 g12.c").kind,
        RuleErrorKind::NotYourTurn
    );
    act(&mut game, HOME, "place #2 g6.nw");
    assert!(refused(&game, HOME, "place #2 g7.c").message.contains("already placed"));
    assert!(refused(&game, HOME, "place #9 g7.c").message.contains("not one of your"));
    act(&mut game, HOME, "ready");
    assert!(refused(&game, AWAY, "place #9 g10.c").message.contains("outside"));
    act(&mut game, AWAY, "place #9 g15.se");
    act(&mut game, AWAY, "ready");
    assert_eq!(game.turn().phase, "snap");
    assert_eq!(game.piece(9).loc, loc("g15.se"));
}

// ---------------------------------------------------------------- the snap and movement

#[test]
fn the_snap_is_simultaneous_and_hidden() {
    let mut game = snap_from(BASE);
    let turn = game.turn();
    assert_eq!(turn.to_act, vec![HOME, AWAY]);
    assert!(turn.may_end_turn);
    let away_legal = game.legal_actions(AWAY);
    let away_details = game.details(Viewer::Seat(AWAY));
    let spectator = game.details(Viewer::Spectator);
    let away_board = game.board(Viewer::Seat(AWAY));
    let away_error = refused(&game, AWAY, "#9 g13.c").message;
    let order = game.parse_action(HOME, "#3 j11.nw").unwrap();
    assert_eq!(game.action_visibility(HOME, &order), Visibility::Seat(HOME));
    let events = game.apply(HOME, &order).unwrap();
    assert!(events.iter().all(|e| e.visibility == Visibility::Seat(HOME)));
    act(&mut game, HOME, "#1 fake #4 keep #1");
    act(&mut game, HOME, "commit");
    assert_eq!(game.legal_actions(AWAY), away_legal);
    assert_eq!(game.details(Viewer::Seat(AWAY)).own_orders, away_details.own_orders);
    assert_eq!(game.details(Viewer::Spectator).own_orders, spectator.own_orders);
    assert_eq!(game.board(Viewer::Seat(AWAY)), away_board);
    assert_eq!(refused(&game, AWAY, "#9 g13.c").message, away_error);
    assert_eq!(game.details(Viewer::Seat(HOME)).own_orders.len(), 2);
    assert_eq!(game.turn().to_act, vec![AWAY]);
    assert_eq!(refused(&game, HOME, "#2 g11.nw").kind, RuleErrorKind::NotYourTurn);
    let events = act(&mut game, AWAY, "commit");
    // The reveal is public and leaves the play action out.
    assert!(has(&events, |e| matches!(e, Event::OrdersRevealed { seat, orders } if *seat == HOME && orders.len() == 1)));
    assert!(has(&events, |e| matches!(e, Event::PieceMoved { piece: 3, .. })));
    assert_eq!(game.turn().phase, "reaction");
    assert_eq!(game.turn().to_act, vec![HOME]);
}

#[test]
fn movement_ranges_and_the_snap_burst() {
    let mut game = snap_from(BASE);
    // A heavy moves 1, plus 1 at the snap.
    act(&mut game, HOME, "#3 j10.c");
    act(&mut game, HOME, "#3 j11.c");
    assert!(refused(&game, HOME, "#3 j12.c").message.contains("0 movement left"));
    // The qb has no burst.
    act(&mut game, HOME, "#1 h7.c");
    assert!(refused(&game, HOME, "#1 h6.c").message.contains("0 movement left"));
    // A strong moves 2 + 1.
    for step in ["f8.c", "f7.c", "f6.c"] {
        act(&mut game, HOME, &format!("#4 {step}"));
    }
    assert!(refused(&game, HOME, "#4 f5.c").message.contains("left"));
    commit_all(&mut game);
    // In a reaction turn the heavy has 1 again.
    act(&mut game, HOME, "#3 j12.c");
    assert!(refused(&game, HOME, "#3 j13.c").message.contains("left"));
}

#[test]
fn restricted_movers_pay_for_turning_and_spot_changes_cost_one() {
    let mut game = snap_from(BASE);
    for step in ["b11.c", "b12.c", "b13.c"] {
        act(&mut game, HOME, &format!("#6 {step}"));
    }
    let mut turning = snap_from(BASE);
    act(&mut turning, HOME, "#6 b11.c");
    act(&mut turning, HOME, "#6 c12.c");
    assert!(refused(&turning, HOME, "#6 c13.c").message.contains("costs 2 but #6 has 0"));
    let mut shifting = snap_from(BASE);
    act(&mut shifting, HOME, "#1 h8.nw");
    assert!(refused(&shifting, HOME, "#1 h9.c").message.contains("left"));
    assert!(refused(&shifting, HOME, "#6 b10.c").message.contains("already stands"));
    assert!(refused(&shifting, HOME, "#6 b12.c").message.contains("not one king step"));
}

#[test]
fn pieces_execute_captain_heavy_strong_fast_qb_with_written_order_breaking_ties() {
    let mut game = snap_from(&base_with(&[("Bd2.c", "Bd8.c")]));
    for order in ["#1 h7.c", "#6 b9.c", "#4 f8.c", "#3 j10.c", "#2 g9.c", "#0 d7.c"] {
        act(&mut game, HOME, order);
    }
    let events = commit_all(&mut game);
    let moved: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::PieceMoved { piece, .. } => Some(*piece),
            _ => None,
        })
        .collect();
    assert_eq!(moved, vec![0, 3, 2, 4, 6, 1]);
}

#[test]
fn nobody_moves_through_an_occupied_square_but_may_end_on_one() {
    let mut game = snap_from(BASE);
    // h10 is empty, g11 holds an away heavy: passing through g11 is blocked.
    act(&mut game, HOME, "#2 g11.nw");
    act(&mut game, HOME, "#2 g12.nw");
    act(&mut game, HOME, "#3 i11.nw");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(e, Event::MoveStopped { piece: 2, reason } if reason.contains("occupied"))));
    assert_eq!(game.piece(2).loc, loc("g10.c"));
    assert_eq!(game.piece(3).loc, loc("i11.nw"));
}

#[test]
fn collisions_roll_a_d6_each_and_losers_go_back() {
    let mut outcomes = [false; 3];
    for seed in 0..40 {
        let mut setup = spec(seed, &[]);
        setup.position = Some(base_with(&[("Sf9.c", "Sf10.c")]));
        let mut game = Gridiron::new(&setup).unwrap();
        to_snap(&mut game);
        act(&mut game, AWAY, "#11 f11.c");
        act(&mut game, AWAY, "#11 f10.c");
        let events = commit_all(&mut game);
        let rolls: Vec<u8> = events
            .iter()
            .filter_map(|e| match e {
                Event::DiceRolled { purpose: DicePurpose::Collision, value, .. } => Some(*value),
                _ => None,
            })
            .collect();
        assert_eq!(rolls.len(), 2);
        let (mover, occupant) = (game.piece(11).loc, game.piece(4).loc);
        match rolls[0].cmp(&rolls[1]) {
            std::cmp::Ordering::Greater => {
                outcomes[0] = true;
                assert_eq!((mover, occupant.square), (loc("f10.c"), loc("f10.c").square));
                assert_ne!(occupant, loc("f10.c"));
            }
            std::cmp::Ordering::Less => {
                outcomes[1] = true;
                assert_eq!((mover, occupant), (loc("f12.c"), loc("f10.c")));
            }
            std::cmp::Ordering::Equal => {
                outcomes[2] = true;
                assert_eq!((mover, occupant), (loc("f12.c"), loc("f10.c")));
            }
        }
    }
    assert_eq!(outcomes, [true; 3]);
}

// ---------------------------------------------------------------- tackles and downs

const QB_ON_9: &str = "Bd2.c,Qh9.c,Hg10.c,Hi10.c,Sf9.c,Sk9.c,Fb10.c/\
                       Yh16.c,Qa40.c,Hg11.c,Hi11.c,Sf12.c,Sk12.c,Fn14.c \
                       home 1 10 14 1 1 1-0 0-0";

#[test]
fn a_defender_ending_on_the_carrier_spot_tackles_and_behind_the_line_it_is_a_sack() {
    let mut game = snap_from(QB_ON_9);
    act(&mut game, AWAY, "#10 h10.c");
    act(&mut game, AWAY, "#10 h9.c");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(e, Event::Tackled { tackler: 10, carrier: 1, .. })));
    assert!(has(&events, |e| matches!(e, Event::DownEnded { result: DownResult::Sack, ball_rank: 9 })));
    assert_eq!((game.down, game.los, game.line), (2, 9, 14));
    assert_eq!(game.turn().phase, "formation");
}

#[test]
fn a_defender_on_another_spot_of_the_carrier_square_does_not_tackle() {
    let mut game = snap_from(QB_ON_9);
    act(&mut game, AWAY, "#10 h10.c");
    act(&mut game, AWAY, "#10 h9.nw");
    let events = commit_all(&mut game);
    assert!(!has(&events, |e| matches!(e, Event::Tackled { .. })));
    assert_eq!(game.turn().phase, "reaction");
}

#[test]
fn a_tackle_in_the_own_end_zone_is_a_safety() {
    let position = QB_ON_9.replace("Qh9.c", "Qh4.c").replace("Hg11.c", "Hh5.c");
    let mut game = snap_from(&position);
    act(&mut game, AWAY, "#9 h4.c");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(e, Event::Scored { seat, points: 2, reason: DownResult::Safety } if *seat == AWAY)));
    assert_eq!(game.scores, [0, 2]);
    assert_eq!((game.offense, game.los, game.down), (AWAY, 41, 1));
}

#[test]
fn carrying_the_ball_into_the_end_zone_scores_seven() {
    let position = BASE.replace("Fb10.c", "Fb44.c").replace(" 1 1 1-0", " 6 1 1-0");
    let mut game = snap_from(&position);
    act(&mut game, HOME, "#6 b45.c");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(e, Event::Scored { points: 7, reason: DownResult::Touchdown, .. })));
    assert_eq!(game.scores, [7, 0]);
    assert!(has(&events, |e| matches!(e, Event::DriveStarted { how: DriveStart::Touchdown, line_of_scrimmage: 41, .. })));
    assert_eq!(game.offense, AWAY);
}

#[test]
fn reaction_turns_alternate_and_the_turn_limit_spots_the_ball() {
    let mut game = with(BASE, &[("turns_per_down", 3)]);
    to_snap(&mut game);
    commit_all(&mut game);
    assert_eq!((game.turn().phase.as_str(), game.turn().number), ("reaction", 2));
    assert_eq!(game.turn().to_act, vec![HOME]);
    act(&mut game, HOME, "commit");
    assert_eq!(game.turn().to_act, vec![AWAY]);
    act(&mut game, AWAY, "commit");
    act(&mut game, HOME, "commit");
    let events = act(&mut game, AWAY, "commit");
    assert!(has(&events, |e| matches!(e, Event::DownEnded { result: DownResult::TurnLimit, ball_rank: 8 })));
    assert_eq!((game.down, game.los), (2, 8));
}

#[test]
fn gaining_four_ranks_is_a_first_down() {
    let position = BASE.replace("Fb10.c", "Fb13.c").replace(" 1 1 1-0", " 6 1 1-0");
    let mut game = with(&position, &[("turns_per_down", 2)]);
    to_snap(&mut game);
    act(&mut game, HOME, "#6 b14.c");
    commit_all(&mut game);
    let mut events = act(&mut game, HOME, "commit");
    events.extend(act(&mut game, AWAY, "commit"));
    assert!(has(&events, |e| matches!(e, Event::FirstDown { line_of_scrimmage: 14, first_down_line: 18 })));
    assert_eq!(game.down, 1);
}

#[test]
fn fourth_down_offers_go_or_punt() {
    let fourth = BASE.replace("home 1 10", "home 4 10");
    let mut game = with_position(&fourth);
    assert_eq!(game.turn().phase, "fourth-down");
    assert_eq!(game.legal_actions(HOME), vec![Action::GoForIt, Action::Punt]);
    assert!(game.legal_actions(AWAY).is_empty());
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(e, Event::DriveStarted { how: DriveStart::Punt, line_of_scrimmage: 41, .. })));
    assert_eq!(game.offense, AWAY);

    let mut game = with(&fourth, &[("turns_per_down", 2)]);
    act(&mut game, HOME, "go");
    to_snap(&mut game);
    commit_all(&mut game);
    act(&mut game, HOME, "commit");
    let events = act(&mut game, AWAY, "commit");
    assert!(has(&events, |e| matches!(e, Event::TurnoverOnDowns { spot: 8 })));
    assert_eq!((game.offense, game.los, game.down, game.line), (AWAY, 8, 1, 4));
}

#[test]
fn the_match_ends_after_the_possessions_and_ties_go_to_overtime() {
    let last = BASE.replace("home 4", "home 4").replace("home 1 10", "home 4 10");
    let winning = last.replace("1 1 1-0 0-0", "1 2 1-1 7-0");
    let mut game = with(&winning, &[("possessions_per_half", 1)]);
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(e, Event::PeriodEnded { period: 2 })));
    let outcome = game.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.scores), (Some(HOME), vec![7, 0]));
    assert!(game.turn().to_act.is_empty());
    assert_eq!(refused(&game, HOME, "go").kind, RuleErrorKind::GameOver);

    let tied = last.replace("1 1 1-0 0-0", "1 2 1-1 7-7");
    let mut game = with(&tied, &[("possessions_per_half", 1), ("overtime_periods", 1)]);
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(e, Event::PeriodStarted { period: 3, .. })));
    assert!(game.outcome().is_none());
    let mut game = with(&tied, &[("possessions_per_half", 1), ("overtime_periods", 0)]);
    act(&mut game, HOME, "punt");
    assert_eq!(game.outcome().unwrap().winner, None);

    let first_half = last.replace("1 1 1-0 0-0", "1 1 1-1 0-0");
    let mut game = with(&first_half, &[("possessions_per_half", 1)]);
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(e, Event::PeriodStarted { period: 2, first_offense } if *first_offense == game.coin_winner.opponent())));
}
