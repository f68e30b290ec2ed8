"""Typed views over tool inputs (`tool_use.input`, `can_use_tool.input`) and one-line summaries.

`tool_input(name, input)` never raises: a malformed or unknown input gives `GenericInput`.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, Field

from .base import ProtoModel

__all__ = [
    "ToolInput", "GenericInput", "EditInput", "EditOp", "MultiEditInput", "WriteInput", "ReadInput", "BashInput",
    "GrepInput", "GlobInput", "WebFetchInput", "WebSearchInput", "TaskInput", "TaskCreateInput", "TaskUpdateInput",
    "TaskListInput", "TaskGetInput", "TodoItem", "TodoWriteInput", "QuestionOption", "Question",
    "AskUserQuestionInput", "ExitPlanModeInput", "NotebookEditInput", "McpInput", "TOOL_INPUTS",
    "split_mcp_name", "display_tool_name", "tool_input", "tool_summary",
]


class ToolInput(ProtoModel):
    """Base of the typed input views; unknown keys are kept (extra="allow")."""

    def summary(self) -> str:
        return ""


class GenericInput(ToolInput):
    def summary(self) -> str:
        for key in ("description", "command", "file_path", "path", "url", "query", "pattern", "prompt"):
            v = (self.model_extra or {}).get(key)
            if isinstance(v, str) and v:
                return v
        return ""


def _path(p: str | None) -> str:
    return p or ""


class EditInput(ToolInput):
    file_path: str
    old_string: str = ""
    new_string: str = ""
    replace_all: bool = False

    def summary(self) -> str:
        return _path(self.file_path) + (" (all occurrences)" if self.replace_all else "")


class EditOp(ProtoModel):
    old_string: str = ""
    new_string: str = ""
    replace_all: bool = False


class MultiEditInput(ToolInput):
    file_path: str
    edits: list[EditOp] = Field(default_factory=list)

    def summary(self) -> str:
        n = len(self.edits)
        return f"{self.file_path} ({n} edit{'s' if n != 1 else ''})"


class WriteInput(ToolInput):
    file_path: str
    content: str = ""

    def summary(self) -> str:
        n = self.content.count("\n") + (1 if self.content and not self.content.endswith("\n") else 0)
        return f"{self.file_path} ({n} line{'s' if n != 1 else ''})"


class ReadInput(ToolInput):
    file_path: str
    offset: int | None = None
    limit: int | None = None
    pages: str | None = None

    def summary(self) -> str:
        s = self.file_path
        if self.offset is not None or self.limit is not None:
            start = self.offset or 1
            s += f":{start}-{start + self.limit - 1}" if self.limit else f":{start}-"
        if self.pages:
            s += f" (pages {self.pages})"
        return s


class BashInput(ToolInput):
    command: str
    description: str | None = None
    timeout: int | None = None
    run_in_background: bool | None = None

    def summary(self) -> str:
        first = self.command.strip().splitlines()[0] if self.command.strip() else ""
        more = " …" if self.command.strip().count("\n") else ""
        return "$ " + first + more + (" &" if self.run_in_background else "")


class GrepInput(ToolInput):
    pattern: str
    path: str | None = None
    glob: str | None = None
    type: str | None = None
    output_mode: str | None = None

    def summary(self) -> str:
        s = repr(self.pattern) if " " in self.pattern else self.pattern
        if self.path:
            s += f" in {self.path}"
        if self.glob:
            s += f" ({self.glob})"
        return s


class GlobInput(ToolInput):
    pattern: str
    path: str | None = None

    def summary(self) -> str:
        return self.pattern + (f" in {self.path}" if self.path else "")


class WebFetchInput(ToolInput):
    url: str
    prompt: str | None = None

    def summary(self) -> str:
        return self.url


class WebSearchInput(ToolInput):
    query: str
    allowed_domains: list[str] | None = None
    blocked_domains: list[str] | None = None

    def summary(self) -> str:
        return self.query


class TaskInput(ToolInput):
    """`Task` / `Agent`: start a subagent."""

    description: str = ""
    prompt: str = ""
    subagent_type: str | None = None
    run_in_background: bool | None = None

    def summary(self) -> str:
        return self.description + (f" [{self.subagent_type}]" if self.subagent_type else "")


class TaskCreateInput(ToolInput):
    subject: str
    description: str | None = None
    active_form: str | None = Field(None, validation_alias=AliasChoices("activeForm", "active_form"))

    def summary(self) -> str:
        return self.subject


class TaskUpdateInput(ToolInput):
    task_id: str = Field(validation_alias=AliasChoices("taskId", "task_id"))
    status: str | None = None
    subject: str | None = None
    description: str | None = None

    def summary(self) -> str:
        return f"#{self.task_id}" + (f" → {self.status}" if self.status else "")


class TaskListInput(ToolInput):
    def summary(self) -> str:
        return "list tasks"


class TaskGetInput(ToolInput):
    task_id: str = Field(validation_alias=AliasChoices("taskId", "task_id"))

    def summary(self) -> str:
        return f"#{self.task_id}"


class TodoItem(ProtoModel):
    content: str = ""
    status: str = "pending"
    active_form: str | None = Field(None, validation_alias=AliasChoices("activeForm", "active_form"))


class TodoWriteInput(ToolInput):
    todos: list[TodoItem] = Field(default_factory=list)

    def summary(self) -> str:
        done = sum(1 for t in self.todos if t.status == "completed")
        return f"{done}/{len(self.todos)} done"


class QuestionOption(ProtoModel):
    label: str
    description: str | None = None


class Question(ProtoModel):
    question: str
    header: str | None = None
    options: list[QuestionOption] = Field(default_factory=list)
    multi_select: bool = Field(False, validation_alias=AliasChoices("multiSelect", "multi_select"))


class AskUserQuestionInput(ToolInput):
    questions: list[Question] = Field(default_factory=list)

    def summary(self) -> str:
        return "; ".join(q.question for q in self.questions)


class ExitPlanModeInput(ToolInput):
    """The plan is in the assistant's tool_use input; the can_use_tool input is `{}`."""

    plan: str | None = None

    def summary(self) -> str:
        first = (self.plan or "").strip().splitlines()
        return first[0].lstrip("# ") if first else "exit plan mode"


class NotebookEditInput(ToolInput):
    notebook_path: str
    cell_id: str | None = None
    new_source: str = ""
    cell_type: str | None = None
    edit_mode: str | None = None

    def summary(self) -> str:
        return self.notebook_path + (f" [{self.cell_id}]" if self.cell_id else "") + (
            f" ({self.edit_mode})" if self.edit_mode else ""
        )


class McpInput(ToolInput):
    """Input of an MCP tool (`mcp__server__tool`): arguments are free-form (see `.raw`)."""

    def summary(self) -> str:
        return GenericInput.summary(self)  # type: ignore[arg-type]


TOOL_INPUTS: dict[str, type[ToolInput]] = {
    "Edit": EditInput,
    "MultiEdit": MultiEditInput,
    "Write": WriteInput,
    "Read": ReadInput,
    "Bash": BashInput,
    "Grep": GrepInput,
    "Glob": GlobInput,
    "WebFetch": WebFetchInput,
    "WebSearch": WebSearchInput,
    "Task": TaskInput,
    "Agent": TaskInput,
    "TaskCreate": TaskCreateInput,
    "TaskUpdate": TaskUpdateInput,
    "TaskList": TaskListInput,
    "TaskGet": TaskGetInput,
    "TodoWrite": TodoWriteInput,
    "AskUserQuestion": AskUserQuestionInput,
    "ExitPlanMode": ExitPlanModeInput,
    "NotebookEdit": NotebookEditInput,
}


def split_mcp_name(name: str) -> tuple[str, str] | None:
    """`mcp__server__tool` -> ("server", "tool"); None when `name` is not an MCP tool name."""
    if not name.startswith("mcp__"):
        return None
    server, sep, tool = name[5:].partition("__")
    if not sep or not server or not tool:
        return None
    return server, tool


def display_tool_name(name: str) -> str:
    """Human name: "server › tool" for MCP tools, the name itself otherwise."""
    parts = split_mcp_name(name)
    return f"{parts[0]} › {parts[1]}" if parts else name


def tool_input(name: str, input: Any) -> ToolInput:
    """The typed view of a tool's input; `GenericInput` (or `McpInput`) when unknown or malformed."""
    data = input if isinstance(input, dict) else {}
    cls = TOOL_INPUTS.get(name)
    if cls is None and split_mcp_name(name or "") is not None:
        cls = McpInput
    if cls is not None:
        try:
            return cls.model_validate(data)
        except Exception:
            pass
    try:
        return GenericInput.model_validate(data)
    except Exception:  # pragma: no cover - GenericInput accepts any dict
        return GenericInput()


def tool_summary(name: str, input: Any) -> str:
    """A one-line human summary of a tool call (command, path+range, pattern, url, ...). Never raises."""
    try:
        s = tool_input(name, input).summary()
    except Exception:
        s = ""
    s = " ".join(s.split()) if "\n" in s or "\r" in s or "\t" in s else s
    return s[:200] + "…" if len(s) > 200 else s
