"""What the CLI reports about itself reaches the status: mode, model, cost across resets, /clear, /compact."""

from __future__ import annotations

from typing import Any

import pytest

from claude_tui.protocol import decode_line, decode_obj
from claude_tui.session.cli_state import CLEARED_NOTE, model_from_local_output
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind, UserItem
from claude_tui.session.status import Activity
from tests.conftest import recording

MODELS = [{"value": "default", "resolvedModel": "claude-opus-5-5", "displayName": "Default (recommended)"},
          {"value": "sonnet", "resolvedModel": "claude-sonnet-5-5", "displayName": "Sonnet"},
          {"value": "haiku", "resolvedModel": "claude-haiku-5-5", "displayName": "Haiku"}]


def user(content: Any, **extra: Any) -> Any:
    return decode_obj({"type": "user", "message": {"role": "user", "content": content}, "session_id": "s",
                       "parent_tool_use_id": None, "uuid": "u-1", **extra})


def result(total: float) -> Any:
    return decode_obj({"type": "result", "subtype": "success", "is_error": False, "session_id": "s",
                       "total_cost_usd": total, "result": "ok"})


def turn(conversation: Conversation, total: float) -> None:
    conversation.add_user_prompt("kw:plain")
    conversation.apply(result(total))


def notes(conversation: Conversation, kind: NoteKind | None = None) -> list[str]:
    return [i.text for i in conversation.items if isinstance(i, NoteItem) and (kind is None or i.kind is kind)]


# -- 1. the permission mode ----------------------------------------------------------------------------------


def test_the_mode_asked_for_is_shown_until_the_cli_reports_its_own() -> None:
    conversation = Conversation().expect_mode("acceptEdits")
    assert conversation.status.permission_mode == "acceptEdits"  # before the CLI has said anything
    assert conversation.reported_mode is None
    conversation.apply_initialize({"commands": [], "current_permission_mode": "plan"})
    assert (conversation.status.permission_mode, conversation.reported_mode) == ("plan", "plan")
    conversation.expect_mode("acceptEdits")  # a later screen over the same conversation: the CLI's word stands
    assert conversation.status.permission_mode == "plan"


def test_the_real_clis_initialize_response_names_the_mode() -> None:
    response = next(decode_line(line) for line in recording("plan-exit") if "current_permission_mode" in line)
    conversation = Conversation()
    conversation.apply_initialize(response.raw["response"]["response"])
    assert conversation.reported_mode == "plan"


def test_a_mode_the_cli_switches_to_itself_is_reported() -> None:
    conversation = Conversation().expect_mode("plan")
    conversation.apply(decode_obj({"type": "system", "subtype": "status", "status": None,
                                   "permissionMode": "acceptEdits", "session_id": "s"}))
    assert (conversation.status.permission_mode, conversation.reported_mode) == ("acceptEdits", "acceptEdits")


# -- 2. the cost across counter resets -----------------------------------------------------------------------


def test_the_cost_keeps_counting_after_the_clis_total_restarts() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    turn(conversation, 0.5)
    turn(conversation, 0.75)
    assert conversation.status.cost_last_turn == pytest.approx(0.25)
    turn(conversation, 0.0)  # /clear (or a new process) restarts the CLI's counter
    assert conversation.status.cost_total == pytest.approx(0.75)
    assert conversation.status.cost_last_turn == pytest.approx(0.0)
    turn(conversation, 0.1)
    assert conversation.status.cost_total == pytest.approx(0.85)
    assert conversation.status.cost_last_turn == pytest.approx(0.1)
    turn(conversation, 0.1)  # a free turn (equal totals) is not a reset
    assert conversation.status.cost_total == pytest.approx(0.85)


def test_a_restarted_process_that_counts_from_zero_does_not_make_turns_free() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    turn(conversation, 0.4)
    conversation.process_exited(1)  # a crash; Ctrl+R starts a CLI whose total starts again
    conversation.apply_initialize({"commands": []})
    conversation.status.activity = Activity.IDLE
    turn(conversation, 0.05)
    assert conversation.status.cost_total == pytest.approx(0.45)
    assert conversation.status.cost_last_turn == pytest.approx(0.05)


def test_a_resumed_history_is_a_floor_not_an_addition() -> None:
    conversation = Conversation()
    conversation.status.cost_total = conversation.history_cost = 0.3
    conversation.apply_initialize({"commands": []})
    conversation.status.activity = Activity.IDLE
    turn(conversation, 0.32)  # the resumed CLI's total includes the history
    assert conversation.status.cost_total == pytest.approx(0.32)
    assert conversation.status.cost_last_turn == pytest.approx(0.02)


# -- 2b. /clear ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [
    {"type": "conversation_reset", "new_conversation_id": "c2", "uuid": "c2", "session_id": "s", "trigger": "clear"},
    {"type": "system", "subtype": "conversation_reset", "session_id": "s"},
])
def test_a_conversation_reset_says_claude_starts_fresh(shape: dict[str, Any]) -> None:
    conversation = Conversation()
    conversation.status.context_tokens = 50_000
    conversation.apply(decode_obj(shape))
    assert notes(conversation, NoteKind.INFO) == [CLEARED_NOTE]
    assert conversation.status.context_tokens == 0


# -- 3. /compact -------------------------------------------------------------------------------------------------

SUMMARY = ("This session is being continued from a previous conversation that ran out of context. The summary "
           "below covers the earlier portion of the conversation.\n\n[Request interrupted by user]\n"
           "<local-command-stdout>Set model to `haiku`</local-command-stdout>\n<system-reminder>x</system-reminder>")


def test_the_compact_summary_is_not_a_prompt_and_adds_no_second_note() -> None:
    conversation = Conversation()
    conversation.apply(decode_obj({"type": "system", "subtype": "compact_boundary", "session_id": "s",
                                   "compact_metadata": {"trigger": "manual", "pre_tokens": 1234}}))
    conversation.apply(user(SUMMARY, isSynthetic=True))
    assert not any(isinstance(i, UserItem) for i in conversation.items)
    assert len(notes(conversation, NoteKind.COMPACT)) == 1
    assert not notes(conversation, NoteKind.INTERRUPT) and not notes(conversation, NoteKind.LOCAL_COMMAND)
    assert conversation.status.model == ""  # the summary's quoted "/model" output changes nothing


def test_a_compact_summary_without_a_boundary_still_reads_as_compaction() -> None:
    conversation = Conversation()
    conversation.apply(user([{"type": "text", "text": "anything"}], isCompactSummary=True))
    assert notes(conversation) == ["Conversation compacted"]
    assert not any(isinstance(i, UserItem) for i in conversation.items)


def test_other_synthetic_user_messages_are_not_prompts() -> None:
    conversation = Conversation()
    conversation.apply(user("Caveat: the messages below were generated by the user", isSynthetic=True))
    assert conversation.items == []


# -- 4. /model typed as a prompt ------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Set model to `haiku (claude-haiku-5-5)` for this session only", ("haiku", "claude-haiku-5-5")),
    ("Set model to `Sonnet` and saved as your default for new sessions", ("sonnet", "claude-sonnet-5-5")),
    ("Set model to \x1b[1mhaiku (claude-haiku-5-5)\x1b[22m", ("haiku", "claude-haiku-5-5")),
    ("Set model to ``claude-x`1`` for this session only", ("claude-x`1", "claude-x`1")),
    ("Set model to `Opus 9 \x07(new)`", (None, "Opus 9 (new)")),
    ("Set model to `claude-new-1`", ("claude-new-1", "claude-new-1")),
    ("Kept model as `haiku`", None),
    ("Current model: haiku", None),
])
def test_set_model_output_is_read(text: str, expected: tuple[str | None, str] | None) -> None:
    assert model_from_local_output(text, MODELS) == expected


def test_model_typed_as_a_slash_command_updates_the_status_at_once() -> None:
    conversation = Conversation()
    conversation.models = MODELS
    conversation.status.model = "claude-opus-5-5"
    conversation.apply(user("<local-command-stdout>Set model to `haiku (claude-haiku-5-5)` for this session only"
                            "</local-command-stdout>"))
    assert conversation.status.model == "claude-haiku-5-5"
    assert conversation.model_choice == "haiku"
    assert notes(conversation, NoteKind.LOCAL_COMMAND)  # the CLI's words are still shown


def test_the_recorded_set_model_echo_names_the_model() -> None:
    conversation = Conversation()
    for line in recording("modes"):
        conversation.apply(decode_line(line))
    assert conversation.status.model == "claude-sonnet-5-5"
    assert conversation.model_choice == "sonnet"


# -- 6. an interrupt with prompts queued ------------------------------------------------------------------------


def test_the_interrupt_note_says_the_queued_prompt_was_not_what_stopped() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt("first")
    conversation.add_user_prompt("second")  # queued behind the running turn
    conversation.apply(user([{"type": "text", "text": "[Request interrupted by user]"}]))
    [words] = notes(conversation, NoteKind.INTERRUPT)
    assert words == "Request interrupted by user: the running turn stopped; your queued prompt is next"


def test_a_plain_interrupt_note_is_unchanged() -> None:
    conversation = Conversation()
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt("first")
    conversation.apply(user([{"type": "text", "text": "[Request interrupted by user]"}]))
    assert notes(conversation, NoteKind.INTERRUPT) == ["Request interrupted by user"]


def test_the_alias_named_wins_over_an_earlier_entry_resolving_to_the_same_model() -> None:
    """`default` and `opus` both resolve to claude-opus-5-5: "opus (claude-opus-5-5)" is the opus entry
    (else a pick of Opus was remembered, marked and restarted as Default)."""
    models = [MODELS[0], {"value": "opus", "resolvedModel": "claude-opus-5-5", "displayName": "Opus"}, *MODELS[1:]]
    assert model_from_local_output("Set model to `opus (claude-opus-5-5)`", models) == ("opus", "claude-opus-5-5")
    assert model_from_local_output("Set model to `claude-opus-5-5`", models) == ("default", "claude-opus-5-5")
