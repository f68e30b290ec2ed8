"""What the CLI says about its own state: the permission mode, the model, a cleared conversation.

A mixin of `Conversation` (kept apart so each module stays small). The UI shows these values and
respawns the CLI with them (Ctrl+R, a new session), so `reported_mode` and `model_choice` hold what
the CLI itself reported — never a guess — for the UI to keep its launch options in step (the UI takes
`model_choice` once, so a later pick in the palette is not undone).
"""

from __future__ import annotations

import re
from typing import Any, Self

from claude_tui import protocol as p
from claude_tui.session.changes import Change, StatusChanged
from claude_tui.session.items import NoteItem, NoteKind

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
    for model in models:
        value = str(model.get("value") or "")
        resolved = str(model.get("resolvedModel") or "")
        display = str(model.get("displayName") or "").lower()
        if value and any(name in (value, resolved) or name.lower() == display for name in names):
            return value, resolved or value
    if pair:
        alias = pair.group(1).strip()
        return (alias if " " not in alias else None), pair.group(2).strip()
    # Unknown to the list: a model id can be passed back to the CLI, a display name ("Opus 4.7") cannot.
    return (label if " " not in label else None), label


def is_compact_summary(raw: dict[str, Any], text: str) -> bool:
    """The summary `/compact` (or auto-compaction) hands the model: written by the CLI, not the user."""
    if raw.get("isCompactSummary"):
        return True
    return bool(raw.get("isSynthetic") or raw.get("isVisibleInTranscriptOnly")) and \
        text.lstrip().startswith(_COMPACT_SUMMARY)


class CliStateMixin:
    """Permission mode, model and conversation resets as the CLI reports them (see the module docstring)."""

    reported_mode: str | None
    model_choice: str | None

    def expect_mode(self, mode: str | None) -> Self:
        """Show the mode the CLI is being started in (`--permission-mode`) until it reports one itself."""
        if mode and self.reported_mode is None:
            self.status.permission_mode = mode
        return self

    def _mode_reported(self, mode: object) -> bool:
        if not isinstance(mode, str) or not mode:
            return False
        self.status.permission_mode = self.reported_mode = mode
        return True

    def _local_output(self, words: str) -> list[Change]:
        """`/model NAME` typed as a prompt: the CLI says so only in its output."""
        found = model_from_local_output(words, self.models)
        if found is None:
            return []
        value, shown = found
        if self.status.model not in (value, shown):  # the same model under its other name stays as it is
            self.status.model = shown
        if value is not None:
            self.model_choice = value
        return [StatusChanged()]

    def _compact(self, message: p.CompactBoundary) -> list[Change]:
        meta = message.raw.get("compact_metadata") or {}
        trigger = meta.get("trigger", "") if isinstance(meta, dict) else ""
        tokens = meta.get("pre_tokens") if isinstance(meta, dict) else None
        words = "Conversation compacted"
        if trigger:
            words += f" ({trigger})"
        if isinstance(tokens, int):
            words += f" — {tokens:,} tokens before"
        return self.add_note(words, NoteKind.COMPACT)

    def _compact_summary_note(self) -> list[Change]:
        """One compaction note: `system/compact_boundary` usually said it just before the summary."""
        for item in reversed(self.main.items[-4:]):
            if isinstance(item, NoteItem) and item.kind is NoteKind.COMPACT:
                return []
        return self.add_note("Conversation compacted", NoteKind.COMPACT)

    def _unknown(self, message: p.UnknownBase) -> list[Change]:
        raw = message.raw
        if raw.get("type") == "conversation_reset" or raw.get("subtype") == "conversation_reset":
            return self._conversation_reset(raw)
        return []

    def _conversation_reset(self, raw: dict[str, Any]) -> list[Change]:
        """/clear (or a plan accepted with a clean context): the CLI forgets the conversation.

        The log stays (it is the user's record), so say where Claude's memory starts over. The
        "what changed" set stays too: those edits are still on disk. The context is empty again.
        """
        self.status.context_tokens = 0
        changes: list[Change] = [StatusChanged()]
        return changes + self.add_note(CLEARED_NOTE, NoteKind.INFO)
