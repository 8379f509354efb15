//! Checks: what a lesson asserts about a run, and their evaluation against an outcome.

use crate::detail::{Detail, Whose};
use crate::toggle::Condition;
use crate::value::{ms, value_literal};
use engine::{Outcome, QueryError, ResultSet, SessionOutcome, Value};

/// One assertion of a lesson, shown to learners by its `name`.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub name: String,
    /// The check applies only when every condition holds.
    pub when: Vec<Condition>,
    pub kind: CheckKind,
    /// The check describes a bug (`bug = true`): when it holds, the bug was reproduced,
    /// which players show as a warning rather than a pass.
    pub bug: bool,
    /// Position of the check's `name` in the lesson file (1-based).
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CheckKind {
    /// `sql` run against the final state.
    Query { sql: String, expect: Expectation },
    /// The `result`-th result set (1-based) a session returned.
    Result {
        session: String,
        result: usize,
        expect: Expectation,
    },
    /// A figure of the outcome; without `session`, summed over all sessions.
    Figure {
        session: Option<String>,
        figure: Figure,
        bound: Bound,
    },
}

/// What rows must look like.
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// `expect = [[1, "a"], [2, "b"]]`: exactly these rows, in this order.
    Rows(Vec<Vec<Expected>>),
    /// `expect_rows = 0`.
    RowCount(u64),
    /// `expect_min` / `expect_max`: one row, one numeric column, within the bounds.
    Scalar(Bound),
}

/// One expected cell, as written in TOML.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// Written `"NULL"`.
    Null,
    Int(i64),
    Float(f64),
    Text(String),
    /// Matches a `bit` column's 1 and 0.
    Bool(bool),
}

/// Inclusive bounds, or an exact value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bound {
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub equals: Option<f64>,
}

/// A number taken from the outcome. Names are a contract (lesson files use them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "parse", derive(serde::Deserialize))]
#[cfg_attr(feature = "parse", serde(rename_all = "snake_case"))]
pub enum Figure {
    /// Time blocked on locks, ms (µs precision).
    WaitMs,
    /// How many errors were raised and not caught by a TRY block.
    Errors,
    /// How many errors a TRY block caught (the script handled them).
    CaughtErrors,
    /// The number of the first error, 0 when there was none (needs `session`).
    ErrorNumber,
    /// Statements executed.
    Statements,
    LogicalReads,
    /// Rows over all result sets.
    ResultRows,
    /// Result sets returned.
    ResultSets,
    /// Virtual time when the last session finished, ms (no `session`).
    EndMs,
    /// A session's own time from connecting to finishing its script, ms.
    ElapsedMs,
    /// Time consumes spent in the delayed state waiting for a row, ms (Teradata).
    DelayedMs,
    /// 1 when the session's script ended with its transaction open (the server rolled
    /// it back at the end), else 0.
    OpenAtEnd,
    /// `logical_reads` under PostgreSQL's name: the shared buffers hit, so a check's
    /// verdict uses the word the player shows for the figure.
    SharedBuffersHit,
}

impl Figure {
    pub const ALL: [Figure; 13] = [
        Figure::WaitMs,
        Figure::Errors,
        Figure::CaughtErrors,
        Figure::ErrorNumber,
        Figure::Statements,
        Figure::LogicalReads,
        Figure::ResultRows,
        Figure::ResultSets,
        Figure::EndMs,
        Figure::ElapsedMs,
        Figure::DelayedMs,
        Figure::OpenAtEnd,
        Figure::SharedBuffersHit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Figure::WaitMs => "wait_ms",
            Figure::Errors => "errors",
            Figure::CaughtErrors => "caught_errors",
            Figure::ErrorNumber => "error_number",
            Figure::Statements => "statements",
            Figure::LogicalReads => "logical_reads",
            Figure::ResultRows => "result_rows",
            Figure::ResultSets => "result_sets",
            Figure::EndMs => "end_ms",
            Figure::ElapsedMs => "elapsed_ms",
            Figure::DelayedMs => "delayed_ms",
            Figure::OpenAtEnd => "open_at_end",
            Figure::SharedBuffersHit => "shared_buffers_hit",
        }
    }

    /// The figure of session `session`, summed over all sessions without one, or of the
    /// whole run (`end_ms`); an error names a session that did not run.
    pub fn value(self, outcome: &Outcome, session: Option<&str>) -> Result<f64, String> {
        match (self, session) {
            (Figure::EndMs, _) => Ok(ms(outcome.end_us)),
            (_, Some(name)) => match outcome.sessions.iter().find(|s| s.name == name) {
                Some(s) => Ok(self.of_session(s)),
                None => Err(format!("session {name} did not run with these settings")),
            },
            // Each session's figure is whole microseconds (or a count); their sum in
            // floating point can come out as 3700.8329999999996, so it is rounded back.
            (_, None) => {
                let sum: f64 = outcome.sessions.iter().map(|s| self.of_session(s)).sum();
                Ok((sum * 1000.0).round() / 1000.0)
            }
        }
    }

    fn of_session(self, s: &SessionOutcome) -> f64 {
        match self {
            Figure::WaitMs => ms(s.wait_us),
            Figure::Errors => s.errors.iter().filter(|e| !e.caught).count() as f64,
            Figure::CaughtErrors => s.errors.iter().filter(|e| e.caught).count() as f64,
            Figure::ErrorNumber => s.errors.first().map_or(0.0, |e| f64::from(e.number)),
            Figure::Statements => s.statements as f64,
            Figure::LogicalReads | Figure::SharedBuffersHit => s.logical_reads as f64,
            Figure::ResultRows => s.results.iter().map(|r| r.rows.len()).sum::<usize>() as f64,
            Figure::ResultSets => s.results.len() as f64,
            Figure::EndMs => 0.0,
            Figure::ElapsedMs => ms(s.elapsed_us),
            Figure::DelayedMs => ms(s.delayed_us),
            Figure::OpenAtEnd => f64::from(u8::from(s.open_at_end)),
        }
    }
}

/// Errors no TRY block caught that no check of the run expects: `(session, error)`. A
/// check expects a session's error when it is an `error_number` check of the session, or
/// an `errors` check (of the session, or of all sessions) whose bound allows one or more.
pub fn unexpected_errors<'a>(
    checks: &[Check],
    outcome: &'a Outcome,
) -> Vec<(&'a str, &'a engine::SqlErrorInfo)> {
    let allows_some = |b: &Bound| {
        b.equals
            .map_or(b.max.is_none_or(|m| m >= 1.0), |e| e >= 1.0)
    };
    let expected = |session: &str| {
        checks.iter().any(|c| match &c.kind {
            CheckKind::Figure {
                session: s,
                figure: Figure::ErrorNumber,
                bound,
            } => s.as_deref() == Some(session) && bound.equals.is_none_or(|e| e != 0.0),
            CheckKind::Figure {
                session: s,
                figure: Figure::Errors,
                bound,
            } => s.as_deref().is_none_or(|s| s == session) && allows_some(bound),
            _ => false,
        })
    };
    outcome
        .sessions
        .iter()
        .filter(|s| !expected(&s.name))
        .flat_map(|s| {
            s.errors
                .iter()
                .filter(|e| !e.caught)
                .map(move |e| (s.name.as_str(), e))
        })
        .collect()
}

impl Bound {
    pub fn holds(&self, v: f64) -> bool {
        if let Some(e) = self.equals {
            return (v - e).abs() <= 1e-9 * e.abs().max(1.0);
        }
        self.min.is_none_or(|m| v >= m) && self.max.is_none_or(|m| v <= m)
    }

    pub(crate) fn describe(&self) -> String {
        match (self.equals, self.min, self.max) {
            (Some(e), _, _) => format!("expected {e}"),
            (None, Some(lo), Some(hi)) => format!("expected {lo} to {hi}"),
            (None, Some(lo), None) => format!("expected at least {lo}"),
            (None, None, Some(hi)) => format!("expected at most {hi}"),
            (None, None, None) => "expected anything".to_string(),
        }
    }
}

/// The verdict on one check, for learners and for `lockstep check`.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    pub name: String,
    pub passed: bool,
    /// The check describes a bug: `passed` means the bug was reproduced.
    pub bug: bool,
    /// Expected versus actual: one line in English (`Display`), or in the reader's
    /// language from its fields.
    pub detail: Detail,
    /// Where the check is written (1-based), so a failure can be reported as `file:line:col`.
    pub line: u32,
    pub col: u32,
}

/// Evaluates `checks` against a finished run. `query` runs SQL against the final state
/// (normally [`engine::Simulation::query`]); taking it as a function keeps checks
/// testable without a simulation.
pub fn evaluate_checks(
    checks: &[Check],
    outcome: &Outcome,
    query: &mut dyn FnMut(&str) -> Result<ResultSet, QueryError>,
) -> Vec<CheckResult> {
    checks
        .iter()
        .map(|check| {
            let (passed, detail) = match &check.kind {
                CheckKind::Query { sql, expect } => match query(sql) {
                    Ok(rs) => compare(expect, &rs.rows),
                    Err(e) => (
                        false,
                        Detail::QueryFailed {
                            line: e.line,
                            col: e.col,
                            message: e.message,
                        },
                    ),
                },
                CheckKind::Result {
                    session,
                    result,
                    expect,
                } => session_result(outcome, session, *result, expect),
                CheckKind::Figure {
                    session,
                    figure,
                    bound,
                } => figure_check(outcome, session.as_deref(), *figure, bound),
            };
            CheckResult {
                name: check.name.clone(),
                passed,
                bug: check.bug,
                detail,
                line: check.line,
                col: check.col,
            }
        })
        .collect()
}

fn session_result(
    outcome: &Outcome,
    session: &str,
    result: usize,
    expect: &Expectation,
) -> (bool, Detail) {
    let Some(s) = outcome.sessions.iter().find(|s| s.name == session) else {
        return (
            false,
            Detail::NoSession {
                session: session.to_owned(),
            },
        );
    };
    match s.results.get(result.wrapping_sub(1)) {
        Some(rs) => compare(expect, &rs.rows),
        None => (
            false,
            Detail::NoResult {
                session: session.to_owned(),
                sets: s.results.len(),
                result,
            },
        ),
    }
}

fn figure_check(
    outcome: &Outcome,
    session: Option<&str>,
    figure: Figure,
    bound: &Bound,
) -> (bool, Detail) {
    let whose = match (figure, session) {
        (Figure::EndMs, _) => Whose::Run,
        (_, Some(name)) => Whose::Session(name.to_owned()),
        (_, None) => Whose::All,
    };
    match figure.value(outcome, session) {
        Ok(value) => (
            bound.holds(value),
            Detail::Figure {
                whose,
                figure,
                value,
                bound: *bound,
            },
        ),
        // The only failure: the session did not run.
        Err(_) => (
            false,
            Detail::NoSession {
                session: session.unwrap_or_default().to_owned(),
            },
        ),
    }
}

fn compare(expect: &Expectation, rows: &[Vec<Value>]) -> (bool, Detail) {
    match expect {
        Expectation::Rows(want) => {
            let ok = want.len() == rows.len()
                && want.iter().zip(rows).all(|(w, r)| {
                    w.len() == r.len() && w.iter().zip(r).all(|(e, v)| matches(e, v))
                });
            let got = rows_text(rows);
            if ok {
                (true, Detail::Rows { got })
            } else {
                (
                    false,
                    Detail::RowsDiffer {
                        expected: expected_text(want),
                        got,
                    },
                )
            }
        }
        Expectation::RowCount(n) => {
            let ok = rows.len() as u64 == *n;
            let detail = Detail::RowCount {
                expected: *n,
                got: rows.len(),
                rows: (!ok && !rows.is_empty()).then(|| rows_text(rows)),
            };
            (ok, detail)
        }
        Expectation::Scalar(bound) => match rows {
            [row] if row.len() == 1 => match number(&row[0]) {
                Some(value) => (
                    bound.holds(value),
                    Detail::Scalar {
                        value,
                        bound: *bound,
                    },
                ),
                None => (
                    false,
                    Detail::NotANumber {
                        got: value_literal(&row[0]),
                    },
                ),
            },
            _ => (
                false,
                Detail::NotOneNumber {
                    got: rows_text(rows),
                },
            ),
        },
    }
}

pub(crate) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Decimal(d) => Some(*d),
        _ => None,
    }
}

fn matches(expected: &Expected, actual: &Value) -> bool {
    match (expected, actual) {
        (Expected::Null, Value::Null) => true,
        (Expected::Int(e), Value::Int(a)) => e == a,
        (Expected::Int(e), Value::Decimal(a)) => *e as f64 == *a,
        (Expected::Float(e), a) => {
            number(a).is_some_and(|a| (a - e).abs() <= 1e-9 * e.abs().max(1.0))
        }
        (Expected::Text(e), Value::Text(a)) => e.as_str() == &**a,
        // The same instant, however its type prints it (`.5`, `.500`, `.500000`).
        (Expected::Text(e), Value::DateTime(us, _)) => engine::parse_datetime(e) == Some(*us),
        (Expected::Bool(e), Value::Int(a)) => i64::from(*e) == *a,
        (Expected::Bool(e), Value::True | Value::False) => actual.as_bool() == Some(*e),
        _ => false,
    }
}

/// At most this many rows appear in a detail; the rest are counted.
const ROWS_SHOWN: usize = 10;

pub(crate) fn rows_text(rows: &[Vec<Value>]) -> String {
    list_text(
        rows.iter()
            .map(|r| list_text(r.iter().map(value_literal), r.len())),
        rows.len(),
    )
}

fn expected_text(rows: &[Vec<Expected>]) -> String {
    let cell = |e: &Expected| match e {
        Expected::Null => "NULL".to_string(),
        Expected::Int(i) => i.to_string(),
        Expected::Float(f) => f.to_string(),
        Expected::Text(s) => format!("{s:?}"),
        Expected::Bool(b) => b.to_string(),
    };
    list_text(
        rows.iter().map(|r| list_text(r.iter().map(cell), r.len())),
        rows.len(),
    )
}

fn list_text(items: impl Iterator<Item = String>, len: usize) -> String {
    let mut parts: Vec<String> = items.take(ROWS_SHOWN).collect();
    if len > ROWS_SHOWN {
        parts.push(format!("... {} more", len - ROWS_SHOWN));
    }
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use engine::{Outcome, SessionOutcome};

    use super::Figure;

    /// Summed over sessions, a time is whole microseconds as each session's is: 0.1 ms
    /// and 0.2 ms make 0.3 ms, not 0.30000000000000004 (what a check and the matrix
    /// printed for 3 700.833 ms).
    #[test]
    fn a_figure_summed_over_sessions_stays_in_whole_microseconds() {
        let session = |name: &str, wait_us| SessionOutcome {
            name: name.into(),
            wait_us,
            statements: 1,
            errors: Vec::new(),
            results: Vec::new(),
            logical_reads: 0,
            elapsed_us: wait_us,
            delayed_us: 0,
            open_at_end: false,
        };
        let outcome = Outcome {
            end_us: 300,
            sessions: vec![session("A", 100), session("B", 200)],
        };
        assert_eq!(Figure::WaitMs.value(&outcome, None), Ok(0.3));
        assert_eq!(Figure::WaitMs.value(&outcome, Some("B")), Ok(0.2));
        assert_eq!(Figure::Statements.value(&outcome, None), Ok(2.0));
    }
}
