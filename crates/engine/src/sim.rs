//! The discrete-event loop: sessions, the scheduler, transactions and the lock manager's
//! wiring. Statement semantics live in `exec`, `query` and `expr`.

use std::collections::BTreeMap;
use std::rc::Rc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sql::ast::{IsolationLevel, Script, Stmt};

use crate::cost::{slow_flush, statement_cost, CostKind};
use crate::error::{AbortScope, SqlError};
use crate::event::{Event, ReleaseReason};
use crate::locks::{LockManager, LockMode, OwnerId, Request, Resource};
use crate::program::{compile, Code, Instr};
use crate::schedule::{Mode, Policy, Schedule, ScheduleError, SchedulePolicy, Scheduler};
use crate::storage::{RowData, Table, TxnId};
use crate::value::Value;
use crate::{Outcome, ResultSet, SessionOutcome, TraceEntry};

/// A session may run at most this many statements; a loop that never ends stops here.
pub const MAX_STATEMENTS_PER_SESSION: u64 = 500_000;
/// Control instructions (jumps, tests) one step may run before it must reach a statement.
const MAX_INSTRUCTIONS_PER_STEP: u32 = 100_000;
/// SQL Server's deadlock monitor wakes every 5 s (semantics.md A8).
const DEADLOCK_MONITOR_US: u64 = 5_000_000;
/// Virtual time after which a run is cut off (a session waiting forever, say).
pub const MAX_VIRTUAL_US: u64 = 3_600_000_000;

#[derive(Clone)]
pub(crate) struct Db {
    pub tables: crate::storage::Tables,
    pub names: BTreeMap<String, u32>,
    pub procs: BTreeMap<String, Rc<Procedure>>,
    pub rcsi: bool,
    pub allow_snapshot: bool,
    pub commit_seq: u64,
}

impl Db {
    pub fn table_id(&self, name: &str) -> Option<u32> {
        // Names are kept lowercase; most lookups are already, so copy only when not.
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            self.names.get(&name.to_ascii_lowercase()).copied()
        } else {
            self.names.get(name).copied()
        }
    }
}

pub(crate) struct Procedure {
    pub name: String,
    pub params: Vec<sql::ast::Param>,
    pub code: Rc<Code>,
    /// QUOTED_IDENTIFIER as it was when the procedure was created (it sticks to it).
    pub quoted_identifier: bool,
    /// Index of the script (setup = usize::MAX, else session) whose text the spans point into.
    pub source: usize,
}

#[derive(Clone, Debug, Hash)]
pub(crate) struct Options {
    pub isolation: IsolationLevel,
    pub xact_abort: bool,
    pub nocount: bool,
    /// -1 waits forever.
    pub lock_timeout_ms: i64,
    pub quoted_identifier: bool,
    pub deadlock_priority: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            isolation: IsolationLevel::ReadCommitted,
            xact_abort: false,
            nocount: false,
            lock_timeout_ms: -1,
            quoted_identifier: true,
            deadlock_priority: 0,
        }
    }
}

#[derive(Clone)]
pub(crate) struct Txn {
    pub id: TxnId,
    pub explicit: bool,
    pub snapshot_seq: Option<u64>,
    pub undo: Vec<Undo>,
    pub rows_written: u64,
    /// Begun by BEGIN TRAN (kept after COMMIT hands the end to the statement's end).
    pub began_explicit: bool,
    /// Teradata: SELECT AND CONSUME requests so far (T9).
    pub consumes: u32,
}

#[derive(Clone)]
pub(crate) struct Undo {
    pub table: u32,
    pub slot: usize,
    pub prev: Option<(TxnId, RowData)>,
}

#[derive(Clone)]
pub(crate) enum FrameKind {
    Batch,
    Proc {
        name: String,
        return_var: Option<String>,
        outputs: Vec<(String, String)>,
        saved: Options,
    },
}

#[derive(Clone)]
pub(crate) struct Frame {
    pub code: Rc<Code>,
    pub pc: usize,
    pub vars: BTreeMap<String, (sql::ast::DataType, Value)>,
    pub table_vars: BTreeMap<String, Table>,
    /// Active TRY blocks: the CATCH entry point and how many caught errors were current.
    pub tries: Vec<(usize, usize)>,
    /// Errors being handled by enclosing CATCH blocks (ERROR_NUMBER() reads the last).
    pub caught: Vec<SqlError>,
    pub kind: FrameKind,
    pub scope_identity: Option<i64>,
    /// Which script's text the statements' spans point into (usize::MAX = setup).
    pub source: usize,
}

impl Frame {
    pub fn new(code: Rc<Code>, kind: FrameKind, source: usize) -> Frame {
        Frame {
            code,
            pc: 0,
            vars: BTreeMap::new(),
            table_vars: BTreeMap::new(),
            tries: Vec::new(),
            caught: Vec::new(),
            kind,
            scope_identity: None,
            source,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum State {
    NotStarted,
    Ready,
    /// Running a statement (or sleeping in WAITFOR) until `until`.
    Busy {
        until: u64,
        end: Option<PendingEnd>,
    },
    Blocked {
        since: u64,
        timeout_at: Option<u64>,
    },
    /// Teradata: a consume waiting for a row of queue table `table` (no lock held).
    Delayed {
        table: u32,
    },
    Finished,
}

#[derive(Clone, Debug)]
pub(crate) struct PendingEnd {
    pub label: &'static str,
    pub rows: Option<u64>,
    pub reads: u64,
    pub cost_us: u64,
}

#[derive(Clone)]
pub(crate) struct Session {
    pub name: String,
    pub spid: u32,
    pub start_us: u64,
    pub script: Rc<Script>,
    pub source_text: Rc<str>,
    /// Byte offsets of the newlines in `source_text`.
    pub newlines: Rc<[usize]>,
    pub batch: usize,
    pub frames: Vec<Frame>,
    pub state: State,
    pub ready_at: u64,
    pub txn: Option<Txn>,
    pub tran_count: u32,
    pub options: Options,
    pub rowcount: i64,
    pub last_error: i64,
    /// Locks owned by the session itself (sp_getapplock @LockOwner = 'Session').
    pub session_owner: OwnerId,
    pub executed: u64,
    pub out: SessionOutcome,
    /// Transient locks to drop when the current statement ends.
    pub statement_locks: Vec<Resource>,
    /// Undo position at the start of the current statement.
    pub undo_mark: usize,
    /// Locks granted to the current statement (also while it waited), which it may drop
    /// again when the row turns out not to qualify.
    pub fresh_locks: Vec<Resource>,
    /// The next statement to run is one that waited for a lock: the same statement again.
    pub resuming: bool,
    /// The owner (transaction or session) of the pending lock request, while blocked.
    pub waiting_as: Option<OwnerId>,
    /// LOCK_TIMEOUT for the next lock request only (sp_getapplock's @LockTimeout).
    pub timeout_override: Option<i64>,
    /// Blocked in sp_getapplock: a timeout or deadlock becomes its return code.
    pub applock_waiting: bool,
    /// The return code sp_getapplock gives when its statement runs again (-1, -3).
    pub applock_result: Option<i64>,
    /// Teradata session mode (from `.SET SESSION TRANSACTION`).
    pub td_mode: crate::bteq::SessionMode,
    /// Teradata: when the current consume entered the delayed state.
    pub delayed_since: Option<u64>,
    /// BTEQ `.REPEAT n`: batch index → times to run it.
    pub repeat_counts: BTreeMap<usize, u32>,
    /// Runs of the current batch so far under `.REPEAT`.
    pub repeats_done: u32,
    /// The statement running now (or last run): its script and byte range.
    pub current: Option<(crate::view::Source, usize, usize)>,
    /// In WAITFOR until this time (absolute virtual µs).
    pub sleeping_until: Option<u64>,
}

/// What the timed clock does next.
enum Next {
    /// These sessions are due at this instant.
    Sessions(u64, Vec<usize>),
    /// The deadlock monitor wakes first.
    Monitor(u64),
    /// The next thing due is past the time limit.
    CutOff,
    Done,
}

/// Why a statement stopped before it finished.
pub(crate) enum Interrupt {
    Block,
    Error(SqlError),
}

impl From<SqlError> for Interrupt {
    fn from(e: SqlError) -> Self {
        Interrupt::Error(e)
    }
}

/// What a statement asks of the session after it ran.
pub(crate) enum Flow {
    /// Done: the session is busy for the statement's cost.
    Done {
        kind: CostKind,
        rows: Option<u64>,
        reads: u64,
        written: u64,
    },
    Sleep(u64),
    /// EXEC of a procedure: push its frame.
    Call(Frame),
    /// RETURN from the current frame.
    Return(Option<i64>),
}

/// What a run does with its events: keep them (the trace), count them, or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sink {
    /// Every event of a step is kept until the next step ([`Simulation::events`]).
    #[default]
    Full,
    /// Events are only counted ([`Simulation::event_count`]).
    Counters,
    /// Nothing: for searches that only need states.
    Nothing,
}

/// The simulation: the world (tables, sessions, locks), the clock, the cost model and the
/// scheduler. `Clone` is cheap: parsed scripts are shared, and events leave it after each
/// step (the caller keeps the trace).
#[derive(Clone)]
pub struct Simulation {
    pub(crate) db: Db,
    pub(crate) locks: LockManager,
    pub(crate) sessions: Vec<Session>,
    pub(crate) now: u64,
    pub(crate) origin: u64,
    /// The cost model's generator (statement costs, slow flushes, NEWID()).
    pub(crate) rng: ChaCha8Rng,
    policy: Policy,
    mode: Mode,
    /// Choices made at choice points so far.
    recorded: Vec<usize>,
    sink: Sink,
    /// The events of the current step (with [`Sink::Full`]).
    events: Vec<TraceEntry>,
    event_count: u64,
    /// Rows read and written in the current step, when a footprint is being taken.
    pub(crate) touched: Option<crate::footprint::Touched>,
    pub(crate) owners: BTreeMap<OwnerId, usize>,
    next_owner: OwnerId,
    pub(crate) tracing: bool,
    pub(crate) setup_text: Rc<str>,
    pub(crate) dialect: sql::Dialect,
    setup_newlines: Rc<[usize]>,
    steps: u64,
    /// Logical reads of the statement being run.
    pub(crate) query_reads: u64,
    /// A slow log flush holds every commit until this time.
    log_stall_until: u64,
    /// CTEs in scope while a statement runs.
    pub(crate) ctes: Vec<sql::ast::Cte>,
    /// inserted/deleted of the triggers running now.
    pub(crate) trigger_rows: Vec<crate::query::TriggerRows>,
    seed: u64,
}

fn newlines(text: &str) -> Rc<[usize]> {
    text.bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(k, _)| k)
        .collect()
}

/// Index used for the setup pseudo-session's script source.
pub(crate) const SETUP_SOURCE: usize = usize::MAX;

impl Simulation {
    pub(crate) fn build(
        (setup, setup_commands): (Script, crate::bteq::Bteq),
        setup_text: &str,
        sessions: Vec<(String, u64, Script, Rc<str>, crate::bteq::Bteq)>,
        seed: u64,
        dialect: sql::Dialect,
    ) -> Result<Simulation, (usize, SqlError)> {
        let mut sim = Simulation {
            db: Db {
                tables: crate::storage::Tables::default(),
                names: BTreeMap::new(),
                procs: BTreeMap::new(),
                rcsi: false,
                allow_snapshot: false,
                commit_seq: 1,
            },
            locks: LockManager::new(),
            sessions: Vec::new(),
            now: 0,
            origin: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            policy: Policy::new(SchedulePolicy::Random, seed),
            mode: Mode::Timed,
            recorded: Vec::new(),
            sink: Sink::Full,
            events: Vec::new(),
            event_count: 0,
            touched: None,
            seed,
            owners: BTreeMap::new(),
            next_owner: 1,
            tracing: false,
            setup_text: Rc::from(setup_text),
            dialect,
            setup_newlines: newlines(setup_text),
            steps: 0,
            query_reads: 0,
            log_stall_until: 0,
            ctes: Vec::new(),
            trigger_rows: Vec::new(),
        };
        // Setup runs alone, untraced, as session index 0 of a throwaway list.
        let mut setup_session = sim.new_session("setup".into(), 0, setup, Rc::from(setup_text), 0);
        setup_session.apply_commands(setup_commands);
        sim.sessions.push(setup_session);
        let mut statements = 0u64;
        while !matches!(sim.sessions[0].state, State::Finished) {
            sim.advance_session(0);
            statements = sim.sessions[0].executed;
            if statements > MAX_STATEMENTS_PER_SESSION {
                break;
            }
        }
        if let Some(e) = sim.sessions[0].out.errors.first() {
            let err = SqlError::generic(e.number, e.severity, e.message.clone());
            return Err((0, err));
        }
        let setup = sim.sessions.pop();
        drop(setup);
        sim.origin = sim.now;
        sim.tracing = true;
        sim.push(Event::SetupFinished {
            statements,
            tables: sim.db.tables.len(),
        });
        for (i, (name, start_us, script, text, commands)) in sessions.into_iter().enumerate() {
            let mut s = sim.new_session(name, start_us, script, text, i);
            s.apply_commands(commands);
            sim.sessions.push(s);
        }
        Ok(sim)
    }

    fn new_session(
        &mut self,
        name: String,
        start_us: u64,
        script: Script,
        text: Rc<str>,
        index: usize,
    ) -> Session {
        let session_owner = self.alloc_owner_raw();
        Session {
            name: name.clone(),
            spid: 52 + index as u32,
            start_us,
            script: Rc::new(script),
            newlines: newlines(&text),
            source_text: text,
            batch: 0,
            frames: Vec::new(),
            state: if self.tracing || name != "setup" {
                State::NotStarted
            } else {
                State::Ready
            },
            ready_at: self.now,
            txn: None,
            tran_count: 0,
            options: Options::default(),
            rowcount: 0,
            last_error: 0,
            session_owner,
            executed: 0,
            out: SessionOutcome {
                name,
                wait_us: 0,
                statements: 0,
                errors: vec![],
                results: vec![],
                logical_reads: 0,
            },
            statement_locks: Vec::new(),
            undo_mark: 0,
            fresh_locks: Vec::new(),
            resuming: false,
            waiting_as: None,
            timeout_override: None,
            applock_waiting: false,
            applock_result: None,
            td_mode: crate::bteq::SessionMode::Btet,
            delayed_since: None,
            repeat_counts: BTreeMap::new(),
            repeats_done: 0,
            current: None,
            sleeping_until: None,
        }
    }

    fn alloc_owner_raw(&mut self) -> OwnerId {
        let id = self.next_owner;
        self.next_owner += 1;
        id
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
        self.sink = sink;
        if sink != Sink::Full {
            self.events.clear();
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
        &self.events
    }

    /// Takes the events of the last step out (leaving none).
    pub fn take_events(&mut self) -> Vec<TraceEntry> {
        std::mem::take(&mut self.events)
    }

    /// Events so far (not counted with [`Sink::Nothing`]).
    pub fn event_count(&self) -> u64 {
        self.event_count
    }

    pub(crate) fn push(&mut self, mut event: Event) {
        if self.dialect == sql::Dialect::Teradata {
            if let Event::LockGranted { teradata, .. }
            | Event::LockWaiting { teradata, .. }
            | Event::LockReleased { teradata, .. } = &mut event
            {
                *teradata = true;
            }
        }
        if self.recording() {
            self.event_count += 1;
            if self.sink == Sink::Full {
                let at_us = self.now.saturating_sub(self.origin);
                self.events.push(TraceEntry { at_us, event });
            }
        }
    }

    /// Whether events are wanted (kept or counted): callers skip building an event's text
    /// when not. A few events are pushed without asking; `push` drops them.
    pub(crate) fn recording(&self) -> bool {
        self.tracing && self.sink != Sink::Nothing
    }

    /// Virtual time relative to the end of setup.
    pub fn now_us(&self) -> u64 {
        self.now - self.origin
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
        self.events.clear();
        self.steps += 1;
        match self.mode {
            Mode::Timed => match self.next_timed() {
                Next::Done => return Ok(false),
                Next::CutOff => {
                    self.cut_off();
                    return Ok(false);
                }
                Next::Monitor(m) => {
                    self.now = m;
                    self.deadlock_monitor();
                    return Ok(true);
                }
                Next::Sessions(t, ties) => {
                    let pick = self.choose(scheduler, &ties)?;
                    self.now = t;
                    self.advance_session(pick);
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
            Mode::Timed => match self.next_timed() {
                Next::Sessions(_, ties) => ties,
                _ => Vec::new(),
            },
            Mode::Untimed => self.untimed_enabled(),
        }
    }

    /// Runs session `i`'s next statement (it must be enabled) and reports what the step
    /// touched. When `enabled()` is empty and the run is not over, [`Self::step`] runs the
    /// timer that is due instead.
    pub fn step_session(&mut self, i: usize) -> Result<crate::Footprint, ScheduleError> {
        let enabled = self.enabled();
        if !enabled.contains(&i) {
            return Err(self.schedule_error(i, &enabled, self.recorded.len() + 1));
        }
        self.events.clear();
        self.steps += 1;
        if enabled.len() > 1 {
            self.recorded.push(i);
        }
        let probe = crate::footprint::Probe::begin(self, i);
        match self.mode {
            Mode::Timed => {
                if let Next::Sessions(t, _) = self.next_timed() {
                    self.now = t;
                }
                self.advance_session(i);
            }
            Mode::Untimed => self.advance_untimed(i),
        }
        #[cfg(debug_assertions)]
        self.check_invariants();
        Ok(probe.end(self))
    }

    /// Steps until the end and returns the whole trace (the events the simulation held
    /// when it was made included).
    pub fn run_traced(&mut self) -> Result<crate::Trace, ScheduleError> {
        let mut trace = crate::Trace {
            entries: std::mem::take(&mut self.events),
        };
        while self.try_step()? {
            trace.entries.append(&mut self.events);
        }
        trace.entries.append(&mut self.events);
        Ok(trace)
    }

    fn next_timed(&self) -> Next {
        let mut earliest: Option<u64> = None;
        let mut ties: Vec<usize> = Vec::new();
        let mut any_blocked = false;
        for (i, s) in self.sessions.iter().enumerate() {
            let t = match &s.state {
                State::NotStarted => Some(self.origin + s.start_us),
                State::Ready => Some(s.ready_at),
                State::Busy { until, .. } => Some(*until),
                State::Blocked { timeout_at, .. } => {
                    any_blocked = true;
                    *timeout_at
                }
                State::Delayed { .. } => None,
                State::Finished => None,
            };
            if let Some(t) = t.map(|t| t.max(self.now)) {
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
        let monitor = any_blocked.then(|| {
            let rel = self.now - self.origin;
            self.origin + (rel / DEADLOCK_MONITOR_US + 1) * DEADLOCK_MONITOR_US
        });
        match (earliest, monitor) {
            (None, None) => Next::Done,
            (None, Some(m)) if m - self.origin > MAX_VIRTUAL_US => Next::CutOff,
            (None, Some(m)) => Next::Monitor(m),
            (Some(e), Some(m)) if m < e => Next::Monitor(m),
            (Some(e), _) if e - self.origin > MAX_VIRTUAL_US => Next::CutOff,
            (Some(e), _) => Next::Sessions(e, ties),
        }
    }

    fn untimed_enabled(&self) -> Vec<usize> {
        (0..self.sessions.len())
            .filter(|&i| {
                matches!(
                    self.sessions[i].state,
                    State::NotStarted | State::Ready | State::Busy { .. }
                )
            })
            .collect()
    }

    /// Untimed: session `i` runs now; the clock only moves forward (to when its statement
    /// would have ended, if that is later), so WAITFOR is a yield.
    fn advance_untimed(&mut self, i: usize) {
        let due = match &self.sessions[i].state {
            State::NotStarted => self.now,
            State::Ready => self.sessions[i].ready_at,
            State::Busy { until, .. } => *until,
            _ => self.now,
        };
        self.now = self.now.max(due);
        if let State::Busy { end, .. } = self.sessions[i].state.clone() {
            // Ends early (a sleep is cut short): the clock stays where it is.
            self.sessions[i].state = State::Busy {
                until: self.now,
                end,
            };
        }
        self.advance_session(i);
        if self
            .sessions
            .iter()
            .any(|s| matches!(s.state, State::Blocked { .. }))
        {
            // Without time, a deadlock is found as soon as it forms.
            self.deadlock_monitor();
        }
    }

    /// Untimed, nobody enabled: a lock wait times out (the earliest), or the run is over.
    fn untimed_timer(&mut self) -> bool {
        let next_timeout = self
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
            self.now = self.now.max(t);
            self.advance_session(i);
            return true;
        }
        if self.is_finished() {
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
            wanted_name: self.sessions.get(wanted).map(|s| s.name.clone()),
            enabled: enabled
                .iter()
                .map(|&s| self.sessions[s].name.clone())
                .collect(),
        }
    }

    /// After every step in debug builds: no incompatible locks granted, every wait is
    /// queued in the lock manager with a blocker, every blocked session has that wait.
    #[cfg(debug_assertions)]
    fn check_invariants(&self) {
        if let Err(e) = self.locks.check_invariants() {
            panic!("lock manager invariant broken at {} µs: {e}", self.now_us());
        }
        for s in &self.sessions {
            if let State::Blocked { .. } = s.state {
                let queued = s.waiting_as.and_then(|o| self.locks.waiting(o));
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

    /// Ends the run: every unfinished session fails with `why`.
    fn cut_off_with(&mut self, why: &str) {
        for i in 0..self.sessions.len() {
            if !matches!(self.sessions[i].state, State::Finished) {
                let e = SqlError::generic(0, 16, why.to_string());
                self.record_error(i, &e, false);
                self.finish_session(i);
            }
        }
    }

    /// One step of session `i` at `self.now`.
    pub(crate) fn advance_session(&mut self, i: usize) {
        match self.sessions[i].state.clone() {
            State::Finished => {}
            State::NotStarted => {
                let name = self.sessions[i].name.clone();
                self.push(Event::SessionStarted { session: name });
                self.sessions[i].state = State::Ready;
                self.sessions[i].ready_at = self.now;
                self.run_until_statement(i);
            }
            State::Busy { end, .. } => {
                if let Some(end) = end {
                    self.end_statement(i, end);
                }
                self.sessions[i].state = State::Ready;
                self.run_until_statement(i);
            }
            State::Ready => self.run_until_statement(i),
            State::Delayed { .. } => {}
            State::Blocked { since, timeout_at } => {
                if timeout_at.is_some_and(|t| t <= self.now) {
                    self.lock_timeout(i, since);
                }
            }
        }
    }

    fn end_statement(&mut self, i: usize, end: PendingEnd) {
        if self.recording() {
            let name = self.sessions[i].name.clone();
            self.push(Event::StatementFinished {
                session: name,
                label: end.label,
                rows: end.rows,
                reads: end.reads,
                cost_us: end.cost_us,
            });
        }
        self.release_statement_locks(i);
        let autocommit = self.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit);
        // A Teradata request is one implicit transaction: commit after its last statement.
        let request_goes_on = self.dialect == sql::Dialect::Teradata
            && self.sessions[i]
                .frames
                .last()
                .is_some_and(|f| matches!(f.kind, FrameKind::Batch) && f.pc < f.code.instrs.len());
        if autocommit && !request_goes_on {
            self.commit(i);
        }
    }

    /// Runs control instructions until one statement has run (or the session blocks,
    /// sleeps, or finishes).
    fn run_until_statement(&mut self, i: usize) {
        let mut budget = MAX_INSTRUCTIONS_PER_STEP;
        loop {
            if budget == 0 {
                let e = SqlError::runaway(MAX_INSTRUCTIONS_PER_STEP as u64);
                self.raise(i, e);
                return;
            }
            budget -= 1;
            let Some(frame) = self.sessions[i].frames.last() else {
                if !self.start_next_batch(i) {
                    self.finish_session(i);
                    return;
                }
                if matches!(self.sessions[i].state, State::Busy { .. }) {
                    // The request was refused before it ran.
                    return;
                }
                continue;
            };
            let code = frame.code.clone();
            let pc = frame.pc;
            if pc >= code.instrs.len() {
                self.pop_frame(i, None);
                continue;
            }
            match &code.instrs[pc] {
                Instr::Jump(t) => self.set_pc(i, *t),
                Instr::TryEnter { catch_pc } => {
                    let f = self.frame_mut(i);
                    let depth = f.caught.len();
                    f.tries.push((*catch_pc, depth));
                    f.pc += 1;
                }
                Instr::TryLeave { end_pc } => {
                    let f = self.frame_mut(i);
                    f.tries.pop();
                    f.pc = *end_pc;
                }
                Instr::CatchLeave => {
                    let f = self.frame_mut(i);
                    f.caught.pop();
                    f.pc += 1;
                }
                Instr::Test {
                    cond,
                    else_pc,
                    span,
                } => {
                    let has_query = crate::expr::has_subquery(cond);
                    if has_query && !std::mem::take(&mut self.sessions[i].resuming) {
                        self.begin_statement(i, "IF", span.clone());
                    }
                    match self.eval_condition(i, cond) {
                        Ok((truth, reads)) => {
                            if truth {
                                self.frame_mut(i).pc += 1;
                            } else {
                                self.set_pc(i, *else_pc);
                            }
                            if has_query {
                                self.finish_step(
                                    i,
                                    Flow::Done {
                                        kind: CostKind::Select,
                                        rows: None,
                                        reads,
                                        written: 0,
                                    },
                                    "IF",
                                );
                                return;
                            }
                        }
                        Err(Interrupt::Block) => return,
                        Err(Interrupt::Error(e)) => {
                            self.statement_failed(i);
                            self.raise(i, e);
                            if has_query {
                                return;
                            }
                        }
                    }
                }
                Instr::Run(stmt) => {
                    self.run_statement(i, stmt);
                    return;
                }
            }
        }
    }

    fn set_pc(&mut self, i: usize, pc: usize) {
        self.frame_mut(i).pc = pc;
    }

    pub(crate) fn frame_mut(&mut self, i: usize) -> &mut Frame {
        self.sessions[i]
            .frames
            .last_mut()
            .expect("a running session has a frame")
    }

    pub(crate) fn frame(&self, i: usize) -> &Frame {
        self.sessions[i]
            .frames
            .last()
            .expect("a running session has a frame")
    }

    fn start_next_batch(&mut self, i: usize) -> bool {
        let s = &mut self.sessions[i];
        if s.batch >= s.script.batches.len() {
            return false;
        }
        let index = s.batch;
        let code = compile(&s.script.batches[index].statements);
        // BTEQ `.REPEAT n` sends the same request n times.
        let times = s.repeat_counts.get(&index).copied().unwrap_or(1);
        if s.repeats_done + 1 < times {
            s.repeats_done += 1;
        } else {
            s.repeats_done = 0;
            s.batch += 1;
        }
        if self.dialect == sql::Dialect::Teradata {
            let rule = self.check_request(&self.sessions[i].script.batches[index]);
            if let Err(e) = rule {
                let span = self.sessions[i].script.batches[index].span.clone();
                self.begin_statement(i, "REQUEST", span);
                self.record_error(i, &e, false);
                let cost = statement_cost(&mut self.rng, CostKind::Variable, 0, 0);
                self.sessions[i].state = State::Busy {
                    until: self.now + cost,
                    end: None,
                };
                return true;
            }
        }
        let s = &mut self.sessions[i];
        let source = if self.tracing || i > 0 {
            i
        } else {
            SETUP_SOURCE
        };
        s.frames.push(Frame::new(code, FrameKind::Batch, source));
        true
    }

    pub(crate) fn finish_session(&mut self, i: usize) {
        // An open transaction at disconnect is rolled back; session app locks are freed.
        if self.sessions[i].txn.is_some() {
            self.rollback(i, "the session ended with an open transaction");
        }
        let owner = self.sessions[i].session_owner;
        let grants = self.locks.release_all(owner, |_| true);
        self.wake(grants);
        self.sessions[i].frames.clear();
        self.sessions[i].state = State::Finished;
        if self.tracing {
            let name = self.sessions[i].name.clone();
            self.push(Event::SessionFinished { session: name });
        }
    }

    /// Pops the top frame: a batch ends, a procedure returns its code.
    pub(crate) fn pop_frame(&mut self, i: usize, code: Option<i64>) {
        let Some(frame) = self.sessions[i].frames.pop() else {
            return;
        };
        match frame.kind {
            FrameKind::Batch => {}
            FrameKind::Proc {
                name,
                return_var,
                outputs,
                saved,
            } => {
                // SET options changed inside a procedure revert when it returns.
                let s = &mut self.sessions[i];
                s.options.isolation = saved.isolation;
                s.options.nocount = saved.nocount;
                s.options.quoted_identifier = saved.quoted_identifier;
                let rc = code.unwrap_or(0);
                let values: Vec<(String, Value)> = outputs
                    .iter()
                    .filter_map(|(param, var)| {
                        frame.vars.get(param).map(|(_, v)| (var.clone(), v.clone()))
                    })
                    .collect();
                if let Some(caller) = s.frames.last_mut() {
                    for (var, v) in values {
                        if let Some(slot) = caller.vars.get_mut(&var) {
                            slot.1 = v;
                        }
                    }
                    if let Some(rv) = return_var {
                        if let Some(slot) = caller.vars.get_mut(&rv) {
                            slot.1 = Value::Int(rc);
                        }
                    }
                }
                let session = s.name.clone();
                self.push(Event::ProcedureReturned {
                    session,
                    procedure: name,
                    code: rc,
                });
            }
        }
    }

    pub(crate) fn begin_statement(&mut self, i: usize, label: &'static str, span: sql::ast::Span) {
        let s = &mut self.sessions[i];
        s.executed += 1;
        s.out.statements += 1;
        s.undo_mark = s.txn.as_ref().map_or(0, |t| t.undo.len());
        s.fresh_locks.clear();
        s.sleeping_until = None;
        if !self.tracing {
            return;
        }
        let frame = s.frames.last();
        let source = frame.map_or(i, |f| f.source);
        // Shared texts (an `Rc` each): the session is changed below.
        let (text, newlines) = if source == SETUP_SOURCE {
            (self.setup_text.clone(), self.setup_newlines.clone())
        } else {
            let s = &self.sessions[source.min(self.sessions.len() - 1)];
            (s.source_text.clone(), s.newlines.clone())
        };
        let start = span.start.min(text.len());
        let end = span.end.min(text.len()).max(start);
        let view_source = if source == SETUP_SOURCE {
            crate::view::Source::Setup
        } else {
            crate::view::Source::Session(source)
        };
        self.sessions[i].current = Some((view_source, start, end));
        if !self.recording() {
            return;
        }
        let s = &self.sessions[i];
        let in_proc = s.frames.iter().rev().find_map(|f| match &f.kind {
            FrameKind::Proc { name, .. } => Some(name.clone()),
            _ => None,
        });
        // Line numbers from the script's newline offsets, not a scan of the text.
        let line = newlines.partition_point(|&n| n < start) as u32 + 1;
        let snippet = text.get(start..end).unwrap_or("");
        let line_one = snippet.lines().next().unwrap_or("").trim();
        // Its first 80 characters, copied at once.
        let cut = line_one
            .char_indices()
            .nth(80)
            .map_or(line_one.len(), |(b, _)| b);
        let mut first = String::with_capacity(cut + " …".len());
        first.push_str(&line_one[..cut]);
        if snippet.lines().nth(1).is_some() || first.len() < snippet.trim().len() {
            first.push_str(" …");
        }
        let name = self.sessions[i].name.clone();
        self.push(Event::StatementStarted {
            session: name,
            label,
            line,
            text: first,
            source: view_source,
            span: (start, end),
            in_proc,
        });
    }

    fn run_statement(&mut self, i: usize, stmt: &Stmt) {
        if self.sessions[i].executed >= MAX_STATEMENTS_PER_SESSION {
            let e = SqlError::runaway(MAX_STATEMENTS_PER_SESSION);
            self.raise(i, e);
            self.finish_session(i);
            return;
        }
        let label = sql::statement_label(&stmt.kind);
        // A statement that is re-run after a lock wait is the same statement: no new event.
        if !std::mem::take(&mut self.sessions[i].resuming) {
            self.begin_statement(i, label, stmt.span.clone());
        }
        match self.exec_statement(i, stmt) {
            Ok(flow) => {
                self.frame_mut(i).pc += 1;
                self.finish_step(i, flow, label);
            }
            Err(Interrupt::Block) => {}
            Err(Interrupt::Error(e)) => {
                self.statement_failed(i);
                self.frame_mut(i).pc += 1;
                self.raise(i, e);
                if matches!(self.sessions[i].state, State::Ready) {
                    let cost = statement_cost(&mut self.rng, CostKind::Variable, 0, 0);
                    self.sessions[i].state = State::Busy {
                        until: self.now + cost,
                        end: None,
                    };
                    if self.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit) {
                        self.commit(i);
                    }
                    self.release_statement_locks(i);
                }
            }
        }
    }

    fn finish_step(&mut self, i: usize, flow: Flow, label: &'static str) {
        match flow {
            Flow::Done {
                kind,
                rows,
                reads,
                written,
            } => {
                let mut cost = statement_cost(&mut self.rng, kind, reads, written);
                let flushes = (written > 0
                    && self.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit))
                    || label == "COMMIT";
                if flushes {
                    let end = self.now + cost;
                    if let Some(stall) = slow_flush(&mut self.rng) {
                        self.log_stall_until = self.log_stall_until.max(end + stall);
                    }
                    if self.log_stall_until > end {
                        cost = self.log_stall_until - self.now;
                    }
                }
                self.sessions[i].out.logical_reads += reads;
                self.sessions[i].state = State::Busy {
                    until: self.now + cost,
                    end: Some(PendingEnd {
                        label,
                        rows,
                        reads,
                        cost_us: cost,
                    }),
                };
            }
            Flow::Sleep(us) => {
                self.sessions[i].sleeping_until = Some(self.now + us);
                let name = self.sessions[i].name.clone();
                self.push(Event::Sleeping {
                    session: name,
                    until_us: self.now_us() + us,
                    delay_us: us,
                });
                self.sessions[i].state = State::Busy {
                    until: self.now + us,
                    end: None,
                };
            }
            Flow::Call(frame) => {
                let cost = statement_cost(&mut self.rng, CostKind::Exec, 0, 0);
                self.sessions[i].frames.push(frame);
                self.sessions[i].state = State::Busy {
                    until: self.now + cost,
                    end: None,
                };
            }
            Flow::Return(code) => {
                // RETURN in a batch ends the batch; in a procedure returns to the caller.
                self.pop_frame(i, code);
                let cost = statement_cost(&mut self.rng, CostKind::Variable, 0, 0);
                self.sessions[i].state = State::Busy {
                    until: self.now + cost,
                    end: None,
                };
            }
        }
    }

    /// Undoes the current statement's changes (statement-level atomicity).
    pub(crate) fn statement_failed(&mut self, i: usize) {
        let mark = self.sessions[i].undo_mark;
        self.undo_to(i, mark);
    }

    fn undo_to(&mut self, i: usize, mark: usize) {
        let Some(txn) = self.sessions[i].txn.as_mut() else {
            return;
        };
        let tail: Vec<Undo> = txn.undo.drain(mark.min(txn.undo.len())..).collect();
        for u in tail.into_iter().rev() {
            if let Some(t) = self.db.tables.get_mut(u.table as usize) {
                if u.slot < t.slots.len() {
                    t.set_pending(u.slot, u.prev);
                }
            }
        }
    }

    /// Raises an error in session `i`: records it, then finds a CATCH or aborts as far as
    /// the error's scope (and XACT_ABORT) says.
    pub(crate) fn raise(&mut self, i: usize, e: SqlError) {
        let xact_abort = self.sessions[i].options.xact_abort;
        let mut scope = e.scope;
        // XACT_ABORT ON turns run-time errors into transaction-ending ones (not RAISERROR).
        if xact_abort
            && matches!(scope, AbortScope::Statement | AbortScope::Batch)
            && e.number != 50000
        {
            scope = AbortScope::BatchAndTransaction;
        }
        if matches!(scope, AbortScope::BatchAndTransaction) && self.sessions[i].txn.is_some() {
            let why = format!("error {}", e.number);
            self.rollback(i, &why);
        }
        self.sessions[i].last_error = e.number as i64;
        // Find the innermost TRY; a compile error skips the TRY of its own frame.
        let frames = self.sessions[i].frames.len();
        let mut target = None;
        for depth in (0..frames).rev() {
            let f = &self.sessions[i].frames[depth];
            if matches!(scope, AbortScope::Compile) && depth == frames - 1 {
                continue;
            }
            if let Some(&(catch_pc, caught_depth)) = f.tries.last() {
                target = Some((depth, catch_pc, caught_depth));
                break;
            }
        }
        self.record_error(i, &e, target.is_some());
        if let Some((depth, catch_pc, caught_depth)) = target {
            while self.sessions[i].frames.len() > depth + 1 {
                self.pop_frame(i, None);
            }
            let f = self.frame_mut(i);
            f.tries.pop();
            f.caught.truncate(caught_depth);
            f.caught.push(e);
            f.pc = catch_pc;
            return;
        }
        match scope {
            AbortScope::Statement => {}
            AbortScope::Batch | AbortScope::BatchAndTransaction | AbortScope::Compile => {
                // The batch ends: drop every frame; the next batch (after GO) still runs.
                while !self.sessions[i].frames.is_empty() {
                    self.pop_frame(i, None);
                }
            }
        }
    }

    pub(crate) fn record_error(&mut self, i: usize, e: &SqlError, caught: bool) {
        let s = &mut self.sessions[i];
        s.out.errors.push(e.info());
        let name = s.name.clone();
        self.push(Event::Error {
            session: name,
            number: e.number,
            severity: e.severity,
            state: e.state,
            message: e.message.clone(),
            caught,
        });
    }

    // ---------------------------------------------------------------------------------
    // Transactions

    /// The transaction the session's work belongs to, begun (autocommit) if there is none.
    pub(crate) fn ensure_txn(&mut self, i: usize) -> TxnId {
        if let Some(t) = &self.sessions[i].txn {
            return t.id;
        }
        let id = self.alloc_owner_raw();
        self.owners.insert(id, i);
        // Teradata ANSI mode: a transaction lasts until COMMIT or ROLLBACK (T5).
        let ansi = self.tracing && self.sessions[i].td_mode == crate::bteq::SessionMode::Ansi;
        self.sessions[i].txn = Some(Txn {
            id,
            explicit: ansi,
            snapshot_seq: None,
            undo: Vec::new(),
            rows_written: 0,
            began_explicit: ansi,
            consumes: 0,
        });
        if ansi {
            self.sessions[i].tran_count = 1;
        }
        self.sessions[i].undo_mark = 0;
        id
    }

    pub(crate) fn begin_explicit(&mut self, i: usize) {
        if self.sessions[i].txn.is_none() {
            let id = self.alloc_owner_raw();
            self.owners.insert(id, i);
            self.sessions[i].txn = Some(Txn {
                id,
                explicit: true,
                snapshot_seq: None,
                undo: Vec::new(),
                rows_written: 0,
                began_explicit: true,
                consumes: 0,
            });
            let name = self.sessions[i].name.clone();
            self.push(Event::TransactionBegan {
                session: name,
                explicit: true,
            });
        } else if let Some(t) = self.sessions[i].txn.as_mut() {
            t.explicit = true;
            t.began_explicit = true;
        }
        self.sessions[i].tran_count += 1;
    }

    pub(crate) fn commit(&mut self, i: usize) {
        let Some(txn) = self.sessions[i].txn.take() else {
            return;
        };
        self.sessions[i].tran_count = 0;
        if let Some(t) = &mut self.touched {
            t.written.extend(txn.undo.iter().map(|u| (u.table, u.slot)));
        }
        // Rows this commit adds to Teradata queue tables (T3: they wake delayed consumers).
        let mut arrived: Vec<(u32, bool)> = Vec::new();
        if !txn.undo.is_empty() {
            self.db.commit_seq += 1;
            let seq = self.db.commit_seq;
            let mut seen = std::collections::BTreeSet::new();
            // An autocommit of one row (most of them) has nothing to tell apart.
            let single = txn.undo.len() == 1;
            for u in &txn.undo {
                if !single && !seen.insert((u.table, u.slot)) {
                    continue;
                }
                if let Some(t) = self.db.tables.get_mut(u.table as usize) {
                    if let Some(inserted) = t.commit_slot(u.slot, seq) {
                        // Only rows that arrive in a queue count (`rows_by_table`).
                        if t.queue && inserted {
                            arrived.push((u.table, true));
                        }
                    }
                }
            }
        }
        // The commit is announced before its releases wake the waiters.
        if txn.began_explicit {
            let name = self.sessions[i].name.clone();
            let locks_released = self.locks.locks_of(txn.id).len();
            self.push(Event::TransactionCommitted {
                session: name,
                locks_released,
            });
        }
        self.release_owner(i, txn.id, ReleaseReason::Commit);
        for (table, rows) in crate::teradata::rows_by_table(&arrived) {
            self.wake_delayed(table, rows);
        }
    }

    pub(crate) fn rollback(&mut self, i: usize, why: &str) {
        if self.sessions[i].txn.is_none() {
            return;
        }
        // Rows a rollback puts back into queue tables (T5: consumed rows return).
        let returned: Vec<(u32, bool)> = self.sessions[i]
            .txn
            .as_ref()
            .map(|t| {
                t.undo
                    .iter()
                    .filter(|u| u.prev.is_none())
                    .map(|u| {
                        let table = &self.db.tables[u.table as usize];
                        let slot = &table.slots[u.slot];
                        (
                            u.table,
                            table.queue
                                && slot.latest_committed().is_some()
                                && matches!(slot.pending, Some((_, None))),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let (Some(t), Some(txn)) = (&mut self.touched, &self.sessions[i].txn) {
            t.written.extend(txn.undo.iter().map(|u| (u.table, u.slot)));
        }
        self.undo_to(i, 0);
        let Some(txn) = self.sessions[i].txn.take() else {
            return;
        };
        self.sessions[i].tran_count = 0;
        let name = self.sessions[i].name.clone();
        let locks_released = self.locks.locks_of(txn.id).len();
        self.push(Event::TransactionRolledBack {
            session: name,
            locks_released,
            why: why.to_string(),
        });
        self.release_owner(i, txn.id, ReleaseReason::Rollback);
        for (table, rows) in crate::teradata::rows_by_table(&returned) {
            self.wake_delayed(table, rows);
        }
    }

    fn release_owner(&mut self, i: usize, owner: OwnerId, reason: ReleaseReason) {
        if self.recording() {
            let name = self.sessions[i].name.clone();
            for (res, mode) in &self.locks.locks_of(owner) {
                if !mode.is_intent() {
                    let resource = self.resource_text(res);
                    self.push(Event::LockReleased {
                        session: name.clone(),
                        resource,
                        mode: *mode,
                        reason,
                        teradata: false,
                    });
                }
            }
        }
        let grants = self.locks.release_all(owner, |_| true);
        self.owners.remove(&owner);
        self.sessions[i].statement_locks.clear();
        self.wake(grants);
    }

    fn release_statement_locks(&mut self, i: usize) {
        let list = std::mem::take(&mut self.sessions[i].statement_locks);
        let Some(owner) = self.sessions[i].txn.as_ref().map(|t| t.id) else {
            return;
        };
        for res in list {
            let grants = self.locks.release(owner, &res);
            self.wake(grants);
        }
    }

    // ---------------------------------------------------------------------------------
    // Locks

    /// Requests a lock for session `i`'s transaction; blocks the session when it must wait.
    /// `transient` locks are dropped at the end of the statement.
    pub(crate) fn lock(
        &mut self,
        i: usize,
        res: Resource,
        mode: LockMode,
        transient: bool,
    ) -> Result<(), Interrupt> {
        let owner = self.ensure_txn(i);
        self.lock_as(i, owner, res, mode, transient)
    }

    pub(crate) fn lock_as(
        &mut self,
        i: usize,
        owner: OwnerId,
        res: Resource,
        mode: LockMode,
        transient: bool,
    ) -> Result<(), Interrupt> {
        self.lock_inner(i, owner, res, mode, transient, false)
            .map(|_| ())
    }

    /// Like [`Self::lock`] but without a trace event for an immediate grant: scans lock
    /// every row they pass and report only the rows they keep. Returns whether the lock is
    /// new to the transaction.
    pub(crate) fn lock_quiet(
        &mut self,
        i: usize,
        res: Resource,
        mode: LockMode,
        transient: bool,
    ) -> Result<bool, Interrupt> {
        let owner = self.ensure_txn(i);
        self.lock_inner(i, owner, res, mode, transient, true)
    }

    fn lock_inner(
        &mut self,
        i: usize,
        owner: OwnerId,
        res: Resource,
        mode: LockMode,
        transient: bool,
        quiet: bool,
    ) -> Result<bool, Interrupt> {
        // Setup (and queries on the final state) run alone: nothing to lock against.
        if !self.tracing {
            return Ok(false);
        }
        self.owners.insert(owner, i);
        match self.locks.request(owner, res.clone(), mode) {
            Request::Granted { already, .. } => {
                if !already {
                    self.sessions[i].fresh_locks.push(res.clone());
                    if transient {
                        self.sessions[i].statement_locks.push(res.clone());
                    }
                    if self.recording() && !mode.is_intent() && !transient && !quiet {
                        let resource = self.resource_text(&res);
                        let name = self.sessions[i].name.clone();
                        self.push(Event::LockGranted {
                            session: name,
                            resource,
                            mode,
                            waited_us: None,
                            teradata: false,
                        });
                    }
                }
                Ok(!already)
            }
            Request::AlreadyWaiting { .. } => Err(Interrupt::Block),
            Request::Waiting { blockers } => {
                let holders: Vec<(String, LockMode)> = self
                    .locks
                    .holders(&res)
                    .into_iter()
                    .filter(|(o, _, _)| blockers.contains(o))
                    .map(|(o, m, _)| (self.owner_name(o), m))
                    .collect();
                let resource = self.resource_text(&res);
                let name = self.sessions[i].name.clone();
                self.push(Event::LockWaiting {
                    session: name,
                    resource,
                    mode,
                    holders,
                    teradata: false,
                });
                let timeout = self.sessions[i]
                    .timeout_override
                    .take()
                    .unwrap_or(self.sessions[i].options.lock_timeout_ms);
                self.sessions[i].waiting_as = Some(owner);
                let timeout_at = (timeout >= 0).then(|| self.now + timeout as u64 * 1000);
                // The statement will be re-run when the lock is granted: undo what it did.
                self.statement_failed(i);
                self.sessions[i].state = State::Blocked {
                    since: self.now,
                    timeout_at,
                };
                if timeout == 0 {
                    self.lock_timeout(i, self.now);
                }
                Err(Interrupt::Block)
            }
        }
    }

    /// The lock session `i` waits for, if it is blocked.
    pub(crate) fn waiting_lock(&self, i: usize) -> Option<(Resource, LockMode)> {
        self.sessions[i]
            .waiting_as
            .and_then(|o| self.locks.waiting(o))
    }

    pub(crate) fn owner_name(&self, owner: OwnerId) -> String {
        match self.owners.get(&owner) {
            Some(&s) => self
                .sessions
                .get(s)
                .map_or_else(|| format!("owner {owner}"), |s| s.name.clone()),
            None => self
                .sessions
                .iter()
                .find(|s| s.session_owner == owner)
                .map_or_else(|| format!("owner {owner}"), |s| s.name.clone()),
        }
    }

    pub(crate) fn resource_text(&self, res: &Resource) -> String {
        crate::locks::resource_text(res, |id| {
            self.db.tables.get(id as usize).map(|t| t.name.as_str())
        })
    }

    /// Sessions whose lock was granted by a release become ready now.
    pub(crate) fn wake(&mut self, grants: Vec<crate::locks::Grant>) {
        for g in grants {
            let Some(&s) = self.owners.get(&g.owner) else {
                continue;
            };
            if let State::Blocked { since, .. } = self.sessions[s].state {
                self.sessions[s].waiting_as = None;
                let waited = self.now - since;
                self.sessions[s].out.wait_us += waited;
                self.sessions[s].state = State::Ready;
                self.sessions[s].ready_at = self.now;
                self.sessions[s].fresh_locks.push(g.resource.clone());
                self.sessions[s].resuming = true;
                let resource = self.resource_text(&g.resource);
                let name = self.sessions[s].name.clone();
                self.push(Event::LockGranted {
                    session: name,
                    resource,
                    mode: g.mode,
                    waited_us: Some(waited),
                    teradata: false,
                });
            }
        }
    }

    fn lock_timeout(&mut self, i: usize, since: u64) {
        let waited = self.now - since;
        self.sessions[i].out.wait_us += waited;
        let owner = self.sessions[i].waiting_as.take();
        let res = owner.and_then(|o| self.locks.waiting(o)).map(|(r, _)| r);
        if let Some(owner) = owner {
            let grants = self.locks.cancel_wait(owner);
            self.wake(grants);
        }
        let resource = res.map(|r| self.resource_text(&r)).unwrap_or_default();
        let name = self.sessions[i].name.clone();
        self.push(Event::WaitTimedOut {
            session: name,
            resource,
            waited_us: waited,
        });
        self.sessions[i].state = State::Ready;
        self.sessions[i].ready_at = self.now;
        if std::mem::take(&mut self.sessions[i].applock_waiting) {
            // sp_getapplock does not fail: it returns -1 when its timeout runs out.
            self.sessions[i].applock_result = Some(-1);
            self.sessions[i].resuming = true;
            return;
        }
        // The statement that waited fails with 1222; the transaction stays open.
        self.statement_failed(i);
        if !self.sessions[i].frames.is_empty() {
            self.frame_mut(i).pc += 1;
        }
        self.raise(i, SqlError::lock_timeout());
        if self.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit) {
            self.commit(i);
        }
    }

    fn deadlock_monitor(&mut self) {
        // Bounded: each round removes one victim's wait.
        for _ in 0..self.sessions.len() {
            let Some(cycle) = self.locks.find_deadlock() else {
                return;
            };
            let members: Vec<usize> = cycle
                .iter()
                .filter_map(|o| self.owners.get(o).copied())
                .collect();
            if members.is_empty() {
                return;
            }
            // Victim: lowest DEADLOCK_PRIORITY, then the cheapest to roll back.
            let victim = *members
                .iter()
                .min_by_key(|&&s| {
                    let sess = &self.sessions[s];
                    (
                        sess.options.deadlock_priority,
                        sess.txn.as_ref().map_or(0, |t| t.undo.len()),
                        std::cmp::Reverse(s),
                    )
                })
                .unwrap_or(&members[0]);
            let names: Vec<String> = members
                .iter()
                .map(|&s| self.sessions[s].name.clone())
                .collect();
            let victim_name = self.sessions[victim].name.clone();
            self.push(Event::Deadlock {
                victim: victim_name,
                cycle: names,
            });
            if let State::Blocked { since, .. } = self.sessions[victim].state {
                self.sessions[victim].out.wait_us += self.now - since;
            }
            if let Some(owner) = self.sessions[victim].waiting_as.take() {
                let grants = self.locks.cancel_wait(owner);
                self.wake(grants);
            }
            self.sessions[victim].state = State::Ready;
            self.sessions[victim].ready_at = self.now;
            if std::mem::take(&mut self.sessions[victim].applock_waiting) {
                // A deadlock on an application lock rolls nothing back: sp_getapplock
                // returns -3 and the caller decides.
                self.sessions[victim].applock_result = Some(-3);
                self.sessions[victim].resuming = true;
                continue;
            }
            let spid = self.sessions[victim].spid;
            self.statement_failed(victim);
            if !self.sessions[victim].frames.is_empty() {
                self.frame_mut(victim).pc += 1;
            }
            self.raise(victim, SqlError::deadlock_victim(spid));
        }
    }

    // ---------------------------------------------------------------------------------
    // Results

    pub fn outcome(&self) -> Outcome {
        Outcome {
            end_us: self.now_us(),
            sessions: self.sessions.iter().map(|s| s.out.clone()).collect(),
        }
    }

    pub(crate) fn add_result(&mut self, i: usize, rs: ResultSet) {
        if self.tracing {
            let first_row = rs.rows.first().map(|r| {
                r.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let name = self.sessions[i].name.clone();
            self.push(Event::ResultReturned {
                session: name,
                columns: rs.columns.clone(),
                rows: rs.rows.len(),
                first_row,
            });
        }
        self.sessions[i].out.results.push(rs);
    }

    pub fn is_finished(&self) -> bool {
        self.sessions
            .iter()
            .all(|s| matches!(s.state, State::Finished))
    }
}

impl Session {
    /// What the script's BTEQ commands ask for: the session mode, and `.REPEAT n` for the
    /// first request after each such command.
    fn apply_commands(&mut self, commands: crate::bteq::Bteq) {
        self.td_mode = commands.mode;
        for (offset, times) in commands.repeats {
            if let Some(b) = self
                .script
                .batches
                .iter()
                .position(|b| b.span.start >= offset)
            {
                self.repeat_counts.insert(b, times);
            }
        }
    }

    /// A session that exists only to run a query against the final state.
    pub(crate) fn probe(name: String, sim: &mut Simulation) -> Session {
        let mut s = sim.new_session(
            name,
            0,
            Script {
                batches: Vec::new(),
            },
            Rc::from(""),
            0,
        );
        s.spid = 0;
        s.state = State::Finished;
        s
    }
}
