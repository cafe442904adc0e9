//! A match from creation to resignation: create, join, legal actions, submit by index, typed
//! action and notation, resign.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn a_match_runs_from_creation_to_resignation() {
    let server = start().await;
    let mut client = server.matches().await;

    let created = create(&mut client).await;
    assert_eq!(created.status, pb::MatchStatus::Waiting as i32);
    assert_eq!(created.version, 0);
    assert_eq!(created.last_seq, 1, "MatchCreated is event 1");
    let chance = created.chance.clone().expect("chance");
    assert_eq!(
        chance.seed_source(),
        pb::SeedSource::Client,
        "the test chose it"
    );
    assert!(chance.seed.is_empty(), "secret until the end");
    assert!(uuid::Uuid::parse_str(&created.match_id).is_ok());
    assert!(
        created.options.contains_key("own_goals"),
        "defaults are listed too"
    );
    let seats: Vec<&str> = created.seats.iter().map(|s| s.seat.as_str()).collect();
    assert_eq!(seats, ["first", "second"]);

    let first = client
        .join_match(pb::JoinMatchRequest {
            match_id: created.match_id.clone(),
            seat: "second".into(),
            player_name: "bob".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.seat, "second");
    assert_eq!(first.seat_token.len(), 64);
    assert_eq!(
        first.r#match.unwrap().status,
        pb::MatchStatus::Waiting as i32
    );
    let other = client
        .join_match(pb::JoinMatchRequest {
            match_id: created.match_id.clone(),
            seat: String::new(),
            player_name: "alice".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        other.seat, "first",
        "an empty seat takes the first free one"
    );
    let started = other.r#match.unwrap();
    assert_eq!(started.status, pb::MatchStatus::Active as i32);
    let turn = started.turn.unwrap();
    assert_eq!(turn.phase, "setup");
    assert_eq!(turn.to_act.len(), 1);
    assert_eq!(started.seats[0].player_name, "alice");
    assert_eq!(started.seats[1].player_name, "bob");
    let seated = Seated {
        match_id: created.match_id.clone(),
        tokens: [
            ("first".to_owned(), other.seat_token),
            ("second".to_owned(), first.seat_token),
        ]
        .into(),
    };
    // The seat placing first, then the other one.
    let placer = turn.to_act[0].clone();
    let other_seat = if placer == "first" { "second" } else { "first" };
    let first_token = seated.token(&placer).to_owned();
    let second_token = seated.token(other_seat).to_owned();

    // The seat to act sees its actions; the other seat and spectators see none.
    let legal = client
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: created.match_id.clone(),
                ..Default::default()
            },
            &first_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(legal.version, 0);
    assert!(!legal.actions.is_empty());
    for (i, action) in legal.actions.iter().enumerate() {
        assert_eq!(action.index as usize, i);
        assert!(action.action.is_some());
        assert!(!action.notation.is_empty());
    }
    assert_eq!(legal.view.as_ref().unwrap().viewer_seat, placer);
    let waiting = client
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: created.match_id.clone(),
                ..Default::default()
            },
            &second_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(waiting.actions.is_empty());
    let spectator = client
        .get_legal_actions(pb::GetLegalActionsRequest {
            match_id: created.match_id.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(spectator.actions.is_empty());
    assert_eq!(spectator.view.unwrap().viewer_seat, "");

    // By notation.
    let by_notation = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: created.match_id.clone(),
                expected_version: 0,
                client_action_id: "a1".into(),
                choice: Some(pb::submit_action_request::Choice::Notation(
                    "default".into(),
                )),
            },
            &first_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_notation.version, 1);
    assert!(!by_notation.duplicate);
    let Some(pb::match_event::Kind::ActionTaken(taken)) = &by_notation.events[0].kind else {
        panic!(
            "the first event of an action is ActionTaken: {:?}",
            by_notation.events
        );
    };
    assert_eq!(taken.seat, placer);
    assert_eq!(taken.notation, "default");
    assert!(
        by_notation
            .events
            .iter()
            .any(|e| matches!(e.kind, Some(pb::match_event::Kind::GameEvent(_)))),
        "placing pieces emits game events"
    );

    // By typed action: the second seat's default formation, as a message.
    let typed = pb::Action {
        game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
            kind: Some(pb::soccer_chess_action::Kind::DefaultFormation(
                pb::SoccerChessDefaultFormation {},
            )),
        })),
    };
    let by_typed = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: created.match_id.clone(),
                expected_version: 1,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Action(typed)),
            },
            &second_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_typed.version, 2);
    assert!(
        by_typed.events.iter().any(|e| matches!(&e.kind, Some(pb::match_event::Kind::TurnStarted(t)) if t.turn.as_ref().unwrap().phase == "play")),
        "play starts with a TurnStarted event: {:?}",
        by_typed.events
    );

    // By index, in the play phase.
    let by_index = play_one(&mut client, &seated, |_| 0).await.unwrap();
    assert_eq!(by_index.version, 3);

    let snapshot = client
        .get_match(authed(
            pb::GetMatchRequest {
                match_id: created.match_id.clone(),
            },
            &first_token,
        ))
        .await
        .unwrap()
        .into_inner();
    let view = snapshot.view.unwrap();
    assert_eq!(view.version, 3);
    assert!(
        !view.position.is_empty(),
        "Soccer Chess hides nothing, so the position is shown"
    );
    assert!(matches!(
        view.details,
        Some(pb::match_view::Details::SoccerChess(_))
    ));
    assert_eq!(view.board.unwrap().pieces.len(), 22);

    // Resign: the other seat wins, the version moves on, the match is over.
    let resigner = to_act(&mut client, &created.match_id).await.unwrap();
    let resigned = client
        .resign(authed(
            pb::ResignRequest {
                match_id: created.match_id.clone(),
            },
            seated.token(&resigner),
        ))
        .await
        .unwrap()
        .into_inner()
        .r#match
        .unwrap();
    assert_eq!(resigned.status, pb::MatchStatus::Finished as i32);
    assert_eq!(resigned.version, 4);
    let result = resigned.result.unwrap();
    assert_eq!(result.reason, pb::ResultReason::Resignation as i32);
    assert_ne!(result.winner, resigner);
    assert!(resigned.turn.unwrap().to_act.is_empty());

    let events = read_events(
        &mut client,
        &created.match_id,
        0,
        resigned.last_seq as usize,
    )
    .await;
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=resigned.last_seq).collect::<Vec<_>>());
    assert!(matches!(
        events[0].kind,
        Some(pb::match_event::Kind::MatchCreated(_))
    ));
    assert!(matches!(
        events.last().unwrap().kind,
        Some(pb::match_event::Kind::MatchEnded(_))
    ));
    server.stop().await;
}

#[tokio::test]
async fn a_match_played_to_the_end_reports_the_rules_result() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let played = play_many(&mut client, &seated, 2_000, 11).await;
    assert!(played < 2_000, "a one-set-per-game match ends");
    let finished = get(&mut client, &seated.match_id).await;
    assert_eq!(finished.status, pb::MatchStatus::Finished as i32);
    assert_eq!(finished.version, played as u64);
    let result = finished.result.unwrap();
    assert_eq!(result.reason, pb::ResultReason::Rules as i32);
    assert_eq!(result.scores.len(), 2);
    assert!(!result.detail.is_empty());
    server.stop().await;
}
