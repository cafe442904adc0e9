//! Hidden choices stay hidden. The server shows nobody else an action that is private to its
//! seat, emits only events private to that seat and leaves the turn as it was; these tests hold
//! the engine to what that needs: a seat's roster picks and order items are such actions, and
//! nothing the other seat or a spectator can see depends on them until the rules reveal them.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::roster::{DEFAULT_CAPTAIN, DEFAULT_STANDARD};
use super::{Action, Details, Event, Gridiron};
use crate::game::{Emitted, Game, RuleError, Seat, Turn, Viewer, Visibility};
use crate::options::OptionValue;
use crate::rng::Rng;
use crate::{BoardView, Seed};

fn short_match(seed: u64) -> Gridiron {
    let given: BTreeMap<String, OptionValue> = [("possessions_per_half", 1), ("turns_per_down", 3)]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), OptionValue::Int(value)))
        .collect();
    crate::game::start(&given, Seed::from_number(seed), None).unwrap()
}

/// A roster pick or an order item: what a seat drafts in secret before it commits.
fn is_secret(action: &Action) -> bool {
    action.is_order()
        || matches!(
            action,
            Action::Captain(_) | Action::Recruit(_) | Action::DefaultRoster
        )
}

fn is_commit(action: &Action) -> bool {
    matches!(action, Action::CommitRoster | Action::Commit)
}

/// Applies a secret item and checks that the server may hide it: private to its seat, every
/// event private to that seat, the turn unchanged.
fn apply_secret(game: &mut Gridiron, seat: Seat, action: &Action) -> Vec<Emitted<Event>> {
    assert!(is_secret(action), "{action:?}");
    let turn = game.turn();
    assert_eq!(game.action_visibility(seat, action), Visibility::Seat(seat));
    let events = game.apply(seat, action).unwrap();
    assert!(
        events
            .iter()
            .all(|e| e.visibility == Visibility::Seat(seat)),
        "{action:?} emitted {events:?}"
    );
    assert_eq!(game.turn(), turn, "{action:?} changed the turn");
    events
}

/// Drafts up to `count` random secret items for `seat`; returns those it took.
fn draft(game: &mut Gridiron, seat: Seat, count: u64, rng: &mut Rng) -> Vec<Action> {
    let mut taken = Vec::new();
    for _ in 0..count {
        let secret: Vec<Action> = game
            .legal_actions(seat)
            .into_iter()
            .filter(is_secret)
            .collect();
        if secret.is_empty() {
            break;
        }
        let item = rng.pick(&secret).clone();
        apply_secret(game, seat, &item);
        taken.push(item);
    }
    taken
}

/// Everything `viewer` can learn from a state; a seat also learns its legal actions and how
/// its probes would be answered.
#[derive(Debug, PartialEq)]
struct Seen {
    turn: Turn,
    board: BoardView,
    details: Details,
    position: String,
    legal: Vec<Action>,
    answers: Vec<Result<(), RuleError>>,
}

fn seen(game: &Gridiron, viewer: Viewer, probes: &[Action]) -> Seen {
    let (legal, answers) = match viewer {
        Viewer::Seat(seat) => (
            game.legal_actions(seat),
            probes.iter().map(|a| game.check(seat, a)).collect(),
        ),
        Viewer::Spectator => (Vec::new(), Vec::new()),
    };
    Seen {
        turn: game.turn(),
        board: game.board(viewer),
        details: game.details(viewer),
        position: game.position_for(viewer),
        legal,
        answers,
    }
}

fn assert_look_alike(twins: &[Gridiron; 2], other: Seat, probes: &[Action]) {
    for viewer in [Viewer::Seat(other), Viewer::Spectator] {
        assert_eq!(
            seen(&twins[0], viewer, probes),
            seen(&twins[1], viewer, probes),
            "{viewer:?} tells the twins apart"
        );
    }
}

fn visible_to(events: &[Emitted<Event>], viewer: Viewer) -> Vec<&Event> {
    events
        .iter()
        .filter(|e| e.visibility.visible_to(viewer))
        .map(|e| &e.event)
        .collect()
}

/// The seat's own view of its draft after it drafted `items` on top of `before`.
fn assert_sees_own_draft(before: &Gridiron, after: &Gridiron, seat: Seat, items: &[Action]) {
    let mine = Viewer::Seat(seat);
    if before.turn().phase == "roster" {
        let (mut captain, mut standard) = before.details(mine).own_roster.unwrap();
        for item in items {
            match item {
                Action::Captain(kind) => captain = Some(*kind),
                Action::Recruit(kind) => standard.push(*kind),
                Action::DefaultRoster => {
                    captain = Some(DEFAULT_CAPTAIN);
                    standard = DEFAULT_STANDARD.to_vec();
                }
                other => panic!("{other:?} is no roster pick"),
            }
        }
        assert_eq!(after.details(mine).own_roster, Some((captain, standard)));
    } else {
        let mut orders = before.details(mine).own_orders;
        orders.extend_from_slice(items);
        assert_eq!(after.details(mine).own_orders, orders);
    }
}

/// Forks `game` into twins in which `seat` drafts different secret items, and checks that the
/// other seat and a spectator cannot tell them apart: before the commit, after the other seat
/// drafts too, and after the commit unless it is the one that reveals. Returns whether the
/// drafts differed.
fn twins_look_alike(game: &Gridiron, seat: Seat, rng: &mut Rng) -> bool {
    let other = seat.opponent();
    let probes: Vec<Action> = game
        .legal_actions(seat)
        .into_iter()
        .chain(game.legal_actions(other).into_iter().step_by(7))
        .collect();
    let mut twins = [game.clone(), game.clone()];
    let mut drafts = [Vec::new(), Vec::new()];
    for (twin, items) in twins.iter_mut().zip(&mut drafts) {
        let count = rng.below(5);
        *items = draft(twin, seat, count, rng);
        assert_sees_own_draft(game, twin, seat, items);
    }
    assert_look_alike(&twins, other, &probes);

    let theirs: Vec<Action> = twins[0]
        .legal_actions(other)
        .into_iter()
        .filter(is_secret)
        .collect();
    if !theirs.is_empty() {
        let item = rng.pick(&theirs).clone();
        let [a, b] = &mut twins;
        let events = apply_secret(a, other, &item);
        assert_eq!(apply_secret(b, other, &item), events);
        assert_look_alike(&twins, other, &probes);
    }

    // A roster is final only when complete; the seat keeps picking until it may commit.
    for twin in &mut twins {
        while !twin.legal_actions(seat).iter().any(is_commit) {
            let picked = draft(twin, seat, 1, rng);
            assert!(!picked.is_empty(), "no way to finish the draft");
        }
    }
    let reveals = twins[0].turn().phase == "reaction" || !twins[0].turn().is_to_act(other);
    if !reveals {
        let commit = twins[0]
            .legal_actions(seat)
            .into_iter()
            .find(is_commit)
            .unwrap();
        let [a, b] = &mut twins;
        let committed = [
            a.apply(seat, &commit).unwrap(),
            b.apply(seat, &commit).unwrap(),
        ];
        for viewer in [Viewer::Seat(other), Viewer::Spectator] {
            assert_eq!(
                visible_to(&committed[0], viewer),
                visible_to(&committed[1], viewer)
            );
        }
        assert_look_alike(&twins, other, &probes);
    }
    drafts[0] != drafts[1]
}

/// Whether an event tells the defence where the ball is (or ends the down, which does).
fn shows_the_ball(event: &Event) -> bool {
    matches!(
        event,
        Event::BallRevealed { .. }
            | Event::Tackled { .. }
            | Event::Scored { .. }
            | Event::PassThrown { .. }
            | Event::PassCancelled { .. }
            | Event::DownEnded { .. }
    )
}

/// When the offence `seat` may write a play action: forks twins that differ only in who keeps
/// the ball, commits them (and the defence at the snap), and checks that the defence and
/// spectators cannot tell them apart until an event shows the ball. Returns whether the twins
/// were compared after the reveal.
fn keeper_stays_hidden(game: &Gridiron, seat: Seat, rng: &mut Rng) -> bool {
    let fakes: Vec<(u32, u32)> = game
        .legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Fake { piece, partner, .. } => Some((piece, partner)),
            _ => None,
        })
        .collect();
    if fakes.is_empty() {
        return false;
    }
    let (piece, partner) = *rng.pick(&fakes);
    let defence = seat.opponent();
    let mut twins = [piece, partner].map(|keeper| {
        let mut twin = game.clone();
        apply_secret(
            &mut twin,
            seat,
            &Action::Fake {
                piece,
                partner,
                keeper,
            },
        );
        twin
    });
    let mut emitted = [Vec::new(), Vec::new()];
    for (twin, emitted) in twins.iter_mut().zip(&mut emitted) {
        for acting in [seat, defence] {
            if twin.turn().is_to_act(acting) {
                emitted.extend(twin.apply(acting, &Action::Commit).unwrap());
            }
        }
    }
    if emitted.iter().flatten().any(|e| shows_the_ball(&e.event)) {
        return false;
    }
    for viewer in [Viewer::Seat(defence), Viewer::Spectator] {
        assert_eq!(
            visible_to(&emitted[0], viewer),
            visible_to(&emitted[1], viewer)
        );
    }
    assert_look_alike(&twins, defence, &[]);
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Along random matches every secret item may be hidden by the server and every commit is
    /// public; at random states of the hidden phases, twins that differ only in what one seat
    /// drafted, or only in who keeps the ball after a play action, look the same to the other
    /// seat and to spectators until the rules reveal it.
    #[test]
    fn what_a_seat_drafts_in_secret_stays_hidden(seed in any::<u64>(), walk in any::<u64>()) {
        let mut game = short_match(seed);
        let mut rng = Rng::new(walk);
        let mut differing_forks = 0;
        let mut hidden_keepers = 0;
        for _ in 0..1_200 {
            let turn = game.turn();
            if turn.to_act.is_empty() {
                break;
            }
            let seat = *rng.pick(&turn.to_act);
            let fork = match turn.phase.as_str() {
                // The roster phase is short: fork at each of its states.
                "roster" => true,
                "snap" | "reaction" => rng.below(10) == 0,
                _ => false,
            };
            if fork && twins_look_alike(&game, seat, &mut rng) {
                differing_forks += 1;
            }
            if fork && seat == game.offense && keeper_stays_hidden(&game, seat, &mut rng) {
                hidden_keepers += 1;
            }
            let legal = game.legal_actions(seat);
            let action = match legal.iter().find(|a| is_commit(a) || **a == Action::Ready) {
                Some(end) if rng.below(4) == 0 => end.clone(),
                _ => rng.pick(&legal).clone(),
            };
            if is_secret(&action) {
                apply_secret(&mut game, seat, &action);
            } else {
                let events = game.apply(seat, &action).unwrap();
                if is_commit(&action) {
                    prop_assert!(events.iter().any(|e| e.visibility == Visibility::Public));
                }
            }
        }
        prop_assert!(differing_forks > 0);
        prop_assert!(hidden_keepers > 0);
    }
}
