//! The PostgreSQL dialect: each construct a worker's script may use, shown in the
//! canonical (T-SQL) printed form it maps onto, one batch per statement; and each error,
//! with its position.

use expect_test::{expect, Expect};
use lockstep_sql::{parse_script, Dialect};

/// Each batch printed on its own, separated by `--`.
fn check(src: &str, expect: Expect) {
    let script =
        parse_script(src, Dialect::Postgres).unwrap_or_else(|e| panic!("{}", e.render(src)));
    let text: Vec<String> = script.batches.iter().map(|b| b.to_string()).collect();
    expect.assert_eq(&text.join("\n--\n"));
}

fn check_error(src: &str, expect: Expect) {
    match parse_script(src, Dialect::Postgres) {
        Ok(s) => panic!("expected an error, parsed:\n{s}"),
        Err(e) => expect.assert_eq(&e.render(src)),
    }
}

#[test]
fn each_statement_is_a_batch_of_its_own() {
    check(
        "BEGIN; SELECT 1; COMMIT;\nSTART TRANSACTION ISOLATION LEVEL REPEATABLE READ;\nEND;\nROLLBACK WORK; ABORT;",
        expect![[r#"
            BEGIN TRANSACTION;
            --
            SELECT 1;
            --
            COMMIT TRANSACTION;
            --
            BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
            --
            COMMIT TRANSACTION;
            --
            ROLLBACK TRANSACTION;
            --
            ROLLBACK TRANSACTION;"#]],
    );
}

#[test]
fn settings() {
    check(
        "SET lock_timeout = '2s';\nSET LOCAL lock_timeout TO 150;\nSET lock_timeout = 0;\nSET TRANSACTION ISOLATION LEVEL SERIALIZABLE;\nSET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED;",
        expect![[r#"
            SET LOCK_TIMEOUT 2000;
            --
            SET LOCAL lock_timeout = 150;
            --
            SET LOCK_TIMEOUT -1;
            --
            SET LOCAL TRANSACTION ISOLATION LEVEL SERIALIZABLE;
            --
            SET TRANSACTION ISOLATION LEVEL READ COMMITTED;"#]],
    );
}

#[test]
fn claims_with_limit_and_row_lock_clauses() {
    check(
        "SELECT id FROM task WHERE status = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED;
SELECT t.id FROM task t JOIN job j ON j.id = t.job FOR NO KEY UPDATE OF t NOWAIT;
SELECT id FROM task FOR SHARE;
SELECT id FROM task LIMIT ALL FOR KEY SHARE;",
        expect![[r#"
            SELECT TOP (1) id FROM task WITH (FOR UPDATE, READPAST) WHERE status = 'new' ORDER BY id;
            --
            SELECT t.id FROM task AS t WITH (FOR NO KEY UPDATE, NOWAIT) JOIN job AS j ON j.id = t.job;
            --
            SELECT id FROM task WITH (FOR SHARE);
            --
            SELECT id FROM task WITH (FOR KEY SHARE);"#]],
    );
}

#[test]
fn dml_with_returning_and_a_locking_subquery() {
    check(
        "UPDATE task SET status = 'taken' WHERE id = (SELECT id FROM task WHERE status = 'new' LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, status;
DELETE FROM task WHERE id = 1 RETURNING *;
INSERT INTO task (status) VALUES ('new') RETURNING id;",
        expect![[r#"
            UPDATE task SET status = 'taken' OUTPUT inserted.id, inserted.status WHERE id = (SELECT TOP (1) id FROM task WITH (FOR UPDATE, READPAST) WHERE status = 'new');
            --
            DELETE FROM task OUTPUT deleted.* WHERE id = 1;
            --
            INSERT INTO task (status) OUTPUT inserted.id VALUES ('new');"#]],
    );
}

#[test]
fn cte_update_from() {
    check(
        "WITH c AS (SELECT id FROM task WHERE status = 'new' LIMIT 2 FOR UPDATE SKIP LOCKED)
UPDATE task SET status = 'taken' FROM c WHERE task.id = c.id RETURNING task.id;",
        expect!["WITH c AS (SELECT TOP (2) id FROM task WITH (FOR UPDATE, READPAST) WHERE status = 'new') UPDATE task SET status = 'taken' OUTPUT inserted.id FROM c WHERE task.id = c.id;"],
    );
}

#[test]
fn types_casts_and_clock_functions() {
    check(
        "CREATE TABLE t (id serial PRIMARY KEY, big bigserial, n int, b bigint, s text, v varchar(20), f boolean DEFAULT false, at timestamptz DEFAULT now(), ts timestamp without time zone);
CREATE UNIQUE INDEX one_open ON t (n) WHERE s = 'open';
SELECT '5'::int + 1, clock_timestamp(), true;
SELECT pg_sleep(1.5);",
        expect![[r#"
            CREATE TABLE t (
                id int IDENTITY(1, 1) NOT NULL PRIMARY KEY,
                big bigint IDENTITY(1, 1) NOT NULL,
                n int,
                b bigint,
                s varchar(max),
                v varchar(20),
                f boolean DEFAULT (FALSE),
                at timestamptz DEFAULT (TRANSACTION_TIMESTAMP()),
                ts timestamp
            );
            --
            CREATE UNIQUE INDEX one_open ON t (n) WHERE s = 'open';
            --
            SELECT CAST('5' AS int) + 1, CLOCK_TIMESTAMP(), TRUE;
            --
            SELECT pg_sleep(1.5);"#]],
    );
}

#[test]
fn plpgsql_do_block() {
    check(
        "DO $$
DECLARE
  n int := 0;
  got int;
BEGIN
  LOOP
    UPDATE task SET owner = 'A' WHERE id = 1 RETURNING id INTO got;
    GET DIAGNOSTICS n = ROW_COUNT;
    EXIT WHEN n = 0;
    IF got > 2 THEN RAISE NOTICE 'got %', got; ELSIF got = 1 THEN PERFORM pg_sleep(0.1); ELSE NULL; END IF;
    COMMIT;
  END LOOP;
  FOR i IN 1..3 LOOP CONTINUE WHEN i = 2; END LOOP;
  SELECT count(*) INTO n FROM task;
  WHILE n > 0 LOOP n := n - 1; END LOOP;
EXCEPTION WHEN unique_violation OR lock_not_available THEN
  RAISE EXCEPTION 'failed: %', n;
END $$;",
        expect![[r#"
            BEGIN
                DECLARE @%do_txn int = 0;
                IF @@TRANCOUNT = 0
                BEGIN
                    BEGIN TRANSACTION;
                    SET @%do_txn = 1;
                END;
                DECLARE @perform varchar(max), @n int = 0;
                DECLARE @got int;
                BEGIN TRY
                    WHILE 1 = 1
                    BEGIN
                        UPDATE task SET owner = 'A' OUTPUT @got = inserted.id WHERE id = 1;
                        SET @n = @@ROWCOUNT;
                        IF @n = 0
                            BREAK;
                        IF @got > 2
                        BEGIN
                            PRINT 'got ' + %RAISE_ARG(@got) + '';
                        END
                        ELSE
                            IF @got = 1
                            BEGIN
                                SELECT pg_sleep(0.1);
                            END
                            ELSE
                            BEGIN
                                ;
                            END;
                        COMMIT TRANSACTION AND CHAIN;
                    END;
                    BEGIN
                        DECLARE @i#1 bigint = 1 - 1;
                        WHILE @i#1 < 3
                        BEGIN
                            SET @i#1 = @i#1 + 1;
                            IF @i#1 = 2
                                CONTINUE;
                        END;
                    END;
                    SELECT @n = COUNT(*) FROM task;
                    WHILE @n > 0
                    BEGIN
                        SET @n = @n - 1;
                    END;
                END TRY
                BEGIN CATCH
                    IF ERROR_NUMBER() IN (2601, 2627, 1222)
                    BEGIN
                        THROW 50000, 'failed: ' + %RAISE_ARG(@n) + '', 1;
                    END
                    ELSE
                        THROW;
                END CATCH;
                IF @%do_txn = 1
                    COMMIT TRANSACTION;
            END;"#]],
    );
}

#[test]
fn plpgsql_routines() {
    check(
        "CREATE OR REPLACE FUNCTION claim(who text) RETURNS int AS $body$
BEGIN
  PERFORM pg_advisory_xact_lock(1);
  RETURN 1;
END;
$body$ LANGUAGE plpgsql;
SELECT claim('A');
CALL claim('B');",
        expect![[r#"
            CREATE OR ALTER PROCEDURE claim @who varchar(max)
            AS
            DECLARE @perform varchar(max);
            SELECT @perform = PG_ADVISORY_XACT_LOCK(1);
            RETURN 1;
            --
            EXEC claim 'A';
            --
            EXEC claim 'B';"#]],
    );
}

#[test]
fn vacuum_every_table_or_those_named() {
    check(
        "VACUUM; VACUUM task, job;",
        expect![[r#"
            VACUUM;
            --
            VACUUM task, job;"#]],
    );
}

#[test]
fn errors() {
    check_error(
        "SELECT TOP 1 id FROM task;",
        expect!["1:8: TOP (use LIMIT): T-SQL syntax; this lesson's dialect is PostgreSQL"],
    );
    check_error(
        "SELECT id FROM task WITH (READPAST);",
        expect!["1:21: table hints: T-SQL syntax; this lesson's dialect is PostgreSQL"],
    );
    check_error(
        "DECLARE @n int;",
        expect!["1:1: DECLARE: T-SQL syntax; this lesson's dialect is PostgreSQL"],
    );
    check_error(
        "SELECT @n;",
        expect!["1:8: variables (@n): T-SQL syntax; this lesson's dialect is PostgreSQL"],
    );
    check_error(
        "WAITFOR DELAY '00:00:01';",
        expect!["1:1: WAITFOR: T-SQL syntax; this lesson's dialect is PostgreSQL"],
    );
    check_error(
        "BEGIN TRAN;",
        expect!["1:1: BEGIN TRAN: T-SQL syntax; this lesson's dialect is PostgreSQL"],
    );
    check_error(
        "SELECT 1 WHERE 2 > ALL (SELECT 1);",
        expect!["1:20: not simulated: > ALL comparisons"],
    );
    check_error(
        "SELECT 1 WHERE 2 = ANY (ARRAY[1, 2]);",
        expect!["1:20: not simulated: ANY over a list or an array (use IN)"],
    );
    // Said where they are written (a JOIN's USING was taken for the table's alias, and
    // the error pointed at its parenthesis).
    check_error(
        "SELECT id FROM a JOIN b USING (id);",
        expect!["1:25: not simulated: JOIN ... USING (write ON a.c = b.c)"],
    );
    check_error(
        "SELECT DISTINCT ON (v) id FROM a;",
        expect!["1:17: not simulated: DISTINCT ON"],
    );
    check_error(
        "SELECT sum(id ORDER BY id) FROM a;",
        expect!["1:15: not simulated: ORDER BY inside sum()"],
    );
    // Arrays are not values here: said when it parses, even where no row would call it.
    check_error(
        "SELECT array_agg(id) FROM a WHERE false;",
        expect!["1:8: not simulated: array_agg() (arrays)"],
    );
    // Two limits, in the words of the server's grammar.
    check_error(
        "SELECT id FROM task LIMIT 1 FETCH FIRST 1 ROW ONLY;",
        expect!["1:29: multiple LIMIT clauses not allowed"],
    );
    check_error(
        "SELECT id FROM task ORDER BY id FETCH FIRST 1 ROW WITH TIES FOR UPDATE SKIP LOCKED;",
        expect!["1:71: SKIP LOCKED and WITH TIES options cannot be used together"],
    );
    check_error(
        "CREATE TABLE t (id int GENERATED ALWAYS AS (1) STORED);",
        expect!["1:24: not simulated: generated columns"],
    );
    check_error(
        "CREATE TABLE t (id int GENERATED ALWAYS AS IDENTITY (CACHE 10));",
        expect!["1:54: not simulated: sequence option cache"],
    );
    check_error(
        "SELECT id FROM task FOR UPDATE OF job;",
        expect![[r#"1:35: relation "job" in FOR UPDATE clause not found in FROM clause"#]],
    );
    // The server refuses a row lock on rows that are not a table's (0A000), in these
    // words (checked on PostgreSQL 15).
    check_error(
        "SELECT count(*) FROM task FOR UPDATE SKIP LOCKED;",
        expect!["1:27: FOR UPDATE is not allowed with aggregate functions"],
    );
    check_error(
        "SELECT DISTINCT status FROM task FOR SHARE;",
        expect!["1:34: FOR SHARE is not allowed with DISTINCT clause"],
    );
    check_error(
        "SELECT status FROM task GROUP BY status FOR NO KEY UPDATE;",
        expect!["1:41: FOR NO KEY UPDATE is not allowed with GROUP BY clause"],
    );
    check_error(
        "SELECT id FROM task UNION SELECT id FROM job FOR KEY SHARE;",
        expect!["1:46: FOR KEY SHARE is not allowed with UNION/INTERSECT/EXCEPT"],
    );
    check_error(
        "SELECT id, row_number() OVER (ORDER BY id) FROM task FOR UPDATE;",
        expect!["1:54: FOR UPDATE is not allowed with window functions"],
    );
    // A LEFT JOIN's right side may have no row to lock (0A000 on the server); its left
    // side may be locked (`FOR UPDATE OF t` runs).
    check_error(
        "SELECT t.id FROM task t LEFT JOIN queue q ON q.id = t.queue FOR UPDATE;",
        expect!["1:61: FOR UPDATE cannot be applied to the nullable side of an outer join"],
    );
    check_error(
        "SELECT t.id FROM task t LEFT JOIN queue q ON q.id = t.queue FOR SHARE OF q;",
        expect!["1:61: FOR SHARE cannot be applied to the nullable side of an outer join"],
    );
    check_error(
        "SELECT now() FILTER (WHERE true);",
        expect!["1:8: FILTER specified, but now is not an aggregate function"],
    );
    check_error(
        "SELECT * FROM (WITH c AS (DELETE FROM job RETURNING id) SELECT id FROM c) x;",
        expect![
            "1:27: not simulated: INSERT, UPDATE or DELETE in a WITH that is not at the top level"
        ],
    );
    check_error(
        "WITH c AS (SELECT 1 AS a), d AS (SELECT * FROM (WITH e AS (DELETE FROM job RETURNING id) SELECT id FROM e) x) SELECT 1;",
        expect!["1:60: not simulated: INSERT, UPDATE or DELETE in a WITH that is not at the top level"],
    );
    check_error(
        "WITH c AS (DELETE FROM job RETURNING id) UPDATE job SET v = 1;",
        expect!["1:42: not simulated: UPDATE or DELETE after a WITH that changes rows (SELECT or INSERT is)"],
    );
    check_error(
        "SELECT interval '5 minutes';",
        expect![
            "1:8: not simulated: an interval other than one added to or subtracted from a timestamp"
        ],
    );
    // Times a number is fine when the product is added (below); alone it is refused.
    check_error(
        "SELECT 2 * interval '5 minutes';",
        expect![
            "1:12: not simulated: an interval other than one added to or subtracted from a timestamp"
        ],
    );
    check_error(
        "SELECT now() + f(x * interval '1 second');",
        expect![
            "1:22: not simulated: an interval other than one added to or subtracted from a timestamp"
        ],
    );
    check_error(
        "SELECT now() - interval '1 month';",
        expect!["1:16: not simulated: intervals in months or years"],
    );
    check_error(
        "SELECT now() - interval 'soon';",
        expect![[r#"1:16: invalid input syntax for type interval: "soon""#]],
    );
    check_error(
        "SET work_mem = '64MB';",
        expect!["1:5: not simulated: SET WORK_MEM"],
    );
    check_error(
        "SET statement_timeout = 'soon';",
        expect!["1:25: invalid duration 'soon'"],
    );
    check_error(
        "SET lock_timeout = 'soon';",
        expect!["1:20: invalid duration 'soon'"],
    );
    check_error("LOCK TABLE task;", expect!["1:1: not simulated: LOCK"]);
    // DO UPDATE must name its arbiter, in the server's words.
    check_error(
        "INSERT INTO t VALUES (1) ON CONFLICT DO UPDATE SET n = 1;",
        expect!["1:26: ON CONFLICT DO UPDATE requires inference specification or constraint name"],
    );
    check_error(
        "VACUUM FULL task;",
        expect!["1:8: not simulated: VACUUM options"],
    );
    check_error(
        "VACUUM (ANALYZE) task;",
        expect!["1:8: not simulated: VACUUM options"],
    );
    check_error(
        "DO $$ BEGIN SELECT 1; $$;",
        expect!["1:22: unexpected end of input, expected one of: END, EXCEPTION"],
    );
    check_error(
        "DO $$ BEGIN FOR r IN SELECT 1 LOOP END LOOP; END $$;",
        expect!["1:22: not simulated: FOR over a query or in REVERSE"],
    );
    check_error(
        "DO $$ BEGIN NULL; EXCEPTION WHEN no_such THEN NULL; END $$;",
        expect!["1:34: not simulated: condition no_such"],
    );
    check_error(
        "DO LANGUAGE plperl $$ 1 $$;",
        expect!["1:13: not simulated: LANGUAGE plperl"],
    );
    check_error(
        "SELECT 'x' FROM t; DO $$ BEGIN",
        expect!["1:23: unterminated string literal"],
    );
}

/// `||` concatenates and `^` raises to a power, at PostgreSQL's precedence: `^` above
/// `*`, `||`, `&` and `|` below `+` and above comparisons. (The canonical form adds the
/// parentheses T-SQL's precedence needs; the engine's tests check the values.)
#[test]
fn concatenation_and_power() {
    check(
        "SELECT 'n' || 1 + 2, 2 * 3 ^ 2, 2 ^ 3 ^ 2, 1 | 2 + 4, 'a' || b = 'ax', 3 & 5 | 8;",
        expect![
            "SELECT 'n' || 1 + 2, 2 * 3 ^ 2, 2 ^ 3 ^ 2, 1 | (2 + 4), 'a' || b = 'ax', 3 & 5 | 8;"
        ],
    );
}

/// In T-SQL `||` is not an operator (text joins with `+`): the error says so rather than
/// asking for an expression at the second pipe.
#[test]
fn tsql_concatenation_is_not_simulated() {
    let src = "SELECT 'a' || 'b';";
    let err = parse_script(src, Dialect::TSql).expect_err("|| is not T-SQL");
    expect!["1:12: not simulated: || (string concatenation; T-SQL joins text with +)"]
        .assert_eq(&err.render(src));
}

/// PostgreSQL's CREATE INDEX forms the simulator has no model for are named, not read
/// as an index called `concurrently` (which made `ix` "expected ON").
#[test]
fn create_index_forms_not_simulated() {
    for (src, expected) in [
        (
            "CREATE INDEX CONCURRENTLY ix ON task (status);",
            "1:14: not simulated: CREATE INDEX CONCURRENTLY",
        ),
        (
            "DROP INDEX ix, iy;",
            "1:14: not simulated: DROP INDEX of several indexes",
        ),
        (
            "CREATE INDEX ix ON task USING hash (status);",
            "1:25: not simulated: CREATE INDEX ... USING (index methods)",
        ),
    ] {
        let err = parse_script(src, Dialect::Postgres).expect_err(src);
        assert_eq!(err.render(src), expected);
    }
}

/// `CREATE INDEX IF NOT EXISTS` needs a name, as on the server (`... IF NOT EXISTS ON t`
/// is a syntax error there); `DROP INDEX` names no table, and `ON` after it is an error.
#[test]
fn index_if_not_exists_and_drop_index_read_as_the_server_reads_them() {
    check(
        "CREATE UNIQUE INDEX IF NOT EXISTS ix ON task (status); DROP INDEX IF EXISTS public.ix CASCADE; DROP INDEX ix;",
        expect![[r#"
            CREATE UNIQUE INDEX IF NOT EXISTS ix ON task (status);
            --
            DROP INDEX IF EXISTS ix;
            --
            DROP INDEX ix;"#]],
    );
    check_error(
        "CREATE INDEX IF NOT EXISTS ON task (status);",
        expect!["1:28: found 'ON', expected an identifier"],
    );
    check_error(
        "DROP INDEX ix ON task;",
        expect!["1:15: found 'ON', expected one of: ',', ';'"],
    );
}

/// psql sends a statement at its `;`: a line after a statement that lacks one is more of
/// that statement on the server (`SELECT pg_sleep(3)` then `COMMIT` is one SELECT, its
/// column named commit, and the transaction stays open). Refused, and said why, rather
/// than run as two statements.
#[test]
fn a_statement_without_its_semicolon_is_refused() {
    check_error(
        "BEGIN;\nSELECT pg_sleep(3)\nCOMMIT;",
        expect!["3:1: found 'COMMIT', expected ';' (a statement ends at its ';': without one, PostgreSQL reads this line as more of the statement above)"],
    );
    check_error(
        "UPDATE task SET owner = 'A' WHERE id = 1\nSELECT 1;",
        expect!["2:1: found 'SELECT', expected ';' (a statement ends at its ';': without one, PostgreSQL reads this line as more of the statement above)"],
    );
    // The last statement of a script may end without one.
    check("SELECT 1", expect!["SELECT 1;"]);
}

/// Types a queue table often has and the simulation does not: each is named where it
/// was written, rather than called unknown (`uuid`, `jsonb`) or misread (`int[]`).
#[test]
fn types_the_simulation_lacks_are_not_simulated() {
    check_error(
        "CREATE TABLE t (id int, c jsonb);",
        expect!["1:27: not simulated: data type jsonb"],
    );
    check_error(
        "CREATE TABLE t (id uuid PRIMARY KEY);",
        expect!["1:20: not simulated: data type uuid"],
    );
    check_error(
        "SELECT '1 day'::interval;",
        expect!["1:17: not simulated: data type interval"],
    );
    check_error(
        "CREATE TABLE t (tags text[]);",
        expect!["1:26: not simulated: arrays"],
    );
    check_error(
        "CREATE TABLE t (ids int [] NOT NULL);",
        expect!["1:25: not simulated: arrays"],
    );
}

/// A retry's backoff: an interval times a number, added to a timestamp, in the forms
/// queue code writes it.
#[test]
fn intervals_times_a_number_added_to_a_timestamp() {
    check(
        "SELECT run_at + attempts * interval '1 second', run_at - interval '1 minute' * q.n, \
         run_at + (power(2, attempts) * interval '10 seconds') FROM q;",
        expect!["SELECT run_at + attempts * INTERVAL '1' SECOND, run_at - INTERVAL '60' SECOND * q.n, run_at + POWER(2, attempts) * INTERVAL '10' SECOND FROM q;"],
    );
}

/// `SET (a, b) = (x, y)` (or `= ROW (x, y)`) is one assignment per column; a count that
/// does not match, and one value that is not a row, fail in the server's words.
#[test]
fn multiple_column_update_items() {
    check(
        "UPDATE job SET (status, owner) = ('z', 'me'), n = n + 1, (a) = ROW (1) WHERE id = 1;",
        expect!["UPDATE job SET status = 'z', owner = 'me', n = n + 1, a = 1 WHERE id = 1;"],
    );
    check_error(
        "UPDATE job SET (a, b) = (1, 2, 3);",
        expect!["1:16: number of columns does not match number of values"],
    );
    check_error(
        "UPDATE job SET (a, b) = (1);",
        expect!["1:16: source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"],
    );
    check_error(
        "UPDATE job SET (a, b) = (SELECT 1, 2);",
        expect!["1:25: not simulated: (columns) = (SELECT ...)"],
    );
}

/// A text cast to `interval` where a timestamp adds or subtracts it is read when
/// evaluated; anywhere else an interval is still not simulated.
#[test]
fn a_cast_to_interval_added_to_a_timestamp() {
    check(
        "SELECT run_at + (attempts || ' seconds')::interval, now() - '5 minutes'::interval FROM q;",
        expect!["SELECT run_at + %INTERVAL_OF(attempts || ' seconds'), TRANSACTION_TIMESTAMP() - %INTERVAL_OF('5 minutes') FROM q;"],
    );
    check_error(
        "SELECT (attempts || ' seconds')::interval FROM q;",
        expect!["1:34: not simulated: data type interval"],
    );
}

/// Words SQL Server reserves and PostgreSQL does not name things there: the `public`
/// schema pg_dump writes before every table, a `key`, `plan` or `percent` column (the
/// server took each of these as a column, a table alias and a qualifier). They were
/// "expected an identifier"; T-SQL still reserves them.
#[test]
fn words_sql_server_reserves_are_names_here() {
    check(
        "CREATE TABLE public.job (id int, key text, plan text, percent int);\nSELECT j.key, plan, percent FROM public.job j WHERE key = 'a';",
        expect![[r#"
            CREATE TABLE [public].job (
                id int,
                [key] varchar(max),
                [plan] varchar(max),
                [percent] int
            );
            --
            SELECT j.[key], [plan], [percent] FROM [public].job AS j WHERE [key] = 'a';"#]],
    );
    let err = parse_script("SELECT key FROM job;", Dialect::TSql).expect_err("reserved in T-SQL");
    assert_eq!(
        err.render("SELECT key FROM job;"),
        "1:8: found 'key', expected one of: DISTINCT, ALL, TOP, '*', an expression"
    );
}

#[test]
fn transaction_modes_come_in_any_order_and_read_only_is_not_simulated() {
    check(
        "START TRANSACTION READ WRITE, ISOLATION LEVEL SERIALIZABLE NOT DEFERRABLE;\nBEGIN ISOLATION LEVEL REPEATABLE READ, READ WRITE;\nSET TRANSACTION READ WRITE ISOLATION LEVEL SERIALIZABLE;",
        expect![[r#"
            BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE;
            --
            BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
            --
            SET LOCAL TRANSACTION ISOLATION LEVEL SERIALIZABLE;"#]],
    );
    check_error(
        "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY;",
        expect!["1:36: not simulated: READ ONLY transactions"],
    );
    check_error(
        "BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE;",
        expect!["1:37: not simulated: READ ONLY transactions"],
    );
    check_error(
        "START TRANSACTION DEFERRABLE;",
        expect!["1:19: not simulated: DEFERRABLE transactions"],
    );
    check_error(
        "SET TRANSACTION READ WRITE;",
        expect!["1:17: not simulated: transaction modes without ISOLATION LEVEL"],
    );
}

#[test]
fn foreign_keys() {
    check(
        "CREATE TABLE c (id int PRIMARY KEY, pid int CONSTRAINT c_p REFERENCES p ON DELETE CASCADE, \
         a int, b int, FOREIGN KEY (a, b) REFERENCES q (x, y) MATCH SIMPLE ON UPDATE SET NULL ON DELETE RESTRICT NOT DEFERRABLE)",
        expect![[r#"
            CREATE TABLE c (
                id int PRIMARY KEY,
                pid int CONSTRAINT c_p REFERENCES p ON DELETE CASCADE,
                a int,
                b int,
                FOREIGN KEY (a, b) REFERENCES q (x, y) ON DELETE RESTRICT ON UPDATE SET NULL
            );"#]],
    );
    check_error(
        "CREATE TABLE c (pid int REFERENCES p DEFERRABLE INITIALLY DEFERRED)",
        expect!["1:38: not simulated: deferrable foreign keys"],
    );
    check_error(
        "CREATE TABLE c (pid int REFERENCES p MATCH FULL)",
        expect!["1:38: not simulated: MATCH FULL and MATCH PARTIAL"],
    );
    check_error(
        "CREATE TABLE c (pid int REFERENCES p ON DELETE SET NULL (pid))",
        expect!["1:57: not simulated: SET NULL or SET DEFAULT of some columns"],
    );
}
