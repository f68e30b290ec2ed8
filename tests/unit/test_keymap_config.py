"""User keymaps: validation of `config.keymap` and how it reaches Textual."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.config import ConfigError, load_config
from claude_tui.ui.app.keymap import check_keymap, known_binding_ids, valid_key

KNOWN = {"chat.interrupt", "chat.toggle_sidebar", "app.quit", "chat.find"}


@pytest.mark.parametrize("key", ["ctrl+b", "f3", "shift+f3", "?", "question_mark", "ctrl+shift+up", "escape",
                                 "a", "alt+enter", "ctrl+at", "pagedown", "slash"])
def test_valid_keys(key: str) -> None:
    assert valid_key(key)


@pytest.mark.parametrize("key", ["", "ctrl+", "ctrl+nosuchkey", "banana", "cmd+b", "ctrl++b"])
def test_invalid_keys(key: str) -> None:
    assert not valid_key(key)


def test_check_keymap_keeps_good_entries_and_names_bad_ones() -> None:
    good, problems = check_keymap({
        "chat.toggle_sidebar": "ctrl+k",
        "chat.find": "ctrl+f, /",
        "chat.nonsense": "ctrl+x",
        "chat.interrupt": "ctrl+banana",
        "app.quit": " ",
    }, KNOWN)
    assert good == {"chat.toggle_sidebar": "ctrl+k", "chat.find": "ctrl+f,slash"}
    assert len(problems) == 3
    assert any("unknown binding id 'chat.nonsense'" in p for p in problems)
    assert any("'chat.interrupt'" in p and "ctrl+banana" in p for p in problems)
    assert any("'app.quit' has no keys" in p for p in problems)


def test_important_bindings_have_ids() -> None:
    ids = set(known_binding_ids())
    for expected in ("app.quit", "app.help", "chat.interrupt", "chat.cycle_mode", "chat.toggle_sidebar",
                     "chat.toggle_thinking", "chat.restart", "chat.open_sessions", "chat.what_changed",
                     "chat.copy_last_answer", "chat.find", "chat.select_messages", "find.next", "find.previous",
                     "select.copy"):
        assert expected in ids, expected


def test_keymap_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[keymap]\n"chat.toggle_sidebar" = "ctrl+k"\n"app.quit" = "ctrl+q,f10"\n')
    config = load_config(path, environ={})
    assert config.keymap == {"chat.toggle_sidebar": "ctrl+k", "app.quit": "ctrl+q,f10"}


def test_keymap_of_the_wrong_type_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[keymap]\n"chat.find" = 3\n')
    with pytest.raises(ConfigError) as error:
        load_config(path, environ={})
    assert "keymap.chat.find" in str(error.value) and str(path) in str(error.value)


def test_keymap_from_the_environment() -> None:
    config = load_config(Path("/nonexistent/config.toml"),
                         environ={"CLAUDE_TUI_KEYMAP": '{"chat.find": "ctrl+shift+f"}'})
    assert config.keymap == {"chat.find": "ctrl+shift+f"}


async def test_keymap_applies_and_bad_entries_notify(tmp_path: Path) -> None:
    from tests.pilot.helpers import chat, make_app, wait_for

    app = make_app(tmp_path, keymap={"chat.toggle_sidebar": "ctrl+k", "chat.bogus": "ctrl+x"})
    async with app.run_test(size=(120, 40)) as pilot:
        sidebar = chat(app).query_one("#sidebar")
        before = sidebar.display
        chat(app).query_one("#chat-log").focus()
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: sidebar.display != before, what="sidebar toggled by the remapped key")
        await pilot.press("ctrl+t")  # the default key no longer toggles
        await pilot.pause(0.05)
        assert sidebar.display != before
        assert any("chat.bogus" in str(n.message) for n in app._notifications)


async def test_a_remapped_key_works_from_the_prompt_even_where_the_prompt_uses_it(tmp_path: Path) -> None:
    from tests.pilot.helpers import chat, make_app, wait_for

    app = make_app(tmp_path, keymap={"chat.toggle_sidebar": "ctrl+k"})  # Ctrl+K: the prompt's kill-line
    async with app.run_test(size=(120, 40)) as pilot:
        sidebar = chat(app).query_one("#sidebar")
        prompt = chat(app).query_one("#prompt")
        prompt.focus()
        prompt.text = "keep this line"  # type: ignore[attr-defined]
        prompt.move_cursor((0, 0))  # type: ignore[attr-defined]
        before = sidebar.display
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: sidebar.display != before, what="sidebar toggled from the prompt")
        assert prompt.text == "keep this line"  # type: ignore[attr-defined]
