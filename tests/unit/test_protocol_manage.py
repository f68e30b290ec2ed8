"""The manage requests and their answers, against the real CLI 2.1.330's recording (manage.*.ndjson)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_tui.protocol import decode_line, manage, versions
from claude_tui.protocol.control import ControlRequest, ElicitationRequest
from claude_tui.protocol.elicitation import answer, form_fields, parse_values

FIX = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330"


def _lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIX / name).read_text().splitlines()]


def _answers(subtype: str) -> list[dict[str, Any]]:
    """The recorded answers to our requests of `subtype`, in order (their ids name the subtype)."""
    return [m["response"] for m in _lines("manage.stdout.ndjson")
            if m["type"] == "control_response" and f"_{subtype}_" in m["response"]["request_id"]]


def test_requests_are_the_shapes_the_cli_answered() -> None:
    sent = {m["request"]["subtype"]: m["request"] for m in _lines("manage.stdin.ndjson")
            if m["type"] == "control_request"}
    built = {
        "mcp_toggle": manage.mcp_toggle("notes", False), "mcp_reconnect": manage.mcp_reconnect("broken"),
        "get_usage": manage.get_usage(), "rename_session": manage.rename_session("Notes work"),
        "list_permission_rules": manage.list_permission_rules(), "get_hooks_listing": manage.get_hooks_listing(),
        "reload_skills": manage.reload_skills(), "reload_plugins": manage.reload_plugins(),
        "mcp_status": manage.mcp_status(), "get_context_usage": manage.get_context_usage(),
    }
    for subtype, request in built.items():
        assert request["request"].keys() == sent[subtype].keys(), subtype
    flags = manage.apply_permission_rules(["WebFetch"], [], [])["request"]
    assert flags == {**sent["apply_flag_settings"], "settings": {"permissions": {"allow": ["WebFetch"],
                                                                                   "deny": [], "ask": []}}}


def test_mcp_status_states() -> None:
    statuses = [manage.parse_answer(manage.McpStatus, a["response"]) for a in _answers("mcp_status")]
    last = {s.name: s for s in statuses[-1].servers}
    assert last["notes"].status == "connected"
    assert [t.name for t in last["notes"].tools] == ["add_note", "ask_profile"]
    assert last["broken"].status == "failed" and "ENOENT" in (last["broken"].error or "")
    assert any(s.status == "disabled" for st in statuses for s in st.servers if s.name == "notes")


def test_failed_reconnect_is_an_error_with_the_reason() -> None:
    (reply,) = _answers("mcp_reconnect")
    assert reply["subtype"] == "error" and "ENOENT" in reply["error"]


def test_context_usage() -> None:
    usage = manage.parse_answer(manage.ContextUsage, _answers("get_context_usage")[-1]["response"])
    kinds = {c.kind for c in usage.categories}
    assert {"used", "free", "buffer"} <= kinds
    assert usage.max_tokens > usage.total_tokens > 0
    assert any(c.id == "mcp_tools" or "MCP" in c.name for c in usage.categories) or usage.mcp_tools


def test_usage_of_an_api_key_account_has_no_limits() -> None:
    usage = manage.parse_answer(manage.Usage, _answers("get_usage")[0]["response"])
    assert usage.rate_limits_available is False and usage.windows() == []


def test_limits_windows_are_named() -> None:
    usage = manage.parse_answer(manage.Usage, {"rate_limits_available": True, "rate_limits": {
        "five_hour": {"utilization": 40, "resets_at": "2026-12-02T03:00:00Z"}, "seven_day": None}})
    assert [(label, w.utilization) for label, w in usage.windows()] == [("5-hour limit", 40)]


def test_permission_rules_follow_the_flag_layer() -> None:
    states = [manage.PermissionRules.from_answer(a["response"]) for a in _answers("list_permission_rules")]
    first, added, removed = states
    assert {(r.behavior, r.source, r.rule) for r in first.rules} >= {
        ("deny", "projectSettings", "Read(./secrets/**)"), ("ask", "projectSettings", "Bash(git push:*)")}
    assert {r.rule for r in added.rules if r.source == "flagSettings"} == {"Bash(ls:*)", "WebFetch"}
    # The layer keeps the lists it was given last: a rule left out is gone.
    assert {r.rule for r in removed.rules if r.source == "flagSettings"} == {"WebFetch"}
    ask = next(r for r in first.rules if r.behavior == "ask")
    assert ask.description is not None and ask.description.text == "Any Bash command starting with git push"


def test_hooks_listing() -> None:
    listing = manage.parse_answer(manage.HooksListing, _answers("get_hooks_listing")[0]["response"])
    (row,) = listing.hooks
    assert (row.event, row.matcher, row.source, row.command_text) == ("PreToolUse", "Bash", "projectSettings",
                                                                      "echo checked")


def test_reloads() -> None:
    skills = manage.parse_answer(manage.ReloadedSkills, _answers("reload_skills")[0]["response"])
    plugins = manage.parse_answer(manage.ReloadedPlugins, _answers("reload_plugins")[0]["response"])
    assert skills.skills and plugins.commands
    assert {s.name for s in plugins.mcp_servers} >= {"notes"}


def test_bad_fields_are_dropped_not_fatal() -> None:
    status = manage.parse_answer(manage.McpStatus, {"mcpServers": [{"name": "x", "status": "connected",
                                                                    "tools": "nope"}]})
    assert status.servers[0].name == "x" and status.servers[0].tools == []
    assert manage.parse_answer(manage.ContextUsage, "garbage").categories == []


def test_elicitation_request_decodes_and_its_form() -> None:
    line = next(json.dumps(m) for m in _lines("manage.stdout.ndjson") if m["type"] == "control_request"
                and m["request"]["subtype"] == "elicitation")
    message = decode_line(line.encode())
    assert isinstance(message, ControlRequest) and isinstance(message.request, ElicitationRequest)
    asked = message.request
    assert asked.mcp_server_name == "notes" and asked.mode == "form"
    fields = form_fields(asked.requested_schema, asked.property_order)
    assert [(f.name, f.kind, f.required) for f in fields] == [
        ("name", "text", True), ("age", "integer", True), ("subscribe", "boolean", False), ("colour", "choice", False)]
    content, problems = parse_values(fields, {"name": "A", "age": "200", "colour": "pink"})
    assert problems == {"name": "at least 2 characters", "age": "at most 150", "colour": "one of the choices"}
    content, problems = parse_values(fields, {"name": "Ada", "age": "36", "subscribe": True, "colour": "blue"})
    assert not problems
    sent = next(m["response"]["response"] for m in _lines("manage.stdin.ndjson") if m["type"] == "control_response"
                and m["response"]["request_id"] == message.request_id)
    assert answer("accept", content) == sent
    assert parse_values(fields, {})[1] == {"name": "needed", "age": "needed"}
    assert answer("decline") == {"action": "decline"}


@pytest.mark.parametrize(("version", "request_name", "has"), [
    ("2.0.77", "mcp_status", True), ("2.0.77", "mcp_toggle", False), ("2.0.77", "get_context_usage", False),
    ("2.1.290", "get_hooks_listing", True), ("2.1.330", "elicitation", True), ("2.1.332", "rename_session", True),
    (None, "mcp_toggle", True), ("2.1.330", "no_such_request", False),
])
def test_versions_record_which_cli_has_which(version: str | None, request_name: str, has: bool) -> None:
    assert versions.offers(version, request_name) is has
    note = versions.lacks(version, request_name, "list hooks")
    assert (note is None) is has
    if note:
        assert "\n" not in note and request_name in note


def test_form_fields_of_every_primitive_mcp_allows() -> None:
    schema = {"type": "object", "required": ["tags", "size"], "properties": {
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
        "mail": {"type": "string", "format": "email"},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "odd": {"type": "object"},
    }}
    fields = {f.name: f for f in form_fields(schema)}
    assert (fields["size"].kind, fields["size"].options) == ("choice", [("s", "Small"), ("l", "Large")])
    assert (fields["tags"].kind, fields["tags"].min_length, fields["tags"].max_length) == ("choices", 1, 2)
    assert fields["odd"].kind == "text"  # not a primitive MCP allows: asked as text rather than dropped
    content, problems = parse_values(list(fields.values()), {
        "size": "m", "tags": ["a", "b", "c"], "mail": "nope", "ratio": "1.5"})
    assert problems == {"size": "one of the choices", "tags": "at most 2 choices", "mail": "an email address",
                        "ratio": "at most 1"}
    content, problems = parse_values(list(fields.values()), {"size": "l", "tags": ["b"], "ratio": "0.25"})
    assert not problems and content == {"size": "l", "tags": ["b"], "ratio": 0.25}
