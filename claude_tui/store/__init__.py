"""Our own small persistent stores, per project: prompt history and drafts.

They live in the platformdirs data dir (0700) and never touch the CLI's files. Several claude-tui
instances may run on one project at once: the history is appended to under a lock, never rewritten
from one instance's list (`history.py`), and each tab's draft is a slot it holds a lock on while it
is open (`drafts.py`). No textual here.
"""

from claude_tui.store.drafts import DraftStore
from claude_tui.store.history import PromptHistory

__all__ = ["DraftStore", "PromptHistory"]
