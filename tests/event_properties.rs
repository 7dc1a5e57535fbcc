//! Property tests of agent events: random valid runs (turns, streamed assistant
//! messages, parallel tool executions, tool results, compactions between turns) pass
//! `checkEventSequence`, and the response holding them passes `checkSessionResponse`; one
//! random mutation gives its code at its path; random values give a verdict, never a panic.

use agent_contract::error::Code;
use agent_contract::session::response::check_session_response;
use agent_contract::session::sequence::check_event_sequence;
use agent_contract::value::Value;
use agent_contract::Options;
use proptest::prelude::*;
use serde_json::{json, Value as Json};

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

fn value(j: &Json) -> Value {
    agent_contract::json::parse(
        j.to_string().as_bytes(),
        agent_contract::json::Mode::Strict,
        &agent_contract::Limits::ceilings(),
    )
    .unwrap()
}

fn text(t: &str) -> Json {
    json!({"type": "text", "text": t})
}

fn usage() -> Json {
    json!({"input": 1, "output": 2, "totalTokens": 3})
}

/// One valid run: its events and the messages it ended, in order.
fn run(seed: u64) -> (Vec<Json>, Vec<Json>) {
    let mut r = Rng(seed | 1);
    let mut clock = 0u64;
    let mut tick = || {
        clock += 1;
        clock
    };
    let mut events = vec![json!({"type": "agent_start"})];
    let mut ended = Vec::new();
    let turns = 1 + r.below(4);
    for turn in 1..=turns {
        if turn > 1 && r.below(3) == 0 {
            events.push(json!({"type": "compaction", "summary": "s", "tokensBefore": 10, "firstKeptEntryId": "e1"}));
        }
        events.push(json!({"type": "turn_start", "turn": turn}));
        if turn == 1 {
            let user = json!({"role": "user", "content": [text("task")], "timestamp": tick()});
            events.push(json!({"type": "message_start", "message": user}));
            events.push(json!({"type": "message_end", "message": user}));
            ended.push(user);
        }
        let calls: Vec<(String, String)> =
            (0..r.below(4)).map(|j| (format!("c{turn}_{j}"), ["ls", "cat", "grep"][r.below(3)].to_owned())).collect();
        let ts = tick();
        let stop = if calls.is_empty() { "stop" } else { "toolUse" };
        let partial = |content: Vec<Json>| json!({"role": "assistant", "content": content, "stopReason": stop, "usage": usage(), "timestamp": ts});
        events.push(json!({"type": "message_start", "message": partial(vec![])}));
        let mut so_far = String::new();
        for _ in 0..r.below(4) {
            so_far.push('x');
            events.push(json!({"type": "message_update", "message": partial(vec![text(&so_far)]), "delta": "x"}));
        }
        let mut content = vec![text(&so_far)];
        for (id, name) in &calls {
            content.push(json!({"type": "toolCall", "id": id, "name": name, "arguments": {"n": 1}}));
        }
        let assistant = partial(content);
        events.push(json!({"type": "message_end", "message": assistant}));
        ended.push(assistant.clone());
        // Executions: all started, then ended in a random order (parallel tools).
        for (id, name) in &calls {
            events.push(json!({"type": "tool_execution_start", "toolCallId": id, "toolName": name, "args": {"n": 1}}));
        }
        let mut order: Vec<usize> = (0..calls.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, r.below(i + 1));
        }
        for &k in &order {
            let (id, name) = &calls[k];
            events.push(json!({"type": "tool_execution_end", "toolCallId": id, "toolName": name,
                "result": {"content": [text("out")]}, "isError": false}));
        }
        let mut results = Vec::new();
        for (id, name) in &calls {
            let m = json!({"role": "toolResult", "toolCallId": id, "toolName": name, "content": [text("out")], "isError": false, "timestamp": tick()});
            events.push(json!({"type": "message_start", "message": m}));
            events.push(json!({"type": "message_end", "message": m}));
            ended.push(m.clone());
            results.push(m);
        }
        events.push(json!({"type": "turn_end", "turn": turn, "message": assistant, "toolResults": results}));
    }
    events.push(json!({"type": "agent_end", "messages": ended}));
    (events, ended)
}

fn response(events: &[Json], messages: &[Json]) -> Json {
    json!({"sessionId": "s1", "messages": messages, "events": events, "tools": [], "entries": []})
}

fn verdict(r: Result<Value, agent_contract::ContractError>) -> Option<(Code, String)> {
    r.err().map(|e| (e.code, e.path))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn valid_runs_pass(seed in any::<u64>()) {
        let (events, messages) = run(seed);
        let checked = check_event_sequence(&&value(&Json::Array(events.clone())), &Options::default());
        prop_assert_eq!(checked.map_err(|e| e.to_string()), Ok(value(&Json::Array(events.clone()))));
        let resp = response(&events, &messages);
        prop_assert_eq!(check_session_response(&&value(&resp), &Options::default()).map_err(|e| e.to_string()), Ok(value(&resp)));
    }

    #[test]
    fn one_mutation_gives_its_code(seed in any::<u64>(), pick in any::<u64>(), which in 0usize..6) {
        let (mut events, mut messages) = run(seed);
        let mut r = Rng(pick | 1);
        let find = |events: &[Json], pred: &dyn Fn(&Json) -> bool| -> Vec<usize> {
            events.iter().enumerate().filter(|(_, e)| pred(e)).map(|(i, _)| i).collect()
        };
        let (got, expected) = match which {
            0 => {
                events.pop();
                (verdict(check_event_sequence(&&value(&Json::Array(events)), &Options::default())), (Code::EventSequenceInvalid, String::new()))
            }
            1 => {
                let starts = find(&events, &|e| e["type"] == "turn_start");
                let i = starts[r.below(starts.len())];
                let n = events[i]["turn"].as_u64().unwrap();
                events[i]["turn"] = json!(n + 1);
                (verdict(check_event_sequence(&&value(&Json::Array(events)), &Options::default())), (Code::EventSequenceInvalid, format!("/{i}")))
            }
            2 => {
                let starts = find(&events, &|e| e["type"] == "message_start");
                let i = starts[r.below(starts.len())];
                events.remove(i);
                (verdict(check_event_sequence(&&value(&Json::Array(events)), &Options::default())), (Code::EventSequenceInvalid, format!("/{i}")))
            }
            3 => {
                let ends = find(&events, &|e| e["type"] == "tool_execution_end" || e["type"] == "tool_execution_start");
                if ends.is_empty() {
                    return Ok(());
                }
                let i = ends[r.below(ends.len())];
                events[i]["toolName"] = json!("rm");
                (verdict(check_event_sequence(&&value(&Json::Array(events)), &Options::default())), (Code::EventSequenceInvalid, format!("/{i}")))
            }
            4 => {
                // The user message leaves the response's messages: the event still shows it.
                messages.remove(0);
                let at = find(&events, &|e| e["type"] == "message_end")[0];
                let resp = response(&events, &messages);
                (verdict(check_session_response(&&value(&resp), &Options::default())), (Code::EventMessageUnknown, format!("/events/{at}/message")))
            }
            _ => {
                let results: Vec<usize> = messages.iter().enumerate().filter(|(_, m)| m["role"] == "toolResult").map(|(i, _)| i).collect();
                if results.is_empty() {
                    return Ok(());
                }
                let i = results[r.below(results.len())];
                messages[i]["toolCallId"] = json!("nowhere");
                let resp = response(&events, &messages);
                (verdict(check_session_response(&&value(&resp), &Options::default())), (Code::ToolResultUnmatched, format!("/messages/{i}/toolCallId")))
            }
        };
        prop_assert_eq!(got, Some(expected));
    }

    #[test]
    fn random_events_give_a_verdict(seed in any::<u64>(), drops in prop::collection::vec(any::<u16>(), 0..4)) {
        // Events of valid runs, shuffled by removals: a verdict, never a panic.
        let (mut events, messages) = run(seed);
        for d in drops {
            if !events.is_empty() {
                let i = d as usize % events.len();
                events.remove(i);
            }
        }
        let _ = check_event_sequence(&&value(&Json::Array(events.clone())), &Options::default());
        let _ = check_session_response(&&value(&response(&events, &messages)), &Options::default());
    }
}
