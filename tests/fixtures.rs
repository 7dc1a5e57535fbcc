//! Runs every case in `fixtures/` against the Rust API (host 1 of 4).

use std::path::Path;

use agent_contract::api;
use agent_contract::value::{Number, Value};
use agent_contract::wire;
use serde_json::Value as Json;

fn to_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(Number { value: n.as_f64().unwrap(), text: Some(n.to_string().into()) }),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(a) => Value::Array(a.iter().map(to_value).collect()),
        Json::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
    }
}

fn special(spec: &Json) -> Option<Value> {
    let name = match spec {
        Json::String(s) => s.as_str(),
        Json::Object(o) if o.contains_key("inherited") => return None,
        other => panic!("unknown host value {other}"),
    };
    Some(match name {
        "undefined" => Value::Undefined,
        "NaN" => Value::Number(Number::from_f64(f64::NAN)),
        "Infinity" => Value::Number(Number::from_f64(f64::INFINITY)),
        "-Infinity" => Value::Number(Number::from_f64(f64::NEG_INFINITY)),
        "function" | "Map" | "Set" | "Date" => Value::NotJson(name.to_owned()),
        "classInstance" => Value::NotJson("Point".to_owned()),
        "loneSurrogate" => Value::IllFormedString,
        "exception" => Value::NotJson("ToolCrashError".to_owned()),
        other => panic!("unknown host value {other}"),
    })
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Places host values at their pointers (`inherited` ones are simply absent in Rust).
fn apply_host(mut root: Value, host: Option<&Json>) -> Value {
    let Some(Json::Object(map)) = host else {
        return root;
    };
    for (pointer, spec) in map {
        let Some(v) = special(spec) else { continue };
        let segments: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
        if segments.is_empty() {
            root = v;
            continue;
        }
        let mut node = &mut root;
        for seg in &segments[..segments.len() - 1] {
            node = match node {
                Value::Object(entries) => &mut entries.iter_mut().find(|(k, _)| k == seg).expect("pointer parent").1,
                Value::Array(items) => &mut items[seg.parse::<usize>().unwrap()],
                _ => panic!("pointer {pointer} goes through a scalar"),
            };
        }
        let last = segments.last().unwrap();
        match node {
            Value::Object(entries) => match entries.iter_mut().find(|(k, _)| k == last) {
                Some(entry) => entry.1 = v,
                None => entries.push((last.clone(), v)),
            },
            Value::Array(items) => {
                let i: usize = last.parse().unwrap();
                if i == items.len() {
                    items.push(v)
                } else {
                    items[i] = v
                }
            }
            _ => panic!("pointer {pointer} parent is a scalar"),
        }
    }
    root
}

/// Deep equality, as strict as the other hosts': objects by the same key set both ways (in any
/// order), numbers by `same_number`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let has = |entries: &[(String, Value)], key: &str| entries.iter().any(|(k, _)| k == key);
            x.len() == y.len()
                && x.iter().all(|(k, v)| y.iter().any(|(k2, v2)| k == k2 && same(v, v2)))
                && y.iter().all(|(k, _)| has(x, k))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        _ => a == b,
    }
}

/// What each other host can tell apart, read from the number's JSON text as they read it (not
/// from the f64 the core keeps beside it): the value (NaN equal to NaN), the sign of zero (JS
/// `Object.is`), and integer or float (Python: `1` is an int, `1.0` and `1E2` floats). An
/// expectation comes through serde_json, which keeps neither `-0`'s integer form (it reads the
/// float -0.0) nor integers past u64: for those two its kind is unknown, and only value and
/// sign are compared (fixtures/README.md).
fn same_number(got: &Number, want: &Number) -> bool {
    let ((g, g_float), (w, w_float)) = (as_read(got), as_read(want));
    let lost = w_float && w.fract() == 0.0 && (w == 0.0 && w.is_sign_negative() || w.abs() >= 1.8e19);
    let value = g == w || g.is_nan() && w.is_nan();
    value && (g.is_nan() || g.is_sign_negative() == w.is_sign_negative()) && (lost || g_float == w_float)
}

/// A number as JS and Python read its JSON text: its value, and whether it is a float's text (a
/// fraction or an exponent).
fn as_read(n: &Number) -> (f64, bool) {
    let text = wire::to_text(&Value::Number(n.clone()));
    (text.parse().unwrap_or(n.value), text.contains(['.', 'e', 'E']))
}

fn text_arg(case: &Json) -> Vec<u8> {
    if let Some(t) = case.get("text") {
        return t.as_str().unwrap().as_bytes().to_vec();
    }
    let hex = case.get("textHex").or_else(|| case.get("bytesHex")).expect("text, textHex or bytesHex");
    let hex = hex.as_str().unwrap();
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

/// The outcome as the fixtures write it: `{ok, value}` or `{ok, error}`.
fn outcome(result: Result<Value, agent_contract::ContractError>) -> Value {
    wire::outcome_value(result)
}

fn run(case: &Json) -> Value {
    let op = case["op"].as_str().unwrap();
    let options = case.get("options").map(to_value);
    if let Some(got) = run_rpc(op, case, options.as_ref()) {
        return got;
    }
    if op == "compiledTool" {
        return compiled_tool(case, options.as_ref());
    }
    if let Some(args) = case.get("args") {
        return run_args(op, apply_host(to_value(args), case.get("host")), options);
    }
    let input = case.get("input").map(|i| apply_host(to_value(i), case.get("host")));
    let input = input.as_ref();
    let opts = options.as_ref();
    match op {
        "parseAgentAction" => outcome(api::parse_agent_action(&input.unwrap(), opts.as_ref()).map(|a| a.into_value())),
        "defineTool" => outcome(api::define_tool(&input.unwrap(), opts.as_ref()).map(|t| t.into_value())),
        "previewAction" => outcome(Ok(api::preview_action(&input.unwrap(), opts.as_ref()))),
        "parseAgentActionJson" => {
            outcome(api::parse_agent_action_json(&text_arg(case), opts.as_ref()).map(|a| a.into_value()))
        }
        "defineToolJson" => outcome(api::define_tool_json(&text_arg(case), opts.as_ref()).map(|t| t.into_value())),
        "parseAgentActions" => outcome(
            api::parse_agent_actions(&input.unwrap(), opts.as_ref())
                .map(|items| Value::Array(items.into_iter().map(|r| outcome(r.map(|a| a.into_value()))).collect())),
        ),
        "parseAgentActionsJsonl" => outcome(
            api::parse_agent_actions_jsonl(&text_arg(case), opts.as_ref())
                .map(|items| Value::Array(items.into_iter().map(|r| outcome(r.map(|a| a.into_value()))).collect())),
        ),
        "parseJson" => {
            let text = text_arg(case);
            let parsed = api::parse_json(&text, opts.as_ref());
            // The bindings reply the verdict-only `check_json`: it must be the same verdict.
            assert_eq!(parsed.as_ref().map(drop).map_err(Clone::clone), api::check_json(&text, opts.as_ref()));
            outcome(parsed)
        }
        "parseDecision" => outcome(api::parse_decision(&input.unwrap(), opts.as_ref()).map(|d| d.into_value())),
        "parseDecisionJson" => {
            outcome(api::parse_decision_json(&text_arg(case), opts.as_ref()).map(|d| d.into_value()))
        }
        "validateToolInput" => {
            let tool = to_value(&case["tool"]);
            outcome(api::validate_tool_input(&&tool, &input.unwrap(), opts.as_ref()))
        }
        "validateToolInputJson" => {
            let tool = to_value(&case["tool"]);
            outcome(api::validate_tool_input_json(&&tool, &text_arg(case), opts.as_ref()))
        }
        "assembleStream" => {
            // One assembler fed every event, then finish(); an error carries `at`, the index of
            // the event that caused it (the number of events for finish()).
            let Some(Value::Array(events)) = input else { panic!("assembleStream needs input: [events]") };
            let events: Vec<&Value> = events.iter().collect();
            match agent_contract::stream::assembler::assemble(&events, opts.as_ref()) {
                Ok(v) => outcome(Ok(v)),
                Err((at, e)) => {
                    let mut o = outcome(Err(e));
                    if let Value::Object(members) = &mut o {
                        if let Some((_, Value::Object(error))) = members.iter_mut().find(|(k, _)| k == "error") {
                            error.push((
                                "at".to_owned(),
                                Value::Number(agent_contract::value::Number::from_f64(at as f64)),
                            ));
                        }
                    }
                    o
                }
            }
        }
        "assembleProviderStream" => {
            let provider = to_value(&case["provider"]);
            let (input, bytes) = provider_input(case, input);
            outcome(agent_contract::stream::provider_stream::assemble(
                &&provider,
                &&input,
                bytes.as_deref(),
                opts.as_ref(),
            ))
        }
        // Messages and sessions (seed 004)
        "parseAgentMessage" => outcome(api::parse_agent_message(&input.unwrap(), opts.as_ref())),
        "parseAgentMessageJson" => outcome(api::parse_agent_message_json(&text_arg(case), opts.as_ref())),
        "parseToolResult" => outcome(api::parse_tool_result(&input.unwrap(), opts.as_ref())),
        "parseSessionEntry" => outcome(api::parse_session_entry(&input.unwrap(), opts.as_ref())),
        "checkSession" => outcome(api::check_session(&session_text(case), opts.as_ref()).map(without_messages)),
        "readSession" => outcome(api::read_session(&session_text(case), opts.as_ref())),
        "querySession" => {
            let query = to_value(&case["query"]);
            outcome(api::query_session(&session_text(case), &&query, opts.as_ref()))
        }
        // Agent events and the session response
        "parseAgentEvent" => outcome(api::parse_agent_event(&input.unwrap(), opts.as_ref())),
        "checkEventSequence" => outcome(api::check_event_sequence(&input.unwrap(), opts.as_ref())),
        "checkSessionResponse" => outcome(api::check_session_response(&input.unwrap(), opts.as_ref())),
        // Dataset rows: a row as a value (`input`) or as its JSON text (`text`, `textHex`, `bytesHex`).
        "checkChatRow" => match input {
            Some(row) => outcome(api::check_chat_row(&row, opts.as_ref())),
            None => outcome(api::check_chat_row_json(&text_arg(case), opts.as_ref())),
        },
        "checkChatRows" => outcome(api::check_chat_rows(&input.unwrap(), opts.as_ref())),
        "checkChatRowsJsonl" => outcome(api::check_chat_rows_jsonl(&text_arg(case), opts.as_ref())),
        // ACP prompt admission and lifecycle:
        "isCanonicalBase64" => {
            let arg = match case.get("text") {
                Some(t) => Value::String(t.as_str().unwrap().to_owned()),
                None => input.cloned().expect("isCanonicalBase64 needs text or input"),
            };
            outcome(Ok(Value::Bool(agent_contract::acp::admission::is_canonical_base64(&&arg))))
        }
        "sniffMediaType" => outcome(Ok(api::sniff_media_type(&text_arg(case)))),
        "promptLifecycle" => {
            let Some(Value::Array(calls)) = input else { panic!("promptLifecycle needs input: [calls]") };
            let mut lifecycle = api::create_prompt_lifecycle();
            let outcomes = calls
                .iter()
                .map(|call| {
                    let (name, reason) = match call {
                        Value::String(name) => (name.clone(), None),
                        Value::Object(_) => match call.get("call") {
                            Some(Value::String(name)) => (name.clone(), call.get("reason")),
                            _ => panic!("a lifecycle call object needs call"),
                        },
                        _ => panic!("a lifecycle call is a name or an object"),
                    };
                    outcome(api::lifecycle_call(&mut lifecycle, &name, reason.as_ref()))
                })
                .collect();
            outcome(Ok(Value::Array(outcomes)))
        }
        other => panic!("unknown op {other}"),
    }
}

/// Where the recorded pi-mono sessions are (external data, like the provider streams).
fn session_files() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/pi-mono-sessions")
}

/// A session text: `sessionFile` (a recorded file's bytes) or `text` / `textHex` / `bytesHex`.
fn session_text(case: &Json) -> Vec<u8> {
    match case.get("sessionFile").and_then(|f| f.as_str()) {
        Some(name) => std::fs::read(session_files().join(name)).unwrap_or_else(|e| panic!("{name}: {e}")),
        None => text_arg(case),
    }
}

/// A `checkSession` report as the fixtures write it: problems by line, code and path (each
/// problem's message must be a non-empty string, and is then dropped).
fn without_messages(mut report: Value) -> Value {
    if let Value::Object(members) = &mut report {
        if let Some((_, Value::Array(problems))) = members.iter_mut().find(|(k, _)| k == "problems") {
            for p in problems {
                if let Value::Object(fields) = p {
                    let message = fields.iter().position(|(k, _)| k == "message").expect("a problem has a message");
                    assert!(matches!(&fields[message].1, Value::String(m) if !m.is_empty()), "empty problem message");
                    fields.remove(message);
                }
            }
        }
    }
    report
}

/// An admission plan as the fixtures write it: every entry with a `sha256` (images, audio,
/// resources, in that order) gets `bytesHex`, the decoded payload the hosts hand out at the
/// pointer the core gives it.
fn plan_value(plan: agent_contract::acp::admission::Plan) -> Value {
    let mut payloads = plan.attachments.into_iter();
    let mut value = plan.value;
    if let Value::Object(members) = &mut value {
        for (key, list) in members.iter_mut() {
            if !["images", "audio", "resources"].contains(&key.as_str()) {
                continue;
            }
            let Value::Array(entries) = list else { continue };
            for (i, entry) in entries.iter_mut().enumerate() {
                if entry.get("sha256").is_none() {
                    continue;
                }
                let payload = payloads.next().expect("one payload per entry with a sha256");
                // The pointer the hosts put the payload at names this very entry.
                assert_eq!(payload.at, format!("/{key}/{i}"));
                let hex: String = payload.bytes.iter().map(|b| format!("{b:02x}")).collect();
                assert_eq!(payload.base64, agent_contract::acp::base64::encode(&payload.bytes));
                if let Value::Object(fields) = entry {
                    fields.push(("bytesHex".to_owned(), Value::String(hex)));
                }
            }
        }
    }
    assert!(payloads.next().is_none(), "a payload without a plan entry");
    value
}

/// Where the recorded provider streams are (external data: absent in a clone elsewhere).
fn recordings() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/provider-streams")
}

/// `assembleProviderStream`'s input: a recording (raw SSE bytes, or a `.chunks.txt` file's
/// non-blank lines parsed as JSON — a line that is not JSON stays a string, i.e. a payload
/// text — `lines: [from, to)` of them when given), SSE text, or `input`.
fn provider_input(case: &Json, input: Option<&Value>) -> (Value, Option<Vec<u8>>) {
    if let Some(name) = case.get("recording").and_then(|r| r.as_str()) {
        let bytes = std::fs::read(recordings().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        if !name.ends_with(".chunks.txt") {
            return (Value::Null, Some(bytes));
        }
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let (from, to) = match case.get("lines") {
            Some(r) => (r[0].as_u64().unwrap() as usize, r[1].as_u64().unwrap() as usize),
            None => (0, lines.len()),
        };
        // A line that is not JSON (a hand-made recording's typo) is passed as its text: the
        // adapter parses it as one payload and reports it in the transport layer.
        let events = lines[from..to]
            .iter()
            .map(|l| serde_json::from_str(l).map_or_else(|_| Value::String((*l).to_owned()), |j| to_value(&j)))
            .collect();
        return (Value::Array(events), None);
    }
    if ["text", "textHex", "bytesHex"].iter().any(|k| case.get(*k).is_some()) {
        return (Value::Null, Some(text_arg(case)));
    }
    (input.cloned().expect("assembleProviderStream needs recording, text or input"), None)
}

/// The conformance data shared with the other projects (absent in a clone elsewhere).
fn conformance() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance")
}

/// A case's `reference`: `{file, id}` (a case of a JSON file's `cases`: its `send` text) or
/// `{file, line}` (a JSON Lines file's line, 1-based: its `value`).
fn reference(case: &Json) -> Option<Json> {
    let r = case.get("reference")?;
    let file = conformance().join(r["file"].as_str().unwrap());
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    if let Some(id) = r.get("id") {
        let doc: Json = serde_json::from_str(&text).unwrap();
        let found = doc["cases"].as_array().unwrap().iter().find(|c| &c["id"] == id).expect("reference id");
        return Some(found["send"].clone());
    }
    let line = r["line"].as_u64().unwrap() as usize;
    let row: Json = serde_json::from_str(text.lines().nth(line - 1).unwrap()).unwrap();
    Some(row["value"].clone())
}

/// The chunks of an NDJSON case: `chunks` (strings), `chunksHex` (bytes) or `text` (one).
fn chunks(case: &Json) -> Vec<Vec<u8>> {
    if let Some(Json::Array(items)) = case.get("chunks") {
        return items.iter().map(|c| c.as_str().unwrap().as_bytes().to_vec()).collect();
    }
    if let Some(Json::Array(items)) = case.get("chunksHex") {
        let hex = |h: &str| (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect();
        return items.iter().map(|c| hex(c.as_str().unwrap())).collect();
    }
    vec![text_arg(case)]
}

/// The JSON-RPC operations; `None` for the others.
fn run_rpc(op: &str, case: &Json, options: Option<&Value>) -> Option<Value> {
    let opts = options.as_ref();
    Some(match op {
        "classifyJsonRpc" => {
            let input = match reference(case) {
                Some(v) => to_value(&v),
                None => apply_host(to_value(&case["input"]), case.get("host")),
            };
            outcome(api::classify_json_rpc(&&input, opts))
        }
        "classifyJsonRpcJson" => {
            if let Some(Json::String(text)) = reference(case) {
                return Some(outcome(api::classify_json_rpc_json(text.as_bytes(), opts)));
            }
            if let Some(input) = case.get("input") {
                return Some(outcome(Err(api::not_text(&&to_value(input)))));
            }
            outcome(api::classify_json_rpc_json(&text_arg(case), opts))
        }
        "methodNotFound" | "internalError" | "invalidParams" => {
            let Value::Array(args) = to_value(&case["args"]) else { panic!("args must be a list") };
            outcome(match op {
                "methodNotFound" => api::method_not_found(&&args[0]),
                "internalError" => api::internal_error(&&args[0], &&args[1]),
                _ => api::invalid_params(&&args[0], &&args[1]),
            })
        }
        "decodeNdjson" => outcome(api::create_ndjson_decoder(opts).map(|mut d| {
            let mut frames = Vec::new();
            for chunk in chunks(case) {
                frames.extend(d.push(&chunk));
            }
            frames.extend(d.end());
            api::frames_value(frames)
        })),
        "checkStdoutPurity" => outcome(api::create_purity_check(opts).map(|mut p| {
            for chunk in chunks(case) {
                p.push(&chunk);
            }
            p.finish()
        })),
        "rpcSession" => outcome(api::create_rpc_session(opts).and_then(|mut s| {
            let mut out = Vec::new();
            for step in case["steps"].as_array().unwrap() {
                let incoming = step["dir"] == "in";
                out.push(api::rpc_session_observe(&mut s, &&to_value(&step["message"]), incoming)?);
            }
            Ok(Value::Array(out))
        })),
        _ => return None,
    })
}

/// Registry and pipeline operations: positional arguments, then the options when given.
fn run_args(op: &str, args: Value, options: Option<Value>) -> Value {
    let Value::Array(args) = args else { panic!("args must be a list") };
    let a = |i: usize| &args[i];
    let opts = options.as_ref();
    match op {
        "createRegistry" => outcome(api::create_registry(&a(0), opts.as_ref())),
        "catalog" => outcome(api::catalog(&a(0))),
        "definePolicy" => outcome(api::define_policy(&a(0))),
        "checkToolCall" => outcome(api::check_tool_call(&a(0), &a(1), &a(2), opts.as_ref())),
        "toOpenAITools" => outcome(api::project(&a(0), api::Provider::OpenAi)),
        "jsonSchemaForTarget" => outcome(api::json_schema_for_target(&a(0), &a(1))),
        "standardJsonSchema" => outcome(api::standard_json_schema(&a(0), &a(1))),
        "toOpenAIResponsesTools" => outcome(api::project(&a(0), api::Provider::OpenAiResponses)),
        "toAnthropicTools" => outcome(api::project(&a(0), api::Provider::Anthropic)),
        "toMcpTools" => outcome(api::project(&a(0), api::Provider::Mcp)),
        "normalizeToolResult" => outcome(api::normalize_tool_result(&a(0), &a(1), opts.as_ref())),
        "strictSchemaIssues" => outcome(api::strict_schema_issues(&a(0))),
        "toGeminiTools" => outcome(api::project(&a(0), api::Provider::Gemini)),
        "geminiSchemaIssues" => outcome(api::gemini_schema_issues(&a(0))),
        "compareContracts" => outcome(api::compare_contracts(&a(0), &a(1))),
        "diffCatalogs" => outcome(api::diff_catalogs(&a(0), &a(1))),
        "mcpToolDefinitions" => outcome(api::mcp_tool_definitions(&a(0))),
        "checkMcpToolResult" => outcome(api::check_mcp_tool_result(&a(0), &a(1), opts.as_ref())),
        "fromSeedTool" => outcome(api::from_seed_tool(&a(0), &a(1), opts.as_ref())),
        "toSeedTool" => outcome(api::to_seed_tool(&a(0))),
        "admitPrompt" => outcome(api::admit_prompt(&a(0), &a(1), opts.as_ref()).map(plan_value)),
        "advertisePromptCapabilities" => outcome(api::advertise_prompt_capabilities(&a(0))),
        // The protocol as JSON Schema
        "protocolSchemas" => outcome(Ok(api::protocol_schemas())),
        other => panic!("unknown op {other}"),
    }
}

/// `expect.issues`: the same issues in the same order, by path and keyword (and a message
/// fragment when the case gives `messageIncludes`).
fn check_issues(error: &Value, expect: &Json) -> Result<(), String> {
    let Some(Json::Array(wants)) = expect.get("issues") else { return Ok(()) };
    let have = match error.get("issues") {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let got: Vec<String> = have.iter().map(|i| format!("{} {}", text(i.get("path")), text(i.get("keyword")))).collect();
    let want: Vec<String> =
        wants.iter().map(|w| format!("{} {}", w["path"].as_str().unwrap(), w["keyword"].as_str().unwrap())).collect();
    if got != want {
        return Err(format!("expected issues {want:?}, got {got:?}"));
    }
    for (i, w) in wants.iter().enumerate() {
        if let Some(fragment) = w.get("messageIncludes").and_then(|m| m.as_str()) {
            let message = text(have[i].get("message"));
            if !message.contains(fragment) {
                return Err(format!("issue {i}: message {message:?} does not include {fragment:?}"));
            }
        }
    }
    Ok(())
}

/// Compares an outcome with `expect`: values exactly, errors by layer, code, path (and position
/// when the case gives one), nested batch outcomes the same way.
fn check(got: &Value, expect: &Json, host: Option<&Json>) -> Result<(), String> {
    let ok = expect["ok"].as_bool().unwrap();
    let got_ok = got.get("ok") == Some(&Value::Bool(true));
    if ok != got_ok {
        return Err(format!("expected ok={ok}, got {}", show(got)));
    }
    if ok {
        let want = apply_host(to_value(&expect["value"]), host);
        let value = got.get("value").unwrap();
        if let (Value::Array(items), Json::Array(wants)) = (value, &expect["value"]) {
            if wants.iter().all(|w| w.get("ok").is_some() && (w.get("value").is_some() || w.get("error").is_some())) {
                if items.len() != wants.len() {
                    return Err(format!("expected {} items, got {}", wants.len(), items.len()));
                }
                for (i, (item, w)) in items.iter().zip(wants).enumerate() {
                    let w = match w.get("error") {
                        Some(e) => {
                            let mut m = e.as_object().unwrap().clone();
                            m.insert("ok".into(), Json::Bool(false));
                            Json::Object(m)
                        }
                        None => w.clone(),
                    };
                    check(item, &w, w.get("host")).map_err(|e| format!("item {i}: {e}"))?;
                }
                return Ok(());
            }
        }
        if !same(value, &want) {
            return Err(format!("expected value {}, got {}", show(&want), show(value)));
        }
        return Ok(());
    }
    let error = got.get("error").unwrap();
    for key in ["layer", "code", "path"] {
        let want = expect.get(key).unwrap_or_else(|| panic!("error expectation without {key}"));
        let have = error.get(key).unwrap();
        if Value::String(want.as_str().unwrap().into()) != *have {
            return Err(format!("expected {key} {want}, got {} ({})", show(have), show(error)));
        }
    }
    // The message, exactly, where the case gives one.
    if let Some(want) = expect.get("message") {
        let have = error.get("message").cloned().unwrap_or(Value::Null);
        if Value::String(want.as_str().expect("a message is a string").into()) != have {
            return Err(format!("expected message {want}, got {}", show(&have)));
        }
    }
    check_issues(error, expect)?;
    // `truncated` is absent unless true: `false` expects it absent.
    if let Some(want) = expect.get("truncated") {
        let have = error.get("truncated") == Some(&Value::Bool(true));
        if want.as_bool() != Some(have) {
            return Err(format!("expected truncated {want}, got {have} ({})", show(error)));
        }
    }
    for (key, want) in [("availableTools", expect.get("availableTools")), ("proposal", expect.get("proposal"))] {
        if let Some(want) = want {
            let have = error.get(key).cloned().unwrap_or(Value::Null);
            if !same(&have, &to_value(want)) {
                return Err(format!("expected {key} {want}, got {}", show(&have)));
            }
        }
    }
    if let Some(at) = expect.get("at") {
        let have = error.get("at").cloned().unwrap_or(Value::Null);
        if !same(&have, &to_value(at)) {
            return Err(format!("expected the error at event {at}, got {} ({})", show(&have), show(error)));
        }
    }
    if let Some(position) = expect.get("position") {
        let want = to_value(position);
        let have = error.get("position").cloned().unwrap_or(Value::Null);
        if !same(&have, &want) {
            return Err(format!("expected position {}, got {}", show(&want), show(&have)));
        }
    }
    Ok(())
}

fn show(v: &Value) -> String {
    wire::to_text(v)
}

#[test]
fn fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let have_recordings = recordings().is_dir();
    let have_sessions = session_files().is_dir();
    let mut skipped_sessions = 0;
    let have_conformance = conformance().is_dir();
    let mut ids = std::collections::HashSet::new();
    for file in files {
        let doc: Json = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            let id = case["id"].as_str().unwrap();
            assert!(ids.insert(id.to_owned()), "duplicate case id {id}");
            if case.get("recording").is_some() && !have_recordings
                || case.get("reference").is_some() && !have_conformance
            {
                skipped += 1;
                continue;
            }
            if case.get("sessionFile").is_some() && !have_sessions {
                skipped_sessions += 1;
                continue;
            }
            let got = run(case);
            let mut result = check(&got, &case["expect"], case["expect"].get("host"));
            // The non-throwing twins must agree with the throwing forms: in Rust both are the
            // same `Result`, so there is nothing more to run here; JS and Python check theirs.
            if result.is_ok() && case["op"] == "previewAction" && got.get("ok") != Some(&Value::Bool(true)) {
                result = Err("previewAction must not fail".into());
            }
            match result {
                Ok(()) => passed += 1,
                Err(e) => {
                    failed += 1;
                    eprintln!("FAIL {id} ({}): {e}", file.file_name().unwrap().to_string_lossy());
                }
            }
        }
    }
    if skipped > 0 {
        println!(
            "fixtures (rust): SKIPPED {skipped} cases of recorded streams or conformance data: {} is absent",
            conformance().display()
        );
    }
    if skipped_sessions > 0 {
        println!(
            "fixtures (rust): SKIPPED {skipped_sessions} recorded-session cases: {} is absent",
            session_files().display()
        );
    }
    println!("fixtures (rust): {passed} passed, {failed} failed");
    assert!(passed > 0, "no fixture ran");
    assert_eq!(failed, 0, "{failed} fixture cases failed");
}

/// Compiled tools: the tool defined as a handle, then each step in order.
fn compiled_tool(case: &Json, options: Option<&Value>) -> Value {
    let tool = to_value(&case["tool"]);
    outcome(api::compile_tool(&&tool, options.as_ref()).and_then(|handle| {
        let definition = handle.take_definition()?;
        let mut out = Vec::new();
        for step in case["steps"].as_array().unwrap() {
            let opts = step.get("options").map(to_value);
            let opts = opts.as_ref();
            out.push(if let Some(input) = step.get("validate") {
                outcome(api::handle_validate_input(&handle, &&to_value(input), opts.as_ref()))
            } else if let Some(Json::String(text)) = step.get("validateJson") {
                outcome(api::handle_validate_input_json(&handle, text.as_bytes(), opts.as_ref()))
            } else if let Some(inputs) = step.get("validateMany") {
                outcome(
                    api::handle_validate_inputs(&handle, &&to_value(inputs), opts.as_ref())
                        .map(|items| Value::Array(items.into_iter().map(outcome).collect())),
                )
            } else if step.get("free").is_some() {
                handle.release();
                outcome(Ok(Value::Null))
            } else if let Some(input) = step.get("validateCopy") {
                outcome(api::validate_tool_input(&&definition, &&to_value(input), opts.as_ref()))
            } else {
                panic!("unknown compiledTool step {step}")
            });
        }
        Ok(Value::Array(out))
    }))
}
