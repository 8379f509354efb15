//! The global allocator of the `lockstep` binary and the benchmarks: mimalloc (v2), with
//! its plain `mi_malloc` for every ordinary layout. The `mimalloc` crate's wrapper asks
//! for `mi_malloc_aligned` even at alignment 8, and that path was 3–5 % of a run's
//! instructions (ARCHITECTURE.md, Speed).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// Alignment `mi_malloc` guarantees for every block (`MI_MAX_ALIGN_SIZE`).
const MI_MIN_ALIGN: usize = 16;

pub struct MiMalloc;

/// Whether `mi_malloc`'s own alignment already satisfies `align` for `size` bytes.
fn plain(align: usize, size: usize) -> bool {
    align <= MI_MIN_ALIGN && align <= size
}

// SAFETY: every block comes from mimalloc and goes back to it; `plain` picks the
// unaligned calls only where mimalloc's guaranteed alignment covers the layout's.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align(), layout.size()) {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align(), layout.size()) {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain(layout.align(), new_size) {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MiMalloc;
    use std::alloc::{GlobalAlloc, Layout};

    /// Blocks of every alignment up to a page come back aligned and usable, grown too.
    #[test]
    fn blocks_are_aligned_as_asked() {
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1usize, 7, 8, 24, 100, 5000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let p = MiMalloc.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size} align {align}");
                    p.write_bytes(0xAB, size);
                    let q = MiMalloc.realloc(p, layout, size * 3);
                    assert_eq!(q as usize % align, 0, "grown: size {size} align {align}");
                    assert_eq!(*q, 0xAB);
                    MiMalloc.dealloc(q, Layout::from_size_align(size * 3, align).unwrap());
                    let z = MiMalloc.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!((0..size).all(|k| *z.add(k) == 0));
                    MiMalloc.dealloc(z, layout);
                }
            }
        }
    }
}
