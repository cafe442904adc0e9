//! Chessyball through the server: two SDK bots finish a match watched by a spectator, typed
//! actions and custom start positions work, bad options and positions are refused.

use pitchmate_client::pb::chessyball_action::Kind as ActionKind;
use pitchmate_client::pb::chessyball_event::Kind as EventKind;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{Choice, Client, NewMatch, pb};
use pitchmate_e2e::{
    TestServer, act, game_events, history_so_far, play_random_match, seated, square,
};

fn typed(kind: ActionKind) -> Choice {
    Choice::Action(pb::Action {
        game: Some(pb::action::Game::Chessyball(pb::ChessyballAction {
            kind: Some(kind),
        })),
    })
}

fn typed_move(from: &str, to: &str) -> Choice {
    typed(ActionKind::Move(pb::ChessyballMove {
        from: square(from),
        to: square(to),
    }))
}

async fn details(client: &Client, match_id: &str) -> pb::ChessyballDetails {
    let view = client
        .get_match(match_id, None)
        .await
        .expect("get match")
        .view
        .expect("a view");
    match view.details {
        Some(pb::match_view::Details::Chessyball(details)) => details,
        other => panic!("not Chessyball details: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_random_bots_finish_a_match_and_the_spectator_sees_its_game_events() {
    let server = TestServer::start().await;
    let finished = play_random_match(&server, NewMatch::variant("chessyball").seed(11)).await;
    let events = game_events::<EventKind>(&finished.watched);

    // The opening: the coin picks the starting seat, then the ball goes on a centre square.
    let EventKind::StartingSeatChosen(chosen) = &events[0] else {
        panic!("the first game event is the starting seat: {:?}", events[0]);
    };
    assert!(chosen.by_coin, "no option fixed the starting seat");
    let EventKind::BallPlaced(ball) = &events[1] else {
        panic!("then the ball is placed: {:?}", events[1]);
    };
    let centre = ball.square.as_ref().expect("a square").name.clone();
    assert!(centre == "i6" || centre == "j6", "kick-off on {centre}");

    let moves = events
        .iter()
        .filter(|e| matches!(e, EventKind::PieceMoved(_)))
        .count();
    let actions = finished
        .watched
        .iter()
        .filter(|e| matches!(e.kind, Some(Kind::ActionTaken(_))))
        .count();
    assert_eq!(moves, actions, "random bots only move pieces by default");
    assert!(
        events.iter().any(|e| matches!(e, EventKind::BallKicked(_))),
        "a whole match kicks the ball at least once"
    );
    for event in &finished.watched {
        if let Some(Kind::ActionTaken(taken)) = &event.kind {
            assert!(
                matches!(
                    taken.action.as_ref().and_then(|a| a.game.as_ref()),
                    Some(pb::action::Game::Chessyball(_))
                ),
                "every action is recorded in typed form: {taken:?}"
            );
        }
    }

    let Some(EventKind::MatchEnded(ended)) = events.last() else {
        panic!("the last game event ends the match: {:?}", events.last());
    };
    let scores: Vec<u32> = ended.score.iter().map(|s| s.score).collect();
    assert_eq!(
        scores,
        finished
            .result
            .scores
            .iter()
            .map(|s| s.score)
            .collect::<Vec<_>>()
    );
    assert_ne!(
        ended.reason(),
        pb::ChessyballMatchEndReason::Unspecified,
        "{ended:?}"
    );
    let last_turn = details(&server.client().await, &finished.match_id)
        .await
        .turn_number;
    assert!(last_turn <= 60, "the default cap is 60 turns: {last_turn}");
    server.stop().await;
}

/// Home member e9, home keeper b6, away keeper q8, away member r11, ball h8; home moves first.
const KICK_POSITION: &str = "17m/18/4M13/7o8k1/18/1K16/18/18/18/18/18 h";

#[tokio::test]
async fn a_custom_position_and_a_typed_move_kick_the_ball_as_the_rules_say() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(
        &client,
        NewMatch::variant("chessyball")
            .seed(1)
            .start_position(KICK_POSITION)
            .bool_option("end_turn_early", true),
    )
    .await;
    let opening = client
        .get_match(&home.match_id, None)
        .await
        .unwrap()
        .view
        .unwrap();
    assert!(
        opening.position.starts_with(KICK_POSITION),
        "{}",
        opening.position
    );
    let history = history_so_far(&client, &home.match_id, None).await;
    let opening_events = game_events::<EventKind>(&history);
    let Some(EventKind::StartingSeatChosen(chosen)) = opening_events.first() else {
        panic!("opening: {opening_events:?}");
    };
    assert_eq!(chosen.seat, "home");
    assert!(!chosen.by_coin, "the position names the side to move");
    assert!(
        !opening_events
            .iter()
            .any(|e| matches!(e, EventKind::BallPlaced(_))),
        "the position placed the ball"
    );

    // The rules page's example: e9-g9 kicks the ball on h8 along i7 j6 k5 l4 m3 to n2.
    let response = act(&client, &home, typed_move("e9", "g9")).await;
    let events = game_events::<EventKind>(&response.events);
    let EventKind::PieceMoved(moved) = &events[0] else {
        panic!("{events:?}");
    };
    assert_eq!(moved.to.as_ref().unwrap().name, "g9");
    let EventKind::BallKicked(kicked) = &events[1] else {
        panic!("{events:?}");
    };
    assert_eq!(kicked.piece_id, moved.piece_id);
    assert_eq!(kicked.from.as_ref().unwrap().name, "h8");
    assert_eq!(kicked.to.as_ref().unwrap().name, "n2");
    let EventKind::TurnEnded(ended) = &events[2] else {
        panic!("{events:?}");
    };
    assert_eq!(
        ended.reason(),
        pb::ChessyballTurnEndReason::ActionsUsed,
        "turn 1 has one action"
    );
    let EventKind::TurnStarted(next) = &events[3] else {
        panic!("{events:?}");
    };
    assert_eq!(
        (next.seat.as_str(), next.number, next.actions),
        ("away", 2, 2)
    );

    // Away moves its member once, then ends its two-action turn early in typed form.
    act(&client, &away, typed_move("r11", "r10")).await;
    let state = details(&client, &home.match_id).await;
    assert_eq!((state.turn_number, state.actions_allowed), (2, 2));
    assert_eq!(state.actions_taken, 1);
    assert_eq!(state.starting_seat, "home");
    let response = act(
        &client,
        &away,
        typed(ActionKind::EndTurn(pb::ChessyballEndTurn {})),
    )
    .await;
    let events = game_events::<EventKind>(&response.events);
    let Some(EventKind::TurnEnded(ended)) = events.first() else {
        panic!("{events:?}");
    };
    assert_eq!(ended.reason(), pb::ChessyballTurnEndReason::EndedEarly);
    assert_eq!(ended.actions, 1);
    server.stop().await;
}

#[tokio::test]
async fn bad_typed_actions_are_refused_and_change_nothing() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(
        &client,
        NewMatch::variant("chessyball")
            .seed(1)
            .start_position(KICK_POSITION),
    )
    .await;
    let before = client.legal_actions(&home).await.unwrap().version;

    let refusals = [
        // The `to` square is missing.
        (
            typed(ActionKind::Move(pb::ChessyballMove {
                from: square("e9"),
                to: None,
            })),
            "INVALID_ARGUMENT",
            "move.to",
        ),
        // Another game's action.
        (
            Choice::Action(pb::Action {
                game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
                    kind: Some(pb::soccer_chess_action::Kind::EndSet(
                        pb::SoccerChessEndSet {},
                    )),
                })),
            }),
            "INVALID_ARGUMENT",
            "chessyball",
        ),
        // Readable but against the rules: the keeper may not leave its box. The message
        // lists what is legal instead.
        (typed_move("b6", "b10"), "ILLEGAL_ACTION", "e9-g9"),
        // Ending the turn early is off by default.
        (
            typed(ActionKind::EndTurn(pb::ChessyballEndTurn {})),
            "ILLEGAL_ACTION",
            "legal now",
        ),
    ];
    for (choice, reason, mentioned) in refusals {
        let error = client
            .submit(&home, before, "", choice.clone())
            .await
            .expect_err("must be refused");
        assert_eq!(
            error.reason().as_deref(),
            Some(reason),
            "{choice:?}: {error}"
        );
        assert!(
            error.to_string().contains(mentioned),
            "`{error}` should mention `{mentioned}`"
        );
    }
    // The away keeper may not act out of turn, even with a legal-looking typed move.
    let error = client
        .submit(&away, before, "", typed_move("q8", "q7"))
        .await
        .unwrap_err();
    assert_eq!(error.reason().as_deref(), Some("NOT_YOUR_TURN"));
    assert_eq!(client.legal_actions(&home).await.unwrap().version, before);
    server.stop().await;
}

/// Home member o2, home keeper b6, away keeper q8, ball q4; home moves first.
const GOAL_POSITION: &str = "18/18/18/16k1/18/1K16/18/16o1/18/14M3/18 h";

#[tokio::test]
async fn a_conceding_side_places_the_ball_by_a_typed_action() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(
        &client,
        NewMatch::variant("chessyball")
            .seed(2)
            .start_position(GOAL_POSITION)
            .text_option("after_goal", "defender_places"),
    )
    .await;

    // o2-p3 stops next to the ball on q4, which rolls diagonally into away's goal on r5.
    let response = act(&client, &home, typed_move("o2", "p3")).await;
    let events = game_events::<EventKind>(&response.events);
    let Some(EventKind::GoalScored(goal)) = events
        .iter()
        .find(|e| matches!(e, EventKind::GoalScored(_)))
    else {
        panic!("no goal: {events:?}");
    };
    assert_eq!(goal.seat, "home");
    assert!(!goal.own_goal);
    assert_eq!(goal.square.as_ref().unwrap().name, "r5");
    assert_eq!(
        goal.score.iter().map(|s| s.score).collect::<Vec<_>>(),
        [1, 0]
    );

    let legal = client.legal_actions(&away).await.unwrap();
    let view = legal.view.unwrap();
    assert_eq!(view.turn.unwrap().phase, "place_ball");
    let ball = view.board.unwrap().ball.unwrap().square.unwrap();
    assert_eq!(
        ball.name, "r5",
        "until placed the ball shows in the goal it entered"
    );
    assert!(
        legal
            .actions
            .iter()
            .all(|a| a.notation.starts_with("ball@"))
    );
    let response = act(
        &client,
        &away,
        typed(ActionKind::PlaceBall(pb::ChessyballPlaceBall {
            square: square("p6"),
        })),
    )
    .await;
    let events = game_events::<EventKind>(&response.events);
    let Some(EventKind::BallPlaced(placed)) = events.first() else {
        panic!("{events:?}");
    };
    assert_eq!(placed.square.as_ref().unwrap().name, "p6");
    assert_eq!(placed.placement(), pb::ChessyballBallPlacement::ByDefender);
    let state = details(&client, &home.match_id).await;
    assert_eq!(
        state.actions_allowed, 2,
        "a goal in turn 1 leaves turn 2 its two actions"
    );
    assert_eq!(
        state.actions_taken, 0,
        "placing is not one of the turn's actions"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_level_match_ends_in_a_shootout_of_typed_shots() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(
        &client,
        NewMatch::variant("chessyball")
            .seed(5)
            .start_position(KICK_POSITION)
            .int_option("max_turns", 1)
            .bool_option("shootout", true),
    )
    .await;
    // The one turn of the match ends level, and away (which did not start) kicks first.
    let response = act(&client, &home, typed_move("e9", "g9")).await;
    let events = game_events::<EventKind>(&response.events);
    let Some(EventKind::ShootoutStarted(shootout)) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!(shootout.first, "away");

    let mut kicks = 0;
    let ended = loop {
        let state = details(&client, &home.match_id).await;
        assert!(state.shootout);
        assert_eq!(state.shootout_first, "away");
        let taken: usize = state.penalty_kicks.iter().map(|k| k.scored.len()).sum();
        assert_eq!(taken, kicks, "the details list every kick so far");
        let kicker = if kicks % 2 == 0 { &away } else { &home };
        let response = act(
            &client,
            kicker,
            typed(ActionKind::Shoot(pb::ChessyballShoot {})),
        )
        .await;
        kicks += 1;
        let events = game_events::<EventKind>(&response.events);
        let Some(EventKind::PenaltyTaken(penalty)) = events.first() else {
            panic!("{events:?}");
        };
        assert_eq!(penalty.seat, kicker.seat);
        assert!((1..=6).contains(&penalty.roll));
        assert_eq!(penalty.scored, penalty.roll >= 3);
        if let Some(EventKind::MatchEnded(ended)) = events.last() {
            break ended.clone();
        }
        assert!(kicks < 51, "a shoot-out ends after at most 50 kicks");
    };
    assert!(
        matches!(
            ended.reason(),
            pb::ChessyballMatchEndReason::Shootout | pb::ChessyballMatchEndReason::ShootoutCoin
        ),
        "{ended:?}"
    );
    assert!(!ended.winner.is_empty(), "a shoot-out always has a winner");
    assert_eq!(
        ended.score.iter().map(|s| s.score).collect::<Vec<_>>(),
        [0, 0],
        "penalties are not goals"
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_options_and_positions_are_refused() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let bad_options = [
        NewMatch::variant("chessyball").int_option("files", 17),
        NewMatch::variant("chessyball").text_option("ball_start", "middle"),
        NewMatch::variant("chessyball").int_option("max_turns", 0),
        NewMatch::variant("chessyball").bool_option("no_such_option", true),
    ];
    for new in bad_options {
        let error = client
            .create_match(new.clone())
            .await
            .expect_err("must be refused");
        assert_eq!(
            error.reason().as_deref(),
            Some("INVALID_OPTION"),
            "{new:?}: {error}"
        );
    }
    // Two balls, and a member of home in its own keeper box.
    for position in [
        "17m/18/4M13/7o8k1/18/1K16/18/18/18/18/o17 h",
        "17m/18/4M13/7o8k1/18/1KM15/18/18/18/18/18 h",
    ] {
        let error = client
            .create_match(NewMatch::variant("chessyball").start_position(position))
            .await
            .expect_err("must be refused");
        assert_eq!(
            error.reason().as_deref(),
            Some("INVALID_POSITION"),
            "{position}: {error}"
        );
    }
    server.stop().await;
}
