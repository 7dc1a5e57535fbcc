//! `createRpcSession()`: one JSON-RPC connection followed in both directions.
//!
//! The host reports every message it sends (`outgoing`) and receives (`incoming`); each call
//! classifies the message and returns the problems it shows about the conversation:
//! - `RPC_ID_IN_FLIGHT`: a request whose id is still waiting for its response in that
//!   direction;
//! - `RPC_UNKNOWN_ID`: a response to an id never requested in the other direction;
//! - `RPC_ALREADY_ANSWERED`: a second response to the same request;
//! - `RPC_REPLY_TO_NOTIFICATION`: a result response without an id (or with a null id while no
//!   request with a null id is in flight): a notification has no id to answer, so such a
//!   response can only answer one. An error response with a null id is the specification's
//!   answer to a message whose id could not be read, and is accepted;
//! - the message's own verdict (`RPC_INVALID_REQUEST`, `RPC_INVALID_RESPONSE`,
//!   `RPC_PARSE_ERROR`, `RPC_MESSAGE_TOO_LARGE`) when it is not a valid message;
//! - `RPC_TOO_MANY_IN_FLIGHT`: more than `MAX_IN_FLIGHT` requests waiting in one direction
//!   (the request is not tracked).
//!
//! Memory is bounded: at most `MAX_IN_FLIGHT` ids in flight per direction, and the last
//! `MAX_ANSWERED` answered ids per direction (an answer to an older one is `RPC_UNKNOWN_ID`).

use std::collections::{HashSet, VecDeque};

use crate::error::Code;
use crate::value::Value;

use super::message::{classify, Classification, Kind};
use super::options::RpcOptions;

pub const MAX_IN_FLIGHT: usize = 65_536;
pub const MAX_ANSWERED: usize = 4096;

/// Requests sent one way: those waiting for an answer, and the last ones answered.
#[derive(Default)]
struct Side {
    in_flight: HashSet<String>,
    answered: HashSet<String>,
    answered_order: VecDeque<String>,
}

impl Side {
    fn answer(&mut self, key: String) {
        self.in_flight.remove(&key);
        if self.answered.insert(key.clone()) {
            self.answered_order.push_back(key);
            if self.answered_order.len() > MAX_ANSWERED {
                if let Some(old) = self.answered_order.pop_front() {
                    self.answered.remove(&old);
                }
            }
        }
    }
}

pub struct Session {
    options: RpcOptions,
    /// Requests this side sent (answered by incoming responses).
    ours: Side,
    /// Requests the peer sent (answered by outgoing responses).
    theirs: Side,
}

/// A problem of the conversation: a stable code, where in the message (a batch element), the
/// id concerned, and a message.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionProblem {
    pub code: Code,
    pub path: String,
    pub id: Option<Value>,
    pub message: String,
}

/// An id as a key: strings and numbers never meet (`"1"` is not `1`); numbers by value.
fn key(id: &Value) -> String {
    match id {
        Value::String(s) => format!("s{s}"),
        Value::Number(n) => format!("n{:?}", n.value),
        _ => "null".to_owned(),
    }
}

fn show(id: &Value) -> String {
    let mut s = String::new();
    crate::value::write_json(&mut s, id);
    s
}

impl Session {
    pub fn new(options: RpcOptions) -> Session {
        Session { options, ours: Side::default(), theirs: Side::default() }
    }

    pub fn options(&self) -> &RpcOptions {
        &self.options
    }

    /// A message the peer sent.
    pub fn incoming(&mut self, message: &Value) -> (Classification, Vec<SessionProblem>) {
        self.observe(message, true)
    }

    /// A message this side sends.
    pub fn outgoing(&mut self, message: &Value) -> (Classification, Vec<SessionProblem>) {
        self.observe(message, false)
    }

    fn observe(&mut self, message: &Value, incoming: bool) -> (Classification, Vec<SessionProblem>) {
        let c = classify(message, &self.options);
        let mut problems = Vec::new();
        match (&c.items, message) {
            (Some(items), Value::Array(values)) => {
                for (i, (item, value)) in items.iter().zip(values).enumerate() {
                    self.one(item, value, incoming, &format!("/{i}"), &mut problems);
                }
            }
            _ => self.one(&c, message, incoming, "", &mut problems),
        }
        (c, problems)
    }

    fn one(&mut self, c: &Classification, value: &Value, incoming: bool, at: &str, out: &mut Vec<SessionProblem>) {
        let (requests, answers) =
            if incoming { (&mut self.theirs, &mut self.ours) } else { (&mut self.ours, &mut self.theirs) };
        if let Some(p) = &c.problem {
            out.push(SessionProblem {
                code: p.code,
                path: p.path.clone(),
                id: c.id.clone(),
                message: p.reason.clone(),
            });
        }
        let mut push = |code: Code, id: Option<&Value>, message: String| {
            out.push(SessionProblem { code, path: at.to_owned(), id: id.cloned(), message })
        };
        let response_side = matches!(c.kind, Kind::Response | Kind::ErrorResponse | Kind::InvalidResponse);
        match c.kind {
            Kind::Request => {
                let id = c.id.as_ref().unwrap_or(&Value::Null);
                let k = key(id);
                if requests.in_flight.contains(&k) {
                    push(Code::RpcIdInFlight, Some(id), format!("a request with id {} is still in flight", show(id)));
                } else if requests.in_flight.len() >= MAX_IN_FLIGHT {
                    push(
                        Code::RpcTooManyInFlight,
                        Some(id),
                        format!("more than {MAX_IN_FLIGHT} requests in flight: id {} is not tracked", show(id)),
                    );
                } else {
                    requests.answered.remove(&k);
                    requests.in_flight.insert(k);
                }
            }
            _ if response_side => {
                let raw_id = value.get("id");
                let id = match raw_id {
                    Some(id) if c.kind != Kind::InvalidResponse || c.id.is_some() => id,
                    Some(Value::Null) | None => &Value::Null,
                    Some(_) => return, // an id of a wrong type answers nothing: the verdict says it
                };
                let k = key(id);
                if answers.in_flight.contains(&k) {
                    answers.answer(k);
                } else if answers.answered.contains(&k) {
                    push(
                        Code::RpcAlreadyAnswered,
                        Some(id),
                        format!("the request with id {} was already answered", show(id)),
                    );
                } else if *id == Value::Null {
                    if c.kind != Kind::ErrorResponse {
                        push(
                            Code::RpcReplyToNotification,
                            None,
                            "a response without an id: a notification must not be answered".to_owned(),
                        );
                    }
                } else {
                    push(Code::RpcUnknownId, Some(id), format!("no request with id {} was sent", show(id)));
                }
            }
            _ => {}
        }
    }
}
