//! Running an applied lesson to the end and judging its checks.

use engine::{Mode, Outcome, Schedule, ScheduleError, Simulation, Trace};

use crate::anomaly::{find_anomalies, Anomaly, AnomalyRuleKind};
use crate::check::{evaluate_checks, CheckResult};
use crate::{AnomalyRule, Applied, LessonError};

/// A finished run. The simulation stays available for more queries on the final state.
pub struct RunReport {
    pub seed: u64,
    pub outcome: Outcome,
    /// One per check that applies to the run's settings, in the lesson's order.
    pub checks: Vec<CheckResult>,
    /// Every event of the run, in order.
    pub trace: Trace,
    /// The choices the run made; replaying them gives the same trace.
    pub schedule: Schedule,
    /// What the lesson is about, where it happened (see [`find_anomalies`]).
    pub anomalies: Vec<Anomaly>,
    pub simulation: Simulation,
}

impl RunReport {
    pub fn all_passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// Why a run with a given schedule could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The engine refused the lesson's SQL (placed in the file).
    Lesson(LessonError),
    /// A scripted pick was not enabled at its choice point.
    Schedule(ScheduleError),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Lesson(e) => e.fmt(f),
            RunError::Schedule(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs the scenario to the end with `seed` and evaluates the applied checks.
/// An error is the engine refusing the SQL (syntax, not simulated), placed in the file.
pub fn run(applied: &Applied, seed: u64) -> Result<RunReport, LessonError> {
    run_with(applied, seed, None).map_err(|e| match e {
        RunError::Lesson(e) => e,
        // The default random scheduler always picks an enabled session.
        RunError::Schedule(e) => applied.locate(engine::Block::Setup, 1, 1, &e.to_string()),
    })
}

/// [`run`], replaying `schedule` (its choices, then random ones if it runs out, in its
/// mode) instead of random choices.
pub fn run_with(
    applied: &Applied,
    seed: u64,
    schedule: Option<&Schedule>,
) -> Result<RunReport, RunError> {
    let mut simulation = Simulation::new(&applied.scenario, seed)
        .map_err(|e| RunError::Lesson(applied.locate(e.block, e.line, e.col, &e.message)))?;
    if let Some(s) = schedule {
        simulation.set_mode(s.mode);
        simulation.set_schedule(s.policy());
    } else {
        simulation.set_mode(Mode::Timed);
    }
    finish(applied, seed, simulation).map_err(RunError::Schedule)
}

/// Runs a new simulation to the end and judges the checks.
pub(crate) fn finish(
    applied: &Applied,
    seed: u64,
    mut simulation: Simulation,
) -> Result<RunReport, ScheduleError> {
    let trace = simulation.run_traced()?;
    let outcome = simulation.outcome();
    let checks = evaluate_checks(&applied.checks, &outcome, &mut |sql| simulation.query(sql));
    let anomalies = run_anomalies(&applied.anomalies, &trace.entries, &simulation);
    Ok(RunReport {
        seed,
        outcome,
        checks,
        trace,
        schedule: simulation.schedule(),
        anomalies,
        simulation,
    })
}

/// The anomalies of a run that has ended in `simulation`: its final state gives the
/// values of the rows the trace inserted (read only when the lesson declares rules).
pub fn run_anomalies(
    rules: &[AnomalyRule],
    trace: &[engine::TraceEntry],
    simulation: &Simulation,
) -> Vec<Anomaly> {
    // Only the tables the rules compare rows of: a full view would copy every row.
    let watched: Vec<&str> = rules
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                AnomalyRuleKind::Duplicate | AnomalyRuleKind::Unmatched
            )
        })
        .flat_map(|r| std::iter::once(r.table.as_str()).chain(r.match_table.as_deref()))
        .collect();
    let tables = if watched.is_empty() {
        Vec::new()
    } else {
        simulation.table_views(&watched)
    };
    find_anomalies(rules, trace, &tables)
}
