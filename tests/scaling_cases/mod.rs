//! Growing inputs for every public function and a counting allocator for the
//! memory bound. Shared by `tests/scaling.rs` (ratios asserted with wide margins) and
//! `examples/scaling.rs` (the table recorded in `docs/fuzzing.md`).
//!
//! A case builds its input for a size `n` (outside the timing) and returns the call. The input
//! grows with `n` along the axis that case stresses: members of one object, items of a list,
//! lines, events, tools, rules.

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use agent_contract::api;
use agent_contract::json::{self, Mode};
use agent_contract::tools::schema::check_instances;
use agent_contract::value::Value;
use agent_contract::Limits;

/// Counts live heap bytes and their peak, so a case can report the most it held at once.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size > layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        q
    }
}

/// Runs `call` and returns its time and the most heap it held above what was live before it.
/// One call's time and peak heap, from a cold compiled-schema cache (what a first call costs).
pub fn measure(call: &dyn Fn()) -> (Duration, usize) {
    agent_contract::tools::schema::clear_cache();
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let t = Instant::now();
    call();
    let took = t.elapsed();
    (took, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

/// The fastest of `runs` calls (the least disturbed by other work on the machine).
pub fn fastest(call: &dyn Fn(), runs: usize) -> Duration {
    (0..runs).map(|_| measure(call).0).min().unwrap_or_default()
}

pub fn value(text: &str) -> Value {
    json::parse(text.as_bytes(), Mode::Host, &Limits::ceilings().unbounded_values()).expect("case input is JSON")
}

pub struct Built {
    /// Bytes of the case's input as JSON text: the "MB" of time per MB.
    pub bytes: usize,
    pub call: Box<dyn Fn()>,
}

pub struct Case {
    pub name: &'static str,
    pub build: fn(usize) -> Built,
}

fn members(n: usize) -> String {
    let mut s = String::from("{");
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"k{i}\":{i}");
    }
    s.push('}');
    s
}

/// `{"<prefix>0": 0, ... }` of `n` members.
fn members_named(n: usize, prefix: &str) -> String {
    let items = list(n, |i| format!("\"{prefix}{i}\":0"));
    format!("{{{}}}", &items[1..items.len() - 1])
}

fn list(n: usize, item: impl Fn(usize) -> String) -> String {
    let mut s = String::from("[");
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&item(i));
    }
    s.push(']');
    s
}

fn tool(i: usize, properties: &str) -> String {
    format!(
        r#"{{"name":"tool_{i}","description":"Tool {i}.","permissions":["read"],"inputSchema":{{"type":"object","properties":{properties},"additionalProperties":false}}}}"#
    )
}

/// `properties` of `count` members, each `{"enum": [0, 0, ... 1,000 numbers]}`.
fn wide_enums(count: usize) -> String {
    let numbers = list(1000, |_| "0".to_owned());
    let mut s = String::from("{");
    for i in 0..count {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"p{i}\":{{\"enum\":{numbers}}}");
    }
    s.push('}');
    s
}

fn action_with(input: &str) -> String {
    format!(r#"{{"type":"tool_call","callId":"c","tool":"t","input":{input}}}"#)
}

fn none() -> Option<&'static &'static Value> {
    None
}

/// Keeps a value alive for the call's closure (leaked: a case is built a handful of times).
fn keep(v: Value) -> &'static Value {
    Box::leak(Box::new(v))
}

fn ok<T>(r: agent_contract::error::Result<T>) {
    r.map(|_| ()).expect("scaling inputs are valid");
}

/// Valid, or refused for taking more evaluations than the engine's budget allows.
fn within_budget<T>(r: agent_contract::error::Result<T>) {
    if let Err(e) = r {
        assert_eq!(e.code, agent_contract::Code::InputTooLarge, "{}", e.message);
        assert!(e.message.contains("evaluations"), "{}", e.message);
    }
}

/// Done, or refused by the regular-expression budget its definitions share.
fn within_pattern_budget<T>(r: agent_contract::error::Result<T>) {
    if let Err(e) = r {
        assert_eq!(e.code, agent_contract::Code::ToolSchemaUnsupported, "{}", e.message);
        assert!(e.message.contains("regular expressions of the definitions in this call"), "{}", e.message);
    }
}

fn built(bytes: usize, call: impl Fn() + 'static) -> Built {
    Built { bytes, call: Box::new(call) }
}

fn sse(payloads: impl Iterator<Item = String>) -> String {
    let mut s = String::new();
    for p in payloads {
        s.push_str("data: ");
        s.push_str(&p);
        s.push_str("\n\n");
    }
    s
}

const SESSION_HEADER: &str = r#"{"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/w"}"#;

/// `checkSession` over `text` (the report is built whatever it holds).
fn session_text(text: String) -> Built {
    let bytes = text.len();
    let text: &'static [u8] = Box::leak(text.into_bytes().into_boxed_slice());
    built(bytes, move || ok(api::check_session::<&Value>(text, None)))
}

fn provider(name: &'static str, text: String) -> Built {
    let provider = keep(Value::String(name.to_owned()));
    let bytes = text.len();
    let text: &'static [u8] = Box::leak(text.into_bytes().into_boxed_slice());
    let input = keep(Value::Null);
    built(bytes, move || ok(agent_contract::stream::provider_stream::assemble(&provider, &input, Some(text), None)))
}

pub fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "parseAgentAction input {n members}",
            build: |n| {
                let text = action_with(&members(n));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::parse_agent_action(&v, none())))
            },
        },
        Case {
            name: "parseAgentAction input [n arrays]",
            build: |n| {
                let text = action_with(&list(n, |_| "[0]".into()));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::parse_agent_action(&v, none())))
            },
        },
        Case {
            name: "parseAgentActionJson input {n members}",
            build: |n| {
                let text = action_with(&members(n));
                built(text.len(), move || ok(api::parse_agent_action_json::<&Value>(text.as_bytes(), None)))
            },
        },
        Case {
            name: "parseJson {n members}",
            build: |n| {
                let text = members(n);
                built(text.len(), move || ok(api::parse_json::<&Value>(text.as_bytes(), None)))
            },
        },
        Case {
            name: "checkJson [n strings]",
            build: |n| {
                let text = list(n, |i| format!("\"s{i}\\n\""));
                built(text.len(), move || ok(api::check_json::<&Value>(text.as_bytes(), None)))
            },
        },
        Case {
            name: "parseAgentActions [n actions]",
            build: |n| {
                let text = list(n, |i| format!(r#"{{"type":"message","content":"m{i}"}}"#));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::parse_agent_actions(&v, none())))
            },
        },
        Case {
            name: "parseAgentActionsJsonl n lines",
            build: |n| {
                let text: String = (0..n).map(|i| format!("{{\"type\":\"message\",\"content\":\"m{i}\"}}\n")).collect();
                built(text.len(), move || ok(api::parse_agent_actions_jsonl::<&Value>(text.as_bytes(), None)))
            },
        },
        Case {
            name: "parseAgentActionsJsonl n blank lines",
            build: |n| {
                let text = "\n".repeat(n);
                built(text.len(), move || ok(api::parse_agent_actions_jsonl::<&Value>(text.as_bytes(), None)))
            },
        },
        Case {
            name: "parseDecision tool input {n members}",
            build: |n| {
                let text =
                    format!(r#"{{"kind":"tool","calls":[{{"callId":"c","name":"t","arguments":{}}}]}}"#, members(n));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::parse_decision(&v, none())))
            },
        },
        Case {
            name: "previewAction input {n members}",
            build: |n| {
                let text = action_with(&members(n));
                let v = keep(value(&text));
                built(text.len(), move || {
                    api::preview_action(&v, none());
                })
            },
        },
        Case {
            name: "defineTool {n/4 properties}",
            build: |n| {
                // At most the subschemas a definition may have (the root and `additionalProperties`
                // are two of them).
                let n = (n / 4).min(agent_contract::tools::schema::MAX_SCHEMA_NODES - 2);
                let props = list(n, |i| format!("\"p{i}\":{{\"type\":\"string\"}}"));
                let text = tool(0, &format!("{{{}}}", &props[1..props.len() - 1]));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::define_tool(&v, none())))
            },
        },
        Case {
            name: "defineTool enum [n strings]",
            build: |n| {
                let text = format!(
                    r#"{{"name":"t","description":"d","permissions":["read"],"inputSchema":{{"type":"object","properties":{{"e":{{"enum":{}}}}}}}}}"#,
                    list(n, |i| format!("\"v{i}\""))
                );
                let v = keep(value(&text));
                built(text.len(), move || ok(api::define_tool(&v, none())))
            },
        },
        // The schema's patterns (a fuzzer found a 12 KB pattern taking 2.5 s): compiled without
        // the cache (`check_instances`), since `fastest` runs each call twice; refused or not.
        Case {
            name: "defineTool schema, one pattern of n/2 \\d and n/2 \\cA",
            build: |n| {
                let pattern = r"\\d\\cA".repeat(n / 2);
                let text = format!(r#"{{"type":"string","pattern":"{pattern}"}}"#);
                let v = keep(value(&text));
                built(text.len(), move || drop(check_instances(&v, &[], &[])))
            },
        },
        Case {
            name: "defineTool schema, n/16 patterns \\p{L}{3}",
            build: |n| {
                let props = list(n / 16, |i| format!(r#""p{i}":{{"type":"string","pattern":"\\p{{L}}{{3}}"}}"#));
                let text = format!(r#"{{"type":"object","properties":{{{}}}}}"#, &props[1..props.len() - 1]);
                let v = keep(value(&text));
                built(text.len(), move || drop(check_instances(&v, &[], &[])))
            },
        },
        Case {
            name: "defineTool schema, one pattern of n/5 \\p{L}",
            build: |n| {
                let text = format!(r#"{{"type":"string","pattern":"{}"}}"#, r"\\p{L}".repeat(n / 5));
                let v = keep(value(&text));
                built(text.len(), move || drop(check_instances(&v, &[], &[])))
            },
        },
        Case {
            name: "validateToolInput {n members}",
            build: |n| {
                let t = keep(value(
                    r#"{"name":"t","description":"d","permissions":["read"],"inputSchema":{"type":"object"}}"#,
                ));
                let text = members(n);
                let v = keep(value(&text));
                built(text.len(), move || ok(api::validate_tool_input(&t, &v, none())))
            },
        },
        Case {
            name: "validateToolInput uniqueItems [n objects]",
            build: |n| {
                let t = keep(value(
                    r#"{"name":"t","description":"d","permissions":["read"],"inputSchema":{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}}"#,
                ));
                let text = format!("{{\"a\":{}}}", list(n, |i| format!("{{\"x\":{i},\"y\":\"s\"}}")));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::validate_tool_input(&t, &v, none())))
            },
        },
        Case {
            name: "validateToolInputJson uniqueItems [n strings]",
            build: |n| {
                let t = keep(value(
                    r#"{"name":"t","description":"d","permissions":["read"],"inputSchema":{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}}"#,
                ));
                let text = format!(r#"{{"a":{}}}"#, list(n, |i| format!("\"s{i}\"")));
                built(text.len(), move || ok(api::validate_tool_input_json(&t, text.as_bytes(), none())))
            },
        },
        Case {
            name: "validateToolInputJson self-referencing schema, n nested arrays failing everywhere",
            build: |n| {
                let t = keep(value(
                    r##"{"name":"t","description":"d","permissions":["read"],"inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"array","minItems":2,"items":{"$ref":"#/$defs/n"}}}}}"##,
                ));
                let text = format!(r#"{{"a":{}}}"#, list(n, |_| "[[[[[[[[]]]]]]]]".to_owned()));
                built(text.len(), move || {
                    let e = api::validate_tool_input_json(&t, text.as_bytes(), none()).expect_err("fails everywhere");
                    assert!(e.issues.len() <= 100 && e.truncated, "issues cut at maxIssues");
                })
            },
        },
        Case {
            // A flood of failures from a short schema: each present member requires the same 500
            // absent names, so the issues number 4 per schema byte. The 100 listed are kept, not
            // every issue's words before the cut.
            name: "validateToolInput n/96 members each requiring 500 absent names (dependentRequired)",
            build: |n| {
                let names = list(500, |i| format!("\"x{i}\""));
                let members = (n / 96).max(1);
                let required = list(members, |i| format!("\"a{i}\":{names}"));
                let schema =
                    format!("{{\"type\":\"object\",\"dependentRequired\":{{{}}}}}", &required[1..required.len() - 1]);
                let t = keep(value(&format!(
                    r#"{{"name":"t","description":"d","permissions":["read"],"inputSchema":{schema}}}"#
                )));
                let input = members_named(members, "a");
                let v = keep(value(&input));
                built(schema.len() + input.len(), move || {
                    let e = api::validate_tool_input(&t, &v, none()).expect_err("names are missing");
                    assert_eq!(e.issues.len(), 100, "issues cut at maxIssues");
                    assert!(e.message.contains(&format!("({} issues,", members * 500)), "{}", e.message);
                })
            },
        },
        Case {
            name: "validateToolInputJson [n numbers] under an enum of 20,000 numbers",
            build: |n| {
                let t = keep(value(&format!(
                    r#"{{"name":"t","description":"d","permissions":["read"],"inputSchema":{{"type":"object","properties":{{"a":{{"type":"array","items":{{"enum":{}}}}}}}}}}}"#,
                    list(20_000, |i| (i * 2).to_string())
                )));
                let text = format!(r#"{{"a":{}}}"#, list(n, |_| "39998".to_owned()));
                built(text.len(), move || ok(api::validate_tool_input_json(&t, text.as_bytes(), none())))
            },
        },
        Case {
            name: "validateToolInputJson [n numbers] under an anyOf of 300 branches (the evaluation budget)",
            build: |n| {
                let t = keep(value(&format!(
                    r#"{{"name":"t","description":"d","permissions":["read"],"inputSchema":{{"type":"object","properties":{{"a":{{"type":"array","items":{{"anyOf":{}}}}}}}}}}}"#,
                    list(300, |i| match i {
                        299 => r#"{"type":"number"}"#.to_owned(),
                        _ => format!(r#"{{"type":"string","minLength":{i}}}"#),
                    })
                )));
                let text = format!(r#"{{"a":{}}}"#, list(n, |i| i.to_string()));
                built(text.len(), move || within_budget(api::validate_tool_input_json(&t, text.as_bytes(), none())))
            },
        },
        Case {
            name: "validateToolInput {n members} under 300 patternProperties (the evaluation budget)",
            build: |n| {
                let t = keep(value(&format!(
                    r#"{{"name":"t","description":"d","permissions":["read"],"inputSchema":{{"type":"object","patternProperties":{{{}}}}}}}"#,
                    (0..300).map(|i| format!(r#""^p{i}_[a-z]+$":{{"type":"string"}}"#)).collect::<Vec<_>>().join(",")
                )));
                let text = members(n);
                let v = keep(value(&text));
                built(text.len(), move || within_budget(api::validate_tool_input(&t, &v, none())))
            },
        },
        Case {
            name: "createRegistry [n tools]",
            build: |n| {
                let text = list(n, |i| tool(i, r#"{"p":{"type":"string"}}"#));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::create_registry(&v, none())))
            },
        },
        Case {
            name: "createRegistry [n tools, each a distinct schema] (the hosts' compiled registry)",
            build: |n| {
                let text = list(n, |i| tool(i, &format!(r#"{{"p":{{"type":"string","maxLength":{i}}}}}"#)));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::compile_registry(&v, none())))
            },
        },
        Case {
            name: "createRegistry [n tools, each a distinct costly pattern] (the call's regex budget)",
            build: |n| {
                let text =
                    list(n, |i| tool(i, &format!(r#"{{"p":{{"type":"string","pattern":"^\\p{{L}}{{150}}{i}$"}}}}"#)));
                let v = keep(value(&text));
                built(text.len(), move || within_pattern_budget(api::create_registry(&v, none())))
            },
        },
        Case {
            name: "createRegistry [n tools, each a distinct short pattern]",
            build: |n| {
                let text = list(n, |i| {
                    tool(i, &format!(r#"{{"p":{{"type":"string","pattern":"^[a-z0-9_-]{{1,64}}{i}$"}}}}"#))
                });
                let v = keep(value(&text));
                built(text.len(), move || within_pattern_budget(api::create_registry(&v, none())))
            },
        },
        Case {
            name: "catalog {tools: [n tools]}",
            build: |n| {
                let text = format!("{{\"tools\":{}}}", list(n, |i| tool(i, r#"{"p":{"type":"string"}}"#)));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::catalog(&v)))
            },
        },
        Case {
            name: "toOpenAITools {tools: [n tools]}",
            build: |n| {
                let text = format!("{{\"tools\":{}}}", list(n, |i| tool(i, r#"{"p":{"type":"string"}}"#)));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::project(&v, api::Provider::OpenAi)))
            },
        },
        Case {
            // A JS caller can hand over one 1,000-item array referenced from every property:
            // the core reads (and compiles, projects) each reference, so the text is the size.
            name: "toOpenAITools one tool, n/32 properties each an enum of 1,000 numbers",
            build: |n| {
                let text = format!("{{\"tools\":[{}]}}", tool(0, &wide_enums(n / 32)));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::project(&v, api::Provider::OpenAi)))
            },
        },
        Case {
            name: "validateToolInputJson a tool of n/32 properties each an enum of 1,000 numbers",
            build: |n| {
                let text = tool(0, &wide_enums(n / 32));
                let t = keep(value(&text));
                built(text.len(), move || ok(api::validate_tool_input_json(&t, b"{}", none())))
            },
        },
        Case {
            name: "checkToolCall {tools: [n tools]}",
            build: |n| {
                let reg = format!("{{\"tools\":{}}}", list(n, |i| tool(i, r#"{"p":{"type":"string"}}"#)));
                let action =
                    format!(r#"{{"type":"tool_call","callId":"c","tool":"tool_{}","input":{{"p":"x"}}}}"#, n / 2);
                let (r, a) = (keep(value(&reg)), keep(value(&action)));
                let p = keep(value(r#"{"rules":[{"effect":"allow","permission":"read"}]}"#));
                built(reg.len(), move || ok(api::check_tool_call(&r, &a, &p, none())))
            },
        },
        Case {
            name: "definePolicy [n rules]",
            build: |n| {
                let text = format!("{{\"rules\":{}}}", list(n, |i| format!(r#"{{"effect":"allow","tool":"t{i}"}}"#)));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::define_policy(&v)))
            },
        },
        Case {
            name: "strictSchemaIssues {n/4 properties}",
            build: |n| {
                // At most the subschemas a definition may have (the root and `additionalProperties`
                // are two of them).
                let n = (n / 4).min(agent_contract::tools::schema::MAX_SCHEMA_NODES - 2);
                let props = list(n, |i| format!("\"p{i}\":{{\"type\":\"string\"}}"));
                let text = format!("{{\"type\":\"object\",\"properties\":{{{}}}}}", &props[1..props.len() - 1]);
                let v = keep(value(&text));
                built(text.len(), move || ok(api::strict_schema_issues(&v)))
            },
        },
        Case {
            // Found by the Node fuzzer (92 MB): each level's issue path repeats every name above
            // it, so 40 levels of n-byte names made paths (and the walk's own copies) quadratic.
            name: "strictSchemaIssues 40 levels of $defs with n-byte names",
            build: |n| {
                let name = "k".repeat(n);
                let mut text = String::from("{\"type\":\"string\"}");
                for _ in 0..40 {
                    text = format!("{{\"x\":1,\"$defs\":{{\"{name}\":{text}}}}}");
                }
                let v = keep(value(&text));
                built(text.len(), move || ok(api::strict_schema_issues(&v)))
            },
        },
        Case {
            // Each $ref points through a large $defs (and each dependentSchemas name is also a
            // dependentRequired one): the members are found through an index, not a scan each.
            name: "jsonSchemaForTarget draft-07: n/4 $refs into n/4 $defs, n/4 dependencies",
            build: |n| {
                let n = (n / 4).max(1);
                let defs =
                    list(n, |i| format!("\"d{i}\":{{\"prefixItems\":[{{\"type\":\"string\"}}],\"items\":false}}"));
                let props = list(n, |i| format!("\"p{i}\":{{\"$ref\":\"#/$defs/d{}/prefixItems/0\"}}", n - 1 - i));
                let required = list(n, |i| format!("\"k{i}\":[\"a\"]"));
                let schemas = list(n, |i| format!("\"k{}\":{{\"required\":[\"b\"]}}", n - 1 - i));
                let object = |l: &str| format!("{{{}}}", &l[1..l.len() - 1]);
                let text = format!(
                    "{{\"type\":\"object\",\"properties\":{},\"dependentRequired\":{},\"dependentSchemas\":{},\"$defs\":{}}}",
                    object(&props),
                    object(&required),
                    object(&schemas),
                    object(&defs)
                );
                let v = keep(value(&text));
                let target = keep(Value::String("draft-07".into()));
                built(text.len(), move || ok(api::json_schema_for_target(&v, &target)))
            },
        },
        Case {
            // Deep and long-named: a walk that carried each level's pointer held the depth times
            // the path (120 levels of 5,000-byte names: ~70 MB of pointers for a 0.6 MB schema).
            name: "jsonSchemaForTarget draft-07: 120 levels of properties named n/12 bytes",
            build: |n| {
                let name = "n".repeat((n / 12).max(1));
                let mut text = String::from("{\"type\":\"string\"}");
                for _ in 0..120 {
                    text = format!("{{\"type\":\"object\",\"properties\":{{\"{name}\":{text}}}}}");
                }
                let v = keep(value(&text));
                let target = keep(Value::String("draft-07".into()));
                built(text.len(), move || ok(api::json_schema_for_target(&v, &target)))
            },
        },
        Case {
            name: "standardJsonSchema draft-07: n/4 properties, then a keyword draft-07 cannot hold",
            build: |n| {
                let props = list((n / 4).max(1), |i| format!("\"p{i}\":{{\"prefixItems\":[{{\"type\":\"string\"}}]}}"));
                let text = format!(
                    "{{\"type\":\"object\",\"properties\":{{{}}},\"unevaluatedProperties\":false}}",
                    &props[1..props.len() - 1]
                );
                let v = keep(value(&text));
                let target = keep(Value::String("draft-07".into()));
                built(text.len(), move || ok(api::standard_json_schema(&v, &target)))
            },
        },
        Case {
            name: "compareContracts {n/4 properties}",
            build: |n| {
                // At most the subschemas a definition may have (the root and `additionalProperties`
                // are two of them).
                let n = (n / 4).min(agent_contract::tools::schema::MAX_SCHEMA_NODES - 2);
                let props = list(n, |i| format!("\"p{i}\":{{\"type\":\"string\"}}"));
                let old = tool(0, &format!("{{{}}}", &props[1..props.len() - 1]));
                let props = list(n, |i| format!("\"p{}\":{{\"type\":\"string\"}}", n - 1 - i));
                let new = tool(0, &format!("{{{}}}", &props[1..props.len() - 1]));
                let (a, b) = (keep(value(&old)), keep(value(&new)));
                built(old.len() + new.len(), move || ok(api::compare_contracts(&a, &b)))
            },
        },
        Case {
            name: "diffCatalogs [n tools]",
            build: |n| {
                let old = list(n, |i| tool(i, r#"{"p":{"type":"string"}}"#));
                let new = list(n, |i| tool(n - 1 - i, r#"{"p":{"type":"string"}}"#));
                let (a, b) = (keep(value(&old)), keep(value(&new)));
                built(old.len() + new.len(), move || ok(api::diff_catalogs(&a, &b)))
            },
        },
        Case {
            name: "normalizeToolResult data {n members}",
            build: |n| {
                let t = keep(value(
                    r#"{"name":"t","description":"d","permissions":["read"],"inputSchema":{"type":"object"}}"#,
                ));
                let text = format!("{{\"ok\":true,\"data\":{}}}", members(n));
                let v = keep(value(&text));
                built(text.len(), move || ok(api::normalize_tool_result(&t, &v, none())))
            },
        },
        Case {
            name: "assembleStream n deltas",
            build: |n| {
                let mut events =
                    vec![r#"{"type":"start","sequence":1,"itemId":"i","callId":"c","name":"f"}"#.to_owned()];
                events.push(r#"{"type":"delta","sequence":2,"itemId":"i","text":"{\"a\":["}"#.to_owned());
                for i in 0..n {
                    events.push(format!(r#"{{"type":"delta","sequence":{},"itemId":"i","text":"0,"}}"#, i + 3));
                }
                events.push(format!(r#"{{"type":"delta","sequence":{},"itemId":"i","text":"0]}}"}}"#, n + 3));
                events.push(format!(r#"{{"type":"end","sequence":{},"itemId":"i"}}"#, n + 4));
                events.push(format!(r#"{{"type":"finish","sequence":{},"reason":"tool_calls"}}"#, n + 5));
                let text = format!("[{}]", events.join(","));
                let Value::Array(items) = value(&text) else { unreachable!() };
                let items: &'static [Value] = Box::leak(items.into_boxed_slice());
                built(text.len(), move || {
                    let refs: Vec<&Value> = items.iter().collect();
                    agent_contract::stream::assembler::assemble(&refs, None)
                        .map_err(|(_, e)| e)
                        .map(|_| ())
                        .expect("valid")
                })
            },
        },
        Case {
            name: "openai-chat SSE n argument chunks",
            build: |n| {
                let first = r#"{"id":"r","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\"a\":["}}]}}]}"#;
                let chunk =
                    r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"0,"}}]}}]}"#;
                let last = r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"0]}"}}]},"finish_reason":"tool_calls"}]}"#;
                let payloads = std::iter::once(first.to_owned())
                    .chain((0..n).map(|_| chunk.to_owned()))
                    .chain([last.to_owned(), "[DONE]".to_owned()]);
                provider("openai-chat", sse(payloads))
            },
        },
        Case {
            name: "anthropic SSE n argument chunks",
            build: |n| {
                let mut s = String::from(
                    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n",
                );
                s.push_str("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\n");
                let delta = |t: &str| {
                    format!("event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"input_json_delta\",\"partial_json\":\"{t}\"}}}}\n\n")
                };
                s.push_str(&delta("{\\\"a\\\":["));
                for _ in 0..n {
                    s.push_str(&delta("0,"));
                }
                s.push_str(&delta("0]}"));
                s.push_str("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n");
                s.push_str("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n");
                s.push_str("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
                provider("anthropic", s)
            },
        },
        Case {
            name: "openai-responses SSE n argument chunks",
            build: |n| {
                let mut p = vec![
                    r#"{"type":"response.created","response":{"id":"resp"},"sequence_number":0}"#.to_owned(),
                    r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":""},"sequence_number":1}"#.to_owned(),
                ];
                for i in 0..n {
                    p.push(format!(
                        r#"{{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{}","sequence_number":{}}}"#,
                        if i == 0 { "{\\\"a\\\":[" } else { "0," },
                        i + 2
                    ));
                }
                p.push(format!(
                    r#"{{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"0]}}","sequence_number":{}}}"#,
                    n + 2
                ));
                p.push(format!(
                    r#"{{"type":"response.output_item.done","output_index":0,"item":{{"type":"function_call","id":"fc","call_id":"c","name":"f"}},"sequence_number":{}}}"#,
                    n + 3
                ));
                p.push(format!(
                    r#"{{"type":"response.completed","response":{{"id":"resp"}},"sequence_number":{}}}"#,
                    n + 4
                ));
                provider("openai-responses", sse(p.into_iter()))
            },
        },
        Case {
            name: "gemini SSE n partialArgs members",
            build: |n| {
                let part = |fc: String| {
                    format!(
                        r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"functionCall":{fc}}}]}}}}],"responseId":"r"}}"#
                    )
                };
                let mut p = vec![part(r#"{"name":"f","willContinue":true}"#.to_owned())];
                for i in 0..n {
                    p.push(part(format!(
                        r#"{{"partialArgs":[{{"jsonPath":"$.k{i}","numberValue":{i}}}],"willContinue":true}}"#
                    )));
                }
                p.push(r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}],"responseId":"r"}"#.to_owned());
                provider("gemini", sse(p.into_iter()))
            },
        },
        // Messages and sessions (seed 004)
        Case { name: "checkSession n blank lines", build: |n| session_text("\n".repeat(n)) },
        Case {
            name: "checkSession n/16 chained entries",
            build: |n| {
                let mut text = String::from(SESSION_HEADER);
                for i in 0..n / 16 {
                    let parent = if i == 0 { "null".to_owned() } else { format!("\"e{}\"", i - 1) };
                    let _ = write!(text, "\n{{\"type\":\"message\",\"id\":\"e{i}\",\"parentId\":{parent},\"timestamp\":\"t\",\"message\":{{\"role\":\"user\",\"content\":[],\"timestamp\":1}}}}");
                }
                session_text(text)
            },
        },
        Case {
            name: "checkSession n/16 entries, then a tool result answering the first",
            build: |n| {
                let mut text = String::from(SESSION_HEADER);
                text.push_str("\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"timestamp\":\"t\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\",\"id\":\"c\",\"name\":\"f\",\"arguments\":{}}],\"stopReason\":\"toolUse\",\"usage\":{\"input\":0,\"output\":0,\"totalTokens\":0},\"timestamp\":1}}");
                let mut parent = "a".to_owned();
                for i in 0..n / 16 {
                    let _ = write!(text, "\n{{\"type\":\"message\",\"id\":\"e{i}\",\"parentId\":\"{parent}\",\"timestamp\":\"t\",\"message\":{{\"role\":\"user\",\"content\":[],\"timestamp\":1}}}}");
                    parent = format!("e{i}");
                }
                let _ = write!(text, "\n{{\"type\":\"message\",\"id\":\"r\",\"parentId\":\"{parent}\",\"timestamp\":\"t\",\"message\":{{\"role\":\"toolResult\",\"toolCallId\":\"c\",\"toolName\":\"f\",\"content\":[],\"isError\":false,\"timestamp\":1}}}}");
                session_text(text)
            },
        },
        Case {
            name: "checkSession n/2 turns reusing one toolCall id, each answered",
            build: |n| {
                let mut text = String::from(SESSION_HEADER);
                let mut parent = "null".to_owned();
                for i in 0..n / 2 {
                    let _ = write!(text, "\n{{\"type\":\"message\",\"id\":\"a{i}\",\"parentId\":{parent},\"timestamp\":\"t\",\"message\":{{\"role\":\"assistant\",\"content\":[{{\"type\":\"toolCall\",\"id\":\"call_0\",\"name\":\"f\",\"arguments\":{{}}}}],\"stopReason\":\"toolUse\",\"usage\":{{\"input\":0,\"output\":0,\"totalTokens\":0}},\"timestamp\":1}}}}");
                    let _ = write!(text, "\n{{\"type\":\"message\",\"id\":\"r{i}\",\"parentId\":\"a{i}\",\"timestamp\":\"t\",\"message\":{{\"role\":\"toolResult\",\"toolCallId\":\"call_0\",\"toolName\":\"f\",\"content\":[],\"isError\":false,\"timestamp\":1}}}}");
                    parent = format!("\"r{i}\"");
                }
                session_text(text)
            },
        },
        Case {
            name: "checkSession n/2 results of one call, each on a branch of its own",
            build: |n| {
                let mut text = String::from(SESSION_HEADER);
                text.push_str("\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"timestamp\":\"t\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\",\"id\":\"c\",\"name\":\"f\",\"arguments\":{}}],\"stopReason\":\"toolUse\",\"usage\":{\"input\":0,\"output\":0,\"totalTokens\":0},\"timestamp\":1}}");
                for i in 0..n / 2 {
                    let _ = write!(text, "\n{{\"type\":\"message\",\"id\":\"r{i}\",\"parentId\":\"a\",\"timestamp\":\"t\",\"message\":{{\"role\":\"toolResult\",\"toolCallId\":\"c\",\"toolName\":\"f\",\"content\":[],\"isError\":false,\"timestamp\":1}}}}");
                }
                session_text(text)
            },
        },
        // Dataset rows
        Case {
            name: "checkChatRow n/48 calls in one message, answered in reverse",
            build: |n| {
                let calls = list(n / 48, |i| {
                    format!(r#"{{"id":"c{i}","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}"#)
                });
                let answers: String = (0..n / 48)
                    .rev()
                    .map(|i| format!(r#",{{"role":"tool","tool_call_id":"c{i}","content":"ok"}}"#))
                    .collect();
                let text = format!(
                    r#"{{"messages":[{{"role":"user","content":"go"}},{{"role":"assistant","tool_calls":{calls}}}{answers}],"tools":[{{"type":"function","function":{{"name":"f","parameters":{{"type":"object"}}}}}}]}}"#
                );
                let bytes = text.len();
                let text: &'static [u8] = Box::leak(text.into_bytes().into_boxed_slice());
                built(bytes, move || ok(api::check_chat_row_json::<&Value>(text, None)))
            },
        },
        Case {
            name: "checkChatRowsJsonl n/128 rows calling undeclared tools",
            build: |n| {
                let line = r#"{"messages":[{"role":"user","content":"go"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"g","arguments":"{\"a\":1}"}}]}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"integer"}}}}}]}"#;
                let text = format!("{line}\n").repeat(n / 128);
                let bytes = text.len();
                let text: &'static [u8] = Box::leak(text.into_bytes().into_boxed_slice());
                built(bytes, move || ok(api::check_chat_rows_jsonl::<&Value>(text, None)))
            },
        },
        Case {
            name: "SSE n blank lines",
            build: |n| {
                let text = "\n".repeat(n)
                    + "data: {\"id\":\"r\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
                provider("openai-chat", text)
            },
        },
        // ACP prompt admission:
        Case {
            name: "admitPrompt n text blocks",
            build: |n| {
                let text = format!(
                    r#"{{"sessionId":"s","prompt":{}}}"#,
                    list(n, |i| format!(r#"{{"type":"text","text":"w{i} "}}"#))
                );
                let v = keep(value(&text));
                let caps = keep(Value::Null);
                built(text.len(), move || ok(api::admit_prompt(&v, &caps, none())))
            },
        },
        Case {
            name: "admitPrompt one PNG of 48n bytes",
            build: |n| {
                let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
                png.resize(48 * n, 7);
                let data = agent_contract::acp::base64::encode(&png);
                let text = format!(
                    r#"{{"sessionId":"s","prompt":[{{"type":"image","mimeType":"image/png","data":"{data}"}}]}}"#
                );
                let v = keep(value(&text));
                let caps = keep(value(r#"{"image":true}"#));
                built(text.len(), move || ok(api::admit_prompt(&v, &caps, none())))
            },
        },
        Case {
            name: "NDJSON decoder n lines (64 KiB reads)",
            build: |n| {
                let mut text = String::new();
                for i in 0..n {
                    let _ = writeln!(
                        text,
                        r#"{{"jsonrpc":"2.0","id":{i},"method":"session/update","params":{{"k":[{i}]}}}}"#
                    );
                }
                let bytes = text.len();
                built(bytes, move || {
                    let mut d = api::create_ndjson_decoder::<&Value>(None).expect("default options");
                    let mut frames = 0;
                    for chunk in text.as_bytes().chunks(65536) {
                        frames += d.push(chunk).len();
                    }
                    assert_eq!(frames + d.end().len(), n);
                })
            },
        },
        Case {
            // What a binding's decoder does (lazy, frames written by `wire::FrameWriter`): each
            // element is an invalid request with its reply, the worst bytes-to-frames ratio of
            // a batch (2 bytes an element).
            name: "NDJSON decoder as the bindings, n/62 batch lines of 62 invalid elements",
            build: |n| {
                let mut text = String::new();
                for i in 0..n.div_ceil(62) {
                    let _ = writeln!(text, "[{i}{}]", ",1".repeat(61));
                }
                let bytes = text.len();
                built(bytes, move || {
                    let mut d = api::create_ndjson_decoder::<&Value>(None).expect("default options").lazy();
                    let mut reply = agent_contract::wire::FrameWriter::new();
                    for chunk in text.as_bytes().chunks(65536) {
                        d.push_lines(chunk, &mut |line| reply.line(line));
                    }
                    d.end_line().into_iter().for_each(|line| reply.line(line));
                    assert!(reply.finish(Ok(())).starts_with(r#"{"ok":true"#));
                })
            },
        },
        Case {
            // A million frames per megabyte, each a problem counted (the first 1,000 listed).
            name: "checkStdoutPurity 16n blank lines",
            build: |n| {
                let text = "\n".repeat(16 * n);
                built(text.len(), move || {
                    let mut purity = api::create_purity_check::<&Value>(None).expect("default options");
                    purity.push(text.as_bytes());
                    let Value::Object(result) = purity.finish() else { panic!("an object") };
                    assert_eq!(result[0], ("pure".to_owned(), Value::Bool(false)));
                })
            },
        },
        Case {
            name: "classifyJsonRpcJson batch of n requests",
            build: |n| {
                let text = list(n, |i| format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"m"}}"#));
                built(text.len(), move || ok(api::classify_json_rpc_json::<&Value>(text.as_bytes(), None)))
            },
        },
    ]
}
