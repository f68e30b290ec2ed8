"""Claude Code's own options on claude-tui's command line, passed on to the CLI.

A Claude Code user starts it with `claude --mcp-config servers.json --append-system-prompt …`; the
same words start claude-tui. The options below are the ones `claude --help` (2.1.330) lists that
shape a session claude-tui runs; they go to the CLI as typed, values and all. The ones that would
undo how claude-tui talks to the CLI (print mode, the stream formats, a permission prompt tool)
are refused with the reason, and an option neither program knows is an error, not a silent pass:
a typo must not start a session without what the user asked for. After `--` anything goes.
"""

from __future__ import annotations

from collections.abc import Sequence

PASSED_ON = frozenset({
    "--mcp-config", "--strict-mcp-config", "--allowedTools", "--allowed-tools", "--disallowedTools",
    "--disallowed-tools", "--tools", "--append-system-prompt", "--append-system-prompt-file", "--system-prompt",
    "--system-prompt-file", "--settings", "--setting-sources", "--agents", "--agent", "--effort",
    "--fallback-model", "--plugin-dir", "--plugin-url", "--betas", "--max-budget-usd", "--session-id",
    "--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--disable-slash-commands",
    "--bare", "--safe-mode", "--restricted", "--debug", "-d", "--debug-file", "--verbose", "--name", "-n",
    "--autocompact", "--exclude-dynamic-system-prompt-sections", "--ide", "--chrome", "--no-chrome",
    "--no-session-persistence",
})
REFUSED = {
    "--print": "claude-tui is the interactive session; for one answer run `claude -p`",
    "-p": "claude-tui is the interactive session; for one answer run `claude -p`",
    "--output-format": "claude-tui talks to the CLI in stream-json itself",
    "--input-format": "claude-tui talks to the CLI in stream-json itself",
    "--include-partial-messages": "claude-tui asks for the partial messages itself",
    "--replay-user-messages": "claude-tui talks to the CLI in stream-json itself",
    "--permission-prompt-tool": "claude-tui answers permission prompts itself",
    "--permission-prompts": "claude-tui answers permission prompts itself",
}


def claude_options(extras: Sequence[str]) -> tuple[list[str], str | None, str | None]:
    """(what to pass on to the CLI, the prompt, a problem): the words argparse did not know, checked.
    Words before the first option are the prompt (`claude-tui fix the bug`, as `claude "fix the
    bug"`); after an option a bare word is that option's value."""
    words = list(extras)
    lead = next((i for i, word in enumerate(words) if word.startswith("-") and word != "-"), len(words))
    prompt = " ".join(words[:lead]).strip() or None
    words = words[lead:]
    for word in words:
        if not word.startswith("-") or word == "-":
            continue
        name = word.split("=", 1)[0]
        if name in REFUSED:
            return [], None, f"{name}: {REFUSED[name]}"
        if name not in PASSED_ON:
            return [], None, (f"unrecognized option {name} (neither claude-tui's nor one of Claude Code's session "
                              "options; anything after `--` goes to claude as it is)")
    return words, prompt, None
