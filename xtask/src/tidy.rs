//! Checks of the architecture invariants in ARCHITECTURE.md that a compiler cannot
//! see: the engine depends on nothing web-specific and reads no clock or OS entropy
//! (time and randomness are inputs, so a seed replays a run exactly).

use std::path::Path;

use crate::shell::{Result, Shell};

/// Crates that would tie the engine to the browser or to OS entropy or clocks.
const ENGINE_FORBIDDEN_DEPS: &[&str] = &[
    "wasm-bindgen",
    "web-sys",
    "js-sys",
    "gloo",
    "yew",
    "getrandom",
    "instant",
    "web-time",
    "chrono",
];

/// Source text that reads a clock or OS entropy.
const ENGINE_FORBIDDEN_CALLS: &[&str] = &[
    "Instant::now",
    "SystemTime",
    "thread_rng",
    "rand::rng(",
    "rand::random",
    "OsRng",
    "from_entropy",
    "from_os_rng",
    "getrandom",
];

pub fn check_engine(shell: &Shell) -> Result {
    let tree = shell.read(shell.cargo().args([
        "tree",
        "-p",
        "lockstep-engine",
        "--edges",
        "normal",
        "--target",
        "all",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]))?;
    let mut problems = forbidden_deps(&tree);
    scan_dir(&shell.root().join("crates/engine/src"), &mut problems)?;
    if problems.is_empty() {
        println!("engine: no web dependencies, no clock or OS entropy reads");
        Ok(())
    } else {
        Err(format!(
            "engine invariants broken (see ARCHITECTURE.md):\n  {}",
            problems.join("\n  ")
        ))
    }
}

fn forbidden_deps(tree: &str) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| {
            ENGINE_FORBIDDEN_DEPS
                .iter()
                .any(|bad| name == bad || name.starts_with(&format!("{bad}-")))
        })
        .map(|name| format!("depends on {name}"))
        .collect();
    found.sort();
    found.dedup();
    found
}

fn scan_dir(dir: &Path, problems: &mut Vec<String>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|err| err.to_string())?.path();
        if path.is_dir() {
            scan_dir(&path, problems)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path)
                .map_err(|err| format!("{}: {err}", path.display()))?;
            for (line, call) in forbidden_calls(&text) {
                problems.push(format!("{}:{line}: uses {call}", path.display()));
            }
        }
    }
    Ok(())
}

/// (line number, forbidden text) for each code line that uses one; comments are
/// skipped so docs may name what they forbid.
fn forbidden_calls(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        for call in ENGINE_FORBIDDEN_CALLS {
            if code.contains(call) {
                found.push((index + 1, *call));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_forbidden_deps() {
        let tree = "lockstep-engine v0.0.0 (/x)\nbitflags v2.1.0\ngetrandom v0.3.1\nweb-sys v0.3.1\nwebpki v1\n";
        assert_eq!(
            forbidden_deps(tree),
            ["depends on getrandom", "depends on web-sys"]
        );
    }

    #[test]
    fn finds_clock_reads_outside_comments() {
        let src = "//! No Instant::now() here.\nlet t = std::time::Instant::now(); // bad\nlet x = 1; // SystemTime in a comment\n";
        assert_eq!(forbidden_calls(src), [(2, "Instant::now")]);
    }
}
