"""decode_line / decode_obj / encode_line: the only way lines enter and leave the protocol layer."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import TypeAdapter
from pydantic_core import from_json

from .base import Tagged, attach_raw
from .builders import encode_line
from .control import ControlCancelRequest, ControlRequest, ControlResponse
from .lenient import LENIENT_FAILED, loads_lenient, scrub_surrogates
from .messages import (
    AssistantMessage,
    AuthStatus,
    InvalidLine,
    KeepAlive,
    RateLimitEvent,
    StreamEvent,
    ToolProgress,
    ToolUseSummary,
    UnknownMessage,
    UserMessage,
)
from .results import ResultMessage
from .system import System, SystemMessage

__all__ = ["Message", "MESSAGE_CLASSES", "decode_line", "decode_obj", "encode_line"]

MESSAGE_CLASSES: dict[str, Any] = {
    "system": System,
    "assistant": AssistantMessage,
    "user": UserMessage,
    "stream_event": StreamEvent,
    "result": ResultMessage,
    "control_request": ControlRequest,
    "control_response": ControlResponse,
    "control_cancel_request": ControlCancelRequest,
    "keep_alive": KeepAlive,
    "tool_progress": ToolProgress,
    "tool_use_summary": ToolUseSummary,
    "auth_status": AuthStatus,
    "rate_limit_event": RateLimitEvent,
}

Message = (
    SystemMessage | AssistantMessage | UserMessage | StreamEvent | ResultMessage | ControlRequest | ControlResponse
    | ControlCancelRequest | KeepAlive | ToolProgress | ToolUseSummary | AuthStatus | RateLimitEvent | UnknownMessage
    | InvalidLine
)

_TAGGED = Tagged("type", MESSAGE_CLASSES, UnknownMessage)
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Annotated[Message, _TAGGED])
_validate_python = _ADAPTER.validator.validate_python
# Hot path: the bare tagged union (no top-level fallback arm); misses go through decode_obj.
_FAST: TypeAdapter[Any] = TypeAdapter(_TAGGED.bare_type())
_validate_json = _FAST.validator.validate_json
_set = object.__setattr__


def _invalid(line: bytes | str, error: str) -> InvalidLine:
    text = line.decode("utf-8", "replace") if isinstance(line, (bytes, bytearray)) else scrub_surrogates(str(line))
    m = InvalidLine(text=text[:10_000], error=error)
    return attach_raw(m, {"text": m.text, "error": error})  # type: ignore[return-value]


def decode_line(line: bytes | str) -> Message:
    """Decode one NDJSON line. Never raises: bad JSON -> InvalidLine, unknown shapes -> Unknown*.

    Lenient on the slow path: lone surrogates and invalid UTF-8 become U+FFFD (the line is kept),
    and a known message with bad fields is that message without them (`lenient`)."""
    try:
        # Known line: parsed and validated in one Rust call (nested levels fall back to Unknown* there).
        m: Message = _validate_json(line)
    except ValueError:
        # Unknown type, malformed known type, not an object, or not JSON at all.
        try:
            obj = from_json(line)
        except (ValueError, TypeError) as exc:  # TypeError: a str holding lone surrogates
            obj = loads_lenient(line)
            if obj is LENIENT_FAILED:
                return _invalid(line, f"invalid JSON: {exc}")
        return decode_obj(obj)
    except Exception as exc:  # pragma: no cover - last line of defence
        return _invalid(line, f"decode failed: {exc!r}")
    _set(m, "__pydantic_private__", {"src": line})  # `.raw` parses it on first use
    return m


def decode_obj(obj: object) -> Message:
    """Decode an already parsed JSON value (e.g. a transcript record). Never raises."""
    if not isinstance(obj, dict):
        return _invalid(_dumps_safe(obj), f"expected a JSON object, got {type(obj).__name__}")
    try:
        m: Message = _validate_python(obj)
    except Exception as exc:  # pragma: no cover - Tagged always has a fallback
        return UnknownMessage.from_raw(obj, f"decode failed: {exc!r}")  # type: ignore[return-value]
    if m.__pydantic_private__ is None:
        attach_raw(m, obj)
    return m


def _dumps_safe(obj: object) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False, default=repr)
    except Exception:
        return repr(obj)


