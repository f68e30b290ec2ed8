"""Top-level conversation messages: assistant, user, stream_event and the small CLI notices."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field

from .base import ProtoModel, UnknownBase
from .content import ContentBlock, ToolResultBlock, ToolUseBlock, Usage
from .stream import Event

__all__ = [
    "AssistantPayload", "AssistantMessage", "UserPayload", "UserMessage", "StreamEvent", "KeepAlive",
    "ToolProgress", "ToolUseSummary", "AuthStatus", "RateLimitEvent", "UnknownMessage", "InvalidLine",
    "SYNTHETIC_MODEL", "ToolResultMeta",
]

SYNTHETIC_MODEL = "<synthetic>"
_SID = AliasChoices("session_id", "sessionId")
_PARENT = AliasChoices("parent_tool_use_id", "parentToolUseID", "parentToolUseId")


class _Envelope(ProtoModel):
    session_id: str | None = Field(None, validation_alias=_SID)
    uuid: str | None = None
    parent_tool_use_id: str | None = Field(None, validation_alias=_PARENT)


class AssistantPayload(ProtoModel):
    id: str | None = None
    model: str | None = None
    role: str | None = "assistant"
    content: list[ContentBlock] = Field(default_factory=list)
    stop_reason: str | None = None
    usage: Usage | None = None


class AssistantMessage(_Envelope):
    """One content block per message in stream-json (several messages share `message.id`)."""

    type: Literal["assistant"] = "assistant"
    message: AssistantPayload
    error: Any = None

    @property
    def is_synthetic(self) -> bool:
        """`/cost`, `/context` and API error notices come as assistant messages of model `<synthetic>`."""
        return self.message.model == SYNTHETIC_MODEL

    @property
    def tool_uses(self) -> list[ToolUseBlock]:
        return [b for b in self.message.content if isinstance(b, ToolUseBlock)]


class UserPayload(ProtoModel):
    role: str | None = "user"
    content: str | list[ContentBlock] = ""


class ToolResultMeta(ProtoModel):
    """One entry of a user message's `tool_result_meta` (CLI 2.1.330): why a tool result did not come
    from running the tool (`non_execution_kind`: "permission-rule", "interrupted", …) and who decided
    (`permission_decision`: {"decision": "reject" | "accept", "source", …}). Transcripts keep the same
    facts as `toolDenialKind`/`permissionDecision` (`session.replay` turns them into this)."""

    id: str | None = None
    non_execution_kind: str | None = None
    permission_decision: dict[str, Any] | None = None

    @property
    def rejected(self) -> bool:
        return (self.permission_decision or {}).get("decision") == "reject"


class UserMessage(_Envelope):
    """A user turn, tool results (structured `tool_use_result`) or replayed local command output."""

    type: Literal["user"] = "user"
    message: UserPayload
    tool_use_result: Any = Field(None, validation_alias=AliasChoices("tool_use_result", "toolUseResult"))
    tool_result_meta: list[ToolResultMeta] = Field(default_factory=list)
    is_replay: bool = Field(False, validation_alias=AliasChoices("isReplay", "is_replay"))
    is_synthetic: bool = Field(False, validation_alias=AliasChoices("isSynthetic", "is_synthetic"))
    is_meta: bool = Field(False, validation_alias=AliasChoices("isMeta", "is_meta"))
    is_compact_summary: bool = Field(False, validation_alias=AliasChoices("isCompactSummary", "is_compact_summary"))
    """The summary `/compact` hands the model (transcripts; written by the CLI, not the user)."""
    is_visible_in_transcript_only: bool = Field(
        False, validation_alias=AliasChoices("isVisibleInTranscriptOnly", "is_visible_in_transcript_only"))
    timestamp: str | None = None

    @property
    def text(self) -> str:
        """Plain text of the message (string content or its text blocks)."""
        c = self.message.content
        if isinstance(c, str):
            return c
        return "\n".join(getattr(b, "text", "") for b in c if getattr(b, "type", None) == "text")

    @property
    def tool_results(self) -> list[ToolResultBlock]:
        c = self.message.content
        return [] if isinstance(c, str) else [b for b in c if isinstance(b, ToolResultBlock)]

    @property
    def local_command_output(self) -> str | None:
        """The text inside `<local-command-stdout>`/`<local-command-stderr>`, if this is such an echo."""
        t = self.text
        for tag in ("local-command-stdout", "local-command-stderr"):
            start, end = f"<{tag}>", f"</{tag}>"
            if t.startswith(start):
                return t[len(start):t.rfind(end)] if end in t else t[len(start):]
        return None


class StreamEvent(_Envelope):
    type: Literal["stream_event"] = "stream_event"
    event: Event
    api_message_id: str | None = None
    """The response's id (CLI 2.1.295 on); older CLIs name it only in `message_start`."""


class KeepAlive(ProtoModel):
    type: Literal["keep_alive"] = "keep_alive"


class ToolProgress(_Envelope):
    type: Literal["tool_progress"] = "tool_progress"
    tool_use_id: str | None = None
    tool_name: str | None = None
    elapsed_time_seconds: float | None = None


class ToolUseSummary(_Envelope):
    type: Literal["tool_use_summary"] = "tool_use_summary"
    summary: str = ""
    preceding_tool_use_ids: list[str] = Field(default_factory=list)


class AuthStatus(_Envelope):
    type: Literal["auth_status"] = "auth_status"
    is_authenticating: bool | None = Field(None, validation_alias=AliasChoices("isAuthenticating", "is_authenticating"))
    output: list[str] = Field(default_factory=list)
    error: str | None = None


class RateLimitInfo(ProtoModel):
    """Where the plan's limit stands (the SDK's SDKRateLimitInfo; the fields claude-tui reads)."""

    status: str = "allowed"
    """allowed | allowed_warning | rejected."""
    resets_at: float | None = Field(None, alias="resetsAt")
    """Seconds since the epoch."""
    rate_limit_type: str | None = Field(None, alias="rateLimitType")
    utilization: float | None = None


class RateLimitEvent(_Envelope):
    type: Literal["rate_limit_event"] = "rate_limit_event"
    rate_limit_info: RateLimitInfo = Field(default_factory=lambda: RateLimitInfo.model_validate({}))


class UnknownMessage(UnknownBase):
    """A line of a type we do not know (or a known type with malformed fields)."""


class InvalidLine(ProtoModel):
    """A line that is not a JSON object."""

    type: Literal["invalid"] = "invalid"
    text: str = ""
    error: str = ""
