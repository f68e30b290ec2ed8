"""The core flows against every Claude Code version claude-tui supports.

Versions (each installed once into the cache by ``tests.e2e.cli_install``): the oldest
supported, one from the band that starts stream-json sessions in ``auto`` mode
(2.1.285-2.1.301), the pinned one and the newest tested. ``CLAUDE_TUI_E2E_MATRIX``
(comma-separated versions) replaces the list. The full e2e suite stays on the pinned
version; this file runs only the core flows, and the run prints which version ran which
flow (``pytest_terminal_summary`` in conftest).

Per version: one app session for prompt, thinking, Bash allow and deny, Edit with its
diff and a question; a second one resumes the session. Each flow is checked as a user
would see it, and for the things old CLIs broke: no answer, thought or card twice, no
tool run without a dialog.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from claude_tui.history.transcript import load_session
from claude_tui.protocol.versions import NEWEST_TESTED, OLDEST_SUPPORTED
from claude_tui.resume import conversation_from_transcript
from claude_tui.session.items import TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.dialogs.question import QuestionScreen
from claude_tui.ui.dialogs.rewind_conversation import RewindChoiceScreen, RewindListScreen
from claude_tui.ui.render.diff_view import DiffView
from tests.e2e.app_driver import AppDriver, drive
from tests.e2e.cli_install import DEFAULT_VERSION, CliInstallError, ensure_cli
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import DONE_TEXT

AUTO_BAND = "2.1.290"
VERSIONS = [v.strip() for v in os.environ.get("CLAUDE_TUI_E2E_MATRIX", "").split(",") if v.strip()] or \
    [OLDEST_SUPPORTED, AUTO_BAND, DEFAULT_VERSION, NEWEST_TESTED]
FLOWS = ("prompt", "thinking", "bash allow", "bash deny", "edit + diff", "question", "resume", "rewind")

#: version -> flow -> "ok" / "FAILED: why"; printed at the end of the run (conftest).
MATRIX: dict[str, dict[str, str]] = {}

Options = Callable[..., CliOptions]


@pytest.fixture(scope="session")
def matrix_clis() -> dict[str, Path | str]:
    """Every matrix version, installed into the real cache: a session fixture runs before the per-test
    `XDG_CACHE_HOME` isolation (tests/conftest.py), which would install into a fresh temp dir each time."""
    found: dict[str, Path | str] = {}
    for version in VERSIONS:
        try:
            found[version] = ensure_cli(version)
        except CliInstallError as exc:
            found[version] = f"Claude Code {version} cannot be installed: {exc}"
    return found


def _kinds(d: AppDriver) -> list[tuple[str, str]]:
    """What the log shows, one entry per text/thinking/tool item: a duplicate shows as a repeat."""
    out = []
    for item in d.items:
        if isinstance(item, (TextItem, ThinkingItem)):
            out.append((type(item).__name__, item.text))
        elif isinstance(item, ToolItem):
            out.append(("tool", item.tool_use_id))
    return out


def _no_duplicates(d: AppDriver) -> None:
    kinds = _kinds(d)
    tool_ids = [key for kind, key in kinds if kind == "tool"]
    assert len(tool_ids) == len(set(tool_ids)), f"a tool card twice: {kinds}"
    for a, b in zip(kinds, kinds[1:]):
        assert a != b or a[0] == "tool", f"shown twice: {a}"
    stuck = [i for i in d.items if isinstance(i, ToolItem) and i.state in (ToolState.STREAMING, ToolState.PENDING)]
    assert not stuck, f"cards stuck at '…': {stuck}"


async def _flow(results: dict[str, str], name: str, body: Callable[[], Awaitable[None]]) -> None:
    try:
        await body()
    except BaseException as exc:  # noqa: BLE001 - recorded for the matrix, raised at the end
        results[name] = f"FAILED: {type(exc).__name__}: {str(exc)[:300]}"
    else:
        results[name] = "ok"


@pytest.mark.parametrize("version", VERSIONS)
async def test_core_flows(version: str, matrix_clis: dict[str, Path | str], app_options: Options,
                          project_dir: Path, config_dir: Path, mock_api: MockApi) -> None:
    binary = matrix_clis[version]
    if isinstance(binary, str):
        pytest.fail(binary, pytrace=False)
    results = MATRIX.setdefault(version, {})

    def options(**kwargs: object) -> CliOptions:
        opts = app_options(**kwargs)
        opts.claude_path = str(binary)
        return opts

    session_id = ""
    async with drive(options()) as d:
        status = d.conversation.status

        async def prompt() -> None:
            await d.turn("kw:plain hello there")
            assert status.cli_version == version
            # Started with an explicit --permission-mode: no CLI-side default (auto) runs instead.
            assert status.permission_mode == "default", status.permission_mode
            answers = [i.text for i in d.of_type(TextItem)]
            assert answers == ["Hello! You said: kw:plain hello there "], answers
            await d.wait_on_screen("Hello! You said: kw:plain hello there")
            assert status.cost_total > 0

        async def thinking() -> None:
            await d.turn("kw:think what is the answer?")
            thoughts = d.of_type(ThinkingItem)
            assert len(thoughts) == 1 and thoughts[0].text.startswith("Let me think"), thoughts
            assert d.of_type(TextItem)[-1].text == "Thought about it: **42**. "
            _no_duplicates(d)

        async def bash_allow() -> None:
            await d.send("kw:bash please")
            await d.wait_screen(PermissionScreen)  # a dialog, whatever the CLI's own default mode
            assert not (project_dir / "touched").exists()
            await d.press("y")
            await d.wait(lambda: status.turns >= 3 and not d.chat.session.busy, "the Bash turn to end")
            await d.wait_chat_active()
            tool = d.tools("Bash")[-1]
            assert tool.state is ToolState.DONE, tool
            assert (project_dir / "touched").exists()
            assert d.of_type(TextItem)[-1].text == DONE_TEXT
            _no_duplicates(d)

        async def bash_deny() -> None:
            (project_dir / "touched").unlink(missing_ok=True)
            await d.send("kw:bash again")
            await d.wait_screen(PermissionScreen)
            await d.press("n")
            await d.wait(lambda: status.turns >= 4 and not d.chat.session.busy, "the denied turn to end")
            await d.wait_chat_active()
            assert d.tools("Bash")[-1].state is ToolState.DENIED
            assert not (project_dir / "touched").exists()
            _no_duplicates(d)

        async def edit() -> None:
            await d.send("kw:readedit the file")  # old CLIs refuse an Edit of a file not read first
            await d.wait_screen(PermissionScreen)
            await d.press("y")
            await d.wait(lambda: status.turns >= 5 and not d.chat.session.busy, "the Edit turn to end")
            await d.wait_chat_active()
            tool = d.tools("Edit")[-1]
            assert tool.state is ToolState.DONE, tool
            assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\n"
            card = d.widget_for(tool)
            await d.wait(lambda: card is not None and card.query(DiffView), "a diff in the Edit card")
            await d.wait_on_screen("BETA")
            _no_duplicates(d)

        async def question() -> None:
            await d.send("kw:ask me")
            await d.wait_screen(QuestionScreen)
            await d.press("2")  # Blue
            await d.press("enter")  # review
            await d.press("enter")  # send
            await d.wait(lambda: status.turns >= 6 and not d.chat.session.busy, "the question turn to end")
            tool = d.tools("AskUserQuestion")[-1]
            assert tool.state is ToolState.DONE, tool
            assert "Blue" in tool.result_text
            _no_duplicates(d)

        for name, body in zip(FLOWS, (prompt, thinking, bash_allow, bash_deny, edit, question)):
            await _flow(results, name, body)
            if results[name] != "ok":
                # The next flow starts from an idle prompt; its turn counts follow this one's.
                await d.wait(lambda: not d.chat.session.busy, "the failed flow's turn to end", 60)
        session_id = status.session_id
        cost_before = status.cost_total

    async def resume() -> None:
        assert session_id
        encoded = re.sub(r"[^A-Za-z0-9]", "-", str(project_dir))
        assert (config_dir / "projects" / encoded / f"{session_id}.jsonl").is_file()
        transcript = load_session(session_id, root=config_dir, cwd=project_dir)
        assert transcript is not None
        conversation = conversation_from_transcript(transcript)  # what `claude-tui --resume` does
        answers = [i.text for i in conversation.items if isinstance(i, TextItem)]
        assert answers[0] == "Hello! You said: kw:plain hello there" or answers[0].startswith("Hello!"), answers
        async with drive(options(resume=session_id), conversation=conversation) as d:
            await d.wait_on_screen("Resumed from the transcript")
            assert d.conversation.status.cost_total > 0, "the resumed session's cost starts at $0"
            await d.turn("kw:plain second run")
            assert d.conversation.status.session_id == session_id
            assert d.of_type(TextItem)[-1].text == "Hello! You said: kw:plain second run "
            assert d.conversation.status.cost_total >= cost_before * 0.5
            _no_duplicates(d)
            await _flow(results, "rewind", lambda: rewind(d))

    async def rewind(d: AppDriver) -> None:
        # Back to before the prompt sent after the resume (its point is the replayed history's end):
        # the CLI restarts with --resume-session-at, and the next request no longer holds that turn.
        session, old = d.chat.session, d.chat.session.connection
        await d.press("escape", "escape")
        await d.wait_screen(RewindListScreen)
        await d.press("enter")
        await d.wait_screen(RewindChoiceScreen)
        await d.press("2")
        await d.wait(lambda: session.connection is not old and session.alive, "the CLI restarted", 60)
        await d.wait(lambda: d.prompt.text == "kw:plain second run", "the prompt's text back")
        before = len(mock_api.requests)
        await d.turn("kw:plain rewound")
        # The first that carries the new prompt (2.0.77 sends a "Warmup" request of its own at start).
        said = next(text for r in mock_api.requests[before:] if r.is_messages and not r.subagent
                    and "kw:plain rewound" in (text := repr(r.body.get("messages"))))
        assert "kw:plain second run" not in said and "kw:plain hello there" in said
        assert [i.text for i in d.of_type(UserItem)][-1] == "kw:plain rewound"

    await _flow(results, "resume", resume)
    failed = {flow: why for flow, why in results.items() if why != "ok"}
    assert not failed, f"Claude Code {version}: {failed}"
