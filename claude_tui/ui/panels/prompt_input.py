"""The prompt box: a multi-line editor with history, bash and vim modes, and the keys a waiting dialog
passes on to it (`PromptInput.Typed`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import events, on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import TextArea
from textual.widgets.text_area import Document, Edit, EditResult

from claude_tui.completion import dropped_files_mention
from claude_tui.pastes import PasteSlots, collapses
from claude_tui.protocol.sanitize import prompt_text, typed_stand_in
from claude_tui.store import PromptHistory
from claude_tui.ui.kit.cell_repaint import CellRepaintTextArea
from claude_tui.ui.kit.keys_in_order import KeysInOrder
from claude_tui.ui.kit.quiet_cursor import QuietCursorTextArea
from claude_tui.ui.panels.completion_menu import CompletionMenu
from claude_tui.ui.panels.vim_prompt import MODE_LABELS, VimKeys
from claude_tui.vim_mode import INSERT

_NEWLINE_KEYS = {"ctrl+j", "shift+enter", "alt+enter", "ctrl+enter"}
_MENU_KEYS = frozenset({"up", "down", "tab", "enter", "escape"})
TYPING_KEYS = frozenset({"enter", "backspace", *_NEWLINE_KEYS})
"""Non-printable keys that are part of typing a prompt (the chat screen forwards them with the text)."""
EDIT_KEYS: dict[str, str] = {binding.key: binding.action for binding in Binding.make_bindings(TextArea.BINDINGS)}
"""The editor's own keys (arrows, Home/End, Delete, Ctrl+W/U/K/Z…) -> their action: a dialog that waits
on top passes them on too (`PromptInput.Typed`), so a draft can be fixed without leaving it."""


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
