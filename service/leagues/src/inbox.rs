//! Each bot's inbox: what the server has to tell a bot, numbered per bot from 1 with no gap
//! (`seq`) and kept in the store, so a bot resumes after the last item it saw, across
//! disconnects and restarts, and misses nothing and sees nothing twice. Items are written by
//! whatever causes them, in the same transaction (see `follower`).
//!
//! A reader follows its inbox as readers of the lifecycle feed follow theirs (the match core's
//! `ordered`): stored items after its seq, then live ones, in order, a gap filled from the store.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};
use tokio_stream::Stream;

use pitchmate_hosting::lifecycle::EndReason;
use pitchmate_hosting::ordered::{Log, Next, OrderedReader};
use pitchmate_store::{InboxRow, NewInboxItem, Store};

use crate::error::LeagueError;
use crate::{nanos, time};

/// Stored items read at a time.
const PAGE: usize = 256;
/// Live items a slow reader may fall behind by before it reads them from the store instead.
const LIVE: usize = 4096;

/// What an inbox item says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InboxItem {
    /// A match the bot held a seat in ended.
    MatchFinished(FinishedMatch),
    /// Another bot challenged this one; it waits for an answer.
    ChallengeReceived(Box<crate::challenges::Challenge>),
    /// A challenge the bot made or was sent was accepted, declined, cancelled or expired.
    ChallengeResolved(Box<crate::challenges::Challenge>),
    /// A league made a match for the bot: it takes its seat with its key by the deadline.
    MatchAssigned(Assignment),
    /// An operator changed the bot's caps.
    QuotaChanged(QuotaChange),
    /// A tournament the bot entered paired a round: the bot's game, or its bye.
    RoundPaired(RoundPairing),
    /// A tournament the bot entered ended.
    TournamentFinished(TournamentResult),
}

impl InboxItem {
    /// The store's number for the kind; never reused.
    fn code(&self) -> u32 {
        match self {
            InboxItem::MatchFinished(_) => 1,
            InboxItem::ChallengeReceived(_) => 2,
            InboxItem::ChallengeResolved(_) => 3,
            InboxItem::MatchAssigned(_) => 4,
            InboxItem::QuotaChanged(_) => 5,
            InboxItem::RoundPaired(_) => 6,
            InboxItem::TournamentFinished(_) => 7,
        }
    }

    pub fn to_new(&self, bot_id: &str, at: SystemTime) -> NewInboxItem {
        NewInboxItem {
            bot_id: bot_id.to_owned(),
            kind: self.code(),
            body: serde_json::to_vec(self).expect("an inbox item serialises"),
            time_nanos: nanos(at),
        }
    }
}

/// A bot's caps as they now stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotaChange {
    pub max_concurrent: u32,
    pub daily_cap: u32,
}

/// A match a league assigned to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignment {
    pub match_id: String,
    pub variant_id: String,
    /// The bot's seat.
    pub seat: String,
    pub opponent_id: String,
    pub opponent_name: String,
    pub rated: bool,
    /// Where the result is rated; empty for a casual match.
    pub pool: String,
    /// The bot forfeits unless it takes its seat before then (nanoseconds since the epoch).
    pub show_up_by_nanos: i64,
    /// The tournament that paired it, and its round; empty and 0 otherwise.
    #[serde(default)]
    pub tournament_id: String,
    #[serde(default)]
    pub round: u32,
}

/// A bot's part in a tournament round just paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    pub tournament_id: String,
    pub round: u32,
    /// Empty with a bye; each is assigned (`match_assigned`) once it exists.
    pub match_ids: Vec<String>,
    /// Empty with a bye.
    pub opponent_id: String,
    pub bye: bool,
}

/// Where a bot finished in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentResult {
    pub tournament_id: String,
    pub cancelled: bool,
    pub end_reason: String,
    pub rank: u32,
    /// Half-points: a win is 2.
    pub half_points: u32,
}

/// How a match ended, for one of its seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedMatch {
    pub match_id: String,
    pub variant_id: String,
    /// The bot's seat.
    pub seat: String,
    /// Every seat's name, in seat order.
    pub seats: Vec<String>,
    /// False: aborted, nobody won or lost.
    pub finished: bool,
    /// The winning seat; empty for a draw or an aborted match.
    pub winner: String,
    /// Per seat, in seat order.
    pub scores: Vec<u32>,
    pub reason: EndReason,
    pub detail: String,
    /// How the result moved the bot's rating; `None` for a match that was not rated.
    #[serde(default)]
    pub rating: Option<Box<crate::rated::RatingChange>>,
}

/// The match as its bot sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Drawn,
    Aborted,
}

impl FinishedMatch {
    pub fn outcome(&self) -> Outcome {
        match (self.finished, self.winner.as_str()) {
            (false, _) => Outcome::Aborted,
            (true, "") => Outcome::Drawn,
            (true, winner) if winner == self.seat => Outcome::Won,
            (true, _) => Outcome::Lost,
        }
    }
}

/// An item as delivered: its place and time.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivered {
    pub seq: u64,
    pub time: SystemTime,
    pub item: InboxItem,
}

impl Delivered {
    fn from_row(row: &InboxRow) -> Result<Self, LeagueError> {
        let item = serde_json::from_slice(&row.body).map_err(|e| {
            LeagueError::Unavailable(format!(
                "inbox item {} of a bot is unreadable: {e}",
                row.seq
            ))
        })?;
        Ok(Delivered {
            seq: row.seq,
            time: time(row.time_nanos),
            item,
        })
    }
}

/// Where items written are announced to the readers following inboxes now.
#[derive(Clone)]
pub struct InboxBus {
    live: broadcast::Sender<Arc<InboxRow>>,
    /// Bumped when items may have been written that were not announced (see [`InboxBus::reread`]).
    rereads: Arc<watch::Sender<u64>>,
}

impl Default for InboxBus {
    fn default() -> Self {
        Self {
            live: broadcast::channel(LIVE).0,
            rereads: Arc::new(watch::channel(0).0),
        }
    }
}

impl InboxBus {
    /// Announces items the store has committed.
    pub fn publish(&self, rows: Vec<InboxRow>) {
        for row in rows {
            // No reader now: nobody to tell.
            let _ = self.live.send(Arc::new(row));
        }
    }

    /// Makes every reader following an inbox now read it again from the store: items may have
    /// been committed that nobody announced (in cluster mode, by another server while this one
    /// was not hearing of its changes).
    pub fn reread(&self) {
        self.rereads.send_modify(|count| *count += 1);
    }
}

/// What a reader is sent.
#[derive(Clone, Debug, PartialEq)]
pub enum InboxEvent {
    Item(Box<Delivered>),
    /// Nothing for a while; every item up to `seq` has been sent.
    Quiet {
        seq: u64,
    },
}

/// Where a bot's inbox stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InboxBounds {
    /// The oldest item still kept (one past `newest` when none is).
    pub oldest: u64,
    /// The newest item; 0 before the first.
    pub newest: u64,
}

pub async fn bounds(store: &Store, bot_id: &str) -> Result<InboxBounds, LeagueError> {
    let (oldest, newest) = store.inbox_bounds(bot_id).await?;
    Ok(InboxBounds { oldest, newest })
}

/// Checks that a reader can resume after `after`: not past the newest item, and nothing it has
/// not seen pruned.
pub fn check_resume(bounds: InboxBounds, after: u64) -> Result<(), LeagueError> {
    if after > bounds.newest {
        return Err(LeagueError::InvalidField {
            field: "after_seq",
            message: format!(
                "after_seq {after} is beyond this inbox's newest item, {}; use 0 for everything \
                 kept, or a seq this server sent",
                bounds.newest
            ),
        });
    }
    if after + 1 < bounds.oldest {
        return Err(LeagueError::InboxSeqExpired {
            after,
            oldest: bounds.oldest,
        });
    }
    Ok(())
}

/// One bot's inbox as an ordered log; the bus carries every bot's items.
struct Inbox {
    store: Store,
    bot_id: String,
}

impl Log for Inbox {
    type Row = InboxRow;
    type Error = LeagueError;

    fn number(row: &InboxRow) -> u64 {
        row.seq
    }

    fn owns(&self, row: &InboxRow) -> bool {
        row.bot_id == self.bot_id
    }

    async fn read_after(&self, after: u64, limit: usize) -> Result<Vec<InboxRow>, LeagueError> {
        Ok(self.store.inbox_after(&self.bot_id, after, limit).await?)
    }
}

/// `bot_id`'s inbox after `after`, then live items. Ends when the server stops; a store it
/// cannot read ends it with the error.
pub fn follow(
    store: Store,
    bus: &InboxBus,
    bot_id: String,
    after: u64,
    heartbeat: Duration,
    stopping: watch::Receiver<bool>,
) -> impl Stream<Item = Result<InboxEvent, LeagueError>> + Send + use<> {
    let inbox = Inbox { store, bot_id };
    let reader = OrderedReader::new(
        inbox,
        bus.live.subscribe(),
        after,
        PAGE,
        heartbeat,
        stopping,
    )
    .rereading_on(bus.rereads.subscribe());
    futures_util::stream::unfold((reader, false), |(mut reader, done)| async move {
        if done {
            return None;
        }
        let event = match reader.next().await {
            Ok(None) => return None,
            Ok(Some(Next::Quiet { number })) => Ok(InboxEvent::Quiet { seq: number }),
            Ok(Some(Next::Row(row))) => {
                Delivered::from_row(&row).map(|d| InboxEvent::Item(Box::new(d)))
            }
            Err(error) => Err(error),
        };
        let failed = event.is_err();
        Some((event, (reader, failed)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(winner: &str, finished: bool) -> FinishedMatch {
        FinishedMatch {
            match_id: "m".into(),
            variant_id: "gridiron".into(),
            seat: "home".into(),
            seats: vec!["home".into(), "away".into()],
            finished,
            winner: winner.into(),
            scores: vec![1, 0],
            reason: EndReason::Rules,
            detail: String::new(),
            rating: None,
        }
    }

    #[test]
    fn the_outcome_is_the_bots_own() {
        assert_eq!(finished("home", true).outcome(), Outcome::Won);
        assert_eq!(finished("away", true).outcome(), Outcome::Lost);
        assert_eq!(finished("", true).outcome(), Outcome::Drawn);
        assert_eq!(finished("", false).outcome(), Outcome::Aborted);
    }

    #[test]
    fn an_item_reads_back_as_written() {
        let item = InboxItem::MatchFinished(finished("home", true));
        let new = item.to_new("b1", SystemTime::UNIX_EPOCH);
        let row = InboxRow {
            bot_id: new.bot_id,
            seq: 3,
            kind: new.kind,
            body: new.body,
            time_nanos: new.time_nanos,
        };
        assert_eq!(Delivered::from_row(&row).unwrap().item, item);
    }

    #[test]
    fn a_reader_resumes_only_within_what_is_kept() {
        let bounds = InboxBounds {
            oldest: 3,
            newest: 5,
        };
        for after in [2, 3, 5] {
            assert!(check_resume(bounds, after).is_ok(), "{after}");
        }
        assert!(matches!(
            check_resume(bounds, 1),
            Err(LeagueError::InboxSeqExpired { oldest: 3, .. })
        ));
        assert!(matches!(
            check_resume(bounds, 6),
            Err(LeagueError::InvalidField {
                field: "after_seq",
                ..
            })
        ));
        let empty = InboxBounds {
            oldest: 1,
            newest: 0,
        };
        assert!(check_resume(empty, 0).is_ok());
    }
}
