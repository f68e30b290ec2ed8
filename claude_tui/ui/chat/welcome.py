"""The first thing the chat shows: where you are, the keys to start with, and in the demo its keywords."""

from __future__ import annotations

from rich.text import Text

from claude_tui.protocol.sanitize import printable_name
from claude_tui.transport.options import CliOptions


def welcome_text(options: CliOptions) -> Text:
    text = Text.assemble(
        ("claude-tui", "bold"), "  ·  a terminal front end for Claude Code\n\n",
        ("Working in ", "dim"), printable_name(str(options.cwd or ".")),
        *((("  on ", "dim"), (printable_name(options.ssh.label), "bold"), ("  over ssh", "dim"))
          if options.ssh else ()),
        "\n\n",
        "Type a prompt and press ", ("Enter", "bold"), ".  ",
        ("/", "bold"), " commands  ·  ", ("@", "bold"), " files  ·  ",
        ("Ctrl+J", "bold"), " new line  ·  ", ("F4", "bold"), " past sessions  ·  ",
        ("F1", "bold"), " help",
        justify="center",
    )
    if is_demo(options):
        from claude_tui.fakecli.scenarios import FRIENDLY, SLASH, WELCOME_TEXT

        def order(word: str) -> int:  # as in the fake CLI's own help table; words it omits go last
            index = WELCOME_TEXT.find(f"`{word}`")
            return index if index >= 0 else len(WELCOME_TEXT)

        words = sorted([triggers[0] for _name, triggers in FRIENDLY] + list(SLASH), key=order)
        text.append("\n\nDemo: a scripted Claude Code. Put one of these words in a message to see a feature:\n",
                    style="dim")
        text.append("  ".join(words), style="bold")
    return text


def is_demo(options: CliOptions) -> bool:
    """`--demo` (or tests): the CLI is the scripted fake, which picks what to play by keywords."""
    if not options.command:
        return False  # the real CLI (and no import of the fake one at every start)
    from claude_tui.fakecli import command

    return list(options.command) == command()
