//! XFutebol through the server: two SDK bots finish a match watched by a spectator, typed
//! actions in lineup and play, a custom start position, and refused options.

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::xfutebol_action::Kind as ActionKind;
use pitchmate_client::pb::xfutebol_event::Kind as EventKind;
use pitchmate_client::{Choice, NewMatch, pb};
use pitchmate_e2e::{TestServer, game_events, play_random_match, seated, square, submit_now};

fn typed(kind: ActionKind) -> Choice {
    Choice::Action(pb::Action {
        game: Some(pb::action::Game::Xfutebol(pb::XfutebolAction {
            kind: Some(kind),
        })),
    })
}

fn details(view: Option<&pb::MatchView>) -> pb::XfutebolDetails {
    match view.and_then(|v| v.details.as_ref()) {
        Some(pb::match_view::Details::Xfutebol(details)) => details.clone(),
        other => panic!("no XFutebol details: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_random_bots_finish_a_match_and_the_spectator_sees_its_game_events() {
    let server = TestServer::start().await;
    let finished = play_random_match(
        &server,
        // Short halves keep the test quick; the engine's own tests play full-length matches.
        NewMatch::variant("xfutebol")
            .seed(21)
            .int_option("movements_per_half", 30),
    )
    .await;

    let events = game_events::<EventKind>(&finished.watched);
    let confirmed = events
        .iter()
        .filter(|e| matches!(e, EventKind::LineupConfirmed(_)))
        .count();
    assert_eq!(confirmed, 2, "both sides lined up");
    assert!(events.iter().any(|e| matches!(
        e,
        EventKind::CoinTossed(toss) if toss.purpose() == pb::XfutebolTossPurpose::KickOff
    )));
    assert!(events.iter().any(|e| matches!(e, EventKind::KickOff(_))));
    assert!(events.iter().any(|e| matches!(e, EventKind::PieceMoved(_))));

    let Some(EventKind::MatchEnded(ended)) = events.last() else {
        panic!("the last game event ends the match: {:?}", events.last());
    };
    assert_eq!(ended.winner, finished.result.winner);
    assert_eq!(ended.score, finished.result.scores);

    for event in &finished.watched {
        if let Some(Kind::ActionTaken(taken)) = &event.kind {
            assert!(
                matches!(
                    taken.action.as_ref().and_then(|a| a.game.as_ref()),
                    Some(pb::action::Game::Xfutebol(_))
                ),
                "every action is an XFutebol action: {taken:?}"
            );
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn the_lineup_is_played_with_typed_actions() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(&client, NewMatch::variant("xfutebol").seed(4)).await;

    let legal = client.legal_actions(&home).await.unwrap();
    assert!(legal.actions.iter().all(|a| matches!(
        a.action.as_ref().and_then(|a| a.game.as_ref()),
        Some(pb::action::Game::Xfutebol(_))
    )));
    assert!(
        legal
            .actions
            .iter()
            .any(|a| a.notation == "formation 5-3-2")
    );

    let chosen = submit_now(
        &client,
        &home,
        typed(ActionKind::ChooseFormation(pb::XfutebolChooseFormation {
            formation: pb::XfutebolFormation::FiveThreeTwo as i32,
        })),
    )
    .await
    .expect("a typed formation");
    assert!(
        game_events::<EventKind>(&chosen.events)
            .iter()
            .any(|e| matches!(
                e,
                EventKind::FormationChosen(f)
                    if f.seat == "home" && f.formation() == pb::XfutebolFormation::FiveThreeTwo
            )),
        "{:?}",
        chosen.events
    );

    // Confirming before naming the six specials is readable but not legal.
    let early = submit_now(
        &client,
        &home,
        typed(ActionKind::ConfirmLineup(pb::XfutebolConfirmLineup {})),
    )
    .await
    .unwrap_err();
    assert_eq!(early.reason().as_deref(), Some("ILLEGAL_ACTION"), "{early}");

    // A typed action with a field missing says which.
    let incomplete = submit_now(
        &client,
        &home,
        typed(ActionKind::AssignSpecial(pb::XfutebolAssignSpecial {
            at: None,
            special: pb::XfutebolSpecial::Goaler as i32,
        })),
    )
    .await
    .unwrap_err();
    assert_eq!(
        incomplete.reason().as_deref(),
        Some("INVALID_ARGUMENT"),
        "{incomplete}"
    );
    assert!(incomplete.to_string().contains("assign_special.at"));

    // 5-3-2 puts number 6 on e2 (a defender): name it a Goaler.
    let assigned = submit_now(
        &client,
        &home,
        typed(ActionKind::AssignSpecial(pb::XfutebolAssignSpecial {
            at: square("e2"),
            special: pb::XfutebolSpecial::Goaler as i32,
        })),
    )
    .await
    .expect("a typed special");
    assert!(
        game_events::<EventKind>(&assigned.events)
            .iter()
            .any(|e| matches!(
                e,
                EventKind::SpecialAssigned(s)
                    if s.piece_id == 6 && s.special() == pb::XfutebolSpecial::Goaler
            ))
    );

    let view = client.get_match(&home.match_id, None).await.unwrap().view;
    let shown = details(view.as_ref());
    assert_eq!(shown.phase(), pb::XfutebolPhase::Lineup);
    assert_eq!(shown.home_formation(), pb::XfutebolFormation::FiveThreeTwo);
    let number_six = shown.pieces.iter().find(|p| p.id == 6).unwrap();
    assert_eq!(number_six.role(), pb::XfutebolRole::Goaler);
    assert_eq!(number_six.slot(), pb::XfutebolRole::Defender);

    // The away seat is not to act yet, whatever form the action takes.
    let waiting = submit_now(
        &client,
        &away,
        typed(ActionKind::DefaultLineup(pb::XfutebolDefaultLineup {})),
    )
    .await
    .unwrap_err();
    assert_eq!(waiting.reason().as_deref(), Some("NOT_YOUR_TURN"));
    server.stop().await;
}

/// Both default lineups, then the home attacker stands on e13 with the ball and the away
/// midfielder waits on e11, clear of the shot's path (e14, d15).
const SHOT_POSITION: &str = "h:Kd1,Dc2,Df2,LDd3,Dg3,LMe4,RMb5,RMh5,GAd7,GAf7,Ae13;\
                             a:Kd16,Dc15,Df15,LDd14,Dg14,LMe11,RMb12,RMh12,GAd10,GAf10,Ae9;\
                             ball:e13;to:h";

#[tokio::test]
async fn a_custom_start_position_plays_a_typed_shot_into_the_goal() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(
        &client,
        NewMatch::variant("xfutebol")
            .seed(9)
            .start_position(SHOT_POSITION),
    )
    .await;

    let legal = client.legal_actions(&home).await.unwrap();
    assert_eq!(legal.turn.as_ref().unwrap().phase, "play");
    assert!(legal.actions.iter().any(|a| a.notation == "shoot e13-d16"));
    let view = details(legal.view.as_ref());
    assert_eq!(view.phase(), pb::XfutebolPhase::Play);
    assert_eq!(view.kicked_off_first, "home");

    // Attacker from the penalty area: Goal 90 + Skill 80 + 15 = 185 against the keeper's
    // Defense 90 + Skill 70 = 160, more than the 20 margin: a goal.
    let shot = submit_now(
        &client,
        &home,
        typed(ActionKind::Shoot(pb::XfutebolShoot {
            from: square("e13"),
            goal: square("d16"),
        })),
    )
    .await
    .expect("a typed shot");
    let events = game_events::<EventKind>(&shot.events);
    assert!(
        events.iter().any(|e| matches!(
            e,
            EventKind::Duel(duel)
                if duel.kind() == pb::XfutebolDuelKind::Keeper
                    && duel.initiator_total == 185
                    && duel.opponent_total == 160
                    && duel.outcome() == pb::XfutebolDuelOutcome::InitiatorWins
        )),
        "{events:?}"
    );
    let Some(EventKind::GoalScored(goal)) = events
        .iter()
        .find(|e| matches!(e, EventKind::GoalScored(_)))
    else {
        panic!("no goal: {events:?}");
    };
    assert_eq!(goal.seat, "home");
    assert_eq!(goal.score[0].score, 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, EventKind::KickOff(k) if k.seat == "away")),
        "the side that conceded kicks off: {events:?}"
    );

    let after = client.legal_actions(&away).await.unwrap();
    assert!(!after.actions.is_empty(), "away kicks off");
    let scores = &after.view.as_ref().unwrap().scores;
    assert_eq!(scores[0].seat, "home");
    assert_eq!(scores[0].score, 1);
    assert_eq!(details(after.view.as_ref()).score, *scores);
    server.stop().await;
}

#[tokio::test]
async fn bad_options_and_positions_are_refused() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let refused = [
        (
            NewMatch::variant("xfutebol").int_option("movements_per_half", 5),
            "INVALID_OPTION",
        ),
        (
            NewMatch::variant("xfutebol").text_option("winning_style", "sudden_death"),
            "INVALID_OPTION",
        ),
        (
            NewMatch::variant("xfutebol").bool_option("offside", true),
            "INVALID_OPTION",
        ),
        (
            // No keeper on the home side.
            NewMatch::variant("xfutebol").start_position(SHOT_POSITION.replace("Kd1", "Dd1")),
            "INVALID_POSITION",
        ),
    ];
    for (new, reason) in refused {
        let error = client.create_match(new).await.unwrap_err();
        assert_eq!(error.reason().as_deref(), Some(reason), "{error}");
    }
    let accepted = client
        .create_match(
            NewMatch::variant("xfutebol")
                .text_option("winning_style", "golden_goal")
                .int_option("movements_per_half", 10),
        )
        .await
        .expect("valid options");
    assert_eq!(accepted.variant_id, "xfutebol");
    server.stop().await;
}
