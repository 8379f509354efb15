//! Ranges on a clustered key (`id > 2`, `BETWEEN`) in SQL Server: a clustered index seek
//! that reads and locks only the keys in the range, and under SERIALIZABLE keeps the
//! ranges between them and past the last (key-range locks), so no phantom is inserted.

use engine::{Dialect, Event, Scenario, Simulation};

use super::support::{run_traced, waited_ms};

const FIVE_ROWS: &str = "CREATE TABLE dbo.t (id int PRIMARY KEY, v int NOT NULL);\n\
                         INSERT dbo.t VALUES (1, 10), (2, 20), (3, 30), (5, 50), (7, 70);";

fn scenario(setup: &str, sessions: &[(&str, u64, &str)]) -> Scenario {
    super::support::scenario_in(Dialect::TSql, setup, sessions)
}

/// A reader B (at `isolation`, holding its locks for a second) and a writer A that
/// starts 100 ms later and runs `write`.
fn reader_then_writer(isolation: &str, read: &str, write: &str) -> (Simulation, String) {
    let reader = format!(
        "SET TRANSACTION ISOLATION LEVEL {isolation};\nBEGIN TRAN;\n{read}\n\
         WAITFOR DELAY '00:00:01';\nCOMMIT;"
    );
    let writer = format!("BEGIN TRAN;\n{write}\nCOMMIT;");
    run_traced(&scenario(
        FIVE_ROWS,
        &[("B", 0, &reader), ("A", 100_000, &writer)],
    ))
}

/// A writer A that holds row `id` for a second, and B, 100 ms later, running `sql` in a
/// transaction.
fn holder_then(id: i64, sql: &str) -> (Simulation, String) {
    let holder = format!(
        "BEGIN TRAN;\nUPDATE dbo.t SET v = 0 WHERE id = {id};\n\
         WAITFOR DELAY '00:00:01';\nCOMMIT;"
    );
    let other = format!("BEGIN TRAN;\n{sql};\nCOMMIT;");
    run_traced(&scenario(
        FIVE_ROWS,
        &[("A", 0, &holder), ("B", 100_000, &other)],
    ))
}

/// The seek at READ COMMITTED locks only the rows in its range: a row another session
/// holds outside the range does not make it wait (a full scan waited 900 ms for row 1).
#[test]
fn a_range_seek_does_not_wait_for_a_row_outside_its_range() {
    for (read, waits) in [
        ("SELECT v FROM dbo.t WHERE id > 2", false),
        ("SELECT v FROM dbo.t WHERE id BETWEEN 2 AND 5", false),
        ("SELECT v FROM dbo.t WHERE 3 <= id AND id < 7", false),
        ("SELECT v FROM dbo.t WHERE id < 3", true),
        ("SELECT v FROM dbo.t WITH (FORCESCAN) WHERE id > 2", true),
    ] {
        let (sim, text) = holder_then(1, read);
        assert_eq!(
            waited_ms(&sim, "B") > 0,
            waits,
            "{read}: waited {} ms\n{text}",
            waited_ms(&sim, "B")
        );
        let access = if read.contains("FORCESCAN") {
            "clustered index scan"
        } else {
            "clustered index seek"
        };
        assert!(
            text.contains(&format!("of t by {access}")),
            "{read}\n{text}"
        );
    }
}

/// SERIALIZABLE: the seek holds each key it read with the range below it, and the next
/// key past the range with the range below that (or the end of the index). An insert
/// into any of those ranges waits for the reader; an insert below the range does not.
#[test]
fn a_serializable_range_keeps_phantoms_out_of_its_range_only() {
    for (read, insert, waits) in [
        (
            "SELECT v FROM dbo.t WHERE id > 2",
            "INSERT dbo.t VALUES (4, 40)",
            true,
        ),
        (
            "SELECT v FROM dbo.t WHERE id > 2",
            "INSERT dbo.t VALUES (9, 90)",
            true,
        ),
        (
            "SELECT v FROM dbo.t WHERE id > 2",
            "INSERT dbo.t VALUES (0, 0)",
            false,
        ),
        (
            "SELECT v FROM dbo.t WHERE id BETWEEN 2 AND 3",
            "INSERT dbo.t VALUES (4, 40)",
            true,
        ),
        (
            "SELECT v FROM dbo.t WHERE id BETWEEN 2 AND 3",
            "INSERT dbo.t VALUES (6, 60)",
            false,
        ),
        (
            "SELECT v FROM dbo.t WHERE id < 3",
            "INSERT dbo.t VALUES (6, 60)",
            false,
        ),
        // A full scan holds every range, the middle ones too.
        ("SELECT v FROM dbo.t", "INSERT dbo.t VALUES (4, 40)", true),
        (
            "SELECT v FROM dbo.t WHERE v > 20",
            "INSERT dbo.t VALUES (6, 60)",
            true,
        ),
    ] {
        let (sim, text) = reader_then_writer("SERIALIZABLE", read, insert);
        let waited = waited_ms(&sim, "A");
        match waits {
            true => assert!(
                (890..=910).contains(&waited),
                "{read} / {insert}: {waited} ms\n{text}"
            ),
            false => assert_eq!(waited, 0, "{read} / {insert}\n{text}"),
        }
        assert!(super::support::errors_of(&sim, "A").is_empty(), "{text}");
    }
}

/// The key that ends a SERIALIZABLE range is locked with the range: an update of it
/// waits, an update of the key after it does not. Under READ COMMITTED neither waits.
#[test]
fn a_serializable_range_locks_the_key_that_ends_it() {
    let read = "SELECT v FROM dbo.t WHERE id < 4";
    let (sim, text) =
        reader_then_writer("SERIALIZABLE", read, "UPDATE dbo.t SET v = 0 WHERE id = 5");
    assert!(
        text.contains("B gets RangeS-S on KEY t (range below 5)"),
        "{text}"
    );
    assert!(text.contains("B gets S on KEY t (5)"), "{text}");
    assert!(!text.contains("end of index"), "{text}");
    assert!((890..=910).contains(&waited_ms(&sim, "A")), "{text}");
    let (sim, text) =
        reader_then_writer("SERIALIZABLE", read, "UPDATE dbo.t SET v = 0 WHERE id = 7");
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
    let (sim, text) = reader_then_writer(
        "READ COMMITTED",
        read,
        "UPDATE dbo.t SET v = 0 WHERE id = 5",
    );
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
    assert!(!text.contains("range below"), "{text}");
}

/// A range's UPDATE locks only the rows it changes: another session's row outside the
/// range is not waited for, one inside is.
#[test]
fn a_range_update_waits_only_for_rows_in_its_range() {
    for (update, waits) in [
        ("UPDATE dbo.t SET v = v + 1 WHERE id BETWEEN 2 AND 5", false),
        ("UPDATE dbo.t SET v = v + 1 WHERE id >= 5", true),
    ] {
        let (sim, text) = holder_then(7, update);
        assert_eq!(waited_ms(&sim, "B") > 0, waits, "{update}\n{text}");
    }
}

/// The rows a range gives are the ones the predicate gives, whatever its form and
/// whichever rows qualify: compared with the same query forced to scan.
#[test]
fn a_range_seek_gives_the_rows_a_scan_gives() {
    let setup = "CREATE TABLE dbo.n (id int PRIMARY KEY, v int NOT NULL);\n\
                 DECLARE @i int = 1;\n\
                 WHILE @i <= 60 BEGIN INSERT dbo.n VALUES (@i * 3, @i); SET @i += 1; END;";
    let mut sim = Simulation::new(&scenario(setup, &[]), 1).unwrap();
    sim.run().unwrap();
    for pred in [
        "id > 30",
        "id >= 30",
        "id < 31",
        "id <= 30",
        "id BETWEEN 10 AND 40",
        "id BETWEEN 40 AND 10",
        "id > 29.5 AND id < 40.5",
        "30 < id AND 90 >= id AND v > 12",
        "id = 30",
        "id > NULL",
        "id > 1000",
        "id < 0",
        "id > 30 OR id < 6",
        "id NOT BETWEEN 10 AND 170",
    ] {
        for order in ["", " ORDER BY id DESC", " ORDER BY v"] {
            let seek = format!("SELECT id, v FROM dbo.n WHERE {pred}{order}");
            let scan = format!("SELECT id, v FROM dbo.n WITH (FORCESCAN) WHERE {pred}{order}");
            let a = sim.query(&seek).unwrap().rows;
            let b = sim.query(&scan).unwrap().rows;
            assert_eq!(a, b, "{seek}");
        }
    }
    let top = sim
        .query("SELECT TOP (2) id FROM dbo.n WHERE id > 100 ORDER BY id")
        .unwrap()
        .rows;
    assert_eq!(
        top,
        vec![vec![engine::Value::Int(102)], vec![engine::Value::Int(105)]]
    );
}

/// Logical reads: a seek reads down the index to its first key and along the leaf
/// pages its range spans; a range over every key reads what a scan reads (the
/// reference's 500 000-row example: `id > 0` and a scan both 1 120 reads).
#[test]
fn a_range_seek_reads_the_pages_its_range_spans() {
    let setup = "CREATE TABLE dbo.n (id int PRIMARY KEY, v int NOT NULL);\n\
                 DECLARE @i int = 1;\n\
                 WHILE @i <= 2000 BEGIN INSERT dbo.n VALUES (@i, @i); SET @i += 1; END;";
    let reads = |query: &str| {
        let sc = scenario(setup, &[("A", 0, query)]);
        let mut sim = Simulation::new(&sc, 1).unwrap();
        let trace = sim.run_traced().unwrap();
        trace
            .entries
            .iter()
            .find_map(|e| match &e.event {
                Event::RowsRead { logical_reads, .. } => Some(*logical_reads),
                _ => None,
            })
            .unwrap()
    };
    let point = reads("SELECT v FROM dbo.n WHERE id = 1000");
    let scan = reads("SELECT v FROM dbo.n WITH (FORCESCAN) WHERE id > 0");
    let all = reads("SELECT v FROM dbo.n WHERE id > 0");
    let narrow = reads("SELECT v FROM dbo.n WHERE id BETWEEN 1001 AND 1005");
    let half = reads("SELECT v FROM dbo.n WHERE id > 1000");
    assert_eq!(all, scan);
    assert!((point..=point + 1).contains(&narrow), "{point} {narrow}");
    assert!(half > point && half < scan, "{point} {half} {scan}");
    assert!((scan / 2..=scan / 2 + 2).contains(&half), "{half} {scan}");
}

/// `IN` on the clustered key seeks each value: a list, or a subquery that reads
/// nothing of the outer table, run once. So the queue claim `UPDATE ... WHERE id IN
/// (SELECT TOP (1) id ... READPAST ...)` locks only the row it claims, and never waits
/// for a row another worker holds (a scan waited 900 ms for it).
#[test]
fn in_on_the_key_seeks_each_value() {
    for (sql, held, waits) in [
        ("SELECT v FROM dbo.t WHERE id IN (2, 5)", 1, false),
        ("SELECT v FROM dbo.t WHERE id IN (2, 5)", 5, true),
        ("SELECT v FROM dbo.t WHERE id IN (SELECT 3)", 7, false),
        (
            "UPDATE dbo.t SET v = 0 WHERE id IN \
             (SELECT TOP (1) id FROM dbo.t WITH (UPDLOCK, READPAST) ORDER BY id)",
            7,
            false,
        ),
        (
            "UPDATE dbo.t SET v = 0 WHERE id IN \
             (SELECT TOP (1) id FROM dbo.t WITH (UPDLOCK, READPAST) ORDER BY id)",
            1,
            false,
        ),
    ] {
        let (sim, text) = holder_then(held, sql);
        assert_eq!(
            waited_ms(&sim, "B") > 0,
            waits,
            "{sql}, A holds {held}\n{text}"
        );
        assert!(
            text.contains("of t by clustered index seek"),
            "{sql}\n{text}"
        );
    }
    // The claim skips the held row 1 and claims 2; its subquery ran once.
    let (mut sim, text) = holder_then(
        1,
        "UPDATE dbo.t SET v = 0 WHERE id IN \
         (SELECT TOP (1) id FROM dbo.t WITH (UPDLOCK, READPAST) ORDER BY id)",
    );
    assert!(text.contains("B updates t (2): v 20 -> 0"), "{text}");
    assert_eq!(
        text.matches("B reads 1 row(s) of t by clustered index scan")
            .count(),
        1,
        "{text}"
    );
    let v = sim.query("SELECT v FROM dbo.t WHERE id = 2").unwrap().rows;
    assert_eq!(v, vec![vec![engine::Value::Int(0)]]);
}

/// An IN's seeks: depth reads each, in key order, each value once; under SERIALIZABLE
/// a value no row has locks the range it would go in, so inserting it waits.
#[test]
fn in_seeks_read_per_value_and_lock_the_ranges_of_missing_keys() {
    let (sim, text) = reader_then_writer(
        "SERIALIZABLE",
        "SELECT v FROM dbo.t WHERE id IN (7, 4, 2, 2)",
        "INSERT dbo.t VALUES (4, 40)",
    );
    assert!(
        text.contains("B reads 2 row(s) of t by clustered index seek: 3 logical reads"),
        "{text}"
    );
    assert!(
        text.contains("B gets RangeS-S on KEY t (range below 5)"),
        "{text}"
    );
    assert!((890..=910).contains(&waited_ms(&sim, "A")), "{text}");
    let (sim, text) = reader_then_writer(
        "SERIALIZABLE",
        "SELECT v FROM dbo.t WHERE id IN (7, 4, 2)",
        "INSERT dbo.t VALUES (6, 60)",
    );
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
}

/// IN gives the rows a scan gives: lists with NULL, duplicates, decimals and no match,
/// orders, and subqueries that read the outer row (those still scan).
#[test]
fn in_seeks_give_the_rows_a_scan_gives() {
    let setup = "CREATE TABLE dbo.n (id int PRIMARY KEY, v int NOT NULL);\n\
                 CREATE TABLE dbo.u (id int PRIMARY KEY, w int NOT NULL);\n\
                 DECLARE @i int = 1;\n\
                 WHILE @i <= 30 BEGIN INSERT dbo.n VALUES (@i, 30 - @i); \
                 INSERT dbo.u VALUES (@i * 2, @i); SET @i += 1; END;";
    let mut sim = Simulation::new(&scenario(setup, &[]), 1).unwrap();
    sim.run().unwrap();
    for pred in [
        "id IN (3, 1, 2)",
        "id IN (3, 3, NULL)",
        "id IN (2.0, 100)",
        "id IN (NULL)",
        "id IN (SELECT id FROM dbo.u)",
        "id IN (SELECT u.id FROM dbo.u AS u WHERE u.w > 5)",
        "id IN (SELECT w FROM dbo.u WHERE dbo.u.id = dbo.n.v)",
        "id IN (SELECT u.w FROM dbo.u AS u WHERE u.id = v)",
        "id IN (SELECT id FROM dbo.u) AND v > 3",
        "id NOT IN (1, 2)",
    ] {
        for order in ["", " ORDER BY v", " ORDER BY id DESC"] {
            let seek = format!("SELECT id, v FROM dbo.n WHERE {pred}{order}");
            let scan = format!("SELECT id, v FROM dbo.n WITH (FORCESCAN) WHERE {pred}{order}");
            let a = sim.query(&seek).unwrap().rows;
            let b = sim.query(&scan).unwrap().rows;
            assert_eq!(a, b, "{seek}");
        }
    }
}

/// An uncorrelated subquery runs once per statement and keeps its rows through a wait.
/// Under READ_COMMITTED_SNAPSHOT the claim `UPDATE ... WHERE id = (SELECT TOP (1) id
/// ...)` reads a version, so B finds the row A is claiming, waits for A's lock on it,
/// then updates the same row: the lost update SQL Server shows there. Under locking
/// READ COMMITTED B's subquery waits for A's row and finds the next one.
#[test]
fn a_subquery_keeps_its_rows_through_the_wait() {
    let claim = "BEGIN TRAN;\n\
                 UPDATE dbo.task SET owner = '{me}' WHERE id = \
                 (SELECT TOP (1) id FROM dbo.task WHERE owner IS NULL ORDER BY id);\n\
                 WAITFOR DELAY '00:00:01';\nCOMMIT;";
    for (rcsi, b_claims) in [(true, 1), (false, 2)] {
        let setup = format!(
            "{}CREATE TABLE dbo.task (id int PRIMARY KEY, owner varchar(10) NULL);\n\
             INSERT dbo.task VALUES (1, NULL), (2, NULL), (3, NULL);",
            if rcsi {
                "ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON;\n"
            } else {
                ""
            }
        );
        let (a, b) = (claim.replace("{me}", "A"), claim.replace("{me}", "B"));
        let (sim, text) = run_traced(&scenario(&setup, &[("A", 0, &a), ("B", 100_000, &b)]));
        assert!((890..=910).contains(&waited_ms(&sim, "B")), "{text}");
        assert!(
            text.contains(&format!("B updates task ({b_claims}): owner")),
            "rcsi {rcsi}\n{text}"
        );
    }
}

/// A SERIALIZABLE seek of a key no row has locks the next key with the range below it
/// (SQL Server's RangeS-U on that key holds U on its row): an UPDATE of the next row
/// waits; one of another row does not; with no next key, the end of the index only.
#[test]
fn a_missing_key_locks_the_next_row_too() {
    let read = "SELECT v FROM dbo.t WITH (UPDLOCK, HOLDLOCK) WHERE id = 4";
    let (sim, text) = reader_then_writer(
        "READ COMMITTED",
        read,
        "UPDATE dbo.t SET v = 0 WHERE id = 5",
    );
    assert!(
        text.contains("B gets RangeS-U on KEY t (range below 5)"),
        "{text}"
    );
    assert!(text.contains("B gets U on KEY t (5)"), "{text}");
    assert!((890..=910).contains(&waited_ms(&sim, "A")), "{text}");
    let (sim, text) = reader_then_writer(
        "READ COMMITTED",
        read,
        "UPDATE dbo.t SET v = 0 WHERE id = 7",
    );
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
    let read = "SELECT v FROM dbo.t WITH (UPDLOCK, HOLDLOCK) WHERE id = 9";
    let (sim, text) = reader_then_writer(
        "READ COMMITTED",
        read,
        "UPDATE dbo.t SET v = 0 WHERE id = 7",
    );
    assert!(
        text.contains("B gets RangeS-U on KEY t (end of index)"),
        "{text}"
    );
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
}

/// MIN and MAX of the clustered key, and TOP in the key's order, read the first row of
/// the index in that order and stop: one leaf page, no wait for a row they never reach
/// (MAX(id) used to scan, waiting for row 1 and reading every page).
#[test]
fn min_max_and_top_in_key_order_read_one_end_of_the_index() {
    for (sql, waits) in [
        ("SELECT MAX(id) FROM dbo.t", false),
        ("SELECT MIN(id) FROM dbo.t WHERE id > 1", false),
        ("SELECT TOP (1) id FROM dbo.t ORDER BY id DESC", false),
        ("SELECT MIN(id) FROM dbo.t", true),
        ("SELECT MAX(v) FROM dbo.t", true),
    ] {
        let (sim, text) = holder_then(1, sql);
        assert_eq!(waited_ms(&sim, "B") > 0, waits, "{sql}\n{text}");
    }
    let setup = "CREATE TABLE dbo.n (id int PRIMARY KEY, v int NOT NULL);\n\
                 DECLARE @i int = 1;\n\
                 WHILE @i <= 2000 BEGIN INSERT dbo.n VALUES (@i, @i); SET @i += 1; END;";
    let reads = |query: &str| {
        let (_, text) = run_traced(&scenario(setup, &[("A", 0, query)]));
        let at = text.find("A reads ").expect("a read");
        let line = text[at..].lines().next().unwrap().to_string();
        (line.split(": ").last().unwrap().to_string(), text)
    };
    let point = reads("SELECT v FROM dbo.n WHERE id = 1000").0;
    for sql in [
        "SELECT MAX(id) FROM dbo.n",
        "SELECT MIN(id) FROM dbo.n",
        "SELECT TOP (1) id FROM dbo.n ORDER BY id",
        "SELECT TOP (1) id FROM dbo.n ORDER BY id DESC",
        "SELECT TOP (1) id FROM dbo.n WHERE id > 500 ORDER BY id",
        "SELECT TOP (1) id FROM dbo.n WHERE id < 1500 ORDER BY id DESC",
    ] {
        let (got, text) = reads(sql);
        assert_eq!(got, point, "{sql}\n{text}");
    }
    let (all, _) = reads("SELECT TOP (1) id FROM dbo.n ORDER BY v");
    assert_ne!(all, point, "a sort reads every page");
}

/// A TOP in key order under SERIALIZABLE (or HOLDLOCK) keeps the ranges of the keys it
/// read and no more: an insert past them, at the end of the index, does not wait (it
/// used to, on the end of the index); one into a range it read does.
#[test]
fn a_serializable_top_locks_only_the_ranges_it_read() {
    let read = "SELECT TOP (1) id FROM dbo.t WITH (UPDLOCK, HOLDLOCK) WHERE id > 3 ORDER BY id";
    let (sim, text) = reader_then_writer("READ COMMITTED", read, "INSERT dbo.t VALUES (9, 90)");
    assert!(!text.contains("end of index"), "{text}");
    assert_eq!(waited_ms(&sim, "A"), 0, "{text}");
    let (sim, text) = reader_then_writer("READ COMMITTED", read, "INSERT dbo.t VALUES (4, 40)");
    assert!((890..=910).contains(&waited_ms(&sim, "A")), "{text}");
}

/// A range on a nonclustered index's leading column (a number or a point in time) is a
/// seek on that index: it reads and locks only the rows in the range (a scan of the
/// clustered index waited for a row far outside it), at the index's depth, the leaf
/// pages the range spans and a key lookup per row; and it gives the rows a scan gives.
#[test]
fn a_range_on_an_index_seeks_it() {
    let setup =
        "CREATE TABLE dbo.e (id int PRIMARY KEY, v int NOT NULL, at datetime2(3) NOT NULL);\n\
                 CREATE INDEX ix_v ON dbo.e (v);\nCREATE INDEX ix_at ON dbo.e (at);\n\
                 DECLARE @i int = 1;\n\
                 WHILE @i <= 400 BEGIN INSERT dbo.e VALUES (@i, @i * 2, \
                 DATEADD(minute, @i, '2026-01-01')); SET @i += 1; END;";
    let holder = "BEGIN TRAN;\nUPDATE dbo.e SET at = '2030-01-01' WHERE id = 300;\n\
                  WAITFOR DELAY '00:00:01';\nCOMMIT;";
    for (sql, waits) in [
        ("SELECT id, at FROM dbo.e WHERE v BETWEEN 10 AND 20", false),
        (
            "SELECT id, v FROM dbo.e WHERE at < '2026-01-01 00:30'",
            false,
        ),
        ("SELECT id, at FROM dbo.e WHERE v > 590", true),
    ] {
        let (sim, text) = run_traced(&scenario(setup, &[("A", 0, holder), ("B", 100_000, sql)]));
        assert_eq!(waited_ms(&sim, "B") > 0, waits, "{sql}\n{text}");
        assert!(text.contains("by seek on index"), "{sql}\n{text}");
    }
    let mut sim = Simulation::new(&scenario(setup, &[]), 1).unwrap();
    sim.run().unwrap();
    for pred in [
        "v BETWEEN 10 AND 20",
        "v > 790",
        "v < 7",
        "v >= 11.5 AND v <= 30",
        "at >= '2026-01-01 06:00' AND at < '2026-01-01 06:10'",
        "at > '2027-01-01'",
    ] {
        let seek = format!("SELECT id, v FROM dbo.e WHERE {pred} ORDER BY id");
        let scan = format!("SELECT id, v FROM dbo.e WITH (FORCESCAN) WHERE {pred} ORDER BY id");
        assert_eq!(
            sim.query(&seek).unwrap().rows,
            sim.query(&scan).unwrap().rows,
            "{seek}"
        );
    }
}

/// An index built over rows already there is as deep as its entries make it: the same
/// seek reads as many pages whether the index came before the rows or after them.
#[test]
fn an_index_built_after_its_rows_is_as_deep_as_one_built_before() {
    let rows = "DECLARE @i int = 1;\n\
                WHILE @i <= 3000 BEGIN INSERT dbo.e VALUES (@i, @i); SET @i += 1; END;";
    let table = "CREATE TABLE dbo.e (id int PRIMARY KEY, v int NOT NULL);";
    let index = "CREATE INDEX ix_v ON dbo.e (v);";
    let reads = |setup: String| {
        let (_, text) = run_traced(&scenario(
            &setup,
            &[("A", 0, "SELECT id FROM dbo.e WHERE v = 1500")],
        ));
        let at = text.find("A reads ").expect("a read");
        text[at..].lines().next().unwrap().to_string()
    };
    let before = reads(format!("{table}\n{index}\n{rows}"));
    let after = reads(format!("{table}\n{rows}\n{index}"));
    assert_eq!(before, after);
    assert!(before.contains("seek on index ix_v"), "{before}");
}

/// A seek through a nonclustered index looks each row up in the clustered index (its
/// depth in reads) only for columns the index lacks. Its keys, INCLUDE columns and the
/// clustered key are in every entry; a filtered index's filter columns count as held
/// when the query's predicate is the filter and the query does not return them.
#[test]
fn a_covering_index_seek_reads_no_data_page() {
    let setup = "CREATE TABLE dbo.q (id int PRIMARY KEY, rank int NOT NULL, \
                 status varchar(10) NOT NULL, note varchar(20) NOT NULL, owner varchar(10) NULL);\n\
                 CREATE INDEX ix_new ON dbo.q (rank DESC, id) WHERE status = 'new';\n\
                 CREATE INDEX ix_owner ON dbo.q (owner) INCLUDE (note);\n\
                 DECLARE @i int = 1;\n\
                 WHILE @i <= 300 BEGIN INSERT dbo.q VALUES (@i, @i % 3, \
                 CASE WHEN @i % 2 = 0 THEN 'new' ELSE 'done' END, 'n', 'o' + CAST(@i AS varchar(5))); \
                 SET @i += 1; END;";
    // (query, index it seeks, rows, lookups charged)
    for (sql, index, rows, lookups) in [
        ("SELECT TOP (1) id FROM dbo.q WHERE status = 'new' ORDER BY rank DESC, id", "ix_new", 1, false),
        ("SELECT COUNT(*) FROM dbo.q WHERE status = 'new' AND rank = 2", "ix_new", 50, false),
        ("SELECT TOP (1) id, note FROM dbo.q WHERE status = 'new' ORDER BY rank DESC, id", "ix_new", 1, true),
        // The filter's column returned: it comes from the data row.
        ("SELECT TOP (1) id, status FROM dbo.q WHERE status = 'new' ORDER BY rank DESC, id", "ix_new", 1, true),
        // A predicate on a column the index lacks, beside the filter's.
        ("SELECT TOP (1) id FROM dbo.q WHERE status = 'new' AND note = 'n' ORDER BY rank DESC, id", "ix_new", 1, true),
        ("SELECT id, note FROM dbo.q WHERE owner = 'o7'", "ix_owner", 1, false),
        ("SELECT id, rank FROM dbo.q WHERE owner = 'o7'", "ix_owner", 1, true),
        ("SELECT * FROM dbo.q WHERE owner = 'o7'", "ix_owner", 1, true),
        ("SELECT COUNT(*) FROM dbo.q WHERE owner = 'o7' AND note = 'n'", "ix_owner", 1, false),
    ] {
        let (_, text) = run_traced(&scenario(setup, &[("A", 0, sql)]));
        let line = text
            .lines()
            .find(|l| l.contains("A reads "))
            .unwrap_or_else(|| panic!("{sql}: no read\n{text}"));
        assert!(line.contains(&format!("seek on index {index}")), "{sql}: {line}");
        // ix_new (int keys, 150 entries) is one page deep, ix_owner (varchar keys) two,
        // and so is the clustered index (300 rows).
        let depth = if index == "ix_new" { 1 } else { 2 };
        let expected = if lookups { depth + 2 * rows } else { depth };
        assert!(
            line.ends_with(&format!(": {expected} logical reads")),
            "{sql}: {line} (expected {expected})"
        );
    }
}
