//! How the checks report a refusal.

use std::fmt;

use crate::game::{RuleError, RuleErrorKind};

/// What a check makes of a refusal. A player whose action is refused is told why in words
/// ([`Words`]); listing the legal actions tries hundreds of candidates and keeps those that
/// pass, so it asks for a bare [`Verdict`] and no reason is ever put into words for it (writing
/// one for every refused candidate was most of the cost of a listing). The checks are written
/// once, generic over this, so both answer the same.
pub(crate) trait Refusals {
    type Refusal;

    fn refuse(kind: RuleErrorKind, why: fmt::Arguments<'_>) -> Self::Refusal;

    /// A refusal already put into words by a check that is not generic.
    fn written(error: RuleError) -> Self::Refusal;

    fn illegal(why: fmt::Arguments<'_>) -> Self::Refusal {
        Self::refuse(RuleErrorKind::IllegalAction, why)
    }

    fn not_your_turn(why: fmt::Arguments<'_>) -> Self::Refusal {
        Self::refuse(RuleErrorKind::NotYourTurn, why)
    }
}

/// Refusals as errors with their reason, for a player.
pub(crate) enum Words {}

impl Refusals for Words {
    type Refusal = RuleError;

    fn refuse(kind: RuleErrorKind, why: fmt::Arguments<'_>) -> RuleError {
        RuleError::new(kind, why.to_string())
    }

    fn written(error: RuleError) -> RuleError {
        error
    }
}

/// Only whether there is a refusal, for listing the legal actions.
pub(crate) enum Verdict {}

impl Refusals for Verdict {
    type Refusal = ();

    fn refuse(_kind: RuleErrorKind, _why: fmt::Arguments<'_>) {}

    fn written(_error: RuleError) {}
}
