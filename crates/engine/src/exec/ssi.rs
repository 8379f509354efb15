//! Where the executor meets serializable snapshot isolation (`state::ssi`): a
//! serializable transaction's record is made with its snapshot, its scans leave marks
//! and meet newer versions, its writes meet others' marks, and its commit is checked.
//! Nothing here runs for a transaction without a record, and the callers on every
//! scan and write skip it while no transaction has one (`World::ssi` empty).

use sql::ast::IsolationLevel;

use super::{Exec, Interrupt};
use crate::event::Access;
use crate::state::pages::RowId;
use crate::state::ssi::{Failure, Target};
use crate::state::storage::TxnId;
use crate::value::Value;

/// The index id a mark on the primary key's index carries.
const PRIMARY_KEY: u32 = u32::MAX;

impl Exec<'_> {
    /// The transaction of session `i` took its snapshot: a serializable one gets its
    /// record where the dialect tracks them.
    pub(crate) fn ssi_begin(&mut self, i: usize) {
        if !self.rules.serializable_snapshot_isolation()
            || self.w.sessions[i].options.isolation != IsolationLevel::Serializable
        {
            return;
        }
        let Some(t) = self.w.sessions[i].txn.as_mut() else {
            return;
        };
        if t.ssi.is_none() {
            t.ssi = Some(self.w.ssi.begin(t.id));
        }
    }

    /// The record of session `i`'s transaction, if it has one; a step that uses it is
    /// marked in the footprint (see `Footprint::serializable`).
    fn ssi_record(&mut self, i: usize) -> Option<usize> {
        let me = self.w.sessions[i].txn.as_ref().and_then(|t| t.ssi)?;
        if let Some(t) = &mut self.out.touched {
            t.ssi = true;
        }
        Some(me)
    }

    /// The snapshot of session `i`'s transaction and the transaction's id.
    pub(crate) fn ssi_snapshot(&self, i: usize) -> Option<(u64, TxnId)> {
        (self.w.sessions[i].txn.as_ref()).map(|t| (t.snapshot_seq.unwrap_or(u64::MAX), t.id))
    }

    fn ssi_error(&self, why: Failure) -> Interrupt {
        self.rules.serialization_failure(why).into()
    }

    /// A snapshot scan of table `tid` by `access` begins: a full scan marks the table
    /// and meets every row's newer versions (it reads every page), an index scan marks
    /// the index (its rows are met one by one, `ssi_read_row`).
    /// Returns whether the scan's rows are to be met one by one.
    pub(crate) fn ssi_scan(
        &mut self,
        i: usize,
        tid: u32,
        access: &Access,
    ) -> Result<bool, Interrupt> {
        let Some(me) = self.ssi_record(i) else {
            return Ok(false);
        };
        match self.index_of(tid, access) {
            Some(index) => {
                self.w.ssi.mark(me, Target::Index(tid, index));
                return Ok(true);
            }
            None => {
                self.w.ssi.mark(me, Target::Table(tid));
                // Every page is read, and every version on it checked: a doomed
                // transaction fails as it meets the first (an empty table has none).
                let n = self.w.db.tables[tid as usize].slots.len();
                if n > 0 {
                    self.w
                        .ssi
                        .doomed(me, Failure::PivotDuringConflictOut)
                        .map_err(|f| self.ssi_error(f))?;
                }
                for slot in 0..n {
                    self.ssi_meet_versions(i, me, tid, slot, true)?;
                }
            }
        }
        Ok(false)
    }

    /// An index scan reached row `slot` (a full scan met every row as it began): it
    /// meets the row's versions, and marks the version it sees.
    pub(crate) fn ssi_read_row(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
    ) -> Result<(), Interrupt> {
        self.ssi_meet_entry(i, tid, slot)?;
        let Some(me) = self.ssi_record(i) else {
            return Ok(());
        };
        let Some((snapshot, own)) = self.ssi_snapshot(i) else {
            return Ok(());
        };
        let s = &self.w.db.tables[tid as usize].slots[slot];
        // The version this snapshot sees; the transaction's own needs no mark.
        let own_version = s.pending.as_ref().is_some_and(|(t, _)| *t == own);
        let seen = s.seen_at(snapshot).map(|k| s.committed[k].0);
        if let (Some(version), false) = (seen, own_version) {
            let page = self.heap_page(tid, slot);
            let target = Target::Row {
                table: tid,
                slot,
                version,
                page,
            };
            self.w.ssi.mark(me, target);
        }
        Ok(())
    }

    /// An index scan reached row `slot` through an entry of a version its snapshot does
    /// not see: the row's versions are met, nothing is marked.
    pub(crate) fn ssi_meet_entry(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
    ) -> Result<(), Interrupt> {
        let Some(me) = self.ssi_record(i) else {
            return Ok(());
        };
        self.w
            .ssi
            .doomed(me, Failure::PivotDuringConflictOut)
            .map_err(|f| self.ssi_error(f))?;
        self.ssi_meet_versions(i, me, tid, slot, false)
    }

    /// The versions of row `slot` a scan meets where `me`'s snapshot does not see them
    /// as the newest: each writer met, if serializable and overlapping, wrote over what
    /// `me` reads. As the server's tuple checks go: the version the snapshot sees names
    /// the transaction that replaced or deleted it; a version it does not see names the
    /// transaction that wrote it. An index scan walks a row's versions up to the one it
    /// sees, so it meets only that one's replacer (or, seeing none, every writer); a full
    /// scan (`full`) reads every version on the page.
    fn ssi_meet_versions(
        &mut self,
        i: usize,
        me: usize,
        tid: u32,
        slot: RowId,
        full: bool,
    ) -> Result<(), Interrupt> {
        let Some((snapshot, own)) = self.ssi_snapshot(i) else {
            return Ok(());
        };
        let s = &self.w.db.tables[tid as usize].slots[slot];
        // A row this transaction wrote: it sees its own version, and no other
        // transaction's version came after its snapshot (that write would have failed).
        if s.pending.as_ref().is_some_and(|(t, _)| *t == own) {
            return Ok(());
        }
        let pending = s.pending.as_ref().map(|(t, d)| (*t, d.is_some()));
        let seen = s.seen_at(snapshot);
        // Writers by commit sequence (`Some`), or the transaction still writing (`None`).
        let mut met: Vec<(Option<u64>, Option<u32>)> = Vec::new();
        let newer_writers = |from: usize, met: &mut Vec<(Option<u64>, Option<u32>)>| {
            for (seq, data) in &s.committed[from..] {
                if data.is_some() {
                    met.push((Some(*seq), None));
                }
            }
            if let Some((t, true)) = pending {
                met.push((None, Some(t)));
            }
        };
        match seen {
            Some(k) => {
                // The version seen: the transaction that replaced or deleted it.
                match (s.committed.get(k + 1), pending) {
                    (Some((seq, _)), _) => met.push((Some(*seq), None)),
                    (None, Some((t, _))) => met.push((None, Some(t))),
                    (None, None) => {}
                }
                if full {
                    newer_writers(k + 1, &mut met);
                }
            }
            None => {
                let from = s.committed.partition_point(|(seq, _)| *seq <= snapshot);
                newer_writers(from, &mut met);
            }
        }
        let writers: Vec<usize> = met
            .into_iter()
            .filter_map(|(seq, txn)| self.w.ssi.writer(txn, seq))
            .collect();
        for w in writers {
            self.w
                .ssi
                .read_changed(me, w)
                .map_err(|f| self.ssi_error(f))?;
        }
        Ok(())
    }

    /// Session `i` updates (`new` `Some`) or deletes row `slot` of table `tid`, whose
    /// version is `old`: the row version, its page and the table are checked for
    /// others' marks, then, for an update that changes an indexed column, every index
    /// (a new version that is not a heap-only tuple gets an entry in each).
    pub(crate) fn ssi_write(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
        old: &[Value],
        new: Option<&[Value]>,
    ) -> Result<(), Interrupt> {
        let mut targets = Vec::new();
        let s = &self.w.db.tables[tid as usize].slots[slot];
        if let Some((version, _)) = s.committed.last() {
            let page = self.heap_page(tid, slot);
            targets.push(Target::Row {
                table: tid,
                slot,
                version: *version,
                page,
            });
            targets.push(Target::Page(tid, page));
        }
        targets.push(Target::Table(tid));
        let t = &self.w.db.tables[tid as usize];
        let indexed = |p: usize| {
            t.key.contains(&p) || t.indexes.iter().any(|x| x.columns.iter().any(|c| c.0 == p))
        };
        if new.is_some_and(|new| (0..old.len()).any(|p| indexed(p) && old.get(p) != new.get(p))) {
            targets.extend(self.index_targets(tid));
        }
        self.ssi_check_writes(i, &targets)
    }

    /// Session `i` inserts a row into table `tid`: the table is checked as the row
    /// goes into the heap (`indexes` false), each index as its entry goes in (true),
    /// the latter also when a unique index refuses the entry, before the duplicate is
    /// reported (so a transaction that would close a dangerous structure fails with a
    /// serialization failure, not a duplicate key).
    pub(crate) fn ssi_insert(
        &mut self,
        i: usize,
        tid: u32,
        indexes: bool,
    ) -> Result<(), Interrupt> {
        let targets = if indexes {
            self.index_targets(tid)
        } else {
            vec![Target::Table(tid)]
        };
        self.ssi_check_writes(i, &targets)
    }

    /// A unique index refuses an inserted row: its indexes are checked first.
    pub(crate) fn before_duplicate(&mut self, i: usize, tid: u32) -> Result<(), Interrupt> {
        if self.w.ssi.xacts.is_empty() {
            return Ok(());
        }
        self.ssi_insert(i, tid, true)
    }

    fn index_targets(&self, tid: u32) -> Vec<Target> {
        let t = &self.w.db.tables[tid as usize];
        let pk = (!t.key.is_empty()).then_some(Target::Index(tid, PRIMARY_KEY));
        pk.into_iter()
            .chain(t.indexes.iter().map(|x| Target::Index(tid, x.id)))
            .collect()
    }

    fn ssi_check_writes(&mut self, i: usize, targets: &[Target]) -> Result<(), Interrupt> {
        let Some(me) = self.ssi_record(i) else {
            return Ok(());
        };
        // The writer's own mark on the row goes (it now holds the row's write), except
        // inside a savepoint, which could roll the write back.
        let top_level = self.w.sessions[i]
            .txn
            .as_ref()
            .is_some_and(|t| t.savepoints.is_empty());
        self.w
            .ssi
            .write(me, targets, top_level)
            .map_err(|f| self.ssi_error(f))
    }

    /// Session `i`'s COMMIT begins: a doomed transaction fails, and one that would
    /// commit as the far end of a dangerous structure dooms its pivot.
    pub(crate) fn ssi_prepare(&mut self, i: usize) -> Result<(), Interrupt> {
        let Some(me) = self.ssi_record(i) else {
            return Ok(());
        };
        self.w.ssi.prepare(me).map_err(|f| self.ssi_error(f))
    }

    /// The index an access path reads, by id (`None`: a full scan).
    fn index_of(&self, tid: u32, access: &Access) -> Option<u32> {
        match access {
            Access::ClusteredSeek | Access::PrimaryIndex => Some(PRIMARY_KEY),
            Access::IndexSeek(name) | Access::IndexScan(name) => {
                let t = &self.w.db.tables[tid as usize];
                Some(
                    (t.indexes.iter())
                        .find(|x| x.name.eq_ignore_ascii_case(name))
                        .map_or(PRIMARY_KEY, |x| x.id),
                )
            }
            _ => None,
        }
    }

    /// The heap page a row was first written on: rows fill pages in the order they were
    /// inserted, as many as the table's first row's size lets a page hold (a row's later
    /// versions are taken to stay on its page, as an update with room on the page does).
    fn heap_page(&self, tid: u32, slot: RowId) -> u32 {
        let t = &self.w.db.tables[tid as usize];
        let first = t
            .slots
            .iter()
            .find_map(|s| s.latest_committed().or(s.latest()));
        let bytes = first.map_or(1, |row| self.rules.version_bytes(&t.columns, row));
        let per_page = crate::state::heap::Heap::per_page(bytes) as usize;
        (slot / per_page) as u32
    }
}
