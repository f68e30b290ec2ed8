"""Where each tab goes on the tab bar's one row: pure layout, no widget (testable without an app).

Every tab keeps its position number and state glyph whatever the width (that is what Alt+N and
"which one needs me" need); names and costs give way first, in this order:

1. names whole, costs shown;
2. names cut to a fair share each (never below `_ROOMY_NAME` cells), costs shown; then the same
   without costs (the tab in view shows its cost in the status bar anyway);
3. costs dropped, the glyph right after the number ("2?"), names cut to a fair share (never below
   `_TIGHT_NAME` cells): 8 tabs in 80 columns land here;
4. names dropped: number, glyph and attention mark only;
5. still too wide (many tabs, a tiny terminal): a run of tabs around the active one, with `…`
   standing for the tabs left out on either side.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len

from claude_tui.protocol import units
from claude_tui.protocol.sanitize import printable_name
from claude_tui.ui.chat.tab_summary import TabState, TabSummary
from claude_tui.ui.kit.cells import MORE, fit

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
GLYPHS = {
    TabState.STARTING: "◌",
    TabState.STREAMING: "●",  # the still form (animations off); otherwise a SPINNER frame
    TabState.WAITING: "?",
    TabState.IDLE: "○",
    TabState.ERROR: "✗",
    TabState.EXITED: "■",
}
ATTENTION = "!"
SEPARATOR = "│"

_ROOMY_NAME = 6
_TIGHT_NAME = 3


@dataclass(frozen=True, slots=True)
class Part:
    text: str
    role: str
    """A component class suffix ("number", "name", a state's value…), or "" for plain padding."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One tab, a separator or an edge marker, as drawn."""

    parts: tuple[Part, ...]
    tab_id: str | None = None
    """The tab this cell draws; None for separators and markers (clicks there select nothing)."""
    look: str = "separator"
    """The cell's base component class: "tab", "active", "attention", "separator", "more"."""

    @property
    def width(self) -> int:
        return sum(cell_len(part.text) for part in self.parts)


def state_role(state: TabState) -> str:
    return state.name.lower()


def tab_label(summary: TabSummary) -> str:
    """The tab's name as drawn: ``host:name`` for a CLI on another machine (a local and a remote
    ``rproj`` must not look the same), cut from the end so the host stays."""
    name = printable_name(summary.name)
    return f"{printable_name(summary.host)}:{name}" if summary.host else name


def _tab(summary: TabSummary, position: int, active: bool, name_width: int | None, show_cost: bool,
         spinner: str, tight: bool = False) -> Cell:
    glyph = spinner if summary.state is TabState.STREAMING and spinner else GLYPHS[summary.state]
    parts = [Part(" ", ""), Part(str(position), "number")]
    if not tight:
        parts.append(Part(" ", ""))
    parts.append(Part(glyph, state_role(summary.state)))
    name = tab_label(summary)
    shown = name if name_width is None else fit(name, name_width)
    if shown:
        parts.append(Part(" " + shown, "name"))
    cost = units.cost(summary.cost_usd) if show_cost else ""
    if cost:
        parts.append(Part(" " + cost, "cost"))
    attention = summary.attention and not active  # the contract clears it once shown; never mark the one in view
    if attention:
        parts.append(Part(" " + ATTENTION, "attention-mark"))
    parts.append(Part(" ", ""))
    look = "active" if active else "attention" if attention else "tab"
    return Cell(tuple(parts), summary.tab_id, look)


def _share(wants: list[int], budget: int) -> list[int]:
    """Water-filling: everyone gets what they want up to an equal share of `budget`, and what the
    modest ones leave is shared by the rest (the first ones get the odd cells)."""
    given = [0] * len(wants)
    left = budget
    order = sorted(range(len(wants)), key=lambda i: (wants[i], i))
    for rank, index in enumerate(order):
        share = left // (len(order) - rank)
        given[index] = min(wants[index], share)
        left -= given[index]
    # The odd cells left over by rounding go to the cut names, first tab first.
    for index in range(len(wants)):
        if left <= 0:
            break
        if given[index] < wants[index]:
            given[index] += 1
            left -= 1
    return given


def _join(cells: list[Cell]) -> list[Cell]:
    out: list[Cell] = []
    for cell in cells:
        if out:
            out.append(Cell((Part(SEPARATOR, "separator"),)))
        out.append(cell)
    return out


def _total(cells: list[Cell]) -> int:
    return sum(cell.width for cell in cells) + max(0, len(cells) - 1)


def lay_out(tabs: tuple[TabSummary, ...], active: str, width: int, spinner: str = "") -> list[Cell]:
    """The cells of the bar, left to right, in at most `width` cells (tabs, separators, markers)."""
    if not tabs:
        return []

    def build(names: list[int | None] | None, show_cost: bool, tight: bool = False) -> list[Cell]:
        return [_tab(summary, position, summary.tab_id == active, None if names is None else names[position - 1],
                     show_cost, spinner, tight) for position, summary in enumerate(tabs, start=1)]

    whole = build(None, True)
    if _total(whole) <= width:
        return _join(whole)
    names = [cell_len(tab_label(summary)) for summary in tabs]
    levels = ((True, _ROOMY_NAME, False), (False, _ROOMY_NAME, False), (False, _TIGHT_NAME, True))
    for show_cost, least, tight in levels:
        bare = build([0] * len(tabs), show_cost, tight)
        # Each name costs its cells plus the space before it.
        given = _share([n + 1 if n else 0 for n in names], max(0, width - _total(bare)))
        widths: list[int | None] = [max(0, g - 1) for g in given]
        if all(w == n or (w is not None and w >= least) for w, n in zip(widths, names)):
            return _join(build(widths, show_cost, tight))
    bare = build([0] * len(tabs), False, True)
    if _total(bare) <= width:
        return _join(bare)
    return _window(bare, next((i for i, s in enumerate(tabs) if s.tab_id == active), 0), width)


def _window(cells: list[Cell], keep: int, width: int) -> list[Cell]:
    """The longest run of tabs around `keep` that fits with its `…` markers (growing right first)."""
    start = end = keep

    def fits(first: int, last: int) -> bool:
        markers = (first > 0) + (last < len(cells) - 1)
        return _total(cells[first:last + 1]) + markers * 2 <= width

    grew = True
    while grew:
        grew = False
        if end + 1 < len(cells) and fits(start, end + 1):
            end, grew = end + 1, True
        if start > 0 and fits(start - 1, end):
            start, grew = start - 1, True
    shown = _join(cells[start:end + 1])
    more = Cell((Part(MORE, "more"),), None, "more")
    gap = Cell((Part(" ", ""),), None, "more")
    return ([more, gap] if start > 0 else []) + shown + ([gap, more] if end < len(cells) - 1 else [])
