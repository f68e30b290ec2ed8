"""Ctrl+V attaches the clipboard's image as `[Image #N]`; without a clipboard tool, one line says
which to install (issue 30). The real clipboard (Xvfb + xclip) and the real CLI:
tests/e2e/test_prompt_powers_real_cli.py."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from claude_tui.session.items import UserItem
from claude_tui.ui.panels.composer import PromptInput
from tests.pilot.helpers import chat, make_app, wait_for

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def _fake_xclip(bin_dir: Path) -> None:
    """An xclip that holds an image: TARGETS lists image/png, the image is PNG's magic and zeros."""
    bin_dir.mkdir()
    data = base64.b64encode(PNG).decode()
    script = bin_dir / "xclip"
    script.write_text("#!/bin/sh\ncase \"$*\" in *TARGETS*) echo TARGETS; echo image/png ;;\n"
                      f"  *image/png*) echo {data} | base64 -d ;;\nesac\n")
    script.chmod(0o755)


async def test_ctrl_v_attaches_the_image_and_sends_it_as_an_image_block(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_xclip(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.conversation.commands, what="CLI ready")
        prompt = view.query_one(PromptInput)
        prompt.focus()
        await pilot.press(*"kw:plain see ", "ctrl+v")
        await wait_for(pilot, lambda: prompt.text == "kw:plain see [Image #1]", what="the placeholder")
        await pilot.press("ctrl+v")
        await wait_for(pilot, lambda: prompt.text == "kw:plain see [Image #1][Image #2]", what="a second one")
        for _ in "[Image #2]":
            await pilot.press("backspace")  # deleting its placeholder drops the image
        sent: list[dict] = []
        original = view.session.connection.send

        async def keep(message: dict) -> bool:
            sent.append(message)
            return bool(await original(message))

        view.session.connection.send = keep  # type: ignore[method-assign]
        await pilot.press("enter")
        await wait_for(pilot, lambda: sent, what="the prompt sent")
        blocks = sent[0]["message"]["content"]
        assert [b["type"] for b in blocks] == ["image", "text"]
        assert base64.b64decode(blocks[0]["source"]["data"]) == PNG
        assert blocks[1]["text"] == "kw:plain see [Image #1]"
        [item] = [i for i in view.session.conversation.items if isinstance(i, UserItem)]
        assert item.image_count == 1


@pytest.mark.parametrize(("display", "said"), [(":99", "no clipboard tool; install xclip"),
                                               ("", "no display (DISPLAY / WAYLAND_DISPLAY unset); install xclip")])
async def test_without_a_clipboard_tool_one_line_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      display: str, said: str) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    if display:
        monkeypatch.setenv("DISPLAY", display)
    else:
        monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        prompt = view.query_one(PromptInput)
        prompt.focus()
        await pilot.press("ctrl+v")
        await wait_for(pilot, lambda: app._notifications, what="the notice")
        [note] = [str(n.message) for n in app._notifications]
        assert note == f"Cannot read the clipboard's image: {said} (e.g. apt install xclip)."
        assert prompt.text == ""
