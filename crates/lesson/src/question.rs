//! Predictions: questions a lesson asks before a run (`[[questions]]`), and their verdict
//! on the run. A question is tied to settings (`when`) and to a figure the run measures
//! (a built-in figure of a session or of all sessions, or one number from SQL over the
//! final state); each choice holds when its bound holds for that figure (or for a figure
//! of its own: "an error" is `figure = "errors"`, `min = 1`). Exactly one choice holds
//! in the run with the question's settings: `lockstep check` makes sure of it.

use engine::{Event, Outcome, QueryError, ResultSet, TraceEntry};

use crate::check::{number, Bound, Figure};
use crate::toggle::Condition;

/// One `[[questions]]` table of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// Unique in the lesson: answers are kept under it.
    pub name: String,
    /// The question, as the learner reads it.
    pub ask: String,
    /// Asked before a run whose settings meet every condition.
    pub when: Vec<Condition>,
    /// What the verdict reports ("B's wait: 2 500 ms").
    pub measure: Measure,
    pub choices: Vec<Choice>,
    /// One sentence on why the run comes out as it does.
    pub explain: String,
    /// Position of `name` in the lesson file (1-based).
    pub line: u32,
    pub col: u32,
}

/// A number a run gives.
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    /// A figure of one session, or summed over all sessions.
    Figure {
        session: Option<String>,
        figure: Figure,
    },
    /// The one number of SQL run against the final state.
    Sql(String),
}

/// One answer the learner may pick.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub label: String,
    /// The question's measure unless the choice names its own.
    pub measure: Measure,
    pub bound: Bound,
}

/// A question's verdict on one finished run.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The question's measure in this run.
    pub value: f64,
    /// The measure and its value in one line (`B wait_ms = 2500`).
    pub detail: String,
    /// Indexes of the choices that hold (one, in a well-made question).
    pub right: Vec<usize>,
    /// Events shown at the moment that decides the answer: the session's first wait
    /// or error, the run's first anomaly for a figure of the final state, else the end.
    pub moment: usize,
}

impl Measure {
    /// The measure's value in a finished run; an error is a sentence.
    pub fn value(
        &self,
        outcome: &Outcome,
        query: &mut dyn FnMut(&str) -> Result<ResultSet, QueryError>,
    ) -> Result<f64, String> {
        match self {
            Measure::Figure { session, figure } => figure.value(outcome, session.as_deref()),
            Measure::Sql(sql) => {
                let rs = query(sql)
                    .map_err(|e| format!("query failed at {}:{}: {}", e.line, e.col, e.message))?;
                match rs.rows.as_slice() {
                    [row] if row.len() == 1 => number(&row[0])
                        .ok_or_else(|| format!("`{sql}` gave {:?}, not a number", row[0])),
                    rows => Err(format!(
                        "`{sql}` gave {} rows; a question's SQL gives one row of one number",
                        rows.len()
                    )),
                }
            }
        }
    }

    fn describe(&self, value: f64) -> String {
        self.describe_as(&value.to_string())
    }

    /// The measure and its value written as `value` (a page groups its digits as its
    /// language does: `B wait_ms = 2,500.185`).
    pub fn describe_as(&self, value: &str) -> String {
        match self {
            Measure::Figure {
                session: Some(s),
                figure,
            } => format!("{s} {} = {value}", figure.name()),
            Measure::Figure {
                session: None,
                figure,
            } => format!("{} = {value}", figure.name()),
            // In parentheses, as a scalar subquery: its own `=` stays apart from the value.
            Measure::Sql(sql) => format!("({}) = {value}", sql.trim().trim_end_matches(';')),
        }
    }
}

impl Question {
    /// Whether the question is asked of a run with these settings (its `when`).
    pub fn applies(&self, settings: &crate::Settings) -> bool {
        self.when.iter().all(|c| c.holds(settings))
    }

    /// The verdict on a finished run: its figure, the choices that hold, the moment.
    /// `anomaly` is the event index of the run's first anomaly, if any.
    pub fn judge(
        &self,
        outcome: &Outcome,
        trace: &[TraceEntry],
        anomaly: Option<usize>,
        query: &mut dyn FnMut(&str) -> Result<ResultSet, QueryError>,
    ) -> Result<Judged, String> {
        let value = self.measure.value(outcome, query)?;
        let mut right = Vec::new();
        for (i, c) in self.choices.iter().enumerate() {
            let v = if c.measure == self.measure {
                value
            } else {
                c.measure.value(outcome, query)?
            };
            if c.bound.holds(v) {
                right.push(i);
            }
        }
        Ok(Judged {
            value,
            detail: self.measure.describe(value),
            moment: moment(&self.measure, trace, anomaly),
            right,
        })
    }
}

/// Events shown at the moment that decides a measure (the event itself included).
fn moment(measure: &Measure, trace: &[TraceEntry], anomaly: Option<usize>) -> usize {
    let first = |pred: &dyn Fn(&Event) -> bool| trace.iter().position(|e| pred(&e.event));
    let found = match measure {
        // A session that never waits is decided where it reads past a locked row (the
        // READPAST or SKIP LOCKED that spared it the wait).
        Measure::Figure {
            session: Some(s),
            figure: Figure::WaitMs,
        } => first(
            &|e| matches!(e, Event::LockWaiting { session, .. } if &**session == s.as_str()),
        )
        .or_else(|| {
            first(&|e| matches!(e, Event::RowSkipped { session, .. } if &**session == s.as_str()))
        }),
        Measure::Figure {
            session: None,
            figure: Figure::WaitMs,
        } => first(&|e| matches!(e, Event::LockWaiting { .. }))
            .or_else(|| first(&|e| matches!(e, Event::RowSkipped { .. }))),
        Measure::Figure {
            session,
            figure: Figure::Errors | Figure::ErrorNumber | Figure::CaughtErrors,
        } => first(&|e| {
            matches!(e, Event::Error { session: who, .. }
                if session.as_deref().is_none_or(|s| &**who == s))
        }),
        Measure::Figure {
            figure: Figure::DelayedMs,
            session,
        } => first(&|e| {
            matches!(e, Event::ConsumeDelayed { session: who, .. }
                if session.as_deref().is_none_or(|s| &**who == s))
        }),
        // Without an anomaly, a query's answer is settled at the last change to a table
        // it names: the rows it reads are final from there on.
        Measure::Sql(sql) => anomaly.or_else(|| {
            trace.iter().rposition(|e| match &e.event {
                Event::RowInserted { table, .. }
                | Event::RowUpdated { table, .. }
                | Event::RowDeleted { table, .. } => names_table(sql, table),
                _ => false,
            })
        }),
        _ => anomaly,
    };
    found.map_or(trace.len(), |i| i + 1)
}

/// Whether `sql` names `table` as a word (`shipment` in `FROM shipment`, not in
/// `shipments`), in any case, with or without its schema.
fn names_table(sql: &str, table: &str) -> bool {
    let table = table
        .rsplit('.')
        .next()
        .unwrap_or(table)
        .to_ascii_lowercase();
    let sql = sql.to_ascii_lowercase();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    sql.match_indices(table.as_str()).any(|(at, _)| {
        let before = sql[..at].chars().next_back();
        let after = sql[at + table.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[cfg(feature = "parse")]
pub(crate) mod front {
    //! `[[questions]]` in the front matter, validated.

    use std::ops::Range;

    use serde::Deserialize;
    use toml::Spanned;

    use super::{Choice, Measure, Question};
    use crate::check::{Bound, Figure};
    use crate::front::{conditions, RawWhen};
    use crate::source::SourceFile;
    use crate::toggle::Toggle;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct RawQuestion {
        name: Spanned<String>,
        ask: Spanned<String>,
        when: Option<RawWhen>,
        session: Option<Spanned<String>>,
        figure: Option<Spanned<Figure>>,
        sql: Option<Spanned<String>>,
        explain: Spanned<String>,
        choices: Spanned<Vec<RawChoice>>,
    }

    impl RawQuestion {
        /// The figures it names (its own and its choices'), where they are written.
        pub(crate) fn figures(&self) -> impl Iterator<Item = &Spanned<Figure>> {
            (self.figure.iter()).chain(self.choices.get_ref().iter().flat_map(|c| &c.figure))
        }

        /// The queries it names (its own and its choices'), where they are written.
        pub(crate) fn queries(&self) -> impl Iterator<Item = &Spanned<String>> {
            (self.sql.iter()).chain(self.choices.get_ref().iter().flat_map(|c| &c.sql))
        }

        pub(crate) fn name(&self) -> &str {
            self.name.get_ref()
        }
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(crate) struct RawChoice {
        label: Spanned<String>,
        session: Option<Spanned<String>>,
        figure: Option<Spanned<Figure>>,
        sql: Option<Spanned<String>>,
        min: Option<f64>,
        max: Option<f64>,
        equals: Option<f64>,
    }

    /// A question and the file offsets of the sessions it names, for the check
    /// against the lesson's blocks.
    pub(crate) type Parsed = (Question, Vec<(usize, String)>);

    pub(crate) fn question(
        source: &SourceFile,
        base: usize,
        q: &RawQuestion,
        toggles: &[Toggle],
        earlier: &[Question],
        err: &mut dyn FnMut(Range<usize>, String),
    ) -> Option<Parsed> {
        let name = q.name.get_ref().clone();
        let mut ok = true;
        let mut fail = |span: Range<usize>, message: String, ok: &mut bool| {
            err(span, message);
            *ok = false;
        };
        if !crate::front::is_property_name(&name) {
            fail(
                q.name.span(),
                format!("question `{name}`: a name is lower-case words joined by `-` (`b-wait`)"),
                &mut ok,
            );
        } else if earlier.iter().any(|x| x.name == name) {
            fail(
                q.name.span(),
                format!("two questions are named `{name}`"),
                &mut ok,
            );
        }
        for (key, text) in [("ask", &q.ask), ("explain", &q.explain)] {
            if text.get_ref().trim().is_empty() {
                fail(
                    text.span(),
                    format!("question `{name}` needs a non-empty `{key}`"),
                    &mut ok,
                );
            }
        }
        let mut when_ok = true;
        let when = conditions(q.when.as_ref(), toggles, &mut |span, message| {
            fail(span, message, &mut when_ok)
        });
        ok &= when_ok;
        let mut sessions = Vec::new();
        let measure = measure_of(
            &name,
            q.name.span(),
            &q.session,
            &q.figure,
            &q.sql,
            &mut sessions,
            &mut |span, message| fail(span, message, &mut ok),
        );
        let raw_choices = q.choices.get_ref();
        if raw_choices.len() < 2 {
            fail(
                q.choices.span(),
                format!("question `{name}` needs at least two `choices`"),
                &mut ok,
            );
        }
        let mut choices = Vec::new();
        for c in raw_choices {
            let label = c.label.get_ref().trim().to_string();
            if label.is_empty() {
                fail(
                    c.label.span(),
                    format!("question `{name}`: a choice needs a non-empty `label`"),
                    &mut ok,
                );
            }
            let own = c.figure.is_some() || c.sql.is_some();
            let choice_measure = if own {
                measure_of(
                    &name,
                    c.label.span(),
                    &c.session,
                    &c.figure,
                    &c.sql,
                    &mut sessions,
                    &mut |span, message| fail(span, message, &mut ok),
                )
            } else {
                if let Some(s) = &c.session {
                    fail(
                        s.span(),
                        format!(
                            "question `{name}`: a choice's `session` goes with its own `figure`"
                        ),
                        &mut ok,
                    );
                }
                measure.clone()
            };
            let bound = Bound {
                min: c.min,
                max: c.max,
                equals: c.equals,
            };
            if bound == Bound::default()
                || (bound.equals.is_some() && (bound.min.is_some() || bound.max.is_some()))
            {
                fail(
                    c.label.span(),
                    format!("question `{name}`: choice `{label}` needs `min`, `max` or `equals` (not `equals` with the others)"),
                    &mut ok,
                );
            }
            if let Some(m) = choice_measure {
                choices.push(Choice {
                    label,
                    measure: m,
                    bound,
                });
            }
        }
        let (line, col) = source.position(base + q.name.span().start);
        let sessions = sessions.into_iter().map(|(at, s)| (base + at, s)).collect();
        (ok && measure.is_some()).then(|| {
            (
                Question {
                    name,
                    ask: q.ask.get_ref().trim().to_string(),
                    when,
                    measure: measure.expect("checked above"),
                    choices,
                    explain: q.explain.get_ref().trim().to_string(),
                    line,
                    col,
                },
                sessions,
            )
        })
    }

    /// The measure of `figure` (and `session`) or of `sql`; a choice comes here only
    /// with one of them.
    fn measure_of(
        name: &str,
        at: Range<usize>,
        session: &Option<Spanned<String>>,
        figure: &Option<Spanned<Figure>>,
        sql: &Option<Spanned<String>>,
        sessions: &mut Vec<(usize, String)>,
        err: &mut dyn FnMut(Range<usize>, String),
    ) -> Option<Measure> {
        match (figure, sql) {
            (Some(_), Some(s)) => {
                err(
                    s.span(),
                    format!("question `{name}`: `sql` cannot go with `figure`"),
                );
                None
            }
            (None, Some(s)) => {
                if let Some(session) = session {
                    err(
                        session.span(),
                        format!("question `{name}`: `sql` reads the final state, not a session; remove `session`"),
                    );
                    return None;
                }
                if s.get_ref().trim().is_empty() {
                    err(s.span(), format!("question `{name}`: `sql` is empty"));
                    return None;
                }
                Some(Measure::Sql(s.get_ref().clone()))
            }
            (Some(f), None) => {
                let figure = *f.get_ref();
                match (figure, session) {
                    (Figure::EndMs, Some(s)) => {
                        err(
                            s.span(),
                            format!("question `{name}`: `end_ms` is a figure of the whole run; remove `session`"),
                        );
                        return None;
                    }
                    (Figure::ErrorNumber, None) => {
                        err(
                            f.span(),
                            format!("question `{name}`: `error_number` needs a `session`"),
                        );
                        return None;
                    }
                    _ => {}
                }
                if let Some(s) = session {
                    sessions.push((s.span().start, s.get_ref().clone()));
                }
                Some(Measure::Figure {
                    session: session.as_ref().map(|s| s.get_ref().clone()),
                    figure,
                })
            }
            (None, None) => {
                err(
                    at,
                    format!("question `{name}` needs `figure = \"...\"` (with `session` for one session's) or `sql = \"...\"`: the number the run gives"),
                );
                None
            }
        }
    }
}
