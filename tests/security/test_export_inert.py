"""Exports are read in terminals too (`claude-tui export` prints one, a saved one gets `cat`): what
the model, a tool or a prompt wrote must not act on the terminal there. Markdown shows controls as
the app does; JSON escapes them, so its data is unchanged."""

from __future__ import annotations

import json

import pytest

from claude_tui.session.export import to_json, to_markdown
from claude_tui.session.items import TextItem, ThinkingItem, ToolItem, ToolState, UserItem

HOSTILE = [
    "\x1b]52;c;cHduZWQ=\x07",  # OSC 52: set the clipboard
    "\x1b[31mred\x1b[0m",  # SGR
    "\x1b[2J\x1b[H",  # clear the screen
    "\x9b31m",  # C1 CSI
    "\u202egnp.exe",  # bidi override
    "bell\x07 and \x7f del",
]
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\x7f")


def _items(text: str) -> list[object]:
    tool = ToolItem(tool_use_id="t1", name="Bash", input={"command": f"echo '{text}'"})
    tool.state, tool.output = ToolState.DONE, f"out {text}"
    return [UserItem(text=f"prompt {text}"), ThinkingItem(text=f"thought {text}"), TextItem(text=f"answer {text}"),
            tool]


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_export_carries_no_control_character(text: str) -> None:
    document = to_markdown(_items(text))  # type: ignore[arg-type]
    assert not [char for char in RAW if char in document]
    assert "␛" in document or "\\x9b" in document or "\\u202e" in document or "␇" in document or "␡" in document


@pytest.mark.parametrize("text", HOSTILE)
def test_json_export_escapes_them_and_keeps_the_data(text: str) -> None:
    document = to_json(_items(text))  # type: ignore[arg-type]
    assert not [char for char in RAW if char in document]
    texts = [entry.get("text", "") for entry in json.loads(document)["items"]]
    assert f"answer {text}" in texts
