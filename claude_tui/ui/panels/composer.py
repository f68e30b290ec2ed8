"""The prompt: a multi-line editor with history and a completion menu for / and @."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, TextArea
from textual.widgets.option_list import Option
from textual.widgets.text_area import Document, Edit, EditResult

from claude_tui.completion import Candidate, dropped_files_mention, mention, rank
from claude_tui.pastes import PasteSlots, collapses
from claude_tui.protocol.sanitize import printable, printable_name, prompt_text, typed_stand_in
from claude_tui.store import PromptHistory
from claude_tui.ui.kit.cell_repaint import CellRepaintTextArea
from claude_tui.ui.kit.keys_in_order import KeysInOrder
from claude_tui.ui.kit.quiet_cursor import QuietCursorTextArea
from claude_tui.ui.panels.vim_prompt import MODE_LABELS, VimKeys
from claude_tui.vim_mode import INSERT

_NEWLINE_KEYS = {"ctrl+j", "shift+enter", "alt+enter", "ctrl+enter"}
_MENU_KEYS = frozenset({"up", "down", "tab", "enter", "escape"})
TYPING_KEYS = frozenset({"enter", "backspace", *_NEWLINE_KEYS})
"""Non-printable keys that are part of typing a prompt (the chat screen forwards them with the text)."""
EDIT_KEYS: dict[str, str] = {binding.key: binding.action for binding in Binding.make_bindings(TextArea.BINDINGS)}
"""The editor's own keys (arrows, Home/End, Delete, Ctrl+W/U/K/Z…) -> their action: a dialog that waits
on top passes them on too (`PromptInput.Typed`), so a draft can be fixed without leaving it."""
_DESCRIPTION_LIMIT = 300
# An @ that starts a word: "deploy@main" is an address, not a mention.
_AT_TOKEN = re.compile(r"(?:^|(?<=\s))@([^\s@]*)$")
_FILES_FRESH_SECONDS = 10.0
"""The project's file list is read again when an @ menu opens after this long (Claude adds files)."""


class PromptInput(KeysInOrder, QuietCursorTextArea, CellRepaintTextArea):
    """Enter sends; Ctrl+J / Alt+Enter / Shift+Enter insert a newline; Up/Down at the edges walk history."""

    DEFAULT_CSS = """
    PromptInput {
        height: auto;
        min-height: 3;
        max-height: 12;
        border: round $primary 60%;

        &:focus {
            border: round $primary;
        }
        /* `!command`: bash mode, as Claude Code marks it (the command runs, it is not sent). */
        &.-bash, &.-bash:focus {
            border: round $warning;
        }
    }
    """

    class Submitted(Message):
        """Enter: `text` is what the prompt held at that key.

        `taken`: the text left the prompt with the Enter, before any later key was applied, so
        each Enter sends exactly what was typed since the one before (a burst of ``a⏎b⏎`` is
        ``a`` and ``b``). False when the prompt cannot send now (`can_send`): the text stays."""

        def __init__(self, text: str, *, taken: bool = True) -> None:
            super().__init__()
            self.text = text
            self.taken = taken

    class Edited(Message):
        """The text or cursor changed: the composer re-checks the completion menu.

        (Not `Changed`: that name is TextArea's own message.)"""

    class EscapedBelow(Message):
        """Esc pressed on a dialog waiting above this prompt: the chat's own Esc (close the
        prompt's menu, else interrupt the turn). Posted to the prompt, so it keeps its place
        among the keys typed on into it, and bubbles up to the chat that owns the turn."""

    class ClearAsked(Message):
        """Ctrl+L pressed on a dialog waiting above this prompt: the chat's Ctrl+L (empty the prompt,
        the text kept in the history). Posted to the prompt, so it comes after the keys typed before
        it, and bubbles up to the chat, whose binding a modal on top keeps from the key itself."""

    class Typed(Message, bubble=False):
        """A key (or a paste) typed while a dialog waits on top, for this prompt.

        Posted to the prompt itself, so it is applied in the prompt's own queue, after any key
        already queued for it: what was typed before the dialog appeared is never overtaken."""

        def __init__(self, key: str, character: str | None, paste: str | None = None) -> None:
            super().__init__()
            self.key = key
            self.character = character
            self.paste = paste

    def __init__(self, history: PromptHistory | None = None, *, project_root: Path | None = None,
                 can_send: Callable[[], bool] | None = None, take_queued: Callable[[], bool] | None = None,
                 **kwargs: object) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)
        # Not `history`: TextArea uses that name for its undo history.
        self.prompt_history = history
        self.menu: CompletionMenu | None = None
        self.project_root = project_root
        """Dropped files under it are mentioned by relative path."""
        self.can_send = can_send
        """The owner's say: whether Enter can send now (when not, the text stays in the prompt)."""
        self._given_back_end = 0
        """Where the next text given back goes (after the ones before it: a burst keeps its order)."""
        self.pastes = PasteSlots()
        """The texts behind the `[Pasted text #N …]` placeholders of large pastes (the view sends them)."""
        self.take_queued = take_queued
        """The owner's: Up on an empty prompt takes the prompts held for the turn's end back
        into it (True if there were any), before the history."""
        self.recalled: str | None = None
        """The history entry Up/Down last put here: while the text is still it, Up/Down go on
        walking the history (a recalled "/command" opens no menu to take them), as in Claude Code."""
        self.menu_refresh: Callable[[], None] | None = None
        """Set by the composer: brings the menu up to the text now (its own update lags a burst)."""
        self.vim: VimKeys | None = None
        """Vim mode (`/vim`, the palette, config `vim_mode`): None when off."""

    def toggle_vim(self) -> None:
        self.set_vim(self.vim is None)
        self.notify("Vim mode on: Esc for normal mode, i to insert; Enter sends in either mode." if self.vim
                    else "Vim mode off.", timeout=4)

    def set_vim(self, on: bool) -> None:
        if on == (self.vim is not None):
            return
        if on:
            self.vim = VimKeys(self, self._show_vim_mode)
        else:
            self.vim = None
            self.border_subtitle = ""

    def _show_vim_mode(self, mode: str) -> None:
        self.border_subtitle = MODE_LABELS[mode]

    def submit(self) -> None:
        """Enter: the text leaves the prompt now, in this key's turn, and goes to the view.

        Cleared here, not when the send is done: keys after the Enter are already queued behind it,
        and a prompt still holding the sent text made the next Enter send it again ("a", "ab")."""
        text = self.text
        if not text.strip():
            return
        if self.can_send is not None and not self.can_send():
            self.post_message(self.Submitted(text, taken=False))
            return
        self._given_back_end = 0
        self.clear()  # an edit: the cursor goes to the start of what is typed next, undo can bring it back
        self.post_message(self.Submitted(text))

    def give_back(self, text: str) -> None:
        """A submitted text that could not be sent goes back in front of what was typed since (and
        after texts given back before it), on a line of its own; the cursor stays in the new text."""
        document = self.document
        assert isinstance(document, Document)
        current = self.text
        at = min(self._given_back_end, len(current))
        before, after = current[:at], current[at:]
        lead = "\n" if before and not before.endswith("\n") else ""
        piece = lead + text + ("\n" if after and not after.startswith("\n") else "")
        self.insert(piece, document.get_location_from_index(at))
        self._given_back_end = at + len(lead) + len(prompt_text(text))

    def walking_history(self) -> bool:
        return self.recalled is not None and self.text == self.recalled

    def delete_first(self, count: int) -> None:
        """Delete the first `count` characters as an edit: the cursor and the text after them stay put."""
        document = self.document
        assert isinstance(document, Document)  # TextArea's own kind (a syntax-aware one is one too)
        self.delete((0, 0), document.get_location_from_index(count))

    # Everything that enters the document (typing, a paste, a completion, history, a draft, undo)
    # comes through `edit` or `load_text`: the document never holds a control character, only its
    # visible stand-in, so what the box shows is exactly what is sent.

    def edit(self, edit: Edit) -> EditResult:
        edit.text = prompt_text(edit.text)
        return super().edit(edit)

    def load_text(self, text: str) -> None:
        super().load_text(prompt_text(text))

    async def _on_paste(self, event: events.Paste) -> None:
        # A file dragged onto the terminal arrives as a pasted path: make it an @ mention, which
        # Claude Code reads (images included). Anything else is pasted as it is.
        # (Not calling super: Textual dispatches TextArea's own _on_paste next unless prevented.)
        if self.read_only:
            return
        mention = dropped_files_mention(event.text, self.project_root or Path.cwd())
        if mention is None and not collapses(event.text):
            return
        event.stop()
        event.prevent_default()
        if mention is None:
            self._paste(event.text)
        else:
            self._type_over_selection(mention)

    def _paste(self, text: str) -> None:
        """A paste: a large one stands as its placeholder (Claude Code's `[Pasted text #1 +300 lines]`),
        the whole text kept (sanitized as typing would be) to be sent."""
        if collapses(text):
            text = self.pastes.placeholder(prompt_text(text))
        self._type_over_selection(text)

    def insert_text(self, text: str) -> None:
        """Put `text` where the selection is, as typed (a placeholder the view makes)."""
        self._type_over_selection(text)

    def sent_text(self, text: str) -> str:
        """What `text` from this prompt means: its paste placeholders replaced by their pastes."""
        return self.pastes.expand(text)

    async def _on_key(self, event: events.Key) -> None:
        menu = self.menu
        if menu is not None and menu.display and self.walking_history():
            menu.close()  # a recalled entry is not being typed: its keys walk on
        if menu is not None and menu.display and event.key in _MENU_KEYS and self.menu_refresh is not None:
            # The menu follows `Edited`, handled after the keys of a burst: "/vim⏎" in one write
            # found the menu still ranked for "/" and Enter accepted its first entry.
            self.menu_refresh()
        if menu is not None and menu.display:
            if event.key in ("up", "down"):
                event.stop()
                event.prevent_default()
                menu.action_cursor_up() if event.key == "up" else menu.action_cursor_down()
                return
            if event.key == "enter" and menu.exact_match_highlighted():
                # "/context" fully typed: Enter sends it rather than completing it again.
                menu.close()
            elif event.key in ("tab", "enter"):
                event.stop()
                event.prevent_default()
                menu.accept()
                return
            if event.key == "escape":
                event.stop()
                event.prevent_default()
                menu.close()
                return
        if (self.vim is not None and event.key != "enter" and event.key not in _NEWLINE_KEYS
                and not self.read_only and self.vim.key(event.key, event.character)):
            event.stop()
            event.prevent_default()
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.submit()
            return
        if event.key in _NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if event.key in ("up", "down") and self._walk_history(event.key):
            event.stop()
            event.prevent_default()
            return
        if (stand_in := typed_stand_in(event.character)) is not None:
            # TextArea drops a character that is not printable; a bidi or zero-width one typed is
            # shown (and sent) as its stand-in, as the log shows it.
            event.stop()
            event.prevent_default()
            self._type_over_selection(stand_in)
            return
        await super()._on_key(event)

    def _walk_history(self, key: str) -> bool:
        """Up on the first line / Down on the last: the previous / next prompt. False if there is none."""
        if key == "up" and not self.text and self.take_queued is not None and self.take_queued():
            return True
        if self.prompt_history is None:
            return False
        if key == "up" and self.cursor_location[0] == 0:
            found = self.prompt_history.previous(self.text)
        elif key == "down" and self.cursor_location[0] == self.document.line_count - 1:
            found = self.prompt_history.next()
        else:
            return False
        if found is None:
            return False
        self.recalled = found
        self._replace_all(found)
        return True

    @on(Typed)
    async def _typed(self, message: Typed) -> None:
        if self.read_only:
            return
        if message.paste is not None:
            self._paste(message.paste)
        elif message.key == "backspace" and (self.vim is None or self.vim.mode == INSERT):
            self.action_delete_left()
        elif message.key in EDIT_KEYS and message.key not in TYPING_KEYS and not self._menu_takes(message.key):
            # An editing key: what its binding would do if the prompt had focus (Up/Down at an
            # edge walk the history first, as they do when typed here).
            if not (message.key in ("up", "down") and self._walk_history(message.key)):
                await self.run_action(EDIT_KEYS[message.key])
        else:  # the prompt's own handling: Enter sends, Ctrl+J adds a line, the menu, letters are inserted
            await self._on_key(events.Key(message.key, message.character))

    def _type_over_selection(self, text: str) -> None:
        """Put `text` where the selection is, as typing or a paste would (one undo step, `Changed`
        posted, the cursor after it); nothing in read-only mode."""
        if self.read_only:
            return
        result = self.replace(text, *self.selection, maintain_selection_offset=False)
        self.move_cursor(result.end_location)

    def _menu_takes(self, key: str) -> bool:
        """Up/Down move in an open completion menu instead of the cursor (not while walking the history)."""
        return key in ("up", "down") and self.menu is not None and bool(self.menu.display) \
            and not self.walking_history()

    def _replace_all(self, text: str) -> None:
        self.text = text
        self.move_cursor(self.document.end)

    @on(TextArea.Changed)
    def _changed(self) -> None:
        self.post_message(self.Edited())

    @on(TextArea.SelectionChanged)
    def _moved(self) -> None:
        self.post_message(self.Edited())


class CompletionMenu(OptionList):
    """Shown above the prompt while a `/command` or `@path` token is being typed."""

    DEFAULT_CSS = """
    CompletionMenu {
        height: auto;
        max-height: 10;
        /* One line per entry: long descriptions end in "…" (OptionList draws through Content,
           which takes wrapping from the styles, not from Text.no_wrap). */
        text-wrap: nowrap;
        text-overflow: ellipsis;
        border: round $accent;
        background: $surface;
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]  # OptionList's keywords, passed on as given
        self.display = False
        self.can_focus = False
        self._candidates: list[Candidate] = []
        self.on_accept: Callable[[Candidate], None] | None = None  # set by the composer

    def show(self, candidates: list[Candidate], sigil: str) -> None:
        self._candidates = candidates
        self.clear_options()
        if not candidates:
            self.display = False
            return
        options = []
        for candidate in candidates:
            # One row per candidate: a file named "new\nline.txt" shows as new␊line.txt.
            label = Text(sigil + printable_name(candidate.value), style="bold")
            if candidate.hint:
                label.append(" " + printable_name(candidate.hint), style="dim")
            lines = candidate.description.strip().splitlines()
            if lines:  # its first line, cut early only to bound the work: the width decides the rest
                label.append("  " + printable(lines[0])[:_DESCRIPTION_LIMIT], style="dim italic")
            options.append(Option(label))
        self.add_options(options)
        self.highlighted = 0
        self.display = True

    def close(self) -> None:
        self.display = False

    def exact_match_highlighted(self) -> bool:
        index = self.highlighted
        return index is not None and 0 <= index < len(self._candidates) and \
            self._candidates[index].value == self.query_text

    query_text = ""
    """What the user has typed after the sigil (set by the composer)."""

    def accept(self) -> None:
        index = self.highlighted
        if index is not None and 0 <= index < len(self._candidates) and self.on_accept is not None:
            self.on_accept(self._candidates[index])
        self.close()

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.highlighted = event.option_index
        self.accept()


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
