//! Media types from leading bytes: the pattern/mask rows of WHATWG MIME Sniffing (§6.1 image,
//! §6.2 audio and video, §7.1 PDF; transcribed from the reference data
//! `conformance/mime-sniff/signatures.json`, whatwg/mimesniff @ 8a3b918). A row matches when
//! the input has at least as many bytes as the pattern and `input[i] & mask[i] == pattern[i]`
//! for every `i`; no leading bytes are skipped. The first matching row wins (the rows are
//! disjoint). Only the image rows decide admission (`admission::ALLOWED_IMAGE_TYPES`); the
//! others make `sniffMediaType` useful on its own and let a mismatch message name what the
//! bytes are.

pub struct Signature {
    pub mime: &'static str,
    pub pattern: &'static [u8],
    pub mask: &'static [u8],
}

const fn row(mime: &'static str, pattern: &'static [u8], mask: &'static [u8]) -> Signature {
    Signature { mime, pattern, mask }
}

const FF4: &[u8] = &[0xff; 4];

pub const SIGNATURES: &[Signature] = &[
    row("image/png", b"\x89PNG\r\n\x1a\n", &[0xff; 8]),
    row("image/jpeg", b"\xff\xd8\xff", &[0xff; 3]),
    row("image/gif", b"GIF87a", &[0xff; 6]),
    row("image/gif", b"GIF89a", &[0xff; 6]),
    row("image/webp", b"RIFF\0\0\0\0WEBPVP", b"\xff\xff\xff\xff\0\0\0\0\xff\xff\xff\xff\xff\xff"),
    row("image/bmp", b"BM", &[0xff; 2]),
    row("image/x-icon", b"\0\0\x01\0", FF4),
    row("audio/wave", b"RIFF\0\0\0\0WAVE", b"\xff\xff\xff\xff\0\0\0\0\xff\xff\xff\xff"),
    row("audio/mpeg", b"ID3", &[0xff; 3]),
    row("audio/ogg", b"OggS\0", &[0xff; 5]),
    row("audio/aiff", b"FORM\0\0\0\0AIFF", b"\xff\xff\xff\xff\0\0\0\0\xff\xff\xff\xff"),
    row("audio/midi", b"MThd\0\0\0\x06", &[0xff; 8]),
    row("application/pdf", b"%PDF-", &[0xff; 5]),
];

pub fn matches(sig: &Signature, bytes: &[u8]) -> bool {
    bytes.len() >= sig.pattern.len() && sig.pattern.iter().zip(sig.mask).zip(bytes).all(|((&p, &m), &b)| b & m == p)
}

/// The media type whose signature `bytes` start with, if any.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    SIGNATURES.iter().find(|s| matches(s, bytes)).map(|s| s.mime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0"), Some("image/png"));
        assert_eq!(sniff(b"\x89PNG\r\n\x1a"), None);
        assert_eq!(sniff(b"RIFF\x01\x02\x03\x04WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff(b"RIFF\x01\x02\x03\x04WAVEfmt "), Some("audio/wave"));
        assert_eq!(sniff(b""), None);
        for s in SIGNATURES {
            assert_eq!(s.pattern.len(), s.mask.len(), "{}", s.mime);
        }
    }
}
