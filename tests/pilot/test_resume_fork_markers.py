"""Resume and fork against the fake CLI: the status bar's model and cost; live markers in the log.

The real-CLI versions (fork cost with the CLI's own totals, the model a resumed CLI
runs) are in ``tests/e2e/test_resume_real_cli.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_tui.config import Config
from claude_tui.fakecli import command
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ToolItem, ToolState
from claude_tui.session.replay import replay
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.browser.screen import BrowserChoice, conversation_for
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.log.chat_log import ChatLog
from claude_tui.ui.panels.status_bar import StatusBar
from tests.pilot.helpers import chat, idle, make_app, send, wait_for

SESSION = "0b5e6c2a-1111-4222-8333-444455556666"
OLD_MODEL = "claude-old-model-1"


def transcript(path: Path, cost: float) -> Path:
    """A two-message session written with OLD_MODEL, costing `cost` (the CLI's record shapes)."""
    records: list[dict[str, Any]] = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": SESSION, "isSidechain": False,
         "cwd": str(path.parent),
         "message": {"role": "user", "content": [{"type": "text", "text": "earlier question"}]}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": SESSION, "isSidechain": False,
         "message": {"id": "msg_old", "type": "message", "role": "assistant", "model": OLD_MODEL,
                     "content": [{"type": "text", "text": "earlier answer"}]}},
        {"type": "cost-state", "sessionId": SESSION, "totalCostUSD": cost},
    ]
    file = path / f"{SESSION}.jsonl"
    file.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return file


def status_text(app: ClaudeTuiApp) -> str:
    bar = chat(app).query_one(StatusBar)
    return str(bar.render_status(chat(app).session.conversation.status))


def ready(app: ClaudeTuiApp) -> bool:
    screen = app.chat
    return screen is not None and screen.session.connection.alive and bool(screen.session.conversation.commands)


async def test_a_fork_from_the_session_browser_shows_its_own_cost_not_the_parents(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    file = transcript(tmp_path, 0.3133)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        first = app.chat
        choice = BrowserChoice(SESSION, file, tmp_path, fork=True)
        await app._switch_session(choice, conversation_for(choice))
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the forked session ready")
        # Defect 9: the parent's $0.3133 is the parent's (the usage screen counts it there too);
        # the CLI's totals still include it, so the fork's own cost is what they add.
        await wait_for(pilot, lambda: "$0.0000" in status_text(app), what="the fork's own cost shown")
        assert "$0.3133" not in status_text(app)
        assert chat(app).session.conversation.status.cost_total == 0.3133


async def test_a_resumed_session_does_not_show_the_transcripts_model(tmp_path: Path) -> None:
    file = transcript(tmp_path, 0.01)
    conversation = replay([json.loads(line) for line in file.read_text().splitlines()][:2], session_id=SESSION)
    (tmp_path / "a.txt").write_text("alpha\n")
    options = CliOptions(cwd=str(tmp_path), command=command(), env={"FAKE_CLAUDE_DELAY_MS": "0"}, resume=SESSION)
    app = ClaudeTuiApp(options, Config(typeahead_guard_ms=0), conversation=conversation)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        await pilot.pause(0.1)
        assert OLD_MODEL not in status_text(app)
        # Named at once (defect 7): the CLI's default from its model list, until its init says.
        assert status_text(app).startswith("claude-opus-5-5")
        await send(pilot, "kw:plain hello")
        await wait_for(pilot, lambda: idle(app), what="the turn")
        model = chat(app).session.conversation.status.model
        assert model and model != OLD_MODEL and status_text(app).startswith(model)


async def test_a_background_agents_end_is_marked_between_the_answers(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:agent go")
        await wait_for(pilot, lambda: idle(app), what="the turn")
        await pilot.pause(0.2)
        items = chat(app).session.conversation.items
        notes = [i for i in items if isinstance(i, NoteItem) and i.kind is NoteKind.INFO]
        assert [n.text for n in notes] == ['Agent "Explore tree" finished']
        answer = max(i for i, item in enumerate(items) if isinstance(item, TextItem))
        assert items.index(notes[0]) > answer  # after the turn's answer: where the CLI's own turn starts
        widget = chat(app).query_one(ChatLog).widget_for_item(notes[0].id)
        assert widget is not None and 'ℹ Agent "Explore tree" finished' in str(widget.render())


async def test_what_you_told_claude_is_noted_and_the_card_says_denied(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "kw:bash please")
        await wait_for(pilot, lambda: isinstance(app.screen, PermissionScreen), what="dialog")
        await pilot.press("tab", "t")
        await pilot.pause()
        await pilot.press(*"use ls instead")
        await pilot.press("enter")
        await wait_for(pilot, lambda: idle(app), what="the turn")
        tool = next(i for i in chat(app).session.conversation.items if isinstance(i, ToolItem))
        assert tool.state is ToolState.DENIED
        notes = [i for i in chat(app).session.conversation.items if isinstance(i, NoteItem) and i.kind is NoteKind.DECISION]
        assert [(n.title, n.text) for n in notes] == [("Bash", "Denied: use ls instead")]


def fork_notes(app: ClaudeTuiApp) -> list[str]:
    return [i.text for i in chat(app).session.conversation.items if isinstance(i, NoteItem) and "Forked" in i.text]


async def test_every_way_of_forking_says_the_same_thing(tmp_path: Path) -> None:
    """The browser's f, the palette's "Fork this session" and `--resume ID --fork` share one path."""
    from claude_tui.resume import begin_fork, fork_note

    expected = fork_note(SESSION)
    file = transcript(tmp_path, 0.25)
    # 1. the browser's f
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app), what="CLI ready")
        first = app.chat
        choice = BrowserChoice(SESSION, file, tmp_path, fork=True)
        await app._switch_session(choice, conversation_for(choice))
        await wait_for(pilot, lambda: app.chat is not first and ready(app), what="the forked session ready")
        assert fork_notes(app) == [expected]
        assert SESSION[:8] not in status_text(app)  # not the parent's id while the fork has none yet
        # Defect 9: nor the parent's cost (the CLI's totals count it; the fork's own is shown).
        assert "$0.25" not in status_text(app) and chat(app).session.conversation.status.own_cost == 0
        assert chat(app).session.summary().cost_usd == 0
        # 2. the palette's fork of that (now live) session, once it has an id of its own
        await send(pilot, "kw:plain in the fork")
        await wait_for(pilot, lambda: idle(app) and bool(chat(app).session.conversation.status.session_id), what="an id")
        own = chat(app).session.conversation.status.session_id
        second = app.chat
        await second.controls.fork_session()
        await wait_for(pilot, lambda: app.chat is not second and ready(app), what="the second fork ready")
        assert fork_notes(app) == [expected, fork_note(own)]
    # 3. --resume ID --fork (launch): the same function on the loaded history
    conversation = conversation_for(BrowserChoice(SESSION, file, tmp_path))
    begin_fork(conversation, SESSION)
    assert [i.text for i in conversation.items if isinstance(i, NoteItem)][-1] == expected
    assert conversation.status.session_id == "" and conversation.status.cost_total == 0.25
