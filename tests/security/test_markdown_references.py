"""Character references in Markdown (`&#x202E;`, `&#x2066;`, `&rlm;`) stay as written: markdown-it would
decode them into bidi controls *after* our sanitizing. And a link in model text never opens on a
click: the click shows the real address and asks, behind the typeahead guard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Markdown

from claude_tui.config import Config
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ToolItem, ToolState
from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.dialogs.confirm import ConfirmScreen
from claude_tui.ui.dialogs.plan import PlanScreen
from claude_tui.ui.log.assistant_text import AssistantText
from claude_tui.ui.log.command_output import CommandOutput
from claude_tui.ui.log.tool_card import ToolCard
from claude_tui.ui.render.safe_markdown import SafeMarkdown, safe_parser
from tests.reliability.harness import chat, fake_options, make_app, wait_for, wait_ready
from tests.security.test_untrusted_text import assert_inert, feed, screen_rows, svg_text
from tests.styles import MAIN_ROW_CSS

# Bidi embeddings/overrides/isolates and the marks (LRM, RLM, ALM) that references can name.
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
REFS = "RTL&#x202e;evil&#x202c; ISO&#x2066;x&#x2069; MARK&rlm;&lrm; DEC&#8238;"
ANSWER = (f"Answer {REFS}\n\n**bold {REFS}** [link {REFS}](https://ok.example \"title &#x202e;\")\n\n"
          f"| col | {REFS} |\n|---|---|\n| ~~gone~~ | `&#x202e;` |\n\n```py&#x202e;\nprint('&#x202e;')\n```\n")


def _no_bidi(app: App[Any], where: str) -> None:
    rows = "\n".join(screen_rows(app))
    assert not BIDI.search(rows), f"{where}: a bidi control on screen"
    assert not BIDI.search(svg_text(app)), f"{where}: a bidi control in the screenshot"
    assert "RTL&#x202e;evil" in rows, f"{where}: the reference is not shown as written:\n{rows}"


def test_the_parser_decodes_no_references_and_keeps_gfm() -> None:
    tokens = safe_parser().parse(ANSWER)
    flat = [t for tok in tokens for t in [tok, *(tok.children or [])]]
    texts = " ".join(t.content + t.info + " ".join(str(v) for v in t.attrs.values()) for t in flat)
    assert not BIDI.search(texts)
    assert "&#x202e;" in texts and "&rlm;" in texts
    assert {"table_open", "s_open", "link_open", "fence"} <= {t.type for t in flat}


async def test_an_answer_shows_references_as_written(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path), Config(typeahead_guard_ms=0))
    async with app.run_test(size=(140, 50)) as pilot:
        await wait_ready(pilot, app)
        lines = [{"type": "assistant", "parent_tool_use_id": None, "message": {
            "id": "msg_r", "model": "claude-x", "content": [{"type": "text", "text": ANSWER}]}}]
        await feed(pilot, app, lines)
        log = chat(app).query_one("#chat-log")
        await wait_for(pilot, lambda: any("RTL&#x202e;evil" in r for r in screen_rows(app)), 5, "the answer")
        _no_bidi(app, "answer")
        assert_inert(app, "answer")
        rows = screen_rows(app)
        header = next(i for i, row in enumerate(rows) if "col" in row and "RTL&#x202e;evil" in row)
        assert "────" in rows[header + 1] and "gone" in rows[header + 2], "tables still render"
        assert log.query_one(AssistantText).region.height > 0


class Host(App[None]):
    CSS = MAIN_ROW_CSS

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


@pytest.mark.parametrize("make", [
    lambda: CommandOutput(NoteItem(kind=NoteKind.LOCAL_COMMAND, text=ANSWER)),
    lambda: AssistantText(TextItem(text=ANSWER)),
], ids=["command-output", "answer"])
async def test_markdown_surfaces_show_references_as_written(make: Any) -> None:
    app = Host(make())
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause(0.3)
        _no_bidi(app, type(app.widget).__name__)
        assert all(isinstance(m, SafeMarkdown) for m in app.query(Markdown))


async def test_a_plan_card_shows_references_as_written() -> None:
    card = ToolCard(ToolItem(name="ExitPlanMode", input={"plan": ANSWER}, state=ToolState.DONE))
    app = Host(card)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause(0.1)
        card.toggle()
        await pilot.pause(0.3)
        _no_bidi(app, "plan card")
        assert app.query(SafeMarkdown)


async def test_the_plan_dialog_shows_references_as_written() -> None:
    dialog = PlanScreen(PermissionRequest("p", "ExitPlanMode", {}, plan=ANSWER), guard_ms=0)

    class DialogApp(App[None]):
        CSS_PATH = Host.CSS_PATH

        def on_mount(self) -> None:
            self.push_screen(dialog)

    app = DialogApp()
    async with app.run_test(size=(140, 50)) as pilot:
        await pilot.pause(0.3)
        _no_bidi(app, "plan dialog")
        assert isinstance(dialog.query_one("#plan"), SafeMarkdown)


# -- links ----------------------------------------------------------------------------------------------------

LINKS = "[the docs](https://docs.example/page) and [local](file:///etc/passwd) [ctl](https://x.example/%E2%80%AE)"


async def test_a_link_click_shows_the_address_and_asks_behind_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    app = Host(SafeMarkdown(LINKS))
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause(0.2)
        markdown = app.query_one(SafeMarkdown)
        markdown.post_message(Markdown.LinkClicked(markdown, "https://docs.example/page"))
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 5, "the link question")
        confirm = app.screen
        assert "https://docs.example/page" in "\n".join(screen_rows(app))
        await pilot.press("y")  # at once: the question waits, y is typing
        await pilot.pause(0.1)
        assert opened == [] and app.screen is confirm
        await pilot.press("tab", "y")  # moved to it, but y at once: swallowed by the guard (400 ms)
        await pilot.pause(0.1)
        assert opened == [] and app.screen is confirm and not confirm.waiting  # the guard held, still moved to
        await pilot.pause(0.6)  # past the guard
        await pilot.press("y")
        await wait_for(pilot, lambda: opened == ["https://docs.example/page"], 5, "the link to open")


@pytest.mark.parametrize("href", ["file:///etc/passwd", "https://x.example/\u202e", "javascript:alert(1)"])
async def test_other_links_are_only_shown(href: str, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    notes: list[str] = []
    app = Host(SafeMarkdown(LINKS))
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause(0.2)
        markdown = app.query_one(SafeMarkdown)
        monkeypatch.setattr(markdown, "notify", lambda message, **_: notes.append(message))
        markdown.post_message(Markdown.LinkClicked(markdown, href))
        await pilot.pause(0.3)
        assert not isinstance(app.screen, ConfirmScreen) and opened == []
        assert len(notes) == 1 and notes[0].startswith("Link not opened: ") and not BIDI.search(notes[0])


@pytest.mark.parametrize("make", [lambda: SafeMarkdown(LINKS), lambda: AssistantText(TextItem(text=LINKS))],
                         ids=["markdown", "answer"])
async def test_clicking_a_rendered_link_opens_nothing_by_itself(make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    app = Host(make())
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause(0.2)
        spot = next((x, y) for y, row in enumerate(screen_rows(app)) if (x := row.find("the docs")) >= 0)
        await pilot.click(offset=(spot[0] + 2, spot[1]))
        await pilot.pause(0.3)
        assert opened == []
        assert isinstance(app.screen, ConfirmScreen), "the click should ask, showing the address"


async def test_an_answer_link_is_a_click_action_not_a_terminal_hyperlink() -> None:
    """Rich renders links as OSC 8 hyperlinks, which a terminal opens on its own: the answer's
    lines carry no link, only a click action naming the address by number."""
    answer = AssistantText(TextItem(text=LINKS + "\n\nsee https://auto.example/x too"))
    app = Host(answer)
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause(0.2)
        strips = [answer.render_line(y) for y in range(answer.region.height)]
        styles = [segment.style for strip in strips for segment in strip if segment.style is not None]
        assert styles and not any(style.link for style in styles)
        actions = {style.meta.get("@click") for style in styles if style.meta.get("@click")}
        assert actions == {"open_link(0)", "open_link(1)", "open_link(2)"}, actions
        assert "\x1b]8" not in app.export_screenshot()
