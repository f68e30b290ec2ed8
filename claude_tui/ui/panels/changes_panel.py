"""The "what changed" panel: files changed this turn and this session, each opening its diffs."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.diff.display import display_text, project_relative
from claude_tui.diff.stats import ChangeSet, FileChanges
from claude_tui.ui.render.diff_view import KIND_LABELS, DiffView

_MUTED = "$foreground 60%"


def _file_prompt(entry: FileChanges, root: str | None = None) -> Content:
    """``path  +N −M  (kind)`` built from plain parts (paths are untrusted, never markup); paths in the
    project are shown relative to it, so the list stays one line a file."""
    label = KIND_LABELS.get(entry.kind, entry.kind)
    edits = f" ×{len(entry.diffs)}" if len(entry.diffs) > 1 else ""
    return Content.assemble(
        display_text(project_relative(entry.path, root))[0],
        ("  +" + str(entry.added), "$text-success" if entry.added else _MUTED),
        (" −" + str(entry.removed), "$text-error" if entry.removed else _MUTED),
        (f"  {label}{edits}", _MUTED),
    )


def _heading(title: str, files: list[FileChanges]) -> Content:
    added = sum(f.added for f in files)
    removed = sum(f.removed for f in files)
    count = f"{len(files)} file" + ("" if len(files) == 1 else "s")
    return Content.assemble((title, "bold"), (f" · {count} +{added} −{removed}", _MUTED))


class ChangesPanel(Widget):
    """A file list (this turn, then this session) beside the selected file's DiffView.

    The diff keys (``s`` split/unified, ``n``/``p`` next/previous hunk) work from
    the file list too: they act on the diff pane, wherever the focus is in the panel.
    """

    DEFAULT_CSS = """
    ChangesPanel {
        height: 1fr;

        #changes-body {
            height: 1fr;
        }
        #changes-sidebar {
            width: 40;
            max-width: 40%;
            height: 1fr;
            margin-right: 1;
        }
        #changes-files {
            height: 1fr;
            border: none;
            padding: 0;
            background: $surface;
        }
        #changes-empty {
            display: none;
            color: $text-muted;
            text-style: italic;
            padding: 1;
        }
        &.-empty #changes-files {
            display: none;
        }
        &.-empty #changes-empty {
            display: block;
        }
        #changes-diff {
            height: 1fr;
        }
        &.-empty #changes-diff {
            display: none;
        }
        &.-empty #changes-sidebar {
            width: 1fr;
            max-width: 100%;
        }
    }
    """

    BINDINGS = [
        Binding("s", "diff('toggle_split')", "Split/unified", show=False),
        Binding("n", "diff('next_hunk')", "Next hunk", show=False),
        Binding("p", "diff('previous_hunk')", "Previous hunk", show=False),
    ]

    class FileSelected(Message):
        """A file was chosen (Enter) in the list."""

        def __init__(self, panel: ChangesPanel, changes: FileChanges) -> None:
            super().__init__()
            self.panel = panel
            self.changes = changes

        @property
        def control(self) -> ChangesPanel:
            return self.panel

    def __init__(
        self,
        changes: ChangeSet,
        *,
        root: str | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.changes = changes
        self.root = root
        self._entries: dict[str, FileChanges] = {}
        self._version = -1

    def compose(self) -> ComposeResult:
        with Horizontal(id="changes-body"):
            with Vertical(id="changes-sidebar"):
                yield OptionList(id="changes-files", markup=False)
                yield Static(Content("No files changed yet."), id="changes-empty")
            yield DiffView(id="changes-diff")

    def on_mount(self) -> None:
        self.refresh_changes()

    def refresh_changes(self) -> None:
        """Rebuild the list from the ChangeSet (cheap; call when its ``version`` moved)."""
        self._version = self.changes.version
        files = self.query_one("#changes-files", OptionList)
        highlighted = files.highlighted_option.id if files.highlighted_option is not None else None
        files.clear_options()
        self._entries.clear()
        options: list[Option] = []
        for scope, title, entries in (
            ("turn", "This turn", self.changes.turn),
            ("session", "This session", self.changes.session),
        ):
            if not entries:
                continue
            options.append(Option(_heading(title, entries), id=f"{scope}:heading", disabled=True))
            for index, entry in enumerate(entries):
                option_id = f"{scope}:{index}"
                self._entries[option_id] = entry
                options.append(Option(_file_prompt(entry, self.root), id=option_id))
        files.add_options(options)
        empty = not self._entries
        self.set_class(empty, "-empty")
        if empty:
            self.query_one(DiffView).set_diff(None)
            return
        target = highlighted if highlighted in self._entries else next(iter(self._entries))
        files.highlighted = files.get_option_index(target)
        self._show(target)

    def action_diff(self, action: str) -> None:
        """Run one of the diff pane's own actions (the list has focus; the DiffView's bindings are not active)."""
        if action in ("toggle_split", "next_hunk", "previous_hunk"):
            getattr(self.query_one(DiffView), f"action_{action}")()

    def _show(self, option_id: str | None) -> None:
        entry = self._entries.get(option_id or "")
        if entry is not None:
            self.query_one(DiffView).set_diff(entry.diffs)

    @on(OptionList.OptionHighlighted, "#changes-files")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show(event.option_id)

    @on(OptionList.OptionSelected, "#changes-files")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entry = self._entries.get(event.option_id or "")
        if entry is not None:
            self.post_message(self.FileSelected(self, entry))
            self.query_one(DiffView).focus()


class ChangesScreen(ModalScreen[None]):
    """The panel as a modal: Escape closes, Tab moves between the list and the diff."""

    CSS_PATH = "changes_screen.tcss"
    BINDINGS = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
    ]

    def __init__(self, changes: ChangeSet, *, root: str | None = None, name: str | None = None,
                 id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self.changes = changes
        self.root = root

    def compose(self) -> ComposeResult:
        with Vertical(id="changes-dialog"):
            files, added, removed = self.changes.totals("session")
            yield Static(
                Content.assemble(
                    ("What changed", "bold"),
                    (f"  {files} file{'s' if files != 1 else ''} this session +{added} −{removed}", _MUTED),
                ),
                id="changes-title",
            )
            yield ChangesPanel(self.changes, root=self.root)
            yield Static(
                Content("↑↓ file · Enter open diff · Tab switch pane · s split/unified · n/p hunk · Esc close"),
                id="changes-help",
            )

    def on_mount(self) -> None:
        self.query_one("#changes-files", OptionList).focus()
