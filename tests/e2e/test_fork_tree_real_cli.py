"""A fork of a fork, made by the real CLI, is listed under its real parent (not the original), and a
second fork of the original stays under the original; `claude-tui sessions --json` says so."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from claude_tui.history.commands import sessions_command
from claude_tui.history.index import SessionIndex
from claude_tui.history.names import NameStore
from claude_tui.transport.options import CliOptions
from tests.e2e.app_driver import AppDriver, drive
from tests.e2e.test_resume_real_cli import quit_app

Options = Callable[..., CliOptions]


async def _fork(d: AppDriver, prompt: str) -> str:
    await d.chat.controls.fork_session()  # what the palette's "Fork this session" runs
    await d.wait(lambda: d.conversation.status.session_id == "", "the fork started")
    await d.turn(prompt)
    return d.conversation.status.session_id


async def test_a_fork_of_a_fork_lists_its_real_parent(app_options: Options, config_dir: Path, project_dir: Path,
                                                    tmp_path: Path) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:plain the original")
        original = d.conversation.status.session_id
        first = await _fork(d, "kw:plain in the first fork")
        second = await _fork(d, "kw:plain in the fork of the fork")
        await quit_app(d)
    async with drive(app_options(resume=original)) as d:
        await d.turn("kw:plain back in the original")
        assert d.conversation.status.session_id == original
        other = await _fork(d, "kw:plain another fork of the original")
        await quit_app(d)
    assert len({original, first, second, other}) == 4
    with SessionIndex(tmp_path / "index.sqlite", root=config_dir, names=NameStore(tmp_path / "n.json")) as index:
        rows = {r.session_id: r for r in index.list_sessions(project_dir)}
        assert rows[original].forked_from is None
        assert rows[first].forked_from == original
        assert rows[second].forked_from == first  # was: the original
        assert rows[other].forked_from == original
        out = io.StringIO()
        sessions_command(False, 10, True, project_dir, out, index=index)
    listed = {r["session_id"]: r["forked_from"] for r in json.loads(out.getvalue())}
    assert listed[second] == first and listed[other] == original and listed[original] is None
