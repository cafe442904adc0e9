//! Stores in temporary directories of their own, for tests (here and in other crates, with the
//! `scratch` feature).

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
