//! Running an applied lesson to the end and judging its checks.

use engine::{Outcome, Simulation};

use crate::check::{evaluate_checks, CheckResult};
use crate::{Applied, LessonError};

/// A finished run. The simulation stays available for more queries on the final state.
pub struct RunReport {
    pub seed: u64,
    pub outcome: Outcome,
    /// One per check that applies to the run's settings, in the lesson's order.
    pub checks: Vec<CheckResult>,
    pub simulation: Simulation,
}

impl RunReport {
    pub fn all_passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// Runs the scenario to the end with `seed` and evaluates the applied checks.
/// An error is the engine refusing the SQL (syntax, not simulated), placed in the file.
pub fn run(applied: &Applied, seed: u64) -> Result<RunReport, LessonError> {
    let mut simulation = Simulation::new(&applied.scenario, seed)
        .map_err(|e| applied.locate(e.block, e.line, e.col, &e.message))?;
    simulation.run();
    let outcome = simulation.outcome();
    let checks = evaluate_checks(&applied.checks, &outcome, &mut |sql| simulation.query(sql));
    Ok(RunReport {
        seed,
        outcome,
        checks,
        simulation,
    })
}
