//! A database written by an earlier server opens in this one and every match in it carries on.
//!
//! `fixtures/store-v2/`, `fixtures/store-v4/`, `fixtures/store-v6/`, `fixtures/store-v7/`,
//! `fixtures/store-v8/` and `fixtures/store-v10/` each hold a database written by the server of
//! its time (schema 2, with actions and events as wire messages; schema 4, those in the match
//! core's own format; schema 6, summaries and setups too; schema 7, bots and their API keys, and
//! matches whose seats bots hold; schema 8, each bot's inbox and what the leagues' follower
//! learned of the lifecycle feed; schema 10, the leagues' challenges, acceptance policies,
//! assigned matches, queue tickets and ratings), and a manifest of what the public API showed of
//! each match when it was written (see their READMEs). This server, started on a copy of any of
//! them, must show every match as it was (status, seats, the bots holding them, numbering, turn,
//! position, legal actions, hidden drafts, draw offer, result, chance), answer each recorded
//! client action id as a duplicate, replay every finished match so that it verifies, and let
//! every unfinished one be played to its end, a bot's seat with its bot's key. It must also take
//! every stored key that was live as its bot's, go on refusing the revoked one, keep each bot's
//! inbox as it was and number what it adds after it, and keep the league as it was: challenges,
//! policy, ratings and their changes, the waiting ticket and the assigned match still to be
//! joined. Everything goes through the public API (the SDK), so the test keeps holding later
//! servers, whatever their storage format, to reading this one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pitchmate_client::pb::inbox_service_client::InboxServiceClient;
use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::watch_inbox_response::Kind as InboxKind;
use pitchmate_client::{
    Choice, Client, ClientError, RandomChoice, SeatHandle, pb, play, verify_replay,
};
use pitchmate_e2e::fixture::{
    BotRecord, ChallengeRecord, HiddenRecord, InboxItemRecord, KeyRecord, LeagueRecord, Manifest,
    PolicyRecord, RatingChangeRecord, RatingRecord, ResultRecord, State, StoredMatch, TicketRecord,
    TimeRecord, TurnRecord, bot_ids, hex,
};
use pitchmate_e2e::{TestServer, history_so_far};

/// Schema 2: actions and events as wire messages.
const STORE_V2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/store-v2");
/// Schema 4: actions and events in the match core's own format.
const STORE_V4: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/store-v4");
/// Schema 6: summaries in the match core's own format too, setups in the store's own schema.
const STORE_V6: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/store-v6");
/// Schema 7: bots and their API keys beside the matches, and matches whose seats bots hold.
const STORE_V7: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/store-v7");
/// Schema 8: each bot's inbox, and the leagues' follower's cursor and bot seats.
const STORE_V8: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/store-v8");
/// Schema 10: the leagues: challenges, acceptance policies, assigned matches, the matchmaking
/// queue and Glicko-2 ratings.
const STORE_V10: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/store-v10");

/// How far from the stored deadline the clock may be read either way: the test's own clock
/// and the moment the server handles the deadline may differ by this much.
const CLOCK_MARGIN: Duration = Duration::from_secs(300);

fn manifest(fixture: &str) -> Manifest {
    let path = Path::new(fixture).join("manifest.json");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

/// The seats taken when the fixture was written, each with what acts for it: the token the
/// manifest kept, or for a seat a bot holds, a key of its bot.
fn taken_seats(manifest: &Manifest, stored: &StoredMatch) -> Vec<SeatHandle> {
    stored
        .tokens
        .keys()
        .map(|seat| SeatHandle {
            match_id: stored.match_id.clone(),
            seat: seat.clone(),
            token: manifest.credential(stored, seat),
        })
        .collect()
}

/// What the running clock of a match has done since the fixture was written, as far as the
/// test's clock can tell.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ClockNow {
    /// No clock, or its deadline is still ahead: the match must be exactly as stored.
    Running,
    /// The deadline passed: the server must have played the late seat's default.
    RunOut,
    /// Too close to the deadline to tell.
    EitherWay,
}

fn clock_now(stored: &StoredMatch) -> ClockNow {
    let Some(clock) = &stored.clock else {
        return ClockNow::Running;
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let margin = CLOCK_MARGIN.as_secs() as i64;
    if now < clock.deadline_unix_secs - margin {
        ClockNow::Running
    } else if now > clock.deadline_unix_secs + margin {
        ClockNow::RunOut
    } else {
        ClockNow::EitherWay
    }
}

/// The events a spectator receives after `after_seq` up to `last_seq`.
async fn events_between(
    client: &Client,
    match_id: &str,
    after_seq: u64,
    last_seq: u64,
) -> Vec<pb::MatchEvent> {
    let mut stream = client.watch(match_id, after_seq, None).await.unwrap();
    let mut events = Vec::new();
    while after_seq + (events.len() as u64) < last_seq {
        let message = stream.message().await.unwrap().expect("more events");
        if let Some(pb::stream_match_events_response::Item::Event(event)) = message.item {
            events.push(event);
        }
    }
    events
}

/// A match whose clock ran out since the fixture was written: the late seat timed out without
/// forfeiting, the server played its default, and its own draw offer still stands.
async fn check_clock_ran_out(client: &Client, stored: &StoredMatch, summary: &pb::Match) {
    let name = &stored.name;
    let clock = stored.clock.as_ref().unwrap();
    let since = events_between(
        client,
        &stored.match_id,
        stored.spectator.last_seq,
        summary.last_seq,
    )
    .await;
    match since.first().and_then(|e| e.kind.as_ref()) {
        Some(Kind::TimedOut(timed_out)) => {
            assert_eq!(
                (timed_out.seat.as_str(), timed_out.consecutive),
                (clock.seat.as_str(), 1),
                "{name}"
            );
            assert!(!timed_out.forfeited, "{name}: the policy plays a default");
        }
        other => panic!("{name}: after the stored events comes {other:?}, not a timeout"),
    }
    assert!(
        since.iter().any(|e| matches!(&e.kind,
            Some(Kind::ActionTaken(taken)) if taken.seat == clock.seat)),
        "{name}: the server played the late seat's default"
    );
    assert_eq!(summary.status(), pb::MatchStatus::Active, "{name}");
    assert_eq!(
        summary.draw_offered_by, clock.seat,
        "{name}: the offer stands"
    );
}

/// Everything the manifest recorded of `stored` is what the server shows now, before anything
/// is played.
async fn check_as_stored(client: &Client, manifest: &Manifest, stored: &StoredMatch) {
    let name = &stored.name;
    let got = client.get_match(&stored.match_id, None).await.unwrap();
    let (summary, view) = (got.r#match.unwrap(), got.view.unwrap());
    assert_eq!(summary.variant_id, stored.variant_id, "{name}");
    let seats: Vec<(String, bool, String)> = summary
        .seats
        .iter()
        .map(|s| (s.seat.clone(), s.occupied, s.player_name.clone()))
        .collect();
    let expected: Vec<(String, bool, String)> = stored
        .seats
        .iter()
        .map(|s| {
            (
                s.seat.clone(),
                stored.tokens.contains_key(&s.seat),
                s.player_name.clone(),
            )
        })
        .collect();
    assert_eq!(seats, expected, "{name}: seats");
    if let Some(recorded) = &stored.bot_ids {
        assert_eq!(
            &bot_ids(&summary),
            recorded,
            "{name}: the bots holding seats"
        );
    }

    // Only a match whose clock may have run out since can differ from what was stored.
    let clock = clock_now(stored);
    let as_stored = clock == ClockNow::Running;
    match clock {
        ClockNow::Running => {
            assert_eq!(summary.status(), stored.status(), "{name}");
            assert_eq!(
                (summary.last_seq, summary.version),
                (stored.spectator.last_seq, stored.spectator.version),
                "{name}: the spectator's numbering"
            );
            assert_eq!(
                summary
                    .turn
                    .as_ref()
                    .filter(|_| summary.status() == pb::MatchStatus::Active)
                    .map(TurnRecord::of),
                stored.turn,
                "{name}: turn"
            );
            assert_eq!(view.position, stored.position, "{name}: position");
            assert_eq!(summary.draw_offered_by, stored.draw_offered_by, "{name}");
        }
        ClockNow::RunOut => check_clock_ran_out(client, stored, &summary).await,
        ClockNow::EitherWay => {
            assert_eq!(summary.status(), pb::MatchStatus::Active, "{name}");
            assert_eq!(summary.draw_offered_by, stored.draw_offered_by, "{name}");
        }
    }
    assert_eq!(
        summary.result.as_ref().map(ResultRecord::of),
        stored.result,
        "{name}: result"
    );

    check_chance(stored, summary.chance.as_ref().unwrap());

    // Each seat, by the token or key only the manifest kept, sees its own numbering and
    // actions.
    let mut drafted = BTreeMap::new();
    for seat in taken_seats(manifest, stored) {
        let own = client
            .get_match(&stored.match_id, Some(&seat))
            .await
            .unwrap_or_else(|e| panic!("{name}: {} by its token: {e}", seat.seat));
        if let Some(pb::match_view::Details::Gridiron(details)) = own.view.and_then(|v| v.details) {
            drafted.insert(seat.seat.clone(), HiddenRecord::drafted_items(&details));
        }
        if !as_stored {
            continue;
        }
        let own = own.r#match.unwrap();
        let seen = &stored.seen_by_seat[&seat.seat];
        assert_eq!(
            (own.last_seq, own.version),
            (seen.last_seq, seen.version),
            "{name}: {}'s numbering",
            seat.seat
        );
        if let Some(notations) = stored.legal_by_seat.get(&seat.seat) {
            let legal = client
                .legal_actions_in(&seat, pb::ActionDetail::Notation)
                .await
                .unwrap();
            assert_eq!(legal.version, seen.version, "{name}: {}", seat.seat);
            let mut now: Vec<String> = legal.actions.into_iter().map(|a| a.notation).collect();
            now.sort();
            assert_eq!(&now, notations, "{name}: {}'s legal actions", seat.seat);
        }
    }
    if let Some(hidden) = &stored.hidden {
        let Some(pb::match_view::Details::Gridiron(details)) = &view.details else {
            panic!("{name}: no Gridiron details");
        };
        assert_eq!(details.phase, hidden.phase, "{name}");
        assert_eq!(
            details.committed, hidden.committed,
            "{name}: committed seats"
        );
        assert_eq!(drafted, hidden.drafted, "{name}: each seat's own draft");
    }

    // The stored events stream from the first without a gap, as every viewer numbers them.
    if as_stored {
        let seats = taken_seats(manifest, stored);
        for seat in std::iter::once(None).chain(seats.iter().map(Some)) {
            let events = history_so_far(client, &stored.match_id, seat).await;
            let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
            let last = seat.map_or(stored.spectator.last_seq, |s| {
                stored.seen_by_seat[&s.seat].last_seq
            });
            assert_eq!(seqs, (1..=last).collect::<Vec<_>>(), "{name}: {seat:?}");
        }
    }

    if let Some(retry) = &stored.retry {
        let seat = taken_seats(manifest, stored)
            .into_iter()
            .find(|s| s.seat == retry.seat)
            .unwrap();
        let again = client
            .submit(
                &seat,
                retry.expected_version,
                &retry.client_action_id,
                Choice::Notation(retry.notation.clone()),
            )
            .await
            .unwrap_or_else(|e| panic!("{name}: retry of {}: {e}", retry.client_action_id));
        assert!(
            again.duplicate,
            "{name}: {} is answered again",
            retry.client_action_id
        );
        assert_eq!(again.version, retry.answered_version, "{name}");
        let seqs: Vec<u64> = again.events.iter().map(|e| e.seq).collect();
        assert_eq!(
            seqs, retry.answered_seqs,
            "{name}: the first answer's events"
        );
        let taken = again.events.iter().find_map(|e| match &e.kind {
            Some(Kind::ActionTaken(taken)) => Some(taken.notation.clone()),
            _ => None,
        });
        assert_eq!(taken.as_deref(), Some(retry.notation.as_str()), "{name}");
    }

    if stored.state.is_over() {
        let replay = client.replay(&stored.match_id).await.unwrap();
        assert_eq!(
            Some(replay.events.len() as u64),
            stored.replay_events,
            "{name}: the whole replay"
        );
        let verified = verify_replay(&replay).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            verified.seed_chosen_by_client,
            stored.client_seed.is_some(),
            "{name}"
        );
    }
}

/// The commitment is the one published at creation; the seed is revealed once the match is
/// over and not before, and a seed the creator chose is the one it chose.
fn check_chance(stored: &StoredMatch, chance: &pb::Chance) {
    let name = &stored.name;
    assert_eq!(hex(&chance.commitment), stored.commitment, "{name}");
    let source = match stored.client_seed {
        Some(_) => pb::SeedSource::Client,
        None => pb::SeedSource::Server,
    };
    assert_eq!(chance.seed_source(), source, "{name}");
    if stored.state.is_over() {
        assert_eq!((chance.seed.len(), chance.salt.len()), (32, 32), "{name}");
        if let Some(seed) = stored.client_seed {
            let mut key = seed.to_le_bytes().to_vec();
            key.resize(32, 0);
            assert_eq!(chance.seed, key, "{name}: the creator's seed");
        }
    } else {
        assert!(
            chance.seed.is_empty() && chance.salt.is_empty(),
            "{name}: the seed of a match in play stays secret"
        );
    }
}

/// The server lists exactly the fixture's matches, each with its stored status.
async fn check_listing(client: &Client, manifest: &Manifest) {
    let mut listed = BTreeMap::new();
    let mut page_token = String::new();
    loop {
        let page = client
            .matches()
            .list_matches(pb::ListMatchesRequest {
                page_size: 500,
                page_token,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        for m in page.matches {
            listed.insert(m.match_id.clone(), m.status);
        }
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    let ids: BTreeSet<&String> = listed.keys().collect();
    // The matches the league assigned are listed too (the test of the league checks them).
    let assigned = manifest
        .league
        .iter()
        .flat_map(|league| league.challenges.values())
        .map(|c| &c.match_id)
        .filter(|id| !id.is_empty());
    let stored: BTreeSet<&String> = manifest
        .matches
        .iter()
        .map(|m| &m.match_id)
        .chain(assigned)
        .collect();
    assert_eq!(ids, stored, "the listing holds the fixture's matches");
    for m in &manifest.matches {
        // A clock that ran out plays a default: the match stays active either way.
        assert_eq!(listed[&m.match_id], m.status() as i32, "{}: listed", m.name);
    }
}

/// Takes the free seats, then ends the match: accepts a standing draw offer, or lets random
/// bots play both seats to the end, acting for the taken `seats` with what they carry (a seat
/// token, or a bot's key). Returns how it ended.
async fn play_on(
    client: Client,
    stored: StoredMatch,
    mut seats: Vec<SeatHandle>,
) -> pb::MatchResult {
    let name = stored.name.clone();
    for seat in &stored.seats {
        if !stored.tokens.contains_key(&seat.seat) {
            let joined = client
                .join(
                    &stored.match_id,
                    Some(&seat.seat),
                    &format!("{}-late", seat.seat),
                )
                .await
                .unwrap_or_else(|e| panic!("{name}: join {}: {e}", seat.seat));
            seats.push(joined);
        }
    }
    if let Some(clock) = &stored.clock {
        let other = seats.iter().find(|s| s.seat != clock.seat).unwrap();
        let ended = client
            .accept_draw(other)
            .await
            .unwrap_or_else(|e| panic!("{name}: accept the stored offer: {e}"));
        return ended.result.unwrap();
    }
    let players: Vec<_> = seats
        .into_iter()
        .enumerate()
        .map(|(i, seat)| {
            let client = client.clone();
            tokio::spawn(async move {
                play(&client, &seat, &mut RandomChoice::seeded(i as u64 + 7)).await
            })
        })
        .collect();
    let mut results = Vec::new();
    for player in players {
        let result = player.await.unwrap();
        results.push(result.unwrap_or_else(|e| panic!("{name}: play: {e}")));
    }
    assert!(
        results.windows(2).all(|pair| pair[0] == pair[1]),
        "{name}: every seat saw the same end: {results:?}"
    );
    results.remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_2_database_opens_as_it_was_and_every_unfinished_match_plays_to_its_end() {
    opens_as_it_was_and_plays_to_the_end(STORE_V2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_4_database_opens_as_it_was_and_every_unfinished_match_plays_to_its_end() {
    opens_as_it_was_and_plays_to_the_end(STORE_V4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_6_database_opens_as_it_was_and_every_unfinished_match_plays_to_its_end() {
    opens_as_it_was_and_plays_to_the_end(STORE_V6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_7_database_opens_as_it_was_and_every_unfinished_match_plays_to_its_end() {
    opens_as_it_was_and_plays_to_the_end(STORE_V7).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_8_database_opens_as_it_was_and_every_unfinished_match_plays_to_its_end() {
    opens_as_it_was_and_plays_to_the_end(STORE_V8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_10_database_opens_as_it_was_and_every_unfinished_match_plays_to_its_end() {
    opens_as_it_was_and_plays_to_the_end(STORE_V10).await;
}

async fn opens_as_it_was_and_plays_to_the_end(fixture: &str) {
    let manifest = manifest(fixture);
    for state in State::ALL {
        assert!(
            manifest.matches.iter().any(|m| m.state == state),
            "the fixture holds no match {state:?}"
        );
    }
    let finished_seeds: BTreeSet<bool> = manifest
        .matches
        .iter()
        .filter(|m| m.state.is_over() && m.state != State::Aborted)
        .map(|m| m.client_seed.is_some())
        .collect();
    assert_eq!(
        finished_seeds.len(),
        2,
        "finished matches with seeds of the creator's and of the server's"
    );

    // The waiting matches are older than the default expiry of unstarted matches; here they
    // must be found as they were stored (`waiting_matches_expire` shows the expiry).
    let server = TestServer::start_on_copy_of(&Path::new(fixture).join("data"), |settings| {
        settings.limits.expire_unstarted_secs = 0;
    })
    .await;
    let client = server.client().await;
    check_listing(&client, &manifest).await;
    for stored in &manifest.matches {
        check_as_stored(&client, &manifest, stored).await;
    }

    let unfinished: Vec<&StoredMatch> = manifest
        .matches
        .iter()
        .filter(|m| !m.state.is_over())
        .collect();
    let playing: Vec<_> = unfinished
        .iter()
        .map(|stored| {
            let seats = taken_seats(&manifest, stored);
            tokio::spawn(play_on(client.clone(), (*stored).clone(), seats))
        })
        .collect();
    for (stored, playing) in unfinished.iter().zip(playing) {
        let name = &stored.name;
        let result = playing.await.unwrap();
        let expected_reason = match stored.state {
            State::ClockWithDrawOffer => pb::ResultReason::DrawAgreed,
            _ => pb::ResultReason::Rules,
        };
        assert_eq!(result.reason(), expected_reason, "{name}: {result:?}");
        let summary = client
            .get_match(&stored.match_id, None)
            .await
            .unwrap()
            .r#match
            .unwrap();
        assert_eq!(summary.status(), pb::MatchStatus::Finished, "{name}");
        assert_eq!(summary.result.as_ref(), Some(&result), "{name}");
        let verified = client
            .verify_match(&stored.match_id)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            verified.seed_chosen_by_client,
            stored.client_seed.is_some(),
            "{name}"
        );
    }
    server.stop().await;
}

/// A server with the default expiry of unstarted matches opens the fixture, whose waiting
/// matches were stored longer ago than that: each is aborted at once with reason EXPIRED, and
/// the expiry is an event of its history like any ending.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_matches_stored_with_schema_2_expire() {
    waiting_matches_expire(STORE_V2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_matches_stored_with_schema_4_expire() {
    waiting_matches_expire(STORE_V4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_matches_stored_with_schema_6_expire() {
    waiting_matches_expire(STORE_V6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_matches_stored_with_schema_7_expire() {
    waiting_matches_expire(STORE_V7).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_matches_stored_with_schema_8_expire() {
    waiting_matches_expire(STORE_V8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_matches_stored_with_schema_10_expire() {
    waiting_matches_expire(STORE_V10).await;
}

async fn waiting_matches_expire(fixture: &str) {
    let manifest = manifest(fixture);
    let server = TestServer::start_on_copy_of(&Path::new(fixture).join("data"), |settings| {
        settings.limits.expire_unstarted_secs = 1;
    })
    .await;
    let client = server.client().await;
    let waiting: Vec<&StoredMatch> = manifest
        .matches
        .iter()
        .filter(|m| matches!(m.state, State::WaitingEmpty | State::WaitingOneSeat))
        .collect();
    assert_eq!(waiting.len(), 2);
    for stored in waiting {
        let name = &stored.name;
        let mut summary = None;
        for _ in 0..500 {
            let found = client
                .get_match(&stored.match_id, None)
                .await
                .unwrap()
                .r#match
                .unwrap();
            if found.status() == pb::MatchStatus::Aborted {
                summary = Some(found);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let summary = summary.unwrap_or_else(|| panic!("{name} never expired"));
        let result = summary.result.clone().unwrap();
        assert_eq!(result.reason(), pb::ResultReason::Expired, "{name}");
        assert!(result.winner.is_empty(), "{name}");
        client
            .verify_match(&stored.match_id)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let replay = client.replay(&stored.match_id).await.unwrap();
        let header = replay.header.as_ref().unwrap();
        assert_eq!(
            header.status(),
            pb::MatchStatus::Aborted,
            "{name}: as GetMatch says"
        );
        assert_eq!(header.result.as_ref(), Some(&result), "{name}");
        let ended = replay.events.last().and_then(|e| e.kind.clone());
        assert!(
            matches!(ended, Some(pb::match_event::Kind::MatchEnded(_))),
            "{name}: the expiry is in the history: {ended:?}"
        );
    }
    server.stop().await;
}

/// `message` presenting `key` as `authorization: Bearer`, as a bot sends it on any service.
fn with_key<T>(key: &str, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    let value = format!("Bearer {key}")
        .parse()
        .expect("a key fits in a header");
    request.metadata_mut().insert("authorization", value);
    request
}

/// The code and reason of a refused call.
fn refusal(status: tonic::Status) -> (tonic::Code, String) {
    let code = status.code();
    let reason = ClientError::from(status).reason().unwrap_or_default();
    (code, reason)
}

/// The bots stored with schema 7 and later outlast the server that wrote them, as the keys they
/// were given: every key that was live still acts as its bot, the revoked one stays refused
/// (also for the seat it took), each bot is found by name as it was, and the bot-held
/// unfinished match plays to its end with nothing but the bots' keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_7_database_keeps_its_bots_and_their_keys() {
    keeps_its_bots_and_their_keys(STORE_V7).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_8_database_keeps_its_bots_and_their_keys() {
    keeps_its_bots_and_their_keys(STORE_V8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_10_database_keeps_its_bots_and_their_keys() {
    keeps_its_bots_and_their_keys(STORE_V10).await;
}

async fn keeps_its_bots_and_their_keys(fixture: &str) {
    let manifest = manifest(fixture);
    assert!(
        manifest
            .bots
            .iter()
            .any(|bot| bot.keys.iter().any(|key| key.revoked)),
        "the fixture holds a revoked key"
    );
    let held: Vec<&StoredMatch> = manifest
        .matches
        .iter()
        .filter(|m| !m.bot_seats.is_empty())
        .collect();
    assert!(
        held.iter().any(|m| m.state.is_over()) && held.iter().any(|m| !m.state.is_over()),
        "the fixture holds a finished and an unfinished match of bots"
    );

    let server = TestServer::start_on_copy_of(&Path::new(fixture).join("data"), |settings| {
        settings.limits.expire_unstarted_secs = 0;
    })
    .await;
    let client = server.client().await;
    let mut bots = pb::bot_service_client::BotServiceClient::connect(server.url())
        .await
        .unwrap();
    for bot in &manifest.bots {
        let name = &bot.name;
        let found = bots
            .get_bot(pb::GetBotRequest {
                name: name.clone(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{name}: get by name: {e}"))
            .into_inner()
            .bot
            .unwrap();
        assert_eq!(
            (
                &found.bot_id,
                &found.name,
                &found.owner,
                &found.description,
                &found.variants,
                found.max_concurrent,
                found.daily_cap,
                found.create_time.map(|t| t.seconds),
            ),
            (
                &bot.bot_id,
                &bot.name,
                &bot.owner,
                &bot.description,
                &bot.variants,
                bot.max_concurrent,
                bot.daily_cap,
                Some(bot.create_time_unix_secs),
            ),
            "{name}: as stored"
        );

        for key in &bot.keys {
            let answer = bots
                .who_am_i(with_key(&key.secret, pb::WhoAmIRequest {}))
                .await;
            if key.revoked {
                let refused = refusal(answer.expect_err("a revoked key stays revoked"));
                assert_eq!(
                    refused,
                    (tonic::Code::Unauthenticated, "API_KEY_REVOKED".to_owned()),
                    "{name}: {}",
                    key.key_id
                );
                continue;
            }
            let me = answer
                .unwrap_or_else(|e| panic!("{name}: key {}: {e}", key.key_id))
                .into_inner();
            assert_eq!(me.bot.map(|b| b.bot_id), Some(bot.bot_id.clone()), "{name}");
            let shown = me.key.unwrap();
            assert_eq!(
                (
                    shown.key_id,
                    shown.label,
                    KeyRecord::scope_names(&shown.scopes)
                ),
                (key.key_id.clone(), key.label.clone(), key.scopes.clone()),
                "{name}: the key as made"
            );
        }

        // The bot's own listing keeps every key, the revoked one marked so.
        let manage = bot
            .keys
            .iter()
            .find(|k| !k.revoked && k.scopes.iter().any(|s| s == "API_KEY_SCOPE_MANAGE"))
            .unwrap_or_else(|| panic!("{name}: no key manages the bot"));
        let listed = bots
            .list_api_keys(with_key(
                &manage.secret,
                pb::ListApiKeysRequest {
                    bot_id: bot.bot_id.clone(),
                    ..Default::default()
                },
            ))
            .await
            .unwrap_or_else(|e| panic!("{name}: list keys: {e}"))
            .into_inner();
        let listed: Vec<(String, bool)> = listed
            .keys
            .iter()
            .map(|k| (k.key_id.clone(), k.revoke_time.is_some()))
            .collect();
        let recorded: Vec<(String, bool)> = bot
            .keys
            .iter()
            .map(|k| (k.key_id.clone(), k.revoked))
            .collect();
        assert_eq!(listed, recorded, "{name}: its keys");
    }

    for stored in held.into_iter().filter(|m| !m.state.is_over()) {
        let name = &stored.name;
        let seats = taken_seats(&manifest, stored);
        assert_eq!(
            seats.len(),
            stored.bot_seats.len(),
            "{name}: bots hold every seat"
        );
        for seat in &seats {
            let bot = manifest.bot(&stored.bot_seats[&seat.seat]);
            assert!(
                bot.keys
                    .iter()
                    .any(|k| k.secret == seat.token && !k.revoked),
                "{name}: {} acts with a live key of {}",
                seat.seat,
                bot.name
            );
            // A revoked key, even the one that took the seat, acts for it no more.
            for key in bot.keys.iter().filter(|k| k.revoked) {
                let revoked = SeatHandle {
                    token: key.secret.clone(),
                    ..seat.clone()
                };
                let refused = client
                    .legal_actions(&revoked)
                    .await
                    .expect_err("a revoked key acts for no seat");
                assert_eq!(
                    refused.reason().as_deref(),
                    Some("API_KEY_REVOKED"),
                    "{name}: {}",
                    seat.seat
                );
            }
        }
        let result = play_on(client.clone(), stored.clone(), seats).await;
        assert_eq!(
            result.reason(),
            pb::ResultReason::Rules,
            "{name}: {result:?}"
        );
        let summary = client
            .get_match(&stored.match_id, None)
            .await
            .unwrap()
            .r#match
            .unwrap();
        assert_eq!(summary.status(), pb::MatchStatus::Finished, "{name}");
        let players: Vec<(String, String)> = summary
            .seats
            .iter()
            .map(|s| (s.seat.clone(), s.player_name.clone()))
            .collect();
        let bots_by_seat: Vec<(String, String)> = stored
            .seats
            .iter()
            .map(|s| (s.seat.clone(), stored.bot_seats[&s.seat].clone()))
            .collect();
        assert_eq!(players, bots_by_seat, "{name}: the bots played it out");
        client
            .verify_match(&stored.match_id)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    server.stop().await;
}

/// A bot's inbox stream after `after_seq`: the items it sends until it falls quiet (a heartbeat
/// once `count` have come), so that an item beyond them, or one sent twice, shows.
async fn inbox_until_quiet(
    inboxes: &mut InboxServiceClient<tonic::transport::Channel>,
    bot: &BotRecord,
    after_seq: u64,
    count: usize,
) -> Vec<InboxItemRecord> {
    let name = &bot.name;
    let mut stream = inboxes
        .watch_inbox(with_key(
            &bot.play_key().secret,
            pb::WatchInboxRequest { after_seq },
        ))
        .await
        .unwrap_or_else(|e| panic!("{name}: watch after {after_seq}: {e}"))
        .into_inner();
    // The follower writes an item a few milliseconds after its match ends: heartbeats may come
    // before it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let mut items = Vec::new();
    loop {
        let message = tokio::time::timeout_at(deadline, stream.message())
            .await
            .unwrap_or_else(|_| panic!("{name}: {} of {count} items came", items.len()))
            .unwrap_or_else(|e| panic!("{name}: the inbox stream: {e}"))
            .unwrap_or_else(|| panic!("{name}: the inbox stream ended"));
        match message.kind {
            Some(InboxKind::Item(item)) => {
                let record = InboxItemRecord::of(&item)
                    .unwrap_or_else(|| panic!("{name}: an item of another kind: {item:?}"));
                items.push(record);
                assert!(items.len() <= count, "{name}: more than {count}: {items:?}");
            }
            Some(InboxKind::Heartbeat(beat)) => {
                let sent = items.last().map_or(after_seq, |i| i.seq);
                assert_eq!(
                    beat.seq, sent,
                    "{name}: the heartbeat says how far it has sent"
                );
                if items.len() == count {
                    return items;
                }
            }
            None => panic!("{name}: an empty message"),
        }
    }
}

async fn get_inbox(
    inboxes: &mut InboxServiceClient<tonic::transport::Channel>,
    bot: &BotRecord,
) -> pb::GetInboxResponse {
    inboxes
        .get_inbox(with_key(&bot.play_key().secret, pb::GetInboxRequest {}))
        .await
        .unwrap_or_else(|e| panic!("{}: get inbox: {e}", bot.name))
        .into_inner()
}

/// How a match that ended with `result` ended for `seat`.
fn outcome(result: &pb::MatchResult, seat: &str) -> pb::MatchOutcome {
    match result.winner.as_str() {
        "" => pb::MatchOutcome::Drawn,
        winner if winner == seat => pb::MatchOutcome::Won,
        _ => pb::MatchOutcome::Lost,
    }
}

/// Each bot's inbox stored with schema 8 outlasts the server that wrote it: WatchInbox from 0
/// sends exactly the items recorded, GetInbox shows the bounds and live matches recorded, and
/// when the test plays a bot-held match to its end, each of its bots is told once, numbered on
/// from the stored items.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_8_database_keeps_each_bots_inbox_and_numbers_on_from_it() {
    keeps_each_bots_inbox(STORE_V8).await;
}

async fn keeps_each_bots_inbox(fixture: &str) {
    let manifest = manifest(fixture);
    assert!(
        manifest.bots.iter().all(|bot| bot.inbox.is_some()),
        "the fixture records every bot's inbox"
    );
    assert!(
        manifest
            .bots
            .iter()
            .all(|bot| bot.inbox.as_ref().is_some_and(|i| !i.items.is_empty())),
        "every bot has heard of a match"
    );
    let unfinished: Vec<&StoredMatch> = manifest
        .matches
        .iter()
        .filter(|m| !m.bot_seats.is_empty() && !m.state.is_over())
        .collect();
    assert!(
        !unfinished.is_empty(),
        "the fixture holds a live match of bots"
    );

    // Heartbeats a second apart show soon that an inbox has nothing more to send.
    let server = TestServer::start_on_copy_of(&Path::new(fixture).join("data"), |settings| {
        settings.limits.expire_unstarted_secs = 0;
        settings.stream.heartbeat_secs = 1;
    })
    .await;
    let client = server.client().await;
    let mut inboxes = InboxServiceClient::connect(server.url()).await.unwrap();

    for bot in &manifest.bots {
        let (name, recorded) = (&bot.name, bot.inbox.as_ref().unwrap());
        let items = inbox_until_quiet(&mut inboxes, bot, 0, recorded.items.len()).await;
        assert_eq!(&items, &recorded.items, "{name}: the inbox from the start");
        let snapshot = get_inbox(&mut inboxes, bot).await;
        let live: Vec<String> = snapshot
            .live_matches
            .iter()
            .map(|m| m.match_id.clone())
            .collect();
        assert_eq!(
            (snapshot.oldest_seq, snapshot.newest_seq, &live),
            (
                recorded.oldest_seq,
                recorded.newest_seq,
                &recorded.live_matches
            ),
            "{name}: where the inbox stands"
        );
    }

    for stored in &unfinished {
        let name = &stored.name;
        let seats = taken_seats(&manifest, stored);
        let result = play_on(client.clone(), (*stored).clone(), seats).await;
        let summary = client
            .get_match(&stored.match_id, None)
            .await
            .unwrap()
            .r#match
            .unwrap();
        assert_eq!(summary.result.as_ref(), Some(&result), "{name}");
        assert_eq!(
            Some(bot_ids(&summary)),
            stored.bot_ids,
            "{name}: the bots that played it out"
        );
    }

    for bot in &manifest.bots {
        let (name, recorded) = (&bot.name, bot.inbox.as_ref().unwrap());
        let played: Vec<&StoredMatch> = unfinished
            .iter()
            .copied()
            .filter(|m| m.bot_seats.values().any(|b| b == name))
            .collect();
        let told = inbox_until_quiet(&mut inboxes, bot, recorded.newest_seq, played.len()).await;
        let seqs: Vec<u64> = told.iter().map(|i| i.seq).collect();
        let after = recorded.newest_seq;
        assert_eq!(
            seqs,
            (after + 1..=after + played.len() as u64).collect::<Vec<_>>(),
            "{name}: numbered on from the stored items"
        );
        for stored in &played {
            let item = told
                .iter()
                .find(|i| i.match_id == stored.match_id)
                .unwrap_or_else(|| panic!("{name}: not told of {}", stored.name));
            let seat = stored
                .bot_seats
                .iter()
                .find_map(|(seat, bot)| (bot == name).then_some(seat))
                .unwrap();
            let result = client
                .get_match(&stored.match_id, None)
                .await
                .unwrap()
                .r#match
                .unwrap()
                .result
                .unwrap();
            assert_eq!(
                (
                    item.variant_id.as_str(),
                    item.seat.as_str(),
                    item.outcome.as_str(),
                    item.result.as_ref()
                ),
                (
                    stored.variant_id.as_str(),
                    seat.as_str(),
                    outcome(&result, seat).as_str_name(),
                    Some(&ResultRecord::of(&result))
                ),
                "{name}: {}",
                stored.name
            );
        }
        // From the start, the stored items and the new ones alone.
        let all = inbox_until_quiet(&mut inboxes, bot, 0, recorded.items.len() + told.len()).await;
        assert_eq!(all[..recorded.items.len()], recorded.items[..], "{name}");
        assert_eq!(all[recorded.items.len()..], told[..], "{name}");

        let snapshot = get_inbox(&mut inboxes, bot).await;
        let live: Vec<String> = snapshot
            .live_matches
            .iter()
            .map(|m| m.match_id.clone())
            .collect();
        let still: Vec<String> = recorded
            .live_matches
            .iter()
            .filter(|id| !played.iter().any(|m| &m.match_id == *id))
            .cloned()
            .collect();
        assert_eq!(
            (snapshot.oldest_seq, snapshot.newest_seq, live),
            (recorded.oldest_seq, after + played.len() as u64, still),
            "{name}: where the inbox stands after"
        );
    }
    server.stop().await;
}

/// Whether `deadline` has passed, as the test's clock tells: `Some(false)` while it is more
/// than `CLOCK_MARGIN` ahead, `Some(true)` once it is more than that behind, `None` in
/// between.
fn passed(deadline: Option<TimeRecord>) -> Option<bool> {
    let deadline = deadline.expect("a deadline").seconds;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let margin = CLOCK_MARGIN.as_secs() as i64;
    if now < deadline - margin {
        Some(false)
    } else if now > deadline + margin {
        Some(true)
    } else {
        None
    }
}

/// The first item after `after_seq` in `bot`'s inbox that `wanted` picks.
async fn told(
    inboxes: &mut InboxServiceClient<tonic::transport::Channel>,
    bot: &BotRecord,
    after_seq: u64,
    what: &str,
    wanted: impl Fn(&InboxItemRecord) -> bool,
) -> InboxItemRecord {
    let name = &bot.name;
    let mut stream = inboxes
        .watch_inbox(with_key(
            &bot.play_key().secret,
            pb::WatchInboxRequest { after_seq },
        ))
        .await
        .unwrap_or_else(|e| panic!("{name}: watch after {after_seq}: {e}"))
        .into_inner();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let message = tokio::time::timeout_at(deadline, stream.message())
            .await
            .unwrap_or_else(|_| panic!("{name}: never told {what}"))
            .unwrap_or_else(|e| panic!("{name}: the inbox stream: {e}"))
            .unwrap_or_else(|| panic!("{name}: the inbox stream ended"));
        if let Some(InboxKind::Item(item)) = message.kind {
            let record = InboxItemRecord::of(&item).expect("an item of a kind");
            if wanted(&record) {
                return record;
            }
        }
    }
}

/// `pitchmate recompute-ratings`, on a copy of the fixture's data directory of its own:
/// replaying the stored rated results gives exactly the stored live ratings.
async fn check_recomputed_ratings(data: &Path) {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!(
        "pitchmate-e2e-recompute-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(data.join("pitchmate.db"), dir.join("pitchmate.db")).unwrap();
    let cli = pitchmate_server::config::Cli {
        data_dir: Some(dir.clone()),
        ..Default::default()
    };
    let settings = pitchmate_server::Settings::from_layers(&cli, Default::default()).unwrap();
    let report = pitchmate_server::server::recompute_ratings(&settings)
        .await
        .unwrap_or_else(|e| panic!("recompute ratings: {e}"));
    assert_eq!(
        (report.pools, report.matches, report.ratings),
        (1, 1, 2),
        "one rated match in one pool, two bots rated"
    );
    assert!(
        report.differences.is_empty(),
        "every live rating is what the results give: {:?}",
        report.differences
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// The league stored with schema 10 outlasts the server that wrote it: each bot's inbox holds
/// exactly the recorded items (challenges received and resolved, matches assigned and finished,
/// a rated one with its rating change); every challenge shows as it was, the open one can still
/// be accepted and assigns a match both bots hear of (once its seven days are over, it shows
/// expired instead, and both bots heard so); the acceptance policy, the ratings and their
/// changes are as recorded and recomputing them from the results changes nothing; the waiting
/// ticket still waits and pairs with a new one of another bot; and the assigned match its absent
/// bot never joined is joined by it with its key and played to its end (once its show-up
/// deadline is over, it ended as a no-show instead).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_10_database_keeps_its_league_and_plays_on() {
    let manifest = manifest(STORE_V10);
    let league: &LeagueRecord = manifest.league.as_ref().expect("the fixture has a league");
    let data = Path::new(STORE_V10).join("data");
    check_recomputed_ratings(&data).await;

    let server = TestServer::start_on_copy_of(&data, |settings| {
        settings.limits.expire_unstarted_secs = 0;
        settings.stream.heartbeat_secs = 1;
    })
    .await;
    let client = server.client().await;
    let mut inboxes = InboxServiceClient::connect(server.url()).await.unwrap();
    let mut challenges = client.challenges();

    // Too close to a deadline to tell what the server must show: wait until it has passed.
    let open = &league.challenges["open"];
    let unjoined = &league.unjoined;
    for deadline in [open.expire_time, unjoined.show_up_by] {
        if passed(deadline).is_none() {
            tokio::time::sleep(2 * CLOCK_MARGIN).await;
        }
    }
    let expired = passed(open.expire_time) == Some(true);
    let no_show = passed(unjoined.show_up_by) == Some(true);
    // What the server adds to the stored inboxes on its own once a deadline is over.
    let mut added: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    if expired {
        for bot in [&open.challenger_name, &open.target_name] {
            let item = ("challenge_resolved", open.challenge_id.as_str());
            added.entry(bot.as_str()).or_default().push(item);
        }
    }
    if no_show {
        for bot in [&unjoined.joined, &unjoined.absent] {
            let item = ("match_finished", unjoined.match_id.as_str());
            added.entry(bot.as_str()).or_default().push(item);
        }
    }

    // Every inbox from the start: the recorded items, then only what a deadline added.
    for bot in &manifest.bots {
        let (name, recorded) = (&bot.name, bot.inbox.as_ref().unwrap());
        let more = added.get(name.as_str()).cloned().unwrap_or_default();
        let items =
            inbox_until_quiet(&mut inboxes, bot, 0, recorded.items.len() + more.len()).await;
        assert_eq!(
            items[..recorded.items.len()],
            recorded.items[..],
            "{name}: the inbox from the start"
        );
        let later: Vec<(&str, &str)> = items[recorded.items.len()..]
            .iter()
            .map(|i| {
                let about = i
                    .challenge
                    .as_ref()
                    .map_or(&i.match_id, |c| &c.challenge_id);
                (i.kind.as_str(), about.as_str())
            })
            .collect();
        let mut more = more;
        let mut later = later;
        more.sort();
        later.sort();
        assert_eq!(later, more, "{name}: what the deadlines added");
        if added.is_empty() {
            let snapshot = get_inbox(&mut inboxes, bot).await;
            let live: Vec<String> = snapshot
                .live_matches
                .iter()
                .map(|m| m.match_id.clone())
                .collect();
            // Servers after the fixture's also list a match assigned to the bot whose seat it
            // has not taken: it still has to show up there.
            let mut expected = recorded.live_matches.clone();
            if *name == unjoined.absent {
                expected.push(unjoined.match_id.clone());
            }
            assert_eq!(
                (snapshot.oldest_seq, snapshot.newest_seq, &live),
                (recorded.oldest_seq, recorded.newest_seq, &expected),
                "{name}: where the inbox stands"
            );
        }
    }
    let newest = |name: &str| {
        let bot = manifest.bot(name);
        let more = added.get(name).map_or(0, Vec::len);
        (bot, bot.inbox.as_ref().unwrap().newest_seq + more as u64)
    };

    // Every challenge as it was; the open one closed only by its expiry.
    let any_key = &manifest.bot(&league.policy_bot).play_key().secret;
    for (what, recorded) in &league.challenges {
        let got = challenges
            .get_challenge(with_key(
                any_key,
                pb::GetChallengeRequest {
                    challenge_id: recorded.challenge_id.clone(),
                },
            ))
            .await
            .unwrap_or_else(|e| panic!("{what}: get challenge: {e}"))
            .into_inner()
            .challenge
            .unwrap();
        let expected = if what == "open" && expired {
            ChallengeRecord {
                status: "CHALLENGE_STATUS_EXPIRED".to_owned(),
                ..recorded.clone()
            }
        } else {
            recorded.clone()
        };
        assert_eq!(ChallengeRecord::of(&got), expected, "{what}");
    }
    let shown = |what: &str| {
        let c = &league.challenges[what];
        (
            c.status.as_str(),
            c.decline_reason.as_str(),
            c.match_id.is_empty(),
        )
    };
    assert_eq!(
        shown("declined"),
        ("CHALLENGE_STATUS_DECLINED", "DECLINE_REASON_LATER", true)
    );
    assert_eq!(
        shown("declined-by-policy"),
        (
            "CHALLENGE_STATUS_DECLINED",
            "DECLINE_REASON_RATED_ONLY",
            true
        )
    );
    assert_eq!(
        shown("cancelled"),
        (
            "CHALLENGE_STATUS_CANCELLED",
            "DECLINE_REASON_UNSPECIFIED",
            true
        )
    );
    assert_eq!(
        shown("open"),
        ("CHALLENGE_STATUS_OPEN", "DECLINE_REASON_UNSPECIFIED", true)
    );
    for what in ["rated-played", "casual-played", "unjoined"] {
        assert_eq!(shown(what).0, "CHALLENGE_STATUS_ACCEPTED", "{what}");
    }

    let policy_bot = manifest.bot(&league.policy_bot);
    let policy = challenges
        .get_acceptance_policy(with_key(
            &policy_bot.play_key().secret,
            pb::GetAcceptancePolicyRequest {
                bot_id: policy_bot.bot_id.clone(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .policy
        .unwrap();
    assert_eq!(PolicyRecord::of(&policy), league.policy, "the policy");

    // The ratings as recorded, but for the deviation, which grows with the days since the
    // bot last played; and every change exactly.
    let mut ratings = client.ratings();
    for (name, recorded) in &league.ratings {
        let bot = manifest.bot(name);
        let got = ratings
            .get_ratings(pb::GetRatingsRequest {
                bot_id: bot.bot_id.clone(),
            })
            .await
            .unwrap()
            .into_inner()
            .ratings;
        assert_eq!(got.len(), recorded.len(), "{name}: its pools");
        for (got, (pool, recorded)) in got.iter().zip(recorded) {
            let now = RatingRecord::of(got.rating.as_ref().unwrap());
            assert_eq!(&got.pool, pool, "{name}");
            assert!(
                (recorded.deviation..=350.0).contains(&now.deviation),
                "{name}: the deviation {} ages from {}",
                now.deviation,
                recorded.deviation
            );
            assert_eq!(
                RatingRecord {
                    deviation: recorded.deviation,
                    ..now
                },
                *recorded,
                "{name}: {pool}"
            );
        }
        let changes = ratings
            .list_rating_changes(pb::ListRatingChangesRequest {
                bot_id: bot.bot_id.clone(),
                page_size: 100,
                page_token: String::new(),
            })
            .await
            .unwrap()
            .into_inner();
        let changes: Vec<RatingChangeRecord> =
            changes.changes.iter().map(RatingChangeRecord::of).collect();
        assert_eq!(
            &changes, &league.rating_changes[name],
            "{name}: its changes"
        );
    }
    let rated = &league.challenges["rated-played"];
    for name in [&rated.challenger_name, &rated.target_name] {
        let changes = &league.rating_changes[name];
        assert_eq!(changes.len(), 1, "{name}: rated once");
        assert_eq!(changes[0].match_id, rated.match_id, "{name}");
        let finished = manifest
            .bot(name)
            .inbox
            .as_ref()
            .unwrap()
            .items
            .iter()
            .find(|i| i.kind == "match_finished" && i.match_id == rated.match_id);
        assert_eq!(
            finished.and_then(|i| i.rating_change.as_ref()),
            Some(&changes[0]),
            "{name}: the inbox told of the change"
        );
    }

    // The waiting ticket waits, and pairs with a new one of another bot.
    let waiter = manifest.bot(&league.waiting_bot);
    let mut queue = client.queue();
    let waiting = queue
        .list_tickets(with_key(
            &waiter.play_key().secret,
            pb::ListTicketsRequest {
                waiting_only: true,
                ..Default::default()
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .tickets;
    let recorded: Vec<TicketRecord> = waiting.iter().map(TicketRecord::of).collect();
    assert_eq!(
        recorded,
        vec![league.waiting_ticket.clone()],
        "still waiting"
    );
    let other = manifest.bot(&rated.challenger_name);
    let entered = queue
        .enter_queue(with_key(
            &other.play_key().secret,
            pb::EnterQueueRequest {
                terms: waiting[0].terms.clone(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .ticket
        .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let paired = loop {
        let tickets = queue
            .list_tickets(with_key(
                &waiter.play_key().secret,
                pb::ListTicketsRequest {
                    waiting_only: false,
                    ..Default::default()
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .tickets;
        let ticket = tickets
            .iter()
            .find(|t| t.ticket_id == league.waiting_ticket.ticket_id)
            .unwrap();
        if ticket.status() == pb::TicketStatus::Paired {
            break ticket.match_id.clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "never paired");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let theirs = queue
        .list_tickets(with_key(
            &other.play_key().secret,
            pb::ListTicketsRequest {
                waiting_only: false,
                ..Default::default()
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .tickets;
    let theirs = theirs
        .iter()
        .find(|t| t.ticket_id == entered.ticket_id)
        .unwrap();
    assert_eq!(
        (theirs.status(), theirs.match_id.as_str()),
        (pb::TicketStatus::Paired, paired.as_str()),
        "paired with each other"
    );
    for name in [&waiter.name, &other.name] {
        let (bot, after) = newest(name);
        told(&mut inboxes, bot, after, "of the pairing's match", |i| {
            i.kind == "match_assigned" && i.match_id == paired
        })
        .await;
    }

    // The open challenge can still be accepted, and assigns a match both bots hear of.
    if !expired {
        let target = manifest.bot(&open.target_name);
        let accepted = challenges
            .accept_challenge(with_key(
                &target.play_key().secret,
                pb::AcceptChallengeRequest {
                    challenge_id: open.challenge_id.clone(),
                },
            ))
            .await
            .unwrap_or_else(|e| panic!("accept the open challenge: {e}"))
            .into_inner()
            .challenge
            .unwrap();
        assert_eq!(accepted.status(), pb::ChallengeStatus::Accepted);
        assert_eq!(accepted.responder_id, target.bot_id);
        let match_id = accepted.match_id.clone();
        assert!(!match_id.is_empty(), "the acceptance assigns a match");
        for name in [&open.challenger_name, &open.target_name] {
            let (bot, after) = newest(name);
            let resolved = told(&mut inboxes, bot, after, "of the acceptance", |i| {
                i.kind == "challenge_resolved"
                    && i.challenge.as_ref().map(|c| c.challenge_id.as_str())
                        == Some(open.challenge_id.as_str())
            })
            .await;
            assert_eq!(
                resolved.challenge.map(|c| (c.status, c.match_id)),
                Some(("CHALLENGE_STATUS_ACCEPTED".to_owned(), match_id.clone())),
                "{name}"
            );
            told(&mut inboxes, bot, after, "of the assigned match", |i| {
                i.kind == "match_assigned" && i.match_id == match_id
            })
            .await;
        }
    }

    // The absent bot shows up with its key and the match plays to its end; after its
    // deadline, it lost by not showing up.
    let seat_of = |bot: &str| {
        unjoined
            .seats
            .iter()
            .find_map(|(seat, b)| (b == bot).then(|| seat.clone()))
            .unwrap()
    };
    let (joined, absent) = (
        manifest.bot(&unjoined.joined),
        manifest.bot(&unjoined.absent),
    );
    let summary = client
        .get_match(&unjoined.match_id, None)
        .await
        .unwrap()
        .r#match
        .unwrap();
    if no_show {
        let result = summary.result.unwrap();
        assert_eq!(
            (result.reason(), result.winner),
            (pb::ResultReason::NoShow, seat_of(&joined.name)),
            "the absent bot forfeited"
        );
    } else {
        let occupied: BTreeMap<String, bool> = summary
            .seats
            .iter()
            .map(|s| (s.seat.clone(), s.occupied))
            .collect();
        assert_eq!(
            occupied,
            [
                (seat_of(&joined.name), true),
                (seat_of(&absent.name), false)
            ]
            .into_iter()
            .collect(),
            "one seat taken"
        );
        assert_eq!(
            summary.status(),
            pb::MatchStatus::Waiting,
            "for its absent bot"
        );
        let shown_up = client
            .join_as_bot(
                &unjoined.match_id,
                Some(&seat_of(&absent.name)),
                &absent.play_key().secret,
            )
            .await
            .unwrap_or_else(|e| panic!("{} shows up: {e}", absent.name));
        let seats = vec![
            SeatHandle {
                match_id: unjoined.match_id.clone(),
                seat: seat_of(&joined.name),
                token: joined.play_key().secret.clone(),
            },
            shown_up,
        ];
        let players: Vec<_> = seats
            .into_iter()
            .enumerate()
            .map(|(i, seat)| {
                let client = client.clone();
                tokio::spawn(async move {
                    play(&client, &seat, &mut RandomChoice::seeded(i as u64 + 3)).await
                })
            })
            .collect();
        for player in players {
            let result = player.await.unwrap().expect("the bots play to the end");
            assert_eq!(result.reason(), pb::ResultReason::Rules, "{result:?}");
        }
        for bot in [joined, absent] {
            let (bot, after) = newest(&bot.name);
            let item = told(&mut inboxes, bot, after, "of the end", |i| {
                i.kind == "match_finished" && i.match_id == unjoined.match_id
            })
            .await;
            assert_eq!(item.variant_id, unjoined.variant_id);
        }
        client.verify_match(&unjoined.match_id).await.unwrap();
    }
    server.stop().await;
}
