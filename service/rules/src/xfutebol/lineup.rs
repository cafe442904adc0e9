//! Pieces, their attributes, formations and the lineup phase.

use crate::game::{RuleError, Seat};
use crate::geometry::Square;

use super::geometry::{Reach, in_goal_area, in_own_half, is_goal_square, own_square};

/// What a piece is on the pitch: its slot's role, or the special role it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Keeper,
    Defender,
    Midfielder,
    Attacker,
    Dribbler,
    Goaler,
    LongExpert,
}

/// The three special roles; each team names two pieces of each.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
pub enum Special {
    Dribbler,
    Goaler,
    LongExpert,
}

pub const SPECIALS: [Special; 3] = [Special::Dribbler, Special::Goaler, Special::LongExpert];
pub const PER_SPECIAL: usize = 2;

impl Special {
    pub fn role(self) -> Role {
        match self {
            Special::Dribbler => Role::Dribbler,
            Special::Goaler => Role::Goaler,
            Special::LongExpert => Role::LongExpert,
        }
    }
}

/// The five attributes every duel adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attributes {
    pub speed: u32,
    pub skill: u32,
    pub strength: u32,
    pub goal: u32,
    pub defense: u32,
}

impl Attributes {
    pub const fn new(speed: u32, skill: u32, strength: u32, goal: u32, defense: u32) -> Self {
        Self {
            speed,
            skill,
            strength,
            goal,
            defense,
        }
    }

    pub fn as_array(self) -> [u32; 5] {
        [
            self.speed,
            self.skill,
            self.strength,
            self.goal,
            self.defense,
        ]
    }

    pub fn from_array(values: [u32; 5]) -> Self {
        Self::new(values[0], values[1], values[2], values[3], values[4])
    }

    /// The values shifted by a per-piece offset (individual attributes), never below 1.
    pub fn shifted(self, offsets: [i32; 5]) -> Self {
        let mut values = self.as_array();
        for (value, offset) in values.iter_mut().zip(offsets) {
            *value = (*value as i32 + offset).max(1) as u32;
        }
        Self::from_array(values)
    }
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::Keeper,
        Role::Defender,
        Role::Midfielder,
        Role::Attacker,
        Role::Dribbler,
        Role::Goaler,
        Role::LongExpert,
    ];

    /// The attribute table of the rules (speed, skill, strength, goal, defense).
    pub fn attributes(self) -> Attributes {
        match self {
            Role::Attacker => Attributes::new(70, 80, 60, 90, 40),
            Role::Defender => Attributes::new(50, 60, 80, 40, 85),
            Role::Midfielder => Attributes::new(70, 75, 65, 75, 70),
            Role::Keeper => Attributes::new(50, 70, 60, 50, 90),
            Role::Dribbler => Attributes::new(85, 85, 55, 80, 45),
            Role::Goaler => Attributes::new(60, 70, 70, 85, 60),
            Role::LongExpert => Attributes::new(75, 80, 70, 85, 50),
        }
    }

    /// The letter of the notation.
    pub fn symbol(self) -> char {
        match self {
            Role::Keeper => 'K',
            Role::Defender => 'D',
            Role::Midfielder => 'M',
            Role::Attacker => 'A',
            Role::Dribbler => 'R',
            Role::Goaler => 'G',
            Role::LongExpert => 'L',
        }
    }

    pub fn from_symbol(symbol: char) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.symbol() == symbol)
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Keeper => "keeper",
            Role::Defender => "defender",
            Role::Midfielder => "midfielder",
            Role::Attacker => "attacker",
            Role::Dribbler => "dribbler",
            Role::Goaler => "goaler",
            Role::LongExpert => "long_expert",
        }
    }

    /// Base movement pattern (forward / backward / sideways / diagonal).
    fn own_reach(self) -> Reach {
        let (forward, backward, sideways, diagonal) = match self {
            Role::Keeper | Role::Defender => (1, 1, 1, 1),
            Role::Attacker | Role::Dribbler | Role::Goaler => (2, 1, 1, 0),
            Role::Midfielder => (1, 1, 2, 0),
            // A Long Expert moves as the slot it fills; `Piece::reach` handles that.
            Role::LongExpert => (1, 1, 1, 1),
        };
        Reach {
            forward,
            backward,
            sideways,
            diagonal,
        }
    }
}

/// One of the two formation tables.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Formation {
    FourThreeThree,
    FiveThreeTwo,
}

impl Formation {
    pub const ALL: [Formation; 2] = [Formation::FourThreeThree, Formation::FiveThreeTwo];

    pub fn name(self) -> &'static str {
        match self {
            Formation::FourThreeThree => "4-3-3",
            Formation::FiveThreeTwo => "5-3-2",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Shirt number, slot role, file and own rank of every piece, keeper first.
    pub fn slots(self) -> [(u8, Role, i8, i8); 11] {
        use Role::*;
        match self {
            Formation::FourThreeThree => [
                (1, Keeper, 4, 1),
                (2, Defender, 3, 2),
                (3, Defender, 6, 2),
                (4, Defender, 4, 3),
                (5, Defender, 7, 3),
                (6, Midfielder, 5, 4),
                (8, Midfielder, 2, 5),
                (10, Midfielder, 8, 5),
                (7, Attacker, 4, 7),
                (9, Attacker, 6, 7),
                (11, Attacker, 5, 8),
            ],
            Formation::FiveThreeTwo => [
                (1, Keeper, 4, 1),
                (2, Defender, 2, 2),
                (3, Defender, 3, 3),
                (4, Defender, 6, 3),
                (5, Defender, 7, 2),
                (6, Defender, 5, 2),
                (8, Midfielder, 4, 4),
                (10, Midfielder, 5, 5),
                (7, Midfielder, 6, 6),
                (9, Attacker, 3, 7),
                (11, Attacker, 8, 7),
            ],
        }
    }

    /// The specials of the default lineup, by shirt number.
    pub fn default_specials(self) -> [(u8, Special); 6] {
        use Special::*;
        match self {
            Formation::FourThreeThree => [
                (4, LongExpert),
                (6, LongExpert),
                (8, Dribbler),
                (10, Dribbler),
                (7, Goaler),
                (9, Goaler),
            ],
            Formation::FiveThreeTwo => [
                (6, LongExpert),
                (8, LongExpert),
                (10, Dribbler),
                (7, Dribbler),
                (9, Goaler),
                (11, Goaler),
            ],
        }
    }
}

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    OnPitch(Square),
    /// Recovering from a sprint beyond the free ones: back after this many more own turns.
    Resting {
        turns_left: u32,
        left_from: Square,
    },
    SentOff,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Stable for the match: home 1-11, away 12-22 (11 + shirt number).
    pub id: u32,
    pub seat: Seat,
    pub number: u8,
    /// The formation slot's role: keeper, defender, midfielder or attacker.
    pub slot: Role,
    pub special: Option<Special>,
    pub attributes: Attributes,
    pub status: Status,
    /// Where the piece lines up; kick-offs put it back here.
    pub start: Square,
}

impl Piece {
    pub fn role(&self) -> Role {
        self.special.map_or(self.slot, Special::role)
    }

    pub fn square(&self) -> Option<Square> {
        match self.status {
            Status::OnPitch(square) => Some(square),
            _ => None,
        }
    }

    /// Dribblers and Goalers move like attackers; a Long Expert keeps its slot's movement.
    pub fn reach(&self) -> Reach {
        match self.role() {
            Role::LongExpert => self.slot.own_reach(),
            role => role.own_reach(),
        }
    }

    /// The pattern that three times gives a long pass or a curve's first leg. It is the move
    /// pattern, except that a Long Expert in a midfielder's slot reaches one square sideways,
    /// not two: the long pass's own section gives that Long Expert three squares every way.
    pub fn long_reach(&self) -> Reach {
        let reach = self.reach();
        if self.role() == Role::LongExpert && self.slot == Role::Midfielder {
            Reach {
                sideways: 1,
                ..reach
            }
        } else {
            reach
        }
    }
}

pub fn piece_id(seat: Seat, number: u8) -> u32 {
    u32::from(seat.0) * 11 + u32::from(number)
}

/// The pieces of a formation on their table squares, without specials.
pub fn formation_pieces(seat: Seat, formation: Formation, offsets: &[[i32; 5]]) -> Vec<Piece> {
    formation
        .slots()
        .iter()
        .map(|&(number, slot, file, rank)| {
            let id = piece_id(seat, number);
            let square = own_square(seat, file, rank);
            Piece {
                id,
                seat,
                number,
                slot,
                special: None,
                attributes: slot.attributes().shifted(offsets[id as usize - 1]),
                status: Status::OnPitch(square),
                start: square,
            }
        })
        .collect()
}

/// Whether a piece may line up on `square`: its own half; the keeper inside its goal area;
/// outfield pieces off the own goal squares, which belong to the keeper.
pub fn legal_lineup_square(seat: Seat, slot: Role, square: Square) -> bool {
    if slot == Role::Keeper {
        in_goal_area(seat, square)
    } else {
        in_own_half(seat, square) && !is_goal_square(seat, square)
    }
}

/// How far a seat got with its lineup.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineupProgress {
    pub formation: Option<Formation>,
    /// Pieces already moved off their table square (each may move once).
    pub placed: Vec<u32>,
    pub confirmed: bool,
}

/// Checks that a team's specials are complete: two of each.
pub fn specials_complete(pieces: &[Piece], seat: Seat) -> bool {
    SPECIALS
        .iter()
        .all(|s| special_count(pieces, seat, *s) == PER_SPECIAL)
}

pub fn special_count(pieces: &[Piece], seat: Seat, special: Special) -> usize {
    pieces
        .iter()
        .filter(|p| p.seat == seat && p.special == Some(special))
        .count()
}

/// Refuses a custom team that could not come from a lineup: 11 pieces, one keeper, two of each
/// special, all on legal lineup squares.
pub fn check_custom_team(pieces: &[Piece], seat: Seat) -> Result<(), RuleError> {
    let team: Vec<&Piece> = pieces.iter().filter(|p| p.seat == seat).collect();
    let name = if seat.0 == 0 { "home" } else { "away" };
    if team.len() != 11 {
        return Err(RuleError::invalid_position(format!(
            "{name} has {} pieces; a team has 11",
            team.len()
        )));
    }
    if team.iter().filter(|p| p.slot == Role::Keeper).count() != 1 {
        return Err(RuleError::invalid_position(format!(
            "{name} needs exactly one keeper (K)"
        )));
    }
    if !specials_complete(pieces, seat) {
        return Err(RuleError::invalid_position(format!(
            "{name} needs exactly two Dribblers (R), two Goalers (G) and two Long Experts (L)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xfutebol::geometry::in_own_half;

    #[test]
    fn attribute_table_is_the_rules_table() {
        assert_eq!(Role::Attacker.attributes().as_array(), [70, 80, 60, 90, 40]);
        assert_eq!(Role::Defender.attributes().as_array(), [50, 60, 80, 40, 85]);
        assert_eq!(
            Role::Midfielder.attributes().as_array(),
            [70, 75, 65, 75, 70]
        );
        assert_eq!(Role::Keeper.attributes().as_array(), [50, 70, 60, 50, 90]);
        assert_eq!(Role::Dribbler.attributes().as_array(), [85, 85, 55, 80, 45]);
        assert_eq!(Role::Goaler.attributes().as_array(), [60, 70, 70, 85, 60]);
        assert_eq!(
            Role::LongExpert.attributes().as_array(),
            [75, 80, 70, 85, 50]
        );
    }

    #[test]
    fn formations_follow_the_tables_and_stay_in_the_own_half() {
        let offsets = vec![[0; 5]; 22];
        for seat in [Seat(0), Seat(1)] {
            for formation in Formation::ALL {
                let pieces = formation_pieces(seat, formation, &offsets);
                let mut squares: Vec<Square> = pieces.iter().map(|p| p.start).collect();
                squares.sort();
                squares.dedup();
                assert_eq!(squares.len(), 11);
                assert!(pieces.iter().all(|p| in_own_half(seat, p.start)));
                assert!(
                    pieces
                        .iter()
                        .all(|p| legal_lineup_square(seat, p.slot, p.start))
                );
            }
        }
        let home = formation_pieces(Seat(0), Formation::FourThreeThree, &offsets);
        let eleven = home.iter().find(|p| p.number == 11).unwrap();
        assert_eq!(
            (eleven.slot, eleven.start.to_string()),
            (Role::Attacker, "e8".into())
        );
        let away = formation_pieces(Seat(1), Formation::FiveThreeTwo, &offsets);
        let two = away.iter().find(|p| p.number == 2).unwrap();
        assert_eq!((two.id, two.start.to_string()), (13, "b15".into()));
        let defenders = away.iter().filter(|p| p.slot == Role::Defender).count();
        assert_eq!(defenders, 5);
    }

    #[test]
    fn specials_move_as_the_text_says() {
        let offsets = vec![[0; 5]; 22];
        let mut pieces = formation_pieces(Seat(0), Formation::FourThreeThree, &offsets);
        let defender = pieces.iter_mut().find(|p| p.number == 4).unwrap();
        defender.special = Some(Special::LongExpert);
        assert_eq!(defender.role(), Role::LongExpert);
        assert_eq!(defender.reach(), Role::Defender.own_reach());
        defender.special = Some(Special::Dribbler);
        assert_eq!(defender.reach(), Role::Attacker.own_reach());
        let midfielder = pieces.iter_mut().find(|p| p.number == 6).unwrap();
        midfielder.special = Some(Special::LongExpert);
        assert_eq!(midfielder.reach().sideways, 2);
    }

    #[test]
    fn individual_offsets_shift_values_but_never_below_one() {
        let shifted = Role::Attacker.attributes().shifted([5, -5, 0, -100, 3]);
        assert_eq!(shifted.as_array(), [75, 75, 60, 1, 43]);
    }
}

mod phase {
    //! The lineup phase: home lines up, then away; a coin toss then picks the kick-off.

    use crate::game::Seat;
    use crate::xfutebol::actions::Action;
    use crate::xfutebol::events::Event;
    use crate::xfutebol::geometry::all_squares;
    use crate::xfutebol::{HOME, XFutebol};

    use super::{
        Formation, PER_SPECIAL, Role, SPECIALS, formation_pieces, legal_lineup_square,
        special_count, specials_complete,
    };

    impl XFutebol {
        pub(in crate::xfutebol) fn lineup_actions(&self, seat: Seat) -> Vec<Action> {
            let progress = &self.lineups[seat.index()];
            if progress.formation.is_none() {
                let mut actions = vec![Action::DefaultLineup];
                actions.extend(Formation::ALL.map(Action::Formation));
                return actions;
            }
            let mut actions = Vec::new();
            for piece in self.on_pitch(seat) {
                let at = piece.square().expect("on the pitch");
                if piece.slot != Role::Keeper && piece.special.is_none() {
                    for special in SPECIALS {
                        if special_count(&self.pieces, seat, special) < PER_SPECIAL {
                            actions.push(Action::AssignSpecial { at, special });
                        }
                    }
                }
                if !progress.placed.contains(&piece.id) {
                    actions.extend(
                        all_squares()
                            .filter(|to| {
                                legal_lineup_square(seat, piece.slot, *to)
                                    && self.piece_at(*to).is_none()
                            })
                            .map(|to| Action::Place { from: at, to }),
                    );
                }
            }
            if specials_complete(&self.pieces, seat) {
                actions.push(Action::ConfirmLineup);
            }
            actions
        }

        pub(in crate::xfutebol) fn apply_lineup(
            &mut self,
            seat: Seat,
            action: &Action,
            events: &mut Vec<Event>,
        ) {
            match *action {
                Action::DefaultLineup => {
                    let formation = Formation::FourThreeThree;
                    self.line_up(seat, formation, events);
                    for (number, special) in formation.default_specials() {
                        let id = super::piece_id(seat, number);
                        self.make_special(id, special, events);
                    }
                    self.confirm_lineup(seat, events);
                }
                Action::Formation(formation) => self.line_up(seat, formation, events),
                Action::AssignSpecial { at, special } => {
                    let id = self.piece_at(at).expect("legal assignment").id;
                    self.make_special(id, special, events);
                }
                Action::Place { from, to } => {
                    let id = self.piece_at(from).expect("legal placement").id;
                    let piece = self.piece_mut(id);
                    piece.status = super::Status::OnPitch(to);
                    piece.start = to;
                    self.lineups[seat.index()].placed.push(id);
                    events.push(Event::PiecePlaced {
                        piece: id,
                        from,
                        to,
                    });
                }
                Action::ConfirmLineup => self.confirm_lineup(seat, events),
                _ => unreachable!("only lineup actions are legal during the lineup"),
            }
        }

        fn line_up(&mut self, seat: Seat, formation: Formation, events: &mut Vec<Event>) {
            self.pieces
                .extend(formation_pieces(seat, formation, &self.offsets));
            self.lineups[seat.index()].formation = Some(formation);
            events.push(Event::FormationChosen { seat, formation });
        }

        fn make_special(&mut self, id: u32, special: super::Special, events: &mut Vec<Event>) {
            let offsets = self.offsets[id as usize - 1];
            let piece = self.piece_mut(id);
            piece.special = Some(special);
            piece.attributes = special.role().attributes().shifted(offsets);
            events.push(Event::SpecialAssigned { piece: id, special });
        }

        fn confirm_lineup(&mut self, seat: Seat, events: &mut Vec<Event>) {
            self.lineups[seat.index()].confirmed = true;
            events.push(Event::LineupConfirmed { seat });
            if seat == HOME {
                self.to_act = seat.opponent();
            } else {
                self.toss_and_kick_off(events);
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use crate::game::Game;
        use crate::xfutebol::tests::{new_game, sq};
        use crate::xfutebol::{AWAY, Action, Formation, HOME, Role, Special};

        #[test]
        fn the_default_lineup_is_one_action_and_both_sides_then_kick_off() {
            let mut game = new_game(&[], &[]);
            assert_eq!(game.turn().phase, "lineup");
            assert_eq!(game.legal_actions(AWAY), vec![]);
            game.apply(HOME, &Action::DefaultLineup).unwrap();
            assert_eq!(game.turn().to_act, vec![AWAY]);
            game.apply(AWAY, &Action::DefaultLineup).unwrap();
            assert_eq!(game.turn().phase, "play");
            let details = game.details(crate::Viewer::Spectator);
            let home: Vec<_> = details.pieces.iter().filter(|p| p.seat == HOME).collect();
            assert_eq!(home.len(), 11);
            for role in [Role::Dribbler, Role::Goaler, Role::LongExpert] {
                assert_eq!(home.iter().filter(|p| p.role == role).count(), 2);
            }
            assert_eq!(home.iter().filter(|p| p.role == Role::Keeper).count(), 1);
            let ball = game.board(crate::Viewer::Spectator).ball.unwrap();
            let kicker = details.kicked_off_first.unwrap();
            assert_eq!(
                ball.square,
                Some(crate::xfutebol::geometry::kick_off_square(kicker))
            );
            assert_eq!(game.turn().to_act, vec![kicker]);
        }

        #[test]
        fn a_custom_lineup_needs_two_of_each_special_and_legal_squares() {
            let mut game = new_game(&[], &[]);
            game.apply(HOME, &Action::Formation(Formation::FiveThreeTwo))
                .unwrap();
            assert!(!game.legal_actions(HOME).contains(&Action::ConfirmLineup));
            let legal = game.legal_actions(HOME);
            assert!(
                !legal.contains(&Action::Place {
                    from: sq("b2"),
                    to: sq("b9")
                }),
                "own half only"
            );
            assert!(
                !legal.contains(&Action::Place {
                    from: sq("b2"),
                    to: sq("e1")
                }),
                "keeper's goal square"
            );
            assert!(
                !legal.contains(&Action::Place {
                    from: sq("d1"),
                    to: sq("d3")
                }),
                "keeper stays in the goal area"
            );
            assert!(legal.contains(&Action::Place {
                from: sq("d1"),
                to: sq("c1")
            }));
            assert!(!legal.contains(&Action::AssignSpecial {
                at: sq("d1"),
                special: Special::Goaler
            }));
            game.apply(
                HOME,
                &Action::Place {
                    from: sq("b2"),
                    to: sq("a8"),
                },
            )
            .unwrap();
            assert!(
                !game
                    .legal_actions(HOME)
                    .iter()
                    .any(|a| matches!(a, Action::Place { from, .. } if *from == sq("a8"))),
                "once per piece"
            );
            for (at, special) in [
                ("a8", Special::Dribbler),
                ("c3", Special::Dribbler),
                ("f3", Special::Goaler),
                ("g2", Special::Goaler),
                ("e2", Special::LongExpert),
            ] {
                game.apply(
                    HOME,
                    &Action::AssignSpecial {
                        at: sq(at),
                        special,
                    },
                )
                .unwrap();
            }
            assert!(
                !game.legal_actions(HOME).contains(&Action::AssignSpecial {
                    at: sq("d4"),
                    special: Special::Dribbler
                }),
                "two Dribblers already"
            );
            game.apply(
                HOME,
                &Action::AssignSpecial {
                    at: sq("d4"),
                    special: Special::LongExpert,
                },
            )
            .unwrap();
            game.apply(HOME, &Action::ConfirmLineup).unwrap();
            let a8 = game.piece_at(sq("a8")).unwrap();
            assert_eq!(
                (a8.role(), a8.slot, a8.start),
                (Role::Dribbler, Role::Defender, sq("a8"))
            );
            assert_eq!(a8.attributes, Role::Dribbler.attributes());
        }

        #[test]
        fn individual_attributes_differ_per_piece_and_replay_from_the_seed() {
            let game = |seed| {
                let mut g = crate::xfutebol::tests::new_game_seeded(
                    &[("attribute_variation", 10)],
                    &[],
                    seed,
                );
                g.apply(HOME, &Action::DefaultLineup).unwrap();
                g.apply(AWAY, &Action::DefaultLineup).unwrap();
                g
            };
            let a = game(1);
            assert_eq!(a, game(1));
            let defenders: Vec<_> = a
                .pieces
                .iter()
                .filter(|p| p.role() == Role::Defender)
                .map(|p| p.attributes)
                .collect();
            assert!(defenders.windows(2).any(|w| w[0] != w[1]));
            for p in &a.pieces {
                let base = p.role().attributes().as_array();
                for (v, b) in p.attributes.as_array().iter().zip(base) {
                    assert!(v.abs_diff(b) <= 10);
                }
            }
        }
    }
}
