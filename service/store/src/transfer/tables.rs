//! The tables an export carries, in the order it carries them: a table comes after every table
//! its rows refer to, so an import can insert them as they arrive. Each lists its columns as
//! the format has them and the key its rows are ordered by (its primary key).
//!
//! Both backends have these tables with these columns, with one exception: the format's
//! `appends` is PostgreSQL's table, while SQLite keeps appends linked by row with their
//! match's position in `tails` (see `sqlite.rs` here). `schema_version` travels in the header.
//! Leases (`leases`, and SQLite's token counter `lease_tokens`) are not carried: they are
//! claims of running servers, timed by the source database's clock, and a moved store starts
//! with none (no writer of the old store can reach the new one, so fencing tokens may start
//! afresh). The tests compare this list with each backend's schema, so a table or column added
//! to either without being added here (or to what is knowingly left out) fails them.

/// What a column holds, as the format writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Integer,
    Text,
    Bytes,
    /// `BOOLEAN` in PostgreSQL, 0 or 1 in SQLite.
    Bool,
}

#[derive(Debug)]
pub(crate) struct Column {
    pub name: &'static str,
    pub kind: Kind,
    pub nullable: bool,
}

#[derive(Debug)]
pub(crate) struct Table {
    pub name: &'static str,
    pub columns: &'static [Column],
    /// The primary key: rows are exported in its order.
    pub key: &'static [&'static str],
}

impl Table {
    pub fn column_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.columns.iter().map(|c| c.name)
    }
}

const fn integer(name: &'static str) -> Column {
    Column {
        name,
        kind: Kind::Integer,
        nullable: false,
    }
}

const fn text(name: &'static str) -> Column {
    Column {
        name,
        kind: Kind::Text,
        nullable: false,
    }
}

const fn bytes(name: &'static str) -> Column {
    Column {
        name,
        kind: Kind::Bytes,
        nullable: false,
    }
}

const fn flag(name: &'static str) -> Column {
    Column {
        name,
        kind: Kind::Bool,
        nullable: false,
    }
}

const fn or_null(column: Column) -> Column {
    Column {
        nullable: true,
        ..column
    }
}

/// The name of the table of appends, which SQLite lays out differently.
pub(crate) const APPENDS: &str = "appends";
/// The table whose rows SQLite gives a row of `tails` each.
pub(crate) const MATCHES: &str = "matches";

pub(crate) const TABLES: &[Table] = &[
    Table {
        name: MATCHES,
        columns: &[
            integer("created"),
            text("match_id"),
            text("variant_id"),
            integer("status"),
            bytes("setup"),
            bytes("summary"),
        ],
        key: &["created"],
    },
    Table {
        name: APPENDS,
        columns: &[
            integer("match_key"),
            integer("number"),
            integer("next_input"),
            integer("next_seq"),
            bytes("body"),
        ],
        key: &["match_key", "number"],
    },
    Table {
        name: "players",
        columns: &[text("player_name"), integer("match_key")],
        key: &["player_name", "match_key"],
    },
    Table {
        name: "lifecycle",
        columns: &[
            integer("position"),
            text("match_id"),
            text("variant_id"),
            integer("time_nanos"),
            bytes("body"),
        ],
        key: &["position"],
    },
    Table {
        name: "bots",
        columns: &[
            text("bot_id"),
            text("name"),
            text("name_key"),
            text("owner"),
            text("description"),
            text("variants"),
            integer("max_concurrent"),
            integer("daily_cap"),
            integer("create_time_nanos"),
        ],
        key: &["bot_id"],
    },
    Table {
        name: "api_keys",
        columns: &[
            text("key_id"),
            or_null(text("bot_id")),
            text("label"),
            integer("scopes"),
            bytes("secret_hash"),
            integer("create_time_nanos"),
            or_null(integer("revoke_time_nanos")),
        ],
        key: &["key_id"],
    },
    Table {
        name: "follower_cursors",
        columns: &[text("follower"), integer("position")],
        key: &["follower"],
    },
    Table {
        name: "inbox_heads",
        columns: &[text("bot_id"), integer("last_seq")],
        key: &["bot_id"],
    },
    Table {
        name: "inbox_items",
        columns: &[
            text("bot_id"),
            integer("seq"),
            integer("kind"),
            bytes("body"),
            integer("time_nanos"),
        ],
        key: &["bot_id", "seq"],
    },
    Table {
        name: "bot_seats",
        columns: &[
            text("bot_id"),
            text("match_id"),
            text("seat"),
            text("variant_id"),
            integer("time_nanos"),
            flag("live"),
        ],
        key: &["match_id", "seat"],
    },
    Table {
        name: "challenges",
        columns: &[
            text("challenge_id"),
            text("challenger"),
            or_null(text("target")),
            bytes("terms"),
            integer("created_nanos"),
            integer("expires_nanos"),
            integer("state"),
            or_null(text("responder")),
            integer("decline_reason"),
            or_null(text("match_id")),
            or_null(integer("resolved_nanos")),
        ],
        key: &["challenge_id"],
    },
    Table {
        name: "assigned_matches",
        columns: &[
            text("match_id"),
            text("first_bot"),
            text("second_bot"),
            text("pool"),
            bytes("terms"),
            integer("assigned_nanos"),
            integer("state"),
        ],
        key: &["match_id"],
    },
    Table {
        name: "bot_policies",
        columns: &[text("bot_id"), bytes("policy")],
        key: &["bot_id"],
    },
    Table {
        name: "ratings",
        columns: &[text("pool"), text("bot_id"), bytes("body")],
        key: &["pool", "bot_id"],
    },
    Table {
        name: "rating_changes",
        columns: &[
            integer("number"),
            text("match_id"),
            text("pool"),
            text("bot_id"),
            bytes("body"),
            integer("rated_nanos"),
        ],
        key: &["number"],
    },
    Table {
        name: "queue_tickets",
        columns: &[
            text("ticket_id"),
            text("bot_id"),
            text("pool"),
            bytes("terms"),
            integer("entered_nanos"),
            integer("state"),
            or_null(text("match_id")),
        ],
        key: &["ticket_id"],
    },
    Table {
        name: "tournaments",
        columns: &[
            text("tournament_id"),
            text("name"),
            text("organiser"),
            bytes("spec"),
            integer("state"),
            integer("created_nanos"),
            integer("starts_nanos"),
            integer("rounds_paired"),
            or_null(integer("finished_nanos")),
            text("end_reason"),
        ],
        key: &["tournament_id"],
    },
    Table {
        name: "tournament_entries",
        columns: &[
            text("tournament_id"),
            text("bot_id"),
            integer("rating"),
            integer("joined_nanos"),
            integer("first_round"),
            integer("state"),
        ],
        key: &["tournament_id", "bot_id"],
    },
    Table {
        name: "tournament_rounds",
        columns: &[
            text("tournament_id"),
            integer("round"),
            bytes("body"),
            integer("paired_nanos"),
            integer("deadline_nanos"),
        ],
        key: &["tournament_id", "round"],
    },
    Table {
        name: "tournament_games",
        columns: &[
            text("match_id"),
            text("tournament_id"),
            integer("round"),
            text("first_bot"),
            text("second_bot"),
            or_null(integer("outcome")),
            or_null(integer("ended_nanos")),
        ],
        key: &["match_id"],
    },
    Table {
        name: "tournament_log_heads",
        columns: &[text("tournament_id"), integer("last_seq")],
        key: &["tournament_id"],
    },
    Table {
        name: "tournament_log",
        columns: &[
            text("tournament_id"),
            integer("seq"),
            integer("kind"),
            bytes("body"),
            integer("time_nanos"),
        ],
        key: &["tournament_id", "seq"],
    },
];

/// The table's place in [`TABLES`].
pub(crate) fn position(name: &str) -> Option<usize> {
    TABLES.iter().position(|table| table.name == name)
}

/// A key column's kind, for ordering by it.
pub(crate) fn kind_of(table: &Table, column: &str) -> Kind {
    table
        .columns
        .iter()
        .find(|c| c.name == column)
        .map_or(Kind::Integer, |c| c.kind)
}
