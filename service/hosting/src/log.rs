//! A match's numbered events: the source of truth every view, stream and response is cut from.
//!
//! The log numbers its events `1, 2, 3, ...` in the order they happened, and each event counts
//! one step further in the match's version when a step (an action, a resignation, ...) starts
//! with it. That whole numbering is what the store keeps and what the replay of a finished match
//! shows. While a match is on, every viewer gets its own numbering instead, of the events it may
//! see: a seat's private events and the steps only it can see (the hidden choices it drafts in a
//! simultaneous phase) count in that seat's `seq` and `version` only. So the opponent and the
//! spectators see exactly the same numbers, whatever and however many hidden choices a seat
//! made; they learn only what the rules make public, such as the seat committing.

use std::sync::Arc;
use std::time::SystemTime;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Viewer, Visibility};

use super::event::MatchEvent;
use super::setup::MatchSetup;
use pitchmate_games::HostedGame;

/// The seats a numbering tells apart; every Pitchmate game has two.
const SEATS: usize = 2;

/// Where an event stands in each viewer's numbering: counts up to and including the event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Numbers {
    /// Events everyone may see.
    public_events: u64,
    /// Steps everyone may see.
    public_steps: u64,
    /// Per seat: events only that seat may see.
    own_events: [u64; SEATS],
    /// Per seat: steps only that seat may see.
    own_steps: [u64; SEATS],
}

impl Numbers {
    fn seq_for(&self, viewer: Viewer) -> u64 {
        match viewer {
            Viewer::Spectator => self.public_events,
            Viewer::Seat(seat) => self.public_events + self.own_events[seat.index()],
        }
    }

    fn version_for(&self, viewer: Viewer) -> u64 {
        match viewer {
            Viewer::Spectator => self.public_steps,
            Viewer::Seat(seat) => self.public_steps + self.own_steps[seat.index()],
        }
    }

    /// The numbers after `event`, which follows the event these numbers belong to, at whole
    /// version `previous_version`.
    fn after(mut self, previous_version: u64, event: &LoggedEvent) -> Self {
        let new_steps = event.version.saturating_sub(previous_version);
        match (event.hidden_step, event.visibility) {
            (true, Visibility::Seat(seat)) => self.own_steps[seat.index()] += new_steps,
            _ => self.public_steps += new_steps,
        }
        match event.visibility {
            Visibility::Public => self.public_events += 1,
            Visibility::Seat(seat) => self.own_events[seat.index()] += 1,
        }
        self
    }
}

/// One event as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    /// The event's place in the whole log.
    pub seq: u64,
    /// The match's whole version after this event: every step counted.
    pub version: u64,
    pub time: SystemTime,
    pub visibility: Visibility,
    /// The name of the seat that owns a private event.
    pub owner_name: String,
    /// Part of a step only the owner may see (a hidden choice), private like all its events.
    pub hidden_step: bool,
    /// What happened, in the hosting core's terms; `None` only in a log read for a replay from
    /// rows stored before the store kept events in its own format.
    pub event: Option<MatchEvent>,
    /// How it looks on the wire, worked out once from `event`.
    pub kind: pb::match_event::Kind,
    numbers: Numbers,
}

impl LoggedEvent {
    /// The event as `viewer` sees it, numbered for it; `None` when it may not see it.
    pub fn view_for(&self, viewer: Viewer) -> Option<pb::MatchEvent> {
        self.visibility.visible_to(viewer).then(|| pb::MatchEvent {
            seq: self.numbers.seq_for(viewer),
            time: Some(self.time.into()),
            version: self.numbers.version_for(viewer),
            kind: Some(self.kind.clone()),
        })
    }

    /// The event in the whole numbering, nothing left out: for replays of finished matches.
    pub fn unredacted(&self) -> pb::MatchEvent {
        pb::MatchEvent {
            seq: self.seq,
            time: Some(self.time.into()),
            version: self.version,
            kind: Some(self.kind.clone()),
        }
    }

    /// Equal in the envelope a rebuild must reproduce: place, version, visibility and owner;
    /// not the time it happened, nor whether it was hidden (matches stored before hidden steps
    /// existed say not).
    pub fn same_place(&self, other: &KeptEvent) -> bool {
        (self.seq, self.version, self.visibility, &self.owner_name)
            == (
                other.seq,
                other.version,
                other.visibility,
                &other.owner_name,
            )
    }

    pub fn ends_match(&self) -> bool {
        matches!(self.kind, pb::match_event::Kind::MatchEnded(_))
    }
}

/// What the log is given to append or restore: an event before the log has numbered it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewEvent {
    pub seq: u64,
    pub version: u64,
    pub time: SystemTime,
    pub visibility: Visibility,
    pub owner_name: String,
    pub hidden_step: bool,
    pub event: Option<MatchEvent>,
    pub kind: pb::match_event::Kind,
}

/// An event as the store kept it.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptEvent {
    pub seq: u64,
    pub version: u64,
    pub time: SystemTime,
    pub visibility: Visibility,
    pub owner_name: String,
    pub hidden_step: bool,
    pub content: Kept,
}

/// What the store kept of an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Kept {
    /// The event itself (storage format 4 on).
    Event(MatchEvent),
    /// Only how it looked on the wire when it was stored: rows written before the store kept
    /// events in its own format.
    Wire(pb::match_event::Kind),
}

impl KeptEvent {
    /// The event ready for a log, its wire form worked out now where the store kept the event
    /// itself.
    pub fn into_new(self, setup: &MatchSetup, game: &dyn HostedGame) -> Result<NewEvent, String> {
        let (event, kind) = match self.content {
            Kept::Event(event) => {
                let kind = event
                    .to_wire(setup, game)
                    .map_err(|e| format!("event {}: {e}", self.seq))?;
                (Some(event), kind)
            }
            Kept::Wire(kind) => (None, kind),
        };
        Ok(NewEvent {
            seq: self.seq,
            version: self.version,
            time: self.time,
            visibility: self.visibility,
            owner_name: self.owner_name,
            hidden_step: self.hidden_step,
            event,
            kind,
        })
    }
}

/// The ordered, gap-free log of one match. A live match holds only its newest events (see
/// [`EventLog::forget_older`]); the store has them all, and [`EventLog::restore`] numbers them
/// again for a reader that needs older ones.
#[derive(Debug, Default)]
pub struct EventLog {
    /// The newest events, in order.
    events: Vec<Arc<LoggedEvent>>,
    /// How many events came before the first one held.
    forgotten: u64,
    /// The numbers and whole version of the last event no longer held.
    base: Numbers,
    base_version: u64,
}

impl EventLog {
    /// A log of stored events, which must be numbered from 1 without gaps.
    pub fn restore(events: Vec<NewEvent>) -> Result<Self, String> {
        let mut log = Self::default();
        for (index, event) in events.into_iter().enumerate() {
            if event.seq != index as u64 + 1 {
                return Err(format!(
                    "event #{} has seq {}: the stored log has a gap",
                    index + 1,
                    event.seq
                ));
            }
            log.push(event);
        }
        Ok(log)
    }

    /// Appends an event that happened at `time`, at whole version `version`, numbering it;
    /// `seats` names the owner of a private event. `hidden_step`: the event belongs to a step
    /// only its (private) owner may see. `kind` is the event's wire form.
    #[allow(clippy::too_many_arguments)]
    pub fn append(
        &mut self,
        time: SystemTime,
        version: u64,
        visibility: Visibility,
        hidden_step: bool,
        seats: &[&'static str],
        event: MatchEvent,
        kind: pb::match_event::Kind,
    ) {
        let owner_name = match visibility {
            Visibility::Public => String::new(),
            Visibility::Seat(Seat(index)) => seats[usize::from(index)].to_owned(),
        };
        self.push(NewEvent {
            seq: self.last_seq() + 1,
            version,
            time,
            visibility,
            owner_name,
            hidden_step: hidden_step && visibility != Visibility::Public,
            event: Some(event),
            kind,
        });
    }

    fn push(&mut self, event: NewEvent) {
        let (numbers, version) = self.newest_numbers();
        let mut logged = LoggedEvent {
            seq: event.seq,
            version: event.version,
            time: event.time,
            visibility: event.visibility,
            owner_name: event.owner_name,
            hidden_step: event.hidden_step,
            event: event.event,
            kind: event.kind,
            numbers: Numbers::default(),
        };
        logged.numbers = numbers.after(version, &logged);
        self.events.push(Arc::new(logged));
    }

    /// The numbers and whole version of the newest event.
    fn newest_numbers(&self) -> (Numbers, u64) {
        self.events
            .last()
            .map_or((self.base, self.base_version), |last| {
                (last.numbers, last.version)
            })
    }

    /// Lets go of all but the newest `keep` events, which the store must already hold. It
    /// works in batches, so a log holds between `keep` and `2 * keep` events and forgetting
    /// costs nothing per event appended. Returns whether it let go of any.
    pub fn forget_older(&mut self, keep: usize) -> bool {
        if self.events.len() < keep.max(1) * 2 {
            return false;
        }
        let forget = self.events.len() - keep;
        let last_forgotten = &self.events[forget - 1];
        self.base = last_forgotten.numbers;
        self.base_version = last_forgotten.version;
        self.forgotten += forget as u64;
        self.events.drain(..forget);
        true
    }

    /// The newest event's place in the whole log.
    pub fn last_seq(&self) -> u64 {
        self.forgotten + self.events.len() as u64
    }

    /// Every event after the first `after_seq` of the whole log, in order; `None` when some of
    /// them are no longer held (the store has them).
    pub fn after(&self, after_seq: u64) -> Option<&[Arc<LoggedEvent>]> {
        let start = after_seq.checked_sub(self.forgotten)?;
        let start = usize::try_from(start).map_or(self.events.len(), |s| s.min(self.events.len()));
        Some(&self.events[start..])
    }

    /// The events appended after `seq` of the whole log, which are held until the log is next
    /// told to forget (see [`EventLog::forget_older`]).
    pub fn appended_after(&self, seq: u64) -> &[Arc<LoggedEvent>] {
        debug_assert!(
            seq >= self.forgotten,
            "events appended since were forgotten"
        );
        self.after(seq).unwrap_or(&self.events)
    }

    /// How many events of the whole log come before the first one `viewer` has not seen, when
    /// it has seen its events up to its own `seq`; `None` when that place is among the events
    /// no longer held.
    pub fn position_after(&self, viewer: Viewer, seq: u64) -> Option<u64> {
        if self.forgotten > 0 && self.base.seq_for(viewer) > seq {
            return None;
        }
        let held = self
            .events
            .partition_point(|event| event.numbers.seq_for(viewer) <= seq);
        Some(self.forgotten + held as u64)
    }

    fn newest(&self) -> Numbers {
        self.newest_numbers().0
    }

    /// The newest event's number as `viewer` counts.
    pub fn last_seq_for(&self, viewer: Viewer) -> u64 {
        self.newest().seq_for(viewer)
    }

    /// The match's version as `viewer` counts.
    pub fn version_for(&self, viewer: Viewer) -> u64 {
        self.newest().version_for(viewer)
    }

    /// How many events came before the first one held.
    pub fn forgotten(&self) -> u64 {
        self.forgotten
    }

    /// The held events, oldest first.
    pub fn held(&self) -> &[Arc<LoggedEvent>] {
        &self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 2] = ["first", "second"];
    const FIRST: Viewer = Viewer::Seat(Seat(0));
    const SECOND: Viewer = Viewer::Seat(Seat(1));

    fn joined(seat: &str) -> pb::match_event::Kind {
        pb::match_event::Kind::SeatJoined(pb::SeatJoined {
            seat: seat.to_owned(),
            player_name: "bot".to_owned(),
        })
    }

    fn seqs(log: &EventLog, viewer: Viewer) -> Vec<(u64, u64)> {
        log.after(0)
            .unwrap()
            .iter()
            .filter_map(|e| e.view_for(viewer))
            .map(|e| (e.seq, e.version))
            .collect()
    }

    #[test]
    fn numbering_starts_at_one_without_gaps() {
        let mut log = EventLog::default();
        for _ in 0..5 {
            let now = SystemTime::now();
            log.append(
                now,
                0,
                Visibility::Public,
                false,
                &NAMES,
                MatchEvent::Started,
                joined("first"),
            );
        }
        let seqs: Vec<u64> = log.after(0).unwrap().iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [1, 2, 3, 4, 5]);
        assert_eq!(
            log.after(3)
                .unwrap()
                .iter()
                .map(|e| e.seq)
                .collect::<Vec<_>>(),
            [4, 5]
        );
        assert!(log.after(5).unwrap().is_empty());
        assert!(log.after(99).unwrap().is_empty());
    }

    /// A public step, then two hidden steps of the second seat, then a public step that has a
    /// private event of the first seat.
    fn with_hidden_steps() -> EventLog {
        let mut log = EventLog::default();
        let now = SystemTime::now();
        let private = Visibility::Seat(Seat(1));
        log.append(
            now,
            1,
            Visibility::Public,
            false,
            &NAMES,
            MatchEvent::Started,
            joined("a"),
        );
        log.append(
            now,
            1,
            Visibility::Public,
            false,
            &NAMES,
            MatchEvent::Started,
            joined("b"),
        );
        log.append(
            now,
            2,
            private,
            true,
            &NAMES,
            MatchEvent::Started,
            joined("c"),
        );
        log.append(
            now,
            2,
            private,
            true,
            &NAMES,
            MatchEvent::Started,
            joined("d"),
        );
        log.append(
            now,
            3,
            private,
            true,
            &NAMES,
            MatchEvent::Started,
            joined("e"),
        );
        log.append(
            now,
            4,
            Visibility::Public,
            false,
            &NAMES,
            MatchEvent::Started,
            joined("f"),
        );
        log.append(
            now,
            4,
            Visibility::Seat(Seat(0)),
            false,
            &NAMES,
            MatchEvent::Started,
            joined("g"),
        );
        log
    }

    #[test]
    fn each_viewer_counts_only_what_it_may_see() {
        let log = with_hidden_steps();
        assert_eq!(seqs(&log, Viewer::Spectator), [(1, 1), (2, 1), (3, 2)]);
        assert_eq!(seqs(&log, FIRST), [(1, 1), (2, 1), (3, 2), (4, 2)]);
        assert_eq!(
            seqs(&log, SECOND),
            [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 4)]
        );
        assert_eq!(
            [Viewer::Spectator, FIRST, SECOND].map(|v| (log.last_seq_for(v), log.version_for(v))),
            [(3, 2), (4, 2), (6, 4)]
        );
        // Resuming after a viewer's own seq starts at the first event it has not seen.
        assert_eq!(
            log.position_after(Viewer::Spectator, 2),
            Some(5),
            "past what it never sees"
        );
        assert_eq!(log.position_after(FIRST, 3), Some(6));
        assert_eq!(log.position_after(SECOND, 5), Some(5));
        assert_eq!(log.position_after(SECOND, 6), Some(7));
        // The whole numbering shows everything.
        let whole: Vec<(u64, u64)> = log
            .held()
            .iter()
            .map(|e| e.unredacted())
            .map(|e| (e.seq, e.version))
            .collect();
        assert_eq!(
            whole,
            [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 4), (7, 4)]
        );
    }

    #[test]
    fn hidden_steps_leave_the_others_numbers_as_they_were() {
        let mut plain = EventLog::default();
        let now = SystemTime::now();
        plain.append(
            now,
            1,
            Visibility::Public,
            false,
            &NAMES,
            MatchEvent::Started,
            joined("a"),
        );
        plain.append(
            now,
            1,
            Visibility::Public,
            false,
            &NAMES,
            MatchEvent::Started,
            joined("b"),
        );
        plain.append(
            now,
            2,
            Visibility::Public,
            false,
            &NAMES,
            MatchEvent::Started,
            joined("f"),
        );
        plain.append(
            now,
            2,
            Visibility::Seat(Seat(0)),
            false,
            &NAMES,
            MatchEvent::Started,
            joined("g"),
        );
        let hidden = with_hidden_steps();
        for viewer in [Viewer::Spectator, FIRST] {
            let strip = |log: &EventLog| -> Vec<(u64, u64, Option<pb::match_event::Kind>)> {
                log.after(0)
                    .unwrap()
                    .iter()
                    .filter_map(|e| e.view_for(viewer))
                    .map(|e| (e.seq, e.version, e.kind))
                    .collect()
            };
            assert_eq!(strip(&plain), strip(&hidden), "{viewer:?}");
        }
    }

    #[test]
    fn a_restored_log_numbers_as_the_original() {
        let log = with_hidden_steps();
        let stored: Vec<NewEvent> = log
            .held()
            .iter()
            .map(|e| NewEvent {
                seq: e.seq,
                version: e.version,
                time: e.time,
                visibility: e.visibility,
                owner_name: e.owner_name.clone(),
                hidden_step: e.hidden_step,
                event: e.event.clone(),
                kind: e.kind.clone(),
            })
            .collect();
        let restored = EventLog::restore(stored.clone()).unwrap();
        for viewer in [Viewer::Spectator, FIRST, SECOND] {
            assert_eq!(seqs(&restored, viewer), seqs(&log, viewer));
        }
        let mut gap = stored;
        gap.remove(2);
        assert!(EventLog::restore(gap).is_err());
    }

    #[test]
    fn a_log_that_forgets_older_events_numbers_the_rest_as_before() {
        let mut whole = with_hidden_steps();
        let mut tail = with_hidden_steps();
        assert!(!tail.forget_older(4));
        assert_eq!(
            tail.held().len(),
            7,
            "fewer than twice `keep`: nothing forgotten"
        );
        assert!(tail.forget_older(2));
        let held: Vec<u64> = tail.held().iter().map(|e| e.seq).collect();
        assert_eq!(held, [6, 7]);
        assert_eq!(tail.last_seq(), 7);
        assert!(tail.after(4).is_none(), "event 5 is no longer held");
        assert_eq!(tail.after(5).unwrap().len(), 2);
        assert!(tail.after(7).unwrap().is_empty());
        for viewer in [Viewer::Spectator, FIRST, SECOND] {
            for seq in 0..=whole.last_seq_for(viewer) {
                let position = whole.position_after(viewer, seq).unwrap();
                assert_eq!(
                    tail.position_after(viewer, seq),
                    (position >= 5).then_some(position),
                    "{viewer:?} after its seq {seq}"
                );
            }
        }
        // Appending after forgetting numbers every viewer's events as the whole log does.
        for log in [&mut whole, &mut tail] {
            log.append(
                SystemTime::now(),
                5,
                Visibility::Seat(Seat(1)),
                true,
                &NAMES,
                MatchEvent::Started,
                joined("h"),
            );
            log.append(
                SystemTime::now(),
                6,
                Visibility::Public,
                false,
                &NAMES,
                MatchEvent::Started,
                joined("i"),
            );
        }
        for viewer in [Viewer::Spectator, FIRST, SECOND] {
            let views = |log: &EventLog| -> Vec<(u64, u64)> {
                log.after(5)
                    .unwrap()
                    .iter()
                    .filter_map(|e| e.view_for(viewer))
                    .map(|e| (e.seq, e.version))
                    .collect()
            };
            assert_eq!(views(&tail), views(&whole), "{viewer:?}");
            assert_eq!(tail.version_for(viewer), whole.version_for(viewer));
            assert_eq!(tail.last_seq_for(viewer), whole.last_seq_for(viewer));
        }
    }
}
