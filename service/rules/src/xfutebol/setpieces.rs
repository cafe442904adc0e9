//! Fouls, cards, free kicks, penalties and the red card's send-off.

use std::cmp::Ordering;

use crate::game::Seat;
use crate::geometry::Square;

use super::actions::{Action, Resolution};
use super::duels::{KeeperResult, keeper_result};
use super::events::{DuelKind, DuelOutcome, Event};
use super::geometry::{in_goal_area, in_penalty_area};
use super::lineup::Status;
use super::{Ball, FreeKickRule, PenaltyRule, Phase, SetPiece, ShotRule, XFutebol};

/// Pieces within this many king steps of a free kick form the barrier.
const BARRIER_REACH: i8 = 2;
/// Fouls that bring the yellow card; every foul from the next one on is a red card.
const YELLOW_AT: u32 = 3;

impl XFutebol {
    /// Records a foul by `fouler` on `fouled` at `square`, ends the fouling team's turn and sets
    /// up the set piece (after the send-off a red card asks for).
    ///
    /// A set piece awarded with a period's last movement is still taken, in one more turn. A
    /// foul committed in that extra movement counts (and may bring a card) but earns no set
    /// piece: the period ends, so answering fouls cannot keep a period open forever.
    pub(super) fn commit_foul(
        &mut self,
        fouler: u32,
        fouled: u32,
        square: Square,
        events: &mut Vec<Event>,
    ) {
        let seat = self.piece(fouler).seat;
        let team = seat.index();
        self.fouls[team] += 1;
        let team_fouls = self.fouls[team];
        events.push(Event::Foul {
            seat,
            piece: fouler,
            fouled,
            square,
            team_fouls,
        });
        if team_fouls == YELLOW_AT {
            events.push(Event::YellowCard { seat });
        }
        let removal = team_fouls > YELLOW_AT && self.team_size(seat) > self.settings.min_pieces;
        if team_fouls > YELLOW_AT {
            self.red_cards[team] += 1;
            events.push(Event::RedCard { seat, removal });
        }
        // The ball marks the foul: the fouled piece has it.
        self.ball = Ball::Held(fouled);
        events.push(Event::TurnEnded { seat });
        if self.movements_played > self.period_length() {
            if removal {
                self.phase = Phase::SendOff { then: None };
                self.to_act = seat;
            } else {
                self.end_period(events);
            }
            return;
        }
        let set_piece = if in_penalty_area(seat, square) {
            events.push(Event::PenaltyAwarded {
                seat: seat.opponent(),
                square,
            });
            SetPiece::Penalty { square }
        } else {
            events.push(Event::FreeKickAwarded {
                seat: seat.opponent(),
                square,
            });
            SetPiece::FreeKick {
                square,
                kicker: fouled,
            }
        };
        if removal {
            self.phase = Phase::SendOff {
                then: Some(set_piece),
            };
            self.to_act = seat;
        } else {
            self.begin_set_piece(seat.opponent(), set_piece, events);
        }
    }

    fn begin_set_piece(&mut self, fouled_team: Seat, set_piece: SetPiece, events: &mut Vec<Event>) {
        match set_piece {
            SetPiece::FreeKick { .. } => {
                self.phase = Phase::Play;
                self.start_turn(fouled_team, events);
                self.free_kick = Some(set_piece);
            }
            SetPiece::Penalty { .. } => {
                self.phase = Phase::Penalty;
                self.to_act = fouled_team;
            }
        }
    }

    pub(super) fn send_off_actions(&self, seat: Seat) -> Vec<Action> {
        self.on_pitch(seat)
            .map(|p| Action::SendOff {
                at: p.square().expect("on the pitch"),
            })
            .collect()
    }

    pub(super) fn apply_send_off(
        &mut self,
        seat: Seat,
        action: &Action,
        then: Option<SetPiece>,
        events: &mut Vec<Event>,
    ) {
        let Action::SendOff { at } = *action else {
            unreachable!("only send-offs are legal now");
        };
        // The fouled piece of the other side holds the ball, so no ball leaves with this piece.
        let id = self.piece_at(at).expect("legal send-off").id;
        self.piece_mut(id).status = Status::SentOff;
        events.push(Event::PieceSentOff { piece: id });
        match then {
            Some(set_piece) => self.begin_set_piece(seat.opponent(), set_piece, events),
            None => self.end_period(events),
        }
    }

    /// The fouled piece shoots over the barrier: its Skill + Goal against the barrier's highest
    /// Defense. Beating it leads to the keeper duel (by default), or scores (`text`).
    pub(super) fn take_free_kick(
        &mut self,
        from: Square,
        goal: Square,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let kicker = self.piece_at(from).expect("legal free kick").id;
        let seat = self.piece(kicker).seat;
        let defender = seat.opponent();
        let barrier: Vec<u32> = self
            .on_pitch(defender)
            .filter(|p| {
                p.square()
                    .is_some_and(|s| s.king_distance(from) <= BARRIER_REACH)
            })
            .map(|p| p.id)
            .collect();
        events.push(Event::FreeKickTaken {
            piece: kicker,
            goal,
            barrier: barrier.clone(),
        });
        let k = self.piece(kicker).attributes;
        let total = k.skill + k.goal;
        let strongest = barrier
            .iter()
            .copied()
            .max_by_key(|id| (self.piece(*id).attributes.defense, std::cmp::Reverse(*id)));
        if let Some(wall) = strongest {
            let defense = self.piece(wall).attributes.defense;
            let order = total.cmp(&defense);
            events.push(Event::Duel {
                kind: DuelKind::Barrier,
                initiator: kicker,
                initiator_total: total,
                opponent: Some(wall),
                opponent_total: defense,
                outcome: if order == Ordering::Greater {
                    DuelOutcome::InitiatorWins
                } else {
                    DuelOutcome::OpponentWins
                },
            });
            if order != Ordering::Greater {
                self.ball = Ball::Held(wall);
                events.push(Event::BallWon { piece: wall });
                return Resolution::Continue;
            }
        }
        let rule = match self.settings.free_kick_rule {
            FreeKickRule::Text => return Resolution::Goal { scorer: kicker },
            // The keeper-margin rule would make a free kick unwinnable: taken from outside
            // the penalty area it earns no boost, and no Goal + Skill of the table beats
            // Defense + Skill by more than the margin (170 against 180).
            FreeKickRule::Keeper => ShotRule::Simple,
            FreeKickRule::Shot => self.settings.shot_rule,
        };
        let keeper = self
            .keeper_on_pitch(defender)
            .filter(|p| p.square().is_some_and(|s| in_goal_area(defender, s)))
            .map(|p| p.id);
        let boosted = total + super::duels::area_boost(defender, from);
        self.keeper_stage(kicker, boosted, keeper, false, rule, events)
    }

    /// Kickers for a penalty: every piece on the pitch. Never empty: in play the fouled piece
    /// is on the pitch, and a shoot-out lines every remaining piece up.
    pub(super) fn penalty_actions(&self, seat: Seat) -> Vec<Action> {
        self.on_pitch(seat)
            .map(|p| Action::Penalty {
                kicker: p.square().expect("on the pitch"),
            })
            .collect()
    }

    /// Resolves a penalty by the piece on `kicker`; rebounds and saves leave the ball with the
    /// defending side. Returns whether it scored.
    pub(super) fn penalty_kick(&mut self, kicker: Square, events: &mut Vec<Event>) -> bool {
        let kicker_id = self.piece_at(kicker).expect("legal penalty").id;
        let seat = self.piece(kicker_id).seat;
        let defender = seat.opponent();
        let keeper = self.keeper_on_pitch(defender).map(|p| p.id);
        events.push(Event::PenaltyTaken {
            piece: kicker_id,
            keeper,
        });
        let a = self.piece(kicker_id).attributes;
        let Some(keeper) = keeper else {
            events.push(Event::Duel {
                kind: DuelKind::Penalty,
                initiator: kicker_id,
                initiator_total: a.goal,
                opponent: None,
                opponent_total: 0,
                outcome: DuelOutcome::InitiatorWins,
            });
            return true;
        };
        let k = self.piece(keeper).attributes;
        let (total, keeper_total, result) = match self.settings.penalty_rule {
            PenaltyRule::Text => {
                let result = if a.goal > k.defense {
                    KeeperResult::Goal
                } else {
                    KeeperResult::CleanSave
                };
                (a.goal, k.defense, result)
            }
            PenaltyRule::Shot => {
                // A shot from the penalty spot, which lies in the penalty area.
                let total = a.goal + a.skill + 15;
                let keeper_total = k.defense + k.skill;
                let result = keeper_result(
                    self.settings.shot_rule,
                    self.settings.keeper_margin,
                    total,
                    keeper_total,
                );
                (total, keeper_total, result)
            }
        };
        events.push(Event::Duel {
            kind: DuelKind::Penalty,
            initiator: kicker_id,
            initiator_total: total,
            opponent: Some(keeper),
            opponent_total: keeper_total,
            outcome: match result {
                KeeperResult::Goal => DuelOutcome::InitiatorWins,
                KeeperResult::Rebound => DuelOutcome::Rebound,
                KeeperResult::CleanSave => DuelOutcome::OpponentWins,
            },
        });
        if self.phase == Phase::Penalty {
            let resolution = self.settle_save(result, kicker_id, keeper, kicker, events);
            return matches!(resolution, Resolution::Goal { .. });
        }
        result == KeeperResult::Goal
    }

    /// The in-play penalty: a goal restarts with a kick-off, anything else gives the
    /// defending side its turn.
    pub(super) fn apply_penalty(&mut self, seat: Seat, action: &Action, events: &mut Vec<Event>) {
        let Action::Penalty { kicker } = *action else {
            unreachable!("only penalty kicks are legal in the penalty phase");
        };
        let scorer = self.piece_at(kicker).expect("legal penalty").id;
        let resolution = if self.penalty_kick(kicker, events) {
            Resolution::Goal { scorer }
        } else {
            Resolution::Continue
        };
        self.phase = Phase::Play;
        self.movements_played += 1;
        match resolution {
            Resolution::Goal { .. } => self.after_movement(resolution, events),
            _ => {
                events.push(Event::TurnEnded { seat });
                self.start_turn(seat.opponent(), events);
                self.after_movement(Resolution::Continue, events);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::xfutebol::events::{DuelKind, DuelOutcome, Event};
    use crate::xfutebol::tests::{position_game, position_game_with, sq};
    use crate::xfutebol::{AWAY, Action, HOME, Phase};

    fn foul_events(game: &mut crate::xfutebol::XFutebol, from: &str, to: &str) -> Vec<Event> {
        game.apply(
            game.to_act,
            &Action::Move {
                from: sq(from),
                to: sq(to),
            },
        )
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect()
    }

    /// The home piece on e12 is fouled by the away defender on e13, outside the penalty area,
    /// and takes its free kick at e16; the events of the kick.
    fn free_kick(texts: &[(&str, &str)], home: &str, away: &str) -> Vec<Event> {
        let mut game = position_game_with(&[], texts, home, away, "e12", "a");
        foul_events(&mut game, "e13", "e12");
        game.apply(
            HOME,
            &Action::FreeKick {
                from: sq("e12"),
                goal: sq("e16"),
            },
        )
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect()
    }

    fn scored(events: &[Event]) -> bool {
        events.iter().any(|e| matches!(e, Event::GoalScored { .. }))
    }

    fn keeper_duel(events: &[Event]) -> Option<(u32, u32, DuelOutcome)> {
        events.iter().find_map(|e| match *e {
            Event::Duel {
                kind: DuelKind::Keeper,
                initiator_total,
                opponent_total,
                outcome,
                ..
            } => Some((initiator_total, opponent_total, outcome)),
            _ => None,
        })
    }

    #[test]
    fn a_default_free_kick_scores_or_is_saved_depending_on_kicker_and_keeper() {
        // Past the wall (best Defense 85), Goal + Skill meets the keeper's Defense + Skill.
        let attacker = free_kick(&[], "Ae12", "Kd16,De13");
        assert_eq!(
            keeper_duel(&attacker),
            Some((170, 160, DuelOutcome::InitiatorWins))
        );
        assert!(scored(&attacker));
        let goaler = free_kick(&[], "Ge12", "Kd16,De13");
        assert_eq!(
            keeper_duel(&goaler),
            Some((155, 160, DuelOutcome::OpponentWins))
        );
        assert!(!scored(&goaler));
        // A keeper with Skill 80 saves the attacker's kick; one with Defense 80 lets the
        // goaler's in.
        let strong_keeper = free_kick(&[], "Ae12", "Kd16[50.80.60.50.90],De13");
        assert_eq!(
            keeper_duel(&strong_keeper),
            Some((170, 170, DuelOutcome::OpponentWins))
        );
        let weak_keeper = free_kick(&[], "Ge12", "Kd16[50.70.60.50.80],De13");
        assert!(scored(&weak_keeper));
    }

    #[test]
    fn a_foul_outside_the_area_gives_a_free_kick_that_beats_any_wall_under_the_text_option() {
        // Away defender fouls the home attacker on e12 (outside the away penalty area).
        let mut game = position_game_with(
            &[],
            &[("free_kick_rule", "text")],
            "Ae12",
            "Kd16,De13,Dd13",
            "e12",
            "a",
        );
        let events = foul_events(&mut game, "e13", "e12");
        assert!(events.contains(&Event::FreeKickAwarded {
            seat: HOME,
            square: sq("e12")
        }));
        assert_eq!(game.turn().to_act, vec![HOME]);
        let kick = Action::FreeKick {
            from: sq("e12"),
            goal: sq("e16"),
        };
        assert!(game.legal_actions(HOME).contains(&kick));
        let events = game.apply(HOME, &kick).unwrap();
        // Skill + Goal 170 against the wall's best Defense 85: always through, always a goal.
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Barrier,
                initiator_total: 170,
                opponent_total: 85,
                ..
            }
        )));
        assert_eq!(game.scores(), vec![1, 0]);
        // Even the goaler, whom the default rule's keeper stops, scores past the wall.
        assert!(scored(&free_kick(
            &[("free_kick_rule", "text")],
            "Ge12",
            "Kd16,De13"
        )));
    }

    #[test]
    fn the_barrier_is_every_defender_within_two_squares() {
        // g14 is two king steps from the foul square e12, h15 three: only the first walls.
        let mut game = position_game(
            "Ae12",
            "Kd16,De13,Dg14[50.60.80.40.99],Dh15[50.60.80.40.100]",
            "e12",
            "a",
        );
        foul_events(&mut game, "e13", "e12");
        let events = game
            .apply(
                HOME,
                &Action::FreeKick {
                    from: sq("e12"),
                    goal: sq("e16"),
                },
            )
            .unwrap();
        let g14 = game.piece_at(sq("g14")).unwrap().id;
        let barrier = events.iter().find_map(|e| match &e.event {
            Event::FreeKickTaken { barrier, .. } => Some(barrier.len()),
            _ => None,
        });
        assert_eq!(barrier, Some(2));
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Barrier,
                opponent: Some(wall),
                opponent_total: 99,
                ..
            } if wall == g14
        )));
    }

    #[test]
    fn the_shot_free_kick_option_meets_the_keeper_under_the_shot_rule() {
        // 170 against keeper 160: a rebound under the keeper-margin rule.
        let events = free_kick(&[("free_kick_rule", "shot")], "Ae12", "Kd16,De13");
        assert_eq!(keeper_duel(&events), Some((170, 160, DuelOutcome::Rebound)));
        assert!(!scored(&events));
    }

    #[test]
    fn the_free_kick_is_only_the_first_movement_after_the_foul() {
        let mut game = position_game("Ae12,Ma1", "Kd16,De13", "e12", "a");
        foul_events(&mut game, "e13", "e12");
        game.apply(
            HOME,
            &Action::Move {
                from: sq("a1"),
                to: sq("a2"),
            },
        )
        .unwrap();
        assert!(
            !game
                .legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::FreeKick { .. }))
        );
    }

    #[test]
    fn a_foul_in_the_own_penalty_area_is_a_penalty_and_the_text_penalty_never_scores() {
        let mut game = position_game_with(
            &[],
            &[("penalty_rule", "text")],
            "Ae14,Gc8",
            "Kd16,De15",
            "e14",
            "a",
        );
        let events = foul_events(&mut game, "e15", "e14");
        assert!(events.contains(&Event::PenaltyAwarded {
            seat: HOME,
            square: sq("e14")
        }));
        assert_eq!(game.phase, Phase::Penalty);
        let events = game
            .apply(HOME, &Action::Penalty { kicker: sq("e14") })
            .unwrap();
        // Goal 90 against Defense 90: the keeper wins ties, so the table's best never scores.
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Penalty,
                initiator_total: 90,
                opponent_total: 90,
                outcome: DuelOutcome::OpponentWins,
                ..
            }
        )));
        assert_eq!(game.scores(), vec![0, 0]);
        assert_eq!(
            game.turn().to_act,
            vec![AWAY],
            "the defending side plays on"
        );
        assert_eq!(game.holder().unwrap().square(), Some(sq("d16")));
    }

    /// The away defender on e15 fouls the home piece on e14 in the penalty area; the home
    /// piece on `kicker` takes the penalty against the away team `away`.
    fn penalty(home: &str, away: &str, kicker: &str) -> (crate::xfutebol::XFutebol, Vec<Event>) {
        let mut game = position_game(home, away, "e14", "a");
        foul_events(&mut game, "e15", "e14");
        let events = game
            .apply(HOME, &Action::Penalty { kicker: sq(kicker) })
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect();
        (game, events)
    }

    fn penalty_duel(events: &[Event]) -> Option<(u32, u32, DuelOutcome)> {
        events.iter().find_map(|e| match *e {
            Event::Duel {
                kind: DuelKind::Penalty,
                initiator_total,
                opponent_total,
                outcome,
                ..
            } => Some((initiator_total, opponent_total, outcome)),
            _ => None,
        })
    }

    #[test]
    fn a_default_penalty_scores_or_is_saved_depending_on_kicker_and_keeper() {
        // A shot from the penalty area: Goal + Skill + 15 against Defense + Skill, scoring
        // only above the keeper's total + 20.
        let (game, events) = penalty("Ae14", "Kd16,De15", "e14");
        assert_eq!(
            penalty_duel(&events),
            Some((185, 160, DuelOutcome::InitiatorWins))
        );
        assert_eq!(game.scores(), vec![1, 0]);
        assert_eq!(
            game.turn().to_act,
            vec![AWAY],
            "the conceding side kicks off"
        );
        let (game, events) = penalty("Ae14,Dc8", "Kd16,De15", "c8");
        assert_eq!(
            penalty_duel(&events),
            Some((115, 160, DuelOutcome::OpponentWins))
        );
        assert_eq!(game.scores(), vec![0, 0]);
        // A keeper with Skill 80 parries the attacker; one with Defense 80 is beaten by a
        // goaler (85 + 70 + 15 = 170 > 140 + 20).
        let (game, events) = penalty("Ae14", "Kd16[50.80.60.50.90],De15", "e14");
        assert_eq!(
            penalty_duel(&events),
            Some((185, 170, DuelOutcome::Rebound))
        );
        assert_eq!(game.scores(), vec![0, 0]);
        let (game, _) = penalty("Ge14", "Kd16[50.60.60.50.80],De15", "e14");
        assert_eq!(game.scores(), vec![1, 0]);
    }

    #[test]
    fn three_fouls_are_a_yellow_and_the_fourth_a_red_with_a_send_off() {
        let mut game = position_game(
            "Ae12,Ma1,Mb1,Mc1,Mf1,Mg1,Mh1",
            "Kd16,De13,Dh16,Dg16,Da16,Db16,Dc16,Df16",
            "e12",
            "a",
        );
        game.fouls = [0, 2];
        let events = foul_events(&mut game, "e13", "e12");
        assert!(events.contains(&Event::YellowCard { seat: AWAY }));
        game.apply(
            HOME,
            &Action::Move {
                from: sq("a1"),
                to: sq("a2"),
            },
        )
        .unwrap();
        game.apply(HOME, &Action::EndTurn).unwrap();
        let events = foul_events(&mut game, "e13", "e12");
        assert!(events.contains(&Event::RedCard {
            seat: AWAY,
            removal: true
        }));
        assert_eq!(game.turn().phase, "send_off");
        assert_eq!(game.turn().to_act, vec![AWAY]);
        game.apply(AWAY, &Action::SendOff { at: sq("h16") })
            .unwrap();
        assert!(game.piece_at(sq("h16")).is_none());
        assert_eq!(game.turn().to_act, vec![HOME]);
        assert!(
            game.legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::FreeKick { .. }))
        );
    }

    #[test]
    fn a_penalty_goal_is_credited_to_the_chosen_kicker() {
        // The attacker on e14 is fouled; the attacker on c8 takes the kick and scores
        // (90 + 80 + 15 = 185 > 160 + 20).
        let mut game = position_game("Ae14,Ac8", "Kd16,De15", "e14", "a");
        foul_events(&mut game, "e15", "e14");
        let kicker = game.piece_at(sq("c8")).unwrap().id;
        let events = game
            .apply(HOME, &Action::Penalty { kicker: sq("c8") })
            .unwrap();
        assert!(
            events.iter().any(|e| matches!(
                e.event,
                Event::GoalScored { seat: HOME, scorer, .. } if scorer == kicker
            )),
            "{events:?}"
        );
    }

    #[test]
    fn a_foul_in_the_stoppage_movement_ends_the_period_instead_of_a_new_set_piece() {
        // Away fouls with the half's last movement: home still gets its free-kick turn.
        let mut game = position_game_with(
            &[("movements_per_half", 10)],
            &[],
            "Ae12",
            "Kd16,De13",
            "e12",
            "a",
        );
        game.movements_played = 9;
        foul_events(&mut game, "e13", "e12");
        assert_eq!((game.half, game.turn().to_act.clone()), (1, vec![HOME]));
        // Home answers with a foul of its own: recorded, but the half is over, so no free
        // kick for away and no chain of set pieces that could keep the period open.
        let events = foul_events(&mut game, "e12", "e13");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Foul { seat: HOME, .. }))
        );
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::FreeKickAwarded { .. }))
        );
        assert_eq!(game.fouls, [1, 1]);
        assert_eq!((game.half, game.movements_played), (2, 0));
        // The same with a red card: the send-off comes first, then the period ends.
        let mut game = position_game_with(
            &[("movements_per_half", 10), ("min_pieces", 1)],
            &[],
            "Ae12,Ma1",
            "Kd16,De13",
            "e12",
            "a",
        );
        game.movements_played = 9;
        game.fouls = [3, 0];
        foul_events(&mut game, "e13", "e12");
        foul_events(&mut game, "e12", "e13");
        assert_eq!(game.turn().phase, "send_off");
        game.apply(HOME, &Action::SendOff { at: sq("a1") }).unwrap();
        assert_eq!((game.half, game.turn().phase.as_str()), (2, "play"));
    }

    #[test]
    fn a_red_card_removes_nothing_at_the_minimum_team_size() {
        let mut game = position_game("Ae12", "Kd16,De13", "e12", "a");
        game.fouls = [0, 3];
        let events = foul_events(&mut game, "e13", "e12");
        assert!(events.contains(&Event::RedCard {
            seat: AWAY,
            removal: false
        }));
        assert_eq!(game.turn().phase, "play");
    }
}
