use std::borrow::Cow;

use regex_syntax::ast::parse::Parser;
use regex_syntax::ast::{self, *};

// covert ecma regex to rust regex if possible
// see https://262.ecma-international.org/11.0/#sec-regexp-regular-expression-objects
pub(crate) fn convert(pattern: &str) -> Result<Cow<str>, Box<dyn std::error::Error>> {
    let (mut pattern, mut ast) = parse(pattern)?;

    loop {
        let translator = Translator {
            pat: pattern.as_ref(),
            out: Vec::new(),
        };
        if let Some(updated_pattern) = ast::visit(&ast, translator)? {
            match Parser::new().parse(&updated_pattern) {
                Ok(updated_ast) => {
                    pattern = Cow::Owned(updated_pattern);
                    ast = updated_ast;
                }
                Err(_) => {
                    // PATCH(agent-contract): the translation made a pattern the parser refuses
                    // (e.g. past its nesting limit); the pattern before it stands, as release
                    // builds always did, instead of a debug-build panic (PATCHES.md, 3).
                    break;
                }
            }
        } else {
            break;
        }
    }
    Ok(pattern)
}

// PATCH(agent-contract): the parse `convert` starts with (`\c{control_letter}` rewritten as the
// parser asks), shared with `check`.
fn parse(pattern: &str) -> Result<(Cow<str>, Ast), Box<dyn std::error::Error>> {
    let mut pattern = ecma_literals(pattern);
    loop {
        match Parser::new().parse(pattern.as_ref()) {
            Ok(ast) => return Ok((pattern, ast)),
            Err(e) => {
                if let Some(s) = fix_error(&e) {
                    pattern = Cow::Owned(s);
                } else {
                    Err(e)?;
                }
            }
        }
    }
}

// PATCH(agent-contract): whether `convert` succeeds, without its rewrite: the parse and the
// translator's refusals (`\a`). Rewriting `\d`, `\w`, `\s` into bracketed classes and parsing
// the result again cannot fail where the first parse passed (a rewrite the parser refuses is
// kept as it was), so only those decide; the rewrite made `\s` a class of ten characters, which
// took a 300 KB pattern of them 0.8 s to parse again (PATCHES.md, 12).
pub(crate) fn check(pattern: &str) -> Result<(), Box<dyn std::error::Error>> {
    let (pattern, ast) = parse(pattern)?;
    let translator = Translator {
        pat: pattern.as_ref(),
        out: Vec::new(),
    };
    ast::visit(&ast, translator)?;
    Ok(())
}

// PATCH(agent-contract): what ECMA-262 reads otherwise than the regex crate's parser, written
// as the parser reads ECMA-262's meaning before it parses (PATCHES.md, 17). Inside a class: `[`
// (the parser reads `[[:alpha:]]` as a POSIX class, ECMA-262 the class `[[:alph]` then `]`),
// `&&`, `~~` and `--` (set operations there) are literal, and `\b` is a backspace. `[]` matches
// nothing and `[^]` any character (the parser read a `]` first as a literal). Outside: `.` is
// any character but a line terminator (LF, CR, U+2028, U+2029; the parser's excludes LF only),
// `\b` and `\B` are ASCII word boundaries (ECMA-262's `\w` is ASCII; the parser's are
// Unicode's). Anywhere: `\0` not before a digit is NUL (the parser reads a backreference), and a
// surrogate pair of `\u` escapes is its code point (the parser refuses surrogates).
pub(crate) fn ecma_literals(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains(['[', '.', '\\']) {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let chars: Vec<char> = pattern.chars().collect();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                let Some(&next) = chars.get(i) else {
                    out.push('\\');
                    continue;
                };
                i += 1;
                match next {
                    'b' if in_class => out.push_str("\\x08"),
                    'b' | 'B' => {
                        out.push_str("(?-u:\\");
                        out.push(next);
                        out.push(')');
                    }
                    '0' if !chars.get(i).is_some_and(char::is_ascii_digit) => out.push_str("\\x00"),
                    'u' => match surrogate_pair(&chars[i..]) {
                        Some(code_point) => {
                            out.push_str(&format!("\\x{{{code_point:X}}}"));
                            i += 10;
                        }
                        None => out.push_str("\\u"),
                    },
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if in_class => out.push_str("\\["),
            '[' if chars.get(i) == Some(&']') => {
                out.push_str("[^\\x00-\\x{10FFFF}]");
                i += 1;
            }
            '[' if chars.get(i) == Some(&'^') && chars.get(i + 1) == Some(&']') => {
                out.push_str("[\\x00-\\x{10FFFF}]");
                i += 2;
            }
            '[' => {
                in_class = true;
                out.push('[');
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '&' | '~' | '-' if in_class && chars.get(i) == Some(&c) => {
                out.push('\\');
                out.push(c);
            }
            '.' if !in_class => out.push_str("[^\\n\\r\\x{2028}\\x{2029}]"),
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

// PATCH(agent-contract): after a `\u`, `XXXX\uYYYY` of a high then a low surrogate: their code
// point (PATCHES.md, 17).
fn surrogate_pair(rest: &[char]) -> Option<u32> {
    let hex = |s: &[char]| -> Option<u32> {
        (s.len() == 4 && s.iter().all(char::is_ascii_hexdigit)).then(|| u32::from_str_radix(&s.iter().collect::<String>(), 16).ok())?
    };
    let high = hex(rest.get(..4)?)?;
    if !(0xD800..0xDC00).contains(&high) || rest.get(4..6)? != ['\\', 'u'] {
        return None;
    }
    let low = hex(rest.get(6..10)?)?;
    (0xDC00..0xE000).contains(&low).then(|| 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
}

fn fix_error(e: &Error) -> Option<String> {
    if let ErrorKind::EscapeUnrecognized = e.kind() {
        let (start, end) = (e.span().start.offset, e.span().end.offset);
        let s = &e.pattern()[start..end];
        if let r"\c" = s {
            // handle \c{control_letter}
            if let Some(control_letter) = e.pattern()[end..].chars().next() {
                if control_letter.is_ascii_alphabetic() {
                    // PATCH(agent-contract): every later `\c{control_letter}` is rewritten in the
                    // same pass, so a pattern with many of them is parsed a few times, not once
                    // per escape (PATCHES.md, 4).
                    return Some(format!("{}{}", &e.pattern()[..start], control_letters(&e.pattern()[start..])));
                }
            }
        }
    }
    None
}

// PATCH(agent-contract): `pattern` with each escape `\c{control_letter}` as the control character,
// reading escapes as the parser does (a backslash takes the character after it).
fn control_letters(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('c') if chars.peek().is_some_and(char::is_ascii_alphabetic) => {
                let letter = chars.next().unwrap_or('@');
                out.push(((letter as u8) % 32) as char);
            }
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

/**
handles following translations:
-  \d should ascii digits only. so replace with [0-9]
-  \D should match everything but ascii digits. so replace with [^0-9]
-  \w should match ascii letters only. so replace with [a-zA-Z0-9_]
-  \W should match everything but ascii letters. so replace with [^a-zA-Z0-9_]
-  \s and \S differences
-  \a is not an ECMA 262 control escape
*/
struct Translator<'a> {
    pat: &'a str,
    // PATCH(agent-contract): every replacement of one walk (start, end, with), applied at once in
    // `finish`; upstream kept one and parsed the pattern again per replacement, quadratic in
    // the number of `\d`, `\w`, `\s` (PATCHES.md, 4).
    out: Vec<(usize, usize, &'static str)>,
}

impl Translator<'_> {
    fn replace(&mut self, span: &Span, with: &'static str) {
        self.out.push((span.start.offset, span.end.offset, with));
    }

    fn replace_class_class(&mut self, perl: &ClassPerl) {
        match perl.kind {
            ClassPerlKind::Digit => {
                self.replace(&perl.span, if perl.negated { "[^0-9]" } else { "[0-9]" });
            }
            ClassPerlKind::Word => {
                let with = if perl.negated {
                    "[^A-Za-z0-9_]"
                } else {
                    "[A-Za-z0-9_]"
                };
                self.replace(&perl.span, with);
            }
            ClassPerlKind::Space => {
                // PATCH(agent-contract): ECMA-262's WhiteSpace and LineTerminator, all of them
                // (upstream had U+2003 of U+2000-U+200A, and not U+1680, U+2028, U+202F,
                // U+205F, U+3000; PATCHES.md, 17).
                let with = if perl.negated {
                    "[^ \t\n\r\u{000b}\u{000c}\u{00a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}]"
                } else {
                    "[ \t\n\r\u{000b}\u{000c}\u{00a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}]"
                };
                self.replace(&perl.span, with);
            }
        }
    }
}

impl Visitor for Translator<'_> {
    type Output = Option<String>;
    type Err = &'static str;

    fn finish(mut self) -> Result<Self::Output, Self::Err> {
        if self.out.is_empty() {
            return Ok(None);
        }
        self.out.sort_unstable_by_key(|&(start, _, _)| start);
        let mut updated = String::with_capacity(self.pat.len() + 16 * self.out.len());
        let mut at = 0;
        for (start, end, with) in self.out {
            updated.push_str(&self.pat[at..start]);
            updated.push_str(with);
            at = end;
        }
        updated.push_str(&self.pat[at..]);
        Ok(Some(updated))
    }

    fn visit_class_set_item_pre(&mut self, ast: &ast::ClassSetItem) -> Result<(), Self::Err> {
        if let ClassSetItem::Perl(perl) = ast {
            self.replace_class_class(perl);
        }
        Ok(())
    }

    fn visit_post(&mut self, ast: &Ast) -> Result<(), Self::Err> {
        match ast {
            Ast::ClassPerl(perl) => {
                self.replace_class_class(perl);
            }
            Ast::Literal(ref literal) => {
                if let Literal {
                    kind: LiteralKind::Special(SpecialLiteralKind::Bell),
                    ..
                } = literal.as_ref()
                {
                    return Err("\\a is not an ECMA 262 control escape");
                }
            }
            _ => (),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_ecma_compat_valid() {
        // println!("{:#?}", Parser::new().parse(r#"a\a"#));
        let tests = [
            (r"ab\cAcde\cBfg", "ab\u{1}cde\u{2}fg"), // \c{control_letter}
            (r"\\comment", r"\\comment"),            // there is no \c
            (r"ab\def", r#"ab[0-9]ef"#),             // \d
            (r"ab[a-z\d]ef", r#"ab[a-z[0-9]]ef"#),   // \d inside classSet
            (r"ab\Def", r#"ab[^0-9]ef"#),            // \d
            (r"ab[a-z\D]ef", r#"ab[a-z[^0-9]]ef"#),  // \D inside classSet
        ];
        for (input, want) in tests {
            match convert(input) {
                Ok(got) => {
                    if got.as_ref() != want {
                        panic!("convert({input:?}): got: {got:?}, want: {want:?}");
                    }
                }
                Err(e) => {
                    panic!("convert({input:?}) failed: {e}");
                }
            }
        }
    }

    // PATCH(agent-contract): many rewrites in one pattern, made in one pass (PATCHES.md, 4).
    #[test]
    fn test_ecma_compat_many_rewrites() {
        let input = r"\d\w\s[a\D]\\c\cAx\cb".repeat(3);
        let want = "[0-9][A-Za-z0-9_][ \t\n\r\u{000b}\u{000c}\u{00a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}][a[^0-9]]\\\\c\u{1}x\u{2}".repeat(3);
        assert_eq!(convert(&input).unwrap(), want);
        // 20,000 rewrites of each kind: linear, where one parse per rewrite took seconds.
        let many = r"\d\cA".repeat(20_000);
        let started = std::time::Instant::now();
        assert_eq!(convert(&many).unwrap(), "[0-9]\u{1}".repeat(20_000));
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    }

    #[test]
    fn test_ecma_compat_invalid() {
        // println!("{:#?}", Parser::new().parse(r#"a\a"#));
        let tests = [
            r"\c\n",     // \c{invalid_char}
            r"abc\adef", // \a is not valid
        ];
        for input in tests {
            if convert(input).is_ok() {
                panic!("convert({input:?}) mut fail");
            }
        }
    }

    // PATCH(agent-contract): `check` answers as `convert` does, without its rewrite (PATCHES.md, 12).
    #[test]
    fn test_check_answers_as_convert() {
        let nested = |inner: &str| format!("{}{inner}{}", "[".repeat(249), "]".repeat(249));
        let tests = [
            r"\d\w\s\D\W\S".to_owned(),
            r"[\s-x]".to_owned(),
            r"[x-\s]".to_owned(),
            r"[\d-\w]".to_owned(),
            r"[^\S\W]+".to_owned(),
            r"\cA\cz\c1".to_owned(),
            r"a".to_owned(),
            r"\s".to_owned(),
            r"(\s".to_owned(),
            r"[\s".to_owned(),
            r"\p{L}\s\P{Lu}".to_owned(),
            r"\p{Nope}\s".to_owned(),
            r"x{2,1}\s".to_owned(),
            nested(r"\s"),
            nested(r"\d\w"),
            nested("a"),
            format!("{}{}", "(".repeat(260), ")".repeat(260)),
        ];
        for pattern in &tests {
            assert_eq!(check(pattern).is_ok(), convert(pattern).is_ok(), "{pattern:?}");
        }
        // 300 KB of `\s`: parsed once (the rewrite took 0.8 s in Node).
        let many = r"\s".repeat(150_000);
        let started = std::time::Instant::now();
        assert!(check(&many).is_ok());
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    }
}
