//! A bot: a name that lasts beyond one seat, its owner, the variants it plays and its caps.

use std::time::SystemTime;

use pitchmate_store::{BotCaps, BotRow};

use crate::error::LeagueError;
use crate::{nanos, time};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bot {
    pub bot_id: String,
    /// Unique among bots without regard to ASCII case; shown as its seats' player name.
    pub name: String,
    pub owner: String,
    pub description: String,
    /// The variants the bot plays; empty for every one.
    pub variants: Vec<String>,
    /// At most this many live matches at once.
    pub max_concurrent: u32,
    /// At most this many matches a day.
    pub daily_cap: u32,
    pub create_time: SystemTime,
}

/// The fields an update sets; `None` leaves one as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotChange {
    pub name: Option<String>,
    pub owner: Option<String>,
    pub description: Option<String>,
    pub variants: Option<Vec<String>>,
    pub max_concurrent: Option<u32>,
    pub daily_cap: Option<u32>,
}

impl BotChange {
    /// Whether the change touches a cap, which only an operator may.
    pub fn sets_caps(&self) -> bool {
        self.max_concurrent.is_some() || self.daily_cap.is_some()
    }
}

pub const MAX_NAME: usize = 32;
pub const MAX_OWNER: usize = 64;
pub const MAX_DESCRIPTION: usize = 500;
/// The most live matches or matches a day any bot may be allowed.
pub const MAX_CAP: u32 = 1_000_000;

fn invalid(field: &'static str, message: String) -> LeagueError {
    LeagueError::InvalidField { field, message }
}

/// A name is what other bots challenge and leaderboards show: short, and plain enough to type.
pub fn check_name(field: &'static str, name: &str) -> Result<(), LeagueError> {
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if name.is_empty() || name.len() > MAX_NAME || !plain {
        return Err(invalid(
            field,
            format!(
                "a bot name is 1 to {MAX_NAME} letters, digits, `-` and `_`; `{}` is not",
                name.chars().take(40).collect::<String>()
            ),
        ));
    }
    Ok(())
}

/// Free text shown to people: bounded, and without control characters that could garble it.
pub fn check_text(field: &'static str, text: &str, max: usize) -> Result<(), LeagueError> {
    if text.chars().count() > max {
        return Err(invalid(
            field,
            format!("`{field}` is longer than {max} characters"),
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(invalid(
            field,
            format!("`{field}` holds control characters"),
        ));
    }
    Ok(())
}

pub fn check_variants(
    field: &'static str,
    variants: &[String],
    known: &[String],
) -> Result<(), LeagueError> {
    for variant in variants {
        if !known.contains(variant) {
            return Err(invalid(
                field,
                format!(
                    "no variant has the id `{}`; this server hosts: {}",
                    variant.chars().take(40).collect::<String>(),
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

pub fn check_cap(field: &'static str, cap: u32) -> Result<(), LeagueError> {
    if cap == 0 || cap > MAX_CAP {
        return Err(invalid(
            field,
            format!("`{field}` is from 1 to {MAX_CAP}, not {cap}"),
        ));
    }
    Ok(())
}

impl Bot {
    /// Its caps as an assigning transaction checks them, counting the day from `day_start_nanos`.
    pub fn caps(&self, day_start_nanos: i64) -> BotCaps {
        BotCaps {
            bot_id: self.bot_id.clone(),
            max_concurrent: self.max_concurrent,
            daily_cap: self.daily_cap,
            day_start_nanos,
        }
    }

    pub fn to_row(&self) -> BotRow {
        BotRow {
            bot_id: self.bot_id.clone(),
            name: self.name.clone(),
            owner: self.owner.clone(),
            description: self.description.clone(),
            variants: self.variants.clone(),
            max_concurrent: self.max_concurrent,
            daily_cap: self.daily_cap,
            create_time_nanos: nanos(self.create_time),
        }
    }

    pub fn from_row(row: BotRow) -> Self {
        Bot {
            bot_id: row.bot_id,
            name: row.name,
            owner: row.owner,
            description: row.description,
            variants: row.variants,
            max_concurrent: row.max_concurrent,
            daily_cap: row.daily_cap,
            create_time: time(row.create_time_nanos),
        }
    }

    /// The bot with `change` applied, once every changed field is checked.
    pub fn changed(
        mut self,
        change: BotChange,
        known_variants: &[String],
    ) -> Result<Self, LeagueError> {
        if let Some(name) = change.name {
            check_name("bot.name", &name)?;
            self.name = name;
        }
        if let Some(owner) = change.owner {
            check_text("bot.owner", &owner, MAX_OWNER)?;
            self.owner = owner;
        }
        if let Some(description) = change.description {
            check_text("bot.description", &description, MAX_DESCRIPTION)?;
            self.description = description;
        }
        if let Some(variants) = change.variants {
            check_variants("bot.variants", &variants, known_variants)?;
            self.variants = variants;
        }
        if let Some(cap) = change.max_concurrent {
            check_cap("bot.max_concurrent", cap)?;
            self.max_concurrent = cap;
        }
        if let Some(cap) = change.daily_cap {
            check_cap("bot.daily_cap", cap)?;
            self.daily_cap = cap;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_and_plain() {
        for good in ["a", "Deep-Pitch_2", &"x".repeat(MAX_NAME)] {
            assert!(check_name("name", good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "has space",
            "émile",
            "new\nline",
            &"x".repeat(MAX_NAME + 1),
        ] {
            assert!(check_name("name", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn text_is_bounded_and_printable() {
        assert!(check_text("owner", "Ann <ann@example.org>", MAX_OWNER).is_ok());
        assert!(check_text("description", "two\nlines", MAX_DESCRIPTION).is_ok());
        assert!(check_text("owner", "bell\u{7}", MAX_OWNER).is_err());
        assert!(check_text("owner", &"é".repeat(MAX_OWNER + 1), MAX_OWNER).is_err());
    }

    #[test]
    fn a_change_is_checked_field_by_field_and_leaves_the_rest() {
        let bot = Bot {
            bot_id: "b".into(),
            name: "one".into(),
            owner: "ann".into(),
            description: String::new(),
            variants: Vec::new(),
            max_concurrent: 1,
            daily_cap: 100,
            create_time: SystemTime::UNIX_EPOCH,
        };
        let known = vec!["gridiron".to_owned()];
        let changed = bot
            .clone()
            .changed(
                BotChange {
                    description: Some("plays fast".into()),
                    variants: Some(known.clone()),
                    ..BotChange::default()
                },
                &known,
            )
            .unwrap();
        assert_eq!(changed.description, "plays fast");
        assert_eq!((changed.name.as_str(), changed.max_concurrent), ("one", 1));
        let unknown = BotChange {
            variants: Some(vec!["chess".into()]),
            ..BotChange::default()
        };
        assert!(matches!(
            bot.clone().changed(unknown, &known),
            Err(LeagueError::InvalidField {
                field: "bot.variants",
                ..
            })
        ));
        let zero = BotChange {
            daily_cap: Some(0),
            ..BotChange::default()
        };
        assert!(zero.sets_caps() && bot.changed(zero, &known).is_err());
    }
}
