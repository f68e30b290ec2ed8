"""AskUserQuestion input parsed into steps, and the answers built the way the CLI expects.

The CLI reads ``updatedInput = {questions: <as sent>, answers: {question text: answer}}``;
a multiSelect answer joins its labels with ", " and an "Other" answer is the
user's own text (see the ask-single / ask-multi recordings). Parsing is lenient:
malformed entries are skipped rather than raised, because a broken request must
still be declinable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_QUESTIONS = 4
"""The tool allows 1–4 questions; more are ignored rather than shown."""


@dataclass(frozen=True)
class Choice:
    label: str
    description: str = ""


@dataclass(frozen=True)
class Question:
    question: str
    header: str
    choices: tuple[Choice, ...]
    multi: bool = False


@dataclass
class Answer:
    """The user's picks on one step: option indices (``len(choices)`` means "Other") and Other's text."""

    picked: set[int] = field(default_factory=set)
    other: str = ""


def parse_questions(tool_input: Mapping[str, Any]) -> list[Question]:
    """The questions of an AskUserQuestion input; entries without question text are skipped."""
    raw = tool_input.get("questions")
    if not isinstance(raw, list):
        return []
    questions: list[Question] = []
    for entry in raw:
        if not isinstance(entry, Mapping):
            continue
        text = entry.get("question")
        if not isinstance(text, str) or not text.strip():
            continue
        choices = []
        for option in entry.get("options") or []:
            if isinstance(option, Mapping) and isinstance(option.get("label"), str):
                description = option.get("description")
                choices.append(Choice(option["label"], description if isinstance(description, str) else ""))
        header = entry.get("header")
        questions.append(
            Question(text, header if isinstance(header, str) and header else f"Q{len(questions) + 1}",
                     tuple(choices), bool(entry.get("multiSelect")))
        )
        if len(questions) == MAX_QUESTIONS:
            break
    return questions


def answer_text(question: Question, answer: Answer) -> str:
    """One answer as the CLI wants it: the label, labels joined with ", ", or Other's text."""
    other_index = len(question.choices)
    parts = [question.choices[i].label for i in sorted(answer.picked) if i < other_index]
    if other_index in answer.picked and answer.other.strip():
        parts.append(answer.other.strip())
    return ", ".join(parts)


def is_complete(question: Question, answer: Answer) -> bool:
    """True when the step has something to send (Other needs its text)."""
    return bool(answer_text(question, answer))


def build_answers(questions: list[Question], answers: list[Answer]) -> dict[str, str]:
    """``{question text: answer}`` for every question."""
    return {q.question: answer_text(q, a) for q, a in zip(questions, answers, strict=True)}
