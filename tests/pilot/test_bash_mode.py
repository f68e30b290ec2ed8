"""`!command` on the prompt runs it (Claude Code's bash mode, issue 30): its output in a card,
Ctrl+C stops it, and it reaches Claude with the next prompt as `<bash-input>`/`<bash-stdout>` blocks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_tui.session.items import ShellItem, UserItem
from claude_tui.ui.log.shell_card import ShellCard
from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, make_app, send, wait_for


def _capture(view: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    original = view.session.connection.send

    async def send_and_keep(message: dict[str, Any]) -> bool:
        sent.append(message)
        return bool(await original(message))

    view.session.connection.send = send_and_keep
    return sent


async def test_a_bang_command_runs_shows_its_output_and_goes_with_the_next_prompt(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.conversation.commands, what="CLI ready")
        sent = _capture(view)
        prompt = view.query_one(PromptInput)
        prompt.focus()
        await pilot.press("!")
        await wait_for(pilot, lambda: prompt.has_class("-bash"), what="the prompt marked as bash mode")
        await send(pilot, "!pwd; echo out-line; echo 'err-line' >&2; printf '\\033[31mred\\033[0m\\n'")
        items = view.session.conversation.items
        await wait_for(pilot, lambda: any(isinstance(i, ShellItem) and not i.running for i in items),
                       what="the command's end")
        [item] = [i for i in items if isinstance(i, ShellItem)]
        assert item.text.splitlines()[:3] == [str(tmp_path), "out-line", "err-line"]
        assert item.exit_code == 0
        assert sent == [] and not any(isinstance(i, UserItem) for i in items)  # never a prompt of its own
        card = view.query_one(ShellCard)
        await pilot.pause()
        shown = str(card.render())
        assert "out-line" in shown and "err-line" in shown and "\x1b" not in shown  # inert
        assert view.query_one(PromptInput).text == ""
        await send(pilot, "kw:plain and now")
        await wait_for(pilot, lambda: sent, what="the next prompt")
        blocks = sent[0]["message"]["content"]
        assert blocks[0] == {"type": "text", "text": f"<bash-input>{item.command}</bash-input>\n"}
        assert blocks[1]["text"].startswith(f"<bash-stdout>{tmp_path}\nout-line\nerr-line\nred</bash-stdout>")
        assert blocks[-1] == {"type": "text", "text": "kw:plain and now"}
        assert item.sent
        await wait_for(pilot, lambda: "sent to Claude" in str(card.render()), what="the card says it went")


async def test_ctrl_c_stops_a_running_command_and_its_group(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.conversation.commands, what="CLI ready")
        await send(pilot, "!echo started; sleep 60 & sleep 60")
        items = view.session.conversation.items
        await wait_for(pilot, lambda: any(isinstance(i, ShellItem) and "started" in i.text for i in items),
                       what="the command's first line")
        shell = view.prompt_area.bash.running
        assert shell is not None and shell.process.pid is not None
        marker = shell.process.marker
        view.query_one(PromptInput).text = "a draft Ctrl+C must not clear"
        await pilot.press("ctrl+c")
        [item] = [i for i in items if isinstance(i, ShellItem)]
        await wait_for(pilot, lambda: not item.running, what="the command stopped")
        assert item.stopped and app.is_running
        assert view.query_one(PromptInput).text == "a draft Ctrl+C must not clear"
        from claude_tui.transport import reaper

        assert marker and reaper.marked_processes(marker) == []  # both sleeps gone with it
        assert view.prompt_area.bash.context()[1]["text"].endswith("<bash-stderr>Stopped by the user (Ctrl+C).</bash-stderr>")


async def test_bash_mode_is_said_on_the_prompt_box_in_words(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        prompt = chat(app).prompt_area.prompt
        await wait_for(pilot, lambda: prompt.has_focus, what="the prompt")
        await pilot.press("!", "l", "s")
        await wait_for(pilot, lambda: "bash mode" in str(prompt.border_title), what="bash mode said")
        assert prompt.has_class("-bash")
        await pilot.press("home", "delete")
        await wait_for(pilot, lambda: not prompt.border_title, what="bash mode over")
