//! Tables, rows and their versions, indexes and the page counts the read model uses.
//!
//! A row keeps its committed history (for SNAPSHOT and READ_COMMITTED_SNAPSHOT readers)
//! and at most one uncommitted version: X locks guarantee a single writer per row.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::rc::Rc;

use sql::ast::{DataType, Expr, Len, Stmt};

use crate::state::heap::Heap;
use crate::state::index::{EntryKey, IndexEntries};
use crate::state::leaf::LeafPacking;
use crate::state::order::ClusteredOrder;
use crate::state::pages;
pub(crate) use crate::state::pages::RowId;
use crate::value::{int_text, sort_cmp, stored_len, Value};

pub type TxnId = u32;

#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
    pub ty: DataType,
    pub nullable: bool,
    pub default: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct Index {
    pub name: String,
    pub id: u32,
    pub unique: bool,
    /// It enforces a UNIQUE constraint (SQL Server reports a clash as 2627, not 2601).
    pub constraint: bool,
    /// Column positions and descending flags.
    pub columns: Vec<(usize, bool)>,
    pub include: Vec<usize>,
    pub filter: Option<Expr>,
    /// The filter's conjuncts in canonical text, matched against a query's predicate.
    pub filter_canon: Vec<String>,
    /// The filter as `column = value` pairs when it is that simple (the fast path).
    pub filter_eq: Option<Vec<(usize, Value)>>,
}

/// A CHECK constraint: a row it finds false (not unknown) is refused.
#[derive(Clone, Debug)]
pub struct Check {
    pub name: String,
    /// The column of a column-level constraint (SQL Server's message names it).
    pub column: Option<String>,
    pub expr: std::rc::Rc<Expr>,
}

/// A row a statement wrote: its data before (None: inserted) and after (None: deleted).
pub type Written = (Option<Vec<Value>>, Option<Vec<Value>>);

/// A foreign key of the table that holds it (the referencing table).
#[derive(Clone, Debug)]
pub struct ForeignKey {
    pub name: String,
    /// The referencing columns, in this table.
    pub columns: Vec<usize>,
    /// The referenced table and its columns (a primary key or unique constraint's).
    pub parent: u32,
    pub parent_columns: Vec<usize>,
    pub on_delete: sql::ast::RefAction,
    pub on_update: sql::ast::RefAction,
}

#[derive(Clone, Debug)]
pub struct Trigger {
    pub name: String,
    pub events: Vec<sql::ast::DmlEvent>,
    pub instead_of: bool,
    pub body: std::rc::Rc<Vec<Stmt>>,
    pub enabled: bool,
}

/// One version of a row's data; `None` means deleted.
pub type RowData = Option<Vec<Value>>;

#[derive(Clone, Debug, Default)]
pub struct RowSlot {
    /// Committed versions, oldest first, each with the commit sequence number that made it.
    pub committed: Vec<(u64, RowData)>,
    /// The uncommitted version and the transaction that wrote it.
    pub pending: Option<(TxnId, RowData)>,
    /// In a heap table (`Table::heap`): where each committed version sits on the heap,
    /// parallel to `committed` (a version with data; a delete keeps its row's place).
    /// Empty in other tables.
    pub heap_pos: Vec<u64>,
    /// In a heap table: where the uncommitted version sits.
    pub pending_pos: u64,
    /// The uncommitted version is an update that counts as a key update though it kept
    /// the key: its transaction had locked the row FOR UPDATE (the server keeps the
    /// stronger lock's mode on the version it replaces).
    pub pending_key_update: bool,
    /// Commit sequence numbers of such versions (a KEY SHARE lock does not pass them).
    pub key_updates: Vec<u64>,
}

impl RowSlot {
    /// The newest data, committed or not: what locking readers see once they hold a lock.
    pub fn latest(&self) -> Option<&Vec<Value>> {
        match &self.pending {
            Some((_, data)) => data.as_ref(),
            None => self.committed.last().and_then(|(_, d)| d.as_ref()),
        }
    }

    pub fn latest_committed(&self) -> Option<&Vec<Value>> {
        self.committed.last().and_then(|(_, d)| d.as_ref())
    }

    /// What a versioned reader with snapshot `seq` sees (its own writes included).
    pub fn visible_at(&self, seq: u64, own: Option<TxnId>) -> Option<&Vec<Value>> {
        if let (Some((txn, data)), Some(me)) = (&self.pending, own) {
            if *txn == me {
                return data.as_ref();
            }
        }
        self.committed
            .iter()
            .rev()
            .find(|(s, _)| *s <= seq)
            .and_then(|(_, d)| d.as_ref())
    }

    /// Which committed version a snapshot at `seq` sees, when it holds data (not a
    /// delete): its position in `committed`.
    pub fn seen_at(&self, seq: u64) -> Option<usize> {
        (self.committed.iter())
            .rposition(|(s, _)| *s <= seq)
            .filter(|k| self.committed[*k].1.is_some())
    }

    /// Where the version a reader meets sits on the heap (a heap table's sequential scan
    /// meets rows in this order): its own uncommitted version, else the committed version
    /// its snapshot `seq` sees (a locking read's: its statement's). Another
    /// transaction's uncommitted version is not where a scan meets the row: it meets the
    /// version before it, and waits there.
    pub fn heap_position(&self, seq: u64, own: Option<TxnId>) -> u64 {
        if let (Some((txn, Some(_))), Some(me)) = (&self.pending, own) {
            if *txn == me {
                return self.pending_pos;
            }
        }
        (self.seen_at(seq).and_then(|k| self.heap_pos.get(k)))
            .or(self.heap_pos.last())
            .copied()
            .unwrap_or(self.pending_pos)
    }

    /// Whether a version newer than `seq` was committed (SNAPSHOT update conflicts).
    pub fn changed_since(&self, seq: u64) -> bool {
        self.committed.last().is_some_and(|(s, _)| *s > seq)
    }
}

#[derive(Clone, Debug)]
pub struct Table {
    /// Shared with the events that name the table.
    pub name: Rc<str>,
    /// Shared: statements take the column list for every row they write.
    pub columns: Rc<[Column]>,
    /// The columns' names, shared with the scopes of queries that read the table.
    pub column_names: Rc<[String]>,
    /// Each column's type in the page model and what a row's size needs, made once.
    shape: Rc<RowShape>,
    /// Clustered key column positions (the primary key); empty for a heap (RID order).
    pub key: Vec<usize>,
    /// All-ascending flags for `key_of`'s keys, made once (one flag for a heap's rid).
    ascending: Rc<[bool]>,
    pub pk_name: Option<String>,
    pub identity: Option<Identity>,
    /// Each slot shared between clones of a simulation until one of them writes it.
    pub slots: Vec<Rc<RowSlot>>,
    /// Clustered order: key values → slot.
    pub order: ClusteredOrder<OrdKey>,
    /// The clustered key each slot was filed under in `order` (its row locator).
    locators: Vec<Rc<[Value]>>,
    /// Each slot's key text (`key_text`), kept as its data changes (None: no data yet).
    key_texts: Vec<Option<Rc<str>>>,
    /// Slots changed since the index entries were last brought up to date, and a mark
    /// per slot so each is listed once: entries are filed when an index is read, so a
    /// setup that inserts and then updates thousands of rows files each row once.
    unfiled: Vec<RowId>,
    is_unfiled: Vec<bool>,
    /// Nonclustered indexes; change them with `add_index` and `drop_index`.
    pub indexes: Vec<Index>,
    /// The entries of each index in `indexes`, at the same position.
    entries: Vec<IndexEntries>,
    pub triggers: Vec<Trigger>,
    /// Shared: every row written to the table is checked against them.
    pub checks: Rc<[Check]>,
    /// This table's foreign keys; shared, as `checks`.
    pub foreign_keys: Rc<[ForeignKey]>,
    /// Some table's foreign key references this one (its deletes and key changes are
    /// checked).
    pub referenced: bool,
    /// NULL sorts after every value in this table's indexes (the dialect's order).
    pub nulls_high: bool,
    /// True for table variables (no locks, no versions needed).
    pub is_variable: bool,
    /// A queue table: its first column is the queue insertion timestamp.
    pub queue: bool,
    /// Columns whose value's hash places a row and names its lock (a row-hash lock, not
    /// a key lock); empty for tables placed by their clustered key.
    pub hash_key: Vec<usize>,
    /// Stored size of each slot's newest data (None: to be computed), so re-packing
    /// pages after a write is an integer loop.
    sizes: Vec<Option<u32>>,
    /// Slots whose size was forgotten since the last packing.
    resized: Vec<RowId>,
    /// The packing must start over (rows cleared, a row filed before others).
    repack_all: bool,
    leaf: LeafPacking,
    /// The most entries each nonclustered index (by id) ever held: a B-tree keeps its
    /// levels when rows leave it, so depth follows the high-water mark.
    pub index_high_water: BTreeMap<u32, u32>,
    /// Entries each nonclustered index holds now (by the newest data of each row).
    pub index_entries: BTreeMap<u32, u32>,
    /// The heap of row versions, for a dialect that stores tables so (the pages a scan
    /// reads); None: the clustered index's leaf pages are the table's pages.
    pub heap: Option<Heap>,
    /// Where an update that changed a row's clustered key moved it: old slot → new slot
    /// (kept whether or not that update committed; see [`Table::moved_to`]).
    moves: BTreeMap<RowId, RowId>,
}

#[derive(Clone, Debug)]
pub struct Identity {
    pub column: usize,
    /// The first value (and the one TRUNCATE starts again from, where it does).
    pub seed: i64,
    pub next: i64,
    pub increment: i64,
    /// GENERATED ALWAYS: no value may be given or set, where identities are otherwise
    /// defaults (`Rules::identity_is_default`).
    pub always: bool,
}

/// A key that sorts like SQL Server sorts index keys (NULL first, collation for text).
#[derive(Clone, Debug)]
pub struct OrdKey(pub Rc<[Value]>, pub Rc<[bool]>);

/// The end-of-index key's text in the trace (`KEY task (end of index)`): the range past
/// a clustered index's last key.
pub const END_OF_INDEX: &str = "end of index";
/// What a key range's text begins with, before the key that ends it (`KEY task (range
/// below 5)`).
pub const RANGE_BELOW: &str = "range below ";

impl PartialEq for OrdKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for OrdKey {}
impl PartialOrd for OrdKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrdKey {
    // Inlined into the B-tree's search: a clustered insert compares keys dozens of times.
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // One integer column (an identity key, a heap's rid): the common case, directly.
        if let ([Value::Int(a)], [Value::Int(b)]) = (&*self.0, &*other.0) {
            let o = a.cmp(b);
            return if self.1.first().copied().unwrap_or(false) {
                o.reverse()
            } else {
                o
            };
        }
        for (i, (a, b)) in self.0.iter().zip(other.0.iter()).enumerate() {
            let mut o = sort_cmp(a, b);
            if self.1.get(i).copied().unwrap_or(false) {
                o = o.reverse();
            }
            if o != Ordering::Equal {
                return o;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

impl Table {
    /// Whether column `c` is part of a key [`Self::changes_key`] watches.
    pub fn is_key_column(&self, c: usize) -> bool {
        self.key.contains(&c)
            || self
                .indexes
                .iter()
                .filter(|ix| ix.unique && ix.filter.is_none())
                .any(|ix| ix.columns.iter().any(|&(p, _)| p == c))
    }

    /// Whether `new` changes a key of `old`: a clustered key column or a column of a
    /// unique index without a filter.
    pub fn changes_key(&self, old: &[Value], new: &[Value]) -> bool {
        let differs = |p: usize| old.get(p) != new.get(p);
        self.key.iter().any(|&p| differs(p))
            || self
                .indexes
                .iter()
                .filter(|ix| ix.unique && ix.filter.is_none())
                .any(|ix| ix.columns.iter().any(|&(p, _)| differs(p)))
    }

    /// Whether every version of `slot` committed after snapshot `seq` is an update that
    /// kept the key of the version before it (none deleted the row, none changed a key,
    /// none counts as a key update: `RowSlot::key_updates`).
    pub fn keys_kept_since(&self, slot: RowId, seq: u64) -> bool {
        let s = &self.slots[slot];
        let committed = &s.committed;
        let Some(seen) = committed.iter().rposition(|(s, _)| *s <= seq) else {
            return false;
        };
        committed[seen..]
            .windows(2)
            .all(|w| match (&w[0].1, &w[1].1) {
                (Some(old), Some(new)) => {
                    !self.changes_key(old, new) && !s.key_updates.contains(&w[1].0)
                }
                _ => false,
            })
    }

    /// Whether a row is in filtered index `ix` (every row is in an unfiltered one).
    pub(crate) fn filter_passes(&self, ix: &Index, row: &[Value]) -> bool {
        super::filter::filter_passes(
            &|name| self.column(name),
            ix.filter_eq.as_deref(),
            ix.filter.as_ref(),
            row,
        )
    }

    /// The row hash of a row: the hash of its hash-key value (every row with the same
    /// value shares it, and its lock). Without a hash key, the first column's value.
    pub fn row_hash(&self, row: &[Value]) -> u32 {
        let first = [0];
        let cols: &[usize] = if self.hash_key.is_empty() {
            &first
        } else {
            &self.hash_key
        };
        // FNV-1a over the text of the values: stable across runs and platforms.
        let mut h: u32 = 0x811c_9dc5;
        for &c in cols {
            for b in row[c].to_string().bytes().chain([0]) {
                h ^= b as u32;
                h = h.wrapping_mul(0x0100_0193);
            }
        }
        h
    }

    pub fn new(name: String, columns: Vec<Column>, key: Vec<usize>, is_variable: bool) -> Table {
        Table {
            name: name.into(),
            column_names: columns.iter().map(|c| c.name.clone()).collect(),
            shape: Rc::new(RowShape::new(&columns)),
            columns: columns.into(),
            ascending: vec![false; key.len().max(1)].into(),
            key,
            pk_name: None,
            identity: None,
            slots: Vec::new(),
            order: ClusteredOrder::default(),
            locators: Vec::new(),
            key_texts: Vec::new(),
            unfiled: Vec::new(),
            is_unfiled: Vec::new(),
            indexes: Vec::new(),
            entries: Vec::new(),
            triggers: Vec::new(),
            checks: Rc::from(Vec::new()),
            foreign_keys: Rc::from(Vec::new()),
            referenced: false,
            nulls_high: false,
            is_variable,
            queue: false,
            hash_key: Vec::new(),
            sizes: Vec::new(),
            resized: Vec::new(),
            repack_all: false,
            leaf: LeafPacking::default(),
            index_high_water: BTreeMap::new(),
            index_entries: BTreeMap::new(),
            heap: None,
            moves: BTreeMap::new(),
        }
    }

    /// Records that an update moved the row in `from` to `to` (its key changed).
    pub fn record_move(&mut self, from: RowId, to: RowId) {
        self.moves.insert(from, to);
    }

    /// Whether an update ever moved a row of this table to a new key (in a dialect that
    /// records moves).
    pub fn has_moves(&self) -> bool {
        !self.moves.is_empty()
    }

    /// The slot holding the newest version of the row in `slot`, when the version of
    /// `slot` that counts is a committed move: the update that deleted it committed the
    /// row's data in the other slot at the same commit.
    pub fn moved_to(&self, slot: RowId) -> Option<RowId> {
        let to = *self.moves.get(&slot)?;
        let from = &self.slots[slot];
        let (seq, None) = from.committed.last()? else {
            return None;
        };
        if from.pending.is_some() {
            return None;
        }
        (self.slots.get(to)?.committed.iter())
            .any(|(s, d)| s == seq && d.is_some())
            .then_some(to)
    }

    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The clustered key of a row (a heap uses the slot number as its RID).
    pub fn key_of(&self, row: &[Value], slot: RowId) -> OrdKey {
        if self.key.is_empty() {
            OrdKey(
                Rc::new([Value::Int(slot as i64)]),
                Rc::clone(&self.ascending),
            )
        } else {
            OrdKey(
                self.key.iter().map(|&c| row[c].clone()).collect(),
                Rc::clone(&self.ascending),
            )
        }
    }

    /// A short text of the key for lock resources and traces: `42` or `1,'a'`.
    pub fn key_text(&self, slot: RowId) -> String {
        self.key_rc(slot).to_string()
    }

    /// The key text shared, for lock resources.
    pub fn key_rc(&self, slot: RowId) -> Rc<str> {
        match &self.key_texts[slot] {
            Some(text) => text.clone(),
            None => self.key_text_of(None, slot),
        }
    }

    /// The key text of `row` (None: no data) in `slot`.
    pub fn key_text_of(&self, row: Option<&[Value]>, slot: RowId) -> Rc<str> {
        match row {
            Some(row) if self.key.len() == 1 => match &row[self.key[0]] {
                // Integer keys without the formatting machinery (one per row written).
                Value::Int(n) => int_text(*n),
                v => v.to_string().into(),
            },
            Some(row) if !self.key.is_empty() => self
                .key
                .iter()
                .map(|&c| row[c].to_string())
                .collect::<Vec<_>>()
                .join(",")
                .into(),
            _ => format!("rid {slot}").into(),
        }
    }

    /// The text of the key range a clustered key falls in (no row need have it): SQL
    /// Server's key-range locks sit on the next key in the index, and past the last key
    /// on the end of the index. A SERIALIZABLE reader that finds no row locks it, and an
    /// INSERT into it tests it.
    pub fn range_text(&self, key: &OrdKey) -> Rc<str> {
        match self.order.next_after(key) {
            Some(slot) => self.range_below(slot),
            None => Rc::from(END_OF_INDEX),
        }
    }

    /// The text of the key range that ends at a slot's key: the range part of the
    /// key-range lock a SERIALIZABLE reader takes on each key it reads, which an INSERT
    /// of a key below it (and above the previous key) tests.
    pub fn range_below(&self, slot: RowId) -> Rc<str> {
        format!("{RANGE_BELOW}{}", self.key_rc(slot)).into()
    }

    /// Keeps a slot's key text after its newest or committed data changed.
    fn rekey(&mut self, slot: RowId) {
        let s = &self.slots[slot];
        let row = s.latest().or_else(|| s.latest_committed());
        self.key_texts[slot] = Some(self.key_text_of(row.map(Vec::as_slice), slot));
    }

    /// Slots in clustered order.
    pub fn clustered_order(&self) -> impl Iterator<Item = RowId> + '_ {
        self.order.slots()
    }

    pub fn insert_slot(&mut self, txn: TxnId, row: Vec<Value>) -> RowId {
        let slot = self.new_slot(&row);
        self.set_pending(slot, Some((txn, Some(row))));
        slot
    }

    /// Files a slot without data under the clustered key of `row` (its data comes with
    /// the next write).
    pub fn new_slot(&mut self, row: &[Value]) -> RowId {
        let key = self.key_of(row, self.slots.len());
        self.new_slot_keyed(key)
    }

    /// [`Self::new_slot`] with the row's clustered key already made (`key_of` with the
    /// next slot), as an INSERT makes it to look for a duplicate.
    pub fn new_slot_keyed(&mut self, key: OrdKey) -> RowId {
        let slot = self.slots.len();
        self.slots.push(Rc::default());
        self.locators.push(key.0.clone());
        self.key_texts.push(None);
        self.is_unfiled.push(false);
        if self.order.insert(key, slot) {
            self.leaf.append(slot);
        } else {
            self.repack_all = true;
        }
        self.sizes.push(None);
        self.resized.push(slot);
        slot
    }

    /// Empties the table (TRUNCATE, DROP), keeping indexes and counters.
    pub fn clear_rows(&mut self) {
        self.slots.clear();
        self.moves.clear();
        self.order.clear();
        self.locators.clear();
        self.key_texts.clear();
        self.unfiled.clear();
        self.is_unfiled.clear();
        self.entries.iter_mut().for_each(IndexEntries::clear);
        if let Some(heap) = &mut self.heap {
            heap.clear();
        }
        self.touch();
    }

    /// A version of `bytes` goes on the heap (an INSERT or an UPDATE; rolled back or
    /// not); returns its place in a sequential scan's order.
    pub fn heap_write(&mut self, bytes: u32) -> Option<u64> {
        self.heap.as_mut().map(|heap| heap.write(bytes))
    }

    /// VACUUM: the space of versions no longer live can take new ones. Live: each row's
    /// newest committed version and its uncommitted one, sized by `bytes`.
    pub fn vacuum(&mut self, bytes: impl Fn(&[Column], &[Value]) -> u32) {
        let Some(mut heap) = self.heap.take() else {
            return;
        };
        let live: u64 = self
            .slots
            .iter()
            .flat_map(|s| {
                let pending = s.pending.as_ref().and_then(|(_, row)| row.as_ref());
                s.latest_committed().into_iter().chain(pending)
            })
            .map(|row| u64::from(bytes(&self.columns, row)))
            .sum();
        heap.vacuum(live);
        self.heap = Some(heap);
    }

    /// Adds a nonclustered index with the entries of the rows there now.
    pub fn add_index(&mut self, ix: Index) {
        self.file_entries();
        self.indexes.push(ix);
        self.entries.push(IndexEntries::default());
        let k = self.indexes.len() - 1;
        for slot in 0..self.slots.len() {
            let key = self.entry_key(k, slot);
            self.entries[k].set(slot, key);
        }
        // Built over the rows there now: its entry count (by the newest data, as writes
        // keep it) and its size so far start from them, not from nothing.
        let ix = &self.indexes[k];
        let count = (self.slots.iter())
            .filter(|s| s.latest().is_some_and(|r| self.filter_passes(ix, r)))
            .count() as u32;
        self.index_entries.insert(ix.id, count);
        self.index_high_water.insert(ix.id, count);
    }

    /// Drops the nonclustered indexes called `name`; false when there is none.
    pub fn drop_index(&mut self, name: &str) -> bool {
        let before = self.indexes.len();
        let mut k = 0;
        while k < self.indexes.len() {
            if self.indexes[k].name.eq_ignore_ascii_case(name) {
                self.indexes.remove(k);
                self.entries.remove(k);
            } else {
                k += 1;
            }
        }
        before != self.indexes.len()
    }

    /// The entries of index `k` (a position in `indexes`), filed by `file_entries`.
    pub fn entries(&self, k: usize) -> &IndexEntries {
        debug_assert!(self.unfiled.is_empty(), "index entries read before filing");
        &self.entries[k]
    }

    /// Files the rows changed since the last call in every index.
    pub fn file_entries(&mut self) {
        // The list is kept (emptied) so the next writes reuse its buffer.
        let unfiled = std::mem::take(&mut self.unfiled);
        for &slot in &unfiled {
            self.is_unfiled[slot] = false;
            for k in 0..self.indexes.len() {
                let key = self.entry_key(k, slot);
                self.entries[k].set(slot, key);
            }
        }
        self.unfiled = unfiled;
        self.unfiled.clear();
    }

    /// Where `slot` sits in index `k`, as locking readers see it: by its newest data when
    /// that passes the filter, else by its committed data when an uncommitted change moved
    /// it out of the filter; None when neither passes.
    fn entry_key(&self, k: usize, slot: RowId) -> Option<EntryKey> {
        let ix = &self.indexes[k];
        let s = &self.slots[slot];
        let passes = |r: &&Vec<Value>| self.filter_passes(ix, r);
        let row = s.latest().filter(passes).or_else(|| {
            s.pending
                .as_ref()
                .and_then(|_| s.latest_committed())
                .filter(passes)
        })?;
        let mut values = Vec::with_capacity(ix.columns.len() + self.locators[slot].len());
        let mut desc = 0u64;
        for (n, &(c, d)) in ix.columns.iter().enumerate() {
            values.push(row[c].clone());
            if d && n < 63 {
                desc |= 1 << n;
            }
        }
        if self.nulls_high {
            desc |= crate::state::index::NULLS_HIGH;
        }
        values.extend(self.locators[slot].iter().cloned());
        Some(EntryKey::new(values, desc))
    }

    /// Lists `slot` to be filed again in every index after its data changed.
    fn reindex(&mut self, slot: RowId) {
        if !self.indexes.is_empty() && !self.is_unfiled[slot] {
            self.is_unfiled[slot] = true;
            self.unfiled.push(slot);
        }
    }

    /// Replaces a row's uncommitted version (a write, or its undo), keeping the index
    /// entries, their counts and the page sizes; returns the version it replaced.
    pub fn set_pending(
        &mut self,
        slot: RowId,
        pending: Option<(TxnId, RowData)>,
    ) -> Option<(TxnId, RowData)> {
        let prev = std::mem::replace(&mut self.slot_mut(slot).pending, pending);
        let s = &self.slots[slot];
        let old = match &prev {
            Some((_, data)) => data.as_deref(),
            None => s.latest_committed().map(Vec::as_slice),
        };
        // The key text follows the newest data, else the committed data: unchanged when
        // the row it was made from and the row now have the same key values.
        let keyed_from = old.or_else(|| s.latest_committed().map(Vec::as_slice));
        let keyed_now = s.latest().or_else(|| s.latest_committed());
        // (Table variables change committed rows in place, so they always key again.)
        let same_key = !self.is_variable
            && self.key_texts[slot].is_some()
            && match (keyed_from, keyed_now) {
                (Some(a), Some(b)) => self.key.iter().all(|&c| identical(&a[c], &b[c])),
                _ => false,
            };
        // Each index's entry count (by the newest data) and high-water mark, counted in
        // place (one write changes one row in one or two indexes).
        if !self.is_variable {
            let new = s.latest().map(Vec::as_slice);
            for k in 0..self.indexes.len() {
                let ix = &self.indexes[k];
                let was = old.is_some_and(|r| self.filter_passes(ix, r)) as i64;
                let is = new.is_some_and(|r| self.filter_passes(ix, r)) as i64;
                if was != is {
                    let id = ix.id;
                    let entries = self.index_entries.entry(id).or_insert(0);
                    *entries = (*entries as i64 + is - was).max(0) as u32;
                    let now = *entries;
                    let high = self.index_high_water.entry(id).or_insert(0);
                    *high = (*high).max(now);
                }
            }
        }
        self.reindex(slot);
        if !same_key {
            self.rekey(slot);
        }
        // A row written with data is sized now, while it is at hand: sizing it when the
        // pages are next counted would fetch it from memory again (a setup that writes
        // 20 000 rows, then a claim that counts pages). Its commit keeps that data, so
        // the size holds; other versions (a delete, an undo) are sized when next counted.
        let sized = match &self.slots[slot].pending {
            Some((_, Some(row))) => Some(self.shape.size(&self.columns, row)),
            _ => None,
        };
        match (sized, self.sizes.get_mut(slot)) {
            (Some(size), Some(known)) => {
                if *known != Some(size) {
                    *known = Some(size);
                    self.resized.push(slot);
                }
            }
            _ => self.touch_slot(slot),
        }
        prev
    }

    /// A slot to change (copied first if a clone of the simulation shares it).
    pub fn slot_mut(&mut self, slot: RowId) -> &mut RowSlot {
        Rc::make_mut(&mut self.slots[slot])
    }

    /// Makes a row's uncommitted version its newest committed one (commit sequence `seq`).
    /// Returns None when the row had no uncommitted version, else whether the committed
    /// version is a row that had none before (an insert).
    pub fn commit_slot(&mut self, slot: RowId, seq: u64) -> Option<bool> {
        let s = Rc::make_mut(self.slots.get_mut(slot)?);
        let (_, data) = s.pending.take()?;
        let inserted = data.is_some() && s.latest_committed().is_none();
        // A committed row keeps the key text its uncommitted version was given; only a
        // committed delete changes it (to the rid text).
        let deleted = data.is_none();
        if self.heap.is_some() {
            // A delete leaves the row's last version where it was.
            let pos = match &data {
                Some(_) => s.pending_pos,
                None => s.heap_pos.last().copied().unwrap_or(s.pending_pos),
            };
            s.heap_pos.push(pos);
        }
        s.committed.push((seq, data));
        if std::mem::take(&mut s.pending_key_update) {
            s.key_updates.push(seq);
        }
        // Old versions are kept only while a snapshot could need them.
        if s.committed.len() > 16 {
            s.committed.remove(0);
            if !s.heap_pos.is_empty() {
                s.heap_pos.remove(0);
            }
            let oldest = s.committed[0].0;
            s.key_updates.retain(|&k| k > oldest);
        }
        self.reindex(slot);
        if deleted {
            self.rekey(slot);
        }
        Some(inserted)
    }

    pub fn find_key(&self, key: &OrdKey) -> Option<RowId> {
        // A key past the last one (an identity insert) is not there: no search.
        match self.order.last() {
            Some((last, _)) if *last < *key => None,
            _ => self.order.get(key),
        }
    }

    /// Forgets the page count after rows were cleared or dropped.
    pub fn touch(&mut self) {
        self.sizes.iter_mut().for_each(|s| *s = None);
        self.sizes.resize(self.slots.len(), None);
        self.repack_all = true;
    }

    /// Forgets one row's size after a write.
    pub fn touch_slot(&mut self, slot: RowId) {
        if let Some(s) = self.sizes.get_mut(slot) {
            *s = None;
            self.resized.push(slot);
        }
    }

    /// What sizing a row needs (shared: every packing needs it).
    fn row_shape(&self) -> Rc<RowShape> {
        Rc::clone(&self.shape)
    }

    /// Leaf pages of the clustered index (or heap), packing rows by their stored size.
    pub fn leaf_pages(&mut self) -> u32 {
        if self.repack_all {
            self.repack_all = false;
            self.resized.clear();
            let shape = self.row_shape();
            self.sizes.resize(self.slots.len(), None);
            let sizes: Vec<u32> = (0..self.slots.len())
                .map(|slot| self.size_of(&shape, slot))
                .collect();
            self.leaf.rebuild(self.order.slots(), &sizes);
        } else if !self.resized.is_empty() {
            let shape = self.row_shape();
            let resized = std::mem::take(&mut self.resized);
            for &slot in &resized {
                let size = self.size_of(&shape, slot);
                self.leaf.set_size(slot, size);
            }
            self.resized = resized;
            self.resized.clear();
        }
        self.leaf.pages().max(1)
    }

    /// A slot's stored size (0: no data), computed from its data when it was forgotten.
    fn size_of(&mut self, shape: &RowShape, slot: RowId) -> u32 {
        if let Some(size) = self.sizes[slot] {
            return size;
        }
        let s = &self.slots[slot];
        let size = s
            .latest()
            .or_else(|| s.latest_committed())
            .map_or(0, |row| shape.size(&self.columns, row));
        self.sizes[slot] = Some(size);
        size
    }

    /// Bytes a row takes on its data page.
    pub fn stored_size(&self, row: &[Value]) -> u32 {
        self.shape.size(&self.columns, row)
    }

    /// Depth of the clustered index (1 when the root is the only page).
    pub fn clustered_depth(&mut self) -> u32 {
        let leaf = self.leaf_pages();
        let key_bytes: u32 = if self.key.is_empty() {
            8
        } else {
            self.key
                .iter()
                .map(|&c| fixed_key_bytes(&self.columns[c].ty))
                .sum()
        };
        pages::btree_depth(leaf, key_bytes + 1 + 6)
    }

    /// Leaf pages and depth of a nonclustered index holding `entries` rows.
    pub fn index_shape(&self, index: &Index, entries: u32) -> (u32, u32) {
        let key_bytes: u32 = index
            .columns
            .iter()
            .map(|&(c, _)| fixed_key_bytes(&self.columns[c].ty))
            .chain(
                index
                    .include
                    .iter()
                    .map(|&c| fixed_key_bytes(&self.columns[c].ty)),
            )
            .sum();
        // A nonclustered leaf row carries the clustered key as its row locator.
        let locator: u32 = if self.key.is_empty() {
            8
        } else {
            self.key
                .iter()
                .filter(|&&k| !index.columns.iter().any(|&(c, _)| c == k))
                .map(|&c| fixed_key_bytes(&self.columns[c].ty))
                .sum()
        };
        let leaf_row = key_bytes + locator + 1 + 3;
        // Equal-sized entries: pages are a division, not a packing.
        let leaf = entries
            .div_ceil(pages::rows_per_page(leaf_row).max(1))
            .max(1);
        (leaf, pages::btree_depth(leaf, key_bytes + locator + 1 + 6))
    }
}

fn fixed_key_bytes(ty: &DataType) -> u32 {
    match ty {
        DataType::TinyInt | DataType::ByteInt | DataType::Bit | DataType::Boolean => 1,
        DataType::SmallInt => 2,
        DataType::Int => 4,
        DataType::BigInt | DataType::Float | DataType::Money | DataType::DateTime => 8,
        DataType::Decimal { precision, .. } => match precision {
            0..=9 => 5,
            10..=19 => 9,
            20..=28 => 13,
            _ => 17,
        },
        DataType::DateTime2(p)
        | DataType::Time(p)
        | DataType::Timestamp(p)
        | DataType::TimestampTz(p) => match p {
            0..=2 => 6,
            3..=4 => 7,
            _ => 8,
        },
        DataType::Date => 3,
        DataType::UniqueIdentifier => 16,
        // Variable keys: a typical short value plus the 2-byte offset.
        DataType::Char(n) | DataType::NChar(n) => *n,
        DataType::VarChar(_) | DataType::NVarChar(_) | DataType::SysName => 12,
    }
}

pub fn col_type(ty: &DataType) -> pages::ColType {
    use pages::ColType as C;
    match ty {
        DataType::TinyInt | DataType::ByteInt => C::TinyInt,
        DataType::SmallInt => C::SmallInt,
        DataType::Int => C::Int,
        DataType::BigInt => C::BigInt,
        DataType::Bit | DataType::Boolean => C::Bit,
        DataType::Decimal { precision, scale } => C::Decimal {
            p: *precision,
            s: *scale,
        },
        DataType::Float => C::Float(53),
        DataType::Money => C::Money,
        DataType::Char(n) => C::Char(*n),
        DataType::NChar(n) => C::NChar(*n),
        DataType::VarChar(Len::N(n)) => C::VarChar(*n),
        DataType::VarChar(Len::Max) => C::VarCharMax,
        DataType::NVarChar(Len::N(n)) => C::NVarChar(*n),
        DataType::NVarChar(Len::Max) => C::NVarCharMax,
        DataType::SysName => C::NVarChar(128),
        DataType::DateTime => C::DateTime,
        DataType::DateTime2(p) | DataType::Timestamp(p) | DataType::TimestampTz(p) => {
            C::DateTime2(*p)
        }
        DataType::Date => C::Date,
        DataType::Time(p) => C::Time(*p),
        DataType::UniqueIdentifier => C::UniqueIdentifier,
    }
}

/// A table's columns as the page model sizes its rows: each column's type, and the part
/// of a row's size that does not depend on its values, made once per table.
#[derive(Debug)]
struct RowShape {
    types: Box<[pages::ColType]>,
    /// Fixed-length data, null bitmap and row header.
    fixed: u32,
    /// The variable-length columns, each with whether its stored length counts.
    var: Box<[(usize, bool)]>,
}

impl RowShape {
    fn new(columns: &[Column]) -> RowShape {
        let types: Box<[pages::ColType]> = columns.iter().map(|c| col_type(&c.ty)).collect();
        let fixed = pages::fixed_data_size(types.iter().copied().filter(|t| !t.is_variable()))
            .saturating_add(pages::null_bitmap_size(
                u32::try_from(types.len()).unwrap_or(u32::MAX),
            ))
            .saturating_add(pages::DATA_ROW_HEADER_BYTES);
        let var = types
            .iter()
            .zip(columns)
            .enumerate()
            .filter(|(_, (t, _))| t.is_variable())
            .map(|(i, (_, c))| (i, counts_stored_len(&c.ty)))
            .collect();
        RowShape { types, fixed, var }
    }

    /// A row's stored size: `pages::row_size`, with its fixed part made once (every
    /// write sizes its row, and a setup writes tens of thousands).
    fn size(&self, columns: &[Column], row: &[Value]) -> u32 {
        let mut stored = 0u32;
        for &(c, counted) in &*self.var {
            if counted {
                stored = stored.saturating_add(stored_len(&row[c], &columns[c].ty));
            }
        }
        let n = u32::try_from(self.var.len()).unwrap_or(u32::MAX);
        let var_size = if n == 0 {
            0
        } else {
            n.saturating_mul(2).saturating_add(2).saturating_add(stored)
        };
        let size = self.fixed.saturating_add(var_size);
        if size <= pages::MAX_IN_ROW_BYTES {
            return size;
        }
        // Over a page's row limit: columns move off-row, which the full model works out.
        let cols: Vec<_> = self
            .types
            .iter()
            .zip(columns)
            .zip(row)
            .map(|((t, c), v)| (*t, counts_stored_len(&c.ty).then(|| stored_len(v, &c.ty))))
            .collect();
        pages::row_size(&cols)
    }
}

/// Whether a column's stored length is counted in its row's size (the other variable
/// columns count as empty).
fn counts_stored_len(ty: &DataType) -> bool {
    matches!(
        ty,
        DataType::VarChar(_) | DataType::NVarChar(_) | DataType::SysName
    )
}

/// The database's tables. Each is shared between clones of a simulation until one of
/// them changes it (copy on write: `IndexMut` and `get_mut` copy a shared table), so a
/// clone costs a pointer per table and a write copies row pointers, not rows.
#[derive(Clone, Default)]
pub(crate) struct Tables(Vec<Rc<Table>>);

impl Tables {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn push(&mut self, t: Table) {
        self.0.push(Rc::new(t));
    }

    pub fn get(&self, i: usize) -> Option<&Table> {
        self.0.get(i).map(|t| &**t)
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut Table> {
        self.0.get_mut(i).map(Rc::make_mut)
    }

    /// Table `i` as it is now, shared: what TRUNCATE and DROP keep for a rollback.
    pub fn snapshot(&self, i: usize) -> Rc<Table> {
        Rc::clone(&self.0[i])
    }

    /// Puts back a table kept by [`Self::snapshot`].
    pub fn restore(&mut self, i: usize, t: Rc<Table>) {
        self.0[i] = t;
    }

    pub fn iter(&self) -> impl Iterator<Item = &Table> {
        self.0.iter().map(|t| &**t)
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Table> {
        self.0.iter_mut().map(Rc::make_mut)
    }
}

impl std::ops::Index<usize> for Tables {
    type Output = Table;

    fn index(&self, i: usize) -> &Table {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for Tables {
    fn index_mut(&mut self, i: usize) -> &mut Table {
        Rc::make_mut(&mut self.0[i])
    }
}

/// Whether two values are the same value of the same kind (so print the same): stricter
/// than SQL equality, which ignores case and compares across kinds.
pub(crate) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Decimal(x), Value::Decimal(y)) => x.to_bits() == y.to_bits(),
        (Value::Text(x), Value::Text(y)) => x == y,
        (Value::DateTime(x, _), Value::DateTime(y, _)) => x == y,
        _ => false,
    }
}
