"""Keys with several Enters in one burst, from a real terminal, against the real CLI (issue 27, defect 1).

``three⏎four⏎`` written to the terminal in one go (tmux ``send-keys -l``, as a paste without
bracketed paste or keys batched over ssh arrive) must reach the Messages API stand-in as exactly
the prompts typed, in order: ``three`` and ``four`` — never ``threefour``.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import RequestView
from tests.e2e.tmux_harness import Tmux, app_command, sweep, tmux  # noqa: F401 - tmux is a fixture


def typed_prompts(api: MockApi) -> list[str]:
    """Every human prompt in the last conversation the stand-in was sent, in order (a prompt the
    CLI queued behind a running turn arrives in the same history)."""
    requests = [r for r in api.messages_requests() if not r.subagent and isinstance(r.body, dict)]
    if not requests:
        return []
    messages = RequestView(requests[-1].body).messages
    return [text for m in messages if m.get("role") == "user" for text in
            (RequestView.human_text({"content": [block]}) for block in _text_blocks(m)) if text]


def _text_blocks(message: dict[str, object]) -> list[dict[str, object]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict) and b.get("type") == "text"]  # type: ignore[union-attr]


def test_a_burst_of_two_prompts_reaches_the_api_as_typed(tmux: Tmux, claude_bin: Path,  # noqa: F811
                                                          e2e_env: dict[str, str], project_dir: Path,
                                                          mock_api: MockApi, tmp_path: Path) -> None:
    tmux.start(app_command(claude_bin, project_dir, e2e_env, tmp_path / "app"))
    try:
        tmux.wait_ready()
        tmux.keys("three\rfour\r", literal=True)  # one write: both Enters arrive with the letters
        tmux.wait_screen(lambda s: "You said: four" in s or "You said: three four" in s, "the answer to four")
        tmux.wait_screen(lambda s: "idle" in s, "the turn to end")
        assert typed_prompts(mock_api) == ["three", "four"]
        screen = tmux.screen()
        assert "threefour" not in screen
        tmux.quit()
    finally:
        tmux.kill()
        left, pids = sweep(10)
    assert not pids, f"processes outlived claude-tui: {left}"
