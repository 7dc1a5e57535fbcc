//! Tool name rules: ours, and those of the protocols a catalog may come from or go to.
//!
//! Tools we author keep one rule (`^[a-z][a-z0-9_]*$`, at most 64 characters): it is valid in
//! every provider's tool list, in policy keys and in traces. A catalog read from elsewhere (an
//! MCP server's `tools/list`, an OpenAI, Anthropic or Gemini tool list) keeps the names it has,
//! under the rule of the protocol it came from (`names: "mcp"`, ...), so its calls can be checked
//! against the schemas it gave. The rule travels with the definition (`names` in the tool's
//! value, see `contract`), and every projection checks each name against its own target's rule:
//! a name one protocol accepts is not sent to a protocol that refuses it.

use crate::error::{Code, ContractError, Layer, Result};

/// Whose rule a tool's name follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NameRule {
    /// Ours: `^[a-z][a-z0-9_]*$`, at most 64 characters.
    #[default]
    Own,
    /// MCP tool names (the 2025-11-25 specification's tool name format): 1 to 128 of
    /// `A-Z a-z 0-9 _ - .`.
    Mcp,
    /// OpenAI function names: `^[a-zA-Z0-9_-]{1,64}$`.
    OpenAi,
    /// Anthropic tool names: `^[a-zA-Z0-9_-]{1,64}$`.
    Anthropic,
    /// Gemini function declarations: a letter or `_` first, then `a-z A-Z 0-9 _ . : -`, at most
    /// 128 characters (as `@google/genai` documents `FunctionDeclaration.name`).
    Gemini,
}

/// The values of the `names` option and definition field, in the order messages list them.
pub const NAME_RULES: [&str; 4] = ["mcp", "openai", "anthropic", "gemini"];

impl NameRule {
    /// The rule named by the `names` option (`None`: not one of `NAME_RULES`).
    pub fn from_name(name: &str) -> Option<NameRule> {
        Some(match name {
            "mcp" => NameRule::Mcp,
            "openai" => NameRule::OpenAi,
            "anthropic" => NameRule::Anthropic,
            "gemini" => NameRule::Gemini,
            _ => return None,
        })
    }

    /// The option's value (`None` for our own rule, which is the default and never written).
    pub fn as_option(self) -> Option<&'static str> {
        match self {
            NameRule::Own => None,
            NameRule::Mcp => Some("mcp"),
            NameRule::OpenAi => Some("openai"),
            NameRule::Anthropic => Some("anthropic"),
            NameRule::Gemini => Some("gemini"),
        }
    }

    /// Whether `name` follows this rule. Every rule is ASCII, so bytes are characters.
    pub fn accepts(self, name: &str) -> bool {
        let b = name.as_bytes();
        let (max, first_ok, rest_ok): (usize, fn(u8) -> bool, fn(u8) -> bool) = match self {
            NameRule::Own => {
                (64, |c| c.is_ascii_lowercase(), |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
            }
            NameRule::Mcp => (128, mcp_char, mcp_char),
            NameRule::OpenAi | NameRule::Anthropic => (64, word_dash, word_dash),
            NameRule::Gemini => (
                128,
                |c| c.is_ascii_alphabetic() || c == b'_',
                |c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-'),
            ),
        };
        !b.is_empty() && b.len() <= max && first_ok(b[0]) && b[1..].iter().all(|&c| rest_ok(c))
    }

    /// The rule in words, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            NameRule::Own => "^[a-z][a-z0-9_]*$ and be at most 64 characters",
            NameRule::Mcp => "^[A-Za-z0-9_.-]{1,128}$ (MCP tool names)",
            NameRule::OpenAi => "^[a-zA-Z0-9_-]{1,64}$ (OpenAI function names)",
            NameRule::Anthropic => "^[a-zA-Z0-9_-]{1,64}$ (Anthropic tool names)",
            NameRule::Gemini => "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$ (Gemini function declarations)",
        }
    }

    /// The protocol's name in a projection's refusal.
    fn target(self) -> &'static str {
        match self {
            NameRule::Own => "agent-contract",
            NameRule::Mcp => "MCP",
            NameRule::OpenAi => "OpenAI",
            NameRule::Anthropic => "Anthropic",
            NameRule::Gemini => "Gemini",
        }
    }
}

fn mcp_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

fn word_dash(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-')
}

/// Whether some rule accepts `name`: what a policy rule may name (a policy is written for the
/// registry's tools, whichever rule their names follow).
pub fn any_rule_accepts(name: &str) -> bool {
    [NameRule::Own, NameRule::Mcp, NameRule::OpenAi, NameRule::Gemini].iter().any(|r| r.accepts(name))
}

/// A projection to `target` refuses the tool at `index` (of the registry's sorted `tools`) whose
/// name that protocol does not accept: `TOOL_NAME_INVALID` at its name, the target named.
pub fn check_for_target(target: NameRule, name: &str, index: usize) -> Result<()> {
    if target.accepts(name) {
        return Ok(());
    }
    Err(ContractError::new(
        Code::ToolNameInvalid,
        format!("/tools/{index}/name"),
        format!("tool name {name:?} cannot be sent to {}: its names must match {}", target.target(), target.describe()),
    )
    .in_layer(Layer::Contract))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let cases: [(&str, [bool; 5]); 12] = [
            // own, mcp, openai, anthropic, gemini
            ("get_weather", [true, true, true, true, true]),
            ("get-weather", [false, true, true, true, true]),
            ("github.search_issues", [false, true, false, false, true]),
            ("ns:tool", [false, false, false, false, true]),
            ("GetWeather", [false, true, true, true, true]),
            ("1tool", [false, true, true, true, false]),
            ("-tool", [false, true, true, true, false]),
            ("_tool", [false, true, true, true, true]),
            ("", [false, false, false, false, false]),
            ("a b", [false, false, false, false, false]),
            ("é", [false, false, false, false, false]),
            ("a/b", [false, false, false, false, false]),
        ];
        let rules = [NameRule::Own, NameRule::Mcp, NameRule::OpenAi, NameRule::Anthropic, NameRule::Gemini];
        for (name, want) in cases {
            for (rule, want) in rules.iter().zip(want) {
                assert_eq!(rule.accepts(name), want, "{rule:?} {name:?}");
            }
        }
        for (rule, max) in rules.iter().zip([64, 128, 64, 64, 128]) {
            assert!(rule.accepts(&"a".repeat(max)), "{rule:?}");
            assert!(!rule.accepts(&"a".repeat(max + 1)), "{rule:?}");
        }
    }
}
