//! Anomalies: the moments a lesson is about, found in a finished run. Deadlock victims
//! and uncaught errors are found in every lesson; a lesson declares the rest in its
//! front matter (`[[anomalies]]`, see `lessons/README.md`). Found from the trace and the
//! final state after the run, so the engine and its traces are unchanged and a run pays
//! nothing while it is simulated (one pass over the trace at the end).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use engine::{Event, ReleaseReason, TableView, TraceEntry};

use crate::value::value_text;

/// What a lesson declares it is about: one `[[anomalies]]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct AnomalyRule {
    pub kind: AnomalyRuleKind,
    /// The table whose rows are watched (as written in the lesson, matched without case).
    pub table: String,
    /// Columns whose values, repeated, make the anomaly.
    pub columns: Vec<String>,
    /// What the anomaly means, in a few words ("task claimed a second time").
    pub label: String,
    /// The past tense the explanation uses for a session's write ("claimed", "called").
    pub verb: String,
    /// Position of the rule's `kind` in the lesson file (1-based).
    pub line: u32,
    pub col: u32,
}

/// The kinds a lesson can declare. Names are a contract (lesson files use them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "parse", derive(serde::Deserialize))]
#[cfg_attr(feature = "parse", serde(rename_all = "lowercase"))]
pub enum AnomalyRuleKind {
    /// A row inserted into `table` whose `columns` repeat an earlier inserted row's.
    Duplicate,
}

impl AnomalyRuleKind {
    pub const ALL: [AnomalyRuleKind; 1] = [AnomalyRuleKind::Duplicate];
}

/// One anomaly of a run, at one event of its trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Anomaly {
    /// Index of the event in the trace.
    pub event: usize,
    pub at_us: u64,
    /// The session it happened to.
    pub session: String,
    /// A few words: the rule's label, "deadlock victim", "error 2601".
    pub label: String,
    pub kind: AnomalyKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AnomalyKind {
    Duplicate(Box<Duplicate>),
    /// The deadlock monitor chose this session as the victim.
    DeadlockVictim,
    /// An error no TRY block caught.
    Error {
        number: u32,
    },
}

/// A row that repeats an earlier one. How each session came to write it is derived on
/// demand ([`Duplicate::writers`]): a run has hundreds, a player explains one at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Duplicate {
    /// Index into the lesson's anomaly rules.
    pub rule: usize,
    pub table: String,
    pub key: String,
    /// The repeated columns and their values, as text.
    pub values: Vec<(String, String)>,
    pub first_key: String,
    /// The earlier row's writer and the trace index of its insert.
    pub first_session: String,
    pub first_insert: usize,
    /// This row's writer and its insert (the anomaly's event).
    pub session: String,
    pub insert: usize,
}

impl Duplicate {
    /// How the earlier and this row's sessions came to write them (see [`writer`]).
    pub fn writers(&self, trace: &[TraceEntry]) -> (Writer, Writer) {
        (
            writer(trace, &self.first_session, self.first_insert),
            writer(trace, &self.session, self.insert),
        )
    }

    /// The rows the duplicate concerns: both watched rows, then the rows each session
    /// first wrote after its read (the claimed task, say).
    pub fn rows(&self, trace: &[TraceEntry]) -> Vec<(String, String)> {
        let mut rows = vec![
            (self.table.clone(), self.key.clone()),
            (self.table.clone(), self.first_key.clone()),
        ];
        let (first, second) = self.writers(trace);
        for k in [second.write, first.write] {
            if let Some(row) = trace.get(k).and_then(|e| written_row(&e.event)) {
                if !rows.contains(&row) {
                    rows.push(row);
                }
            }
        }
        rows
    }
}

/// How one session came to write a row: its last read before, its first write after
/// that read, and when that write committed (trace indices).
#[derive(Clone, Debug, PartialEq)]
pub struct Writer {
    pub session: String,
    /// The last `RowsRead` of a statement that wrote nothing, before the row was written.
    pub read: Option<usize>,
    /// The first write after that read (the row's own insert when there is none between).
    pub write: usize,
    /// When that write's transaction committed, if it did.
    pub commit: Option<usize>,
    /// The insert of the watched row.
    pub insert: usize,
}

impl Anomaly {
    /// Rows the tables highlight for it, `(table, key)`.
    pub fn rows(&self, trace: &[TraceEntry]) -> Vec<(String, String)> {
        match &self.kind {
            AnomalyKind::Duplicate(d) => d.rows(trace),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Anomaly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.session, self.label)?;
        if let AnomalyKind::Duplicate(d) = &self.kind {
            let values = d
                .values
                .iter()
                .map(|(c, v)| format!("{c} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            write!(
                f,
                " ({} ({}) repeats {values} of {} ({}))",
                d.table, d.key, d.table, d.first_key
            )?;
        }
        Ok(())
    }
}

/// How far back a writer's read is looked for (a bound, so a long run stays linear).
const LOOK_BACK: usize = 50_000;

/// The anomalies of a finished run, in trace order. `tables` is the final state of the
/// watched tables (at least; others are ignored), whose rows give the values of the
/// rows the trace inserted. A rule whose table or column the run lacks finds nothing;
/// [`rule_problems`] says why.
pub fn find_anomalies(
    rules: &[AnomalyRule],
    trace: &[TraceEntry],
    tables: &[TableView],
) -> Vec<Anomaly> {
    struct Watch<'a> {
        rule: usize,
        table: &'a TableView,
        columns: Vec<usize>,
        /// Key → values of the watched columns, from the final state.
        values: BTreeMap<&'a str, Vec<String>>,
    }
    let watches: Vec<Watch> = rules
        .iter()
        .enumerate()
        .filter_map(|(rule, r)| {
            let table = tables
                .iter()
                .find(|t| t.name.eq_ignore_ascii_case(&r.table))?;
            let columns: Option<Vec<usize>> = r
                .columns
                .iter()
                .map(|c| table.columns.iter().position(|x| x.eq_ignore_ascii_case(c)))
                .collect();
            let columns = columns?;
            let values = table
                .rows
                .iter()
                .map(|row| {
                    let vals = columns
                        .iter()
                        .map(|&c| value_text(&row.values[c]))
                        .collect();
                    (row.key.as_str(), vals)
                })
                .collect();
            Some(Watch {
                rule,
                table,
                columns,
                values,
            })
        })
        .collect();
    // Per watch: values → the first row that had them (key, session, event), and the
    // keys inserted so far (a key inserted again after a rollback is the same row).
    type Seen<'a> = BTreeMap<&'a [String], (&'a str, &'a str, usize)>;
    let mut seen: Vec<Seen> = watches.iter().map(|_| BTreeMap::new()).collect();
    let mut keys: Vec<BTreeSet<&str>> = watches.iter().map(|_| BTreeSet::new()).collect();

    let mut out = Vec::new();
    for (i, entry) in trace.iter().enumerate() {
        match &entry.event {
            Event::RowInserted {
                session,
                table,
                key,
            } => {
                for (w, watch) in watches.iter().enumerate() {
                    if !watch.table.name.eq_ignore_ascii_case(table) || !keys[w].insert(key) {
                        continue;
                    }
                    // A row gone by the end (deleted, rolled back) has no values to compare.
                    let Some(vals) = watch.values.get(key.as_str()) else {
                        continue;
                    };
                    let Some(&(first_key, first_session, first_insert)) = seen[w].get(&vals[..])
                    else {
                        seen[w].insert(vals, (key, session, i));
                        continue;
                    };
                    out.push(Anomaly {
                        event: i,
                        at_us: entry.at_us,
                        session: session.to_string(),
                        label: rules[watch.rule].label.clone(),
                        kind: AnomalyKind::Duplicate(Box::new(Duplicate {
                            rule: watch.rule,
                            table: watch.table.name.clone(),
                            key: key.clone(),
                            values: watch
                                .columns
                                .iter()
                                .map(|&c| watch.table.columns[c].clone())
                                .zip(vals.iter().cloned())
                                .collect(),
                            first_key: first_key.to_string(),
                            first_session: first_session.to_string(),
                            first_insert,
                            session: session.to_string(),
                            insert: i,
                        })),
                    });
                }
            }
            Event::Deadlock { victim, .. } => out.push(Anomaly {
                event: i,
                at_us: entry.at_us,
                session: victim.clone(),
                label: "deadlock victim".to_string(),
                kind: AnomalyKind::DeadlockVictim,
            }),
            Event::Error {
                session,
                number,
                caught: false,
                ..
            } => {
                // A victim's 1205 is the deadlock's own anomaly, marked already.
                let victim =
                    *number == 1205
                        && out.iter().rev().take(8).any(|a| {
                            a.kind == AnomalyKind::DeadlockVictim && a.session == **session
                        });
                if !victim {
                    out.push(Anomaly {
                        event: i,
                        at_us: entry.at_us,
                        session: session.to_string(),
                        label: format!("error {number}"),
                        kind: AnomalyKind::Error { number: *number },
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Why rules find nothing in this final state: a table or column that does not exist.
/// `lockstep check` reports these at the rule's position.
pub fn rule_problems(rules: &[AnomalyRule], tables: &[TableView]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        let Some(t) = tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(&r.table))
        else {
            let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
            out.push((
                i,
                format!(
                    "anomaly `{}` watches table `{}`, which the run does not have (tables: {})",
                    r.label,
                    r.table,
                    names.join(", ")
                ),
            ));
            continue;
        };
        for c in &r.columns {
            if !t.columns.iter().any(|x| x.eq_ignore_ascii_case(c)) {
                out.push((
                    i,
                    format!(
                        "anomaly `{}` names column `{c}`, which table `{}` lacks (columns: {})",
                        r.label,
                        t.name,
                        t.columns.join(", ")
                    ),
                ));
            }
        }
    }
    out
}

fn written_row(event: &Event) -> Option<(String, String)> {
    match event {
        Event::RowInserted { table, key, .. }
        | Event::RowUpdated { table, key, .. }
        | Event::RowDeleted { table, key, .. } => Some((table.to_string(), key.clone())),
        _ => None,
    }
}

/// How `session` came to insert the row at `insert`: the read that decided it (the
/// last rows read by a statement of the session that wrote nothing), the first write
/// after that read, and that write's commit.
pub fn writer(trace: &[TraceEntry], session: &str, insert: usize) -> Writer {
    let mut read = None;
    // Walking back, a write seen in the current statement disqualifies its reads (an
    // UPDATE locates its rows by reading them).
    let mut wrote = false;
    for k in (insert.saturating_sub(LOOK_BACK)..insert).rev() {
        let e = &trace[k].event;
        if e.session() != Some(session) {
            continue;
        }
        match e {
            Event::StatementStarted { .. } | Event::StatementFinished { .. } => wrote = false,
            Event::RowInserted { .. } | Event::RowUpdated { .. } | Event::RowDeleted { .. } => {
                wrote = true
            }
            Event::RowsRead { .. } if !wrote => {
                read = Some(k);
                break;
            }
            _ => {}
        }
    }
    let from = read.map_or(insert, |r| r + 1);
    let write = (from..insert)
        .find(|&k| {
            trace[k].event.session() == Some(session) && written_row(&trace[k].event).is_some()
        })
        .unwrap_or(insert);
    let commit = trace[write..]
        .iter()
        .take(LOOK_BACK)
        .position(|e| match &e.event {
            Event::TransactionCommitted { session: s, .. } => **s == *session,
            Event::LockReleased {
                session: s,
                reason: ReleaseReason::Commit,
                ..
            } => **s == *session,
            _ => false,
        })
        .map(|p| write + p);
    Writer {
        session: session.to_string(),
        read,
        write,
        commit,
        insert,
    }
}

/// The anomaly at or before trace index `events - 1` that is latest, if any: the one
/// the tables highlight while the playhead is past it.
pub fn latest_anomaly(anomalies: &[Anomaly], events: usize) -> Option<&Anomaly> {
    let k = anomalies.partition_point(|a| a.event < events);
    k.checked_sub(1).map(|k| &anomalies[k])
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{RowView, Value};
    use std::rc::Rc;

    fn at(at_us: u64, event: Event) -> TraceEntry {
        TraceEntry { at_us, event }
    }
    fn rc(s: &str) -> Rc<str> {
        Rc::from(s)
    }
    fn read(s: &str, table: &str) -> Event {
        Event::RowsRead {
            session: rc(s),
            table: rc(table),
            rows: 1,
            logical_reads: 2,
            access: engine::Access::ClusteredSeek,
        }
    }
    fn start(s: &str) -> Event {
        Event::StatementStarted {
            session: rc(s),
            label: "X",
            line: 1,
            text: String::new(),
            source: engine::Source::Session(0),
            span: (0, 0),
            in_proc: None,
        }
    }
    fn insert(s: &str, table: &str, key: &str) -> Event {
        Event::RowInserted {
            session: rc(s),
            table: rc(table),
            key: key.into(),
        }
    }
    fn update(s: &str, table: &str, key: &str) -> Event {
        Event::RowUpdated {
            session: rc(s),
            table: rc(table),
            key: key.into(),
            changes: Vec::new(),
        }
    }
    fn commit(s: &str) -> Event {
        Event::LockReleased {
            session: rc(s),
            resource: "KEY task (1)".into(),
            mode: engine::locks::LockMode::X,
            reason: ReleaseReason::Commit,
            mode_name: None,
        }
    }
    fn claims(rows: &[(i64, i64)]) -> TableView {
        TableView {
            name: "claim".into(),
            columns: vec!["id".into(), "task_id".into()],
            rows: rows
                .iter()
                .map(|(id, task)| RowView {
                    key: id.to_string(),
                    values: vec![Value::Int(*id), Value::Int(*task)],
                    locks: Vec::new(),
                    uncommitted_by: None,
                })
                .collect(),
            total_rows: rows.len(),
            table_locks: Vec::new(),
        }
    }
    fn rule() -> AnomalyRule {
        AnomalyRule {
            kind: AnomalyRuleKind::Duplicate,
            table: "Claim".into(),
            columns: vec!["TASK_ID".into()],
            label: "task claimed a second time".into(),
            verb: "claimed".into(),
            line: 1,
            col: 1,
        }
    }

    /// The two-step claim race in miniature: both read task 1, one updates and
    /// commits, then the other.
    fn race() -> Vec<TraceEntry> {
        vec![
            at(24, start("w2")),                    // 0
            at(24, read("w2", "task")),             // 1
            at(26, start("w1")),                    // 2
            at(26, read("w1", "task")),             // 3
            at(20_123, start("w2")),                // 4
            at(20_123, read("w2", "task")),         // 5: the UPDATE locates its row
            at(20_123, update("w2", "task", "1")),  // 6
            at(29_901, commit("w2")),               // 7
            at(29_901, start("w2")),                // 8
            at(29_901, insert("w2", "claim", "1")), // 9
            at(29_901, start("w1")),                // 10
            at(29_901, read("w1", "task")),         // 11
            at(29_901, update("w1", "task", "1")),  // 12
            at(46_526, commit("w1")),               // 13
            at(46_526, start("w1")),                // 14
            at(46_526, insert("w1", "claim", "2")), // 15
            at(50_000, insert("w2", "claim", "3")), // 16
        ]
    }

    #[test]
    fn a_repeated_value_is_a_duplicate_with_both_writers() {
        let trace = race();
        let found = find_anomalies(&[rule()], &trace, &[claims(&[(1, 1), (2, 1), (3, 2)])]);
        assert_eq!(found.len(), 1, "{found:?}");
        let a = &found[0];
        assert_eq!((a.event, a.at_us, a.session.as_str()), (15, 46_526, "w1"));
        assert_eq!(
            a.rows(&trace),
            [
                ("claim".to_string(), "2".to_string()),
                ("claim".to_string(), "1".to_string()),
                ("task".to_string(), "1".to_string())
            ]
        );
        let AnomalyKind::Duplicate(d) = &a.kind else {
            panic!("{a:?}")
        };
        assert_eq!(d.values, [("task_id".to_string(), "1".to_string())]);
        assert_eq!(d.first_key, "1");
        let (first, second) = d.writers(&trace);
        assert_eq!(
            first,
            Writer {
                session: "w2".into(),
                read: Some(1),
                write: 6,
                commit: Some(7),
                insert: 9
            }
        );
        assert_eq!(
            second,
            Writer {
                session: "w1".into(),
                read: Some(3),
                write: 12,
                commit: Some(13),
                insert: 15
            }
        );
        assert_eq!(
            a.to_string(),
            "w1: task claimed a second time (claim (2) repeats task_id 1 of claim (1))"
        );
    }

    #[test]
    fn rows_gone_by_the_end_and_unknown_tables_find_nothing() {
        let trace = race();
        // Claim 2 was rolled back: nothing repeats.
        assert!(find_anomalies(&[rule()], &trace, &[claims(&[(1, 1), (3, 2)])]).is_empty());
        let mut other = rule();
        other.table = "nope".into();
        assert!(find_anomalies(&[other.clone()], &trace, &[claims(&[(1, 1), (2, 1)])]).is_empty());
        let problems = rule_problems(&[other], &[claims(&[])]);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].1.contains("tables: claim"), "{problems:?}");
        let mut column = rule();
        column.columns = vec!["nope".into()];
        let problems = rule_problems(&[column], &[claims(&[])]);
        assert!(
            problems[0].1.contains("columns: id, task_id"),
            "{problems:?}"
        );
    }

    #[test]
    fn victims_and_uncaught_errors_are_anomalies_and_a_victims_1205_is_not_twice() {
        let error = |number, caught| Event::Error {
            session: rc("B"),
            number,
            severity: 13,
            state: 51,
            message: "m".into(),
            caught,
        };
        let trace = vec![
            at(
                5,
                Event::Deadlock {
                    victim: "B".into(),
                    cycle: vec!["A".into(), "B".into()],
                },
            ),
            at(5, error(1205, false)),
            at(6, error(2601, true)),
            at(7, error(2627, false)),
        ];
        let found = find_anomalies(&[], &trace, &[]);
        let labels: Vec<_> = found.iter().map(|a| (a.event, a.label.as_str())).collect();
        assert_eq!(labels, [(0, "deadlock victim"), (3, "error 2627")]);
        assert_eq!(latest_anomaly(&found, 0), None);
        assert_eq!(latest_anomaly(&found, 1).map(|a| a.event), Some(0));
        assert_eq!(latest_anomaly(&found, 3).map(|a| a.event), Some(0));
        assert_eq!(latest_anomaly(&found, 4).map(|a| a.event), Some(3));
    }
}
