"""A prompt queued mid-turn and an "always" answer survive a resume, a fork and an export.

The transcripts in ``fixtures/claude-code-2.1.330/decisions`` are what the real CLI 2.1.330 wrote
(offline, against the e2e tier's Messages API stand-in; long system-prompt strings shortened, the
project path replaced) when, over stream-json:

- ``allow-once-queued``: ``kw:bash please``, then ``queued msg one`` sent while the Bash permission
  was waiting, then the call allowed with no ``updatedPermissions`` (the dialog's ``y``);
- ``allow-always-queued``: the same, allowed with the ``localSettings`` rule suggestion (the
  dialog's ``a``; the rule was saved in ``.claude/settings.local.json``);
- ``allow-session-then-rule``: allowed with a session rule for Bash, then ``kw:bash again``, which
  that rule allowed without asking;
- ``saved-rule``: ``kw:bash please`` with ``Bash`` allowed in ``.claude/settings.local.json``
  beforehand (no dialog).

The queued prompt has no ``user`` record: the CLI folds it into the running turn and keeps it as
``{"type": "attachment", "attachment": {"type": "queued_command", "prompt": [...], "source_uuid": ...,
"commandMode": "prompt"}}``. The tool result's ``permissionDecision`` is
``{"decision": "accept", "source": "user_temporary", "grantScope": "once"}`` for ``y``, has no
``grantScope`` for a rule saved to a settings file, ``"grantScope": "session"`` for a session rule,
and ``"reasonType": "rule"`` (no dialog) for a call a rule allowed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from claude_tui.history.export import to_markdown
from claude_tui.history.transcript import load_transcript
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import TextItem, ToolItem, UserItem
from claude_tui.session.replay import replay
from claude_tui.session.replay_decisions import allowed_words
from tests.conftest import FIXTURES

DECISIONS = FIXTURES / "decisions"
SESSION = "5e55a7e1-0000-4000-8000-000000000001"


def resumed(name: str) -> Conversation:
    transcript = load_transcript(DECISIONS / f"{name}.jsonl")
    return replay(transcript.records, transcript.subagents, session_id=transcript.session_id)


def shown(conversation: Conversation) -> list[tuple[str, str]]:
    """The main log as (kind, words): prompts, answers, tool calls with their decision."""
    out: list[tuple[str, str]] = []
    for item in conversation.items:
        if isinstance(item, UserItem):
            out.append(("you", item.text))
        elif isinstance(item, TextItem):
            out.append(("claude", item.text.strip()))
        elif isinstance(item, ToolItem):
            out.append((item.name, item.decision or ""))
    return out


def queued_record(prompt: Any, uuid: str = "q1", parent: str = "a2", **attachment: Any) -> dict[str, Any]:
    """An attachment record as the CLI 2.1.330 writes a prompt absorbed mid-turn."""
    return {"parentUuid": parent, "isSidechain": False, "type": "attachment", "uuid": uuid, "sessionId": SESSION,
            "attachment": {"type": "queued_command", "prompt": prompt, "source_uuid": f"src-{uuid}",
                           "commandMode": "prompt", **attachment},
            "renderedRole": "system"}


def prompt_record(text: str, uuid: str) -> dict[str, Any]:
    return {"type": "user", "uuid": uuid, "sessionId": SESSION, "isSidechain": False,
            "message": {"role": "user", "content": [{"type": "text", "text": text}]}}


def answer_record(text: str, uuid: str) -> dict[str, Any]:
    return {"type": "assistant", "uuid": uuid, "sessionId": SESSION, "isSidechain": False,
            "message": {"id": f"msg_{uuid}", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
                        "content": [{"type": "text", "text": text}]}}


# -- 1. the queued prompt --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["allow-once-queued", "allow-always-queued"])
def test_a_prompt_queued_mid_turn_replays_as_the_users_message_where_it_was_absorbed(name: str) -> None:
    conversation = resumed(name)
    assert [row for row in shown(conversation) if row[0] != "Bash"] == [
        ("you", "kw:bash please"),
        ("claude", "I will run a command."),
        ("you", "queued msg one"),  # after the tool call it came in, before the answer that took it up
        ("claude", "All done. The tool ran."),
    ]
    kinds = [kind for kind, _ in shown(conversation)]
    assert kinds.index("Bash") < kinds.index("you", 1)
    # The uuid the CLI gave the prompt (its echo's, live), as a live prompt keeps it.
    records = [json.loads(line) for line in (DECISIONS / f"{name}.jsonl").read_text().splitlines()]
    [queued] = [r["attachment"] for r in records if r.get("attachment", {}).get("type") == "queued_command"]
    [item] = [i for i in conversation.items if isinstance(i, UserItem) and i.text == "queued msg one"]
    assert item.uuid == queued["source_uuid"] and not item.queued


def test_the_export_of_the_transcript_has_the_queued_prompt_in_its_place() -> None:
    text = to_markdown(load_transcript(DECISIONS / "allow-once-queued.jsonl"))
    assert "> queued msg one" in text
    assert text.index("#### Bash") < text.index("> queued msg one") < text.index("All done. The tool ran.")


def test_a_queued_prompt_goes_the_way_a_typed_one_does() -> None:
    """Untrusted text stays text: markup, tags and control characters reach the log as a typed prompt's do."""
    for text in ("[bold red]not markup[/] \x1b[31mred\x1b[0m ok", "<command-name>/cost</command-name>",
                 "[Request interrupted by user]"):
        typed = replay([prompt_record(text, "u1")])
        queued = replay([queued_record([{"type": "text", "text": text}])])
        plain = replay([queued_record(text)])  # older CLIs keep the prompt as a string
        assert shown(queued) == shown(plain) == shown(typed), text


def test_queued_commands_the_user_did_not_type_are_not_shown() -> None:
    records = [
        prompt_record("first", "u1"),
        queued_record("a meta reminder", "q1", isMeta=True),
        queued_record("<task-notification>done</task-notification>", "q2", origin={"kind": "task-notification"}),
        queued_record("from a peer", "q3", origin={"kind": "peer"}),
        queued_record("! ls", "q4", commandMode="bash"),
        queued_record("typed by the user", "q5", origin={"kind": "human"}),
        answer_record("ok", "a1"),
    ]
    assert shown(replay(records)) == [("you", "first"), ("you", "typed by the user"), ("claude", "ok")]


def test_a_queued_prompt_the_transcript_also_has_as_a_prompt_is_shown_once() -> None:
    """A prompt that ended up sent as its own turn too (same uuid) is one message."""
    records = [prompt_record("first", "u1"), queued_record("again", "q1"), prompt_record("again", "src-q1")]
    assert shown(replay(records)) == [("you", "first"), ("you", "again")]


# -- 2. how a call was allowed ---------------------------------------------------------------------------


def test_an_always_answer_replays_as_always_allowed() -> None:
    assert ("Bash", "Always allowed") in shown(resumed("allow-always-queued"))
    text = to_markdown(load_transcript(DECISIONS / "allow-always-queued.jsonl"))
    assert "*Always allowed*" in text and "Allowed once" not in text


def test_a_once_answer_still_replays_as_allowed_once() -> None:
    assert ("Bash", "Allowed once") in shown(resumed("allow-once-queued"))


def test_a_session_rule_is_always_allowed_and_the_call_it_allowed_later_has_no_words() -> None:
    """Live, the second call was never asked about: its card said nothing (not "Allowed once")."""
    assert [row for row in shown(resumed("allow-session-then-rule")) if row[0] == "Bash"] == [
        ("Bash", "Always allowed"), ("Bash", "")]


def test_a_call_a_saved_rule_allowed_has_no_words() -> None:
    """``source: user_permanent`` here is the saved rule's doing (``reasonType: rule``), not an answer."""
    assert [row for row in shown(resumed("saved-rule")) if row[0] == "Bash"] == [("Bash", "")]


def test_a_missing_scope_is_only_read_as_always_from_the_cli_that_writes_one_for_once() -> None:
    """Before 2.1.330 nothing tells a missing scope apart: a neutral word, not a wrong "once"."""
    accept = {"decision": "accept", "source": "user_temporary", "reasonCode": "unknown"}
    assert allowed_words(accept, "2.1.330") == allowed_words(accept, "2.1.332") == "Always allowed"
    assert allowed_words(accept, "2.1.300") == allowed_words(accept, None) == "Allowed"
    assert allowed_words({**accept, "grantScope": "once"}, None) == "Allowed once"
    assert allowed_words({**accept, "source": "user_permanent"}, None) == "Always allowed"
    assert allowed_words({**accept, "source": "config"}, "2.1.330") is None
    assert allowed_words({"decision": "reject", "source": "user_reject"}, "2.1.330") is None


def test_an_approved_plan_is_not_called_always_allowed() -> None:
    """Approving a plan sends a session mode change: its scope is "session", but no rule was kept."""
    records: list[dict[str, Any]] = [
        prompt_record("kw:plan", "u1"),
        {"type": "assistant", "uuid": "a1", "sessionId": SESSION, "isSidechain": False,
         "message": {"id": "msg_a1", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
                     "content": [{"type": "tool_use", "id": "toolu_plan", "name": "ExitPlanMode",
                                  "input": {"plan": "1. do it"}}]}},
        {"type": "user", "uuid": "u2", "sessionId": SESSION, "isSidechain": False, "version": "2.1.330",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "content": "User has approved your plan.", "tool_use_id": "toolu_plan"}]},
         "toolUseResult": {"plan": "1. do it"},
         "permissionDecision": {"decision": "accept", "source": "user_temporary", "grantScope": "session",
                                "reasonCode": "unknown"}},
    ]
    assert ("ExitPlanMode", "") in shown(replay(records))


def test_the_fixtures_are_what_the_docstring_says() -> None:
    decisions: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(DECISIONS.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "permissionDecision" in record:
                decisions.setdefault(path.stem, []).append(record["permissionDecision"])
                assert record["version"] == "2.1.330"
    assert [d.get("grantScope") for d in decisions["allow-once-queued"]] == ["once"]
    assert [d.get("grantScope") for d in decisions["allow-always-queued"]] == [None]
    assert [(d.get("grantScope"), d.get("reasonType")) for d in decisions["allow-session-then-rule"]] == [
        ("session", None), (None, "rule")]
    assert [(d["source"], d.get("reasonType")) for d in decisions["saved-rule"]] == [("user_permanent", "rule")]


@pytest.mark.parametrize("name", ["allow-once-queued", "allow-session-then-rule"])
def test_search_finds_a_queued_prompt_in_the_turn_the_resumed_log_shows_it_in(name: str) -> None:
    from claude_tui.history.scan import scan_file

    prompts = [(doc.turn, doc.text) for doc in scan_file(DECISIONS / f"{name}.jsonl").docs if doc.kind == "prompt"]
    log = [text for kind, text in shown(resumed(name)) if kind == "you"]
    # Search's turn of a hit is how many prompts came before it: find opens the resumed log there.
    assert prompts == list(enumerate(log))
    assert "queued msg one" in log
