use crate::pb;

/// What a bot picks from the legal actions.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// An index into the legal actions it was given.
    Index(u32),
    /// An action in the variant's notation.
    Notation(String),
    /// A typed action.
    Action(pb::Action),
}

/// A player. Given what its seat sees and the legal actions (never empty), it picks one.
pub trait Bot: Send {
    fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice;

    /// Whether `choose` looks at the view. When it does not, the play loop acts straight from
    /// the server's turn prompts, one call per action, and passes an empty view; when it does,
    /// the loop also fetches the legal actions with the view for every choice.
    fn needs_view(&self) -> bool {
        true
    }

    /// Whether the play loop hands the bot the match (variant, options in effect, seats) through
    /// [`Bot::begin`] before its first choice: a bot that runs the rules engine itself needs the
    /// options the match was created with, which no view carries.
    fn needs_match(&self) -> bool {
        false
    }

    /// The match about to be played, once, before the first choice (when [`Bot::needs_match`]).
    fn begin(&mut self, _game: &pb::Match) {}

    /// How much of each legal action `choose` reads: the server then lists only that.
    /// By default each action comes typed and in notation.
    fn action_detail(&self) -> pb::ActionDetail {
        pb::ActionDetail::Unspecified
    }

    /// Called with every event the seat's stream brings, in order and each once (after a
    /// reconnect the stream resumes after the last one seen), before the prompt it leads to.
    /// A player that shows the match (a person at a terminal) redraws here.
    fn observe(&mut self, _event: &pb::MatchEvent) {}

    /// Called with the server's answer to each action the play loop sent, accepted or refused,
    /// as it arrives (after the events the action caused). An accepted answer means the action
    /// is durable; one marked `duplicate` answers an action sent again after a cut, whose first
    /// sending was applied, perhaps of an earlier choice for the same state. The loop returns
    /// at the match's end, which comes before the answer to the action that ended it, so that
    /// answer is not waited for. A client that keeps its own record of what was played (an
    /// audit, a test) keeps it here.
    fn acted(&mut self, _outcome: &pb::ActionOutcome) {}

    /// Whether to be asked again for the same turn after the server refused a choice for a
    /// reason choosing differently can mend (an illegal action, an unreadable notation). A
    /// person who mistyped says yes, having been shown `refusal`; a program would only repeat
    /// itself, so by default the refusal ends the play loop.
    fn retry_refused(&mut self, _refusal: &pb::ActionRefused) -> bool {
        false
    }
}

/// Picks uniformly among the legal actions, reproducibly from its seed.
#[derive(Clone, Debug)]
pub struct RandomChoice {
    rng: fastrand::Rng,
}

impl RandomChoice {
    pub fn seeded(seed: u64) -> Self {
        Self {
            rng: fastrand::Rng::with_seed(seed),
        }
    }
}

impl Bot for RandomChoice {
    fn choose(&mut self, _view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
        Choice::Index(legal[self.rng.usize(..legal.len())].index)
    }

    fn needs_view(&self) -> bool {
        false
    }

    /// It reads only the index, so the smallest listing will do.
    fn action_detail(&self) -> pb::ActionDetail {
        pb::ActionDetail::Notation
    }
}
