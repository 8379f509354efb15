//! A table's clustered order: each row's clustered key, in key order, with its slot.
//!
//! Most tables get their rows in ascending key order (an identity key, a heap's rids): a
//! setup's loop inserts tens of thousands of them. Such keys go on a sorted run after the
//! tree, one push each, instead of a descent through the tree's rightmost nodes (the
//! longest path, each node searched to its end). A key that lands before the run's last
//! moves the run into the tree first, so the run always sorts after every key in it.

use std::collections::BTreeMap;

use crate::state::pages::RowId;

/// Generic over the key (`storage::OrdKey`), so that this module needs nothing of
/// storage's.
#[derive(Clone, Debug)]
pub struct ClusteredOrder<K> {
    tree: BTreeMap<K, RowId>,
    /// Ascending, and after every key in `tree`.
    run: Vec<(K, RowId)>,
}

impl<K> Default for ClusteredOrder<K> {
    fn default() -> Self {
        ClusteredOrder {
            tree: BTreeMap::new(),
            run: Vec::new(),
        }
    }
}

impl<K: Ord> ClusteredOrder<K> {
    pub fn len(&self) -> usize {
        self.tree.len() + self.run.len()
    }

    /// The greatest key and its slot.
    pub fn last(&self) -> Option<(&K, RowId)> {
        match self.run.last() {
            Some((k, s)) => Some((k, *s)),
            None => self.tree.last_key_value().map(|(k, s)| (k, *s)),
        }
    }

    /// Files `slot` under `key` (a key filed already is refiled). Returns whether the
    /// key sorts after every other.
    pub fn insert(&mut self, key: K, slot: RowId) -> bool {
        if self.last().is_none_or(|(last, _)| *last < key) {
            self.run.push((key, slot));
            return true;
        }
        self.tree.extend(self.run.drain(..));
        self.tree.insert(key, slot);
        false
    }

    pub fn get(&self, key: &K) -> Option<RowId> {
        match self.run.first() {
            Some((first, _)) if *first <= *key => self
                .run
                .binary_search_by(|(k, _)| k.cmp(key))
                .ok()
                .map(|i| self.run[i].1),
            _ => self.tree.get(key).copied(),
        }
    }

    /// The slot of the least key greater than `key`.
    pub fn next_after(&self, key: &K) -> Option<RowId> {
        use std::ops::Bound::{Excluded, Unbounded};
        if let Some((_, s)) = self.tree.range((Excluded(key), Unbounded)).next() {
            return Some(*s);
        }
        let at = self.run.partition_point(|(k, _)| k <= key);
        self.run.get(at).map(|(_, s)| *s)
    }

    /// Slots in key order.
    pub fn slots(&self) -> impl Iterator<Item = RowId> + '_ {
        self.tree
            .values()
            .copied()
            .chain(self.run.iter().map(|(_, s)| *s))
    }

    pub fn clear(&mut self) {
        self.tree.clear();
        self.run.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: i64) -> i64 {
        n
    }

    #[test]
    fn keys_in_any_order_come_out_sorted_and_are_found() {
        let mut o = ClusteredOrder::default();
        // Ascending (the run), then one before them (into the tree), then ascending again.
        for (slot, n) in [10, 20, 30, 5, 40, 50, 25, 60].into_iter().enumerate() {
            let appended = o.insert(key(n), slot);
            assert_eq!(appended, ![5, 25].contains(&n), "key {n}");
        }
        let keys = [5, 10, 20, 25, 30, 40, 50, 60];
        let slots: Vec<RowId> = o.slots().collect();
        assert_eq!(slots, vec![3, 0, 1, 6, 2, 4, 5, 7]);
        assert_eq!(o.len(), keys.len());
        for (n, slot) in [(5, 3), (30, 2), (40, 4), (60, 7)] {
            assert_eq!(o.get(&key(n)), Some(slot), "key {n}");
        }
        for n in [0, 7, 35, 55, 70] {
            assert_eq!(o.get(&key(n)), None, "key {n}");
        }
        assert_eq!(o.last().map(|(_, s)| s), Some(7));
        o.clear();
        assert_eq!(o.len(), 0);
        assert!(o.last().is_none());
    }
}
