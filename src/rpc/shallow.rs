//! The envelope of a message whose text `json::check` accepted, without building its value:
//! the members a classification reads (`jsonrpc`, `id`, `method`, `error`) are parsed from
//! their own spans, `params` and `result` stand for their kind only (an empty array or object,
//! or the scalar itself), and a batch's elements are read the same way. The text is known to be
//! one valid I-JSON value, so spans are found by skipping strings and counting brackets; every
//! piece parsed again is a valid value on its own. `classify` on the envelope gives exactly
//! what it gives on the whole value (the property tests compare both).

use crate::input::limits::Limits;
use crate::json::{self, Mode};
use crate::value::Value;

/// The envelope of `text` (valid strict JSON), or `None` if a piece does not parse (never for
/// text `check` accepted; the caller then parses the whole text).
pub fn envelope(text: &[u8]) -> Option<Value> {
    let limits = Limits::ceilings();
    let mut i = skip_ws(text, 0);
    match text.get(i)? {
        b'[' => {
            let mut items = Vec::new();
            i = skip_ws(text, i + 1);
            if text.get(i) == Some(&b']') {
                return Some(Value::Array(items));
            }
            loop {
                let end = value_end(text, i)?;
                items.push(element(&text[i..end], &limits)?);
                i = skip_ws(text, end);
                match text.get(i)? {
                    b',' => i = skip_ws(text, i + 1),
                    b']' => return Some(Value::Array(items)),
                    _ => return None,
                }
            }
        }
        _ => element(&text[i..], &limits),
    }
}

/// One message: an object's envelope members; anything else parsed whole (a scalar, or an
/// array, which is an invalid element whatever it holds: parsed as an empty array).
fn element(text: &[u8], limits: &Limits) -> Option<Value> {
    let i = skip_ws(text, 0);
    match text.get(i)? {
        b'{' => object(text, i, limits),
        b'[' => Some(Value::Array(Vec::new())),
        _ => json::parse(text, Mode::Strict, limits).ok(),
    }
}

fn object(text: &[u8], start: usize, limits: &Limits) -> Option<Value> {
    let mut members = Vec::new();
    let mut i = skip_ws(text, start + 1);
    if text.get(i) == Some(&b'}') {
        return Some(Value::Object(members));
    }
    loop {
        let key_end = string_end(text, i)?;
        let Value::String(key) = json::parse(&text[i..key_end], Mode::Strict, limits).ok()? else { return None };
        i = skip_ws(text, key_end);
        if text.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(text, i + 1);
        let end = value_end(text, i)?;
        let span = &text[i..end];
        let value = match (key.as_str(), span[0]) {
            ("params" | "result", b'[') => Value::Array(Vec::new()),
            ("params" | "result", b'{') => Value::Object(Vec::new()),
            ("params" | "result", _) => json::parse(span, Mode::Strict, limits).ok()?,
            ("jsonrpc" | "id" | "method" | "error", _) => json::parse(span, Mode::Strict, limits).ok()?,
            _ => Value::Null, // not read by a classification
        };
        members.push((key, value));
        i = skip_ws(text, end);
        match text.get(i)? {
            b',' => i = skip_ws(text, i + 1),
            b'}' => return Some(Value::Object(members)),
            _ => return None,
        }
    }
}

fn skip_ws(text: &[u8], mut i: usize) -> usize {
    while matches!(text.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (its opening quote).
fn string_end(text: &[u8], i: usize) -> Option<usize> {
    if text.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        match text.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// The end of the value starting at `i`.
fn value_end(text: &[u8], i: usize) -> Option<usize> {
    match text.get(i)? {
        b'"' => string_end(text, i),
        b'[' | b'{' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match text.get(j)? {
                    b'"' => {
                        j = string_end(text, j)?;
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while !matches!(text.get(j), None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')) {
                j += 1;
            }
            Some(j)
        }
    }
}
