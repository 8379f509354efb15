//! Steps of `cargo xtask test`: names, durations, test counts, and the closing
//! `N passed, N failed` line that CI reads.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::shell::{Captured, Result, Shell};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TestCounts {
    pub passed: u64,
    pub failed: u64,
}

pub struct StepResult {
    pub error: Option<String>,
    tests: Option<TestCounts>,
    /// Said beside `ok` in the summary, e.g. why a step did nothing.
    pub note: Option<String>,
}

impl From<Result> for StepResult {
    fn from(result: Result) -> StepResult {
        StepResult {
            error: result.err(),
            tests: None,
            note: None,
        }
    }
}

impl StepResult {
    /// A test run: fails if the command failed or any test failed.
    pub fn from_tests(run: Captured, count: fn(&str) -> Option<TestCounts>) -> StepResult {
        let tests = count(&run.stdout);
        let error = match (run.result, tests) {
            (Err(err), _) => Some(err),
            (Ok(()), Some(counts)) if counts.failed > 0 => {
                Some(format!("{} tests failed", counts.failed))
            }
            (Ok(()), None) => Some("ran no test".to_owned()),
            (Ok(()), Some(_)) => None,
        };
        StepResult {
            error,
            tests,
            note: None,
        }
    }

    /// A step that counted its own tests; `result` says whether it passed.
    pub fn counted(result: Result, tests: TestCounts) -> StepResult {
        StepResult {
            error: result.err(),
            tests: Some(tests),
            note: None,
        }
    }

    /// A step that had nothing it could do here and passes, saying why in the summary.
    pub fn skipped(why: &str) -> StepResult {
        StepResult {
            error: None,
            tests: None,
            note: Some(format!("skipped: {why}")),
        }
    }
}

enum Status {
    Passed,
    Failed(String),
    Skipped(String),
}

struct Step {
    name: String,
    status: Status,
    note: Option<String>,
    duration: Duration,
    tests: Option<TestCounts>,
}

#[derive(Default)]
pub struct Report {
    steps: Vec<Step>,
}

impl Report {
    /// Runs one step, printing its name first and its outcome and duration after.
    /// Returns whether it passed.
    pub fn step(&mut self, name: &str, run: impl FnOnce() -> StepResult) -> bool {
        println!("\n==> {name}");
        let started = Instant::now();
        let result = run();
        let duration = started.elapsed();
        let passed = result.error.is_none();
        match &result.error {
            None => match &result.note {
                Some(note) => println!("<== {name}: ok in {} ({note})", secs(duration)),
                None => println!("<== {name}: ok in {}", secs(duration)),
            },
            Some(err) => println!("<== {name}: FAILED in {}: {err}", secs(duration)),
        }
        self.steps.push(Step {
            name: name.to_owned(),
            status: match result.error {
                None => Status::Passed,
                Some(err) => Status::Failed(err),
            },
            duration,
            tests: result.tests,
            note: result.note,
        });
        passed
    }

    pub fn skip(&mut self, name: &str, why: &str) {
        println!("\n==> {name}: skipped ({why})");
        self.steps.push(Step {
            name: name.to_owned(),
            status: Status::Skipped(why.to_owned()),
            duration: Duration::ZERO,
            tests: None,
            note: None,
        });
    }

    /// Prints the summary and, as the very last line, `N passed, N failed`: the tests
    /// counted by cargo and the browser runner, plus one failure for each failed or
    /// skipped step that counted no failing test itself (fmt, clippy, a build), so the
    /// line never says `0 failed` when the run failed.
    pub fn finish(self) -> ExitCode {
        println!("\n==> summary");
        let mut total = TestCounts::default();
        let mut all_passed = true;
        for step in &self.steps {
            let counts = step.tests.unwrap_or_default();
            total.passed += counts.passed;
            total.failed += counts.failed;
            let (word, detail) = match &step.status {
                Status::Passed => (
                    "ok",
                    step.note
                        .as_ref()
                        .map_or(String::new(), |n| format!(" ({n})")),
                ),
                Status::Failed(err) => ("FAILED", format!(": {err}")),
                Status::Skipped(why) => ("SKIPPED", format!(": {why}")),
            };
            if !matches!(step.status, Status::Passed) {
                all_passed = false;
                if counts.failed == 0 {
                    total.failed += 1;
                }
            }
            let tests = step
                .tests
                .map(|c| format!(" ({} passed, {} failed)", c.passed, c.failed))
                .unwrap_or_default();
            println!(
                "  {word:<7} {:>7}  {}{tests}{detail}",
                secs(step.duration),
                step.name
            );
        }
        println!("{} passed, {} failed", total.passed, total.failed);
        if all_passed {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}

fn secs(duration: Duration) -> String {
    format!("{:.1}s", duration.as_secs_f64())
}

/// Sums cargo's `test result: ok. 7 passed; 0 failed; ...` lines (unit, integration
/// and doc tests each print one). `None` if there is none.
pub fn count_cargo_tests(stdout: &str) -> Option<TestCounts> {
    let mut total: Option<TestCounts> = None;
    for line in stdout.lines() {
        let Some(rest) = line.trim().strip_prefix("test result:") else {
            continue;
        };
        let counts = total.get_or_insert_with(TestCounts::default);
        // " ok. 7 passed; 0 failed; 0 ignored; ..."
        let rest = rest.split_once('.').map_or(rest, |(_, after)| after);
        for part in rest.split(';') {
            let mut words = part.split_whitespace();
            let (Some(n), Some(what)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            match what {
                "passed" => counts.passed += n,
                "failed" => counts.failed += n,
                _ => {}
            }
        }
    }
    total
}

/// Reads the browser runner's last `e2e: N passed, N failed` line.
pub fn count_e2e_tests(stdout: &str) -> Option<TestCounts> {
    stdout.lines().rev().find_map(|line| {
        let rest = line.trim().strip_prefix("e2e: ")?;
        let (passed, failed) = rest.split_once(", ")?;
        Some(TestCounts {
            passed: passed.strip_suffix(" passed")?.parse().ok()?,
            failed: failed.strip_suffix(" failed")?.parse().ok()?,
        })
    })
}

/// Prints each dist/*.wasm size, raw and compressed as a static host would send it
/// (gzip, and brotli where the `brotli` tool is installed).
pub fn print_wasm_sizes(shell: &Shell) {
    let Ok(entries) = std::fs::read_dir(shell.root().join("dist")) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "wasm") {
            continue;
        }
        let mut sizes = vec![format!(
            "{} raw",
            kib(entry.metadata().map_or(0, |m| m.len()))
        )];
        for (tool, args) in [("gzip", ["-9", "-c"]), ("brotli", ["--best", "-c"])] {
            let compressed = shell.cmd(tool).args(args).arg(&path).output();
            if let Some(out) = compressed.ok().filter(|out| out.status.success()) {
                sizes.push(format!("{} {tool}", kib(out.stdout.len() as u64)));
            }
        }
        println!(
            "wasm size: dist/{}: {}",
            entry.file_name().to_string_lossy(),
            sizes.join(", ")
        );
    }
}

fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_cargo_test_results() {
        let out = "\
running 2 tests
test a ... ok
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

test result: FAILED. 3 passed; 1 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.01s
   Doc-tests foo
test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(
            count_cargo_tests(out),
            Some(TestCounts {
                passed: 5,
                failed: 1
            })
        );
        assert_eq!(count_cargo_tests("error: could not compile"), None);
    }

    #[test]
    fn counts_e2e_results() {
        let out = "ok   1 - home\nFAIL 2 - theme\ne2e: 1 passed, 1 failed\n";
        assert_eq!(
            count_e2e_tests(out),
            Some(TestCounts {
                passed: 1,
                failed: 1
            })
        );
        assert_eq!(count_e2e_tests("e2e: 3 tests against http://x/"), None);
    }

    #[test]
    fn failed_steps_count_as_failures() {
        let tests = StepResult::from_tests(
            Captured {
                result: Ok(()),
                stdout: "test result: ok. 4 passed; 0 failed;".into(),
            },
            count_cargo_tests,
        );
        assert!(tests.error.is_none());
        let none = StepResult::from_tests(
            Captured {
                result: Ok(()),
                stdout: String::new(),
            },
            count_cargo_tests,
        );
        assert_eq!(none.error.as_deref(), Some("ran no test"));
    }
}
