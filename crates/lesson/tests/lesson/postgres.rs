//! The PostgreSQL dialect: small two-session scripts, each asserting one rule of
//! semantics.md Part C and saying which behaviour of a real PostgreSQL 15 it mirrors.

use engine::{Dialect, Simulation, Value};

use super::support::{errors_of, scenario_in, session_of};

/// PostgreSQL scripts, `(session, start in ms, sql)`, ready to run.
fn pg_sim(setup: &str, sessions: &[(&str, u64, &str)]) -> Simulation {
    let sessions: Vec<(&str, u64, &str)> = sessions
        .iter()
        .map(|(n, ms, sql)| (*n, ms * 1000, *sql))
        .collect();
    let sc = scenario_in(Dialect::Postgres, setup, &sessions);
    Simulation::new(&sc, 1).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Runs PostgreSQL scripts: `(session, start in ms, sql)`.
pub(super) fn pg(setup: &str, sessions: &[(&str, u64, &str)]) -> Simulation {
    let mut sim = pg_sim(setup, sessions);
    sim.run().unwrap();
    sim
}

/// [`pg`], traced: the trace's lines that start with one of `prefixes`.
pub(super) fn pg_trace(
    setup: &str,
    sessions: &[(&str, u64, &str)],
    prefixes: &[&str],
) -> Vec<String> {
    let trace = pg_sim(setup, sessions).run_traced().unwrap();
    (trace.entries.iter())
        .map(|e| e.event.to_string())
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect()
}

const TASKS: &str =
    "CREATE TABLE task (id serial PRIMARY KEY, status text NOT NULL DEFAULT 'new', owner text);
INSERT INTO task (status) VALUES ('new'), ('new'), ('new');";

/// A holds task 1 (claimed, not committed) for two seconds.
const HOLDER: &str = "BEGIN;
SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE;
UPDATE task SET status = 'taken', owner = 'A' WHERE id = 1;
SELECT pg_sleep(2);
COMMIT;";

pub(super) fn wait_ms(sim: &Simulation, name: &str) -> u64 {
    let o = sim.outcome();
    o.sessions.iter().find(|s| s.name == name).unwrap().wait_us / 1000
}

/// Session `name`'s result sets, as rows of values.
pub(super) fn results(sim: &Simulation, name: &str) -> Vec<Vec<Vec<Value>>> {
    let o = sim.outcome();
    let s = o.sessions.into_iter().find(|s| s.name == name).unwrap();
    s.results.into_iter().map(|r| r.rows).collect()
}

/// The SQLSTATE of each error session `name` got.
pub(super) fn sqlstates(sim: &Simulation, name: &str) -> Vec<&'static str> {
    errors_of(sim, name)
        .iter()
        .map(|e| e.sqlstate.unwrap_or("none"))
        .collect()
}

/// The messages of the errors session `name` got.
pub(super) fn messages(sim: &Simulation, name: &str) -> Vec<String> {
    errors_of(sim, name)
        .into_iter()
        .map(|e| e.message)
        .collect()
}

/// Session `name`'s errors, as (SQLSTATE, message), are `expected`.
fn assert_errors(sim: &Simulation, name: &str, expected: &[(&str, &str)]) {
    let got: Vec<(&str, String)> = errors_of(sim, name)
        .into_iter()
        .map(|e| (e.sqlstate.unwrap_or("none"), e.message))
        .collect();
    let expected: Vec<(&str, String)> = expected.iter().map(|(s, m)| (*s, m.to_string())).collect();
    assert_eq!(got, expected, "{name}'s errors");
}

/// What a traced run printed (RAISE NOTICE, warnings), in order.
fn printed(trace: &engine::Trace) -> Vec<String> {
    (trace.entries.iter())
        .filter_map(|e| match &e.event {
            engine::Event::Printed { text, .. } => Some(text.to_string()),
            _ => None,
        })
        .collect()
}

/// One-column integer rows: `ids(&[1, 3])` is the result `1`, `3`.
fn ids(ns: &[i64]) -> Vec<Vec<Value>> {
    ns.iter().map(|&n| vec![Value::Int(n)]).collect()
}

fn final_rows(sim: &mut Simulation, sql: &str) -> Vec<Vec<Value>> {
    sim.query(sql).unwrap_or_else(|e| panic!("{e:?}")).rows
}

/// Real server: `SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1` while another session holds
/// the first row returns the second at once.
#[test]
fn skip_locked_returns_the_next_row_at_once() {
    let claim = "BEGIN;
SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED;
COMMIT;";
    let sim = pg(TASKS, &[("A", 0, HOLDER), ("B", 500, claim)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(results(&sim, "B"), [vec![vec![Value::Int(2)]]]);
}

/// Real server (checked): a plain `FOR UPDATE` claim waits for the holder, then
/// re-checks task 1's new version (EvalPlanQual), finds it no longer 'new' and returns
/// task 2; it keeps the lock it waited for on task 1 (a NOWAIT on it fails).
#[test]
fn for_update_waits_then_returns_the_next_row() {
    let claim = "BEGIN;
SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE;
SELECT pg_sleep(1);
COMMIT;";
    let probe = "SELECT id FROM task WHERE id = 1 FOR UPDATE NOWAIT;";
    let sim = pg(
        TASKS,
        &[("A", 0, HOLDER), ("B", 500, claim), ("C", 2500, probe)],
    );
    assert_eq!(sqlstates(&sim, "C"), ["55P03"]);
    assert!(
        (1499..=1501).contains(&wait_ms(&sim, "B")),
        "{}",
        wait_ms(&sim, "B")
    );
    assert_eq!(results(&sim, "B"), [vec![vec![Value::Int(2)]]]);
}

/// Real server: a plain SELECT never waits for a row lock; in READ COMMITTED it sees the
/// last committed version (A's uncommitted claim is invisible), then A's commit.
#[test]
fn readers_never_block_and_see_committed_versions() {
    let reader = "SELECT owner FROM task WHERE id = 1;
SELECT pg_sleep(2);
SELECT owner FROM task WHERE id = 1;";
    let sim = pg(TASKS, &[("A", 0, HOLDER), ("B", 500, reader)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(
        results(&sim, "B"),
        [vec![vec![Value::Null]], vec![vec![Value::Text("A".into())]]]
    );
}

/// Real server (the documentation's conflict table): UPDATE of a non-key column takes
/// FOR NO KEY UPDATE, which FOR KEY SHARE does not conflict with, while FOR SHARE does.
#[test]
fn key_share_passes_an_update_and_share_waits_for_it() {
    for (clause, waits) in [("FOR KEY SHARE", false), ("FOR SHARE", true)] {
        let updater = "BEGIN;
UPDATE task SET owner = 'A' WHERE id = 1;
SELECT pg_sleep(2);
COMMIT;";
        let locker = format!("BEGIN;\nSELECT id FROM task WHERE id = 1 {clause};\nCOMMIT;");
        let sim = pg(TASKS, &[("A", 0, updater), ("B", 500, &locker)]);
        assert_eq!(wait_ms(&sim, "B") > 1000, waits, "{clause}");
    }
}

/// Real server: NOWAIT on a locked row fails at once (55P03); SKIP LOCKED and NOWAIT
/// need no special isolation level.
#[test]
fn nowait_fails_at_once() {
    let claim = "BEGIN;
SELECT id FROM task WHERE id = 1 FOR UPDATE NOWAIT;
COMMIT;";
    let sim = pg(TASKS, &[("A", 0, HOLDER), ("B", 500, claim)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(sqlstates(&sim, "B"), ["55P03"]);
    // NOWAIT's own words (C1), not lock_timeout's.
    let e = &errors_of(&sim, "B")[0];
    assert_eq!(
        e.message,
        "could not obtain lock on row in relation \"task\""
    );
    // The trace never says B waits: it asks with NOWAIT, and gives up at once.
    let b = pg_trace(
        TASKS,
        &[("A", 0, HOLDER), ("B", 500, claim)],
        &["B asks", "B waits", "B does not"],
    );
    assert_eq!(
        b,
        [
            "B asks for FOR UPDATE on TUPLE task (1) with NOWAIT: A holds FOR UPDATE",
            "B does not wait for TUPLE task (1) (NOWAIT)"
        ]
    );
}

/// Real server: now() (and CURRENT_TIMESTAMP, transaction_timestamp()) is the start of
/// the transaction, the same all through it; statement_timestamp() is the statement's
/// start and clock_timestamp() the clock as it reads, even inside one statement.
#[test]
fn now_is_the_transactions_start_and_clock_timestamp_moves_on() {
    let script = "SELECT pg_sleep(0.5);
BEGIN;
SELECT now() AS n1, clock_timestamp() AS c1;
SELECT pg_sleep(1);
SELECT now() AS n2, CURRENT_TIMESTAMP AS ct, transaction_timestamp() AS tt, statement_timestamp() AS s2, clock_timestamp() AS c2;
COMMIT;
SELECT now() AS n3;";
    let sim = pg(TASKS, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    let r = results(&sim, "A");
    let at = |k: usize, c: usize| match &r[k][0][c] {
        Value::DateTime(us, _) => *us,
        other => panic!("{other:?}"),
    };
    // Result sets (pg_sleep returns none here): 0 n1 c1, 1 n2 ct tt s2 c2, 2 n3.
    let began = at(0, 0);
    assert_eq!([at(1, 0), at(1, 1), at(1, 2)], [began; 3]);
    assert!(at(0, 1) >= began && at(0, 1) < began + 1_000);
    let second = at(1, 3);
    assert!(
        second >= began + 1_000_000,
        "statement_timestamp {second} vs {began}"
    );
    assert!(at(1, 4) >= second);
    // After COMMIT, a new transaction: its own start.
    assert!(at(2, 0) > second);
}

/// Real server: each statement outside BEGIN commits on its own (psql's autocommit),
/// and `RETURNING` gives the changed row.
#[test]
fn autocommit_per_statement_and_returning() {
    let claim = "UPDATE task SET status = 'taken', owner = 'B' WHERE id = 2 RETURNING id, owner;
SELECT pg_sleep(1);";
    let mut sim = pg(TASKS, &[("B", 0, claim)]);
    assert_eq!(
        results(&sim, "B"),
        [vec![vec![Value::Int(2), Value::Text("B".into())]]]
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT owner FROM task WHERE status = 'taken'"),
        [vec![Value::Text("B".into())]]
    );
}

/// Real server: `SET lock_timeout = '500ms'` then a wait for a held row ends after
/// 500 ms with 55P03 ("canceling statement due to lock timeout").
#[test]
fn lock_timeout_ends_a_wait_with_55p03() {
    let claim = "SET lock_timeout = '500ms';
BEGIN;
UPDATE task SET owner = 'B' WHERE id = 1;
COMMIT;";
    let sim = pg(TASKS, &[("A", 0, HOLDER), ("B", 500, claim)]);
    assert_eq!(wait_ms(&sim, "B"), 500);
    assert_eq!(sqlstates(&sim, "B"), ["55P03"]);
    let e = &errors_of(&sim, "B")[0];
    assert_eq!(e.message, "canceling statement due to lock timeout");
}

/// Real server (checked): an error inside BEGIN ends the transaction at once (another
/// session can lock its rows right away), and every later statement but ROLLBACK or
/// COMMIT fails with 25P02, pg_sleep included.
#[test]
fn an_error_fails_the_block_until_rollback() {
    let failing = "BEGIN;
SELECT id FROM task WHERE id = 1 FOR UPDATE;
SELECT 1/0;
SELECT pg_sleep(1);
SELECT 1;
ROLLBACK;
SELECT 2;";
    let locker = "SELECT id FROM task WHERE id = 1 FOR UPDATE NOWAIT;";
    let sim = pg(TASKS, &[("A", 0, failing), ("B", 100, locker)]);
    assert_eq!(sqlstates(&sim, "A"), ["22012", "25P02", "25P02"]);
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![Value::Int(1)]], vec![vec![Value::Int(2)]]]
    );
    assert!(
        sqlstates(&sim, "B").is_empty(),
        "the lock went with the error"
    );
    assert_eq!(results(&sim, "B"), [vec![vec![Value::Int(1)]]]);
}

/// PostgreSQL reports the error, then aborts its transaction (AbortTransaction releases
/// the locks): the trace says so in that order.
#[test]
fn the_error_comes_before_the_rollback_it_causes() {
    let failing = "BEGIN;
SELECT id FROM task WHERE id = 1 FOR UPDATE;
SELECT 1/0;
ROLLBACK;";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, failing)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let lines: Vec<String> = trace.entries.iter().map(|e| e.event.to_string()).collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(needle))
            .unwrap_or_else(|| panic!("no `{needle}` in {lines:#?}"))
    };
    assert!(at("A gets error 22012") < at("A rolls back (error 22012)"));
    assert!(at("A rolls back (error 22012)") < at("A releases"));
}

/// Real server: COMMIT or ROLLBACK with no transaction, and BEGIN inside one, only warn.
#[test]
fn transaction_control_out_of_place_only_warns() {
    let script = "COMMIT;
ROLLBACK;
BEGIN;
BEGIN;
UPDATE task SET owner = 'A' WHERE id = 1;
COMMIT;
ROLLBACK;";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, script)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert!(sqlstates(&sim, "A").is_empty());
    // psql: WARNING 25P01 twice, 25001, then 25P01 for the last ROLLBACK.
    let none = "WARNING:  there is no transaction in progress";
    assert_eq!(
        printed(&trace),
        [
            none,
            none,
            "WARNING:  there is already a transaction in progress",
            none
        ]
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT owner FROM task WHERE id = 1"),
        [vec![Value::Text("A".into())]]
    );
}

/// Real server: in REPEATABLE READ, claiming a row another session changed and committed
/// after this transaction's snapshot fails with 40001; in READ COMMITTED the same
/// UPDATE re-checks the new version and changes nothing.
#[test]
fn repeatable_read_fails_with_40001_where_read_committed_rechecks() {
    for (level, states, owner) in [
        ("REPEATABLE READ", vec!["40001"], "A"),
        ("READ COMMITTED", vec![], "A"),
    ] {
        let claim = format!(
            "BEGIN ISOLATION LEVEL {level};
SELECT count(*) FROM task;
SELECT pg_sleep(1);
UPDATE task SET owner = 'B' WHERE id = 1 AND owner IS NULL;
COMMIT;"
        );
        let quick = "UPDATE task SET owner = 'A' WHERE id = 1;";
        let mut sim = pg(TASKS, &[("B", 0, &claim), ("A", 500, quick)]);
        assert_eq!(sqlstates(&sim, "B"), states, "{level}");
        assert_eq!(
            final_rows(&mut sim, "SELECT owner FROM task WHERE id = 1"),
            [vec![Value::Text(owner.into())]],
            "{level}"
        );
    }
}

/// Real server: a second insert of a key waits for the first inserter, then fails with
/// 23505 when it commits; a partial unique index only covers its rows.
#[test]
fn unique_and_partial_unique_indexes_fail_with_23505() {
    let setup = "CREATE TABLE send (id serial PRIMARY KEY, doc int NOT NULL, state text NOT NULL);
CREATE UNIQUE INDEX one_open ON send (doc) WHERE state = 'open';
INSERT INTO send (doc, state) VALUES (1, 'done');";
    let first = "BEGIN;
INSERT INTO send (doc, state) VALUES (1, 'open');
SELECT pg_sleep(1);
COMMIT;";
    let second = "INSERT INTO send (doc, state) VALUES (1, 'open');
INSERT INTO send (doc, state) VALUES (1, 'done');";
    let mut sim = pg(setup, &[("A", 0, first), ("B", 200, second)]);
    assert_eq!(sqlstates(&sim, "B"), ["23505"]);
    assert!(wait_ms(&sim, "B") >= 700, "{}", wait_ms(&sim, "B"));
    assert_eq!(
        final_rows(&mut sim, "SELECT count(*) FROM send WHERE doc = 1"),
        [vec![Value::Int(3)]]
    );
}

/// PostgreSQL locks no row it inserts (pg_locks lists none; the row is invisible to
/// others until commit, and a second inserter of its unique key waits for the first
/// transaction). The simulation's lock on the new key is not in the trace, the commit's
/// count or the state view; B's wait for it is (on A's transaction), and the row shows
/// as uncommitted.
#[test]
fn an_insert_shows_no_row_lock() {
    let setup = "CREATE TABLE send (id int PRIMARY KEY, state text NOT NULL);";
    let first = "BEGIN;
INSERT INTO send (id, state) VALUES (1, 'open');
SELECT pg_sleep(1);
COMMIT;";
    let second = "INSERT INTO send (id, state) VALUES (1, 'open');";
    let sc = scenario_in(
        Dialect::Postgres,
        setup,
        &[("A", 0, first), ("B", 200, second)],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    // Mid-sleep: A's row is there, uncommitted, with no lock on it.
    while sim.now_us() < 500_000 && sim.step() {}
    let view = sim.view(10);
    let send = view.tables.iter().find(|t| t.name == "send").unwrap();
    assert_eq!(send.rows.len(), 1);
    assert!(send.rows[0].uncommitted_by.is_some());
    assert!(send.rows[0].locks.is_empty(), "{:?}", send.rows[0].locks);
    // (What B waits on, A's transaction, is listed as A's: see the test below.)
    assert!(
        view.locks
            .iter()
            .filter(|l| !l.resource.starts_with("TRANSACTIONID"))
            .all(|l| !l.holders.iter().any(|h| h.session == "A")),
        "{:?}",
        view.locks
    );
    let trace = sim.run_traced().unwrap();
    let lines: Vec<String> = trace.entries.iter().map(|e| e.event.to_string()).collect();
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("A gets") || l.starts_with("A releases")),
        "{lines:#?}"
    );
    assert!(wait_ms(&sim, "B") >= 700, "{}", wait_ms(&sim, "B"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("A commits and releases 1 lock(s), 1 of them")),
        "only the table's lock: {lines:#?}"
    );
    assert_eq!(sqlstates(&sim, "B"), ["23505"]);
}

/// Real server (checked: A's UPDATE fails after 1017 ms, B's waits 869 ms): the first
/// waiter of a cycle finds the deadlock when its `deadlock_timeout` (1 s) ends and is
/// the one aborted with 40P01; the other goes on at that instant.
#[test]
fn the_first_waiter_finds_the_deadlock_after_one_second() {
    let a = "BEGIN;
UPDATE task SET owner = 'A' WHERE id = 1;
SELECT pg_sleep(0.1);
UPDATE task SET owner = 'A' WHERE id = 2;
COMMIT;";
    let b = "BEGIN;
UPDATE task SET owner = 'B' WHERE id = 2;
SELECT pg_sleep(0.2);
UPDATE task SET owner = 'B' WHERE id = 1;
COMMIT;";
    let mut sim = pg(TASKS, &[("A", 0, a), ("B", 0, b)]);
    assert_eq!(sqlstates(&sim, "A"), ["40P01"]);
    assert!(sqlstates(&sim, "B").is_empty());
    assert!(
        (999..=1001).contains(&wait_ms(&sim, "A")),
        "{}",
        wait_ms(&sim, "A")
    );
    assert!(
        (898..=901).contains(&wait_ms(&sim, "B")),
        "{}",
        wait_ms(&sim, "B")
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT owner FROM task WHERE id <= 2 ORDER BY id"),
        [vec![Value::Text("B".into())], vec![Value::Text("B".into())]]
    );
}

/// Real server: a session advisory lock survives its session's ROLLBACK; another
/// session's `pg_try_advisory_lock` answers false at once, and `pg_advisory_lock` waits
/// until `pg_advisory_unlock`.
#[test]
fn session_advisory_locks_survive_rollback() {
    let holder = "SELECT pg_advisory_lock(42);
BEGIN;
UPDATE task SET owner = 'A' WHERE id = 1;
ROLLBACK;
SELECT pg_sleep(1);
SELECT pg_advisory_unlock(42);";
    let trier = "SELECT pg_try_advisory_lock(42);";
    let waiter = "SELECT pg_advisory_lock(42);
SELECT pg_advisory_unlock(42);
SELECT pg_advisory_unlock(42);";
    let sim = pg(
        TASKS,
        &[("A", 0, holder), ("B", 500, trier), ("C", 500, waiter)],
    );
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(results(&sim, "B"), [vec![vec![Value::False]]]);
    assert!(
        (499..=501).contains(&wait_ms(&sim, "C")),
        "{}",
        wait_ms(&sim, "C")
    );
    // One unlock per lock: the second finds nothing held.
    assert_eq!(
        results(&sim, "C")[1..],
        [vec![vec![Value::True]], vec![vec![Value::False]]]
    );
    assert!(sqlstates(&sim, "A").is_empty() && sqlstates(&sim, "C").is_empty());
}

/// Real server (PostgreSQL 15): a try lock is refused by a waiting request as by a
/// holder. A holds lock 1 shared and C waits for it exclusively: E's
/// `pg_try_advisory_lock_shared(1)`, compatible with A's lock, would queue behind C's
/// request, so it answers false at once instead of waiting (it waited for A and then
/// answered true).
#[test]
fn a_try_lock_is_refused_by_a_request_queued_ahead() {
    let holder = "BEGIN;
SELECT pg_advisory_xact_lock_shared(1);
SELECT pg_sleep(1);
COMMIT;";
    let queued = "BEGIN;
SELECT pg_advisory_xact_lock(1);
COMMIT;";
    for trier in [
        "SELECT pg_try_advisory_lock_shared(1);",
        "BEGIN;
SELECT pg_try_advisory_xact_lock_shared(1);
COMMIT;",
    ] {
        let sessions = [("A", 0, holder), ("C", 200, queued), ("E", 500, trier)];
        let sim = pg(TASKS, &sessions);
        assert_eq!(wait_ms(&sim, "E"), 0, "{trier}");
        assert_eq!(results(&sim, "E"), [vec![vec![Value::False]]], "{trier}");
        assert!(
            (799..=801).contains(&wait_ms(&sim, "C")),
            "{}",
            wait_ms(&sim, "C")
        );
        let lines = pg_trace(TASKS, &sessions, &["E is refused"]);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("C is queued ahead for ExclusiveLock"),
            "{lines:?}"
        );
    }
}

/// Real server (PostgreSQL 15): SET is transactional. A `SET lock_timeout` in a
/// transaction that rolls back (by ROLLBACK, by an error, or to a savepoint taken
/// before it) is undone, so B's later UPDATE waits for A's row the whole 1.5 s; one
/// that commits stays, and the wait gives up after 300 ms with 55P03.
#[test]
fn a_rolled_back_set_is_undone() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL);
INSERT INTO t VALUES (1, 0);";
    let holder = "BEGIN;
UPDATE t SET v = 1 WHERE id = 1;
SELECT pg_sleep(2);
COMMIT;";
    let set = "SET lock_timeout = '300ms';";
    let update = "UPDATE t SET v = 2 WHERE id = 1;";
    for (ending, script, timed_out) in [
        (
            "rollback",
            format!("BEGIN;\n{set}\nROLLBACK;\n{update}"),
            false,
        ),
        (
            "error",
            format!("BEGIN;\n{set}\nSELECT 1 / 0;\nCOMMIT;\n{update}"),
            false,
        ),
        (
            "savepoint",
            format!("BEGIN;\nSAVEPOINT s;\n{set}\nROLLBACK TO SAVEPOINT s;\n{update}\nCOMMIT;"),
            false,
        ),
        ("commit", format!("BEGIN;\n{set}\nCOMMIT;\n{update}"), true),
        // SET LOCAL ends with its transaction however it ends.
        (
            "local",
            format!("BEGIN;\nSET LOCAL lock_timeout = '300ms';\nCOMMIT;\n{update}"),
            false,
        ),
    ] {
        let sim = pg(setup, &[("A", 0, holder), ("B", 500, &script)]);
        let states = sqlstates(&sim, "B");
        if timed_out {
            assert_eq!(wait_ms(&sim, "B"), 300, "{ending}");
            assert_eq!(states, ["55P03"], "{ending}");
        } else {
            assert!(
                (1499..=1501).contains(&wait_ms(&sim, "B")),
                "{ending}: {}",
                wait_ms(&sim, "B")
            );
            assert!(!states.contains(&"55P03"), "{ending}: {states:?}");
        }
    }
}

/// Real server (PostgreSQL 15): a cycle through a wait for an earlier request only is
/// no deadlock. A holds lock 1 shared, C lock 2; B queues for lock 1 exclusively, C asks
/// for lock 1 shared (behind B, though A's lock would let it in), and A for lock 2. At
/// B's deadlock check (1 s into its wait) the detector lets C's request go first rather
/// than cancel anyone: C gets lock 1 at 1.1 s, A lock 2 when C commits, B lock 1 when A
/// commits. The server's waits: A 999.6 ms, B 1 202 ms, C 897.3 ms, no error.
#[test]
fn a_wait_behind_a_queued_request_is_reordered_not_a_deadlock() {
    let a = "BEGIN;
SELECT pg_advisory_xact_lock_shared(1);
SELECT pg_sleep(0.3);
SELECT pg_advisory_xact_lock(2);
COMMIT;";
    let c = "BEGIN;
SELECT pg_advisory_xact_lock(2);
SELECT pg_sleep(0.2);
SELECT pg_advisory_xact_lock_shared(1);
SELECT pg_sleep(0.2);
COMMIT;";
    let b = "BEGIN;
SELECT pg_advisory_xact_lock(1);
COMMIT;";
    let sessions = [("A", 0, a), ("C", 0, c), ("B", 100, b)];
    let sim = pg(TASKS, &sessions);
    for name in ["A", "B", "C"] {
        assert!(
            sqlstates(&sim, name).is_empty(),
            "{name}: {:?}",
            sqlstates(&sim, name)
        );
    }
    for (name, real) in [("A", 1000), ("B", 1202), ("C", 897)] {
        let ms = wait_ms(&sim, name);
        assert!(ms.abs_diff(real) <= 5, "{name} waited {ms} ms");
    }
    let lines = pg_trace(TASKS, &sessions, &["deadlock", "C gets ShareLock"]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("C gets ShareLock on advisory 1 after waiting"),
        "{lines:?}"
    );
}

/// Real server: `pg_advisory_xact_lock` ends with the transaction that took it.
#[test]
fn transaction_advisory_locks_end_with_the_transaction() {
    let holder = "BEGIN;
SELECT pg_advisory_xact_lock(7);
SELECT pg_sleep(1);
COMMIT;
SELECT pg_sleep(1);";
    let waiter = "SELECT pg_advisory_xact_lock(7);";
    let sim = pg(TASKS, &[("A", 0, holder), ("B", 200, waiter)]);
    assert!(
        (799..=801).contains(&wait_ms(&sim, "B")),
        "{}",
        wait_ms(&sim, "B")
    );
}

/// PL/pgSQL evaluates an IF condition as a query: `IF NOT pg_try_advisory_lock(k)` is a
/// statement of its own in the trace, and a refused try-lock says who holds the lock
/// (on a real server B's condition answers false at once, and B does not wait). Its
/// declarations are set up as the block is entered, not run as statements.
#[test]
fn a_try_lock_in_an_if_is_a_statement_and_its_refusal_is_shown() {
    let body = |who: &str| {
        format!(
            "DO $$
DECLARE
    k int := 3;
    n int;
BEGIN
    IF NOT pg_try_advisory_lock(k) THEN
        RAISE NOTICE 'busy';
        RETURN;
    END IF;
    SELECT count(*) INTO n FROM task;
    PERFORM pg_sleep(1);
    PERFORM pg_advisory_unlock(3);
END $$;
-- {who}"
        )
    };
    let (a, b) = (body("A"), body("B"));
    let sc = scenario_in(
        Dialect::Postgres,
        TASKS,
        &[("A", 0, &a), ("B", 500_000, &b)],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let lines: Vec<String> = trace.entries.iter().map(|e| e.event.to_string()).collect();
    let has = |needle: &str| lines.iter().any(|l| l.starts_with(needle));
    assert!(
        has("A runs line 6: IF NOT pg_try_advisory_lock(k) THEN"),
        "{lines:#?}"
    );
    // The DECLARE section is set up on block entry: no statement of its own.
    assert!(!lines.iter().any(|l| l.contains("DECLARE")), "{lines:#?}");
    // pg_locks' word for an advisory lock's mode.
    assert!(has("A gets ExclusiveLock on advisory 3"), "{lines:#?}");
    assert!(has("A finishes IF"), "{lines:#?}");
    assert!(
        has("B is refused ExclusiveLock on advisory 3: A holds ExclusiveLock; pg_try_advisory_lock returns false"),
        "{lines:#?}"
    );
    assert_eq!(wait_ms(&sim, "B"), 0);
}

/// A worker loop in `DO $$ ... $$` (PG 11+: COMMIT inside the block ends each claim's
/// transaction): `UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING id
/// INTO`, `GET DIAGNOSTICS`, `EXIT WHEN`, `PERFORM pg_sleep`. Two such workers split the
/// five tasks without waiting and without a duplicate, as on the real server.
#[test]
fn do_block_workers_claim_with_skip_locked() {
    let worker = |name: &str| {
        format!(
            "DO $$
DECLARE
  n int;
  claimed int;
  total int := 0;
BEGIN
  LOOP
    UPDATE task SET status = 'taken', owner = '{name}'
    WHERE id = (SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id INTO claimed;
    GET DIAGNOSTICS n = ROW_COUNT;
    EXIT WHEN n = 0;
    total := total + 1;
    RAISE NOTICE '% claimed %', '{name}', claimed;
    PERFORM pg_sleep(0.1);
    COMMIT;
  END LOOP;
  IF total = 0 THEN
    RAISE EXCEPTION 'nothing claimed';
  ELSIF total > 5 THEN
    RAISE EXCEPTION 'too many';
  END IF;
END $$;"
        )
    };
    let setup =
        "CREATE TABLE task (id serial PRIMARY KEY, status text NOT NULL DEFAULT 'new', owner text);
INSERT INTO task (status) VALUES ('new'), ('new'), ('new'), ('new'), ('new');";
    let (a, b) = (worker("A"), worker("B"));
    let mut sim = pg(setup, &[("A", 0, &a), ("B", 50, &b)]);
    assert_eq!(wait_ms(&sim, "A") + wait_ms(&sim, "B"), 0);
    assert!(sqlstates(&sim, "A").is_empty() && sqlstates(&sim, "B").is_empty());
    assert_eq!(
        final_rows(
            &mut sim,
            "SELECT owner, count(*) FROM task GROUP BY owner ORDER BY owner"
        ),
        [
            vec![Value::Text("A".into()), Value::Int(3)],
            vec![Value::Text("B".into()), Value::Int(2)]
        ]
    );
}

/// Real server: `BEGIN ... EXCEPTION WHEN unique_violation THEN` catches 23505 and the
/// block goes on; a condition that does not match lets the error through; an error
/// that ends a DO block run outside BEGIN does not fail the next statement; a serial
/// column takes an explicit value.
#[test]
fn exception_blocks_catch_by_condition() {
    let script = "DO $$
BEGIN
  BEGIN
    INSERT INTO task (id, status) VALUES (1, 'dup');
  EXCEPTION WHEN unique_violation THEN
    RAISE NOTICE 'caught %', 'duplicate';
  END;
  INSERT INTO task (id, status) VALUES (10, 'new');
END $$;
DO $$
BEGIN
  INSERT INTO task (id, status) VALUES (1, 'dup');
EXCEPTION WHEN division_by_zero THEN
  NULL;
END $$;
SELECT count(*) FROM task;";
    let sim = pg(TASKS, &[("A", 0, script)]);
    // The unmatched handler does not catch: one error, as the server reports.
    assert_eq!(sqlstates(&sim, "A"), ["23505", "23505"]);
    let caught: Vec<bool> = errors_of(&sim, "A").iter().map(|e| e.caught).collect();
    assert_eq!(caught, [true, false]);
    assert_eq!(results(&sim, "A"), [vec![vec![Value::Int(4)]]]);
}

/// Real server: a block with an EXCEPTION clause is a subtransaction. When its handler
/// catches, the block's earlier UPDATE is undone and its row locks are gone: B updates
/// rows 1 and 3 at once while A's transaction is still open (2 ms on the server), and
/// the final rows hold B's owner only. A's variable keeps the value set in the block.
#[test]
fn a_caught_error_rolls_its_block_back() {
    let a = "BEGIN;
DO $$
DECLARE
  n int := 0;
BEGIN
  BEGIN
    UPDATE task SET owner = 'A' WHERE id = 1;
    PERFORM * FROM task WHERE id = 3 FOR UPDATE;
    n := 7;
    INSERT INTO task (id) VALUES (2);
  EXCEPTION WHEN unique_violation THEN
    RAISE NOTICE 'caught, n = %', n;
  END;
  UPDATE task SET status = 'seen' WHERE id = 2;
END $$;
SELECT pg_sleep(1);
COMMIT;";
    let b = "UPDATE task SET owner = 'B' WHERE id IN (1, 3);";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, a), ("B", 300_000, b)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(wait_ms(&sim, "B"), 0);
    let prints = printed(&trace);
    assert_eq!(prints, ["caught, n = 7"]);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        final_rows(&mut sim, "SELECT id, status, owner FROM task ORDER BY id"),
        [
            [Value::Int(1), text("new"), text("B")],
            [Value::Int(2), text("seen"), Value::Null],
            [Value::Int(3), text("new"), text("B")]
        ]
    );
}

/// Real server: `CREATE INDEX ON t (cols)` names the index `t_cols_idx`, numbered from 1
/// when the name is taken (here by an index of the same name on another column).
#[test]
fn an_unnamed_index_gets_the_servers_name() {
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, owner varchar(10));
CREATE UNIQUE INDEX job_owner_idx ON job (id);
CREATE UNIQUE INDEX ON job (owner);
INSERT INTO job VALUES (1, 'a');",
        &[("A", 0, "INSERT INTO job VALUES (2, 'a');")],
    );
    assert_eq!(
        messages(&sim, "A"),
        [
            "duplicate key value violates unique constraint \"job_owner_idx1\" \
          (DETAIL: Key (owner)=(a) already exists.)"
        ]
    );
}

/// Real server: `ILIKE` and `IS [NOT] DISTINCT FROM` filter as there (the simulator's LIKE
/// already ignores case); `TRUNCATE t` (TABLE optional) empties a table in the setup,
/// and is refused by name once sessions run, where its ACCESS EXCLUSIVE lock would block
/// plain reads, which take no table lock here.
#[test]
fn ilike_distinct_from_and_truncate() {
    let sim = pg(
        "CREATE TABLE old (id int);
INSERT INTO old VALUES (1);
TRUNCATE old;
CREATE TABLE job (id int PRIMARY KEY, status text, owner text);
INSERT INTO job VALUES (1, 'New', 'a'), (2, 'done', NULL), (3, 'NEW', 'b');",
        &[(
            "A",
            0,
            "SELECT count(*) FROM job WHERE status ILIKE 'ne%';
SELECT count(*) FROM job WHERE status NOT ILIKE 'ne%';
SELECT count(*) FROM job WHERE owner IS DISTINCT FROM 'a';
SELECT count(*) FROM job WHERE owner IS NOT DISTINCT FROM NULL;
SELECT count(*) FROM old;
TRUNCATE job;",
        )],
    );
    let counts: Vec<Value> = results(&sim, "A").iter().map(|r| r[0][0].clone()).collect();
    assert_eq!(
        counts,
        [
            Value::Int(2),
            Value::Int(1),
            Value::Int(2),
            Value::Int(1),
            Value::Int(0)
        ]
    );
    let m = messages(&sim, "A");
    assert_eq!(m.len(), 1);
    assert!(
        m[0].starts_with("not simulated: TRUNCATE while sessions run"),
        "{m:?}"
    );
}

/// Real server: `UPDATE t a` and `DELETE FROM t a` take an alias; RETURNING reads the
/// new row through it, in expressions too (named `?column?`), and the FROM tables'
/// columns.
#[test]
fn update_and_delete_take_an_alias_and_returning_reads_from_tables() {
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, owner text, n int);
CREATE TABLE who (id int PRIMARY KEY, name text);
INSERT INTO job VALUES (1, NULL, 10), (2, NULL, 20), (3, NULL, 30);
INSERT INTO who VALUES (1, 'ann'), (2, 'bob');",
        &[(
            "A",
            0,
            "UPDATE job AS j SET n = j.n + 1 WHERE j.id = 2 RETURNING id, n, j.n * 2;
UPDATE job j SET owner = w.name FROM who w WHERE w.id = j.id AND j.id = 2 RETURNING j.id, w.name;
DELETE FROM job j WHERE j.id = 3 RETURNING j.id;",
        )],
    );
    assert!(messages(&sim, "A").is_empty(), "{:?}", messages(&sim, "A"));
    let o = sim.outcome();
    let a = o.sessions.iter().find(|s| s.name == "A").unwrap();
    assert_eq!(a.results[0].columns, ["id", "n", "?column?"]);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![Value::Int(2), Value::Int(21), Value::Int(42)]],
            vec![vec![Value::Int(2), text("bob")]],
            vec![vec![Value::Int(3)]]
        ]
    );
}

/// Real server: a timestamp plus or minus an interval literal, in its forms (the values
/// psql printed for the same query), and a stale-claim filter on one.
#[test]
fn timestamps_move_by_interval_literals() {
    let t = "timestamp '2026-01-05 10:00:00'";
    let sql = format!(
        "SELECT {t} - interval '5 minutes', {t} + interval '1 day 02:30:00', \
         {t} + interval '1.5 s', {t} + interval '30 seconds ago', {t} + interval '250ms', \
         {t} - interval '2 hours 3 mins', {t} + interval '1 week';
SELECT count(*) FROM job WHERE taken < now() - interval '5 minutes';"
    );
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, taken timestamp);
INSERT INTO job VALUES (1, now() - interval '10 minutes'), (2, now() - interval '1 minute');",
        &[("A", 0, &sql)],
    );
    assert!(messages(&sim, "A").is_empty(), "{:?}", messages(&sim, "A"));
    let rows = results(&sim, "A");
    let shown: Vec<String> = rows[0][0].iter().map(|v| v.to_string()).collect();
    assert_eq!(
        shown,
        [
            "2026-01-05 09:55:00",
            "2026-01-06 12:30:00",
            "2026-01-05 10:00:01.5",
            "2026-01-05 09:59:30",
            "2026-01-05 10:00:00.25",
            "2026-01-05 07:57:00",
            "2026-01-12 10:00:00"
        ]
    );
    assert_eq!(rows[1], [[Value::Int(1)]]);
}

/// Real server: an aggregate's `FILTER (WHERE ...)` counts and sums only the rows it
/// keeps (`count(*)` too); none kept is 0 for count and NULL for the others.
#[test]
fn aggregates_filter_their_rows() {
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, owner text, n int);
INSERT INTO job VALUES (1, NULL, 10), (2, NULL, 20), (3, NULL, 30);",
        &[(
            "A",
            0,
            "SELECT count(*) FILTER (WHERE id > 1), sum(n) FILTER (WHERE id < 3),
       count(owner) FILTER (WHERE id = 1), max(n) FILTER (WHERE id > 5) FROM job;",
        )],
    );
    assert_eq!(
        results(&sim, "A"),
        [[[Value::Int(2), Value::Int(30), Value::Int(0), Value::Null]]]
    );
}

/// Real server: a cycle through a session's advisory lock and a row lock is a deadlock.
/// A holds advisory lock 7 and waits for B's row; B waits for lock 7. A's check, 1 s into
/// its wait, finds the cycle (40P01, 1002 ms on the server); A's next statement releases
/// lock 7 and B goes on (911 ms on the server).
#[test]
fn a_cycle_through_a_session_advisory_lock_is_a_deadlock() {
    let a = "SELECT pg_advisory_lock(7);
SELECT pg_sleep(0.2);
UPDATE task SET owner = 'A' WHERE id = 1;
SELECT pg_advisory_unlock(7);";
    let b = "BEGIN;
UPDATE task SET owner = 'B' WHERE id = 1;
SELECT pg_sleep(0.2);
SELECT pg_advisory_lock(7);
COMMIT;";
    let mut sim = pg(TASKS, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "A"), ["40P01"]);
    assert_eq!(wait_ms(&sim, "A"), 1000);
    assert_eq!(wait_ms(&sim, "B"), 899);
    assert!(sqlstates(&sim, "B").is_empty());
    assert_eq!(
        final_rows(&mut sim, "SELECT owner FROM task WHERE id = 1"),
        [[Value::Text("B".into())]]
    );
}

/// Real server: an UPDATE that changes a key column locks its row FOR UPDATE, so it waits
/// for a FOR KEY SHARE (898 ms on the server) that an UPDATE of other columns passes.
#[test]
fn an_update_of_a_key_waits_for_key_share() {
    let a = "BEGIN;
SELECT id FROM task FOR KEY SHARE;
SELECT pg_sleep(1);
COMMIT;";
    let other = pg(
        TASKS,
        &[
            ("A", 0, a),
            ("B", 100, "UPDATE task SET owner = 'B' WHERE id = 1;"),
        ],
    );
    assert_eq!(wait_ms(&other, "B"), 0);
    let key = pg(
        TASKS,
        &[
            ("A", 0, a),
            ("B", 100, "UPDATE task SET id = 10 WHERE id = 1;"),
        ],
    );
    assert_eq!(wait_ms(&key, "B"), 900);
}

/// Real server: a REPEATABLE READ write to a row another transaction changed since the
/// snapshot fails with 40001 in words for what it did: "concurrent update" or
/// "concurrent delete".
#[test]
fn a_serialization_failure_says_update_or_delete() {
    for (other, words) in [
        ("UPDATE task SET owner = 'B' WHERE id = 1;", "update"),
        ("DELETE FROM task WHERE id = 1;", "delete"),
    ] {
        let a = "BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM task;
SELECT pg_sleep(0.5);
UPDATE task SET owner = 'A' WHERE id = 1;
COMMIT;";
        let sim = pg(TASKS, &[("A", 0, a), ("B", 100, other)]);
        assert_eq!(sqlstates(&sim, "A"), ["40001"]);
        assert_eq!(
            messages(&sim, "A"),
            [format!(
                "could not serialize access due to concurrent {words}"
            )]
        );
    }
}

/// Real server: `UPDATE t ... FROM (SELECT ... FOR UPDATE SKIP LOCKED) c` locks only the
/// rows the join keeps. B's claim skips A's row and takes task 2 at once (the server did
/// not wait either); an UPDATE ... FROM that keeps a locked row waits for it (898 ms on
/// the server), then re-checks it and leaves it.
#[test]
fn an_update_from_locks_only_the_rows_the_join_keeps() {
    let claim = |who: &str| {
        format!(
            "UPDATE task t SET status = 'running', owner = '{who}' FROM (SELECT id FROM task
WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) c WHERE t.id = c.id
RETURNING t.id;"
        )
    };
    let a = format!("BEGIN;\n{}\nSELECT pg_sleep(1);\nCOMMIT;", claim("A"));
    let b = claim("B");
    let sim = pg(TASKS, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(results(&sim, "A")[0], [[Value::Int(1)]]);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(2)]]);

    let a = "BEGIN;
UPDATE task SET status = 'done', owner = 'A' WHERE id = 1;
SELECT pg_sleep(1);
COMMIT;";
    let b = "UPDATE task t SET owner = 'B' FROM pick p WHERE t.id = p.id AND t.status = 'new'
RETURNING t.id;";
    let setup = format!("{TASKS}\nCREATE TABLE pick (id int);\nINSERT INTO pick VALUES (1), (3);");
    let sim = pg(&setup, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(wait_ms(&sim, "B"), 900);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(3)]]);
}

/// Real server: `INSERT ... ON CONFLICT [(cols) | ON CONSTRAINT name] DO NOTHING` leaves
/// out a row an arbiter index already holds (RETURNING returns only the rows inserted),
/// still fails on a key it does not name, and waits for an uncommitted holder of the key
/// (900 ms on the server) before leaving the row out.
#[test]
fn on_conflict_do_nothing_leaves_the_row_out() {
    let setup = "CREATE TABLE send (id int PRIMARY KEY, msg text UNIQUE);
INSERT INTO send VALUES (1, 'a');";
    let a = "INSERT INTO send VALUES (1, 'b') ON CONFLICT DO NOTHING RETURNING id;
INSERT INTO send VALUES (2, 'a'), (3, 'c') ON CONFLICT (msg) DO NOTHING RETURNING id;
INSERT INTO send VALUES (1, 'z') ON CONFLICT (msg) DO NOTHING;
INSERT INTO send VALUES (1, 'y') ON CONFLICT (id) DO NOTHING;
INSERT INTO send VALUES (4, 'a') ON CONFLICT ON CONSTRAINT send_msg_key DO NOTHING;
BEGIN;
INSERT INTO send VALUES (5, 'e');
SELECT pg_sleep(1);
COMMIT;";
    let b = "INSERT INTO send VALUES (5, 'f') ON CONFLICT DO NOTHING RETURNING id;";
    let mut sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "A"), ["23505"]);
    let empty: Vec<Vec<Value>> = Vec::new();
    assert_eq!(
        results(&sim, "A"),
        [empty.clone(), vec![vec![Value::Int(3)]]]
    );
    assert_eq!(wait_ms(&sim, "B"), 900);
    assert_eq!(results(&sim, "B"), [empty]);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        final_rows(&mut sim, "SELECT id, msg FROM send ORDER BY id"),
        [
            [Value::Int(1), text("a")],
            [Value::Int(3), text("c")],
            [Value::Int(5), text("e")]
        ]
    );
}

/// Real server (psql, PostgreSQL 15): the arbiter is inferred before any row is
/// proposed. `ON CONFLICT (cols)` needs a unique index on exactly those columns (in any
/// order; the primary key counts), and a partial one only when `WHERE` implies its
/// predicate (`'IN_PROGRESS' = status` does, `status <> 'DONE'` does not): otherwise
/// 42P10 even for a row that clashes with nothing. `ON CONSTRAINT` takes a constraint,
/// not an index made by CREATE UNIQUE INDEX (42704). DO UPDATE updates the row the
/// partial index holds, not an older row with the same key outside it.
#[test]
fn on_conflict_infers_its_arbiter_and_a_partial_index_needs_where() {
    let setup = "CREATE TABLE send (document_id int NOT NULL, status varchar(20) NOT NULL);
CREATE UNIQUE INDEX ux ON send (document_id) WHERE status = 'IN_PROGRESS';
INSERT INTO send VALUES (1, 'DONE'), (1, 'IN_PROGRESS');
CREATE TABLE t2 (a int NOT NULL, b int NOT NULL, c int,
    CONSTRAINT pk2 PRIMARY KEY (a), CONSTRAINT uq UNIQUE (b, c));
CREATE TABLE other (a int NOT NULL);";
    let a = "INSERT INTO send VALUES (2, 'IN_PROGRESS') ON CONFLICT (document_id) DO NOTHING;
INSERT INTO other VALUES (1) ON CONFLICT (a) DO NOTHING;
INSERT INTO send VALUES (1, 'IN_PROGRESS') ON CONFLICT (document_id) WHERE status <> 'DONE' DO NOTHING;
INSERT INTO send VALUES (1, 'IN_PROGRESS') ON CONFLICT (document_id) WHERE status = 'IN_PROGRESS' DO NOTHING;
INSERT INTO send VALUES (2, 'IN_PROGRESS') ON CONFLICT (document_id) WHERE 'IN_PROGRESS' = status AND document_id > 0 DO NOTHING;
INSERT INTO send VALUES (1, 'IN_PROGRESS') ON CONFLICT (document_id) WHERE status = 'IN_PROGRESS'
    DO UPDATE SET status = 'RETRY' RETURNING *;
INSERT INTO send VALUES (3, 'X') ON CONFLICT ON CONSTRAINT ux DO NOTHING;
INSERT INTO t2 VALUES (1, 1, 1);
INSERT INTO t2 VALUES (2, 1, 1) ON CONFLICT (c, b) DO NOTHING;
INSERT INTO t2 VALUES (1, 2, 2) ON CONFLICT ON CONSTRAINT pk2 DO NOTHING;
INSERT INTO t2 VALUES (3, 3, 3) ON CONFLICT (a) WHERE c > 0 DO NOTHING;
INSERT INTO t2 VALUES (4, 4, 4) ON CONFLICT (nope) DO NOTHING;";
    let mut sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(
        sqlstates(&sim, "A"),
        ["42P10", "42P10", "42P10", "42704", "42703"]
    );
    let messages = messages(&sim, "A");
    assert_eq!(
        messages[0],
        "there is no unique or exclusion constraint matching the ON CONFLICT specification"
    );
    assert_eq!(
        messages[3],
        "constraint \"ux\" for table \"send\" does not exist"
    );
    assert_eq!(messages[4], "column \"nope\" does not exist");
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![Value::Int(1), text("RETRY")]]]
    );
    assert_eq!(
        final_rows(
            &mut sim,
            "SELECT document_id, status FROM send ORDER BY 1, 2"
        ),
        [
            [Value::Int(1), text("DONE")],
            [Value::Int(1), text("RETRY")],
            [Value::Int(2), text("IN_PROGRESS")]
        ]
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT a FROM t2 ORDER BY a"),
        [[Value::Int(1)], [Value::Int(3)]]
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT COUNT(*) FROM other"),
        [[Value::Int(0)]]
    );
}

/// Real server (psql, PostgreSQL 15): a statement decides which rows match, and in what
/// order, by the versions as of its start. A holds job 1 with an uncommitted prio 10.
/// B's plain read sorts by the committed prio (1 before 2); B's `LIMIT 1 FOR UPDATE`
/// takes job 1 by its old prio, waits for A, and returns it with prio 10, not re-sorted;
/// C's `FOR UPDATE` of both returns 1 (prio 10) before 2. And an UPDATE that waits for
/// a row leaves out one that came to match while it waited (0 rows, not job 3).
#[test]
fn a_statement_matches_and_sorts_by_its_start_and_rechecks_only_rows_it_waited_for() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, prio int, status text);
INSERT INTO job VALUES (1, 1, 'new'), (2, 2, 'new'), (3, 3, 'done');";
    let a = "BEGIN;
UPDATE job SET prio = 10 WHERE id = 1;
UPDATE job SET status = 'new' WHERE id = 3;
UPDATE job SET status = 'done' WHERE id = 2;
SELECT pg_sleep(0.3);
COMMIT;";
    let b = "SELECT id, prio FROM job WHERE id < 3 ORDER BY prio;
SELECT id, prio FROM job WHERE status = 'new' ORDER BY prio LIMIT 1 FOR UPDATE;";
    let c = "SELECT id, prio FROM job WHERE id < 3 ORDER BY prio FOR UPDATE;";
    let d = "UPDATE job SET status = 'claimed' WHERE status = 'new' AND id > 1 RETURNING id;";
    let sim = pg(
        setup,
        &[("A", 0, a), ("B", 100, b), ("C", 150, c), ("D", 160, d)],
    );
    let row = |id: i64, prio: i64| vec![Value::Int(id), Value::Int(prio)];
    assert_eq!(
        results(&sim, "B"),
        [vec![row(1, 1), row(2, 2)], vec![row(1, 10)]]
    );
    assert!(wait_ms(&sim, "B") >= 199, "B waits for A's commit");
    assert_eq!(results(&sim, "C"), [vec![row(1, 10), row(2, 2)]]);
    let none: Vec<Vec<Value>> = Vec::new();
    assert_eq!(results(&sim, "D"), [none]);
    assert!(wait_ms(&sim, "D") >= 139, "D waits for job 2");
}

/// Real server: a REPEATABLE READ transaction takes its snapshot at its first statement
/// that is not transaction control, even `SELECT 1`: B's commit after it is not seen
/// (0); the next transaction's snapshot, taken at its `pg_sleep`, sees B's value and
/// not C's commit during the sleep (1).
#[test]
fn repeatable_read_takes_its_snapshot_at_the_first_statement() {
    let setup = "CREATE TABLE task (id int PRIMARY KEY, n int);
INSERT INTO task VALUES (1, 0);";
    let a = "BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 1;
SELECT pg_sleep(0.3);
SELECT n FROM task;
COMMIT;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT pg_sleep(0.3);
SELECT n FROM task;
COMMIT;";
    let b = "UPDATE task SET n = 1;";
    let c = "UPDATE task SET n = 2;";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b), ("C", 400, c)]);
    let seen: Vec<Vec<Vec<Value>>> = results(&sim, "A")
        .into_iter()
        .filter(|r| r.len() == 1 && r[0].len() == 1)
        .collect();
    assert_eq!(
        seen,
        [
            vec![vec![Value::Int(1)]],
            vec![vec![Value::Int(0)]],
            vec![vec![Value::Int(1)]]
        ]
    );
}

/// Real server: `ORDER BY` and `LIMIT` after a compound query apply to its whole result
/// (4 3 2, then 4 3), and `LIMIT 0` returns no row.
#[test]
fn order_by_and_limit_after_union_take_the_whole_result() {
    let setup = "CREATE TABLE a (id int PRIMARY KEY);
CREATE TABLE b (id int PRIMARY KEY);
INSERT INTO a VALUES (1), (3);
INSERT INTO b VALUES (2), (4);";
    let a = "SELECT id FROM a UNION ALL SELECT id FROM b ORDER BY 1 DESC LIMIT 3;
SELECT id FROM a UNION SELECT id FROM b ORDER BY id DESC LIMIT 2;
SELECT id FROM a ORDER BY id LIMIT 0;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(
        results(&sim, "A"),
        [ids(&[4, 3, 2]), ids(&[4, 3]), ids(&[])]
    );
}

/// Real server (psql): PL/pgSQL's `SELECT ... INTO v` that finds no row sets `v` to
/// NULL (T-SQL's `SELECT @v =` leaves it), so the usual claim loop ends after the one
/// job: `claimed 1 jobs, last jid=<NULL>`; `UPDATE ... RETURNING ... INTO` of no row
/// sets NULL too, and of two rows fails with P0003.
#[test]
fn plpgsql_into_without_a_row_sets_null() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new'), (2, 'x'), (3, 'x');";
    let a = "DO $$
DECLARE
  jid int;
  n int := 0;
BEGIN
  LOOP
    SELECT id INTO jid FROM job WHERE status = 'new' ORDER BY id LIMIT 1;
    EXIT WHEN jid IS NULL;
    UPDATE job SET status = 'done' WHERE id = jid;
    n := n + 1;
    EXIT WHEN n > 5;
  END LOOP;
  RAISE NOTICE 'claimed % jobs, last jid=%', n, jid;
  jid := 7;
  UPDATE job SET status = 'y' WHERE id = 99 RETURNING id INTO jid;
  RAISE NOTICE 'after miss jid=%', jid;
  UPDATE job SET status = 'y' WHERE status = 'x' RETURNING id INTO jid;
END $$;";
    let sc = super::support::scenario_in(Dialect::Postgres, setup, &[("A", 0, a)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(
        printed(&trace),
        ["claimed 1 jobs, last jid=<NULL>", "after miss jid=<NULL>"]
    );
    assert_eq!(sqlstates(&sim, "A"), ["P0003"]);
    assert_eq!(messages(&sim, "A"), ["query returned more than one row"]);
}

/// Real server: GROUP BY names a select-list item by position or alias, as ORDER BY does.
#[test]
fn group_by_a_position_or_an_alias() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new'), (2, 'running'), (3, 'running'), (4, 'done');";
    let a = "SELECT status, count(*) FROM job GROUP BY 1 ORDER BY 2 DESC, 1;
SELECT status AS s, count(*) AS n FROM job GROUP BY s ORDER BY s;";
    let sim = pg(setup, &[("A", 0, a)]);
    let rows = |rs: &[(&str, i64)]| -> Vec<Vec<Value>> {
        rs.iter()
            .map(|(s, n)| vec![Value::Text((*s).into()), Value::Int(*n)])
            .collect()
    };
    assert_eq!(
        results(&sim, "A"),
        [
            rows(&[("running", 2), ("done", 1), ("new", 1)]),
            rows(&[("done", 1), ("new", 1), ("running", 2)])
        ]
    );
}

/// Two new jobs, for the PL/pgSQL tests.
const TWO_NEW: &str = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new'), (2, 'new');";

/// Session A's script run on `setup`, with its trace.
fn traced(setup: &str, a: &str) -> (Simulation, engine::Trace) {
    let sc = scenario_in(Dialect::Postgres, setup, &[("A", 0, a)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    (sim, trace)
}

/// Real server (psql): PL/pgSQL's FOUND says whether the last SELECT INTO, PERFORM or
/// DML found a row; an assignment leaves it, and each DO block begins with it false
/// (it failed with 42703). RAISE prints a boolean as `t` or `f`.
#[test]
fn plpgsql_found_follows_the_last_query() {
    let a = "DO $$
DECLARE jid int;
BEGIN
  UPDATE job SET status = 'x' WHERE id = 9;
  RAISE NOTICE 'a %', FOUND;
  UPDATE job SET status = 'x' WHERE id = 1;
  RAISE NOTICE 'b %', FOUND;
  SELECT id INTO jid FROM job WHERE id = 7;
  RAISE NOTICE 'c %', found;
  IF NOT FOUND THEN RAISE NOTICE 'none'; END IF;
  PERFORM 1 FROM job WHERE id = 2;
  RAISE NOTICE 'd %', FOUND;
  jid := 5;
  RAISE NOTICE 'e % %', FOUND, NULL;
END $$;
DO $$ BEGIN RAISE NOTICE 'f %', FOUND; END $$;";
    let (sim, trace) = traced(TWO_NEW, a);
    assert!(sqlstates(&sim, "A").is_empty(), "{:?}", messages(&sim, "A"));
    assert_eq!(
        printed(&trace),
        ["a f", "b t", "c f", "none", "d t", "e t <NULL>", "f f"]
    );
}

/// Real server: `INTO STRICT` wants exactly one row: none fails with P0002 (caught as
/// no_data_found), two with P0003 (too_many_rows); so does `RETURNING ... INTO STRICT`.
/// STRICT used to be read and ignored.
#[test]
fn plpgsql_into_strict_wants_one_row() {
    let a = "DO $$
DECLARE jid int;
BEGIN
  SELECT id INTO STRICT jid FROM job WHERE id = 1;
  RAISE NOTICE 'one %', jid;
  BEGIN
    SELECT id INTO STRICT jid FROM job WHERE id = 7;
  EXCEPTION WHEN no_data_found THEN RAISE NOTICE 'none % %', SQLSTATE, jid;
  END;
  BEGIN
    SELECT id INTO STRICT jid FROM job;
  EXCEPTION WHEN too_many_rows THEN RAISE NOTICE 'many % %', SQLSTATE, SQLERRM;
  END;
  BEGIN
    UPDATE job SET status = 'x' WHERE id = 9 RETURNING id INTO STRICT jid;
  EXCEPTION WHEN no_data_found THEN RAISE NOTICE 'upd none %', SQLERRM;
  END;
  SELECT id INTO STRICT jid FROM job WHERE id > 5;
END $$;";
    let (sim, trace) = traced(TWO_NEW, a);
    assert_eq!(
        printed(&trace),
        [
            "one 1",
            "none P0002 1",
            "many P0003 query returned more than one row",
            "upd none query returned no rows"
        ]
    );
    let errors: Vec<_> = errors_of(&sim, "A")
        .into_iter()
        .map(|e| (e.sqlstate, e.caught))
        .collect();
    assert_eq!(
        errors,
        [
            (Some("P0002"), true),
            (Some("P0003"), true),
            (Some("P0002"), true),
            (Some("P0002"), false)
        ]
    );
}

/// Real server: a comparison, AND, OR and COALESCE of booleans are booleans in a result
/// (`t`, `f`; AND and OR gave 1 and 0), `status = 'new' AS is_new` is a comparison (it
/// was refused as T-SQL's alias syntax), and concat prints a boolean as `t` where a cast
/// to text gives `true`.
#[test]
fn boolean_expressions_show_as_booleans() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text, done boolean);
INSERT INTO job VALUES (1, 'new', false), (2, 'done', true);";
    let a = "SELECT 1 < 2 AS f, (1 < 2 AND 2 < 3) AS g, coalesce(null, true) AS h, (1 < 2 OR done) AS j FROM job WHERE id = 1;
SELECT id, status = 'new' AS is_new FROM job ORDER BY id;
SELECT concat('a', true), 'a' || true, true::text;";
    let sim = pg(setup, &[("A", 0, a)]);
    let text = |v: &[&str]| -> Vec<Value> { v.iter().map(|s| Value::Text((*s).into())).collect() };
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![Value::True, Value::True, Value::True, Value::True]],
            vec![
                vec![Value::Int(1), Value::True],
                vec![Value::Int(2), Value::False]
            ],
            vec![text(&["at", "atrue", "true"])]
        ]
    );
}

/// Real server: a fraction stored in an integer column or variable rounds half away
/// from zero, as a cast does (2.5 → 3, -2.5 → -3); it was truncated.
#[test]
fn a_fraction_stored_in_an_integer_rounds() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, n int, b bigint, s smallint);
INSERT INTO t VALUES (1, 2.5, 3.5, -2.5);";
    let a = "UPDATE t SET n = n * 1.5 WHERE id = 1;
INSERT INTO t (id, n) VALUES (2.6, 0.4);
SELECT id, n, b, s FROM t ORDER BY id;
DO $$ DECLARE x int := 2.5; y int; BEGIN y := 7 / 2.0; RAISE NOTICE '% %', x, y; END $$;";
    let (sim, trace) = traced(setup, a);
    let i = Value::Int;
    assert_eq!(
        results(&sim, "A"),
        [vec![
            vec![i(1), i(5), i(4), i(-3)],
            vec![i(3), i(0), Value::Null, Value::Null]
        ]]
    );
    assert_eq!(printed(&trace), ["3 4"]);
}

/// Real server: a grouped query may name a column outside an aggregate only if it is
/// grouped, or its table's primary key is (42803, before any row; it ran and showed
/// some row's value). Window arguments count; HAVING too.
#[test]
fn ungrouped_columns_fail_with_42803() {
    let setup = "CREATE TABLE jobs (id int PRIMARY KEY, status text, prio int);
INSERT INTO jobs VALUES (1, 'new', 1), (2, 'new', 2), (3, 'done', 1);";
    let a = "SELECT j.id, j.status, count(*) FROM jobs j GROUP BY j.id ORDER BY j.id;
SELECT * FROM jobs GROUP BY id ORDER BY id;
SELECT upper(status), prio + 1, count(*) FROM jobs GROUP BY upper(status), prio + 1 ORDER BY 1, 2;
SELECT j.status, j.prio FROM jobs j GROUP BY j.status;
SELECT status, count(*) FROM jobs GROUP BY status HAVING prio > 1;
SELECT prio, count(*) FROM jobs WHERE id > 9;
SELECT status, sum(prio) OVER () FROM jobs GROUP BY status;
SELECT count(*), max(prio) FROM jobs WHERE status = 'x';";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["42803"; 4]);
    let m = |c: &str| {
        format!(
            "column \"{c}\" must appear in the GROUP BY clause or be used in an aggregate function"
        )
    };
    assert_eq!(
        messages(&sim, "A"),
        [m("j.prio"), m("jobs.prio"), m("jobs.prio"), m("jobs.prio")]
    );
    let r = results(&sim, "A");
    assert_eq!(r.len(), 4);
    assert_eq!(r[0].len(), 3);
    assert_eq!(
        r[1][1],
        [Value::Int(2), Value::Text("new".into()), Value::Int(2)]
    );
    assert_eq!(r[2].len(), 3);
    assert_eq!(r[3], [vec![Value::Int(0), Value::Null]]);
}

/// Real server (psql): the string, number and date functions scripts use, and the
/// standard's keyword forms (`extract(hour FROM t)`, `position(a IN b)`, `substring(s
/// FROM a FOR n)`). Before, `length` was "not simulated", `floor` and `mod` were taken
/// for routines ("Could not find stored procedure"), and `extract` did not parse.
#[test]
fn common_functions_answer_as_the_server() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new');";
    let a = "SELECT length(status), char_length(status), substr(status, 2), strpos(status, 'e'), lpad('7', 3, '0'), split_part('a,b', ',', 2) FROM job;
SELECT floor(1.8), ceil(1.2), ceiling(1.2), mod(-7, 3), trunc(2.7), power(2, 3), sqrt(16), round(2.567, 2), round(-2.5), sign(-3);
SELECT greatest(1, NULL, 5, 3), least(2, 0), reverse('abc'), repeat('ab', 2), btrim('  x  '), replace('a-b-c', '-', '+');
SELECT date_trunc('hour', timestamp '2026-01-07 10:17:05'), date_trunc('week', timestamp '2026-01-07 10:17:05'), date_part('minute', timestamp '2026-01-07 10:17:05'), extract(dow FROM timestamp '2026-01-07 10:17:05');
SELECT position('e' IN status), substring(status FROM 2 FOR 1), substring(status FROM 2) FROM job;
SELECT extract(fortnight FROM now());";
    let sim = pg(setup, &[("A", 0, a)]);
    let t = |s: &str| Value::Text(s.into());
    let i = Value::Int;
    let r = results(&sim, "A");
    assert_eq!(r[0], [vec![i(3), i(3), t("ew"), i(2), t("007"), t("b")]]);
    assert_eq!(
        r[1],
        [vec![
            Value::Decimal(1.0),
            Value::Decimal(2.0),
            Value::Decimal(2.0),
            i(-1),
            Value::Decimal(2.0),
            i(8),
            Value::Decimal(4.0),
            Value::Decimal(2.57),
            Value::Decimal(-3.0),
            i(-1)
        ]]
    );
    assert_eq!(
        r[2],
        [vec![i(5), i(0), t("cba"), t("abab"), t("x"), t("a+b+c")]]
    );
    let shown: Vec<String> = r[3][0].iter().map(Value::to_string).collect();
    assert_eq!(
        shown,
        ["2026-01-07 10:00:00", "2026-01-05 00:00:00", "17", "3"]
    );
    assert_eq!(r[4], [vec![i(2), t("e"), t("ew")]]);
    assert_eq!(sqlstates(&sim, "A"), ["22023"]);
    assert_eq!(
        messages(&sim, "A"),
        ["unit \"fortnight\" not recognized for type timestamp without time zone"]
    );
}

/// Real server: errors scripts meet, in the server's SQLSTATEs and words (they were SQL
/// Server's): a scalar subquery of two rows (21000), a qualifier no FROM names (42P01),
/// INSERT value counts (42601; fewer values without a column list fill the last
/// columns with their defaults), a day past its month's end or an hour 25 (22008, they
/// rolled over), text that is no date (22007).
#[test]
fn script_errors_in_the_servers_words() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text, prio int DEFAULT 5);
INSERT INTO job VALUES (1, 'new', 1), (2, 'new', 2);";
    let a = "SELECT (SELECT id FROM job) AS x;
SELECT job.id;
SELECT x.id FROM job;
INSERT INTO job (id, status, prio) VALUES (5, 'new');
INSERT INTO job (id) VALUES (6, 'new');
INSERT INTO job VALUES (4, 'new');
SELECT id, status, prio FROM job WHERE id = 4;
SELECT '2026-02-30'::date;
SELECT '2026-01-05 25:00'::timestamp;
SELECT 'soon'::date;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(
        sqlstates(&sim, "A"),
        ["21000", "42P01", "42P01", "42601", "42601", "22008", "22008", "22007"]
    );
    assert_eq!(
        messages(&sim, "A"),
        [
            "more than one row returned by a subquery used as an expression",
            "missing FROM-clause entry for table \"job\"",
            "missing FROM-clause entry for table \"x\"",
            "INSERT has more target columns than expressions",
            "INSERT has more expressions than target columns",
            "date/time field value out of range: \"2026-02-30\"",
            "date/time field value out of range: \"2026-01-05 25:00\"",
            "invalid input syntax for type date: \"soon\""
        ]
    );
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![
            Value::Int(4),
            Value::Text("new".into()),
            Value::Int(5)
        ]]]
    );
}

/// Real server: a select list's unknown column or qualifier fails when no row matches
/// too (it returned an empty result with the bad name as its column), and `ORDER BY 5`
/// past the select list fails with 42P10 (it ordered by nothing).
#[test]
fn bad_names_and_positions_fail_without_rows() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new');";
    let a = "SELECT nosuch FROM job WHERE id > 99;
SELECT x.id FROM job WHERE id > 99;
SELECT id FROM job ORDER BY 2;
SELECT status, count(*) FROM job WHERE id > 99 GROUP BY status ORDER BY 3;
SELECT id, upper(status) FROM job WHERE id > 99 ORDER BY 2;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["42703", "42P01", "42P10", "42P10"]);
    assert_eq!(
        messages(&sim, "A")[2..],
        [
            "ORDER BY position 2 is not in select list",
            "ORDER BY position 3 is not in select list"
        ]
    );
    assert_eq!(results(&sim, "A"), [Vec::<Vec<Value>>::new()]);
}

/// Real server: an error found before its statement runs (an unknown column, a call
/// of what is not simulated) fails the transaction like any other: the DO block's own
/// transaction ends with it, so A's next statement autocommits and B sees it (it ran
/// in a transaction left open, rolled back at the session's end); inside BEGIN, the
/// next statement fails with 25P02; an EXCEPTION handler catches it. SQLERRM is the
/// message without its DETAIL.
#[test]
fn errors_before_a_statement_runs_fail_the_transaction() {
    let a = "DO $$ DECLARE x int; BEGIN x := nosuch(); END $$;
UPDATE job SET status = 'a' WHERE id = 1;
BEGIN;
SELECT nosuch FROM job;
SELECT 1;
COMMIT;
DO $$ BEGIN PERFORM nosuch FROM job; EXCEPTION WHEN others THEN RAISE NOTICE 'caught % %', SQLSTATE, SQLERRM; END $$;
DO $$ BEGIN INSERT INTO job VALUES (1, 'x'); EXCEPTION WHEN unique_violation THEN RAISE NOTICE 'caught: %', SQLERRM; END $$;
SELECT pg_sleep(0.5);";
    let b = "SELECT status FROM job WHERE id = 1;";
    let sc = scenario_in(
        Dialect::Postgres,
        TWO_NEW,
        &[("A", 0, a), ("B", 100_000, b)],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(
        sqlstates(&sim, "A")[1..],
        ["42703", "25P02", "42703", "23505"]
    );
    assert_eq!(
        printed(&trace),
        [
            "caught 42703 column \"nosuch\" does not exist",
            "caught: duplicate key value violates unique constraint \"job_pkey\""
        ]
    );
    assert_eq!(results(&sim, "B"), [vec![vec![Value::Text("a".into())]]]);
}

/// Real server: `numeric` without a precision keeps a value's fraction (it rounded to
/// a whole number, 100.50 → 101), in a column, a cast and a PL/pgSQL variable.
#[test]
fn numeric_without_a_scale_keeps_the_fraction() {
    let setup = "CREATE TABLE acct (id int PRIMARY KEY, bal numeric, bal2 numeric(12,2));
INSERT INTO acct VALUES (1, 100.50, 100.50);";
    let a = "UPDATE acct SET bal = bal - 0.25, bal2 = bal2 - 0.25 RETURNING bal, bal2;
SELECT 1.5::decimal, 1.5::numeric(5,0);
DO $$ DECLARE c numeric := 1.75; BEGIN RAISE NOTICE 'c=%', c; END $$;";
    let (sim, trace) = traced(setup, a);
    let d = Value::Decimal;
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![d(100.25), d(100.25)]], vec![vec![d(1.5), d(2.0)]]]
    );
    assert_eq!(printed(&trace), ["c=1.75"]);
}

/// Real server: FOR KEY SHARE does not wait for another transaction's no-key UPDATE,
/// and returns the committed version of the row (it returned the uncommitted one).
#[test]
fn key_share_beside_an_update_reads_the_committed_version() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 1), (2, 2), (3, 3);";
    let a = "BEGIN;
UPDATE t SET v = 20 WHERE id = 2;
SELECT pg_sleep(0.3);
COMMIT;";
    let b = "BEGIN;
SELECT id, v FROM t ORDER BY id FOR KEY SHARE SKIP LOCKED;
SELECT id, v FROM t WHERE id = 2 FOR KEY SHARE;
COMMIT;";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
    let i = Value::Int;
    assert_eq!(
        results(&sim, "B"),
        [
            vec![vec![i(1), i(1)], vec![i(2), i(2)], vec![i(3), i(3)]],
            vec![vec![i(2), i(2)]]
        ]
    );
    assert_eq!(wait_ms(&sim, "B"), 0);
}

/// Real server: `SELECT f()` of a PL/pgSQL function returns its RETURN value as a
/// one-row result named after it (or its alias); it ran the body and returned nothing.
/// A claim wrapped in a function gives each call the next job, NULL when none is left.
#[test]
fn a_function_call_returns_its_value() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new'), (2, 'new');
CREATE FUNCTION claim() RETURNS int LANGUAGE plpgsql AS $$
DECLARE v int;
BEGIN
  SELECT id INTO v FROM job WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED;
  UPDATE job SET status = 'running' WHERE id = v;
  RETURN v;
END $$;
CREATE FUNCTION twice(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN x * 2; END $$;";
    let a = "SELECT claim();
SELECT claim() AS got;
SELECT claim();
SELECT twice(21);";
    let sim = pg(setup, &[("A", 0, a)]);
    assert!(sqlstates(&sim, "A").is_empty(), "{:?}", messages(&sim, "A"));
    let one = |v: Value| vec![vec![v]];
    assert_eq!(
        results(&sim, "A"),
        [
            one(Value::Int(1)),
            one(Value::Int(2)),
            one(Value::Null),
            one(Value::Int(42))
        ]
    );
    let s = session_of(&sim, "A");
    let columns: Vec<&str> = s.results.iter().map(|r| r.columns[0].as_str()).collect();
    assert_eq!(columns, ["claim", "got", "claim", "twice"]);
    // A routine that does not exist: 42883, naming the argument types as the server
    // does (it said "Could not find stored procedure").
    let b = "SELECT nosuch(1);
SELECT nosuch('x', 2.5, NULL);
CALL nosuch();
SELECT v.n, v.s FROM (VALUES (1, 'a'), (2, 'b')) AS v(n, s) ORDER BY n DESC;";
    let sim = pg(setup, &[("B", 0, b)]);
    assert_eq!(sqlstates(&sim, "B"), ["42883"; 3]);
    assert_eq!(
        messages(&sim, "B"),
        [
            "function nosuch(integer) does not exist",
            "function nosuch(unknown, numeric, unknown) does not exist",
            "procedure nosuch() does not exist"
        ]
    );
    // VALUES as a table is standard SQL (it was refused as T-SQL syntax).
    let row = |n: i64, s: &str| vec![Value::Int(n), Value::Text(s.into())];
    assert_eq!(results(&sim, "B"), [vec![row(2, "b"), row(1, "a")]]);
}

/// Real server: a row lock waits only for holders it conflicts with. C's FOR SHARE
/// gets the row A shares at once, though B's FOR UPDATE waits for it (it queued behind
/// B), and B then waits for C too: share lockers can starve a writer.
#[test]
fn a_share_lock_passes_a_waiting_writer() {
    let setup = "CREATE TABLE p (id int PRIMARY KEY, note text);
INSERT INTO p VALUES (1, 'a');";
    let a = "BEGIN;
SELECT id FROM p WHERE id = 1 FOR SHARE;
SELECT pg_sleep(0.5);
COMMIT;";
    let b = "BEGIN;
SELECT id FROM p WHERE id = 1 FOR UPDATE;
COMMIT;";
    let c = "BEGIN;
SELECT id FROM p WHERE id = 1 FOR SHARE;
SELECT pg_sleep(0.6);
COMMIT;";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b), ("C", 200, c)]);
    assert_eq!(wait_ms(&sim, "C"), 0);
    // B waits from 100 ms until C commits at 800 ms (A committed at 500 ms).
    assert!(
        (690..=720).contains(&wait_ms(&sim, "B")),
        "{}",
        wait_ms(&sim, "B")
    );
}

/// Real server: one backend's locks never conflict. A session holding advisory lock 7
/// gets the transaction-level lock 7 too (a try answers true), while another session's
/// try is refused; A's unlock answers true after its commit.
#[test]
fn a_sessions_own_advisory_locks_do_not_conflict() {
    let a = "SELECT pg_advisory_lock(7);
BEGIN;
SELECT pg_advisory_xact_lock(7);
SELECT pg_try_advisory_xact_lock(7);
SELECT pg_sleep(0.5);
COMMIT;
SELECT pg_advisory_unlock(7);";
    let b = "SELECT pg_try_advisory_lock(7);";
    let sim = pg(TASKS, &[("A", 0, a), ("B", 100, b)]);
    assert!(sqlstates(&sim, "A").is_empty(), "{:?}", messages(&sim, "A"));
    assert_eq!(wait_ms(&sim, "A"), 0);
    let a = results(&sim, "A");
    assert_eq!(a[2], [[Value::True]]);
    assert_eq!(a[a.len() - 1], [[Value::True]]);
    assert_eq!(results(&sim, "B"), [[[Value::False]]]);
}

const QUEUES: &str = "CREATE TABLE queue (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE task (id int PRIMARY KEY, queue int NOT NULL, status text NOT NULL);
INSERT INTO queue VALUES (1, 'a'), (2, 'b');
INSERT INTO task VALUES (1, 1, 'new'), (2, 2, 'new'), (3, 1, 'new'), (4, 2, 'new');";

/// A's claim of queue `a`'s first task, held for 900 ms, with `clause`.
fn queue_claim(name: &str, clause: &str) -> String {
    format!(
        "SELECT t.id FROM task t JOIN queue q ON q.id = t.queue WHERE q.name = '{name}'
ORDER BY t.id LIMIT 1 {clause};"
    )
}

/// Real server: a row-lock clause over a join locks the rows the query returns, not
/// every row its scans read. Each figure below is the server's for the same scripts
/// (PostgreSQL 15): B's claim of queue `b` goes through at once (it waited 800 ms for
/// task 1 when every scanned row was locked); `OF t SKIP LOCKED` in queue `a` takes task
/// 3; a plain `OF t` waits for task 1 (805 ms on the server) and returns it; without OF,
/// queue `a`'s row is locked too, so SKIP LOCKED returns nothing, and the task row B
/// locked before it met the locked queue row stays locked (the server's NOWAIT on task 3
/// failed).
#[test]
fn a_row_lock_clause_over_a_join_locks_the_rows_returned() {
    let held = |clause: &str| {
        format!(
            "BEGIN;\n{}\nSELECT pg_sleep(0.9);\nCOMMIT;",
            queue_claim("a", clause)
        )
    };
    let a = held("FOR UPDATE OF t");
    let b = queue_claim("b", "FOR UPDATE OF t");
    let sim = pg(QUEUES, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(results(&sim, "A")[0], [[Value::Int(1)]]);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(2)]]);

    let b = queue_claim("a", "FOR UPDATE OF t SKIP LOCKED");
    let sim = pg(QUEUES, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(3)]]);

    let b = queue_claim("a", "FOR UPDATE OF t");
    let sim = pg(QUEUES, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(wait_ms(&sim, "B"), 800);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(1)]]);

    let a = held("FOR UPDATE");
    let b = format!(
        "BEGIN;\n{}\nSELECT pg_sleep(0.2);\nCOMMIT;",
        queue_claim("a", "FOR UPDATE SKIP LOCKED")
    );
    let c = "SELECT id FROM task WHERE id = 3 FOR UPDATE NOWAIT;";
    let sim = pg(QUEUES, &[("A", 0, &a), ("B", 100, &b), ("C", 200, c)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(results(&sim, "B")[0], Vec::<Vec<Value>>::new());
    assert_eq!(sqlstates(&sim, "C"), ["55P03"]);
}

/// Real server: over a join, NOWAIT fails at once on a returned row another session
/// holds, and REPEATABLE READ may not lock a row changed since its snapshot (40001).
#[test]
fn a_join_row_lock_fails_with_nowait_and_after_a_concurrent_update() {
    let a = format!(
        "BEGIN;\n{}\nSELECT pg_sleep(0.9);\nCOMMIT;",
        queue_claim("a", "FOR UPDATE OF t")
    );
    let b = queue_claim("a", "FOR UPDATE OF t NOWAIT");
    let sim = pg(QUEUES, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(sqlstates(&sim, "B"), ["55P03"]);

    let a = "UPDATE task SET status = 'done' WHERE id = 1;";
    let b = format!(
        "BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM task;
SELECT pg_sleep(0.2);
{}
COMMIT;",
        queue_claim("a", "FOR UPDATE OF t")
    );
    let sim = pg(QUEUES, &[("B", 0, &b), ("A", 100, a)]);
    assert_eq!(sqlstates(&sim, "B"), ["40001"]);
}

/// Real server (a `C` collation): text compares by its bytes. `'New'`, `'new'` and
/// `'new '` are three keys of a unique index; ORDER BY puts capitals and `[` before
/// lower case; LIKE is case-sensitive and ILIKE not; in a LIKE pattern `[` is itself and
/// `\_` an underscore. Each figure is the server's for the same queries.
#[test]
fn text_compares_by_its_bytes() {
    let setup = "CREATE TABLE w (id int PRIMARY KEY, name text NOT NULL);
CREATE UNIQUE INDEX w_name ON w (name);
INSERT INTO w VALUES (1, 'new'), (2, 'New'), (3, 'new '), (4, 'apple'), (5, 'Banana'),
(6, 'a_b'), (7, 'axb'), (8, '[x]');";
    let queries = r"SELECT count(*) FROM w WHERE name = 'New';
SELECT count(*) FROM w WHERE name LIKE 'n%';
SELECT count(*) FROM w WHERE name ILIKE 'n%';
SELECT count(*) FROM w WHERE name LIKE 'a\_b';
SELECT count(*) FROM w WHERE name LIKE '[x]';
SELECT count(DISTINCT lower(name)) FROM w;
SELECT count(*) FROM w WHERE name IN ('NEW', 'new');
SELECT max(name) FROM w;
SELECT name FROM w ORDER BY name;";
    let sim = pg(setup, &[("A", 0, queries)]);
    let got = results(&sim, "A");
    let counts: Vec<&Value> = got[..7].iter().map(|r| &r[0][0]).collect();
    let want = [1, 2, 3, 1, 1, 7, 1].map(Value::Int);
    assert_eq!(counts, want.iter().collect::<Vec<_>>());
    assert_eq!(got[7], [[Value::Text("new ".into())]]);
    let order: Vec<String> = got[8].iter().map(|r| r[0].as_text()).collect();
    assert_eq!(
        order,
        ["Banana", "New", "[x]", "a_b", "apple", "axb", "new", "new "]
    );
}

/// `CREATE FUNCTION ... LANGUAGE plpgsql` in the setup, called with `SELECT f(...)`
/// and `CALL f(...)`: its parameters and `FOR i IN a..b` are variables.
#[test]
fn functions_run_with_their_parameters() {
    let setup = format!(
        "{TASKS}
CREATE FUNCTION take(who text, times int) RETURNS void AS $$
BEGIN
  FOR i IN 1..times LOOP
    UPDATE task SET owner = who WHERE id = i;
  END LOOP;
END;
$$ LANGUAGE plpgsql;"
    );
    let mut sim = pg(
        &setup,
        &[("A", 0, "SELECT take('A', 2);\nCALL take('B', 1);")],
    );
    assert!(sqlstates(&sim, "A").is_empty());
    assert_eq!(
        final_rows(&mut sim, "SELECT owner FROM task ORDER BY id"),
        [
            vec![Value::Text("B".into())],
            vec![Value::Text("A".into())],
            vec![Value::Null]
        ]
    );
}

/// Real server: a batch claim `UPDATE ... WHERE id IN (SELECT ... LIMIT 2 FOR UPDATE SKIP
/// LOCKED)` takes the first two free rows, past the one another session holds, without
/// waiting: only rows that match are locked.
#[test]
fn a_batch_claim_passes_a_held_row() {
    let batch = "UPDATE task SET status = 'taken', owner = 'B'
WHERE id IN (SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 2 FOR UPDATE SKIP LOCKED)
RETURNING id;";
    let sim = pg(TASKS, &[("A", 0, HOLDER), ("B", 500, batch)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(
        results(&sim, "B"),
        [vec![vec![Value::Int(2)], vec![Value::Int(3)]]]
    );
}

/// Real server: an uncorrelated subquery is an InitPlan, run once per statement, so the
/// claim `WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1)` skips the held row
/// once and reads the table once; a correlated one still runs for each outer row.
#[test]
fn an_uncorrelated_subquery_runs_once_and_a_correlated_one_per_row() {
    let mut sim = pg(
        "CREATE TABLE v (id int PRIMARY KEY, g int, x int);
INSERT INTO v VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5), (4, 2, 1);",
        &[(
            "A",
            0,
            "SELECT id FROM v o WHERE x = (SELECT MAX(x) FROM v w WHERE w.g = o.g) ORDER BY id;",
        )],
    );
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![Value::Int(2)], vec![Value::Int(3)]]]
    );
    assert_eq!(final_rows(&mut sim, "SELECT COUNT(*) FROM v").len(), 1);

    let claim = "UPDATE task SET status = 'taken', owner = 'B'
WHERE id = (SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING id;";
    let mut sim = Simulation::new(
        &scenario_in(
            Dialect::Postgres,
            TASKS,
            &[("A", 0, HOLDER), ("B", 500_000, claim)],
        ),
        1,
    )
    .unwrap();
    let trace = sim.run_traced().unwrap();
    let skips = trace
        .entries
        .iter()
        .filter(
            |e| matches!(&e.event, engine::Event::RowSkipped { session, .. } if &**session == "B"),
        )
        .count();
    assert_eq!(skips, 1, "the subquery ran more than once");
    assert_eq!(results(&sim, "B"), [vec![vec![Value::Int(2)]]]);
}

/// Real server (`pg_relation_size`, `pg_stat_statements`): a version of (int, int,
/// varchar, varchar) takes 44 bytes with its line pointer, 185 to a page; updating every
/// row writes as many versions again, and a sequential scan reads the dead ones' pages
/// too. VACUUM gives no page back, but the next versions take the space it freed. In a
/// transaction block VACUUM fails with 25001.
#[test]
fn a_scan_reads_every_heap_page_dead_versions_included() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, rank int NOT NULL,
    status varchar(20) NOT NULL DEFAULT 'new', owner varchar(30));
DO $$ DECLARE n int := 0; BEGIN
    LOOP n := n + 1; EXIT WHEN n > 1850; INSERT INTO t (id, rank) VALUES (n, 1); END LOOP;
END $$;";
    let count = "SELECT COUNT(*) FROM t WHERE status = 'x';";
    let script = format!(
        "{count}
UPDATE t SET status = 'done', owner = 'p1';
{count}
VACUUM t;
UPDATE t SET status = 'new', owner = 'p2';
{count}
BEGIN;
VACUUM;
ROLLBACK;"
    );
    let mut sim = Simulation::new(
        &scenario_in(Dialect::Postgres, setup, &[("A", 0, &script)]),
        1,
    )
    .unwrap();
    let trace = sim.run_traced().unwrap();
    let pages: Vec<u64> = trace
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            engine::Event::RowsRead { logical_reads, .. } => Some(*logical_reads),
            _ => None,
        })
        .collect();
    // Scans before the update, of the update, after it, of the second update, after it.
    assert_eq!(pages, [10, 10, 20, 20, 20]);
    assert_eq!(sqlstates(&sim, "A"), ["25001"]);
}

/// Real server: unnamed constraints are named `<table>_pkey` and `<table>_<columns>_key`,
/// and a clash names the constraint and, as psql's DETAIL line, the key
/// (`duplicate key value violates unique constraint "t_pkey"`, `Key (id)=(1) already
/// exists.`); a heap table has no clustered index, so the trace names its accesses as
/// EXPLAIN does: a sequential scan, an index scan using the primary key or an index.
#[test]
fn constraints_and_scans_go_by_postgresql_names() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, code int UNIQUE, tag int);
CREATE INDEX t_tag ON t (tag);
INSERT INTO t (id, code, tag) VALUES (1, 10, 100);";
    let sc = scenario_in(
        Dialect::Postgres,
        setup,
        &[(
            "A",
            0,
            "INSERT INTO t (id, code) VALUES (1, 11);
INSERT INTO t (id, code) VALUES (2, 10);
SELECT code FROM t WHERE id = 1;
SELECT id FROM t WHERE tag = 100;
SELECT id FROM t WHERE code + 0 = 10;",
        )],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let messages = messages(&sim, "A");
    assert_eq!(
        messages,
        [
            "duplicate key value violates unique constraint \"t_pkey\" (DETAIL: Key (id)=(1) already exists.)",
            "duplicate key value violates unique constraint \"t_code_key\" (DETAIL: Key (code)=(10) already exists.)",
        ]
    );
    let reads: Vec<String> = trace
        .entries
        .iter()
        .filter(|e| matches!(e.event, engine::Event::RowsRead { .. }))
        .map(|e| e.event.to_string())
        .filter(|l| l.starts_with("A reads 1 row(s) of t"))
        .collect();
    let by: Vec<&str> = reads
        .iter()
        .map(|l| l.split(" by ").nth(1).unwrap().split(':').next().unwrap())
        .collect();
    assert_eq!(
        by,
        [
            "index scan using t_pkey",
            "index scan using t_tag",
            "sequential scan"
        ],
        "{reads:#?}"
    );
}

/// Real server (PL/pgSQL "Transaction Management"): a CALL outside a transaction block
/// runs in one transaction. A statement before the procedure's COMMIT is undone by an
/// error before it; the COMMIT ends that transaction and begins the next at once; the
/// transaction open when the procedure returns commits, it is not rolled back as if the
/// session had ended inside it.
#[test]
fn a_call_is_one_transaction_and_its_commit_chains_the_next() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, note text);
CREATE PROCEDURE p(fail int)
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO t VALUES (1, 'before');
    IF fail = 1 THEN
        PERFORM 1 / 0;
    END IF;
    COMMIT;
    INSERT INTO t VALUES (2, 'after');
END $$;";
    let sc = scenario_in(
        Dialect::Postgres,
        setup,
        &[("A", 0, "CALL p(1);"), ("B", 1000, "CALL p(0);")],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(sqlstates(&sim, "A"), ["22012"]);
    assert!(sqlstates(&sim, "B").is_empty());
    // A's insert went with its error; B's two inserts are both committed.
    assert_eq!(
        final_rows(&mut sim, "SELECT id FROM t ORDER BY id"),
        [[Value::Int(1)], [Value::Int(2)]]
    );
    let lines: Vec<String> = trace
        .entries
        .iter()
        .map(|e| e.event.to_string())
        .filter(|l| l.starts_with("B "))
        .collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(needle))
            .unwrap_or_else(|| panic!("no `{needle}` in {lines:#?}"))
    };
    assert!(at("B calls p") < at("B begins a transaction"));
    assert!(at("B begins a transaction") < at("B runs p line 6: INSERT"));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("runs p line 10: COMMIT"))
            .count(),
        1,
        "{lines:#?}"
    );
    assert!(
        lines.iter().all(|l| !l.contains("rolls back")),
        "{lines:#?}"
    );
    assert!(
        at("B returns from p")
            < lines
                .iter()
                .rposition(|l| l.starts_with("B commits"))
                .unwrap()
    );
}

/// Real server: `COMMIT AND CHAIN` ends the transaction block and begins the next one
/// at once; `ROLLBACK AND NO CHAIN` is a plain ROLLBACK.
#[test]
fn commit_and_chain_begins_the_next_block() {
    let sql = "BEGIN;
INSERT INTO task (status) VALUES ('one');
COMMIT AND CHAIN;
INSERT INTO task (status) VALUES ('two');
ROLLBACK AND NO CHAIN;
INSERT INTO task (status) VALUES ('three');";
    let mut sim = pg(TASKS, &[("A", 0, sql)]);
    assert!(sqlstates(&sim, "A").is_empty());
    assert_eq!(
        final_rows(&mut sim, "SELECT status FROM task WHERE id > 3 ORDER BY id"),
        [[Value::Text("one".into())], [Value::Text("three".into())]]
    );
    // Outside a block there is nothing to chain (checked on PostgreSQL 15): 25P01, and
    // the next statement still commits on its own.
    let sql = "COMMIT AND CHAIN;
ROLLBACK AND CHAIN;
INSERT INTO task (status) VALUES ('four');
SELECT pg_sleep(1);";
    let mut sim = pg(
        TASKS,
        &[("A", 0, sql), ("B", 500, "SELECT count(*) FROM task;")],
    );
    assert_eq!(sqlstates(&sim, "A"), ["25P01", "25P01"]);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(4)]]);
    assert_eq!(
        final_rows(&mut sim, "SELECT count(*) FROM task"),
        [[Value::Int(4)]]
    );
}

/// pg_locks' words: a row's lock is on a TUPLE, an advisory lock on `advisory <key>`;
/// no SQL Server KEY, OBJECT or APP in any PostgreSQL lesson's trace, under any setting,
/// pages read are shared buffers hit, not logical reads, and a commit's locks are on
/// tables, never pages (PostgreSQL has no page locks).
#[test]
fn locks_are_named_in_postgresql_words() {
    let mut words = std::collections::BTreeSet::new();
    for l in super::explorable::lessons()
        .into_iter()
        .filter(|l| l.dialect == Dialect::Postgres)
    {
        for settings in l.all_combinations().settings {
            let applied = l.apply(&settings).expect("applies");
            let report = lockstep_lesson::run(&applied, l.seed).expect("runs");
            for e in &report.trace.entries {
                if let engine::Event::LockGranted { resource, .. } = &e.event {
                    words.insert(resource.split(' ').next().unwrap_or("").to_string());
                }
                let line = e.event.to_string();
                assert!(
                    !line.contains("logical reads") && !line.contains("or page"),
                    "{}: SQL Server's words in `{line}`",
                    l.id
                );
            }
        }
    }
    assert_eq!(
        words.into_iter().collect::<Vec<_>>(),
        ["TUPLE", "advisory"],
        "the first word of every lock a PostgreSQL lesson takes"
    );
}

/// FOR UPDATE of a row that does not exist locks nothing, SERIALIZABLE or not (row locks
/// live on row versions): two "insert if missing" guards both insert, and the second
/// waits on the first's new key (SERIALIZABLE's read tracking never blocks). Its unique
/// check then finds A's committed row; before reporting the duplicate it checks the
/// index for serializable conflicts, and A, which read that index page looking for 9,
/// committed first: 40001 (pivot, during write), not 23505, as psql shows on
/// PostgreSQL 15.
#[test]
fn for_update_of_a_missing_row_locks_nothing() {
    let guard = "BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT id FROM task WHERE id = 9 FOR UPDATE;
INSERT INTO task (id, status) VALUES (9, 'new');
SELECT pg_sleep(1);
COMMIT;";
    let sim = pg(TASKS, &[("A", 0, guard), ("B", 1, guard)]);
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    // The block is failed after that: its pg_sleep is refused with 25P02.
    assert_eq!(sqlstates(&sim, "B"), ["40001", "25P02"]);
    // B's FOR UPDATE found no row and did not wait: only its INSERT did.
    assert_eq!(results(&sim, "B")[0], Vec::<Vec<Value>>::new());
    assert!(wait_ms(&sim, "B") >= 900, "B waits for A's key");
}

/// Real server: unlocking an advisory lock the session does not hold returns false with
/// a WARNING (`you don't own a lock of type ExclusiveLock`, ShareLock for the shared
/// form); an unlock of a held lock says nothing.
#[test]
fn unlocking_an_advisory_lock_not_held_warns() {
    let script = "SELECT pg_advisory_lock(7);
SELECT pg_advisory_unlock(7);
SELECT pg_advisory_unlock(7);
SELECT pg_advisory_unlock_shared(7);";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, script)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let printed: Vec<String> = trace
        .entries
        .iter()
        .filter(|e| matches!(e.event, engine::Event::Printed { .. }))
        .map(|e| e.event.to_string())
        .collect();
    assert_eq!(
        printed,
        [
            "A prints: WARNING:  you don't own a lock of type ExclusiveLock",
            "A prints: WARNING:  you don't own a lock of type ShareLock",
        ]
    );
}

/// Real server (psql 15.18): a column without an alias is named as PostgreSQL names it,
/// `count`, `?column?`, `max`, `exists`, and a derived table's column can be read by
/// that name. SQL Server leaves such columns unnamed.
#[test]
fn unnamed_columns_are_named_as_postgresql_names_them() {
    let sim = pg(
        TASKS,
        &[(
            "A",
            0,
            "SELECT count(*), max(id) AS top, 1 + 1 FROM task;
SELECT (SELECT max(id) FROM task), EXISTS (SELECT 1 FROM task), pg_try_advisory_lock(7);
SELECT d.count FROM (SELECT count(*) FROM task) AS d;",
        )],
    );
    let o = sim.outcome();
    let a = o.sessions.iter().find(|s| s.name == "A").unwrap();
    let columns: Vec<Vec<&str>> = a
        .results
        .iter()
        .map(|r| r.columns.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        columns,
        [
            vec!["count", "top", "?column?"],
            vec!["max", "exists", "pg_try_advisory_lock"],
            vec!["count"],
        ]
    );
    assert_eq!(results(&sim, "A")[2], [[Value::Int(3)]]);
}

/// Real server: pg_stat_statements records a statement when it completes, so what a
/// failing statement read adds nothing to its role's shared buffers (SQL Server's
/// STATISTICS IO does count it: see seed_003's MERGE).
#[test]
fn a_failed_statement_adds_no_shared_buffers() {
    let reads = |b: &str| {
        let s = session_of(&pg(TASKS, &[("B", 0, b)]), "B");
        (s.logical_reads, s.errors.len())
    };
    let ok = reads("SELECT count(*) FROM task;");
    let failed = reads("SELECT count(*) FROM task;\nUPDATE task SET id = 2 WHERE id = 1;");
    assert_eq!(
        failed.1, 1,
        "the UPDATE finds its row, then fails with 23505"
    );
    assert!(ok.0 > 0);
    assert_eq!(failed.0, ok.0);
}

/// Real server: an UPDATE that gives a row another row's primary key fails with 23505,
/// as an INSERT of that key does, and leaves both rows as they were.
#[test]
fn an_update_to_a_taken_primary_key_fails_with_23505() {
    let mut sim = pg(TASKS, &[("B", 0, "UPDATE task SET id = 2 WHERE id = 1;")]);
    assert_eq!(sqlstates(&sim, "B"), ["23505"]);
    let e = &errors_of(&sim, "B")[0];
    assert!(
        e.message
            .ends_with("(DETAIL: Key (id)=(2) already exists.)"),
        "{}",
        e.message
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT id FROM task ORDER BY id"),
        [[Value::Int(1)], [Value::Int(2)], [Value::Int(3)]]
    );
    // A key no row has is taken at once.
    let mut sim = pg(TASKS, &[("B", 0, "UPDATE task SET id = 9 WHERE id = 1;")]);
    assert!(sqlstates(&sim, "B").is_empty());
    assert_eq!(
        final_rows(&mut sim, "SELECT id FROM task ORDER BY id"),
        [[Value::Int(2)], [Value::Int(3)], [Value::Int(9)]]
    );
}

/// A query against the final state (a check's, `--query`'s) names its unnamed columns
/// as the server does: `count` and `max`, not "?column?".
#[test]
fn a_query_on_the_final_state_names_columns_as_psql_does() {
    let mut sim = pg(TASKS, &[]);
    let r = sim
        .query("SELECT count(*), max(id) AS top, 1 + 1 FROM task")
        .unwrap();
    assert_eq!(r.columns, ["count", "top", "?column?"]);
}

/// Real server: COMMIT in a transaction an error has aborted rolls back, and psql shows
/// the command tag ROLLBACK; the trace says ROLLBACK too, not "finishes COMMIT".
#[test]
fn a_commit_after_an_error_finishes_as_rollback() {
    let script = "BEGIN;\nSELECT 1/0;\nCOMMIT;\nBEGIN;\nCOMMIT;";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, script)]);
    let trace = Simulation::new(&sc, 1).unwrap().run_traced().unwrap();
    let finished: Vec<String> = trace
        .entries
        .iter()
        .map(|e| e.event.to_string())
        .filter(|l| l.starts_with("A finishes") && !l.ends_with("its script"))
        .map(|l| l.split(" in ").next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        finished,
        [
            "A finishes BEGIN",
            "A finishes ROLLBACK",
            "A finishes BEGIN",
            "A finishes COMMIT"
        ]
    );
}

/// PL/pgSQL's `n := n + 1` is an assignment (its error context says "at assignment"),
/// not SQL's SET command: the trace names it so.
#[test]
fn a_plpgsql_assignment_is_named_assignment() {
    let script = "DO $$\nDECLARE n int := 0;\nBEGIN\n    n := n + 1;\nEND $$;";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, script)]);
    let trace = Simulation::new(&sc, 1).unwrap().run_traced().unwrap();
    let lines: Vec<String> = trace.entries.iter().map(|e| e.event.to_string()).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("A finishes assignment")),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("A finishes SET")),
        "{lines:#?}"
    );
}

/// Real server: while A's key update is uncommitted, a reader sees the row under its
/// old key and does not wait; once A commits, the row is under its new key only.
#[test]
fn a_key_update_is_seen_by_readers_only_once_committed() {
    let a = "BEGIN;\nUPDATE task SET id = 9 WHERE id = 1;\nSELECT pg_sleep(1);\nCOMMIT;";
    let read = "SELECT id FROM task ORDER BY id;\nSELECT count(*) FROM task WHERE id = 9;";
    let sim = pg(TASKS, &[("A", 0, a), ("B", 100, read), ("C", 2000, read)]);
    let ids = |rows: &[Vec<Value>]| rows.iter().map(|r| r[0].clone()).collect::<Vec<_>>();
    let b = results(&sim, "B");
    assert_eq!(ids(&b[0]), [Value::Int(1), Value::Int(2), Value::Int(3)]);
    assert_eq!(ids(&b[1]), [Value::Int(0)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    let c = results(&sim, "C");
    assert_eq!(ids(&c[0]), [Value::Int(2), Value::Int(3), Value::Int(9)]);
    assert_eq!(ids(&c[1]), [Value::Int(1)]);
}

/// Real server (psql 15.18): `||` joins text (NULL if either side is), `^` raises to a
/// power in double precision, each at PostgreSQL's precedence, and a power's own errors.
#[test]
fn concatenation_and_power_as_the_server_computes_them() {
    let script = "SELECT 'n' || 1 + 2, 2 ^ 3 ^ 2, -2 ^ 2, 2 * 3 ^ 2, 1 | 2 + 4, 3 & 5 | 8, 1 + 2 || 'a', 2 ^ 10;
SELECT 'task ' || id FROM task WHERE status || '!' = 'new!' AND id = 2;
SELECT 'a' || NULL;
SELECT 0 ^ -1;
SELECT (-8) ^ 0.5;
SELECT 10 ^ 400;";
    let sim = pg(TASKS, &[("A", 0, script)]);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![
                text("n3"),
                Value::Decimal(64.0),
                Value::Decimal(4.0),
                Value::Decimal(18.0),
                Value::Int(7),
                Value::Int(9),
                text("3a"),
                Value::Decimal(1024.0),
            ]],
            vec![vec![text("task 2")]],
            vec![vec![Value::Null]],
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["2201F", "2201F", "22003"]);
}

/// Real server: `pg_try_advisory_lock` in a query answers for every row, true again for
/// a lock the statement took on an earlier row (it holds it), never NULL.
#[test]
fn a_try_lock_answers_every_row() {
    let sim = pg(
        TASKS,
        &[(
            "A",
            0,
            "SELECT pg_try_advisory_lock(1), id FROM task ORDER BY id;",
        )],
    );
    assert_eq!(
        results(&sim, "A")[0],
        [1, 2, 3]
            .map(|id| vec![Value::True, Value::Int(id)])
            .to_vec()
    );
}

/// A timestamp minus a timestamp is an interval on the server; the simulator has no
/// interval values and says so, rather than borrowing another engine's error.
#[test]
fn an_interval_is_not_simulated() {
    let sim = pg(TASKS, &[("A", 0, "SELECT now() - now();")]);
    let errors = errors_of(&sim, "A");
    assert_eq!(
        errors
            .iter()
            .map(|e| e.message.as_str())
            .collect::<Vec<_>>(),
        ["not simulated: one point in time minus another (an interval)"]
    );
}

/// Real server: a second INSERT of an uncommitted key waits for the inserting
/// transaction, and pg_locks lists a ShareLock wanted on that transaction's id, held
/// ExclusiveLock by the inserter (no row lock: an insert takes none). The trace and the
/// state view name the wait so.
#[test]
fn a_duplicate_insert_waits_on_the_writers_transaction() {
    let insert = |note: &str| {
        format!("BEGIN;\nINSERT INTO task (id, status) VALUES (9, '{note}');\nSELECT pg_sleep(1);\nCOMMIT;")
    };
    let (a, b) = (insert("a"), insert("b"));
    let sc = scenario_in(
        Dialect::Postgres,
        TASKS,
        &[("A", 0, a.as_str()), ("B", 100_000, b.as_str())],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    while sim.view(10).waits.is_empty() {
        assert!(sim.step(), "B never waits");
    }
    let view = sim.view(10);
    let lock = view
        .locks
        .iter()
        .find(|l| l.resource == "TRANSACTIONID (writer of task (9))")
        .unwrap_or_else(|| panic!("no transaction lock in {:?}", view.locks));
    let badges = |b: &[engine::LockBadge]| {
        b.iter()
            .map(|b| (b.session.clone(), b.mode))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        badges(&lock.holders),
        [("A".to_string(), engine::locks::LockMode::X)]
    );
    assert_eq!(
        badges(&lock.waiters),
        [("B".to_string(), engine::locks::LockMode::S)]
    );
    let trace = sim.run_traced().unwrap();
    let lines: Vec<String> = trace
        .entries
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                engine::Event::LockWaiting { .. } | engine::Event::LockGranted { .. }
            )
        })
        .map(|e| e.event.to_string())
        .collect();
    assert_eq!(
        lines,
        [
            "B waits for ShareLock on TRANSACTIONID (writer of task (9)): A holds ExclusiveLock",
            "B gets ShareLock on TRANSACTIONID (writer of task (9)) after waiting 900.123 ms",
        ]
    );
    assert_eq!(sqlstates(&sim, "B"), ["23505", "25P02"]);
}

/// A PostgreSQL lesson's page checks say `shared_buffers_hit`, the player's word for the
/// figure, not SQL Server's `logical_reads`; the value is the same.
#[test]
fn page_checks_speak_of_shared_buffers() {
    let lesson = super::explorable::lessons()
        .into_iter()
        .find(|l| l.id == "pg-partial-index")
        .expect("pg-partial-index");
    let applied = lesson.apply(&lesson.settings_default()).expect("applies");
    let report = lockstep_lesson::run(&applied, lesson.seed).expect("runs");
    let pages: Vec<String> = report
        .checks
        .iter()
        .map(|c| c.detail.to_string())
        .filter(|d| d.contains("buffers") || d.contains("logical"))
        .collect();
    assert_eq!(pages.len(), 1, "{pages:?}");
    assert!(
        pages[0].starts_with("A shared_buffers_hit = ")
            && pages[0].ends_with("(expected at most 20)"),
        "{}",
        pages[0]
    );
}

/// Real server: a timestamp prints its microseconds without trailing zeros
/// (`10:00:00.5`, `10:00:00`), a date no time.
#[test]
fn timestamps_print_without_trailing_zeros() {
    let sim = pg(
        "CREATE TABLE t (a timestamp, b timestamp(3), c date);
INSERT INTO t VALUES ('2026-01-05 10:00:00.5', '2026-01-05 10:00:00', '2026-01-05');",
        &[("A", 0, "SELECT a, b, c FROM t;")],
    );
    let rows = results(&sim, "A");
    let texts: Vec<String> = rows[0][0].iter().map(|v| v.to_string()).collect();
    assert_eq!(
        texts,
        ["2026-01-05 10:00:00.5", "2026-01-05 10:00:00", "2026-01-05"]
    );
}

/// Real server: an uncorrelated subquery in UPDATE's WHERE is an InitPlan, computed once.
/// B waits for A's row 1; when A commits, B re-checks row 1 against the same value and
/// overwrites A's claim (the lost update a claim without FOR UPDATE risks), rather than
/// running the subquery again and taking row 2.
#[test]
fn a_woken_update_keeps_its_subquery_value() {
    let claim = |who: &str| {
        format!(
            "UPDATE task SET status = 'taken', owner = '{who}'
WHERE id = (SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1) RETURNING id;"
        )
    };
    let a = format!("BEGIN;\n{}\nSELECT pg_sleep(1);\nCOMMIT;", claim("A"));
    let b = claim("B");
    let mut sim = pg(TASKS, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(wait_ms(&sim, "B"), 900);
    assert_eq!(results(&sim, "B")[0], [[Value::Int(1)]]);
    assert_eq!(
        final_rows(&mut sim, "SELECT id, owner FROM task ORDER BY id"),
        [
            [Value::Int(1), Value::Text("B".into())],
            [Value::Int(2), Value::Null],
            [Value::Int(3), Value::Null]
        ]
    );
}

/// Real server: a CHECK constraint refuses a false row with 23514 and its own name
/// (`job_attempts_check`, numbered when a second would take it), and psql's DETAIL
/// lists the row; NULL passes.
#[test]
fn check_constraints_refuse_with_23514() {
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, attempts int NOT NULL DEFAULT 0 CHECK (attempts <= 3), status text, CHECK (attempts >= 0));
INSERT INTO job (id) VALUES (1);",
        &[(
            "A",
            0,
            "INSERT INTO job (id, attempts) VALUES (2, 4);
UPDATE job SET attempts = -1 WHERE id = 1;
INSERT INTO job (id, status) VALUES (3, NULL);",
        )],
    );
    assert_eq!(sqlstates(&sim, "A"), ["23514", "23514"]);
    let messages = messages(&sim, "A");
    assert_eq!(
        messages,
        [
            "new row for relation \"job\" violates check constraint \"job_attempts_check\" (DETAIL: Failing row contains (2, 4, null).)",
            "new row for relation \"job\" violates check constraint \"job_attempts_check1\" (DETAIL: Failing row contains (1, -1, null).)"
        ]
    );
}

/// Real server: NULL sorts after every value: last ascending, first descending, in
/// ORDER BY and through a btree index alike, unless NULLS FIRST or LAST says otherwise.
/// A claim by `priority DESC` takes the task with no priority first.
#[test]
fn nulls_sort_last_ascending_and_first_descending() {
    for index in [
        "",
        "CREATE INDEX task_priority ON task (priority DESC, id);",
    ] {
        let setup = format!(
            "CREATE TABLE task (id int PRIMARY KEY, priority int, status text NOT NULL DEFAULT 'new');
INSERT INTO task (id, priority) VALUES (1, 5), (2, NULL), (3, 1);
{index}"
        );
        let sim = pg(
            &setup,
            &[(
                "A",
                0,
                "SELECT id FROM task WHERE status = 'new' ORDER BY priority DESC LIMIT 1 FOR UPDATE SKIP LOCKED;
SELECT id FROM task ORDER BY priority, id;
SELECT id FROM task ORDER BY priority DESC, id;
SELECT id FROM task ORDER BY priority NULLS FIRST, id;
SELECT id FROM task ORDER BY priority DESC NULLS LAST, id;",
            )],
        );
        let ids: Vec<Vec<Value>> = results(&sim, "A")
            .into_iter()
            .map(|rows| rows.into_iter().map(|r| r[0].clone()).collect())
            .collect();
        let ints = |v: &[i64]| v.iter().map(|&n| Value::Int(n)).collect::<Vec<_>>();
        assert_eq!(
            ids,
            [
                ints(&[2]),
                ints(&[3, 1, 2]),
                ints(&[2, 1, 3]),
                ints(&[2, 3, 1]),
                ints(&[1, 3, 2])
            ],
            "{index}"
        );
    }
}

/// Real server: data errors in PostgreSQL's words, not SQL Server's (a NOT NULL one with
/// psql's DETAIL: the whole row, defaults filled in).
#[test]
fn data_errors_use_the_server_s_words() {
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, name varchar(5) NOT NULL, n int);",
        &[(
            "A",
            0,
            "INSERT INTO job (id, name) VALUES (1, 'abcdefgh');
INSERT INTO job (id, name) VALUES (2, NULL);
INSERT INTO job (id, name, n) VALUES (3, 'c', 3000000000);
SELECT '1.5'::int;",
        )],
    );
    assert_eq!(sqlstates(&sim, "A"), ["22001", "23502", "22003", "22P02"]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "value too long for type character varying(5)",
            "null value in column \"name\" of relation \"job\" violates not-null constraint (DETAIL: Failing row contains (2, null, null).)",
            "integer out of range",
            "invalid input syntax for type integer: \"1.5\""
        ]
    );
}

/// Real server: AVG of integers is numeric (1.5 for 1 and 2), not an integer as in SQL
/// Server, and a fraction cast to an integer rounds half away from zero.
#[test]
fn avg_of_integers_keeps_its_fraction() {
    let sim = pg(
        "CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2);",
        &[(
            "A",
            0,
            "SELECT AVG(a), SUM(a), AVG(a)::int FROM t;\nSELECT 2.5::int, (-1.5)::int, 1.4::int;",
        )],
    );
    let r = results(&sim, "A");
    assert_eq!(r[0], [[Value::Decimal(1.5), Value::Int(3), Value::Int(2)]]);
    assert_eq!(r[1], [[Value::Int(3), Value::Int(-2), Value::Int(1)]]);
}

/// Real server: the isolation level is fixed by a transaction's first query; a later
/// SET TRANSACTION fails with 25001 and fails the block, so the UPDATE after it never
/// runs.
#[test]
fn set_transaction_after_a_query_fails_the_block() {
    let mut sim = pg(
        "CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL); INSERT INTO t VALUES (1, 10);",
        &[(
            "A",
            0,
            "BEGIN;
SELECT v FROM t WHERE id = 1;
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
UPDATE t SET v = v + 1 WHERE id = 1;
COMMIT;
BEGIN;
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SELECT v FROM t WHERE id = 1;
COMMIT;",
        )],
    );
    assert_eq!(sqlstates(&sim, "A"), ["25001", "25P02"]);
    assert_eq!(
        messages(&sim, "A")[0],
        "SET TRANSACTION ISOLATION LEVEL must be called before any query"
    );
    assert_eq!(final_rows(&mut sim, "SELECT v FROM t"), [[Value::Int(10)]]);
}

/// The figures pg-claim-race's text gives for the conditional claim with 2 workers: the
/// retries between them in its own run (seed 7), their range over seeds 1–10, and the
/// two ends of how the workers split them (seeds 6 and 10).
#[test]
fn pg_claim_race_conditional_retries_are_the_ones_its_text_gives() {
    let path = format!(
        "{}/../../lessons/pg-claim-race.md",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let lesson = lockstep_lesson::Lesson::parse("pg-claim-race.md", &text).unwrap();
    let settings = lesson
        .settings_with([("claim", "conditional"), ("workers", "2")])
        .unwrap();
    let applied = lesson.apply(&settings).unwrap();
    let mut totals = Vec::new();
    for seed in 1..=10 {
        let mut r = lockstep_lesson::run(&applied, seed).unwrap();
        let split = final_rows(
            &mut r.simulation,
            "SELECT retries FROM worker_stats ORDER BY worker",
        );
        let split: Vec<i64> = split.iter().map(|row| row[0].as_i64().unwrap()).collect();
        match seed {
            6 => assert_eq!(split, [29, 466]),
            10 => assert_eq!(split, [248, 245]),
            _ => {}
        }
        totals.push(split.iter().sum::<i64>());
    }
    assert_eq!(totals[6], 491);
    let (min, max) = (totals.iter().min(), totals.iter().max());
    assert_eq!((min, max), (Some(&488), Some(&495)));
    assert!(text.contains("(491 in this run, seed 7; 488 to 495 on seeds 1–10;"));
    assert!(text.contains("from 29 and 466 (seed 6) to 248 and 245 (seed 10)"));
}

/// Real server: COMMIT or ROLLBACK inside a block with an EXCEPTION clause (a
/// subtransaction) fails with 2D000, which a handler may catch; a handler reads the
/// caught error as SQLSTATE and SQLERRM. Of the four inserts only the two outside the
/// protected blocks stay, as on the server (which printed `caught 2D000` and
/// `22012 division by zero`).
#[test]
fn a_transaction_cannot_end_inside_a_protected_block() {
    let a = "DO $$ BEGIN BEGIN INSERT INTO c1 VALUES (1); COMMIT; EXCEPTION WHEN unique_violation THEN NULL; END; END $$;
DO $$ BEGIN BEGIN INSERT INTO c1 VALUES (2); COMMIT; EXCEPTION WHEN others THEN RAISE NOTICE 'caught %', SQLSTATE; END; END $$;
DO $$ BEGIN INSERT INTO c1 VALUES (3); COMMIT; BEGIN INSERT INTO c1 VALUES (4); EXCEPTION WHEN others THEN NULL; END; COMMIT; END $$;
DO $$ BEGIN PERFORM 1/0; EXCEPTION WHEN others THEN RAISE NOTICE '% %', SQLSTATE, SQLERRM; END $$;";
    let sc = scenario_in(
        Dialect::Postgres,
        "CREATE TABLE c1 (id int);",
        &[("A", 0, a)],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    // The first block's handler does not match, so its error is not caught; the
    // second's and fourth's are.
    let uncaught: Vec<(Option<&str>, String)> = errors_of(&sim, "A")
        .into_iter()
        .filter(|e| !e.caught)
        .map(|e| (e.sqlstate, e.message))
        .collect();
    assert_eq!(
        uncaught,
        [(
            Some("2D000"),
            "cannot commit while a subtransaction is active".to_string()
        )]
    );
    assert_eq!(sqlstates(&sim, "A"), ["2D000", "2D000", "22012"]);
    let prints = printed(&trace);
    assert_eq!(prints, ["caught 2D000", "22012 division by zero"]);
    assert_eq!(
        final_rows(&mut sim, "SELECT id FROM c1 ORDER BY id"),
        [[Value::Int(3)], [Value::Int(4)]]
    );
}

/// Real server: `INSERT ... ON CONFLICT (k) DO UPDATE`. A proposed row whose key a row
/// holds updates that row (EXCLUDED is the proposed row; an unqualified column is
/// ambiguous, 42702); DO UPDATE's WHERE may leave it; two proposed rows with one key
/// fail with 21000. A key an uncommitted insert holds is waited for (794 ms on the
/// server, 800 here) and then updated (n = 3); a row another transaction updated is
/// updated from its new version (22). Each figure is the server's.
#[test]
fn on_conflict_do_update_updates_the_row_holding_the_key() {
    let setup = "CREATE TABLE kv (k int PRIMARY KEY, n int NOT NULL, note text);
INSERT INTO kv VALUES (1, 10, 'a');";
    let a = "INSERT INTO kv VALUES (1, 5, 'b') ON CONFLICT (k) DO UPDATE SET n = n + EXCLUDED.n;
INSERT INTO kv AS t VALUES (1, 5, 'c'), (2, 7, 'd') ON CONFLICT (k)
  DO UPDATE SET n = t.n + excluded.n, note = excluded.note WHERE t.n < 100 RETURNING k, n, note;
INSERT INTO kv VALUES (1, 1, 'x') ON CONFLICT (k) DO UPDATE SET n = 0 WHERE kv.n > 1000 RETURNING *;
INSERT INTO kv VALUES (3, 1, 'x'), (3, 2, 'y') ON CONFLICT (k) DO UPDATE SET n = 0;";
    let mut sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["42702", "21000"]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "column reference \"n\" is ambiguous",
            "ON CONFLICT DO UPDATE command cannot affect row a second time"
        ]
    );
    let text = |s: &str| Value::Text(s.into());
    let rows = [
        vec![Value::Int(1), Value::Int(15), text("c")],
        vec![Value::Int(2), Value::Int(7), text("d")],
    ];
    assert_eq!(results(&sim, "A")[0], rows);
    assert_eq!(results(&sim, "A")[1], Vec::<Vec<Value>>::new());
    assert_eq!(final_rows(&mut sim, "SELECT * FROM kv ORDER BY k"), rows);

    let a = "BEGIN;
INSERT INTO kv VALUES (5, 1, 'A');
UPDATE kv SET n = 20 WHERE k = 1;
SELECT pg_sleep(0.9);
COMMIT;";
    let b = "INSERT INTO kv VALUES (5, 2, 'B') ON CONFLICT (k) DO UPDATE SET n = kv.n + excluded.n RETURNING n;
INSERT INTO kv VALUES (1, 2, 'B') ON CONFLICT (k) DO UPDATE SET n = kv.n + excluded.n RETURNING n;";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(wait_ms(&sim, "B"), 800);
    assert_eq!(results(&sim, "B"), [[[Value::Int(3)]], [[Value::Int(22)]]]);

    // REPEATABLE READ may not update a row changed since its snapshot (the server: 40001).
    let b = "BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM kv;
SELECT pg_sleep(0.3);
INSERT INTO kv VALUES (1, 2, 'B') ON CONFLICT (k) DO UPDATE SET n = kv.n + excluded.n;
COMMIT;";
    let a = "UPDATE kv SET n = 20 WHERE k = 1;";
    let sim = pg(setup, &[("B", 0, b), ("A", 100, a)]);
    assert_eq!(sqlstates(&sim, "B"), ["40001"]);
}

/// Real server: `DELETE FROM t USING others` joins as UPDATE's FROM does, and a bare
/// `RETURNING *` after a join returns the row and then every other table's columns
/// (`id, status, id, who` on the server, for both statements); `p.*` is that table's.
#[test]
fn delete_using_and_returning_star_over_a_join() {
    let setup = "CREATE TABLE task (id int PRIMARY KEY, status text NOT NULL);
CREATE TABLE pick (id int, who text);
INSERT INTO task VALUES (1, 'new'), (2, 'new');
INSERT INTO pick VALUES (2, 'w1');";
    let a = "UPDATE task t SET status = 'taken' FROM pick p WHERE t.id = p.id RETURNING p.*, t.id;
UPDATE task t SET status = 'taken' FROM pick p WHERE t.id = p.id RETURNING *;
DELETE FROM task t USING pick p WHERE t.id = p.id RETURNING *;
DELETE FROM task USING pick WHERE task.id = pick.id + 1 RETURNING task.*;";
    let mut sim = pg(setup, &[("A", 0, a)]);
    let o = sim.outcome();
    let results = &o.sessions[0].results;
    let row = [
        Value::Int(2),
        Value::Text("taken".into()),
        Value::Int(2),
        Value::Text("w1".into()),
    ];
    assert_eq!(results[0].columns, ["id", "who", "id"]);
    assert_eq!(
        results[0].rows,
        [[row[2].clone(), row[3].clone(), row[0].clone()]]
    );
    for r in &results[1..3] {
        assert_eq!(r.columns, ["id", "status", "id", "who"]);
        assert_eq!(r.rows, std::slice::from_ref(&row));
    }
    assert_eq!(results[3].columns, ["id", "status"]);
    assert_eq!(results[3].rows, Vec::<Vec<Value>>::new());
    assert_eq!(
        final_rows(&mut sim, "SELECT id FROM task"),
        [[Value::Int(1)]]
    );
    // A star whose table is not in the query: the server's 42P01 and words.
    let sim = pg(setup, &[("A", 0, "SELECT foo.* FROM task;")]);
    assert_eq!(sqlstates(&sim, "A"), ["42P01"]);
    assert_eq!(
        messages(&sim, "A"),
        ["missing FROM-clause entry for table \"foo\""]
    );
}

/// Real server (PostgreSQL 15, psql): a boolean column and a predicate in a select list
/// are booleans, printed `t` and `f`; text reads as one (`'on'`, `'no'`), `::text` is
/// `true`; IS [NOT] TRUE and IS UNKNOWN; `false` sorts first; a partial index on
/// `NOT done`; and the server's errors for text that is no boolean and for arithmetic.
#[test]
fn booleans_print_compare_and_fail_as_on_the_server() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, done boolean NOT NULL DEFAULT false, n int);
CREATE UNIQUE INDEX one_open ON t (n) WHERE NOT done;
INSERT INTO t VALUES (1, true, 7), (2, false, 7), (3, 'on', 7);";
    let shown = "SELECT id, done, done IS NOT TRUE AS nt, (n > 5) = done AS same, done::text || '!' AS txt, NULL::boolean IS UNKNOWN AS unk FROM t ORDER BY done DESC, id;
SELECT id FROM t WHERE done IS TRUE ORDER BY id;
SELECT id FROM t WHERE NOT done;
SELECT pg_advisory_unlock(5), done::int, 1::boolean FROM t WHERE id = 2;";
    let failing = "INSERT INTO t VALUES (4, 'maybe', 1);
INSERT INTO t (id, n) VALUES (5, 7);
SELECT 2 + done FROM t;
UPDATE t SET done = 'no' WHERE id = 1 RETURNING id, done;
SELECT true ^ 2;";
    let sim = pg(setup, &[("A", 0, shown), ("B", 10, failing)]);
    let (t, f) = (Value::True, Value::False);
    let a = results(&sim, "A");
    // id, done, done IS NOT TRUE, (n > 5) = done, done::text || '!', IS UNKNOWN.
    let row = |id: i64, done: bool| {
        let txt = Value::Text(format!("{done}!").into());
        let b = Value::bool;
        vec![Value::Int(id), b(done), b(!done), b(done), txt, b(true)]
    };
    assert_eq!(a[0], [row(1, true), row(3, true), row(2, false)]);
    assert_eq!(a[1], [[Value::Int(1)], [Value::Int(3)]]);
    assert_eq!(a[2], [[Value::Int(2)]]);
    assert_eq!(a[3], [[f.clone(), Value::Int(0), t.clone()]]);
    // As psql prints them.
    let shown: Vec<String> = a[0][2].iter().map(lockstep_lesson::value_text).collect();
    assert_eq!(shown, ["2", "f", "t", "f", "false!", "t"]);
    assert_eq!(
        sqlstates(&sim, "B"),
        ["22P02", "23505", "42883", "23505", "42883"]
    );
    let m = messages(&sim, "B");
    assert_eq!(m[0], "invalid input syntax for type boolean: \"maybe\"");
    assert!(m[1].contains("\"one_open\""), "{m:?}");
    assert_eq!(m[2], "operator does not exist: integer + boolean");
    assert_eq!(m[4], "operator does not exist: boolean ^ integer");
}

/// Real server: an error that no handler of a block names passes the block by. It is
/// not caught there (the simulator used to report it caught, then raised again: two
/// errors for one), an outer block that names it catches it and rolls back the work of
/// both, and with no such block the statement fails.
#[test]
fn an_error_no_handler_names_passes_the_block_by() {
    let a = "DO $$
BEGIN
  INSERT INTO t VALUES (10);
  BEGIN
    INSERT INTO t VALUES (11);
    PERFORM 1 / 0;
  EXCEPTION WHEN unique_violation THEN
    RAISE NOTICE 'inner';
  END;
EXCEPTION WHEN division_by_zero THEN
  RAISE NOTICE 'outer caught %', SQLSTATE;
END $$;
DO $$
BEGIN
  INSERT INTO t VALUES (20);
  BEGIN
    INSERT INTO t VALUES (1);
  EXCEPTION WHEN division_by_zero OR lock_not_available THEN
    RAISE NOTICE 'wrong';
  END;
END $$;
SELECT id FROM t ORDER BY id;";
    let setup = "CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t VALUES (1);";
    let sc = scenario_in(Dialect::Postgres, setup, &[("A", 0, a)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let errors: Vec<_> = errors_of(&sim, "A")
        .into_iter()
        .map(|e| (e.sqlstate, e.caught))
        .collect();
    assert_eq!(errors, [(Some("22012"), true), (Some("23505"), false)]);
    assert_eq!(printed(&trace), ["outer caught 22012"]);
    assert_eq!(results(&sim, "A"), [vec![vec![Value::Int(1)]]]);
}

/// A setup that fails names its SQLSTATE, as every PostgreSQL error does (it said
/// "error 2627"); one stopped by a budget has no number to give, and says only what
/// stopped it (it said "error 0").
#[test]
fn a_failing_setup_names_its_sqlstate() {
    let failing = |setup: &str| {
        let sc = scenario_in(Dialect::Postgres, setup, &[("A", 0, "SELECT 1;")]);
        Simulation::new(&sc, 1).map(|_| ()).unwrap_err().message
    };
    assert_eq!(
        failing("CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (1);"),
        "setup failed with error 23505: duplicate key value violates unique constraint \"t_pkey\" (DETAIL: Key (id)=(1) already exists.)"
    );
    assert_eq!(
        failing("DO $$ BEGIN LOOP PERFORM 1; END LOOP; END $$;"),
        "setup failed: simulation stopped this session: it ran more than 500000 statements (a loop that never ends?)"
    );
}

/// OFFSET, FETCH FIRST and WITH TIES give the rows a PostgreSQL 15 server gave for the
/// same queries (they were "not simulated"). LIMIT NULL is no limit, a fraction
/// rounds, and a negative count fails with the server's SQLSTATE.
#[test]
fn offset_and_fetch_first_cut_rows_as_the_server_does() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, p int);
INSERT INTO t VALUES (1, 1), (2, 1), (3, 2), (4, 3), (5, 3);";
    let a = "SELECT id FROM t ORDER BY p FETCH FIRST 1 ROW WITH TIES;
SELECT id FROM t ORDER BY p OFFSET 1 FETCH NEXT 1 ROWS WITH TIES;
SELECT id FROM t ORDER BY p FETCH FIRST ROW ONLY;
SELECT id FROM t ORDER BY id LIMIT NULL OFFSET 3;
SELECT id FROM t ORDER BY id OFFSET 1.5;
SELECT id FROM t ORDER BY id OFFSET 1 LIMIT 2;
SELECT id FROM t UNION ALL SELECT 10 ORDER BY 1 DESC LIMIT 2 OFFSET 1;
SELECT id FROM t ORDER BY id OFFSET 10;
SELECT id FROM t ORDER BY id LIMIT -1;
SELECT id FROM t ORDER BY id OFFSET -1;
SELECT id FROM t FETCH FIRST 1 ROW WITH TIES;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(
        results(&sim, "A"),
        [
            ids(&[1, 2]),
            ids(&[2]),
            ids(&[1]),
            ids(&[4, 5]),
            ids(&[3, 4, 5]),
            ids(&[2, 3]),
            ids(&[5, 4]),
            ids(&[]),
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["2201W", "2201X", "42601"]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "LIMIT must not be negative",
            "OFFSET must not be negative",
            "WITH TIES cannot be specified without ORDER BY clause"
        ]
    );
}

/// The rows OFFSET skips are locked too, as the server's LockRows sits below its Limit:
/// A's `OFFSET 1 LIMIT 1 FOR UPDATE` holds rows 1 and 2, and B's SKIP LOCKED gets 3
/// (as on the server).
#[test]
fn offset_locks_the_rows_it_skips() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t VALUES (1), (2), (3);";
    let a = "BEGIN;
SELECT id FROM t ORDER BY id OFFSET 1 LIMIT 1 FOR UPDATE;
SELECT pg_sleep(0.5);
COMMIT;";
    let b = "SELECT id FROM t ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED;";
    let sim = pg(setup, &[("A", 0, a), ("B", 200, b)]);
    assert_eq!(results(&sim, "A")[0], [vec![Value::Int(2)]]);
    assert_eq!(results(&sim, "B"), [vec![vec![Value::Int(3)]]]);
}

/// `GENERATED BY DEFAULT AS IDENTITY` takes a value given and its counter does not move,
/// as `serial`; `GENERATED ALWAYS` refuses one in an INSERT or an UPDATE with 428C9 (it
/// was "not simulated: column option GENERATED"). START WITH and INCREMENT BY count as
/// on the server.
#[test]
fn generated_identity_columns_count_and_always_refuses_a_value() {
    let setup = "CREATE TABLE job (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, prio int);
INSERT INTO job (prio) VALUES (2), (1);
CREATE TABLE t2 (id int GENERATED BY DEFAULT AS IDENTITY (START WITH 100 INCREMENT BY 10) PRIMARY KEY, v text);
INSERT INTO t2 (v) VALUES ('a');
INSERT INTO t2 (id, v) VALUES (10, 'b');
INSERT INTO t2 (v) VALUES ('c');";
    let a = "SELECT id FROM t2 ORDER BY id;
INSERT INTO job (id, prio) VALUES (99, 1);
UPDATE job SET id = 7 WHERE id = 1;
UPDATE t2 SET id = 7 WHERE id = 10;
INSERT INTO job (prio) VALUES (5) RETURNING id;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(results(&sim, "A"), [ids(&[10, 100, 110]), ids(&[3])]);
    assert_eq!(sqlstates(&sim, "A"), ["428C9", "428C9"]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "cannot insert a non-DEFAULT value into column \"id\" (DETAIL: Column \"id\" is an identity column defined as GENERATED ALWAYS.)",
            "column \"id\" can only be updated to DEFAULT (DETAIL: Column \"id\" is an identity column defined as GENERATED ALWAYS.)"
        ]
    );
}

/// `DEFAULT` in a VALUES row takes the column's default or its next identity value (it
/// was a syntax error), and without a column list a serial or identity column is the
/// first target, as on the server: `VALUES ('a')` puts 'a' in `id` and fails with 22P02
/// (the simulator put it in the next column).
#[test]
fn default_in_values_and_the_identity_column_in_the_implicit_list() {
    let setup = "CREATE TABLE job (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, status text NOT NULL DEFAULT 'new', prio int DEFAULT 5);
CREATE TABLE s (id serial PRIMARY KEY, v text);";
    let a = "INSERT INTO job VALUES (DEFAULT, DEFAULT, 1), (DEFAULT, 'done', DEFAULT);
INSERT INTO job (status, id) VALUES ('x', DEFAULT) RETURNING id, prio;
INSERT INTO s VALUES ('a');
INSERT INTO s VALUES (5);
INSERT INTO s VALUES (DEFAULT, 'b');
SELECT id, status, prio FROM job ORDER BY id;
SELECT id, v FROM s ORDER BY id;";
    let sim = pg(setup, &[("A", 0, a)]);
    let (int, text) = (Value::Int, |s: &str| Value::Text(s.into()));
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![int(3), int(5)]],
            vec![
                vec![int(1), text("new"), int(1)],
                vec![int(2), text("done"), int(5)],
                vec![int(3), text("x"), int(5)],
            ],
            vec![vec![int(1), text("b")], vec![int(5), Value::Null]],
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["22P02"]);
}

/// SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT (they were "not simulated"),
/// as a PostgreSQL 15 server ran the same script: an error after a savepoint aborts only
/// what followed it (its row lock goes at once: B's UPDATE of row 2 does not wait),
/// ROLLBACK TO recovers the block from 25P02 and keeps the savepoint, RELEASE forgets
/// it (3B001 after), and outside a block each is 25P01.
#[test]
fn savepoints_roll_back_part_of_a_transaction() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v text);
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');";
    let a = "SAVEPOINT s0;
BEGIN;
UPDATE t SET v = 'x' WHERE id = 1;
SAVEPOINT s1;
UPDATE t SET v = 'y' WHERE id = 2;
SELECT 1/0;
SELECT 5;
ROLLBACK TO SAVEPOINT s1;
SELECT v FROM t WHERE id = 2;
SELECT pg_sleep(0.5);
INSERT INTO t VALUES (1, 'dup');
ROLLBACK TO s1;
RELEASE SAVEPOINT s1;
COMMIT;
SELECT id, v FROM t ORDER BY id;";
    let b = "UPDATE t SET v = 'B' WHERE id = 2;";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "A"), ["25P01", "22012", "25P02", "23505"]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![text("b")]],
            vec![
                vec![Value::Int(1), text("x")],
                vec![Value::Int(2), text("B")],
                vec![Value::Int(3), text("c")],
            ],
        ]
    );
    let errors = pg(
        setup,
        &[(
            "A",
            0,
            "BEGIN;\nSAVEPOINT s1;\nRELEASE s1;\nROLLBACK TO s1;\nROLLBACK;\nRELEASE s1;",
        )],
    );
    assert_eq!(sqlstates(&errors, "A"), ["3B001", "25P01"]);
}

/// ROLLBACK TO SAVEPOINT in a block an error aborted with no savepoint set: the server
/// answers 3B001 (no savepoint of that name exists) and the block stays aborted (25P02
/// for the SELECT after it), as a PostgreSQL 15 server ran it. It was 25P02.
#[test]
fn rollback_to_a_savepoint_in_a_block_aborted_without_one_is_3b001() {
    let sim = pg(
        "",
        &[(
            "A",
            0,
            "BEGIN;\nSELECT 1/0;\nROLLBACK TO SAVEPOINT nosuch;\nSELECT 1;\nROLLBACK;\nSELECT 2;",
        )],
    );
    assert_eq!(sqlstates(&sim, "A"), ["22012", "3B001", "25P02"]);
    assert_eq!(
        messages(&sim, "A")[1],
        "savepoint \"nosuch\" does not exist"
    );
    assert_eq!(results(&sim, "A"), [vec![vec![Value::Int(2)]]]);
}

/// A sequential scan under a Sort filters every row before the LIMIT cuts the sorted
/// rows: `pg_try_advisory_lock(id)` in WHERE with ORDER BY ... LIMIT 1 takes the lock of
/// every new job, not one, so B's claim finds none free; and `10 / (id - 3)` fails on
/// row 3 although row 1 sorts first. The figures a PostgreSQL 15 server gave for the same
/// script. The simulator had stopped at the first row, taking one lock and no error.
#[test]
fn a_sorted_sequential_scan_filters_every_row_before_its_limit() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text NOT NULL DEFAULT 'new');
INSERT INTO job (id) SELECT g FROM generate_series(1, 5) AS g;";
    let a =
        "SELECT id FROM job WHERE status = 'new' AND pg_try_advisory_lock(id) ORDER BY id LIMIT 1;
SELECT pg_sleep(1);";
    let b = "SELECT id FROM job WHERE status = 'new' AND pg_try_advisory_lock(id) LIMIT 1;
SELECT id FROM job WHERE 10 / (id - 3) > 0 ORDER BY id LIMIT 1;";
    let sim = pg(setup, &[("A", 0, a), ("B", 300, b)]);
    assert_eq!(results(&sim, "A")[0], ids(&[1]));
    assert_eq!(results(&sim, "B"), [Vec::<Vec<Value>>::new()]);
    assert_eq!(sqlstates(&sim, "B"), ["22012"]);
    // With FOR UPDATE the rows are locked after the sort, but filtered before it: A
    // holds all five advisory locks, each taken once (it ran WHERE once per row, so one
    // unlock frees job 1), and B finds no other job free (it had found job 2).
    let a = "BEGIN;
SELECT id FROM job WHERE status = 'new' AND pg_try_advisory_lock(id) ORDER BY id LIMIT 1 FOR UPDATE;
SELECT pg_advisory_unlock(1), pg_advisory_unlock(1);
SELECT pg_sleep(1);
COMMIT;";
    let b =
        "SELECT id FROM job WHERE status = 'new' AND id > 1 AND pg_try_advisory_lock(id) LIMIT 1;
SELECT id FROM job WHERE status = 'new' ORDER BY id DESC LIMIT 2;";
    let sim = pg(setup, &[("A", 0, a), ("B", 300, b)]);
    assert_eq!(
        results(&sim, "A")[..2],
        [ids(&[1]), vec![vec![Value::True, Value::False]]]
    );
    assert_eq!(results(&sim, "B"), [Vec::new(), ids(&[5, 4])]);
}

/// `current_date` and `localtimestamp`, written without parentheses, were a syntax error;
/// they read the transaction's clock as now() does (true and true on the server).
#[test]
fn current_date_and_localtimestamp_read_the_transactions_clock() {
    let sim = pg(
        "",
        &[(
            "A",
            0,
            "SELECT current_date = now()::date AS d, localtimestamp = now() AS t;",
        )],
    );
    assert_eq!(results(&sim, "A"), [vec![vec![Value::True, Value::True]]]);
}

/// `= ANY (query)` and `<> ALL (query)` were "not simulated": they are IN and NOT IN, a
/// NULL among the query's rows included (the server's rows and NULL, checked).
#[test]
fn any_and_all_over_a_query_are_in_and_not_in() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t VALUES (1), (2), (3);
CREATE TABLE u (id int);
INSERT INTO u VALUES (1), (3), (NULL);";
    let a = "SELECT id FROM t WHERE id = ANY (SELECT id FROM u) ORDER BY id;
SELECT id FROM t WHERE id <> ALL (SELECT id FROM u) ORDER BY id;
SELECT id FROM t WHERE id <> ALL (SELECT id FROM u WHERE id IS NOT NULL) ORDER BY id;
SELECT 2 = SOME (SELECT id FROM u) AS a;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(
        results(&sim, "A"),
        [ids(&[1, 3]), ids(&[]), ids(&[2]), vec![vec![Value::Null]]]
    );
}

/// A table, index or function that exists fails in the server's words (it was SQL
/// Server's 2714 and 1913): 42P07 for a relation, 42723 for a function.
#[test]
fn creating_what_exists_fails_with_42p07_and_42723() {
    let setup = "CREATE TABLE tt (id int);
CREATE INDEX ix1 ON tt (id);
CREATE FUNCTION f1() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;";
    let a = "CREATE TABLE tt (id int);
CREATE INDEX ix1 ON tt (id);
CREATE FUNCTION f1() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_errors(
        &sim,
        "A",
        &[
            ("42P07", "relation \"tt\" already exists"),
            ("42P07", "relation \"ix1\" already exists"),
            (
                "42723",
                "function \"f1\" already exists with same argument types",
            ),
        ],
    );
}

/// `generate_series(start, stop [, step])` in FROM, the way PostgreSQL lessons fill a
/// queue in setup (it was "not simulated: table-valued functions"); the rows and column
/// names the server gave, and 22023 for a step of zero.
#[test]
fn generate_series_makes_rows_in_from() {
    let setup = "CREATE TABLE jobs (id serial PRIMARY KEY, payload text NOT NULL);
INSERT INTO jobs (payload) SELECT 'job ' || g FROM generate_series(1, 500) g;";
    let a = "SELECT count(*), max(payload) FROM jobs;
SELECT * FROM generate_series(1, 3);
SELECT n FROM generate_series(10, 1, -4) AS s(n);
SELECT count(*) FROM generate_series(5, 1);
SELECT * FROM generate_series(1, 3, 0);";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![Value::Int(500), Value::Text("job 99".into())]],
            ids(&[1, 2, 3]),
            ids(&[10, 6, 2]),
            ids(&[0]),
        ]
    );
    let o = sim.outcome();
    let a = o.sessions.iter().find(|s| s.name == "A").unwrap();
    assert_eq!(a.results[1].columns, ["generate_series"]);
    assert_eq!(a.results[2].columns, ["n"]);
    assert_eq!(sqlstates(&sim, "A"), ["22023"]);
}

/// An UPDATE that sets a NOT NULL column to NULL fails once every SET is done, and its
/// DETAIL shows the whole new row, later SETs included, as the server's does.
#[test]
fn a_not_null_update_shows_the_whole_new_row() {
    let sim = pg(
        "CREATE TABLE job (id int PRIMARY KEY, payload text NOT NULL, status text NOT NULL DEFAULT 'new', ok boolean DEFAULT true);
INSERT INTO job VALUES (1, 'a', 'new', true);",
        &[(
            "A",
            0,
            "UPDATE job SET payload = NULL, status = 'done' WHERE id = 1;",
        )],
    );
    assert_eq!(
        messages(&sim, "A"),
        ["null value in column \"payload\" of relation \"job\" violates not-null constraint (DETAIL: Failing row contains (1, null, done, t).)"]
    );
}

/// `string_agg(v, ',' ORDER BY ...)` orders what it joins, as on the server (it was a
/// syntax error); NULLs are left out.
#[test]
fn string_agg_orders_by_its_own_order_by() {
    let sim = pg(
        "CREATE TABLE a (id int PRIMARY KEY, v text);
INSERT INTO a VALUES (1, 'x'), (2, 'y'), (3, NULL);",
        &[(
            "A",
            0,
            "SELECT string_agg(v, ',' ORDER BY v DESC) FROM a;
SELECT string_agg(v, ';' ORDER BY id DESC) AS s, count(*) FROM a;",
        )],
    );
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![Value::Text("y,x".into())]],
            vec![vec![Value::Text("y;x".into()), Value::Int(3)]],
        ]
    );
}

/// `lag` and `lead` (they were "not simulated"): the value `offset` rows before or after
/// in the window, or the default; the values the server gave, partitions and a
/// descending order included.
#[test]
fn lag_and_lead_read_neighbouring_rows() {
    let sim = pg(
        "CREATE TABLE a (id int PRIMARY KEY, g text, v int);
INSERT INTO a VALUES (1, 'x', 10), (2, 'x', 20), (3, 'y', 30), (4, 'x', 40), (5, 'y', NULL);",
        &[(
            "A",
            0,
            "SELECT id, lag(id) OVER (ORDER BY id), lead(id, 1, -1) OVER (ORDER BY id) FROM a ORDER BY id;
SELECT lag(v, 2) OVER (PARTITION BY g ORDER BY id), lead(v) OVER (PARTITION BY g ORDER BY id DESC) FROM a ORDER BY id;",
        )],
    );
    let (n, int) = (Value::Null, Value::Int);
    assert_eq!(
        results(&sim, "A"),
        [
            vec![
                vec![int(1), n.clone(), int(2)],
                vec![int(2), int(1), int(3)],
                vec![int(3), int(2), int(4)],
                vec![int(4), int(3), int(5)],
                vec![int(5), int(4), int(-1)],
            ],
            vec![
                vec![n.clone(), n.clone()],
                vec![n.clone(), int(10)],
                vec![n.clone(), n.clone()],
                vec![int(10), int(20)],
                vec![n.clone(), int(30)],
            ],
        ]
    );
}

/// Real server (psql, default `client_min_messages`): RAISE WARNING and INFO reach the
/// client with their level (`WARNING:  w 2`, `INFO:  in f 2`); LOG and DEBUG reach no
/// client, yet their arguments are evaluated, so `RAISE LOG '%', 1 / 0` fails with 22012.
#[test]
fn raise_levels_print_as_the_client_sees_them() {
    let setup = "CREATE FUNCTION f(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RAISE LOG 'n is %', n;
  RAISE DEBUG 'x';
  RAISE INFO 'in f %', n;
  RETURN 10 / n;
END $$;";
    let script = "DO $$ BEGIN RAISE NOTICE 'n %', 1; RAISE WARNING 'w %', 2; RAISE LOG 'l'; END $$;
SELECT f(2);
DO $$ BEGIN RAISE LOG 'bad %', 1 / 0; END $$;";
    let sc = scenario_in(Dialect::Postgres, setup, &[("A", 0, script)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(printed(&trace), ["n 1", "WARNING: w 2", "INFO: in f 2"]);
    assert_eq!(results(&sim, "A"), [ids(&[5])]);
    assert_eq!(sqlstates(&sim, "A"), ["22012"]);
}

/// Real server: partial indexes on `status = 'new' OR status = 'retry'`, `NOT (owner =
/// 'x')` and `prio > -1` give the rows psql printed (1, 2, 4; 3; 1, 3, 4; 2, 4: a NULL
/// owner is in neither `owner = 'x'` nor its NOT). A predicate the simulation cannot
/// evaluate (a function) is refused as not simulated rather than filing no rows, which
/// made `lower(status) = 'new'` find none of the server's 1 and 3.
#[test]
fn partial_index_predicates_file_the_servers_rows() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text NOT NULL, owner text, prio int);
INSERT INTO job VALUES (1, 'new', 'x', 1), (2, 'retry', NULL, -1), (3, 'done', 'y', 2), (4, 'new', NULL, 3);
CREATE INDEX job_open ON job (id) WHERE status = 'new' OR status = 'retry';
CREATE INDEX job_notx ON job (id) WHERE NOT (owner = 'x');
CREATE INDEX job_neg ON job (id) WHERE prio > -1;
CREATE INDEX job_cast ON job (id) WHERE status = 'retry'::text;";
    let script = "SELECT id FROM job WHERE status = 'new' OR status = 'retry' ORDER BY id;
SELECT id FROM job WHERE NOT (owner = 'x') ORDER BY id;
SELECT id FROM job WHERE prio > -1 ORDER BY id;
SELECT id FROM job WHERE (status = 'new' OR status = 'retry') AND owner IS NULL ORDER BY id;
SELECT id FROM job WHERE status = 'retry'::text ORDER BY id;
CREATE INDEX job_lower ON job (id) WHERE lower(status) = 'new';
SELECT id FROM job WHERE lower(status) = 'new' ORDER BY id;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        results(&sim, "A"),
        [
            ids(&[1, 2, 4]),
            ids(&[3]),
            ids(&[1, 3, 4]),
            ids(&[2, 4]),
            ids(&[2]),
            ids(&[1, 4])
        ]
    );
    assert_eq!(
        messages(&sim, "A"),
        ["not simulated: a call of LOWER in an index's WHERE"]
    );
}

/// Real server: a select list may show a grouped expression, not another call on the same
/// column: `GROUP BY lower(owner)` with `upper(owner)` is 42803, while `coalesce(owner,
/// '-')` grouped by `COALESCE(owner, '-')` is one expression written in two cases.
#[test]
fn a_grouped_call_is_not_another_call() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, owner text);
INSERT INTO job VALUES (1, 'x'), (2, NULL), (3, NULL);";
    let script = "SELECT upper(owner) FROM job GROUP BY lower(owner);
SELECT coalesce(owner, '-') AS o, count(*) FROM job GROUP BY COALESCE(owner, '-') ORDER BY 1;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["42803"]);
    assert_eq!(
        messages(&sim, "A"),
        ["column \"job.owner\" must appear in the GROUP BY clause or be used in an aggregate function"]
    );
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [vec![
            vec![text("-"), Value::Int(2)],
            vec![text("x"), Value::Int(1)]
        ]]
    );
}

/// Real server: `varchar` without a length has none (a 40-character value fits; it used
/// to be varchar(1) and fail), `character varying(n)`, `float8` and `smallserial` are
/// types, and a value too long for `char` is `value too long for type character(1)`.
#[test]
fn postgresql_type_names_mean_what_the_server_means() {
    let setup =
        "CREATE TABLE t (a varchar, b char, c character varying(4), s smallserial, f float8);";
    let script = "INSERT INTO t (a, b, c, f) VALUES (repeat('x', 40), 'y', 'abcd', 1.5) RETURNING s, length(a);
INSERT INTO t (a, b, c, f) VALUES ('z', 'yy', 'abc', 2);
INSERT INTO t (a, b, c, f) VALUES ('z', 'y', 'abcde', 2);
SELECT repeat('y', 35)::varchar = repeat('y', 35);";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![Value::Int(1), Value::Int(40)]],
            vec![vec![Value::True]]
        ]
    );
    assert_eq!(
        messages(&sim, "A"),
        [
            "value too long for type character(1)",
            "value too long for type character varying(4)"
        ]
    );
}

/// Real server: `bool_and`, `bool_or` and `every` are aggregates that leave NULLs out
/// and give NULL for no rows; a group whose values are all NULL is NULL. They used to be
/// "not simulated", and beside a column outside an aggregate they read as 42803 instead.
#[test]
fn boolean_aggregates_as_the_server_has_them() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text, prio int, done boolean);
INSERT INTO job VALUES (1, 'new', NULL, NULL), (2, NULL, 3, true), (3, 'done', 1, false), (4, 'done', 5, true);";
    let script = "SELECT bool_and(prio > 0), bool_or(prio > 2), every(prio > 1), bool_and(done), bool_or(done) FROM job;
SELECT status, bool_and(done), bool_or(prio > 4) FROM job GROUP BY status ORDER BY status NULLS FIRST;
SELECT bool_and(done) FROM job WHERE id > 10;
SELECT count(prio), sum(prio), bool_and(prio > 0) FROM job;";
    let sim = pg(setup, &[("A", 0, script)]);
    let (t, f, n) = (Value::True, Value::False, Value::Null);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![t.clone(), t.clone(), f.clone(), f.clone(), t.clone()]],
            vec![
                vec![n.clone(), t.clone(), f.clone()],
                vec![text("done"), f.clone(), t.clone()],
                vec![text("new"), n.clone(), n.clone()]
            ],
            vec![vec![n]],
            vec![vec![Value::Int(3), Value::Int(9), t]],
        ]
    );
}

/// Real server: a retry's backoff, an interval times a number added to a timestamp,
/// gives the times psql printed (`+00` aside). It used to be not simulated.
#[test]
fn a_backoff_interval_times_a_number() {
    let setup =
        "CREATE TABLE q (id int PRIMARY KEY, attempts int NOT NULL, run_at timestamp NOT NULL);
INSERT INTO q VALUES (1, 3, '2026-01-05 09:00:00'), (2, 7, '2026-01-05 09:00:00.5');";
    let script = "SELECT run_at + attempts * interval '1 second', run_at - interval '1 second' * attempts,
  run_at + (attempts * interval '10 minutes'), run_at + q.attempts * interval '0.1 second' FROM q ORDER BY id;
UPDATE q SET attempts = attempts + 1, run_at = run_at + (2 ^ attempts) * interval '1 minute' WHERE id = 1 RETURNING run_at;";
    let sim = pg(setup, &[("A", 0, script)]);
    let shown: Vec<Vec<Vec<String>>> = results(&sim, "A")
        .iter()
        .map(|set| {
            set.iter()
                .map(|r| r.iter().map(|v| v.output_text().to_string()).collect())
                .collect()
        })
        .collect();
    assert_eq!(
        shown,
        [
            vec![
                vec![
                    "2026-01-05 09:00:03",
                    "2026-01-05 08:59:57",
                    "2026-01-05 09:30:00",
                    "2026-01-05 09:00:00.3"
                ],
                vec![
                    "2026-01-05 09:00:07.5",
                    "2026-01-05 08:59:53.5",
                    "2026-01-05 10:10:00.5",
                    "2026-01-05 09:00:01.2"
                ]
            ],
            vec![vec!["2026-01-05 09:08:00"]]
        ]
    );
}

/// Real server: `CREATE TABLE IF NOT EXISTS` leaves a table of that name as it is (psql
/// shows a notice, `relation "job" already exists, skipping`), and makes one otherwise.
#[test]
fn create_table_if_not_exists_leaves_the_table() {
    let setup =
        "CREATE TABLE IF NOT EXISTS job (id int PRIMARY KEY, status text NOT NULL DEFAULT 'new');
INSERT INTO job (id) VALUES (1);";
    let script = "CREATE TABLE IF NOT EXISTS job (name text);
INSERT INTO job (id) VALUES (2);
SELECT id, status FROM job ORDER BY id;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [vec![
            vec![Value::Int(1), text("new")],
            vec![Value::Int(2), text("new")]
        ]]
    );
}

/// Real server: arithmetic on two `int`s (columns, variables, literals in int's range,
/// casts) is an `int` and fails past its range with 22003 `integer out of range`; with a
/// `bigint` on either side, or a literal past int's range, it is a `bigint`. Aggregates
/// over ints are bigints. The simulation computed all of them in 64 bits.
#[test]
fn int_arithmetic_overflows_as_int() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, n int, b bigint, s smallint);
INSERT INTO t VALUES (1, 2000000000, 2000000000, 30000);";
    let script = "SELECT 2147483647 + 1;
SELECT n + n FROM t;
SELECT b + b, n + b, n::bigint * 2 FROM t;
SELECT n * 2 FROM t;
SELECT 2147483647 + 1::bigint, 3000000000 + 1;
SELECT -2147483648 - 1;
SELECT s * 2, n - (-n) FROM t;
DO $$ DECLARE x int := 2000000000; BEGIN RAISE NOTICE '%', x + x; END $$;
SELECT count(*) * 2147483647, sum(n) + sum(n) FROM t;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["22003"; 6]);
    assert_eq!(messages(&sim, "A"), ["integer out of range"; 6]);
    let big = Value::Int(4_000_000_000);
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![big.clone(), big.clone(), big.clone()]],
            vec![vec![Value::Int(2_147_483_648), Value::Int(3_000_000_001)]],
            vec![vec![Value::Int(2_147_483_647), big]],
        ]
    );
}

/// The server has `pg_locks` and `current_setting`: using them is "not simulated", not
/// "relation does not exist" (42P01) or "function does not exist" (42883), which would
/// tell a learner their query is wrong. A name the server has not is still 42883.
#[test]
fn the_servers_catalog_and_builtins_are_not_simulated() {
    let script = "SELECT count(*) FROM pg_locks;
SELECT current_setting('transaction_isolation');
SELECT no_such_function(1);";
    let sim = pg("", &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["XX000", "XX000", "42883"]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "not simulated: the catalog view pg_locks (the state view shows sessions and locks)",
            "not simulated: function current_setting()",
            "function no_such_function(integer) does not exist"
        ]
    );
}

/// Real server: a quoted literal beside an integer is read as an integer: `1 + '1'` is
/// 2, `'7' / 2` is 3 (integer division), and `1 + '1.5'` fails with 22P02. The
/// simulation used to read it as a fraction (3.5, 2.5).
#[test]
fn text_beside_an_integer_is_an_integer() {
    let script = "SELECT 1 + '1', '7' / 2, 3 * ' 4 ', 10 - '3';
SELECT 1 + '1.5';";
    let sim = pg("", &[("A", 0, script)]);
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![
            Value::Int(2),
            Value::Int(3),
            Value::Int(12),
            Value::Int(7)
        ]]]
    );
    assert_eq!(
        messages(&sim, "A"),
        ["invalid input syntax for type integer: \"1.5\""]
    );
}

/// Real server: `UPDATE ... SET (status, owner) = ('z', 'me')` sets both, each value
/// read from the row as it was (`(a, b) = (b, a)` swaps), as psql showed.
#[test]
fn a_multiple_column_update_item_sets_each_column() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text, owner text);
INSERT INTO job VALUES (1, 'new', NULL), (2, 'x', 'y');";
    let script =
        "UPDATE job SET (status, owner) = ('z', 'me') WHERE id = 1 RETURNING status, owner;
UPDATE job SET (status, owner) = ROW (owner, status) WHERE id = 2 RETURNING status, owner;";
    let sim = pg(setup, &[("A", 0, script)]);
    let text = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![text("z"), text("me")]],
            vec![vec![text("y"), text("x")]]
        ]
    );
}

/// Real server: the other backoff idiom, text cast to an interval and added to a
/// timestamp (`run_at + (attempts || ' seconds')::interval`), gives psql's times; text
/// that is no interval fails with 22007.
#[test]
fn a_text_cast_to_an_interval_moves_a_timestamp() {
    let setup =
        "CREATE TABLE q (id int PRIMARY KEY, attempts int NOT NULL, run_at timestamp NOT NULL);
INSERT INTO q VALUES (1, 3, '2026-01-05 09:00:00'), (2, 7, '2026-01-05 09:00:00.5');";
    let script =
        "SELECT run_at + (attempts || ' seconds')::interval, run_at - '5 minutes'::interval,
  run_at + (attempts * 10 || ' min')::interval FROM q ORDER BY id;
SELECT run_at + (attempts || ' parsecs')::interval FROM q WHERE id = 2;";
    let sim = pg(setup, &[("A", 0, script)]);
    let shown: Vec<Vec<String>> = results(&sim, "A")[0]
        .iter()
        .map(|r| r.iter().map(|v| v.output_text().to_string()).collect())
        .collect();
    assert_eq!(
        shown,
        [
            [
                "2026-01-05 09:00:03",
                "2026-01-05 08:55:00",
                "2026-01-05 09:30:00"
            ],
            [
                "2026-01-05 09:00:07.5",
                "2026-01-05 08:55:00.5",
                "2026-01-05 10:10:00.5"
            ]
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["22007"]);
    assert_eq!(
        messages(&sim, "A"),
        ["invalid input syntax for type interval: \"7 parsecs\""]
    );
}

/// Real server: tables and indexes share one namespace, so an index may not take a
/// table's name, another table's index's, or a primary key's (`zz_pkey`): 42P07. `DROP
/// INDEX` names no table (`ON` is a syntax error there). What does not exist is 42P01
/// for a table, 42704 for an index, 42883 for a procedure; with IF [NOT] EXISTS psql
/// shows a notice instead, and `CREATE INDEX IF NOT EXISTS` (before, "not simulated")
/// leaves the relation as it is. The simulation said XX000 in SQL Server's words for a
/// missing table, let an index or a table reuse another relation's name, and printed
/// no notices. Every message below is psql's.
#[test]
fn tables_and_indexes_share_one_namespace() {
    let setup = "CREATE TABLE zz (a int PRIMARY KEY);
CREATE TABLE yy (a int);
CREATE INDEX ix_zz ON zz (a);";
    let script = "DROP TABLE nope;
CREATE INDEX ix_zz ON yy (a);
CREATE INDEX zz ON yy (a);
CREATE TABLE ix_zz (b int);
CREATE TABLE zz_pkey (b int);
DROP INDEX nope;
DROP INDEX IF EXISTS nope;
CREATE INDEX IF NOT EXISTS ix_zz ON yy (a);
CREATE TABLE IF NOT EXISTS zz (a int);
DROP INDEX ix_zz;
DROP INDEX ix_zz;
DROP TABLE IF EXISTS nope, yy;
DROP TABLE yy;
DROP PROCEDURE nope;
DROP PROCEDURE IF EXISTS nope;
CREATE INDEX IF NOT EXISTS ix_new ON zz (a);
SELECT count(*) FROM zz;";
    let sessions = [("A", 0, script)];
    let sim = pg(setup, &sessions);
    assert_eq!(
        sqlstates(&sim, "A"),
        ["42P01", "42P07", "42P07", "42P07", "42P07", "42704", "42704", "42P01", "42883"]
    );
    assert_eq!(
        messages(&sim, "A"),
        [
            "table \"nope\" does not exist",
            "relation \"ix_zz\" already exists",
            "relation \"zz\" already exists",
            "relation \"ix_zz\" already exists",
            "relation \"zz_pkey\" already exists",
            "index \"nope\" does not exist",
            "index \"ix_zz\" does not exist",
            "table \"yy\" does not exist",
            "could not find a procedure named \"nope\"",
        ]
    );
    let sessions: Vec<(&str, u64, &str)> = vec![("A", 0, script)];
    let sc = scenario_in(Dialect::Postgres, setup, &sessions);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(
        printed(&trace),
        [
            "index \"nope\" does not exist, skipping",
            "relation \"ix_zz\" already exists, skipping",
            "relation \"zz\" already exists, skipping",
            "table \"nope\" does not exist, skipping",
            "procedure nope() does not exist, skipping",
        ]
    );
    assert_eq!(results(&sim, "A"), [ids(&[0])]);
}

/// Real server: `initcap` and `format` (`%s`, `%L`, `%I`, `%%`, positions and widths)
/// give what psql printed; their errors are the server's (22023, 22004). Both were
/// 42883 "function does not exist" before.
#[test]
fn initcap_and_format_as_the_server_gives_them() {
    let script = "SELECT initcap('hello wORLD foo-bar 3rd x_y');
SELECT format('job %s of %s: %L %I %I %%', 1, 'q', 'it''s', 'Task', 'task');
SELECT format('%s|%L|%I', NULL, NULL, 'a b');
SELECT format('%2$s %1$s', 'a', 'b');
SELECT format('%5s|%-3s|', 'a', 'b');
SELECT format('%s %s', true, 2.5);
SELECT format('%L', 42);
SELECT format('%s %s', 'a');
SELECT format('%x', 1);
SELECT format('%I', NULL);";
    let sim = pg("", &[("A", 0, script)]);
    let text = |s: &str| vec![vec![Value::Text(s.into())]];
    assert_eq!(
        results(&sim, "A"),
        [
            text("Hello World Foo-Bar 3rd X_Y"),
            text("job 1 of q: 'it''s' \"Task\" task %"),
            text("|NULL|\"a b\""),
            text("b a"),
            text("    a|b  |"),
            text("t 2.5"),
            text("'42'"),
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["22023", "22023", "22004"]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "too few arguments for format()",
            "unrecognized format() type specifier \"x\" (HINT: For a single \"%\" use \"%%\".)",
            "null values cannot be formatted as an SQL identifier",
        ]
    );
}

/// Real server: `coalesce(NULL, NULL)` is NULL (SQL Server's Msg 4127 is its own).
#[test]
fn coalesce_of_null_constants_is_null() {
    let sim = pg("", &[("A", 0, "SELECT coalesce(NULL, NULL) AS c;")]);
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    assert_eq!(results(&sim, "A"), [vec![vec![Value::Null]]]);
}

/// Real server: SQL Server's functions are not PostgreSQL's. `len`, `isnull`,
/// `replicate`, `charindex`, `iif` and `getdate` are 42883, named with the argument
/// types the server resolved (a quoted literal is `unknown`); the simulation computed
/// them as SQL Server does. PostgreSQL's own kin (`length`, `coalesce`, `left`,
/// `ceiling`, `chr`, `ascii`) still answer.
#[test]
fn sql_server_functions_do_not_exist_here() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, name text);
INSERT INTO job VALUES (1, 'abc');";
    let script = "SELECT 1 + isnull(NULL, 1);
SELECT len(name) FROM job;
SELECT upper(replicate('a', 2));
SELECT id FROM job WHERE charindex('b', name) > 0;
SELECT iif(id = 1, 'a', 'b') FROM job;
SELECT getdate();
SELECT length(name), coalesce(NULL, 'x'), left(name, 1), ceiling(1.2), chr(65), ascii('a') FROM job;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "function isnull(unknown, integer) does not exist",
            "function len(text) does not exist",
            "function replicate(unknown, integer) does not exist",
            "function charindex(unknown, text) does not exist",
            "function iif(boolean, unknown, unknown) does not exist",
            "function getdate() does not exist",
        ]
    );
    assert_eq!(
        sqlstates(&sim, "A"),
        ["42883", "42883", "42883", "42883", "42883", "42883"]
    );
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![
            Value::Int(3),
            Value::Text("x".into()),
            Value::Text("a".into()),
            Value::Decimal(2.0),
            Value::Text("A".into()),
            Value::Int(97)
        ]]]
    );
}

/// Real server: `trim([LEADING | TRAILING | BOTH] [chars] FROM s)` (before, a syntax
/// error), `ltrim(s, chars)` and `rtrim(s, chars)` (the characters were ignored), and
/// the columns' names, `btrim`, `ltrim` and `rtrim`, as psql headed them.
#[test]
fn trim_forms_as_the_server_reads_them() {
    let script = "SELECT trim(' a '), trim(leading 'x' from 'xxax'), trim(trailing 'x' from 'xxax'), trim(both 'x' from 'xxax'), trim('x' from 'xax'), trim(from '  a  ') AS f;
SELECT ltrim('xxa', 'x'), rtrim('axx', 'x'), ltrim('  a'), ltrim('xa', NULL) IS NULL AS n;";
    let sim = pg("", &[("A", 0, script)]);
    let t = |s: &str| Value::Text(s.into());
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![t("a"), t("ax"), t("xxa"), t("a"), t("a"), t("a")]],
            vec![vec![t("a"), t("a"), t("a"), Value::bool(true)]],
        ]
    );
    let out = sim.outcome();
    let columns = &out.sessions[0].results[0].columns;
    assert_eq!(columns, &["btrim", "ltrim", "rtrim", "btrim", "btrim", "f"]);
}

/// Real server: a duplicate key fails at once when the row holding it is only locked
/// (FOR UPDATE changes nothing), and ON CONFLICT DO NOTHING answers at once too; it
/// waits when the holder has updated or deleted the row, for that transaction to end.
#[test]
fn a_duplicate_waits_for_a_writer_not_for_a_row_lock() {
    let setup = "CREATE TABLE kv (k int PRIMARY KEY, v int NOT NULL);
INSERT INTO kv VALUES (1, 0), (2, 0);";
    let locker = "BEGIN;
SELECT k FROM kv WHERE k = 1 FOR UPDATE;
SELECT pg_sleep(0.6);
COMMIT;";
    let inserter = "INSERT INTO kv VALUES (1, 5);
INSERT INTO kv VALUES (1, 5) ON CONFLICT DO NOTHING RETURNING v;";
    let sim = pg(setup, &[("A", 0, locker), ("B", 100, inserter)]);
    assert_eq!(wait_ms(&sim, "B"), 0);
    assert_eq!(sqlstates(&sim, "B"), ["23505"]);
    assert_eq!(results(&sim, "B"), [Vec::<Vec<Value>>::new()]);

    let writer = "BEGIN;
UPDATE kv SET v = 1 WHERE k = 1;
DELETE FROM kv WHERE k = 2;
SELECT pg_sleep(0.4);
COMMIT;";
    let inserter = "INSERT INTO kv VALUES (1, 5);
INSERT INTO kv VALUES (2, 5);";
    let sc = scenario_in(
        Dialect::Postgres,
        setup,
        &[("A", 0, writer), ("B", 100_000, inserter)],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let waits: Vec<String> = (trace.entries.iter())
        .filter(|e| matches!(e.event, engine::Event::LockWaiting { .. }))
        .map(|e| e.event.to_string())
        .collect();
    assert_eq!(
        waits,
        ["B waits for ShareLock on TRANSACTIONID (writer of kv (1)): A holds FOR NO KEY UPDATE"]
    );
    assert_eq!(wait_ms(&sim, "B"), 300);
    assert_eq!(sqlstates(&sim, "B"), ["23505"]);
    assert_eq!(
        final_rows(&mut sim, "SELECT k, v FROM kv ORDER BY k"),
        [
            vec![Value::Int(1), Value::Int(1)],
            vec![Value::Int(2), Value::Int(5)]
        ]
    );
}

/// Real server: in REPEATABLE READ, ON CONFLICT DO NOTHING against a row committed
/// after the transaction's snapshot fails with 40001 (the row is not visible to it),
/// as DO UPDATE does; with a snapshot that sees the row, it leaves the proposed row out.
#[test]
fn do_nothing_on_a_row_the_snapshot_cannot_see_fails_with_40001() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, v text);";
    let inserter = "BEGIN;
INSERT INTO job VALUES (1, 'A');
SELECT pg_sleep(0.3);
COMMIT;";
    let late = "BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM job;
SELECT pg_sleep(0.4);
INSERT INTO job VALUES (1, 'B') ON CONFLICT DO NOTHING RETURNING v;
COMMIT;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM job;
INSERT INTO job VALUES (1, 'B') ON CONFLICT DO NOTHING RETURNING v;
COMMIT;";
    let sim = pg(setup, &[("A", 0, inserter), ("B", 100, late)]);
    assert_eq!(sqlstates(&sim, "B"), ["40001"]);
    assert_eq!(
        messages(&sim, "B"),
        ["could not serialize access due to concurrent update"]
    );
    assert_eq!(results(&sim, "B"), [ids(&[0]), ids(&[1]), vec![]]);
}

/// Real server: a missing column of a qualified reference is named with its table or
/// alias, unquoted (`column j.stauts`); one an INSERT or UPDATE names, with its table.
#[test]
fn a_missing_column_is_named_as_the_server_names_it() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new');";
    let script = "SELECT j.stauts FROM job j;
SELECT stauts FROM job;
INSERT INTO job (id, nope) VALUES (2, 1);
UPDATE job SET nope = 1;
SELECT public.job.nope FROM job;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["42703"; 5]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "column j.stauts does not exist",
            "column \"stauts\" does not exist",
            "column \"nope\" of relation \"job\" does not exist",
            "column \"nope\" of relation \"job\" does not exist",
            "column job.nope does not exist",
        ]
    );
}

/// Real server: an aggregate in WHERE is 42803 (the simulation gave no rows), in a
/// SELECT and in a DELETE; in a subquery, or in HAVING, it is allowed.
#[test]
fn an_aggregate_in_where_is_42803() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new'), (2, 'new');";
    let script = "SELECT id FROM job WHERE count(*) > 1;
SELECT id FROM job WHERE id IN (SELECT max(id) FROM job);
DELETE FROM job WHERE max(id) > 1;
SELECT count(*) FROM job GROUP BY status HAVING count(*) > 1;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["42803", "42803"]);
    assert_eq!(
        messages(&sim, "A"),
        ["aggregate functions are not allowed in WHERE"; 2]
    );
    assert_eq!(results(&sim, "A"), [ids(&[2]), ids(&[2])]);
}

/// Real server (time zone UTC): a timestamptz prints its zone, `+00`, and text with a
/// zone is that moment in UTC (before, the zone was not shown, and `+02` was 22007);
/// a timestamp, LOCALTIMESTAMP and a cast to timestamp print none.
#[test]
fn timestamptz_prints_its_zone_and_reads_offsets() {
    let setup =
        "CREATE TABLE job (id int PRIMARY KEY, due timestamp, at2 timestamp with time zone);
INSERT INTO job VALUES (1, '2026-01-02 03:04:05', '2026-01-02 03:04:05+02');";
    let script = "SELECT due, at2, at2::timestamp AS plain, due::timestamptz AS tz, '2024-01-02 03:04:05-05:30'::timestamptz AS lit, timestamptz '2024-01-02 03:04:05Z' AS z FROM job;
SELECT at2 + interval '5 minutes' AS later, date_trunc('hour', at2) AS h, at2::date AS d FROM job;
SELECT localtimestamp = now() AS same, now()::text LIKE '%+00' AS zoned, localtimestamp::text LIKE '%+00' AS local_zoned;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert!(sqlstates(&sim, "A").is_empty(), "{:?}", messages(&sim, "A"));
    let shown: Vec<Vec<String>> = results(&sim, "A")
        .into_iter()
        .map(|rows| rows[0].iter().map(ToString::to_string).collect())
        .collect();
    assert_eq!(
        shown,
        [
            vec![
                "2026-01-02 03:04:05",
                "2026-01-02 01:04:05+00",
                "2026-01-02 01:04:05",
                "2026-01-02 03:04:05+00",
                "2024-01-02 08:34:05+00",
                "2024-01-02 03:04:05+00"
            ],
            vec![
                "2026-01-02 01:09:05+00",
                "2026-01-02 01:00:00+00",
                "2026-01-02"
            ],
            vec!["t", "t", "f"],
        ]
    );
}

/// Real server: text past an integer type's range names the text and the type; a
/// bigint's overflow is "bigint out of range" (it said integer), and two smallints
/// add up to a smallint (the simulation gave 32768).
#[test]
fn integer_overflows_as_the_server_words_them() {
    let script = "SELECT '3000000000'::int;
SELECT '99999'::smallint;
SELECT '99999999999999999999'::bigint;
SELECT 9223372036854775807::bigint + 1;
SELECT 2147483647 + 1;
SELECT 32767::smallint + 1::smallint;
SELECT 32767::smallint + 1;";
    let sim = pg("", &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["22003"; 6]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "value \"3000000000\" is out of range for type integer",
            "value \"99999\" is out of range for type smallint",
            "value \"99999999999999999999\" is out of range for type bigint",
            "bigint out of range",
            "integer out of range",
            "smallint out of range",
        ]
    );
    assert_eq!(results(&sim, "A"), [ids(&[32768])]);
}

/// Real server: while A holds a shared advisory lock, B's statement that tries the
/// shared lock and then the exclusive one gets true and false; the simulation answered
/// true twice (the shared lock the statement had just taken answered for the other).
#[test]
fn a_shared_try_lock_does_not_answer_for_an_exclusive_one_in_the_same_statement() {
    let a = "SELECT pg_advisory_lock_shared(9);
SELECT pg_sleep(0.4);";
    let b = "SELECT pg_try_advisory_lock_shared(9) AS sh, pg_try_advisory_lock(9) AS ex;";
    let sim = pg("", &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(
        results(&sim, "B"),
        [vec![vec![Value::bool(true), Value::bool(false)]]]
    );
}

/// Real server: hashtext() is the server's hash of the text (Jenkins' lookup3, as an
/// integer), which applications key advisory locks with; it was 42883, and inside
/// pg_try_advisory_lock "not simulated". generate_series() in the select list is "not
/// simulated" (the server has it), not 42883.
#[test]
fn hashtext_gives_the_servers_numbers() {
    let script = "SELECT hashtext('queue-a') AS a, hashtext('') AS e, hashtext('x') AS x, hashtext('abcdefghijkl') AS twelve, hashtext('abcdefghijklmnopqrstuvwxyz0123') AS long, hashtext('zażółć gęślą jaźń') AS pl, hashtext(NULL) AS n;
SELECT pg_try_advisory_lock(hashtext('queue-a')) AS got;
SELECT pg_advisory_unlock(hashtext('queue-a')) AS released;
SELECT generate_series(1, 3);";
    let sim = pg("", &[("A", 0, script)]);
    let n = Value::Int;
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![
                n(1_486_737_268),
                n(-1_477_818_771),
                n(1_074_944_137),
                n(-1_586_087_212),
                n(89_653_194),
                n(745_884_310),
                Value::Null
            ]],
            vec![vec![Value::bool(true)]],
            vec![vec![Value::bool(true)]],
        ]
    );
    assert_eq!(
        messages(&sim, "A"),
        ["not simulated: generate_series() in the select list (in FROM it is)"]
    );
}

/// Real server: a subquery used as a value must have one column (42601, "must return
/// only one column"; in IN, "has too many columns"); the simulation took the first.
/// EXISTS may have any.
#[test]
fn a_subquery_value_has_one_column() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);
INSERT INTO job VALUES (1, 'new'), (2, 'new');";
    let script = "SELECT (SELECT id, status FROM job LIMIT 1);
SELECT id FROM job WHERE id IN (SELECT id, status FROM job);
SELECT id FROM job WHERE EXISTS (SELECT id, status FROM job) ORDER BY id;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "subquery must return only one column",
            "subquery has too many columns"
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["42601", "42601"]);
    assert_eq!(results(&sim, "A"), [ids(&[1, 2])]);
}

/// Real server: text against a number and a boolean against a number have no operator
/// (42883, naming both types); a quoted literal is read as the number it meets, and
/// fails (22P02) when it is none, a key seek's too. The simulation compared them,
/// giving NULL or no rows.
#[test]
fn comparisons_the_servers_types_refuse() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text NOT NULL, code varchar(10), done boolean, n int);
INSERT INTO job VALUES (1, 'new', 'a', false, 1), (2, 'done', 'b', true, 2);";
    let script = "SELECT id FROM job WHERE id = '1';
SELECT id FROM job WHERE id = 'one';
SELECT 'abc' = 1;
SELECT id FROM job WHERE status = 2;
SELECT id FROM job WHERE 2 < code;
SELECT id FROM job WHERE done = 1;
SELECT id FROM job WHERE n > '1';
SELECT id FROM job WHERE id IN (1, 'x');
SELECT id FROM job WHERE status IN ('new', 3);
SELECT id FROM job WHERE id BETWEEN '1' AND 'z';
SELECT id FROM job WHERE id IN ('1', '2') AND n BETWEEN '0' AND '5' ORDER BY id;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "invalid input syntax for type integer: \"one\"",
            "invalid input syntax for type integer: \"abc\"",
            "operator does not exist: text = integer",
            "operator does not exist: integer < character varying",
            "operator does not exist: boolean = integer",
            "invalid input syntax for type integer: \"x\"",
            "operator does not exist: text = integer",
            "invalid input syntax for type integer: \"z\"",
        ]
    );
    assert_eq!(
        sqlstates(&sim, "A"),
        ["22P02", "22P02", "42883", "42883", "42883", "22P02", "42883", "22P02"]
    );
    assert_eq!(results(&sim, "A"), [ids(&[1]), ids(&[2]), ids(&[1, 2])]);
}

/// Real server: each call of a session advisory lock function counts, two in one
/// statement (or one per row) included, and a statement that waited for one of its locks
/// counts each of its calls once: `pg_advisory_lock(1), pg_advisory_lock(1)` needs two
/// unlocks before another session can take the lock. The simulation counted a second
/// call in the same statement as the first.
#[test]
fn each_advisory_lock_call_counts_once_a_waiting_statement_included() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (2), (3);";
    let a = "SELECT pg_advisory_lock(1);
SELECT pg_try_advisory_lock(5) FROM t;
SELECT pg_sleep(0.3);
SELECT pg_advisory_unlock(1);
SELECT pg_advisory_unlock(5), pg_advisory_unlock(5);
SELECT pg_sleep(0.5);
SELECT pg_advisory_unlock(5);
SELECT pg_advisory_unlock(5);";
    let b = "SELECT pg_advisory_lock(2), pg_advisory_lock(1), pg_advisory_lock(1);
SELECT pg_try_advisory_lock(5);
SELECT pg_advisory_unlock(1);
SELECT pg_advisory_unlock(2);
SELECT pg_advisory_unlock(1);
SELECT pg_advisory_unlock(1);
SELECT pg_sleep(0.6);
SELECT pg_try_advisory_lock(5);";
    let c = "SELECT pg_try_advisory_lock_shared(7), pg_try_advisory_lock(7);";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b), ("C", 200, c)]);
    // A lock function returns void: shown empty, as psql shows it, and not NULL.
    let (t, f, n) = (Value::True, Value::False, Value::Text("".into()));
    let one = |v: &Value| vec![vec![v.clone()]];
    let a = results(&sim, "A");
    assert_eq!(a[1], [[t.clone()], [t.clone()], [t.clone()]]);
    assert_eq!(
        a[2..].to_vec(),
        [one(&t), vec![vec![t.clone(), t.clone()]], one(&t), one(&f)]
    );
    let b = results(&sim, "B");
    assert_eq!(b[0], [[n.clone(), n.clone(), n]]);
    assert_eq!(
        b[1..].to_vec(),
        [one(&f), one(&t), one(&t), one(&t), one(&f), one(&t)]
    );
    assert_eq!(results(&sim, "C"), [[[t.clone(), t]]]);
    assert!(wait_ms(&sim, "B") >= 199, "B waits for A's lock on 1");
}

/// Real server: length, char_length and octet_length take text, and a number or a
/// boolean has no such function (42883); octet_length counts bytes. The simulation
/// measured the number's digits, and had no octet_length.
#[test]
fn text_lengths_take_text_only() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, s text, b boolean, d numeric(5,2));
INSERT INTO t VALUES (1, 'añb', true, 1.5), (2, NULL, NULL, NULL);";
    let script = "SELECT length(s), char_length(s), octet_length(s) FROM t ORDER BY id;
SELECT length(id) FROM t;
SELECT length(b) FROM t;
SELECT octet_length(d) FROM t;
SELECT char_length(42);";
    let sim = pg(setup, &[("A", 0, script)]);
    let int = Value::Int;
    assert_eq!(
        results(&sim, "A"),
        [vec![
            vec![int(3), int(3), int(4)],
            vec![Value::Null, Value::Null, Value::Null]
        ]]
    );
    assert_eq!(
        messages(&sim, "A"),
        [
            "function length(integer) does not exist",
            "function length(boolean) does not exist",
            "function octet_length(numeric) does not exist",
            "function char_length(integer) does not exist",
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["42883"; 4]);
}

/// Real server: a statement's names are bound before it reads a row, so a missing
/// column fails on an empty table too (42703), in WHERE, an UPDATE's values, an
/// aggregate's query, HAVING and ORDER BY. The simulation returned no rows, or deleted
/// none.
#[test]
fn a_missing_column_fails_with_no_rows_to_read() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text);";
    let script = "DELETE FROM job WHERE stauts = 'x';
UPDATE job SET status = 'y' WHERE stauts = 'x';
UPDATE job SET status = nope WHERE id = 1;
SELECT count(*) FROM job WHERE stauts = 'x';
SELECT status, count(*) FROM job GROUP BY status HAVING max(nope) > 'a';
SELECT id FROM job j WHERE x.id = 1;
SELECT id FROM job WHERE id = 1;
SELECT id FROM job ORDER BY nope;
SELECT id AS x FROM job ORDER BY x, status;
SELECT id FROM job j ORDER BY lower(j.stat);";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "column \"stauts\" does not exist",
            "column \"stauts\" does not exist",
            "column \"nope\" does not exist",
            "column \"stauts\" does not exist",
            "column \"nope\" does not exist",
            "missing FROM-clause entry for table \"x\"",
            "column \"nope\" does not exist",
            "column j.stat does not exist",
        ]
    );
    assert_eq!(
        sqlstates(&sim, "A"),
        ["42703", "42703", "42703", "42703", "42703", "42P01", "42703", "42703"]
    );
    // ORDER BY may name an output column (`x`).
    assert_eq!(results(&sim, "A"), [ids(&[]), ids(&[])]);
}

/// Real server: a condition must be a boolean. An integer, a text column or a number in
/// WHERE, HAVING, JOIN/ON, CASE/WHEN or under AND, OR, NOT is 42804 naming the place and
/// the type; a quoted literal is read as a boolean ('yes' holds, 'abc' is 22P02). The
/// simulation read a non-zero number as true.
#[test]
fn a_condition_must_be_a_boolean() {
    let setup = "CREATE TABLE wt (id int PRIMARY KEY, active boolean, n int, s text);
INSERT INTO wt VALUES (1, true, 1, 't'), (2, false, 0, 'f');";
    let script = "SELECT id FROM wt WHERE n;
SELECT id FROM wt WHERE s;
SELECT id FROM wt WHERE 'abc';
SELECT id FROM wt WHERE 1;
SELECT id FROM wt WHERE active AND n;
SELECT id FROM wt WHERE NULL;
SELECT CASE WHEN n THEN 1 END FROM wt;
SELECT id FROM wt WHERE (SELECT 1);
SELECT a.id FROM wt a JOIN wt b ON a.n;
UPDATE wt SET n = 2 WHERE n;
DELETE FROM wt WHERE n;
SELECT id FROM wt WHERE NOT n;
SELECT id FROM wt WHERE 'yes' ORDER BY id;
SELECT id FROM wt WHERE active OR 2.5;
SELECT id FROM wt WHERE active AND NOT (n = 0) ORDER BY id;";
    let sim = pg(setup, &[("A", 0, script)]);
    let arg =
        |place: &str, ty: &str| format!("argument of {place} must be type boolean, not type {ty}");
    assert_eq!(
        messages(&sim, "A"),
        [
            arg("WHERE", "integer"),
            arg("WHERE", "text"),
            "invalid input syntax for type boolean: \"abc\"".to_string(),
            arg("WHERE", "integer"),
            arg("AND", "integer"),
            arg("CASE/WHEN", "integer"),
            arg("WHERE", "integer"),
            arg("JOIN/ON", "integer"),
            arg("WHERE", "integer"),
            arg("WHERE", "integer"),
            arg("NOT", "integer"),
            arg("OR", "numeric"),
        ]
    );
    let mut states = vec!["42804"; 12];
    states[2] = "22P02";
    assert_eq!(sqlstates(&sim, "A"), states);
    assert_eq!(results(&sim, "A"), [ids(&[]), ids(&[1, 2]), ids(&[1])]);
}

/// Real server: a LIMIT around a locking subquery or CTE pulls, and so locks, only the
/// rows it returns: another session's SKIP LOCKED gets the rest, and NOWAIT on one of
/// them succeeds. The simulation locked every row the inner query read.
#[test]
fn a_limit_around_a_locking_subquery_locks_only_the_rows_pulled() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text NOT NULL DEFAULT 'new');
INSERT INTO job (id) VALUES (1), (2), (3);";
    let derived = "BEGIN;
SELECT id FROM (SELECT id FROM job ORDER BY id FOR UPDATE) s LIMIT 1;
SELECT pg_sleep(0.4);
COMMIT;";
    let skipper = "SELECT id FROM job ORDER BY id FOR UPDATE SKIP LOCKED;";
    let sim = pg(setup, &[("A", 0, derived), ("B", 150, skipper)]);
    assert_eq!(results(&sim, "A")[0], ids(&[1]));
    assert_eq!(results(&sim, "B"), [ids(&[2, 3])]);

    let cte = "BEGIN;
WITH c AS (SELECT id FROM job ORDER BY id FOR UPDATE) SELECT id FROM c LIMIT 1;
SELECT pg_sleep(0.4);
COMMIT;";
    let nowait = "SELECT id FROM job WHERE id = 1 FOR UPDATE NOWAIT;
SELECT id FROM job WHERE id = 2 FOR UPDATE NOWAIT;";
    let sim = pg(setup, &[("A", 0, cte), ("B", 150, nowait)]);
    assert_eq!(sqlstates(&sim, "B"), ["55P03"]);
    assert_eq!(results(&sim, "B"), [ids(&[2])]);
}

/// Real server: an advisory lock function resolves by its arguments' types: a NULL key
/// gives NULL and locks nothing, a quoted key that is no number is 22P02, a decimal
/// key or a second key past an integer finds no such function (42883). The simulation
/// said "advisory lock functions take one bigint key or two int keys" for NULL and
/// text, and locked key 1 for 1.5. `SELECT hashtext(...)` alone is the function too.
#[test]
fn advisory_lock_arguments_as_the_server_resolves_them() {
    let script = "SELECT pg_advisory_lock(NULL);
SELECT pg_advisory_lock('abc');
SELECT pg_try_advisory_lock(1.5);
SELECT pg_advisory_lock(2147483648, 1);
SELECT pg_try_advisory_lock('7') AS quoted;
SELECT hashtext('queue-a');";
    let sim = pg("", &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "invalid input syntax for type bigint: \"abc\"",
            "function pg_try_advisory_lock(numeric) does not exist",
            "function pg_advisory_lock(bigint, integer) does not exist",
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["22P02", "42883", "42883"]);
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![Value::Null]],
            vec![vec![Value::bool(true)]],
            ids(&[1_486_737_268]),
        ]
    );
}

/// Real server: no assignment cast between boolean and the numbers: a boolean stored in
/// an integer column, or a number in a boolean one, is 42804 (the simulation stored 1
/// and true); text goes either way, and an explicit cast works.
#[test]
fn a_boolean_and_a_number_do_not_assign_to_each_other() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, n int, done boolean, status text);
INSERT INTO job VALUES (1, 1, false, 'new');";
    let script = "UPDATE job SET n = true WHERE id = 1;
UPDATE job SET done = 1 WHERE id = 1;
INSERT INTO job VALUES (2, false, true, 'x');
UPDATE job SET done = '1', status = true, n = '5' WHERE id = 1 RETURNING done, status, n;
UPDATE job SET n = true::int WHERE id = 1 RETURNING n;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "column \"n\" is of type integer but expression is of type boolean",
            "column \"done\" is of type boolean but expression is of type integer",
            "column \"n\" is of type integer but expression is of type boolean",
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["42804"; 3]);
    assert_eq!(
        results(&sim, "A"),
        [
            vec![vec![
                Value::bool(true),
                Value::Text("true".into()),
                Value::Int(5)
            ]],
            ids(&[1]),
        ]
    );
}

/// Real server: an aggregate over a type it has no function for is 42883, naming the
/// type: sum(text), avg(character varying), max(boolean), sum of a timestamp. The
/// simulation gave 0 and true. max and min of text and of a timestamp work.
#[test]
fn an_aggregate_over_a_type_it_has_no_function_for() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, status text, code varchar(10), done boolean, at timestamp, n int);
INSERT INTO job VALUES (1, 'new', 'a', false, '2024-01-01', 1), (2, 'done', 'b', true, '2024-01-02', 2);";
    let script = "SELECT sum(status) FROM job;
SELECT avg(code) FROM job;
SELECT max(done) FROM job;
SELECT sum(at) FROM job;
SELECT max(status), min(code), sum(n) FROM job;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "function sum(text) does not exist",
            "function avg(character varying) does not exist",
            "function max(boolean) does not exist",
            "function sum(timestamp without time zone) does not exist",
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["42883"; 4]);
    assert_eq!(
        results(&sim, "A"),
        [vec![vec![
            Value::Text("new".into()),
            Value::Text("a".into()),
            Value::Int(3)
        ]]]
    );
}

/// ORDER BY a name that two output columns bear is ambiguous when they hold different
/// things (42702, `ORDER BY "id" is ambiguous`), with rows or without; the same column
/// twice, a qualified name or a position is not. As PostgreSQL 15 answered.
#[test]
fn order_by_a_name_two_output_columns_bear_is_ambiguous() {
    let setup = "CREATE TABLE a (id int, v int); CREATE TABLE b (id int, w int);
INSERT INTO a VALUES (1, 10), (2, 20); INSERT INTO b VALUES (1, 5), (2, 6);";
    let script = "SELECT a.id, b.id FROM a JOIN b ON a.id = b.id ORDER BY id;
SELECT v AS id, id FROM a ORDER BY id;
SELECT * FROM a JOIN b ON a.id = b.id ORDER BY id;
SELECT id, id + 0 AS id FROM a ORDER BY id;
SELECT a.id AS x, b.id AS x FROM a JOIN b ON a.id = b.id WHERE false ORDER BY x;
SELECT a.id, b.id FROM a JOIN b ON a.id = b.id ORDER BY b.id + id;
SELECT id, id FROM a ORDER BY id;
SELECT a.*, a.id FROM a ORDER BY id;
SELECT a.id, b.id FROM a JOIN b ON a.id = b.id ORDER BY a.id DESC;
SELECT a.id, b.id FROM a JOIN b ON a.id = b.id ORDER BY 2 DESC;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(
        messages(&sim, "A"),
        [
            "ORDER BY \"id\" is ambiguous",
            "ORDER BY \"id\" is ambiguous",
            "ORDER BY \"id\" is ambiguous",
            "ORDER BY \"id\" is ambiguous",
            "ORDER BY \"x\" is ambiguous",
            "column reference \"id\" is ambiguous",
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["42702"; 6]);
    let (one, two) = (Value::Int(1), Value::Int(2));
    assert_eq!(
        results(&sim, "A"),
        [
            vec![
                vec![one.clone(), one.clone()],
                vec![two.clone(), two.clone()]
            ],
            vec![
                vec![one.clone(), Value::Int(10), one.clone()],
                vec![two.clone(), Value::Int(20), two.clone()]
            ],
            vec![
                vec![two.clone(), two.clone()],
                vec![one.clone(), one.clone()]
            ],
            vec![vec![two.clone(), two], vec![one.clone(), one]],
        ]
    );
}

/// Operands of a set operation with different numbers of columns: 42601, naming the
/// operator, as PostgreSQL 15 words it.
#[test]
fn set_operands_with_different_column_counts_are_42601() {
    let sim = pg(
        "CREATE TABLE task (id int PRIMARY KEY, status text);",
        &[(
            "A",
            0,
            "SELECT 1, 2 UNION ALL SELECT 1;
SELECT 1, 2 INTERSECT SELECT 1;
SELECT 1 EXCEPT SELECT 1, 3;
SELECT * FROM task UNION SELECT 1 ORDER BY 1;",
        )],
    );
    assert_eq!(
        messages(&sim, "A"),
        [
            "each UNION query must have the same number of columns",
            "each INTERSECT query must have the same number of columns",
            "each EXCEPT query must have the same number of columns",
            "each UNION query must have the same number of columns",
        ]
    );
    assert_eq!(sqlstates(&sim, "A"), ["42601"; 4]);
}

/// An integer FOR loop declares its own variable: a variable of the same name in the
/// block keeps its value, and two loops may use one name (psql: `i 7 s 6`, `i 7 s 36`).
#[test]
fn a_for_loop_declares_its_own_variable() {
    let a = "DO $$ DECLARE i int := 7; s int := 0; BEGIN
  FOR i IN 1..3 LOOP s := s + i; END LOOP;
  RAISE NOTICE 'i % s %', i, s;
  FOR i IN 1..2 LOOP s := s + 10 * i; END LOOP;
  RAISE NOTICE 'i % s %', i, s;
END $$;";
    let sc = scenario_in(Dialect::Postgres, TASKS, &[("A", 0, a)]);
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    assert_eq!(printed(&trace), ["i 7 s 6", "i 7 s 36"]);
}

/// Real server (15): an UPDATE that changes a row's primary key writes a new version of
/// the same row, which a statement waiting for the row follows (EvalPlanQual): C's
/// `WHERE v = 10` finds the row under its new key and updates it; B's `WHERE id = 1` no
/// longer matches it; a DELETE and a FOR UPDATE follow it too.
#[test]
fn a_waiting_statement_follows_a_row_whose_key_changed() {
    let setup =
        "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, 10), (2, 20);";
    let mover = "BEGIN;\nUPDATE t SET id = 10 WHERE id = 1;\nSELECT pg_sleep(1);\nCOMMIT;";
    for (sql, rows, left) in [
        (
            "UPDATE t SET v = v + 5 WHERE v = 10 RETURNING id, v",
            vec![vec![Value::Int(10), Value::Int(15)]],
            vec![(10, 15), (2, 20)],
        ),
        (
            "UPDATE t SET v = v + 1 WHERE id = 1 RETURNING id, v",
            vec![],
            vec![(10, 10), (2, 20)],
        ),
        (
            "DELETE FROM t WHERE v = 10 RETURNING id",
            vec![vec![Value::Int(10)]],
            vec![(2, 20)],
        ),
        (
            "SELECT id, v FROM t WHERE v = 10 FOR UPDATE",
            vec![vec![Value::Int(10), Value::Int(10)]],
            vec![(10, 10), (2, 20)],
        ),
    ] {
        let mut sim = pg(setup, &[("A", 0, mover), ("B", 100, sql)]);
        assert!(wait_ms(&sim, "B") > 800, "{sql}: B waits for A");
        assert_eq!(results(&sim, "B"), vec![rows], "{sql}");
        let expected: Vec<Vec<Value>> = left
            .iter()
            .map(|&(id, v)| vec![Value::Int(id), Value::Int(v)])
            .collect();
        let mut got = final_rows(&mut sim, "SELECT id, v FROM t ORDER BY v");
        got.sort_by_key(|r| r[1].as_i64());
        let mut expected = expected;
        expected.sort_by_key(|r| r[1].as_i64());
        assert_eq!(got, expected, "{sql}");
    }
    // REPEATABLE READ: the change of key is a concurrent update, not a delete.
    let reader = "BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM t;\n\
                  SELECT pg_sleep(0.2);\nUPDATE t SET v = 0 WHERE v = 10;\nROLLBACK;";
    let sim = pg(
        setup,
        &[
            ("B", 0, reader),
            ("A", 100, "UPDATE t SET id = 10 WHERE id = 1;"),
        ],
    );
    assert_eq!(
        messages(&sim, "B"),
        ["could not serialize access due to concurrent update"]
    );
}

/// Real server (15): under REPEATABLE READ, FOR KEY SHARE locks a row that another
/// transaction updated since the snapshot when that update kept the key (no 40001, the
/// snapshot's version comes back); after a change of key it is 40001, as FOR SHARE is
/// after any update.
#[test]
fn repeatable_read_key_share_passes_an_update_that_kept_the_key() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, 0), (2, 0);";
    let writer = "UPDATE t SET v = 1 WHERE id = 1;\nUPDATE t SET id = 20 WHERE id = 2;";
    for (lock, id, failed) in [
        ("FOR KEY SHARE", 1, false),
        ("FOR SHARE", 1, true),
        ("FOR KEY SHARE", 2, true),
    ] {
        let reader = format!(
            "BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM t;\n\
             SELECT pg_sleep(0.2);\nSELECT id, v FROM t WHERE id = {id} {lock};\nROLLBACK;"
        );
        let sim = pg(setup, &[("B", 0, &reader), ("A", 100, writer)]);
        let expected: Vec<&str> = if failed { vec!["40001"] } else { vec![] };
        assert_eq!(sqlstates(&sim, "B"), expected, "{lock} on row {id}");
        if !failed {
            assert_eq!(
                results(&sim, "B")[1],
                vec![vec![Value::Int(1), Value::Int(0)]]
            );
        }
    }
}

/// Real server (15): a session's own advisory locks never refuse it, whichever scope
/// each has: a transaction-scope try after its session-scope shared lock, and a
/// session-scope try after its transaction-scope shared lock, both answer true.
#[test]
fn a_sessions_own_advisory_locks_never_refuse_it_across_scopes() {
    for script in [
        "SELECT pg_try_advisory_lock_shared(6);\nBEGIN;\nSELECT pg_try_advisory_xact_lock(6);\nCOMMIT;",
        "BEGIN;\nSELECT pg_advisory_xact_lock_shared(3);\nSELECT pg_try_advisory_lock(3);\nCOMMIT;",
    ] {
        let sim = pg("CREATE TABLE t (id int);", &[("A", 0, script)]);
        assert_eq!(
            results(&sim, "A").last().unwrap(),
            &vec![vec![Value::True]],
            "{script}"
        );
    }
}

/// Real server (15): a data-modifying CTE runs once, before the statement, and its
/// RETURNING rows are the CTE's rows: the archive pattern moves each worker's claimed
/// job (SKIP LOCKED) to `done`, and `WITH u AS (UPDATE ... RETURNING)` feeds a SELECT.
/// A statement that reads a table its own WITH changes (the server shows it the rows
/// as they were before the WITH) is not simulated, and says so; so are a data-modifying
/// WITH below the top level and one before UPDATE or DELETE.
#[test]
fn a_data_modifying_with_moves_claimed_jobs() {
    let setup = "CREATE TABLE q (id int PRIMARY KEY, p text);\n\
                 CREATE TABLE done (id int PRIMARY KEY, p text);\n\
                 INSERT INTO q VALUES (1, 'x'), (2, 'y'), (3, 'z');";
    let claim = "WITH d AS (DELETE FROM q WHERE id = (SELECT id FROM q ORDER BY id LIMIT 1 \
                 FOR UPDATE SKIP LOCKED) RETURNING id, p)\nINSERT INTO done SELECT id, p FROM d RETURNING id;";
    let a = format!("BEGIN;\n{claim}\nSELECT pg_sleep(1);\nCOMMIT;");
    let b = format!(
        "{claim}\nWITH u AS (UPDATE q SET p = 'w' WHERE id = 3 RETURNING id, p)\n\
                     SELECT count(*), max(p) FROM u;"
    );
    let mut sim = pg(setup, &[("A", 0, &a), ("B", 100, &b)]);
    assert_eq!(results(&sim, "A")[0], ids(&[1]));
    assert_eq!(results(&sim, "B")[0], ids(&[2]));
    assert_eq!(
        results(&sim, "B")[1],
        vec![vec![Value::Int(1), Value::Text("w".into())]]
    );
    assert_eq!(wait_ms(&sim, "B"), 0, "SKIP LOCKED passes A's job");
    assert_eq!(
        final_rows(&mut sim, "SELECT id FROM done ORDER BY id"),
        ids(&[1, 2])
    );
    assert_eq!(
        final_rows(&mut sim, "SELECT id, p FROM q"),
        vec![vec![Value::Int(3), Value::Text("w".into())]]
    );
    let own = pg(
        setup,
        &[(
            "A",
            0,
            "WITH d AS (DELETE FROM q WHERE id = 1 RETURNING id) SELECT count(*) FROM q;",
        )],
    );
    assert_eq!(
        messages(&own, "A"),
        ["not simulated: reading q in the statement whose WITH changes it"]
    );
}

/// Real server (15): `statement_timeout` cancels a statement that runs longer, its lock
/// wait or its `pg_sleep` included, with 57014 (a lock_timeout that comes first is
/// still 55P03); `SET LOCAL` lasts until the transaction ends, and 0 turns it off.
#[test]
fn statement_timeout_cancels_a_wait_or_a_sleep() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, 0);";
    let holder = "BEGIN;\nUPDATE t SET v = 1 WHERE id = 1;\nSELECT pg_sleep(3);\nCOMMIT;";
    let waiter = "SET statement_timeout = 500;\nUPDATE t SET v = 2 WHERE id = 1;\n\
                  SET lock_timeout = '200ms';\nUPDATE t SET v = 3 WHERE id = 1;\n\
                  SELECT pg_sleep(1);\nSET statement_timeout = 0;\n\
                  BEGIN;\nSET LOCAL statement_timeout = '100ms';\nSELECT pg_sleep(0.2);\nROLLBACK;\n\
                  SELECT pg_sleep(0.2);";
    let mut sim = pg_sim(setup, &[("A", 0, holder), ("B", 100, waiter)]);
    let trace = sim.run_traced().unwrap().to_string();
    assert_eq!(sqlstates(&sim, "B"), ["57014", "55P03", "57014", "57014"]);
    // The trace names the setting that ran out, as the script wrote it.
    let gave_up: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains("B stops waiting"))
        .collect();
    assert_eq!(gave_up.len(), 2, "{trace}");
    assert!(
        gave_up[0].ends_with("after 500 ms (statement_timeout)"),
        "{trace}"
    );
    assert!(
        gave_up[1].ends_with("after 200 ms (lock_timeout)"),
        "{trace}"
    );
    assert_eq!(
        messages(&sim, "B")[0],
        "canceling statement due to statement timeout"
    );
    // 500 ms waiting, then 200 ms; 500 and 100 ms sleeping, and the last sleep whole.
    let o = sim.outcome();
    let b = o.sessions.iter().find(|s| s.name == "B").unwrap();
    assert_eq!(b.wait_us / 1000, 700);
    assert!(
        b.elapsed_us / 1000 >= 1500 && b.elapsed_us / 1000 < 1510,
        "{}",
        b.elapsed_us
    );
}

/// Real server (15): READ COMMITTED's snapshot is the statement's. An UPDATE that waits
/// for a row and then goes on re-checks that row's newest version only: it reads the
/// other tables' rows (a join's, a subquery's) as they were when it began. So the join
/// keeps s 1 (flag true when the statement began) and both t rows are updated, row 2
/// from A's committed 100; and the subquery in SET adds s's old 0.
#[test]
fn read_committed_goes_on_with_the_statements_snapshot_after_a_wait() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, tid int, v int);\n\
                 CREATE TABLE s (id int PRIMARY KEY, flag boolean, n int);\n\
                 INSERT INTO s VALUES (1, true, 0), (2, false, 0);\n\
                 INSERT INTO t VALUES (1, 1, 0), (2, 1, 0), (3, 2, 0);";
    let a = "BEGIN;\nUPDATE s SET flag = false, n = 100 WHERE id = 1;\nUPDATE t SET v = 100 WHERE id = 2;\n\
             SELECT pg_sleep(1);\nCOMMIT;";
    for (b, rows) in [
        (
            "UPDATE t SET v = v + 1 FROM s WHERE t.tid = s.id AND s.flag RETURNING t.id, t.v",
            [(1, 1), (2, 101)],
        ),
        (
            "UPDATE t SET v = t.v + (SELECT n FROM s WHERE id = 1) + 1 WHERE tid = 1 RETURNING id, v",
            [(1, 1), (2, 101)],
        ),
    ] {
        let sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
        assert!(wait_ms(&sim, "B") > 800, "{b}: B waits for row 2");
        let expected: Vec<Vec<Value>> = rows
            .iter()
            .map(|&(id, v)| vec![Value::Int(id), Value::Int(v)])
            .collect();
        assert_eq!(results(&sim, "B")[0], expected, "{b}");
    }
}

/// Real server (15): a procedure may COMMIT only when its CALL began its transaction;
/// called inside a transaction block, its COMMIT fails with 2D000 (invalid transaction
/// termination), the block is aborted (25P02) and its work rolled back. Called on its
/// own, the same procedure commits.
#[test]
fn a_procedure_called_inside_a_block_may_not_commit() {
    let setup = "CREATE TABLE q (id int PRIMARY KEY, done boolean NOT NULL DEFAULT false);\n\
                 INSERT INTO q (id) VALUES (1), (2);\n\
                 CREATE PROCEDURE mark(i int) AS $$ BEGIN UPDATE q SET done = true WHERE id = i; \
                 COMMIT; END $$ LANGUAGE plpgsql;";
    let script = "BEGIN;\nCALL mark(1);\nSELECT 1;\nROLLBACK;\nCALL mark(2);";
    let mut sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["2D000", "25P02"]);
    assert_eq!(messages(&sim, "A")[0], "invalid transaction termination");
    assert_eq!(
        final_rows(&mut sim, "SELECT id, done FROM q ORDER BY id"),
        vec![
            vec![Value::Int(1), Value::False],
            vec![Value::Int(2), Value::True]
        ]
    );
}

/// Real server (15), small answers: SET of a column the table lacks is 42703 with no
/// row to change too; an aggregate's ORDER BY puts NULLs where a query's would (last
/// ascending, NULLS FIRST | LAST obeyed); bad timestamptz input names its type; a
/// system column (`ctid`) is not simulated rather than "does not exist".
#[test]
fn small_answers_the_server_gives() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, p int);\nINSERT INTO t VALUES (1, 1), (2, NULL), (3, 2);";
    let script = "UPDATE t SET nope = 1 WHERE id = 9;\n\
                  SELECT string_agg(id::text, ',' ORDER BY p) FROM t;\n\
                  SELECT string_agg(id::text, ',' ORDER BY p DESC NULLS LAST) FROM t;\n\
                  SELECT 'x'::timestamptz;\n\
                  SELECT ctid FROM t;";
    let sim = pg(setup, &[("A", 0, script)]);
    assert_errors(
        &sim,
        "A",
        &[
            ("42703", "column \"nope\" of relation \"t\" does not exist"),
            (
                "22007",
                "invalid input syntax for type timestamp with time zone: \"x\"",
            ),
            ("XX000", "not simulated: the system column ctid"),
        ],
    );
    assert_eq!(
        results(&sim, "A")[0],
        vec![vec![Value::Text("1,3,2".into())]]
    );
    assert_eq!(
        results(&sim, "A")[1],
        vec![vec![Value::Text("3,1,2".into())]]
    );
}

/// Real server (15): `INSERT ... SELECT ... ON CONFLICT DO UPDATE` whose source has a key
/// twice fails with 21000, also where the row the statement inserted first took the
/// slot of a key an earlier, failed INSERT left behind.
#[test]
fn on_conflict_do_update_may_not_touch_its_own_row_again() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nCREATE TABLE src (id int, v int);\n\
                 INSERT INTO src VALUES (1, 1), (2, 2), (1, 3);";
    let script = "INSERT INTO t SELECT id, v FROM src;\n\
                  INSERT INTO t SELECT id, v FROM src ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;\n\
                  INSERT INTO t SELECT id, v FROM src ON CONFLICT (id) DO NOTHING;";
    let mut sim = pg(setup, &[("A", 0, script)]);
    assert_eq!(sqlstates(&sim, "A"), ["23505", "21000"]);
    assert_eq!(
        final_rows(&mut sim, "SELECT id, v FROM t ORDER BY id"),
        vec![
            vec![Value::Int(1), Value::Int(1)],
            vec![Value::Int(2), Value::Int(2)]
        ]
    );
}

/// Real server (15): a DO block at the top level may COMMIT and ROLLBACK (the rest of
/// it runs in a new transaction); inside the session's transaction block it may not
/// end that block: 2D000, and the block's ROLLBACK then undoes its insert. Inside DO
/// and CALL, statement_timestamp() is when the DO or the CALL began, while
/// clock_timestamp() moves on.
#[test]
fn a_do_block_ends_only_its_own_transaction_and_keeps_its_statement_time() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, st timestamptz, ck timestamptz);
CREATE PROCEDURE p() LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3);
INSERT INTO t VALUES (20, statement_timestamp(), clock_timestamp()); END $$;";
    let a = "DO $$ BEGIN INSERT INTO t VALUES (1); COMMIT; INSERT INTO t VALUES (2); ROLLBACK; \
             INSERT INTO t VALUES (3); END $$;
BEGIN;
DO $$ BEGIN INSERT INTO t VALUES (4); COMMIT; END $$;
ROLLBACK;
DO $$ BEGIN PERFORM pg_sleep(0.3); INSERT INTO t VALUES (10, statement_timestamp(), clock_timestamp()); END $$;
CALL p();
SELECT id FROM t ORDER BY id;
SELECT st, ck FROM t WHERE id >= 10 ORDER BY id;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["2D000"]);
    assert_eq!(messages(&sim, "A"), ["invalid transaction termination"]);
    let r = results(&sim, "A");
    assert_eq!(r[0], ids(&[1, 3, 10, 20]));
    for row in &r[1] {
        let (Value::DateTime(st, _), Value::DateTime(ck, _)) = (&row[0], &row[1]) else {
            panic!("{row:?}");
        };
        assert!((300_000..301_000).contains(&(ck - st)), "{st} {ck}");
    }
}

/// Real server (15): an unknown literal in coalesce takes the other arguments' type, a
/// NULL int column's too: `coalesce(v, '7') + 1` is 8 and `coalesce(v, 'x')` fails
/// with 22P02.
#[test]
fn coalesce_types_a_literal_by_its_int_column() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, NULL);";
    let a = "SELECT coalesce(v, '7') + 1 FROM t;\nSELECT coalesce(v, 'x') FROM t;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(results(&sim, "A")[0], ids(&[8]));
    assert_eq!(sqlstates(&sim, "A"), ["22P02"]);
    assert_eq!(
        messages(&sim, "A"),
        ["invalid input syntax for type integer: \"x\""]
    );
}

/// A one-row, one-column text result per statement: what `string_agg` returned.
fn texts(sim: &Simulation, name: &str) -> Vec<String> {
    (results(sim, name).into_iter())
        .map(|r| match r.as_slice() {
            [row] => row[0].output_text(),
            other => panic!("one row expected, got {other:?}"),
        })
        .collect()
}

const FOUR: &str = "CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 0), (2, 0), (3, 0), (4, 0);";

/// Real server (checked): a table is a heap, and a sequential scan meets its rows in the
/// order their versions were written, not by primary key. An UPDATE writes a new
/// version at the end; only the writer sees it there until it commits; a rollback
/// leaves the row where it was; a deleted and re-inserted key goes at the end; a
/// REPEATABLE READ snapshot keeps meeting the versions it sees where they are.
#[test]
fn a_sequential_scan_meets_rows_in_the_order_they_were_written() {
    let agg = "SELECT string_agg(id::text, ',') FROM t;";
    let a = format!(
        "BEGIN;\nUPDATE t SET v = 1 WHERE id = 2;\n{agg}\nSELECT pg_sleep(1);\nROLLBACK;\n{agg}\n\
         UPDATE t SET v = 2 WHERE id = 1;\n{agg}\nDELETE FROM t WHERE id = 3;\n\
         INSERT INTO t VALUES (3, 5);\n{agg}"
    );
    let sim = pg(FOUR, &[("A", 0, &a), ("B", 500, agg)]);
    assert_eq!(
        texts(&sim, "A"),
        ["1,3,4,2", "1,2,3,4", "2,3,4,1", "2,4,1,3"]
    );
    assert_eq!(texts(&sim, "B"), ["1,2,3,4"]);

    let reader = format!(
        "BEGIN ISOLATION LEVEL REPEATABLE READ;\n{agg}\nSELECT pg_sleep(1);\n{agg}\nCOMMIT;\n{agg}"
    );
    let writer = "UPDATE t SET v = 1 WHERE id = 2;";
    let sim = pg(FOUR, &[("A", 0, &reader), ("B", 500, writer)]);
    assert_eq!(texts(&sim, "A"), ["1,2,3,4", "1,2,3,4", "1,3,4,2"]);

    // Two updates in one transaction: the later version is the one met; a savepoint's
    // rollback puts the row back where its earlier version is.
    let a = "BEGIN;\nUPDATE t SET v = 7 WHERE id = 3;\nUPDATE t SET v = 8 WHERE id = 1;\n\
             UPDATE t SET v = 9 WHERE id = 3;\nSAVEPOINT s;\nUPDATE t SET v = 10 WHERE id = 1;\n\
             ROLLBACK TO SAVEPOINT s;\nCOMMIT;\nSELECT string_agg(id || ':' || v, ',') FROM t;";
    let sim = pg(FOUR, &[("A", 0, a)]);
    assert_eq!(texts(&sim, "A"), ["2:0,4:0,1:8,3:9"]);
}

/// Real server (checked): `LIMIT 1 FOR UPDATE SKIP LOCKED` without ORDER BY claims the
/// first row the scan meets: a row updated since the table was filled comes last.
#[test]
fn skip_locked_without_order_by_claims_in_heap_order() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, st text);
INSERT INTO job VALUES (1, 'new'), (2, 'new'), (3, 'new');
UPDATE job SET st = 'new' WHERE id = 1;";
    let claim = "SELECT id FROM job WHERE st = 'new' LIMIT 1 FOR UPDATE SKIP LOCKED;";
    let a = format!("BEGIN;\n{claim}\nSELECT pg_sleep(1);\nCOMMIT;");
    let sim = pg(setup, &[("A", 0, &a), ("B", 500, claim)]);
    assert_eq!(results(&sim, "A")[0], ids(&[2]));
    assert_eq!(results(&sim, "B"), [ids(&[3])]);
}

/// Real server (checked): RETURNING names the row by the table's name or alias; T-SQL's
/// `inserted.` and `deleted.` are missing FROM-clause entries (42P01), and the statement
/// changes nothing. An alias that happens to be `inserted` is the table.
#[test]
fn returning_knows_no_inserted_or_deleted_table() {
    let a = "UPDATE t SET v = 5 WHERE id = 1 RETURNING inserted.v;\n\
             DELETE FROM t WHERE id = 2 RETURNING deleted.id + 1;\n\
             DO $$ DECLARE x int; BEGIN UPDATE t SET v = 9 WHERE id = 1 RETURNING inserted.v INTO x; END $$;\n\
             UPDATE t AS inserted SET v = 7 WHERE id = 1 RETURNING inserted.v;\n\
             SELECT string_agg(id || ':' || v, ',' ORDER BY id) FROM t;";
    let sim = pg(FOUR, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["42P01", "42P01", "42P01"]);
    assert_eq!(
        messages(&sim, "A")[0],
        "missing FROM-clause entry for table \"inserted\""
    );
    assert_eq!(
        messages(&sim, "A")[1],
        "missing FROM-clause entry for table \"deleted\""
    );
    assert_eq!(texts(&sim, "A"), ["7", "1:7,2:0,3:0,4:0"]);
}

/// Real server (checked): a locking or updating scan meets a row where the version its
/// statement sees sits, not where another transaction's uncommitted update put the new
/// one, waits there, and after the commit takes that row: `LIMIT 1 FOR UPDATE` after A's
/// uncommitted update of row 1 waits for A and returns 1; a whole-table UPDATE waits at
/// row 2 without locking rows past it, so A's later update of row 4 passes.
#[test]
fn a_locking_scan_waits_where_its_snapshot_sees_the_row() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, st text);
INSERT INTO job VALUES (1, 'new'), (2, 'new'), (3, 'new'), (4, 'new');";
    let a = "BEGIN;\nUPDATE job SET st = 'new' WHERE id = 1;\nSELECT pg_sleep(1);\nCOMMIT;";
    let b = "SELECT id FROM job WHERE st = 'new' LIMIT 1 FOR UPDATE;";
    let sim = pg(setup, &[("A", 0, a), ("B", 200, b)]);
    assert!(wait_ms(&sim, "B") >= 700, "{}", wait_ms(&sim, "B"));
    assert_eq!(results(&sim, "B"), [ids(&[1])]);

    let a = "BEGIN;\nUPDATE t SET v = 1 WHERE id = 2;\nSELECT pg_sleep(1);\n\
             UPDATE t SET v = v + 1 WHERE id = 4;\nCOMMIT;";
    let b = "UPDATE t SET v = v + 10;";
    let mut sim = pg(FOUR, &[("A", 0, a), ("B", 200, b)]);
    assert!(sqlstates(&sim, "A").is_empty() && sqlstates(&sim, "B").is_empty());
    assert_eq!(
        final_rows(&mut sim, "SELECT v FROM t ORDER BY id"),
        ids(&[10, 11, 10, 11])
    );
}
