//! The SDK's play loop under the server's action rate limit: refused submissions are retried
//! after the delay the server gives, and the match is played to its end.

use pitchmate_client::{NewMatch, RandomChoice, play};
use pitchmate_e2e::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_finish_a_match_while_the_server_limits_their_rate() {
    // One action per seat token every 20 ms and no burst: a seat placing its pieces acts far
    // faster than that, so both bots are refused many times on the way.
    let server = TestServer::start_adjusted(|settings| {
        settings.limits.actions_per_second = 50;
        settings.limits.action_burst = 1;
    })
    .await;
    let client = server.client().await;
    let created = client
        .create_match(
            NewMatch::variant("soccer-chess")
                .seed(7)
                .int_option("sets_per_game", 1)
                .int_option("golden_goal_max_sets", 1),
        )
        .await
        .expect("create match");
    let mut seats = Vec::new();
    for seat in &created.seats {
        seats.push(
            client
                .join(&created.match_id, Some(&seat.seat), "bot")
                .await
                .expect("join"),
        );
    }
    let (mut first_bot, mut second_bot) = (RandomChoice::seeded(1), RandomChoice::seeded(2));
    // Either bot failing ends the test at once rather than leaving the other waiting.
    let (first, second) = tokio::try_join!(
        play(&client, &seats[0], &mut first_bot),
        play(&client, &seats[1], &mut second_bot),
    )
    .expect("both bots play to the end");
    assert_eq!(first, second, "both seats see the same result");
    let finished = client
        .get_match(&created.match_id, None)
        .await
        .expect("get match")
        .r#match
        .expect("match");
    assert_eq!(
        finished.status,
        pitchmate_client::pb::MatchStatus::Finished as i32
    );
    server.stop().await;
}
