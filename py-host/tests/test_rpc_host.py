"""JSON-RPC over NDJSON from the Python host: what the fixtures cannot say (real exceptions
and ContractErrors, closing, chunks that are not text)."""

from __future__ import annotations

import pytest

import agent_contract as ac

REQUEST = {"jsonrpc": "2.0", "id": 7, "method": "session/prompt", "params": {}}


def test_internal_error_takes_an_exception_message_never_a_traceback() -> None:
    try:
        raise RuntimeError("database unavailable")
    except RuntimeError as e:
        error = e
    assert error.__traceback__ is not None
    assert ac.internal_error(REQUEST, error) == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32603, "message": "database unavailable"},
    }
    # Not one str argument: the core's default message, no str() of the caller's object run.
    assert ac.internal_error(REQUEST, ValueError("a", 1))["error"]["message"] == "Internal error"
    assert ac.internal_error({"jsonrpc": "2.0", "method": "n"}, error) is None


def test_invalid_params_maps_a_contract_error() -> None:
    with pytest.raises(ac.ContractError) as caught:
        ac.parse_agent_action({"type": "message"})
    reply = ac.invalid_params(REQUEST, caught.value)
    assert reply is not None
    assert reply["error"] == {
        "code": -32602,
        "message": "Invalid params",
        "data": {"code": caught.value.code, "path": caught.value.path},
    }
    assert ac.internal_error(REQUEST, caught.value)["error"]["message"] == caught.value.message


def test_decoder_errors_and_closing() -> None:
    with pytest.raises(ac.ContractError) as e:
        ac.NdjsonDecoder({"onMalformed": "throw"})
    assert (e.value.code, e.value.path) == ("OPTION_INVALID", "/onMalformed")
    decoder = ac.create_ndjson_decoder()
    with pytest.raises(ac.ContractError) as e:
        decoder.push(42)  # type: ignore[arg-type]
    assert e.value.code == "JSON_INVALID"
    assert decoder.push(memoryview(b'{"jsonrpc":"2.0","method":"a"}\n'))[0]["kind"] == "notification"
    decoder.close()
    with pytest.raises(ac.ContractError) as e:
        decoder.push("x")
    assert e.value.code == "OBJECT_FREED"
    with pytest.raises(ac.ContractError) as e:
        ac.check_stdout_purity(["ok\n", 5])  # type: ignore[list-item]
    assert (e.value.code, e.value.path) == ("JSON_INVALID", "/1")


def test_a_session_follows_ids_both_ways() -> None:
    with ac.create_rpc_session() as s:
        assert s.outgoing({"jsonrpc": "2.0", "id": 1, "method": "initialize"})["problems"] == []
        assert s.incoming({"jsonrpc": "2.0", "id": 1, "result": {}})["problems"] == []
        again = s.incoming({"jsonrpc": "2.0", "id": 1, "result": {}})
        assert [p["code"] for p in again["problems"]] == ["RPC_ALREADY_ANSWERED"]
