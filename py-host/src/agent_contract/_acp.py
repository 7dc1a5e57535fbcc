"""ACP prompt admission and lifecycle: translation only, every verdict is the
core's. `admit_prompt` sends the request as host text; on success the core's reply carries each
payload's canonical base64 text (the core decoded and hashed it; crossing the bytes themselves
as a `list<u8>` would cost wasmtime-py one conversion per byte), decoded here with the C
`base64` decoder (see docs/decisions.md, "ACP prompt admission"). `PromptLifecycle` wraps the
core's `prompt-lifecycle` resource like the assemblers wrap theirs.
"""

from __future__ import annotations

import binascii
import threading
import weakref
from typing import Any, Optional

from . import _runtime
from ._host_text import DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, MAX_BYTES_CEILING, write
from ._text import carried
from ._types import AdmissionOptions, AdmissionPlan, Outcome, PromptCapabilities, StopReason

# Bytes `sniff_media_type` sends: every signature is shorter.
_SNIFF_BYTES = 64
_BYTES_LIKE = (bytes, bytearray, memoryview)


def _helpers() -> tuple[Any, Any, Any, Any]:
    from . import _config, _options_text, _reply, _unwrap

    return _config, _options_text, _reply, _unwrap


def admit_prompt(
    request: Any, capabilities: Optional[PromptCapabilities], options: Optional[AdmissionOptions] = None
) -> AdmissionPlan:
    """The pure first pass of an ACP `session/prompt` (its params `{sessionId, prompt}`): the
    plan `{sessionId, text, images, audio, resources}`, entries with a `sha256` holding their
    decoded `bytes`; or raises ContractError (admission layer, paths into the request)."""
    _config, _options_text, _reply, _unwrap = _helpers()
    # Written up to the ceiling: the core judges the request by the admission limits.
    text = write(request, DEFAULT_MAX_DEPTH, MAX_BYTES_CEILING)
    reply = _reply(_runtime.call_args("admit-prompt", (text, _config(capabilities), _options_text(options))))
    plan: AdmissionPlan = _unwrap(reply)
    payloads = iter(reply["payloads"])
    for key in ("images", "audio", "resources"):
        for entry in plan[key]:  # type: ignore[literal-required]
            if "sha256" in entry:
                # The core verified the text is canonical base64 of exactly these bytes.
                entry["bytes"] = binascii.a2b_base64(next(payloads), strict_mode=True)
    return plan


def safe_admit_prompt(
    request: Any, capabilities: Optional[PromptCapabilities], options: Optional[AdmissionOptions] = None
) -> Outcome[AdmissionPlan]:
    from . import ContractError

    try:
        return {"ok": True, "value": admit_prompt(request, capabilities, options)}
    except ContractError as error:
        return {"ok": False, "error": error}


def is_canonical_base64(text: Any) -> bool:
    """Canonical RFC 4648 base64 (standard alphabet, padding, zero pad bits, nothing else);
    False for anything that is not a str."""
    if type(text) is str:
        try:
            # The string itself, in one copy (no host text to write and parse).
            verdict: bool = _runtime.call("is-canonical-base64-text", text)
            return verdict
        except UnicodeEncodeError:
            pass  # lone surrogates: not a WIT string; the core reads its host text instead
    result: bool = _runtime.call("is-canonical-base64", write(text, 0, MAX_BYTES_CEILING))
    return result


def sniff_media_type(data: Any) -> Optional[str]:
    """The media type whose WHATWG MIME Sniffing signature `data` (bytes-like) starts with, or
    None; raises ContractError FIELD_TYPE for anything that is not bytes."""
    _config, _options_text, _reply, _unwrap = _helpers()
    head: Optional[bytes] = None
    t = type(data)
    try:
        if issubclass(t, _BYTES_LIKE):
            with memoryview(data) as view, view.cast("B") as flat:
                head = flat[:_SNIFF_BYTES].tobytes()
    except Exception:
        head = None
    if head is None:
        return _unwrap(_reply(_runtime.call("not-bytes", write(data, 0, DEFAULT_MAX_BYTES))))  # type: ignore[no-any-return]
    result: Optional[str] = _unwrap(_reply(_runtime.call("sniff-media-type", carried(head))))
    return result


def advertise_prompt_capabilities(facts: Any) -> PromptCapabilities:
    """`promptCapabilities` for `initialize`: each true only when every fact behind it is known
    true (`attachmentStore`, `providerResolved`, `modelResolved`, `inputModalities`,
    `storeMimeTypes`, `embeddedContext`)."""
    _config, _options_text, _reply, _unwrap = _helpers()
    result: PromptCapabilities = _unwrap(_reply(_runtime.call("advertise-prompt-capabilities", _config(facts))))
    return result


class PromptLifecycle:
    """One ACP session's prompt lifecycle: the cancel fence and settlement after quiescence,
    decided by the core's state machine (its resource lives in this thread's instance, so use it
    from the thread that created it). `close()` or `with` frees it at once."""

    def __init__(self) -> None:
        self._thread = threading.get_ident()
        self._instance = _runtime.assembler_instance()
        self._resource = self._instance.resource_new("prompt-lifecycle")
        self._finalizer: Optional[weakref.finalize] = weakref.finalize(
            self, self._instance.pending_drops.append, self._resource
        )

    def _call(self, name: str, arg: str = "") -> Any:
        _config, _options_text, _reply, _unwrap = _helpers()
        if self._finalizer is None:
            raise RuntimeError("this lifecycle is closed")
        if threading.get_ident() != self._thread:
            raise RuntimeError("a lifecycle must be used from the thread that created it")
        return _unwrap(_reply(self._instance.resource_call("prompt-lifecycle", "call", self._resource, name, arg)))

    def admitted(self) -> None:
        """A prompt passed admit_prompt: it is in flight (PROMPT_IN_FLIGHT while another is)."""
        self._call("admitted")

    def written(self) -> None:
        """Its attachments are written (optional, before enqueue())."""
        self._call("written")

    def enqueue(self) -> None:
        """The final cancel check and the hand-over to the agent: raises PROMPT_CANCELLED after
        cancel(), and nothing may be queued then."""
        self._call("enqueue")

    def cancel(self) -> bool:
        """session/cancel: whether the agent must be cancelled (only when the message was enqueued)."""
        result: bool = self._call("cancel")
        return result

    def agent_idle(self) -> None:
        self._call("agentIdle")

    def output_delivered(self) -> None:
        self._call("outputDelivered")

    def settle(self, reason: Optional[str] = None) -> StopReason:
        """The stop reason once admission, the agent and the output are quiet ("cancelled" after
        cancel(), else `reason`, default "end_turn"); PROMPT_NOT_QUIESCENT before."""
        result: StopReason = self._call("settle", "" if reason is None else write(reason, 0, DEFAULT_MAX_BYTES))
        return result

    def abandon(self) -> None:
        """Ends a prompt whose admission failed after admitted() (before enqueue())."""
        self._call("abandon")

    def close(self) -> None:
        """Frees the lifecycle in the core now. Idempotent."""
        if self._finalizer is None:
            return
        self._finalizer.detach()
        self._finalizer = None
        if threading.get_ident() == self._thread:
            self._instance.drop_resource(self._resource)
        else:
            self._instance.pending_drops.append(self._resource)

    def __enter__(self) -> PromptLifecycle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def create_prompt_lifecycle() -> PromptLifecycle:
    """The JS `createPromptLifecycle` twin."""
    return PromptLifecycle()
