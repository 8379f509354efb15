//! Engine behaviour beyond the seeds' scenarios: deadlocks, lock timeouts, XACT_ABORT,
//! error scopes, schedules. Scenarios are built in code; traces are asserted as text.

use engine::{Dialect, Event, Scenario, SchedulePolicy, Simulation};

const ACCOUNTS: &str = "CREATE TABLE dbo.account (id int PRIMARY KEY, balance int NOT NULL);\nINSERT dbo.account VALUES (1, 100), (2, 100);";

fn scenario(setup: &str, sessions: &[(&str, u64, &str)]) -> Scenario {
    super::support::scenario_in(Dialect::TSql, setup, sessions)
}

fn run(sc: &Scenario, seed: u64) -> Simulation {
    run_traced(sc, seed).0
}

fn run_traced(sc: &Scenario, seed: u64) -> (Simulation, engine::Trace) {
    let mut sim = Simulation::new(sc, seed).unwrap_or_else(|e| panic!("{e:?}"));
    let trace = sim.run_traced().unwrap();
    (sim, trace)
}

/// Account `id`'s balance in the final state.
fn balance(sim: &mut Simulation, id: i64) -> engine::Value {
    let sql = format!("SELECT balance FROM dbo.account WHERE id = {id}");
    sim.query(&sql).unwrap().rows[0][0].clone()
}

fn errors(sim: &Simulation, name: &str) -> Vec<u32> {
    super::support::errors_of(sim, name)
        .into_iter()
        .map(|e| e.number)
        .collect()
}

#[test]
fn opposite_update_order_deadlocks_and_the_monitor_picks_a_victim_with_1205() {
    let sc = scenario(
        ACCOUNTS,
        &[
            ("A", 0, "BEGIN TRAN;\nUPDATE dbo.account SET balance = balance - 10 WHERE id = 1;\nWAITFOR DELAY '00:00:00.100';\nUPDATE dbo.account SET balance = balance + 10 WHERE id = 2;\nCOMMIT;"),
            ("B", 0, "BEGIN TRAN;\nUPDATE dbo.account SET balance = balance - 20 WHERE id = 2;\nWAITFOR DELAY '00:00:00.100';\nUPDATE dbo.account SET balance = balance + 20 WHERE id = 1;\nCOMMIT;"),
        ],
    );
    let (sim, trace) = run_traced(&sc, 1);
    let deadlock = trace
        .entries
        .iter()
        .find(|e| matches!(e.event, Event::Deadlock { .. }))
        .expect("a deadlock");
    // SQL Server's monitor wakes every 5 s: the cycle is found at 5 s, not at once.
    assert_eq!(deadlock.at_us, 5_000_000);
    // The trace says who waits for whom, round the cycle.
    let line = deadlock.event.to_string();
    assert!(
        line == "deadlock: A waits for B, B waits for A; B is chosen as the victim"
            || line == "deadlock: A waits for B, B waits for A; A is chosen as the victim"
            || line.starts_with("deadlock: B waits for A, A waits for B; "),
        "{line}"
    );
    let (a, b) = (errors(&sim, "A"), errors(&sim, "B"));
    assert_eq!(a.len() + b.len(), 1, "one victim: {a:?} {b:?}");
    assert!(a == [1205] || b == [1205]);
    // The survivor's transfer committed; the victim's was rolled back.
    let mut sim = sim;
    let total = sim.query("SELECT SUM(balance) FROM dbo.account").unwrap();
    assert_eq!(total.rows[0][0], engine::Value::Int(200));
}

/// After the monitor finds a deadlock, SQL Server's first couple of lock waits search at
/// once (semantics A8): a second deadlock that forms then is broken as it forms, not at
/// the monitor's next wake 5 s later. Once two waits have searched, the monitor's rhythm
/// is back.
#[test]
fn the_first_waits_after_a_deadlock_search_at_once() {
    let transfer = |a: u32, b: u32, n: u32| {
        format!(
            "BEGIN TRAN;\nUPDATE dbo.account SET balance = balance - {n} WHERE id = {a};\n\
             WAITFOR DELAY '00:00:00.100';\nUPDATE dbo.account SET balance = balance + {n} WHERE id = {b};\nCOMMIT;"
        )
    };
    let setup = "CREATE TABLE dbo.account (id int PRIMARY KEY, balance int NOT NULL);\n\
                 INSERT dbo.account VALUES (1, 100), (2, 100), (3, 100), (4, 100), (5, 100), (6, 100);";
    let (ab, ba) = (transfer(1, 2, 10), transfer(2, 1, 20));
    let (cd, dc) = (transfer(3, 4, 10), transfer(4, 3, 20));
    let (ef, fe) = (transfer(5, 6, 10), transfer(6, 5, 20));
    let sc = scenario(
        setup,
        &[
            ("A", 0, &ab),
            ("B", 0, &ba),
            ("C", 5_300_000, &cd),
            ("D", 5_300_000, &dc),
            // Two waits with no cycle use up the searches the second deadlock gave.
            ("G", 5_500_000, "BEGIN TRAN; UPDATE dbo.account SET balance = 0 WHERE id = 1; WAITFOR DELAY '00:00:00.200'; COMMIT;"),
            ("H", 5_550_000, "UPDATE dbo.account SET balance = 1 WHERE id = 1;"),
            ("I", 5_560_000, "UPDATE dbo.account SET balance = 2 WHERE id = 1;"),
            ("E", 6_000_000, &ef),
            ("F", 6_000_000, &fe),
        ],
    );
    let (_, trace) = run_traced(&sc, 1);
    let found: Vec<u64> = trace
        .entries
        .iter()
        .filter(|e| matches!(e.event, Event::Deadlock { .. }))
        .map(|e| e.at_us / 1000)
        .collect();
    // The first at the monitor's wake; the second as D's wait closes its cycle, at about
    // 5.4 s (C's wait and D's were the two searches); the third, after H's and I's waits,
    // at the monitor's next wake.
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0], 5_000);
    assert!((5_400..5_410).contains(&found[1]), "{found:?}");
    assert_eq!(found[2], 10_000, "{found:?}");
}

/// sp_getapplock's wait ends when its own @LockTimeout runs out: the trace names that,
/// not the session's LOCK_TIMEOUT, and the call returns -1 rather than failing.
#[test]
fn an_applock_wait_that_runs_out_names_its_lock_timeout() {
    let take = |timeout: u32| {
        format!(
            "BEGIN TRAN;\nDECLARE @r int;\nEXEC @r = sp_getapplock @Resource = 'doc', @LockMode = 'Exclusive', @LockTimeout = {timeout};\n\
             SELECT @r AS r;\nWAITFOR DELAY '00:00:01';\nCOMMIT;"
        )
    };
    let (a, b) = (take(0), take(300));
    let (_, trace) = run_traced(&scenario(ACCOUNTS, &[("A", 0, &a), ("B", 100_000, &b)]), 1);
    let text = trace.to_string();
    assert!(
        text.contains("B stops waiting for APP doc after 300 ms (@LockTimeout)"),
        "{text}"
    );
    assert!(text.contains("returns -1"), "{text}");
}

#[test]
fn lock_timeout_cancels_the_statement_with_1222_and_keeps_the_transaction() {
    let sc = scenario(
        ACCOUNTS,
        &[
            ("A", 0, "BEGIN TRAN;\nUPDATE dbo.account SET balance = 0 WHERE id = 1;\nWAITFOR DELAY '00:00:02';\nCOMMIT;"),
            ("B", 100_000, "SET LOCK_TIMEOUT 500;\nBEGIN TRAN;\nUPDATE dbo.account SET balance = 1 WHERE id = 2;\nUPDATE dbo.account SET balance = 1 WHERE id = 1;\nSELECT @@TRANCOUNT AS open_transactions;\nCOMMIT;"),
        ],
    );
    let sim = run(&sc, 1);
    assert_eq!(errors(&sim, "B"), [1222]);
    let b = sim
        .outcome()
        .sessions
        .into_iter()
        .find(|s| s.name == "B")
        .unwrap();
    assert_eq!(b.wait_us, 500_000);
    assert_eq!(
        b.results[0].rows[0][0],
        engine::Value::Int(1),
        "the transaction stays open after 1222"
    );
    let mut sim = sim;
    assert_eq!(
        balance(&mut sim, 2),
        engine::Value::Int(1),
        "B's first update committed"
    );
}

#[test]
fn xact_abort_turns_a_statement_error_into_a_rollback_of_the_transaction() {
    let body = "BEGIN TRAN;\nUPDATE dbo.account SET balance = 50 WHERE id = 1;\nINSERT dbo.account VALUES (2, 0);\nCOMMIT;";
    for (xact_abort, expected) in [(false, 50), (true, 100)] {
        let sql = format!(
            "SET XACT_ABORT {};\n{body}",
            if xact_abort { "ON" } else { "OFF" }
        );
        let mut sim = run(&scenario(ACCOUNTS, &[("A", 0, &sql)]), 1);
        assert_eq!(errors(&sim, "A"), [2627]);
        assert_eq!(
            balance(&mut sim, 1),
            engine::Value::Int(expected),
            "XACT_ABORT {xact_abort}"
        );
    }
}

#[test]
fn try_catch_sees_the_error_and_throw_rethrows_it_to_the_caller() {
    let sql = "BEGIN TRY\n    INSERT dbo.account VALUES (1, 0);\nEND TRY\nBEGIN CATCH\n    SELECT ERROR_NUMBER() AS n, ERROR_MESSAGE() AS m;\nEND CATCH;";
    let sim = run(&scenario(ACCOUNTS, &[("A", 0, sql)]), 1);
    let out = sim.outcome();
    let rs = &out.sessions[0].results[0];
    assert_eq!(rs.rows[0][0], engine::Value::Int(2627));
    let engine::Value::Text(m) = &rs.rows[0][1] else {
        panic!()
    };
    assert!(m.starts_with("Violation of PRIMARY KEY constraint"), "{m}");
}

/// A THROW that leaves a procedure hands its caller no return status: `EXEC @r = p`
/// fails as a statement, @r keeps its value, and the trace says the error left the
/// procedure rather than "returns ... with code 0".
#[test]
fn an_error_that_leaves_a_procedure_returns_no_status() {
    let setup = "CREATE PROCEDURE dbo.fails AS
BEGIN
    THROW 50001, 'The call failed', 1;
END;";
    let sql = "DECLARE @r int = 7;
BEGIN TRY
    EXEC @r = dbo.fails;
END TRY
BEGIN CATCH
    SELECT @r AS r, ERROR_NUMBER() AS n;
END CATCH;";
    let (sim, trace) = run_traced(&scenario(setup, &[("A", 0, sql)]), 1);
    let rs = &sim.outcome().sessions[0].results[0];
    assert_eq!(
        rs.rows[0],
        [engine::Value::Int(7), engine::Value::Int(50001)]
    );
    let lines: Vec<String> = trace.entries.iter().map(|e| e.event.to_string()).collect();
    assert!(
        lines.iter().any(|l| l == "A leaves fails on error 50001"),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("returns from")),
        "{lines:#?}"
    );
}

#[test]
fn a_scripted_schedule_replays_an_interleaving_and_differs_from_another() {
    let sc = scenario(
        "CREATE TABLE dbo.t (id int PRIMARY KEY, v int);\nINSERT dbo.t VALUES (1, 0);",
        &[
            ("A", 0, "UPDATE dbo.t SET v = 1 WHERE id = 1;"),
            ("B", 0, "UPDATE dbo.t SET v = 2 WHERE id = 1;"),
        ],
    );
    let final_v = |order: Vec<usize>| {
        let mut sim = Simulation::new(&sc, 1)
            .unwrap()
            .with_schedule(SchedulePolicy::Scripted(order));
        let trace = sim.run_traced().unwrap();
        let v = sim.query("SELECT v FROM dbo.t").unwrap().rows[0][0].clone();
        (v, trace.to_string())
    };
    let (a_first, t1) = final_v(vec![0, 1, 0, 1]);
    let (b_first, t2) = final_v(vec![1, 0, 1, 0]);
    assert_eq!(
        a_first,
        engine::Value::Int(2),
        "A then B: B's write is last"
    );
    assert_eq!(b_first, engine::Value::Int(1));
    assert_ne!(t1, t2);
    assert_eq!(
        final_v(vec![0, 1, 0, 1]).1,
        t1,
        "a scripted schedule replays exactly"
    );
}

#[test]
fn malformed_sql_gets_a_located_error_and_unsupported_sql_says_not_simulated() {
    let cases = [
        (
            "SELECT TOP (1) id FROM dbo.task WITH (UPDLOCK; READPAST, ROWLOCK)",
            "1:46: found ';', expected one of: ',', a table hint, ')'",
        ),
        (
            "MERGE dbo.t AS t USING dbo.s AS s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE;",
            "1:50: not simulated: WHEN NOT MATCHED BY SOURCE",
        ),
        ("SELECT 'unterminated", "1:8: unterminated string literal"),
    ];
    for (sql, expected) in cases {
        let sc = scenario("", &[("A", 0, sql)]);
        let e = Simulation::new(&sc, 1).err().expect("an error");
        assert_eq!(format!("{}:{}: {}", e.line, e.col, e.message), expected);
    }
    // A run-time reference to a missing table is SQL Server's error 208, not a panic.
    let sim = run(&scenario("", &[("A", 0, "SELECT * FROM dbo.nowhere;")]), 1);
    assert_eq!(errors(&sim, "A"), [208]);
}

#[test]
fn session_application_locks_end_with_the_session_and_applock_test_reports_them() {
    let sc = scenario(
        "",
        &[
            ("A", 0, "EXEC sp_getapplock @Resource = 'job', @LockMode = 'Exclusive', @LockOwner = 'Session';\nWAITFOR DELAY '00:00:01';"),
            (
                "B",
                500_000,
                "SELECT APPLOCK_TEST('public', 'job', 'Exclusive', 'Session') AS free_now;\nDECLARE @r int;\nEXEC @r = sp_getapplock @Resource = 'job', @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 5000;\nSELECT @r AS result, APPLOCK_MODE('public', 'job', 'Session') AS mode;",
            ),
        ],
    );
    let sim = run(&sc, 1);
    let out = sim.outcome();
    let b = out.sessions.iter().find(|s| s.name == "B").unwrap();
    assert_eq!(
        b.results[0].rows[0][0],
        engine::Value::Int(0),
        "A holds it at 500 ms"
    );
    // A never released it: its session ending at ~1 s did, so B waited about 500 ms.
    assert_eq!(
        b.results[1].rows[0],
        [
            engine::Value::Int(1),
            engine::Value::Text("Exclusive".into())
        ]
    );
    assert!((495_000..=510_000).contains(&b.wait_us), "{}", b.wait_us);
    // A transaction-owned application lock needs a transaction: -999 and a message.
    let (sim, trace) = run_traced(
        &scenario(
            "",
            &[(
                "A",
                0,
                "DECLARE @r int;\nEXEC @r = sp_getapplock 'x', 'Shared';\nSELECT @r;",
            )],
        ),
        1,
    );
    assert_eq!(
        sim.outcome().sessions[0].results[0].rows[0][0],
        engine::Value::Int(-999)
    );
    assert!(trace.to_string().contains("without an active transaction"));
}

/// Logical reads of the last clustered read in a trace.
fn last_reads(trace: &engine::Trace) -> u64 {
    trace
        .entries
        .iter()
        .rev()
        .find_map(|e| match e.event {
            Event::RowsRead { logical_reads, .. } => Some(logical_reads),
            _ => None,
        })
        .expect("a read")
}

#[test]
fn pages_count_rows_sized_as_written_and_deleted_rows_as_gone() {
    // Rows are sized when written (setup's 400, then an UPDATE that grows 60 of them),
    // deleted rows when the pages are next counted: the scan after them reads the pages
    // of the rows left, as a table that only ever held those rows does.
    let fill = |ids: &str| {
        format!(
            "CREATE TABLE dbo.t (id int PRIMARY KEY, pad varchar(900) NOT NULL);\nDECLARE @n int = 0;\nWHILE @n < 400\nBEGIN\n    SET @n += 1;\n    IF {ids} INSERT dbo.t VALUES (@n, REPLICATE('x', 300));\nEND\nUPDATE dbo.t SET pad = REPLICATE('y', 800) WHERE id % 5 = 0 AND id <= 300;"
        )
    };
    let scan = "SELECT COUNT(*) FROM dbo.t WHERE pad <> '';";
    let (_, deleted) = run_traced(
        &scenario(
            &fill("1 = 1"),
            &[("A", 0, &format!("DELETE dbo.t WHERE id % 2 = 0;\n{scan}"))],
        ),
        1,
    );
    let (_, kept) = run_traced(&scenario(&fill("@n % 2 = 1"), &[("A", 0, scan)]), 1);
    let (_, all) = run_traced(&scenario(&fill("1 = 1"), &[("A", 0, scan)]), 1);
    assert_eq!(last_reads(&deleted), last_reads(&kept));
    // 340 rows of 313 bytes with their slots and 60 of 813 fill 20 leaf pages, under a
    // root; the 200 odd rows (30 of them grown) fill 10.
    assert_eq!(last_reads(&all), 21);
    assert_eq!(last_reads(&kept), 11);
}

#[test]
fn queries_outside_a_run_filter_aggregates_in_the_scan_with_the_same_answers() {
    // Setup and queries on the final state apply an aggregate's WHERE while scanning;
    // a traced session still reads every row first. Both give the same answers.
    let setup = "CREATE TABLE dbo.t (id int PRIMARY KEY, status varchar(10) NOT NULL, n int NULL);\nDECLARE @i int = 0;\nWHILE @i < 50\nBEGIN\n    SET @i += 1;\n    INSERT dbo.t VALUES (@i, CASE WHEN @i % 3 = 0 THEN 'done' ELSE 'new' END, NULLIF(@i % 4, 0));\nEND\nIF (SELECT COUNT(*) FROM dbo.t WHERE status = 'new') <> 34 THROW 50000, 'setup counted wrong', 1;";
    let queries = [
        (
            "SELECT COUNT(*) FROM dbo.t WHERE status = 'new'",
            vec![vec![engine::Value::Int(34)]],
        ),
        (
            "SELECT status, COUNT(n) FROM dbo.t WHERE id > 10 GROUP BY status ORDER BY status",
            vec![
                vec![engine::Value::Text("done".into()), engine::Value::Int(9)],
                vec![engine::Value::Text("new".into()), engine::Value::Int(21)],
            ],
        ),
        (
            "SELECT DISTINCT n FROM dbo.t WHERE id <= 8 AND n IS NOT NULL ORDER BY n",
            vec![
                vec![engine::Value::Int(1)],
                vec![engine::Value::Int(2)],
                vec![engine::Value::Int(3)],
            ],
        ),
    ];
    let session: String = queries.iter().map(|(q, _)| format!("{q};\n")).collect();
    let mut sim = run(&scenario(setup, &[("A", 0, &session)]), 1);
    let traced = sim.outcome().sessions[0].results.clone();
    for (k, (q, want)) in queries.iter().enumerate() {
        assert_eq!(&sim.query(q).unwrap().rows, want, "{q}");
        assert_eq!(&traced[k].rows, want, "{q} in a session");
    }
}

/// With XACT_ABORT ON an error inside TRY leaves the transaction uncommittable, not
/// rolled back: in the CATCH XACT_STATE() is -1, a write or COMMIT fails with 3930, and
/// the locks stay until ROLLBACK (B waits for them). A batch that ends with it still
/// uncommittable rolls it back with 3998.
#[test]
fn xact_abort_in_try_leaves_the_transaction_uncommittable_until_rollback() {
    let a = "SET XACT_ABORT ON;\n\
             BEGIN TRY\n\
                 BEGIN TRAN;\n\
                 UPDATE dbo.account SET balance = 50 WHERE id = 1;\n\
                 INSERT dbo.account VALUES (2, 0);\n\
                 COMMIT;\n\
             END TRY\n\
             BEGIN CATCH\n\
                 SELECT XACT_STATE() AS xs, @@TRANCOUNT AS tc;\n\
                 WAITFOR DELAY '00:00:01';\n\
                 IF XACT_STATE() = -1 ROLLBACK;\n\
                 SELECT XACT_STATE() AS xs;\n\
             END CATCH;";
    let b = "SELECT balance FROM dbo.account WHERE id = 1;";
    let sim = run(&scenario(ACCOUNTS, &[("A", 0, a), ("B", 200_000, b)]), 1);
    let out = sim.outcome();
    assert_eq!(
        out.sessions[0].results[0].rows[0],
        [engine::Value::Int(-1), engine::Value::Int(1)]
    );
    assert_eq!(out.sessions[0].results[1].rows[0], [engine::Value::Int(0)]);
    // B read the row only after A's ROLLBACK, and saw it as it was.
    assert!(
        out.sessions[1].wait_us > 500_000,
        "B waited {} µs",
        out.sessions[1].wait_us
    );
    assert_eq!(
        out.sessions[1].results[0].rows[0],
        [engine::Value::Int(100)]
    );

    let commit = "SET XACT_ABORT ON;\n\
                  BEGIN TRY\n\
                      BEGIN TRAN;\n\
                      UPDATE dbo.account SET balance = 50 WHERE id = 1;\n\
                      INSERT dbo.account VALUES (2, 0);\n\
                  END TRY\n\
                  BEGIN CATCH\n\
                      BEGIN TRY\n\
                          COMMIT;\n\
                      END TRY\n\
                      BEGIN CATCH\n\
                          SELECT ERROR_NUMBER() AS n;\n\
                      END CATCH;\n\
                  END CATCH;";
    let mut sim = run(&scenario(ACCOUNTS, &[("A", 0, commit)]), 1);
    let out = sim.outcome();
    assert_eq!(
        out.sessions[0].results[0].rows[0],
        [engine::Value::Int(3930)]
    );
    assert_eq!(errors(&sim, "A"), [2627, 3930, 3998]);
    assert_eq!(
        balance(&mut sim, 1),
        engine::Value::Int(100),
        "rolled back at the batch's end"
    );
}

/// Under XACT_ABORT ON, THROW ends the transaction whatever its number (50000 included)
/// and RAISERROR never does, whatever its number.
#[test]
fn xact_abort_applies_to_throw_of_any_number_and_never_to_raiserror() {
    for (raise, rolled_back) in [
        ("THROW 50000, 'no', 1;", true),
        ("THROW 50001, 'no', 1;", true),
        ("RAISERROR('no', 16, 1);", false),
    ] {
        let sql = format!(
            "SET XACT_ABORT ON;\nBEGIN TRAN;\nUPDATE dbo.account SET balance = 50 WHERE id = 1;\n{raise}\nGO\nSELECT @@TRANCOUNT AS tc;\nIF @@TRANCOUNT > 0 COMMIT;"
        );
        let mut sim = run(&scenario(ACCOUNTS, &[("A", 0, &sql)]), 1);
        // The next batch finds the transaction still open unless the error ended it.
        let tc = sim.outcome().sessions[0].results[0].rows[0][0].clone();
        assert_eq!(tc, engine::Value::Int(i64::from(!rolled_back)), "{raise}");
        let expected = if rolled_back { 100 } else { 50 };
        assert_eq!(
            balance(&mut sim, 1),
            engine::Value::Int(expected),
            "{raise}"
        );
    }
}

/// Two sessions, 30 µs apart, each running `<prefix> BEGIN TRAN; IF NOT EXISTS (SELECT
/// 1 FROM <table> <hint> WHERE <find>) <insert>; WAITFOR 1 s; COMMIT`: A's and B's
/// error numbers, the rows `find` finds at the end, and the trace.
fn guard_race(
    setup: &str,
    prefix: &str,
    table: &str,
    find: &str,
    insert: &str,
    hint: &str,
) -> (Vec<u32>, Vec<u32>, engine::Value, String) {
    let script = format!(
        "{prefix}BEGIN TRAN;\n\
         IF NOT EXISTS (SELECT 1 FROM {table} {hint} WHERE {find})\n\
             {insert};\n\
         WAITFOR DELAY '00:00:01';\n\
         COMMIT;"
    );
    let (sim, trace) = run_traced(
        &scenario(setup, &[("A", 0, &script), ("B", 30, &script)]),
        1,
    );
    let count = sim
        .clone()
        .query(&format!("SELECT COUNT(*) FROM {table} WHERE {find}"))
        .unwrap()
        .rows[0][0]
        .clone();
    (
        errors(&sim, "A"),
        errors(&sim, "B"),
        count,
        trace.to_string(),
    )
}

/// The "insert if missing" guard under SERIALIZABLE, found by the clustered key (a seek
/// that finds no row keeps the key range it would go in locked: past the last key, the
/// end of the index) and by another column (a scan to the end of the clustered index
/// keeps the end locked), and an INSERT tests the range, as SQL Server's key-range locks
/// do. With UPDLOCK, HOLDLOCK the second session waits,
/// then finds the first's row and inserts nothing; with HOLDLOCK alone both hold S and
/// each INSERT waits for the other: a deadlock, one victim (1205); without a hint the
/// read keeps nothing and the second INSERT fails on the unique key.
#[test]
fn a_serializable_guard_keeps_the_missing_row_out() {
    let send = "CREATE TABLE dbo.send (Id int IDENTITY(1,1) PRIMARY KEY, DocumentId int NOT NULL, Status varchar(20) NOT NULL);\n\
                CREATE UNIQUE INDEX UX_send ON dbo.send (DocumentId) WHERE Status = 'IN_PROGRESS';";
    // (setup, table, find, insert, the wait with UPDLOCK, the deadlock's wait, the
    // error without a hint)
    let cases = [
        (
            ACCOUNTS,
            "dbo.account",
            "id = 3",
            "INSERT dbo.account VALUES (3, 0)",
            "B waits for RangeS-U on KEY account (end of index): A holds RangeS-U",
            "waits for RangeI-N on KEY account (end of index)",
            2627,
        ),
        (
            send,
            "dbo.send",
            "DocumentId = 3",
            "INSERT dbo.send (DocumentId, Status) VALUES (3, 'IN_PROGRESS')",
            "B waits for RangeS-U on KEY send (end of index): A holds RangeS-U",
            "waits for RangeI-N on KEY send (end of index)",
            2601,
        ),
    ];
    let one = engine::Value::Int(1);
    for (setup, table, find, insert, wait, deadlock_wait, duplicate) in cases {
        let race = |prefix: &str, hint: &str| guard_race(setup, prefix, table, find, insert, hint);

        let (a, b, count, text) = race("", "WITH (UPDLOCK, HOLDLOCK)");
        assert_eq!((a, b, &count), (vec![], vec![], &one), "{text}");
        assert!(text.contains(wait), "{text}");

        let (a, b, count, text) = race("", "WITH (HOLDLOCK)");
        assert_eq!(([a, b].concat(), &count), (vec![1205], &one), "{text}");
        assert!(text.contains(deadlock_wait), "{text}");

        // The session's SERIALIZABLE reads as HOLDLOCK does: the same deadlock.
        let (a, b, _, text) = race("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;\n", "");
        assert_eq!([a, b].concat(), [1205], "{text}");

        let (a, b, count, text) = race("", "");
        assert_eq!((a, b, &count), (vec![], vec![duplicate], &one), "{text}");
    }
}

/// A procedure that returns with another @@TRANCOUNT than it began with raises 266 in
/// its caller (a message: nothing is rolled back, XACT_ABORT or not), and a TRY around
/// the EXEC catches it. A procedure that commits what it began raises nothing.
#[test]
fn a_procedure_that_changes_trancount_raises_266_and_changes_nothing_else() {
    let setup = format!(
        "{ACCOUNTS}\nGO\n\
         CREATE PROCEDURE dbo.open_only AS\n\
         BEGIN TRAN;\n\
         UPDATE dbo.account SET balance = 50 WHERE id = 1;\n\
         GO\n\
         CREATE PROCEDURE dbo.undo AS\n\
         ROLLBACK;\n\
         GO\n\
         CREATE PROCEDURE dbo.balanced AS\n\
         BEGIN TRAN;\n\
         UPDATE dbo.account SET balance = 70 WHERE id = 2;\n\
         COMMIT;"
    );
    let a = "SET XACT_ABORT ON;\n\
             EXEC dbo.open_only;\n\
             SELECT @@TRANCOUNT AS tc;\n\
             COMMIT;\n\
             BEGIN TRAN;\n\
             BEGIN TRY\n\
                 EXEC dbo.undo;\n\
             END TRY\n\
             BEGIN CATCH\n\
                 SELECT ERROR_NUMBER() AS n, @@TRANCOUNT AS tc;\n\
             END CATCH;\n\
             EXEC dbo.balanced;";
    let mut sim = run(&scenario(&setup, &[("A", 0, a)]), 1);
    let out = sim.outcome();
    assert_eq!(errors(&sim, "A"), [266, 266]);
    let first = &out.sessions[0].errors[0];
    assert_eq!(
        first.message,
        "Transaction count after EXECUTE indicates a mismatching number of BEGIN and COMMIT statements. Previous count = 0, current count = 1."
    );
    // The transaction the procedure left open is still open after the 266, and the
    // caller's COMMIT keeps its update.
    assert_eq!(out.sessions[0].results[0].rows[0], [engine::Value::Int(1)]);
    assert_eq!(
        out.sessions[0].results[1].rows[0],
        [engine::Value::Int(266), engine::Value::Int(0)]
    );
    assert_eq!(balance(&mut sim, 1), engine::Value::Int(50));
    assert_eq!(balance(&mut sim, 2), engine::Value::Int(70));
}

/// "commits and releases 3 lock(s), 2 of them on tables or pages": the locks a commit
/// or rollback counts, less its intent locks, are the release lines that follow it, in
/// every lesson's default run and with each toggle flipped.
#[test]
fn a_commit_counts_the_locks_its_release_lines_list() {
    for l in crate::explorable::lessons() {
        let mut settings = vec![l.settings_default()];
        for t in &l.toggles {
            for v in &t.values {
                if let Ok(s) = l.settings_with([(t.name.as_str(), v.as_str())]) {
                    settings.push(s);
                }
            }
        }
        for s in settings {
            let r = lockstep_lesson::run(&l.apply(&s).unwrap(), l.seed).unwrap();
            let events = &r.trace.entries;
            for (k, e) in events.iter().enumerate() {
                let (session, all, intent) = match &e.event {
                    Event::TransactionCommitted {
                        session,
                        locks_released,
                        intent_locks,
                        ..
                    }
                    | Event::TransactionRolledBack {
                        session,
                        locks_released,
                        intent_locks,
                        ..
                    } => (session, *locks_released, *intent_locks),
                    _ => continue,
                };
                let listed = events[k + 1..]
                    .iter()
                    .take_while(|e| matches!(&e.event, Event::LockReleased { session: s, .. } if s == session))
                    .count();
                assert_eq!(listed, all - intent, "{} {s:?}: {}", l.id, e.event);
            }
        }
    }
}

/// A statement that waited for a slow log flush says so (the claim race's workers
/// commit often enough to meet a stall), and setup's flushes are over when the sessions
/// start: queue-filtered-index's 20 040 setup commits, which take no virtual time, used
/// to leave the log stalled for up to 40 ms, so its one-row claim took about 40 ms on
/// every seed.
#[test]
fn a_statement_slowed_by_the_log_flush_says_so() {
    let lessons = crate::explorable::lessons();
    let find = |id: &str| lessons.iter().find(|l| l.id == id).unwrap();
    let finished = |l: &lockstep_lesson::Lesson, seed: u64| {
        let r = lockstep_lesson::run(&l.apply(&l.settings_default()).unwrap(), seed).unwrap();
        r.trace
            .entries
            .iter()
            .filter_map(|e| match &e.event {
                Event::StatementFinished {
                    cost_us,
                    flush_wait_us,
                    ..
                } => Some((e.event.to_string(), *cost_us, *flush_wait_us)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let race = find("queue-claim-race");
    let (line, cost, flush) = finished(race, race.seed)
        .into_iter()
        .find(|(_, _, flush)| *flush > 0)
        .expect("no statement of the claim race waited for the log");
    assert!(flush <= cost, "{line}");
    assert!(
        line.ends_with(" of it waiting for a slow log flush)"),
        "{line}"
    );
    let filtered = find("queue-filtered-index");
    for seed in 1..=8 {
        for (line, cost, flush) in finished(filtered, seed) {
            assert!(flush == 0 && cost < 1_000, "seed {seed}: {line}");
        }
    }
}

/// Teradata locks a database, a table or a row hash, never a page: no Teradata lesson,
/// under any setting, takes a lock on a page or counts one at commit.
#[test]
fn teradata_takes_no_page_locks() {
    let lessons: Vec<_> = crate::explorable::lessons()
        .into_iter()
        .filter(|l| l.dialect == Dialect::Teradata)
        .collect();
    assert!(!lessons.is_empty());
    for l in lessons {
        for settings in l.all_combinations().settings {
            let report = lockstep_lesson::run(&l.apply(&settings).unwrap(), l.seed).unwrap();
            for e in &report.trace.entries {
                let line = e.event.to_string();
                let resource = match &e.event {
                    Event::LockGranted { resource, .. } | Event::LockWaiting { resource, .. } => {
                        resource.to_string()
                    }
                    _ => String::new(),
                };
                assert!(
                    !line.contains("or page") && !resource.starts_with("PAGE"),
                    "{} {settings}: a page in `{line}`",
                    l.id
                );
            }
        }
    }
}

/// A key that a SERIALIZABLE seek did not find locks the range below the next key in
/// the index (SQL Server's RangeS-U on that key): another session's insert of any key
/// in that range waits until the reader commits, an insert into another range does not,
/// and two inserts into the range do not wait for each other (RangeI-N is compatible
/// with RangeI-N and released once tested).
#[test]
fn a_missing_key_locks_the_range_below_the_next_key() {
    let setup = "CREATE TABLE dbo.account (id int PRIMARY KEY, balance int NOT NULL);\n\
                 INSERT dbo.account VALUES (1, 100), (5, 100);";
    let reader = "BEGIN TRAN;\n\
                  SELECT id FROM dbo.account WITH (UPDLOCK, HOLDLOCK) WHERE id = 3;\n\
                  WAITFOR DELAY '00:00:01';\n\
                  COMMIT;";
    let (sim, trace) = run_traced(
        &scenario(
            setup,
            &[
                ("A", 0, reader),
                ("B", 100, "BEGIN TRAN; INSERT dbo.account VALUES (4, 0); WAITFOR DELAY '00:00:01'; COMMIT;"),
                ("C", 100, "INSERT dbo.account VALUES (7, 0);"),
                ("D", 200, "INSERT dbo.account VALUES (2, 0);"),
            ],
        ),
        1,
    );
    let text = trace.to_string();
    assert!(
        text.contains("A gets RangeS-U on KEY account (range below 5)"),
        "{text}"
    );
    assert!(
        text.contains("B waits for RangeI-N on KEY account (range below 5): A holds RangeS-U"),
        "{text}"
    );
    assert!(!text.contains("C waits"), "{text}");
    let waited = |name: &str| {
        let o = sim.outcome();
        o.sessions.iter().find(|s| s.name == name).unwrap().wait_us / 1000
    };
    assert!((990..=1010).contains(&waited("B")), "{}", waited("B"));
    assert!((990..=1010).contains(&waited("D")), "{}", waited("D"));
    assert_eq!(waited("C"), 0);
    assert!(
        text.contains(
            "B releases RangeI-N on KEY account (range below 5) at the end of the statement"
        ),
        "{text}"
    );
    assert_eq!(errors(&sim, "B"), Vec::<u32>::new());
    assert_eq!(errors(&sim, "D"), Vec::<u32>::new());
}

/// `SELECT ... WITH (TABLOCKX)` holds an exclusive table lock to the end of its
/// transaction (it used to take it for the statement only, so nothing waited): a plain
/// read waits (a zero LOCK_TIMEOUT gets 1222), READPAST waits too (it skips rows, not a
/// table lock), NOLOCK reads at once.
#[test]
fn a_select_with_tablockx_holds_the_table_to_the_end_of_its_transaction() {
    let a = "BEGIN TRAN;\nSELECT COUNT(*) FROM dbo.account WITH (TABLOCKX);\n\
             WAITFOR DELAY '00:00:01';\nCOMMIT;";
    let (sim, text) = super::support::run_traced(&scenario(
        ACCOUNTS,
        &[
            ("A", 0, a),
            (
                "B",
                100_000,
                "SELECT COUNT(*) FROM dbo.account WITH (NOLOCK);",
            ),
            (
                "C",
                100_000,
                "SELECT COUNT(*) FROM dbo.account WITH (READPAST);",
            ),
            (
                "D",
                100_000,
                "SET LOCK_TIMEOUT 0;\nSELECT COUNT(*) FROM dbo.account;",
            ),
        ],
    ));
    assert!(text.contains("A gets X on OBJECT account"), "{text}");
    assert_eq!(super::support::waited_ms(&sim, "B"), 0, "{text}");
    assert!(
        (899..=901).contains(&super::support::waited_ms(&sim, "C")),
        "{text}"
    );
    assert_eq!(errors(&sim, "D"), vec![1222], "{text}");
}

#[test]
fn a_lost_update_shows_the_value_written_over_the_same_value() {
    // Both read 100 before either writes: B writes 90 over A's 90, and the trace says so
    // (a SET column is shown though its value stays; a column the SET leaves is not).
    let sc = scenario(
        ACCOUNTS,
        &[
            ("A", 0, "DECLARE @b int;\nSELECT @b = balance FROM dbo.account WHERE id = 1;\nWAITFOR DELAY '00:00:00.100';\nUPDATE dbo.account SET balance = @b - 10 WHERE id = 1;"),
            ("B", 50_000, "DECLARE @b int;\nSELECT @b = balance FROM dbo.account WHERE id = 1;\nWAITFOR DELAY '00:00:00.100';\nUPDATE dbo.account SET balance = @b - 10 WHERE id = 1;"),
        ],
    );
    let (mut sim, trace) = run_traced(&sc, 1);
    let updates: Vec<String> = trace
        .to_string()
        .lines()
        .filter(|l| l.contains(" updates "))
        .map(|l| l.split_once(" ms  ").map_or(l, |(_, e)| e).to_string())
        .collect();
    assert_eq!(
        updates,
        [
            "A updates account (1): balance 100 -> 90",
            "B updates account (1): balance 90 -> 90"
        ]
    );
    assert_eq!(balance(&mut sim, 1), engine::Value::Int(90));
}

/// Lock escalation (semantics A4): a statement that holds 5 000 row and page locks on
/// one table trades them for one table lock, so a reader of a row it never touched
/// waits for its commit. 4 000 rows stay row locks and block nobody else; a READ
/// COMMITTED read lets its locks go as it moves on and never escalates; a REPEATABLE
/// READ read of 6 000 rows escalates to S, which other readers share and a writer waits
/// for.
#[test]
fn a_statement_holding_5000_row_locks_escalates_to_a_table_lock() {
    let setup = "CREATE TABLE t (id int IDENTITY(1,1) PRIMARY KEY, v int NOT NULL);\n\
        DECLARE @i int = 0;\n\
        WHILE @i < 8000 BEGIN INSERT INTO t (v) VALUES (@i); SET @i += 1; END;";
    let race = |a: &str, b: &str| {
        let a = format!("BEGIN TRAN;\n{a}\nWAITFOR DELAY '00:00:02';\nCOMMIT;");
        let (sim, trace) = run_traced(&scenario(setup, &[("A", 0, &a), ("B", 500_000, b)]), 1);
        let escalations: Vec<String> = trace
            .entries
            .iter()
            .filter(|e| matches!(e.event, Event::LockEscalated { .. }))
            .map(|e| e.event.to_string())
            .collect();
        let s = sim.outcome().sessions;
        let b = s.iter().find(|s| s.name == "B").unwrap();
        (escalations, b.wait_us / 1000)
    };
    let (escalated, waited) = race(
        "UPDATE t SET v = v + 1 WHERE id <= 7000;",
        "SELECT v FROM t WHERE id = 7950;",
    );
    assert_eq!(escalated.len(), 1, "{escalated:?}");
    assert!(
        escalated[0].starts_with("A escalates to X on OBJECT t: its 5000 row and page lock(s)"),
        "{escalated:?}"
    );
    assert!((1_500..1_600).contains(&waited), "B waited {waited} ms");
    let (escalated, waited) = race(
        "UPDATE t SET v = v + 1 WHERE id <= 4000;",
        "SELECT v FROM t WHERE id = 7950;",
    );
    assert_eq!((escalated.len(), waited), (0, 0));
    let (escalated, waited) = race(
        "SELECT COUNT(*) FROM t WHERE v >= 0;",
        "UPDATE t SET v = 0 WHERE id = 7950;",
    );
    assert_eq!((escalated.len(), waited), (0, 0));
    let a = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ;\nSELECT COUNT(*) FROM t WHERE id <= 6000;";
    let (escalated, waited) = race(a, "SELECT v FROM t WHERE id = 7950;");
    assert_eq!(escalated.len(), 1, "{escalated:?}");
    assert!(
        escalated[0].starts_with("A escalates to S on OBJECT t"),
        "{escalated:?}"
    );
    assert_eq!(waited, 0);
    let (_, waited) = race(a, "UPDATE t SET v = 0 WHERE id = 7950;");
    assert!((1_500..1_600).contains(&waited), "B waited {waited} ms");
}

/// Locks are granted in order: B holds U on a row A reads with S and waits to convert it
/// to X; C's S is compatible with both held locks but queues behind B's conversion. The
/// trace names what C waits behind (B's X), not a held U that S is compatible with.
#[test]
fn a_request_queued_behind_a_conversion_names_the_conversion() {
    let setup = "CREATE TABLE dbo.t (id int NOT NULL PRIMARY KEY, v int NOT NULL);\n\
                 INSERT dbo.t VALUES (1, 0);";
    let (sim, trace) = run_traced(
        &scenario(
            setup,
            &[
                ("A", 0, "BEGIN TRAN; SELECT v FROM dbo.t WITH (HOLDLOCK) WHERE id = 1; WAITFOR DELAY '00:00:01'; COMMIT;"),
                ("B", 10_000, "BEGIN TRAN; SELECT v FROM dbo.t WITH (UPDLOCK) WHERE id = 1; UPDATE dbo.t SET v = 1 WHERE id = 1; COMMIT;"),
                ("C", 100_000, "SELECT v FROM dbo.t WITH (HOLDLOCK) WHERE id = 1;"),
                ("D", 200_000, "SELECT v FROM dbo.t WITH (UPDLOCK) WHERE id = 1;"),
            ],
        ),
        1,
    );
    let text = trace.to_string();
    assert!(
        text.contains("B waits for X on KEY t (1): A holds S"),
        "{text}"
    );
    assert!(
        text.contains("C waits for S on KEY t (1): B is queued ahead for X"),
        "{text}"
    );
    // D's U conflicts with the U that B holds; C's S, queued ahead, is compatible with it.
    assert!(
        text.contains("D waits for U on KEY t (1): B holds U"),
        "{text}"
    );
    let waited = |name: &str| {
        let o = sim.outcome();
        o.sessions.iter().find(|s| s.name == name).unwrap().wait_us / 1000
    };
    // C reads once B's transaction ends, after A's second.
    assert!((895..=910).contains(&waited("C")), "{}", waited("C"));
}
