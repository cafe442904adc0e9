//! The atomic actions and the movements of a turn: MOVE, SPRINT, PASS, LONG PASS, DRIBBLE,
//! CHALLENGE, SHOOT, LONG SHOOT and the free kick.

use crate::game::Seat;
use crate::geometry::{KING_DIRECTIONS, Square};

use super::events::{DuelKind, Event};
use super::geometry::{
    bends, distance_to_goal, goal_squares, is_goal_square, line_between, on_board, rays,
};
use super::lineup::{Formation, Role, Special, Status};
use super::{Ball, SetPiece, XFutebol};

/// One atomic action. Pieces are named by the square they stand on.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Lineup: the 4-3-3 table with its default specials, confirmed at once.
    DefaultLineup,
    /// Lineup: put the pieces on a formation table's squares.
    Formation(Formation),
    /// Lineup: make the outfield piece on `at` a special.
    AssignSpecial {
        at: Square,
        special: Special,
    },
    /// Lineup: move a piece to another legal lineup square (each piece once).
    Place {
        from: Square,
        to: Square,
    },
    /// Lineup: done (needs two of each special).
    ConfirmLineup,
    /// Ending on an opponent is a foul; ending on a loose ball takes it.
    Move {
        from: Square,
        to: Square,
    },
    /// A MOVE at double range onto a free square; beyond the free sprints the piece rests.
    Sprint {
        from: Square,
        to: Square,
    },
    Pass {
        from: Square,
        to: Square,
    },
    /// Long Experts only; `via` is the corner of a curved pass.
    LongPass {
        from: Square,
        via: Option<Square>,
        to: Square,
    },
    /// The ball holder steps to an adjacent free square past the adjacent opponent.
    Dribble {
        from: Square,
        to: Square,
    },
    /// Try to take the ball from the adjacent opponent holding it.
    Challenge {
        from: Square,
        target: Square,
    },
    Shoot {
        from: Square,
        goal: Square,
    },
    /// `via` is the corner of a curved long shot (Long Experts only).
    LongShoot {
        from: Square,
        via: Option<Square>,
        goal: Square,
    },
    /// The fouled piece's direct shot over the barrier, first movement after the foul.
    FreeKick {
        from: Square,
        goal: Square,
    },
    /// The piece on `kicker` takes a penalty (after a foul in the area, or in a shoot-out).
    Penalty {
        kicker: Square,
    },
    /// A red card: the fouling team removes its piece on `at`.
    SendOff {
        at: Square,
    },
    EndTurn,
}

impl Action {
    /// MOVE and SPRINT satisfy the turn's required MOVE.
    pub(super) fn is_move(&self) -> bool {
        matches!(self, Action::Move { .. } | Action::Sprint { .. })
    }
}

/// What a movement led to.
pub(super) enum Resolution {
    Continue,
    /// The ball went in; the scorer is the piece that shot or kicked (a penalty kicker need
    /// not be the fouled piece that held the ball).
    Goal {
        scorer: u32,
    },
    /// A foul ended the turn and set up what follows it.
    Foul,
}

impl XFutebol {
    pub(super) fn play_actions(&self, seat: Seat) -> Vec<Action> {
        let must_move = self.movements_left == 1 && !self.moved;
        let mut actions = Vec::new();
        for piece in self.on_pitch(seat) {
            let from = piece.square().expect("on the pitch");
            self.moves_of(seat, from, &mut actions);
            if must_move {
                continue;
            }
            let holds = self.ball == Ball::Held(piece.id);
            if holds {
                self.passes_of(seat, from, &mut actions);
                self.dribbles_of(seat, from, &mut actions);
                self.shots_of(seat, from, &mut actions);
            } else if let Some(holder) = self.holder()
                && holder.seat != seat
                && let Some(target) = holder.square()
                && target.king_distance(from) == 1
            {
                actions.push(Action::Challenge { from, target });
            }
        }
        let may_end = self.moved && self.movements_left == 1;
        if may_end || actions.is_empty() {
            actions.push(Action::EndTurn);
        }
        actions
    }

    fn moves_of(&self, seat: Seat, from: Square, actions: &mut Vec<Action>) {
        let piece = self.piece_at(from).expect("a piece on `from`");
        let carries = self.ball == Ball::Held(piece.id);
        let reach = piece.reach();
        let barred = |to: Square| carries && is_goal_square(seat.opponent(), to);
        for (_, squares) in rays(seat, from, reach, 1) {
            for to in squares {
                match self.piece_at(to) {
                    Some(other) => {
                        if other.seat != seat {
                            actions.push(Action::Move { from, to });
                        }
                        break;
                    }
                    None if !barred(to) => actions.push(Action::Move { from, to }),
                    None => {}
                }
            }
        }
        for (_, squares) in rays(seat, from, reach, 2) {
            for to in squares {
                if self.piece_at(to).is_some() {
                    break;
                }
                if !barred(to) {
                    actions.push(Action::Sprint { from, to });
                }
            }
        }
    }

    fn passes_of(&self, seat: Seat, from: Square, actions: &mut Vec<Action>) {
        let piece = self.piece_at(from).expect("a piece on `from`");
        let reach = piece.reach();
        let target_ok = |to: Square| !is_goal_square(seat.opponent(), to);
        for (_, squares) in rays(seat, from, reach, 2) {
            for to in squares {
                match self.piece_at(to) {
                    // Team-mates break the line of sight; opponents may intercept.
                    Some(other) if other.seat == seat => {
                        actions.push(Action::Pass { from, to });
                        break;
                    }
                    Some(_) => {}
                    None if target_ok(to) => actions.push(Action::Pass { from, to }),
                    None => {}
                }
            }
        }
        if piece.role() != Role::LongExpert {
            return;
        }
        let long_reach = piece.long_reach();
        let long_range = long_reach.longest() * 3;
        for (_, squares) in rays(seat, from, long_reach, 3) {
            for (index, &corner) in squares.iter().enumerate() {
                if let Some(other) = self.piece_at(corner) {
                    if other.seat == seat {
                        actions.push(Action::LongPass {
                            from,
                            via: None,
                            to: corner,
                        });
                    }
                    break;
                }
                if target_ok(corner) {
                    actions.push(Action::LongPass {
                        from,
                        via: None,
                        to: corner,
                    });
                }
                let first_leg = index as u8 + 1;
                for second in KING_DIRECTIONS {
                    if !bends(from, corner, corner.offset(second.0, second.1)) {
                        continue;
                    }
                    let range = (long_reach.along(seat, second) * 3).min(long_range - first_leg);
                    for k in 1..=range as i8 {
                        let to = corner.offset(second.0 * k, second.1 * k);
                        if !on_board(to) {
                            break;
                        }
                        if let Some(other) = self.piece_at(to) {
                            if other.seat == seat {
                                actions.push(Action::LongPass {
                                    from,
                                    via: Some(corner),
                                    to,
                                });
                            }
                            break;
                        }
                        if target_ok(to) {
                            actions.push(Action::LongPass {
                                from,
                                via: Some(corner),
                                to,
                            });
                        }
                    }
                }
            }
        }
    }

    fn dribbles_of(&self, seat: Seat, from: Square, actions: &mut Vec<Action>) {
        if self.adjacent_opponents(seat, from).is_empty() {
            return;
        }
        for (df, dr) in KING_DIRECTIONS {
            let to = from.offset(df, dr);
            if on_board(to) && self.piece_at(to).is_none() && !is_goal_square(seat.opponent(), to) {
                actions.push(Action::Dribble { from, to });
            }
        }
    }

    pub(super) fn adjacent_opponents(&self, seat: Seat, square: Square) -> Vec<u32> {
        self.on_pitch(seat.opponent())
            .filter(|p| p.square().is_some_and(|s| s.king_distance(square) == 1))
            .map(|p| p.id)
            .collect()
    }

    /// Whether a team-mate of `seat` stands on any of `squares` (it blocks the ball).
    fn team_mate_on(&self, seat: Seat, squares: &[Square]) -> bool {
        squares
            .iter()
            .any(|s| self.piece_at(*s).is_some_and(|p| p.seat == seat))
    }

    fn shots_of(&self, seat: Seat, from: Square, actions: &mut Vec<Action>) {
        let piece = self.piece_at(from).expect("a piece on `from`");
        let defender = seat.opponent();
        let forward = piece.reach().forward;
        let distance = distance_to_goal(defender, from);
        let long_allowed = self.settings.long_shoot_for_all || piece.role() == Role::LongExpert;
        let open = |path: &[Square], goal: Square| {
            goal != from && !self.team_mate_on(seat, path) && !self.team_mate_on(seat, &[goal])
        };
        for goal in goal_squares(defender) {
            let path = line_between(from, goal);
            if !open(&path, goal) {
                continue;
            }
            if distance <= (forward * self.settings.shoot_range) as i8 {
                actions.push(Action::Shoot { from, goal });
                if let Some(SetPiece::FreeKick { kicker, .. }) = self.free_kick
                    && kicker == piece.id
                {
                    actions.push(Action::FreeKick { from, goal });
                }
            }
            if long_allowed && distance <= (forward * 3) as i8 {
                actions.push(Action::LongShoot {
                    from,
                    via: None,
                    goal,
                });
            }
        }
        if piece.role() != Role::LongExpert {
            return;
        }
        let long_range = i16::from(forward) * 3;
        for (_, squares) in rays(seat, from, piece.long_reach(), 3) {
            for (index, &corner) in squares.iter().enumerate() {
                if self.piece_at(corner).is_some() {
                    break;
                }
                for goal in goal_squares(defender) {
                    let total = index as i16 + 1 + i16::from(corner.king_distance(goal));
                    let second_leg = line_between(corner, goal);
                    if total <= long_range && bends(from, corner, goal) && open(&second_leg, goal) {
                        actions.push(Action::LongShoot {
                            from,
                            via: Some(corner),
                            goal,
                        });
                    }
                }
            }
        }
    }

    pub(super) fn apply_play(&mut self, seat: Seat, action: &Action, events: &mut Vec<Event>) {
        if *action == Action::EndTurn {
            self.end_turn(events);
            return;
        }
        // Counted before it resolves, so a foul can tell whether it fell after the period's
        // last movement (see `commit_foul`).
        self.movements_played += 1;
        let resolution = match *action {
            Action::Move { from, to } => self.apply_move(seat, from, to, events),
            Action::Sprint { from, to } => self.apply_sprint(seat, from, to, events),
            Action::Pass { from, to } => {
                let path = line_between(from, to);
                self.send_ball(from, to, None, &path, true, events);
                Resolution::Continue
            }
            Action::LongPass { from, via, to } => {
                self.send_ball(from, to, via, &[], false, events);
                Resolution::Continue
            }
            Action::Dribble { from, to } => self.apply_dribble(seat, from, to, events),
            Action::Challenge { from, target } => self.apply_challenge(from, target, events),
            Action::Shoot { from, goal } => self.shoot(from, goal, None, false, events),
            Action::LongShoot { from, via, goal } => self.shoot(from, goal, via, true, events),
            Action::FreeKick { from, goal } => self.take_free_kick(from, goal, events),
            _ => unreachable!("only play actions are legal in play"),
        };
        if matches!(resolution, Resolution::Foul) {
            // The foul already ended this turn and set up what follows.
            return;
        }
        self.movements_left -= 1;
        self.moved |= action.is_move();
        self.free_kick = None;
        self.after_movement(resolution, events);
    }

    fn apply_move(
        &mut self,
        seat: Seat,
        from: Square,
        to: Square,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let mover = self.piece_at(from).expect("legal move").id;
        if let Some(opponent) = self.piece_at(to).filter(|p| p.seat != seat) {
            let fouled = opponent.id;
            self.commit_foul(mover, fouled, to, events);
            return Resolution::Foul;
        }
        self.relocate(mover, from, to, false, events);
        Resolution::Continue
    }

    /// Moves a piece to a free square; it takes a loose ball lying there.
    fn relocate(
        &mut self,
        id: u32,
        from: Square,
        to: Square,
        sprint: bool,
        events: &mut Vec<Event>,
    ) {
        self.piece_mut(id).status = Status::OnPitch(to);
        events.push(Event::PieceMoved {
            piece: id,
            from,
            to,
            sprint,
        });
        if self.ball == Ball::Loose(to) {
            self.ball = Ball::Held(id);
            events.push(Event::BallTaken {
                piece: id,
                square: to,
            });
        }
    }

    fn apply_sprint(
        &mut self,
        seat: Seat,
        from: Square,
        to: Square,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let id = self.piece_at(from).expect("legal sprint").id;
        self.relocate(id, from, to, true, events);
        let count = &mut self.sprints[seat.index()];
        *count += 1;
        let count = *count;
        let free = count <= self.settings.free_sprints;
        events.push(Event::SprintUsed { seat, count, free });
        if !free {
            self.rest(id, to, events);
        }
        Resolution::Continue
    }

    /// Takes a piece off to recover; a ball it holds stays loose on its square.
    fn rest(&mut self, id: u32, square: Square, events: &mut Vec<Event>) {
        let own_turns = self.settings.sprint_rest_turns;
        self.piece_mut(id).status = Status::Resting {
            turns_left: own_turns,
            left_from: square,
        };
        events.push(Event::PieceRested {
            piece: id,
            own_turns,
        });
        if self.ball == Ball::Held(id) {
            self.ball = Ball::Loose(square);
            events.push(Event::BallLoose { square });
        }
    }

    /// Sends the ball from `from` to `to`: along `path` each opponent, nearest first, may
    /// intercept when `interceptable`; then a team-mate on `to` receives it, or it lies loose.
    fn send_ball(
        &mut self,
        from: Square,
        to: Square,
        via: Option<Square>,
        path: &[Square],
        interceptable: bool,
        events: &mut Vec<Event>,
    ) {
        let passer = self.piece_at(from).expect("a passer").id;
        let seat = self.piece(passer).seat;
        events.push(Event::BallPassed {
            piece: passer,
            from,
            to,
            via,
            long: !interceptable,
        });
        let receiver = self.piece_at(to).map(|p| p.id);
        if interceptable {
            let target = receiver.unwrap_or(passer);
            for square in path {
                let Some(interceptor) = self.piece_at(*square).filter(|p| p.seat != seat) else {
                    continue;
                };
                let interceptor = interceptor.id;
                if self.interception(interceptor, target, events) {
                    return;
                }
            }
        }
        match receiver {
            Some(id) => {
                self.ball = Ball::Held(id);
                events.push(Event::BallWon { piece: id });
            }
            None => {
                self.ball = Ball::Loose(to);
                events.push(Event::BallLoose { square: to });
            }
        }
    }

    fn apply_dribble(
        &mut self,
        seat: Seat,
        from: Square,
        to: Square,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let dribbler = self.piece_at(from).expect("legal dribble").id;
        let opponent = self.strongest_against_dribble(seat, from);
        match self.dribble_duel(dribbler, opponent, events) {
            std::cmp::Ordering::Greater => {
                self.piece_mut(dribbler).status = Status::OnPitch(to);
                events.push(Event::Dribbled {
                    piece: dribbler,
                    from,
                    to,
                });
            }
            std::cmp::Ordering::Equal => {}
            std::cmp::Ordering::Less => {
                self.ball = Ball::Held(opponent);
                events.push(Event::BallWon { piece: opponent });
            }
        }
        Resolution::Continue
    }

    fn apply_challenge(
        &mut self,
        from: Square,
        target: Square,
        events: &mut Vec<Event>,
    ) -> Resolution {
        let challenger = self.piece_at(from).expect("legal challenge").id;
        let holder = self.piece_at(target).expect("legal challenge").id;
        match self.challenge_duel(DuelKind::Challenge, challenger, holder, events) {
            std::cmp::Ordering::Greater => {
                self.ball = Ball::Held(challenger);
                events.push(Event::BallWon { piece: challenger });
                Resolution::Continue
            }
            std::cmp::Ordering::Equal => Resolution::Continue,
            std::cmp::Ordering::Less => {
                self.commit_foul(challenger, holder, target, events);
                Resolution::Foul
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::xfutebol::tests::{position_game, sq};
    use crate::xfutebol::{AWAY, HOME};

    #[test]
    fn moves_follow_the_pattern_and_are_blocked_by_any_piece() {
        // A home attacker on c8: 2 forward, 1 back, 1 sideways, no diagonal.
        let game = position_game("Ac8", "", "c8", "h");
        let moves: Vec<String> = game
            .legal_actions(HOME)
            .iter()
            .filter(|a| matches!(a, Action::Move { from, .. } if *from == sq("c8")))
            .map(ToString::to_string)
            .collect();
        let mut expected = vec!["c8-c9", "c8-c10", "c8-c7", "c8-b8", "c8-d8"];
        expected.sort();
        let mut moves_sorted = moves.clone();
        moves_sorted.sort();
        assert_eq!(moves_sorted, expected);
        let blocked = position_game("Ac8,Dc9", "", "c8", "h");
        let actions = blocked.legal_actions(HOME);
        assert!(!actions.contains(&Action::Move {
            from: sq("c8"),
            to: sq("c9")
        }));
        assert!(!actions.contains(&Action::Move {
            from: sq("c8"),
            to: sq("c10")
        }));
    }

    #[test]
    fn moving_onto_a_loose_ball_takes_it() {
        let mut game = position_game("Mc5", "", "c6", "h");
        let events = game
            .apply(
                HOME,
                &Action::Move {
                    from: sq("c5"),
                    to: sq("c6"),
                },
            )
            .unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e.event, Event::BallTaken { .. }))
        );
        assert_eq!(
            game.board(crate::Viewer::Spectator).ball.unwrap().holder,
            Some(game.piece_at(sq("c6")).unwrap().id)
        );
    }

    #[test]
    fn a_turn_needs_a_move_and_may_end_after_it() {
        let mut game = position_game("Mc5,Md5", "", "c5", "h");
        assert!(!game.legal_actions(HOME).contains(&Action::EndTurn));
        game.apply(
            HOME,
            &Action::Pass {
                from: sq("c5"),
                to: sq("d5"),
            },
        )
        .unwrap();
        let second = game.legal_actions(HOME);
        assert!(second.iter().all(Action::is_move), "{second:?}");
        let err = game
            .apply(
                HOME,
                &Action::Pass {
                    from: sq("d5"),
                    to: sq("c5"),
                },
            )
            .unwrap_err();
        assert!(err.message.contains("MOVE"), "{}", err.message);
        let mut moved = position_game("Mc5,Md5", "", "c5", "h");
        moved
            .apply(
                HOME,
                &Action::Move {
                    from: sq("d5"),
                    to: sq("d6"),
                },
            )
            .unwrap();
        assert!(moved.legal_actions(HOME).contains(&Action::EndTurn));
        moved.apply(HOME, &Action::EndTurn).unwrap();
        assert_eq!(moved.turn().to_act, vec![AWAY]);
    }

    #[test]
    fn passes_reach_double_range_and_team_mates_block_the_line() {
        let game = position_game("Ac4,Ac7", "", "c4", "h");
        let actions = game.legal_actions(HOME);
        let pass = |to| Action::Pass {
            from: sq("c4"),
            to: sq(to),
        };
        assert!(actions.contains(&pass("c7")));
        assert!(actions.contains(&pass("c6")));
        assert!(!actions.contains(&pass("c8")), "beyond the team-mate");
        assert!(!actions.contains(&pass("d5")), "attackers have no diagonal");
        assert!(actions.contains(&pass("a4")) && !actions.contains(&pass("c1")));
    }

    #[test]
    fn an_opponent_in_the_path_intercepts_when_it_wins_its_duel() {
        // Home midfielder passes c4 -> c6 past an away defender on c5: the defender's
        // 50+80+85 = 215 beats the passer's 70+65+75 = 210.
        let mut game = position_game("Mc4", "Dc5", "c4", "h");
        let events = game
            .apply(
                HOME,
                &Action::Pass {
                    from: sq("c4"),
                    to: sq("c6"),
                },
            )
            .unwrap();
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                kind: DuelKind::Interception,
                initiator_total: 215,
                opponent_total: 210,
                ..
            }
        )));
        assert_eq!(game.holder().unwrap().square(), Some(sq("c5")));
        // A dribbler receiving (85+55+85 = 225) beats the defender: the ball goes on.
        let mut game = position_game("Mc4,Rc6", "Dc5", "c4", "h");
        game.apply(
            HOME,
            &Action::Pass {
                from: sq("c4"),
                to: sq("c6"),
            },
        )
        .unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("c6")));
    }

    #[test]
    fn long_passes_need_a_long_expert_and_a_clear_line_and_cannot_be_intercepted() {
        let game = position_game("LMc4", "Dc6", "c4", "h");
        let actions = game.legal_actions(HOME);
        let straight = |to| Action::LongPass {
            from: sq("c4"),
            via: None,
            to: sq(to),
        };
        assert!(actions.contains(&straight("c5")));
        assert!(
            !actions.contains(&straight("c7")),
            "the opponent on c6 blocks"
        );
        let curved = |via, to| Action::LongPass {
            from: sq("c4"),
            via: Some(sq(via)),
            to: sq(to),
        };
        assert!(actions.contains(&curved("d4", "d6")));
        assert!(
            !actions.contains(&curved("c5", "c7")),
            "a curve must change direction"
        );
        let plain = position_game("Mc4", "", "c4", "h");
        assert!(
            !plain
                .legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::LongPass { .. }))
        );
    }

    #[test]
    fn a_midfield_long_expert_long_passes_three_squares_every_way() {
        // Its slot moves two squares sideways, yet the long pass's own section gives a
        // midfield Long Expert three squares in every direction it moves, sideways included.
        let game = position_game("LMc4", "", "c4", "h");
        let actions = game.legal_actions(HOME);
        let long = |via: Option<&str>, to| Action::LongPass {
            from: sq("c4"),
            via: via.map(sq),
            to: sq(to),
        };
        for to in ["f4", "a4", "c7", "c1"] {
            assert!(actions.contains(&long(None, to)), "{to}");
        }
        assert!(!actions.contains(&long(None, "g4")), "four sideways");
        assert!(actions.contains(&long(Some("d4"), "d6")), "1 + 2 squares");
        assert!(!actions.contains(&long(Some("e4"), "e6")), "2 + 2 squares");
        // Its plain pass keeps twice the move pattern: four squares sideways.
        assert!(actions.contains(&Action::Pass {
            from: sq("c4"),
            to: sq("g4")
        }));
        // Long Experts in the other slots reach three times their move pattern.
        let attacker = position_game("LAc4", "", "c4", "h");
        let actions = attacker.legal_actions(HOME);
        let long = |to| Action::LongPass {
            from: sq("c4"),
            via: None,
            to: sq(to),
        };
        assert!(actions.contains(&long("c10")) && actions.contains(&long("f4")));
        assert!(!actions.contains(&long("c11")) && !actions.contains(&long("g4")));
    }

    #[test]
    fn dribble_wins_moves_ties_stay_and_losses_give_the_ball_away() {
        // Dribbler 85+85 = 170 vs defender 50+85 = 135: success.
        let mut game = position_game("Rc4", "Dc5", "c4", "h");
        game.apply(
            HOME,
            &Action::Dribble {
                from: sq("c4"),
                to: sq("d5"),
            },
        )
        .unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("d5")));
        // Defender 50+60 = 110 vs midfielder 70+70 = 140: the midfielder takes the ball.
        let mut game = position_game("Dc4", "Mc5", "c4", "h");
        game.apply(
            HOME,
            &Action::Dribble {
                from: sq("c4"),
                to: sq("b4"),
            },
        )
        .unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("c5")));
        // Defender 50+60 = 110 against attacker 70+40 = 110: a tie keeps the ball in place.
        let mut game = position_game("Dc4", "Ac5", "c4", "h");
        let events = game
            .apply(
                HOME,
                &Action::Dribble {
                    from: sq("c4"),
                    to: sq("b4"),
                },
            )
            .unwrap();
        assert!(events.iter().any(|e| matches!(
            e.event,
            Event::Duel {
                outcome: crate::xfutebol::DuelOutcome::Tie,
                ..
            }
        )));
        assert_eq!(game.holder().unwrap().square(), Some(sq("c4")));
    }

    #[test]
    fn interceptors_duel_nearest_first_and_the_first_winner_takes_the_ball() {
        // Attacker passes c4 -> c7 (holder total 70+60+80 = 210). An away attacker on c5
        // (170) loses, the away defender behind it on c6 (215) wins.
        let pass = Action::Pass {
            from: sq("c4"),
            to: sq("c7"),
        };
        let mut game = position_game("Ac4", "Ac5,Dc6", "c4", "h");
        let events = game.apply(HOME, &pass).unwrap();
        let duels = events
            .iter()
            .filter(|e| matches!(e.event, Event::Duel { .. }))
            .count();
        assert_eq!(duels, 2);
        assert_eq!(game.holder().unwrap().square(), Some(sq("c6")));
        // Two winners: the nearer one takes it and the other never duels.
        let mut game = position_game("Ac4", "Dc5,Dc6", "c4", "h");
        game.apply(HOME, &pass).unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("c5")));
    }

    #[test]
    fn a_dribble_faces_the_strongest_adjacent_opponent() {
        // Home defender (50+60 = 110) next to an away attacker (70+40 = 110, a tie) and an
        // away defender (50+85 = 135): the defender is the one to beat, and it wins.
        let mut game = position_game("Dc4", "Ac5,Dd5", "c4", "h");
        game.apply(
            HOME,
            &Action::Dribble {
                from: sq("c4"),
                to: sq("b4"),
            },
        )
        .unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("d5")));
    }

    #[test]
    fn dribbling_needs_an_adjacent_opponent() {
        let game = position_game("Rc4", "Dc7", "c4", "h");
        assert!(
            !game
                .legal_actions(HOME)
                .iter()
                .any(|a| matches!(a, Action::Dribble { .. }))
        );
    }

    #[test]
    fn challenge_takes_the_ball_ties_do_nothing_and_failure_is_a_foul() {
        // Away defender (215) challenges a home attacker (70+60+80 = 210): wins.
        let mut game = position_game("Ac8", "Dc9", "c8", "a");
        game.apply(
            AWAY,
            &Action::Challenge {
                from: sq("c9"),
                target: sq("c8"),
            },
        )
        .unwrap();
        assert_eq!(game.holder().unwrap().square(), Some(sq("c9")));
        // Away midfielder (205) vs home dribbler (225): foul.
        let mut game = position_game("Rc8", "Mc9", "c8", "a");
        let events = game
            .apply(
                AWAY,
                &Action::Challenge {
                    from: sq("c9"),
                    target: sq("c8"),
                },
            )
            .unwrap();
        assert!(events.iter().any(|e| matches!(e.event, Event::Foul { .. })));
        assert_eq!(game.fouls, [0, 1]);
        // Midfielder vs midfielder: 205 vs 210, foul; attacker vs keeper... a tie:
        // keeper 50+60+90 = 200 vs goaler 60+70+70 = 200.
        let mut game = position_game("Gc8", "Kc9", "c8", "a");
        let events = game
            .apply(
                AWAY,
                &Action::Challenge {
                    from: sq("c9"),
                    target: sq("c8"),
                },
            )
            .unwrap();
        assert!(
            events
                .iter()
                .all(|e| !matches!(e.event, Event::Foul { .. }))
        );
        assert_eq!(game.holder().unwrap().square(), Some(sq("c8")));
    }

    #[test]
    fn moving_onto_an_opponent_is_a_foul_and_the_move_does_not_happen() {
        let mut game = position_game("Ac8", "Dc9", "c8", "h");
        let events = game
            .apply(
                HOME,
                &Action::Move {
                    from: sq("c8"),
                    to: sq("c9"),
                },
            )
            .unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e.event, Event::Foul { seat: HOME, .. }))
        );
        assert!(game.piece_at(sq("c8")).is_some());
        assert_eq!(
            game.holder().unwrap().square(),
            Some(sq("c9")),
            "the ball marks the foul"
        );
        assert_eq!(game.turn().to_act, vec![AWAY]);
    }

    #[test]
    fn sprint_doubles_the_range_and_extra_sprints_rest_the_piece() {
        let mut game = position_game("Ac4,Ma1", "", "a1", "h");
        let actions = game.legal_actions(HOME);
        assert!(actions.contains(&Action::Sprint {
            from: sq("c4"),
            to: sq("c8")
        }));
        assert!(!actions.contains(&Action::Sprint {
            from: sq("c4"),
            to: sq("c9")
        }));
        game.sprints = [3, 0];
        game.apply(
            HOME,
            &Action::Sprint {
                from: sq("c4"),
                to: sq("c8"),
            },
        )
        .unwrap();
        assert!(
            game.piece_at(sq("c8")).is_none(),
            "the fourth sprint rests the piece"
        );
        let id = game.pieces.iter().find(|p| p.start == sq("c4")).unwrap().id;
        // Out for three own turns, back at the start of the fourth.
        for _ in 0..3 {
            game.end_turn(&mut Vec::new());
            game.end_turn(&mut Vec::new());
            assert!(game.piece(id).square().is_none());
        }
        let mut events = Vec::new();
        game.end_turn(&mut events);
        game.end_turn(&mut events);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::PieceReturned { .. }))
        );
        assert_eq!(game.piece(id).square(), Some(sq("c8")));
    }
}
