#!/usr/bin/env python3
"""A deterministic corpus of agent sessions and chat dataset rows, to check and to measure on.

    python3 bench/corpus/generate.py --out DIR [--sessions N] [--rows M] [--session-kb K]
        [--pi-share F] [--fault-share F] [--gz-share F] [--rows-per-file R] [--seed S]

Writes
  DIR/sessions/seed/NNNNNN.jsonl[.gz]  session files in the seed 004 format (ids, parentId tree)
  DIR/sessions/pi/NNNNNN.jsonl[.gz]    session files in pi-mono's older dialect (`--dialect pi`)
  DIR/rows/NNNNNN.jsonl[.gz]           OpenAI chat fine-tuning rows {"messages", "tools"}
  DIR/manifest.json                    the options, every file with the SHA-256 of its (decompressed)
                                       bytes, and every injected fault: file, line, kind, code

Everything is built from the recorded pi-mono sessions (../shared/conformance/pi-mono-sessions):
their user, assistant and tool result messages are the texts, tool calls and results of every
file, rewritten to each format. A seeded `random.Random` decides everything else, so the same
options give byte-identical files on any machine (gzip members carry no name and mtime 0; the
manifest hashes decompressed bytes, so it does not depend on the zlib build either).

Faults (`--fault-share` of the files, one fault in each such file, kinds taken in turn), each one
problem at one line, never a cascade:
  sessions: parent_missing (a parentId naming no entry: ENTRY_PARENT_MISSING),
            result_unmatched (a toolResult whose toolCallId answers no call on its branch, so the
            call it answered is left unanswered: TOOL_RESULT_UNMATCHED), truncated (the last line
            cut mid-value, as a writer killed mid-line leaves it: JSON_INVALID), non_utf8 (a 0xFF
            byte inside a string of the last line: JSON_INVALID). The pi dialect has no ids, so
            its files get the last two only.
  rows:     schema_mismatch (an argument of the wrong type for its tool's `parameters`),
            unanswered_call (an assistant tool call with no tool message answering it),
            truncated (the file's last row cut mid-value), non_utf8 (a 0xFF byte in a string).
The manifest gives each fault's code: for rows, ROW_ARGUMENTS_MISMATCH, ROW_CALL_UNANSWERED and
JSON_INVALID (`checkChatRow`).
"""

import argparse
import gzip
import hashlib
import io
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "conformance", "pi-mono-sessions"))
SOURCES = ("large-session.jsonl", "before-compaction.jsonl")

# The parameters of pi-mono's coding tools, as the rows' `tools` declare them.
TOOLS = {
    "read": {
        "description": "Read a file, optionally a window of its lines.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "offset": {"type": "integer"}, "limit": {"type": "integer"}},
            "required": ["path"],
        },
    },
    "bash": {
        "description": "Run a shell command in the working directory.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string"}, "timeout": {"type": "integer"}},
            "required": ["command"],
        },
    },
    "edit": {
        "description": "Replace one exact text of a file with another.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "oldText": {"type": "string"}, "newText": {"type": "string"}},
            "required": ["path", "oldText", "newText"],
        },
    },
    "write": {
        "description": "Write a file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
}

SESSION_FAULTS = ("parent_missing", "result_unmatched", "truncated", "non_utf8")
PI_FAULTS = ("truncated", "non_utf8")
ROW_FAULTS = ("schema_mismatch", "unanswered_call", "truncated", "non_utf8")
CODES = {
    "parent_missing": "ENTRY_PARENT_MISSING",
    "result_unmatched": "TOOL_RESULT_UNMATCHED",
    "truncated": "JSON_INVALID",
    "non_utf8": "JSON_INVALID",
}


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_recorded():
    """The recorded files' lines, and their messages as a list of episodes (a user message and
    what follows it up to the next one), with only text and tool call blocks kept."""
    raw = []
    episodes = []
    for name in SOURCES:
        with open(os.path.join(RECORDED, name), "rb") as f:
            lines = f.read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        raw.append(lines)
        current = None
        for line in lines:
            entry = json.loads(line)
            m = entry.get("message")
            if entry.get("type") != "message" or not isinstance(m, dict):
                continue
            role = m.get("role")
            if role == "user":
                text = [b["text"] for b in m["content"] if b.get("type") == "text"] if isinstance(m["content"], list) else [m["content"]]
                current = [{"role": "user", "text": "\n".join(text)}]
                episodes.append(current)
            elif current is None:
                continue
            elif role == "assistant":
                texts = [b["text"] for b in m["content"] if b.get("type") == "text"]
                calls = [(b["id"], b["name"], b["arguments"]) for b in m["content"] if b.get("type") == "toolCall"]
                if texts or calls:
                    current.append({"role": "assistant", "text": "\n".join(texts), "calls": calls})
            elif role == "toolResult":
                text = "\n".join(b["text"] for b in m["content"] if b.get("type") == "text")
                current.append({"role": "tool", "id": m["toolCallId"], "name": m["toolName"], "text": text, "error": bool(m.get("isError"))})
    # A call whose arguments lack a required parameter would be a fault nobody injected.
    def clean(ep):
        for msg in ep:
            for _, name, args in msg.get("calls", ()):
                if name not in TOOLS or any(k not in args for k in TOOLS[name]["parameters"]["required"]):
                    return False
        return True

    return raw, [ep for ep in episodes if clean(ep)]


def iso(t):
    s, ms = divmod(t, 1000)
    d, s = divmod(s, 86400)
    h, s = divmod(s, 3600)
    mi, s = divmod(s, 60)
    # Days after 2025-01-01, kept within a 28-day month so the date stays valid.
    return "2025-01-%02dT%02d:%02d:%02d.%03dZ" % (1 + d % 28, h, mi, s, ms)


def seed_session(rng, episodes, target):
    """Seed-format lines until `target` bytes: a header, then episodes in order from a random
    start, call ids renamed per file, and now and then a prompt edited (a branch from the parent
    of an earlier user message)."""
    t = rng.randrange(10**9)
    sid = "%016x" % rng.getrandbits(64)
    lines = [{"type": "session", "version": 1, "id": sid, "timestamp": iso(t), "cwd": "/work/%s" % sid[:6]}]
    size = len(dumps(lines[0])) + 1
    i = rng.randrange(len(episodes))
    n = 0
    parent = None
    user_parents = []  # the parents of user messages so far (branch points)
    meta = []  # per line: ("user"|"assistant"|"tool", entry id, call ids answered / made)
    meta.append(("header", None, ()))
    while size < target:
        renamed = {}
        for msg in episodes[i % len(episodes)]:
            n += 1
            t += rng.randrange(1, 5000)
            eid = "e%x" % n
            if msg["role"] == "user":
                if user_parents and rng.random() < 0.05:
                    parent = rng.choice(user_parents)
                if parent is not None:
                    user_parents.append(parent)
                body = {"role": "user", "content": [{"type": "text", "text": msg["text"]}], "timestamp": t}
                meta.append(("user", eid, ()))
            elif msg["role"] == "assistant":
                content = [{"type": "text", "text": msg["text"]}] if msg["text"] else []
                made = []
                for cid, name, args in msg["calls"]:
                    new = "call_%x_%d" % (n, len(made))
                    renamed[cid] = (new, name)
                    made.append(new)
                    content.append({"type": "toolCall", "id": new, "name": name, "arguments": args})
                body = {
                    "role": "assistant",
                    "content": content,
                    "stopReason": "toolUse" if made else "stop",
                    "usage": {"input": rng.randrange(1, 4000), "output": rng.randrange(1, 800), "totalTokens": 0},
                    "timestamp": t,
                }
                body["usage"]["totalTokens"] = body["usage"]["input"] + body["usage"]["output"]
                meta.append(("assistant", eid, tuple(made)))
            else:
                if msg["id"] not in renamed:
                    n -= 1
                    continue
                new, name = renamed.pop(msg["id"])
                body = {
                    "role": "toolResult",
                    "toolCallId": new,
                    "toolName": name,
                    "content": [{"type": "text", "text": msg["text"]}],
                    "isError": msg["error"],
                    "timestamp": t,
                }
                meta.append(("tool", eid, (new,)))
            entry = {"type": "message", "id": eid, "parentId": parent, "timestamp": iso(t), "message": body}
            lines.append(entry)
            size += len(dumps(entry)) + 1
            parent = eid
        i += 1
    return lines, meta


def pi_session(rng, raw, target):
    """A recorded pi session's header (a new id) and its lines from the start until `target`
    bytes: the recorded file cut at a line, as a session still being written is."""
    src = raw[rng.randrange(len(raw))]
    header = json.loads(src[0])
    header["id"] = "%08x-%04x-4%03x-8%03x-%012x" % (
        rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12), rng.getrandbits(12), rng.getrandbits(48))
    out = [dumps(header).encode()]
    size = len(out[0]) + 1
    for line in src[1:]:
        if size >= target:
            break
        out.append(line)
        size += len(line) + 1
    return out


def cut(line, rng):
    """A line cut inside its value (never at a point where what is left is still JSON)."""
    at = rng.randrange(len(line) // 4, len(line) * 3 // 4)
    return line[:at]


def non_utf8(line, rng):
    """A 0xFF byte put inside a string of the line (after a `"text":"` or `"content":"`)."""
    for key in (b'"text":"', b'"content":"', b'"command":"', b'"path":"'):
        at = line.find(key)
        if at >= 0:
            at += len(key)
            return line[:at] + b"\xff" + line[at:]
    return line[:-2] + b"\xff" + line[-2:]


def session_with_fault(lines, meta, kind, rng):
    """Encoded lines and the 1-based line of the fault."""
    if kind == "parent_missing":
        k = rng.randrange(2, len(lines))
        lines[k]["parentId"] = "missing-%x" % rng.getrandbits(32)
        return [dumps(e).encode() for e in lines], k + 1
    if kind == "result_unmatched":
        tools = [k for k, m in enumerate(meta) if m[0] == "tool"]
        if tools:
            k = rng.choice(tools)
            lines[k]["message"]["toolCallId"] = "call_none_%x" % rng.getrandbits(32)
            return [dumps(e).encode() for e in lines], k + 1
        # No tool result to break: a parent link instead (its kind is written with it).
        return None
    encoded = [dumps(e).encode() for e in lines]
    return last_line_fault(encoded, kind, rng)


def last_line_fault(encoded, kind, rng):
    # Only the last line: nothing after it names it as parent or answers its calls, so its loss
    # is one problem.
    if kind == "truncated":
        encoded[-1] = cut(encoded[-1], rng)
    else:
        encoded[-1] = non_utf8(encoded[-1], rng)
    return encoded, len(encoded)


def chat_row(rng, episodes):
    """One chat fine-tuning row: a system prompt, then one to three episodes as OpenAI messages
    (assistant `tool_calls` with `function.arguments` a JSON string, `tool` answers), and the
    tools the calls use."""
    messages = [{"role": "system", "content": "You are a coding agent. Use the tools to read and change files."}]
    used = set()
    start = rng.randrange(len(episodes))
    for e in range(rng.randrange(1, 4)):
        renamed = {}
        made = 0
        for msg in episodes[(start + e) % len(episodes)]:
            if msg["role"] == "user":
                messages.append({"role": "user", "content": msg["text"]})
            elif msg["role"] == "assistant":
                m = {"role": "assistant", "content": msg["text"] or None}
                if msg["calls"]:
                    m["tool_calls"] = []
                    for cid, name, args in msg["calls"]:
                        made += 1
                        new = "call_%d_%d" % (e, made)
                        renamed[cid] = new
                        used.add(name)
                        m["tool_calls"].append({"id": new, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}})
                messages.append(m)
            elif msg["id"] in renamed:
                # Tool outputs are kept to 4 KB: fine-tuning sets trim long outputs.
                messages.append({"role": "tool", "tool_call_id": renamed.pop(msg["id"]), "content": msg["text"][:4096]})
        # A call whose answer is not in the episode (the recording's next episode has it): the
        # row gets no dangling call.
        for m in messages:
            if "tool_calls" in m:
                m["tool_calls"] = [c for c in m["tool_calls"] if c["id"] not in renamed.values()]
                if not m["tool_calls"]:
                    del m["tool_calls"]
                    if m["content"] is None:
                        m["content"] = ""
    tools = [{"type": "function", "function": {"name": n, **TOOLS[n]}} for n in sorted(used)]
    return {"messages": messages, "tools": tools}


def row_with_fault(row, kind, rng):
    """The row with its fault, or None when this row cannot hold it (no tool call)."""
    calls = [(i, c) for i, m in enumerate(row["messages"]) for c in m.get("tool_calls", ())]
    if kind in ("schema_mismatch", "unanswered_call") and not calls:
        return None
    if kind == "schema_mismatch":
        _, call = rng.choice(calls)
        args = json.loads(call["function"]["arguments"])
        key = TOOLS[call["function"]["name"]]["parameters"]["required"][0]
        args[key] = 42  # every first required parameter is a string
        call["function"]["arguments"] = json.dumps(args)
    elif kind == "unanswered_call":
        # A call with a later user or assistant message: a row may end on calls not answered yet
        # (the turn it teaches), so a call with nothing but tool messages after it is not a fault.
        msgs = row["messages"]
        answered = [c for c in calls if any(m["role"] != "tool" for m in msgs[c[0] + 1:])]
        if not answered:
            return None
        _, call = rng.choice(answered)
        row["messages"] = [m for m in row["messages"] if m.get("tool_call_id") != call["id"]]
    return row


def write(path, data, gz):
    if gz:
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=6) as f:
            f.write(data)
        data_out = buf.getvalue()
        path += ".gz"
    else:
        data_out = data
    with open(path, "wb") as f:
        f.write(data_out)
    return path


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--sessions", type=int, default=100, help="session files (seed and pi together)")
    p.add_argument("--rows", type=int, default=1000, help="chat dataset rows")
    p.add_argument("--session-kb", type=int, default=217, help="about this many KB per session file")
    p.add_argument("--pi-share", type=float, default=0.25, help="share of session files in the pi dialect")
    p.add_argument("--fault-share", type=float, default=0.1, help="share of files (sessions) and rows with one fault")
    p.add_argument("--gz-share", type=float, default=0.0, help="share of files written as .jsonl.gz")
    p.add_argument("--rows-per-file", type=int, default=1000)
    p.add_argument("--seed", type=int, default=4)
    a = p.parse_args(argv)

    raw, episodes = load_recorded()
    rng = random.Random(a.seed)
    for d in ("sessions/seed", "sessions/pi", "rows"):
        os.makedirs(os.path.join(a.out, d), exist_ok=True)
    files, faults = [], []

    def record(path, data):
        rel = os.path.relpath(path, a.out).replace(os.sep, "/")
        files.append({"path": rel, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
        return rel

    turn = {"seed": 0, "pi": 0}  # each dialect takes its fault kinds in turn
    for s in range(a.sessions):
        target = max(1, int(a.session_kb * 1024 * rng.uniform(0.5, 1.5)))
        pi = rng.random() < a.pi_share
        faulty = rng.random() < a.fault_share
        gz = rng.random() < a.gz_share
        fault = None
        if pi:
            encoded = pi_session(rng, raw, target)
            if faulty:
                fault = PI_FAULTS[turn["pi"] % len(PI_FAULTS)]
                turn["pi"] += 1
                encoded, line = last_line_fault(encoded, fault, rng)
            name = os.path.join(a.out, "sessions", "pi", "%06d.jsonl" % s)
        else:
            lines, meta = seed_session(rng, episodes, target)
            if faulty:
                fault = SESSION_FAULTS[turn["seed"] % len(SESSION_FAULTS)]
                turn["seed"] += 1
                done = session_with_fault(lines, meta, fault, rng)
                if done is None:
                    fault = "parent_missing"
                    done = session_with_fault(lines, meta, fault, rng)
                encoded, line = done
            else:
                encoded = [dumps(e).encode() for e in lines]
            name = os.path.join(a.out, "sessions", "seed", "%06d.jsonl" % s)
        # A truncated last line has no line end: the writer died before it.
        data = b"\n".join(encoded) + (b"" if fault == "truncated" else b"\n")
        rel = record(write(name, data, gz), data)
        if fault:
            faults.append({"path": rel, "line": line, "kind": fault, "code": CODES[fault]})

    n_faulty = 0
    for f in range((a.rows + a.rows_per_file - 1) // a.rows_per_file):
        count = min(a.rows_per_file, a.rows - f * a.rows_per_file)
        encoded, file_faults = [], []
        gz = rng.random() < a.gz_share
        for r in range(count):
            row = chat_row(rng, episodes)
            fault = None
            if rng.random() < a.fault_share:
                # The next kind in turn that this row can hold: only a file's last row can be
                # cut off, and only a row with a tool call can break one.
                for k in range(len(ROW_FAULTS)):
                    fault = ROW_FAULTS[(n_faulty + k) % len(ROW_FAULTS)]
                    if fault == "truncated" and r != count - 1:
                        continue
                    if row_with_fault(row, fault, rng) is not None:
                        n_faulty += k
                        break
            line = dumps(row).encode()
            if fault == "truncated":
                line = cut(line, rng)
            elif fault == "non_utf8":
                line = non_utf8(line, rng)
            if fault:
                n_faulty += 1
                file_faults.append((r + 1, fault))
            encoded.append(line)
        truncated = bool(file_faults) and file_faults[-1] == (count, "truncated")
        data = b"\n".join(encoded) + (b"" if truncated else b"\n")
        rel = record(write(os.path.join(a.out, "rows", "%06d.jsonl" % f), data, gz), data)
        for line, kind in file_faults:
            fault = {"path": rel, "line": line, "kind": kind}
            if kind in ("truncated", "non_utf8"):
                fault["code"] = CODES[kind]
            elif kind == "schema_mismatch":
                fault["code"] = "ROW_ARGUMENTS_MISMATCH"
            else:
                fault["code"] = "ROW_CALL_UNANSWERED"
            faults.append(fault)

    options = {k: getattr(a, k) for k in ("sessions", "rows", "session_kb", "pi_share", "fault_share", "gz_share", "rows_per_file", "seed")}
    manifest = {"options": options, "files": files, "faults": faults}
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        f.write(text)
    total = sum(f["bytes"] for f in files)
    print("%s: %d files, %.1f MB, %d faults, manifest sha256 %s" % (
        a.out, len(files), total / 1e6, len(faults), hashlib.sha256(text.encode()).hexdigest()), file=sys.stderr)


if __name__ == "__main__":
    main()
