//! Gridiron through the server: two SDK bots finish a match, typed actions, custom start
//! positions, options, and the hidden information (rosters, orders, the ball after a play
//! action) that neither the other team nor a spectator may learn before it is revealed.

use pitchmate_client::pb::gridiron_event::Kind as Gridiron;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{Choice, Client, NewMatch, SeatHandle, pb};
use pitchmate_e2e::{
    TestServer, act, game_event, history_so_far, play_random_match, refusal_reason, seated,
};

/// A whole match at the default options takes thousands of actions; one possession per half,
/// two turns per down and no overtime keep it to a few seconds in a debug build.
fn small_match(seed: u64) -> NewMatch {
    NewMatch::variant("gridiron")
        .seed(seed)
        .int_option("possessions_per_half", 1)
        .int_option("turns_per_down", 2)
        .int_option("overtime_periods", 0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_random_bots_finish_a_match_and_the_spectator_sees_gridiron_events() {
    let server = TestServer::start().await;
    let finished = play_random_match(&server, small_match(11)).await;
    assert_eq!(finished.result.scores.len(), 2);

    let kinds: Vec<&Gridiron> = finished
        .watched
        .iter()
        .filter_map(game_event::<Gridiron>)
        .collect();
    let revealed = kinds
        .iter()
        .filter(|k| matches!(k, Gridiron::RosterRevealed(_)))
        .count();
    assert_eq!(revealed, 2, "both rosters are revealed");
    for (name, seen) in [
        (
            "coin toss",
            kinds.iter().any(|k| matches!(k, Gridiron::CoinTossed(_))),
        ),
        (
            "downs",
            kinds.iter().any(|k| matches!(k, Gridiron::DownStarted(_))),
        ),
        (
            "revealed orders",
            kinds
                .iter()
                .any(|k| matches!(k, Gridiron::OrdersRevealed(_))),
        ),
        (
            "game end",
            kinds.iter().any(|k| matches!(k, Gridiron::GameEnded(_))),
        ),
    ] {
        assert!(seen, "the spectator saw no {name}");
    }
    // The spectator never sees a private event, nor a trace of one in its numbering.
    let private = |kind: &&Gridiron| {
        matches!(
            kind,
            Gridiron::RosterUpdated(_) | Gridiron::OrderWritten(_) | Gridiron::KeeperChosen(_)
        )
    };
    assert!(
        !kinds.iter().any(private),
        "a spectator saw a private event"
    );
    // Once the match is over, its replay shows the whole history, the drafts included.
    let client = server.client().await;
    let replay = client.replay(&finished.match_id).await.unwrap();
    let whole: Vec<&Gridiron> = replay
        .events
        .iter()
        .filter_map(game_event::<Gridiron>)
        .collect();
    assert!(
        whole.iter().filter(|kind| private(kind)).count() >= 4,
        "both rosters were drafted in private"
    );
    assert!(replay.events.len() > finished.watched.len());
    server.stop().await;
}

fn typed(kind: pb::gridiron_action::Kind) -> Choice {
    Choice::Action(pb::Action {
        game: Some(pb::action::Game::Gridiron(pb::GridironAction {
            kind: Some(kind),
        })),
    })
}

/// Every event of the match so far as `seat` (or a spectator) receives it, without what
/// differs between otherwise identical matches: wall-clock times, and the commitment to each
/// match's own secret salt.
async fn history(
    client: &Client,
    match_id: &str,
    seat: Option<&SeatHandle>,
) -> Vec<pb::MatchEvent> {
    history_so_far(client, match_id, seat)
        .await
        .into_iter()
        .map(|mut event| {
            event.time = None;
            if let Some(Kind::MatchCreated(created)) = &mut event.kind {
                created.chance = None;
            }
            event
        })
        .collect()
}

/// Everything the away team and a spectator can learn about a match, by every means the API
/// offers: both event streams, both views, away's legal actions, and what the server answers
/// when away submits each of `probes` (each must be refused, so nothing changes).
#[derive(Debug, PartialEq)]
struct Observed {
    away_events: Vec<pb::MatchEvent>,
    spectator_events: Vec<pb::MatchEvent>,
    away_view: pb::MatchView,
    spectator_view: pb::MatchView,
    away_legal: pb::GetLegalActionsResponse,
    refusals: Vec<(Option<String>, String)>,
}

async fn observe(client: &Client, away: &SeatHandle, probes: &[Choice]) -> Observed {
    let match_id = &away.match_id;
    let away_legal = client.legal_actions(away).await.unwrap();
    let mut refusals = Vec::new();
    for probe in probes {
        let error = client
            .submit(away, away_legal.version, "", probe.clone())
            .await
            .expect_err("a probe must be refused");
        refusals.push((error.reason(), error.to_string()));
    }
    Observed {
        away_events: history(client, match_id, Some(away)).await,
        spectator_events: history(client, match_id, None).await,
        away_view: client
            .get_match(match_id, Some(away))
            .await
            .unwrap()
            .view
            .unwrap(),
        spectator_view: client
            .get_match(match_id, None)
            .await
            .unwrap()
            .view
            .unwrap(),
        away_legal,
        refusals,
    }
}

/// Home has done something private: home's stream has it, away's has no trace of it. Each
/// numbers its own events from 1 without gaps, and what away sees is what home sees of the
/// public events and away's own.
async fn assert_private_events_hidden(client: &Client, home: &SeatHandle, away: &SeatHandle) {
    let home_events = history(client, &home.match_id, Some(home)).await;
    let away_events = history(client, &away.match_id, Some(away)).await;
    for events in [&home_events, &away_events] {
        let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=events.len() as u64).collect::<Vec<_>>());
    }
    let home_only = |event: &pb::MatchEvent| match game_event::<Gridiron>(event) {
        Some(Gridiron::RosterUpdated(u)) => u.seat == "home",
        Some(Gridiron::OrderWritten(o)) => o.seat == "home",
        Some(Gridiron::KeeperChosen(_)) => true,
        _ => {
            matches!(&event.kind, Some(Kind::ActionTaken(a)) if a.seat == "home")
                && !home_public(event)
        }
    };
    assert!(
        home_events.iter().any(home_only),
        "home did something private"
    );
    assert!(
        !away_events.iter().any(home_only),
        "away saw home's private event"
    );
    let kinds = |events: &[pb::MatchEvent], drop: &dyn Fn(&pb::MatchEvent) -> bool| {
        events
            .iter()
            .filter(|e| !drop(e))
            .map(|e| e.kind.clone())
            .collect::<Vec<_>>()
    };
    let away_only = |event: &pb::MatchEvent| match game_event::<Gridiron>(event) {
        Some(Gridiron::RosterUpdated(u)) => u.seat == "away",
        Some(Gridiron::OrderWritten(o)) => o.seat == "away",
        _ => {
            matches!(&event.kind, Some(Kind::ActionTaken(a)) if a.seat == "away")
                && !home_public(event)
        }
    };
    assert_eq!(
        kinds(&home_events, &home_only),
        kinds(&away_events, &away_only),
        "the public events are the same, in the same order"
    );
}

/// Whether an action everyone sees: the commits and the formation, not the drafts.
fn home_public(event: &pb::MatchEvent) -> bool {
    matches!(&event.kind, Some(Kind::ActionTaken(a))
        if ["commit", "ready", "go", "punt"].contains(&a.notation.as_str()))
}

#[tokio::test]
async fn rosters_stay_hidden_until_both_are_done() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let mut observed = Vec::new();
    for captain in [
        pb::GridironPieceKind::Scrambler,
        pb::GridironPieceKind::Safety,
    ] {
        let [home, away] = seated(&client, NewMatch::variant("gridiron").seed(5)).await;
        act(
            &client,
            &home,
            typed(pb::gridiron_action::Kind::ChooseCaptain(
                pb::GridironChooseCaptain {
                    kind: captain as i32,
                },
            )),
        )
        .await;
        act(&client, &home, Choice::Notation("recruit heavy".into())).await;

        // Home sees its draft, typed action included.
        let home_view = client.get_match(&home.match_id, Some(&home)).await.unwrap();
        let Some(pb::match_view::Details::Gridiron(details)) = home_view.view.unwrap().details
        else {
            panic!("no gridiron details");
        };
        assert_eq!(details.own_captain, captain as i32);
        assert_eq!(details.own_standard, [pb::GridironPieceKind::Heavy as i32]);
        assert_private_events_hidden(&client, &home, &away).await;

        let probes = [
            Choice::Notation("roster done".into()),
            typed(pb::gridiron_action::Kind::Ready(pb::GridironReady {})),
        ];
        observed.push(observe(&client, &away, &probes).await);
    }
    let (scrambler, safety) = (&observed[0], &observed[1]);
    assert_eq!(
        scrambler, safety,
        "away learns nothing of home's roster before the reveal"
    );
    let Some(pb::match_view::Details::Gridiron(details)) = &scrambler.away_view.details else {
        panic!("no gridiron details");
    };
    assert_eq!(
        details.own_captain,
        pb::GridironPieceKind::Unspecified as i32
    );
    assert!(details.own_standard.is_empty());
    server.stop().await;
}

/// Home on first down at its rank 10; its qb (#1, on h8) has a fast team-mate (#6) beside it on
/// i8, ready for a play action.
const PLAY_ACTION_START: &str = "Bd2.c,Qh8.c,Hg10.c,Hi10.c,Sf9.c,Sk9.c,Fi8.c/\
                                 Yh16.c,Qa40.c,Hg11.c,Hi11.c,Sf12.c,Sk12.c,Fn14.c \
                                 home 1 10 14 1 1 1-0 0-0";

fn ball(view: &pb::MatchView) -> pb::Ball {
    view.board.as_ref().unwrap().ball.clone().unwrap()
}

#[tokio::test]
async fn orders_and_the_ball_after_a_play_action_stay_hidden_from_the_defence() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let mut before_reveal = Vec::new();
    let mut during_play_action = Vec::new();
    let mut defence_to_act = Vec::new();
    for keeper in [6, 1] {
        let new = NewMatch::variant("gridiron")
            .seed(9)
            .start_position(PLAY_ACTION_START);
        let [home, away] = seated(&client, new).await;
        let match_id = home.match_id.clone();

        // The custom start: the first down's formation with every piece where the text put it.
        let start = client.get_match(&match_id, None).await.unwrap();
        assert_eq!(start.r#match.unwrap().start_position, PLAY_ACTION_START);
        let view = start.view.unwrap();
        let pieces = &view.board.as_ref().unwrap().pieces;
        assert_eq!(pieces.len(), 14);
        assert_eq!(pieces[1].square.as_ref().unwrap().name, "h8");
        assert_eq!(pieces[13].square.as_ref().unwrap().name, "n14");
        assert_eq!(ball(&view).holder_id, Some(1));
        let Some(pb::match_view::Details::Gridiron(details)) = &view.details else {
            panic!("no gridiron details");
        };
        assert_eq!(
            (details.phase.as_str(), details.offense.as_str()),
            ("formation", "home")
        );
        assert_eq!(
            (
                details.down,
                details.line_of_scrimmage,
                details.first_down_line
            ),
            (1, 10, 14)
        );
        assert!(
            view.position.contains(" home 1 10 14 "),
            "the position holds the down: {}",
            view.position
        );

        act(&client, &home, Choice::Notation("ready".into())).await;
        act(&client, &away, Choice::Notation("ready".into())).await;

        // The snap: home writes its orders in secret, typed and in notation.
        act(&client, &home, Choice::Notation("#4 f10.c".into())).await;
        act(
            &client,
            &home,
            typed(pb::gridiron_action::Kind::Fake(pb::GridironFake {
                piece_id: 1,
                partner_id: 6,
                keeper_id: keeper,
            })),
        )
        .await;
        act(
            &client,
            &home,
            typed(pb::gridiron_action::Kind::CommitOrders(
                pb::GridironCommitOrders {},
            )),
        )
        .await;
        let home_view = client
            .get_match(&match_id, Some(&home))
            .await
            .unwrap()
            .view
            .unwrap();
        assert_eq!(home_view.turn.as_ref().unwrap().phase, "snap");
        // Home's position holds its own orders; nobody else's does.
        assert!(
            home_view.position.contains("orders.home=#4_f10.c"),
            "{}",
            home_view.position
        );
        assert_private_events_hidden(&client, &home, &away).await;
        let snap_probes = [
            // Not away's piece: the answer lists away's legal orders, never home's.
            Choice::Notation("#1 h9.c".into()),
            // Only the offence fakes.
            Choice::Notation("#8 fake #13 keep #13".into()),
        ];
        let observed = observe(&client, &away, &snap_probes).await;
        for (_, message) in &observed.refusals {
            for secret in ["f10", "fake #6", "keep"] {
                assert!(!message.contains(secret), "{message} tells {secret}");
            }
        }
        let Some(pb::match_view::Details::Gridiron(details)) = &observed.away_view.details else {
            panic!("no gridiron details");
        };
        assert!(details.own_orders.is_empty());
        assert_eq!(details.committed, ["home"]);
        for view in [&observed.away_view, &observed.spectator_view] {
            assert!(
                view.position.contains("orders.home=?") && !view.position.contains("#4_f10"),
                "home's orders are unknown here: {}",
                view.position
            );
        }
        before_reveal.push(observed);

        // Away moves its fast piece and commits: both orders are revealed and run. The fake
        // partners stay side by side, so the ball stays hidden into the next turn.
        act(&client, &away, Choice::Notation("#13 n13.c".into())).await;
        act(&client, &away, Choice::Notation("commit".into())).await;
        let spectator = history(&client, &match_id, None).await;
        let revealed: Vec<&pb::GridironOrdersRevealed> = spectator
            .iter()
            .filter_map(|e| match game_event::<Gridiron>(e) {
                Some(Gridiron::OrdersRevealed(orders)) => Some(orders),
                _ => None,
            })
            .collect();
        assert_eq!(revealed.len(), 2);
        assert_eq!(revealed[0].seat, "home");
        assert_eq!(revealed[0].orders.len(), 1, "the fake is left out");
        assert!(spectator.iter().any(|e| matches!(
            game_event::<Gridiron>(e),
            Some(Gridiron::BallHidden(pb::GridironBallHidden {
                passer_id: 1,
                partner_id: 6
            }))
        )));
        let home_events = history(&client, &match_id, Some(&home)).await;
        let chosen = home_events
            .iter()
            .find(|e| matches!(game_event::<Gridiron>(e), Some(Gridiron::KeeperChosen(_))))
            .expect("home is told who keeps the ball");
        assert_eq!(
            game_event::<Gridiron>(chosen),
            Some(&Gridiron::KeeperChosen(pb::GridironKeeperChosen {
                keeper_id: keeper
            }))
        );
        assert_private_events_hidden(&client, &home, &away).await;

        // Play action in force: home's reaction turn.
        let home_view = client
            .get_match(&match_id, Some(&home))
            .await
            .unwrap()
            .view
            .unwrap();
        assert_eq!(home_view.turn.as_ref().unwrap().phase, "reaction");
        assert_eq!(
            ball(&home_view).holder_id,
            Some(keeper),
            "the offence knows"
        );
        let observed = observe(&client, &away, &[Choice::Notation("commit".into())]).await;
        for view in [&observed.away_view, &observed.spectator_view] {
            let hidden = ball(view);
            assert_eq!(hidden.holder_id, None);
            assert_eq!(hidden.square, None);
            assert_eq!(hidden.possible_holder_ids, [1, 6]);
        }
        assert_eq!(observed.refusals[0].0.as_deref(), Some("NOT_YOUR_TURN"));
        during_play_action.push(observed);

        // Home ends its reaction turn without orders; now the defence writes its own.
        act(&client, &home, Choice::Notation("commit".into())).await;
        let defence_probes = [
            Choice::Notation("#1 h9.c".into()),
            Choice::Notation("#9 push #42".into()),
            // A typed refusal carries the engine's reason.
            typed(pb::gridiron_action::Kind::Fake(pb::GridironFake {
                piece_id: 8,
                partner_id: 13,
                keeper_id: 13,
            })),
            typed(pb::gridiron_action::Kind::Pass(pb::GridironPass {
                piece_id: 8,
                receiver_id: 13,
            })),
        ];
        let observed = observe(&client, &away, &defence_probes).await;
        assert!(!observed.away_legal.actions.is_empty());
        assert_eq!(ball(&observed.away_view).holder_id, None);
        defence_to_act.push(observed);
    }
    assert_eq!(
        before_reveal[0], before_reveal[1],
        "nothing of home's secret orders reaches away or a spectator before the reveal"
    );
    assert_eq!(
        during_play_action[0], during_play_action[1],
        "who keeps the ball reaches neither away nor a spectator"
    );
    assert_eq!(
        defence_to_act[0], defence_to_act[1],
        "the defence's legal actions, views and errors are the same whoever keeps the ball"
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_options_and_positions_are_refused() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let variants = client.list_variants().await.unwrap();
    let gridiron = variants
        .iter()
        .find(|v| v.id == "gridiron")
        .expect("hosted");
    assert!(gridiron.hidden_information && gridiron.chance);
    assert_eq!((gridiron.files, gridiron.ranks), (16, 48));
    assert_eq!(gridiron.seats, ["home", "away"]);

    for (new, expected) in [
        (
            NewMatch::variant("gridiron").int_option("possessions_per_half", 0),
            "INVALID_OPTION",
        ),
        (
            NewMatch::variant("gridiron").int_option("turns_per_down", 21),
            "INVALID_OPTION",
        ),
        (
            NewMatch::variant("gridiron").bool_option("overtime_periods", true),
            "INVALID_OPTION",
        ),
        (
            NewMatch::variant("gridiron").int_option("quarters", 4),
            "INVALID_OPTION",
        ),
        (
            NewMatch::variant("gridiron").start_position("Qh8.c home 1 10 14 0 1 1-0 0-0"),
            "INVALID_POSITION",
        ),
        (
            // Period 3 is overtime, which these options leave out.
            NewMatch::variant("gridiron")
                .int_option("overtime_periods", 0)
                .start_position(PLAY_ACTION_START.replace(" 1 1-0", " 3 1-0")),
            "INVALID_POSITION",
        ),
    ] {
        let refused = client.create_match(new.clone()).await;
        assert_eq!(refusal_reason(refused), expected, "{new:?}");
    }
    server.stop().await;
}
