"""Where each of Claude Code's own slash commands goes in claude-tui (no Textual).

In stream-json the CLI answers its terminal panels with "/x isn't available in this
environment." — true there, useless to a claude-tui user. Every built-in command of Claude Code
2.1.330's TUI (read from its bundled cli.js; the walk against the real CLI is
`tests/e2e/test_slash_walk_real_cli.py`) is one of three things here:

- absent from `LOCAL`: the CLI answers it itself (`/compact`, `/clear`, `/cost` …);
- a `Route` with a `screen`: claude-tui opens its own screen or runs its own action for it;
- a `Route` with only `says`: one line saying what claude-tui offers in its place.

The README's table of slash commands is written from this module (`readme_table`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """A command claude-tui answers itself: `screen` names what it opens, `says` the one line."""

    description: str
    screen: str = ""
    says: str = ""
    args_to_cli: bool = False
    """With arguments (`/mcp reconnect x`) the command is Claude Code's: only the bare one opens the screen."""
    takes_argument: bool = False
    """With arguments (`/model sonnet`) claude-tui acts on them itself, without the screen."""


def _elsewhere(name: str, what: str) -> Route:
    """A Claude Code panel about the account, the platform or its own terminal UI."""
    return Route(what, says=f"/{name} is a panel of Claude Code's own terminal: run `claude` in a shell and "
                            f"type /{name} there (same account, same settings).")


_TUI_ONLY = {
    "access": "View the verification programs your account is in",
    "advisor": "Let Claude consult a stronger model at key moments",
    "artifacts": "Browse your published and shared artifacts",
    "autofix-pr": "Monitor and autofix any issues with the current PR",
    "background": "Send this session to the background and free the terminal",
    "brief": "Toggle brief-only mode",
    "btw": "Ask a side question without interrupting Claude",
    "cloud-plugins": "Choose whether cloud sessions use the plugins enabled on this machine",
    "daemon": "Manage background services and routines",
    "design-consent": "Grant Claude agent access to your Design projects",
    "design-login": "Authorize design-system access with your claude.ai account",
    "design-revoke": "Revoke Claude agent access to your Design projects",
    "desktop": "Continue the current session in Claude Desktop",
    "extra-usage": "Renamed to /usage-credits",
    "focus": "Toggle focus view: just your prompt, summary, and response",
    "ide": "Manage IDE integrations and show status",
    "import": "Import config from another AI coding agent",
    "install-github-app": "Set up Claude GitHub Actions for a repository",
    "install-slack-app": "Install the Claude Slack app",
    "mobile": "Show QR code to download the Claude mobile app",
    "passes": "Share a free week of Claude Code with friends",
    "pause-memory": "Pause or resume memory for this session",
    "plugin": "Manage Claude Code plugins",
    "powerup": "Learn Claude Code features in short lessons",
    "privacy-settings": "View and update your privacy settings",
    "pro-trial-expired": "Options shown when the Pro plan Claude Code trial has ended",
    "project": "Set the claude.ai Project for this session's usage reports",
    "radio": "Listen to Claude FM lo-fi radio",
    "rate-limit-options": "Manage usage limits and upgrade options",
    "release-notes": "View release notes",
    "remote-control": "Let claude.ai control this session",
    "remote-env": "Choose the default environment for cloud agents",
    "session": "Show cloud session URL and QR code",
    "setup-bedrock": "Change Amazon Bedrock authentication, region, or pinned models",
    "setup-vertex": "Change Google Vertex AI authentication, project, region, or pinned models",
    "stickers": "Check Claude Code sticker availability",
    "stop": "Stop this background session; transcript and worktree are kept",
    "subtask": "Send a subagent off with your full context",
    "teleport": "Resume a cloud session here",
    "tui": "Set the terminal UI renderer (classic | fullscreen)",
    "ultraplan": "Plan in the cloud, then bring the plan back",
    "ultrareview": "Review the branch in the cloud",
    "upgrade": "Upgrade your plan for higher rate limits and more Opus",
    "usage-credits": "Configure usage credits or request them from your admin",
    "use-case": "Choose the Life Sciences use case that applies to your requests",
    "voice": "Toggle voice mode",
    "web-setup": "Set up cloud sessions with your GitHub account",
    "wellbeing": "Configure optional break reminders and quiet-hours nudges",
    "workflows": "Browse running and completed workflows",
    "install": "Install Claude Code native build",
    "login": "Sign in with your Anthropic account",
    "logout": "Sign out from your Anthropic account",
}

LOCAL: dict[str, Route] = {
    # claude-tui's own screens and actions
    "resume": Route("Browse past sessions and resume one (claude-tui's session browser, F4)", screen="sessions"),
    "export": Route("Write this conversation to a Markdown file in the working directory", screen="export"),
    "rewind": Route("Go back to before one of your prompts: the conversation, the code or both (Esc Esc)",
                     screen="rewind"),
    "checkpoint": Route("Same as /rewind", screen="rewind"),
    "undo": Route("Same as /rewind", screen="rewind"),
    "usage": Route("Cost and tokens by day, week, model and project (claude-tui's usage screen)", screen="usage"),
    "stats": Route("Same as /usage", screen="usage"),
    "help": Route("Keys, slash commands, tools and MCP servers (F1)", screen="help"),
    "keybindings": Route("The keys, as bound now (F1)", screen="help"),
    "skills": Route("Skills, commands, tools and agents of this session (F1)", screen="help"),
    "vim": Route("Toggle vim mode in the prompt (normal and insert modes)", screen="vim"),
    "copy": Route("Copy Claude's last answer as Markdown (Ctrl+Y)", screen="copy"),
    "diff": Route("Files changed this turn and this session", screen="changes"),
    "fork": Route("Continue this session as a new one (--fork-session)", screen="fork"),
    "branch": Route("Same as /fork: this conversation as a new session", screen="fork"),
    "exit": Route("Quit claude-tui (Ctrl+Q)", screen="quit"),
    "quit": Route("Same as /exit", screen="quit"),
    "tasks": Route("Tasks and agents of this session: the sidebar (Ctrl+T)", screen="sidebar"),
    "bashes": Route("Same as /tasks", screen="sidebar"),
    "plan": Route("Switch to plan mode (Shift+Tab cycles the modes)", screen="plan"),
    "theme": Route("Pick a theme (remembered)", screen="theme"),
    "model": Route("Pick the model from Claude Code's list (↑↓, a number, Enter); /model NAME switches at once",
                   screen="model", takes_argument=True),
    # one line: what claude-tui has instead
    "status": Route("Version, account, model and setup",
                    says="/status: the status bar shows the model, mode, context and cost; "
                         "F1 lists tools and MCP servers; `claude-tui config --show` your settings."),
    "permissions": Route("Permission rules: where each is kept; add or remove this session's",
                         screen="permissions"),
    "allowed-tools": Route("Same as /permissions", screen="permissions"),
    "hooks": Route("Hooks by event, matcher and source", screen="hooks"),
    "mcp": Route("MCP servers: state, tools; turn off/on, reconnect", screen="mcp", args_to_cli=True),
    "context": Route("What fills the context window", screen="context", args_to_cli=True),
    "memory": Route("Edit CLAUDE.md files and memory settings",
                    says="/memory: edit CLAUDE.md in your editor, in another terminal; F5 restarts "
                         "Claude Code so it reads it."),
    "add-dir": Route("Add a working directory",
                     says="/add-dir: start claude-tui with --add-dir DIR (each tab keeps its directories)."),
    "cd": Route("Move this session to a new working directory",
                says="/cd: Ctrl+P, \"New tab elsewhere…\" opens a session in another directory."),
    "restart": Route("Restart Claude Code",
                     says="/restart: F5 restarts Claude Code in place, same session; update the CLI with "
                          "`claude update` in a shell."),
    "update": Route("Same as /restart", says="/update: run `claude update` in a shell, then F5 here."),
    "scroll-speed": Route("Adjust mouse wheel scroll speed",
                          says="/scroll-speed: the log scrolls as your terminal sends the wheel; PageUp and "
                               "PageDown move a page."),
    "terminal-setup": Route("Set up the terminal for newlines",
                            says="/terminal-setup: not needed in claude-tui; Ctrl+J or Shift+Enter adds a "
                                 "newline (F1 lists the keys)."),
    "statusline": Route("Set up your own status line",
                        says="/statusline: ask Claude to write a `statusLine` command into ~/.claude/settings.json "
                             "(it reads the session's JSON on stdin); claude-tui shows its line above the status "
                             "bar from the next tab or start."),
    "feedback": Route("Send feedback or report a bug",
                      says="/feedback: claude-tui's issues go to its repository; Claude Code's own: run "
                           "`claude` in a shell and type /feedback there."),
    "bug": Route("Same as /feedback", says="/bug: see /feedback (run `claude` in a shell for Claude Code's)."),
}
for _name, _what in _TUI_ONLY.items():
    LOCAL.setdefault(_name, _elsewhere(_name, _what))

THROUGH_CLI: dict[str, str] = {
    "agents": "Says how subagents are made now (the wizard is gone)",
    "auto-mode-setup": "Teach auto mode about your environment",
    "autocompact": "Set how full the context gets before auto-summarizing",
    "clear": "Claude forgets the conversation (the log stays, marked where its memory starts over)",
    "color": "Set the prompt bar color for this session",
    "compact": "Free up context by summarizing the conversation so far",
    "config": "Set a setting by key (`/config key=value`)",
    "cost": "The session's cost, duration and token usage",
    "doctor": "Check the installation's health",
    "effort": "Set the model's effort level",
    "fast": "Toggle fast mode",
    "goal": "Set a goal Claude checks before stopping",
    "heapdump": "Dump the CLI's JS heap to a file",
    "init": "Write a CLAUDE.md for this project",
    "insights": "A report analysing your Claude Code sessions",
    "list-agents": "Subagents, teammates and other Claude sessions you can message",
    "output-style": "List output styles or switch to one",
    "recap": "A one-line recap of the session",
    "reload-plugins": "Activate pending plugin changes",
    "reload-skills": "Pick up skills added or changed on disk",
    "rename": "Rename the conversation",
    "review": "Review a pull request",
    "security-review": "Review the pending changes for security",
    "skill-doctor": "Which loaded skills are unused and cost context",
    "team-onboarding": "A guide for teammates from your usage",
    "version": "This session's Claude Code version",
    "workflow-launch-exec": "Execute a server-launched workflow handoff",
}
"""Claude Code's built-in commands its stream-json mode answers itself: they go to the CLI as typed."""

BUILTINS = sorted(set(LOCAL) | set(THROUGH_CLI))
"""Every built-in command of Claude Code 2.1.330's TUI, aliases included."""


def command_name(text: str) -> str | None:
    """`name` of a `/name args` prompt, else None (a path like `/etc/x` is no command)."""
    if not text.startswith("/") or text[1:2].isspace():
        return None
    name = text[1:].split(maxsplit=1)[0] if text[1:].strip() else ""
    if not name or "/" in name:
        return None
    return name


def local_route(text: str) -> Route | None:
    """The route of a typed `/command`, when claude-tui answers it itself."""
    text = text.strip()
    name = command_name(text)
    route = LOCAL.get(name) if name is not None else None
    if route is not None and route.args_to_cli and text != f"/{name}":
        return None
    return route


def menu_entries() -> dict[str, str]:
    """Every locally answered command with the description the `/` menu shows."""
    return {name: route.description for name, route in LOCAL.items()}


def readme_table() -> str:
    """The README's table of Claude Code's commands in claude-tui (kept equal by a unit test)."""
    rows = ["| command | in claude-tui |", "|---|---|"]
    elsewhere = sorted(name for name in _TUI_ONLY if LOCAL[name].says.endswith("(same account, same settings)."))
    for name in BUILTINS:
        if name in elsewhere:
            continue
        route = LOCAL.get(name)
        what = (route.says.split(": ", 1)[-1] if route.says else route.description) if route else \
            f"Claude Code answers it: {THROUGH_CLI[name][0].lower()}{THROUGH_CLI[name][1:]}"
        rows.append(f"| `/{name}` | {what} |")
    names = ", ".join(f"`/{name}`" for name in elsewhere)
    rows.append(f"| {names} | Panels of Claude Code's own terminal (account, cloud, plugins, IDE): one line says to "
                "run `claude` in a shell for them |")
    return "\n".join(rows)
