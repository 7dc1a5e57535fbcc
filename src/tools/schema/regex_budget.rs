//! What a schema's regular expressions may cost, measured before the engine compiles them.
//!
//! The engine builds an automaton for every `pattern` and `patternProperties` name; the regex
//! crate bounds each one (its NFA size limit), not their sum, and not the syntax tree it builds
//! first. Measured natively before this budget: 2,000 copies of `{"pattern": "\\p{L}{3}"}`
//! (100 KB of schema) took 1.9 s and 330 MB to compile; one pattern of 100,000 `\p{L}` (600 KB)
//! took 1.1 s and 590 MB, the syntax tree alone holding every copy of the class's ranges.
//!
//! So each pattern is first measured by its text: at most `MAX_PATTERN_BYTES` once the
//! engine's ECMA-262 rewrite has spelled out its classes (`\d` as `[0-9]`, ...), bounding the
//! syntax trees any one pattern makes the engine build. Then each definition gets one budget
//! of bytes, spent pattern by pattern, after the rewrite (`boon::ecma_regex`):
//! 1. the syntax tree, estimated from the pattern's parse before it is built: its length plus
//!    the ranges of each Unicode class it names (each class's size looked up once);
//! 2. the Thompson NFA, built the way the engine's regex crate builds it, charged by its states
//!    and transitions (a count, so every host, 32- or 64-bit, refuses the same pattern), with a
//!    size limit a few times what is left, so that a counted repetition stops near the budget,
//!    not after it.
//!
//! The work and memory of compiling a definition's patterns are thus bounded by the budget,
//! whatever their number or shape. A pattern that is not a valid regular expression costs
//! nothing here: the engine reports it.
//!
//! A call that compiles many definitions (a registry, a batch of dataset rows) shares one
//! budget among them (`PatternScope`), in proportion to their schemas' text: with a budget each,
//! 100 tools of 200 bytes, each with a distinct `^\p{L}{150}…$`, took `createRegistry` 21 s
//! and 700 MB in Node. In the scope the engine compiles each pattern text once, and the call
//! pays for it once.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use regex_automata::nfa::thompson::{Compiler, Config, State, NFA};
use regex_syntax::ast::{self, Ast, ClassSetItem};
use regex_syntax::hir::{Class, HirKind};

/// Bytes one definition's patterns may take together (its schema and its resources): syntax
/// trees and automata. Tool schemas in the wild use a few short patterns, kilobytes each.
pub const REGEX_BUDGET_BYTES: usize = 4 << 20;
/// Bytes of one pattern once its escapes are spelled out. A syntax tree takes ~100 bytes per
/// byte of pattern while it is built, so this also bounds the memory one pattern needs.
pub const MAX_PATTERN_BYTES: usize = 64 << 10;

/// What one class escape (two bytes) can become in the rewrite, at most: `\S` is
/// `[^ \t\n\r\u{b}\u{c}\u{a0}\u{feff}\u{2003}\u{2029}]`, 20 bytes of UTF-8. The rewritten text is
/// measured again, so this only has to be right for the bound checked before rewriting.
const SPELLED_OUT_ESCAPE_BYTES: usize = 20;
/// Bytes every pattern is charged, however small: the engine's fixed cost of one regex (its
/// automata, prefilter and caches) is most of a short pattern's.
const BYTES_PER_PATTERN: usize = 1 << 10;
/// Bytes a syntax tree is charged per byte of pattern, and per range of a Unicode class.
const TREE_BYTES_PER_PATTERN_BYTE: usize = 16;
const TREE_BYTES_PER_RANGE: usize = 8;
/// Bytes an NFA is charged per state and per transition: about what they take on a 64-bit host.
const NFA_BYTES_PER_EDGE: usize = 16;
/// The NFA compiler's own size limit, a multiple of the budget left: above any NFA whose count
/// fits (one edge takes well under this many bytes on any host), so it only stops sooner a
/// pattern the count refuses anyway.
const NFA_SIZE_LIMIT_FACTOR: usize = 8;

/// What the definitions compiled in one call may spend together: this much, or this many bytes
/// per byte of their schemas' canonical text when that is more. About 50 ms per MiB in wasm
/// (measured: a registry of tools with `^\p{L}{150}…$`, and of tools with distinct
/// `^[a-z0-9_-]{1,64}N$`, alike), so a call spends at most ~0.6 s, or ~0.8 s per MB of schemas,
/// on its patterns.
pub const CALL_BUDGET_BYTES: usize = 12 << 20;
pub const CALL_BYTES_PER_SCHEMA_BYTE: usize = 16;

/// Why a pattern was refused.
pub enum Refused {
    TooLong,
    /// Past the definition's budget, or (with the call's) past what the call has left.
    OverBudget,
}

pub struct RegexBudget {
    left: usize,
    /// Whether the definition is compiled in a call (`PatternScope`), where the engine compiles
    /// each pattern text once and the call is charged for it once.
    shared: bool,
    /// Each distinct pattern text of the definition, by hash, with what it was charged: `None`
    /// when the call had already paid for it.
    patterns: Vec<(u64, Option<usize>)>,
    seen: HashSet<u64>,
    /// Where `left` started: the definition's budget, or less when the call had less left.
    start: usize,
    /// The call's budget when it is what bounds this definition (for the message).
    call: Option<usize>,
    /// Ranges of each Unicode class named so far, by its text (`\p{L}`, `\PL`, `\w`).
    class_ranges: HashMap<String, usize>,
}

impl RegexBudget {
    pub fn new() -> Self {
        RegexBudget {
            left: REGEX_BUDGET_BYTES,
            shared: false,
            patterns: Vec::new(),
            seen: HashSet::new(),
            start: REGEX_BUDGET_BYTES,
            call: None,
            class_ranges: HashMap::new(),
        }
    }

    /// The definition's budget, or what `call` has left when that is less.
    pub fn within(call: Option<Admitted>) -> Self {
        match call {
            Some(Admitted { left, limit, .. }) if left < REGEX_BUDGET_BYTES => {
                RegexBudget { left, start: left, call: Some(limit), shared: true, ..Self::new() }
            }
            Some(_) => RegexBudget { shared: true, ..Self::new() },
            None => Self::new(),
        }
    }

    /// The definition's distinct patterns and what each was charged (see `charge_again`).
    pub fn into_patterns(self) -> Vec<(u64, Option<usize>)> {
        self.patterns
    }

    /// Bytes spent so far.
    pub fn spent(&self) -> usize {
        self.start - self.left
    }

    /// The call's budget, when it is what refused a pattern.
    pub fn call_limit(&self) -> Option<usize> {
        self.call
    }

    /// Whether `pattern`'s text passed the checks before: earlier in this definition, or in a
    /// definition of the call (which pays for a pattern only once it compiled).
    pub fn checked(&self, pattern: &str) -> bool {
        let hash = hash_of(pattern);
        self.seen.contains(&hash) || (self.shared && paid_by_call(hash))
    }

    /// Takes `pattern`'s syntax tree and automaton out of the budget; in a call, once per
    /// pattern text (the engine then compiles it once and the schemas share it).
    pub fn spend(&mut self, pattern: &str) -> Result<(), Refused> {
        let hash = hash_of(pattern);
        let first = self.seen.insert(hash);
        if self.shared {
            if !first {
                return Ok(());
            }
            if paid_by_call(hash) {
                self.patterns.push((hash, None));
                return Ok(());
            }
        }
        let before = self.left;
        self.measure(pattern)?;
        if first {
            self.patterns.push((hash, Some(before - self.left)));
        }
        Ok(())
    }

    fn measure(&mut self, pattern: &str) -> Result<(), Refused> {
        if over_length_bound(pattern) {
            return Err(Refused::TooLong);
        }
        let Ok(rewritten) = boon::ecma_regex(pattern) else { return Ok(()) };
        if rewritten.len() > MAX_PATTERN_BYTES {
            return Err(Refused::TooLong);
        }
        let Ok(parsed) = ast::parse::Parser::new().parse(&rewritten) else { return Ok(()) };
        let Ok(classes) = ast::visit(&parsed, UnicodeClasses { pattern: &rewritten, found: Vec::new() }) else {
            return Ok(());
        };
        let mut tree = BYTES_PER_PATTERN.saturating_add(rewritten.len().saturating_mul(TREE_BYTES_PER_PATTERN_BYTE));
        for class in classes {
            let ranges = *self.class_ranges.entry(class.to_owned()).or_insert_with(|| ranges_of(class));
            tree = tree.saturating_add(ranges.saturating_mul(TREE_BYTES_PER_RANGE));
        }
        if tree > self.left {
            return Err(Refused::OverBudget);
        }
        self.left -= tree;
        let limit = self.left.saturating_mul(NFA_SIZE_LIMIT_FACTOR);
        let nfa = Compiler::new().configure(Config::new().nfa_size_limit(Some(limit)).shrink(false)).build(&rewritten);
        match nfa {
            Ok(nfa) => {
                let cost = edges(&nfa).saturating_mul(NFA_BYTES_PER_EDGE);
                if cost > self.left {
                    return Err(Refused::OverBudget);
                }
                self.left -= cost;
                Ok(())
            }
            Err(e) if e.size_limit().is_some() => Err(Refused::OverBudget),
            Err(_) => Ok(()),
        }
    }
}

/// The budget the definitions of one call share, while a `PatternScope` is open.
struct CallBudget {
    /// Bytes of the schemas admitted so far (their canonical text, documents included).
    schema_bytes: usize,
    spent: usize,
    /// Schemas admitted, by a hash of their text: the same schema again in the call is the
    /// compiled-schema cache's (or compiles to the same automata), and is charged once.
    seen: HashSet<u64>,
    /// Pattern texts the call has paid for, by hash: the engine compiles each once per call.
    patterns: HashSet<u64>,
    /// Bytes of the schemas the call said it will compile (`plan`), each counted once.
    planned_bytes: usize,
    planned: HashSet<u64>,
}

impl CallBudget {
    /// The call's budget: by the schemas admitted so far, or all it planned when that is more.
    fn limit(&self) -> usize {
        CALL_BUDGET_BYTES.max(self.schema_bytes.max(self.planned_bytes).saturating_mul(CALL_BYTES_PER_SCHEMA_BYTE))
    }
}

/// Whether the open call has paid for the pattern text with this hash.
fn paid_by_call(hash: u64) -> bool {
    CALL.with(|c| c.borrow().as_ref().is_some_and(|call| call.patterns.contains(&hash)))
}

fn hash_of(key: &str) -> u64 {
    // SipHash with fixed keys: the same hash on every host and run.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

thread_local! {
    static CALL: RefCell<Option<CallBudget>> = const { RefCell::new(None) };
}

/// While alive, the definitions compiled on this thread share one budget; scopes opened inside
/// it join it. The budget depends only on the call's schemas, in their order, never on which
/// of them the cache holds, so every host refuses the same definition.
pub struct PatternScope {
    opened: bool,
}

impl PatternScope {
    pub fn open() -> Self {
        CALL.with(|c| {
            let mut c = c.borrow_mut();
            if c.is_some() {
                return PatternScope { opened: false };
            }
            *c = Some(CallBudget {
                schema_bytes: 0,
                spent: 0,
                seen: HashSet::new(),
                patterns: HashSet::new(),
                planned_bytes: 0,
                planned: HashSet::new(),
            });
            boon::share_regexes(true);
            PatternScope { opened: true }
        })
    }
}

impl Drop for PatternScope {
    fn drop(&mut self) {
        if self.opened {
            boon::share_regexes(false);
            CALL.with(|c| *c.borrow_mut() = None);
        }
    }
}

/// A schema charged to the open call: what the call had left before it, and its budget then.
#[derive(Clone, Copy)]
pub struct Admitted {
    pub left: usize,
    pub limit: usize,
    /// The schema's hash and bytes, to withdraw it (`withdraw`).
    hash: u64,
    bytes: usize,
}

/// Admits a schema (its cache key) into the open call's budget: what the call has left, and its
/// budget now. None when no scope is open (the definition's budget alone) or when the call has
/// already charged this schema.
pub fn admit(key: &str) -> Option<Admitted> {
    CALL.with(|c| {
        let mut c = c.borrow_mut();
        let call = c.as_mut()?;
        let hash = hash_of(key);
        if !call.seen.insert(hash) {
            return None;
        }
        call.schema_bytes = call.schema_bytes.saturating_add(key.len());
        let limit = call.limit();
        Some(Admitted { left: limit.saturating_sub(call.spent), limit, hash, bytes: key.len() })
    })
}

/// Whether a `PatternScope` is open on this thread.
pub fn scope_open() -> bool {
    CALL.with(|c| c.borrow().is_some())
}

/// Counts a schema (its cache key) the open call will compile into its budget now, before it is
/// admitted: the budget of a call that plans every schema first is fixed from its start.
pub fn plan(key: &str) {
    CALL.with(|c| {
        if let Some(call) = c.borrow_mut().as_mut() {
            if call.planned.insert(hash_of(key)) {
                call.planned_bytes = call.planned_bytes.saturating_add(key.len());
            }
        }
    })
}

/// Takes back a schema that did not compile: met again in the call, it is admitted again (and
/// refused again while the call has no more room), not passed as one already charged.
pub fn withdraw(admitted: &Admitted) {
    CALL.with(|c| {
        if let Some(call) = c.borrow_mut().as_mut() {
            call.seen.remove(&admitted.hash);
            call.schema_bytes = call.schema_bytes.saturating_sub(admitted.bytes);
        }
    })
}

/// Takes a compiled schema's patterns out of the open call's budget: those it paid for when
/// compiled in this call.
pub fn charge(patterns: &[(u64, Option<usize>)]) {
    CALL.with(|c| {
        if let Some(call) = c.borrow_mut().as_mut() {
            for (hash, cost) in patterns {
                if let Some(cost) = cost {
                    if call.patterns.insert(*hash) {
                        call.spent = call.spent.saturating_add(*cost);
                    }
                }
            }
        }
    })
}

/// What a schema compiled before (in another call, or before the cache let it go) costs the
/// open call now: its patterns the call has not paid for. None when one of them was free where
/// it was compiled (its cost unknown): the schema is then compiled again in this call.
pub fn charge_again(patterns: &[(u64, Option<usize>)]) -> Option<usize> {
    CALL.with(|c| {
        let c = c.borrow();
        let Some(call) = c.as_ref() else { return Some(0) };
        let mut total = 0usize;
        for (hash, cost) in patterns {
            if !call.patterns.contains(hash) {
                total = total.saturating_add((*cost)?);
            }
        }
        Some(total)
    })
}

/// Marks the patterns of a schema found compiled as paid for by the open call, and charges it.
pub fn charge_found(patterns: &[(u64, Option<usize>)], bytes: usize) {
    CALL.with(|c| {
        if let Some(call) = c.borrow_mut().as_mut() {
            call.patterns.extend(patterns.iter().map(|(hash, _)| *hash));
            call.spent = call.spent.saturating_add(bytes);
        }
    })
}

/// States and transitions of an NFA: the same count on every host.
fn edges(nfa: &NFA) -> usize {
    nfa.states()
        .iter()
        .map(|state| match state {
            State::Sparse(sparse) => 1 + sparse.transitions.len(),
            State::Dense(_) => 1 + 256,
            State::Union { alternates } => 1 + alternates.len(),
            State::BinaryUnion { .. } => 3,
            _ => 2,
        })
        .fold(0usize, usize::saturating_add)
}

/// Whether `pattern` is refused as too long before it is parsed.
pub fn over_length_bound(pattern: &str) -> bool {
    spelled_out_bound(pattern) > MAX_PATTERN_BYTES
}

/// A bound on the pattern's length once the rewrite has spelled out its classes: every escape
/// the rewrite replaces (`\d`, `\D`, `\w`, `\W`, `\s`, `\S`) counted at the longest
/// replacement; escapes read as the parser reads them (a backslash takes the next character).
fn spelled_out_bound(pattern: &str) -> usize {
    let mut bound = pattern.len();
    let mut bytes = pattern.bytes();
    while let Some(b) = bytes.next() {
        if b == b'\\' && matches!(bytes.next(), Some(b'd' | b'D' | b'w' | b'W' | b's' | b'S')) {
            bound = bound.saturating_add(SPELLED_OUT_ESCAPE_BYTES);
        }
    }
    bound
}

/// The ranges of one class written alone, case-sensitive or not (whichever is more, since the
/// flags in force where it stands are not tracked).
fn ranges_of(class: &str) -> usize {
    let count = |text: &str| match regex_syntax::parse(text).map(|hir| hir.into_kind()) {
        Ok(HirKind::Class(Class::Unicode(c))) => c.ranges().len(),
        Ok(HirKind::Class(Class::Bytes(c))) => c.ranges().len(),
        _ => 0,
    };
    count(class).max(count(&format!("(?i){class}")))
}

/// The text of every Unicode class in a pattern (`\p{..}`, `\P{..}`, and `\d`, `\w`, `\s` where
/// the rewrite kept them), in or out of brackets.
struct UnicodeClasses<'a> {
    pattern: &'a str,
    found: Vec<&'a str>,
}

impl<'a> UnicodeClasses<'a> {
    fn push(&mut self, span: &ast::Span) {
        if let Some(text) = self.pattern.get(span.start.offset..span.end.offset) {
            self.found.push(text);
        }
    }
}

impl<'a> ast::Visitor for UnicodeClasses<'a> {
    type Output = Vec<&'a str>;
    type Err = ();

    fn finish(self) -> Result<Self::Output, ()> {
        Ok(self.found)
    }

    fn visit_pre(&mut self, ast: &Ast) -> Result<(), ()> {
        match ast {
            Ast::ClassUnicode(c) => self.push(&c.span),
            Ast::ClassPerl(c) => self.push(&c.span),
            _ => {}
        }
        Ok(())
    }

    fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), ()> {
        match item {
            ClassSetItem::Unicode(c) => self.push(&c.span),
            ClassSetItem::Perl(c) => self.push(&c.span),
            _ => {}
        }
        Ok(())
    }
}
