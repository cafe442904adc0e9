//! The strong bot: Monte Carlo tree search (UCT) over atomic actions, on a fresh
//! determinization every iteration.
//!
//! Each iteration samples a state consistent with what the searching seat sees
//! ([`Game::sampled_for`]: hidden orders, rosters and ball holders redrawn, dice reseeded), then
//! walks the tree by action: the tree is open-loop, a node is the sequence of actions that led
//! to it, whatever chance or the hidden part did on the way, so one tree gathers what every
//! sample teaches. A node's edges belong to the seat that acted there; several atomic actions in
//! a row by one seat (a multi-action turn, a plan of orders) are simply several levels of it.
//! Where both seats are to act (simultaneous orders) the searching seat acts first in the tree.
//! An edge whose action the current sample does not allow ends the walk there. A playout of a
//! few random actions follows and the heuristic ([`evaluate`]) scores where it stopped.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use pitchmate_rules::{Game, Rng, Seat};

use crate::evaluate::{Weights, evaluate};
use crate::player::Player;

/// How long the search may think about one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Wall-clock time per action.
    pub budget: Duration,
    /// Stops earlier after this many iterations (reproducible searches for tests).
    pub max_iterations: Option<u64>,
}

impl SearchLimits {
    pub fn per_move(budget: Duration) -> Self {
        Self {
            budget,
            max_iterations: None,
        }
    }

    /// Only an iteration cap, no clock: the same seed gives the same choices on any machine.
    pub fn iterations(count: u64) -> Self {
        Self {
            budget: Duration::MAX,
            max_iterations: Some(count),
        }
    }
}

/// How the search plays, per game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    /// UCT's exploration constant.
    pub exploration: f64,
    /// Random actions played past the tree before the evaluation scores the state.
    pub playout_actions: usize,
    /// Whether a node's children are all created and evaluated at its first visit (the best
    /// one backed up), rather than one per visit: fewer iterations, but every level of the
    /// tree starts from a full one-ply look, which pays where a turn is several actions from
    /// a moderate list (Chessyball, XFutebol).
    pub expand_whole_nodes: bool,
    pub weights: Weights,
}

impl SearchSettings {
    pub fn for_variant(id: &str) -> Self {
        Self {
            exploration: 0.2,
            playout_actions: 0,
            expand_whole_nodes: matches!(id, "chessyball" | "xfutebol"),
            weights: Weights::for_variant(id),
        }
    }
}

/// The MCTS player.
pub struct SearchPlayer<G> {
    limits: SearchLimits,
    settings: SearchSettings,
    rng: Rng,
    last_iterations: u64,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> SearchPlayer<G> {
    pub fn new(limits: SearchLimits, seed: u64) -> Self {
        Self::with_settings(limits, SearchSettings::for_variant(G::info().id), seed)
    }

    pub fn with_settings(limits: SearchLimits, settings: SearchSettings, seed: u64) -> Self {
        Self {
            limits,
            settings,
            rng: Rng::new(seed),
            last_iterations: 0,
            game: PhantomData,
        }
    }
}

impl<G: Game> Player<G> for SearchPlayer<G> {
    fn choose(&mut self, game: &G, seat: Seat) -> G::Action {
        let legal = game.legal_actions(seat);
        if legal.len() == 1 {
            self.last_iterations = 0;
            return legal[0].clone();
        }
        let mut tree = Tree::new(seat, legal);
        let started = Instant::now();
        let mut iterations = 0u64;
        while self
            .limits
            .max_iterations
            .is_none_or(|cap| iterations < cap)
            && started.elapsed() < self.limits.budget
        {
            tree.iterate(game, &self.settings, &mut self.rng);
            iterations += 1;
        }
        self.last_iterations = iterations;
        tree.best_root_action()
    }

    fn last_iterations(&self) -> u64 {
        self.last_iterations
    }
}

struct Node<A> {
    edges: Vec<Edge<A>>,
    /// Actions not tried yet from here, listed by the first sample that reached the node;
    /// the next one to try is at the end.
    untried: Option<Vec<A>>,
    visits: u32,
}

struct Edge<A> {
    action: A,
    seat: Seat,
    child: usize,
    visits: u32,
    /// Sum of the results for `seat`, each in `0..=1`.
    reward: f64,
}

struct Tree<G: Game> {
    root_seat: Seat,
    nodes: Vec<Node<G::Action>>,
}

impl<G: Game> Tree<G> {
    fn new(root_seat: Seat, mut root_actions: Vec<G::Action>) -> Self {
        // The root's actions are the same in every sample; the last listed is tried first.
        root_actions.reverse();
        Self {
            root_seat,
            nodes: vec![Node {
                edges: Vec::new(),
                untried: Some(root_actions),
                visits: 0,
            }],
        }
    }

    /// The seat whose action a node of `state` is about.
    fn actor(&self, state: &G) -> Option<Seat> {
        let to_act = state.turn().to_act;
        if to_act.contains(&self.root_seat) {
            Some(self.root_seat)
        } else {
            to_act.first().copied()
        }
    }

    fn iterate(&mut self, game: &G, settings: &SearchSettings, rng: &mut Rng) {
        let mut state = game.sampled_for(self.root_seat, rng);
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut node = 0;
        while state.outcome().is_none() {
            let Some(actor) = self.actor(&state) else {
                break;
            };
            if self.nodes[node].untried.is_none() {
                let mut actions = state.legal_actions(actor);
                if settings.expand_whole_nodes {
                    let best = self.expand_whole(node, &state, actor, actions, settings);
                    let first_seat_result = if actor == Seat(0) { best } else { 1.0 - best };
                    self.back_up(path, first_seat_result);
                    return;
                }
                shuffle(&mut actions, rng);
                self.nodes[node].untried = Some(actions);
            }
            if let Some(action) = self.nodes[node].untried.as_mut().and_then(Vec::pop) {
                if state.apply(actor, &action).is_err() {
                    break;
                }
                let child = self.nodes.len();
                self.nodes.push(Node {
                    edges: Vec::new(),
                    untried: None,
                    visits: 0,
                });
                self.nodes[node].edges.push(Edge {
                    action,
                    seat: actor,
                    child,
                    visits: 0,
                    reward: 0.0,
                });
                path.push((node, self.nodes[node].edges.len() - 1));
                break;
            }
            let Some(edge) = self.select(node, actor, settings.exploration) else {
                break;
            };
            if state
                .apply(actor, &self.nodes[node].edges[edge].action)
                .is_err()
            {
                break;
            }
            path.push((node, edge));
            node = self.nodes[node].edges[edge].child;
        }
        for _ in 0..settings.playout_actions {
            if state.outcome().is_some() {
                break;
            }
            let to_act = state.turn().to_act;
            let seat = *rng.pick(&to_act);
            let legal = state.legal_actions(seat);
            let action = rng.pick(&legal).clone();
            state
                .apply(seat, &action)
                .expect("a listed legal action must apply");
        }
        let first_seat_result = evaluate(&state, Seat(0), &settings.weights);
        self.back_up(path, first_seat_result);
    }

    /// Creates every child of `node` at once, each scored by the evaluation as if visited
    /// once, and returns the best score for `actor`.
    fn expand_whole(
        &mut self,
        node: usize,
        state: &G,
        actor: Seat,
        actions: Vec<G::Action>,
        settings: &SearchSettings,
    ) -> f64 {
        let mut best = 0.0f64;
        for action in actions {
            let mut next = state.clone();
            if next.apply(actor, &action).is_err() {
                continue;
            }
            let value = evaluate(&next, actor, &settings.weights);
            best = best.max(value);
            let child = self.nodes.len();
            self.nodes.push(Node {
                edges: Vec::new(),
                untried: None,
                visits: 1,
            });
            self.nodes[node].edges.push(Edge {
                action,
                seat: actor,
                child,
                visits: 1,
                reward: value,
            });
        }
        self.nodes[node].untried = Some(Vec::new());
        best
    }

    /// Adds one iteration's result (for the first seat) along `path`.
    fn back_up(&mut self, path: Vec<(usize, usize)>, first_seat_result: f64) {
        self.nodes[0].visits += 1;
        for (node, edge) in path {
            let edge = &mut self.nodes[node].edges[edge];
            edge.visits += 1;
            edge.reward += if edge.seat == Seat(0) {
                first_seat_result
            } else {
                1.0 - first_seat_result
            };
            let child = edge.child;
            self.nodes[child].visits += 1;
        }
    }

    /// UCT among the edges `actor` owns at `node`.
    fn select(&self, node: usize, actor: Seat, exploration: f64) -> Option<usize> {
        let node = &self.nodes[node];
        let log_visits = f64::from(node.visits.max(1)).ln();
        node.edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.seat == actor)
            .map(|(i, e)| {
                let visits = f64::from(e.visits.max(1));
                let score = e.reward / visits + exploration * (log_visits / visits).sqrt();
                (i, score)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// The root action visited most, ties to the better mean.
    fn best_root_action(&self) -> G::Action {
        let root = &self.nodes[0];
        let best = root
            .edges
            .iter()
            .filter(|e| e.seat == self.root_seat)
            .max_by(|a, b| {
                let mean = |e: &Edge<G::Action>| e.reward / f64::from(e.visits.max(1));
                a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b)))
            });
        match best {
            Some(edge) => edge.action.clone(),
            None => root
                .untried
                .as_ref()
                .and_then(|u| u.last())
                .cloned()
                .expect("the root has legal actions"),
        }
    }
}

fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}
