"""`/model` alone: a picker of the models the CLI offers, as Claude Code's own `/model` opens one.

The list is the `initialize` response's (value, displayName, description with the price), kept by
the conversation as the CLI sent it, so nothing is asked to open it. ↑↓ move, a number or Enter
picks, Esc keeps the model. Picking switches through `set_model` (`Controls.set_model`), which the
caller does with the value dismissed. The entries are the CLI's text: shown as plain `Content` of
`printable` text, never markup. A GuardedModal like the manage screens: the user's own command
opened it, so it takes its keys at once, but a pick goes through `keys_open` (the keys typed right
behind `/model⏎` were meant for the prompt).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.protocol.sanitize import printable
from claude_tui.ui.dialogs.base import GuardedModal

__all__ = ["ModelPicker", "current_model_value", "model_values"]


def current_model_value(models: list[dict[str, Any]], model: str, chosen: str | None) -> str | None:
    """Which entry of the CLI's model list is in use: the one picked, else the one naming the model.

    Several entries can resolve to the same model ("default" and "opus"): the pick decides; without
    one, the first match (the CLI lists its default first).
    """
    values = [str(m.get("value") or "") for m in models]
    if chosen and chosen in values:
        return chosen
    if model in values:
        return model
    for entry, value in zip(models, values):
        resolved = str(entry.get("resolvedModel") or "")
        # The running model can carry a suffix the list does not ("claude-opus-5-5[1m]").
        if value and resolved and (model == resolved or model.startswith(resolved + "[")):
            return value
    return None


def model_values(models: list[dict[str, Any]]) -> list[str]:
    """The values the picker offers, in the CLI's order (an entry without one is left out)."""
    return [value for m in models if (value := str(m.get("value") or ""))]


def _line(value: Any, limit: int) -> str:
    text = printable(str(value or "")).strip()
    return text.splitlines()[0][:limit] if text else ""


class ModelPicker(GuardedModal[str | None]):
    """Dismissed with the picked model's value, or None (Esc)."""

    DEFAULT_CSS = """
    ModelPicker { align: center middle; background: $background 65%; }
    ModelPicker #model-box { width: 110; max-width: 96%; height: auto; max-height: 90%; padding: 0 1;
                             background: $surface; border: round $primary; }
    ModelPicker #model-list { height: auto; max-height: 20; border: none; background: $surface; }
    ModelPicker #model-keys { color: $text-muted; height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Keep the model"),
        *(Binding(str(n), f"pick_number({n})", show=False) for n in range(1, 10)),
    ]
    MARK_PAUSED = False
    AUTO_FOCUS = "#model-list"  # absent when Claude Code listed no models

    def __init__(self, models: list[dict[str, Any]], current: str | None, *, guard_ms: int | None = None) -> None:
        # Opened by the user's own command: moved to at once (no Tab), its guard armed as it appears.
        super().__init__(guard_ms=guard_ms, waits=False)
        self.models = [m for m in models if str(m.get("value") or "")]
        self.values = model_values(self.models)
        self.current = current

    def compose(self) -> ComposeResult:
        options = []
        for number, entry in enumerate(self.models, start=1):
            value = str(entry.get("value") or "")
            name = _line(entry.get("displayName") or value, 40)
            mark = "✔ " if value == self.current else "  "
            key = f"{number}." if number < 10 else "  "
            prompt = Content.assemble(f"{key} {mark}", (name, "bold"))
            if (description := _line(entry.get("description"), 120)):
                prompt = Content.assemble(prompt, "\n      ", (description, "dim"))
            options.append(Option(prompt, id=f"model-{number}"))
        with Vertical(id="model-box"):
            if options:
                yield OptionList(*options, id="model-list")
            else:
                yield Static(Content("Claude Code has not listed its models yet: try /model NAME."),
                             id="model-empty")
            yield Static(Content("↑↓ move · Enter or 1–9 switch · Esc keep the model · /model NAME sets one "
                                 "directly"), id="model-keys")

    def on_mount(self) -> None:
        self.query_one("#model-box").border_title = Content("Model")
        if self.values:
            listing = self.query_one("#model-list", OptionList)
            listing.highlighted = self.values.index(self.current) if self.current in self.values else 0
            listing.focus()

    @on(OptionList.OptionSelected, "#model-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option_index)

    def action_pick_number(self, number: int) -> None:
        self._pick(number - 1)

    def _pick(self, index: int) -> None:
        if 0 <= index < len(self.values) and self.keys_open():
            self.finish(self.values[index])

    def action_cancel(self) -> None:
        self.finish(None)
