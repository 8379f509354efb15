//! Every input ends in a clear answer: the crashes and hangs found by trying the engine
//! as a learner would, and by fuzzing, each as a regression test.

use engine::{Dialect, Scenario, Simulation, Value};

use super::support::scenario_in as scenario;
use super::support::{errors, numbers};

/// Runs one T-SQL session `A` after `setup` to the end.
fn run_one(setup: &str, sql: &str) -> Simulation {
    run(&scenario(Dialect::TSql, setup, &[("A", 0, sql)]))
}

fn run(sc: &Scenario) -> Simulation {
    let mut sim = Simulation::new(sc, 1).unwrap_or_else(|e| panic!("{e:?}"));
    sim.run().unwrap();
    sim
}

fn rows(sim: &Simulation, name: &str, result: usize) -> Vec<Vec<Value>> {
    sim.outcome()
        .sessions
        .iter()
        .find(|s| s.name == name)
        .unwrap()
        .results[result]
        .rows
        .clone()
}

fn ints(rows: Vec<Vec<Value>>) -> Vec<i64> {
    rows.into_iter()
        .map(|r| r[0].as_i64().expect("an integer"))
        .collect()
}

#[test]
fn a_recursive_cte_runs_its_recursion() {
    let sim = run_one(
        "",
        "WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 3)\nSELECT i FROM n;",
    );
    assert_eq!(numbers(&sim, "A"), Vec::<u32>::new());
    assert_eq!(ints(rows(&sim, "A", 0)), [1, 2, 3]);
}

#[test]
fn a_recursive_cte_stops_at_maxrecursion_100_with_530() {
    let sim = run_one(
        "",
        "WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n)\nSELECT i FROM n;\nSELECT 'after' AS next;",
    );
    let errs = errors(&sim, "A");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, 530);
    assert!(errs[0].1.contains("maximum recursion 100"), "{}", errs[0].1);
    // A statement-level error: the batch goes on.
    assert_eq!(sim.outcome().sessions[0].results.len(), 1);
}

#[test]
fn rollback_undoes_truncate_table() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT t VALUES (1), (2), (3);",
        "BEGIN TRAN;\nDELETE t WHERE id = 1;\nTRUNCATE TABLE t;\nINSERT t VALUES (9);\nROLLBACK;\nSELECT id FROM t ORDER BY id;",
    );
    assert_eq!(numbers(&sim, "A"), Vec::<u32>::new());
    assert_eq!(ints(rows(&sim, "A", 0)), [1, 2, 3]);
}

#[test]
fn rollback_undoes_drop_table() {
    let sim = run_one(
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT t VALUES (1), (2);",
        "BEGIN TRAN;\nUPDATE t SET id = 5 WHERE id = 2;\nDROP TABLE t;\nROLLBACK;\nSELECT id FROM t ORDER BY id;",
    );
    assert_eq!(numbers(&sim, "A"), Vec::<u32>::new());
    assert_eq!(ints(rows(&sim, "A", 0)), [1, 2]);
}

#[test]
fn drop_table_waits_for_a_reader_s_lock_and_readers_wait_for_it() {
    let sim = run(&scenario(
        Dialect::TSql,
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT t VALUES (1), (2);",
        &[
            ("A", 0, "BEGIN TRAN;\nSELECT id FROM t WITH (HOLDLOCK);\nWAITFOR DELAY '00:00:01';\nCOMMIT;"),
            ("B", 100_000, "BEGIN TRAN;\nDROP TABLE t;\nROLLBACK;"),
        ],
    ));
    let b = &sim.outcome().sessions[1];
    assert!(b.wait_us >= 800_000, "B waited {} µs", b.wait_us);
    assert_eq!(numbers(&sim, "A"), Vec::<u32>::new());
    assert_eq!(numbers(&sim, "B"), Vec::<u32>::new());
}

/// Integers are 64-bit (bigint) in the simulator: arithmetic past that range is error
/// 8115, and date arithmetic past datetime2's range error 517, never a wrapped value.
#[test]
fn integer_and_date_overflow_raise_8115_and_517() {
    for (expr, number) in [
        ("(-9223372036854775807 - 1) / -1", 8115),
        ("(-9223372036854775807 - 1) % -1", 8115),
        ("-(-9223372036854775807 - 1)", 8115),
        ("ABS(-9223372036854775807 - 1)", 8115),
        ("9223372036854775807 + 1", 8115),
        ("(-9223372036854775807 - 1) - 1", 8115),
        ("4294967296 * 4294967296", 8115),
        ("DATEADD(day, 2147483647, SYSDATETIME())", 517),
        ("DATEADD(second, 9223372036854775807, SYSDATETIME())", 517),
        ("SYSDATETIME() + 2147483647", 517),
    ] {
        let sim = run_one("", &format!("SELECT {expr} AS v;\nSELECT 'next';"));
        assert_eq!(
            numbers(&sim, "A"),
            [number],
            "{expr}: {:?}",
            errors(&sim, "A")
        );
        // A statement-level error: the batch goes on.
        assert_eq!(sim.outcome().sessions[0].results.len(), 1, "{expr}");
    }
}

#[test]
fn tinyint_identity_overflows_with_8115() {
    let sim = run_one(
        "CREATE TABLE t (id tinyint IDENTITY(250, 1) PRIMARY KEY, v int);",
        "DECLARE @n int = 0;\nWHILE @n < 10\nBEGIN\n  SET @n += 1;\n  INSERT t (v) VALUES (@n);\nEND\nSELECT MAX(id) FROM t;",
    );
    let n = numbers(&sim, "A");
    assert!(n.iter().all(|&x| x == 8115) && !n.is_empty(), "{n:?}");
    assert_eq!(ints(rows(&sim, "A", 0)), [255]);
}

#[test]
fn a_condition_whose_subquery_fails_moves_on() {
    for sql in [
        "IF EXISTS (SELECT 1 FROM nope) PRINT 'yes';\nSELECT 1;",
        "WHILE EXISTS (SELECT 1 FROM nope) PRINT 'yes';\nSELECT 1;",
        "IF (SELECT 1 / 0) = 1 PRINT 'yes';\nSELECT 1;",
        "IF EXISTS (SELECT 1 / 0) PRINT 'yes';\nSELECT 1;",
    ] {
        let sim = run_one("", sql);
        assert!(sim.is_finished(), "{sql}");
        assert_eq!(
            numbers(&sim, "A").len(),
            1,
            "{sql}: {:?}",
            errors(&sim, "A")
        );
    }
}

#[test]
fn the_runaway_guard_cannot_be_caught() {
    let sim = run_one(
        "",
        "WHILE 1 = 1\nBEGIN\n  BEGIN TRY\n    SELECT 1 / 0;\n  END TRY\n  BEGIN CATCH\n  END CATCH\nEND",
    );
    assert!(sim.is_finished());
    let errs = errors(&sim, "A");
    let last = errs.last().expect("an error");
    assert!(last.1.contains("simulation stopped"), "{last:?}");
}

#[test]
fn a_loop_without_statements_is_stopped_too() {
    let sim = run_one("", "WHILE 1 = 1\nBEGIN\n  BEGIN TRY\n    BREAK;\n  END TRY\n  BEGIN CATCH\n  END CATCH\n  CONTINUE;\nEND\nWHILE 1 = 1 CONTINUE;");
    assert!(sim.is_finished());
    let last = errors(&sim, "A").pop().expect("an error");
    assert!(last.1.contains("simulation stopped"), "{last:?}");
}

#[test]
fn a_delayed_consumer_without_a_producer_ends_with_an_error() {
    let sim = run(&scenario(
        Dialect::Teradata,
        "CREATE TABLE q, QUEUE (qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), id INTEGER) PRIMARY INDEX (id);",
        &[("A", 0, "SELECT AND CONSUME TOP 1 * FROM q;")],
    ));
    assert!(sim.is_finished());
    let errs = errors(&sim, "A");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].1.contains("delayed"), "{errs:?}");
}

/// RECURSIVE_TRIGGERS is OFF by default in SQL Server: a trigger's own INSERT into its
/// table does not fire it again.
#[test]
fn a_trigger_does_not_fire_itself() {
    let sim = run_one(
        "CREATE TABLE t (id int IDENTITY PRIMARY KEY, v int);\nGO\nCREATE TRIGGER tr ON t AFTER INSERT AS INSERT t (v) SELECT v + 1 FROM inserted;",
        "INSERT t (v) VALUES (1);\nSELECT COUNT(*) FROM t;",
    );
    assert_eq!(numbers(&sim, "A"), Vec::<u32>::new());
    assert_eq!(ints(rows(&sim, "A", 0)), [2]);
}

/// Triggers that fire each other nest (nested triggers are ON by default) until the
/// 33rd level fails with 217, which rolls the transaction back and ends the batch.
#[test]
fn two_triggers_firing_each_other_stop_with_217() {
    let sim = run_one(
        "CREATE TABLE a (id int IDENTITY PRIMARY KEY, v int);\nCREATE TABLE b (id int IDENTITY PRIMARY KEY, v int);\nGO\nCREATE TRIGGER ta ON a AFTER INSERT AS INSERT b (v) SELECT v FROM inserted;\nGO\nCREATE TRIGGER tb ON b AFTER INSERT AS INSERT a (v) SELECT v FROM inserted;",
        "INSERT a (v) VALUES (1);\nSELECT 'same batch';\nGO\nSELECT (SELECT COUNT(*) FROM a) + (SELECT COUNT(*) FROM b);",
    );
    assert_eq!(numbers(&sim, "A"), [217]);
    assert_eq!(sim.outcome().sessions[0].results.len(), 1);
    assert_eq!(ints(rows(&sim, "A", 0)), [0]);
}

#[test]
fn a_procedure_that_calls_itself_stops_with_217() {
    let sim = run_one(
        "CREATE PROCEDURE p @n int AS BEGIN SET @n += 1; EXEC p @n; END",
        "EXEC p 0;\nSELECT 'same batch';\nGO\nSELECT 'next batch';",
    );
    let errs = errors(&sim, "A");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, 217);
    assert!(errs[0].1.contains("limit 32"), "{errs:?}");
    assert_eq!(sim.outcome().sessions[0].results.len(), 1);
}

#[test]
fn like_with_many_wildcards_on_long_text_is_quick_and_right() {
    let pattern = format!("{}b", "%a".repeat(40)) + "%";
    let sim = run_one(
        "",
        &format!(
            "DECLARE @s varchar(max) = REPLICATE('a', 8000);\nSELECT CASE WHEN @s LIKE '{pattern}' THEN 1 ELSE 0 END;\nSELECT CASE WHEN @s + 'b' LIKE '{pattern}' THEN 1 ELSE 0 END;"
        ),
    );
    assert_eq!(numbers(&sim, "A"), Vec::<u32>::new());
    assert_eq!(ints(rows(&sim, "A", 0)), [0]);
    assert_eq!(ints(rows(&sim, "A", 1)), [1]);
}

#[test]
fn a_long_waitfor_is_cut_off_at_the_hour() {
    let sim = run(&scenario(
        Dialect::TSql,
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT t VALUES (1);",
        &[
            (
                "A",
                0,
                "BEGIN TRAN;\nUPDATE t SET id = 1;\nWAITFOR DELAY '23:00:00';\nCOMMIT;",
            ),
            ("B", 1000, "UPDATE t SET id = 2;"),
        ],
    ));
    assert!(sim.is_finished());
    assert!(sim.now_us() <= engine::MAX_VIRTUAL_US, "{}", sim.now_us());
    assert!(!errors(&sim, "B").is_empty());
}

#[test]
fn setup_errors_point_at_their_statement() {
    let sc = scenario(
        Dialect::TSql,
        "CREATE TABLE t (id int PRIMARY KEY);\nINSERT t VALUES (1);\nINSERT t VALUES (1);",
        &[("A", 0, "SELECT 1;")],
    );
    let err = Simulation::new(&sc, 1).map(|_| ()).unwrap_err();
    assert_eq!((err.line, err.col), (3, 1), "{err:?}");
    assert!(err.message.contains("2627"), "{err:?}");
}

#[test]
fn a_script_over_a_megabyte_is_refused_with_its_size() {
    let huge = "SELECT 1;\n".repeat(200_000);
    let sc = scenario(Dialect::TSql, "", &[("A", 0, &huge)]);
    let err = Simulation::new(&sc, 1).map(|_| ()).unwrap_err();
    assert_eq!((err.line, err.col), (1, 1));
    assert!(err.message.contains("at most 1024 KB"), "{}", err.message);
}

#[test]
fn a_recursive_cte_that_explodes_stops_at_the_row_limit() {
    let sim = run_one(
        "",
        "WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n, (VALUES (1), (2)) AS d(x) WHERE i < 40)\nSELECT COUNT(*) FROM n;",
    );
    let last = errors(&sim, "A").pop().expect("an error");
    assert!(last.1.contains("more than 1000000 rows"), "{last:?}");
}

#[test]
fn the_outcome_tells_elapsed_and_delayed_time_and_caught_errors() {
    let sim = run(&scenario(
        Dialect::Teradata,
        "CREATE TABLE q, QUEUE (qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), id INTEGER) PRIMARY INDEX (id);",
        &[
            ("A", 0, "SELECT AND CONSUME TOP 1 * FROM q;"),
            ("B", 2_000_000, "INSERT INTO q (id) VALUES (1);"),
        ],
    ));
    let a = &sim.outcome().sessions[0];
    assert!(
        (2_000_000..2_010_000).contains(&a.delayed_us),
        "{}",
        a.delayed_us
    );
    assert!(
        a.elapsed_us >= a.delayed_us,
        "{} {}",
        a.elapsed_us,
        a.delayed_us
    );
    assert_eq!(a.wait_us, 0);
    let sim = run_one(
        "",
        "BEGIN TRY SELECT 1 / 0; END TRY BEGIN CATCH END CATCH\nSELECT 1 / 0;",
    );
    let errs = &sim.outcome().sessions[0].errors;
    let caught: Vec<bool> = errs.iter().map(|e| e.caught).collect();
    assert_eq!(caught, [true, false]);
}

/// Found by fuzzing: a setup loop that never ends used to run 500 000 statements before
/// it stopped; its budget is the session budget, and a smaller one applies when asked.
#[test]
fn an_endless_setup_loop_stops_with_the_statement_budget() {
    let sc = scenario(
        Dialect::TSql,
        "CREATE TABLE task (id int IDENTITY PRIMARY KEY, status varchar(20) NOT NULL DEFAULT 'new');\nWHILE NOT ('aaa' = 'b') BEGIN WITH next AS (SELECT id, status FROM task WITH (SERIALIZABLE) WHERE status = 'new' ORDER BY id) UPDATE next SET status = 'taken' OUTPUT inserted.id; END",
        &[("A", 0, "SELECT 1;")],
    );
    let limits = engine::Limits {
        steps: 1_000,
        statements: 1_000,
    };
    let err = Simulation::with_limits(&sc, 1, limits)
        .map(|_| ())
        .unwrap_err();
    assert!(err.message.contains("more than 1000 statements"), "{err:?}");
    assert_eq!(err.line, 2, "{err:?}");
}

/// Found by fuzzing: sp_getapplock takes any int as @LockTimeout; a huge one overflowed
/// the wait's deadline. It waits like an endless timeout now, and a huge REPLICATE is cut
/// at 8 000 characters as SQL Server cuts a non-max string.
#[test]
fn a_huge_applock_timeout_and_a_huge_replicate_are_no_panic() {
    let take = "EXEC sp_getapplock @Resource = 'x', @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 9223372036854775807;\nWAITFOR DELAY '00:00:01';";
    let sim = run(&scenario(
        Dialect::TSql,
        "",
        &[("A", 0, take), ("B", 10, take)],
    ));
    assert!(sim.is_finished());
    let b = &sim.outcome().sessions[1];
    assert!(b.wait_us >= 900_000, "B waited {} µs", b.wait_us);
    let sim = run_one("", "SELECT LEN(REPLICATE('abc', 2147483647));");
    assert_eq!(ints(rows(&sim, "A", 0)), [8000]);
}

/// Found by fuzzing: a delay or a date too large for its parser overflowed instead of
/// failing as text that is not a time.
#[test]
fn a_huge_delay_or_date_is_an_error_not_a_panic() {
    for sql in [
        "WAITFOR DELAY '21474836470004';\nSELECT 1;",
        "SELECT CAST('99999999999999-01-01' AS datetime2);\nSELECT 1;",
        "SELECT CAST('2026-01-01 99999999999999:00:00' AS datetime2);\nSELECT 1;",
    ] {
        let sim = run_one("", sql);
        assert!(sim.is_finished(), "{sql}");
        assert_eq!(
            numbers(&sim, "A").len(),
            1,
            "{sql}: {:?}",
            errors(&sim, "A")
        );
    }
}

/// Found by fuzzing: an UPDATE that locks many rows, waits and re-runs asked "was this
/// lock granted to this statement?" of a list, once per row it already holds: cubic in
/// the table's size (over 50 s). The answer is a set lookup now, and each re-run still
/// updates every row once.
#[test]
fn a_long_scan_that_waits_and_reruns_is_quick_and_right() {
    let digits =
        "CREATE TABLE d (n int);\nINSERT d VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);";
    let setup = format!(
        "{digits}\nCREATE TABLE t (id int PRIMARY KEY, v int);\n\
         INSERT t SELECT a.n * 10000 + b.n * 1000 + c.n * 100 + e.n * 10 + f.n + 1, 0 \
         FROM d a CROSS JOIN d b CROSS JOIN d c CROSS JOIN d e CROSS JOIN d f WHERE a.n < 4;"
    );
    // Three holders near the end of the scan let go one second apart: three re-runs.
    let holder = |id: u32, secs: u32| {
        format!("BEGIN TRAN;\nUPDATE t SET v = 2 WHERE id = {id};\nWAITFOR DELAY '00:00:0{secs}';\nCOMMIT;")
    };
    let (a, b, c) = (holder(40000, 3), holder(39999, 2), holder(39998, 1));
    let sim = run(&scenario(
        Dialect::TSql,
        &setup,
        &[
            ("A", 0, &a),
            ("B", 0, &b),
            ("C", 0, &c),
            (
                "D",
                1000,
                "BEGIN TRAN;\nUPDATE t SET v = v + 3;\nSELECT @@ROWCOUNT;\nSELECT COUNT(*) FROM t WHERE v = 5;\nCOMMIT;",
            ),
        ],
    ));
    assert!(sim.is_finished());
    assert_eq!(numbers(&sim, "D"), Vec::<u32>::new());
    assert_eq!(ints(rows(&sim, "D", 0)), [40000]);
    assert_eq!(ints(rows(&sim, "D", 1)), [3]);
    assert!(sim.outcome().sessions[3].wait_us >= 2_900_000);
}

/// Whether `sql`, as session A's script in `dialect`, parses; else its error's message.
fn parses(dialect: Dialect, sql: &str) -> Result<(), String> {
    let sc = scenario(dialect, "", &[("A", 0, sql)]);
    Simulation::new(&sc, 1).map(|_| ()).map_err(|e| e.message)
}

/// The longest T-SQL script `script(n)` the parser accepts, n < 200.
fn longest(script: impl Fn(usize) -> String) -> String {
    (1..200)
        .rev()
        .map(script)
        .find(|sql| parses(Dialect::TSql, sql).is_ok())
        .expect("a short chain parses")
}

#[test]
fn a_chain_of_thousands_of_operators_is_refused_not_a_stack_overflow() {
    // `1 + 1 + ... + 1` is a tree one level deeper per operator, which the engine walks
    // recursively: 5 000 of them overflowed the stack and killed the tab.
    let chain = |term: &str, op: &str| vec![term; 5000].join(op);
    let cases = [
        (Dialect::TSql, format!("SELECT {}", chain("N'x'", " + "))),
        (
            Dialect::TSql,
            format!("SELECT 1 WHERE {}", chain("1 = 1", " OR ")),
        ),
        (
            Dialect::TSql,
            format!("SELECT 1 WHERE {}", chain("1 = 1", " AND ")),
        ),
        (Dialect::TSql, format!("SELECT {}", chain("2", " * "))),
        (Dialect::TSql, chain("SELECT 1", " UNION ALL ")),
        (
            Dialect::Postgres,
            format!("SELECT {}", chain("'x'", " || ")),
        ),
        (Dialect::Postgres, format!("SELECT {}", chain("2", " ^ "))),
        (Dialect::Teradata, format!("SEL {}", chain("1", " MOD "))),
    ];
    for (dialect, src) in cases {
        let err = parses(dialect, &src).unwrap_err();
        assert!(
            err.contains("too long"),
            "{dialect:?} {}: {err}",
            &src[..40]
        );
    }
    let plus = format!("SELECT {}", vec!["1"; 5000].join(" + "));
    assert_eq!(
        parses(Dialect::TSql, &plus).unwrap_err(),
        "expression too long: its operators and parentheses nest more than 100 levels"
    );
}

#[test]
fn the_longest_chains_accepted_run_on_a_wasm_sized_stack() {
    let plus = longest(|n| format!("SELECT {}", vec!["1"; n].join(" + ")));
    let terms = plus.matches('1').count();
    assert!(terms >= 90, "only {terms} terms");
    let or = longest(|n| format!("SELECT 7 WHERE {} OR 1 = 1", vec!["1 = 0"; n].join(" OR ")));
    let union = longest(|n| "SELECT 1".to_string() + &" UNION ALL SELECT 1".repeat(n));
    // The wasm stack is 1 MB; a debug build's frames are the largest.
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let sim = run_one("", &plus);
            assert_eq!(ints(rows(&sim, "A", 0)), [terms as i64]);
            let sim = run_one("", &or);
            assert_eq!(ints(rows(&sim, "A", 0)), [7]);
            // Past 64 queries inside each other the engine answers Msg 191, as it does for
            // subqueries.
            let sim = run_one("", &union);
            assert_eq!(numbers(&sim, "A"), [191]);
            let sim = run_one(
                "",
                &("SELECT 1".to_string() + &" UNION ALL SELECT 1".repeat(60)),
            );
            assert_eq!(rows(&sim, "A", 0).len(), 61);
        });
    handle.unwrap().join().unwrap();
}

/// A T-SQL setup that fills `dbo.task` with `n` rows.
fn tasks(n: usize) -> String {
    format!(
        "CREATE TABLE dbo.task (id int IDENTITY PRIMARY KEY, v int);\n\
         DECLARE @n int = 0; WHILE @n < {n} BEGIN SET @n += 1; INSERT dbo.task (v) VALUES (@n); END"
    )
}

/// The last error session `A` got: what stopped it.
fn stopped_by(sim: &Simulation) -> String {
    errors(sim, "A").pop().expect("an error").1
}

#[test]
fn a_string_doubled_in_a_loop_stops_at_16_mb_not_out_of_memory() {
    // In the browser the doubling ended in a capacity overflow or an out-of-memory trap.
    for body in [
        "SET @s = @s + @s",
        "SET @s = CONCAT(@s, @s)",
        "SET @s = REPLACE(@s, N'x', N'xx')",
        "SET @s = STUFF(@s, 1, 0, @s)",
    ] {
        let sql = format!("DECLARE @s nvarchar(max) = N'x';\nWHILE 1 = 1 {body};");
        let stop = stopped_by(&run_one("", &sql));
        assert!(
            stop.contains("a text value of 32 MB, more than the 16 MB"),
            "{body}: {stop}"
        );
    }
    let pg = |sql: &str| run(&scenario(Dialect::Postgres, "", &[("A", 0, sql)]));
    let doubling = "DO $$ DECLARE s text := 'x'; BEGIN LOOP s := s || s; END LOOP; END $$;";
    assert!(stopped_by(&pg(doubling)).contains("more than the 16 MB"));
    assert!(stopped_by(&pg("SELECT lpad('x', 2000000000);")).contains("more than the 16 MB"));
}

#[test]
fn a_join_or_a_subquery_too_big_to_hold_stops_the_session_with_its_size() {
    // Three 200-row tables crossed: 8 million rows, gigabytes in the tab.
    let sim = run_one(
        &tasks(200),
        "SELECT COUNT(*) FROM dbo.task a CROSS JOIN dbo.task b CROSS JOIN dbo.task c;",
    );
    assert_eq!(
        stopped_by(&sim),
        "simulation stopped this session: a join compares more than 1000000 pairs of rows, \
         the most the simulator compares in one join"
    );
    let sim = run_one(
        &tasks(200),
        "SELECT COUNT(*) FROM dbo.task a, dbo.task b, dbo.task c;",
    );
    assert!(stopped_by(&sim).contains("more than 1000000 pairs"));
    // Two of them (40 000 pairs) are no trouble.
    let sim = run_one(
        &tasks(200),
        "SELECT COUNT(*) FROM dbo.task a CROSS JOIN dbo.task b;",
    );
    assert_eq!(ints(rows(&sim, "A", 0)), [40_000]);
    // A correlated subquery reads its table again for every row: 1 500 × 1 500 rows.
    let sim = run_one(
        &tasks(1500),
        "SELECT COUNT(*) FROM dbo.task c WHERE (SELECT COUNT(*) FROM dbo.task w WHERE w.v < c.v) > 10;",
    );
    assert_eq!(
        stopped_by(&sim),
        "simulation stopped this session: a statement reads more than 2000000 rows, the most \
         the simulator reads in one statement"
    );
}

#[test]
fn more_than_256_tables_in_one_from_are_not_simulated() {
    let joins = |n: usize| {
        let more: String = (1..n)
            .map(|k| format!(" JOIN dbo.task t{k} ON t{k}.id = t0.id"))
            .collect();
        format!("SELECT COUNT(*) FROM dbo.task t0{more};")
    };
    let sim = run_one(&tasks(3), &joins(256));
    assert_eq!(ints(rows(&sim, "A", 0)), [3]);
    let err = parses(Dialect::TSql, &joins(3000)).unwrap_err();
    assert_eq!(
        err,
        "not simulated: more than 256 tables in one FROM (SQL Server takes more)"
    );
}

#[test]
fn a_waitfor_time_that_is_no_time_of_day_is_msg_148() {
    // It slept 99 s, and 362 439 s for '99:99:99'.
    for bad in ["00:00:99", "99:99:99", "24:00:00"] {
        let sim = run_one("", &format!("WAITFOR DELAY '{bad}';"));
        assert_eq!(numbers(&sim, "A"), [148], "{bad}");
    }
}

#[test]
fn for_update_in_teradata_points_at_locking_and_consume() {
    let err = parses(
        Dialect::Teradata,
        "SELECT job_id FROM job_queue FOR UPDATE SKIP LOCKED;",
    )
    .unwrap_err();
    assert!(
        err.starts_with("FOR UPDATE is not Teradata SQL: lock the rows"),
        "{err}"
    );
}
