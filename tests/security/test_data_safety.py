"""Data safety: the CLI's config dir is read-only to us; our own files are private and written atomically.

(The variant with the real CLI hashing the tree around a full e2e run lives in the e2e tier.)
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

import platformdirs
import pytest

from claude_tui import paths
from claude_tui.history.index import SessionIndex
from claude_tui.resume import load_conversation
from claude_tui.store import DraftStore, PromptHistory
from tests.conftest import FIXTURES
from tests.reliability.harness import SIZE, chat, fake_options, make_app, run_turn, type_prompt, wait_for, wait_ready

SESSION = "f122259a-3b96-4c04-9b7c-9b19a6582dba"


def tree_digest(root: Path) -> dict[str, tuple[int, str]]:
    """Every entry under ``root``: (mode, sha256 of the content or "dir")."""
    out: dict[str, tuple[int, str]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        digest = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
        out[str(path.relative_to(root))] = (stat.S_IMODE(st.st_mode), digest)
    out["."] = (stat.S_IMODE(root.lstat().st_mode), "dir")
    return out


@pytest.fixture
def claude_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake ``CLAUDE_CONFIG_DIR`` holding the recorded transcripts and a settings file."""
    root = tmp_path / "claude-config"
    shutil.copytree(FIXTURES / "sessions", root / "projects")
    (root / "settings.json").write_text('{"model": "opus"}\n')
    (root / ".credentials.json").write_text('{"token": "secret"}\n')
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    return root


def our_roots() -> list[Path]:
    return [platformdirs.user_config_path("claude-tui"), platformdirs.user_data_path("claude-tui"),
            platformdirs.user_cache_path("claude-tui"), platformdirs.user_state_path("claude-tui"),
            platformdirs.user_log_path("claude-tui")]


def test_our_locations_are_platformdirs_and_private(tmp_path: Path) -> None:
    for made, expected in ((paths.config_dir(), platformdirs.user_config_path("claude-tui")),
                           (paths.data_dir(), platformdirs.user_data_path("claude-tui")),
                           (paths.cache_dir(), platformdirs.user_cache_path("claude-tui")),
                           (paths.log_dir(), platformdirs.user_log_path("claude-tui"))):
        assert made == expected
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, made
        # Isolated by tests/conftest.py: never the developer's real home.
        assert str(made).startswith(os.environ["XDG_CONFIG_HOME"].rsplit("/", 1)[0])


def test_atomic_write_is_private_and_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "file.txt"
    paths.atomic_write_text(target, "first")
    assert target.read_text() == "first"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    inode = target.stat().st_ino
    paths.atomic_write_text(target, "second")
    assert target.read_text() == "second"
    assert target.stat().st_ino != inode  # a new file renamed over the old one, never rewritten in place
    assert [p.name for p in target.parent.iterdir()] == ["file.txt"]  # no temp files left


def test_atomic_write_interrupted_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "draft.txt"
    paths.atomic_write_text(target, "the old draft")

    def crash(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        paths.atomic_write_text(target, "x" * 100_000)
    assert target.read_text() == "the old draft"
    assert [p.name for p in tmp_path.iterdir()] == ["draft.txt"]


async def test_running_the_app_and_opening_history_never_touches_the_cli_config_dir(
        claude_config_dir: Path, tmp_path: Path) -> None:
    before = tree_digest(claude_config_dir)
    project = tmp_path / "project"
    project.mkdir()
    options = fake_options(project)
    options.env["CLAUDE_CONFIG_DIR"] = str(claude_config_dir)
    log = paths.log_dir() / "debug.log"
    app = make_app(options, debug_log=log)
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot, app)
        await run_turn(pilot, app, "hello kw:plain")
        await type_prompt(pilot, app, "a draft to keep")
        await wait_for(pilot, lambda: chat(app).session.drafts.load() == "a draft to keep", 5, "the draft save")
        await pilot.press("f4")  # the session browser entry point
        await pilot.pause()
    # History: index, search, and resume a recorded session from that config dir.
    with SessionIndex() as index:
        index.refresh()
        rows = index.list_sessions(None, all_projects=True, limit=50)
        assert {row.session_id for row in rows} >= {SESSION}
        index.index_content()
        index.search("hello")
        from claude_tui.history.usage.command import usage_report

        assert usage_report(index, "session").total.input_tokens > 0  # `claude-tui usage`, the usage screen
    conversation = load_conversation(SESSION, path=next(claude_config_dir.rglob(f"{SESSION}.jsonl")))
    assert conversation is not None and conversation.items
    assert tree_digest(claude_config_dir) == before, "something under CLAUDE_CONFIG_DIR changed"

    # And what we did write is ours, private, and in our platformdirs locations.
    assert DraftStore(project).load() == "a draft to keep"
    assert PromptHistory(project).entries[-1] == "hello kw:plain"
    written = [p for root in our_roots() if root.exists() for p in root.rglob("*")]
    assert any(p.name.endswith(".sqlite") for p in written) and log.exists()
    loose = [f"{p} {oct(stat.S_IMODE(p.stat().st_mode))}" for p in written
             if stat.S_IMODE(p.stat().st_mode) & 0o077 and ".sqlite" not in p.name]  # see the test below
    assert loose == [], "files or directories readable by others"


# claude_tui/history/index.py creates sessions.sqlite (a full-text copy of every transcript)
# with the process umask (0644): other local users can read it. Reported; fix: create the
# file 0600 before sqlite3.connect (os.open(..., O_CREAT, 0o600)) and chmod -wal/-shm likewise.
def test_session_index_database_is_private(claude_config_dir: Path) -> None:
    with SessionIndex() as index:
        index.refresh()
        index.index_content()
    files = [p for p in platformdirs.user_cache_path("claude-tui").rglob("*") if p.is_file()]
    assert files
    assert [p.name for p in files if stat.S_IMODE(p.stat().st_mode) & 0o077] == []
