//! The Agent Client Protocol's edge that needs no I/O (seed 003): the pure
//! first pass of `session/prompt` admission, canonical base64, media-type sniffing, the
//! `promptCapabilities` an agent may advertise, and the prompt lifecycle (cancel fence and
//! settlement). Nothing here reads a file, a clock or a socket: the host does the I/O the
//! verdicts allow, in the order the lifecycle accepts.

pub mod admission; // `admitPrompt`: the closed ContentBlock union, MIME allowlist, limits, plan
pub mod base64; // canonical RFC 4648 base64: check and decode
pub mod capabilities; // `advertisePromptCapabilities`: true only for facts known true
pub mod lifecycle; // `PromptLifecycle`: the cancel fence and settlement after quiescence
pub mod sniff; // WHATWG MIME Sniffing byte signatures
