//! Running a [`Plan`] on a real server: the setup on one connection, then one thread and
//! one connection per session with the lesson's start offsets, a monitor that samples
//! which backends wait for a lock, and the checks' SQL over the final state.
//!
//! Shared buffers: each session connects as a role of its own (`lockstep_session_N`, a
//! superuser like `postgres`, so nothing it may do changes), and `pg_stat_statements`
//! sums the buffers (hit + read) of that role's statements in the lesson's database.
//! Catalogue reads are left out the way EXPLAIN (ANALYZE, BUFFERS) leaves them out of a
//! plan's figure: only the executor's buffers count (`track_planning` off), so parsing
//! and planning in a fresh backend, which read the catalogue, add nothing; the counts
//! are reset once every connection is open and before the first statement. A statement
//! that fails counts nothing (the extension records a statement when it ends), and a
//! `DO` block counts as one statement, everything it ran included.

use std::collections::HashMap;
use std::error::Error as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use engine::{Outcome, ResultSet, SessionOutcome, SqlErrorInfo, Value};
use postgres::types::{FromSql, Type};
use postgres::{Client, NoTls};

use crate::cluster::Cluster;
use crate::plan::Plan;

/// The database each run gets afresh.
const DATABASE: &str = "lesson";

/// What the real server did, in the simulator's terms.
#[derive(Debug)]
pub struct RealRun {
    pub outcome: Outcome,
    /// Each session's first SQLSTATE, in `outcome.sessions` order.
    pub sqlstates: Vec<Option<String>>,
    /// Each query's rows over the final state (or why it failed), by its text.
    pub queries: HashMap<String, Result<ResultSet, String>>,
}

/// A session's figures as its thread returns them (the simulator's values are not
/// `Send`; they are made on the main thread).
struct SessionRun {
    name: String,
    statements: u64,
    errors: Vec<SqlErrorInfo>,
    elapsed_us: u64,
    results: Vec<PlainSet>,
    sqlstate: Option<String>,
    pid: i32,
    finished: Duration,
}

/// Runs `plan` on a fresh database of `cluster`, then `queries` over its final state.
pub fn run(cluster: &Cluster, plan: &Plan, queries: &[String]) -> Result<RealRun, String> {
    let mut admin = connect(cluster, "postgres")?;
    for statement in [
        format!("DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"),
        format!("CREATE DATABASE {DATABASE}"),
    ] {
        admin.batch_execute(&statement).map_err(text)?;
    }
    admin
        .batch_execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        .map_err(text)?;
    for i in 0..plan.sessions.len() {
        let role = session_role(i);
        let exists = admin
            .query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&role])
            .map_err(text)?
            .is_some();
        if !exists {
            admin
                .batch_execute(&format!("CREATE ROLE {role} SUPERUSER LOGIN"))
                .map_err(text)?;
        }
    }
    let mut setup = connect(cluster, DATABASE)?;
    for statement in &plan.setup {
        setup
            .batch_execute(statement)
            .map_err(|e| format!("setup `{statement}`: {}", text(e)))?;
    }
    drop(setup);

    // Every connection is open before the clock starts, so connecting costs no offset.
    let mut clients = Vec::new();
    for i in 0..plan.sessions.len() {
        let mut client = cluster
            .config_as(DATABASE, &session_role(i))
            .connect(NoTls)
            .map_err(text)?;
        let pid: i32 = client
            .query_one("SELECT pg_backend_pid()", &[])
            .map_err(text)?
            .get(0);
        clients.push((client, pid));
    }
    admin
        .batch_execute("SELECT pg_stat_statements_reset()")
        .map_err(text)?;
    let mut monitor = connect(cluster, "postgres")?;
    let done = Arc::new(AtomicBool::new(false));
    // One origin for every session, a little ahead so each thread is waiting for it.
    let t0 = Instant::now() + Duration::from_millis(50);
    let workers: Vec<_> = plan
        .sessions
        .iter()
        .cloned()
        .zip(clients)
        .map(|(session, (client, pid))| {
            thread::spawn(move || run_session(client, pid, &session, t0))
        })
        .collect();
    let waits = {
        let done = Arc::clone(&done);
        thread::spawn(move || sample_lock_waits(&mut monitor, &done))
    };
    let mut sessions = Vec::new();
    for worker in workers {
        sessions.push(
            worker
                .join()
                .map_err(|_| "a session thread panicked".to_string())?,
        );
    }
    done.store(true, Ordering::Relaxed);
    let waits = waits
        .join()
        .map_err(|_| "the lock monitor panicked".to_string())??;
    let end = sessions
        .iter()
        .map(|s| s.finished)
        .max()
        .unwrap_or_default();

    let buffers = shared_buffers(&mut admin)?;
    let mut after = connect(cluster, DATABASE)?;
    let queries = queries
        .iter()
        .map(|sql| {
            let rows = result_set(&mut after, sql).map(PlainSet::into_result);
            (sql.clone(), rows.map_err(text))
        })
        .collect();
    let sqlstates = sessions.iter().map(|s| s.sqlstate.clone()).collect();
    let outcome = Outcome {
        end_us: micros(end),
        sessions: sessions
            .into_iter()
            .enumerate()
            .map(|(i, s)| SessionOutcome {
                name: s.name,
                wait_us: waits.get(&s.pid).copied().map_or(0, micros),
                statements: s.statements,
                errors: s.errors,
                results: s.results.into_iter().map(PlainSet::into_result).collect(),
                logical_reads: buffers.get(&session_role(i)).copied().unwrap_or(0),
                elapsed_us: s.elapsed_us,
                delayed_us: 0,
                open_at_end: false,
            })
            .collect(),
    };
    Ok(RealRun {
        outcome,
        sqlstates,
        queries,
    })
}

/// The role session `i` (counting from 0) connects as.
fn session_role(i: usize) -> String {
    format!("lockstep_session_{}", i + 1)
}

/// Shared buffers (hit + read) of each role's statements in the lesson's database since
/// the last reset.
fn shared_buffers(admin: &mut Client) -> Result<HashMap<String, u64>, String> {
    let rows = admin
        .query(
            "SELECT r.rolname::text, sum(s.shared_blks_hit + s.shared_blks_read)::int8
             FROM pg_stat_statements s
             JOIN pg_roles r ON r.oid = s.userid
             JOIN pg_database d ON d.oid = s.dbid
             WHERE d.datname = $1
             GROUP BY r.rolname",
            &[&DATABASE],
        )
        .map_err(text)?;
    Ok(rows
        .iter()
        .map(|row| {
            let blocks: i64 = row.get(1);
            (row.get(0), u64::try_from(blocks).unwrap_or(0))
        })
        .collect())
}

/// One session's statements in order, as `psql` sends a script: an error ends only its
/// statement (in a transaction block the server then refuses the rest with 25P02 until
/// it ends, and `COMMIT` rolls back), and closing the connection rolls back what is open.
fn run_session(
    mut client: Client,
    pid: i32,
    session: &crate::plan::SessionPlan,
    t0: Instant,
) -> SessionRun {
    let start = t0 + Duration::from_micros(session.start_us);
    thread::sleep(start.saturating_duration_since(Instant::now()));
    let began = Instant::now();
    let mut statements = 0;
    let mut errors = Vec::new();
    let mut sqlstate = None;
    let mut results = Vec::new();
    for statement in &session.statements {
        statements += 1;
        match result_set(&mut client, statement) {
            Ok(rs) => {
                // A statement without columns, or only `void` ones (`SELECT pg_sleep(1)`),
                // returns nothing a lesson reads.
                if !rs.columns.is_empty() {
                    results.push(rs);
                }
            }
            Err(e) => {
                let (code, message) = match e.as_db_error() {
                    Some(d) => (d.code().code().to_string(), d.message().to_string()),
                    None => ("connection".to_string(), text(e)),
                };
                sqlstate.get_or_insert(code);
                errors.push(SqlErrorInfo {
                    number: 0,
                    severity: 16,
                    state: 1,
                    message,
                    caught: false,
                    sqlstate: None,
                    at: None,
                });
            }
        }
    }
    drop(client);
    let finished = Instant::now();
    SessionRun {
        name: session.name.clone(),
        statements,
        errors,
        elapsed_us: micros(finished - began),
        results,
        sqlstate,
        pid,
        finished: finished - t0,
    }
}

/// Samples `pg_stat_activity` until `done`: each interval in which a backend was seen
/// waiting for a heavyweight lock (a row's transaction, an advisory lock) counts as
/// waiting. Local round trips take tens of microseconds, so a wait is measured to
/// well under a millisecond.
fn sample_lock_waits(
    monitor: &mut Client,
    done: &AtomicBool,
) -> Result<HashMap<i32, Duration>, String> {
    let query = monitor
        .prepare("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        .map_err(text)?;
    let mut waits: HashMap<i32, Duration> = HashMap::new();
    let mut last = Instant::now();
    while !done.load(Ordering::Relaxed) {
        let rows = monitor.query(&query, &[]).map_err(text)?;
        let now = Instant::now();
        for row in rows {
            *waits.entry(row.get(0)).or_default() += now - last;
        }
        last = now;
    }
    Ok(waits)
}

/// A result set as a session thread holds it, made of values that can cross threads.
struct PlainSet {
    columns: Vec<String>,
    rows: Vec<Vec<Plain>>,
}

enum Plain {
    Null,
    Int(i64),
    Bool(bool),
    Decimal(f64),
    Text(String),
    /// Microseconds since 1970, and whether it is a timestamptz (printed with `+00`).
    DateTime(i64, bool),
}

impl PlainSet {
    fn into_result(self) -> ResultSet {
        let value = |p: Plain| match p {
            Plain::Null => Value::Null,
            Plain::Int(i) => Value::Int(i),
            Plain::Bool(b) => Value::bool(b),
            Plain::Decimal(d) => Value::Decimal(d),
            Plain::Text(t) => Value::Text(t.into()),
            Plain::DateTime(t, false) => Value::DateTime(t, engine::Stamp::Trimmed),
            Plain::DateTime(t, true) => Value::DateTime(t, engine::Stamp::TrimmedTz),
        };
        ResultSet {
            columns: self.columns,
            rows: self
                .rows
                .into_iter()
                .map(|r| r.into_iter().map(value).collect())
                .collect(),
        }
    }
}

fn result_set(client: &mut Client, sql: &str) -> Result<PlainSet, postgres::Error> {
    let statement = client.prepare(sql)?;
    let rows = client.query(&statement, &[])?;
    let columns: Vec<_> = statement
        .columns()
        .iter()
        .filter(|c| *c.type_() != Type::VOID)
        .map(|c| c.name().to_string())
        .collect();
    let kept: Vec<usize> = (0..statement.columns().len())
        .filter(|&i| *statement.columns()[i].type_() != Type::VOID)
        .collect();
    let rows = rows
        .iter()
        .map(|row| {
            kept.iter()
                .map(|&i| row.try_get::<_, Cell>(i).map(|c| c.0))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<_, _>>()?;
    Ok(PlainSet { columns, rows })
}

/// A value of any column type the lessons use, as the simulator holds it.
struct Cell(Plain);

/// PostgreSQL's epoch (2000-01-01) in microseconds after 1970-01-01.
const PG_EPOCH_US: i64 = 946_684_800_000_000;

impl<'a> FromSql<'a> for Cell {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> Result<Cell, Box<dyn std::error::Error + Sync + Send>> {
        let value = match *ty {
            Type::BOOL => Plain::Bool(bool::from_sql(ty, raw)?),
            Type::INT2 => Plain::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::INT4 => Plain::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT8 => Plain::Int(i64::from_sql(ty, raw)?),
            Type::OID => Plain::Int(i64::from(u32::from_sql(ty, raw)?)),
            Type::FLOAT4 => Plain::Decimal(f64::from(f32::from_sql(ty, raw)?)),
            Type::FLOAT8 => Plain::Decimal(f64::from_sql(ty, raw)?),
            Type::NUMERIC => numeric(raw)?,
            Type::TIMESTAMP | Type::TIMESTAMPTZ => Plain::DateTime(
                i64::from_sql(&Type::INT8, raw)? + PG_EPOCH_US,
                *ty == Type::TIMESTAMPTZ,
            ),
            _ => Plain::Text(std::str::from_utf8(raw)?.to_string()),
        };
        Ok(Cell(value))
    }

    fn from_sql_null(_: &Type) -> Result<Cell, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Cell(Plain::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// NUMERIC's binary form: digit count, weight, sign, scale, then base-10000 digits.
fn numeric(raw: &[u8]) -> Result<Plain, Box<dyn std::error::Error + Sync + Send>> {
    let word = |i: usize| -> Result<i16, String> {
        raw.get(i * 2..i * 2 + 2)
            .map(|b| i16::from_be_bytes([b[0], b[1]]))
            .ok_or_else(|| "short numeric".to_string())
    };
    let (count, weight, sign, scale) = (word(0)?, word(1)?, word(2)? as u16, word(3)?);
    let mut v = 0f64;
    for i in 0..count.max(0) as usize {
        v += f64::from(word(4 + i)?) * 10000f64.powi(i32::from(weight) - i as i32);
    }
    if sign == 0x4000 {
        v = -v;
    }
    Ok(if scale == 0 && v.abs() < 9e15 {
        Plain::Int(v as i64)
    } else {
        Plain::Decimal(v)
    })
}

fn connect(cluster: &Cluster, database: &str) -> Result<Client, String> {
    cluster.config(database).connect(NoTls).map_err(text)
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// An error with its server message and SQLSTATE when the server sent one.
fn text(e: postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} (SQLSTATE {})", db.message(), db.code().code()),
        None => e
            .source()
            .map_or_else(|| e.to_string(), |s| format!("{e}: {s}")),
    }
}
