//! Verdict replies for the component (issue 12 §1): on success the verdict number alone
//! (`wire::verdict_reply`), the Python binding building the result from `json.loads` of the
//! text it sent; errors whole. The full-reply exports stay: the property tests compare both.

use super::host_options;
use crate::api;
use crate::wire::{verdict_batch_reply, verdict_reply};

pub(super) fn action_json(text: &[u8], options: &str) -> String {
    verdict_reply(host_options(options).and_then(|o| api::parse_agent_action_json_verdict(text, o.as_ref().as_ref())))
}

pub(super) fn actions_jsonl(text: &[u8], options: &str) -> String {
    verdict_batch_reply(
        host_options(options).and_then(|o| api::parse_agent_actions_jsonl_verdict(text, o.as_ref().as_ref())),
    )
}

pub(super) fn decision_json(text: &[u8], options: &str) -> String {
    verdict_reply(host_options(options).and_then(|o| api::parse_decision_json_verdict(text, o.as_ref().as_ref())))
}
