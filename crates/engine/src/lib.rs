//! Lockstep's simulator: SQL Server sessions, a lock manager and tables on a virtual clock.
//!
//! Sans-IO and deterministic: the trace is a function of (scenario, seed, schedule). The
//! caller steps it; nothing here reads a clock, the OS's randomness or the network.

mod bteq;
mod cost;
mod error;
mod event;
mod exec;
mod expr;
mod fingerprint;
mod footprint;
mod index;
mod leaf;
pub mod locks;
mod names;
pub mod pages;
mod program;
mod query;
mod schedule;
mod sim;
mod storage;
mod teradata;
mod value;
mod view;

pub use error::{AbortScope, SqlError};
pub use event::{Access, Event, ReleaseReason};
pub use footprint::{Footprint, RowRef};
pub use schedule::{Mode, Schedule, ScheduleError, SchedulePolicy, Scheduler};
pub use sim::{Simulation, Sink, MAX_STATEMENTS_PER_SESSION, MAX_VIRTUAL_US};
pub use value::{format_datetime, Value, CLOCK_ZERO_US};
pub use view::{
    timeline, Lane, LaneState, LockBadge, LockView, Mark, MarkKind, RowView, Segment,
    SessionStatus, SessionView, Source, StateView, TableView, WaitEdge,
};

/// A scenario: the setup script and one script per session, all as SQL text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scenario {
    pub dialect: Dialect,
    /// Schema and data, run to completion before any session starts (at time 0).
    pub setup: String,
    pub sessions: Vec<SessionSpec>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    #[default]
    TSql,
    Teradata,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionSpec {
    /// Short name shown in traces and lanes ("A", "worker1").
    pub name: String,
    /// When the session starts, in microseconds of virtual time.
    pub start_us: u64,
    pub sql: String,
}

/// Which script a located error belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Setup,
    Session(usize),
}

/// An error in a scenario's SQL text (syntax, or not simulated), located in its block.
/// `line` and `col` are 1-based within the block's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub block: Block,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResultSet {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlErrorInfo {
    pub number: u32,
    pub severity: u8,
    pub state: u8,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SessionOutcome {
    pub name: String,
    /// Total time blocked on locks.
    pub wait_us: u64,
    pub statements: u64,
    pub errors: Vec<SqlErrorInfo>,
    pub results: Vec<ResultSet>,
    pub logical_reads: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub end_us: u64,
    pub sessions: Vec<SessionOutcome>,
}

/// The events of a run, in order, each stamped with virtual time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    pub entries: Vec<TraceEntry>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TraceEntry {
    /// Microseconds since the sessions' time zero (the end of setup).
    pub at_us: u64,
    pub event: Event,
}

impl std::fmt::Display for TraceEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:>10.3} ms  {}", self.at_us as f64 / 1000.0, self.event)
    }
}

impl std::fmt::Display for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for e in &self.entries {
            writeln!(f, "{e}")?;
        }
        Ok(())
    }
}

/// An error from [`Simulation::query`]: the SQL did not parse or failed to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

fn dialect(d: Dialect) -> sql::Dialect {
    match d {
        Dialect::TSql => sql::Dialect::TSql,
        Dialect::Teradata => sql::Dialect::Teradata,
    }
}

impl Simulation {
    /// Parses every script and runs the setup; the sessions have not started yet.
    pub fn new(scenario: &Scenario, seed: u64) -> Result<Simulation, ScenarioError> {
        let located = |block: Block, text: &str, span: std::ops::Range<usize>, message: String| {
            let (line, col) = sql::line_col(text, span.start);
            ScenarioError {
                block,
                line,
                col,
                message,
            }
        };
        let d = dialect(scenario.dialect);
        // Teradata scripts may carry BTEQ dot commands: blanked out before parsing (spans
        // and lines stay the same), and what they ask for goes to the session.
        let prepare =
            |block: Block, text: &str| -> Result<(sql::ast::Script, bteq::Bteq), ScenarioError> {
                let (clean, commands) = match scenario.dialect {
                    Dialect::Teradata => {
                        bteq::preprocess(text).map_err(|(at, m)| located(block, text, at..at, m))?
                    }
                    Dialect::TSql => (text.to_string(), bteq::Bteq::default()),
                };
                let script = sql::parse_script(&clean, d)
                    .map_err(|e| located(block, text, e.span.clone(), e.message))?;
                Ok((script, commands))
            };
        let (setup, setup_commands) = prepare(Block::Setup, &scenario.setup)?;
        let mut sessions = Vec::new();
        for (k, s) in scenario.sessions.iter().enumerate() {
            let (script, commands) = prepare(Block::Session(k), &s.sql)?;
            sessions.push((
                s.name.clone(),
                s.start_us,
                script,
                std::rc::Rc::from(s.sql.as_str()),
                commands,
            ));
        }
        Simulation::build((setup, setup_commands), &scenario.setup, sessions, seed, d).map_err(
            |(_, e)| ScenarioError {
                block: Block::Setup,
                line: 1,
                col: 1,
                message: format!("setup failed with error {}: {}", e.number, e.message),
            },
        )
    }

    /// Replaces the tie-breaking policy (before the first step).
    pub fn with_schedule(mut self, policy: SchedulePolicy) -> Simulation {
        self.set_schedule(policy);
        self
    }

    /// Steps until every session has finished, dropping the events (see
    /// [`Simulation::run_traced`] to keep them). Bounded: a session stops after
    /// [`MAX_STATEMENTS_PER_SESSION`] statements and the run after [`MAX_VIRTUAL_US`].
    pub fn run(&mut self) -> Result<(), ScheduleError> {
        while self.try_step()? {}
        Ok(())
    }

    /// Runs a query against the current state (after `run`, the final state). It reads
    /// the newest data without taking locks.
    pub fn query(&mut self, text: &str) -> Result<ResultSet, QueryError> {
        let script = sql::parse_script(text, self.dialect).map_err(|e| {
            let (line, col) = sql::line_col(text, e.span.start);
            QueryError {
                line,
                col,
                message: e.message,
            }
        })?;
        let stmts: Vec<&sql::ast::Stmt> = script
            .batches
            .iter()
            .flat_map(|b| b.statements.iter())
            .collect();
        let [stmt] = stmts.as_slice() else {
            return Err(QueryError {
                line: 1,
                col: 1,
                message: "expected exactly one SELECT statement".into(),
            });
        };
        let sql::ast::StmtKind::Select(select) = &stmt.kind else {
            let (line, col) = sql::line_col(text, stmt.span.start);
            return Err(QueryError {
                line,
                col,
                message: "only SELECT can be run against the final state".into(),
            });
        };
        let out = self.query_now(select).map_err(|e| QueryError {
            line: 1,
            col: 1,
            message: format!("error {}: {}", e.number, e.message),
        })?;
        Ok(ResultSet {
            columns: out.columns,
            rows: out.rows,
        })
    }
}
