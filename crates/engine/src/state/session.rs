//! Sessions: their scripts' frames and program counters, options, the open transaction
//! with its undo log, and the state the scheduler sees.

use std::collections::BTreeMap;
use std::rc::Rc;

use sql::ast::{IsolationLevel, Script};

use super::locks::{LockMode, OwnerId, Resource};
use super::log::Log;
use super::program::Code;
use super::storage::{RowData, Table, TxnId};
use crate::error::{SqlError, SqlErrorInfo};
use crate::outcome::{ResultSet, SessionOutcome};
use crate::value::Value;

pub(crate) struct Procedure {
    pub name: Rc<str>,
    pub params: Vec<sql::ast::Param>,
    pub code: Rc<Code>,
    /// QUOTED_IDENTIFIER as it was when the procedure was created (it sticks to it).
    pub quoted_identifier: bool,
    /// Index of the script (setup = usize::MAX, else session) whose text the spans point into.
    pub source: usize,
}

#[derive(Clone, Debug, Hash)]
pub(crate) struct Options {
    pub isolation: IsolationLevel,
    pub xact_abort: bool,
    pub nocount: bool,
    /// -1 waits forever.
    pub lock_timeout_ms: i64,
    /// How long a statement may take, lock waits and sleeps included (-1: no limit).
    pub statement_timeout_ms: i64,
    pub quoted_identifier: bool,
    pub deadlock_priority: i64,
    /// The table whose identity column takes explicit values (`SET IDENTITY_INSERT t
    /// ON`; one table per session at a time).
    pub identity_insert: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            isolation: IsolationLevel::ReadCommitted,
            xact_abort: false,
            nocount: false,
            lock_timeout_ms: -1,
            statement_timeout_ms: -1,
            quoted_identifier: true,
            deadlock_priority: 0,
            identity_insert: None,
        }
    }
}

#[derive(Clone)]
pub(crate) struct Txn {
    pub id: TxnId,
    pub explicit: bool,
    pub snapshot_seq: Option<u64>,
    /// Its record in `World::ssi`, for a transaction whose reads and writes are tracked
    /// (taken with its snapshot).
    pub ssi: Option<usize>,
    pub undo: Vec<Undo>,
    pub rows_written: u64,
    /// Begun by BEGIN TRAN (kept after COMMIT hands the end to the statement's end).
    pub began_explicit: bool,
    /// Destructive reads (SELECT AND CONSUME) so far (T9).
    pub consumes: u32,
    /// The session's options before a setting made for this transaction only; they come
    /// back when it ends.
    pub saved_options: Option<Box<Options>>,
    /// The session's options before its first SET in this transaction, where a
    /// rollback undoes settings too (`Rules::settings_roll_back`).
    pub options_at_start: Option<Box<Options>>,
    /// The batch that began it: an error in a later batch fails a flat transaction's
    /// block, one in the same batch (a DO block that opened it) only ends it.
    pub batch: usize,
    /// When the statement that began it began (what a dialect's transaction clock reads).
    pub began_at: u64,
    /// Uncommittable (XACT_STATE() = -1): an error that XACT_ABORT makes end the
    /// transaction was caught by a TRY. Reads and ROLLBACK only; the batch's end rolls
    /// it back.
    pub doomed: bool,
    /// A statement other than SET or BEGIN has run in it (its first snapshot: a
    /// per-transaction isolation level is fixed from then on).
    pub queried: bool,
    /// Named savepoints, oldest first (a name may repeat: the newest is found first).
    pub savepoints: Vec<(Rc<str>, Rc<Savepoint>)>,
    /// A statement of it escalated its locks on a table (semantics A4): rows of that
    /// table are covered by the table lock from then on.
    pub escalated: bool,
}

#[derive(Clone)]
pub(crate) struct Undo {
    pub table: u32,
    /// The row slot; unused for a table-level entry.
    pub slot: usize,
    pub prev: Option<(TxnId, RowData)>,
    /// Where `prev` sat on a heap table's heap (`RowSlot::pending_pos`).
    pub prev_pos: u64,
    /// Whether `prev` counted as a key update (`RowSlot::pending_key_update`).
    pub prev_key_update: bool,
    /// TRUNCATE or DROP: the whole table as it was, and the name DROP removed.
    pub table_before: Option<Rc<(Rc<Table>, Option<String>)>>,
}

impl Undo {
    /// Whether the entry is a row's (not a whole table's).
    pub fn is_row(&self) -> bool {
        self.table_before.is_none()
    }
}

#[derive(Clone)]
pub(crate) enum FrameKind {
    Batch,
    Proc {
        /// Shared with the statement and procedure events.
        name: Rc<str>,
        return_var: Option<String>,
        /// `SELECT f(...)`'s column: the value RETURN gives comes back in it.
        result_column: Option<Rc<str>>,
        outputs: Vec<(String, String)>,
        saved: Options,
        /// The call began the transaction it runs in, and commits it when it returns
        /// (`Rules::call_is_transaction`).
        own_txn: bool,
        /// @@TRANCOUNT when the call began: a procedure that returns with another count
        /// raises 266 in its caller.
        tran_count: u32,
    },
}

/// An active TRY block (a PL/pgSQL block with an EXCEPTION clause).
#[derive(Clone)]
pub(crate) struct Try {
    /// Where the CATCH block (the handlers) begins.
    pub catch_pc: usize,
    /// The error numbers it catches; `None`: every error.
    pub catches: Option<Rc<[i64]>>,
    /// How many caught errors were current when the block began.
    pub caught: usize,
    /// What a caught error rolls back to, where the dialect runs the block as a
    /// subtransaction (`Rules::catch_rolls_back_block`); `None` keeps the block's work.
    pub savepoint: Option<Rc<Savepoint>>,
}

impl Try {
    /// Whether the block's handler takes an error of this number.
    pub fn catches(&self, number: u32) -> bool {
        self.catches
            .as_deref()
            .is_none_or(|numbers| numbers.contains(&i64::from(number)))
    }
}

/// A transaction as a block found it: its undo log's length and its locks.
pub(crate) struct Savepoint {
    pub txn: TxnId,
    pub undo: usize,
    pub locks: Vec<(Resource, LockMode)>,
    /// The session's settings, which rolling back to it restores where settings roll
    /// back (`Rules::settings_roll_back`).
    pub options: Options,
}

#[derive(Clone)]
pub(crate) struct Frame {
    pub code: Rc<Code>,
    pub pc: usize,
    pub vars: BTreeMap<String, (sql::ast::DataType, Value)>,
    pub table_vars: BTreeMap<String, Table>,
    /// Active TRY blocks, innermost last.
    pub tries: Vec<Try>,
    /// Errors being handled by enclosing CATCH blocks (ERROR_NUMBER() reads the last).
    pub caught: Vec<SqlError>,
    pub kind: FrameKind,
    pub scope_identity: Option<i64>,
    /// Which script's text the statements' spans point into (usize::MAX = setup).
    pub source: usize,
    /// Local temporary tables a procedure created (their `Db::names` keys): dropped when
    /// it returns.
    pub temp_tables: Vec<String>,
    /// The value the routine's RETURN gave (a function's result).
    pub returned: Option<Value>,
    /// Whether the routine's last query that assigned or wrote found a row (PL/pgSQL's
    /// FOUND; false as each routine begins).
    pub found: bool,
}

impl Frame {
    pub fn new(code: Rc<Code>, kind: FrameKind, source: usize) -> Frame {
        Frame {
            code,
            pc: 0,
            vars: BTreeMap::new(),
            table_vars: BTreeMap::new(),
            tries: Vec::new(),
            caught: Vec::new(),
            kind,
            scope_identity: None,
            source,
            temp_tables: Vec::new(),
            found: false,
            returned: None,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum State {
    NotStarted,
    Ready,
    /// Running a statement (or sleeping in WAITFOR) until `until`.
    Busy {
        until: u64,
        end: Option<PendingEnd>,
    },
    Blocked {
        since: u64,
        timeout_at: Option<u64>,
    },
    /// A consume waiting for a row of queue table `table` (no lock held).
    Delayed {
        table: u32,
    },
    Finished,
}

#[derive(Clone, Debug)]
pub(crate) struct PendingEnd {
    pub label: &'static str,
    pub rows: Option<u64>,
    pub reads: u64,
    pub cost_us: u64,
    /// The part of `cost_us` spent waiting for a slow log flush to end.
    pub flush_wait_us: u64,
}

/// Rows by (table, slot), each as a statement read it. An unseeded hash: std's
/// `RandomState` would seed itself from the OS.
pub(crate) type ReadRows =
    rustc_hash::FxHashMap<(u32, crate::state::pages::RowId), Rc<crate::state::storage::RowSlot>>;

#[derive(Clone)]
pub(crate) struct Session {
    /// Shared with every event that names the session.
    pub name: Rc<str>,
    pub spid: u32,
    pub start_us: u64,
    pub script: Rc<Script>,
    pub source_text: Rc<str>,
    /// Byte offsets of the newlines in `source_text`.
    pub newlines: Rc<[usize]>,
    pub batch: usize,
    pub frames: Vec<Frame>,
    pub state: State,
    pub ready_at: u64,
    pub txn: Option<Txn>,
    pub tran_count: u32,
    pub options: Options,
    pub rowcount: i64,
    pub last_error: i64,
    /// Locks owned by the session itself (sp_getapplock @LockOwner = 'Session').
    pub session_owner: OwnerId,
    pub executed: u64,
    /// The outcome's figures; its results and errors are kept in `results` and
    /// `errors`, which a clone shares (see [`Log`]).
    pub out: SessionOutcome,
    pub results: Log<ResultSet>,
    pub errors: Log<SqlErrorInfo>,
    /// Transient locks to drop when the current statement ends.
    pub statement_locks: Vec<Resource>,
    /// Rows this attempt at the current statement read under a READ COMMITTED shared
    /// lock, each as it was then (the slot is shared, and a write copies it).
    pub read_now: Vec<(
        u32,
        crate::state::pages::RowId,
        Rc<crate::state::storage::RowSlot>,
    )>,
    /// Rows earlier attempts at the current statement read so, before it waited: SQL
    /// Server goes on from the row it waited for, so when the statement runs again
    /// they are taken as they were read, without a lock (theirs went as they were read).
    /// (None while there are none: most statements never wait.)
    pub read_earlier: Option<Rc<ReadRows>>,
    /// The lock a wait granted to the current statement: when the statement runs again
    /// and asks for it, it holds it already, and no second reference is taken.
    pub waited_for: Option<Resource>,
    /// Undo position at the start of the current statement.
    pub undo_mark: usize,
    /// Locks granted to the current statement (also while it waited), which it may drop
    /// again when the row turns out not to qualify.
    pub fresh_locks: FreshLocks,
    /// Per table, the row and page locks the current statement took and kept, and the
    /// count at which it next tries to escalate them (semantics A4).
    pub escalation: Vec<(u32, usize, usize)>,
    /// The next statement to run is one that waited for a lock: the same statement again.
    pub resuming: bool,
    /// The commit count when the current statement began, kept while it waits and runs
    /// again: in a dialect that versions reads, the statement's snapshot, by which it
    /// decides which rows match and in what order (a row it waited for is checked again
    /// in its newest version, not the whole statement run on newer data).
    pub statement_seq: u64,
    /// The commit count when the statement first checked a foreign key, kept while it
    /// waits and runs again: the check's own snapshot, taken when the check runs (after
    /// any wait before it) and re-checked, not taken again, after a wait inside it.
    pub check_seq: Option<u64>,
    /// While its statement waits: the subqueries it ran once per statement (see
    /// `World::subquery_results`), which its re-run keeps rather than runs again.
    pub init_plans: Vec<(usize, Vec<String>, Vec<Vec<crate::value::Value>>)>,
    /// The pages those subqueries read.
    pub init_plan_reads: u64,
    /// Identity values the current statement has taken, in order, each with its table
    /// (or table variable, by name): the server gives a row its identity once, before a
    /// lock wait, so the statement run again after the wait takes the same ones.
    pub identities: Vec<(u32, Option<Box<str>>, i64)>,
    /// How many of `identities` this run of the statement has used.
    pub identities_used: usize,
    /// What the calls with effects outside the statement (taking or releasing a lock by
    /// function) returned, in call order, in the current statement: a re-run after a
    /// wait takes these rather than calling again, so a lock is counted once per call.
    pub effects: Vec<crate::value::Value>,
    /// How many of `effects` this run of the statement has used.
    pub effects_used: usize,
    /// The call (its position among the statement's calls) that waited for its lock.
    pub effect_waiting: Option<usize>,
    /// The key range an INSERT of the current statement waited to test (another
    /// transaction's SERIALIZABLE read held it): granted to it by the wait, released as
    /// the statement runs again.
    pub range_test: Option<crate::state::locks::Resource>,
    /// The owner (transaction or session) of the pending lock request, while blocked.
    pub waiting_as: Option<OwnerId>,
    /// LOCK_TIMEOUT for the next lock request only (sp_getapplock's @LockTimeout).
    pub timeout_override: Option<i64>,
    /// Blocked in sp_getapplock: a timeout or deadlock becomes its return code.
    pub applock_waiting: bool,
    /// The error being raised came out of a trigger, where XACT_ABORT is on whatever the
    /// session's setting: it ends the batch and the transaction.
    pub error_in_trigger: bool,
    /// The return code sp_getapplock gives when its statement runs again (-1, -3).
    pub applock_result: Option<i64>,
    /// Chained transactions (ANSI session mode): an implicit transaction lasts until
    /// COMMIT or ROLLBACK instead of ending with its statement or request.
    pub chained_txns: bool,
    /// When the current consume entered the delayed state.
    pub delayed_since: Option<u64>,
    /// A client tool's repeat of a request: batch index → times to run it.
    pub repeat_counts: BTreeMap<usize, u32>,
    /// Runs of the current batch so far under `.REPEAT`.
    pub repeats_done: u32,
    /// The statement running now (or last run): its script and byte range.
    pub current: Option<(crate::event::Source, usize, usize)>,
    /// When the session connected (absolute virtual µs).
    pub started_at: Option<u64>,
    /// Setup only: where the statement that raised the first error starts (byte offset).
    pub first_error_at: Option<usize>,
    /// In WAITFOR until this time (absolute virtual µs).
    pub sleeping_until: Option<u64>,
    /// The sleep was cut short by the statement's timeout: the statement fails when it
    /// ends.
    pub sleep_cut: bool,
    /// When the current request (batch) began, in absolute virtual µs.
    pub request_at: u64,
    /// When the current statement began (not when a wait let it go on): the instant a
    /// statement's clock functions (SYSDATETIME()) read.
    pub statement_at: u64,
    /// A MERGE between its read and its writes: what it found for each source row.
    pub merge_pending: Option<MergePending>,
    /// An error failed the transaction block (flat transactions): statements other than
    /// its COMMIT or ROLLBACK are refused.
    pub failed_block: bool,
    /// A COMMIT AND CHAIN is running: the next transaction begins as it commits.
    pub chain_txn: bool,
}

/// What a MERGE's read found, kept until its writes run: SQL Server decides "matched" for
/// every source row before it writes, so a row another session inserts meanwhile is not
/// seen (and its insert of the same key fails).
#[derive(Clone, Debug)]
pub(crate) struct MergePending {
    /// The source's binding: name, base table, columns.
    pub source: (String, Option<String>, Rc<[String]>),
    /// Each source row with a target row (slot) it matched (once per match), or `None`.
    pub rows: Vec<(Vec<Value>, Option<usize>)>,
    /// Pages the read read: the statement's count goes on from them.
    pub reads: u64,
}

/// Inserted/deleted rows visible to a running trigger.
#[derive(Clone)]
pub(crate) struct TriggerRows {
    pub columns: Vec<String>,
    pub inserted: Vec<Vec<Value>>,
    pub deleted: Vec<Vec<Value>>,
}

/// What a client tool's commands in a script ask of its session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClientSettings {
    /// Chained transactions (ANSI session mode).
    pub chained_txns: bool,
    /// (byte offset where the command's line ends, n): the next request after that
    /// offset runs n times.
    pub repeats: Vec<(usize, u32)>,
}

impl Session {
    /// Applies what the script's client commands ask for.
    pub(crate) fn apply_settings(&mut self, settings: ClientSettings) {
        self.chained_txns = settings.chained_txns;
        for (offset, times) in settings.repeats {
            if let Some(b) = self
                .script
                .batches
                .iter()
                .position(|b| b.span.start >= offset)
            {
                self.repeat_counts.insert(b, times);
            }
        }
    }
}

/// The locks granted to the current statement, in grant order (which decides the order
/// stale ones are released, and so who wakes first), with membership in O(log n): a
/// statement that re-runs after each wake-up asks "is this one fresh?" once per row. Most
/// statements take a lock or three: up to [`FreshLocks::LINEAR`] the list is searched and
/// no map is built.
#[derive(Clone, Debug, Default)]
pub struct FreshLocks {
    /// Grant order; a removed lock leaves a hole so positions stay valid.
    order: Vec<Option<Resource>>,
    /// Positions, once `order` is longer than `LINEAR`.
    at: BTreeMap<Resource, usize>,
}

impl FreshLocks {
    const LINEAR: usize = 8;

    fn indexed(&self) -> bool {
        self.order.len() > Self::LINEAR
    }

    pub fn push(&mut self, r: Resource) {
        if self.contains(&r) {
            return;
        }
        self.order.push(Some(r));
        if self.order.len() == Self::LINEAR + 1 {
            for (k, x) in self.order.iter().enumerate() {
                if let Some(x) = x {
                    self.at.insert(x.clone(), k);
                }
            }
        } else if self.indexed() {
            let k = self.order.len() - 1;
            if let Some(Some(x)) = self.order.last() {
                self.at.insert(x.clone(), k);
            }
        }
    }

    pub fn contains(&self, r: &Resource) -> bool {
        if self.indexed() {
            self.at.contains_key(r)
        } else {
            self.order.iter().flatten().any(|x| x == r)
        }
    }

    pub fn remove(&mut self, r: &Resource) {
        let pos = if self.indexed() {
            self.at.remove(r)
        } else {
            self.order.iter().position(|x| x.as_ref() == Some(r))
        };
        if let Some(pos) = pos {
            self.order[pos] = None;
        }
    }

    pub fn clear(&mut self) {
        self.order.clear();
        self.at.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = &Resource> {
        self.order.iter().flatten()
    }
}

impl std::hash::Hash for FreshLocks {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for r in self.iter() {
            r.hash(h);
        }
    }
}
