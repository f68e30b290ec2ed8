"""Untrusted text is shown literally and inert on every surface.

Hostile payloads (OSC 52 clipboard writes, OSC 8 links, CSI, C1 controls, BEL,
Textual/Rich markup with actions and links, bidi overrides, very long lines,
CJK/emoji/RTL) are put into assistant text, thinking, tool input and output,
diff lines, file paths, permission descriptions, question options and session
titles. For each screen we check:

* the rendered strips (what the compositor hands the terminal) and the
  exported SVG carry no ESC, BEL, C1 or bidi-override character from the
  payload, and the terminal byte stream built from the strips contains none of
  the payload's escape sequences (Textual's own CSI/SGR are expected);
* no rendered segment carries an ``app.quit`` click action or a link to the
  payload's host;
* the markup is visible literally (``[@click=app.quit]…``), and clicking on
  it and pressing keys does not quit the app.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.strip import Strip

from claude_tui.config import Config
from claude_tui.protocol import decode_obj
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.chat.connection import CliConnection
from tests.reliability.harness import SIZE, chat, fake_options, make_app, run_turn, wait_for, wait_ready

EVIL_HOST = "evil.example"
FORBIDDEN_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
PAYLOAD_SEQUENCES = ["\x1b]52", "\x1b]0;", "\x1b[2J", "\x1b[31m", "\x9b", "\x07", "\x1bP", "\x1b]8;;"]


def hostile(tag: str) -> str:
    return (f"[@click=app.quit]{tag}[/] [link=https://{EVIL_HOST}]{tag}L[/link] [bold red]{tag}R[/] "
            f"\x1b]52;c;cHduZWQ=\x07 \x1b]8;;https://{EVIL_HOST}\x1b\\{tag}8\x1b]8;;\x1b\\ \x1b[31m{tag}red\x1b[0m "
            f"\x1b[2J \x9b31m \x85 \x07 \x00 \r\x08 \x1b]0;title\x07 \u202e{tag}evil\u202c 日本語 😀 שלום עולם")


LONG = "x" * 20_000


def visible_click(tag: str) -> str:
    return f"[@click=app.quit]{tag}"


# -- what reached the screen ---------------------------------------------------------------------------------

def screen_strips(app: ClaudeTuiApp) -> list[Strip]:
    return app.screen._compositor.render_strips()


def screen_rows(app: ClaudeTuiApp) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in screen_strips(app)]


def terminal_bytes(app: ClaudeTuiApp) -> str:
    """What the app would write to the terminal for a full repaint of the current screen."""
    return app.screen._compositor.render_full_update().render_segments(app.console)


def assert_inert(app: ClaudeTuiApp, where: str) -> None:
    for strip in screen_strips(app):
        for seg in strip:
            assert not FORBIDDEN_CHARS.search(seg.text), f"{where}: control character on screen: {seg.text!r}"
            style = seg.style
            if style is not None:
                assert EVIL_HOST not in (style.link or ""), f"{where}: a live link to the payload's host"
                meta = style.meta or {}
                assert meta.get("@click") not in ("app.quit", "quit"), f"{where}: a live quit action: {seg.text!r}"
    out = terminal_bytes(app)
    for seq in PAYLOAD_SEQUENCES:
        assert seq not in out, f"{where}: {seq!r} reached the terminal"
    assert not re.search(r"\x1b\]8;[^\x1b\x07]*" + re.escape(EVIL_HOST), out), f"{where}: OSC 8 to the payload host"
    assert not re.search("[\x80-\x9f\u202e]", out), f"{where}: C1/bidi control in terminal output"
    svg = app.export_screenshot()
    assert not FORBIDDEN_CHARS.search(svg.replace("\n", "").replace("\t", "")), f"{where}: control char in SVG"
    assert "&#27;" not in svg and "&#x1b;" not in svg.lower()
    assert EVIL_HOST not in re.findall(r'href="([^"]*)"', svg)


def find_text(app: ClaudeTuiApp, text: str) -> tuple[int, int] | None:
    for y, row in enumerate(screen_rows(app)):
        x = row.find(text)
        if x >= 0:
            return x, y
    return None


def svg_text(app: ClaudeTuiApp) -> str:
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


async def assert_literal_and_harmless(pilot: Pilot[Any], app: ClaudeTuiApp, tag: str, where: str) -> None:
    literal = visible_click(tag)
    spot = find_text(app, literal)
    assert spot is not None, f"{where}: {literal!r} is not on screen:\n" + "\n".join(screen_rows(app))
    assert literal in svg_text(app)
    x, y = spot
    screen = app.screen
    await pilot.click(offset=(x + 2, y))  # on the "@click" text itself
    await pilot.click(offset=(x + len(literal) - 1, y))
    await pilot.pause()
    assert app.is_running, f"{where}: clicking the markup quit the app"
    assert app.screen is screen or app.screen in app.screen_stack


# -- feeding crafted CLI output into the running app ----------------------------------------------------------

def _stream(block_type: str, index: int, text: str, delta: str, key: str) -> list[dict[str, Any]]:
    start: dict[str, Any] = {"type": block_type, key: ""} if block_type != "thinking" else \
        {"type": "thinking", "thinking": "", "signature": ""}
    return [
        {"type": "stream_event", "api_message_id": "msg_h", "parent_tool_use_id": None,
         "event": {"type": "content_block_start", "index": index, "content_block": start}},
        {"type": "stream_event", "api_message_id": "msg_h", "parent_tool_use_id": None,
         "event": {"type": "content_block_delta", "index": index, "delta": {"type": delta, key: text}}},
        {"type": "stream_event", "api_message_id": "msg_h", "parent_tool_use_id": None,
         "event": {"type": "content_block_stop", "index": index}},
    ]


def crafted_turn() -> list[dict[str, Any]]:
    path = f"/tmp/{hostile('PATH')}.py"
    lines: list[dict[str, Any]] = [
        {"type": "stream_event", "api_message_id": "msg_h", "parent_tool_use_id": None,
         "event": {"type": "message_start", "message": {"id": "msg_h", "model": "claude-x", "content": []}}},
        *_stream("thinking", 0, hostile("THINK"), "thinking_delta", "thinking"),
        *_stream("text", 1, hostile("TEXT") + "\n\n" + LONG, "text_delta", "text"),
        {"type": "assistant", "parent_tool_use_id": None, "message": {"id": "msg_h", "model": "claude-x", "content": [
            {"type": "thinking", "thinking": hostile("THINK"), "signature": "s"}]}},
        {"type": "assistant", "parent_tool_use_id": None, "message": {"id": "msg_h", "model": "claude-x", "content": [
            {"type": "text", "text": hostile("TEXT") + "\n\n" + LONG}]}},
        {"type": "assistant", "parent_tool_use_id": None, "message": {"id": "msg_t", "model": "claude-x", "content": [
            {"type": "tool_use", "id": "toolu_bash", "name": "Bash",
             "input": {"command": hostile("CMD"), "description": hostile("DESC")}}]}},
        {"type": "user", "parent_tool_use_id": None,
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_bash",
                                                  "content": hostile("OUT"), "is_error": False}]},
         "tool_use_result": {"stdout": hostile("OUT"), "stderr": hostile("ERR"), "interrupted": False}},
        {"type": "assistant", "parent_tool_use_id": None, "message": {"id": "msg_e", "model": "claude-x", "content": [
            {"type": "tool_use", "id": "toolu_edit", "name": "Edit",
             "input": {"file_path": path, "old_string": hostile("OLD"), "new_string": hostile("NEW")}}]}},
        {"type": "user", "parent_tool_use_id": None,
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_edit",
                                                  "content": f"The file {path} has been updated."}]},
         "tool_use_result": {"filePath": path, "oldString": hostile("OLD"), "newString": hostile("NEW"),
                             "originalFile": hostile("OLD") + "\n", "userModified": False, "replaceAll": False,
                             "structuredPatch": [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1,
                                                  "lines": ["-" + hostile("OLD"), "+" + hostile("NEW")]}]}},
    ]
    return lines


async def feed(pilot: Pilot[Any], app: ClaudeTuiApp, lines: list[dict[str, Any]]) -> None:
    chat(app).post_message(CliConnection.Events([decode_obj(json.loads(json.dumps(line))) for line in lines]))
    await pilot.pause(0.3)


def permission_request(rid: str, tool: str, tool_input: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "control_request", "request_id": rid,
            "request": {"subtype": "can_use_tool", "tool_name": tool, "input": tool_input,
                        "tool_use_id": f"toolu_{rid}", **extra}}


# -- the surfaces ---------------------------------------------------------------------------------------------

async def test_recorded_untrusted_text_scenario_is_inert(tmp_path: Path) -> None:
    """The `untrusted-text` recording played by the fake CLI (kw:escape) through the whole stack."""
    app = make_app(fake_options(tmp_path), Config(show_thinking=True))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await run_turn(pilot, app, "kw:escape show me")
        await pilot.pause(0.3)
        assert_inert(app, "recorded escape scenario")
        spot = find_text(app, "[@click=app.quit]")
        assert spot is not None, "\n".join(screen_rows(app))
        await pilot.click(offset=(spot[0] + 2, spot[1]))
        await pilot.press("x", "enter")
        assert app.is_running


async def test_crafted_conversation_is_inert(tmp_path: Path) -> None:
    app = make_app(fake_options(tmp_path), Config(show_thinking=True))
    async with app.run_test(size=(160, 60)) as pilot:
        await wait_ready(pilot, app)
        await feed(pilot, app, crafted_turn())
        log = chat(app).query_one("#chat-log")
        # Every surface in turn at the top of the view: thinking, text, tool call + output, diff + path.
        seen: set[str] = set()
        log.scroll_home(animate=False)
        await pilot.pause()
        for _ in range(200):
            assert_inert(app, f"chat log at y={log.scroll_y}")
            rows = "\n".join(screen_rows(app))
            for tag in ("THINK", "TEXT", "CMD", "OUT", "PATH", "OLD", "NEW"):
                if visible_click(tag) in rows:
                    seen.add(tag)
            if log.scroll_y >= log.max_scroll_y:
                break
            log.scroll_to(y=log.scroll_y + 40, animate=False)
            await pilot.pause()
        assert {"THINK", "TEXT", "CMD", "PATH"} <= seen, f"surfaces not found literally: {seen}"
        log.scroll_home(animate=False)
        await pilot.pause()
        await assert_literal_and_harmless(pilot, app, "TEXT", "chat log")
        # Expand everything that can be expanded (tool cards, thinking), and check again.
        for widget in list(log.query("*")):
            if hasattr(widget, "toggle") and callable(widget.toggle):
                try:
                    widget.toggle()
                except Exception:  # noqa: BLE001 - not every toggle takes no arguments
                    pass
        await pilot.pause(0.3)
        assert_inert(app, "chat log expanded")
        await pilot.press("x", "y", "enter", "f9")
        assert app.is_running


async def test_permission_dialog_is_inert(tmp_path: Path) -> None:
    from claude_tui.ui.dialogs.permission import PermissionScreen

    app = make_app(fake_options(tmp_path), Config(typeahead_guard_ms=0))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_ready(pilot, app)
        await feed(pilot, app, [permission_request(
            "req_h", "Bash", {"command": hostile("CMD") + LONG[:300], "description": hostile("DESC")},
            description=hostile("PDESC"), display_name=hostile("NAME"), decision_reason=hostile("WHY"),
            blocked_path=f"/tmp/{hostile('BLOCK')}", permission_suggestions=[
                {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": hostile("RULE")}],
                 "behavior": "allow", "destination": "localSettings"}])])
        await wait_for(pilot, lambda: isinstance(app.screen, PermissionScreen), 5, "the dialog")
        await pilot.pause(0.2)
        assert_inert(app, "permission dialog")
        rows = "\n".join(screen_rows(app))
        assert any(visible_click(tag) in rows for tag in ("CMD", "PDESC", "DESC", "WHY")), rows
        tag = next(t for t in ("CMD", "PDESC", "DESC", "WHY") if visible_click(t) in rows)
        await assert_literal_and_harmless(pilot, app, tag, "permission dialog")
        assert isinstance(app.screen, PermissionScreen), "a click on the text answered the dialog"
        await pilot.press("escape")
        assert app.is_running


async def test_question_dialog_is_inert(tmp_path: Path) -> None:
    from claude_tui.ui.dialogs.question import QuestionScreen

    app = make_app(fake_options(tmp_path), Config(typeahead_guard_ms=0))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_ready(pilot, app)
        questions = [{"question": hostile("Q") + "?", "header": hostile("HDR")[:40], "multiSelect": False,
                      "options": [{"label": hostile("OPT1"), "description": hostile("ODESC")},
                                  {"label": "plain", "description": LONG[:500]}]}]
        await feed(pilot, app, [permission_request("req_q", "AskUserQuestion", {"questions": questions})])
        await wait_for(pilot, lambda: isinstance(app.screen, QuestionScreen), 5, "the question dialog")
        await pilot.pause(0.2)
        assert_inert(app, "question dialog")
        rows = "\n".join(screen_rows(app))
        tag = next((t for t in ("Q", "OPT1", "ODESC") if visible_click(t) in rows), None)
        assert tag is not None, rows
        await assert_literal_and_harmless(pilot, app, tag, "question dialog")
        assert app.is_running


async def test_session_titles_are_inert(tmp_path: Path) -> None:
    from claude_tui.history.paths import encode_project_dir
    from claude_tui.ui.browser.screen import SessionBrowserScreen

    root = tmp_path / "claude-config"
    project = tmp_path / "project"
    project.mkdir()
    folder = root / "projects" / encode_project_dir(str(project))
    folder.mkdir(parents=True)
    sid = "0b9e3a43-1111-4000-8000-000000000000"
    records = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": sid, "cwd": str(project),
         "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": hostile("TITLE")}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": sid, "cwd": str(project),
         "timestamp": "2026-01-01T00:00:01Z",
         "message": {"id": "m1", "role": "assistant", "model": "x", "content": [{"type": "text",
                                                                                  "text": hostile("ANS")}]}},
        {"type": "summary", "summary": hostile("SUMMARY"), "leafUuid": "a1"},
        {"type": "custom-title", "customTitle": hostile("CUSTOM"), "sessionId": sid},
    ]
    (folder / f"{sid}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    app = make_app(fake_options(project))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_ready(pilot, app)
        browser = SessionBrowserScreen(project, config_root=root, index_path=tmp_path / "index.sqlite")
        await app.push_screen(browser)
        await wait_for(pilot, lambda: any("TITLE" in r or "CUSTOM" in r or "SUMMARY" in r
                                          for r in screen_rows(app)), 10, "the session listing")
        await pilot.pause(0.5)
        assert_inert(app, "session browser")
        rows = "\n".join(screen_rows(app))
        tag = next((t for t in ("CUSTOM", "SUMMARY", "TITLE", "ANS") if visible_click(t) in rows), None)
        assert tag is not None, rows
        await assert_literal_and_harmless(pilot, app, tag, "session browser")
        assert app.is_running


async def test_the_checks_catch_raw_escapes_and_live_markup() -> None:
    """The checker itself can fail: raw control characters and parsed markup are both caught."""
    import pytest
    from rich.text import Text
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Raw(App[None]):
        def __init__(self, widget: Static) -> None:
            super().__init__()
            self.widget = widget

        def compose(self) -> ComposeResult:
            yield self.widget

    for widget in (Static(Text("\x1b]52;c;cHduZWQ=\x07 raw")),  # not sanitized
                   Static("[@click=app.quit]click me[/]"),  # markup parsed: a live action
                   Static(f"[link='https://{EVIL_HOST}']link[/link]")):  # a live link
        app = Raw(widget)
        async with app.run_test(size=(60, 5)) as pilot:
            await pilot.pause()
            with pytest.raises(AssertionError):
                assert_inert(app, "self-test")  # type: ignore[arg-type]
