//! The outcome matrix: a lesson run under every combination of its toggles on several
//! seeds, one row per combination and one column per figure its checks and properties
//! name (a session's wait, errors by number, a query's number such as duplicates), so
//! the whole table of outcomes reads at once. `lockstep matrix` prints it; the browser
//! computes it in its worker. [`MatrixRun`] does the work a few engine steps at a time.

use engine::{Outcome, Simulation, Sink};

use crate::codec::{Codec, DecodeError, Reader, Writer};

use crate::check::{number, rows_text};
use crate::toggle::all_hold;
use crate::{evaluate_checks, Applied, CheckKind, Figure, Lesson, PropertyKind, Settings};
use crate::{Builtin, Toggle};

/// Seeds a matrix runs when the lesson is not an exercise (an exercise runs its own).
pub const DEFAULT_MATRIX_SEEDS: usize = 3;

/// What a column reads from a finished run.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnMeasure {
    /// A figure of the outcome (`wait_ms`, `error_number`, ...); without a session,
    /// summed over all sessions, as a check reads it.
    Figure {
        session: Option<String>,
        figure: Figure,
    },
    /// SQL run against the final state (a check's `sql`, a property's `always` or
    /// `at_end`): one number, or the rows as text.
    Query { sql: String },
    /// The `result`-th result set (1-based) a session returned.
    Result { session: String, result: usize },
    /// Every error no TRY block caught, by session and number.
    ErrorNumbers,
    /// Errors 1205: sessions chosen as deadlock victims (the `no-deadlock` built-in).
    DeadlockVictims,
}

impl ColumnMeasure {
    /// What a check reads: its column.
    pub fn of_check(kind: &CheckKind) -> ColumnMeasure {
        match kind {
            CheckKind::Query { sql, .. } => ColumnMeasure::Query { sql: sql.clone() },
            CheckKind::Result {
                session, result, ..
            } => ColumnMeasure::Result {
                session: session.clone(),
                result: *result,
            },
            CheckKind::Figure {
                session, figure, ..
            } => ColumnMeasure::Figure {
                session: session.clone(),
                figure: *figure,
            },
        }
    }

    /// What a property reads: its column (`no-errors` reads the errors by number).
    pub fn of_property(kind: &PropertyKind) -> ColumnMeasure {
        match kind {
            PropertyKind::Always { sql, .. } | PropertyKind::AtEnd { sql, .. } => {
                ColumnMeasure::Query { sql: sql.clone() }
            }
            PropertyKind::Builtin(Builtin::NoErrors) => ColumnMeasure::ErrorNumbers,
            PropertyKind::Builtin(Builtin::NoDeadlock) => ColumnMeasure::DeadlockVictims,
        }
    }
}

/// One column: a short `key` for headers (a contract of `lockstep matrix --json`) and
/// what it is, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// `B.wait_ms`, `errors`, a property's name, `q1` for a check's SQL.
    pub key: String,
    /// The check's name or the property's label it comes from.
    pub label: String,
    pub measure: ColumnMeasure,
}

/// One run's value in a cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading {
    Number(f64),
    Text(String),
    /// Nothing to read: the session did not run with these settings, or the SQL failed
    /// on this combination's tables.
    Missing,
}

/// A cell: one reading per seed, in the matrix's seed order.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub readings: Vec<Reading>,
}

/// One combination of toggle values.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// (toggle, value) in the lesson's toggle order.
    pub settings: Vec<(String, String)>,
    /// One per column; empty when `error` is set.
    pub cells: Vec<Cell>,
    /// Check verdicts that passed (a bug reproduced counts as passed), over every seed.
    pub checks_passed: u64,
    /// Check verdicts over every seed: the checks that apply times the seeds.
    pub checks_total: u64,
    /// Each check that applies to this combination, by its index in the lesson's
    /// `checks`: whether it passed on every seed (a bug check: the bug was reproduced on
    /// every seed). A page marks each cell from these without judging readings again.
    pub check_verdicts: Vec<(usize, bool)>,
    /// The same for each property that applies, by its index in the lesson's
    /// `properties`, judged on each run's final state: held on every seed. A property
    /// whose query failed on some seed has none.
    pub property_verdicts: Vec<(usize, bool)>,
    /// The engine refused the lesson's SQL with these settings.
    pub error: Option<String>,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub lesson: String,
    pub toggles: Vec<String>,
    pub seeds: Vec<u64>,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

/// The seeds a matrix runs by default: an exercise's own seeds, else the lesson's seed
/// and the [`DEFAULT_MATRIX_SEEDS`] − 1 after it.
pub fn default_seeds(lesson: &Lesson) -> Vec<u64> {
    match &lesson.exercise {
        Some(e) if !e.seeds.is_empty() => e.seeds.clone(),
        _ => seeds_from(lesson.seed, DEFAULT_MATRIX_SEEDS),
    }
}

/// `count` seeds: the first of [`default_seeds`], then the ones after the last.
pub fn matrix_seeds(lesson: &Lesson, count: usize) -> Vec<u64> {
    let mut seeds = default_seeds(lesson);
    seeds.truncate(count);
    while seeds.len() < count {
        let next = seeds.last().map_or(lesson.seed, |s| s.wrapping_add(1));
        seeds.push(next);
    }
    seeds
}

fn seeds_from(first: u64, count: usize) -> Vec<u64> {
    (0..count as u64).map(|i| first.wrapping_add(i)).collect()
}

/// The columns of a lesson's matrix: each figure, SQL and result its checks and
/// properties read (once, in the order they are written), then the uncaught errors by
/// number, which every lesson has.
pub fn columns(lesson: &Lesson) -> Vec<Column> {
    let mut found: Vec<(ColumnMeasure, String)> = Vec::new();
    // Checks that read the same figure under different settings share its column, which
    // is labelled with each of their names (each row is judged by the one that applies).
    let mut add =
        |measure: ColumnMeasure, label: &str| match found.iter_mut().find(|(m, _)| *m == measure) {
            Some((_, shared)) => {
                if !shared.split(" / ").any(|l| l == label) {
                    shared.push_str(" / ");
                    shared.push_str(label);
                }
            }
            None => found.push((measure, label.to_string())),
        };
    for check in &lesson.checks {
        add(ColumnMeasure::of_check(&check.kind), &check.name);
    }
    for property in &lesson.properties {
        // Every matrix has the errors by number, below.
        if property.kind != PropertyKind::Builtin(Builtin::NoErrors) {
            add(ColumnMeasure::of_property(&property.kind), &property.label);
        }
    }
    add(
        ColumnMeasure::ErrorNumbers,
        "Errors no TRY block caught, by session and number",
    );
    let mut queries = 0;
    let mut keys: Vec<String> = Vec::new();
    found
        .into_iter()
        .map(|(measure, mut label)| {
            let key = match &measure {
                ColumnMeasure::Figure {
                    session: Some(s),
                    figure,
                } => format!("{s}.{}", figure.name()),
                ColumnMeasure::Figure {
                    session: None,
                    figure,
                } => figure.name().to_string(),
                // A property that reads the same SQL lends its name.
                ColumnMeasure::Query { sql } => match lesson.properties.iter().find(|p| {
                    matches!(&p.kind, PropertyKind::Always { sql: s, .. }
                        | PropertyKind::AtEnd { sql: s, .. } if s == sql)
                }) {
                    Some(p) => {
                        label.clone_from(&p.label);
                        p.name.clone()
                    }
                    None => {
                        queries += 1;
                        format!("q{queries}")
                    }
                },
                ColumnMeasure::Result { session, result } => format!("{session}.result{result}"),
                ColumnMeasure::ErrorNumbers => "error_numbers".to_string(),
                ColumnMeasure::DeadlockVictims => "deadlock_victims".to_string(),
            };
            // Keys name cells in JSON: a repeat (a property named like a figure) is numbered.
            let mut unique = key.clone();
            let mut n = 1;
            while keys.contains(&unique) {
                n += 1;
                unique = format!("{key}#{n}");
            }
            keys.push(unique.clone());
            let key = unique;
            Column {
                key,
                label,
                measure,
            }
        })
        .collect()
}

/// Every combination of the toggles' values, the first toggle varying slowest, each in
/// the order the lesson lists its values (the matrix reads like the toggle bar).
pub fn all_settings(toggles: &[Toggle]) -> Vec<Settings> {
    let mut out = Vec::new();
    let mut indices = vec![0usize; toggles.len()];
    loop {
        out.push(Settings::from_indices(toggles, &indices));
        let mut i = toggles.len();
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            indices[i] += 1;
            if indices[i] < toggles[i].values.len() {
                break;
            }
            indices[i] = 0;
        }
    }
}

impl ColumnMeasure {
    /// What this column reads from a run that has ended in `simulation`.
    pub fn read(&self, outcome: &Outcome, simulation: &mut Simulation) -> Reading {
        match self {
            ColumnMeasure::Figure { session, figure } => figure
                .value(outcome, session.as_deref())
                .map_or(Reading::Missing, Reading::Number),
            ColumnMeasure::Query { sql } => match simulation.query(sql) {
                Ok(rs) => match rs.rows.as_slice() {
                    [row] if row.len() == 1 => match number(&row[0]) {
                        Some(n) => Reading::Number(n),
                        None => Reading::Text(crate::value_text(&row[0])),
                    },
                    rows => Reading::Text(rows_text(rows)),
                },
                Err(_) => Reading::Missing,
            },
            ColumnMeasure::Result { session, result } => outcome
                .sessions
                .iter()
                .find(|s| s.name == *session)
                .and_then(|s| s.results.get(result.wrapping_sub(1)))
                .map_or(Reading::Missing, |rs| Reading::Text(rows_text(&rs.rows))),
            ColumnMeasure::ErrorNumbers => {
                let parts: Vec<String> = outcome
                    .sessions
                    .iter()
                    .filter_map(|s| {
                        let numbers: Vec<String> = s
                            .errors
                            .iter()
                            .filter(|e| !e.caught)
                            .map(|e| e.code())
                            .collect();
                        (!numbers.is_empty()).then(|| format!("{} {}", s.name, numbers.join(" ")))
                    })
                    .collect();
                Reading::Text(if parts.is_empty() {
                    "none".to_string()
                } else {
                    parts.join(", ")
                })
            }
            ColumnMeasure::DeadlockVictims => Reading::Number(
                outcome
                    .sessions
                    .iter()
                    .flat_map(|s| &s.errors)
                    .filter(|e| e.number == 1205)
                    .count() as f64,
            ),
        }
    }
}

/// A number as the matrix writes it: `650`, `2512.345` (µs precision survives).
pub fn number_text(n: f64) -> String {
    format!("{n}")
}

/// The text of a missing reading.
pub const MISSING: &str = "—";

impl Cell {
    /// The smallest and largest reading when every seed gave a number.
    pub fn range(&self) -> Option<(f64, f64)> {
        let mut range: Option<(f64, f64)> = None;
        for r in &self.readings {
            let Reading::Number(n) = r else {
                return None;
            };
            range = Some(range.map_or((*n, *n), |(lo, hi)| (lo.min(*n), hi.max(*n))));
        }
        range
    }

    /// `650`; `2450.1–2512.3` when the seeds' numbers differ; otherwise the distinct
    /// readings in seed order joined by ` / `.
    pub fn text(&self) -> String {
        if let Some((lo, hi)) = self.range() {
            return if lo == hi {
                number_text(lo)
            } else {
                format!("{}–{}", number_text(lo), number_text(hi))
            };
        }
        let mut distinct: Vec<String> = Vec::new();
        for r in &self.readings {
            let text = match r {
                Reading::Number(n) => number_text(*n),
                Reading::Text(t) => t.clone(),
                Reading::Missing => MISSING.to_string(),
            };
            if !distinct.contains(&text) {
                distinct.push(text);
            }
        }
        distinct.join(" / ")
    }
}

/// How far a [`MatrixRun`] got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatrixProgress {
    /// Runs finished, of `runs` (combinations × seeds).
    pub runs_done: usize,
    pub runs: usize,
    /// Engine steps so far, over every run.
    pub steps: u64,
}

/// The matrix a few engine steps at a time, so the browser's worker can post its
/// progress; each run builds no events (it reads outcomes and final states only).
pub struct MatrixRun {
    lesson: Lesson,
    combinations: Vec<Settings>,
    seeds: Vec<u64>,
    columns: Vec<Column>,
    rows: Vec<Row>,
    /// The combination being run, its applied lesson, and its seed's simulation.
    applied: Option<Applied>,
    seed_index: usize,
    simulation: Option<Simulation>,
    pending: Option<Pending>,
    runs_done: usize,
    steps: u64,
}

impl MatrixRun {
    /// The matrix of `lesson` on `seeds`; nothing runs yet.
    pub fn new(lesson: &Lesson, seeds: &[u64]) -> MatrixRun {
        MatrixRun {
            combinations: all_settings(&lesson.toggles),
            seeds: seeds.to_vec(),
            columns: columns(lesson),
            rows: Vec::new(),
            applied: None,
            seed_index: 0,
            simulation: None,
            pending: None,
            runs_done: 0,
            steps: 0,
            lesson: lesson.clone(),
        }
    }

    /// Runs at most about `max_steps` engine steps (a run's setup counts as none); the
    /// matrix once every combination has run on every seed.
    pub fn advance(&mut self, max_steps: u64) -> Option<Matrix> {
        let mut budget = max_steps;
        while let Some(settings) = self.combinations.get(self.rows.len()) {
            let pairs: Vec<(String, String)> = settings
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            if self.applied.is_none() {
                match self.lesson.apply(settings) {
                    Ok(applied) => self.applied = Some(applied),
                    Err(e) => {
                        self.refused(pairs, e.to_string());
                        continue;
                    }
                }
            }
            let applied = self.applied.as_ref().expect("applied above");
            let Some(&seed) = self.seeds.get(self.seed_index) else {
                self.finish_row(pairs);
                continue;
            };
            let simulation = match &mut self.simulation {
                Some(s) => s,
                None => match Simulation::new(&applied.scenario, seed) {
                    Ok(mut s) => {
                        s.set_sink(Sink::Nothing);
                        self.simulation.insert(s)
                    }
                    Err(e) => {
                        let message = applied
                            .locate(e.block, e.line, e.col, &e.message)
                            .to_string();
                        self.refused(pairs, message);
                        continue;
                    }
                },
            };
            loop {
                if budget == 0 {
                    return None;
                }
                budget -= 1;
                self.steps += 1;
                // The default random scheduler always picks an enabled session.
                if !simulation.try_step().unwrap_or(false) {
                    break;
                }
            }
            self.record_run();
        }
        Some(Matrix {
            lesson: self.lesson.id.clone(),
            toggles: self.lesson.toggles.iter().map(|t| t.name.clone()).collect(),
            seeds: self.seeds.clone(),
            columns: std::mem::take(&mut self.columns),
            rows: std::mem::take(&mut self.rows),
        })
    }

    /// Reads the finished run into the pending row's cells.
    fn record_run(&mut self) {
        let (Some(applied), Some(mut simulation)) = (&self.applied, self.simulation.take()) else {
            return;
        };
        let outcome = simulation.outcome();
        let checks = evaluate_checks(&applied.checks, &outcome, &mut |sql| simulation.query(sql));
        let pending = self.pending.get_or_insert_with(|| Pending {
            cells: vec![
                Cell {
                    readings: Vec::new()
                };
                self.columns.len()
            ],
            passed: 0,
            total: 0,
            verdicts: Vec::new(),
            properties: Vec::new(),
        });
        pending.passed += checks.iter().filter(|c| c.passed).count() as u64;
        pending.total += checks.len() as u64;
        // `applied.checks` are the lesson's checks whose `when` holds, in order.
        let settings = &self.combinations[self.rows.len()];
        let applying = self
            .lesson
            .checks
            .iter()
            .enumerate()
            .filter(|(_, c)| all_hold(&c.when, settings))
            .map(|(i, _)| i);
        if pending.verdicts.is_empty() {
            pending.verdicts = applying.map(|i| (i, true)).collect();
        }
        for ((_, held), result) in pending.verdicts.iter_mut().zip(&checks) {
            *held &= result.passed;
        }
        let first_seed = pending.cells[0].readings.is_empty();
        for (i, property) in self.lesson.properties.iter().enumerate() {
            if !all_hold(&property.when, settings) {
                continue;
            }
            let holds = match property.violation(&mut simulation) {
                Ok(broken) => Some(broken.is_none()),
                Err(_) => None,
            };
            let at = pending.properties.iter().position(|(p, _)| *p == i);
            match (at, holds) {
                (Some(at), Some(h)) => {
                    if let Some(held) = &mut pending.properties[at].1 {
                        *held &= h;
                    }
                }
                (Some(at), None) => pending.properties[at].1 = None,
                (None, holds) if first_seed => pending.properties.push((i, holds)),
                (None, _) => {}
            }
        }
        for (cell, column) in pending.cells.iter_mut().zip(&self.columns) {
            cell.readings
                .push(column.measure.read(&outcome, &mut simulation));
        }
        self.seed_index += 1;
        self.runs_done += 1;
    }

    fn finish_row(&mut self, settings: Vec<(String, String)>) {
        let pending = self.pending.take().unwrap_or_default();
        self.rows.push(Row {
            settings,
            cells: pending.cells,
            checks_passed: pending.passed,
            checks_total: pending.total,
            check_verdicts: pending.verdicts,
            property_verdicts: pending
                .properties
                .into_iter()
                .filter_map(|(i, held)| Some((i, held?)))
                .collect(),
            error: None,
        });
        self.applied = None;
        self.seed_index = 0;
    }

    /// A combination the engine refused: a row with its error, its runs counted as done.
    fn refused(&mut self, settings: Vec<(String, String)>, error: String) {
        self.runs_done += self.seeds.len() - self.seed_index;
        self.pending = None;
        self.simulation = None;
        self.applied = None;
        self.seed_index = 0;
        self.rows.push(Row {
            settings,
            cells: Vec::new(),
            checks_passed: 0,
            checks_total: 0,
            check_verdicts: Vec::new(),
            property_verdicts: Vec::new(),
            error: Some(error),
        });
    }

    pub fn progress(&self) -> MatrixProgress {
        MatrixProgress {
            runs_done: self.runs_done,
            runs: self.combinations.len() * self.seeds.len(),
            steps: self.steps,
        }
    }
}

/// The row being filled, seed by seed.
#[derive(Default)]
struct Pending {
    cells: Vec<Cell>,
    passed: u64,
    total: u64,
    verdicts: Vec<(usize, bool)>,
    /// (property, held on every seed so far; None once its query failed).
    properties: Vec<(usize, Option<bool>)>,
}

/// Runs the whole matrix at once (the CLI, tests).
pub fn run_matrix(lesson: &Lesson, seeds: &[u64]) -> Matrix {
    let mut run = MatrixRun::new(lesson, seeds);
    loop {
        if let Some(matrix) = run.advance(u64::MAX) {
            return matrix;
        }
    }
}

// The matrix crosses from the browser's worker to the page in the lessons' codec.
crate::codec_struct!(Column {
    key,
    label,
    measure
});
crate::codec_struct!(Cell { readings });
crate::codec_struct!(Row {
    settings,
    cells,
    checks_passed,
    checks_total,
    check_verdicts,
    property_verdicts,
    error
});
crate::codec_struct!(Matrix {
    lesson,
    toggles,
    seeds,
    columns,
    rows
});
crate::codec_struct!(MatrixProgress {
    runs_done,
    runs,
    steps
});

impl Codec for ColumnMeasure {
    fn put(&self, w: &mut Writer) {
        match self {
            ColumnMeasure::Figure { session, figure } => {
                w.tag(0);
                session.put(w);
                figure.put(w);
            }
            ColumnMeasure::Query { sql } => {
                w.tag(1);
                sql.put(w);
            }
            ColumnMeasure::Result { session, result } => {
                w.tag(2);
                session.put(w);
                result.put(w);
            }
            ColumnMeasure::ErrorNumbers => w.tag(3),
            ColumnMeasure::DeadlockVictims => w.tag(4),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match r.tag()? {
            0 => ColumnMeasure::Figure {
                session: Codec::get(r)?,
                figure: Codec::get(r)?,
            },
            1 => ColumnMeasure::Query {
                sql: Codec::get(r)?,
            },
            2 => ColumnMeasure::Result {
                session: Codec::get(r)?,
                result: Codec::get(r)?,
            },
            3 => ColumnMeasure::ErrorNumbers,
            4 => ColumnMeasure::DeadlockVictims,
            _ => return r.bad_tag(),
        })
    }
}

impl Codec for Reading {
    fn put(&self, w: &mut Writer) {
        match self {
            Reading::Number(n) => {
                w.tag(0);
                n.put(w);
            }
            Reading::Text(t) => {
                w.tag(1);
                t.put(w);
            }
            Reading::Missing => w.tag(2),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match r.tag()? {
            0 => Reading::Number(Codec::get(r)?),
            1 => Reading::Text(Codec::get(r)?),
            2 => Reading::Missing,
            _ => return r.bad_tag(),
        })
    }
}
