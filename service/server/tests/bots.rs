//! Bots and their API keys: registering, finding and changing bots, keys with scopes that
//! are shown once and can be revoked, and bots that join and play matches with their key alone.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_server::server::create_operator_key;
use tonic::Code;
use tonic::transport::Channel;

async fn register(bots: &mut BotServiceClient<Channel>, name: &str) -> pb::CreateBotResponse {
    bots.create_bot(pb::CreateBotRequest {
        name: name.to_owned(),
        owner: "tests".to_owned(),
        description: format!("{name} plays at random"),
        variants: vec![SOCCER_CHESS.to_owned()],
    })
    .await
    .expect("create bot")
    .into_inner()
}

fn scopes(scopes: &[pb::ApiKeyScope]) -> Vec<i32> {
    scopes.iter().map(|s| *s as i32).collect()
}

async fn new_key(
    bots: &mut BotServiceClient<Channel>,
    by: &str,
    bot_id: &str,
    granted: &[pb::ApiKeyScope],
) -> Result<pb::CreateApiKeyResponse, tonic::Status> {
    bots.create_api_key(authed(
        pb::CreateApiKeyRequest {
            bot_id: bot_id.to_owned(),
            label: "another".to_owned(),
            scopes: scopes(granted),
        },
        by,
    ))
    .await
    .map(|r| r.into_inner())
}

async fn join_as(
    matches: &mut MatchServiceClient<Channel>,
    match_id: &str,
    key: &str,
) -> Result<pb::JoinMatchResponse, tonic::Status> {
    matches
        .join_match(authed(
            pb::JoinMatchRequest {
                match_id: match_id.to_owned(),
                ..Default::default()
            },
            key,
        ))
        .await
        .map(|r| r.into_inner())
}

#[tokio::test]
async fn a_bot_is_registered_found_and_listed() {
    let server = start().await;
    let mut bots = server.bots().await;
    let created = register(&mut bots, "Striker").await;
    let bot = created.bot.clone().unwrap();
    let key = created.key.clone().unwrap();
    assert!(created.secret.starts_with("pmk_") && created.secret.contains(&key.key_id));
    assert_eq!(
        key.scopes,
        scopes(&[
            pb::ApiKeyScope::Play,
            pb::ApiKeyScope::Challenge,
            pb::ApiKeyScope::Manage
        ])
    );
    assert_eq!(
        (bot.max_concurrent, bot.daily_cap),
        (1, 1000),
        "the defaults"
    );

    let me = bots
        .who_am_i(authed(pb::WhoAmIRequest {}, &created.secret))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(me.bot, Some(bot.clone()));
    assert_eq!(me.key.unwrap().key_id, key.key_id);
    let by_name = bots
        .get_bot(pb::GetBotRequest {
            name: "striker".to_owned(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        by_name.bot,
        Some(bot.clone()),
        "names match without regard to case"
    );

    let taken = bots
        .create_bot(pb::CreateBotRequest {
            name: "STRIKER".to_owned(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        (taken.code(), reason(&taken).as_str()),
        (Code::AlreadyExists, "BOT_NAME_TAKEN")
    );
    let bad = bots
        .create_bot(pb::CreateBotRequest {
            name: "two words".to_owned(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad_field(&bad), "name");
    let unknown = bots
        .create_bot(pb::CreateBotRequest {
            name: "Chess".to_owned(),
            variants: vec!["chess".to_owned()],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad_field(&unknown), "variants");

    for name in ["alpha", "Bravo", "charlie", "delta"] {
        register(&mut bots, name).await;
    }
    let mut names = Vec::new();
    let mut page_token = String::new();
    loop {
        let page = bots
            .list_bots(pb::ListBotsRequest {
                page_size: 2,
                page_token: page_token.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        names.extend(page.bots.into_iter().map(|b| b.name));
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    assert_eq!(names, ["alpha", "Bravo", "charlie", "delta", "Striker"]);
    server.stop().await;
}

/// Two bots join a match with their keys alone and play it to its end: no seat token anywhere.
#[tokio::test]
async fn bots_join_and_play_a_match_with_their_keys() {
    let server = start().await;
    let (mut bots, mut matches) = (server.bots().await, server.matches().await);
    let home = register(&mut bots, "home").await;
    let away = register(&mut bots, "away").await;
    let created = create(&mut matches).await;

    let mut keys = std::collections::HashMap::new();
    for bot in [&home, &away] {
        let joined = join_as(&mut matches, &created.match_id, &bot.secret)
            .await
            .unwrap();
        assert_eq!(joined.seat_token, "", "a bot acts with its key");
        let seat = joined
            .r#match
            .unwrap()
            .seats
            .into_iter()
            .find(|s| s.seat == joined.seat)
            .unwrap();
        assert_eq!(seat.player_name, bot.bot.as_ref().unwrap().name);
        assert_eq!(
            seat.bot_id,
            bot.bot.as_ref().unwrap().bot_id,
            "the seat names its bot"
        );
        keys.insert(joined.seat, bot.secret.clone());
        if keys.len() == 1 {
            // One bot plays one seat of a match: with a seat still free, a second join is
            // refused.
            let again = join_as(&mut matches, &created.match_id, &bot.secret)
                .await
                .unwrap_err();
            assert_eq!(
                (again.code(), reason(&again).as_str()),
                (Code::FailedPrecondition, "ALREADY_SEATED")
            );
        }
    }

    // A bot that holds no seat of a match is told so, not taken for a guesser of tokens.
    let outsider = register(&mut bots, "outsider").await;
    let refused = matches
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: created.match_id.clone(),
                ..Default::default()
            },
            &outsider.secret,
        ))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::PermissionDenied, "BOT_NOT_SEATED")
    );

    let seated = Seated {
        match_id: created.match_id.clone(),
        tokens: keys,
    };
    let played = play_many(&mut matches, &seated, 5_000, 3).await;
    let ended = get(&mut matches, &created.match_id).await;
    assert_eq!(
        ended.status,
        pb::MatchStatus::Finished as i32,
        "after {played} actions"
    );
    server.stop().await;
}

#[tokio::test]
async fn keys_do_what_their_scopes_allow_and_stop_when_revoked() {
    let settings = test_settings();
    let server = start_with(settings.clone()).await;
    let (mut bots, mut matches) = (server.bots().await, server.matches().await);
    let bot = register(&mut bots, "scoped").await;
    let bot_id = bot.bot.as_ref().unwrap().bot_id.clone();
    let rival = register(&mut bots, "rival").await;

    // A key that may only challenge cannot play, nor make keys.
    let challenger = new_key(
        &mut bots,
        &bot.secret,
        &bot_id,
        &[pb::ApiKeyScope::Challenge],
    )
    .await
    .unwrap();
    let created = create(&mut matches).await;
    let refused = join_as(&mut matches, &created.match_id, &challenger.secret)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::PermissionDenied, "MISSING_SCOPE")
    );
    let refused = new_key(
        &mut bots,
        &challenger.secret,
        &bot_id,
        &[pb::ApiKeyScope::Play],
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&refused), "MISSING_SCOPE");
    // Nor may a bot's key manage another bot, or give itself the operator's scope.
    let refused = new_key(&mut bots, &rival.secret, &bot_id, &[pb::ApiKeyScope::Play])
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::PermissionDenied, "NOT_YOUR_BOT")
    );
    let refused = new_key(
        &mut bots,
        &bot.secret,
        &bot_id,
        &[pb::ApiKeyScope::Operator],
    )
    .await
    .unwrap_err();
    assert_eq!(bad_field(&refused), "scopes");

    // A PLAY key acts; once revoked, it is refused at once, and the bot's other keys go on.
    let player = new_key(&mut bots, &bot.secret, &bot_id, &[pb::ApiKeyScope::Play])
        .await
        .unwrap();
    let joined = join_as(&mut matches, &created.match_id, &player.secret)
        .await
        .unwrap();
    matches
        .join_match(pb::JoinMatchRequest {
            match_id: created.match_id.clone(),
            player_name: "anonymous".to_owned(),
            ..Default::default()
        })
        .await
        .unwrap();
    let viewer = matches.clone();
    let view = |key: &str| {
        let mut matches = viewer.clone();
        let request = authed(
            pb::GetLegalActionsRequest {
                match_id: created.match_id.clone(),
                ..Default::default()
            },
            key,
        );
        async move { matches.get_legal_actions(request).await }
    };
    assert!(view(&player.secret).await.is_ok());
    let revoked = bots
        .revoke_api_key(authed(
            pb::RevokeApiKeyRequest {
                key_id: player.key.as_ref().unwrap().key_id.clone(),
            },
            &bot.secret,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(revoked.key.unwrap().revoke_time.is_some());
    let refused = view(&player.secret).await.unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::Unauthenticated, "API_KEY_REVOKED")
    );
    let seat_view = matches
        .get_match(authed(
            pb::GetMatchRequest {
                match_id: created.match_id.clone(),
            },
            &bot.secret,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        seat_view.view.unwrap().viewer_seat,
        joined.seat,
        "the bot's first key still acts"
    );
    let listed = bots
        .list_api_keys(authed(
            pb::ListApiKeysRequest {
                bot_id: bot_id.clone(),
                ..Default::default()
            },
            &bot.secret,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.keys.len(), 3);
    assert_eq!(
        listed
            .keys
            .iter()
            .filter(|k| k.revoke_time.is_some())
            .count(),
        1
    );

    // A made-up key is not valid, and neither is a seat token where a key is needed.
    let made_up = format!("pmk_{}_{}", "0".repeat(16), "0".repeat(64));
    let refused = view(&made_up).await.unwrap_err();
    assert_eq!(reason(&refused), "INVALID_API_KEY");
    let refused = bots
        .who_am_i(authed(pb::WhoAmIRequest {}, &"ab".repeat(32)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);

    // Caps are the operator's: the bot's own key may not raise them; the operator key the
    // command makes, while this server runs on the same store, may.
    let updater = bots.clone();
    let caps = |key: &str| {
        let mut bots = updater.clone();
        let request = authed(
            pb::UpdateBotRequest {
                bot: Some(pb::Bot {
                    bot_id: bot_id.clone(),
                    max_concurrent: 4,
                    ..Default::default()
                }),
                update_mask: Some(prost_types::FieldMask {
                    paths: vec!["max_concurrent".to_owned()],
                }),
            },
            key,
        );
        async move { bots.update_bot(request).await }
    };
    let refused = caps(&bot.secret).await.unwrap_err();
    assert_eq!(reason(&refused), "MISSING_SCOPE");
    let operator = create_operator_key(&settings, "tests".to_owned())
        .await
        .unwrap();
    let raised = caps(&operator.secret).await.unwrap().into_inner();
    assert_eq!(raised.bot.unwrap().max_concurrent, 4);
    let fresh = create(&mut matches).await;
    let refused = join_as(&mut matches, &fresh.match_id, &operator.secret)
        .await
        .unwrap_err();
    assert_eq!(
        reason(&refused),
        "MISSING_SCOPE",
        "an operator key plays for no bot"
    );

    // Keys and bots outlast the server.
    let server = server.restart(settings).await;
    let mut bots = server.bots().await;
    let me = bots
        .who_am_i(authed(pb::WhoAmIRequest {}, &bot.secret))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(me.bot.unwrap().max_concurrent, 4);
    let refused = bots
        .who_am_i(authed(pb::WhoAmIRequest {}, &player.secret))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "API_KEY_REVOKED");
    server.stop().await;
}
