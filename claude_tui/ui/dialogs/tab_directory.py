"""The directory of a new tab (the palette's "New tab in another directory…")."""

from __future__ import annotations

from pathlib import Path

from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.dialogs.text_prompt import TextPrompt

TAB_DIRECTORY = "tab-directory"
"""The prompt's screen id (one open at a time: `prompt_open`)."""

def typed_directory(text: str, base: Path) -> Path:
    """`text` as a directory: relative to `base`, `~` expanded, resolved."""
    return (base / Path(text.strip()).expanduser()).resolve()


def directory_problem(text: str, base: Path) -> str:
    """Why `text` (relative to `base`, `~` expanded) is not a directory to start in; "" when it is."""
    if not text.strip():
        return "Type a directory."
    path = typed_directory(text, base)
    if not path.is_dir():
        return f"Not a directory: {printable_name(str(path))}"
    return ""


def tab_directory_prompt(base: Path) -> TextPrompt:
    """Dismisses with the text typed, a directory (`typed_directory` makes it a path), or None."""
    return TextPrompt("New tab in another directory", value=str(base.parent), placeholder="a directory",
                      enter="Open", check=lambda text: directory_problem(text, base), id=TAB_DIRECTORY)
