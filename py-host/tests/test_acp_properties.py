"""ACP admission and lifecycle under hypothesis (and exhaustively): every interleaving of
lifecycle calls up to four, and random longer ones, keep the seed's invariants; canonical
base64 agrees with Python's decode-and-re-encode; admitted payloads are the sent bytes with
hashlib's SHA-256; hostile values give a plan or a ContractError."""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import agent_contract as ac
from test_properties import SETTINGS, values

CALLS = ["admitted", "written", "enqueue", "cancel", "agent_idle", "output_delivered", "settle", "abandon"]


def outcome(call: Any) -> dict[str, Any]:
    try:
        return {"ok": True, "value": call()}
    except ac.ContractError as e:
        return {"ok": False, "error": e}


def check_sequence(seq: list[int]) -> None:
    """`seq` indexes CALLS; each outcome is checked against the log of the prompt in flight (the
    calls that succeeded since its admitted(); "enqueue!" a queued message, "enqueue" one
    refused after a cancel)."""
    log: list[str] | None = None
    with ac.create_prompt_lifecycle() as lifecycle:
        for i in seq:
            call = CALLS[i]
            out = outcome(getattr(lifecycle, call))
            where = [CALLS[k] for k in seq]
            has = lambda name: log is not None and name in log  # noqa: E731
            pos = lambda name: log.index(name) if log is not None and name in log else -1  # noqa: E731
            if call == "admitted":
                assert out["ok"] == (log is None), where
                if not out["ok"]:
                    assert out["error"].code == "PROMPT_IN_FLIGHT"
            elif call == "enqueue":
                if has("cancel"):
                    assert not out["ok"], f"queued after cancel: {where}"
                if out["ok"]:
                    assert log is not None and not has("enqueue") and not has("enqueue!"), where
                if has("cancel") and not has("enqueue") and not has("enqueue!"):
                    assert out["error"].code == "PROMPT_CANCELLED", where
            elif call == "cancel":
                assert out["value"] is (log is not None and has("enqueue!") and not has("cancel") and not has("agent_idle")), where
            elif call == "settle":
                queued = max(pos("enqueue"), pos("enqueue!"))
                quiet = queued >= 0 and pos("agent_idle") > queued and pos("output_delivered") > pos("agent_idle")
                assert out["ok"] == (log is not None and quiet), where
                if out["ok"]:
                    assert out["value"] == ("cancelled" if has("cancel") else "end_turn"), where
            if call == "admitted" and out["ok"]:
                log = []
            elif call in ("settle", "abandon") and out["ok"]:
                log = None
            elif call == "enqueue" and out["ok"]:
                assert log is not None
                log.append("enqueue!")
            elif call == "enqueue" and out["error"].code == "PROMPT_CANCELLED":
                assert log is not None
                log.append("enqueue")
            elif call == "cancel":
                if log is not None and "cancel" not in log:
                    log.append("cancel")
            elif out["ok"] and log is not None and call not in log:
                log.append(call)


def test_lifecycle_every_interleaving() -> None:
    count = 0
    for length in range(1, 5):
        for seq in itertools.product(range(8), repeat=length):
            check_sequence(list(seq))
            count += 1
    assert count == 8 + 64 + 512 + 4096


@settings(max_examples=500, **SETTINGS)
@given(st.lists(st.integers(0, 7), max_size=40))
def test_lifecycle_long_sessions(seq: list[int]) -> None:
    check_sequence(seq)


base64ish = st.lists(
    st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" * 2 + "==" + " \n-_é\ud800"),
    max_size=24,
).map("".join)


def oracle(text: str) -> bool:
    try:
        return base64.b64encode(base64.b64decode(text, validate=True)).decode() == text
    except (binascii.Error, ValueError):
        return False


@settings(max_examples=3000, **SETTINGS)
@given(base64ish)
def test_canonical_base64_agrees_with_reencoding(text: str) -> None:
    assert ac.is_canonical_base64(text) is oracle(text), repr(text)


@settings(max_examples=500, **SETTINGS)
@given(st.binary(max_size=64))
def test_any_bytes_encode_canonically(data: bytes) -> None:
    assert ac.is_canonical_base64(base64.b64encode(data).decode()) is True


SIGNATURES = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff", "image/gif": b"GIF87a"}


@settings(max_examples=200, **SETTINGS)
@given(st.lists(st.tuples(st.sampled_from(sorted(SIGNATURES)), st.binary(max_size=300)) | st.text(max_size=5), min_size=1, max_size=6))
def test_admitted_images_are_the_sent_bytes(items: list[Any]) -> None:
    blocks = [
        {"type": "text", "text": item + "."}
        if isinstance(item, str)
        else {"type": "image", "mimeType": item[0], "data": base64.b64encode(SIGNATURES[item[0]] + item[1]).decode()}
        for item in items
    ]
    plan = ac.admit_prompt({"sessionId": "s", "prompt": blocks}, {"image": True})
    sent = [(i, b) for i, b in enumerate(blocks) if b["type"] == "image"]
    assert len(plan["images"]) == len(sent)
    for image, (index, block) in zip(plan["images"], sent):
        assert image["index"] == index
        assert type(image["bytes"]) is bytes
        assert base64.b64encode(image["bytes"]).decode() == block["data"]
        assert image["byteLength"] == len(image["bytes"])
        assert image["sha256"] == hashlib.sha256(image["bytes"]).hexdigest()


block_like = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["text", "image", "audio", "resource", "resource_link", "video"]) | values,
        "text": st.text(max_size=5) | values,
        "data": st.sampled_from(["AQ==", "AB==", ""]) | values,
        "mimeType": st.sampled_from(["image/png", "image/bmp"]) | values,
        "uri": values,
        "name": values,
        "resource": values,
    },
)


@settings(max_examples=500, **SETTINGS)
@given(
    st.fixed_dictionaries({}, optional={"sessionId": st.text(max_size=4) | values, "prompt": st.lists(block_like, max_size=5) | values})
    | values,
    st.fixed_dictionaries({}, optional={"image": st.booleans(), "audio": st.booleans(), "embeddedContext": st.booleans()}) | values,
)
def test_any_request_gives_a_plan_or_a_contract_error(request: Any, caps: Any) -> None:
    a = outcome(lambda: ac.admit_prompt(request, caps))
    b = ac.safe_admit_prompt(request, caps)
    assert a["ok"] == b["ok"]
    if not a["ok"]:
        assert (a["error"].code, a["error"].path) == (b["error"].code, b["error"].path)
    assert type(ac.is_canonical_base64(request)) is bool
    outcome(lambda: ac.advertise_prompt_capabilities(caps))
    outcome(lambda: ac.sniff_media_type(request))
