//! A Swiss round's pairing (to be written: see the session's spec).
