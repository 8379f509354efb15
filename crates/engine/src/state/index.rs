//! The entries of each nonclustered index, kept in index order as rows change, so a scan
//! through an index reads its first entries without visiting (or sorting) the table.
//!
//! They are the entries a locking reader sees: a row is in the index when its newest data
//! passes the filter, or when its committed data does and an uncommitted change moves it
//! out (the entry stays, locked, until the change commits). Versioned readers see the index
//! as of their snapshot and take the slow path in `exec/query.rs`.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::rc::Rc;

use crate::state::pages::RowId;
use crate::value::{sort_cmp_nulls, Value};

/// An entry's place in its index: the index key values, then the row's clustered key (its
/// row locator), which orders equal index keys. Shared between the ordered map and the
/// row's back-reference, so cloning either is a count increment.
#[derive(Clone, Debug)]
pub struct EntryKey {
    values: Rc<[Value]>,
    /// Bit `k` set: index column `k` sorts descending; [`NULLS_HIGH`]: NULL sorts after
    /// every value.
    desc: u64,
}

/// The bit of [`EntryKey`]'s `desc` that puts NULL after every value.
pub const NULLS_HIGH: u64 = 1 << 63;

impl EntryKey {
    pub fn new(values: Vec<Value>, desc: u64) -> EntryKey {
        EntryKey {
            values: values.into(),
            desc,
        }
    }

    /// The value of the index's leading column.
    pub fn lead(&self) -> &Value {
        &self.values[0]
    }
}

impl PartialEq for EntryKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for EntryKey {}
impl PartialOrd for EntryKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for EntryKey {
    /// As SQL Server sorts index keys (NULL first, collation for text), column by column;
    /// NULL last where the table says so (`NULLS_HIGH`).
    fn cmp(&self, other: &Self) -> Ordering {
        let high = self.desc & NULLS_HIGH != 0;
        for (k, (a, b)) in self.values.iter().zip(other.values.iter()).enumerate() {
            let mut o = sort_cmp_nulls(a, b, high);
            if k < 63 && self.desc & (1 << k) != 0 {
                o = o.reverse();
            }
            if o != Ordering::Equal {
                return o;
            }
        }
        self.values.len().cmp(&other.values.len())
    }
}

/// One nonclustered index's entries.
#[derive(Clone, Debug, Default)]
pub struct IndexEntries {
    by_key: BTreeMap<EntryKey, RowId>,
    /// Each slot's entry, if it has one (to find it again when the row changes).
    of_slot: Vec<Option<EntryKey>>,
}

impl IndexEntries {
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Puts `slot`'s entry at `key` (None: the row has no entry).
    pub fn set(&mut self, slot: RowId, key: Option<EntryKey>) {
        if self.of_slot.len() <= slot {
            self.of_slot.resize(slot + 1, None);
        }
        if self.of_slot[slot] == key {
            return;
        }
        if let Some(old) = self.of_slot[slot].take() {
            self.by_key.remove(&old);
        }
        if let Some(new) = &key {
            self.by_key.insert(new.clone(), slot);
        }
        self.of_slot[slot] = key;
    }

    pub fn clear(&mut self) {
        self.by_key.clear();
        self.of_slot.clear();
    }

    /// The first entry after `after` (from the start when None), in index order.
    pub fn next_after(&self, after: Option<&EntryKey>) -> Option<(&EntryKey, RowId)> {
        let bound = after.map_or(Bound::Unbounded, Bound::Excluded);
        self.by_key
            .range((bound, Bound::Unbounded))
            .next()
            .map(|(k, s)| (k, *s))
    }

    /// Entries in index order.
    pub fn iter(&self) -> impl Iterator<Item = (&EntryKey, RowId)> + '_ {
        self.by_key.iter().map(|(k, s)| (k, *s))
    }
}
