"""Stream assembly scaling from Python (see stream_scaling.mjs): 1 KB, 100 KB and 10 MB of
arguments in 64-byte deltas, ours vs re-parsing the buffer with json.loads per delta.
Usage: PYTHONPATH=py-host/src .venv/bin/python bench/stream_scaling.py"""

from __future__ import annotations

import json
import statistics
import time

import agent_contract as ac

CHUNK = 64


def arguments_text(size: int) -> str:
    items, n, i = [], 2, 0
    while n < size:
        item = f'{{"id":{i},"path":"src/file_{i}.ts","ok":true}}'
        items.append(item)
        n += len(item) + 1
        i += 1
    return '{"items":[' + ",".join(items) + "]}"


def ours(pieces: list[str]) -> int:
    with ac.Assembler({"maxArgumentsBytes": 64 << 20, "maxResponseBytes": 64 << 20, "maxArrayLength": 1 << 22}) as a:
        seq = 0
        a.push({"type": "start", "sequence": 0, "itemId": "i", "callId": "c", "name": "write"})
        for seq, text in enumerate(pieces, 1):
            a.push({"type": "delta", "sequence": seq, "itemId": "i", "text": text})
        a.push({"type": "end", "sequence": seq + 1, "itemId": "i"})
        a.push({"type": "finish", "sequence": seq + 2, "reason": "tool_calls"})
        return len(a.finish()["calls"][0]["arguments"]["items"])


def reparse(pieces: list[str]) -> int:
    buffer, value = "", None
    for text in pieces:
        buffer += text
        try:
            value = json.loads(buffer)
        except ValueError:
            pass
    return len(value["items"])


def timed(fn, pieces, runs: int) -> float:
    fn(pieces)
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(pieces)
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


rows = []
for label, size, runs in (("1 KB", 1 << 10, 50), ("100 KB", 100 << 10, 9), ("10 MB", 10 << 20, 3)):
    text = arguments_text(size)
    pieces = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)]
    o = timed(ours, pieces, runs)
    r = timed(reparse, pieces, runs) if size <= 1 << 20 else None
    rows.append((label, len(pieces), o, r))
    print(f"{label:>7} {len(pieces):>7} deltas  ours {o:10.3f} ms  reparse {'skipped' if r is None else f'{r:10.3f} ms'}")
print(f"ours: 10 MB / 100 KB = {rows[2][2] / rows[1][2]:.1f}x (linear is ~102x; target <= 120x)")
