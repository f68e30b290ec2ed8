"""Everything we write to the CLI's stdin, as plain dicts (serialize with `encode_line`).

Shapes follow the recordings in tests/fixtures/claude-code-2.1.330/*.stdin.ndjson.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .user_dialogs import KINDS

__all__ = [
    "new_request_id", "user_message", "image_block", "control_request", "initialize", "session_initialize",
    "interrupt", "encode_line",
    "set_permission_mode", "set_model", "set_max_thinking_tokens", "stop_task", "rewind_files", "allow", "deny",
    "answer_questions", "control_error", "control_success", "join_labels",
]

_counter = itertools.count(1)


def new_request_id(prefix: str = "req") -> str:
    """A request id unique within this process: `req_<n>_<random hex>`."""
    return f"{prefix}_{next(_counter)}_{os.urandom(4).hex()}"


def image_block(data: bytes | str, media_type: str = "image/png") -> dict[str, Any]:
    """A base64 image content block (`data` is raw bytes or an already base64-encoded string)."""
    b64 = base64.b64encode(data).decode("ascii") if isinstance(data, (bytes, bytearray)) else data
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": b64}}


def user_message(
    text: str, images: Iterable[dict[str, Any] | tuple[bytes | str, str]] = (), session_id: str = "",
    before: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A user turn. `images` are content blocks or (data, media_type) pairs; they precede the text.
    `before`: content blocks that open the message (a `!command` and its output, as text blocks)."""
    content: list[dict[str, Any]] = [dict(block) for block in before]
    for img in images:
        content.append(dict(img) if isinstance(img, Mapping) else image_block(img[0], img[1]))
    content.append({"type": "text", "text": text})
    return {
        "type": "user",
        "session_id": session_id,
        "message": {"role": "user", "content": content},
        "parent_tool_use_id": None,
    }


def control_request(subtype: str, request_id: str | None = None, **fields: Any) -> dict[str, Any]:
    return {
        "type": "control_request",
        "request_id": request_id or new_request_id(),
        "request": {"subtype": subtype, **fields},
    }


def initialize(request_id: str | None = None, **fields: Any) -> dict[str, Any]:
    """`fields` may carry optional initialize options (hooks, agents, ...); none are needed."""
    return control_request("initialize", request_id, **fields)


def session_initialize(request_id: str | None = None) -> dict[str, Any]:
    """The initialize every session opens with (the launcher writes it as it spawns the first CLI,
    `transport/early.py`, and the client then awaits that one's answer instead of asking again)."""
    # We render a stop for each background task (the sidebar's `x`, `stop_task`): declared, Esc ends
    # only the turn and spares running agents (CLIs before 2.1.290 ignore the field and kill them).
    # The dialogs of Claude Code's own we render (`request_user_dialog`): declared, or the CLI sends none.
    return initialize(request_id, perTaskStopAffordance=True, supportedDialogKinds=list(KINDS))


def encode_line(obj: Mapping[str, Any]) -> bytes:
    """Compact JSON plus a newline (non-ASCII kept as UTF-8)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def interrupt(request_id: str | None = None) -> dict[str, Any]:
    return control_request("interrupt", request_id)


def set_permission_mode(mode: str, request_id: str | None = None) -> dict[str, Any]:
    return control_request("set_permission_mode", request_id, mode=mode)


def set_model(model: str | None, request_id: str | None = None) -> dict[str, Any]:
    return control_request("set_model", request_id, model=model)


def set_max_thinking_tokens(n: int | None, request_id: str | None = None) -> dict[str, Any]:
    return control_request("set_max_thinking_tokens", request_id, max_thinking_tokens=n)


def stop_task(task_id: str, request_id: str | None = None) -> dict[str, Any]:
    return control_request("stop_task", request_id, task_id=task_id)


def rewind_files(user_message_id: str, dry_run: bool = False, request_id: str | None = None) -> dict[str, Any]:
    """Put files back as they were before a user message (needs file checkpoints, see transport.options).

    The answer: `{canRewind, error?, filesChanged, insertions, deletions}` (dry run) or
    `{canRewind, skippedLinks}`; `canRewind: false` with `error` when there is no checkpoint.
    """
    return control_request("rewind_files", request_id, user_message_id=user_message_id, dry_run=dry_run)


def control_success(request_id: str, response: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"subtype": "success", "request_id": request_id}
    if response is not None:
        body["response"] = response
    return {"type": "control_response", "response": body}


def allow(
    request_id: str, updated_input: Mapping[str, Any], updated_permissions: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """Allow a `can_use_tool` request. The CLI requires `updatedInput` (pass the request's input
    unchanged to allow as is). `updated_permissions` are suggestions sent back verbatim ("always")."""
    resp: dict[str, Any] = {"behavior": "allow", "updatedInput": dict(updated_input)}
    if updated_permissions:
        resp["updatedPermissions"] = [dict(p) for p in updated_permissions]
    return control_success(request_id, resp)


def deny(request_id: str, message: str, interrupt: bool = False) -> dict[str, Any]:
    """Deny a `can_use_tool` request; `message` is shown to the model. `interrupt` also stops the turn."""
    resp: dict[str, Any] = {"behavior": "deny", "message": message}
    if interrupt:
        resp["interrupt"] = True
    return control_success(request_id, resp)


def join_labels(labels: str | Iterable[str]) -> str:
    """Several labels of a multiSelect question are joined with ", "."""
    return labels if isinstance(labels, str) else ", ".join(labels)


def answer_questions(
    request_id: str, questions: Sequence[Mapping[str, Any]], answers: Mapping[str, str | Iterable[str]]
) -> dict[str, Any]:
    """Answer AskUserQuestion: allow with updatedInput={questions, answers:{question text: label}}."""
    return allow(
        request_id,
        {"questions": [dict(q) for q in questions], "answers": {q: join_labels(a) for q, a in answers.items()}},
    )


def control_error(request_id: str, error: str) -> dict[str, Any]:
    """Answer a control request we do not handle (or that failed)."""
    return {"type": "control_response", "response": {"subtype": "error", "request_id": request_id, "error": error}}
