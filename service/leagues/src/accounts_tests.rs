//! `Accounts` on a real (scratch) store: who may do what, and that keys are checked, revoked
//! and picked up from the store as promised.

use std::time::SystemTime;

use pitchmate_store::scratch::scratch_store;

use crate::accounts::{Accounts, BotDefaults, Caller, NewBot};
use crate::bot::BotChange;
use crate::error::LeagueError;
use crate::scope::{Scope, Scopes};

const DEFAULTS: BotDefaults = BotDefaults {
    max_concurrent: 1,
    daily_cap: 100,
};

fn variants() -> Vec<String> {
    vec!["soccer-chess".to_owned(), "gridiron".to_owned()]
}

fn named(name: &str) -> NewBot {
    NewBot {
        name: name.to_owned(),
        ..NewBot::default()
    }
}

async fn caller(accounts: &Accounts, secret: &str) -> Caller {
    accounts.authenticate(secret).await.unwrap()
}

#[tokio::test]
async fn a_bots_first_key_acts_for_it_and_names_are_unique_without_case() {
    let (store, dir) = scratch_store().await;
    let accounts = Accounts::open(store.clone(), DEFAULTS, variants())
        .await
        .unwrap();
    let (bot, issued) = accounts
        .create_bot(named("Keeper"), SystemTime::now())
        .await
        .unwrap();
    assert_eq!((bot.max_concurrent, bot.daily_cap), (1, 100));
    let me = caller(&accounts, &issued.secret).await;
    assert_eq!(me.bot_with(Scope::Play, "").unwrap(), bot.bot_id);
    assert_eq!(me.key.scopes, Scopes::BOT);
    assert!(matches!(
        accounts
            .create_bot(named("KEEPER"), SystemTime::now())
            .await,
        Err(LeagueError::BotNameTaken(_))
    ));
    assert_eq!(accounts.bot_named("keeper").await.unwrap(), bot);
    // A wrong secret under a right key id opens nothing.
    let (key_id, _) = crate::key::parse(&issued.secret).unwrap();
    let forged = format!("pmk_{key_id}_{}", "0".repeat(64));
    assert!(matches!(
        accounts.authenticate(&forged).await,
        Err(LeagueError::InvalidApiKey)
    ));
    assert!(matches!(
        accounts.authenticate("pmk_short").await,
        Err(LeagueError::InvalidApiKey)
    ));
    store.close().await.unwrap();
    dir.remove();
}

#[tokio::test]
async fn managing_needs_the_bots_own_manage_key_and_caps_need_an_operator() {
    let (store, dir) = scratch_store().await;
    let accounts = Accounts::open(store.clone(), DEFAULTS, variants())
        .await
        .unwrap();
    let now = SystemTime::now();
    let (bot, own) = accounts.create_bot(named("one"), now).await.unwrap();
    let (_, rival) = accounts.create_bot(named("two"), now).await.unwrap();
    let own = caller(&accounts, &own.secret).await;
    let rival = caller(&accounts, &rival.secret).await;
    let describe = BotChange {
        description: Some("plays the wing".into()),
        ..BotChange::default()
    };
    assert!(matches!(
        accounts
            .update_bot(&rival, &bot.bot_id, describe.clone())
            .await,
        Err(LeagueError::NotYourBot(_))
    ));
    let changed = accounts
        .update_bot(&own, &bot.bot_id, describe)
        .await
        .unwrap();
    assert_eq!(changed.description, "plays the wing");

    let player = accounts
        .create_key(
            &own,
            Some(&bot.bot_id),
            "play".into(),
            Scopes::of([Scope::Play]),
            now,
        )
        .await
        .unwrap();
    let player = caller(&accounts, &player.secret).await;
    assert!(matches!(
        accounts.keys_of(&player, Some(&bot.bot_id)).await,
        Err(LeagueError::MissingScope {
            scope: Scope::Manage,
            ..
        })
    ));
    let caps = BotChange {
        daily_cap: Some(500),
        ..BotChange::default()
    };
    assert!(matches!(
        accounts.update_bot(&own, &bot.bot_id, caps.clone()).await,
        Err(LeagueError::MissingScope {
            scope: Scope::Operator,
            ..
        })
    ));
    let operator = accounts
        .create_operator_key("ops".into(), now)
        .await
        .unwrap();
    let operator = caller(&accounts, &operator.secret).await;
    assert!(
        operator.bot_with(Scope::Play, "").is_err(),
        "an operator plays for no bot"
    );
    let raised = accounts
        .update_bot(&operator, &bot.bot_id, caps)
        .await
        .unwrap();
    assert_eq!(raised.daily_cap, 500);
    assert!(matches!(
        accounts
            .create_key(&own, None, "ops".into(), Scopes::OPERATOR, now)
            .await,
        Err(LeagueError::MissingScope {
            scope: Scope::Operator,
            ..
        })
    ));
    store.close().await.unwrap();
    dir.remove();
}

#[tokio::test]
async fn a_revoked_key_is_refused_at_once_and_after_a_restart() {
    let (store, dir) = scratch_store().await;
    let accounts = Accounts::open(store.clone(), DEFAULTS, variants())
        .await
        .unwrap();
    let now = SystemTime::now();
    let (bot, first) = accounts.create_bot(named("one"), now).await.unwrap();
    let manager = caller(&accounts, &first.secret).await;
    let second = accounts
        .create_key(
            &manager,
            Some(&bot.bot_id),
            "ci".into(),
            Scopes::of([Scope::Play]),
            now,
        )
        .await
        .unwrap();
    // A key may revoke itself, whatever its scopes.
    let itself = caller(&accounts, &second.secret).await;
    let revoked = accounts
        .revoke_key(&itself, &second.key.key_id, now)
        .await
        .unwrap();
    assert!(revoked.is_revoked());
    assert!(matches!(
        accounts.authenticate(&second.secret).await,
        Err(LeagueError::ApiKeyRevoked(_))
    ));
    let keys = accounts.keys_of(&manager, Some(&bot.bot_id)).await.unwrap();
    assert_eq!(keys.iter().filter(|k| k.is_revoked()).count(), 1);

    let reopened = Accounts::open(store.clone(), DEFAULTS, variants())
        .await
        .unwrap();
    assert!(matches!(
        reopened.authenticate(&second.secret).await,
        Err(LeagueError::ApiKeyRevoked(_))
    ));
    assert!(reopened.authenticate(&first.secret).await.is_ok());
    store.close().await.unwrap();
    dir.remove();
}

/// The operator-key command writes to the store of a running server, which accepts the key
/// the first time it is presented.
#[tokio::test]
async fn a_key_another_process_made_is_picked_up_when_presented() {
    let (store, dir) = scratch_store().await;
    let running = Accounts::open(store.clone(), DEFAULTS, variants())
        .await
        .unwrap();
    let command = Accounts::open(store.clone(), DEFAULTS, Vec::new())
        .await
        .unwrap();
    let made = command
        .create_operator_key("ops".into(), SystemTime::now())
        .await
        .unwrap();
    let operator = running.authenticate(&made.secret).await.unwrap();
    assert!(operator.is_operator());
    store.close().await.unwrap();
    dir.remove();
}
