//! Tests of the Gridiron rules: one per rule, plus property tests over random play.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::field::{AWAY, HOME, Location};
use super::roster::{Ability, Kind};
use super::*;
use crate::game::{Game, Rule, RuleErrorKind, Seat, SetupSpec, Viewer, Visibility};
use crate::options::{OptionValue, Options};
use crate::playout::checked_random_playout;
use crate::rng::Rng;

pub(super) fn spec(seed: u64, given: &[(&str, i64)]) -> SetupSpec {
    let given: BTreeMap<String, OptionValue> = given
        .iter()
        .map(|(k, v)| ((*k).to_owned(), OptionValue::Int(*v)))
        .collect();
    SetupSpec {
        options: Options::resolve(&Gridiron::info().options, &given).unwrap(),
        seed: crate::Seed::from_number(seed),
        position: None,
    }
}

pub(super) fn with_position(position: &str) -> Gridiron {
    let mut setup = spec(1, &[]);
    setup.position = Some(position.to_owned());
    Gridiron::new(&setup).unwrap()
}

fn loc(text: &str) -> Location {
    Location::parse(text).unwrap()
}

pub(super) fn act(game: &mut Gridiron, seat: Seat, text: &str) -> Vec<Event> {
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

/// The rule an action breaks, refused as an illegal action without changing the state.
fn broken_rule(game: &Gridiron, seat: Seat, text: &str) -> Rule {
    let refusal = refused(game, seat, text);
    assert_eq!(
        refusal.kind,
        RuleErrorKind::IllegalAction,
        "{text}: {refusal}"
    );
    refusal
        .rule
        .unwrap_or_else(|| panic!("{text}: no rule in {refusal}"))
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
pub(super) fn commit_all(game: &mut Gridiron) -> Vec<Event> {
    let mut events = Vec::new();
    for seat in game.turn().to_act {
        events.extend(act(game, seat, "commit"));
    }
    events
}

/// Home attacks upward from rank 10: a hand-made position for rule tests.
/// Home ids: 0 B (lead blocker) 1 Q 2 H 3 H 4 S 5 S 6 F; away ids: 7 Y (safety) 8 Q 9 H 10 H
/// 11 S 12 S 13 F.
pub(super) const BASE: &str = "Bd2.c,Qh8.c,Hg10.c,Hi10.c,Sf9.c,Sk9.c,Fb10.c/\
                    Yh16.c,Qa40.c,Hg11.c,Hi11.c,Sf12.c,Sk12.c,Fn14.c \
                    home 1 10 14 1 1 1-0 0-0";

pub(super) fn snap_from(position: &str) -> Gridiron {
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
pub(super) fn base_with(changes: &[(&str, &str)]) -> String {
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
    assert_eq!(
        broken_rule(&game, HOME, "captain heavy"),
        rules::CAPTAIN_KIND
    );
    assert_eq!(
        broken_rule(&game, HOME, "recruit safety"),
        rules::STANDARD_KIND
    );
    assert_eq!(
        broken_rule(&game, HOME, "roster done"),
        rules::ROSTER_COMPLETE
    );
    act(&mut game, HOME, "captain deep-threat");
    assert_eq!(
        broken_rule(&game, HOME, "roster default"),
        rules::DEFAULT_ROSTER_WHEN_EMPTY
    );
    assert_eq!(
        broken_rule(&game, HOME, "captain safety"),
        rules::ONE_CAPTAIN
    );
    for kind in ["fast", "fast", "fast"] {
        act(&mut game, HOME, &format!("recruit {kind}"));
    }
    assert_eq!(
        broken_rule(&game, HOME, "recruit fast"),
        rules::STANDARD_KIND_LIMIT
    );
    act(&mut game, HOME, "recruit heavy");
    act(&mut game, HOME, "recruit heavy");
    assert_eq!(
        broken_rule(&game, HOME, "recruit strong"),
        rules::PASSER_REQUIRED
    );
    act(&mut game, HOME, "recruit qb");
    assert_eq!(broken_rule(&game, HOME, "recruit qb"), rules::SIX_STANDARD);
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
    assert_eq!(
        broken_rule(&game, HOME, "captain lineman"),
        rules::PASSER_REQUIRED
    );
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
    assert_eq!(
        game.action_visibility(HOME, &action),
        Visibility::Seat(HOME)
    );
    let events = game.apply(HOME, &action).unwrap();
    assert!(
        events
            .iter()
            .all(|e| e.visibility == Visibility::Seat(HOME))
    );
    assert_eq!(
        game.details(Viewer::Seat(AWAY)).own_roster,
        Some((None, vec![]))
    );
    assert_eq!(game.details(Viewer::Spectator).own_roster, None);
    assert_eq!(
        game.details(Viewer::Seat(HOME)).own_roster,
        Some((Some(Kind::Safety), vec![]))
    );
    // The turn is shared: it must not tell home that away's hidden roster is complete.
    let turn = game.turn();
    act(&mut game, AWAY, "roster default");
    assert_eq!(game.turn(), turn);
    assert!(!turn.may_end_turn);
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
        assert!(
            game.formation_squares(piece.owner)
                .contains(&piece.loc.square)
        );
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
    assert_eq!(
        broken_rule(&game, HOME, "place #2 g11.c"),
        rules::FORMATION_AREA
    );
    assert_eq!(broken_rule(&game, HOME, "place #2 i10.c"), rules::FREE_SPOT);
    assert_eq!(
        refused(&game, AWAY, "place #9 g12.c").kind,
        RuleErrorKind::NotYourTurn
    );
    act(&mut game, HOME, "place #2 g6.nw");
    assert_eq!(
        broken_rule(&game, HOME, "place #2 g7.c"),
        rules::ONE_PLACEMENT
    );
    assert_eq!(broken_rule(&game, HOME, "place #9 g7.c"), rules::OWN_PIECES);
    act(&mut game, HOME, "ready");
    assert_eq!(
        broken_rule(&game, AWAY, "place #9 g10.c"),
        rules::FORMATION_AREA
    );
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
    assert!(
        events
            .iter()
            .all(|e| e.visibility == Visibility::Seat(HOME))
    );
    act(&mut game, HOME, "#1 fake #4 keep #1");
    act(&mut game, HOME, "commit");
    assert_eq!(game.legal_actions(AWAY), away_legal);
    assert_eq!(
        game.details(Viewer::Seat(AWAY)).own_orders,
        away_details.own_orders
    );
    assert_eq!(
        game.details(Viewer::Spectator).own_orders,
        spectator.own_orders
    );
    assert_eq!(game.board(Viewer::Seat(AWAY)), away_board);
    assert_eq!(refused(&game, AWAY, "#9 g13.c").message, away_error);
    assert_eq!(game.details(Viewer::Seat(HOME)).own_orders.len(), 2);
    assert_eq!(game.turn().to_act, vec![AWAY]);
    assert_eq!(
        refused(&game, HOME, "#2 g11.nw").kind,
        RuleErrorKind::NotYourTurn
    );
    let events = act(&mut game, AWAY, "commit");
    // The reveal is public and leaves the play action out.
    assert!(has(
        &events,
        |e| matches!(e, Event::OrdersRevealed { seat, orders } if *seat == HOME && orders.len() == 1)
    ));
    assert!(has(&events, |e| matches!(
        e,
        Event::PieceMoved { piece: 3, .. }
    )));
    assert_eq!(game.turn().phase, "reaction");
    assert_eq!(game.turn().to_act, vec![HOME]);
}

#[test]
fn movement_ranges_and_the_snap_burst() {
    let mut game = snap_from(BASE);
    // A heavy moves 1, plus 1 at the snap.
    act(&mut game, HOME, "#3 j10.c");
    act(&mut game, HOME, "#3 j11.c");
    assert!(
        refused(&game, HOME, "#3 j12.c")
            .message
            .contains("has 0 left")
    );
    // The qb has no burst.
    act(&mut game, HOME, "#1 h7.c");
    assert!(
        refused(&game, HOME, "#1 h6.c")
            .message
            .contains("has 0 left")
    );
    // A strong moves 2 + 1.
    for step in ["f8.c", "f7.c", "f6.c"] {
        act(&mut game, HOME, &format!("#4 {step}"));
    }
    assert_eq!(broken_rule(&game, HOME, "#4 f5.c"), rules::MOVEMENT_POINTS);
    commit_all(&mut game);
    // In a reaction turn the heavy has 1 again.
    act(&mut game, HOME, "#3 j12.c");
    assert_eq!(broken_rule(&game, HOME, "#3 j13.c"), rules::MOVEMENT_POINTS);
}

#[test]
fn among_captains_only_the_lineman_gets_the_snap_burst() {
    let budgets = |captain: &str| {
        let mut game = snap_from(&base_with(&[("Bd2.c", captain)]));
        let at_snap = game.base_budget(0);
        commit_all(&mut game);
        (at_snap, game.base_budget(0))
    };
    assert_eq!(budgets("Ld2.c"), (3, 2));
    assert_eq!(budgets("Rd2.c"), (2, 2));
    assert_eq!(budgets("Nd2.c"), (2, 2));
    assert_eq!(budgets("Xd2.c"), (3, 3));
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
    assert!(
        refused(&turning, HOME, "#6 c13.c")
            .message
            .contains("costs 2 but #6 has 0")
    );
    let mut shifting = snap_from(BASE);
    act(&mut shifting, HOME, "#1 h8.nw");
    assert_eq!(
        broken_rule(&shifting, HOME, "#1 h9.c"),
        rules::MOVEMENT_POINTS
    );
    assert_eq!(broken_rule(&shifting, HOME, "#6 b10.c"), rules::KING_STEP);
    assert_eq!(broken_rule(&shifting, HOME, "#6 b12.c"), rules::KING_STEP);
}

#[test]
fn pieces_execute_captain_heavy_strong_fast_qb_with_written_order_breaking_ties() {
    let mut game = snap_from(&base_with(&[("Bd2.c", "Bd8.c")]));
    for order in [
        "#1 h7.c", "#6 b9.c", "#4 f8.c", "#3 j10.c", "#2 g9.c", "#0 d7.c",
    ] {
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
    assert!(has(
        &events,
        |e| matches!(e, Event::MoveStopped { piece: 2, reason } if reason.contains("occupied"))
    ));
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
                Event::DiceRolled {
                    purpose: DicePurpose::Collision,
                    value,
                    ..
                } => Some(*value),
                _ => None,
            })
            .collect();
        assert_eq!(rolls.len(), 2);
        let (mover, occupant) = (game.piece(11).loc, game.piece(4).loc);
        match rolls[0].cmp(&rolls[1]) {
            std::cmp::Ordering::Greater => {
                outcomes[0] = true;
                assert_eq!(
                    (mover, occupant.square),
                    (loc("f10.c"), loc("f10.c").square)
                );
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
    assert!(has(&events, |e| matches!(
        e,
        Event::Tackled {
            tackler: 10,
            carrier: 1,
            ..
        }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::DownEnded {
            result: DownResult::Sack,
            ball_rank: 9
        }
    )));
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
    assert!(has(
        &events,
        |e| matches!(e, Event::Scored { seat, points: 2, reason: DownResult::Safety } if *seat == AWAY)
    ));
    assert_eq!(game.scores, [0, 2]);
    assert_eq!((game.offense, game.los, game.down), (AWAY, 41, 1));
}

#[test]
fn carrying_the_ball_into_the_end_zone_scores_seven() {
    let position = BASE
        .replace("Fb10.c", "Fb44.c")
        .replace(" 1 1 1-0", " 6 1 1-0");
    let mut game = snap_from(&position);
    act(&mut game, HOME, "#6 b45.c");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(
        e,
        Event::Scored {
            points: 7,
            reason: DownResult::Touchdown,
            ..
        }
    )));
    assert_eq!(game.scores, [7, 0]);
    assert!(has(&events, |e| matches!(
        e,
        Event::DriveStarted {
            how: DriveStart::Touchdown,
            line_of_scrimmage: 41,
            ..
        }
    )));
    assert_eq!(game.offense, AWAY);
}

#[test]
fn reaction_turns_alternate_and_the_turn_limit_spots_the_ball() {
    let mut game = with(BASE, &[("turns_per_down", 3)]);
    to_snap(&mut game);
    commit_all(&mut game);
    assert_eq!(
        (game.turn().phase.as_str(), game.turn().number),
        ("reaction", 2)
    );
    assert_eq!(game.turn().to_act, vec![HOME]);
    act(&mut game, HOME, "commit");
    assert_eq!(game.turn().to_act, vec![AWAY]);
    act(&mut game, AWAY, "commit");
    act(&mut game, HOME, "commit");
    let events = act(&mut game, AWAY, "commit");
    assert!(has(&events, |e| matches!(
        e,
        Event::DownEnded {
            result: DownResult::TurnLimit,
            ball_rank: 8
        }
    )));
    assert_eq!((game.down, game.los), (2, 8));
}

#[test]
fn gaining_four_ranks_is_a_first_down() {
    let position = BASE
        .replace("Fb10.c", "Fb13.c")
        .replace(" 1 1 1-0", " 6 1 1-0");
    let mut game = with(&position, &[("turns_per_down", 2)]);
    to_snap(&mut game);
    act(&mut game, HOME, "#6 b14.c");
    commit_all(&mut game);
    let mut events = act(&mut game, HOME, "commit");
    events.extend(act(&mut game, AWAY, "commit"));
    assert!(has(&events, |e| matches!(
        e,
        Event::FirstDown {
            line_of_scrimmage: 14,
            first_down_line: 18
        }
    )));
    assert_eq!(game.down, 1);
}

#[test]
fn fourth_down_offers_go_or_punt() {
    let fourth = BASE.replace("home 1 10", "home 4 10");
    let mut game = with_position(&fourth);
    assert_eq!(game.turn().phase, "fourth-down");
    assert_eq!(
        game.legal_actions(HOME),
        vec![Action::GoForIt, Action::Punt]
    );
    assert!(game.legal_actions(AWAY).is_empty());
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(
        e,
        Event::DriveStarted {
            how: DriveStart::Punt,
            line_of_scrimmage: 41,
            ..
        }
    )));
    assert_eq!(game.offense, AWAY);

    let mut game = with(&fourth, &[("turns_per_down", 2)]);
    act(&mut game, HOME, "go");
    to_snap(&mut game);
    commit_all(&mut game);
    act(&mut game, HOME, "commit");
    let events = act(&mut game, AWAY, "commit");
    assert!(has(&events, |e| matches!(
        e,
        Event::TurnoverOnDowns { spot: 8 }
    )));
    assert_eq!(
        (game.offense, game.los, game.down, game.line),
        (AWAY, 8, 1, 4)
    );
}

#[test]
fn the_match_ends_after_the_possessions_and_ties_go_to_overtime() {
    let last = BASE.replace("home 1 10", "home 4 10");
    let winning = last.replace("1 1 1-0 0-0", "1 2 1-1 7-0");
    let mut game = with(&winning, &[("possessions_per_half", 1)]);
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(
        e,
        Event::PeriodEnded { period: 2 }
    )));
    let outcome = game.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.scores), (Some(HOME), vec![7, 0]));
    assert!(game.turn().to_act.is_empty());
    assert_eq!(refused(&game, HOME, "go").kind, RuleErrorKind::GameOver);

    let tied = last.replace("1 1 1-0 0-0", "1 2 1-1 7-7");
    let mut game = with(
        &tied,
        &[("possessions_per_half", 1), ("overtime_periods", 1)],
    );
    let events = act(&mut game, HOME, "punt");
    assert!(has(&events, |e| matches!(
        e,
        Event::PeriodStarted { period: 3, .. }
    )));
    assert!(game.outcome().is_none());
    let mut game = with(
        &tied,
        &[("possessions_per_half", 1), ("overtime_periods", 0)],
    );
    act(&mut game, HOME, "punt");
    assert_eq!(game.outcome().unwrap().winner, None);

    let first_half = last.replace("1 1 1-0 0-0", "1 1 1-1 0-0");
    let mut game = with(&first_half, &[("possessions_per_half", 1)]);
    let events = act(&mut game, HOME, "punt");
    assert!(has(
        &events,
        |e| matches!(e, Event::PeriodStarted { period: 2, first_offense } if *first_offense == game.coin_winner.opponent())
    ));
}

// ---------------------------------------------------------------- passing

/// The pass outcome a total must give, by the table.
fn pass_outcome(events: &[Event]) -> (i8, &'static str) {
    let roll = events
        .iter()
        .find_map(|e| match e {
            Event::DiceRolled {
                purpose: DicePurpose::Pass,
                value,
                ..
            } => Some(*value as i8),
            _ => None,
        })
        .expect("a pass was rolled");
    let modifier = events
        .iter()
        .find_map(|e| match e {
            Event::PassThrown { modifier, .. } => Some(*modifier),
            _ => None,
        })
        .unwrap();
    let outcome = events
        .iter()
        .find_map(|e| match e {
            Event::PassCompleted { .. } => Some("complete"),
            Event::PassIncomplete { .. } => Some("incomplete"),
            Event::PassIntercepted { .. } => Some("intercepted"),
            _ => None,
        })
        .unwrap();
    (roll + modifier, outcome)
}

pub(super) fn throw(position: &str, seed: u64, order: &str) -> (Gridiron, Vec<Event>) {
    let mut setup = spec(seed, &[]);
    setup.position = Some(position.to_owned());
    let mut game = Gridiron::new(&setup).unwrap();
    to_snap(&mut game);
    act(&mut game, HOME, order);
    let events = commit_all(&mut game);
    (game, events)
}

#[test]
fn pass_modifiers_follow_the_table() {
    // Receiver #6 on b10; one away strong beside it.
    let one = with_position(&base_with(&[("Sf12.c", "Sc11.c")]));
    assert_eq!(one.pass_modifier(1, 6), -1);
    let two = with_position(&base_with(&[("Sf12.c", "Sc11.c"), ("Sk12.c", "Sa11.c")]));
    assert_eq!(two.pass_modifier(1, 6), -2);
    // A Safety beside the receiver: -1 as a defender and -2 more.
    let safety = with_position(&base_with(&[("Yh16.c", "Yb11.c")]));
    assert_eq!(safety.pass_modifier(1, 6), -3);
    // Pressure: a Rusher beside the passer.
    let rusher = with_position(&base_with(&[("Yh16.c", "Rh9.c")]));
    assert_eq!(rusher.pass_modifier(1, 6), -1);
    // Catching: a Deep Threat receiver.
    let deep = with_position(&base_with(&[("Bd2.c", "Db12.c")]));
    assert_eq!(deep.pass_modifier(1, 0), 1);
    // Check down: a Lead Blocker within two squares of the passer.
    let near = with_position(&base_with(&[("Bd2.c", "Bf7.c")]));
    assert_eq!(near.pass_modifier(1, 6), 1);
    let far = with_position(&base_with(&[("Bd2.c", "Be7.c")]));
    assert_eq!(far.pass_modifier(1, 6), 0);
}

#[test]
fn a_completed_pass_teleports_the_ball_and_play_goes_on() {
    let position = base_with(&[("Bd2.c", "Db12.c"), ("Fb10.c", "Ff7.c")]);
    // +1 catching, +0 check down: rolls of 2..6 complete; find a seed that completes.
    let (game, events) = (0..20)
        .map(|seed| throw(&position, seed, "#1 pass #0"))
        .find(|(_, events)| has(events, |e| matches!(e, Event::PassCompleted { .. })))
        .unwrap();
    assert_eq!(pass_outcome(&events).1, "complete");
    assert_eq!(game.holder, 0);
    assert!(game.pass_thrown);
    assert_eq!(game.turn().phase, "reaction");
    let mut game = game;
    assert_eq!(broken_rule(&game, HOME, "#0 pass #6"), rules::PASSERS);
    act(&mut game, HOME, "#0 b13.c");
}

#[test]
fn pass_results_follow_the_table_for_every_roll() {
    // One ordinary defender beside the receiver: -1.
    let position = base_with(&[("Sf12.c", "Sc11.c")]);
    let mut seen = Vec::new();
    for seed in 0..40 {
        let (game, events) = throw(&position, seed, "#1 pass #6");
        let (total, outcome) = pass_outcome(&events);
        let expected = match total {
            t if t >= 3 => "complete",
            t if t >= 1 => "incomplete",
            _ => "intercepted",
        };
        assert_eq!(outcome, expected, "total {total}");
        match outcome {
            "intercepted" => {
                assert!(has(&events, |e| matches!(
                    e,
                    Event::PassIntercepted { by: 11, .. }
                )));
                assert_eq!((game.offense, game.los), (AWAY, 41));
            }
            "incomplete" => assert_eq!((game.offense, game.down, game.los), (HOME, 2, 10)),
            _ => assert_eq!(game.holder, 6),
        }
        seen.push(outcome);
    }
    for outcome in ["complete", "incomplete", "intercepted"] {
        assert!(seen.contains(&outcome), "{outcome} never happened");
    }
}

#[test]
fn the_safety_intercepts_failed_passes_next_to_it() {
    let position = base_with(&[("Yh16.c", "Yb11.c")]);
    for seed in 0..20 {
        let (_, events) = throw(&position, seed, "#1 pass #6");
        let (total, outcome) = pass_outcome(&events);
        if total <= 2 {
            assert!(has(&events, |e| matches!(
                e,
                Event::PassIntercepted { by: 7, .. }
            )));
        } else {
            assert_eq!(outcome, "complete");
        }
    }
}

#[test]
fn a_low_pass_with_no_defender_beside_the_receiver_is_incomplete() {
    // Pressure only: -1, so a roll of 1 makes 0 with nobody to intercept.
    let position = base_with(&[("Yh16.c", "Rh9.c")]);
    let events = (0..60)
        .map(|seed| throw(&position, seed, "#1 pass #6").1)
        .find(|events| pass_outcome(events).0 <= 0)
        .expect("some seed rolls a 1");
    assert_eq!(pass_outcome(&events).1, "incomplete");
}

#[test]
fn pass_restrictions() {
    let mut game = snap_from(BASE);
    assert_eq!(
        broken_rule(&game, HOME, "#1 pass #2"),
        rules::ELIGIBLE_RECEIVER
    );
    assert_eq!(
        broken_rule(&game, HOME, "#1 pass #1"),
        rules::ELIGIBLE_RECEIVER
    );
    assert_eq!(broken_rule(&game, AWAY, "#8 pass #13"), rules::PASSERS);
    assert_eq!(broken_rule(&game, HOME, "#6 pass #1"), rules::PASSERS);
    act(&mut game, HOME, "#1 h7.c");
    assert_eq!(
        broken_rule(&game, HOME, "#1 pass #6"),
        rules::QB_PASSES_STANDING
    );
    let mut game = snap_from(BASE);
    act(&mut game, HOME, "#1 fake #4 keep #4");
    assert_eq!(broken_rule(&game, HOME, "#1 pass #6"), rules::BALL_HOLDER);
    // The scrambler may move, then pass.
    let mut game = snap_from(
        &base_with(&[("Bd2.c", "Xd8.c"), ("Qh8.c", "Fh8.c")]).replace(" 1 1 1-0", " 0 1 1-0"),
    );
    act(&mut game, HOME, "#0 d9.c");
    act(&mut game, HOME, "#0 pass #6");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(
        e,
        Event::PassThrown {
            passer: 0,
            receiver: 6,
            ..
        }
    )));
    assert!(game.pass_thrown);
    // One pass per down.
    let mut game = snap_from(BASE);
    game.pass_thrown = true;
    assert_eq!(
        broken_rule(&game, HOME, "#1 pass #6"),
        rules::ONE_PASS_PER_DOWN
    );
}

#[test]
fn an_ineligible_piece_downfield_cancels_the_pass() {
    let mut game = snap_from(BASE);
    act(&mut game, HOME, "#4 f10.c");
    act(&mut game, HOME, "#4 f11.c");
    act(&mut game, HOME, "#1 pass #6");
    let events = commit_all(&mut game);
    assert!(has(
        &events,
        |e| matches!(e, Event::PassCancelled { reason, .. } if reason.contains("ineligible #4"))
    ));
    assert!(!game.pass_thrown);
    assert_eq!(game.holder, 1);
}

// ---------------------------------------------------------------- abilities

fn moved_events(game: &mut Gridiron, home: &[&str], away: &[&str]) -> Vec<Event> {
    for order in home {
        act(game, HOME, order);
    }
    for order in away {
        act(game, AWAY, order);
    }
    commit_all(game)
}

#[test]
fn push_sends_the_target_back_and_the_pusher_takes_its_place() {
    let mut game = snap_from(BASE);
    assert_eq!(broken_rule(&game, HOME, "#6 push #9"), rules::OWN_ABILITIES);
    assert_eq!(
        broken_rule(&game, HOME, "#3 push #2"),
        rules::ABILITY_TARGET
    );
    act(&mut game, HOME, "#3 push #10");
    assert_eq!(broken_rule(&game, HOME, "#3 i11.c"), rules::ORDER_ENDED);
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(
        e,
        Event::PiecePushed { piece: 10, .. }
    )));
    assert_eq!(game.piece(10).loc, loc("i12.c"));
    assert_eq!(game.piece(3).loc, loc("i11.c"));
}

#[test]
fn a_rusher_pushed_by_a_heavy_swims_past_it() {
    let mut game = snap_from(&base_with(&[("Yh16.c", "Ri11.nw"), ("Hi11.c", "Hm11.c")]));
    let events = moved_events(&mut game, &["#3 push #7"], &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::MovementChanged {
            piece: 7,
            change: -1,
            ..
        }
    )));
    assert_eq!(game.piece(7).loc, loc("i10.c"));
    assert_eq!(game.piece(3).loc, loc("i11.nw"));
}

#[test]
fn chop_block_stops_both_and_is_once_per_series() {
    let mut game = snap_from(BASE);
    let events = moved_events(&mut game, &["#2 chop #9"], &["#9 g12.c"]);
    assert!(has(&events, |e| matches!(
        e,
        Event::MovementChanged {
            piece: 9,
            frozen: true,
            next_turn: false,
            ..
        }
    )));
    assert_eq!(game.piece(9).loc, loc("g11.c"));
    assert!(game.piece(2).used.contains(&Ability::ChopBlock));
    assert_eq!(
        broken_rule(&game, HOME, "#2 chop #9"),
        rules::ONCE_PER_SERIES
    );
}

#[test]
fn chip_block_gives_an_adjacent_heavy_one_more_move() {
    let mut game = snap_from(BASE);
    assert_eq!(
        broken_rule(&game, HOME, "#4 chip #6"),
        rules::ABILITY_TARGET
    );
    moved_events(&mut game, &["#4 chip #2"], &[]);
    // The heavy had already moved (heavies go before strongs): it gets +1 next turn.
    assert_eq!(game.base_budget(2), 2);
    assert_eq!(game.base_budget(3), 1);
}

#[test]
fn retreat_moves_up_to_two_squares_toward_the_own_qb() {
    let mut game = snap_from(&base_with(&[
        ("Qh8.c", "Qk6.c"),
        ("Hi10.c", "Hi11.sw"),
        ("Hi11.c", "Hm11.c"),
        ("Sk9.c", "Sm9.c"),
    ]));
    moved_events(&mut game, &["#3 retreat"], &[]);
    assert_eq!(game.piece(3).loc, loc("k9.sw"));
}

#[test]
fn engage_takes_one_movement_from_an_adjacent_enemy() {
    let mut game = snap_from(&base_with(&[("Sf9.c", "Sf10.c")]));
    let events = moved_events(&mut game, &["#4 engage #9"], &["#9 g12.c", "#9 g13.c"]);
    assert!(has(&events, |e| matches!(
        e,
        Event::MoveStopped { piece: 9, .. }
    )));
    assert_eq!(game.piece(9).loc, loc("g12.c"));
}

#[test]
fn speed_rush_passes_through_squares_without_a_heavy() {
    let position = base_with(&[("Fn14.c", "Fb11.c")]);
    let mut blocked = snap_from(&position);
    moved_events(&mut blocked, &["#6 b11.nw", "#6 b12.c"], &[]);
    assert_eq!(blocked.piece(6).loc, loc("b10.c"));
    let mut rushing = snap_from(&position);
    moved_events(
        &mut rushing,
        &["#6 speed-rush", "#6 b11.nw", "#6 b12.c"],
        &[],
    );
    assert_eq!(rushing.piece(6).loc, loc("b12.c"));
    let heavy = base_with(&[("Hg11.c", "Hb11.c")]);
    let mut game = snap_from(&heavy);
    moved_events(&mut game, &["#6 speed-rush", "#6 b11.nw", "#6 b12.c"], &[]);
    assert_eq!(game.piece(6).loc, loc("b10.c"));
}

#[test]
fn react_gives_the_safety_one_more_move_on_defence_only() {
    let mut game = snap_from(BASE);
    for step in ["h15.c", "h14.c", "h13.c"] {
        act(&mut game, AWAY, &format!("#7 {step}"));
    }
    assert_eq!(broken_rule(&game, AWAY, "#7 h12.c"), rules::MOVEMENT_POINTS);
    let mut game = snap_from(BASE);
    act(&mut game, AWAY, "#7 react");
    for step in ["h15.c", "h14.c", "h13.c", "h12.c"] {
        act(&mut game, AWAY, &format!("#7 {step}"));
    }
    let offence_safety = snap_from(&base_with(&[("Bd2.c", "Yd2.c")]));
    assert!(
        refused(&offence_safety, HOME, "#0 react")
            .message
            .contains("on offence")
    );
    assert!(
        offence_safety
            .check(
                HOME,
                &Action::Use {
                    piece: 0,
                    ability: Ability::SpeedRush,
                    target: None
                }
            )
            .is_ok()
    );
}

#[test]
fn jam_blocks_adjacent_abilities_on_the_next_turn() {
    let mut game = snap_from(&base_with(&[("Yh16.c", "Nh11.c")]));
    moved_events(&mut game, &[], &["#7 jam"]);
    assert!(game.jammed(2));
    assert!(!game.jammed(6));
    let events = moved_events(&mut game, &["#2 push #9"], &[]);
    assert!(has(
        &events,
        |e| matches!(e, Event::OrderFailed { piece: 2, reason, .. } if reason.contains("jammed"))
    ));
    assert_eq!(game.piece(9).loc, loc("g11.c"));
}

#[test]
fn seal_makes_squares_next_to_the_nickelback_cost_one_more() {
    let position = base_with(&[("Yh16.c", "Nh11.c"), ("Qh8.c", "Qh9.c")]);
    let mut game = snap_from(&position);
    moved_events(&mut game, &[], &["#7 seal"]);
    let events = moved_events(&mut game, &["#1 h10.c"], &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::MoveStopped { piece: 1, .. }
    )));
    assert_eq!(game.piece(1).loc, loc("h9.c"));
}

/// The pieces the details show jammed, anchored or sealing: (id, jammed, anchored, sealing).
fn shown_effects(game: &Gridiron) -> Vec<(u32, bool, bool, bool)> {
    game.details(Viewer::Spectator)
        .pieces
        .iter()
        .filter(|p| p.jammed || p.anchored || p.sealing)
        .map(|p| (p.id, p.jammed, p.anchored, p.sealing))
        .collect()
}

#[test]
fn the_details_show_jam_anchor_and_seal_only_while_they_last() {
    assert_eq!(shown_effects(&started(1)), vec![]);
    // Home's lineman #0 anchors heavy #2; away's nickelback #7 jams and seals next to them.
    let mut game = snap_from(&base_with(&[("Bd2.c", "Lh10.c"), ("Yh16.c", "Nh11.c")]));
    assert_eq!(shown_effects(&game), vec![]);
    moved_events(&mut game, &["#0 anchor #2"], &["#7 jam", "#7 seal"]);
    assert_eq!(
        shown_effects(&game),
        vec![
            (0, true, true, false),
            (2, true, false, false),
            (3, true, false, false),
            (7, false, false, true),
        ]
    );
    // The next turn is the last one the effects last.
    commit_all(&mut game);
    commit_all(&mut game);
    assert_eq!(game.turn().number, 3);
    assert_eq!(shown_effects(&game), vec![]);
}

#[test]
fn juke_gives_the_scrambler_one_more_move_once_per_series() {
    let position =
        base_with(&[("Bd2.c", "Xd6.c"), ("Qh8.c", "Fh8.c")]).replace(" 1 1 1-0", " 0 1 1-0");
    let mut game = snap_from(&position);
    act(&mut game, HOME, "#0 juke");
    for step in ["d7.c", "d8.c", "d9.c", "d10.c"] {
        act(&mut game, HOME, &format!("#0 {step}"));
    }
    commit_all(&mut game);
    assert_eq!(broken_rule(&game, HOME, "#0 juke"), rules::ONCE_PER_SERIES);
}

#[test]
fn route_running_ignores_direction_costs() {
    let position = base_with(&[("Bd2.c", "Dc6.c")]);
    let mut game = snap_from(&position);
    act(&mut game, HOME, "#0 c7.c");
    act(&mut game, HOME, "#0 d8.c");
    assert_eq!(broken_rule(&game, HOME, "#0 e9.c"), rules::MOVEMENT_POINTS);
    let mut game = snap_from(&position);
    act(&mut game, HOME, "#0 route");
    for step in ["c7.c", "d8.c", "d9.c"] {
        act(&mut game, HOME, &format!("#0 {step}"));
    }
    moved_events(&mut game, &[], &[]);
    assert_eq!(game.piece(0).loc, loc("d9.c"));
}

#[test]
fn impact_takes_a_movement_and_pushes_back() {
    let mut game = snap_from(&base_with(&[("Bd2.c", "Bh10.c")]));
    let events = moved_events(&mut game, &["#0 impact #10"], &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::MovementChanged {
            piece: 10,
            change: -1,
            ..
        }
    )));
    assert_eq!(game.piece(10).loc, loc("j12.c"));
    assert_eq!(game.piece(0).loc, loc("h10.c"));
}

#[test]
fn escort_adds_one_when_starting_next_to_the_carrier() {
    let near = snap_from(&base_with(&[("Bd2.c", "Bg8.c")]));
    assert_eq!(near.base_budget(0), 3);
    let far = snap_from(BASE);
    assert_eq!(far.base_budget(0), 2);
}

#[test]
fn escort_during_a_play_action_does_not_tell_who_keeps_the_ball() {
    // The lead blocker on i7 starts next to the qb (h8) but not the fast partner (g8).
    let position = FAKE.replace("Bd2.c", "Bi7.c");
    let budgets: Vec<i8> = ["#1 fake #6 keep #6", "#1 fake #6 keep #1"]
        .into_iter()
        .map(|fake| {
            let mut game = snap_from(&position);
            moved_events(&mut game, &[fake], &[]);
            assert!(game.fake.is_some());
            game.base_budget(0)
        })
        .collect();
    assert_eq!(budgets, vec![3, 3]);
}

#[test]
fn once_per_series_abilities_return_at_a_first_down_only() {
    // The ball is with the fast on b13; the first-down line is rank 14.
    let position = BASE
        .replace("Fb10.c", "Fb13.c")
        .replace(" 1 1 1-0", " 6 1 1-0");
    let mut short = with(&position, &[("turns_per_down", 2)]);
    to_snap(&mut short);
    moved_events(&mut short, &["#2 chop #9"], &[]);
    commit_all(&mut short);
    commit_all(&mut short);
    assert_eq!(short.down, 2);
    to_snap(&mut short);
    assert_eq!(
        broken_rule(&short, HOME, "#2 chop #9"),
        rules::ONCE_PER_SERIES
    );

    let mut gaining = with(&position, &[("turns_per_down", 2)]);
    to_snap(&mut gaining);
    moved_events(&mut gaining, &["#2 chop #9", "#6 b14.c"], &[]);
    commit_all(&mut gaining);
    commit_all(&mut gaining);
    assert_eq!((gaining.down, gaining.los), (1, 14));
    assert!(gaining.pieces.iter().all(|p| p.used.is_empty()));
}

#[test]
fn anchor_boosts_a_heavy_and_makes_the_lineman_immovable() {
    let mut game = snap_from(&base_with(&[("Bd2.c", "Lh10.c")]));
    let events = moved_events(&mut game, &["#0 anchor #2", "#2 f9.nw"], &["#9 push #0"]);
    assert!(has(&events, |e| matches!(
        e,
        Event::MovementChanged {
            piece: 2,
            change: 1,
            next_turn: false,
            ..
        }
    )));
    assert!(has(
        &events,
        |e| matches!(e, Event::OrderFailed { piece: 9, reason, .. } if reason.contains("anchored"))
    ));
    assert_eq!(game.piece(0).loc, loc("h10.c"));
}

// ---------------------------------------------------------------- play action

const FAKE: &str = "Bd2.c,Qh8.c,Hg10.c,Hi10.c,Sc9.c,Sk9.c,Fg8.c/\
                    Yh16.c,Qa40.c,Hh9.c,Hf9.c,Sf12.c,Sk12.c,Fn14.c \
                    home 1 10 14 1 1 1-0 0-0";

#[test]
fn play_action_hides_the_ball_from_the_defence_only() {
    let mut game = snap_from(FAKE);
    act(&mut game, HOME, "#1 fake #6 keep #6");
    let events = commit_all(&mut game);
    assert!(has(&events, |e| matches!(
        e,
        Event::BallHidden {
            passer: 1,
            partner: 6
        }
    )));
    let mut check = game.clone();
    let emitted = {
        let mut fresh = snap_from(FAKE);
        act(&mut fresh, HOME, "#1 fake #6 keep #6");
        act(&mut fresh, AWAY, "commit");
        fresh.apply(HOME, &Action::Commit).unwrap()
    };
    let keeper = emitted
        .iter()
        .find(|e| matches!(e.event, Event::KeeperChosen { .. }))
        .unwrap();
    assert_eq!(keeper.visibility, Visibility::Seat(HOME));
    for viewer in [Viewer::Seat(AWAY), Viewer::Spectator] {
        let ball = game.board(viewer).ball.unwrap();
        assert_eq!((ball.holder, ball.square), (None, None));
        assert_eq!(ball.possible_holders, vec![1, 6]);
        assert!(!game.position_for(viewer).contains(" 6 1 1-0"));
        assert!(!game.position_for(viewer).contains("keeper=6"));
    }
    assert_eq!(game.board(Viewer::Seat(HOME)).ball.unwrap().holder, Some(6));
    // When the two separate, the ball shows again at the end of the turn.
    act(&mut check, HOME, "#6 f7.c");
    act(&mut check, HOME, "commit");
    let events = act(&mut check, AWAY, "commit");
    assert!(has(&events, |e| matches!(
        e,
        Event::BallRevealed { holder: 6 }
    )));
    assert_eq!(
        check.board(Viewer::Seat(AWAY)).ball.unwrap().holder,
        Some(6)
    );
}

#[test]
fn tackling_both_fake_partners_gives_the_ball_to_the_qb() {
    let mut game = snap_from(FAKE);
    let events = moved_events(&mut game, &["#1 fake #6 keep #6"], &["#9 h8.c", "#10 g8.c"]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Tackled { carrier: 1, .. }
    )));
}

#[test]
fn a_tackle_on_the_keeper_counts_and_on_the_other_misses() {
    let mut game = snap_from(FAKE);
    let events = moved_events(&mut game, &["#1 fake #6 keep #6"], &["#10 g8.c"]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Tackled {
            carrier: 6,
            tackler: 10,
            ..
        }
    )));
    let mut game = snap_from(FAKE);
    let events = moved_events(&mut game, &["#1 fake #6 keep #6"], &["#9 h8.c"]);
    assert!(has(&events, |e| matches!(
        e,
        Event::TackleMissed {
            tackler: 9,
            piece: 1
        }
    )));
    assert_eq!(game.piece(9).loc, loc("h9.c"));
    assert_eq!(game.turn().phase, "reaction");
}

#[test]
fn handing_the_ball_to_a_partner_in_the_end_zone_is_a_touchdown() {
    let position = "Bd2.c,Qh44.c,Hg43.c,Hi43.c,Sf43.c,Sk43.c,Fh45.c/\
                    Yp47.c,Qa30.c,Hg46.c,Hi46.c,Sf46.c,Sk46.c,Fn46.c \
                    home 1 43 45 1 1 1-0 0-0";
    let mut game = snap_from(position);
    let events = moved_events(&mut game, &["#1 fake #6 keep #6"], &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Scored {
            points: 7,
            reason: DownResult::Touchdown,
            ..
        }
    )));
    assert_eq!(game.scores, [7, 0]);
}

#[test]
fn the_fake_needs_an_adjacent_non_heavy_partner() {
    let game = snap_from(FAKE);
    assert_eq!(
        broken_rule(&game, HOME, "#1 fake #2 keep #2"),
        rules::FAKE_PARTNER
    );
    assert_eq!(
        broken_rule(&game, HOME, "#1 fake #6 keep #4"),
        rules::FAKE_KEEPER
    );
    let mut game = snap_from(BASE);
    let events = moved_events(&mut game, &["#1 fake #6 keep #6"], &[]);
    assert!(has(
        &events,
        |e| matches!(e, Event::OrderFailed { piece: 1, what, .. } if what == "fake")
    ));
    assert_eq!(game.holder, 1);
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_round_trips_and_reports_errors() {
    for text in [
        "captain deep-threat",
        "recruit heavy",
        "roster default",
        "roster done",
        "go",
        "punt",
        "place #3 h8.nw",
        "ready",
        "#3 h9.c",
        "#3 push #10",
        "#5 juke",
        "#1 pass #6",
        "#1 fake #6 keep #1",
        "commit",
        "#2 speed-rush",
    ] {
        let action = notation::parse_action(text).unwrap();
        assert_eq!(notation::format_action(&action), text);
    }
    let game = snap_from(BASE);
    for bad in [
        "",
        "#x h9.c",
        "#3 z99.c",
        "#3 h9.q",
        "#3 fly",
        "captain",
        "place 3 h8.c",
    ] {
        assert_eq!(
            game.parse_action(HOME, bad).unwrap_err().kind,
            RuleErrorKind::MalformedNotation,
            "{bad}"
        );
    }
    assert_eq!(
        game.parse_action(HOME, "#3 h20.c").unwrap_err().kind,
        RuleErrorKind::IllegalAction
    );
}

#[test]
fn positions_round_trip_and_bad_ones_are_refused() {
    let game = with_position(BASE);
    assert_eq!(
        game.position(),
        BASE.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    for bad in [
        "nonsense",
        &BASE.replace("Bd2.c", "Hd2.c"),
        &BASE.replace("Hg11.c", "Hg10.c"),
        &BASE.replace("home 1 10 14 1", "home 1 10 14 8"),
        &BASE.replace("home 1 10 14", "home 5 10 14"),
        &BASE.replace("home 1 10 14", "home 1 2 6"),
    ] {
        let mut setup = spec(1, &[]);
        setup.position = Some(bad.to_owned());
        assert_eq!(
            Gridiron::new(&setup).unwrap_err().kind,
            RuleErrorKind::InvalidPosition,
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------- random play

/// Invariants that hold whenever someone is to act.
fn check_invariants(game: &Gridiron) {
    if game.pieces.is_empty() || game.outcome.is_some() {
        return;
    }
    for piece in &game.pieces {
        assert!(field::on_field(piece.loc.square));
        assert_eq!(
            game.piece_at(piece.loc, piece.id),
            None,
            "two pieces on {}",
            piece.loc
        );
    }
    assert_eq!(
        game.piece(game.holder).owner,
        game.offense,
        "the ball is with the offence"
    );
    let defence = game.board(Viewer::Seat(game.defense())).ball.unwrap();
    match game.fake {
        Some(fake) => {
            assert!([fake.passer, fake.partner].contains(&game.holder));
            assert_eq!(defence.holder, None);
            assert_eq!(defence.possible_holders.len(), 2);
            assert_eq!(game.position().split(' ').nth(5), Some("?"));
        }
        None => assert_eq!(defence.holder, Some(game.holder)),
    }
    assert!((1..=4).contains(&game.down));
}

#[test]
fn random_matches_end_and_keep_the_contract() {
    let setup = spec(7, &[("possessions_per_half", 1)]);
    let mut rng = Rng::new(11);
    let playout = checked_random_playout::<Gridiron>(&setup, &mut rng, 200_000);
    assert!(playout.finished, "{}", playout.game.position());
}

/// A random walker that ends turns early: a quarter of the time it commits (or declares ready)
/// when it may, so a match goes through many downs instead of filling every order.
fn brisk_pick(game: &Gridiron, seat: Seat, rng: &mut Rng) -> Action {
    let legal = game.legal_actions(seat);
    let ending = [Action::Commit, Action::Ready];
    if rng.below(4) == 0
        && let Some(end) = ending.iter().find(|a| legal.contains(a))
    {
        return end.clone();
    }
    rng.pick(&legal).clone()
}

#[test]
fn a_full_match_with_the_default_options_ends() {
    let mut game = Gridiron::new(&spec(3, &[])).unwrap();
    let mut rng = Rng::new(103);
    for _ in 0..20_000 {
        let Some(&seat) = game.turn().to_act.first() else {
            break;
        };
        let action = brisk_pick(&game, seat, &mut rng);
        game.apply(seat, &action).unwrap();
    }
    let outcome = game.outcome().expect("the match ended");
    assert_eq!(outcome.scores, game.scores.to_vec());
    assert!(game.period >= 2);
}

/// What the other seat and spectators can observe while `seat` plans in secret.
type Observed = (
    crate::game::Turn,
    Vec<Action>,
    crate::BoardView,
    crate::BoardView,
    Vec<Action>,
    Option<(Option<Kind>, Vec<Kind>)>,
    Details,
    Vec<Result<(), RuleError>>,
);

fn observed(game: &Gridiron, other: Seat) -> Observed {
    let probes: Vec<Result<(), RuleError>> = game
        .legal_actions(other)
        .iter()
        .step_by(37)
        .chain(&[Action::Move {
            piece: 0,
            to: loc("a1.c"),
        }])
        .map(|a| game.check(other, a))
        .collect();
    (
        game.turn(),
        game.legal_actions(other),
        game.board(Viewer::Seat(other)),
        game.board(Viewer::Spectator),
        game.details(Viewer::Seat(other)).own_orders,
        game.details(Viewer::Seat(other)).own_roster,
        game.details(Viewer::Spectator),
        probes,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn random_play_keeps_the_contract(seed in any::<u64>(), walk in any::<u64>()) {
        let setup = spec(seed, &[("possessions_per_half", 1), ("turns_per_down", 3)]);
        checked_random_playout::<Gridiron>(&setup, &mut Rng::new(walk), 1_500);
    }

    /// Random matches end, keep the invariants, never lower a score, and while one team
    /// writes its hidden roster or orders nothing the other team or a spectator sees changes.
    #[test]
    fn random_play_keeps_the_invariants_and_the_secrets(seed in any::<u64>(), walk in any::<u64>()) {
        let mut game = Gridiron::new(&spec(seed, &[("possessions_per_half", 1), ("turns_per_down", 3)])).unwrap();
        let mut rng = Rng::new(walk);
        let mut scores = game.scores;
        for _ in 0..3_000 {
            check_invariants(&game);
            let turn = game.turn();
            if turn.to_act.is_empty() {
                break;
            }
            let seat = *rng.pick(&turn.to_act);
            let other = seat.opponent();
            let action = brisk_pick(&game, seat, &mut rng);
            let secret = turn.to_act.contains(&other)
                && (action.is_order() || matches!(action, Action::Captain(_) | Action::Recruit(_) | Action::DefaultRoster));
            let before = secret.then(|| observed(&game, other));
            game.apply(seat, &action).unwrap();
            if let Some(before) = before {
                prop_assert_eq!(before, observed(&game, other));
            }
            prop_assert!(game.scores[0] >= scores[0] && game.scores[1] >= scores[1]);
            scores = game.scores;
        }
        prop_assert!(game.outcome().is_some(), "{}", game.position());
    }
}

// ----- listing legal actions -----

/// The notation of one action as the engine wrote it before notations were pushed into one
/// buffer; kept as the reference the faster notation must match byte for byte.
fn reference_notation(action: &Action) -> String {
    match action {
        Action::Captain(kind) => format!("captain {}", kind.name()),
        Action::Recruit(kind) => format!("recruit {}", kind.name()),
        Action::DefaultRoster => "roster default".into(),
        Action::CommitRoster => "roster done".into(),
        Action::GoForIt => "go".into(),
        Action::Punt => "punt".into(),
        Action::Place { piece, to } => format!("place #{piece} {to}"),
        Action::Ready => "ready".into(),
        Action::Move { piece, to } => format!("#{piece} {to}"),
        Action::Use {
            piece,
            ability,
            target: Some(t),
        } => format!("#{piece} {} #{t}", ability.name()),
        Action::Use {
            piece,
            ability,
            target: None,
        } => format!("#{piece} {}", ability.name()),
        Action::Pass { piece, receiver } => format!("#{piece} pass #{receiver}"),
        Action::Fake {
            piece,
            partner,
            keeper,
        } => format!("#{piece} fake #{partner} keep #{keeper}"),
        Action::Commit => "commit".into(),
    }
}

#[test]
fn every_kind_of_action_is_written_as_before() {
    let square = Square::new(16, 48);
    let actions = [
        Action::Captain(Kind::DeepThreat),
        Action::Recruit(Kind::Heavy),
        Action::DefaultRoster,
        Action::CommitRoster,
        Action::GoForIt,
        Action::Punt,
        Action::Place {
            piece: 13,
            to: Location::new(square, Spot::Nw),
        },
        Action::Ready,
        Action::Move {
            piece: 0,
            to: Location::new(Square::new(1, 1), Spot::Se),
        },
        Action::Use {
            piece: 7,
            ability: Ability::SpeedRush,
            target: None,
        },
        Action::Use {
            piece: 2,
            ability: Ability::Push,
            target: Some(10),
        },
        Action::Pass {
            piece: 3,
            receiver: 6,
        },
        Action::Fake {
            piece: 1,
            partner: 6,
            keeper: 1,
        },
        Action::Commit,
    ];
    for action in &actions {
        assert_eq!(notation::format_action(action), reference_notation(action));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// At every state of random matches, formatting the legal list at once agrees with
    /// formatting each action alone and with the earlier notation; and checking an action for
    /// the listing (no reason put into words) answers exactly as checking it for a player, for
    /// legal and illegal candidates of every kind (in every 25th state, as there are many).
    #[test]
    fn listing_the_legal_actions_matches_formatting_them_one_by_one(
        seed in any::<u64>(),
        walk in any::<u64>(),
    ) {
        let setup = spec(seed, &[("possessions_per_half", 1), ("turns_per_down", 3)]);
        let mut states = 0u32;
        crate::playout::checked_listing_playout::<Gridiron>(
            &setup,
            &mut Rng::new(walk),
            600,
            |game, seat, legal, listed| {
                for (action, text) in legal.iter().zip(listed) {
                    assert_eq!(*text, reference_notation(action));
                }
                states += 1;
                if !states.is_multiple_of(25) {
                    return;
                }
                for action in candidates(game) {
                    assert_eq!(
                        game.allows(seat, &action),
                        game.check(seat, &action).is_ok(),
                        "{action:?} in {}",
                        game.position()
                    );
                }
            },
        );
    }
}

/// Actions of every kind, most of them illegal in any one state: each piece stepping around
/// where it stands, using every ability on every piece, passing and faking with every piece,
/// being placed around the middle of the field, and the actions without a piece.
fn candidates(game: &Gridiron) -> Vec<Action> {
    let mut all: Vec<Action> = Kind::ALL.map(Action::Captain).to_vec();
    all.extend(Kind::ALL.map(Action::Recruit));
    all.extend([
        Action::DefaultRoster,
        Action::CommitRoster,
        Action::GoForIt,
        Action::Punt,
        Action::Ready,
        Action::Commit,
    ]);
    let ids = 0..game.pieces.len() as u32 + 1;
    for piece in &game.pieces {
        let id = piece.id;
        for df in -2..=2 {
            for dr in -2..=2 {
                for spot in Spot::ALL {
                    let to = Location::new(piece.loc.square.offset(df, dr), spot);
                    all.push(Action::Move { piece: id, to });
                    all.push(Action::Place { piece: id, to });
                }
            }
        }
        for ability in Ability::ALL {
            all.push(Action::Use {
                piece: id,
                ability,
                target: None,
            });
            all.extend(ids.clone().map(|t| Action::Use {
                piece: id,
                ability,
                target: Some(t),
            }));
        }
        for other in ids.clone() {
            all.push(Action::Pass {
                piece: id,
                receiver: other,
            });
            for keeper in [id, other] {
                all.push(Action::Fake {
                    piece: id,
                    partner: other,
                    keeper,
                });
            }
        }
    }
    all
}
