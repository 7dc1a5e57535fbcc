"""Validates the sample trace through the wasm core in Python and prints one verdict per line."""
import json
import pathlib

from agent_contract import safe_assemble_provider_stream, safe_define_tool, safe_parse_agent_action_json

trace = json.loads((pathlib.Path(__file__).parent / "trace.json").read_text(encoding="utf-8"))


def line(what, result, ok):
    if result["ok"]:
        print(f"{what} ok    {ok(result['value'])}")
    else:
        e = result["error"]
        print(f"{what} error {e.layer} {e.code} {json.dumps(e.path)}")


for i, tool in enumerate(trace["tools"], 1):
    line(f"tool   {i}", safe_define_tool(tool), lambda d: f"{d['name']} [{','.join(d['permissions'])}]")
for i, text in enumerate(trace["outputs"], 1):
    line(f"output {i}", safe_parse_agent_action_json(text), lambda a: f"{a['type']} {a.get('tool', '')}".strip())


def calls(r):
    shown = [f"{c['name']}({json.dumps(c['arguments'], separators=(',', ':'), ensure_ascii=False)})" for c in r["calls"]]
    return f"{r['finishReason']} {' '.join(shown)}".strip()


for i, s in enumerate(trace["streams"], 1):
    line(f"stream {i}", safe_assemble_provider_stream(s["provider"], s["sse"]), calls)
