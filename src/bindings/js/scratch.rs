//! Strings from JS into the core through one reused buffer in wasm memory, cheaper per short
//! string than wasm-bindgen's passing (an allocation in wasm from JS, a copy, the pointer and length
//! written back, the allocation freed by the core). js_host.js writes a short string straight
//! into the buffer (ASCII unit by unit, other text by `TextEncoder.encodeInto`) and answers its
//! UTF-8 length.
//!
//! The buffer is taken out of its cell for the call and put back after, so a call the caller's
//! code makes into the package meanwhile (a getter, a Proxy trap) finds no buffer and uses one of
//! its own, and no borrow is ever held across user code. A string that does not fit, or a buffer
//! whose memory grew meanwhile (the view is then detached), crosses the usual way.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

/// ASCII strings of up to this many units go through the buffer, others of up to a third.
const LEN: usize = 4096;

thread_local! {
    /// The buffer and this instance's JS view of the memory it lives in.
    static SCRATCH: Cell<Option<(Vec<u8>, JsValue)>> = const { Cell::new(None) };
}

#[wasm_bindgen(module = "/src/bindings/js_host.js")]
extern "C" {
    #[wasm_bindgen(js_name = readOwnStringInto)]
    fn read_own_string_into(node: &JsValue, key: &JsValue, cap: f64, memory: &JsValue, ptr: u32, len: u32) -> i32;
    #[wasm_bindgen(js_name = encodeShort)]
    fn encode_short(s: &JsValue, memory: &JsValue, ptr: u32, len: u32) -> i32;
    #[wasm_bindgen(js_name = memoryView)]
    fn memory_view(within: &mut [u8]) -> JsValue;
}

/// The JS view of the memory is detached (memory grew).
const NO_VIEW: i32 = -3;

/// Runs `f` with the buffer (its JS memory view, address and length) and gives back what it
/// answers, the buffer returned to its cell; a detached view is replaced for the next call.
fn with_buffer<R>(f: impl FnOnce(&[u8], &JsValue, u32, u32) -> (R, i32)) -> R {
    let (mut buf, mut view) = SCRATCH.take().unwrap_or_else(|| {
        let mut buf = vec![0; LEN];
        let view = memory_view(&mut buf);
        (buf, view)
    });
    let (r, code) = f(&buf, &view, buf.as_ptr() as usize as u32, buf.len() as u32);
    if code == NO_VIEW {
        view = memory_view(&mut buf);
    }
    SCRATCH.set(Some((buf, view)));
    r
}

fn text(buf: &[u8], n: i32) -> String {
    // js_host.js wrote well-formed UTF-16 as UTF-8: this never replaces anything, and the checked
    // conversion is cheaper than the lossy one's chunking.
    let bytes = &buf[..n as usize];
    std::str::from_utf8(bytes).map_or_else(|_| String::from_utf8_lossy(bytes).into_owned(), str::to_owned)
}

/// What `readOwnStringInto` answers: the string, or where the reader put what it found.
pub(super) enum Read {
    String(String),
    /// Not a well-formed string: its kind for `takeLastKind()`, the value for `takeLast()`.
    Other,
    /// A well-formed string that did not go into the buffer: in `takeLast()`.
    Whole,
}

/// `Err` when the caller's code threw (`takeThrown()` holds it).
pub(super) fn read_own_string(node: &JsValue, key: &JsValue, cap: f64) -> Result<Read, ()> {
    with_buffer(|buf, view, ptr, len| match read_own_string_into(node, key, cap, view, ptr, len) {
        n if n >= 0 => (Ok(Read::String(text(buf, n))), n),
        -1 => (Ok(Read::Other), -1),
        -4 => (Err(()), -4),
        n => (Ok(Read::Whole), n),
    })
}

/// A well-formed JS string as Rust text, through the buffer when it goes in.
pub(super) fn short_string(s: &JsValue) -> Option<String> {
    with_buffer(|buf, view, ptr, len| match encode_short(s, view, ptr, len) {
        n if n >= 0 => (Some(text(buf, n)), n),
        n => (None, n),
    })
}

thread_local! {
    /// JS strings of the last few member names read that are no rule's (the keys of copied
    /// values, such as a tool input's): the same names come back call after call, and making a
    /// JS string from Rust text is a crossing plus a decode.
    static RECENT_KEYS: std::cell::RefCell<(Vec<(String, JsValue)>, usize)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
}

const RECENT: usize = 32;
const RECENT_KEY_BYTES: usize = 48;

pub(super) fn recent_key(key: &str) -> JsValue {
    if key.len() > RECENT_KEY_BYTES {
        return JsValue::from_str(key);
    }
    RECENT_KEYS.with(|cell| {
        let (keys, next) = &mut *cell.borrow_mut();
        if let Some((_, v)) = keys.iter().find(|(k, _)| k == key) {
            return v.clone();
        }
        let v = JsValue::from_str(key);
        if keys.len() < RECENT {
            keys.push((key.to_owned(), v.clone()));
        } else {
            keys[*next] = (key.to_owned(), v.clone());
            *next = (*next + 1) % RECENT;
        }
        v
    })
}
