"""Builders reproduce the shapes recorded in *.stdin.ndjson (ids aside)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from claude_tui.protocol import ControlResponse, ImageBlock, TextBlock, UserMessage, decode_line, encode_line
from claude_tui.protocol import builders as b

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code-2.1.330"


def _stdin(name: str) -> list[dict]:
    return [json.loads(ln) for ln in (FIX / f"{name}.stdin.ndjson").read_text().splitlines() if ln.strip()]


def _strip_ids(obj):
    if isinstance(obj, dict):
        return {k: _strip_ids(v) for k, v in obj.items() if k not in ("request_id", "uuid")}
    if isinstance(obj, list):
        return [_strip_ids(v) for v in obj]
    return obj


def _same(built: dict, recorded: dict) -> None:
    assert _strip_ids(built) == _strip_ids(recorded)
    assert list(built) == list(recorded)  # same keys, same order as the CLI saw them


# The manage recording's requests (mcp_status, get_context_usage, …) are rebuilt by their own
# builders in tests/unit/test_protocol_manage.py.
ALL_STDIN = sorted(p.name.split(".")[0] for p in FIX.glob("*.stdin.ndjson") if not p.name.startswith("manage."))


@pytest.mark.parametrize("name", ALL_STDIN)
def test_every_recorded_stdin_line_is_reproduced(name: str) -> None:
    for rec in _stdin(name):
        if rec["type"] == "user":
            text = rec["message"]["content"][0]["text"]
            _same(b.user_message(text), rec)
        elif rec["type"] == "control_request":
            req = rec["request"]
            builder = {
                "initialize": lambda: b.initialize(rec["request_id"]),
                "interrupt": lambda: b.interrupt(rec["request_id"]),
                "set_permission_mode": lambda: b.set_permission_mode(req.get("mode"), rec["request_id"]),
                "set_model": lambda: b.set_model(req.get("model"), rec["request_id"]),
            }[req["subtype"]]
            built = builder()
            assert built == rec  # exact, ids included
        elif rec["type"] == "control_response":
            inner = rec["response"]["response"]
            rid = rec["response"]["request_id"]
            if inner["behavior"] == "deny":
                built = b.deny(rid, inner["message"])
            elif "answers" in inner["updatedInput"]:
                ui = inner["updatedInput"]
                answers = {q: (a.split(", ") if ", " in a else a) for q, a in ui["answers"].items()}
                built = b.answer_questions(rid, ui["questions"], answers)
            else:
                built = b.allow(rid, inner["updatedInput"])
            assert built == rec
        else:  # pragma: no cover
            pytest.fail(f"unexpected stdin record {rec['type']}")


def test_multiselect_labels_joined() -> None:
    qs = [{"question": "Which toppings?", "header": "T", "options": [], "multiSelect": True}]
    out = b.answer_questions("r", qs, {"Which toppings?": ["Cheese", "Olives"]})
    assert out["response"]["response"]["updatedInput"]["answers"] == {"Which toppings?": "Cheese, Olives"}
    assert out["response"]["response"]["behavior"] == "allow"


def test_allow_with_permissions_and_deny_interrupt() -> None:
    sug = {"type": "setMode", "mode": "acceptEdits", "destination": "session"}
    a = b.allow("r1", {"x": 1}, [sug])
    assert a["response"]["response"] == {"behavior": "allow", "updatedInput": {"x": 1}, "updatedPermissions": [sug]}
    d = b.deny("r2", "no", interrupt=True)
    assert d["response"] == {"subtype": "success", "request_id": "r2",
                             "response": {"behavior": "deny", "message": "no", "interrupt": True}}
    assert "interrupt" not in b.deny("r3", "no")["response"]["response"]


def test_control_requests_and_errors() -> None:
    assert b.set_max_thinking_tokens(1024, "q")["request"] == {"subtype": "set_max_thinking_tokens",
                                                              "max_thinking_tokens": 1024}
    assert b.stop_task("t1", "q")["request"] == {"subtype": "stop_task", "task_id": "t1"}
    assert b.control_request("mcp_status", "q") == {"type": "control_request", "request_id": "q",
                                                   "request": {"subtype": "mcp_status"}}
    err = b.control_error("q", "unsupported")
    assert err == {"type": "control_response", "response": {"subtype": "error", "request_id": "q",
                                                             "error": "unsupported"}}
    decoded = decode_line(encode_line(err))
    assert isinstance(decoded, ControlResponse) and decoded.is_error and decoded.error == "unsupported"


def test_request_ids_unique() -> None:
    ids = {b.new_request_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert b.new_request_id("init").startswith("init_")
    assert b.interrupt()["request_id"] != b.interrupt()["request_id"]


def test_user_message_with_images() -> None:
    m = b.user_message("look", images=[(b"\x89PNG", "image/png"), b.image_block("QUJD", "image/jpeg")])
    content = m["message"]["content"]
    assert content[0]["source"] == {"type": "base64", "media_type": "image/png",
                                    "data": base64.b64encode(b"\x89PNG").decode()}
    assert content[1]["source"]["data"] == "QUJD"
    assert content[2] == {"type": "text", "text": "look"}
    msg = decode_line(encode_line(m))
    assert isinstance(msg, UserMessage)
    assert [type(x) for x in msg.message.content] == [ImageBlock, ImageBlock, TextBlock]
