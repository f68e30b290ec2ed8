"""`type: "system"` messages, discriminated on `subtype`."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import AliasChoices, Field

from .base import ProtoModel, Tagged, UnknownBase

__all__ = [
    "SystemMessage", "SystemInit", "SystemStatus", "CompactBoundary", "ApiRetry", "ThinkingTokens",
    "HookStarted", "HookProgress", "HookResponse", "TaskStarted", "TaskUpdated", "TaskProgress",
    "TaskNotification", "BackgroundTasksChanged", "BackgroundTask", "CompactMetadata", "FilesPersisted",
    "UnknownSystem", "System",
]

_SID = AliasChoices("session_id", "sessionId")
_MODE = AliasChoices("permissionMode", "permission_mode")


class SystemMessage(ProtoModel):
    type: Literal["system"] = "system"
    subtype: str = ""
    session_id: str | None = Field(None, validation_alias=_SID)
    uuid: str | None = None


class SystemInit(SystemMessage):
    subtype: Literal["init"] = "init"
    cwd: str | None = None
    model: str | None = None
    permission_mode: str | None = Field(None, validation_alias=_MODE)
    tools: list[str] = Field(default_factory=list)
    mcp_servers: list[dict[str, Any]] = Field(default_factory=list)
    slash_commands: list[str] = Field(default_factory=list)
    agents: list[str] = Field(default_factory=list)
    skills: list[Any] = Field(default_factory=list)
    plugins: list[Any] = Field(default_factory=list)
    api_key_source: str | None = Field(None, validation_alias=AliasChoices("apiKeySource", "api_key_source"))
    claude_code_version: str | None = None
    output_style: str | None = None


class SystemStatus(SystemMessage):
    """`status` is "requesting", "compacting" or null; `permissionMode` appears when the mode changes."""

    subtype: Literal["status"] = "status"
    status: str | None = None
    permission_mode: str | None = Field(None, validation_alias=_MODE)


class CompactMetadata(ProtoModel):
    trigger: str | None = None
    """"manual" (/compact) or "auto"."""
    pre_tokens: int | None = Field(None, validation_alias=AliasChoices("pre_tokens", "preTokens"))


class CompactBoundary(SystemMessage):
    subtype: Literal["compact_boundary"] = "compact_boundary"
    compact_metadata: CompactMetadata | None = Field(
        None, validation_alias=AliasChoices("compact_metadata", "compactMetadata"))


class ApiRetry(SystemMessage):
    subtype: Literal["api_retry"] = "api_retry"
    attempt: int | None = None
    max_retries: int | None = None
    retry_delay_ms: float | None = None
    error_status: int | None = None
    error: Any = None


class ThinkingTokens(SystemMessage):
    subtype: Literal["thinking_tokens"] = "thinking_tokens"
    estimated_tokens: int | None = None
    estimated_tokens_delta: int | None = None


class _Hook(SystemMessage):
    hook_id: str | None = None
    hook_name: str | None = None
    hook_event: str | None = None


class HookStarted(_Hook):
    subtype: Literal["hook_started"] = "hook_started"


class HookProgress(_Hook):
    subtype: Literal["hook_progress"] = "hook_progress"
    stdout: str | None = None
    stderr: str | None = None
    output: str | None = None


class HookResponse(_Hook):
    subtype: Literal["hook_response"] = "hook_response"
    stdout: str | None = None
    stderr: str | None = None
    output: str | None = None
    exit_code: int | None = None
    outcome: str | None = None


class _Task(SystemMessage):
    task_id: str = ""
    run_id: str | None = None
    tool_use_id: str | None = None


class TaskStarted(_Task):
    subtype: Literal["task_started"] = "task_started"
    description: str | None = None
    subagent_type: str | None = None
    task_type: str | None = None
    prompt: str | None = None
    is_backgrounded: bool | None = None
    spawn_depth: int | None = None


class TaskUpdated(_Task):
    """`patch` holds the changed fields, e.g. {"status": "completed", "end_time": ...}."""

    subtype: Literal["task_updated"] = "task_updated"
    patch: dict[str, Any] = Field(default_factory=dict)

    @property
    def status(self) -> str | None:
        s = self.patch.get("status")
        return s if isinstance(s, str) else None


class TaskProgress(_Task):
    subtype: Literal["task_progress"] = "task_progress"
    description: str | None = None
    usage: dict[str, Any] | None = None
    last_tool_name: str | None = None


class TaskNotification(_Task):
    subtype: Literal["task_notification"] = "task_notification"
    status: str | None = None
    output_file: str | None = None
    summary: str | None = None
    summary_is_report: bool | None = None
    """True when `summary` is the agent's report (not words for a marker in the log)."""
    usage: dict[str, Any] | None = None


class BackgroundTask(ProtoModel):
    """One live background task in `background_tasks_changed.tasks`."""

    task_id: str = ""
    run_id: str | None = None
    task_type: str | None = None
    subagent_type: str | None = None
    description: str | None = None


class BackgroundTasksChanged(SystemMessage):
    subtype: Literal["background_tasks_changed"] = "background_tasks_changed"
    tasks: list[BackgroundTask] = Field(default_factory=list)


class FilesPersisted(SystemMessage):
    subtype: Literal["files_persisted"] = "files_persisted"
    files: list[dict[str, Any]] = Field(default_factory=list)
    failed: list[dict[str, Any]] = Field(default_factory=list)
    processed_at: str | None = None


class SessionTitleChanged(SystemMessage):
    """The session's name changed (a rename_session, or the CLI's own title)."""

    subtype: Literal["session_title_changed"] = "session_title_changed"
    title: str = ""


class UnknownSystem(UnknownBase, SystemMessage):
    """A system message with a subtype we do not know (or malformed fields)."""

    subtype: Any = None


SYSTEM_CLASSES: dict[str, type[SystemMessage]] = {
    "init": SystemInit,
    "status": SystemStatus,
    "compact_boundary": CompactBoundary,
    "api_retry": ApiRetry,
    "thinking_tokens": ThinkingTokens,
    "hook_started": HookStarted,
    "hook_progress": HookProgress,
    "hook_response": HookResponse,
    "task_started": TaskStarted,
    "task_updated": TaskUpdated,
    "task_progress": TaskProgress,
    "task_notification": TaskNotification,
    "background_tasks_changed": BackgroundTasksChanged,
    "files_persisted": FilesPersisted,
    "session_title_changed": SessionTitleChanged,
}

# A Union built at run time from the table (one list of subtypes): pydantic reads it, mypy cannot.
System = Annotated[  # type: ignore[valid-type]
    Union[tuple(SYSTEM_CLASSES.values()) + (UnknownSystem,)],  # noqa: UP007 - built from a tuple
    Tagged("subtype", SYSTEM_CLASSES, UnknownSystem),
]
