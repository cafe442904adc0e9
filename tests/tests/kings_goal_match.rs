//! King's Goal through the server: whole matches between SDK bots, typed actions, a custom
//! start position and refused options.

use pitchmate_client::pb::kings_goal_action::Kind as ActionKind;
use pitchmate_client::pb::kings_goal_event::Kind as EventKind;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{Bot, Choice, NewMatch, RandomChoice, pb, play};
use pitchmate_e2e::{
    TestServer, game_events, join_every_seat, play_random_match, refusal_reason, square,
};

const VARIANT: &str = "kings-goal";

/// Whether an event is the one event every play move (move, capture, pass or wait) causes.
fn is_play_move(event: &EventKind) -> bool {
    matches!(
        event,
        EventKind::PieceMoved(_)
            | EventKind::CarrierCaptured(_)
            | EventKind::BallPassed(_)
            | EventKind::MoveWaived(_)
    )
}

fn typed(kind: ActionKind) -> Choice {
    Choice::Action(pb::Action {
        game: Some(pb::action::Game::KingsGoal(pb::KingsGoalAction {
            kind: Some(kind),
        })),
    })
}

/// Picks what the SDK's random bot picks, but submits the typed form of the action.
struct TypedRandom(RandomChoice);

impl Bot for TypedRandom {
    fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
        let Choice::Index(index) = self.0.choose(view, legal) else {
            panic!("the random bot picks by index");
        };
        let picked = legal
            .iter()
            .find(|a| a.index == index)
            .expect("the random bot picks a listed action");
        Choice::Action(picked.action.clone().expect("every legal action is typed"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_random_bots_play_both_halves_and_the_spectator_sees_every_kings_goal_event() {
    let server = TestServer::start().await;
    let moves_per_half = 12;
    let finished = play_random_match(
        &server,
        NewMatch::variant(VARIANT)
            .seed(11)
            .int_option("moves_per_half", moves_per_half),
    )
    .await;
    let events = game_events::<EventKind>(&finished.watched);

    // Every match lasts exactly 2 halves x 2 sides x moves_per_half play moves.
    let play_moves = events.iter().filter(|e| is_play_move(e)).count();
    assert_eq!(play_moves as i64, 4 * moves_per_half);

    // Both sides choose and place, and the first half kicks off with a pass.
    let first_kick_off = events
        .iter()
        .position(|e| matches!(e, EventKind::KickOff(k) if k.seat == "white"))
        .expect("white kicks off");
    let chosen = events[..first_kick_off]
        .iter()
        .filter(|e| matches!(e, EventKind::PiecesChosen(_)))
        .count();
    assert!(chosen >= 2, "both sides pick before the kick-off");
    let placed = events[..first_kick_off]
        .iter()
        .filter(|e| matches!(e, EventKind::PiecePlaced(_)))
        .count();
    assert_eq!(placed, 12, "six pieces a side before the kick-off");
    assert!(matches!(
        events[first_kick_off + 1],
        EventKind::BallPassed(_)
    ));

    // Half time: black kicks off the second half.
    let half_ended = events
        .iter()
        .position(|e| matches!(e, EventKind::HalfEnded(h) if h.half == 1))
        .expect("the first half ends");
    let EventKind::Restarted(restart) = &events[half_ended + 1] else {
        panic!("half time restarts: {:?}", events[half_ended + 1]);
    };
    assert_eq!(restart.reason, pb::KingsGoalRestartReason::HalfTime as i32);
    assert_eq!(restart.kicking_seat, "black");
    assert_eq!(restart.half, 2);

    // The engine's last word agrees with the match result.
    let Some(EventKind::GameEnded(ended)) = events.last() else {
        panic!(
            "the last King's Goal event ends the game: {:?}",
            events.last()
        );
    };
    assert_eq!(ended.winner, finished.result.winner);
    assert_eq!(ended.scores, finished.result.scores);
    let goals = events
        .iter()
        .filter(|e| matches!(e, EventKind::GoalScored(_)))
        .count() as u32;
    assert_eq!(
        finished.result.scores.iter().map(|s| s.score).sum::<u32>(),
        goals
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_submitting_only_typed_actions_finish_a_match() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let created = client
        .create_match(
            NewMatch::variant(VARIANT)
                .seed(4)
                .int_option("moves_per_half", 4),
        )
        .await
        .unwrap();
    let [white, black] = join_every_seat(&client, &created).await;
    let players = [(white, 1), (black, 2)].map(|(seat, seed)| {
        let client = client.clone();
        tokio::spawn(async move {
            play(&client, &seat, &mut TypedRandom(RandomChoice::seeded(seed))).await
        })
    });
    for player in players {
        let result = player.await.unwrap().expect("the bot finishes");
        assert_eq!(result.reason(), pb::ResultReason::Rules);
    }
    let history =
        pitchmate_e2e::collect_events(client.watch(&created.match_id, 0, None).await.unwrap())
            .await;
    let taken: Vec<&pb::ActionTaken> = history
        .iter()
        .filter_map(|e| match &e.kind {
            Some(Kind::ActionTaken(taken)) => Some(taken),
            _ => None,
        })
        .collect();
    // Two restarts at least (kick-off, half time), each of four setup actions at least.
    assert!(taken.len() >= 16 + 8, "saw {} actions", taken.len());
    let play_moves = game_events::<EventKind>(&history)
        .iter()
        .filter(|e| is_play_move(e))
        .count();
    assert_eq!(play_moves, 16, "2 halves x 2 sides x 4 moves");
    for taken in taken {
        assert!(
            matches!(
                taken.action.as_ref().and_then(|a| a.game.as_ref()),
                Some(pb::action::Game::KingsGoal(_))
            ),
            "{taken:?}"
        );
        assert!(!taken.notation.is_empty());
    }
    server.stop().await;
}

/// White's king holds the ball in the a1 corner, hemmed in by black pieces without the ball:
/// white can only let its move go by, and black's pawn then captures the king (a goal).
const HEMMED_IN: &str = "4k3/8/8/8/8/8/pp6/Kn6 play w a1 1:0 0-0 w -/-";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_start_is_played_with_typed_actions() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let created = client
        .create_match(
            NewMatch::variant(VARIANT)
                .int_option("moves_per_half", 1)
                .start_position(HEMMED_IN),
        )
        .await
        .unwrap();
    assert_eq!(created.start_position, HEMMED_IN);
    let [white, black] = join_every_seat(&client, &created).await;

    let legal = client.legal_actions(&white).await.unwrap();
    let notations: Vec<&str> = legal.actions.iter().map(|a| a.notation.as_str()).collect();
    assert_eq!(notations, ["--"]);
    let view = legal.view.expect("a view");
    assert_eq!(view.position, HEMMED_IN);
    let Some(pb::match_view::Details::KingsGoal(details)) = view.details else {
        panic!("King's Goal details: {:?}", view.details);
    };
    assert_eq!(details.phase, pb::KingsGoalPhase::Play as i32);
    assert_eq!(details.plies_per_half, 2);

    // A typed action with a field missing, and a typed action that is not legal now.
    let incomplete = typed(ActionKind::Move(pb::KingsGoalMove {
        from: square("a1"),
        to: None,
        promotion: 0,
    }));
    let error = client
        .submit(&white, legal.version, "", incomplete)
        .await
        .expect_err("a move without `to` is refused");
    assert_eq!(error.reason().as_deref(), Some("INVALID_ARGUMENT"));
    assert!(error.to_string().contains("move.to"), "{error}");
    let illegal = typed(ActionKind::Move(pb::KingsGoalMove {
        from: square("a1"),
        to: square("a2"),
        promotion: 0,
    }));
    assert_eq!(
        refusal_reason(client.submit(&white, legal.version, "", illegal).await),
        "ILLEGAL_ACTION"
    );

    // The typed wait is accepted.
    let waited = client
        .submit(
            &white,
            legal.version,
            "wait",
            typed(ActionKind::Wait(pb::KingsGoalWait {})),
        )
        .await
        .unwrap();
    assert_eq!(waited.version, legal.version + 1);
    let after_wait = game_events::<EventKind>(&waited.events);
    assert_eq!(
        after_wait,
        [EventKind::MoveWaived(pb::KingsGoalMoveWaived {
            seat: "white".into()
        })]
    );

    // Black's pawn captures the king: a goal on the last move of the half.
    let captured = client
        .submit(
            &black,
            waited.version,
            "capture",
            typed(ActionKind::Capture(pb::KingsGoalCapture {
                from: square("b2"),
                to: square("a1"),
                promotion: 0,
            })),
        )
        .await
        .unwrap();
    let after_capture = game_events::<EventKind>(&captured.events);
    let [
        EventKind::CarrierCaptured(capture),
        EventKind::GoalScored(goal),
        EventKind::HalfEnded(half),
        EventKind::Restarted(restart),
    ] = after_capture.as_slice()
    else {
        panic!("capture, goal, half time: {after_capture:?}");
    };
    assert_eq!(capture.captured_kind, pb::KingsGoalPieceKind::King as i32);
    assert_eq!(capture.square.as_ref().unwrap().name, "a1");
    assert_eq!(goal.seat, "black");
    assert_eq!(goal.how, pb::KingsGoalGoalKind::KingCaptured as i32);
    assert_eq!(half.half, 1);
    assert_eq!(restart.reason, pb::KingsGoalRestartReason::HalfTime as i32);
    assert_eq!(restart.kicking_seat, "black");
    let notation = captured.events.iter().find_map(|e| match &e.kind {
        Some(Kind::ActionTaken(taken)) => Some(taken.notation.clone()),
        _ => None,
    });
    assert_eq!(notation.as_deref(), Some("bxa1"));

    // The spectator's view shows the second half about to start, black choosing first.
    let view = client
        .get_match(&created.match_id, None)
        .await
        .unwrap()
        .view
        .unwrap();
    let Some(pb::match_view::Details::KingsGoal(details)) = view.details else {
        panic!("King's Goal details: {:?}", view.details);
    };
    assert_eq!(details.phase, pb::KingsGoalPhase::Choice as i32);
    assert_eq!(details.half, 2);
    assert_eq!(details.plies_played, 0);
    assert_eq!(details.kicking_seat, "black");
    assert_eq!(
        details.scores.iter().map(|s| s.score).collect::<Vec<_>>(),
        [0, 1]
    );
    assert!(view.board.unwrap().pieces.is_empty());
    assert_eq!(view.turn.unwrap().to_act, ["black"]);

    // Typed choices: black's first pick is a queen.
    let chosen = client
        .submit(
            &black,
            captured.version,
            "pick",
            typed(ActionKind::Choose(pb::KingsGoalChoose {
                kind: pb::KingsGoalPieceKind::Queen as i32,
            })),
        )
        .await
        .unwrap();
    assert_eq!(
        game_events::<EventKind>(&chosen.events),
        [EventKind::PiecesChosen(pb::KingsGoalPiecesChosen {
            seat: "black".into(),
            kinds: vec![pb::KingsGoalPieceKind::Queen as i32],
        })]
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_options_and_positions_are_refused() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let bad_options = [
        NewMatch::variant(VARIANT).int_option("moves_per_half", 0),
        NewMatch::variant(VARIANT).int_option("moves_per_half", 201),
        NewMatch::variant(VARIANT).bool_option("moves_per_half", true),
        NewMatch::variant(VARIANT).int_option("sets_per_game", 10),
    ];
    for new in bad_options {
        let described = format!("{new:?}");
        assert_eq!(
            refusal_reason(client.create_match(new).await),
            "INVALID_OPTION",
            "{described}"
        );
    }
    let bad_positions = [
        "not a position",
        // Four picks for white, one more than a side takes.
        "8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w QRBN/-",
        // A position whose half is already over.
        "4k3/8/8/8/8/8/pp6/Kn6 play w a1 1:2 0-0 w -/-",
    ];
    for position in bad_positions {
        let new = NewMatch::variant(VARIANT)
            .int_option("moves_per_half", 1)
            .start_position(position);
        assert_eq!(
            refusal_reason(client.create_match(new).await),
            "INVALID_POSITION",
            "{position}"
        );
    }
    server.stop().await;
}
