//! Statements run against the world: the session's control flow (`run`), transactions
//! (`txn`), locking (`lock`), statements and DDL (`stmt`), queries and DML (`query`) and
//! expressions (`expr`). They are methods of [`Exec`]: the world, the cost model's
//! generator, the event output and the dialect's [`Rules`] for the length of one step.
//!
//! [`Rules`] is what the executor asks of a dialect. Each dialect (`crate::dialect`)
//! implements it; the executor calls it where dialects differ and never names one. The
//! defaults are SQL Server's behaviour.

pub(crate) mod bind;
pub(crate) mod expr;
pub(crate) mod foreign_keys;
pub(crate) mod lock;
pub(crate) mod query;
pub(crate) mod run;
pub(crate) mod ssi;
pub(crate) mod stmt;
pub(crate) mod txn;
pub(crate) mod window;

use std::collections::BTreeMap;
use std::rc::Rc;

use rand_chacha::ChaCha8Rng;

use crate::cost::CostKind;
use crate::error::{AbortScope, SqlError};
use crate::event::TraceEntry;
use crate::event::{Access, Event};
use crate::state::locks::{LockMode, Resource, ResourceWords};
use crate::state::session::{ClientSettings, Frame};
use crate::state::storage::{Column, Table};
use crate::state::World;
use crate::value::Value;
use sql::ast::{Batch, BinaryOp, Expr, ExprKind, IsolationLevel, SelectAndConsume, Stmt, UnaryOp};

/// Rows one table or one query result may hold: past this a session stops with a clear
/// error instead of using up the memory.
pub(crate) const MAX_ROWS: usize = 1_000_000;

/// Rows one statement may examine, over all its scans (a correlated subquery's included):
/// a step runs to its end, so a statement of hours (a subquery over 20 000 rows for each
/// of 20 000 rows) would freeze the page that builds the run. 2 million take a fraction
/// of a second.
pub(crate) const MAX_STATEMENT_ROWS: u64 = 2_000_000;

/// What a run does with its events: keep them (the trace), count them, or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sink {
    /// Every event of a step is kept until the next step ([`crate::sim::Simulation::events`]).
    #[default]
    Full,
    /// Events are only counted ([`crate::sim::Simulation::event_count`]).
    Counters,
    /// Nothing: for searches that only need states.
    Nothing,
}

/// Rows read and written, collected while a footprint is being taken.
#[derive(Clone, Debug, Default)]
pub(crate) struct Touched {
    pub read: Vec<(u32, usize)>,
    pub written: Vec<(u32, usize)>,
    /// A serializable transaction's reads, writes or end were tracked (`state::ssi`).
    pub ssi: bool,
}

/// A statement's line and trace text by its source and span.
pub(crate) type StatementTexts = BTreeMap<(usize, usize, usize), (u32, Rc<str>)>;

/// Whether an index covers a SELECT, by the SELECT's (source, span start, span end),
/// the table and the index's id: a property of the text and the schema, asked at each
/// run of the statement.
pub(crate) type Covering = BTreeMap<(usize, usize, usize, u32, u32), bool>;

/// Where a step's events go.
#[derive(Clone, Default)]
pub(crate) struct Output {
    pub sink: Sink,
    /// The events of the current step (with [`Sink::Full`]); of the whole run while
    /// `keep` is set.
    pub events: Vec<TraceEntry>,
    /// A step does not empty `events` first: `Simulation::run_traced` lets the trace grow
    /// in place rather than moving every event a second time.
    pub keep: bool,
    pub count: u64,
    /// Rows read and written in the current step, when a footprint is being taken.
    pub touched: Option<Touched>,
    /// Each statement's line and trace text by (source, span): built at its first run,
    /// shared by clones (a snapshot copies a pointer, not the map).
    pub statement_texts: Rc<StatementTexts>,
    /// Whether an index covers a SELECT (see [`Covering`]).
    pub covering: Rc<Covering>,
}

/// Why a statement stopped before it finished.
pub(crate) enum Interrupt {
    Block,
    /// Boxed: every expression's and statement's `Result` carries this, and a pointer
    /// keeps those results small on the paths that do not fail.
    Error(Box<SqlError>),
}

impl From<SqlError> for Interrupt {
    fn from(e: SqlError) -> Self {
        Interrupt::Error(Box::new(e))
    }
}

impl From<Box<SqlError>> for Interrupt {
    fn from(e: Box<SqlError>) -> Self {
        Interrupt::Error(e)
    }
}

/// What a statement asks of the session after it ran.
pub(crate) enum Flow {
    /// Done: the session is busy for the statement's cost.
    Done {
        kind: CostKind,
        rows: Option<u64>,
        reads: u64,
        written: u64,
    },
    Sleep(u64),
    /// The statement is half done (a MERGE between its read and its writes): it runs
    /// again after this many µs, at the same place.
    Pause(u64),
    /// EXEC of a procedure: push its frame.
    Call(Box<Frame>),
    /// RETURN from the current frame.
    Return(Option<i64>),
}

impl Flow {
    /// The rows a finished statement wrote (0 for anything else).
    pub(crate) fn rows_written(&self) -> usize {
        match self {
            Flow::Done { written, .. } => *written as usize,
            _ => 0,
        }
    }
}

/// A finished statement of `kind` that touched no rows.
/// Compiles a batch or a procedure body, with the dialect's view of what is a statement
/// of its own in the trace.
pub(crate) fn compile(rules: &dyn Rules, stmts: &[Stmt]) -> Rc<crate::state::program::Code> {
    let shape = crate::state::program::Shape {
        call_is_statement: &|f| rules.call_is_statement(f),
        declarations_are_statements: rules.declarations_are_statements(),
    };
    crate::state::program::compile(stmts, &shape)
}

pub(crate) fn done(kind: CostKind) -> Flow {
    Flow::Done {
        kind,
        rows: None,
        reads: 0,
        written: 0,
    }
}

/// The world and what a step needs besides it, borrowed for one step.
pub(crate) struct Exec<'a> {
    pub w: &'a mut World,
    /// The cost model's generator (statement costs, slow flushes, NEWID()).
    pub rng: &'a mut ChaCha8Rng,
    pub out: &'a mut Output,
    pub rules: &'static dyn Rules,
}

impl Exec<'_> {
    pub(crate) fn push(&mut self, mut event: Event) {
        if !self.recording() {
            return;
        }
        self.out.count += 1;
        if self.out.sink != Sink::Full {
            return;
        }
        if let Event::LockGranted {
            resource,
            mode,
            mode_name,
            ..
        }
        | Event::LockWaiting {
            resource,
            mode,
            mode_name,
            ..
        }
        | Event::LockReleased {
            resource,
            mode,
            mode_name,
            ..
        }
        | Event::LockRefused {
            resource,
            mode,
            mode_name,
            ..
        } = &mut event
        {
            *mode_name = self.rules.mode_name_on(resource, *mode);
        }
        match &mut event {
            Event::RowSkipped {
                held,
                wanted,
                clause,
                held_name,
                wanted_name,
                ..
            } => {
                *clause = self.rules.skip_clause();
                *held_name = self.rules.mode_name(*held);
                *wanted_name = self.rules.mode_name(*wanted);
            }
            Event::LockWaiting {
                resource,
                holders,
                holder_mode_names,
                queued,
                ..
            }
            | Event::LockRefused {
                resource,
                holders,
                holder_mode_names,
                queued,
                ..
            } => {
                let queued = queued
                    .as_deref_mut()
                    .map(|q| (&q.sessions, &mut q.mode_names));
                for (list, names) in [(&*holders, holder_mode_names)].into_iter().chain(queued) {
                    let named: Vec<Option<&'static str>> = list
                        .iter()
                        .map(|(_, m)| self.rules.mode_name_on(resource, *m))
                        .collect();
                    if named.iter().any(Option::is_some) {
                        *names = named;
                    }
                }
            }
            Event::Sleeping { call, .. } => *call = self.rules.sleep_call(),
            Event::TransactionCommitted { pages, .. }
            | Event::TransactionRolledBack { pages, .. } => *pages = self.rules.page_locks(),
            Event::RowsRead { reads_name, .. } | Event::StatementFinished { reads_name, .. } => {
                *reads_name = self.rules.reads_name()
            }
            _ => {}
        }
        let at_us = self.w.now.saturating_sub(self.w.origin);
        self.out.events.push(TraceEntry { at_us, event });
    }

    /// Whether events are wanted (kept or counted): callers skip building an event's text
    /// when not. A few events are pushed without asking; `push` drops them.
    pub(crate) fn recording(&self) -> bool {
        self.w.tracing && self.out.sink != Sink::Nothing
    }
}

/// One side of a comparison, for [`Rules::comparison_mismatch`]: its value, whether it
/// is written as a literal (a quoted string has no type of its own until compared), and
/// the type it was declared with (a column's, a variable's, a cast's), if any.
pub(crate) struct Operand<'a> {
    pub value: &'a Value,
    pub literal: bool,
    pub declared: Option<sql::ast::DataType>,
}

/// What an IF [NOT] EXISTS clause skipped: an existing relation, or a missing object of
/// a kind ("table", "index", "procedure").
pub(crate) enum Skipped<'a> {
    Exists(&'a str),
    Missing(&'static str, &'a str),
}

pub(crate) trait Rules: Sync {
    /// The parser for the statements the engine writes on a statement's behalf (a
    /// foreign key's check and actions).
    fn parser(&self) -> sql::Dialect {
        sql::Dialect::TSql
    }

    /// The dialect's name for a lock mode in the trace, when it differs from SQL Server's
    /// abbreviation.
    fn mode_name(&self, _mode: LockMode) -> Option<&'static str> {
        None
    }

    /// The dialect's name for a mode held on a key range (`locks::is_key_range`), when
    /// it names those apart: the simulation locks a range with S, U or X, SQL Server
    /// lists RangeS-S, RangeS-U and RangeI-N.
    fn range_mode_name(&self, _mode: LockMode) -> Option<&'static str> {
        None
    }

    /// A mode's name on `resource` (its text): a key range's own name, else the mode's.
    fn mode_name_on(&self, resource: &str, mode: LockMode) -> Option<&'static str> {
        // The cheap question first: most dialects and modes have no range name.
        self.range_mode_name(mode)
            .filter(|_| crate::state::locks::is_key_range(resource))
            .or_else(|| self.mode_name(mode))
    }

    /// Whether the trace, the commit's count and the state view show a lock. The
    /// simulation may hold a lock its dialect's server keeps no such lock for, so that
    /// a conflicting writer waits as it would there; it is then not shown. A lock
    /// granted after a shown wait is still shown granted (its wait ends there).
    fn shows_lock(&self, _resource: &Resource, _mode: LockMode) -> bool {
        true
    }

    /// For a wait on a lock the dialect does not show (`shows_lock`), on the row
    /// `row` (`task (9)`): what its server waits on instead, and in which mode.
    fn hidden_wait(&self, _row: &str) -> Option<(String, LockMode)> {
        None
    }

    /// Whether a subquery that reads no column of the queries around it runs once per
    /// statement (an InitPlan) rather than each time its expression is.
    fn subquery_once(&self) -> bool {
        false
    }

    /// Whether a locking read that meets a row an update moved to a new key (the key
    /// changed) follows it there and checks the newest version, as it does a row
    /// updated in place. Otherwise the old key's row is gone (a split update).
    fn follows_moved_rows(&self) -> bool {
        false
    }

    /// Whether a read through a nonclustered index that holds every column it needs
    /// (a covering index) skips the lookup of each row in the clustered index.
    /// Otherwise an index scan visits the table for every row (an index-only scan that
    /// depends on vacuum state is not simulated).
    fn covering_indexes(&self) -> bool {
        false
    }

    /// The clause that skips locked rows, as the trace names it.
    fn skip_clause(&self) -> &'static str {
        "READPAST"
    }

    /// The statement that sleeps, as the trace names it.
    fn sleep_call(&self) -> &'static str {
        "WAITFOR DELAY"
    }

    /// Whether a multi-statement request is one implicit transaction: an autocommit
    /// transaction commits after the request's last statement, not after each one.
    fn request_is_transaction(&self) -> bool {
        false
    }

    /// Splits a client tool's commands (a client's dot commands, say) from a script's SQL:
    /// the text to parse, with command lines blanked so spans stay, and what the
    /// commands ask of the session; or the byte offset and message of a bad command.
    fn client_commands(&self, text: &str) -> Result<(String, ClientSettings), (usize, String)> {
        Ok((text.to_string(), ClientSettings::default()))
    }

    /// Checks a request (a batch) before any of it runs.
    fn check_request(&self, _batch: &Batch) -> Result<(), SqlError> {
        Ok(())
    }

    /// Runs a statement only this dialect has; `None` when `stmt` is not one of them.
    fn exec_statement(
        &self,
        _x: &mut Exec<'_>,
        _i: usize,
        _stmt: &Stmt,
    ) -> Option<Result<Flow, Interrupt>> {
        None
    }

    /// A destructive read of the oldest row of a queue table: the select list's names and
    /// values.
    fn consume(
        &self,
        _x: &mut Exec<'_>,
        _i: usize,
        _c: &SelectAndConsume,
    ) -> Result<(Vec<String>, Vec<Value>), Interrupt> {
        Err(SqlError::not_simulated("SELECT AND CONSUME in this dialect").into())
    }

    /// `rows` rows arrived in queue table `table` (a commit of inserts, a rollback of
    /// consumes).
    fn rows_arrived(&self, _x: &mut Exec<'_>, _table: u32, _rows: usize) {}

    /// Whether CURRENT_TIMESTAMP and its kin are fixed for a whole request (every
    /// statement of it sees the time the request began) rather than read per statement.
    fn clock_per_request(&self) -> bool {
        false
    }

    /// Session `i` changed rows of table `table` with DELETE, UPDATE or MERGE.
    fn rows_modified(&self, _x: &mut Exec<'_>, _i: usize, _table: u32) {}

    /// Whether plain reads never lock and read row versions instead (multiversion
    /// concurrency as the database's only way): the newest committed version as of the
    /// statement in READ COMMITTED, as of the transaction's first read in SNAPSHOT.
    fn versioned_reads(&self) -> bool {
        false
    }

    /// The isolation level the executor applies for the level a session set.
    fn isolation(&self, level: IsolationLevel) -> IsolationLevel {
        level
    }

    /// Whether SERIALIZABLE is a snapshot whose transactions' reads and writes are
    /// tracked, and one that would close a dangerous structure is cancelled
    /// (serializable snapshot isolation, `state::ssi`).
    fn serializable_snapshot_isolation(&self) -> bool {
        false
    }

    /// The error that cancels a transaction for serializable snapshot isolation.
    fn serialization_failure(&self, _why: crate::state::ssi::Failure) -> SqlError {
        SqlError::serialization_failure()
    }

    /// The row lock UPDATE (`delete` false) or DELETE takes on the rows it changes, from
    /// locating them to the end of the transaction; `None` locates with U and writes with X.
    fn write_row_lock(&self, _delete: bool) -> Option<LockMode> {
        None
    }

    /// Whether a unique-key check waits only for a transaction that changed the
    /// clashing row (inserted, updated or deleted it, not yet ended); `false`: it asks
    /// the row's key lock, so a row lock that conflicts with a share lock makes it wait.
    fn unique_waits_for_writers_only(&self) -> bool {
        false
    }

    /// Whether a session's own locks never conflict with each other, whichever owner
    /// holds them (one backend's session and transaction locks); `false`: the session
    /// and its transaction are owners like any other.
    fn session_locks_never_conflict(&self) -> bool {
        false
    }

    /// Whether a statement's row and page locks on one table escalate to a table lock
    /// once it holds [`crate::state::locks::ESCALATION_THRESHOLD`] of them (SQL
    /// Server's lock escalation, semantics A4); `false`: row locks stay row locks.
    fn escalates_locks(&self) -> bool {
        false
    }

    /// The error for a row changed since a SNAPSHOT writer's snapshot (`deleted`: by a
    /// DELETE); SQL Server's 3960 names both.
    fn update_conflict(&self, e: SqlError, _deleted: bool) -> SqlError {
        e
    }

    /// Whether a script may name OUTPUT's `inserted` and `deleted` rows itself (SQL
    /// Server). Elsewhere the parser writes those qualifiers (RETURNING's row, with an
    /// empty span) and one the script wrote is a table the statement does not have.
    fn output_tables(&self) -> bool {
        true
    }

    /// The row lock an UPDATE that changes a key (a column of a unique index, which a
    /// foreign key could reference) takes instead of `write_row_lock`'s; `None`: the same.
    fn key_update_lock(&self) -> Option<LockMode> {
        None
    }

    /// How the value of a clock function (upper-cased: SYSDATETIME, GETDATE,
    /// CURRENT_TIMESTAMP, CURRENT_DATE, ...) prints: SQL Server's GETDATE and
    /// CURRENT_TIMESTAMP are datetime (3 digits), SYSDATETIME and its kin datetime2(7).
    fn clock_stamp(&self, function: &str) -> crate::value::Stamp {
        use crate::value::Stamp;
        match function {
            "GETDATE" | "GETUTCDATE" | "CURRENT_TIMESTAMP" => Stamp::Full(3),
            "CURRENT_DATE" => Stamp::Date,
            _ => Stamp::Full(7),
        }
    }

    /// Calls a function only this dialect has (upper-cased `name`, evaluated `args`);
    /// `None` when it has no such function.
    fn call_function(
        &self,
        _x: &mut Exec<'_>,
        _i: usize,
        _name: &str,
        _args: &[Value],
    ) -> Option<Result<Value, Interrupt>> {
        None
    }

    /// The error for comparing two values of different kinds (text with a number, a
    /// boolean with a number), where the dialect's types refuse it; `None` compares
    /// them as the values' own rules do.
    fn comparison_mismatch(
        &self,
        _op: BinaryOp,
        _left: &Operand<'_>,
        _right: &Operand<'_>,
    ) -> Option<SqlError> {
        None
    }

    /// Whether a value that is not a boolean holds where a condition is wanted (the
    /// argument of `place`: WHERE, HAVING, JOIN/ON, CASE/WHEN, AND, OR, NOT), or the
    /// dialect's error for it; by default, when non-zero. (T-SQL refuses such conditions
    /// when it parses.)
    fn condition_value(&self, _place: &str, operand: &Operand<'_>) -> Result<bool, SqlError> {
        Ok(operand.value.is_true())
    }

    /// The error for storing `v` in column `column` of type `ty` (INSERT, UPDATE) where
    /// the dialect has no assignment cast between a boolean and a number; asked only
    /// when one side is a boolean.
    fn assignment_mismatch(
        &self,
        _v: &Value,
        _ty: &sql::ast::DataType,
        _column: &str,
    ) -> Option<SqlError> {
        None
    }

    /// `l ^ r` where the dialect parses `^` as a power.
    fn power(&self, _l: &Value, _r: &Value) -> crate::error::Fallible<Value> {
        Err(SqlError::not_simulated("^ as a power").into())
    }

    /// The dialect's SQLSTATE and words for an error the executor raised.
    fn number_error(&self, e: SqlError) -> SqlError {
        e
    }

    /// How far error `e` in session `i` aborts, given the scope the executor chose:
    /// a dialect whose transactions end at any error widens it.
    fn error_scope(&self, _x: &Exec<'_>, _i: usize, scope: AbortScope) -> AbortScope {
        scope
    }

    /// The error of a NOWAIT that found `relation`'s row (or, `row` false, the table)
    /// locked: SQL Server's is its lock timeout's, 1222.
    fn nowait_error(&self, relation: &str, row: bool) -> SqlError {
        let _ = (relation, row);
        SqlError::lock_timeout()
    }

    /// A CALL made outside a transaction runs in one transaction that commits when the
    /// procedure returns (a COMMIT inside it ends that one and begins the next); `false`:
    /// its statements commit one by one (SQL Server's autocommit).
    fn call_is_transaction(&self) -> bool {
        false
    }

    /// Flat transaction blocks: BEGIN inside a transaction and COMMIT or ROLLBACK outside
    /// one do nothing (the server only warns), and an error that no handler catches ends
    /// the transaction at once and fails its block: every later statement but the block's
    /// end is refused (25P02) until COMMIT or ROLLBACK. A caught error undoes only its
    /// statement.
    fn flat_transactions(&self) -> bool {
        false
    }

    /// The warning a dialect with flat transactions sends for BEGIN inside a transaction
    /// (`inside`), or for COMMIT or ROLLBACK outside one.
    fn flat_transaction_warning(&self, _inside: bool) -> Option<&'static str> {
        None
    }

    /// A rollback, of the transaction or to a savepoint, undoes the SET statements run
    /// since (settings that are transactional); `false`: a setting stays as set (SQL
    /// Server's SET options).
    fn settings_roll_back(&self) -> bool {
        false
    }

    /// A caught error rolls its block back to where the block began (PL/pgSQL runs a
    /// block with an EXCEPTION clause as a subtransaction); `false`: the TRY block's
    /// work before the error stays (T-SQL's TRY/CATCH).
    fn catch_rolls_back_block(&self) -> bool {
        false
    }

    /// When deadlocks are looked for: `None`, by a monitor that wakes every 5 s and picks
    /// the cheapest victim; `Some(us)`, by each waiter once, `us` after it began waiting,
    /// and that waiter is the victim when it closes a cycle.
    fn deadlock_timeout_us(&self) -> Option<u64> {
        None
    }

    /// How many lock waits after the monitor found a deadlock search for one at once,
    /// as they begin, instead of at the monitor's next wake (a monitor dialect's).
    fn eager_deadlock_searches(&self) -> u8 {
        0
    }

    /// Whether an identity column is only a default: an INSERT may give its value, and
    /// the counter moves only when it is used (a serial column's sequence).
    fn identity_is_default(&self) -> bool {
        false
    }

    /// Whether a query's assignment to variables (`SELECT ... INTO v`, `RETURNING ...
    /// INTO v`) takes the first row and sets them to NULL when there is none, rather
    /// than taking the last row and leaving them as they were (T-SQL's `SELECT @v =`);
    /// a RETURNING of more rows than one is then an error.
    fn assigns_first_row_or_null(&self) -> bool {
        false
    }

    /// Whether GROUP BY may name a select-list item by position (`GROUP BY 1`) or by
    /// its alias, where T-SQL groups by the constant or fails.
    fn group_by_output_columns(&self) -> bool {
        false
    }

    /// Whether a compound query's row limit (`... UNION ... LIMIT n`, kept on its first
    /// operand) limits the whole result, rather than that operand (T-SQL's TOP).
    fn limit_after_set_operators(&self) -> bool {
        false
    }

    /// Whether a locking scan locks only the rows whose version as of the statement
    /// matches (checking the newest again once locked), rather than every row it reads.
    /// The error for a call of routine `name` that does not exist, with its arguments
    /// (as written, and their values); `function`: called as `SELECT name(...)`.
    fn unknown_routine(&self, name: &str, _args: &[(&Expr, Value)], _function: bool) -> SqlError {
        SqlError::no_such_procedure(name)
    }

    /// A declared type in the dialect's words, for messages that name types.
    fn type_name(&self, ty: &sql::ast::DataType) -> String {
        format!("{ty:?}").to_ascii_lowercase()
    }

    /// The error for a COALESCE whose every argument is the NULL constant, where the
    /// dialect refuses one (it has no type to give the result).
    fn all_null_coalesce(&self) -> Option<SqlError> {
        None
    }

    /// Whether the dialect's server has no function `name` (upper-case) that the executor
    /// has for another dialect: a call of it is [`Rules::unknown_routine`].
    fn lacks_function(&self, _name: &str) -> bool {
        false
    }

    /// Whether tables and indexes share one namespace (an index may not take a table's
    /// name, nor another table's index's), rather than index names being per table.
    fn relations_share_names(&self) -> bool {
        false
    }

    /// The notice a skipped IF [NOT] EXISTS sends to the client (SQL Server sends none).
    fn skip_notice(&self, _what: &Skipped<'_>) -> Option<String> {
        None
    }

    /// The error for a CREATE PROCEDURE (or FUNCTION) of a name that exists.
    fn routine_exists(&self, name: &str) -> SqlError {
        SqlError::object_exists(name)
    }

    /// The error for a value written into an identity column the dialect keeps for
    /// itself: given by an INSERT (`insert`), or set by an UPDATE.
    fn identity_written(&self, table: &str, column: &str, insert: bool) -> SqlError {
        if insert {
            SqlError::generic(
                544,
                16,
                format!("Cannot insert explicit value for identity column in table '{table}' when IDENTITY_INSERT is set to OFF."),
            )
        } else {
            SqlError::generic(
                8102,
                16,
                format!("Cannot update identity column '{column}'."),
            )
        }
    }

    /// Whether a row lock the row's holders allow is granted at once, ahead of requests
    /// queued for the row (a share lock passing a waiting writer), not after them.
    fn row_locks_skip_queue(&self) -> bool {
        false
    }

    /// Whether a NULL row count (`LIMIT NULL`, `OFFSET NULL`) means no limit, rather than
    /// no rows.
    fn limit_null_is_all(&self) -> bool {
        false
    }

    /// The error for a row count that is a fraction (`TOP (2.5)`); `None` converts it
    /// to bigint as a cast does.
    fn fractional_row_count(&self, _what: crate::error::Count) -> Option<SqlError> {
        None
    }

    /// Whether `INSERT INTO t VALUES (...)` without a column list may give fewer values
    /// than the table has columns, the rest taking their defaults.
    fn values_fill_trailing_defaults(&self) -> bool {
        false
    }

    /// Whether routines have a `FOUND` variable: whether the last query that assigned
    /// or wrote found a row.
    fn has_found(&self) -> bool {
        false
    }

    /// Whether grouping by a table's primary key groups its other columns too (a
    /// functional dependency), so they may be selected without an aggregate.
    fn groups_by_primary_key(&self) -> bool {
        false
    }

    fn lock_matching_rows_only(&self) -> bool {
        false
    }

    /// Whether a range on a clustered key's leading column (`id > 2`, `BETWEEN`) is a
    /// seek that reads and locks only the keys in the range (SQL Server's clustered index
    /// seek). Otherwise the dialect chooses its path by statistics the engine does not
    /// keep, and such a predicate scans.
    fn clustered_range_seeks(&self) -> bool {
        true
    }

    /// Whether a scan in no index's order that is sorted afterwards (a sequential scan
    /// under a Sort) filters every row before the sort: a LIMIT stops the sorted rows,
    /// not the filter, so a function in WHERE with a side (an advisory lock taken if
    /// free) runs for every row, and an error in it on any row fails the query.
    /// Otherwise the sorted rows are filtered until the limit has enough.
    fn filters_before_sort(&self) -> bool {
        false
    }

    /// Whether an exception handler sees the caught error as the variables `SQLSTATE`
    /// and `SQLERRM`.
    fn handler_variables(&self) -> bool {
        false
    }

    /// How text compares, sorts and matches LIKE (the database's default collation).
    fn collation(&self) -> crate::value::Collation {
        crate::value::Collation::IgnoreCase
    }

    /// Whether LIKE patterns have `[...]` sets (else `[` is itself and `\` escapes).
    fn like_bracket_sets(&self) -> bool {
        true
    }

    /// Whether rows are locked under intent locks on their pages.
    fn page_locks(&self) -> bool {
        true
    }

    /// Whether CREATE PROCEDURE refuses a column that an existing table of one of its
    /// statements lacks (error 207), as SQL Server does, and a batch naming one fails
    /// before any of its statements runs (SQL Server compiles the batch first); tables
    /// that do not exist yet are resolved when their statement runs.
    fn checks_columns_at_create(&self) -> bool {
        true
    }

    /// What the trace calls a lock on a whole table and on one row (or its key), in
    /// this dialect's words: SQL Server's `OBJECT` and `KEY` (sys.dm_tran_locks).
    fn resource_words(&self) -> ResourceWords {
        ResourceWords::default()
    }

    /// How the trace names an access path to `table` in this dialect's words (the
    /// executor's paths are SQL Server's: a clustered index's scan and seek).
    fn access_name(&self, _table: &Table, access: Access) -> Access {
        access
    }

    /// A statement's name in the trace (`finishes BEGIN TRAN`), as the dialect says it.
    fn statement_label(&self, label: &'static str) -> &'static str {
        label
    }

    /// Whether a call of function `name` (upper-cased) in an IF or WHILE condition makes
    /// the condition a statement of its own in the trace, as a subquery does: the call
    /// takes or releases locks, and the learner should see where.
    fn call_is_statement(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Whether a DECLARE is a statement of its own (T-SQL); false where declarations
    /// are set up on block entry (PL/pgSQL), unless an initial value needs evaluating.
    fn declarations_are_statements(&self) -> bool {
        true
    }

    /// What the dialect's own tools call pages read (a session's `logical_reads`
    /// figure), in the trace and the outcome.
    fn reads_name(&self) -> &'static str {
        "logical reads"
    }

    /// The setting whose time ran out when a lock wait gives up, as a script sets it:
    /// SQL Server's `SET LOCK_TIMEOUT`, or sp_getapplock's `@LockTimeout` (`applock`);
    /// `statement`: the statement's own timeout came first.
    fn wait_timeout_name(&self, _statement: bool, applock: bool) -> &'static str {
        if applock {
            "@LockTimeout"
        } else {
            "LOCK_TIMEOUT"
        }
    }

    /// What the trace calls an assignment to a variable when it finishes: T-SQL's SET
    /// statement; a dialect whose procedural language has an assignment, not a command,
    /// names it so.
    fn assignment_label(&self) -> &'static str {
        "SET"
    }

    /// Whether the pages a statement read before it failed count in its session's
    /// figure: SQL Server's STATISTICS IO reports what a failed statement read (and the
    /// trace shows each read); a dialect whose statistics keep only completed statements
    /// says false.
    fn failed_reads_count(&self) -> bool {
        true
    }

    /// Whether a procedure returns a status code to its caller (T-SQL's `RETURN n`,
    /// 0 by default); false where procedures return none.
    fn return_codes(&self) -> bool {
        true
    }

    /// Whether BOOL_AND, BOOL_OR and EVERY are aggregates (SQL Server has none of them).
    fn boolean_aggregates(&self) -> bool {
        false
    }

    /// Whether integers drop fractions: AVG of integers is an integer and a CAST of a
    /// fraction to an integer truncates (SQL Server), rather than AVG keeping the
    /// fraction and the CAST rounding half away from zero (an exact numeric type's way).
    fn truncating_integers(&self) -> bool {
        true
    }

    /// Whether NULL sorts after every value (last ascending, first descending) in ORDER
    /// BY and in indexes, rather than before (as SQL Server sorts them).
    fn nulls_sort_high(&self) -> bool {
        false
    }

    /// Whether TRUNCATE starts an identity column again from its seed (SQL Server's
    /// does; a dialect whose sequences go on says no).
    fn truncate_restarts_identity(&self) -> bool {
        true
    }

    /// Why TRUNCATE is not simulated once sessions run (setup may use it): `None` where
    /// its Sch-M lock already does what the server's does.
    fn truncate_not_simulated(&self) -> Option<&'static str> {
        None
    }

    /// Whether the dialect takes `filter` as a filtered index's predicate. SQL Server's
    /// grammar takes only `column op constant`, `column IS [NOT] NULL` and `column IN
    /// (constants)`, joined by AND: anything else (OR, NOT, a function, two columns) is
    /// 10735, naming the index and the table as written.
    fn check_index_filter(&self, filter: &Expr, index: &str, table: &str) -> Result<(), SqlError> {
        // A constant may be converted (`CAST('20040101' AS datetime)`), as the server's
        // guidance for a filter on a column of another type has it.
        fn constant(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Literal(_) => true,
                ExprKind::Unary {
                    op: UnaryOp::Neg,
                    expr,
                } => matches!(expr.kind, ExprKind::Literal(_)),
                ExprKind::Cast { expr, .. } => constant(expr),
                _ => false,
            }
        }
        let column = |e: &Expr| matches!(e.kind, ExprKind::Column(_));
        let fits = crate::syntax::conjuncts(filter)
            .iter()
            .all(|c| match &c.kind {
                ExprKind::Binary { op, left, right } if op.is_comparison() => {
                    (column(left) && constant(right)) || (constant(left) && column(right))
                }
                ExprKind::IsNull { expr, .. } => column(expr),
                ExprKind::InList {
                    expr,
                    list,
                    negated: false,
                } => column(expr) && list.iter().all(constant),
                _ => false,
            });
        if fits {
            Ok(())
        } else {
            Err(SqlError::bad_index_filter(index, table))
        }
    }

    /// The name of an unnamed index on `table`'s `columns` (`taken`: the database's
    /// index and table names). Only a dialect whose parser lets an index go unnamed asks.
    fn index_name(&self, table: &str, columns: &[&str], _taken: &[&str]) -> String {
        format!("{table}_{}", columns.join("_"))
    }

    /// The name of an unnamed CHECK constraint, the `n`th of `table` (`column` for a
    /// column's own; `taken`: the names given so far). SQL Server's are `CK__`, the
    /// table's first 9 characters, `__`, the column's first 5 and `__` when a column's,
    /// then 8 hex digits that differ per database (a hash here, as for keys).
    fn check_name(
        &self,
        table: &str,
        column: Option<&str>,
        _expr: &sql::ast::Expr,
        n: usize,
        _taken: &[&str],
    ) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in format!("CK/{table}/{n}").bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let table: String = table.chars().take(9).collect();
        let column = column
            .map(|c| format!("{}__", c.chars().take(5).collect::<String>()))
            .unwrap_or_default();
        format!("CK__{table}__{column}{:08X}", hash as u32)
    }

    /// The name of a result column that has no alias and is not a column reference;
    /// `source` is the script its span points into. SQL Server leaves it unnamed (Management
    /// Studio shows "(No column name)").
    fn unnamed_column(&self, expr: &sql::ast::Expr, source: &str) -> String {
        let _ = (expr, source);
        String::new()
    }

    /// The name of an unnamed constraint of `table`: its primary key (`columns` empty,
    /// `n` 0) or its `n`th UNIQUE constraint on `columns`. SQL Server names them
    /// `PK__` or `UQ__`, the table's first 8 characters, `__` and 16 hex digits that
    /// differ per database (`PK__send__3213E83F...`); the digits here are a hash of the
    /// table, the kind and `n`, so a run is the same every time.
    fn constraint_name(&self, table: &str, _columns: &[&str], n: usize) -> String {
        let kind = if n == 0 { "PK" } else { "UQ" };
        // FNV-1a, 64 bits: small and stable across platforms.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in format!("{kind}/{table}/{n}").bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let short: String = table.chars().take(8).collect();
        format!("{kind}__{short}__{hash:016X}")
    }

    /// Whether a table is a heap of row versions (`state::heap`) that a scan reads whole,
    /// rather than the leaf pages of its clustered index.
    fn heap_tables(&self) -> bool {
        false
    }

    /// Bytes a version of `row` takes on a heap page (with `heap_tables`).
    fn version_bytes(&self, _columns: &[Column], _row: &[Value]) -> u32 {
        0
    }
}
