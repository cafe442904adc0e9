//! A league's worth of rows of every kind, written through the store's own calls: bots and
//! keys (one revoked, one an operator's), matches with joins, actions, answers and ends, the
//! lifecycle feed, seats, inboxes, ratings and their changes, challenges, policies, the queue,
//! and tournaments with rounds, games, results and logs. Texts that need escaping and times
//! beyond 2^53 included.

use crate::{
    AnswerRow, ApiKeyRow, Append, AssignedMatchRow, AssignedState, BotCaps, BotRow, BotSeatRow,
    ChallengeRow, ChallengeState, EntryRow, EntryState, EventRow, FollowerStep, GameResultRow,
    InputKind, InputRow, LifecycleRow, MatchRow, NewInboxItem, NewTournamentLogItem, PairedRound,
    RatingChangeRow, RatingRow, Resolution, StatusChange, Store, TicketPair, TicketRow,
    TicketState, TournamentGameRow, TournamentRoundRow, TournamentRow, TournamentState,
};

/// Nanoseconds in 2030: beyond what a double holds exactly.
pub(super) const T0: i64 = 1_900_000_000_000_000_000;
pub(super) const POOL: &str = "kings-goal/blitz/rated";
pub(super) const BOTS: [&str; 3] = ["bot-a", "bot-b", "bot-c"];

fn bot(index: usize) -> BotRow {
    BotRow {
        bot_id: BOTS[index].to_owned(),
        name: format!("Bot {index} \"the\" \\ ⚽"),
        owner: "tests".to_owned(),
        description: "line one\nline two\ttabbed".to_owned(),
        variants: if index == 0 {
            Vec::new()
        } else {
            vec!["kings-goal".to_owned(), "soccer-chess".to_owned()]
        },
        max_concurrent: 10,
        daily_cap: 1000,
        create_time_nanos: T0 + index as i64,
    }
}

fn key(key_id: &str, bot_id: Option<&str>) -> ApiKeyRow {
    ApiKeyRow {
        key_id: key_id.to_owned(),
        bot_id: bot_id.map(str::to_owned),
        label: format!("label of {key_id}"),
        scopes: if bot_id.is_some() { 1 } else { 4 },
        secret_hash: key_id.bytes().cycle().take(32).collect(),
        create_time_nanos: T0 + 10,
        revoke_time_nanos: None,
    }
}

fn event(seq: u64, owner_seat: Option<u8>) -> EventRow {
    EventRow {
        seq,
        version: seq,
        time_nanos: T0 + seq as i64,
        owner_seat,
        owner_name: owner_seat.map_or(String::new(), |seat| format!("seat {seat}")),
        hidden_step: owner_seat.is_some(),
        kind: vec![seq as u8; 1 + (seq % 7) as usize],
    }
}

fn entry(match_id: &str) -> LifecycleRow {
    LifecycleRow {
        position: 0,
        match_id: match_id.to_owned(),
        variant_id: "kings-goal".to_owned(),
        time_nanos: T0 + 100,
        body: format!("lifecycle of {match_id}").into_bytes(),
    }
}

fn item(bot_id: &str, kind: u32) -> NewInboxItem {
    NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind,
        body: format!("item {kind} for {bot_id}").into_bytes(),
        time_nanos: T0 + 200 + i64::from(kind),
    }
}

fn caps(bot_id: &str) -> BotCaps {
    BotCaps {
        bot_id: bot_id.to_owned(),
        max_concurrent: 100,
        daily_cap: 1000,
        day_start_nanos: T0,
    }
}

fn assigned(match_id: &str, bots: [&str; 2]) -> AssignedMatchRow {
    AssignedMatchRow {
        match_id: match_id.to_owned(),
        bots: bots.map(str::to_owned),
        pool: POOL.to_owned(),
        terms: b"terms".to_vec(),
        assigned_nanos: T0 + 300,
        state: AssignedState::Pending,
    }
}

/// Bots, keys and a policy.
pub(super) async fn accounts(store: &Store) {
    for (index, bot_id) in BOTS.iter().enumerate() {
        let first = key(&format!("key-{index}"), Some(bot_id));
        store.create_bot(bot(index), Some(first)).await.unwrap();
    }
    store
        .create_key(key("key-0-second", Some(BOTS[0])))
        .await
        .unwrap();
    assert!(store.revoke_key("key-0-second", T0 + 20).await.unwrap());
    store.create_key(key("operator", None)).await.unwrap();
    store
        .set_policy(BOTS[0], Some(b"accept everything".to_vec()))
        .await
        .unwrap();
}

/// A match `match_id` between two bots: created, joined, played for a few actions with
/// answers, and finished unless `live`.
pub(super) async fn played(store: &Store, match_id: &str, bots: [&str; 2], live: bool) {
    let row = MatchRow {
        match_id: match_id.to_owned(),
        variant_id: "kings-goal".to_owned(),
        status: 1,
        setup: format!("setup of {match_id}").into_bytes(),
        summary: Vec::new(),
    };
    store
        .create(row, vec![event(0, None)], vec![entry(match_id)])
        .await
        .unwrap();
    let joins = (0..2u8)
        .map(|seat| InputRow {
            number: u64::from(seat),
            kind: InputKind::Joined,
            seat,
            player_name: bots[usize::from(seat)].to_owned(),
            token_hash: Vec::new(),
            account: bots[usize::from(seat)].to_owned(),
            action: Vec::new(),
        })
        .collect();
    store
        .append(Append {
            match_id: match_id.to_owned(),
            inputs: joins,
            events: vec![event(1, None), event(2, Some(1))],
            answer: None,
            status: Some(StatusChange {
                status: 2,
                summary: b"running".to_vec(),
            }),
            lifecycle: vec![entry(match_id)],
        })
        .await
        .unwrap();
    for number in 2..5u64 {
        let seat = (number % 2) as u8;
        store
            .append(Append {
                match_id: match_id.to_owned(),
                inputs: vec![InputRow {
                    number,
                    kind: InputKind::Acted,
                    seat,
                    player_name: String::new(),
                    token_hash: Vec::new(),
                    account: String::new(),
                    action: vec![7, number as u8],
                }],
                events: vec![event(number * 2 - 1, None), event(number * 2, Some(seat))],
                answer: Some(AnswerRow {
                    seat,
                    client_action_id: format!("action-{number}"),
                    response: vec![9, number as u8],
                }),
                status: None,
                lifecycle: Vec::new(),
            })
            .await
            .unwrap();
    }
    if !live {
        store
            .append(Append {
                match_id: match_id.to_owned(),
                inputs: vec![InputRow {
                    number: 5,
                    kind: InputKind::Resigned,
                    seat: 1,
                    player_name: String::new(),
                    token_hash: Vec::new(),
                    account: String::new(),
                    action: Vec::new(),
                }],
                events: vec![event(9, None)],
                answer: None,
                status: Some(StatusChange {
                    status: 3,
                    summary: b"finished".to_vec(),
                }),
                lifecycle: vec![entry(match_id)],
            })
            .await
            .unwrap();
    }
}

/// What the leagues' follower writes for a finished rated match: its seats over, inbox items,
/// both bots' ratings and their changes. For a live match, its seats only.
pub(super) async fn rated(store: &Store, match_id: &str, bots: [&str; 2], over: bool) {
    let position = store.last_position();
    let seats = bots
        .iter()
        .enumerate()
        .map(|(seat, bot_id)| BotSeatRow {
            bot_id: (*bot_id).to_owned(),
            match_id: match_id.to_owned(),
            seat: format!("seat-{seat}"),
            variant_id: "kings-goal".to_owned(),
            time_nanos: T0 + 400,
            live: true,
        })
        .collect();
    let ratings = bots
        .iter()
        .map(|bot_id| RatingRow {
            pool: POOL.to_owned(),
            bot_id: (*bot_id).to_owned(),
            body: format!("rating of {bot_id} after {match_id}").into_bytes(),
        })
        .collect();
    let changes = bots
        .iter()
        .map(|bot_id| RatingChangeRow {
            number: 0,
            match_id: match_id.to_owned(),
            pool: POOL.to_owned(),
            bot_id: (*bot_id).to_owned(),
            body: format!("change of {bot_id} in {match_id}").into_bytes(),
            rated_nanos: T0 + 500,
        })
        .collect();
    if !over {
        let step = FollowerStep {
            follower: "leagues".to_owned(),
            position,
            seats_taken: seats,
            ..FollowerStep::default()
        };
        store.apply_follower_step(step).await.unwrap();
        return;
    }
    store
        .apply_follower_step(FollowerStep {
            follower: "leagues".to_owned(),
            position,
            seats_taken: seats,
            matches_over: vec![match_id.to_owned()],
            inbox: bots.iter().map(|bot_id| item(bot_id, 5)).collect(),
            ratings,
            rating_changes: changes,
            ..FollowerStep::default()
        })
        .await
        .unwrap();
}

/// Challenges (one accepted, one open to any bot), assigned matches and the queue.
pub(super) async fn matchmaking(store: &Store) {
    let challenge = |id: &str, target: Option<&str>| ChallengeRow {
        challenge_id: id.to_owned(),
        challenger: BOTS[0].to_owned(),
        target: target.map(str::to_owned),
        terms: format!("terms of {id}").into_bytes(),
        created_nanos: T0 + 600,
        expires_nanos: T0 + 9_000,
        state: ChallengeState::Open,
        responder: None,
        decline_reason: 0,
        match_id: None,
        resolved_nanos: None,
    };
    store
        .create_challenge(
            challenge("challenge-1", Some(BOTS[1])),
            vec![item(BOTS[1], 1)],
        )
        .await
        .unwrap();
    store
        .create_challenge(challenge("challenge-2", None), Vec::new())
        .await
        .unwrap();
    let resolution = Resolution {
        challenge_id: "challenge-1".to_owned(),
        state: ChallengeState::Accepted,
        responder: Some(BOTS[1].to_owned()),
        decline_reason: 0,
        resolved_nanos: T0 + 700,
        assigned: Some((
            assigned("challenged-1", [BOTS[0], BOTS[1]]),
            vec![caps(BOTS[0]), caps(BOTS[1])],
        )),
        inbox: vec![item(BOTS[0], 2), item(BOTS[1], 2)],
    };
    assert!(matches!(
        store.resolve_challenge(resolution).await.unwrap(),
        crate::Resolved::Done(_)
    ));
    store
        .mark_assigned(
            "challenged-1",
            AssignedState::Pending,
            AssignedState::Created,
            vec![item(BOTS[0], 3)],
        )
        .await
        .unwrap()
        .unwrap();
    let ticket = |id: &str, bot_id: &str| TicketRow {
        ticket_id: id.to_owned(),
        bot_id: bot_id.to_owned(),
        pool: POOL.to_owned(),
        terms: b"queued terms".to_vec(),
        entered_nanos: T0 + 800,
        state: TicketState::Waiting,
        match_id: None,
    };
    for (id, bot_id) in [
        ("ticket-1", BOTS[0]),
        ("ticket-2", BOTS[1]),
        ("ticket-3", BOTS[2]),
    ] {
        store.enter_ticket(ticket(id, bot_id)).await.unwrap();
    }
    let pair = TicketPair {
        tickets: ["ticket-1".to_owned(), "ticket-2".to_owned()],
        assigned: assigned("queued-1", [BOTS[0], BOTS[1]]),
        caps: vec![caps(BOTS[0]), caps(BOTS[1])],
    };
    assert_eq!(
        store.pair_tickets(vec![pair]).await.unwrap(),
        vec![crate::Paired::Done]
    );
    store.append_inbox(vec![item(BOTS[2], 4)]).await.unwrap();
}

/// A running tournament with a round played and a result, and a finished one.
pub(super) async fn tournaments(store: &Store) {
    let tournament = |id: &str| TournamentRow {
        tournament_id: id.to_owned(),
        name: format!("Cup «{id}»"),
        organiser: "operator".to_owned(),
        spec: format!("spec of {id}").into_bytes(),
        state: TournamentState::Open,
        created_nanos: T0 + 1_000,
        starts_nanos: T0 + 2_000,
        rounds_paired: 0,
        finished_nanos: None,
        end_reason: String::new(),
    };
    let log = |id: &str, body: &str| NewTournamentLogItem {
        tournament_id: id.to_owned(),
        kind: 3,
        body: body.as_bytes().to_vec(),
        time_nanos: T0 + 1_100,
    };
    for id in ["cup-1", "cup-2"] {
        assert!(
            store
                .create_tournament(tournament(id), vec![log(id, "created")])
                .await
                .unwrap()
        );
    }
    for bot_id in &BOTS[..2] {
        let entry = EntryRow {
            tournament_id: "cup-1".to_owned(),
            bot_id: (*bot_id).to_owned(),
            rating: 1500,
            joined_nanos: T0 + 1_200,
            first_round: 1,
            state: EntryState::Active,
        };
        store
            .enter_tournament(entry, vec![item(bot_id, 6)], vec![log("cup-1", "entered")])
            .await
            .unwrap();
    }
    let game = TournamentGameRow {
        match_id: "cup-1-game-1".to_owned(),
        tournament_id: "cup-1".to_owned(),
        round: 1,
        bots: [BOTS[0].to_owned(), BOTS[1].to_owned()],
        outcome: None,
        ended_nanos: None,
    };
    let round = PairedRound {
        tournament_id: "cup-1".to_owned(),
        after: 0,
        round: TournamentRoundRow {
            tournament_id: "cup-1".to_owned(),
            round: 1,
            body: b"round 1".to_vec(),
            paired_nanos: T0 + 1_300,
            deadline_nanos: T0 + 5_000,
        },
        assigned: vec![assigned("cup-1-game-1", [BOTS[0], BOTS[1]])],
        inbox: vec![item(BOTS[0], 8), item(BOTS[1], 8)],
        log: vec![log("cup-1", "round 1 paired")],
        games: vec![game],
    };
    store.pair_round(round).await.unwrap().unwrap();
    let position = store.last_position();
    store
        .apply_follower_step(FollowerStep {
            follower: "tournaments".to_owned(),
            position,
            game_results: vec![GameResultRow {
                match_id: "cup-1-game-1".to_owned(),
                outcome: 1,
                ended_nanos: T0 + 1_400,
            }],
            tournament_log: vec![log("cup-1", "game 1 ended")],
            ..FollowerStep::default()
        })
        .await
        .unwrap();
    store
        .set_entry_state(
            "cup-1",
            BOTS[1],
            EntryState::Paused,
            vec![log("cup-1", "paused")],
        )
        .await
        .unwrap();
    store
        .finish_tournament(
            "cup-2",
            TournamentState::Finished,
            T0 + 1_500,
            "nobody came",
            Vec::new(),
            vec![log("cup-2", "finished")],
        )
        .await
        .unwrap()
        .unwrap();
}

/// Everything above, with `matches` matches played by the first two bots: all but the last
/// finished and rated, the last still live, and one match never joined.
pub(super) async fn league(store: &Store, matches: usize) {
    accounts(store).await;
    let bots = [BOTS[0], BOTS[1]];
    for index in 0..matches {
        let match_id = format!("match-{index:04}");
        let live = index + 1 == matches;
        played(store, &match_id, bots, live).await;
        rated(store, &match_id, bots, !live).await;
    }
    store
        .create(
            MatchRow {
                match_id: "never-joined".to_owned(),
                variant_id: "soccer-chess".to_owned(),
                status: 1,
                setup: Vec::new(),
                summary: Vec::new(),
            },
            Vec::new(),
            vec![entry("never-joined")],
        )
        .await
        .unwrap();
    matchmaking(store).await;
    tournaments(store).await;
}
