"""A tool call as a card: icon, name, one-line summary, state; an expandable body.

The body shows the input and the result matched by `tool_use_id`; Edit and
Write results show their diff (from `structuredPatch`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import one_line, printable
from claude_tui.protocol.tools import display_tool_name, tool_summary
from claude_tui.session.hooks import hook_words
from claude_tui.session.items import HookRun, ToolItem, ToolState
from claude_tui.session.permission_flow import decision_head
from claude_tui.session.shown import SHOWN_CHARS, shown, shown_value
from claude_tui.ui.kit.theme import theme_color

_ICONS = {
    # Single-width symbols: emoji are double-width and misalign in many terminals.
    "Bash": "$", "Read": "▤", "Write": "✎", "Edit": "✎", "MultiEdit": "✎", "NotebookEdit": "✎",
    "Grep": "⌕", "Glob": "⌕", "WebFetch": "◎", "WebSearch": "◎", "Task": "◆", "Agent": "◆",
    "TaskCreate": "☐", "TaskUpdate": "☑", "TaskList": "☰", "TaskGet": "☰", "TodoWrite": "☑",
    "AskUserQuestion": "?", "ExitPlanMode": "▦", "Skill": "✦",
}
# State words and the theme colour they take (a name from the app's theme).
_STATE_WORDS = {
    ToolState.STREAMING: ("…", "accent"),
    ToolState.PENDING: ("…", "accent"),
    ToolState.WAITING: ("waiting for you", "warning"),
    ToolState.RUNNING: ("running", "accent"),
    ToolState.DONE: ("✓", "success"),
    ToolState.ERROR: ("✗ error", "error"),
    ToolState.DENIED: ("⊘ denied", "warning"),
    ToolState.INTERRUPTED: ("■ interrupted", "warning"),
}
_DIFF_TOOLS = ("Edit", "MultiEdit", "Write")


def _clip(text: str, limit: int = SHOWN_CHARS) -> str:
    return shown(text, limit)


OUTPUT_ROWS = 20
"""Lines of a call's output a card shows (its box is as high at most); the rest is counted below it."""


def _output(text: str, classes: str) -> list[Widget]:
    """A call's output, `printable`, cut to `OUTPUT_ROWS` lines with a line that says how many more
    there are and where to get them (a box that simply stopped read as the whole output). The
    newline that ends the last line starts no line of its own (as `session.export.truncated` counts)."""
    lines = text.rstrip("\n").split("\n")
    if len(lines) <= OUTPUT_ROWS:
        return [Static(Text(printable(_clip(text))), classes=classes)]
    shown = "\n".join(lines[:OUTPUT_ROWS - 1])
    more = len(lines) - (OUTPUT_ROWS - 1)
    note = f"… {more:,} more lines (select this call with Ctrl+Up, then o copies the whole output)"
    return [Static(Text(printable(_clip(shown))), classes=classes),
            Static(Text(note, style="dim italic"), classes="tool-exit")]


def _hook_failed(run: HookRun) -> bool:
    return not run.running and (run.outcome == "error" or (run.exit_code or 0) != 0)


class ToolCard(Vertical):
    """One tool call. Click the header (or press Enter on it) to expand the body."""

    DEFAULT_CSS = """
    ToolCard {
        height: auto;
        margin: 0 0 0 1;
        padding: 0 1;
        border-left: outer $accent 60%;

        &.-error {
            border-left: outer $error;
        }
        &.-denied {
            border-left: outer $warning;
        }
        &.-waiting {
            border-left: outer $warning;
            background: $warning 8%;
        }

        .tool-header {
            height: 1;
        }
        .tool-body {
            height: auto;
            padding: 0 0 0 2;
        }
        .tool-input {
            color: $text-muted;
        }
        /* ExitPlanMode's plan, as Markdown. */
        .tool-plan {
            height: auto;
            margin: 0;
            padding: 0 1;

            & > MarkdownBlock:first-child {
                margin-top: 0;
            }
        }
        .tool-output {
            background: $surface;
            padding: 0 1;
            max-height: 20;
            overflow-y: auto;
        }
        .tool-stderr, .tool-error {
            color: $text-error;
        }
        .tool-hook.-failed {
            color: $text-error;
        }
        .tool-exit, .tool-image, .tool-hook {
            color: $text-muted;
        }
    }
    """

    can_focus = False

    def __init__(self, item: ToolItem, project_dir: Callable[[], str] | None = None) -> None:
        super().__init__(classes="tool-card")
        self.item = item
        self.project_dir = project_dir
        """Its session's directory (not the app's: a background tab may run elsewhere)."""
        self.expanded = False
        self._started = time.monotonic()
        self._diff_shown = False
        # Children exist from the start so updates can arrive before mounting.
        self._header_widget = Static(classes="tool-header")
        self._header_shown: Text | None = None
        """The header last drawn: a tick that would draw it again draws nothing."""
        self._body = Vertical(classes="tool-body")
        self._body.display = False

    def compose(self) -> ComposeResult:
        yield self._header_widget
        yield self._body

    def on_mount(self) -> None:
        self.refresh_from(self.item)
        # Updates that arrived before mounting could not mount the body yet.
        self.call_after_refresh(self._render_body)

    # -- rendering --------------------------------------------------------------------
    def _header(self) -> Text:
        item = self.item
        icon = _ICONS.get(item.name, "⚙")
        text = Text(f"{icon} ", style="bold")
        text.append(printable(display_tool_name(item.name)), style="bold")
        # The state comes before the summary: a long command is cut, its state never.
        words, colour = _STATE_WORDS[item.state]
        text.append(" ")
        text.append(words, style=self._theme_style(colour, bold=item.state is ToolState.WAITING))
        if item.state is ToolState.RUNNING:
            elapsed = item.elapsed_seconds if item.elapsed_seconds is not None else time.monotonic() - self._started
            text.append(f" {elapsed:.0f}s", style="dim")
        summary = tool_summary(item.name, item.input) if item.input else ""
        cwd = self.project_dir() if self.project_dir is not None else ""
        if cwd and cwd != "/" and summary:
            # Paths inside the project read better relative to it.
            summary = summary.replace(cwd.rstrip("/") + "/", "")
        if summary:
            text.append("  ")
            text.append(printable(summary.splitlines()[0]))
        decision = self._decision_words()
        if decision:
            text.append(f"  · {printable(decision)}", style="dim")
        if item.hooks:
            # Said on the header too: the body (where each run's line is) opens only on a click.
            count = len(item.hooks)
            failed = any(_hook_failed(run) for run in item.hooks)
            text.append(f"  · {count} hook{'s' * (count != 1)}{' ✗' if failed else ''}",
                        style=self._theme_style("error") if failed else "dim")
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def _decision_words(self) -> str:
        """The permission decision for the header: its head only ("Denied: use rg" → "Denied"; the
        details get a note line of their own), and nothing a denied card's state already says."""
        item = self.item
        if not item.decision:
            return ""
        head = decision_head(item.decision)
        if item.state is ToolState.DENIED and head.casefold() == "denied":
            return ""
        return head

    def _theme_style(self, name: str, bold: bool = False) -> Style:
        """A Rich style in the theme's readable text colour for `name` (e.g. $text-warning).

        The text-* variants keep contrast on light themes, where the raw warning or
        success colours are unreadable on a pale background.
        """
        if not self.is_attached:
            return Style(bold=bold)
        colour = theme_color(self.app, f"text-{name}", theme_color(self.app, name, ""))
        return Style(color=colour or None, bold=bold)

    def refresh_from(self, item: ToolItem) -> None:
        self.item = item
        self.set_class(item.state is ToolState.ERROR, "-error")
        self.set_class(item.state is ToolState.DENIED, "-denied")
        self.set_class(item.state is ToolState.WAITING, "-waiting")
        self._header_shown = self._header()
        self._header_widget.update(self._header_shown)
        # Edits are the heart of a coding agent: their diff opens as soon as it exists.
        if self._has_diff() and not self._diff_shown:
            self._diff_shown = True
            self.expanded = True
        if item.state is ToolState.ERROR and not self.expanded:
            self.expanded = True
        self._render_body()

    def _patch(self) -> list[dict[str, Any]] | None:
        """The structured patch, if the result has one ([] for a Write that created a file)."""
        result = self.item.structured
        patch = result.get("structuredPatch") if isinstance(result, dict) else None
        return patch if isinstance(patch, list) else None

    def _has_diff(self) -> bool:
        return self.item.name in _DIFF_TOOLS and self._patch() is not None

    def _render_body(self) -> None:
        body = self._body
        body.display = self.expanded
        if not self.expanded or not self.is_mounted:
            return
        body.remove_children()
        body.mount_all(list(self._body_widgets()))

    def _body_widgets(self) -> list[Widget]:
        item = self.item
        widgets: list[Widget] = []
        if not self._has_diff():
            plan = item.input.get("plan") if item.name == "ExitPlanMode" else None
            if isinstance(plan, str):
                # The plan reads as Markdown (which never parses Rich markup nor decodes `&#x202e;`).
                # (Imported here, as the diff below: the first screen needs neither, see markdown_part.py.)
                from claude_tui.ui.render.safe_markdown import SafeMarkdown

                widgets.append(SafeMarkdown(printable(_clip(plan)), classes="tool-input tool-plan"))
            elif item.input:
                widgets.append(Static(self._input_text(), classes="tool-input"))
        for run in item.hooks:
            classes = "tool-hook -failed" if _hook_failed(run) else "tool-hook"
            widgets.append(Static(Text(one_line(hook_words(run))[:240]), classes=classes))
        diff = self._diff_widget()
        if diff is not None:
            widgets.append(diff)
        elif item.finished or item.result_text:
            widgets.extend(self._result_widgets())
        return widgets

    def _input_text(self) -> Text:
        item = self.item
        if item.name == "Bash" and isinstance(item.input.get("command"), str):
            return Text("$ " + printable(_clip(item.input["command"])), style="bold")
        bounded = shown_value(item.input)  # before dumping: a 50 MB field is not copied to be cut
        try:
            dumped = json.dumps(bounded, indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            dumped = repr(bounded)
        return Text(printable(_clip(dumped, 4000)))

    def _diff_widget(self) -> Widget | None:
        if not self._has_diff() or self.item.diff is None:
            return None
        from claude_tui.ui.log.tool_diff import card_diff_view

        return card_diff_view(self.item.diff)

    def _result_widgets(self) -> list[Widget]:
        item = self.item
        widgets: list[Widget] = []
        structured = item.structured
        if item.name == "Bash" and isinstance(structured, dict):
            stdout = str(structured.get("stdout") or "")
            stderr = str(structured.get("stderr") or "")
            if stdout:
                widgets += _output(stdout, "tool-output")
            if stderr:
                widgets += _output(stderr, "tool-output tool-stderr")
            state = "interrupted" if structured.get("interrupted") else ("error" if item.result_is_error else "exit 0")
            interpretation = structured.get("returnCodeInterpretation")
            if interpretation:
                state = one_line(str(interpretation))[:200]  # the CLI's words: one inert line
            widgets.append(Static(Text(state, style="dim"), classes="tool-exit"))
            if not stdout and not stderr and item.result_text:
                widgets[:0] = _output(item.result_text, "tool-output")
            return widgets
        if item.result_text:
            text = item.result_text.replace("<tool_use_error>", "").replace("</tool_use_error>", "")
            classes = "tool-output tool-error" if item.result_is_error else "tool-output"
            widgets += _output(text, classes)
        for media, size in item.images:
            widgets.append(Static(Text(f"[image: {printable(media)}, {units.size(size)}]", style="italic"),
                                  classes="tool-image"))
        return widgets

    # -- interaction -----------------------------------------------------------------
    def toggle(self) -> None:
        self.set_expanded(not self.expanded)

    def set_expanded(self, expanded: bool) -> None:
        if expanded != self.expanded:
            self.expanded = expanded
            self._render_body()

    def on_click(self, event: Any) -> None:
        if getattr(event, "widget", None) is self._header_widget:
            self.toggle()

    def tick(self) -> None:
        """Called by the log on its clock while the tool runs: the elapsed time, once a second."""
        if self.item.state is ToolState.RUNNING:
            header = self._header()
            if header != self._header_shown:
                self._header_shown = header
                self._header_widget.update(header)
