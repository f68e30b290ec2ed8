"""F1: keys (read from the bindings themselves, keymap applied), slash commands, tools, agents,
skills, MCP servers, versions — from `system/init` and the initialize response. Type to filter.

The filter has the focus, so letters filter: Esc and F1 close, and `?` closes it too while the
filter is empty; typed after a word, it is part of the filter. (`?` on an empty prompt shows the
shortcuts under the prompt instead, `shortcut_rows`: typing on goes into the prompt.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.keys import format_key
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from claude_tui.protocol.sanitize import printable, printable_name
from claude_tui.protocol.versions import NEWEST_TESTED, OLDEST_SUPPORTED, support_note
from claude_tui.ui.app.keymap import applied_keymap, effective_keys
from claude_tui.ui.chat.app_host import app_host
from claude_tui.ui.chat.session import ChatSession
from claude_tui.ui.kit.app_config import app_config
from claude_tui.ui.kit.keys_in_order import KeysInOrder
from claude_tui.ui.kit.theme import theme_color
from claude_tui.ui.manage.routing import SCREENS as MANAGE_SCREENS

# Keys handled inside widgets rather than by bindings.
PROMPT_KEYS = [
    ("enter", "send the prompt"),
    ("ctrl+j / alt+enter / shift+enter", "new line in the prompt"),
    ("up / down (first/last line)", "walk prompt history"),
    ("ctrl+x ctrl+e", "edit the prompt in $VISUAL / $EDITOR (as ctrl+g)"),
    ("/", "slash-command completion"),
    ("@", "file path completion"),
    ("tab", "accept a completion"),
    ("? (empty prompt)", "the shortcuts, under the prompt (F1: this help)"),
    ("escape escape (empty prompt)", "rewind: go back to before one of your prompts"),
    ("!command", "run it where Claude Code runs; its output goes with your next prompt"),
    ("up (empty prompt, prompts queued)", "take the queued prompts back to edit"),
]

MCP_STATUS_COLOR = {"connected": "text-success", "failed": "text-error", "needs-auth": "text-warning",
                    "pending": "text-warning"}
"""The theme colour (a theme variable, not an ANSI name) of each MCP server state."""


def display_keys(keys: str) -> str:
    """ "ctrl+q,question_mark" -> "ctrl+q / ?" """
    shown = []
    for key in keys.split(","):
        *modifiers, base = key.strip().split("+")
        shown.append("+".join([*modifiers, format_key(base) if base else "+"]))
    return " / ".join(shown)


@dataclass
class Section:
    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    """(left, right) pairs; the left one is shown bold."""
    styles: list[str] = field(default_factory=list)
    """Optional style for each right-hand cell."""

    def filtered(self, needle: str) -> Section:
        if not needle:
            return self
        keep = [i for i, (left, right) in enumerate(self.rows)
                if needle in left.casefold() or needle in right.casefold() or needle in self.title.casefold()]
        return Section(self.title, [self.rows[i] for i in keep],
                       [self.styles[i] for i in keep] if self.styles else [])


def binding_rows(bindings: Iterable[Any], keymap: dict[str, str]) -> list[tuple[str, str]]:
    rows = []
    seen: set[tuple[str, str]] = set()
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            row = (display_keys(effective_keys(binding, keymap)), binding.description)
            if row not in seen:
                seen.add(row)
                rows.append(row)
    return rows


def key_sections(app: App[Any]) -> list[Section]:
    from claude_tui.ui.chat.view import ChatView
    from claude_tui.ui.dialogs.permission import PermissionScreen
    from claude_tui.ui.dialogs.plan import PlanScreen
    from claude_tui.ui.dialogs.question import QuestionScreen
    from claude_tui.ui.panels.find_bar import FindBar
    from claude_tui.ui.panels.select_bar import SelectBar
    from claude_tui.ui.render.diff_view import DiffView

    keymap = applied_keymap(app_config(app).keymap)
    app_bindings = [b for b in type(app).BINDINGS if isinstance(b, Binding)]
    general = binding_rows([b for b in app_bindings if not (b.id or "").startswith("tabs.")], keymap)
    if app.ENABLE_COMMAND_PALETTE:
        general.append((display_keys(app.COMMAND_PALETTE_BINDING), "Command palette"))
    # Alt+1 … Alt+9 are one row, not nine.
    tabs = binding_rows([b for b in app_bindings if (b.id or "").startswith("tabs.")
                         and not (b.id or "").startswith("tabs.switch_")], keymap)
    tabs.insert(0, (display_keys("alt+1") + " … 9", "Go to tab 1 … 9"))
    return [
        Section("Keys", general + binding_rows(ChatView.BINDINGS, keymap)),
        Section("Tabs", tabs),
        Section("Prompt", list(PROMPT_KEYS)),
        Section("Find (Ctrl+F)", binding_rows(FindBar.BINDINGS, keymap) + [("enter", "Next match")]),
        Section("Select a message (Ctrl+Up / F2)", binding_rows(SelectBar.BINDINGS, keymap)),
        Section("Diffs", binding_rows(DiffView.BINDINGS, keymap)),
        Section("Manage (claude-tui's own screens)",
                [(slash, words) for slash, (_, _, words) in MANAGE_SCREENS.items()]),
        Section("Permission dialogs", [("tab", "Move to a waiting dialog (until then typing goes to the prompt)")]
                + binding_rows(PermissionScreen.BINDINGS, keymap)
                + binding_rows(PlanScreen.BINDINGS, keymap) + binding_rows(QuestionScreen.BINDINGS, keymap)),
    ]


def shortcut_rows(app: Any) -> list[tuple[str, str]]:
    """What `?` on an empty prompt lists: the app's and the chat's keys (keymap applied), the prompt's."""
    keys = key_sections(app)[0].rows
    prompt = [row for row in PROMPT_KEYS if not row[0].startswith("?")]
    return [*keys, *prompt, ("f1", "all keys, commands, tools")]


def session_sections(session: ChatSession | None, app: App[Any]) -> list[Section]:
    """The active tab's session: its commands, agents, tools, MCP servers and versions."""
    if session is None:
        return []
    host = app_host(app)
    conversation = session.conversation
    status = conversation.status
    init: dict[str, Any] = session.initialize_response or {}
    sections: list[Section] = []
    commands = Section("Slash commands")
    for command in conversation.commands:
        name = "/" + printable_name(str(command.get("name", "")))
        hint = printable_name(str(command.get("argumentHint") or ""))
        aliases = [printable_name(str(a)) for a in command.get("aliases") or [] if isinstance(a, str)]
        left = f"{name} {hint}".strip()
        if aliases:
            left += "  (" + ", ".join("/" + alias for alias in aliases) + ")"
        description = str(command.get("description") or "")
        commands.rows.append((left, first_line(description)))
    if not commands.rows:
        for name in status.slash_commands:
            commands.rows.append(("/" + printable_name(name), ""))
    sections.append(commands)
    agents = Section("Agents")
    described = [a for a in init.get("agents") or [] if isinstance(a, dict)]
    for agent in described:
        name = printable_name(str(agent.get("name", "")))
        agents.rows.append((name, first_line(str(agent.get("description") or ""))))
    if not agents.rows:
        agents.rows = [(printable_name(name), "") for name in status.agents]
    sections.append(agents)
    sections.append(Section("Tools", [(printable_name(name), "") for name in status.tools]))
    sections.append(Section("Skills", [(printable_name(name), "") for name in status.skills]))
    mcp = Section("MCP servers")
    for server in status.mcp_servers:
        state = printable(str(server.get("status", "unknown")))
        mcp.rows.append((printable_name(str(server.get("name", "?"))), state))
        colour = MCP_STATUS_COLOR.get(state)
        mcp.styles.append(theme_color(app, colour, "") if colour else "")
    if not mcp.rows:
        mcp.rows.append(("(none)", "no MCP servers configured" if status.session_id else "known after the first turn"))
        mcp.styles.append("dim")
    sections.append(mcp)
    version = status.cli_version or str(init.get("claude_code_version") or "")
    note = support_note(version)
    about = Section("Versions", [
        ("Claude Code", printable(version or "unknown") + (f" — {note}" if note else
                        f" (supported: {OLDEST_SUPPORTED} to {NEWEST_TESTED})" if version else "")),
        ("claude-tui", host.version if host is not None else ""),
    ])
    if isinstance(init.get("sandbox_enabled"), bool):  # reported from 2.1.332 on
        about.rows.append(("Sandbox", "on: Bash runs in Claude Code's sandbox" if init["sandbox_enabled"] else "off"))
    if status.model:
        about.rows.append(("Model", printable(status.model)))
    if status.session_id:
        about.rows.append(("Session", printable(status.session_id)))
    worktree = host.worktree_for(session.options.cwd) if host is not None else None
    if worktree is not None:
        about.rows.append(("Worktree", f"{printable(worktree.branch)} at {printable(str(worktree.path))}"))
    about.rows.append(("Theme", str(app.theme)))
    sections.append(about)
    return sections


DESCRIPTION_LIMIT = 160
"""Characters of a command's or an agent's description shown in help (its first line)."""


def first_line(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """The first line of `text`, printable; a longer one is cut at a word boundary, with "…"."""
    lines = printable(text).strip().splitlines()
    line = lines[0].strip() if lines else ""
    if len(line) <= limit:
        return line
    cut = line[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def render_sections(sections: list[Section]) -> RenderableType:
    parts: list[RenderableType] = []
    for section in sections:
        if not section.rows:
            continue
        body: RenderableType
        if all(not right for _, right in section.rows):
            # A plain list (tools, skills): one wrapped paragraph.
            body = Text(", ".join(left for left, _ in section.rows))
        else:
            table = body = Table(show_header=False, box=None, padding=(0, 2), expand=False)
            # Wrapped at spaces (a long argument hint was cut mid-word); only a longer word folds.
            table.add_column(style="bold", max_width=50, overflow="fold")
            table.add_column(ratio=1)
            for index, (left, right) in enumerate(section.rows):
                style = section.styles[index] if index < len(section.styles) else ""
                table.add_row(Text(left), Text(right, style=style))
        parts += [Text(section.title, style="bold underline"), body, Text("")]
    if not parts:
        parts.append(Text("Nothing matches.", style="italic"))
    return Group(*parts)


class HelpFilter(KeysInOrder, Input):
    """The filter line. While it is empty it leaves `?` to the screen, which closes help with it."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # Textual drops a screen's bindings for keys the focused input may consume, priority ones too.
        if key == "question_mark" and not self.value:
            return False
        return super().check_consume_key(key, character)


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [
        Binding("escape,f1", "dismiss_help", "Close"),
        # Priority: the focused filter would take the key first. It lets `?` through only while
        # it is empty (HelpFilter); `q` is only ever text.
        Binding("question_mark", "dismiss_help", show=False, priority=True),
        Binding("down", "scroll(1)", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("pagedown", "scroll(20)", show=False),
        Binding("pageup", "scroll(-20)", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[Section] = []
        self.shown: list[Section] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box") as box:
            box.border_title = "Help · type to filter · Esc closes (? too, before you type)"
            yield HelpFilter(placeholder="Filter keys, commands, tools…", id="help-filter")
            with VerticalScroll(id="help-scroll"):
                yield Static(id="help-content")

    def on_mount(self) -> None:
        host = app_host(self)
        chat = host.chat if host is not None else None
        self.sections = key_sections(self.app) + session_sections(chat.session if chat is not None else None, self.app)
        self._show("")

    def _show(self, needle: str) -> None:
        self.shown = [section.filtered(needle.casefold().strip()) for section in self.sections]
        self.query_one("#help-content", Static).update(render_sections(self.shown))

    @on(Input.Changed, "#help-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._show(event.value)
        self.query_one("#help-scroll").scroll_home(animate=False)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)

    def text(self) -> str:
        """The plain text shown, filter applied (for tests and screen readers)."""
        return "\n".join(f"{s.title}\n" + "\n".join(f"{a}  {b}" for a, b in s.rows) for s in self.shown if s.rows)
