//! Determinizations ([`Game::sampled_for`]) show their seat exactly what it sees in the real
//! state, and carry over nothing it cannot see: states that differ only in the other team's
//! hidden draft, hidden orders or the hidden ball holder give the very same sample.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::{Action, Gridiron};
use crate::Seed;
use crate::game::{Game, Seat, Viewer};
use crate::options::OptionValue;
use crate::rng::Rng;

fn short_match(seed: u64) -> Gridiron {
    let given: BTreeMap<String, OptionValue> = [("possessions_per_half", 1), ("turns_per_down", 3)]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), OptionValue::Int(value)))
        .collect();
    crate::game::start(&given, Seed::from_number(seed), None).unwrap()
}

/// Plays `count` random actions (fewer if the match ends).
fn advance(game: &mut Gridiron, count: u64, rng: &mut Rng) {
    for _ in 0..count {
        let to_act = game.turn().to_act;
        if to_act.is_empty() {
            return;
        }
        let seat = *rng.pick(&to_act);
        let legal = game.legal_actions(seat);
        let action = rng.pick(&legal).clone();
        game.apply(seat, &action).unwrap();
    }
}

/// A roster pick or an order item: what a seat writes in secret before it commits.
fn is_secret(action: &Action) -> bool {
    action.is_order()
        || matches!(
            action,
            Action::Captain(_) | Action::Recruit(_) | Action::DefaultRoster
        )
}

fn assert_same_for(seat: Seat, real: &Gridiron, sample: &Gridiron) {
    let viewer = Viewer::Seat(seat);
    assert_eq!(sample.turn(), real.turn());
    assert_eq!(sample.board(viewer), real.board(viewer));
    assert_eq!(sample.details(viewer), real.details(viewer));
    assert_eq!(sample.legal_actions(seat), real.legal_actions(seat));
    assert_eq!(sample.scores(), real.scores());
    assert_eq!(sample.outcome(), real.outcome());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_sample_looks_the_same_to_its_seat(seed in any::<u64>(), actions in 0u64..600) {
        let mut rng = Rng::new(seed);
        let mut game = short_match(seed);
        advance(&mut game, actions, &mut rng);
        for seat in [Seat(0), Seat(1)] {
            let sample = game.sampled_for(seat, &mut rng);
            assert_same_for(seat, &game, &sample);
        }
    }

    #[test]
    fn hidden_choices_of_the_other_team_do_not_reach_the_sample(
        seed in any::<u64>(),
        actions in 0u64..600,
        items in 1u64..6,
        commit in any::<bool>(),
    ) {
        let mut rng = Rng::new(seed);
        let mut game = short_match(seed);
        advance(&mut game, actions, &mut rng);
        for seat in [Seat(0), Seat(1)] {
            let other = seat.opponent();
            // Twins in which the other team writes different secret items, then perhaps
            // commits them (only while `seat` still has to act, so nothing is revealed).
            let mut twins = [game.clone(), game.clone()];
            for twin in &mut twins {
                for _ in 0..rng.below(items + 1) {
                    let secret: Vec<Action> =
                        twin.legal_actions(other).into_iter().filter(is_secret).collect();
                    if secret.is_empty() {
                        break;
                    }
                    twin.apply(other, rng.pick(&secret)).unwrap();
                }
            }
            let commits = commit
                && twins.iter().all(|t| t.turn().is_to_act(seat))
                && twins.iter().all(|t| {
                    t.legal_actions(other)
                        .iter()
                        .any(|a| matches!(a, Action::Commit | Action::CommitRoster))
                });
            if commits {
                for twin in &mut twins {
                    let commit = twin
                        .legal_actions(other)
                        .into_iter()
                        .find(|a| matches!(a, Action::Commit | Action::CommitRoster))
                        .unwrap();
                    twin.apply(other, &commit).unwrap();
                }
            }
            let sampling = rng.next_u64();
            let samples = twins
                .each_ref()
                .map(|twin| twin.sampled_for(seat, &mut Rng::new(sampling)));
            prop_assert_eq!(&samples[0], &samples[1]);
            for (twin, sample) in twins.iter().zip(&samples) {
                assert_same_for(seat, twin, sample);
            }
        }
    }
}

#[test]
fn the_hidden_ball_holder_does_not_reach_the_sample() {
    let mut found = 0;
    for seed in 0..400u64 {
        let mut rng = Rng::new(seed);
        let mut game = short_match(seed);
        for _ in 0..3000 {
            if game.outcome().is_some() {
                break;
            }
            if let Some(fake) = game.fake {
                let defense = game.offense.opponent();
                let mut twins = [game.clone(), game.clone()];
                twins[0].holder = fake.passer;
                twins[1].holder = fake.partner;
                let sampling = rng.next_u64();
                let samples = twins
                    .each_ref()
                    .map(|twin| twin.sampled_for(defense, &mut Rng::new(sampling)));
                assert_eq!(samples[0], samples[1]);
                for (twin, sample) in twins.iter().zip(&samples) {
                    assert_same_for(defense, twin, sample);
                }
                // The offence knows the holder: its samples keep it.
                let own = game.sampled_for(game.offense, &mut rng);
                assert_eq!(own.holder, game.holder);
                found += 1;
                break;
            }
            advance(&mut game, 1, &mut rng);
        }
        if found >= 5 {
            return;
        }
    }
    panic!("random play never hid the ball ({found} times)");
}

#[test]
fn samples_draw_their_own_dice() {
    let mut game = short_match(3);
    let mut rng = Rng::new(3);
    advance(&mut game, 40, &mut rng);
    let a = game.sampled_for(Seat(0), &mut Rng::new(1));
    let b = game.sampled_for(Seat(0), &mut Rng::new(2));
    assert_ne!(a.rng, game.rng);
    assert_ne!(a.rng, b.rng);
}
