//! `admitPrompt`: the pure first pass of an ACP `session/prompt` (seed 003).
//!
//! The request's params `{sessionId, prompt: ContentBlock[]}` are checked against ACP v1's
//! closed `ContentBlock` union in stages, each stage over every block before the next one starts
//! (so a cheap refusal anywhere in the prompt wins over decoding an image before it); within a
//! stage the lowest block index wins:
//!
//! 0. the request: an object, `sessionId` a non-blank string, `prompt` a list of at most
//!    `MAX_BLOCKS` blocks;
//! 1. each block: an object whose `type` is in the union (`CONTENT_TYPE_UNKNOWN`), advertised
//!    (`image` needs `capabilities.image`, `audio` `capabilities.audio`, `resource`
//!    `capabilities.embeddedContext`: `CAPABILITY_NOT_ADVERTISED`), with the fields its type
//!    requires as strings; the text of the prompt within `maxTextBytes`;
//! 2. each image: `mimeType` in the allowlist (`MEDIA_TYPE_NOT_ALLOWED`), at most `maxImages`;
//! 3. each payload (image and audio `data`, resource `blob`), in block order: non-empty, no
//!    longer than the canonical encoding of its limit, canonical base64
//!    (`BASE64_NOT_CANONICAL`), its bytes within `maxImageBytes` and `maxTotalImageBytes`
//!    (images) or `maxAttachmentBytes` (audio and blobs together);
//! 4. each image's bytes start with the signature of its declared type (`MEDIA_TYPE_MISMATCH`);
//! 5. the prompt is not empty: some image, audio or resource, or non-blank text (`PROMPT_EMPTY`).
//!
//! Only then are the payloads hashed and the plan built: still no I/O. The host writes the
//! bytes (content-addressed by `sha256`) after the whole prompt passed.

use sha2::{Digest, Sha256};

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{is_blank, kind_name};
use crate::input::limits::MAX_BYTES_CEILING;
use crate::input::{lone_surrogate, HostValue, Kind};
use crate::value::{pointer_child, Number, Value};

use super::{base64, sniff};

/// The image types admission accepts: those the seed allows and whose signature the core can
/// check. Options may narrow the list, never widen it.
pub const ALLOWED_IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

pub const DEFAULT_MAX_IMAGE_BYTES: usize = 20 * 1024 * 1024;
pub const DEFAULT_MAX_IMAGES: usize = 20;
pub const MAX_IMAGES_CEILING: usize = 1000;
pub const DEFAULT_MAX_TOTAL_IMAGE_BYTES: usize = 32 * 1024 * 1024;
pub const DEFAULT_MAX_ATTACHMENT_BYTES: usize = 32 * 1024 * 1024;
pub const DEFAULT_MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;
/// Most blocks in one prompt.
pub const MAX_BLOCKS: usize = 65_536;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdmissionOptions {
    /// Decoded bytes of one image.
    pub max_image_bytes: usize,
    pub max_images: usize,
    /// Decoded bytes of all images of the prompt.
    pub max_total_image_bytes: usize,
    /// Decoded bytes of all audio blocks and blob resources of the prompt.
    pub max_attachment_bytes: usize,
    /// UTF-8 bytes of the prompt's text (text blocks, rendered resource links, text resources)
    /// and the most bytes of any other string read (`sessionId`, `uri`, `name`, `mimeType`).
    pub max_text_bytes: usize,
    /// The accepted image types, a subset of `ALLOWED_IMAGE_TYPES`.
    pub mime_types: Vec<&'static str>,
}

impl Default for AdmissionOptions {
    fn default() -> Self {
        AdmissionOptions {
            max_image_bytes: DEFAULT_MAX_IMAGE_BYTES,
            max_images: DEFAULT_MAX_IMAGES,
            max_total_image_bytes: DEFAULT_MAX_TOTAL_IMAGE_BYTES,
            max_attachment_bytes: DEFAULT_MAX_ATTACHMENT_BYTES,
            max_text_bytes: DEFAULT_MAX_TEXT_BYTES,
            mime_types: ALLOWED_IMAGE_TYPES.to_vec(),
        }
    }
}

fn option_invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::OptionInvalid, path, message)
}

fn count<V: HostValue>(item: &V, path: &str, ceiling: usize) -> Result<usize> {
    if item.kind() == Kind::Number {
        let n = item.number();
        if n.fract() == 0.0 && n >= 1.0 && n <= ceiling as f64 {
            return Ok(n as usize);
        }
    }
    Err(option_invalid(path, format!("must be an integer from 1 to {ceiling}")))
}

impl AdmissionOptions {
    /// `{maxImageBytes?, maxImages?, maxTotalImageBytes?, maxAttachmentBytes?, maxTextBytes?,
    /// mimeTypes?}`; `undefined` members count as not given, unknown names are `OPTION_INVALID`.
    pub fn read<V: HostValue>(value: Option<&V>) -> Result<AdmissionOptions> {
        let mut o = AdmissionOptions::default();
        let Some(value) = value else { return Ok(o) };
        match value.kind() {
            Kind::Undefined | Kind::Null => return Ok(o),
            Kind::Object => {}
            _ => return Err(option_invalid("", "options must be an object")),
        }
        for (key, read) in value.members().map_err(|e| e.at(""))? {
            let path = pointer_child("", &key);
            let Some(item) = crate::input::member_value(value, &key, read).map_err(|f| f.at(&path))? else {
                continue;
            };
            if item.kind() == Kind::Undefined {
                continue;
            }
            match key.as_str() {
                "maxImageBytes" => o.max_image_bytes = count(&item, &path, MAX_BYTES_CEILING)?,
                "maxImages" => o.max_images = count(&item, &path, MAX_IMAGES_CEILING)?,
                "maxTotalImageBytes" => o.max_total_image_bytes = count(&item, &path, MAX_BYTES_CEILING)?,
                "maxAttachmentBytes" => o.max_attachment_bytes = count(&item, &path, MAX_BYTES_CEILING)?,
                "maxTextBytes" => o.max_text_bytes = count(&item, &path, MAX_BYTES_CEILING)?,
                "mimeTypes" => o.mime_types = mime_types(&item, &path)?,
                _ => return Err(option_invalid(&path, format!("unknown option {key:?}"))),
            }
        }
        Ok(o)
    }

    /// The most UTF-16 units (or bytes) any string admission reads may have and still pass its
    /// limit: a JS host lets only that many cross into wasm (a longer string fails its limit,
    /// the same way, on its beginning).
    pub fn string_cap(&self) -> usize {
        base64::encoded_len(self.max_image_bytes.max(self.max_attachment_bytes)).max(self.max_text_bytes).max(4096)
    }
}

fn mime_types<V: HostValue>(item: &V, path: &str) -> Result<Vec<&'static str>> {
    if item.kind() != Kind::Array {
        return Err(option_invalid(path, "mimeTypes must be a list of image types"));
    }
    let len = item.len().map_err(|f| f.at(path))?;
    if len > 64 {
        return Err(option_invalid(path, "mimeTypes lists at most 64 entries"));
    }
    let mut out = Vec::new();
    for i in 0..len {
        let p = format!("{path}/{i}");
        let v = item.index(i).map_err(|f| f.at(&p))?;
        let allowed = (v.kind() == Kind::String)
            .then(|| v.string())
            .and_then(|s| ALLOWED_IMAGE_TYPES.iter().copied().find(|t| *t == s));
        match allowed {
            Some(t) if !out.contains(&t) => out.push(t),
            Some(_) => {}
            None => {
                return Err(option_invalid(
                    &p,
                    format!("mimeTypes may only narrow the allowlist {}", ALLOWED_IMAGE_TYPES.join(", ")),
                ))
            }
        }
    }
    Ok(out)
}

/// The agent's `promptCapabilities` (what it advertised at `initialize`): `{image?, audio?,
/// embeddedContext?}`, each a boolean (absent, `null` or undefined: false). Other members
/// (`_meta`) are ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    pub image: bool,
    pub audio: bool,
    pub embedded_context: bool,
}

impl Capabilities {
    pub fn read<V: HostValue>(value: &V) -> Result<Capabilities> {
        let mut c = Capabilities::default();
        match value.kind() {
            Kind::Undefined | Kind::Null => return Ok(c),
            Kind::Object => {}
            _ => return Err(option_invalid("", "capabilities must be an object {image, audio, embeddedContext}")),
        }
        for (key, slot) in
            [("image", &mut c.image), ("audio", &mut c.audio), ("embeddedContext", &mut c.embedded_context)]
        {
            let path = pointer_child("", key);
            match value.get(key).map_err(|f| f.at(&path))? {
                None => {}
                Some(v) => match v.kind() {
                    Kind::Undefined | Kind::Null => {}
                    Kind::Bool => *slot = v.boolean(),
                    _ => return Err(option_invalid(&path, format!("capability {key} must be a boolean"))),
                },
            }
        }
        Ok(c)
    }
}

/// A decoded payload, in plan order: images, then audio, then blob resources.
pub struct Attachment {
    /// The block's index in `prompt`.
    pub index: usize,
    /// The JSON Pointer of its entry in the plan (`/images/0`), where a host puts the bytes.
    pub at: String,
    pub bytes: Vec<u8>,
    /// The canonical base64 text the bytes were decoded from (it is their only encoding).
    pub base64: String,
}

/// The admission plan: `value` is `{sessionId, text, images, audio, resources}` (see
/// docs/semantics.md), whose entries with a `sha256` correspond, in order, to `attachments`.
pub struct Plan {
    pub value: Value,
    pub attachments: Vec<Attachment>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockType {
    Text,
    Image,
    Audio,
    ResourceLink,
    Resource,
}

/// One block after stage 1.
struct Block {
    index: usize,
    kind: BlockType,
    /// text: the text; resource_link: its rendering; resource: the text resource's text.
    text: Option<String>,
    /// image / audio.
    mime_type: Option<String>,
    /// image / audio `data`, resource `blob`.
    payload: Option<String>,
    /// resource: uri and mimeType (`None` for absent or null).
    uri: Option<String>,
}

fn err(code: Code, path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(code, path, message).in_layer(Layer::Admission)
}

/// Reads strings for one request, each within its limit.
struct Strings {
    max: usize,
}

impl Strings {
    /// A required string field.
    fn required<V: HostValue>(&self, object: &V, key: &str, base: &str) -> Result<String> {
        let path = pointer_child(base, key);
        match self.optional(object, key, base, false)? {
            Some(s) => Ok(s),
            None => Err(err(Code::FieldMissing, &path, format!("missing required field {key}"))),
        }
    }

    /// An optional string field: `None` when absent (or, when `nullable`, null). A value
    /// holding undefined is `FIELD_UNDEFINED` for a required field, absent for an optional one.
    fn optional<V: HostValue>(&self, object: &V, key: &str, base: &str, nullable: bool) -> Result<Option<String>> {
        let path = pointer_child(base, key);
        let Some(v) = object.get(key).map_err(|f| f.at(&path))? else { return Ok(None) };
        match v.kind() {
            Kind::String => {
                let s = v.string();
                Ok(Some(s))
            }
            Kind::IllFormedString => Err(lone_surrogate(&path)),
            Kind::Undefined if nullable => Ok(None),
            Kind::Undefined => Err(err(Code::FieldUndefined, &path, format!("{key} is undefined"))),
            Kind::Null if nullable => Ok(None),
            other => Err(err(Code::FieldType, &path, format!("{key} must be a string, got {}", kind_name(&v, other)))),
        }
    }

    /// `INPUT_TOO_LARGE` for a string (other than a payload) over `maxTextBytes`.
    fn bounded(&self, s: String, path: &str) -> Result<String> {
        if s.len() > self.max {
            return Err(err(Code::InputTooLarge, path, format!("the string is over maxTextBytes ({})", self.max)));
        }
        Ok(s)
    }
}

fn block_type(s: &str) -> Option<BlockType> {
    Some(match s {
        "text" => BlockType::Text,
        "image" => BlockType::Image,
        "audio" => BlockType::Audio,
        "resource_link" => BlockType::ResourceLink,
        "resource" => BlockType::Resource,
        _ => return None,
    })
}

/// How a resource link reads in the prompt's text: `[@name](uri)`, the Markdown link editors
/// render an @-mention as.
pub fn render_link(name: &str, uri: &str) -> String {
    format!("[@{name}]({uri})")
}

pub fn admit_prompt<V: HostValue>(request: &V, capabilities: &V, options: Option<&V>) -> Result<Plan> {
    let options = AdmissionOptions::read(options)?;
    let caps = Capabilities::read(capabilities)?;
    let strings = Strings { max: options.max_text_bytes };

    // Stage 0: the request.
    if request.kind() != Kind::Object {
        return Err(err(
            Code::FieldType,
            "",
            format!("session/prompt params must be an object, got {}", kind_name(request, request.kind())),
        ));
    }
    let session_id = strings.bounded(strings.required(request, "sessionId", "")?, "/sessionId")?;
    if is_blank(&session_id) {
        return Err(err(Code::FieldEmpty, "/sessionId", "sessionId must not be empty or blank"));
    }
    let Some(prompt) = request.get("prompt").map_err(|f| f.at("/prompt"))? else {
        return Err(err(Code::FieldMissing, "/prompt", "missing required field prompt"));
    };
    match prompt.kind() {
        Kind::Array => {}
        Kind::Undefined => return Err(err(Code::FieldUndefined, "/prompt", "prompt is undefined")),
        other => {
            return Err(err(
                Code::FieldType,
                "/prompt",
                format!("prompt must be a list of content blocks, got {}", kind_name(&prompt, other)),
            ))
        }
    }
    let len = prompt.len().map_err(|f| f.at("/prompt"))?;
    if len > MAX_BLOCKS {
        return Err(err(Code::InputTooLarge, "/prompt", format!("a prompt has at most {MAX_BLOCKS} blocks")));
    }

    // Stage 1: every block's type, capability and fields; the text within its limit.
    let mut blocks = Vec::with_capacity(len);
    let mut text_bytes = 0usize;
    for index in 0..len {
        let base = format!("/prompt/{index}");
        let block = prompt.index(index).map_err(|f| f.at(&base))?;
        let b = read_block(&block, index, &base, &caps, &strings)?;
        if let Some(t) = &b.text {
            text_bytes = text_bytes.saturating_add(t.len());
            if text_bytes > options.max_text_bytes {
                let at = match b.kind {
                    BlockType::Text => format!("{base}/text"),
                    BlockType::Resource => format!("{base}/resource/text"),
                    _ => base.clone(),
                };
                return Err(err(
                    Code::InputTooLarge,
                    &at,
                    format!("the prompt's text is over maxTextBytes ({})", options.max_text_bytes),
                ));
            }
        }
        blocks.push(b);
    }

    // Stage 2: image types, image count.
    let mut images = 0usize;
    for b in blocks.iter().filter(|b| b.kind == BlockType::Image) {
        let mime = b.mime_type.as_deref().unwrap_or("");
        if !options.mime_types.contains(&mime) {
            return Err(err(
                Code::MediaTypeNotAllowed,
                &format!("/prompt/{}/mimeType", b.index),
                format!(
                    "image type {:?} is not allowed (allowed: {})",
                    truncate(mime),
                    if options.mime_types.is_empty() { "none".to_owned() } else { options.mime_types.join(", ") }
                ),
            ));
        }
        images += 1;
        if images > options.max_images {
            return Err(err(
                Code::InputTooLarge,
                &format!("/prompt/{}", b.index),
                format!("the prompt has more images than maxImages ({})", options.max_images),
            ));
        }
    }

    // Stage 3: payloads, in block order.
    let mut decoded: Vec<Option<Vec<u8>>> = Vec::with_capacity(blocks.len());
    let (mut image_total, mut other_total) = (0usize, 0usize);
    for b in &blocks {
        let Some(text) = &b.payload else {
            decoded.push(None);
            continue;
        };
        let path = match b.kind {
            BlockType::Resource => format!("/prompt/{}/resource/blob", b.index),
            _ => format!("/prompt/{}/data", b.index),
        };
        let image = b.kind == BlockType::Image;
        let (limit, limit_name) = if image {
            (options.max_image_bytes, "maxImageBytes")
        } else {
            (options.max_attachment_bytes, "maxAttachmentBytes")
        };
        if text.is_empty() {
            return Err(err(Code::FieldEmpty, &path, "the payload is empty"));
        }
        if text.len() > base64::encoded_len(limit) {
            return Err(err(
                Code::InputTooLarge,
                &path,
                format!("the payload is longer than {limit_name} ({limit}) allows"),
            ));
        }
        let bytes = base64::decode(text.as_bytes())
            .map_err(|why| err(Code::Base64NotCanonical, &path, format!("not canonical base64: {why}")))?;
        if bytes.len() > limit {
            return Err(err(
                Code::InputTooLarge,
                &path,
                format!("{} decoded bytes are over {limit_name} ({limit})", bytes.len()),
            ));
        }
        let (total, max, name) = if image {
            image_total += bytes.len();
            (image_total, options.max_total_image_bytes, "maxTotalImageBytes")
        } else {
            other_total += bytes.len();
            (other_total, options.max_attachment_bytes, "maxAttachmentBytes")
        };
        if total > max {
            return Err(err(Code::InputTooLarge, &path, format!("the prompt's payloads are over {name} ({max})")));
        }
        decoded.push(Some(bytes));
    }

    // Stage 4: image signatures.
    for (b, bytes) in blocks.iter().zip(&decoded) {
        if b.kind != BlockType::Image {
            continue;
        }
        let (declared, bytes) = (b.mime_type.as_deref().unwrap_or(""), bytes.as_deref().unwrap_or(&[]));
        let found = sniff::sniff(bytes);
        if found != Some(declared) {
            return Err(err(
                Code::MediaTypeMismatch,
                &format!("/prompt/{}/data", b.index),
                match found {
                    Some(t) => format!("declared {declared}, but the bytes are {t}"),
                    None => format!("declared {declared}, but the bytes do not start with its signature"),
                },
            ));
        }
    }

    // Stage 5: not empty.
    let has_content =
        blocks.iter().any(|b| matches!(b.kind, BlockType::Image | BlockType::Audio | BlockType::Resource));
    let text = merged_text(&blocks);
    if !has_content && is_blank(&text) {
        return Err(err(
            Code::PromptEmpty,
            "/prompt",
            "the prompt has no image, audio or resource and no non-blank text",
        ));
    }

    Ok(plan(session_id, text, blocks, decoded))
}

fn truncate(s: &str) -> &str {
    match s.char_indices().nth(64) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

fn read_block<V: HostValue>(
    block: &V,
    index: usize,
    base: &str,
    caps: &Capabilities,
    strings: &Strings,
) -> Result<Block> {
    if block.kind() != Kind::Object {
        return Err(err(
            Code::FieldType,
            base,
            format!("a content block must be an object, got {}", kind_name(block, block.kind())),
        ));
    }
    let type_path = format!("{base}/type");
    let name = strings.required(block, "type", base)?;
    let Some(kind) = block_type(&name) else {
        return Err(err(
            Code::ContentTypeUnknown,
            &type_path,
            format!(
                "content block type {:?} is not one of text, image, audio, resource_link, resource",
                truncate(&name)
            ),
        ));
    };
    let (advertised, capability) = match kind {
        BlockType::Image => (caps.image, "image"),
        BlockType::Audio => (caps.audio, "audio"),
        BlockType::Resource => (caps.embedded_context, "embeddedContext"),
        BlockType::Text | BlockType::ResourceLink => (true, ""),
    };
    if !advertised {
        return Err(err(
            Code::CapabilityNotAdvertised,
            &type_path,
            format!("a {name} block needs the {capability} prompt capability, which the agent did not advertise"),
        ));
    }
    let mut b = Block { index, kind, text: None, mime_type: None, payload: None, uri: None };
    match kind {
        BlockType::Text => b.text = Some(strings.required(block, "text", base)?),
        BlockType::Image | BlockType::Audio => {
            b.payload = Some(strings.required(block, "data", base)?);
            let mime = strings.required(block, "mimeType", base)?;
            b.mime_type = Some(strings.bounded(mime, &format!("{base}/mimeType"))?);
        }
        BlockType::ResourceLink => {
            let uri = strings.bounded(strings.required(block, "uri", base)?, &format!("{base}/uri"))?;
            let name = strings.bounded(strings.required(block, "name", base)?, &format!("{base}/name"))?;
            b.text = Some(render_link(&name, &uri));
        }
        BlockType::Resource => {
            let path = format!("{base}/resource");
            let Some(resource) = block.get("resource").map_err(|f| f.at(&path))? else {
                return Err(err(Code::FieldMissing, &path, "missing required field resource"));
            };
            if resource.kind() != Kind::Object {
                return Err(err(
                    Code::FieldType,
                    &path,
                    format!("resource must be an object, got {}", kind_name(&resource, resource.kind())),
                ));
            }
            b.uri = Some(strings.bounded(strings.required(&resource, "uri", &path)?, &format!("{path}/uri"))?);
            if let Some(m) = strings.optional(&resource, "mimeType", &path, true)? {
                b.mime_type = Some(strings.bounded(m, &format!("{path}/mimeType"))?);
            }
            match strings.optional(&resource, "text", &path, false)? {
                Some(t) => b.text = Some(t),
                None => match strings.optional(&resource, "blob", &path, false)? {
                    Some(blob) => b.payload = Some(blob),
                    None => {
                        return Err(err(
                            Code::FieldMissing,
                            &format!("{path}/text"),
                            "an embedded resource needs text or blob",
                        ))
                    }
                },
            }
        }
    }
    Ok(b)
}

/// The prompt's text: each run of consecutive text and resource-link blocks concatenated as
/// sent (a resource link as `render_link`), the runs (those not empty) joined by a blank line.
/// Embedded text resources are not part of it (they are `resources`).
fn merged_text(blocks: &[Block]) -> String {
    let mut runs: Vec<String> = Vec::new();
    let mut current = String::new();
    for b in blocks {
        match b.kind {
            BlockType::Text | BlockType::ResourceLink => current.push_str(b.text.as_deref().unwrap_or("")),
            _ => {
                if !current.is_empty() {
                    runs.push(std::mem::take(&mut current));
                }
            }
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs.join("\n\n")
}

fn num(n: usize) -> Value {
    Value::Number(Number::from_f64(n as f64))
}

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(char::from_digit((b >> 4) as u32, 16).unwrap_or('0'));
        out.push(char::from_digit((b & 15) as u32, 16).unwrap_or('0'));
    }
    out
}

fn plan(session_id: String, text: String, blocks: Vec<Block>, decoded: Vec<Option<Vec<u8>>>) -> Plan {
    let (mut images, mut audio, mut resources) = (Vec::new(), Vec::new(), Vec::new());
    let (mut image_att, mut audio_att, mut blob_att) = (Vec::new(), Vec::new(), Vec::new());
    for (b, bytes) in blocks.into_iter().zip(decoded) {
        let digest = |bytes: &[u8]| {
            vec![("byteLength".to_owned(), num(bytes.len())), ("sha256".to_owned(), s(&sha256_hex(bytes)))]
        };
        match (b.kind, bytes) {
            (BlockType::Image | BlockType::Audio, Some(bytes)) => {
                let mut entry = vec![
                    ("index".to_owned(), num(b.index)),
                    ("mimeType".to_owned(), s(b.mime_type.as_deref().unwrap_or(""))),
                ];
                entry.extend(digest(&bytes));
                let at = match b.kind {
                    BlockType::Image => format!("/images/{}", images.len()),
                    _ => format!("/audio/{}", audio.len()),
                };
                let att = Attachment { index: b.index, at, bytes, base64: b.payload.unwrap_or_default() };
                if b.kind == BlockType::Image {
                    images.push(Value::Object(entry));
                    image_att.push(att);
                } else {
                    audio.push(Value::Object(entry));
                    audio_att.push(att);
                }
            }
            (BlockType::Resource, bytes) => {
                let mut entry = vec![
                    ("index".to_owned(), num(b.index)),
                    ("uri".to_owned(), s(b.uri.as_deref().unwrap_or(""))),
                    ("mimeType".to_owned(), b.mime_type.as_deref().map_or(Value::Null, s)),
                ];
                match bytes {
                    Some(bytes) => {
                        entry.extend(digest(&bytes));
                        let at = format!("/resources/{}", resources.len());
                        blob_att.push(Attachment { index: b.index, at, bytes, base64: b.payload.unwrap_or_default() });
                    }
                    None => entry.push(("text".to_owned(), s(b.text.as_deref().unwrap_or("")))),
                }
                resources.push(Value::Object(entry));
            }
            _ => {}
        }
    }
    let value = Value::Object(vec![
        ("sessionId".to_owned(), Value::String(session_id)),
        ("text".to_owned(), Value::String(text)),
        ("images".to_owned(), Value::Array(images)),
        ("audio".to_owned(), Value::Array(audio)),
        ("resources".to_owned(), Value::Array(resources)),
    ]);
    let mut attachments = image_att;
    attachments.extend(audio_att);
    attachments.extend(blob_att);
    Plan { value, attachments }
}

/// `isCanonicalBase64(text)`: false for anything that is not a well-formed string.
pub fn is_canonical_base64<V: HostValue>(text: &V) -> bool {
    text.kind() == Kind::String && base64::is_canonical(text.string().as_bytes())
}
