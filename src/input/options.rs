//! Call options (`{strict?, maxBytes?, maxDepth?, ...}`), read from a host value by the core so
//! that an invalid option is the same error in every host.

use crate::error::{Code, ContractError, Result};
use crate::input::limits::*;
use crate::input::{HostValue, Kind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Unknown fields are an error instead of being dropped.
    pub strict: bool,
    pub limits: Limits,
    /// Most calls in one tool decision.
    pub max_calls: usize,
    /// Most `SCHEMA_MISMATCH` issues reported (`truncated` when more were found).
    pub max_issues: usize,
    /// Stream assembly: most bytes of one call's arguments text.
    pub max_arguments_bytes: usize,
    /// Stream assembly: most bytes of all argument texts, ids and names of one response.
    pub max_response_bytes: usize,
    /// Messages and sessions: `dialect: "pi"` (pi-mono's older session format) instead of the
    /// seed's rules.
    pub pi_dialect: bool,
    /// Tool definitions: whose name rule a definition's `name` follows (`names`; `None`: the
    /// definition's own `names` field, else ours). Read only by the operations that read
    /// definitions (`OptionSet::Tool`, `OptionSet::ToolRead`).
    #[cfg(feature = "schema")]
    pub names: Option<crate::tools::names::NameRule>,
    /// Tool definitions: `formats: "assert"` (`Some(true)`) or `"annotate"` (`Some(false)`);
    /// `None`: the definition's own `formats` field, else annotation only. Only `OptionSet::Tool`.
    pub formats: Option<bool>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            strict: false,
            limits: Limits::default(),
            max_calls: DEFAULT_MAX_CALLS,
            max_issues: DEFAULT_MAX_ISSUES,
            max_arguments_bytes: DEFAULT_MAX_ARGUMENTS_BYTES,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            pi_dialect: false,
            #[cfg(feature = "schema")]
            names: None,
            formats: None,
        }
    }
}

/// Which options an operation takes: every operation takes the limits; `strict` only means
/// something where unknown fields can be dropped, `maxCalls` only for decisions. An option an
/// operation does not take is `OPTION_INVALID`, like a typo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionSet {
    /// Actions and tool definitions: `strict` and the limits.
    Rules,
    /// Plain strict JSON (`parseJson`): the limits.
    Json,
    /// Decisions (always closed): the limits and `maxCalls`.
    Decision,
    /// The stream assembler: `maxArgumentsBytes`, `maxResponseBytes` and the per-value limits
    /// for parsing arguments (`maxBytes` is `maxArgumentsBytes` there).
    Stream,
    /// Messages and sessions: `strict`, the limits, `maxIssues` (most problems a session report
    /// lists) and `dialect` (`"seed"`, the default, or `"pi"`).
    Session,
    /// Defining tools (`defineTool`, `defineToolJson`, `createRegistry`): `Rules` and the
    /// catalog options `names` (whose name rule) and `formats` (`"annotate"` or `"assert"`).
    Tool,
    /// Reading a defined tool again (`validateToolInput*`): `Rules` and `names`. `formats` is
    /// the tool's own (its definition's field): a compiled tool's schema is compiled once.
    ToolRead,
}

impl Options {
    /// Reads `{strict?, maxBytes?, maxDepth?}`. Options come from the calling program, not from
    /// the model, so an option holding `undefined` counts as not given (the JS idiom
    /// `{strict: opts.strict}`), while an unknown option name is an error: a typo must not
    /// silently turn strict mode off.
    pub fn read<V: HostValue>(value: Option<&V>) -> Result<Options> {
        Options::read_for(value, OptionSet::Rules)
    }

    pub fn read_for<V: HostValue>(value: Option<&V>, set: OptionSet) -> Result<Options> {
        let mut options = Options::default();
        let Some(value) = value else {
            return Ok(options);
        };
        match value.kind() {
            Kind::Undefined | Kind::Null => return Ok(options),
            Kind::Object => {}
            _ => return Err(invalid("", "options must be an object")),
        }
        for (key, read) in value.members().map_err(|e| e.at(""))? {
            let path = crate::value::pointer_child("", &key);
            let Some(item) = crate::input::member_value(value, &key, read).map_err(|f| f.at(&path))? else {
                continue;
            };
            let rules = matches!(set, OptionSet::Rules | OptionSet::Session | OptionSet::Tool | OptionSet::ToolRead);
            match (key.as_str(), item.kind()) {
                (_, Kind::Undefined) => {}
                ("strict", Kind::Bool) if rules => options.strict = item.boolean(),
                ("strict", _) if rules => {
                    return Err(invalid(&path, "strict must be a boolean"))
                }
                ("dialect", Kind::String) if set == OptionSet::Session => match item.string().as_str() {
                    "seed" => options.pi_dialect = false,
                    "pi" => options.pi_dialect = true,
                    other => {
                        return Err(invalid(&path, format!("unknown dialect {other:?}; expected \"seed\" or \"pi\"")))
                    }
                },
                ("dialect", _) if set == OptionSet::Session => {
                    return Err(invalid(&path, "dialect must be \"seed\" or \"pi\""))
                }
                ("maxArgumentsBytes", _) if set == OptionSet::Stream => {
                    options.max_arguments_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?
                }
                ("maxResponseBytes", _) if set == OptionSet::Stream => {
                    options.max_response_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?
                }
                ("maxBytes", _) if set == OptionSet::Stream => {
                    return Err(invalid(
                        &path,
                        "the stream assembler takes maxArgumentsBytes and maxResponseBytes, not maxBytes",
                    ))
                }
                ("maxBytes", _) => options.limits.max_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?,
                ("maxDepth", _) => options.limits.max_depth = read_count(&item, &path, MAX_DEPTH_CEILING)?,
                ("maxStringBytes", _) => options.limits.max_string_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?,
                ("maxArrayLength", _) => options.limits.max_array_length = read_count(&item, &path, MAX_BYTES_CEILING)?,
                ("maxObjectMembers", _) => {
                    options.limits.max_object_members = read_count(&item, &path, MAX_BYTES_CEILING)?
                }
                #[cfg(feature = "schema")]
                ("names", _) if matches!(set, OptionSet::Tool | OptionSet::ToolRead) => {
                    options.names = Some(read_names(&item, &path)?)
                }
                ("formats", _) if set == OptionSet::Tool => options.formats = Some(read_formats(&item, &path)?),
                ("names" | "formats", _) => {
                    return Err(invalid(
                        &path,
                        format!(
                            "{key} is an option of the operations that define tools (defineTool, defineToolJson, createRegistry{})",
                            if key == "names" { "; validateToolInput too" } else { "" }
                        ),
                    ))
                }
                ("maxIssues", _) if rules => {
                    options.max_issues = read_count(&item, &path, MAX_ISSUES_CEILING)?
                }
                ("maxCalls", _) if set == OptionSet::Decision => {
                    options.max_calls = read_count(&item, &path, MAX_CALLS_CEILING)?
                }
                ("strict", _) if set == OptionSet::Decision => {
                    return Err(invalid(&path, "strict is not an option of decisions: they are always closed"))
                }
                ("strict", _) => return Err(invalid(&path, "strict is not an option of this operation")),
                ("maxCalls", _) => return Err(invalid(&path, "maxCalls is an option of the decision operations only")),
                _ => return Err(invalid(&path, format!("unknown option {key:?}"))),
            }
        }
        Ok(options)
    }
}

/// `names`: one of `tools::names::NAME_RULES` (also a definition's `names` field, whose error
/// is the definition's: the caller maps it).
#[cfg(feature = "schema")]
pub(crate) fn read_names<V: HostValue>(item: &V, path: &str) -> Result<crate::tools::names::NameRule> {
    use crate::tools::names::{NameRule, NAME_RULES};
    let expected = || format!("expected one of {}", NAME_RULES.map(|n| format!("{n:?}")).join(", "));
    if item.kind() != Kind::String {
        return Err(invalid(path, format!("names must be a string: {}", expected())));
    }
    let name = item.string();
    NameRule::from_name(&name).ok_or_else(|| invalid(path, format!("unknown name rule {name:?}; {}", expected())))
}

/// `formats`: `"annotate"` (false) or `"assert"` (true).
pub(crate) fn read_formats<V: HostValue>(item: &V, path: &str) -> Result<bool> {
    if item.kind() == Kind::String {
        match item.string().as_str() {
            "annotate" => return Ok(false),
            "assert" => return Ok(true),
            _ => {}
        }
    }
    Err(invalid(path, "formats must be \"annotate\" or \"assert\""))
}

/// A count option: an integer from 1 to `ceiling` (shared with the RPC options).
pub(crate) fn read_count<V: HostValue>(item: &V, path: &str, ceiling: usize) -> Result<usize> {
    if item.kind() == Kind::Number {
        let n = item.number();
        if n.fract() == 0.0 && n >= 1.0 && n <= ceiling as f64 {
            return Ok(n as usize);
        }
    }
    Err(invalid(path, format!("must be an integer from 1 to {ceiling}")))
}

pub(crate) fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::OptionInvalid, path, message)
}
