//! Verdict replies for the JS host. On success these exports answer with the
//! verdict only (`protocol::verdict`): a number for a text (api.mjs builds the result from
//! `JSON.parse` of the text it holds), the root node marked with the verdict for a JS value
//! (api.mjs builds the result from the node's mirror, the values the reader gave the core; see
//! `found` in js_host.js). An error is the usual reply string, whole. The full-reply twins in
//! `js.rs` exist in test builds only (feature `testing`): the property tests compare both paths.

use wasm_bindgen::prelude::*;

use super::{max_bytes, reply, with_text, CallOptions, Caps, JsInput, Text};
use crate::api;
use crate::api::options_of;
use crate::error::ContractError;
use crate::input::options::{OptionSet, Options};
use crate::protocol::verdict::action_verdict;
use crate::wire::{to_text, BatchWriter};

#[wasm_bindgen(module = "/src/bindings/js_host.js")]
extern "C" {
    #[wasm_bindgen(js_name = verdictOf)]
    fn verdict_of(node: &JsValue, verdict: JsValue) -> JsValue;
}

/// A call's options: when `undefined` (most calls), the defaults without reading anything (one
/// check instead of the snapshot and root reads); else read as every export reads them.
pub(super) enum Opts {
    Default(Caps),
    Given(CallOptions),
}

impl Opts {
    pub(super) fn read(options: &JsValue, set: OptionSet) -> Opts {
        if options.is_undefined() {
            Opts::Default(Caps::of(&Options::default(), set))
        } else {
            Opts::Given(CallOptions::read(options, set))
        }
    }

    pub(super) fn input(&self) -> Option<&JsInput> {
        match self {
            Opts::Default(_) => None,
            Opts::Given(o) => Some(&o.input),
        }
    }

    pub(super) fn mirrored(&self, value: JsValue) -> JsInput {
        match self {
            Opts::Default(cap) => JsInput::mirrored(value, *cap),
            Opts::Given(o) => o.mirrored(value),
        }
    }

    fn max_bytes(&self, set: OptionSet) -> usize {
        match self {
            Opts::Default(_) => Options::default().limits.max_bytes,
            Opts::Given(o) => max_bytes(o, set),
        }
    }
}

/// The shapes table, read once by api.mjs.
#[wasm_bindgen(js_name = verdictShapes)]
pub fn verdict_shapes() -> String {
    to_text(&api::verdict_shapes())
}

/// The reply of an export that answers one JS value, wrapped in an `Ok` that is never an `Err`:
/// wasm-bindgen gives a `Result` several wasm results, and V8 never inlines a JS→Wasm call with
/// more than one. Node 20's V8 inlines a call whose one result is an `externref` and aborts the
/// process (`Fatal error … unreachable code` in `Deoptimizer::DoComputeBuiltinContinuation`)
/// when that call is deoptimized lazily, which any caller code run during the call can cause (a
/// getter, a Proxy trap the reader meets). js-tests/test/lazy-deopt.test.mjs keeps every export
/// off that shape; see docs/decisions.md, "No export answers one externref".
pub type NotInlined = Result<JsValue, JsValue>;

pub(super) fn of_value(root: &JsInput, result: Result<u32, ContractError>) -> NotInlined {
    Ok(match result {
        Ok(code) => verdict_of(&root.value, JsValue::from(code)),
        Err(e) => JsValue::from_str(&reply(Err(e))),
    })
}

fn of_text(result: Result<u32, ContractError>) -> NotInlined {
    Ok(match result {
        Ok(code) => JsValue::from(code),
        Err(e) => JsValue::from_str(&reply(Err(e))),
    })
}

#[wasm_bindgen(js_name = parseAgentActionVerdict)]
pub fn parse_agent_action_verdict(value: JsValue, options: JsValue) -> NotInlined {
    let o = Opts::read(&options, options_of!("parseAgentAction"));
    let root = o.mirrored(value);
    let result = api::parse_agent_action_verdict(&root, o.input());
    of_value(&root, result)
}

#[wasm_bindgen(js_name = parseAgentActionJsonVerdict)]
pub fn parse_agent_action_json_verdict(text: JsValue, options: JsValue) -> NotInlined {
    let o = Opts::read(&options, options_of!("parseAgentActionJson"));
    of_text(with_text(&text, o.max_bytes(options_of!("parseAgentActionJson")), |t| api::parse_agent_action_json_verdict(t, o.input())))
}

#[wasm_bindgen(js_name = parseDecisionVerdict)]
pub fn parse_decision_verdict(value: JsValue, options: JsValue) -> NotInlined {
    let o = Opts::read(&options, options_of!("parseDecision"));
    let root = o.mirrored(value);
    let result = api::parse_decision_verdict(&root, o.input());
    of_value(&root, result)
}

#[wasm_bindgen(js_name = parseDecisionJsonVerdict)]
pub fn parse_decision_json_verdict(text: JsValue, options: JsValue) -> NotInlined {
    let o = Opts::read(&options, options_of!("parseDecisionJson"));
    of_text(with_text(&text, o.max_bytes(options_of!("parseDecisionJson")), |t| api::parse_decision_json_verdict(t, o.input())))
}

/// `{ok, value: [verdict | {ok: false, error}]}` (`wire::BatchWriter`); for a list, the
/// list's node marked with that reply (its mirror holds the items the reader read), so one value
/// crosses.
#[wasm_bindgen(js_name = parseAgentActionsVerdict)]
pub fn parse_agent_actions_verdict(list: JsValue, options: JsValue) -> NotInlined {
    let o = Opts::read(&options, options_of!("parseAgentActions"));
    let root = o.mirrored(list);
    let mut batch = BatchWriter::new();
    let result = api::each_agent_action(&root, o.input(), &mut |item| batch.verdict(item.map(|a| action_verdict(&a))));
    let text = batch.finish(result);
    Ok(if root.kind == crate::input::Kind::Array {
        verdict_of(&root.value, JsValue::from_str(&text))
    } else {
        JsValue::from_str(&text)
    })
}

#[wasm_bindgen(js_name = parseAgentActionsJsonlVerdict)]
pub fn parse_agent_actions_jsonl_verdict(text: JsValue, options: JsValue) -> String {
    let o = Opts::read(&options, options_of!("parseAgentActionsJsonl"));
    let text = Text::of(&text);
    let mut batch = BatchWriter::new();
    let result = match &text {
        Text::Other(v) => Err(api::not_text(&JsInput::root(v.clone(), Caps::FLOOR))),
        _ => api::each_jsonl_verdict(&text.bytes(0, text.len()), o.input(), &mut |item| batch.verdict(item)),
    };
    batch.finish(result)
}
