//! The permission policy: which registered tools a call may run without a human.
//!
//! A policy is `{rules: [{effect, tool} | {effect, permission}]}` with `effect` one of `allow`,
//! `ask`, `deny`. A rule naming the tool is more specific than rules naming permissions and
//! decides alone. Otherwise every permission the tool declares is looked up: a permission no
//! rule names is `deny` (default deny), and the strictest effect among them wins (`deny` over
//! `ask` over `allow`). Two rules for the same tool or the same permission are a contradiction
//! (`POLICY_INVALID`), as is anything else that is not exactly this shape: a policy is security
//! configuration, so it is always read closed.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::limits::Limits;
use crate::input::{HostValue, Undefined};
use crate::tools::contract::{ToolDefinition, PERMISSIONS};
use crate::value::{pointer_child, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    Allow,
    Ask,
    Deny,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Ask => "ask",
            Effect::Deny => "deny",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    Tool(String),
    Permission(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub effect: Effect,
    pub subject: Subject,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    pub rules: Vec<Rule>,
}

/// What the policy says about one tool, and why (for messages).
pub struct Verdict {
    pub effect: Effect,
    pub reason: String,
}

fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::PolicyInvalid, path, message).in_layer(Layer::Contract)
}

/// `definePolicy(policy)`: reads and checks a policy.
pub fn define_policy<V: HostValue>(policy: &V) -> Result<Policy> {
    let value = crate::tools::registry::read_value(policy, &Limits::ceilings(), Undefined::Reject)
        .map_err(|e| invalid(&e.path, e.message))?;
    from_value(&value)
}

fn from_value(value: &Value) -> Result<Policy> {
    let Value::Object(entries) = value else {
        return Err(invalid("", format!("a policy must be an object {{rules: [...]}}, got {}", value.kind_name())));
    };
    if let Some((k, _)) = entries.iter().find(|(k, _)| k != "rules") {
        return Err(invalid(
            &pointer_child("", k),
            format!("unknown field {} in a policy", crate::value::quoted_name(k)),
        ));
    }
    let Some(rules) = value.get("rules") else {
        return Err(invalid("/rules", "a policy must have a rules list (it may be empty: everything is denied)"));
    };
    let Value::Array(items) = rules else {
        return Err(invalid("/rules", format!("rules must be a list, got {}", rules.kind_name())));
    };
    let mut out: Vec<Rule> = Vec::with_capacity(items.len());
    // Where each subject got its rule: one lookup per rule, not a scan of the earlier ones.
    let mut seen: std::collections::HashMap<Subject, usize> = std::collections::HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("/rules/{i}");
        let rule = rule(item, &path)?;
        if let Some(&j) = seen.get(&rule.subject) {
            let what = match &rule.subject {
                Subject::Tool(t) => format!("tool {t:?}"),
                Subject::Permission(p) => format!("permission {p:?}"),
            };
            let key = if matches!(rule.subject, Subject::Tool(_)) { "tool" } else { "permission" };
            return Err(invalid(&format!("{path}/{key}"), format!("{what} already has a rule (/rules/{j})")));
        }
        seen.insert(rule.subject.clone(), i);
        out.push(rule);
    }
    Ok(Policy { rules: out })
}

fn rule(item: &Value, path: &str) -> Result<Rule> {
    let Value::Object(entries) = item else {
        return Err(invalid(path, format!("a rule must be an object, got {}", item.kind_name())));
    };
    for (k, _) in entries {
        if !["effect", "tool", "permission"].contains(&k.as_str()) {
            return Err(invalid(
                &pointer_child(path, k),
                format!("unknown field {} in a policy rule", crate::value::quoted_name(k)),
            ));
        }
    }
    let effect = match item.get("effect") {
        Some(Value::String(s)) if s == "allow" => Effect::Allow,
        Some(Value::String(s)) if s == "ask" => Effect::Ask,
        Some(Value::String(s)) if s == "deny" => Effect::Deny,
        Some(_) => return Err(invalid(&format!("{path}/effect"), "effect must be \"allow\", \"ask\" or \"deny\"")),
        None => return Err(invalid(&format!("{path}/effect"), "a rule must have an effect")),
    };
    let subject = match (item.get("tool"), item.get("permission")) {
        // Any name a tool may have under some name rule (`tools::names`): a policy is written
        // for a registry's tools, imported catalogs' names included.
        (Some(Value::String(t)), None) if crate::tools::names::any_rule_accepts(t) => Subject::Tool(t.clone()),
        (Some(_), None) => {
            return Err(invalid(
                &format!("{path}/tool"),
                "tool must be a tool name: ours (^[a-z][a-z0-9_]*$) or one the names option's rules accept (mcp, openai, anthropic, gemini)",
            ))
        }
        (None, Some(Value::String(p))) if PERMISSIONS.contains(&p.as_str()) => Subject::Permission(p.clone()),
        (None, Some(_)) => {
            return Err(invalid(
                &format!("{path}/permission"),
                "permission must be one of read, write, execute, network",
            ))
        }
        (Some(_), Some(_)) => {
            return Err(invalid(&format!("{path}/permission"), "a rule names either a tool or a permission, not both"))
        }
        (None, None) => return Err(invalid(path, "a rule must name a tool or a permission")),
    };
    Ok(Rule { effect, subject })
}

impl Policy {
    pub fn into_value(self) -> Value {
        let rules = self
            .rules
            .into_iter()
            .map(|r| {
                let (key, subject) = match r.subject {
                    Subject::Tool(t) => ("tool", t),
                    Subject::Permission(p) => ("permission", p),
                };
                Value::Object(vec![
                    ("effect".to_owned(), Value::String(r.effect.as_str().to_owned())),
                    (key.to_owned(), Value::String(subject)),
                ])
            })
            .collect();
        Value::Object(vec![("rules".to_owned(), Value::Array(rules))])
    }

    /// The effect for `tool`: its own rule, else the strictest of its permissions' effects
    /// (an unnamed permission is `deny`).
    pub fn decide(&self, tool: &ToolDefinition) -> Verdict {
        if let Some(r) = self.rules.iter().find(|r| r.subject == Subject::Tool(tool.name.clone())) {
            return Verdict { effect: r.effect, reason: format!("the rule for tool {:?}", tool.name) };
        }
        let mut worst = (Effect::Allow, String::new());
        for p in &tool.permissions {
            let found = self.rules.iter().find(|r| r.subject == Subject::Permission(p.clone()));
            let (effect, why) = match found {
                Some(r) => (r.effect, format!("the rule for permission {p:?}")),
                None => (Effect::Deny, format!("no rule for permission {p:?} (default deny)")),
            };
            if effect > worst.0 || worst.1.is_empty() {
                worst = (effect, why);
            }
        }
        Verdict { effect: worst.0, reason: worst.1 }
    }
}
