//! The PostgreSQL dialect: small two-session scripts, each asserting one rule of
//! semantics.md Part C and saying which behaviour of a real PostgreSQL 15 it mirrors.

use engine::{Dialect, Simulation, Value};

use super::support::{numbers, scenario_in};

/// Runs PostgreSQL scripts: `(session, start in ms, sql)`.
fn pg(setup: &str, sessions: &[(&str, u64, &str)]) -> Simulation {
    let sessions: Vec<(&str, u64, &str)> = sessions
        .iter()
        .map(|(n, ms, sql)| (*n, ms * 1000, *sql))
        .collect();
    let sc = scenario_in(Dialect::Postgres, setup, &sessions);
    let mut sim = Simulation::new(&sc, 1).unwrap_or_else(|e| panic!("{e:?}"));
    sim.run().unwrap();
    sim
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

fn wait_ms(sim: &Simulation, name: &str) -> u64 {
    let o = sim.outcome();
    o.sessions.iter().find(|s| s.name == name).unwrap().wait_us / 1000
}

/// Session `name`'s result sets, as rows of values.
fn results(sim: &Simulation, name: &str) -> Vec<Vec<Vec<Value>>> {
    let o = sim.outcome();
    let s = o.sessions.into_iter().find(|s| s.name == name).unwrap();
    s.results.into_iter().map(|r| r.rows).collect()
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

/// Real server: a plain `FOR UPDATE` claim waits for the holder, then re-checks task 1's
/// new version (EvalPlanQual), finds it no longer 'new' and returns task 2.
#[test]
fn for_update_waits_then_returns_the_next_row() {
    let claim = "BEGIN;
SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE;
COMMIT;";
    let sim = pg(TASKS, &[("A", 0, HOLDER), ("B", 500, claim)]);
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
    assert_eq!(numbers(&sim, "B").len(), 1);
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
