//! Exercises: the front-matter fields, editable and solution blocks, Check over seeds,
//! errors in the learner's SQL, and the exercises shipped in `lessons/`.

use expect_test::{expect, Expect};
use lockstep_lesson::{
    check_exercise, narrative_html, run_exercise, validate_exercise, CheckProgress, ExerciseCheck,
    ExerciseError, Lesson,
};

/// A small valid exercise: B must not wait for A's lock. Malformed cases edit it.
const DRILL: &str = r#"+++
id = "drill"
title = "Drill"
dialect = "tsql"
summary = "B must not wait."
kind = "exercise"
seed = 3
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

[[checks]]
name = "B gets row 2"
session = "B"
result = 1
expect = [[2]]
+++

Narrative.

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

fn drill_with(edits: &[(&str, &str)]) -> String {
    let mut text = DRILL.to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "DRILL has no {from:?}");
        text = text.replacen(from, to, 1);
    }
    text
}

fn drill() -> Lesson {
    Lesson::parse("lessons/drill.md", DRILL).unwrap_or_else(|e| panic!("{e:?}"))
}

fn errors_of(text: &str) -> String {
    match Lesson::parse("lessons/drill.md", text) {
        Ok(_) => "ok".to_string(),
        Err(errors) => errors.iter().map(|e| format!("{e}\n")).collect(),
    }
}

fn check_error(edits: &[(&str, &str)], expect: Expect) {
    expect.assert_eq(&errors_of(&drill_with(edits)));
}

/// The tiny lesson of `lesson.rs`, written here again so that a case can make it an
/// exercise (or give a plain lesson exercise fields).
fn plain_with(extra_front: &str, from: &str, to: &str) -> String {
    drill_with(&[
        ("kind = \"exercise\"\n", ""),
        ("goal = \"Make B take a row without waiting for A.\"\n", extra_front),
        ("[[hints]]\ntext = \"Look at B's lane.\"\n\n", ""),
        ("[[hints]]\ntext = \"READPAST.\"\n\n", ""),
        (
            "```sql solution=B\nSELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;\n```\n",
            "",
        ),
        (" editable\n", "\n"),
        (from, to),
    ])
}

#[test]
fn drill_is_a_valid_exercise() {
    let lesson = drill();
    let exercise = lesson.exercise.as_ref().expect("an exercise");
    let editable: Vec<(&str, u32)> = lesson
        .editable_blocks()
        .map(|b| (b.editable.as_deref().unwrap_or_default(), b.line))
        .collect();
    expect![[r#"
        goal: Make B take a row without waiting for A.
        hints: ["Look at B's lane.", "READPAST."]
        seeds: [3, 4, 5, 6, 7]
        editable: [("B", 43)]
        blocks: 3
        solutions: [("B", "SELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;\n")]
    "#]]
    .assert_eq(&format!(
        "goal: {}\nhints: {:?}\nseeds: {:?}\neditable: {editable:?}\nblocks: {}\nsolutions: {:?}\n",
        exercise.goal,
        exercise.hints,
        exercise.seeds,
        lesson.blocks.len(),
        exercise.solution_edits()
    ));
    assert_eq!(errors_of(&plain_with("", "Narrative.", "Narrative.")), "ok");
}

// ---- malformed exercises: each gets one precise error ----

#[test]
fn exercise_fields_in_a_plain_lesson() {
    expect![[r#"
        lessons/drill.md:7:9: `seeds` belongs to exercises: add kind = "exercise" or remove it
        lessons/drill.md:8:8: `goal` belongs to exercises: add kind = "exercise" or remove it
        lessons/drill.md:10:8: `[[hints]]` belongs to exercises: add kind = "exercise" or remove it
    "#]]
    .assert_eq(&errors_of(&plain_with(
        "goal = \"g\"\n[[hints]]\ntext = \"h\"\n\n",
        "seed = 3\n",
        "seed = 3\nseeds = [1]\n",
    )));
    expect![[r#"
        lessons/drill.md:28:1: `editable` belongs to exercises: add kind = "exercise" to the front matter
        lessons/drill.md:35:1: a solution block belongs to exercises: add kind = "exercise" to the front matter
    "#]]
    .assert_eq(&errors_of(&plain_with(
        "",
        "```sql session=A\n",
        "```sql session=A editable\n",
    ).replacen("```sql session=B", "```sql solution=A\nSELECT 1;\n```\n\n```sql session=B", 1)));
}

#[test]
fn exercise_without_goal() {
    check_error(
        &[("goal = \"Make B take a row without waiting for A.\"\n", "")],
        expect![[r#"
            lessons/drill.md:6:8: an exercise needs a `goal`: one or two sentences saying what the learner must achieve
        "#]],
    );
    check_error(
        &[(
            "goal = \"Make B take a row without waiting for A.\"",
            "goal = \"  \"",
        )],
        expect![[r#"
            lessons/drill.md:8:8: `goal` is empty: say what the learner must achieve
        "#]],
    );
}

#[test]
fn bad_seeds() {
    check_error(
        &[("seed = 3\n", "seeds = []\n")],
        expect![[r#"
            lessons/drill.md:7:9: `seeds` is empty: list the seeds Check runs, such as [1, 2, 3, 4, 5], or leave it out
        "#]],
    );
    check_error(
        &[("seed = 3\n", "seeds = [1, 2, 1]\n")],
        expect![[r#"
            lessons/drill.md:7:16: seed 1 is listed twice
        "#]],
    );
    let many: Vec<String> = (0..21).map(|n| n.to_string()).collect();
    check_error(
        &[("seed = 3\n", &format!("seeds = [{}]\n", many.join(", ")))],
        expect![[r#"
            lessons/drill.md:7:9: `seeds` lists 21 seeds; at most 20 (Check runs every one in the browser)
        "#]],
    );
    check_error(
        &[("seed = 3\n", "seeds = [-1]\n")],
        expect![[r#"
            lessons/drill.md:7:10: front matter: invalid value: integer `-1`, expected u64
        "#]],
    );
}

#[test]
fn bad_hints() {
    check_error(
        &[("text = \"READPAST.\"", "text = \"\"")],
        expect![[r#"
            lessons/drill.md:14:8: a hint's `text` is empty
        "#]],
    );
    check_error(
        &[("text = \"READPAST.\"", "txt = \"READPAST.\"")],
        expect![[r#"
            lessons/drill.md:14:1: front matter: unknown field `txt`, expected `text`
        "#]],
    );
}

#[test]
fn bad_editable_blocks() {
    check_error(
        &[("start=100ms editable", "start=100ms editable=9b")],
        expect![[r#"
            lessons/drill.md:43:39: bad editable id `9b`: use up to 30 letters, digits, `_` or `-`, starting with a letter
        "#]],
    );
    check_error(
        &[("```sql setup", "```sql show editable")],
        expect![[r#"
            lessons/drill.md:31:13: a show block does not run, so it cannot be `editable`
        "#]],
    );
    check_error(
        &[
            ("[[hints]]\ntext = \"Look", "[[toggles]]\nname = \"rows\"\nlabel = \"Rows\"\nvalues = [\"2\", \"3\"]\n\n[[hints]]\ntext = \"Look"),
            ("start=100ms editable", "start=100ms when=\"rows=2\" editable"),
        ],
        expect![[r#"
            lessons/drill.md:48:44: an editable block takes part under every setting: remove its `when`
        "#]],
    );
    check_error(
        &[("```sql session=A", "```sql session=A editable=B")],
        expect![[r#"
            lessons/drill.md:43:1: editable id `B` is used twice (first at line 36); give one block `editable=OTHER`
        "#]],
    );
    check_error(
        &[
            ("start=100ms editable", "start=100ms"),
            ("```sql solution=B", "```sql solution=A"),
        ],
        expect![[r#"
            lessons/drill.md:28:1: an exercise needs a block the learner edits: mark a ```sql setup or session block `editable`
        "#]],
    );
}

#[test]
fn bad_solutions() {
    check_error(
        &[("```sql solution=B", "```sql solution=C")],
        expect![[r#"
            lessons/drill.md:47:1: solution for `C`, which is not an editable block (editable: B)
        "#]],
    );
    check_error(
        &[(
            "```sql solution=B\n",
            "```sql solution=B\nSELECT 1;\n```\n\n```sql solution=B\n",
        )],
        expect![[r#"
            lessons/drill.md:51:1: a second solution for `B` (the first is at line 47)
        "#]],
    );
    check_error(
        &[(
            "READPAST, ROWLOCK) ORDER BY id;\n```",
            "{{x}} ROWLOCK) ORDER BY id;\n```",
        )],
        expect![[r#"
            lessons/drill.md:48:41: a solution block has no toggle markers: write the SQL as the learner would
        "#]],
    );
    check_error(
        &[("```sql solution=B", "```sql session=C solution=B")],
        expect![[r#"
            lessons/drill.md:47:18: a block is one of setup, show, session or solution; this one is already `session`
        "#]],
    );
    check_error(
        &[("```sql solution=B", "```sql solution=B editable")],
        expect![[r#"
            lessons/drill.md:47:19: a solution block is not `editable`: it is the answer for one
        "#]],
    );
    check_error(
        &[("```sql solution=B", "```sql solution")],
        expect![[r#"
            lessons/drill.md:47:8: `solution` needs a value: solution=...
        "#]],
    );
    check_error(
        &[(
            "```sql solution=B\nSELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;\n```\n",
            "",
        )],
        expect![[r#"
            lessons/drill.md:28:1: an exercise needs a solution, so that `lockstep check` can show its goals can be met: add ```sql solution=ID for an editable block (B)
        "#]],
    );
}

#[test]
fn exercise_without_goals() {
    let text = drill_with(&[(
        "[[checks]]\nname = \"B does not wait\"\nsession = \"B\"\nfigure = \"wait_ms\"\nmax = 1\n\n[[checks]]\nname = \"B gets row 2\"\nsession = \"B\"\nresult = 1\nexpect = [[2]]\n",
        "",
    )]);
    expect![[r#"
        lessons/drill.md:6:8: an exercise's goals are its checks: add at least one [[checks]]
    "#]]
    .assert_eq(&errors_of(&text));
}

// ---- what learners see: no solution anywhere ----

#[test]
fn solutions_stay_out_of_the_narrative() {
    let lesson = drill();
    let html = narrative_html(&lesson);
    assert!(!html.contains("READPAST"), "{html}");
    assert_eq!(
        html.matches("class=\"lockstep-block\"").count(),
        lesson.blocks.len()
    );
    assert!(html.contains("data-block=\"2\""), "{html}");
    let applied = lesson
        .apply(&lesson.settings_default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !applied.narrative_markdown.contains("solution"),
        "{}",
        applied.narrative_markdown
    );
}

// ---- Check ----

/// `wait_ms = 900.155` → `wait_ms = 900.…`: the microseconds follow the engine's cost
/// model, not the exercise format.
fn redact_us(text: &str) -> String {
    text.split("wait_ms = ")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                return part.to_string();
            }
            let whole = part
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(part.len());
            match part[whole..].strip_prefix('.') {
                Some(frac) => {
                    let n = frac
                        .find(|c: char| !c.is_ascii_digit())
                        .unwrap_or(frac.len());
                    format!("wait_ms = {}.…{}", &part[..whole], &frac[n..])
                }
                None => format!("wait_ms = {part}"),
            }
        })
        .collect()
}

fn report_text(report: &lockstep_lesson::ExerciseReport) -> String {
    let mut out = format!("solved: {} seeds: {:?}\n", report.solved, report.seeds);
    for g in &report.goals {
        out.push_str(&format!(
            "{} {}:{} {} (failing seed {:?}): {}\n",
            if g.passed_all_seeds { "PASS" } else { "FAIL" },
            g.line,
            g.col,
            g.name,
            g.failing_seed,
            g.detail
        ));
    }
    out
}

#[test]
fn check_runs_every_seed_and_names_the_first_failing_one() {
    let lesson = drill();
    let settings = lesson.settings_default();
    let seeds = &lesson.exercise.as_ref().expect("exercise").seeds;
    let starting = check_exercise(&lesson, &settings, &[], seeds).unwrap_or_else(|e| panic!("{e}"));
    expect![[r#"
        solved: false seeds: [3, 4, 5, 6, 7]
        FAIL 17:8 B does not wait (failing seed Some(3)): B wait_ms = 900.… (expected at most 1)
        FAIL 23:8 B gets row 2 (failing seed Some(3)): expected 2, got 1
    "#]]
    .assert_eq(&redact_us(&report_text(&starting)));
    let fixed = "SELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;";
    let solved = check_exercise(&lesson, &settings, &[("B", fixed)], seeds)
        .unwrap_or_else(|e| panic!("{e}"));
    expect![[r#"
        solved: true seeds: [3, 4, 5, 6, 7]
        PASS 17:8 B does not wait (failing seed None): B wait_ms = 0 (expected at most 1)
        PASS 23:8 B gets row 2 (failing seed None): got 2
    "#]]
    .assert_eq(&report_text(&solved));
    // The player shows the failing run by running that seed again.
    let applied = lesson
        .apply_edits(&settings, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    let run = run_exercise(&applied, 3).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.checks[0].detail, starting.goals[0].detail);
    // No seeds: nothing is solved.
    let none =
        check_exercise(&lesson, &settings, &[("B", fixed)], &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(!none.solved && none.goals.iter().all(|g| !g.passed_all_seeds));
}

/// Check in slices of one engine step gives Check's report; progress counts seeds and
/// steps as it goes, and a learner's loop that never ends is stopped by the engine.
#[test]
fn check_in_slices_reports_progress_and_gives_the_same_verdict() {
    let lesson = drill();
    let settings = lesson.settings_default();
    let seeds = &lesson.exercise.as_ref().expect("exercise").seeds;
    let whole = check_exercise(&lesson, &settings, &[], seeds).unwrap_or_else(|e| panic!("{e}"));
    let mut check =
        ExerciseCheck::new(&lesson, &settings, &[], seeds).unwrap_or_else(|e| panic!("{e}"));
    let mut calls = 0;
    let sliced = loop {
        calls += 1;
        let before = check.progress();
        if let Some(report) = check.advance(1).unwrap_or_else(|e| panic!("{e}")) {
            break report;
        }
        let after = check.progress();
        assert!(after.steps == before.steps + 1 && after.seeds_done >= before.seeds_done);
    };
    assert_eq!(sliced, whole);
    assert!(calls > seeds.len(), "{calls} calls");
    let done = check.progress();
    assert_eq!((done.seeds_done, done.seeds), (seeds.len(), seeds.len()));

    let forever = "DECLARE @n int = 0; WHILE 1 = 1 SET @n += 1;";
    let mut check = ExerciseCheck::new(&lesson, &settings, &[("B", forever)], &[3])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(check
        .advance(10_000)
        .unwrap_or_else(|e| panic!("{e}"))
        .is_none());
    let CheckProgress {
        steps, seeds_done, ..
    } = check.progress();
    assert_eq!((steps, seeds_done), (10_000, 0));
    let report = check.advance(u64::MAX).unwrap_or_else(|e| panic!("{e}"));
    let report = report.expect("the engine's limit ends the run");
    assert!(
        report.goals[1].detail.to_string().contains("0 result sets"),
        "{report:?}"
    );
}

/// A run that ended in an error proves nothing, so Check names it and nothing is
/// solved: an error the simulator raised (its limits), or an uncaught one that a goal
/// forbids. An error no goal forbids is part of what the exercise allows.
#[test]
fn a_run_that_ended_in_an_error_is_named_and_solves_nothing() {
    let fixed = "SELECT TOP (1) id FROM t WITH (UPDLOCK, READPAST, ROWLOCK) ORDER BY id;";
    let failed = |lesson: &Lesson, sql: &str| {
        let report = check_exercise(lesson, &lesson.settings_default(), &[("B", sql)], &[3, 4])
            .unwrap_or_else(|e| panic!("{e}"));
        (report.solved, report.failed_run.map(|f| f.to_string()))
    };
    let lesson = drill();
    assert_eq!(failed(&lesson, fixed), (true, None));
    // Divide by zero fails one statement; the drill has no goal about errors.
    let divide = format!("DECLARE @x int = 1 / 0;\n{fixed}");
    assert_eq!(failed(&lesson, &divide), (true, None));
    // The simulator's own limit ends the run whatever the goals say.
    let (solved, run) = failed(&lesson, &format!("{fixed}\nWHILE 1 = 1 SET NOCOUNT ON;"));
    assert!(!solved);
    let run = run.expect("a failed run");
    assert!(
        run.starts_with("seed 3, session B: simulation stopped this session"),
        "{run}"
    );

    // With a goal that forbids errors, the divide by zero ends the run.
    let strict = drill_with(&[(
        "[[checks]]\nname = \"B gets row 2\"",
        "[[checks]]\nname = \"No errors\"\nfigure = \"errors\"\nequals = 0\n\n[[checks]]\nname = \"B gets row 2\"",
    )]);
    let strict = Lesson::parse("lessons/drill.md", &strict).unwrap_or_else(|e| panic!("{e:?}"));
    expect![[r#"
        (
            false,
            Some(
                "seed 3, session B: error 8134: Divide by zero error encountered. (at B:1:1)",
            ),
        )
    "#]]
    .assert_debug_eq(&failed(&strict, &divide));
    assert_eq!(failed(&strict, fixed), (true, None));
}

#[test]
fn errors_in_the_learners_sql_point_into_their_text() {
    let lesson = drill();
    let settings = lesson.settings_default();
    let check = |edits: &[(&str, &str)]| match check_exercise(&lesson, &settings, edits, &[1]) {
        Ok(report) => format!("ok, solved: {}", report.solved),
        Err(e) => e.to_string(),
    };
    expect!["B:2:48: found ';', expected one of: ',', a table hint, ')'"].assert_eq(&check(&[(
        "B",
        "-- my fix\nSELECT TOP (1) id FROM t WITH (UPDLOCK, ROWLOCK; READPAST) ORDER BY id;",
    )]));
    expect![[r#"B:1:1: not simulated: cursors"#]].assert_eq(&check(&[("B", "OPEN c;")]));
    expect!["`A` is not an editable block (editable: B)"].assert_eq(&check(&[("A", "SELECT 1;")]));
    // An empty block, or one of comments only, is named, not run.
    expect!["B:1:1: this block is empty: it holds no SQL to run"].assert_eq(&check(&[("B", "")]));
    expect!["B:1:1: this block is empty: it holds no SQL to run"]
        .assert_eq(&check(&[("B", "  -- later\n/* maybe */\n")]));
    // A run-time error is not a located error: it is an outcome, and goals judge it.
    expect!["ok, solved: false"].assert_eq(&check(&[("B", "SELECT 1 / 0;")]));
    let err = check_exercise(&lesson, &settings, &[("B", "SELECT FROM;")], &[1]).unwrap_err();
    assert!(
        matches!(&err, ExerciseError::Edit { block, line: 1, col: 8, .. } if block == "B"),
        "{err:?}"
    );
}

/// An editable setup block is joined with the others; its errors still point into the
/// learner's text, and a setup that fails at run time is laid at the learner's door.
#[test]
fn errors_in_an_editable_setup_block() {
    let text = drill_with(&[
        ("```sql setup\n", "```sql setup\nCREATE TABLE u (id int);\n```\n\n```sql setup editable=data\n"),
        ("```sql solution=B", "```sql solution=data\nCREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (2);\n```\n\n```sql solution=B"),
    ]);
    let lesson = Lesson::parse("lessons/drill.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let settings = lesson.settings_default();
    let check = |sql: &str| match check_exercise(&lesson, &settings, &[("data", sql)], &[1]) {
        Ok(report) => format!("ok, solved: {}", report.solved),
        Err(e) => e.to_string(),
    };
    expect!["data:2:22: found '1', expected '('"].assert_eq(&check(
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES 1;",
    ));
    expect!["data:2:1: setup failed with error 2627: Violation of PRIMARY KEY constraint 'PK__t__1CDAE631F03A3B88'. Cannot insert duplicate key in object 'dbo.t'. The duplicate key value is (1)."]
        .assert_eq(&check("CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (1);"));
    expect!["ok, solved: false"].assert_eq(&check(
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (2);",
    ));
}

#[test]
fn validate_places_solution_errors_in_the_file() {
    let text = drill_with(&[("READPAST, ROWLOCK) ORDER", "READPAST; ROWLOCK) ORDER")]);
    let lesson = Lesson::parse("lessons/drill.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let seeds = [3];
    let err = validate_exercise(&lesson, &lesson.settings_default(), &seeds).unwrap_err();
    expect!["lessons/drill.md:48:49: in the solution: found ';', expected one of: ',', a table hint, ')'"]
        .assert_eq(&err.to_string());
    let plain = Lesson::parse(
        "lessons/drill.md",
        &plain_with("", "Narrative.", "Narrative."),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let err = validate_exercise(&plain, &plain.settings_default(), &seeds).unwrap_err();
    expect!["lessons/drill.md:1:1: lesson `drill` is not an exercise"].assert_eq(&err.to_string());
}

// ---- the exercises in lessons/ ----

/// The exercises in `lessons/`.
const SHIPPED: [&str; 4] = [
    "exercise-claim-fix",
    "exercise-skip-locked",
    "exercise-send-applock",
    "exercise-teradata-rollback",
];

fn shipped(id: &str) -> Lesson {
    let path = format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Lesson::parse(&format!("lessons/{id}.md"), &text).unwrap_or_else(|e| panic!("{e:?}"))
}

/// As shipped, each exercise fails a goal on some seed; its solution meets all of them.
#[test]
fn shipped_exercises_fail_as_shipped_and_pass_with_their_solution() {
    let mut summary = String::new();
    for id in SHIPPED {
        let lesson = shipped(id);
        let exercise = lesson.exercise.as_ref().expect("an exercise");
        for settings in lesson.all_combinations().settings {
            let v = validate_exercise(&lesson, &settings, &exercise.seeds)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(!v.starting.solved, "{id}: nothing to fix");
            assert!(v.solution.solved, "{id}: {:?}", v.solution.goals);
            let failing: Vec<String> = v
                .starting
                .goals
                .iter()
                .filter(|g| !g.passed_all_seeds)
                .map(|g| format!("{} (seed {:?})", g.name, g.failing_seed.unwrap_or_default()))
                .collect();
            summary.push_str(&format!("{id}: {}\n", failing.join("; ")));
        }
    }
    expect![[r#"
        exercise-claim-fix: No task is claimed twice (seed 7)
        exercise-skip-locked: B gets its task at once (waits at most 1 ms) (seed 1)
        exercise-send-applock: The receiver is called exactly once (seed 1); user2 gets code 3, BUSY (seed 1); No errors in any session (seed 1)
        exercise-teradata-rollback: Job 1 is shipped (by B, after A gave it back) (seed 1); No job is lost: shipped and waiting jobs add up to 3 (seed 1)
    "#]]
    .assert_eq(&summary);
}

/// A learner's loop that never ends stops at the exercise's step budget, on the first
/// seed: Check names that run and runs no other seed (each would take as long).
#[test]
fn an_endless_loop_stops_check_at_the_first_seed() {
    let lesson = shipped("exercise-claim-fix");
    let endless = r"CREATE OR ALTER PROCEDURE dbo.work @process varchar(10)
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @id int;
    WHILE 1 = 1
    BEGIN
        SET @id = NULL;
        SELECT TOP (1) @id = id FROM dbo.task
        WHERE active = 1 AND status = 'new' ORDER BY rank DESC, activated, id;
        UPDATE dbo.task SET status = 'in_progress', owner = @process WHERE id = @id;
        INSERT dbo.claim (process, task_id) VALUES (@process, @id);
    END
END
";
    let seeds = &lesson.exercise.as_ref().expect("an exercise").seeds;
    assert!(seeds.len() > 1);
    let mut check = ExerciseCheck::new(
        &lesson,
        &lesson.settings_default(),
        &[("worker", endless)],
        seeds,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let report = loop {
        if let Some(report) = check.advance(10_000).unwrap_or_else(|e| panic!("{e}")) {
            break report;
        }
    };
    let steps = check.progress().steps;
    let budget = lockstep_lesson::EXERCISE_LIMITS.steps;
    assert!(
        (budget..budget + 100).contains(&steps),
        "one seed's run, to the budget: {steps} steps"
    );
    assert!(!report.solved);
    let run = report.failed_run.expect("the stopped run").to_string();
    assert!(
        run.starts_with(&format!(
            "seed {}, session worker1: simulation stopped this session: the run took more than 100000 steps",
            seeds[0]
        )),
        "{run}"
    );
}

/// The exercises' budget leaves room: every shipped exercise, as shipped and solved,
/// on each of its seeds and settings, takes under a fifth of it.
#[test]
fn exercise_runs_take_a_fraction_of_their_step_budget() {
    let budget = lockstep_lesson::EXERCISE_LIMITS.steps;
    let mut most = 0;
    for id in SHIPPED {
        let lesson = shipped(id);
        let exercise = lesson.exercise.as_ref().expect("an exercise");
        for settings in lesson.all_combinations().settings {
            for edits in [vec![], exercise.solution_edits()] {
                let applied = lesson
                    .apply_edits(&settings, &edits)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(applied.scenario.limits, lockstep_lesson::EXERCISE_LIMITS);
                for &seed in &exercise.seeds {
                    let report = run_exercise(&applied, seed).unwrap_or_else(|e| panic!("{e}"));
                    assert!(report.simulation.is_finished(), "{id} seed {seed}");
                    most = most.max(report.simulation.steps());
                }
            }
        }
    }
    assert!(
        most > 1_000 && most * 5 < budget,
        "the longest exercise run took {most} steps"
    );
}

/// The narrative of the claim exercise says the conditional update also meets the
/// goals: it does, on every seed.
#[test]
fn the_conditional_claim_also_solves_the_claim_exercise() {
    let lesson = shipped("exercise-claim-fix");
    let conditional = r"CREATE OR ALTER PROCEDURE dbo.work @process varchar(10)
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @id int, @done bit = 0;
    WHILE @done = 0
    BEGIN
        SET @id = NULL;
        SELECT TOP (1) @id = id FROM dbo.task
        WHERE active = 1 AND status = 'new' ORDER BY rank DESC, activated, id;
        IF @id IS NULL
            SET @done = 1;
        ELSE
        BEGIN
            WAITFOR DELAY '00:00:00.020';
            UPDATE dbo.task
            SET status = 'in_progress', owner = @process, taken = SYSDATETIME()
            WHERE id = @id AND status = 'new';
            IF @@ROWCOUNT > 0
                INSERT dbo.claim (process, task_id) VALUES (@process, @id);
        END
    END
END
";
    let exercise = lesson.exercise.as_ref().expect("an exercise");
    let report = check_exercise(
        &lesson,
        &lesson.settings_default(),
        &[("worker", conditional)],
        &exercise.seeds,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.solved, "{:?}", report.goals);
}

#[test]
fn readme_documents_the_exercise_format() {
    let readme = include_str!("../../../../lessons/README.md");
    for word in [
        "`goal`",
        "[[hints]]",
        "`seeds`",
        "`editable`",
        "editable=ID",
        "solution=ID",
        "exercise-claim-fix",
        "exercise-skip-locked",
        "exercise-send-applock",
        "exercise-teradata-rollback",
        "check_exercise",
    ] {
        assert!(readme.contains(word), "README lacks {word}");
    }
}

// ---- robustness: no input panics ----

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Parse, apply and Check with the solution as the edit (one seed, to stay quick).
fn everything(text: &str) {
    if let Ok(lesson) = Lesson::parse("lessons/drill.md", text) {
        let _ = narrative_html(&lesson);
        let edits: Vec<(String, String)> = lesson
            .exercise
            .as_ref()
            .map(|e| {
                e.solution_edits()
                    .into_iter()
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let edits: Vec<(&str, &str)> = edits
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        for s in lesson.combinations(4).settings {
            let _ = check_exercise(&lesson, &s, &edits, &[1]);
        }
    }
}

#[test]
fn exercise_truncations_never_panic() {
    for (i, _) in DRILL.char_indices().step_by(3) {
        everything(&DRILL[..i]);
    }
}

#[test]
fn random_exercise_edits_never_panic() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let pieces = [
        "goal = \"g\"\n",
        "[[hints]]\ntext = \"\"\n",
        "seeds = [",
        "seeds = [1, 1]\n",
        "seeds = []\n",
        " editable",
        " editable=",
        " editable=B",
        " solution=B",
        " solution=",
        "```sql solution=A\nSELECT 1;\n```\n",
        "kind = \"lesson\"\n",
        "kind = \"exercise\"\n",
        "{{",
        "\n",
        "```",
        "é",
        "\"",
    ];
    for _ in 0..600 {
        let mut text = DRILL.to_string();
        for _ in 0..(rng.next() % 3 + 1) {
            let mut at = (rng.next() as usize) % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if rng.next() % 3 == 0 {
                let mut end = (at + (rng.next() as usize) % 8).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(at..end, "");
            } else {
                text.insert_str(at, pieces[(rng.next() as usize) % pieces.len()]);
            }
        }
        everything(&text);
    }
}

/// Every prefix of a real solution, as a learner types it, is an answer or a located
/// error: never a panic.
#[test]
fn learner_sql_as_it_is_typed_never_panics() {
    let lesson = shipped("exercise-skip-locked");
    let exercise = lesson.exercise.as_ref().expect("an exercise");
    let settings = lesson.settings_default();
    let solution = &exercise.solutions[0].sql;
    let mut located = 0;
    for (i, _) in solution.char_indices().step_by(7) {
        match check_exercise(&lesson, &settings, &[("next_task", &solution[..i])], &[1]) {
            Ok(_) => {}
            Err(ExerciseError::Edit { line, col, .. }) => {
                assert!(line >= 1 && col >= 1);
                located += 1;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(located > 10, "{located}");
}

/// A lesson joins its setup blocks into one script, but a trace names a setup
/// statement's line in the block that holds it, the line the reader sees (an exercise's
/// procedure is its second block). In every lesson's default run, each such line of
/// its block holds the statement the trace quotes.
#[test]
fn setup_statement_lines_count_from_their_own_block() {
    let mut checked = 0;
    for l in super::explorable::lessons() {
        let applied = l.apply(&l.settings_default()).expect("applies");
        let report = lockstep_lesson::run(&applied, l.seed).unwrap_or_else(|e| panic!("{e}"));
        for e in &report.trace.entries {
            let engine::Event::StatementStarted {
                source: engine::Source::Setup,
                line,
                text,
                span,
                ..
            } = &e.event
            else {
                continue;
            };
            let (k, _) = applied.setup_position(span.0).expect("in a setup block");
            let shown = applied.blocks[k]
                .text
                .lines()
                .nth(*line as usize - 1)
                .unwrap_or("");
            let quoted = text.trim_end_matches(" …");
            assert!(
                shown.contains(quoted),
                "{}: line {line} is {shown:?}, the trace quotes {text:?}",
                l.id
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
    let lesson = shipped("exercise-claim-fix");
    let report =
        lockstep_lesson::run(&lesson.apply(&lesson.settings_default()).unwrap(), 7).unwrap();
    let update = report
        .trace
        .entries
        .iter()
        .map(|e| e.event.to_string())
        .find(|e| e.contains("runs work") && e.contains("UPDATE"))
        .unwrap();
    expect!["worker1 runs work line 16: UPDATE dbo.task …"].assert_eq(&update);
}

/// SQL Server resolves a procedure's columns when it is created: a misspelt column of
/// a table that exists fails CREATE PROCEDURE with error 207, and the learner is shown
/// it at the column in their own text, before any session runs.
#[test]
fn a_misspelt_column_in_the_learners_procedure_fails_its_create_at_that_column() {
    let lesson = shipped("exercise-claim-fix");
    let exercise = lesson.exercise.as_ref().expect("an exercise");
    let typo = shipped_block(&lesson, "worker")
        .replace("WHERE id = @id;", "WHERE id = @id AND stauts = 'new';");
    let err = check_exercise(
        &lesson,
        &lesson.settings_default(),
        &[("worker", &typo)],
        &exercise.seeds,
    )
    .unwrap_err();
    let line = typo.lines().position(|l| l.contains("stauts")).unwrap() as u32 + 1;
    let col = typo
        .lines()
        .nth(line as usize - 1)
        .unwrap()
        .find("stauts")
        .unwrap() as u32
        + 1;
    assert!(
        matches!(&err, ExerciseError::Edit { block, line: l, col: c, message } if block == "worker" && *l == line && *c == col && message.contains("error 207: Invalid column name 'stauts'")),
        "{err:?} (expected line {line}, column {col})"
    );
}

fn shipped_block(lesson: &Lesson, editable: &str) -> String {
    lesson
        .blocks
        .iter()
        .find(|b| b.editable.as_deref() == Some(editable))
        .map(|b| b.source.clone())
        .expect("the editable block")
}

/// The Teradata exercise is solved only by A consuming job 1 and giving it back: a
/// misspelt queue (A consumes nothing and fails with 3807) or an empty script (A does
/// nothing) let B ship every job, which met the goals about the final state alone.
#[test]
fn the_teradata_exercise_is_not_solved_without_a_consuming_job_1() {
    let lesson = shipped("exercise-teradata-rollback");
    let exercise = lesson.exercise.as_ref().expect("an exercise");
    let settings = lesson.settings_default();
    let solved = |sql: &str| {
        check_exercise(&lesson, &settings, &[("consumer", sql)], &exercise.seeds)
            .unwrap_or_else(|e| panic!("{e}"))
            .solved
    };
    let solution = ".SET SESSION TRANSACTION ANSI
SELECT AND CONSUME TOP 1 job_id, payload FROM job_queue;
INSERT INTO shipment (job_id, carrier) VALUES (1, NULL);
ROLLBACK;
";
    assert!(solved(solution));
    assert!(!solved(
        &solution
            .replace("FROM job_queue", "FROM job_queu")
            .replace("ROLLBACK", "COMMIT")
    ));
    assert!(!solved(".SET SESSION TRANSACTION ANSI\n"));
    // Deleting COMMIT leaves the transaction open; the server rolls it back at
    // logoff, which loses no job here, but A did not end it: not solved either.
    let report = check_exercise(
        &lesson,
        &settings,
        &[("consumer", &solution.replace("ROLLBACK;\n", ""))],
        &exercise.seeds,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let failing: Vec<&str> = report
        .goals
        .iter()
        .filter(|g| !g.passed_all_seeds)
        .map(|g| g.name.as_str())
        .collect();
    assert_eq!(
        failing,
        ["A ends its transaction itself (it does not log off with it open)"]
    );
}

/// A run-time error that ends a run is placed on the learner's line, also inside a
/// procedure their setup block creates (its statements point into the joined setup).
#[test]
fn a_failed_run_names_the_learners_line() {
    let lesson = shipped("exercise-send-applock");
    let block = shipped_block(&lesson, "send_document");
    let broken = block.replacen(
        "    SET NOCOUNT ON;\n",
        "    SET NOCOUNT ON;\n    DECLARE @oops int = 1 / 0;\n",
        1,
    );
    let report = check_exercise(
        &lesson,
        &lesson.settings_default(),
        &[("send_document", &broken)],
        &[1],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let failed = report
        .failed_run
        .expect("No errors fails, so the error ends the run");
    assert_eq!(failed.number, 8134);
    let line = broken.lines().position(|l| l.contains("@oops")).unwrap() as u32 + 1;
    assert_eq!(
        failed.at,
        Some(lockstep_lesson::FailedAt {
            block: "send_document".into(),
            line,
            col: 5
        })
    );
}
