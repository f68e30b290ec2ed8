"""The session browser's table: cell rendering, fuzzy title matching, sorting, column layout.

Every title, branch, path and snippet comes from a transcript, so cells are
``rich.text.Text`` built from :func:`printable` text (DataTable parses plain
``str`` cells as markup, so no ``str`` ever reaches it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from claude_tui.history.index import SessionRow
from claude_tui.history.search import SearchHit
from claude_tui.protocol import units
from claude_tui.protocol.sanitize import one_line, printable


def project_label(row: SessionRow) -> str:
    """The last part of the session's working directory (else its project dir name)."""
    if row.cwd:
        name = row.cwd.rstrip("/\\").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
        return one_line(name or row.cwd)
    return one_line(row.project.lstrip("-")) or row.project


# ---------------------------------------------------------------------------- the table


@dataclass(slots=True)
class Listing:
    """What the table shows: rows in order, filter matches (positions in the title), search hits."""

    rows: list[SessionRow]
    positions: dict[str, list[int]] = field(default_factory=dict)  # path → matched title chars
    hits: dict[str, list[SearchHit]] | None = None  # path → hits (search mode only)
    all_projects: bool = False
    depths: dict[str, int] = field(default_factory=dict)  # path → depth in the fork tree (absent: 0)


# (key, label, fixed width or None for a share of what is left, share, right-aligned)
Column = tuple[str, str, "int | None", int, bool]
_LIST_COLUMNS: tuple[Column, ...] = (
    ("title", "Title", None, 1, False), ("project", "Project", 14, 0, False), ("branch", "Branch", 12, 0, False),
    ("active", "Last active", 13, 0, False), ("messages", "Msgs", 5, 0, True), ("cost", "Cost", 7, 0, True))
_SEARCH_COLUMNS: tuple[Column, ...] = (
    ("title", "Title", None, 2, False), ("match", "Match", None, 3, False), ("project", "Project", 14, 0, False),
    ("active", "Last active", 13, 0, False))
FORK_MARK = "\u21b3"  # ↳
PAGE = 200
"""Rows are added to the DataTable a page at a time (and more as the cursor or scroll nears the end):
adding and measuring every row of a 5,000-session listing on each keystroke would make filtering lag."""
MIN_TITLE = 24
"""Optional columns are dropped (in :data:`_DROP_ORDER`) until the title gets at least this width."""
_DROP_ORDER = ("branch", "cost", "project", "messages")
_SIZED = ("messages", "cost", "active")
"""Columns as wide as their widest cell (their fixed width is the least): a number is never cut."""


class SessionTable(DataTable[Text]):
    """A row-cursor DataTable whose flexible columns share the width left by the fixed ones.

    :attr:`listing` holds every row; only the first pages are in the DataTable (see :data:`PAGE`).

    In the current-project scope every row has the same project, so that column
    only appears for all projects; narrow tables drop optional columns first.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"session-table--match", "session-table--dim", "session-table--named"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Resume", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
    ]

    def __init__(self, now: Callable[[], float], *, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, cursor_foreground_priority="renderable",
                         id=id)
        self.now = now
        self._listing = Listing([])
        self._layout: tuple[tuple[Column, int], ...] = ()
        self._keys: dict[str, RowKey] = {}
        self._cell_cache: dict[str, tuple[tuple[object, ...], dict[str, Text]]] = {}

    @property
    def search_mode(self) -> bool:
        return self._listing.hits is not None

    def _widths(self, spec: tuple[Column, ...]) -> tuple[tuple[Column, int], ...]:
        total = self.scrollable_content_region.width or max(0, self.size.width - 1)
        pad = 2 * self.cell_padding
        fixed = sum(c[2] + pad for c in spec if c[2] is not None)
        flex = [c for c in spec if c[2] is None]
        left = total - fixed - pad * len(flex)
        shares = sum(c[3] for c in flex)
        out: list[tuple[Column, int]] = []
        given = 0
        for column in spec:
            if column[2] is not None:
                out.append((column, column[2]))
                continue
            size = left * column[3] // shares if column is not flex[-1] else left - given
            given += size
            out.append((column, size))
        return tuple(out)

    def _content_width(self, key: str) -> int:
        rows = self._listing.rows
        if not rows:
            return 0
        if key == "messages":
            return len(f"{max(row.message_count or 0 for row in rows):,}")
        if key == "cost":
            return max(len(units.cost(row.cost_usd)) for row in rows)
        now = self.now()
        return max(len(units.ago(row.last_active, now)) for row in rows)

    def _compute_layout(self) -> tuple[tuple[Column, int], ...]:
        spec = _SEARCH_COLUMNS if self.search_mode else _LIST_COLUMNS
        if not self.search_mode and not self._listing.all_projects:
            spec = tuple(c for c in spec if c[0] != "project")
        spec = tuple((key, label, max(fixed, self._content_width(key)), share, right)
                     if key in _SIZED and fixed is not None else (key, label, fixed, share, right)
                     for key, label, fixed, share, right in spec)
        layout = self._widths(spec)
        for name in _DROP_ORDER:
            if min(w for c, w in layout if c[2] is None) >= MIN_TITLE:
                break
            if any(c[0] == name for c in spec):
                spec = tuple(c for c in spec if c[0] != name)
                layout = self._widths(spec)
        return tuple((c, max(w, 8 if c[2] is None else w)) for c, w in layout)

    # -- content -------------------------------------------------------------------------
    def show(self, listing: Listing, keep: str | None = None) -> None:
        """Replace every row (one batch) and put the cursor back on ``keep`` (a path) if still listed."""
        if len(self._cell_cache) > 4 * max(len(listing.rows), 1000):
            self._cell_cache.clear()
        self._listing = listing
        self._rebuild(keep)

    def _rebuild(self, keep: str | None) -> None:
        self._layout = self._compute_layout()
        self.clear(columns=True)
        for (key, label, _, _, right), width in self._layout:
            self.add_column(Text(label, justify="right" if right else "left"), width=width, key=key)
        self._keys = {}
        index = next((i for i, row in enumerate(self._listing.rows) if row.path == keep), 0)
        self._load(index + PAGE)
        if self._listing.rows:
            self.move_cursor(row=index, animate=False, scroll=True)

    def _load(self, upto: int) -> None:
        """Add rows (one batch) until ``upto`` of the listing are in the table."""
        rows = self._listing.rows[self.row_count:upto]
        if rows:
            keys = self.add_rows(self._cells(row) for row in rows)
            self._keys.update((row.path, key) for row, key in zip(rows, keys))

    def _load_more_near(self, index: int) -> None:
        if index >= self.row_count - PAGE // 4 and self.row_count < len(self._listing.rows):
            self._load(self.row_count + PAGE)

    def action_first(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last(self) -> None:
        self._load(len(self._listing.rows))
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._load_more_near(event.cursor_row)  # the event still bubbles to the screen

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value >= self.max_scroll_y - 2:
            self._load_more_near(self.row_count)

    def on_resize(self, event: Resize) -> None:
        if self._listing.rows and self._compute_layout() != self._layout:
            self._rebuild(self.current_path)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True) if self.is_mounted else Style()

    def _cells(self, row: SessionRow) -> list[Text]:
        cells = self._all_cells(row)
        return [cells[column[0]] for column, _ in self._layout]

    def _all_cells(self, row: SessionRow) -> dict[str, Text]:
        now = self.now()
        positions = self._listing.positions.get(row.path)
        hits = self._listing.hits
        first = hits.get(row.path, [])[:1] if hits is not None else []
        # Typing in the filter rebuilds every row: reuse cells whose inputs did not change.
        key = (row.mtime_ns, row.name, row.display_title, row.message_count, row.cost_usd, row.git_branch, row.cwd,
               row.last_active, int(now // 30), hits is not None, id(first[0]) if first else 0, row.forked_from,
               self._listing.depths.get(row.path, 0))
        cached = self._cell_cache.get(row.path)
        if cached is not None and cached[0] == key:
            cells = dict(cached[1])
        else:
            cells = self._build_cells(row, now, first[0] if first else None, hits is not None)
            self._cell_cache[row.path] = (key, cells)
            cells = dict(cells)
        if positions:
            title = cells["title"].copy()
            style = self._style("session-table--match")
            shift = len(fork_prefix(row, self._listing.depths.get(row.path, 0)))
            for pos in positions:
                title.stylize(style, shift + pos, shift + pos + 1)
            cells["title"] = title
        return cells

    def _build_cells(self, row: SessionRow, now: float, hit: SearchHit | None, search: bool) -> dict[str, Text]:
        title = Text(one_line(row.display_title), no_wrap=True, overflow="ellipsis")
        if row.name:
            title.stylize(self._style("session-table--named"))
        if row.forked_from:
            # A fork starts with its parent's history, so it has the parent's title: say whose fork it is.
            prefix = fork_prefix(row, self._listing.depths.get(row.path, 0))
            title = Text.assemble((prefix, self._style("session-table--dim")), title,
                                  no_wrap=True, overflow="ellipsis")
        cells = {
            "title": title,
            "project": Text(project_label(row), no_wrap=True, overflow="ellipsis"),
            "active": Text(units.ago(row.last_active, now), no_wrap=True),
        }
        if search:
            cells["match"] = snippet_text(hit, self._style("session-table--match")) if hit else Text()
        else:
            cells["branch"] = Text(one_line(row.git_branch), no_wrap=True, overflow="ellipsis")
            cells["messages"] = self._count_text(row.message_count)
            cells["cost"] = Text(units.cost(row.cost_usd), justify="right", no_wrap=True)
        return cells

    def _has(self, column: str) -> bool:
        return any(c[0] == column for c, _ in self._layout)

    def _count_text(self, count: int | None) -> Text:
        if count is None:
            return Text("…", justify="right", style=self._style("session-table--dim"))
        return Text(f"{count:,}", justify="right", no_wrap=True)

    def set_counts(self, counts: dict[str, int | None]) -> None:
        """Fill the messages column in place (the rows themselves are updated by the caller)."""
        if not self._has("messages"):
            return
        if self._compute_layout() != self._layout:  # a count wider than the column: widen it first
            self._rebuild(self.current_path)
            return
        for path, count in counts.items():
            key = self._keys.get(path)
            if key is not None:
                self.update_cell(key, "messages", self._count_text(count))

    def redraw_session(self, row: SessionRow) -> None:
        key = self._keys.get(row.path)
        if key is not None:
            for (column, *_), cell in zip((c for c, _ in self._layout), self._cells(row)):
                self.update_cell(key, column, cell)

    def refresh_times(self) -> None:
        if not self._has("active"):
            return
        for row in self._listing.rows:
            key = self._keys.get(row.path)
            if key is not None:
                self.update_cell(key, "active", Text(units.ago(row.last_active, self.now()), no_wrap=True))

    @property
    def listing(self) -> Listing:
        return self._listing

    @property
    def current_row(self) -> SessionRow | None:
        rows = self._listing.rows
        return rows[self.cursor_row] if self.row_count and 0 <= self.cursor_row < min(len(rows), self.row_count) \
            else None

    @property
    def current_path(self) -> str | None:
        row = self.current_row
        return row.path if row is not None else None


def fork_prefix(row: SessionRow, depth: int = 0) -> str:
    """What a fork's title cell starts with ("" for a session that is no fork); under its parent in the
    tree (`depth` ≥ 1) it is indented a step per level."""
    indent = "  " * max(depth - 1, 0)
    return f"{indent}{FORK_MARK} fork of {row.forked_from[:8]} · " if row.forked_from else ""


def snippet_text(hit: SearchHit, highlight: Style, *, kind: bool = False) -> Text:
    """A search snippet with the matching words highlighted (ranges index the snippet)."""
    raw = hit.snippet
    text = Text(no_wrap=True, overflow="ellipsis")
    if kind:
        text.append(f"{one_line(hit.where)} · turn {hit.turn + 1}  ", style="dim")
    # printable() may lengthen control characters; rebuild piecewise so ranges stay aligned.
    cursor = 0
    for a, b in sorted(hit.highlights):
        if a < cursor or b > len(raw):
            continue
        text.append(one_piece(raw[cursor:a]))
        text.append(one_piece(raw[a:b]), style=highlight)
        cursor = b
    text.append(one_piece(raw[cursor:]))
    return text


def one_piece(text: str) -> str:
    """Part of a one-line snippet made inert without collapsing its spaces."""
    return printable(text).replace("\n", " ").replace("\t", " ")
