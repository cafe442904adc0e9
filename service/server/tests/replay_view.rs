//! `GetReplayView`: a finished match's board at any moment of its replay, as the web board's
//! scrubber draws it; refused while the match is being played.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use tonic::transport::Channel;

async fn view_at(
    client: &mut MatchServiceClient<Channel>,
    match_id: &str,
    seq: u64,
) -> Result<pb::GetReplayViewResponse, tonic::Status> {
    client
        .get_replay_view(pb::GetReplayViewRequest {
            match_id: match_id.to_owned(),
            seq,
            seat: String::new(),
        })
        .await
        .map(tonic::Response::into_inner)
}

async fn view_now(client: &mut MatchServiceClient<Channel>, match_id: &str) -> pb::MatchView {
    client
        .get_match(pb::GetMatchRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .expect("get")
        .into_inner()
        .view
        .expect("view")
}

#[tokio::test]
async fn each_moment_of_a_finished_match_shows_the_board_it_had_then() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let start = view_now(&mut client, &seated.match_id).await;

    // The board after the first three actions, as the match showed it live.
    let mut after_actions = Vec::new();
    for _ in 0..3 {
        play_one(&mut client, &seated, |_| 0).await.expect("to act");
        let m = get(&mut client, &seated.match_id).await;
        after_actions.push((m.last_seq, view_now(&mut client, &seated.match_id).await));
    }
    let refused = view_at(&mut client, &seated.match_id, 1)
        .await
        .expect_err("not while it is played");
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
    assert_eq!(reason(&refused), "MATCH_NOT_ACTIVE");

    let played = play_many(&mut client, &seated, 500, 5).await;
    assert!(played < 500, "the match ended");
    let end = view_now(&mut client, &seated.match_id).await;
    let last_seq = get(&mut client, &seated.match_id).await.last_seq;

    let at_start = view_at(&mut client, &seated.match_id, 0).await.unwrap();
    assert_eq!(at_start.last_seq, last_seq);
    assert_eq!(at_start.view.unwrap().board, start.board, "the start");
    for (seq, live) in &after_actions {
        let then = view_at(&mut client, &seated.match_id, *seq).await.unwrap();
        let then = then.view.unwrap();
        assert_eq!(then.board, live.board, "after event {seq}");
        assert_eq!(then.version, live.version, "after event {seq}");
    }
    assert_ne!(
        after_actions[0].1.board, start.board,
        "an action moved something"
    );
    let at_end = view_at(&mut client, &seated.match_id, last_seq)
        .await
        .unwrap();
    assert_eq!(at_end.view.unwrap().board, end.board, "the end");
    let past_end = view_at(&mut client, &seated.match_id, last_seq + 10)
        .await
        .unwrap();
    assert_eq!(
        past_end.view.unwrap().board,
        end.board,
        "past the end: the end"
    );
    server.stop().await;
}
