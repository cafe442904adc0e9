//! What an XFutebol match reports: events and the per-game view details.

use crate::game::Seat;
use crate::geometry::Square;

use super::lineup::{Attributes, Formation, Role, Special};

/// Which contest a duel settles.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DuelKind {
    /// An active CHALLENGE on an adjacent ball holder.
    Challenge,
    /// An opponent in the path of a pass or shot challenging it automatically.
    Interception,
    Dribble,
    /// A shot against the keeper.
    Keeper,
    /// A free kick against the strongest piece of the barrier.
    Barrier,
    /// A penalty (in play or in a shoot-out) against the keeper.
    Penalty,
}

/// The result of a duel, seen from the side that started it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DuelOutcome {
    InitiatorWins,
    Tie,
    OpponentWins,
    /// Keeper duels only: the keeper parried but did not hold the ball.
    Rebound,
}

/// Why a coin was tossed.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TossPurpose {
    KickOff,
    /// A shoot-out that stayed level through every sudden-death round.
    ShootoutDecider,
}

/// Something that happened in a match.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    FormationChosen {
        seat: Seat,
        formation: Formation,
    },
    SpecialAssigned {
        piece: u32,
        special: Special,
    },
    PiecePlaced {
        piece: u32,
        from: Square,
        to: Square,
    },
    LineupConfirmed {
        seat: Seat,
    },
    CoinTossed {
        purpose: TossPurpose,
        winner: Seat,
    },
    KickOff {
        seat: Seat,
        half: u8,
        ball: Square,
    },
    PieceMoved {
        piece: u32,
        from: Square,
        to: Square,
        sprint: bool,
    },
    /// A piece picked up a loose ball by ending its move on it.
    BallTaken {
        piece: u32,
        square: Square,
    },
    BallPassed {
        piece: u32,
        from: Square,
        to: Square,
        via: Option<Square>,
        long: bool,
    },
    /// The ball lies free on a square.
    BallLoose {
        square: Square,
    },
    /// A piece now holds the ball (a pass arrived, a duel was won, a keeper held a shot).
    BallWon {
        piece: u32,
    },
    /// Every duel reports both totals and the outcome.
    Duel {
        kind: DuelKind,
        initiator: u32,
        initiator_total: u32,
        /// Missing when nobody stands against the initiator (no keeper in the goal area).
        opponent: Option<u32>,
        opponent_total: u32,
        outcome: DuelOutcome,
    },
    Dribbled {
        piece: u32,
        from: Square,
        to: Square,
    },
    ShotTaken {
        piece: u32,
        from: Square,
        goal: Square,
        via: Option<Square>,
        long: bool,
        /// No keeper stood in the goal area.
        empty_goal: bool,
    },
    GoalScored {
        seat: Seat,
        scorer: u32,
        /// Home and away goals after this one.
        score: [u32; 2],
    },
    Foul {
        seat: Seat,
        piece: u32,
        fouled: u32,
        square: Square,
        /// The fouling team's fouls so far, this one included.
        team_fouls: u32,
    },
    YellowCard {
        seat: Seat,
    },
    RedCard {
        seat: Seat,
        /// Whether the team must now remove a piece (it keeps at least the minimum).
        removal: bool,
    },
    PieceSentOff {
        piece: u32,
    },
    FreeKickAwarded {
        seat: Seat,
        square: Square,
    },
    PenaltyAwarded {
        seat: Seat,
        square: Square,
    },
    FreeKickTaken {
        piece: u32,
        goal: Square,
        barrier: Vec<u32>,
    },
    PenaltyTaken {
        piece: u32,
        keeper: Option<u32>,
    },
    SprintUsed {
        seat: Seat,
        /// The team's sprints this half, this one included.
        count: u32,
        /// Within the free sprints of the half.
        free: bool,
    },
    /// A piece left the pitch to recover after a sprint beyond the free ones.
    PieceRested {
        piece: u32,
        own_turns: u32,
    },
    PieceReturned {
        piece: u32,
        square: Square,
    },
    TurnEnded {
        seat: Seat,
    },
    PeriodEnded {
        half: u8,
        score: [u32; 2],
    },
    ShootoutStarted {
        first: Seat,
    },
    ShootoutKick {
        seat: Seat,
        kicker: u32,
        scored: bool,
        goals: [u32; 2],
    },
    MatchEnded {
        winner: Option<Seat>,
        score: [u32; 2],
        reason: String,
    },
}

/// The phase a match is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhaseKind {
    Lineup,
    Play,
    SendOff,
    Penalty,
    Shootout,
    Over,
}

impl PhaseKind {
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Lineup => "lineup",
            PhaseKind::Play => "play",
            PhaseKind::SendOff => "send_off",
            PhaseKind::Penalty => "penalty",
            PhaseKind::Shootout => "shootout",
            PhaseKind::Over => "over",
        }
    }
}

/// One piece's full description, on the pitch or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDetails {
    pub id: u32,
    pub seat: Seat,
    pub number: u8,
    pub role: Role,
    pub slot: Role,
    pub attributes: Attributes,
    pub square: Option<Square>,
    /// For a piece resting after a sprint: it comes back at its team's N-th turn start from
    /// now. 0 when the piece is not resting.
    pub resting_turns: u32,
    pub sent_off: bool,
}

/// Shoot-out tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShootoutDetails {
    pub first: Option<Seat>,
    pub kicks: [u32; 2],
    pub goals: [u32; 2],
}

/// The XFutebol state beside the generic board view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    pub phase: PhaseKind,
    pub winning_style: &'static str,
    /// 1 or 2.
    pub half: u8,
    pub movements_played: u32,
    /// Movements in the current period before it ends.
    pub period_length: u32,
    pub score: [u32; 2],
    pub fouls: [u32; 2],
    pub yellow_cards: [bool; 2],
    pub red_cards: [u32; 2],
    pub sprints_used: [u32; 2],
    /// Whether a MOVE (or SPRINT) was already made this turn.
    pub moved_this_turn: bool,
    /// The foul square while the fouled team may still take its free kick.
    pub free_kick: Option<Square>,
    pub formations: [Option<Formation>; 2],
    pub kicked_off_first: Option<Seat>,
    pub shootout: ShootoutDetails,
    pub pieces: Vec<PieceDetails>,
}
