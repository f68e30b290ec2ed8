"""Rewinding the conversation against the real Claude Code CLI 2.1.330 (Esc Esc, as in its own TUI).

The CLI is restarted resuming the session at the message before the chosen prompt
(`--resume-session-at`): the API stand-in's next request holds only the turns before that prompt,
the prompt box holds its text, and the turns rewound away stay in the transcript as a branch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claude_tui.history.scan import scan_file
from claude_tui.resume import load_conversation
from claude_tui.session.items import NoteItem, UserItem
from claude_tui.transport.options import CliOptions
from claude_tui.ui.browser.preview import conversation_from_file
from claude_tui.ui.dialogs.rewind_conversation import RewindChoiceScreen, RewindListScreen
from tests.e2e.app_driver import drive
from tests.e2e.mock_api import MockApi

Options = Callable[..., CliOptions]


def _user_texts(body: dict[str, Any]) -> list[str]:
    """The text blocks of the request's user messages (tool results and reminders left out)."""
    texts: list[str] = []
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for block in blocks:
            text = block.get("text", "") if block.get("type") == "text" else ""
            if message.get("role") == "user" and text.startswith("kw:"):
                texts.append(text)
    return texts


def _transcript(config_dir: Path, project_dir: Path, session_id: str) -> Path:
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(project_dir))
    return config_dir / "projects" / encoded / f"{session_id}.jsonl"


async def test_rewind_to_prompt_two_of_three_sends_only_the_turns_before_it(
        app_options: Options, mock_api: MockApi, config_dir: Path, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        for word in ("one", "two", "three"):
            await d.turn(f"kw:plain {word}")
        session = d.chat.session
        session_id, old = d.conversation.status.session_id, session.connection
        await d.press("escape", "escape")
        await d.wait_screen(RewindListScreen)
        await d.press("up", "enter")
        await d.wait_screen(RewindChoiceScreen)
        await d.press("2")
        await d.wait(lambda: session.connection is not old and session.alive, "the CLI restarted", 60)
        await d.wait(lambda: d.prompt.text == "kw:plain two", "the prompt's text back in the prompt box")
        assert session.connection.options.resume_session_at  # the CLI runs with --resume-session-at
        shown = [i.text for i in d.items if isinstance(i, UserItem)]
        assert shown == ["kw:plain one"]
        before = len(mock_api.requests)
        await d.turn("kw:plain two, said again")
        asked = [r for r in mock_api.requests[before:] if r.is_messages and not r.subagent]
        assert asked, "no request after the rewind"
        assert _user_texts(asked[0].body) == ["kw:plain one", "kw:plain two, said again"]
        assert d.conversation.status.session_id == session_id  # the same session goes on
        await d.press("ctrl+q")
        await d.wait(lambda: d.app._exit, "the app to quit", 15)

    path = _transcript(config_dir, project_dir, session_id)
    # What a resume loads: the branch the conversation went on on.
    resumed = load_conversation(session_id, path=path)
    assert resumed is not None
    assert [i.text for i in resumed.items if isinstance(i, UserItem)] == ["kw:plain one", "kw:plain two, said again"]
    # Nothing is lost: the turns rewound away are still in the file, and search still reads them.
    words = " ".join(doc.text for doc in scan_file(path).docs)
    assert "kw:plain three" in words and "kw:plain two, said again" in words
    # The log a resume (and the browser's preview) shows says the other branch is there.
    [note] = [i for i in resumed.items if isinstance(i, NoteItem) and "rewound away" in i.text]
    assert "“kw:plain two”" in note.text and "“kw:plain three”" in note.text
    preview = conversation_from_file(path)
    assert any(isinstance(i, NoteItem) and "rewound away" in i.text for i in preview.items)


async def test_1_restores_the_file_and_the_conversation(app_options: Options, mock_api: MockApi,
                                                       project_dir: Path) -> None:
    from claude_tui.ui.dialogs.permission import PermissionScreen

    original = (project_dir / "a.txt").read_text()
    async with drive(app_options()) as d:
        await d.turn("kw:plain one")
        await d.send("kw:edit the file")
        await d.wait_screen(PermissionScreen)
        await d.press("y")
        await d.wait_turns(2)
        await d.wait_chat_active()
        assert (project_dir / "a.txt").read_text() != original
        session, old = d.chat.session, d.chat.session.connection
        await d.press("escape", "escape")
        await d.wait_screen(RewindListScreen)
        await d.press("enter")  # the newest prompt, selected: the edit
        choice = await d.wait_screen(RewindChoiceScreen)
        assert choice.files.files == [str(project_dir / "a.txt")]  # the CLI's dry run
        await d.press("1")
        await d.wait(lambda: session.connection is not old and session.alive, "the CLI restarted", 60)
        await d.wait(lambda: d.prompt.text == "kw:edit the file", "the prompt's text back")
        assert (project_dir / "a.txt").read_text() == original
        assert any(isinstance(i, NoteItem) and i.text.startswith("Restored 1 file") for i in d.items)
        before = len(mock_api.requests)
        await d.turn("kw:plain after")
        said = next(text for r in mock_api.requests[before:] if r.is_messages and not r.subagent
                    and "kw:plain after" in (text := repr(r.body.get("messages"))))
        assert "kw:plain one" in said and "kw:edit" not in said
