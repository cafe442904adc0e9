//! Replays: a finished match exported as NDJSON re-simulates through the rules engine to the
//! same end; finished matches stay listable and replayable across restarts.

mod common;

use std::collections::BTreeMap;

use common::*;
use pitchmate_games::ndjson::from_ndjson;
use pitchmate_games::verify::verify_replay;
use pitchmate_proto::v1 as pb;
use pitchmate_rules::soccer_chess::SoccerChess;
use pitchmate_rules::{Game, Seat, Seed, Viewer};
use pitchmate_server::games::{GameRegistry, ProtoMapping, option_from_proto};
use tonic::transport::Channel;

/// Plays a short match to its end; returns it seated.
async fn finished_match(client: &mut MatchServiceClient<Channel>) -> Seated {
    let seated = seated(client).await;
    let played = play_many(client, &seated, 500, 5).await;
    assert!(played < 500, "the match ended");
    seated
}

async fn export(client: &mut MatchServiceClient<Channel>, match_id: &str) -> String {
    let mut stream = client
        .export_replay(pb::ExportReplayRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .expect("export")
        .into_inner();
    let mut text = String::new();
    while let Some(item) = stream.message().await.expect("line") {
        text.push_str(&item.line);
        text.push('\n');
    }
    text
}

async fn replay(client: &mut MatchServiceClient<Channel>, match_id: &str) -> pb::GetReplayResponse {
    client
        .get_replay(pb::GetReplayRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .expect("replay")
        .into_inner()
}

#[tokio::test]
async fn an_exported_match_re_simulates_to_the_same_end() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = finished_match(&mut client).await;
    let (summary, view) = {
        let got = client
            .get_match(pb::GetMatchRequest {
                match_id: seated.match_id.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        (got.r#match.unwrap(), got.view.unwrap())
    };

    let exported = from_ndjson(&export(&mut client, &seated.match_id).await).expect("NDJSON");
    assert_eq!(exported, replay(&mut client, &seated.match_id).await);
    let header = exported.header.clone().expect("header");
    assert_eq!(
        (header.status(), &header.result, header.seats.len()),
        (pb::MatchStatus::Finished, &summary.result, 2)
    );
    let chance = header.chance.clone().expect("chance");
    assert_eq!(chance.seed, Seed::from_number(7).to_bytes(), "revealed");
    assert_eq!(Some(&chance), summary.chance.as_ref());

    // The checker a bot or platform runs: commitment, every event, the result.
    let verified = verify_replay(&GameRegistry::standard(), &exported).expect("verified");
    assert!(verified.commitment_checked && verified.seed_chosen_by_client);
    assert!(verified.actions > 0 && verified.game_events > 0);

    // And, independently of it, the bare engine reaches the position the server shows.
    let options: BTreeMap<_, _> = header
        .options
        .iter()
        .map(|(name, value)| (name.clone(), option_from_proto(name, value).unwrap()))
        .collect();
    let mut game: SoccerChess =
        pitchmate_rules::start(&options, Seed::from_number(7), None).unwrap();
    let seats = SoccerChess::info().seats;
    for event in &exported.events {
        if let Some(pb::match_event::Kind::ActionTaken(taken)) = &event.kind {
            let seat = Seat(seats.iter().position(|s| *s == taken.seat).unwrap() as u8);
            let action = game.parse_action(seat, &taken.notation).unwrap();
            assert_eq!(
                SoccerChess::action_to_proto(&action),
                taken.action.clone().unwrap(),
                "the notation and the typed action agree"
            );
            game.apply(seat, &action).unwrap();
        }
    }
    assert!(
        game.outcome().is_some(),
        "the re-simulated game is over too"
    );
    assert_eq!(game.position(), view.position, "the same final position");
    assert_eq!(
        game.board(Viewer::Spectator).pieces.len(),
        view.board.unwrap().pieces.len()
    );
    server.stop().await;
}

#[tokio::test]
async fn finished_matches_stay_listable_and_replayable_after_a_restart() {
    let settings = test_settings();
    let server = start_with(settings.clone()).await;
    let mut client = server.matches().await;
    let finished = finished_match(&mut client).await;
    let waiting = create(&mut client).await;
    let before = replay(&mut client, &finished.match_id).await;
    let summary_before = get(&mut client, &finished.match_id).await;

    let server = server.restart(settings).await;
    let mut client = server.matches().await;
    let listed = client
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .matches;
    let ids: Vec<&str> = listed.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!(ids, [waiting.match_id.as_str(), finished.match_id.as_str()]);
    assert_eq!(
        listed[1], summary_before,
        "listed from the store as it ended"
    );
    assert_eq!(replay(&mut client, &finished.match_id).await, before);
    // GetMatch and streams rebuild it on demand.
    assert_eq!(get(&mut client, &finished.match_id).await, summary_before);
    let events = read_events(
        &mut client,
        &finished.match_id,
        0,
        summary_before.last_seq as usize,
    )
    .await;
    assert_eq!(events, before.events);
    // Its seats' tokens still authenticate, and it takes no more actions.
    let status = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: finished.match_id.clone(),
                expected_version: summary_before.version,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Index(0)),
            },
            finished.token("first"),
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "MATCH_NOT_ACTIVE");
    server.stop().await;
}
