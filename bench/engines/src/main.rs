//! Schema engines on the typical tool of bench/tool_schema.mjs: boon (vendored, patched) and the
//! `jsonschema` crate (the `regex` pattern engine, no resolvers) on a serde_json tree, and the
//! core's own paths on the JSON text. Natively, or in wasm32-wasip1 under node:wasi (run.mjs).
//! Medians of interleaved batches. Usage: engines-bench [--quick]
use std::hint::black_box;
use std::time::Instant;

use agent_contract::json::{self, Mode};
use agent_contract::value::Value;
use agent_contract::{api, Limits};
use serde_json::json;

fn schema() -> serde_json::Value {
    json!({
      "type": "object",
      "properties": {
        "path": { "type": "string", "pattern": "^[A-Za-z0-9_./-]+$", "maxLength": 512 },
        "mode": { "enum": ["create", "overwrite", "append"] },
        "encoding": { "type": "string" },
        "retries": { "type": "integer", "minimum": 0, "maximum": 5 },
        "edits": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": { "line": { "type": "integer", "minimum": 1 }, "text": { "type": "string" } },
            "required": ["line", "text"],
            "additionalProperties": false
          }
        }
      },
      "required": ["path", "mode", "edits"],
      "additionalProperties": false
    })
}

fn input(edits: usize) -> String {
    let mut list = Vec::new();
    if edits == 2 {
        list.push(json!({"line": 1, "text": "import { x } from \"./x\";"}));
        list.push(json!({"line": 2, "text": "export default x;"}));
    } else {
        for i in 0..edits {
            list.push(json!({"line": i + 1, "text": format!("    const value_{i} = compute({i}, \"abc\");")}));
        }
    }
    let v = json!({"path": "src/index.ts", "mode": "overwrite", "encoding": "utf8", "retries": 2, "edits": list});
    serde_json::to_string(&v).unwrap()
}

fn boon_compile(schema: &serde_json::Value) -> (boon::Schemas, boon::SchemaIndex) {
    let mut c = boon::Compiler::new();
    c.add_resource("urn:bench", schema.clone()).unwrap();
    let mut s = boon::Schemas::new();
    let i = c.compile("urn:bench", &mut s).unwrap();
    (s, i)
}

fn js_compile(schema: &serde_json::Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(schema)
        .unwrap()
}

struct Case<'a> {
    name: &'a str,
    run: Box<dyn FnMut() + 'a>,
    iters: usize,
    samples: Vec<f64>,
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let batches = if quick { 3 } else { 7 };
    agent_contract::entropy::seed(&[7u8; 32]);
    let schema = schema();
    let small = input(2);
    let big = input(14_500);
    let small_j: serde_json::Value = serde_json::from_str(&small).unwrap();
    let big_j: serde_json::Value = serde_json::from_str(&big).unwrap();
    let (bs, bi) = boon_compile(&schema);
    let jv = js_compile(&schema);
    assert!(bs.validate(&small_j, bi).is_ok() && bs.validate(&big_j, bi).is_ok());
    assert!(jv.is_valid(&small_j) && jv.is_valid(&big_j));

    // The core: a tool defined once, then validateToolInputJson on the text (today: strict parse
    // into the value tree, copy into serde_json, boon).
    let schema_v = json::parse(schema.to_string().as_bytes(), Mode::Strict, &Limits::default()).unwrap();
    let tool = Value::Object(vec![
        ("name".into(), Value::String("write_file".into())),
        ("description".into(), Value::String("Writes edits.".into())),
        ("permissions".into(), Value::Array(vec![Value::String("write".into())])),
        ("inputSchema".into(), schema_v.clone()),
    ]);
    let def = api::define_tool(&&tool, None).unwrap().into_value();
    let none: Option<&&Value> = None;
    api::validate_tool_input_json(&&def, big.as_bytes(), none).unwrap();
    let limits = Limits::default();
    let big_v = json::parse(big.as_bytes(), Mode::Strict, &limits).unwrap();
    let mut variant = 0u64;

    let mut cases: Vec<Case> = vec![
        Case { name: "compile: boon", iters: 50, samples: vec![], run: Box::new(|| { black_box(boon_compile(&schema)); }) },
        Case { name: "compile: jsonschema (regex)", iters: 50, samples: vec![], run: Box::new(|| { black_box(js_compile(&schema)); }) },
        Case {
            name: "compile: core defineTool (uncached: checks + boon + verdict)",
            iters: 50,
            samples: vec![],
            run: Box::new(|| {
                variant += 1;
                let mut s = schema_v.clone();
                if let Value::Object(e) = &mut s { e.push(("$comment".into(), Value::String(format!("v{variant}")))) }
                let t = Value::Object(vec![
                    ("name".into(), Value::String("write_file".into())),
                    ("description".into(), Value::String("Writes edits.".into())),
                    ("permissions".into(), Value::Array(vec![Value::String("write".into())])),
                    ("inputSchema".into(), s),
                ]);
                black_box(api::define_tool(&&t, None).unwrap());
            }),
        },
        Case { name: "small: boon on serde_json tree", iters: 20_000, samples: vec![], run: Box::new(|| { black_box(bs.validate(&small_j, bi).is_ok()); }) },
        Case { name: "small: jsonschema is_valid on serde_json tree", iters: 20_000, samples: vec![], run: Box::new(|| { black_box(jv.is_valid(&small_j)); }) },
        Case { name: "small: serde_json::from_str + boon", iters: 20_000, samples: vec![], run: Box::new(|| { let v: serde_json::Value = serde_json::from_str(&small).unwrap(); black_box(bs.validate(&v, bi).is_ok()); }) },
        Case { name: "small: serde_json::from_str + jsonschema", iters: 20_000, samples: vec![], run: Box::new(|| { let v: serde_json::Value = serde_json::from_str(&small).unwrap(); black_box(jv.is_valid(&v)); }) },
        Case { name: "small: core validate_tool_input_json (text)", iters: 20_000, samples: vec![], run: Box::new(|| { black_box(api::validate_tool_input_json(&&def, small.as_bytes(), none).is_ok()); }) },
        Case { name: "small: core check_tool_input_json (text, no tree)", iters: 20_000, samples: vec![], run: Box::new(|| { black_box(api::check_tool_input_json(&&def, small.as_bytes(), none).is_ok()); }) },
        Case { name: "1MB: boon on serde_json tree", iters: 10, samples: vec![], run: Box::new(|| { black_box(bs.validate(&big_j, bi).is_ok()); }) },
        Case { name: "1MB: jsonschema is_valid on serde_json tree", iters: 10, samples: vec![], run: Box::new(|| { black_box(jv.is_valid(&big_j)); }) },
        Case { name: "1MB: serde_json::from_str alone", iters: 10, samples: vec![], run: Box::new(|| { black_box(serde_json::from_str::<serde_json::Value>(&big).unwrap()); }) },
        Case { name: "1MB: core strict check, no tree (json::check)", iters: 10, samples: vec![], run: Box::new(|| { black_box(json::check(big.as_bytes(), &limits).is_ok()); }) },
        Case { name: "1MB: core strict parse into the value tree", iters: 10, samples: vec![], run: Box::new(|| { black_box(json::parse(big.as_bytes(), Mode::Strict, &limits).unwrap()); }) },
        Case { name: "1MB: copy of the value tree into serde_json (as before)", iters: 10, samples: vec![], run: Box::new(|| { black_box(to_serde(&big_v)); }) },
        Case { name: "1MB: core validate_tool_input_json (text → tree → program)", iters: 10, samples: vec![], run: Box::new(|| { black_box(api::validate_tool_input_json(&&def, big.as_bytes(), none).is_ok()); }) },
        Case { name: "1MB: core check_tool_input_json (program on the parser, no tree)", iters: 10, samples: vec![], run: Box::new(|| { black_box(api::check_tool_input_json(&&def, big.as_bytes(), none).is_ok()); }) },
    ];
    for _ in 0..batches {
        for c in cases.iter_mut() {
            (c.run)();
            let t = Instant::now();
            for _ in 0..c.iters {
                (c.run)();
            }
            c.samples.push(t.elapsed().as_secs_f64() / c.iters as f64);
        }
    }
    println!("{} ({} batches, medians)", if cfg!(target_arch = "wasm32") { "wasm32-wasip1" } else { "native" }, batches);
    for c in &mut cases {
        c.samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let m = c.samples[c.samples.len() / 2];
        let (v, u) = if m < 1e-3 { (m * 1e6, "µs") } else { (m * 1e3, "ms") };
        println!("  {:<62} {:>9.2} {}", c.name, v, u);
    }
}

/// The copy the core made before it had its own program (`schema::to_instance`, minus the
/// bookkeeping of undefined members).
fn to_serde(v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => J::Number(n.text.as_deref().and_then(|t| t.parse().ok()).unwrap_or_else(|| serde_json::Number::from(0))),
        Value::String(s) => J::String(s.clone()),
        Value::Array(items) => J::Array(items.iter().map(to_serde).collect()),
        Value::Object(entries) => J::Object(entries.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect()),
        _ => J::Null,
    }
}
