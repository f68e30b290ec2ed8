"""What the manage screens share: asking the CLI through the session, the frame, the version note.

A screen names the control request it needs (`REQUEST`); on a CLI without it the screen says so in
one line (`versions.lacks`) and asks nothing. Answers arrive in a worker and are drawn on the
screen's own thread; a failed request is shown as its reason, never raised.

The screens answer no prompt: they open when the user asks (a slash command, the palette), so they
take their keys at once, with no Tab. Their keys still change things (Space turns a server off, d
removes a rule), and the keys typed right behind the command that opened one (`/mcp⏎ ` in one burst)
were meant for the prompt: each screen is a `GuardedModal` that opens moved to, so its typeahead
guard is armed as it appears, and an action that changes something runs only through
`ManageScreen.keys_open` (a key inside the guard does nothing and keeps it up). Esc, F5 and the
arrows only look: they work at once.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from claude_tui.protocol import versions
from claude_tui.ui.dialogs.base import GuardedModal

__all__ = ["Asker", "SessionAsker", "ManageScreen", "turn_ended"]


class Asker(Protocol):
    """One session's CLI, as the screens need it."""

    @property
    def cli_version(self) -> str: ...

    def owns(self, session: object) -> bool: ...

    async def ask(self, payload: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """The success payload ({} when the CLI sends none); raises with the CLI's reason."""
        ...


class SessionAsker:
    """An `Asker` over a `ChatSession` (its connection's single writer)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    @property
    def cli_version(self) -> str:
        return str(self.session.conversation.status.cli_version or "")

    def owns(self, session: object) -> bool:
        return session is self.session

    async def ask(self, payload: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        response = await self.session.connection.request(payload, timeout=timeout)
        body = getattr(response, "payload", None)
        return body if isinstance(body, dict) else {}


class ManageScreen(GuardedModal[None]):
    """Subclasses set TITLE_TEXT, REQUEST and WHAT, and implement `build` and `draw`; an action that
    changes something starts with `if not self.keys_open(): return` (see the module docstring)."""

    DEFAULT_CSS = """
    ManageScreen { align: center middle; background: $background 65%; }
    ManageScreen #manage { width: 110; max-width: 96%; height: auto; max-height: 94%; padding: 0 1;
                           background: $surface; border: round $primary; }
    ManageScreen #manage-state { color: $text-muted; height: auto; }
    ManageScreen #manage-body { height: auto; max-height: 1fr; margin-top: 1; }
    ManageScreen #manage-keys { color: $text-muted; height: auto; margin-top: 1; }
    ManageScreen .manage-error { color: $text-error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("f5", "reload", "Refresh"),
    ]
    TITLE_TEXT: ClassVar[str] = ""
    REQUEST: ClassVar[str] = ""
    WHAT: ClassVar[str] = ""
    KEYS: ClassVar[str] = "F5 refresh · Esc close"
    TIMEOUT: ClassVar[float] = 30

    MARK_PAUSED = False  # the screen has no "keys paused" line: a restyle per swallowed key buys nothing

    def __init__(self, asker: Asker, *, guard_ms: int | None = None) -> None:
        """``guard_ms=None``: the app's ``typeahead_guard_ms``."""
        # Opened by the user's own command: moved to at once (no Tab), its guard armed as it appears.
        super().__init__(guard_ms=guard_ms, waits=False)
        self.asker = asker
        self.answer: dict[str, Any] | None = None
        self.kept_note = ""
        self.loads = 0
        """Answers drawn so far (tests wait on it; the screen shows each one)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="manage"):
            yield Static(Content(""), id="manage-state")
            with VerticalScroll(id="manage-body"):
                yield from self.compose_body()
            yield Static(Content(self.KEYS), id="manage-keys")

    def compose_body(self) -> ComposeResult:
        yield Static(Content(""), id="manage-content")

    def on_mount(self) -> None:
        self.query_one("#manage").border_title = Content(self.TITLE_TEXT)
        self.action_reload()

    @property
    def lacking(self) -> str | None:
        return versions.lacks(self.asker.cli_version, self.REQUEST, self.WHAT)

    def action_reload(self) -> None:
        if (note := self.lacking) is not None:
            self.state(note, error=True)
            return
        self.state("Asking Claude Code…")
        self._load()

    def action_close(self) -> None:
        self.dismiss(None)

    @work(exclusive=True, group="manage-load")
    async def _load(self) -> None:
        try:
            answer = await self.asker.ask(self.build(), timeout=self.TIMEOUT)
        except Exception as exc:  # the CLI's refusal, a timeout, a process gone: said on the screen
            self.state(f"Claude Code did not answer: {exc}", error=True)
            return
        self.answer = answer
        note, self.kept_note = self.kept_note, ""
        self.state(note, error=bool(note))
        self.draw(answer)
        self.loads += 1

    def state(self, text: str, *, error: bool = False) -> None:
        line = self.query_one("#manage-state", Static)
        line.update(Content(text))
        line.set_class(error, "manage-error")
        line.display = bool(text)

    def act(self, payload: dict[str, Any], doing: str, done: str) -> None:
        """Send a change (toggle, reconnect, add a rule…) in a worker: the CLI may take seconds (a server
        turned on connects first) and the screen keeps its keys meanwhile. Asks again after it."""
        self.state(f"{doing}…")
        self.run_worker(self._act(payload, doing, done), group="manage-act", exit_on_error=False)

    async def _act(self, payload: dict[str, Any], doing: str, done: str) -> None:
        try:
            await self.asker.ask(payload, timeout=self.TIMEOUT)
        except Exception as exc:
            self.kept_note = f"{doing} failed: {exc}"  # shown over the fresh answer, not wiped by it
            self.state(self.kept_note, error=True)
        else:
            self.notify(done, timeout=3)
        self._load()

    def build(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def draw(self, answer: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def turn_ended(self) -> None:
        """The session's turn ended while the screen is open (screens that follow it reload)."""

    def may_act(self, request: str | None = None, what: str = "") -> bool:
        """May an acting key act now: the guard passed and, for ``request``, the CLI has it (else
        a line says what it lacks)."""
        if not self.keys_open():
            return False
        if request is not None and (note := versions.lacks(self.asker.cli_version, request, what)) is not None:
            self.state(note, error=True)
            return False
        return True


def turn_ended(app: App[Any], session: object) -> None:
    """Tell the open manage screens of `session` that its turn ended."""
    for screen in app.screen_stack:
        if isinstance(screen, ManageScreen) and screen.asker.owns(session):
            screen.turn_ended()
