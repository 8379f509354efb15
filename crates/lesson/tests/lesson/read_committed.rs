//! Locking READ COMMITTED in SQL Server: a shared row lock lasts while its row is read,
//! so a statement that waits holds none of the rows it has read, and when it goes on it
//! does not read them again.

use engine::{Dialect, Scenario, Simulation};

use super::support::{run_traced, waited_ms};

const FIVE_ROWS: &str = "CREATE TABLE dbo.t (id int PRIMARY KEY, v int NOT NULL);\n\
                         INSERT dbo.t VALUES (1, 10), (2, 20), (3, 30), (5, 50), (7, 70);";

fn scenario(sessions: &[(&str, u64, &str)]) -> Scenario {
    super::support::scenario_in(Dialect::TSql, FIVE_ROWS, sessions)
}

/// B's scan waits for row 5, which A changed. Meanwhile A changes row 2, which B read
/// before it waited: B holds no lock on it, so A does not wait and there is no
/// deadlock (the simulation used to keep B's S lock on row 2: a deadlock, B the
/// victim). B then goes on from row 5: row 2 as it read it (20), row 5 as A committed
/// it (51), 181 in all.
#[test]
fn a_waiting_read_holds_no_row_it_has_read_and_does_not_read_it_again() {
    let a = "BEGIN TRAN;\nUPDATE dbo.t SET v = 51 WHERE id = 5;\nWAITFOR DELAY '00:00:00.500';\n\
             UPDATE dbo.t SET v = 21 WHERE id = 2;\nCOMMIT;";
    let b = "SELECT SUM(v) AS s FROM dbo.t;";
    let (sim, text) = run_traced(&scenario(&[("A", 0, a), ("B", 100_000, b)]));
    assert!(!text.contains("deadlock"), "{text}");
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
    assert!((399..=401).contains(&waited_ms(&sim, "B")), "{text}");
    assert!(super::support::errors_of(&sim, "B").is_empty(), "{text}");
    let s = super::support::session_of(&sim, "B");
    assert_eq!(
        s.results[0].rows,
        vec![vec![engine::Value::Int(181)]],
        "{text}"
    );
}

/// A waits for 1 s holding row 5; B, 100 ms later, runs `b` (waiting for A) and then
/// sleeps 2 s in its transaction; C, at 1.5 s, updates row `c_row`.
fn third_after(b: &str, c_row: i64) -> (Simulation, String) {
    let a =
        "BEGIN TRAN;\nUPDATE dbo.t SET v = 51 WHERE id = 5;\nWAITFOR DELAY '00:00:01';\nCOMMIT;";
    let b = format!("BEGIN TRAN;\n{b};\nWAITFOR DELAY '00:00:02';\nCOMMIT;");
    let c = format!("UPDATE dbo.t SET v = 1 WHERE id = {c_row};");
    run_traced(&scenario(&[
        ("A", 0, a),
        ("B", 100_000, &b),
        ("C", 1_500_000, &c),
    ]))
}

/// After its wait, a READ COMMITTED read in a transaction holds no shared lock: a
/// third session updates a row it read at once (the simulation used to hold S on rows
/// 2, 3 and 5 until B committed, so C waited 1.5 s).
#[test]
fn a_read_that_waited_keeps_no_shared_lock_after_it() {
    let (sim, text) = third_after("SELECT id FROM dbo.t WHERE v > 15", 2);
    assert!((899..=901).contains(&waited_ms(&sim, "B")), "{text}");
    assert_eq!(waited_ms(&sim, "C"), 0, "{text}");
    assert!(!text.contains("B releases S"), "{text}");
}

/// An UPDATE that waited for a row and finds it no longer qualifies holds no lock on it
/// afterwards: the lock the wait granted is one reference, released as the row is
/// dropped, and a third session updates the row at once.
#[test]
fn an_update_that_waited_for_a_row_it_then_skips_keeps_no_lock_on_it() {
    let (sim, text) = third_after("UPDATE dbo.t SET v = v + 1 WHERE v > 51", 5);
    assert!((899..=901).contains(&waited_ms(&sim, "B")), "{text}");
    assert_eq!(waited_ms(&sim, "C"), 0, "{text}");
}
