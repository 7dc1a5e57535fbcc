//! Stream assembly properties (proptest): random chunk splits and interleavings of a valid
//! stream give the unsplit result; random event sequences yield a response only when an
//! independent restatement of the rules says the stream is valid; replay is identical; nothing
//! panics. Deltas are Rust strings, so a split always falls on a char boundary here; byte-level
//! splits are an adapter's concern (it must decode UTF-8 incrementally; see docs/semantics.md).

use agent_contract::stream::{Assembler, Event};
use agent_contract::{Options, Value};
use proptest::prelude::*;

fn run(events: &[Event]) -> Result<Value, (usize, String)> {
    let mut a = Assembler::new(Options::default());
    for (i, e) in events.iter().enumerate() {
        a.push(e.clone()).map_err(|e| (i, e.code.as_str().to_owned()))?;
    }
    a.finish().map_err(|e| (events.len(), e.code.as_str().to_owned()))
}

fn split(s: &str, cuts: &[usize]) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (chars.len() + 1)).collect();
    points.sort();
    let mut out = Vec::new();
    let mut prev = 0;
    for p in points {
        out.push(chars[prev..p.max(prev)].iter().collect());
        prev = p.max(prev);
    }
    out.push(chars[prev..].iter().collect());
    out
}

fn stream(texts: &[String], cuts: &[usize], order: &[usize]) -> Vec<Event> {
    let mut queues: Vec<Vec<Event>> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut q = vec![Event::Start {
                sequence: 0,
                item_id: format!("i{i}"),
                call_id: format!("c{i}"),
                name: "t".into(),
            }];
            q.extend(split(t, cuts).into_iter().map(|text| Event::Delta {
                sequence: 0,
                item_id: format!("i{i}"),
                text,
                name: None,
            }));
            q.push(Event::End { sequence: 0, item_id: format!("i{i}") });
            q.reverse();
            q
        })
        .collect();
    let mut events = Vec::new();
    let mut k = 0;
    while queues.iter().any(|q| !q.is_empty()) {
        let live: Vec<usize> = (0..queues.len()).filter(|&i| !queues[i].is_empty()).collect();
        let q = live[order[k % order.len()] % live.len()];
        k += 1;
        let seq = events.len() as u64;
        events.push(match queues[q].pop().unwrap() {
            Event::Start { item_id, call_id, name, .. } => Event::Start { sequence: seq, item_id, call_id, name },
            Event::Delta { item_id, text, name, .. } => Event::Delta { sequence: seq, item_id, text, name },
            Event::End { item_id, .. } => Event::End { sequence: seq, item_id },
            other => other,
        });
    }
    events.push(Event::Finish { sequence: events.len() as u64, reason: "tool_calls" });
    events
}

fn sorted_calls(v: Value) -> Value {
    let Value::Object(mut members) = v else { return v };
    for (k, c) in members.iter_mut() {
        if k == "calls" {
            if let Value::Array(items) = c {
                items.sort_by_key(|i| match i.get("callId") {
                    Some(Value::String(s)) => s.clone(),
                    _ => String::new(),
                });
            }
        }
    }
    Value::Object(members)
}

fn args_text() -> impl Strategy<Value = String> {
    prop::collection::btree_map(
        "[a-zé😀中]{0,4}",
        prop_oneof![any::<i32>().prop_map(|n| n.to_string()), "\"[a-z€😀 ]{0,6}\"".prop_map(|s| s)],
        0..4,
    )
    .prop_map(|m| {
        let body: Vec<String> =
            m.into_iter().map(|(k, v)| format!("{}:{}", serde_json::to_string(&k).unwrap(), v)).collect();
        format!("{{{}}}", body.join(","))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn splits_and_interleavings_give_the_unsplit_result(
        texts in prop::collection::vec(args_text(), 0..4),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        order in prop::collection::vec(0usize..8, 1..20),
    ) {
        let whole = run(&stream(&texts, &[], &[0]));
        prop_assert!(whole.is_ok(), "{:?}", whole);
        let events = stream(&texts, &cuts, &order);
        let got = run(&events);
        prop_assert_eq!(got.clone().map(sorted_calls), whole.map(sorted_calls));
        prop_assert_eq!(run(&events), got);
    }

    #[test]
    fn random_sequences_yield_a_response_only_when_valid(events in prop::collection::vec(event(), 0..12)) {
        let got = run(&events);
        prop_assert_eq!(got.is_ok(), valid(&events), "{:?}", got);
        prop_assert_eq!(run(&events), got);
    }
}

fn event() -> impl Strategy<Value = Event> {
    let item = prop::sample::select(vec!["i0", "i1", "i2"]).prop_map(String::from);
    prop_oneof![
        (0u64..10, item.clone(), prop::sample::select(vec!["c0", "c1"]), prop::sample::select(vec!["a", "b"]))
            .prop_map(|(sequence, item_id, c, n)| Event::Start {
                sequence,
                item_id,
                call_id: c.into(),
                name: n.into()
            }),
        (
            0u64..10,
            item.clone(),
            prop::sample::select(vec!["{", "}", "\"a\":1", "", "{}", ","]),
            prop::option::of(prop::sample::select(vec!["a", "b"]))
        )
            .prop_map(|(sequence, item_id, t, n)| Event::Delta {
                sequence,
                item_id,
                text: t.into(),
                name: n.map(String::from)
            }),
        (0u64..10, item).prop_map(|(sequence, item_id)| Event::End { sequence, item_id }),
        (0u64..10, prop::sample::select(agent_contract::stream::FINISH_REASONS.to_vec()))
            .prop_map(|(sequence, reason)| Event::Finish { sequence, reason }),
        prop::option::of(0u64..10).prop_map(|sequence| Event::Cancel { sequence }),
    ]
}

fn valid(events: &[Event]) -> bool {
    let mut last: Option<u64> = None;
    let mut items: Vec<(String, String, String, String, bool)> = Vec::new();
    let mut finished = false;
    for e in events {
        if finished {
            return false;
        }
        if let Some(s) = e.sequence() {
            if last.is_some_and(|l| s <= l) {
                return false;
            }
            last = Some(s);
        }
        match e {
            Event::Start { item_id, call_id, name, .. } => {
                if items.iter().any(|i| &i.0 == item_id || &i.1 == call_id) {
                    return false;
                }
                items.push((item_id.clone(), call_id.clone(), name.clone(), String::new(), false));
            }
            Event::Delta { item_id, text, name, .. } => match items.iter_mut().find(|i| &i.0 == item_id) {
                Some(i) if !i.4 && name.as_ref().is_none_or(|n| *n == i.2) => i.3.push_str(text),
                _ => return false,
            },
            Event::End { item_id, .. } => match items.iter_mut().find(|i| &i.0 == item_id) {
                Some(i) if !i.4 => match serde_json::from_str::<serde_json::Value>(&i.3) {
                    Ok(serde_json::Value::Object(_)) => i.4 = true,
                    _ => return false,
                },
                _ => return false,
            },
            Event::Finish { reason, .. } => {
                if !matches!(*reason, "stop" | "tool_calls") || items.iter().any(|i| !i.4) {
                    return false;
                }
                finished = true;
            }
            Event::Cancel { .. } => return false,
        }
    }
    finished
}
