//! Downs, first downs, drives, scoring and the periods of a match.

use super::field::{self, AWAY, DRIVE_START_RANK, FIRST_DOWN_GAIN, HOME};
use super::movement::DownEnd;
use super::{DownResult, DriveStart, Event, Events, Gridiron, Phase};
use crate::game::{Emitted, Outcome, Seat};

pub(crate) const TOUCHDOWN_POINTS: u32 = 7;
pub(crate) const SAFETY_POINTS: u32 = 2;

impl Gridiron {
    pub(crate) fn end_down(&mut self, end: DownEnd, events: &mut Events) {
        if self.fake.take().is_some() {
            events.push(Emitted::public(Event::BallRevealed {
                holder: self.holder,
            }));
        }
        let offense = self.offense;
        let rank = self.piece(self.holder).loc.square.rank;
        let ended = |result, ball_rank| Emitted::public(Event::DownEnded { result, ball_rank });
        match end {
            DownEnd::Touchdown => {
                self.score(offense, TOUCHDOWN_POINTS, DownResult::Touchdown, events);
                events.push(ended(DownResult::Touchdown, rank));
                self.change_possession(DriveStart::Touchdown, None, events);
            }
            DownEnd::Interception => {
                events.push(ended(DownResult::Interception, rank));
                self.change_possession(DriveStart::Interception, None, events);
            }
            DownEnd::Incomplete => {
                events.push(ended(DownResult::Incomplete, self.los));
                self.advance(self.los, events);
            }
            DownEnd::Tackle { .. } | DownEnd::TurnLimit => {
                if field::own_end_zone(offense, rank) {
                    self.score(
                        offense.opponent(),
                        SAFETY_POINTS,
                        DownResult::Safety,
                        events,
                    );
                    events.push(ended(DownResult::Safety, rank));
                    self.change_possession(DriveStart::Safety, None, events);
                    return;
                }
                let result = match end {
                    DownEnd::TurnLimit => DownResult::TurnLimit,
                    _ if field::gain(offense, self.los, rank) < 0 => DownResult::Sack,
                    _ => DownResult::Tackle,
                };
                events.push(ended(result, rank));
                self.advance(rank, events);
            }
        }
    }

    fn score(&mut self, seat: Seat, points: u32, reason: DownResult, events: &mut Events) {
        self.scores[seat.index()] += points;
        events.push(Emitted::public(Event::Scored {
            seat,
            points,
            reason,
        }));
    }

    /// The ball is spotted on `rank`: a first down, the next down, or a turnover on downs.
    fn advance(&mut self, rank: i8, events: &mut Events) {
        if field::gain(self.offense, self.line, rank) >= 0 {
            self.los = rank;
            self.line = first_down_line(self.offense, rank);
            self.down = 1;
            self.reset_series();
            events.push(Emitted::public(Event::FirstDown {
                line_of_scrimmage: self.los,
                first_down_line: self.line,
            }));
            return self.begin_down(events);
        }
        self.los = rank;
        self.down += 1;
        if self.down > 4 {
            events.push(Emitted::public(Event::TurnoverOnDowns { spot: rank }));
            return self.change_possession(DriveStart::Downs, Some(rank), events);
        }
        self.begin_down(events);
    }

    fn begin_down(&mut self, events: &mut Events) {
        events.push(Emitted::public(Event::DownStarted {
            offense: self.offense,
            down: self.down,
            line_of_scrimmage: self.los,
            first_down_line: self.line,
        }));
        self.set_formation(events);
        if self.down == 4 {
            self.phase = Phase::FourthDown;
        }
    }

    /// Once-per-series abilities come back at every first down and every new drive.
    fn reset_series(&mut self) {
        for piece in &mut self.pieces {
            piece.used.clear();
        }
    }

    pub(crate) fn period_drives(&self) -> u8 {
        if self.period <= 2 {
            2 * self.settings.possessions_per_half
        } else {
            2
        }
    }

    /// The ball goes to the other team, at `spot` or on its own rank 8, unless the period's
    /// possessions are used up.
    pub(crate) fn change_possession(
        &mut self,
        how: DriveStart,
        spot: Option<i8>,
        events: &mut Events,
    ) {
        if self.possessions.iter().sum::<u8>() >= self.period_drives() {
            return self.end_period(events);
        }
        let team = self.offense.opponent();
        let los = spot.unwrap_or(field::rank_for(team, DRIVE_START_RANK));
        self.start_drive(team, los, how, events);
    }

    fn start_drive(&mut self, team: Seat, los: i8, how: DriveStart, events: &mut Events) {
        self.offense = team;
        self.possessions[team.index()] += 1;
        self.down = 1;
        self.los = los;
        self.line = first_down_line(team, los);
        self.reset_series();
        events.push(Emitted::public(Event::DriveStarted {
            offense: team,
            line_of_scrimmage: los,
            how,
            possession: self.possessions[team.index()],
        }));
        self.begin_down(events);
    }

    /// Period 1 and 2 are the halves (the toss winner receives first in the first half, the
    /// loser in the second); later periods are overtime, alternating who receives first.
    pub(crate) fn start_period(&mut self, period: u8, events: &mut Events) {
        self.period = period;
        self.possessions = [0, 0];
        let first = if period % 2 == 1 {
            self.coin_winner
        } else {
            self.coin_winner.opponent()
        };
        events.push(Emitted::public(Event::PeriodStarted {
            period,
            first_offense: first,
        }));
        self.start_drive(
            first,
            field::rank_for(first, DRIVE_START_RANK),
            DriveStart::Kickoff,
            events,
        );
    }

    fn end_period(&mut self, events: &mut Events) {
        events.push(Emitted::public(Event::PeriodEnded {
            period: self.period,
        }));
        let tied = self.scores[0] == self.scores[1];
        let overtime_left = self.period < 2 + self.settings.overtime_periods;
        if self.period == 1 || (tied && overtime_left) {
            return self.start_period(self.period + 1, events);
        }
        self.finish(events);
    }

    fn finish(&mut self, events: &mut Events) {
        let outcome = self.final_outcome();
        events.push(Emitted::public(Event::GameEnded {
            winner: outcome.winner,
            scores: outcome.scores.clone(),
        }));
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.plans = [Vec::new(), Vec::new()];
        self.committed = [false, false];
    }

    /// How the match ends with the current score and period.
    pub(crate) fn final_outcome(&self) -> Outcome {
        let winner = match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Some(HOME),
            std::cmp::Ordering::Less => Some(AWAY),
            std::cmp::Ordering::Equal => None,
        };
        let reason = match (winner, self.period > 2) {
            (None, _) => "tied after regulation and every overtime period".to_owned(),
            (Some(_), false) => "highest score at the end of regulation".to_owned(),
            (Some(_), true) => "highest score after overtime".to_owned(),
        };
        Outcome {
            winner,
            scores: self.scores.to_vec(),
            reason,
        }
    }
}

/// Four ranks beyond the line of scrimmage, but never past the goal line.
pub(crate) fn first_down_line(offense: Seat, los: i8) -> i8 {
    let goal_line = field::rank_for(offense, field::RANKS - field::END_ZONE_DEPTH + 1);
    let target = los + FIRST_DOWN_GAIN * field::forward(offense);
    if field::gain(offense, goal_line, target) > 0 {
        goal_line
    } else {
        target
    }
}
