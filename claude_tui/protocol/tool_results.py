"""Typed views over the outer `tool_use_result` (`toolUseResult` in transcripts) of a tool result.

`tool_result_view(name, value)` never raises: unknown tools or shapes give `GenericResult`;
a plain string (the CLI uses one for errors and rejections) gives `ErrorResult`.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, Field

from .base import ProtoModel

__all__ = [
    "ToolResultView", "GenericResult", "ErrorResult", "PatchHunk", "EditResult", "WriteResult", "BashResult",
    "ReadResult", "AskUserQuestionResult", "TaskResult", "TaskCreateResult", "TaskRef", "TaskUpdateResult",
    "ExitPlanModeResult", "TOOL_RESULTS", "tool_result_view",
]


def _a(*names: str) -> AliasChoices:
    return AliasChoices(*names)


class ToolResultView(ProtoModel):
    pass


class GenericResult(ToolResultView):
    pass


class ErrorResult(ToolResultView):
    """`tool_use_result` given as a bare string, e.g. "User rejected tool use" or "Error: ..."."""

    message: str = ""


class PatchHunk(ProtoModel):
    old_start: int = Field(validation_alias=_a("oldStart", "old_start"))
    old_lines: int = Field(validation_alias=_a("oldLines", "old_lines"))
    new_start: int = Field(validation_alias=_a("newStart", "new_start"))
    new_lines: int = Field(validation_alias=_a("newLines", "new_lines"))
    lines: list[str] = Field(default_factory=list)


class EditResult(ToolResultView):
    file_path: str = Field(validation_alias=_a("filePath", "file_path"))
    old_string: str = Field("", validation_alias=_a("oldString", "old_string"))
    new_string: str = Field("", validation_alias=_a("newString", "new_string"))
    original_file: str | None = Field(None, validation_alias=_a("originalFile", "original_file"))
    structured_patch: list[PatchHunk] = Field(default_factory=list,
                                              validation_alias=_a("structuredPatch", "structured_patch"))
    user_modified: bool = Field(False, validation_alias=_a("userModified", "user_modified"))
    replace_all: bool = Field(False, validation_alias=_a("replaceAll", "replace_all"))


class WriteResult(ToolResultView):
    """`type` is "create" (originalFile null, structuredPatch []) or "update"."""

    type: str = "create"
    file_path: str = Field(validation_alias=_a("filePath", "file_path"))
    content: str = ""
    original_file: str | None = Field(None, validation_alias=_a("originalFile", "original_file"))
    structured_patch: list[PatchHunk] = Field(default_factory=list,
                                              validation_alias=_a("structuredPatch", "structured_patch"))
    user_modified: bool = Field(False, validation_alias=_a("userModified", "user_modified"))


class BashResult(ToolResultView):
    stdout: str = ""
    stderr: str = ""
    interrupted: bool = False
    is_image: bool = Field(False, validation_alias=_a("isImage", "is_image"))
    no_output_expected: bool | None = Field(None, validation_alias=_a("noOutputExpected", "no_output_expected"))
    return_code_interpretation: str | None = Field(
        None, validation_alias=_a("returnCodeInterpretation", "return_code_interpretation")
    )
    background_task_id: str | None = Field(None, validation_alias=_a("backgroundTaskId", "background_task_id"))


class ReadResult(ToolResultView):
    type: str | None = None
    file: dict[str, Any] | None = None


class AskUserQuestionResult(ToolResultView):
    questions: list[dict[str, Any]] = Field(default_factory=list)
    answers: dict[str, str] = Field(default_factory=dict)


class TaskResult(ToolResultView):
    """Task/Agent results vary by mode (async launch vs completed); common keys typed, rest in extras."""

    status: str | None = None
    agent_id: str | None = Field(None, validation_alias=_a("agentId", "agent_id"))
    description: str | None = None
    prompt: str | None = None
    output_file: str | None = Field(None, validation_alias=_a("outputFile", "output_file"))
    content: Any = None
    total_duration_ms: int | None = Field(None, validation_alias=_a("totalDurationMs", "total_duration_ms"))
    total_tokens: int | None = Field(None, validation_alias=_a("totalTokens", "total_tokens"))
    total_tool_use_count: int | None = Field(None, validation_alias=_a("totalToolUseCount", "total_tool_use_count"))


class TaskRef(ProtoModel):
    id: str
    subject: str = ""
    description: str | None = None


class TaskCreateResult(ToolResultView):
    task: TaskRef


class TaskUpdateResult(ToolResultView):
    success: bool = True
    task_id: str | None = Field(None, validation_alias=_a("taskId", "task_id"))
    updated_fields: list[str] = Field(default_factory=list, validation_alias=_a("updatedFields", "updated_fields"))
    status_change: dict[str, Any] | None = Field(None, validation_alias=_a("statusChange", "status_change"))


class ExitPlanModeResult(ToolResultView):
    plan: str | None = None
    is_agent: bool = Field(False, validation_alias=_a("isAgent", "is_agent"))
    file_path: str | None = Field(None, validation_alias=_a("filePath", "file_path"))


TOOL_RESULTS: dict[str, type[ToolResultView]] = {
    "Edit": EditResult,
    "MultiEdit": EditResult,
    "Write": WriteResult,
    "Bash": BashResult,
    "Read": ReadResult,
    "AskUserQuestion": AskUserQuestionResult,
    "Task": TaskResult,
    "Agent": TaskResult,
    "TaskCreate": TaskCreateResult,
    "TaskUpdate": TaskUpdateResult,
    "ExitPlanMode": ExitPlanModeResult,
}


def tool_result_view(name: str, value: Any) -> ToolResultView | None:
    """Typed view of a `tool_use_result`; None when there is none. Never raises."""
    if value is None:
        return None
    if isinstance(value, str):
        return ErrorResult(message=value)
    if not isinstance(value, dict):
        return GenericResult.model_validate({"value": value})
    cls = TOOL_RESULTS.get(name)
    if cls is not None:
        try:
            return cls.model_validate(value)
        except Exception:
            pass
    return GenericResult.model_validate(value)
