//! What the outcome matrix page (`components/matrix.rs`) makes of a `lesson::Matrix`
//! for a reader: a cell's reading as a plain value, and whether what the lesson expects
//! of the cell came true. Pure, unit-tested natively.
//!
//! A `Matrix` carries readings and, per row, how many check verdicts passed; not which
//! check passed. So each cell is judged again here from its readings against the checks
//! and properties that read its column, with the same rules as `lesson::evaluate_checks`
//! where a reading holds enough to decide, and the row's tally settles the rest when the
//! readings account for every failure (or every pass). What stays undecided gets no mark.

use lesson::{Cell, Column, ColumnMeasure, Lesson, Reading, Row, MISSING};

use crate::t;

/// Who expects something of a cell: the lesson's check or property at that index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Check(usize),
    Property(usize),
}

/// One expectation on a cell, over the matrix's seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    pub source: Source,
    /// Held on every seed (a bug check: the bug was reproduced on every seed).
    pub held: bool,
}

/// The mark a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Every expectation held: checks passed, properties held.
    Pass,
    /// A `bug = true` check held: the lesson's bug, reproduced (a property that breaks
    /// with it is that bug, not a second finding).
    Bug,
    /// A check failed (a bug check that did not reproduce included), or a property broke
    /// with no bug check saying so.
    Fail,
}

impl Mark {
    /// The `data-mark` value and class suffix.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Pass => "pass",
            Mark::Bug => "bug",
            Mark::Fail => "fail",
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Pass => "✓",
            Mark::Bug => "⚠",
            Mark::Fail => "✗",
        }
    }
}

/// What `ColumnMeasure::ErrorNumbers` reads when no error went uncaught.
const NO_ERRORS: &str = "none";

/// Each column's expectations in one row, from the verdicts the matrix recorded for its
/// runs (`Row::check_verdicts`, `Row::property_verdicts`): the checks and properties
/// that apply to the row and read the column, in the lesson's order.
pub fn judge_row(lesson: &Lesson, columns: &[Column], row: &Row) -> Vec<Vec<Judged>> {
    let mut out = vec![Vec::new(); columns.len()];
    if row.error.is_some() || row.cells.len() != columns.len() {
        return out;
    }
    let column_of = |m: &ColumnMeasure| columns.iter().position(|c| c.measure == *m);
    for &(i, held) in &row.check_verdicts {
        let Some(col) = lesson
            .checks
            .get(i)
            .and_then(|c| column_of(&ColumnMeasure::of_check(&c.kind)))
        else {
            continue;
        };
        out[col].push(Judged {
            source: Source::Check(i),
            held,
        });
    }
    for &(i, held) in &row.property_verdicts {
        let Some(col) = lesson
            .properties
            .get(i)
            .and_then(|p| column_of(&ColumnMeasure::of_property(&p.kind)))
        else {
            continue;
        };
        out[col].push(Judged {
            source: Source::Property(i),
            held,
        });
    }
    out
}

/// Whether a row reproduces the lesson's bug: every check that applies held, and one
/// of them describes a bug. A promise broken in such a row is that bug showing.
pub fn reproduces_bug(lesson: &Lesson, row: &Row) -> bool {
    let verdicts = &row.check_verdicts;
    verdicts.iter().all(|&(_, held)| held)
        && (verdicts.iter()).any(|&(i, held)| held && lesson.checks.get(i).is_some_and(|c| c.bug))
}

/// The mark of a cell with these expectations; none when nothing reads the cell.
/// `bug_row`: the row reproduces the lesson's bug ([`reproduces_bug`]), so a property
/// it breaks is marked as the bug, not as a failure.
pub fn mark(lesson: &Lesson, judged: &[Judged], bug_row: bool) -> Option<Mark> {
    let is_bug = |j: &Judged| matches!(j.source, Source::Check(i) if lesson.checks[i].bug);
    let check = |j: &&Judged| matches!(j.source, Source::Check(_));
    if judged.iter().filter(check).any(|j| !j.held) {
        Some(Mark::Fail)
    } else if judged.iter().any(|j| is_bug(j) && j.held) {
        Some(Mark::Bug)
    } else if judged.iter().any(|j| !j.held) {
        Some(if bug_row { Mark::Bug } else { Mark::Fail })
    } else if judged.is_empty() {
        None
    } else {
        Some(Mark::Pass)
    }
}

/// One reading as a reader takes it in.
#[derive(Clone, Debug, PartialEq)]
enum Plain {
    Number(f64),
    Text(String),
}

/// The value of a result written `[[value]]` (one row of one column), unquoted.
fn single_value(text: &str) -> Option<Plain> {
    let inner = text.strip_prefix("[[")?.strip_suffix("]]")?;
    if let Some(s) = inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        // Written with escapes, or two strings (`"a", "b"`): not one plain value.
        return (!s.contains(['"', '\\'])).then(|| Plain::Text(s.to_string()));
    }
    if inner.is_empty() || inner.contains([',', '[', ']', '"']) {
        return None;
    }
    Some(
        inner
            .parse::<f64>()
            .map_or_else(|_| Plain::Text(inner.to_string()), Plain::Number),
    )
}

fn plain(reading: &Reading, measure: &ColumnMeasure) -> Plain {
    match reading {
        Reading::Number(n) => Plain::Number(*n),
        Reading::Missing => Plain::Text(MISSING.to_string()),
        Reading::Text(t) if *measure == ColumnMeasure::ErrorNumbers && t == NO_ERRORS => {
            Plain::Text(t!("matrix-errors-none"))
        }
        Reading::Text(t) if t == "[]" => Plain::Text(t!("matrix-no-rows")),
        Reading::Text(t) => single_value(t).unwrap_or_else(|| Plain::Text(t.clone())),
    }
}

/// A cell as the page shows it: `Cell::text` with a result of one value written as that
/// value (`[[0]]` is `0`, so the seeds' numbers still make a `min–max`), "no rows" for an
/// empty result and the errors column's "none" in the page's language. `Cell::text`
/// stays the cell's full text (`data-text`, the link's title).
pub fn plain_text(cell: &Cell, measure: &ColumnMeasure) -> String {
    // An error's number is a code: `2601`, never `2,601`.
    let code = matches!(
        measure,
        ColumnMeasure::Figure {
            figure: lesson::Figure::ErrorNumber,
            ..
        }
    );
    let number_label = |n: f64| {
        if code && n.fract() == 0.0 {
            format!("{n:.0}")
        } else {
            number_label(n)
        }
    };
    let plains: Vec<Plain> = cell.readings.iter().map(|r| plain(r, measure)).collect();
    let numbers: Option<Vec<f64>> = plains
        .iter()
        .map(|p| match p {
            Plain::Number(n) => Some(*n),
            Plain::Text(_) => None,
        })
        .collect();
    if let Some((lo, hi)) = numbers.filter(|n| !n.is_empty()).map(|n| {
        n.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(*x), hi.max(*x))
            })
    }) {
        return if lo == hi {
            number_label(lo)
        } else {
            format!("{}–{}", number_label(lo), number_label(hi))
        };
    }
    let mut distinct: Vec<String> = Vec::new();
    for p in plains {
        let text = match p {
            Plain::Number(n) => number_label(n),
            Plain::Text(t) => t,
        };
        if !distinct.contains(&text) {
            distinct.push(text);
        }
    }
    distinct.join(" / ")
}

/// A number as the page's language writes numbers (`2,500.167`, Polish `2 500,167`),
/// as the panels beside the matrix do; the cell's `data-text` keeps the plain form.
fn number_label(n: f64) -> String {
    // To the thousandth, as figures are measured; a finer number is left as it is.
    if ((n * 1000.0).round() / 1000.0 - n).abs() < 1e-9 {
        crate::present::figure_label(n)
    } else {
        lesson::number_text(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    fn cell(readings: &[Reading]) -> Cell {
        Cell {
            readings: readings.to_vec(),
        }
    }

    fn text(t: &str) -> Reading {
        Reading::Text(t.to_string())
    }

    #[test]
    fn a_result_of_one_value_shows_the_value() {
        let result = ColumnMeasure::Result {
            session: "B".into(),
            result: 1,
        };
        let cases: [(&[Reading], &str); 9] = [
            (&[text("[[0]]"), text("[[0]]")], "0"),
            (
                &[text("[[488]]"), text("[[490]]"), text("[[489]]")],
                "488–490",
            ),
            (&[text("[[\"done\"]]")], "done"),
            (&[text("[[NULL]]")], "NULL"),
            (
                &[text("[[2, \"task 2\", 3, \"B\"]]")],
                "[[2, \"task 2\", 3, \"B\"]]",
            ),
            (&[text("[[1], [2]]")], "[[1], [2]]"),
            (&[text("[[\"a\", \"b\"]]")], "[[\"a\", \"b\"]]"),
            (&[text("[]"), text("[[1]]")], "no rows / 1"),
            (&[Reading::Missing, text("[[3]]")], "— / 3"),
        ];
        for (readings, want) in cases {
            assert_eq!(plain_text(&cell(readings), &result), want, "{readings:?}");
        }
        // Numbers read as numbers are written as the page writes numbers (`Cell::text`,
        // the cell's `data-text`, keeps them plain).
        let numbers = cell(&[Reading::Number(2450.5), Reading::Number(2512.345)]);
        assert_eq!(numbers.text(), "2450.5–2512.345");
        assert_eq!(plain_text(&numbers, &result), "2,450.5–2,512.345");
        let error = ColumnMeasure::Figure {
            session: Some("B".into()),
            figure: lesson::Figure::ErrorNumber,
        };
        let codes = cell(&[Reading::Number(2601.0), Reading::Number(0.0)]);
        assert_eq!(plain_text(&codes, &error), "0–2601");
        let waits = cell(&[text("[[2500.167]]"), text("[[1000]]")]);
        assert_eq!(plain_text(&waits, &result), "1,000–2,500.167");
        // "none" is the errors column's word, translated; elsewhere it is data.
        let none = cell(&[text("none")]);
        assert_eq!(plain_text(&none, &ColumnMeasure::ErrorNumbers), "none");
        assert_eq!(plain_text(&none, &result), "none");
        assert_eq!(
            plain_text(&cell(&[text("B 650")]), &ColumnMeasure::ErrorNumbers),
            "B 650"
        );
    }

    fn column_index(matrix: &lesson::Matrix, key: &str) -> usize {
        matrix.columns.iter().position(|c| c.key == key).unwrap()
    }

    fn row<'a>(matrix: &'a lesson::Matrix, settings: &str) -> &'a Row {
        matrix
            .rows
            .iter()
            .find(|r| {
                let s: Vec<String> = r.settings.iter().map(|(n, v)| format!("{n}={v}")).collect();
                s.join(" ") == settings
            })
            .unwrap()
    }

    #[test]
    fn queue_isolation_marks_the_650s_and_the_result_check_as_expected() {
        let lesson = catalog().lesson("queue-isolation").unwrap().clone();
        let matrix = lesson::run_matrix(&lesson, &[1]);
        let b = column_index(&matrix, "B.error_number");
        let snapshot = row(&matrix, "isolation=snapshot rcsi=off readpast=on");
        let judged = judge_row(&lesson, &matrix.columns, snapshot);
        let bug_row = reproduces_bug(&lesson, snapshot);
        assert!(!bug_row);
        assert_eq!(mark(&lesson, &judged[b], bug_row), Some(Mark::Pass));
        // A result check (`[[2, "task 2", 3, "B"]]`) is marked like any other.
        let result = column_index(&matrix, "B.result1");
        let locking = row(&matrix, "isolation=read-committed rcsi=off readpast=off");
        let judged = judge_row(&lesson, &matrix.columns, locking);
        assert_eq!(judged[result].len(), 1);
        assert_eq!(mark(&lesson, &judged[result], bug_row), Some(Mark::Pass));
        // A column no applicable check reads has no mark.
        assert_eq!(mark(&lesson, &judged[b], bug_row), None);
    }

    #[test]
    fn the_claim_race_marks_its_bug_and_the_property_it_breaks() {
        // A row written by hand: 500 tasks, where the bug check applies, are slow to run
        // in a debug build. The verdicts are those of seed 7's run (488 duplicates).
        let lesson = catalog().lesson("queue-claim-race").unwrap().clone();
        let columns = lesson::matrix_columns(&lesson);
        let key = |k: &str| columns.iter().position(|c| c.key == k).unwrap();
        let (q1, double, errors) = (key("q1"), key("no-double-claim"), key("errors"));
        let check = |name: &str| {
            lesson
                .checks
                .iter()
                .position(|c| c.name.starts_with(name))
                .unwrap()
        };
        let property = |name: &str| {
            lesson
                .properties
                .iter()
                .position(|p| p.name == name)
                .unwrap()
        };
        let race = Row {
            settings: vec![
                ("claim".to_string(), "two-step".to_string()),
                ("workers".to_string(), "2".to_string()),
                ("tasks".to_string(), "500".to_string()),
            ],
            cells: vec![cell(&[Reading::Number(0.0)]); columns.len()],
            checks_passed: 4,
            checks_total: 4,
            check_verdicts: vec![
                (check("Two-step, 2 workers"), true),
                (check("Two-step: some task"), true),
                (check("Every task is claimed (500)"), true),
                (check("No errors"), true),
            ],
            property_verdicts: vec![
                (property("no-double-claim"), false),
                (property("no-errors"), true),
            ],
            error: None,
        };
        let judged = judge_row(&lesson, &columns, &race);
        let bug_row = reproduces_bug(&lesson, &race);
        assert!(bug_row);
        assert_eq!(mark(&lesson, &judged[q1], bug_row), Some(Mark::Bug));
        // The property breaks with the bug check that reads the same column: the bug.
        assert_eq!(mark(&lesson, &judged[double], bug_row), Some(Mark::Bug));
        assert_eq!(mark(&lesson, &judged[errors], bug_row), Some(Mark::Pass));
        let broken = judged[double]
            .iter()
            .find(|j| matches!(j.source, Source::Property(_)))
            .unwrap();
        assert!(!broken.held);
        // Where the bug reproduces, a promise it breaks on a column of its own (a worker
        // ending with an error) is the bug showing too, not a failure.
        let erring = Row {
            property_verdicts: vec![
                (property("no-double-claim"), false),
                (property("no-errors"), false),
            ],
            ..race.clone()
        };
        let judged = judge_row(&lesson, &columns, &erring);
        assert!(reproduces_bug(&lesson, &erring));
        assert_eq!(
            mark(&lesson, &judged[key("error_numbers")], true),
            Some(Mark::Bug)
        );
        // Two-step without duplicates: the bug did not reproduce, a failed check.
        let calm = Row {
            check_verdicts: vec![
                (check("Two-step, 2 workers"), false),
                (check("Two-step: some task"), false),
                (check("Every task is claimed (500)"), true),
                (check("No errors"), true),
            ],
            property_verdicts: vec![
                (property("no-double-claim"), true),
                (property("no-errors"), true),
            ],
            ..race.clone()
        };
        let judged = judge_row(&lesson, &columns, &calm);
        let bug_row = reproduces_bug(&lesson, &calm);
        assert!(!bug_row);
        assert_eq!(mark(&lesson, &judged[q1], bug_row), Some(Mark::Fail));
        assert_eq!(mark(&lesson, &judged[double], bug_row), Some(Mark::Fail));
        // A property broken with no bug check on its column is a failure.
        let broken = Row {
            property_verdicts: vec![
                (property("no-double-claim"), false),
                (property("no-errors"), false),
            ],
            ..calm.clone()
        };
        let judged = judge_row(&lesson, &columns, &broken);
        assert_eq!(
            mark(&lesson, &judged[key("error_numbers")], bug_row),
            Some(Mark::Fail)
        );
        assert_eq!(mark(&lesson, &judged[errors], bug_row), Some(Mark::Pass));
        // A column nothing reads in this row has no mark.
        let unread = Row {
            check_verdicts: Vec::new(),
            property_verdicts: Vec::new(),
            ..calm
        };
        assert_eq!(
            mark(&lesson, &judge_row(&lesson, &columns, &unread)[q1], false),
            None
        );
    }
}
