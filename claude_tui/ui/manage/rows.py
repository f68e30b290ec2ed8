"""The list of rows a manage screen acts on (/mcp's servers, /permissions' rules): a widget the screen
composes, not a base class of the screen."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList
from textual.widgets.option_list import Option


class RowList(OptionList):
    """Options, each standing for a row (None: a heading); the highlight stays on the same place
    across answers, and `current` is the highlighted row."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Any] = []

    def show_rows(self, options: list[Option], rows: list[Any], *, focus: bool = True) -> None:
        keep = self.highlighted
        self.clear_options()
        self.add_options(options)
        self.rows = rows
        chosen = [i for i, row in enumerate(rows) if row is not None]
        if chosen:
            self.highlighted = keep if keep is not None and keep in chosen else (
                max((i for i in chosen if keep is not None and i <= keep), default=chosen[0]))
        if focus:
            self.focus()

    @property
    def current(self) -> Any:
        index = self.highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None
