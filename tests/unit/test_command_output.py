"""Local-command notes (e.g. /model's "Set model to `…`") show inline code as code, never as markup."""

from __future__ import annotations

from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.widget import Widget

from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.ui.log.chat_log import widget_for
from claude_tui.ui.log.items import PlainCommandOutput, with_inline_code
from tests.styles import APP_CSS

CSS = [APP_CSS]


class NoteApp(App[None]):
    CSS_PATH = CSS  # type: ignore[assignment]

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


def _segments(widget: Widget) -> list[Segment]:
    return [segment for y in range(widget.size.height) for segment in widget.render_line(y)]


def _text(widget: Widget) -> str:
    return "\n".join(widget.render_line(y).text for y in range(widget.size.height))


async def test_set_model_note_shows_the_model_as_code_without_backticks() -> None:
    item = NoteItem(kind=NoteKind.LOCAL_COMMAND, text="Set model to `sonnet (claude-sonnet-5-5)`")
    widget = widget_for(item)
    assert isinstance(widget, PlainCommandOutput)
    async with NoteApp(widget).run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        shown = _text(widget)
        assert "Set model to sonnet (claude-sonnet-5-5)" in shown
        assert "`" not in shown
        segments = _segments(widget)
        code = next(s for s in segments if "claude-sonnet-5-5" in s.text)
        prose = next(s for s in segments if "Set model" in s.text)
        assert "Set model" not in code.text
        assert code.style is not None and prose.style is not None
        assert code.style.bgcolor != prose.style.bgcolor  # drawn as code, not as the prose around it


async def test_refresh_keeps_inline_code() -> None:
    item = NoteItem(kind=NoteKind.LOCAL_COMMAND, text="Set model to `a`")
    widget = PlainCommandOutput(item)
    async with NoteApp(widget).run_test(size=(80, 10)) as pilot:
        widget.refresh_from(NoteItem(kind=NoteKind.LOCAL_COMMAND, text="Kept model as `opus`"))
        await pilot.pause()
        assert "Kept model as opus" in _text(widget)


async def test_markup_and_controls_inside_code_stay_literal() -> None:
    hostile = "Set model to `[bold red]x[/] [@click=app.quit]q[/]\x1b[2J`"
    widget = PlainCommandOutput(NoteItem(kind=NoteKind.LOCAL_COMMAND, text=hostile))
    async with NoteApp(widget).run_test(size=(100, 10)) as pilot:
        await pilot.pause()
        shown = _text(widget)
        assert "[bold red]x[/] [@click=app.quit]q[/]␛[2J" in shown
        assert "\x1b" not in shown


def test_only_backtick_pairs_on_one_line_become_code() -> None:
    content = with_inline_code("a `b` c `d\ne` end")
    assert content.plain == "a b c `d\ne` end"
    assert [(span.start, span.end) for span in content.spans] == [(2, 3)]


def test_aligned_output_without_backticks_is_unchanged() -> None:
    cost = "Total cost:            $0.0123\nTotal duration (API):  1.2s\n"
    assert with_inline_code(cost).plain == cost
    assert with_inline_code(cost).spans == []
