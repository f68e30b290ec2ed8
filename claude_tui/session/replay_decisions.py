"""What the user decided on a permission request, read back from a transcript.

Live, a tool card says how it was allowed ("Allowed once", "Always allowed: …") or what was
answered ("Answered — Color: Red"); those words came from the dialog. A transcript keeps the
facts they were made of: ``permissionDecision`` on the tool result's record (who accepted, for
how long) and, for AskUserQuestion, the questions and answers in ``toolUseResult``. Only words
the live dialogs use are rebuilt (the heads: which rule was saved is not kept); a call no dialog
asked about (a saved rule, a mode) leaves the card as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from claude_tui.protocol.versions import parse_version
from claude_tui.session.conversation import Conversation

ASK_TOOL = "AskUserQuestion"
PLAN_TOOL = "ExitPlanMode"
SCOPE_WRITTEN_FROM = (2, 1, 330)
"""The first CLI seen to write ``grantScope`` for every answer but "always" (2.1.332 too; 2.1.290 writes
no ``permissionDecision`` at all). It leaves the scope out when the answer saved a rule to a settings
file ("always" is the default it omits), so only from it on does a missing scope mean "always"."""


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


def allowed_words(decision: object, version: object = None) -> str | None:
    """The head of what the permission dialog said for a call the user allowed, from its ``permissionDecision``.

    An answer from our dialog is ``source`` "user_temporary" (we send no ``decisionClassification``)
    and carries no ``reasonType``: a call a rule or a mode allowed has one ("rule", …), and its
    ``source`` names where the rule lives ("user_permanent" for a settings file), not an answer.
    ``grantScope`` is "once" for the dialog's y and "session" for a rule kept for the session; for a
    rule saved to a settings file the CLI writes none (see ``SCOPE_WRITTEN_FROM``). Where nothing
    tells the scope (an older CLI, or no ``version``), "Allowed" says what is known.
    """
    if not isinstance(decision, Mapping) or decision.get("decision") != "accept" or "reasonType" in decision:
        return None
    source, scope = decision.get("source"), decision.get("grantScope")
    if source not in ("user_temporary", "user_permanent"):
        return None
    if scope == "once":
        return "Allowed once"
    if source == "user_permanent" or scope in ("session", "always"):
        return "Always allowed"
    if scope is None:
        parsed = parse_version(version)
        return "Always allowed" if parsed is not None and parsed >= SCOPE_WRITTEN_FROM else "Allowed"
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
            if tool.name == PLAN_TOOL:
                continue  # approving a plan changes the mode for the session: no rule was kept, so not "always"
            words = answered_words(record.get("toolUseResult")) if tool.name == ASK_TOOL else None
            tool.decision = words or allowed_words(record.get("permissionDecision"), record.get("version"))
