"""ACP prompt admission performance, Python: admission of a prompt with a 5 MiB PNG (`admit_prompt`:
host text, canonical base64 check and decode in the core, signature, SHA-256, the payload back as
the core's base64 text decoded with binascii) vs the peer `base64.b64decode(validate=True)` +
`hashlib.sha256` (which does not check canonical form: `AB==` passes). Also where the time
goes: the host text of the request, a prompt refused before decoding, one refused at the
signature (decoded, not hashed), `is_canonical_base64` alone. Medians of interleaved rounds.

Usage: PYTHONPATH=py-host/src .venv/bin/python bench/bench_acp.py [--json out.json]
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import statistics
import sys
import time
from typing import Any, Callable

import agent_contract as ac
from agent_contract._host_text import DEFAULT_MAX_DEPTH, MAX_BYTES_CEILING, write

MIB = 1 << 20
png = b"\x89PNG\r\n\x1a\n" + os.urandom(5 * MIB - 8)
data = base64.b64encode(png).decode()


def prompt(block: dict[str, Any]) -> dict[str, Any]:
    return {"sessionId": "s", "prompt": [{"type": "text", "text": "what is this?"}, block]}


ok = prompt({"type": "image", "mimeType": "image/png", "data": data})
refused_early = prompt({"type": "image", "mimeType": "image/bmp", "data": data})
refused_at_signature = prompt({"type": "image", "mimeType": "image/jpeg", "data": data})
caps = {"image": True}

plan = ac.admit_prompt(ok, caps)
assert plan["images"][0]["bytes"] == png
assert plan["images"][0]["sha256"] == hashlib.sha256(png).hexdigest()

cases: dict[str, Callable[[], Any]] = {
    "admit_prompt 5 MiB PNG": lambda: ac.admit_prompt(ok, caps),
    "peer: b64decode(validate=True) + sha256": lambda: hashlib.sha256(base64.b64decode(data, validate=True)).hexdigest(),
    "host text of the request": lambda: write(ok, DEFAULT_MAX_DEPTH, MAX_BYTES_CEILING),
    "refused before decoding (MIME)": lambda: ac.safe_admit_prompt(refused_early, caps),
    "refused at the signature (decoded, not hashed)": lambda: ac.safe_admit_prompt(refused_at_signature, caps),
    "is_canonical_base64 of the 6.7 MB text": lambda: ac.is_canonical_base64(data),
}
rounds = int(os.environ.get("BENCH_ROUNDS", "11"))
times: dict[str, list[float]] = {k: [] for k in cases}
for _ in range(rounds):
    for name, f in cases.items():
        t0 = time.perf_counter()
        f()
        times[name].append((time.perf_counter() - t0) * 1000)
out = {k: statistics.median(v) for k, v in times.items()}
ratio = out["admit_prompt 5 MiB PNG"] / out["peer: b64decode(validate=True) + sha256"]
print(f"python {sys.version.split()[0]}, load {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {rounds} rounds, medians")
for k, v in out.items():
    print(f"  {k:48} {v:8.1f} ms")
print(f"  ratio admit_prompt / peer: {ratio:.2f}x (target <= 2x)")
if "--json" in sys.argv:
    with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
        json.dump({"ms": out, "ratio": ratio}, f, indent=1)
