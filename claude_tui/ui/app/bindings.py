"""The application's key bindings (quit, help, tabs), apart from the app so the keymap can list them.

`ui/app/keymap.py` names every remappable binding id; importing the app for its BINDINGS would tie
the keymap (and what imports it) into the app's import circle.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

# Priority: tab keys work from the prompt and over a dialog (switching away from a tab takes
# its dialog down unanswered; it opens again when you come back). Ctrl+W stays the prompt's
# delete-word: closing a tab is Alt+W.
APP_BINDINGS: list[BindingType] = [
    Binding("ctrl+q", "quit_app", "Quit", show=True, priority=True, id="app.quit"),
    # Ctrl+C and Ctrl+D as in Claude Code (the README's key map): Ctrl+C interrupts a running turn,
    # clears a draft, and quits when pressed twice on an empty prompt; Ctrl+D quits the same way
    # from an empty prompt (priority: the prompt's own Ctrl+D, delete right, runs on a draft).
    Binding("ctrl+c", "interrupt_clear_or_quit", "Interrupt / clear prompt / quit", show=False, id="app.ctrl_c"),
    Binding("ctrl+d", "exit_on_empty", "Quit (empty prompt, twice)", show=False, priority=True, id="app.exit"),
    Binding("f1", "help", "Help", show=True, id="app.help"),
    Binding("ctrl+n", "new_tab", "New tab", show=False, priority=True, id="tabs.new"),
    Binding("alt+w", "close_tab", "Close tab", show=False, priority=True, id="tabs.close"),
    Binding("ctrl+pageup", "cycle_tab(-1)", "Previous tab", show=False, priority=True, id="tabs.previous"),
    Binding("ctrl+pagedown", "cycle_tab(1)", "Next tab", show=False, priority=True, id="tabs.next"),
    Binding("ctrl+shift+pageup", "move_tab(-1)", "Move tab left", show=False, priority=True, id="tabs.move_left"),
    Binding("ctrl+shift+pagedown", "move_tab(1)", "Move tab right", show=False, priority=True,
            id="tabs.move_right"),
    Binding("alt+o", "overview", "Overview of tabs", show=False, priority=True, id="tabs.overview"),
    *(Binding(f"alt+{n}", f"switch_tab({n})", f"Tab {n}", show=False, priority=True, id=f"tabs.switch_{n}")
      for n in range(1, 10)),
]
