"""The two screens of a conversation rewind (`ui/chat/rewind_conversation.py` runs them).

`RewindListScreen`: the user's prompts in order, the newest at the bottom and selected; ↑/↓ move,
Enter chooses, Esc closes. Choosing does nothing yet, so it is a plain modal.

`RewindChoiceScreen`: what to restore, numbered as Claude Code numbers it: 1 the conversation and
the code, 2 the conversation, 3 the code; Esc goes back to the list. Its answer restarts the CLI
and can put files back, so it is a `GuardedModal`: Enter (which also chose in the list) obeys the
typeahead guard, so a doubled Enter does not restore anything. It opens moved to, never waiting:
it comes from a key on the list, not over the prompt. The digits act at once: typed on the list
they mean nothing, so a digit is always meant for this screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.diff.display import project_relative
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.items import UserItem
from claude_tui.ui.dialogs.base import DIALOG_CSS, GuardedModal

CHOICES = ("both", "conversation", "code")
"""What 1, 2 and 3 restore (the `rewind_conversation` flow's words)."""
MAX_FILES_NAMED = 3


@dataclass
class FilesToRestore:
    """The CLI's dry run for "the code": the files it would put back, or why there are none."""

    files: list[str] = field(default_factory=list)
    insertions: int = 0
    deletions: int = 0
    reason: str = ""


def _prompt_line(text: str, width: int = 70) -> str:
    line = one_line(text).strip() or "(an image)"
    return line if len(line) <= width else line[: width - 1] + "…"


class RewindListScreen(ModalScreen[UserItem | None]):
    CSS_PATH = "rewind_conversation.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Cancel")]
    AUTO_FOCUS = "#rewind-prompts"

    def __init__(self, prompts: list[UserItem], selected: UserItem, changed: dict[str, int]) -> None:
        super().__init__(classes="rewind-list-screen")
        self.prompts = prompts
        self.selected = selected
        self.changed = changed
        """Per prompt's item id: how many files its turn changed."""

    def compose(self) -> ComposeResult:
        with Vertical(id="rewind-list-box"):
            yield Static(Content.styled("Rewind", "bold"), id="rewind-list-title")
            yield Static("Go back to before one of your prompts (the turns after it stay in the transcript):"
                         if self.app.size.width > 90 else "Go back to before one of your prompts:",
                         id="rewind-list-intro", markup=False)
            yield OptionList(*[Option(self._row(item), id=item.id) for item in self.prompts], id="rewind-prompts")
            yield Static(Content.assemble(("↑↓", "bold"), " choose · ", ("Enter", "bold"), " go back to before it · ",
                                          ("Esc", "bold"), " cancel"), id="rewind-list-keys")

    def _row(self, item: UserItem) -> Content:
        count = self.changed.get(item.id, 0)
        detail = f"{count} file{'s' if count != 1 else ''} changed" if count else "no code changes"
        return Content.assemble(_prompt_line(item.text), "\n", (detail, "dim"))

    def on_mount(self) -> None:
        options = self.query_one("#rewind-prompts", OptionList)
        index = next((i for i, item in enumerate(self.prompts) if item is self.selected), len(self.prompts) - 1)
        options.highlighted = index
        options.scroll_to_highlight()

    @on(OptionList.OptionSelected, "#rewind-prompts")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.prompts[event.option_index])

    def action_close(self) -> None:
        self.dismiss(None)


class RewindChoiceScreen(GuardedModal[str | None]):
    CSS_PATH = [DIALOG_CSS, "rewind_conversation.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]
    AUTO_FOCUS = "#rewind-choices"

    def __init__(self, prompt: str, files: FilesToRestore, cwd: str, *, guard_ms: int | None = None) -> None:
        # Moved to from the start (see the module docstring): the guard arms when it is shown.
        super().__init__(guard_ms=guard_ms, waits=False, key_ahead=self._number_key, classes="rewind-choice-screen")
        self.prompt = prompt
        self.files = files
        self.cwd = cwd

    def compose(self) -> ComposeResult:
        no_code = not self.files.files
        with Vertical(id="rewind-choice-box"):
            yield Static(Content.styled("Rewind", "bold"), id="rewind-choice-title")
            yield Static("Go back to before this prompt:", id="rewind-choice-intro", markup=False)
            yield Static(Content(_prompt_line(self.prompt, 200)), id="rewind-choice-prompt")
            yield OptionList(
                Option(Content.assemble("1. Restore the conversation and the code",
                                        (" (no code to restore)", "dim") if no_code else ""), id="both"),
                Option("2. Restore the conversation", id="conversation"),
                Option("3. Restore the code", id="code", disabled=no_code),
                Option("Esc. Never mind", id="back"),
                id="rewind-choices")
            yield Static(self._code_words(), id="rewind-choice-code")
            yield Static("The conversation goes on from before the prompt, whose text comes back into the "
                         "prompt box to edit and send again.", id="rewind-choice-note", markup=False)
            yield Static("keys paused…", classes="guard-notice", markup=False)

    def _code_words(self) -> Content:
        files = self.files
        if not files.files:
            return Content.styled(files.reason or "No files changed since this prompt.", "dim")
        named = ", ".join(one_line(project_relative(f, self.cwd)) for f in files.files[:MAX_FILES_NAMED])
        more = f" and {len(files.files) - MAX_FILES_NAMED} more" if len(files.files) > MAX_FILES_NAMED else ""
        count = len(files.files)
        return Content.assemble(f"The code: {count} file{'s' if count != 1 else ''} go{'es' if count == 1 else ''} "
                                "back (", (f"+{files.insertions}", "$text-success"), " ",
                                (f"−{files.deletions}", "$text-error"), f"): {named}{more}. Files go back "
                                "whole; what Bash commands changed is not undone.")

    async def _number_key(self, event: events.Key) -> bool:
        if event.key in ("1", "2", "3") and not self.settled:
            event.stop()
            event.prevent_default()
            self._pick(CHOICES[int(event.key) - 1])
            return True
        if event.key == "tab" and not self.settled:  # it never waits: no prompt to step back to under the list
            event.stop()
            event.prevent_default()
            return True
        return False

    def _pick(self, choice: str) -> None:
        if choice == "code" and not self.files.files:
            self.app.bell()
            return
        self.finish(choice)

    @on(OptionList.OptionSelected, "#rewind-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not self.keys_open():  # Enter chose in the list too: a doubled one waits for the guard
            return
        if event.option_id == "back":
            self.finish(None)
        elif event.option_id in CHOICES:
            self._pick(event.option_id)

    def action_back(self) -> None:
        self.finish(None)
