//! Challenges, assigned matches, caps and policies, against both backends.

use std::future::Future;
use std::path::{Path, PathBuf};

use super::league::{on_postgres, two_stores};
use crate::scratch::ScratchDir;
use crate::{
    AssignedMatchRow, AssignedState, BotCaps, BotLoad, BotRow, BotSeatRow, ChallengeFilter,
    ChallengeRow, ChallengeState, FollowerStep, NewInboxItem, Resolution, Resolved, Store,
    StoreError,
};

const DAY: i64 = 1_800_000_000_000_000_000;

fn bot(bot_id: &str) -> BotRow {
    BotRow {
        bot_id: bot_id.to_owned(),
        name: format!("name-{bot_id}"),
        owner: String::new(),
        description: String::new(),
        variants: Vec::new(),
        max_concurrent: 1,
        daily_cap: 2,
        create_time_nanos: DAY,
    }
}

fn challenge(id: &str, challenger: &str, target: Option<&str>) -> ChallengeRow {
    ChallengeRow {
        challenge_id: id.to_owned(),
        challenger: challenger.to_owned(),
        target: target.map(str::to_owned),
        terms: format!("terms of {id}").into_bytes(),
        created_nanos: DAY + 1,
        expires_nanos: DAY + 100,
        state: ChallengeState::Open,
        responder: None,
        decline_reason: 0,
        match_id: None,
        resolved_nanos: None,
    }
}

fn item(bot_id: &str) -> NewInboxItem {
    NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind: 2,
        body: b"item".to_vec(),
        time_nanos: DAY + 1,
    }
}

fn caps(bot_id: &str) -> BotCaps {
    BotCaps {
        bot_id: bot_id.to_owned(),
        max_concurrent: 1,
        daily_cap: 2,
        day_start_nanos: DAY,
    }
}

fn assigned(match_id: &str, first: &str, second: &str) -> AssignedMatchRow {
    AssignedMatchRow {
        match_id: match_id.to_owned(),
        bots: [first.to_owned(), second.to_owned()],
        pool: "kings-goal/blitz/rated".to_owned(),
        terms: b"terms".to_vec(),
        assigned_nanos: DAY + 2,
        state: AssignedState::Pending,
    }
}

fn accept(challenge_id: &str, responder: &str, matched: AssignedMatchRow) -> Resolution {
    let bots = matched.bots.clone();
    Resolution {
        challenge_id: challenge_id.to_owned(),
        state: ChallengeState::Accepted,
        responder: Some(responder.to_owned()),
        decline_reason: 0,
        resolved_nanos: DAY + 2,
        assigned: Some((matched, bots.iter().map(|b| caps(b)).collect())),
        inbox: bots.iter().map(|b| item(b)).collect(),
    }
}

async fn matchmaking<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.unwrap();
    for id in ["a", "b", "c"] {
        store.create_bot(bot(id), None).await.unwrap();
    }
    // A challenge and its item to the target, in one transaction.
    let written = store
        .create_challenge(challenge("x1", "a", Some("b")), vec![item("b")])
        .await
        .unwrap();
    assert_eq!(written[0].seq, 1);
    store
        .create_challenge(challenge("x2", "c", None), Vec::new())
        .await
        .unwrap();
    let open_to_any = store.challenges(ChallengeFilter::OpenToAny).await.unwrap();
    assert_eq!(open_to_any, vec![challenge("x2", "c", None)]);
    let of_b = store
        .challenges(ChallengeFilter::Of {
            bot_id: "b".into(),
            open_only: true,
        })
        .await
        .unwrap();
    assert_eq!(of_b, vec![challenge("x1", "a", Some("b"))]);
    let expired = store
        .challenges(ChallengeFilter::ExpiredBy(DAY + 100))
        .await
        .unwrap();
    assert!(expired.is_empty(), "expiry is strictly before");
    assert_eq!(
        store
            .challenges(ChallengeFilter::ExpiredBy(DAY + 101))
            .await
            .unwrap()
            .len(),
        2
    );

    // Accepting assigns a match, once.
    let done = store
        .resolve_challenge(accept("x1", "b", assigned("m1", "a", "b")))
        .await
        .unwrap();
    let Resolved::Done(items) = done else {
        panic!("{done:?}")
    };
    assert_eq!(items.len(), 2);
    let resolved = store.challenge("x1").await.unwrap().unwrap();
    assert_eq!(resolved.state, ChallengeState::Accepted);
    assert_eq!(resolved.match_id.as_deref(), Some("m1"));
    assert_eq!(resolved.responder.as_deref(), Some("b"));
    assert_eq!(
        store
            .resolve_challenge(accept("x1", "b", assigned("m9", "a", "b")))
            .await
            .unwrap(),
        Resolved::NotOpen(Some(ChallengeState::Accepted))
    );
    assert_eq!(
        store
            .resolve_challenge(accept("nope", "b", assigned("m9", "a", "b")))
            .await
            .unwrap(),
        Resolved::NotOpen(None)
    );
    assert_eq!(store.assigned_match("m9").await.unwrap(), None);
    assert_eq!(
        store.bot_load("a", DAY).await.unwrap(),
        BotLoad { live: 1, today: 1 }
    );

    // `a` is at its one live match: `c`'s open challenge cannot be taken by it.
    let refused = store
        .resolve_challenge(accept("x2", "a", assigned("m2", "c", "a")))
        .await
        .unwrap();
    assert_eq!(
        refused,
        Resolved::OverCap {
            bot_id: "a".into(),
            load: BotLoad { live: 1, today: 1 }
        }
    );
    assert_eq!(
        store.challenge("x2").await.unwrap().unwrap().state,
        ChallengeState::Open,
        "nothing written"
    );

    // Created, then over (the follower's step): `a` is free again, one match today.
    let pending = store
        .assigned_matches(AssignedState::Pending)
        .await
        .unwrap();
    assert_eq!(pending, vec![assigned("m1", "a", "b")]);
    let told = store
        .mark_assigned(
            "m1",
            AssignedState::Pending,
            AssignedState::Created,
            vec![item("a"), item("b")],
        )
        .await
        .unwrap();
    assert_eq!(told.map(|rows| rows.len()), Some(2));
    let again = store
        .mark_assigned(
            "m1",
            AssignedState::Pending,
            AssignedState::Created,
            vec![item("a")],
        )
        .await
        .unwrap();
    assert_eq!(again, None, "told once");
    // A seat `a` took in m1 counts once, and a match it joined itself counts too.
    let seat = |match_id: &str| BotSeatRow {
        bot_id: "a".into(),
        match_id: match_id.into(),
        seat: "home".into(),
        variant_id: "kings-goal".into(),
        time_nanos: DAY + 3,
        live: true,
    };
    store
        .apply_follower_step(FollowerStep {
            follower: "leagues".into(),
            position: 1,
            seats_taken: vec![seat("m1"), seat("own")],
            ..FollowerStep::default()
        })
        .await
        .unwrap();
    assert_eq!(
        store.bot_load("a", DAY).await.unwrap(),
        BotLoad { live: 2, today: 2 }
    );
    store
        .apply_follower_step(FollowerStep {
            follower: "leagues".into(),
            position: 2,
            matches_over: vec!["m1".into(), "own".into()],
            ..FollowerStep::default()
        })
        .await
        .unwrap();
    assert_eq!(
        store.assigned_match("m1").await.unwrap().unwrap().state,
        AssignedState::Over
    );
    assert_eq!(
        store.bot_load("a", DAY).await.unwrap(),
        BotLoad { live: 0, today: 2 }
    );
    // Now the daily cap (2) stops it.
    let refused = store
        .resolve_challenge(accept("x2", "a", assigned("m2", "c", "a")))
        .await
        .unwrap();
    assert!(matches!(refused, Resolved::OverCap { ref bot_id, .. } if bot_id == "a"));
    // Tomorrow it fits.
    let tomorrow = |mut resolution: Resolution| {
        for cap in &mut resolution.assigned.as_mut().unwrap().1 {
            cap.day_start_nanos = DAY + 10;
        }
        resolution
    };
    let done = store
        .resolve_challenge(tomorrow(accept("x2", "a", assigned("m2", "c", "a"))))
        .await
        .unwrap();
    assert!(matches!(done, Resolved::Done(_)), "{done:?}");

    // Policies.
    assert_eq!(store.policy("b").await.unwrap(), None);
    store.set_policy("b", Some(b"p1".to_vec())).await.unwrap();
    store.set_policy("b", Some(b"p2".to_vec())).await.unwrap();
    assert_eq!(store.policy("b").await.unwrap(), Some(b"p2".to_vec()));

    // All of it survives a reopening.
    store.close().await.unwrap();
    let store = open().await.unwrap();
    assert_eq!(store.policy("b").await.unwrap(), Some(b"p2".to_vec()));
    assert_eq!(
        store
            .assigned_matches(AssignedState::Pending)
            .await
            .unwrap(),
        vec![assigned("m2", "c", "a")]
    );
    store.set_policy("b", None).await.unwrap();
    assert_eq!(store.policy("b").await.unwrap(), None);
    store.close().await.unwrap();
}

/// Two stores accept challenges to one bot at once: its cap of one live match holds.
async fn racing_assignments(first: Store, second: Store) {
    first.create_bot(bot("t"), None).await.unwrap();
    for round in 0..20 {
        let challengers = [format!("p{round}"), format!("q{round}")];
        for (index, challenger) in challengers.iter().enumerate() {
            first.create_bot(bot(challenger), None).await.unwrap();
            first
                .create_challenge(
                    challenge(&format!("c{round}-{index}"), challenger, Some("t")),
                    Vec::new(),
                )
                .await
                .unwrap();
        }
        let resolve = |store: Store, index: usize| {
            let matched = assigned(&format!("m{round}-{index}"), &challengers[index], "t");
            let mut resolution = accept(&format!("c{round}-{index}"), "t", matched);
            // Only the live cap is raced here.
            for cap in &mut resolution.assigned.as_mut().unwrap().1 {
                cap.daily_cap = u32::MAX;
            }
            tokio::spawn(async move { store.resolve_challenge(resolution).await.unwrap() })
        };
        let (a, b) = tokio::join!(resolve(first.clone(), 0), resolve(second.clone(), 1));
        let done = [a.unwrap(), b.unwrap()]
            .iter()
            .filter(|r| matches!(r, Resolved::Done(_)))
            .count();
        assert_eq!(done, 1, "round {round}: exactly one assignment fits");
        // The match ends, freeing `t` for the next round.
        let pending = first
            .assigned_matches(AssignedState::Pending)
            .await
            .unwrap();
        for matched in pending {
            first
                .mark_assigned(
                    &matched.match_id,
                    AssignedState::Pending,
                    AssignedState::Over,
                    Vec::new(),
                )
                .await
                .unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_challenges_assignments_and_caps() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    matchmaking(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_keeps_challenges_assignments_and_caps() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        matchmaking(|| Store::open(&url, &dir)).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_two_stores_on_one_file_never_overbook_a_bot() {
    let dir = ScratchDir::new();
    let (first, second) = two_stores("", &dir.0).await;
    racing_assignments(first, second).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_never_overbook_a_bot() {
    on_postgres(|url| async move {
        let (first, second) = two_stores(&url, Path::new("unused-by-postgres")).await;
        racing_assignments(first, second).await;
    })
    .await;
}

fn ticket(id: &str, bot_id: &str) -> crate::TicketRow {
    crate::TicketRow {
        ticket_id: id.to_owned(),
        bot_id: bot_id.to_owned(),
        pool: "kings-goal/untimed/rated".to_owned(),
        terms: b"terms".to_vec(),
        entered_nanos: DAY + 1,
        state: crate::TicketState::Waiting,
        match_id: None,
    }
}

fn ticket_pair(a: &str, b: &str, match_id: &str, bots: [&str; 2]) -> crate::TicketPair {
    crate::TicketPair {
        tickets: [a.to_owned(), b.to_owned()],
        assigned: assigned(match_id, bots[0], bots[1]),
        caps: bots.iter().map(|b| caps(b)).collect(),
    }
}

/// A cycle's pairs in one call: each sees those before it, so a bot in two pairs gets one.
async fn pairing<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.unwrap();
    for id in ["a", "b", "c", "d"] {
        store.create_bot(bot(id), None).await.unwrap();
    }
    store.enter_ticket(ticket("ta", "a")).await.unwrap();
    let twice = store.enter_ticket(ticket("ta2", "a")).await;
    assert!(matches!(twice, Err(StoreError::Conflict(_))), "{twice:?}");
    for (id, bot_id) in [("tb", "b"), ("tc", "c"), ("tc2", "c"), ("td", "d")] {
        let mut row = ticket(id, bot_id);
        row.pool = format!("{}/{id}", row.pool);
        store.enter_ticket(row).await.unwrap();
    }
    assert!(store.leave_ticket("td").await.unwrap());
    assert!(!store.leave_ticket("td").await.unwrap());
    let outcomes = store
        .pair_tickets(vec![
            ticket_pair("ta", "tb", "m1", ["a", "b"]),
            // `c` is in a second pool too: after its first pair it is at its cap of one.
            ticket_pair("tc", "ta", "m2", ["c", "a"]),
            ticket_pair("tc2", "td", "m3", ["c", "d"]),
        ])
        .await
        .unwrap();
    assert_eq!(outcomes[0], crate::Paired::Done);
    assert_eq!(outcomes[1], crate::Paired::TicketGone("ta".into()));
    assert_eq!(outcomes[2], crate::Paired::TicketGone("td".into()));
    let paired = store.tickets(Some("a"), false).await.unwrap();
    assert_eq!(paired[0].state, crate::TicketState::Paired);
    assert_eq!(paired[0].match_id.as_deref(), Some("m1"));
    assert_eq!(store.tickets(Some("c"), true).await.unwrap().len(), 2);
    // `c` waits in two pools; once paired in one, it is at its cap in the other.
    for (id, bot_id) in [("te", "e"), ("tf", "f")] {
        store.create_bot(bot(bot_id), None).await.unwrap();
        let mut row = ticket(id, bot_id);
        row.pool = format!("{}/{id}", row.pool);
        store.enter_ticket(row).await.unwrap();
    }
    let outcomes = store
        .pair_tickets(vec![
            ticket_pair("tc", "te", "m4", ["c", "e"]),
            ticket_pair("tc2", "tf", "m5", ["c", "f"]),
        ])
        .await
        .unwrap();
    assert_eq!(outcomes[0], crate::Paired::Done);
    assert_eq!(
        outcomes[1],
        crate::Paired::OverCap {
            bot_id: "c".into(),
            load: BotLoad { live: 1, today: 1 }
        }
    );
    assert_eq!(
        store.tickets(Some("c"), true).await.unwrap()[0].ticket_id,
        "tc2",
        "still waiting"
    );
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_pairs_a_cycle_in_one_transaction() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    pairing(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_pairs_a_cycle_in_one_transaction() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        pairing(|| Store::open(&url, &dir)).await;
    })
    .await;
}
