//! Time control: the hosting options that time a match's seats ([`TimeControl`],
//! [`TimeoutPolicy`]) and the running clocks ([`Clocks`]).
//!
//! Every time a match uses comes from [`now`], which follows tokio's clock: under tokio's paused
//! time (tests) the wall-clock time advances with it, so timeouts can be tested without waiting.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::Seat;

/// The longest any configured duration may be: a day per move or bank is already generous,
/// and the bound keeps deadline arithmetic far from overflow.
pub const LONGEST: Duration = Duration::from_secs(24 * 60 * 60);

/// How long a seat must be disconnected before its opponent may claim victory, when the match
/// does not say.
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(60);

/// The wall-clock time now, as tokio's clock has moved since the process first asked.
pub fn now() -> SystemTime {
    static BASE: OnceLock<(SystemTime, std::time::Instant)> = OnceLock::new();
    let (wall, instant) = BASE.get_or_init(|| (SystemTime::now(), std::time::Instant::now()));
    let now = tokio::time::Instant::now().into_std();
    // A paused tokio clock (tests) may stand before the moment the base was taken; counting
    // back from it, rather than stopping at the base, keeps every difference between two
    // readings exact.
    match now.checked_duration_since(*instant) {
        Some(since) => *wall + since,
        None => *wall - instant.duration_since(now),
    }
}

/// The tokio instant at which [`now`] reaches `time` (now, when `time` has passed).
pub fn instant_at(time: SystemTime) -> tokio::time::Instant {
    tokio::time::Instant::now() + time.duration_since(now()).unwrap_or_default()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    #[default]
    None,
    PerMove {
        per_move: Duration,
        first_move: Duration,
    },
    Fischer {
        base: Duration,
        increment: Duration,
    },
    PerMoveWithBank {
        per_move: Duration,
        bank: Duration,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutPolicy {
    Forfeit,
    /// The server plays default actions; the `forfeit_after`th consecutive timeout forfeits
    /// (0: never).
    PlayDefault {
        forfeit_after: u32,
    },
}

/// Hosting options: how the server times and ends a match, beside the game's own options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hosting {
    pub time_control: TimeControl,
    pub timeout_policy: TimeoutPolicy,
    pub abandon_after: Duration,
}

impl Default for Hosting {
    fn default() -> Self {
        Self {
            time_control: TimeControl::None,
            timeout_policy: TimeoutPolicy::Forfeit,
            abandon_after: DEFAULT_ABANDON_AFTER,
        }
    }
}

fn to_proto_duration(value: Duration) -> Option<prost_types::Duration> {
    prost_types::Duration::try_from(value).ok()
}

/// A seat's running clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Running {
    started: SystemTime,
    deadline: SystemTime,
}

/// The seats' clocks under one time control.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    /// Per seat: the Fischer time or the bank left, as of its last completed turn.
    reserve: Vec<Duration>,
    /// Per seat: turns completed, so the first turn can have its own time.
    completed: Vec<u32>,
    running: Vec<Option<Running>>,
}

impl Clocks {
    pub fn new(control: TimeControl, seats: usize) -> Self {
        let reserve = match control {
            TimeControl::None | TimeControl::PerMove { .. } => Duration::ZERO,
            TimeControl::Fischer { base, .. } => base,
            TimeControl::PerMoveWithBank { bank, .. } => bank,
        };
        Self {
            control,
            reserve: vec![reserve; seats],
            completed: vec![0; seats],
            running: vec![None; seats],
        }
    }

    pub fn is_timed(&self) -> bool {
        self.control != TimeControl::None
    }

    pub fn is_running(&self, seat: Seat) -> bool {
        self.running[seat.index()].is_some()
    }

    /// The time the seat gets for its next turn.
    fn allowance(&self, seat: Seat) -> Duration {
        let index = seat.index();
        match self.control {
            TimeControl::None => Duration::ZERO,
            TimeControl::PerMove {
                per_move,
                first_move,
            } => {
                if self.completed[index] == 0 {
                    first_move
                } else {
                    per_move
                }
            }
            TimeControl::Fischer { .. } => self.reserve[index],
            TimeControl::PerMoveWithBank { per_move, .. } => per_move + self.reserve[index],
        }
    }

    /// Starts the seat's clock for a turn.
    pub fn start(&mut self, seat: Seat, now: SystemTime) {
        if !self.is_timed() {
            return;
        }
        self.running[seat.index()] = Some(Running {
            started: now,
            deadline: now + self.allowance(seat),
        });
    }

    /// Stops the seat's clock at the end of its turn, charging the time it used.
    pub fn stop(&mut self, seat: Seat, now: SystemTime) {
        let index = seat.index();
        let Some(running) = self.running[index].take() else {
            return;
        };
        let used = now.duration_since(running.started).unwrap_or_default();
        self.completed[index] += 1;
        match self.control {
            TimeControl::None | TimeControl::PerMove { .. } => {}
            TimeControl::Fischer { increment, .. } => {
                self.reserve[index] = self.reserve[index].saturating_sub(used) + increment;
            }
            TimeControl::PerMoveWithBank { per_move, .. } => {
                self.reserve[index] =
                    self.reserve[index].saturating_sub(used.saturating_sub(per_move));
            }
        }
    }

    /// Stops every clock without charging: the match is over.
    pub fn stop_all(&mut self) {
        self.running.iter_mut().for_each(|r| *r = None);
    }

    /// The seat whose time runs out first, and when.
    pub fn next_deadline(&self) -> Option<(Seat, SystemTime)> {
        self.running
            .iter()
            .enumerate()
            .filter_map(|(index, r)| r.map(|r| (Seat(index as u8), r.deadline)))
            .min_by_key(|(_, deadline)| *deadline)
    }

    /// Every seat's clock as of `now`, for a TurnStarted event; empty without a clock.
    pub fn readings(&self, now: SystemTime) -> Vec<ClockReading> {
        if !self.is_timed() {
            return Vec::new();
        }
        self.running
            .iter()
            .enumerate()
            .map(|(index, running)| ClockReading {
                remaining: match running {
                    Some(r) => r.deadline.duration_since(now).unwrap_or_default(),
                    None => self.allowance(Seat(index as u8)),
                },
                deadline: running.map(|r| r.deadline),
            })
            .collect()
    }
}

/// One seat's clock at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockReading {
    /// The time the seat has for this turn if it is to act (bank or Fischer time included),
    /// else what it has left.
    pub remaining: Duration,
    /// When its time runs out; set for the seats to act.
    pub deadline: Option<SystemTime>,
}

impl ClockReading {
    pub fn to_proto(&self, seat: &str) -> pb::SeatClock {
        pb::SeatClock {
            seat: seat.to_owned(),
            remaining: to_proto_duration(self.remaining),
            deadline: self.deadline.map(Into::into),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000 + secs)
    }

    /// A paused clock starts when its runtime does; real time then passes before the first
    /// reading (here a sleep, in a server test the store opening).
    #[tokio::test(start_paused = true)]
    async fn readings_differ_by_exactly_the_time_that_passed() {
        std::thread::sleep(Duration::from_millis(20));
        let first = now();
        tokio::time::advance(10 * SECOND).await;
        let second = now();
        assert_eq!(second.duration_since(first).unwrap(), 10 * SECOND);
    }

    #[test]
    fn per_move_gives_the_first_move_longer() {
        let mut clocks = Clocks::new(
            TimeControl::PerMove {
                per_move: 5 * SECOND,
                first_move: 30 * SECOND,
            },
            2,
        );
        clocks.start(Seat(0), at(0));
        assert_eq!(clocks.next_deadline(), Some((Seat(0), at(30))));
        clocks.stop(Seat(0), at(29));
        clocks.start(Seat(0), at(40));
        assert_eq!(clocks.next_deadline(), Some((Seat(0), at(45))));
    }

    #[test]
    fn fischer_charges_the_time_used_and_adds_the_increment() {
        let mut clocks = Clocks::new(
            TimeControl::Fischer {
                base: 60 * SECOND,
                increment: 2 * SECOND,
            },
            2,
        );
        clocks.start(Seat(1), at(0));
        clocks.stop(Seat(1), at(10));
        clocks.start(Seat(1), at(100));
        assert_eq!(clocks.next_deadline(), Some((Seat(1), at(152))));
        let shown = clocks.readings(at(102));
        assert_eq!(shown[1].remaining, 50 * SECOND);
        assert_eq!(shown[1].deadline, Some(at(152)));
        assert_eq!(shown[0].remaining, 60 * SECOND);
        assert_eq!(shown[0].deadline, None);
        assert_eq!(
            shown[1].to_proto("second"),
            pb::SeatClock {
                seat: "second".into(),
                remaining: to_proto_duration(50 * SECOND),
                deadline: Some(at(152).into()),
            }
        );
    }

    #[test]
    fn the_bank_pays_only_for_time_beyond_the_move_time() {
        let mut clocks = Clocks::new(
            TimeControl::PerMoveWithBank {
                per_move: 10 * SECOND,
                bank: 20 * SECOND,
            },
            2,
        );
        clocks.start(Seat(0), at(0));
        assert_eq!(clocks.next_deadline(), Some((Seat(0), at(30))));
        clocks.stop(Seat(0), at(8));
        clocks.start(Seat(0), at(10));
        clocks.stop(Seat(0), at(25));
        clocks.start(Seat(0), at(30));
        assert_eq!(clocks.next_deadline(), Some((Seat(0), at(55))));
    }
}
