//! A table stored as a heap: its row versions in write order on 8 KB pages, which a
//! scan reads whole, the pages of dead versions included, for a dialect whose tables
//! are stored so (`Rules::version_bytes` sizes each version).
//!
//! An UPDATE writes a new version and leaves the old one where it was; neither it nor a
//! DELETE frees space until VACUUM. A version goes on the last page when it fits there,
//! else on a new page (a full page's space is reused only once VACUUM has freed it).

/// Bytes of a page.
const PAGE_BYTES: u32 = 8_192;
/// The page header.
const PAGE_HEADER_BYTES: u32 = 24;

/// The heap of one table: pages in use, the free bytes on the last one, and the bytes
/// VACUUM freed on the others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heap {
    pages: u32,
    last_free: u32,
    reusable: u64,
    /// Bytes of every version on the heap, live or dead.
    stored: u64,
    /// Versions written so far: the next one's place in a sequential scan's order.
    written: u64,
}

impl Heap {
    /// Versions of `bytes` (with their slots) one page holds: rows are written page
    /// after page, each page filled first.
    pub fn per_page(bytes: u32) -> u32 {
        ((PAGE_BYTES - PAGE_HEADER_BYTES) / bytes.max(1)).max(1)
    }

    /// Pages a sequential scan reads (at least one: the scan opens the heap).
    pub fn pages(&self) -> u32 {
        self.pages.max(1)
    }

    /// A new version of `bytes` (with its slot on the page) is written; returns its
    /// place in the order a sequential scan meets versions. (A version that reuses space
    /// VACUUM freed is still placed after the others: the model does not keep which
    /// page's space it takes.)
    pub fn write(&mut self, bytes: u32) -> u64 {
        self.written += 1;
        self.stored += u64::from(bytes);
        if u64::from(bytes) <= self.reusable {
            self.reusable -= u64::from(bytes);
        } else if bytes <= self.last_free && self.pages > 0 {
            self.last_free -= bytes;
        } else {
            self.pages += 1;
            self.last_free = (PAGE_BYTES - PAGE_HEADER_BYTES).saturating_sub(bytes);
        }
        self.written
    }

    /// VACUUM: the dead versions' space (all but `live` bytes) can take new versions. The
    /// pages stay: VACUUM returns only empty pages at the end, which this model never has.
    pub fn vacuum(&mut self, live: u64) {
        let dead = self.stored.saturating_sub(live);
        self.reusable += dead;
        self.stored = live;
    }

    /// Empty again (TRUNCATE).
    pub fn clear(&mut self) {
        *self = Heap::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updated_rows_leave_their_old_versions_until_vacuum() {
        let mut heap = Heap::default();
        // 44-byte versions: 185 to a page.
        for _ in 0..20_040 {
            heap.write(44);
        }
        assert_eq!(heap.pages(), 109);
        for _ in 0..20_000 {
            heap.write(44);
        }
        assert_eq!(heap.pages(), 217);
        heap.vacuum(20_040 * 44);
        heap.write(52);
        assert_eq!(heap.pages(), 217, "the new version takes freed space");
        heap.clear();
        assert_eq!(heap.pages(), 1);
    }
}
