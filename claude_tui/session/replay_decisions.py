"""What the user decided on a permission request, read back from a transcript.

Live, a tool card says how it was allowed ("Allowed once") or what was answered
("Answered — Color: Red"); those words came from the dialog. A transcript keeps the
facts they were made of: ``permissionDecision`` on the tool result's record (who
accepted, for how long) and, for AskUserQuestion, the questions and answers in
``toolUseResult``. Only words the live dialogs use are rebuilt; a decision the
transcript does not tell (a saved rule, a mode) leaves the card as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from claude_tui.session.conversation import Conversation

ASK_TOOL = "AskUserQuestion"


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def answered_words(result: object) -> str | None:
    """``Answered — Header: answer; …`` from an AskUserQuestion ``toolUseResult``."""
    if not isinstance(result, Mapping):
        return None
    questions, answers = result.get("questions"), result.get("answers")
    if not isinstance(questions, list) or not isinstance(answers, Mapping) or not answers:
        return None
    parts = []
    for question in questions:
        if not isinstance(question, Mapping):
            continue
        answer = answers.get(question.get("question"))
        if isinstance(answer, str):
            parts.append(f"{_one_line(question.get('header') or question.get('question'))}: {_one_line(answer)}")
    return f"Answered — {'; '.join(parts)}" if parts else None


def allowed_words(decision: object) -> str | None:
    """"Allowed once" for a one-time acceptance by the user (what the dialog's y says)."""
    if not isinstance(decision, Mapping) or decision.get("decision") != "accept":
        return None
    if decision.get("source") == "user_temporary" and decision.get("grantScope") in (None, "once"):
        return "Allowed once"
    return None


def restore_decisions(conversation: Conversation, records: Iterable[Mapping[str, Any]]) -> None:
    """Put the decision words back on the replayed main log's tool cards that have none."""
    tools = conversation.main.tools
    for record in records:
        if record.get("type") != "user":
            continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, Mapping) else None
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, Mapping) or block.get("type") != "tool_result":
                continue
            tool = tools.get(block.get("tool_use_id"))  # type: ignore[arg-type]
            if tool is None or tool.decision:
                continue
            words = answered_words(record.get("toolUseResult")) if tool.name == ASK_TOOL else None
            tool.decision = words or allowed_words(record.get("permissionDecision"))
