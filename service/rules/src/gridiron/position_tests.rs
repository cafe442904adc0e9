//! The position notation holds the whole state (`position()`), and a seat's view of it
//! (`position_for`): a game rebuilt from either, with another seed, shows its viewer what the
//! real one does, and a seat's view tells nothing of what the seat cannot see.

use std::collections::BTreeMap;

use super::tests::{BASE, spec};
use super::{Action, Gridiron};
use crate::game::{Game, RuleErrorKind, Seat, SetupSpec, Viewer};
use crate::options::{OptionValue, Options};
use crate::rng::{Rng, Seed};

const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat(0)),
    Viewer::Seat(Seat(1)),
    Viewer::Spectator,
];

/// Options that reach the end of a match in a few hundred actions; the turn limit varies so
/// that reaction turns of every length occur.
fn short_options(seed: u64) -> Options {
    let given: BTreeMap<String, OptionValue> = [
        ("possessions_per_half", 1),
        ("turns_per_down", 2 + (seed % 5) as i64),
        ("overtime_periods", 1),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), OptionValue::Int(value)))
    .collect();
    Options::resolve(&Gridiron::info().options, &given).unwrap()
}

fn start(
    options: &Options,
    seed: u64,
    position: Option<String>,
) -> Result<Gridiron, crate::RuleError> {
    Gridiron::new(&SetupSpec {
        options: options.clone(),
        seed: Seed::from_number(seed),
        position,
    })
}

/// A random walker that ends turns early now and then, so that matches go through many downs.
fn walk(game: &Gridiron, rng: &mut Rng) -> Option<(Seat, Action)> {
    let to_act = game.turn().to_act;
    if to_act.is_empty() {
        return None;
    }
    let seat = *rng.pick(&to_act);
    let legal = game.legal_actions(seat);
    let ending = [Action::Commit, Action::Ready, Action::CommitRoster];
    if rng.below(4) == 0
        && let Some(end) = ending.iter().find(|a| legal.contains(a))
    {
        return Some((seat, end.clone()));
    }
    Some((seat, rng.pick(&legal).clone()))
}

/// What every viewer sees of two games, and what each seat may do, is the same.
fn assert_alike(real: &Gridiron, rebuilt: &Gridiron, context: &str) {
    assert_eq!(rebuilt.turn(), real.turn(), "turn {context}");
    assert_eq!(rebuilt.scores(), real.scores(), "scores {context}");
    assert_eq!(rebuilt.outcome(), real.outcome(), "outcome {context}");
    for viewer in VIEWERS {
        assert_eq!(
            rebuilt.board(viewer),
            real.board(viewer),
            "board for {viewer:?} {context}"
        );
        assert_eq!(
            rebuilt.details(viewer),
            real.details(viewer),
            "details for {viewer:?} {context}"
        );
        assert_eq!(
            rebuilt.position_for(viewer),
            real.position_for(viewer),
            "position for {viewer:?} {context}"
        );
    }
    for seat in [Seat(0), Seat(1)] {
        assert_eq!(
            rebuilt.legal_actions(seat),
            real.legal_actions(seat),
            "legal actions of {seat:?} {context}"
        );
    }
    assert_eq!(rebuilt.position(), real.position(), "position {context}");
    assert_parts_in_order(&real.position());
}

/// The parts after the nine fields come in the documented order, each once.
fn assert_parts_in_order(position: &str) {
    let indices: Vec<usize> = position
        .split(' ')
        .skip(9)
        .map(|part| {
            let name = part.split_once('=').expect("a part is name=value").0;
            super::position::PARTS
                .iter()
                .position(|known| *known == name)
                .expect(name)
        })
        .collect();
    assert!(
        indices.is_sorted_by(|a, b| a < b),
        "parts out of order in {position}"
    );
}

/// What a seat sees of a game rebuilt from its view is what it sees of the real one.
fn assert_seat_sees_alike(seat: Seat, real: &Gridiron, rebuilt: &Gridiron, context: &str) {
    let viewer = Viewer::Seat(seat);
    assert_eq!(rebuilt.turn(), real.turn(), "turn {context}");
    assert_eq!(rebuilt.scores(), real.scores(), "scores {context}");
    assert_eq!(rebuilt.outcome(), real.outcome(), "outcome {context}");
    assert_eq!(rebuilt.board(viewer), real.board(viewer), "board {context}");
    assert_eq!(
        rebuilt.details(viewer),
        real.details(viewer),
        "details {context}"
    );
    assert_eq!(
        rebuilt.legal_actions(seat),
        real.legal_actions(seat),
        "legal actions {context}"
    );
    for viewer in [viewer, Viewer::Spectator] {
        assert_eq!(
            rebuilt.position_for(viewer),
            real.position_for(viewer),
            "position for {viewer:?} {context}"
        );
    }
}

/// The kinds of state a walk met, so that the checks are known to have covered them.
#[derive(Debug, Default)]
struct Covered {
    roster: u32,
    committed_roster: u32,
    formation_placed: u32,
    committed_snap: u32,
    defense_reacting: u32,
    pass_waiting: u32,
    hidden_holder: u32,
    effects: u32,
    over: u32,
}

impl Covered {
    fn count(&mut self, game: &Gridiron) {
        let turn = game.turn();
        let committed = game.committed.contains(&true);
        match turn.phase.as_str() {
            "roster" => {
                self.roster += 1;
                self.committed_roster += u32::from(committed);
            }
            "formation" => self.formation_placed += u32::from(!game.placed.is_empty()),
            "snap" => self.committed_snap += u32::from(committed),
            "reaction" => self.defense_reacting += u32::from(!turn.is_to_act(game.offense)),
            "over" => self.over += 1,
            _ => {}
        }
        self.pass_waiting += u32::from(game.pending_pass.is_some());
        self.hidden_holder += u32::from(game.fake.is_some());
        self.effects += u32::from(game.pieces.iter().any(|p| {
            p.change_now != 0 || p.frozen_next || game.jammed(p.id) || game.sealing(p.id)
        }));
    }

    fn assert_all_met(&self) {
        let counts = [
            self.roster,
            self.committed_roster,
            self.formation_placed,
            self.committed_snap,
            self.defense_reacting,
            self.pass_waiting,
            self.hidden_holder,
            self.effects,
            self.over,
        ];
        assert!(
            counts.iter().all(|c| *c > 0),
            "some kind of state was never checked: {self:?}"
        );
    }
}

/// Walks random matches and hands `check` states along them: every state of the roster
/// phase, the end, one in three where the ball is hidden or a pass waits, one in twenty others.
fn at_random_states(
    seeds: std::ops::Range<u64>,
    mut check: impl FnMut(&Gridiron, &Options, u64, &mut Rng),
) -> Covered {
    let mut covered = Covered::default();
    for seed in seeds {
        let options = short_options(seed);
        let mut game = start(&options, seed, None).unwrap();
        let mut rng = Rng::new(seed);
        let length = rng.below(3_000);
        for step in 0..=length {
            let rare = game.fake.is_some() || game.pending_pass.is_some();
            let chance = if rare { 3 } else { 20 };
            let roster = game.turn().phase == "roster";
            if roster || game.outcome.is_some() || rng.below(chance) == 0 {
                covered.count(&game);
                check(&game, &options, seed ^ (step << 20), &mut rng);
            }
            match walk(&game, &mut rng) {
                Some((seat, action)) => {
                    game.apply(seat, &action).unwrap();
                }
                None => break,
            }
        }
    }
    covered
}

#[test]
fn a_game_rebuilt_from_its_position_is_the_same_game() {
    let covered = at_random_states(0..60, |real, options, other_seed, rng| {
        let position = real.position();
        let mut rebuilt = start(options, other_seed, Some(position.clone()))
            .unwrap_or_else(|e| panic!("refuses its own position {position:?}: {e}"));
        assert_alike(real, &rebuilt, &format!("from {position}"));
        // Both draw the same dice from here on: the same actions give the same events.
        let mut real = real.clone();
        let chance = rng.next_u64();
        real.reseed_chance(&mut Rng::new(chance));
        rebuilt.reseed_chance(&mut Rng::new(chance));
        for follow in 0..rng.below(30) {
            let Some((seat, action)) = walk(&real, rng) else {
                break;
            };
            let events = real.apply(seat, &action).unwrap();
            assert_eq!(
                rebuilt.apply(seat, &action).unwrap(),
                events,
                "{follow} on from {position}"
            );
            assert_alike(&real, &rebuilt, &format!("{follow} on from {position}"));
        }
    });
    covered.assert_all_met();
}

#[test]
fn a_game_rebuilt_from_a_seats_view_looks_the_same_to_that_seat() {
    let covered = at_random_states(60..100, |real, options, other_seed, _| {
        for seat in [Seat(0), Seat(1)] {
            let position = real.position_for(Viewer::Seat(seat));
            let rebuilt = start(options, other_seed, Some(position.clone()))
                .unwrap_or_else(|e| panic!("refuses the view of {seat:?} {position:?}: {e}"));
            assert_seat_sees_alike(
                seat,
                real,
                &rebuilt,
                &format!("for {seat:?} from {position}"),
            );
        }
        let spectator = real.position_for(Viewer::Spectator);
        let rebuilt = start(options, other_seed, Some(spectator.clone())).unwrap();
        assert_eq!(rebuilt.position_for(Viewer::Spectator), spectator);
        assert_eq!(
            rebuilt.board(Viewer::Spectator),
            real.board(Viewer::Spectator)
        );
        assert_eq!(
            rebuilt.details(Viewer::Spectator),
            real.details(Viewer::Spectator)
        );
    });
    covered.assert_all_met();
}

/// A roster pick or an order item: what a seat drafts in secret before it commits.
fn is_secret(action: &Action) -> bool {
    action.is_order()
        || matches!(
            action,
            Action::Captain(_) | Action::Recruit(_) | Action::DefaultRoster
        )
}

/// Twins of `game` in which `seat` drafts different random secret items, and perhaps commits
/// them while the other seat still has to act (so that nothing is revealed).
fn drafting_twins(game: &Gridiron, seat: Seat, rng: &mut Rng) -> [Gridiron; 2] {
    let mut twins = [game.clone(), game.clone()].map(|mut twin| {
        for _ in 0..1 + rng.below(5) {
            let secret: Vec<Action> = twin
                .legal_actions(seat)
                .into_iter()
                .filter(is_secret)
                .collect();
            if secret.is_empty() {
                break;
            }
            twin.apply(seat, rng.pick(&secret)).unwrap();
        }
        twin
    });
    let ends = twins.each_ref().map(|twin| {
        twin.legal_actions(seat)
            .into_iter()
            .find(|a| matches!(a, Action::Commit | Action::CommitRoster))
    });
    if let [Some(end), Some(_)] = ends
        && rng.below(2) == 0
        && game.turn().is_to_act(seat.opponent())
    {
        for twin in &mut twins {
            twin.apply(seat, &end).unwrap();
        }
    }
    twins
}

#[test]
fn a_seats_view_hides_the_other_teams_choices_and_shows_its_own() {
    let mut differing = 0;
    let mut hidden_keepers = 0;
    at_random_states(110..150, |game, _, _, rng| {
        for seat in [Seat(0), Seat(1)] {
            let other = seat.opponent();
            if !game.turn().is_to_act(seat) {
                continue;
            }
            let twins = drafting_twins(game, seat, rng);
            for viewer in [Viewer::Seat(other), Viewer::Spectator] {
                assert_eq!(
                    twins[0].position_for(viewer),
                    twins[1].position_for(viewer),
                    "{viewer:?} tells apart what {seat:?} drafted"
                );
            }
            let mine = Viewer::Seat(seat);
            let drafts = twins
                .each_ref()
                .map(|t| (t.details(mine).own_orders, t.details(mine).own_roster));
            if drafts[0] != drafts[1] {
                differing += 1;
                assert_ne!(
                    twins[0].position_for(mine),
                    twins[1].position_for(mine),
                    "{seat:?} does not see its own draft"
                );
                assert_ne!(
                    twins[0].position(),
                    twins[1].position(),
                    "the whole state leaves a draft out"
                );
            }
        }
        if let Some(fake) = game.fake {
            let twins = [fake.passer, fake.partner].map(|keeper| {
                let mut twin = game.clone();
                twin.holder = keeper;
                twin
            });
            for viewer in [Viewer::Seat(game.offense.opponent()), Viewer::Spectator] {
                assert_eq!(
                    twins[0].position_for(viewer),
                    twins[1].position_for(viewer),
                    "{viewer:?} learns the keeper"
                );
            }
            let offense = Viewer::Seat(game.offense);
            assert_ne!(
                twins[0].position_for(offense),
                twins[1].position_for(offense)
            );
            hidden_keepers += 1;
        }
    });
    assert!(differing > 20, "only {differing} twins differed");
    assert!(hidden_keepers > 0);
}

fn refusal(position: &str) -> crate::RuleError {
    let mut setup = spec(1, &[]);
    setup.position = Some(position.to_owned());
    Gridiron::new(&setup).expect_err(position)
}

/// The docs' mid-play example: the second turn of a down from [`BASE`]. At the snap home's
/// heavy #2 pushed away's heavy #9 and the qb #1 faked a hand-off to the fast #6, keeping the
/// ball; in turn 2 home's #3 chop-blocked #10, #6 moved and #1 threw to #6: the pass waits
/// while away, to react, has written one step of its strong #11.
const MID_PLAY: &str = "Bd2.c,Qh8.c,Hg11.c,Hi10.c,Sf9.c,Sk9.c,Ff9.nw/\
                        Yh14.c,Qa40.c,Hg12.c,Hi11.c,Sf11.c,Sk12.c,Fn14.c \
                        home 1 10 14 ? 1 1-0 0-0 phase=reaction:away turn=2 fake=1,6 keeper=1 \
                        pass=1>6 from=6:g8.c snap=2:10,6:8,7:16,9:11,11:12 used=3:chop \
                        chopped=10 orders.home=#6_f9.nw,#3_chop_#10,#1_pass_#6 \
                        orders.away=#11_f10.c";

/// The same state as away sees it: who keeps the ball, and home's orders with the play
/// action among them, are unknown.
const AWAY_VIEW: &str = "Bd2.c,Qh8.c,Hg11.c,Hi10.c,Sf9.c,Sk9.c,Ff9.nw/\
                         Yh14.c,Qa40.c,Hg12.c,Hi11.c,Sf11.c,Sk12.c,Fn14.c \
                         home 1 10 14 ? 1 1-0 0-0 phase=reaction:away turn=2 fake=1,6 keeper=? \
                         pass=1>6 from=6:g8.c snap=2:10,6:8,7:16,9:11,11:12 used=3:chop \
                         chopped=10 orders.home=? orders.away=#11_f10.c";

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The docs' example reached by play.
fn mid_play() -> Gridiron {
    let mut game = super::tests::with_position(BASE);
    for (seat, text) in [
        (Seat(0), "place #6 g8.c"),
        (Seat(0), "ready"),
        (Seat(1), "ready"),
        (Seat(0), "#2 push #9"),
        (Seat(0), "#1 fake #6 keep #1"),
        (Seat(0), "commit"),
        (Seat(1), "#7 h15.c"),
        (Seat(1), "#7 h14.c"),
        (Seat(1), "#11 f11.c"),
        (Seat(1), "commit"),
        (Seat(0), "#6 f9.nw"),
        (Seat(0), "#3 chop #10"),
        (Seat(0), "#1 pass #6"),
        (Seat(0), "commit"),
        (Seat(1), "#11 f10.c"),
    ] {
        super::tests::act(&mut game, seat, text);
    }
    game
}

#[test]
fn the_docs_examples_are_what_play_reaches_and_read_back() {
    let real = mid_play();
    assert_eq!(real.position(), one_line(MID_PLAY));
    assert_eq!(
        real.position_for(Viewer::Seat(Seat(1))),
        one_line(AWAY_VIEW)
    );
    let options = spec(0, &[]).options;
    // Nothing unknown: every seed reads the very same state.
    for seed in [2, 3] {
        let rebuilt = start(&options, seed, Some(MID_PLAY.to_owned())).unwrap();
        assert_alike(&real, &rebuilt, "from the docs' example");
    }
    // Away's view: what away sees is exact; the keeper is drawn from the seed.
    let mut keepers = Vec::new();
    for seed in 0..24 {
        let rebuilt = start(&options, seed, Some(AWAY_VIEW.to_owned())).unwrap();
        assert_seat_sees_alike(Seat(1), &real, &rebuilt, "from away's view in the docs");
        assert!(rebuilt.plans[0].is_empty(), "home's orders have run");
        keepers.push(rebuilt.holder);
    }
    keepers.sort();
    keepers.dedup();
    assert_eq!(keepers, vec![1, 6], "the seed draws either keeper");
}

#[test]
fn old_positions_mean_what_they_meant() {
    let base = super::tests::with_position(BASE);
    assert_eq!(base.position(), one_line(BASE));
    assert_eq!(base.turn().phase, "formation");
    assert_eq!(base.coin_winner, Seat(0), "home counts as the toss winner");
    for viewer in VIEWERS {
        assert_eq!(
            base.position_for(viewer),
            one_line(BASE),
            "nothing is hidden at a formation"
        );
    }
    let fourth = super::tests::with_position(&BASE.replace("home 1 10 14", "home 4 10 14"));
    assert_eq!(fourth.turn().phase, "fourth-down");
}

#[test]
fn the_roster_phase_reads_back_with_its_drafts() {
    let options = short_options(0);
    let text = "-/- home 0 0 0 - 0 0-0 0-0 committed=away roster.home=-HHS roster.away=XHHSSFF";
    let game = start(&options, 5, Some(text.to_owned())).unwrap();
    assert_eq!(game.position(), text);
    assert_eq!(game.turn().to_act, vec![Seat(0)]);
    assert_eq!(
        game.details(Viewer::Seat(Seat(0))).own_roster,
        Some((
            None,
            vec![super::Kind::Heavy, super::Kind::Heavy, super::Kind::Strong]
        ))
    );
    // Home's view: away committed a roster home cannot see; reading it draws a complete one.
    let view = game.position_for(Viewer::Seat(Seat(0)));
    assert_eq!(
        view,
        "-/- home 0 0 0 - 0 0-0 0-0 committed=away roster.home=-HHS roster.away=?"
    );
    let drawn = start(&options, 6, Some(view.clone())).unwrap();
    assert!(drawn.drafts[1].is_complete() && drawn.committed[1]);
    assert_eq!(drawn.position_for(Viewer::Seat(Seat(0))), view);
}

#[test]
fn malformed_and_misplaced_parts_are_refused_with_the_reason() {
    for (position, reason) in [
        (format!("{BASE} turn"), "no part"),
        (format!("{BASE} colour=red"), "`colour` is no part"),
        (format!("{BASE} toss=away toss=home"), "given twice"),
        (format!("{BASE} phase=halftime"), "no phase"),
        (format!("{BASE} phase=fourth-down"), "needs down 4"),
        (format!("{BASE} phase=reaction:away"), "needs turn="),
        (format!("{BASE} phase=reaction:away turn=9"), "needs turn="),
        (format!("{BASE} turn=2"), "counts the turns"),
        (format!("{BASE} toss=nobody"), "home or away"),
        (
            format!("{BASE} roster.home=BQHHSSF"),
            "no place in the formation:home phase",
        ),
        (format!("{BASE} placed=9"), "not of the team forming"),
        (format!("{BASE} placed=2,2"), "names #2 twice"),
        (format!("{BASE} used=3:push"), "no once-per-series ability"),
        (format!("{BASE} used=30:chop"), "names no piece"),
        (format!("{BASE} jammed=3:2"), "0 or 1"),
        (
            format!("{BASE} from=3:h9.c"),
            "belongs to a snap or reaction turn",
        ),
        (format!("{BASE} orders.home=#3_h11.c"), "belongs to a snap"),
        (
            format!("{BASE} phase=snap orders.home=#3_h14.c"),
            "one king step",
        ),
        (
            format!("{BASE} phase=snap orders.home=#9_h12.c"),
            "not one of your pieces",
        ),
        (format!("{BASE} phase=snap orders.home=jump"), "is no order"),
        (
            format!("{BASE} phase=snap committed=home,away"),
            "both teams committed",
        ),
        (
            format!("{BASE} phase=snap pass=1>6"),
            "defence's reaction turn",
        ),
        (
            BASE.replace(" 1 1 1-0", " ? 1 1-0"),
            "holder `?` needs the play action",
        ),
        (
            format!(
                "{} phase=snap fake=1,2 keeper=1",
                BASE.replace(" 1 1 1-0", " ? 1 1-0")
            ),
            "not a heavy type",
        ),
        (
            format!(
                "{} phase=snap fake=1,6",
                BASE.replace(" 1 1 1-0", " ? 1 1-0")
            ),
            "needs keeper=",
        ),
        (
            format!(
                "{} phase=snap fake=1,6 keeper=4",
                BASE.replace(" 1 1 1-0", " ? 1 1-0")
            ),
            "the faking passer or its partner",
        ),
        (
            format!("{BASE} phase=snap fake=1,6 keeper=1"),
            "writes the holder as `?`",
        ),
        (
            format!(
                "{} phase=snap fake=1,6 keeper=? orders.home=#3_h11.c",
                BASE.replace(" 1 1 1-0", " ? 1 1-0")
            ),
            "the offence's orders are unknown too",
        ),
        (
            "-/- home 0 0 0 - 0 0-0 0-0 roster.home=BQQ".to_owned(),
            "at most one qb",
        ),
        (
            "-/- home 0 0 0 - 0 0-0 0-0 committed=away roster.away=BQ".to_owned(),
            "not complete",
        ),
        (
            "-/- home 0 0 0 - 0 0-0 0-0 phase=snap".to_owned(),
            "roster phase",
        ),
        ("-/- home 1 10 14 - 1 1-0 0-0".to_owned(), "roster phase"),
        (
            "-/- home 0 0 0 - 0 0-0 0-0 toss=away".to_owned(),
            "no place in the roster phase",
        ),
    ] {
        let error = refusal(&position);
        assert_eq!(error.kind, RuleErrorKind::InvalidPosition, "{position}");
        assert!(error.message.contains(reason), "{position}: {error}");
    }
}
