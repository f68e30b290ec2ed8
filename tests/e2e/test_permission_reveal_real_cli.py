"""Nothing that runs hides in a permission dialog (issue 28, item 2), through the real CLI.

The stand-in asks for a Bash command the real CLI 2.1.330 passes on as it is; the dialog must
show its hidden last line and say how much is out of view before anything can be allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from claude_tui.session.items import ToolState
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.permission import PermissionScreen
from tests.e2e.app_driver import drive

Options = Callable[..., CliOptions]


async def test_blank_lines_cannot_hide_what_runs(app_options: Options, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await d.send("kw:hiddenbash please")
        dialog = await d.wait_screen(PermissionScreen)
        assert dialog.request.input["command"].count("\n") == 200  # the CLI passed it on whole
        screen = await d.wait_on_screen("⋯ 199 blank lines ⋯")
        assert f"touch {project_dir}/PWNED" in screen
        await d.press("n")
        await d.wait_turns(1)
        assert d.tool("Bash").state is ToolState.DENIED
        assert not (project_dir / "PWNED").exists()


async def test_a_command_too_long_to_fit_says_how_much_and_how_it_ends(app_options: Options,
                                                                       project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await d.send("kw:longbash please")
        await d.wait_screen(PermissionScreen)
        screen = await d.wait_on_screen("more lines below")
        assert "the command ends: touch" in screen and "PWNED" in screen.split("the command ends:")[1]
        assert "echo step 60" not in screen  # the end really is out of view: the note is what shows it
        await d.press("n")
        await d.wait_turns(1)
        assert not (project_dir / "PWNED").exists()
