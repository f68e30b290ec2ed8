"""Command palette (chat commands follow the state), theme memory, export and copy, through the fake CLI."""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import CommandPalette

from claude_tui.session.items import TextItem
from claude_tui.ui.app.state import state_file
from claude_tui.ui.palette.commands import chat_commands
from tests.pilot.helpers import chat, idle, make_app, send, wait_for


async def _palette_texts(pilot, query: str) -> list[str]:
    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="palette")
    await pilot.press(*query)
    await pilot.pause(0.4)
    palette = app.screen
    options = palette.query_one("CommandList")
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_palette_lists_models_modes_and_themes(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.models, what="ready")
        texts = [command.text for command in chat_commands(screen)]
        for expected in ("Model: Opus", "Model: Sonnet", "Model: Haiku", "Permission mode: plan",
                         "Permission mode: acceptEdits", "Theme: nord", "Send /compact", "Send /cost",
                         "Context window (/context)", "MCP servers (/mcp)", "Permission rules (/permissions)",
                         "Hooks (/hooks)", "Reload plugins", "Reload skills",
                         "Export transcript as Markdown", "Copy last answer", "New session"):
            assert any(text.startswith(expected) for text in texts), expected
        # bypassPermissions is only offered when the session allows it.
        assert not any("bypassPermissions" in text for text in texts)
        shown = await _palette_texts(pilot, "model")
        assert any("Model: Opus" in text for text in shown)
        assert any("Model: Haiku" in text for text in shown)


async def test_choosing_a_model_sends_set_model(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.models, what="ready")
        await _palette_texts(pilot, "model haiku")
        await pilot.press("enter")
        # The model the CLI confirmed, resolved from the list's value (as the bar then shows it).
        await wait_for(pilot, lambda: screen.session.conversation.status.model.startswith("claude-haiku"),
                       what="model switched")
        status = str(screen.query_one("#status-bar").render())
        assert "haiku" in status
        texts = [command.text for command in chat_commands(screen)]
        assert "Model: Haiku (current)" in texts


async def test_permission_mode_from_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.models, what="ready")
        await _palette_texts(pilot, "permission mode plan")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.session.conversation.status.permission_mode == "plan", what="plan mode")


async def test_theme_is_remembered_and_applied_next_start(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.theme == "textual-dark"
        await _palette_texts(pilot, "theme: nord")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "nord", what="theme")
        await wait_for(pilot, lambda: state_file().is_file(), what="state file")
        assert json.loads(state_file().read_text())["theme"] == "nord"
    again = make_app(tmp_path)
    async with again.run_test(size=(120, 40)) as pilot:
        assert again.theme == "nord"
    # A theme set in the config wins over the remembered one.
    pinned = make_app(tmp_path, theme="gruvbox")
    async with pinned.run_test(size=(120, 40)) as pilot:
        assert pinned.theme == "gruvbox"


async def test_unknown_theme_in_config_is_a_warning(tmp_path: Path) -> None:
    app = make_app(tmp_path, theme="no-such-theme")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        assert app.theme == "textual-dark"
        assert any("no-such-theme" in str(n.message) for n in app._notifications)


async def test_export_writes_markdown_with_prompt_and_answer(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "Hello there, kw:plain")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        await _palette_texts(pilot, "export transcript as markdown")
        await pilot.press("enter")
        await wait_for(pilot, lambda: list(tmp_path.glob("claude-session-*.md")), what="export file")
        text = next(tmp_path.glob("claude-session-*.md")).read_text()
        answer = next(i for i in chat(app).session.conversation.items if isinstance(i, TextItem))
        assert "### You\n\n> Hello there, kw:plain" in text
        assert answer.text in text
        assert any("Exported the transcript" in str(n.message) for n in app._notifications)


async def test_ctrl_y_copies_the_raw_last_answer(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 30)) as pilot:
        await send(pilot, "Hello there, kw:plain")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        answer = next(i for i in chat(app).session.conversation.items if isinstance(i, TextItem))
        assert app.clipboard == ""
        await pilot.press("ctrl+y")  # the prompt (a TextArea, where ctrl+y is redo) has focus
        # The raw Markdown source, not the rendering wrapped at 60 columns.
        assert answer.text and app.clipboard == answer.text


async def test_select_mode_copies_a_message_and_a_tool_output(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PermissionScreen", what="dialog")
        await pilot.press("tab", "y")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        screen = chat(app)
        from claude_tui.session.export import tool_output
        from claude_tui.session.items import ToolItem, UserItem

        tool = next(i for i in screen.session.conversation.items if isinstance(i, ToolItem))
        await pilot.press("f2")
        await wait_for(pilot, lambda: screen.query_one("#select-bar").has_focus, what="select mode")
        # Walk up to the tool call and copy its output.
        items = screen.session.conversation.items
        for _ in range(len(items) - 1 - items.index(tool)):
            await pilot.press("up")
        await wait_for(pilot, lambda: screen.query_one("#select-bar").current == tool.id
                       and screen.query(".-selected"), what="the tool call selected")
        await pilot.press("o")
        assert app.clipboard == tool_output(tool) and app.clipboard
        await pilot.press("home", "y")
        user = next(i for i in items if isinstance(i, UserItem))
        assert app.clipboard == user.text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not screen.query(".-selected") and screen.query_one("#prompt").has_focus,
                       what="select mode closed")


async def test_new_session_clears_the_log(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "Hello there, kw:plain")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        old = chat(app)
        old_id = old.session.conversation.status.session_id
        await old.controls.new_session()
        await wait_for(pilot, lambda: chat(app) is not old and chat(app).session.connection.alive, what="new chat")
        assert chat(app).session.conversation.items == []
        assert chat(app).session.options.resume is None
        await send(pilot, "again kw:plain")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        assert chat(app).session.conversation.status.session_id != old_id


async def test_discovery_hits_before_typing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 50)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.connection.alive and screen.session.conversation.models, what="ready")
        shown = await _palette_texts(pilot, "")
        for expected in ("New session", "Copy last answer", "Find in conversation", "Export transcript as Markdown",
                         "Send /compact"):
            assert any(expected in text for text in shown), expected
        # Per-model hits only appear when searched for.
        assert not any(text.startswith("Model:") for text in shown)


def test_the_current_model_is_the_one_picked_else_the_one_running() -> None:
    from claude_tui.ui.manage.model import current_model_value

    models = [{"value": "default", "resolvedModel": "claude-opus-5-5"},
              {"value": "opus", "resolvedModel": "claude-opus-5-5"},
              {"value": "sonnet", "resolvedModel": "claude-sonnet-5-5"}]
    assert current_model_value(models, "claude-opus-5-5", None) == "default"
    assert current_model_value(models, "claude-opus-5-5", "opus") == "opus"  # the pick decides
    assert current_model_value(models, "claude-sonnet-5-5[1m]", None) == "sonnet"
    assert current_model_value(models, "sonnet", None) == "sonnet"
    assert current_model_value(models, "claude-unknown", None) is None
    assert current_model_value(models, "claude-opus-5-5", "gone") == "default"


async def test_only_one_model_is_marked_current(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await send(pilot, "kw:plain hi")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        texts = [command.text for command in chat_commands(screen)]
        assert [t for t in texts if t.startswith("Model:") and t.endswith("(current)")] == \
            ["Model: Default (recommended) (current)"]
        assert "Theme…" not in texts  # Textual's own "Theme" command opens the picker


def test_the_highlight_marks_the_letters_that_matched_even_after_brackets() -> None:
    from textual.fuzzy import Matcher

    from claude_tui.ui.palette.commands import highlighted

    matcher = Matcher("1m")
    content = highlighted(matcher, "Model: Opus [1m] [beta]")
    assert content.plain == "Model: Opus [1m] [beta]"  # no markup parsed: the brackets stay text
    marked = "".join(content.plain[span.start:span.end] for span in content.spans)
    assert marked == "1m", marked


async def test_a_slash_command_from_the_palette_leaves_the_draft_alone(tmp_path: Path) -> None:
    from claude_tui.session.items import UserItem

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        screen = chat(app)
        prompt = screen.query_one("#prompt")
        prompt.text = "/cost is what I am writing about"  # type: ignore[attr-defined]  # starts like the command
        await screen.prompt_area.send_slash("/cost")
        await wait_for(pilot, lambda: any(isinstance(i, UserItem) and i.text == "/cost"
                                          for i in screen.session.conversation.items), what="/cost sent")
        assert prompt.text == "/cost is what I am writing about"  # type: ignore[attr-defined]


async def test_the_palette_has_one_theme_entry_per_theme_and_a_quit_that_asks(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app), what="turn end")
        system = list(app.get_system_commands(app.screen))
        titles = [command.title for command in system]
        assert "Theme" not in titles and "Keys" not in titles  # ours: "Theme: <name>" and F1 help
        [quit_command] = [command for command in system if command.title == "Quit"]
        assert quit_command.callback == app.action_quit_app  # the one that asks while a turn runs
