//! An event's record (to be written).
