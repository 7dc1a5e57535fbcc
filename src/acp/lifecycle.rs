//! The prompt lifecycle of one ACP session (seed 003, cases two and three): a
//! state machine the host drives and that refuses the wrong order.
//!
//! A prompt is in flight from `admitted()` (its pure admission passed) to `settle()` (its stop
//! reason given) or `abandon()` (its admission failed afterwards, e.g. a write). In between:
//! - `written()`: its attachments are written (optional; before `enqueue()` only);
//! - `enqueue()`: the final cancel check and the hand-over to the agent, as one call: after
//!   `cancel()` it throws `PROMPT_CANCELLED` and nothing is queued, ever ("may leave an
//!   unreachable object but never queues a late user message"); either way admission is then
//!   complete;
//! - `cancel()`: `session/cancel`; returns whether the host must cancel the agent: only when
//!   the message was enqueued and the agent is not idle yet, once (admission is not the agent's
//!   work: a prompt not yet queued never cancels the agent's other work);
//! - `agentIdle()`: the agent is idle (after admission completed);
//! - `outputDelivered()`: every output the turn queued has been delivered (after `agentIdle()`);
//! - `settle(reason?)`: only when admission completed, the agent is idle and the output is
//!   delivered (`PROMPT_NOT_QUIESCENT` otherwise); `cancelled` when `cancel()` came first,
//!   else the agent's reason (`end_turn` by default). The lifecycle is then ready for the next
//!   prompt.
//!
//! `admitted()` while a prompt is in flight is `PROMPT_IN_FLIGHT`; a call out of order is
//! `PROMPT_STATE_INVALID`. A refused call changes nothing (except `enqueue()` after a cancel,
//! which completes admission).

use crate::error::{Code, ContractError, Layer, Result};

/// The stop reasons of ACP v1 (`StopReason`); `cancelled` comes only from a cancel.
pub const STOP_REASONS: [&str; 4] = ["end_turn", "max_tokens", "max_turn_requests", "refusal"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Enqueue {
    NotYet,
    Enqueued,
    /// `enqueue()` came after a cancel: nothing was queued.
    Refused,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Prompt {
    written: bool,
    enqueue: Enqueue,
    cancelled: bool,
    agent_idle: bool,
    delivered: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PromptLifecycle {
    prompt: Option<Prompt>,
}

fn err(code: Code, message: impl Into<String>) -> ContractError {
    ContractError::new(code, "", message).in_layer(Layer::Admission)
}

impl PromptLifecycle {
    pub fn new() -> PromptLifecycle {
        PromptLifecycle::default()
    }

    /// Whether a prompt is in flight.
    pub fn in_flight(&self) -> bool {
        self.prompt.is_some()
    }

    fn current(&mut self, call: &str) -> Result<&mut Prompt> {
        self.prompt.as_mut().ok_or_else(|| {
            err(Code::PromptStateInvalid, format!("{call}() with no prompt in flight (call admitted() first)"))
        })
    }

    pub fn admitted(&mut self) -> Result<()> {
        if self.prompt.is_some() {
            return Err(err(Code::PromptInFlight, "a prompt is already in flight in this session"));
        }
        self.prompt = Some(Prompt {
            written: false,
            enqueue: Enqueue::NotYet,
            cancelled: false,
            agent_idle: false,
            delivered: false,
        });
        Ok(())
    }

    pub fn written(&mut self) -> Result<()> {
        let p = self.current("written")?;
        if p.enqueue != Enqueue::NotYet {
            return Err(err(Code::PromptStateInvalid, "written() after enqueue()"));
        }
        if p.written {
            return Err(err(Code::PromptStateInvalid, "written() twice"));
        }
        p.written = true;
        Ok(())
    }

    pub fn enqueue(&mut self) -> Result<()> {
        let p = self.current("enqueue")?;
        if p.enqueue != Enqueue::NotYet {
            return Err(err(Code::PromptStateInvalid, "enqueue() twice"));
        }
        if p.cancelled {
            p.enqueue = Enqueue::Refused;
            return Err(err(
                Code::PromptCancelled,
                "the prompt was cancelled: no message may be queued after a cancel",
            ));
        }
        p.enqueue = Enqueue::Enqueued;
        Ok(())
    }

    /// Whether the host must cancel the agent.
    pub fn cancel(&mut self) -> bool {
        let Some(p) = self.prompt.as_mut() else { return false };
        if p.cancelled {
            return false;
        }
        p.cancelled = true;
        p.enqueue == Enqueue::Enqueued && !p.agent_idle
    }

    pub fn agent_idle(&mut self) -> Result<()> {
        let p = self.current("agentIdle")?;
        if p.enqueue == Enqueue::NotYet {
            return Err(err(Code::PromptStateInvalid, "agentIdle() before admission completed (enqueue())"));
        }
        p.agent_idle = true;
        Ok(())
    }

    pub fn output_delivered(&mut self) -> Result<()> {
        let p = self.current("outputDelivered")?;
        if !p.agent_idle {
            return Err(err(
                Code::PromptStateInvalid,
                "outputDelivered() before agentIdle(): the agent may still produce output",
            ));
        }
        p.delivered = true;
        Ok(())
    }

    /// The stop reason; `reason` is the agent's (`None`: `end_turn`).
    pub fn settle(&mut self, reason: Option<&str>) -> Result<&'static str> {
        let reason = match reason {
            None => "end_turn",
            Some(r) => STOP_REASONS.iter().copied().find(|s| *s == r).ok_or_else(|| {
                ContractError::new(
                    Code::OptionInvalid,
                    "",
                    format!(
                        "the agent's stop reason must be one of {} (cancelled comes from cancel())",
                        STOP_REASONS.join(", ")
                    ),
                )
            })?,
        };
        let p = self.current("settle")?;
        let mut open = Vec::new();
        if p.enqueue == Enqueue::NotYet {
            open.push("admission");
        }
        if !p.agent_idle {
            open.push("the agent");
        }
        if !p.delivered {
            open.push("the output");
        }
        if !open.is_empty() {
            return Err(err(Code::PromptNotQuiescent, format!("not quiescent yet: {} still busy", open.join(", "))));
        }
        let out = if p.cancelled { "cancelled" } else { reason };
        self.prompt = None;
        Ok(out)
    }

    /// Ends a prompt whose admission failed after `admitted()` (before `enqueue()`).
    pub fn abandon(&mut self) -> Result<()> {
        let p = self.current("abandon")?;
        if p.enqueue != Enqueue::NotYet {
            return Err(err(Code::PromptStateInvalid, "abandon() after enqueue(): settle() the prompt"));
        }
        self.prompt = None;
        Ok(())
    }
}
