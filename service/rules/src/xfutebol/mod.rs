//! XFutebol: football on two chessboards with attributes and deterministic duels.
//!
//! A match opens with a lineup phase (formation, specials, optional re-placement), then turns of
//! two movements with at least one MOVE. Duels compare attribute sums and never use chance; the
//! seeded generator only tosses coins (kick-off, a shoot-out that stays level) and, when the
//! option asks for it, draws each piece's individual attribute offsets at the start.

mod actions;
mod duels;
mod events;
mod flow;
mod geometry;
mod lineup;
mod notation;
mod position;
#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod refusal_tests;
mod refusals;
pub mod rules;
mod setpieces;
#[cfg(test)]
mod tests;

use crate::board::{BallView, BoardView, PieceView, Zone, ZoneKind};
use crate::game::{
    Emitted, Game, Outcome, Rule, RuleError, Seat, SetupSpec, Turn, TurnStructure, VariantInfo,
    Viewer,
};
use crate::geometry::Square;
use crate::options::{OptionSpec, Options};
use crate::rng::Rng;

pub use actions::Action;
pub use events::{
    Details, DuelKind, DuelOutcome, Event, PhaseKind, PieceDetails, ShootoutDetails, TossPurpose,
};
pub use lineup::{Attributes, Formation, Role, Special};

use geometry::{FILES, RANKS, all_squares, goal_squares, in_goal_area, in_penalty_area};
use lineup::{LineupProgress, Piece, Status};

pub const HOME: Seat = Seat(0);
pub const AWAY: Seat = Seat(1);

/// How a match is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WinningStyle {
    GoldenGoal,
    TwoHalves,
    Goals,
    MovementCount,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ShotRule {
    /// The later rule: goal above keeper + margin, rebound in between, clean save below.
    KeeperMargin,
    /// The first rule: goal when the shooter's total beats the keeper's, else a clean save.
    Simple,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PenaltyRule {
    /// A shot from the penalty area against the keeper under the shot rule, as the rule for
    /// "shot or penalty" has it.
    Shot,
    /// The penalty section alone: the kicker's Goal against the keeper's Defense, which with
    /// the table's values never scores.
    Text,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FreeKickRule {
    /// Past the barrier the kick meets the keeper: Goal + Skill against Defense + Skill, the
    /// higher scoring.
    Keeper,
    /// The free-kick section alone: beating the barrier scores, which with the table's values
    /// every free kick does.
    Text,
    /// Past the barrier the kick is a SHOOT from the foul square under the shot rule.
    Shot,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Settings {
    style: WinningStyle,
    movements_per_half: u32,
    goals_to_win: u32,
    movement_limit: u32,
    shot_rule: ShotRule,
    keeper_margin: u32,
    shoot_range: u8,
    long_shoot_for_all: bool,
    penalty_rule: PenaltyRule,
    free_kick_rule: FreeKickRule,
    free_sprints: u32,
    sprint_rest_turns: u32,
    attribute_variation: u32,
    shootout_rounds: u32,
    sudden_death_rounds: u32,
    min_pieces: u32,
}

impl Settings {
    fn from_options(options: &Options) -> Self {
        let int = |name: &str| options.int(name) as u32;
        Self {
            style: match options.text("winning_style") {
                "golden_goal" => WinningStyle::GoldenGoal,
                "goals" => WinningStyle::Goals,
                "movement_count" => WinningStyle::MovementCount,
                _ => WinningStyle::TwoHalves,
            },
            movements_per_half: int("movements_per_half"),
            goals_to_win: int("goals_to_win"),
            movement_limit: int("movement_limit"),
            shot_rule: match options.text("shot_rule") {
                "simple" => ShotRule::Simple,
                _ => ShotRule::KeeperMargin,
            },
            keeper_margin: int("keeper_margin"),
            shoot_range: int("shoot_range") as u8,
            long_shoot_for_all: options.text("long_shoot_by") == "everyone",
            penalty_rule: match options.text("penalty_rule") {
                "text" => PenaltyRule::Text,
                _ => PenaltyRule::Shot,
            },
            free_kick_rule: match options.text("free_kick_rule") {
                "text" => FreeKickRule::Text,
                "shot" => FreeKickRule::Shot,
                _ => FreeKickRule::Keeper,
            },
            free_sprints: int("sprints_per_half"),
            sprint_rest_turns: int("sprint_rest_turns"),
            attribute_variation: int("attribute_variation"),
            shootout_rounds: int("shootout_rounds"),
            sudden_death_rounds: int("sudden_death_rounds"),
            min_pieces: int("min_pieces"),
        }
    }
}

fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "winning_style",
            "golden_goal: first goal wins; two_halves: total over two halves; goals: first to \
             goals_to_win; movement_count: most goals after movement_limit movements. A level \
             end goes to a penalty shoot-out",
            vec!["golden_goal", "two_halves", "goals", "movement_count"],
            "two_halves",
        ),
        OptionSpec::int(
            "movements_per_half",
            "movements (atomic actions of play, both teams) in a half; also the length of a \
             golden-goal match, and half the cap of a goals match",
            10,
            2000,
            80,
        ),
        OptionSpec::int("goals_to_win", "goals that win a `goals` match", 1, 20, 3),
        OptionSpec::int(
            "movement_limit",
            "length of a `movement_count` match in movements",
            10,
            2000,
            50,
        ),
        OptionSpec::choice(
            "shot_rule",
            "keeper_margin: goal if shot > keeper + keeper_margin, rebound if between, clean \
             save below; simple: goal if shot > keeper, else clean save",
            vec!["keeper_margin", "simple"],
            "keeper_margin",
        ),
        OptionSpec::int(
            "keeper_margin",
            "how far a shot must beat the keeper to score under keeper_margin",
            0,
            100,
            20,
        ),
        OptionSpec::int(
            "shoot_range",
            "SHOOT range as a multiple of the forward move (the texts say 1 and 2)",
            1,
            2,
            2,
        ),
        OptionSpec::choice(
            "long_shoot_by",
            "who may LONG SHOOT straight (curved long shots stay with Long Experts)",
            vec!["everyone", "long_experts"],
            "everyone",
        ),
        OptionSpec::choice(
            "penalty_rule",
            "shot: a shot from the penalty area against the keeper under shot_rule; text: \
             kicker's Goal > keeper's Defense scores (never, with the table's values)",
            vec!["shot", "text"],
            "shot",
        ),
        OptionSpec::choice(
            "free_kick_rule",
            "keeper: past the barrier, Goal + Skill > keeper's Defense + Skill scores; text: \
             beating the barrier scores (always, with the table's values); shot: past the \
             barrier, a shot against the keeper under shot_rule",
            vec!["keeper", "text", "shot"],
            "keeper",
        ),
        OptionSpec::int(
            "sprints_per_half",
            "sprints per team per half without a rest",
            0,
            20,
            3,
        ),
        OptionSpec::int(
            "sprint_rest_turns",
            "own turns a piece sits out after a sprint beyond the free ones",
            1,
            20,
            3,
        ),
        OptionSpec::int(
            "attribute_variation",
            "individual attributes: each value of each piece is shifted by a seeded offset in \
             -N..=N (0 = the table's values)",
            0,
            30,
            0,
        ),
        OptionSpec::int("shootout_rounds", "kicks per team in a shoot-out", 1, 10, 5),
        OptionSpec::int(
            "sudden_death_rounds",
            "sudden-death rounds after a level shoot-out before a coin toss decides",
            0,
            20,
            5,
        ),
        OptionSpec::int(
            "min_pieces",
            "a red card removes a piece only while the team has more than this many",
            1,
            11,
            7,
        ),
    ]
}

/// Where the ball is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ball {
    /// Before the first kick-off.
    Unplaced,
    Held(u32),
    Loose(Square),
}

/// What the fouled team gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SetPiece {
    FreeKick { square: Square, kicker: u32 },
    Penalty { square: Square },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Lineup,
    Play,
    /// The fouling team picks the piece its red card removes, then the set piece follows
    /// (`None`: the foul came after the period's last movement, which then ends).
    SendOff {
        then: Option<SetPiece>,
    },
    Penalty,
    Shootout,
    Over,
}

/// An XFutebol match.
#[derive(Clone, Debug, PartialEq)]
pub struct XFutebol {
    settings: Settings,
    rng: Rng,
    /// Individual attribute offsets per piece id (index id - 1).
    offsets: Vec<[i32; 5]>,
    pieces: Vec<Piece>,
    ball: Ball,
    phase: Phase,
    to_act: Seat,
    turn_number: u32,
    movements_left: u8,
    moved: bool,
    free_kick: Option<SetPiece>,
    score: [u32; 2],
    half: u8,
    movements_played: u32,
    fouls: [u32; 2],
    red_cards: [u32; 2],
    sprints: [u32; 2],
    lineups: [LineupProgress; 2],
    first_kick_off: Option<Seat>,
    shootout: ShootoutDetails,
    outcome: Option<Outcome>,
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == HOME { "home" } else { "away" }
}

impl XFutebol {
    fn piece(&self, id: u32) -> &Piece {
        self.pieces
            .iter()
            .find(|p| p.id == id)
            .expect("piece ids come from the piece list")
    }

    fn piece_mut(&mut self, id: u32) -> &mut Piece {
        self.pieces
            .iter_mut()
            .find(|p| p.id == id)
            .expect("piece ids come from the piece list")
    }

    fn piece_at(&self, square: Square) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.square() == Some(square))
    }

    fn on_pitch(&self, seat: Seat) -> impl Iterator<Item = &Piece> {
        self.pieces
            .iter()
            .filter(move |p| p.seat == seat && p.square().is_some())
    }

    fn keeper_on_pitch(&self, seat: Seat) -> Option<&Piece> {
        self.on_pitch(seat).find(|p| p.slot == Role::Keeper)
    }

    fn holder(&self) -> Option<&Piece> {
        match self.ball {
            Ball::Held(id) => Some(self.piece(id)),
            _ => None,
        }
    }

    fn ball_square(&self) -> Option<Square> {
        match self.ball {
            Ball::Held(id) => self.piece(id).square(),
            Ball::Loose(square) => Some(square),
            Ball::Unplaced => None,
        }
    }

    /// Pieces still in the match (on the pitch or resting), not sent off.
    fn team_size(&self, seat: Seat) -> u32 {
        self.pieces
            .iter()
            .filter(|p| p.seat == seat && p.status != Status::SentOff)
            .count() as u32
    }

    /// A square without a piece and without the ball.
    fn is_free(&self, square: Square) -> bool {
        self.piece_at(square).is_none() && self.ball_square() != Some(square)
    }

    /// The free square nearest to `square` (itself first), ties by file then rank.
    fn nearest_free(&self, square: Square) -> Square {
        all_squares()
            .filter(|s| self.is_free(*s))
            .min_by_key(|s| (s.king_distance(square), *s))
            .expect("22 pieces never fill 128 squares")
    }
}

impl Game for XFutebol {
    type Action = Action;
    type Event = Event;
    type Details = Details;

    fn info() -> VariantInfo {
        VariantInfo {
            id: "xfutebol",
            name: "XFutebol",
            summary: "Football on two chessboards: pieces with attributes, deterministic duels, \
                      fouls and cards, free kicks and penalties, sprints, four winning styles",
            files: FILES as u8,
            ranks: RANKS as u8,
            seats: vec!["home", "away"],
            turn_structure: TurnStructure::MultiAction,
            max_actions_per_turn: 2,
            setup_phase: true,
            chance: true,
            hidden_information: false,
            draws_possible: false,
            options: option_specs(),
            rules_version: "2",
            position_notation: "h:<pieces>;a:<pieces>;ball:<square|->;to:<h|a> with pieces like \
                                Kd1,Dc2,LDd3[75.80.70.85.50],Ae12@e8 (role, slot role for \
                                specials, square, lineup square if elsewhere, optional \
                                attributes) in shirt order, then optional fields for the rest \
                                of the state: score/fouls/sprints/half/played, phase, turn, \
                                left, moved, reds, first, formations, placed, then, freekick, \
                                shootout, offsets (defaults: a fresh turn of play)",
        }
    }

    fn rules() -> &'static [Rule] {
        rules::RULES
    }

    fn new(setup: &SetupSpec) -> Result<Self, RuleError> {
        let settings = Settings::from_options(&setup.options);
        let mut rng = Rng::from_seed(&setup.seed);
        let spread = i64::from(settings.attribute_variation);
        let offsets = (0..22)
            .map(|_| {
                let mut offsets = [0; 5];
                if spread > 0 {
                    for offset in &mut offsets {
                        *offset = (rng.below((2 * spread + 1) as u64) as i64 - spread) as i32;
                    }
                }
                offsets
            })
            .collect();
        let mut game = Self {
            settings,
            rng,
            offsets,
            pieces: Vec::new(),
            ball: Ball::Unplaced,
            phase: Phase::Lineup,
            to_act: HOME,
            turn_number: 0,
            movements_left: 0,
            moved: false,
            free_kick: None,
            score: [0, 0],
            half: 1,
            movements_played: 0,
            fouls: [0, 0],
            red_cards: [0, 0],
            sprints: [0, 0],
            lineups: [LineupProgress::default(), LineupProgress::default()],
            first_kick_off: None,
            shootout: ShootoutDetails::default(),
            outcome: None,
        };
        if let Some(text) = &setup.position {
            game.load_position(text)?;
        }
        Ok(game)
    }

    fn turn(&self) -> Turn {
        let kind = self.phase_kind();
        let to_act = if kind == PhaseKind::Over {
            Vec::new()
        } else {
            vec![self.to_act]
        };
        Turn {
            phase: kind.name().to_owned(),
            to_act,
            number: self.turn_number,
            actions_left: (kind == PhaseKind::Play).then_some(u32::from(self.movements_left)),
            may_end_turn: self.legal_actions(self.to_act).contains(&Action::EndTurn),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.outcome.is_some() || seat != self.to_act {
            return Vec::new();
        }
        match self.phase {
            Phase::Lineup => self.lineup_actions(seat),
            Phase::Play => self.play_actions(seat),
            Phase::SendOff { .. } => self.send_off_actions(seat),
            Phase::Penalty | Phase::Shootout => self.penalty_actions(seat),
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Emitted<Event>>, RuleError> {
        if let Some(refusal) = self.refusal(seat, action) {
            return Err(refusal);
        }
        let mut events = Vec::new();
        match self.phase {
            Phase::Lineup => self.apply_lineup(seat, action, &mut events),
            Phase::Play => self.apply_play(seat, action, &mut events),
            Phase::SendOff { then } => self.apply_send_off(seat, action, then, &mut events),
            Phase::Penalty => self.apply_penalty(seat, action, &mut events),
            Phase::Shootout => self.apply_shootout_kick(seat, action, &mut events),
            Phase::Over => unreachable!("no legal actions once the match is over"),
        }
        Ok(events.into_iter().map(Emitted::public).collect())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<u32> {
        self.score.to_vec()
    }

    fn board(&self, _viewer: Viewer) -> BoardView {
        let mut zones = Vec::new();
        for seat in [HOME, AWAY] {
            let area = |inside: fn(Seat, Square) -> bool| -> Vec<Square> {
                all_squares().filter(|s| inside(seat, *s)).collect()
            };
            zones.push(Zone {
                kind: ZoneKind::Goal,
                owner: Some(seat),
                squares: goal_squares(seat).to_vec(),
            });
            zones.push(Zone {
                kind: ZoneKind::GoalArea,
                owner: Some(seat),
                squares: area(in_goal_area),
            });
            zones.push(Zone {
                kind: ZoneKind::PenaltyArea,
                owner: Some(seat),
                squares: area(in_penalty_area),
            });
        }
        let pieces = self
            .pieces
            .iter()
            .filter_map(|p| {
                p.square().map(|square| PieceView {
                    id: p.id,
                    owner: p.seat,
                    kind: p.role().name().to_owned(),
                    symbol: p.role().symbol().to_string(),
                    square,
                    spot: String::new(),
                })
            })
            .collect();
        let ball = match self.ball {
            Ball::Unplaced => None,
            Ball::Held(id) => Some(BallView::held(self.piece(id).square(), id)),
            Ball::Loose(square) => Some(BallView::loose(square)),
        };
        BoardView {
            files: FILES as u8,
            ranks: RANKS as u8,
            zones,
            pieces,
            ball,
        }
    }

    fn details(&self, _viewer: Viewer) -> Details {
        Details {
            phase: self.phase_kind(),
            winning_style: match self.settings.style {
                WinningStyle::GoldenGoal => "golden_goal",
                WinningStyle::TwoHalves => "two_halves",
                WinningStyle::Goals => "goals",
                WinningStyle::MovementCount => "movement_count",
            },
            half: self.half,
            movements_played: self.movements_played,
            period_length: self.period_length(),
            score: self.score,
            fouls: self.fouls,
            yellow_cards: [self.fouls[0] >= 3, self.fouls[1] >= 3],
            red_cards: self.red_cards,
            sprints_used: self.sprints,
            moved_this_turn: self.moved,
            free_kick: match self.free_kick {
                Some(SetPiece::FreeKick { square, .. }) => Some(square),
                _ => None,
            },
            formations: [self.lineups[0].formation, self.lineups[1].formation],
            kicked_off_first: self.first_kick_off,
            shootout: self.shootout,
            pieces: self
                .pieces
                .iter()
                .map(|p| PieceDetails {
                    id: p.id,
                    seat: p.seat,
                    number: p.number,
                    role: p.role(),
                    slot: p.slot,
                    attributes: p.attributes,
                    square: p.square(),
                    resting_turns: match p.status {
                        Status::Resting { turns_left, .. } => turns_left + 1,
                        _ => 0,
                    },
                    sent_off: p.status == Status::SentOff,
                })
                .collect(),
        }
    }

    fn format_action(&self, _seat: Seat, action: &Action) -> String {
        action.notation()
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        let action: Action = text.parse()?;
        match self.refusal(seat, &action) {
            Some(refusal) => Err(refusal),
            None => Ok(action),
        }
    }

    fn reseed_chance(&mut self, rng: &mut Rng) {
        self.rng = Rng::new(rng.next_u64());
    }

    fn position(&self) -> String {
        self.write_position()
    }
}

impl XFutebol {
    fn phase_kind(&self) -> PhaseKind {
        match self.phase {
            Phase::Lineup => PhaseKind::Lineup,
            Phase::Play => PhaseKind::Play,
            Phase::SendOff { .. } => PhaseKind::SendOff,
            Phase::Penalty => PhaseKind::Penalty,
            Phase::Shootout => PhaseKind::Shootout,
            Phase::Over => PhaseKind::Over,
        }
    }
}
