//! PostgreSQL's SERIALIZABLE: serializable snapshot isolation. Each test is an
//! interleaving of two or three sessions, one step every 100 ms, run the same way on a
//! PostgreSQL 15 server with psql; the comment under each name says what psql printed,
//! and the test asserts which session failed, at which step, with which SQLSTATE.

use engine::{Dialect, Simulation};

use super::support::{errors_of, scenario_in};

/// Runs `steps` (session, statement), the k-th at k × 100 ms: each session sleeps
/// (`pg_sleep`) until its next step. Returns the simulation and, per step, the
/// session's script line it is on.
fn interleave(setup: &str, steps: &[(&str, &str)]) -> (Simulation, Vec<u32>) {
    let mut scripts: Vec<(&str, u64, Vec<String>)> = Vec::new();
    let mut lines = Vec::new();
    for (k, (name, sql)) in steps.iter().enumerate() {
        let at = k as u64 * 100;
        let s = match scripts.iter().position(|s| s.0 == *name) {
            Some(p) => &mut scripts[p],
            None => {
                scripts.push((name, at, Vec::new()));
                scripts.last_mut().unwrap()
            }
        };
        // Where the session is (its last step ended within a millisecond of it).
        let now = s.1;
        if at > now {
            s.2.push(format!("SELECT pg_sleep({});", (at - now) as f64 / 1000.0));
        }
        s.2.push((*sql).to_string());
        s.1 = at + 1;
        lines.push(s.2.len() as u32);
    }
    let texts: Vec<String> = scripts.iter().map(|s| s.2.join("\n")).collect();
    let starts: Vec<u64> = steps
        .iter()
        .enumerate()
        .fold(Vec::new(), |mut acc: Vec<(&str, u64)>, (k, (n, _))| {
            if !acc.iter().any(|(m, _)| m == n) {
                acc.push((n, k as u64 * 100_000));
            }
            acc
        })
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    let sessions: Vec<(&str, u64, &str)> = (scripts.iter().zip(&starts).zip(&texts))
        .map(|((s, t), text)| (s.0, *t, text.as_str()))
        .collect();
    let sc = scenario_in(Dialect::Postgres, setup, &sessions);
    let mut sim = Simulation::new(&sc, 1).unwrap_or_else(|e| panic!("{e:?}"));
    sim.run().unwrap();
    (sim, lines)
}

/// Session `name`'s first error: its SQLSTATE and the step it came at.
fn first_error(
    sim: &Simulation,
    lines: &[u32],
    steps: &[(&str, &str)],
    name: &str,
) -> Option<(&'static str, usize)> {
    let e = errors_of(sim, name).into_iter().find(|e| !e.caught)?;
    let line = e.at.map(|a| a.line)?;
    let step = (0..steps.len()).find(|k| steps[*k].0 == name && lines[*k] == line)?;
    Some((e.sqlstate.unwrap_or("none"), step))
}

/// The reason code of session `name`'s first error (psql's DETAIL line).
fn reason(sim: &Simulation, name: &str) -> String {
    let e = errors_of(sim, name).into_iter().next().expect("an error");
    let (_, reason) = e
        .message
        .split_once("Reason code: ")
        .expect("a reason code");
    reason.trim_end_matches(')').to_string()
}

const DOCTORS: &str = "CREATE TABLE doc (name text PRIMARY KEY, on_call bool);
INSERT INTO doc VALUES ('alice', true), ('bob', true);";

/// Write skew: each reads that two are on call, each takes one off.
const WRITE_SKEW: [(&str, &str); 8] = [
    ("A", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
    ("A", "SELECT count(*) FROM doc WHERE on_call;"),
    ("B", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
    ("B", "SELECT count(*) FROM doc WHERE on_call;"),
    ("A", "UPDATE doc SET on_call = false WHERE name = 'alice';"),
    ("B", "UPDATE doc SET on_call = false WHERE name = 'bob';"),
    ("A", "COMMIT;"),
    ("B", "COMMIT;"),
];

#[test]
fn write_skew_fails_the_second_commit() {
    // psql: A's COMMIT commits; B's COMMIT: ERROR 40001 could not serialize access due
    // to read/write dependencies among transactions (pivot, during commit attempt).
    let (sim, lines) = interleave(DOCTORS, &WRITE_SKEW);
    assert_eq!(first_error(&sim, &lines, &WRITE_SKEW, "A"), None);
    assert_eq!(
        first_error(&sim, &lines, &WRITE_SKEW, "B"),
        Some(("40001", 7))
    );
    let e = &errors_of(&sim, "B")[0];
    assert_eq!(
        e.message,
        "could not serialize access due to read/write dependencies among transactions \
         (DETAIL: Reason code: Canceled on identification as a pivot, during commit attempt.)"
    );
}

#[test]
fn write_skew_fails_whichever_commits_second() {
    // psql: B's COMMIT commits; A's fails with 40001.
    let mut steps = WRITE_SKEW;
    steps.swap(6, 7);
    let (sim, lines) = interleave(DOCTORS, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "B"), None);
    assert_eq!(first_error(&sim, &lines, &steps, "A"), Some(("40001", 7)));
}

#[test]
fn repeatable_read_lets_write_skew_commit() {
    // psql: both commit, and nobody is on call.
    let steps = WRITE_SKEW.map(|(n, s)| (n, s.replace("SERIALIZABLE", "REPEATABLE READ")));
    let steps: Vec<(&str, &str)> = steps.iter().map(|(n, s)| (*n, s.as_str())).collect();
    let (mut sim, _) = interleave(DOCTORS, &steps);
    assert!(errors_of(&sim, "A").is_empty() && errors_of(&sim, "B").is_empty());
    let rows = sim.query("SELECT count(*) FROM doc WHERE on_call").unwrap();
    assert_eq!(rows.rows, vec![vec![engine::Value::Int(0)]]);
}

#[test]
fn a_doomed_transaction_fails_at_its_next_read_of_a_changed_row() {
    // psql: after A commits, B's `SELECT 1` runs; its read of bob's row (which B
    // itself changed, with A's change on the page) fails with 40001.
    let mut steps = WRITE_SKEW[..7].to_vec();
    steps.push(("B", "SELECT 1;"));
    steps.push(("B", "SELECT name FROM doc WHERE name = 'bob';"));
    steps.push(("B", "COMMIT;"));
    let (sim, lines) = interleave(DOCTORS, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "B"), Some(("40001", 8)));
    assert_eq!(
        reason(&sim, "B"),
        "Canceled on identification as a pivot, during conflict out checking."
    );
}

const GROUPS: &str = "CREATE TABLE t (id int PRIMARY KEY, grp int);";

#[test]
fn an_insert_after_the_other_committed_fails_as_it_writes() {
    // Two read a group (a sequential scan: the whole table), A inserts into it and
    // commits; B's insert fails at once (pivot, during write).
    let steps = [
        ("A", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("A", "SELECT count(*) FROM t WHERE grp = 1;"),
        ("B", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("B", "SELECT count(*) FROM t WHERE grp = 1;"),
        ("A", "INSERT INTO t VALUES (1, 1);"),
        ("A", "COMMIT;"),
        ("B", "INSERT INTO t VALUES (2, 1);"),
        ("B", "COMMIT;"),
    ];
    let (sim, lines) = interleave(GROUPS, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "A"), None);
    assert_eq!(first_error(&sim, &lines, &steps, "B"), Some(("40001", 6)));
    assert_eq!(
        reason(&sim, "B"),
        "Canceled on identification as a pivot, during write."
    );
}

#[test]
fn disjoint_rows_read_by_index_both_commit() {
    // psql: each reads and updates its own account by its primary key (index scans):
    // no dependency crosses, both commit.
    let setup = "CREATE TABLE acct (id int PRIMARY KEY, bal int);
INSERT INTO acct SELECT g, 100 FROM generate_series(1, 3) g;";
    let steps = [
        ("A", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("A", "SELECT bal FROM acct WHERE id = 1;"),
        ("B", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("B", "SELECT bal FROM acct WHERE id = 2;"),
        ("A", "UPDATE acct SET bal = bal + 1 WHERE id = 1;"),
        ("B", "UPDATE acct SET bal = bal + 1 WHERE id = 2;"),
        ("A", "COMMIT;"),
        ("B", "COMMIT;"),
    ];
    let (sim, _) = interleave(setup, &steps);
    assert!(errors_of(&sim, "A").is_empty() && errors_of(&sim, "B").is_empty());
}

#[test]
fn inserts_into_one_index_page_conflict_though_their_keys_differ() {
    // psql: each looks for its own (room, day) by the primary key and inserts it; the
    // keys differ, but both reads and both inserts are on the index's one leaf page,
    // so B's COMMIT fails with 40001 (a false positive PostgreSQL accepts).
    let setup = "CREATE TABLE booking (room int, day int, who text, PRIMARY KEY (room, day));";
    let steps = [
        ("A", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        (
            "A",
            "SELECT count(*) FROM booking WHERE room = 1 AND day = 5;",
        ),
        ("B", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        (
            "B",
            "SELECT count(*) FROM booking WHERE room = 2 AND day = 5;",
        ),
        ("A", "INSERT INTO booking VALUES (1, 5, 'a');"),
        ("B", "INSERT INTO booking VALUES (2, 5, 'b');"),
        ("A", "COMMIT;"),
        ("B", "COMMIT;"),
    ];
    let (sim, lines) = interleave(setup, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "A"), None);
    assert_eq!(first_error(&sim, &lines, &steps, "B"), Some(("40001", 7)));
}

const RECEIPTS: &str = "CREATE TABLE ctl (k int PRIMARY KEY, deposit_no int);
INSERT INTO ctl VALUES (1, 1);
CREATE TABLE receipt (id serial PRIMARY KEY, deposit_no int, amount int);";

#[test]
fn a_read_only_report_makes_the_receipt_a_pivot() {
    // The read-only anomaly (Fekete, O'Neil and O'Neil): A reads the batch number, B
    // closes the batch and commits, C reports on the closed batch; A's receipt into the
    // closed batch would contradict C's report. psql: A's INSERT fails (pivot, during
    // write); B and C commit.
    let steps = [
        ("A", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("A", "SELECT deposit_no FROM ctl WHERE k = 1;"),
        ("B", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        (
            "B",
            "UPDATE ctl SET deposit_no = deposit_no + 1 WHERE k = 1;",
        ),
        ("B", "COMMIT;"),
        ("C", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("C", "SELECT deposit_no FROM ctl WHERE k = 1;"),
        ("C", "SELECT count(*) FROM receipt WHERE deposit_no = 1;"),
        (
            "A",
            "INSERT INTO receipt (deposit_no, amount) VALUES (1, 100);",
        ),
        ("A", "COMMIT;"),
        ("C", "COMMIT;"),
    ];
    let (sim, lines) = interleave(RECEIPTS, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "A"), Some(("40001", 8)));
    assert_eq!(
        reason(&sim, "A"),
        "Canceled on identification as a pivot, during write."
    );
    assert_eq!(first_error(&sim, &lines, &steps, "B"), None);
    assert_eq!(first_error(&sim, &lines, &steps, "C"), None);
    // psql: the same when C has committed before A's INSERT.
    let mut later = steps.to_vec();
    let c_commit = later.remove(10);
    later.insert(8, c_commit);
    let (sim, lines) = interleave(RECEIPTS, &later);
    assert_eq!(first_error(&sim, &lines, &later, "A"), Some(("40001", 9)));
    assert_eq!(first_error(&sim, &lines, &later, "C"), None);
}

#[test]
fn a_delete_and_an_update_each_over_the_others_read_fail_the_later_commit() {
    // A sums rows 1-3 and deletes row 4, which B read; B updates row 2, which A read.
    // psql: B commits first, A's COMMIT fails with 40001.
    let setup = "CREATE TABLE item (id int PRIMARY KEY, qty int);
INSERT INTO item VALUES (1, 5), (2, 5), (3, 5), (4, 5);";
    let steps = [
        ("A", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("A", "SELECT sum(qty) FROM item WHERE id IN (1, 2, 3);"),
        ("B", "BEGIN ISOLATION LEVEL SERIALIZABLE;"),
        ("B", "SELECT qty FROM item WHERE id = 4;"),
        ("A", "DELETE FROM item WHERE id = 4;"),
        ("B", "UPDATE item SET qty = 0 WHERE id = 2;"),
        ("B", "COMMIT;"),
        ("A", "COMMIT;"),
    ];
    let (sim, lines) = interleave(setup, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "B"), None);
    assert_eq!(first_error(&sim, &lines, &steps, "A"), Some(("40001", 7)));
}

/// Parses the interleaving format psql runs were written in: setup lines, then
/// `A: statement` steps.
fn steps_of(text: &str) -> (String, Vec<(&str, &str)>) {
    let mut setup = Vec::new();
    let mut steps = Vec::new();
    for line in text.lines() {
        match line.split_once(": ") {
            Some((s @ ("A" | "B" | "C"), sql)) => steps.push((s, sql)),
            _ => setup.push(line),
        }
    }
    (setup.join("\n"), steps)
}

/// Each case as psql ran it on PostgreSQL 15: the first error of each session that
/// got one (step, SQLSTATE, reason code).
fn agrees(text: &str, expected: &[(&str, usize, &str)]) {
    let (setup, steps) = steps_of(text);
    let (sim, lines) = interleave(&setup, &steps);
    for name in ["A", "B", "C"] {
        if !steps.iter().any(|s| s.0 == name) {
            continue;
        }
        let want = expected.iter().find(|e| e.0 == name);
        let got = first_error(&sim, &lines, &steps, name);
        assert_eq!(
            got.map(|g| g.1),
            want.map(|w| w.1),
            "{name}'s first error's step"
        );
        if let Some((_, _, why)) = want {
            assert_eq!(got.map(|g| g.0), Some("40001"), "{name}");
            assert_eq!(reason(&sim, name), *why, "{name}");
        }
    }
}

#[test]
fn an_aggregate_on_the_primary_key_reads_by_the_index() {
    // `sum(bal) ... WHERE id = 1` is an index scan on the server: no whole-table mark,
    // so two accounts updated apart do not conflict.
    agrees(
        "CREATE TABLE acct (id int PRIMARY KEY, bal int);
INSERT INTO acct SELECT g, 100 FROM generate_series(1, 3) g;
A: BEGIN ISOLATION LEVEL SERIALIZABLE;
A: SELECT sum(bal) FROM acct WHERE id = 1;
B: BEGIN ISOLATION LEVEL SERIALIZABLE;
B: SELECT sum(bal) FROM acct WHERE id = 2;
A: UPDATE acct SET bal = bal + 1 WHERE id = 1;
B: UPDATE acct SET bal = bal + 1 WHERE id = 2;
A: COMMIT;
B: COMMIT;",
        &[],
    );
}

#[test]
fn a_writer_drops_its_own_mark_on_the_row_it_writes() {
    // A updates row 1 (its read mark on it goes), then reads rows 2 and 3: two row
    // marks on the page, not three, so no page mark covers B's update of row 4.
    let case = "CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t SELECT g, 0 FROM generate_series(1, 6) g;
CREATE TABLE u (id int PRIMARY KEY, v int);
INSERT INTO u VALUES (1, 0);
A: BEGIN ISOLATION LEVEL SERIALIZABLE;
A: UPDATE t SET v = 1 WHERE id = 1;
A: SELECT v FROM t WHERE id = 2;
A: SELECT v FROM t WHERE id = 3;
B: BEGIN ISOLATION LEVEL SERIALIZABLE;
B: SELECT v FROM u WHERE id = 1;
B: UPDATE t SET v = 1 WHERE id = 4;
A: UPDATE u SET v = 1 WHERE id = 1;
A: COMMIT;
B: COMMIT;";
    agrees(case, &[]);
    // Inside a savepoint the mark stays (the write could be rolled back): the page is
    // marked and B's COMMIT fails.
    let sp = case.replace(
        "A: UPDATE t SET v = 1 WHERE id = 1;",
        "A: SAVEPOINT s;\nA: UPDATE t SET v = 1 WHERE id = 1;",
    );
    agrees(
        &sp,
        &[(
            "B",
            10,
            "Canceled on identification as a pivot, during commit attempt.",
        )],
    );
}

#[test]
fn rows_fill_heap_pages_in_order() {
    // 500 rows of two ints, 226 to a page: rows 10 and 200-202 share page 0, so A's three
    // reads mark the page B's update of row 10 is on.
    agrees(
        "CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t SELECT g, 0 FROM generate_series(1, 500) g;
CREATE TABLE u (id int PRIMARY KEY, v int);
INSERT INTO u VALUES (1, 0);
A: BEGIN ISOLATION LEVEL SERIALIZABLE;
B: BEGIN ISOLATION LEVEL SERIALIZABLE;
A: SELECT v FROM t WHERE id = 200;
A: SELECT v FROM t WHERE id = 201;
A: SELECT v FROM t WHERE id = 202;
B: SELECT v FROM u WHERE id = 1;
B: UPDATE t SET v = 1 WHERE id = 10;
A: UPDATE u SET v = 1 WHERE id = 1;
A: COMMIT;
B: COMMIT;",
        &[(
            "B",
            9,
            "Canceled on identification as a pivot, during commit attempt.",
        )],
    );
}

#[test]
fn a_duplicate_key_is_a_serialization_failure_when_the_index_read_conflicts() {
    // Both look for key 5, both insert it; B waits for A's key, and when A commits its
    // unique check checks the index page A read before it reports a duplicate.
    agrees(
        "CREATE TABLE t (id int PRIMARY KEY, v int);
A: BEGIN ISOLATION LEVEL SERIALIZABLE;
B: BEGIN ISOLATION LEVEL SERIALIZABLE;
A: SELECT count(*) FROM t WHERE id = 5;
B: SELECT count(*) FROM t WHERE id = 5;
A: INSERT INTO t VALUES (5, 1);
B: INSERT INTO t VALUES (5, 2);
A: COMMIT;
B: COMMIT;",
        &[(
            "B",
            5,
            "Canceled on identification as a pivot, during write.",
        )],
    );
}

#[test]
fn an_index_scan_meets_only_the_replacer_of_the_version_it_sees() {
    // B (REPEATABLE READ, untracked) replaced the row A's snapshot sees, then C
    // (SERIALIZABLE) replaced B's. A's index scan stops at the version it sees, whose
    // replacer is B: no dependency on C, and nothing fails.
    agrees(
        "CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 0);
CREATE TABLE u (id int PRIMARY KEY, v int);
INSERT INTO u VALUES (1, 0);
A: BEGIN ISOLATION LEVEL SERIALIZABLE;
A: SELECT v FROM u WHERE id = 2;
B: BEGIN ISOLATION LEVEL REPEATABLE READ;
B: UPDATE t SET v = 1 WHERE id = 1;
B: COMMIT;
C: BEGIN ISOLATION LEVEL SERIALIZABLE;
C: SELECT v FROM u WHERE id = 1;
C: UPDATE t SET v = 2 WHERE id = 1;
C: COMMIT;
A: SELECT v FROM t WHERE id = 1;
A: UPDATE u SET v = 1 WHERE id = 1;
A: COMMIT;",
        &[],
    );
}

#[test]
fn a_doomed_transaction_reads_an_empty_table_and_fails_at_commit() {
    let mut steps = WRITE_SKEW[..7].to_vec();
    steps.push(("B", "SELECT count(*) FROM empty;"));
    steps.push(("B", "COMMIT;"));
    let setup = format!("{DOCTORS}\nCREATE TABLE empty (x int);");
    let (sim, lines) = interleave(&setup, &steps);
    assert_eq!(first_error(&sim, &lines, &steps, "B"), Some(("40001", 8)));
    assert_eq!(
        reason(&sim, "B"),
        "Canceled on identification as a pivot, during commit attempt."
    );
}

#[test]
fn an_exception_block_catches_the_failure_by_its_condition_name() {
    // B's insert would close the structure; `EXCEPTION WHEN serialization_failure`
    // catches it, the block's writes are undone, and B commits what is left.
    agrees(
        "CREATE TABLE t (id int PRIMARY KEY, grp int);
A: BEGIN ISOLATION LEVEL SERIALIZABLE;
A: SELECT count(*) FROM t WHERE grp = 1;
B: BEGIN ISOLATION LEVEL SERIALIZABLE;
B: SELECT count(*) FROM t WHERE grp = 1;
A: INSERT INTO t VALUES (1, 1);
A: COMMIT;
B: DO $$ BEGIN INSERT INTO t VALUES (2, 1); EXCEPTION WHEN serialization_failure THEN RAISE NOTICE 'caught'; END $$;
B: SELECT count(*) FROM t;
B: COMMIT;",
        &[],
    );
}
