//! Bots through the SDK: two registered bots join a match with their API keys alone, play it to
//! its end with the SDK's play loop, and each hears of it in its inbox.

use pitchmate_client::pb::watch_inbox_response::Kind;
use pitchmate_client::{NewMatch, RandomChoice, pb, play};
use pitchmate_e2e::TestServer;

#[tokio::test]
async fn bots_play_with_their_keys_and_hear_of_the_result_in_their_inboxes() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let home = client.register_bot("sdk-home", "tests").await.unwrap();
    let away = client.register_bot("sdk-away", "tests").await.unwrap();
    let created = client
        .create_match(NewMatch::variant("xfutebol"))
        .await
        .unwrap();
    let first = client
        .join_as_bot(&created.match_id, None, &home.secret)
        .await
        .unwrap();
    let second = client
        .join_as_bot(&created.match_id, None, &away.secret)
        .await
        .unwrap();
    let (mut one, mut two) = (RandomChoice::seeded(1), RandomChoice::seeded(2));
    let (a, b) = tokio::join!(
        play(&client, &first, &mut one),
        play(&client, &second, &mut two),
    );
    let result = a.unwrap();
    assert_eq!(b.unwrap(), result);

    for (bot, seat) in [(&home, &first.seat), (&away, &second.seat)] {
        let mut inbox = client.watch_inbox(&bot.secret, 0).await.unwrap();
        let item = loop {
            let message = inbox
                .message()
                .await
                .unwrap()
                .expect("the inbox stays open");
            if let Some(Kind::Item(item)) = message.kind {
                break item;
            }
        };
        let Some(pb::inbox_item::Kind::MatchFinished(finished)) = item.kind else {
            panic!("a finished match: {item:?}");
        };
        assert_eq!((item.seq, &finished.match_id), (1, &created.match_id));
        assert_eq!(&finished.seat, seat);
        let expected = if result.winner.is_empty() {
            pb::MatchOutcome::Drawn
        } else if &result.winner == seat {
            pb::MatchOutcome::Won
        } else {
            pb::MatchOutcome::Lost
        };
        assert_eq!(finished.outcome, expected as i32);
        assert_eq!(finished.result.as_ref(), Some(&result));
    }
    server.stop().await;
}
