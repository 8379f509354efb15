//! Comparing a real run with the simulator's, figure by figure: the figures a lesson's
//! checks name, and each session's SQLSTATE.

use engine::{Outcome, ResultSet, SqlErrorInfo};
use lesson::{evaluate_checks, value_text, CheckKind, Expectation, Figure};

use crate::real::RealRun;

/// How far a time may be from the simulator's: 5 %, or this many ms when that is more
/// (a wait the simulator says is none still costs a real server a round trip or two).
pub const TIME_TOLERANCE: f64 = 0.05;
pub const TIME_FLOOR_MS: f64 = 2.0;

/// One compared figure: a line of the table and an entry of `report.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub lesson: String,
    pub settings: String,
    pub figure: String,
    pub real: String,
    pub simulated: String,
    pub passed: bool,
}

/// The simulator's side of a comparison.
pub struct Simulated<'a> {
    pub outcome: &'a Outcome,
    /// The result of each check query over the simulator's final state.
    pub query: &'a mut dyn FnMut(&str) -> Result<ResultSet, String>,
}

/// Compares every check of `checks` that a real server can answer, then every session's
/// first SQLSTATE.
pub fn compare(
    lesson: &str,
    settings: &str,
    checks: &[lesson::Check],
    real: &RealRun,
    sim: Simulated<'_>,
) -> Vec<Entry> {
    let mut real_query = |sql: &str| match real.queries.get(sql) {
        Some(Ok(rs)) => Ok(rs.clone()),
        Some(Err(e)) => Err(engine::QueryError {
            line: 1,
            col: 1,
            message: e.clone(),
        }),
        None => Err(engine::QueryError {
            line: 1,
            col: 1,
            message: "not run on the server".to_string(),
        }),
    };
    // The real server judged by the lesson's own checks, with the simulator's code.
    let verdicts = evaluate_checks(checks, &real.outcome, &mut real_query);
    let mut entries = Vec::new();
    let mut entry = |figure: String, real: String, simulated: String, passed: bool| {
        entries.push(Entry {
            lesson: lesson.to_string(),
            settings: settings.to_string(),
            figure,
            real,
            simulated,
            passed,
        });
    };
    for (check, verdict) in checks.iter().zip(&verdicts) {
        match &check.kind {
            CheckKind::Figure {
                session, figure, ..
            } => {
                let name = match session {
                    Some(s) => format!("{}: {s} {}", check.name, figure.name()),
                    None => format!("{}: {}", check.name, figure.name()),
                };
                let at = session.as_deref();
                // As `lockstep check` reads it; NaN for a session that did not run.
                let value = |o: &Outcome| figure.value(o, at).unwrap_or(f64::NAN);
                match figure {
                    Figure::WaitMs | Figure::EndMs | Figure::ElapsedMs => {
                        let (r, s) = (value(&real.outcome), value(sim.outcome));
                        entry(name, ms_text(r), ms_text(s), times_agree(r, s));
                    }
                    Figure::Errors
                    | Figure::CaughtErrors
                    | Figure::Statements
                    | Figure::ResultRows
                    | Figure::ResultSets
                    | Figure::LogicalReads
                    | Figure::SharedBuffersHit => {
                        let (r, s) = (value(&real.outcome), value(sim.outcome));
                        // Pages are PostgreSQL's shared buffers: the executor's hits and
                        // reads of the session's statements (`real.rs`).
                        let name = name
                            .replace("logical_reads", "shared buffers")
                            .replace("shared_buffers_hit", "shared buffers");
                        entry(name, r.to_string(), s.to_string(), verdict.passed);
                    }
                    // Teradata's delayed consumes have no PostgreSQL counterpart; the
                    // harness does not observe how a real session's script ended; a
                    // postgres lesson has no `error_number` (its errors' SQLSTATEs are
                    // compared below, for every session).
                    Figure::DelayedMs | Figure::OpenAtEnd | Figure::ErrorNumber => {}
                }
            }
            CheckKind::Query { sql, expect } => {
                let r = real
                    .queries
                    .get(sql)
                    .cloned()
                    .unwrap_or_else(|| Err(String::new()));
                let s = (sim.query)(sql);
                entries_for_rows(&mut entry, &check.name, expect, r, s, verdict.passed);
            }
            CheckKind::Result {
                session,
                result,
                expect,
            } => {
                let pick = |o: &Outcome| {
                    o.sessions
                        .iter()
                        .find(|s| &s.name == session)
                        .and_then(|s| s.results.get(result.wrapping_sub(1)).cloned())
                        .ok_or_else(|| format!("no result {result}"))
                };
                let name = format!("{}: {session} result {result}", check.name);
                entries_for_rows(
                    &mut entry,
                    &name,
                    expect,
                    pick(&real.outcome),
                    pick(sim.outcome),
                    verdict.passed,
                );
            }
        }
    }
    for (i, s) in sim.outcome.sessions.iter().enumerate() {
        let r = real.sqlstates.get(i).cloned().flatten();
        let simulated = s.errors.first().map(sqlstate);
        let passed = r == simulated;
        entry(
            format!("{} sqlstate", s.name),
            state_text(r),
            state_text(simulated),
            passed,
        );
    }
    entries
}

/// Rows: the real server must meet the check; where the check fixes the rows (the
/// lesson is deterministic there) they must also be the simulator's, cell for cell.
fn entries_for_rows(
    entry: &mut dyn FnMut(String, String, String, bool),
    name: &str,
    expect: &Expectation,
    real: Result<ResultSet, String>,
    sim: Result<ResultSet, String>,
    real_meets_check: bool,
) {
    let (r, s) = (rows_text(&real), rows_text(&sim));
    let passed = match expect {
        Expectation::Rows(_) => real_meets_check && r == s,
        Expectation::RowCount(_) | Expectation::Scalar(_) => real_meets_check,
    };
    entry(name.to_string(), r, s, passed);
}

/// Times agree within [`TIME_TOLERANCE`] of the simulator's, or [`TIME_FLOOR_MS`].
pub fn times_agree(real: f64, simulated: f64) -> bool {
    (real - simulated).abs() <= (simulated.abs() * TIME_TOLERANCE).max(TIME_FLOOR_MS)
}

/// The simulator's SQLSTATE for an error (a dialect without them: its number).
pub fn sqlstate(error: &SqlErrorInfo) -> String {
    error
        .sqlstate
        .map_or_else(|| error.number.to_string(), String::from)
}

fn state_text(state: Option<String>) -> String {
    state.unwrap_or_else(|| "none".to_string())
}

fn ms_text(v: f64) -> String {
    format!("{v:.1} ms")
}

/// Rows as `[[1, "A"]]`, or the error.
pub fn rows_text(rows: &Result<ResultSet, String>) -> String {
    match rows {
        Ok(rs) => {
            let rows: Vec<String> = rs
                .rows
                .iter()
                .map(|r| {
                    let cells: Vec<String> = r
                        .iter()
                        .map(|v| match v {
                            engine::Value::Text(t) => format!("{t:?}"),
                            v => value_text(v),
                        })
                        .collect();
                    format!("[{}]", cells.join(", "))
                })
                .collect();
            format!("[{}]", rows.join(", "))
        }
        Err(e) => format!("error: {e}"),
    }
}

/// The real server alone, judged by the lesson's checks (for a lesson the simulator
/// cannot run yet): each check's verdict and detail, then each session's SQLSTATE.
pub fn judge_real(
    lesson: &str,
    settings: &str,
    checks: &[lesson::Check],
    real: &RealRun,
) -> Vec<Entry> {
    let mut real_query = |sql: &str| {
        real.queries
            .get(sql)
            .cloned()
            .unwrap_or_else(|| Err("not run".to_string()))
            .map_err(|message| engine::QueryError {
                line: 1,
                col: 1,
                message,
            })
    };
    let verdicts = evaluate_checks(checks, &real.outcome, &mut real_query);
    let entry = |figure: String, real: String, passed: bool| Entry {
        lesson: lesson.to_string(),
        settings: settings.to_string(),
        figure,
        real,
        simulated: "not run".to_string(),
        passed,
    };
    let mut entries: Vec<Entry> = verdicts
        .into_iter()
        .map(|v| entry(v.name, v.detail.to_string(), v.passed))
        .collect();
    for (s, state) in real.outcome.sessions.iter().zip(&real.sqlstates) {
        entries.push(entry(
            format!("{} sqlstate", s.name),
            state_text(state.clone()),
            true,
        ));
    }
    entries
}
