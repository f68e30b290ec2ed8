"""The AskUserQuestion dialog: one step per question, then a review step that sends.

Keys (behind the typeahead guard): a number key on a single-choice question picks
that option and goes on (toggles on a multiple-choice one), arrows move, Space
picks/toggles, Enter goes to the next step (picking the highlighted option on a
single-choice question) and, on the review, sends; Backspace or ← goes back; Esc
declines. "Other…" opens a line for a free answer. A single question needs no
review: its answer is sent as it is picked, so a single-choice question is one key
(with no Tab when it appears while the user is not typing, see :mod:`.modal_guard`). With
several questions, entering the review re-arms the guard, so a burst of Enters
cannot run through every question and send.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Input, Static
from textual.widgets.option_list import Option

from claude_tui.session.permissions import PermissionDecision, PermissionRequest
from claude_tui.ui.dialogs.base import DEFAULT_GUARD_MS, DIALOG_CSS, ENTER_ANSWERS_NOTHING, Attention, GuardedModal
from claude_tui.ui.dialogs.frame import DialogFrame
from claude_tui.ui.dialogs.parts import ChoiceList, Hint, KeyBar
from claude_tui.ui.dialogs.questions import (
    Answer,
    Question,
    answer_text,
    build_answers,
    is_complete,
    parse_questions,
)
from claude_tui.ui.dialogs.tool_input import clean
from claude_tui.ui.kit.safe_input import SafeInput

DECLINE_MESSAGE = "The user declined to answer."
HEADER_LIMIT = 24


class QuestionScreen(GuardedModal[PermissionDecision]):
    """Ask Claude's questions. Dismisses with a PermissionDecision; cancel() closes without one."""

    CSS_PATH = [DIALOG_CSS, "question.tcss"]
    AUTO_FOCUS: ClassVar[str | None] = "#choices"
    BINDINGS: ClassVar[list[BindingType]] = [
        ENTER_ANSWERS_NOTHING,  # the choice list takes Enter itself (it goes on to the next step)
        Binding("escape", "escape", "Decline", show=False),
        Binding("backspace,left", "back", "Back", show=False),
        Binding("up", "to_list", show=False),
        *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)],
    ]
    MARK_PAUSED = False  # "keys paused…" shows for as long as the guard is up
    ONE_KEY = frozenset(str(n) for n in range(1, 10))

    step: reactive[int] = reactive(0, init=False)

    def __init__(self, request: PermissionRequest, *, guard_ms: int = DEFAULT_GUARD_MS, bell: bool = True,
                 desktop: bool = True, **modal: Any) -> None:
        """`modal`: GuardedModal's options (position, total, name, id, classes)."""
        super().__init__(guard_ms=guard_ms, answers_cli=True,
                         attention=Attention("Claude has a question", bell, desktop), **modal)
        self.request = request
        self.questions: list[Question] = parse_questions(request.input)
        self.answers: list[Answer] = [Answer() for _ in self.questions]

    # ------------------------------------------------------------------ layout

    @property
    def on_review(self) -> bool:
        return self.step >= len(self.questions)

    @property
    def question(self) -> Question | None:
        return None if self.on_review else self.questions[self.step]

    def compose(self) -> ComposeResult:
        many = len(self.questions) > 1
        title = Content.assemble(" ", ("Claude has questions" if many else "Claude has a question", "bold"), " ")
        yield DialogFrame(title, self.hints(), head=self.compose_head(), body=self.compose_body(),
                          foot=self.compose_foot(), waiting=self.waiting, position=self.position, total=self.total,
                          classes="question-dialog")

    def compose_head(self) -> ComposeResult:
        # The question stays in the (docked) head so it is visible however far the options scroll.
        yield Static(id="steps", markup=False)
        yield Static(id="question", markup=False)
        yield Static(id="question-hint", markup=False)

    def compose_body(self) -> ComposeResult:
        yield ChoiceList(id="choices")
        yield Static(id="review", markup=False)

    def compose_foot(self) -> ComposeResult:
        yield SafeInput(id="other", placeholder="Type your answer, then Enter", select_on_focus=False)
        yield Static(id="step-note", markup=False)

    def hints(self) -> list[Hint]:
        back = [Hint("←", "Back", "back")] if self.step > 0 else []
        if not self.questions:
            return [Hint("Esc", "Decline", "decline", "deny")]
        if self.on_review:
            return [Hint("Enter", "Send answers", "next", "allow"), *back, Hint("Esc", "Decline", "decline", "deny")]
        question = self.questions[self.step]
        count = len(question.choices) + 1
        last = self.step == len(self.questions) - 1
        return [
            Hint(f"1–{count}", "Toggle" if question.multi else "Pick", ""),
            Hint("↑↓", "Move", ""),
            Hint("Enter", ("Send" if len(self.questions) == 1 else "Review") if last else "Next", "next", "allow"),
            *back,
            Hint("Esc", "Decline", "decline", "deny"),
        ]

    def on_mount(self) -> None:
        self._render_step()

    def watch_step(self) -> None:
        self._render_step()
        if self.on_review:
            # A fresh pause before the step that sends: typed-ahead Enters stop here.
            self.arm()

    def _render_step(self) -> None:
        self.set_class(self.on_review, "-review")
        self.query_one("#steps", Static).update(self._steps_content())
        self.query_one(KeyBar).set_hints(self.hints())
        self.query_one("#step-note", Static).update("")
        question = self.question
        if question is None:
            self.query_one("#review", Static).update(self._review_content())
            self.query_one("#other", Input).display = False  # the review shows the answer itself
            self.set_focus(None)
            return
        answer = self.answers[self.step]
        self.query_one("#question", Static).update(Content(clean(question.question)))
        hint = "Choose any that apply." if question.multi else "Choose one."
        self.query_one("#question-hint", Static).update(hint)
        choices = self.query_one("#choices", ChoiceList)
        choices.set_options(self._option(question, answer, i) for i in range(len(question.choices) + 1))
        picked = sorted(answer.picked)
        choices.highlighted = picked[0] if picked else 0
        other = self.query_one("#other", Input)
        other.value = answer.other
        self._show_other(question, answer)
        choices.focus()

    def _steps_content(self) -> Content:
        parts: list[Content] = []
        for index, question in enumerate(self.questions):
            header = clean(question.header)
            header = header if len(header) <= HEADER_LIMIT else header[: HEADER_LIMIT - 1] + "…"
            done = index < len(self.answers) and is_complete(question, self.answers[index])
            mark = "✓ " if done else f"{index + 1} "
            style = "bold reverse" if index == self.step else ("" if done else "dim")
            parts.append(Content.styled(f" {mark}{header} ", style))
        if len(self.questions) > 1:  # one question is sent as it is answered: no review step
            parts.append(Content.styled(" Review ", "bold reverse" if self.on_review else "dim"))
        return Content(" › ").join(parts)

    def _option(self, question: Question, answer: Answer, index: int) -> Option:
        other = index == len(question.choices)
        on = index in answer.picked
        mark = ("■" if on else "□") if question.multi else ("●" if on else "○")
        label = "Other…" if other else clean(question.choices[index].label)
        description = clean(question.choices[index].description) if not other else ""
        if other:
            description = f"“{clean(answer.other)}”" if answer.other else "type your own answer"
        # A two-column grid gives long labels and descriptions a hanging indent.
        # Text(...) is built from plain strings: nothing here is parsed as markup.
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        body = Text()
        body.append(label, style="bold")
        if description:
            body.append("\n")
            body.append(description, style="dim")
        grid.add_row(Text.assemble((f"{index + 1}", "dim"), " ", (mark, "bold" if on else "")), body)
        return Option(grid)

    def _review_content(self) -> Content:
        if not self.questions:
            return Content("This request has no questions to answer.")
        lines: list[Content] = []
        for question, answer in zip(self.questions, self.answers, strict=True):
            lines.append(Content.styled(clean(question.question), "bold"))
            lines.append(Content.assemble(("  → ", "dim"), clean(answer_text(question, answer))))
        return Content("\n").join(lines)

    def _refresh_options(self) -> None:
        question = self.question
        if question is None:
            return
        choices = self.query_one("#choices", ChoiceList)
        answer = self.answers[self.step]
        for index in range(len(question.choices) + 1):
            choices.replace_option_prompt_at_index(index, self._option(question, answer, index).prompt)
        self._show_other(question, answer)

    def _show_other(self, question: Question, answer: Answer) -> None:
        other = self.query_one("#other", Input)
        shown = len(question.choices) in answer.picked
        if other.display != shown:
            other.display = shown
            # The box takes room from the options: keep the highlighted one in view.
            choices = self.query_one("#choices", ChoiceList)
            self.call_after_refresh(choices.scroll_to_highlight)

    def _note(self, text: str) -> None:
        self.query_one("#step-note", Static).update(text)

    # ------------------------------------------------------------------ picking

    def _pick(self, index: int, confirm: bool) -> None:
        question = self.question
        if question is None or not 0 <= index <= len(question.choices):
            return
        answer = self.answers[self.step]
        other = index == len(question.choices)
        if not question.multi:
            answer.picked = {index}
        elif not confirm:
            answer.picked ^= {index}
        self.query_one("#choices", ChoiceList).highlighted = index
        self._note("")  # a pick answers any "pick an answer first" reminder
        self._refresh_options()
        if other and index in answer.picked and not (confirm and answer.other.strip()):
            self.query_one("#other", Input).focus()
            return
        if confirm:
            self._advance()

    def _confirm(self, index: int) -> None:
        # On a multiple-choice question Enter only moves on; it never toggles.
        if self.question is not None and self.question.multi:
            self._advance()
        else:
            self._pick(index, confirm=True)

    @on(ChoiceList.Confirmed, "#choices")
    def _confirmed(self, event: ChoiceList.Confirmed) -> None:
        event.stop()
        if self.keys_open():
            self._confirm(event.index)

    @on(ChoiceList.Toggled, "#choices")
    def _toggled(self, event: ChoiceList.Toggled) -> None:
        event.stop()
        if self.keys_open():
            self._pick(event.index, confirm=False)

    def action_pick(self, index: int) -> None:
        if self.keys_open() and self.focused is not self.query_one("#other", Input):
            # A number is the choice itself on a single-choice question (as in Claude Code): no Enter.
            question = self.question
            self._pick(index, confirm=question is not None and not question.multi)

    @on(Input.Changed, "#other")
    def _other_changed(self, event: Input.Changed) -> None:
        if self.question is not None:
            self.answers[self.step].other = event.value
            self._refresh_options()

    @on(Input.Submitted, "#other")
    def _other_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.keys_open():
            self._advance()

    # ------------------------------------------------------------------ steps

    def _advance(self) -> None:
        if self.on_review:
            self._send()
            return
        question, answer = self.questions[self.step], self.answers[self.step]
        if not is_complete(question, answer):
            other = len(question.choices) in answer.picked
            self._note("Type your answer for Other first." if other else "Pick an answer first.")
            return
        if len(self.questions) == 1:
            self._send()  # one answer: the review would only show what was just picked
            return
        self.step += 1

    def action_enter(self) -> None:
        """Enter with nothing focused (the review step, or after a click elsewhere)."""
        if not self.keys_open():
            return
        if self.on_review:
            self._send()
        else:
            self._confirm(self.query_one("#choices", ChoiceList).highlighted or 0)

    def action_next(self) -> None:
        if self.keys_open():
            self._advance()

    def action_back(self) -> None:
        if self.keys_open() and self.step > 0:
            self.step -= 1

    def action_to_list(self) -> None:
        if not self.on_review:
            self.query_one("#choices", ChoiceList).focus()

    def action_escape(self) -> None:
        if not self.keys_open():
            return
        if self.focused is self.query_one("#other", Input):
            self.query_one("#choices", ChoiceList).focus()
        else:
            self.action_decline()

    def action_decline(self) -> None:
        if self.keys_open():
            self.finish(
                PermissionDecision(self.request.request_id, False, message=DECLINE_MESSAGE, words="Declined to answer")
            )

    def _send(self) -> None:
        if not self.questions:
            return
        answers = build_answers(self.questions, self.answers)
        updated = {**self.request.input, "answers": answers}
        summary = "; ".join(
            f"{clean(q.header)}: {clean(answer_text(q, a))}" for q, a in zip(self.questions, self.answers, strict=True)
        )
        self.finish(PermissionDecision(self.request.request_id, True, updated_input=updated,
                                       words=f"Answered — {summary}"))
