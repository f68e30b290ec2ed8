"""Snapshots of the session browser: list + preview, search results, empty state, light theme.

The tree is built from the real CLI's transcripts with fixed file times, and the
browser's clock is fixed, so "last active" and "started" read the same every run.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from textual.app import App

from claude_tui.history.synth import make_session, read_records, used_at
from claude_tui.ui.browser.screen import SessionBrowserScreen
from tests.styles import APP_CSS

FIXTURE_SESSIONS = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
IDS = ("f122259a-3b96-4c04-9b7c-9b19a6582dba", "3aa3043d-6dbe-4e80-8b58-4789dd1efc50",
       "1371d147-61d8-4b34-beff-86ba0e32e82d")
OTHER = "0b6c8a1e-6f4f-4f59-9a43-2d3f7f0c0a11"
NOW = 1_795_400_000.0
CSS = [APP_CSS]


def build_tree(tmp_path: Path, sessions: bool = True) -> Path:
    root = tmp_path / "config"
    project = root / "projects" / "-home-user-project"
    project.mkdir(parents=True)
    if sessions:
        for i, sid in enumerate(IDS):
            shutil.copyfile(FIXTURE_SESSIONS / f"{sid}.jsonl", project / f"{sid}.jsonl")
            used_at(project / f"{sid}.jsonl", NOW - 7200 + i * 1500)
        make_session(root / "projects" / "-home-user-other", read_records(FIXTURE_SESSIONS / f"{IDS[0]}.jsonl"),
                     session_id=OTHER, cwd="/home/user/other", mtime=NOW - 86400 * 3)
    return root


class BrowserApp(App[None]):
    CSS_PATH = CSS  # type: ignore[assignment]

    def __init__(self, tmp_path: Path, *, sessions: bool = True, theme: str = "textual-dark",
                 all_projects: bool = False) -> None:
        super().__init__()
        self.theme = theme
        self.browser = SessionBrowserScreen(Path("/home/user/project"), config_root=build_tree(tmp_path, sessions),
                                            index_path=tmp_path / "index.sqlite", now=lambda: NOW,
                                            all_projects=all_projects, names_path=tmp_path / "names.json",
                                            poll_seconds=None)

    def on_mount(self) -> None:
        self.push_screen(self.browser)


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    pilot.app.browser.filter_input.cursor_blink = False  # the filter has focus: no blinking in pictures
    for _ in range(3):
        await pilot.pause(0.2)
        await pilot.app.workers.wait_for_complete()
    # The message counts come from the index, after the list: the picture is of the indexed browser.
    for _ in range(100):
        if pilot.app.browser.state.indexed:
            break
        await pilot.pause(0.05)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_list_with_preview(snap_compare, tmp_path: Path) -> None:
    """Current project, newest first; the preview draws the Edit card and the follow-up turn."""
    assert snap_compare(BrowserApp(tmp_path), run_before=settle, terminal_size=(130, 34))


def test_search_results(snap_compare, tmp_path: Path) -> None:
    """`/` + "tool ran": matching sessions with the snippet column; matches above the preview."""

    async def search(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("slash", *"tool ran")
        await settle(pilot)
        pilot.app.browser.filter_input.cursor_blink = False
        await pilot.pause()

    assert snap_compare(BrowserApp(tmp_path), run_before=search, terminal_size=(130, 34))


def test_empty_state(snap_compare, tmp_path: Path) -> None:
    """No sessions for this directory: a friendly message instead of an empty table."""
    assert snap_compare(BrowserApp(tmp_path, sessions=False), run_before=settle, terminal_size=(100, 24))


def test_light_theme_all_projects_narrow(snap_compare, tmp_path: Path) -> None:
    """Light theme, all projects (Project column), a named session, preview below the table."""
    (tmp_path / "names.json").write_text(json.dumps({IDS[1]: "Run the shell command"}))

    async def move(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(BrowserApp(tmp_path, theme="textual-light", all_projects=True), run_before=move,
                        terminal_size=(100, 40))


FORKED = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "forked"
RECORDED_CWD = "/tmp/pytest-of-root/pytest-0/test_gen0/project"


def test_a_fork_and_its_parent(snap_compare, tmp_path: Path) -> None:
    """The real CLI's session and its --fork-session copy: same first prompt, the fork marked with its parent."""

    class ForkApp(BrowserApp):
        def __init__(self) -> None:
            super().__init__(tmp_path, sessions=False)
            project = tmp_path / "config" / "projects" / "-home-user-project"
            for i, path in enumerate(sorted(FORKED.glob("*.jsonl"))):
                target = project / path.name
                target.write_text(path.read_text().replace(RECORDED_CWD, "/home/user/project"))
                os.utime(target, (NOW - 600 + i * 300, NOW - 600 + i * 300))  # their records keep the recorded times

    async def on_fork(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(ForkApp(), run_before=on_fork, terminal_size=(130, 34))
