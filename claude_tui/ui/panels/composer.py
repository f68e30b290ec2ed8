"""The prompt and its completion menu for / and @: the composer that ranks and fills the menu."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from claude_tui.completion import Candidate, mention, rank
from claude_tui.protocol.sanitize import printable_name
from claude_tui.store import PromptHistory
from claude_tui.ui.panels.completion_menu import CompletionMenu
from claude_tui.ui.panels.prompt_input import PromptInput

# An @ that starts a word: "deploy@main" is an address, not a mention.
_AT_TOKEN = re.compile(r"(?:^|(?<=\s))@([^\s@]*)$")
_FILES_FRESH_SECONDS = 10.0
"""The project's file list is read again when an @ menu opens after this long (Claude adds files)."""


class Composer(Vertical):
    """Prompt + completion menu. Slash commands and files are supplied by the screen."""

    DEFAULT_CSS = """
    Composer {
        height: auto;
        overflow: hidden hidden;
        max-height: 16;
    }
    """

    def __init__(self, history: PromptHistory | None = None, id: str | None = None, *,
                 project_root: Path | None = None, can_send: Callable[[], bool] | None = None,
                 take_queued: Callable[[], bool] | None = None) -> None:
        super().__init__(id=id)
        self.history = history
        # Made here, not in compose: the owner reads the prompt (its draft) until it unmounts.
        self.menu = CompletionMenu(id="completion-menu")
        self.prompt = PromptInput(history=history, project_root=project_root, can_send=can_send,
                                  take_queued=take_queued, id="prompt")
        self.slash: list[Candidate] = []
        self.files: list[str] | None = None
        self._files_read_at = 0.0
        self._menu_for: tuple[str, str, object] | None = None
        """What the open menu was ranked for (sigil, query, candidate list): the same again is not re-ranked."""

    class FilesWanted(Message):
        """An @ is being completed and the file list is missing or old: whoever knows the
        project reads it (in the background) and hands it back with `set_files`."""

    def compose(self) -> ComposeResult:
        menu, prompt = self.menu, self.prompt
        prompt.menu = menu
        prompt.menu_refresh = self._update_menu
        menu.on_accept = self._accept
        yield menu
        yield prompt

    def _token(self) -> tuple[str, str] | None:
        """The token being completed: ("/", query) or ("@", query)."""
        prompt = self.prompt
        row, column = prompt.cursor_location
        line = prompt.document.get_line(row)[:column]
        if row == 0 and line.startswith("/") and " " not in line:
            return "/", line[1:]
        match = _AT_TOKEN.search(line)
        if match:
            return "@", match.group(1)
        return None

    @on(PromptInput.Edited)
    def _update_menu(self) -> None:
        token = self._token()
        if token is None or self.prompt.walking_history():
            self._menu_for = None
            self.menu.close()
            return
        sigil, query = token
        if sigil == "@" and (
                self.files is None
                or (self._menu_for is None  # the menu is opening, not being typed in
                    and time.monotonic() - self._files_read_at > _FILES_FRESH_SECONDS)):
            if self.files is None:
                self.files = []
            self._files_read_at = time.monotonic()  # the old list serves until the new one arrives
            self.post_message(self.FilesWanted())
        # Every key and cursor move lands here; ranking up to 20,000 paths again when the
        # token and the candidates are the same would make typing lag. (So the menu also stays
        # closed after Esc while the cursor moves within the token: nothing was re-ranked.)
        source = self.slash if sigil == "/" else self.files
        shown = self._menu_for
        if shown is not None and shown[:2] == (sigil, query) and shown[2] is source:
            return
        self._menu_for = (sigil, query, source)
        self.menu.query_text = query
        if sigil == "/":
            self.menu.show(rank(query, self.slash, limit=30), "/")
        else:
            candidates = (Candidate(path) for path in self.files or [])
            self.menu.show(rank(query, candidates, limit=30), "@")

    def set_files(self, files: list[str]) -> None:
        self.files = files
        self._update_menu()

    def _accept(self, candidate: Candidate) -> None:
        token = self._token()
        if token is None:
            return
        sigil, query = token
        prompt = self.prompt
        row, column = prompt.cursor_location
        start = (row, column - len(query) - 1)
        # The name as the menu showed it: never a raw control (or a newline) from a file name.
        value = printable_name(candidate.value)
        replacement = (mention(value) if sigil == "@" else sigil + value) + " "
        prompt.replace(replacement, start, (row, column))
