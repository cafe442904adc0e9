//! An always-on ladder's pairing (to be written: see the session's spec).
