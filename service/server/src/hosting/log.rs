//! A match's numbered events: the source of truth every view, stream and response is cut from.
//!
//! `seq` starts at 1 and has no gaps. Each event keeps who may see it; a viewer who may not gets
//! a `HiddenEvent` with the same `seq`, so every viewer counts the same.

use std::sync::Arc;
use std::time::SystemTime;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Viewer, Visibility};

/// One event as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    pub seq: u64,
    /// The match version after this event.
    pub version: u64,
    pub time: SystemTime,
    pub visibility: Visibility,
    /// The name of the seat that owns a private event (for the hidden stand-in).
    pub owner_name: String,
    pub kind: pb::match_event::Kind,
}

impl LoggedEvent {
    /// The event as `viewer` may see it.
    pub fn view_for(&self, viewer: Viewer) -> pb::MatchEvent {
        let kind = if self.visibility.visible_to(viewer) {
            self.kind.clone()
        } else {
            pb::match_event::Kind::Hidden(pb::HiddenEvent {
                seat: self.owner_name.clone(),
            })
        };
        pb::MatchEvent {
            seq: self.seq,
            time: Some(self.time.into()),
            version: self.version,
            kind: Some(kind),
        }
    }

    /// The event with nothing redacted, for replays of finished matches.
    pub fn unredacted(&self) -> pb::MatchEvent {
        pb::MatchEvent {
            seq: self.seq,
            time: Some(self.time.into()),
            version: self.version,
            kind: Some(self.kind.clone()),
        }
    }

    /// Equal in everything but the time it happened: what replaying the same inputs must
    /// reproduce.
    pub fn same_as(&self, other: &LoggedEvent) -> bool {
        (
            self.seq,
            self.version,
            self.visibility,
            &self.owner_name,
            &self.kind,
        ) == (
            other.seq,
            other.version,
            other.visibility,
            &other.owner_name,
            &other.kind,
        )
    }

    pub fn ends_match(&self) -> bool {
        matches!(self.kind, pb::match_event::Kind::MatchEnded(_))
    }
}

/// The ordered, gap-free log of one match.
#[derive(Debug, Default)]
pub struct EventLog {
    events: Vec<Arc<LoggedEvent>>,
}

impl EventLog {
    /// A log of stored events, which must be numbered from 1 without gaps.
    pub fn restore(events: Vec<LoggedEvent>) -> Result<Self, String> {
        for (index, event) in events.iter().enumerate() {
            if event.seq != index as u64 + 1 {
                return Err(format!(
                    "event #{} has seq {}: the stored log has a gap",
                    index + 1,
                    event.seq
                ));
            }
        }
        Ok(Self {
            events: events.into_iter().map(Arc::new).collect(),
        })
    }

    /// Appends an event that happened at `time`, numbering it; `seats` names the owner of a
    /// private event.
    pub fn append(
        &mut self,
        time: SystemTime,
        version: u64,
        visibility: Visibility,
        seats: &[&'static str],
        kind: pb::match_event::Kind,
    ) -> Arc<LoggedEvent> {
        let owner_name = match visibility {
            Visibility::Public => String::new(),
            Visibility::Seat(Seat(index)) => seats[usize::from(index)].to_owned(),
        };
        let event = Arc::new(LoggedEvent {
            seq: self.last_seq() + 1,
            version,
            time,
            visibility,
            owner_name,
            kind,
        });
        self.events.push(Arc::clone(&event));
        event
    }

    pub fn last_seq(&self) -> u64 {
        self.events.len() as u64
    }

    /// Every event with `seq > after_seq`, in order.
    pub fn after(&self, after_seq: u64) -> &[Arc<LoggedEvent>] {
        let start =
            usize::try_from(after_seq).map_or(self.events.len(), |s| s.min(self.events.len()));
        &self.events[start..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEATS: [&str; 2] = ["first", "second"];

    fn joined(seat: &str) -> pb::match_event::Kind {
        pb::match_event::Kind::SeatJoined(pb::SeatJoined {
            seat: seat.to_owned(),
            player_name: "bot".to_owned(),
        })
    }

    #[test]
    fn numbering_starts_at_one_without_gaps() {
        let mut log = EventLog::default();
        for _ in 0..5 {
            log.append(
                SystemTime::now(),
                0,
                Visibility::Public,
                &SEATS,
                joined("first"),
            );
        }
        let seqs: Vec<u64> = log.after(0).iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [1, 2, 3, 4, 5]);
        assert_eq!(
            log.after(3).iter().map(|e| e.seq).collect::<Vec<_>>(),
            [4, 5]
        );
        assert!(log.after(5).is_empty());
        assert!(log.after(99).is_empty());
    }

    #[test]
    fn private_events_are_hidden_from_everyone_but_their_seat() {
        let mut log = EventLog::default();
        log.append(
            SystemTime::now(),
            0,
            Visibility::Public,
            &SEATS,
            joined("first"),
        );
        let private = log.append(
            SystemTime::now(),
            1,
            Visibility::Seat(Seat(1)),
            &SEATS,
            joined("second"),
        );

        let own = private.view_for(Viewer::Seat(Seat(1)));
        assert_eq!(own.kind, Some(joined("second")));

        let hidden = pb::match_event::Kind::Hidden(pb::HiddenEvent {
            seat: "second".into(),
        });
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
            let seen = private.view_for(viewer);
            assert_eq!(seen.seq, 2, "same numbering for every viewer");
            assert_eq!(seen.version, 1);
            assert_eq!(seen.kind, Some(hidden.clone()));
        }
        let public = &log.after(0)[0];
        assert_eq!(
            public.view_for(Viewer::Spectator).kind,
            Some(joined("first"))
        );
    }
}
