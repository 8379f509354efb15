//! `lockstep check`: validate lesson files, running every toggle combination.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use lesson::{run, Lesson};

use crate::args::CheckArgs;
use crate::exit::{BAD_INPUT, CHECK_FAILED, OK};

#[derive(Default)]
struct Tally {
    lessons: usize,
    runs: usize,
    passed: usize,
    failed: usize,
    /// Problems of input: unreadable paths, lesson errors, SQL the engine refuses.
    errors: usize,
}

pub fn command(args: &CheckArgs) -> u8 {
    let mut tally = Tally::default();
    let mut files = Vec::new();
    for path in &args.paths {
        match lesson_files(path) {
            Ok(found) if found.is_empty() => {
                eprintln!("{}: no lesson files (*.md) here", path.display());
                tally.errors += 1;
            }
            Ok(found) => files.extend(found),
            Err(message) => {
                eprintln!("{message}");
                tally.errors += 1;
            }
        }
    }
    for file in &files {
        check_file(file, args.seed, &mut tally);
    }
    println!(
        "checked {}, {}: {} passed, {} failed; {}",
        count(tally.lessons, "lesson"),
        count(tally.runs, "run"),
        count(tally.passed + tally.failed, "check"),
        tally.failed,
        count(tally.errors, "error")
    );
    if tally.errors > 0 {
        BAD_INPUT
    } else if tally.failed > 0 {
        CHECK_FAILED
    } else {
        OK
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn check_file(file: &Path, seed: Option<u64>, tally: &mut Tally) {
    let text = match crate::read_lesson(file) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("{message}");
            tally.errors += 1;
            return;
        }
    };
    let name = file.display().to_string();
    let lesson = match Lesson::parse(&name, &text) {
        Ok(lesson) => lesson,
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            tally.errors += errors.len();
            return;
        }
    };
    tally.lessons += 1;
    let combos = lesson.all_combinations();
    if combos.capped {
        println!(
            "{name}: note: {} toggle combinations; checking {} of them (every value at least once)",
            combos.total,
            combos.settings.len()
        );
    }
    // The same SQL error usually repeats under every setting: report it once.
    let mut reported: BTreeSet<String> = BTreeSet::new();
    for settings in &combos.settings {
        let seed = seed.unwrap_or(lesson.seed);
        let report = lesson
            .apply(settings)
            .and_then(|applied| run(&applied, seed));
        let report = match report {
            Ok(report) => report,
            Err(e) => {
                if reported.insert(e.to_string()) {
                    eprintln!("{e}");
                    tally.errors += 1;
                }
                continue;
            }
        };
        tally.runs += 1;
        for c in &report.checks {
            if c.passed {
                tally.passed += 1;
            } else {
                tally.failed += 1;
                let with = if settings.is_empty() {
                    String::new()
                } else {
                    format!("{settings}, ")
                };
                let message = format!(
                    "check `{}` failed ({with}seed {seed}): {}",
                    c.name, c.detail
                );
                eprintln!("{}", lesson.error_at_check(c, message));
            }
        }
    }
}

/// The path itself if it is a file; the *.md files under it (sorted, README.md left
/// out) if it is a directory.
fn lesson_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
            let p = entry.path();
            if p.is_dir() {
                pending.push(p);
            } else if p.extension().is_some_and(|x| x == "md")
                && !p
                    .file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("README.md"))
            {
                found.push(p);
            }
        }
    }
    found.sort();
    Ok(found)
}
