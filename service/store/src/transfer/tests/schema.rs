//! The format's table list against each backend's schema: the same tables, columns, kinds,
//! nullability and primary keys, so a table or column added to a backend without being added
//! to the format fails here.

use super::tables::{self, Kind, TABLES};
use super::{Place, places, with_places};

#[test]
fn both_backends_are_at_the_schema_version_the_format_names() {
    assert_eq!(
        crate::sqlite::SCHEMA_VERSION,
        crate::postgres::SCHEMA_VERSION
    );
}

#[test]
fn every_table_orders_by_columns_it_has() {
    for table in TABLES {
        for key in table.key {
            assert!(
                table.column_names().any(|name| name == *key),
                "{}: key column {key}",
                table.name
            );
        }
    }
}

/// A column as a schema declares it: name, kind, whether it takes a null.
type Declared = (String, Kind, bool);

fn format_columns(name: &str) -> (Vec<Declared>, Vec<String>) {
    let table = &TABLES[tables::position(name).expect("a table of the format")];
    let columns = table
        .columns
        .iter()
        .map(|c| (c.name.to_owned(), c.kind, c.nullable))
        .collect();
    (columns, table.key.iter().map(|k| (*k).to_owned()).collect())
}

#[tokio::test]
async fn the_format_has_every_table_and_column_of_the_sqlite_schema() {
    let place = Place::sqlite();
    place.open().await.close().await.unwrap();
    let connection = rusqlite::Connection::open(place.dir.0.join(crate::SQLITE_FILE)).unwrap();
    let tables: Vec<String> = connection
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    // What the format carries in other ways (the version in the header, the tails in the
    // appends' rows: see `transfer/sqlite.rs`), and the leases it leaves out (see `tables.rs`).
    let mut expected: Vec<String> = TABLES.iter().map(|t| t.name.to_owned()).collect();
    expected.extend(["schema_version", "tails", "leases", "lease_tokens"].map(str::to_owned));
    expected.sort();
    assert_eq!(tables, expected);
    for table in &tables {
        // (name, declared type, not null, place in the primary key)
        let declared: Vec<(String, String, bool, i64)> = connection
            .prepare(&format!("PRAGMA table_info({table})"))
            .unwrap()
            .query_map([], |r| Ok((r.get(1)?, r.get(2)?, r.get(3)?, r.get(5)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let names: Vec<&str> = declared.iter().map(|d| d.0.as_str()).collect();
        match table.as_str() {
            "schema_version" | "leases" | "lease_tokens" => continue,
            // What the chain code reads and writes.
            "appends" => assert_eq!(names, ["id", "match_key", "previous", "body"]),
            "tails" => assert_eq!(
                names,
                ["match_key", "appends", "last", "next_input", "next_seq"]
            ),
            _ => {
                let (columns, key) = format_columns(table);
                let found: Vec<Declared> = declared
                    .iter()
                    .map(|(name, kind, not_null, key_place)| {
                        let kind = match (kind.as_str(), columns.iter().find(|c| &c.0 == name)) {
                            ("INTEGER", Some((_, Kind::Bool, _))) => Kind::Bool,
                            ("INTEGER", _) => Kind::Integer,
                            ("TEXT", _) => Kind::Text,
                            ("BLOB", _) => Kind::Bytes,
                            (other, _) => panic!("{table}.{name}: type {other}"),
                        };
                        (name.clone(), kind, !not_null && *key_place == 0)
                    })
                    .collect();
                assert_eq!(found, columns, "the columns of {table}");
                let mut in_key: Vec<&(String, String, bool, i64)> =
                    declared.iter().filter(|d| d.3 > 0).collect();
                in_key.sort_by_key(|d| d.3);
                let found_key: Vec<String> = in_key.iter().map(|d| d.0.clone()).collect();
                assert_eq!(found_key, key, "the primary key of {table}");
            }
        }
    }
    place.remove().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_format_has_every_table_and_column_of_the_postgres_schema() {
    let Some(places) = places(&["postgres"]).await else {
        return;
    };
    with_places(places, |places| async move {
        let place = &places[0];
        place.open().await.close().await.unwrap();
        let (client, connection) = tokio_postgres::connect(&place.url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let tables: Vec<String> = client
            .query(
                "SELECT table_name::TEXT FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                 ORDER BY table_name",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut expected: Vec<String> = TABLES.iter().map(|t| t.name.to_owned()).collect();
        expected.extend(["schema_version", "leases"].map(str::to_owned));
        expected.sort();
        assert_eq!(tables, expected);
        let carried = |table: &&String| !["schema_version", "leases"].contains(&table.as_str());
        for table in tables.iter().filter(carried) {
            let found: Vec<Declared> = client
                .query(
                    "SELECT column_name::TEXT, data_type::TEXT, is_nullable = 'YES' \
                     FROM information_schema.columns \
                     WHERE table_schema = current_schema() AND table_name = $1 \
                     ORDER BY ordinal_position",
                    &[table],
                )
                .await
                .unwrap()
                .iter()
                .map(|r| {
                    let kind = match r.get::<_, String>(1).as_str() {
                        "bigint" | "integer" => Kind::Integer,
                        "text" => Kind::Text,
                        "bytea" => Kind::Bytes,
                        "boolean" => Kind::Bool,
                        other => panic!("{table}: type {other}"),
                    };
                    (r.get(0), kind, r.get(2))
                })
                .collect();
            let (columns, key) = format_columns(table);
            assert_eq!(found, columns, "the columns of {table}");
            let found_key: Vec<String> = client
                .query(
                    "SELECT k.column_name::TEXT FROM information_schema.table_constraints c \
                     JOIN information_schema.key_column_usage k \
                       ON k.constraint_name = c.constraint_name \
                      AND k.table_schema = c.table_schema \
                     WHERE c.table_schema = current_schema() AND c.table_name = $1 \
                       AND c.constraint_type = 'PRIMARY KEY' \
                     ORDER BY k.ordinal_position",
                    &[table],
                )
                .await
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
            assert_eq!(found_key, key, "the primary key of {table}");
        }
    })
    .await;
}
