//! The commands that ask or tell the server one thing: variants, matches, create, join.

use std::fmt::Write as _;

use clap::ValueEnum;
use pitchmate_client::{Client, ClientError, NewMatch, pb};

use crate::describe;

/// Every variant with its board, seats, turns and options, as text.
pub fn variants(variants: &[pb::Variant]) -> String {
    let mut text = String::new();
    for variant in variants {
        let turns = variant
            .turn_structure()
            .as_str_name()
            .trim_start_matches("TURN_STRUCTURE_")
            .to_lowercase()
            .replace('_', "-");
        let mut traits = vec![format!("{turns} turns")];
        for (has, what) in [
            (variant.setup_phase, "setup phase"),
            (variant.chance, "chance"),
            (variant.hidden_information, "hidden information"),
            (variant.draws_possible, "draws possible"),
        ] {
            if has {
                traits.push(what.to_owned());
            }
        }
        let _ = writeln!(
            text,
            "{} - {} ({}x{}, seats {}; {}; rules version {})",
            variant.id,
            variant.name,
            variant.files,
            variant.ranks,
            variant.seats.join(", "),
            traits.join(", "),
            variant.rules_version
        );
        let _ = writeln!(text, "  {}", variant.summary);
        for option in &variant.options {
            let default = option
                .default_value
                .as_ref()
                .map(option_text)
                .unwrap_or_default();
            let range = match option.r#type() {
                pb::OptionType::Int => format!("{} to {}", option.min, option.max),
                pb::OptionType::Bool => "true or false".to_owned(),
                pb::OptionType::Choice => option.choices.join(" | "),
                pb::OptionType::Unspecified => String::new(),
            };
            let _ = writeln!(
                text,
                "  --option {}={default}  ({range}) {}",
                option.name, option.description
            );
        }
    }
    text
}

fn option_text(value: &pb::OptionValue) -> String {
    match &value.kind {
        Some(pb::option_value::Kind::IntValue(v)) => v.to_string(),
        Some(pb::option_value::Kind::BoolValue(v)) => v.to_string(),
        Some(pb::option_value::Kind::StringValue(v)) => v.clone(),
        None => String::new(),
    }
}

/// A match status to filter by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Status {
    Waiting,
    Active,
    Finished,
    Aborted,
}

impl From<Status> for pb::MatchStatus {
    fn from(status: Status) -> Self {
        match status {
            Status::Waiting => pb::MatchStatus::Waiting,
            Status::Active => pb::MatchStatus::Active,
            Status::Finished => pb::MatchStatus::Finished,
            Status::Aborted => pb::MatchStatus::Aborted,
        }
    }
}

/// One page of matches as text, one a line, and how to ask for the next page.
pub fn matches(page: &pb::ListMatchesResponse) -> String {
    let mut text = String::new();
    if page.matches.is_empty() {
        text.push_str("no matches\n");
    }
    for listed in &page.matches {
        let status = listed
            .status()
            .as_str_name()
            .trim_start_matches("MATCH_STATUS_")
            .to_lowercase();
        let seats: Vec<String> = listed
            .seats
            .iter()
            .map(|s| {
                let who = if s.occupied {
                    s.player_name.as_str()
                } else {
                    "(free)"
                };
                format!("{} {who}", s.seat)
            })
            .collect();
        let _ = write!(
            text,
            "{}  {:<12} {:<8} {}",
            listed.match_id,
            listed.variant_id,
            status,
            seats.join(", ")
        );
        if let Some(result) = &listed.result {
            let _ = write!(text, "  {}", describe::result(result));
        }
        text.push('\n');
    }
    if !page.next_page_token.is_empty() {
        let _ = writeln!(text, "more: --page-token {}", page.next_page_token);
    }
    text
}

/// A new match of `variant` with `options` given as `NAME=VALUE`.
pub fn new_match(variant: &str, options: &[String]) -> Result<NewMatch, String> {
    options
        .iter()
        .try_fold(NewMatch::variant(variant), |new, option| {
            new.option_assignment(option)
        })
}

/// Lists one page of matches, filtered.
pub async fn list_matches(
    client: &Client,
    request: pb::ListMatchesRequest,
) -> Result<pb::ListMatchesResponse, ClientError> {
    Ok(client.matches().list_matches(request).await?.into_inner())
}
