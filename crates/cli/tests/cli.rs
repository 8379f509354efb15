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

/// `wait_ms = 900.121` → `wait_ms = 900.…`: the microseconds follow the engine's cost
/// model, which is not what these tests are about.
fn redact_us(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("wait_ms = ") {
        let (head, tail) = rest.split_at(i + "wait_ms = ".len());
        out.push_str(head);
        let digits = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        out.push_str(&tail[..digits]);
        rest = &tail[digits..];
        if let Some(frac) = rest.strip_prefix('.') {
            let n = frac
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(frac.len());
            out.push_str(".…");
            rest = &frac[n..];
        }
    }
    out.push_str(rest);
    out
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
            checked 1 lesson, 2 runs, 3 checks: 3 passed, 0 failed; 0 errors
            --- stderr
        "#]],
    );
}

/// An anomaly rule naming a table or column the run lacks is reported where the rule
/// writes that name, not at the rule's first line.
#[test]
fn check_reports_an_anomaly_rules_unknown_names_where_they_are_written() {
    let dir = TempDir::new("anomaly-names");
    let rules = "\n[[anomalies]]\nkind = \"duplicate\"\ntable = \"tt\"\ncolumns = [\"id\"]\nlabel = \"no such table\"\n\n[[anomalies]]\nkind = \"unmatched\"\ntable = \"t\"\ncolumns = [\"id\"]\nmatch_table = \"t\"\nmatch_columns = [\"nope\"]\nlabel = \"no such column\"\n+++";
    let text = PASSING.replacen("\n+++\n\n", &format!("{rules}\n\n"), 1);
    dir.write("passing.md", &text);
    check_cli(
        &dir,
        &["check", "."],
        expect![[r#"
            exit 2
            --- stdout
            checked 1 lesson, 2 runs, 3 checks: 3 passed, 0 failed; 2 errors
            --- stderr
            ./passing.md:25:9: anomaly `no such table` watches table `tt`, which the run does not have (tables: t)
            ./passing.md:34:18: anomaly `no such column` names column `nope`, which table `t` lacks (columns: id)
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
            checked 1 lesson, 2 runs, 3 checks: 1 passed, 2 failed; 0 errors
            --- stderr
            failing.md:13:8: check `no errors` failed (readpast=on, seed 3): all sessions errors = 0 (expected at least 1)
            failing.md:13:8: check `no errors` failed (readpast=off, seed 3): all sessions errors = 0 (expected at least 1)
        "#]],
    );
}

/// A check whose SQL names a table the run lacks is a mistake in the lesson, as a
/// syntax error is: one error and exit 2, not a failed check under every setting.
#[test]
fn check_reports_a_checks_sql_that_cannot_run_once_as_an_error() {
    let dir = TempDir::new("check-sql");
    let text = PASSING.replacen(
        "[[checks]]\nname = \"no errors\"",
        "[[checks]]\nname = \"rows\"\nsql = \"SELECT COUNT(*) FROM tt\"\nexpect = [[2]]\n\n[[checks]]\nname = \"no errors\"",
        1,
    );
    dir.write("passing.md", &text);
    check_cli(
        &dir,
        &["check", "."],
        expect![[r#"
            exit 2
            --- stdout
            checked 1 lesson, 2 runs, 3 checks: 3 passed, 0 failed; 1 error
            --- stderr
            ./passing.md:13:8: check `rows`: query failed at 1:1: error 208: Invalid object name 'tt'.
        "#]],
    );
}

/// A question must have exactly one right choice in each run it is asked before.
#[test]
fn check_judges_questions_one_right_choice_each() {
    let dir = TempDir::new("questions");
    let question = |choices: &str| {
        format!(
            "max = 1\n\n[[questions]]\nname = \"rows\"\nask = \"How many rows?\"\nsql = \"SELECT COUNT(*) FROM t\"\nexplain = \"Two were inserted.\"\nchoices = [{choices}]\n+++"
        )
    };
    let good = PASSING.replacen(
        "max = 1\n+++",
        &question(r#"{ label = "one", equals = 1 }, { label = "two", equals = 2 }"#),
        1,
    );
    dir.write("passing.md", &good);
    let bad = PASSING
        .replace("id = \"passing\"", "id = \"vague\"")
        .replacen(
            "max = 1\n+++",
            &question(r#"{ label = "some", min = 1 }, { label = "two", equals = 2 }"#),
            1,
        );
    dir.write("vague.md", &bad);
    check_cli(
        &dir,
        &["check", "."],
        expect![[r#"
            exit 1
            --- stdout
            checked 2 lessons, 4 runs, 10 checks: 8 passed, 2 failed; 0 errors
            --- stderr
            ./vague.md:25:8: question `rows`: 2 choices hold (readpast=on, seed 0: (SELECT COUNT(*) FROM t) = 2): some, two
            ./vague.md:25:8: question `rows`: 2 choices hold (readpast=off, seed 0: (SELECT COUNT(*) FROM t) = 2): some, two
        "#]],
    );
}

/// An error nobody handles and no check expects fails `check`; one a TRY block catches
/// does not, and counts as `caught_errors`, not `errors`.
#[test]
fn check_fails_an_error_no_check_expects_and_not_a_caught_one() {
    let dir = TempDir::new("unexpected");
    let text = PASSING
        .replace("id = \"passing\"", "id = \"unexpected\"")
        .replace(
            "SELECT id FROM t;\n```",
            "SELECT id FROM t;\nSELECT 1 / 0;\n```",
        )
        .replace(
            "[[checks]]\nname = \"no errors\"\nfigure = \"errors\"\nequals = 0\n",
            "",
        );
    dir.write("unexpected.md", &text);
    check_cli(
        &dir,
        &["check", "unexpected.md"],
        expect![[r#"
            exit 1
            --- stdout
            checked 1 lesson, 2 runs, 3 checks: 1 passed, 2 failed; 0 errors
            --- stderr
            unexpected.md:28:1: session A ends with error 8134 that no TRY block catches and no check expects (readpast=on, seed 0): Divide by zero error encountered.; handle it, or add a check with figure = "error_number"
            unexpected.md:28:1: session A ends with error 8134 that no TRY block catches and no check expects (readpast=off, seed 0): Divide by zero error encountered.; handle it, or add a check with figure = "error_number"
        "#]],
    );
    let caught = PASSING
        .replace("id = \"passing\"", "id = \"caught\"")
        .replace(
            "SELECT id FROM t;\n```",
            "BEGIN TRY\n    SELECT 1 / 0;\nEND TRY\nBEGIN CATCH\n    SELECT ERROR_NUMBER();\nEND CATCH\n```",
        )
        .replace(
            "figure = \"errors\"\nequals = 0\n",
            "figure = \"errors\"\nequals = 0\n\n[[checks]]\nname = \"one handled\"\nsession = \"A\"\nfigure = \"caught_errors\"\nequals = 1\n",
        );
    dir.write("caught.md", &caught);
    check_cli(
        &dir,
        &["check", "caught.md"],
        expect![[r#"
            exit 0
            --- stdout
            checked 1 lesson, 2 runs, 5 checks: 5 passed, 0 failed; 0 errors
            --- stderr
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
            checked 1 lesson, 2 runs, 3 checks: 3 passed, 0 failed; 1 error
            --- stderr
            ./bad.md:35:26: unknown toggle `readpst` in marker (toggles: readpast)
        "#]],
    );
}

/// SQL the simulator meets only as it runs and does not model (a system procedure) is
/// refused as SQL it cannot parse is: `run` shows the run, then exits 2 naming the
/// statement; `check` reports it once, as an error (exit 2), beside the checks the run
/// it cut short fails.
#[test]
fn sql_not_simulated_at_run_time_is_refused() {
    let dir = TempDir::new("refused");
    dir.write(
        "passing.md",
        &PASSING.replace(
            "```sql session=A\nSELECT id FROM t;",
            "```sql session=A\nSELECT id FROM t;\nEXEC sp_lock;",
        ),
    );
    let (code, stdout, stderr) = lockstep(&dir.0, &["run", "passing.md"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.contains("A gets error"), "{stdout}");
    assert_eq!(
        stderr,
        "passing.md:32:1: session A: not simulated: system procedure sp_lock\n"
    );
    check_cli(
        &dir,
        &["check", "passing.md"],
        expect![[r#"
        exit 2
        --- stdout
        checked 1 lesson, 2 runs, 3 checks: 1 passed, 2 failed; 1 error
        --- stderr
        passing.md:32:1: session A: not simulated: system procedure sp_lock (readpast=on, seed 0)
        passing.md:13:8: check `no errors` failed (readpast=on, seed 0): all sessions errors = 1 (expected 0)
        passing.md:13:8: check `no errors` failed (readpast=off, seed 0): all sessions errors = 1 (expected 0)
    "#]],
    );
}

/// SQL a marker's value breaks under some settings only: the error names them, in few
/// words when a toggle's value alone decides (`readpast=off`); an error under every
/// setting names none.
#[test]
fn check_names_the_settings_a_broken_marker_value_fails_under() {
    let dir = TempDir::new("marker");
    let two = PASSING
        .replace("id = \"passing\"", "id = \"marker\"")
        .replace(
            "values = [\"on\", \"off\"]\n",
            "values = [\"on\", \"off\"]\n\n[[toggles]]\nname = \"lock\"\nlabel = \"Lock\"\nvalues = [\"row\", \"page\"]\n",
        )
        .replace(
            "{{readpast: on=READPAST, }}ROWLOCK);",
            "{{readpast: on=READPAST, | off=READPAST; }}ROWLOCK);\nSELECT id FROM t WITH ({{lock: row=ROWLOCK| page=TABLOCK}});",
        );
    dir.write("marker.md", &two);
    let one = two
        .replace("id = \"marker\"", "id = \"one\"")
        .replace("page=TABLOCK", "page=TABLOCK,");
    dir.write("one.md", &one);
    let all = two
        .replace("id = \"marker\"", "id = \"all\"")
        .replace("SELECT id FROM t;", "SELECT id FROM t WHERE;");
    dir.write("all.md", &all);
    check_cli(
        &dir,
        &["check", "marker.md", "one.md", "all.md"],
        expect![[r#"
            exit 2
            --- stdout
            checked 3 lessons, 3 runs, 6 checks: 6 passed, 0 failed; 4 errors
            --- stderr
            marker.md:40:63: found ';', expected one of: ',', a table hint, ')' (with readpast=off)
            one.md:41:60: found ')', expected a table hint (with readpast=on, lock=page)
            one.md:40:63: found ';', expected one of: ',', a table hint, ')' (with readpast=off)
            all.md:36:23: found ';', expected an expression
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
            checked 0 lessons, 0 runs, 0 checks: 0 passed, 0 failed; 2 errors
            --- stderr
            nowhere.md: cannot read: No such file or directory (os error 2)
            empty: no lesson files (*.md) here
        "#]],
    );
    // A lesson id, as the app's URLs write it, is answered with the file it names.
    std::fs::create_dir_all(dir.0.join("lessons")).expect("mkdir");
    dir.write("lessons/race.md", RACE);
    check_cli(
        &dir,
        &["run", "race"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            race: cannot read: No such file or directory (os error 2); did you mean lessons/race.md?
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
        top: ["anomalies", "checks", "end_ms", "lesson", "queries", "questions", "schedule", "seed", "sessions", "settings"]
        session: ["delayed_ms", "elapsed_ms", "errors", "logical_reads", "name", "results", "statements", "wait_ms"]
        check: ["bug", "detail", "name", "passed"]
        query: ["columns", "rows", "sql"]
        lesson="passing" seed=9 settings={"readpast":"off"}
        sessions=Some(["\"A\"", "\"B\""])
        check names=Some(["\"no errors\""])
        end_ms is number: true
        wait_ms is number: true
    "#]]
    .assert_eq(&shape);
}

/// A PostgreSQL error's number is its SQLSTATE: the JSON's `number` is 0 (no number),
/// never the SQL Server number the engine raised it under (2601 for a 23505).
/// `run` answers the questions asked at its settings, as the player judges them: the
/// right choice and the figure behind it, in the text and in the JSON.
#[test]
fn run_answers_the_questions_that_apply() {
    let dir = TempDir::new("questions");
    let asked = PASSING.replace(
        "+++\n\n```sql setup",
        "[[questions]]\nname = \"b-wait\"\nask = \"How long does B wait?\"\nwhen = { readpast = \"off\" }\nsession = \"B\"\nfigure = \"wait_ms\"\nexplain = \"Nobody holds a lock B wants.\"\nchoices = [\n  { label = \"Not at all\", max = 1 },\n  { label = \"A while\", min = 2 },\n]\n+++\n\n```sql setup",
    );
    dir.write("passing.md", &asked);
    let (code, stdout, stderr) = lockstep(&dir.0, &["run", "passing.md", "--set", "readpast=off"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let from = stdout.find("questions:").expect("a questions section");
    let to = stdout.find("anomalies:").expect("anomalies");
    expect![[r#"
        questions: 1
          b-wait: Not at all (B wait_ms = 0)

    "#]]
    .assert_eq(&stdout[from..to]);
    // Asked only where its `when` holds.
    let (_, stdout, _) = lockstep(&dir.0, &["run", "passing.md"]);
    assert!(!stdout.contains("questions:"), "{stdout}");
    let (_, stdout, _) = lockstep(
        &dir.0,
        &["run", "passing.md", "--set", "readpast=off", "--json"],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    expect![[r#"[{"detail":"B wait_ms = 0","name":"b-wait","right":["Not at all"]}]"#]]
        .assert_eq(&json["questions"].to_string());
}

#[test]
fn run_json_numbers_a_postgresql_error_by_its_sqlstate_only() {
    let dir = TempDir::new("pgjson");
    let lesson = format!(
        "{}/../../lessons/pg-send-double-click.md",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, stdout, stderr) = lockstep(
        &dir.0,
        &["run", &lesson, "--json", "--set", "guard=unique-index"],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let errors: Vec<(serde_json::Value, serde_json::Value)> = json["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .flat_map(|s| s["errors"].as_array().cloned().unwrap_or_default())
        .map(|e| (e["number"].clone(), e["sqlstate"].clone()))
        .collect();
    assert_eq!(errors, [(serde_json::json!(0), serde_json::json!("23505"))]);
}

/// `lockstep run ... | head`: the reader goes away, and the tool ends without a panic.
#[cfg(unix)]
#[test]
fn run_into_a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    let lesson = format!(
        "{}/../../lessons/queue-claim-race.md",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["run", &lesson])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run lockstep");
    drop(child.stdout.take()); // the reader is gone before the first line
    let out = child.wait_with_output().expect("lockstep ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
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
        &[
            "run",
            "passing.md",
            "--set",
            "readpast=on",
            "--set",
            "readpast=off",
        ],
        expect![[r#"
        exit 2
        --- stdout
        --- stderr
        error: --set readpast given twice, as on and as off
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
    assert_help_mentions(
        "run",
        &[
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
            "bug",
            "anomalies",
            "index",
            "at_ms",
            "kind",
            "label",
            "why",
            "queries",
            "sql",
        ],
    );
}

/// `lockstep COMMAND --help` exits 0 and names each of `words`.
fn assert_help_mentions(command: &str, words: &[&str]) {
    let dir = TempDir::new(&format!("help-{command}"));
    let (code, stdout, _) = lockstep(&dir.0, &[command, "--help"]);
    assert_eq!(code, 0);
    for word in words {
        assert!(
            stdout.contains(word),
            "`{word}` missing from {command} --help:\n{stdout}"
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

/// A query that names a column its table lacks is placed at that column, not at 1:1.
#[test]
fn run_query_errors_point_at_the_missing_column() {
    let dir = TempDir::new("query-error");
    dir.write("passing.md", PASSING);
    let (code, _, stderr) = lockstep(
        &dir.0,
        &[
            "run",
            "passing.md",
            "--query",
            "SELECT id,\n  nosuch FROM t",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("failed at 2:3: error 207: Invalid column name 'nosuch'."),
        "{stderr}"
    );
}

// ---- run --svg: the static timeline ----

fn repo_lesson(id: &str) -> String {
    format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `lockstep run LESSON ARGS --svg FILE` and returns the SVG text, checking that
/// stdout is what the same run prints without `--svg`.
fn svg_of(dir: &TempDir, lesson: &str, args: &[&str]) -> String {
    let file = dir.0.join("out.svg");
    let _ = std::fs::remove_file(&file);
    let path = file.display().to_string();
    let plain: Vec<&str> = ["run", lesson].iter().chain(args).copied().collect();
    let mut with_svg = plain.clone();
    with_svg.extend(["--svg", path.as_str()]);
    let (code, stdout, stderr) = lockstep(&dir.0, &with_svg);
    // Exit 1 (a check failed) still draws: an exercise as shipped fails its goals.
    assert!(
        code <= 1 && stderr.is_empty(),
        "exit {code}: {stderr}{stdout}"
    );
    let (_, plain_stdout, _) = lockstep(&dir.0, &plain);
    assert_eq!(stdout, plain_stdout, "--svg changed stdout");
    std::fs::read_to_string(&file).expect("the SVG file")
}

/// Parses the SVG (a real XML parser: well-formedness is not checked by eye) and
/// checks that it is self-contained; returns its text nodes, one per line.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    for node in doc.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        assert!(
            !matches!(
                name,
                "script" | "style" | "image" | "a" | "foreignObject" | "use"
            ),
            "<{name}> in a self-contained SVG"
        );
        for attr in node.attributes() {
            assert!(
                !attr.name().contains("href") && !attr.value().contains("://")
                    || attr.name() == "xmlns",
                "external reference: {}={}",
                attr.name(),
                attr.value()
            );
        }
    }
    doc.descendants()
        .filter(roxmltree::Node::is_text)
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn svg_of_wait_or_skip_shows_both_lanes_and_who_b_waits_for() {
    let dir = TempDir::new("svg-wait");
    let lesson = repo_lesson("queue-wait-or-skip");
    let off = svg_texts(&svg_of(&dir, &lesson, &["--set", "readpast=off"]));
    let on = svg_texts(&svg_of(&dir, &lesson, &["--set", "readpast=on"]));
    for texts in [&off, &on] {
        assert!(texts.iter().any(|t| t == "A"), "no lane A: {texts:?}");
        assert!(texts.iter().any(|t| t == "B"), "no lane B: {texts:?}");
        assert!(texts
            .iter()
            .any(|t| t == "Wait or skip: READPAST in a job queue"));
        assert!(texts.iter().any(|t| t == "Legend"));
        assert!(texts
            .iter()
            .any(|t| t.starts_with("Checks: 5 passed, 0 failed")));
    }
    let lane_label = "waiting on KEY task (1) for A";
    assert!(off.iter().any(|t| t == lane_label), "{off:?}");
    assert!(off
        .iter()
        .any(|t| t.contains("readpast=off ranks=3,3,2,2,1")));
    assert!(
        !on.iter().any(|t| t.starts_with("waiting on KEY")),
        "{on:?}"
    );
    assert!(on.iter().any(|t| t.contains("readpast=on")));
    // B's outcome row: its wait in ms, no errors, its claimed row.
    let b_wait = off
        .iter()
        .position(|t| t == "B")
        .and_then(|_| off.iter().find(|t| t.starts_with("2500.")));
    assert!(b_wait.is_some(), "B's wait is not in the outcome: {off:?}");
    assert!(off.iter().any(|t| t == "2, task 2, 3, B"));
}

/// Thousands of segments per lane (a 20 ms WAITFOR per claim) are merged at the
/// picture's scale: the file stays small, whichever claim and however many workers.
#[test]
fn svg_of_the_claim_race_stays_small() {
    let dir = TempDir::new("svg-race");
    let race = repo_lesson("queue-claim-race");
    let exercise = repo_lesson("exercise-claim-fix");
    let runs: [(&str, &[&str]); 4] = [
        (&race, &["--set", "claim=two-step"]),
        (
            &race,
            &["--set", "claim=one-statement", "--set", "workers=4"],
        ),
        (
            &race,
            &[
                "--set",
                "claim=conditional",
                "--set",
                "workers=4",
                "--set",
                "tasks=600",
            ],
        ),
        (&exercise, &[]),
    ];
    for (lesson, args) in runs {
        let svg = svg_of(&dir, lesson, args);
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "worker2"));
        assert!(
            (4_000..120_000).contains(&svg.len()),
            "{lesson} {args:?}: {} bytes",
            svg.len()
        );
    }
}

/// A Teradata consume waiting for a row has a lane state of its own, said in text.
#[test]
fn svg_names_a_delayed_consume() {
    let dir = TempDir::new("svg-delayed");
    let texts = svg_texts(&svg_of(&dir, &repo_lesson("teradata-consume"), &[]));
    assert!(
        texts.iter().any(|t| t == "delayed: order_queue is empty"),
        "{texts:?}"
    );
}

#[test]
fn svg_escapes_lesson_text_and_marks_errors() {
    let dir = TempDir::new("svg-escape");
    let text = PASSING
        .replace(
            "title = \"Passing\"",
            "title = \"<Passing> & 'friends' \\\"quoted\\\"\"",
        )
        .replace(
            "SELECT id FROM t;\n```",
            "SELECT N'<b>&amp;</b>' AS html, id FROM t;\nSELECT 1 / 0;\n```",
        )
        .replace("equals = 0", "min = 0");
    dir.write("passing.md", &text);
    let svg = svg_of(&dir, "passing.md", &[]);
    let texts = svg_texts(&svg);
    assert!(
        texts.contains(&"<Passing> & 'friends' \"quoted\"".to_string()),
        "{texts:?}"
    );
    assert!(texts.contains(&"<b>&amp;</b>, 1".to_string()), "{texts:?}");
    // The divide-by-zero error: a mark with its number, and the number in the outcome.
    assert!(texts.contains(&"8134".to_string()), "{texts:?}");
}

#[test]
fn svg_to_an_unwritable_path_is_bad_input() {
    let dir = TempDir::new("svg-bad");
    dir.write("passing.md", PASSING);
    check_cli(
        &dir,
        &["run", "passing.md", "--svg", "no/such/dir/out.svg"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            no/such/dir/out.svg: cannot write: No such file or directory (os error 2)
        "#]],
    );
}

#[test]
fn run_help_documents_svg_and_solution() {
    let dir = TempDir::new("help-svg");
    let (code, stdout, _) = lockstep(&dir.0, &["run", "--help"]);
    assert_eq!(code, 0);
    for word in ["--svg <FILE>", "--solution", "SVG output", "self-contained"] {
        assert!(
            stdout.contains(word),
            "`{word}` missing from run --help:\n{stdout}"
        );
    }
}

// ---- exercises ----

/// A small exercise: B must not wait for A's lock.
const EXERCISE: &str = r#"+++
id = "drill"
title = "Drill"
dialect = "tsql"
summary = "B must not wait."
kind = "exercise"
seed = 3
seeds = [3, 4]
goal = "Make B take a row without waiting for A."

[[hints]]
text = "Look at B's lane."

[[hints]]
text = "READPAST."

[[checks]]
name = "B does not wait"
session = "B"
figure = "wait_ms"
max = 1
+++

```sql setup
CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t VALUES (1), (2);
```

```sql session=A
BEGIN TRAN;
SELECT TOP (1) id FROM t WITH (UPDLOCK, ROWLOCK) ORDER BY id;
WAITFOR DELAY '00:00:01';
COMMIT;
```

```sql session=B start=100ms editable
SELECT TOP (1) id FROM t WITH (UPDLOCK, ROWLOCK) ORDER BY id;
```

```sql solution=B
SELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;
```
"#;

#[test]
fn check_validates_exercises() {
    let dir = TempDir::new("exercise");
    dir.write("drill.md", EXERCISE);
    check_cli(
        &dir,
        &["check", "drill.md"],
        expect![[r#"
            exit 0
            --- stdout
            drill.md: exercise: as shipped it fails 1 goal on seeds 3, 4; the solution meets every goal
            checked 1 lesson, 4 runs, 2 checks: 2 passed, 0 failed; 0 errors
            --- stderr
        "#]],
    );
    // Nothing to fix: the starting SQL already meets the goal.
    dir.write(
        "drill.md",
        &EXERCISE.replacen(
            "(UPDLOCK, ROWLOCK) ORDER BY id;\n```\n\n```sql solution",
            "(UPDLOCK, READPAST, ROWLOCK) ORDER BY id;\n```\n\n```sql solution",
            1,
        ),
    );
    check_cli(
        &dir,
        &["check", "drill.md"],
        expect![[r#"
            exit 1
            --- stdout
            checked 1 lesson, 4 runs, 2 checks: 1 passed, 1 failed; 0 errors
            --- stderr
            drill.md:9:8: the exercise as shipped already meets every goal on seeds 3, 4: there is nothing to fix
        "#]],
    );
    // A solution that does not meet the goal.
    dir.write(
        "drill.md",
        &EXERCISE.replace("(UPDLOCK, READPAST, ROWLOCK)", "(UPDLOCK, ROWLOCK)"),
    );
    let (code, stdout, stderr) = lockstep(&dir.0, &["check", "drill.md", "--seed", "11"]);
    expect![[r#"
            exit 1
            --- stdout
            drill.md: exercise: as shipped it fails 1 goal on seeds 11; the solution meets every goal
            checked 1 lesson, 2 runs, 2 checks: 1 passed, 1 failed; 0 errors
            --- stderr
            drill.md:18:8: the solution fails goal `B does not wait` (seed 11): B wait_ms = 900.… (expected at most 1)
        "#]]
    .assert_eq(&redact_us(&format!("exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}")));
    // A solution that does not parse is placed in the file.
    dir.write(
        "drill.md",
        &EXERCISE.replace(
            "(UPDLOCK, READPAST, ROWLOCK)",
            "(UPDLOCK, READPAST; ROWLOCK)",
        ),
    );
    check_cli(
        &dir,
        &["check", "drill.md"],
        expect![[r#"
            exit 2
            --- stdout
            checked 1 lesson, 0 runs, 0 checks: 0 passed, 0 failed; 1 error
            --- stderr
            drill.md:41:49: in the solution: found ';', expected one of: ',', a table hint, ')'
        "#]],
    );
}

#[test]
fn check_skips_pending_directories_unless_named() {
    let dir = TempDir::new("pending");
    dir.write("passing.md", PASSING);
    std::fs::create_dir_all(dir.0.join("pending")).expect("mkdir");
    dir.write("pending/later.md", "not a lesson yet");
    check_cli(
        &dir,
        &["check", "."],
        expect![[r#"
            exit 0
            --- stdout
            ./pending: note: skipped (lessons waiting for an engine feature; name it to check it)
            checked 1 lesson, 2 runs, 3 checks: 3 passed, 0 failed; 0 errors
            --- stderr
        "#]],
    );
    check_cli(
        &dir,
        &["check", "pending"],
        expect![[r#"
            exit 2
            --- stdout
            checked 0 lessons, 0 runs, 0 checks: 0 passed, 0 failed; 1 error
            --- stderr
            pending/later.md:1:1: a lesson starts with TOML front matter between two `+++` lines
        "#]],
    );
}

#[test]
fn run_solution_runs_an_exercise_with_its_answer() {
    let dir = TempDir::new("solution");
    dir.write("drill.md", EXERCISE);
    dir.write("passing.md", PASSING);
    let (code, stdout, _) = lockstep(&dir.0, &["run", "drill.md"]);
    assert_eq!(code, 1, "{stdout}");
    let (code, stdout, _) = lockstep(&dir.0, &["run", "drill.md", "--solution"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("  PASS B does not wait: B wait_ms = 0"),
        "{stdout}"
    );
    check_cli(
        &dir,
        &["run", "passing.md", "--solution"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: --solution: lesson `passing` is not an exercise
        "#]],
    );
}

#[test]
fn exercises_prints_a_facilitators_handout() {
    let dir = TempDir::new("exercises");
    dir.write("drill.md", EXERCISE);
    dir.write("passing.md", PASSING);
    check_cli(
        &dir,
        &["exercises", ".", "--markdown", "--solutions"],
        expect![[r#"
            exit 0
            --- stdout
            # Lockstep exercises

            Each exercise gives the learner SQL to change. **Check** runs it on several seeds (the seeds vary statement timings, as real runs do); a goal counts only when it holds on every seed.

            | exercise | id | goals |
            |---|---|---|
            | Drill | `drill` | 1 |

            ## Drill (`drill`)

            **Goal.** Make B take a row without waiting for A.

            **The learner edits** `B` (session B, line 36).

            **Goals**, each on seeds 3, 4:

            - [ ] B does not wait

            **Hints**, to reveal one at a time:

            1. Look at B's lane.
            2. READPAST.

            **Solution for `B`:**

            ```sql
            SELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;
            ```
            --- stderr
        "#]],
    );
    check_cli(
        &dir,
        &["exercises", "drill.md"],
        expect![[r#"
            exit 0
            --- stdout
            drill  Drill
              file: drill.md
              goal: Make B take a row without waiting for A.
              edits: B (session B, line 36)
              goals, each on every seed (3, 4):
                - B does not wait
              hints:
                1. Look at B's lane.
                2. READPAST.
            --- stderr
        "#]],
    );
}

/// Two sessions that start together: every run makes choices.
const RACE: &str = r#"+++
id = "race"
title = "Race"
dialect = "tsql"
summary = "Two sessions update one row."
+++

```sql setup
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t (id, v) VALUES (1, 0);
```

```sql session=A
UPDATE t SET v = v + 1 WHERE id = 1;
SELECT v FROM t;
```

```sql session=B
UPDATE t SET v = v + 10 WHERE id = 1;
SELECT v FROM t;
```
"#;

#[test]
fn run_schedule_replays_the_json_schedule_exactly() {
    let dir = TempDir::new("schedule");
    dir.write("race.md", RACE);
    for untimed in [false, true] {
        let mut args = vec!["run", "race.md", "--json", "--seed", "5"];
        if untimed {
            args.push("--untimed");
        }
        let (code, first, stderr) = lockstep(&dir.0, &args);
        assert_eq!((code, stderr.as_str()), (0, ""));
        let json: serde_json::Value = serde_json::from_str(&first).unwrap();
        let schedule = json["schedule"].as_str().unwrap().to_string();
        assert_eq!(schedule.starts_with("u."), untimed, "{schedule}");
        assert_ne!(schedule.trim_start_matches("u."), "-", "no choice was made");
        let (code, again, _) = lockstep(
            &dir.0,
            &[
                "run",
                "race.md",
                "--json",
                "--seed",
                "5",
                "--schedule",
                &schedule,
            ],
        );
        assert_eq!(code, 0);
        assert_eq!(again, first, "replaying {schedule}");
        // The text output names the schedule and replays the same trace.
        let text = |extra: &[&str]| {
            let mut a = vec!["run", "race.md", "--seed", "5"];
            a.extend_from_slice(extra);
            lockstep(&dir.0, &a).1
        };
        let base: &[&str] = if untimed { &["--untimed"] } else { &[] };
        assert_eq!(text(base), text(&["--schedule", &schedule]));
    }
}

#[test]
fn run_bad_schedule_is_bad_input_naming_the_choice() {
    let dir = TempDir::new("bad-schedule");
    dir.write("race.md", RACE);
    check_cli(
        &dir,
        &["run", "race.md", "--schedule", "0.x"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: --schedule: schedule `0.x`: item 2 (`x`) is not a session number or NUMBER~COUNT
        "#]],
    );
    check_cli(
        &dir,
        &["run", "race.md", "--schedule", "u.5"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: --schedule: schedule choice 1 picks session 5, which does not exist, but only A, B can run then
        "#]],
    );
    // Choices the run never reaches are not dropped in silence.
    check_cli(
        &dir,
        &["run", "race.md", "--untimed", "--schedule", "u.1~2.0.1.0"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: --schedule: the run ended after 3 choice points, but the schedule has 5 choices; choices 4 to 5 are never reached
        "#]],
    );
}

// ---- prerender ----

#[test]
fn prerender_writes_each_lessons_first_paint_and_their_ids() {
    let dir = TempDir::new("prerender");
    dir.write("passing.md", PASSING);
    dir.write("drill.md", EXERCISE);
    check_cli(
        &dir,
        &["prerender", ".", "--out", "pages"],
        expect![[r#"
            exit 0
            --- stdout
            --- stderr
        "#]],
    );
    let ids = std::fs::read_to_string(dir.0.join("pages/ids.js")).expect("ids.js");
    // No translations here: the map of translated first paints is empty.
    assert_eq!(
        ids,
        "var LOCKSTEP_PRERENDERED = [\"drill\", \"passing\"];\nvar LOCKSTEP_PRERENDERED_LANG = {};\n"
    );
    let page = std::fs::read_to_string(dir.0.join("pages/passing.html")).expect("page");
    assert!(page.starts_with("<article class=\"first-paint prose\" data-lesson=\"passing\">"));
    assert!(
        page.contains("<pre class=\"first-paint__code\"><code>"),
        "{page}"
    );
    // A lesson with an error is reported like everywhere else, and fails the command.
    dir.write("broken.md", "no front matter");
    let (code, _, stderr) = lockstep(&dir.0, &["prerender", ".", "--out", "pages"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("broken.md:1:1: "), "{stderr}");
}

// ---- explore: the search over interleavings ----

fn explore_json(dir: &TempDir, args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["explore"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, stdout, stderr) = lockstep(&dir.0, &all);
    assert_eq!(stderr, "", "{all:?}");
    (
        code,
        serde_json::from_str(&stdout).expect("one JSON object"),
    )
}

#[test]
fn explore_exits_0_when_the_property_holds_for_every_interleaving() {
    let dir = TempDir::new("explore-holds");
    let claim = repo_lesson("queue-claim-race");
    let (code, json) = explore_json(
        &dir,
        &[&claim, "--set", "claim=one-statement", "--set", "tasks=3"],
    );
    assert_eq!(code, 0);
    assert_eq!(json["verdict"], "holds");
    assert_eq!(json["property"], "no-double-claim");
    assert_eq!(json["exhaustive"], true);
    assert_eq!(
        (json["states"].as_u64(), json["schedules"].as_u64()),
        (Some(280), Some(288))
    );
    assert_eq!(json["bounds"]["max_steps"], 400);
    assert!(json.get("counterexample").is_none(), "{json}");
}

#[test]
fn explore_exits_1_with_a_counterexample_that_run_replays() {
    let dir = TempDir::new("explore-violated");
    let claim = repo_lesson("queue-claim-race");
    let (code, json) = explore_json(&dir, &[&claim, "--set", "tasks=3"]);
    assert_eq!(code, 1);
    assert_eq!(json["verdict"], "violated");
    assert_eq!(json["exhaustive"], true);
    let c = &json["counterexample"];
    assert_eq!(c["schedule"], "u.0~6.1~8.0~2");
    assert_eq!(c["switches"], 2);
    assert_eq!(c["detail"], "got 1 (expected 0)");
    let steps: Vec<&str> = c["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(steps.len(), 16);
    assert!(steps[10].starts_with("worker2 reads task 1"), "{steps:?}");
    // Why: worker1's read of task 1 (step 5) came before worker2's UPDATE (step 13).
    assert_eq!(c["conflict"]["read"], 4);
    assert_eq!(c["conflict"]["write"], 12);
    assert_eq!(
        c["conflict"]["summary"],
        "worker1 reads task 1 before worker2's UPDATE writes it; both go on to write it"
    );
    // The schedule replays to the same duplicate: task 1 claimed by both workers.
    let (code, stdout, stderr) = lockstep(
        &dir.0,
        &[
            "run",
            &claim,
            "--set",
            "tasks=3",
            "--schedule",
            "u.0~6.1~8.0~2",
            "--json",
            "--query",
            "SELECT task_id, COUNT(*) FROM claim GROUP BY task_id HAVING COUNT(*) > 1",
        ],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // Past the schedule's end the replay goes on at random; task 1 is the first duplicate.
    assert_eq!(run["queries"][0]["rows"][0], serde_json::json!([1, 2]));
    assert!(run["schedule"]
        .as_str()
        .unwrap()
        .starts_with("u.0~6.1~8.0~2"));
}

#[test]
fn explore_text_narrates_the_counterexample_and_how_to_replay_it() {
    let dir = TempDir::new("explore-text");
    let text = PASSING.replace(
        "+++\n\n```sql setup",
        "\n[[properties]]\nname = \"a-first\"\nlabel = \"A reads before B\"\nat_end = \"SELECT COUNT(*) FROM t WHERE id > 5\"\nequals = 1\n+++\n\n```sql setup",
    );
    dir.write("passing.md", &text);
    check_cli(
        &dir,
        &["explore", "passing.md"],
        expect![[r#"
            exit 1
            --- stdout
            lesson passing  seed 0  readpast=on
            property a-first: A reads before B
            violated: got 0 (expected 1)
            counterexample: 4 steps, 1 context switch, schedule u.0~2
                1  A reads t 1, t 2; gets 2 row(s) [id]: 1 (SELECT id FROM t)
                2  A finishes its script
                3  B reads t 1, t 2; gets 2 row(s) [id]: 1 (SELECT id FROM t WITH (READPAST, ROWLOCK))
                4  B finishes its script
            replay: lockstep run passing.md --schedule u.0~2
            searched 9 states, 14 steps, 0 schedules, the longest 4 steps
            --- stderr
        "#]],
    );
}

/// Random walks run to the end of the run, so the longest interleaving can pass
/// --max-steps; the report says so rather than seem to ignore the bound.
#[test]
fn explore_says_when_a_walk_passed_max_steps() {
    let (code, stdout, stderr) = lockstep(
        &lessons_dir(),
        &[
            "explore",
            "queue-claim-race.md",
            "--set",
            "claim=conditional",
            "--set",
            "tasks=3",
            "--max-states",
            "20",
            "--max-steps",
            "5",
            "--walks",
            "2",
        ],
    );
    expect![[r#"
        exit 0
        --- stdout
        lesson queue-claim-race  seed 7  claim=conditional workers=2 tasks=3
        property no-double-claim: No task is claimed twice
        holds in every interleaving explored, not exhaustive: the state budget of 20 ran out, then 2 random walks
        searched 20 states, 102 steps, 2 schedules, the longest 46 steps (a random walk: walks are not cut at --max-steps 5)
        --- stderr
    "#]]
    .assert_eq(&format!("exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"));
}

/// An `at_end` property is looked at only where a run ends: a search whose every
/// interleaving was cut short has not checked it, and says so instead of "holds".
#[test]
fn explore_says_unchecked_when_no_interleaving_reached_the_end() {
    let dir = TempDir::new("explore-unchecked");
    let lesson = repo_lesson("queue-wait-or-skip");
    let args = [lesson.as_str(), "--property", "no-double-claim"];
    let (code, json) = explore_json(&dir, &args);
    assert_eq!((code, json["verdict"].as_str()), (0, Some("holds")));
    let cut = [&args[..], &["--max-steps", "3"]].concat();
    let (code, json) = explore_json(&dir, &cut);
    assert_eq!((code, json["verdict"].as_str()), (1, Some("unchecked")));
    assert_eq!(json["schedules"], 0);
    let (code, stdout, _) = lockstep(&dir.0, &[&["explore"], &cut[..]].concat());
    assert_eq!(code, 1);
    assert!(
        stdout.contains("unchecked: no interleaving explored reached the end of the run"),
        "{stdout}"
    );
    assert!(stdout.contains("the longest 3 steps\n"), "{stdout}");
}

#[test]
fn explore_bad_input_exits_2() {
    let dir = TempDir::new("explore-bad");
    dir.write("passing.md", PASSING);
    let broken = PASSING.replace("id = \"passing\"", "id = \"broken\"").replace(
        "+++\n\n```sql setup",
        "\n[[properties]]\nname = \"nowhere\"\nlabel = \"Reads a missing table\"\nalways = \"SELECT COUNT(*) FROM nowhere\"\nequals = 0\n+++\n\n```sql setup",
    );
    dir.write("broken.md", &broken);
    check_cli(
        &dir,
        &["explore", "passing.md", "--property", "no-double-claim"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            error: --property: lesson `passing` has no property `no-double-claim` with these settings (properties: no-errors, no-deadlock)
        "#]],
    );
    let (code, _, stderr) = lockstep(&dir.0, &["explore", "passing.md", "--reduction", "some"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("[possible values: all, visited, none]"),
        "{stderr}"
    );
    check_cli(
        &dir,
        &["explore", "broken.md"],
        expect![[r#"
            exit 2
            --- stdout
            --- stderr
            property `nowhere`: query failed at 1:1: error 208: Invalid object name 'nowhere'.
        "#]],
    );
    // `check` runs each property's SQL once, on the final state, and places its error.
    check_cli(
        &dir,
        &["check", "broken.md"],
        expect![[r#"
            exit 2
            --- stdout
            checked 1 lesson, 2 runs, 3 checks: 3 passed, 0 failed; 1 error
            --- stderr
            broken.md:25:8: property `nowhere`: query failed at 1:1: error 208: Invalid object name 'nowhere'.
        "#]],
    );
}

#[test]
fn explore_help_documents_every_json_field() {
    assert_help_mentions(
        "explore",
        &[
            "--property",
            "--max-steps",
            "--reduction",
            "verdict",
            "\"holds\"",
            "\"violated\"",
            "exhaustive",
            "states",
            "schedules",
            "counterexample",
            "schedule",
            "steps",
            "conflict",
            "\"unchecked\"",
            "Exit codes: 0 the property holds, 1 it is violated or unchecked, 2 bad input",
        ],
    );
}

fn lessons_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons")
}

/// The anomalies of a shipped lesson, as the JSON lists them, with the checks' bug flag.
#[test]
fn run_json_lists_anomalies_and_marks_bug_checks() {
    let (code, stdout, stderr) = lockstep(
        &lessons_dir(),
        &[
            "run",
            "send-double-click.md",
            "--json",
            "--set",
            "guard=index-only",
        ],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let anomalies = serde_json::to_string_pretty(&json["anomalies"]).unwrap();
    expect![[r#"
        [
          {
            "at_ms": 6000.135,
            "index": 45,
            "kind": "duplicate",
            "label": "receiver called a second time for one document",
            "rows": [
              {
                "key": "1001",
                "table": "external_system"
              },
              {
                "key": "1000",
                "table": "external_system"
              }
            ],
            "sessions": [
              "user1",
              "user2"
            ],
            "why": "user2: receiver called a second time for one document (external_system (1001) repeats DocumentId 3 of external_system (1000))"
          },
          {
            "at_ms": 6000.135,
            "index": 45,
            "kind": "unmatched",
            "label": "receiver called, no entry records the call",
            "rows": [
              {
                "key": "1001",
                "table": "external_system"
              }
            ],
            "sessions": [
              "user2"
            ],
            "why": "user2: receiver called, no entry records the call (external_system (1001) has OrderId 1001; no send row has it; user2 got error 2601 after it)"
          },
          {
            "at_ms": 6027.402,
            "index": 53,
            "kind": "error",
            "label": "error 2601",
            "rows": [],
            "sessions": [
              "user2"
            ],
            "why": "user2: error 2601"
          }
        ]"#]]
    .assert_eq(&anomalies);
    let bugs: Vec<(bool, bool)> = json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["bug"].as_bool().unwrap(), c["passed"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        bugs,
        [
            (true, true),
            (true, true),
            (true, true),
            (false, true),
            (false, true)
        ]
    );
}

/// The outcome's words agree with their numbers: "1 statement", "2 rows".
#[test]
fn run_text_says_one_statement_and_one_error_in_the_singular() {
    let dir = TempDir::new("plural");
    dir.write("passing.md", PASSING);
    let (code, stdout, _) = lockstep(&dir.0, &["run", "passing.md"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("  A: waited 0 ms, 1 statement, 0 errors, "),
        "{stdout}"
    );
    assert!(stdout.contains("    result 1 (2 rows):"), "{stdout}");
}

#[test]
fn run_text_lists_anomalies_with_time_kind_and_why() {
    let (code, stdout, stderr) =
        lockstep(&lessons_dir(), &["run", "exercise-teradata-rollback.md"]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    let from = stdout.find("\nanomalies:").expect("an anomalies section");
    expect![[r#"

        anomalies: 2
             0.070 ms  event 8  error  A: error 3811
             0.099 ms  event 11  lost  A: consumed job lost (job_queue (rid 0) consumed and returned 1, order 1; then error 3811; then commit)
    "#]]
    .assert_eq(&stdout[from..]);
    let (_, stdout, _) = lockstep(
        &lessons_dir(),
        &["run", "send-failure.md", "--set", "fail=after-call"],
    );
    assert!(
        stdout.contains("  PASS Failure after the call: the receiver has the document, no entry says so: got (1, 0) [bug reproduced]\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "  5000.096 ms  event 19  unmatched  clerk: receiver called, no entry records the call"
        ),
        "{stdout}"
    );
}

// ---- matrix: every toggle combination over several seeds ----

/// The rows of `lockstep matrix --json` keyed by their settings joined as `a=x b=y`.
fn matrix_rows(json: &serde_json::Value) -> Vec<(String, &serde_json::Value)> {
    json["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let settings: Vec<String> = row["settings"]
                .as_object()
                .expect("settings")
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect();
            (settings.join(" "), &row["cells"])
        })
        .collect()
}

/// SCENARIOS.md Q10: the READPAST claim runs under READ UNCOMMITTED, READ COMMITTED and
/// REPEATABLE READ and fails with 650 under SNAPSHOT and SERIALIZABLE, RCSI on or off.
#[test]
fn matrix_json_of_queue_isolation_has_650_exactly_under_snapshot_and_serializable() {
    let dir = TempDir::new("matrix-json");
    let lesson = repo_lesson("queue-isolation");
    let (code, stdout, stderr) = lockstep(&dir.0, &["matrix", &lesson, "--json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(json["lesson"], "queue-isolation");
    assert_eq!(json["seeds"], serde_json::json!([1, 2, 3]));
    assert_eq!(
        json["toggles"],
        serde_json::json!(["isolation", "rcsi", "readpast"])
    );
    let keys: Vec<&str> = json["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| c["key"].as_str().expect("key"))
        .collect();
    assert_eq!(
        keys,
        [
            "B.error_number",
            "A.error_number",
            "B.wait_ms",
            "errors",
            "B.result1",
            "error_numbers"
        ]
    );
    assert_eq!(json["columns"][0]["kind"], "figure");
    assert_eq!(json["columns"][0]["session"], "B");
    assert_eq!(json["columns"][0]["figure"], "error_number");
    let rows = matrix_rows(&json);
    // 5 isolation levels × RCSI on, off × READPAST on, off.
    assert_eq!(rows.len(), 20);
    let with_650: Vec<&str> = rows
        .iter()
        .filter(|(_, cells)| cells["B.error_number"]["text"] == "650")
        .map(|(s, _)| s.as_str())
        .collect();
    assert_eq!(
        with_650,
        [
            "isolation=snapshot rcsi=on readpast=on",
            "isolation=snapshot rcsi=off readpast=on",
            "isolation=serializable rcsi=on readpast=on",
            "isolation=serializable rcsi=off readpast=on",
        ]
    );
    for (settings, cells) in &rows {
        let errors = cells["error_numbers"]["text"].as_str().expect("text");
        let expected = if with_650.contains(&settings.as_str()) {
            "A 650, B 650"
        } else if settings.starts_with("isolation=snapshot") {
            // Without READPAST, SNAPSHOT's B updates a row A changed: 3960.
            "B 3960"
        } else {
            "none"
        };
        assert_eq!(errors, expected, "{settings}");
        let wait = &cells["B.wait_ms"];
        if settings.ends_with("readpast=on") {
            assert_eq!(wait["text"], "0", "{settings}");
        } else {
            // Without READPAST B waits about 2.5 s for A, a little more or less per seed.
            let (min, max) = (wait["min"].as_f64().unwrap(), wait["max"].as_f64().unwrap());
            assert!(
                2450.0 <= min && min < max && max <= 2550.0,
                "{settings}: {wait}"
            );
            assert_eq!(wait["values"].as_array().map(Vec::len), Some(3));
        }
    }
    let first = &json["rows"][0];
    assert_eq!(
        (
            first["checks_passed"].as_u64(),
            first["checks_total"].as_u64()
        ),
        (Some(6), Some(6))
    );
}

#[test]
fn matrix_text_shows_each_combination_and_what_each_column_is() {
    let dir = TempDir::new("matrix-text");
    let lesson = repo_lesson("queue-isolation");
    let (code, stdout, _) = lockstep(&dir.0, &["matrix", &lesson, "--seeds", "1"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "lesson queue-isolation  20 combinations × 1 seed (1: --seeds 1)"
    );
    let header: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "isolation",
            "rcsi",
            "readpast",
            "B.error_number",
            "A.error_number",
            "B.wait_ms",
            "errors",
            "B.result1",
            "error_numbers",
            "checks"
        ]
    );
    // Seed 1 alone: one value per cell, no ranges.
    let snapshot: Vec<&str> = lines
        .iter()
        .copied()
        .find(|l| l.starts_with("snapshot          on    on"))
        .expect("a SNAPSHOT row")
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        snapshot,
        [
            "snapshot",
            "on",
            "on",
            "650",
            "650",
            "0",
            "2",
            "—",
            "A 650, B 650",
            "2/2"
        ]
    );
    assert_eq!(lines.len(), 2 + 2 + 20 + 2 + 7 + 1);
    assert!(stdout.contains(
        "\n  B.result1       Without READPAST under the locking levels, B then claims task 2\n"
    ));
}

#[test]
fn matrix_markdown_is_a_table_with_ranges_over_seeds() {
    let dir = TempDir::new("matrix-markdown");
    let lesson = repo_lesson("queue-wait-or-skip");
    let (code, stdout, _) = lockstep(&dir.0, &["matrix", &lesson, "--markdown"]);
    assert_eq!(code, 0);
    let table: Vec<&str> = stdout.lines().filter(|l| l.starts_with('|')).collect();
    // Header, alignment, one row per combination.
    let combinations: usize = 4;
    assert_eq!(table.len(), 2 + combinations);
    let columns = table[0].matches(" | ").count() + 1;
    for line in &table {
        assert!(line.ends_with(" |") || line.ends_with('|'), "{line}");
        assert_eq!(
            line.matches('|').count() - line.matches("\\|").count(),
            columns + 1,
            "{line}"
        );
    }
    assert!(table[1].starts_with("|:--|"), "{}", table[1]);
    // Without READPAST B's wait differs by a few µs between seeds: a range.
    let wait = |row: &str| row.split(" | ").nth(3).unwrap_or_default().to_string();
    assert_eq!(wait(table[2]), "0");
    let off = wait(table[4]);
    let (lo, hi) = off.split_once('–').expect("a min–max range");
    let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(2450.0 < lo && lo < hi && hi < 2550.0, "{off}");
    assert!(table[4].starts_with("| off | 3,3,2,2,1 | "), "{}", table[4]);
    assert!(stdout.starts_with("**queue-wait-or-skip**: 4 combinations × 3 seeds ("));
    assert!(
        stdout.contains("\n- `error_numbers`: Errors no TRY block caught, by session and number\n")
    );
}

#[test]
fn matrix_help_documents_every_json_field_and_bad_seeds_are_bad_input() {
    assert_help_mentions(
        "matrix",
        &[
            "lesson",
            "seeds",
            "toggles",
            "columns",
            "key",
            "label",
            "kind",
            "session",
            "figure",
            "sql",
            "result",
            "rows",
            "settings",
            "cells",
            "text",
            "min",
            "max",
            "values",
            "checks_passed",
            "checks_total",
            "error_numbers",
            "--markdown",
        ],
    );
    let dir = TempDir::new("matrix-bad");
    let lesson = repo_lesson("queue-isolation");
    let (code, stdout, stderr) = lockstep(&dir.0, &["matrix", &lesson, "--seeds", "0"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, "error: --seeds must be at least 1\n");
}

// ---- translations and --lang ----

/// The front matter of a Polish translation of [`PASSING`] (`pl/passing.md` next to it).
const PASSING_PL_FRONT: &str = r#"+++
id = "passing"
lang = "pl"
title = "Zaliczona"
summary = "Dwie sesje czytają tabelę."

[[toggles]]
name = "readpast"
values = ["on", "off"]
label = "READPAST"

[[checks]]
original = "no errors"
name = "bez błędów"

[[checks]]
original = "B does not wait"
name = "B nie czeka"
+++
"#;

/// [`PASSING_PL_FRONT`] and the original's narrative, whose `sql` blocks a
/// translation keeps as they are.
fn passing_pl() -> String {
    let body = &PASSING[PASSING[3..].find("+++\n").unwrap() + 7..];
    format!("{PASSING_PL_FRONT}{body}")
}

#[test]
fn run_lang_prints_the_translated_title_and_check_names() {
    let dir = TempDir::new("lang-run");
    dir.write("passing.md", PASSING);
    std::fs::create_dir_all(dir.0.join("pl")).unwrap();
    dir.write("pl/passing.md", &passing_pl());
    let (code, en, stderr) = lockstep(&dir.0, &["run", "passing.md"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (code, pl, stderr) = lockstep(&dir.0, &["run", "passing.md", "--lang", "pl"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let second = |s: &str| s.lines().nth(1).unwrap_or_default().to_string();
    assert_eq!(
        (second(&en), second(&pl)),
        ("Passing".into(), "Zaliczona".into())
    );
    assert!(pl.contains("\n  SPEŁNIONE bez błędów: "), "{pl}");
    assert!(pl.contains("\n  SPEŁNIONE B nie czeka: "), "{pl}");
    assert!(!pl.contains("no errors"), "{pl}");
    // The CLI's own words and the checks' details are Polish too; figures as in English.
    assert!(pl.contains("\nwynik: koniec po "), "{pl}");
    assert!(pl.contains(": oczekiwanie 0 ms, instrukcje: "), "{pl}");
    assert!(
        pl.contains("\nsprawdzenia: zaliczone 2, niezaliczone 0\n"),
        "{pl}"
    );
    assert!(pl.contains("(oczekiwano "), "{pl}");
    for english in ["outcome:", "waited", "checks:", "expected", "PASS"] {
        assert!(!pl.contains(english), "`{english}` in {pl}");
    }
    // The same run: only the texts differ.
    let runs = |s: &str| s.lines().filter(|l| l.contains(" ms  ")).count();
    assert!(runs(&en) > 4);
    assert_eq!(runs(&en), runs(&pl));
    // JSON is a contract: the same in every language.
    let (_, json_en, _) = lockstep(&dir.0, &["run", "passing.md", "--json"]);
    let (code, json_pl, _) = lockstep(&dir.0, &["run", "passing.md", "--json", "--lang", "pl"]);
    assert_eq!(code, 0);
    assert_eq!(json_en, json_pl);
    // No Japanese translation: the lesson's texts in English, with a note; the CLI's
    // own words in Japanese.
    let (code, ja, stderr) = lockstep(&dir.0, &["run", "passing.md", "--lang", "ja"]);
    assert_eq!((code, second(&ja)), (0, second(&en)));
    assert!(ja.contains("\n  合格 no errors: "), "{ja}");
    assert!(ja.contains("\nチェック: 合格 2、不合格 0\n"), "{ja}");
    assert_eq!(
        stderr,
        "note: passing has no translation into `ja` (ja/passing.md): its text is in English\n"
    );
    let (code, _, stderr) = lockstep(&dir.0, &["run", "passing.md", "--lang", "de"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("[possible values: en, pl, ja]"), "{stderr}");
}

#[test]
fn run_lang_writes_the_translated_title_and_checks_into_the_svg() {
    let dir = TempDir::new("lang-svg");
    dir.write("passing.md", PASSING);
    std::fs::create_dir_all(dir.0.join("pl")).unwrap();
    dir.write("pl/passing.md", &passing_pl());
    for json in [false, true] {
        let mut args = vec!["run", "passing.md", "--lang", "pl", "--svg", "out.svg"];
        if json {
            args.push("--json");
        }
        let (code, _, stderr) = lockstep(&dir.0, &args);
        assert_eq!((code, stderr.as_str()), (0, ""));
        let svg = std::fs::read_to_string(dir.0.join("out.svg")).unwrap();
        let texts = svg_texts(&svg);
        assert!(texts.iter().any(|t| t == "Zaliczona"), "{texts:?}");
        assert!(
            texts.iter().any(|t| t.starts_with("bez błędów")),
            "{texts:?}"
        );
        assert!(!texts.iter().any(|t| t.contains("no errors")), "{texts:?}");
        // The export's own words are Polish too.
        for word in [
            "sesja",
            "Sprawdzenia: zaliczone 2, niezaliczone 0",
            "SPEŁNIONE",
        ] {
            assert!(texts.iter().any(|t| t == word), "{word}: {texts:?}");
        }
        for word in ["session", "running", "PASS"] {
            assert!(!texts.iter().any(|t| t == word), "{word}: {texts:?}");
        }
    }
}

#[test]
fn run_lang_pl_on_a_real_lesson() {
    let dir = TempDir::new("lang-real");
    let lesson = repo_lesson("queue-wait-or-skip");
    let (_, en, _) = lockstep(&dir.0, &["run", &lesson]);
    let (code, pl, stderr) = lockstep(&dir.0, &["run", &lesson, "--lang", "pl"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let translation = std::fs::read_to_string(repo_lesson("pl/queue-wait-or-skip")).unwrap();
    let title = pl.lines().nth(1).unwrap_or_default();
    assert!(
        translation.contains(&format!("\ntitle = \"{title}\"\n")),
        "{title}"
    );
    assert_ne!(title, en.lines().nth(1).unwrap_or_default());
    // Every check passes under its Polish name, none under its English one.
    let checks = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| {
                l.strip_prefix("  PASS ")
                    .or_else(|| l.strip_prefix("  SPEŁNIONE "))
            })
            .map(|l| l.split(':').next().unwrap_or_default().to_string())
            .collect()
    };
    let (en_checks, pl_checks) = (checks(&en), checks(&pl));
    assert_eq!(en_checks.len(), pl_checks.len());
    assert!(pl_checks.len() >= 3, "{pl}");
    for (e, p) in en_checks.iter().zip(&pl_checks) {
        assert_ne!(e, p);
        assert!(translation.contains(&format!("name = \"{p}")), "{p}");
    }
}

#[test]
fn check_verifies_translations_and_lists_untranslated_lessons() {
    let dir = TempDir::new("lang-check");
    dir.write("passing.md", PASSING);
    dir.write(
        "other.md",
        &PASSING.replace("id = \"passing\"", "id = \"other\""),
    );
    std::fs::create_dir_all(dir.0.join("pl")).unwrap();
    std::fs::create_dir_all(dir.0.join("ja")).unwrap();
    dir.write("pl/passing.md", &passing_pl());
    let (code, stdout, stderr) = lockstep(&dir.0, &["check", "."]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    expect![[r#"
        untranslated (pl): other
        untranslated (ja): other, passing
        checked 2 lessons, 1 translation, 4 runs, 6 checks: 6 passed, 0 failed; 0 errors
    "#]]
    .assert_eq(&stdout);
    // --lang names checks in that language; the runs are the same.
    let failing = PASSING.replace("equals = 0", "equals = 1");
    dir.write("passing.md", &failing);
    let (code, _, stderr) = lockstep(&dir.0, &["check", "passing.md", "--lang", "pl"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("check `bez błędów` failed"), "{stderr}");
    dir.write("passing.md", PASSING);
    // A drifted translation fails the check at its file:line:col.
    dir.write(
        "pl/passing.md",
        &passing_pl()
            .replace("values = [\"on\", \"off\"]", "values = [\"tak\", \"nie\"]")
            .replace("WITH ({{readpast", "WITH ({{ readpast"),
    );
    let (code, stdout, stderr) = lockstep(&dir.0, &["check", "."]);
    assert_eq!(code, 2);
    expect![[r#"
        ./pl/passing.md:9:10: toggle `readpast`: values ["tak", "nie"], the original's are ["on", "off"] (values are a contract: copy them)
        ./pl/passing.md:31:1: sql block 3 (```sql session=B start=1.5s) differs from the original's (line 34) at its line 1: `SELECT id FROM t WITH ({{ readpast: on=READPAST, }}ROWLOCK);` here, `SELECT id FROM t WITH ({{readpast: on=READPAST, }}ROWLOCK);` there; copy every sql block as it is
    "#]]
    .assert_eq(&stderr);
    assert!(
        stdout.ends_with(
            "checked 2 lessons, 0 translations, 4 runs, 6 checks: 6 passed, 0 failed; 2 errors\n"
        ),
        "{stdout}"
    );
    // A translation without an original.
    dir.write("pl/gone.md", &passing_pl());
    let (code, _, stderr) = lockstep(&dir.0, &["check", "pl/gone.md"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "pl/gone.md:1:1: a translation of gone.md, which does not exist (a translation's file name is its original's)\n"
    );
}

#[test]
fn check_passes_every_real_translation() {
    let dir = TempDir::new("lang-real-check");
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    for lang in ["pl", "ja"] {
        let files = std::fs::read_dir(lessons.join(lang))
            .map(|d| d.count())
            .unwrap_or(0);
        assert!(files > 0, "no translations in lessons/{lang}");
        let (code, stdout, stderr) = lockstep(
            &dir.0,
            &["check", &lessons.join(lang).display().to_string()],
        );
        assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
        assert!(
            stdout.contains(&format!("checked 0 lessons, {files} translations")),
            "{stdout}"
        );
    }
}

/// Every shipped lesson's checks hold in every combination of its toggles, on its seed:
/// a change to the engine's timing that moves a lesson's figure out of its check's
/// range fails here, not in front of a learner.
#[test]
fn check_passes_every_shipped_lesson_in_every_combination() {
    let (code, stdout, stderr) = lockstep(&lessons_dir(), &["check", "."]);
    let failed: Vec<&str> = stderr.lines().filter(|l| l.contains("failed")).collect();
    assert_eq!(code, 0, "{failed:#?}\n{stdout}");
    assert!(stdout.contains(", 0 failed; 0 errors"), "{stdout}");
}
