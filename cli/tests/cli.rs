//! The `agent-contract` binary run on the fixtures' data: its verdicts are the core's (the
//! fixtures' expectations), its exit codes are 0 / 1 / 2, and problems have file:line:column.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agent-contract"))
}

fn fixtures(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture file")).expect("fixture JSON")
}

fn temp(name: &str, content: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-contract-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("temp file");
    path
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn actions_one_line_per_problem_with_line_and_column() {
    let file = temp("actions.jsonl", b"{\"type\":\"finish\",\"summary\":\"ok\"}\n{\"type\":\"finish\",\"summary\":\"  \"}\n\n{\"type\":\"message\",\"content\":\"a\",}\r\n");
    let out = run(&["check", "actions", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let f = file.display();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{f}:2:28: FIELD_EMPTY at /summary: summary must not be empty or blank\n\
             {f}:3:1: JSON_INVALID: unexpected end of input, expected a value\n\
             {f}:4:33: JSON_INVALID: expected a string for an object member name, found '}}'\n\
             {f}: 3 problems (4 actions checked)\n"
        )
    );
    let out = run(&["--format", "json", "check", "actions", file.to_str().unwrap()]);
    let report = json_of(&out);
    assert_eq!(report["ok"], json!(false));
    assert_eq!(
        report["problems"][0],
        json!({"file": f.to_string(), "line": 2, "column": 28, "code": "FIELD_EMPTY", "path": "/summary", "message": "summary must not be empty or blank"})
    );
}

#[test]
fn actions_from_standard_input_and_a_clean_file_exits_0() {
    let mut child = bin().args(["check", "actions", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"{\"type\":\"finish\",\"summary\":\"done\"}\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "<stdin>: ok (1 actions checked)\n");
}

#[test]
fn tools_catalogs_of_the_projection_fixtures_pass_and_a_bad_one_points_at_the_field() {
    for case in fixtures("projection.json")["cases"].as_array().unwrap() {
        if !case["op"].as_str().unwrap().ends_with("Tools") || case["expect"]["ok"] != json!(true) {
            continue;
        }
        let file = temp("registry.json", serde_json::to_string_pretty(&case["args"][0]).unwrap().as_bytes());
        let out = run(&["check", "tools", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", case["id"], String::from_utf8_lossy(&out.stdout));
    }
    let catalog = b"[\n  {\"name\": \"read_file\", \"description\": \"Read.\", \"inputSchema\": {\"type\": \"object\"}, \"permission\": \"read\"},\n  {\"name\": \"read_file\", \"description\": \"Again.\", \"inputSchema\": {}, \"permission\": \"read\"},\n  {\"name\": \"x\", \"description\": \"x\", \"inputSchema\": {\"type\": \"number\"}, \"permission\": \"read\"}\n]\n";
    let file = temp("catalog.json", catalog);
    let out = run(&["--format", "json", "check", "tools", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let problems = &json_of(&out)["problems"];
    assert_eq!(problems.as_array().unwrap().len(), 1, "{problems}");
    assert_eq!(
        (
            problems[0]["line"].clone(),
            problems[0]["column"].clone(),
            problems[0]["code"].clone(),
            problems[0]["path"].clone()
        ),
        (json!(4), json!(61), json!("TOOL_SCHEMA_ROOT_NOT_OBJECT"), json!("/2/inputSchema/type"))
    );
    // With that fixed, the duplicate name is the registry's problem.
    let fixed = String::from_utf8_lossy(catalog).replace("{\"type\": \"number\"}", "{}");
    let file = temp("catalog2.json", fixed.as_bytes());
    let out = run(&["--format", "json", "check", "tools", file.to_str().unwrap()]);
    assert_eq!(json_of(&out)["problems"][0]["code"], json!("TOOL_DUPLICATE"));
}

/// Every provider-stream fixture given as raw SSE text or as a list of events (written one per
/// line, `--events`) gives the fixture's verdict.
#[test]
fn streams_of_the_provider_fixtures_give_their_verdicts() {
    let mut ran = 0;
    for name in [
        "provider_openai_chat.json",
        "provider_openai_responses.json",
        "provider_anthropic.json",
        "provider_gemini.json",
    ] {
        for case in fixtures(name)["cases"].as_array().unwrap() {
            if case.get("host").is_some() || case.get("options").is_some() {
                continue;
            }
            let provider = case["provider"].as_str().unwrap();
            let (file, events) = if let Some(text) = case["text"].as_str() {
                (temp("stream.sse", text.as_bytes()), false)
            } else if let Some(list) = case["input"].as_array() {
                // A line is a payload's text: an event given as a string (`[DONE]`) is that text.
                let lines: Vec<String> = list
                    .iter()
                    .map(|e| e.as_str().map_or_else(|| serde_json::to_string(e).unwrap(), str::to_owned))
                    .collect();
                (temp("stream.jsonl", lines.join("\n").as_bytes()), true)
            } else {
                continue;
            };
            let mut args = vec!["--format", "json", "check", "stream", "--provider", provider];
            if events {
                args.push("--events");
            }
            args.push(file.to_str().unwrap());
            let out = run(&args);
            let report = json_of(&out);
            let expect = &case["expect"];
            if expect["ok"] == json!(true) {
                assert_eq!(out.status.code(), Some(0), "{}: {report}", case["id"]);
                assert_eq!(report["result"], expect["value"], "{}", case["id"]);
            } else {
                assert_eq!(out.status.code(), Some(1), "{}: {report}", case["id"]);
                assert_eq!(report["problems"][0]["code"], expect["code"], "{}", case["id"]);
                assert_eq!(report["problems"][0]["path"], expect["path"], "{}", case["id"]);
            }
            ran += 1;
        }
    }
    assert!(ran > 50, "only {ran} stream cases ran");
}

/// The catalog diffs of the contract-version fixtures: the core's result as it is, exit 1 when a
/// tool's version does not move as its change requires.
#[test]
fn diff_of_the_contract_fixtures() {
    let mut ran = 0;
    for case in fixtures("contract_versions.json")["cases"].as_array().unwrap() {
        if case["op"] != json!("diffCatalogs") || case["expect"]["ok"] != json!(true) {
            continue;
        }
        let old = temp("old.json", serde_json::to_string_pretty(&case["args"][0]).unwrap().as_bytes());
        let new = temp("new.json", serde_json::to_string_pretty(&case["args"][1]).unwrap().as_bytes());
        let out = run(&["--format", "json", "diff", old.to_str().unwrap(), new.to_str().unwrap()]);
        let report = json_of(&out);
        assert_eq!(report["result"], case["expect"]["value"], "{}", case["id"]);
        let not_ok =
            case["expect"]["value"]["tools"].as_array().unwrap().iter().any(|t| t["bump"]["ok"] == json!(false));
        assert_eq!(out.status.code(), Some(if not_ok { 1 } else { 0 }), "{}", case["id"]);
        ran += 1;
    }
    assert!(ran >= 3);
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(run(&["check", "nothing", "x"]).status.code(), Some(2));
    assert_eq!(run(&["check", "stream", "x"]).status.code(), Some(2), "--provider is required");
    let out = run(&["check", "actions", "/no/such/file.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("agent-contract: /no/such/file.jsonl: "));
    let out = run(&["check", "stream", "--provider", "nope", "/dev/null"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        json_of(&run(&["--format", "json", "check", "stream", "--provider", "nope", "/dev/null"]))["problems"][0]
            ["code"],
        json!("PROVIDER_UNKNOWN")
    );
}

/// `check session` on every session-file fixture given as text (with no option, or only
/// `strict` / `dialect`): the binary lists the fixture's problems (line, code, pointer), and
/// exits 1 exactly when there is one.
#[test]
fn sessions_of_the_session_fixtures_give_their_problems() {
    let doc = fixtures("session_file.json");
    let mut ran = 0;
    for case in doc["cases"].as_array().unwrap() {
        let Some(text) = case["text"].as_str() else { continue };
        if case["op"] != "checkSession" || case["expect"]["ok"] != json!(true) {
            continue;
        }
        let options = case.get("options").cloned().unwrap_or(json!({}));
        if options.as_object().unwrap().keys().any(|k| k != "strict" && k != "dialect") {
            continue;
        }
        let file = temp(&format!("{}.jsonl", case["id"].as_str().unwrap().replace('/', "_")), text.as_bytes());
        let mut args = vec!["--format", "json", "check", "session"];
        if options["strict"] == json!(true) {
            args.push("--strict");
        }
        let dialect = options["dialect"].as_str().map(str::to_owned);
        if let Some(d) = &dialect {
            args.extend(["--dialect", d]);
        }
        args.push(file.to_str().unwrap());
        let out = run(&args);
        let want = &case["expect"]["value"];
        let problems = want["problems"].as_array().unwrap();
        assert_eq!(out.status.code(), Some(if problems.is_empty() { 0 } else { 1 }), "{}", case["id"]);
        let got: Vec<Value> = json_of(&out)["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| json!({"line": p["line"], "code": p["code"], "path": p["path"]}))
            .collect();
        let expected: Vec<Value> =
            problems.iter().map(|p| json!({"line": p["line"], "code": p["code"], "path": p["path"]})).collect();
        assert_eq!(got, expected, "{}", case["id"]);
        ran += 1;
    }
    assert!(ran >= 40, "only {ran} session fixtures ran");
}

/// The recorded pi-mono sessions (external data) read with no problem under `--dialect pi`.
#[test]
fn recorded_sessions_pass_under_the_pi_dialect() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/pi-mono-sessions");
    if !dir.is_dir() {
        println!("SKIPPED: {} is absent", dir.display());
        return;
    }
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let out = run(&["check", "session", "--dialect", "pi", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", path.display(), String::from_utf8_lossy(&out.stdout));
        ran += 1;
    }
    assert_eq!(ran, 2, "both recordings");
}
