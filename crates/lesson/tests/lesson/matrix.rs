//! The outcome matrix: its columns, rows and cells, a slice at a time as at once.

use lockstep_lesson::{matrix_columns, matrix_seeds, run_matrix, Cell, Lesson, MatrixRun, Reading};

fn lesson(file: &str, text: &str) -> Lesson {
    Lesson::parse(file, text).expect("a valid lesson")
}

fn wait_or_skip() -> Lesson {
    lesson(
        "queue-wait-or-skip.md",
        include_str!("../../../../lessons/queue-wait-or-skip.md"),
    )
}

#[test]
fn a_matrix_in_slices_is_the_matrix_at_once() {
    let lesson = wait_or_skip();
    let seeds = [1, 2];
    let whole = run_matrix(&lesson, &seeds);
    let mut run = MatrixRun::new(&lesson, &seeds);
    let mut calls = 0;
    let sliced = loop {
        calls += 1;
        // One engine step per call: the slices' edges fall everywhere in a run.
        if let Some(m) = run.advance(1) {
            break m;
        }
        let p = run.progress();
        assert!(p.runs_done < p.runs && p.runs == 8, "{p:?}");
    };
    assert_eq!(sliced, whole);
    let p = run.progress();
    assert_eq!((p.runs_done, p.steps), (8, calls), "{p:?}");
    assert!(p.steps > 8 * 4, "{p:?}");
    // readpast × ranks, the first toggle slowest, values in the lesson's order.
    let settings: Vec<String> = whole
        .rows
        .iter()
        .map(|r| {
            format!(
                "{}={} {}={}",
                r.settings[0].0, r.settings[0].1, r.settings[1].0, r.settings[1].1
            )
        })
        .collect();
    assert_eq!(
        settings,
        [
            "readpast=on ranks=3,3,2,2,1",
            "readpast=on ranks=3,1,1",
            "readpast=off ranks=3,3,2,2,1",
            "readpast=off ranks=3,1,1",
        ]
    );
    let wait = whole
        .columns
        .iter()
        .position(|c| c.key == "B.wait_ms")
        .unwrap();
    assert_eq!(whole.rows[0].cells[wait].text(), "0");
    let off = &whole.rows[2].cells[wait];
    let (lo, hi) = off.range().unwrap();
    assert!(2450.0 < lo && lo < hi && hi < 2550.0, "{off:?}");
    assert_eq!(off.text(), format!("{lo}–{hi}"));
}

#[test]
fn columns_are_each_measure_once_named_by_a_property_that_shares_its_sql() {
    let race = lesson(
        "queue-claim-race.md",
        include_str!("../../../../lessons/queue-claim-race.md"),
    );
    let columns = matrix_columns(&race);
    let keys: Vec<&str> = columns.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "q1",
            "no-double-claim",
            "q2",
            "q3",
            "q4",
            "errors",
            "error_numbers"
        ]
    );
    assert_eq!(columns[1].label, "No task is claimed twice");
    assert_eq!(
        columns[0].label,
        "Two-step, 2 workers, 500 tasks: about 490 duplicate claims (450-500)"
    );
    // Two checks read B's wait, each under its own setting: the column names both.
    let skip = lesson(
        "queue-wait-or-skip.md",
        include_str!("../../../../lessons/queue-wait-or-skip.md"),
    );
    let columns = matrix_columns(&skip);
    let wait = columns.iter().find(|c| c.key == "B.wait_ms").unwrap();
    assert_eq!(
        wait.label,
        "With READPAST, B gets a task at once (0-1 ms) / Without READPAST, B waits about 2.5 s: the rest of A's 4 s hold"
    );
    // The lesson's seed and the two after it; more continue from there.
    assert_eq!(lockstep_lesson::default_matrix_seeds(&race), [7, 8, 9]);
    assert_eq!(matrix_seeds(&race, 5), [7, 8, 9, 10, 11]);
    assert_eq!(matrix_seeds(&race, 1), [7]);
}

#[test]
fn a_cell_is_one_value_a_range_or_the_distinct_readings() {
    let cell = |readings: Vec<Reading>| Cell { readings }.text();
    assert_eq!(cell(vec![Reading::Number(650.0); 3]), "650");
    assert_eq!(
        cell(vec![
            Reading::Number(2500.157),
            Reading::Number(2527.387),
            Reading::Number(2500.2)
        ]),
        "2500.157–2527.387"
    );
    assert_eq!(
        cell(vec![
            Reading::Text("none".into()),
            Reading::Text("B 3960".into()),
            Reading::Text("none".into())
        ]),
        "none / B 3960"
    );
    assert_eq!(cell(vec![Reading::Number(1.0), Reading::Missing]), "1 / —");
}

/// Each row's recorded verdicts are those of the same runs made one at a time: every
/// check that applies as `run` judges it on every seed, every property as
/// `Property::violation` judges the run's final state.
#[test]
fn a_rows_verdicts_are_its_runs_verdicts() {
    let mut broken = 0;
    for (file, text) in [
        (
            "queue-wait-or-skip.md",
            include_str!("../../../../lessons/queue-wait-or-skip.md"),
        ),
        (
            "pg-queue-skip-locked.md",
            include_str!("../../../../lessons/pg-queue-skip-locked.md"),
        ),
        (
            "send-merge-upsert.md",
            include_str!("../../../../lessons/send-merge-upsert.md"),
        ),
        (
            "send-double-click.md",
            include_str!("../../../../lessons/send-double-click.md"),
        ),
    ] {
        let lesson = lesson(file, text);
        let seeds = [lesson.seed, lesson.seed + 1];
        let matrix = run_matrix(&lesson, &seeds);
        let combinations = lockstep_lesson::all_settings(&lesson.toggles);
        let (mut checks, mut properties) = (0, 0);
        for (settings, row) in combinations.iter().zip(&matrix.rows) {
            if row.error.is_some() {
                continue;
            }
            let applied = lesson.apply(settings).unwrap();
            let mut reports: Vec<_> = seeds
                .iter()
                .map(|s| lockstep_lesson::run(&applied, *s).unwrap())
                .collect();
            let applying: Vec<usize> = (0..lesson.checks.len())
                .filter(|&i| applied.checks.contains(&lesson.checks[i]))
                .collect();
            let want: Vec<(usize, bool)> = applying
                .iter()
                .enumerate()
                .map(|(k, &i)| (i, reports.iter().all(|r| r.checks[k].passed)))
                .collect();
            assert_eq!(row.check_verdicts, want, "{file} {:?}", row.settings);
            checks += want.len();
            let want: Vec<(usize, bool)> = lesson
                .properties
                .iter()
                .enumerate()
                .filter(|(_, p)| applied.properties.contains(p))
                .map(|(i, p)| {
                    let held = reports
                        .iter_mut()
                        .all(|r| p.violation(&mut r.simulation).unwrap().is_none());
                    (i, held)
                })
                .collect();
            assert_eq!(row.property_verdicts, want, "{file} {:?}", row.settings);
            properties += want.len();
        }
        assert!(
            checks > 0 && properties > 0,
            "{file}: {checks} checks, {properties} properties"
        );
        broken += matrix
            .rows
            .iter()
            .flat_map(|r| &r.property_verdicts)
            .filter(|(_, held)| !held)
            .count();
    }
    // Both outcomes are recorded: some setting breaks a property.
    assert!(broken > 0);
}
