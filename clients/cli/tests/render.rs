//! The board drawing of a known position of each game, colours off and on. The positions are
//! the rules engines' own: the standard start with a fixed seed, then a fixed sequence of legal
//! actions, so pieces, the ball and the zones are all on the board.

use std::collections::BTreeMap;

use pitchmate_cli::render::render;
use pitchmate_client::pb;
use pitchmate_games::{ActionChoice, GameRegistry};
use pitchmate_rules::{Seat, Seed, Viewer};

/// The view of `variant` after `actions` actions picked by a fixed rule from the legal list,
/// as `viewer` sees it.
fn position(variant: &str, actions: u32, viewer: Viewer) -> pb::MatchView {
    let mut game = GameRegistry::standard()
        .start(variant, &BTreeMap::new(), Seed::from_number(7), None)
        .expect("the standard start");
    for step in 0..actions {
        let seat = *game.turn().to_act.first().expect("the game is on");
        let count = game.legal_actions(seat, pb::ActionDetail::Notation).len() as u32;
        game.play(seat, &ActionChoice::Index(step.wrapping_mul(7919) % count))
            .expect("a listed action is legal");
    }
    game.view(viewer, u64::from(actions))
}

fn snapshot(name: &str, view: &pb::MatchView) {
    insta::assert_snapshot!(format!("{name}_plain"), render(view, false));
    insta::assert_snapshot!(format!("{name}_colour"), render(view, true));
}

#[test]
fn soccer_chess() {
    snapshot(
        "soccer_chess",
        &position("soccer-chess", 40, Viewer::Spectator),
    );
}

#[test]
fn chessyball() {
    snapshot("chessyball", &position("chessyball", 12, Viewer::Spectator));
}

#[test]
fn kings_goal() {
    snapshot("kings_goal", &position("kings-goal", 20, Viewer::Spectator));
}

#[test]
fn xfutebol() {
    snapshot("xfutebol", &position("xfutebol", 30, Viewer::Spectator));
}

/// Gridiron hides which piece holds the ball from the defence: the spectator sees the pieces
/// that may hold it, the seat holding it sees the carrier.
#[test]
fn gridiron() {
    snapshot("gridiron", &position("gridiron", 60, Viewer::Spectator));
}

#[test]
fn no_colour_means_no_escape_codes_and_colour_means_some() {
    let view = position("kings-goal", 20, Viewer::Spectator);
    assert!(!render(&view, false).contains('\x1b'));
    assert!(render(&view, true).contains("\x1b["));
}

/// Gridiron's play action hides the ball's holder from the defence and spectators: they see the
/// pieces that may hold it (`?`), the offence sees the carrier (`*`).
#[test]
fn gridiron_hidden_ball() {
    let mut game = GameRegistry::standard()
        .start("gridiron", &BTreeMap::new(), Seed::from_number(7), None)
        .expect("the standard start");
    let mut step = 0u32;
    let (hidden, offence) = loop {
        let spectator = game.view(Viewer::Spectator, u64::from(step));
        let ball = spectator.board.as_ref().and_then(|b| b.ball.clone());
        if ball.is_some_and(|b| !b.possible_holder_ids.is_empty()) {
            // Home attacks first: it holds the ball.
            break (spectator, game.view(Viewer::Seat(Seat(0)), u64::from(step)));
        }
        assert!(step < 5000, "no hidden ball within {step} actions");
        let seat = *game.turn().to_act.first().expect("the game is on");
        let legal = game.legal_actions(seat, pb::ActionDetail::Notation);
        // Fakes whenever one is offered, so the ball is soon hidden.
        let choice = legal
            .iter()
            .find(|a| a.notation.contains("fake"))
            .map_or(step.wrapping_mul(7919) % legal.len() as u32, |a| a.index);
        game.play(seat, &ActionChoice::Index(choice))
            .expect("a listed action is legal");
        step += 1;
    };
    let drawn = render(&hidden, false);
    assert!(drawn.contains("? may hold the ball"), "{drawn}");
    insta::assert_snapshot!("gridiron_hidden_ball_spectator", drawn);
    let drawn = render(&offence, false);
    assert!(drawn.contains("* holds the ball"), "{drawn}");
    assert!(!drawn.contains('?'), "{drawn}");
    insta::assert_snapshot!("gridiron_hidden_ball_offence", drawn);
}
