"""Handing keys and pastes to the chat screen's prompt from above it (a dialog that waits).

Kept apart from `typeahead.py` (the chat screen's own router): a dialog needs only the prompt,
and importing the router would tie every dialog to the chat screen's module.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from textual.widget import Widget

from claude_tui.protocol.sanitize import typed_stand_in
from claude_tui.ui.panels.prompt_input import EDIT_KEYS, TYPING_KEYS, PromptInput

if TYPE_CHECKING:
    from textual.app import App


def chat_prompt(app: App[object]) -> PromptInput | None:
    """The shown prompt of the topmost screen that has one (the chat screen's active tab), wherever
    that screen is in the stack; None without one."""
    for screen in reversed(app.screen_stack):
        prompt: PromptInput
        for prompt in screen.query(PromptInput):
            if all(node.display for node in prompt.ancestors_with_self if isinstance(node, Widget)):
                return prompt
    return None


NEVER_PASSED = frozenset({"tab", "shift+tab", "escape"})
"""Keys that are never editing: Tab moves to the dialog, Esc stays with whatever is on top."""
CLEAR_KEY = "ctrl+l"
"""The chat's clear-the-prompt key (`chat.clear_prompt`), which a dialog waiting on top passes on."""


def type_into_prompt(app: App[object], key: str, character: str | None, *, any_key: bool = False,
                     keep: Collection[str] = ()) -> bool:
    """A key typed while a dialog waits on top goes on in the prompt, in order (see `PromptInput.Typed`).

    Letters, digits, Space, Enter, Backspace and the newline keys are typing; the editor's own keys
    (arrows, Home/End, Delete, Ctrl+W …, `EDIT_KEYS`) and the chat's Ctrl+L are passed on too, except Tab,
    Esc and those in ``keep`` (keys the dialog binds itself). Other keys are not passed on unless ``any_key`` (Tab for
    an open completion menu). Returns whether the key went to the prompt.
    """
    if key == CLEAR_KEY and key not in keep:
        prompt = chat_prompt(app)
        if prompt is not None:
            prompt.post_message(PromptInput.ClearAsked())
        return prompt is not None
    printable = bool(character and (character.isprintable() or typed_stand_in(character)))
    editing = key in EDIT_KEYS and key not in keep and key not in NEVER_PASSED
    if not printable and key not in TYPING_KEYS and not editing and not any_key:
        return False
    prompt = chat_prompt(app)
    if prompt is None:
        return False
    prompt.post_message(PromptInput.Typed(key, character if printable else None))
    return True


def paste_into_prompt(app: App[object], text: str) -> bool:
    prompt = chat_prompt(app)
    if prompt is None:
        return False
    prompt.post_message(PromptInput.Typed("paste", None, paste=text))
    return True


def escape_below(app: App[object]) -> None:
    """Esc for the chat screen under a waiting dialog: its own action (close the prompt's menu, else
    interrupt the turn), asked of the chat by a message through its prompt."""
    prompt = chat_prompt(app)
    if prompt is not None:
        prompt.post_message(PromptInput.EscapedBelow())


def prompt_menu_open(app: App[object]) -> bool:
    """Whether the prompt's completion menu is open (its Tab completes)."""
    prompt = chat_prompt(app)
    return prompt is not None and prompt.menu is not None and bool(prompt.menu.display)
