//! Deterministic duels: attribute sums compared, every duel reported with both totals.

use std::cmp::Ordering;

use crate::game::Seat;
use crate::geometry::{KING_DIRECTIONS, Square};

use super::actions::Resolution;
use super::events::{DuelKind, DuelOutcome, Event};
use super::geometry::{in_goal_area, in_penalty_area, is_goal_square, line_between, on_board};
use super::lineup::Attributes;
use super::{Ball, ShotRule, XFutebol};

/// Shot boosts: from the goal area +25, else from the penalty area +15 (they do not add up).
pub fn area_boost(defender: Seat, from: Square) -> u32 {
    if in_goal_area(defender, from) {
        25
    } else if in_penalty_area(defender, from) {
        15
    } else {
        0
    }
}

/// Challenger or interceptor: Speed + Strength + Defense.
pub fn challenger_total(a: Attributes) -> u32 {
    a.speed + a.strength + a.defense
}

/// The ball holder or intended receiver: Speed + Strength + Skill.
pub fn holder_total(a: Attributes) -> u32 {
    a.speed + a.strength + a.skill
}

/// How a shot against a keeper ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeeperResult {
    Goal,
    Rebound,
    CleanSave,
}

/// The keeper duel under a shot rule.
pub fn keeper_result(rule: ShotRule, margin: u32, shot: u32, keeper: u32) -> KeeperResult {
    match rule {
        ShotRule::KeeperMargin if shot > keeper + margin => KeeperResult::Goal,
        ShotRule::KeeperMargin if shot >= keeper => KeeperResult::Rebound,
        ShotRule::Simple if shot > keeper => KeeperResult::Goal,
        _ => KeeperResult::CleanSave,
    }
}

fn outcome_of(order: Ordering) -> DuelOutcome {
    match order {
        Ordering::Greater => DuelOutcome::InitiatorWins,
        Ordering::Equal => DuelOutcome::Tie,
        Ordering::Less => DuelOutcome::OpponentWins,
    }
}

fn keeper_outcome(result: KeeperResult) -> DuelOutcome {
    match result {
        KeeperResult::Goal => DuelOutcome::InitiatorWins,
        KeeperResult::Rebound => DuelOutcome::Rebound,
        KeeperResult::CleanSave => DuelOutcome::OpponentWins,
    }
}

impl XFutebol {
    /// An active or automatic challenge: `challenger` against `holder`.
    pub(super) fn challenge_duel(
        &self,
        kind: DuelKind,
        challenger: u32,
        holder: u32,
        events: &mut Vec<Event>,
    ) -> Ordering {
        let mine = challenger_total(self.piece(challenger).attributes);
        let theirs = holder_total(self.piece(holder).attributes);
        let order = mine.cmp(&theirs);
        events.push(Event::Duel {
            kind,
            initiator: challenger,
            initiator_total: mine,
            opponent: Some(holder),
            opponent_total: theirs,
            outcome: outcome_of(order),
        });
        order
    }

    /// An opponent in the ball's path challenges it; a win takes the ball.
    pub(super) fn interception(
        &mut self,
        interceptor: u32,
        target: u32,
        events: &mut Vec<Event>,
    ) -> bool {
        let won = self.challenge_duel(DuelKind::Interception, interceptor, target, events)
            == Ordering::Greater;
        if won {
            self.ball = Ball::Held(interceptor);
            events.push(Event::BallWon { piece: interceptor });
        }
        won
    }

    /// The adjacent opponent a dribbler must beat: the highest Speed + Defense, then lowest id.
    pub(super) fn strongest_against_dribble(&self, seat: Seat, from: Square) -> u32 {
        self.adjacent_opponents(seat, from)
            .into_iter()
            .max_by_key(|id| {
                let a = self.piece(*id).attributes;
                (a.speed + a.defense, std::cmp::Reverse(*id))
            })
            .expect("a dribble is legal only next to an opponent")
    }

    /// Dribbler's Speed + Skill against the opponent's Speed + Defense.
    pub(super) fn dribble_duel(
        &self,
        dribbler: u32,
        opponent: u32,
        events: &mut Vec<Event>,
    ) -> Ordering {
        let d = self.piece(dribbler).attributes;
        let o = self.piece(opponent).attributes;
        let (mine, theirs) = (d.speed + d.skill, o.speed + o.defense);
        let order = mine.cmp(&theirs);
        events.push(Event::Duel {
            kind: DuelKind::Dribble,
            initiator: dribbler,
            initiator_total: mine,
            opponent: Some(opponent),
            opponent_total: theirs,
            outcome: outcome_of(order),
        });
        order
    }

    /// A SHOOT or LONG SHOOT from `from` at goal square `goal`, curving at `via`.
    pub(super) fn shoot(
        &mut self,
        from: Square,
        goal: Square,
        via: Option<Square>,
        long: bool,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let shooter = self.piece_at(from).expect("a shooter").id;
        let seat = self.piece(shooter).seat;
        let defender = seat.opponent();
        let keeper = self
            .keeper_on_pitch(defender)
            .filter(|k| k.square().is_some_and(|s| in_goal_area(defender, s)))
            .map(|k| k.id);
        events.push(Event::ShotTaken {
            piece: shooter,
            from,
            goal,
            via,
            long,
            empty_goal: keeper.is_none(),
        });
        let mut path = match via {
            None => line_between(from, goal),
            Some(corner) => {
                let mut path = line_between(from, corner);
                path.push(corner);
                path.extend(line_between(corner, goal));
                path
            }
        };
        path.push(goal);
        for square in path {
            let Some(opponent) = self.piece_at(square).filter(|p| p.seat == defender) else {
                continue;
            };
            let opponent = opponent.id;
            if Some(opponent) == keeper {
                continue;
            }
            if self.interception(opponent, shooter, events) {
                return Resolution::Continue;
            }
        }
        let a = self.piece(shooter).attributes;
        let boost = area_boost(defender, from);
        let total = if long {
            a.goal + a.skill + a.strength + boost + if via.is_some() { 20 } else { 0 }
        } else {
            a.goal + a.skill + boost
        };
        self.keeper_stage(
            shooter,
            total,
            keeper,
            long,
            self.settings.shot_rule,
            events,
        )
    }

    /// The keeper duel under `rule` closing a shot (or a free kick that beat its barrier). With
    /// no keeper in the goal area the goal is empty and the ball goes in.
    pub(super) fn keeper_stage(
        &mut self,
        shooter: u32,
        total: u32,
        keeper: Option<u32>,
        long: bool,
        rule: ShotRule,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let Some(keeper) = keeper else {
            return Resolution::Goal { scorer: shooter };
        };
        let k = self.piece(keeper).attributes;
        let keeper_total = if long {
            k.defense + k.skill + k.speed
        } else {
            k.defense + k.skill
        };
        let result = keeper_result(rule, self.settings.keeper_margin, total, keeper_total);
        events.push(Event::Duel {
            kind: DuelKind::Keeper,
            initiator: shooter,
            initiator_total: total,
            opponent: Some(keeper),
            opponent_total: keeper_total,
            outcome: keeper_outcome(result),
        });
        let from = self
            .piece(shooter)
            .square()
            .expect("the shooter is on the pitch");
        self.settle_save(result, shooter, keeper, from, events)
    }

    /// Goal, or where the ball goes after a save.
    pub(super) fn settle_save(
        &mut self,
        result: KeeperResult,
        shooter: u32,
        keeper: u32,
        shot_from: Square,
        events: &mut Vec<Event>,
    ) -> Resolution {
        match result {
            KeeperResult::Goal => return Resolution::Goal { scorer: shooter },
            KeeperResult::CleanSave => {
                self.ball = Ball::Held(keeper);
                events.push(Event::BallWon { piece: keeper });
            }
            KeeperResult::Rebound => match self.rebound_square(keeper, shot_from) {
                Some(square) => {
                    self.ball = Ball::Loose(square);
                    events.push(Event::BallLoose { square });
                }
                None => {
                    self.ball = Ball::Held(keeper);
                    events.push(Event::BallWon { piece: keeper });
                }
            },
        }
        Resolution::Continue
    }

    /// A parried ball drops on the free square next to the keeper nearest the shot's origin
    /// (king steps, then file plus rank steps, then file and rank), never on a goal square.
    pub(super) fn rebound_square(&self, keeper: u32, shot_from: Square) -> Option<Square> {
        let at = self.piece(keeper).square()?;
        KING_DIRECTIONS
            .iter()
            .map(|(df, dr)| at.offset(*df, *dr))
            .filter(|s| {
                on_board(*s)
                    && self.piece_at(*s).is_none()
                    && !is_goal_square(super::HOME, *s)
                    && !is_goal_square(super::AWAY, *s)
            })
            .min_by_key(|s| {
                let manhattan = (s.file - shot_from.file).abs() + (s.rank - shot_from.rank).abs();
                (s.king_distance(shot_from), manhattan, *s)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::xfutebol::lineup::Role;
    use crate::xfutebol::tests::{position_game, position_game_with, sq};
    use crate::xfutebol::{Action, HOME};

    fn shoot_total(role: Role, boost: u32) -> u32 {
        let a = role.attributes();
        a.goal + a.skill + boost
    }

    #[test]
    fn keeper_margin_rule_has_three_outcomes_and_the_simple_rule_two() {
        let keeper = Role::Keeper.attributes().defense + Role::Keeper.attributes().skill;
        assert_eq!(keeper, 160);
        let rule = ShotRule::KeeperMargin;
        assert_eq!(keeper_result(rule, 20, 181, keeper), KeeperResult::Goal);
        assert_eq!(keeper_result(rule, 20, 180, keeper), KeeperResult::Rebound);
        assert_eq!(keeper_result(rule, 20, 160, keeper), KeeperResult::Rebound);
        assert_eq!(
            keeper_result(rule, 20, 159, keeper),
            KeeperResult::CleanSave
        );
        assert_eq!(
            keeper_result(ShotRule::Simple, 20, 161, keeper),
            KeeperResult::Goal
        );
        assert_eq!(
            keeper_result(ShotRule::Simple, 20, 160, keeper),
            KeeperResult::CleanSave
        );
        // What the table implies: an attacker scores from the penalty area (170 + 15 = 185),
        // rebounds from outside (170), and a goaler never scores with a plain shot (155 + 25).
        assert_eq!(
            keeper_result(rule, 20, shoot_total(Role::Attacker, 15), keeper),
            KeeperResult::Goal
        );
        assert_eq!(
            keeper_result(rule, 20, shoot_total(Role::Attacker, 0), keeper),
            KeeperResult::Rebound
        );
        assert_eq!(
            keeper_result(rule, 20, shoot_total(Role::Goaler, 25), keeper),
            KeeperResult::Rebound
        );
        assert_eq!(
            keeper_result(rule, 20, shoot_total(Role::Defender, 25), keeper),
            KeeperResult::CleanSave
        );
    }

    #[test]
    fn boosts_do_not_add_up() {
        assert_eq!(area_boost(HOME.opponent(), sq("d15")), 25);
        assert_eq!(area_boost(HOME.opponent(), sq("b13")), 15);
        assert_eq!(area_boost(HOME.opponent(), sq("a13")), 0);
    }

    #[test]
    fn an_attacker_scores_from_the_penalty_area() {
        let mut game = position_game("Ae13", "Kd16", "e13", "h");
        let events = game
            .apply(
                HOME,
                &Action::Shoot {
                    from: sq("e13"),
                    goal: sq("e16"),
                },
            )
            .unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e.event, Event::GoalScored { seat: HOME, .. })),
            "{events:?}"
        );
        assert_eq!(game.scores(), vec![1, 0]);
    }

    #[test]
    fn a_rebound_leaves_the_ball_loose_next_to_the_keeper() {
        // An attacker on e12 is out of the penalty area: 170 is between 160 and 180.
        let mut game = position_game("Ae12", "Kd16", "e12", "h");
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e12"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        assert_eq!(game.ball, Ball::Loose(sq("e15")));
        // A defender's shot is held: 100 + 15 < 160.
        let mut game = position_game("De14", "Kd16", "e14", "h");
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e14"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("d16")));
    }

    #[test]
    fn shoot_range_is_double_the_forward_move_by_default_and_single_as_an_option() {
        let game = position_game("Ae12", "Kd16", "e12", "h");
        assert!(
            game.legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::Shoot { .. }))
        );
        let game = position_game("Ae11", "Kd16", "e11", "h");
        assert!(
            !game
                .legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::Shoot { .. }))
        );
        let game = position_game_with(&[("shoot_range", 1)], &[], "Ae12", "Kd16", "e12", "h");
        assert!(
            !game
                .legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::Shoot { .. }))
        );
    }

    #[test]
    fn an_empty_goal_scores_unless_a_challenger_wins() {
        let mut game = position_game("Me14", "Kb16", "e14", "h");
        let events = game
            .apply(
                HOME,
                &Action::Shoot {
                    from: sq("e14"),
                    goal: sq("e16"),
                },
            )
            .unwrap();
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::ShotTaken {
                empty_goal: true,
                ..
            }
        )));
        assert_eq!(game.scores(), vec![1, 0]);
        // An away defender on e15 (215) beats the midfielder's 70+65+75 = 210.
        let mut game = position_game("Me14", "Kb16,De15", "e14", "h");
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e14"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        assert_eq!(game.scores(), vec![0, 0]);
        assert_eq!(game.holder().unwrap().square(), Some(sq("e15")));
    }

    #[test]
    fn long_shots_add_strength_and_the_keeper_adds_speed_curves_add_twenty() {
        // Goaler on e10: 85+70+70 = 225 against 90+70+50 = 210, a rebound (not above 230).
        let mut game = position_game("Ge10", "Kd16", "e10", "h");
        let events = game
            .apply(
                HOME,
                &Action::LongShoot {
                    from: sq("e10"),
                    via: None,
                    goal: sq("e16"),
                },
            )
            .unwrap();
        assert!(
            events.iter().any(|e| matches!(
                e.event,
                Event::Duel {
                    kind: DuelKind::Keeper,
                    initiator_total: 225,
                    opponent_total: 210,
                    outcome: DuelOutcome::Rebound,
                    ..
                }
            )),
            "{events:?}"
        );
        // A Long Expert curving through e11: 85+80+70+20 = 255 > 230, a goal.
        let mut game = position_game("LAe10", "Kd16", "e10", "h");
        let curved = Action::LongShoot {
            from: sq("e10"),
            via: Some(sq("e11")),
            goal: sq("d16"),
        };
        assert!(game.legal_actions(HOME).contains(&curved));
        let events = game.apply(HOME, &curved).unwrap();
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Keeper,
                initiator_total: 255,
                outcome: DuelOutcome::InitiatorWins,
                ..
            }
        )));
        assert_eq!(game.scores(), vec![1, 0]);
    }

    #[test]
    fn a_curve_must_bend_and_a_straight_line_is_the_straight_long_shot() {
        // A Long Expert with Goal 70: its long shot totals 70 + 80 + 70 = 220 against the
        // keeper's 210, a rebound; the curve's +20 would make it 240 > 230, a goal.
        let scene = || position_game("LAe10[75.80.70.70.50]", "Kd16", "e10", "h");
        let game = scene();
        let legal = game.legal_actions(HOME);
        let long_shot = |via: Option<&str>, goal| Action::LongShoot {
            from: sq("e10"),
            via: via.map(sq),
            goal: sq(goal),
        };
        assert!(
            !legal.contains(&long_shot(Some("e12"), "e16")),
            "along one line it is the straight shot"
        );
        for action in &legal {
            if let Action::LongShoot {
                from,
                via: Some(corner),
                goal,
            } = action
            {
                assert!(
                    crate::xfutebol::geometry::bends(*from, *corner, *goal),
                    "{action}"
                );
            }
        }
        let keeper_duel = |mut game: crate::xfutebol::XFutebol, action| {
            let events = game.apply(HOME, &action).unwrap();
            events.into_iter().find_map(|e| match e.event {
                Event::Duel {
                    kind: DuelKind::Keeper,
                    initiator_total,
                    outcome,
                    ..
                } => Some((initiator_total, outcome)),
                _ => None,
            })
        };
        assert_eq!(
            keeper_duel(scene(), long_shot(None, "e16")),
            Some((220, DuelOutcome::Rebound))
        );
        assert_eq!(
            keeper_duel(scene(), long_shot(Some("e13"), "d16")),
            Some((240, DuelOutcome::InitiatorWins))
        );
    }

    #[test]
    fn long_shots_can_be_intercepted() {
        // Goaler long shot from e10 (holder total 60+70+70 = 200); the away defender on e13
        // (215) takes it before the keeper is reached.
        let mut game = position_game("Ge10", "Kd16,De13", "e10", "h");
        let events = game
            .apply(
                HOME,
                &Action::LongShoot {
                    from: sq("e10"),
                    via: None,
                    goal: sq("e16"),
                },
            )
            .unwrap();
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Interception,
                initiator_total: 215,
                opponent_total: 200,
                ..
            }
        )));
        assert!(!events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Keeper,
                ..
            }
        )));
        assert_eq!(game.holder().unwrap().square(), Some(sq("e13")));
    }

    #[test]
    fn only_long_experts_curve_and_the_option_limits_long_shots() {
        let game = position_game("Ae10", "Kd16", "e10", "h");
        let actions = game.legal_actions(HOME);
        assert!(
            actions
                .iter()
                .any(|a| matches!(a, Action::LongShoot { via: None, .. }))
        );
        assert!(
            !actions
                .iter()
                .any(|a| matches!(a, Action::LongShoot { via: Some(_), .. }))
        );
        let limited = position_game_with(
            &[],
            &[("long_shoot_by", "long_experts")],
            "Ae10",
            "Kd16",
            "e10",
            "h",
        );
        assert!(
            !limited
                .legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::LongShoot { .. }))
        );
    }
}
