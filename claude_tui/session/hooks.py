"""Hook runs (`system/hook_started`, `hook_progress`, `hook_response`) put where they belong.

The CLI sends them with `--include-hook-events` (SessionStart's always). They carry no tool_use_id:
a tool's hook is named after its event and the tool it matched ("PreToolUse:Bash"), and comes
after the call's `tool_use` and before its result (checked on 2.1.330: tool_use, PreToolUse,
can_use_tool, PostToolUse, tool_result). So a tool's hook goes on the first call of that tool still
without its result and without a run of that event; calls of one tool run their hooks in the order
the model asked for them. Any other hook (UserPromptSubmit, Stop, SessionStart …, or a tool hook
whose call is not found) is a note in the turn once it has ended.
"""

from __future__ import annotations

from claude_tui import protocol as p
from claude_tui.session.changes import Change, ItemChanged
from claude_tui.session.items import HOOK_OUTPUT_CHARS, HookRun, NoteKind, ToolItem
from claude_tui.session.log import Logs

__all__ = ["HookRuns", "TOOL_EVENTS", "hook_words"]

TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"})
"""Events a hook runs for one tool call (its name then says which tool: "PreToolUse:Bash")."""


def _bounded(text: str) -> str:
    return text if len(text) <= HOOK_OUTPUT_CHARS else text[:HOOK_OUTPUT_CHARS] + "…"


def hook_words(run: HookRun) -> str:
    """"PreToolUse hook · exit 0 · its first output line" (untrusted: the caller makes it inert)."""
    if run.running:
        state = "running"
    elif run.outcome == "cancelled":
        state = "cancelled"
    elif run.exit_code is not None:
        state = f"exit {run.exit_code}"
    else:
        state = run.outcome or "done"
    first = next((line.strip() for line in run.output.splitlines() if line.strip()), "")
    return f"{run.event or run.name} hook · {state}" + (f" · {first[:200]}" if first else "")


class HookRuns:
    def __init__(self, logs: Logs) -> None:
        self._logs = logs
        self._open: dict[str, tuple[HookRun, ToolItem | None]] = {}
        """Runs started and not yet ended, by hook_id, with the call each is on (None: the turn's)."""

    def on_hook(self, message: p.HookStarted | p.HookProgress | p.HookResponse) -> list[Change]:
        hook_id = message.hook_id or ""
        known = self._open.get(hook_id)
        if known is None:
            run = HookRun(hook_id=hook_id, event=message.hook_event or "", name=message.hook_name or "")
            known = (run, self._tool_for(run))
            if known[1] is not None:
                known[1].hooks.append(run)
            self._open[hook_id] = known
        run, tool = known
        if isinstance(message, (p.HookProgress, p.HookResponse)):
            output = message.output if message.output is not None else (message.stdout or "") + (message.stderr or "")
            if output:
                run.output = _bounded(output)
        if isinstance(message, p.HookResponse):
            run.running = False
            run.exit_code = message.exit_code
            run.outcome = message.outcome or ""
            del self._open[hook_id]
            if tool is None:
                failed = run.outcome == "error" or (run.exit_code or 0) != 0
                return self._logs.note(hook_words(run), NoteKind.ERROR if failed else NoteKind.INFO, title="Hook")
        if tool is None:
            return []
        return [ItemChanged(tool, self._logs.scope_of(tool))]

    def _tool_for(self, run: HookRun) -> ToolItem | None:
        event, _, tool_name = run.name.partition(":")
        if (run.event or event) not in TOOL_EVENTS or not tool_name:
            return None
        for log in self._logs:
            for tool in log.tools.values():
                if (tool.name == tool_name and not tool.finished
                        and not any(h.event == run.event for h in tool.hooks)):
                    return tool
        return None
