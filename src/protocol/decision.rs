//! Decisions: what a model's turn resolves to once its output is assembled (seed 002 §3, §5.1).
//!
//! A closed union, with unknown fields rejected at every level:
//! `{kind: "tool", calls: [{callId, name, arguments}, ...]}` (1 to `maxCalls` calls, unique
//! `callId`s) or `{kind: "final", answer}`. An object carrying both `calls` and `answer` is
//! `AMBIGUOUS_DECISION`: the caller may ask the model once more to choose (seed §9.3). Shape
//! errors are reported in the `schema` layer (seed §8.2); whether the tool exists, whether its
//! arguments match its `inputSchema` and whether policy allows the call are domain questions for
//! later layers: `name` is any non-blank string here.
//!
//! `answer` is a non-blank string by default. `AnswerRule::Json` is the seam for application
//! output schemas: any JSON value, judged by a check the caller supplies (the JSON Schema engine,
//! when it lands, plugs in here; see `docs/decisions.md`).

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{is_blank, kind_name, Field, Reader, Source};
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Path, Undefined};
use crate::json::{self, Mode};
use crate::value::{pointer_child, pointer_index, take_member, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    pub call_id: String,
    pub name: String,
    /// A JSON object (pure JSON: no undefined anywhere inside).
    pub arguments: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// One or more calls, in the order given.
    Tool { calls: Vec<ToolCall> },
    /// A string under `AnswerRule::Text`; any JSON value under `AnswerRule::Json`.
    Final { answer: Value },
}

/// How the `answer` of a `final` decision is judged.
pub enum AnswerRule<'a> {
    /// A non-blank string, returned as given (the seed's `answer: string, minLength 1`).
    Text,
    /// Any JSON value, then `check` (an application output schema). Errors `check` returns have
    /// paths relative to the answer; they are reported under `/answer`, in their own layer.
    Json(&'a dyn Fn(&Value) -> Result<()>),
}

impl Decision {
    pub fn kind_name(&self) -> &'static str {
        match self {
            Decision::Tool { .. } => "tool",
            Decision::Final { .. } => "final",
        }
    }

    /// The result object every host returns: `{kind, calls}` or `{kind, answer}`.
    pub fn into_value(self) -> Value {
        let kind = ("kind".to_owned(), Value::String(self.kind_name().to_owned()));
        match self {
            Decision::Tool { calls } => Value::Object(vec![
                kind,
                (
                    "calls".to_owned(),
                    Value::Array(
                        calls
                            .into_iter()
                            .map(|c| {
                                Value::Object(vec![
                                    ("callId".to_owned(), Value::String(c.call_id)),
                                    ("name".to_owned(), Value::String(c.name)),
                                    ("arguments".to_owned(), c.arguments),
                                ])
                            })
                            .collect(),
                    ),
                ),
            ]),
            Decision::Final { answer } => Value::Object(vec![kind, ("answer".to_owned(), answer)]),
        }
    }
}

const KINDS: [&str; 2] = ["tool", "final"];
pub(crate) const CALL_FIELDS: [&str; 3] = ["callId", "name", "arguments"];

pub fn parse_decision<V: HostValue>(value: &V, options: &Options) -> Result<Decision> {
    parse_decision_with(value, options, &AnswerRule::Text)
}

pub fn parse_decision_json(text: &[u8], options: &Options) -> Result<Decision> {
    parse_decision_json_with(text, options, &AnswerRule::Text)
}

pub fn parse_decision_with<V: HostValue>(value: &V, options: &Options, rule: &AnswerRule<'_>) -> Result<Decision> {
    let decision = parse_with(value, options, Source::Host, rule)?;
    check_answer(decision, rule)
}

pub fn parse_decision_json_with(text: &[u8], options: &Options, rule: &AnswerRule<'_>) -> Result<Decision> {
    let mut document = json::parse(text, Mode::Strict, &options.limits)?;
    let mut decision = parse_with(&&document, options, Source::StrictText, rule)?;
    // The parser proved size, depth and JSON-ness: move the nested values out of the document.
    match &mut decision {
        Decision::Tool { calls } => {
            if let Value::Array(items) = take_member(&mut document, "calls") {
                for (call, mut item) in calls.iter_mut().zip(items) {
                    call.arguments = take_member(&mut item, "arguments");
                }
            }
        }
        Decision::Final { answer } => {
            if let AnswerRule::Json(_) = rule {
                *answer = take_member(&mut document, "answer");
            }
        }
    }
    check_answer(decision, rule)
}

/// `parse_decision_json`'s verdict (`protocol::verdict`), from the text's upper three levels:
/// the rules read only the kind of a call's `arguments` (and of a final `answer` below its
/// first level), whose values a host takes from the text it holds.
pub fn decision_json_verdict(text: &[u8], options: &Options) -> Result<u32> {
    let document = json::parse_levels(text, &options.limits, 3)?;
    let decision = parse_with(&&document, options, Source::StrictText, &AnswerRule::Text)?;
    Ok(crate::protocol::verdict::decision_verdict(&decision))
}

fn check_answer(decision: Decision, rule: &AnswerRule<'_>) -> Result<Decision> {
    if let (Decision::Final { answer }, AnswerRule::Json(check)) = (&decision, rule) {
        check(answer).map_err(|mut e| {
            e.path.insert_str(0, "/answer");
            e
        })?;
    }
    Ok(decision)
}

fn parse_with<V: HostValue>(value: &V, options: &Options, source: Source, rule: &AnswerRule<'_>) -> Result<Decision> {
    let mut r = Reader::new(Layer::Schema, &options.limits, source);
    if value.kind() != Kind::Object {
        return Err(r.error(
            Code::DecisionNotObject,
            "",
            format!("a decision must be a plain object, got {}", kind_name(value, value.kind())),
        ));
    }
    r.budget.charge(1)?;
    // One listing of the keys serves the ambiguity and unknown-field checks (getters are not run).
    let keys = r.keys(value, "")?;
    let has = |name: &str| keys.iter().any(|k| k == name);
    if has("calls") && has("answer") {
        return Err(r.error(
            Code::AmbiguousDecision,
            "",
            "a decision has both calls and answer: it must be either {kind: \"tool\", calls} or {kind: \"final\", answer}",
        ));
    }

    let kind = text(&mut r, value, "kind", "", Code::FieldEmpty)?;
    if !KINDS.contains(&kind.as_str()) {
        return Err(r.error(
            Code::DecisionKindUnknown,
            "/kind",
            format!("unknown decision kind {kind:?}; expected \"tool\" or \"final\""),
        ));
    }
    let field = if kind == "tool" { "calls" } else { "answer" };
    for key in &keys {
        if key != "kind" && key != field {
            return Err(unknown_field(&r, "", key, &format!("a {kind} decision")));
        }
    }

    if kind == "final" {
        let answer = match rule {
            AnswerRule::Text => Value::String(text(&mut r, value, "answer", "", Code::FieldEmpty)?),
            AnswerRule::Json(_) => match member(&mut r, value, "answer", "")? {
                Field::Missing => return Err(missing(&r, "/answer", "answer")),
                Field::Undefined => return Err(r.undefined("/answer", "answer")),
                Field::Present(v) => r.copy_at(&v, "/answer", Undefined::Reject, 1)?,
            },
        };
        return Ok(Decision::Final { answer });
    }

    let list = match member(&mut r, value, "calls", "")? {
        Field::Missing => return Err(missing(&r, "/calls", "calls")),
        Field::Undefined => return Err(r.undefined("/calls", "calls")),
        Field::Present(v) => v,
    };
    if list.kind() != Kind::Array {
        return Err(r.error(
            Code::FieldType,
            "/calls",
            format!("calls must be an array, got {}", kind_name(&list, list.kind())),
        ));
    }
    too_deep(&r, "/calls", 2)?;
    let len = list.len().map_err(|f| f.at("/calls"))?;
    r.limits.check_array(len, "/calls")?;
    r.budget.charge(1)?;
    r.budget.check_room(len)?;
    if len == 0 {
        return Err(r.error(Code::FieldEmpty, "/calls", "calls must hold at least one call"));
    }
    if len > options.max_calls {
        return Err(r.error(
            Code::DecisionTooManyCalls,
            "/calls",
            format!("{len} calls is more than maxCalls ({})", options.max_calls),
        ));
    }
    let mut calls: Vec<ToolCall> = Vec::with_capacity(len);
    for i in 0..len {
        let path = pointer_index("/calls", i);
        let item = list.index(i).map_err(|f| f.at(&path))?;
        let call = read_call(&mut r, &item, &path, &calls)?;
        calls.push(call);
    }
    Ok(Decision::Tool { calls })
}

/// One call, its fields read in order `callId` (unique among `earlier`), `name`, `arguments`.
fn read_call<V: HostValue>(r: &mut Reader<'_>, item: &V, path: &str, earlier: &[ToolCall]) -> Result<ToolCall> {
    if item.kind() != Kind::Object {
        return Err(r.error(
            Code::FieldType,
            path,
            format!("a call must be an object {{callId, name, arguments}}, got {}", kind_name(item, item.kind())),
        ));
    }
    too_deep(r, path, 3)?;
    r.budget.charge(1)?;
    for key in r.keys(item, path)? {
        if !CALL_FIELDS.contains(&key.as_str()) {
            return Err(unknown_field(r, path, &key, "a call"));
        }
    }
    let call_id = text(r, item, "callId", path, Code::FieldEmpty)?;
    if earlier.iter().any(|c| c.call_id == call_id) {
        return Err(r.error(
            Code::DuplicateCallId,
            &pointer_child(path, "callId"),
            format!("callId {call_id:?} is used by an earlier call of this decision"),
        ));
    }
    let name = text(r, item, "name", path, Code::FieldEmpty)?;
    let args_path = pointer_child(path, "arguments");
    let arguments = match member(r, item, "arguments", path)? {
        Field::Missing => return Err(missing(r, &args_path, "arguments")),
        Field::Undefined => return Err(r.undefined(&args_path, "arguments")),
        Field::Present(v) if v.kind() == Kind::Object => r.copy_at(&v, &args_path, Undefined::Reject, 3)?,
        Field::Present(v) => {
            return Err(r.error(
                Code::FieldType,
                &args_path,
                format!(
                "arguments must be a JSON object, got {} (argument text is parsed by the stream assembler, not here)",
                kind_name(&v, v.kind())
            ),
            ))
        }
    };
    Ok(ToolCall { call_id, name, arguments })
}

/// One own field of `object` (at pointer `parent`), charging its name when present.
fn member<V: HostValue>(r: &mut Reader<'_>, object: &V, key: &str, parent: &str) -> Result<Field<V>> {
    match object.get(key).map_err(|f| f.at(&pointer_child(parent, key)))? {
        None => Ok(Field::Missing),
        Some(v) if v.kind() == Kind::Undefined => Ok(Field::Undefined),
        Some(v) => {
            r.budget.charge(key.len())?;
            Ok(Field::Present(v))
        }
    }
}

/// A required non-blank string field, returned as given.
fn text<V: HostValue>(r: &mut Reader<'_>, object: &V, key: &str, parent: &str, empty: Code) -> Result<String> {
    let path = pointer_child(parent, key);
    let s = match member(r, object, key, parent)? {
        Field::Missing => return Err(missing(r, &path, key)),
        Field::Undefined => return Err(r.undefined(&path, key)),
        Field::Present(v) => r.string_value(&v, &Path::Root(&path), key)?,
    };
    if is_blank(&s) {
        return Err(r.error(empty, &path, format!("{key} must not be empty or blank")));
    }
    Ok(s)
}

fn missing(r: &Reader<'_>, path: &str, key: &str) -> ContractError {
    r.error(Code::FieldMissing, path, format!("missing required field {key}"))
}

fn unknown_field(r: &Reader<'_>, parent: &str, key: &str, what: &str) -> ContractError {
    r.error(
        Code::DecisionFieldUnknown,
        &pointer_child(parent, key),
        format!("unknown field {} in {what}", crate::value::quoted_name(key)),
    )
}

/// A container at nesting `level` (the decision itself is level 1) over `maxDepth`.
fn too_deep(r: &Reader<'_>, path: &str, level: usize) -> Result<()> {
    if level > r.limits.max_depth {
        return Err(ContractError::new(
            Code::InputTooDeep,
            path,
            format!("nesting is deeper than the limit of {}", r.limits.max_depth),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output-schema seam: a check on any JSON answer, its errors reported under `/answer`.
    #[test]
    fn json_answer_rule_checks_the_answer() {
        let check = |answer: &Value| -> Result<()> {
            match answer.get("status") {
                Some(Value::String(_)) => Ok(()),
                _ => {
                    Err(ContractError::new(Code::FieldMissing, "/status", "status is required").in_layer(Layer::Schema))
                }
            }
        };
        let rule = AnswerRule::Json(&check);
        let options = Options::default();
        let good = br#"{"kind":"final","answer":{"status":"completed","changedFiles":["a.md"]}}"#;
        let decision = parse_decision_json_with(good, &options, &rule).unwrap();
        let Decision::Final { answer } = &decision else { panic!("not final") };
        assert_eq!(answer.get("status"), Some(&Value::String("completed".into())));
        let parsed = json::parse(good, Mode::Strict, &options.limits).unwrap();
        assert_eq!(parse_decision_with(&&parsed, &options, &rule).unwrap(), decision);

        let bad = br#"{"kind":"final","answer":{"summary":"x"}}"#;
        let e = parse_decision_json_with(bad, &options, &rule).unwrap_err();
        assert_eq!((e.layer, e.code, e.path.as_str()), (Layer::Schema, Code::FieldMissing, "/answer/status"));
        // Without the seam, a structured answer is not text.
        let e = parse_decision_json(good, &options).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (Code::FieldType, "/answer"));
        // Host values: undefined inside a structured answer is not JSON.
        let with_undefined = Value::Object(vec![
            ("kind".into(), Value::String("final".into())),
            ("answer".into(), Value::Object(vec![("status".into(), Value::Undefined)])),
        ]);
        let e = parse_decision_with(&&with_undefined, &options, &rule).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (Code::ValueNotJson, "/answer/status"));
    }
}
