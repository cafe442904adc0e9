//! The strong bot plays over the network: for every variant it rebuilds its engine from the
//! position the server shows its seat and the match's options, and every one of its choices is
//! the engine's (none falls back to a random one). Its opponent is the SDK's random bot.

use pitchmate_bots::{SearchBot, SearchLimits};
use pitchmate_client::{NewMatch, RandomChoice, pb, play};
use pitchmate_e2e::{TestServer, seated};

/// Few iterations: the debug build is slow, and the test is about the engine being used.
const ITERATIONS: u64 = 12;

/// Plays one match of `new`, the strong bot in the first seat, and returns its result and how
/// many of the strong bot's choices were made at random.
async fn strong_against_random(server: &TestServer, new: NewMatch) -> (pb::MatchResult, u64) {
    let client = server.client().await;
    let [strong_seat, random_seat] = seated(&client, new).await;
    let strong = {
        let client = client.clone();
        tokio::spawn(async move {
            let mut bot = SearchBot::new(SearchLimits::iterations(ITERATIONS), 7);
            let result = play(&client, &strong_seat, &mut bot).await;
            (result, bot.choices_at_random())
        })
    };
    let random =
        tokio::spawn(
            async move { play(&client, &random_seat, &mut RandomChoice::seeded(3)).await },
        );
    let (result, at_random) = strong.await.expect("the strong bot's task");
    let result = result.expect("the strong bot plays to the end");
    random
        .await
        .expect("the random bot's task")
        .expect("the random bot plays to the end");
    (result, at_random)
}

async fn check(new: NewMatch) {
    let variant = new.variant_id.clone();
    let server = TestServer::start().await;
    let (result, at_random) = strong_against_random(&server, new).await;
    assert_eq!(
        result.reason(),
        pb::ResultReason::Rules,
        "{variant}: {result:?}"
    );
    assert_eq!(at_random, 0, "{variant}: choices made at random");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soccer_chess() {
    check(NewMatch::variant("soccer-chess")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chessyball() {
    check(NewMatch::variant("chessyball")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kings_goal() {
    check(NewMatch::variant("kings-goal")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xfutebol() {
    check(NewMatch::variant("xfutebol")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gridiron() {
    check(NewMatch::variant("gridiron").int_option("possessions_per_half", 1)).await;
}
