//! Bots and API keys, against both backends.

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use super::{TestSchema, action};
use crate::scratch::ScratchDir;
use crate::{ApiKeyRow, BotRow, Store, StoreError, StoreHealth};

fn bot(bot_id: &str, name: &str) -> BotRow {
    BotRow {
        bot_id: bot_id.to_owned(),
        name: name.to_owned(),
        owner: format!("owner of {name}"),
        description: format!("{name} plays\nwell"),
        variants: vec!["soccer-chess".to_owned(), "gridiron".to_owned()],
        max_concurrent: 4,
        daily_cap: 100,
        create_time_nanos: 1_700_000_000_000_000_000,
    }
}

fn key(key_id: &str, bot_id: Option<&str>, create_time_nanos: i64) -> ApiKeyRow {
    ApiKeyRow {
        key_id: key_id.to_owned(),
        bot_id: bot_id.map(str::to_owned),
        label: format!("label of {key_id}"),
        // The top bit too: the store keeps every bit of a u32.
        scopes: 0x8000_0005,
        secret_hash: key_id.bytes().cycle().take(32).collect(),
        create_time_nanos,
        revoke_time_nanos: None,
    }
}

fn conflict(result: Result<impl std::fmt::Debug, StoreError>, mentions: &str) {
    match result {
        Err(StoreError::Conflict(message)) => {
            assert!(message.contains(mentions), "{message:?} names {mentions:?}")
        }
        other => panic!("expected a conflict naming {mentions:?}, got {other:?}"),
    }
}

async fn names(store: &Store) -> Vec<String> {
    let bots = store.bots(None, 1000).await.unwrap();
    bots.into_iter().map(|b| b.name).collect()
}

fn key_ids(keys: Vec<ApiKeyRow>) -> Vec<String> {
    keys.into_iter().map(|k| k.key_id).collect()
}

/// Every promise about bots and keys, against whichever backend `open` opens (each call opens
/// the same database anew).
async fn accounts<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    assert!(names(&store).await.is_empty());
    assert!(store.keys().await.unwrap().is_empty());
    assert_eq!(store.bot("b1").await.unwrap(), None);

    // A bot with its first key; found by id and by name in any case.
    let alice = bot("b1", "Alice");
    store
        .create_bot(alice.clone(), Some(key("k1", Some("b1"), 100)))
        .await
        .unwrap();
    assert_eq!(store.bot("b1").await.unwrap(), Some(alice.clone()));
    assert_eq!(store.bot_named("aLICE").await.unwrap(), Some(alice.clone()));
    assert_eq!(store.bot_named("alice ").await.unwrap(), None);
    assert_eq!(
        store.keys_of("b1").await.unwrap(),
        [key("k1", Some("b1"), 100)]
    );

    // The name in another case is taken; nothing of the refused bot is written.
    conflict(
        store
            .create_bot(bot("b2", "ALICE"), Some(key("k2", Some("b2"), 100)))
            .await,
        "ALICE",
    );
    assert_eq!(store.bot("b2").await.unwrap(), None);
    assert_eq!(key_ids(store.keys().await.unwrap()), ["k1"]);
    // So is the bot id.
    conflict(store.create_bot(bot("b1", "Other"), None).await, "b1");
    assert_eq!(store.bot_named("other").await.unwrap(), None);
    // A first key whose id is taken takes the bot with it.
    conflict(
        store
            .create_bot(bot("b3", "Carol"), Some(key("k1", Some("b3"), 100)))
            .await,
        "k1",
    );
    assert_eq!(store.bot("b3").await.unwrap(), None);
    assert_eq!(store.bot_named("carol").await.unwrap(), None);
    assert!(store.keys_of("b3").await.unwrap().is_empty());
    assert_eq!(store.keys().await.unwrap(), [key("k1", Some("b1"), 100)]);
    // The name was not kept back: with a fresh key id the bot is made.
    let mut carol = bot("b3", "Carol");
    carol.variants = Vec::new();
    store.create_bot(carol.clone(), None).await.unwrap();
    assert_eq!(store.bot_named("CAROL").await.unwrap(), Some(carol.clone()));

    // Pages by lower-cased name, byte by byte: uppercase letters come before `_` and lowercase
    // ones as they are, not once lowered.
    for (n, name) in [
        "bob", "Dave", "eve", "Frank", "gina", "HAL", "_under", "0zero", "Zed",
    ]
    .into_iter()
    .enumerate()
    {
        store
            .create_bot(bot(&format!("p{n}"), name), None)
            .await
            .unwrap();
    }
    let by_name = [
        "0zero", "_under", "Alice", "bob", "Carol", "Dave", "eve", "Frank", "gina", "HAL", "Zed",
    ];
    assert_eq!(names(&store).await, by_name);
    let mut paged = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = store.bots(after.as_deref(), 3).await.unwrap();
        assert!(page.len() <= 3);
        paged.extend(page.iter().map(|b| b.name.clone()));
        if page.len() < 3 {
            break;
        }
        // The last name in another case continues all the same.
        after = page.last().map(|b| b.name.to_ascii_uppercase());
    }
    assert_eq!(paged, by_name);
    let after_c: Vec<String> = store
        .bots(Some("C"), 2)
        .await
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(after_c, ["Carol", "Dave"], "strictly after, bot or not");
    assert!(store.bots(Some("zed"), 10).await.unwrap().is_empty());
    assert!(store.bots(None, 0).await.unwrap().is_empty());

    // An update sets everything but the create time, a new name included.
    let alicia = BotRow {
        bot_id: "b1".to_owned(),
        name: "alicia".to_owned(),
        owner: "someone else".to_owned(),
        description: String::new(),
        variants: vec!["kings-goal".to_owned()],
        max_concurrent: u32::MAX,
        daily_cap: 0,
        create_time_nanos: 5,
    };
    assert!(
        store
            .update_bot(alicia.clone(), Vec::new())
            .await
            .unwrap()
            .is_some()
    );
    let alicia = BotRow {
        create_time_nanos: alice.create_time_nanos,
        ..alicia
    };
    assert_eq!(store.bot("b1").await.unwrap(), Some(alicia.clone()));
    assert_eq!(
        store.bot_named("ALICIA").await.unwrap(),
        Some(alicia.clone())
    );
    assert_eq!(
        store.bot_named("alice").await.unwrap(),
        None,
        "the old name is free"
    );
    // Another bot's name, in any case, is refused, and nothing of the update is written.
    let clash = BotRow {
        name: "BOB".to_owned(),
        owner: "thief".to_owned(),
        ..alicia.clone()
    };
    conflict(store.update_bot(clash, Vec::new()).await, "BOB");
    assert_eq!(store.bot("b1").await.unwrap(), Some(alicia.clone()));
    // Its own name in another case is no clash.
    let recased = BotRow {
        name: "Alicia".to_owned(),
        ..alicia.clone()
    };
    assert!(
        store
            .update_bot(recased.clone(), Vec::new())
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(store.bot("b1").await.unwrap(), Some(recased.clone()));
    assert!(
        store
            .update_bot(bot("nope", "Nope"), Vec::new())
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(store.bot("nope").await.unwrap(), None);
    // A variant id that would not read back as written is refused.
    let garbled = BotRow {
        variants: vec!["a\nb".to_owned()],
        ..recased.clone()
    };
    assert!(matches!(
        store.update_bot(garbled, Vec::new()).await,
        Err(StoreError::Database(_))
    ));
    assert_eq!(store.bot("b1").await.unwrap(), Some(recased.clone()));

    // Keys: none for a bot that does not exist, no id twice; operator keys belong to no bot.
    conflict(store.create_key(key("k9", Some("ghost"), 1)).await, "ghost");
    conflict(store.create_key(key("k1", None, 1)).await, "k1");
    for created in [
        key("op", None, 50),
        key("kb", Some("b1"), 300),
        key("kc", Some("b3"), 200),
        // Ties in create time go by key id, byte by byte.
        key("ka", Some("b1"), 300),
        key("kB", Some("b1"), 300),
    ] {
        store.create_key(created).await.unwrap();
    }
    let all = store.keys().await.unwrap();
    assert_eq!(key_ids(all.clone()), ["op", "k1", "kc", "kB", "ka", "kb"]);
    assert_eq!(all[0], key("op", None, 50), "every column as written");
    assert_eq!(
        key_ids(store.keys_of("b1").await.unwrap()),
        ["k1", "kB", "ka", "kb"]
    );
    assert_eq!(key_ids(store.keys_of("b3").await.unwrap()), ["kc"]);
    assert!(store.keys_of("ghost").await.unwrap().is_empty());

    // A key is revoked once; the first revocation's time stays.
    assert!(store.revoke_key("ka", 400).await.unwrap());
    assert!(!store.revoke_key("ka", 500).await.unwrap());
    assert!(!store.revoke_key("unknown", 400).await.unwrap());
    let revoked = ApiKeyRow {
        revoke_time_nanos: Some(400),
        ..key("ka", Some("b1"), 300)
    };
    assert_eq!(store.keys_of("b1").await.unwrap()[2], revoked);

    // While the store is unwritable, account writes are refused as every write is.
    let failed = store.append(action("no-such-match", 0, 1)).await;
    assert!(matches!(failed, Err(StoreError::Database(_))), "{failed:?}");
    let unwritable = |result: Result<(), StoreError>| {
        assert!(
            matches!(result, Err(StoreError::Unwritable(_))),
            "{result:?}"
        );
    };
    unwritable(store.create_bot(bot("b9", "Nine"), None).await);
    unwritable(store.create_key(key("k8", None, 1)).await);
    unwritable(
        store
            .update_bot(bot("b1", "x"), Vec::new())
            .await
            .map(|_| ()),
    );
    unwritable(store.revoke_key("kb", 1).await.map(|_| ()));
    tokio::time::timeout(
        Duration::from_secs(10),
        store.health().wait_for(|h| *h == StoreHealth::Writable),
    )
    .await
    .expect("a probe succeeds")
    .expect("the store is open");
    assert_eq!(store.bot_named("nine").await.unwrap(), None);
    assert_eq!(store.keys().await.unwrap(), {
        let mut expected = all.clone();
        expected[4] = revoked.clone();
        expected
    });

    let bots_before = store.bots(None, 1000).await.unwrap();
    let keys_before = store.keys().await.unwrap();
    store.close().await.unwrap();
    assert_eq!(
        store.create_key(key("late", None, 1)).await,
        Err(StoreError::Closed)
    );

    // Everything is there after reopening, and the rules still hold.
    let store = open().await.expect("reopen");
    assert_eq!(store.bots(None, 1000).await.unwrap(), bots_before);
    assert_eq!(store.keys().await.unwrap(), keys_before);
    assert_eq!(store.bot("b1").await.unwrap(), Some(recased));
    assert_eq!(store.bot_named("carol").await.unwrap(), Some(carol));
    assert_eq!(store.keys_of("b1").await.unwrap()[2], revoked);
    assert!(!store.revoke_key("ka", 600).await.unwrap());
    conflict(store.create_bot(bot("b7", "eVe"), None).await, "eVe");
    conflict(store.create_key(key("kc", None, 1)).await, "kc");
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_bots_and_keys() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    accounts(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_keeps_bots_and_keys() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let dir = PathBuf::from("unused-by-postgres");
    let outcome = tokio::spawn(async move { accounts(|| Store::open(&url, &dir)).await }).await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

/// Two servers sharing one database create bots of one name at once: one gets it, the other a
/// conflict (not a database error), every time.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_racing_for_a_name_conflict_cleanly() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let outcome = tokio::spawn(async move {
        let dir = PathBuf::from("unused-by-postgres");
        let first = Store::open(&url, &dir).await.unwrap();
        let second = Store::open(&url, &dir).await.unwrap();
        for round in 0..20 {
            let name = format!("racer{round}");
            let (one, other) = tokio::join!(
                first.create_bot(bot(&format!("x{round}"), &name), None),
                second.create_bot(bot(&format!("y{round}"), &name.to_uppercase()), None),
            );
            let conflicts = [&one, &other]
                .iter()
                .filter(|r| matches!(r, Err(StoreError::Conflict(_))))
                .count();
            assert!(
                conflicts == 1 && (one.is_ok() || other.is_ok()),
                "{one:?} {other:?}"
            );
        }
        assert_eq!(first.bots(None, 100).await.unwrap().len(), 20);
        first.close().await.unwrap();
        second.close().await.unwrap();
    })
    .await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}
