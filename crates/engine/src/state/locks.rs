//! The lock manager: SQL Server lock modes and their compatibility, FIFO wait queues with
//! conversion priority, re-entrant counts, escalation and the wait-for graph.
//!
//! Spec: `reference/semantics.md` A1–A4, A6, A8, A11. Pure data structure: no time, no
//! randomness. Queues and owners are found through unseeded hash maps, but nothing walks
//! them in hash order: every listing and every release of many locks comes out in a
//! deterministic order (resources in `Ord` order, holders in grant order, waiters in
//! queue order), so traces never depend on hashing, nor on the word size (wasm's hashes
//! differ from native ones).
//! Queues are naturally bounded: an owner waits for at most one lock at a time.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A transaction or a session-scoped owner (the caller maps sessions and transactions to ids).
pub type OwnerId = u32;

/// SQL Server lock modes (A1). `SIU` and `UIX` are the two combined modes that conversions
/// produce (S+IU, U+IX); `APPLOCK_MODE` reports UIX and SIX, so they must be representable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LockMode {
    IS,
    IU,
    IX,
    S,
    U,
    SIU,
    SIX,
    UIX,
    X,
    SchS,
    SchM,
    /// Row-lock clauses of a `SELECT ... FOR ...` (and the locks UPDATE and DELETE take in
    /// a dialect that has them), weakest first; their matrix is [`row_clause_compatible`].
    ForKeyShare,
    ForShare,
    ForNoKeyUpdate,
    ForUpdate,
}

impl LockMode {
    /// The row-lock clause modes, weakest first.
    pub const ROW_CLAUSES: [LockMode; 4] = [
        LockMode::ForKeyShare,
        LockMode::ForShare,
        LockMode::ForNoKeyUpdate,
        LockMode::ForUpdate,
    ];

    /// Whether this is a row-lock clause mode (FOR UPDATE and its kin).
    pub fn is_row_clause(self) -> bool {
        Self::ROW_CLAUSES.contains(&self)
    }

    pub const ALL: [LockMode; 11] = [
        LockMode::IS,
        LockMode::IU,
        LockMode::IX,
        LockMode::S,
        LockMode::U,
        LockMode::SIU,
        LockMode::SIX,
        LockMode::UIX,
        LockMode::X,
        LockMode::SchS,
        LockMode::SchM,
    ];

    /// The name `APPLOCK_MODE` returns for a held application lock (A11).
    pub fn applock_name(self) -> &'static str {
        match self {
            LockMode::IS => "IntentShared",
            LockMode::IU => "IntentUpdate",
            LockMode::IX => "IntentExclusive",
            LockMode::S => "Shared",
            LockMode::U => "Update",
            LockMode::SIU => "SharedIntentUpdate",
            LockMode::SIX => "SharedIntentExclusive",
            LockMode::UIX => "UpdateIntentExclusive",
            LockMode::X => "Exclusive",
            LockMode::SchS => "SchemaStability",
            LockMode::SchM => "SchemaModification",
            LockMode::ForKeyShare => "ForKeyShare",
            LockMode::ForShare => "ForShare",
            LockMode::ForNoKeyUpdate => "ForNoKeyUpdate",
            LockMode::ForUpdate => "ForUpdate",
        }
    }

    /// The five modes `sp_getapplock @LockMode` accepts (A11); `None` for anything else (the
    /// caller raises 1225 or returns -999). Compared ignoring ASCII case: whether SQL Server
    /// is case-sensitive here is unverified.
    pub fn from_applock_name(name: &str) -> Option<LockMode> {
        [
            LockMode::S,
            LockMode::U,
            LockMode::IS,
            LockMode::IX,
            LockMode::X,
        ]
        .into_iter()
        .find(|m| m.applock_name().eq_ignore_ascii_case(name))
    }

    /// True for IS, IU, IX (the modes placed on parents of a locked row or page).
    pub fn is_intent(self) -> bool {
        matches!(self, LockMode::IS | LockMode::IU | LockMode::IX)
    }
}

impl fmt::Display for LockMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LockMode::IS => "IS",
            LockMode::IU => "IU",
            LockMode::IX => "IX",
            LockMode::S => "S",
            LockMode::U => "U",
            LockMode::SIU => "SIU",
            LockMode::SIX => "SIX",
            LockMode::UIX => "UIX",
            LockMode::X => "X",
            LockMode::SchS => "Sch-S",
            LockMode::SchM => "Sch-M",
            LockMode::ForKeyShare => "FKS",
            LockMode::ForShare => "FS",
            LockMode::ForNoKeyUpdate => "FNKU",
            LockMode::ForUpdate => "FU",
        })
    }
}

/// The combined modes are checked as their parts (SIU = S + IU, UIX = U + IX), which is how
/// SQL Server defines them (A1); every other mode is atomic.
fn parts(m: LockMode) -> &'static [LockMode] {
    match m {
        LockMode::SIU => &[LockMode::S, LockMode::IU],
        LockMode::UIX => &[LockMode::U, LockMode::IX],
        LockMode::IS => &[LockMode::IS],
        LockMode::IU => &[LockMode::IU],
        LockMode::IX => &[LockMode::IX],
        LockMode::S => &[LockMode::S],
        LockMode::U => &[LockMode::U],
        LockMode::SIX => &[LockMode::SIX],
        LockMode::X => &[LockMode::X],
        LockMode::SchS => &[LockMode::SchS],
        LockMode::SchM => &[LockMode::SchM],
        LockMode::ForKeyShare => &[LockMode::ForKeyShare],
        LockMode::ForShare => &[LockMode::ForShare],
        LockMode::ForNoKeyUpdate => &[LockMode::ForNoKeyUpdate],
        LockMode::ForUpdate => &[LockMode::ForUpdate],
    }
}

/// The row-lock clauses' conflict table (semantics.md C1): FOR KEY SHARE conflicts only
/// with FOR UPDATE; FOR SHARE with FOR NO KEY UPDATE and FOR UPDATE; FOR NO KEY UPDATE
/// with FOR SHARE, itself and FOR UPDATE; FOR UPDATE with all four. Ranks are the order
/// of [`LockMode::ROW_CLAUSES`].
pub fn row_clause_compatible(a: LockMode, b: LockMode) -> bool {
    let rank = |m| LockMode::ROW_CLAUSES.iter().position(|&c| c == m);
    match (rank(a), rank(b)) {
        (Some(a), Some(b)) => a + b < 3,
        _ => false,
    }
}

/// The A2 matrix over atomic modes (symmetric). IU follows the brief: compatible with IS, S,
/// IU and IX, not with U, SIX and X (IU–SIX is unverified in A2, so the safe answer is No).
fn atomic_compatible(a: LockMode, b: LockMode) -> bool {
    use LockMode::*;
    match (a, b) {
        (SchM, _) | (_, SchM) => false,
        (SchS, _) | (_, SchS) => true,
        (X, _) | (_, X) => false,
        (a, b) if a.is_row_clause() && b.is_row_clause() => row_clause_compatible(a, b),
        // Row-lock clauses sit on rows, where only X and other clauses meet them; intents
        // sit on tables and pages.
        (a, b) if a.is_row_clause() || b.is_row_clause() => a.is_intent() || b.is_intent(),
        (IS, _) | (_, IS) => true,
        (SIX, _) | (_, SIX) => false,
        (U, U) | (U, IX) | (IX, U) | (U, IU) | (IU, U) => false,
        (IX, S) | (S, IX) => false,
        // Left: pairs from {IU, IX, S, U} that the arms above did not reject.
        _ => true,
    }
}

/// Whether a lock in mode `requested` can be granted while another owner holds `granted`
/// (semantics.md A2; Sch-S is compatible with all but Sch-M, Sch-M with nothing).
pub fn compatible(requested: LockMode, granted: LockMode) -> bool {
    parts(requested)
        .iter()
        .all(|&r| parts(granted).iter().all(|&g| atomic_compatible(r, g)))
}

/// A data mode as (level on the resource itself, level of intent below it), each 0..=3 for
/// none/S/U/X and none/IS/IU/IX. "Holding a whole-resource level implies the same intent
/// below" (S ⊇ IS, U ⊇ IU, X ⊇ IX), so the lattice join of two modes is the component max.
fn rights(m: LockMode) -> Option<(u8, u8)> {
    match m {
        LockMode::IS => Some((0, 1)),
        LockMode::IU => Some((0, 2)),
        LockMode::IX => Some((0, 3)),
        LockMode::S => Some((1, 1)),
        LockMode::SIU => Some((1, 2)),
        LockMode::SIX => Some((1, 3)),
        LockMode::U => Some((2, 2)),
        LockMode::UIX => Some((2, 3)),
        LockMode::X => Some((3, 3)),
        LockMode::SchS | LockMode::SchM => None,
        LockMode::ForKeyShare
        | LockMode::ForShare
        | LockMode::ForNoKeyUpdate
        | LockMode::ForUpdate => None,
    }
}

fn from_rights(whole: u8, below: u8) -> LockMode {
    match (whole, below.max(whole)) {
        (0, 0 | 1) => LockMode::IS,
        (0, 2) => LockMode::IU,
        (0, _) => LockMode::IX,
        (1, 1) => LockMode::S,
        (1, 2) => LockMode::SIU,
        (1, _) => LockMode::SIX,
        (2, 2) => LockMode::U,
        (2, _) => LockMode::UIX,
        _ => LockMode::X,
    }
}

/// Whether holding `held` already gives the rights of `requested`, so a request for
/// `requested` needs no new lock: X ⊇ all data modes; SIX ⊇ S, IX, IU, IS; U ⊇ S, IU, IS;
/// IX ⊇ IU, IS; S ⊇ IS; IU ⊇ IS. Sch-M covers everything; Sch-S is covered by every mode,
/// because every mode already blocks the Sch-M that Sch-S exists to keep out.
pub fn covers(held: LockMode, requested: LockMode) -> bool {
    if held == requested || held == LockMode::SchM || requested == LockMode::SchS {
        return true;
    }
    if held.is_row_clause() && requested.is_row_clause() {
        // A stronger clause covers a weaker one (FOR NO KEY UPDATE conflicts with all
        // that FOR SHARE conflicts with): a transaction's lock on a row is the strongest
        // it asked for, as the server keeps it.
        let rank = |m| LockMode::ROW_CLAUSES.iter().position(|&c| c == m);
        return rank(held) >= rank(requested);
    }
    match (rights(held), rights(requested)) {
        (Some((hw, hb)), Some((rw, rb))) => hw >= rw && hb >= rb,
        _ => false,
    }
}

/// The mode held after a conversion: the least mode that covers both (S+IX = SIX, S+U = U,
/// U+X = X, IU+IX = IX, S+IU = SIU, U+IX = UIX, SIX+U = UIX), falling back to X.
pub fn combine(held: LockMode, requested: LockMode) -> LockMode {
    if covers(held, requested) {
        return held;
    }
    if covers(requested, held) {
        return requested;
    }
    if held.is_row_clause() && requested.is_row_clause() {
        return LockMode::ForUpdate;
    }
    match (rights(held), rights(requested)) {
        (Some((hw, hb)), Some((rw, rb))) => from_rights(hw.max(rw), hb.max(rb)),
        _ => LockMode::X,
    }
}

/// A lockable resource (A3). Tables and indexes are numbered by the caller; `Display` is the
/// compact, SQL Server-like form (the caller adds human table names around it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resource {
    Object {
        table: u32,
    },
    Page {
        table: u32,
        index: u32,
        page: u32,
    },
    /// One row in an index; `key` is the caller's rendering of the key value (shared, so
    /// a scan that locks every row it passes copies no text).
    Key {
        table: u32,
        index: u32,
        key: std::rc::Rc<str>,
    },
    /// An `sp_getapplock` resource (name as given: case-sensitive, A11).
    Application {
        name: String,
    },
    /// A row hash: every row whose hash key has this hash (a hash-keyed table).
    RowHash {
        table: u32,
        hash: u32,
    },
}

impl Resource {
    /// The table the resource belongs to (none for application locks).
    pub fn table(&self) -> Option<u32> {
        match self {
            Resource::Object { table }
            | Resource::Page { table, .. }
            | Resource::Key { table, .. }
            | Resource::RowHash { table, .. } => Some(*table),
            Resource::Application { .. } => None,
        }
    }

    /// Row- or page-level resources of a table: what escalation replaces with a table lock.
    pub(crate) fn is_below_table(&self, t: u32) -> bool {
        match self {
            Resource::Page { table, .. }
            | Resource::Key { table, .. }
            | Resource::RowHash { table, .. } => *table == t,
            Resource::Object { .. } | Resource::Application { .. } => false,
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resource::Object { table } => write!(f, "OBJECT: t{table}"),
            Resource::Page { table, index, page } => write!(f, "PAGE: t{table}:{index}:{page}"),
            Resource::Key { table, index, key } => write!(f, "KEY: t{table}:{index} ({key})"),
            Resource::Application { name } => write!(f, "APP: {name}"),
            Resource::RowHash { table, hash } => write!(f, "ROWHASH: t{table} ({hash:08x})"),
        }
    }
}

/// The words a dialect's tools use for a table lock and a row lock (`Rules::resource_words`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceWords {
    pub table: &'static str,
    pub row: &'static str,
    /// Before an application lock's name; none when the name says what it is.
    pub app: &'static str,
}

impl Default for ResourceWords {
    /// SQL Server's: `OBJECT`, `KEY` and `APP` (sp_getapplock's resources).
    fn default() -> Self {
        ResourceWords {
            table: "OBJECT",
            row: "KEY",
            app: "APP",
        }
    }
}

/// Whether a lock's resource text names a key range (`KEY t (range below 5)`, `KEY t
/// (end of index)`): the range part of SQL Server's key-range locks, whose modes the
/// dialect names apart from the key's (`Rules::range_mode_name`: RangeS-U, not U).
pub fn is_key_range(resource: &str) -> bool {
    use crate::state::storage::{END_OF_INDEX, RANGE_BELOW};
    // The key is in the first parentheses (a byte search: every lock event asks).
    let Some(open) = resource.bytes().position(|b| b == b'(') else {
        return false;
    };
    let Some(key) = resource[open + 1..].strip_suffix(')') else {
        return false;
    };
    resource[..open].ends_with(' ') && (key == END_OF_INDEX || key.starts_with(RANGE_BELOW))
}

/// A resource as the trace names it: `KEY task (42)`, with the table's name from
/// `table_name` (`t<id>` when it has none) and the dialect's `words`. Written directly:
/// every lock event has one.
pub(crate) fn resource_text<'a>(
    res: &Resource,
    words: ResourceWords,
    table_name: impl Fn(u32) -> Option<&'a str>,
) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(32);
    let table = |s: &mut String, kind: &str, id: u32| {
        s.push_str(kind);
        match table_name(id) {
            Some(name) => s.push_str(name),
            None => {
                let _ = write!(s, "t{id}");
            }
        }
    };
    match res {
        Resource::Object { table: t } => {
            s.push_str(words.table);
            table(&mut s, " ", *t);
        }
        Resource::Page { table: t, page, .. } => {
            table(&mut s, "PAGE ", *t);
            let _ = write!(s, " #{page}");
        }
        Resource::Key { table: t, key, .. } => {
            s.push_str(words.row);
            table(&mut s, " ", *t);
            s.push_str(" (");
            s.push_str(key);
            s.push(')');
        }
        Resource::Application { name } => {
            if !words.app.is_empty() {
                s.push_str(words.app);
                s.push(' ');
            }
            s.push_str(name);
        }
        Resource::RowHash { table: t, hash } => {
            table(&mut s, "ROWHASH ", *t);
            let _ = write!(s, " ({hash:08X})");
        }
    }
    s
}

/// The answer to [`LockManager::request`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// The owner now holds `mode_held` on the resource. `previous` is the mode it held before
    /// (None: a new lock); `already` is true when `previous` already covered the request (only
    /// the count went up), false for a new lock or a granted conversion.
    Granted {
        mode_held: LockMode,
        previous: Option<LockMode>,
        already: bool,
    },
    /// Enqueued; `blockers` (ascending) are the owners it waits for: holders of incompatible
    /// granted locks and, for a new request, earlier incompatible waiters.
    Waiting { blockers: Vec<OwnerId> },
    /// Refused without any change: the owner already waits for another lock (one owner, one
    /// wait). Asking again for the very lock it waits for answers `Waiting` instead.
    AlreadyWaiting { resource: Resource, mode: LockMode },
}

/// A waiter that was granted its lock by a release or a cancelled wait: wake its session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    pub owner: OwnerId,
    pub resource: Resource,
    /// The mode it asked for.
    pub requested: LockMode,
    /// The mode it holds now (differs from `requested` after a conversion).
    pub mode: LockMode,
}

/// One granted lock, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockInfo {
    pub resource: Resource,
    pub owner: OwnerId,
    pub mode: LockMode,
    /// Re-entrant count: releases needed before the lock goes away.
    pub count: u32,
}

/// One pending request, for listings and the wait-for graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitInfo {
    pub resource: Resource,
    pub owner: OwnerId,
    pub requested: LockMode,
    /// The mode it will hold when granted (`combine(held, requested)` for a conversion).
    pub target: LockMode,
    /// A conversion of a lock the owner already holds; these queue ahead of new requests.
    pub conversion: bool,
    pub blockers: Vec<OwnerId>,
}

/// The result of [`LockManager::try_escalate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Escalation {
    /// The table lock is now `mode`; `released` row/page locks went away (waking `grants`).
    Escalated {
        mode: LockMode,
        released: usize,
        grants: Vec<Grant>,
    },
    /// Another owner's table lock is incompatible: nothing changed, no wait (A4: SQL Server
    /// carries on with row locks and retries after [`ESCALATION_RETRY_STEP`] more locks).
    Blocked { blockers: Vec<OwnerId> },
    /// The owner holds no intent lock on the table (nothing to escalate).
    NotApplicable,
}

/// Locks one statement may hold on one table reference before escalation is tried (A4).
pub const ESCALATION_THRESHOLD: usize = 5_000;
/// After a failed escalation, it is tried again every this many additional locks (A4).
pub const ESCALATION_RETRY_STEP: usize = 1_250;

#[derive(Clone, Debug)]
struct Held {
    owner: OwnerId,
    mode: LockMode,
    count: u32,
}

#[derive(Clone, Debug)]
struct Waiter {
    owner: OwnerId,
    requested: LockMode,
    target: LockMode,
    conversion: bool,
}

#[derive(Clone, Debug, Default)]
struct LockQueue {
    /// In grant order. Inline up to two: most resources have one holder, and a queue
    /// comes and goes with each row lock.
    granted: SmallVec<[Held; 2]>,
    /// Conversions first (FIFO among themselves), then new requests in FIFO order.
    waiting: VecDeque<Waiter>,
}

impl LockQueue {
    fn held_by(&self, owner: OwnerId) -> Option<&Held> {
        self.granted.iter().find(|h| h.owner == owner)
    }

    /// Owners of other granted locks incompatible with `mode`.
    fn granted_conflicts(
        &self,
        owner: OwnerId,
        mode: LockMode,
        kin: &Kin,
        out: &mut BTreeSet<OwnerId>,
    ) {
        for h in &self.granted {
            if h.owner != owner && !compatible(mode, h.mode) && !kin.related(owner, h.owner) {
                out.insert(h.owner);
            }
        }
    }

    /// Who the request at queue position `at` (or a new one appended, `at == len`) waits for.
    /// A conversion waits only for granted locks (conversions have priority); a new request
    /// also waits for every earlier incompatible waiter, so it can never delay one (no barging).
    fn blockers_at(
        &self,
        at: usize,
        owner: OwnerId,
        target: LockMode,
        conversion: bool,
        kin: &Kin,
    ) -> BTreeSet<OwnerId> {
        let mut out = BTreeSet::new();
        self.granted_conflicts(owner, target, kin, &mut out);
        if !conversion {
            for w in self.waiting.iter().take(at) {
                if w.owner != owner && !compatible(target, w.target) && !kin.related(owner, w.owner)
                {
                    out.insert(w.owner);
                }
            }
        }
        out
    }

    fn waiter_blockers(&self, at: usize, kin: &Kin) -> BTreeSet<OwnerId> {
        match self.waiting.get(at) {
            Some(w) => self.blockers_at(at, w.owner, w.target, w.conversion, kin),
            None => BTreeSet::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.granted.is_empty() && self.waiting.is_empty()
    }
}

/// What [`LockManager::unlink`] did to an owner's granted lock.
enum Unlinked {
    /// Still held (a re-entrant count left), or not held at all.
    Held,
    /// The lock went away; `waiters`: someone waits on the resource.
    Gone { waiters: bool },
}

#[derive(Clone, Debug, Default)]
struct OwnerLocks {
    /// In no order, each resource once: a lock is pushed when granted and most go at
    /// commit, all together. What lists or releases them sorts them first.
    held: Vec<Resource>,
    waiting: Option<Resource>,
}

/// All locks of a simulation. See the module docs for the ordering guarantees.
#[derive(Clone, Debug, Default)]
pub struct LockManager {
    /// Hashed, not ordered: every request and release finds its queue here, while only
    /// the listings walk it, and they sort what they list (see [`Self::sorted`]).
    resources: FxHashMap<Resource, LockQueue>,
    /// Hashed too: a transaction's entry comes with its first lock and goes at commit.
    owners: FxHashMap<OwnerId, OwnerLocks>,
    kin: Kin,
    /// A new row lock compatible with the row's holders is granted ahead of queued
    /// requests (a dialect's tuple locks: share lockers pass a waiting writer).
    rows_skip_queue: bool,
}

/// How many of `queued` requests a new request on `resource` goes behind: all of them,
/// except a row lock where the dialect lets row locks pass the queue.
fn ahead_of_new(rows_skip_queue: bool, resource: &Resource, queued: usize) -> usize {
    if rows_skip_queue && matches!(resource, Resource::Key { .. }) {
        0
    } else {
        queued
    }
}

/// Owners whose locks never conflict with each other: the session and transaction
/// owners of one session, where the dialect says a session's locks never conflict (its
/// session-level advisory lock and its transaction's lock on the same key are both
/// granted). Empty where every owner stands alone.
#[derive(Clone, Debug, Default)]
struct Kin {
    session_of: BTreeMap<OwnerId, u32>,
}

impl Kin {
    fn related(&self, a: OwnerId, b: OwnerId) -> bool {
        !self.session_of.is_empty()
            && self
                .session_of
                .get(&a)
                .is_some_and(|s| self.session_of.get(&b) == Some(s))
    }
}

impl LockManager {
    pub fn new() -> LockManager {
        LockManager::default()
    }

    /// Lets a row lock that the holders allow pass the queued requests (see
    /// `rows_skip_queue`).
    pub fn let_rows_skip_queue(&mut self) {
        self.rows_skip_queue = true;
    }

    /// Records that `owner` acts for `session`: its locks never conflict with another
    /// owner's of the same session (see `Kin`).
    pub fn join_session(&mut self, owner: OwnerId, session: u32) {
        self.kin.session_of.entry(owner).or_insert(session);
    }

    /// True when no lock is held or awaited.
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    /// Asks for `mode` on `resource`. Granted at once when compatible with every other
    /// owner's granted lock and with every queued request; otherwise enqueued (FIFO). A
    /// conversion (the owner already holds a lock here) is granted when the combined mode is
    /// compatible with the other granted locks, else it waits at the front of the queue.
    /// Every grant to the same owner and resource increments a re-entrant count.
    pub fn request(&mut self, owner: OwnerId, resource: Resource, mode: LockMode) -> Request {
        if let Some(waiting_on) = self.owners.get(&owner).and_then(|o| o.waiting.clone()) {
            let same = self.resources.get(&waiting_on).and_then(|q| {
                let at = q.waiting.iter().position(|w| w.owner == owner)?;
                let w = &q.waiting[at];
                (waiting_on == resource && w.requested == mode)
                    .then(|| q.waiter_blockers(at, &self.kin))
            });
            return match same {
                Some(blockers) => Request::Waiting {
                    blockers: blockers.into_iter().collect(),
                },
                None => {
                    let mode = self
                        .resources
                        .get(&waiting_on)
                        .and_then(|q| q.waiting.iter().find(|w| w.owner == owner))
                        .map_or(mode, |w| w.requested);
                    Request::AlreadyWaiting {
                        resource: waiting_on,
                        mode,
                    }
                }
            };
        }
        let queue = self.resources.entry(resource.clone()).or_default();
        if let Some(pos) = queue.granted.iter().position(|h| h.owner == owner) {
            let held = queue.granted[pos].mode;
            if covers(held, mode) {
                let h = &mut queue.granted[pos];
                h.count = h.count.saturating_add(1);
                return Request::Granted {
                    mode_held: held,
                    previous: Some(held),
                    already: true,
                };
            }
            let target = combine(held, mode);
            let blockers = queue.blockers_at(0, owner, target, true, &self.kin);
            if blockers.is_empty() {
                let h = &mut queue.granted[pos];
                h.mode = target;
                h.count = h.count.saturating_add(1);
                return Request::Granted {
                    mode_held: target,
                    previous: Some(held),
                    already: false,
                };
            }
            let at = queue.waiting.iter().take_while(|w| w.conversion).count();
            queue.waiting.insert(
                at,
                Waiter {
                    owner,
                    requested: mode,
                    target,
                    conversion: true,
                },
            );
            self.owners.entry(owner).or_default().waiting = Some(resource);
            return Request::Waiting {
                blockers: blockers.into_iter().collect(),
            };
        }
        let ahead = ahead_of_new(self.rows_skip_queue, &resource, queue.waiting.len());
        let blockers = queue.blockers_at(ahead, owner, mode, false, &self.kin);
        if blockers.is_empty() {
            queue.granted.push(Held {
                owner,
                mode,
                count: 1,
            });
            self.owners.entry(owner).or_default().held.push(resource);
            return Request::Granted {
                mode_held: mode,
                previous: None,
                already: false,
            };
        }
        queue.waiting.push_back(Waiter {
            owner,
            requested: mode,
            target: mode,
            conversion: false,
        });
        self.owners.entry(owner).or_default().waiting = Some(resource);
        Request::Waiting {
            blockers: blockers.into_iter().collect(),
        }
    }

    /// Without enqueueing: whom [`Self::request`] would make `owner` wait for, granted
    /// locks and earlier requests alike (empty: it would be granted). A request that
    /// must not wait (a try lock) is refused on this, as a server refuses one that
    /// conflicts with a waiting request's mode.
    pub fn request_blockers(
        &self,
        owner: OwnerId,
        resource: &Resource,
        mode: LockMode,
    ) -> Vec<OwnerId> {
        let Some(queue) = self.resources.get(resource) else {
            return Vec::new();
        };
        let blockers = match queue.held_by(owner) {
            Some(h) if covers(h.mode, mode) => BTreeSet::new(),
            Some(h) => queue.blockers_at(0, owner, combine(h.mode, mode), true, &self.kin),
            None => {
                let ahead = ahead_of_new(self.rows_skip_queue, resource, queue.waiting.len());
                queue.blockers_at(ahead, owner, mode, false, &self.kin)
            }
        };
        blockers.into_iter().collect()
    }

    /// Breaks a cycle of waits that passes through a wait for an earlier request only (a
    /// "soft" edge), as a deadlock detector that rearranges wait queues does: the first
    /// owner of `cycle` whose request conflicts with no granted lock is let past the
    /// requests queued ahead of it and granted. `None` when every wait in the cycle is
    /// for a held lock (a real deadlock).
    pub fn grant_past_queue(&mut self, cycle: &[OwnerId]) -> Option<Vec<Grant>> {
        let (owner, resource, at) = cycle.iter().find_map(|&o| {
            let resource = self.owners.get(&o)?.waiting.clone()?;
            let queue = self.resources.get(&resource)?;
            let at = queue.waiting.iter().position(|w| w.owner == o)?;
            let w = &queue.waiting[at];
            let mut held = BTreeSet::new();
            queue.granted_conflicts(o, w.target, &self.kin, &mut held);
            (!w.conversion && held.is_empty()).then_some((o, resource, at))
        })?;
        let queue = self.resources.get_mut(&resource)?;
        let w = queue.waiting.remove(at)?;
        queue.granted.push(Held {
            owner,
            mode: w.target,
            count: 1,
        });
        let entry = self.owners.entry(owner).or_default();
        entry.waiting = None;
        entry.held.push(resource.clone());
        Some(vec![Grant {
            owner,
            resource,
            requested: w.requested,
            mode: w.target,
        }])
    }

    /// Without enqueueing: the other owners whose GRANTED locks are incompatible with `mode`
    /// (combined with what `owner` already holds here). Empty = no granted lock stands in the
    /// way. Waiters are ignored on purpose: READPAST skips a row only when a granted lock
    /// conflicts (A6, "would have had to wait" for a holder), and APPLOCK_TEST asks the same.
    pub fn conflicts(&self, owner: OwnerId, resource: &Resource, mode: LockMode) -> Vec<OwnerId> {
        let Some(queue) = self.resources.get(resource) else {
            return Vec::new();
        };
        let target = queue.held_by(owner).map_or(mode, |h| combine(h.mode, mode));
        let mut out = BTreeSet::new();
        queue.granted_conflicts(owner, target, &self.kin, &mut out);
        out.into_iter().collect()
    }

    /// Drops one reference to `owner`'s lock on `resource` (no-op when it holds none); at
    /// zero the lock goes away and waiters that can now proceed are granted, in queue order.
    pub fn release(&mut self, owner: OwnerId, resource: &Resource) -> Vec<Grant> {
        self.release_refs(owner, resource, false)
    }

    /// Drops one reference only if the lock is still exactly `mode`. For S/U locks that a
    /// read releases early (READ COMMITTED): if the transaction has since converted the lock
    /// to something stronger (e.g. X by an update), that lock must live to the end.
    pub fn release_mode_if(
        &mut self,
        owner: OwnerId,
        resource: &Resource,
        mode: LockMode,
    ) -> Vec<Grant> {
        match self.held(owner, resource) {
            Some((held, _)) if held == mode => self.release(owner, resource),
            _ => Vec::new(),
        }
    }

    /// Releases, whatever their counts, every lock of `owner` whose resource passes `filter`
    /// (all of them at COMMIT/ROLLBACK). Does not touch a pending wait: see [`Self::cancel_wait`].
    pub fn release_all(
        &mut self,
        owner: OwnerId,
        filter: impl Fn(&Resource) -> bool,
    ) -> Vec<Grant> {
        // The owner's set is split once instead of removing each resource from it, and
        // the owner is forgotten once at the end (a commit releases every lock).
        let Some(o) = self.owners.get_mut(&owner) else {
            return Vec::new();
        };
        // A commit or rollback releases the whole set as it is, with no list to build.
        let held = std::mem::take(&mut o.held);
        let mut targets = if held.iter().all(&filter) {
            held
        } else {
            let (targets, kept): (Vec<Resource>, Vec<Resource>) =
                held.into_iter().partition(|r| filter(r));
            o.held = kept;
            targets
        };
        // Released in resource order, so waiters wake in the order they always have.
        targets.sort_unstable();
        let mut grants = Vec::new();
        for r in &targets {
            match self.unlink(owner, r, true) {
                Unlinked::Gone { waiters: true } => grants.extend(self.grant_waiters(r)),
                Unlinked::Gone { waiters: false } => {}
                Unlinked::Held => {
                    if let Some(o) = self.owners.get_mut(&owner) {
                        // Not granted here after all: it stays listed, as a single release
                        // leaves it.
                        o.held.push(r.clone());
                    }
                }
            }
        }
        self.forget_owner_if_idle(owner);
        grants
    }

    /// Puts `owner`'s lock on `resource` back as a savepoint found it: gone (`None`,
    /// whatever its count) or back to `mode`; grants whoever can now proceed.
    pub fn restore(
        &mut self,
        owner: OwnerId,
        resource: &Resource,
        mode: Option<LockMode>,
    ) -> Vec<Grant> {
        let Some(mode) = mode else {
            return self.release_refs(owner, resource, true);
        };
        let Some(queue) = self.resources.get_mut(resource) else {
            return Vec::new();
        };
        if let Some(h) = queue.granted.iter_mut().find(|h| h.owner == owner) {
            h.mode = mode;
        }
        self.grant_waiters(resource)
    }

    /// Removes `owner`'s pending request (lock timeout 1222, deadlock victim 1205, cancelled
    /// batch) and grants whoever can now proceed.
    pub fn cancel_wait(&mut self, owner: OwnerId) -> Vec<Grant> {
        let Some(resource) = self.owners.get_mut(&owner).and_then(|o| o.waiting.take()) else {
            return Vec::new();
        };
        if let Some(queue) = self.resources.get_mut(&resource) {
            queue.waiting.retain(|w| w.owner != owner);
        }
        self.forget_owner_if_idle(owner);
        self.grant_waiters(&resource)
    }

    /// Tries lock escalation for `owner` on `table` (A4): its table intent lock becomes the
    /// matching full lock (IS→S, anything with IU/IX→X, since U row locks escalate to X per
    /// MS-HINTS UPDLOCK) and, on success, its key/page locks on that table are released. Never
    /// waits. The caller decides when to try (see [`ESCALATION_THRESHOLD`]). A waiting owner
    /// is not running a statement, so it cannot escalate (NotApplicable).
    pub fn try_escalate(&mut self, owner: OwnerId, table: u32) -> Escalation {
        if self.owners.get(&owner).is_some_and(|o| o.waiting.is_some()) {
            return Escalation::NotApplicable;
        }
        let object = Resource::Object { table };
        let Some(queue) = self.resources.get_mut(&object) else {
            return Escalation::NotApplicable;
        };
        let Some(pos) = queue.granted.iter().position(|h| h.owner == owner) else {
            return Escalation::NotApplicable;
        };
        let held = queue.granted[pos].mode;
        let mode = match held {
            LockMode::IS => LockMode::S,
            LockMode::IU | LockMode::IX | LockMode::SIU | LockMode::SIX | LockMode::UIX => {
                LockMode::X
            }
            LockMode::S
            | LockMode::U
            | LockMode::X
            | LockMode::SchS
            | LockMode::SchM
            | LockMode::ForKeyShare
            | LockMode::ForShare
            | LockMode::ForNoKeyUpdate
            | LockMode::ForUpdate => {
                return Escalation::NotApplicable;
            }
        };
        let blockers = queue.blockers_at(0, owner, mode, true, &self.kin);
        if !blockers.is_empty() {
            return Escalation::Blocked {
                blockers: blockers.into_iter().collect(),
            };
        }
        queue.granted[pos].mode = mode;
        // Off the owner's list in one pass, not one search per lock; released in
        // resource order.
        let mut below: Vec<Resource> = Vec::new();
        if let Some(o) = self.owners.get_mut(&owner) {
            (below, o.held) = std::mem::take(&mut o.held)
                .into_iter()
                .partition(|r| r.is_below_table(table));
        }
        below.sort_unstable();
        let mut grants = Vec::new();
        for r in &below {
            if let Unlinked::Gone { waiters: true } = self.unlink(owner, r, true) {
                grants.extend(self.grant_waiters(r));
            }
        }
        self.forget_owner_if_idle(owner);
        Escalation::Escalated {
            mode,
            released: below.len(),
            grants,
        }
    }

    /// How many row/page locks `owner` holds on `table` (to decide when to escalate).
    pub fn lock_count(&self, owner: OwnerId, table: u32) -> usize {
        self.owners.get(&owner).map_or(0, |o| {
            o.held.iter().filter(|r| r.is_below_table(table)).count()
        })
    }

    /// The lock `owner` waits for, as (resource, requested mode).
    pub fn waiting(&self, owner: OwnerId) -> Option<(Resource, LockMode)> {
        let resource = self.owners.get(&owner)?.waiting.clone()?;
        let w = self
            .resources
            .get(&resource)?
            .waiting
            .iter()
            .find(|w| w.owner == owner)?;
        Some((resource, w.requested))
    }

    /// Who `owner` currently waits for (ascending); empty when it is not waiting.
    pub fn blockers(&self, owner: OwnerId) -> Vec<OwnerId> {
        let Some(resource) = self.owners.get(&owner).and_then(|o| o.waiting.as_ref()) else {
            return Vec::new();
        };
        let Some(queue) = self.resources.get(resource) else {
            return Vec::new();
        };
        match queue.waiting.iter().position(|w| w.owner == owner) {
            Some(at) => queue.waiter_blockers(at, &self.kin).into_iter().collect(),
            None => Vec::new(),
        }
    }

    /// The mode and count `owner` holds on `resource`.
    pub fn held(&self, owner: OwnerId, resource: &Resource) -> Option<(LockMode, u32)> {
        self.resources
            .get(resource)?
            .held_by(owner)
            .map(|h| (h.mode, h.count))
    }

    /// Granted locks on `resource` as (owner, mode, count), in grant order.
    /// The requests waiting on `resource`, in queue order, with the mode each waits for.
    pub fn queue(&self, resource: &Resource) -> Vec<(OwnerId, LockMode)> {
        self.resources
            .get(resource)
            .map(|q| q.waiting.iter().map(|w| (w.owner, w.target)).collect())
            .unwrap_or_default()
    }

    pub fn holders(&self, resource: &Resource) -> Vec<(OwnerId, LockMode, u32)> {
        self.resources
            .get(resource)
            .map(|q| {
                q.granted
                    .iter()
                    .map(|h| (h.owner, h.mode, h.count))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Locks `owner` holds, in resource order.
    pub fn locks_of(&self, owner: OwnerId) -> Vec<(Resource, LockMode)> {
        let Some(o) = self.owners.get(&owner) else {
            return Vec::new();
        };
        let mut out: Vec<(Resource, LockMode)> = o
            .held
            .iter()
            .filter_map(|r| {
                self.resources
                    .get(r)?
                    .held_by(owner)
                    .map(|h| (r.clone(), h.mode))
            })
            .collect();
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The locked resources and their queues, in resource order.
    fn sorted(&self) -> Vec<(&Resource, &LockQueue)> {
        let mut all: Vec<(&Resource, &LockQueue)> = self.resources.iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        all
    }

    /// Every granted lock, by resource, then grant order.
    pub fn all_locks(&self) -> Vec<LockInfo> {
        let mut out = Vec::new();
        for (resource, q) in self.sorted() {
            for h in &q.granted {
                out.push(LockInfo {
                    resource: resource.clone(),
                    owner: h.owner,
                    mode: h.mode,
                    count: h.count,
                });
            }
        }
        out
    }

    /// Every pending request, by resource, then queue order.
    pub fn all_waits(&self) -> Vec<WaitInfo> {
        let mut out = Vec::new();
        for (resource, q) in self.sorted() {
            for (at, w) in q.waiting.iter().enumerate() {
                out.push(WaitInfo {
                    resource: resource.clone(),
                    owner: w.owner,
                    requested: w.requested,
                    target: w.target,
                    conversion: w.conversion,
                    blockers: q.waiter_blockers(at, &self.kin).into_iter().collect(),
                });
            }
        }
        out
    }

    /// The wait-for graph as (waiter, blocker) pairs, sorted. A waiter waits for every
    /// incompatible granted holder and, for a new request, every earlier incompatible waiter.
    pub fn wait_for_edges(&self) -> Vec<(OwnerId, OwnerId)> {
        let mut edges: Vec<(OwnerId, OwnerId)> = self
            .all_waits()
            .into_iter()
            .flat_map(|w| w.blockers.into_iter().map(move |b| (w.owner, b)))
            .collect();
        edges.sort_unstable();
        edges.dedup();
        edges
    }

    /// A cycle in the wait-for graph, if any: each owner waits for the next, the last for the
    /// first, starting at the cycle's smallest owner. The search starts from the smallest
    /// owner id and follows edges in ascending order, so the answer is deterministic. Picking
    /// the victim (priority, then cost; A8) is the caller's job.
    pub fn find_deadlock(&self) -> Option<Vec<OwnerId>> {
        self.find_deadlock_with(&[])
    }

    /// As [`Self::find_deadlock`], with `extra` waits the lock manager cannot see: a
    /// session's own locks (an application or advisory lock it holds, not its
    /// transaction) wait for the owner the session waits as, since the session does not
    /// go on to release them until that wait ends.
    pub fn find_deadlock_with(&self, extra: &[(OwnerId, OwnerId)]) -> Option<Vec<OwnerId>> {
        let mut next: BTreeMap<OwnerId, Vec<OwnerId>> = BTreeMap::new();
        for (waiter, blocker) in self
            .wait_for_edges()
            .into_iter()
            .chain(extra.iter().copied())
        {
            next.entry(waiter).or_default().push(blocker);
        }
        for succ in next.values_mut() {
            succ.sort_unstable();
            succ.dedup();
        }
        let mut done: BTreeSet<OwnerId> = BTreeSet::new();
        for &start in next.keys() {
            if done.contains(&start) {
                continue;
            }
            // Iterative DFS: (node, index of the next edge to follow); depth ≤ number of owners.
            let mut stack: Vec<(OwnerId, usize)> = vec![(start, 0)];
            let mut on_path: BTreeMap<OwnerId, usize> = BTreeMap::from([(start, 0)]);
            while let Some(top) = stack.last_mut() {
                let (node, edge) = *top;
                let succ = next.get(&node).map_or(&[][..], Vec::as_slice);
                if let Some(&n) = succ.get(edge) {
                    top.1 += 1;
                    if let Some(&at) = on_path.get(&n) {
                        let mut cycle: Vec<OwnerId> = stack[at..].iter().map(|&(o, _)| o).collect();
                        if let Some(min_at) = cycle
                            .iter()
                            .enumerate()
                            .min_by_key(|&(_, o)| *o)
                            .map(|(i, _)| i)
                        {
                            cycle.rotate_left(min_at);
                        }
                        return Some(cycle);
                    }
                    if !done.contains(&n) {
                        on_path.insert(n, stack.len());
                        stack.push((n, 0));
                    }
                } else {
                    done.insert(node);
                    on_path.remove(&node);
                    stack.pop();
                }
            }
        }
        None
    }

    /// Checks the structure after every step (debug builds): no two owners hold incompatible
    /// granted locks on a resource; every waiter has a blocker; counts ≥ 1; one wait per
    /// owner; the per-owner index agrees with the per-resource queues.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut held_seen: BTreeMap<OwnerId, BTreeSet<&Resource>> = BTreeMap::new();
        let mut waits_seen: BTreeMap<OwnerId, &Resource> = BTreeMap::new();
        for (resource, q) in self.sorted() {
            if q.is_empty() {
                return Err(format!("{resource}: empty queue kept"));
            }
            for (i, a) in q.granted.iter().enumerate() {
                if a.count == 0 {
                    return Err(format!(
                        "{resource}: owner {} holds {} with count 0",
                        a.owner, a.mode
                    ));
                }
                if !held_seen.entry(a.owner).or_default().insert(resource) {
                    return Err(format!("{resource}: owner {} granted twice", a.owner));
                }
                for b in &q.granted[i + 1..] {
                    if !compatible(a.mode, b.mode) && !self.kin.related(a.owner, b.owner) {
                        return Err(format!(
                            "{resource}: owner {} holds {} and owner {} holds {}",
                            a.owner, a.mode, b.owner, b.mode
                        ));
                    }
                }
            }
            let mut seen_plain = false;
            for (at, w) in q.waiting.iter().enumerate() {
                if waits_seen.insert(w.owner, resource).is_some() {
                    return Err(format!("owner {} waits for two locks", w.owner));
                }
                if w.conversion {
                    if seen_plain {
                        return Err(format!(
                            "{resource}: conversion of owner {} queued behind a new request",
                            w.owner
                        ));
                    }
                    if q.held_by(w.owner).is_none() {
                        return Err(format!(
                            "{resource}: owner {} converts a lock it does not hold",
                            w.owner
                        ));
                    }
                } else {
                    seen_plain = true;
                }
                if q.waiter_blockers(at, &self.kin).is_empty() {
                    return Err(format!(
                        "{resource}: owner {} waits for {} with no blocker",
                        w.owner, w.requested
                    ));
                }
            }
        }
        let mut owners: Vec<(&OwnerId, &OwnerLocks)> = self.owners.iter().collect();
        owners.sort_unstable_by_key(|(o, _)| **o);
        for (owner, o) in owners {
            let held: BTreeSet<&Resource> = o.held.iter().collect();
            if held.len() != o.held.len() {
                return Err(format!("owner {owner}: a lock listed twice"));
            }
            if held_seen.remove(owner).unwrap_or_default() != held {
                return Err(format!("owner {owner}: index of held locks out of date"));
            }
            if o.waiting.as_ref() != waits_seen.remove(owner) {
                return Err(format!("owner {owner}: index of its wait out of date"));
            }
            if o.held.is_empty() && o.waiting.is_none() {
                return Err(format!("owner {owner}: idle entry kept"));
            }
        }
        if let Some(owner) = held_seen.keys().chain(waits_seen.keys()).next() {
            return Err(format!("owner {owner}: missing from the owner index"));
        }
        Ok(())
    }

    /// Drops one reference (or all with `all`), then grants what it unblocked.
    fn release_refs(&mut self, owner: OwnerId, resource: &Resource, all: bool) -> Vec<Grant> {
        let waiters = match self.unlink(owner, resource, all) {
            Unlinked::Held => return Vec::new(),
            Unlinked::Gone { waiters } => waiters,
        };
        if let Some(o) = self.owners.get_mut(&owner) {
            // Searched from the end: a lock released early is mostly the newest.
            if let Some(at) = o.held.iter().rposition(|r| r == resource) {
                o.held.swap_remove(at);
            }
        }
        self.forget_owner_if_idle(owner);
        if waiters {
            self.grant_waiters(resource)
        } else {
            Vec::new()
        }
    }

    /// Drops one reference (`all`: every reference) to `owner`'s granted lock in the
    /// resource's queue. When the lock goes away the caller updates the owner's list and,
    /// if anyone waits here, grants waiters; a queue left empty is removed at once (one
    /// lookup: most releases at commit have nobody waiting).
    fn unlink(&mut self, owner: OwnerId, resource: &Resource, all: bool) -> Unlinked {
        let std::collections::hash_map::Entry::Occupied(mut entry) =
            self.resources.entry(resource.clone())
        else {
            return Unlinked::Held;
        };
        let queue = entry.get_mut();
        let Some(pos) = queue.granted.iter().position(|h| h.owner == owner) else {
            return Unlinked::Held;
        };
        let h = &mut queue.granted[pos];
        h.count = if all { 0 } else { h.count.saturating_sub(1) };
        if h.count > 0 {
            return Unlinked::Held;
        }
        queue.granted.remove(pos);
        if queue.waiting.is_empty() {
            if queue.granted.is_empty() {
                entry.remove();
            }
            return Unlinked::Gone { waiters: false };
        }
        // A conversion of the lock just dropped becomes a plain request (kept in its place).
        for w in queue.waiting.iter_mut().filter(|w| w.owner == owner) {
            w.conversion = false;
            w.target = w.requested;
        }
        let now_plain = queue.waiting.iter().position(|w| w.owner == owner);
        if let Some(at) = now_plain {
            // Plain requests may not sit ahead of conversions: move it behind them.
            let conversions_after = queue
                .waiting
                .iter()
                .skip(at + 1)
                .take_while(|w| w.conversion)
                .count();
            if conversions_after > 0 {
                if let Some(w) = queue.waiting.remove(at) {
                    queue.waiting.insert(at + conversions_after, w);
                }
            }
        }
        Unlinked::Gone { waiters: true }
    }

    /// One pass in queue order grants every waiter that has no blocker left. A waiter behind a
    /// still-blocked one is granted only if compatible with it, so FIFO order is never
    /// overtaken; one pass reaches the fixpoint because a grant turns a waiter into a holder
    /// of the same mode, which leaves the constraints on later waiters unchanged.
    fn grant_waiters(&mut self, resource: &Resource) -> Vec<Grant> {
        let mut grants = Vec::new();
        let Some(queue) = self.resources.get_mut(resource) else {
            return grants;
        };
        let mut at = 0;
        while at < queue.waiting.len() {
            if !queue.waiter_blockers(at, &self.kin).is_empty() {
                at += 1;
                continue;
            }
            let Some(w) = queue.waiting.remove(at) else {
                break;
            };
            let (mode, new) = match queue.granted.iter_mut().find(|h| h.owner == w.owner) {
                Some(h) => {
                    h.mode = combine(h.mode, w.requested);
                    h.count = h.count.saturating_add(1);
                    (h.mode, false)
                }
                None => {
                    queue.granted.push(Held {
                        owner: w.owner,
                        mode: w.target,
                        count: 1,
                    });
                    (w.target, true)
                }
            };
            let o = self.owners.entry(w.owner).or_default();
            o.waiting = None;
            if new {
                o.held.push(resource.clone());
            }
            grants.push(Grant {
                owner: w.owner,
                resource: resource.clone(),
                requested: w.requested,
                mode,
            });
        }
        if queue.is_empty() {
            self.resources.remove(resource);
        }
        grants
    }

    fn forget_owner_if_idle(&mut self, owner: OwnerId) {
        if self
            .owners
            .get(&owner)
            .is_some_and(|o| o.held.is_empty() && o.waiting.is_none())
        {
            self.owners.remove(&owner);
            // A finished transaction's session need not be kept (a clone copies it).
            self.kin.session_of.remove(&owner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LockMode::*;
    use super::*;

    #[test]
    fn key_ranges_are_told_from_keys_by_their_text() {
        assert!(is_key_range("KEY send (end of index)"));
        assert!(is_key_range("KEY dbo.t (range below 5)"));
        assert!(is_key_range("KEY t (range below 1,2)"));
        assert!(!is_key_range("KEY t (5)"));
        assert!(!is_key_range("KEY t (range)"));
        assert!(!is_key_range("OBJECT t"));
        assert!(!is_key_range("APP end of index"));
        assert!(!is_key_range("KEY t (x) end of index)"));
    }

    fn key(k: u32) -> Resource {
        Resource::Key {
            table: 1,
            index: 1,
            key: k.to_string().into(),
        }
    }

    fn granted(r: &Request) -> bool {
        matches!(r, Request::Granted { .. })
    }

    fn blockers(r: &Request) -> Vec<OwnerId> {
        match r {
            Request::Waiting { blockers } => blockers.clone(),
            other => panic!("expected Waiting, got {other:?}"),
        }
    }

    fn ok(lm: &LockManager) {
        if let Err(e) = lm.check_invariants() {
            panic!("invariant broken: {e}");
        }
    }

    /// A2 as written in semantics.md, IU per the brief, Sch-S/Sch-M per A2's schema bullet,
    /// SIU/UIX as S+IU and U+IX. Rows requested, columns granted, in `COLS` order.
    const COLS: [LockMode; 11] = [IS, IU, IX, S, U, SIU, SIX, UIX, X, SchS, SchM];
    const MATRIX: [(LockMode, &str); 11] = [
        (IS, "YYYYYYYYNYN"),
        (IU, "YYYYNYNNNYN"),
        (IX, "YYYNNNNNNYN"),
        (S, "YYNYYYNNNYN"),
        (U, "YNNYNNNNNYN"),
        (SIU, "YYNYNYNNNYN"),
        (SIX, "YNNNNNNNNYN"),
        (UIX, "YNNNNNNNNYN"),
        (X, "NNNNNNNNNYN"),
        (SchS, "YYYYYYYYYYN"),
        (SchM, "NNNNNNNNNNN"),
    ];

    #[test]
    fn compatibility_matrix_matches_a2_and_is_symmetric() {
        for (req, row) in MATRIX {
            for (col, cell) in COLS.iter().zip(row.chars()) {
                assert_eq!(
                    compatible(req, *col),
                    cell == 'Y',
                    "{req} requested while {col} granted"
                );
                assert_eq!(
                    compatible(req, *col),
                    compatible(*col, req),
                    "symmetry {req}/{col}"
                );
            }
        }
    }

    #[test]
    fn display_uses_sql_server_names() {
        let shown: Vec<String> = LockMode::ALL.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            shown,
            ["IS", "IU", "IX", "S", "U", "SIU", "SIX", "UIX", "X", "Sch-S", "Sch-M"]
        );
        assert_eq!(Resource::Object { table: 3 }.to_string(), "OBJECT: t3");
        assert_eq!(
            Resource::Page {
                table: 3,
                index: 1,
                page: 5
            }
            .to_string(),
            "PAGE: t3:1:5"
        );
        assert_eq!(
            Resource::Key {
                table: 3,
                index: 1,
                key: "42".into()
            }
            .to_string(),
            "KEY: t3:1 (42)"
        );
        assert_eq!(
            Resource::Application {
                name: "Send_1".into()
            }
            .to_string(),
            "APP: Send_1"
        );
        assert_eq!(
            Resource::RowHash {
                table: 7,
                hash: 0xbeef
            }
            .to_string(),
            "ROWHASH: t7 (0000beef)"
        );
        assert_eq!(LockMode::from_applock_name("Exclusive"), Some(X));
        assert_eq!(LockMode::from_applock_name("IntentShared"), Some(IS));
        assert_eq!(LockMode::from_applock_name("SharedIntentExclusive"), None);
        assert_eq!(UIX.applock_name(), "UpdateIntentExclusive");
    }

    #[test]
    fn covers_and_combine_follow_the_brief() {
        for m in [IS, IU, IX, S, U, SIU, SIX, UIX, X] {
            assert!(covers(X, m), "X covers {m}");
        }
        for m in [S, IX, IS, IU] {
            assert!(covers(SIX, m), "SIX covers {m}");
        }
        for m in [S, IS, IU] {
            assert!(covers(U, m), "U covers {m}");
        }
        assert!(covers(IX, IS) && covers(IX, IU) && covers(S, IS) && covers(IU, IS));
        assert!(
            !covers(S, U) && !covers(U, IX) && !covers(S, IU) && !covers(IX, S) && !covers(SIX, U)
        );
        assert!(covers(SchM, X) && covers(IS, SchS) && !covers(SchS, IS) && !covers(X, SchM));

        let cases = [
            (S, IX, SIX),
            (IX, S, SIX),
            (S, U, U),
            (U, S, U),
            (U, X, X),
            (IU, IX, IX),
            (SIX, X, X),
            (S, IU, SIU),
            (U, IX, UIX),
            (SIX, U, UIX),
            (SchS, IX, IX),
            (IX, SchM, SchM),
        ];
        for (a, b, want) in cases {
            assert_eq!(combine(a, b), want, "{a} + {b}");
        }
        for m in [IS, IU, IX, S, U, SIU, SIX, UIX, X, SchM] {
            assert_eq!(combine(IS, m), m, "IS + {m} is the stronger");
        }
        assert_eq!(combine(IS, SchS), IS, "any lock already keeps Sch-M out");
    }

    #[test]
    fn covering_is_consistent_with_compatibility_and_combine_is_least() {
        for a in LockMode::ALL {
            for b in LockMode::ALL {
                if covers(a, b) {
                    // Whatever coexists with the stronger lock coexists with the weaker one.
                    for m in LockMode::ALL {
                        assert!(
                            !compatible(m, a) || compatible(m, b),
                            "{a} covers {b} but {m} disagrees"
                        );
                    }
                }
                let c = combine(a, b);
                assert!(covers(c, a) && covers(c, b), "{a}+{b}={c} covers both");
                for d in LockMode::ALL {
                    if covers(d, a) && covers(d, b) {
                        assert!(covers(d, c), "{a}+{b}={c} is not below {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn u_conflicts_with_u_but_not_with_s() {
        let mut lm = LockManager::new();
        assert!(granted(&lm.request(1, key(1), S)));
        assert!(granted(&lm.request(2, key(1), U)));
        assert_eq!(blockers(&lm.request(3, key(1), U)), [2]);
        // READPAST with UPDLOCK (needs U) skips this row; a plain READPAST read (S) would not.
        assert_eq!(lm.conflicts(4, &key(1), U), [2]);
        assert!(lm.conflicts(4, &key(1), S).is_empty());
        ok(&lm);
    }

    #[test]
    fn fifo_no_barging() {
        let mut lm = LockManager::new();
        assert!(granted(&lm.request(1, key(1), S)));
        assert_eq!(blockers(&lm.request(2, key(1), X)), [1]);
        // Compatible with the granted S, but it would overtake the waiting X.
        assert_eq!(blockers(&lm.request(3, key(1), S)), [2]);
        assert_eq!(lm.wait_for_edges(), [(2, 1), (3, 2)]);
        // conflicts() looks at granted locks only.
        assert!(lm.conflicts(3, &key(1), S).is_empty());
        ok(&lm);
        let g = lm.release(1, &key(1));
        assert_eq!(
            g,
            [Grant {
                owner: 2,
                resource: key(1),
                requested: X,
                mode: X
            }]
        );
        assert_eq!(lm.blockers(3), [2]);
        let g = lm.release(2, &key(1));
        assert_eq!(g.iter().map(|g| g.owner).collect::<Vec<_>>(), [3]);
        ok(&lm);
    }

    #[test]
    fn conversion_has_priority() {
        let mut lm = LockManager::new();
        assert!(granted(&lm.request(1, key(1), S)));
        assert!(granted(&lm.request(2, key(1), S)));
        assert_eq!(blockers(&lm.request(3, key(1), X)), [1, 2]);
        // Owner 1 converts S→X: waits for owner 2 only, and goes ahead of owner 3.
        assert_eq!(blockers(&lm.request(1, key(1), X)), [2]);
        let waits: Vec<(OwnerId, bool)> = lm
            .all_waits()
            .iter()
            .map(|w| (w.owner, w.conversion))
            .collect();
        assert_eq!(waits, [(1, true), (3, false)]);
        ok(&lm);
        let g = lm.release(2, &key(1));
        assert_eq!(
            g,
            [Grant {
                owner: 1,
                resource: key(1),
                requested: X,
                mode: X
            }]
        );
        assert_eq!(lm.holders(&key(1)), [(1, X, 2)]);
        assert_eq!(lm.blockers(3), [1]);
        ok(&lm);
    }

    #[test]
    fn conversion_granted_at_once_and_reported() {
        let mut lm = LockManager::new();
        let t = Resource::Object { table: 1 };
        assert_eq!(
            lm.request(1, t.clone(), IX),
            Request::Granted {
                mode_held: IX,
                previous: None,
                already: false
            }
        );
        assert_eq!(
            lm.request(1, t.clone(), IS),
            Request::Granted {
                mode_held: IX,
                previous: Some(IX),
                already: true
            }
        );
        assert_eq!(
            lm.request(1, t.clone(), S),
            Request::Granted {
                mode_held: SIX,
                previous: Some(IX),
                already: false
            }
        );
        assert_eq!(lm.held(1, &t), Some((SIX, 3)));
        ok(&lm);
    }

    #[test]
    fn reentrant_counts_need_as_many_releases() {
        let mut lm = LockManager::new();
        let app = Resource::Application {
            name: "Send_1".into(),
        };
        for _ in 0..3 {
            assert!(granted(&lm.request(1, app.clone(), X)));
        }
        assert_eq!(blockers(&lm.request(2, app.clone(), X)), [1]);
        assert!(lm.release(1, &app).is_empty());
        assert!(lm.release(1, &app).is_empty());
        assert_eq!(lm.holders(&app), [(1, X, 1)]);
        let g = lm.release(1, &app);
        assert_eq!(g.len(), 1);
        assert_eq!(lm.holders(&app), [(2, X, 1)]);
        // Releasing what is not held changes nothing (the caller raises 1223).
        assert!(lm.release(1, &app).is_empty());
        ok(&lm);
    }

    #[test]
    fn release_wakes_waiters_in_order_and_stops_at_a_conflict() {
        let mut lm = LockManager::new();
        assert!(granted(&lm.request(1, key(1), X)));
        assert_eq!(blockers(&lm.request(2, key(1), S)), [1]);
        assert_eq!(blockers(&lm.request(3, key(1), S)), [1]);
        assert_eq!(blockers(&lm.request(4, key(1), X)), [1, 2, 3]);
        assert_eq!(blockers(&lm.request(5, key(1), S)), [1, 4]);
        ok(&lm);
        let g = lm.release(1, &key(1));
        let woken: Vec<(OwnerId, LockMode)> = g.iter().map(|g| (g.owner, g.mode)).collect();
        assert_eq!(woken, [(2, S), (3, S)]);
        assert_eq!(lm.blockers(4), [2, 3]);
        assert_eq!(lm.blockers(5), [4]);
        assert!(lm.release(2, &key(1)).is_empty());
        let g = lm.release(3, &key(1));
        assert_eq!(g.iter().map(|g| g.owner).collect::<Vec<_>>(), [4]);
        let g = lm.release(4, &key(1));
        assert_eq!(g.iter().map(|g| g.owner).collect::<Vec<_>>(), [5]);
        lm.release(5, &key(1));
        assert!(lm.is_empty());
        ok(&lm);
    }

    #[test]
    fn release_mode_if_keeps_a_converted_lock() {
        let mut lm = LockManager::new();
        assert!(granted(&lm.request(1, key(1), U)));
        assert!(granted(&lm.request(1, key(1), X)));
        assert!(lm.release_mode_if(1, &key(1), U).is_empty());
        assert_eq!(lm.held(1, &key(1)), Some((X, 2)));
        assert!(granted(&lm.request(1, key(2), S)));
        lm.release_mode_if(1, &key(2), S);
        assert_eq!(lm.held(1, &key(2)), None);
        ok(&lm);
    }

    /// The owner's locks sit in a list and the queues in a hash map, yet what lists them
    /// and what releases them all go in resource order: locks granted in the order
    /// 7, 2, 9, 4 are listed 2, 4, 7, 9, and a commit wakes the waiters on them so.
    #[test]
    fn listings_and_releases_follow_resource_order_not_grant_order() {
        let mut lm = LockManager::new();
        for k in [7, 2, 9, 4] {
            assert!(granted(&lm.request(1, key(k), X)));
        }
        let listed: Vec<Resource> = lm.locks_of(1).into_iter().map(|(r, _)| r).collect();
        assert_eq!(listed, vec![key(2), key(4), key(7), key(9)]);
        let all: Vec<Resource> = lm.all_locks().into_iter().map(|l| l.resource).collect();
        assert_eq!(all, listed);
        // Owners 2..=5 each wait for one of them, in grant order.
        for (owner, k) in [(2, 7), (3, 2), (4, 9), (5, 4)] {
            assert_eq!(blockers(&lm.request(owner, key(k), S)), vec![1]);
        }
        let waits: Vec<OwnerId> = lm.all_waits().into_iter().map(|w| w.owner).collect();
        assert_eq!(waits, vec![3, 5, 2, 4]);
        ok(&lm);
        let woken: Vec<OwnerId> = lm
            .release_all(1, |_| true)
            .iter()
            .map(|g| g.owner)
            .collect();
        assert_eq!(woken, vec![3, 5, 2, 4]);
        ok(&lm);
        // A lock released early leaves the others listed, still in order.
        lm.release(2, &key(7));
        assert!(lm.locks_of(2).is_empty());
        assert_eq!(lm.locks_of(5), vec![(key(4), S)]);
        ok(&lm);
    }

    #[test]
    fn release_all_frees_a_transaction() {
        let mut lm = LockManager::new();
        let t = Resource::Object { table: 1 };
        let app = Resource::Application { name: "a".into() };
        lm.request(1, t.clone(), IX);
        lm.request(1, key(1), X);
        lm.request(1, key(1), X);
        lm.request(1, app.clone(), X);
        assert_eq!(blockers(&lm.request(2, key(1), U)), [1]);
        // Commit releases the transaction's locks but not a session-owned app lock.
        let g = lm.release_all(1, |r| !matches!(r, Resource::Application { .. }));
        assert_eq!(
            g,
            [Grant {
                owner: 2,
                resource: key(1),
                requested: U,
                mode: U
            }]
        );
        assert_eq!(lm.locks_of(1), [(app, X)]);
        ok(&lm);
    }

    #[test]
    fn cancel_wait_unblocks_those_behind() {
        let mut lm = LockManager::new();
        assert!(granted(&lm.request(1, key(1), S)));
        assert_eq!(blockers(&lm.request(2, key(1), X)), [1]);
        assert_eq!(blockers(&lm.request(3, key(1), S)), [2]);
        assert_eq!(lm.waiting(2), Some((key(1), X)));
        let g = lm.cancel_wait(2);
        assert_eq!(
            g,
            [Grant {
                owner: 3,
                resource: key(1),
                requested: S,
                mode: S
            }]
        );
        assert_eq!(lm.waiting(2), None);
        assert!(lm.cancel_wait(2).is_empty());
        ok(&lm);
    }

    #[test]
    fn one_wait_per_owner() {
        let mut lm = LockManager::new();
        lm.request(1, key(1), X);
        assert_eq!(blockers(&lm.request(2, key(1), X)), [1]);
        assert_eq!(blockers(&lm.request(2, key(1), X)), [1]);
        assert_eq!(
            lm.request(2, key(2), S),
            Request::AlreadyWaiting {
                resource: key(1),
                mode: X
            }
        );
        assert_eq!(lm.all_waits().len(), 1);
        ok(&lm);
    }

    #[test]
    fn two_owner_deadlock() {
        let mut lm = LockManager::new();
        lm.request(1, key(1), X);
        lm.request(2, key(2), X);
        assert_eq!(blockers(&lm.request(1, key(2), U)), [2]);
        assert_eq!(lm.find_deadlock(), None);
        assert_eq!(blockers(&lm.request(2, key(1), S)), [1]);
        assert_eq!(lm.find_deadlock(), Some(vec![1, 2]));
        ok(&lm);
        // The victim's wait is cancelled and its locks freed: the other proceeds.
        lm.cancel_wait(2);
        let g = lm.release_all(2, |_| true);
        assert_eq!(g.iter().map(|g| g.owner).collect::<Vec<_>>(), [1]);
        assert_eq!(lm.find_deadlock(), None);
        ok(&lm);
    }

    #[test]
    fn conversion_deadlock_of_two_shared_holders() {
        let mut lm = LockManager::new();
        lm.request(1, key(1), S);
        lm.request(2, key(1), S);
        assert_eq!(blockers(&lm.request(1, key(1), X)), [2]);
        assert_eq!(blockers(&lm.request(2, key(1), X)), [1]);
        assert_eq!(lm.find_deadlock(), Some(vec![1, 2]));
        ok(&lm);
    }

    #[test]
    fn three_owner_cycle() {
        let mut lm = LockManager::new();
        for o in [7, 3, 5] {
            lm.request(o, key(o), X);
        }
        // 7 → 3 → 5 → 7, plus a bystander 9 waiting on 7 outside the cycle.
        lm.request(7, key(3), X);
        lm.request(9, key(7), S);
        lm.request(3, key(5), X);
        assert_eq!(lm.find_deadlock(), None);
        lm.request(5, key(7), X);
        assert_eq!(lm.find_deadlock(), Some(vec![3, 5, 7]));
        ok(&lm);
    }

    #[test]
    fn chain_is_not_a_deadlock() {
        let mut lm = LockManager::new();
        lm.request(1, key(1), X);
        lm.request(2, key(2), X);
        lm.request(2, key(1), X);
        lm.request(3, key(2), X);
        lm.request(4, key(2), S);
        assert_eq!(lm.wait_for_edges(), [(2, 1), (3, 2), (4, 2), (4, 3)]);
        assert_eq!(lm.find_deadlock(), None);
        ok(&lm);
    }

    #[test]
    fn schema_locks() {
        let mut lm = LockManager::new();
        let t = Resource::Object { table: 1 };
        assert!(granted(&lm.request(1, t.clone(), SchS)));
        assert!(granted(&lm.request(2, t.clone(), X)));
        assert_eq!(blockers(&lm.request(3, t.clone(), SchM)), [1, 2]);
        // Sch-S of a NOLOCK reader waits behind Sch-M (A1).
        assert_eq!(blockers(&lm.request(4, t.clone(), SchS)), [3]);
        ok(&lm);
    }

    #[test]
    fn escalation_replaces_row_locks() {
        let mut lm = LockManager::new();
        let t = Resource::Object { table: 1 };
        lm.request(1, t.clone(), IX);
        for k in 0..10 {
            lm.request(1, key(k), X);
        }
        lm.request(
            1,
            Resource::Page {
                table: 1,
                index: 1,
                page: 0,
            },
            IX,
        );
        lm.request(
            1,
            Resource::Key {
                table: 2,
                index: 1,
                key: "0".into(),
            },
            X,
        );
        assert_eq!(lm.lock_count(1, 1), 11);
        lm.request(2, t.clone(), IS);
        assert_eq!(
            lm.try_escalate(1, 1),
            Escalation::Blocked { blockers: vec![2] }
        );
        lm.release(2, &t);
        assert_eq!(
            lm.try_escalate(1, 1),
            Escalation::Escalated {
                mode: X,
                released: 11,
                grants: vec![]
            }
        );
        assert_eq!(lm.locks_of(1).len(), 2);
        assert_eq!(lm.held(1, &t), Some((X, 1)));
        assert_eq!(lm.try_escalate(1, 1), Escalation::NotApplicable);
        assert_eq!(lm.try_escalate(3, 1), Escalation::NotApplicable);
        ok(&lm);
    }

    #[test]
    fn dropping_a_lock_while_converting_keeps_queue_order() {
        let mut lm = LockManager::new();
        lm.request(1, key(1), S);
        lm.request(2, key(1), S);
        lm.request(3, key(1), S);
        assert_eq!(blockers(&lm.request(1, key(1), X)), [2, 3]);
        assert_eq!(blockers(&lm.request(2, key(1), X)), [1, 3]);
        // Owner 1's S goes away under its pending conversion: it becomes a plain request.
        lm.release_all(1, |_| true);
        ok(&lm);
        let waits: Vec<(OwnerId, bool)> = lm
            .all_waits()
            .iter()
            .map(|w| (w.owner, w.conversion))
            .collect();
        assert_eq!(waits, [(2, true), (1, false)]);
    }

    #[test]
    fn listings_are_deterministic() {
        let mut a = LockManager::new();
        let mut b = LockManager::new();
        for lm in [&mut a, &mut b] {
            for o in [5, 1, 3] {
                lm.request(o, Resource::Object { table: 1 }, IX);
                lm.request(o, key(o * 10), X);
                lm.request(o, key(10), U);
            }
        }
        assert_eq!(a.all_locks(), b.all_locks());
        assert_eq!(a.all_waits(), b.all_waits());
        let holders: Vec<OwnerId> = a
            .holders(&Resource::Object { table: 1 })
            .iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(holders, [5, 1, 3]);
        assert_eq!(a.wait_for_edges(), [(1, 5), (3, 1), (3, 5)]);
        ok(&a);
    }

    /// A deterministic pseudo-random walk over every operation: the invariants hold after
    /// each step, nothing panics, and the walk really does wait, wake and deadlock.
    #[test]
    fn invariants_hold_under_a_scripted_storm() {
        let mut lm = LockManager::new();
        let (mut waits, mut wakeups, mut deadlocks, mut escalations) = (0, 0, 0, 0);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let owner = (x % 6) as OwnerId;
            let r = match (x >> 8) % 4 {
                0 => Resource::Object { table: 1 },
                1 => Resource::Page {
                    table: 1,
                    index: 1,
                    page: ((x >> 12) % 2) as u32,
                },
                2 => Resource::Application { name: "a".into() },
                _ => key(((x >> 12) % 3) as u32),
            };
            let mode = LockMode::ALL[((x >> 20) % 11) as usize];
            // A waiting session only times out; a running one locks, unlocks or commits.
            let op = if lm.waiting(owner).is_some() {
                8 + (x >> 28) % 4
            } else {
                (x >> 28) % 8
            };
            match op {
                0..=3 => {
                    if let Request::Waiting { .. } = lm.request(owner, r, mode) {
                        waits += 1;
                    }
                }
                4 => wakeups += lm.release(owner, &r).len(),
                5 => wakeups += lm.release_mode_if(owner, &r, mode).len(),
                6 => wakeups += lm.release_all(owner, |_| true).len(),
                7 => {
                    if let Escalation::Escalated { grants, .. } = lm.try_escalate(owner, 1) {
                        escalations += 1;
                        wakeups += grants.len();
                    }
                }
                8 => wakeups += lm.cancel_wait(owner).len(),
                _ => {}
            }
            // The deadlock monitor: the first owner of a cycle is the victim.
            if let Some(cycle) = lm.find_deadlock() {
                deadlocks += 1;
                wakeups += lm.cancel_wait(cycle[0]).len();
                wakeups += lm.release_all(cycle[0], |_| true).len();
            }
            ok(&lm);
        }
        assert!(
            waits > 100 && wakeups > 100 && deadlocks > 10 && escalations > 0,
            "{waits} {wakeups} {deadlocks} {escalations}"
        );
    }
}
