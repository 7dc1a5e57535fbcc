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

// The standard allocator's entry points, each called from one place: inlined into every method
// below, its code was in the wasm four times (+18 KB gzipped).
#[inline(never)]
fn system_alloc(layout: Layout) -> *mut u8 {
    // SAFETY: the caller's layout, as GlobalAlloc::alloc received it (or the reserve's).
    unsafe { System.alloc(layout) }
}

#[inline(never)]
fn system_realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    // SAFETY: as GlobalAlloc::realloc received them.
    unsafe { System.realloc(ptr, layout, new_size) }
}

#[inline(never)]
fn system_dealloc(ptr: *mut u8, layout: Layout) {
    // SAFETY: as GlobalAlloc::dealloc received them (or the reserve's block and layout).
    unsafe { System.dealloc(ptr, layout) }
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
        let block = system_alloc(layout);
        if !block.is_null() {
            system_dealloc(block, layout);
        }
    }
}

/// One allocation: `grew` when it took more memory from the host.
fn counted(allocate: impl FnOnce() -> *mut u8) -> *mut u8 {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    let before = pages();
    let p = allocate();
    if pages() != before {
        grew();
    }
    p
}

// SAFETY: every allocation is System's; this only adds a block allocated and freed at once.
// alloc_zeroed is GlobalAlloc's own (alloc, then zeroing), so the allocator appears once.
unsafe impl GlobalAlloc for Growing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(|| system_alloc(layout))
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        counted(|| system_realloc(ptr, layout, new_size))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        system_dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Growing = Growing;
