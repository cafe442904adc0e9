//! The strong bot over the network: the SDK's [`Bot`] around a [`SearchPlayer`].
//!
//! The server shows a seat the whole state as that seat may see it (`MatchView.position`, the
//! variant's position notation; in Gridiron the other team's hidden choices are written as
//! unknown). Each choice rebuilds the engine from that position and the options the match was
//! created with, and searches on it; the search draws what the seat cannot see afresh for every
//! sample, so the bot knows exactly what its seat knows.

use std::collections::BTreeMap;

use pitchmate_client::{Bot, Choice, RandomChoice, pb};
use pitchmate_games::option_from_proto;
use pitchmate_rules::chessyball::Chessyball;
use pitchmate_rules::gridiron::Gridiron;
use pitchmate_rules::kings_goal::KingsGoal;
use pitchmate_rules::soccer_chess::SoccerChess;
use pitchmate_rules::xfutebol::XFutebol;
use pitchmate_rules::{Game, OptionValue, Rng, Seat, Seed};
use tokio::runtime::{Handle, RuntimeFlavor};

use crate::player::Player;
use crate::search::{SearchLimits, SearchPlayer};

/// The strong bot as a network player.
///
/// When it cannot use its engine (a variant it does not know, a position it cannot read, a
/// choice the server does not list) it says so in the log and picks at random for that turn
/// rather than leave the match: a seat that stops acting loses on time.
pub struct SearchBot {
    limits: SearchLimits,
    seed: u64,
    engine: Result<Box<dyn Engine>, String>,
    fallback: RandomChoice,
    at_random: u64,
}

impl SearchBot {
    /// A bot that thinks within `limits` per action, its samples drawn from `seed`.
    pub fn new(limits: SearchLimits, seed: u64) -> Self {
        Self {
            limits,
            seed,
            engine: Err("the match was not handed to the bot".to_owned()),
            fallback: RandomChoice::seeded(seed),
            at_random: 0,
        }
    }

    /// How many choices were made at random because the engine could not be used.
    pub fn choices_at_random(&self) -> u64 {
        self.at_random
    }

    fn at_random(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction], why: &str) -> Choice {
        tracing::warn!(seat = %view.viewer_seat, version = view.version, "{why}; choosing at random");
        self.at_random += 1;
        self.fallback.choose(view, legal)
    }
}

impl Bot for SearchBot {
    fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
        let chosen = match &mut self.engine {
            Ok(engine) => thinking(|| engine.choose(view)),
            Err(why) => Err(why.clone()),
        };
        match chosen {
            Ok(notation) => match legal.iter().find(|action| action.notation == notation) {
                Some(action) => Choice::Index(action.index),
                None => {
                    let why =
                        format!("the engine chose {notation:?}, which the server does not list");
                    self.at_random(view, legal, &why)
                }
            },
            Err(why) => self.at_random(view, legal, &why),
        }
    }

    fn needs_match(&self) -> bool {
        true
    }

    fn begin(&mut self, game: &pb::Match) {
        self.engine = engine_for(game, self.limits, self.seed);
        if let Err(why) = &self.engine {
            tracing::warn!(match_id = %game.match_id, "{why}; this match is played at random");
        }
    }

    /// It answers with an index, found by the notation.
    fn action_detail(&self) -> pb::ActionDetail {
        pb::ActionDetail::Notation
    }
}

/// Runs a search without holding up the other tasks of a multi-threaded runtime (a league bot
/// plays many matches at once); on any other thread it simply runs.
fn thinking<T>(search: impl FnOnce() -> T) -> T {
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(search)
        }
        _ => search(),
    }
}

/// A search for one variant: the view in, the chosen action's notation out.
trait Engine: Send {
    fn choose(&mut self, view: &pb::MatchView) -> Result<String, String>;
}

struct Searcher<G> {
    options: BTreeMap<String, OptionValue>,
    player: SearchPlayer<G>,
    /// Seeds the rebuilt games' chance; the search reseeds it for every sample anyway.
    rng: Rng,
}

impl<G: Game> Engine for Searcher<G> {
    fn choose(&mut self, view: &pb::MatchView) -> Result<String, String> {
        let info = G::info();
        let seat = info
            .seats
            .iter()
            .position(|name| *name == view.viewer_seat)
            .ok_or_else(|| format!("the view is not a seat's (seat {:?})", view.viewer_seat))?;
        let seat = Seat(seat as u8);
        let seed = Seed::from_number(self.rng.next_u64());
        let game = pitchmate_rules::start::<G>(&self.options, seed, Some(view.position.clone()))
            .map_err(|error| format!("cannot read the position {:?}: {error}", view.position))?;
        if game.legal_actions(seat).is_empty() {
            return Err(format!(
                "the position {:?} leaves {} nothing to do",
                view.position, view.viewer_seat
            ));
        }
        let action = self.player.choose(&game, seat);
        Ok(game.format_action(seat, &action))
    }
}

fn engine_for(
    game: &pb::Match,
    limits: SearchLimits,
    seed: u64,
) -> Result<Box<dyn Engine>, String> {
    let options = game
        .options
        .iter()
        .map(|(name, value)| Ok((name.clone(), option_from_proto(name, value)?)))
        .collect::<Result<BTreeMap<_, _>, pitchmate_games::GameError>>()
        .map_err(|error| format!("the match's options: {error}"))?;
    let variant = game.variant_id.as_str();
    let engine = if variant == SoccerChess::info().id {
        searcher::<SoccerChess>(options, limits, seed)
    } else if variant == Chessyball::info().id {
        searcher::<Chessyball>(options, limits, seed)
    } else if variant == KingsGoal::info().id {
        searcher::<KingsGoal>(options, limits, seed)
    } else if variant == XFutebol::info().id {
        searcher::<XFutebol>(options, limits, seed)
    } else if variant == Gridiron::info().id {
        searcher::<Gridiron>(options, limits, seed)
    } else {
        return Err(format!("no engine for the variant {variant:?}"));
    };
    Ok(engine)
}

fn searcher<G: Game>(
    options: BTreeMap<String, OptionValue>,
    limits: SearchLimits,
    seed: u64,
) -> Box<dyn Engine> {
    Box::new(Searcher::<G> {
        options,
        player: SearchPlayer::new(limits, seed),
        rng: Rng::new(seed ^ 0x5EED),
    })
}
