"""Shift+Tab reaches every mode the running CLI offers, and the status bar and palette show the current one."""

from __future__ import annotations

from pathlib import Path

from tests.pilot.helpers import chat, make_app, wait_for


async def test_auto_is_in_the_cycle_where_the_cli_offers_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        assert screen.session.conversation.status.cli_version == "2.1.330"  # the fake CLI plays 2.1.330's lines
        seen = []
        for _ in range(4):
            before = screen.session.conversation.status.permission_mode
            await pilot.press("shift+tab")
            await wait_for(pilot, lambda b=before: screen.session.conversation.status.permission_mode != b)
            seen.append(screen.session.conversation.status.permission_mode)
            if seen[-1] == "auto":
                assert "auto" in str(screen.query_one("#status-bar").render())
        assert seen == ["acceptEdits", "plan", "auto", "default"]
        assert screen.session.options.permission_mode == "default"  # a restart keeps the mode shown


async def test_an_old_cli_cycles_without_auto(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        screen.session.conversation.status.cli_version = "2.1.0"  # as 2.1.0's system/init says
        seen = []
        for _ in range(3):
            before = screen.session.conversation.status.permission_mode
            await pilot.press("shift+tab")
            await wait_for(pilot, lambda b=before: screen.session.conversation.status.permission_mode != b)
            seen.append(screen.session.conversation.status.permission_mode)
        assert seen == ["acceptEdits", "plan", "default"]


async def test_the_palette_lists_auto_and_marks_the_current_mode(tmp_path: Path) -> None:
    from claude_tui.ui.palette.commands import chat_commands

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        texts = [c.text for c in chat_commands(screen) if c.text.startswith("Permission mode")]
        assert "Permission mode: auto" in texts
        assert "Permission mode: default (current)" in texts


async def test_f1_shows_the_version_with_the_range_or_the_note(tmp_path: Path) -> None:
    from claude_tui.ui.app.help import HelpScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = " ".join(app.screen.text().split())
        assert "2.1.330 (supported: 2.0.77 to 2.1.332)" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        screen.session.conversation.status.cli_version = "2.3.0"
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = " ".join(app.screen.text().split())
        assert "2.3.0 — Claude Code 2.3.0 is newer than the newest version claude-tui was tested with" in text


async def test_quick_presses_each_step_on_from_the_mode_last_asked_for(tmp_path: Path) -> None:
    """Three presses before the CLI answers the first land three steps on, shown at once as pending;
    the one the third overtook is never sent."""
    import asyncio

    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        session = screen.session
        gate = asyncio.Event()
        sent: list[str] = []
        real_set_mode = session.set_mode

        async def slow_set_mode(mode: str) -> None:  # the CLI answers only when the test says so
            sent.append(mode)
            await gate.wait()
            await real_set_mode(mode)

        session.set_mode = slow_set_mode  # type: ignore[method-assign]
        await pilot.press("shift+tab", "shift+tab", "shift+tab")
        bar = screen.query_one("#status-bar")
        await wait_for(pilot, lambda: "auto…" in str(bar.render()), what="the asked mode shown as pending")
        assert session.conversation.status.permission_mode == "default"  # nothing confirmed yet
        gate.set()
        await wait_for(pilot, lambda: session.conversation.status.permission_mode == "auto"
                       and not session.conversation.status.asked_mode)
        await wait_for(pilot, lambda: "auto…" not in str(bar.render()) and "auto" in str(bar.render()))
        assert sent == ["acceptEdits", "auto"]


async def test_a_refused_mode_is_said_and_the_bar_goes_back(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = chat(app)
        await wait_for(pilot, lambda: screen.session.conversation.commands)
        session = screen.session

        async def refuse(mode: str) -> None:
            raise RuntimeError(f"Invalid permission mode: {mode}")

        session.set_mode = refuse  # type: ignore[method-assign]
        notes: list[str] = []
        real_notify = screen.notify
        screen.notify = lambda message, **kw: (notes.append(str(message)), real_notify(message, **kw))[-1]  # type: ignore[method-assign]
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: notes, what="the refusal said")
        assert "Could not switch to acceptEdits: Invalid permission mode: acceptEdits" in notes[0]
        bar = screen.query_one("#status-bar")
        await wait_for(pilot, lambda: "default" in str(bar.render()) and "acceptEdits" not in str(bar.render()))
        assert session.conversation.status.asked_mode == ""
