"""Rename a tab (the palette's "Rename tab"): Enter keeps the name, empty goes back to the automatic one."""

from __future__ import annotations

from claude_tui.ui.dialogs.text_prompt import TextPrompt

TAB_NAME = "tab-name"
"""The prompt's screen id (one open at a time: `prompt_open`)."""

def tab_name_prompt(current: str) -> TextPrompt:
    """Dismisses with the new name ("" for the automatic one), or None when cancelled."""
    return TextPrompt("Rename tab", value=current, placeholder="empty: named after the session", enter="Rename",
                      max_length=40, id=TAB_NAME)
