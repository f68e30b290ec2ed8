"""Keep or remove a session's git worktree, naming what removing it would lose.

Keep is the default and the harmless answer (k, Enter, Esc); removing takes `r`. The keys obey the
typeahead guard (:class:`GuardedModal`): the dialog appears right after Ctrl+Q, while keys may still
be coming. Removing a worktree that holds uncommitted files is confirmed a second time by the caller
(:mod:`claude_tui.ui.chat.worktree_flow`), in a fresh guarded dialog. Shown again after a removal found the
worktree changed, it first says what appeared (`since`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from claude_tui.git.worktree import Worktree, WorktreeState
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.dialogs.base import DIALOG_CSS, GuardedModal, waiting_notice

Choice = Literal["keep", "remove"]
SHOWN = 8
"""Files and commits listed by name; the rest are counted."""


def _listing(title: str, lines: list[str]) -> Content:
    shown = [f"  {printable_name(line)}" for line in lines[:SHOWN]]
    if len(lines) > SHOWN:
        shown.append(f"  … and {len(lines) - SHOWN} more")
    return Content.assemble((title, "bold"), "\n", "\n".join(shown))


class WorktreeCloseScreen(GuardedModal[Choice]):
    CSS_PATH = [DIALOG_CSS, "worktree_close.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k,enter,escape", "answer('keep')", "Keep", show=False),
        Binding("r", "answer('remove')", "Remove", show=False),
    ]

    def __init__(self, worktree: Worktree, state: WorktreeState, *, since: list[str] | None = None,
                 guard_ms: int | None = None) -> None:
        super().__init__(guard_ms=guard_ms, classes="worktree-close")
        self.worktree = worktree
        self.state = state
        self.since = since or []
        """What changed after the last look (a removal that was refused for it): shown first."""

    def compose(self) -> ComposeResult:
        wt, state = self.worktree, self.state
        with Vertical(id="worktree-box"):
            yield Static(Content.styled(f"Keep the worktree {printable_name(wt.name)}?", "bold"),
                         id="worktree-question")
            where = (f"{printable_name(str(wt.path))}\n"
                     f"branch {printable_name(wt.branch)}, from {printable_name(wt.base)}")
            yield Static(Content(where), id="worktree-where")
            if self.since:
                yield Static(_listing("Not removed: it changed since you were asked:", self.since),
                             id="worktree-since")
            loss = Content.assemble("Removing it would lose ",
                                    (state.describe(), "bold" if state.loses_work else ""), ".")
            yield Static(loss, id="worktree-loss", classes="-loses" if state.loses_work else "")
            if state.uncommitted:
                yield Static(_listing("Uncommitted:", state.uncommitted), classes="worktree-list")
            if state.ignored:
                yield Static(_listing("Ignored by git, deleted with it:", state.ignored), id="worktree-ignored",
                             classes="worktree-list")
            if state.unmerged:
                yield Static(_listing(f"Branch {printable_name(wt.branch)} is kept: {state.describe_commits()} "
                                      f"(not in {printable_name(wt.base)} nor on a remote):", state.unmerged),
                             id="worktree-commits", classes="worktree-list")
            if state.stranded:
                yield Static(_listing("Not removable: commits on a detached HEAD that no branch holds "
                                      "(git branch NAME keeps them):", state.stranded),
                             id="worktree-stranded", classes="worktree-list")
            yield waiting_notice(self.waiting)  # "Tab to answer": it opens waiting, like every GuardedModal
            with Horizontal(id="worktree-keys"):
                what = " Remove worktree" + ("" if state.keeps_branch else " and branch")
                yield Static(Content.assemble(("k", "bold"), "/Enter/Esc Keep    ", ("r", "bold"),
                                              what + ("…" if state.loses_work else "")))
                yield Static("keys paused…", classes="guard-notice", markup=False)

    def action_answer(self, choice: Choice) -> None:
        if self.keys_open():
            self.finish(choice)
