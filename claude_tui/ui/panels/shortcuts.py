"""`?` on an empty prompt: the shortcuts, shown under the prompt as in Claude Code.

Not a screen: the prompt keeps the focus, so whatever is typed next goes into the prompt (and
folds the list away). Esc or `?` on the empty prompt again fold it too; F1 has the whole help.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from claude_tui.protocol.sanitize import printable_name


class ShortcutsPanel(Static):
    DEFAULT_CSS = """
    ShortcutsPanel {
        height: auto;
        max-height: 12;
        display: none;
        padding: 0 2;
        color: $text-muted;
    }
    """

    def show_rows(self, rows: list[tuple[str, str]], width: int) -> None:
        """`rows` of (keys, what they do), laid out in as many columns as `width` holds."""
        self.rows = list(rows)
        cell = max((len(k) + len(d) + 4 for k, d in rows), default=20)
        columns = max(1, min(3, width // max(cell, 1)))
        table = Table.grid(padding=(0, 3))
        for _ in range(columns):
            table.add_column()
        per_column = -(-len(rows) // columns)
        for line in range(per_column):
            cells = []
            for column in range(columns):
                index = column * per_column + line
                if index < len(rows):
                    keys, what = rows[index]
                    cells.append(Text.assemble((printable_name(keys), "bold"), " ", printable_name(what)))
                else:
                    cells.append(Text(""))
            table.add_row(*cells)
        self.update(table)
        self.display = True

    rows: list[tuple[str, str]] = []

    def text(self) -> str:
        """The rows shown, as plain text (for tests and screen readers)."""
        return "\n".join(f"{keys}  {what}" for keys, what in self.rows)

    def hide(self) -> None:
        self.display = False
