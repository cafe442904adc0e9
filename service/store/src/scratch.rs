//! Stores in temporary directories, and PostgreSQL schemas, of their own, for tests (here and in
//! other crates, with the `scratch` feature).

use std::path::PathBuf;

use crate::Store;

/// A directory of its own for one test, removed by [`ScratchDir::remove`].
pub struct ScratchDir(pub PathBuf);

impl ScratchDir {
    pub fn new() -> Self {
        let path = std::env::temp_dir().join(format!("pitchmate-store-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&path).expect("scratch directory");
        Self(path)
    }

    pub fn remove(self) {
        std::fs::remove_dir_all(&self.0).expect("remove the scratch directory");
    }
}

impl Default for ScratchDir {
    fn default() -> Self {
        Self::new()
    }
}

/// A SQLite store in a fresh directory.
pub async fn scratch_store() -> (Store, ScratchDir) {
    let dir = ScratchDir::new();
    let store = Store::open("", &dir.0).await.expect("open sqlite");
    (store, dir)
}

/// The database PostgreSQL tests use unless `PITCHMATE_TEST_POSTGRES_URL` names another.
const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A schema of its own in the test database, or `None` (with a notice) when no server answers
/// outside CI. Its `url` makes a store work in it (the schema is its search path); removed by
/// [`ScratchSchema::drop_schema`].
pub struct ScratchSchema {
    admin: tokio_postgres::Client,
    name: String,
    pub url: String,
}

impl ScratchSchema {
    pub async fn create() -> Option<Self> {
        let base = std::env::var("PITCHMATE_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_owned());
        let admin = match tokio_postgres::connect(&base, tokio_postgres::NoTls).await {
            Ok((client, connection)) => {
                tokio::spawn(connection);
                client
            }
            Err(error) if std::env::var_os("CI").is_some() => {
                panic!("CI is set but PostgreSQL at {base} is unreachable: {error}")
            }
            Err(error) => {
                eprintln!("skipping the PostgreSQL suite: {base} is unreachable ({error})");
                return None;
            }
        };
        let name = format!("pitchmate_test_{}", uuid::Uuid::new_v4().simple());
        admin
            .batch_execute(&format!("CREATE SCHEMA {name}"))
            .await
            .expect("create the test schema");
        let separator = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{separator}options=-csearch_path%3D{name}");
        Some(Self { admin, name, url })
    }

    /// Ends the connections named `application_name` (in the URL) whose last statement was a
    /// `LISTEN`, as `pg_terminate_backend` does: what a listener sees when its connection
    /// breaks. Returns how many were ended.
    pub async fn cut_listeners(&self, application_name: &str) -> usize {
        let ended = self
            .admin
            .query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name = $1 AND query LIKE 'LISTEN %'",
                &[&application_name],
            )
            .await
            .expect("terminate the listeners");
        ended.iter().filter(|row| row.get::<_, bool>(0)).count()
    }

    pub async fn drop_schema(self) {
        self.admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name))
            .await
            .expect("drop the test schema");
    }
}
