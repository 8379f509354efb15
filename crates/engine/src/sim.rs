//! The driver: the clock, the cost model's generator, the scheduler and the event
//! output around the world. It picks who runs next (virtual time, or any enabled session
//! in untimed mode) and hands each step to `exec`.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sql::ast::Script;

use crate::error::SqlError;
use crate::event::TraceEntry;
use crate::exec::{Exec, Output, Rules, Sink};
use crate::outcome::{Outcome, SessionOutcome};
use crate::schedule::{Mode, Policy, Schedule, ScheduleError, SchedulePolicy, Scheduler};
use crate::state::session::{ClientSettings, State};
use crate::state::World;
use crate::state::MAX_STATEMENTS_PER_SESSION;

/// SQL Server's deadlock monitor wakes every 5 s (semantics.md A8).
const DEADLOCK_MONITOR_US: u64 = 5_000_000;
/// Virtual time after which a run is cut off (a session waiting forever, say).
pub const MAX_VIRTUAL_US: u64 = 3_600_000_000;
/// Steps after which a run is cut off, whatever its sessions do.
pub const MAX_STEPS: u64 = 5_000_000;

/// Room for a traced run's events, reserved up front (32 768 entries, 4.5 MiB): a trace
/// grown by doubling copies itself a dozen times, and the claim race's 18 946 events
/// cost about 4 % of its run that way. Untouched room costs address space, not memory.
const TRACE_RESERVE: usize = 1 << 15;

/// What the timed clock does next.
enum Next {
    /// Sessions are due at this instant (listed in the buffer `next_timed` was given).
    Sessions(u64),
    /// The deadlock monitor wakes first.
    Monitor(u64),
    /// The next thing due is past the time limit.
    CutOff,
    Done,
}

/// The simulation: the world (tables, sessions, locks), the clock, the cost model and the
/// scheduler. `Clone` is cheap: parsed scripts are shared, and events leave it after each
/// step (the caller keeps the trace).
#[derive(Clone)]
pub struct Simulation {
    pub(crate) world: World,
    /// The cost model's generator (statement costs, slow flushes, NEWID()).
    rng: ChaCha8Rng,
    pub(crate) rules: &'static dyn Rules,
    /// The parser's dialect, for queries on the state.
    pub(crate) parser: sql::Dialect,
    out: Output,
    policy: Policy,
    mode: Mode,
    /// Choices made at choice points so far.
    recorded: Vec<usize>,
    /// The sessions due next, a buffer each timed step reuses (no allocation per step).
    due: Vec<usize>,
    steps: u64,
    /// The run is cut off after this many steps ([`MAX_STEPS`] unless lowered).
    max_steps: u64,
    seed: u64,
}

/// Budgets of one run, at most the defaults: a fuzzer or a preview runs many small
/// simulations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Steps of the whole run ([`MAX_STEPS`]).
    pub steps: u64,
    /// Statements per session, setup included ([`MAX_STATEMENTS_PER_SESSION`]).
    pub statements: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: MAX_STEPS,
            statements: MAX_STATEMENTS_PER_SESSION,
        }
    }
}

/// A session's script as `Simulation::build` takes it: name, start, parsed script, its
/// text, and what its client commands asked for.
pub(crate) type SessionScript = (String, u64, Script, std::rc::Rc<str>, ClientSettings);

impl Simulation {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build(
        (setup, setup_settings): (Script, ClientSettings),
        setup_text: &str,
        sessions: Vec<SessionScript>,
        seed: u64,
        rules: &'static dyn Rules,
        parser: sql::Dialect,
        limits: Limits,
    ) -> Result<Simulation, (usize, SqlError)> {
        // The error is the setup's first, with the byte offset of its statement.
        let mut sim = Simulation {
            world: World::new(setup_text),
            rng: ChaCha8Rng::seed_from_u64(seed),
            rules,
            parser,
            out: Output::default(),
            policy: Policy::new(SchedulePolicy::Random, seed),
            mode: Mode::Timed,
            recorded: Vec::new(),
            due: Vec::new(),
            steps: 0,
            max_steps: limits.steps.min(MAX_STEPS),
            seed,
        };
        sim.world.max_statements = limits.statements.min(MAX_STATEMENTS_PER_SESSION);
        sim.world.resource_words = rules.resource_words();
        // Setup runs alone, untraced, as session index 0 of a throwaway list.
        let text = sim.world.setup_text.clone();
        let mut setup_session = sim.exec().new_session("setup".into(), 0, setup, text, 0);
        setup_session.apply_settings(setup_settings);
        sim.world.sessions.push(setup_session);
        let mut statements = 0u64;
        while !matches!(sim.world.sessions[0].state, State::Finished) {
            sim.exec().advance_session(0);
            statements = sim.world.sessions[0].executed;
            if statements > sim.world.max_statements {
                break;
            }
        }
        if let Some(e) = sim.world.sessions[0].errors.first() {
            let mut err = SqlError::generic(e.number, e.severity, e.message.clone());
            if let Some(code) = e.sqlstate {
                err = err.with_sqlstate(code);
            }
            return Err((sim.world.sessions[0].first_error_at.unwrap_or(0), err));
        }
        let setup = sim.world.sessions.pop();
        drop(setup);
        sim.world.origin = sim.world.now;
        // Setup's statements take no virtual time, so a slow flush among its commits
        // would still hold the log when the sessions start: a 20 000-row setup left
        // every run's first commit waiting up to 40 ms. Its data was loaded long before
        // the run; the log is idle again.
        sim.world.log_stall_until = sim.world.now;
        sim.world.tracing = true;
        let tables = sim.world.db.tables.len();
        sim.exec()
            .push(crate::event::Event::SetupFinished { statements, tables });
        for (i, (name, start_us, script, text, settings)) in sessions.into_iter().enumerate() {
            let mut s = sim.exec().new_session(name, start_us, script, text, i);
            s.apply_settings(settings);
            sim.world.sessions.push(s);
        }
        Ok(sim)
    }

    /// The world and the rest of what a step needs, borrowed for one step.
    pub(crate) fn exec(&mut self) -> Exec<'_> {
        crate::value::use_collation(self.rules.collation());
        Exec {
            w: &mut self.world,
            rng: &mut self.rng,
            out: &mut self.out,
            rules: self.rules,
        }
    }

    /// Replaces the scheduler (before the first step).
    pub fn set_schedule(&mut self, policy: SchedulePolicy) {
        self.policy = Policy::new(policy, self.seed);
    }

    /// Timed (the default) or untimed (before the first step).
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// What happens to events from now on.
    pub fn set_sink(&mut self, sink: Sink) {
        self.out.sink = sink;
        if sink != Sink::Full {
            self.out.events.clear();
        }
    }

    /// The choices this run has made so far; replaying them (`Schedule::policy`, same
    /// scenario, seed and mode) reproduces the trace.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            mode: self.mode,
            choices: self.recorded.clone(),
        }
    }

    /// The events of the last step (empty unless the sink is [`Sink::Full`]).
    pub fn events(&self) -> &[TraceEntry] {
        &self.out.events
    }

    /// Takes the events of the last step out (leaving none).
    pub fn take_events(&mut self) -> Vec<TraceEntry> {
        std::mem::take(&mut self.out.events)
    }

    /// Moves the events of the last step to the end of `to`, keeping the simulation's
    /// buffer for the next step (no allocation per step, unlike [`Self::take_events`]).
    pub fn append_events(&mut self, to: &mut Vec<TraceEntry>) {
        to.append(&mut self.out.events);
    }

    /// Events so far (not counted with [`Sink::Nothing`]).
    pub fn event_count(&self) -> u64 {
        self.out.count
    }

    /// Runs one step: in timed mode the session due next (ties broken by the scheduler)
    /// runs one statement, or a lock wait times out, or the deadlock monitor wakes; in
    /// untimed mode the scheduler picks any enabled session. Returns false when every
    /// session has finished, or when a scripted pick is not enabled (see
    /// [`Self::try_step`], which says so).
    pub fn step(&mut self) -> bool {
        self.try_step().unwrap_or(false)
    }

    /// [`Self::step`], with the error of a scripted pick that is not enabled.
    pub fn try_step(&mut self) -> Result<bool, ScheduleError> {
        // The built-in policy is taken out for the step, so `choose` can borrow both.
        let mut policy = std::mem::replace(&mut self.policy, Policy::RoundRobin { next: 0 });
        let stepped = self.step_with(&mut policy);
        self.policy = policy;
        stepped
    }

    /// [`Self::try_step`] with another scheduler for this step's choice point, if any
    /// (explore mode's search, a learner's clicks). The pick is recorded as usual.
    pub fn step_with(&mut self, scheduler: &mut dyn Scheduler) -> Result<bool, ScheduleError> {
        if !self.out.keep {
            self.out.events.clear();
        }
        self.steps += 1;
        if self.steps > self.max_steps && !self.world.is_finished() {
            let max = self.max_steps;
            self.cut_off_with(&format!(
                "simulation stopped this session: the run took more than {max} steps (a loop that never ends?)"
            ));
            return Ok(false);
        }
        match self.mode {
            Mode::Timed => match self.next_timed_into() {
                Next::Done => {
                    if !self.world.is_finished() {
                        self.cut_off_stuck();
                    }
                    return Ok(false);
                }
                Next::CutOff => {
                    self.cut_off();
                    return Ok(false);
                }
                Next::Monitor(m) => {
                    self.due.clear();
                    self.world.now = m;
                    match self.rules.deadlock_timeout_us() {
                        None => self.exec().deadlock_monitor(),
                        Some(d) => {
                            let due: Vec<usize> = (0..self.world.sessions.len())
                                .filter(|&i| {
                                    matches!(self.world.sessions[i].state,
                                        State::Blocked { since, .. } if since + d == m)
                                })
                                .collect();
                            self.exec().deadlock_checks(&due);
                        }
                    }
                    return Ok(true);
                }
                Next::Sessions(t) => {
                    let mut ties = std::mem::take(&mut self.due);
                    let pick = self.choose(scheduler, &ties);
                    // Left empty: a clone of the simulation copies no list.
                    ties.clear();
                    self.due = ties;
                    let pick = pick?;
                    self.world.now = t;
                    self.exec().advance_session(pick);
                }
            },
            Mode::Untimed => {
                let enabled = self.untimed_enabled();
                if enabled.is_empty() {
                    return Ok(self.untimed_timer());
                }
                let pick = self.choose(scheduler, &enabled)?;
                self.advance_untimed(pick);
            }
        }
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(true)
    }

    /// The sessions that can run their next statement now: in timed mode those due at the
    /// earliest instant (empty when a timer is due first: the deadlock monitor), in untimed
    /// mode every session that has not finished and is not waiting. Ascending.
    pub fn enabled(&self) -> Vec<usize> {
        match self.mode {
            Mode::Timed => {
                let mut ties = Vec::new();
                match self.next_timed(&mut ties) {
                    Next::Sessions(_) => ties,
                    _ => Vec::new(),
                }
            }
            Mode::Untimed => self.untimed_enabled(),
        }
    }

    /// Runs session `i`'s next statement (it must be enabled) and reports what the step
    /// touched. When `enabled()` is empty and the run is not over, [`Self::step`] runs the
    /// timer that is due instead.
    pub fn step_session(&mut self, i: usize) -> Result<crate::footprint::Footprint, ScheduleError> {
        let enabled = self.enabled();
        if !enabled.contains(&i) {
            return Err(self.schedule_error(i, &enabled, self.recorded.len() + 1));
        }
        self.out.events.clear();
        self.steps += 1;
        if enabled.len() > 1 {
            self.recorded.push(i);
        }
        let probe = crate::footprint::Probe::begin(&self.world, &mut self.out, i);
        match self.mode {
            Mode::Timed => {
                if let Next::Sessions(t) = self.next_timed_into() {
                    self.world.now = t;
                }
                self.due.clear();
                self.exec().advance_session(i);
            }
            Mode::Untimed => self.advance_untimed(i),
        }
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(probe.end(&self.world, &mut self.out))
    }

    /// Steps until the end and returns the whole trace (the events the simulation held
    /// when it was made included).
    pub fn run_traced(&mut self) -> Result<crate::event::Trace, ScheduleError> {
        self.out.keep = true;
        self.out.events.reserve(TRACE_RESERVE);
        let ran = loop {
            match self.try_step() {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        self.out.keep = false;
        let mut entries = std::mem::take(&mut self.out.events);
        if entries.len() < TRACE_RESERVE / 4 {
            // A short trace gives the room back (a cheap copy); a long one keeps it.
            entries.shrink_to_fit();
        }
        ran.map(|()| crate::event::Trace { entries })
    }

    /// [`Self::next_timed`] into the simulation's own buffer of due sessions (the caller
    /// empties it after use, so a clone copies no list).
    fn next_timed_into(&mut self) -> Next {
        let mut ties = std::mem::take(&mut self.due);
        let next = self.next_timed(&mut ties);
        self.due = ties;
        next
    }

    /// What is due next; the sessions due at that instant go into `ties` (cleared first).
    fn next_timed(&self, ties: &mut Vec<usize>) -> Next {
        let mut earliest: Option<u64> = None;
        ties.clear();
        let mut any_blocked = false;
        for (i, s) in self.world.sessions.iter().enumerate() {
            let t = match &s.state {
                State::NotStarted => Some(self.world.origin + s.start_us),
                State::Ready => Some(s.ready_at),
                State::Busy { until, .. } => Some(*until),
                State::Blocked { timeout_at, .. } => {
                    any_blocked = true;
                    *timeout_at
                }
                State::Delayed { .. } => None,
                State::Finished => None,
            };
            if let Some(t) = t.map(|t| t.max(self.world.now)) {
                match earliest {
                    Some(e) if e < t => {}
                    Some(e) if e == t => ties.push(i),
                    _ => {
                        earliest = Some(t);
                        ties.clear();
                        ties.push(i);
                    }
                }
            }
        }
        let monitor = match self.rules.deadlock_timeout_us() {
            // A wait just after a detection searches at once.
            None if any_blocked && self.world.search_at == Some(self.world.now) => {
                Some(self.world.now)
            }
            None => any_blocked.then(|| {
                let rel = self.world.now - self.world.origin;
                self.world.origin + (rel / DEADLOCK_MONITOR_US + 1) * DEADLOCK_MONITOR_US
            }),
            // Each waiter's one check, still to come.
            Some(d) => self
                .world
                .sessions
                .iter()
                .filter_map(|s| match s.state {
                    State::Blocked { since, .. } => Some(since + d),
                    _ => None,
                })
                .filter(|&t| t > self.world.now)
                .min(),
        };
        // The time limit first: a long WAITFOR must not run the monitor past it.
        let first = match (earliest, monitor) {
            (None, None) => return Next::Done,
            (Some(e), Some(m)) => e.min(m),
            (Some(t), None) | (None, Some(t)) => t,
        };
        if first - self.world.origin > MAX_VIRTUAL_US {
            return Next::CutOff;
        }
        match (earliest, monitor) {
            (Some(e), Some(m)) if m >= e => Next::Sessions(e),
            (Some(e), None) => Next::Sessions(e),
            (_, Some(m)) => Next::Monitor(m),
            (None, None) => Next::Done,
        }
    }

    fn untimed_enabled(&self) -> Vec<usize> {
        (0..self.world.sessions.len())
            .filter(|&i| {
                matches!(
                    self.world.sessions[i].state,
                    State::NotStarted | State::Ready | State::Busy { .. }
                )
            })
            .collect()
    }

    /// Untimed: session `i` runs now; the clock only moves forward (to when its statement
    /// would have ended, if that is later), so WAITFOR is a yield.
    fn advance_untimed(&mut self, i: usize) {
        let due = match &self.world.sessions[i].state {
            State::NotStarted => self.world.now,
            State::Ready => self.world.sessions[i].ready_at,
            State::Busy { until, .. } => *until,
            _ => self.world.now,
        };
        self.world.now = self.world.now.max(due);
        if let State::Busy { end, .. } = self.world.sessions[i].state.clone() {
            // Ends early (a sleep is cut short): the clock stays where it is.
            self.world.sessions[i].state = State::Busy {
                until: self.world.now,
                end,
            };
        }
        self.exec().advance_session(i);
        if self
            .world
            .sessions
            .iter()
            .any(|s| matches!(s.state, State::Blocked { .. }))
        {
            // Without time, a deadlock is found as soon as it forms.
            self.exec().deadlock_monitor();
        }
    }

    /// Untimed, nobody enabled: a lock wait times out (the earliest), or the run is over.
    fn untimed_timer(&mut self) -> bool {
        let next_timeout = self
            .world
            .sessions
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.state {
                State::Blocked {
                    timeout_at: Some(t),
                    ..
                } => Some((t, i)),
                _ => None,
            })
            .min();
        if let Some((t, i)) = next_timeout {
            self.world.now = self.world.now.max(t);
            self.exec().advance_session(i);
            return true;
        }
        if self.world.is_finished() {
            return false;
        }
        // Every session left waits for something no other session can give.
        self.cut_off_with("no session can run: every one left waits for a lock or a row that nothing will release");
        false
    }

    fn schedule_error(&self, wanted: usize, enabled: &[usize], choice: usize) -> ScheduleError {
        ScheduleError {
            choice,
            wanted,
            wanted_name: self.world.sessions.get(wanted).map(|s| s.name.to_string()),
            enabled: enabled
                .iter()
                .map(|&s| self.world.sessions[s].name.to_string())
                .collect(),
        }
    }

    /// After every step in debug builds: no incompatible locks granted, every wait is
    /// queued in the lock manager with a blocker, every blocked session has that wait.
    #[cfg(debug_assertions)]
    fn check_invariants(&self) {
        if let Err(e) = self.world.locks.check_invariants() {
            panic!(
                "lock manager invariant broken at {} µs: {e}",
                self.world.now_us()
            );
        }
        for s in &self.world.sessions {
            if let State::Blocked { .. } = s.state {
                let queued = s.waiting_as.and_then(|o| self.world.locks.waiting(o));
                assert!(
                    queued.is_some(),
                    "{} is blocked without a queued lock request",
                    s.name
                );
            }
        }
    }

    /// The scheduler's pick among `ties`; a choice point (two or more) is recorded.
    fn choose(
        &mut self,
        scheduler: &mut dyn Scheduler,
        ties: &[usize],
    ) -> Result<usize, ScheduleError> {
        if ties.len() == 1 {
            return Ok(ties[0]);
        }
        let choice = self.recorded.len() + 1;
        match scheduler.pick(ties) {
            Some(pick) if ties.contains(&pick) => {
                self.recorded.push(pick);
                Ok(pick)
            }
            Some(pick) => Err(self.schedule_error(pick, ties, choice)),
            None => Err(self.schedule_error(usize::MAX, ties, choice)),
        }
    }

    /// Ends a run that went past [`MAX_VIRTUAL_US`]: every unfinished session fails.
    fn cut_off(&mut self) {
        self.cut_off_with(&format!(
            "simulation stopped after {} s of virtual time with this session still running",
            MAX_VIRTUAL_US / 1_000_000
        ));
    }

    /// Nothing is left to happen, yet sessions are unfinished: consumes waiting for a row
    /// no session can add, or waits that no release or deadlock check will end.
    fn cut_off_stuck(&mut self) {
        self.cut_off_by(|state| match state {
            State::Delayed { .. } => "simulation stopped this session: its consume stays delayed, and no session is left that could add a row to the queue",
            _ => "simulation stopped this session: it waits for a lock that no session will release, and no deadlock check ends the wait",
        });
    }

    /// Ends the run: every unfinished session fails with `why`.
    fn cut_off_with(&mut self, why: &str) {
        self.cut_off_by(|_| why);
    }

    /// Ends the run: every unfinished session fails with the words for its state.
    fn cut_off_by<'w>(&mut self, why: impl Fn(&State) -> &'w str) {
        for i in 0..self.world.sessions.len() {
            let state = &self.world.sessions[i].state;
            if !matches!(state, State::Finished) {
                let e = SqlError::generic(0, 16, why(state).to_string());
                self.exec().record_error(i, &e, false);
                self.exec().finish_session(i);
            }
        }
    }

    pub fn outcome(&self) -> Outcome {
        Outcome {
            end_us: self.world.now_us(),
            sessions: (self.world.sessions.iter())
                .map(|s| SessionOutcome {
                    results: s.results.to_vec(),
                    errors: s.errors.to_vec(),
                    ..s.out.clone()
                })
                .collect(),
        }
    }

    pub fn is_finished(&self) -> bool {
        self.world.is_finished()
    }

    /// Steps taken so far, counted against [`Limits::steps`].
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Virtual time relative to the end of setup.
    pub fn now_us(&self) -> u64 {
        self.world.now_us()
    }
}
