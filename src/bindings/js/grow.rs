//! The JS build's global allocator: the standard one (dlmalloc), asking V8 for memory in larger
//! steps while a call takes memory fast.
//!
//! dlmalloc grows a wasm memory by what the allocation at hand lacks, rounded to 64 KiB, so a
//! call that builds a large value grows it hundreds of times (a 2 MB registry: ~1,200). In V8
//! each `memory.grow` replaces the memory's `ArrayBuffer` and reports external memory, which
//! starts garbage collections: measured in Node, 1,200 grows of 64 KiB took 430-770 ms, ten
//! grows to the same size with every page touched ~190 ms. So when an allocation grows the
//! memory within `BURST` allocations of the previous growth, an eighth of the memory more is
//! taken at once and given back to the allocator at once: dlmalloc merges the freed block into
//! its top chunk (a wasm memory never shrinks, so nothing is returned to the host) and serves
//! the next allocations from it. An occasional growth (a long-lived instance taking a little
//! more now and then) is left as it was.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Growing;

/// Allocations so far, and their count when the memory last grew.
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static LAST_GROWTH: AtomicUsize = AtomicUsize::new(0);
/// Two growths this close (in allocations) are a call taking memory fast.
const BURST: usize = 4096;

fn pages() -> usize {
    core::arch::wasm32::memory_size(0)
}

/// After an allocation that grew the memory: the same again for an eighth of the memory, freed
/// at once, when the previous growth was recent.
fn grew() {
    let now = ALLOCATIONS.load(Ordering::Relaxed);
    let last = LAST_GROWTH.swap(now, Ordering::Relaxed);
    if now.wrapping_sub(last) > BURST {
        return;
    }
    let bytes = pages() * 65536 / 8;
    if let Ok(layout) = Layout::from_size_align(bytes, 16) {
        // SAFETY: a non-zero size (the memory holds at least one page), freed with its layout.
        unsafe {
            let block = System.alloc(layout);
            if !block.is_null() {
                System.dealloc(block, layout);
            }
        }
    }
}

// SAFETY: every allocation is System's; this only adds a block allocated and freed at once.
unsafe impl GlobalAlloc for Growing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        let before = pages();
        let p = unsafe { System.alloc(layout) };
        if pages() != before {
            grew();
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        let before = pages();
        let p = unsafe { System.alloc_zeroed(layout) };
        if pages() != before {
            grew();
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        let before = pages();
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if pages() != before {
            grew();
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Growing = Growing;
