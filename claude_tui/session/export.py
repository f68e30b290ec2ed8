"""The live conversation as plain text: export (Markdown, JSON), copy and find.

Everything here works on the raw item data (what the model and the tools
actually produced), never on rendered text, so copies and exports carry no
wrapping or indentation artefacts. Pure: no Textual.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any
from weakref import WeakKeyDictionary

from claude_tui.protocol.sanitize import inert_json, printable
from claude_tui.session.items import Item, NoteItem, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.status import SessionStatus

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})([^\n`]*)$")


def tool_output(item: ToolItem) -> str:
    """A tool's output as the tool printed it (Bash stdout then stderr, else the result text)."""
    structured = item.structured
    if item.name == "Bash" and isinstance(structured, dict):
        parts = [str(structured.get(key) or "") for key in ("stdout", "stderr")]
        joined = "\n".join(part.rstrip("\n") for part in parts if part)
        if joined:
            return joined
    text = item.result_text
    return text.replace("<tool_use_error>", "").replace("</tool_use_error>", "")


def tool_input_text(item: ToolItem) -> str:
    command = item.input.get("command")
    if item.name == "Bash" and isinstance(command, str):
        return command
    try:
        return json.dumps(item.input, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(item.input)


def item_text(item: Item) -> str:
    """The raw text of one item, as it would be copied."""
    if isinstance(item, (UserItem, TextItem, ThinkingItem)):
        return item.text
    if isinstance(item, ToolItem):
        output = tool_output(item)
        return output if output else tool_input_text(item)
    if isinstance(item, NoteItem):
        return f"{item.title}: {item.text}" if item.title else item.text
    return ""


def patch_text(item: ToolItem) -> str:
    """The lines of an edit's diff as the card shows them, context lines included (the tool's
    input holds only the changed ones): the result's `structuredPatch` hunks, markers dropped."""
    structured = item.structured
    hunks = structured.get("structuredPatch") if isinstance(structured, dict) else None
    if not isinstance(hunks, list):
        return ""
    lines = [line[1:] for hunk in hunks if isinstance(hunk, dict)
             for line in hunk.get("lines") or [] if isinstance(line, str)]
    return "\n".join(lines)


def searchable_text(item: Item) -> str:
    """Everything find should look at in an item (for a tool: name, input, its diff and output)."""
    if isinstance(item, ToolItem):
        parts = (item.name, tool_input_text(item), patch_text(item), tool_output(item))
        return "\n".join(part for part in parts if part)
    return item_text(item)


def _search_key(item: Item) -> tuple[object, ...]:
    """What `searchable_text(item)` is made of. Items change by getting new values (strings,
    dicts), never by mutating them in place, so comparing these finds a changed item cheaply:
    an unchanged value is the same object, and tuple comparison checks identity first."""
    if isinstance(item, ToolItem):
        return item.name, item.input, item.structured, item.result_text
    if isinstance(item, NoteItem):
        return item.title, item.text
    if isinstance(item, (UserItem, TextItem, ThinkingItem)):
        return (item.text,)
    return ()


class _Searched:
    """An item's casefolded searchable text, and the last needle tried on it."""

    __slots__ = ("key", "text", "needle", "hit")

    def __init__(self, key: tuple[object, ...], text: str) -> None:
        self.key = key
        self.text = text
        self.needle = ""
        self.hit = False


_searched: WeakKeyDictionary[Item, _Searched] = WeakKeyDictionary()
"""Per item (and gone with it): building searchable text (JSON of tool inputs, casefolding
whole outputs) is what made find slow on long logs, once per item per keystroke."""


def find_items(items: Iterable[Item], query: str) -> list[str]:
    """Ids of the items containing `query` (case-insensitive), in log order.

    Typing a query one key at a time asks for "z", "ze", "zeb"…: an unchanged item that did
    not contain the previous needle cannot contain a longer one, and is not searched again.
    """
    needle = query.casefold()
    if not needle:
        return []
    found: list[str] = []
    for item in items:
        key = _search_key(item)
        entry = _searched.get(item)
        if entry is None or entry.key != key:
            entry = _searched[item] = _Searched(key, searchable_text(item).casefold())
        elif entry.needle and not entry.hit and needle.startswith(entry.needle):
            continue  # it misses a part of this needle, so it misses all of it
        elif entry.hit and needle in entry.needle:
            found.append(item.id)  # it holds a needle this one is a part of
            continue
        entry.needle, entry.hit = needle, needle in entry.text
        if entry.hit:
            found.append(item.id)
    return found


def code_blocks(markdown: str) -> list[str]:
    """The contents of the fenced code blocks in `markdown`, without the fences."""
    blocks: list[str] = []
    lines: list[str] | None = None
    fence = ""
    for line in markdown.splitlines():
        match = _FENCE.match(line.rstrip())
        if lines is None:
            if match:
                fence, lines = match.group(2), []
        elif match and match.group(2).startswith(fence[0]) and len(match.group(2)) >= len(fence) \
                and not match.group(3).strip():
            blocks.append("\n".join(lines))
            lines = None
        else:
            lines.append(line)
    if lines is not None:  # an unclosed fence (still streaming) still counts
        blocks.append("\n".join(lines))
    return blocks


def last_answer(items: list[Item]) -> TextItem | None:
    for item in reversed(items):
        if isinstance(item, TextItem) and item.text.strip():
            return item
    return None


# -- export -------------------------------------------------------------------------------
#
# An export is something a user can share: headings follow the turns and who spoke, a tool call
# shows its input, its output (cut with a marker past OUTPUT_MAX_LINES / OUTPUT_MAX_CHARS) and
# its file change as a fenced ``diff`` block; thinking is a collapsed <details> block. The JSON
# export carries the same content, item by item, with the same turn numbers.

OUTPUT_MAX_LINES = 80
OUTPUT_MAX_CHARS = 8000


def _fence_for(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


def _fenced(text: str, language: str = "") -> list[str]:
    fence = _fence_for(text)
    return [f"{fence}{language}", text, fence]


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines()) or ">"


def truncated(text: str, max_lines: int = OUTPUT_MAX_LINES, max_chars: int = OUTPUT_MAX_CHARS) -> tuple[str, str]:
    """``(text cut to size, marker saying what was left out or "")``."""
    lines = text.splitlines()
    kept = lines[:max_lines]
    out = "\n".join(kept)
    if len(out) > max_chars:
        out = out[:max_chars]
        kept = out.splitlines()
    left = len(lines) - len(kept)
    if not left and len(out) >= len(text.rstrip("\n")):
        return text.rstrip("\n"), ""
    return out, f"… output truncated: {left:,} more line{'s' if left != 1 else ''} not shown " \
                f"({len(text):,} characters in all)"


def diff_text(item: ToolItem) -> str:
    """The tool's file change as a unified diff (empty when it changed no file or the change is guarded)."""
    diff = item.diff
    if diff is None or not diff.hunks:
        return ""
    path = diff.path or str(item.input.get("file_path") or "")
    lines = [f"--- a/{path.lstrip('/')}" if diff.kind != "create" else "--- /dev/null",
             f"+++ b/{path.lstrip('/')}"]
    for hunk in diff.hunks:
        lines.append(hunk.header)
        lines.extend(hunk.lines)
    return "\n".join(lines)


def _tool_heading(item: ToolItem) -> str:
    subject = ""
    for key in ("file_path", "path", "notebook_path", "pattern", "url", "query", "description"):
        value = item.input.get(key)
        if isinstance(value, str) and value.strip():
            subject = " " + value.strip().splitlines()[0][:120]
            break
    return f"#### {item.name or 'Tool'}{subject} ({item.state.value})"


def _tool_markdown(item: ToolItem) -> list[str]:
    out = [_tool_heading(item), ""]
    command = tool_input_text(item)
    out += [*_fenced(command, "bash" if item.name == "Bash" else "json"), ""]
    diff = diff_text(item)
    if item.state in (ToolState.DENIED, ToolState.INTERRUPTED):
        reason = tool_output(item).strip()
        label = "Denied" if item.state is ToolState.DENIED else "Interrupted"
        out += [_quote(f"{label}: {reason}" if reason else label), ""]
    elif diff:
        out += [*_fenced(diff, "diff"), ""]
    else:
        output = tool_output(item)
        if output.strip():
            shown, marker = truncated(output)
            out += ["Output:", "", *_fenced(shown, "text"), ""]
            if marker:
                out += [f"*{marker}*", ""]
    if item.decision:
        out += [f"*{item.decision}*", ""]
    return out


def to_markdown(items: list[Item], status: SessionStatus | None = None, *, include_thinking: bool = True,
                title: str | None = None) -> str:
    """The conversation as a Markdown document: ``## Turn N``, then ``### You`` / ``### Claude`` and the tools."""
    out: list[str] = [f"# {title or 'Claude Code session'}", ""]
    if status is not None:
        for label, value in (("Session", status.session_id), ("Model", status.model), ("Directory", status.cwd),
                             ("Claude Code", status.cli_version)):
            if value:
                out.append(f"- {label}: `{value}`")
        if status.cost_total:
            out.append(f"- Cost: ${status.cost_total:.4f}")
        out.append("")
    turn = 0
    speaker = ""
    for item in items:
        if isinstance(item, UserItem):
            turn += 1
            # Quoted: a prompt's own '# ' lines or an unclosed ``` stay inside it instead of
            # restructuring (or swallowing) the rest of the document.
            out += [f"## Turn {turn}", "", "### You", "", _quote(item.text), ""]
            speaker = "you"
            continue
        if isinstance(item, NoteItem):
            out += [_quote(item_text(item)), ""]
            continue
        if isinstance(item, ThinkingItem) and not (include_thinking and item.text):
            continue
        if speaker != "claude":  # thinking, a tool call or text that opens Claude's part
            out += ["### Claude", ""]
            speaker = "claude"
        if isinstance(item, TextItem):
            out += [item.text, ""]
        elif isinstance(item, ThinkingItem):
            out += ["<details><summary>Thinking</summary>", "", *_fenced(item.text), "", "</details>", ""]
        elif isinstance(item, ToolItem):
            out += _tool_markdown(item)
    # A document made to be read, and read in terminals too (`claude-tui export` prints it, and a
    # saved one gets `cat`): what the model or a tool wrote must not act on the terminal there
    # either (an OSC 52 in a tool's output set the clipboard). Controls as the app shows them.
    return printable("\n".join(out).rstrip("\n") + "\n")


def _item_json(item: Item, turn: int) -> dict[str, Any]:
    if isinstance(item, UserItem):
        return {"type": "user", "turn": turn, "text": item.text}
    if isinstance(item, TextItem):
        return {"type": "assistant", "turn": turn, "text": item.text}
    if isinstance(item, ThinkingItem):
        return {"type": "thinking", "turn": turn, "text": item.text, "redacted": item.redacted}
    if isinstance(item, ToolItem):
        output, marker = truncated(tool_output(item))
        return {"type": "tool", "turn": turn, "name": item.name, "tool_use_id": item.tool_use_id,
                "input": item.input, "state": item.state.value, "output": output, "output_truncated": marker or None,
                "diff": diff_text(item) or None, "is_error": item.result_is_error, "decision": item.decision}
    if isinstance(item, NoteItem):
        return {"type": "note", "turn": turn, "kind": item.kind.value, "title": item.title, "text": item.text}
    return {"type": type(item).__name__, "turn": turn}


def to_json(items: list[Item], status: SessionStatus | None = None, *, title: str | None = None) -> str:
    """The same content as :func:`to_markdown`, one object per item (``turn`` numbers as in its headings)."""
    data: dict[str, Any] = {}
    if title:
        data["title"] = title
    if status is not None:
        data["session"] = {"session_id": status.session_id, "model": status.model, "cwd": status.cwd,
                           "cli_version": status.cli_version, "cost_usd": status.cost_total}
    turn = 0
    entries = []
    for item in items:
        turn += isinstance(item, UserItem)
        entries.append(_item_json(item, turn))
    data["items"] = entries
    # JSON escapes C0 itself; C1 and the bidi controls would go out raw (a terminal may act on
    # them): escaped too, so the data is the same and the text is inert wherever it is printed.
    return inert_json(json.dumps(data, indent=2, ensure_ascii=False, default=str)) + "\n"
