//! The Pitchmate games on the wire: the rules<->proto mapping and the type erasure the match
//! actors work through.
//!
//! Each game implements [`ProtoMapping`] (its own file here): how its actions, events and
//! details look on the wire. [`Hosted`] turns any such game into a [`HostedGame`], the
//! object-safe face an actor holds; [`GameRegistry`] maps variant ids to constructors. The
//! server hosts matches through it, and anyone can re-simulate a finished match with it.

pub mod chance;
mod chessyball;
#[cfg(test)]
mod conformance;
mod convert;
mod gridiron;
mod kings_goal;
mod mirror;
pub mod ndjson;
mod soccer_chess;
pub mod verify;
mod xfutebol;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{
    Emitted, Game, Outcome, RuleError, RuleErrorKind, Seat, Seed, Turn, VariantInfo, Viewer,
    Visibility,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

pub use convert::{
    option_from_proto, option_to_proto, scores_to_proto, square_from_proto, square_to_proto,
    turn_to_proto, variant_to_proto,
};

/// Why a game refused a request. The engine's own refusals keep their [`RuleError`], with the
/// rule an illegal action breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("no variant has the id `{id}`; this server hosts: {known}")]
    UnknownVariant { id: String, known: String },
    /// A message that is not a readable request of this game (a typed action of another game,
    /// fields missing, an index out of range).
    #[error("{0}")]
    InvalidArgument(String),
    #[error("{0}")]
    InvalidOption(String),
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// A kept [`EngineValue`] that is not a value of this game.
    #[error("a kept value does not read as one of this game's: {0}")]
    Undecodable(String),
}

impl GameError {
    fn illegal(rule: Option<pitchmate_rules::Rule>, message: String) -> Self {
        Self::Rule(RuleError {
            kind: RuleErrorKind::IllegalAction,
            rule,
            message,
        })
    }
}

/// How many legal notations an ILLEGAL_ACTION message quotes.
const LEGAL_EXAMPLES: usize = 12;

/// The conversions one game needs to be hosted.
pub trait ProtoMapping: Game {
    fn action_to_proto(action: &Self::Action) -> pb::Action;

    /// Reads a typed action. A message for another game, or one with fields missing, is
    /// INVALID_ARGUMENT; whether the action is legal is checked afterwards.
    fn action_from_proto(action: &pb::Action) -> Result<Self::Action, GameError>;

    fn event_to_proto(event: &Self::Event, seats: &[&'static str]) -> pb::GameEvent;

    fn details_to_proto(details: &Self::Details, seats: &[&'static str])
    -> pb::match_view::Details;
}

/// How a submitted action names what to do.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionChoice {
    /// An index into the seat's current legal actions.
    Index(u32),
    Typed(pb::Action),
    Notation(String),
}

/// One game's action or event in a host's own format, apart from the wire: the engine value's
/// serde form, as JSON text. Only the game it came from reads it back (see
/// [`HostedGame::event_to_wire`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EngineValue(Box<RawValue>);

impl EngineValue {
    fn of<T: Serialize>(value: &T) -> Self {
        // The rules' values are plain data: serialising them cannot fail.
        Self(serde_json::value::to_raw_value(value).expect("engine values serialise"))
    }

    fn read<T: DeserializeOwned>(&self) -> Result<T, GameError> {
        serde_json::from_str(self.0.get())
            .map_err(|e| GameError::Undecodable(format!("{e} in {}", self.0.get())))
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }
}

/// Equal as text. Whether two values mean the same to their game (a field added since one was
/// kept, say) is [`HostedGame::same_event`]'s to say.
impl PartialEq for EngineValue {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

/// An event a game emitted: its value and how it looks on the wire.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEvent {
    pub value: EngineValue,
    pub wire: pb::GameEvent,
    pub visibility: Visibility,
}

/// An accepted action and what it caused.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The action in canonical typed form.
    pub action: pb::Action,
    /// The action in the host's own format.
    pub action_value: EngineValue,
    pub notation: String,
    pub action_visibility: Visibility,
    pub events: Vec<GameEvent>,
}

/// A game behind a trait object, speaking proto types.
pub trait HostedGame: Send + Sync {
    fn info(&self) -> &VariantInfo;
    fn turn(&self) -> &Turn;
    /// The seat's legal actions now, each as index and, as `detail` says, typed action and
    /// notation.
    fn legal_actions(&self, seat: Seat, detail: pb::ActionDetail) -> Vec<pb::LegalAction>;
    /// The same, for a caller that asks once per state (a turn prompt): built afresh rather
    /// than built, kept and copied, unless a listing is already kept.
    fn legal_actions_once(&self, seat: Seat, detail: pb::ActionDetail) -> Vec<pb::LegalAction>;
    /// Plays an action for `seat`. On error nothing changed.
    fn play(&mut self, seat: Seat, choice: &ActionChoice) -> Result<Played, GameError>;
    /// The board, turn, scores and details as `viewer` may see them.
    fn view(&self, viewer: Viewer, version: u64) -> pb::MatchView;
    fn outcome(&self) -> Option<Outcome>;
    fn scores(&self) -> Vec<u32>;
    /// What setting the game up decided (a coin flip, a seeded ball placement), logged once
    /// right after the match is created.
    fn opening_events(&self) -> Vec<GameEvent>;
    /// The action the server plays for a seat that ran out of time; `None` when it has none.
    fn default_action(&self, seat: Seat) -> Option<pb::Action>;
    /// A kept event of this game as it looks on the wire now.
    fn event_to_wire(&self, value: &EngineValue) -> Result<pb::GameEvent, GameError>;
    /// A kept action of this game as it looks on the wire now.
    fn action_to_wire(&self, value: &EngineValue) -> Result<pb::Action, GameError>;
    /// Whether two kept events are the same event of this game: read, then compared, so that
    /// how they were written (the order of fields, a field added since) does not count.
    fn same_event(&self, a: &EngineValue, b: &EngineValue) -> bool;
    /// The same, for actions.
    fn same_action(&self, a: &EngineValue, b: &EngineValue) -> bool;
}

/// Any mapped game, hosted.
///
/// Generating moves and formatting notation are the costly part of hosting a game, and a bot
/// asks for the same state's turn and legal actions several times: it lists them, then names one
/// (by index, typed or notation), and the actor reads the turn for views and announcements in
/// between. So the turn and each seat's legal actions are worked out once per state, when first
/// asked, and forgotten when an action changes the state.
pub struct Hosted<G: ProtoMapping> {
    game: G,
    info: VariantInfo,
    turn: OnceLock<Turn>,
    /// One entry per seat.
    legal: Vec<OnceLock<SeatActions<G>>>,
}

/// A seat's legal actions in the current state.
struct SeatActions<G: ProtoMapping> {
    actions: Vec<G::Action>,
    /// The same actions as listed on the wire, typed and in notation; only formatted when a
    /// listing is asked for, since a bot may name an action without listing them first.
    listed: OnceLock<Vec<pb::LegalAction>>,
}

impl<G: ProtoMapping> Hosted<G> {
    pub fn start(
        options: &BTreeMap<String, pitchmate_rules::OptionValue>,
        seed: Seed,
        position: Option<String>,
    ) -> Result<Self, RuleError> {
        let info = G::info();
        Ok(Self {
            game: pitchmate_rules::start::<G>(options, seed, position)?,
            legal: info.seats.iter().map(|_| OnceLock::new()).collect(),
            turn: OnceLock::new(),
            info,
        })
    }

    fn current_turn(&self) -> &Turn {
        self.turn.get_or_init(|| self.game.turn())
    }

    fn seat_actions(&self, seat: Seat) -> &SeatActions<G> {
        self.legal[seat.index()].get_or_init(|| SeatActions {
            actions: self.game.legal_actions(seat),
            listed: OnceLock::new(),
        })
    }

    fn listed(&self, seat: Seat) -> &[pb::LegalAction] {
        let seat_actions = self.seat_actions(seat);
        seat_actions
            .listed
            .get_or_init(|| self.list(seat, &seat_actions.actions, pb::ActionDetail::Unspecified))
    }

    /// `actions` as listed on the wire, spelled out as `detail` says. Only what is asked for
    /// is built: typed actions and notation are most of what listing costs.
    fn list(
        &self,
        seat: Seat,
        actions: &[G::Action],
        detail: pb::ActionDetail,
    ) -> Vec<pb::LegalAction> {
        let (typed, notation) = listed_parts(detail);
        let mut notations = if notation {
            self.game.format_actions(seat, actions)
        } else {
            Vec::new()
        }
        .into_iter();
        actions
            .iter()
            .enumerate()
            .map(|(index, action)| pb::LegalAction {
                index: index as u32,
                action: typed.then(|| G::action_to_proto(action)),
                notation: notations.next().unwrap_or_default(),
            })
            .collect()
    }

    /// The kept full listing, trimmed to `detail`.
    fn trimmed(listed: &[pb::LegalAction], detail: pb::ActionDetail) -> Vec<pb::LegalAction> {
        let (typed, notation) = listed_parts(detail);
        listed
            .iter()
            .map(|listed| pb::LegalAction {
                index: listed.index,
                action: if typed { listed.action.clone() } else { None },
                notation: if notation {
                    listed.notation.clone()
                } else {
                    String::new()
                },
            })
            .collect()
    }

    /// Forgets what was worked out for the state before a change.
    fn state_changed(&mut self) {
        self.turn.take();
        for seat in &mut self.legal {
            seat.take();
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        self.info.seats[seat.index()]
    }

    /// Finds where in the seat's legal actions the action a choice names is, refusing anything
    /// not legal now.
    fn choose(&self, seat: Seat, choice: &ActionChoice) -> Result<usize, GameError> {
        let legal = &self.seat_actions(seat).actions;
        let position = |action: &G::Action| legal.iter().position(|a| a == action);
        match choice {
            ActionChoice::Index(index) => {
                let index = *index as usize;
                if index < legal.len() {
                    return Ok(index);
                }
                Err(GameError::InvalidArgument(format!(
                    "action index {index} is out of range: there are {} legal actions (indexes \
                     0..{}); fetch them with GetLegalActions",
                    legal.len(),
                    legal.len()
                )))
            }
            ActionChoice::Typed(typed) => {
                let action = G::action_from_proto(typed)?;
                if let Some(index) = position(&action) {
                    return Ok(index);
                }
                // The engine knows which rule refuses the action; ask it on a copy (a refusal
                // changes nothing, but `apply` needs a mutable game).
                let (rule, why) = match self.game.clone().apply(seat, &action) {
                    Err(refusal) => (refusal.rule, refusal.message),
                    Ok(_) => (None, "that action is not legal now".to_owned()),
                };
                Err(GameError::illegal(
                    rule,
                    format!("{why}; {}", self.legal_summary(seat, legal)),
                ))
            }
            ActionChoice::Notation(text) => {
                // A bot that listed the actions usually sends back a canonical notation from
                // the list: found there, it needs no parsing.
                let listed = self.seat_actions(seat).listed.get();
                if let Some(index) = listed.and_then(|l| l.iter().position(|a| a.notation == *text))
                {
                    return Ok(index);
                }
                match self.game.parse_action(seat, text) {
                    Ok(action) => position(&action).ok_or_else(|| {
                        GameError::illegal(
                            None,
                            format!(
                                "`{text}` is not legal now; {}",
                                self.legal_summary(seat, legal)
                            ),
                        )
                    }),
                    Err(mut error) => {
                        if error.kind == RuleErrorKind::IllegalAction {
                            error.message.push_str("; ");
                            error.message.push_str(&self.legal_summary(seat, legal));
                        }
                        Err(error.into())
                    }
                }
            }
        }
    }

    fn emitted(&self, emitted: &[Emitted<G::Event>]) -> Vec<GameEvent> {
        emitted
            .iter()
            .map(|e| GameEvent {
                value: EngineValue::of(&e.event),
                wire: G::event_to_proto(&e.event, &self.info.seats),
                visibility: e.visibility,
            })
            .collect()
    }

    /// "legal now: a, b, c (and 40 more)".
    fn legal_summary(&self, seat: Seat, legal: &[G::Action]) -> String {
        if legal.is_empty() {
            return "this seat has no legal action now".to_owned();
        }
        let examples: Vec<String> = legal
            .iter()
            .take(LEGAL_EXAMPLES)
            .map(|a| self.game.format_action(seat, a))
            .collect();
        let more = legal.len().saturating_sub(LEGAL_EXAMPLES);
        let tail = if more > 0 {
            format!(" and {more} more (GetLegalActions lists them all)")
        } else {
            String::new()
        };
        format!("legal now: {}{tail}", examples.join(", "))
    }
}

/// Whether a listing in `detail` carries each action typed, and in notation.
fn listed_parts(detail: pb::ActionDetail) -> (bool, bool) {
    (
        detail != pb::ActionDetail::Notation,
        detail != pb::ActionDetail::Typed,
    )
}

impl<G: ProtoMapping> HostedGame for Hosted<G> {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn turn(&self) -> &Turn {
        self.current_turn()
    }

    fn legal_actions(&self, seat: Seat, detail: pb::ActionDetail) -> Vec<pb::LegalAction> {
        match detail {
            // Kept: a bot that lists everything usually names its choice by notation next.
            pb::ActionDetail::Unspecified => self.listed(seat).to_vec(),
            _ => self.legal_actions_once(seat, detail),
        }
    }

    fn legal_actions_once(&self, seat: Seat, detail: pb::ActionDetail) -> Vec<pb::LegalAction> {
        let seat_actions = self.seat_actions(seat);
        match seat_actions.listed.get() {
            Some(listed) => Self::trimmed(listed, detail),
            None => self.list(seat, &seat_actions.actions, detail),
        }
    }

    fn play(&mut self, seat: Seat, choice: &ActionChoice) -> Result<Played, GameError> {
        if !self.current_turn().is_to_act(seat) {
            let to_act: Vec<&str> = self
                .current_turn()
                .to_act
                .iter()
                .map(|s| self.seat_name(*s))
                .collect();
            return Err(RuleError::not_your_turn(format!(
                "it is not `{}`'s turn; waiting for: {}",
                self.seat_name(seat),
                if to_act.is_empty() {
                    "nobody".to_owned()
                } else {
                    to_act.join(", ")
                }
            ))
            .into());
        }
        let index = self.choose(seat, choice)?;
        let seat_actions = self.seat_actions(seat);
        let action = seat_actions.actions[index].clone();
        let notation = match seat_actions.listed.get() {
            Some(listed) => listed[index].notation.clone(),
            None => self.game.format_action(seat, &action),
        };
        let action_visibility = self.game.action_visibility(seat, &action);
        let applied = self.game.apply(seat, &action);
        // Engines promise that a refused action changes nothing; forgetting anyway keeps what
        // is remembered right even for an engine that broke that promise, at no cost worth
        // saving (a listed action is rarely refused).
        self.state_changed();
        let emitted = applied?;
        Ok(Played {
            action: G::action_to_proto(&action),
            action_value: EngineValue::of(&action),
            notation,
            action_visibility,
            events: self.emitted(&emitted),
        })
    }

    fn view(&self, viewer: Viewer, version: u64) -> pb::MatchView {
        pb::MatchView {
            version,
            viewer_seat: match viewer {
                Viewer::Seat(seat) => self.seat_name(seat).to_owned(),
                Viewer::Spectator => String::new(),
            },
            board: Some(convert::board_to_proto(
                &self.game.board(viewer),
                &self.info.seats,
            )),
            turn: Some(turn_to_proto(self.current_turn(), &self.info.seats)),
            scores: convert::scores_to_proto(&self.game.scores(), &self.info.seats),
            position: self.game.position_for(viewer),
            details: Some(G::details_to_proto(
                &self.game.details(viewer),
                &self.info.seats,
            )),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn scores(&self) -> Vec<u32> {
        self.game.scores()
    }

    fn opening_events(&self) -> Vec<GameEvent> {
        self.emitted(&self.game.opening_events())
    }

    fn default_action(&self, seat: Seat) -> Option<pb::Action> {
        self.game
            .default_action(seat)
            .map(|action| G::action_to_proto(&action))
    }

    fn event_to_wire(&self, value: &EngineValue) -> Result<pb::GameEvent, GameError> {
        Ok(G::event_to_proto(&value.read()?, &self.info.seats))
    }

    fn action_to_wire(&self, value: &EngineValue) -> Result<pb::Action, GameError> {
        Ok(G::action_to_proto(&value.read()?))
    }

    fn same_event(&self, a: &EngineValue, b: &EngineValue) -> bool {
        a == b || matches!((a.read::<G::Event>(), b.read::<G::Event>()), (Ok(a), Ok(b)) if a == b)
    }

    fn same_action(&self, a: &EngineValue, b: &EngineValue) -> bool {
        a == b || matches!((a.read::<G::Action>(), b.read::<G::Action>()), (Ok(a), Ok(b)) if a == b)
    }
}

type Starter = fn(
    &BTreeMap<String, pitchmate_rules::OptionValue>,
    Seed,
    Option<String>,
) -> Result<Box<dyn HostedGame>, RuleError>;

fn starter<G: ProtoMapping>(
    options: &BTreeMap<String, pitchmate_rules::OptionValue>,
    seed: Seed,
    position: Option<String>,
) -> Result<Box<dyn HostedGame>, RuleError> {
    Ok(Box::new(Hosted::<G>::start(options, seed, position)?))
}

/// The variants this server hosts.
pub struct GameRegistry {
    entries: Vec<(VariantInfo, Starter)>,
}

impl GameRegistry {
    /// Every game the server knows.
    pub fn standard() -> Self {
        let mut registry = Self {
            entries: Vec::new(),
        };
        registry.register::<pitchmate_rules::soccer_chess::SoccerChess>();
        registry.register::<pitchmate_rules::chessyball::Chessyball>();
        registry.register::<pitchmate_rules::kings_goal::KingsGoal>();
        registry.register::<pitchmate_rules::xfutebol::XFutebol>();
        registry.register::<pitchmate_rules::gridiron::Gridiron>();
        registry
    }

    fn register<G: ProtoMapping>(&mut self) {
        self.entries.push((G::info(), starter::<G>));
    }

    pub fn variants(&self) -> impl ExactSizeIterator<Item = &VariantInfo> {
        self.entries.iter().map(|(info, _)| info)
    }

    pub fn info(&self, variant_id: &str) -> Result<&VariantInfo, GameError> {
        self.entry(variant_id).map(|(info, _)| info)
    }

    /// Starts a game of `variant_id`; bad options or positions are refused.
    pub fn start(
        &self,
        variant_id: &str,
        options: &BTreeMap<String, pitchmate_rules::OptionValue>,
        seed: Seed,
        position: Option<String>,
    ) -> Result<Box<dyn HostedGame>, GameError> {
        let (_, start) = self.entry(variant_id)?;
        Ok(start(options, seed, position)?)
    }

    fn entry(&self, variant_id: &str) -> Result<&(VariantInfo, Starter), GameError> {
        self.entries
            .iter()
            .find(|(info, _)| info.id == variant_id)
            .ok_or_else(|| GameError::UnknownVariant {
                id: variant_id.to_owned(),
                known: self.variants().map(|v| v.id).collect::<Vec<_>>().join(", "),
            })
    }
}

#[cfg(test)]
mod tests {
    use pitchmate_rules::soccer_chess::SoccerChess;

    use super::*;

    const DETAILS: [pb::ActionDetail; 3] = [
        pb::ActionDetail::Unspecified,
        pb::ActionDetail::Notation,
        pb::ActionDetail::Typed,
    ];

    /// What a game keeps of its actions and events reads back as the same wire messages, and
    /// as the same values; different events are told apart.
    #[test]
    fn kept_values_read_back_as_they_were_played() {
        let registry = GameRegistry::standard();
        for info in registry.variants() {
            let mut game = registry
                .start(info.id, &BTreeMap::new(), Seed::from_number(11), None)
                .unwrap();
            let mut events = game.opening_events();
            for step in 0..300u32 {
                let Some(&seat) = game.turn().to_act.first() else {
                    break;
                };
                let count = game.legal_actions(seat, pb::ActionDetail::Notation).len() as u32;
                let played = game
                    .play(seat, &ActionChoice::Index(step.wrapping_mul(7919) % count))
                    .unwrap();
                assert_eq!(
                    game.action_to_wire(&played.action_value).unwrap(),
                    played.action
                );
                assert!(game.same_action(&played.action_value, &played.action_value));
                events.extend(played.events);
            }
            assert!(events.len() > 1, "{}", info.id);
            for event in &events {
                assert_eq!(
                    game.event_to_wire(&event.value).unwrap(),
                    event.wire,
                    "{}",
                    info.id
                );
                assert!(game.same_event(&event.value, &event.value.clone()));
            }
            let differing = events
                .windows(2)
                .find(|pair| pair[0].wire != pair[1].wire)
                .expect("two different events");
            assert!(!game.same_event(&differing[0].value, &differing[1].value));
            // Written otherwise (spaces between the tokens), a value is still the same.
            let spaced: EngineValue =
                serde_json::from_str(&events[0].value.as_str().replace(':', ": ")).unwrap();
            assert!(game.same_event(&events[0].value, &spaced));
            let garbage: EngineValue = serde_json::from_str("{\"nothing\":1}").unwrap();
            assert!(game.event_to_wire(&garbage).is_err());
        }
    }

    /// A seat's listing worked out from the engine alone, as if nothing were remembered.
    fn listed_afresh<G: ProtoMapping>(
        hosted: &Hosted<G>,
        seat: Seat,
        detail: pb::ActionDetail,
    ) -> Vec<pb::LegalAction> {
        // Worked out here on its own, not with the code under test.
        let typed = detail != pb::ActionDetail::Notation;
        let notation = detail != pb::ActionDetail::Typed;
        hosted
            .game
            .legal_actions(seat)
            .iter()
            .enumerate()
            .map(|(index, action)| pb::LegalAction {
                index: index as u32,
                action: typed.then(|| G::action_to_proto(action)),
                notation: if notation {
                    hosted.game.format_action(seat, action)
                } else {
                    String::new()
                },
            })
            .collect()
    }

    #[test]
    fn turns_and_listings_follow_every_action() {
        let mut hosted =
            Hosted::<SoccerChess>::start(&BTreeMap::new(), Seed::from_number(7), None).unwrap();
        let seats = (0..hosted.info.seats.len() as u8).map(Seat);
        let mut played = 0;
        while hosted.outcome().is_none() && played < 400 {
            let seat = hosted.turn().to_act[0];
            let engine_legal = hosted.game.legal_actions(seat);
            let pick = played * 7 % engine_legal.len();
            // Every fourth action is named by index without listing first: the notation is
            // then formatted on its own. Every fifth is prompted, in each detail in turn:
            // listed once, nothing kept.
            let (choice, expected_notation) = if played % 5 == 2 {
                let detail = DETAILS[played / 5 % DETAILS.len()];
                let prompted = hosted.legal_actions_once(seat, detail);
                assert_eq!(prompted, listed_afresh(&hosted, seat, detail));
                let chosen = &prompted[pick];
                let notation = hosted.game.format_action(seat, &engine_legal[pick]);
                (ActionChoice::Index(chosen.index), notation)
            } else if played % 4 == 3 {
                let notation = hosted.game.format_action(seat, &engine_legal[pick]);
                (ActionChoice::Index(pick as u32), notation)
            } else {
                assert_eq!(*hosted.turn(), hosted.game.turn());
                // Listing everything keeps it; the other details are then trimmed from it.
                for seat in seats.clone() {
                    for detail in DETAILS {
                        assert_eq!(
                            hosted.legal_actions(seat, detail),
                            listed_afresh(&hosted, seat, detail)
                        );
                    }
                }
                let chosen = hosted
                    .legal_actions(seat, pb::ActionDetail::Unspecified)
                    .swap_remove(pick);
                let choice = match played % 4 {
                    0 => ActionChoice::Index(chosen.index),
                    1 => ActionChoice::Typed(chosen.action.unwrap()),
                    _ => ActionChoice::Notation(chosen.notation.clone()),
                };
                (choice, chosen.notation)
            };
            let result = hosted.play(seat, &choice).unwrap();
            assert_eq!(result.notation, expected_notation);
            assert_eq!(
                result.action,
                SoccerChess::action_to_proto(&engine_legal[pick])
            );
            played += 1;
        }
        assert!(played > 40, "only {played} actions were played");
    }
}
