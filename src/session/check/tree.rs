//! The entry tree of a session file and the queries over a session read whole (`readSession`,
//! `branch`, `children`, `context`). The line check (`super`) builds the tree as it places each
//! entry and asks it the ancestry questions its rules need: whether a compaction's target is on
//! its branch, which call a tool result answers. Ancestry is answered with jump pointers (each
//! node keeps its parent and one jump; an ancestor query is O(log depth)), so tool results and
//! compactions stay cheap on long branches.

use std::collections::BTreeMap;

use super::Checker;
use crate::error::{Code, ContractError, Result};
use crate::input::options::Options;
use crate::input::{HostValue, Kind};
use crate::session::entry::EntryKind;
use crate::session::field::{object, string};
use crate::value::Value;

/// The tree of entries read so far: nodes in file order.
#[derive(Default)]
pub(super) struct Tree {
    pub(super) ids: Vec<String>,
    parent: Vec<Option<u32>>,
    pub(super) depth: Vec<u32>,
    jump: Vec<u32>,
    has_child: Vec<bool>,
    pub(super) by_id: BTreeMap<String, u32>,
    /// The checked entry of each node (`readSession` only; `Null` for lines with a problem).
    pub(super) values: Vec<Value>,
    pub(super) kinds: Vec<Option<EntryKind>>,
}

impl Tree {
    pub(super) fn push(&mut self, id: String, parent: Option<u32>) -> u32 {
        let node = self.ids.len() as u32;
        let (depth, jump) = match parent {
            None => (0, node),
            Some(p) => {
                let pu = p as usize;
                self.has_child[pu] = true;
                let j = self.jump[pu] as usize;
                let jj = self.jump[j] as usize;
                let jump = if self.depth[pu] - self.depth[j] == self.depth[j] - self.depth[jj] { jj as u32 } else { p };
                (self.depth[pu] + 1, jump)
            }
        };
        self.by_id.insert(id.clone(), node);
        self.ids.push(id);
        self.parent.push(parent);
        self.depth.push(depth);
        self.jump.push(jump);
        self.has_child.push(false);
        node
    }

    /// The parent of `x`, if it has one.
    pub(super) fn parent_of(&self, x: u32) -> Option<u32> {
        self.parent[x as usize]
    }

    /// Whether `a` is `x` or one of its ancestors.
    pub(super) fn is_ancestor(&self, a: u32, x: u32) -> bool {
        let d = self.depth[a as usize];
        let mut x = x;
        if self.depth[x as usize] < d {
            return false;
        }
        while self.depth[x as usize] > d {
            let j = self.jump[x as usize];
            x = if self.depth[j as usize] >= d { j } else { self.parent[x as usize].unwrap_or(x) };
        }
        x == a
    }

    /// Root to `node`, inclusive.
    fn branch(&self, node: u32) -> Vec<u32> {
        let mut out = vec![node];
        let mut x = node;
        while let Some(p) = self.parent[x as usize] {
            out.push(p);
            x = p;
        }
        out.reverse();
        out
    }

    /// The ids of the nodes without a parent, in file order.
    pub(super) fn roots(&self) -> Value {
        Value::Array(
            (0..self.ids.len()).filter(|&i| self.parent[i].is_none()).map(|i| string(self.ids[i].clone())).collect(),
        )
    }

    /// The ids of the nodes without a child, in file order.
    pub(super) fn leaves(&self) -> Value {
        Value::Array((0..self.ids.len()).filter(|&i| !self.has_child[i]).map(|i| string(self.ids[i].clone())).collect())
    }
}

/// A session read whole: the header, the entries in file order and the tree.
pub struct Session {
    tree: Tree,
    header: Value,
}

/// `readSession(text, options?)`: the session, or its first problem as the error (with the
/// line in `position`).
pub fn read_session(text: &[u8], options: &Options) -> Result<Session> {
    let mut checker = Checker::new(options, true);
    checker.feed_text(text);
    checker.finish();
    if let Some(p) = checker.first_problem() {
        let mut e = p.error.clone();
        e.message = format!("line {}: {}", p.line, e.message);
        return Err(e);
    }
    Ok(Session { header: checker.header.take().unwrap_or(Value::Null), tree: checker.tree })
}

impl Session {
    /// `{header, entries, roots, leaves}`.
    pub fn into_value(self) -> Value {
        let (roots, leaves) = (self.tree.roots(), self.tree.leaves());
        object(vec![
            ("header", self.header),
            ("entries", Value::Array(self.tree.values)),
            ("roots", roots),
            ("leaves", leaves),
        ])
    }

    fn node(&self, id: &str, path: &str) -> Result<u32> {
        self.tree.by_id.get(id).copied().ok_or_else(|| {
            ContractError::new(Code::SessionEntryUnknown, path, format!("no entry of this session has id {id:?}"))
        })
    }

    /// The entries from the root to `id`, inclusive.
    pub fn branch(&self, id: &str) -> Result<Value> {
        let node = self.node(id, "/branch")?;
        Ok(Value::Array(self.tree.branch(node).into_iter().map(|n| self.tree.values[n as usize].clone()).collect()))
    }

    /// The ids of the entries whose parent is `id`, in file order.
    pub fn children(&self, id: &str) -> Result<Value> {
        let node = self.node(id, "/children")?;
        let t = &self.tree;
        Ok(Value::Array(
            (0..t.ids.len()).filter(|&i| t.parent[i] == Some(node)).map(|i| string(t.ids[i].clone())).collect(),
        ))
    }

    /// What the next model request sees on the branch ending at `leaf`: `{compaction, messages}`.
    /// Without a compaction on the branch, `compaction` is `null` and `messages` every message
    /// of the branch; otherwise `compaction` is the last compaction entry of the branch (its
    /// `summary` stands for what it replaced) and `messages` those of the entries from its
    /// first kept entry on (the compaction entries themselves excluded).
    pub fn context(&self, leaf: &str) -> Result<Value> {
        let node = self.node(leaf, "/context")?;
        let branch = self.tree.branch(node);
        let kinds = &self.tree.kinds;
        let last = branch.iter().rposition(|&n| kinds[n as usize] == Some(EntryKind::Compaction));
        let (compaction, from) = match last {
            None => (Value::Null, 0),
            Some(k) => {
                let c = &self.tree.values[branch[k] as usize];
                let target = match c.get("firstKeptEntryId") {
                    Some(Value::String(s)) => s.as_str(),
                    _ => "",
                };
                let from = branch.iter().position(|&n| self.tree.ids[n as usize] == target).unwrap_or(k);
                (c.clone(), from)
            }
        };
        let messages = branch[from..]
            .iter()
            .filter(|&&n| kinds[n as usize] == Some(EntryKind::Message))
            .filter_map(|&n| self.tree.values[n as usize].get("message").cloned())
            .collect();
        Ok(object(vec![("compaction", compaction), ("messages", Value::Array(messages))]))
    }

    /// A query as a host value: `{branch: id}`, `{children: id}` or `{context: leafId}`.
    pub fn query<V: HostValue>(&self, query: &V) -> Result<Value> {
        let bad = || {
            ContractError::new(
                Code::FieldType,
                "",
                "a session query is one of {branch: id}, {children: id}, {context: leafId}",
            )
        };
        if query.kind() != Kind::Object {
            return Err(bad());
        }
        let keys = query.keys().map_err(|e| e.at(""))?;
        if keys.len() != 1 {
            return Err(bad());
        }
        let key = keys[0].as_str();
        let id = match query.get(key).map_err(|f| f.at(""))? {
            Some(v) if v.kind() == Kind::String => v.string(),
            _ => return Err(bad()),
        };
        match key {
            "branch" => self.branch(&id),
            "children" => self.children(&id),
            "context" => self.context(&id),
            _ => Err(bad()),
        }
    }
}
