//! How the checks report a refusal.

use std::fmt;

use crate::game::{Rule, RuleError};

/// What a check makes of a refusal. A player whose action is refused is told which rule it
/// breaks and why ([`Words`]); listing the legal actions tries hundreds of candidates and keeps
/// those that pass, so it asks for a bare [`Verdict`] and no reason is ever put into words for
/// it (writing one for every refused candidate was most of the cost of a listing). The checks
/// are written once, generic over this, so both answer the same.
pub(crate) trait Refusals {
    type Refusal;

    /// The action breaks `rule` (one of [`super::rules::RULES`]); `why` says how and, where it
    /// helps, what would be legal.
    fn refuse(rule: Rule, why: fmt::Arguments<'_>) -> Self::Refusal;

    fn not_your_turn(why: fmt::Arguments<'_>) -> Self::Refusal;

    fn game_over() -> Self::Refusal;
}

/// Refusals as errors naming their rule, for a player.
pub(crate) enum Words {}

impl Refusals for Words {
    type Refusal = RuleError;

    fn refuse(rule: Rule, why: fmt::Arguments<'_>) -> RuleError {
        RuleError::breaks(rule, why)
    }

    fn not_your_turn(why: fmt::Arguments<'_>) -> RuleError {
        RuleError::not_your_turn(why.to_string())
    }

    fn game_over() -> RuleError {
        RuleError::game_over()
    }
}

/// Only whether there is a refusal, for listing the legal actions.
pub(crate) enum Verdict {}

impl Refusals for Verdict {
    type Refusal = ();

    fn refuse(_rule: Rule, _why: fmt::Arguments<'_>) {}

    fn not_your_turn(_why: fmt::Arguments<'_>) {}

    fn game_over() {}
}
