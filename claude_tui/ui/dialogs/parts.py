"""Small parts shared by the permission, question and plan dialogs.

The dialogs are key-driven and deliberately have no Buttons: a focused Button
turns Enter into a press wherever focus is. Enter answers only where a dialog binds it, under
its key rules (the permission dialog: allow once, as `y`). The key
bar can be clicked; a click only *asks* the screen to run the action, and the
screen applies the same typeahead guard as for keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.style import Style
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from claude_tui.ui.kit.safe_input import SafeInput


@dataclass(frozen=True)
class Hint:
    """A key, what it does, and the screen action it runs."""

    key: str
    label: str
    action: str
    variant: str = ""
    """"allow", "deny" or "" — colours the key through TCSS."""


class KeyBar(Widget):
    """The dialog's keys as one wrapping line of ``key label`` pairs; each pair is clickable.

    Wrapping happens only between pairs (never inside "Deny and stop"), which a
    plain Static cannot promise: it breaks at any space.
    """

    DEFAULT_CSS = """
    KeyBar {
        width: 1fr;
        height: auto;
        color: $text-muted;

        & > .key-bar--key {
            color: $foreground;
            background: $foreground 10%;
            text-style: bold;
        }
        & > .key-bar--allow {
            color: $text-success;
        }
        & > .key-bar--deny {
            color: $text-error;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--allow", "key-bar--deny"}
    GAP = 2

    class Pressed(Message):
        """A key hint was clicked; the screen decides whether that counts (typeahead guard)."""

        def __init__(self, bar: KeyBar, action: str) -> None:
            super().__init__()
            self.bar = bar
            self.action = action

        @property
        def control(self) -> KeyBar:
            return self.bar

    def __init__(self, hints: Iterable[Hint], *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.hints = list(hints)

    def set_hints(self, hints: Iterable[Hint]) -> None:
        """Show other keys (e.g. a dialog's next step)."""
        self.hints = list(hints)
        self.refresh(layout=True)

    def _pair(self, index: int, hint: Hint) -> Content:
        key_style = self.get_visual_style("key-bar--key", partial=True)
        variant = f"key-bar--{hint.variant}" if hint.variant else ""
        label_style = self.get_visual_style(variant, partial=True) if variant else None
        meta = Style.from_meta({"hint": index})
        label = (hint.label, label_style) if label_style else hint.label
        pair = Content.assemble((f" {hint.key} ", key_style), " ", label)
        return pair.stylize(meta)

    def lines(self, width: int) -> list[Content]:
        """The pairs packed greedily into lines of at most ``width`` cells."""
        lines: list[Content] = []
        current = Content("")
        for index, hint in enumerate(self.hints):
            pair = self._pair(index, hint)
            if current.cell_length and current.cell_length + self.GAP + pair.cell_length > width:
                lines.append(current)
                current = Content("")
            current = pair if not current.cell_length else Content.assemble(current, " " * self.GAP, pair)
        if current.cell_length or not lines:
            lines.append(current)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(max(width, 1)))

    def render(self) -> Content:
        return Content("\n").join(self.lines(max(self.size.width, 1)))

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("hint")
        if isinstance(index, int) and 0 <= index < len(self.hints) and self.hints[index].action:
            event.stop()
            self.post_message(self.Pressed(self, self.hints[index].action))


class DialogBody(VerticalScroll):
    """The dialog's scrolling body; it tells its screen when what it shows may have changed.

    A one-cell scrollbar is all a plain scroll view shows of a command that goes on for two
    hundred rows: the screen puts the count of rows out of view where the eye is instead.
    """

    class Moved(Message):
        """The body scrolled, resized or its content changed size: what is out of view may differ."""

        def __init__(self, body: DialogBody) -> None:
            super().__init__()
            self.body = body

        @property
        def control(self) -> DialogBody:
            return self.body

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._moved, init=False)
        self.watch(self, "virtual_size", self._moved, init=False)
        self.call_after_refresh(self._moved)  # a body laid out at no height gets no Resize

    def on_resize(self, event: events.Resize) -> None:
        self._moved()

    def _moved(self, *_: object) -> None:
        self.post_message(self.Moved(self))

    def rows_below(self, visible: int) -> int:
        """Rows of content below the view, given how many of the body's rows are really on screen
        (the last part's bottom margin is no row of anything)."""
        shown = [child for child in self.children if child.display]
        margin = shown[-1].styles.margin.bottom if shown else 0
        return max(0, self.virtual_size.height - margin - round(self.scroll_y) - visible)


class MessageBox(Vertical):
    """A one-line message box: "tell Claude what to do instead" / "what to change".

    Enter submits (``MessageBox.Submitted``: `tell.TellBox` handles it); Esc is handled by
    the screen, which hides the box again.
    """

    DEFAULT_CSS = """
    /* Hidden until its dialog shows it (the dialog's file sets `display: block` for its mode). */
    MessageBox {
        display: none;
        height: auto;
        margin-top: 1;
        padding: 0 1;
        background: $boost;
        border-left: outer $accent;

        .box-prompt {
            text-style: bold;
        }
        .box-hint {
            color: $text-muted;
        }
        Input {
            margin: 0;
        }
    }
    """

    class Submitted(Message):
        def __init__(self, box: MessageBox, text: str) -> None:
            super().__init__()
            self.box = box
            self.text = text

        @property
        def control(self) -> MessageBox:
            return self.box

    def __init__(self, prompt: str, placeholder: str, hint: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="message-box")
        self._prompt = prompt
        self._placeholder = placeholder
        self._hint = hint

    def compose(self) -> ComposeResult:
        yield Static(self._prompt, classes="box-prompt", markup=False)
        yield SafeInput(placeholder=self._placeholder, select_on_focus=False)
        yield Static(self._hint, classes="box-hint", markup=False)

    @property
    def input(self) -> Input:
        return self.query_one(Input)

    def open(self) -> None:
        """Clear and focus the box."""
        self.input.value = ""
        self.input.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(self, event.value))


class ChoiceList(OptionList):
    """An OptionList where Enter *confirms* and Space, a click or a number key *picks*.

    Stock OptionList turns a click into "selected"; in the question dialog a click
    must only pick (or toggle) an option, never move on to the next step.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "toggle_option", "Toggle", show=False)]

    class _ChoiceMessage(Message):
        def __init__(self, choices: ChoiceList, index: int) -> None:
            super().__init__()
            self.choices = choices
            self.index = index

        @property
        def control(self) -> ChoiceList:
            return self.choices

    class Toggled(_ChoiceMessage):
        """Space or a click on an option: pick it (single choice) or toggle it (multiple)."""

    class Confirmed(_ChoiceMessage):
        """Enter on the highlighted option: pick it if needed and go on."""

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Confirmed(self, self.highlighted))

    def action_toggle_option(self) -> None:
        # Not `action_toggle`: DOMNode's takes an attribute name.
        if self.highlighted is not None:
            self.post_message(self.Toggled(self, self.highlighted))

    def on_click(self, event: events.Click) -> None:
        # prevent_default() keeps OptionList's own click handler (which selects = confirms) from running.
        event.prevent_default()
        clicked = event.style.meta.get("option")
        if isinstance(clicked, int) and 0 <= clicked < self.option_count:
            event.stop()
            self.highlighted = clicked
            self.post_message(self.Toggled(self, clicked))
