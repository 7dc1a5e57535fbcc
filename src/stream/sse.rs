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
//! as the standard says. Work is linear in the bytes received.
//!
//! Memory is bounded by `max_data`, the most data one event may carry (the stream's
//! `maxResponseBytes`: a payload over it could never be parsed). An event whose data grows past
//! it is `Overflow`, found as soon as its bytes arrive rather than after a blank line that may
//! never come; a line of any other field longer than that (a comment, `event`, `id`) is read
//! and dropped without being held, since no adapter reads those fields.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, or `message` when the event had none.
    pub event: String,
    pub data: String,
}

/// An event's data went past the parser's `max_data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// `field: ` after an optional BOM: what a line may hold beyond its data.
const LINE_SLACK: usize = 3 + "data: ".len();

#[derive(Default)]
pub struct SseParser {
    /// Bytes of the current, unfinished line (at most `max_data + LINE_SLACK`).
    line: Vec<u8>,
    /// The current line is over the bound and is not a `data` line: its bytes are dropped.
    discarding: bool,
    max_data: usize,
    /// The previous chunk ended with CR: an LF starting the next chunk is part of that line end.
    after_cr: bool,
    /// Still at the very start of the stream (a BOM may be dropped).
    at_start: bool,
    event: String,
    data: String,
    has_data: bool,
}

impl SseParser {
    pub fn new(max_data: usize) -> SseParser {
        SseParser { at_start: true, max_data, ..SseParser::default() }
    }

    /// Feeds one chunk; returns the events it completed, in order, and `Overflow` when an
    /// event's data went past `max_data` after those (the parser is then spent).
    pub fn push(&mut self, chunk: &[u8]) -> (Vec<SseEvent>, Option<Overflow>) {
        let mut out = Vec::new();
        let overflow = self.push_into(chunk, &mut out).err();
        (out, overflow)
    }

    fn push_into(&mut self, chunk: &[u8], out: &mut Vec<SseEvent>) -> Result<(), Overflow> {
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
                self.append(&bytes[start..i])?;
                let line = std::mem::take(&mut self.line);
                if std::mem::take(&mut self.discarding) {
                    self.at_start = false; // a dropped line is never blank: no dispatch
                } else {
                    self.line_done(&line, out)?;
                }
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
        self.append(&bytes[start..])
    }

    /// Adds bytes to the current line, within the bound.
    fn append(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        if self.discarding {
            return Ok(());
        }
        let room = self.max_data.saturating_add(LINE_SLACK) - self.line.len();
        if bytes.len() <= room {
            self.line.extend_from_slice(bytes);
            return Ok(());
        }
        self.line.extend_from_slice(&bytes[..room]);
        let mut line = &self.line[..];
        if self.at_start && line.starts_with(&[0xEF, 0xBB, 0xBF]) {
            line = &line[3..];
        }
        // Over the bound, a line holds more than LINE_SLACK bytes: enough to see its field.
        if line.starts_with(b"data:") {
            return Err(Overflow);
        }
        self.line.clear();
        self.discarding = true;
        Ok(())
    }

    fn line_done(&mut self, raw: &[u8], out: &mut Vec<SseEvent>) -> Result<(), Overflow> {
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
            return Ok(());
        }
        let line = String::from_utf8_lossy(raw);
        if line.starts_with(':') {
            return Ok(());
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
                if self.data.len() + usize::from(self.has_data) + value.len() > self.max_data {
                    return Err(Overflow);
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            _ => {}
        }
        Ok(())
    }
}

/// A whole SSE text at once, without a bound (tests).
#[cfg(test)]
pub fn parse_all(bytes: &[u8]) -> Vec<SseEvent> {
    SseParser::new(usize::MAX - LINE_SLACK).push(bytes).0
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
                let mut p = SseParser::new(64);
                let mut got = p.push(&text[..a]).0;
                got.extend(p.push(&text[a..b]).0);
                got.extend(p.push(&text[b..]).0);
                assert_eq!(got, whole, "split at {a}, {b}");
            }
        }
        // One byte at a time.
        let mut p = SseParser::new(64);
        let got: Vec<SseEvent> = text.iter().flat_map(|b| p.push(&[*b]).0).collect();
        assert_eq!(got, whole);
    }

    #[test]
    fn an_event_over_max_data_overflows_in_any_chunking_and_other_long_lines_are_dropped() {
        let ok = "data: 12345\ndata: 67\n\n"; // 8 bytes of data: "12345\n67"
        let over = "data: 12345\ndata: 678\n\n";
        let long_other = format!(": {}\nevent: {}\ndata: 1\n\n", "c".repeat(1000), "e".repeat(1000));
        for (text, want) in [(ok, Ok(1)), (over, Err(Overflow)), (long_other.as_str(), Ok(1))] {
            for cut in 0..=text.len() {
                let mut p = SseParser::new(8);
                let (mut events, mut overflow) = p.push(&text.as_bytes()[..cut]);
                if overflow.is_none() {
                    let (more, o) = p.push(&text.as_bytes()[cut..]);
                    events.extend(more);
                    overflow = o;
                }
                let got = match overflow {
                    Some(o) => Err(o),
                    None => Ok(events.len()),
                };
                assert_eq!(got, want, "{text:?} cut at {cut}");
                assert!(p.line.len() <= 8 + LINE_SLACK);
            }
        }
        // A data line with no end is refused once it passes the bound, not held.
        let mut p = SseParser::new(8);
        assert_eq!(p.push(b"data: 123456789").1, None); // within the line bound: held
        assert_eq!(p.push(b"012").1, Some(Overflow));
    }
}
