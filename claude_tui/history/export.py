"""Render a loaded transcript as Markdown or JSON (for ``claude-tui export``)."""

from __future__ import annotations

import json
from typing import Any

from .text import clean, command_label, prompt_text, strip_controls
from .transcript import Transcript, is_compact_boundary, tool_denial

_ERROR_LABELS = {"denied": "Denied", "interrupted": "Interrupted"}
_REJECTED = "The user doesn't want to proceed with this tool use"
_TOOL_SUMMARY_KEYS = ("file_path", "path", "notebook_path", "command", "pattern", "url", "query", "description",
                      "prompt")


def _fence(text: str) -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}\n{text}\n{ticks}"


def tool_summary(name: str, tool_input: Any) -> str:
    """One line describing a tool call: ``Edit /path/file`` or ``Bash: ls -la``."""
    if isinstance(tool_input, dict):
        for key in _TOOL_SUMMARY_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str) and value:
                return f"{name}: {clean(value, 160)}"
    return name


def _result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def to_markdown(t: Transcript, *, title: str | None = None, include_thinking: bool = True) -> str:
    """User and assistant text; tool calls summarised; thinking folded in <details>."""
    out: list[str] = [f"# {clean(title or t.session_id)}", ""]
    if t.cost_state and isinstance(t.cost_state.get("totalCostUSD"), (int, float)):
        out += [f"_Session `{t.session_id}` · cost ${t.cost_state['totalCostUSD']:.4f}_", ""]
    for rec in t.records:
        if is_compact_boundary(rec):
            out += ["---", "", "_Conversation compacted; the history above was summarised._", ""]
            continue
        kind = rec.get("type")
        message = rec.get("message")
        if kind == "user":
            text = prompt_text(rec)
            if text is None and isinstance(message, dict):
                label = next((command_label(s) for s in _texts(message) if command_label(s)), None)
                text = label
            if text:
                out += ["## User", "", strip_controls(text).strip(), ""]
            elif isinstance(message, dict) and isinstance(message.get("content"), list):
                label = _ERROR_LABELS.get(tool_denial(rec) or "", "Tool error")
                for block in message["content"]:
                    if isinstance(block, dict) and block.get("type") == "tool_result" and block.get("is_error"):
                        text = _result_text(block)
                        if label == "Tool error" and _REJECTED in text:
                            label = "Denied"  # the CLI's own refusal words (records without toolDenialKind)
                        out += [f"> {label}: {clean(text, 300)}", ""]
        elif kind == "assistant" and isinstance(message, dict):
            if message.get("model") == "<synthetic>":
                continue
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if not isinstance(block, dict):
                    continue
                btype = block.get("type")
                if btype == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                    if not out[-2].startswith("## Assistant"):
                        out += ["## Assistant", ""]
                    out += [strip_controls(block["text"]).strip(), ""]
                elif btype == "thinking" and include_thinking and isinstance(block.get("thinking"), str):
                    if block["thinking"].strip():
                        thought = _fence(strip_controls(block["thinking"]).strip())
                        out += ["<details><summary>Thinking</summary>", "", thought, "", "</details>", ""]
                elif btype == "tool_use":
                    out += [f"- **Tool** {tool_summary(str(block.get('name', '?')), block.get('input'))}", ""]
                    subs = t.subagents.get(str(block.get("id")))
                    if subs:
                        out += [f"  _(subagent: {len(subs)} records)_", ""]
    return "\n".join(out).rstrip() + "\n"


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return []


def to_json(t: Transcript) -> str:
    """The main chain, subagents and cost as one JSON document."""
    doc = {
        "session_id": t.session_id,
        "path": str(t.path),
        "leaf_uuid": t.leaf_uuid,
        "compact_boundaries": t.boundaries,
        "cost_state": t.cost_state,
        "records": t.records,
        "subagents": t.subagents,
    }
    return json.dumps(doc, ensure_ascii=False, indent=1)
