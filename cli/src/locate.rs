//! Where a JSON Pointer lands in a JSON text, as a 1-based line and column, so that a problem
//! the core reports by pointer can be printed as `file:line:column`. Presentation only: the text
//! was already accepted by the core's strict parser, so this scanner only has to walk valid JSON.

/// Line and column (1-based; the column counts characters) of the value `pointer` names, or of
/// the deepest value on its way that exists.
pub fn locate(text: &[u8], pointer: &str) -> (usize, usize) {
    let segments: Vec<String> = pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
    let mut scan = Scan { text, pos: 0 };
    scan.skip_ws();
    let mut at = scan.pos;
    for segment in &segments {
        match scan.enter(segment) {
            Some(pos) => at = pos,
            None => break,
        }
    }
    line_column(text, at)
}

fn line_column(text: &[u8], offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, column)
}

struct Scan<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Moves from the container at `pos` to its child `segment`; its offset, or `None`.
    fn enter(&mut self, segment: &str) -> Option<usize> {
        match self.peek()? {
            b'{' => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    if self.peek()? == b'}' {
                        return None;
                    }
                    let start = self.pos;
                    self.skip_string()?;
                    let name = std::str::from_utf8(&self.text[start..self.pos]).ok()?;
                    let name: String = agent_contract::json::parse(
                        name.as_bytes(),
                        agent_contract::json::Mode::Strict,
                        &Default::default(),
                    )
                    .ok()
                    .and_then(|v| match v {
                        agent_contract::Value::String(s) => Some(s),
                        _ => None,
                    })?;
                    self.skip_ws();
                    self.pos += 1; // ':'
                    self.skip_ws();
                    if name == segment {
                        return Some(self.pos);
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    if self.peek()? == b',' {
                        self.pos += 1;
                    }
                }
            }
            b'[' => {
                let index: usize = segment.parse().ok()?;
                self.pos += 1;
                for i in 0.. {
                    self.skip_ws();
                    if self.peek()? == b']' {
                        return None;
                    }
                    if i == index {
                        return Some(self.pos);
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    if self.peek()? == b',' {
                        self.pos += 1;
                    }
                }
                None
            }
            _ => None,
        }
    }

    fn skip_string(&mut self) -> Option<()> {
        self.pos += 1; // opening quote
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => self.pos += 1,
            }
        }
    }

    /// Skips one value, iteratively (depth is bounded only by the text).
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.skip_ws();
            match self.peek()? {
                b'"' => self.skip_string()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                b',' | b':' => {
                    self.pos += 1;
                    continue;
                }
                _ => {
                    while !matches!(self.peek(), None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                        self.pos += 1;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::locate;

    #[test]
    fn pointers_land_on_their_values() {
        let text = b"[\n  {\"name\": \"a\", \"x\": [1, {\"k\\u0041\": true}]},\n  {\"name\": \"B\"}\n]";
        assert_eq!(locate(text, ""), (1, 1));
        assert_eq!(locate(text, "/0"), (2, 3));
        assert_eq!(locate(text, "/1/name"), (3, 12));
        assert_eq!(locate(text, "/0/x/1/kA"), (2, 38));
        // A pointer past what exists stops at the deepest value found.
        assert_eq!(locate(text, "/1/missing"), (3, 3));
        assert_eq!(locate(text, "/7"), (1, 1));
    }
}
