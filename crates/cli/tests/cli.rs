//! The `lockstep` binary: exit codes, messages and the JSON contract, on tiny lessons
//! written to a temporary directory.

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, Expect};

/// A lesson whose checks hold on any engine: nothing fails, nobody waits.
const PASSING: &str = r#"+++
id = "passing"
title = "Passing"
dialect = "tsql"
summary = "Two sessions read a table."

[[toggles]]
name = "readpast"
label = "READPAST"
values = ["on", "off"]

[[checks]]
name = "no errors"
figure = "errors"
equals = 0

[[checks]]
name = "B does not wait"
when = { readpast = "on" }
session = "B"
figure = "wait_ms"
max = 1
+++

```sql setup
CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t (id) VALUES (1), (2);
```

```sql session=A
SELECT id FROM t;
```

```sql session=B start=1.5s
SELECT id FROM t WITH ({{readpast: on=READPAST, }}ROWLOCK);
```
"#;

/// A temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("lockstep-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn write(&self, file: &str, text: &str) -> PathBuf {
        let path = self.0.join(file);
        std::fs::write(&path, text).expect("write lesson");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Exit code, then stdout and stderr with the temp dir shown as `$DIR`.
fn lockstep(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run lockstep");
    let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&dir.display().to_string(), "$DIR");
    (
        out.status.code().unwrap_or(-1),
        clean(&out.stdout),
        clean(&out.stderr),
    )
}

fn check_cli(dir: &TempDir, args: &[&str], expect: Expect) {
    let (code, stdout, stderr) = lockstep(&dir.0, args);
    expect.assert_eq(&format!(
        "exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"
    ));
}

#[test]
fn check_passes_a_good_lesson() {
    let dir = TempDir::new("good");
    dir.write("passing.md", PASSING);
    check_cli(
        &dir,
        &["check", "."],
        expect![[r#"
        exit 0
        --- stdout
        checked 1 lesson, 2 runs: 3 checks passed, 0 failed; 0 errors
        --- stderr
    "#]],
    );
}

#[test]
fn check_fails_a_failing_check_with_settings_and_seed() {
    let dir = TempDir::new("failing");
    let text = PASSING
        .replace("id = \"passing\"", "id = \"failing\"")
        .replace("equals = 0", "min = 1");
    dir.write("failing.md", &text);
    check_cli(
        &dir,
        &["check", "failing.md", "--seed", "3"],
        expect![[r#"
        exit 1
        --- stdout
        checked 1 lesson, 2 runs: 3 checks passed, 2 failed; 0 errors
        --- stderr
        failing.md:13:8: check `no errors` failed (readpast=on, seed 3): all sessions errors = 0 (expected at least 1)
        failing.md:13:8: check `no errors` failed (readpast=off, seed 3): all sessions errors = 0 (expected at least 1)
    "#]],
    );
}

#[test]
fn check_reports_bad_input_as_file_line_col() {
    let dir = TempDir::new("bad");
    dir.write("passing.md", PASSING);
    let bad = PASSING
        .replace("id = \"passing\"", "id = \"bad\"")
        .replace("{{readpast: on", "{{readpst: on");
    dir.write("bad.md", &bad);
    dir.write("README.md", "not a lesson");
    check_cli(
        &dir,
        &["check", "."],
        expect![[r#"
        exit 2
        --- stdout
        checked 1 lesson, 2 runs: 3 checks passed, 0 failed; 1 error
        --- stderr
        ./bad.md:35:26: unknown toggle `readpst` in span (toggles: readpast)
    "#]],
    );
}

#[test]
fn check_of_missing_or_empty_paths_is_bad_input() {
    let dir = TempDir::new("missing");
    std::fs::create_dir_all(dir.0.join("empty")).expect("mkdir");
    dir.write("empty/README.md", "only docs");
    check_cli(
        &dir,
        &["check", "nowhere.md", "empty"],
        expect![[r#"
        exit 2
        --- stdout
        checked 0 lessons, 0 runs: 0 checks passed, 0 failed; 2 errors
        --- stderr
        nowhere.md: cannot read: No such file or directory (os error 2)
        empty: no lesson files (*.md) here
    "#]],
    );
}

#[test]
fn run_json_has_the_contract_fields() {
    let dir = TempDir::new("json");
    dir.write("passing.md", PASSING);
    let (code, stdout, stderr) = lockstep(
        &dir.0,
        &[
            "run",
            "passing.md",
            "--json",
            "--set",
            "readpast=off",
            "--seed",
            "9",
            "--query",
            "SELECT id FROM t",
        ],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    let shape = format!(
        "top: {:?}\nsession: {:?}\ncheck: {:?}\nquery: {:?}\nlesson={} seed={} settings={}\nsessions={:?}\ncheck names={:?}\nend_ms is number: {}\nwait_ms is number: {}\n",
        keys(&json),
        keys(&json["sessions"][0]),
        keys(&json["checks"][0]),
        keys(&json["queries"][0]),
        json["lesson"],
        json["seed"],
        json["settings"],
        json["sessions"].as_array().map(|s| s.iter().map(|s| s["name"].to_string()).collect::<Vec<_>>()),
        json["checks"].as_array().map(|c| c.iter().map(|c| c["name"].to_string()).collect::<Vec<_>>()),
        json["end_ms"].is_number(),
        json["sessions"][1]["wait_ms"].is_number(),
    );
    expect![[r#"
        top: ["checks", "end_ms", "lesson", "queries", "seed", "sessions", "settings"]
        session: ["errors", "logical_reads", "name", "results", "statements", "wait_ms"]
        check: ["detail", "name", "passed"]
        query: ["columns", "rows", "sql"]
        lesson="passing" seed=9 settings={"readpast":"off"}
        sessions=Some(["\"A\"", "\"B\""])
        check names=Some(["\"no errors\""])
        end_ms is number: true
        wait_ms is number: true
    "#]]
    .assert_eq(&shape);
}

#[test]
fn run_text_prints_trace_outcome_and_checks() {
    let dir = TempDir::new("text");
    dir.write("passing.md", PASSING);
    let (code, stdout, stderr) = lockstep(&dir.0, &["run", "passing.md"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let first = stdout.lines().next().unwrap_or_default();
    assert_eq!(first, "lesson passing  seed 0  readpast=on");
    for part in [
        "\ntrace:\n",
        "\noutcome: ended at ",
        "\n  A: waited ",
        "\n  B: waited ",
        "\nchecks: 2 passed, 0 failed\n",
        "  PASS B does not wait: ",
    ] {
        assert!(stdout.contains(part), "{part:?} missing from\n{stdout}");
    }
}

#[test]
fn run_exits_1_when_a_check_fails() {
    let dir = TempDir::new("run-fail");
    let text = PASSING.replace("equals = 0", "min = 1");
    dir.write("passing.md", &text);
    let (code, stdout, _) = lockstep(&dir.0, &["run", "passing.md"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("  FAIL no errors: all sessions errors = 0 (expected at least 1)"),
        "{stdout}"
    );
}

#[test]
fn run_bad_input_exits_2() {
    let dir = TempDir::new("run-bad");
    dir.write("passing.md", PASSING);
    check_cli(
        &dir,
        &["run", "passing.md", "--set", "readpast=maybe"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: --set: `maybe` is not a value of toggle `readpast` (values: on, off)
    "#]],
    );
    check_cli(
        &dir,
        &["run", "passing.md", "--set", "readpast"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: --set expects NAME=VALUE, got `readpast`
    "#]],
    );
    check_cli(
        &dir,
        &["run", "nowhere.md"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        nowhere.md: cannot read: No such file or directory (os error 2)
    "#]],
    );
    dir.write("broken.md", &PASSING.replace("start=1.5s", "start=soon"));
    check_cli(
        &dir,
        &["run", "broken.md"],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        broken.md:2:6: id `passing` does not match the file name `broken`: ids equal the file stem
        broken.md:34:24: bad start time `soon`: write a number with a unit, such as 1500ms, 1.5s, 250us, or 0
    "#]],
    );
}

#[test]
fn run_help_documents_every_json_field() {
    let dir = TempDir::new("help");
    let (code, stdout, _) = lockstep(&dir.0, &["run", "--help"]);
    assert_eq!(code, 0);
    for word in [
        "--set",
        "--seed",
        "--query",
        "--json",
        "lesson",
        "seed",
        "settings",
        "end_ms",
        "sessions",
        "name",
        "wait_ms",
        "statements",
        "errors",
        "number",
        "message",
        "results",
        "columns",
        "rows",
        "logical_reads",
        "checks",
        "passed",
        "detail",
        "queries",
        "sql",
    ] {
        assert!(
            stdout.contains(word),
            "`{word}` missing from run --help:\n{stdout}"
        );
    }
}

/// Needs the real engine: the stub returns no rows.
#[test]
fn run_query_reads_the_final_state() {
    let dir = TempDir::new("query");
    dir.write("passing.md", PASSING);
    let (code, stdout, stderr) = lockstep(
        &dir.0,
        &[
            "run",
            "passing.md",
            "--json",
            "--query",
            "SELECT COUNT(*) FROM t",
        ],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(json["queries"][0]["rows"], serde_json::json!([[2]]));
    assert_eq!(
        json["sessions"][0]["results"][0]["rows"],
        serde_json::json!([[1], [2]])
    );
}
