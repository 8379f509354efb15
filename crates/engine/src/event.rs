//! The closed set of things that happen in a simulation. `Display` gives the one-line
//! trace that tests, the CLI and the UI share; each line names who and why.

use std::fmt;
use std::rc::Rc;

use crate::state::locks::LockMode;

/// Why a lock went away.
/// Which script a statement's text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Setup,
    Session(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReleaseReason {
    Commit,
    Rollback,
    EndOfStatement,
    /// sp_releaseapplock or a session ending.
    Explicit,
}

/// How a statement found its rows, for the "why" of logical reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    ClusteredSeek,
    ClusteredScan,
    IndexSeek(String),
    /// Teradata: the row hash of a primary index value leads to one AMP and its rows.
    PrimaryIndex,
    Constant,
    /// A heap table's full scan (PostgreSQL's `Seq Scan`).
    SeqScan,
    /// A full scan of a table whose rows are spread by a hash (Teradata's EXPLAIN: "by
    /// way of an all-rows scan").
    AllRowsScan,
    /// A heap table's access through a B-tree, its primary key's included (PostgreSQL's
    /// `Index Scan using task_pkey`).
    IndexScan(String),
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Access::ClusteredSeek => f.write_str("clustered index seek"),
            Access::ClusteredScan => f.write_str("clustered index scan"),
            Access::IndexSeek(ix) => write!(f, "seek on index {ix}"),
            Access::PrimaryIndex => f.write_str("primary index (row hash)"),
            Access::Constant => f.write_str("no table"),
            Access::SeqScan => f.write_str("sequential scan"),
            Access::AllRowsScan => f.write_str("all-rows scan"),
            Access::IndexScan(ix) => write!(f, "index scan using {ix}"),
        }
    }
}

/// A foreign key's action on the rows that reference a key that went: `ON DELETE
/// CASCADE`, and what it does to them (`are deleted too`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyAction {
    /// `DELETE` or `UPDATE`.
    pub on: &'static str,
    pub name: &'static str,
    pub effect: &'static str,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    SetupFinished {
        statements: u64,
        tables: usize,
    },
    SessionStarted {
        session: Rc<str>,
    },
    SessionFinished {
        session: Rc<str>,
    },
    /// `line` is 1-based in the session's (or procedure's) script; `text` is the statement's
    /// first line; `span` its byte range in the script the session runs (procedure bodies
    /// point into the script that created them, `in_proc` names it).
    StatementStarted {
        session: Rc<str>,
        label: &'static str,
        line: u32,
        text: Rc<str>,
        source: Source,
        span: (usize, usize),
        in_proc: Option<Rc<str>>,
    },
    StatementFinished {
        session: Rc<str>,
        label: &'static str,
        rows: Option<u64>,
        reads: u64,
        cost_us: u64,
        /// What the dialect calls `reads` ("logical reads", "shared buffers hit"), set by
        /// the dialect as the event is recorded.
        reads_name: &'static str,
        /// The part of `cost_us` a commit spent waiting for a slow log flush (the
        /// engine's occasional stall), so a slow COMMIT says why.
        flush_wait_us: u64,
    },
    TransactionBegan {
        session: Rc<str>,
        explicit: bool,
    },
    TransactionCommitted {
        session: Rc<str>,
        locks_released: usize,
        /// How many of them are intent locks on tables or pages, which no release line
        /// lists (so the count and the lines below it agree).
        intent_locks: usize,
        /// Whether the dialect locks pages, so the line says "tables or pages" rather
        /// than "tables" (set as the event is recorded).
        pages: bool,
    },
    TransactionRolledBack {
        session: Rc<str>,
        locks_released: usize,
        intent_locks: usize,
        why: String,
        pages: bool,
    },
    LockGranted {
        session: Rc<str>,
        resource: String,
        mode: LockMode,
        waited_us: Option<u64>,
        /// The mode as the dialect's manuals name it, when that differs from `mode`'s
        /// abbreviation (set by the dialect as the event is recorded).
        mode_name: Option<&'static str>,
    },
    LockWaiting {
        session: Rc<str>,
        resource: String,
        mode: LockMode,
        holders: Vec<(String, LockMode)>,
        /// The mode as the dialect's manuals name it, when that differs from `mode`'s
        /// abbreviation (set by the dialect as the event is recorded).
        mode_name: Option<&'static str>,
        /// The holders' modes as the dialect names them, one per holder; empty when the
        /// dialect renames none of them.
        holder_mode_names: Vec<Option<&'static str>>,
        /// Earlier requests this one is queued behind, when it conflicts with no held
        /// lock (boxed: rare, and every event is as large as the largest).
        queued: Option<Box<Queued>>,
        /// Asked for with NOWAIT: the request gives up at once ([`Event::WaitTimedOut`]
        /// follows at the same instant), so the trace does not say it waits.
        nowait: bool,
    },
    /// A lock asked for without waiting and refused at once: `function`
    /// (`pg_try_advisory_lock`) answers false, and nothing waits.
    LockRefused {
        session: Rc<str>,
        resource: String,
        mode: LockMode,
        holders: Vec<(String, LockMode)>,
        function: &'static str,
        /// The asked-for mode as the dialect names it (set as the event is recorded).
        mode_name: Option<&'static str>,
        /// The holders' modes as the dialect names them; empty when it renames none.
        holder_mode_names: Vec<Option<&'static str>>,
        /// When no holder's lock conflicts: the earlier requests it would have queued
        /// behind, which refuse it as surely.
        queued: Option<Box<Queued>>,
    },
    LockReleased {
        session: Rc<str>,
        resource: String,
        mode: LockMode,
        reason: ReleaseReason,
        /// The mode as the dialect's manuals name it, when that differs from `mode`'s
        /// abbreviation (set by the dialect as the event is recorded).
        mode_name: Option<&'static str>,
    },
    RowSkipped {
        session: Rc<str>,
        table: Rc<str>,
        key: String,
        holder: String,
        held: LockMode,
        wanted: LockMode,
        /// The clause that skips, as the dialect writes it (`READPAST`, `SKIP LOCKED`),
        /// and the modes as its manuals name them (set as the event is recorded).
        clause: &'static str,
        held_name: Option<&'static str>,
        wanted_name: Option<&'static str>,
    },
    RowsRead {
        session: Rc<str>,
        table: Rc<str>,
        rows: u64,
        logical_reads: u64,
        access: Access,
        /// What the dialect calls `logical_reads`, set as the event is recorded.
        reads_name: &'static str,
    },
    RowInserted {
        session: Rc<str>,
        table: Rc<str>,
        key: String,
    },
    RowUpdated {
        session: Rc<str>,
        table: Rc<str>,
        key: String,
        changes: Vec<(String, String, String)>,
    },
    RowDeleted {
        session: Rc<str>,
        table: Rc<str>,
        key: String,
    },
    /// A foreign key's check at the end of a statement that wrote `table`: the query
    /// that reads `reads` (and locks what it finds), as the server's referential
    /// integrity runs one.
    ForeignKeyChecked {
        session: Rc<str>,
        constraint: Rc<str>,
        table: Rc<str>,
        reads: Rc<str>,
        /// The key's values, as `1` or `1, a`.
        key: String,
        /// None: a referencing row's check (its referenced row must exist). Else a
        /// referenced row's key went: the key's action.
        action: Option<KeyAction>,
    },
    ResultReturned {
        session: Rc<str>,
        columns: Vec<String>,
        rows: usize,
        first_row: Option<String>,
    },
    Sleeping {
        session: Rc<str>,
        until_us: u64,
        delay_us: u64,
        /// The statement that sleeps, as the dialect writes it (`WAITFOR DELAY`,
        /// `pg_sleep`; set as the event is recorded).
        call: &'static str,
    },
    Error {
        session: Rc<str>,
        number: u32,
        /// [`crate::error::NO_SEVERITY`] in a dialect that shows none (Teradata).
        severity: u8,
        state: u8,
        message: String,
        caught: bool,
        /// The SQLSTATE, in a dialect that numbers errors so (PostgreSQL's `55P03`).
        sqlstate: Option<&'static str>,
    },
    WaitTimedOut {
        session: Rc<str>,
        resource: String,
        waited_us: u64,
        /// A NOWAIT request, which gives up at once rather than when a timeout runs out.
        nowait: bool,
        /// The setting whose time ran out, as the dialect's scripts write it
        /// (`LOCK_TIMEOUT`, `@LockTimeout`, `lock_timeout`, `statement_timeout`).
        setting: &'static str,
    },
    Deadlock {
        victim: String,
        cycle: Vec<String>,
    },
    Printed {
        session: Rc<str>,
        text: String,
    },
    ProcedureCalled {
        session: Rc<str>,
        procedure: Rc<str>,
    },
    ProcedureReturned {
        session: Rc<str>,
        procedure: Rc<str>,
        /// `None` in a dialect whose procedures return no code (PostgreSQL), and when
        /// an error left the procedure.
        code: Option<i64>,
        /// The error (`50001`, `23505`) that left the procedure, unwinding it.
        error: Option<Rc<str>>,
    },
    /// sp_getapplock's answer: 0 granted at once, 1 after waiting, -1 timed out,
    /// -3 deadlock victim, -999 a call error; `holders` hold the lock when refused.
    /// Teradata: a SELECT AND CONSUME found the queue empty; its transaction waits in the
    /// delayed state, holding no lock on the queue (locks it took before stay), until a
    /// row arrives.
    ConsumeDelayed {
        session: Rc<str>,
        table: Rc<str>,
    },
    /// Teradata: a row arrived and the delayed consume goes on.
    ConsumeResumed {
        session: Rc<str>,
        table: Rc<str>,
        delayed_us: u64,
    },
    /// Teradata: a DELETE, UPDATE or MERGE on a queue table spoiled its FIFO cache; the
    /// next access rebuilds it with a full table scan.
    FifoCacheRebuilt {
        session: Rc<str>,
        table: Rc<str>,
        reads: u64,
    },
    /// A row inserted into `external_system`, the simulated receiver of SCENARIOS.md I2:
    /// each such row is one real call.
    ExternalCall {
        session: Rc<str>,
        key: String,
    },
    AppLockRequested {
        session: Rc<str>,
        resource: String,
        mode: LockMode,
        code: i64,
        holders: Vec<String>,
    },
    /// SQL Server escalated a statement's row and page locks on a table (`resource`,
    /// `OBJECT t`) to one lock on the whole table in `mode`, releasing `released` of them
    /// (semantics A4).
    LockEscalated {
        session: Rc<str>,
        resource: String,
        mode: LockMode,
        released: usize,
    },
}

impl Event {
    /// The session the event belongs to, if any.
    pub fn session(&self) -> Option<&str> {
        use Event::*;
        match self {
            SetupFinished { .. } => None,
            Deadlock { victim, .. } => Some(victim),
            SessionStarted { session }
            | SessionFinished { session }
            | StatementStarted { session, .. }
            | StatementFinished { session, .. }
            | TransactionBegan { session, .. }
            | TransactionCommitted { session, .. }
            | TransactionRolledBack { session, .. }
            | LockGranted { session, .. }
            | LockWaiting { session, .. }
            | LockReleased { session, .. }
            | LockRefused { session, .. }
            | RowSkipped { session, .. }
            | RowsRead { session, .. }
            | RowInserted { session, .. }
            | RowUpdated { session, .. }
            | RowDeleted { session, .. }
            | ForeignKeyChecked { session, .. }
            | ResultReturned { session, .. }
            | Sleeping { session, .. }
            | Error { session, .. }
            | WaitTimedOut { session, .. }
            | Printed { session, .. }
            | ProcedureCalled { session, .. }
            | ProcedureReturned { session, .. }
            | AppLockRequested { session, .. }
            | LockEscalated { session, .. }
            | ExternalCall { session, .. }
            | ConsumeDelayed { session, .. }
            | ConsumeResumed { session, .. }
            | FifoCacheRebuilt { session, .. } => Some(session),
        }
    }
}

fn ms(us: u64) -> String {
    if us % 1000 == 0 {
        format!("{} ms", us / 1000)
    } else {
        format!("{:.3} ms", us as f64 / 1000.0)
    }
}

/// A lock mode as the dialect names it.
fn mode_text(mode: LockMode, name: Option<&'static str>) -> String {
    name.map_or_else(|| mode.to_string(), str::to_string)
}

/// Earlier requests a wait is queued behind ([`Event::LockWaiting`]): locks are granted
/// in order, so a request compatible with every holder still waits behind one that is
/// not (a holder's conversion of U to X, an ALTER's lock).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    /// Each session with the mode it waits for, in queue order.
    pub sessions: Vec<(String, LockMode)>,
    /// Their modes as the dialect names them; empty when it renames none.
    pub mode_names: Vec<Option<&'static str>>,
}

/// Whom a wait waits for: the holders, then the earlier requests it is queued behind.
fn holders_text(
    holders: &[(String, LockMode)],
    names: &[Option<&'static str>],
    queued: Option<&Queued>,
) -> String {
    let name = |names: &[Option<&'static str>], k: usize| names.get(k).copied().flatten();
    let each: Vec<String> = holders
        .iter()
        .enumerate()
        .map(|(k, (h, m))| format!("{h} holds {}", mode_text(*m, name(names, k))))
        .chain(queued.into_iter().flat_map(|q| {
            q.sessions.iter().enumerate().map(|(k, (s, m))| {
                format!(
                    "{s} is queued ahead for {}",
                    mode_text(*m, name(&q.mode_names, k))
                )
            })
        }))
        .collect();
    if each.is_empty() {
        return "earlier waiters are queued".into();
    }
    each.join(", ")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Event::*;
        match self {
            SetupFinished { statements, tables } => {
                write!(
                    f,
                    "setup ran {statements} statement{} and left {tables} table{}",
                    if *statements == 1 { "" } else { "s" },
                    if *tables == 1 { "" } else { "s" }
                )
            }
            SessionStarted { session } => write!(f, "{session} connects"),
            SessionFinished { session } => write!(f, "{session} finishes its script"),
            StatementStarted { session, label: _, line, text, in_proc, .. } => match in_proc {
                Some(p) => write!(f, "{session} runs {p} line {line}: {text}"),
                None => write!(f, "{session} runs line {line}: {text}"),
            },
            StatementFinished { session, label, rows, reads, cost_us, reads_name, flush_wait_us } => {
                write!(f, "{session} finishes {label}")?;
                if let Some(r) = rows {
                    write!(f, ", {r} row(s)")?;
                }
                if *reads > 0 {
                    write!(f, ", {reads} {reads_name}")?;
                }
                write!(f, " in {}", ms(*cost_us))?;
                if *flush_wait_us > 0 {
                    write!(f, " ({} of it waiting for a slow log flush)", ms(*flush_wait_us))?;
                }
                Ok(())
            }
            TransactionBegan { session, explicit } => {
                if *explicit {
                    write!(f, "{session} begins a transaction")
                } else {
                    write!(f, "{session} begins an autocommit transaction")
                }
            }
            TransactionCommitted { session, locks_released, intent_locks, pages } => {
                write!(f, "{session} commits and releases {locks_released} lock(s)")?;
                on_tables_or_pages(f, *intent_locks, *pages)
            }
            TransactionRolledBack { session, locks_released, intent_locks, why, pages } => {
                write!(f, "{session} rolls back ({why}) and releases {locks_released} lock(s)")?;
                on_tables_or_pages(f, *intent_locks, *pages)
            }
            LockGranted { session, resource, mode, waited_us, mode_name } => {
                let mode = mode_text(*mode, *mode_name);
                match waited_us {
                    Some(w) => write!(f, "{session} gets {mode} on {resource} after waiting {}", ms(*w)),
                    None => write!(f, "{session} gets {mode} on {resource}"),
                }
            }
            LockWaiting {
                session,
                resource,
                mode,
                holders,
                mode_name,
                holder_mode_names,
                queued,
                nowait,
            } => {
                write!(
                    f,
                    "{session} {} {} on {resource}{}: ",
                    if *nowait { "asks for" } else { "waits for" },
                    mode_text(*mode, *mode_name),
                    if *nowait { " with NOWAIT" } else { "" },
                )?;
                f.write_str(&holders_text(holders, holder_mode_names, queued.as_deref()))
            }
            LockRefused {
                session,
                resource,
                mode,
                holders,
                function,
                mode_name,
                holder_mode_names,
                queued,
            } => write!(
                f,
                "{session} is refused {} on {resource}: {}; {function} returns false",
                mode_text(*mode, *mode_name),
                holders_text(holders, holder_mode_names, queued.as_deref())
            ),
            LockReleased { session, resource, mode, reason, mode_name } => {
                let mode = mode_text(*mode, *mode_name);
                let why = match reason {
                    ReleaseReason::Commit => "at commit",
                    ReleaseReason::Rollback => "at rollback",
                    ReleaseReason::EndOfStatement => "at the end of the statement",
                    ReleaseReason::Explicit => "on request",
                };
                write!(f, "{session} releases {mode} on {resource} {why}")
            }
            RowSkipped { session, table, key, holder, held, wanted, clause, held_name, wanted_name } => write!(
                f,
                "{session} skips {table} ({key}) with {clause}: {holder} holds {}, {session} needs {}",
                mode_text(*held, *held_name),
                mode_text(*wanted, *wanted_name)
            ),
            RowsRead { session, table, rows, logical_reads, access, reads_name } => write!(
                f,
                "{session} reads {rows} row(s) of {table} by {access}: {logical_reads} {reads_name}"
            ),
            RowInserted { session, table, key } => write!(f, "{session} inserts {table} ({key})"),
            RowUpdated { session, table, key, changes } => {
                write!(f, "{session} updates {table} ({key})")?;
                for (i, (col, old, new)) in changes.iter().enumerate() {
                    let sep = if i == 0 { ": " } else { ", " };
                    write!(f, "{sep}{col} {old} -> {new}")?;
                }
                Ok(())
            }
            RowDeleted { session, table, key } => write!(f, "{session} deletes {table} ({key})"),
            ForeignKeyChecked { session, constraint, reads, key, action: None, .. } => write!(
                f,
                "{session} checks foreign key {constraint}: {reads} ({key}) must exist"
            ),
            ForeignKeyChecked { session, constraint, table, reads, key, action: Some(a) } => write!(
                f,
                "{session} checks foreign key {constraint} (ON {} {}): rows of {reads} that reference {table} ({key}) {}",
                a.on, a.name, a.effect
            ),
            ResultReturned { session, columns, rows, first_row } => {
                write!(f, "{session} gets {rows} row(s) [{}]", columns.join(", "))?;
                if let Some(r) = first_row {
                    write!(f, ": {r}")?;
                }
                Ok(())
            }
            Sleeping { session, delay_us, call, .. } => write!(f, "{session} sleeps {} ({call})", ms(*delay_us)),
            Error { session, number, severity, state, message, caught, sqlstate } => {
                match sqlstate {
                    Some(code) => write!(f, "{session} gets error {code}")?,
                    None if *number == crate::error::UNNUMBERED => write!(f, "{session} gets error {}", crate::error::NO_NUMBER)?,
                    None if *severity == crate::error::NO_SEVERITY => write!(f, "{session} gets error {number}")?,
                    None => write!(f, "{session} gets error {number} (severity {severity}, state {state})")?,
                }
                if *caught {
                    write!(f, ", caught")?;
                }
                write!(f, ": {message}")
            }
            WaitTimedOut { session, resource, nowait: true, .. } => {
                write!(f, "{session} does not wait for {resource} (NOWAIT)")
            }
            WaitTimedOut { session, resource, waited_us, nowait: false, setting } => {
                write!(f, "{session} stops waiting for {resource} after {} ({setting})", ms(*waited_us))
            }
            Deadlock { victim, cycle } => {
                // The cycle in wait order: each session waits for the next, the last
                // for the first.
                write!(f, "deadlock: ")?;
                for (k, s) in cycle.iter().enumerate() {
                    let next = &cycle[(k + 1) % cycle.len()];
                    let sep = if k == 0 { "" } else { ", " };
                    write!(f, "{sep}{s} waits for {next}")?;
                }
                write!(f, "; {victim} is chosen as the victim")
            }
            Printed { session, text } => write!(f, "{session} prints: {text}"),
            ProcedureCalled { session, procedure } => write!(f, "{session} calls {procedure}"),
            ConsumeDelayed { session, table } => {
                write!(f, "{session} finds {table} empty: its consume is delayed, holding no lock on {table}, until a row arrives")
            }
            ConsumeResumed { session, table, delayed_us } => {
                write!(f, "{session}'s consume on {table} resumes after {} in the delayed state", ms(*delayed_us))
            }
            FifoCacheRebuilt { session, table, reads } => write!(
                f,
                "{session} changed queue table {table}: its FIFO cache is rebuilt with a full table scan ({reads} logical reads)"
            ),
            ExternalCall { session, key } => write!(f, "{session} calls the external system: it records call ({key})"),
            AppLockRequested { session, resource, mode, code, holders } => {
                let meaning = match code {
                    0 => "granted at once".to_string(),
                    1 => "granted after waiting".to_string(),
                    -1 if holders.is_empty() => "timed out".to_string(),
                    -1 => format!("timed out: {} holds it", holders.join(", ")),
                    -3 => "chosen as deadlock victim".to_string(),
                    _ => "a parameter or call error".to_string(),
                };
                write!(f, "{session}'s sp_getapplock for {} on {resource} returns {code}: {meaning}", mode.applock_name())
            }
            LockEscalated { session, resource, mode, released } => write!(
                f,
                "{session} escalates to {mode} on {resource}: its {released} row and page lock(s) there are released"
            ),
            ProcedureReturned { session, procedure, error: Some(e), .. } => {
                write!(f, "{session} leaves {procedure} on error {e}")
            }
            ProcedureReturned { session, procedure, code: Some(code), .. } => {
                write!(f, "{session} returns from {procedure} with code {code}")
            }
            ProcedureReturned { session, procedure, .. } => {
                write!(f, "{session} returns from {procedure}")
            }
        }
    }
}

/// The events of a run, in order, each stamped with virtual time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    pub entries: Vec<TraceEntry>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TraceEntry {
    /// Microseconds since the sessions' time zero (the end of setup).
    pub at_us: u64,
    pub event: Event,
}

/// ", 2 of them on tables or pages": the intent locks a commit or rollback releases
/// without a line of their own.
fn on_tables_or_pages(
    f: &mut std::fmt::Formatter<'_>,
    intent_locks: usize,
    pages: bool,
) -> std::fmt::Result {
    match (intent_locks, pages) {
        (0, _) => Ok(()),
        (1, true) => write!(f, ", 1 of them on a table or page"),
        (n, true) => write!(f, ", {n} of them on tables or pages"),
        (1, false) => write!(f, ", 1 of them on a table"),
        (n, false) => write!(f, ", {n} of them on tables"),
    }
}

impl std::fmt::Display for TraceEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:>10.3} ms  {}", self.at_us as f64 / 1000.0, self.event)
    }
}

impl std::fmt::Display for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for e in &self.entries {
            writeln!(f, "{e}")?;
        }
        Ok(())
    }
}
