//! Result sets as aligned text tables for `run`'s text output.

use engine::ResultSet;
use lesson::value_text;

/// Columns padded to their widest cell, a rule under the header; each line indented.
pub fn table(rs: &ResultSet, indent: &str) -> String {
    let cells: Vec<Vec<String>> = rs
        .rows
        .iter()
        .map(|r| r.iter().map(value_text).collect())
        .collect();
    let columns = rs
        .columns
        .len()
        .max(cells.iter().map(Vec::len).max().unwrap_or(0));
    let mut widths = vec![0usize; columns];
    let header: Vec<&str> = (0..columns)
        .map(|i| rs.columns.get(i).map_or("", String::as_str))
        .collect();
    for row in std::iter::once(header.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        .chain(cells.iter().cloned())
    {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let line = |row: &[String]| {
        let padded: Vec<String> = (0..columns)
            .map(|i| {
                let cell = row.get(i).map_or("", String::as_str);
                format!("{cell:<w$}", w = widths[i])
            })
            .collect();
        format!("{indent}{}\n", padded.join(" | ").trim_end())
    };
    let mut out = line(&header.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&format!("{indent}{}\n", rule.join("-+-")));
    for row in &cells {
        out.push_str(&line(row));
    }
    out
}
