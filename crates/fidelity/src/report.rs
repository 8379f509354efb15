//! The comparison as a table for people and as `report.json` for tools.

use serde_json::{json, Value};

use crate::compare::Entry;

/// `{"entries": [{lesson, settings, figure, real, simulated, passed}], "passed": N, "failed": N}`.
pub fn json(entries: &[Entry]) -> Value {
    let failed = entries.iter().filter(|e| !e.passed).count();
    json!({
        "entries": entries.iter().map(|e| json!({
            "lesson": e.lesson,
            "settings": e.settings,
            "figure": e.figure,
            "real": e.real,
            "simulated": e.simulated,
            "passed": e.passed,
        })).collect::<Vec<_>>(),
        "passed": entries.len() - failed,
        "failed": failed,
    })
}

/// `scenario | real | simulated | verdict`, one line per figure.
pub fn table(entries: &[Entry]) -> String {
    let rows: Vec<[String; 4]> = entries
        .iter()
        .map(|e| {
            let scenario = if e.settings.is_empty() {
                format!("{} {}", e.lesson, e.figure)
            } else {
                format!("{} [{}] {}", e.lesson, e.settings, e.figure)
            };
            let verdict = if e.passed { "agrees" } else { "DIFFERS" };
            [
                scenario,
                e.real.clone(),
                e.simulated.clone(),
                verdict.to_string(),
            ]
        })
        .collect();
    let header = ["scenario", "real", "simulated", "verdict"].map(String::from);
    let mut widths = [0usize; 4];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[String; 4]| {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut out = line(&header);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&format!("|-{}-|\n", rule.join("-|-")));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(figure: &str, passed: bool) -> Entry {
        Entry {
            lesson: "pg-queue-skip-locked".into(),
            settings: "skip_locked=on".into(),
            figure: figure.into(),
            real: "0.3 ms".into(),
            simulated: "0.0 ms".into(),
            passed,
        }
    }

    #[test]
    fn json_has_one_entry_per_figure_and_the_totals() {
        let report = json(&[entry("B wait_ms", true), entry("B sqlstate", false)]);
        assert_eq!(report["entries"].as_array().unwrap().len(), 2);
        assert_eq!(report["entries"][0]["lesson"], "pg-queue-skip-locked");
        assert_eq!(report["entries"][0]["figure"], "B wait_ms");
        assert_eq!(report["entries"][0]["real"], "0.3 ms");
        assert_eq!(report["entries"][0]["simulated"], "0.0 ms");
        assert_eq!(report["entries"][0]["passed"], true);
        assert_eq!(report["entries"][1]["passed"], false);
        assert_eq!(
            (report["passed"].as_u64(), report["failed"].as_u64()),
            (Some(1), Some(1))
        );
    }

    #[test]
    fn table_aligns_columns_and_names_a_disagreement() {
        let text = table(&[entry("B wait_ms", true), entry("B sqlstate", false)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("| scenario "));
        assert!(lines[2].ends_with("| agrees  |"), "{}", lines[2]);
        assert!(lines[3].ends_with("| DIFFERS |"), "{}", lines[3]);
        assert!(lines
            .iter()
            .all(|l| l.chars().count() == lines[0].chars().count()));
    }
}
