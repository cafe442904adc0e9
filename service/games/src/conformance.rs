//! One conformance test holds every game's wire mapping to the same standard. Over seeded random
//! playouts it checks that every legal action met survives action -> proto -> action unchanged,
//! and it collects the cases produced: the per-game `kind` oneof of actions and events, and the
//! game's `details` case of the view. Every case the contract declares (read from the compiled
//! descriptors) must be produced by some playout, so a case the mapping never uses, or a new
//! one it forgets, fails here.

use std::collections::{BTreeMap, BTreeSet};

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Seat, Seed, Viewer};
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, Value};

use crate::ProtoMapping;

fn pool() -> DescriptorPool {
    DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET).expect("the compiled descriptors decode")
}

/// The message set in `message`'s only set oneof field, and that field's name.
fn set_case(message: &DynamicMessage) -> (String, Option<DynamicMessage>) {
    let (field, value) = message
        .fields()
        .next()
        .expect("one case of the oneof is set");
    let inner = match value {
        Value::Message(inner) => Some(inner.clone()),
        _ => None,
    };
    (field.name().to_owned(), inner)
}

/// The game's message inside an `Action` or `GameEvent` (`SoccerChessAction`, ...), with the
/// name of its `kind` case.
fn kind_case(wrapper: &DynamicMessage) -> (MessageDescriptor, String) {
    let (_, game) = set_case(wrapper);
    let game = game.expect("the game's message");
    let (kind, _) = set_case(&game);
    (prost_reflect::ReflectMessage::descriptor(&game), kind)
}

fn decode(pool: &DescriptorPool, name: &str, bytes: &[u8]) -> DynamicMessage {
    let descriptor = pool.get_message_by_name(name).expect("a known message");
    DynamicMessage::decode(descriptor, bytes).expect("it decodes")
}

/// Every case of `message`'s oneof `kind`.
fn declared_kinds(message: &MessageDescriptor) -> BTreeSet<String> {
    message
        .oneofs()
        .find(|oneof| oneof.name() == "kind")
        .expect("a kind oneof")
        .fields()
        .map(|field| field.name().to_owned())
        .collect()
}

#[derive(Default)]
struct Seen {
    actions: BTreeSet<String>,
    events: BTreeSet<String>,
    details: BTreeSet<String>,
    action_message: Option<MessageDescriptor>,
    event_message: Option<MessageDescriptor>,
}

impl Seen {
    fn action(&mut self, pool: &DescriptorPool, action: &pb::Action) {
        let dynamic = decode(pool, "pitchmate.v1.Action", &action.encode_to_vec());
        let (message, kind) = kind_case(&dynamic);
        self.action_message.get_or_insert(message);
        self.actions.insert(kind);
    }

    fn event(&mut self, pool: &DescriptorPool, event: &pb::GameEvent) {
        let dynamic = decode(pool, "pitchmate.v1.GameEvent", &event.encode_to_vec());
        let (message, kind) = kind_case(&dynamic);
        self.event_message.get_or_insert(message);
        self.events.insert(kind);
    }

    fn details(&mut self, pool: &DescriptorPool, details: pb::match_view::Details) {
        let view = pb::MatchView {
            details: Some(details),
            ..Default::default()
        };
        let dynamic = decode(pool, "pitchmate.v1.MatchView", &view.encode_to_vec());
        let (case, _) = set_case(&dynamic);
        self.details.insert(case);
    }
}

/// A random action of a random kind: rare kinds (a shot among a hundred moves) come up as often
/// as common ones, and with them the events only they cause.
fn pick_by_kind<A: Clone>(legal: &[A], rng: &mut pitchmate_rules::Rng) -> A {
    let mut kinds: Vec<std::mem::Discriminant<A>> = Vec::new();
    for action in legal {
        let kind = std::mem::discriminant(action);
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let kind = *rng.pick(&kinds);
    let of_kind: Vec<&A> = legal
        .iter()
        .filter(|a| std::mem::discriminant(*a) == kind)
        .collect();
    (*rng.pick(&of_kind)).clone()
}

/// Cases random play reaches too rarely for a test (a tackle that misses, a level shoot-out
/// decided by a coin): fed to the mapping as made-up engine values, checked and counted like
/// the played ones.
struct Samples<G: ProtoMapping> {
    actions: Vec<G::Action>,
    events: Vec<G::Event>,
}

impl<G: ProtoMapping> Default for Samples<G> {
    fn default() -> Self {
        Self {
            actions: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// What one group of playouts starts from.
struct Scenario {
    options: Vec<(&'static str, pitchmate_rules::OptionValue)>,
    position: Option<&'static str>,
    playouts: u64,
    max_actions: usize,
    /// Every playout picks among kinds of actions, not only a quarter of them.
    by_kind: bool,
}

impl Scenario {
    fn new(playouts: u64, max_actions: usize) -> Self {
        Self {
            options: Vec::new(),
            position: None,
            playouts,
            max_actions,
            by_kind: false,
        }
    }

    fn by_kind(mut self) -> Self {
        self.by_kind = true;
        self
    }

    fn option(mut self, name: &'static str, value: pitchmate_rules::OptionValue) -> Self {
        self.options.push((name, value));
        self
    }

    fn position(mut self, position: &'static str) -> Self {
        self.position = Some(position);
        self
    }
}

/// Plays every scenario's seeded random games of `G`, checking round trips, and returns the
/// cases seen. A quarter of the playouts pick uniformly among the legal actions, the rest
/// among their kinds.
fn play<G: ProtoMapping>(scenarios: &[Scenario], samples: Samples<G>) -> Seen {
    let pool = pool();
    let seats = G::info().seats;
    let mut seen = Seen::default();
    for action in &samples.actions {
        let wire = G::action_to_proto(action);
        assert_eq!(&G::action_from_proto(&wire).unwrap(), action, "{wire:?}");
        seen.action(&pool, &wire);
    }
    for event in &samples.events {
        seen.event(&pool, &G::event_to_proto(event, &seats));
    }
    for scenario in scenarios {
        let options: BTreeMap<_, _> = scenario
            .options
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect();
        for seed in 0..scenario.playouts {
            let position = scenario.position.map(str::to_owned);
            let mut game: G = pitchmate_rules::start(&options, Seed::from_number(seed), position)
                .expect("the scenario starts a game");
            let mut rng = pitchmate_rules::Rng::from_seed(&Seed::from_number(seed + 1_000));
            for emitted in game.opening_events() {
                seen.event(&pool, &G::event_to_proto(&emitted.event, &seats));
            }
            for step in 0..scenario.max_actions {
                let turn = game.turn();
                if game.outcome().is_some() || turn.to_act.is_empty() {
                    break;
                }
                let seat = *rng.pick(&turn.to_act);
                seen.details(
                    &pool,
                    G::details_to_proto(&game.details(Viewer::Seat(seat)), &seats),
                );
                let legal = game.legal_actions(seat);
                let action = if seed % 4 == 0 && !scenario.by_kind {
                    rng.pick(&legal).clone()
                } else {
                    pick_by_kind(&legal, &mut rng)
                };
                // Every listed action of every eighth state, and every action played: listing
                // hundreds of actions at every step would make a debug test crawl.
                let checked = if step % 8 == 0 {
                    &legal[..]
                } else {
                    std::slice::from_ref(&action)
                };
                for action in checked {
                    let wire = G::action_to_proto(action);
                    let back = G::action_from_proto(&wire)
                        .unwrap_or_else(|e| panic!("{action:?} does not read back: {e}"));
                    assert_eq!(&back, action, "{wire:?}");
                    seen.action(&pool, &wire);
                }
                for emitted in game.apply(seat, &action).expect("a legal action applies") {
                    seen.event(&pool, &G::event_to_proto(&emitted.event, &seats));
                }
            }
        }
    }
    seen
}

/// Every declared case was produced.
fn assert_complete(variant: &str, seen: &Seen) {
    let declared_actions = declared_kinds(seen.action_message.as_ref().expect("actions"));
    let declared_events = declared_kinds(seen.event_message.as_ref().expect("events"));
    let missing: Vec<_> = declared_actions.difference(&seen.actions).collect();
    assert!(
        missing.is_empty(),
        "{variant}: no playout produced the actions {missing:?}"
    );
    let missing: Vec<_> = declared_events.difference(&seen.events).collect();
    assert!(
        missing.is_empty(),
        "{variant}: no playout produced the events {missing:?}"
    );
    assert_eq!(
        seen.details,
        BTreeSet::from([variant.replace('-', "_")]),
        "{variant}: its own details case, and only that"
    );
}

fn int(value: i64) -> pitchmate_rules::OptionValue {
    pitchmate_rules::OptionValue::Int(value)
}

fn square(name: &str) -> pitchmate_rules::Square {
    pitchmate_rules::Square::parse(name).expect("a square")
}

fn flag(value: bool) -> pitchmate_rules::OptionValue {
    pitchmate_rules::OptionValue::Bool(value)
}

fn text(value: &str) -> pitchmate_rules::OptionValue {
    pitchmate_rules::OptionValue::Text(value.to_owned())
}

#[test]
fn soccer_chess_maps_every_action_and_event() {
    let seen = play::<pitchmate_rules::soccer_chess::SoccerChess>(
        &[Scenario::new(20, 3_000)],
        Samples::default(),
    );
    assert_complete("soccer-chess", &seen);
}

#[test]
fn chessyball_maps_every_action_and_event() {
    use pitchmate_rules::chessyball::Event;
    let seen = play::<pitchmate_rules::chessyball::Chessyball>(
        &[
            Scenario::new(12, 3_000),
            // Ending a turn early, placing the ball after a goal, and short matches that often
            // end level: shoot-outs.
            Scenario::new(60, 400)
                .option("end_turn_early", flag(true))
                .option("after_goal", text("defender_places"))
                .option("shootout", flag(true))
                .option("max_turns", int(6)),
        ],
        Samples {
            actions: Vec::new(),
            events: vec![
                Event::ExtensionStarted {
                    seat: Seat(0),
                    limit: 3,
                },
                Event::ShootoutCoinFlipped { winner: Seat(1) },
            ],
        },
    );
    assert_complete("chessyball", &seen);
}

#[test]
fn kings_goal_maps_every_action_and_event() {
    let seen = play::<pitchmate_rules::kings_goal::KingsGoal>(
        &[
            Scenario::new(20, 3_000),
            // White's king hemmed in by black pieces that do not hold the ball: it must wait.
            Scenario::new(2, 20).position("4k3/8/8/8/8/8/pp6/Kn6 play w a1 1:0 0-0 w -/-"),
        ],
        Samples::default(),
    );
    assert_complete("kings-goal", &seen);
}

#[test]
fn xfutebol_maps_every_action_and_event() {
    use pitchmate_rules::xfutebol::{Action, Event};
    let seen = play::<pitchmate_rules::xfutebol::XFutebol>(
        &[
            Scenario::new(40, 3_000).by_kind(),
            Scenario::new(8, 3_000).option("free_kick_rule", text("shot")),
            Scenario::new(8, 3_000).option("free_kick_rule", text("text")),
        ],
        Samples {
            actions: vec![
                Action::Shoot {
                    from: square("e12"),
                    goal: square("e16"),
                },
                Action::FreeKick {
                    from: square("d11"),
                    goal: square("e16"),
                },
            ],
            events: vec![
                Event::PenaltyAwarded {
                    seat: Seat(0),
                    square: square("e14"),
                },
                Event::FreeKickTaken {
                    piece: 7,
                    goal: square("e16"),
                    barrier: vec![12, 13],
                },
            ],
        },
    );
    assert_complete("xfutebol", &seen);
}

#[test]
fn gridiron_maps_every_action_and_event() {
    use pitchmate_rules::gridiron::{Event, Location, Spot};
    let seen = play::<pitchmate_rules::gridiron::Gridiron>(
        &[Scenario::new(16, 3_000).option("possessions_per_half", int(1))],
        Samples {
            actions: Vec::new(),
            events: vec![
                Event::Tackled {
                    tackler: 12,
                    carrier: 3,
                    at: Location::new(square("h20"), Spot::C),
                },
                Event::TackleMissed {
                    tackler: 12,
                    piece: 3,
                },
            ],
        },
    );
    assert_complete("gridiron", &seen);
}
