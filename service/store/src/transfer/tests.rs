//! Export and import between the backends: the format's tables are exactly each backend's,
//! a league's worth of rows goes from SQLite to PostgreSQL and back row for row (and from
//! PostgreSQL to SQLite), the moved store carries on where the old one stood, an export is one
//! snapshot, and an import writes all or nothing. PostgreSQL runs as the store's own suite
//! does (a schema of its own per store; skipped with a notice without a server, outside CI).

mod fill;
mod schema;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use super::tables::TABLES;
use super::*;
use crate::scratch::ScratchDir;
use crate::tests::TestSchema;
use crate::{Append, InputKind, InputRow, Listing, Store, StoreHealth};

/// Where a store lives for one test: a scratch directory, and a schema of its own for
/// PostgreSQL.
struct Place {
    url: String,
    dir: ScratchDir,
    schema: Option<TestSchema>,
}

impl Place {
    fn sqlite() -> Self {
        Self {
            url: String::new(),
            dir: ScratchDir::new(),
            schema: None,
        }
    }

    async fn postgres() -> Option<Self> {
        let schema = TestSchema::create().await?;
        Some(Self {
            url: schema.url.clone(),
            dir: ScratchDir::new(),
            schema: Some(schema),
        })
    }

    fn is_sqlite(&self) -> bool {
        self.schema.is_none()
    }

    async fn open(&self) -> Store {
        Store::open(&self.url, &self.dir.0).await.expect("open")
    }

    async fn export(&self) -> (Vec<u8>, Counts) {
        export(&self.url, &self.dir.0, Vec::new())
            .await
            .expect("export")
    }

    async fn import(&self, file: &[u8]) -> Result<Counts, TransferError> {
        import(&self.url, &self.dir.0, std::io::Cursor::new(file.to_vec())).await
    }

    async fn remove(self) {
        self.dir.remove();
        if let Some(schema) = self.schema {
            schema.drop_schema().await;
        }
    }
}

/// Runs `scenario` on the places, then removes them whether it passed or not.
async fn with_places<F, Fut>(places: Vec<Place>, scenario: F)
where
    F: FnOnce(Arc<Vec<Place>>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let places = Arc::new(places);
    let outcome = tokio::spawn(scenario(Arc::clone(&places))).await;
    let places = Arc::into_inner(places).expect("the scenario let its places go");
    for place in places {
        place.remove().await;
    }
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

/// The places, or `None` when PostgreSQL is wanted and unreachable (outside CI).
async fn places(kinds: &[&str]) -> Option<Vec<Place>> {
    let mut places = Vec::new();
    for kind in kinds {
        match *kind {
            "sqlite" => places.push(Place::sqlite()),
            _ => match Place::postgres().await {
                Some(place) => places.push(place),
                None => {
                    for place in places {
                        place.remove().await;
                    }
                    return None;
                }
            },
        }
    }
    Some(places)
}

fn lines(file: &[u8]) -> Vec<&str> {
    std::str::from_utf8(file).expect("UTF-8").lines().collect()
}

/// Every line after the header: the rows, then the trailer.
fn rows(file: &[u8]) -> Vec<&str> {
    lines(file).split_off(1)
}

fn header(file: &[u8]) -> serde_json::Value {
    serde_json::from_str(lines(file)[0]).expect("a JSON header")
}

/// What a store shows through its own calls, for comparing a moved store with its source.
#[derive(Debug, PartialEq, Eq)]
struct Shown {
    listed: Vec<(i64, String, Vec<u8>)>,
    loaded: Vec<crate::StoredMatch>,
    last_position: u64,
    ratings: Vec<crate::RatingRow>,
    changes: Vec<crate::RatingChangeRow>,
    keys: Vec<crate::ApiKeyRow>,
    inbox_bounds: Vec<(u64, u64)>,
    tournament_log_head: u64,
}

async fn shown(store: &Store) -> Shown {
    let listed = store.list(&Listing::default(), None, 10_000).await.unwrap();
    let mut loaded = Vec::new();
    for row in &listed {
        loaded.push(store.load(&row.match_id).await.unwrap().unwrap());
    }
    let mut inbox_bounds = Vec::new();
    for bot_id in fill::BOTS {
        inbox_bounds.push(store.inbox_bounds(bot_id).await.unwrap());
    }
    Shown {
        listed: listed
            .into_iter()
            .map(|r| (r.key, r.match_id, r.summary))
            .collect(),
        loaded,
        last_position: store.last_position(),
        ratings: store.ratings(None, None).await.unwrap(),
        changes: store.rating_changes(None, 0, 10_000).await.unwrap(),
        keys: store.keys().await.unwrap(),
        inbox_bounds,
        tournament_log_head: store.tournament_log_head("cup-1").await.unwrap(),
    }
}

/// A moved store shows what its source showed and carries on from there: a new match takes a
/// new key, the live match's next input follows its last, rating changes and inbox items are
/// numbered on.
async fn carries_on(moved: &Store, source: &Shown) {
    assert_eq!(&shown(moved).await, source);
    let newest = source.listed.iter().map(|l| l.0).max().unwrap();
    fill::played(
        moved,
        "after-the-move",
        [fill::BOTS[0], fill::BOTS[2]],
        false,
    )
    .await;
    fill::rated(
        moved,
        "after-the-move",
        [fill::BOTS[0], fill::BOTS[2]],
        true,
    )
    .await;
    let listed = moved.list(&Listing::default(), None, 1).await.unwrap();
    assert_eq!(listed[0].match_id, "after-the-move");
    assert!(
        listed[0].key > newest,
        "a new match takes a key after the moved ones"
    );
    let changes = moved.rating_changes(None, 0, 10_000).await.unwrap();
    let numbers: Vec<u64> = changes.iter().map(|c| c.number).collect();
    let last = source.changes.last().unwrap().number;
    assert_eq!(numbers[numbers.len() - 2..], [last + 1, last + 2]);
    let (_, newest_seq) = source.inbox_bounds[1];
    let added = moved
        .append_inbox(vec![later_item(fill::BOTS[1])])
        .await
        .unwrap();
    assert_eq!(added[0].seq, newest_seq + 1);
    // The live match goes on from its stored tail: input 5 is next, so 4 is refused.
    let live = source.listed.iter().find(|l| l.2 == b"running");
    let live = &live.expect("a live match").1;
    let act = |number| Append {
        match_id: live.clone(),
        inputs: vec![InputRow {
            number,
            kind: InputKind::Acted,
            seat: 0,
            player_name: String::new(),
            token_hash: Vec::new(),
            account: String::new(),
            action: vec![1],
        }],
        ..Append::default()
    };
    assert!(
        moved.append(act(4)).await.is_err(),
        "input 4 of {live} again"
    );
    tokio::time::timeout(
        Duration::from_secs(10),
        moved.health().wait_for(|h| *h == StoreHealth::Writable),
    )
    .await
    .expect("the store writes again")
    .unwrap();
    moved.append(act(5)).await.unwrap();
}

fn later_item(bot_id: &str) -> crate::NewInboxItem {
    crate::NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind: 9,
        body: b"written later".to_vec(),
        time_nanos: fill::T0 + 9_999,
    }
}

/// Exports `source`, imports into `target`, exports that again: the same rows, in the same
/// order. Returns the first export.
async fn moved(source: &Place, target: &Place) -> Vec<u8> {
    let (file, counts) = source.export().await;
    let imported = target.import(&file).await.expect("import");
    assert_eq!(imported, counts);
    let (again, _) = target.export().await;
    assert_eq!(rows(&again), rows(&file), "the rows after the move");
    let (from, to) = (header(&file), header(&again));
    assert_eq!(from["schema_version"], to["schema_version"]);
    let backend = |place: &Place| {
        if place.is_sqlite() {
            "sqlite"
        } else {
            "postgresql"
        }
    };
    assert_eq!(from["source"], backend(source));
    assert_eq!(to["source"], backend(target));
    file
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_moves_from_sqlite_to_postgres_and_back_row_for_row() {
    let Some(places) = places(&["sqlite", "postgres", "sqlite"]).await else {
        return;
    };
    with_places(places, |places| async move {
        let [source, postgres, back] = &places[..] else {
            unreachable!()
        };
        let store = source.open().await;
        fill::league(&store, 6).await;
        let before = shown(&store).await;
        store.close().await.unwrap();

        let file = moved(source, postgres).await;
        let (_, counts) = source.export().await;
        for table in TABLES {
            assert!(counts.of(table.name) > 0, "the league fills {}", table.name);
        }
        assert!(
            std::str::from_utf8(&file)
                .unwrap()
                .contains(&format!("\"{}\"", fill::T0 + 1)),
            "a time beyond 2^53 is written as a string"
        );
        moved(postgres, back).await;
        for place in [postgres, back] {
            let store = place.open().await;
            carries_on(&store, &before).await;
            store.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_moves_from_postgres_to_sqlite_and_sqlite_to_sqlite() {
    let Some(places) = places(&["postgres", "sqlite", "sqlite"]).await else {
        return;
    };
    with_places(places, |places| async move {
        let [source, sqlite, again] = &places[..] else {
            unreachable!()
        };
        let store = source.open().await;
        fill::league(&store, 4).await;
        let before = shown(&store).await;
        store.close().await.unwrap();
        moved(source, sqlite).await;
        moved(sqlite, again).await;
        let store = again.open().await;
        carries_on(&store, &before).await;
        store.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_into_a_store_that_holds_rows_is_refused() {
    let Some(places) = places(&["sqlite", "sqlite", "postgres"]).await else {
        return;
    };
    with_places(places, |places| async move {
        let store = places[0].open().await;
        fill::league(&store, 2).await;
        store.close().await.unwrap();
        let (file, _) = places[0].export().await;
        // More rows than are ever in flight, so the reader is still sending when the import
        // refuses, and must be stopped.
        let many = edited(&file, |index, line| {
            Some(if index == 1 {
                vec![line; 3 * IN_FLIGHT].join("\n")
            } else {
                line.to_owned()
            })
        });
        for target in &places[1..] {
            let store = target.open().await;
            fill::accounts(&store).await;
            store.close().await.unwrap();
            let (held, _) = target.export().await;
            let refused = tokio::time::timeout(Duration::from_secs(30), target.import(&many));
            let error = refused
                .await
                .expect("a refusal ends the import")
                .unwrap_err();
            let message = error.to_string();
            assert!(
                matches!(error, TransferError::Refused(_))
                    && message.contains("not empty")
                    && message.contains("bots 3"),
                "{message}"
            );
            assert_eq!(
                rows(&target.export().await.0),
                rows(&held),
                "nothing changed"
            );
        }
    })
    .await;
}

/// The export with one line changed by `edit` (given the line's index and text; `None` drops
/// it).
fn edited(file: &[u8], edit: impl Fn(usize, &str) -> Option<String>) -> Vec<u8> {
    let mut out = String::new();
    for (index, line) in lines(file).into_iter().enumerate() {
        if let Some(line) = edit(index, line) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_or_altered_export_is_refused_and_nothing_is_written() {
    let Some(places) = places(&["sqlite", "sqlite", "postgres"]).await else {
        return;
    };
    with_places(places, |places| async move {
        let store = places[0].open().await;
        fill::league(&store, 3).await;
        store.close().await.unwrap();
        let (file, counts) = places[0].export().await;
        let last = lines(&file).len() - 1;
        let first_append = lines(&file)
            .iter()
            .position(|line| line.starts_with("{\"table\":\"appends\""))
            .unwrap();
        let matches = counts.of("matches");
        const SCHEMA: i64 = crate::sqlite::SCHEMA_VERSION;
        let schema = |version: i64| format!("\"schema_version\":{version}");
        let older = format!("schema version {}", SCHEMA - 1);
        // The faults of the header first: until another fault has created the schema, a
        // PostgreSQL target (one for every fault) shows whether a bad header touched it.
        let faults: Vec<(&str, Vec<u8>, &str)> = vec![
            ("empty", Vec::new(), "empty"),
            (
                "another format version",
                edited(&file, |i, l| {
                    Some(if i == 0 {
                        l.replace("\"format_version\":1", "\"format_version\":2")
                    } else {
                        l.to_owned()
                    })
                }),
                "format version 2",
            ),
            (
                "another schema version",
                edited(&file, |i, l| {
                    Some(if i == 0 {
                        l.replace(&schema(SCHEMA), &schema(SCHEMA - 1))
                    } else {
                        l.to_owned()
                    })
                }),
                &older,
            ),
            (
                "no trailer",
                edited(&file, |i, l| (i != last).then(|| l.to_owned())),
                "cut short",
            ),
            (
                "cut in a line",
                file[..file.len() / 2].to_vec(),
                "cut short",
            ),
            (
                "a row missing",
                edited(&file, |i, l| (i != first_append).then(|| l.to_owned())),
                "the trailer says appends has",
            ),
            (
                "a text where a number belongs",
                edited(&file, |i, l| {
                    Some(if i == first_append {
                        l.replace("\"number\":0", "\"number\":\"zero\"")
                    } else {
                        l.to_owned()
                    })
                }),
                "appends.number",
            ),
            (
                // Passes every check of the file, then the database refuses the second copy
                // of a match after rows were written: they are rolled back.
                "a match twice",
                edited(&file, |i, l| {
                    Some(if i == 1 {
                        format!("{l}\n{l}")
                    } else if i == last {
                        l.replace(
                            &format!("\"matches\":{matches}"),
                            &format!("\"matches\":{}", matches + 1),
                        )
                    } else {
                        l.to_owned()
                    })
                }),
                "refused",
            ),
        ];
        for target in &places[1..] {
            for (index, (fault, input, says)) in faults.iter().enumerate() {
                // A data directory of its own for each fault, to see whether one is touched.
                let dir = target.dir.0.join(format!("fault-{index}"));
                let file = std::io::Cursor::new(input.clone());
                let error = import(&target.url, &dir, file)
                    .await
                    .unwrap_err()
                    .to_string();
                assert!(error.contains(says), "{fault}: {error}");
                let bad_header = *fault == "empty" || fault.contains("version");
                match export(&target.url, &dir, Vec::new()).await {
                    Ok((now, counts)) => {
                        assert!(!bad_header, "{fault}: a bad header touches no store");
                        assert_eq!(counts.total(), 0, "{fault}: nothing written: {now:?}");
                    }
                    // No store there at all.
                    Err(TransferError::Refused(_)) => {}
                    Err(other) => panic!("{fault}: {other}"),
                }
            }
        }
    })
    .await;
}

/// An output that stops at its first write until told to go on, so the test can write to the
/// store in the middle of an export.
struct Paused {
    bytes: Vec<u8>,
    pause: Option<(std::sync::mpsc::Sender<()>, std::sync::mpsc::Receiver<()>)>,
}

impl std::io::Write for Paused {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some((paused, resume)) = self.pause.take() {
            paused.send(()).unwrap();
            resume.recv().unwrap();
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes to the store while an export is half done (its output stopped after the first
/// 64 KiB, the backend's reading held up behind it): the export has none of it.
async fn one_snapshot(place: &Place) {
    let store = place.open().await;
    fill::accounts(&store).await;
    let mut games = tokio::task::JoinSet::new();
    for index in 0..300 {
        let store = store.clone();
        games.spawn(async move {
            let id = format!("match-{index:04}");
            fill::played(&store, &id, [fill::BOTS[0], fill::BOTS[1]], false).await;
        });
    }
    games.join_all().await;
    let (before, _) = place.export().await;

    let (paused, on_pause) = std::sync::mpsc::channel();
    let (resume, on_resume) = std::sync::mpsc::channel();
    let out = Paused {
        bytes: Vec::new(),
        pause: Some((paused, on_resume)),
    };
    let (url, dir) = (place.url.clone(), place.dir.0.clone());
    let exporting = tokio::spawn(async move { export(&url, &dir, out).await });
    tokio::task::spawn_blocking(move || on_pause.recv())
        .await
        .unwrap()
        .expect("the export wrote");
    fill::played(
        &store,
        "during-the-export",
        [fill::BOTS[1], fill::BOTS[2]],
        false,
    )
    .await;
    store
        .append_inbox(vec![later_item(fill::BOTS[2])])
        .await
        .unwrap();
    resume.send(()).unwrap();
    let (during, _) = exporting.await.unwrap().expect("export");
    assert_eq!(
        rows(&during.bytes),
        rows(&before),
        "the export is one snapshot"
    );
    let (after, _) = place.export().await;
    assert_ne!(rows(&after), rows(&before), "the writes happened");
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_export_is_one_snapshot_while_the_store_is_written() {
    let place = Place::sqlite();
    one_snapshot(&place).await;
    place.remove().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_export_is_one_snapshot_while_the_store_is_written() {
    let Some(places) = places(&["postgres"]).await else {
        return;
    };
    with_places(
        places,
        |places| async move { one_snapshot(&places[0]).await },
    )
    .await;
}
