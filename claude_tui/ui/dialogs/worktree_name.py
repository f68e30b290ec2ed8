"""Name the worktree of a new session (empty: a generated name), or Esc to start none."""

from __future__ import annotations

from claude_tui.git.worktree import BRANCH_PREFIX, validate_name
from claude_tui.ui.dialogs.text_prompt import TextPrompt

WORKTREE_NAME = "worktree-name"
"""The prompt's screen id (one open at a time: `prompt_open`)."""

def worktree_name_problem(name: str) -> str:
    """What git refuses in `name` ("" when it takes it, or when empty: a name is generated)."""
    return (validate_name(name) or "") if name else ""


def worktree_name_prompt() -> TextPrompt:
    """Dismisses with the name ("" for a generated one), or None when cancelled."""
    return TextPrompt("New session in a git worktree", note=f"Name (branch {BRANCH_PREFIX}NAME); leave empty for "
                      "a generated one.", placeholder="e.g. fix-login", enter="Start", check=worktree_name_problem,
                      max_length=64, id=WORKTREE_NAME)
