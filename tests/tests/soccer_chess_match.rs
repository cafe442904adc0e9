//! Two SDK bots play a whole Soccer Chess match through the server, watched by a spectator.

use pitchmate_client::NewMatch;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_e2e::{TestServer, play_random_match};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_random_bots_finish_a_match_and_the_spectator_sees_every_event() {
    let server = TestServer::start().await;
    let finished = play_random_match(&server, NewMatch::variant("soccer-chess").seed(7)).await;
    assert_eq!(finished.result.scores.len(), 2);
    let actions = finished
        .watched
        .iter()
        .filter(|e| matches!(e.kind, Some(Kind::ActionTaken(_))))
        .count();
    assert!(
        actions > 22,
        "setup alone takes 22 placements, saw {actions} actions"
    );
    server.stop().await;
}
