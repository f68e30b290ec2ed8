"""The menu above the prompt while a `/command` or `@path` token is typed (the composer fills it)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from claude_tui.completion import Candidate
from claude_tui.protocol.sanitize import printable, printable_name

_DESCRIPTION_LIMIT = 300


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
