"""A long tool output says how much of it is not shown (an expanded Read of 4,000 lines showed 20
and simply stopped)."""

from __future__ import annotations

from textual.widgets import Static

from claude_tui.ui.log.tool_card import OUTPUT_ROWS, _output


def _texts(text: str) -> list[str]:
    return [str(widget.content) for widget in _output(text, "tool-output") if isinstance(widget, Static)]


def test_an_output_that_fits_is_shown_whole_with_no_note() -> None:
    text = "\n".join(f"line {n}" for n in range(OUTPUT_ROWS))
    assert _texts(text) == [text]


def test_a_longer_output_shows_its_head_and_counts_the_rest() -> None:
    text = "\n".join(f"line {n}" for n in range(1979))
    shown, note = _texts(text)
    assert shown.splitlines() == [f"line {n}" for n in range(OUTPUT_ROWS - 1)]
    assert note.startswith(f"… {1979 - (OUTPUT_ROWS - 1):,} more lines")


def test_the_output_stays_inert() -> None:
    shown, _note = _texts("\x1b]52;c;eA==\x07\n" * 40)
    assert "\x1b" not in shown and "␛" in shown


def test_the_newline_that_ends_the_output_is_no_line_of_its_own() -> None:
    text = "".join(f"line {n}\n" for n in range(OUTPUT_ROWS))
    assert len(_texts(text)) == 1  # 20 lines and their newlines: all shown, no note
    longer = "".join(f"line {n}\n" for n in range(4000))
    assert _texts(longer)[1].startswith(f"… {4000 - (OUTPUT_ROWS - 1):,} more lines")


def test_a_calls_hook_runs_are_on_its_card_inert() -> None:
    from claude_tui.session.items import HookRun, ToolItem, ToolState
    from claude_tui.ui.log.tool_card import ToolCard

    item = ToolItem(tool_use_id="t", name="Bash", input={"command": "ls"}, state=ToolState.RUNNING,
                    hooks=[HookRun(hook_id="h1", event="PreToolUse", name="PreToolUse:Bash", running=False,
                                   exit_code=2, outcome="error", output="no \x1b[31mrm\x1b[0m here\nsecond")])
    card = ToolCard(item)
    assert "1 hook ✗" in card._header().plain
    lines = [str(w.content) for w in card._body_widgets() if isinstance(w, Static) and w.has_class("tool-hook")]
    assert lines == ["PreToolUse hook · exit 2 · no ␛[31mrm␛[0m here"]
