//! A hash of the state that decides what happens from here on, so a search can skip
//! states it has seen. Abstracted away: time (the clock, wait starts, statement ends),
//! owner and transaction ids (named by their session instead), commit sequence numbers
//! and older row versions, row slot numbers (rows are hashed in clustered order), and
//! what the sessions already returned except their errors and result counts.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crate::sim::Simulation;
use crate::state::locks::OwnerId;
use crate::state::session::{FrameKind, State};
use crate::state::storage::{RowId, Table};
use crate::value::Value;

fn value(h: &mut DefaultHasher, v: &Value) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Int(n) => (1u8, n).hash(h),
        Value::Decimal(x) => (2u8, x.to_bits()).hash(h),
        Value::Text(s) => (3u8, s).hash(h),
        Value::DateTime(t, stamp) => (4u8, t, stamp).hash(h),
        Value::True => 5u8.hash(h),
        Value::False => 6u8.hash(h),
    }
}

fn row(h: &mut DefaultHasher, r: Option<&Vec<Value>>) {
    match r {
        None => 0usize.hash(h),
        Some(values) => {
            (values.len() + 1).hash(h);
            for v in values {
                value(h, v);
            }
        }
    }
}

impl Simulation {
    /// Equal for states that behave the same from here on; see the module docs for what
    /// is abstracted. Deterministic within one build (a fixed-key hasher).
    pub fn fingerprint(&self) -> u64 {
        let mut h = DefaultHasher::new();
        for t in self.world.db.tables.iter() {
            self.table(&mut h, t);
        }
        self.world.db.procs.keys().for_each(|k| k.hash(&mut h));
        (self.world.db.rcsi, self.world.db.allow_snapshot).hash(&mut h);
        (self.world.eager_searches, self.world.search_at.is_some()).hash(&mut h);
        for (i, s) in self.world.sessions.iter().enumerate() {
            i.hash(&mut h);
            match &s.state {
                State::NotStarted => 0u8.hash(&mut h),
                State::Ready => 1u8.hash(&mut h),
                State::Busy { end, .. } => (2u8, end.as_ref().map(|e| e.label)).hash(&mut h),
                State::Blocked { timeout_at, .. } => (3u8, timeout_at.is_some()).hash(&mut h),
                State::Delayed { table } => (4u8, table).hash(&mut h),
                State::Finished => 5u8.hash(&mut h),
            }
            (s.batch, s.repeats_done, s.tran_count, &s.options).hash(&mut h);
            (s.rowcount, s.last_error, s.resuming, s.applock_waiting).hash(&mut h);
            // A blocked INSERT's identity values, which it takes again when it goes on.
            s.identities.hash(&mut h);
            s.failed_block.hash(&mut h);
            (
                s.applock_result,
                s.timeout_override,
                s.delayed_since.is_some(),
            )
                .hash(&mut h);
            for f in &s.frames {
                (f.pc, f.source, f.scope_identity, f.found).hash(&mut h);
                for t in &f.tries {
                    let sp = t.savepoint.as_ref().map(|s| (s.undo, s.locks.len()));
                    (t.catch_pc, t.caught, sp).hash(&mut h);
                }
                if let FrameKind::Proc {
                    name, tran_count, ..
                } = &f.kind
                {
                    (name, tran_count).hash(&mut h);
                }
                for (name, (_, v)) in &f.vars {
                    name.hash(&mut h);
                    value(&mut h, v);
                }
                for (name, t) in &f.table_vars {
                    name.hash(&mut h);
                    self.table(&mut h, t);
                }
                f.caught.iter().for_each(|e| e.number.hash(&mut h));
            }
            match &s.txn {
                None => 0u8.hash(&mut h),
                Some(t) => {
                    (1u8, t.explicit, t.began_explicit, t.snapshot_seq.is_some()).hash(&mut h);
                    (t.consumes, t.undo.len(), t.doomed).hash(&mut h);
                    // The settings its end or a rollback brings back.
                    (&t.saved_options, &t.options_at_start).hash(&mut h);
                    for (name, sp) in &t.savepoints {
                        (name, sp.undo, &sp.locks, &sp.options).hash(&mut h);
                    }
                    for u in &t.undo {
                        (u.table, u.prev.is_some(), u.is_row()).hash(&mut h);
                        if let Some((_, data)) = &u.prev {
                            row(&mut h, data.as_ref());
                        }
                    }
                }
            }
            (&s.statement_locks, &s.fresh_locks, s.init_plan_reads).hash(&mut h);
            // Rows a waiting statement read before it waited, as it read them (a map:
            // hashed in key order), and the lock its wait granted.
            let mut earlier: Vec<_> = s.read_earlier.iter().flat_map(|m| m.iter()).collect();
            earlier.sort_unstable_by_key(|(k, _)| **k);
            for (k, slot) in earlier {
                k.hash(&mut h);
                row(&mut h, slot.latest());
            }
            s.waited_for.hash(&mut h);
            (s.effects.len(), s.effect_waiting, &s.range_test).hash(&mut h);
            for (_, _, rows) in &s.init_plans {
                for r in rows {
                    row(&mut h, Some(r));
                }
            }
            if let Some(m) = &s.merge_pending {
                for (r, slot) in &m.rows {
                    row(&mut h, Some(r));
                    slot.hash(&mut h);
                }
            }
            let errors: Vec<u32> = s.errors.iter().map(|e| e.number).collect();
            (errors, s.results.len()).hash(&mut h);
        }
        for l in self.world.locks.all_locks() {
            (&l.resource, self.owner_key(l.owner), l.mode, l.count).hash(&mut h);
        }
        for w in self.world.locks.all_waits() {
            (&w.resource, self.owner_key(w.owner), w.requested, w.target).hash(&mut h);
            w.conversion.hash(&mut h);
        }
        // Serializable transactions' records: flags, dependency and mark counts.
        self.world.ssi.summary().hash(&mut h);
        h.finish()
    }

    /// An owner named by its session: (session, 0) for the session's own locks, (session,
    /// 1) for its transaction's.
    fn owner_key(&self, owner: OwnerId) -> (usize, u8) {
        if let Some(i) = self
            .world
            .sessions
            .iter()
            .position(|s| s.session_owner == owner)
        {
            return (i, 0);
        }
        match self.world.owners.get(&owner) {
            Some(&i) => (i, 1),
            None => (usize::MAX, 2),
        }
    }

    fn table(&self, h: &mut DefaultHasher, t: &Table) {
        (&t.name, t.identity.as_ref().map(|i| i.next)).hash(h);
        for slot in t.clustered_order() {
            let s = &t.slots[slot];
            row(h, s.latest_committed());
            // A waiting statement follows a moved row to its new key (`Table::moved_to`).
            if t.has_moves() {
                t.moved_to(slot).is_some().hash(h);
            }
            match &s.pending {
                None => 0u8.hash(h),
                Some((owner, data)) => {
                    (1u8, self.owner_key(*owner)).hash(h);
                    row(h, data.as_ref());
                }
            }
        }
        // A heap's scan orders, as each row's place among the others (the positions
        // are counters, which differ between states that read the same): by committed
        // versions, and by newest versions.
        if t.heap.is_some() {
            let order: Vec<RowId> = t.clustered_order().collect();
            let places = |key: &dyn Fn(&crate::state::storage::RowSlot) -> Option<u64>| {
                let mut by_place = order.clone();
                by_place.sort_by_key(|&s| key(&t.slots[s]));
                let mut rank = vec![0usize; t.slots.len()];
                for (n, &s) in by_place.iter().enumerate() {
                    rank[s] = n;
                }
                order.iter().map(|&s| rank[s]).collect::<Vec<_>>()
            };
            places(&|s| s.heap_pos.last().copied()).hash(h);
            places(&|s| match &s.pending {
                Some((_, Some(_))) => Some(s.pending_pos),
                _ => s.heap_pos.last().copied(),
            })
            .hash(h);
        }
    }
}
