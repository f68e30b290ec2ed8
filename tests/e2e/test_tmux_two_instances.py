"""Two claude-tui instances on one project, each in its own real terminal with its own real CLI
(issue 28): sending alternately keeps every prompt in the shared history, Up in one walks what the
other sent, and a prompt sent in one never deletes the other's draft."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.e2e.mock_api import MockApi
from tests.e2e.test_tmux_smoke import Tmux, app_command, tmux  # noqa: F401 (fixture)


def _history(root: Path) -> list[str]:
    files = list((root / "data" / "claude-tui" / "history").glob("*.jsonl"))
    return [json.loads(line) for f in files for line in f.read_text().splitlines()] if files else []


def _drafts(root: Path) -> dict[str, str]:
    folder = root / "data" / "claude-tui" / "drafts"
    return {f.name: f.read_text() for f in folder.glob("*.txt")} if folder.is_dir() else {}


def _until(predicate, what: str, timeout: float = 30) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_two_instances_keep_every_prompt_and_each_others_drafts(
        tmux: Tmux, claude_bin: Path, e2e_env: dict[str, str], project_dir: Path,  # noqa: F811
        mock_api: MockApi, tmp_path: Path) -> None:
    root = tmp_path / "app"  # one data dir for both, as two instances of one user have
    command = app_command(claude_bin, project_dir, e2e_env, root)
    other = Tmux(tmux.binary, tmux.socket.with_name(tmux.socket.stem + "-b.sock"))
    try:
        tmux.start(command)
        tmux.wait_ready()
        other.start(command)
        other.wait_ready()
        for term, prompt in ((tmux, "a1"), (other, "b1"), (tmux, "a2"), (other, "b2")):
            term.send(f"kw:plain {prompt}")
            term.wait_screen(lambda s, p=prompt: f"You said: kw:plain {p}" in s, f"the answer to {prompt}")
        _until(lambda: len(_history(root)) == 4, "four prompts in the history")
        assert _history(root) == ["kw:plain a1", "kw:plain b1", "kw:plain a2", "kw:plain b2"]

        tmux.keys("a draft in A", literal=True)
        _until(lambda: "a draft in A" in _drafts(root).values(), "A's draft saved")
        other.send("kw:plain b3")
        other.wait_screen(lambda s: "You said: kw:plain b3" in s, "the answer to b3")
        _until(lambda: len(_history(root)) == 5, "b3 in the history")
        assert "a draft in A" in _drafts(root).values(), "a prompt sent in B deleted A's draft"

        # Up in B walks both instances' prompts: b3, b2, then A's a2 (never shown in B's own log).
        assert "kw:plain a2" not in other.screen()
        other.keys("Up", "Up", "Up")
        other.wait_screen(lambda s: "kw:plain a2" in s, "A's a2 recalled in B")
        other.keys("C-u")
        tmux.quit()
        other.quit()
    finally:
        other.kill()
        other.socket.unlink(missing_ok=True)
    assert "a draft in A" in _drafts(root).values()  # kept for A's next start
