"""Two claude-tui instances on one project (issue 28): the app beside another real process using the
same stores. Neither loses the other's draft or prompts; Up walks what both sent."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from claude_tui.store import DraftStore, PromptHistory
from claude_tui.ui.panels.composer import Composer
from tests.pilot.helpers import chat, make_app, send, wait_for

OTHER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from claude_tui.store import DraftStore, PromptHistory
    project = Path(sys.argv[1])
    drafts, history = DraftStore(project), PromptHistory(project)
    drafts.load()
    for line in sys.stdin:
        verb, _, text = line.rstrip("\\n").partition(" ")
        if verb == "draft":
            drafts.save(text)
        elif verb == "send":  # what sending does to the stores
            history.add(text)
            drafts.save("")
        print(drafts.slot, flush=True)
""")


class Other:
    """Another instance's stores, in a process of its own (the environment names the same data dir)."""

    def __init__(self, project: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", OTHER, str(project)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def do(self, line: str) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


async def test_two_instances_keep_each_others_drafts_and_history(tmp_path: Path) -> None:
    other = Other(tmp_path)
    try:
        other_slot = other.do("draft the other's draft")
        other_draft = DraftStore(tmp_path).slot_path(other_slot)
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            view = chat(app)
            prompt = view.query_one(Composer).prompt
            await wait_for(pilot, lambda: view.session.drafts.slot is not None, what="the tab's draft slot")
            assert prompt.text == "" and view.session.drafts.slot != other_slot  # not the other's draft
            await pilot.press(*"my draft")
            view.prompt_area.save_draft()
            mine = view.session.drafts.path
            assert mine is not None and mine.read_text() == "my draft"
            other.do("send b1")  # a prompt sent there: this draft stays
            assert mine.read_text() == "my draft"
            other.do("draft the other's second draft")
            await send(pilot, "a1")  # a prompt sent here: the other's draft stays
            await wait_for(pilot, lambda: "a1" in PromptHistory(tmp_path).entries, what="a1 in the history")
            assert other_draft.read_text() == "the other's second draft"
            other.do("send b2")
            prompt.focus()
            prompt.text = ""
            await pilot.press("up")
            assert prompt.text == "b2"  # Up walks the merged history, the other's newest first
            await pilot.press("up", "up")
            assert prompt.text == "b1"
            await app.shutdown()
        assert PromptHistory(tmp_path).entries == ["b1", "a1", "b2"]
    finally:
        other.close()
