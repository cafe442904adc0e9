//! Every game's actions, events and turns survive a round trip through serde, so a host can keep
//! them in a format of its own. Random playouts of every game supply the values.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::game::{Game, SetupSpec};
use crate::options::Options;
use crate::playout::random_playout;
use crate::rng::{Rng, Seed};
use crate::{chessyball, gridiron, kings_goal, soccer_chess, xfutebol};

fn round_trips<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    let json = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(&back, value, "{json}");
}

/// Replays random playouts of `G`, round-tripping every action, event and turn; returns how
/// many events were seen, so a game that emits none fails.
fn check<G: Game>() -> usize {
    let mut events = 0;
    for seed in 0..6 {
        let setup = SetupSpec {
            options: Options::resolve(&G::info().options, &BTreeMap::new()).unwrap(),
            seed: Seed::from_number(seed),
            position: None,
        };
        let start = G::new(&setup).unwrap();
        let playout = random_playout(start.clone(), &mut Rng::new(seed), 400);
        let mut game = start;
        for emitted in game.opening_events() {
            round_trips(&emitted.event);
            events += 1;
        }
        for (seat, action) in &playout.log {
            round_trips(action);
            round_trips(&game.turn());
            for emitted in game.apply(*seat, action).unwrap() {
                round_trips(&emitted.event);
                events += 1;
            }
        }
    }
    events
}

#[test]
fn every_games_values_survive_serde() {
    for (variant, events) in [
        ("soccer-chess", check::<soccer_chess::SoccerChess>()),
        ("chessyball", check::<chessyball::Chessyball>()),
        ("kings-goal", check::<kings_goal::KingsGoal>()),
        ("xfutebol", check::<xfutebol::XFutebol>()),
        ("gridiron", check::<gridiron::Gridiron>()),
    ] {
        assert!(events > 0, "{variant} emitted no events");
    }
}
