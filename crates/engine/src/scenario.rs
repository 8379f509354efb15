//! Scenarios: the setup script and the sessions' scripts as SQL text, parsed into a
//! [`Simulation`] ready to step, and queries against its state.

use crate::dialect::Dialect;
use crate::outcome::ResultSet;
use crate::schedule::{ScheduleError, SchedulePolicy};
use crate::sim::{Limits, Simulation};
use crate::state::session::ClientSettings;

/// The longest script (setup or session) the simulator parses: far beyond any lesson,
/// short of what would exhaust a browser tab's memory.
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;

/// A scenario: the setup script and one script per session, all as SQL text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scenario {
    pub dialect: Dialect,
    /// Schema and data, run to completion before any session starts (at time 0).
    pub setup: String,
    pub sessions: Vec<SessionSpec>,
    /// Byte offsets in `setup` where a block of the lesson after the first begins
    /// (a lesson joins its setup blocks into one script). A setup statement's line in
    /// the trace counts from the start of its block, as the reader sees the block;
    /// empty: the whole setup is one block.
    pub setup_blocks: Vec<usize>,
    /// The run's budgets ([`Limits::default`], the most a run may take, unless lowered:
    /// an exercise lowers its steps, so a learner's endless loop stops in seconds).
    pub limits: Limits,
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

/// An error from [`Simulation::query`]: the SQL did not parse or failed to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Simulation {
    /// Parses every script and runs the setup; the sessions have not started yet. The
    /// run keeps to the scenario's [`Scenario::limits`].
    pub fn new(scenario: &Scenario, seed: u64) -> Result<Simulation, ScenarioError> {
        Simulation::with_limits(scenario, seed, scenario.limits)
    }

    /// [`Simulation::new`] with other budgets (steps, statements per session), at most
    /// the defaults.
    pub fn with_limits(
        scenario: &Scenario,
        seed: u64,
        limits: Limits,
    ) -> Result<Simulation, ScenarioError> {
        let located = |block: Block, text: &str, span: std::ops::Range<usize>, message: String| {
            let (line, col) = sql::line_col(text, span.start);
            ScenarioError {
                block,
                line,
                col,
                message,
            }
        };
        let rules = scenario.dialect.rules();
        let parser = scenario.dialect.parser();
        // A client tool's commands are blanked out before parsing
        // (spans and lines stay the same), and what they ask for goes to the session.
        let prepare = |block: Block,
                       text: &str|
         -> Result<(sql::ast::Script, ClientSettings), ScenarioError> {
            if text.len() > MAX_SCRIPT_BYTES {
                return Err(located(
                    block,
                    text,
                    0..0,
                    format!(
                        "this script is {} KB; the simulator takes scripts of at most {} KB",
                        text.len() / 1024,
                        MAX_SCRIPT_BYTES / 1024
                    ),
                ));
            }
            let (clean, settings) = rules
                .client_commands(text)
                .map_err(|(at, m)| located(block, text, at..at, m))?;
            let script = sql::parse_script(&clean, parser)
                .map_err(|e| located(block, text, e.span.clone(), e.message))?;
            Ok((script, settings))
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
        Simulation::build(
            (setup, setup_commands),
            &scenario.setup,
            sessions,
            seed,
            rules,
            parser,
            limits,
        )
        .map(|mut sim| {
            sim.world.setup_blocks = scenario.setup_blocks.as_slice().into();
            sim
        })
        .map_err(|(at, e)| {
            let (line, col) = sql::line_col(&scenario.setup, at.min(scenario.setup.len()));
            ScenarioError {
                block: Block::Setup,
                line,
                col,
                // An error without a number (a budget, SQL not simulated) says only
                // what stopped the setup; a numbered one gives its number or SQLSTATE.
                message: if e.number == crate::error::UNNUMBERED && e.sqlstate.is_none() {
                    format!("setup failed: {}", e.message)
                } else {
                    format!("setup failed with error {}: {}", e.code(), e.message)
                },
            }
        })
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
        let script = parse_query(text, self.parser)?;
        let stmt = script.batches.iter().flat_map(|b| &b.statements).next();
        let Some((stmt, sql::ast::StmtKind::Select(select))) = stmt.map(|s| (s, &s.kind)) else {
            // parse_query keeps exactly one SELECT.
            return Err(QueryError {
                line: 1,
                col: 1,
                message: "expected exactly one SELECT statement".into(),
            });
        };
        let rules = self.rules;
        self.world.statement_rows = 0;
        let out = match self.exec().query_now(select, text) {
            Ok(out) => out,
            Err(e) => {
                // Placed at the column a table lacks, else at the statement.
                let at =
                    crate::exec::bind::missing_column(std::slice::from_ref(stmt), &self.world.db)
                        .map_or(stmt.span.start, |(_, span)| span.start);
                let (line, col) = sql::line_col(text, at);
                // In the dialect's words and code, as a session would get it.
                let e = rules.number_error(e);
                return Err(QueryError {
                    line,
                    col,
                    message: format!("error {}: {}", e.code(), e.message),
                });
            }
        };
        Ok(ResultSet {
            columns: out.columns,
            rows: out.rows,
        })
    }
}

/// Whether `text` is a query [`Simulation::query`] can run in `dialect`: one SELECT
/// that parses (a table or column it names is found only when it runs). The error is
/// the one `query` would give.
pub fn check_query(dialect: Dialect, text: &str) -> Result<(), QueryError> {
    parse_query(text, dialect.parser()).map(|_| ())
}

/// `text` parsed, when it is exactly one SELECT.
fn parse_query(text: &str, parser: sql::Dialect) -> Result<sql::ast::Script, QueryError> {
    let script = sql::parse_script(text, parser).map_err(|e| {
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
    if !matches!(stmt.kind, sql::ast::StmtKind::Select(_)) {
        let (line, col) = sql::line_col(text, stmt.span.start);
        return Err(QueryError {
            line,
            col,
            message: "only SELECT can be run against the final state".into(),
        });
    }
    Ok(script)
}
