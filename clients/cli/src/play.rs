//! A person plays a seat at the terminal. The SDK's play loop does the talking (prompts,
//! actions, resuming after a dropped connection); this module is the [`Bot`] it asks: it draws
//! the board with the legal actions numbered and reads the person's entry, and redraws on every
//! event the seat's stream brings.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::BufRead;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use pitchmate_client::{Bot, Choice, Client, ClientError, SeatHandle, pb, play};
use tokio::sync::mpsc;

use crate::describe;
use crate::render::render;
use crate::screen::Output;

/// Event lines kept under the board.
const LOG_LINES: usize = 8;
/// The width legal actions are laid out in.
const LIST_WIDTH: usize = 100;
/// How often the match is looked at while the person thinks: it can end meanwhile (the
/// opponent resigns or accepts a draw, a clock runs out) with the play loop waiting on them.
const END_POLL: Duration = Duration::from_secs(1);

/// What the screen shows; every change redraws all of it.
struct Table {
    output: Output,
    title: String,
    view: Option<pb::MatchView>,
    log: VecDeque<String>,
    /// The legal actions while the person is to choose; empty otherwise.
    prompt: Vec<pb::LegalAction>,
    /// Only the legal actions whose notation starts with this are listed (long lists).
    filter: String,
    /// The last thing to tell the person: a refusal, what was sent.
    notice: String,
}

impl Table {
    /// Keeps `view` unless a newer one is already shown (views arrive from two places).
    fn show_view(&mut self, view: pb::MatchView) {
        if self.view.as_ref().is_none_or(|v| view.version >= v.version) {
            self.view = Some(view);
        }
    }

    fn log(&mut self, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    fn draw(&self) {
        let mut text = format!("{}\n", self.title);
        if let Some(view) = &self.view {
            text.push_str(&render(view, self.output.colour));
        }
        for line in &self.log {
            let _ = writeln!(text, "{line}");
        }
        if !self.prompt.is_empty() {
            text.push_str(&numbered(&self.prompt, &self.filter));
        }
        if !self.notice.is_empty() {
            let _ = writeln!(text, "{}", self.notice);
        }
        if !self.prompt.is_empty() {
            let _ = write!(
                text,
                "your action (1-{}, a notation or its start, resign, draw, q to leave): ",
                self.prompt.len()
            );
        }
        self.output.frame(&text);
    }
}

/// The legal actions numbered from 1, in as many columns as fit; only those starting with
/// `filter`, keeping their numbers.
fn numbered(legal: &[pb::LegalAction], filter: &str) -> String {
    let entries: Vec<String> = legal
        .iter()
        .enumerate()
        .filter(|(_, action)| action.notation.starts_with(filter))
        .map(|(at, action)| format!("{:>3}. {}", at + 1, action.notation))
        .collect();
    let width = entries.iter().map(String::len).max().unwrap_or(0) + 2;
    let columns = (LIST_WIDTH / width).max(1);
    let mut text = if filter.is_empty() {
        String::from("legal actions:\n")
    } else {
        format!("legal actions starting with {filter:?} (Enter lists all):\n")
    };
    for row in entries.chunks(columns) {
        for entry in row {
            let _ = write!(text, "{entry:<width$}");
        }
        let trimmed = text.trim_end().len();
        text.truncate(trimmed);
        text.push('\n');
    }
    text
}

type Shared = Arc<Mutex<Table>>;

fn lock(table: &Shared) -> std::sync::MutexGuard<'_, Table> {
    table.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The person at the keyboard, as the play loop's bot.
struct Person {
    client: Client,
    /// The person's lines, read by a thread of their own so that waiting for one can be
    /// given up when the match ends.
    lines: mpsc::Receiver<String>,
    table: Shared,
    /// Tells the redraw task an event came.
    events: mpsc::UnboundedSender<()>,
    seat: SeatHandle,
    /// The command that plays the seat again.
    come_back: String,
}

/// What the person typed.
#[derive(Debug, PartialEq)]
enum Entry {
    Choice(Choice, String),
    Leave,
    Resign,
    /// Offer a draw, or accept the opponent's standing offer.
    Draw,
    /// The match ended while the person was thinking.
    Ended,
    /// List only the actions whose notation starts with this.
    Narrow(String),
    /// Nothing usable; the reason to show.
    Again(String),
}

fn parse_entry(entry: &str, legal: &[pb::LegalAction]) -> Entry {
    if entry.is_empty() {
        return Entry::Again(String::new());
    }
    if entry == "q" || entry == "quit" {
        return Entry::Leave;
    }
    // A listed notation spelled like a command still plays: the commands give way.
    let listed = legal.iter().any(|a| a.notation == entry);
    if entry == "resign" && !listed {
        return Entry::Resign;
    }
    if entry == "draw" && !listed {
        return Entry::Draw;
    }
    match entry.parse::<usize>() {
        Ok(number) => match legal.get(number.wrapping_sub(1)) {
            Some(action) => Entry::Choice(Choice::Index(action.index), action.notation.clone()),
            None => Entry::Again(format!(
                "there is no action {number}: enter 1 to {} or a notation",
                legal.len()
            )),
        },
        // A listed notation is played; the start of several narrows the list (a Gridiron
        // seat has hundreds); anything else goes to the server, which says what is wrong.
        Err(_) if legal.iter().any(|a| a.notation == entry) => {
            Entry::Choice(Choice::Notation(entry.to_owned()), entry.to_owned())
        }
        Err(_) if legal.iter().any(|a| a.notation.starts_with(entry)) => {
            Entry::Narrow(entry.to_owned())
        }
        Err(_) => Entry::Choice(Choice::Notation(entry.to_owned()), entry.to_owned()),
    }
}

/// Waits for `future` inside the play loop's (synchronous) choice without holding up the
/// runtime's other tasks.
fn wait<T>(future: impl Future<Output = T>) -> T {
    let handle = tokio::runtime::Handle::current();
    tokio::task::block_in_place(|| handle.block_on(future))
}

/// The answer to a prompt of a match that has ended: the server refuses it as stale, which the
/// play loop drops, and the stream brings the end.
fn over(legal: &[pb::LegalAction]) -> Choice {
    Choice::Index(legal[0].index)
}

impl Person {
    /// The person's next entry; the end of input leaves.
    fn next_entry(&mut self, legal: &[pb::LegalAction]) -> Entry {
        wait(async {
            loop {
                tokio::select! {
                    line = self.lines.recv() => {
                        return match line {
                            Some(line) => parse_entry(line.trim(), legal),
                            None => Entry::Leave,
                        };
                    }
                    () = tokio::time::sleep(END_POLL) => {
                        if self.match_is_over().await {
                            return Entry::Ended;
                        }
                    }
                }
            }
        })
    }

    async fn match_is_over(&self) -> bool {
        let Ok(got) = self
            .client
            .get_match(&self.seat.match_id, Some(&self.seat))
            .await
        else {
            // The play loop finds out about a lost connection itself.
            return false;
        };
        got.r#match.is_some_and(|m| {
            matches!(
                m.status(),
                pb::MatchStatus::Finished | pb::MatchStatus::Aborted
            )
        })
    }

    /// Runs one of the client's seat calls from inside the play loop's choice.
    fn call<F>(&self, call: F) -> Result<(), ClientError>
    where
        F: AsyncFnOnce(&Client, &SeatHandle) -> Result<pb::Match, ClientError>,
    {
        wait(call(&self.client, &self.seat)).map(|_| ())
    }

    /// Accepts the opponent's standing draw offer, or offers one; what happened, in words.
    fn draw(&self) -> String {
        let summary = wait(self.client.get_match(&self.seat.match_id, Some(&self.seat)));
        let offered_by = match summary {
            Ok(got) => got.r#match.map(|m| m.draw_offered_by).unwrap_or_default(),
            Err(error) => return format!("could not read the match: {error}"),
        };
        if !offered_by.is_empty() && offered_by != self.seat.seat {
            match self.call(Client::accept_draw) {
                Ok(()) => "you accept the draw".to_owned(),
                Err(error) => format!("could not accept the draw: {error}"),
            }
        } else {
            match self.call(Client::offer_draw) {
                Ok(()) => "you offer a draw; play on while the opponent decides".to_owned(),
                Err(error) => format!("could not offer a draw: {error}"),
            }
        }
    }
}

impl Bot for Person {
    fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
        {
            let mut table = lock(&self.table);
            table.show_view(view.clone());
            table.prompt = legal.to_vec();
            table.draw();
        }
        loop {
            let entry = self.next_entry(legal);
            let mut table = lock(&self.table);
            match entry {
                Entry::Choice(choice, shown) => {
                    table.prompt.clear();
                    table.filter.clear();
                    table.notice = format!("you play {shown}");
                    table.draw();
                    return choice;
                }
                Entry::Narrow(start) => {
                    table.filter = start;
                    table.notice.clear();
                    table.draw();
                }
                Entry::Again(reason) => {
                    table.filter.clear();
                    table.notice = reason;
                    table.draw();
                }
                Entry::Ended => {
                    table.prompt.clear();
                    table.draw();
                    return over(legal);
                }
                Entry::Resign => match self.call(Client::resign) {
                    Ok(()) => {
                        table.prompt.clear();
                        table.notice = "you resign".to_owned();
                        table.draw();
                        return over(legal);
                    }
                    Err(error) => {
                        table.notice = format!("could not resign: {error}");
                        table.draw();
                    }
                },
                Entry::Draw => {
                    drop(table);
                    let said = self.draw();
                    let mut table = lock(&self.table);
                    table.notice = said;
                    table.draw();
                }
                Entry::Leave => {
                    println!(
                        "\nleft match {}; it goes on without you. Come back with:\n  {}",
                        self.seat.match_id, self.come_back
                    );
                    std::process::exit(0);
                }
            }
        }
    }

    fn observe(&mut self, event: &pb::MatchEvent) {
        if let Some(line) = describe::event(event) {
            lock(&self.table).log(line);
        }
        let _ = self.events.send(());
    }

    fn retry_refused(&mut self, refusal: &pb::ActionRefused) -> bool {
        lock(&self.table).notice = format!("refused ({}): {}", refusal.reason, refusal.message);
        true
    }
}

/// Plays `seat` by hand until the match ends, and returns its result. `come_back` is the
/// command that plays the seat again, told to a person who leaves early.
pub async fn play_by_hand(
    client: &Client,
    seat: SeatHandle,
    title: String,
    come_back: String,
    output: Output,
) -> Result<pb::MatchResult, ClientError> {
    let table = Arc::new(Mutex::new(Table {
        output,
        title,
        view: None,
        log: VecDeque::new(),
        prompt: Vec::new(),
        filter: String::new(),
        notice: String::new(),
    }));
    let (events, mut changed) = mpsc::unbounded_channel();
    // Between the person's turns the board follows the events: each burst of them is one
    // redraw with the seat's view fetched afresh.
    let redraw = {
        let (client, seat, table) = (client.clone(), seat.clone(), table.clone());
        tokio::spawn(async move {
            while changed.recv().await.is_some() {
                while changed.try_recv().is_ok() {}
                if let Ok(got) = client.get_match(&seat.match_id, Some(&seat)).await {
                    let mut table = lock(&table);
                    if let Some(view) = got.view {
                        table.show_view(view);
                    }
                    table.draw();
                }
            }
        })
    };
    let (typed, lines) = mpsc::channel(4);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if typed.blocking_send(line).is_err() {
                break;
            }
        }
    });
    let mut person = Person {
        client: client.clone(),
        lines,
        table: table.clone(),
        events,
        seat: seat.clone(),
        come_back,
    };
    let outcome = play(client, &seat, &mut person).await;
    drop(person);
    let _ = redraw.await;
    let result = outcome?;
    let final_view = client.get_match(&seat.match_id, Some(&seat)).await?.view;
    let mut table = lock(&table);
    if let Some(view) = final_view {
        table.show_view(view);
    }
    table.prompt.clear();
    table.notice = describe::result(&result);
    table.draw();
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(notations: &[&str]) -> Vec<pb::LegalAction> {
        notations
            .iter()
            .enumerate()
            .map(|(index, notation)| pb::LegalAction {
                index: index as u32,
                action: None,
                notation: (*notation).to_owned(),
            })
            .collect()
    }

    #[test]
    fn entries_are_numbers_notations_starts_or_commands() {
        let legal = legal(&["Qe5", "Qe5>f6", "Kd1", "#5 a4.nw", "#5 a4.c"]);
        let played = |index, notation: &str| Entry::Choice(Choice::Index(index), notation.into());
        assert_eq!(parse_entry("1", &legal), played(0, "Qe5"));
        assert_eq!(parse_entry("5", &legal), played(4, "#5 a4.c"));
        assert!(matches!(parse_entry("0", &legal), Entry::Again(m) if m.contains("1 to 5")));
        assert!(matches!(parse_entry("6", &legal), Entry::Again(m) if m.contains("no action 6")));
        // A listed notation plays even when it starts others.
        let notation = |text: &str| Entry::Choice(Choice::Notation(text.into()), text.into());
        assert_eq!(parse_entry("Qe5", &legal), notation("Qe5"));
        assert_eq!(parse_entry("#5", &legal), Entry::Narrow("#5".into()));
        // Unlisted text goes to the server, which explains what is wrong with it.
        assert_eq!(parse_entry("Zz9", &legal), notation("Zz9"));
        assert_eq!(parse_entry("q", &legal), Entry::Leave);
        assert_eq!(parse_entry("resign", &legal), Entry::Resign);
        assert_eq!(parse_entry("draw", &legal), Entry::Draw);
        // A variant whose notation spelled a command would still be played by it.
        let odd = self::legal(&["draw"]);
        assert_eq!(parse_entry("draw", &odd), notation("draw"));
        assert_eq!(parse_entry("", &legal), Entry::Again(String::new()));
    }

    #[test]
    fn a_narrowed_list_keeps_the_numbers_of_the_whole_list() {
        let legal = legal(&["+Q", "+R", "+default"]);
        let all = numbered(&legal, "");
        assert!(all.starts_with("legal actions:\n"), "{all}");
        assert!(
            all.contains("1. +Q") && all.contains("3. +default"),
            "{all}"
        );
        let narrowed = numbered(&legal, "+d");
        assert!(narrowed.contains("3. +default"), "{narrowed}");
        assert!(!narrowed.contains("+Q"), "{narrowed}");
    }
}
