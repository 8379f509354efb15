//! What one step touched: locks taken, released and waited for, rows read and written.
//! Enough for partial-order reduction: two steps of different sessions whose footprints
//! do not meet commute (running them in either order reaches the same state).

use std::collections::BTreeSet;

use crate::exec::{Output, Touched};
use crate::state::locks::{LockMode, Resource};
use crate::state::World;

/// A row: table number and row slot.
pub type RowRef = (u32, usize);

/// The footprint of one step of one session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub session: usize,
    /// Locks granted (or strengthened) by the step, with the mode held after it.
    pub locks_taken: Vec<(Resource, LockMode)>,
    /// Locks that went away during the step (any owner: a commit releases, a wake grants).
    pub locks_released: Vec<Resource>,
    /// The lock the session waits for after the step, if it blocked.
    pub waited_for: Option<(Resource, LockMode)>,
    /// Rows the step's statement examined.
    pub rows_read: Vec<RowRef>,
    /// Rows the step wrote, and rows whose changes a commit or rollback published.
    pub rows_written: Vec<RowRef>,
    /// The step read, wrote or ended in a transaction whose reads and writes are
    /// tracked for serializable snapshot isolation: its marks and dependencies reach
    /// past the rows above (a scan's mark covers rows not yet written, and which of
    /// two commits comes first decides which transaction fails), so two such steps
    /// never commute.
    pub serializable: bool,
}

impl Footprint {
    /// Whether the two steps commute: different sessions, no lock resource in common, and
    /// no row one writes that the other reads or writes.
    pub fn independent(&self, other: &Footprint) -> bool {
        if self.session == other.session || (self.serializable && other.serializable) {
            return false;
        }
        let locks = |f: &Footprint| -> BTreeSet<Resource> {
            f.locks_taken
                .iter()
                .map(|(r, _)| r.clone())
                .chain(f.locks_released.iter().cloned())
                .chain(f.waited_for.iter().map(|(r, _)| r.clone()))
                .collect()
        };
        if !locks(self).is_disjoint(&locks(other)) {
            return false;
        }
        let meets = |w: &[RowRef], f: &Footprint| {
            w.iter()
                .any(|r| f.rows_read.contains(r) || f.rows_written.contains(r))
        };
        !meets(&self.rows_written, other) && !meets(&other.rows_written, self)
    }
}

/// The lock table before a step, to diff against after it.
pub(crate) struct Probe {
    session: usize,
    before: BTreeSet<(Resource, u32, LockMode)>,
}

fn granted(w: &World) -> BTreeSet<(Resource, u32, LockMode)> {
    w.locks
        .all_locks()
        .into_iter()
        .map(|l| (l.resource, l.owner, l.mode))
        .collect()
}

impl Probe {
    pub(crate) fn begin(w: &World, out: &mut Output, session: usize) -> Probe {
        out.touched = Some(Touched::default());
        Probe {
            session,
            before: granted(w),
        }
    }

    pub(crate) fn end(self, w: &World, out: &mut Output) -> Footprint {
        let after = granted(w);
        let touched = out.touched.take().unwrap_or_default();
        let dedup = |mut v: Vec<RowRef>| {
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut released: Vec<Resource> = self
            .before
            .difference(&after)
            .map(|(r, _, _)| r.clone())
            .collect();
        released.dedup();
        Footprint {
            session: self.session,
            locks_taken: after
                .difference(&self.before)
                .map(|(r, _, m)| (r.clone(), *m))
                .collect(),
            locks_released: released,
            waited_for: w.waiting_lock(self.session),
            rows_read: dedup(touched.read),
            rows_written: dedup(touched.written),
            serializable: touched.ssi,
        }
    }
}
