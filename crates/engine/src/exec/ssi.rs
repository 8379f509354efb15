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
                // Every page is read, and every version on it checked.
                let n = self.w.db.tables[tid as usize].slots.len();
                self.w
                    .ssi
                    .doomed(me, Failure::PivotDuringConflictOut)
                    .map_err(|f| self.ssi_error(f))?;
                for slot in 0..n {
                    self.ssi_meet_versions(i, me, tid, slot)?;
                }
            }
        }
        Ok(false)
    }

    /// An index scan reached row `slot` (a full scan met every row as it began): it meets the row's newer versions, and marks
    /// the version it sees.
    pub(crate) fn ssi_read_row(
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
        self.ssi_meet_versions(i, me, tid, slot)?;
        let (snapshot, own) = match self.w.sessions[i].txn.as_ref() {
            Some(t) => (t.snapshot_seq.unwrap_or(u64::MAX), t.id),
            None => return Ok(()),
        };
        let s = &self.w.db.tables[tid as usize].slots[slot];
        // The version this snapshot sees; the transaction's own needs no mark.
        let own_version = s.pending.as_ref().is_some_and(|(t, _)| *t == own);
        let seen = s
            .committed
            .iter()
            .rev()
            .find(|(seq, _)| *seq <= snapshot)
            .filter(|(_, d)| d.is_some())
            .map(|(seq, _)| *seq);
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

    /// The versions of row `slot` that `me`'s snapshot does not see: each one's writer,
    /// if serializable and overlapping, wrote over what `me` reads.
    fn ssi_meet_versions(
        &mut self,
        i: usize,
        me: usize,
        tid: u32,
        slot: RowId,
    ) -> Result<(), Interrupt> {
        let (snapshot, own) = match self.w.sessions[i].txn.as_ref() {
            Some(t) => (t.snapshot_seq.unwrap_or(u64::MAX), t.id),
            None => return Ok(()),
        };
        let s = &self.w.db.tables[tid as usize].slots[slot];
        let mut writers: Vec<usize> = (s.committed.iter())
            .filter(|(seq, _)| *seq > snapshot)
            .filter_map(|(seq, _)| self.w.ssi.writer(None, Some(*seq)))
            .collect();
        if let Some((t, _)) = s.pending.as_ref().filter(|(t, _)| *t != own) {
            writers.extend(self.w.ssi.writer(Some(*t), None));
        }
        for w in writers {
            self.w
                .ssi
                .read_changed(me, w)
                .map_err(|f| self.ssi_error(f))?;
        }
        Ok(())
    }

    /// Session `i` writes row `slot` of table `tid` (`None`: a new row): `old` and
    /// `new` are its versions (`new` `None`: a delete). The row, its page and the
    /// table are checked for others' marks, then every index a new entry goes into
    /// (all of them for a new row, or for an update that changes an indexed column).
    pub(crate) fn ssi_write(
        &mut self,
        i: usize,
        tid: u32,
        slot: Option<RowId>,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<(), Interrupt> {
        let Some(me) = self.ssi_record(i) else {
            return Ok(());
        };
        let mut targets = Vec::new();
        if let Some(slot) = slot.filter(|_| old.is_some()) {
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
        }
        targets.push(Target::Table(tid));
        let t = &self.w.db.tables[tid as usize];
        let new_entries = match (old, new) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(old), Some(new)) => {
                let indexed = |p: usize| {
                    t.key.contains(&p)
                        || t.indexes.iter().any(|x| x.columns.iter().any(|c| c.0 == p))
                };
                (0..old.len()).any(|p| indexed(p) && old.get(p) != new.get(p))
            }
        };
        if new_entries {
            if !t.key.is_empty() {
                targets.push(Target::Index(tid, PRIMARY_KEY));
            }
            targets.extend(t.indexes.iter().map(|x| Target::Index(tid, x.id)));
        }
        self.w
            .ssi
            .write(me, &targets)
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

    /// The heap page a row is on, spreading rows evenly over the heap's pages.
    fn heap_page(&self, tid: u32, slot: RowId) -> u32 {
        let t = &self.w.db.tables[tid as usize];
        let pages = t.heap.as_ref().map_or(1, |h| h.pages()) as usize;
        let rows = t.slots.len().max(1);
        (slot * pages / rows) as u32
    }
}
