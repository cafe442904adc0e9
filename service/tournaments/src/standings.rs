//! Standings and tie-breaks (to be written: see the session's spec).
