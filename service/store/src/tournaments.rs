//! A league's tournaments: their rows, entries, paired rounds, games and logs (schema 12).
//!
//! The leagues crate runs tournaments (round robin, Swiss, ladder) and decides everything about
//! them; the store keeps what it decided, each decision in one transaction with what it causes
//! (inbox items, log items, assigned matches), so a crash loses or repeats nothing:
//!
//! - A tournament is created once: a second one under a taken id writes nothing.
//! - A bot enters while the tournament is open or running (the leagues crate decides how late
//!   an entry may come, and from which round it plays). Entering twice writes nothing and
//!   answers with the entry as it stands; entering one that is over, or unknown, writes nothing.
//! - An entry's state changes (paused, withdrawn, active again) with its log item; a change to
//!   the state it already has writes nothing, log item included.
//! - A round is paired in one transaction: the round, its games, the matches they are assigned
//!   (pending, created afterwards under the ids written, as a challenge's match is: see
//!   `matchmaking.rs`), inbox and log items, and the tournament's count of rounds paired, which
//!   also marks an open tournament running. It is written only if the tournament still counts
//!   the rounds the pairing was made after and is not over: of two servers pairing the same
//!   round, one writes it and the other is told it was stale, with nothing written.
//! - A game's result comes from the leagues' follower of the lifecycle feed, in its step (see
//!   `league.rs`): it is recorded only on a game without one, so a result is recorded once even
//!   if a second writer brings it again.
//! - A tournament finishes, or is cancelled, once.
//!
//! A tournament's log is numbered from 1 without gaps, as a bot's inbox is: the last seq lives
//! in `tournament_log_heads`, incremented in the writing transaction, so two writers appending
//! to one log take turns and never repeat or skip a seq. Log items naming a tournament the
//! store does not know are kept all the same (a follower step must never be refused for them).
//!
//! Specs, round bodies, outcomes and log bodies are the leagues crate's encodings; the store
//! reads only the plain columns it guards and orders by. No foreign keys to bots (see
//! `league.rs`).

use super::league::NewInboxItem;
use super::matchmaking::AssignedMatchRow;
use super::{Backend, InboxRow, StoreError};

/// Where a tournament stands. The numbers are stored; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentState {
    /// Taking entries; no round paired yet.
    Open,
    Running,
    Finished,
    Cancelled,
}

impl TournamentState {
    pub(crate) fn code(self) -> i64 {
        match self {
            Self::Open => 1,
            Self::Running => 2,
            Self::Finished => 3,
            Self::Cancelled => 4,
        }
    }

    pub(crate) fn from_code(code: i64) -> Result<Self, StoreError> {
        Ok(match code {
            1 => Self::Open,
            2 => Self::Running,
            3 => Self::Finished,
            4 => Self::Cancelled,
            _ => return Err(StoreError::Database(format!("tournament state {code}"))),
        })
    }

    /// Finished or cancelled: no entry, round or end is written to it any more.
    pub fn is_over(self) -> bool {
        matches!(self, Self::Finished | Self::Cancelled)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub tournament_id: String,
    pub name: String,
    /// Who created it (the leagues crate's words); not interpreted.
    pub organiser: String,
    /// The leagues crate's encoding of its kind, pool, rounds, times, seed, tie-breaks,
    /// conditions.
    pub spec: Vec<u8>,
    pub state: TournamentState,
    pub created_nanos: i64,
    pub starts_nanos: i64,
    /// Rounds paired so far (for a ladder, its pairing waves).
    pub rounds_paired: u32,
    pub finished_nanos: Option<i64>,
    /// Why it ended, in the leagues crate's words; empty while it runs.
    pub end_reason: String,
}

/// Where a bot's entry stands. The numbers are stored; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryState {
    Active,
    Paused,
    Withdrawn,
}

impl EntryState {
    pub(crate) fn code(self) -> i64 {
        match self {
            Self::Active => 1,
            Self::Paused => 2,
            Self::Withdrawn => 3,
        }
    }

    pub(crate) fn from_code(code: i64) -> Result<Self, StoreError> {
        Ok(match code {
            1 => Self::Active,
            2 => Self::Paused,
            3 => Self::Withdrawn,
            _ => {
                return Err(StoreError::Database(format!(
                    "tournament entry state {code}"
                )));
            }
        })
    }
}

/// A bot entered in a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    pub tournament_id: String,
    pub bot_id: String,
    /// The rating it entered with.
    pub rating: i32,
    pub joined_nanos: i64,
    /// The first round it may be paired in.
    pub first_round: u32,
    pub state: EntryState,
}

/// One paired round of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRoundRow {
    pub tournament_id: String,
    /// From 1.
    pub round: u32,
    /// The leagues crate's encoding (field, pairs, bye, why).
    pub body: Vec<u8>,
    pub paired_nanos: i64,
    pub deadline_nanos: i64,
}

/// One game of a paired round, played as the match of the same id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGameRow {
    pub match_id: String,
    pub tournament_id: String,
    pub round: u32,
    /// The bot of the first seat, then of the second.
    pub bots: [String; 2],
    /// The leagues crate's code for how it ended; `None` until it has.
    pub outcome: Option<u32>,
    pub ended_nanos: Option<i64>,
}

/// One item of a tournament's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentLogRow {
    pub tournament_id: String,
    /// From 1 per tournament, no gaps; assigned by the store.
    pub seq: u64,
    /// What kind of item (the leagues crate's numbering; the store does not interpret it).
    pub kind: u32,
    pub body: Vec<u8>,
    pub time_nanos: i64,
}

/// A log item to add; its seq is its tournament's next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournamentLogItem {
    pub tournament_id: String,
    pub kind: u32,
    pub body: Vec<u8>,
    pub time_nanos: i64,
}

/// How a tournament game ended, as the leagues' follower learned it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResultRow {
    pub match_id: String,
    /// The leagues crate's code.
    pub outcome: u32,
    pub ended_nanos: i64,
}

/// A round as paired, with everything its pairing causes, written in one transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedRound {
    pub tournament_id: String,
    /// Written only if the tournament's `rounds_paired` is still this and it is open or
    /// running: of two writers of one round, one writes and the other finds it stale.
    pub after: u32,
    /// Its `round` is `after + 1`.
    pub round: TournamentRoundRow,
    /// Of this round, in this tournament.
    pub games: Vec<TournamentGameRow>,
    /// One per game, under the game's match id; inserted pending whatever their state says.
    pub assigned: Vec<AssignedMatchRow>,
    pub inbox: Vec<NewInboxItem>,
    pub log: Vec<NewTournamentLogItem>,
}

impl PairedRound {
    /// Whether its parts belong together: a round that does not is refused before anything is
    /// read, as a mistake of its maker's.
    fn check(&self) -> Result<(), StoreError> {
        let refuse = |why: String| {
            Err(StoreError::Database(format!(
                "the round paired in tournament `{}` after {}: {why}",
                self.tournament_id, self.after
            )))
        };
        if self.after.checked_add(1) != Some(self.round.round) {
            return refuse(format!("it is numbered {}", self.round.round));
        }
        if self.round.tournament_id != self.tournament_id {
            return refuse(format!("it names `{}`", self.round.tournament_id));
        }
        for game in &self.games {
            if game.tournament_id != self.tournament_id || game.round != self.round.round {
                return refuse(format!(
                    "game `{}` is of round {} of `{}`",
                    game.match_id, game.round, game.tournament_id
                ));
            }
        }
        let mut games: Vec<&str> = self.games.iter().map(|g| g.match_id.as_str()).collect();
        let mut assigned: Vec<&str> = self.assigned.iter().map(|a| a.match_id.as_str()).collect();
        games.sort_unstable();
        assigned.sort_unstable();
        if games != assigned {
            return refuse(format!(
                "its games {games:?} are not its assigned matches {assigned:?}"
            ));
        }
        Ok(())
    }
}

/// What came of entering a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entered {
    /// Written; the inbox items as numbered.
    Done(Vec<InboxRow>),
    /// Nothing written: the bot was entered before; its entry as it stands.
    Already(EntryRow),
    /// Nothing written: no such tournament (`None`), or it is over.
    NotOpen(Option<TournamentState>),
}

impl Backend {
    pub(crate) async fn create_tournament(
        &self,
        row: TournamentRow,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<bool, StoreError> {
        match self {
            Self::Sqlite(store) => store.create_tournament(row, log).await,
            Self::Postgres(store) => store.create_tournament(row, log).await,
        }
    }

    pub(crate) async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.tournament(id.to_owned()).await,
            Self::Postgres(store) => store.tournament(id).await,
        }
    }

    pub(crate) async fn tournaments(
        &self,
        state: Option<TournamentState>,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.tournaments(state).await,
            Self::Postgres(store) => store.tournaments(state).await,
        }
    }

    pub(crate) async fn enter_tournament(
        &self,
        entry: EntryRow,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Entered, StoreError> {
        match self {
            Self::Sqlite(store) => store.enter_tournament(entry, inbox, log).await,
            Self::Postgres(store) => store.enter_tournament(entry, inbox, log).await,
        }
    }

    pub(crate) async fn set_entry_state(
        &self,
        tournament_id: &str,
        bot_id: &str,
        state: EntryState,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<EntryState>, StoreError> {
        match self {
            Self::Sqlite(store) => {
                store
                    .set_entry_state(tournament_id.to_owned(), bot_id.to_owned(), state, log)
                    .await
            }
            Self::Postgres(store) => {
                store
                    .set_entry_state(tournament_id, bot_id, state, log)
                    .await
            }
        }
    }

    pub(crate) async fn entries(&self, tournament_id: &str) -> Result<Vec<EntryRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.entries(tournament_id.to_owned()).await,
            Self::Postgres(store) => store.entries(tournament_id).await,
        }
    }

    pub(crate) async fn pair_round(
        &self,
        paired: PairedRound,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        paired.check()?;
        match self {
            Self::Sqlite(store) => store.pair_round(paired).await,
            Self::Postgres(store) => store.pair_round(paired).await,
        }
    }

    pub(crate) async fn finish_tournament(
        &self,
        tournament_id: &str,
        state: TournamentState,
        finished_nanos: i64,
        end_reason: &str,
        inbox: Vec<NewInboxItem>,
        log: Vec<NewTournamentLogItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        if !state.is_over() {
            return Err(StoreError::Database(format!(
                "tournament `{tournament_id}` cannot finish as {state:?}"
            )));
        }
        let ending = Ending {
            tournament_id: tournament_id.to_owned(),
            state,
            finished_nanos,
            end_reason: end_reason.to_owned(),
        };
        match self {
            Self::Sqlite(store) => store.finish_tournament(ending, inbox, log).await,
            Self::Postgres(store) => store.finish_tournament(ending, inbox, log).await,
        }
    }

    pub(crate) async fn tournament_rounds(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentRoundRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.tournament_rounds(tournament_id.to_owned()).await,
            Self::Postgres(store) => store.tournament_rounds(tournament_id).await,
        }
    }

    pub(crate) async fn tournament_games(
        &self,
        tournament_id: &str,
    ) -> Result<Vec<TournamentGameRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.tournament_games(tournament_id.to_owned()).await,
            Self::Postgres(store) => store.tournament_games(tournament_id).await,
        }
    }

    pub(crate) async fn tournament_game(
        &self,
        match_id: &str,
    ) -> Result<Option<TournamentGameRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.tournament_game(match_id.to_owned()).await,
            Self::Postgres(store) => store.tournament_game(match_id).await,
        }
    }

    pub(crate) async fn tournament_log_after(
        &self,
        tournament_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<TournamentLogRow>, StoreError> {
        // No seq is ever past `i64::MAX`, so reading after it finds nothing either way.
        let after = i64::try_from(after_seq).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        match self {
            Self::Sqlite(store) => {
                store
                    .tournament_log_after(tournament_id.to_owned(), after, limit)
                    .await
            }
            Self::Postgres(store) => {
                store
                    .tournament_log_after(tournament_id, after, limit)
                    .await
            }
        }
    }

    pub(crate) async fn tournament_log_head(&self, tournament_id: &str) -> Result<u64, StoreError> {
        match self {
            Self::Sqlite(store) => store.tournament_log_head(tournament_id.to_owned()).await,
            Self::Postgres(store) => store.tournament_log_head(tournament_id).await,
        }
    }
}

/// How a tournament ends, as [`crate::Store::finish_tournament`] was asked.
pub(crate) struct Ending {
    pub tournament_id: String,
    pub state: TournamentState,
    pub finished_nanos: i64,
    pub end_reason: String,
}
