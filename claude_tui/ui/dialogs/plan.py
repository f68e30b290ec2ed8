"""The plan approval dialog for ExitPlanMode.

The request's input is ``{}``; the plan Markdown comes in ``PermissionRequest.plan``
(taken from the assistant's tool_use). Keys, behind the typeahead guard:
``y`` approve and leave plan mode for ``default`` (ask before each tool), ``a``
approve and accept edits (``setMode acceptEdits`` for the session), ``n``/Esc keep
planning, ``t`` keep planning and tell Claude what to change (the ``tell`` mode
shared with the permission dialog, :mod:`.tell`).

An approval never widens permissions by itself: left alone, the CLI goes back to the
mode that was on before plan mode (acceptEdits, if Shift+Tab passed through it), so
``y`` sends ``setMode default`` explicitly. Only ``a`` turns on acceptEdits, and the key
bar names the mode each key leads to.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.base import DEFAULT_GUARD_MS, DIALOG_CSS, ENTER_ANSWERS_NOTHING, Attention, GuardedModal
from claude_tui.ui.dialogs.frame import DialogFrame
from claude_tui.ui.dialogs.parts import Hint
from claude_tui.ui.dialogs.tell import TellBox
from claude_tui.ui.dialogs.tool_input import DISPLAY_LIMIT, clean_block
from claude_tui.ui.render.safe_markdown import SafeMarkdown

KEEP_PLANNING_MESSAGE = "The user wants to keep planning."
ACCEPT_EDITS: dict[str, Any] = {"type": "setMode", "mode": "acceptEdits", "destination": "session"}
ASK_EACH_TIME: dict[str, Any] = {"type": "setMode", "mode": "default", "destination": "session"}
APPROVE_LABEL = "Approve, then ask each time (default)"
APPROVE_ACCEPT_LABEL = "Approve, accept edits (acceptEdits)"


def plan_text(request: PermissionRequest) -> str:
    """The plan Markdown: from the request, else from its input, cleaned and capped for display."""
    text = request.plan or (request.input.get("plan") if isinstance(request.input.get("plan"), str) else "") or ""
    if not text.strip():
        return "*Claude did not include a plan.*"
    if len(text) > DISPLAY_LIMIT:
        text = text[:DISPLAY_LIMIT] + f"\n\n*(plan cut for display at {DISPLAY_LIMIT:,} characters)*"
    return clean_block(text)


class PlanScreen(GuardedModal[PermissionDecision]):
    """Approve Claude's plan or keep planning. Dismisses with a PermissionDecision; cancel() closes without one."""

    CSS_PATH = [DIALOG_CSS, "plan.tcss"]
    AUTO_FOCUS: ClassVar[str | None] = "#body"
    BINDINGS: ClassVar[list[BindingType]] = [
        ENTER_ANSWERS_NOTHING,
        Binding("y", "approve", APPROVE_LABEL),
        Binding("a", "approve_accept", APPROVE_ACCEPT_LABEL),
        Binding("n", "keep", "Keep planning"),
        Binding("escape", "escape", "Keep planning / back", show=False),
        Binding("t", "tell", "Tell Claude what to change"),
    ]
    MARK_PAUSED = False  # "keys paused…" shows for as long as the guard is up
    MAIN_ACTIONS = frozenset({"approve", "approve_accept", "keep", "tell"})
    """Actions that only make sense among the main choices (not while telling Claude)."""
    ONE_KEY = frozenset({"y", "a", "n", "t"})

    mode: reactive[str] = reactive("main", init=False)
    """``main`` (the key choices) or ``tell`` (the message box)."""

    def __init__(self, request: PermissionRequest, *, accept_edits: bool = True, guard_ms: int = DEFAULT_GUARD_MS,
                 bell: bool = True, desktop: bool = True, **modal: Any) -> None:
        """`modal`: GuardedModal's options (position, total, name, id, classes).

        ``accept_edits=False`` hides `a` unless the request itself suggests a setMode."""
        super().__init__(guard_ms=guard_ms, answers_cli=True,
                         attention=Attention("Claude's plan is ready for review", bell, desktop), **modal)
        self.request = request
        self.tell = TellBox("Keep planning, and tell Claude what to change:", "e.g. also add tests for the parser",
                            "Kept planning")
        self.set_class(True, "-mode-main")
        offered = [s for s in request.suggestions if isinstance(s, dict) and s.get("type") == "setMode"]
        accept = [s for s in offered if s.get("mode") == "acceptEdits"]
        self.accept_suggestion: dict[str, Any] | None = (
            accept[0] if accept else (dict(ACCEPT_EDITS) if accept_edits else None)
        )

    def compose(self) -> ComposeResult:
        yield DialogFrame(Content.assemble(" ", ("Claude's plan", "bold"), " "), self.hints(),
                          head=self.compose_head(), body=self.compose_body(), foot=self.compose_foot(),
                          waiting=self.waiting, position=self.position, total=self.total, classes="plan-dialog")

    def compose_head(self) -> ComposeResult:
        yield Static("Review the plan. Nothing changes until you approve.", id="plan-intro", markup=False)

    def compose_body(self) -> ComposeResult:
        # Never Rich markup; control characters are cleaned first and character references stay
        # as written (SafeMarkdown); a link asks before it opens.
        yield SafeMarkdown(plan_text(self.request), id="plan")

    def compose_foot(self) -> ComposeResult:
        yield self.tell

    def hints(self) -> list[Hint]:
        hints = [Hint("y", APPROVE_LABEL, "approve", "allow")]
        if self.accept_suggestion is not None:
            hints.append(Hint("a", APPROVE_ACCEPT_LABEL, "approve_accept", "allow"))
        hints += [Hint("n", "Keep planning", "keep", "deny"), Hint("t", "Tell Claude what to change…", "tell", "deny")]
        return hints

    # ------------------------------------------------------------------ actions

    def action_approve(self) -> None:
        if self.keys_open():
            self.finish(PermissionDecision(self.request.request_id, True, updated_input={},
                                           updated_permissions=[dict(ASK_EACH_TIME)],
                                           words="Plan approved; asking each time"))

    def action_approve_accept(self) -> None:
        if self.keys_open() and self.accept_suggestion is not None:
            self.finish(
                PermissionDecision(
                    self.request.request_id,
                    True,
                    updated_input={},
                    updated_permissions=[self.accept_suggestion],
                    words="Plan approved; accepting edits",
                )
            )

    def action_keep(self) -> None:
        if self.keys_open():
            self.finish(
                PermissionDecision(self.request.request_id, False, message=KEEP_PLANNING_MESSAGE, words="Kept planning")
            )

    # ------------------------------------------------------------------ modes: the choices, or telling Claude

    def watch_mode(self, old: str, new: str) -> None:
        self.set_class(False, f"-mode-{old}")
        self.set_class(True, f"-mode-{new}")
        if new == "tell":
            self.tell.open()
        else:
            self.query_one("#body").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.mode == "main" if action in self.MAIN_ACTIONS else True

    def action_escape(self) -> None:
        if not self.keys_open():
            return
        if self.mode == "main":
            self.action_keep()
        else:
            self.mode = "main"

    def action_tell(self) -> None:
        if self.keys_open():
            self.mode = "tell"

    @on(TellBox.Told)
    def _told(self, event: TellBox.Told) -> None:
        event.stop()
        if self.keys_open():
            self.finish(self.tell.refusal(self.request, event.text))
