//! The WebAssembly component binding (Python through wasmtime). Strings in, one JSON string out.
//! See `wit/agent-contract.wit` for the text formats.

use crate::api;
use crate::error::ContractError;
use crate::input::limits::Limits;
use crate::json::{self, Mode};
use crate::value::Value;
use crate::wire::{outcome_value, to_text, verdict_text};

// The shipped world, or the test build's (the shipped one plus the full-reply twins and `echo`).
#[cfg(not(feature = "testing"))]
wit_bindgen::generate!({ world: "agent-contract", path: "wit" });
#[cfg(feature = "testing")]
wit_bindgen::generate!({ world: "agent-contract-testing", path: "wit" });

mod verdict; // verdict replies

struct Core;

/// Host text for a value; host text is never size-limited here (see `json::Mode::Host`).
fn host_value(text: &str) -> Result<Value, ContractError> {
    json::parse(text.as_bytes(), Mode::Host, &Limits::default())
}

/// Host text of provider events (one, or a list): parsed with the ceilings, because each event
/// is then judged by the stream's own budget, as a JS value read in place is.
fn host_events(text: &str) -> Result<Value, ContractError> {
    json::parse(text.as_bytes(), Mode::Host, &Limits::ceilings())
}

fn host_options(text: &str) -> Result<Option<Value>, ContractError> {
    if text.is_empty() {
        return Ok(None);
    }
    host_value(text).map(Some)
}

/// The bytes a `-bytes` export carries in its string, one per code point U+0000..=U+00FF
/// (Latin-1): wasmtime-py lowers a `list<u8>` one element at a time, a string in one copy, so
/// text that is not valid Unicode crosses in linear time. A code point above U+00FF is no
/// carried byte (the Python binding never sends one); it becomes 0xFF, which is never valid
/// UTF-8, so the core rejects the text rather than reading something else.
fn carried_bytes(carried: &str) -> Vec<u8> {
    if carried.is_ascii() {
        return carried.as_bytes().to_vec();
    }
    carried.chars().map(|c| u8::try_from(c).unwrap_or(0xFF)).collect()
}

#[cfg(feature = "testing")] // the full-reply twins only (world `agent-contract-testing`)
fn action_json(text: &[u8], options: &str) -> String {
    reply((|| {
        let o = host_options(options)?;
        api::parse_agent_action_json(text, o.as_ref().as_ref()).map(|a| a.into_value())
    })())
}

#[cfg(feature = "testing")] // the full-reply twins only (world `agent-contract-testing`)
fn actions_jsonl(text: &[u8], options: &str) -> String {
    batch((|| {
        let o = host_options(options)?;
        api::parse_agent_actions_jsonl(text, o.as_ref().as_ref())
    })())
}

/// A verdict-only reply (`wire::verdict_text`): on success the binding parses its own text.
fn check_json(text: &[u8], options: &str) -> String {
    verdict_text((|| {
        let o = host_options(options)?;
        api::check_json(text, o.as_ref().as_ref())
    })())
}

#[cfg(feature = "testing")] // the full-reply twins only (world `agent-contract-testing`)
fn decision_json(text: &[u8], options: &str) -> String {
    reply((|| {
        let o = host_options(options)?;
        api::parse_decision_json(text, o.as_ref().as_ref()).map(|d| d.into_value())
    })())
}

/// A verdict-only reply (`wire::verdict_text`): the valid input is the caller's text
/// unchanged, which the binding parses itself.
fn input_json(tool: &str, text: &[u8], options: &str) -> String {
    verdict_text((|| {
        let (t, o) = (host_value(tool)?, host_options(options)?);
        api::check_tool_input_json(&&t, text, o.as_ref().as_ref())
    })())
}

/// A session or message text function: options read from host text, then the core.
fn session_call(
    text: &[u8],
    options: &str,
    run: impl FnOnce(&[u8], Option<&&Value>) -> Result<Value, ContractError>,
) -> String {
    reply((|| {
        let o = host_options(options)?;
        run(text, o.as_ref().as_ref())
    })())
}

fn query_call(query: &str, text: &[u8], options: &str) -> String {
    reply((|| {
        let (q, o) = (host_value(query)?, host_options(options)?);
        api::query_session(text, &&q, o.as_ref().as_ref())
    })())
}

fn reply(result: Result<Value, ContractError>) -> String {
    to_text(&outcome_value(result))
}

fn batch(result: Result<Vec<Result<crate::AgentAction, ContractError>>, ContractError>) -> String {
    crate::wire::batch_reply(result, crate::AgentAction::into_value)
}

impl Guest for Core {
    fn parse_agent_action_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::parse_agent_action(&&v, o.as_ref().as_ref()).map(|a| a.into_value())
        })())
    }

    #[cfg(feature = "testing")]
    fn parse_agent_action_json_with_options(text: String, options: String) -> String {
        action_json(text.as_bytes(), &options)
    }

    #[cfg(feature = "testing")]
    fn parse_agent_action_json_bytes_with_options(text: String, options: String) -> String {
        action_json(&carried_bytes(&text), &options)
    }

    fn preview_action_with_options(value: String, options: String) -> String {
        // A preview never fails: an unreadable value or options become the `{ok: false}` summary.
        reply(Ok(match (host_value(&value), host_options(&options)) {
            (Ok(v), Ok(o)) => api::preview_action(&&v, o.as_ref().as_ref()),
            (Err(e), _) | (_, Err(e)) => crate::protocol::preview::preview_action_error(&e),
        }))
    }

    fn parse_agent_actions_with_options(values: String, options: String) -> String {
        batch((|| {
            let (v, o) = (host_value(&values)?, host_options(&options)?);
            api::parse_agent_actions(&&v, o.as_ref().as_ref())
        })())
    }

    #[cfg(feature = "testing")]
    fn parse_agent_actions_jsonl_with_options(text: String, options: String) -> String {
        actions_jsonl(text.as_bytes(), &options)
    }

    #[cfg(feature = "testing")]
    fn parse_agent_actions_jsonl_bytes_with_options(text: String, options: String) -> String {
        actions_jsonl(&carried_bytes(&text), &options)
    }

    fn parse_agent_action(value: String) -> String {
        Self::parse_agent_action_with_options(value, String::new())
    }

    #[cfg(feature = "testing")]
    fn parse_agent_action_json(text: String) -> String {
        Self::parse_agent_action_json_with_options(text, String::new())
    }

    #[cfg(feature = "testing")]
    fn parse_agent_action_json_bytes(text: String) -> String {
        Self::parse_agent_action_json_bytes_with_options(text, String::new())
    }

    fn preview_action(value: String) -> String {
        Self::preview_action_with_options(value, String::new())
    }

    fn parse_agent_actions(values: String) -> String {
        Self::parse_agent_actions_with_options(values, String::new())
    }

    #[cfg(feature = "testing")]
    fn parse_agent_actions_jsonl(text: String) -> String {
        Self::parse_agent_actions_jsonl_with_options(text, String::new())
    }

    #[cfg(feature = "testing")]
    fn parse_agent_actions_jsonl_bytes(text: String) -> String {
        Self::parse_agent_actions_jsonl_bytes_with_options(text, String::new())
    }

    fn parse_json(text: String) -> String {
        check_json(text.as_bytes(), "")
    }

    fn parse_json_with_options(text: String, options: String) -> String {
        check_json(text.as_bytes(), &options)
    }

    fn parse_json_bytes(text: String) -> String {
        Self::parse_json_bytes_with_options(text, String::new())
    }

    fn parse_json_bytes_with_options(text: String, options: String) -> String {
        check_json(&carried_bytes(&text), &options)
    }

    fn parse_decision(value: String) -> String {
        Self::parse_decision_with_options(value, String::new())
    }

    fn parse_decision_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::parse_decision(&&v, o.as_ref().as_ref()).map(|d| d.into_value())
        })())
    }

    #[cfg(feature = "testing")]
    fn parse_decision_json(text: String) -> String {
        decision_json(text.as_bytes(), "")
    }

    #[cfg(feature = "testing")]
    fn parse_decision_json_with_options(text: String, options: String) -> String {
        decision_json(text.as_bytes(), &options)
    }

    #[cfg(feature = "testing")]
    fn parse_decision_json_bytes(text: String) -> String {
        Self::parse_decision_json_bytes_with_options(text, String::new())
    }

    #[cfg(feature = "testing")]
    fn parse_decision_json_bytes_with_options(text: String, options: String) -> String {
        decision_json(&carried_bytes(&text), &options)
    }

    fn validate_tool_input_with_options(tool: String, input: String, options: String) -> String {
        reply((|| {
            let (t, i, o) = (host_value(&tool)?, host_value(&input)?, host_options(&options)?);
            api::validate_tool_input(&&t, &&i, o.as_ref().as_ref())
        })())
    }

    fn validate_tool_input(tool: String, input: String) -> String {
        Self::validate_tool_input_with_options(tool, input, String::new())
    }

    fn validate_tool_input_json_with_options(tool: String, text: String, options: String) -> String {
        input_json(&tool, text.as_bytes(), &options)
    }

    fn validate_tool_input_json(tool: String, text: String) -> String {
        Self::validate_tool_input_json_with_options(tool, text, String::new())
    }

    fn validate_tool_input_json_bytes_with_options(tool: String, text: String, options: String) -> String {
        input_json(&tool, &carried_bytes(&text), &options)
    }

    fn validate_tool_input_json_bytes(tool: String, text: String) -> String {
        Self::validate_tool_input_json_bytes_with_options(tool, text, String::new())
    }

    fn catalog(registry: String) -> String {
        reply(host_value(&registry).and_then(|r| api::catalog(&&r)))
    }

    fn define_policy(policy: String) -> String {
        reply(host_value(&policy).and_then(|p| api::define_policy(&&p)))
    }

    fn check_tool_call_with_options(registry: String, action: String, policy: String, options: String) -> String {
        reply((|| {
            let (r, a, p) = (host_value(&registry)?, host_value(&action)?, host_value(&policy)?);
            let o = host_options(&options)?;
            api::check_tool_call(&&r, &&a, &&p, o.as_ref().as_ref())
        })())
    }

    fn check_tool_call(registry: String, action: String, policy: String) -> String {
        Self::check_tool_call_with_options(registry, action, policy, String::new())
    }

    fn to_openai_tools(registry: String) -> String {
        reply(host_value(&registry).and_then(|r| api::project(&&r, api::Provider::OpenAi)))
    }

    fn to_openai_responses_tools(registry: String) -> String {
        reply(host_value(&registry).and_then(|r| api::project(&&r, api::Provider::OpenAiResponses)))
    }

    fn to_anthropic_tools(registry: String) -> String {
        reply(host_value(&registry).and_then(|r| api::project(&&r, api::Provider::Anthropic)))
    }

    fn to_mcp_tools(registry: String) -> String {
        reply(host_value(&registry).and_then(|r| api::project(&&r, api::Provider::Mcp)))
    }

    fn normalize_tool_result_with_options(tool: String, value: String, options: String) -> String {
        reply((|| {
            let (t, v, o) = (host_value(&tool)?, host_value(&value)?, host_options(&options)?);
            api::normalize_tool_result(&&t, &&v, o.as_ref().as_ref())
        })())
    }

    fn normalize_tool_result(tool: String, value: String) -> String {
        Self::normalize_tool_result_with_options(tool, value, String::new())
    }

    fn compare_contracts(old: String, new: String) -> String {
        reply((|| api::compare_contracts(&&host_value(&old)?, &&host_value(&new)?))())
    }

    fn diff_catalogs(old: String, new: String) -> String {
        reply((|| api::diff_catalogs(&&host_value(&old)?, &&host_value(&new)?))())
    }

    fn strict_schema_issues(schema: String) -> String {
        reply(host_value(&schema).and_then(|s| api::strict_schema_issues(&&s)))
    }

    fn json_schema_for_target(schema: String, target: String) -> String {
        reply((|| api::json_schema_for_target(&&host_value(&schema)?, &&host_value(&target)?))())
    }

    fn standard_json_schema(schema: String, target: String) -> String {
        reply((|| api::standard_json_schema(&&host_value(&schema)?, &&host_value(&target)?))())
    }

    fn assemble_provider_stream(provider: String, input: String) -> String {
        Self::assemble_provider_stream_with_options(provider, input, String::new())
    }

    fn assemble_provider_stream_with_options(provider: String, input: String, options: String) -> String {
        reply((|| {
            let (p, i, o) = (host_value(&provider)?, host_events(&input)?, host_options(&options)?);
            crate::stream::provider_stream::assemble(&&p, &&i, None, o.as_ref().as_ref())
        })())
    }

    fn seed(bytes: Vec<u8>) -> bool {
        api::seed(&bytes)
    }

    fn not_text(value: String) -> String {
        reply(host_value(&value).and_then(|v| Err(api::not_text(&&v))))
    }

    #[cfg(feature = "testing")]
    fn echo(text: String) -> String {
        text
    }

    // ACP prompt admission and lifecycle:
    fn admit_prompt(request: String, capabilities: String, options: String) -> String {
        let result = (|| {
            let (r, c, o) = (host_value(&request)?, host_value(&capabilities)?, host_options(&options)?);
            api::admit_prompt(&&r, &&c, o.as_ref().as_ref())
        })();
        match result {
            Ok(plan) => {
                // Each payload beside the JSON Pointer of the plan entry it belongs to (the
                // entries holding a `sha256`, in the plan's order), so the host puts the decoded
                // bytes there without knowing the plan's shape or the order of its lists.
                let mut entries = Vec::new();
                if let Value::Object(members) = &plan.value {
                    for (key, list) in members {
                        let Value::Array(items) = list else { continue };
                        for (i, item) in items.iter().enumerate() {
                            if matches!(item, Value::Object(fields) if fields.iter().any(|(k, _)| k == "sha256")) {
                                entries.push(format!("/{}/{i}", key.replace('~', "~0").replace('/', "~1")));
                            }
                        }
                    }
                }
                let payloads = entries
                    .into_iter()
                    .zip(plan.attachments)
                    .map(|(at, a)| Value::Array(vec![Value::String(at), Value::String(a.base64)]))
                    .collect();
                let mut reply = outcome_value(Ok(plan.value));
                if let Value::Object(members) = &mut reply {
                    members.push(("payloads".to_owned(), Value::Array(payloads)));
                }
                to_text(&reply)
            }
            Err(e) => reply(Err(e)),
        }
    }

    fn is_canonical_base64(value: String) -> bool {
        host_value(&value).is_ok_and(|v| crate::acp::admission::is_canonical_base64(&&v))
    }

    fn is_canonical_base64_text(text: String) -> bool {
        api::is_canonical_base64(text.as_bytes())
    }

    fn sniff_media_type(bytes: String) -> String {
        reply(Ok(api::sniff_media_type(&carried_bytes(&bytes))))
    }

    fn not_bytes(value: String) -> String {
        reply(host_value(&value).and_then(|v| Err(api::not_bytes(&&v))))
    }

    fn advertise_prompt_capabilities(facts: String) -> String {
        reply(host_value(&facts).and_then(|f| api::advertise_prompt_capabilities(&&f)))
    }

    // Gemini projection
    fn to_gemini_tools(registry: String) -> String {
        reply(host_value(&registry).and_then(|r| api::project(&&r, api::Provider::Gemini)))
    }

    fn gemini_schema_issues(schema: String) -> String {
        reply(host_value(&schema).and_then(|s| api::gemini_schema_issues(&&s)))
    }

    // Messages and sessions (seed 004)
    fn parse_agent_message(value: String) -> String {
        Self::parse_agent_message_with_options(value, String::new())
    }

    fn parse_agent_message_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::parse_agent_message(&&v, o.as_ref().as_ref())
        })())
    }

    fn parse_agent_message_json(text: String) -> String {
        session_call(text.as_bytes(), "", |t, o| api::parse_agent_message_json(t, o))
    }

    fn parse_agent_message_json_with_options(text: String, options: String) -> String {
        session_call(text.as_bytes(), &options, |t, o| api::parse_agent_message_json(t, o))
    }

    fn parse_agent_message_json_bytes(text: String) -> String {
        session_call(&carried_bytes(&text), "", |t, o| api::parse_agent_message_json(t, o))
    }

    fn parse_agent_message_json_bytes_with_options(text: String, options: String) -> String {
        session_call(&carried_bytes(&text), &options, |t, o| api::parse_agent_message_json(t, o))
    }

    fn parse_tool_result(value: String) -> String {
        Self::parse_tool_result_with_options(value, String::new())
    }

    fn parse_tool_result_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::parse_tool_result(&&v, o.as_ref().as_ref())
        })())
    }

    fn parse_session_entry(value: String) -> String {
        Self::parse_session_entry_with_options(value, String::new())
    }

    fn parse_session_entry_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::parse_session_entry(&&v, o.as_ref().as_ref())
        })())
    }

    fn check_session(text: String) -> String {
        session_call(text.as_bytes(), "", |t, o| api::check_session(t, o))
    }

    fn check_session_with_options(text: String, options: String) -> String {
        session_call(text.as_bytes(), &options, |t, o| api::check_session(t, o))
    }

    fn check_session_bytes(text: String) -> String {
        session_call(&carried_bytes(&text), "", |t, o| api::check_session(t, o))
    }

    fn check_session_bytes_with_options(text: String, options: String) -> String {
        session_call(&carried_bytes(&text), &options, |t, o| api::check_session(t, o))
    }

    fn check_chat_row(value: String) -> String {
        Self::check_chat_row_with_options(value, String::new())
    }

    fn check_chat_row_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::check_chat_row(&&v, o.as_ref().as_ref())
        })())
    }

    fn check_chat_row_text(text: String) -> String {
        session_call(text.as_bytes(), "", |t, o| api::check_chat_row_json(t, o))
    }

    fn check_chat_row_text_with_options(text: String, options: String) -> String {
        session_call(text.as_bytes(), &options, |t, o| api::check_chat_row_json(t, o))
    }

    fn check_chat_row_text_bytes(text: String) -> String {
        session_call(&carried_bytes(&text), "", |t, o| api::check_chat_row_json(t, o))
    }

    fn check_chat_row_text_bytes_with_options(text: String, options: String) -> String {
        session_call(&carried_bytes(&text), &options, |t, o| api::check_chat_row_json(t, o))
    }

    fn check_chat_rows(values: String) -> String {
        Self::check_chat_rows_with_options(values, String::new())
    }

    fn check_chat_rows_with_options(values: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&values)?, host_options(&options)?);
            api::check_chat_rows(&&v, o.as_ref().as_ref())
        })())
    }

    fn check_chat_rows_jsonl(text: String) -> String {
        session_call(text.as_bytes(), "", |t, o| api::check_chat_rows_jsonl(t, o))
    }

    fn check_chat_rows_jsonl_with_options(text: String, options: String) -> String {
        session_call(text.as_bytes(), &options, |t, o| api::check_chat_rows_jsonl(t, o))
    }

    fn check_chat_rows_jsonl_bytes(text: String) -> String {
        session_call(&carried_bytes(&text), "", |t, o| api::check_chat_rows_jsonl(t, o))
    }

    fn check_chat_rows_jsonl_bytes_with_options(text: String, options: String) -> String {
        session_call(&carried_bytes(&text), &options, |t, o| api::check_chat_rows_jsonl(t, o))
    }

    fn read_session(text: String) -> String {
        session_call(text.as_bytes(), "", |t, o| api::read_session(t, o))
    }

    fn read_session_with_options(text: String, options: String) -> String {
        session_call(text.as_bytes(), &options, |t, o| api::read_session(t, o))
    }

    fn read_session_bytes(text: String) -> String {
        session_call(&carried_bytes(&text), "", |t, o| api::read_session(t, o))
    }

    fn read_session_bytes_with_options(text: String, options: String) -> String {
        session_call(&carried_bytes(&text), &options, |t, o| api::read_session(t, o))
    }

    fn query_session(query: String, text: String) -> String {
        query_call(&query, text.as_bytes(), "")
    }

    fn query_session_with_options(query: String, text: String, options: String) -> String {
        query_call(&query, text.as_bytes(), &options)
    }

    fn query_session_bytes(query: String, text: String) -> String {
        query_call(&query, &carried_bytes(&text), "")
    }

    fn query_session_bytes_with_options(query: String, text: String, options: String) -> String {
        query_call(&query, &carried_bytes(&text), &options)
    }

    fn from_seed_tool(def: String, extra: String) -> String {
        Self::from_seed_tool_with_options(def, extra, String::new())
    }

    fn from_seed_tool_with_options(def: String, extra: String, options: String) -> String {
        reply((|| {
            let (d, e, o) = (host_value(&def)?, host_value(&extra)?, host_options(&options)?);
            api::from_seed_tool(&&d, &&e, o.as_ref().as_ref())
        })())
    }

    fn to_seed_tool(tool: String) -> String {
        reply((|| api::to_seed_tool(&&host_value(&tool)?))())
    }

    // Agent events and the session response

    fn parse_agent_event(value: String) -> String {
        Self::parse_agent_event_with_options(value, String::new())
    }

    fn parse_agent_event_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::parse_agent_event(&&v, o.as_ref().as_ref())
        })())
    }

    fn check_event_sequence(value: String) -> String {
        Self::check_event_sequence_with_options(value, String::new())
    }

    fn check_event_sequence_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::check_event_sequence(&&v, o.as_ref().as_ref())
        })())
    }

    fn check_session_response(value: String) -> String {
        Self::check_session_response_with_options(value, String::new())
    }

    fn check_session_response_with_options(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::check_session_response(&&v, o.as_ref().as_ref())
        })())
    }

    // The protocol as JSON Schema
    fn protocol_schemas() -> String {
        reply(Ok(api::protocol_schemas()))
    }

    fn describe() -> String {
        reply(Ok(api::describe::describe()))
    }

    // Verdict replies, see `component/verdict.rs`.
    fn verdict_shapes() -> String {
        to_text(&api::verdict_shapes())
    }

    fn parse_agent_action_json_verdict(text: String) -> String {
        verdict::action_json(text.as_bytes(), "")
    }

    fn parse_agent_action_json_verdict_with_options(text: String, options: String) -> String {
        verdict::action_json(text.as_bytes(), &options)
    }

    fn parse_agent_action_json_verdict_bytes(text: String) -> String {
        verdict::action_json(&carried_bytes(&text), "")
    }

    fn parse_agent_action_json_verdict_bytes_with_options(text: String, options: String) -> String {
        verdict::action_json(&carried_bytes(&text), &options)
    }

    fn parse_agent_actions_jsonl_verdict(text: String) -> String {
        verdict::actions_jsonl(text.as_bytes(), "")
    }

    fn parse_agent_actions_jsonl_verdict_with_options(text: String, options: String) -> String {
        verdict::actions_jsonl(text.as_bytes(), &options)
    }

    fn parse_agent_actions_jsonl_verdict_bytes(text: String) -> String {
        verdict::actions_jsonl(&carried_bytes(&text), "")
    }

    fn parse_agent_actions_jsonl_verdict_bytes_with_options(text: String, options: String) -> String {
        verdict::actions_jsonl(&carried_bytes(&text), &options)
    }

    fn parse_decision_json_verdict(text: String) -> String {
        verdict::decision_json(text.as_bytes(), "")
    }

    fn parse_decision_json_verdict_with_options(text: String, options: String) -> String {
        verdict::decision_json(text.as_bytes(), &options)
    }

    fn parse_decision_json_verdict_bytes(text: String) -> String {
        verdict::decision_json(&carried_bytes(&text), "")
    }

    fn parse_decision_json_verdict_bytes_with_options(text: String, options: String) -> String {
        verdict::decision_json(&carried_bytes(&text), &options)
    }
}

/// One assembler per resource; wit-bindgen drops it when the host drops the resource.
struct ComponentAssembler {
    inner: std::cell::RefCell<Result<crate::stream::Assembler, ContractError>>,
}

impl exports::agent_contract::core::assembly::Guest for Core {
    type Assembler = ComponentAssembler;
    type ProviderAssembler = ComponentProviderAssembler;
    type SessionChecker = ComponentSessionChecker;
}

/// One provider stream per resource.
struct ComponentProviderAssembler {
    inner: std::cell::RefCell<Result<crate::stream::provider_stream::ProviderStream, ContractError>>,
}

impl ComponentProviderAssembler {
    fn with(
        &self,
        f: impl FnOnce(&mut crate::stream::provider_stream::ProviderStream) -> Result<(), ContractError>,
    ) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(a) => f(a).map(|()| Value::Null),
            Err(e) => Err(e.clone()),
        })
    }
}

impl exports::agent_contract::core::assembly::GuestProviderAssembler for ComponentProviderAssembler {
    fn new(provider: String, options: String) -> Self {
        let inner = (|| {
            let (p, o) = (host_value(&provider)?, host_options(&options)?);
            crate::stream::provider_stream::ProviderStream::from_host(&&p, o.as_ref().as_ref())
        })();
        ComponentProviderAssembler { inner: std::cell::RefCell::new(inner) }
    }

    fn push(&self, event: String) -> String {
        self.with(|a| match host_events(&event) {
            Ok(e) => a.push_host(&&e),
            Err(e) => Err(a.fail(e)),
        })
    }

    fn push_sse(&self, chunk: String) -> String {
        self.with(|a| a.push_sse(chunk.as_bytes()))
    }

    fn push_sse_bytes(&self, chunk: String) -> String {
        self.with(|a| a.push_sse(&carried_bytes(&chunk)))
    }

    fn push_sse_value(&self, chunk: String) -> String {
        self.with(|a| match host_value(&chunk) {
            Ok(c) => a.push_sse_host(&&c),
            Err(e) => Err(a.fail(e)),
        })
    }

    fn preview(&self) -> String {
        reply(self.inner.borrow().as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    fn finish(&self) -> String {
        reply(self.inner.borrow().as_ref().map_err(|e| e.clone()).and_then(|a| a.finish()))
    }
}

impl exports::agent_contract::core::assembly::GuestAssembler for ComponentAssembler {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| crate::stream::Assembler::from_options(o.as_ref().as_ref()));
        ComponentAssembler { inner: std::cell::RefCell::new(inner) }
    }

    fn push(&self, event: String) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(a) => match host_value(&event) {
                Ok(e) => a.push_value(&&e).map(|()| Value::Null),
                Err(e) => Err(a.fail(e)),
            },
            Err(e) => Err(e.clone()),
        })
    }

    fn preview(&self) -> String {
        reply(self.inner.borrow().as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    fn finish(&self) -> String {
        reply(self.inner.borrow().as_ref().map_err(|e| e.clone()).and_then(|a| a.finish()))
    }
}

/// The incremental session reader, one per resource.
struct ComponentSessionChecker {
    inner: std::cell::RefCell<Result<crate::session::check::SessionReader, ContractError>>,
}

impl exports::agent_contract::core::assembly::GuestSessionChecker for ComponentSessionChecker {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| api::create_session_reader(o.as_ref().as_ref()));
        ComponentSessionChecker { inner: std::cell::RefCell::new(inner) }
    }

    fn push(&self, chunk: String) -> String {
        self.push_bytes_of(chunk.as_bytes())
    }

    fn push_bytes(&self, chunk: String) -> String {
        self.push_bytes_of(&carried_bytes(&chunk))
    }

    fn preview(&self) -> String {
        reply(self.inner.borrow().as_ref().map(|r| r.problems_so_far()).map_err(|e| e.clone()))
    }

    fn finish(&self) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(r) => Ok(r.finish()),
            Err(e) => Err(e.clone()),
        })
    }
}

impl ComponentSessionChecker {
    fn push_bytes_of(&self, chunk: &[u8]) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(r) => Ok(r.push(chunk)),
            Err(e) => Err(e.clone()),
        })
    }
}

/// One session's prompt lifecycle per resource.
struct ComponentPromptLifecycle {
    inner: std::cell::RefCell<crate::acp::lifecycle::PromptLifecycle>,
}

impl exports::agent_contract::core::acp::Guest for Core {
    type PromptLifecycle = ComponentPromptLifecycle;
}

impl exports::agent_contract::core::acp::GuestPromptLifecycle for ComponentPromptLifecycle {
    fn new() -> Self {
        ComponentPromptLifecycle { inner: std::cell::RefCell::new(api::create_prompt_lifecycle()) }
    }

    fn call(&self, name: String, arg: String) -> String {
        reply((|| {
            let arg = host_options(&arg)?;
            api::lifecycle_call(&mut self.inner.borrow_mut(), &name, arg.as_ref().as_ref())
        })())
    }
}

// JSON-RPC over NDJSON: the `rpc` interface.

use exports::agent_contract::core::rpc as wit_rpc;

fn rpc_text(text: &[u8], options: &str) -> String {
    reply((|| {
        let o = host_options(options)?;
        api::classify_json_rpc_json(text, o.as_ref().as_ref()).map(crate::wire::batch_reply_linked)
    })())
}

impl wit_rpc::Guest for Core {
    type NdjsonDecoder = ComponentNdjsonDecoder;
    type StdoutPurity = ComponentStdoutPurity;
    type RpcSession = ComponentRpcSession;

    fn classify_json_rpc(value: String, options: String) -> String {
        reply((|| {
            let (v, o) = (host_value(&value)?, host_options(&options)?);
            api::classify_json_rpc(&&v, o.as_ref().as_ref()).map(crate::wire::batch_reply_linked)
        })())
    }

    fn classify_json_rpc_json(text: String, options: String) -> String {
        rpc_text(text.as_bytes(), &options)
    }

    fn classify_json_rpc_json_bytes(text: String, options: String) -> String {
        rpc_text(&carried_bytes(&text), &options)
    }

    fn method_not_found(request: String) -> String {
        reply(host_value(&request).and_then(|r| api::method_not_found(&&r)))
    }

    fn internal_error(request: String, error: String) -> String {
        reply((|| {
            let (r, e) = (host_value(&request)?, host_value(&error)?);
            api::internal_error(&&r, &&e)
        })())
    }

    fn invalid_params(request: String, contract_error: String) -> String {
        reply((|| {
            let (r, e) = (host_value(&request)?, host_value(&contract_error)?);
            api::invalid_params(&&r, &&e)
        })())
    }
}

fn check_of<T>(inner: &Result<T, ContractError>) -> String {
    reply(inner.as_ref().map(|_| Value::Null).map_err(|e| e.clone()))
}

struct ComponentNdjsonDecoder {
    inner: std::cell::RefCell<Result<crate::rpc::Decoder, ContractError>>,
}

impl ComponentNdjsonDecoder {
    /// The frames `f` hands over, written frame by frame (`wire::FrameWriter`: a chunk of a
    /// million short lines is a million frames, repeats written as rows).
    fn with(&self, f: impl FnOnce(&mut crate::rpc::Decoder, &mut dyn FnMut(crate::rpc::ndjson::Line))) -> String {
        match &mut *self.inner.borrow_mut() {
            Ok(d) => {
                let mut batch = crate::wire::FrameWriter::new();
                f(d, &mut |line| batch.line(line));
                batch.finish(Ok(()))
            }
            Err(e) => reply(Err(e.clone())),
        }
    }
}

impl wit_rpc::GuestNdjsonDecoder for ComponentNdjsonDecoder {
    fn new(options: String) -> Self {
        let inner = host_options(&options)
            .and_then(|o| api::create_ndjson_decoder(o.as_ref().as_ref()))
            .map(crate::rpc::Decoder::lazy);
        ComponentNdjsonDecoder { inner: std::cell::RefCell::new(inner) }
    }

    fn check(&self) -> String {
        check_of(&self.inner.borrow())
    }

    fn push(&self, chunk: String) -> String {
        self.with(|d, sink| d.push_lines(chunk.as_bytes(), sink))
    }

    fn push_bytes(&self, chunk: String) -> String {
        self.with(|d, sink| d.push_lines(&carried_bytes(&chunk), sink))
    }

    fn end(&self) -> String {
        self.with(|d, sink| d.end_line().into_iter().for_each(sink))
    }

    fn buffered(&self) -> u64 {
        self.inner.borrow().as_ref().map_or(0, |d| d.buffered() as u64)
    }
}

struct ComponentStdoutPurity {
    inner: std::cell::RefCell<Result<crate::rpc::purity::Purity, ContractError>>,
}

impl ComponentStdoutPurity {
    fn with(&self, f: impl FnOnce(&mut crate::rpc::purity::Purity) -> Value) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(p) => Ok(f(p)),
            Err(e) => Err(e.clone()),
        })
    }
}

impl wit_rpc::GuestStdoutPurity for ComponentStdoutPurity {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| api::create_purity_check(o.as_ref().as_ref()));
        ComponentStdoutPurity { inner: std::cell::RefCell::new(inner) }
    }

    fn check(&self) -> String {
        check_of(&self.inner.borrow())
    }

    fn push(&self, chunk: String) -> String {
        self.with(|p| {
            p.push(chunk.as_bytes());
            Value::Null
        })
    }

    fn push_bytes(&self, chunk: String) -> String {
        self.with(|p| {
            p.push(&carried_bytes(&chunk));
            Value::Null
        })
    }

    fn finish(&self) -> String {
        self.with(|p| p.finish())
    }
}

struct ComponentRpcSession {
    inner: std::cell::RefCell<Result<crate::rpc::Session, ContractError>>,
}

impl ComponentRpcSession {
    fn observe(&self, message: &str, incoming: bool) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(s) => host_value(message)
                .and_then(|m| api::rpc_session_observe(s, &&m, incoming))
                .map(crate::wire::batch_reply_linked),
            Err(e) => Err(e.clone()),
        })
    }
}

impl wit_rpc::GuestRpcSession for ComponentRpcSession {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| api::create_rpc_session(o.as_ref().as_ref()));
        ComponentRpcSession { inner: std::cell::RefCell::new(inner) }
    }

    fn check(&self) -> String {
        check_of(&self.inner.borrow())
    }

    fn incoming(&self, message: String) -> String {
        self.observe(&message, true)
    }

    fn outgoing(&self, message: String) -> String {
        self.observe(&message, false)
    }
}

export!(Core);

// Compiled tools: the `tools` interface and its `compiled-tool` resource.

use exports::agent_contract::core::tools as wit_tools;

/// One compiled tool per resource (`tools::handle`); creation errors are `reply`'s.
struct ComponentCompiledTool {
    inner: Result<crate::tools::handle::ToolHandle, ContractError>,
}

impl ComponentCompiledTool {
    fn from_text(text: &[u8], options: &str) -> Self {
        let inner = host_options(options).and_then(|o| api::compile_tool_json(text, o.as_ref().as_ref()));
        ComponentCompiledTool { inner }
    }

    fn with<T>(
        &self,
        run: impl FnOnce(&crate::tools::handle::ToolHandle) -> Result<T, ContractError>,
    ) -> Result<T, ContractError> {
        match &self.inner {
            Ok(h) => run(h),
            Err(e) => Err(e.clone()),
        }
    }

    fn input_json(&self, text: &[u8], options: &str) -> String {
        verdict_text((|| {
            let o = host_options(options)?;
            self.with(|h| api::handle_check_input_json(h, text, o.as_ref().as_ref()))
        })())
    }
}

impl wit_tools::Guest for Core {
    type CompiledTool = ComponentCompiledTool;
    type CompiledRegistry = ComponentCompiledRegistry;

    fn validate_tool_inputs(tool: String, inputs: String, options: String) -> String {
        let mut batch = crate::wire::BatchWriter::new();
        let result = (|| {
            let (t, i, o) = (host_value(&tool)?, host_value(&inputs)?, host_options(&options)?);
            api::validate_tool_inputs_each(&&t, &&i, o.as_ref().as_ref(), &mut |item| batch.outcome(item))
        })();
        batch.finish(result)
    }
}

impl wit_tools::GuestCompiledTool for ComponentCompiledTool {
    fn new(definition: String, options: String) -> Self {
        let inner = (|| {
            let (d, o) = (host_value(&definition)?, host_options(&options)?);
            api::compile_tool(&&d, o.as_ref().as_ref())
        })();
        ComponentCompiledTool { inner }
    }

    fn from_json(text: String, options: String) -> wit_tools::CompiledTool {
        wit_tools::CompiledTool::new(Self::from_text(text.as_bytes(), &options))
    }

    fn from_json_bytes(text: String, options: String) -> wit_tools::CompiledTool {
        wit_tools::CompiledTool::new(Self::from_text(&carried_bytes(&text), &options))
    }

    fn reply(&self) -> String {
        reply(self.with(|h| h.take_definition()))
    }

    fn release(&self) {
        if let Ok(h) = &self.inner {
            h.release();
        }
    }

    fn validate(&self, input: String) -> String {
        self.validate_with_options(input, String::new())
    }

    fn validate_with_options(&self, input: String, options: String) -> String {
        reply((|| {
            let (i, o) = (host_value(&input)?, host_options(&options)?);
            self.with(|h| api::handle_validate_input(h, &&i, o.as_ref().as_ref()))
        })())
    }

    fn validate_json(&self, text: String, options: String) -> String {
        self.input_json(text.as_bytes(), &options)
    }

    fn validate_json_bytes(&self, text: String, options: String) -> String {
        self.input_json(&carried_bytes(&text), &options)
    }

    fn validate_many(&self, inputs: String, options: String) -> String {
        let mut batch = crate::wire::BatchWriter::new();
        let result = (|| {
            let (i, o) = (host_value(&inputs)?, host_options(&options)?);
            self.with(|h| {
                api::handle_validate_inputs_each(h, &&i, o.as_ref().as_ref(), &mut |item| batch.outcome(item))
            })
        })();
        batch.finish(result)
    }
}

/// One compiled registry per resource (`tools::handle::RegistryHandle`).
struct ComponentCompiledRegistry {
    inner: Result<crate::tools::handle::RegistryHandle, ContractError>,
}

impl wit_tools::GuestCompiledRegistry for ComponentCompiledRegistry {
    fn new(tools: String, options: String) -> Self {
        let inner = (|| {
            let (t, o) = (host_value(&tools)?, host_options(&options)?);
            api::compile_registry(&&t, o.as_ref().as_ref())
        })();
        ComponentCompiledRegistry { inner }
    }

    fn reply(&self) -> String {
        reply(match &self.inner {
            Ok(h) => Ok(h.take_value().unwrap_or(Value::Null)),
            Err(e) => Err(e.clone()),
        })
    }

    fn check_tool_call(&self, action: String, policy: String, options: String) -> String {
        reply((|| {
            let registry = self.inner.as_ref().map_err(|e| e.clone())?;
            let (a, p, o) = (host_value(&action)?, host_value(&policy)?, host_options(&options)?);
            api::registry_check_tool_call(registry, &&a, &&p, o.as_ref().as_ref())
        })())
    }

    fn project(&self, kind: u32) -> String {
        let provider = match kind {
            1 => Some(api::Provider::OpenAi),
            2 => Some(api::Provider::OpenAiResponses),
            3 => Some(api::Provider::Anthropic),
            4 => Some(api::Provider::Mcp),
            5 => Some(api::Provider::Gemini),
            _ => None,
        };
        reply(self.inner.as_ref().map_err(|e| e.clone()).and_then(|h| api::registry_project(h, provider)))
    }
}
