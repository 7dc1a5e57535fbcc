"""NDJSON decoding performance: ~100 MB of recorded-like ACP traffic in 64 KiB reads
through NdjsonDecoder (frames classified, messages parsed) against a split + json.loads per line
over the same reads. Target: at most 1.5x. Usage: python bench_ndjson.py [MB]"""

from __future__ import annotations

import json
import statistics
import sys
import time

import agent_contract as ac

MB = float(sys.argv[1]) if len(sys.argv) > 1 else 100
READ = 64 * 1024


def corpus(size: int) -> tuple[list[bytes], int, int]:
    lines, total, i = [], 0, 0
    while total < size:
        if i % 50 == 0:
            m = {"jsonrpc": "2.0", "id": i, "method": "session/prompt", "params": {"sessionId": "sess_abc123", "prompt": [{"type": "text", "text": "Refactor the parser so that " * (1 + i % 7)}]}}
        elif i % 50 == 1:
            m = {"jsonrpc": "2.0", "id": i - 1, "result": {"stopReason": "end_turn"}}
        elif i % 10 == 5:
            m = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "sess_abc123", "update": {"sessionUpdate": "tool_call", "toolCallId": f"call_{i}", "title": "Reading configuration file", "kind": "read", "status": "pending", "locations": [{"path": f"/home/user/project/src/file_{i}.ts"}]}}}
        else:
            m = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "sess_abc123", "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": f"chunk {i}: " + "the quick brown fox jumps over the lazy dög — “quoted” \u2028 " * (1 + i % 13)}}}}
        line = json.dumps(m, ensure_ascii=False, separators=(",", ":")).encode()
        lines.append(line)
        total += len(line) + 1
        i += 1
    data = b"\n".join(lines) + b"\n"
    return [data[k : k + READ] for k in range(0, len(data), READ)], len(lines), len(data)


def ours(reads: list[bytes]) -> int:
    n = 0
    with ac.NdjsonDecoder() as d:
        for r in reads:
            n += sum(1 for f in d.push(r) if not f["ignored"])
        n += len(d.end())
    return n


def peer(reads: list[bytes]) -> int:
    pending, n = b"", 0
    for r in reads:
        parts = (pending + r).split(b"\n")
        pending = parts.pop()
        for p in parts:
            if p and json.loads(p):
                n += 1
    if pending and json.loads(pending):
        n += 1
    return n


reads, lines, size = corpus(int(MB * 1024 * 1024))
runs: dict[str, list[float]] = {"ours": [], "peer": []}
for _ in range(3):
    for name, f in (("peer", peer), ("ours", ours)):
        t = time.perf_counter()
        n = f(reads)
        runs[name].append(time.perf_counter() - t)
        assert n == lines, (name, n, lines)
o, p = statistics.median(runs["ours"]), statistics.median(runs["peer"])
print(f"NDJSON {size / 1048576:.1f} MB, {lines} frames, {READ // 1024} KiB reads (median of 3)")
print(f"  NdjsonDecoder               {o * 1000:.0f} ms  ({size / 1048576 / o:.0f} MB/s)")
print(f"  split + json.loads          {p * 1000:.0f} ms  ({size / 1048576 / p:.0f} MB/s)")
print(f"  ratio {o / p:.2f}x (target <= 1.5x)")
