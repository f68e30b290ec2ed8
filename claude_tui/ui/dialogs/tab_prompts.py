"""The questions a tab asks: its name (the palette's "Rename tab"), and where a new tab's session
runs: another directory ("New tab in another directory…") or another machine ("New tab on a host…").

The name and the directory are one-line `TextPrompt`s; the host is a screen of its own (two
fields). A host is a ``hosts`` entry's name or any destination ssh takes (``user@host``, an
ssh-config alias, ``ssh://user@host:port``), and a directory there. Only parsed here, never
dialled: a host that cannot be reached is told in the new tab, as for ``claude-tui --ssh``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.config import Config
from claude_tui.protocol.sanitize import printable, printable_name
from claude_tui.remote.hosts import RemoteSetup, remote_setup
from claude_tui.ui.dialogs.text_prompt import TextPrompt
from claude_tui.ui.kit.safe_input import SafeInput

# -- the tab's name --------------------------------------------------------------------------
TAB_NAME = "tab-name"
"""The rename prompt's screen id (one open at a time: `prompt_open`)."""


def tab_name_prompt(current: str) -> TextPrompt:
    """Dismisses with the new name ("" for the automatic one), or None when cancelled."""
    return TextPrompt("Rename tab", value=current, placeholder="empty: named after the session", enter="Rename",
                      max_length=40, id=TAB_NAME)


# -- a new tab in another directory ----------------------------------------------------------
TAB_DIRECTORY = "tab-directory"
"""The directory prompt's screen id (one open at a time: `prompt_open`)."""


def typed_directory(text: str, base: Path) -> Path:
    """`text` as a directory: relative to `base`, `~` expanded, resolved."""
    return (base / Path(text.strip()).expanduser()).resolve()


def directory_problem(text: str, base: Path) -> str:
    """Why `text` (relative to `base`, `~` expanded) is not a directory to start in; "" when it is."""
    if not text.strip():
        return "Type a directory."
    path = typed_directory(text, base)
    if not path.is_dir():
        return f"Not a directory: {printable_name(str(path))}"
    return ""


def tab_directory_prompt(base: Path) -> TextPrompt:
    """Dismisses with the text typed, a directory (`typed_directory` makes it a path), or None."""
    return TextPrompt("New tab in another directory", value=str(base.parent), placeholder="a directory",
                      enter="Open", check=lambda text: directory_problem(text, base), id=TAB_DIRECTORY)


# -- a new tab on another machine ------------------------------------------------------------
@dataclass(frozen=True)
class HostChoice:
    setup: RemoteSetup
    cwd: str | None
    """The directory typed (a path on that machine); None: the entry's, else the login's home."""


def host_problem(text: str, config: Config) -> tuple[RemoteSetup | None, str]:
    """The setup `text` names, or why it names none (printable, one line)."""
    if not text.strip():
        return None, "Type a host: a name from `hosts` in the config, or user@host."
    try:
        return remote_setup(text, config), ""
    except ValueError as error:
        return None, printable(str(error)).replace("\n", " ")


class TabHostScreen(ModalScreen[HostChoice | None]):
    """Dismisses with the host and directory chosen, or None when cancelled."""

    DEFAULT_CSS = """
    TabHostScreen {
        align: center middle;
    }
    TabHostScreen > Vertical {
        width: 76;
        height: auto;
        padding: 1 2;
        border: round $primary;
        background: $surface;
    }
    TabHostScreen .tab-host-label {
        margin-top: 1;
        color: $text-muted;
    }
    TabHostScreen #tab-host-problem {
        color: $text-error;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config

    def compose(self) -> ComposeResult:
        names = ", ".join(printable(entry.name) for entry in self.config.hosts)
        with Vertical():
            yield Static(Content.styled("New tab on a host", "bold"))
            yield Static(Content(f"Host ({names}, or user@host)" if names else "Host (user@host, or an ssh alias)"),
                         classes="tab-host-label")
            yield SafeInput(placeholder="devbox", id="tab-host")
            yield Static(Content("Directory there (empty: the host entry's, else the login's home)"),
                         classes="tab-host-label")
            yield SafeInput(placeholder="~/src/project", id="tab-host-dir")
            yield Static("", id="tab-host-problem", markup=False)
            yield Static(Content.assemble(("Enter", "bold"), " Open    ", ("Tab", "bold"), " Next field    ",
                                          ("Esc", "bold"), " Cancel"))

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        setup, problem = host_problem(self.query_one("#tab-host", Input).value, self.config)
        if setup is None:
            self.query_one("#tab-host-problem", Static).update(problem)
            self.query_one("#tab-host", Input).focus()
            return
        directory = self.query_one("#tab-host-dir", Input).value.strip()
        self.dismiss(HostChoice(setup, directory or None))

    def action_cancel(self) -> None:
        self.dismiss(None)
