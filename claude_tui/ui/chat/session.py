"""One open session: its CLI, conversation, permission queue, prompts, draft and turn timer. Not a widget.

A window shows several (one per tab). The session never calls a widget: what its CLI says
arrives at its view as `CliConnection` messages (the view runs the connection's worker), the
view hands the items to `apply` and draws the changes it gets back. Everything it is asked to
do (send a prompt, switch the mode, restart) returns, or raises, to the view that asked.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.dom import DOMNode

from claude_tui.protocol import builders
from claude_tui.protocol.control import ControlResponse
from claude_tui.protocol.sanitize import printable_name
from claude_tui.session.changes import Change, compact
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteKind, UserItem
from claude_tui.session.status import Activity
from claude_tui.store import DraftStore, PromptHistory
from claude_tui.store.review import ReviewTray
from claude_tui.transport.events import AutoAnswered, ProcessExited
from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.connection import CliConnection
from claude_tui.ui.chat.permission_queue import PermissionQueue
from claude_tui.ui.chat.tab_summary import TabState, TabSummary

_tab_ids = itertools.count(1)


def fresh_options(base: CliOptions, *, resume: str | None = None, fork: bool = False,
                  cwd: str | None = None) -> CliOptions:
    """`base` for another session: a new one (no `resume`), `--resume ID`, or a fork of ID."""
    options = replace(base, resume=resume, continue_session=False, fork_session=fork and resume is not None,
                      resume_session_at=None, env=dict(base.env))
    if cwd is not None:
        options.cwd = cwd
    return options


class ChatSession:
    def __init__(self, options: CliOptions, conversation: Conversation | None = None,
                 debug_log: Path | None = None, *, name: str = "") -> None:
        self.tab_id = f"tab-{next(_tab_ids)}"
        """Stable for the session's life: its view's widget id and what the tab bar returns."""
        self.name = name
        """Set by the user (rename); else the tab shows `display_name()`."""
        self.options = options
        self.conversation = (conversation or Conversation()).expect_mode(options.permission_mode)
        self.debug_log = debug_log
        cwd = Path(options.cwd or ".")
        if options.ssh is not None:  # a directory on another machine: its prompts and draft are its own
            cwd = Path(f"/ssh-{options.ssh.label}") / (options.cwd or ".").lstrip("/")
        self.history = PromptHistory(cwd)
        self.review = ReviewTray(cwd)
        """Review comments waiting to go to Claude (per project, shared by its tabs, survives a restart)."""
        # Its own slot, held from the first load until `shutdown`: no other tab or instance touches it.
        self.drafts = DraftStore(cwd)
        self.permissions = PermissionQueue()
        self.connection = CliConnection(options, debug_log)
        self.turn_started_at: float | None = None
        self.initialize_response: dict[str, Any] | None = None
        """The CLI's whole initialize response (agents with descriptions, version …) for the help screen."""
        self.closing = False
        """Set by `shutdown`: the CLI's exit is then ours, not news."""
        self.attention = False
        """A dialog waits while the tab is in the background (cleared when it is shown)."""
        self.last_activity: float | None = None
        self._target: DOMNode | None = None

    # -- the CLI -------------------------------------------------------------------------
    def start(self, target: DOMNode) -> None:
        """Start the CLI; `target` (the view) runs its worker and gets its messages."""
        self._target = target
        self.connection.start(target)

    @property
    def busy(self) -> bool:
        return self.conversation.status.turn_running

    @property
    def alive(self) -> bool:
        return self.connection.alive

    def owns(self, connection: CliConnection | None) -> bool:
        """Whether a message from `connection` is this session's news (not the tail of one replaced by F5's restart)."""
        return connection is None or connection is self.connection

    def apply(self, items: list[Any]) -> list[Change]:
        """A batch of lines from the CLI, applied in order; their changes, to be drawn once, after all
        of them (`changes.compact` drops what that drawing would show twice)."""
        changes: list[Change] = []
        for item in items:
            if isinstance(item, AutoAnswered) and item.subtype == "request_user_dialog":
                changes += self.conversation.add_note(item.error, title="Claude Code dialog")
                continue
            changes += self.conversation.apply(item)
        if items:
            self.last_activity = time.time()
        return compact(changes)

    def ready(self, response: dict[str, Any], installed_version: str | None) -> list[Change]:
        # This process (the first, or one after a restart) was started in the options' mode: check its report.
        self.conversation.expect_mode(self.options.permission_mode)
        changes = self.conversation.apply_initialize(response, installed_version)
        self.initialize_response = response  # all of it, for the help screen
        status = self.conversation.status
        if not status.model:  # this CLI names it only with its first turn: name it now
            from claude_tui.transport.starting_model import starting_model

            status.model = starting_model(self.options, self.conversation.models)
        if self.conversation.status.activity is Activity.STARTING:
            self.conversation.status.activity = Activity.IDLE
        return changes

    def exited(self, exited: ProcessExited) -> list[Change]:
        """The CLI exited: its running tools are interrupted; unless we stopped it, a note says why."""
        changes = self.conversation.process_exited(exited.returncode)
        if not self.closing:
            from claude_tui.transport.ssh.faults import describe_exit

            # Over ssh, ssh's own failures (host key, login, dropped connection) are told apart.
            title, text = describe_exit(self.options.ssh, exited)
            self.stopped_because = title
            changes += self.conversation.add_note(text, NoteKind.ERROR, title=title)
        return changes

    stopped_because = ""
    """The title of the note that said why the CLI is not running (a prompt sent then repeats it)."""

    def failed(self, error: str) -> list[Change]:
        """The CLI could not be started."""
        self.conversation.status.activity = Activity.EXITED
        self.stopped_because = "Cannot start Claude Code"
        return self.conversation.add_note(error, NoteKind.ERROR, title=self.stopped_because)

    def unready(self, error: str) -> list[Change]:
        """The CLI runs but did not answer the handshake: prompts work, its lists are missing."""
        if self.conversation.status.activity is Activity.STARTING:
            self.conversation.status.activity = Activity.IDLE
        return self.conversation.add_note(
            f"Claude Code did not answer the start-up handshake ({error}). Prompts still work; "
            "slash-command completion and the model list are unavailable until a restart (F5).",
            NoteKind.ERROR, title="Claude Code is running without its command list")

    def keep_options_in_step(self) -> None:
        """A restart (F5) and a new session respawn the CLI from `options`: give them the mode and model the CLI
        runs now, including the switches it made itself (a plan approved with "accept edits", a
        suggestion "accept edits for this session", `/model NAME` typed as a prompt)."""
        conversation, options = self.conversation, self.options
        mode = conversation.status.permission_mode
        # Only once the CLI has said: until then the status shows what the options asked for.
        if conversation.reported_mode is not None and mode and mode != (options.permission_mode or "default"):
            options.permission_mode = mode
        choice, conversation.model_choice = conversation.model_choice, None  # taken once: a later pick wins
        if choice:
            options.model = choice

    # -- prompts ---------------------------------------------------------------------------
    async def send(self, text: str, *, before: Sequence[Mapping[str, Any]] = (),
                   images: Sequence[dict[str, Any]] = ()) -> bool:
        """Send a prompt (or slash command) to the CLI; False when it could not take it.
        `before`: content blocks ahead of it (`!command` output); `images`: image blocks."""
        return await self.connection.send(builders.user_message(
            text, images=images, session_id=self.conversation.status.session_id, before=before))

    def prompt_sent(self, text: str, shown: str | None = None, image_count: int = 0) -> list[Change]:
        """`text` went to the CLI (`shown`: how the prompt box showed it, if not as sent)."""
        # After a rewind the CLI resumed at a point; this prompt starts the new branch, the newest in
        # the transcript, so a later restart resumes plainly (and would otherwise drop this turn).
        self.options.resume_session_at = None
        self.history.add(text)
        self.last_activity = time.time()
        changes = self.conversation.add_user_prompt(text, image_count=image_count, shown=shown)
        if self.turn_started_at is None and self.busy:  # this prompt started a turn: time it
            self.turn_started_at = time.monotonic()
        return changes

    def turn_duration(self) -> float | None:
        """Seconds since the turn now ending started (and start timing the next one if it continues)."""
        started = self.turn_started_at
        now = time.monotonic()
        self.turn_started_at = now if self.busy else None
        return None if started is None else now - started

    # -- control requests (awaited in the view's workers) -------------------------------------
    async def interrupt(self) -> None:
        await self.connection.request(builders.interrupt(), timeout=10)

    async def set_mode(self, mode: str) -> None:
        await self.connection.request(builders.set_permission_mode(mode), timeout=10)
        self.conversation.mode_switched(mode)
        self.options.permission_mode = mode  # a restart or new session keeps it

    async def set_model(self, model: str) -> None:
        """Switch to `model` (a list value or a name); the bar shows the model the CLI says it resolved
        ("sonnet" is claude-sonnet-5-5) as soon as it confirms, not at the turn's end."""
        response = await self.connection.request(builders.set_model(model), timeout=15)
        body = response.payload if isinstance(response, ControlResponse) else None
        confirmed = body.get("model") if isinstance(body, dict) else None
        self.conversation.status.model = confirmed if isinstance(confirmed, str) and confirmed else model
        self.options.model = model  # a restart or new session keeps it

    async def rename_in_cli(self, title: str) -> str | None:
        """Name the session in Claude Code too (its own picker then shows it); None when it took it,
        else why not (an older CLI, not running, its refusal). The tab's name is ours either way."""
        from claude_tui.protocol import manage, versions

        if not title or not self.alive:
            return None if not title else "Claude Code is not running: only the tab was renamed."
        if (note := versions.lacks(self.conversation.status.cli_version, "rename_session", "name sessions")):
            return note
        try:
            await self.connection.request(manage.rename_session(title, self.conversation.status.session_id or None),
                                          timeout=10)
        except Exception as exc:  # a refusal or a timeout: the tab keeps the name, the notice says so
            return f"Claude Code did not take the name: {exc}"
        return None

    async def stop_task(self, task_id: str) -> None:
        await self.connection.request(builders.stop_task(task_id), timeout=10)

    # -- lifetime ------------------------------------------------------------------------------
    async def stop_for_restart(self) -> list[Change]:
        """Restart (F5), first half: the old process stops; returns what to draw (its running tools interrupted)."""
        if not self.connection.alive:
            return []
        await self.connection.close()
        return self.conversation.process_exited(None)

    def start_again(self) -> list[Change]:
        """Restart (F5), second half: the same session (`--resume`) in a new process. Transcript and draft stay."""
        session_id = self.conversation.status.session_id
        if session_id:
            self.options.resume = session_id
            self.options.continue_session = False
            self.options.fork_session = False
        self.conversation.status.activity = Activity.STARTING
        self.stopped_because = ""
        changes = self.conversation.add_note(
            f"Restarting Claude Code{' in session ' + session_id[:8] if session_id else ''}…", NoteKind.INFO)
        self.connection = CliConnection(self.options, self.debug_log)
        if self._target is not None:
            self.connection.start(self._target)
        return changes

    async def shutdown(self, draft: str | None = None) -> None:
        """Save the draft and stop the CLI (interrupt, EOF, grace; see `transport.client`)."""
        self.closing = True
        if draft is not None:
            self.save_draft(draft)
        self.drafts.release()  # saved: the slot (and its draft) is free for the next tab or instance
        await self.connection.close()

    def save_draft(self, text: str) -> None:
        try:
            self.drafts.save(text)
        except OSError:
            pass  # a draft is a convenience: an unwritable data dir must not stop the app

    # -- the tab ----------------------------------------------------------------------------------
    def display_name(self) -> str:
        """The tab's name: the user's, else the session's title or first prompt, else the directory."""
        if self.name:
            return printable_name(self.name)
        status = self.conversation.status
        first = next((item.text.strip() for item in self.conversation.items if isinstance(item, UserItem)), "")
        if first:
            return printable_name(first.splitlines()[0])[:30]
        folder = Path(status.cwd or self.options.cwd or ".").resolve().name if not self.options.ssh else \
            Path(status.cwd or self.options.cwd or "/").name
        return printable_name(folder or "session")

    def state(self) -> TabState:
        activity = self.conversation.status.activity
        if self.permissions.waiting:
            return TabState.WAITING
        if activity is Activity.STARTING:
            return TabState.STARTING
        if activity is Activity.EXITED:
            return TabState.EXITED if self.closing else TabState.ERROR
        if self.busy:
            return TabState.STREAMING
        return TabState.IDLE

    def summary(self) -> TabSummary:
        status = self.conversation.status
        return TabSummary(
            tab_id=self.tab_id, name=self.display_name(), state=self.state(), cost_usd=status.own_cost,
            attention=self.attention, last_activity=self.last_activity,
            pending=self.permissions.describe_pending(), cwd=printable_name(status.cwd or self.options.cwd or ""),
            host=printable_name(self.options.ssh.label) if self.options.ssh is not None else "")
