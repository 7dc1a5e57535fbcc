//! OpenAI Chat Completions and Anthropic Messages adapters over the recorded streams in ../shared/conformance/
//! provider-streams/{openai-chat,anthropic} (skipped, with a message, when ../shared is absent). Each
//! expected result was written by reading the file's `tool_calls` / `partial_json` fragments
//! and the finish / stop reason by hand, not by running the adapter. Rust only for now: the host entry
//! points and `fixtures/provider_streams.json` are still to come (issue 4 §4).

use std::path::PathBuf;

use agent_contract::stream::provider;
use agent_contract::value::write_json;
use agent_contract::Options;

fn assemble_payloads(p: &[&str], options: Options) -> agent_contract::error::Result<agent_contract::Value> {
    provider::assemble_payloads(&mut *provider::adapter("openai-chat", options)?, p)
}

fn assemble_sse(p: &[u8], options: Options) -> agent_contract::error::Result<agent_contract::Value> {
    provider::assemble_sse(&mut *provider::adapter("openai-chat", options)?, p)
}

mod anthropic {
    use super::*;
    pub fn assemble_payloads(p: &[&str], options: Options) -> agent_contract::error::Result<agent_contract::Value> {
        provider::assemble_payloads(&mut *provider::adapter("anthropic", options)?, p)
    }
    pub fn assemble_sse(p: &[u8], options: Options) -> agent_contract::error::Result<agent_contract::Value> {
        provider::assemble_sse(&mut *provider::adapter("anthropic", options)?, p)
    }
}

fn dir() -> Option<PathBuf> {
    folder("openai-chat")
}

fn folder(name: &str) -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/provider-streams").join(name);
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("provider_streams: SKIPPED, {} is absent", d.display());
        None
    }
}

fn run(dir: &PathBuf, file: &str) -> Result<String, String> {
    let bytes = std::fs::read(dir.join(file)).unwrap();
    let result = if file.ends_with(".chunks.txt") {
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assemble_payloads(&lines, Options::default())
    } else {
        // Also byte by byte: the same result for every chunking.
        let whole = assemble_sse(&bytes, Options::default());
        let mut a = provider::adapter("openai-chat", Options::default()).unwrap();
        let mut stepped = Ok(());
        for b in &bytes {
            stepped = stepped.and_then(|_| a.push_sse(&[*b]));
        }
        let stepped = stepped.and_then(|_| a.finish());
        assert_eq!(format!("{whole:?}"), format!("{stepped:?}"), "{file}: byte-by-byte differs");
        whole
    };
    result
        .map(|v| {
            let mut s = String::new();
            write_json(&mut s, &v);
            s
        })
        .map_err(|e| e.code.as_str().to_owned())
}

const EXPECTED: &[(&str, Result<&str, &str>)] = &[
    (
        "2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin",
        Ok(
            r#"{"responseId":"chatcmpl-ABfwERreu9s99xXsVuOWtIB2UOx62","finishReason":"tool_calls","calls":[{"callId":"call_4XzlGBLtUe9dy3GVNV4jhq7h","name":"get_weather","arguments":{"city":"New York City"}}]}"#,
        ),
    ),
    ("4cc50a6135d254573a502310e6af1246f55edb6ad95fa24059f160996b68866d.bin", Err("INCOMPLETE_RESPONSE")),
    (
        "a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin",
        Ok(
            r#"{"responseId":"chatcmpl-ABfwCgi41eStOcARjZq97ohCEGBPO","finishReason":"tool_calls","calls":[{"callId":"call_CTf1nWJLqSeRgDqaCG27xZ74","name":"get_weather","arguments":{"city":"San Francisco","state":"CA"}}]}"#,
        ),
    ),
    (
        "anthropic-fallback-tool-call.sse",
        Ok(
            r#"{"responseId":"msg_sanitized","finishReason":"tool_calls","calls":[{"callId":"toolu_sanitized","name":"read_file","arguments":{"path":"a.txt"}}]}"#,
        ),
    ),
    (
        "c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1.bin",
        Ok(
            r#"{"responseId":"chatcmpl-ABfw8AOXnoa2kzy11vVTSjuQhHCQr","finishReason":"tool_calls","calls":[{"callId":"call_c91SqDXlYFuETYv8mUHzz6pp","name":"GetWeatherArgs","arguments":{"city":"Edinburgh","country":"UK","units":"c"}}]}"#,
        ),
    ),
    (
        "deepseek-tool-call.chunks.txt",
        Ok(
            r#"{"responseId":"cca85624-4056-401f-b220-d77601d1f70d","finishReason":"tool_calls","calls":[{"callId":"call_00_ioIn7yN9p1ZOMNpDLwd4MgAF","name":"weather","arguments":{"location":"San Francisco"}}]}"#,
        ),
    ),
    (
        "f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin",
        Ok(
            r#"{"responseId":"chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63","finishReason":"tool_calls","calls":[{"callId":"call_JMW1whyEaYG438VE1OIflxA2","name":"GetWeatherArgs","arguments":{"city":"Edinburgh","country":"GB","units":"c"}},{"callId":"call_DNYTawLBoN8fj3KN6qU9N1Ou","name":"get_stock_price","arguments":{"ticker":"AAPL","exchange":"NASDAQ"}}]}"#,
        ),
    ),
    (
        "xai-tool-call.chunks.txt",
        Ok(
            r#"{"responseId":"7027d986-3c59-a37a-9a5f-50713e01c8a6","finishReason":"tool_calls","calls":[{"callId":"call_79382389","name":"weather","arguments":{"location":"San Francisco"}}]}"#,
        ),
    ),
];

#[test]
fn openai_chat_recorded_streams() {
    let Some(dir) = dir() else { return };
    for (file, expected) in EXPECTED {
        let got = run(&dir, file);
        let expected = expected.map(str::to_owned).map_err(str::to_owned);
        assert_eq!(got, expected, "{file}");
    }
}

#[test]
fn openai_chat_rules() {
    let ok = |p: &[&str]| assemble_payloads(p, Options::default()).map_err(|e| e.code.as_str().to_owned());
    let start = r#"{"id":"r","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":""}}]}}]}"#;
    let args = |t: &str| {
        format!(
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":0,"function":{{"arguments":{t:?}}}}}]}}}}]}}"#
        )
    };
    let fin = |r: &str| format!(r#"{{"choices":[{{"index":0,"delta":{{}},"finish_reason":"{r}"}}]}}"#);
    // An empty arguments text is not {} in this format.
    assert_eq!(ok(&[start, &fin("tool_calls")]).unwrap_err(), "JSON_INVALID");
    assert!(ok(&[start, &args("{}"), &fin("tool_calls"), "[DONE]"]).is_ok());
    assert_eq!(ok(&[start, &args("{}"), &fin("content_filter")]).unwrap_err(), "INCOMPLETE_RESPONSE");
    assert_eq!(ok(&[start, &args("{}"), &fin("weird")]).unwrap_err(), "INCOMPLETE_RESPONSE");
    assert_eq!(ok(&[start, &args("{}")]).unwrap_err(), "INCOMPLETE_RESPONSE");
    assert_eq!(ok(&[start, &args("{}"), &fin("stop"), "[DONE]", "{}"]).unwrap_err(), "STREAM_EVENT_INVALID");
    assert_eq!(ok(&[&args("{}")]).unwrap_err(), "STREAM_EVENT_INVALID");
    assert_eq!(ok(&["{not json"]).unwrap_err(), "JSON_INVALID");
    assert_eq!(ok(&["[1]"]).unwrap_err(), "STREAM_EVENT_INVALID");
    let e = assemble_payloads(&["{not json"], Options::default()).unwrap_err();
    assert_eq!(e.layer.as_str(), "transport");
    let n2 = r#"{"choices":[{"index":1,"delta":{}}]}"#;
    assert_eq!(ok(&[n2]).unwrap_err(), "STREAM_EVENT_INVALID");
    let renamed = r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"g"}}]}}]}"#;
    assert_eq!(ok(&[start, renamed]).unwrap_err(), "TOOL_NAME_CHANGED");
    // A truncated SSE event (no blank line) is dropped.
    let sse = format!("data: {start}\n\ndata: {}\n\ndata: {}", args("{}"), fin("tool_calls"));
    assert_eq!(assemble_sse(sse.as_bytes(), Options::default()).unwrap_err().code.as_str(), "INCOMPLETE_RESPONSE");
}

fn json(v: agent_contract::Value) -> String {
    let mut s = String::new();
    write_json(&mut s, &v);
    s
}

fn run_anthropic(dir: &PathBuf, file: &str) -> Result<String, String> {
    let bytes = std::fs::read(dir.join(file)).unwrap();
    let result = if file.ends_with(".chunks.txt") {
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        anthropic::assemble_payloads(&lines, Options::default())
    } else {
        let whole = anthropic::assemble_sse(&bytes, Options::default());
        let mut a = provider::adapter("anthropic", Options::default()).unwrap();
        let mut stepped = Ok(());
        for b in &bytes {
            stepped = stepped.and_then(|_| a.push_sse(&[*b]));
        }
        let stepped = stepped.and_then(|_| a.finish());
        assert_eq!(format!("{whole:?}"), format!("{stepped:?}"), "{file}: byte-by-byte differs");
        whole
    };
    result.map(json).map_err(|e| e.code.as_str().to_owned())
}

const ANTHROPIC: &[(&str, Result<&str, &str>)] = &[
    (
        "tool_use_response.txt",
        Ok(
            r#"{"responseId":"msg_019Q1hrJbZG26Fb9BQhrkHEr","finishReason":"tool_calls","calls":[{"callId":"toolu_01NRLabsLyVHZPKxbKvkfSMn","name":"get_weather","arguments":{"location":"Paris"}}]}"#,
        ),
    ),
    // max_tokens with the tool block never closed and its JSON cut: no executable call.
    ("incomplete_partial_json_response.txt", Err("INCOMPLETE_RESPONSE")),
    ("refusal_response.txt", Err("INCOMPLETE_RESPONSE")),
    // A server_tool_use block (not a client call), then refusal.
    ("stream-a-toolrefusal.sse", Err("INCOMPLETE_RESPONSE")),
    (
        "basic_response.txt",
        Ok(r#"{"responseId":"msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK","finishReason":"stop","calls":[]}"#),
    ),
    (
        "compaction_response.txt",
        Ok(r#"{"responseId":"msg_01CompactionEncryptedContent01","finishReason":"stop","calls":[]}"#),
    ),
    (
        "fallback_response.txt",
        Ok(r#"{"responseId":"msg_01FallbackModelRelabel000001","finishReason":"stop","calls":[]}"#),
    ),
    (
        "fallback_credit_response.txt",
        Ok(r#"{"responseId":"msg_01FallbackCreditUsage0000001","finishReason":"stop","calls":[]}"#),
    ),
    (
        "anthropic-json-tool.1.chunks.txt",
        Ok(
            r#"{"responseId":"msg_01K2JbSUMYhez5RHoK9ZCj9U","finishReason":"tool_calls","calls":[{"callId":"toolu_01KFbKqPYSuAKujiL6mTfzYA","name":"json","arguments":{"elements":[{"location":"San Francisco","temperature":58,"condition":"sunny"}]}}]}"#,
        ),
    ),
    (
        "anthropic-json-tool.2.chunks.txt",
        Ok(
            r#"{"responseId":"msg_01K2JbSUMYhez5RHoK9ZCj9U","finishReason":"tool_calls","calls":[{"callId":"toolu_01KFbKqPYSuAKujiL6mTfzYA","name":"json","arguments":{"elements":[{"location":"San Francisco","temperature":58,"condition":"sunny"}]}}]}"#,
        ),
    ),
    (
        "anthropic-json-other-tool.1.chunks.txt",
        Ok(
            r#"{"responseId":"msg_01CD3XaZfhNabxRt1SG5ybtK","finishReason":"tool_calls","calls":[{"callId":"toolu_019Zvehfe1XQWweT1pm7okyt","name":"weather","arguments":{"location":"San Francisco"}}]}"#,
        ),
    ),
    // One empty partial_json: a tool with no parameters, so {}.
    (
        "anthropic-tool-no-args.chunks.txt",
        Ok(
            r#"{"responseId":"msg_01GE2RKp1VYsPzdFs3sS9z5S","finishReason":"tool_calls","calls":[{"callId":"toolu_01QE1WLsSVp5hy5Q3GmGTmjP","name":"updateIssueList","arguments":{}}]}"#,
        ),
    ),
    // Server tools only (web_search / web_fetch run by Anthropic), then end_turn.
    (
        "anthropic-web-search-tool.1.chunks.txt",
        Ok(r#"{"responseId":"msg_01LHpEgU4KbfgXGVi3UtHQY1","finishReason":"stop","calls":[]}"#),
    ),
    (
        "anthropic-web-fetch-tool.1.chunks.txt",
        Ok(r#"{"responseId":"msg_01GpfwV1W5Ase72fzb8F45bX","finishReason":"stop","calls":[]}"#),
    ),
];

#[test]
fn anthropic_recorded_streams() {
    let Some(dir) = folder("anthropic") else { return };
    for (file, expected) in ANTHROPIC {
        let got = run_anthropic(&dir, file);
        let expected = expected.map(str::to_owned).map_err(str::to_owned);
        assert_eq!(got, expected, "{file}");
    }
}

#[test]
fn anthropic_rules() {
    let run = |p: &[&str]| anthropic::assemble_payloads(p, Options::default()).map_err(|e| e.code.as_str().to_owned());
    let ms = r#"{"type":"message_start","message":{"id":"m"}}"#;
    let bs = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#;
    let d = |t: &str| {
        format!(
            r#"{{"type":"content_block_delta","index":0,"delta":{{"type":"input_json_delta","partial_json":{t:?}}}}}"#
        )
    };
    let stop = r#"{"type":"content_block_stop","index":0}"#;
    let md = |r: &str| format!(r#"{{"type":"message_delta","delta":{{"stop_reason":"{r}"}}}}"#);
    let end = r#"{"type":"message_stop"}"#;
    let ping = r#"{"type":"ping"}"#;
    assert!(run(&[ms, bs, &d(r#"{"a":1}"#), ping, stop, &md("tool_use"), end]).is_ok());
    assert_eq!(run(&[ms, bs, &d(r#"{"a":1}"#), &md("tool_use")]).unwrap_err(), "INCOMPLETE_TOOL_CALL");
    assert_eq!(run(&[ms, bs, &d(r#"{"a""#), stop]).unwrap_err(), "JSON_INVALID");
    assert_eq!(run(&[ms, bs, &d("{}"), stop, &md("max_tokens")]).unwrap_err(), "INCOMPLETE_RESPONSE");
    assert_eq!(run(&[ms, bs, &d("{}"), stop, &md("pause_turn")]).unwrap_err(), "INCOMPLETE_RESPONSE");
    assert_eq!(
        run(&[ms, bs, &d("{}"), stop, r#"{"type":"error","error":{"type":"overloaded_error"}}"#]).unwrap_err(),
        "INCOMPLETE_RESPONSE"
    );
    assert_eq!(run(&[ms, &d("{}")]).unwrap_err(), "STREAM_EVENT_INVALID");
    assert_eq!(run(&[ms, bs, stop, &md("end_turn"), end, ms]).unwrap_err(), "STREAM_EVENT_INVALID");
    assert_eq!(run(&[ms, bs, bs]).unwrap_err(), "STREAM_EVENT_INVALID");
    assert_eq!(run(&[ms, bs, stop, stop]).unwrap_err(), "DELTA_AFTER_END");
    // A server tool's input is never a client call.
    let srv = r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}"#;
    assert_eq!(
        json(anthropic::assemble_payloads(&[ms, srv, &d("{\"q"), stop, &md("end_turn")], Options::default()).unwrap()),
        r#"{"responseId":"m","finishReason":"stop","calls":[]}"#
    );
}

/// OpenAI Responses: the recordings are split payloads (replayed by
/// fixtures/provider_openai_responses.json); one is re-encoded as SSE, with `event:` names, and
/// fed whole and byte by byte: the same response as the payloads.
#[test]
fn openai_responses_sse_any_chunking() {
    let Some(dir) = folder("openai-responses") else { return };
    let text = std::fs::read_to_string(dir.join("openai-client-tool-search.2.chunks.txt")).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut sse = String::from(": keep-alive\r\n\r\n");
    for l in &lines {
        sse.push_str("event: x\r\ndata: ");
        sse.push_str(l);
        sse.push_str("\r\n\r\n");
    }
    let split =
        provider::assemble_payloads(&mut *provider::adapter("openai-responses", Options::default()).unwrap(), &lines);
    let whole = provider::assemble_sse(
        &mut *provider::adapter("openai-responses", Options::default()).unwrap(),
        sse.as_bytes(),
    );
    let mut a = provider::adapter("openai-responses", Options::default()).unwrap();
    let mut stepped = Ok(());
    for b in sse.as_bytes() {
        stepped = stepped.and_then(|_| a.push_sse(&[*b]));
    }
    let stepped = stepped.and_then(|_| a.finish());
    assert_eq!(format!("{split:?}"), format!("{whole:?}"));
    assert_eq!(format!("{whole:?}"), format!("{stepped:?}"));
    assert_eq!(
        json(whole.unwrap()),
        r#"{"responseId":"resp_05147bbe356953b60069ab6736cddc8196933842ce635db83f","finishReason":"tool_calls","calls":[{"callId":"call_Q7pq6EfVGRnauPLWSSYBGJ1l","name":"get_weather","arguments":{"location":"San Francisco, CA","unit":"fahrenheit"}}]}"#
    );
}
