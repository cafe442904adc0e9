//! Gridiron: American football with chess-like pieces on a 16 x 48 field, five spots per square,
//! hidden simultaneous orders at the snap, d6 collisions and passes, downs and abilities.
//!
//! `docs/rules/gridiron.md` explains every rule and decision; the submodules follow the game:
//! [`field`] (geometry and spots), [`roster`] (kinds, abilities, rosters), [`orders`] (planning),
//! [`movement`] (executing orders), [`abilities`], [`dice`] (collisions and passes), [`downs`]
//! (downs, drives, periods), [`flow`] (phases and the [`Game`] glue), [`notation`] (actions),
//! [`position`] (the whole state as text), [`views`], [`sampling`] (what a viewer cannot see);
//! [`rules`] lists the rules a refusal cites, and [`refusals`] how a check words one.

mod abilities;
mod dice;
mod downs;
pub mod field;
mod flow;
mod movement;
mod notation;
mod orders;
mod position;
mod position_reading;
mod refusals;
pub mod roster;
pub mod rules;
mod sampling;
mod views;

#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod refusal_tests;
#[cfg(test)]
mod sampling_tests;
#[cfg(test)]
mod secrecy_tests;
#[cfg(test)]
mod tests;

use crate::game::{
    Emitted, Game, Outcome, Rule, RuleError, Seat, SetupSpec, Turn, VariantInfo, Viewer,
};
use crate::game::{TurnStructure, Visibility};
use crate::options::OptionSpec;
use crate::rng::Rng;
use crate::{BoardView, Square};

pub use field::{Location, Spot};
pub use roster::{Ability, Kind};

use roster::RosterDraft;

/// One atomic Gridiron action.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Roster phase: choose the captain (one of the seven captain kinds).
    Captain(Kind),
    /// Roster phase: add one standard piece (heavy, strong, fast or qb).
    Recruit(Kind),
    /// Roster phase: take the default roster (lead blocker; qb, 2 heavy, 2 strong, fast).
    DefaultRoster,
    /// Roster phase: the roster is final.
    CommitRoster,
    /// Fourth down: play the down.
    GoForIt,
    /// Fourth down: punt; the opponent starts a drive on its own rank 8.
    Punt,
    /// Formation: move one piece (each at most once) to a free spot of the team's formation area.
    Place { piece: u32, to: Location },
    /// Formation: the team is set.
    Ready,
    /// Order: one king step (or a spot change inside the square), arriving on `to`.
    Move { piece: u32, to: Location },
    /// Order: use an ability, aimed at `target` when it needs one.
    Use {
        piece: u32,
        ability: Ability,
        target: Option<u32>,
    },
    /// Order: throw the down's pass to `receiver`; it resolves after the defence has moved.
    Pass { piece: u32, receiver: u32 },
    /// Order: play action with `partner`; `keeper` ends up with the ball (hidden choice).
    Fake {
        piece: u32,
        partner: u32,
        keeper: u32,
    },
    /// Orders are complete for this turn.
    Commit,
}

impl Action {
    pub fn is_order(&self) -> bool {
        matches!(
            self,
            Action::Move { .. } | Action::Use { .. } | Action::Pass { .. } | Action::Fake { .. }
        )
    }

    /// The piece an order is for.
    pub fn order_piece(&self) -> Option<u32> {
        match self {
            Action::Move { piece, .. }
            | Action::Use { piece, .. }
            | Action::Pass { piece, .. }
            | Action::Fake { piece, .. } => Some(*piece),
            _ => None,
        }
    }
}

/// Why a die was rolled.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DicePurpose {
    Collision,
    Pass,
}

/// Why a down ended.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DownResult {
    Tackle,
    Sack,
    TurnLimit,
    Incomplete,
    Interception,
    Touchdown,
    Safety,
}

/// Why a drive ended and the ball changed hands.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriveStart {
    /// First possession of a period.
    Kickoff,
    Touchdown,
    Safety,
    Interception,
    Punt,
    /// Failed fourth down: the ball changes hands at the spot.
    Downs,
}

/// Something that happened in a Gridiron match.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum Event {
    /// A roster action of one seat (private to that seat).
    RosterUpdated {
        seat: Seat,
        action: Action,
    },
    RosterCommitted {
        seat: Seat,
    },
    /// Both rosters revealed: the pieces with their ids, captain first.
    RosterRevealed {
        seat: Seat,
        pieces: Vec<(u32, Kind)>,
    },
    CoinTossed {
        winner: Seat,
    },
    PeriodStarted {
        period: u8,
        first_offense: Seat,
    },
    DriveStarted {
        offense: Seat,
        line_of_scrimmage: i8,
        how: DriveStart,
        possession: u8,
    },
    DownStarted {
        offense: Seat,
        down: u8,
        line_of_scrimmage: i8,
        first_down_line: i8,
    },
    FourthDownDecided {
        seat: Seat,
        punt: bool,
    },
    /// Every piece's location at the start of a formation (the default formation).
    FormationSet {
        pieces: Vec<(u32, Location)>,
    },
    PiecePlaced {
        piece: u32,
        to: Location,
    },
    FormationReady {
        seat: Seat,
    },
    /// A planning action (private to its seat until the reveal).
    OrderWritten {
        seat: Seat,
        action: Action,
    },
    OrdersCommitted {
        seat: Seat,
    },
    /// The orders revealed. Play actions are left out: who keeps the ball stays hidden from
    /// the defence, and the fake shows as [`Event::BallHidden`] when it is carried out.
    OrdersRevealed {
        seat: Seat,
        orders: Vec<Action>,
    },
    PieceMoved {
        piece: u32,
        from: Location,
        to: Location,
    },
    MoveStopped {
        piece: u32,
        reason: String,
    },
    DiceRolled {
        purpose: DicePurpose,
        seat: Seat,
        piece: u32,
        value: u8,
    },
    Collision {
        mover: u32,
        occupant: u32,
        winner: Option<u32>,
    },
    PieceReturned {
        piece: u32,
        to: Location,
    },
    AbilityUsed {
        piece: u32,
        ability: Ability,
        target: Option<u32>,
    },
    /// An order item could not be carried out (`what` names it: an ability, `pass`, `fake`).
    OrderFailed {
        piece: u32,
        what: String,
        reason: String,
    },
    PiecePushed {
        piece: u32,
        from: Location,
        to: Location,
    },
    /// A piece's movement changed: for its coming move this turn, or for its next one.
    MovementChanged {
        piece: u32,
        change: i8,
        frozen: bool,
        next_turn: bool,
    },
    /// Play action: the ball is on one of the two pieces.
    BallHidden {
        passer: u32,
        partner: u32,
    },
    /// The offence's private record of who keeps the ball after a play action.
    KeeperChosen {
        keeper: u32,
    },
    BallRevealed {
        holder: u32,
    },
    PassThrown {
        passer: u32,
        receiver: u32,
        modifier: i8,
    },
    PassCancelled {
        passer: u32,
        reason: String,
    },
    PassCompleted {
        receiver: u32,
        total: i8,
    },
    PassIncomplete {
        total: i8,
    },
    PassIntercepted {
        by: u32,
        total: i8,
    },
    Tackled {
        tackler: u32,
        carrier: u32,
        at: Location,
    },
    TackleMissed {
        tackler: u32,
        piece: u32,
    },
    Scored {
        seat: Seat,
        points: u32,
        reason: DownResult,
    },
    DownEnded {
        result: DownResult,
        ball_rank: i8,
    },
    FirstDown {
        line_of_scrimmage: i8,
        first_down_line: i8,
    },
    TurnoverOnDowns {
        spot: i8,
    },
    PeriodEnded {
        period: u8,
    },
    GameEnded {
        winner: Option<Seat>,
        scores: Vec<u32>,
    },
}

/// A piece as the details view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDetails {
    pub id: u32,
    pub owner: Seat,
    pub kind: Kind,
    pub location: Location,
    /// Once-per-series abilities this piece has used since the last first down or new drive.
    pub used: Vec<Ability>,
    /// Movement change waiting for the piece's coming move.
    pub movement_change: i8,
    /// The piece lost all movement for its coming move (chop block).
    pub frozen: bool,
    pub jammed: bool,
    pub anchored: bool,
    pub sealing: bool,
}

/// Gridiron state beside the board view, as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    /// `roster`, `fourth-down`, `formation`, `snap`, `reaction` or `over`.
    pub phase: String,
    pub offense: Option<Seat>,
    pub down: u8,
    pub line_of_scrimmage: i8,
    pub first_down_line: i8,
    /// Turn inside the current down (1 = the snap).
    pub turn: u32,
    pub turns_per_down: u32,
    /// 1 and 2 are the halves, 3 and later are overtime periods.
    pub period: u8,
    /// Possessions started in the current period, per seat.
    pub possessions: Vec<u8>,
    pub possessions_per_period: u8,
    pub scores: Vec<u32>,
    /// Seats that committed their hidden roster or orders in the current phase.
    pub committed: Vec<Seat>,
    /// The viewer's own orders written so far this turn (empty for others).
    pub own_orders: Vec<Action>,
    /// The viewer's own roster draft during the roster phase.
    pub own_roster: Option<(Option<Kind>, Vec<Kind>)>,
    pub pieces: Vec<PieceDetails>,
    /// Whether the ball is hidden by a play action (from this viewer or not).
    pub ball_hidden: bool,
    pub pass_thrown: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Roster,
    FourthDown,
    Formation(Seat),
    Snap,
    Reaction(Seat),
    Over,
}

/// A piece on the field and its running state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub id: u32,
    pub owner: Seat,
    pub kind: Kind,
    pub loc: Location,
    /// Where it stood when the current turn began (collision losers go back there).
    pub start: Location,
    /// Where it stood when its team's orders were committed: the origin of its planned path.
    pub origin: Location,
    /// Its rank at the snap of the current down.
    pub snap_rank: i8,
    pub used: Vec<Ability>,
    /// Movement change and freeze for its coming move in this turn.
    pub change_now: i8,
    pub frozen_now: bool,
    /// Movement change and freeze waiting for its move in the next turn.
    pub change_next: i8,
    pub frozen_next: bool,
    /// Its team already executed its orders this turn.
    pub moved: bool,
    /// The last turn (a turn clock value) of each effect; `None` when the piece has none, so
    /// that no clock value, not even the 0 before the first snap, reads as an effect.
    pub jammed_until: Option<u32>,
    pub anchored_until: Option<u32>,
    pub sealing_until: Option<u32>,
}

/// Play action in force: the ball is on the passer or the partner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fake {
    pub passer: u32,
    pub partner: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    pub possessions_per_half: u8,
    pub turns_per_down: u32,
    pub overtime_periods: u8,
}

/// A Gridiron match.
#[derive(Clone, Debug, PartialEq)]
pub struct Gridiron {
    pub(crate) settings: Settings,
    pub(crate) rng: Rng,
    pub(crate) phase: Phase,
    pub(crate) drafts: [RosterDraft; 2],
    pub(crate) pieces: Vec<Piece>,
    pub(crate) scores: [u32; 2],
    pub(crate) coin_winner: Seat,
    pub(crate) period: u8,
    pub(crate) possessions: [u8; 2],
    pub(crate) offense: Seat,
    pub(crate) down: u8,
    pub(crate) los: i8,
    pub(crate) line: i8,
    /// Turn inside the down, 1 = the snap.
    pub(crate) round: u32,
    /// Counts every turn of the match; durations of jam, seal and anchor use it.
    pub(crate) clock: u32,
    pub(crate) holder: u32,
    pub(crate) fake: Option<Fake>,
    pub(crate) pass_thrown: bool,
    pub(crate) pending_pass: Option<(u32, u32)>,
    pub(crate) placed: Vec<u32>,
    pub(crate) plans: [Vec<Action>; 2],
    pub(crate) committed: [bool; 2],
    pub(crate) outcome: Option<Outcome>,
}

pub(crate) type Events = Vec<Emitted<Event>>;

const OPT_POSSESSIONS: &str = "possessions_per_half";
const OPT_TURNS: &str = "turns_per_down";
const OPT_OVERTIME: &str = "overtime_periods";

/// Most order items one piece may write in one turn.
pub(crate) const MAX_ORDER_ITEMS: usize = 8;

impl Game for Gridiron {
    type Action = Action;
    type Event = Event;
    type Details = Details;

    fn info() -> VariantInfo {
        VariantInfo {
            id: "gridiron",
            name: "Gridiron",
            summary: "American football on a 16 x 48 field: hidden simultaneous orders at the \
                      snap, d6 collisions and passes, downs, captains and abilities",
            files: field::FILES as u8,
            ranks: field::RANKS as u8,
            seats: vec!["home", "away"],
            turn_structure: TurnStructure::Simultaneous,
            max_actions_per_turn: (7 * MAX_ORDER_ITEMS + 1) as u32,
            setup_phase: true,
            chance: true,
            hidden_information: true,
            draws_possible: true,
            options: vec![
                OptionSpec::int(
                    OPT_POSSESSIONS,
                    "possessions per team in each half",
                    1,
                    8,
                    4,
                ),
                OptionSpec::int(
                    OPT_TURNS,
                    "turns in one down (the snap included) before the ball is spotted where it is",
                    2,
                    20,
                    6,
                ),
                OptionSpec::int(
                    OPT_OVERTIME,
                    "overtime periods (one possession each) played while the score is tied; \
                     a tie after the last one is a draw",
                    0,
                    10,
                    3,
                ),
            ],
            rules_version: "1",
            position_notation: "home pieces/away pieces (captain first, e.g. Bh8.c), offense, \
                                down, line of scrimmage, first-down line, ball holder id, period, \
                                possessions home-away, score home-away; then name=value parts \
                                for the rest of the state (phase=, turn=, orders.home=, ...), \
                                ? for what the viewer cannot see",
        }
    }

    fn rules() -> &'static [Rule] {
        rules::RULES
    }

    fn new(setup: &SetupSpec) -> Result<Self, RuleError> {
        let settings = Settings {
            possessions_per_half: setup.options.int(OPT_POSSESSIONS) as u8,
            turns_per_down: setup.options.int(OPT_TURNS) as u32,
            overtime_periods: setup.options.int(OPT_OVERTIME) as u8,
        };
        let mut game = Self::fresh(settings, &setup.seed);
        if let Some(text) = &setup.position {
            game.load_position(text)?;
        }
        Ok(game)
    }

    fn turn(&self) -> Turn {
        self.current_turn()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Events, RuleError> {
        self.check(seat, action)?;
        let mut events = Vec::new();
        self.perform(seat, action, &mut events);
        Ok(events)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<u32> {
        self.scores.to_vec()
    }

    fn board(&self, viewer: Viewer) -> BoardView {
        self.board_view(viewer)
    }

    fn details(&self, viewer: Viewer) -> Details {
        self.details_view(viewer)
    }

    fn format_action(&self, _seat: Seat, action: &Action) -> String {
        notation::format_action(action)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        let action = notation::parse_action(text)?;
        self.check(seat, &action)?;
        Ok(action)
    }

    fn reseed_chance(&mut self, rng: &mut Rng) {
        self.rng = Rng::new(rng.next_u64());
    }

    fn sampled_for(&self, seat: Seat, rng: &mut Rng) -> Self {
        self.sample_for(seat, rng)
    }

    /// The whole state: both teams' hidden choices are written out (the host's view).
    fn position(&self) -> String {
        self.position_text(sampling::Hidden::default())
    }

    fn position_for(&self, viewer: Viewer) -> String {
        self.position_for_viewer(viewer)
    }

    fn action_visibility(&self, seat: Seat, action: &Action) -> Visibility {
        match action {
            Action::Captain(_)
            | Action::Recruit(_)
            | Action::DefaultRoster
            | Action::CommitRoster => Visibility::Seat(seat),
            a if a.is_order() => Visibility::Seat(seat),
            _ => Visibility::Public,
        }
    }

    fn default_action(&self, seat: Seat) -> Option<Action> {
        let legal = self.legal_actions(seat);
        [
            Action::Commit,
            Action::Ready,
            Action::GoForIt,
            Action::CommitRoster,
            Action::DefaultRoster,
        ]
        .into_iter()
        .find(|a| legal.contains(a))
        .or_else(|| legal.into_iter().next())
    }
}

impl Gridiron {
    pub(crate) fn piece(&self, id: u32) -> &Piece {
        &self.pieces[id as usize]
    }

    pub(crate) fn piece_mut(&mut self, id: u32) -> &mut Piece {
        &mut self.pieces[id as usize]
    }

    pub(crate) fn piece_opt(&self, id: u32) -> Option<&Piece> {
        self.pieces.get(id as usize)
    }

    pub(crate) fn defense(&self) -> Seat {
        self.offense.opponent()
    }

    pub(crate) fn pieces_on(&self, square: Square) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| p.loc.square == square)
    }

    pub(crate) fn piece_at(&self, loc: Location, except: u32) -> Option<u32> {
        self.pieces
            .iter()
            .find(|p| p.loc == loc && p.id != except)
            .map(|p| p.id)
    }

    /// The passer who takes the snap: the scrambler when the team has one, else its qb.
    pub(crate) fn snap_passer(&self, seat: Seat) -> u32 {
        let team = || self.pieces.iter().filter(move |p| p.owner == seat);
        team()
            .find(|p| p.kind == Kind::Scrambler)
            .or_else(|| team().find(|p| p.kind == Kind::Qb))
            .map(|p| p.id)
            .expect("every roster has a passer")
    }
}
