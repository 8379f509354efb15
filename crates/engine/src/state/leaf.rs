//! The clustered index's leaf pages, packed as `pages::LeafPacker` packs them, but kept
//! between statements: when rows change size, packing resumes at the first changed row
//! and stops as soon as a page fills exactly as before, instead of starting over.

use crate::state::pages::RowId;
use crate::state::pages::{SLOT_BYTES, USABLE_PAGE_BYTES};

/// Page fill before a row is placed when no page has been started yet.
const NO_PAGE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct LeafPacking {
    /// Slots in clustered order.
    order: Vec<RowId>,
    /// Each slot's position in `order`.
    pos: Vec<usize>,
    /// The size each slot is packed with (0: not on a page).
    size: Vec<u32>,
    /// Bytes used on the current page before the row at each position is placed.
    fill: Vec<u32>,
    /// Whether the row at each position starts a page.
    starts: Vec<bool>,
    /// Pages in all (rows that start one).
    pages: u32,
    /// Positions changed since the last packing: (first, last).
    dirty: Option<(usize, usize)>,
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
        self.fill = vec![NO_PAGE; self.order.len()];
        self.starts = vec![false; self.order.len()];
        self.pages = 0;
        self.dirty = None;
        self.repack(0, 0, true);
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
        self.fill.push(NO_PAGE);
        self.starts.push(false);
        self.mark(self.order.len() - 1);
    }

    pub fn set_size(&mut self, slot: RowId, size: u32) {
        if self.size[slot] != size {
            self.size[slot] = size;
            self.mark(self.pos[slot]);
        }
    }

    /// Leaf pages in all, after packing what changed.
    pub fn pages(&mut self) -> u32 {
        if let Some((first, last)) = self.dirty.take() {
            self.repack(first, last, false);
        }
        self.pages
    }

    fn mark(&mut self, p: usize) {
        self.dirty = Some(match self.dirty {
            Some((a, b)) => (a.min(p), b.max(p)),
            None => (p, p),
        });
    }

    /// Packs again from position `first`; past `last` (the last changed row) it stops
    /// where a row meets the page fill it met before, since all that follows is the same.
    fn repack(&mut self, first: usize, last: usize, all: bool) {
        // The fill the row before `first` left (it has not changed).
        let mut fill = match first.checked_sub(1) {
            None => NO_PAGE,
            Some(prev) => place(self.fill[prev], self.size[self.order[prev]]).0,
        };
        for p in first..self.order.len() {
            if !all && p > last && self.fill[p] == fill {
                return;
            }
            self.fill[p] = fill;
            let starts;
            (fill, starts) = place(fill, self.size[self.order[p]]);
            if starts != self.starts[p] {
                self.starts[p] = starts;
                if starts {
                    self.pages += 1;
                } else {
                    self.pages -= 1;
                }
            }
        }
    }
}

/// Places a row of `size` bytes (0: no row) on a page filled to `fill`: the fill after
/// it, and whether it starts a new page (as `pages::LeafPacker::push`).
fn place(fill: u32, size: u32) -> (u32, bool) {
    if size == 0 {
        return (fill, false);
    }
    let need = size.saturating_add(SLOT_BYTES).min(USABLE_PAGE_BYTES);
    if fill == NO_PAGE || fill.saturating_add(need) > USABLE_PAGE_BYTES {
        (need, true)
    } else {
        (fill + need, false)
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
        for round in 0..3000 {
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
                    sizes[slot] = match rand(3) {
                        0 => 0,
                        _ => rand(400) as u32 + 20,
                    };
                    packing.set_size(slot, sizes[slot]);
                }
                _ => {}
            }
            if round % 7 == 0 {
                let want = leaf_pages(sizes.iter().copied().filter(|&s| s > 0));
                assert_eq!(packing.pages(), want, "round {round}");
            }
        }
        let mut fresh = LeafPacking::default();
        fresh.rebuild(0..sizes.len(), &sizes);
        assert_eq!(fresh.pages(), packing.pages());
    }
}
