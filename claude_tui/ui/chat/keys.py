"""The chat view's keys: its bindings, and Claude Code's Ctrl+X chord prefix.

Claude Code's keys mean here what they mean there (the README's key map); claude-tui's own
actions sit on F-keys no habit claims (F6/F7 are the prompt's select line/all). Each binding has
an `id=`, so the keymap can move it. The actions are `ChatView`'s (`ui/chat/view.py`): a binding
runs on the node that declares it, and the view is the one node above the log, the sidebar and
the prompt alike; each action hands the key to the part that owns what it does.
"""

from __future__ import annotations

import time

from textual.binding import Binding, BindingType

# Priority: these keys work from the prompt too, also when the user remaps one to a key the
# prompt would take for itself (keymap `chat.toggle_sidebar = "ctrl+k"`). Esc, Shift+Tab and
# ? stay below the focused widget: dialogs, menus and text use them first.
CHAT_BINDINGS: list[BindingType] = [
    # Shift+Tab first: the footer lists keys in the order the screen's own (Tab, Shift+Tab) are.
    Binding("shift+tab", "cycle_mode", "Mode", show=True, id="chat.cycle_mode"),
    Binding("escape", "interrupt", "Interrupt", show=True, priority=False, id="chat.interrupt"),
    Binding("ctrl+r", "history_search", "Search history", show=False, priority=True, id="chat.history_search"),
    Binding("ctrl+o", "toggle_verbose", "Transcript", show=True, priority=True, id="chat.toggle_verbose"),
    Binding("ctrl+t", "toggle_sidebar", "Tasks", show=True, priority=True, id="chat.toggle_sidebar"),
    Binding("ctrl+g", "external_editor", "Editor", show=False, priority=True, id="chat.external_editor"),
    # Over stream-json nothing can be backgrounded (`ChatView.action_background`): the `?` row says so.
    Binding("ctrl+b", "background", "Background: not here, says why", show=False, priority=True,
            id="chat.background"),
    # Claude Code's chord prefix (Ctrl+X Ctrl+E: editor) while nothing is selected; with a
    # selection it is still cut.
    Binding("ctrl+x", "chord_prefix", show=False, priority=True, id="chat.chord"),
    # Claude Code's model picker key (Alt+P, meta+p in its key map); `/model` opens the same picker.
    Binding("alt+p", "pick_model", "Model picker", show=False, priority=True, id="chat.pick_model"),
    Binding("ctrl+l", "clear_prompt", "Clear prompt", show=False, priority=True, id="chat.clear_prompt"),
    Binding("f4", "open_sessions", "Sessions", show=True, priority=True, id="chat.open_sessions"),
    Binding("f5", "restart", "Restart CLI", show=False, priority=True, id="chat.restart"),
    Binding("f8", "what_changed", "Changes", show=True, priority=True, id="chat.what_changed"),
    Binding("f9", "toggle_thinking", "Thinking", show=False, priority=True, id="chat.toggle_thinking"),
    Binding("ctrl+s", "focus_sidebar", "Focus sidebar", show=False, priority=True, id="chat.focus_sidebar"),
    # Ctrl+Y is TextArea's redo, hence priority.
    Binding("ctrl+y", "copy_last_answer", "Copy answer", show=False, priority=True, id="chat.copy_last_answer"),
    Binding("ctrl+f", "find", "Find", show=False, priority=True, id="chat.find"),
    # As in Claude Code: the clipboard's image into the prompt (TextArea's own Ctrl+V, hence priority).
    Binding("ctrl+v", "paste_image", "Paste image", show=False, priority=True, id="chat.paste_image"),
    Binding("f3", "find_next", "Find next", show=False, id="chat.find_next"),  # the find bar shows its own F3
    Binding("ctrl+up,f2", "select_messages", "Select message", show=False, priority=True,
            id="chat.select_messages"),
    # Ctrl+E is TextArea's end-of-line (End still does that in the prompt), hence priority.
    Binding("ctrl+e", "toggle_last_tool", "Expand tool", show=False, priority=True, id="chat.toggle_last_tool"),
    Binding("pageup", "page(-1)", "Page up", show=False, priority=True, id="chat.page_up"),
    Binding("pagedown", "page(1)", "Page down", show=False, priority=True, id="chat.page_down"),
]

CHORD_SECONDS = 2.0
"""How long Ctrl+X waits for the second key of a chord (Ctrl+X Ctrl+E)."""


class Chord:
    """Ctrl+X, Claude Code's chord prefix: whether it came just before the key now pressed."""

    def __init__(self) -> None:
        self._at: float | None = None

    def press(self) -> None:
        self._at = time.monotonic()

    def take(self) -> bool:
        """Whether Ctrl+X came just before this key (and is used up by it)."""
        at, self._at = self._at, None
        return at is not None and time.monotonic() - at <= CHORD_SECONDS
