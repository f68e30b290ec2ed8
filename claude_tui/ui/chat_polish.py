"""ChatScreen's everyday extras: new/fork session, copy, export, find, message selection, slash shortcuts.

A mixin so the chat screen module stays about the conversation itself. Its
message handlers use Textual's naming convention (`on_find_bar_moved`), which
works from a plain mixin; the key bindings live in `ChatScreen.BINDINGS`.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_tui import paths
from claude_tui.protocol.sanitize import clipboard_text, printable
from claude_tui.session.export import code_blocks, find_items, item_text, last_answer, to_json, to_markdown, tool_output
from claude_tui.session.items import Item, NoteItem, TextItem, ThinkingItem, ToolItem, UserItem

if TYPE_CHECKING:
    from textual.widget import Widget

    from claude_tui.ui.screens.chat import ChatScreen
    from claude_tui.ui.widgets.chat_log import ChatLog
    from claude_tui.ui.widgets.find_bar import FindBar
    from claude_tui.ui.widgets.select_bar import SelectBar

FIND_CLASS = "-find-current"
SELECT_CLASS = "-selected"
FIND_CONTEXT_LINES = 2  # lines shown above a match found inside a long message


def line_showing(widget: Widget, needle: str) -> int | None:
    """The first of `widget`'s own lines showing `needle` (case-insensitive), as drawn; None if none does.

    Lines as drawn: a wrapped match (or one split by Markdown styling) is not found, and the
    caller keeps the message's top in view.
    """
    folded = needle.strip().casefold()
    if not folded:
        return None
    for y in range(widget.size.height):
        if folded in widget.render_line(y).text.casefold():
            return y
    return None


def describe_item(item: Item) -> str:
    """A one-line label for a selected item."""
    if isinstance(item, UserItem):
        kind, text = "You", item.text
    elif isinstance(item, TextItem):
        kind, text = "Claude", item.text
    elif isinstance(item, ThinkingItem):
        kind, text = "Thinking", item.text
    elif isinstance(item, ToolItem):
        kind, text = f"Tool {item.name}", item_text(item)
    elif isinstance(item, NoteItem):
        kind, text = "Note", item_text(item)
    else:
        kind, text = "Item", ""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return printable(f"{kind}: {first[:100]}")


class ChatPolish:
    """Mixed into ChatScreen (which provides conversation, connection, options, tui …)."""

    _code_cycle: tuple[str, int] = ("", 0)
    turn_started_at: float | None = None
    initialize_response: dict[str, Any] | None = None
    """The CLI's whole initialize response (agents with descriptions, version …) for the help screen."""

    # -- helpers ------------------------------------------------------------------------
    def _me(self) -> ChatScreen:
        return self  # type: ignore[return-value]

    def item_by_id(self, item_id: str) -> Item | None:
        for item in reversed(self._me().conversation.items):
            if item.id == item_id:
                return item
        return None

    def copy_text(self, text: str, what: str) -> bool:
        screen = self._me()
        # What the clipboard will hold (App.copy_to_clipboard cleans every copy): count that.
        text = clipboard_text(text)
        if not text:
            screen.notify(f"Nothing to copy: {what} is empty.", severity="warning")
            return False
        screen.app.copy_to_clipboard(text)
        lines = text.count("\n") + 1
        screen.notify(f"Copied {what} ({len(text):,} characters, {lines:,} line{'s' if lines != 1 else ''}).",
                      timeout=3)
        return True

    # -- sessions -------------------------------------------------------------------------
    async def _replace_session(self, options: Any, conversation: Any) -> None:
        from claude_tui.ui.screens.chat import ChatScreen

        screen = self._me()
        app = screen.tui
        await screen.shutdown()
        app.options = options
        await app.install_chat(screen, ChatScreen(options, conversation, screen.debug_log))

    async def new_session(self) -> None:
        """Restart Claude Code without --resume: a fresh session and an empty log."""
        screen = self._me()
        options = replace(screen.options, resume=None, continue_session=False, fork_session=False,
                          env=dict(screen.options.env))
        await self._replace_session(options, None)

    async def fork_session(self) -> None:
        """Restart with --resume <this session> --fork-session: same history, a new session id."""
        from claude_tui.resume import begin_fork

        screen = self._me()
        session_id = screen.conversation.status.session_id
        if not session_id:
            screen.notify("Nothing to fork yet: the session has no id.", severity="warning")
            return
        options = replace(screen.options, resume=session_id, continue_session=False, fork_session=True,
                          env=dict(screen.options.env))
        begin_fork(screen.conversation, session_id)
        await self._replace_session(options, screen.conversation)

    async def send_slash(self, command: str) -> None:
        """Send `/command` the way a prompt is sent; the draft in the prompt is left alone."""
        await self._me().send_prompt(command)

    # -- copy -------------------------------------------------------------------------------
    def action_copy_last_answer(self) -> None:
        answer = last_answer(self._me().conversation.items)
        if answer is None:
            self._me().notify("No answer to copy yet.", severity="warning")
            return
        self.copy_text(answer.text, "the last answer")

    def copy_item(self, item_id: str, what: str) -> None:
        item = self.item_by_id(item_id)
        if item is None:
            return
        if what == "code":
            blocks = code_blocks(item.text if isinstance(item, (TextItem, UserItem)) else "")
            if not blocks:
                self._me().notify("This message has no code block.", severity="warning")
                return
            last_id, last_index = self._code_cycle
            index = (last_index + 1) % len(blocks) if last_id == item_id else 0
            self._code_cycle = (item_id, index)
            self.copy_text(blocks[index], f"code block {index + 1} of {len(blocks)}")
        elif what == "output":
            if not isinstance(item, ToolItem):
                self._me().notify("Only tool calls have an output.", severity="warning")
                return
            self.copy_text(tool_output(item), f"the {item.name} output")
        else:
            self.copy_text(item_text(item), "the message")

    # -- export -------------------------------------------------------------------------------
    def export_transcript(self, fmt: str = "md") -> Path | None:
        screen = self._me()
        conversation = screen.conversation
        if not conversation.items:
            screen.notify("Nothing to export yet.", severity="warning")
            return None
        status = conversation.status
        text = to_json(conversation.items, status) if fmt == "json" else to_markdown(conversation.items, status)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        name = f"claude-session-{status.short_session_id or 'new'}-{stamp}.{'json' if fmt == 'json' else 'md'}"
        for folder in (Path(screen.options.cwd or "."), paths.data_path() / "exports"):
            target = folder / name
            try:
                # The project folder keeps its own permissions; our fallback dir stays private.
                paths.atomic_write_text(target, text, private=folder != Path(screen.options.cwd or "."))
            except OSError:
                continue
            screen.notify(f"Exported the transcript to {printable(str(target.resolve()))}", timeout=8)
            return target
        screen.notify("Could not write the export file.", severity="error")
        return None

    # -- highlight + reveal -------------------------------------------------------------------
    async def reveal_item(self, item_id: str | None, css_class: str, needle: str = "") -> None:
        """Mark `item_id`'s widget and scroll to it; with `needle`, to its first line showing it."""
        from claude_tui.ui.widgets.chat_log import ChatLog

        log = self._me().query_one(ChatLog)
        for widget in log.query(f".{css_class}"):
            widget.remove_class(css_class)
        if item_id is None:
            return
        widget = await log.reveal(item_id)
        if widget is None:
            return
        widget.add_class(css_class)
        log.call_after_refresh(self._scroll_to_match, log, widget, needle)

    def _scroll_to_match(self, log: ChatLog, widget: Widget, needle: str, top: bool = True, tries: int = 0) -> None:
        """Scroll to `widget` (its top, with `top`); in a message taller than the log, to its line showing `needle`."""
        if needle and not widget.size.height and widget.is_mounted and tries < 5:
            # Not laid out yet: its lines are unknown.
            log.call_after_refresh(self._scroll_to_match, log, widget, needle, top, tries + 1)
            return
        if top:
            log.scroll_to_widget(widget, animate=False, top=True)
        # A long answer's top can be hundreds of lines above the match: show the match.
        tall = widget.size.height > log.scrollable_content_region.height
        line = line_showing(widget, needle) if tall and widget.parent is log else None
        if line is not None:
            log.scroll_to(y=widget.virtual_region.y + max(0, line - FIND_CONTEXT_LINES), animate=False)

    # -- find ------------------------------------------------------------------------------------
    def _find_bar(self) -> FindBar:
        from claude_tui.ui.widgets.composer import Composer
        from claude_tui.ui.widgets.find_bar import FindBar

        screen = self._me()
        bars = screen.query(FindBar)
        if bars:
            return bars.first()
        bar = FindBar()
        bar.search = lambda query: find_items(screen.conversation.items, query)
        screen.mount(bar, before=screen.query_one(Composer))
        return bar

    def action_find(self) -> None:
        bar = self._find_bar()
        self._me().call_after_refresh(bar.open)

    def find_at(self, query: str, turn: int | None = None) -> None:
        """Open find on ``query`` at its first match in ``turn`` (0-based; a session search hit's turn).

        Session search matches words, find matches the text: when the whole query is not in the
        log as typed, its longest word is looked for instead.
        """
        items = self._me().conversation.items
        words = re.findall(r"\w[\w.-]*", query)
        needle = query.strip()
        if not find_items(items, needle) and words:
            needle = max(words, key=len)
        found = set(find_items(items, needle))
        in_order: list[tuple[int, str]] = []  # (turn, id) of the matches, in log order
        prompts = -1
        for item in items:
            prompts += isinstance(item, UserItem)
            if item.id in found:
                in_order.append((prompts, item.id))
        target = next((item_id for at, item_id in in_order if turn is None or at >= turn),
                      in_order[0][1] if in_order else None)
        bar = self._find_bar()

        def show() -> None:
            bar.open(needle)
            if target is not None:
                bar.run_search(keep=target)

        self._me().call_after_refresh(show)

    def action_find_next(self) -> None:
        bar = self._find_bar()
        if bar.display and bar.query:
            bar.action_next()
        else:
            self._me().call_after_refresh(bar.open)

    async def on_find_bar_moved(self, message: FindBar.Moved) -> None:
        await self.reveal_item(message.item_id, FIND_CLASS, message.bar.query)

    def on_find_bar_narrowed(self, message: FindBar.Narrowed) -> None:
        from claude_tui.ui.widgets.chat_log import ChatLog

        log = self._me().query_one(ChatLog)
        widget = log.widget_for_item(message.item_id)
        if widget is not None:
            self._scroll_to_match(log, widget, message.bar.query, top=False)

    async def on_find_bar_closed(self, message: FindBar.Closed) -> None:
        await self.reveal_item(None, FIND_CLASS)
        self._focus_prompt()

    def _focus_prompt(self) -> None:
        from claude_tui.ui.widgets.composer import Composer

        self._me().query_one(Composer).prompt.focus()

    # -- message selection --------------------------------------------------------------------------
    def action_select_messages(self) -> None:
        from claude_tui.ui.widgets.composer import Composer
        from claude_tui.ui.widgets.select_bar import SelectBar

        screen = self._me()
        bars = screen.query(SelectBar)
        bar = bars.first() if bars else None
        if bar is None:
            bar = SelectBar()
            bar.describe = self._describe_id
            screen.mount(bar, before=screen.query_one(Composer))
        ids = [item.id for item in screen.conversation.items]
        screen.call_after_refresh(bar.open, ids)

    def _describe_id(self, item_id: str) -> str:
        item = self.item_by_id(item_id)
        return describe_item(item) if item is not None else ""

    async def on_select_bar_moved(self, message: SelectBar.Moved) -> None:
        await self.reveal_item(message.item_id, SELECT_CLASS)

    def on_select_bar_copy_requested(self, message: SelectBar.CopyRequested) -> None:
        self.copy_item(message.item_id, message.what)

    def on_select_bar_rewind_requested(self, message: SelectBar.RewindRequested) -> None:
        from claude_tui.ui.rewind import start_rewind

        item = self.item_by_id(message.item_id)
        if not isinstance(item, UserItem):
            self._me().notify("Select one of your prompts to rewind files to before it.", severity="warning")
            return
        start_rewind(self._me(), item)

    def rewind_last_prompt(self) -> None:
        from claude_tui.ui.rewind import last_rewindable_prompt, start_rewind

        start_rewind(self._me(), last_rewindable_prompt(self._me()))

    async def on_select_bar_closed(self, message: SelectBar.Closed) -> None:
        await self.reveal_item(None, SELECT_CLASS)
        self._focus_prompt()

    # -- split diffs ----------------------------------------------------------------------------------
    def action_toggle_split_diffs(self) -> None:
        from claude_tui.ui.state import save_state
        from claude_tui.ui.widgets.diff_view import DiffView

        app = self._me().tui
        split = not bool(getattr(app, "diff_split", None))
        app.diff_split = split
        for screen in app.screen_stack:
            for view in screen.query(DiffView):
                view.split = split
        save_state({"split_diffs": split})
        self._me().notify(f"Diffs: {'side by side' if split else 'unified'}.", timeout=3)

    # -- "?" on an empty prompt -------------------------------------------------------------------------
    _prompt_before = ""

    def on_prompt_input_edited(self, message: Any) -> None:
        from claude_tui.ui.widgets.composer import Composer

        prompt = self._me().query_one(Composer).prompt
        text = prompt.text
        if text == "?" and self._prompt_before == "":
            prompt.text = ""
            self._prompt_before = ""
            self._me().tui.action_help()
            return
        self._prompt_before = text

    # -- long-turn notifications -------------------------------------------------------------------------
    def turn_duration(self) -> float | None:
        """Seconds since the turn now ending started (and start timing the next one if it continues)."""
        started = self.turn_started_at
        now = time.monotonic()
        self.turn_started_at = now if self._me().busy else None
        return None if started is None else now - started
