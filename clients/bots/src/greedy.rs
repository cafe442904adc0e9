//! The greedy bot: one ply, the action whose result evaluates best, ties broken at random.

use pitchmate_rules::{Game, Rng, Seat};

use crate::evaluate::{Weights, evaluate};
use crate::player::Player;

/// Tries every legal action on a determinization of the state (so it sees no more than its
/// seat does) and keeps the best by [`evaluate`].
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rng: Rng,
    weights: Weights,
}

impl GreedyPlayer {
    pub fn new<G: Game>(seed: u64) -> Self {
        Self {
            rng: Rng::new(seed),
            weights: Weights::for_variant(G::info().id),
        }
    }
}

impl<G: Game> Player<G> for GreedyPlayer {
    fn choose(&mut self, game: &G, seat: Seat) -> G::Action {
        let sample = game.sampled_for(seat, &mut self.rng);
        let legal = sample.legal_actions(seat);
        let mut best = Vec::new();
        let mut best_value = f64::NEG_INFINITY;
        for (index, action) in legal.iter().enumerate() {
            let mut next = sample.clone();
            if next.apply(seat, action).is_err() {
                continue;
            }
            let value = evaluate(&next, seat, &self.weights);
            if value > best_value + 1e-12 {
                best_value = value;
                best.clear();
            }
            if (value - best_value).abs() <= 1e-12 {
                best.push(index);
            }
        }
        let index = if best.is_empty() {
            self.rng.below(legal.len() as u64) as usize
        } else {
            *self.rng.pick(&best)
        };
        legal[index].clone()
    }
}
