"""Stream assembly (issue 4 §3): the core's `assembler` resource (a WIT resource of the
component; wasmtime-py 50 supports component resources), wrapped in a Python class.

The resource lives in the calling thread's instance (a wasmtime `Store` is single-threaded), so an
`Assembler` must be used from the thread that created it. `close()` (or `with`) drops the
resource at once; an assembler that is garbage-collected unclosed is queued and dropped by the
next assembler call on its thread, since a finalizer may run on any thread and must not touch
the store.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Optional

from . import _runtime
from ._host_text import DEFAULT_MAX_DEPTH, MAX_BYTES_CEILING, max_chars, write
from ._types import AssembledResponse, AssemblerOptions, AssemblerPreview


class Assembler:
    """Feeds normalized events (`{"type": "start" | "delta" | "end" | "finish" | "cancel", ...}`)
    one at a time; `finish()` returns `{"finishReason", "calls": [{"callId", "name",
    "arguments"}]}` or raises the ContractError that ended the stream."""

    def __init__(self, options: Optional[AssemblerOptions] = None) -> None:
        from . import _options_text, _reply, _unwrap

        self._reply, self._unwrap = _reply, _unwrap
        self._thread = threading.get_ident()
        self._instance = _runtime.assembler_instance()
        self._resource = self._instance.assembler_new(_options_text(options))
        self._finalizer: Optional[weakref.finalize] = weakref.finalize(
            self, self._instance.pending_drops.append, self._resource
        )
        try:
            self._unwrap(self._call("preview"))  # invalid options: raise now
        except BaseException:
            self.close()
            raise

    def _call(self, method: str, *args: Any) -> dict[str, Any]:
        if self._finalizer is None:
            raise RuntimeError("this assembler is closed")
        if threading.get_ident() != self._thread:
            raise RuntimeError("an Assembler must be used from the thread that created it")
        return self._reply(self._instance.assembler_call(method, self._resource, *args))

    def push(self, event: Any) -> None:
        """Applies one event; raises the ContractError that ends the stream (every later call
        raises it again)."""
        self._unwrap(self._call("push", write(event, DEFAULT_MAX_DEPTH, max_chars(MAX_BYTES_CEILING))))

    def preview(self) -> AssemblerPreview:
        """Arguments so far, for display only: `{"executable": False, "finishReason", "calls":
        [{"callId", "name", "argumentsText", "complete"}]}`."""
        result: AssemblerPreview = self._unwrap(self._call("preview"))
        return result

    def finish(self) -> AssembledResponse:
        """The normalized response, or raises ContractError (`INCOMPLETE_RESPONSE`, ...)."""
        result: AssembledResponse = self._unwrap(self._call("finish"))
        return result

    def close(self) -> None:
        """Frees the assembler's memory in the core now. Idempotent."""
        if self._finalizer is None:
            return
        self._finalizer.detach()
        self._finalizer = None
        if threading.get_ident() == self._thread:
            self._instance.drop_resource(self._resource)
        else:
            self._instance.pending_drops.append(self._resource)

    def __enter__(self) -> "Assembler":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def create_assembler(options: Optional[AssemblerOptions] = None) -> Assembler:
    """The JS `createAssembler` twin."""
    return Assembler(options)
