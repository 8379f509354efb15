//! Result sets as aligned text tables for `run`'s text output.

use engine::ResultSet;
use lesson::value_text;

/// Cells longer than this are cut (with `…`) in the text table; JSON keeps them whole.
const MAX_CELL_CHARS: usize = 200;

/// A cell's text, cut to [`MAX_CELL_CHARS`] characters.
fn cell_text(v: &engine::Value) -> String {
    let text = value_text(v);
    match text.char_indices().nth(MAX_CELL_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Columns padded to their widest cell, a rule under the header; each line indented.
pub fn table(rs: &ResultSet, indent: &str) -> String {
    let cells: Vec<Vec<String>> = rs
        .rows
        .iter()
        .map(|r| r.iter().map(cell_text).collect())
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
                // Padded by hand: `format!`'s width stops at 65 535.
                let cell = row.get(i).map_or("", String::as_str);
                let pad = widths[i].saturating_sub(cell.chars().count());
                format!("{cell}{}", " ".repeat(pad))
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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Value;

    #[test]
    fn a_huge_cell_is_cut_not_a_panic() {
        let rs = ResultSet {
            columns: vec!["v".into(), "w".into()],
            rows: vec![vec![
                Value::Text(From::from("x".repeat(70_000).as_str())),
                Value::Int(1),
            ]],
        };
        let out = table(&rs, "  ");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[2].starts_with(&format!("  {}… | 1", "x".repeat(200))),
            "{}",
            &lines[2][..40]
        );
    }
}
