"""Pure data layer for the Claude Code stream-json protocol (no textual, no asyncio).

`decode_line`/`decode_obj` turn CLI output into typed models, `builders` makes what we send,
`tools` gives typed views of tool inputs/results, `sanitize.printable` makes text inert.

The names below load on first use (PEP 562): importing a light module of the package
(`sanitize`, `units`, `versions`) or the package itself no longer builds every pydantic model, which
kept the launcher from starting the CLI for ~70 ms (`transport/early.py`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import ProtoModel, UnknownBase, dropped_fields
    from .content import (
        ContentBlock,
        ImageBlock,
        RedactedThinkingBlock,
        TextBlock,
        ThinkingBlock,
        ToolResultBlock,
        ToolUseBlock,
        UnknownBlock,
        Usage,
    )
    from .control import (
        CanUseToolRequest,
        ControlCancelRequest,
        ControlRequest,
        ControlRequestBody,
        ControlResponse,
        ControlResponseBody,
        ElicitationRequest,
        HookCallbackRequest,
        InitializeResponse,
        PermissionSuggestion,
        UnknownControlRequest,
        UserDialogRequest,
    )
    from .decode import MESSAGE_CLASSES, Message, decode_line, decode_obj, encode_line
    from .messages import (
        SYNTHETIC_MODEL,
        AssistantMessage,
        AssistantPayload,
        AuthStatus,
        InvalidLine,
        KeepAlive,
        RateLimitEvent,
        RateLimitInfo,
        StreamEvent,
        ToolProgress,
        ToolResultMeta,
        ToolUseSummary,
        UnknownMessage,
        UserMessage,
        UserPayload,
    )
    from .results import RESULT_ERROR_SUBTYPES, ModelUsage, PermissionDenial, ResultMessage, ResultUsage
    from .stream import (
        CitationsDelta,
        ContentBlockDelta,
        ContentBlockStart,
        ContentBlockStop,
        Delta,
        Event,
        InputJsonDelta,
        MessageDelta,
        MessageStart,
        MessageStop,
        SignatureDelta,
        TextDelta,
        ThinkingDelta,
        UnknownDelta,
        UnknownEvent,
    )
    from .system import (
        SYSTEM_CLASSES,
        ApiRetry,
        BackgroundTask,
        BackgroundTasksChanged,
        CompactBoundary,
        CompactMetadata,
        FilesPersisted,
        HookProgress,
        HookResponse,
        HookStarted,
        SessionTitleChanged,
        SystemInit,
        SystemMessage,
        SystemStatus,
        TaskNotification,
        TaskProgress,
        TaskStarted,
        TaskUpdated,
        ThinkingTokens,
        UnknownSystem,
    )

_MODULES: dict[str, tuple[str, ...]] = {
    "base": (
        "ProtoModel", "UnknownBase", "dropped_fields"
    ),
    "content": (
        "ContentBlock", "ImageBlock", "RedactedThinkingBlock", "TextBlock", "ThinkingBlock", "ToolResultBlock",
        "ToolUseBlock", "UnknownBlock", "Usage"
    ),
    "control": (
        "CanUseToolRequest", "ControlCancelRequest", "ControlRequest", "ControlRequestBody", "ControlResponse",
        "ControlResponseBody", "ElicitationRequest", "HookCallbackRequest", "InitializeResponse",
        "PermissionSuggestion", "UnknownControlRequest", "UserDialogRequest"
    ),
    "decode": (
        "MESSAGE_CLASSES", "Message", "decode_line", "decode_obj", "encode_line"
    ),
    "messages": (
        "SYNTHETIC_MODEL", "AssistantMessage", "AssistantPayload", "AuthStatus", "InvalidLine", "KeepAlive",
        "RateLimitEvent", "RateLimitInfo", "StreamEvent", "ToolProgress", "ToolResultMeta", "ToolUseSummary",
        "UnknownMessage", "UserMessage", "UserPayload"
    ),
    "results": (
        "RESULT_ERROR_SUBTYPES", "ModelUsage", "PermissionDenial", "ResultMessage", "ResultUsage"
    ),
    "stream": (
        "CitationsDelta", "ContentBlockDelta", "ContentBlockStart", "ContentBlockStop", "Delta", "Event",
        "InputJsonDelta", "MessageDelta", "MessageStart", "MessageStop", "SignatureDelta", "TextDelta",
        "ThinkingDelta", "UnknownDelta", "UnknownEvent"
    ),
    "system": (
        "SYSTEM_CLASSES", "ApiRetry", "BackgroundTask", "BackgroundTasksChanged", "CompactBoundary",
        "CompactMetadata", "FilesPersisted", "HookProgress", "HookResponse", "HookStarted", "SessionTitleChanged",
        "SystemInit", "SystemMessage", "SystemStatus", "TaskNotification", "TaskProgress", "TaskStarted",
        "TaskUpdated", "ThinkingTokens", "UnknownSystem"
    ),
}
"""Each public name's module (`tests/unit/test_protocol_lazy.py` keeps this and the imports above equal)."""
_HOME = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: the next lookup does not come here
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


__all__ = [
    "dropped_fields",
    "ProtoModel", "UnknownBase", "ContentBlock", "ImageBlock", "RedactedThinkingBlock", "TextBlock", "ThinkingBlock",
    "ToolResultBlock", "ToolUseBlock", "UnknownBlock", "Usage", "CanUseToolRequest", "ControlCancelRequest",
    "ControlRequest", "ControlRequestBody", "ControlResponse", "ControlResponseBody", "HookCallbackRequest",
    "InitializeResponse", "ElicitationRequest", "UserDialogRequest",
    "PermissionSuggestion", "UnknownControlRequest", "MESSAGE_CLASSES", "Message", "decode_line", "decode_obj",
    "encode_line", "SYNTHETIC_MODEL", "AssistantMessage", "AssistantPayload", "AuthStatus", "InvalidLine",
    "KeepAlive", "RateLimitEvent", "RateLimitInfo", "StreamEvent", "ToolProgress", "ToolResultMeta", "ToolUseSummary",
    "UnknownMessage",
    "UserMessage",
    "UserPayload", "RESULT_ERROR_SUBTYPES", "ModelUsage", "PermissionDenial", "ResultMessage", "ResultUsage",
    "CitationsDelta", "ContentBlockDelta", "ContentBlockStart", "ContentBlockStop", "Delta", "Event",
    "InputJsonDelta", "MessageDelta", "MessageStart", "MessageStop", "SignatureDelta", "TextDelta", "ThinkingDelta",
    "UnknownDelta", "UnknownEvent", "SYSTEM_CLASSES", "ApiRetry", "BackgroundTask", "BackgroundTasksChanged",
    "CompactBoundary", "CompactMetadata", "FilesPersisted", "HookProgress", "HookResponse", "HookStarted",
    "SessionTitleChanged", "SystemInit", "SystemMessage", "SystemStatus",
    "TaskNotification", "TaskProgress", "TaskStarted", "TaskUpdated", "ThinkingTokens", "UnknownSystem",
]
