//! The search answers every game with one of the seat's legal actions, and with an iteration
//! cap instead of a clock it answers the same way for the same seed.

use pitchmate_bots::arena::play_match;
use pitchmate_bots::{Player, RandomPlayer, SearchLimits, SearchPlayer};
use pitchmate_rules::chessyball::Chessyball;
use pitchmate_rules::gridiron::Gridiron;
use pitchmate_rules::kings_goal::KingsGoal;
use pitchmate_rules::soccer_chess::SoccerChess;
use pitchmate_rules::xfutebol::XFutebol;
use pitchmate_rules::{Game, Rng, Seat, Seed, start};

/// The search's choices over the first `actions` actions of a match against random play.
fn choices<G: Game>(seed: u64, actions: usize) -> Vec<G::Action> {
    let mut game: G = start(&Default::default(), Seed::from_number(seed), None).unwrap();
    let mut search = SearchPlayer::<G>::new(SearchLimits::iterations(40), seed);
    let mut random = RandomPlayer::seeded(seed);
    let mut rng = Rng::new(seed);
    let mut chosen = Vec::new();
    for _ in 0..actions {
        let to_act = game.turn().to_act;
        if to_act.is_empty() {
            break;
        }
        let seat = *rng.pick(&to_act);
        let action = if seat == Seat(0) {
            let action = search.choose(&game, seat);
            assert!(
                game.legal_actions(seat).contains(&action),
                "{}: the search chose {action:?}, which is not legal",
                G::info().id
            );
            chosen.push(action.clone());
            action
        } else {
            random.choose(&game, seat)
        };
        game.apply(seat, &action).unwrap();
    }
    chosen
}

fn check<G: Game>() {
    for seed in 0..2 {
        let first = choices::<G>(seed, 150);
        assert!(
            !first.is_empty(),
            "{}: the search never chose",
            G::info().id
        );
        assert_eq!(
            first,
            choices::<G>(seed, 150),
            "{}: not reproducible",
            G::info().id
        );
    }
}

#[test]
fn soccer_chess() {
    check::<SoccerChess>();
}

#[test]
fn chessyball() {
    check::<Chessyball>();
}

#[test]
fn kings_goal() {
    check::<KingsGoal>();
}

#[test]
fn xfutebol() {
    check::<XFutebol>();
}

#[test]
fn gridiron() {
    check::<Gridiron>();
}

#[test]
fn a_whole_match_against_random_play_ends() {
    let mut search = SearchPlayer::<KingsGoal>::new(SearchLimits::iterations(30), 7);
    let mut random = RandomPlayer::seeded(7);
    let record = play_match(
        &Default::default(),
        Seed::from_number(7),
        &mut search,
        &mut random,
        Seat(1),
        20_000,
        &mut Rng::new(7),
    )
    .unwrap();
    assert!(record.finished);
    assert!(record.moves > 0 && record.iterations > 0);
}
