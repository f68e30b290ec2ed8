"""The command palette's chat commands (Ctrl+P), built from the current state on every open.

Models come from the CLI's initialize response, permission modes from what the
session allows, themes from the app: the palette never offers a stale choice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from claude_tui.protocol.sanitize import printable
from claude_tui.ui.chat.app_host import app_host
from claude_tui.ui.chat.review import open_tray, send_review
from claude_tui.ui.chat.rewind_conversation import open_rewind
from claude_tui.ui.chat.rewind_files import rewind_last_prompt
from claude_tui.ui.chat.view import ChatView
from claude_tui.ui.chat.worktree_flow import ask_worktree_session, remote_refusal
from claude_tui.ui.kit.modes import MODE_WORDS, available_modes, bypass_allowed
from claude_tui.ui.manage.commands import manage_commands
from claude_tui.ui.manage.model import current_model_value


def escape(text: str) -> str:
    """Make any text literal for Textual markup (the palette parses prompts and help).

    textual.markup.escape only escapes tag-like brackets it recognises; `[MTok]` would
    still be swallowed, so every bracket is escaped.
    """
    return text.replace("[", "\\[")


@dataclass(frozen=True)
class Command:
    text: str
    callback: Callable[[], Any]
    help: str = ""
    discover: bool = False


def _first_line(value: Any, limit: int = 100) -> str:
    text = printable(str(value or "")).strip()
    return text.splitlines()[0][:limit] if text else ""


def highlighted(matcher: Matcher, text: str) -> Content:
    """`text` as plain content with the matched letters marked. Matcher.highlight parses markup, and
    on escaped text its offsets land one character late after every `[` ("Opus [1m]")."""
    content = Content(text)
    for offset in matcher.fuzzy_search.match(matcher.query, text)[1]:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def _in_background(chat: ChatView, switch: Callable[[], Awaitable[None]]) -> None:
    """Run a session switch as an app worker: closing the old CLI can take seconds, during which keys
    must still be read, and the old view (whose workers end with it) is replaced half-way."""
    chat.app.run_worker(switch(), group="switch-session", exclusive=True, exit_on_error=False)


def tab_commands(chat: ChatView) -> list[Command]:
    """New, close, rename and move tabs (each also a key, see `ui/app/bindings.py`)."""
    app = chat.app
    tabs = len(chat.screen.query(ChatView)) if chat.is_attached else 1

    def run(action: str) -> Callable[[], Any]:
        return partial(app.run_action, action)

    commands = [
        Command("New tab", run("new_tab"), "A fresh session beside this one, same directory (Ctrl+N)", True),
    ]
    if chat.session.options.ssh is None:  # a directory on this machine (over ssh: Open session on HOST)
        commands.append(Command("New tab in another directory…", run("new_tab_elsewhere"),
                                "A fresh session beside this one, in a directory you type", True))
    if chat.session.options.command is None:  # not the demo's scripted CLI: that one runs here only
        commands.append(Command("New tab on a host…", run("new_tab_on_host"),
                                "A fresh session beside this one, on another machine over ssh", True))
    commands += [
        Command("Resume a session in a new tab…", run("open_sessions_in_tab"),
                "Browse past sessions; the one you pick opens beside this tab", True),
        Command("New tab in a git worktree…", partial(ask_worktree_session, app, chat.host, chat.session,
                                                      new_tab=True),
                remote_refusal(chat.session) or "A fresh session in a new worktree, beside this one"),
        Command("Rename tab…", run("rename_tab"), "Name this tab (empty: named after the session)", tabs > 1),
        Command("Close tab", run("close_tab"), "Stop this tab's Claude Code and close it (Alt+W)", tabs > 1),
    ]
    if tabs > 1:
        commands += [
            Command("Move tab left", run("move_tab(-1)"), "Ctrl+Shift+PageUp"),
            Command("Move tab right", run("move_tab(1)"), "Ctrl+Shift+PageDown"),
            Command("Overview of tabs", run("overview"), "Every tab's state, cost and question (Alt+O)", True),
        ]
    return commands


def chat_commands(chat: ChatView) -> list[Command]:
    """Every chat command for the current state (pure apart from reading `chat`)."""
    host = chat.host
    app = chat.app
    session = chat.session
    conversation = session.conversation
    status = conversation.status
    alive = session.alive
    commands = [
        Command("New session", lambda: _in_background(chat, chat.controls.new_session),
                "Restart Claude Code in a fresh session (clears the log)", True),
        Command("New session in a git worktree…", partial(ask_worktree_session, app, host, session),
                remote_refusal(session) or
                "Fresh session on a new branch worktree-<name>, in a worktree beside the repository",
                not remote_refusal(session)),
        Command("Resume a session…", host.action_open_sessions, "Browse past sessions of this project (F4)",
                True),
        Command("Search sessions…", host.action_open_sessions, "Full-text search in past sessions (/ in the browser)"),
        Command("Usage: cost and tokens by day…", host.action_usage,
                "Every session's cost and tokens by day, week, model, project (/usage)", True),
    ]
    if status.session_id:
        commands.append(Command("Fork this session", lambda: _in_background(chat, chat.controls.fork_session),
                                f"Continue {status.short_session_id} as a new session (--fork-session)", True))
    commands += tab_commands(chat)
    commands += [
        Command("Paste image from clipboard", chat.action_paste_image,
                "Attach the clipboard's image to the prompt as [Image #N] (Ctrl+V)", True),
        Command("Find in conversation", chat.action_find, "Ctrl+F · F3 next", True),
        Command("Copy last answer", chat.action_copy_last_answer, "Raw Markdown of Claude's last answer (Ctrl+Y)",
                True),
        Command("Select a message to copy", chat.action_select_messages,
                "Ctrl+Up / F2: pick a message, code block or tool output"),
        Command("Export transcript as Markdown", partial(chat.export_transcript, "md"),
                "Write this conversation to a .md file in the working directory", True),
        Command("Export transcript as JSON", partial(chat.export_transcript, "json"),
                "Write this conversation to a .json file in the working directory"),
        Command("What changed", chat.action_what_changed, "Files changed this turn and this session (F8)", True),
        Command("Search prompt history", chat.action_history_search, "Reverse search, as in a shell (Ctrl+R)"),
        Command("Verbose transcript", chat.action_toggle_verbose, "Open every tool card and thinking block (Ctrl+O)"),
        Command("Edit prompt in editor", chat.action_external_editor, "$VISUAL / $EDITOR (Ctrl+G, Ctrl+X Ctrl+E)"),
        Command("Send review", lambda: chat.run_worker(send_review(chat), group="review", exit_on_error=False),
                f"The review tray's {len(session.review)} comment(s) to Claude as one prompt (c on a diff adds one)",
                bool(len(session.review))),
        Command("Review tray", partial(open_tray, chat),
                "Comments on diffs waiting to go to Claude: s sends, d deletes"),
        Command("Toggle sidebar", chat.action_toggle_sidebar, "Tasks, todos and agents (Ctrl+T)"),
        Command("Toggle thinking", chat.action_toggle_thinking, "Open or close the latest thinking block (F9)"),
        Command("Toggle vim mode", chat.prompt_area.prompt.toggle_vim,
                f"Now: {'on' if chat.prompt_area.prompt.vim else 'off'} (/vim; config vim_mode for every start)", True),
        Command("Toggle split diffs", host.action_toggle_split_diffs,
                f"Now: {'side by side' if host.diff_split else 'unified' if host.diff_split is False else 'by width'}"),
        Command("Restart Claude Code", chat.action_restart, "Same session, new process (F5)"),
        Command("Rewind the conversation…", partial(open_rewind, chat),
                "Go back to before one of your prompts: the conversation, the code or both (Esc Esc, /rewind)"),
        Command("Help", host.action_help, "Keys, slash commands, tools, MCP servers (F1)"),
    ]
    if alive:
        for slash, words in (("/compact", "Summarise the conversation to free context"),
                             ("/cost", "Cost and usage of this session")):
            commands.append(Command(f"Send {slash}", partial(chat.prompt_area.send_slash, slash), words, True))
        commands += [Command(*entry) for entry in manage_commands(chat.app, chat.session)]
        if session.options.file_checkpoints:
            commands.append(Command("Rewind files to before the last prompt…", partial(rewind_last_prompt, chat),
                                    "Undo Claude's file changes since then (older prompts: Esc Esc, then 3)", True))
        current_model = current_model_value(conversation.models, status.model, session.options.model)
        for model in conversation.models:
            value = str(model.get("value") or "")
            if not value:
                continue
            name = _first_line(model.get("displayName") or value, 40)
            current = " (current)" if value == current_model else ""
            commands.append(Command(f"Model: {name}{current}", partial(chat.controls.set_model, value),
                                    _first_line(model.get("description"))))
        for mode in available_modes(status, bypass_allowed(session.options)):
            current = " (current)" if mode == status.permission_mode else ""
            commands.append(Command(f"Permission mode: {mode}{current}", partial(chat.controls.set_mode, mode),
                                    MODE_WORDS.get(mode, "")))
    # (Textual's own "Theme" command opens the picker; these jump straight to one.)
    for name in sorted(app.available_themes):
        current = " (current)" if name == app.theme else ""
        commands.append(Command(f"Theme: {name}{current}", partial(setattr, app, "theme", name),
                                "Remembered for next time"))
    return commands


class ChatCommands(Provider):
    """Chat commands that follow the session (models, modes, themes, sessions, export …)."""

    def _commands(self) -> list[Command]:
        host = app_host(self.screen)
        chat = host.chat if host is not None else None
        if chat is None or not chat.is_attached:
            return []
        return chat_commands(chat)

    async def discover(self) -> Hits:
        for command in self._commands():
            if command.discover:
                # Model names and descriptions come from the CLI: the palette parses
                # prompts and help as markup, so they are escaped.
                yield DiscoveryHit(escape(command.text), command.callback, text=command.text,
                                   help=escape(command.help) if command.help else None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.text)
            if score > 0:
                yield Hit(score, highlighted(matcher, command.text), command.callback, text=command.text,
                          help=escape(command.help) if command.help else None)
