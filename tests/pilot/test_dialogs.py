"""The permission, AskUserQuestion and plan dialogs driven by keys, with requests the real CLI sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static, TextArea

from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs import base as dialog_base
from claude_tui.ui.dialogs.base import GuardedModal
from claude_tui.ui.dialogs.permission import DENY_MESSAGE, STOP_MESSAGE, PermissionScreen
from claude_tui.ui.dialogs.plan import KEEP_PLANNING_MESSAGE, PlanScreen
from claude_tui.ui.dialogs.question import DECLINE_MESSAGE, QuestionScreen
from claude_tui.ui.render.diff_view import DiffView
from tests.conftest import recording

PLAN = "## Plan\n\n1. Read the code\n2. Fix the bug\n3. Run tests"
UNSAFE = "[@click=app.quit]x[/] \x1b]0;pwned\x07\x1b[31m"


class DialogHost(App[None]):
    """Pushes one dialog and records what it dismisses with."""

    def __init__(self, dialog: GuardedModal[PermissionDecision], theme: str = "textual-dark", *, waiting: bool = False) -> None:
        """``waiting=False``: the dialog opens as if Tab had moved to it (these tests are about its keys;
        tests/pilot/test_typing_never_answers.py is about getting there)."""
        super().__init__()
        self.dialog = dialog
        if not waiting:
            dialog.waiting = False
            dialog.remove_class("-waiting")
        self.results: list[PermissionDecision] = []
        self.quit_requested = False
        self._theme_name = theme

    def on_mount(self) -> None:
        self.theme = self._theme_name
        self.push_screen(self.dialog, self.results.append)

    async def action_quit(self) -> None:  # a "[@click=app.quit]" that worked would land here
        self.quit_requested = True


def request_from(name: str, tool: str, **overrides: Any) -> PermissionRequest:
    """The first can_use_tool request for ``tool`` in recording ``name``, as the session builds it."""
    for line in recording(name):
        obj = json.loads(line)
        inner = obj.get("request") or {}
        if obj.get("type") == "control_request" and inner.get("tool_name") == tool:
            fields: dict[str, Any] = dict(
                request_id=obj["request_id"],
                tool_name=tool,
                input=inner.get("input") or {},
                display_name=inner.get("display_name") or "",
                description=inner.get("description") or "",
                decision_reason=inner.get("decision_reason") or "",
                blocked_path=inner.get("blocked_path") or "",
                suggestions=list(inner.get("permission_suggestions") or []),
                tool_use_id=inner.get("tool_use_id") or "",
            )
            fields.update(overrides)
            return PermissionRequest(**fields)
    raise LookupError(f"no {tool} request in {name}")


def bash_request(**overrides: Any) -> PermissionRequest:
    return request_from("bash-allow", "Bash", **overrides)


def screen_text(app: App[Any]) -> str:
    """What the terminal would show, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*["space" if char == " " else char for char in text])


async def settle(pilot: Any) -> None:
    await pilot.pause()
    await pilot.pause()


# ---------------------------------------------------------------- permission: allow / always / deny


async def test_y_allows_once() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "touch /home/user/project/touched" in screen_text(app)
        await pilot.press("y")
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, True, words="Allowed once")]


@pytest.mark.parametrize(("keys", "index"), [(("a", "1"), 0), (("a", "2"), 1), (("a", "3"), 2), (("a", "down", "enter"), 1)])
async def test_a_opens_picker_and_sends_the_chosen_suggestion(keys: tuple[str, ...], index: int) -> None:
    request = bash_request()
    assert len(request.suggestions) == 3
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(keys[0])
        await settle(pilot)
        assert app.dialog.has_class("-mode-always")
        text = screen_text(app)
        assert "Always allow the Bash command" in text and ".claude/settings.local.json" in text
        assert "Add /home/user/project to this session's directories" in text
        assert "Accept edits for this session" in text
        assert app.results == []
        await pilot.press(*keys[1:])
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.allow
    assert decision.updated_permissions == [request.suggestions[index]]
    assert decision.words.startswith("Always allowed: ")


async def test_picker_escape_goes_back_and_y_there_does_nothing() -> None:
    app = DialogHost(PermissionScreen(bash_request(), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a", "y", "n", "s")
        await settle(pilot)
        assert app.results == [] and app.dialog.mode == "always"
        await pilot.press("escape")
        await settle(pilot)
        assert app.dialog.mode == "main" and app.results == []


async def test_a_with_one_suggestion_sends_it_directly() -> None:
    request = request_from("edit-allow", "Edit")
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Accept edits for this session" in screen_text(app)
        await pilot.press("a")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None
    assert decision.updated_permissions == [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]
    assert decision.words == "Always allowed: Accept edits for this session"


async def test_a_without_suggestions_does_nothing() -> None:
    app = DialogHost(PermissionScreen(bash_request(suggestions=[]), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Always allow" not in screen_text(app)
        await pilot.press("a")
        await settle(pilot)
        assert app.results == []


@pytest.mark.parametrize("key", ["n", "escape"])
async def test_n_and_escape_deny(key: str) -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, False, message=DENY_MESSAGE, words="Denied")]


async def test_x_denies_and_stops() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
    [decision] = app.results
    assert decision == PermissionDecision(
        request.request_id, False, message=STOP_MESSAGE, interrupt=True, words="Denied and stopped"
    )


async def test_t_denies_with_the_typed_message() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.focused, Input)
        await pilot.press("enter")  # empty message: not a decision
        await settle(pilot)
        assert app.results == []
        await type_text(pilot, "yes use rg")  # letters that are keys elsewhere just type
        await pilot.press("enter")
        await settle(pilot)
    [decision] = app.results
    assert decision == PermissionDecision(request.request_id, False, message="yes use rg", words="Denied: yes use rg")


async def test_t_escape_returns_to_the_dialog() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t", "x", "escape")
        await settle(pilot)
        assert app.results == [] and app.dialog.mode == "main"
        await pilot.press("y")
        await settle(pilot)
    assert app.results and app.results[0] is not None and app.results[0].allow


async def test_e_edits_the_bash_command() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        editor = app.dialog.query_one("#editor", TextArea)
        assert app.focused is editor and editor.text == request.input["command"]
        editor.load_text("echo safer")
        await pilot.press("n", "escape")  # typing in the editor, then back: no decision
        await settle(pilot)
        assert app.results == [] and app.dialog.mode == "main"
        await pilot.press("e")
        await settle(pilot)
        editor.load_text("echo safer")
        await pilot.press("ctrl+s")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.allow and decision.words == "Allowed with edited input"
    assert decision.updated_input == {**request.input, "command": "echo safer"}


@pytest.mark.parametrize(("name", "tool", "key"), [("edit-allow", "Edit", "new_string"), ("write-create", "Write", "content")])
async def test_e_edits_file_tools(name: str, tool: str, key: str) -> None:
    request = request_from(name, tool)
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        app.dialog.query_one("#editor", TextArea).load_text("edited\n")
        await pilot.press("ctrl+s")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.updated_input == {**request.input, key: "edited\n"}


async def test_e_unchanged_is_a_plain_allow() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e", "ctrl+s")
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, True, words="Allowed once")]


async def test_e_shows_input_with_control_characters_escaped_and_read_only() -> None:
    request = bash_request(input={"command": "printf '\x1b[31m'"})
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        editor = app.dialog.query_one("#editor", TextArea)
        assert app.dialog.mode == "edit" and editor.read_only
        assert editor.text == "printf '␛[31m'" and "\x1b" not in editor.text  # no ESC reaches the terminal
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.results == []


async def test_e_is_not_offered_for_tools_without_an_editable_field() -> None:
    request = PermissionRequest("r-fetch", "WebFetch", {"url": "https://example.com", "prompt": "summarise"})
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "https://example.com" in text and "summarise" in text and " e  Edit" not in text
        await pilot.press("e")
        await settle(pilot)
        assert app.dialog.mode == "main" and app.results == []


async def test_mcp_tool_title_and_json_arguments() -> None:
    request = PermissionRequest("r-mcp", "mcp__github__create_issue", {"title": "Bug", "labels": ["x"]})
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
    assert "github › create_issue" in text
    assert '"title": "Bug"' in text and '"labels": [' in text


# ---------------------------------------------------------------- previews


async def test_edit_preview_diffs_against_the_file_on_disk(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta\ngamma\ndelta\n")
    request = request_from("edit-allow", "Edit", input={"file_path": "a.txt", "old_string": "beta",
                                                         "new_string": "BETA", "replace_all": False})
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        view = app.dialog.query_one(DiffView)
        assert view.can_focus is False  # its n key must not shadow deny
        [diff] = view.diffs
        assert (diff.kind, diff.added, diff.removed) == ("edit", 1, 1)
        text = screen_text(app)
        lines = text.splitlines()
        assert any("beta" in line and "-" in line for line in lines)
        assert any("BETA" in line and "+" in line for line in lines)
        # s means what it means in every diff (issue 27, defect 5): split / unified, no answer.
        assert not view.is_split
        await pilot.press("s")
        await settle(pilot)
        assert view.is_split and app.results == []
        assert any("beta" in line and "BETA" in line for line in screen_text(app).splitlines())  # side by side
        await pilot.press("s")
        await settle(pilot)
        assert not view.is_split and app.results == []
        await pilot.press("x")
        await settle(pilot)
    assert app.results[0] is not None and app.results[0].interrupt


@pytest.mark.parametrize(("exists", "kind"), [(False, "create"), (True, "update")])
async def test_write_preview(tmp_path: Path, exists: bool, kind: str) -> None:
    if exists:
        (tmp_path / "new.txt").write_text("old line\n")
    request = request_from("write-create", "Write", input={"file_path": "new.txt", "content": "line1\nline2\n"})
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        [diff] = app.dialog.query_one(DiffView).diffs
        assert diff.kind == kind and diff.added == 2
        assert "line2" in screen_text(app)


async def test_edit_preview_of_a_missing_file_says_so(tmp_path: Path) -> None:
    request = request_from("edit-allow", "Edit", input={"file_path": "gone.txt", "old_string": "a", "new_string": "b"})
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert "does not exist" in screen_text(app)


# ---------------------------------------------------------------- queue, cancel


async def test_queue_position_label_and_total_updates() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=0, position=1, total=3)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "1 of 3" in screen_text(app)
        dialog.set_total(5)
        await settle(pilot)
        assert "1 of 5" in screen_text(app)
        dialog.set_queue(1, 1)
        await settle(pilot)
        assert " of " not in screen_text(app)


async def test_cancel_closes_without_a_decision() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        dialog.cancel("cancelled")
        await settle(pilot)
        assert app.screen is not dialog and dialog not in app.screen_stack
        await pilot.press("y")
        await settle(pilot)
    assert app.results == []  # the push_screen callback is never called for a cancelled dialog
    assert dialog.cancel_reason == "cancelled"


async def test_cancel_while_covered_closes_when_uncovered() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        cover: ModalScreen[None] = ModalScreen()
        await app.push_screen(cover)
        await settle(pilot)
        dialog.cancel("exited")
        await settle(pilot)
        assert app.screen is cover and app.results == []
        app.pop_screen()
        await settle(pilot)
        assert dialog not in app.screen_stack and app.screen is app.screen_stack[0]
    assert app.results == []


async def test_decision_after_cancel_is_impossible() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        dialog.cancel()
        dialog.action_allow()
        dialog.cancel()
        await settle(pilot)
        assert dialog not in app.screen_stack
    assert app.results == []


# ---------------------------------------------------------------- guard, Enter, untrusted text


class FakeClock:
    """Stands in for the dialogs' monotonic clock, so guard tests do not depend on machine load."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(dialog_base, "time", fake)
    return fake


@pytest.mark.parametrize(
    "make",
    [
        lambda guard: PermissionScreen(bash_request(), guard_ms=guard),
        lambda guard: PlanScreen(PermissionRequest("p", "ExitPlanMode", {}, plan=PLAN), guard_ms=guard),
    ],
)
async def test_typeahead_is_ignored_until_the_guard_passes(make: Any, clock: FakeClock) -> None:
    dialog = make(300)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y", "n", "escape", "t", "a")
        await settle(pilot)
        # Every key in the guard is swallowed (none answers, none is passed on) and keeps it up.
        assert app.results == [] and not dialog.waiting and dialog.mode == "main"
        assert dialog.has_class("-armed") and "keys paused" in screen_text(app)
        clock.now += 0.29
        await pilot.press("y")
        await settle(pilot)
        assert app.results == []  # 0.29 s after the last key: still inside the re-armed guard
        clock.now += 0.3
        await pilot.pause(0.4)  # the notice goes when the guard timer next checks (real time)
        assert not dialog.has_class("-armed")
        await pilot.press("y")
        await settle(pilot)
    assert len(app.results) == 1 and app.results[0] is not None and app.results[0].allow


async def test_guard_in_real_time() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=1000)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        await settle(pilot)
        assert app.results == [] and not dialog.waiting
        await pilot.pause(1.05)
        await pilot.press("y")
        await settle(pilot)
    assert len(app.results) == 1


async def test_zero_guard_never_arms() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not dialog.has_class("-armed") and "keys paused" not in screen_text(app)


async def test_clicks_obey_the_guard(clock: FakeClock) -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=300)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.click("#key-bar", offset=(1, 0))  # " y  Allow once"
        await settle(pilot)
        assert app.results == []
        clock.now += 0.31
        await pilot.click("#key-bar", offset=(1, 0))
        await settle(pilot)
    assert app.results and app.results[0] is not None and app.results[0].words == "Allowed once"


@pytest.mark.parametrize(
    "make",
    [
        lambda: PlanScreen(PermissionRequest("p", "ExitPlanMode", {}, plan=PLAN), guard_ms=0),
    ],
)
async def test_enter_alone_never_approves(make: Any) -> None:
    app = DialogHost(make())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(5):
            await pilot.press("enter")
            await pilot.press("space")
        await settle(pilot)
        assert app.results == []
        assert app.screen is app.dialog


@pytest.mark.parametrize(
    "make",
    [
        lambda: PermissionScreen(bash_request(), guard_ms=0),
        lambda: PermissionScreen(request_from("edit-allow", "Edit"), guard_ms=0),
    ],
)
async def test_enter_allows_once_on_a_permission_dialog(make: Any) -> None:
    # Claude Code's highlighted choice, 1 "Yes"; the guard and the waiting rules are test_one_key_answers'.
    app = DialogHost(make())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert [r.words for r in app.results] == ["Allowed once"]


async def test_untrusted_text_renders_literally() -> None:
    request = bash_request(
        input={"command": f"echo {UNSAFE}", "description": UNSAFE},
        description=f"desc {UNSAFE}",
        decision_reason=f"reason {UNSAFE}",
        blocked_path=f"/tmp/{UNSAFE}",
        suggestions=[{"type": "addDirectories", "directories": [f"/x{UNSAFE}"], "destination": "session"},
                     {"type": "setMode", "mode": "acceptEdits", "destination": "session"}],
    )
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        text = screen_text(app)
        assert text.count("[@click=app.quit]x[/]") >= 5  # command, description, reason, path, suggestion
        assert "\x1b" not in text and "\x07" not in text and "␛]0;pwned" in text
        svg = app.export_screenshot()
        assert "\x1b" not in svg
        # Click everywhere the fake link could be: nothing may reach app.quit.
        for y in range(50):
            await pilot.click(offset=(20, y))
        await pilot.press("escape", "escape")
        await settle(pilot)
    assert app.quit_requested is False


async def test_untrusted_question_and_plan_render_literally() -> None:
    questions = {"questions": [{"question": f"Q {UNSAFE}", "header": f"H{UNSAFE}", "multiSelect": False,
                                "options": [{"label": f"L {UNSAFE}", "description": f"D {UNSAFE}"}]}]}
    app = DialogHost(QuestionScreen(PermissionRequest("q", "AskUserQuestion", questions), guard_ms=0))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert text.count("[@click=app.quit]x[/]") >= 3 and "\x1b" not in text
    plan = PlanScreen(PermissionRequest("p", "ExitPlanMode", {}, plan=f"# Title\n\ntext {UNSAFE}"), guard_ms=0)
    app = DialogHost(plan)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "[@click=app.quit]x[/]" in text and "\x1b" not in text
    assert app.quit_requested is False


# ---------------------------------------------------------------- attention


@pytest.mark.parametrize(("focused", "bell", "desktop", "rings", "writes"),
                         [(True, True, True, 0, 0), (False, True, True, 1, 1), (False, False, True, 0, 1),
                          (False, True, False, 1, 0)])
async def test_attention_only_when_unfocused(monkeypatch: pytest.MonkeyPatch, focused: bool, bell: bool,
                                             desktop: bool, rings: int, writes: int) -> None:
    written: list[str] = []
    rang: list[int] = []
    request = bash_request(tool_name="mcp__evil__x\x1b]9;;boom\x07")
    app = DialogHost(PermissionScreen(request, guard_ms=0, bell=bell, desktop=desktop))
    async with app.run_test(size=(120, 40)) as pilot:
        monkeypatch.setattr(type(app), "is_headless", property(lambda self: False))
        monkeypatch.setattr(app, "bell", lambda: rang.append(1))
        original_write = app._driver.write

        def write(data: str) -> None:
            if data.startswith(("\x1b]9;", "\x1b]777;")):  # not the screen updates or other OSCs
                written.append(data)
            else:
                original_write(data)

        monkeypatch.setattr(app._driver, "write", write)
        app.app_focus = focused
        app.push_screen(PermissionScreen(request, guard_ms=0, bell=bell, desktop=desktop), app.results.append)
        await settle(pilot)
    assert len(rang) == rings and len(written) == writes
    for data in written:
        assert data.count("\x1b") == 1 and data.endswith("\x07") and data.count("\x07") == 1
        assert "boom" in data and ";;" not in data


# ---------------------------------------------------------------- AskUserQuestion


def ask_request(name: str) -> PermissionRequest:
    return request_from(name, "AskUserQuestion")


async def test_question_single_choice_with_numbers_and_review() -> None:
    request = ask_request("ask-single")
    app = DialogHost(QuestionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Which color?" in text and "Red" in text and "warm" in text and "Other…" in text
        await pilot.press("2")  # one question, one choice: the number is the answer (no Enter, no review)
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.allow
    # Exactly what the CLI was answered in the recording.
    assert decision.updated_input == {"questions": request.input["questions"], "answers": {"Which color?": "Blue"}}


async def test_question_arrows_and_enter_pick_the_highlighted_option() -> None:
    app = DialogHost(QuestionScreen(ask_request("ask-single"), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
    assert app.results[0] is not None and app.results[0].updated_input["answers"] == {"Which color?": "Blue"}


async def test_question_multi_toggles_and_back() -> None:
    request = ask_request("ask-multi")
    app = DialogHost(QuestionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # Red: a number on a single-choice question goes on at once
        await settle(pilot)
        assert "Which toppings?" in screen_text(app)
        await pilot.press("enter")  # nothing toggled yet: stays
        await settle(pilot)
        assert "Pick an answer first." in screen_text(app) and app.dialog.step == 1
        await pilot.press("1", "2", "3", "3")  # Cheese, Olives, Basil on then off
        await pilot.press("backspace")  # back to the colour: the answer is kept
        await settle(pilot)
        assert app.dialog.step == 0
        await pilot.press("2")  # change to Blue
        await settle(pilot)
        assert app.dialog.step == 1
        await pilot.press("space")  # toggles the highlighted option (Cheese, first picked) off
        await pilot.press("space", "enter")  # and on again
        await settle(pilot)
        assert app.dialog.on_review
        await pilot.press("left")
        await settle(pilot)
        assert app.dialog.step == 1
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None
    assert decision.updated_input == {
        "questions": request.input["questions"],
        "answers": {"Which color?": "Blue", "Which toppings?": "Cheese, Olives"},
    }


async def test_question_other_answer_is_typed() -> None:
    app = DialogHost(QuestionScreen(ask_request("ask-single"), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert isinstance(app.focused, Input)
        await pilot.press("enter")  # no text yet
        await settle(pilot)
        assert not app.dialog.on_review
        await type_text(pilot, "green 2")  # digits type, they do not pick
        await pilot.press("enter")
        await settle(pilot)
    assert app.results[0] is not None and app.results[0].updated_input["answers"] == {"Which color?": "green 2"}


async def test_question_escape_declines_but_first_leaves_the_other_box() -> None:
    request = ask_request("ask-single")
    app = DialogHost(QuestionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3", "escape")
        await settle(pilot)
        assert app.results == [] and app.focused is app.dialog.query_one("#choices", OptionList)
        await pilot.press("escape")
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, False, message=DECLINE_MESSAGE,
                                              words="Declined to answer")]


async def test_question_guard_and_review_rearm(clock: FakeClock) -> None:
    app = DialogHost(QuestionScreen(ask_request("ask-multi"), guard_ms=300))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "enter", "enter")
        await settle(pilot)
        assert app.dialog.step == 0 and app.results == [] and app.dialog.answers[0].picked == set()
        assert not app.dialog.waiting  # swallowed by the guard
        clock.now += 0.31
        await pilot.press("2")  # a single-choice question: the number goes on
        await settle(pilot)
        assert app.dialog.step == 1
        await pilot.press("1", "enter", "enter", "enter")  # the review re-arms: these Enters do not send
        await settle(pilot)
        assert app.dialog.on_review and app.results == [] and app.dialog.has_class("-armed")
        clock.now += 0.31
        await pilot.press("enter")
        await settle(pilot)
    assert len(app.results) == 1


async def test_question_click_picks_without_advancing() -> None:
    app = DialogHost(QuestionScreen(ask_request("ask-single"), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.click("#choices", offset=(6, 2))  # second option ("Blue", two lines per option)
        await settle(pilot)
        assert app.dialog.step == 0 and app.dialog.answers[0].picked == {1}


async def test_question_without_questions_can_only_be_declined() -> None:
    app = DialogHost(QuestionScreen(PermissionRequest("q", "AskUserQuestion", {"questions": "nope"}), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "1", "enter")
        await settle(pilot)
        assert app.results == [] and "no questions" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
    assert app.results[0] is not None and not app.results[0].allow


# ---------------------------------------------------------------- plan


def plan_request(**overrides: Any) -> PermissionRequest:
    return request_from("plan-exit", "ExitPlanMode", plan=PLAN, **overrides)


async def test_plan_renders_markdown_and_y_approves() -> None:
    request = plan_request()
    app = DialogHost(PlanScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Fix the bug" in text and "## Plan" not in text  # rendered, not raw
        await pilot.press("y")
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, True, updated_input={},
                                              updated_permissions=[{"type": "setMode", "mode": "default",
                                                                    "destination": "session"}],
                                              words="Plan approved; asking each time")]
    assert "Approve, then ask each time (default)" in text and "accept edits (acceptEdits)" in text


async def test_plan_a_approves_and_accepts_edits() -> None:
    app = DialogHost(PlanScreen(plan_request(), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
    [decision] = app.results
    assert decision is not None and decision.allow and decision.updated_input == {}
    assert decision.updated_permissions == [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]


async def test_plan_a_hidden_when_not_offered() -> None:
    app = DialogHost(PlanScreen(plan_request(), guard_ms=0, accept_edits=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "accept edits" not in screen_text(app)
        await pilot.press("a")
        await settle(pilot)
        assert app.results == []


@pytest.mark.parametrize("key", ["n", "escape"])
async def test_plan_keep_planning(key: str) -> None:
    request = plan_request()
    app = DialogHost(PlanScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, False, message=KEEP_PLANNING_MESSAGE,
                                              words="Kept planning")]


async def test_plan_tell_sends_the_message() -> None:
    request = plan_request()
    app = DialogHost(PlanScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await type_text(pilot, "add tests")
        await pilot.press("enter")
        await settle(pilot)
    assert app.results == [PermissionDecision(request.request_id, False, message="add tests",
                                              words="Kept planning: add tests")]


async def test_plan_cancel() -> None:
    dialog = PlanScreen(plan_request(), guard_ms=0)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        dialog.cancel("cancelled")
        await settle(pilot)
        assert dialog not in app.screen_stack
    assert app.results == []


async def test_a_failing_preview_leaves_the_dialog_answerable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def boom(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("claude_tui.ui.dialogs.permission.tool_diff_preview", boom)
    request = request_from("edit-allow", "Edit")
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert "No preview: RuntimeError." in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
    assert app.results and app.results[0] is not None and not app.results[0].allow


async def test_keys_stay_visible_and_wrap_whole_pairs_on_a_small_terminal() -> None:
    command = "\n".join(f"echo line {i}" for i in range(200))
    app = DialogHost(PermissionScreen(bash_request(input={"command": command}), guard_ms=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Allow once" in text and "Deny and stop" in text  # never split inside a pair
        assert "echo line 0" in text and "echo line 199" not in text
        await pilot.press("end")  # the body scrolls; the keys stay put
        await settle(pilot)
        text = screen_text(app)
        assert "echo line 199" in text and "Allow once" in text


async def test_cancel_before_the_dialog_is_shown_means_it_never_acts() -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=0)
    dialog.cancel("cancelled")  # withdrawn while still queued
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert dialog not in app.screen_stack
    assert app.results == []


async def test_cancel_then_next_dialog_gets_its_own_answer() -> None:
    """The app's flow: cancel the shown dialog, push the next; only the next one's answer arrives."""
    first = PermissionScreen(bash_request(), guard_ms=0)
    second_request = bash_request(request_id="second")
    second = PermissionScreen(second_request, guard_ms=0, position=1, total=1)
    app = DialogHost(first)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first.cancel("cancelled")
        app.push_screen(second, app.results.append)
        await settle(pilot)
        assert app.screen is second and second.waiting
        await pilot.press("n")
        await settle(pilot)
        assert app.results == []  # waiting: n is typing, not an answer
        await pilot.press("tab", "n")
        await settle(pilot)
    assert [d.request_id for d in app.results] == ["second"]


async def test_typing_through_the_guard_answers_nothing(clock: FakeClock) -> None:
    # Keys on the heels of the move to the dialog ("yyyy…" every 100 ms for 2 s) approve nothing:
    # each one is swallowed and keeps the guard up. A pause, then a key acts.
    dialog = PermissionScreen(bash_request(), guard_ms=300)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(20):
            clock.now += 0.1
            await pilot.press("y")
            await settle(pilot)
        assert app.results == [] and not dialog.waiting and dialog.has_class("-armed")
        clock.now += 0.31
        await pilot.press("y")
        await settle(pilot)
    assert app.results and app.results[0] is not None and app.results[0].words == "Allowed once"


async def test_unbound_letters_keep_the_guard_up_too(clock: FakeClock) -> None:
    dialog = PermissionScreen(bash_request(), guard_ms=300)
    app = DialogHost(dialog)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        clock.now += 0.25
        await pilot.press("h")  # not a dialog key: swallowed too, and the guard stays up
        await settle(pilot)
        assert not dialog.waiting and dialog.has_class("-armed")
        clock.now += 0.25  # 0.5 s after the dialog appeared, but only 0.25 s after the last key
        await pilot.press("y")
        await settle(pilot)
        assert app.results == []


async def test_a_saved_rule_that_did_not_apply_is_named() -> None:
    # Issue 14: a rule was saved, yet the CLI asks again for a call it covers: the dialog says so.
    request = bash_request()
    saved = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": request.input["command"]}],
             "behavior": "allow", "destination": "localSettings"}
    app = DialogHost(PermissionScreen(request, guard_ms=0, unapplied=saved))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = " ".join(screen_text(app).replace("│", " ").split())  # the sentence wraps inside the frame
        assert "but Claude Code asked again: that rule did not apply" in text
        assert ".claude/settings.local.json" in text


async def test_always_allowed_words_say_always_once() -> None:
    request = bash_request()
    app = DialogHost(PermissionScreen(request, guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a", "1")
        await settle(pilot)
    [decision] = app.results
    assert decision.words.startswith("Always allowed: ") and "Always allow " not in decision.words


async def test_binary_content_and_paths_are_shown_escaped_never_blind(tmp_path: Path) -> None:
    # Issue 14: NUL, control characters and bytes that are not UTF-8 (lone surrogates from the
    # CLI's JSON) are shown escaped in the dialog, not as "binary — not shown"; the editor shows
    # them too, read only, and never sends the escaped text back.
    content = "head\x00tail\udc80\x1b[31mred\nline two"
    request = PermissionRequest("w1", "Write", {"file_path": str(tmp_path / "bin\x01.dat"), "content": content})
    app = DialogHost(PermissionScreen(request, guard_ms=0, cwd=tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "head␀tail\\x80␛[31mred" in text and "line two" in text
        assert "bin␁.dat" in text and "shown escaped" in text
        await pilot.press("e")
        await settle(pilot)
        editor = app.dialog.query_one("#editor", TextArea)
        assert editor.read_only and editor.text.startswith("head␀tail\\x80␛[31mred")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.results == []
        await pilot.press("escape", "y")
        await settle(pilot)
    [decision] = app.results
    assert decision.allow and decision.updated_input is None  # the real input, as shown, unchanged


async def test_a_click_on_a_waiting_dialog_moves_to_it_but_answers_nothing() -> None:
    app = DialogHost(PermissionScreen(bash_request(), guard_ms=400), waiting=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.dialog.waiting and "Tab to answer" in screen_text(app)
        await pilot.click("#key-bar")  # on "y Allow once": moves there, the guard swallows the click
        await settle(pilot)
        assert not app.dialog.waiting and app.results == []


async def test_a_command_taller_than_the_dialog_counts_its_lines_below_the_view() -> None:
    # Issue 28, item 2: the count is of the command's lines out of view, and goes as they come in.
    command = "\n".join(f"echo step {n}" for n in range(1, 61)) + "\ntouch PWNED"
    app = DialogHost(PermissionScreen(bash_request(input={"command": command}), guard_ms=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        dialog = app.screen
        note = dialog.query_one("#overflow", Static)

        def said() -> str:
            return str(note.render()) if note.display else ""

        section = dialog.query_one(".section-body.-command", Static)
        body = dialog.query_one("#body")
        shown = dialog.find_widget(section).region.intersection(dialog.find_widget(body).visible_region)
        foot = dialog.find_widget(dialog.query_one("#foot")).region.y
        in_view = min(shown.bottom, foot) - shown.y
        assert said().startswith(f"↓ {61 - in_view} more lines below"), said()
        assert said().endswith("the command ends: touch PWNED")
        await pilot.press("down")
        await pilot.pause()
        assert said().startswith(f"↓ {61 - in_view - 1} more lines below"), said()
        await pilot.press("end")
        await pilot.pause()
        assert said() == ""  # the end is in view: nothing more to say


async def test_a_dialog_taken_apart_under_its_overflow_check_does_not_crash() -> None:
    """The CLI withdraws a request (an interrupt, its death): the dialog's parts go one by one, and
    the overflow check queued by the body's last move must find them gone without an error."""
    from claude_tui.ui.dialogs.frame import DialogFrame

    app = DialogHost(PermissionScreen(bash_request(), guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        frame = app.screen.query_one(DialogFrame)
        await app.screen.query_one("#body").remove()
        frame._say_overflow()  # as the queued call runs after the body went
        await app.screen.query_one("#foot").remove()
        frame._say_overflow()
        await settle(pilot)
        assert app.is_running
