//! A small incremental Server-Sent Events parser (WHATWG HTML "event stream interpretation"),
//! with no I/O: bytes in, in any chunking; whole events out.
//!
//! Rules: lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of
//! the next are one line end); a line starting with `:` is a comment; `field: value` (one space
//! after the colon is dropped, a line with no colon is a field with an empty value); `data`
//! lines are joined with `\n`; `event` sets the type (default `message`); `id` and `retry` are
//! read and ignored (no reconnection here); other fields are ignored; a blank line dispatches
//! the event if its data buffer is non-empty (WHATWG: an event with no `data` line is not
//! dispatched); a leading UTF-8 BOM is dropped; invalid UTF-8 is replaced with U+FFFD (the
//! standard's decoding). An event not closed by a blank line when the stream ends is dropped,
//! as the standard says. The parser never fails. Work is linear in the bytes received.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, or `message` when the event had none.
    pub event: String,
    pub data: String,
}

#[derive(Default)]
pub struct SseParser {
    /// Bytes of the current, unfinished line.
    line: Vec<u8>,
    /// The previous chunk ended with CR: an LF starting the next chunk is part of that line end.
    after_cr: bool,
    /// Still at the very start of the stream (a BOM may be dropped).
    at_start: bool,
    event: String,
    data: String,
    has_data: bool,
}

impl SseParser {
    pub fn new() -> SseParser {
        SseParser { at_start: true, ..SseParser::default() }
    }

    /// Feeds one chunk; returns the events it completed, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let mut bytes = chunk;
        if self.after_cr && !bytes.is_empty() {
            if bytes[0] == b'\n' {
                bytes = &bytes[1..];
            }
            self.after_cr = false;
        }
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'\n' || b == b'\r' {
                self.line.extend_from_slice(&bytes[start..i]);
                let line = std::mem::take(&mut self.line);
                self.line_done(&line, &mut out);
                i += 1;
                if b == b'\r' {
                    if i == bytes.len() {
                        self.after_cr = true;
                    } else if bytes[i] == b'\n' {
                        i += 1;
                    }
                }
                start = i;
            } else {
                i += 1;
            }
        }
        self.line.extend_from_slice(&bytes[start..]);
        out
    }

    fn line_done(&mut self, raw: &[u8], out: &mut Vec<SseEvent>) {
        let mut raw = raw;
        if self.at_start {
            self.at_start = false;
            if raw.starts_with(&[0xEF, 0xBB, 0xBF]) {
                raw = &raw[3..];
            }
        }
        if raw.is_empty() {
            if self.has_data {
                let event = if self.event.is_empty() { "message".to_owned() } else { std::mem::take(&mut self.event) };
                out.push(SseEvent { event, data: std::mem::take(&mut self.data) });
            }
            self.event.clear();
            self.data.clear();
            self.has_data = false;
            return;
        }
        let line = String::from_utf8_lossy(raw);
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.find(':') {
            Some(at) => {
                let value = &line[at + 1..];
                (&line[..at], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (&line[..], ""),
        };
        match field {
            "event" => self.event = value.to_owned(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            _ => {}
        }
    }
}

/// A whole SSE text at once.
pub fn parse_all(bytes: &[u8]) -> Vec<SseEvent> {
    SseParser::new().push(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(event: &str, data: &str) -> SseEvent {
        SseEvent { event: event.to_owned(), data: data.to_owned() }
    }

    #[test]
    fn fields_comments_and_multiline_data() {
        let text = "\u{feff}: hello\nevent: ping\ndata: a\ndata:b\ndata\n\nid: 3\nretry: 10\n\ndata: x\r\n\r\ndata: y\r\rdata: tail";
        assert_eq!(parse_all(text.as_bytes()), vec![ev("ping", "a\nb\n"), ev("message", "x"), ev("message", "y")]);
    }

    #[test]
    fn event_type_resets_and_empty_events_are_not_dispatched() {
        let text = "event: a\n\ndata: 1\n\n";
        assert_eq!(parse_all(text.as_bytes()), vec![ev("message", "1")]);
    }

    #[test]
    fn every_split_gives_the_same_events() {
        let text = "event: x\r\ndata: h\u{e9}llo \u{1f600}\r\n\r\n:c\rdata: 2\r\rdata: 3\n\n".as_bytes();
        let whole = parse_all(text);
        assert_eq!(whole.len(), 3);
        for a in 0..=text.len() {
            for b in a..=text.len() {
                let mut p = SseParser::new();
                let mut got = p.push(&text[..a]);
                got.extend(p.push(&text[a..b]));
                got.extend(p.push(&text[b..]));
                assert_eq!(got, whole, "split at {a}, {b}");
            }
        }
        // One byte at a time.
        let mut p = SseParser::new();
        let got: Vec<SseEvent> = text.iter().flat_map(|b| p.push(&[*b])).collect();
        assert_eq!(got, whole);
    }
}
