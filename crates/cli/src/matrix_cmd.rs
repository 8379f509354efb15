//! `lockstep matrix`: a lesson's outcome under every combination of its toggles, over
//! several seeds, as a text table, JSON or Markdown (`lesson::run_matrix`).

use std::fmt::Write as _;

use lesson::{matrix_seeds, run_matrix, Cell, ColumnMeasure, Lesson, Matrix, Reading, Row};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::args::MatrixArgs;

pub fn command(args: &MatrixArgs) -> u8 {
    crate::finish(matrix_of(args))
}

fn matrix_of(args: &MatrixArgs) -> Result<(String, bool), Vec<String>> {
    let source = crate::read_lesson(&args.lesson).map_err(|m| vec![m])?;
    let lesson = Lesson::parse(&args.lesson.display().to_string(), &source)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let seeds = match args.seeds {
        Some(0) => return Err(vec!["error: --seeds must be at least 1".to_string()]),
        Some(n) => matrix_seeds(&lesson, n),
        None => lesson::default_matrix_seeds(&lesson),
    };
    let matrix = run_matrix(&lesson, &seeds);
    let refused: Vec<String> = matrix.rows.iter().filter_map(|r| r.error.clone()).collect();
    if !refused.is_empty() {
        return Err(refused);
    }
    let output = if args.json {
        let mut s = serde_json::to_string_pretty(&MatrixJson(&matrix)).unwrap_or_default();
        s.push('\n');
        s
    } else if args.markdown {
        markdown(&matrix, &seeds_note(&lesson, args.seeds))
    } else {
        text(&matrix, &seeds_note(&lesson, args.seeds))
    };
    Ok((output, true))
}

/// Where the seeds came from, for the heading.
fn seeds_note(lesson: &Lesson, flag: Option<usize>) -> String {
    match (flag, &lesson.exercise) {
        (Some(n), _) => format!("--seeds {n}"),
        (None, Some(_)) => "the exercise's seeds".to_string(),
        (None, None) => format!(
            "the lesson's seed and the {} after it",
            lesson::DEFAULT_MATRIX_SEEDS - 1
        ),
    }
}

fn heading(matrix: &Matrix, note: &str) -> String {
    let seeds: Vec<String> = matrix.seeds.iter().map(u64::to_string).collect();
    let combinations = matrix.rows.len();
    format!(
        "{} combination{} × {} seed{} ({}: {note})",
        combinations,
        if combinations == 1 { "" } else { "s" },
        seeds.len(),
        if seeds.len() == 1 { "" } else { "s" },
        seeds.join(", "),
    )
}

/// The header and each row's cells as text: toggles, figures, then checks passed.
fn grid(matrix: &Matrix) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = matrix.toggles.clone();
    header.extend(matrix.columns.iter().map(|c| c.key.clone()));
    header.push("checks".to_string());
    let rows = matrix
        .rows
        .iter()
        .map(|row| {
            let mut cells: Vec<String> = row.settings.iter().map(|(_, v)| v.clone()).collect();
            cells.extend(row.cells.iter().map(Cell::text));
            cells.push(format!("{}/{}", row.checks_passed, row.checks_total));
            cells
        })
        .collect();
    (header, rows)
}

/// What each column is, one line each.
fn legend(matrix: &Matrix) -> Vec<(String, String)> {
    matrix
        .columns
        .iter()
        .map(|c| {
            let what = match &c.measure {
                ColumnMeasure::Query { sql } => format!("{} ({sql})", c.label),
                _ => c.label.clone(),
            };
            (c.key.clone(), what)
        })
        .chain(std::iter::once((
            "checks".to_string(),
            "check verdicts that passed, of those that apply, over every seed".to_string(),
        )))
        .collect()
}

const CELL_NOTE: &str = "A cell is the value every seed gave, `min–max` when the seeds' numbers \
differ, or the seeds' values joined by ` / `; `—`: nothing to read (no such session or result set, or the SQL failed).";

fn text(matrix: &Matrix, note: &str) -> String {
    let (header, rows) = grid(matrix);
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = format!("lesson {}  {}\n\n", matrix.lesson, heading(matrix, note));
    out.push_str(&line(&header));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&line(&rule));
    for row in &rows {
        out.push_str(&line(row));
    }
    out.push_str("\nColumns:\n");
    let legend = legend(matrix);
    let key_width = legend
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    for (key, what) in &legend {
        let pad = " ".repeat(key_width - key.chars().count());
        let _ = writeln!(out, "  {key}{pad}  {what}");
    }
    let _ = writeln!(out, "{CELL_NOTE}");
    out
}

/// A cell for a Markdown table: pipes escaped, line breaks as spaces.
fn md_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn markdown(matrix: &Matrix, note: &str) -> String {
    let (header, rows) = grid(matrix);
    let mut out = format!("**{}**: {}\n\n", matrix.lesson, heading(matrix, note));
    let row_line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| md_cell(c)).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    out.push_str(&row_line(
        &header.iter().map(|h| format!("`{h}`")).collect::<Vec<_>>(),
    ));
    // Toggles left-aligned, figures right-aligned (numbers line up).
    let align: Vec<&str> = (0..header.len())
        .map(|i| {
            if i < matrix.toggles.len() {
                ":--"
            } else {
                "--:"
            }
        })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in &rows {
        out.push_str(&row_line(row));
    }
    out.push('\n');
    for (key, what) in legend(matrix) {
        let _ = writeln!(out, "- `{key}`: {}", md_cell(&what));
    }
    let _ = writeln!(out, "\n{CELL_NOTE}");
    out
}

/// `--json`: the fields documented in `lockstep matrix --help`.
struct MatrixJson<'a>(&'a Matrix);

impl Serialize for MatrixJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("lesson", &m.lesson)?;
        map.serialize_entry("seeds", &m.seeds)?;
        map.serialize_entry("toggles", &m.toggles)?;
        let columns: Vec<ColumnJson> = m.columns.iter().map(ColumnJson::new).collect();
        map.serialize_entry("columns", &columns)?;
        let rows: Vec<RowJson> = m.rows.iter().map(|row| RowJson { m, row }).collect();
        map.serialize_entry("rows", &rows)?;
        map.end()
    }
}

#[derive(Serialize)]
struct ColumnJson<'a> {
    key: &'a str,
    label: &'a str,
    kind: &'static str,
    session: Option<&'a str>,
    figure: Option<&'static str>,
    sql: Option<&'a str>,
    result: Option<usize>,
}

impl<'a> ColumnJson<'a> {
    fn new(c: &'a lesson::Column) -> ColumnJson<'a> {
        let mut json = ColumnJson {
            key: &c.key,
            label: &c.label,
            kind: "",
            session: None,
            figure: None,
            sql: None,
            result: None,
        };
        match &c.measure {
            ColumnMeasure::Figure { session, figure } => {
                json.kind = "figure";
                json.session = session.as_deref();
                json.figure = Some(figure.name());
            }
            ColumnMeasure::Query { sql } => {
                json.kind = "query";
                json.sql = Some(sql);
            }
            ColumnMeasure::Result { session, result } => {
                json.kind = "result";
                json.session = Some(session);
                json.result = Some(*result);
            }
            ColumnMeasure::ErrorNumbers => json.kind = "error_numbers",
            ColumnMeasure::DeadlockVictims => json.kind = "deadlock_victims",
        }
        json
    }
}

struct RowJson<'a> {
    m: &'a Matrix,
    row: &'a Row,
}

impl Serialize for RowJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("settings", &Pairs(&self.row.settings))?;
        map.serialize_entry("cells", &Cells(self.m, self.row))?;
        map.serialize_entry("checks_passed", &self.row.checks_passed)?;
        map.serialize_entry("checks_total", &self.row.checks_total)?;
        map.end()
    }
}

struct Pairs<'a>(&'a [(String, String)]);

impl Serialize for Pairs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

struct Cells<'a>(&'a Matrix, &'a Row);

impl Serialize for Cells<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.1.cells.len()))?;
        for (column, cell) in self.0.columns.iter().zip(&self.1.cells) {
            map.serialize_entry(&column.key, &CellJson::new(cell))?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct CellJson {
    text: String,
    min: Option<f64>,
    max: Option<f64>,
    values: Vec<serde_json::Value>,
}

impl CellJson {
    fn new(cell: &Cell) -> CellJson {
        let range = cell.range();
        CellJson {
            text: cell.text(),
            min: range.map(|r| r.0),
            max: range.map(|r| r.1),
            values: cell
                .readings
                .iter()
                .map(|r| match r {
                    Reading::Number(n) => serde_json::json!(n),
                    Reading::Text(t) => serde_json::json!(t),
                    Reading::Missing => serde_json::Value::Null,
                })
                .collect(),
        }
    }
}
