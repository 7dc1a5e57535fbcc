"""Dataset rows and batches of sessions: thin calls into the core. A row (or a list of rows)
crosses as host text, a row's JSON text and a JSON Lines dataset as text (whole: `maxBytes`
bounds each row); every report is the core's. The batch entries take any iterable and cross
once per list, or per chunk of an iterator's items, so no rule and no count lives here."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from ._types import ChatRowLineReport, ChatRowOptions, ChatRowReport, SessionOptions, SessionReport

# Items of an iterator sent to the core per crossing: large enough that the crossing's cost
# vanishes beside the rows' checks, small enough that a stream of rows is never held whole.
_CHUNK = 1024


def _core() -> Any:
    """The package module, for its translation helpers (imported late: it imports this one)."""
    from importlib import import_module

    return import_module(__package__ or "agent_contract")


def _is_text(value: Any) -> bool:
    return issubclass(type(value), (str, bytes, bytearray, memoryview))


def check_chat_row(row: Any, options: Optional[ChatRowOptions] = None) -> ChatRowReport:
    """One row of the OpenAI chat fine-tuning format ({"messages", "tools"?,
    "parallel_tool_calls"?}) as {"ok", "problems": [{"code", "path", "message"}], "stats":
    {"messages", "toolCalls"}}: a dict, or the row's JSON text (str or bytes). Raises
    ContractError only for invalid options."""
    ac = _core()
    if _is_text(row):
        result: ChatRowReport = ac._unwrap(ac._call_text("check-chat-row-text", row, options, whole=True))
    else:
        result = ac._unwrap(ac._call_value("check-chat-row", row, options))
    return result


def check_chat_rows_jsonl(text: Any, options: Optional[ChatRowOptions] = None) -> list[ChatRowLineReport]:
    """One report per line of a JSON Lines dataset (str or bytes), each with its 1-based "line";
    a line that is not a row is reported in its report, never raised."""
    ac = _core()
    with ac._collector_paused():
        result: list[ChatRowLineReport] = ac._unwrap(ac._call_text("check-chat-rows-jsonl", text, options, whole=True))
    return result


def _items(values: Any, verdict: Any) -> Iterator[Any]:
    """The items of an iterable the caller gave (a generator, a file of lines, a tuple...). A
    value that is not iterable, or an iterator that raises, ends the batch with the core's
    verdict on it (`verdict`, which raises)."""
    try:
        iterator = iter(values)
    except Exception:
        verdict(values)
        return
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except Exception as error:
            verdict(error)
            return
        yield item


def check_chat_rows(rows: Any, options: Optional[ChatRowOptions] = None) -> list[ChatRowReport]:
    """One report per row of an iterable of rows (dicts, or a row's JSON text as str), the
    core compiled once per thread and each distinct tool schema once per crossing. A list
    crosses whole (`maxArrayLength` bounds it, as in every host); another iterable crosses in
    chunks of 1,024 rows, so a stream of rows is never held whole."""
    ac = _core()

    def whole(value: Any) -> list[ChatRowReport]:
        with ac._collector_paused():
            result: list[ChatRowReport] = ac._unwrap(ac._call_value("check-chat-rows", value, options, batch=True))
        return result

    if type(rows) is list or _is_text(rows) or issubclass(type(rows), dict) or not hasattr(type(rows), "__iter__"):
        # The core's verdict: a list's reports, or why anything else is not a list of rows.
        return whole(rows)
    reports: list[ChatRowReport] = []
    chunk: list[Any] = []
    for item in _items(rows, whole):
        chunk.append(item)
        if len(chunk) == _CHUNK:
            reports.extend(whole(chunk))
            chunk = []
    if chunk:
        reports.extend(whole(chunk))
    return reports


def check_sessions(texts: Any, options: Optional[SessionOptions] = None) -> list[SessionReport]:
    """check_session over an iterable of session texts (str or bytes; one text alone is one
    session), one report each, in one instance of the core per thread. Each session crosses on
    its own: a session is a whole file, whose text already crosses in one copy."""
    from ._session import check_session

    ac = _core()
    if _is_text(texts):
        return [check_session(texts, options)]
    if issubclass(type(texts), dict):
        ac._unwrap(ac._not_text(texts))  # iterable, but its keys are not session texts
    return [check_session(text, options) for text in _items(texts, lambda v: ac._unwrap(ac._not_text(v)))]
