//! Verdict replies for the component: on success the verdict number alone
//! (`wire::verdict_reply`), the Python binding building the result from `json.loads` of the
//! text it sent; errors whole. The full-reply twins of the text functions exist in test builds only
//! (feature `testing`, world `agent-contract-testing`): the property tests compare both.

use super::host_options;
use crate::api;
use crate::wire::{verdict_reply, BatchWriter};

pub(super) fn action_json(text: &[u8], options: &str) -> String {
    verdict_reply(host_options(options).and_then(|o| api::parse_agent_action_json_verdict(text, o.as_ref().as_ref())))
}

pub(super) fn actions_jsonl(text: &[u8], options: &str) -> String {
    let mut batch = BatchWriter::new();
    let result = host_options(options).and_then(|o| {
        api::each_jsonl_action(text, o.as_ref().as_ref(), &mut |item| {
            batch.verdict(item.map(|a| crate::protocol::verdict::action_verdict(&a)))
        })
    });
    batch.finish(result)
}

pub(super) fn decision_json(text: &[u8], options: &str) -> String {
    verdict_reply(host_options(options).and_then(|o| api::parse_decision_json_verdict(text, o.as_ref().as_ref())))
}
