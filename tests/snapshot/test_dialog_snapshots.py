"""Snapshots of the permission, AskUserQuestion and plan dialogs (requests from the real CLI's recordings)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from claude_tui.session.permissions import PermissionRequest
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.dialogs.plan import PlanScreen
from claude_tui.ui.dialogs.question import QuestionScreen
from tests.pilot.test_dialogs import DialogHost, request_from
from tests.snapshot.chat_states import StateApp, line_index
from tests.snapshot.settle import settle

WIDE = (120, 40)
SMALL = (80, 24)
LARGE = (160, 48)

HIDDEN = "echo hello" + "\n" * 200 + "touch PWNED"
"""Issue 28, item 2: shown plainly, this is `echo hello` and blank rows; `touch PWNED` runs too."""
LONG = "\n".join(f"echo step {n}  # a line of a long script" for n in range(1, 61)) + "\ntouch PWNED  "

CONFIG_PY = '''"""Tiny config loader."""

import json


def load(path):
    with open(path) as handle:
        data = json.load(handle)
    return data


def main():
    config = load("config.json")
    print("loaded", len(config), "keys")
    return 0
'''

PLAN = """## Plan: fix the config loader

The loader crashes when `CONFIG` points at a missing file.

1. Read `src/config.py` and its tests
2. Return the defaults when the file is missing, and log a warning
3. Add a regression test in `tests/test_config.py`
4. Run the test suite

```python
def load(path):
    if not os.path.exists(path):
        return {}
```

**Risk:** low — only the missing-file path changes.
"""


def settled(*keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """A run_before that waits for the preview worker, then presses ``keys``."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return run_before


def edit_request(tmp_path: Path) -> tuple[PermissionRequest, Path]:
    """An Edit of a real file in ``tmp_path``; the dialog shows the relative path, so the snapshot is stable."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "config.py").write_text(CONFIG_PY)
    request = request_from(
        "edit-allow",
        "Edit",
        input={
            "file_path": "src/config.py",
            "old_string": '    config = load("config.json")\n',
            "new_string": '    config = load(os.environ.get("CONFIG", "config.json"))\n',
            "replace_all": False,
        },
        description="src/config.py",
    )
    return request, tmp_path


def test_bash_permission(snap_compare: Any) -> None:
    app = DialogHost(PermissionScreen(request_from("bash-allow", "Bash"), guard_ms=0))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled())


def test_bash_always_picker(snap_compare: Any) -> None:
    app = DialogHost(PermissionScreen(request_from("bash-allow", "Bash"), guard_ms=0))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled("a"))


def test_bash_tell_box(snap_compare: Any) -> None:
    app = DialogHost(PermissionScreen(request_from("bash-allow", "Bash"), guard_ms=0))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled("t", "u", "s", "e", "space", "r", "g"))


def test_keys_paused(snap_compare: Any) -> None:
    # A guard far longer than the test: the "keys paused" notice is on for certain.
    app = DialogHost(PermissionScreen(request_from("bash-allow", "Bash"), guard_ms=600_000))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled())


def test_edit_with_diff_preview(snap_compare: Any, tmp_path: Path) -> None:
    request, cwd = edit_request(tmp_path)
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=cwd))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled())


def test_edit_with_split_preview(snap_compare: Any, tmp_path: Path) -> None:
    # s switches the preview to split, as in every diff of the app (issue 27, defect 5).
    request, cwd = edit_request(tmp_path)
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=cwd))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled("s"))


def test_edit_with_diff_preview_light(snap_compare: Any, tmp_path: Path) -> None:
    request, cwd = edit_request(tmp_path)
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=cwd), theme="textual-light")
    assert snap_compare(app, terminal_size=WIDE, run_before=settled())


def test_write_create(snap_compare: Any, tmp_path: Path) -> None:
    request = request_from("write-create", "Write", input={"file_path": "notes/new.md",
                                                           "content": "# Notes\n\n- first\n- second\n"},
                           description="notes/new.md")
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled())


def test_queued_two_of_three_small(snap_compare: Any) -> None:
    app = DialogHost(PermissionScreen(request_from("bash-allow", "Bash"), guard_ms=0, position=2, total=3))
    assert snap_compare(app, terminal_size=SMALL, run_before=settled())


def hidden_dialog(command: str) -> DialogHost:
    request = request_from("bash-allow", "Bash", input={"command": command}, description="Greet")
    return DialogHost(PermissionScreen(request, guard_ms=0))


def test_hidden_command_small(snap_compare: Any) -> None:
    # The blank run is one marker saying how many; `touch PWNED` is in view.
    assert snap_compare(hidden_dialog(HIDDEN), terminal_size=SMALL, run_before=settled())


def test_hidden_command_large(snap_compare: Any) -> None:
    assert snap_compare(hidden_dialog(HIDDEN), terminal_size=LARGE, run_before=settled())


def test_long_command_says_what_is_below_small(snap_compare: Any) -> None:
    # Above the keys: how many more lines, and the last one (its trailing spaces marked).
    assert snap_compare(hidden_dialog(LONG), terminal_size=SMALL, run_before=settled())


def test_long_command_says_what_is_below_large(snap_compare: Any) -> None:
    assert snap_compare(hidden_dialog(LONG), terminal_size=LARGE, run_before=settled())


def test_long_command_waiting_small(snap_compare: Any) -> None:
    # Opened waiting (the dialog is smaller): the note is there before Tab is even pressed.
    request = request_from("bash-allow", "Bash", input={"command": LONG}, description="Greet")
    app = DialogHost(PermissionScreen(request, guard_ms=0), waiting=True)
    assert snap_compare(app, terminal_size=SMALL, run_before=settled())


def test_question_single(snap_compare: Any) -> None:
    app = DialogHost(QuestionScreen(request_from("ask-single", "AskUserQuestion"), guard_ms=0))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled("down"))  # a number would answer it


def test_question_multi(snap_compare: Any) -> None:
    app = DialogHost(QuestionScreen(request_from("ask-multi", "AskUserQuestion"), guard_ms=0, position=1, total=2))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled("2", "1", "3", "4"))


def test_question_review(snap_compare: Any) -> None:
    app = DialogHost(QuestionScreen(request_from("ask-multi", "AskUserQuestion"), guard_ms=0))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled("2", "1", "2", "enter"))


def test_question_review_light_small(snap_compare: Any) -> None:
    app = DialogHost(QuestionScreen(request_from("ask-multi", "AskUserQuestion"), guard_ms=0), theme="textual-light")
    assert snap_compare(app, terminal_size=SMALL, run_before=settled("1", "3", "enter"))


def test_plan(snap_compare: Any) -> None:
    app = DialogHost(PlanScreen(request_from("plan-exit", "ExitPlanMode", plan=PLAN), guard_ms=0))
    assert snap_compare(app, terminal_size=WIDE, run_before=settled())


def test_plan_small(snap_compare: Any) -> None:
    app = DialogHost(PlanScreen(request_from("plan-exit", "ExitPlanMode", plan=PLAN), guard_ms=0))
    assert snap_compare(app, terminal_size=SMALL, run_before=settled())


# ---------------------------------------------------------------- in the app: where the eye is


async def _feed(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.app.feed()  # type: ignore[attr-defined]
    await settle(pilot)
    await pilot.pause()


@pytest.mark.parametrize("size", [SMALL, (160, 48)], ids=["80x24", "160x48"])
def test_waiting_bash_dialog_sits_above_the_prompt(snap_compare: Any, size: tuple[int, int]) -> None:
    # As in Claude Code: just above the prompt (the draft readable below it), the command readable,
    # the chat's last lines above it.
    cut = line_index("bash-allow", '"can_use_tool"')
    app = StateApp([("kw:bash please", "bash-allow", cut)], after="and then")
    assert snap_compare(app, terminal_size=size, run_before=_feed)
