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

#[test]
fn random_matches_end_and_keep_the_contract() {
    let setup = spec(7, &[("possessions_per_half", 1)]);
    let mut rng = Rng::new(11);
    let playout = checked_random_playout::<Gridiron>(&setup, &mut rng, 200_000);
    assert!(playout.finished, "{}", playout.game.position());
    eprintln!("random match: {} actions", playout.log.len());
}
