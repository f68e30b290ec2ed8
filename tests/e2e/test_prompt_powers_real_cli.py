"""Claude Code's powers in the prompt against the real CLI (issues 27 and 30): what the API stand-in
receives after `!command`, a large paste and an image pasted from a real X clipboard (Xvfb + xclip)."""

from __future__ import annotations

import base64
import os
import struct
import subprocess
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.events import Paste

from claude_tui.session.items import ShellItem, UserItem
from claude_tui.transport.options import CliOptions
from tests.e2e.app_driver import drive
from tests.e2e.mock_api import MockApi, Received
from tests.servers import need_program

Options = Callable[..., CliOptions]


def _last_user_blocks(request: Received) -> list[dict[str, Any]]:
    content = [m for m in request.body["messages"] if m["role"] == "user"][-1]["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


async def test_a_bang_command_and_its_output_reach_claude_with_the_next_prompt(
        app_options: Options, mock_api: MockApi, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await d.type_prompt("!echo from-the-shell; ls")
        await d.press("enter")
        await d.wait(lambda: any(isinstance(i, ShellItem) and not i.running for i in d.items), "the command's end")
        assert mock_api.messages_requests() == []  # never a prompt of its own
        await d.turn("kw:plain what did it say?")
        [request] = mock_api.messages_requests()
        texts = [b.get("text", "") for b in _last_user_blocks(request) if b.get("type") == "text"]
        assert "<bash-input>echo from-the-shell; ls</bash-input>\n" in texts
        [stdout] = [t for t in texts if t.startswith("<bash-stdout>")]
        assert stdout == "<bash-stdout>from-the-shell\na.txt</bash-stdout><bash-stderr></bash-stderr>"
        assert texts[-1].endswith("kw:plain what did it say?")
        assert not any(isinstance(i, UserItem) and i.text.startswith("!") for i in d.items)


async def test_a_large_paste_is_sent_whole(app_options: Options, mock_api: MockApi) -> None:
    pasted = "\n".join(f"row {n}" for n in range(300))
    async with drive(app_options()) as d:
        await d.type_prompt("kw:plain read this ")
        d.app.post_message(Paste(pasted))
        await d.wait(lambda: d.prompt.text == "kw:plain read this [Pasted text #1 +299 lines]", "the placeholder")
        await d.press("enter")
        await d.wait_turns(1)
        [request] = mock_api.messages_requests()
        texts = [b.get("text", "") for b in _last_user_blocks(request) if b.get("type") == "text"]
        assert any(t.endswith("kw:plain read this " + pasted) for t in texts)
        await d.wait_on_screen("[Pasted text #1 +299 lines]")  # the log shows the placeholder


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x12\x34\x56")) + chunk(b"IEND", b""))


@pytest.fixture
def x_clipboard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[bytes], None]]:
    """A private X server (Xvfb on a display it picks) whose clipboard a test can fill with xclip."""
    xvfb = need_program("Xvfb")
    xclip = need_program("xclip")
    read, write = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "64x64x24"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read, "rb") as pipe:
            number = pipe.readline().strip().decode()  # written once the server accepts clients
        assert number.isdigit(), "Xvfb did not start"
        display = f":{number}"
        monkeypatch.setenv("DISPLAY", display)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)

        def fill(data: bytes) -> None:
            image = tmp_path / "clip.png"
            image.write_bytes(data)
            # xclip stays in the background serving the selection until the X server goes.
            subprocess.run([xclip, "-selection", "clipboard", "-t", "image/png", "-i", str(image)],
                           check=True, env={**os.environ, "DISPLAY": display}, timeout=10)

        yield fill
    finally:
        server.terminate()
        server.wait(10)


async def test_ctrl_v_attaches_the_x_clipboards_image_and_it_reaches_the_api(
        app_options: Options, mock_api: MockApi, x_clipboard: Callable[[bytes], None]) -> None:
    png = _png()
    x_clipboard(png)
    async with drive(app_options()) as d:
        await d.type_prompt("kw:plain what is in ")
        await d.press("ctrl+v")
        await d.wait(lambda: d.prompt.text == "kw:plain what is in [Image #1]", "the image's placeholder")
        await d.press("enter")
        await d.wait_turns(1)
        [request] = mock_api.messages_requests()
        images = [b for b in _last_user_blocks(request) if b.get("type") == "image"]
        assert len(images) == 1 and images[0]["source"]["media_type"] == "image/png"
        assert base64.b64decode(images[0]["source"]["data"]) == png
        [item] = [i for i in d.items if isinstance(i, UserItem)]
        assert item.image_count == 1


async def test_a_queued_prompt_is_edited_before_it_goes_and_esc_never_sends_the_queue(
        app_options: Options, mock_api: MockApi) -> None:
    async with drive(app_options()) as d:
        await d.send("kw:slow a long story")
        await d.wait(lambda: d.conversation.status.turn_running, "the turn")
        await d.type_prompt("kw:plain first thought")
        await d.press("enter")
        await d.wait(lambda: d.chat.prompt_area.queue.texts == ["kw:plain first thought"], "the prompt held")
        await d.press("up")  # back into the prompt: edited, then held again
        assert d.prompt.text == "kw:plain first thought" and not d.chat.prompt_area.queue
        await d.pilot.press(*" and a second", "enter")  # held again (or sent, if the turn ended meanwhile)
        await d.wait_turns(2, timeout=60)
        keywords = [r.keyword for r in mock_api.messages_requests()]
        assert keywords == ["slow", "plain"]
        last = [b.get("text", "") for b in _last_user_blocks(mock_api.messages_requests()[-1])]
        assert any(t.endswith("kw:plain first thought and a second") for t in last)
        # Esc interrupts; what was held comes back to the prompt and nothing more is sent.
        await d.send("kw:slow another story")
        await d.wait(lambda: d.conversation.status.turn_running, "the third turn")
        await d.type_prompt("kw:plain held")
        await d.press("enter")
        await d.wait(lambda: d.chat.prompt_area.queue.texts == ["kw:plain held"], "held again")
        await d.press("escape")
        await d.wait(lambda: not d.conversation.status.turn_running, "the interrupted turn's end")
        await d.wait(lambda: d.prompt.text == "kw:plain held", "the held prompt back in the prompt")
        assert [r.keyword for r in mock_api.messages_requests()] == ["slow", "plain", "slow"]
