"""One line of text asked for in a box: a tab's name, a session's name, a directory, a worktree name.

Enter gives the text (stripped) unless the prompt's check names a problem: then the problem shows
under the field, the box stays, and the check runs again as you type so the line clears once the
text is fine. Esc gives None. The field is a `SafeInput`: it holds no control character.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.protocol.sanitize import one_line
from claude_tui.ui.kit.safe_input import SafeInput
from claude_tui.ui.kit.screen_once import opened_before

Check = Callable[[str], str]
"""The problem with a (stripped) text, in a printable line; "" when it will do."""


def no_problem(_text: str) -> str:
    return ""


class TextPrompt(ModalScreen[str | None]):
    """Dismisses with the text (stripped), or None when cancelled."""

    DEFAULT_CSS = """
    TextPrompt {
        align: center middle;
        background: $background 60%;
    }
    TextPrompt > #text-prompt-box {
        width: 70;
        max-width: 100%;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $surface;
    }
    TextPrompt #text-prompt-note, TextPrompt #text-prompt-keys {
        color: $text-muted;
    }
    TextPrompt #text-prompt-problem {
        color: $text-error;
        height: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, *, value: str = "", placeholder: str = "", note: str = "",
                 enter: str = "OK", check: Check = no_problem, max_length: int = 0, id: str | None = None) -> None:
        """``note``: a line under the title (untrusted text is fine: it is one line, never markup);
        ``enter``: what Enter does, in the key line; ``check``: see `Check`."""
        super().__init__(id=id)
        self.title_text = title
        self.value = value
        self.placeholder = placeholder
        self.note = note
        self.enter = enter
        self.check = check
        self.max_length = max_length
        self._checked = False
        """Whether Enter was refused once: from then on the check runs as you type."""

    def compose(self) -> ComposeResult:
        with Vertical(id="text-prompt-box"):
            yield Static(Content.styled(self.title_text, "bold"), id="text-prompt-title")
            if self.note:
                yield Static(Text(one_line(self.note), no_wrap=True, overflow="ellipsis"), id="text-prompt-note")
            yield SafeInput(value=self.value, placeholder=self.placeholder, max_length=self.max_length,
                            id="text-prompt-input")
            yield Static("", id="text-prompt-problem", markup=False)
            yield Static(Content.assemble(("Enter", "bold"), f" {self.enter}    ", ("Esc", "bold"), " Cancel"),
                         id="text-prompt-keys")

    @property
    def problem(self) -> str:
        """The problem shown under the field ("" when none)."""
        return str(self.query_one("#text-prompt-problem", Static).render())

    def _show_problem(self, text: str) -> str:
        problem = self.check(text.strip())
        self.query_one("#text-prompt-problem", Static).update(problem)
        return problem

    @on(Input.Changed, "#text-prompt-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._checked:
            self._show_problem(event.value)

    @on(Input.Submitted, "#text-prompt-input")
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        if self._show_problem(event.value):
            self._checked = True
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


def prompt_open(app: App[Any], prompt_id: str) -> bool:
    """Whether the prompt with this screen id is open already (its opener then opens none)."""
    return opened_before(app, TextPrompt, where=lambda screen: screen.id == prompt_id)
