//! Explore mode's acceptance figures, over the lessons as shipped: counterexamples where
//! a lesson shows a bug, exhaustive proofs where it shows the fix, with their counts.

use engine::Mode;
use lesson::{find_property, run_with, Applied, Lesson, Property};
use lockstep_explore::{Options, Report, Search, Verdict};

fn lesson(id: &str) -> Lesson {
    let path = format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    Lesson::parse(&format!("{id}.md"), &text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn applied(l: &Lesson, set: &[(&str, &str)]) -> Applied {
    l.apply(&l.settings_with(set.iter().copied()).unwrap())
        .unwrap()
}

fn search(l: &Lesson, set: &[(&str, &str)], property: &str, options: Options) -> Search {
    let applied = applied(l, set);
    let property = find_property(&applied.properties, property).expect("property");
    Search::new(&applied, l.seed, property, options).unwrap()
}

fn explore(id: &str, set: &[(&str, &str)], property: &str, options: Options) -> Report {
    search(&lesson(id), set, property, options).run().unwrap()
}

/// (states, transitions, schedules, exhaustive) of a search that found no violation.
fn proof(r: &Report) -> (u64, u64, u64, bool) {
    assert!(r.holds(), "{:?}", r.counterexample());
    let p = r.progress;
    (p.states, p.transitions, p.schedules, p.exhaustive)
}

fn lines(r: &Report) -> Vec<String> {
    let c = r.counterexample().expect("a counterexample");
    c.steps.iter().map(ToString::to_string).collect()
}

const TWO_STEP_2X3: &[(&str, &str)] = &[("claim", "two-step"), ("tasks", "3")];

fn two_step_race() -> Report {
    explore(
        "queue-claim-race",
        TWO_STEP_2X3,
        "no-double-claim",
        Options::default(),
    )
}

/// Two-step, 2 workers × 3 tasks: a duplicate claim in the fewest steps possible.
/// Each worker runs eight statements up to its first claim (EXEC, SET NOCOUNT,
/// DECLARE, SET @id, SELECT, WAITFOR, UPDATE, INSERT), and a duplicate is two first
/// claims of task 1: 16 steps. worker1 must read before worker2's UPDATE and write
/// after worker2 read, so at least two context switches.
#[test]
fn claim_race_two_step_finds_a_duplicate_in_16_steps_and_it_replays() {
    let r = two_step_race();
    let c = r.counterexample().expect("a duplicate");
    assert_eq!((c.steps.len(), c.switches), (16, 2));
    assert_eq!(c.schedule.to_string(), "u.0~6.1~8.0~2");
    assert_eq!(c.schedule.mode, Mode::Untimed);
    assert_eq!(text(&c.detail), "got 1 (expected 0)");
    let steps = lines(&r);
    assert_eq!(
        steps[4],
        "worker1 reads task 1 (SELECT TOP (1) @id = id FROM dbo.task …)"
    );
    assert_eq!(
        steps[10],
        "worker2 reads task 1 (SELECT TOP (1) @id = id FROM dbo.task …)"
    );
    assert!(
        steps[15].starts_with("worker1 inserts claim (2)"),
        "{}",
        steps[15]
    );
    // The schedule replays (then goes on at random) to the same duplicate: task 1, twice.
    let l = lesson("queue-claim-race");
    let mut run = run_with(&applied(&l, TWO_STEP_2X3), l.seed, Some(&c.schedule)).unwrap();
    assert!(run.schedule.to_string().starts_with("u.0~6.1~8.0~2"));
    let first = run
        .simulation
        .query("SELECT TOP (1) task_id, process FROM claim ORDER BY id")
        .unwrap();
    let second = run
        .simulation
        .query("SELECT task_id, process FROM claim WHERE id = 2")
        .unwrap();
    assert_eq!(
        format!("{:?}", first.rows),
        r#"[[Int(1), Text("worker2")]]"#
    );
    assert_eq!(
        format!("{:?}", second.rows),
        r#"[[Int(1), Text("worker1")]]"#
    );
}

/// At the lesson's 500 tasks the same duplicate is found as soon: the search covers the
/// short interleavings first, where depth first alone went down 400 steps of one worker
/// and met it only after 11 078 states.
#[test]
fn claim_race_two_step_at_500_tasks_finds_the_16_step_duplicate_among_the_short_orders() {
    let r = explore(
        "queue-claim-race",
        &[("claim", "two-step")],
        "no-double-claim",
        Options::default(),
    );
    let c = r.counterexample().expect("a duplicate");
    assert_eq!((c.steps.len(), c.switches), (16, 2));
    assert_eq!(c.schedule.to_string(), "u.0~6.1~8.0~2");
    assert!(r.progress.states < 1_000, "{:?}", r.progress);
    assert!(r.exhaustive(), "the shortest there is: {:?}", r.progress);
}

/// Why the duplicate: worker1 reads task 1 (step 5) before worker2's UPDATE writes it
/// (step 13), and worker1 goes on to claim it. worker2's own read (step 11) before
/// worker1's UPDATE is stale too, but worker2's write came first: the earliest write
/// names the pair. The player's replay of the schedule narrates the same.
#[test]
fn claim_race_two_step_names_the_stale_read_and_the_write_that_decide_it() {
    let r = two_step_race();
    let c = r.counterexample().expect("a duplicate");
    let conflict = c.conflict.as_ref().expect("a conflict");
    assert_eq!((conflict.read, conflict.write), (4, 12));
    assert_eq!(
        conflict.summary(),
        "worker1 reads task 1 before worker2's UPDATE writes it; both go on to write it"
    );
    // The sentence's parts, for the interface to word in the reader's language.
    assert_eq!(
        (conflict.reader.as_str(), conflict.writer.as_str()),
        ("worker1", "worker2")
    );
    assert_eq!(conflict.verb, "UPDATE");
    assert_eq!(conflict.row, Some(("task".into(), "1".into())));
    assert_eq!(c.steps[4].reads, [("task".to_string(), "1".to_string())]);
    assert!(c.steps[4].lines.is_empty(), "{:?}", c.steps[4]);
    assert_eq!(c.steps[4].session, "worker1");
    assert!(
        c.steps[12].statement.starts_with("UPDATE"),
        "{:?}",
        c.steps[12]
    );
    assert_eq!(c.steps[12].session, "worker2");

    let l = lesson("queue-claim-race");
    let replayed = lockstep_explore::explain(
        &applied(&l, TWO_STEP_2X3),
        l.seed,
        &c.schedule,
        lockstep_explore::english,
    )
    .unwrap();
    assert_eq!(replayed.steps, c.steps);
    assert_eq!(replayed.conflict, c.conflict);
    assert_eq!(replayed.detail, None);
}

#[test]
fn claim_race_one_statement_holds_for_every_interleaving_at_2x3() {
    let set = &[("claim", "one-statement"), ("tasks", "3")];
    let all = explore(
        "queue-claim-race",
        set,
        "no-double-claim",
        Options::default(),
    );
    assert_eq!(proof(&all), (280, 423, 288, true));
    assert_eq!(all.progress.max_depth, 17);
    // The reductions are real: without sleep sets the same states take more steps and
    // cover every order of independent steps; without pruning the search is a tree.
    let visited = Options {
        sleep_sets: false,
        ..Options::default()
    };
    let r = explore("queue-claim-race", set, "no-double-claim", visited);
    assert_eq!(proof(&r), (280, 474, 33_952, true));
    let none = Options {
        prune_visited: false,
        ..visited
    };
    let r = explore("queue-claim-race", set, "no-double-claim", none);
    assert_eq!(proof(&r), (123_209, 123_208, 33_952, true));
}

#[test]
fn claim_race_conditional_holds_for_every_interleaving_at_2x3() {
    let set = &[("claim", "conditional"), ("tasks", "3")];
    let r = explore(
        "queue-claim-race",
        set,
        "no-double-claim",
        Options::default(),
    );
    assert_eq!(proof(&r), (19_619, 53_839, 64_870_922, true));
}

#[test]
fn send_double_click_calls_twice_without_a_guard_and_once_with_the_application_lock() {
    for guard in ["none", "index-only"] {
        let r = explore(
            "send-double-click",
            &[("guard", guard)],
            "one-receiver-call",
            Options::default(),
        );
        let c = r.counterexample().expect("two calls");
        assert_eq!(text(&c.detail), "got 2 (expected at most 1)", "{guard}");
        assert_eq!((c.steps.len(), c.switches), (12, 1), "{guard}");
        let calls: Vec<String> = c
            .steps
            .iter()
            .map(|s| s.did())
            .filter(|d| d.contains("calls the external system"))
            .collect();
        assert_eq!(calls.len(), 2, "{guard}: {calls:?}");
    }
    let r = explore(
        "send-double-click",
        &[("guard", "applock")],
        "one-receiver-call",
        Options::default(),
    );
    assert_eq!(proof(&r), (1_200, 1_684, 65, true));
}

#[test]
fn queue_wait_or_skip_claims_no_task_twice_with_or_without_readpast() {
    for (readpast, figures) in [("on", (48, 53, 6, true)), ("off", (48, 49, 4, true))] {
        let r = explore(
            "queue-wait-or-skip",
            &[("readpast", readpast)],
            "no-double-claim",
            Options::default(),
        );
        assert_eq!(proof(&r), figures, "readpast={readpast}");
        let r = explore(
            "queue-wait-or-skip",
            &[("readpast", readpast)],
            "no-deadlock",
            Options::default(),
        );
        assert!(r.holds() && r.exhaustive(), "readpast={readpast}");
    }
}

#[test]
fn teradata_consume_loses_no_consumed_row_under_rollback() {
    for (mode, figures) in [
        ("teradata", (1_932, 1_958, 11, true)),
        ("ansi", (2_332, 2_358, 11, true)),
    ] {
        let r = explore(
            "teradata-consume",
            &[("mode", mode), ("end", "rollback")],
            "no-lost-row",
            Options::default(),
        );
        assert_eq!(proof(&r), figures, "mode={mode}");
    }
    // The same promise with COMMIT is broken: the consumed row is gone, not lost under
    // rollback; the property can fail.
    let l = lesson("teradata-consume");
    let property: Property = l
        .properties
        .iter()
        .find(|p| p.name == "no-lost-row")
        .unwrap()
        .clone();
    let applied = applied(&l, &[("end", "commit")]);
    let r = Search::new(&applied, l.seed, property, Options::default())
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(
        text(&r.counterexample().unwrap().detail),
        "got 1 (expected 2)"
    );
}

const DEADLOCK: &str = r#"+++
id = "deadlock"
title = "Opposite orders"
dialect = "tsql"
summary = "Two sessions update two rows in opposite orders."

[[properties]]
name = "no-deadlock"
label = "No deadlock"
holds = "no-deadlock"
+++

```sql setup
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t (id, v) VALUES (1, 0), (2, 0);
```

```sql session=A
BEGIN TRAN;
UPDATE t SET v = 1 WHERE id = 1;
UPDATE t SET v = 1 WHERE id = 2;
COMMIT;
```

```sql session=B
BEGIN TRAN;
UPDATE t SET v = 2 WHERE id = 2;
UPDATE t SET v = 2 WHERE id = 1;
COMMIT;
```
"#;

#[test]
fn opposite_lock_orders_deadlock_in_some_interleaving() {
    let l = Lesson::parse("deadlock.md", DEADLOCK).unwrap();
    let r = search(&l, &[], "no-deadlock", Options::default())
        .run()
        .unwrap();
    let c = r.counterexample().expect("a deadlock");
    assert!(text(&c.detail).contains("error 1205"), "{:?}", c.detail);
    assert_eq!(c.steps.len(), 6, "{:?}", lines(&r));
    // no-errors is broken by the same victim; a property it does not declare is built in.
    let r = search(&l, &[], "no-errors", Options::default())
        .run()
        .unwrap();
    assert!(!r.holds());
}

#[test]
fn bounds_make_a_proof_not_exhaustive_and_a_spent_state_budget_walks() {
    let l = lesson("queue-claim-race");
    let one = &[("claim", "one-statement"), ("tasks", "3")];
    let short = Options {
        max_steps: 10,
        ..Options::default()
    };
    let r = search(&l, one, "no-double-claim", short).run().unwrap();
    assert!(r.holds() && !r.exhaustive());
    assert_eq!((r.progress.max_depth, r.progress.walks), (10, 0));
    let small = Options {
        max_states: 50,
        walks: 20,
        ..Options::default()
    };
    let r = search(&l, one, "no-double-claim", small).run().unwrap();
    assert!(r.holds() && !r.exhaustive());
    assert_eq!((r.progress.states, r.progress.walks), (50, 20));
    // Random walks find the two-step duplicate when the depth-first search cannot.
    let tiny = Options {
        max_states: 5,
        ..Options::default()
    };
    let r = search(&l, TWO_STEP_2X3, "no-double-claim", tiny)
        .run()
        .unwrap();
    let c = r.counterexample().expect("a duplicate from a walk");
    assert_eq!(text(&c.detail), "got 1 (expected 0)");
    assert!(r.progress.walks >= 1 && !r.exhaustive());
}

#[test]
fn a_search_in_slices_reports_as_one_run_and_shows_progress() {
    let l = lesson("queue-claim-race");
    let whole = search(&l, TWO_STEP_2X3, "no-double-claim", Options::default())
        .run()
        .unwrap();
    let mut sliced = search(&l, TWO_STEP_2X3, "no-double-claim", Options::default());
    let mut last = sliced.progress();
    let mut slices = 0;
    while !sliced.step(7).unwrap() {
        let p = sliced.progress();
        assert!(p.transitions >= last.transitions && p.states >= last.states);
        assert!(!p.done);
        last = p;
        slices += 1;
    }
    assert!(slices > 50, "{slices}");
    let report = sliced.report().unwrap();
    assert_eq!(report, &whole);
    assert!(report.progress.done);
    assert!(matches!(report.verdict, Verdict::Violated(_)));
    // A search dropped half-way is cancelled: nothing else to do.
    let mut cancelled = search(&l, TWO_STEP_2X3, "no-double-claim", Options::default());
    assert!(!cancelled.step(3).unwrap());
    drop(cancelled);
}

/// A counterexample's detail as the CLI writes it; empty without one.
fn text(detail: &Option<lesson::Detail>) -> String {
    detail.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// Write skew: below SERIALIZABLE some interleaving starts two reports; at SERIALIZABLE
/// none does (the transaction that would close the cycle fails with 40001), with or
/// without the search's reductions (two steps of serializable transactions never
/// commute: which commits first decides which one fails).
#[test]
fn pg_write_skew_breaks_the_rule_below_serializable_and_never_at_it() {
    for iso in ["read-committed", "repeatable-read"] {
        let r = explore(
            "pg-write-skew",
            &[("isolation", iso)],
            "one-report-running",
            Options::default(),
        );
        let c = r.counterexample().expect("two reports");
        assert_eq!(text(&c.detail), "got 2 (expected at most 1)", "{iso}");
    }
    let set = &[("isolation", "serializable")];
    let r = explore(
        "pg-write-skew",
        set,
        "one-report-running",
        Options::default(),
    );
    assert_eq!(proof(&r), (107, 119, 42, true));
    let none = Options {
        sleep_sets: false,
        prune_visited: false,
        ..Options::default()
    };
    let r = explore("pg-write-skew", set, "one-report-running", none);
    assert_eq!(proof(&r), (1_715, 1_714, 462, true));
    // What it costs: some interleavings end with a worker's 40001.
    let r = explore("pg-write-skew", set, "no-errors", Options::default());
    let c = r.counterexample().expect("a serialization failure");
    assert!(
        text(&c.detail).contains(
            "gets error 40001: could not serialize access due to read/write dependencies"
        ),
        "{}",
        text(&c.detail)
    );
}

/// A foreign key keeps every run's job in every interleaving: a DELETE before the
/// worker's INSERT makes the insert fail (23503), one after waits for the worker's
/// FOR KEY SHARE and then fails itself. Without the key some interleaving leaves a run
/// whose job is gone.
#[test]
fn a_foreign_key_leaves_no_orphan_in_any_interleaving() {
    let on = &[("admin", "delete"), ("fk", "on")];
    let r = explore(
        "pg-foreign-key-locks",
        on,
        "no-orphan-run",
        Options::default(),
    );
    assert_eq!(proof(&r), (23, 26, 4, true));
    let off = &[("admin", "delete"), ("fk", "off")];
    let r = explore(
        "pg-foreign-key-locks",
        off,
        "no-orphan-run",
        Options::default(),
    );
    let c = r.counterexample().expect("an orphan run");
    assert_eq!(text(&c.detail), "got 1 (expected 0)");
}
