//! Verdicts: what a parse of an action or a decision kept, in a form small enough to cross to a
//! host in one number, for hosts that already hold the values the result is made of (the JS
//! object the rules read, the text the strict parser accepted).
//!
//! A verdict is an index into `SHAPES`. A shape lists, in result order, the members the result
//! has: a name alone is a member taken as it is from the value the host holds (a string, or a
//! value the core copied); `[name, item shape]` is a list whose items are built with the item
//! shape. The table is written here, once, from the same field lists the parsers use, and a host
//! reads it at load (`shapes_value`); which variant a value is, which fields survive and every
//! accept / reject decision stay in the parsers. `tests/verdict_properties.rs` checks that
//! building the result from the accepted value with the verdict's shape gives exactly
//! `into_value()`.

use crate::protocol::action::{fields_of, AgentAction, ACTION_TYPES};
use crate::protocol::decision::{Decision, CALL_FIELDS};
use crate::value::Value;

/// One member of a result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Member {
    /// Taken as it is.
    Copy(&'static str),
    /// A list, each item built with the shape.
    List(&'static str, &'static [Member]),
}

const CALL: [Member; 3] = [Member::Copy(CALL_FIELDS[0]), Member::Copy(CALL_FIELDS[1]), Member::Copy(CALL_FIELDS[2])];
const DECISION_TOOL: [Member; 2] = [Member::Copy("kind"), Member::List("calls", &CALL)];
const DECISION_FINAL: [Member; 2] = [Member::Copy("kind"), Member::Copy("answer")];

/// Verdict numbers: actions first, in `ACTION_TYPES` order, then decisions.
pub const DECISION_TOOL_VERDICT: u32 = ACTION_TYPES.len() as u32;
pub const DECISION_FINAL_VERDICT: u32 = DECISION_TOOL_VERDICT + 1;

/// The shape of verdict `v` (`None` past the table).
pub fn shape(v: u32) -> Option<Vec<Member>> {
    let v = v as usize;
    if v < ACTION_TYPES.len() {
        let mut members = vec![Member::Copy("type")];
        members.extend(fields_of(ACTION_TYPES[v]).iter().map(|f| Member::Copy(f)));
        return Some(members);
    }
    match v - ACTION_TYPES.len() {
        0 => Some(DECISION_TOOL.to_vec()),
        1 => Some(DECISION_FINAL.to_vec()),
        _ => None,
    }
}

/// The number of verdicts.
pub const COUNT: u32 = DECISION_FINAL_VERDICT + 1;

pub fn action_verdict(action: &AgentAction) -> u32 {
    let name = action.type_name();
    ACTION_TYPES.iter().position(|t| *t == name).unwrap_or(0) as u32
}

pub fn decision_verdict(decision: &Decision) -> u32 {
    match decision {
        Decision::Tool { .. } => DECISION_TOOL_VERDICT,
        Decision::Final { .. } => DECISION_FINAL_VERDICT,
    }
}

fn member_value(m: &Member) -> Value {
    match m {
        Member::Copy(name) => Value::String((*name).to_owned()),
        Member::List(name, item) => {
            Value::Array(vec![Value::String((*name).to_owned()), Value::Array(item.iter().map(member_value).collect())])
        }
    }
}

/// The whole table, as hosts read it once: `[[member, ...], ...]` indexed by verdict, a member
/// being a name or `[name, [member, ...]]`.
pub fn shapes_value() -> Value {
    Value::Array((0..COUNT).filter_map(shape).map(|s| Value::Array(s.iter().map(member_value).collect())).collect())
}

/// The result a host builds: `shape` applied to `source` (the value the core accepted, as the
/// host holds it). `None` when `source` lacks a member the shape names, which a verdict the
/// core gave for that very value never does.
pub fn build(source: &Value, shape: &[Member]) -> Option<Value> {
    let mut entries = Vec::with_capacity(shape.len());
    for m in shape {
        match m {
            Member::Copy(name) => entries.push(((*name).to_owned(), source.get(name)?.clone())),
            Member::List(name, item) => {
                let Value::Array(items) = source.get(name)? else { return None };
                let built = items.iter().map(|i| build(i, item)).collect::<Option<Vec<_>>>()?;
                entries.push(((*name).to_owned(), Value::Array(built)));
            }
        }
    }
    Some(Value::Object(entries))
}
