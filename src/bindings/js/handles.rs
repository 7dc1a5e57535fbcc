//! Compiled tools: what `defineTool` holds for the tool it returns. The compiled
//! input schema stays in this instance; the package keeps the object beside the frozen
//! definition (pkg/api.mjs) and frees it by `free()`, `using` or garbage collection.

use super::*;

use super::verdict::{of_value, NotInlined, Opts};
use crate::wire::BatchWriter;

#[wasm_bindgen]
pub struct ToolHandle {
    inner: Result<crate::tools::handle::ToolHandle, ContractError>,
}

#[wasm_bindgen]
impl ToolHandle {
    /// `defineTool(def, options)`; a failure is `reply()`'s error.
    #[wasm_bindgen(constructor)]
    pub fn new(def: JsValue, options: JsValue) -> ToolHandle {
        let o = CallOptions::read(&options, options_of!("defineTool"));
        ToolHandle { inner: api::compile_tool(&o.value(def), Some(&o.input)) }
    }

    /// `defineToolJson(text, options)`.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(text: JsValue, options: JsValue) -> ToolHandle {
        let o = CallOptions::read(&options, options_of!("defineToolJson"));
        let mut made = None;
        let outcome = with_text(&text, max_bytes(&o, options_of!("defineToolJson")), |t| {
            made = Some(api::compile_tool_json(t, Some(&o.input))?);
            Ok(Value::Null)
        });
        let inner = match (outcome, made) {
            (Ok(_), Some(handle)) => Ok(handle),
            (Err(e), _) => Err(e),
            (Ok(_), None) => Err(ContractError::new(crate::error::Code::JsonInvalid, "", "no tool definition")),
        };
        ToolHandle { inner }
    }

    /// The definition (`defineTool`'s value) or the error that prevented it.
    pub fn reply(&self) -> String {
        reply(match &self.inner {
            Ok(h) => h.take_definition(),
            Err(e) => Err(e.clone()),
        })
    }

    /// Drops the compiled schemas now; later calls reply `TOOL_HANDLE_FREED`.
    pub fn release(&self) {
        if let Ok(h) = &self.inner {
            h.release();
        }
    }

    /// The handle's methods are named as the operations they answer (`validateToolInput*`), so
    /// the package calls them as it calls the rows.
    ///
    /// A verdict reply: a valid object or array is the core's copy of what it read, which is
    /// the root's mirror (js_host.js, `found`), so the input's node crosses back marked with
    /// verdict 0 and api.mjs answers the mirror; nothing is written or parsed again. A valid
    /// scalar (it has no node) and an error are the reply string. The full reply for any input
    /// is the plain-definition export, `validateToolInput`.
    #[wasm_bindgen(js_name = validateToolInput)]
    pub fn validate(&self, input: JsValue, options: JsValue) -> NotInlined {
        let o = Opts::read(&options, options_of!("validateToolInput"));
        let root = o.mirrored(input);
        let result = match &self.inner {
            Ok(h) => api::handle_validate_input(h, &root, o.input()),
            Err(e) => Err(e.clone()),
        };
        match result {
            Ok(_) if matches!(root.kind, Kind::Array | Kind::Object) => of_value(&root, Ok(0)),
            other => Ok(JsValue::from_str(&reply(other))),
        }
    }

    /// A verdict-only reply, as `validateToolInputJson`.
    #[wasm_bindgen(js_name = validateToolInputJson)]
    pub fn validate_json(&self, text: JsValue, options: JsValue) -> String {
        let o = CallOptions::read(&options, options_of!("validateToolInputJson"));
        verdict_text(
            with_text(&text, max_bytes(&o, options_of!("validateToolInputJson")), |t| match &self.inner {
                Ok(h) => api::handle_check_input_json(h, t, Some(&o.input)).map(|()| Value::Null),
                Err(e) => Err(e.clone()),
            })
            .map(drop),
        )
    }

    #[wasm_bindgen(js_name = validateToolInputs)]
    pub fn validate_many(&self, inputs: JsValue, options: JsValue) -> String {
        let o = CallOptions::read(&options, options_of!("validateToolInputs"));
        let mut batch = BatchWriter::new();
        let result = match &self.inner {
            Ok(h) => {
                api::handle_validate_inputs_each(h, &o.value(inputs), Some(&o.input), &mut |item| batch.outcome(item))
            }
            Err(e) => Err(e.clone()),
        };
        batch.finish(result)
    }
}

/// `validateToolInputs(tool, inputs, options)` for a plain-data tool.
#[wasm_bindgen(js_name = validateToolInputs)]
pub fn validate_tool_inputs(tool: JsValue, inputs: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("validateToolInputs"));
    let mut batch = BatchWriter::new();
    let result = api::validate_tool_inputs_each(&o.value(tool), &o.value(inputs), Some(&o.input), &mut |item| {
        batch.outcome(item)
    });
    batch.finish(result)
}

/// What `createRegistry` holds for the registry it returns: `checkToolCall`, the
/// projections and `catalog` given that very value read nothing of it again.
#[wasm_bindgen]
pub struct RegistryHandle {
    inner: Result<crate::tools::handle::RegistryHandle, ContractError>,
}

#[wasm_bindgen]
impl RegistryHandle {
    #[wasm_bindgen(constructor)]
    pub fn new(tools: JsValue, options: JsValue) -> RegistryHandle {
        let o = CallOptions::read(&options, options_of!("createRegistry"));
        RegistryHandle { inner: api::compile_registry(&o.value(tools), Some(&o.input)) }
    }

    /// The registry value or the error that prevented it.
    pub fn reply(&self) -> String {
        match &self.inner {
            Ok(h) => crate::wire::written_reply(|out| h.write_value(out)),
            Err(e) => reply(Err(e.clone())),
        }
    }

    #[wasm_bindgen(js_name = checkToolCall)]
    pub fn check_tool_call(&self, action: JsValue, policy: JsValue, options: JsValue) -> String {
        let o = CallOptions::read(&options, options_of!("checkToolCall"));
        let policy = program_data(policy);
        reply(match &self.inner {
            Ok(h) => api::registry_check_tool_call(h, &o.value(action), &policy, Some(&o.input)),
            Err(e) => Err(e.clone()),
        })
    }

    fn project(&self, provider: Option<api::Provider>) -> String {
        reply(match &self.inner {
            Ok(h) => api::registry_project(h, provider),
            Err(e) => Err(e.clone()),
        })
    }

    // The projections, named as their operations.
    pub fn catalog(&self) -> String {
        self.project(None)
    }

    #[wasm_bindgen(js_name = toOpenAITools)]
    pub fn to_openai_tools(&self) -> String {
        self.project(Some(api::Provider::OpenAi))
    }

    #[wasm_bindgen(js_name = toOpenAIResponsesTools)]
    pub fn to_openai_responses_tools(&self) -> String {
        self.project(Some(api::Provider::OpenAiResponses))
    }

    #[wasm_bindgen(js_name = toAnthropicTools)]
    pub fn to_anthropic_tools(&self) -> String {
        self.project(Some(api::Provider::Anthropic))
    }

    #[wasm_bindgen(js_name = toMcpTools)]
    pub fn to_mcp_tools(&self) -> String {
        self.project(Some(api::Provider::Mcp))
    }

    #[wasm_bindgen(js_name = toGeminiTools)]
    pub fn to_gemini_tools(&self) -> String {
        self.project(Some(api::Provider::Gemini))
    }
}
