//! What hosts call for a provider's stream: the adapter chosen by the provider's name, and
//! `ProviderStream`, one response being assembled from raw SSE, payload texts or event values
//! (`assemble` for a whole stream at once).

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::{OptionSet, Options};
use crate::input::{Budget, Copier, HostValue, Kind, Path, Undefined};
use crate::value::Value;

use super::provider::{invalid, Adapter};

/// The provider names hosts pass, in the order the docs list them.
pub const PROVIDERS: [&str; 4] = ["openai-chat", "openai-responses", "anthropic", "gemini"];

/// The adapter for a provider's name (one of `PROVIDERS`).
pub fn adapter(provider: &str, options: Options) -> Result<Box<dyn Adapter>> {
    Ok(match provider {
        "openai-chat" => Box::new(super::openai_chat::OpenAiChat::new(options)),
        "openai-responses" => Box::new(super::openai_responses::OpenAiResponses::new(options)),
        "anthropic" => Box::new(super::anthropic::Anthropic::new(options)),
        "gemini" => Box::new(super::gemini::Gemini::new(options)),
        other => {
            return Err(ContractError::new(
                Code::ProviderUnknown,
                "",
                format!("unknown provider {other:?}: expected one of {PROVIDERS:?}"),
            ))
        }
    })
}

/// One provider response being assembled, as hosts hold it: the provider's adapter, fed raw
/// SSE chunks, payload texts or provider event values.
pub struct ProviderStream {
    adapter: Box<dyn Adapter>,
}

impl ProviderStream {
    /// Options: those of the assembler (`maxArgumentsBytes`, `maxResponseBytes`, the limits).
    pub fn new<V: HostValue>(provider: &str, options: Option<&V>) -> Result<ProviderStream> {
        let options = Options::read_for(options, OptionSet::Stream)?;
        Ok(ProviderStream { adapter: adapter(provider, options)? })
    }

    /// `new` with the provider's name given as a host value.
    pub fn from_host<V: HostValue>(provider: &V, options: Option<&V>) -> Result<ProviderStream> {
        if provider.kind() != Kind::String {
            return Err(ContractError::new(
                Code::ProviderUnknown,
                "",
                format!(
                    "expected a provider name (one of {PROVIDERS:?}), got {}",
                    crate::input::fields::kind_name(provider, provider.kind())
                ),
            ));
        }
        ProviderStream::new(&provider.string(), options)
    }

    /// Ends the stream with an error the host found (a chunk that is not text): every later call
    /// returns it.
    pub fn fail(&mut self, error: ContractError) -> ContractError {
        self.adapter.fail(error)
    }

    pub fn push_sse(&mut self, chunk: &[u8]) -> Result<()> {
        self.adapter.push_sse(chunk)
    }

    /// SSE text given as a host value: a string, or anything else, which ends the stream
    /// (bindings pass bytes to `push_sse` themselves).
    pub fn push_sse_host<V: HostValue>(&mut self, chunk: &V) -> Result<()> {
        if chunk.kind() == Kind::String {
            return self.push_sse(chunk.string().as_bytes());
        }
        Err(self.fail(not_sse_text(chunk)))
    }

    /// One provider event from a host: a string is one payload's JSON text (OpenAI's `[DONE]`
    /// too); anything else is the event itself, which must be JSON (`undefined` is kept, so
    /// an adapter reports the field as having the wrong type).
    pub fn push_host<V: HostValue>(&mut self, event: &V) -> Result<()> {
        if event.kind() == Kind::String {
            return self.adapter.push_payload(&event.string());
        }
        let limits = self.adapter.common_ref().limits;
        let mut budget = Budget::new(&limits);
        let copied =
            Copier { limits: &limits, budget: &mut budget, undefined: Undefined::Keep }.copy(event, &Path::Root(""), 0);
        match copied {
            Ok(value) => self.adapter.push_event(&value),
            Err(e) => Err(self.adapter.fail(e.in_layer(Layer::Transport))),
        }
    }

    pub fn preview(&self) -> Value {
        self.adapter.preview()
    }

    pub fn finish(&self) -> Result<Value> {
        self.adapter.finish()
    }
}

/// The verdict on an SSE chunk that is neither a string nor bytes.
pub fn not_sse_text<V: HostValue>(chunk: &V) -> ContractError {
    invalid(
        "",
        format!("expected SSE text (a string or bytes), got {}", crate::input::fields::kind_name(chunk, chunk.kind())),
    )
}

/// A whole provider stream from hosts: SSE `bytes`, or `input` holding SSE text (a string) or
/// a list of events (payload texts or event values); then the normalized response.
pub fn assemble<V: HostValue>(provider: &V, input: &V, bytes: Option<&[u8]>, options: Option<&V>) -> Result<Value> {
    let mut stream = ProviderStream::from_host(provider, options)?;
    match (bytes, input.kind()) {
        (Some(b), _) => stream.push_sse(b)?,
        (None, Kind::String) => stream.push_sse(input.string().as_bytes())?,
        (None, Kind::Array) => {
            for i in 0..input.len().map_err(|e| e.at(""))? {
                let event = input.index(i).map_err(|e| e.at(&format!("/{i}")))?;
                stream.push_host(&event)?;
            }
        }
        (None, _) => {
            return Err(invalid(
                "",
                format!(
                    "expected SSE text (a string or bytes) or a list of events, got {}",
                    crate::input::fields::kind_name(input, input.kind())
                ),
            ))
        }
    }
    stream.finish()
}
