//! Adapter: Gemini `streamGenerateContent` (`alt=sse`) responses, Gemini API and Vertex AI ->
//! normalized stream events -> the assembler's normalized response.
//!
//! Every payload is one `GenerateContentResponse`; there are no event types, so the rules read
//! fields (raw SSE and split payloads read the same):
//! - `responseId` is the response id; a payload naming another one is `STREAM_EVENT_INVALID`
//!   (two responses were mixed into one stream, as a second Anthropic `message_start` would be);
//! - only candidate 0 is assembled: more than one candidate, or an `index` other than 0, is
//!   `STREAM_EVENT_INVALID` (`candidateCount > 1`, like OpenAI Chat's `n > 1`). Vertex omits
//!   `index`: absent means 0;
//! - parts with `thought: true`, text, `thoughtSignature`, inline data, code execution and any
//!   other part carry no call and are ignored: only `functionCall` parts are calls;
//! - a whole `functionCall` part `{name, args?, id?}` (no `willContinue`, no `partialArgs`) is one
//!   call: `start`, one `delta` with `args` written as JSON, `end`. No `args` is `{}`: the field
//!   is an optional protobuf `Struct`, and a function with no parameters comes with none
//!   (recorded: `google-stream-no-args-tool-call`); an `args` that is not an object is
//!   `STREAM_EVENT_INVALID`;
//! - ids: `itemId` = `callId` = the part's `id` when Gemini gives one; otherwise a deterministic
//!   id `gemini:<responseId>:<n>` (`gemini:<n>` while no `responseId` is known), `n` the 0-based
//!   position of the call among the response's calls. Never random: replaying a recording gives
//!   the same ids, and the `gemini:` prefix tells a program the id is ours, not Gemini's (do not
//!   send it back as a `functionResponse.id`);
//! - streamed calls (Vertex `streamFunctionCallArguments`): a `functionCall` with `name` and
//!   `willContinue: true` starts a call; the following `functionCall` parts without `name` carry
//!   `partialArgs` and continue it while `willContinue` is true; the first one without
//!   `willContinue` ends it (the recordings end either with an empty `functionCall: {}` or with
//!   the last `partialArgs` themselves). A name while a call is streaming (a new call, or a
//!   repeat we cannot tell from one), or a `functionCall` with no name when none is streaming,
//!   is `STREAM_EVENT_INVALID`; so are `args` in a streamed call (how they would merge with
//!   `partialArgs` is not specified);
//! - `partialArgs[]` are `{jsonPath, stringValue | numberValue | boolValue | nullValue,
//!   willContinue?}`: each sets the value at its JSON Path (RFC 9535) inside the arguments
//!   object, creating objects and arrays on the way. A string with `willContinue: true` goes on
//!   in the next partial args of the same path, appended (the recordings close each string with
//!   an empty `stringValue`). Only what can be assembled exactly is accepted, anything else is
//!   `STREAM_EVENT_INVALID` at the partial arg: paths other than `$` followed by `.name`,
//!   `['name']` / `["name"]` and `[n]` (wildcards, slices, negative indices, filters); setting a
//!   path twice; an array index that skips elements; a path through a value of another kind;
//!   another path while a string is still going on; `willContinue` on a non-string value; none
//!   or more than one value. The call ends with its arguments written as JSON (one `delta`,
//!   then `end`; an ended call with no partial args is `{}`); a string still going on when the
//!   call ends is `INCOMPLETE_TOOL_CALL`. The arguments are bounded while they are built
//!   (`ARGUMENTS_TOO_LARGE` over `maxArgumentsBytes`, counting a lower bound of their JSON text;
//!   `INPUT_TOO_DEEP` for a path deeper than `maxDepth`), then parsed by the assembler as any
//!   other arguments text;
//! - `finishReason` (after the parts of its payload): `STOP` -> `tool_calls` when the response
//!   started any call, else `stop` (Gemini says `STOP` for both); `MAX_TOKENS` -> `length`;
//!   `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`,
//!   `IMAGE_PROHIBITED_CONTENT`, `IMAGE_RECITATION` -> `content_filter`;
//!   `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS` -> `error`; anything
//!   else (`OTHER`, `LANGUAGE`, `FINISH_REASON_UNSPECIFIED`, later values) -> `unknown`. A call
//!   still streaming then is `INCOMPLETE_TOOL_CALL` (`STOP`) or the reason's
//!   `INCOMPLETE_RESPONSE`;
//! - `promptFeedback.blockReason` (the prompt was blocked: no candidates) finishes with
//!   `content_filter`; an `error` object in a payload (an error sent mid-stream) with `error`;
//! - after the finish, payloads without candidates (a trailing usage-only chunk) are accepted
//!   and ignored; a payload with candidates, a block reason or an error is `EVENT_AFTER_FINISH`:
//!   nothing may change a response once it finished.
//!
//! Payload JSON errors are reported in the `transport` layer, as for the other adapters.

use std::collections::BTreeMap;

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::value::{push_pointer, write_json, write_string, Value};

use super::provider::{get, int_field, invalid, object_text, opt_str, req_str, Adapter, Common};
use super::Event;

/// A field that is absent, null or a boolean.
fn opt_bool(value: &Value, key: &str, path: &str) -> Result<Option<bool>> {
    match get(value, key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(invalid(path, format!("{key} must be a boolean, got {}", other.kind_name()))),
    }
}

fn present<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    get(value, key).filter(|v| !matches!(v, Value::Null))
}

/// One step of a JSON Path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Name(String),
    Index(usize),
}

/// The RFC 9535 subset that names one place: `$`, then `.name` (member-name shorthand),
/// `['name']` / `["name"]` (with the RFC's escapes) or `[n]` (no sign, no leading zero). `None`
/// for anything else: we do not guess what a wildcard or a slice would set.
fn parse_path(path: &str) -> Option<Vec<Segment>> {
    let mut chars = path.strip_prefix('$')?.chars().peekable();
    let mut segments = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                let mut name = String::new();
                while let Some(&c) = chars.peek() {
                    let first = c.is_ascii_alphabetic() || c == '_' || !c.is_ascii();
                    if !(first || (!name.is_empty() && c.is_ascii_digit())) {
                        break;
                    }
                    name.push(c);
                    chars.next();
                }
                if name.is_empty() {
                    return None;
                }
                segments.push(Segment::Name(name));
            }
            '[' => {
                match chars.next()? {
                    q @ ('\'' | '"') => segments.push(Segment::Name(quoted(&mut chars, q)?)),
                    d @ '0'..='9' => {
                        let mut index = d.to_digit(10)? as usize;
                        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                            if index == 0 {
                                return None; // a leading zero
                            }
                            index = index.checked_mul(10)?.checked_add(d as usize)?;
                            chars.next();
                        }
                        segments.push(Segment::Index(index));
                    }
                    _ => return None,
                }
                if chars.next()? != ']' {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(segments)
}

/// A quoted member name after its opening quote `q`, up to and including the closing one.
fn quoted(chars: &mut impl Iterator<Item = char>, q: char) -> Option<String> {
    let mut name = String::new();
    loop {
        match chars.next()? {
            c if c == q => return Some(name),
            '\\' => {
                let c = match chars.next()? {
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    c @ ('/' | '\\') => c,
                    c if c == q => c,
                    'u' => {
                        let high = hex4(chars)?;
                        if (0xDC00..0xE000).contains(&high) {
                            return None;
                        }
                        if (0xD800..0xDC00).contains(&high) {
                            if chars.next()? != '\\' || chars.next()? != 'u' {
                                return None;
                            }
                            let low = hex4(chars)?;
                            if !(0xDC00..0xE000).contains(&low) {
                                return None;
                            }
                            char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?
                        } else {
                            char::from_u32(high)?
                        }
                    }
                    _ => return None,
                };
                name.push(c);
            }
            c if (c as u32) < 0x20 => return None,
            c => name.push(c),
        }
    }
}

fn hex4(chars: &mut impl Iterator<Item = char>) -> Option<u32> {
    let mut n = 0;
    for _ in 0..4 {
        n = n * 16 + chars.next()?.to_digit(16)?;
    }
    Some(n)
}

/// The arguments of a streamed call while they are built. Objects keep their members in
/// arrival order with an index by name, so a long argument list stays O(log n) per partial arg.
enum Node {
    Leaf(Value),
    Object(Vec<(String, Node)>, BTreeMap<String, usize>),
    Array(Vec<Node>),
}

impl Node {
    fn object() -> Node {
        Node::Object(Vec::new(), BTreeMap::new())
    }

    fn kind(&self) -> &'static str {
        match self {
            Node::Leaf(_) => "a value",
            Node::Object(..) => "an object",
            Node::Array(_) => "an array",
        }
    }

    /// Recursion is bounded by `maxDepth`: no path deeper than that is accepted.
    fn write(&self, out: &mut String) {
        match self {
            Node::Leaf(v) => write_json(out, v),
            Node::Object(members, _) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, k);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
            Node::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
        }
    }

    /// The child at `segment`, created (as an object or array, for `next`) when absent. Returns
    /// the child and whether it was created, or why it cannot be reached.
    fn child(&mut self, segment: &Segment, next: Option<&Segment>) -> std::result::Result<(&mut Node, bool), String> {
        let fresh = || match next {
            Some(Segment::Index(_)) => Node::Array(Vec::new()),
            _ => Node::object(),
        };
        match (self, segment) {
            (Node::Object(members, index), Segment::Name(name)) => {
                let (i, added) = match index.get(name) {
                    Some(&i) => (i, false),
                    None => {
                        index.insert(name.clone(), members.len());
                        members.push((name.clone(), fresh()));
                        (members.len() - 1, true)
                    }
                };
                members.get_mut(i).map(|(_, n)| (n, added)).ok_or_else(|| "lost member".to_owned())
            }
            (Node::Array(items), Segment::Index(i)) => {
                let added = if *i == items.len() {
                    items.push(fresh());
                    true
                } else if *i > items.len() {
                    return Err(format!("index {i} skips elements: the array has {}", items.len()));
                } else {
                    false
                };
                items.get_mut(*i).map(|n| (n, added)).ok_or_else(|| "lost element".to_owned())
            }
            (node, Segment::Name(name)) => Err(format!("member {name:?} of {}", node.kind())),
            (node, Segment::Index(i)) => Err(format!("element {i} of {}", node.kind())),
        }
    }
}

/// A call whose arguments arrive as `partialArgs`.
struct Streamed {
    item_id: String,
    /// The part's own `id`, when Gemini gave one: later parts may repeat it, not change it.
    provider_id: Option<String>,
    args: Node,
    /// The path of a string value still going on (`willContinue: true`).
    open_string: Option<Vec<Segment>>,
    /// A lower bound of the arguments' JSON text, in bytes.
    bytes: usize,
}

pub struct Gemini {
    common: Common,
    max_arguments_bytes: usize,
    max_depth: usize,
    /// Calls started in this response: the next derived id, and `STOP` -> `tool_calls`.
    calls: usize,
    streaming: Option<Streamed>,
    finished: bool,
}

impl Gemini {
    pub fn new(options: Options) -> Gemini {
        Gemini {
            max_arguments_bytes: options.max_arguments_bytes,
            max_depth: options.limits.max_depth,
            common: Common::new(options),
            calls: 0,
            streaming: None,
            finished: false,
        }
    }

    fn read(&mut self, payload: &Value) -> Result<()> {
        if !matches!(payload, Value::Object(_)) {
            return Err(invalid("", format!("a payload must be a JSON object, got {}", payload.kind_name())));
        }
        if let Some(id) = opt_str(payload, "responseId", "/responseId")? {
            match &self.common.response_id {
                None => self.common.response_id = Some(id.to_owned()),
                Some(known) if known != id => {
                    return Err(invalid(
                        "/responseId",
                        format!("response {id:?} in the stream of response {known:?}: one response per stream"),
                    ))
                }
                Some(_) => {}
            }
        }
        let candidates = match get(payload, "candidates") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(c)) => &c[..],
            Some(_) => return Err(invalid("/candidates", "candidates must be an array")),
        };
        if self.finished && !candidates.is_empty() {
            return Err(ContractError::new(Code::EventAfterFinish, "", "candidates after the response finished")
                .in_layer(Layer::Stream));
        }
        if candidates.len() > 1 {
            return Err(invalid("/candidates/1", "only candidate 0 can be assembled (candidateCount > 1)"));
        }
        if let Some(candidate) = candidates.first() {
            self.candidate(candidate, "/candidates/0")?;
        }
        if let Some(feedback) = present(payload, "promptFeedback") {
            if !matches!(feedback, Value::Object(_)) {
                return Err(invalid("/promptFeedback", "promptFeedback must be an object"));
            }
            if opt_str(feedback, "blockReason", "/promptFeedback/blockReason")?.is_some() {
                self.finish("content_filter")?;
            }
        }
        if present(payload, "error").is_some() {
            self.finish("error")?;
        }
        Ok(())
    }

    fn candidate(&mut self, candidate: &Value, path: &str) -> Result<()> {
        if !matches!(candidate, Value::Object(_)) {
            return Err(invalid(path, "a candidate must be an object"));
        }
        if present(candidate, "index").is_some() && int_field(candidate, "index", &format!("{path}/index"))? != 0 {
            return Err(invalid(&format!("{path}/index"), "only candidate 0 can be assembled (candidateCount > 1)"));
        }
        if let Some(content) = present(candidate, "content") {
            if !matches!(content, Value::Object(_)) {
                return Err(invalid(&format!("{path}/content"), "content must be an object"));
            }
            match present(content, "parts") {
                None => {}
                Some(Value::Array(parts)) => {
                    for (i, part) in parts.iter().enumerate() {
                        self.part(part, &format!("{path}/content/parts/{i}"))?;
                    }
                }
                Some(_) => return Err(invalid(&format!("{path}/content/parts"), "parts must be an array")),
            }
        }
        if let Some(reason) = opt_str(candidate, "finishReason", &format!("{path}/finishReason"))? {
            let reason = match reason {
                "STOP" if self.calls > 0 => "tool_calls",
                "STOP" => "stop",
                "MAX_TOKENS" => "length",
                "SAFETY"
                | "RECITATION"
                | "BLOCKLIST"
                | "PROHIBITED_CONTENT"
                | "SPII"
                | "IMAGE_SAFETY"
                | "IMAGE_PROHIBITED_CONTENT"
                | "IMAGE_RECITATION" => "content_filter",
                "MALFORMED_FUNCTION_CALL" | "UNEXPECTED_TOOL_CALL" | "TOO_MANY_TOOL_CALLS" => "error",
                _ => "unknown",
            };
            self.finish(reason)?;
        }
        Ok(())
    }

    fn finish(&mut self, reason: &'static str) -> Result<()> {
        self.finished = true;
        self.common.emit(|sequence| Event::Finish { sequence, reason })
    }

    fn part(&mut self, part: &Value, path: &str) -> Result<()> {
        if !matches!(part, Value::Object(_)) {
            return Err(invalid(path, "a part must be an object"));
        }
        // A thought is the model's reasoning, never an action, whatever it holds.
        if opt_bool(part, "thought", &format!("{path}/thought"))? == Some(true) {
            return Ok(());
        }
        match present(part, "functionCall") {
            Some(call) => self.function_call(call, &format!("{path}/functionCall")),
            None => Ok(()),
        }
    }

    fn function_call(&mut self, call: &Value, path: &str) -> Result<()> {
        if !matches!(call, Value::Object(_)) {
            return Err(invalid(path, "functionCall must be an object"));
        }
        let name = opt_str(call, "name", &format!("{path}/name"))?;
        let id = opt_str(call, "id", &format!("{path}/id"))?;
        let will_continue = opt_bool(call, "willContinue", &format!("{path}/willContinue"))? == Some(true);
        let args = present(call, "args");
        let partial = match present(call, "partialArgs") {
            None => None,
            Some(Value::Array(p)) => Some(&p[..]),
            Some(_) => return Err(invalid(&format!("{path}/partialArgs"), "partialArgs must be an array")),
        };
        match (&self.streaming, name) {
            (Some(s), Some(_)) => {
                return Err(invalid(
                    &format!("{path}/name"),
                    format!("a function call is named while call {:?} is still streaming", s.item_id),
                ))
            }
            (None, None) => return Err(invalid(path, "a functionCall with no name, and no call is streaming")),
            (Some(s), None) => {
                if let (Some(id), Some(known)) = (id, &s.provider_id) {
                    if id != known {
                        return Err(invalid(&format!("{path}/id"), format!("call {known:?} now has id {id:?}")));
                    }
                }
            }
            (None, Some(name)) => {
                if name.is_empty() {
                    return Err(invalid(&format!("{path}/name"), "empty function name"));
                }
                let item_id = match (id, &self.common.response_id) {
                    (Some(id), _) => id.to_owned(),
                    (None, Some(response)) => format!("gemini:{response}:{}", self.calls),
                    (None, None) => format!("gemini:{}", self.calls),
                };
                self.calls += 1;
                let (item, call_id, name) = (item_id.clone(), item_id.clone(), name.to_owned());
                self.common.emit(|sequence| Event::Start { sequence, item_id: item, call_id, name })?;
                if !will_continue && partial.is_none() {
                    let text = match args {
                        Some(args) => object_text(args, &format!("{path}/args"))?,
                        None => "{}".to_owned(),
                    };
                    return self.end(item_id, text);
                }
                self.streaming = Some(Streamed {
                    item_id,
                    provider_id: id.map(str::to_owned),
                    args: Node::object(),
                    open_string: None,
                    bytes: 2,
                });
            }
        }
        if args.is_some() {
            return Err(invalid(&format!("{path}/args"), "args in a streamed call (with partialArgs / willContinue)"));
        }
        for (i, arg) in partial.unwrap_or(&[]).iter().enumerate() {
            self.partial_arg(arg, &format!("{path}/partialArgs/{i}"))?;
        }
        if !will_continue {
            if let Some(s) = self.streaming.take() {
                if let Some(open) = &s.open_string {
                    return Err(ContractError::new(
                        Code::IncompleteToolCall,
                        path,
                        format!("call {:?} ended while the string at {} was still going on", s.item_id, pointer(open)),
                    )
                    .in_layer(Layer::Stream));
                }
                let mut text = String::new();
                s.args.write(&mut text);
                return self.end(s.item_id, text);
            }
        }
        Ok(())
    }

    fn end(&mut self, item_id: String, text: String) -> Result<()> {
        let item = item_id.clone();
        self.common.emit(|sequence| Event::Delta { sequence, item_id: item, text, name: None })?;
        self.common.emit(|sequence| Event::End { sequence, item_id })
    }

    fn partial_arg(&mut self, arg: &Value, path: &str) -> Result<()> {
        let (max_bytes, max_depth) = (self.max_arguments_bytes, self.max_depth);
        let Some(s) = self.streaming.as_mut() else {
            return Err(invalid(path, "partial args with no call streaming"));
        };
        if !matches!(arg, Value::Object(_)) {
            return Err(invalid(path, "a partial arg must be an object"));
        }
        let json_path = req_str(arg, "jsonPath", &format!("{path}/jsonPath"))?;
        let Some(segments) = parse_path(json_path) else {
            return Err(invalid(
                &format!("{path}/jsonPath"),
                format!("jsonPath {json_path:?} does not name one place ($ then .name, ['name'] or [n])"),
            ));
        };
        if segments.is_empty() {
            return Err(invalid(&format!("{path}/jsonPath"), "jsonPath \"$\" would replace the arguments object"));
        }
        if segments.len() > max_depth {
            return Err(ContractError::new(
                Code::InputTooDeep,
                pointer(&segments),
                format!("call {:?}: arguments nest deeper than the limit of {max_depth}", s.item_id),
            )
            .in_layer(Layer::Parse));
        }
        let mut values = Vec::new();
        for key in ["stringValue", "numberValue", "boolValue"] {
            if let Some(v) = present(arg, key) {
                values.push((key, v));
            }
        }
        if let Some(v) = get(arg, "nullValue") {
            values.push(("nullValue", v));
        }
        let value = match values[..] {
            [("stringValue", Value::String(text))] => Value::String(text.clone()),
            [("numberValue", Value::Number(n))] if n.value.is_finite() => Value::Number(n.clone()),
            [("boolValue", Value::Bool(b))] => Value::Bool(*b),
            [("nullValue", Value::Null)] => Value::Null,
            [("nullValue", Value::String(s))] if s == "NULL_VALUE" => Value::Null,
            [(key, v)] => {
                return Err(invalid(&format!("{path}/{key}"), format!("{key} cannot be {}", v.kind_name())));
            }
            _ => return Err(invalid(path, "a partial arg needs exactly one value")),
        };
        let will_continue = opt_bool(arg, "willContinue", &format!("{path}/willContinue"))? == Some(true);
        let added;
        if let Some(open) = &s.open_string {
            if *open != segments {
                return Err(invalid(
                    &format!("{path}/jsonPath"),
                    format!("{json_path:?} while the string at {} is still going on", pointer(open)),
                ));
            }
            let Value::String(more) = value else {
                return Err(invalid(path, "a string that goes on must go on as a stringValue"));
            };
            let mut node = &mut s.args;
            for segment in &segments {
                node = node.child(segment, None).map_err(|e| invalid(path, e))?.0;
            }
            let Node::Leaf(Value::String(text)) = node else {
                return Err(invalid(path, "the string that goes on is gone"));
            };
            text.push_str(&more);
            added = more.len();
            if !will_continue {
                s.open_string = None;
            }
        } else {
            if will_continue && !matches!(value, Value::String(_)) {
                return Err(invalid(&format!("{path}/willContinue"), "only a string value can go on"));
            }
            let (last, parents) = match segments.split_last() {
                Some(split) => split,
                None => return Err(invalid(&format!("{path}/jsonPath"), "no place")),
            };
            let mut node = &mut s.args;
            let mut grown = 0;
            for (i, segment) in parents.iter().enumerate() {
                let next = parents.get(i + 1).unwrap_or(last);
                let (child, created) = node
                    .child(segment, Some(next))
                    .map_err(|e| invalid(&format!("{path}/jsonPath"), format!("{json_path:?} goes through {e}")))?;
                node = child;
                if created {
                    grown += member_bytes(segment) + 2;
                }
            }
            let exists = match (&*node, last) {
                (Node::Object(_, index), Segment::Name(name)) => index.contains_key(name),
                (Node::Array(items), Segment::Index(i)) => *i < items.len(),
                _ => false,
            };
            if exists {
                return Err(invalid(&format!("{path}/jsonPath"), format!("{json_path:?} is set twice")));
            }
            let (leaf, _) = node
                .child(last, None)
                .map_err(|e| invalid(&format!("{path}/jsonPath"), format!("{json_path:?} goes through {e}")))?;
            let mut text = String::new();
            write_json(&mut text, &value);
            added = grown + member_bytes(last) + text.len();
            *leaf = Node::Leaf(value);
            if will_continue {
                s.open_string = Some(segments);
            }
        }
        s.bytes += added;
        if s.bytes > max_bytes {
            return Err(ContractError::new(
                Code::ArgumentsTooLarge,
                "",
                format!("the arguments of call {:?} are over maxArgumentsBytes ({max_bytes})", s.item_id),
            )
            .in_layer(Layer::Stream));
        }
        Ok(())
    }
}

/// The least JSON text a new member or element adds besides its value (`"name":`; commas are
/// not counted, so the sum stays a lower bound of the text).
fn member_bytes(segment: &Segment) -> usize {
    match segment {
        Segment::Name(name) => name.len() + 3,
        Segment::Index(_) => 0,
    }
}

/// A JSON Path's place as a JSON Pointer inside the arguments, for messages and paths.
fn pointer(segments: &[Segment]) -> String {
    let mut p = String::new();
    for segment in segments {
        match segment {
            Segment::Name(name) => push_pointer(&mut p, name),
            Segment::Index(i) => p.push_str(&format!("/{i}")),
        }
    }
    p
}

impl Adapter for Gemini {
    fn common(&mut self) -> &mut Common {
        &mut self.common
    }

    fn common_ref(&self) -> &Common {
        &self.common
    }

    fn event(&mut self, event: &Value) -> Result<()> {
        self.read(event)
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_path, Segment};

    #[test]
    fn json_paths() {
        let name = |s: &str| Segment::Name(s.to_owned());
        assert_eq!(parse_path("$.a[0].b_2"), Some(vec![name("a"), Segment::Index(0), name("b_2")]));
        assert_eq!(parse_path("$['a.b'][\"c\\\"d\"]"), Some(vec![name("a.b"), name("c\"d")]));
        assert_eq!(parse_path("$['\\u00e9\\ud83d\\ude00']"), Some(vec![name("é😀")]));
        assert_eq!(parse_path("$.é"), Some(vec![name("é")]));
        assert_eq!(parse_path("$"), Some(vec![]));
        for bad in [
            "",
            "a",
            "$.",
            "$.1a",
            "$[*]",
            "$[-1]",
            "$[01]",
            "$[1",
            "$..a",
            "$[?@.a]",
            "$[0:2]",
            "$['a",
            "$['\\ud800']",
            "$[ 0]",
            "$.a b",
        ] {
            assert_eq!(parse_path(bad), None, "{bad}");
        }
    }
}
