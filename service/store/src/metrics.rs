//! The metrics the store records as it commits (through the `metrics` facade: nothing is kept
//! unless the server installed a recorder).

/// Seconds one group commit took, from its start to the database's answer (histogram).
pub const COMMIT_SECONDS: &str = "pitchmate_store_commit_seconds";
/// Writes that went into one group commit (histogram).
pub const COMMIT_WRITES: &str = "pitchmate_store_commit_writes";
/// Writes refused because their fencing token was no longer their match's lease's (counter).
pub const FENCED_WRITES: &str = "pitchmate_store_fenced_writes_total";
/// Changes of leases this server made or found, by `change` (counter): `acquired` (a new
/// token), `renewed` (the same token, later expiry), `lost` (a renewal, release or expiry found
/// the lease taken or gone), `released` and `expired` (let lapse at once, handing over).
pub const LEASE_CHANGES: &str = "pitchmate_store_lease_changes_total";

pub fn describe() {
    metrics::describe_histogram!(
        COMMIT_SECONDS,
        metrics::Unit::Seconds,
        "Seconds one group commit of match writes took"
    );
    metrics::describe_histogram!(COMMIT_WRITES, "Writes in one group commit");
    metrics::describe_counter!(
        FENCED_WRITES,
        "Match writes refused because their lease had moved on from their fencing token"
    );
    metrics::describe_counter!(
        LEASE_CHANGES,
        "Leases acquired, renewed, lost and released, by change"
    );
}
