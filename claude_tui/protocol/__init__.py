"""Pure data layer for the Claude Code stream-json protocol (no textual, no asyncio).

`decode_line`/`decode_obj` turn CLI output into typed models, `builders` makes what we send,
`tools` gives typed views of tool inputs/results, `sanitize.printable` makes text inert.
"""

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

__all__ = [
    "dropped_fields",
    "ProtoModel", "UnknownBase", "ContentBlock", "ImageBlock", "RedactedThinkingBlock", "TextBlock", "ThinkingBlock",
    "ToolResultBlock", "ToolUseBlock", "UnknownBlock", "Usage", "CanUseToolRequest", "ControlCancelRequest",
    "ControlRequest", "ControlRequestBody", "ControlResponse", "ControlResponseBody", "HookCallbackRequest",
    "InitializeResponse", "ElicitationRequest",
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
