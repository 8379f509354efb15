//! PostgreSQL's foreign keys: a referencing row's check and the FOR KEY SHARE lock it
//! takes on the referenced row, what deleting or re-keying a referenced row does, and
//! the errors. Each test says what a real PostgreSQL 15 did with the same scripts.

use engine::Value;

use super::postgres::{messages, pg, pg_trace, results, sqlstates, wait_ms};

const TABLES: &str = "CREATE TABLE parent (id int PRIMARY KEY, note text);
CREATE TABLE child (id int PRIMARY KEY, pid int REFERENCES parent);
INSERT INTO parent VALUES (1, 'a'), (2, 'b');";

fn int_rows(rows: &[&[Option<i64>]]) -> Vec<Vec<Value>> {
    (rows.iter())
        .map(|r| {
            r.iter()
                .map(|v| v.map_or(Value::Null, Value::Int))
                .collect()
        })
        .collect()
}

/// Real server: a row must reference an existing row (a NULL references none), and a
/// referenced row can neither be deleted nor change its key, with 23503 and psql's
/// DETAIL; changing the referencing column checks it again.
#[test]
fn a_reference_must_find_its_row_and_a_referenced_row_stays() {
    let a = "INSERT INTO child VALUES (1, 1);\nINSERT INTO child VALUES (2, 5);\n\
             INSERT INTO child VALUES (3, NULL);\nDELETE FROM parent WHERE id = 1;\n\
             UPDATE parent SET id = 3 WHERE id = 1;\nUPDATE parent SET note = 'x' WHERE id = 1;\n\
             UPDATE child SET pid = 9 WHERE id = 1;\nUPDATE child SET pid = 2 WHERE id = 1;\n\
             DELETE FROM parent WHERE id = 1;\nSELECT id, pid FROM child ORDER BY id;";
    let sim = pg(TABLES, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["23503", "23503", "23503", "23503"]);
    let m = messages(&sim, "A");
    assert_eq!(
        m[0],
        "insert or update on table \"child\" violates foreign key constraint \"child_pid_fkey\" \
         (DETAIL: Key (pid)=(5) is not present in table \"parent\".)"
    );
    assert_eq!(
        m[1],
        "update or delete on table \"parent\" violates foreign key constraint \"child_pid_fkey\" \
         on table \"child\" (DETAIL: Key (id)=(1) is still referenced from table \"child\".)"
    );
    assert_eq!(m[1], m[2]);
    assert!(m[3].contains("Key (pid)=(9) is not present"), "{}", m[3]);
    assert_eq!(
        results(&sim, "A")[0],
        int_rows(&[&[Some(1), Some(2)], &[Some(3), None]])
    );
}

/// Real server: the check locks the referenced row FOR KEY SHARE. An UPDATE that keeps
/// the key (FOR NO KEY UPDATE) passes it; DELETE (FOR UPDATE) waits for the inserting
/// transaction and, once it commits, finds the new row referencing the key: 23503.
#[test]
fn a_reference_holds_its_row_until_commit() {
    let a = "BEGIN;\nINSERT INTO child VALUES (1, 1);\nSELECT pg_sleep(1);\nCOMMIT;";
    let b = "UPDATE parent SET note = 'y' WHERE id = 1;\nDELETE FROM parent WHERE id = 1;\n\
             DELETE FROM parent WHERE id = 2;";
    let sim = pg(TABLES, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "B"), ["23503"]);
    let waited = wait_ms(&sim, "B");
    assert!((850..1000).contains(&waited), "{waited}");
}

/// Real server: a check waits for a transaction that deleted the row it needs; the
/// commit makes it fail, a rollback lets it through. A row inserted by a transaction
/// that has not committed is not there for it (no wait: 23503 at once). FOR UPDATE on
/// the referenced row blocks a check, FOR NO KEY UPDATE does not.
#[test]
fn a_check_waits_for_a_delete_and_sees_only_committed_rows() {
    for (holder, ends, failed, waits) in [
        ("DELETE FROM parent WHERE id = 1", "COMMIT", true, true),
        ("DELETE FROM parent WHERE id = 1", "ROLLBACK", false, true),
        (
            "SELECT id FROM parent WHERE id = 1 FOR UPDATE",
            "COMMIT",
            false,
            true,
        ),
        (
            "SELECT id FROM parent WHERE id = 1 FOR NO KEY UPDATE",
            "COMMIT",
            false,
            false,
        ),
        ("INSERT INTO parent VALUES (3, 'c')", "COMMIT", true, false),
    ] {
        let a = format!("BEGIN;\n{holder};\nSELECT pg_sleep(1);\n{ends};");
        let pid = if holder.starts_with("INSERT") { 3 } else { 1 };
        let b = format!("INSERT INTO child VALUES (1, {pid});");
        let sim = pg(TABLES, &[("A", 0, &a), ("B", 100, &b)]);
        let expected: &[&str] = if failed { &["23503"] } else { &[] };
        assert_eq!(sqlstates(&sim, "B"), expected, "{holder}; {ends}");
        let waited = wait_ms(&sim, "B");
        assert_eq!(
            (850..1000).contains(&waited),
            waits,
            "{holder}: {waited} ms"
        );
    }
}

/// Real server: ON DELETE CASCADE deletes the referencing rows (waiting for a row
/// another transaction holds, then deleting it as it is now), SET NULL and SET DEFAULT
/// write them, ON UPDATE CASCADE carries a new key; a key of several columns with a
/// NULL references nothing; a table may reference itself.
#[test]
fn actions_follow_a_deleted_or_rekeyed_row() {
    let setup = "CREATE TABLE parent (a int, b int, note text, PRIMARY KEY (a, b));
CREATE TABLE child (id int PRIMARY KEY, pa int, pb int DEFAULT 7,
    FOREIGN KEY (pa, pb) REFERENCES parent ON DELETE SET DEFAULT);
CREATE TABLE other (id int PRIMARY KEY, pa int, pb int,
    CONSTRAINT other_p FOREIGN KEY (pa, pb) REFERENCES parent (a, b) ON DELETE SET NULL ON UPDATE CASCADE);
CREATE TABLE gone (id int PRIMARY KEY, pa int, pb int,
    FOREIGN KEY (pa, pb) REFERENCES parent ON DELETE CASCADE);
CREATE TABLE tree (id int PRIMARY KEY, up int REFERENCES tree (id) ON DELETE CASCADE);
INSERT INTO parent VALUES (1, 1, 'x'), (1, 7, 'y'), (2, 2, 'z');
INSERT INTO child VALUES (1, 1, 1), (2, NULL, 5);
INSERT INTO other VALUES (1, 2, 2), (2, 1, 1);
INSERT INTO gone VALUES (1, 1, 1), (3, 1, 1);
INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 1), (5, 5);";
    let a = "BEGIN;\nUPDATE gone SET id = 10 WHERE id = 3;\nSELECT pg_sleep(1);\nCOMMIT;";
    let b = "DELETE FROM parent WHERE a = 1 AND b = 1;\nUPDATE parent SET a = 3 WHERE a = 2;\n\
             DELETE FROM tree WHERE id = 2;\n\
             SELECT id, pa, pb FROM child ORDER BY id;\nSELECT id, pa, pb FROM other ORDER BY id;\n\
             SELECT id, pa, pb FROM gone ORDER BY id;\nSELECT id FROM tree ORDER BY id;";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "B"), Vec::<&str>::new());
    let r = results(&sim, "B");
    assert_eq!(
        r[0],
        int_rows(&[&[Some(1), None, Some(7)], &[Some(2), None, Some(5)]])
    );
    assert_eq!(
        r[1],
        int_rows(&[&[Some(1), Some(3), Some(2)], &[Some(2), None, None]])
    );
    assert_eq!(r[2], int_rows(&[]));
    assert_eq!(r[3], int_rows(&[&[Some(1)], &[Some(4)], &[Some(5)]]));
    let waited = wait_ms(&sim, "B");
    assert!((850..1000).contains(&waited), "{waited}");
}

/// Real server: under REPEATABLE READ the check locks the row its snapshot sees, so a
/// referenced row deleted since is a serialization failure (LockRows' words: "update");
/// deleting a referenced row looks for references committed since the snapshot too.
#[test]
fn repeatable_read_checks_against_the_newest_rows() {
    let a = "BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM parent;\n\
             SELECT pg_sleep(1);\nINSERT INTO child VALUES (1, 1);\nROLLBACK;\n\
             BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM parent;\n\
             SELECT pg_sleep(1);\nDELETE FROM parent WHERE id = 2;\nROLLBACK;";
    let b =
        "DELETE FROM parent WHERE id = 1;\nSELECT pg_sleep(1.5);\nINSERT INTO child VALUES (2, 2);";
    let sim = pg(TABLES, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "A"), ["40001", "23503"]);
    assert_eq!(
        messages(&sim, "A")[0],
        "could not serialize access due to concurrent update"
    );
}

/// Real server: the referenced columns must be a primary key or unique (42830), the
/// table must exist (42P01); a referenced table cannot be dropped (2BP01) or
/// truncated (0A000).
#[test]
fn declaring_and_dropping_referenced_tables() {
    let a = "CREATE TABLE c1 (id int PRIMARY KEY, n text REFERENCES parent (note));\n\
             CREATE TABLE c2 (id int PRIMARY KEY, n int REFERENCES nope (id));\n\
             DROP TABLE parent;";
    let sim = pg(TABLES, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["42830", "42P01", "2BP01"]);
    assert_eq!(
        messages(&sim, "A")[2],
        "cannot drop table parent because other objects depend on it \
         (DETAIL: constraint child_pid_fkey on table child depends on table parent)"
    );
}

/// Real server: two transactions each insert a row referencing the same parent (both
/// hold FOR KEY SHARE on it), then each locks the parent FOR UPDATE: each waits for
/// the other, and the deadlock check (after deadlock_timeout, 1 s) cancels one, 40P01.
/// The same two with UPDATEs that keep the key do not deadlock: FOR NO KEY UPDATE
/// passes FOR KEY SHARE, and the second update only waits for the first.
#[test]
fn key_share_locks_deadlock_only_with_for_update() {
    let setup = "CREATE TABLE parent (id int PRIMARY KEY, n int);
CREATE TABLE child (id int PRIMARY KEY, pid int REFERENCES parent);
INSERT INTO parent VALUES (1, 0);";
    let a = "BEGIN;\nINSERT INTO child VALUES (1, 1);\nSELECT pg_sleep(0.2);\n\
             SELECT id FROM parent WHERE id = 1 FOR UPDATE;\nCOMMIT;";
    let b = "BEGIN;\nINSERT INTO child VALUES (2, 1);\nSELECT pg_sleep(0.2);\n\
             SELECT id FROM parent WHERE id = 1 FOR UPDATE;\nCOMMIT;";
    let sim = pg(setup, &[("A", 0, a), ("B", 50, b)]);
    let mut states = sqlstates(&sim, "A");
    states.extend(sqlstates(&sim, "B"));
    assert_eq!(states, ["40P01"]);
    let a = "BEGIN;\nINSERT INTO child VALUES (1, 1);\nSELECT pg_sleep(0.2);\n\
             UPDATE parent SET n = n + 1 WHERE id = 1;\nSELECT pg_sleep(0.5);\nCOMMIT;";
    let b = "BEGIN;\nINSERT INTO child VALUES (2, 1);\nSELECT pg_sleep(0.2);\n\
             UPDATE parent SET n = n + 1 WHERE id = 1;\nCOMMIT;";
    let sim = pg(setup, &[("A", 0, a), ("B", 50, b)]);
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    assert_eq!(sqlstates(&sim, "B"), Vec::<&str>::new());
    let waited = wait_ms(&sim, "B");
    assert!((400..700).contains(&waited), "{waited}");
}

/// Real server: a key's action reads the referencing rows as of now, also after its
/// statement waited: a DELETE that waited for the transaction inserting a run cascades
/// to that run once it commits, and SET NULL nulls it (the statement's own snapshot,
/// from before the wait, does not have the run). Under REPEATABLE READ a referencing
/// row the snapshot does not see fails the cascade with 40001.
#[test]
fn an_action_reaches_rows_committed_while_it_waited() {
    for (action, left) in [("CASCADE", "0"), ("SET NULL", "1 NULL")] {
        let setup = format!(
            "CREATE TABLE parent (id int PRIMARY KEY, note text);
CREATE TABLE child (id int PRIMARY KEY, pid int REFERENCES parent ON DELETE {action});
INSERT INTO parent VALUES (1, 'a'), (2, 'b');"
        );
        let a = "BEGIN;\nINSERT INTO child VALUES (6, 2);\nSELECT pg_sleep(1);\nCOMMIT;";
        let b = "DELETE FROM parent WHERE id = 2;\n\
                 SELECT count(*), string_agg(coalesce(pid::text, 'NULL'), ',') FROM child;";
        let sim = pg(&setup, &[("A", 0, a), ("B", 100, b)]);
        assert_eq!(sqlstates(&sim, "B"), Vec::<&str>::new(), "{action}");
        let r = &results(&sim, "B")[0][0];
        let got = match (&r[0], &r[1]) {
            (Value::Int(0), _) => "0".to_string(),
            (Value::Int(n), Value::Text(t)) => format!("{n} {t}"),
            other => panic!("{other:?}"),
        };
        assert_eq!(got, left, "{action}");
        let waited = wait_ms(&sim, "B");
        assert!((850..1000).contains(&waited), "{action}: {waited}");
    }
    let setup = "CREATE TABLE parent (id int PRIMARY KEY, note text);
CREATE TABLE child (id int PRIMARY KEY, pid int REFERENCES parent ON DELETE CASCADE);
INSERT INTO parent VALUES (1, 'a'), (2, 'b');";
    let a = "BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM child;\n\
             SELECT pg_sleep(1);\nDELETE FROM parent WHERE id = 2;\nROLLBACK;";
    let b = "INSERT INTO child VALUES (2, 2);";
    let sim = pg(setup, &[("A", 0, a), ("B", 100, b)]);
    assert_eq!(sqlstates(&sim, "A"), ["40001"]);
}

/// Real server: SET DEFAULT that writes the deleted key itself leaves the row
/// referencing it, which NO ACTION's check then refuses (23503); an upsert that
/// changes a referenced key does its key's action (23503 under NO ACTION, CASCADE
/// carries the new key).
#[test]
fn set_default_and_upserts_keep_references() {
    let setup = "CREATE TABLE parent (id int PRIMARY KEY, note text);
CREATE TABLE child (id int PRIMARY KEY, pid int DEFAULT 0 REFERENCES parent ON DELETE SET DEFAULT);
CREATE TABLE child2 (id int PRIMARY KEY, pid int REFERENCES parent ON UPDATE CASCADE);
INSERT INTO parent VALUES (0, 'zero'), (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO child VALUES (1, 1);
INSERT INTO child2 VALUES (1, 2);";
    let a = "DELETE FROM parent WHERE id = 1;\nDELETE FROM parent WHERE id = 0;\n\
             INSERT INTO parent VALUES (0, 'x') ON CONFLICT (id) DO UPDATE SET id = 10;\n\
             INSERT INTO parent VALUES (2, 'x') ON CONFLICT (id) DO UPDATE SET id = 20;\n\
             SELECT id, pid FROM child UNION ALL SELECT id + 100, pid FROM child2 ORDER BY 1;";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["23503", "23503"]);
    let m = messages(&sim, "A");
    assert!(
        m.iter()
            .all(|m| m.contains("Key (id)=(0) is still referenced")),
        "{m:?}"
    );
    let r = &results(&sim, "A")[0];
    assert_eq!(r, &int_rows(&[&[Some(1), Some(0)], &[Some(101), Some(20)]]));
}

/// Real server: a statement whose WITH changes data keeps its foreign keys at its very
/// end: a WITH that deletes a job and one that deletes its runs may come in either
/// order, a parent
/// inserted in the WITH may take its child in the statement (and the other way round),
/// and a key deleted and inserted again stays referenced.
#[test]
fn a_statement_with_a_data_modifying_with_keeps_keys_at_its_end() {
    let a = "WITH e AS (DELETE FROM parent WHERE id = 2 RETURNING id), d AS (DELETE FROM child WHERE pid = 2 RETURNING pid) \
             SELECT (SELECT count(*) FROM d) + (SELECT count(*) FROM e);\n\
             WITH i AS (INSERT INTO parent VALUES (5, 'e') RETURNING id) INSERT INTO child SELECT 50, id FROM i;\n\
             WITH i AS (INSERT INTO child VALUES (60, 6) RETURNING pid) INSERT INTO parent SELECT pid, 'f' FROM i;\n\
             WITH d AS (DELETE FROM parent WHERE id = 5 RETURNING id) INSERT INTO parent SELECT id, 'again' FROM d;\n\
             SELECT id FROM parent ORDER BY id;";
    let setup = format!("{TABLES}\nINSERT INTO child VALUES (1, 1), (2, 2);");
    let sim = pg(&setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), Vec::<&str>::new());
    let r = results(&sim, "A");
    assert_eq!(r[0], vec![vec![Value::Int(2)]]);
    assert_eq!(
        r.last().unwrap(),
        &int_rows(&[&[Some(1)], &[Some(5)], &[Some(6)]])
    );
}

/// Real server: `EXCEPTION WHEN foreign_key_violation` catches 23503; a table without
/// a primary key cannot be referenced without columns (42704); DROP TABLE names every
/// constraint that depends on the table.
#[test]
fn a_handler_catches_a_foreign_key_violation() {
    let a = "DO $$ BEGIN INSERT INTO child VALUES (1, 9); \
             EXCEPTION WHEN foreign_key_violation THEN RAISE NOTICE 'caught %', SQLSTATE; END $$;\n\
             CREATE TABLE p0 (id int);\nCREATE TABLE c0 (id int REFERENCES p0);\n\
             CREATE TABLE child2 (id int PRIMARY KEY, pid int REFERENCES parent);\nDROP TABLE parent;";
    let sim = pg(TABLES, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["23503", "42704", "2BP01"]);
    let m = messages(&sim, "A");
    assert_eq!(m[1], "there is no primary key for referenced table \"p0\"");
    assert!(
        m[2].ends_with(
            "(DETAIL: constraint child_pid_fkey on table child depends on table parent; \
             constraint child2_pid_fkey on table child2 depends on table parent)"
        ),
        "{}",
        m[2]
    );
}

/// Real server: a referencing column must convert implicitly to the referenced
/// column's type: bigint to integer, text to varchar, date to timestamptz and integer
/// to numeric pass; text or numeric to integer and integer to varchar are 42804.
#[test]
fn a_key_needs_comparable_types() {
    let setup = "CREATE TABLE p (id int PRIMARY KEY, code varchar(10) UNIQUE, at timestamptz UNIQUE, n numeric UNIQUE);";
    let a = "CREATE TABLE c1 (id int PRIMARY KEY, pid text REFERENCES p);\n\
             CREATE TABLE c2 (id int PRIMARY KEY, pid numeric REFERENCES p);\n\
             CREATE TABLE c3 (id int PRIMARY KEY, c int REFERENCES p (code));\n\
             CREATE TABLE c4 (id int PRIMARY KEY, pid bigint REFERENCES p, c text REFERENCES p (code), \
             t date REFERENCES p (at), x int REFERENCES p (n));";
    let sim = pg(setup, &[("A", 0, a)]);
    assert_eq!(sqlstates(&sim, "A"), ["42804", "42804", "42804"]);
    assert_eq!(
        messages(&sim, "A")[0],
        "foreign key constraint \"c1_pid_fkey\" cannot be implemented (DETAIL: Key columns \
         \"pid\" and \"id\" are of incompatible types: text and integer.)"
    );
}

/// Real server (checked): an UPDATE that keeps the key, by a transaction that had locked
/// the row FOR UPDATE (in a savepoint or not, once or twice), counts as a key update: a
/// REPEATABLE READ transaction whose snapshot predates it fails its KEY SHARE lock, the
/// foreign key's check included, with 40001. After FOR SHARE or FOR NO KEY UPDATE the
/// same UPDATE passes, and under READ COMMITTED the check waits, then passes.
#[test]
fn an_update_after_for_update_counts_as_a_key_update() {
    let reader = |lock: &str| {
        format!(
            "BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM parent;\n\
             SELECT pg_sleep(1);\n{lock}\nCOMMIT;"
        )
    };
    let key_share = "SELECT id FROM parent WHERE id = 2 FOR KEY SHARE;";
    let writer = |first: &str, then: &str| {
        format!("BEGIN;\nSELECT id FROM parent WHERE id = 2 {first};\n{then}COMMIT;")
    };
    let update = "UPDATE parent SET note = 'x' WHERE id = 2;\n";
    for (first, then, fails) in [
        ("FOR UPDATE", update.to_string(), true),
        ("FOR UPDATE", format!("SAVEPOINT s;\n{update}"), true),
        ("FOR UPDATE", format!("{update}{update}"), true),
        ("FOR SHARE", update.to_string(), false),
        ("FOR NO KEY UPDATE", update.to_string(), false),
    ] {
        for lock in [key_share, "INSERT INTO child VALUES (5, 2);"] {
            let sim = pg(
                TABLES,
                &[("A", 0, &reader(lock)), ("B", 200, &writer(first, &then))],
            );
            let want: &[&str] = if fails { &["40001"] } else { &[] };
            assert_eq!(sqlstates(&sim, "A"), want, "{first} then {then:?}, {lock}");
        }
    }
    let rc = "INSERT INTO child VALUES (5, 2);\nSELECT count(*) FROM child;";
    let holder = writer("FOR UPDATE", &format!("{update}SELECT pg_sleep(1);\n"));
    let sim = pg(TABLES, &[("B", 0, &holder), ("A", 200, rc)]);
    assert!(sqlstates(&sim, "A").is_empty());
    assert!(wait_ms(&sim, "A") >= 700, "{}", wait_ms(&sim, "A"));
    assert_eq!(results(&sim, "A")[0], int_rows(&[&[Some(1)]]));
}

/// Real server (checked): a transaction's lock on a row is the strongest clause it
/// asked for, not a stronger one: after FOR SHARE and an UPDATE that keeps the key (or
/// FOR NO KEY UPDATE, then FOR SHARE) another transaction's KEY SHARE passes at once and
/// its FOR SHARE NOWAIT fails with 55P03.
#[test]
fn a_rows_lock_is_the_strongest_clause_asked_for() {
    for first in [
        "SELECT id FROM parent WHERE id = 2 FOR SHARE;\nUPDATE parent SET note = 'x' WHERE id = 2;",
        "SELECT id FROM parent WHERE id = 2 FOR NO KEY UPDATE;\nSELECT id FROM parent WHERE id = 2 FOR SHARE;",
    ] {
        let b = format!("BEGIN;\n{first}\nSELECT pg_sleep(1);\nCOMMIT;");
        let a = "SELECT id FROM parent WHERE id = 2 FOR KEY SHARE;\n\
                 SELECT id FROM parent WHERE id = 2 FOR SHARE NOWAIT;";
        let sim = pg(TABLES, &[("B", 0, &b), ("A", 200, a)]);
        assert_eq!(wait_ms(&sim, "A"), 0, "{first}");
        assert_eq!(sqlstates(&sim, "A"), ["55P03"], "{first}");
    }
}

/// Each check and action is a line of the trace, before the lock it takes: a
/// referencing row's check names the row that must exist; an action says what it does
/// to the rows that reference the key.
#[test]
fn the_trace_shows_each_check_and_action() {
    let setup = "CREATE TABLE parent (id int PRIMARY KEY);
CREATE TABLE child (id int PRIMARY KEY, pid int REFERENCES parent ON DELETE CASCADE ON UPDATE SET NULL);
CREATE TABLE log (id int PRIMARY KEY, pid int REFERENCES parent);
INSERT INTO parent VALUES (1), (2), (3);";
    let a = "INSERT INTO child VALUES (1, 1);\nDELETE FROM parent WHERE id = 1;\n\
             INSERT INTO child VALUES (2, 2);\nUPDATE parent SET id = 20 WHERE id = 2;\n\
             DELETE FROM parent WHERE id = 3;";
    let sc = super::support::scenario_in(engine::Dialect::Postgres, setup, &[("A", 0, a)]);
    let mut sim = engine::Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let lines: Vec<String> = (trace.entries.iter())
        .map(|e| e.event.to_string())
        .filter(|l| l.contains("foreign key"))
        .collect();
    assert_eq!(
        lines,
        [
            "A checks foreign key child_pid_fkey: parent (1) must exist",
            "A checks foreign key child_pid_fkey (ON DELETE CASCADE): rows of child that reference parent (1) are deleted too",
            "A checks foreign key log_pid_fkey (ON DELETE NO ACTION): rows of log that reference parent (1) must not remain",
            "A checks foreign key child_pid_fkey: parent (2) must exist",
            "A checks foreign key child_pid_fkey (ON UPDATE SET NULL): rows of child that reference parent (2) are set to NULL",
            "A checks foreign key log_pid_fkey (ON UPDATE NO ACTION): rows of log that reference parent (2) must not remain",
            "A checks foreign key child_pid_fkey (ON DELETE CASCADE): rows of child that reference parent (3) are deleted too",
            "A checks foreign key log_pid_fkey (ON DELETE NO ACTION): rows of log that reference parent (3) must not remain",
        ]
    );
    let lock = (trace.entries.iter())
        .position(|e| e.event.to_string() == "A gets FOR KEY SHARE on TUPLE parent (1)");
    let check = (trace.entries.iter()).position(|e| {
        e.event
            .to_string()
            .starts_with("A checks foreign key child_pid_fkey: parent (1)")
    });
    assert!(check < lock && lock.is_some(), "{check:?} {lock:?}");
}

/// Real server: an UPDATE that changes the key decides its tuple lock (FOR UPDATE) from
/// the new row before it locks, so with a FOR KEY SHARE held it only waits for FOR
/// UPDATE, never holding FOR NO KEY UPDATE first; one that writes the same key back
/// keeps FOR NO KEY UPDATE and passes.
#[test]
fn a_key_changing_update_asks_for_for_update_at_once() {
    let a = "BEGIN;\nINSERT INTO child VALUES (1, 1);\nSELECT pg_sleep(1);\nCOMMIT;";
    let lines = |b: &str| {
        pg_trace(
            TABLES,
            &[("A", 0, a), ("B", 100, b)],
            &["B gets", "B waits"],
        )
    };
    let rekey = lines("UPDATE parent SET id = id + 2 WHERE id = 1;");
    assert!(
        rekey[0].starts_with("B waits for FOR UPDATE on TUPLE parent (1): A holds FOR KEY SHARE"),
        "{rekey:#?}"
    );
    assert!(
        !rekey.iter().any(|l| l.contains("FOR NO KEY UPDATE")),
        "{rekey:#?}"
    );
    let same = lines("UPDATE parent SET id = id WHERE id = 1;");
    assert!(
        same.iter()
            .any(|l| l.starts_with("B gets FOR NO KEY UPDATE on TUPLE parent (1)")),
        "{same:#?}"
    );
    assert!(!same.iter().any(|l| l.starts_with("B waits")), "{same:#?}");
}
