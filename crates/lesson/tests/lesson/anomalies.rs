//! Anomalies declared in lessons and found in their runs, and checks that describe bugs.

use expect_test::expect;
use lockstep_lesson::{run, AnomalyKind, Lesson};

use super::{edit, errors_of};

fn lesson(id: &str) -> Lesson {
    let path = format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Lesson::parse(&format!("{id}.md"), &text).unwrap_or_else(|e| panic!("{e:?}"))
}

const RULE: &str = "[[anomalies]]\nkind = \"duplicate\"\ntable = \"t\"\ncolumns = [\"id\"]\nlabel = \"id twice\"\n+++";

#[test]
fn anomaly_rules_are_validated_in_place() {
    let ok = edit(&[("max = 1\n+++", &format!("max = 1\n{RULE}"))]);
    let lesson = Lesson::parse("tiny.md", &ok).unwrap();
    assert_eq!(lesson.anomalies.len(), 1);
    assert_eq!(lesson.anomalies[0].verb, "wrote");
    assert_eq!((lesson.anomalies[0].line, lesson.anomalies[0].col), (20, 8));
    let bad = |from: &str, to: &str| {
        let text = edit(&[(
            "max = 1\n+++",
            &format!("max = 1\n{}", RULE.replace(from, to)),
        )]);
        errors_of("tiny.md", &text)
    };
    expect![[r#"
        tiny.md:20:8: front matter: unknown variant `same`, expected one of `duplicate`, `unmatched`, `lost`, `kept`
    "#]]
    .assert_eq(&bad("\"duplicate\"", "\"same\""));
    expect![[r#"
        tiny.md:21:9: anomaly table `dbo.t` is not a table name (letters, digits and `_`)
    "#]]
    .assert_eq(&bad("\"t\"", "\"dbo.t\""));
    expect![[r#"
        tiny.md:22:11: `columns` is empty: name the columns whose values must not repeat
    "#]]
    .assert_eq(&bad("[\"id\"]", "[]"));
    expect![[r#"
        tiny.md:22:18: column `ID` is listed twice
    "#]]
    .assert_eq(&bad("[\"id\"]", "[\"id\", \"ID\"]"));
    expect![[r#"
        tiny.md:23:9: an anomaly needs a non-empty `label`: what it means, in a few words
    "#]]
    .assert_eq(&bad("\"id twice\"", "\" \""));
    expect![[r#"
        tiny.md:23:1: front matter: unknown field `colour`, expected one of `kind`, `table`, `columns`, `label`, `verb`, `match_table`, `match_columns`
    "#]]
    .assert_eq(&bad("label", "colour"));
    // The other kinds: what each needs and refuses.
    expect![[r#"
        tiny.md:20:8: an `unmatched` anomaly needs `match_table`: the table that must have a matching row
    "#]]
    .assert_eq(&bad("\"duplicate\"", "\"unmatched\""));
    expect![[r#"
        tiny.md:22:17: `match_columns` names 2 column(s) and `columns` 1: one for each
    "#]]
    .assert_eq(&bad(
        "\"duplicate\"\ntable = \"t\"\ncolumns = [\"id\"]",
        "\"unmatched\"\ntable = \"t\"\nmatch_columns = [\"a\", \"b\"]\nmatch_table = \"u\"\ncolumns = [\"id\"]",
    ));
    expect![[r#"
        tiny.md:22:11: a `lost` anomaly watches whole rows: leave out `columns`
    "#]]
    .assert_eq(&bad("\"duplicate\"", "\"lost\""));
    expect![[r#"
        tiny.md:20:8: a `duplicate` anomaly needs `columns`
        tiny.md:22:15: only an `unmatched` anomaly has a `match_table`
    "#]]
    .assert_eq(&bad("columns = [\"id\"]", "match_table = \"u\""));
    let lost = edit(&[(
        "max = 1\n+++",
        "max = 1\n[[anomalies]]\nkind = \"lost\"\ntable = \"t\"\nlabel = \"row lost\"\n+++",
    )]);
    let lesson = Lesson::parse("tiny.md", &lost).unwrap();
    assert_eq!(lesson.anomalies[0].columns, Vec::<String>::new());
}

#[test]
fn a_check_may_describe_a_bug() {
    let text = edit(&[("max = 1\n", "max = 1\nbug = true\n")]);
    let lesson = Lesson::parse("tiny.md", &text).unwrap();
    assert!(lesson.checks[0].bug);
    let settings = lesson.settings_default();
    let report = run(&lesson.apply(&settings).unwrap(), 1).unwrap();
    assert!(report.checks[0].bug && report.checks[0].passed);
    let lesson = lesson_of_claim_race();
    let bugs: Vec<&str> = lesson
        .checks
        .iter()
        .filter(|c| c.bug)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        bugs,
        [
            "Two-step, 2 workers, 500 tasks: about 490 duplicate claims (450-500)",
            "Two-step: some task was claimed twice"
        ]
    );
}

fn lesson_of_claim_race() -> Lesson {
    lesson("queue-claim-race")
}

/// The claim race's first duplicate: worker1 claims task 1 after worker2 did, both
/// having read it before either wrote.
#[test]
fn the_claim_race_marks_each_duplicate_claim() {
    let lesson = lesson_of_claim_race();
    let report = run(
        &lesson.apply(&lesson.settings_default()).unwrap(),
        lesson.seed,
    )
    .unwrap();
    let duplicates = report
        .anomalies
        .iter()
        .filter(|a| matches!(a.kind, AnomalyKind::Duplicate(_)))
        .count();
    // The lesson's own check counts the same thing in SQL.
    assert_eq!(duplicates, 488);
    assert_eq!(duplicates, report.anomalies.len(), "no other anomaly");
    let first = &report.anomalies[0];
    assert_eq!(
        first.to_string(),
        "worker1: task claimed again (claim (2) repeats task_id 1 of claim (1))"
    );
    assert_eq!(
        report.trace.entries[first.event].to_string(),
        "    36.913 ms  worker1 inserts claim (2)"
    );
    assert!(first
        .rows(&report.trace.entries)
        .contains(&("task".to_string(), "1".to_string())));
    let AnomalyKind::Duplicate(d) = &first.kind else {
        unreachable!()
    };
    let (first_writer, second_writer) = d.writers(&report.trace.entries);
    let at = |k: Option<usize>| k.map(|k| report.trace.entries[k].at_us);
    assert_eq!(
        (
            first_writer.session.as_str(),
            at(first_writer.read),
            at(Some(first_writer.write)),
            at(first_writer.commit)
        ),
        ("worker2", Some(24), Some(20_121), Some(20_288))
    );
    assert_eq!(
        (
            second_writer.session.as_str(),
            at(second_writer.read),
            at(Some(second_writer.write))
        ),
        ("worker1", Some(26), Some(20_288))
    );
    // The one-statement claim has none.
    let settings = lesson.settings_with([("claim", "one-statement")]).unwrap();
    let report = run(&lesson.apply(&settings).unwrap(), lesson.seed).unwrap();
    assert!(
        report.anomalies.is_empty(),
        "{:?}",
        report.anomalies.first()
    );
}

#[test]
fn a_second_receiver_call_and_an_uncaught_error_are_anomalies() {
    let lesson = lesson("send-double-click");
    let settings = lesson.settings_with([("guard", "index-only")]).unwrap();
    let report = run(&lesson.apply(&settings).unwrap(), lesson.seed).unwrap();
    let found: Vec<String> = report.anomalies.iter().map(|a| a.to_string()).collect();
    expect![[r#"
        [
            "user2: receiver called a second time for one document (external_system (1001) repeats DocumentId 3 of external_system (1000))",
            "user2: receiver called, no entry records the call (external_system (1001) has OrderId 1001; no send row has it; user2 got error 2601 after it)",
            "user2: error 2601",
        ]
    "#]]
    .assert_debug_eq(&found);
}

/// Where each run of a lesson marks its anomalies: `(kind, event, at_us, session)`.
fn marks(
    id: &str,
    pairs: &[(&str, &str)],
    solution: bool,
) -> Vec<(&'static str, usize, u64, String)> {
    let lesson = lesson(id);
    let settings = lesson.settings_with(pairs.iter().copied()).unwrap();
    let applied = if solution {
        let solutions = &lesson.exercise.as_ref().unwrap().solutions;
        let edits: Vec<(&str, &str)> = solutions
            .iter()
            .map(|s| (s.block.as_str(), s.sql.as_str()))
            .collect();
        lesson.apply_edits(&settings, &edits).unwrap()
    } else {
        lesson.apply(&settings).unwrap()
    };
    run(&applied, lesson.seed)
        .unwrap()
        .anomalies
        .iter()
        .map(|a| (a.kind.name(), a.event, a.at_us, a.session.clone()))
        .collect()
}

#[test]
fn a_call_no_entry_records_is_unmatched_only_when_the_entry_fails() {
    // After the call the send fails: the receiver has order 1000, no entry has it.
    assert_eq!(
        marks("send-failure", &[("fail", "after-call")], false),
        [("unmatched", 19, 5_000_096, "clerk".to_string())]
    );
    // Before the call, or no failure: nothing to mark.
    assert_eq!(marks("send-failure", &[("fail", "before-call")], false), []);
    assert_eq!(marks("send-failure", &[("fail", "none")], false), []);
    // Without a guard both calls have their entry: a duplicate, no unmatched call.
    let none = marks("send-double-click", &[("guard", "none")], false);
    assert!(none.iter().all(|m| m.0 != "unmatched"), "{none:?}");
    assert!(none.iter().any(|m| m.0 == "duplicate"), "{none:?}");
    // The application lock: one call, one entry, nothing.
    assert_eq!(
        marks("send-double-click", &[("guard", "applock")], false),
        []
    );
    // QUOTED_IDENTIFIER OFF: the call goes out, the entry fails with 1934.
    assert_eq!(
        marks("send-set-options", &[("quoted_identifier", "off")], false)[0],
        ("unmatched", 21, 5_000_160, "clerk".to_string())
    );
}

/// A run whose job is deleted under it is marked at the DELETE, by the session that
/// deleted it, not at the run's insert (the worker did nothing wrong).
#[test]
fn a_row_left_unmatched_by_a_delete_is_marked_at_the_delete() {
    let lesson = lesson("pg-foreign-key-locks");
    let settings = lesson
        .settings_with([("admin", "delete"), ("fk", "off")])
        .unwrap();
    let report = run(&lesson.apply(&settings).unwrap(), lesson.seed).unwrap();
    assert_eq!(report.anomalies.len(), 1, "{:?}", report.anomalies);
    let a = &report.anomalies[0];
    assert_eq!(
        report.trace.entries[a.event].to_string(),
        "   500.000 ms  admin deletes job (1)"
    );
    assert_eq!(
        a.to_string(),
        "admin: run left without its job (job_run (1) has job_id 1; no job row has it; admin deleted job (1))"
    );
    let AnomalyKind::Unmatched(u) = &a.kind else {
        unreachable!()
    };
    assert_eq!(
        report.trace.entries[u.insert].to_string(),
        "     0.024 ms  worker inserts job_run (1)"
    );
    // With the key the DELETE fails (23503, its own anomaly): no run is orphaned.
    assert_eq!(
        marks(
            "pg-foreign-key-locks",
            &[("admin", "delete"), ("fk", "on")],
            false
        ),
        [("error", 28, 2_000_150, "admin".to_string())]
    );
}

#[test]
fn a_consumed_row_committed_after_a_failed_action_is_lost_and_a_rollback_loses_none() {
    // A consumes job 1, its INSERT fails (515), and it commits at 0.099 ms.
    assert_eq!(
        marks("exercise-teradata-rollback", &[], false),
        [
            ("error", 8, 70, "A".to_string()),
            ("lost", 11, 99, "A".to_string())
        ]
    );
    let lesson = lesson("exercise-teradata-rollback");
    let report = run(
        &lesson.apply(&lesson.settings_default()).unwrap(),
        lesson.seed,
    )
    .unwrap();
    let lost = &report.anomalies[1];
    assert_eq!(
        lost.to_string(),
        "A: consumed job lost (job_queue (rid 0) consumed and returned 1, order 1; then error 3811; then commit)"
    );
    assert_eq!(
        lost.rows(&report.trace.entries),
        [("job_queue".to_string(), "rid 0".to_string())]
    );
    // The solution rolls back: the job goes back to the queue, nothing is lost.
    assert_eq!(
        marks("exercise-teradata-rollback", &[], true),
        [("error", 8, 70, "A".to_string())]
    );
    // Consumers that commit with no failure, or roll back, lose nothing.
    for end in ["commit", "rollback"] {
        for mode in ["teradata", "ansi"] {
            assert_eq!(
                marks("teradata-consume", &[("end", end), ("mode", mode)], false),
                [],
                "{end} {mode}"
            );
        }
    }
}

#[test]
fn documents_marked_as_sent_before_a_failed_call_are_kept_at_the_failure() {
    // The UPDATE marks both outbox rows and commits on its own; the call's THROW comes
    // 5 s later, caught: the marks stay and nothing is left to retry (I10).
    assert_eq!(
        marks("send-at-most-once", &[("fail", "fails")], false),
        [("kept", 21, 5_000_251, "sender".to_string())]
    );
    let lesson = lesson("send-at-most-once");
    let settings = lesson.settings_with([("fail", "fails")]).unwrap();
    let report = run(&lesson.apply(&settings).unwrap(), lesson.seed).unwrap();
    let kept = &report.anomalies[0];
    assert_eq!(
        kept.to_string(),
        "sender: marked as sent, but the call failed (outbox (1, 2) written and committed; then error 50002)"
    );
    assert_eq!(kept.rows(&report.trace.entries).len(), 2);
    // A call that succeeds leaves the marks true: nothing to mark.
    assert_eq!(
        marks("send-at-most-once", &[("fail", "succeeds")], false),
        []
    );
}
