//! Stable sorting, compiled once.
//!
//! Every `sort_by` over a new element type or comparator compiles its own copy of the standard
//! library's stable sort, ~5 KB of wasm each; a dozen copies were ~60 KB of the full core. The
//! core's sorts run on short lists off the hot paths (object members with array-index keys,
//! tools, issues, permissions), so they share one: the indices are sorted through one
//! comparator type, then the items are moved into place.

use std::cmp::Ordering;

/// Sorts `items` as `slice::sort_by` does: stable, equal items keep their order.
pub(crate) fn sort_by<T>(items: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = sorted_indices(items.len(), &mut |a, b| cmp(&items[a], &items[b]));
    gather(items, order);
}

/// Sorts `items` by `key` as `slice::sort_by_key` does.
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` by their order, stable.
#[cfg_attr(not(feature = "schema"), allow(dead_code))]
pub(crate) fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// `0..len` sorted by `cmp`: the one instantiation of the standard library's sort.
fn sorted_indices(len: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Puts `items[order[k]]` at `k` for every `k`, in place: each cycle of the permutation is
/// walked once, by swaps.
fn gather<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at];
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort() {
        // Every permutation-with-ties of short lists, keyed on the first field only, so the
        // second field shows stability.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..40 {
            for _ in 0..50 {
                let items: Vec<(u8, usize)> = (0..len)
                    .map(|i| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        ((seed % 5) as u8, i)
                    })
                    .collect();
                let mut ours = items.clone();
                let mut std = items.clone();
                sort_by_key(&mut ours, |p| p.0);
                std.sort_by_key(|p| p.0);
                assert_eq!(ours, std);
                let mut ours = items.clone();
                let mut std = items;
                sort(&mut ours);
                std.sort();
                assert_eq!(ours, std);
            }
        }
    }
}
