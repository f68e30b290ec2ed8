"""A text area that repaints the cells a keystroke changed, not the whole box.

Textual's `TextArea` repaints itself whole, border included, whenever its selection is set, and every
edit and every cursor move sets it: a letter typed in a 120-column prompt rewrote its three rows, about
1.1 KB to the terminal, where Claude Code writes about 40 B. Over ssh, mosh or a slow terminal every byte
is latency. Textual's compositor writes only the regions marked dirty, so here setting the selection
repaints nothing by itself, and instead:

- a cursor move repaints the cell it left and the cell it lands on; their two rows when it changes rows
  (the cursor's line is highlighted); the whole box when text is or was selected;
- an edit within one line repaints from where it starts to the end of the longer of the line before and
  after it (one row), or that line's rows when it is wrapped; any other edit, an undo or redo, a text
  loaded, the whole box.

Switching the blink on or off repaints nothing by itself either (the first key after the cursor went
solid repainted the whole box). Everything else (focus, scrolling, a resize, the theme, the suggestion,
the blink itself) repaints as Textual does.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.geometry import Offset, Region
from textual.reactive import Reactive, reactive
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult, Location, Selection


class CellRepaintTextArea(TextArea):
    """A `TextArea` whose edits and cursor moves repaint only the cells they change."""

    # TextArea's own reactive, minus its repaint: the watcher below says what to repaint.
    selection: Reactive[Selection] = reactive(Selection(), init=False, always_update=True, repaint=False)
    # And its blink switch: the cursor is drawn when it has focus and does not blink, or blinks and is
    # in its visible half, and Textual's own watcher repaints its line when that visibility changes.
    cursor_blink: Reactive[bool] = reactive(True, init=False, repaint=False)

    def _document_offset(self, location: Location) -> Offset:
        """Where `location` is drawn in the wrapped document (before scrolling)."""
        x, y = self.wrapped_document.location_to_offset(location)
        return Offset(x + self.gutter_width, y)

    def _in_view(self, region: Region) -> Region:
        """A region of the wrapped document as `refresh` takes it: relative to the visible content."""
        scroll_x, scroll_y = self.scroll_offset
        return region.translate(Offset(-scroll_x, -scroll_y))

    def _row(self, y: int) -> Region:
        """A row of the wrapped document across the whole width."""
        return Region(self.scroll_offset.x, y, max(self.virtual_size.width, self.size.width), 1)

    def _cursor_cells(self, location: Location) -> Region:
        """The cells of a cursor at `location` in the wrapped document: a place the text no longer has
        (the cursor was after what an edit deleted) is clamped into it, inside what the edit repaints."""
        row = min(location[0], self.document.line_count - 1)
        line = self.document[row]
        column = min(location[1], len(line)) if row == location[0] else len(line)
        width = cell_len(line[column]) if column < len(line) else 1
        return Region(*self._document_offset((row, column)), max(1, width), 1)

    def watch_selection(self, previous: Selection, selection: Selection) -> None:
        # The cursor was drawn at `previous.end` as the text is wrapped now: a resize or a scroll
        # repaints everything, and an edit repaints the cells it moved (`edit`).
        if not self.is_mounted:
            return
        if not previous.is_empty or not selection.is_empty:
            self.refresh()
            return
        left, cursor = self._cursor_cells(previous.end), self._cursor_cells(selection.end)
        if left.y != cursor.y:
            self.refresh(self._in_view(self._row(left.y)), self._in_view(self._row(cursor.y)))
        else:
            self.refresh(self._in_view(left), self._in_view(cursor))

    def edit(self, edit: Edit) -> EditResult:
        (row, _), bottom_row = edit.top, edit.bottom[0]
        if row != bottom_row or "\n" in edit.text or self.placeholder:
            result = super().edit(edit)
            self.refresh()  # rows move (or the placeholder comes or goes): everything below may change
            return result
        height = self.wrapped_document.height
        wrapped = bool(self.wrapped_document.get_offsets(row))
        old_end = self._document_offset((row, len(self.document[row])))
        result = super().edit(edit)
        start = self._document_offset(edit.top)
        end = self._document_offset((row, len(self.document[row])))
        if self.wrapped_document.height != height:
            self.refresh()
        elif wrapped or self.wrapped_document.get_offsets(row):
            # The line reflows: its rows from the edit's down.
            last = max(old_end.y, end.y)
            self.refresh(*(self._in_view(self._row(y)) for y in range(start.y, last + 1)))
        else:
            # One row: up to the cell after the longer text (the cursor, or a deleted character's cell).
            right = max(old_end.x, end.x) + 1
            self.refresh(self._in_view(Region(start.x, start.y, right - start.x, 1)))
        return result

    def undo(self) -> None:
        super().undo()
        self.refresh()

    def redo(self) -> None:
        super().redo()
        self.refresh()

    def load_text(self, text: str) -> None:
        super().load_text(text)
        self.refresh()
