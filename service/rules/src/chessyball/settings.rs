//! The match options of Chessyball, read once into typed settings.

use crate::game::RuleError;
use crate::options::{OptionSpec, Options};

/// Whose team-members a moving member may pass over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassThrough {
    Nobody,
    OwnTeam,
    Anyone,
}

/// Where the ball starts, and where it goes at a kick-off after a goal with reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallStart {
    /// A seeded coin picks one of the two centre squares.
    Coin,
    /// The centre square on the home half (i6 on the standard board).
    HomeSide,
    /// The centre square on the away half (j6 on the standard board).
    AwaySide,
    /// A seeded random empty square of the inner rectangle outside both keeper boxes; the 1-2-3
    /// opening is lifted.
    Anywhere,
}

/// Who takes the first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartingSeat {
    Coin,
    Home,
    Away,
}

/// What happens to the pieces and the ball after a goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterGoal {
    /// Pieces back to the start position, ball to a kick-off square.
    Reset,
    /// Pieces stay, the ball goes to the conceding side's centre square.
    BallToCentre,
    /// Pieces stay, the conceding side places the ball in its own keeper box.
    DefenderPlaces,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Settings {
    pub files: i8,
    pub ranks: i8,
    pub team_size: usize,
    pub ball_start: BallStart,
    pub starting_seat: StartingSeat,
    pub pass_through: PassThrough,
    pub keeper_leaves_box: bool,
    pub extensions: bool,
    pub extension_limit: u32,
    pub end_turn_early: bool,
    pub after_goal: AfterGoal,
    pub first_to: u32,
    pub total_goals: u32,
    pub max_turns: u32,
    pub shootout: bool,
}

pub(super) fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "ball_start",
            "where the ball starts: coin (seeded pick of the two centre squares), home_side, \
             away_side, or anywhere (a seeded random square; the 1-2-3 opening is lifted)",
            vec!["coin", "home_side", "away_side", "anywhere"],
            "coin",
        ),
        OptionSpec::choice(
            "starting_seat",
            "who takes the first turn: a seeded coin flip, home or away",
            vec!["coin", "home", "away"],
            "coin",
        ),
        OptionSpec::choice(
            "pass_through",
            "whose team-members a moving member may pass over: none, own (team-mates only) or \
             any (either colour); the ball always blocks",
            vec!["none", "own", "any"],
            "none",
        ),
        OptionSpec::boolean(
            "keeper_leaves_box",
            "whether the keeper may leave its keeper box (it never ends in its own goal)",
            false,
        ),
        OptionSpec::boolean(
            "extensions",
            "a side whose three actions all moved the ball may go on acting while each further \
             action moves the ball",
            false,
        ),
        OptionSpec::int(
            "extension_limit",
            "the most extra actions one extension allows",
            1,
            30,
            10,
        ),
        OptionSpec::boolean(
            "end_turn_early",
            "whether a side may end its turn after at least one action",
            false,
        ),
        OptionSpec::choice(
            "after_goal",
            "after a goal: reset (pieces to the start, ball to a kick-off square), \
             ball_to_centre (pieces stay, ball to the conceding side's centre square) or \
             defender_places (pieces stay, the conceding side places the ball in its keeper box)",
            vec!["reset", "ball_to_centre", "defender_places"],
            "reset",
        ),
        OptionSpec::int(
            "first_to",
            "the match ends when a side reaches this many goals (0: no such limit)",
            0,
            99,
            3,
        ),
        OptionSpec::int(
            "total_goals",
            "the match ends when both sides together reach this many goals (0: no such limit)",
            0,
            99,
            0,
        ),
        OptionSpec::int(
            "max_turns",
            "the match ends after this many turns (both sides' turns counted)",
            1,
            1000,
            60,
        ),
        OptionSpec::boolean(
            "shootout",
            "a match that ends level is decided by a penalty shoot-out",
            false,
        ),
        OptionSpec::int(
            "files",
            "board width in files, even (a centre pair is needed)",
            16,
            26,
            18,
        ),
        OptionSpec::int(
            "ranks",
            "board height in ranks, odd (a centre rank is needed)",
            9,
            21,
            11,
        ),
        OptionSpec::int(
            "team_size",
            "team-members per side in the default formation, keeper included",
            2,
            11,
            11,
        ),
    ]
}

impl Settings {
    pub fn read(options: &Options) -> Result<Self, RuleError> {
        let files = options.int("files");
        let ranks = options.int("ranks");
        if files % 2 != 0 {
            return Err(RuleError::invalid_option(format!(
                "option `files` got {files}, expected an even number (the ball starts on a \
                 centre pair), e.g. {}",
                files + 1
            )));
        }
        if ranks % 2 == 0 {
            return Err(RuleError::invalid_option(format!(
                "option `ranks` got {ranks}, expected an odd number (goals and keeper boxes \
                 are centred on one rank), e.g. {}",
                ranks - 1
            )));
        }
        Ok(Self {
            files: files as i8,
            ranks: ranks as i8,
            team_size: options.int("team_size") as usize,
            ball_start: match options.text("ball_start") {
                "home_side" => BallStart::HomeSide,
                "away_side" => BallStart::AwaySide,
                "anywhere" => BallStart::Anywhere,
                _ => BallStart::Coin,
            },
            starting_seat: match options.text("starting_seat") {
                "home" => StartingSeat::Home,
                "away" => StartingSeat::Away,
                _ => StartingSeat::Coin,
            },
            pass_through: match options.text("pass_through") {
                "own" => PassThrough::OwnTeam,
                "any" => PassThrough::Anyone,
                _ => PassThrough::Nobody,
            },
            keeper_leaves_box: options.bool("keeper_leaves_box"),
            extensions: options.bool("extensions"),
            extension_limit: options.int("extension_limit") as u32,
            end_turn_early: options.bool("end_turn_early"),
            after_goal: match options.text("after_goal") {
                "ball_to_centre" => AfterGoal::BallToCentre,
                "defender_places" => AfterGoal::DefenderPlaces,
                _ => AfterGoal::Reset,
            },
            first_to: options.int("first_to") as u32,
            total_goals: options.int("total_goals") as u32,
            max_turns: options.int("max_turns") as u32,
            shootout: options.bool("shootout"),
        })
    }
}
