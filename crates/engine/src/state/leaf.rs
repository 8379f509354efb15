//! The clustered index's leaf pages, packed as `pages::LeafPacker` packs them, but kept
//! between statements as a list of pages. A row that changes size and leaves every page
//! boundary where it was (the usual: a claimed row grows a little) only adjusts its
//! page's fill; otherwise packing resumes at the page before the change and stops at the
//! first page that starts where it started before, since all that follows is the same.

use crate::state::pages::RowId;
use crate::state::pages::{SLOT_BYTES, USABLE_PAGE_BYTES};

#[derive(Clone, Debug, Default)]
pub struct LeafPacking {
    /// Slots in clustered order.
    order: Vec<RowId>,
    /// Each slot's position in `order`.
    pos: Vec<usize>,
    /// The size each slot is packed with (0: not on a page).
    size: Vec<u32>,
    /// The pages in order.
    pages: Vec<Page>,
    /// Positions whose change is not packed yet: (first, last).
    dirty: Option<(usize, usize)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Page {
    /// Position of its first row.
    start: usize,
    /// Bytes its rows take, slots included.
    used: u32,
}

impl LeafPacking {
    /// Starts over with these slots in clustered order and their sizes.
    pub fn rebuild(&mut self, order: impl Iterator<Item = RowId>, sizes: &[u32]) {
        self.order = order.collect();
        self.pos = vec![0; sizes.len()];
        self.size = sizes.to_vec();
        for (p, &slot) in self.order.iter().enumerate() {
            self.pos[slot] = p;
        }
        self.pages.clear();
        self.dirty = None;
        if !self.order.is_empty() {
            self.repack(0, self.order.len() - 1);
        }
    }

    /// Files a new slot after every other row (its size comes with `set_size`).
    pub fn append(&mut self, slot: RowId) {
        if self.pos.len() <= slot {
            self.pos.resize(slot + 1, 0);
            self.size.resize(slot + 1, 0);
        }
        self.pos[slot] = self.order.len();
        self.size[slot] = 0;
        self.order.push(slot);
    }

    pub fn set_size(&mut self, slot: RowId, size: u32) {
        let old = self.size[slot];
        if old == size {
            return;
        }
        self.size[slot] = size;
        let p = self.pos[slot];
        if self.dirty.is_some() || !self.adjust(p, need(old), need(size)) {
            self.mark(p);
        }
    }

    /// Leaf pages in all, after packing what changed.
    pub fn pages(&mut self) -> u32 {
        if let Some((first, last)) = self.dirty.take() {
            self.repack(first, last);
        }
        u32::try_from(self.pages.len()).unwrap_or(u32::MAX)
    }

    fn mark(&mut self, p: usize) {
        self.dirty = Some(match self.dirty {
            Some((a, b)) => (a.min(p), b.max(p)),
            None => (p, p),
        });
    }

    /// The page holding position `p` (the last one starting at or before it).
    fn page_at(&self, p: usize) -> Option<usize> {
        self.pages
            .partition_point(|pg| pg.start <= p)
            .checked_sub(1)
    }

    /// Applies the row at `p` needing `new` bytes instead of `old` when no page boundary
    /// moves; false when one may (the change is then packed again).
    fn adjust(&mut self, p: usize, old: u32, new: u32) -> bool {
        if old == new {
            return true;
        }
        if old == 0 || new == 0 {
            // The newest row, appended after every other: onto the last page or a new one.
            if old == 0 && p + 1 == self.order.len() {
                match self.pages.last_mut() {
                    Some(last) if last.used + new <= USABLE_PAGE_BYTES => last.used += new,
                    _ => self.pages.push(Page {
                        start: p,
                        used: new,
                    }),
                }
                return true;
            }
            return false;
        }
        let Some(at) = self.page_at(p) else {
            return false;
        };
        let used = self.pages[at].used - old + new;
        if new > old {
            // Every row of the page still fits; the next page's first row still does not.
            if used > USABLE_PAGE_BYTES {
                return false;
            }
        } else {
            // The next page's first row may fit now, or this row on the page before.
            if let Some(next) = self.pages.get(at + 1) {
                if used + need(self.size[self.order[next.start]]) <= USABLE_PAGE_BYTES {
                    return false;
                }
            }
            if p == self.pages[at].start
                && at > 0
                && self.pages[at - 1].used + new <= USABLE_PAGE_BYTES
            {
                return false;
            }
        }
        self.pages[at].used = used;
        true
    }

    /// Packs again from the page before the first changed row could join; past `last`
    /// (the last changed row) it stops at a page that starts where one started before.
    fn repack(&mut self, first: usize, last: usize) {
        let from = match self.page_at(first) {
            None => 0,
            // A page's first row may now fit on the page before it.
            Some(at) if self.pages[at].start == first => at.saturating_sub(1),
            Some(at) => at,
        };
        let begin = self.pages.get(from).map_or(0, |pg| pg.start.min(first));
        let mut fresh: Vec<Page> = Vec::new();
        let mut current: Option<Page> = None;
        let mut old = from;
        for q in begin..self.order.len() {
            let n = need(self.size[self.order[q]]);
            if n == 0 {
                continue;
            }
            match &mut current {
                Some(pg) if pg.used + n <= USABLE_PAGE_BYTES => pg.used += n,
                _ => {
                    if q > last {
                        while old < self.pages.len() && self.pages[old].start < q {
                            old += 1;
                        }
                        if self.pages.get(old).is_some_and(|pg| pg.start == q) {
                            fresh.extend(current);
                            self.pages.splice(from..old, fresh);
                            return;
                        }
                    }
                    fresh.extend(current.replace(Page { start: q, used: n }));
                }
            }
        }
        fresh.extend(current);
        self.pages.splice(from.., fresh);
    }
}

/// Bytes a row of `size` takes on a page with its slot (0: no row), as
/// `pages::LeafPacker::push` counts them.
fn need(size: u32) -> u32 {
    if size == 0 {
        0
    } else {
        size.saturating_add(SLOT_BYTES).min(USABLE_PAGE_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::pages::leaf_pages;

    /// Packing again only what changed gives the pages a packing from scratch gives.
    #[test]
    fn incremental_packing_matches_packing_from_scratch() {
        let mut state = 7u64;
        let mut rand = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let mut sizes: Vec<u32> = Vec::new();
        let mut packing = LeafPacking::default();
        for round in 0..20_000 {
            match rand(4) {
                0 | 1 => {
                    let slot = sizes.len();
                    sizes.push(rand(3000) as u32);
                    packing.append(slot);
                    packing.set_size(slot, sizes[slot]);
                }
                _ if !sizes.is_empty() => {
                    let slot = rand(sizes.len() as u64) as usize;
                    // Deleted rows (0) take no room; most changes are small.
                    sizes[slot] = match rand(6) {
                        0 => 0,
                        1 => rand(9000) as u32,
                        2 => sizes[slot].saturating_sub(rand(40) as u32),
                        3 => sizes[slot] + rand(40) as u32,
                        _ => rand(400) as u32 + 20,
                    };
                    packing.set_size(slot, sizes[slot]);
                }
                _ => {}
            }
            // Checked after every change, and after runs of changes packed at once.
            if round % 23 < 12 {
                let want = leaf_pages(sizes.iter().copied().filter(|&s| s > 0));
                assert_eq!(packing.pages(), want, "round {round}");
            }
        }
        let mut fresh = LeafPacking::default();
        fresh.rebuild(0..sizes.len(), &sizes);
        assert_eq!(fresh.pages(), packing.pages());
    }
}
