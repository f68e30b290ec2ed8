"""`request_user_dialog`: the CLI asks its host to render one of its blocking dialogs.

A kind is sent only to a host that declared it at `initialize` (`supportedDialogKinds`); without it
the CLI takes the flow's no-dialog path (for `refusal_fallback_prompt`, the refusal error ends the
turn). claude-tui declares the kinds it renders (`KINDS`), each a choice among a few answers, read
here from the payload the CLI's own schema gives it (2.1.330's binary):

* `refusal_fallback_prompt` {originalModel, fallbackModel, apiRefusalCategory?, guidanceText?}: the
  model declined; retry the turn on the fallback model, or edit the prompt. Result
  `retry_fallback` | `edit_prompt`.
* `auto_mode_outside_reads` {toolName, path, title, question, explainer, options: [{value, label}]}:
  auto mode met a read outside the working directories. Result: one of the options' values.

The answer is `{behavior: "completed", result}`; Esc is `{behavior: "cancelled"}`, which the CLI treats
as the user dismissing the dialog and settles with the dialog's default. Every text in a payload
(models, paths, the question) is shown inert. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["KINDS", "UserDialog", "cancelled", "completed", "read_dialog"]


@dataclass(frozen=True)
class UserDialog:
    kind: str
    title: str
    question: str
    options: list[tuple[str, str]]
    """(result value, label), in the order shown (1, 2, …)."""
    details: list[str] = field(default_factory=list)


def _text(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


def _refusal(payload: dict[str, Any]) -> UserDialog | None:
    original, fallback = _text(payload, "originalModel"), _text(payload, "fallbackModel")
    if not fallback:
        return None
    details = [f"Category: {_text(payload, 'apiRefusalCategory')}"] if _text(payload, "apiRefusalCategory") else []
    if _text(payload, "guidanceText"):
        details.append(_text(payload, "guidanceText"))
    return UserDialog("refusal_fallback_prompt", "The model declined",
                      f"{original or 'The model'} declined to answer this turn. Retry it on {fallback}?",
                      [("retry_fallback", f"Retry on {fallback}"), ("edit_prompt", "Edit the prompt instead")],
                      details)


def _outside_reads(payload: dict[str, Any]) -> UserDialog | None:
    raw = payload.get("options")
    options = [(o["value"], o["label"]) for o in raw if isinstance(o, dict)
               and isinstance(o.get("value"), str) and isinstance(o.get("label"), str)] if isinstance(raw, list) else []
    if not options:
        return None
    details = [line for line in (_text(payload, "explainer"),
                                 f"{_text(payload, 'toolName')} reads {_text(payload, 'path')}".strip()
                                 if _text(payload, "path") else "") if line]
    return UserDialog("auto_mode_outside_reads", _text(payload, "title") or "A read outside the working directories",
                      _text(payload, "question") or "Allow reads outside the working directories?", options, details)


_READERS = {"refusal_fallback_prompt": _refusal, "auto_mode_outside_reads": _outside_reads}
KINDS: tuple[str, ...] = tuple(_READERS)
"""What claude-tui declares at `initialize` (`supportedDialogKinds`): exactly the kinds it renders."""


def read_dialog(kind: object, payload: object) -> UserDialog | None:
    """The dialog to show; None for a kind we do not render or a payload we cannot read."""
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    return reader(payload) if reader is not None and isinstance(payload, dict) else None


def completed(result: str) -> dict[str, Any]:
    return {"behavior": "completed", "result": result}


def cancelled() -> dict[str, Any]:
    return {"behavior": "cancelled"}
