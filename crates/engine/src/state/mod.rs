//! The world a simulation steps: tables and their rows and indexes, sessions with their
//! frames and transactions, and the lock manager. `Clone`, with no random generator and
//! no trace: the driver (`sim`) owns those, and `exec` changes the world.
//!
//! The world holds neutral facts (a queue flag on a table, the columns whose hash locks a
//! row, a session's implicit-transaction mode); what they mean is decided by a dialect.

pub(crate) mod filter;
pub(crate) mod heap;
pub(crate) mod index;
pub(crate) mod leaf;
pub mod locks;
pub(crate) mod log;
pub(crate) mod order;
pub mod pages;
pub(crate) mod program;
pub(crate) mod session;
pub(crate) mod ssi;
pub(crate) mod storage;

use std::collections::BTreeMap;
use std::rc::Rc;

use locks::{LockManager, LockMode, OwnerId, Resource};
use session::{Frame, Procedure, Session, State};

/// A session may run at most this many statements; a loop that never ends stops here.
pub const MAX_STATEMENTS_PER_SESSION: u64 = 500_000;

/// Index used for the setup pseudo-session's script source.
pub(crate) const SETUP_SOURCE: usize = usize::MAX;

#[derive(Clone)]
pub(crate) struct Db {
    pub tables: storage::Tables,
    /// Table names (lower-cased) to ids: looked up by every statement, never walked, so
    /// unordered.
    pub names: rustc_hash::FxHashMap<String, u32>,
    pub procs: BTreeMap<String, Rc<Procedure>>,
    pub rcsi: bool,
    pub allow_snapshot: bool,
    pub commit_seq: u64,
    /// The spid whose local temporary tables (`#t`) names resolve to: the session being
    /// stepped.
    pub temp_scope: u32,
}

impl Db {
    pub fn table_id(&self, name: &str) -> Option<u32> {
        if name.starts_with('#') {
            return self.names.get(&self.key(name)).copied();
        }
        // Names are kept lowercase; most lookups are already, so copy only when not.
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            self.names.get(&name.to_ascii_lowercase()).copied()
        } else {
            self.names.get(name).copied()
        }
    }

    /// The key a table name is filed under in `names`: lower-case, and for a local
    /// temporary table (`#t`, not `##t`) also the session's, so each session has its own.
    pub fn key(&self, name: &str) -> String {
        let lower = name.to_ascii_lowercase();
        if lower.starts_with('#') && !lower.starts_with("##") {
            format!("{lower}{TEMP_MARK}{}", self.temp_scope)
        } else {
            lower
        }
    }

    /// Drops session `spid`'s local temporary tables (at its end).
    pub fn drop_temp_tables(&mut self, spid: u32) {
        let suffix = format!("{TEMP_MARK}{spid}");
        let keys: Vec<String> = self
            .names
            .keys()
            .filter(|k| k.ends_with(&suffix))
            .cloned()
            .collect();
        for k in keys {
            self.drop_key(&k);
        }
    }

    /// Drops the table filed under `key`, keeping its id's slot (renamed out of the way).
    pub fn drop_key(&mut self, key: &str) {
        if let Some(id) = self.names.remove(key) {
            let t = &mut self.tables[id as usize];
            t.name = format!("(dropped {})", t.name).into();
            t.clear_rows();
        }
    }

    /// Whether `key` files a local temporary table.
    pub fn is_temp_key(key: &str) -> bool {
        key.contains(TEMP_MARK)
    }
}

/// Separates a temporary table's name from its session in `Db::names`.
const TEMP_MARK: char = '\u{1}';

/// A recursive CTE's name, columns and the rows its last level produced.
pub(crate) type WorkingTable = (String, Rc<[String]>, Vec<Vec<crate::value::Value>>);

/// Everything a step can change, apart from the clock's driver and the cost model.
#[derive(Clone)]
pub(crate) struct World {
    pub db: Db,
    pub locks: LockManager,
    pub sessions: Vec<Session>,
    /// Virtual time, absolute (µs); `origin` is the end of setup.
    pub now: u64,
    pub origin: u64,
    /// Which session each lock owner (transaction or session) belongs to.
    pub owners: BTreeMap<OwnerId, usize>,
    pub next_owner: OwnerId,
    /// Off while setup runs (and for queries on the final state): no locks, no events.
    pub tracing: bool,
    pub setup_text: Rc<str>,
    /// Byte offsets of the newlines in `setup_text`.
    pub setup_newlines: Rc<[usize]>,
    /// The dialect's words for table and row locks in the trace (`Rules::resource_words`).
    pub resource_words: locks::ResourceWords,
    /// Where the lesson's setup blocks after the first begin (`Scenario::setup_blocks`).
    pub setup_blocks: Rc<[usize]>,
    /// Logical reads of the statement being run.
    pub query_reads: u64,
    /// Rows the statement being run has examined, in every scan (see
    /// `exec::MAX_STATEMENT_ROWS`).
    pub statement_rows: u64,
    /// A slow log flush holds every commit until this time.
    pub log_stall_until: u64,
    /// Lock waits still to search for a deadlock as they begin, after the monitor found
    /// one (SQL Server's first waits after a detection, semantics A8).
    pub eager_searches: u8,
    /// When a wait asked for a deadlock search, ahead of the monitor's next wake.
    pub search_at: Option<u64>,
    /// CTEs in scope while a statement runs.
    pub ctes: Vec<sql::ast::Cte>,
    /// The rows of the data-modifying CTEs in `ctes` (by position there): their
    /// statement's RETURNING, run once before the statement.
    pub modified: Vec<(usize, Vec<String>, Vec<Vec<crate::value::Value>>)>,
    /// The tables those CTEs wrote, which the rest of the statement may not read.
    pub modified_tables: Vec<u32>,
    /// While a statement whose WITH changes data runs: the rows each of its writes
    /// wrote, whose foreign keys are kept at its end.
    pub deferred_keys: Option<Vec<(u32, Vec<storage::Written>)>>,
    /// Result sets go here instead of to the session while a data-modifying CTE runs.
    pub capture: Option<Vec<crate::outcome::ResultSet>>,
    /// The window function calls of the row being evaluated now, with their values.
    pub windows: Vec<(sql::ast::Expr, crate::value::Value)>,
    /// inserted/deleted of the triggers running now.
    pub trigger_rows: Vec<session::TriggerRows>,
    /// Names of the triggers running now, innermost last.
    pub running_triggers: Vec<String>,
    /// Recursive CTEs being evaluated: name, columns and the rows of the level before.
    pub working: Vec<WorkingTable>,
    /// Queries nested inside the one running now.
    pub query_depth: usize,
    /// Rows the query around wants of the derived table or CTE it reads alone, with no
    /// filter, order or grouping of its own (its LIMIT): the next query to start takes
    /// it, and a row-locking one locks no more rows than that (the server pulls rows
    /// through its lock step only as they are asked for).
    pub pull_limit: Option<usize>,
    /// Where the dialect runs an uncorrelated subquery once per statement: the results
    /// so far (by the subquery's address in the statement), the scopes of the queries
    /// around the subquery running now, and a count of columns read from them.
    pub subquery_results: Vec<(usize, Vec<String>, Vec<Vec<crate::value::Value>>)>,
    pub outer_scopes: Vec<usize>,
    pub outer_refs: u64,
    /// Pages the statement's kept subquery results read (counted once, however often
    /// the statement is re-run after a wait).
    pub init_plan_reads: u64,
    /// Statements a session (setup included) may run before it is stopped.
    pub max_statements: u64,
    /// Serializable transactions' read marks and dependencies, where the dialect's
    /// SERIALIZABLE tracks them (`Rules::serializable_snapshot_isolation`).
    pub ssi: ssi::Ssi,
}

/// Byte offsets of the newlines of a script.
pub(crate) fn newlines(text: &str) -> Rc<[usize]> {
    text.bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(k, _)| k)
        .collect()
}

impl World {
    pub(crate) fn new(setup_text: &str) -> World {
        World {
            db: Db {
                tables: storage::Tables::default(),
                names: Default::default(),
                procs: BTreeMap::new(),
                rcsi: false,
                allow_snapshot: false,
                commit_seq: 1,
                temp_scope: 0,
            },
            locks: LockManager::new(),
            sessions: Vec::new(),
            now: 0,
            origin: 0,
            owners: BTreeMap::new(),
            next_owner: 1,
            tracing: false,
            setup_text: Rc::from(setup_text),
            setup_newlines: newlines(setup_text),
            setup_blocks: Rc::from([]),
            resource_words: locks::ResourceWords::default(),
            query_reads: 0,
            statement_rows: 0,
            log_stall_until: 0,
            eager_searches: 0,
            search_at: None,
            ctes: Vec::new(),
            modified: Vec::new(),
            modified_tables: Vec::new(),
            deferred_keys: None,
            capture: None,
            windows: Vec::new(),
            trigger_rows: Vec::new(),
            running_triggers: Vec::new(),
            working: Vec::new(),
            query_depth: 0,
            pull_limit: None,
            subquery_results: Vec::new(),
            outer_scopes: Vec::new(),
            outer_refs: 0,
            init_plan_reads: 0,
            max_statements: MAX_STATEMENTS_PER_SESSION,
            ssi: ssi::Ssi::default(),
        }
    }

    pub(crate) fn alloc_owner(&mut self) -> OwnerId {
        let id = self.next_owner;
        self.next_owner += 1;
        id
    }

    /// Virtual time relative to the end of setup.
    pub(crate) fn now_us(&self) -> u64 {
        self.now - self.origin
    }

    pub(crate) fn frame(&self, i: usize) -> &Frame {
        self.sessions[i]
            .frames
            .last()
            .expect("a running session has a frame")
    }

    /// The script text session `i`'s current statement spans point into: the setup's,
    /// or the session whose script defined the running procedure.
    /// A script's text and newline offsets: the setup's for [`SETUP_SOURCE`], else
    /// session `source`'s (a frame's source index).
    pub(crate) fn script(&self, source: usize) -> (&Rc<str>, &Rc<[usize]>) {
        if source == SETUP_SOURCE {
            (&self.setup_text, &self.setup_newlines)
        } else {
            let s = &self.sessions[source.min(self.sessions.len() - 1)];
            (&s.source_text, &s.newlines)
        }
    }

    /// The text of the script session `i` is running now (a procedure's, inside one).
    pub(crate) fn frame_source(&self, i: usize) -> Rc<str> {
        let source = self.sessions[i].frames.last().map_or(i, |f| f.source);
        self.script(source).0.clone()
    }

    /// Where byte `offset` of a script is, for an error's [`crate::error::ErrorAt`].
    pub(crate) fn error_at(
        &self,
        source: crate::event::Source,
        offset: usize,
    ) -> crate::error::ErrorAt {
        use crate::event::Source;
        let (index, block) = match source {
            Source::Setup => (SETUP_SOURCE, None),
            Source::Session(k) => (k, Some(k)),
        };
        let (text, newlines) = self.script(index);
        let offset = offset.min(text.len());
        let line = newlines.partition_point(|&n| n < offset);
        let line_start = if line == 0 { 0 } else { newlines[line - 1] + 1 };
        let col = text
            .get(line_start.min(offset)..offset)
            .map_or(0, |t| t.chars().count());
        crate::error::ErrorAt {
            session: block,
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.sessions
            .iter()
            .all(|s| matches!(s.state, State::Finished))
    }

    /// The lock session `i` waits for, if it is blocked.
    pub(crate) fn waiting_lock(&self, i: usize) -> Option<(Resource, LockMode)> {
        self.sessions[i]
            .waiting_as
            .and_then(|o| self.locks.waiting(o))
    }

    pub(crate) fn owner_name(&self, owner: OwnerId) -> String {
        match self.owners.get(&owner) {
            Some(&s) => self
                .sessions
                .get(s)
                .map_or_else(|| format!("owner {owner}"), |s| s.name.to_string()),
            None => self
                .sessions
                .iter()
                .find(|s| s.session_owner == owner)
                .map_or_else(|| format!("owner {owner}"), |s| s.name.to_string()),
        }
    }

    pub(crate) fn resource_text(&self, res: &Resource) -> String {
        locks::resource_text(res, self.resource_words, |id| {
            self.db.tables.get(id as usize).map(|t| &*t.name)
        })
    }
}
