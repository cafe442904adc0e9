//! The play loop's hooks for bots that show the match or take corrections (a person at a
//! terminal): `Bot::observe` sees each of the seat's events once and in order, across a cut
//! connection too, `Bot::retry_refused` is asked again for the same turn after a refusal, and
//! `Bot::acted` hears the answer to each action the loop sent.

use std::time::Duration;

use pitchmate_client::{
    Bot, Choice, Client, ClientError, NewMatch, PlayOptions, RandomChoice, ReconnectPolicy,
    SeatHandle, pb, play, play_with,
};
use pitchmate_e2e::{CuttableProxy, TestServer, collect_events};

/// Plays randomly and records what the loop shows it.
struct Recorder {
    random: RandomChoice,
    observed: Vec<u64>,
    /// Choices so far; the one numbered `bad_at` is a notation no game accepts.
    choices: usize,
    bad_at: Option<usize>,
    retry: bool,
    refusals: Vec<pb::ActionRefused>,
    /// The version of each choice's view.
    versions: Vec<u64>,
    /// The answers to the actions sent, in the order they came.
    outcomes: Vec<pb::ActionOutcome>,
}

impl Recorder {
    fn new(seed: u64, bad_at: Option<usize>, retry: bool) -> Self {
        Self {
            random: RandomChoice::seeded(seed),
            observed: Vec::new(),
            choices: 0,
            bad_at,
            retry,
            refusals: Vec::new(),
            versions: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

impl Bot for Recorder {
    fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
        self.choices += 1;
        self.versions.push(view.version);
        if Some(self.choices) == self.bad_at {
            return Choice::Notation("not-a-move".to_owned());
        }
        self.random.choose(view, legal)
    }

    fn observe(&mut self, event: &pb::MatchEvent) {
        self.observed.push(event.seq);
    }

    fn retry_refused(&mut self, refusal: &pb::ActionRefused) -> bool {
        self.refusals.push(refusal.clone());
        self.retry
    }

    fn acted(&mut self, outcome: &pb::ActionOutcome) {
        self.outcomes.push(outcome.clone());
    }
}

fn short_match() -> NewMatch {
    NewMatch::variant("kings-goal").int_option("moves_per_half", 3)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_sees_each_event_once_in_order_across_a_cut() {
    let server = TestServer::start().await;
    let mut proxy = CuttableProxy::start(server.addr).await;
    let direct = server.client().await;
    let created = direct.create_match(short_match()).await.expect("create");
    let match_id = created.match_id.clone();
    let through_proxy = Client::connect(proxy.url()).await.expect("connect");
    let watched = through_proxy
        .join(&match_id, Some("white"), "watched")
        .await
        .expect("join");
    let other = direct
        .join(&match_id, Some("black"), "other")
        .await
        .expect("join");

    let options = PlayOptions {
        reconnect: ReconnectPolicy {
            first_delay: Duration::from_millis(20),
            max_delay: Duration::from_millis(200),
            ..ReconnectPolicy::default()
        },
        ..PlayOptions::default()
    };
    let seat = watched.clone();
    let player = tokio::spawn(async move {
        let mut bot = Recorder::new(1, None, false);
        let result = play_with(&through_proxy, &seat, &mut bot, &options).await;
        (bot, result)
    });
    // The other seat plays slowly enough for the cut to fall mid-match.
    let (cut_sender, cut_signal) = tokio::sync::oneshot::channel::<()>();
    let opponent = tokio::spawn(async move {
        struct Slow(RandomChoice, Option<tokio::sync::oneshot::Sender<()>>);
        impl Bot for Slow {
            fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
                if let Some(signal) = self.1.take() {
                    let _ = signal.send(());
                    std::thread::sleep(Duration::from_millis(300));
                }
                self.0.choose(view, legal)
            }
            fn needs_view(&self) -> bool {
                false
            }
        }
        play(
            &direct,
            &other,
            &mut Slow(RandomChoice::seeded(2), Some(cut_sender)),
        )
        .await
    });
    cut_signal.await.expect("the opponent is to act");
    assert!(proxy.cut().await > 0, "the watched seat was connected");
    tokio::time::sleep(Duration::from_millis(100)).await;
    proxy.restore().await;

    let (bot, result) = player.await.expect("task");
    result.expect("the watched seat plays to the end");
    opponent.await.expect("task").expect("the opponent too");
    let client = server.client().await;
    let all = collect_events(
        client
            .watch(&match_id, 0, Some(&watched))
            .await
            .expect("the seat's history"),
    )
    .await;
    let seqs: Vec<u64> = all.iter().map(|e| e.seq).collect();
    assert_eq!(
        bot.observed, seqs,
        "every event of the seat, once, in order"
    );
    server.stop().await;
}

/// A short match with white's seat for the test's bot and black played at random (seeded) by
/// a task of its own, which ends with the match.
async fn white_against_a_random_black(
    client: &Client,
    seed: u64,
) -> (
    SeatHandle,
    tokio::task::JoinHandle<Result<pb::MatchResult, ClientError>>,
) {
    let created = client.create_match(short_match()).await.expect("create");
    let white = client
        .join(&created.match_id, Some("white"), "w")
        .await
        .expect("join");
    let black = client
        .join(&created.match_id, Some("black"), "b")
        .await
        .expect("join");
    let opponent_client = client.clone();
    let opponent = tokio::spawn(async move {
        play(&opponent_client, &black, &mut RandomChoice::seeded(seed)).await
    });
    (white, opponent)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_choice_is_asked_again_only_when_the_bot_wants_to() {
    let server = TestServer::start().await;
    let client = server.client().await;

    // Retrying: the bad notation is refused, the bot is asked again for the same turn, and the
    // match goes on to its end.
    let (white, opponent) = white_against_a_random_black(&client, 5).await;
    let mut bot = Recorder::new(3, Some(1), true);
    play(&client, &white, &mut bot)
        .await
        .expect("the match is played to its end");
    opponent.await.expect("task").expect("the opponent too");
    assert_eq!(bot.refusals.len(), 1);
    assert_eq!(bot.refusals[0].reason, "MALFORMED_NOTATION");
    assert_eq!(
        bot.versions[0], bot.versions[1],
        "asked again for the same turn"
    );

    // Not retrying (the default): the refusal ends the loop.
    let created = client.create_match(short_match()).await.expect("create");
    let white = client
        .join(&created.match_id, Some("white"), "w")
        .await
        .expect("join");
    client
        .join(&created.match_id, Some("black"), "b")
        .await
        .expect("join");
    let mut bot = Recorder::new(3, Some(1), false);
    let error = play(&client, &white, &mut bot)
        .await
        .expect_err("the refusal ends the loop");
    assert!(matches!(error, ClientError::Refused(_)), "{error}");
    assert_eq!(bot.choices, 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acted_hears_each_answer_with_the_version_the_log_shows() {
    use pb::action_outcome::Result as Outcome;
    let server = TestServer::start().await;
    let client = server.client().await;
    let (white, opponent) = white_against_a_random_black(&client, 6).await;
    // The second choice is refused and chosen again: both answers are heard.
    let mut bot = Recorder::new(4, Some(2), true);
    play(&client, &white, &mut bot)
        .await
        .expect("the match is played to its end");
    opponent.await.expect("task").expect("the opponent too");

    let refused: Vec<&str> = bot
        .outcomes
        .iter()
        .filter_map(|o| match &o.result {
            Some(Outcome::Refused(refused)) => Some(refused.reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(refused, ["MALFORMED_NOTATION"]);
    let accepted: Vec<(String, u64)> = bot
        .outcomes
        .iter()
        .filter_map(|o| match &o.result {
            Some(Outcome::Accepted(accepted)) => {
                assert!(!accepted.duplicate, "nothing was sent twice");
                Some((o.client_action_id.clone(), accepted.version))
            }
            _ => None,
        })
        .collect();
    let replay = client.replay(&white.match_id).await.expect("replay");
    let logged: Vec<u64> = replay
        .events
        .iter()
        .filter(|e| {
            matches!(&e.kind, Some(pb::match_event::Kind::ActionTaken(taken)) if taken.seat == "white")
        })
        .map(|e| e.version)
        .collect();
    // The loop returns at the match's end, which the stream brings before the answer to the
    // action that ended it: that answer may go unheard.
    let heard: Vec<u64> = accepted.iter().map(|(_, v)| *v).collect();
    assert!(
        heard.len() + 1 >= logged.len() && heard.len() > 1,
        "{heard:?} {logged:?}"
    );
    assert_eq!(
        heard,
        logged[..heard.len()],
        "one answer per action of the seat's in the log, with the version after it"
    );
    for (id, after) in &accepted {
        let before: u64 = id
            .strip_prefix("white@")
            .and_then(|v| v.parse().ok())
            .expect("the play loop's id is the seat and the version acted on");
        assert!(before < *after, "{id} answered with version {after}");
    }
    server.stop().await;
}
