//! Property tests of dataset rows: a random valid row (tools with random parameters, parallel
//! calls whose valid arguments are drawn from the schemas, answers in any order, a last message
//! that calls a tool) is ok with its counts; one injected fault gives exactly its code at its
//! path; random bytes give a well-formed report, and a JSON Lines text the reports of its rows.

use agent_contract::api;
use agent_contract::value::Value;
use proptest::prelude::*;
use serde_json::{json, Value as Json};

/// A small deterministic generator (xorshift), so that one proptest seed is one row.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const NAMES: [&str; 5] = ["get_weather", "Search-Web", "lookup2", "send_email", "x"];
const TYPES: [&str; 3] = ["string", "integer", "boolean"];

/// A tool: its name and its properties (name, type, required).
struct Tool {
    name: String,
    props: Vec<(String, &'static str, bool)>,
}

impl Tool {
    fn json(&self) -> Json {
        let properties: serde_json::Map<String, Json> =
            self.props.iter().map(|(p, t, _)| (p.clone(), json!({"type": t}))).collect();
        let required: Vec<&String> = self.props.iter().filter(|(_, _, r)| *r).map(|(p, _, _)| p).collect();
        json!({"type": "function", "function": {"name": self.name, "description": "A tool.",
            "parameters": {"type": "object", "properties": properties, "required": required, "additionalProperties": false}}})
    }

    fn arguments(&self, rng: &mut Rng) -> String {
        let mut args = serde_json::Map::new();
        for (p, t, required) in &self.props {
            if *required || rng.below(2) == 0 {
                let v = match *t {
                    "string" => json!(format!("v{}", rng.below(100))),
                    "integer" => json!(rng.below(1000)),
                    _ => json!(rng.below(2) == 0),
                };
                args.insert(p.clone(), v);
            }
        }
        Json::Object(args).to_string()
    }
}

/// Where a generated row's parts are, for the faults.
#[derive(Default)]
struct Shape {
    /// (message index, call index) of every call, and whether its message is the last one.
    calls: Vec<(usize, usize, bool)>,
    /// Tool messages by index.
    answers: Vec<usize>,
    users: Vec<usize>,
    assistants: Vec<usize>,
    parallel: bool,
}

fn row(seed: u64) -> (Json, Vec<Tool>, Shape) {
    let mut rng = Rng(seed | 1);
    let tools: Vec<Tool> = (0..1 + rng.below(3))
        .map(|i| Tool {
            name: NAMES[i].to_owned(),
            props: (0..1 + rng.below(3))
                .map(|j| (format!("p{j}"), TYPES[rng.below(3)], j == 0 || rng.below(2) == 0))
                .collect(),
        })
        .collect();
    let mut shape = Shape::default();
    let mut messages = Vec::new();
    if rng.below(2) == 0 {
        messages
            .push(json!({"role": if rng.below(2) == 0 { "system" } else { "developer" }, "content": "Use the tools."}));
    }
    let turns = 1 + rng.below(3);
    let mut next_id = 0;
    for turn in 0..turns {
        shape.users.push(messages.len());
        messages.push(json!({"role": "user", "content": format!("question {turn}")}));
        let last = turn + 1 == turns && rng.below(2) == 0;
        let n = if rng.below(3) == 0 && !last { 0 } else { 1 + rng.below(3) };
        if n == 0 {
            shape.assistants.push(messages.len());
            messages.push(json!({"role": "assistant", "content": "An answer."}));
            continue;
        }
        shape.parallel |= n > 1;
        let at = messages.len();
        let mut calls = Vec::new();
        let mut ids = Vec::new();
        for k in 0..n {
            let tool = &tools[rng.below(tools.len())];
            let id = format!("call_{next_id}");
            next_id += 1;
            calls.push(json!({"id": id, "type": "function", "function": {"name": tool.name, "arguments": tool.arguments(&mut rng)}}));
            ids.push(id);
            shape.calls.push((at, k, last));
        }
        shape.assistants.push(at);
        let mut assistant = json!({"role": "assistant", "tool_calls": calls});
        if rng.below(2) == 0 {
            assistant["weight"] = json!(rng.below(2));
        }
        messages.push(assistant);
        if last {
            break;
        }
        // Answers in any order.
        while !ids.is_empty() {
            let id = ids.remove(rng.below(ids.len()));
            shape.answers.push(messages.len());
            messages.push(json!({"role": "tool", "tool_call_id": id, "content": "done"}));
        }
        shape.assistants.push(messages.len());
        messages.push(json!({"role": "assistant", "content": "Done."}));
    }
    let mut row = json!({"messages": messages, "tools": tools.iter().map(Tool::json).collect::<Vec<_>>()});
    if shape.parallel || rng.below(2) == 0 {
        row["parallel_tool_calls"] = json!(true);
    }
    (row, tools, shape)
}

fn report(row: &Json) -> Value {
    api::check_chat_row_json::<&Value>(row.to_string().as_bytes(), None).unwrap()
}

fn problems(report: &Value) -> Vec<(String, String)> {
    let Some(Value::Array(list)) = report.get("problems") else { panic!("a report lists its problems") };
    list.iter()
        .map(|p| match (p.get("code"), p.get("path")) {
            (Some(Value::String(c)), Some(Value::String(path))) => (c.clone(), path.clone()),
            _ => panic!("a problem has a code and a path"),
        })
        .collect()
}

fn count(report: &Value, key: &str) -> f64 {
    match report.get("stats").and_then(|s| s.get(key)) {
        Some(Value::Number(n)) => n.value,
        _ => panic!("stats.{key}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_valid_row_is_ok(seed in any::<u64>()) {
        let (row, _, shape) = row(seed);
        let r = report(&row);
        prop_assert_eq!(problems(&r), vec![], "{}", row);
        prop_assert_eq!(r.get("ok"), Some(&Value::Bool(true)));
        prop_assert_eq!(count(&r, "messages"), row["messages"].as_array().unwrap().len() as f64);
        prop_assert_eq!(count(&r, "toolCalls"), shape.calls.len() as f64);
        // The same row as a value, and inside a batch, gives the same report.
        let value = agent_contract::json::parse(row.to_string().as_bytes(), agent_contract::json::Mode::Strict, &Default::default()).unwrap();
        prop_assert_eq!(api::check_chat_row(&&value, None).unwrap(), r.clone());
        let list = Value::Array(vec![value.clone(), Value::String(row.to_string())]);
        prop_assert_eq!(api::check_chat_rows(&&list, None).unwrap(), Value::Array(vec![r.clone(), r]));
    }

    #[test]
    fn one_fault_is_one_problem_at_its_path(seed in any::<u64>(), fault in 0usize..8, pick in any::<u64>()) {
        let (mut row, tools, shape) = row(seed);
        let mut rng = Rng(pick | 1);
        let call = if shape.calls.is_empty() { None } else { Some(shape.calls[rng.below(shape.calls.len())]) };
        let expected: (&str, String) = match (fault, call) {
            (0, Some((m, k, _))) => {
                row["messages"][m]["tool_calls"][k]["function"]["name"] = json!("not_declared");
                ("ROW_TOOL_UNKNOWN", format!("/messages/{m}/tool_calls/{k}/function/name"))
            }
            (1, Some((m, k, _))) => {
                let text = row["messages"][m]["tool_calls"][k]["function"]["arguments"].as_str().unwrap().to_owned();
                row["messages"][m]["tool_calls"][k]["function"]["arguments"] = json!(text.replacen('{', "{,", 1));
                ("ROW_ARGUMENTS_INVALID", format!("/messages/{m}/tool_calls/{k}/function/arguments"))
            }
            (2, Some((m, k, _))) => {
                let name = row["messages"][m]["tool_calls"][k]["function"]["name"].as_str().unwrap().to_owned();
                let tool = tools.iter().find(|t| t.name == name).unwrap();
                let (p, t, _) = &tool.props[0];
                let wrong = if *t == "string" { json!(1) } else { json!("text") };
                let mut args: Json = serde_json::from_str(row["messages"][m]["tool_calls"][k]["function"]["arguments"].as_str().unwrap()).unwrap();
                args[p] = wrong;
                row["messages"][m]["tool_calls"][k]["function"]["arguments"] = json!(args.to_string());
                ("ROW_ARGUMENTS_MISMATCH", format!("/messages/{m}/tool_calls/{k}/function/arguments"))
            }
            (3, _) if !shape.answers.is_empty() => {
                let at = shape.answers[rng.below(shape.answers.len())];
                let id = row["messages"][at]["tool_call_id"].as_str().unwrap().to_owned();
                let call = shape.calls.iter().find(|(m, k, _)| row["messages"][*m]["tool_calls"][*k]["id"] == json!(id)).unwrap();
                row["messages"].as_array_mut().unwrap().remove(at);
                ("ROW_CALL_UNANSWERED", format!("/messages/{}/tool_calls/{}/id", call.0, call.1))
            }
            (4, _) if !shape.answers.is_empty() => {
                let at = shape.answers[rng.below(shape.answers.len())];
                let copy = row["messages"][at].clone();
                row["messages"].as_array_mut().unwrap().insert(at + 1, copy);
                ("ROW_TOOL_RESULT_UNMATCHED", format!("/messages/{}/tool_call_id", at + 1))
            }
            (5, _) => {
                let at = shape.users[rng.below(shape.users.len())];
                row["messages"][at]["role"] = json!("human");
                ("ROW_ROLE_UNKNOWN", format!("/messages/{at}/role"))
            }
            (6, _) => {
                let at = shape.assistants[rng.below(shape.assistants.len())];
                row["messages"][at]["weight"] = json!(2);
                ("ROW_WEIGHT_INVALID", format!("/messages/{at}/weight"))
            }
            (7, _) if shape.parallel => {
                row["parallel_tool_calls"] = json!(false);
                let (m, _, _) = shape.calls.iter().copied().find(|(m, _, _)| row["messages"][*m]["tool_calls"].as_array().unwrap().len() > 1).unwrap();
                // Only the first message with several calls is asserted: more may follow.
                let r = report(&row);
                let got = problems(&r);
                prop_assert!(got.iter().all(|(c, _)| c == "ROW_PARALLEL_CALLS"), "{:?}", got);
                prop_assert_eq!(&got[0], &("ROW_PARALLEL_CALLS".to_owned(), format!("/messages/{m}/tool_calls")));
                return Ok(());
            }
            _ => return Ok(()),
        };
        let r = report(&row);
        prop_assert_eq!(problems(&r), vec![(expected.0.to_owned(), expected.1)], "{}", row);
    }

    #[test]
    fn any_bytes_give_a_report(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let r = api::check_chat_row_json::<&Value>(&bytes, None).unwrap();
        let list = problems(&r);
        prop_assert_eq!(r.get("ok"), Some(&Value::Bool(list.is_empty())));
        let lines = api::check_chat_rows_jsonl::<&Value>(&bytes, None).unwrap();
        let Value::Array(lines) = lines else { panic!("a list") };
        let expected = bytes.split(|&b| b == b'\n').count() - usize::from(bytes.last() == Some(&b'\n') || bytes.is_empty());
        prop_assert_eq!(lines.len(), expected);
    }
}
