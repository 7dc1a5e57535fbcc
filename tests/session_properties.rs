//! Property tests of session files: random valid sessions (random trees, tool
//! calls and their results, compactions) pass with the roots and leaves of their tree; one
//! random mutation (drop a line, duplicate an id, re-parent to a later entry, change a
//! toolCallId, drop the header) gives its code at its line as the first problem; random bytes
//! give a report, never a panic.

use agent_contract::session::check::{check_session, read_session};
use agent_contract::value::Value;
use agent_contract::Options;
use proptest::prelude::*;
use serde_json::json;

/// A small deterministic generator (xorshift), so that one proptest seed is one session.
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

#[derive(Clone, Debug)]
enum Kind {
    User,
    Assistant(Vec<(String, String)>),
    Result { call: String, name: String },
    Compaction { first: usize },
}

#[derive(Clone, Debug)]
struct Entry {
    id: String,
    parent: Option<usize>,
    kind: Kind,
}

fn ancestors(entries: &[Entry], parent: Option<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = parent;
    while let Some(p) = at {
        out.push(p);
        at = entries[p].parent;
    }
    out
}

/// A valid session of `n` entries after the header.
fn session(seed: u64, n: usize) -> Vec<Entry> {
    let mut rng = Rng(seed | 1);
    let mut entries: Vec<Entry> = Vec::new();
    for i in 0..n {
        let parent = if i == 0 || rng.below(8) == 0 { None } else { Some(rng.below(i)) };
        let up = ancestors(&entries, parent);
        let mut kind = match rng.below(4) {
            1 => Kind::Assistant(
                (0..rng.below(3))
                    .map(|k| (format!("call-{i}-{k}"), ["read", "write", "bash"][rng.below(3)].to_owned()))
                    .collect(),
            ),
            2 => {
                let answered: Vec<&str> = up
                    .iter()
                    .filter_map(|&a| match &entries[a].kind {
                        Kind::Result { call, .. } => Some(call.as_str()),
                        _ => None,
                    })
                    .collect();
                let open: Vec<(String, String)> = up
                    .iter()
                    .flat_map(|&a| match &entries[a].kind {
                        Kind::Assistant(calls) => calls.clone(),
                        _ => Vec::new(),
                    })
                    .filter(|(c, _)| !answered.contains(&c.as_str()))
                    .collect();
                if open.is_empty() {
                    Kind::User
                } else {
                    let (call, name) = open[rng.below(open.len())].clone();
                    Kind::Result { call, name }
                }
            }
            3 if !up.is_empty() => Kind::Compaction { first: up[rng.below(up.len())] },
            _ => Kind::User,
        };
        if let Kind::Assistant(calls) = &kind {
            if calls.is_empty() && rng.below(2) == 0 {
                kind = Kind::User;
            }
        }
        entries.push(Entry { id: format!("e{i}-{}", rng.below(1000)), parent, kind });
    }
    entries
}

fn line(entries: &[Entry], e: &Entry) -> String {
    let parent = e.parent.map(|p| json!(entries[p].id)).unwrap_or(json!(null));
    let message = |m: serde_json::Value| json!({"type": "message", "id": e.id, "parentId": parent, "timestamp": "t", "message": m});
    let v = match &e.kind {
        Kind::User => message(json!({"role": "user", "content": [{"type": "text", "text": "hi"}], "timestamp": 1})),
        Kind::Assistant(calls) => message(json!({
            "role": "assistant",
            "content": calls.iter().map(|(id, name)| json!({"type": "toolCall", "id": id, "name": name, "arguments": {}})).collect::<Vec<_>>(),
            "stopReason": if calls.is_empty() { "stop" } else { "toolUse" },
            "usage": {"input": 1, "output": 2, "totalTokens": 3},
            "timestamp": 2
        })),
        Kind::Result { call, name } => message(json!({
            "role": "toolResult", "toolCallId": call, "toolName": name,
            "content": [{"type": "text", "text": "ok"}], "isError": false, "timestamp": 3
        })),
        Kind::Compaction { first } => json!({
            "type": "compaction", "id": e.id, "parentId": parent, "timestamp": "t",
            "summary": "s", "firstKeptEntryId": entries[*first].id, "tokensBefore": 10
        }),
    };
    v.to_string()
}

const HEADER: &str = r#"{"type":"session","version":1,"id":"session","timestamp":"t","cwd":"/w"}"#;

fn text(entries: &[Entry], lines: &[String]) -> Vec<u8> {
    let _ = entries;
    let mut out = String::from(HEADER);
    for l in lines {
        out.push('\n');
        out.push_str(l);
    }
    out.push('\n');
    out.into_bytes()
}

fn problems(report: &Value) -> Vec<(usize, String)> {
    let Some(Value::Array(items)) = report.get("problems") else { panic!("no problems list") };
    items
        .iter()
        .map(|p| match (p.get("line"), p.get("code")) {
            (Some(Value::Number(n)), Some(Value::String(c))) => (n.value as usize, c.clone()),
            _ => panic!("malformed problem"),
        })
        .collect()
}

fn ids(report: &Value, key: &str) -> Vec<String> {
    let Some(Value::Array(items)) = report.get(key) else { panic!("no {key}") };
    items.iter().map(|v| if let Value::String(s) = v { s.clone() } else { panic!("id not a string") }).collect()
}

fn options() -> Options {
    Options { max_issues: 10_000, ..Options::default() }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn valid_sessions_pass(seed in any::<u64>(), n in 1usize..40) {
        let entries = session(seed, n);
        let lines: Vec<String> = entries.iter().map(|e| line(&entries, e)).collect();
        let report = check_session(&text(&entries, &lines), &options());
        prop_assert_eq!(problems(&report), vec![]);
        prop_assert_eq!(report.get("entries"), Some(&Value::Number(agent_contract::value::Number::from_f64((n + 1) as f64))));
        let roots: Vec<String> = entries.iter().filter(|e| e.parent.is_none()).map(|e| e.id.clone()).collect();
        let leaves: Vec<String> = (0..n).filter(|&i| !entries.iter().any(|e| e.parent == Some(i))).map(|i| entries[i].id.clone()).collect();
        prop_assert_eq!(ids(&report, "roots"), roots);
        prop_assert_eq!(ids(&report, "leaves"), leaves);
        // The branch of every leaf is its chain of ancestors, root first.
        let s = read_session(&text(&entries, &lines), &options()).unwrap();
        for leaf in (0..n).filter(|&i| !entries.iter().any(|e| e.parent == Some(i))) {
            let mut chain: Vec<usize> = ancestors(&entries, Some(leaf));
            chain.reverse();
            let Value::Array(branch) = s.branch(&entries[leaf].id).unwrap() else { panic!("branch not a list") };
            let got: Vec<Option<&Value>> = branch.iter().map(|b| b.get("id")).collect();
            let want: Vec<Value> = chain.iter().map(|&i| Value::String(entries[i].id.clone())).collect();
            prop_assert_eq!(got, want.iter().map(Some).collect::<Vec<_>>());
        }
    }

    #[test]
    fn one_mutation_gives_its_code(seed in any::<u64>(), n in 2usize..30, pick in any::<u64>(), which in 0usize..5) {
        let entries = session(seed, n);
        let mut lines: Vec<String> = entries.iter().map(|e| line(&entries, e)).collect();
        let mut rng = Rng(pick | 1);
        let expected: Option<(usize, &str)> = match which {
            0 => {
                // Drop entry j: its first child (if any) names a missing parent.
                let j = rng.below(n);
                lines.remove(j);
                (j + 1..n).find(|&k| entries[k].parent == Some(j)).map(|k| (k + 1, "ENTRY_PARENT_MISSING"))
            }
            1 => {
                let j = 1 + rng.below(n - 1);
                let m = rng.below(j);
                let mut mutated = entries.clone();
                mutated[j].id = entries[m].id.clone();
                lines[j] = line(&mutated, &mutated[j]);
                Some((j + 2, "ENTRY_ID_DUPLICATE"))
            }
            2 => {
                let j = rng.below(n - 1);
                let k = j + 1 + rng.below(n - j - 1);
                let mut mutated = entries.clone();
                mutated[j].parent = Some(k);
                lines[j] = line(&mutated, &mutated[j]);
                Some((j + 2, "ENTRY_PARENT_MISSING"))
            }
            3 => {
                let results: Vec<usize> = (0..n).filter(|&i| matches!(entries[i].kind, Kind::Result { .. })).collect();
                if results.is_empty() {
                    None
                } else {
                    let j = results[rng.below(results.len())];
                    let mut mutated = entries.clone();
                    if let Kind::Result { call, .. } = &mut mutated[j].kind {
                        *call = "no-such-call".into();
                    }
                    lines[j] = line(&mutated, &mutated[j]);
                    Some((j + 2, "TOOL_RESULT_UNMATCHED"))
                }
            }
            _ => {
                let mut body = lines.join("\n").into_bytes();
                body.push(b'\n');
                let report = check_session(&body, &options());
                prop_assert_eq!(problems(&report).first().cloned(), Some((1, "SESSION_HEADER_MISSING".to_owned())));
                return Ok(());
            }
        };
        let report = check_session(&text(&entries, &lines), &options());
        let first = problems(&report).first().map(|(l, c)| (*l, c.clone()));
        prop_assert_eq!(first, expected.map(|(l, c)| (l, c.to_owned())));
    }

    #[test]
    fn random_bytes_give_a_report(bytes in prop::collection::vec(any::<u8>(), 0..512), pi in any::<bool>()) {
        let options = Options { pi_dialect: pi, ..options() };
        let report = check_session(&bytes, &options);
        let found = problems(&report);
        let lines = bytes.split(|&b| b == b'\n').count().max(1);
        prop_assert!(found.iter().all(|(l, _)| *l >= 1 && *l <= lines));
        prop_assert_eq!(report.get("ok"), Some(&Value::Bool(found.is_empty())));
        // readSession agrees: an error exactly when the report has a problem.
        prop_assert_eq!(read_session(&bytes, &options).is_err(), !found.is_empty());
    }

    #[test]
    fn random_lines_of_json_give_a_report(lines in prop::collection::vec(
        prop_oneof![
            Just(HEADER.to_owned()),
            Just(r#"{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[],"timestamp":1}}"#.to_owned()),
            Just(r#"{"type":"compaction","id":"c","parentId":"a","timestamp":"t","summary":"","firstKeptEntryId":"a","tokensBefore":1}"#.to_owned()),
            "[ -~]{0,40}",
        ], 0..20)) {
        let text = lines.join("\n").into_bytes();
        let report = check_session(&text, &options());
        prop_assert_eq!(report.get("ok"), Some(&Value::Bool(problems(&report).is_empty())));
    }
}

/// Feeds `text` to the incremental reader cut at `cuts`; returns the problems `push` returned
/// and the final report.
fn incremental(text: &[u8], cuts: &[usize], options: &Options) -> (Vec<Value>, Value) {
    let mut reader = agent_contract::session::check::SessionReader::new(options);
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    points.sort_unstable();
    let mut pushed = Vec::new();
    let mut at = 0;
    for p in points.into_iter().chain([text.len()]) {
        if let Value::Array(found) = reader.push(&text[at..p]) {
            pushed.extend(found);
        }
        at = p;
    }
    (pushed, reader.finish())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The incremental reader, fed any chunking, reports what checkSession reports on the whole
    /// text, and `push` returns every problem once, in order.
    #[test]
    fn incremental_reader_agrees(
        seed in any::<u64>(),
        n in 1usize..20,
        noise in prop::collection::vec(any::<u8>(), 0..64),
        at in any::<usize>(),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        max_bytes in prop_oneof![Just(4usize << 20), 40usize..200],
        crlf in any::<bool>(),
        pi in any::<bool>(),
    ) {
        let entries = session(seed, n);
        let lines: Vec<String> = entries.iter().map(|e| line(&entries, e)).collect();
        let mut bytes = text(&entries, &lines);
        if crlf {
            bytes = String::from_utf8(bytes).unwrap().replace('\n', "\r\n").into_bytes();
        }
        let at = at % (bytes.len() + 1);
        bytes.splice(at..at, noise);
        let mut options = options();
        options.limits.max_bytes = max_bytes;
        options.pi_dialect = pi;
        let whole = check_session(&bytes, &options);
        let (pushed, report) = incremental(&bytes, &cuts, &options);
        prop_assert_eq!(&report, &whole);
        let Some(Value::Array(all)) = whole.get("problems") else { panic!("no problems") };
        // `push` returns the problems of completed lines: all but those of a last line without
        // a line end (and the empty text's), which `finish` finds.
        prop_assert!(all.len() - pushed.len() <= 1);
        prop_assert_eq!(&pushed[..], &all[..pushed.len()]);
    }
}
