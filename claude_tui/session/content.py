"""Turning content blocks and user texts into log items (helpers for `Conversation`)."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections import deque
from typing import Any

from claude_tui import protocol as p
from claude_tui.session.items import (
    Item,
    NoteKind,
    TextItem,
    ThinkingItem,
    ToolItem,
    ToolState,
)
from claude_tui.session.tasks import AgentEntry
from claude_tui.session.values import as_list

_LOCAL_STDOUT = re.compile(r"<local-command-(stdout|stderr)>(.*?)</local-command-\1>", re.S)
_COMMAND_WRAPPER = re.compile(r"<command-(name|message|args)>.*?</command-\1>", re.S)
_INTERRUPTED = "[Request interrupted by user"
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.S)
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.S)


_TOOL_KINDS = ("tool_use", "server_tool_use", "mcp_tool_use")


def item_for_block_start(block: p.ContentBlock, message_id: str) -> Item | None:
    """The item a block starts (streamed: it fills in as deltas arrive)."""
    match block:
        case p.TextBlock():
            return TextItem(text=block.text, streaming=True, message_id=message_id)
        case p.ThinkingBlock():
            return ThinkingItem(text=block.thinking, streaming=True, message_id=message_id)
        case p.RedactedThinkingBlock():
            return ThinkingItem(redacted=True, message_id=message_id)
        case p.ToolUseBlock():
            return ToolItem(tool_use_id=block.id, name=block.name or "tool", input=block.input,
                            state=ToolState.STREAMING, message_id=message_id)
        case p.UnknownBlock():
            return _item_for_unknown_block(block.raw, message_id)
    return None


def _item_for_unknown_block(raw: dict[str, Any], message_id: str) -> Item | None:
    """A block the models do not type: server and MCP tool calls (`server_tool_use`, `mcp_tool_use`), or
    a known kind with a malformed field. Read from its raw dict, so such a call still gets its card."""
    kind = raw.get("type")
    if kind == "text":
        return TextItem(text=str(raw.get("text") or ""), streaming=True, message_id=message_id)
    if kind == "thinking":
        return ThinkingItem(text=str(raw.get("thinking") or ""), streaming=True, message_id=message_id)
    if kind in _TOOL_KINDS:
        tool_input = raw.get("input")
        return ToolItem(
            tool_use_id=str(raw.get("id") or ""),
            name=str(raw.get("name") or "tool"),
            input=tool_input if isinstance(tool_input, dict) else {},
            state=ToolState.STREAMING,
            message_id=message_id,
        )
    return None


def apply_delta(item: Item, delta: object) -> str:
    """Apply one typed delta; return the text to append on screen ("" for none)."""
    if isinstance(delta, p.TextDelta) and isinstance(item, TextItem):
        _append(item, "text", delta.text)
        return delta.text
    if isinstance(delta, p.ThinkingDelta) and isinstance(item, ThinkingItem):
        _append(item, "text", delta.thinking)
        return delta.thinking
    if isinstance(delta, p.InputJsonDelta) and isinstance(item, ToolItem):
        _append(item, "partial_input", delta.partial_json)
    return ""


def _append(item: Item, name: str, delta: str) -> None:
    """`item.<name> += delta`, growing the string in place instead of copying it.

    A plain `item.text += delta` copies the whole text for every delta (the attribute still
    refers to it while the new string is built), so a 1 MB Write streamed in 10-character
    deltas copied gigabytes. With the item's reference dropped first, this frame is the
    string's only owner and CPython appends in place: linear in the length. Readers still
    see one exact `str` at every step; one that keeps an older text (a find cache, a drawn
    label) costs a single copy, after which appends are in place again.
    """
    text = getattr(item, name)
    setattr(item, name, "")
    text += delta
    setattr(item, name, text)


def finish_tool_input(item: ToolItem) -> None:
    if item.partial_input and not item.input:
        try:
            parsed = json.loads(item.partial_input)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            item.input = parsed
    item.state = ToolState.PENDING


def item_for_block(block: p.ContentBlock, message_id: str) -> Item | None:
    """An item for a block that was not streamed (resumed history, no partial messages)."""
    item = item_for_block_start(block, message_id)
    if isinstance(item, (TextItem, ThinkingItem)):
        item.streaming = False
    elif isinstance(item, ToolItem):
        item.state = ToolState.PENDING
    return item


def confirm(pending: deque[Item] | None, block: p.ContentBlock) -> Item | None:
    """Match an authoritative block to the streamed item it completes, and fix its content."""
    if not pending:
        return None
    for item in list(pending):
        if not _confirms(block, item):
            continue
        pending.remove(item)
        return item
    return None


def _confirms(block: p.ContentBlock, item: Item) -> bool:
    """Whether `block` is the final copy of the streamed `item` (then its content replaces the item's)."""
    match block:
        case p.TextBlock() if isinstance(item, TextItem):
            item.text = block.text
        case p.ThinkingBlock() if isinstance(item, ThinkingItem) and not item.redacted:
            item.text = block.thinking
        case p.RedactedThinkingBlock() if isinstance(item, ThinkingItem) and item.redacted:
            pass
        case p.ToolUseBlock() if isinstance(item, ToolItem) and item.tool_use_id == block.id:
            _confirm_tool(item, block.input)
        case p.UnknownBlock():
            return _confirms_unknown(block.raw, item)
        case _:
            return False
    return True


def _confirms_unknown(raw: dict[str, Any], item: Item) -> bool:
    """`_confirms` for an untyped block (a server/MCP tool call, or a malformed known kind): its raw dict."""
    kind = raw.get("type")
    if kind == "text" and isinstance(item, TextItem):
        item.text = str(raw.get("text") or "")
    elif kind == "thinking" and isinstance(item, ThinkingItem) and not item.redacted:
        item.text = str(raw.get("thinking") or "")
    elif kind in _TOOL_KINDS and isinstance(item, ToolItem) and item.tool_use_id == raw.get("id"):
        tool_input = raw.get("input")
        _confirm_tool(item, tool_input if isinstance(tool_input, dict) else None)
    else:
        return False
    return True


def _confirm_tool(item: ToolItem, tool_input: dict[str, Any] | None) -> None:
    if tool_input is not None:
        item.input = tool_input
    if item.state is ToolState.STREAMING:
        item.state = ToolState.PENDING


def blocks_text(blocks: list[p.ContentBlock]) -> str:
    """The text blocks of a message, joined by newlines."""
    return "\n".join(block.text for block in blocks if isinstance(block, p.TextBlock))


def assistant_error_words(error: str, text: str) -> str:
    """What an assistant message's `error` means, with the message's own words (`text`) after it."""
    text = text.strip()
    known = {
        "authentication_failed": "Authentication failed — check your API key or run `claude /login`.",
        "billing_error": "Billing problem on the account.",
        "rate_limit": "Rate limited by the API.",
        "invalid_request": "The API rejected the request.",
        "server_error": "The API had a server error.",
        "max_output_tokens": "The answer hit the output token limit.",
    }
    words = known.get(error, f"API error: {error}")
    return f"{words}\n{text}" if text and text not in words else words


def classify_user_text(text: str) -> tuple[NoteKind, str] | None:
    """Local command output and interruption markers are notes, not prompts."""
    stripped = text.strip()
    if stripped.startswith(_INTERRUPTED):
        return NoteKind.INTERRUPT, stripped.strip("[]")
    match = _LOCAL_STDOUT.search(text)
    if match:
        kind = NoteKind.ERROR if match.group(1) == "stderr" else NoteKind.LOCAL_COMMAND
        return kind, match.group(2).strip()
    if stripped.startswith("<task-notification>"):
        # The CLI tells the model a background task ended (transcripts show it as a user turn).
        summary = _SUMMARY.search(text)
        return NoteKind.INFO, summary.group(1).strip() if summary else "A background task finished."
    return None


_BASH_INPUT = re.compile(r"\s*<bash-input>(.*?)</bash-input>\s*", re.S)
_BASH_OUTPUT = re.compile(r"\s*<bash-stdout>(.*?)</bash-stdout>\s*<bash-stderr>(.*?)</bash-stderr>\s*", re.S)


def bash_mode_text(text: str) -> tuple[NoteKind, str] | None:
    """A bash-mode block (`!command` in Claude Code or claude-tui, sent with the next prompt): the
    command as "! command", its output as command output; None for any other text."""
    if not text.lstrip().startswith(("<bash-input>", "<bash-stdout>")):
        return None
    command = _BASH_INPUT.fullmatch(text)
    if command is not None:
        return NoteKind.INFO, "! " + command.group(1).strip()
    output = _BASH_OUTPUT.fullmatch(text)
    if output is not None:
        return NoteKind.LOCAL_COMMAND, "\n".join(part for part in (output.group(1), output.group(2)) if part.strip())
    return None


def typed_command(text: str) -> str | None:
    """`/name args` for a transcript's slash-command wrapper (<command-name>…), else None."""
    name = _COMMAND_NAME.search(text)
    if name is None or _COMMAND_WRAPPER.sub("", text).strip():
        return None
    args = _COMMAND_ARGS.search(text)
    command = name.group(1).strip()
    if not command.startswith("/"):
        command = "/" + command
    return f"{command} {args.group(1).strip()}".strip() if args else command


def _image_size(source: Any) -> int:
    if not isinstance(source, dict):
        return 0
    data = source.get("data")
    if not isinstance(data, str):
        return 0
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data) * 3 // 4


def result_text_and_images(body: str | list[Any] | None) -> tuple[str, list[tuple[str, int]]]:
    """A tool result's text and its images' (media type, size).

    The parts of a `tool_result`'s content are kept as the CLI sent them (`ToolResultBlock.content` is
    untyped: a tool's output is whatever it printed), so they are read as plain dicts here."""
    if isinstance(body, str):
        return body, []
    texts: list[str] = []
    images: list[tuple[str, int]] = []
    for block in as_list(body):
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            texts.append(str(block.get("text", "")))
        elif block.get("type") == "image":
            source = block.get("source")
            media = source.get("media_type", "image") if isinstance(source, dict) else "image"
            images.append((str(media), _image_size(source)))
    return "\n".join(texts), images


_REJECTION_TEXT = "The user doesn't want to proceed with this tool use"  # the CLI's own words
_REFUSALS = (
    "The user denied this tool use",  # this app's "n" (ui/dialogs/permission.py DENY_MESSAGE)
    "The user wants to keep planning",  # the plan dialog's "keep planning" (KEEP_PLANNING_MESSAGE)
)
_NOT_RUN_KINDS = frozenset({"interrupted", "cancelled"})
"""`non_execution_kind`s of a call that was cut off rather than refused."""


def is_user_rejection(structured: Any, text: str) -> bool:
    """Whether an error result is a refusal, judged by its words (results without `tool_result_meta`)."""
    if structured == "User rejected tool use" or _REJECTION_TEXT in text:
        return True
    for said in (text, structured if isinstance(structured, str) else ""):
        said = said.strip().removeprefix("Error:").strip()
        if said.startswith(_REFUSALS):
            return True
    return False


def not_run_states(metas: list[p.ToolResultMeta]) -> dict[str, ToolState]:
    """tool_use_id → DENIED or INTERRUPTED for error results the CLI says did not come from running the tool.

    Live messages carry `tool_result_meta` (`non_execution_kind`, `permission_decision`);
    a transcript's `toolDenialKind`/`permissionDecision` are turned into it by `replay`.
    A refusal with a message ("tell Claude …") is recognised only this way.
    """
    states: dict[str, ToolState] = {}
    for meta in metas:
        if meta.id is None:
            continue
        kind = meta.non_execution_kind
        if kind in _NOT_RUN_KINDS and not meta.rejected:
            states[meta.id] = ToolState.INTERRUPTED
        elif meta.rejected or kind:
            states[meta.id] = ToolState.DENIED
    return states


def resolved_model(models: list[dict[str, Any]], name: str) -> str:
    """A model alias from the initialize response's list ("sonnet") as the model id it stands for."""
    for model in models:
        if model.get("value") == name and isinstance(model.get("resolvedModel"), str) and model["resolvedModel"]:
            return str(model["resolvedModel"])
    return name


def context_window(model_usage: dict[str, p.ModelUsage], model: str) -> int:
    """The main model's window; fall back to the largest reported."""
    entry = model_usage.get(model)
    if entry is not None and entry.context_window:
        return entry.context_window
    return max((usage.context_window for usage in model_usage.values() if usage.context_window), default=0)


_AGENT_ENDINGS = {"completed": "finished", "failed": "failed", "killed": "was stopped", "stopped": "was stopped"}


def background_notice(message: p.TaskNotification, entry: AgentEntry | None) -> str:
    """The log's marker for a background task's `task_notification`, in the words a transcript keeps
    (its `<task-notification>` summary: `Agent "Explore tree" finished`); "" for foreground work."""
    if entry is None or not entry.background:
        return ""  # a foreground agent's end is its Task result; no turn of its own follows
    summary = (message.summary or "").strip()
    if summary and not message.summary_is_report:
        return summary  # the CLI's own words (e.g. a background command's exit)
    status = message.status or entry.status or "completed"
    description = entry.description or entry.agent_type or "background task"
    if entry.is_agent:
        return f'Agent "{description}" {_AGENT_ENDINGS.get(status, status)}'
    return f'Background task "{description}" {_AGENT_ENDINGS.get(status, status)}'
