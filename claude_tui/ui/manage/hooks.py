"""`/hooks`: the hooks of the session by event, matcher and source file (`get_hooks_listing`).

Read-only, as Claude Code's own menu: the CLI's display strings (control characters already
revealed by it) are still passed through `printable` here.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from claude_tui.protocol import manage
from claude_tui.protocol.sanitize import one_line, printable_name
from claude_tui.ui.manage.base import ManageScreen

__all__ = ["HooksScreen", "hooks_text"]


def hooks_text(raw: dict[str, Any]) -> Text:
    listing = manage.parse_answer(manage.HooksListing, raw)
    out = Text()
    policy = listing.policy
    if policy.get("allDisabled") or policy.get("disabledByPolicy"):
        out.append("Hooks are turned off (disableAllHooks): none of these run.\n\n", style="bold")
    elif policy.get("managedOnly"):
        out.append("Managed policy: only its own hooks run.\n\n", style="bold")
    if not listing.hooks:
        out.append("No hooks. Claude Code reads them from the hooks of its settings files and plugins.\n")
        return out
    named = dict.fromkeys(h.event for h in listing.hooks)
    events = listing.events or [manage.HookEvent.model_validate({"name": name}) for name in named]
    for event in events:
        rows = [h for h in listing.hooks if h.event == event.name]
        if not rows:
            continue
        summary = f" — {one_line(event.summary)}" if event.summary else ""
        out.append(f"{printable_name(event.name)}{summary}\n", style="bold")
        for hook in rows:
            matcher = f"[{printable_name(hook.matcher)}] " if hook.matcher else ""
            label = printable_name(hook.content_label or hook.type or "hook")
            text = one_line(hook.command_text or hook.display_text)[:200]
            off = "  (does not run in this session)" if hook.disabled else ""
            timeout = f" · {hook.timeout:g}s timeout" if hook.timeout else ""
            out.append(f"  {matcher}{label}: {text}{off}\n")
            out.append(f"      from {printable_name(hook.source_label or hook.source)}{timeout}\n", style="dim")
        out.append("\n")
    return out


class HooksScreen(ManageScreen):
    TITLE_TEXT = "Hooks"
    REQUEST = "get_hooks_listing"
    WHAT = "list hooks"

    def compose_body(self) -> ComposeResult:
        yield Static(Text(""), id="manage-content")

    def build(self) -> dict[str, Any]:
        return manage.get_hooks_listing()

    def draw(self, answer: dict[str, Any]) -> None:
        self.query_one("#manage-content", Static).update(hooks_text(answer))
