//! Clocks, timeouts and the endings besides the rules, on a match actor with a real store and
//! tokio's paused time, so minutes of match time pass at once and exactly.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_event::Kind;
use pitchmate_rules::Seed;

use super::actor::{
    self, ActorContext, ActorLimits, MatchHandle, MatchSetup, SeatCall, Submission,
};
use super::chance::MatchChance;
use super::clock::{self, Hosting, TimeControl, TimeoutPolicy};
use crate::error::ServiceError;
use crate::games::{ActionChoice, GameRegistry, HostedGame};
use crate::store::tests::scratch_store;
use crate::store::{InputKind, Store};

const LIMITS: ActorLimits = ActorLimits {
    commands: 8,
    live_capacity: 256,
    expire_unstarted_after: None,
    unload_idle_after: None,
};
const SECOND: Duration = Duration::from_secs(1);

fn game(variant: &str) -> Box<dyn HostedGame> {
    GameRegistry::standard()
        .start(variant, &BTreeMap::new(), Seed::from_number(5), None)
        .unwrap()
}

fn setup(variant: &str, hosting: Hosting) -> MatchSetup {
    MatchSetup {
        match_id: "m".into(),
        variant_id: variant.into(),
        options: BTreeMap::new(),
        chance: MatchChance::draw(Some(5)).unwrap(),
        start_position: None,
        create_time: clock::now(),
        hosting,
    }
}

fn timed(time_control: TimeControl, timeout_policy: TimeoutPolicy) -> Hosting {
    Hosting {
        time_control,
        timeout_policy,
        ..Hosting::default()
    }
}

/// A match with both seats taken; the tokens by seat name.
async fn seated(
    store: &Store,
    variant: &str,
    hosting: Hosting,
) -> (MatchHandle, HashMap<String, String>) {
    let handle = actor::create(
        setup(variant, hosting),
        game(variant),
        &ActorContext::unwatched(LIMITS, store.clone()),
        None,
    )
    .await
    .unwrap();
    let mut tokens = HashMap::new();
    for _ in 0..2 {
        let joined = handle.join(None, "bot".into()).await.unwrap();
        tokens.insert(joined.seat, joined.seat_token);
    }
    (handle, tokens)
}

fn to_act(handle: &MatchHandle) -> String {
    handle.summary().turn.unwrap().to_act[0].clone()
}

/// Plays for the seat to act: King's Goal's whole default choice or placement while it chooses
/// or places (so every turn is one action), else the first legal action.
async fn play(handle: &MatchHandle, tokens: &HashMap<String, String>) -> String {
    let seat = to_act(handle);
    let legal = handle
        .legal_actions(Some(tokens[&seat].clone()), pb::ActionDetail::Unspecified)
        .await
        .unwrap();
    let index = legal
        .actions
        .iter()
        .find(|a| a.notation.ends_with("default"))
        .map_or(0, |a| a.index);
    let submission = Submission {
        expected_version: legal.version,
        client_action_id: String::new(),
        choice: ActionChoice::Index(index),
    };
    handle
        .submit(Some(tokens[&seat].clone()), submission)
        .await
        .unwrap();
    seat
}

/// Lets `time` pass, then waits until the actor has dealt with what that made due (a deadline
/// passing is handled before any command).
async fn pass(handle: &MatchHandle, time: Duration) {
    tokio::time::sleep(time).await;
    handle.events_after(0).await.unwrap();
}

async fn events(handle: &MatchHandle) -> Vec<Kind> {
    handle
        .events_after(0)
        .await
        .unwrap()
        .iter()
        .map(|e| e.kind.clone())
        .collect()
}

fn timeouts(events: &[Kind]) -> Vec<pb::TimedOut> {
    events
        .iter()
        .filter_map(|k| match k {
            Kind::TimedOut(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

fn other(tokens: &HashMap<String, String>, seat: &str) -> String {
    tokens.keys().find(|s| *s != seat).unwrap().clone()
}

fn result(handle: &MatchHandle) -> (pb::MatchStatus, pb::ResultReason, String) {
    let summary = handle.summary();
    let status = summary.status();
    let result = summary.result.unwrap_or_default();
    (status, result.reason(), result.winner)
}

async fn call(
    handle: &MatchHandle,
    tokens: &HashMap<String, String>,
    seat: &str,
    call: SeatCall,
) -> Result<pb::Match, ServiceError> {
    handle.seat_call(Some(tokens[seat].clone()), call).await
}

/// Rebuilds the match from the store, as a restarted server does.
async fn restored(store: &Store, variant: &str) -> MatchHandle {
    let stored = store.load("m").await.unwrap().unwrap();
    actor::restore(
        &stored,
        game(variant),
        &ActorContext::unwatched(LIMITS, store.clone()),
    )
    .unwrap()
}

#[tokio::test(start_paused = true)]
async fn turn_started_carries_the_deadline_and_every_seats_clock() {
    let (store, dir) = scratch_store().await;
    let fischer = TimeControl::Fischer {
        base: 60 * SECOND,
        increment: 5 * SECOND,
    };
    let (handle, tokens) =
        seated(&store, "kings-goal", timed(fischer, TimeoutPolicy::Forfeit)).await;
    pass(&handle, 10 * SECOND).await;
    let before = handle.events_after(0).await.unwrap().len();
    play(&handle, &tokens).await;
    let turns: Vec<(pb::TurnStarted, std::time::SystemTime)> = handle
        .events_after(0)
        .await
        .unwrap()
        .iter()
        .filter_map(|e| match &e.kind {
            Kind::TurnStarted(t) => Some((t.clone(), e.time)),
            _ => None,
        })
        .collect();
    let (first, started) = &turns[0];
    let deadline: std::time::SystemTime = first.deadline.unwrap().try_into().unwrap();
    assert_eq!(deadline, *started + 60 * SECOND);
    assert_eq!(first.clocks.len(), 2);
    let mover = &first.turn.as_ref().unwrap().to_act[0];
    for clock in &first.clocks {
        assert_eq!(
            clock.remaining,
            Some(prost_types::Duration::try_from(60 * SECOND).unwrap())
        );
        assert_eq!(clock.deadline.is_some(), &clock.seat == mover);
    }
    let (second, _) = turns.last().unwrap();
    assert!(handle.events_after(0).await.unwrap().len() > before);
    // The mover used 10 s of 60 and gained 5.
    let mover_clock = second.clocks.iter().find(|c| &c.seat == mover).unwrap();
    assert_eq!(
        mover_clock.remaining,
        Some(prost_types::Duration::try_from(55 * SECOND).unwrap())
    );
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_timeout_forfeits_under_the_forfeit_policy() {
    let (store, dir) = scratch_store().await;
    let per_move = TimeControl::PerMove {
        per_move: 10 * SECOND,
        first_move: 30 * SECOND,
    };
    let (handle, tokens) = seated(
        &store,
        "kings-goal",
        timed(per_move, TimeoutPolicy::Forfeit),
    )
    .await;
    let late = to_act(&handle);
    pass(&handle, 29 * SECOND).await;
    assert_eq!(
        handle.summary().status(),
        pb::MatchStatus::Active,
        "the first move has 30 s"
    );
    pass(&handle, 2 * SECOND).await;
    let events = events(&handle).await;
    assert_eq!(
        timeouts(&events),
        vec![pb::TimedOut {
            seat: late.clone(),
            consecutive: 1,
            forfeited: true
        }]
    );
    assert_eq!(
        result(&handle),
        (
            pb::MatchStatus::Finished,
            pb::ResultReason::Timeout,
            other(&tokens, &late)
        )
    );
    assert!(matches!(events.last(), Some(Kind::MatchEnded(_))));
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn the_server_plays_for_a_late_seat_and_forfeits_it_at_the_limit() {
    let (store, dir) = scratch_store().await;
    let per_move = TimeControl::PerMove {
        per_move: 5 * SECOND,
        first_move: 5 * SECOND,
    };
    let policy = TimeoutPolicy::PlayDefault { forfeit_after: 3 };
    let (handle, tokens) = seated(&store, "kings-goal", timed(per_move, policy)).await;
    let late = to_act(&handle);
    let punctual = other(&tokens, &late);
    // The late seat never acts; the punctual one acts in each of its turns.
    while handle.summary().status() == pb::MatchStatus::Active {
        if to_act(&handle) == punctual {
            play(&handle, &tokens).await;
        } else {
            pass(&handle, 6 * SECOND).await;
        }
    }
    let events = events(&handle).await;
    let counted: Vec<(String, u32, bool)> = timeouts(&events)
        .into_iter()
        .map(|t| (t.seat, t.consecutive, t.forfeited))
        .collect();
    assert_eq!(
        counted,
        vec![
            (late.clone(), 1, false),
            (late.clone(), 2, false),
            (late.clone(), 3, true)
        ]
    );
    // Each timeout that did not forfeit is followed by the server's action for the seat.
    for (index, kind) in events.iter().enumerate() {
        if let Kind::TimedOut(t) = kind
            && !t.forfeited
        {
            assert!(
                matches!(&events[index + 1], Kind::ActionTaken(a) if a.seat == late),
                "{:?}",
                events[index + 1]
            );
        }
    }
    assert_eq!(
        result(&handle),
        (
            pb::MatchStatus::Finished,
            pb::ResultReason::Timeout,
            punctual
        )
    );
    let stored = store.load("m").await.unwrap().unwrap();
    let kinds: Vec<InputKind> = stored.inputs.iter().map(|i| i.kind).collect();
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == InputKind::ActedForTimeout)
            .count(),
        2
    );
    assert_eq!(kinds.last(), Some(&InputKind::TimedOutForfeited));
    // A replay reproduces the server's actions: the rebuilt match equals the stored one.
    let rebuilt = restored(&store, "kings-goal").await;
    assert_eq!(rebuilt.summary(), handle.summary());
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn an_own_action_resets_the_count_of_consecutive_timeouts() {
    let (store, dir) = scratch_store().await;
    let per_move = TimeControl::PerMove {
        per_move: 5 * SECOND,
        first_move: 5 * SECOND,
    };
    let policy = TimeoutPolicy::PlayDefault { forfeit_after: 2 };
    let (handle, tokens) = seated(&store, "kings-goal", timed(per_move, policy)).await;
    let late = to_act(&handle);
    // Timeout, own action, timeout: never two in a row, so no forfeit.
    let mut own_turn_of_late = 0;
    while timeouts(&events(&handle).await).len() < 2 {
        if to_act(&handle) != late {
            play(&handle, &tokens).await;
        } else if own_turn_of_late % 2 == 1 {
            own_turn_of_late += 1;
            play(&handle, &tokens).await;
        } else {
            own_turn_of_late += 1;
            pass(&handle, 6 * SECOND).await;
        }
    }
    let counted: Vec<(u32, bool)> = timeouts(&events(&handle).await)
        .into_iter()
        .map(|t| (t.consecutive, t.forfeited))
        .collect();
    assert_eq!(counted, vec![(1, false), (1, false)]);
    assert_eq!(handle.summary().status(), pb::MatchStatus::Active);
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_restarted_match_keeps_its_clocks() {
    let (store, dir) = scratch_store().await;
    let bank = TimeControl::PerMoveWithBank {
        per_move: 10 * SECOND,
        bank: 20 * SECOND,
    };
    let (handle, tokens) = seated(&store, "kings-goal", timed(bank, TimeoutPolicy::Forfeit)).await;
    // The first seat spends 15 s: 5 s from its bank.
    pass(&handle, 15 * SECOND).await;
    let first = play(&handle, &tokens).await;
    pass(&handle, SECOND).await;
    let second = play(&handle, &tokens).await;
    assert_eq!(to_act(&handle), first);
    drop(handle);

    // The server is down for 20 s of the first seat's 25; after the restart it has 5 s left,
    // not a fresh clock.
    tokio::time::sleep(20 * SECOND).await;
    let rebuilt = restored(&store, "kings-goal").await;
    pass(&rebuilt, 4 * SECOND).await;
    assert_eq!(rebuilt.summary().status(), pb::MatchStatus::Active);
    pass(&rebuilt, 2 * SECOND).await;
    assert_eq!(
        result(&rebuilt),
        (pb::MatchStatus::Finished, pb::ResultReason::Timeout, second)
    );
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_draw_is_offered_and_accepted_and_playing_on_declines_it() {
    let (store, dir) = scratch_store().await;
    let (handle, tokens) = seated(&store, "kings-goal", Hosting::default()).await;
    let first = to_act(&handle);
    let second = other(&tokens, &first);
    let no_offer = call(&handle, &tokens, &second, SeatCall::AcceptDraw).await;
    assert_eq!(no_offer.unwrap_err().reason(), "NO_DRAW_OFFER");

    let offered = call(&handle, &tokens, &first, SeatCall::OfferDraw)
        .await
        .unwrap();
    assert_eq!(offered.draw_offered_by, first);
    assert_eq!(offered.version, 0, "an offer leaves the version alone");
    for seat in [&first, &second] {
        let again = call(&handle, &tokens, seat, SeatCall::OfferDraw).await;
        assert_eq!(again.unwrap_err().reason(), "DRAW_ALREADY_OFFERED");
    }
    let own = call(&handle, &tokens, &first, SeatCall::AcceptDraw).await;
    assert_eq!(own.unwrap_err().reason(), "NO_DRAW_OFFER");
    // The offered seat plays on instead: the offer lapses.
    assert_eq!(play(&handle, &tokens).await, first);
    assert_eq!(
        handle.summary().draw_offered_by,
        first,
        "the offering seat's own action"
    );
    assert_eq!(play(&handle, &tokens).await, second);
    assert_eq!(handle.summary().draw_offered_by, "");
    let lapsed = call(&handle, &tokens, &second, SeatCall::AcceptDraw).await;
    assert_eq!(lapsed.unwrap_err().reason(), "NO_DRAW_OFFER");

    call(&handle, &tokens, &second, SeatCall::OfferDraw)
        .await
        .unwrap();
    let drawn = call(&handle, &tokens, &first, SeatCall::AcceptDraw)
        .await
        .unwrap();
    assert_eq!(
        result(&handle),
        (
            pb::MatchStatus::Finished,
            pb::ResultReason::DrawAgreed,
            String::new()
        )
    );
    assert_eq!(drawn.version, 3);
    let tail: Vec<Kind> = events(&handle)
        .await
        .into_iter()
        .rev()
        .take(3)
        .rev()
        .collect();
    assert!(matches!(&tail[0], Kind::DrawOffered(d) if d.seat == second));
    assert!(matches!(&tail[1], Kind::DrawAccepted(d) if d.seat == first));
    assert!(matches!(&tail[2], Kind::MatchEnded(_)));
    assert_eq!(
        restored(&store, "kings-goal").await.summary(),
        handle.summary()
    );
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_game_that_always_has_a_winner_takes_no_draw_offers() {
    let (store, dir) = scratch_store().await;
    let (handle, tokens) = seated(&store, "xfutebol", Hosting::default()).await;
    let seat = to_act(&handle);
    let before = handle.summary();
    let refused = call(&handle, &tokens, &seat, SeatCall::OfferDraw).await;
    assert_eq!(refused.unwrap_err().reason(), "DRAW_NOT_POSSIBLE");
    assert_eq!(handle.summary(), before);
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_match_aborts_only_before_anyone_played() {
    let (store, dir) = scratch_store().await;
    let (handle, tokens) = seated(&store, "kings-goal", Hosting::default()).await;
    let seat = to_act(&handle);
    let aborted = call(&handle, &tokens, &seat, SeatCall::Abort)
        .await
        .unwrap();
    assert_eq!(aborted.status(), pb::MatchStatus::Aborted);
    assert_eq!(
        result(&handle),
        (
            pb::MatchStatus::Aborted,
            pb::ResultReason::Aborted,
            String::new()
        )
    );
    assert!(matches!(
        events(&handle).await.iter().rev().nth(1),
        Some(Kind::MatchAborted(a)) if a.seat == seat
    ));
    assert_eq!(
        restored(&store, "kings-goal").await.summary(),
        handle.summary()
    );
    dir.remove();

    let (store, dir) = scratch_store().await;
    let (handle, tokens) = seated(&store, "kings-goal", Hosting::default()).await;
    let mover = play(&handle, &tokens).await;
    let before = handle.summary();
    for seat in [mover.clone(), other(&tokens, &mover)] {
        let late = call(&handle, &tokens, &seat, SeatCall::Abort).await;
        assert_eq!(late.unwrap_err().reason(), "ABORT_TOO_LATE");
    }
    assert_eq!(handle.summary(), before);
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_waiting_match_can_be_aborted_by_its_seated_player() {
    let (store, dir) = scratch_store().await;
    let handle = actor::create(
        setup("kings-goal", Hosting::default()),
        game("kings-goal"),
        &ActorContext::unwatched(LIMITS, store.clone()),
        None,
    )
    .await
    .unwrap();
    let joined = handle.join(None, "early".into()).await.unwrap();
    let aborted = handle
        .seat_call(Some(joined.seat_token), SeatCall::Abort)
        .await
        .unwrap();
    assert_eq!(aborted.status(), pb::MatchStatus::Aborted);
    let late = handle.join(None, "late".into()).await;
    assert!(late.is_err());
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn victory_is_claimed_once_the_opponent_stayed_away_long_enough() {
    let (store, dir) = scratch_store().await;
    let hosting = Hosting {
        abandon_after: 30 * SECOND,
        ..Hosting::default()
    };
    let (handle, tokens) = seated(&store, "kings-goal", hosting).await;
    let claimant = to_act(&handle);
    let absent = other(&tokens, &claimant);
    let stream = handle
        .watch(Some(tokens[&absent].clone()), 0)
        .await
        .unwrap();
    pass(&handle, 60 * SECOND).await;
    let watching = call(&handle, &tokens, &claimant, SeatCall::ClaimVictory).await;
    assert_eq!(watching.unwrap_err().reason(), "OPPONENT_CONNECTED");

    // The stream closes; the seat counts as present for 30 s more.
    drop(stream);
    pass(&handle, 29 * SECOND).await;
    let early = call(&handle, &tokens, &claimant, SeatCall::ClaimVictory).await;
    assert_eq!(early.unwrap_err().reason(), "OPPONENT_CONNECTED");
    assert_eq!(handle.summary().status(), pb::MatchStatus::Active);

    // A call with its token counts as being back.
    handle
        .snapshot(Some(tokens[&absent].clone()))
        .await
        .unwrap();
    pass(&handle, 29 * SECOND).await;
    let back = call(&handle, &tokens, &claimant, SeatCall::ClaimVictory).await;
    assert_eq!(back.unwrap_err().reason(), "OPPONENT_CONNECTED");

    pass(&handle, 2 * SECOND).await;
    call(&handle, &tokens, &claimant, SeatCall::ClaimVictory)
        .await
        .unwrap();
    assert_eq!(
        result(&handle),
        (
            pb::MatchStatus::Finished,
            pb::ResultReason::Abandoned,
            claimant.clone()
        )
    );
    assert!(matches!(
        events(&handle).await.iter().rev().nth(1),
        Some(Kind::VictoryClaimed(v)) if v.seat == claimant && v.opponent == absent
    ));
    assert_eq!(
        restored(&store, "kings-goal").await.summary(),
        handle.summary()
    );
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn a_resignation_is_an_event() {
    let (store, dir) = scratch_store().await;
    let (handle, tokens) = seated(&store, "kings-goal", Hosting::default()).await;
    let seat = to_act(&handle);
    call(&handle, &tokens, &seat, SeatCall::Resign)
        .await
        .unwrap();
    assert_eq!(
        result(&handle),
        (
            pb::MatchStatus::Finished,
            pb::ResultReason::Resignation,
            other(&tokens, &seat)
        )
    );
    assert!(matches!(
        events(&handle).await.iter().rev().nth(1),
        Some(Kind::Resigned(r)) if r.seat == seat
    ));
    dir.remove();
}

#[tokio::test(start_paused = true)]
async fn both_clocks_run_in_a_simultaneous_phase() {
    let (store, dir) = scratch_store().await;
    let per_move = TimeControl::PerMove {
        per_move: 10 * SECOND,
        first_move: 10 * SECOND,
    };
    let policy = TimeoutPolicy::PlayDefault { forfeit_after: 0 };
    let (handle, _) = seated(&store, "gridiron", timed(per_move, policy)).await;
    let turn = handle.summary().turn.unwrap();
    assert_eq!(
        turn.to_act.len(),
        2,
        "gridiron opens with both seats drafting"
    );
    pass(&handle, 11 * SECOND).await;
    let mut late: Vec<String> = timeouts(&events(&handle).await)
        .into_iter()
        .map(|t| t.seat)
        .collect();
    late.sort();
    let mut seats = turn.to_act.clone();
    seats.sort();
    assert_eq!(late, seats, "each seat's own clock ran out");
    assert_eq!(handle.summary().status(), pb::MatchStatus::Active);
    // Replaying the server's actions for both seats rebuilds the same match.
    drop(handle);
    let rebuilt = restored(&store, "gridiron").await;
    assert_eq!(rebuilt.summary().status(), pb::MatchStatus::Active);
    dir.remove();
}
