//! A change to how events look on the wire strands no match the store kept in the match core's
//! own format: the stored fixtures are rebuilt with games whose every game event has a new wire
//! form (the utmost a field added to an event could do: no stored wire form matches what the
//! mapping now gives), and every unfinished match is played to its end. Matches kept as wire
//! messages (schema 2) are compared in wire form, so the same change refuses them: that is what
//! the core's format is for, and it shows that the first test would notice a rebuild that looked
//! at the wire.

mod common;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use pitchmate_proto::v1 as pb;
use pitchmate_rules::{Outcome, Seat, Turn, VariantInfo, Viewer};
use pitchmate_server::games::{
    ActionChoice, EngineValue, GameError, GameEvent, GameRegistry, HostedGame, Played,
};
use pitchmate_server::hosting::durable;
use pitchmate_server::hosting::referee::{Referee, Submission};
use pitchmate_server::hosting::token::SeatToken;
use pitchmate_server::store::{Store, StoredMatch};

use common::Lcg;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures");

/// The same game, with a new wire form for every game event.
struct ChangedWire(Box<dyn HostedGame>);

fn changed(event: pb::GameEvent) -> pb::GameEvent {
    pb::GameEvent {
        game: Some(pb::game_event::Game::DiceRolled(pb::DiceRolled {
            purpose: format!("changed wire: {}", event.game.is_some()),
            ..pb::DiceRolled::default()
        })),
    }
}

fn changed_events(events: Vec<GameEvent>) -> Vec<GameEvent> {
    events
        .into_iter()
        .map(|event| GameEvent {
            wire: changed(event.wire),
            ..event
        })
        .collect()
}

impl HostedGame for ChangedWire {
    fn info(&self) -> &VariantInfo {
        self.0.info()
    }
    fn turn(&self) -> &Turn {
        self.0.turn()
    }
    fn legal_actions(&self, seat: Seat, detail: pb::ActionDetail) -> Vec<pb::LegalAction> {
        self.0.legal_actions(seat, detail)
    }
    fn legal_actions_once(&self, seat: Seat, detail: pb::ActionDetail) -> Vec<pb::LegalAction> {
        self.0.legal_actions_once(seat, detail)
    }
    fn play(&mut self, seat: Seat, choice: &ActionChoice) -> Result<Played, GameError> {
        let played = self.0.play(seat, choice)?;
        Ok(Played {
            events: changed_events(played.events),
            ..played
        })
    }
    fn view(&self, viewer: Viewer, version: u64) -> pb::MatchView {
        self.0.view(viewer, version)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn scores(&self) -> Vec<u32> {
        self.0.scores()
    }
    fn opening_events(&self) -> Vec<GameEvent> {
        changed_events(self.0.opening_events())
    }
    fn default_action(&self, seat: Seat) -> Option<pb::Action> {
        self.0.default_action(seat)
    }
    fn event_to_wire(&self, value: &EngineValue) -> Result<pb::GameEvent, GameError> {
        self.0.event_to_wire(value).map(changed)
    }
    fn action_to_wire(&self, value: &EngineValue) -> Result<pb::Action, GameError> {
        self.0.action_to_wire(value)
    }
    fn same_event(&self, a: &EngineValue, b: &EngineValue) -> bool {
        self.0.same_event(a, b)
    }
    fn same_action(&self, a: &EngineValue, b: &EngineValue) -> bool {
        self.0.same_action(a, b)
    }
}

/// Every match of a fixture's database, read from a copy of it.
async fn stored_matches(fixture: &str) -> Vec<StoredMatch> {
    let dir: PathBuf = common::process::scratch_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let source = Path::new(FIXTURES).join(fixture).join("data/pitchmate.db");
    std::fs::copy(&source, dir.join("pitchmate.db"))
        .unwrap_or_else(|e| panic!("copy {}: {e}", source.display()));
    let store = Store::open("", &dir).await.unwrap();
    let mut matches = Vec::new();
    for row in store.matches().await.unwrap() {
        matches.push(store.load(&row.match_id).await.unwrap().unwrap());
    }
    store.close().await.unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches.len() > 10, "{fixture} holds its matches");
    matches
}

/// A stored match rebuilt on its game with the changed wire forms.
fn rebuild(stored: &StoredMatch) -> Result<Referee, String> {
    let setup = durable::setup_from_bytes(&stored.row.setup).unwrap();
    let game = GameRegistry::standard()
        .start(
            &setup.variant_id,
            &setup.options,
            setup.chance.seed,
            setup.start_position.clone(),
        )
        .unwrap();
    let inputs = stored
        .inputs
        .iter()
        .map(|r| durable::input_from_row(r).unwrap())
        .collect();
    let events = stored
        .events
        .iter()
        .map(|r| durable::event_from_row(r).unwrap())
        .collect();
    let answers = stored
        .answers
        .iter()
        .map(|r| durable::answer_from_row(r).unwrap());
    Referee::rebuild(
        setup,
        Box::new(ChangedWire(game)),
        None,
        inputs,
        events,
        answers,
    )
}

/// Seats whoever is missing and plays random legal actions until the match is over.
fn play_to_the_end(referee: &mut Referee, random: &mut Lcg) {
    for _ in 0..20_000 {
        let now = SystemTime::now();
        // A clock that ran out since the fixture was written falls due first.
        while let Some((at, due)) = referee.next_due().filter(|(at, _)| *at <= now) {
            referee.fall_due(due, at);
        }
        if referee.is_over() {
            return;
        }
        if referee.status() == pitchmate_server::hosting::status::MatchStatus::Waiting {
            let token = SeatToken::generate().unwrap();
            referee
                .join(None, "late".into(), token.hash(), None, now)
                .unwrap();
            continue;
        }
        let to_act = referee.summary().progress.turn.to_act;
        let seat = to_act[random.below(to_act.len())];
        let legal = referee.legal_actions(Viewer::Seat(seat), pb::ActionDetail::Notation);
        let submission = Submission {
            expected_version: legal.version,
            client_action_id: String::new(),
            choice: ActionChoice::Index(random.below(legal.actions.len()) as u32),
        };
        referee.submit(seat, submission, now).unwrap();
    }
    panic!("{} did not end", referee.setup().match_id);
}

#[tokio::test]
async fn a_changed_wire_form_strands_no_match_kept_in_the_cores_format() {
    let mut random = Lcg(7);
    let mut played_on = 0;
    let mut in_own_format = stored_matches("store-v4").await;
    in_own_format.extend(stored_matches("store-v6").await);
    for stored in in_own_format {
        let id = &stored.row.match_id;
        let mut referee = rebuild(&stored).unwrap_or_else(|e| panic!("{id}: {e}"));
        // What is served of it is the new wire form.
        let game_events: Vec<_> = referee
            .log()
            .held()
            .iter()
            .filter_map(|e| match &e.kind {
                pb::match_event::Kind::GameEvent(event) => Some(event.clone()),
                _ => None,
            })
            .collect();
        assert!(
            game_events.iter().all(|e| matches!(&e.game,
                Some(pb::game_event::Game::DiceRolled(d)) if d.purpose.starts_with("changed"))),
            "{id}"
        );
        if !referee.is_over() {
            play_to_the_end(&mut referee, &mut random);
            played_on += 1;
        }
    }
    assert_eq!(played_on, 18, "every unfinished match of both fixtures");
}

#[tokio::test]
async fn the_same_change_refuses_matches_kept_as_wire_messages() {
    let mut refused = 0;
    for stored in stored_matches("store-v2").await {
        let has_game_events = stored.events.len() > 3;
        match rebuild(&stored) {
            Err(error) => {
                assert!(error.contains("no longer reproduce"), "{error}");
                refused += 1;
            }
            Ok(_) => assert!(!has_game_events, "{}", stored.row.match_id),
        }
    }
    assert!(refused >= 10, "{refused}");
}
