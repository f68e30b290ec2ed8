"""Ctrl+G (and Ctrl+X Ctrl+E), as in Claude Code: the prompt in $VISUAL / $EDITOR.

The terminal goes to the editor (`App.suspend`), the edited text comes back into the prompt;
nothing is lost when the editor fails or is killed, or when the prompt changed meanwhile.
`claude_tui/external_editor.py` runs the editor (no Textual).
"""

from __future__ import annotations

from textual.app import SuspendNotSupported
from textual.widget import Widget

from claude_tui.external_editor import edit_text, editor_command
from claude_tui.ui.panels.prompt_input import PromptInput


def edit_prompt(node: Widget, prompt: PromptInput) -> bool:
    """True when the edited text came back into `prompt`; else `node` said why (and the text stays)."""
    command = editor_command()
    if command is None:
        node.notify("Set $VISUAL or $EDITOR to edit the prompt in your editor.", severity="warning")
        return False
    before = prompt.text
    try:
        with node.app.suspend():
            edited = edit_text(before, command)
    except SuspendNotSupported:
        node.notify("This terminal cannot be handed to an editor.", severity="warning")
        return False
    if edited.text is None:
        node.notify(edited.problem, severity="warning", timeout=6)
        return False
    if prompt.text != before:
        node.notify("The prompt changed while the editor ran; it is kept.", severity="warning")
        return False
    prompt.load_text(edited.text)
    prompt.move_cursor(prompt.document.end)
    prompt.focus()
    return True
