"""How a tool request's input is shown in the permission dialog, and the previews it needs.

Everything that comes from a request (commands, paths, URLs, JSON values) is
untrusted: it is passed through :func:`clean` and turned into ``Content`` with
explicit spans, never parsed as markup. File previews read the file on disk with
size and type guards, so they may run in a thread without ever blocking on a
FIFO or loading a multi-gigabyte file.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.highlight import highlight

from claude_tui.diff import compute, notebook
from claude_tui.diff.model import FileDiff
from claude_tui.protocol import units
from claude_tui.protocol.reveal import conceals, escape_bytes, reveal
from claude_tui.protocol.sanitize import SURROGATE_CLASS, printable

if TYPE_CHECKING:
    from claude_tui.remote.machine import Machine

HIGHLIGHT_LIMIT = 20_000
"""Longer text is shown plain: lexing megabytes would stall the dialog."""
DISPLAY_LIMIT = 200_000
"""Longer text is cut for display, with a warning saying so (the full text is still what runs)."""

EDITABLE_FIELDS: dict[str, str] = {
    "Bash": "command",
    "Edit": "new_string",
    "Write": "content",
    "NotebookEdit": "new_source",
}
"""The input field `e` edits, per tool."""

FILE_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})


def clean(value: object) -> str:
    """One line of untrusted text made inert (control characters and stray bytes become visible).

    Not an alias of ``printable``: it takes any value, because tool input is
    arbitrary JSON (a WebFetch ``url`` may be a number) and ``printable`` needs a str.
    """
    return printable(escape_bytes(str(value)))


def clean_block(text: str) -> str:
    """Multi-line untrusted text made inert, keeping its line breaks.

    Tabs are expanded first and each line is cleaned on its own, so whatever the
    sanitizer does with ``\\n`` and ``\\t`` the layout survives.
    """
    lines = escape_bytes(text).replace("\r\n", "\n").expandtabs(4).split("\n")
    return "\n".join(printable(line) for line in lines)


_SURROGATES = re.compile(SURROGATE_CLASS)


def unusual(text: str) -> bool:
    """True for text a diff would call binary or draw wrongly: NUL, control characters, stray bytes."""
    return "\0" in text or bool(_SURROGATES.search(text)) or has_controls(text)


def tool_title(tool_name: str, display_name: str = "") -> str:
    """The name a user recognises: ``mcp__github__create_issue`` → ``github › create_issue``."""
    if tool_name.startswith("mcp__"):
        parts = tool_name.split("__", 2)
        if len(parts) == 3 and parts[1] and parts[2]:
            return clean(f"{parts[1]} › {parts[2]}")
    return clean(display_name or tool_name)


def _cut(text: str) -> tuple[str, str]:
    """(shown text, warning) — the warning is empty unless the text was cut for display."""
    if len(text) <= DISPLAY_LIMIT:
        return text, ""
    return text[:DISPLAY_LIMIT], f"Shown: first {DISPLAY_LIMIT:,} of {len(text):,} characters (press e to see all)."


MARK_STYLE = "italic $text-warning on $warning 15%"
"""Markers the dialog adds (``⋯ 199 blank lines ⋯``, ``·`` for a trailing space, ``␍``): not the input's text."""


def revealed_content(text: str, language: str | None = None) -> tuple[Content, str]:
    """Untrusted input as it must be approved (`reveal`: nothing hidden in whitespace), highlighted
    with theme-aware colours when not too long, markers styled apart; and its last line."""
    shown = reveal(text)
    if language and len(shown.text) <= HIGHLIGHT_LIMIT:
        content = highlight(shown.text, language=language)
    else:
        content = Content(shown.text)
    for start, end in shown.marks:
        content = content.stylize(MARK_STYLE, start, end)
    return content, shown.last_line


def code_content(text: str, language: str) -> Content:
    """Untrusted code, shown with nothing hidden, highlighted when not too long."""
    return revealed_content(text, language)[0]


def json_text(value: Any) -> str:
    """Pretty JSON for arbitrary tool input (json.dumps escapes C0 controls; clean() does the rest)."""
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str)
    except (TypeError, ValueError):  # pragma: no cover - inputs come from JSON
        return repr(value)


@dataclass(frozen=True)
class InputSection:
    """One labelled block of the dialog body (e.g. "Command" with highlighted text)."""

    label: str
    body: Content
    note: str = ""
    """A warning under the block (text cut for display, …); plain words, already clean."""
    css_class: str = ""
    last_line: str = ""
    """The input's last line that is not blank, as shown: said when the end is out of view."""


def _section(label: str, text: str, language: str | None, css_class: str = "", note: str = "") -> InputSection:
    shown, cut = _cut(text)
    body, last = revealed_content(shown, language)
    return InputSection(label, body, " ".join(filter(None, (note, cut))), css_class, last)


def _flags(tool_input: Mapping[str, Any]) -> list[str]:
    """Bash options worth knowing before approving."""
    flags: list[str] = []
    if tool_input.get("run_in_background"):
        flags.append("runs in the background")
    timeout = tool_input.get("timeout")
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        flags.append(f"timeout {timeout / 1000:g} s")
    if tool_input.get("dangerouslyDisableSandbox"):
        flags.append("sandbox disabled")
    return flags


def input_sections(tool_name: str, tool_input: Mapping[str, Any]) -> list[InputSection]:
    """The request's input in its most readable form (file diffs are loaded separately)."""
    if tool_name == "Bash" and isinstance(tool_input.get("command"), str):
        section = _section("Command", tool_input["command"], "bash", "-command")
        flags = _flags(tool_input)
        if flags:
            note = " · ".join(flags) + (f" · {section.note}" if section.note else "")
            section = InputSection(section.label, section.body, note, section.css_class, section.last_line)
        return [section]
    if tool_name == "WebFetch":
        sections = [_section("URL", str(tool_input.get("url", "")), None, "-url")]
        if isinstance(tool_input.get("prompt"), str):
            sections.append(_section("Prompt", tool_input["prompt"], None))
        return sections
    if tool_name == "WebSearch" and isinstance(tool_input.get("query"), str):
        return [_section("Query", tool_input["query"], None, "-url")]
    if tool_name in FILE_TOOLS:
        return _unusual_file_input(tool_name, tool_input)
    label = "Arguments" if tool_name.startswith("mcp__") else "Input"
    if not tool_input:
        return [InputSection(label, Content("(no input)"), css_class="-empty")]
    return [_section(label, json_text(dict(tool_input)), "json")]


_FILE_TEXT_FIELDS = (("content", "Content"), ("old_string", "Old text"), ("new_string", "New text"),
                    ("new_source", "Cell source"))
ESCAPED_NOTE = "Holds NUL, control characters or bytes that are not UTF-8: shown escaped (␀ ␛ \\xNN)."
CONCEALS_NOTE = ("Holds long runs of blank lines or spaces, carriage returns or invisible characters: "
                 "shown here with them marked.")


def _unusual_file_input(tool_name: str, tool_input: Mapping[str, Any]) -> list[InputSection]:
    """A file tool's path and text, escaped and marked, when the diff preview cannot show them all.

    Normally the diff preview shows a file tool's change; text with NUL or stray bytes would make it
    a "binary — not shown" summary, and a diff draws a carriage return, a zero-width character or a
    line pushed past its right edge by spaces as nothing: nothing may be approved unseen."""
    sections: list[InputSection] = []
    path = file_path_of(tool_name, tool_input)
    if path is not None and (unusual(path) or conceals(path)):
        sections.append(_section("Path", path, None, "-url", ESCAPED_NOTE if unusual(path) else CONCEALS_NOTE))
    fields = [(tool_input, key, label) for key, label in _FILE_TEXT_FIELDS]
    edits = tool_input.get("edits") if tool_name == "MultiEdit" else None
    for n, edit in enumerate(edits if isinstance(edits, list) else [], 1):
        if isinstance(edit, Mapping):
            fields += [(edit, "old_string", f"Edit {n}: old text"), (edit, "new_string", f"Edit {n}: new text")]
    for holder, key, label in fields:
        value = holder.get(key)
        if isinstance(value, str) and (unusual(value) or conceals(value)):
            sections.append(_section(label, value, None, note=ESCAPED_NOTE if unusual(value) else CONCEALS_NOTE))
    return sections


def file_path_of(tool_name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The path a file tool touches, or None for other tools."""
    if tool_name not in FILE_TOOLS:
        return None
    path = tool_input.get("notebook_path") if tool_name == "NotebookEdit" else tool_input.get("file_path")
    return path if isinstance(path, str) and path else None


def editable_field(tool_name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The input key `e` may edit (its value is a string), or None."""
    key = EDITABLE_FIELDS.get(tool_name)
    return key if key is not None and isinstance(tool_input.get(key), str) else None


# --------------------------------------------------------------------------- previews


@dataclass(frozen=True)
class DiskFile:
    """What a guarded read found: whether the path exists, and its bytes unless guarded."""

    exists: bool
    data: bytes | None = None
    guard: FileDiff | None = None
    """A ready summary when the file must not be read (too big, not a regular file, unreadable)."""


def read_guarded(path: Path, display_path: str, limit: int = compute.MAX_CHARS) -> DiskFile:
    """Read a file for a preview without ever blocking or loading something huge.

    Only regular files are opened (a FIFO or device would block or never end);
    anything larger than ``limit`` bytes is summarised from its size alone.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return DiskFile(False)
    except OSError as error:
        return DiskFile(True, guard=FileDiff(display_path, "edit", note=f"Cannot read the file: {error.strerror}."))
    if not stat.S_ISREG(info.st_mode):
        return DiskFile(True, guard=FileDiff(display_path, "binary", note="Not a regular file — not shown."))
    if info.st_size > limit:
        note = f"Large file ({units.size(info.st_size)}) — diff not computed."
        return DiskFile(True, guard=FileDiff(display_path, "huge", note=note))
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        return DiskFile(True, guard=FileDiff(display_path, "edit", note=f"Cannot read the file: {error.strerror}."))
    return DiskFile(True, data)


def resolve(path: str, cwd: Path | None) -> Path:
    """A request path on disk: relative paths are taken from the CLI's working directory."""
    candidate = Path(os.path.expanduser(path))
    return candidate if candidate.is_absolute() else (cwd or Path.cwd()) / candidate


def tool_diff_preview(tool_name: str, tool_input: Mapping[str, Any], cwd: Path | None = None, *,
                 machine: Machine | None = None) -> FileDiff | None:
    """The diff a file tool would make, computed against the file on disk (blocking: run in a thread).

    ``machine``: the machine the CLI runs on, when that is another one (`remote/machine.py`)."""
    path = file_path_of(tool_name, tool_input)
    if path is None:
        return None
    if machine is not None and machine.remote:
        from claude_tui.remote.machine import read_preview

        disk = DiskFile(*read_preview(machine, path, str(cwd or ""), compute.MAX_CHARS))
    else:
        disk = read_guarded(resolve(path, cwd), path)
    if disk.guard is not None:
        return disk.guard
    if tool_name == "Write":
        return compute.preview_write(disk.exists, disk.data, str(tool_input.get("content", "")), path=path)
    if tool_name == "Edit":
        return compute.preview_edit(
            disk.data,
            str(tool_input.get("old_string", "")),
            str(tool_input.get("new_string", "")),
            bool(tool_input.get("replace_all", False)),
            path=path,
        )
    if tool_name == "MultiEdit":
        edits = tool_input.get("edits")
        return compute.preview_multiedit(disk.data, edits if isinstance(edits, list) else [], path=path)
    return notebook.preview_notebook(
        disk.data.decode("utf-8", "replace") if disk.data is not None else None,
        tool_input.get("cell_id") if isinstance(tool_input.get("cell_id"), str) else None,
        str(tool_input.get("new_source", "")),
        tool_input.get("cell_type") if isinstance(tool_input.get("cell_type"), str) else None,
        str(tool_input.get("edit_mode") or "replace"),
        path=path,
    )


def has_controls(text: str) -> bool:
    """True when ``text`` holds characters the sanitizer would change (beyond newlines and tabs).

    Such text cannot be put in an editable TextArea: the TextArea draws its text
    as is, and an ESC in it would reach the terminal.
    """
    return any(printable(line) != line for line in text.replace("\t", " ").split("\n"))
