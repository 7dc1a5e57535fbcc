#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target from fixtures/ (and the provider recordings in
../shared/conformance when present) into fuzz/corpus/<target>/. Generated, not committed.

A seed is the target's input format: an operation byte, then the text (see fuzz_targets/)."""
import hashlib, json, os, pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
out = root / "fuzz" / "corpus"
seeds = {t: set() for t in ["json", "host_text", "text_ops", "tool_input", "provider_sse", "registry", "ndjson", "session", "chat_row"]}

TEXT_OPS = {"parseAgentActionJson": 0, "defineToolJson": 1, "parseDecisionJson": 2, "parseAgentActionsJsonl": 3, "parseJson": 4}
HOST_OPS = {"parseAgentAction": 0, "defineTool": 1, "parseDecision": 2, "previewAction": 3, "parseAgentActions": 4,
            "strictSchemaIssues": 5, "definePolicy": 6}
REG_OPS = {"createRegistry": 0, "catalog": 1, "toOpenAITools": 2, "toAnthropicTools": 3, "toMcpTools": 3, "definePolicy": 4,
           "checkToolCall": 5, "normalizeToolResult": 6, "strictSchemaIssues": 7, "compareContracts": 8, "diffCatalogs": 9}
SESSION_VALUE_OPS = {"parseAgentMessage": 2, "parseAgentMessageJson": 2, "parseSessionEntry": 3, "parseAgentEvent": 4,
                     "checkEventSequence": 4, "checkSessionResponse": 4, "parseToolResult": 4, "toSeedTool": 4}
LIFECYCLE = ["admitted", "written", "enqueue", "cancel", "agentIdle", "outputDelivered", "settle", "abandon"]
PROVIDERS = {"openai-chat": 0, "openai-responses": 1, "anthropic": 2, "gemini": 3}

def dump(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode()

def text_of(case):
    if "text" in case:
        return case["text"].encode("utf-8", "surrogatepass")
    if "textHex" in case:
        return bytes.fromhex(case["textHex"])
    if "bytesHex" in case:
        return bytes.fromhex(case["bytesHex"])
    return None

def sse_of(events):
    return b"".join(b"data: " + (e.encode() if isinstance(e, str) else dump(e)) + b"\n\n" for e in events)

# Cases at the edge of a budget are as costly as the core allows by design: the call's budget of
# automata (~12 MiB compiled, ~1 s of a fuzz build per input, and as much again in every
# mutation of it) and the engine's budget of evaluations (2.5 million per input). Seeded, they
# took the chat_row target from ~5,000 inputs per second to ~50. Their rules have their own
# tests; the fuzzers look for other faults.
EXPENSIVE = {"registry_bounds.json", "tool_input_bounds.json"}

for path in sorted((root / "fixtures").glob("*.json")):
    if path.name in EXPENSIVE:
        continue
    for case in json.load(open(path))["cases"]:
        op, text = case["op"], text_of(case)
        if text is not None:
            seeds["json"].add(b"\0" + text)
        if op in TEXT_OPS and text is not None:
            seeds["text_ops"].add(bytes([TEXT_OPS[op]]) + text)
        if "input" in case:
            seeds["json"].add(b"\0" + dump(case["input"]))
            if op in HOST_OPS:
                seeds["host_text"].add(bytes([HOST_OPS[op]]) + dump(case["input"]))
        if "options" in case:
            seeds["host_text"].add(bytes([7]) + dump(case["options"]))
        if op.startswith("validateToolInput") and isinstance(case.get("tool"), dict):
            instance = text if text is not None else dump(case.get("input"))
            seeds["tool_input"].add(dump(case["tool"].get("inputSchema")) + b"\0" + instance)
        if op in REG_OPS and "args" in case:
            seeds["registry"].add(bytes([REG_OPS[op]]) + dump(case["args"]))
        if op in ("decodeNdjson", "checkStdoutPurity", "classifyJsonRpcJson"):
            chunks = case.get("chunks")
            whole = "".join(chunks).encode() if chunks is not None else (
                b"".join(bytes.fromhex(h) for h in case["chunksHex"]) if "chunksHex" in case else text)
            if whole is not None:
                seeds["ndjson"].add(bytes([len(seeds["ndjson"]) % 256]) + whole)
        if op in ("checkSession", "readSession", "querySession") and text is not None:
            pi = 8 if (case.get("options") or {}).get("dialect") == "pi" else 0
            seeds["session"].add(bytes([pi]) + text)
        if op in SESSION_VALUE_OPS:
            body = text if text is not None else dump(case.get("input"))
            seeds["session"].add(bytes([SESSION_VALUE_OPS[op]]) + body)
        if op == "fromSeedTool" and "args" in case:
            seeds["session"].add(bytes([4]) + dump(case["args"]))
        if op == "admitPrompt" and "args" in case:
            seeds["session"].add(bytes([6]) + dump(case["args"]))
        if op == "promptLifecycle" and isinstance(case.get("input"), list):
            calls = [c if isinstance(c, str) else c.get("call", "") for c in case["input"]]
            seeds["session"].add(bytes([7] + [LIFECYCLE.index(c) for c in calls if c in LIFECYCLE]))
        if op in ("checkChatRow", "checkChatRowsJsonl"):
            body = text if text is not None else dump(case.get("input"))
            seeds["chat_row"].add(bytes([1 if (case.get("options") or {}).get("strict") else 0]) + body)
        if op == "checkChatRows" and isinstance(case.get("input"), list):
            lines = [r.encode() if isinstance(r, str) else dump(r) for r in case["input"]]
            seeds["chat_row"].add(b"\0" + b"\n".join(lines) + b"\n")
        if op == "assembleStream":
            seeds["registry"].add(bytes([10]) + dump(case["input"]))
        if op == "assembleProviderStream":
            p = PROVIDERS.get(case.get("provider"))
            if p is None:
                continue
            if text is not None:
                seeds["provider_sse"].add(bytes([p]) + text)
            elif isinstance(case.get("input"), list):
                seeds["provider_sse"].add(bytes([p]) + sse_of(case["input"]))

recordings = root.parent / "shared" / "conformance" / "provider-streams"
if recordings.is_dir():
    for f in sorted(recordings.rglob("*")):
        name = f.name
        p = next((v for k, v in PROVIDERS.items() if k.replace("-", "_") in str(f).replace("-", "_")), None)
        if p is None or not f.is_file() or f.stat().st_size > 200_000:
            continue
        if name.endswith((".bin", ".sse", "_response.txt")):
            seeds["provider_sse"].add(bytes([p]) + f.read_bytes())

sessions = root.parent / "shared" / "conformance" / "pi-mono-sessions"
if sessions.is_dir():
    for f in sorted(sessions.rglob("*.jsonl")):
        # The first 64 KB (the targets' -max_len), cut at a line end.
        head = f.read_bytes()[:65535]
        seeds["session"].add(bytes([8]) + head[: head.rfind(b"\n") + 1])

for target, items in seeds.items():
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    for s in items:
        (d / hashlib.sha1(s).hexdigest()).write_bytes(s)
    print(f"{target}: {len(items)} seeds", file=sys.stderr)
