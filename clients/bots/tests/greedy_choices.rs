//! The greedy bot takes a goal whenever one of its legal actions scores at once: the
//! evaluation counts the score first. States come from random play; which actions score is
//! found by trying them all.

use pitchmate_bots::{GreedyPlayer, Player};
use pitchmate_rules::chessyball::Chessyball;
use pitchmate_rules::kings_goal::KingsGoal;
use pitchmate_rules::{Game, Rng, Seed, start};

/// Plays random matches and, wherever the seat to act could score at once, checks that the
/// greedy bot's action scores. Returns how many such states it met.
fn check<G: Game>(matches: u64) -> usize {
    let mut met = 0;
    for seed in 0..matches {
        let mut game: G = start(&Default::default(), Seed::from_number(seed), None).unwrap();
        let mut greedy = GreedyPlayer::new::<G>(seed);
        let mut rng = Rng::new(seed);
        while game.outcome().is_none() {
            let to_act = game.turn().to_act;
            let seat = *rng.pick(&to_act);
            let legal = game.legal_actions(seat);
            let own_score = |g: &G| g.scores()[seat.index()];
            let scores = |action: &G::Action| {
                let mut next = game.clone();
                next.apply(seat, action).unwrap();
                own_score(&next) > own_score(&game)
                    || next.outcome().is_some_and(|o| o.winner == Some(seat))
            };
            if legal.iter().any(scores) {
                let chosen = greedy.choose(&game, seat);
                assert!(scores(&chosen), "{}: greedy missed a goal", G::info().id);
                met += 1;
            }
            game.apply(seat, rng.pick(&legal)).unwrap();
        }
    }
    met
}

#[test]
fn greedy_scores_when_it_can_in_kings_goal() {
    assert!(
        check::<KingsGoal>(12) > 0,
        "random play never offered a goal"
    );
}

#[test]
fn greedy_scores_when_it_can_in_chessyball() {
    assert!(
        check::<Chessyball>(6) > 0,
        "random play never offered a goal"
    );
}
