//! The T-SQL people write in queue code beyond the seeds' procedures: date functions,
//! NOWAIT, IIF/CHOOSE/CONCAT/STRING_AGG, UPDATE/DELETE with joins, APPLY, window
//! functions, temporary tables and MERGE. Scenarios are built in code.

use engine::{Dialect, Scenario, Simulation, Value};

use super::support::{errors, numbers, scenario_in, session_of};

fn scenario(setup: &str, sessions: &[(&str, u64, &str)]) -> Scenario {
    scenario_in(Dialect::TSql, setup, sessions)
}

fn run(sc: &Scenario) -> Simulation {
    let mut sim = Simulation::new(sc, 1).unwrap_or_else(|e| panic!("{e:?}"));
    sim.run().unwrap();
    sim
}

/// Runs one session `A` after `setup` to the end.
fn run_one(setup: &str, sql: &str) -> Simulation {
    run(&scenario(setup, &[("A", 0, sql)]))
}

/// Result set `k` of session `name`, each value as text (`NULL` for NULL).
fn texts(sim: &Simulation, name: &str, k: usize) -> Vec<Vec<String>> {
    let s = sim.outcome().sessions;
    let s = s.iter().find(|s| s.name == name).expect("the session");
    let set = s
        .results
        .get(k)
        .unwrap_or_else(|| panic!("{name} has no result {k}: {:?}", s.errors));
    set.rows
        .iter()
        .map(|r| r.iter().map(Value::to_string).collect())
        .collect()
}

/// One row of one session's result `k`, as text.
fn row(sim: &Simulation, name: &str, k: usize) -> Vec<String> {
    let rows = texts(sim, name, k);
    assert_eq!(rows.len(), 1, "{rows:?}");
    rows.into_iter().next().unwrap_or_default()
}

fn no_errors(sim: &Simulation, name: &str) {
    assert_eq!(errors(sim, name), Vec::new(), "{name}");
}

/// SQL Server 2022 (and PostgreSQL): `IS [NOT] DISTINCT FROM` compares with NULL equal to
/// NULL, so it is never unknown; a WHERE on it keeps the NULL rows `<>` drops.
#[test]
fn is_distinct_from_treats_nulls_as_equal() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY, owner varchar(10));\n\
         INSERT t VALUES (1, 'a'), (2, NULL), (3, 'b');",
        "SELECT COUNT(*) FROM t WHERE owner <> 'a';\n\
         SELECT COUNT(*) FROM t WHERE owner IS DISTINCT FROM 'a';\n\
         SELECT id FROM t WHERE owner IS NOT DISTINCT FROM NULL;\n\
         SELECT CASE WHEN NULL IS DISTINCT FROM NULL THEN 1 ELSE 0 END,\n\
                CASE WHEN 1 IS DISTINCT FROM NULL THEN 1 ELSE 0 END;",
    );
    no_errors(&sim, "A");
    assert_eq!(row(&sim, "A", 0), ["1"]);
    assert_eq!(row(&sim, "A", 1), ["2"]);
    assert_eq!(row(&sim, "A", 2), ["2"]);
    assert_eq!(row(&sim, "A", 3), ["0", "1"]);
}

/// SQL Server: an UPDATE's or DELETE's OUTPUT may name the FROM tables' columns beside
/// `inserted` and `deleted`.
#[test]
fn output_reads_the_from_tables() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY, owner varchar(10));\n\
         CREATE TABLE who (id int PRIMARY KEY, name varchar(10));\n\
         INSERT t VALUES (1, NULL), (2, NULL);\n\
         INSERT who VALUES (1, 'ann'), (2, 'bob');",
        "UPDATE t SET owner = w.name OUTPUT inserted.id, w.name, deleted.owner\n\
           FROM t JOIN who w ON w.id = t.id WHERE t.id = 2;\n\
         DELETE t OUTPUT deleted.id, w.name FROM t JOIN who w ON w.id = t.id WHERE t.id = 1;",
    );
    no_errors(&sim, "A");
    assert_eq!(row(&sim, "A", 0), ["2", "bob", "NULL"]);
    assert_eq!(row(&sim, "A", 1), ["1", "ann"]);
}

// ---------------------------------------------------------------------------------------
// Date functions

#[test]
fn date_functions_know_every_part_and_its_abbreviations() {
    let sim = run_one(
        "",
        "DECLARE @t datetime2 = '2026-01-31 09:08:07.123456';\n\
         SELECT DATEPART(yyyy, @t), DATEPART(qq, @t), DATEPART(m, @t), DATEPART(dy, @t), DATEPART(d, @t), DATEPART(wk, @t), DATEPART(dw, @t), DATEPART(hh, @t), DATEPART(mi, @t), DATEPART(ss, @t), DATEPART(ms, @t), DATEPART(mcs, @t), DATEPART(ns, @t);\n\
         SELECT DATENAME(month, @t), DATENAME(weekday, @t), DATENAME(year, @t);\n\
         SELECT DATEADD(month, 1, @t), DATEADD(yy, -1, @t), DATEADD(week, 1, @t), DATEADD(ms, 877, @t);\n\
         SELECT DATEDIFF(year, '2025-12-31', '2026-01-01'), DATEDIFF(quarter, '2025-12-31', '2026-01-01'), DATEDIFF(hour, '2026-01-01 09:59:59', '2026-01-01 10:00:00'), DATEDIFF(week, '2026-01-03', '2026-01-04'), DATEDIFF(microsecond, @t, DATEADD(second, 1, @t));",
    );
    no_errors(&sim, "A");
    assert_eq!(
        row(&sim, "A", 0),
        [
            "2026",
            "1",
            "1",
            "31",
            "31",
            "5",
            "7",
            "9",
            "8",
            "7",
            "123",
            "123456",
            "123456000"
        ]
    );
    assert_eq!(row(&sim, "A", 1), ["January", "Saturday", "2026"]);
    assert_eq!(
        row(&sim, "A", 2),
        [
            "2026-02-28 09:08:07.1234560",
            "2025-01-31 09:08:07.1234560",
            "2026-02-07 09:08:07.1234560",
            "2026-01-31 09:08:08.0004560"
        ]
    );
    assert_eq!(row(&sim, "A", 3), ["1", "1", "1", "1", "1000000"]);
}

/// Each type prints its own digits, as SQL Server shows it: a date no time, datetime 3
/// digits, datetime2(0) none, datetime2 (7) and SYSDATETIME seven, DATEADD its date's type.
#[test]
fn datetimes_print_as_their_type_does() {
    let sim = run_one(
        "CREATE TABLE d (a date, b time(3), c datetime, e datetime2(0), f datetime2);\n\
         INSERT d VALUES ('2026-01-05 10:11:12.345', '2026-01-05 10:11:12.345', '2026-01-05 10:11:12.345', '2026-01-05 10:11:12.345', '2026-01-05 10:11:12.5');",
        "SELECT a, b, c, e, f, DATEADD(day, 1, a), CAST('2026-01-05 10:00' AS date) FROM d;\n\
         SELECT SYSDATETIME(), GETDATE();",
    );
    no_errors(&sim, "A");
    assert_eq!(
        row(&sim, "A", 0),
        [
            "2026-01-05",
            "10:11:12.345",
            "2026-01-05 10:11:12.345",
            "2026-01-05 10:11:12",
            "2026-01-05 10:11:12.5000000",
            "2026-01-06",
            "2026-01-05"
        ]
    );
    let clock = row(&sim, "A", 1);
    assert_eq!(
        clock[0].len(),
        "2026-01-05 09:00:00.0000000".len(),
        "{clock:?}"
    );
    assert_eq!(clock[1].len(), "2026-01-05 09:00:00.000".len(), "{clock:?}");
}

#[test]
fn date_function_errors_are_sql_servers() {
    for (expr, number) in [
        ("DATEADD(fortnight, 1, SYSDATETIME())", 155),
        ("DATEDIFF(nanosecond, '2000-01-01', '2026-01-01')", 535),
        ("DATEADD(year, 9000, SYSDATETIME())", 517),
        ("DATEPART('day', SYSDATETIME())", 1023),
    ] {
        let sim = run_one("", &format!("SELECT {expr};"));
        assert_eq!(numbers(&sim, "A"), [number], "{expr}");
    }
}

/// The example: a session times its own wait for a lock.
#[test]
fn a_session_times_its_own_wait_with_datediff() {
    let sim = run(&scenario(
        "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT t VALUES (1, 0);",
        &[
            (
                "A",
                0,
                "BEGIN TRAN;\nUPDATE t SET v = 1 WHERE id = 1;\nWAITFOR DELAY '00:00:00.500';\nCOMMIT;",
            ),
            (
                "B",
                100_000,
                "DECLARE @t0 datetime2 = SYSDATETIME();\nUPDATE t SET v = 2 WHERE id = 1;\nSELECT DATEDIFF(millisecond, @t0, SYSDATETIME()) AS waited_ms;",
            ),
        ],
    ));
    no_errors(&sim, "B");
    let ms: i64 = row(&sim, "B", 0)[0].parse().unwrap();
    assert!((350..=500).contains(&ms), "B waited {ms} ms");
}

// ---------------------------------------------------------------------------------------
// NOWAIT and LOCK_TIMEOUT 0

/// `WITH (NOWAIT)` and `SET LOCK_TIMEOUT 0` fail a statement that meets a lock with 1222
/// at once, at the instant it asks, and the batch goes on.
#[test]
fn nowait_and_lock_timeout_0_fail_at_once_with_1222() {
    for (b_sql, waits_after) in [
        (
            "SELECT v FROM t WITH (UPDLOCK, NOWAIT) WHERE id = 1;\nSELECT 'next';\nSELECT v FROM t WHERE id = 1;",
            true,
        ),
        (
            "UPDATE t WITH (NOWAIT) SET v = 2 WHERE id = 1;\nSELECT 'next';\nSELECT v FROM t WHERE id = 1;",
            true,
        ),
        (
            "SET LOCK_TIMEOUT 0;\nSELECT v FROM t WHERE id = 1;\nSELECT 'next';\nSELECT @@LOCK_TIMEOUT;",
            false,
        ),
    ] {
        let sc = scenario(
            "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT t VALUES (1, 0), (2, 0);",
            &[
                (
                    "A",
                    0,
                    "BEGIN TRAN;\nUPDATE t SET v = 1 WHERE id = 1;\nWAITFOR DELAY '00:00:01';\nCOMMIT;",
                ),
                ("B", 100_000, b_sql),
            ],
        );
        let sim = run(&sc);
        let trace = Simulation::new(&sc, 1).unwrap().run_traced().unwrap();
        let errs = errors(&sim, "B");
        assert_eq!(errs.len(), 1, "{b_sql}: {errs:?}");
        assert_eq!(errs[0].0, 1222, "{b_sql}");
        assert_eq!(row(&sim, "B", 0), ["next"], "{b_sql}");
        let b = &sim.outcome().sessions[1];
        // The trace says which: a NOWAIT request does not wait; a timeout of 0 runs out.
        let gave_up = trace
            .entries
            .iter()
            .map(|e| e.event.to_string())
            .find(|l| l.starts_with("B does not wait") || l.starts_with("B stops waiting"))
            .unwrap_or_default();
        if waits_after {
            assert_eq!(gave_up, "B does not wait for KEY t (1) (NOWAIT)", "{b_sql}");
        } else {
            assert_eq!(gave_up, "B stops waiting for KEY t (1) after 0 ms (LOCK_TIMEOUT)", "{b_sql}");
        }
        if waits_after {
            // NOWAIT is the statement's: the next statement waits as usual.
            assert_eq!(row(&sim, "B", 1), ["1"], "{b_sql}");
            assert!(b.wait_us >= 800_000, "{b_sql}: waited {} µs", b.wait_us);
        } else {
            assert_eq!(row(&sim, "B", 1), ["0"], "{b_sql}");
            assert_eq!(b.wait_us, 0, "{b_sql}");
        }
    }
}

#[test]
fn insert_with_nowait_fails_at_once_on_a_locked_key() {
    let sim = run(&scenario(
        "CREATE TABLE t (id int PRIMARY KEY, v int);",
        &[
            (
                "A",
                0,
                "BEGIN TRAN;\nINSERT t VALUES (1, 1);\nWAITFOR DELAY '00:00:01';\nROLLBACK;",
            ),
            ("B", 100_000, "INSERT t WITH (NOWAIT) VALUES (1, 2);"),
        ],
    ));
    assert_eq!(numbers(&sim, "B"), [1222]);
    assert_eq!(sim.outcome().sessions[1].wait_us, 0);
}

// ---------------------------------------------------------------------------------------
// IIF, CHOOSE, CONCAT, COALESCE, STRING_AGG

#[test]
fn iif_choose_concat_and_coalesce() {
    let sim = run_one(
        "",
        "DECLARE @none int;\n\
         SELECT IIF(1 > 2, 'a', 'b'), IIF(1 = 1, 1, 1 / 0), CHOOSE(2, 'x', 'y', 'z'), CHOOSE(5, 'x', 'y'), CONCAT('a', NULL, 1, '-', 2.5), CONCAT_WS('-', 'a', NULL, 'b');\n\
         SELECT COALESCE(NULL, '5', 1) + 1, COALESCE(@none, 2.5), COALESCE(@none, '7'), COALESCE(NULL, NULL, 'z');\n\
         SELECT COALESCE('x', 1);\n\
         SELECT 'after';",
    );
    assert_eq!(row(&sim, "A", 0), ["b", "1", "y", "NULL", "a1-2.5", "a-b"]);
    // '7' meets the int variable's type: the result is the int 7.
    assert_eq!(row(&sim, "A", 1), ["6", "2.5", "7", "z"]);
    let errs = errors(&sim, "A");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, 245, "{errs:?}");
    assert_eq!(row(&sim, "A", 2), ["after"]);
}

#[test]
fn string_agg_joins_a_group_in_within_group_order() {
    let sim = run_one(
        "CREATE TABLE job (id int PRIMARY KEY, queue varchar(10), name varchar(10));\n\
         INSERT job VALUES (1, 'mail', 'a'), (2, 'mail', 'c'), (3, 'sms', 'b'), (4, 'mail', NULL), (5, 'mail', 'b');",
        "SELECT queue, STRING_AGG(name, ',') WITHIN GROUP (ORDER BY name DESC) AS names, STRING_AGG(id, '+') FROM job GROUP BY queue ORDER BY queue;\n\
         SELECT STRING_AGG(name, ',') FROM job WHERE id > 100;",
    );
    no_errors(&sim, "A");
    assert_eq!(
        texts(&sim, "A", 0),
        [["mail", "c,b,a", "1+2+4+5"], ["sms", "b", "3"]]
    );
    assert_eq!(row(&sim, "A", 1), ["NULL"]);
}

// ---------------------------------------------------------------------------------------
// UPDATE and DELETE with FROM and joins

const JOBS: &str =
    "CREATE TABLE job (id int PRIMARY KEY, status varchar(10) NOT NULL, owner varchar(10));\n\
    CREATE TABLE claim (job_id int PRIMARY KEY, worker varchar(10) NOT NULL);\n\
    INSERT job VALUES (1, 'new', NULL), (2, 'new', NULL), (3, 'new', NULL), (4, 'done', NULL);\n\
    INSERT claim VALUES (1, 'A'), (3, 'A'), (2, 'B'), (4, 'A');";

#[test]
fn update_and_delete_with_a_join_change_the_joined_rows() {
    let sim = run_one(
        JOBS,
        "UPDATE j SET status = 'taken', owner = c.worker FROM job AS j JOIN claim AS c ON c.job_id = j.id WHERE c.worker = 'A' AND j.status = 'new';\n\
         SELECT @@ROWCOUNT;\n\
         UPDATE job SET owner = 'nobody' FROM claim WHERE claim.job_id = job.id AND claim.worker = 'B';\n\
         DELETE j FROM job AS j INNER JOIN claim AS c ON c.job_id = j.id WHERE j.status = 'done';\n\
         DELETE FROM claim FROM claim c LEFT JOIN job j ON j.id = c.job_id WHERE j.id IS NULL;\n\
         SELECT id, status, owner FROM job ORDER BY id;\n\
         SELECT job_id FROM claim ORDER BY job_id;",
    );
    no_errors(&sim, "A");
    assert_eq!(row(&sim, "A", 0), ["2"]);
    assert_eq!(
        texts(&sim, "A", 1),
        [
            ["1", "taken", "A"],
            ["2", "new", "nobody"],
            ["3", "taken", "A"]
        ]
    );
    assert_eq!(texts(&sim, "A", 2), [["1"], ["2"], ["3"]]);
}

/// The target's rows are located with U locks and converted to X for the write; rows the
/// join leaves out lose their U lock, so another worker can take them at once.
#[test]
fn update_with_a_join_locks_target_rows_u_then_x() {
    let sc = scenario(
        JOBS,
        &[
            (
                "A",
                0,
                "BEGIN TRAN;\nUPDATE j SET status = 'taken' FROM job AS j JOIN claim AS c ON c.job_id = j.id WHERE c.worker = 'A' AND j.status = 'new';\nWAITFOR DELAY '00:00:01';\nCOMMIT;",
            ),
            (
                "B",
                100_000,
                "SELECT status FROM job WITH (UPDLOCK) WHERE id = 2;\nSELECT status FROM job WHERE id = 3;",
            ),
        ],
    );
    let mut sim = Simulation::new(&sc, 1).unwrap();
    let trace = sim.run_traced().unwrap();
    let text = trace.to_string();
    let a_row3: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" A gets ") && l.contains("KEY job (3)"))
        .collect();
    assert!(
        a_row3.len() >= 2 && a_row3[0].contains(" U") && a_row3[1].contains(" X"),
        "{a_row3:?}\n{text}"
    );
    no_errors(&sim, "B");
    assert_eq!(row(&sim, "B", 0), ["new"]);
    assert_eq!(row(&sim, "B", 1), ["taken"]);
    let b = &sim.outcome().sessions[1];
    // Row 2 was free at once; row 3 waited for A's commit.
    assert!((800_000..=1_000_000).contains(&b.wait_us), "{}", b.wait_us);
}

// ---------------------------------------------------------------------------------------
// CROSS APPLY and OUTER APPLY

#[test]
fn apply_reads_its_right_side_per_left_row_with_outer_references() {
    let sim = run_one(
        "CREATE TABLE queue (name varchar(10) PRIMARY KEY);\n\
         CREATE TABLE job (id int PRIMARY KEY, queue varchar(10), rank int);\n\
         INSERT queue VALUES ('mail'), ('sms'), ('push');\n\
         INSERT job VALUES (1, 'mail', 5), (2, 'mail', 9), (3, 'sms', 1), (4, 'mail', 7);",
        "SELECT q.name, top2.id FROM queue AS q CROSS APPLY (SELECT TOP (2) j.id FROM job AS j WHERE j.queue = q.name ORDER BY j.rank DESC) AS top2 ORDER BY q.name, top2.id;\n\
         SELECT q.name, n.c FROM queue q OUTER APPLY (SELECT COUNT(*) AS c FROM job WHERE job.queue = q.name AND job.rank > 4) n ORDER BY q.name;\n\
         SELECT q.name, x.id FROM queue q OUTER APPLY (SELECT id FROM job WHERE job.queue = q.name AND rank > 8) x ORDER BY q.name;\n\
         SELECT q.name, v.twice FROM queue q CROSS APPLY (VALUES (LEN(q.name) * 2)) AS v(twice) WHERE q.name = 'sms';\n\
         SELECT COUNT(*) FROM queue q CROSS APPLY (SELECT id FROM job WHERE job.queue = q.name AND 1 = 0) x;",
    );
    no_errors(&sim, "A");
    assert_eq!(
        texts(&sim, "A", 0),
        [["mail", "2"], ["mail", "4"], ["sms", "3"]]
    );
    assert_eq!(
        texts(&sim, "A", 1),
        [["mail", "3"], ["push", "0"], ["sms", "0"]]
    );
    assert_eq!(
        texts(&sim, "A", 2),
        [["mail", "2"], ["push", "NULL"], ["sms", "NULL"]]
    );
    assert_eq!(row(&sim, "A", 3), ["sms", "6"]);
    assert_eq!(row(&sim, "A", 4), ["0"]);
}

// ---------------------------------------------------------------------------------------
// Window functions

#[test]
fn ranking_functions_and_aggregates_over_partitions() {
    let sim = run_one(
        "CREATE TABLE job (id int PRIMARY KEY, queue varchar(10), rank int);\n\
         INSERT job VALUES (1, 'mail', 5), (2, 'mail', 9), (3, 'sms', 1), (4, 'mail', 5), (5, 'sms', 4), (6, 'mail', 2);",
        "SELECT id, ROW_NUMBER() OVER (PARTITION BY queue ORDER BY rank DESC, id) AS rn, RANK() OVER (PARTITION BY queue ORDER BY rank DESC) AS rk, DENSE_RANK() OVER (ORDER BY rank DESC) AS dr, COUNT(*) OVER (PARTITION BY queue) AS n, SUM(rank) OVER (PARTITION BY queue ORDER BY rank DESC) AS running FROM job ORDER BY id;\n\
         WITH ranked AS (SELECT id, queue, ROW_NUMBER() OVER (PARTITION BY queue ORDER BY rank DESC, id) AS rn FROM job) SELECT queue, id FROM ranked WHERE rn = 1 ORDER BY queue;\n\
         SELECT TOP (2) id FROM job ORDER BY ROW_NUMBER() OVER (ORDER BY rank, id DESC);\n\
         SELECT queue, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS place FROM job GROUP BY queue ORDER BY queue;\n\
         SELECT id FROM job WHERE ROW_NUMBER() OVER (ORDER BY id) = 1;\n\
         SELECT ROW_NUMBER() OVER (PARTITION BY queue) FROM job;",
    );
    assert_eq!(
        texts(&sim, "A", 0),
        [
            ["1", "2", "2", "2", "4", "19"],
            ["2", "1", "1", "1", "4", "9"],
            ["3", "2", "2", "5", "2", "5"],
            ["4", "3", "2", "2", "4", "19"],
            ["5", "1", "1", "3", "2", "4"],
            ["6", "4", "4", "4", "4", "21"],
        ]
    );
    assert_eq!(texts(&sim, "A", 1), [["mail", "2"], ["sms", "5"]]);
    assert_eq!(texts(&sim, "A", 2), [["3"], ["6"]]);
    assert_eq!(texts(&sim, "A", 3), [["mail", "4", "1"], ["sms", "2", "2"]]);
    assert_eq!(numbers(&sim, "A"), [4108, 4112]);
}

// ---------------------------------------------------------------------------------------
// Local temporary tables

#[test]
fn temp_tables_belong_to_their_session_and_end_with_it() {
    let sim = run(&scenario(
        "CREATE TABLE job (id int PRIMARY KEY, queue varchar(10), added datetime2);\n\
         INSERT job VALUES (1, 'mail', '2026-01-05 08:00:00'), (2, 'sms', '2026-01-05 08:30:00'), (3, 'mail', NULL);",
        &[
            (
                "A",
                0,
                "CREATE TABLE #mine (id int PRIMARY KEY, note varchar(10));\n\
                 INSERT #mine VALUES (1, 'a');\n\
                 SELECT id, queue, added, id * 1.5 AS half INTO #mail FROM job WHERE queue = 'mail';\n\
                 SELECT @@ROWCOUNT;\n\
                 WAITFOR DELAY '00:00:00.200';\n\
                 SELECT note FROM #mine;\n\
                 SELECT id, added, half FROM #mail ORDER BY id;\n\
                 IF OBJECT_ID('tempdb..#mail') IS NOT NULL DROP TABLE #mail;\n\
                 SELECT COUNT(*) FROM #mail;",
            ),
            (
                "B",
                100_000,
                "CREATE TABLE #mine (id int PRIMARY KEY, note varchar(10));\n\
                 INSERT #mine VALUES (1, 'b');\n\
                 SELECT note FROM #mine;\n\
                 SELECT COUNT(*) FROM #mail;",
            ),
            ("C", 500_000, "SELECT COUNT(*) FROM #mine;\nGO\nSELECT * INTO #mine FROM job;\nSELECT COUNT(*) FROM #mine;"),
        ],
    ));
    assert_eq!(row(&sim, "A", 0), ["2"]);
    assert_eq!(row(&sim, "A", 1), ["a"]);
    assert_eq!(
        texts(&sim, "A", 2),
        [
            ["1", "2026-01-05 08:00:00.0000000", "1.5"],
            ["3", "NULL", "4.5"]
        ]
    );
    // After DROP TABLE #mail.
    assert_eq!(numbers(&sim, "A"), [208]);
    assert_eq!(row(&sim, "B", 0), ["b"]);
    // B does not see A's #mail.
    assert_eq!(numbers(&sim, "B"), [208]);
    // A and B have ended: their #mine went with them; C's own is new.
    assert_eq!(numbers(&sim, "C"), [208]);
    assert_eq!(row(&sim, "C", 0), ["3"]);
}

// ---------------------------------------------------------------------------------------
// MERGE

const SENDS: &str =
    "CREATE TABLE send (id int PRIMARY KEY, body varchar(20) NOT NULL, tries int NOT NULL);\n\
    INSERT send VALUES (1, 'old', 1), (2, 'gone', 1);";

#[test]
fn merge_updates_deletes_and_inserts_by_its_clauses() {
    let sim = run_one(
        SENDS,
        "MERGE send AS t USING (VALUES (1, 'new'), (2, 'x'), (3, 'three')) AS s (id, body) ON t.id = s.id\n\
         WHEN MATCHED AND s.body = 'x' THEN DELETE\n\
         WHEN MATCHED THEN UPDATE SET body = s.body, tries = t.tries + 1\n\
         WHEN NOT MATCHED BY TARGET THEN INSERT (id, body, tries) VALUES (s.id, s.body, 0);\n\
         SELECT @@ROWCOUNT;\n\
         SELECT id, body, tries FROM send ORDER BY id;\n\
         MERGE send t USING (SELECT 1 AS id UNION ALL SELECT 1) s ON t.id = s.id WHEN MATCHED THEN DELETE;",
    );
    assert_eq!(row(&sim, "A", 0), ["3"]);
    assert_eq!(
        texts(&sim, "A", 1),
        [["1", "new", "2"], ["3", "three", "0"]]
    );
    assert_eq!(numbers(&sim, "A"), [8672]);
}

/// SET IDENTITY_INSERT t ON: an INSERT gives the identity through its column list, the
/// counter moves past a higher value and not back for a lower one; one table per
/// session, a table with an identity, and the column list are required.
#[test]
fn identity_insert_takes_explicit_values_and_moves_the_counter_past_them() {
    let setup = "CREATE TABLE t (id int IDENTITY(1,1) PRIMARY KEY, v varchar(10));\n\
                 CREATE TABLE u (id int IDENTITY(100,10) PRIMARY KEY);\n\
                 CREATE TABLE plain (id int PRIMARY KEY);\n\
                 INSERT INTO t (v) VALUES ('a');";
    let sim = run_one(
        setup,
        "SET IDENTITY_INSERT t ON;\n\
         INSERT INTO t (id, v) VALUES (10, 'ten');\n\
         SELECT CAST(SCOPE_IDENTITY() AS int), CAST(IDENT_CURRENT('t') AS int);\n\
         INSERT INTO t (v) VALUES ('no id');\n\
         INSERT INTO t VALUES (11, 'x');\n\
         SET IDENTITY_INSERT u ON;\n\
         SET IDENTITY_INSERT plain ON;\n\
         SET IDENTITY_INSERT t OFF;\n\
         INSERT INTO t (v) VALUES ('next');\n\
         INSERT INTO t (id, v) VALUES (5, 'five');\n\
         SET IDENTITY_INSERT t ON;\n\
         INSERT INTO t (id, v) VALUES (3, 'three');\n\
         SET IDENTITY_INSERT t OFF;\n\
         INSERT INTO t (v) VALUES ('after');\n\
         SELECT id, v FROM t ORDER BY id;",
    );
    assert_eq!(row(&sim, "A", 0), ["10", "10"]);
    assert_eq!(numbers(&sim, "A"), [545, 8101, 8107, 8106, 544]);
    assert_eq!(
        texts(&sim, "A", 1),
        [
            ["1", "a"],
            ["3", "three"],
            ["10", "ten"],
            ["11", "next"],
            ["12", "after"]
        ]
    );
}

/// OUTPUT on a MERGE: `$action` says what each row's clause did, `inserted` and `deleted`
/// are NULL on the side an action lacks, the source's columns may be named, and INTO
/// logs the rows to a table.
#[test]
fn merge_outputs_each_rows_action_and_both_versions() {
    let sim = run_one(
        &format!("{SENDS}\nCREATE TABLE audit (act nvarchar(10), id int, old_body varchar(20));"),
        "MERGE send AS t USING (VALUES (1, 'new'), (2, 'x'), (3, 'three')) AS s (id, body) ON t.id = s.id\n\
         WHEN MATCHED AND s.body = 'x' THEN DELETE\n\
         WHEN MATCHED THEN UPDATE SET body = s.body, tries = t.tries + 1\n\
         WHEN NOT MATCHED BY TARGET THEN INSERT (id, body, tries) VALUES (s.id, s.body, 0)\n\
         OUTPUT $action, inserted.id, inserted.body, deleted.body, s.body AS source_body;\n\
         MERGE send AS t USING (SELECT 3 AS id) AS s ON t.id = s.id WHEN MATCHED THEN DELETE\n\
         OUTPUT $ACTION, deleted.id, deleted.body INTO audit (act, id, old_body);\n\
         SELECT act, id, old_body FROM audit;\n\
         GO\n\
         SELECT $action;",
    );
    let out = sim.outcome().sessions[0].results[0].columns.clone();
    assert_eq!(out, ["$action", "id", "body", "body", "source_body"]);
    assert_eq!(
        texts(&sim, "A", 0),
        [
            ["UPDATE", "1", "new", "old", "new"],
            ["DELETE", "NULL", "NULL", "gone", "x"],
            ["INSERT", "3", "three", "NULL", "three"],
        ]
    );
    assert_eq!(texts(&sim, "A", 1), [["DELETE", "3", "three"]]);
    // Outside a MERGE's OUTPUT it is no column.
    assert_eq!(numbers(&sim, "A"), [207]);
}

/// The upsert race: two sessions MERGE the same new key at the same instant. Without
/// HOLDLOCK both read "not matched" and both insert; the second waits for the first's key
/// lock and then fails with 2627. With HOLDLOCK the second's read waits on the key, then
/// sees the row and updates it.
#[test]
fn merge_upsert_races_without_holdlock_and_waits_with_it() {
    for (hint, errors_b, tries) in [("", vec![2627], "0"), (" WITH (HOLDLOCK)", vec![], "1")] {
        let upsert = format!(
            "BEGIN TRAN;\nMERGE send{hint} AS t USING (SELECT 7 AS id, 'hi' AS body) AS s ON t.id = s.id\nWHEN MATCHED THEN UPDATE SET tries = t.tries + 1\nWHEN NOT MATCHED THEN INSERT (id, body, tries) VALUES (s.id, s.body, 0);\nWAITFOR DELAY '00:00:00.100';\nCOMMIT;"
        );
        let sc = scenario(SENDS, &[("A", 0, &upsert), ("B", 0, &upsert)]);
        let mut sim = Simulation::new(&sc, 1).unwrap();
        let trace = sim.run_traced().unwrap().to_string();
        let mut all = numbers(&sim, "A");
        all.extend(numbers(&sim, "B"));
        assert_eq!(all, errors_b, "{hint}\n{trace}");
        let end = sim.query("SELECT tries FROM send WHERE id = 7").unwrap();
        assert_eq!(
            end.rows,
            [[Value::Int(tries.parse().unwrap())]],
            "{hint}\n{trace}"
        );
        let waited: u64 = sim.outcome().sessions.iter().map(|s| s.wait_us).sum();
        assert!(waited > 50_000, "{hint}: waited {waited} µs\n{trace}");
    }
}

// ---------------------------------------------------------------------------------------
// Teradata: one QITS per request, INTERVAL offsets

const QUEUE: &str = "CREATE TABLE q, QUEUE (qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), id INTEGER) PRIMARY INDEX (id);";

/// Rows inserted by one multi-statement request without explicit QITS share one QITS
/// (the request's time), so their consume order is not theirs; INTERVAL offsets order them.
#[test]
fn one_request_s_inserts_share_a_qits_and_interval_offsets_order_them() {
    let sim = run(&scenario_in(
        Dialect::Teradata,
        QUEUE,
        &[(
            "A",
            0,
            "INS q (CURRENT_TIMESTAMP, 1); INS q (CURRENT_TIMESTAMP, 2); INS q (id) VALUES (3);\n\
             SELECT COUNT(DISTINCT qits) FROM q;\n\
             DELETE FROM q ALL;\n\
             INS q (CURRENT_TIMESTAMP + INTERVAL '0.002' SECOND, 1); INS q (CURRENT_TIMESTAMP + INTERVAL '0.001' SECOND, 2); INS q (CURRENT_TIMESTAMP + INTERVAL '1' MINUTE, 3);\n\
             SELECT AND CONSUME TOP 1 id FROM q;\n\
             SELECT AND CONSUME TOP 1 id FROM q;\n\
             SELECT id FROM q WHERE qits > CURRENT_TIMESTAMP + INTERVAL '59' SECOND;",
        )],
    ));
    no_errors(&sim, "A");
    assert_eq!(row(&sim, "A", 0), ["1"]);
    assert_eq!(row(&sim, "A", 1), ["2"]);
    assert_eq!(row(&sim, "A", 2), ["1"]);
    assert_eq!(row(&sim, "A", 3), ["3"]);
}

/// CHECK constraints refuse a row they find false (547, the statement only), pass one
/// they find unknown (NULL), and name the constraint as SQL Server does; Teradata
/// numbers the same refusal 5317.
#[test]
fn check_constraints_refuse_false_rows() {
    let sim = run_one(
        "CREATE TABLE job (id int PRIMARY KEY, attempts int NOT NULL DEFAULT 0 CHECK (attempts <= 3), status varchar(10) NULL, CONSTRAINT ck_status CHECK (status IN ('new', 'done')));\n\
         INSERT job (id, status) VALUES (1, 'new');",
        "INSERT job (id, attempts) VALUES (2, 4);\n\
         INSERT job (id, status) VALUES (3, 'weird');\n\
         INSERT job (id, status) VALUES (4, NULL);\n\
         UPDATE job SET attempts = 9 WHERE id = 1;\n\
         UPDATE job SET attempts = 3 WHERE id = 1;\n\
         SELECT id, attempts FROM job ORDER BY id;",
    );
    let errors = session_of(&sim, "A").errors;
    let got: Vec<(u32, u8, &str)> = errors
        .iter()
        .map(|e| (e.number, e.state, e.message.as_str()))
        .collect();
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0].0, 547);
    assert_eq!(got[0].1, 0);
    assert!(
        got[0].2.starts_with(
            "The INSERT statement conflicted with the CHECK constraint \"CK__job__attem__"
        ) && got[0].2.ends_with("table \"dbo.job\", column 'attempts'."),
        "{got:?}"
    );
    assert_eq!(
        got[1].2,
        "The INSERT statement conflicted with the CHECK constraint \"ck_status\". The conflict occurred in database \"lockstep\", table \"dbo.job\"."
    );
    assert!(got[2].2.starts_with("The UPDATE statement"), "{got:?}");
    assert_eq!(texts(&sim, "A", 0), [["1", "3"], ["4", "0"]]);

    let td = run(&scenario_in(
        Dialect::Teradata,
        "CREATE TABLE job (id INTEGER NOT NULL, attempts INTEGER NOT NULL CHECK (attempts <= 3)) UNIQUE PRIMARY INDEX (id);",
        &[("A", 0, "INS job (1, 4);")],
    ));
    let e = &session_of(&td, "A").errors[0];
    assert_eq!(
        (e.number, e.message.as_str()),
        (
            5317,
            "Check constraint violation: Check error in field job.attempts."
        )
    );
}

/// Teradata prints a TIMESTAMP(6) with all six digits (a queue table's QITS too),
/// CURRENT_TIMESTAMP(0) none, CURRENT_DATE a date.
#[test]
fn teradata_timestamps_print_their_digits() {
    let sim = run(&scenario_in(
        Dialect::Teradata,
        QUEUE,
        &[(
            "A",
            0,
            "INS q (TIMESTAMP '2026-01-05 10:00:00', 1);\n\
             SELECT qits, CURRENT_TIMESTAMP(0), CURRENT_DATE FROM q;",
        )],
    ));
    no_errors(&sim, "A");
    assert_eq!(
        row(&sim, "A", 0),
        [
            "2026-01-05 10:00:00.000000",
            "2026-01-05 09:00:00",
            "2026-01-05"
        ]
    );
}

/// A temporary table a procedure creates is dropped when it returns; one its caller
/// created is visible inside it.
#[test]
fn a_procedure_s_temp_table_ends_with_the_procedure() {
    let sim = run_one(
        "CREATE PROCEDURE stage AS BEGIN CREATE TABLE #inner (id int); INSERT #inner VALUES (1); INSERT #outer VALUES (2); SELECT COUNT(*) FROM #inner; END",
        "CREATE TABLE #outer (id int);\nEXEC stage;\nSELECT id FROM #outer;\nGO\nSELECT COUNT(*) FROM #inner;",
    );
    assert_eq!(row(&sim, "A", 0), ["1"]);
    assert_eq!(row(&sim, "A", 1), ["2"]);
    assert_eq!(numbers(&sim, "A"), [208]);
}

/// A column's own `UNIQUE` is enforced like `UNIQUE (c)`, and a UNIQUE constraint's clash
/// is Msg 2627 naming the constraint, where a unique index's is 2601 (semantics.md, the
/// analog table).
#[test]
fn unique_constraints_clash_with_2627_and_unique_indexes_with_2601() {
    let setup = "CREATE TABLE t (id INT PRIMARY KEY, code INT UNIQUE, tag INT, ref INT, CONSTRAINT uq_tag UNIQUE (tag));
CREATE UNIQUE INDEX ix_ref ON t (ref);
INSERT INTO t (id, code, tag, ref) VALUES (1, 10, 100, 7);";
    let sim = run_one(setup, "INSERT INTO t (id, code, tag) VALUES (2, 10, 200);");
    let e = errors(&sim, "A");
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].0, 2627);
    assert!(
        e[0].1.starts_with("Violation of UNIQUE KEY constraint 'UQ__t__C08D560AE9CAF024'. Cannot insert duplicate key in object 'dbo.t'. The duplicate key value is (10)."),
        "{}",
        e[0].1
    );
    let sim = run_one(setup, "INSERT INTO t (id, code, tag) VALUES (2, 20, 100);");
    assert_eq!(numbers(&sim, "A"), [2627]);
    assert!(errors(&sim, "A")[0].1.contains("'uq_tag'"));
    let sim = run_one(
        setup,
        "INSERT INTO t (id, code, tag, ref) VALUES (2, 20, 200, 7);",
    );
    assert_eq!(numbers(&sim, "A"), [2601]);
    assert!(errors(&sim, "A")[0]
        .1
        .contains("with unique index 'ix_ref'"));
    let sim = run_one(
        setup,
        "INSERT INTO t (id, code, tag, ref) VALUES (2, 20, 200, 8);",
    );
    assert!(numbers(&sim, "A").is_empty());
}

/// CREATE PROCEDURE resolves columns of tables that exist (error 207 at create, so the
/// setup fails), leaves tables that do not exist yet to run time (deferred name
/// resolution: 208 when the statement runs), and accepts what is valid: CTEs, OUTPUT,
/// date parts, aliases in ORDER BY, correlated and derived tables, temp tables.
#[test]
fn create_procedure_resolves_the_columns_of_existing_tables() {
    let table = "CREATE TABLE dbo.task (id int PRIMARY KEY, status varchar(10), owner varchar(10), taken datetime2(3));\nGO\n";
    let err = Simulation::new(
        &scenario(
            &format!("{table}CREATE PROCEDURE p AS\nBEGIN\n    UPDATE dbo.task SET owner = 'x'\n    WHERE stauts = 'new';\nEND"),
            &[("A", 0, "EXEC p;")],
        ),
        1,
    )
    .map(|_| ())
    .unwrap_err();
    assert_eq!(
        (err.line, err.col, err.message.as_str()),
        (
            6,
            11,
            "setup failed with error 207: Invalid column name 'stauts'."
        )
    );
    // A table created later is resolved when the statement runs.
    let sim = run_one(
        &format!("{table}CREATE PROCEDURE p AS SELECT nope FROM dbo.later;"),
        "EXEC p;",
    );
    assert_eq!(numbers(&sim, "A"), [208]);
    let valid = format!(
        "{table}CREATE PROCEDURE p AS
BEGIN
    WITH next AS (SELECT TOP (1) id, status, owner FROM dbo.task WITH (READPAST) WHERE status = 'new' ORDER BY id)
    UPDATE next SET status = 'taken', owner = 'A' OUTPUT inserted.id, deleted.status;
    SELECT t.id AS n, DATEADD(second, 5, t.taken) AS due,
        (SELECT COUNT(*) FROM dbo.task w WHERE w.id < t.id) AS before
    FROM dbo.task t JOIN (SELECT id AS k FROM dbo.task) d ON d.k = t.id ORDER BY n;
    CREATE TABLE #tmp (x int);
    INSERT #tmp (x) SELECT id FROM dbo.task;
    SELECT x FROM #tmp;
END;
GO
INSERT dbo.task (id, status) VALUES (1, 'new');"
    );
    let sim = run_one(&valid, "EXEC p;");
    assert!(errors(&sim, "A").is_empty(), "{:?}", errors(&sim, "A"));
}

/// MERGE ... WITH (HOLDLOCK) is SERIALIZABLE: the keys its read touches stay locked to
/// the end of the transaction, qualifying or not (key-range locks). Three sessions
/// merging the same row wait their turn: one updates it, the other two find it no longer
/// new. (A row that did not qualify used to lose its lock and be asked for again as the
/// missing key, so two waiters handed it to each other forever at one instant.) The
/// statement's logical reads count its read as well as its writes.
#[test]
fn three_holdlock_merges_of_one_row_take_turns() {
    let setup = "CREATE TABLE dbo.task (id int IDENTITY(1,1) PRIMARY KEY, status varchar(20) NOT NULL DEFAULT 'new', owner varchar(30) NULL);
INSERT dbo.task (status) VALUES ('new'), ('new'), ('new');";
    let merge = |who: &str| {
        format!(
            "DECLARE @id int = 1;
MERGE INTO dbo.task WITH (HOLDLOCK) AS t
USING (SELECT @id AS id) AS s ON t.id = s.id AND t.status = 'new'
WHEN MATCHED THEN UPDATE SET status = 'in_progress', owner = '{who}';
SELECT @@ROWCOUNT AS rc;"
        )
    };
    let (a, b, c) = (merge("A"), merge("B"), merge("C"));
    let sim = run(&scenario(
        setup,
        &[("A", 0, &a), ("B", 0, &b), ("C", 0, &c)],
    ));
    assert!(sim.is_finished());
    let counts: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|s| row(&sim, s, 0).join(""))
        .collect();
    let mut sorted = counts.clone();
    sorted.sort();
    assert_eq!(sorted, ["0", "0", "1"], "{counts:?}");
    let reads: Vec<u64> = sim
        .outcome()
        .sessions
        .iter()
        .map(|s| s.logical_reads)
        .collect();
    assert!(
        reads.iter().all(|&r| r >= 1),
        "every MERGE read the row's page: {reads:?}"
    );
}

/// NOLOCK (READUNCOMMITTED) may not be put on the table a statement writes, through a
/// CTE or directly: SQL Server refuses it with Msg 1065. A table the UPDATE only reads
/// may have it.
#[test]
fn nolock_on_a_write_target_is_error_1065() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int); CREATE TABLE u (id int PRIMARY KEY);
INSERT INTO t VALUES (1, 0); INSERT INTO u VALUES (1);";
    let sim = run_one(
        setup,
        "WITH c AS (SELECT TOP (1) id, v FROM t WITH (NOLOCK) ORDER BY id) UPDATE c SET v = 1;
UPDATE t WITH (READUNCOMMITTED) SET v = 2;
DELETE t FROM t WITH (NOLOCK) WHERE id = 1;
UPDATE t SET v = 3 FROM t JOIN u WITH (NOLOCK) ON u.id = t.id;
SELECT v FROM t;",
    );
    assert_eq!(numbers(&sim, "A"), [1065, 1065, 1065]);
    assert_eq!(row(&sim, "A", 0), ["3"]);
}

/// NOLOCK beside a hint that takes or holds locks is Msg 1047, in the server's one
/// wording whichever pair it was: a compile error, so it ends its batch and a TRY in
/// the batch does not catch it. NOLOCK with ROWLOCK is no conflict.
#[test]
fn nolock_beside_a_locking_hint_is_error_1047() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0);";
    let sim = run_one(
        setup,
        "BEGIN TRY SELECT v FROM t WITH (UPDLOCK, NOLOCK); END TRY BEGIN CATCH SELECT 'caught'; END CATCH;
SELECT 'after';
GO
SELECT v FROM t WITH (READUNCOMMITTED, HOLDLOCK);
GO
SELECT v FROM t WITH (NOLOCK, TABLOCKX);
GO
SELECT v FROM t WITH (XLOCK, NOLOCK, ROWLOCK);
GO
SELECT v FROM t WITH (NOLOCK, ROWLOCK);",
    );
    assert_eq!(numbers(&sim, "A"), [1047, 1047, 1047, 1047]);
    let a = sim.outcome();
    let a = a.sessions.iter().find(|s| s.name == "A").unwrap();
    assert_eq!(a.errors[0].message, "Conflicting locking hints specified.");
    // Neither the CATCH nor the rest of the first batch ran: one result set, the last's.
    assert_eq!(a.results.len(), 1);
    assert_eq!(row(&sim, "A", 0), ["0"]);
}

// ---------------------------------------------------------------------------------------
// @@ROWCOUNT

/// A claim loop that stops on `IF @@ROWCOUNT = 0` after its SELECT: the SELECT sets it
/// to the rows it read, so the loop claims all three tasks (it used to stop at once).
#[test]
fn rowcount_follows_selects_assignments_and_transaction_statements() {
    let setup =
        "CREATE TABLE task (id int PRIMARY KEY, status varchar(20) NOT NULL DEFAULT 'new');\n\
                 INSERT INTO task (id) VALUES (1), (2), (3);";
    let sim = run_one(
        setup,
        "DECLARE @id int, @n int = 0;\n\
         WHILE 1 = 1\n\
         BEGIN\n\
             SELECT TOP (1) @id = id FROM task WHERE status = 'new' ORDER BY id;\n\
             IF @@ROWCOUNT = 0 BREAK;\n\
             UPDATE task SET status = 'in_progress' WHERE id = @id;\n\
             SET @n += 1;\n\
             IF @n > 10 BREAK;\n\
         END\n\
         SELECT @n AS claims;",
    );
    no_errors(&sim, "A");
    assert_eq!(row(&sim, "A", 0), ["3"]);
    let sim = run_one(
        setup,
        "DECLARE @rc int, @id int;\n\
         SELECT id FROM task; SET @rc = @@ROWCOUNT; SELECT @rc;\n\
         SELECT @id = id FROM task; SELECT @@ROWCOUNT;\n\
         UPDATE task SET status = 'x' WHERE id <= 2; SET @id = 5; SELECT @@ROWCOUNT;\n\
         UPDATE task SET status = 'y' WHERE id <= 2; BEGIN TRAN; SELECT @@ROWCOUNT;\n\
         UPDATE task SET status = 'z' WHERE id <= 2; COMMIT; SELECT @@ROWCOUNT;\n\
         UPDATE task SET status = 'w' WHERE id <= 2; PRINT 'p'; SELECT @@ROWCOUNT;\n\
         UPDATE task SET status = 'v' WHERE id <= 2; SET NOCOUNT ON; SELECT @@ROWCOUNT;",
    );
    no_errors(&sim, "A");
    let got: Vec<Vec<String>> = (1..8).map(|k| row(&sim, "A", k)).collect();
    assert_eq!(got, [["3"], ["3"], ["1"], ["0"], ["0"], ["0"], ["0"]]);
}

/// sp_releaseapplock of a lock not held raises Msg 1223 and still returns -999 (its
/// documented return codes are 0 and -999); the batch goes on.
#[test]
fn releasing_an_application_lock_not_held_returns_minus_999() {
    let sim = run_one(
        "",
        "DECLARE @r int = 5;\n\
         BEGIN TRAN;\n\
         EXEC @r = sp_releaseapplock @Resource = 'Send_1';\n\
         SELECT @r;\n\
         COMMIT;",
    );
    assert_eq!(super::support::errors(&sim, "A").len(), 1);
    assert_eq!(numbers(&sim, "A"), [1223]);
    assert_eq!(row(&sim, "A", 0), ["-999"]);
}

/// An INSERT that waits on a unique key gives its row the identity value it took before
/// the wait (the server allocates it once, as the row is built): A takes 1 and rolls
/// back, B waits with 2 and keeps it, B's next row is 3. Re-running the INSERT after the
/// wait must not burn a second value.
#[test]
fn an_insert_that_waited_keeps_the_identity_it_took_before_the_wait() {
    let setup = "CREATE TABLE dbo.send (id int IDENTITY(1,1) PRIMARY KEY, doc int NOT NULL);\n\
                 CREATE UNIQUE INDEX ux_send_doc ON dbo.send (doc);";
    let sim = run(&scenario(
        setup,
        &[
            (
                "A",
                0,
                "BEGIN TRAN;\n\
                 INSERT INTO dbo.send (doc) VALUES (1);\n\
                 WAITFOR DELAY '00:00:01';\n\
                 ROLLBACK;",
            ),
            (
                "B",
                100,
                "INSERT INTO dbo.send (doc) VALUES (1);\n\
                 INSERT INTO dbo.send (doc) VALUES (2);\n\
                 SELECT id, doc FROM dbo.send ORDER BY id;",
            ),
        ],
    ));
    no_errors(&sim, "A");
    no_errors(&sim, "B");
    let b = sim.outcome().sessions;
    let b = b.iter().find(|s| s.name == "B").expect("B");
    assert!(b.wait_us > 800_000, "B waited for A: {} µs", b.wait_us);
    assert_eq!(texts(&sim, "B", 0), [["2", "1"], ["3", "2"]]);
}

/// Three rows with ids 1, 2 and 3.
const THREE_ROWS: &str = "CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL);
INSERT INTO t (id, v) VALUES (1, 10), (2, 20), (3, 30);";

/// An UPDATE that moves a row onto another row's primary key fails with 2627, the
/// message an INSERT of that key gets; when the other row's key is changing in an open
/// transaction, the update waits for it first, then succeeds if that key left.
#[test]
fn an_update_to_a_taken_primary_key_fails_with_2627() {
    let setup = THREE_ROWS;
    let sim = run_one(
        setup,
        "UPDATE t SET id = 2 WHERE id = 1;\nSELECT id, v FROM t ORDER BY id;",
    );
    let e = errors(&sim, "A");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].0, 2627);
    assert!(
        e[0].1.ends_with("The duplicate key value is (2)."),
        "{}",
        e[0].1
    );
    assert_eq!(texts(&sim, "A", 0), [["1", "10"], ["2", "20"], ["3", "30"]]);
    // B moves row 2 away and commits a second later: A waits, then takes key 2.
    let sim = run(&scenario(
        setup,
        &[
            ("B", 0, "BEGIN TRAN;\nUPDATE t SET id = 5 WHERE id = 2;\nWAITFOR DELAY '00:00:01';\nCOMMIT;"),
            ("A", 100_000, "UPDATE t SET id = 2 WHERE id = 1;"),
        ],
    ));
    no_errors(&sim, "A");
    let waited = session_of(&sim, "A").wait_us;
    assert!(waited >= 800_000, "{waited}");
}

/// An UPDATE of the primary key moves the row: a seek finds it under the new key, the
/// old key is free for an INSERT, a scan returns it in key order; a rollback puts it
/// back where it was.
#[test]
fn an_update_of_the_primary_key_moves_the_row() {
    let sim = run_one(
        THREE_ROWS,
        "UPDATE t SET id = 9 WHERE id = 1;
SELECT v FROM t WHERE id = 9;
SELECT COUNT(*) FROM t WHERE id = 1;
INSERT INTO t (id, v) VALUES (1, 11);
SELECT id, v FROM t;
BEGIN TRAN;
UPDATE t SET id = 5 WHERE id = 2;
ROLLBACK;
SELECT id FROM t WHERE id = 2;
SELECT COUNT(*) FROM t WHERE id = 5;",
    );
    no_errors(&sim, "A");
    assert_eq!(texts(&sim, "A", 0), [["10"]]);
    assert_eq!(texts(&sim, "A", 1), [["0"]]);
    assert_eq!(
        texts(&sim, "A", 2),
        [["1", "11"], ["2", "20"], ["3", "30"], ["9", "10"]]
    );
    assert_eq!(texts(&sim, "A", 3), [["2"]]);
    assert_eq!(texts(&sim, "A", 4), [["0"]]);
}

/// `foo.*` with no table or alias `foo` in the query is SQL Server's Msg 107, in a
/// SELECT and in OUTPUT; it used to return rows with no columns.
#[test]
fn a_star_with_an_unknown_prefix_is_an_error() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int); INSERT t VALUES (1, 1);";
    let sim = run_one(setup, "SELECT foo.* FROM t;");
    assert_eq!(numbers(&sim, "A"), [107]);
    let sim = run_one(
        setup,
        "UPDATE t SET v = 2 OUTPUT foo.* FROM t JOIN t AS u ON u.id = t.id;",
    );
    assert_eq!(numbers(&sim, "A"), [107]);
    let sim = run_one(setup, "SELECT t.* FROM t;");
    no_errors(&sim, "A");
}

/// SQL Server: ORDER BY names a select-list alias or a position as well as a column,
/// also where the scan itself orders (one table, no grouping); `TOP 0` returns no row;
/// and the ORDER BY after a UNION orders the whole result (NULL first ascending, last
/// descending), not its first operand.
#[test]
fn order_by_aliases_positions_top_zero_and_after_a_union() {
    let setup = "CREATE TABLE job (id int PRIMARY KEY, prio int, name varchar(10));
INSERT job VALUES (1, 2, 'b'), (2, NULL, 'c'), (3, 1, 'a');";
    let sim = run_one(
        setup,
        "SELECT id, prio AS p FROM job ORDER BY p;
SELECT id, prio AS p FROM job ORDER BY 2 DESC;
SELECT * FROM job ORDER BY 3 DESC;
SELECT TOP 1 id, name AS n FROM job ORDER BY n;
SELECT TOP 0 id FROM job ORDER BY id;
SELECT id FROM job UNION ALL SELECT prio FROM job ORDER BY id DESC;
SELECT name FROM job WHERE id < 3 UNION SELECT 'a' ORDER BY 1;",
    );
    no_errors(&sim, "A");
    let ids = |k: usize| -> Vec<String> {
        texts(&sim, "A", k)
            .into_iter()
            .map(|r| r[0].clone())
            .collect()
    };
    assert_eq!(ids(0), ["2", "3", "1"]);
    assert_eq!(ids(1), ["1", "3", "2"]);
    assert_eq!(ids(2), ["2", "1", "3"]);
    assert_eq!(texts(&sim, "A", 3), [["3", "a"]]);
    assert_eq!(texts(&sim, "A", 4), Vec::<Vec<String>>::new());
    assert_eq!(ids(5), ["3", "2", "2", "1", "1", "NULL"]);
    assert_eq!(ids(6), ["a", "b", "c"]);
}

/// SQL Server: a grouped query names a column outside an aggregate only if it groups by
/// it (8120 in the select list, 8121 in HAVING), with no functional dependency on the
/// primary key; the batch ends there. It ran and showed some row's value.
#[test]
fn ungrouped_columns_fail_with_8120() {
    let setup = "CREATE TABLE jobs (id int PRIMARY KEY, status varchar(10), prio int);
INSERT INTO jobs VALUES (1, 'new', 1), (2, 'new', 2), (3, 'done', 1);";
    let ok = run_one(
        setup,
        "SELECT status, COUNT(*) FROM jobs GROUP BY status ORDER BY status;
SELECT UPPER(status), prio + 1, COUNT(*) FROM jobs GROUP BY UPPER(status), prio + 1;",
    );
    no_errors(&ok, "A");
    let fails = |sql: &str| errors(&run_one(setup, sql), "A");
    let msg = |n: u32, c: &str, clause: &str| {
        (
            n,
            format!("Column '{c}' is invalid in the {clause} because it is not contained in either an aggregate function or the GROUP BY clause."),
        )
    };
    assert_eq!(
        fails("SELECT j.id, j.status FROM jobs j GROUP BY j.id;"),
        [msg(8120, "j.status", "select list")]
    );
    assert_eq!(
        fails("SELECT prio, COUNT(*) FROM jobs;"),
        [msg(8120, "jobs.prio", "select list")]
    );
    assert_eq!(
        fails("SELECT status FROM jobs GROUP BY status HAVING prio > 1;"),
        [msg(8121, "jobs.prio", "HAVING clause")]
    );
}

/// SQL Server: ROUND, FLOOR, CEILING, POWER, SQRT, SIGN, REPLACE, REVERSE and GREATEST
/// (2022) answer (they were "not simulated" or taken for procedures); a qualifier no
/// FROM names fails with 4104, and INSERT value counts with 213 or 109 (109's words
/// were 110's).
#[test]
fn numeric_and_string_functions_and_binding_errors() {
    let sim = run_one(
        "",
        "SELECT ROUND(2.567, 2), FLOOR(1.8), CEILING(1.2), POWER(2, 3), SQRT(16.0), SIGN(-3), REPLACE('a-b', '-', '+'), REVERSE('abc'), GREATEST(1, 5, 3);",
    );
    no_errors(&sim, "A");
    assert_eq!(
        row(&sim, "A", 0),
        ["2.57", "1", "2", "8", "4", "-1", "a+b", "cba", "5"]
    );
    let setup = "CREATE TABLE jobs (id int PRIMARY KEY, status varchar(10), prio int);
INSERT INTO jobs VALUES (9, 'done', 1);";
    let fails = |sql: &str| errors(&run_one(setup, sql), "A");
    assert_eq!(
        fails("SELECT x.id FROM jobs;"),
        [(
            4104,
            "The multi-part identifier \"x.id\" could not be bound.".to_string()
        )]
    );
    assert_eq!(
        fails("INSERT INTO jobs VALUES (1, 'new');"),
        [(
            213,
            "Column name or number of supplied values does not match table definition.".to_string()
        )]
    );
    assert_eq!(fails("INSERT INTO jobs (id, status) VALUES (1);")[0].0, 109);
    assert!(fails("INSERT INTO jobs (id, status) VALUES (1);")[0]
        .1
        .starts_with("There are more columns in the INSERT statement than values"));
}

/// SQL Server's `TOP (n) PERCENT` keeps n % of the rows rounded up, `WITH TIES` the rows
/// that tie with the last in ORDER BY (both returned every row), and `OFFSET ... FETCH`
/// pages an ordered result (it was "not simulated"), in a compound query too, and as an
/// updatable CTE's TOP. Bad counts fail with SQL Server's numbers and words.
#[test]
fn top_percent_with_ties_and_offset_fetch_cut_ordered_rows() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, p int);
INSERT INTO t VALUES (1, 1), (2, 1), (3, 2), (4, 3), (5, 3);";
    let sim = run_one(
        setup,
        "SELECT TOP 50 PERCENT id FROM t ORDER BY id;
SELECT TOP (1) WITH TIES id FROM t ORDER BY p;
SELECT id FROM t ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY;
SELECT id FROM t ORDER BY id OFFSET 3 ROWS;
SELECT id FROM t UNION ALL SELECT 9 ORDER BY id OFFSET 2 ROWS FETCH FIRST 2 ROW ONLY;
WITH c AS (SELECT id, p FROM t ORDER BY id OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY) UPDATE c SET p = 7;
SELECT p FROM t WHERE p = 7;
SELECT TOP (101) PERCENT id FROM t ORDER BY id;
SELECT id FROM t ORDER BY id OFFSET -1 ROWS;
SELECT id FROM t ORDER BY id OFFSET 0 ROWS FETCH NEXT 0 ROWS ONLY;
SELECT TOP (-1) id FROM t;
SELECT TOP (1) WITH TIES id FROM t;",
    );
    let ids = |k| texts(&sim, "A", k).concat().join(" ");
    assert_eq!(
        [ids(0), ids(1), ids(2), ids(3), ids(4), ids(5)],
        ["1 2 3", "1 2", "2 3", "4 5", "3 4", "7"]
    );
    assert_eq!(numbers(&sim, "A"), [1031, 10742, 10744, 1014, 1062]);
}

/// A count that is not an integer's type is Msg 1060 when the batch compiles
/// (`TOP (2.5)` was cut to 2), and a number past bigint's range overflows (Msg 8115; it
/// was clamped to bigint's largest, so a 20-digit TOP ran).
#[test]
fn fractional_and_huge_counts_fail_as_the_server_does() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (2), (3);";
    let sim = run_one(
        setup,
        "BEGIN TRY SELECT TOP (2.5) id FROM t; END TRY BEGIN CATCH SELECT 0; END CATCH
GO
SELECT id FROM t ORDER BY id OFFSET 0 ROWS FETCH NEXT 1.5 ROWS ONLY;
GO
SELECT TOP (99999999999999999999) id FROM t;
GO
SELECT CAST(99999999999999999999 AS bigint);
GO
SELECT CAST(-9223372036854775808.0 AS bigint), CAST(9.9 AS int);
DECLARE @n bigint = 2; SELECT TOP (@n) id FROM t ORDER BY id;",
    );
    assert_eq!(numbers(&sim, "A"), [1060, 1060, 1060, 8115]);
    assert_eq!(texts(&sim, "A", 0), [["-9223372036854775808", "9"]]);
    assert_eq!(texts(&sim, "A", 1), [["1"], ["2"]]);
}

/// An UPDATE may not set an identity column: Msg 8102, before any row (it changed the
/// key).
#[test]
fn updating_an_identity_column_fails_with_8102() {
    let sim = run_one(
        "CREATE TABLE t (id int IDENTITY PRIMARY KEY, p int);
INSERT INTO t (p) VALUES (1), (2);",
        "UPDATE t SET id = 9 WHERE p = 1;
SELECT id FROM t ORDER BY id;",
    );
    assert_eq!(
        errors(&sim, "A"),
        [(8102, "Cannot update identity column 'id'.".to_string())]
    );
    assert_eq!(texts(&sim, "A", 0), [["1"], ["2"]]);
}

/// `DEFAULT` in a VALUES row takes the column's default (it was a syntax error); the
/// identity column stays out of the implicit column list.
#[test]
fn default_in_values_takes_the_columns_default() {
    let sim = run_one(
        "CREATE TABLE t (id int IDENTITY PRIMARY KEY, status varchar(10) NOT NULL DEFAULT 'new', p int);",
        "INSERT INTO t VALUES (DEFAULT, 1), ('done', DEFAULT);
INSERT INTO t (p, status) VALUES (3, DEFAULT);
SELECT id, status, p FROM t ORDER BY id;",
    );
    no_errors(&sim, "A");
    assert_eq!(
        texts(&sim, "A", 0),
        [["1", "new", "1"], ["2", "done", "NULL"], ["3", "new", "3"]]
    );
}

/// A cast to `date` keeps the day and drops the time of day: `CAST(at AS date) =
/// '2026-01-05'` matches a row written at 10:30 that day (the cast kept the time, which
/// the date's text hid, so the comparison failed).
#[test]
fn a_cast_to_date_drops_the_time_of_day() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY, at datetime2(3));
INSERT INTO t VALUES (1, '2026-01-05 10:30:00'), (2, '2026-01-06 00:00:00');",
        "SELECT id FROM t WHERE CAST(at AS date) = '2026-01-05';
SELECT COUNT(*) FROM t WHERE CAST(at AS date) = CAST(SYSDATETIME() AS date);",
    );
    no_errors(&sim, "A");
    assert_eq!(texts(&sim, "A", 0), [["1"]]);
    assert_eq!(texts(&sim, "A", 1), [["1"]]);
}

/// `= ANY (query)` and `<> ALL (query)` are IN and NOT IN (they were "not simulated").
#[test]
fn any_and_all_over_a_query_are_in_and_not_in() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t VALUES (1), (2), (3);
CREATE TABLE u (id int);
INSERT INTO u VALUES (1), (3);",
        "SELECT id FROM t WHERE id = ANY (SELECT id FROM u) ORDER BY id;
SELECT id FROM t WHERE id <> ALL (SELECT id FROM u) ORDER BY id;",
    );
    no_errors(&sim, "A");
    assert_eq!(texts(&sim, "A", 0), [["1"], ["3"]]);
    assert_eq!(texts(&sim, "A", 1), [["2"]]);
}

/// LAG and LEAD (they were "not simulated") read the row before or after in the window.
#[test]
fn lag_and_lead_read_neighbouring_rows() {
    let sim = run_one(
        "CREATE TABLE a (id int PRIMARY KEY, v int);
INSERT INTO a VALUES (1, 10), (2, 25), (3, 45);",
        "SELECT id, v - LAG(v) OVER (ORDER BY id) AS delta, LEAD(id, 2, 0) OVER (ORDER BY id) AS n FROM a ORDER BY id;",
    );
    no_errors(&sim, "A");
    assert_eq!(
        texts(&sim, "A", 0),
        [["1", "NULL", "3"], ["2", "15", "0"], ["3", "20", "0"]]
    );
}

/// `SAVE TRANSACTION name` (it was "not simulated") and `ROLLBACK TRANSACTION name`
/// going back to it: the UPDATE after the savepoint is undone and its X lock released
/// (SQL Server releases the locks taken after a savepoint, keeping conversions), so B's
/// UPDATE waiting for the row goes on; @@TRANCOUNT stays 1 and the COMMIT keeps the
/// work before the savepoint. Outside a transaction SAVE TRANSACTION fails with 628.
#[test]
fn save_transaction_and_rollback_to_it() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v varchar(10));
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');";
    let a = "SAVE TRAN s0;
BEGIN TRAN;
UPDATE t SET v = 'x' WHERE id = 1;
SAVE TRANSACTION s1;
UPDATE t SET v = 'y' WHERE id = 2;
WAITFOR DELAY '00:00:00.500';
ROLLBACK TRAN s1;
SELECT @@TRANCOUNT;
COMMIT;
SELECT id, v FROM t ORDER BY id;";
    let b = "UPDATE t SET v = 'B' WHERE id = 2;";
    let sim = run(&scenario(setup, &[("A", 0, a), ("B", 100_000, b)]));
    assert_eq!(numbers(&sim, "A"), [628]);
    no_errors(&sim, "B");
    assert_eq!(texts(&sim, "A", 0), [["1"]]);
    assert_eq!(texts(&sim, "A", 1), [["1", "x"], ["2", "B"], ["3", "c"]]);
    let o = sim.outcome();
    let b = o.sessions.iter().find(|s| s.name == "B").unwrap();
    assert!(
        (399_000..=401_000).contains(&b.wait_us),
        "B waits until the savepoint's rollback: {} µs",
        b.wait_us
    );
}

/// SQL Server's filtered index takes `column op constant`, `column IS [NOT] NULL` and
/// `column IN (constants)` joined by AND; a function, OR, NOT or arithmetic is Msg 10735,
/// Level 15, `Incorrect WHERE clause for filtered index 'ix' on table 'dbo.job'.` (the
/// table as written). The refused index is not there, so a query on another function
/// still finds its row: it used to be filed under the first index and found nothing.
#[test]
fn a_filtered_index_outside_sql_servers_grammar_is_10735() {
    let sim = run_one(
        "CREATE TABLE dbo.job (id int PRIMARY KEY, status varchar(10) NOT NULL, owner varchar(10) NULL);\n\
         INSERT dbo.job VALUES (1, 'NEW', 'x'), (2, 'done', 'NEW'), (3, 'new', 'y');",
        "CREATE INDEX ix1 ON dbo.job (id) WHERE LOWER(status) = 'new';\n\
         CREATE INDEX ix2 ON job (id) WHERE status = 'new' OR owner = 'x';\n\
         CREATE INDEX ix3 ON dbo.job (id) WHERE NOT (owner = 'x');\n\
         CREATE INDEX ix4 ON dbo.job (id) WHERE id + 1 = 3;\n\
         CREATE INDEX ix5 ON dbo.job (id) WHERE status IN ('new', 'x') AND owner IS NOT NULL AND id > -1;\n\
         CREATE INDEX ix6 ON dbo.job (id) WHERE id > CAST('1' AS int) AND CAST(id AS int) > 0;\n\
         CREATE INDEX ix7 ON dbo.job (id) WHERE id > CAST('1' AS int);\n\
         SELECT id FROM dbo.job WITH (INDEX(ix7)) WHERE id > CAST('1' AS int);\n\
         SELECT id FROM dbo.job WHERE UPPER(owner) = 'NEW' ORDER BY id;\n\
         SELECT id FROM dbo.job WITH (INDEX(ix5)) WHERE status IN ('new', 'x') AND owner IS NOT NULL AND id > -1;",
    );
    let message = |ix: &str, table: &str| {
        (
            10735,
            format!("Incorrect WHERE clause for filtered index '{ix}' on table '{table}'."),
        )
    };
    assert_eq!(
        errors(&sim, "A"),
        [
            message("ix1", "dbo.job"),
            message("ix2", "job"),
            message("ix3", "dbo.job"),
            message("ix4", "dbo.job"),
            message("ix6", "dbo.job"),
        ]
    );
    // A converted constant is one (SQL Server's advice for a column of another type).
    assert_eq!(texts(&sim, "A", 0), [["2"], ["3"]]);
    assert_eq!(texts(&sim, "A", 1), [["2"]]);
    assert_eq!(texts(&sim, "A", 2), [["1"], ["3"]]);
}

/// SQL Server has no BOOL_AND, BOOL_OR or EVERY: the simulation says so rather than
/// answering with PostgreSQL's aggregate.
#[test]
fn boolean_aggregates_are_not_sql_servers() {
    let sim = run_one(
        "CREATE TABLE dbo.job (id int PRIMARY KEY, done bit NULL);\n\
         INSERT dbo.job VALUES (1, 1), (2, NULL);",
        "SELECT BOOL_OR(done) FROM dbo.job;",
    );
    assert_eq!(
        errors(&sim, "A"),
        [(0, "not simulated: function BOOL_OR()".to_string())]
    );
}

/// SQL Server: `int` arithmetic is `int` and overflows past its range with Msg 8115;
/// a `bigint` operand, or a literal past int's range (a decimal there), widens it.
#[test]
fn int_arithmetic_overflows_with_8115() {
    let sim = run_one(
        "CREATE TABLE dbo.t (id int PRIMARY KEY, n int, b bigint);\n\
         INSERT dbo.t VALUES (1, 2000000000, 2000000000);",
        "SELECT 2147483647 + 1;\n\
         SELECT n + n FROM dbo.t;\n\
         SELECT b + b, n + b, CAST(n AS bigint) * 2, 2147483647 + 2147483648 FROM dbo.t;\n\
         DECLARE @k int = 2147483647;\n\
         SET @k += 1;\n\
         SELECT @k;",
    );
    let overflow = (
        8115,
        "Arithmetic overflow error converting expression to data type int.".to_string(),
    );
    assert_eq!(
        errors(&sim, "A"),
        [overflow.clone(), overflow.clone(), overflow]
    );
    assert_eq!(
        texts(&sim, "A", 0),
        [["4000000000", "4000000000", "4000000000", "4294967295"]]
    );
    assert_eq!(texts(&sim, "A", 1), [["2147483647"]]);
}

/// SQL Server's CHARINDEX: the 1-based position where the text first begins, at or after
/// the start given; 0 when it does not occur or is empty; NULL when either text is;
/// case-insensitive under the default collation.
#[test]
fn charindex_finds_text_as_sql_server_does() {
    let sim = run_one(
        "",
        "SELECT CHARINDEX('l', 'hello'), CHARINDEX('L', 'hello'), CHARINDEX('l', 'hello', 4),\n\
                CHARINDEX('lo', 'hello'), CHARINDEX('z', 'hello'), CHARINDEX('', 'abc'),\n\
                CHARINDEX(NULL, 'abc'), CHARINDEX('l', 'hello', -5);",
    );
    no_errors(&sim, "A");
    assert_eq!(
        row(&sim, "A", 0),
        ["3", "3", "4", "4", "0", "0", "NULL", "3"]
    );
}

/// SQL Server converts text beside an int to int (int's precedence is higher): `1 +
/// '1'` is 2, `'7' / 2` is 3, and `1 + '1.5'` fails with 245.
#[test]
fn text_beside_an_int_converts_to_int() {
    let sim = run_one("", "SELECT 1 + '1', '7' / 2, 10 - '3';\nSELECT 1 + '1.5';");
    assert_eq!(row(&sim, "A", 0), ["2", "3", "7"]);
    assert_eq!(
        errors(&sim, "A"),
        [(
            245,
            "Conversion failed when converting the varchar value '1.5' to data type int."
                .to_string()
        )]
    );
}

/// SQL Server names indexes per table (two tables may each have an `ix`), drops one
/// with `DROP INDEX ix ON t`, says 3701 for what does not exist, and skips IF EXISTS
/// silently: no message, unlike PostgreSQL's notices.
#[test]
fn index_names_are_per_table_and_if_exists_is_silent() {
    let setup = "CREATE TABLE a (x int);\nCREATE TABLE b (x int);";
    let sql = "CREATE INDEX ix ON a (x);
CREATE INDEX ix ON b (x);
DROP INDEX ix ON a;
DROP INDEX ix ON a;
DROP INDEX IF EXISTS ix ON a;
DROP TABLE IF EXISTS nope;
DROP PROCEDURE IF EXISTS nope;
DROP TABLE nope;
CREATE INDEX ix ON b (x);";
    let sc = scenario_in(Dialect::TSql, setup, &[("A", 0, sql)]);
    let sim = run(&sc);
    assert_eq!(numbers(&sim, "A"), [3701, 3701, 1913]);
    assert_eq!(
        errors(&sim, "A")[0].1,
        "Cannot drop the index 'dbo.a.ix', because it does not exist or you do not have permission."
    );
    let trace = Simulation::new(&sc, 1).unwrap().run_traced().unwrap();
    let printed = (trace.entries.iter())
        .filter(|e| matches!(e.event, engine::Event::Printed { .. }))
        .count();
    assert_eq!(printed, 0);
}

/// SQL Server refuses a COALESCE of NULL constants alone as it compiles (Msg 4127: the
/// result would have no type), and the batch ends there, as at any compile error; one
/// typed argument is enough (`CAST(NULL AS int)`). PostgreSQL gives NULL. The
/// simulation gave NULL in both.
#[test]
fn coalesce_of_null_constants_is_refused() {
    let sim = run_one(
        "",
        "SELECT COALESCE(NULL, CAST(NULL AS int), 3);\nGO\nSELECT COALESCE(NULL, NULL);\nSELECT 1;\nGO\nSELECT 2;",
    );
    assert_eq!(numbers(&sim, "A"), [4127]);
    assert_eq!(row(&sim, "A", 0), ["3"]);
    assert_eq!(row(&sim, "A", 1), ["2"]);
}

/// SQL Server: TRY_CAST and TRY_CONVERT give NULL where the conversion fails (they were
/// "not simulated"), and still fail for an error computing the value; STUFF replaces
/// characters (NULL for a start outside the text); TRIM, LTRIM and RTRIM cut spaces
/// only, or the characters given (SQL Server 2022's second argument and `TRIM(chars
/// FROM s)`), where the simulation cut tabs as well and ignored the characters.
#[test]
fn try_cast_stuff_and_trim_as_sql_server_gives_them() {
    let sim = run_one(
        "",
        "SELECT TRY_CAST('x' AS int) AS bad, TRY_CAST('12' AS int) AS good, TRY_CONVERT(tinyint, 300) AS big, TRY_CONVERT(date, 'soon') AS d;
SELECT STUFF('abcdef', 2, 3, 'XY'), STUFF('abc', 5, 1, 'x'), STUFF('abc', 2, 9, NULL);
SELECT TRIM('  a  '), LTRIM('xxa', 'x'), RTRIM('a  '), TRIM('x' FROM 'xax'), LEN(LTRIM(CHAR(9) + 'a'));
SELECT ASCII('A'), UNICODE(N'ż'), CHAR(65), CHAR(300), NCHAR(380);
SELECT TRY_CAST(1 / 0 AS int);",
    );
    assert_eq!(row(&sim, "A", 0), ["NULL", "12", "NULL", "NULL"]);
    assert_eq!(row(&sim, "A", 1), ["aXYef", "NULL", "a"]);
    assert_eq!(row(&sim, "A", 2), ["a", "a", "a", "a", "2"]);
    assert_eq!(row(&sim, "A", 3), ["65", "380", "A", "NULL", "ż"]);
    assert_eq!(numbers(&sim, "A"), [8134]);
}

/// SQL Server refuses an aggregate in WHERE as it compiles (Msg 147), an UPDATE's or
/// DELETE's too, and the batch ends there; in a subquery it is allowed. The simulation
/// gave no rows.
#[test]
fn an_aggregate_in_where_is_refused() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY); INSERT t VALUES (1), (2);",
        "SELECT id FROM t WHERE id IN (SELECT MAX(id) FROM t);\nGO\nSELECT id FROM t WHERE COUNT(*) > 1;\nSELECT 1;\nGO\nDELETE FROM t WHERE MAX(id) > 1;\nGO\nSELECT COUNT(*) FROM t;",
    );
    assert_eq!(numbers(&sim, "A"), [147, 147]);
    assert_eq!(row(&sim, "A", 0), ["2"]);
    assert_eq!(row(&sim, "A", 1), ["2"]);
}

/// SQL Server: text past an int's range is Msg 248, past a smallint's 244 (`INT2`),
/// and TRY_CAST gives NULL for both; two smallints add up to a smallint, which
/// overflows (8115). The simulation called all of them 8115 and added to 32768.
#[test]
fn integer_overflows_are_numbered_as_sql_server_numbers_them() {
    let sim = run_one(
        "",
        "SELECT CAST('3000000000' AS int);\nSELECT CAST('99999' AS smallint);\nSELECT TRY_CAST('3000000000' AS int), TRY_CAST('99999' AS smallint);\nSELECT CAST(32767 AS smallint) + CAST(1 AS smallint);\nSELECT CAST(32767 AS smallint) + 1;",
    );
    assert_eq!(numbers(&sim, "A"), [248, 244, 8115]);
    assert_eq!(
        session_of(&sim, "A").errors[0].message,
        "The conversion of the varchar value '3000000000' overflowed an int column."
    );
    assert_eq!(row(&sim, "A", 0), ["NULL", "NULL"]);
    assert_eq!(row(&sim, "A", 1), ["32768"]);
}

/// SQL Server refuses a subquery used as a value with more than one column as it
/// compiles (Msg 116), and the batch ends there; the simulation took the first column.
#[test]
fn a_subquery_value_with_two_columns_is_refused() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY, v int); INSERT t VALUES (1, 10);",
        "SELECT (SELECT TOP (1) id, v FROM t);\nSELECT 1;\nGO\nSELECT id FROM t WHERE id IN (SELECT id, v FROM t);\nGO\nSELECT (SELECT TOP (1) v FROM t);",
    );
    assert_eq!(numbers(&sim, "A"), [116, 116]);
    assert_eq!(row(&sim, "A", 0), ["10"]);
}

/// SQL Server converts text sought in an int key to an int, and fails there when it is
/// none (Msg 245); the simulation's key seek found no row.
#[test]
fn text_sought_in_an_int_key_is_converted_or_fails() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY); INSERT t VALUES (1);",
        "SELECT id FROM t WHERE id = '1';\nSELECT id FROM t WHERE id = 'one';",
    );
    assert_eq!(numbers(&sim, "A"), [245]);
    assert_eq!(row(&sim, "A", 0), ["1"]);
}

/// SQL Server refuses SUM or AVG of text and MIN or MAX of a bit as it compiles (Msg
/// 8117, the batch ends); the simulation gave 0 and 1.
#[test]
fn an_aggregate_over_an_invalid_operand_type_is_refused() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY, name varchar(20), active bit); INSERT t VALUES (1, 'a', 1);",
        "SELECT SUM(name) FROM t;\nSELECT 1;\nGO\nSELECT MAX(active) FROM t;\nGO\nSELECT MAX(name), SUM(id) FROM t;",
    );
    assert_eq!(numbers(&sim, "A"), [8117, 8117]);
    let messages: Vec<String> = (session_of(&sim, "A").errors.iter())
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(
        messages,
        [
            "Operand data type varchar is invalid for sum operator.",
            "Operand data type bit is invalid for max operator."
        ]
    );
    assert_eq!(row(&sim, "A", 0), ["a", "1"]);
}

/// An error about a name the statement could not find points at the name, not at the
/// statement's first word: the table, the column, the qualifier.
#[test]
fn a_name_not_found_is_placed_at_the_name() {
    let setup = "CREATE TABLE task (id int PRIMARY KEY, status varchar(20), owner varchar(20));";
    let places = |sql: &str| -> Vec<(i64, u32, u32)> {
        let sim = run_one(setup, sql);
        let errors = session_of(&sim, "A").errors;
        (errors.iter())
            .map(|e| {
                let at = e.at.expect("placed");
                (e.number as i64, at.line, at.col)
            })
            .collect()
    };
    assert_eq!(
        places("BEGIN TRY\n  WITH next AS (\n    SELECT TOP (1) id\n    FROM dbo.tasks\n  )\n  UPDATE next SET id = 1;\nEND TRY BEGIN CATCH END CATCH"),
        [(208, 4, 10)]
    );
    assert_eq!(places("SELECT id,\n    stauts FROM task;"), [(207, 2, 5)]);
    assert_eq!(
        places("SELECT task.id FROM task\nWHERE x.id = 1;"),
        [(4104, 2, 7)]
    );
    // An undeclared variable fails the batch as it compiles, so it is a parse error
    // placed at the name (`a_variable_must_be_declared_earlier_in_the_batch`).
    // The names are bound with no row to read: a WHERE's, an UPDATE's values, HAVING.
    assert_eq!(
        places("SELECT id FROM task\nWHERE stauts = 'new';"),
        [(207, 2, 7)]
    );
    assert_eq!(
        places("SELECT COUNT(*) FROM task WHERE stauts = 'new';"),
        [(207, 1, 33)]
    );
    assert_eq!(
        places("DELETE FROM task WHERE stauts = 'new';"),
        [(207, 1, 24)]
    );
    assert_eq!(
        places("UPDATE task SET owner = ownr WHERE id = 1;"),
        [(207, 1, 25)]
    );
    assert_eq!(
        places("SELECT status FROM task GROUP BY status HAVING MAX(ownr) > 'a';"),
        [(207, 1, 52)]
    );
    assert_eq!(
        places("SELECT id AS x FROM task ORDER BY x, ownr;"),
        [(207, 1, 38)]
    );
}

/// A DECLARE in a loop runs on every turn, but SQL Server declares the variable once, as
/// the batch compiles: a turn's DECLARE without a value keeps the variable's value, and
/// one with a value assigns it again.
#[test]
fn a_declare_in_a_loop_keeps_its_variable() {
    let body = |decl: &str| {
        format!(
            "DECLARE @i int = 0, @s int = 0;\n\
             WHILE @i < 3 BEGIN\n\
               {decl}\n\
               SET @x = ISNULL(@x, 0) + 1;\n\
               SET @s += @x;\n\
               SET @i += 1;\n\
             END\n\
             SELECT @s;"
        )
    };
    let kept = run_one("", &body("DECLARE @x int;"));
    no_errors(&kept, "A");
    assert_eq!(row(&kept, "A", 0), ["6"], "1 + 2 + 3");
    let assigned = run_one("", &body("DECLARE @x int = 0;"));
    no_errors(&assigned, "A");
    assert_eq!(row(&assigned, "A", 0), ["3"], "1 + 1 + 1");
}

/// ORDER BY a name that two output columns of different values bear is Msg 209, placed
/// at the name, and ends the batch; a qualified name picks one.
#[test]
fn order_by_a_name_two_output_columns_bear_is_msg_209() {
    let setup = "CREATE TABLE a (id int, v int); CREATE TABLE b (id int, w int);
INSERT INTO a VALUES (1, 10), (2, 20); INSERT INTO b VALUES (1, 5), (2, 6);";
    let sim = run_one(
        setup,
        "SELECT a.id, b.id FROM a JOIN b ON a.id = b.id\nORDER BY id;\nGO\nSELECT a.id, b.id FROM a JOIN b ON a.id = b.id ORDER BY b.id DESC;",
    );
    let errors = session_of(&sim, "A").errors;
    let got: Vec<(u32, String, u32, u32)> = (errors.iter())
        .map(|e| {
            let at = e.at.expect("placed");
            (e.number, e.message.clone(), at.line, at.col)
        })
        .collect();
    assert_eq!(
        got,
        [(209, "Ambiguous column name 'id'.".to_string(), 2, 10)]
    );
    assert_eq!(texts(&sim, "A", 0), [["2", "2"], ["1", "1"]]);
}

/// Operands of UNION, INTERSECT or EXCEPT that return different numbers of columns are
/// Msg 205, with rows or without, and end the batch (they were a panic when an ORDER BY
/// read the shorter rows).
#[test]
fn set_operands_with_different_column_counts_are_msg_205() {
    let setup = "CREATE TABLE task (id int PRIMARY KEY, status varchar(20), rank tinyint NULL);
INSERT task VALUES (1, 'new', 1);";
    for sql in [
        "SELECT * FROM task UNION ALL SELECT CAST(-1 AS varchar(20)) ORDER BY rank;\nSELECT 1;",
        "SELECT id FROM task WHERE id > 5 EXCEPT SELECT 1, 2;\nSELECT 1;",
    ] {
        let sim = run_one(setup, sql);
        assert_eq!(numbers(&sim, "A"), [205], "{sql}");
        assert!(
            session_of(&sim, "A").results.is_empty(),
            "the batch ends: {sql}"
        );
    }
}

/// An int past a tinyint's or smallint's range is Msg 220 (state 2), naming the value;
/// a number past an int's is a numeric, whose overflow is 8115.
#[test]
fn an_int_too_big_for_a_small_type_is_msg_220() {
    let setup = "CREATE TABLE task (id int PRIMARY KEY, rank tinyint NULL);";
    let sim = run_one(
        setup,
        "BEGIN TRY DECLARE @t tinyint = 300; END TRY BEGIN CATCH SELECT ERROR_NUMBER(), ERROR_STATE(), ERROR_MESSAGE(); END CATCH;
BEGIN TRY DECLARE @s smallint; SET @s = -40000; END TRY BEGIN CATCH SELECT ERROR_NUMBER(), ERROR_STATE(), ERROR_MESSAGE(); END CATCH;
BEGIN TRY INSERT task VALUES (1, 256); END TRY BEGIN CATCH SELECT ERROR_NUMBER(), ERROR_STATE(), ERROR_MESSAGE(); END CATCH;
BEGIN TRY DECLARE @u tinyint = 2147483649; END TRY BEGIN CATCH SELECT ERROR_NUMBER(), ERROR_STATE(), ERROR_MESSAGE(); END CATCH;",
    );
    let got: Vec<Vec<String>> = (0..4).map(|k| row(&sim, "A", k)).collect();
    assert_eq!(
        got,
        [
            [
                "220",
                "2",
                "Arithmetic overflow error for data type tinyint, value = 300."
            ],
            [
                "220",
                "2",
                "Arithmetic overflow error for data type smallint, value = -40000."
            ],
            [
                "220",
                "2",
                "Arithmetic overflow error for data type tinyint, value = 256."
            ],
            [
                "8115",
                "2",
                "Arithmetic overflow error converting expression to data type tinyint."
            ],
        ]
    );
}

/// A value given for an identity column fails as the statement compiles (Msg 544) and
/// uses up no identity value; a constraint's failure uses one.
#[test]
fn an_explicit_identity_value_uses_up_no_identity() {
    let setup =
        "CREATE TABLE send (Id int IDENTITY(1,1) PRIMARY KEY, DocumentId int NOT NULL UNIQUE);";
    let sim = run_one(
        setup,
        "BEGIN TRY INSERT send (Id, DocumentId) VALUES (50, 1); END TRY BEGIN CATCH END CATCH;
INSERT send (DocumentId) VALUES (1);
SELECT SCOPE_IDENTITY();
BEGIN TRY INSERT send (DocumentId) VALUES (1); END TRY BEGIN CATCH END CATCH;
INSERT send (DocumentId) VALUES (2);
SELECT SCOPE_IDENTITY();",
    );
    assert_eq!(numbers(&sim, "A"), [544, 2627]);
    assert_eq!(row(&sim, "A", 0), ["1"]);
    assert_eq!(row(&sim, "A", 1), ["3"]);
}

/// ERROR_LINE() is the line of the statement that raised the error, counted from its
/// batch's first line (after a GO; in a procedure, from its CREATE's batch), and
/// ERROR_PROCEDURE() the procedure it ran in, schema-qualified as SQL Server 2017 and
/// later give it (NULL in a batch).
#[test]
fn error_line_and_procedure_say_where_the_error_was() {
    let setup = "CREATE TABLE task (id int PRIMARY KEY);\nGO\nCREATE PROCEDURE dbo.add_task @id int\nAS\nBEGIN\n    INSERT task VALUES (@id);\nEND";
    let sim = run_one(
        setup,
        "INSERT task VALUES (1);\nBEGIN TRY\n    INSERT task VALUES (1);\nEND TRY\nBEGIN CATCH\n    SELECT ERROR_NUMBER(), ERROR_LINE(), ERROR_PROCEDURE();\nEND CATCH;\nGO\nBEGIN TRY\n    EXEC dbo.add_task 1;\nEND TRY\nBEGIN CATCH\n    SELECT ERROR_NUMBER(), ERROR_LINE(), ERROR_PROCEDURE();\nEND CATCH;",
    );
    assert_eq!(row(&sim, "A", 0), ["2627", "3", "NULL"]);
    assert_eq!(row(&sim, "A", 1), ["2627", "4", "dbo.add_task"]);
}

/// TRUNCATE TABLE starts an identity column again from its seed (DELETE does not), and
/// a rolled-back TRUNCATE gives the counter back; IDENT_CURRENT is the last value
/// generated for the table, the seed when none has been since.
#[test]
fn truncate_restarts_the_identity_and_ident_current_reads_it() {
    let setup = "CREATE TABLE dbo.task (id int IDENTITY(10,5) PRIMARY KEY, v int);\nINSERT INTO dbo.task (v) VALUES (1), (2), (3);";
    let sim = run_one(
        setup,
        "SELECT IDENT_CURRENT('dbo.task'), IDENT_CURRENT('nope');
BEGIN TRAN; TRUNCATE TABLE dbo.task; ROLLBACK;
INSERT INTO dbo.task (v) VALUES (4);
SELECT MAX(id) FROM dbo.task;
TRUNCATE TABLE dbo.task;
SELECT IDENT_CURRENT('dbo.task');
INSERT INTO dbo.task (v) VALUES (9);
DELETE FROM dbo.task;
INSERT INTO dbo.task (v) VALUES (10);
SELECT id FROM dbo.task;
SELECT IDENT_CURRENT('task');",
    );
    no_errors(&sim, "A");
    assert_eq!(row(&sim, "A", 0), ["20", "NULL"]);
    assert_eq!(row(&sim, "A", 1), ["25"]);
    assert_eq!(row(&sim, "A", 2), ["10"]);
    assert_eq!(row(&sim, "A", 3), ["15"]);
    assert_eq!(row(&sim, "A", 4), ["15"]);
}

/// SQL Server: every statement that ends without an error sets @@ERROR to 0, an IF
/// that tests it included, so it must be read right after the statement it checks; a
/// statement that fails leaves @@ROWCOUNT at 0. (The simulation kept the last error
/// number until the next error, and the row count of the statement before.)
#[test]
fn error_and_rowcount_describe_the_statement_just_before() {
    let setup =
        "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, 10), (2, 20);";
    let sim = run_one(
        setup,
        "UPDATE t SET v = 0;\n\
         INSERT INTO t VALUES (1, 99);\n\
         SELECT @@ERROR AS e, @@ROWCOUNT AS rc;\n\
         INSERT INTO t VALUES (1, 99);\n\
         INSERT INTO t VALUES (3, 30);\n\
         SELECT @@ERROR AS e;\n\
         UPDATE t SET v = 1 / 0 WHERE id = 3;\n\
         IF @@ERROR <> 0 SELECT @@ERROR AS e_after_if;",
    );
    assert_eq!(row(&sim, "A", 0), ["2627", "0"]);
    assert_eq!(row(&sim, "A", 1), ["0"]);
    assert_eq!(row(&sim, "A", 2), ["0"]);
}

/// SQL Server compiles a batch before it runs any of it: a column that an existing table
/// lacks fails the whole batch with 207 at that column, and no statement before it
/// runs (the simulation ran them, and the UPDATE's scan left a lock it released). The
/// next batch runs; a table the batch itself creates is resolved when its statement
/// runs.
#[test]
fn a_missing_column_fails_the_whole_batch_before_it_runs() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, 10);";
    let sim = run_one(
        setup,
        "SELECT 'first' AS x;\nUPDATE t SET v = 1 WHERE nosuch = 3;\nSELECT 'after' AS x;\nGO\n\
         SELECT 'next batch' AS x;\nCREATE TABLE n (a int);\nSELECT b FROM n;",
    );
    let errors = session_of(&sim, "A").errors;
    let placed: Vec<(u32, u32, u32)> = (errors.iter())
        .map(|e| {
            (
                e.number,
                e.at.map_or(0, |a| a.line),
                e.at.map_or(0, |a| a.col),
            )
        })
        .collect();
    assert_eq!(placed, [(207, 2, 26), (207, 7, 8)]);
    assert_eq!(row(&sim, "A", 0), ["next batch"]);
    assert_eq!(session_of(&sim, "A").results.len(), 1, "one result");
}

/// A trigger runs with XACT_ABORT on: THROW in it ends the batch and rolls the whole
/// transaction back (caught by a TRY around the statement, it leaves the transaction
/// uncommittable, XACT_STATE() -1); ROLLBACK in it undoes the transaction, the firing
/// statement included, and ends the batch with 3609. (Both were "not simulated".)
#[test]
fn throw_and_rollback_in_a_trigger_end_the_transaction_and_the_batch() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nCREATE TABLE log (id int);\nGO\n\
                 CREATE TRIGGER tr_t ON t AFTER INSERT AS\nBEGIN\n\
                 INSERT INTO log SELECT id FROM inserted;\n\
                 IF EXISTS (SELECT 1 FROM inserted WHERE v < 0) THROW 50001, 'negative', 1;\n\
                 IF EXISTS (SELECT 1 FROM inserted WHERE v > 100) ROLLBACK;\nEND;";
    let counts = "SELECT @@TRANCOUNT, (SELECT COUNT(*) FROM t), (SELECT COUNT(*) FROM log);";
    let sim = run_one(
        setup,
        &format!(
            "BEGIN TRAN;\nINSERT INTO t VALUES (1, 10);\nINSERT INTO t VALUES (2, -1);\nSELECT 'x';\nGO\n\
             {counts}\nBEGIN TRAN;\nINSERT INTO t VALUES (3, 10);\nINSERT INTO t VALUES (4, 500);\n\
             SELECT 'x';\nGO\n{counts}\n\
             BEGIN TRY\n BEGIN TRAN;\n INSERT INTO t VALUES (5, -5);\nEND TRY\n\
             BEGIN CATCH\n SELECT ERROR_NUMBER(), XACT_STATE();\n ROLLBACK;\nEND CATCH;"
        ),
    );
    assert_eq!(numbers(&sim, "A"), [50001, 3609, 50001]);
    assert_eq!(row(&sim, "A", 0), ["0", "0", "0"]);
    assert_eq!(row(&sim, "A", 1), ["0", "0", "0"]);
    assert_eq!(row(&sim, "A", 2), ["50001", "-1"]);
}

/// The classic check in a trigger, `RAISERROR(...); ROLLBACK TRANSACTION; RETURN;`:
/// RAISERROR does not obey the trigger's XACT_ABORT, so its error (50000) is reported
/// and the trigger goes on; the ROLLBACK then undoes the statement and ends the batch
/// with 3609, and RETURN leaves the trigger. RAISERROR alone lets the statement stand
/// and the rest of the trigger run. (RAISERROR and RETURN in a trigger were "not
/// simulated".)
#[test]
fn raiserror_then_rollback_in_a_trigger_is_the_classic_check() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nCREATE TABLE log (id int);\nGO\n\
                 CREATE TRIGGER tr_t ON t AFTER INSERT AS\nBEGIN\n\
                 IF EXISTS (SELECT 1 FROM inserted WHERE v < 0)\n BEGIN\n\
                 RAISERROR('v must not be negative', 16, 1);\n ROLLBACK TRANSACTION;\n RETURN;\n END;\n\
                 IF EXISTS (SELECT 1 FROM inserted WHERE v > 100)\n\
                 RAISERROR('v is large', 16, 1);\n\
                 INSERT INTO log SELECT id FROM inserted;\nEND;";
    let counts = "SELECT @@TRANCOUNT, (SELECT COUNT(*) FROM t), (SELECT COUNT(*) FROM log);";
    let sim = run_one(
        setup,
        &format!(
            "INSERT INTO t VALUES (1, 10);\nINSERT INTO t VALUES (2, -1);\nSELECT 'not run';\nGO\n\
             {counts}\nBEGIN TRAN;\nINSERT INTO t VALUES (3, 10);\nINSERT INTO t VALUES (4, -4);\nGO\n\
             {counts}\nINSERT INTO t VALUES (5, 500);\nSELECT 'goes on';\nGO\n{counts}"
        ),
    );
    assert_eq!(numbers(&sim, "A"), [50000, 3609, 50000, 3609, 50000]);
    let messages: Vec<String> = errors(&sim, "A").into_iter().map(|(_, m)| m).collect();
    assert_eq!(messages[0], "v must not be negative");
    assert_eq!(row(&sim, "A", 0), ["0", "1", "1"]);
    assert_eq!(row(&sim, "A", 1), ["0", "1", "1"]);
    assert_eq!(row(&sim, "A", 2), ["goes on"]);
    assert_eq!(row(&sim, "A", 3), ["0", "2", "2"]);
}

/// SQL Server types COALESCE by its arguments' types, a NULL column's included: with
/// an int column, `'7'` is converted to int and `'x'` fails with 245.
#[test]
fn coalesce_of_a_null_int_column_and_text_is_an_int() {
    let setup = "CREATE TABLE t (id int PRIMARY KEY, v int);\nINSERT INTO t VALUES (1, NULL);";
    let sim = run_one(
        setup,
        "SELECT COALESCE(v, '7') + 1 FROM t;\nSELECT COALESCE(v, 'x') FROM t;",
    );
    assert_eq!(row(&sim, "A", 0), ["8"]);
    assert_eq!(
        errors(&sim, "A"),
        [(
            245,
            "Conversion failed when converting the varchar value 'x' to data type int.".to_string()
        )]
    );
}

/// The server has `sys.dm_tran_locks` and `INFORMATION_SCHEMA`: a teacher who reads the
/// locks through them is told "not simulated", not error 208 "Invalid object name",
/// which says their query is wrong. A table that does not exist is still 208.
#[test]
fn the_servers_system_views_are_not_simulated() {
    // One session each: "not simulated" ends its batch.
    let sim = run(&scenario(
        "CREATE TABLE t (id int PRIMARY KEY);",
        &[
            (
                "A",
                0,
                "SELECT resource_type, request_mode FROM sys.dm_tran_locks;",
            ),
            ("B", 0, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES;"),
            ("C", 0, "SELECT COUNT(*) FROM no_such_table;"),
        ],
    ));
    let messages: Vec<String> = sim
        .outcome()
        .sessions
        .iter()
        .flat_map(|s| s.errors.iter().map(|e| e.message.clone()))
        .collect();
    assert_eq!(
        messages,
        [
            "not simulated: the system view sys.dm_tran_locks (the state view shows sessions and locks)",
            "not simulated: the system view information_schema.tables (the state view shows sessions and locks)",
            "Invalid object name 'no_such_table'."
        ]
    );
}
