//! The four provider adapters (and the assembler behind them) over raw SSE bytes. The stream
//! is fed whole and again in two pieces cut at a fuzzer-chosen byte: the response (or the
//! error) must not depend on the chunking.
#![no_main]

use agent_contract::stream::provider_stream::ProviderStream;
use agent_contract::value::Value;
use libfuzzer_sys::fuzz_target;

const PROVIDERS: [&str; 4] = ["openai-chat", "openai-responses", "anthropic", "gemini"];

fn run(provider: &str, pieces: &[&[u8]]) -> Result<Value, (agent_contract::Code, String)> {
    let mut s = ProviderStream::new::<&Value>(provider, None).expect("known provider");
    for p in pieces {
        s.push_sse(p).map_err(|e| (e.code, e.path.clone()))?;
    }
    let _ = s.preview();
    s.finish().map_err(|e| (e.code, e.path))
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    let provider = PROVIDERS[(op & 3) as usize];
    let whole = run(provider, &[text]);
    let cut = if text.is_empty() { 0 } else { (op as usize >> 2) * 7919 % text.len() };
    let pieces = run(provider, &[&text[..cut], &text[cut..]]);
    assert_eq!(whole, pieces, "chunking changed the outcome");
});
