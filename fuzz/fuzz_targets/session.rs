//! Messages, session files, events and ACP prompts (seed 004). The first byte
//! picks the operation (low 3 bits) and the options (bit 3: `dialect: "pi"`, bit 4: `strict`,
//! bit 5: small `maxIssues` and line limits); the rest is the text. Besides "no panic":
//! - a session text read in two chunks cut anywhere (and byte by byte when short) gives
//!   `checkSession`'s report, and `readSession` succeeds exactly when that report is `ok`;
//! - a message or entry read from text and read as a value agree (value, or code and path); text
//!   the options' limits refuse is refused with the parser's error (a value has no text to
//!   measure: the session readers check its shape first);
//! - an admission plan's `sha256` entries are, in order, its attachments' digests, and each
//!   attachment's base64 is canonical.
#![no_main]

use agent_contract::json::{self, Mode};
use agent_contract::value::{Number, Value};
use agent_contract::{api, Limits};
use libfuzzer_sys::fuzz_target;

mod common;
use common::{canon, wire_ok};

fn options(op: u8) -> Value {
    let mut members = Vec::new();
    if op & 8 != 0 {
        members.push(("dialect".to_owned(), Value::String("pi".into())));
    }
    if op & 16 != 0 {
        members.push(("strict".to_owned(), Value::Bool(true)));
    }
    if op & 32 != 0 {
        members.push(("maxIssues".to_owned(), Value::Number(Number::from_f64(2.0))));
        members.push(("maxBytes".to_owned(), Value::Number(Number::from_f64(512.0))));
        members.push(("maxDepth".to_owned(), Value::Number(Number::from_f64(6.0))));
    }
    Value::Object(members)
}

fn session_text(text: &[u8], o: &Value) {
    let report = api::check_session(text, Some(&o)).expect("the options are valid");
    wire_ok(Ok(report.clone()));
    let mut cuts = vec![text.len() / 2, (text.len() * 7) / 11];
    cuts.dedup();
    for cut in cuts {
        let mut reader = api::create_session_reader(Some(&o)).expect("the options are valid");
        reader.push(&text[..cut]);
        reader.push(&text[cut..]);
        assert_eq!(reader.finish(), report, "two chunks cut at {cut} give checkSession's report");
    }
    if text.len() <= 256 {
        let mut reader = api::create_session_reader(Some(&o)).expect("the options are valid");
        for b in text {
            reader.push(std::slice::from_ref(b));
        }
        assert_eq!(reader.finish(), report, "byte-by-byte chunks give checkSession's report");
    }
    let ok = matches!(report.get("ok"), Some(Value::Bool(true)));
    let read = api::read_session(text, Some(&o));
    assert_eq!(read.is_ok(), ok, "readSession succeeds exactly when the report is ok");
    if let (Ok(_), Some(Value::Array(leaves))) = (&read, report.get("leaves")) {
        for leaf in leaves.iter().take(3) {
            let query = Value::Object(vec![("context".to_owned(), leaf.clone())]);
            wire_ok(api::query_session(text, &&query, Some(&o)));
        }
    }
}

/// The text path and the value path of one reader agree, on text within the options' limits;
/// text past them is the parser's error. (The session target found a 759-byte array over
/// `maxBytes: 512`: `INPUT_TOO_LARGE` as text, `FIELD_TYPE` as a value, both right.)
fn agree(
    from_text: agent_contract::error::Result<Value>,
    text: &[u8],
    o: &Value,
    from_value: impl Fn(&Value) -> agent_contract::error::Result<Value>,
) {
    wire_ok(from_text.clone());
    let Ok(value) = json::parse(text, Mode::Strict, &Limits::default()) else { return };
    let limits =
        agent_contract::input::options::Options::read_for(Some(&o), agent_contract::input::options::OptionSet::Session)
            .expect("the options are valid")
            .limits;
    if let Err(refused) = json::parse(text, Mode::Strict, &limits) {
        let e = from_text.as_ref().expect_err("text past the limits is refused");
        assert_eq!((e.code, &e.path), (refused.code, &refused.path), "text past the limits is the parser's error");
        return;
    }
    match (&from_text, &from_value(&value)) {
        (Ok(a), Ok(b)) => assert_eq!(canon(a), canon(b), "text and value give the same result"),
        (Err(a), Err(b)) => assert_eq!((a.code, &a.path), (b.code, &b.path), "text and value give the same error"),
        (a, b) => panic!("text and value disagree: {a:?} vs {b:?}"),
    }
}

fn sha256s(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|x| sha256s(x, out)),
        Value::Object(members) => {
            for (k, x) in members {
                match (k.as_str(), x) {
                    ("sha256", Value::String(s)) => out.push(s.clone()),
                    _ => sha256s(x, out),
                }
            }
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    let o = &options(op);
    match op % 8 {
        0 | 1 => session_text(text, o),
        2 => agree(api::parse_agent_message_json(text, Some(&o)), text, o, |v| api::parse_agent_message(&v, Some(&o))),
        3 => {
            let from_text = agent_contract::session::entry::parse_session_entry_json(
                text,
                &agent_contract::input::options::Options::read_for(
                    Some(&o),
                    agent_contract::input::options::OptionSet::Session,
                )
                .expect("valid"),
            );
            agree(from_text, text, o, |v| api::parse_session_entry(&v, Some(&o)));
        }
        4 | 5 => {
            let Ok(v) = json::parse(text, Mode::Strict, &Limits::default()) else { return };
            let v = &v;
            wire_ok(api::parse_agent_event(&v, Some(&o)));
            wire_ok(api::check_event_sequence(&v, Some(&o)));
            wire_ok(api::check_session_response(&v, Some(&o)));
            wire_ok(api::parse_tool_result(&v, Some(&o)));
            wire_ok(api::to_seed_tool(&v));
            if let Value::Array(args) = v {
                if let [def, extra, ..] = args.as_slice() {
                    wire_ok(api::from_seed_tool(&def, &extra, None));
                }
            }
        }
        6 => {
            let Ok(Value::Array(args)) = json::parse(text, Mode::Strict, &Limits::default()) else { return };
            let null = Value::Null;
            let a = |i: usize| args.get(i).unwrap_or(&null);
            let (request, capabilities, options) = (a(0), a(1), a(2));
            let options = if matches!(options, Value::Null) { None } else { Some(&options) };
            match api::admit_prompt(&request, &capabilities, options) {
                Ok(plan) => {
                    wire_ok(Ok(plan.value.clone()));
                    let mut digests = Vec::new();
                    sha256s(&plan.value, &mut digests);
                    let computed: Vec<String> =
                        plan.attachments.iter().map(|a| agent_contract::acp::admission::sha256_hex(&a.bytes)).collect();
                    assert_eq!(digests, computed, "the plan's sha256 entries are its attachments' digests, in order");
                    for a in &plan.attachments {
                        assert!(api::is_canonical_base64(a.base64.as_bytes()), "an attachment's base64 is canonical");
                    }
                }
                Err(e) => wire_ok(Err(e)),
            }
        }
        _ => {
            // A prompt lifecycle driven by the bytes: every call is a result or a ContractError.
            const CALLS: [&str; 8] =
                ["admitted", "written", "enqueue", "cancel", "agentIdle", "outputDelivered", "settle", "abandon"];
            let mut lifecycle = api::create_prompt_lifecycle();
            for &b in text.iter().take(64) {
                let reason = Value::String(
                    ["end_turn", "cancelled", "max_tokens", "refusal", "x"][(b >> 3) as usize % 5].into(),
                );
                let arg = if b & 0x80 != 0 { Some(&reason) } else { None };
                wire_ok(api::lifecycle_call(&mut lifecycle, CALLS[(b & 7) as usize], arg.as_ref()));
            }
        }
    }
});
