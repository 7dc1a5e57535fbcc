"""The core's answers to hostile input, seen from Python (the host must not undo them): each
answers with the exact value or code and path, its time grows linearly with the input, and (in
the benchmark command) it answers in under 1 s (a 65,536-member dict, issues cut at max_issues,
blank JSON Lines, uniqueItems on 65,536 objects)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agent_contract as ac
from agent_contract import _runtime
from timing import assert_flat, assert_linear, raises, returns


@pytest.fixture(autouse=True)
def _warm() -> None:
    # The first call of a thread loads its component instance (~1 s): not the call measured.
    ac.parse_agent_action({"type": "finish", "summary": "s"})


def bounded(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    """Every call here is within the default limits: it leaves the instance it ran in under the
    documented bound (read before the runtime replaces an instance past its threshold)."""
    instance = _runtime._instance()
    try:
        return fn(*args, **kwargs)
    finally:
        assert instance.memory_bytes() <= _runtime.MEMORY_BOUND


def ok(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    """The call's value (any exception fails), within the memory bound."""
    return bounded(returns, fn, *args, **kwargs)


def fails(code: str, fn, *args, **kwargs) -> ac.ContractError:  # type: ignore[no-untyped-def]
    """The ContractError with `code` the call raises, within the memory bound."""
    return bounded(raises, code, fn, *args, **kwargs)  # type: ignore[no-any-return]


def tool(schema: dict) -> dict:
    return ac.define_tool({"name": "t", "description": "d", "permission": "read", "inputSchema": schema})


def test_p3_a_dict_of_65536_members_is_read_in_one_pass() -> None:
    big = {f"k{i}": i for i in range(65536)}
    action = ok(ac.parse_agent_action, {"type": "tool_call", "callId": "c", "tool": "t", "input": big})
    assert len(action["input"]) == 65536
    assert ok(ac.validate_tool_input, tool({"type": "object"}), big) == big
    props = {f"p{i}": {"type": "string"} for i in range(4000)}
    issues = ok(ac.strict_schema_issues, {"type": "object", "properties": props})
    assert len(issues) == 4001
    policy = ok(ac.define_policy, {"rules": [{"effect": "allow", "tool": f"t{i}"} for i in range(65536)]})
    assert len(policy["rules"]) == 65536


def test_p3_reading_an_object_its_schema_and_a_policy_grows_linearly() -> None:
    def members(n: int) -> dict[str, int]:
        return {f"k{i}": i for i in range(n)}

    def action(n: int):  # type: ignore[no-untyped-def]
        value = {"type": "tool_call", "callId": "c", "tool": "t", "input": members(n)}
        return lambda: ac.parse_agent_action(value)

    obj = tool({"type": "object"})

    def validate(n: int):  # type: ignore[no-untyped-def]
        value = members(n)
        return lambda: ac.validate_tool_input(obj, value)

    def schema(n: int):  # type: ignore[no-untyped-def]
        value = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(n)}}
        return lambda: ac.strict_schema_issues(value)

    def policy(n: int):  # type: ignore[no-untyped-def]
        value = {"rules": [{"effect": "allow", "tool": f"t{i}"} for i in range(n)]}
        return lambda: ac.define_policy(value)

    assert_linear(action, 16384)
    assert_linear(validate, 16384)
    assert_linear(schema, 1000)
    assert_linear(policy, 16384)


def test_strings_under_a_large_enum_are_found_by_a_search() -> None:
    """50,000 strings against 20,000 values compared one by one took 4.4 s (0.55 MB). With the
    enum 16x larger and the same input, the time barely grows: valid input (the schema program),
    and input whose last string is not a value (the engine)."""

    def values(m: int) -> list[str]:
        return [f"v{i:07d}" for i in range(m)]

    def listed(m: int) -> dict:
        return tool({"type": "object", "properties": {"a": {"type": "array", "items": {"enum": values(m)}}}})

    def value(m: int, last: str | None = None) -> dict:
        items = [f"v{m - 1 - (i % 100):07d}" for i in range(2000)]
        if last is not None:
            items[-1] = last
        return {"a": items}

    for last in (None, "not a value"):

        def call(m: int, last: str | None = last):  # type: ignore[no-untyped-def]
            t, v = listed(m), value(m, last)
            return lambda: ac.safe_validate_tool_input(t, v)

        assert_flat(call, 1250)
    t = listed(20000)
    assert ok(ac.validate_tool_input, t, value(20000)) == value(20000)
    assert fails("SCHEMA_MISMATCH", ac.validate_tool_input, t, value(20000, "x")).issues[0]["path"] == "/a/1999"


def test_values_other_than_strings_under_a_large_enum_are_found_by_their_hash() -> None:
    """65,000 numbers against 20,000 numbers compared one by one took 6.5 s (0.39 MB). With the
    enum 16x larger and the same input, the time barely grows, valid or with a last item that is
    no value; equal as JSON Schema compares (2.0 is 2, -0 is 0, members in any order)."""

    def listed(m: int) -> dict:
        enum = [i * 2 for i in range(m)] + [{"k": [1, 2]}]
        return tool({"type": "object", "properties": {"a": {"type": "array", "items": {"enum": enum}}}})

    def text(m: int, last: int | None = None) -> str:
        items = [2 * (m - 1 - (i % 100)) for i in range(2000)]
        if last is not None:
            items[-1] = last
        return json.dumps({"a": items})

    for last in (None, -1):

        def call(m: int, last: int | None = last):  # type: ignore[no-untyped-def]
            t, v = listed(m), text(m, last)
            return lambda: ac.safe_validate_tool_input_json(t, v)

        assert_flat(call, 1250)
    t = listed(20000)
    found = ok(ac.validate_tool_input_json, t, '{"a":[2.0,-0,39998,{"k":[1,2.0]}]}')
    assert found == {"a": [2.0, 0, 39998, {"k": [1, 2.0]}]}
    assert fails("SCHEMA_MISMATCH", ac.validate_tool_input_json, t, text(20000, 1)).issues[0]["path"] == "/a/1999"


def test_a_failed_enum_has_its_words_made_once_and_at_most_256_bytes() -> None:
    """100 strings failing under an enum of 20,000 values took 1.45 s and left the instance at
    154 MiB for a 1 KB input: each issue quoted every value (220 KB). The time barely grows with
    the enum, and the message is cut with an ellipsis."""

    def listed(m: int) -> dict:
        return tool({"type": "object", "properties": {"a": {"type": "array", "items": {"enum": [f"value-number-{i}" for i in range(m)]}}}})

    text = json.dumps({"a": [f"nope{i}" for i in range(100)]})

    def call(m: int):  # type: ignore[no-untyped-def]
        t = listed(m)
        return lambda: ac.safe_validate_tool_input_json(t, text)

    assert_flat(call, 1250)
    error = fails("SCHEMA_MISMATCH", ac.validate_tool_input_json, listed(20000), text)
    assert len(error.issues) == 100
    for issue in error.issues:
        assert issue["keyword"] == "enum"
        assert issue["message"].startswith("value must be one of 'value-number-0', 'value-number-1', ")
        assert issue["message"].endswith("…") and len(issue["message"].encode()) <= 256 + 3
    short = fails("SCHEMA_MISMATCH", ac.validate_tool_input_json, listed(2), '{"a":["z"]}')
    assert short.issues[0]["message"] == "value must be one of 'value-number-0', 'value-number-1'"


def test_a_schema_that_multiplies_the_work_on_every_value_stops_at_the_engines_budget() -> None:
    """An anyOf of 300 branches over 65,000 items took 2.8 s (0.38 MB), 300 uniqueItems on them
    1.2 s, 300 allOf branches tracking unevaluatedProperties of 60,000 members 8.4 s. The engine
    counts its evaluations (and the work proportional to a value each does) against a budget,
    2,500,000 below 500,000 values: 300 evaluations per item pass 8,333 items, not 8,334."""
    any_of = [{"type": "string"}] * 298 + [{"type": "number"}]
    t = tool({"type": "object", "properties": {"a": {"type": "array", "items": {"anyOf": any_of}}}})

    def numbers(n: int) -> dict:
        return {"a": list(range(n))}

    assert ok(ac.validate_tool_input, t, numbers(8333)) == numbers(8333)
    assert ok(ac.validate_tool_input_json, t, json.dumps(numbers(8333))) == numbers(8333)
    for fn, given in ((ac.validate_tool_input, numbers(8334)), (ac.validate_tool_input_json, json.dumps(numbers(8334)))):
        refused = fails("INPUT_TOO_LARGE", fn, t, given)
        assert (refused.path, refused.message) == ("", "validating this input against its schema takes more than 2500000 evaluations")
    member_names = {f"k{i}": i for i in range(60000)}
    heavy = [
        (t, numbers(65000)),
        (tool({"type": "object", "properties": {"a": {"allOf": [{"uniqueItems": True}] * 300}}}), numbers(65000)),
        (tool({"type": "object", "properties": {"a": {"allOf": [{"minProperties": 1}] * 300, "unevaluatedProperties": True}}}), {"a": member_names}),
        (tool({"type": "object", "patternProperties": {f"^p{i}_[a-z]+$": {"type": "string"} for i in range(300)}}), dict(list(member_names.items())[:50000])),
    ]
    for heavy_tool, value in heavy:
        assert fails("INPUT_TOO_LARGE", ac.validate_tool_input_json, heavy_tool, json.dumps(value)).path == ""

    def call(n: int):  # type: ignore[no-untyped-def]
        given = json.dumps(numbers(n))
        return lambda: ac.safe_validate_tool_input_json(t, given)

    # Below the budget the time grows with the input; past it, it stops growing.
    assert_linear(call, 500)
    # The inputs of one call share one budget: 65,000 small items, each within a budget of its
    # own, took 3.75 s in Node (0.77 MB). The first ~8,300 pass, every later one is refused.
    each = tool({"type": "object", "properties": {"a": {"anyOf": any_of}}})
    outcomes = ok(ac.validate_tool_inputs, each, [{"a": i} for i in range(65000)])
    first = next(i for i, o in enumerate(outcomes) if not o["ok"])
    assert 8000 <= first <= 8333 and all(o["ok"] for o in outcomes[:first])
    for o in outcomes[first:]:
        assert (o["error"].code, o["error"].path, o["error"].message) == (
            "INPUT_TOO_LARGE",
            "",
            "validating the inputs of this call against their schemas takes more than 2500000 evaluations",
        )


def test_format_regex_parses_each_value_once_up_to_the_64_kb_of_a_pattern() -> None:
    """1.35 MB of \\d\\w\\s took 3.3 s (each \\s rewritten into a class of ten characters and parsed
    again), and a 1 MB value left the instance at 85 MB (its syntax tree). Sixteen values of 64 KB
    are valid; one byte more is no pattern the core takes."""
    t = ac.define_tool(
        {"name": "t", "description": "d", "permission": "read", "inputSchema": {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string", "format": "regex"}}}}},
        {"formats": "assert"},
    )
    pattern = "\\d\\w\\s[^\\s\\W]" * 5041 + "\\da"
    assert len(pattern) == 65536
    value = {"a": [pattern] * 16}
    assert ok(ac.validate_tool_input, t, value) == value
    value["a"][15] += "x"
    error = fails("SCHEMA_MISMATCH", ac.validate_tool_input, t, value)
    assert [(i["path"], i["keyword"]) for i in error.issues] == [("/a/15", "format")]
    assert "longer than 65536 bytes, the most a pattern may have" in error.issues[0]["message"]


def test_n4_schema_mismatch_lists_max_issues_and_says_it_was_cut() -> None:
    t = tool({"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/n"}}}})
    # 2,000 nested arrays (34 KB): 16,000 failures, cut to 100.
    text = json.dumps({"a": [[[[[[[[]]]]]]]] * 2000})
    error = fails("SCHEMA_MISMATCH", ac.validate_tool_input_json, t, text)
    assert (error.code, error.path, error.truncated) == ("SCHEMA_MISMATCH", "", True)
    assert 1 <= len(error.issues) <= 100
    # A 1 MB input of this shape (60,000 of them, ~510,000 arrays failing everywhere) took seconds:
    # as text and as a value, under 1 s.
    wide = {"a": [[[[[[[[[]]]]]]]] for _ in range(60000)]}
    for fn, arg in ((ac.validate_tool_input_json, json.dumps(wide)), (ac.validate_tool_input, wide)):
        big = fails("SCHEMA_MISMATCH", fn, t, arg)
        assert (big.code, big.path, big.truncated) == ("SCHEMA_MISMATCH", "", True)
    small = tool({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}})
    cut = fails("SCHEMA_MISMATCH", ac.validate_tool_input, small, {"a": 1, "b": 2}, {"maxIssues": 1})
    assert ([i["path"] for i in cut.issues], cut.truncated) == (["/a"], True)
    whole = fails("SCHEMA_MISMATCH", ac.validate_tool_input, small, {"a": 1, "b": 2})
    assert (len(whole.issues), whole.truncated) == (2, False)

    # Failing everywhere, as text: the time grows with the text, not with the failures found.
    def failing(n: int):  # type: ignore[no-untyped-def]
        text = json.dumps({"a": [[[[[[[[[]]]]]]]] for _ in range(n)]})
        return lambda: ac.validate_tool_input_json(t, text)

    assert_linear(failing, 3000)


def test_n5_blank_lines_past_max_array_length_are_one_error() -> None:
    error = fails("INPUT_TOO_LARGE", ac.parse_agent_actions_jsonl, "\n" * 1_000_000)
    assert (error.code, error.path) == ("INPUT_TOO_LARGE", "")
    # Within the cap every blank line is its own error: linear in the core, one ContractError
    # per line in the host, so no absolute bound even in the benchmark; its growth is linear.
    result = ok(ac.parse_agent_actions_jsonl, "\n" * 65536, seconds=float("inf"))
    assert len(result) == 65536
    assert (result[-1]["ok"], result[-1]["error"].code) == (False, "JSON_INVALID")

    def blank(n: int):  # type: ignore[no-untyped-def]
        text = "\n" * n
        return lambda: ac.parse_agent_actions_jsonl(text)

    assert_linear(blank, 4096)


@pytest.mark.parametrize("n", [65536])
def test_unique_items_on_65536_objects(n: int) -> None:
    t = tool({"type": "object", "properties": {"a": {"type": "array", "uniqueItems": True}}})
    value = {"a": [{"x": i} for i in range(n)]}
    assert ok(ac.validate_tool_input, t, value) == value

    def unique(k: int):  # type: ignore[no-untyped-def]
        items = {"a": [{"x": i} for i in range(k)]}
        return lambda: ac.validate_tool_input(t, items)

    assert_linear(unique, n // 8)


def test_a_schemas_patterns_are_rewritten_in_one_pass_and_measured_together() -> None:
    # cargo fuzz's input (tests/fuzz_inputs/): operation byte 1 (define_tool), then the
    # definition. 135 \d in a 12 KB pattern were 135 parses of it (2.5 s natively, fuzz build).
    found = (Path(__file__).parents[2] / "tests" / "fuzz_inputs" / "host_text-slow-25ba6fee").read_bytes()
    assert found[0] == 1
    defined = ok(ac.define_tool, json.loads(found[1:]))
    assert defined["name"] == "t"
    # 2,000 copies of \p{L}{3} (100 KB) took 1.9 s and 330 MB natively to compile: the first
    # pattern past the definition's budget is named (the walk takes the last property first).
    many = {f"p{i}": {"type": "string", "pattern": "\\p{L}{3}"} for i in range(2000)}
    error = fails("TOOL_SCHEMA_UNSUPPORTED", tool, {"type": "object", "properties": many})
    assert (error.code, error.path) == ("TOOL_SCHEMA_UNSUPPORTED", "/inputSchema/properties/p1943/pattern")
    # One pattern of 100,000 \p{L} (600 KB): 1.1 s and 590 MB natively, its syntax tree alone.
    long = {"type": "object", "properties": {"x": {"type": "string", "pattern": "\\p{L}" * 100_000}}}
    too_long = fails("TOOL_SCHEMA_UNSUPPORTED", tool, long)
    assert (too_long.code, too_long.path) == ("TOOL_SCHEMA_UNSUPPORTED", "/inputSchema/properties/x/pattern")
    # Patterns that fill most of the budget compile, and validate, within the bound.
    alternatives = "|".join(f"w{j}x" for j in range(9000))
    big = ok(tool, {"type": "object", "properties": {"a": {"type": "string", "pattern": f"^(?:{alternatives})$"}}})
    assert ok(ac.validate_tool_input, big, {"a": "w8999x"}) == {"a": "w8999x"}
    mismatch = fails("SCHEMA_MISMATCH", ac.validate_tool_input, big, {"a": "w9000x"})
    assert (mismatch.code, mismatch.issues[0]["keyword"]) == ("SCHEMA_MISMATCH", "pattern")


def test_the_patterns_of_a_registrys_definitions_share_one_budget() -> None:
    """100 tools of 200 bytes, each with a distinct pattern of 150 letters of any script (~3.5 MiB
    of automata, within a definition's 4 MiB): with a budget each, 21 s and 700 MB in Node. They
    share 12 MiB (16 bytes per byte of their schemas when that is more): the fourth is refused."""

    def costly(n: int) -> list:
        return [
            {"name": f"t{i}", "description": "d", "permission": "read",
             "inputSchema": {"type": "object", "properties": {"s": {"type": "string", "pattern": "^\\p{L}{150}" + "b" * i + "$"}}}}
            for i in range(n)
        ]

    refused = fails("TOOL_SCHEMA_UNSUPPORTED", ac.create_registry, costly(100))
    assert refused.path == "/3/inputSchema/properties/s/pattern"
    assert refused.message.startswith("the regular expressions of the definitions in this call need more than 12.0 MiB")
    # Whatever the cache holds: each tool defined alone first (each within its own budget).
    for t in costly(4):
        ok(ac.define_tool, t)
    assert fails("TOOL_SCHEMA_UNSUPPORTED", ac.create_registry, costly(4)).path == refused.path
    assert fails("TOOL_SCHEMA_UNSUPPORTED", ac.catalog, {"tools": costly(4)}).path == "/tools/3/inputSchema/properties/s/pattern"
    # Ordinary patterns: 1,000 tools, each a distinct short one, compile.
    short = [
        {"name": f"t{i}", "description": "d", "permission": "read",
         "inputSchema": {"type": "object", "properties": {"s": {"type": "string", "pattern": f"^[a-z0-9_-]{{1,64}}{i}$"}}}}
        for i in range(1000)
    ]
    assert len(ok(ac.create_registry, short)["tools"]) == 1000
    # One ordinary pattern in 6,000 distinct schemas (0.95 MB): compiled and paid for once, where
    # each schema paying for its own copy was refused past ~1,100 tools.
    sharing = [
        {"name": f"t{i}", "description": "d", "permission": "read",
         "inputSchema": {"type": "object", "properties": {f"s{i}": {"type": "string", "pattern": "^[a-z0-9_-]{1,64}$"}}}}
        for i in range(6000)
    ]
    assert len(ok(ac.create_registry, sharing)["tools"]) == 6000


def test_a_registry_of_a_megabyte_of_distinct_definitions_answers_within_a_second() -> None:
    """10,000 tools of ~100 bytes, each schema distinct, so the compile cache serves none: each
    is compiled once and held (a registry that compiled each twice took 1.4-1.5 s per MB in Node
    and its instance to 78 MB)."""
    tools = [
        {"name": f"t{i}", "description": "d", "permission": "read", "inputSchema": {"type": "object", "required": [str(i)]}}
        for i in range(10000)
    ]
    mb = len(json.dumps(tools, separators=(",", ":"))) / 1e6
    registry = ok(ac.create_registry, tools, seconds=mb)
    assert len(registry["tools"]) == 10000
    assert len(ok(ac.to_openai_tools, registry, seconds=mb)) == 10000


def test_the_schema_cache_is_bounded_by_what_it_holds() -> None:
    # 300 distinct schemas of 200 empty properties: ~1.4 KB of text, ~300 KB compiled in wasm.
    # Bounded by its keys' text, the cache kept enough of them to pass 64 MiB (the Node fuzzer
    # found it); counted by compiled subschemas, within the bound.
    for k in range(300):
        props = {f"p{i}": {} for i in range(200)} | {f"k{k}": {}}
        schema = {"type": "object", "properties": props}
        definition = {"name": "t", "description": "d", "permission": "read", "inputSchema": schema}
        assert ok(ac.validate_tool_input, definition, {"p1": 1}, seconds=float("inf")) == {"p1": 1}


def test_batches_at_the_default_limits_stay_under_the_memory_bound() -> None:
    # 65,535 failed items each: built as one tree, their replies took the instance past 64 MiB
    # (the Node fuzzer's 10^6 run); written item by item, within the bound.
    t = tool({"type": "object"})
    for call in [
        lambda: ac.parse_agent_actions_jsonl("\n" * 65535),
        lambda: ac.parse_agent_actions([{}] * 65535),
        lambda: ac.validate_tool_inputs(t, [1] * 65535),
    ]:
        result = ok(call, seconds=float("inf"))
        assert len(result) == 65535
        assert result[-1]["ok"] is False
    # A megabyte of blank lines is a million NDJSON frames: it crosses in slices, and a line
    # repeated is one run of the reply (wire::FrameWriter). Not timed: 0.37-0.43 s on the
    # machine of docs/fuzzing.md's flood table, most of it making a million dicts (2.3 s as
    # objects, 0.75 s as rows), which a shared CI machine several times slower takes past 1 s.
    with ac.create_ndjson_decoder() as decoder:
        frames = ok(decoder.push, "\n" * (1 << 20), seconds=float("inf"))
    assert len(frames) == 1 << 20
    assert (frames[0]["code"], frames[-1]["line"]) == ("RPC_BLANK_LINE", 1 << 20)
    # check_stdout_purity gathered a chunk's frames in a list first: a megabyte of blank lines
    # took the instance to 284 MB (the Node fuzzer's line floods). Now each is counted as it comes.
    purity = ok(ac.check_stdout_purity, b"\n" * (1 << 20))
    assert (purity["pure"], purity["frames"], purity["problemCount"], len(purity["problems"]), purity["truncated"]) == (
        False,
        0,
        1 << 20,
        1000,
        True,
    )

    def flood(n: int):  # type: ignore[no-untyped-def]
        data = b"\n" * n
        return lambda: ac.check_stdout_purity(data)

    assert_linear(flood, 1 << 18)


def test_a_json_rpc_batch_past_max_batch_length_is_one_error_at_once() -> None:
    # 65,536 elements (within maxArrayLength) made an item and a reply each: 160-198 MB of wasm
    # memory and ~0.7 s in Python for 131 KB. Now one invalid request for the whole batch.
    ones = [1] * 65536
    for fn, arg in [(ac.classify_json_rpc, ones), (ac.classify_json_rpc_json, json.dumps(ones))]:
        result = ok(fn, arg)
        assert (result["kind"], result["code"], result["path"], result["reason"]) == (
            "invalid_request",
            "RPC_MESSAGE_TOO_LARGE",
            "",
            "a batch of 65536 messages is over maxBatchLength (1024)",
        )
    with ac.create_ndjson_decoder() as decoder:
        frames = ok(decoder.push, (json.dumps(ones) + "\n") * 8)
    assert [f["code"] for f in frames] == ["RPC_MESSAGE_TOO_LARGE"] * 8


def test_a_schemas_objects_and_arrays_are_counted_before_the_engine_holds_them() -> None:
    # Nested one-member objects in `examples`: the engine's tree of the document took ~600 bytes
    # each (1.1 MB of text: 125 MB of wasm memory). Past the count the definition is refused at
    # once; at the count it is compiled within the bound.
    def chain(n: int) -> dict:
        v: dict = {}
        for _ in range(n - 1):
            v = {"a": v}
        return v

    def examples(total: int) -> list:
        k, rest = divmod(total - 2, 100)
        return [chain(100) for _ in range(k)] + ([chain(rest)] if rest else [])

    refused = fails("TOOL_SCHEMA_UNSUPPORTED", tool, {"type": "object", "examples": [chain(100)] * 1850})
    assert refused.path == "/inputSchema"
    fails("TOOL_SCHEMA_UNSUPPORTED", tool, {"type": "object", "examples": examples(16385)})
    defined = ok(tool, {"type": "object", "examples": examples(16384)})
    assert ok(ac.validate_tool_input, defined, {"a": 1}) == {"a": 1}


def test_an_input_the_engine_checks_holds_at_most_80000_objects() -> None:
    # A megabyte of nested one-member objects: the engine's own tree of it took 98 MB. Refused
    # before it is built; at the count the engine checks it within the bound.
    def chain(n: int) -> dict:
        v: dict = {"b": 1}
        for _ in range(n - 1):
            v = {"a": v}
        return v

    engine = tool({"type": "object", "additionalProperties": {"not": {"type": "string"}}, "properties": {"x": {"uniqueItems": True}}})
    refused = fails("INPUT_TOO_LARGE", ac.validate_tool_input, engine, {"x": [chain(60) for _ in range(2800)]})
    assert refused.path == ""
    at_count = {"x": [chain(60) for _ in range(1092)] + [chain(15)]}
    assert fails("SCHEMA_MISMATCH", ac.validate_tool_input, engine, at_count).truncated
    # A schema whose program proves the input valid builds no tree: the same input passes.
    assert ok(ac.validate_tool_input, tool({"type": "object"}), at_count) == at_count
