//! `advertisePromptCapabilities(facts)`: the `promptCapabilities` an agent sends at
//! `initialize` (seed 003, case two: "capabilities are advertised honestly"). A capability is
//! true only when every fact behind it is known true; a fact that is missing, `null`, of
//! another type or otherwise unknown counts as false, so a client is never invited to send
//! what admission will refuse.
//!
//! Facts (all optional): `attachmentStore` (an attachment store is mounted), `providerResolved`,
//! `modelResolved` (booleans), `inputModalities` (the model's input modalities, a list of
//! strings, explicitly given), `storeMimeTypes` (the types the store accepts, a list of
//! strings), `embeddedContext` (the agent reads embedded resources, a boolean). An unknown
//! fact name is `OPTION_INVALID`: a typo must not pass for an unknown fact unnoticed.
//!
//! - `image`: store mounted, provider and model resolved, `inputModalities` includes `"image"`,
//!   and `storeMimeTypes` includes at least one of `admission::ALLOWED_IMAGE_TYPES`;
//! - `audio`: store mounted, provider and model resolved, `inputModalities` includes `"audio"`;
//! - `embeddedContext`: the fact `embeddedContext` is true.

use crate::error::{Code, ContractError, Result};
use crate::input::{HostValue, Kind};
use crate::value::{pointer_child, Value};

use super::admission::ALLOWED_IMAGE_TYPES;

pub const FACTS: [&str; 6] =
    ["attachmentStore", "providerResolved", "modelResolved", "inputModalities", "storeMimeTypes", "embeddedContext"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptCapabilities {
    pub image: bool,
    pub audio: bool,
    pub embedded_context: bool,
}

impl PromptCapabilities {
    pub fn into_value(self) -> Value {
        Value::Object(vec![
            ("image".to_owned(), Value::Bool(self.image)),
            ("audio".to_owned(), Value::Bool(self.audio)),
            ("embeddedContext".to_owned(), Value::Bool(self.embedded_context)),
        ])
    }
}

fn known_true<V: HostValue>(facts: &V, key: &str) -> Result<bool> {
    let v = facts.get(key).map_err(|f| f.at(&pointer_child("", key)))?;
    Ok(v.is_some_and(|v| v.kind() == Kind::Bool && v.boolean()))
}

/// Whether the list fact `key` is a list holding one of `wanted` (as a string element).
fn lists_any<V: HostValue>(facts: &V, key: &str, wanted: &[&str]) -> Result<bool> {
    let path = pointer_child("", key);
    let Some(list) = facts.get(key).map_err(|f| f.at(&path))? else { return Ok(false) };
    if list.kind() != Kind::Array {
        return Ok(false);
    }
    let len = list.len().map_err(|f| f.at(&path))?;
    for i in 0..len {
        let item = list.index(i).map_err(|f| f.at(&format!("{path}/{i}")))?;
        if item.kind() == Kind::String && wanted.contains(&item.string().as_str()) {
            return Ok(true);
        }
    }
    Ok(false)
}

pub fn advertise<V: HostValue>(facts: &V) -> Result<PromptCapabilities> {
    let none = PromptCapabilities { image: false, audio: false, embedded_context: false };
    match facts.kind() {
        Kind::Undefined | Kind::Null => return Ok(none),
        Kind::Object => {}
        _ => return Err(ContractError::new(Code::OptionInvalid, "", "facts must be an object")),
    }
    for key in facts.keys().map_err(|e| e.at(""))? {
        if !FACTS.contains(&key.as_str()) {
            return Err(ContractError::new(
                Code::OptionInvalid,
                pointer_child("", &key),
                format!("unknown fact {key:?} (known: {})", FACTS.join(", ")),
            ));
        }
    }
    let resolved = known_true(facts, "attachmentStore")?
        && known_true(facts, "providerResolved")?
        && known_true(facts, "modelResolved")?;
    Ok(PromptCapabilities {
        image: resolved
            && lists_any(facts, "inputModalities", &["image"])?
            && lists_any(facts, "storeMimeTypes", &ALLOWED_IMAGE_TYPES)?,
        audio: resolved && lists_any(facts, "inputModalities", &["audio"])?,
        embedded_context: known_true(facts, "embeddedContext")?,
    })
}
