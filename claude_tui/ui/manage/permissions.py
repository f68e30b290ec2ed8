"""`/permissions`: every permission rule of the session by behaviour, with its plain-language
reading and where it is kept (`list_permission_rules`); add and remove this session's rules.

a adds a rule (typed as `allow Bash(npm test:*)`, `deny Read(./.env)`, `ask WebFetch`), d
removes the highlighted one. Both go through the CLI (`apply_flag_settings`, see
`session/permission_rules.py`); a rule kept in a settings file is not removed here: the screen
says which file holds it. Rule strings can carry invisible or control characters: shown inert.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from claude_tui.protocol import manage, versions
from claude_tui.protocol.manage import PermissionRule
from claude_tui.protocol.sanitize import one_line, printable_name
from claude_tui.session import permission_rules as rules_
from claude_tui.ui.kit.safe_input import SafeInput
from claude_tui.ui.manage.base import ManageScreen
from claude_tui.ui.manage.rows import RowList

__all__ = ["PermissionsScreen", "rule_line"]

_HEADS = {"allow": "Allowed without asking", "ask": "Always asked", "deny": "Denied"}


def rule_line(rule: PermissionRule) -> str:
    reading = f" — {one_line(rule.description.text)}" if rule.description and rule.description.text else ""
    off = " (not in effect: managed policy only)" if rule.not_in_effect else ""
    return f"  {printable_name(rule.rule)}{reading}{off}\n      kept in {rules_.where_kept(rule)}"


class PermissionsScreen(ManageScreen):
    DEFAULT_CSS = """
    PermissionsScreen #rules { height: auto; max-height: 24; }
    PermissionsScreen #rule-entry { display: none; }
    PermissionsScreen.-adding #rule-entry { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", "Add a rule"),
        Binding("d,delete", "remove", "Remove"),
    ]
    TITLE_TEXT = "Permissions"
    REQUEST = "list_permission_rules"
    WHAT = "list permission rules"
    KEYS = "a add a rule for this session · d remove it · F5 refresh · Esc close"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules: list[PermissionRule] = []

    @property
    def listing(self) -> RowList:
        return self.query_one("#rules", RowList)

    @property
    def rows(self) -> list[PermissionRule | None]:
        """The rule each line of the list stands for (None: a heading)."""
        return self.listing.rows

    def compose_body(self) -> ComposeResult:
        yield RowList(id="rules")
        yield Static(Content(""), id="rules-extra")
        yield SafeInput(placeholder="allow Bash(npm test:*) · deny Read(./.env) · ask WebFetch", id="rule-entry")

    def build(self) -> dict[str, Any]:
        return manage.list_permission_rules()

    def draw(self, answer: dict[str, Any]) -> None:
        state = manage.PermissionRules.from_answer(answer)
        self.rules = state.rules
        rows: list[PermissionRule | None] = []
        options: list[Option] = []
        for behaviour in rules_.BEHAVIOURS:
            group = [r for r in state.rules if r.behavior == behaviour]
            options.append(Option(Content(f"{_HEADS[behaviour]} ({len(group)})"), disabled=True))
            rows.append(None)
            for rule in group:
                options.append(Option(Content(rule_line(rule))))
                rows.append(rule)
        self.listing.show_rows(options, rows, focus=not self.has_class("-adding"))
        extra = [f"Working directory: {printable_name(state.original_cwd)}"] if state.original_cwd else []
        for folder in state.workspace_directories:
            extra.append(f"Also allowed: {printable_name(str(folder.get('path', '')))} "
                         f"({printable_name(str(folder.get('source', '')))})")
        if state.managed_only:
            extra.append("Managed policy: only its rules apply.")
        if not state.rules:
            extra.insert(0, "No rules: every tool that needs permission asks (or follows the mode).")
        self.query_one("#rules-extra", Static).update(Content("\n".join(extra)))

    def _lacks_changes(self) -> str | None:
        return versions.lacks(self.asker.cli_version, "apply_flag_settings", "change permission rules")

    def action_add(self) -> None:
        if not self.keys_open():
            return
        if (note := self._lacks_changes()) is not None:
            self.state(note, error=True)
            return
        self.add_class("-adding")
        self.query_one("#rule-entry", SafeInput).focus()

    @on(Input.Submitted, "#rule-entry")
    def _entered(self, event: Input.Submitted) -> None:
        parsed = rules_.parse_entry(event.value)
        if isinstance(parsed, str):
            self.state(parsed, error=True)
            return
        behaviour, rule = parsed
        lists = rules_.with_rule(self.rules, behaviour, rule)
        entry = self.query_one("#rule-entry", SafeInput)
        entry.value = ""
        self.remove_class("-adding")
        self.query_one("#rules", OptionList).focus()
        self.act(manage.apply_permission_rules(lists["allow"], lists["deny"], lists["ask"]),
                 "Adding the rule", f"Added for this session: {behaviour} {printable_name(rule)}")

    def action_close(self) -> None:
        if self.has_class("-adding"):  # Esc leaves the entry first
            self.remove_class("-adding")
            self.query_one("#rules", OptionList).focus()
            return
        super().action_close()

    def action_remove(self) -> None:
        rule: PermissionRule | None = self.listing.current if self.may_act() else None
        if rule is None:
            return
        if rule.source != "flagSettings":
            self.state(f"{printable_name(rule.rule)} is kept in {rules_.where_kept(rule)}; claude-tui does not "
                       "edit that. Remove it there (or with Claude Code's own /permissions).", error=True)
            return
        if (note := self._lacks_changes()) is not None:
            self.state(note, error=True)
            return
        lists = rules_.without_rule(self.rules, rule.behavior, rule.rule)
        self.act(manage.apply_permission_rules(lists["allow"], lists["deny"], lists["ask"]),
                 "Removing the rule", f"Removed: {rule.behavior} {printable_name(rule.rule)}")
