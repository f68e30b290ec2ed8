"""What the CLI says about its own state: the permission mode, the model, a cleared conversation.

`CliState` is a part of `Conversation` with its own state (the modes, the model choice, the model
list). The UI shows these values and
respawns the CLI with them (a restart, a new session), so `reported_mode` and `model_choice` hold what
the CLI itself reported — never a guess — for the UI to keep its launch options in step (the UI takes
`model_choice` once, so a later pick in the palette is not undone).
"""

from __future__ import annotations

import re
from typing import Any

from claude_tui import protocol as p
from claude_tui.protocol.sanitize import printable
from claude_tui.protocol.versions import support_note
from claude_tui.session.changes import Change, StatusChanged
from claude_tui.session.items import NoteItem, NoteKind
from claude_tui.session.log import Logs
from claude_tui.session.status import SessionStatus

CLEARED_NOTE = "Conversation cleared: Claude starts fresh; the log above stays for you."

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# The CLI quotes the model in as many backticks as it needs ("Set model to `sonnet (claude-sonnet-5-5)`
# for this session only"); older versions printed it in bold instead, ended by these words.
_SET_MODEL_QUOTED = re.compile(r"Set model to (`+) ?(.+?) ?\1")
_SET_MODEL_PLAIN = re.compile(r"Set model to (.+?)(?: for this session| and saved as| ·|\n|$)")
_LABEL_WITH_ID = re.compile(r"(.+?) \(([^()]+)\)")
_COMPACT_SUMMARY = "This session is being continued from a previous conversation"


def model_from_local_output(text: str, models: list[dict[str, Any]]) -> tuple[str | None, str] | None:
    """(the model list's value or None, the model to show) from `/model`'s "Set model to …" output."""
    clean = _CONTROLS.sub("", _ANSI.sub("", text))
    match = _SET_MODEL_QUOTED.search(clean)
    label = match.group(2) if match else ""
    if not match:
        plain = _SET_MODEL_PLAIN.search(clean)
        label = plain.group(1) if plain else ""
    label = label.strip()
    if not label or len(label) > 200:
        return None
    pair = _LABEL_WITH_ID.fullmatch(label)
    if pair and not re.fullmatch(r"[\w.\[\]:/@-]*-[\w.\[\]:/@-]*", pair.group(2).strip()):
        pair = None  # "Opus 9 (new)": words in brackets, not "alias (model-id)"
    names = [pair.group(1).strip(), pair.group(2).strip()] if pair else [label]
    # The alias first: "opus (claude-opus-5-5)" is the `opus` entry, though `default` resolves to that model too.
    for model in models:
        value = str(model.get("value") or "")
        if value and value in names:
            return value, str(model.get("resolvedModel") or "") or value
    for model in models:
        value = str(model.get("value") or "")
        resolved = str(model.get("resolvedModel") or "")
        display = str(model.get("displayName") or "").lower()
        if value and any(name == resolved or name.lower() == display for name in names):
            return value, resolved or value
    if pair:
        alias = pair.group(1).strip()
        return (alias if " " not in alias else None), pair.group(2).strip()
    # Unknown to the list: a model id can be passed back to the CLI, a display name ("Opus 4.7") cannot.
    return (label if " " not in label else None), label


def is_compact_summary(message: p.UserMessage, text: str) -> bool:
    """The summary `/compact` (or auto-compaction) hands the model: written by the CLI, not the user."""
    if message.is_compact_summary:
        return True
    return (message.is_synthetic or message.is_visible_in_transcript_only) and \
        text.lstrip().startswith(_COMPACT_SUMMARY)


# System messages newer CLIs send (names from 2.1.332) that carry no words of their own.
_SYSTEM_WORDS = {
    "agents_killed": "Claude Code stopped the background agents.",
    "model_fallback": "Claude Code switched to its fallback model.",
    "session_writes_lost": "Claude Code could not save part of this session's transcript.",
}
# Bookkeeping for front ends that draw more than we do: nothing for the user to read.
_QUIET_SYSTEM = frozenset({
    "session_state_changed", "turn_duration", "post_turn_summary", "vcs_state_changed", "commands_changed",
    "per_turn_effort_changed", "task_list_statuses", "control_request_progress", "file_snapshot", "shell_cwd",
    "session_title_changed", "session_metadata", "prompt_draft_activity", "set_message_waiting",
})


def _same_mode(asked: str, reported: str) -> bool:
    # Newer CLIs list `manual` where older ones say `default` (ask each time).
    ask_each_time = {"default", "manual"}
    return asked == reported or (asked in ask_each_time and reported in ask_each_time)


class CliState:
    """Permission mode, model and conversation resets as the CLI reports them (see the module docstring)."""

    def __init__(self, status: SessionStatus, logs: Logs) -> None:
        self._status = status
        self._logs = logs
        self.reported_mode: str | None = None
        """The permission mode the CLI last reported (None until it does): what a respawn must ask for."""
        self.model_choice: str | None = None
        """The model list's value the CLI last reported switching to (`/model NAME`), if any."""
        self.requested_mode: str | None = None
        """The mode a CLI process was started in, until it reports the mode it runs (then None)."""
        self.version_checked = False
        self.models: list[dict[str, Any]] = []
        """The initialize response's model list (kept as the CLI sent it: the model palette shows it)."""
        self._system_noted: set[str] = set()

    def expect_mode(self, mode: str | None) -> None:
        """A CLI is being started with `--permission-mode` (always: `default` when unset); show that mode
        until it reports one itself, and check the report (`start_mode`)."""
        self.requested_mode = mode or "default"
        if self.reported_mode is None:
            self._status.permission_mode = self.requested_mode

    def mode_switched(self, mode: str) -> None:
        """The CLI confirmed a `set_permission_mode`: that mode runs, whatever was asked at the start."""
        self._status.permission_mode = mode
        self.requested_mode = None

    def mode_reported(self, mode: object) -> bool:
        if not isinstance(mode, str) or not mode:
            return False
        self._status.permission_mode = self.reported_mode = mode
        return True

    def start_mode(self, mode: object) -> list[Change]:
        """The first mode a started CLI reports (`initialize`, else `system/init`): a warning if it is not
        the one asked for — a mode that asks less (auto, bypass) must never go unnoticed."""
        asked = self.requested_mode
        if not self.mode_reported(mode) or asked is None:
            return []
        self.requested_mode = None
        if _same_mode(asked, str(mode)):
            return []
        return self._logs.note(
            f"Claude Code reports permission mode {printable(str(mode))!r}, not {asked!r} as asked. "
            "Shift+Tab switches modes; check the status bar before letting tools run.",
            NoteKind.ERROR, title="Permission mode differs")

    def check_cli_version(self, version: object) -> list[Change]:
        """Once per conversation: the version the CLI runs, and a note when it is outside the tested range."""
        if not isinstance(version, str) or not version:
            return []
        self._status.cli_version = version
        if self.version_checked:
            return [StatusChanged()]
        self.version_checked = True
        note = support_note(version)
        changes: list[Change] = [StatusChanged()]
        if note:
            changes += self._logs.note(note, NoteKind.INFO, title="Claude Code version")
        return changes

    def local_output(self, words: str) -> list[Change]:
        """`/model NAME` typed as a prompt: the CLI says so only in its output."""
        found = model_from_local_output(words, self.models)
        if found is None:
            return []
        value, shown = found
        if self._status.model not in (value, shown):  # the same model under its other name stays as it is
            self._status.model = shown
        if value is not None:
            self.model_choice = value
        return [StatusChanged()]

    def on_compact(self, message: p.CompactBoundary) -> list[Change]:
        meta = message.compact_metadata
        words = "Conversation compacted"
        if meta is not None and meta.trigger:
            words += f" ({meta.trigger})"
        if meta is not None and meta.pre_tokens is not None:
            words += f" — {meta.pre_tokens:,} tokens before"
        return self._logs.note(words, NoteKind.COMPACT)

    def compact_summary_note(self) -> list[Change]:
        """One compaction note: `system/compact_boundary` usually said it just before the summary."""
        for item in reversed(self._logs.main.items[-4:]):
            if isinstance(item, NoteItem) and item.kind is NoteKind.COMPACT:
                return []
        return self._logs.note("Conversation compacted", NoteKind.COMPACT)

    def on_unknown(self, message: p.UnknownBase) -> list[Change]:
        """A message the models do not type: the raw dict is all there is (kept whole on purpose)."""
        raw = message.raw
        if raw.get("type") == "conversation_reset" or raw.get("subtype") == "conversation_reset":
            return self._conversation_reset()
        if raw.get("type") == "system":
            return self._system_note(raw)
        return []

    def _system_note(self, raw: dict[str, Any]) -> list[Change]:
        """A system message this version does not know: its words as a note (never dropped silently);
        one without words is named once per subtype."""
        subtype = printable(str(raw.get("subtype") or raw.get("type") or "?"))[:60]
        if subtype in _QUIET_SYSTEM:
            return []
        words = next((raw[key] for key in ("content", "message", "text") if isinstance(raw.get(key), str)), "")
        words = words or _SYSTEM_WORDS.get(subtype, "")
        if words.strip():
            return self._logs.note(printable(words.strip())[:4000], NoteKind.INFO)
        if subtype in self._system_noted:
            return []
        self._system_noted.add(subtype)
        return self._logs.note(f"Claude Code sent a {subtype!r} message this claude-tui does not show.",
                               NoteKind.INFO)

    def _conversation_reset(self) -> list[Change]:
        """/clear (or a plan accepted with a clean context): the CLI forgets the conversation.

        The log stays (it is the user's record), so say where Claude's memory starts over. The
        "what changed" set stays too: those edits are still on disk. The context is empty again.
        """
        self._status.context_tokens = 0
        changes: list[Change] = [StatusChanged()]
        return changes + self._logs.note(CLEARED_NOTE, NoteKind.INFO)
