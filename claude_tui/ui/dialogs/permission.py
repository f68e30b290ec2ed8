"""The permission dialog for one ``can_use_tool`` request.

Keys (all behind the typeahead guard of its :class:`GuardedModal`; when the dialog appears while the
user is not typing, the first of y a n t x e, 1 2 3 and Enter answers at once, see :mod:`.modal_guard`):

====  ===========================================================================
y     allow once (``1`` and Enter too: Claude Code's first, highlighted choice)
a     allow always: the request's only suggestion, or a picker when it has several (``2``)
n     deny (Esc too)
t     deny and tell Claude what to do instead (a message box; Enter sends) (``3``, ``2`` without
      a suggestion: Claude Code numbers the choices it shows)
x     deny and stop the turn (``interrupt: true``)
e     edit the input (Bash command, Edit new_string, Write content) and allow it
s     the preview: split / unified, as in every diff of the app (no answer)
====  ===========================================================================

A file tool's preview is reviewed hunk by hunk (`diff/partial.py`): ↑↓ or j k move the hunk
cursor, Space takes or leaves the hunk under it, ``e`` rewrites that hunk's new lines (Ctrl+S
keeps the rewrite, back to the hunks), ``y`` applies what is taken, ``t`` applies it and says why
the rest was left out. The CLI gets the tool's input rebuilt from the taken hunks; Claude is told
which were left out by a prompt sent right after the answer (`PermissionDecision.follow_up`).

The dialog has four modes (``main``, ``always``, ``tell``, ``edit``); the ``mode``
reactive only toggles a ``-mode-*`` class and TCSS shows the matching panel. The
``tell`` mode's box is the `TellBox` the plan dialog holds too (:mod:`.tell`).
Nothing in the main mode is focusable except the scrolling body, so Enter reaches
the dialog's own binding (allow once, under the key rules). Entering the ``always`` picker
or the editor re-arms the guard (as the question dialog does before its review): there
Enter or Ctrl+S would act.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList, Static, TextArea
from textual.widgets.option_list import Option

from claude_tui.diff.model import FileDiff
from claude_tui.diff.partial import HunkChoice, apply_hunks, left_out_note, new_side, rebuilt_input
from claude_tui.protocol.reveal import escape_bytes
from claude_tui.protocol.sanitize import one_line
from claude_tui.session.permissions import (
    PermissionDecision,
    PermissionRequest,
    describe_suggestion,
    without_verb,
)
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.base import DEFAULT_GUARD_MS, DIALOG_CSS, Attention, GuardedModal
from claude_tui.ui.dialogs.frame import DialogFrame
from claude_tui.ui.dialogs.parts import Hint
from claude_tui.ui.dialogs.tell import TellBox
from claude_tui.ui.dialogs.tool_input import (
    clean,
    clean_block,
    editable_field,
    file_path_of,
    input_sections,
    revealed_content,
    tool_diff_preview,
    tool_title,
    unusual,
)
from claude_tui.ui.render.diff_view import DiffView

DENY_MESSAGE = "The user denied this tool use."
STOP_MESSAGE = "The user denied this tool use and stopped the turn."
_EDIT_LABELS = {"command": "command", "new_string": "replacement text", "content": "file content",
                "new_source": "cell source"}
ALWAYS_HINT = "1–9 or Enter choose · Esc back · /permissions lists the rules kept"
EDIT_HINT = "Ctrl+S allow edited · Esc back"
ESCAPED_EDIT_HINT = "Shown escaped (control characters or bytes that are not UTF-8): read only · Esc back"
PAUSED = "keys paused… · "
HUNK_HINT = "↑↓ hunk · Space take/leave · e rewrite it · c comment · y apply what is taken · t apply, say why"
HUNK_EDIT_HINT = "Ctrl+S keep the rewrite · Esc back"
HUNK_TELL = "Apply the hunks taken, and tell Claude why the others were left out:"
_HUNK_KEYS = {"up": -1, "k": -1, "down": 1, "j": 1}
DESCRIPTION_LIMIT = 300


def suggestion_content(suggestion: dict[str, Any]) -> Content:
    """A suggestion in words, its rule shown as the input is: a rule built from a command of blank
    lines and a hidden last line must not read as the harmless first one."""
    return revealed_content(describe_suggestion(suggestion))[0]


def tail_cut(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


class PermissionScreen(GuardedModal[PermissionDecision]):
    """Ask whether a tool may run. Dismisses with a PermissionDecision; cancel() closes without one."""

    CSS_PATH = [DIALOG_CSS, "permission.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "allow", "Allow once"),
        Binding("a", "always", "Always allow"),
        Binding("n", "deny", "Deny"),
        Binding("escape", "escape", "Deny / back", show=False),
        Binding("t", "tell", "Tell Claude"),
        Binding("x", "stop", "Deny and stop"),
        Binding("s", "toggle_split", "Split/unified", show=False),
        Binding("e", "edit", "Edit"),
        Binding("ctrl+s", "submit_edit", "Allow edited", show=False),
        Binding("enter", "enter", "Allow once (the highlighted choice)", show=False),
        # Claude Code's numbered choices (`numbered`); in the "always" picker, its suggestions.
        Binding("1", "number(1)", "Claude Code's numbers: 1 yes, 2 don't ask again, 3 tell Claude", show=False),
        *[Binding(str(n), f"number({n})", show=False) for n in range(2, 10)],
    ]
    AUTO_FOCUS: ClassVar[str | None] = "#body"
    MARK_PAUSED = False  # "keys paused…" shows for as long as the guard is up
    MAIN_ACTIONS = frozenset({"allow", "always", "deny", "stop", "edit", "toggle_split", "tell"})
    """Actions that only make sense among the main choices (not in a sub-panel)."""
    ONE_KEY = frozenset({"y", "a", "n", "t", "x", "e", "1", "2", "3", "enter"})

    class PreviewReady(Message):
        """A file preview finished loading in its thread."""

        def __init__(self, diff: FileDiff | None) -> None:
            super().__init__()
            self.diff = diff

    mode: reactive[str] = reactive("main", init=False)
    """``main`` (the key choices), ``always`` (what to remember), ``tell`` (the message box) or ``edit``."""

    def __init__(self, request: PermissionRequest, *, cwd: Path | None = None,
                 unapplied: dict[str, Any] | None = None, options: CliOptions | None = None,
                 guard_ms: int = DEFAULT_GUARD_MS, bell: bool = True, desktop: bool = True, **modal: Any) -> None:
        """`modal`: GuardedModal's options (position, total, name, id, classes).

        ``unapplied``: an "always allow" suggestion saved earlier whose rule covers this call, yet
        Claude Code asked again: the dialog says the rule did not apply. ``options``: the asking
        session's, so the preview reads the file on the machine that session runs on."""
        super().__init__(guard_ms=guard_ms, answers_cli=True, key_ahead=self._review_key,
                         guard_changed=self._guard_changed,
                         attention=Attention(f"permission needed for {request.tool_name}", bell, desktop), **modal)
        self.request = request
        self.tell = TellBox("Deny, and tell Claude what to do instead:", "e.g. use ripgrep instead", "Denied")
        self.set_class(True, "-mode-main")
        self.cwd = cwd
        self.session_options = options
        self.unapplied = unapplied
        self.suggestions: list[dict[str, Any]] = [s for s in request.suggestions if isinstance(s, dict)]
        self.edit_key = editable_field(request.tool_name, request.input)
        self.file_path = file_path_of(request.tool_name, request.input)
        self.preview: FileDiff | None = None
        self.review: HunkChoice | None = None
        """The preview's hunks under review, once a preview that can be taken in part is shown."""
        self.editing_hunk = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield DialogFrame(self.dialog_title(), self.hints(), head=self.compose_head(), body=self.compose_body(),
                          foot=self.compose_foot(), ends_with=self.ends_with(), waiting=self.waiting,
                          position=self.position, total=self.total, classes="permission-dialog")

    def dialog_title(self) -> Content:
        return Content.assemble(" ", (tool_title(self.request.tool_name, self.request.display_name), "bold"), " ")

    def hints(self) -> list[Hint]:
        # Numbered as Claude Code numbers its choices (1 yes, 2 don't ask again, then no and tell).
        number = {action: f"{n} " for n, action in enumerate(self.numbered(), 1)}
        hints = [Hint(f"{number['allow']}y", "Allow once (Enter)", "allow", "allow")]
        if self.suggestions:
            label = "Always allow…" if len(self.suggestions) > 1 else "Always allow"
            hints.append(Hint(f"{number['always']}a", label, "always", "allow"))
        if self.edit_key:
            hints.append(Hint("e", "Edit", "edit"))
        hints += [
            Hint("n", "Deny", "deny", "deny"),
            Hint(f"{number['tell']}t", "Tell Claude…", "tell", "deny"),
            Hint("x", "Deny and stop", "stop", "deny"),
        ]
        if self.file_path is not None:
            hints.append(Hint("s", "Split/unified", "toggle_split"))
        return hints

    def ends_with(self) -> str:
        for section in reversed(input_sections(self.request.tool_name, self.request.input)):
            if section.last_line:
                return f"the {section.label.lower()} ends: {section.last_line}"
        return ""

    def compose_head(self) -> ComposeResult:
        request = self.request
        if request.description:
            # One short line: the head is docked, and a description of two hundred rows would push
            # the command it describes out of the dialog.
            yield Static(Content(tail_cut(one_line(escape_bytes(request.description)))), id="description",
                         markup=False)
        facts = []
        if request.decision_reason:
            facts.append(Content.assemble(("Why asking  ", "dim"), clean(request.decision_reason)))
        if request.blocked_path:
            facts.append(Content.assemble(("Path        ", "dim"), clean(request.blocked_path)))
        if request.agent_scope:
            facts.append(Content.assemble(("Asked by    ", "dim"), "a subagent"))
        if self.unapplied is not None:
            facts.append(Content.assemble(
                ("Rule        ", "dim"),
                (f"You chose “{clean(describe_suggestion(self.unapplied))}”, but Claude Code asked again: "
                 "that rule did not apply to this call.", "$text-warning")))
        if facts:
            yield Static(Content("\n").join(facts), id="facts", markup=False)

    def compose_body(self) -> ComposeResult:
        for section in input_sections(self.request.tool_name, self.request.input):
            yield Static(section.label, classes="section-label", markup=False)
            yield Static(section.body, classes=f"section-body {section.css_class}".strip(), markup=False)
            if section.note:
                yield Static(section.note, classes="section-note", markup=False)
        if self.file_path is not None:
            yield Static("Loading preview…", id="preview-loading", classes="section-note", markup=False)

    def compose_foot(self) -> ComposeResult:
        if len(self.suggestions) == 1:
            yield Static(
                Content.assemble(("a  ", "bold"), suggestion_content(self.suggestions[0])),
                id="always-one",
                markup=False,
            )
        with Vertical(id="always-panel", classes="sub-panel"):
            yield Static("Always allow — choose what to remember:", classes="box-prompt", markup=False)
            yield OptionList(
                *[
                    Option(Content.assemble((f"{n}  ", "bold"), suggestion_content(s)), id=f"s{n - 1}")
                    for n, s in enumerate(self.suggestions, 1)
                ],
                id="always-list",
            )
            yield Static(ALWAYS_HINT, id="always-hint", classes="box-hint", markup=False)
        yield self.tell
        if self.edit_key or self.file_path is not None:
            with Vertical(id="edit-panel", classes="sub-panel"):
                what = _EDIT_LABELS.get(self.edit_key or "", self.edit_key or "input")
                yield Static(f"Edit the {what}, then allow it:", id="edit-prompt", classes="box-prompt",
                             markup=False)
                yield TextArea(id="editor", soft_wrap=True, show_line_numbers=self.edit_key != "command")
                yield Static(EDIT_HINT, id="edit-hint", classes="box-hint", markup=False)

    def on_mount(self) -> None:
        if self.file_path is not None:
            self._load_preview()

    @work(thread=True, exclusive=True, group="preview", exit_on_error=False)
    def _load_preview(self) -> None:
        # Reads the file on disk (guarded: regular files only, size-capped); never touches widgets.
        # A preview is a courtesy: whatever goes wrong, the dialog must stay answerable.
        try:
            options = self.session_options
            if options is not None and options.ssh is not None:  # the file is on the CLI's machine
                from claude_tui.remote.machine import machine_for

                diff = tool_diff_preview(self.request.tool_name, self.request.input, self.cwd,
                                    machine=machine_for(options))
            else:
                diff = tool_diff_preview(self.request.tool_name, self.request.input, self.cwd)
        except Exception as error:  # noqa: BLE001
            diff = FileDiff(self.file_path or "", "edit", note=f"No preview: {type(error).__name__}.")
        self.post_message(self.PreviewReady(diff))

    @on(PreviewReady)
    async def _show_preview(self, event: PreviewReady) -> None:
        loading = self.query("#preview-loading")
        body = self.query_one("#body", VerticalScroll)
        if event.diff is None:
            await loading.remove()
            return
        # split=None: the app-wide choice (palette), else by width; `s` here switches it, as in every diff.
        view = DiffView(event.diff, split=None, id="preview")
        view.can_focus = False  # DiffView binds n/p too: in this dialog n denies, so the dialog holds the keys.
        await body.mount(view, before=loading.first() if loading else None)
        await loading.remove()
        diff = event.diff
        # One hunk is taken or refused whole (y, n, e as for any input): a review needs two.
        if len(diff.hunks) > 1 and diff.before is not None and diff.after is not None and not diff.is_guarded:
            self.preview, self.review = diff, HunkChoice(len(diff.hunks))
            await body.mount(Static(HUNK_HINT, id="hunk-hint", classes="section-note", markup=False), before=view)
            self._show_hunks(scroll=False)

    # ------------------------------------------------------------------ hunks

    def _show_hunks(self, scroll: bool = True) -> None:
        review = self.review
        if review is None:
            return
        view = self.query_one("#preview", DiffView)
        row = view.mark_hunks(review.cursor, review.rejected, review.rewritten)
        if scroll and row is not None and self.preview is not None:
            body = self.query_one("#body", VerticalScroll)
            top = view.virtual_region.y + row
            rows = min(len(self.preview.hunks[review.cursor].lines) + 1, max(body.size.height, 1))
            body.scroll_to_region(Region(0, top, 1, rows), animate=False, immediate=True)

    async def _review_key(self, event: events.Key) -> bool:
        # Ahead of the body's own ↑↓ (it has focus): with a preview under review they move between hunks.
        if self.review is None or self.mode != "main" or self.settled or self.waiting:
            return False
        step = _HUNK_KEYS.get(event.key)
        if step is None and event.key not in ("space", "c"):
            return False
        if not self.keys_open():
            return False  # the guard is up: its rules have their say
        if step is not None:
            was = self.review.cursor
            self.review.move(step)
            if self.review.cursor == was:
                return False  # past the first or last hunk: the arrows scroll the body as they always do
        elif event.key == "c":  # a review comment on the hunk under the cursor (the app asks for its words)
            event.stop()
            event.prevent_default()
            view = self.query_one("#preview", DiffView)
            if self.preview is not None:  # to the app itself: posted from here, it would stop at this screen
                self.app.post_message(DiffView.CommentAsked(view, self.preview, self.review.cursor))
            return True
        else:
            self.review.toggle()
        event.stop()
        event.prevent_default()
        self._show_hunks()
        return True

    def _apply_part(self, why: str = "") -> None:
        """Allow the input rebuilt from the hunks taken; Claude is told what was left out."""
        diff, review = self.preview, self.review
        assert diff is not None and review is not None and diff.before is not None
        after = apply_hunks(diff.before, diff.hunks, review.accepted, review.rewritten)
        note = left_out_note(clean(self.file_path or diff.path), diff.hunks, review, why)
        if after == diff.before:  # nothing taken: a refusal that says so
            self.finish(PermissionDecision(self.request.request_id, False, message=note,
                                           words="Denied: every hunk left out"))
            return
        updated = rebuilt_input(self.request.tool_name, self.request.input, diff.before, after)
        taken = len(review.accepted)
        words = f"Allowed {taken} of {review.count} hunks" + (" (rewritten)" if review.rewritten else "")
        self.finish(PermissionDecision(self.request.request_id, True, updated_input=updated, words=words,
                                       follow_up=note))

    @on(TellBox.Told)
    def _told(self, event: TellBox.Told) -> None:
        # A told refusal, or under a hunk review the hunks taken, with why the rest was left out.
        event.stop()
        if not self.keys_open():
            return
        if self.review is not None and not self.review.whole:
            self._apply_part(event.text)
        else:
            self.finish(self.tell.refusal(self.request, event.text))

    # ------------------------------------------------------------------ modes

    def watch_mode(self, old: str, new: str) -> None:
        self.set_class(False, f"-mode-{old}")
        self.set_class(True, f"-mode-{new}")
        if new == "always":
            self.query_one("#always-list", OptionList).focus()
        elif new == "edit":
            self.query_one("#editor", TextArea).focus()
        elif new == "tell":
            self.tell.open()
        else:
            self.query_one("#body").focus()

    def _guard_changed(self, armed: bool) -> None:
        # The key bar, with its "keys paused…", is hidden in the sub-panels: their hint line says it.
        # Only there, and only on a change: this runs as the dialog opens, and keys must stay cheap.
        paused = armed and self.mode in ("always", "edit")
        if paused == self._hints_paused:
            return
        self._hints_paused = paused
        edit_hint = ESCAPED_EDIT_HINT if self.escaped_edit else EDIT_HINT
        for hint_id, hint in (("#always-hint", ALWAYS_HINT), ("#edit-hint", edit_hint)):
            for widget in self.query(hint_id).results(Static):
                widget.update(PAUSED + hint if paused else hint)

    _hints_paused = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "number":
            return self.mode in ("main", "always")
        if action == "submit_edit":
            return self.mode == "edit"
        return self.mode == "main" if action in self.MAIN_ACTIONS else True

    # ------------------------------------------------------------------ actions

    def action_allow(self) -> None:
        if self.keys_open() and self.review is not None and not self.review.whole:
            self._apply_part()
        elif self.keys_open():
            self.finish(PermissionDecision(self.request.request_id, True, words="Allowed once"))

    def action_always(self) -> None:
        if not self.keys_open() or not self.suggestions:
            return
        if len(self.suggestions) == 1:
            self._allow_always(0)
        else:
            # A fresh pause before the step that saves a rule for good: an "a" that started a
            # word, and the Enter that ended it, must not pick the highlighted suggestion.
            self.mode = "always"
            self.arm()

    def numbered(self) -> list[str]:
        """The main choices in Claude Code's order, 1 first: yes; yes and don't ask again (when Claude
        Code suggests a rule); no, and tell Claude what to do differently."""
        return ["allow", *(["always"] if self.suggestions else []), "tell"]

    def action_number(self, number: int) -> None:
        if self.mode == "always":
            self._pick(number - 1)
            return
        choices = self.numbered()
        if not 1 <= number <= len(choices):
            return
        run = {"allow": self.action_allow, "always": self.action_always, "tell": self.action_tell}
        run[choices[number - 1]]()

    def action_enter(self) -> None:
        # Enter takes the highlighted choice, as in Claude Code: the first, allow once. It obeys the
        # same rules as `y` (a ready dialog's first key, or after Tab and the guard). In the
        # sub-panels the focused list, message box or editor takes Enter itself.
        if self.mode == "main":
            self.action_allow()

    def _pick(self, index: int) -> None:
        if self.keys_open() and 0 <= index < len(self.suggestions):
            self._allow_always(index)

    @on(OptionList.OptionSelected, "#always-list")
    def _suggestion_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.keys_open():
            self._allow_always(event.option_index)

    def _allow_always(self, index: int) -> None:
        suggestion = self.suggestions[index]
        words = f"Always allowed: {clean(without_verb(describe_suggestion(suggestion)))}"
        self.finish(
            PermissionDecision(self.request.request_id, True, updated_permissions=[suggestion], words=words)
        )

    def action_deny(self) -> None:
        if self.keys_open():
            self.finish(PermissionDecision(self.request.request_id, False, message=DENY_MESSAGE, words="Denied"))

    def action_stop(self) -> None:
        if self.keys_open():
            self.finish(
                PermissionDecision(
                    self.request.request_id, False, message=STOP_MESSAGE, interrupt=True, words="Denied and stopped"
                )
            )

    def action_toggle_split(self) -> None:
        # No answer and nothing sent, so no guard: the preview only changes how it is drawn.
        for view in self.query("#preview").results(DiffView):
            view.action_toggle_split()

    def action_escape(self) -> None:
        """Esc: among the choices, the plain "no" (``n``); in a sub-panel, back to the choices."""
        if not self.keys_open():
            return
        if self.mode == "main":
            self.action_deny()
        else:
            self.mode = "main"

    def action_tell(self) -> None:
        if self.review is not None and not self.review.whole:
            for box in self.tell.query(".box-prompt").results(Static):
                box.update(HUNK_TELL)
        if self.keys_open():
            self.mode = "tell"

    def action_edit(self) -> None:
        if not self.keys_open():
            return
        self.editing_hunk = self.review is not None and self.preview is not None
        if self.editing_hunk:
            assert self.review is not None and self.preview is not None
            cursor = self.review.cursor
            value = self.review.rewritten.get(cursor, new_side(self.preview.hunks[cursor]))
            for prompt in self.query("#edit-prompt").results(Static):
                prompt.update(f"Rewrite the new lines of hunk {cursor + 1}, then keep them:")
        elif self.edit_key is None:
            return
        else:
            value = str(self.request.input.get(self.edit_key, ""))
        editor = self.query_one("#editor", TextArea)
        # Text with control characters or stray bytes cannot go into an editable TextArea (it draws
        # text as is: an ESC would reach the terminal): the editor shows it escaped, read only.
        self.escaped_edit = unusual(value)
        editor.read_only = self.escaped_edit
        editor.load_text(clean_block(value) if self.escaped_edit else value)
        for hint in self.query("#edit-hint").results(Static):
            hint.update(ESCAPED_EDIT_HINT if self.escaped_edit else HUNK_EDIT_HINT if self.editing_hunk else EDIT_HINT)
        editor.move_cursor(editor.document.end)  # typing continues the input, not prefixes it
        self.mode = "edit"
        self.arm()  # as for "always": Ctrl+S typed on the heels of "e" does not allow anything

    escaped_edit = False
    """The editor shows the input escaped: it can be read, never sent back as the input."""

    def action_submit_edit(self) -> None:
        if not self.keys_open() or self.escaped_edit:
            return
        text = self.query_one("#editor", TextArea).text
        if self.editing_hunk and self.review is not None and self.preview is not None:
            cursor = self.review.cursor
            if text == new_side(self.preview.hunks[cursor]):
                self.review.rewritten.pop(cursor, None)
            else:
                self.review.rewritten[cursor] = text
                self.review.rejected.discard(cursor)  # rewritten to be taken
            self.mode = "main"
            self._show_hunks()
            return
        if self.edit_key is None:
            return
        if text == self.request.input.get(self.edit_key):
            self.finish(PermissionDecision(self.request.request_id, True, words="Allowed once"))
            return
        updated = {**self.request.input, self.edit_key: text}
        self.finish(
            PermissionDecision(self.request.request_id, True, updated_input=updated, words="Allowed with edited input")
        )
