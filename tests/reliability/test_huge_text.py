"""A 50 MB one-line prompt and a 50 MB tool input in a resumed transcript: the log draws at most
`session.shown.SHOWN_CHARS` of each (with how much more there is), keys still reach the prompt, and
memory grows by far less than the text; the items keep the whole text for copy and export.

Was: PageUp twice, the next key echoed after 14 s, memory went from 270 MB to 1.2 GB.
"""

from __future__ import annotations

import tracemalloc
import uuid
from pathlib import Path

from textual.widgets import Static

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.history.synth import turn_records, write_jsonl
from claude_tui.history.transcript import load_transcript
from claude_tui.resume import conversation_from_transcript
from claude_tui.session.items import ToolItem, UserItem
from claude_tui.session.shown import SHOWN_CHARS, shown, shown_value
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.log.items import UserPrompt
from claude_tui.ui.log.tool_card import ToolCard
from tests.pilot.helpers import chat, wait_for

HUGE = 50 * 1024 * 1024


def huge_transcript(folder: Path) -> Path:
    sid = str(uuid.uuid4())
    records = turn_records(sid, None, "p" * HUGE, "a short answer")
    tool = turn_records(sid, records[-1]["uuid"], "write it", "written", tool="Write", file_path="/tmp/big.txt")
    tool[2]["message"]["content"][0]["input"] = {"file_path": "/tmp/big.txt", "content": "c" * HUGE}
    records += tool + turn_records(sid, tool[-1]["uuid"], "the last prompt", "the end")
    return write_jsonl(folder / f"{sid}.jsonl", records)


def drawn(widget: Static) -> str:
    return str(widget.render())


def test_the_bound_is_one_function() -> None:
    assert shown("x" * SHOWN_CHARS) == "x" * SHOWN_CHARS
    cut = shown("x" * (SHOWN_CHARS + 5))
    assert cut.startswith("x" * SHOWN_CHARS) and "5 more characters" in cut
    value = shown_value({"a": "y" * HUGE, "b": ["z" * HUGE], "n": 3})
    assert sum(len(v) for v in (value["a"], value["b"][0])) < SHOWN_CHARS + 200 and value["n"] == 3


async def test_a_resumed_50_mb_prompt_and_tool_input_stay_responsive(tmp_path: Path) -> None:
    conversation = conversation_from_transcript(load_transcript(huge_transcript(tmp_path)))
    (tmp_path / "a.txt").write_text("a")
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"})
    app = ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation)
    tracemalloc.start()
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            view = chat(app)
            await wait_for(pilot, lambda: view.session.connection.alive, what="the CLI")
            await pilot.press("pageup", "pageup")
            await wait_for(pilot, lambda: app.screen.query(UserPrompt) and app.screen.query(ToolCard), what="the huge items drawn")
            await pilot.press(*"hello")
            prompt = view.query_one("#prompt")
            await wait_for(pilot, lambda: prompt.text == "hello", what="typed keys echoed")  # type: ignore[attr-defined]
            for widget in app.screen.query(UserPrompt):
                assert len(drawn(widget)) < SHOWN_CHARS + 200
            huge_prompt = next(w for w in app.screen.query(UserPrompt) if "ppppp" in drawn(w))
            assert "more characters not shown" in drawn(huge_prompt)
            for card in app.screen.query(ToolCard):
                card.expanded = True  # type: ignore[attr-defined]
            await pilot.pause()
            for card in app.screen.query(ToolCard):
                assert sum(len(drawn(s)) for s in card.query(Static)) < 4 * SHOWN_CHARS
            _, peak = tracemalloc.get_traced_memory()
            assert peak < HUGE, f"{peak:,} bytes traced while drawing"  # the text is 2 × 50 MB
    finally:
        tracemalloc.stop()
    items = conversation.items
    assert any(isinstance(i, UserItem) and len(i.text) == HUGE for i in items)  # copy/export: whole
    assert any(isinstance(i, ToolItem) and len(i.input.get("content", "")) == HUGE for i in items)
