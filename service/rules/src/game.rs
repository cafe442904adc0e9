//! The abstraction every game implements.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::board::BoardView;
use crate::options::{OptionSpec, Options};
use crate::rng::{Rng, Seed};

/// A seat at the table, `0..info().seats.len()`. Names live in [`VariantInfo::seats`].
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other seat of a two-seat game.
    pub const fn opponent(self) -> Self {
        Self(1 - self.0)
    }
}

/// Who is looking at the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    /// Whether this viewer may see what `owner` keeps hidden.
    pub fn sees_private_of(self, owner: Seat) -> bool {
        self == Viewer::Seat(owner)
    }
}

/// Who may see an event or an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    Public,
    /// Only this seat; everyone else learns only that something hidden happened.
    Seat(Seat),
}

impl Visibility {
    pub fn visible_to(self, viewer: Viewer) -> bool {
        match self {
            Visibility::Public => true,
            Visibility::Seat(seat) => viewer.sees_private_of(seat),
        }
    }
}

/// An event produced by applying an action, with who may see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Emitted<E> {
    pub event: E,
    pub visibility: Visibility,
}

impl<E> Emitted<E> {
    pub fn public(event: E) -> Self {
        Self {
            event,
            visibility: Visibility::Public,
        }
    }

    pub fn private(seat: Seat, event: E) -> Self {
        Self {
            event,
            visibility: Visibility::Seat(seat),
        }
    }
}

/// How a variant's turns are organised, for clients choosing how to play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStructure {
    /// One action per turn, seats alternate.
    Alternating,
    /// A turn is several atomic actions by one seat, ended by the rules or by an explicit
    /// "end turn" action.
    MultiAction,
    /// Some phases have every seat submit hidden orders at once, revealed together.
    Simultaneous,
}

/// Static description of a variant, as `ListVariants` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The API id, e.g. `soccer-chess`.
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub files: u8,
    pub ranks: u8,
    /// Seat names in seat order.
    pub seats: Vec<&'static str>,
    pub turn_structure: TurnStructure,
    /// The most atomic actions one seat takes in one turn.
    pub max_actions_per_turn: u32,
    /// Whether matches open with a setup phase (placement, lineups).
    pub setup_phase: bool,
    pub chance: bool,
    pub hidden_information: bool,
    /// Whether a match can end without a winner, so a draw offer makes sense. XFutebol always
    /// names a winner (a shoot-out and at last a coin toss break ties); the others can end level.
    pub draws_possible: bool,
    pub options: Vec<OptionSpec>,
    /// Bumped whenever a rule change would make old logs replay differently.
    pub rules_version: &'static str,
    /// One line describing the position notation accepted as a custom start.
    pub position_notation: &'static str,
}

/// Whose move it is and what kind of move.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// A short name of the phase: `setup`, `play`, `planning`, `shootout`, ...
    pub phase: String,
    /// Seats that may act now. Empty when the match is over. Several in a simultaneous phase.
    pub to_act: Vec<Seat>,
    /// The game's own turn counter (a set number, a ply, a down).
    pub number: u32,
    /// Atomic actions left in this turn for the seat to act, when the game bounds them.
    pub actions_left: Option<u32>,
    /// Whether an explicit end-turn action is among the legal ones.
    pub may_end_turn: bool,
}

impl Turn {
    pub fn is_to_act(&self, seat: Seat) -> bool {
        self.to_act.contains(&seat)
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` is a draw.
    pub winner: Option<Seat>,
    /// One score per seat.
    pub scores: Vec<u32>,
    /// A human-readable reason: "more goals on aggregate", "golden goal", ...
    pub reason: String,
}

/// Everything needed to start a game.
#[derive(Clone, Debug)]
pub struct SetupSpec {
    /// Resolved against [`VariantInfo::options`], defaults filled in.
    pub options: Options,
    pub seed: Seed,
    /// A custom start position in the variant's position notation.
    pub position: Option<String>,
}

/// A rule of a game that a refusal enforces. Each game lists the rules its refusals cite
/// ([`Game::rules`]), and its rules page (`docs/rules/<variant>.md`) explains each by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Stable and unique within its game: bots may match on it (`keeper-area`).
    pub id: &'static str,
    /// The rule in a few words, as the refusal message states it.
    pub text: &'static str,
}

/// Why an action, option or position was refused. Refusal never changes state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct RuleError {
    pub kind: RuleErrorKind,
    /// The rule an illegal action breaks; set on every `IllegalAction` refusal.
    pub rule: Option<Rule>,
    /// Says what was wrong and, where it helps, what would be legal.
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleErrorKind {
    IllegalAction,
    NotYourTurn,
    MalformedNotation,
    InvalidOption,
    InvalidPosition,
    GameOver,
}

impl RuleError {
    pub fn new(kind: RuleErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            rule: None,
            message: message.into(),
        }
    }

    /// An illegal action, refused by `rule`. The message starts with the rule's words, then
    /// says what in this action breaks it and, where it helps, what would be legal.
    pub fn breaks(rule: Rule, detail: impl std::fmt::Display) -> Self {
        Self {
            kind: RuleErrorKind::IllegalAction,
            rule: Some(rule),
            message: format!("{}: {detail}", rule.text),
        }
    }

    pub fn not_your_turn(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::NotYourTurn, message)
    }

    pub fn malformed(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::MalformedNotation, message)
    }

    pub fn invalid_option(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::InvalidOption, message)
    }

    pub fn invalid_position(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::InvalidPosition, message)
    }

    pub fn game_over() -> Self {
        Self::new(
            RuleErrorKind::GameOver,
            "the game is over; no more actions are accepted",
        )
    }
}

/// A game engine. Pure and deterministic: no I/O, no clocks, no global randomness; chance comes
/// only from the seed in [`SetupSpec`].
///
/// Contract every engine keeps (and the shared property tests check):
/// - `apply` accepts exactly the actions `legal_actions` lists for a seat in `turn().to_act`,
///   and on refusal leaves the state untouched;
/// - `parse_action(format_action(a)) == a` for every legal `a`;
/// - replaying the same actions from the same `SetupSpec` reaches an equal state;
/// - once `outcome()` is `Some`, `turn().to_act` is empty.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + Sized + 'static {
    /// Serialisable so that a host can keep actions and events in a format of its own, apart
    /// from any wire contract.
    type Action: Clone + Debug + PartialEq + Eq + Send + Sync + Serialize + DeserializeOwned;
    type Event: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned;
    /// Typed per-game view details that ride beside the generic board view.
    type Details: Clone + Debug + PartialEq + Send + Sync;

    fn info() -> VariantInfo;

    /// Every rule this game's refusals cite, each once.
    fn rules() -> &'static [Rule] {
        &[]
    }

    fn new(setup: &SetupSpec) -> Result<Self, RuleError>;

    fn turn(&self) -> Turn;

    /// The legal actions of `seat` now; empty when it is not that seat's turn.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<Vec<Emitted<Self::Event>>, RuleError>;

    fn outcome(&self) -> Option<Outcome>;

    /// The current score, one entry per seat.
    fn scores(&self) -> Vec<u32>;

    fn board(&self, viewer: Viewer) -> BoardView;

    fn details(&self, viewer: Viewer) -> Self::Details;

    /// The canonical notation of a legal action in the current state.
    fn format_action(&self, seat: Seat, action: &Self::Action) -> String;

    /// The canonical notations of legal actions of `seat`, in order: exactly what
    /// `format_action` gives for each. A game whose notation of one action depends on the other
    /// legal actions (disambiguation) overrides it to work that out once for the whole list.
    fn format_actions(&self, seat: Seat, actions: &[Self::Action]) -> Vec<String> {
        actions
            .iter()
            .map(|action| self.format_action(seat, action))
            .collect()
    }

    /// Reads notation. Unreadable text is `MalformedNotation`; readable text that names no legal
    /// action is `IllegalAction`.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<Self::Action, RuleError>;

    /// The whole current state in the variant's position notation.
    fn position(&self) -> String;

    /// The whole state as `viewer` may see it, in the position notation: what a seat's bot
    /// rebuilds its engine from. A game with hidden information writes what `viewer` cannot see
    /// as unknown, and reading such a position draws the unknown part from the seed; games
    /// without hidden information show everyone `position()`.
    fn position_for(&self, _viewer: Viewer) -> String {
        self.position()
    }

    /// What happened when the game was set up, before any action (a coin flip for the starting
    /// seat, a seeded ball placement). The host logs these once, right after creating a match.
    fn opening_events(&self) -> Vec<Emitted<Self::Event>> {
        Vec::new()
    }

    /// Who may see that `seat` took `action`; hidden orders are private until revealed.
    fn action_visibility(&self, _seat: Seat, _action: &Self::Action) -> Visibility {
        Visibility::Public
    }

    /// Replaces the chance generator by a fast one seeded from `rng`, so that what follows no
    /// longer depends on the match's seed (a search's samples, never a match, draw from it).
    /// Games without chance keep the default, which does nothing.
    fn reseed_chance(&mut self, _rng: &mut Rng) {}

    /// A determinization for `seat`: a state consistent with everything `seat` sees (its board,
    /// details and legal actions are those of `self`), with what `seat` cannot see drawn afresh
    /// from `rng`. A searching bot plays on such samples so that it never uses what its seat
    /// cannot know. The default reseeds the chance generator (the dice are not foreseen); a game
    /// with hidden information overrides it to redraw the hidden part as well.
    fn sampled_for(&self, _seat: Seat, rng: &mut Rng) -> Self {
        let mut sample = self.clone();
        sample.reseed_chance(rng);
        sample
    }

    /// The action played for a seat that ran out of time.
    fn default_action(&self, seat: Seat) -> Option<Self::Action> {
        self.legal_actions(seat).into_iter().next()
    }
}

/// Resolves raw options against a variant's declared ones and starts a game.
pub fn start<G: Game>(
    given: &std::collections::BTreeMap<String, crate::OptionValue>,
    seed: Seed,
    position: Option<String>,
) -> Result<G, RuleError> {
    let options = Options::resolve(&G::info().options, given)?;
    G::new(&SetupSpec {
        options,
        seed,
        position,
    })
}
