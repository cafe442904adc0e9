//! The rules<->proto mapping and the type erasure the match actors work through.
//!
//! Each game implements [`ProtoMapping`] (its own file here): how its actions, events and
//! details look on the wire. [`Hosted`] turns any such game into a [`HostedGame`], the
//! object-safe face an actor holds; [`GameRegistry`] maps variant ids to constructors.

mod chessyball;
mod convert;
mod gridiron;
mod kings_goal;
mod soccer_chess;
mod xfutebol;

use std::collections::BTreeMap;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{
    Emitted, Game, Outcome, RuleError, Seat, Turn, VariantInfo, Viewer, Visibility,
};

pub use convert::{
    option_from_proto, option_to_proto, scores_to_proto, square_from_proto, square_to_proto,
    turn_to_proto, variant_to_proto,
};

use crate::error::ServiceError;

/// How many legal notations an ILLEGAL_ACTION message quotes.
const LEGAL_EXAMPLES: usize = 12;

/// The conversions one game needs to be hosted.
pub trait ProtoMapping: Game {
    fn action_to_proto(action: &Self::Action) -> pb::Action;

    /// Reads a typed action. A message for another game, or one with fields missing, is
    /// INVALID_ARGUMENT; whether the action is legal is checked afterwards.
    fn action_from_proto(action: &pb::Action) -> Result<Self::Action, ServiceError>;

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

/// An accepted action and what it caused.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The action in canonical typed form (what a replay submits).
    pub action: pb::Action,
    pub notation: String,
    pub action_visibility: Visibility,
    pub events: Vec<(pb::GameEvent, Visibility)>,
}

/// A game behind a trait object, speaking proto types.
pub trait HostedGame: Send + Sync {
    fn info(&self) -> &VariantInfo;
    fn turn(&self) -> Turn;
    /// The seat's legal actions now, each as index, typed action and notation.
    fn legal_actions(&self, seat: Seat) -> Vec<pb::LegalAction>;
    /// Plays an action for `seat`. On error nothing changed.
    fn play(&mut self, seat: Seat, choice: &ActionChoice) -> Result<Played, ServiceError>;
    /// The board, turn, scores and details as `viewer` may see them.
    fn view(&self, viewer: Viewer, version: u64) -> pb::MatchView;
    fn outcome(&self) -> Option<Outcome>;
    fn scores(&self) -> Vec<u32>;
    /// What setting the game up decided (a coin flip, a seeded ball placement), logged once
    /// right after the match is created.
    fn opening_events(&self) -> Vec<(pb::GameEvent, Visibility)>;
    /// The action the server plays for a seat that ran out of time; `None` when it has none.
    fn default_action(&self, seat: Seat) -> Option<pb::Action>;
}

/// Any mapped game, hosted.
pub struct Hosted<G: ProtoMapping> {
    game: G,
    info: VariantInfo,
}

impl<G: ProtoMapping> Hosted<G> {
    pub fn start(
        options: &BTreeMap<String, pitchmate_rules::OptionValue>,
        seed: u64,
        position: Option<String>,
    ) -> Result<Self, RuleError> {
        Ok(Self {
            game: pitchmate_rules::start::<G>(options, seed, position)?,
            info: G::info(),
        })
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        self.info.seats[seat.index()]
    }

    /// Finds the engine action a choice names, refusing anything not legal now.
    fn choose(&self, seat: Seat, choice: &ActionChoice) -> Result<G::Action, ServiceError> {
        let legal = self.game.legal_actions(seat);
        match choice {
            ActionChoice::Index(index) => legal.get(*index as usize).cloned().ok_or_else(|| {
                ServiceError::InvalidArgument(format!(
                    "action index {index} is out of range: there are {} legal actions (indexes \
                     0..{}); fetch them with GetLegalActions",
                    legal.len(),
                    legal.len()
                ))
            }),
            ActionChoice::Typed(typed) => {
                let action = G::action_from_proto(typed)?;
                if legal.contains(&action) {
                    return Ok(action);
                }
                // The engine knows why the action is refused; ask it on a copy (a refusal
                // changes nothing, but `apply` needs a mutable game).
                let why = match self.game.clone().apply(seat, &action) {
                    Err(refusal) => refusal.message,
                    Ok(_) => "that action is not legal now".to_owned(),
                };
                Err(ServiceError::IllegalAction(format!(
                    "{why}; {}",
                    self.legal_summary(seat, &legal)
                )))
            }
            ActionChoice::Notation(text) => match self.game.parse_action(seat, text) {
                Ok(action) if legal.contains(&action) => Ok(action),
                Ok(_) => Err(ServiceError::IllegalAction(format!(
                    "`{text}` is not legal now; {}",
                    self.legal_summary(seat, &legal)
                ))),
                Err(error) => {
                    let mut error = ServiceError::from(error);
                    if let ServiceError::IllegalAction(message) = &mut error {
                        message.push_str("; ");
                        message.push_str(&self.legal_summary(seat, &legal));
                    }
                    Err(error)
                }
            },
        }
    }

    fn emitted_to_proto(&self, emitted: &[Emitted<G::Event>]) -> Vec<(pb::GameEvent, Visibility)> {
        emitted
            .iter()
            .map(|e| (G::event_to_proto(&e.event, &self.info.seats), e.visibility))
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

impl<G: ProtoMapping> HostedGame for Hosted<G> {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn turn(&self) -> Turn {
        self.game.turn()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<pb::LegalAction> {
        self.game
            .legal_actions(seat)
            .iter()
            .enumerate()
            .map(|(index, action)| pb::LegalAction {
                index: index as u32,
                action: Some(G::action_to_proto(action)),
                notation: self.game.format_action(seat, action),
            })
            .collect()
    }

    fn play(&mut self, seat: Seat, choice: &ActionChoice) -> Result<Played, ServiceError> {
        if !self.game.turn().is_to_act(seat) {
            let to_act: Vec<&str> = self
                .game
                .turn()
                .to_act
                .iter()
                .map(|s| self.seat_name(*s))
                .collect();
            return Err(ServiceError::NotYourTurn(format!(
                "it is not `{}`'s turn; waiting for: {}",
                self.seat_name(seat),
                if to_act.is_empty() {
                    "nobody".to_owned()
                } else {
                    to_act.join(", ")
                }
            )));
        }
        let action = self.choose(seat, choice)?;
        let notation = self.game.format_action(seat, &action);
        let action_visibility = self.game.action_visibility(seat, &action);
        let emitted = self.game.apply(seat, &action)?;
        Ok(Played {
            action: G::action_to_proto(&action),
            notation,
            action_visibility,
            events: self.emitted_to_proto(&emitted),
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
            turn: Some(turn_to_proto(&self.game.turn(), &self.info.seats)),
            scores: convert::scores_to_proto(&self.game.scores(), &self.info.seats),
            position: if self.info.hidden_information {
                String::new()
            } else {
                self.game.position()
            },
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

    fn opening_events(&self) -> Vec<(pb::GameEvent, Visibility)> {
        self.emitted_to_proto(&self.game.opening_events())
    }

    fn default_action(&self, seat: Seat) -> Option<pb::Action> {
        self.game
            .default_action(seat)
            .map(|action| G::action_to_proto(&action))
    }
}

type Starter = fn(
    &BTreeMap<String, pitchmate_rules::OptionValue>,
    u64,
    Option<String>,
) -> Result<Box<dyn HostedGame>, RuleError>;

fn starter<G: ProtoMapping>(
    options: &BTreeMap<String, pitchmate_rules::OptionValue>,
    seed: u64,
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

    pub fn info(&self, variant_id: &str) -> Result<&VariantInfo, ServiceError> {
        self.entry(variant_id).map(|(info, _)| info)
    }

    /// Starts a game of `variant_id`; bad options or positions are refused.
    pub fn start(
        &self,
        variant_id: &str,
        options: &BTreeMap<String, pitchmate_rules::OptionValue>,
        seed: u64,
        position: Option<String>,
    ) -> Result<Box<dyn HostedGame>, ServiceError> {
        let (_, start) = self.entry(variant_id)?;
        Ok(start(options, seed, position)?)
    }

    fn entry(&self, variant_id: &str) -> Result<&(VariantInfo, Starter), ServiceError> {
        self.entries
            .iter()
            .find(|(info, _)| info.id == variant_id)
            .ok_or_else(|| ServiceError::UnknownVariant {
                id: variant_id.to_owned(),
                known: self.variants().map(|v| v.id).collect::<Vec<_>>().join(", "),
            })
    }
}
