//! The metrics the match core records as actions happen (through the `metrics` facade: nothing
//! is kept unless the server installed a recorder).

/// Actions the match accepted and stored (counter); a repeated submission answered from its
/// stored answer counts under [`ACTIONS_DUPLICATE`] instead.
pub const ACTIONS_ACCEPTED: &str = "pitchmate_actions_accepted_total";
/// Submissions answered from the answer stored for their `client_action_id` (counter).
pub const ACTIONS_DUPLICATE: &str = "pitchmate_actions_duplicate_total";
/// Actions the match refused, by `reason`: the stable `ErrorInfo.reason` the caller got
/// (counter).
pub const ACTIONS_REFUSED: &str = "pitchmate_actions_refused_total";
/// Seconds from handing an action to its match until its answer, stored (histogram).
pub const SUBMIT_SECONDS: &str = "pitchmate_submit_seconds";

/// Matches whose lease this server holds, in cluster mode (gauge, read at each scrape).
pub const LEASES_HELD: &str = "pitchmate_leases_held";

pub fn describe() {
    metrics::describe_counter!(ACTIONS_ACCEPTED, "Actions accepted and stored");
    metrics::describe_counter!(
        ACTIONS_DUPLICATE,
        "Submissions answered from the answer stored for their client_action_id"
    );
    metrics::describe_counter!(ACTIONS_REFUSED, "Actions refused, by reason");
    metrics::describe_gauge!(LEASES_HELD, "Matches whose lease this server holds");
    metrics::describe_histogram!(
        SUBMIT_SECONDS,
        metrics::Unit::Seconds,
        "From handing an action to its match until its stored answer"
    );
}
