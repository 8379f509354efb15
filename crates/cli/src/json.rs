//! The `run --json` object. Field names and shapes are a contract (see `--help`).

use engine::{Outcome, ResultSet, TraceEntry, Value};
use lesson::{ms, Anomaly, AnomalyKind, CheckResult, Settings};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

#[derive(Serialize)]
pub struct RunJson<'a> {
    pub lesson: &'a str,
    pub seed: u64,
    pub settings: SettingsJson<'a>,
    pub end_ms: f64,
    pub sessions: Vec<SessionJson<'a>>,
    pub checks: Vec<CheckJson<'a>>,
    pub queries: Vec<QueryJson<'a>>,
    /// What the lesson is about, where it happened (see `lesson::find_anomalies`).
    pub anomalies: Vec<AnomalyJson<'a>>,
    /// The run's choices as text (`Schedule`'s `Display`); `--schedule` replays them.
    pub schedule: String,
    /// The lesson's questions at these settings, with the choices the run makes right.
    pub questions: Vec<QuestionJson<'a>>,
}

#[derive(Serialize)]
pub struct QuestionJson<'a> {
    pub name: &'a str,
    pub right: &'a [String],
    pub detail: &'a str,
}

impl<'a> From<&'a crate::run_cmd::QuestionRun> for QuestionJson<'a> {
    fn from(q: &'a crate::run_cmd::QuestionRun) -> Self {
        QuestionJson {
            name: &q.name,
            right: &q.right,
            detail: &q.detail,
        }
    }
}

/// Toggle → value, as an object in the lesson's toggle order.
pub struct SettingsJson<'a>(pub &'a Settings);

impl Serialize for SettingsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (name, value) in self.0.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
pub struct SessionJson<'a> {
    pub name: &'a str,
    pub wait_ms: f64,
    pub statements: u64,
    pub errors: Vec<ErrorJson<'a>>,
    pub results: Vec<ResultJson<'a>>,
    pub logical_reads: u64,
    pub elapsed_ms: f64,
    pub delayed_ms: f64,
}

#[derive(Serialize)]
pub struct ErrorJson<'a> {
    pub number: u32,
    pub message: &'a str,
    pub caught: bool,
    /// Only in dialects that number errors with SQLSTATEs (PostgreSQL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sqlstate: Option<&'a str>,
}

#[derive(Serialize)]
pub struct ResultJson<'a> {
    pub columns: &'a [String],
    pub rows: Vec<Vec<ValueJson<'a>>>,
}

#[derive(Serialize)]
pub struct CheckJson<'a> {
    pub name: &'a str,
    pub passed: bool,
    pub detail: String,
    /// The check describes a bug: `passed` means the bug was reproduced.
    pub bug: bool,
}

#[derive(Serialize)]
pub struct AnomalyJson<'a> {
    /// The trace event it is marked at (0-based, in trace order).
    pub index: usize,
    pub at_ms: f64,
    pub kind: &'static str,
    pub label: &'a str,
    /// The sessions it concerns: the one it happened to last.
    pub sessions: Vec<&'a str>,
    /// The rows the player highlights for it.
    pub rows: Vec<RowJson>,
    /// One line: who, what and the evidence in brief.
    pub why: String,
}

#[derive(Serialize)]
pub struct RowJson {
    pub table: String,
    pub key: String,
}

/// The JSON of each anomaly of a run whose trace is `trace`.
pub fn anomalies_json<'a>(anomalies: &'a [Anomaly], trace: &[TraceEntry]) -> Vec<AnomalyJson<'a>> {
    anomalies
        .iter()
        .map(|a| {
            let mut sessions = Vec::new();
            if let AnomalyKind::Duplicate(d) = &a.kind {
                if d.first_session != a.session && d.first_session != "setup" {
                    sessions.push(d.first_session.as_str());
                }
            }
            sessions.push(a.session.as_str());
            AnomalyJson {
                index: a.event,
                at_ms: ms(a.at_us),
                kind: a.kind.name(),
                label: &a.label,
                sessions,
                rows: a
                    .rows(trace)
                    .into_iter()
                    .map(|(table, key)| RowJson { table, key })
                    .collect(),
                why: a.to_string(),
            }
        })
        .collect()
}

#[derive(Serialize)]
pub struct QueryJson<'a> {
    pub sql: &'a str,
    pub columns: &'a [String],
    pub rows: Vec<Vec<ValueJson<'a>>>,
}

/// A SQL value as JSON: null, a number, or a string.
pub struct ValueJson<'a>(pub &'a Value);

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => serializer.serialize_none(),
            Value::Int(i) => serializer.serialize_i64(*i),
            Value::True => serializer.serialize_bool(true),
            Value::False => serializer.serialize_bool(false),
            // JSON has no NaN or infinity.
            Value::Decimal(d) if d.is_finite() => serializer.serialize_f64(*d),
            Value::Decimal(_) => serializer.serialize_none(),
            Value::Text(s) => serializer.serialize_str(s),
            Value::DateTime(..) => serializer.serialize_str(&self.0.to_string()),
        }
    }
}

fn rows(rs: &ResultSet) -> Vec<Vec<ValueJson<'_>>> {
    rs.rows
        .iter()
        .map(|r| r.iter().map(ValueJson).collect())
        .collect()
}

pub fn run_json<'a>(
    lesson: &'a str,
    seed: u64,
    settings: &'a Settings,
    outcome: &'a Outcome,
    checks: &'a [CheckResult],
    queries: &'a [(String, ResultSet)],
    schedule: &engine::Schedule,
) -> RunJson<'a> {
    RunJson {
        // Filled by the caller, from the run's trace ([`anomalies_json`]).
        anomalies: Vec::new(),
        questions: Vec::new(),
        schedule: schedule.to_string(),
        lesson,
        seed,
        settings: SettingsJson(settings),
        end_ms: ms(outcome.end_us),
        sessions: outcome
            .sessions
            .iter()
            .map(|s| SessionJson {
                name: &s.name,
                wait_ms: ms(s.wait_us),
                statements: s.statements,
                errors: s
                    .errors
                    .iter()
                    .map(|e| ErrorJson {
                        // An error numbered by its SQLSTATE has no number of its own:
                        // the engine's (SQL Server's 2601 for a 23505) is not one.
                        number: if e.sqlstate.is_some() { 0 } else { e.number },
                        message: &e.message,
                        caught: e.caught,
                        sqlstate: e.sqlstate,
                    })
                    .collect(),
                results: s
                    .results
                    .iter()
                    .map(|r| ResultJson {
                        columns: &r.columns,
                        rows: rows(r),
                    })
                    .collect(),
                logical_reads: s.logical_reads,
                elapsed_ms: ms(s.elapsed_us),
                delayed_ms: ms(s.delayed_us),
            })
            .collect(),
        checks: checks
            .iter()
            .map(|c| CheckJson {
                name: &c.name,
                passed: c.passed,
                detail: c.detail.to_string(),
                bug: c.bug,
            })
            .collect(),
        queries: queries
            .iter()
            .map(|(sql, rs)| QueryJson {
                sql,
                columns: &rs.columns,
                rows: rows(rs),
            })
            .collect(),
    }
}
