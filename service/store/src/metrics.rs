//! The metrics the store records as it commits (through the `metrics` facade: nothing is kept
//! unless the server installed a recorder).

/// Seconds one group commit took, from its start to the database's answer (histogram).
pub const COMMIT_SECONDS: &str = "pitchmate_store_commit_seconds";
/// Writes that went into one group commit (histogram).
pub const COMMIT_WRITES: &str = "pitchmate_store_commit_writes";

pub fn describe() {
    metrics::describe_histogram!(
        COMMIT_SECONDS,
        metrics::Unit::Seconds,
        "Seconds one group commit of match writes took"
    );
    metrics::describe_histogram!(COMMIT_WRITES, "Writes in one group commit");
}
