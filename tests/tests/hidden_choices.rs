//! Hidden choices stay hidden: while Gridiron's rosters and snap orders are drafted in secret,
//! the other seat and the spectators learn only that a seat has committed, never how many items
//! it drafted or which. Twin matches that differ only in one seat's hidden choices (their number
//! and their content) read exactly the same to the opponent and to a spectator, through every
//! call and stream, timestamps and each match's own identity aside. The drafting seat keeps full
//! access to its draft, also after reconnecting.

use pitchmate_client::pb::gridiron_event::Kind as Gridiron;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::play_response::Item;
use pitchmate_client::{Choice, Client, NewMatch, SeatHandle, pb, read_ndjson};
use pitchmate_e2e::{TestServer, act, game_event, history_so_far, seated};

/// Everything one viewer can read of a match, by every means the API offers.
#[derive(Debug, PartialEq)]
struct Readable {
    events: Vec<pb::MatchEvent>,
    summary: pb::Match,
    view: pb::MatchView,
    listed: pb::Match,
    replay: pb::GetReplayResponse,
    exported: pb::GetReplayResponse,
    /// The opponent only: its legal actions, what its `Play` stream sends up to its prompt, and
    /// the server's answers to actions it may not take.
    legal: Option<pb::GetLegalActionsResponse>,
    play: Vec<pb::PlayResponse>,
    refusals: Vec<String>,
}

/// What differs between any two matches however alike: ids, times, each one's commitment.
fn anonymous_summary(mut summary: pb::Match) -> pb::Match {
    summary.match_id.clear();
    summary.create_time = None;
    summary.chance = None;
    summary
}

fn anonymous_event(mut event: pb::MatchEvent) -> pb::MatchEvent {
    event.time = None;
    if let Some(Kind::MatchCreated(created)) = &mut event.kind {
        created.chance = None;
    }
    event
}

fn anonymous_replay(mut replay: pb::GetReplayResponse) -> pb::GetReplayResponse {
    if let Some(header) = &mut replay.header {
        header.match_id.clear();
        header.create_time = None;
        header.chance = None;
    }
    replay.events = replay.events.into_iter().map(anonymous_event).collect();
    replay
}

async fn export(client: &Client, match_id: &str) -> pb::GetReplayResponse {
    let mut lines = client
        .matches()
        .export_replay(pb::ExportReplayRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut text = String::new();
    while let Some(line) = lines.message().await.unwrap() {
        text.push_str(&line.line);
        text.push('\n');
    }
    read_ndjson(&text).unwrap()
}

/// What `Play` sends the seat from the start of the match up to and including its prompt.
async fn play_until_prompted(client: &Client, seat: &SeatHandle) -> Vec<pb::PlayResponse> {
    let mut stream = client
        .open_play(seat, 0, pb::ActionDetail::Unspecified)
        .await
        .unwrap();
    let mut sent = Vec::new();
    loop {
        let mut message = stream.message().await.unwrap().expect("the stream goes on");
        if let Some(Item::Event(event)) = message.item {
            message.item = Some(Item::Event(anonymous_event(event)));
        }
        let prompted = matches!(message.item, Some(Item::YourTurn(_)));
        sent.push(message);
        if prompted {
            return sent;
        }
    }
}

/// What `opponent` (with its `probes`, each of which must be refused), or a spectator when
/// `None`, can read of the match.
async fn readable(
    client: &Client,
    match_id: &str,
    opponent: Option<(&SeatHandle, &[&str])>,
) -> Readable {
    let seat = opponent.map(|(seat, _)| seat);
    let got = client.get_match(match_id, seat).await.unwrap();
    let listed = client
        .matches()
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .matches
        .into_iter()
        .find(|m| m.match_id == match_id)
        .unwrap();
    let (legal, play, refusals) = match opponent {
        None => (None, Vec::new(), Vec::new()),
        Some((seat, probes)) => {
            let legal = client.legal_actions(seat).await.unwrap();
            let mut refusals = Vec::new();
            for probe in probes {
                let refused = client
                    .submit(
                        seat,
                        legal.version,
                        "",
                        Choice::Notation((*probe).to_owned()),
                    )
                    .await
                    .expect_err("a probe is refused");
                refusals.push(refused.to_string());
            }
            (
                Some(legal),
                play_until_prompted(client, seat).await,
                refusals,
            )
        }
    };
    Readable {
        events: history_so_far(client, match_id, seat)
            .await
            .into_iter()
            .map(anonymous_event)
            .collect(),
        summary: anonymous_summary(got.r#match.unwrap()),
        view: got.view.unwrap(),
        listed: anonymous_summary(listed),
        replay: anonymous_replay(client.replay(match_id).await.unwrap()),
        exported: anonymous_replay(export(client, match_id).await),
        legal,
        play,
        refusals,
    }
}

async fn play_notations(client: &Client, seat: &SeatHandle, notations: &[&str]) {
    for notation in notations {
        act(client, seat, Choice::Notation((*notation).to_owned())).await;
    }
}

/// The events the seat itself sees that no one else does, after it reconnects from the start.
async fn own_private_events(client: &Client, seat: &SeatHandle) -> usize {
    history_so_far(client, &seat.match_id, Some(seat))
        .await
        .iter()
        .filter(|event| {
            matches!(
                game_event::<Gridiron>(event),
                Some(Gridiron::RosterUpdated(_) | Gridiron::OrderWritten(_))
            )
        })
        .count()
}

fn gridiron(details: &pb::MatchView) -> &pb::GridironDetails {
    match &details.details {
        Some(pb::match_view::Details::Gridiron(details)) => details,
        other => panic!("no gridiron details: {other:?}"),
    }
}

/// Home's drafts in the twins: how many items and which differ from twin to twin.
const ROSTER_DRAFTS: [&[&str]; 3] = [
    &["roster default"],
    &[
        "captain safety",
        "recruit heavy",
        "recruit heavy",
        "recruit strong",
        "recruit strong",
        "recruit fast",
        "recruit qb",
    ],
    &["captain lineman", "recruit fast"],
];

#[tokio::test]
async fn rosters_drafted_in_secret_read_the_same_to_the_opponent_and_spectators() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let probes: &[&str] = &["roster done", "ready"];
    let mut drafting = Vec::new();
    let mut committed = Vec::new();
    for draft in ROSTER_DRAFTS {
        let [home, away] = seated(&client, NewMatch::variant("gridiron").seed(5)).await;
        let match_id = home.match_id.clone();
        play_notations(&client, &home, draft).await;

        // Home has its draft, and gets it back when it reconnects.
        assert_eq!(own_private_events(&client, &home).await, draft.len());
        let view = client
            .get_match(&match_id, Some(&home))
            .await
            .unwrap()
            .view
            .unwrap();
        assert_ne!(
            gridiron(&view).own_captain,
            pb::GridironPieceKind::Unspecified as i32
        );

        drafting.push((
            readable(&client, &match_id, Some((&away, probes))).await,
            readable(&client, &match_id, None).await,
        ));
        if draft.len() != 2 {
            // Complete rosters: home commits, and everyone learns just that.
            play_notations(&client, &home, &["roster done"]).await;
            committed.push((
                readable(&client, &match_id, Some((&away, probes))).await,
                readable(&client, &match_id, None).await,
            ));
        }
    }
    assert_eq!(
        drafting[0], drafting[1],
        "a one-item draft and a seven-item one"
    );
    assert_eq!(
        drafting[0], drafting[2],
        "a complete draft and an incomplete one"
    );
    assert_eq!(
        committed[0], committed[1],
        "after committing different rosters"
    );
    let (opponent, spectator) = &committed[0];
    assert_eq!(gridiron(&opponent.view).committed, ["home"]);
    assert!(
        opponent.events.len() > drafting[0].0.events.len(),
        "the commit shows"
    );
    assert_eq!(spectator.events.len(), opponent.events.len());
    server.stop().await;
}

/// Home on first down at its rank 10 with its qb (#1, on h8) beside a fast team-mate (#6, on
/// i8), in formation.
const FORMATION: &str = "Bd2.c,Qh8.c,Hg10.c,Hi10.c,Sf9.c,Sk9.c,Fi8.c/\
                         Yh16.c,Qa40.c,Hg11.c,Hi11.c,Sf12.c,Sk12.c,Fn14.c \
                         home 1 10 14 1 1 1-0 0-0";

/// Home's snap orders in the twins, play action included.
const ORDER_DRAFTS: [&[&str]; 3] = [
    &[],
    &["#4 f10.ne", "#1 fake #6 keep #6", "#2 g11.nw"],
    &["#6 i9.c"],
];

#[tokio::test]
async fn snap_orders_drafted_in_secret_read_the_same_to_the_defence_and_spectators() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let probes: &[&str] = &["#1 h9.c", "#8 fake #13 keep #13"];
    let mut drafting = Vec::new();
    let mut committed = Vec::new();
    for draft in ORDER_DRAFTS {
        let new = NewMatch::variant("gridiron")
            .seed(9)
            .start_position(FORMATION);
        let [home, away] = seated(&client, new).await;
        let match_id = home.match_id.clone();
        play_notations(&client, &home, &["ready"]).await;
        play_notations(&client, &away, &["ready"]).await;
        play_notations(&client, &home, draft).await;

        assert_eq!(own_private_events(&client, &home).await, draft.len());
        let view = client
            .get_match(&match_id, Some(&home))
            .await
            .unwrap()
            .view
            .unwrap();
        assert_eq!(
            gridiron(&view).own_orders.len(),
            draft.len(),
            "home sees its orders"
        );

        drafting.push((
            readable(&client, &match_id, Some((&away, probes))).await,
            readable(&client, &match_id, None).await,
        ));
        play_notations(&client, &home, &["commit"]).await;
        committed.push((
            readable(&client, &match_id, Some((&away, probes))).await,
            readable(&client, &match_id, None).await,
        ));
    }
    assert_eq!(
        drafting[0], drafting[1],
        "no orders and three, a play action among them"
    );
    assert_eq!(drafting[0], drafting[2], "no orders and one");
    assert_eq!(
        committed[0], committed[1],
        "after committing no orders and three"
    );
    assert_eq!(
        committed[0], committed[2],
        "after committing no orders and one"
    );
    let (defence, _) = &committed[0];
    assert_eq!(gridiron(&defence.view).committed, ["home"]);
    for refusal in &defence.refusals {
        for secret in ["f10", "fake #6", "keep #6", "g11", "i9"] {
            assert!(!refusal.contains(secret), "{refusal} tells {secret}");
        }
    }
    server.stop().await;
}
