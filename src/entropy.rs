//! Randomness for the schema engine's hash tables.
//!
//! boon hashes with ahash, whose keys come from getrandom. Natively (and under WASI) that is the
//! operating system. On wasm32-unknown-unknown the core has no imports, so getrandom's `custom`
//! backend (enabled in `.cargo/config.toml`) is implemented here and fed by the host: every host
//! calls `seed` with 32
//! bytes of its own randomness (`crypto.getRandomValues`, `os.urandom`) when it creates an
//! instance. Keys are therefore unpredictable per instance (a model cannot pre-compute colliding
//! keys for `uniqueItems`), and never a constant: an unseeded instance refuses to compile schemas
//! (`ensure_seeded`) instead of hashing with guessable keys.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod imp {
    use std::cell::Cell;

    thread_local! {
        /// xoshiro256** state; all zero until seeded.
        static STATE: Cell<[u64; 4]> = const { Cell::new([0; 4]) };
    }

    pub fn seed(bytes: &[u8]) -> bool {
        if bytes.len() < 16 {
            return false;
        }
        // Fold any length into 256 bits with SplitMix64, so every byte counts.
        let mut acc = [0x9e37_79b9_7f4a_7c15u64, 0xbf58_476d_1ce4_e5b9, 0x94d0_49bb_1331_11eb, 0x2545_f491_4f6c_dd1d];
        for (i, chunk) in bytes.chunks(8).enumerate() {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            let slot = i % 4;
            acc[slot] = splitmix(acc[slot] ^ u64::from_le_bytes(word));
        }
        if acc == [0; 4] {
            acc[0] = 1;
        }
        STATE.with(|s| {
            // Re-seeding mixes into the current state rather than replacing it.
            let old = s.get();
            let mut new = [0u64; 4];
            for i in 0..4 {
                new[i] = splitmix(acc[i] ^ old[i].rotate_left(17));
            }
            s.set(new);
        });
        true
    }

    pub fn is_seeded() -> bool {
        STATE.with(|s| s.get() != [0; 4])
    }

    fn splitmix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[cfg(feature = "schema")]
    fn next() -> u64 {
        STATE.with(|s| {
            let mut st = s.get();
            let result = st[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
            let t = st[1] << 17;
            st[2] ^= st[0];
            st[3] ^= st[1];
            st[1] ^= st[2];
            st[0] ^= st[3];
            st[2] ^= t;
            st[3] = st[3].rotate_left(45);
            s.set(st);
            result
        })
    }

    /// getrandom 0.3's custom backend (only the schema engine draws keys: the protocol build,
    /// without the `schema` feature, has no getrandom).
    ///
    /// # Safety
    /// Called by getrandom with a valid, writable `dest` of `len` bytes.
    #[cfg(feature = "schema")]
    #[no_mangle]
    unsafe extern "Rust" fn __getrandom_v03_custom(dest: *mut u8, len: usize) -> Result<(), getrandom::Error> {
        if !is_seeded() {
            return Err(getrandom::Error::UNSUPPORTED);
        }
        // SAFETY: getrandom passes a valid buffer of `len` bytes.
        let out = unsafe { std::slice::from_raw_parts_mut(dest, len) };
        for chunk in out.chunks_mut(8) {
            let word = next().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

// Natively, and under WASI (the `npx` build of the command line), getrandom has the system's own
// source.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod imp {
    pub fn seed(bytes: &[u8]) -> bool {
        bytes.len() >= 16
    }

    pub fn is_seeded() -> bool {
        true
    }
}

/// Feeds host randomness (at least 16 bytes; hosts give 32). Returns false when too short.
pub fn seed(bytes: &[u8]) -> bool {
    imp::seed(bytes)
}

/// Whether hash keys can be drawn (always true natively).
pub fn is_seeded() -> bool {
    imp::is_seeded()
}
