//! Anomalies: the moments a lesson is about, found in a finished run. Deadlock victims
//! and uncaught errors are found in every lesson; a lesson declares the rest in its
//! front matter (`[[anomalies]]`, see `lessons/README.md`). Found from the trace and the
//! final state after the run, so the engine and its traces are unchanged and a run pays
//! nothing while it is simulated (one pass over the trace at the end).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use engine::{Event, ReleaseReason, RowView, TableView, TraceEntry};

use crate::value::value_text;

/// What a lesson declares it is about: one `[[anomalies]]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct AnomalyRule {
    pub kind: AnomalyRuleKind,
    /// The table whose rows are watched (as written in the lesson, matched without case).
    pub table: String,
    /// Columns whose values, repeated (duplicate) or missing from `match_table`
    /// (unmatched), make the anomaly. Empty for `lost`.
    pub columns: Vec<String>,
    /// What the anomaly means, in a few words ("task claimed again").
    pub label: String,
    /// The past tense the explanation uses for a session's write ("claimed", "called").
    pub verb: String,
    /// `unmatched` only: the table that must have a row with the same values.
    pub match_table: Option<String>,
    /// `unmatched` only: its columns, in the order of `columns` (empty: the same names).
    pub match_columns: Vec<String>,
    /// Position of the rule's `kind` in the lesson file (1-based).
    pub line: u32,
    pub col: u32,
    /// Where the rule names its tables and columns, for `lockstep check`'s errors.
    pub places: RulePlaces,
}

/// Positions (line, column; 1-based) of what an [`AnomalyRule`] names in its lesson
/// file, so a name the run lacks is reported where it is written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RulePlaces {
    pub table: (u32, u32),
    /// One for each of `columns`.
    pub columns: Vec<(u32, u32)>,
    pub match_table: (u32, u32),
    /// One for each of `match_columns`.
    pub match_columns: Vec<(u32, u32)>,
}

impl AnomalyRule {
    /// The columns of `match_table` compared with `columns`.
    pub fn match_columns(&self) -> &[String] {
        if self.match_columns.is_empty() {
            &self.columns
        } else {
            &self.match_columns
        }
    }
}

/// The kinds a lesson can declare. Names are a contract (lesson files use them); the
/// order is the compiled form's tag, so a new kind goes last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "parse", derive(serde::Deserialize))]
#[cfg_attr(feature = "parse", serde(rename_all = "lowercase"))]
pub enum AnomalyRuleKind {
    /// A row of `table` whose `columns` take values an earlier row had (by INSERT or UPDATE).
    Duplicate,
    /// A row inserted into `table` whose `columns` no row of `match_table` has at the end.
    Unmatched,
    /// A row deleted from (consumed) `table` by a transaction that committed although
    /// one of its statements failed after the delete.
    Lost,
    /// Rows a session wrote to `table` and committed, kept although the same session
    /// then failed: the record says done, the action it records did not happen.
    Kept,
}

impl AnomalyRuleKind {
    pub const ALL: [AnomalyRuleKind; 4] = [
        AnomalyRuleKind::Duplicate,
        AnomalyRuleKind::Unmatched,
        AnomalyRuleKind::Lost,
        AnomalyRuleKind::Kept,
    ];

    /// The name lesson files and the CLI's JSON use.
    pub fn name(self) -> &'static str {
        match self {
            AnomalyRuleKind::Duplicate => "duplicate",
            AnomalyRuleKind::Unmatched => "unmatched",
            AnomalyRuleKind::Lost => "lost",
            AnomalyRuleKind::Kept => "kept",
        }
    }
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
    Unmatched(Box<Unmatched>),
    Lost(Box<Lost>),
    Kept(Box<Kept>),
    /// The deadlock monitor chose this session as the victim.
    DeadlockVictim,
    /// An error no TRY block caught.
    Error {
        number: u32,
        /// The SQLSTATE, in a dialect that numbers errors so: what the label shows.
        sqlstate: Option<&'static str>,
    },
}

impl AnomalyKind {
    /// The kind's name in the CLI's output: a rule kind's, `deadlock-victim` or `error`.
    pub fn name(&self) -> &'static str {
        match self {
            AnomalyKind::Duplicate(_) => AnomalyRuleKind::Duplicate.name(),
            AnomalyKind::Unmatched(_) => AnomalyRuleKind::Unmatched.name(),
            AnomalyKind::Lost(_) => AnomalyRuleKind::Lost.name(),
            AnomalyKind::Kept(_) => AnomalyRuleKind::Kept.name(),
            AnomalyKind::DeadlockVictim => "deadlock-victim",
            AnomalyKind::Error { .. } => "error",
        }
    }
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
    /// The earlier row's writer and the trace index of its insert (or of the UPDATE that
    /// gave it the values; 0 for a row of the setup).
    pub first_session: String,
    pub first_insert: usize,
    /// This row's writer and its insert, or the UPDATE that made the repeat (the
    /// anomaly's event).
    pub session: String,
    pub insert: usize,
    /// The repeat was made by an UPDATE, not an INSERT.
    pub by_update: bool,
}

/// A row with no counterpart in another table at the end: a receiver's call that no
/// entry records, say.
#[derive(Clone, Debug, PartialEq)]
pub struct Unmatched {
    /// Index into the lesson's anomaly rules.
    pub rule: usize,
    pub table: String,
    pub key: String,
    /// The watched columns and their values, as text.
    pub values: Vec<(String, String)>,
    /// The table searched and its columns, as the run names them.
    pub match_table: String,
    pub match_columns: Vec<String>,
    pub session: String,
    /// The insert (the anomaly's event).
    pub insert: usize,
    /// The first error of the session after the insert, before it finished: the trace
    /// index and the error's number (the write that should have matched it, failing).
    pub error: Option<(usize, u32)>,
    /// The row of `match_table` was there and a later DELETE took it away (a job
    /// deleted under its runs): that delete's trace index and session, the anomaly's
    /// event then. Found when `match_table`'s key is the matched columns.
    pub removed: Option<(usize, String)>,
}

impl Unmatched {
    /// The watched values as the matched table's key text (`1`, or `1, 2`).
    pub fn values_key(&self) -> String {
        self.values
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Rows a transaction deleted (consumed) and then committed, although a statement of
/// it failed in between: the rows are gone and the action taken for them is not there.
#[derive(Clone, Debug, PartialEq)]
pub struct Lost {
    /// Index into the lesson's anomaly rules.
    pub rule: usize,
    pub table: String,
    /// The rows' keys and the trace index of each delete.
    pub rows: Vec<(String, usize)>,
    pub session: String,
    /// The first error after the first delete: trace index and number.
    pub error: (usize, u32),
    /// The commit (the anomaly's event).
    pub commit: usize,
    /// The rows the consume returned, as the trace shows its first one, if it did.
    pub returned: Option<String>,
}

/// Rows a session wrote and committed, then the same session failed: the rows say the
/// work is done (a document marked as sent), the work (the call) is what failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// Index into the lesson's anomaly rules.
    pub rule: usize,
    pub table: String,
    /// The rows' keys and the trace index of each one's write.
    pub rows: Vec<(String, usize)>,
    pub session: String,
    /// The commit that made the writes permanent (the last one before the error).
    pub commit: usize,
    /// The error (the anomaly's event): trace index and number.
    pub error: (usize, u32),
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
            AnomalyKind::Unmatched(u) => vec![(u.table.clone(), u.key.clone())],
            AnomalyKind::Lost(l) => l
                .rows
                .iter()
                .map(|(key, _)| (l.table.clone(), key.clone()))
                .collect(),
            AnomalyKind::Kept(k) => k
                .rows
                .iter()
                .map(|(key, _)| (k.table.clone(), key.clone()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// "task_id 1, worker 2": watched columns and their values, as sentences show them.
pub fn values_text(values: &[(String, String)]) -> String {
    values
        .iter()
        .map(|(c, v)| format!("{c} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line: who, what, and the evidence in brief (the CLI's text output uses it).
impl fmt::Display for Anomaly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.session, self.label)?;
        match &self.kind {
            AnomalyKind::Duplicate(d) => write!(
                f,
                " ({} ({}) {} {} of {} ({}))",
                d.table,
                d.key,
                if d.by_update {
                    "updated to repeat"
                } else {
                    "repeats"
                },
                values_text(&d.values),
                d.table,
                d.first_key
            ),
            AnomalyKind::Unmatched(u) => {
                write!(
                    f,
                    " ({} ({}) has {}; no {} row has it",
                    u.table,
                    u.key,
                    values_text(&u.values),
                    u.match_table
                )?;
                if let Some((_, number)) = u.error {
                    write!(f, "; {} got error {number} after it", u.session)?;
                }
                if let Some((_, by)) = &u.removed {
                    write!(f, "; {by} deleted {} ({})", u.match_table, u.values_key())?;
                }
                f.write_str(")")
            }
            AnomalyKind::Lost(l) => {
                let keys: Vec<&str> = l.rows.iter().map(|(k, _)| k.as_str()).collect();
                write!(f, " ({} ({}) consumed", l.table, keys.join(", "))?;
                if let Some(row) = &l.returned {
                    write!(f, " and returned {row}")?;
                }
                write!(f, "; then error {}; then commit)", l.error.1)
            }
            AnomalyKind::Kept(k) => {
                let keys: Vec<&str> = k.rows.iter().map(|(key, _)| key.as_str()).collect();
                write!(
                    f,
                    " ({} ({}) written and committed; then error {})",
                    k.table,
                    keys.join(", "),
                    k.error.1
                )
            }
            AnomalyKind::DeadlockVictim | AnomalyKind::Error { .. } => Ok(()),
        }
    }
}

/// How far back a writer's read is looked for (a bound, so a long run stays linear).
const LOOK_BACK: usize = 50_000;

/// The anomalies of a finished run, in trace order (several at one event in rule
/// order). `tables` is the final state of the watched tables (at least; others are
/// ignored), whose rows give the values of the rows the trace inserted. A rule whose
/// table or column the run lacks finds nothing; [`rule_problems`] says why.
pub fn find_anomalies(
    rules: &[AnomalyRule],
    trace: &[TraceEntry],
    tables: &[TableView],
) -> Vec<Anomaly> {
    let mut out = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        match rule.kind {
            AnomalyRuleKind::Duplicate => duplicates(i, rule, trace, tables, &mut out),
            AnomalyRuleKind::Unmatched => unmatched(i, rule, trace, tables, &mut out),
            AnomalyRuleKind::Lost => lost(i, rule, trace, &mut out),
            AnomalyRuleKind::Kept => kept(i, rule, trace, &mut out),
        }
    }
    victims_and_errors(trace, &mut out);
    out.sort_by_key(|a| a.event);
    out
}

/// A table of the final state and the positions of `columns` in it.
fn watched<'a>(
    tables: &'a [TableView],
    table: &str,
    columns: &[String],
) -> Option<(&'a TableView, Vec<usize>)> {
    let table = tables.iter().find(|t| t.name.eq_ignore_ascii_case(table))?;
    let columns = columns
        .iter()
        .map(|c| table.columns.iter().position(|x| x.eq_ignore_ascii_case(c)))
        .collect::<Option<Vec<usize>>>()?;
    Some((table, columns))
}

/// Key → values of `columns`, as text, for every row of the final state.
fn final_values<'a>(table: &'a TableView, columns: &[usize]) -> BTreeMap<&'a str, Vec<String>> {
    table
        .rows
        .iter()
        .map(|row| (row.key.as_str(), row_texts(row, columns)))
        .collect()
}

/// A row's values of `columns`, as text.
fn row_texts(row: &RowView, columns: &[usize]) -> Vec<String> {
    columns
        .iter()
        .map(|&c| value_text(&row.values[c]))
        .collect()
}

/// A value as an UPDATE event shows it (text quoted) → as [`value_text`] shows it.
fn unquote(shown: &str) -> String {
    shown
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or(shown)
        .to_string()
}

/// Repeats made by an INSERT or an UPDATE. A row's values over time come from the
/// final state with the trace's UPDATEs undone (an UPDATE event shows old and new
/// values); a row gone by the end is known only through its UPDATEs, so one deleted or
/// rolled back without an UPDATE of the watched columns is not compared. Values once
/// seen stay seen: deleting the first row does not hide a later repeat of it.
///
/// Rows are numbered once (a slot per key: the final state's rows, then keys only the
/// trace knows) and the rule's events are picked out in one pass, so the passes after
/// it index vectors instead of searching ordered maps of key text: a claim race of
/// 2 × 500 has about 19 000 events and a thousand rows.
fn duplicates<'t>(
    rule: usize,
    r: &AnomalyRule,
    trace: &'t [TraceEntry],
    tables: &[TableView],
    out: &mut Vec<Anomaly>,
) {
    /// Values of the watched columns, each known or not.
    type Values = Vec<Option<String>>;
    let Some((table, columns)) = watched(tables, &r.table, &r.columns) else {
        return;
    };
    let names: Vec<&str> = columns.iter().map(|&c| table.columns[c].as_str()).collect();
    let position = |c: &str| names.iter().position(|n| n.eq_ignore_ascii_case(c));
    let this = |t: &str| table.name.eq_ignore_ascii_case(t);
    // Slots: the final state's rows first, with their values as text.
    let mut keys: Vec<&str> = table.rows.iter().map(|row| row.key.as_str()).collect();
    let mut finals: Vec<Option<Vec<String>>> = table
        .rows
        .iter()
        .map(|row| Some(row_texts(row, &columns)))
        .collect();
    let mut slots: HashMap<&str, usize> = keys.iter().enumerate().map(|(n, &k)| (k, n)).collect();
    // Each row's values before the trace changed them: per column, the old value of its
    // first UPDATE, else the final value. Rows the trace never inserted are the setup's.
    let mut first: Vec<Option<Values>> = vec![None; keys.len()];
    let mut inserted: Vec<bool> = vec![false; keys.len()];
    // The rule's table's events, each with its row's slot.
    let mut picked: Vec<(usize, usize)> = Vec::new();
    for (i, entry) in trace.iter().enumerate() {
        let key = match &entry.event {
            Event::RowInserted { table: t, key, .. } | Event::RowUpdated { table: t, key, .. }
                if this(t) =>
            {
                key.as_str()
            }
            _ => continue,
        };
        let n = *slots.entry(key).or_insert_with(|| {
            keys.push(key);
            finals.push(None);
            first.push(None);
            inserted.push(false);
            keys.len() - 1
        });
        picked.push((i, n));
        match &entry.event {
            Event::RowInserted { .. } => inserted[n] = true,
            Event::RowUpdated { changes, .. } => {
                let slot = first[n].get_or_insert_with(|| vec![None; names.len()]);
                for (c, old, _) in changes {
                    if let Some(p) = position(c) {
                        slot[p].get_or_insert_with(|| unquote(old));
                    }
                }
            }
            _ => {}
        }
    }
    let initial = |n: usize| -> Values {
        (0..names.len())
            .map(|p| {
                first[n]
                    .as_ref()
                    .and_then(|v| v[p].clone())
                    .or_else(|| finals[n].as_ref().map(|v| v[p].clone()))
            })
            .collect()
    };
    // Values → the row that had them first: its slot, writer and event.
    let mut seen: HashMap<Vec<String>, (usize, &'t str, usize)> = HashMap::new();
    let mut current: Vec<Option<Values>> = vec![None; keys.len()];
    // The setup's rows hold their values from the start; equal values are first at the
    // lowest key (as text), whichever order the slots are in.
    let mut setup: Vec<usize> = (0..keys.len())
        .filter(|&n| !inserted[n] && (finals[n].is_some() || first[n].is_some()))
        .collect();
    setup.sort_by_key(|&n| keys[n]);
    for n in setup {
        let vals = initial(n);
        if let Some(known) = vals.iter().cloned().collect::<Option<Vec<String>>>() {
            seen.entry(known).or_insert((n, "setup", 0));
        }
        current[n] = Some(vals);
    }
    let mut once: Vec<bool> = vec![false; keys.len()];
    let push = |out: &mut Vec<Anomaly>,
                seen: &mut HashMap<Vec<String>, (usize, &'t str, usize)>,
                vals: &[Option<String>],
                n: usize,
                session: &'t str,
                i: usize,
                by_update: bool| {
        let Some(known) = vals.iter().cloned().collect::<Option<Vec<String>>>() else {
            return;
        };
        match seen.get(&known) {
            None => {
                seen.insert(known, (n, session, i));
            }
            Some(&(first_n, _, _)) if first_n == n => {}
            Some(&(first_n, first_session, first_insert)) => out.push(Anomaly {
                event: i,
                at_us: trace[i].at_us,
                session: session.to_string(),
                label: r.label.clone(),
                kind: AnomalyKind::Duplicate(Box::new(Duplicate {
                    rule,
                    table: table.name.clone(),
                    key: keys[n].to_string(),
                    values: names.iter().map(|n| n.to_string()).zip(known).collect(),
                    first_key: keys[first_n].to_string(),
                    first_session: first_session.to_string(),
                    first_insert,
                    session: session.to_string(),
                    insert: i,
                    by_update,
                })),
            }),
        }
    };
    for &(i, n) in &picked {
        match &trace[i].event {
            // A key inserted again after a rollback is the same row.
            Event::RowInserted { session, .. } if !once[n] => {
                once[n] = true;
                let vals = initial(n);
                push(out, &mut seen, &vals, n, session, i, false);
                current[n] = Some(vals);
            }
            Event::RowUpdated {
                session, changes, ..
            } => {
                let vals = current[n].get_or_insert_with(|| vec![None; names.len()]);
                let mut touched = false;
                for (c, _, new) in changes {
                    if let Some(p) = position(c) {
                        vals[p] = Some(unquote(new));
                        touched = true;
                    }
                }
                if touched {
                    let vals = vals.clone();
                    push(out, &mut seen, &vals, n, session, i, true);
                }
            }
            _ => {}
        }
    }
}

/// Rows inserted into the rule's table whose values no row of `match_table` has at the
/// end (rows gone by the end are not compared: they did not stay unmatched).
fn unmatched(
    rule: usize,
    r: &AnomalyRule,
    trace: &[TraceEntry],
    tables: &[TableView],
    out: &mut Vec<Anomaly>,
) {
    let Some((table, columns)) = watched(tables, &r.table, &r.columns) else {
        return;
    };
    let Some((other, other_columns)) = r
        .match_table
        .as_deref()
        .and_then(|m| watched(tables, m, r.match_columns()))
    else {
        return;
    };
    let finals = final_values(table, &columns);
    let recorded: BTreeSet<Vec<String>> =
        final_values(other, &other_columns).into_values().collect();
    let mut keys: BTreeSet<&str> = BTreeSet::new();
    for (i, entry) in trace.iter().enumerate() {
        let Event::RowInserted {
            session,
            table: t,
            key,
        } = &entry.event
        else {
            continue;
        };
        if !table.name.eq_ignore_ascii_case(t) || !keys.insert(key) {
            continue;
        }
        let Some(vals) = finals.get(key.as_str()) else {
            continue;
        };
        if recorded.contains(vals) {
            continue;
        }
        let error = trace[i + 1..]
            .iter()
            .take(LOOK_BACK)
            .enumerate()
            .find_map(|(d, e)| match &e.event {
                Event::Error {
                    session: s, number, ..
                } if s == session => Some(Some((i + 1 + d, *number))),
                Event::SessionFinished { session: s } if s == session => Some(None),
                _ => None,
            })
            .flatten();
        // The last delete of the matching row, if one came after the insert: the row
        // was there, and that delete is what left this one unmatched.
        let wanted = vals.join(", ");
        let removed = trace[i + 1..]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(d, e)| match &e.event {
                Event::RowDeleted {
                    session,
                    table: t,
                    key,
                } if other.name.eq_ignore_ascii_case(t) && *key == wanted => {
                    Some((i + 1 + d, session.to_string()))
                }
                _ => None,
            });
        let (event, by) = match &removed {
            Some((d, by)) => (*d, by.as_str()),
            None => (i, &**session),
        };
        out.push(Anomaly {
            event,
            at_us: trace[event].at_us,
            session: by.to_string(),
            label: r.label.clone(),
            kind: AnomalyKind::Unmatched(Box::new(Unmatched {
                rule,
                table: table.name.clone(),
                key: key.clone(),
                values: columns
                    .iter()
                    .map(|&c| table.columns[c].clone())
                    .zip(vals.iter().cloned())
                    .collect(),
                match_table: other.name.clone(),
                match_columns: other_columns
                    .iter()
                    .map(|&c| other.columns[c].clone())
                    .collect(),
                session: session.to_string(),
                insert: i,
                error,
                removed,
            })),
        });
    }
}

/// Rows deleted from the rule's table by a transaction that then committed, when a
/// statement of that transaction failed after the delete: the consume is permanent,
/// the action taken for the row is not. A rollback (ROLLBACK, ABORT, a session ending)
/// puts the rows back: no anomaly.
fn lost(rule: usize, r: &AnomalyRule, trace: &[TraceEntry], out: &mut Vec<Anomaly>) {
    #[derive(Default)]
    struct Open {
        rows: Vec<(String, usize)>,
        error: Option<(usize, u32)>,
        returned: Option<String>,
    }
    let mut open: BTreeMap<&str, Open> = BTreeMap::new();
    for (i, entry) in trace.iter().enumerate() {
        match &entry.event {
            Event::RowDeleted {
                session,
                table,
                key,
            } if table.eq_ignore_ascii_case(&r.table) => {
                open.entry(session).or_default().rows.push((key.clone(), i));
            }
            Event::ResultReturned {
                session, first_row, ..
            } => {
                if let Some(o) = open.get_mut(&**session) {
                    if o.returned.is_none() && o.error.is_none() {
                        o.returned = first_row.clone();
                    }
                }
            }
            Event::Error {
                session, number, ..
            } => {
                if let Some(o) = open.get_mut(&**session) {
                    o.error.get_or_insert((i, *number));
                }
            }
            Event::TransactionCommitted { session, .. }
            | Event::LockReleased {
                session,
                reason: ReleaseReason::Commit,
                ..
            } => {
                let Some(o) = open.remove(&**session) else {
                    continue;
                };
                let Some(error) = o.error else {
                    continue;
                };
                out.push(Anomaly {
                    event: i,
                    at_us: entry.at_us,
                    session: session.to_string(),
                    label: r.label.clone(),
                    kind: AnomalyKind::Lost(Box::new(Lost {
                        rule,
                        table: r.table.clone(),
                        rows: o.rows,
                        session: session.to_string(),
                        error,
                        commit: i,
                        returned: o.returned,
                    })),
                });
            }
            Event::TransactionRolledBack { session, .. }
            | Event::LockReleased {
                session,
                reason: ReleaseReason::Rollback,
                ..
            } => {
                open.remove(&**session);
            }
            _ => {}
        }
    }
}

/// Rows of the rule's table a session wrote and committed, then that session's next
/// error: the rows record work as done that failed. One anomaly per error, naming the
/// committed rows since the session's previous one; a rollback drops uncommitted writes.
fn kept(rule: usize, r: &AnomalyRule, trace: &[TraceEntry], out: &mut Vec<Anomaly>) {
    #[derive(Default)]
    struct Open {
        pending: Vec<(String, usize)>,
        committed: Vec<(String, usize)>,
        commit: usize,
    }
    let add = |rows: &mut Vec<(String, usize)>, key: &str, i: usize| {
        if !rows.iter().any(|(k, _)| k == key) {
            rows.push((key.to_string(), i));
        }
    };
    let mut open: BTreeMap<&str, Open> = BTreeMap::new();
    for (i, entry) in trace.iter().enumerate() {
        match &entry.event {
            Event::RowInserted {
                session,
                table,
                key,
            }
            | Event::RowUpdated {
                session,
                table,
                key,
                ..
            } if table.eq_ignore_ascii_case(&r.table) => {
                add(&mut open.entry(session).or_default().pending, key, i);
            }
            Event::TransactionCommitted { session, .. }
            | Event::LockReleased {
                session,
                reason: ReleaseReason::Commit,
                ..
            } => {
                if let Some(o) = open.get_mut(&**session) {
                    if !o.pending.is_empty() {
                        for (key, at) in std::mem::take(&mut o.pending) {
                            add(&mut o.committed, &key, at);
                        }
                        o.commit = i;
                    }
                }
            }
            Event::TransactionRolledBack { session, .. }
            | Event::LockReleased {
                session,
                reason: ReleaseReason::Rollback,
                ..
            } => {
                if let Some(o) = open.get_mut(&**session) {
                    o.pending.clear();
                }
            }
            Event::Error {
                session, number, ..
            } => {
                let Some(o) = open.get_mut(&**session) else {
                    continue;
                };
                if o.committed.is_empty() {
                    continue;
                }
                out.push(Anomaly {
                    event: i,
                    at_us: entry.at_us,
                    session: session.to_string(),
                    label: r.label.clone(),
                    kind: AnomalyKind::Kept(Box::new(Kept {
                        rule,
                        table: r.table.clone(),
                        rows: std::mem::take(&mut o.committed),
                        session: session.to_string(),
                        commit: o.commit,
                        error: (i, *number),
                    })),
                });
            }
            Event::SessionFinished { session } => {
                open.remove(&**session);
            }
            _ => {}
        }
    }
}

/// Deadlock victims and errors no TRY block caught, in every lesson.
fn victims_and_errors(trace: &[TraceEntry], out: &mut Vec<Anomaly>) {
    let mut found: Vec<Anomaly> = Vec::new();
    for (i, entry) in trace.iter().enumerate() {
        match &entry.event {
            Event::Deadlock { victim, .. } => found.push(Anomaly {
                event: i,
                at_us: entry.at_us,
                session: victim.clone(),
                label: "deadlock victim".to_string(),
                kind: AnomalyKind::DeadlockVictim,
            }),
            Event::Error {
                session,
                number,
                sqlstate,
                caught: false,
                ..
            } => {
                // A victim's 1205 is the deadlock's own anomaly, marked already.
                let victim =
                    *number == 1205
                        && found.iter().rev().take(8).any(|a| {
                            a.kind == AnomalyKind::DeadlockVictim && a.session == **session
                        });
                if !victim {
                    found.push(Anomaly {
                        event: i,
                        at_us: entry.at_us,
                        session: session.to_string(),
                        label: format!("error {}", engine::error_code(*number, *sqlstate)),
                        kind: AnomalyKind::Error {
                            number: *number,
                            sqlstate: *sqlstate,
                        },
                    });
                }
            }
            _ => {}
        }
    }
    out.extend(found);
}

/// Why rules find nothing in this final state: a table or column that does not exist.
/// Each problem comes with the position where the rule names it, for `lockstep check`.
pub fn rule_problems(rules: &[AnomalyRule], tables: &[TableView]) -> Vec<((u32, u32), String)> {
    let mut out = Vec::new();
    for r in rules {
        let at = &r.places;
        let mut watched = vec![(r.table.as_str(), at.table, &r.columns[..], &at.columns)];
        if let Some(m) = &r.match_table {
            // Without `match_columns`, the match compares the same names as `columns`.
            let places = if r.match_columns.is_empty() {
                &at.columns
            } else {
                &at.match_columns
            };
            watched.push((m, at.match_table, r.match_columns(), places));
        }
        for (table, table_at, columns, columns_at) in watched {
            let Some(t) = tables.iter().find(|t| t.name.eq_ignore_ascii_case(table)) else {
                let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
                out.push((
                    table_at,
                    format!(
                        "anomaly `{}` watches table `{table}`, which the run does not have (tables: {})",
                        r.label,
                        names.join(", ")
                    ),
                ));
                continue;
            };
            for (i, c) in columns.iter().enumerate() {
                if !t.columns.iter().any(|x| x.eq_ignore_ascii_case(c)) {
                    out.push((
                        columns_at.get(i).copied().unwrap_or((r.line, r.col)),
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
            reads_name: "logical reads",
        }
    }
    fn start(s: &str) -> Event {
        Event::StatementStarted {
            session: rc(s),
            label: "X",
            line: 1,
            text: "".into(),
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
            label: "task claimed again".into(),
            verb: "claimed".into(),
            match_table: None,
            match_columns: Vec::new(),
            line: 1,
            col: 1,
            places: RulePlaces::default(),
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
            "w1: task claimed again (claim (2) repeats task_id 1 of claim (1))"
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

    fn update_to(s: &str, key: &str, old: &str, new: &str) -> Event {
        Event::RowUpdated {
            session: rc(s),
            table: rc("claim"),
            key: key.into(),
            changes: vec![("task_id".into(), old.into(), new.into())],
        }
    }

    #[test]
    fn an_update_that_repeats_a_value_is_a_duplicate_at_the_update() {
        let trace = vec![
            at(10, insert("w1", "claim", "1")),     // task 1
            at(20, insert("w2", "claim", "2")),     // task 2 at first
            at(30, update_to("w2", "2", "2", "1")), // now task 1 too
        ];
        let found = find_anomalies(&[rule()], &trace, &[claims(&[(1, 1), (2, 1)])]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].event, found[0].at_us), (2, 30));
        assert_eq!(
            found[0].to_string(),
            "w2: task claimed again (claim (2) updated to repeat task_id 1 of claim (1))"
        );
        // Updating a row to its own values again is no repeat.
        let trace = vec![
            at(10, insert("w1", "claim", "1")),
            at(30, update_to("w1", "1", "2", "1")),
        ];
        assert!(find_anomalies(&[rule()], &trace, &[claims(&[(1, 1)])]).is_empty());
    }

    #[test]
    fn a_row_deleted_later_still_counts_when_the_trace_shows_its_values() {
        // Claim 1 got task 1 by an UPDATE, then was deleted; claim 2 repeats it.
        let trace = vec![
            at(10, insert("w1", "claim", "1")),
            at(11, update_to("w1", "1", "0", "1")),
            at(20, insert("w2", "claim", "2")),
            at(
                30,
                Event::RowDeleted {
                    session: rc("w1"),
                    table: rc("claim"),
                    key: "1".into(),
                },
            ),
        ];
        let found = find_anomalies(&[rule()], &trace, &[claims(&[(2, 1)])]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].event, found[0].session.as_str()), (2, "w2"));
        let AnomalyKind::Duplicate(d) = &found[0].kind else {
            panic!()
        };
        assert_eq!((d.first_key.as_str(), d.first_insert), ("1", 1));
    }

    #[test]
    fn a_row_with_no_match_is_unmatched_and_names_the_error_after_it() {
        let calls = TableView {
            name: "external_system".into(),
            columns: vec!["OrderId".into()],
            rows: [1000, 1001]
                .iter()
                .map(|id| RowView {
                    key: id.to_string(),
                    values: vec![Value::Int(*id)],
                    locks: Vec::new(),
                    uncommitted_by: None,
                })
                .collect(),
            total_rows: 2,
            table_locks: Vec::new(),
        };
        let mut entries = claims(&[(1, 1000)]);
        entries.name = "send".into();
        entries.columns = vec!["Id".into(), "OrderId".into()];
        let rule = AnomalyRule {
            kind: AnomalyRuleKind::Unmatched,
            table: "external_system".into(),
            columns: vec!["OrderId".into()],
            label: "call with no entry".into(),
            verb: "called".into(),
            match_table: Some("send".into()),
            match_columns: Vec::new(),
            line: 1,
            col: 1,
            places: RulePlaces::default(),
        };
        let trace = vec![
            at(5, insert("u1", "external_system", "1000")),
            at(6, insert("u2", "external_system", "1001")),
            at(7, insert("u1", "send", "1")),
            at(
                8,
                Event::Error {
                    session: rc("u2"),
                    number: 2601,
                    severity: 14,
                    state: 1,
                    message: "m".into(),
                    caught: false,
                    sqlstate: None,
                },
            ),
        ];
        let found = find_anomalies(&[rule], &trace, &[calls, entries]);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!((found[0].event, found[0].kind.name()), (1, "unmatched"));
        let AnomalyKind::Unmatched(u) = &found[0].kind else {
            panic!()
        };
        assert_eq!(u.error, Some((3, 2601)));
        assert_eq!(u.match_columns, ["OrderId"]);
        assert_eq!(
            found[1].kind,
            AnomalyKind::Error {
                number: 2601,
                sqlstate: None
            }
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
            sqlstate: None,
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
