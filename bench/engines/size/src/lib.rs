//! `validate(schema, instance)` over linear memory, with the engine chosen by feature.
use std::slice;

#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len);
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// 1 valid, 0 invalid, 2 an error.
#[no_mangle]
pub extern "C" fn validate(schema: *const u8, schema_len: usize, input: *const u8, input_len: usize) -> u32 {
    let (s, i) = unsafe { (slice::from_raw_parts(schema, schema_len), slice::from_raw_parts(input, input_len)) };
    let (Ok(schema), Ok(input)) = (serde_json::from_slice::<serde_json::Value>(s), serde_json::from_slice::<serde_json::Value>(i)) else {
        return 2;
    };
    run(&schema, &input)
}

#[cfg(feature = "boon")]
fn run(schema: &serde_json::Value, input: &serde_json::Value) -> u32 {
    let mut c = boon::Compiler::new();
    if c.add_resource("urn:s", schema.clone()).is_err() {
        return 2;
    }
    let mut schemas = boon::Schemas::new();
    match c.compile("urn:s", &mut schemas) {
        Ok(i) => schemas.validate(input, i).is_ok() as u32,
        Err(_) => 2,
    }
}

#[cfg(feature = "jsonschema")]
fn run(schema: &serde_json::Value, input: &serde_json::Value) -> u32 {
    match jsonschema::options().with_pattern_options(jsonschema::PatternOptions::regex()).build(schema) {
        Ok(v) => v.is_valid(input) as u32,
        Err(_) => 2,
    }
}

#[cfg(not(any(feature = "boon", feature = "jsonschema")))]
fn run(schema: &serde_json::Value, input: &serde_json::Value) -> u32 {
    (schema.is_object() && !input.is_null()) as u32
}

#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(dest: *mut u8, len: usize) -> Result<(), getrandom::Error> {
    for k in 0..len {
        *dest.add(k) = (k as u8).wrapping_mul(31).wrapping_add(7);
    }
    Ok(())
}
