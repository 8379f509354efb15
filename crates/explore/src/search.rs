//! The search: depth first over untimed interleavings, deepened round by round, with
//! visited-state pruning and sleep sets, then random walks when the state budget runs
//! out, a slice at a time.

use std::collections::{BTreeMap, BTreeSet};

use engine::{Footprint, Mode, Simulation, Sink};
use lesson::{Applied, Property};

use crate::path::{self, Counterexample, Stepped, Word};
use crate::ExploreError;

/// Bounds and switches of a search.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Steps of one interleaving (statements and the timer's steps) the depth-first
    /// search follows; a longer one is cut there, and the search is not exhaustive.
    pub max_steps: usize,
    /// Distinct states the depth-first search may visit; past it, random walks.
    pub max_states: usize,
    /// Sleep sets: an order of independent steps (footprints that do not meet) already
    /// tried from a state is not tried again from its successors.
    pub sleep_sets: bool,
    /// A state already explored (equal fingerprint, reached in no fewer steps) is not
    /// explored again.
    pub prune_visited: bool,
    /// Random walks from the start, to the end of the run, once the state budget is
    /// spent without a counterexample.
    pub walks: u64,
    /// Seed of the walks' choices.
    pub walk_seed: u64,
    /// How the counterexample's steps word the trace's events.
    pub word: Word,
}

/// Equal when the searches are: how steps are worded does not change what is found.
impl PartialEq for Options {
    fn eq(&self, other: &Self) -> bool {
        let bounds = |o: &Options| {
            (
                o.max_steps,
                o.max_states,
                o.sleep_sets,
                o.prune_visited,
                o.walks,
                o.walk_seed,
            )
        };
        bounds(self) == bounds(other)
    }
}

impl Eq for Options {}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_steps: 400,
            max_states: 200_000,
            sleep_sets: true,
            prune_visited: true,
            walks: 200,
            walk_seed: 0,
            word: crate::path::english,
        }
    }
}

/// How far a search has got. The figures of a finished search are its report's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Distinct states reached (by fingerprint; every node of the search tree when
    /// `prune_visited` is off).
    pub states: u64,
    /// Steps the search ran (each from a clone of the state before it).
    pub transitions: u64,
    /// Interleavings to the end of the run the depth-first search covered: paths from
    /// the start through the states it explored (with sleep sets, orders of
    /// independent steps count once).
    pub schedules: u64,
    /// Steps from the start to the state being explored, and the most so far.
    pub depth: usize,
    pub max_depth: usize,
    /// Random walks run.
    pub walks: u64,
    /// No bound has cut the search so far.
    pub exhaustive: bool,
    pub done: bool,
}

#[derive(Clone, Debug, PartialEq)]
// One per search: its size does not matter, and boxing would change every match on it.
#[allow(clippy::large_enum_variant)]
pub enum Verdict {
    /// No state reached breaks the property; exhaustive when `Progress::exhaustive`.
    Holds,
    Violated(Counterexample),
}

/// The answer of a finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub property: Property,
    pub verdict: Verdict,
    pub progress: Progress,
    pub options: Options,
}

impl Report {
    pub fn holds(&self) -> bool {
        self.verdict == Verdict::Holds
    }

    /// No break found, but an `at_end` property was never looked at: no interleaving
    /// the search followed reached the end of the run (each was cut at `max_steps`).
    pub fn unchecked(&self) -> bool {
        self.holds()
            && self.progress.schedules == 0
            && matches!(self.property.kind, lesson::PropertyKind::AtEnd { .. })
    }

    /// Every interleaving within the bounds was covered.
    pub fn exhaustive(&self) -> bool {
        self.progress.exhaustive
    }

    pub fn counterexample(&self) -> Option<&Counterexample> {
        match &self.verdict {
            Verdict::Violated(c) => Some(c),
            Verdict::Holds => None,
        }
    }
}

/// A state on the depth-first stack.
struct Node {
    sim: Simulation,
    fp: u64,
    /// Steps from the start.
    depth: usize,
    /// The session stepped to get here (None for the start).
    via: Option<usize>,
    enabled: Vec<usize>,
    next: usize,
    /// Sessions whose next step need not be tried here, with that step's footprint.
    sleep: Vec<(usize, Footprint)>,
    /// Steps tried from here so far.
    tried: Vec<(usize, Footprint)>,
    paths: u64,
}

/// What the search remembers of an explored state.
struct Visit {
    depth: usize,
    /// The sleep set it was explored with: a later visit with a superset finds nothing new.
    sleep: BTreeSet<usize>,
    paths: u64,
    /// On the stack now (a visit closes a cycle).
    open: bool,
}

enum Phase {
    Dfs,
    Walks {
        sim: Box<Simulation>,
        path: Vec<usize>,
        steps: usize,
    },
    Finish,
    Done(Box<Report>),
}

/// A search for one property; see the crate docs. Drop it to cancel.
pub struct Search {
    property: Property,
    options: Options,
    root: Simulation,
    stack: Vec<Node>,
    visited: BTreeMap<u64, Visit>,
    /// Tree nodes, when states are not pruned.
    nodes: u64,
    progress: Progress,
    /// The best counterexample so far: path and steps.
    best: Option<(Vec<usize>, usize)>,
    phase: Phase,
    rng: u64,
    /// This round's depth: the search deepens iteratively (see [`FIRST_BOUND`]).
    bound: usize,
    /// An interleaving was cut at `bound` this round.
    cut: bool,
}

/// The depth of the first round. A violation is found in the fewest steps there are,
/// so the search first covers the short interleavings, where a race usually shows:
/// the claim race's duplicate needs 16 steps, but depth first down its 500 tasks the
/// search met it only after thousands of states. A round that finds nothing and cut
/// an interleaving is run again twice as deep, up to `Options::max_steps`; the rounds
/// before the last cost at most about as much as the last. The figures reported are
/// the last round's, so a search that ends within a round's depth counts what a
/// single search would.
const FIRST_BOUND: usize = 16;

impl Search {
    /// A search of `property` over the interleavings of `applied` (its settings chosen)
    /// from the setup run with `seed`.
    pub fn new(
        applied: &Applied,
        seed: u64,
        property: Property,
        options: Options,
    ) -> Result<Search, ExploreError> {
        let mut root = Simulation::new(&applied.scenario, seed).map_err(|e| {
            ExploreError::Lesson(applied.locate(e.block, e.line, e.col, &e.message))
        })?;
        root.set_mode(Mode::Untimed);
        root.set_sink(Sink::Nothing);
        let mut search = Search {
            property,
            options,
            stack: Vec::new(),
            visited: BTreeMap::new(),
            nodes: 1,
            progress: Progress {
                states: 1,
                exhaustive: true,
                ..Progress::default()
            },
            best: None,
            phase: Phase::Dfs,
            rng: options.walk_seed ^ 0x9e37_79b9_7f4a_7c15,
            root: root.clone(),
            bound: FIRST_BOUND.min(options.max_steps),
            cut: false,
        };
        if search
            .property
            .violation(&mut root)
            .map_err(ExploreError::Property)?
            .is_some()
        {
            search.best = Some((Vec::new(), 0));
            return Ok(search);
        }
        search.start_round();
        Ok(search)
    }

    /// A round of the depth-first search from the start, to `bound` steps.
    fn start_round(&mut self) {
        let root = self.root.clone();
        let fp = root.fingerprint();
        self.visited.clear();
        self.visited.insert(
            fp,
            Visit {
                depth: 0,
                sleep: BTreeSet::new(),
                paths: 0,
                open: true,
            },
        );
        self.nodes = 1;
        self.progress = Progress {
            states: 1,
            exhaustive: true,
            ..Progress::default()
        };
        self.cut = false;
        self.stack.clear();
        self.stack.push(Node {
            enabled: root.enabled(),
            sim: root,
            fp,
            depth: 0,
            via: None,
            next: 0,
            sleep: Vec::new(),
            tried: Vec::new(),
            paths: 0,
        });
    }

    /// Works for about `budget` steps of the engine (a slice), then returns whether the
    /// search has finished ([`Search::report`] then has the answer).
    pub fn step(&mut self, budget: u64) -> Result<bool, ExploreError> {
        let mut spent = 0;
        while spent < budget {
            match &mut self.phase {
                Phase::Dfs => {
                    if !self.dfs_step()? {
                        self.after_dfs();
                    }
                }
                Phase::Walks { .. } => self.walk_step()?,
                Phase::Finish => {
                    let report = self.finish()?;
                    self.phase = Phase::Done(Box::new(report));
                }
                Phase::Done(_) => return Ok(true),
            }
            spent += 1;
        }
        Ok(matches!(self.phase, Phase::Done(_)))
    }

    /// Runs the search to its end.
    pub fn run(mut self) -> Result<Report, ExploreError> {
        while !self.step(1 << 16)? {}
        match self.phase {
            Phase::Done(report) => Ok(*report),
            _ => unreachable!("step returned true"),
        }
    }

    pub fn progress(&self) -> Progress {
        let mut p = self.progress;
        p.states = if self.options.prune_visited {
            self.visited.len() as u64
        } else {
            self.nodes
        };
        p.depth = self.stack.last().map_or(0, |n| n.depth);
        if let Some(root) = self.stack.first() {
            p.schedules = root.paths;
        }
        p.done = matches!(self.phase, Phase::Done(_));
        p
    }

    /// The answer, once [`Search::step`] has returned true.
    pub fn report(&self) -> Option<&Report> {
        match &self.phase {
            Phase::Done(r) => Some(r),
            _ => None,
        }
    }

    pub fn property(&self) -> &Property {
        &self.property
    }

    /// The steps of the path to the top of the stack, then `last`.
    fn current_path(&self, last: usize) -> Vec<usize> {
        self.stack
            .iter()
            .filter_map(|n| n.via)
            .chain(std::iter::once(last))
            .collect()
    }

    /// One step of the depth-first search: tries the next step from the top state, or
    /// leaves it. False when the search is over.
    fn dfs_step(&mut self) -> Result<bool, ExploreError> {
        let limit = self.best.as_ref().map_or(usize::MAX, |(_, steps)| *steps);
        let Some(top) = self.stack.last_mut() else {
            return Ok(false);
        };
        while top.next < top.enabled.len()
            && top.sleep.iter().any(|(s, _)| *s == top.enabled[top.next])
        {
            top.next += 1;
        }
        if top.next == top.enabled.len() || top.depth >= limit {
            self.pop();
            return Ok(true);
        }
        let pick = top.enabled[top.next];
        top.next += 1;
        let mut sim = top.sim.clone();
        let mut steps = top.depth;
        let stepped = match path::advance(&mut sim, pick, &self.property, &mut steps) {
            Ok(s) => s,
            Err(Some(e)) => return Err(ExploreError::Property(e)),
            // Enabled a moment ago: cannot happen; nothing to explore.
            Err(None) => return Ok(true),
        };
        self.progress.transitions += 1;
        let Stepped {
            footprint,
            timer,
            violation,
        } = stepped;
        let sleep: Vec<(usize, Footprint)> = if self.options.sleep_sets && !timer {
            top.sleep
                .iter()
                .chain(&top.tried)
                .filter(|(_, f)| f.independent(&footprint))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        top.tried.push((pick, footprint));
        self.progress.max_depth = self.progress.max_depth.max(steps);
        if violation.is_some() {
            let path = self.current_path(pick);
            let better = self
                .best
                .as_ref()
                .is_none_or(|(p, s)| (steps, path::switches(&path)) < (*s, path::switches(p)));
            if better {
                self.best = Some((path, steps));
            }
            return Ok(true);
        }
        let finished = sim.is_finished();
        let cut = !finished && steps >= self.bound;
        if cut {
            self.cut = true;
            // A round's own depth cuts as the best counterexample's length does: a
            // violation found within it is the shortest there is. Only `max_steps`
            // leaves interleavings unsearched.
            if self.bound >= self.options.max_steps {
                self.progress.exhaustive = false;
            }
        }
        let mut sleep = sleep;
        if self.options.prune_visited {
            let fp = sim.fingerprint();
            let ids: BTreeSet<usize> = sleep.iter().map(|(s, _)| *s).collect();
            match self.visited.get_mut(&fp) {
                Some(v) if v.open => return Ok(true),
                Some(v) if v.depth <= steps && v.sleep.is_subset(&ids) => {
                    let paths = v.paths;
                    self.add_paths(paths);
                    return Ok(true);
                }
                Some(v) => {
                    // Reached in fewer steps, or with steps awake that were asleep before:
                    // explore it again, with only what both visits let sleep.
                    sleep.retain(|(s, _)| v.sleep.contains(s));
                    v.depth = v.depth.min(steps);
                    v.sleep = sleep.iter().map(|(s, _)| *s).collect();
                    v.open = !(finished || cut);
                }
                None => {
                    if self.visited.len() >= self.options.max_states {
                        self.progress.exhaustive = false;
                        self.stack.clear();
                        return Ok(false);
                    }
                    self.visited.insert(
                        fp,
                        Visit {
                            depth: steps,
                            sleep: ids,
                            paths: u64::from(finished),
                            open: !(finished || cut),
                        },
                    );
                }
            }
            if finished || cut {
                self.add_paths(u64::from(finished));
                return Ok(true);
            }
            self.push(sim, fp, steps, pick, sleep);
        } else {
            self.nodes += 1;
            if self.nodes as usize > self.options.max_states {
                self.progress.exhaustive = false;
                self.stack.clear();
                return Ok(false);
            }
            if finished || cut {
                self.add_paths(u64::from(finished));
                return Ok(true);
            }
            self.push(sim, 0, steps, pick, sleep);
        }
        Ok(true)
    }

    fn push(
        &mut self,
        sim: Simulation,
        fp: u64,
        depth: usize,
        via: usize,
        sleep: Vec<(usize, Footprint)>,
    ) {
        self.stack.push(Node {
            enabled: sim.enabled(),
            sim,
            fp,
            depth,
            via: Some(via),
            next: 0,
            sleep,
            tried: Vec::new(),
            paths: 0,
        });
    }

    /// Paths to the end found below the top of the stack.
    fn add_paths(&mut self, n: u64) {
        if let Some(top) = self.stack.last_mut() {
            top.paths = top.paths.saturating_add(n);
        }
    }

    fn pop(&mut self) {
        let Some(node) = self.stack.pop() else {
            return;
        };
        if self.options.prune_visited {
            if let Some(v) = self.visited.get_mut(&node.fp) {
                v.paths = node.paths;
                v.open = false;
            }
        }
        match self.stack.last_mut() {
            Some(parent) => parent.paths = parent.paths.saturating_add(node.paths),
            None => self.progress.schedules = node.paths,
        }
    }

    /// The depth-first search is over: walks if it ran out of states without an answer.
    fn after_dfs(&mut self) {
        let budget_spent = self.progress().states as usize >= self.options.max_states;
        if self.best.is_none() && !budget_spent && self.cut && self.bound < self.options.max_steps {
            self.bound = self.bound.saturating_mul(2).min(self.options.max_steps);
            self.start_round();
            return;
        }
        self.phase = if self.best.is_none() && budget_spent && self.options.walks > 0 {
            Phase::Walks {
                sim: Box::new(self.root.clone()),
                path: Vec::new(),
                steps: 0,
            }
        } else {
            Phase::Finish
        };
    }

    /// splitmix64: a small, portable generator for the walks' picks.
    fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// One step of the current random walk.
    fn walk_step(&mut self) -> Result<(), ExploreError> {
        let r = self.next_random();
        let Phase::Walks { sim, path, steps } = &mut self.phase else {
            return Ok(());
        };
        let enabled = sim.enabled();
        if sim.is_finished() || enabled.is_empty() {
            self.progress.walks += 1;
            self.progress.schedules = self.progress.schedules.saturating_add(1);
            if self.progress.walks >= self.options.walks {
                self.phase = Phase::Finish;
            } else {
                **sim = self.root.clone();
                path.clear();
                *steps = 0;
            }
            return Ok(());
        }
        let pick = enabled[(r % enabled.len() as u64) as usize];
        let stepped = match path::advance(sim, pick, &self.property, steps) {
            Ok(s) => s,
            Err(Some(e)) => return Err(ExploreError::Property(e)),
            Err(None) => return Ok(()),
        };
        self.progress.transitions += 1;
        path.push(pick);
        self.progress.max_depth = self.progress.max_depth.max(*steps);
        if stepped.violation.is_some() {
            self.progress.walks += 1;
            self.best = Some((std::mem::take(path), *steps));
            self.phase = Phase::Finish;
        }
        Ok(())
    }

    /// The answer: the best counterexample shrunk and narrated, or "holds".
    fn finish(&mut self) -> Result<Report, ExploreError> {
        let verdict = match self.best.take() {
            None => Verdict::Holds,
            Some((path, steps)) => {
                // Shrinking replays up to O(n²) candidate paths: only for counterexamples a
                // reader follows.
                let (path, _) = if path.len() <= SHRINK_UP_TO {
                    path::shrink(&self.root, path, steps, &self.property)
                        .map_err(ExploreError::Property)?
                } else {
                    (path, steps)
                };
                Verdict::Violated(
                    path::narrate(&self.root, &path, &self.property, self.options.word)
                        .map_err(ExploreError::Property)?,
                )
            }
        };
        self.stack.clear();
        let mut progress = self.progress();
        progress.done = true;
        progress.depth = 0;
        Ok(Report {
            property: self.property.clone(),
            verdict,
            progress,
            options: self.options,
        })
    }
}

/// Counterexamples longer than this are reported as found, unshrunk.
const SHRINK_UP_TO: usize = 64;
