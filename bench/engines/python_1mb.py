"""Python, the ~1 MB input of bench_tools.mjs: validate_tool_input (value) and
validate_tool_input_json (text) of whichever agent_contract is imported, with json.loads and
fastjsonschema as references in the same process. Run it alternately against two builds:
  PYTHONPATH=/path/to/other/py-host/src .venv/bin/python bench/engines/python_1mb.py
  .venv/bin/python bench/engines/python_1mb.py
(reads bench/out/tool_cases.json, written by bench_tools.mjs; medians of interleaved batches)."""
import json
import pathlib
import statistics
import time

import agent_contract as ac

cases = json.loads((pathlib.Path(__file__).parent.parent / "out" / "tool_cases.json").read_text())
tool = ac.define_tool(cases["tool"])
big = {**cases["small"], "edits": cases["big"]["edits"]}
text = json.dumps(big, separators=(",", ":"), ensure_ascii=False)
try:
    import fastjsonschema

    fjs = fastjsonschema.compile(cases["tool"]["inputSchema"])
except ImportError:
    fjs = None
fns = {
    "validate_tool_input(tool, value)": lambda: ac.validate_tool_input(tool, big),
    "validate_tool_input_json(tool, text)": lambda: ac.validate_tool_input_json(tool, text),
    "json.loads(text)": lambda: json.loads(text),
}
if fjs:
    fns["json.loads + fastjsonschema"] = lambda: fjs(json.loads(text))
samples = {k: [] for k in fns}
for _ in range(7):
    for k, f in fns.items():
        f()
        t = time.perf_counter()
        for _ in range(5):
            f()
        samples[k].append((time.perf_counter() - t) / 5)
print(f"agent_contract from {pathlib.Path(ac.__file__).parent}")
for k, v in samples.items():
    print(f"  {k:<40} {statistics.median(v) * 1e3:8.2f} ms")
