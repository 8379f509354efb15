//! The fidelity suite's pieces that need no server: a lesson into the real-server plan,
//! and the comparison of figures.

use std::collections::HashMap;

use engine::{Outcome, ResultSet, SessionOutcome, SqlErrorInfo, Value};
use lesson::Lesson;
use lockstep_fidelity::compare::{times_agree, Simulated};
use lockstep_fidelity::real::RealRun;
use lockstep_fidelity::{compare, plan::plan as plan_of, Entry};

const LESSON: &str = r#"+++
id = "pg-example"
title = "Example"
dialect = "DIALECT"
summary = "A holds a task; B waits or skips."

[[toggles]]
name = "skip_locked"
label = "SKIP LOCKED"
values = ["on", "off"]

[[checks]]
name = "B waits for A"
when = { skip_locked = "off" }
session = "B"
figure = "wait_ms"
min = 2450
max = 2550

[[checks]]
name = "B takes task 2"
session = "B"
result = 1
expect = [[2, "B"]]

[[checks]]
name = "Two claims"
sql = "SELECT COUNT(*) FROM task WHERE owner IS NOT NULL"
expect_min = 2
expect_max = 2

[[checks]]
name = "B fails"
session = "B"
figure = "errors"
equals = 1
when = { skip_locked = "on" }
+++

```sql setup
CREATE TABLE task (id int PRIMARY KEY, owner varchar(10));
INSERT INTO task (id) VALUES (1), (2);
```

```sql session=A
BEGIN;
UPDATE task SET owner = 'A' WHERE id = (SELECT id FROM task WHERE owner IS NULL
    ORDER BY id LIMIT 1 FOR UPDATE{{skip_locked: on= SKIP LOCKED}}) RETURNING id, owner;
SELECT pg_sleep(4); -- holds the row; a ';' in a comment
COMMIT;
```

```sql session=B start=1500ms
DO $$ BEGIN PERFORM 1; END $$;
UPDATE task SET owner = 'B' WHERE id = 2 RETURNING id, owner;
```
"#;

fn lesson() -> Lesson {
    // The plan does not depend on the dialect: the lesson crate never parses the SQL.
    Lesson::parse("pg-example.md", &LESSON.replace("DIALECT", "tsql")).expect("parses")
}

#[test]
fn a_lesson_becomes_statements_per_session_with_start_offsets() {
    let lesson = lesson();
    let settings = lesson.settings_with([("skip_locked", "on")]).unwrap();
    let (plan, applied) = plan_of(&lesson, &settings).unwrap();
    assert_eq!(plan.lesson, "pg-example");
    assert_eq!(plan.settings, "skip_locked=on");
    assert_eq!(
        plan.setup,
        [
            "CREATE TABLE task (id int PRIMARY KEY, owner varchar(10))",
            "INSERT INTO task (id) VALUES (1), (2)"
        ]
    );
    let names: Vec<_> = plan
        .sessions
        .iter()
        .map(|s| (s.name.as_str(), s.start_us))
        .collect();
    assert_eq!(names, [("A", 0), ("B", 1_500_000)]);
    assert_eq!(plan.sessions[0].statements.len(), 4);
    assert!(plan.sessions[0].statements[1].ends_with("FOR UPDATE SKIP LOCKED) RETURNING id, owner"));
    assert_eq!(
        plan.sessions[0].statements[3],
        "-- holds the row; a ';' in a comment\nCOMMIT"
    );
    assert_eq!(
        plan.sessions[1].statements,
        [
            "DO $$ BEGIN PERFORM 1; END $$",
            "UPDATE task SET owner = 'B' WHERE id = 2 RETURNING id, owner"
        ]
    );
    assert_eq!(applied.checks.len(), 3, "the checks of skip_locked=on");

    let off = lesson.settings_with([("skip_locked", "off")]).unwrap();
    let (plan, _) = plan_of(&lesson, &off).unwrap();
    assert!(plan.sessions[0].statements[1].ends_with("FOR UPDATE) RETURNING id, owner"));
}

fn session(
    name: &str,
    wait_us: u64,
    rows: Vec<Vec<Value>>,
    error: Option<&'static str>,
) -> SessionOutcome {
    SessionOutcome {
        name: name.to_string(),
        wait_us,
        statements: 2,
        errors: error
            .map(|state| SqlErrorInfo {
                number: 0,
                severity: 16,
                state: 1,
                message: "failed".to_string(),
                caught: false,
                sqlstate: Some(state),
                at: None,
            })
            .into_iter()
            .collect(),
        results: vec![ResultSet {
            columns: vec!["id".into(), "owner".into()],
            rows,
        }],
        logical_reads: 0,
        elapsed_us: 0,
        delayed_us: 0,
        open_at_end: false,
    }
}

fn count(n: i64) -> ResultSet {
    ResultSet {
        columns: vec!["count".into()],
        rows: vec![vec![Value::Int(n)]],
    }
}

fn entries(real: &RealRun, sim: &Outcome, sim_count: i64, skip: &str) -> Vec<Entry> {
    let lesson = lesson();
    let settings = lesson.settings_with([("skip_locked", skip)]).unwrap();
    let (plan, applied) = plan_of(&lesson, &settings).unwrap();
    let mut query = |_: &str| Ok(count(sim_count));
    compare(
        &plan.lesson,
        &plan.settings,
        &applied.checks,
        real,
        Simulated {
            outcome: sim,
            query: &mut query,
        },
    )
}

fn b_row(id: i64) -> Vec<Vec<Value>> {
    vec![vec![Value::Int(id), Value::Text("B".into())]]
}

/// A claims task 1; B claims `b_task` after waiting `b_wait_us`, or fails.
fn outcome(b_wait_us: u64, b_task: i64, b_error: Option<&'static str>) -> Outcome {
    let a_row = vec![vec![Value::Int(1), Value::Text("A".into())]];
    Outcome {
        end_us: 4_000_000,
        sessions: vec![
            session("A", 0, a_row, None),
            session("B", b_wait_us, b_row(b_task), b_error),
        ],
    }
}

fn run(b_wait_us: u64, b_task: i64, claims: i64, b_state: Option<&'static str>) -> RealRun {
    RealRun {
        outcome: outcome(b_wait_us, b_task, b_state),
        sqlstates: vec![None, b_state.map(String::from)],
        queries: HashMap::from([(
            "SELECT COUNT(*) FROM task WHERE owner IS NOT NULL".to_string(),
            Ok(count(claims)),
        )]),
    }
}

fn sim(b_wait_us: u64, b_error: Option<&'static str>) -> Outcome {
    outcome(b_wait_us, 2, b_error)
}

fn verdicts(entries: &[Entry]) -> Vec<(&str, &str, &str, bool)> {
    entries
        .iter()
        .map(|e| {
            (
                e.figure.as_str(),
                e.real.as_str(),
                e.simulated.as_str(),
                e.passed,
            )
        })
        .collect()
}

#[test]
fn figures_agree_when_waits_are_within_5_percent_and_rows_and_counts_match() {
    let entries = entries(&run(2_600_000, 2, 2, None), &sim(2_500_000, None), 2, "off");
    assert_eq!(
        verdicts(&entries),
        [
            ("B waits for A: B wait_ms", "2600.0 ms", "2500.0 ms", true),
            (
                "B takes task 2: B result 1",
                "[[2, \"B\"]]",
                "[[2, \"B\"]]",
                true
            ),
            ("Two claims", "[[2]]", "[[2]]", true),
            ("A sqlstate", "none", "none", true),
            ("B sqlstate", "none", "none", true),
        ]
    );
    assert!(entries
        .iter()
        .all(|e| e.lesson == "pg-example" && e.settings == "skip_locked=off"));
}

#[test]
fn a_wait_off_by_more_than_5_percent_a_different_row_or_a_count_out_of_range_differs() {
    let entries = entries(&run(2_630_000, 1, 3, None), &sim(2_500_000, None), 2, "off");
    let passed: Vec<bool> = entries.iter().map(|e| e.passed).collect();
    assert_eq!(passed, [false, false, false, true, true]);
}

#[test]
fn sqlstates_must_be_identical() {
    // The simulator's 40001 against the server's 40001, then 55P03.
    let same = entries(
        &run(0, 2, 2, Some("40001")),
        &sim(0, Some("40001")),
        2,
        "on",
    );
    let b: Vec<_> = verdicts(&same)
        .into_iter()
        .filter(|v| v.0.contains("sqlstate"))
        .collect();
    assert_eq!(
        b,
        [
            ("A sqlstate", "none", "none", true),
            ("B sqlstate", "40001", "40001", true)
        ]
    );
    let other = entries(
        &run(0, 2, 2, Some("55P03")),
        &sim(0, Some("40001")),
        2,
        "on",
    );
    assert!(other
        .iter()
        .filter(|e| e.figure.contains("sqlstate") && e.figure.starts_with('B'))
        .all(|e| !e.passed));
}

#[test]
fn short_times_agree_within_a_floor_of_2_ms() {
    assert!(times_agree(0.4, 0.0));
    assert!(times_agree(1999.0, 2000.0));
    assert!(!times_agree(3.0, 0.0));
    assert!(times_agree(2090.0, 2000.0) && !times_agree(2110.0, 2000.0));
}

#[test]
fn shared_buffers_are_compared_by_the_checks_range_and_shown_side_by_side() {
    let text = LESSON.replace("DIALECT", "postgres").replace(
        "[[checks]]\nname = \"B takes task 2\"",
        "[[checks]]\nname = \"A touches few pages\"\nsession = \"A\"\n\
         figure = \"logical_reads\"\nmax = 20\n\n[[checks]]\nname = \"B takes task 2\"",
    );
    let lesson = Lesson::parse("pg-example.md", &text).expect("parses");
    let settings = lesson.settings_with([("skip_locked", "on")]).unwrap();
    let (plan, applied) = plan_of(&lesson, &settings).unwrap();
    let pages = |outcome: &mut Outcome, n: u64| outcome.sessions[0].logical_reads = n;
    let shared_buffers = |real_pages: u64| {
        let mut real = run(0, 2, 2, None);
        pages(&mut real.outcome, real_pages);
        let mut simulated = sim(0, None);
        pages(&mut simulated, 11);
        let mut query = |_: &str| Ok(count(2));
        let entries = compare(
            &plan.lesson,
            &plan.settings,
            &applied.checks,
            &real,
            Simulated {
                outcome: &simulated,
                query: &mut query,
            },
        );
        let line = entries
            .into_iter()
            .find(|e| e.figure.starts_with("A touches few pages"))
            .expect("the pages are compared");
        (line.figure, line.real, line.simulated, line.passed)
    };
    assert_eq!(
        shared_buffers(14),
        (
            "A touches few pages: A shared buffers".to_string(),
            "14".to_string(),
            "11".to_string(),
            true
        )
    );
    // Out of the check's range on the server: differs, whatever the simulator says.
    assert!(!shared_buffers(156).3);
}
