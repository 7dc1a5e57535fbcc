//! Canonical base64 (RFC 4648 §4, standard alphabet, `=` padding; canonical as §3.5 defines
//! it): every character in the alphabet, the length a multiple of four, padding present
//! exactly where the length needs it, and the pad bits of the last symbol zero. Nothing else:
//! no whitespace, no line breaks, no URL-safe alphabet. `AQ==` is canonical; `AQ` (padding
//! missing) and `AB==` (pad bits set: it decodes to the same byte as `AQ==`) are not.
//!
//! The decoder is the maintained `base64` crate's standard engine, whose configuration
//! (`decode_allow_trailing_bits: false`, `DecodePaddingMode::RequireCanonical`) is exactly this
//! rule; `tests/acp_properties.rs` checks it against the re-encoding oracle (a text is canonical
//! exactly when it decodes and encoding the bytes gives the text back).

use ::base64::engine::general_purpose::STANDARD;
use ::base64::{DecodeError, Engine as _};

/// Whether `text` is canonical base64 (the empty text is: it encodes zero bytes).
pub fn is_canonical(text: &[u8]) -> bool {
    decode(text).is_ok()
}

/// The bytes of canonical base64 text, or why it is not canonical (for messages).
pub fn decode(text: &[u8]) -> Result<Vec<u8>, String> {
    STANDARD.decode(text).map_err(|e| describe(&e))
}

/// Decoded length of canonical text of `len` characters, at most: 3 bytes per 4 characters.
pub fn max_decoded_len(len: usize) -> usize {
    len / 4 * 3
}

/// Characters of the canonical encoding of `bytes` bytes.
pub fn encoded_len(bytes: usize) -> usize {
    bytes.div_ceil(3).saturating_mul(4)
}

pub fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

fn describe(e: &DecodeError) -> String {
    match e {
        DecodeError::InvalidByte(at, b'=') => format!("padding '=' at offset {at} is not at the end"),
        DecodeError::InvalidByte(at, byte) => {
            format!("byte 0x{byte:02x} at offset {at} is outside the standard base64 alphabet")
        }
        DecodeError::InvalidLength(len) => {
            format!("{len} symbols cannot end canonical base64 (length not a multiple of 4 with padding)")
        }
        DecodeError::InvalidLastSymbol(at, _) => {
            format!("the symbol at offset {at} has non-zero pad bits (another text encodes these bytes)")
        }
        DecodeError::InvalidPadding => "padding is missing or not the length the data needs".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_examples() {
        assert!(is_canonical(b"AQ=="));
        assert!(!is_canonical(b"AB=="));
        assert!(!is_canonical(b"AQ"));
        assert!(is_canonical(b""));
        for bad in [
            "A===",
            "====",
            "AQ==AQ==",
            "AQ= =",
            " AQ==",
            "AQ==\n",
            "Zm9v\nYmFy",
            "-_8=",
            "Zm9vYg=",
            "Zg=="[..3].as_ref(),
        ] {
            assert!(!is_canonical(bad.as_bytes()), "{bad:?}");
        }
        assert_eq!(decode(b"Zm9vYmE=").unwrap(), b"fooba");
    }
}
