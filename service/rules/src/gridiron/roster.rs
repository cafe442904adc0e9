//! Piece kinds, their movement and abilities, and the roster a team picks for the match.

use std::fmt;

use super::refusals::{Refusals, Words};
use super::rules;
use crate::game::RuleError;

/// Every kind of piece. The first four are the standard pieces; the rest are captains.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub enum Kind {
    Heavy,
    Strong,
    Fast,
    Qb,
    Safety,
    Nickelback,
    Rusher,
    Scrambler,
    DeepThreat,
    LeadBlocker,
    Lineman,
}

/// The standard piece type a kind is built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Heavy,
    Strong,
    Fast,
    Qb,
}

/// Which side of the ball a captain's own abilities work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptainSide {
    Offense,
    Defense,
}

impl Kind {
    pub const STANDARD: [Kind; 4] = [Kind::Heavy, Kind::Strong, Kind::Fast, Kind::Qb];
    pub const CAPTAINS: [Kind; 7] = [
        Kind::Safety,
        Kind::Nickelback,
        Kind::Rusher,
        Kind::Scrambler,
        Kind::DeepThreat,
        Kind::LeadBlocker,
        Kind::Lineman,
    ];
    pub const ALL: [Kind; 11] = [
        Kind::Heavy,
        Kind::Strong,
        Kind::Fast,
        Kind::Qb,
        Kind::Safety,
        Kind::Nickelback,
        Kind::Rusher,
        Kind::Scrambler,
        Kind::DeepThreat,
        Kind::LeadBlocker,
        Kind::Lineman,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Heavy => "heavy",
            Kind::Strong => "strong",
            Kind::Fast => "fast",
            Kind::Qb => "qb",
            Kind::Safety => "safety",
            Kind::Nickelback => "nickelback",
            Kind::Rusher => "rusher",
            Kind::Scrambler => "scrambler",
            Kind::DeepThreat => "deep-threat",
            Kind::LeadBlocker => "lead-blocker",
            Kind::Lineman => "lineman",
        }
    }

    /// The letter of the position notation.
    pub fn symbol(self) -> char {
        match self {
            Kind::Heavy => 'H',
            Kind::Strong => 'S',
            Kind::Fast => 'F',
            Kind::Qb => 'Q',
            Kind::Safety => 'Y',
            Kind::Nickelback => 'N',
            Kind::Rusher => 'R',
            Kind::Scrambler => 'X',
            Kind::DeepThreat => 'D',
            Kind::LeadBlocker => 'B',
            Kind::Lineman => 'L',
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == text)
    }

    pub fn from_symbol(symbol: char) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.symbol() == symbol)
    }

    pub fn is_captain(self) -> bool {
        Self::CAPTAINS.contains(&self)
    }

    pub fn base(self) -> Base {
        match self {
            Kind::Heavy | Kind::Rusher | Kind::Lineman => Base::Heavy,
            Kind::Strong | Kind::Nickelback | Kind::LeadBlocker => Base::Strong,
            Kind::Fast | Kind::Safety | Kind::DeepThreat => Base::Fast,
            Kind::Qb | Kind::Scrambler => Base::Qb,
        }
    }

    pub fn captain_side(self) -> Option<CaptainSide> {
        match self {
            Kind::Safety | Kind::Nickelback | Kind::Rusher => Some(CaptainSide::Defense),
            Kind::Scrambler | Kind::DeepThreat | Kind::LeadBlocker | Kind::Lineman => {
                Some(CaptainSide::Offense)
            }
            _ => None,
        }
    }

    /// Squares of movement per turn.
    pub fn movement(self) -> i8 {
        match self {
            Kind::Heavy | Kind::Qb => 1,
            Kind::Strong | Kind::Nickelback | Kind::LeadBlocker | Kind::Rusher | Kind::Lineman => 2,
            Kind::Fast | Kind::Safety | Kind::DeepThreat | Kind::Scrambler => 3,
        }
    }

    /// Restricted movers pay 1 extra each time their step direction changes.
    pub fn restricted(self) -> bool {
        matches!(
            self,
            Kind::Fast | Kind::Safety | Kind::DeepThreat | Kind::Scrambler
        )
    }

    /// Blocking pieces get the snap burst (+1 movement on the first turn of a down).
    pub fn snap_burst(self) -> bool {
        matches!(self, Kind::Heavy | Kind::Strong | Kind::Lineman)
    }

    /// Heavies and Strongs (and the captains built on them) may not catch passes.
    pub fn eligible_receiver(self) -> bool {
        matches!(self.base(), Base::Fast | Base::Qb)
    }

    pub fn is_passer(self) -> bool {
        self.base() == Base::Qb
    }

    pub fn is_heavy(self) -> bool {
        self.base() == Base::Heavy
    }

    /// Execution order inside a team: Captain, Heavy, Strong, Fast, then the QB.
    pub fn execution_rank(self) -> u8 {
        if self.is_captain() {
            return 0;
        }
        match self.base() {
            Base::Heavy => 1,
            Base::Strong => 2,
            Base::Fast => 3,
            Base::Qb => 4,
        }
    }
}

/// An ability a piece writes into its order.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub enum Ability {
    Push,
    ChopBlock,
    ChipBlock,
    Retreat,
    Engage,
    SpeedRush,
    React,
    Jam,
    Seal,
    Juke,
    RouteRunning,
    Impact,
    Anchor,
}

/// Whom an ability is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    None,
    Enemy,
    AlliedHeavy,
}

impl Ability {
    pub const ALL: [Ability; 13] = [
        Ability::Push,
        Ability::ChopBlock,
        Ability::ChipBlock,
        Ability::Retreat,
        Ability::Engage,
        Ability::SpeedRush,
        Ability::React,
        Ability::Jam,
        Ability::Seal,
        Ability::Juke,
        Ability::RouteRunning,
        Ability::Impact,
        Ability::Anchor,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ability::Push => "push",
            Ability::ChopBlock => "chop",
            Ability::ChipBlock => "chip",
            Ability::Retreat => "retreat",
            Ability::Engage => "engage",
            Ability::SpeedRush => "speed-rush",
            Ability::React => "react",
            Ability::Jam => "jam",
            Ability::Seal => "seal",
            Ability::Juke => "juke",
            Ability::RouteRunning => "route",
            Ability::Impact => "impact",
            Ability::Anchor => "anchor",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == text)
    }

    pub fn target(self) -> Target {
        match self {
            Ability::Push | Ability::ChopBlock | Ability::Engage | Ability::Impact => Target::Enemy,
            Ability::ChipBlock | Ability::Anchor => Target::AlliedHeavy,
            _ => Target::None,
        }
    }

    /// Usable once per series of downs (reset at each first down and each new drive).
    pub fn limited(self) -> bool {
        matches!(
            self,
            Ability::ChopBlock
                | Ability::SpeedRush
                | Ability::React
                | Ability::Juke
                | Ability::RouteRunning
                | Ability::Anchor
        )
    }

    /// Abilities that move or stop their user end its order.
    pub fn ends_order(self) -> bool {
        matches!(
            self,
            Ability::Push | Ability::ChopBlock | Ability::Retreat | Ability::Anchor
        )
    }

    /// Extra movement the user gains for the rest of its order.
    pub fn self_boost(self) -> i8 {
        match self {
            Ability::React | Ability::Juke => 1,
            _ => 0,
        }
    }
}

/// The movement cost of `ability` for `kind`, or `None` when the kind does not have it, or
/// has it only as a captain playing on the other side of the ball.
pub fn ability_cost(kind: Kind, ability: Ability, on_offense: bool) -> Option<i8> {
    let base_cost = match (kind.base(), ability) {
        (Base::Heavy, Ability::Push) => Some(1),
        (Base::Heavy, Ability::ChopBlock) => Some(0),
        (Base::Heavy, Ability::ChipBlock) => Some(1),
        (Base::Heavy, Ability::Retreat) => Some(1),
        (Base::Strong, Ability::Push) => Some(2),
        (Base::Strong, Ability::Engage) => Some(1),
        (Base::Strong, Ability::ChipBlock) => Some(1),
        (Base::Fast, Ability::Engage) => Some(2),
        (Base::Fast, Ability::SpeedRush) => Some(1),
        _ => None,
    };
    if base_cost.is_some() {
        return base_cost;
    }
    let own_cost = match (kind, ability) {
        (Kind::Safety, Ability::React) => 0,
        (Kind::Nickelback, Ability::Jam) => 1,
        (Kind::Nickelback, Ability::Seal) => 1,
        (Kind::Scrambler, Ability::Juke) => 0,
        (Kind::Scrambler, Ability::Engage) => 1,
        (Kind::DeepThreat, Ability::RouteRunning) => 0,
        (Kind::LeadBlocker | Kind::Lineman, Ability::Impact) => 1,
        (Kind::Lineman, Ability::Anchor) => 2,
        _ => return None,
    };
    captain_active(kind, on_offense).then_some(own_cost)
}

/// Whether a captain's own abilities (beyond its base type) work on this side of the ball.
pub fn captain_active(kind: Kind, on_offense: bool) -> bool {
    match kind.captain_side() {
        Some(CaptainSide::Offense) => on_offense,
        Some(CaptainSide::Defense) => !on_offense,
        None => false,
    }
}

/// Most standard pieces of one kind a roster may hold.
pub fn standard_cap(kind: Kind) -> usize {
    if kind == Kind::Qb { 1 } else { 3 }
}

pub const STANDARD_COUNT: usize = 6;
pub const DEFAULT_CAPTAIN: Kind = Kind::LeadBlocker;
pub const DEFAULT_STANDARD: [Kind; STANDARD_COUNT] = [
    Kind::Qb,
    Kind::Heavy,
    Kind::Heavy,
    Kind::Strong,
    Kind::Strong,
    Kind::Fast,
];

/// A roster being picked in the roster phase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RosterDraft {
    pub captain: Option<Kind>,
    pub standard: Vec<Kind>,
    pub committed: bool,
}

impl RosterDraft {
    pub fn is_empty(&self) -> bool {
        self.captain.is_none() && self.standard.is_empty()
    }

    pub fn is_complete(&self) -> bool {
        self.captain.is_some() && self.standard.len() == STANDARD_COUNT
    }

    fn has_standard_qb(&self) -> bool {
        self.standard.contains(&Kind::Qb)
    }

    pub(crate) fn check_captain<R: Refusals>(&self, kind: Kind) -> Result<(), R::Refusal> {
        if !kind.is_captain() {
            return Err(R::refuse(
                rules::CAPTAIN_KIND,
                format_args!(
                    "{} is a standard piece; captains are {}",
                    kind.name(),
                    KindNames(&Kind::CAPTAINS)
                ),
            ));
        }
        if let Some(chosen) = self.captain {
            return Err(R::refuse(
                rules::ONE_CAPTAIN,
                format_args!(
                    "yours is already chosen ({}); recruit standard pieces or commit",
                    chosen.name()
                ),
            ));
        }
        if self.standard.len() == STANDARD_COUNT
            && !self.has_standard_qb()
            && kind != Kind::Scrambler
        {
            return Err(R::refuse(
                rules::PASSER_REQUIRED,
                format_args!(
                    "your six standard pieces include no qb, so the captain must be the scrambler"
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn check_recruit<R: Refusals>(&self, kind: Kind) -> Result<(), R::Refusal> {
        if kind.is_captain() {
            return Err(R::refuse(
                rules::STANDARD_KIND,
                format_args!(
                    "{} is a captain; choose it with `captain {}`",
                    kind.name(),
                    kind.name()
                ),
            ));
        }
        if self.standard.len() >= STANDARD_COUNT {
            return Err(R::refuse(
                rules::SIX_STANDARD,
                format_args!("you already have six; choose a captain or commit"),
            ));
        }
        let count = self.standard.iter().filter(|k| **k == kind).count();
        if count >= standard_cap(kind) {
            return Err(R::refuse(
                rules::STANDARD_KIND_LIMIT,
                format_args!(
                    "you already have {count} {}; pick another kind",
                    kind.name()
                ),
            ));
        }
        let fills = self.standard.len() + 1 == STANDARD_COUNT;
        let passer_left = self.has_standard_qb()
            || kind == Kind::Qb
            || matches!(self.captain, None | Some(Kind::Scrambler));
        if fills && !passer_left {
            return Err(R::refuse(
                rules::PASSER_REQUIRED,
                format_args!(
                    "your captain is not the scrambler, so the last standard piece must be a qb"
                ),
            ));
        }
        Ok(())
    }

    /// Captain first, then the standard pieces in the order they were recruited.
    pub fn pieces(&self) -> Vec<Kind> {
        let mut kinds: Vec<Kind> = self.captain.into_iter().collect();
        kinds.extend(&self.standard);
        kinds
    }
}

/// Kind names joined by commas, written only when a refusal is put into words.
struct KindNames(&'static [Kind]);

impl fmt::Display for KindNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, kind) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            f.write_str(kind.name())?;
        }
        Ok(())
    }
}

/// Checks a full roster given as captain + standard pieces (used by custom positions).
pub fn check_roster(kinds: &[Kind]) -> Result<(), RuleError> {
    let mut draft = RosterDraft::default();
    let Some((captain, standard)) = kinds.split_first() else {
        return Err(RuleError::invalid_position("a team needs seven pieces"));
    };
    if standard.len() != STANDARD_COUNT {
        return Err(RuleError::invalid_position(format!(
            "a team has one captain and six standard pieces, got {} pieces",
            kinds.len()
        )));
    }
    let as_position = |e: RuleError| RuleError::invalid_position(e.message);
    draft
        .check_captain::<Words>(*captain)
        .map_err(as_position)?;
    draft.captain = Some(*captain);
    for kind in standard {
        draft.check_recruit::<Words>(*kind).map_err(as_position)?;
        draft.standard.push(*kind);
    }
    Ok(())
}
