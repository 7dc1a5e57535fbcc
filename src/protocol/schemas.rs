//! `protocolSchemas()`: the protocol as JSON Schema (draft 2020-12), written once, in
//! `schemas.json` beside this file: the action, the decision, the message, the session entry
//! and the agent event, as the parsers read them by default (unknown fields allowed where the
//! parser drops them, refused where it refuses them), plus `strict`: the action and the decision
//! in the form OpenAI structured outputs accept (`strictSchemaIssues` finds nothing in them: one
//! object with every field required, the fields another kind uses `null`).
//!
//! The file keeps the shared definitions (`defs`: non-blank strings, counts, timestamps, content
//! blocks, messages, tool results) once; each schema gets them as its `$defs`. What a schema
//! cannot say (the `undefined` state, values JSON cannot write, the limits, rules between
//! values such as unique call ids) is listed in `docs/semantics.md`, and
//! `tests/protocol_schemas.rs` checks the schemas against every fixture of the parsers.

use crate::input::limits::Limits;
use crate::json::{self, Mode};
use crate::value::Value;

const SOURCE: &str = include_str!("schemas.json");

/// The names of the schemas, in the order they are returned.
pub const NAMES: [&str; 5] = ["action", "decision", "message", "sessionEntry", "event"];

/// `{action, decision, message, sessionEntry, event, strict: {action, decision}}`.
pub fn protocol_schemas() -> Value {
    let doc = json::parse(SOURCE.as_bytes(), Mode::Strict, &Limits::ceilings()).expect("schemas.json is strict JSON");
    let defs = doc.get("defs").cloned().expect("schemas.json has defs");
    let mut out = Vec::with_capacity(NAMES.len() + 1);
    for name in NAMES {
        let Some(Value::Object(mut members)) = doc.get("schemas").and_then(|s| s.get(name)).cloned() else {
            panic!("schemas.json has no schema {name}")
        };
        members.push(("$defs".to_owned(), defs.clone()));
        out.push((name.to_owned(), Value::Object(members)));
    }
    out.push(("strict".to_owned(), doc.get("strict").cloned().expect("schemas.json has strict")));
    Value::Object(out)
}
