//! Match flow: turns, periods, goals and kick-offs, winning styles and the shoot-out.

use crate::game::{Outcome, Seat};

use super::actions::{Action, Resolution};
use super::events::{Event, TossPurpose};
use super::geometry::kick_off_square;
use super::lineup::Status;
use super::{AWAY, Ball, HOME, Phase, WinningStyle, XFutebol, seat_name};

impl XFutebol {
    /// Movements in the current period.
    pub(super) fn period_length(&self) -> u32 {
        let s = &self.settings;
        match s.style {
            WinningStyle::GoldenGoal | WinningStyle::TwoHalves => s.movements_per_half,
            WinningStyle::Goals => 2 * s.movements_per_half,
            WinningStyle::MovementCount => s.movement_limit,
        }
    }

    /// Goals, period ends and the end of the turn, after a movement (or a penalty) resolved.
    pub(super) fn after_movement(&mut self, resolution: Resolution, events: &mut Vec<Event>) {
        match resolution {
            Resolution::Goal { scorer } => {
                let seat = self.piece(scorer).seat;
                self.score_goal(seat, scorer, events);
            }
            Resolution::Foul => {}
            Resolution::Continue => {
                if self.phase == Phase::Play && self.movements_played >= self.period_length() {
                    self.end_period(events);
                } else if self.phase == Phase::Play && self.movements_left == 0 {
                    self.end_turn(events);
                }
            }
        }
    }

    fn score_goal(&mut self, seat: Seat, scorer: u32, events: &mut Vec<Event>) {
        self.score[seat.index()] += 1;
        events.push(Event::GoalScored {
            seat,
            scorer,
            score: self.score,
        });
        let s = &self.settings;
        match s.style {
            WinningStyle::GoldenGoal => {
                return self.finish(Some(seat), "golden goal", events);
            }
            WinningStyle::Goals if self.score[seat.index()] >= s.goals_to_win => {
                return self.finish(Some(seat), "reached the goal target", events);
            }
            _ => {}
        }
        if self.movements_played >= self.period_length() {
            self.end_period(events);
        } else {
            self.kick_off(seat.opponent(), false, events);
        }
    }

    pub(super) fn end_turn(&mut self, events: &mut Vec<Event>) {
        events.push(Event::TurnEnded { seat: self.to_act });
        self.start_turn(self.to_act.opponent(), events);
    }

    /// A fresh turn of two movements; resting pieces of the side count down or come back.
    pub(super) fn start_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.reset_turn(seat);
        let resting: Vec<u32> = self
            .pieces
            .iter()
            .filter(|p| p.seat == seat && matches!(p.status, Status::Resting { .. }))
            .map(|p| p.id)
            .collect();
        for id in resting {
            let Status::Resting {
                turns_left,
                left_from,
            } = self.piece(id).status
            else {
                continue;
            };
            if turns_left == 0 {
                let square = self.nearest_free(left_from);
                self.piece_mut(id).status = Status::OnPitch(square);
                events.push(Event::PieceReturned { piece: id, square });
            } else {
                self.piece_mut(id).status = Status::Resting {
                    turns_left: turns_left - 1,
                    left_from,
                };
            }
        }
    }

    /// Gives `seat` a fresh turn of two movements without touching resting pieces (a loaded
    /// position already says where their countdown stands).
    pub(super) fn reset_turn(&mut self, seat: Seat) {
        self.to_act = seat;
        self.turn_number += 1;
        self.movements_left = 2;
        self.moved = false;
        self.free_kick = None;
    }

    /// Everyone on the pitch back to the lineup; resting pieces return too after a period.
    pub(super) fn kick_off(&mut self, seat: Seat, new_period: bool, events: &mut Vec<Event>) {
        self.phase = Phase::Play;
        self.ball = Ball::Unplaced;
        for piece in &mut self.pieces {
            let back = match piece.status {
                Status::OnPitch(_) => true,
                Status::Resting { .. } => new_period,
                Status::SentOff => false,
            };
            if back {
                piece.status = Status::OnPitch(piece.start);
            }
        }
        let square = self.place_ball_for(seat);
        events.push(Event::KickOff {
            seat,
            half: self.half,
            ball: square,
        });
        self.start_turn(seat, events);
    }

    /// The ball on the side's kick-off square: held when a team-mate stands there, loose when
    /// it is free. An opponent can start there only in a custom position; the ball then lies
    /// loose on the nearest free square. Returns where the ball is.
    fn place_ball_for(&mut self, seat: Seat) -> crate::geometry::Square {
        let square = kick_off_square(seat);
        let (ball, at) = match self.piece_at(square) {
            Some(p) if p.seat == seat => (Ball::Held(p.id), square),
            Some(_) => {
                let free = self.nearest_free(square);
                (Ball::Loose(free), free)
            }
            None => (Ball::Loose(square), square),
        };
        self.ball = ball;
        at
    }

    pub(super) fn end_period(&mut self, events: &mut Vec<Event>) {
        events.push(Event::PeriodEnded {
            half: self.half,
            score: self.score,
        });
        if self.settings.style == WinningStyle::TwoHalves && self.half == 1 {
            self.half = 2;
            self.movements_played = 0;
            self.sprints = [0, 0];
            let first = self.first_kick_off.unwrap_or(HOME);
            self.kick_off(first.opponent(), true, events);
            return;
        }
        let [home, away] = self.score;
        match home.cmp(&away) {
            std::cmp::Ordering::Greater => self.finish(Some(HOME), "more goals", events),
            std::cmp::Ordering::Less => self.finish(Some(AWAY), "more goals", events),
            std::cmp::Ordering::Equal => self.start_shootout(events),
        }
    }

    fn start_shootout(&mut self, events: &mut Vec<Event>) {
        // The side that did not kick off the match kicks first.
        let first = self.first_kick_off.unwrap_or(HOME).opponent();
        self.phase = Phase::Shootout;
        self.to_act = first;
        self.shootout.first = Some(first);
        // Everyone lines up again, as for a kick-off, so the kickers are all available.
        for piece in &mut self.pieces {
            if piece.status != Status::SentOff {
                piece.status = Status::OnPitch(piece.start);
            }
        }
        self.ball = Ball::Unplaced;
        self.place_ball_for(first);
        events.push(Event::ShootoutStarted { first });
    }

    pub(super) fn apply_shootout_kick(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) {
        let Action::Penalty { kicker: square } = *action else {
            unreachable!("only penalty kicks are legal in a shoot-out");
        };
        let kicker = self.piece_at(square).expect("legal kick").id;
        let scored = self.penalty_kick(square, events);
        let team = seat.index();
        self.shootout.kicks[team] += 1;
        if scored {
            self.shootout.goals[team] += 1;
        }
        events.push(Event::ShootoutKick {
            seat,
            kicker,
            scored,
            goals: self.shootout.goals,
        });
        match self.shootout_decision() {
            Some(ShootoutDecision::Winner(winner)) => {
                self.finish(Some(winner), "penalty shoot-out", events);
            }
            Some(ShootoutDecision::CoinToss) => {
                let winner = if self.rng.below(2) == 0 { HOME } else { AWAY };
                events.push(Event::CoinTossed {
                    purpose: TossPurpose::ShootoutDecider,
                    winner,
                });
                self.finish(Some(winner), "coin toss after a level shoot-out", events);
            }
            None => self.to_act = seat.opponent(),
        }
    }

    fn shootout_decision(&self) -> Option<ShootoutDecision> {
        let rounds = self.settings.shootout_rounds;
        let [kh, ka] = self.shootout.kicks;
        let [gh, ga] = self.shootout.goals;
        if kh < rounds || ka < rounds {
            let left_h = rounds.saturating_sub(kh);
            let left_a = rounds.saturating_sub(ka);
            if gh > ga + left_a {
                return Some(ShootoutDecision::Winner(HOME));
            }
            if ga > gh + left_h {
                return Some(ShootoutDecision::Winner(AWAY));
            }
            return None;
        }
        if kh != ka {
            return None;
        }
        match gh.cmp(&ga) {
            std::cmp::Ordering::Greater => Some(ShootoutDecision::Winner(HOME)),
            std::cmp::Ordering::Less => Some(ShootoutDecision::Winner(AWAY)),
            std::cmp::Ordering::Equal if kh >= rounds + self.settings.sudden_death_rounds => {
                Some(ShootoutDecision::CoinToss)
            }
            std::cmp::Ordering::Equal => None,
        }
    }

    pub(super) fn finish(&mut self, winner: Option<Seat>, reason: &str, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        let reason = match winner {
            Some(seat) => format!("{} wins: {reason}", seat_name(seat)),
            None => reason.to_owned(),
        };
        events.push(Event::MatchEnded {
            winner,
            score: self.score,
            reason: reason.clone(),
        });
        self.outcome = Some(Outcome {
            winner,
            scores: self.score.to_vec(),
            reason,
        });
    }

    /// Tosses the coin for the kick-off once both lineups stand, and kicks off.
    pub(super) fn toss_and_kick_off(&mut self, events: &mut Vec<Event>) {
        let winner = if self.rng.below(2) == 0 { HOME } else { AWAY };
        events.push(Event::CoinTossed {
            purpose: TossPurpose::KickOff,
            winner,
        });
        self.first_kick_off = Some(winner);
        self.kick_off(winner, true, events);
    }
}

enum ShootoutDecision {
    Winner(Seat),
    CoinToss,
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::xfutebol::tests::{position_game, position_game_with, sq};
    use crate::xfutebol::{AWAY, Action, Event, HOME, Phase};

    fn play_moves(game: &mut crate::xfutebol::XFutebol, count: usize) {
        // Both sides shuffle a midfielder sideways; nothing else happens.
        for _ in 0..count {
            if game.outcome().is_some() || game.phase != Phase::Play {
                return;
            }
            let seat = game.to_act;
            let action = game
                .legal_actions(seat)
                .into_iter()
                .find(|a| matches!(a, Action::Move { from, to } if from.rank == to.rank))
                .expect("a sideways move");
            game.apply(seat, &action).unwrap();
        }
    }

    #[test]
    fn two_halves_swap_the_kick_off_and_a_level_score_goes_to_a_shootout() {
        let mut game =
            position_game_with(&[("movements_per_half", 10)], &[], "Md5", "Md12", "d5", "h");
        play_moves(&mut game, 10);
        assert_eq!(game.half, 2);
        assert_eq!(game.to_act, AWAY, "the side that did not kick off first");
        play_moves(&mut game, 10);
        assert_eq!(game.phase, Phase::Shootout);
        assert_eq!(game.turn().phase, "shootout");
    }

    #[test]
    fn the_text_penalty_shootout_ends_with_a_coin_toss() {
        let mut game = position_game_with(
            &[("movements_per_half", 10)],
            &[("penalty_rule", "text")],
            "Ad5,Kd1",
            "Ad12,Kd16",
            "d5",
            "h",
        );
        play_moves(&mut game, 20);
        let mut kicks = 0;
        while game.outcome().is_none() {
            let seat = game.to_act;
            let action = game.legal_actions(seat)[0].clone();
            game.apply(seat, &action).unwrap();
            kicks += 1;
        }
        // 5 rounds and 5 sudden-death rounds, every kick saved, then the toss.
        assert_eq!(kicks, 20);
        assert!(game.outcome().unwrap().reason.contains("coin toss"));
    }

    #[test]
    fn a_level_match_is_decided_by_the_shootout_kicks_under_the_default_rules() {
        let mut game = position_game_with(
            &[("movements_per_half", 10)],
            &[],
            "Ad5,Kd1",
            "Dd12,Kd16",
            "d5",
            "h",
        );
        play_moves(&mut game, 20);
        assert_eq!(game.phase, Phase::Shootout);
        let mut kicks = 0;
        let mut tossed = false;
        while game.outcome().is_none() {
            let seat = game.to_act;
            // Home kicks with its attacker (scores), away with its defender (saved).
            let action = game
                .legal_actions(seat)
                .into_iter()
                .find(|a| !matches!(a, Action::Penalty { kicker } if kicker.file == 4 && (kicker.rank == 1 || kicker.rank == 16)))
                .unwrap();
            let events = game.apply(seat, &action).unwrap();
            tossed |= events
                .iter()
                .any(|e| matches!(e.event, Event::CoinTossed { .. }));
            kicks += 1;
        }
        // Away kicks first (home kicked off): 0-1, 0-2, 0-3 after 6 kicks ends it at 3 rounds
        // with two away kicks left: 3 > 0 + 2.
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner, Some(HOME));
        assert!(
            outcome.reason.contains("penalty shoot-out"),
            "{}",
            outcome.reason
        );
        assert!(!tossed);
        assert_eq!(kicks, 6);
    }

    #[test]
    fn golden_goal_ends_at_the_first_goal() {
        let mut game = position_game_with(
            &[],
            &[("winning_style", "golden_goal")],
            "Ae13",
            "Kd16",
            "e13",
            "h",
        );
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e13"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner, Some(HOME));
        assert!(game.turn().to_act.is_empty());
    }

    #[test]
    fn after_a_goal_pieces_return_and_the_conceding_side_kicks_off() {
        let mut game = position_game("Ae13,Ac3", "Kd16,Ae9", "e13", "h");
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e13"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        assert_eq!(game.to_act, AWAY);
        assert_eq!(game.holder().unwrap().square(), Some(sq("e9")));
        assert!(
            game.piece_at(sq("e13")).is_some(),
            "start squares are the given ones"
        );
        let outcome = game.outcome();
        assert!(outcome.is_none());
    }

    #[test]
    fn a_kick_off_square_taken_by_an_opponent_leaves_the_ball_loose_beside_it() {
        // A custom start with an away piece standing on home's kick-off square e8: away scores
        // (185 > 180 from the penalty area), home kicks off, the away piece is back on e8.
        let mut game = position_game("Kd1", "Ae4,Me8", "e4", "a");
        game.apply(
            AWAY,
            &Action::Shoot {
                from: sq("e4"),
                goal: sq("e1"),
            },
        )
        .unwrap();
        assert_eq!(game.scores(), vec![0, 1]);
        assert_eq!(game.to_act, HOME);
        let crate::xfutebol::Ball::Loose(square) = game.ball else {
            panic!("the ball should lie loose, not be {:?}", game.ball);
        };
        assert!(game.piece_at(square).is_none());
        assert_eq!(square.king_distance(sq("e8")), 1);
    }

    #[test]
    fn half_time_resets_sprints_and_brings_resting_pieces_back() {
        let mut game = position_game_with(
            &[("movements_per_half", 10)],
            &[],
            "Md5,Ac4",
            "Md12",
            "d5",
            "h",
        );
        game.sprints = [3, 0];
        game.apply(
            HOME,
            &Action::Sprint {
                from: sq("c4"),
                to: sq("c6"),
            },
        )
        .unwrap();
        assert!(game.piece_at(sq("c6")).is_none(), "resting");
        play_moves(&mut game, 9);
        assert_eq!(game.half, 2);
        assert_eq!(game.sprints, [0, 0]);
        assert!(
            game.piece_at(sq("c4")).is_some(),
            "back on its start square"
        );
    }

    #[test]
    fn goals_style_ends_at_the_target_and_movement_count_at_its_limit() {
        let mut game = position_game_with(
            &[("goals_to_win", 1)],
            &[("winning_style", "goals")],
            "Ae13",
            "Kd16",
            "e13",
            "h",
        );
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e13"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        assert_eq!(game.outcome().unwrap().winner, Some(HOME));
        let mut game = position_game_with(
            &[("movement_limit", 10)],
            &[("winning_style", "movement_count")],
            "Ae13,Ma1",
            "Kd16,Ma16",
            "e13",
            "h",
        );
        game.apply(
            HOME,
            &Action::Shoot {
                from: sq("e13"),
                goal: sq("e16"),
            },
        )
        .unwrap();
        play_moves(&mut game, 20);
        assert_eq!(game.outcome().unwrap().winner, Some(HOME));
        assert_eq!(game.movements_played, 10);
        let events_seen = game.outcome().unwrap().reason;
        assert!(events_seen.contains("more goals"));
    }
}
