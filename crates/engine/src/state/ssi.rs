//! Serializable snapshot isolation (Cahill, Röhm and Fekete, SIGMOD 2008), for a
//! dialect whose SERIALIZABLE is a snapshot plus this: each serializable transaction
//! leaves SIREAD marks on what it read (a whole table for a full scan, an index and the
//! row versions it found for an index scan), a write that meets another's mark, or a
//! read that meets another's newer version, records a read/write dependency (reader →
//! writer), and a transaction that would close a "dangerous structure" (T_in → pivot →
//! T_out, T_out committing first) is cancelled: at once when it is the one writing,
//! else it is doomed and fails at its next read, write or commit.
//!
//! The marks never block. They outlive their transaction's commit, since a transaction
//! that overlapped it may still write what it read; here they are kept for the whole
//! run, and every check asks whether the two transactions overlapped.

use super::pages::RowId;
use super::storage::TxnId;

/// What an SIREAD mark covers, finest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Target {
    /// A whole table: a full scan read every row, and any row written or added to it
    /// conflicts.
    Table(u32),
    /// An index (its leaf pages are one page here): an index scan read a range of it,
    /// and an entry added to it conflicts.
    Index(u32, u32),
    /// A page of a table's rows: three row marks on one page become one.
    Page(u32, u32),
    /// One version of a row (by the commit sequence that made it), on a page: a later
    /// version written over it conflicts.
    Row {
        table: u32,
        slot: RowId,
        version: u64,
        page: u32,
    },
}

impl Target {
    fn table(self) -> u32 {
        match self {
            Target::Table(t) | Target::Index(t, _) | Target::Page(t, _) => t,
            Target::Row { table, .. } => table,
        }
    }
}

/// Row marks on one page before the page is marked instead.
const ROWS_PER_PAGE_MARK: usize = 2;
/// Page and row marks on one table before the table is marked instead.
const MARKS_PER_TABLE: usize = 31;

/// Why a transaction is cancelled; the dialect words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The writer closes a dangerous structure as its write is checked.
    PivotDuringWrite,
    /// A doomed transaction reaches a write.
    PivotDuringConflictIn,
    /// A doomed transaction reaches a read of a changed row.
    PivotDuringConflictOut,
    /// A doomed transaction reaches its commit.
    PivotDuringCommit,
    /// It would commit as a dangerous structure's far end while the pivot is already
    /// committing (too late to cancel).
    CommitWithPreparedPivot,
    /// The reader meets a version by a committing pivot that can no longer be cancelled.
    ConflictOutToPivot,
}

/// One serializable transaction's record.
#[derive(Clone, Debug)]
pub(crate) struct Xact {
    pub txn: TxnId,
    /// The last commit (or prepare) sequence number before its snapshot.
    pub snapshot: u64,
    /// Passed its commit-time check (a commit is under way or done).
    pub prepared: Option<u64>,
    pub committed: Option<u64>,
    /// The database's commit sequence of its writes, once committed.
    pub db_commit: Option<u64>,
    pub doomed: bool,
    pub wrote: bool,
    /// Committed without writing: its reads can be ordered first.
    pub read_only: bool,
    /// Committed with a dependency out to a transaction that committed before it.
    pub conflict_out: bool,
    /// Transactions that read what this one wrote over (reader → this).
    pub ins: Vec<usize>,
    /// Transactions that wrote over what this one read (this → writer).
    pub outs: Vec<usize>,
}

/// Every serializable transaction of the run, their marks and dependencies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ssi {
    pub xacts: Vec<Xact>,
    /// Each mark and the transactions holding it.
    marks: std::collections::BTreeMap<Target, Vec<usize>>,
    /// Commit and prepare sequence numbers so far.
    last_seq: u64,
}

impl Ssi {
    /// A serializable transaction takes its snapshot.
    pub fn begin(&mut self, txn: TxnId) -> usize {
        self.xacts.push(Xact {
            txn,
            snapshot: self.last_seq,
            prepared: None,
            committed: None,
            db_commit: None,
            doomed: false,
            wrote: false,
            read_only: false,
            conflict_out: false,
            ins: Vec::new(),
            outs: Vec::new(),
        });
        self.xacts.len() - 1
    }

    /// The record of the transaction that wrote a version: still writing (`txn`), or
    /// committed with the database's commit sequence `db_commit`.
    pub fn writer(&self, txn: Option<TxnId>, db_commit: Option<u64>) -> Option<usize> {
        self.xacts.iter().rposition(|x| {
            (txn.is_some() && x.committed.is_none() && Some(x.txn) == txn)
                || (db_commit.is_some() && x.db_commit == db_commit)
        })
    }

    /// A doomed transaction fails at its next check.
    pub fn doomed(&self, me: usize, at: Failure) -> Result<(), Failure> {
        if self.xacts[me].doomed {
            Err(at)
        } else {
            Ok(())
        }
    }

    /// `me` read `target`: it leaves a mark there, or on the page or table a mark of
    /// its already covers; enough row marks on a page, or marks on a table, become one.
    pub fn mark(&mut self, me: usize, target: Target) {
        let table = target.table();
        let covered = |t: &Target| match (t, target) {
            (Target::Table(a), _) => *a == table,
            (Target::Page(a, p), Target::Row { page, .. }) => *a == table && *p == page,
            (a, b) => *a == b,
        };
        let held: Vec<Target> = self.held(me).filter(|t| t.table() == table).collect();
        if held.iter().any(covered) {
            return;
        }
        self.add(me, target);
        if let Target::Row { page, .. } = target {
            let on_page = |h: &Target| matches!(h, Target::Row { page: p, .. } if *p == page);
            if held.iter().filter(|h| on_page(h)).count() >= ROWS_PER_PAGE_MARK {
                self.drop_marks(me, |h| h.table() == table && on_page(h));
                self.add(me, Target::Page(table, page));
            }
        }
        let fine = self
            .held(me)
            .filter(|h| h.table() == table && matches!(h, Target::Page(..) | Target::Row { .. }))
            .count();
        if fine > MARKS_PER_TABLE {
            self.drop_marks(me, |h| {
                h.table() == table && matches!(h, Target::Page(..) | Target::Row { .. })
            });
            self.add(me, Target::Table(table));
        }
    }

    fn held(&self, me: usize) -> impl Iterator<Item = Target> + '_ {
        self.marks
            .iter()
            .filter(move |(_, h)| h.contains(&me))
            .map(|(t, _)| *t)
    }

    fn add(&mut self, me: usize, target: Target) {
        let holders = self.marks.entry(target).or_default();
        if !holders.contains(&me) {
            holders.push(me);
        }
    }

    fn drop_marks(&mut self, me: usize, which: impl Fn(&Target) -> bool) {
        for (t, holders) in self.marks.iter_mut() {
            if which(t) {
                holders.retain(|h| *h != me);
            }
        }
        self.marks.retain(|_, h| !h.is_empty());
    }

    /// `me` writes over what `targets` cover (finest first): every other transaction
    /// that overlapped `me` and holds a mark there read what `me` now changes. `me`'s
    /// own mark on a row it writes goes where `drop_own` (outside a savepoint).
    pub fn write(&mut self, me: usize, targets: &[Target], drop_own: bool) -> Result<(), Failure> {
        self.doomed(me, Failure::PivotDuringConflictIn)?;
        self.xacts[me].wrote = true;
        for target in targets {
            let holders = self.marks.get(target).cloned().unwrap_or_default();
            for r in holders {
                if r == me {
                    if drop_own && matches!(target, Target::Row { .. }) {
                        self.drop_marks(me, |t| t == target);
                    }
                    continue;
                }
                let x = &self.xacts[r];
                let overlapped = x.committed.is_none_or(|c| c > self.xacts[me].snapshot);
                if !x.doomed && overlapped && !self.xacts[r].outs.contains(&me) {
                    self.flag(r, me, me)?;
                }
            }
        }
        Ok(())
    }

    /// `me` read a row that `writer` changed where `me`'s snapshot does not see it.
    pub fn read_changed(&mut self, me: usize, writer: usize) -> Result<(), Failure> {
        self.doomed(me, Failure::PivotDuringConflictOut)?;
        if writer == me || self.xacts[writer].doomed {
            return Ok(());
        }
        // A write committed before `me`'s snapshot is in it: no dependency.
        if self.xacts[writer]
            .committed
            .is_some_and(|c| c <= self.xacts[me].snapshot)
        {
            return Ok(());
        }
        if self.xacts[me].outs.contains(&writer) {
            return Ok(());
        }
        self.flag(me, writer, me)
    }

    /// Records reader → writer after checking that it closes no dangerous structure.
    /// `me` is the transaction running now: it fails at once when it is to be cancelled
    /// (the writer, or the reader of a pivot already committing); another transaction
    /// to be cancelled is doomed.
    fn flag(&mut self, reader: usize, writer: usize, me: usize) -> Result<(), Failure> {
        let x = &self.xacts;
        let (r, w) = (&x[reader], &x[writer]);
        // A committed writer with a dependency out to one that committed before it.
        let mut failure = w.committed.is_some() && w.conflict_out;
        // The writer has become a pivot: its out-conflict committed (prepared) first.
        if !failure {
            failure = w.outs.iter().any(|&t2| {
                let t2 = &x[t2];
                t2.prepared.is_some_and(|p2| {
                    r.committed.is_none_or(|c| p2 <= c)
                        && w.committed.is_none_or(|c| p2 <= c)
                        && (!r.read_only || p2 <= r.snapshot)
                })
            });
        }
        // The reader has become a pivot, with a writer committing first.
        if !failure {
            if let Some(wp) = w.prepared.filter(|_| !r.read_only) {
                failure = r.ins.iter().any(|&t0| {
                    let t0 = &x[t0];
                    !t0.doomed
                        && t0.committed.is_none_or(|c| c >= wp)
                        && (!t0.read_only || t0.snapshot >= wp)
                });
            }
        }
        if failure {
            if me == writer {
                return Err(Failure::PivotDuringWrite);
            }
            if w.prepared.is_some() {
                return Err(Failure::ConflictOutToPivot);
            }
            self.xacts[writer].doomed = true;
        }
        self.xacts[reader].outs.push(writer);
        self.xacts[writer].ins.push(reader);
        Ok(())
    }

    /// `me`'s commit begins: it fails if doomed; a dangerous structure whose far end is
    /// `me` (T_in → pivot → `me`, neither of the others committed) dooms the pivot.
    pub fn prepare(&mut self, me: usize) -> Result<(), Failure> {
        self.doomed(me, Failure::PivotDuringCommit)?;
        let ins = self.xacts[me].ins.clone();
        for near in ins {
            let n = &self.xacts[near];
            if n.committed.is_some() || n.doomed {
                continue;
            }
            let closes = n.ins.iter().any(|&far| {
                let f = &self.xacts[far];
                far == me || (f.committed.is_none() && !f.read_only && !f.doomed)
            });
            if closes {
                if n.prepared.is_some() {
                    return Err(Failure::CommitWithPreparedPivot);
                }
                self.xacts[near].doomed = true;
            }
        }
        self.last_seq += 1;
        self.xacts[me].prepared = Some(self.last_seq);
        Ok(())
    }

    /// `me` commits (its writes with the database's commit sequence `db_commit`).
    pub fn commit(&mut self, me: usize, db_commit: Option<u64>) {
        if self.xacts[me].prepared.is_none() {
            self.last_seq += 1;
            self.xacts[me].prepared = Some(self.last_seq);
        }
        self.last_seq += 1;
        let seq = self.last_seq;
        let x = &mut self.xacts[me];
        x.committed = Some(seq);
        x.db_commit = db_commit;
        x.read_only = !x.wrote;
        let read_only = x.read_only;
        // Dependencies out to transactions already committed mark this one; those and
        // the ones to transactions that can no longer overlap anything are dropped.
        let outs = std::mem::take(&mut self.xacts[me].outs);
        let mut kept = Vec::new();
        for w in outs {
            let wx = &self.xacts[w];
            if !read_only && wx.committed.is_some() {
                self.xacts[me].conflict_out = true;
            }
            let wx = &self.xacts[w];
            if wx.committed.is_some() || wx.snapshot >= self.last_seq {
                self.xacts[w].ins.retain(|r| *r != me);
            } else {
                kept.push(w);
            }
        }
        self.xacts[me].outs = kept;
        // Dependencies in from committed or read-only transactions are dropped.
        let ins = std::mem::take(&mut self.xacts[me].ins);
        let mut kept = Vec::new();
        for r in ins {
            let rx = &self.xacts[r];
            if rx.committed.is_some() || rx.read_only {
                self.xacts[r].outs.retain(|w| *w != me);
            } else {
                kept.push(r);
            }
        }
        self.xacts[me].ins = kept;
    }

    /// `me` rolls back: its marks and dependencies go, and it causes no failure.
    pub fn rollback(&mut self, me: usize) {
        let x = &mut self.xacts[me];
        x.doomed = true;
        x.prepared = None;
        let (ins, outs) = (std::mem::take(&mut x.ins), std::mem::take(&mut x.outs));
        for r in ins {
            self.xacts[r].outs.retain(|w| *w != me);
        }
        for w in outs {
            self.xacts[w].ins.retain(|r| *r != me);
        }
        self.drop_marks(me, |_| true);
    }

    /// A summary for fingerprints: each record's flags and dependency counts, and the
    /// marks by kind (transaction numbers abstracted).
    pub fn summary(&self) -> Vec<(bool, bool, bool, bool, usize, usize, usize)> {
        self.xacts
            .iter()
            .enumerate()
            .map(|(k, x)| {
                (
                    x.prepared.is_some(),
                    x.committed.is_some(),
                    x.doomed,
                    x.wrote,
                    x.ins.len(),
                    x.outs.len(),
                    self.held(k).count(),
                )
            })
            .collect()
    }
}
