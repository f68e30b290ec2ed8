"""The chat screen driven through the fake CLI (recorded scenarios)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.session.items import NoteItem, NoteKind, TextItem, ToolItem, ToolState, UserItem
from claude_tui.session.status import Activity
from claude_tui.ui.log.assistant_text import AssistantText
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.log.items import ThinkingBlock
from claude_tui.ui.log.tool_card import ToolCard
from claude_tui.ui.render.diff_view import DiffView
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def test_streamed_answer_is_rendered(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "Hello there, kw:plain")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        conversation = chat(app).session.conversation
        assert [type(i) for i in conversation.items] == [UserItem, TextItem]
        widget = app.screen.query_one(AssistantText)
        await wait_for(pilot, lambda: "Hello! You said" in widget.source, what="the answer rendered")
        status = str(app.screen.query_one("#status-bar").render())
        assert "idle" in status and "$0.0141" in status


async def test_thinking_is_collapsed_and_toggles(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:think what is it")
        await wait_for(pilot, lambda: idle(app))
        block = app.screen.query_one(ThinkingBlock)
        assert not block.expanded
        assert not block._body_widget.display
        await pilot.pause(0.2)  # let the log settle so the title is where the click lands
        await pilot.click(block._title_widget)
        assert block.expanded and block._body_widget.display
        assert "Let me think" in str(block._body_widget.render())
        await pilot.press("f9")
        assert not block.expanded


async def test_bash_allowed_with_y(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        tool = next(i for i in chat(app).session.conversation.items if isinstance(i, ToolItem))
        assert tool.state is ToolState.WAITING
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app))
        assert tool.state is ToolState.DONE
        # The decision is shown once, on the card (no separate note line repeating it).
        notes = [i for i in chat(app).session.conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.DECISION]
        assert notes == [] and tool.decision == "Allowed once"
        card = app.screen.query_one(ToolCard)
        await wait_for(pilot, lambda: "Allowed once" in str(card._header_widget.render()), what="the card's decision")


async def test_bash_denied_with_n(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen")
        await pilot.press("tab", "n")
        await wait_for(pilot, lambda: idle(app))
        tool = next(i for i in chat(app).session.conversation.items if isinstance(i, ToolItem))
        assert tool.state is ToolState.DENIED
        card = app.screen.query_one(ToolCard)
        assert "denied" in str(card._header_widget.render())


async def test_edit_shows_diff_in_card(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:edit the file")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app))
        await pilot.pause(0.1)
        card = app.screen.query_one(ToolCard)
        diff = card.query_one(DiffView)
        assert diff is not None and card.expanded


async def test_escape_interrupts_and_keeps_draft(tmp_path: Path) -> None:
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "20"})
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:slow story")
        screen = chat(app)
        await wait_for(pilot, lambda: any(isinstance(i, TextItem) for i in screen.session.conversation.items))
        prompt = screen.query_one("#prompt")
        prompt.text = "my unsent draft"  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: idle(app), what="interrupted turn end")
        assert any(isinstance(i, NoteItem) and i.kind is NoteKind.INTERRUPT for i in screen.session.conversation.items)
        assert prompt.text == "my unsent draft"  # type: ignore[attr-defined]


async def test_message_sent_during_a_turn_is_queued(tmp_path: Path) -> None:
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "10"})
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:slow story")
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.status.activity is not Activity.IDLE)
        await send(pilot, "kw:plain and then this")
        await pilot.pause()
        # Held by claude-tui until the turn ends (editable till then), shown above the prompt.
        assert screen.prompt_area.queue.texts == ["kw:plain and then this"]
        assert "kw:plain and then this" in str(screen.prompt_area.queued_prompts.render())
        users = [i for i in screen.session.conversation.items if isinstance(i, UserItem)]
        assert [u.text for u in users] == ["kw:slow story"]


async def test_subagent_output_is_not_in_the_main_log(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:agent go")
        await wait_for(pilot, lambda: idle(app))
        await pilot.pause(0.3)
        texts = [w.source for w in app.screen.query_one(ChatLog).query(AssistantText)]
        assert not any("Subagent here" in t for t in texts)
        assert chat(app).session.conversation.subagents


async def test_slash_completion_menu(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        screen.query_one("#prompt").focus()
        await pilot.press("/", "c", "o", "m", "p")
        menu = screen.query_one("#completion-menu")
        assert menu.display
        await pilot.press("tab")
        assert screen.query_one("#prompt").text.startswith("/compact")  # type: ignore[attr-defined]
        assert not menu.display


async def test_file_completion_with_at(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "parser.py").write_text("x = 1\n")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        screen.query_one("#prompt").focus()
        await pilot.press("l", "o", "o", "k", " ", "@", "p", "a", "r")
        await wait_for(pilot, lambda: screen.query_one("#completion-menu").display, what="file menu")
        await pilot.press("enter")
        assert "@src/parser.py" in screen.query_one("#prompt").text  # type: ignore[attr-defined]


async def test_at_completion_quotes_spaces_skips_addresses_and_sees_new_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_tui.ui.panels import composer as composer_module

    app = make_app(tmp_path)
    (tmp_path / "with space.py").write_text("x = 1\n")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        prompt = screen.query_one("#prompt")
        menu = screen.query_one("#completion-menu")
        prompt.focus()
        await pilot.press(*"ssh deploy@wi")  # an address, not a mention
        await pilot.pause(0.2)
        assert not menu.display
        prompt.text = ""  # type: ignore[attr-defined]
        await pilot.press("@", *"with")
        await wait_for(pilot, lambda: menu.display, what="file menu")
        await pilot.press("enter")
        assert prompt.text == '@"with space.py" '  # type: ignore[attr-defined]
        # A file created later (by Claude, say) is offered when a menu next opens.
        (tmp_path / "brand_new.py").write_text("y = 2\n")
        monkeypatch.setattr(composer_module, "_FILES_FRESH_SECONDS", 0.0)
        await pilot.press("@", *"brand")
        await wait_for(pilot, lambda: menu.display and "brand_new.py" in str(menu.options[0].prompt),
                       what="the new file offered")


async def test_a_dropped_file_becomes_a_mention_and_plain_pastes_stay_text(tmp_path: Path) -> None:
    from textual.events import Paste

    app = make_app(tmp_path)
    (tmp_path / "shot 1.png").write_bytes(b"\x89PNG")
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = chat(app).query_one("#prompt")
        prompt.focus()
        await pilot.press("s", "e", "e", " ")
        # What a terminal types when a file is dropped on it: a quoted absolute path. (Posted to
        # the app, as the driver does: the app forwards pastes to the focused widget.)
        app.post_message(Paste(f"'{tmp_path / 'shot 1.png'}'"))
        await pilot.pause()
        assert prompt.text == 'see @"shot 1.png" '  # type: ignore[attr-defined]
        app.post_message(Paste("and this, once"))
        await pilot.pause()
        assert prompt.text == 'see @"shot 1.png" and this, once'  # type: ignore[attr-defined]


async def test_history_walks_with_up_and_down(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain first")
        await wait_for(pilot, lambda: idle(app))
        prompt = chat(app).query_one("#prompt")
        prompt.text = "draft"  # type: ignore[attr-defined]
        await pilot.press("up")
        assert prompt.text == "kw:plain first"  # type: ignore[attr-defined]
        await pilot.press("down")
        assert prompt.text == "draft"  # type: ignore[attr-defined]


async def test_newline_keys_do_not_send(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = chat(app).query_one("#prompt")
        prompt.focus()
        await pilot.press("a", "ctrl+j", "b")
        assert prompt.text == "a\nb"  # type: ignore[attr-defined]
        assert not chat(app).session.conversation.items


async def test_draft_survives_a_restart_of_the_app(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = chat(app).query_one("#prompt")
        prompt.focus()
        await pilot.press(*"half written")
        await pilot.pause(0.7)
    second = make_app(tmp_path)
    async with second.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        assert chat(second).query_one("#prompt").text == "half written"  # type: ignore[attr-defined]


async def test_shift_tab_cycles_permission_mode(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: screen.session.conversation.status.permission_mode == "acceptEdits")
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: screen.session.conversation.status.permission_mode == "plan")
        assert "plan" in str(screen.query_one("#status-bar").render())


async def test_quit_while_busy_asks_first(tmp_path: Path) -> None:
    app = make_app(tmp_path, env={"FAKE_CLAUDE_DELAY_MS": "30"})
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:slow story")
        await wait_for(pilot, lambda: chat(app).session.busy)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("tab", "n")
        assert app.is_running and type(app.screen).__name__ == "ChatScreen"


async def test_cli_exit_is_reported_and_f5_resumes_same_session(tmp_path: Path) -> None:
    app = make_app(tmp_path, env={"FAKE_CLAUDE_FAULT": "kill-mid-stream", "FAKE_CLAUDE_FAULT_AFTER": "12"})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await send(pilot, "kw:plain hi")
        await wait_for(pilot, lambda: screen.session.conversation.status.activity is Activity.EXITED, what="exit")
        session_id = screen.session.conversation.status.session_id
        assert session_id
        errors = [i for i in screen.session.conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.ERROR]
        assert errors and "F5" in errors[-1].text
        screen.session.options.env.pop("FAKE_CLAUDE_FAULT")
        await pilot.press("f5")
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.commands)
        assert screen.session.options.resume == session_id
        await send(pilot, "kw:plain again")
        await wait_for(pilot, lambda: screen.session.conversation.status.turns >= 1 and idle(app))
        assert screen.session.conversation.status.session_id == session_id


async def test_untrusted_text_is_inert(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:escape show me")
        await wait_for(pilot, lambda: idle(app))
        await pilot.pause(0.2)
        markdown = app.screen.query_one(AssistantText)
        assert "\x1b" not in markdown.source
        svg = app.export_screenshot()
        assert "[@click=app.quit]" in svg.replace("&#160;", " ")
        assert app.is_running


async def test_what_changed_panel_lists_edited_files(tmp_path: Path) -> None:
    from claude_tui.ui.panels.changes_panel import ChangesScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:edit the file")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app))
        chat(app).focus()
        await pilot.press("f8")
        await wait_for(pilot, lambda: isinstance(app.screen, ChangesScreen), what="changes panel")
        svg = app.export_screenshot().replace("&#160;", " ")
        assert "a.txt" in svg
        await pilot.press("escape")
        assert type(app.screen).__name__ == "ChatScreen"


async def test_ctrl_o_resumes_a_past_session_with_its_history(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from tests.conftest import FIXTURES

    config = tmp_path / "claude-config"
    shutil.copytree(FIXTURES / "sessions", config / "projects")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    project = tmp_path / "project"
    project.mkdir()
    app = make_app(project)
    async with app.run_test(size=(130, 40)) as pilot:
        first = chat(app)
        await wait_for(pilot, lambda: first.session.connection.alive)
        await pilot.press("f4")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SessionBrowserScreen", what="browser")
        await pilot.pause(0.3)
        await pilot.press("a")  # this project has none: the recorded sessions belong to another project
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.chat is not None and app.chat is not first, what="resumed chat")
        resumed = chat(app)
        session_id = resumed.session.options.resume
        assert session_id
        await wait_for(pilot, lambda: resumed.session.connection.alive and resumed.session.conversation.commands)
        assert any(isinstance(i, UserItem) for i in resumed.session.conversation.items)
        assert resumed.session.conversation.status.cost_total > 0
        await send(pilot, "kw:plain carry on")
        await wait_for(pilot, lambda: resumed.session.conversation.status.turns >= 1 and idle(app))
        assert resumed.session.conversation.status.session_id == session_id
