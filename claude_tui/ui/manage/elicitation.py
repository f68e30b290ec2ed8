"""The dialog for an MCP server's `elicitation`: a form drawn from its JSON schema, or a URL.

Keys once moved to (Tab; behind the typeahead guard of its `GuardedModal`): Ctrl+S submits
(accept with the values; a field that does not pass says why and nothing is sent), Ctrl+D
declines, Esc cancels. Ctrl+Down / Ctrl+Up (or Shift+Tab) move between fields; Tab goes back to
the prompt, as on every dialog, and while the dialog waits typing goes to the prompt.
Everything the server wrote (its name, the message, the titles and descriptions, the choices,
the URL) is shown inert.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Checkbox, RadioButton, RadioSet, SelectionList, Static

from claude_tui.protocol.elicitation import FormField, answer, form_fields, parse_values
from claude_tui.protocol.sanitize import printable, printable_name
from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.base import DEFAULT_GUARD_MS, DIALOG_CSS, ENTER_ANSWERS_NOTHING, Attention, GuardedModal
from claude_tui.ui.dialogs.frame import DialogFrame
from claude_tui.ui.dialogs.parts import Hint
from claude_tui.ui.kit.safe_input import SafeInput

__all__ = ["ElicitationScreen"]


class ElicitationScreen(GuardedModal[PermissionDecision]):
    CSS_PATH = [DIALOG_CSS, "elicitation.tcss"]
    AUTO_FOCUS: ClassVar[str | None] = ".form-field"
    BINDINGS: ClassVar[list[BindingType]] = [
        ENTER_ANSWERS_NOTHING,  # a focused field takes it first
        Binding("ctrl+s", "submit", "Submit", priority=True),
        Binding("ctrl+d", "decline", "Decline", priority=True),
        Binding("escape", "cancel_form", "Cancel", show=False),
        Binding("ctrl+down", "field(1)", "Next field", show=False, priority=True),
        Binding("ctrl+up", "field(-1)", "Previous field", show=False, priority=True),
    ]
    MARK_PAUSED = False  # "keys paused…" shows for as long as the guard is up

    def __init__(self, request: PermissionRequest, *, guard_ms: int = DEFAULT_GUARD_MS, bell: bool = True,
                 desktop: bool = True, **modal: Any) -> None:
        """`modal`: GuardedModal's options (position, total, name, id, classes)."""
        form = request.elicitation
        assert form is not None, "an elicitation dialog needs the elicitation"
        asks = f"{printable_name(form.mcp_server_name or 'an MCP server')} asks for input"
        super().__init__(guard_ms=guard_ms, answers_cli=True, attention=Attention(asks, bell, desktop), **modal)
        self.request = request
        self.form = form
        self.is_url = form.mode == "url" or (form.url is not None and not form.requested_schema)
        self.fields: list[FormField] = [] if self.is_url else form_fields(form.requested_schema, form.property_order)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield DialogFrame(Content(printable_name(self.request.title)[:80]), self.hints(), head=self.compose_head(),
                          body=self.compose_body(), waiting=self.waiting, position=self.position, total=self.total,
                          classes="-elicitation")

    def compose_head(self) -> ComposeResult:
        server = printable_name(self.form.mcp_server_name or "An MCP server")
        yield Static(Content(f"From the MCP server {server}"), classes="form-from")
        if self.form.message:
            yield Static(Content(printable(self.form.message)), classes="form-message")

    def compose_body(self) -> ComposeResult:
        if self.is_url:
            yield Static(Content("Open this address to go on (the server asks you to):"), classes="section-label")
            yield Static(Content(printable(self.form.url or "(no address given)")), classes="form-url section-body")
            return
        if not self.fields:
            yield Static(Content("The server asks for nothing more: submit to go on."), classes="section-label")
        for index, f in enumerate(self.fields):
            mark = " *" if f.required else ""
            yield Static(Content(f"{f.title}{mark}"), classes="section-label")
            if f.description:
                yield Static(Content(f.description), classes="form-help")
            yield self._widget(index, f)
            yield Static(Content(""), id=f"problem-{index}", classes="form-problem")

    def _widget(self, index: int, f: FormField) -> Widget:
        wid = f"field-{index}"
        if f.kind == "boolean":
            return Checkbox(Content("yes"), value=bool(f.default), id=wid, classes="form-field")
        if f.kind == "choice":
            return RadioSet(*[RadioButton(Content(printable_name(label)), value=value == str(f.default))
                              for value, label in f.options], id=wid, classes="form-field")
        if f.kind == "choices":
            chosen = {str(v) for v in f.default} if isinstance(f.default, list) else set()
            return SelectionList[str](*[(Content(printable_name(label)), value, value in chosen)
                                        for value, label in f.options], id=wid, classes="form-field")
        placeholder = {"number": "a number", "integer": "a whole number"}.get(f.kind, f.format or "")
        value = "" if f.default is None else printable_name(str(f.default))
        return SafeInput(value=value, placeholder=placeholder, id=wid, classes="form-field")

    def hints(self) -> list[Hint]:
        accept = "I opened it" if self.is_url else "Submit"
        keys = [Hint("ctrl+s", accept, "submit", "allow"), Hint("ctrl+d", "Decline", "decline", "deny"),
                Hint("esc", "Cancel", "cancel_form")]
        return keys + ([Hint("ctrl+↓↑", "Next / previous field", "field(1)")] if len(self.fields) > 1 else [])

    # ------------------------------------------------------------------ values

    def entered(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for index, f in enumerate(self.fields):
            widget = self.query_one(f"#field-{index}")
            if isinstance(widget, Checkbox):
                values[f.name] = widget.value
            elif isinstance(widget, RadioSet):
                chosen = widget.pressed_index
                values[f.name] = f.options[chosen][0] if 0 <= chosen < len(f.options) else None
            elif isinstance(widget, SelectionList):
                values[f.name] = list(widget.selected)
            elif isinstance(widget, SafeInput):
                values[f.name] = widget.value
        return values

    # ------------------------------------------------------------------ actions

    def _send(self, action: str, content: dict[str, Any] | None, words: str) -> None:
        self.finish(PermissionDecision(request_id=self.request.request_id, allow=action == "accept",
                                       response=answer(action, content), words=words))

    def action_submit(self) -> None:
        if not self.keys_open():
            return
        if self.is_url:
            self._send("accept", {}, "Opened the address")
            return
        content, problems = parse_values(self.fields, self.entered())
        first: Widget | None = None
        for index, f in enumerate(self.fields):
            why = problems.get(f.name, "")
            line = self.query_one(f"#problem-{index}", Static)
            line.update(Content(f"{f.title}: {why}" if why else ""))
            line.set_class(bool(why), "-shown")
            if why and first is None:
                first = self.query_one(f"#field-{index}")
        if first is not None:
            first.focus()
            self.app.bell()
            return
        self._send("accept", content, "Answered the form")

    def action_field(self, step: int) -> None:
        if self.waiting or not self.fields:
            return
        widgets = [self.query_one(f"#field-{i}") for i in range(len(self.fields))]
        here = next((i for i, w in enumerate(widgets) if w is self.focused or w.has_focus_within), -1)
        widgets[(here + step) % len(widgets)].focus()

    def action_decline(self) -> None:
        if self.keys_open():
            self._send("decline", None, "Declined the form")

    def action_cancel_form(self) -> None:
        if self.keys_open():
            self._send("cancel", None, "Cancelled the form")
