"""At 80×24 and 60×20 the status bar shows the permission mode whatever the model is called: a
Bedrock inference-profile ARN or a long hostile name is cut, `bypassPermissions` never is."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_tui.ui.panels.status_bar import StatusBar
from tests.pilot.helpers import chat, make_app, wait_for

ARN = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6g7h8i9j0"
HOSTILE = "claude-" + "\x1b]0;PWN\x07" * 3 + "z" * 300


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("model", [ARN, HOSTILE], ids=["arn", "hostile"])
async def test_the_mode_is_on_screen_and_the_model_is_cut(tmp_path: Path, size: tuple[int, int], model: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.connection.alive and view.session.conversation.commands,
                       what="the CLI's init (it reports its mode)")
        status = view.session.conversation.status
        status.model, status.permission_mode = model, "bypassPermissions"
        bar = view.query_one(StatusBar)
        view.show_status()
        await pilot.pause()
        line = bar.render_line(0).text
        assert "bypassPermissions" in line, line
        assert line.lstrip().startswith(model[:6].replace("\x1b", "␛")) and "\x1b" not in line
