"""Claude Code's habits on claude-tui's command line: -c, -r, --fork-session, and its session options
passed on to the CLI; what would break the session, or a typo, is refused with the reason."""

from __future__ import annotations

import subprocess
import sys

import pytest

from claude_tui.cli import parse_app_args
from claude_tui.ui.app.launch import build_options


def test_claude_codes_short_flags_work() -> None:
    assert parse_app_args(["-c"]).continue_session
    args = parse_app_args(["-r", "abcd", "--fork-session"])
    assert args.resume == "abcd" and args.fork


def test_claude_codes_session_options_reach_the_cli() -> None:
    args = parse_app_args(["--mcp-config", "/tmp/m.json", "/tmp/n.json", "--strict-mcp-config",
                           "--append-system-prompt", "be brief", "--settings={\"a\":1}", "--model", "opus",
                           "--", "--max-turns", "5"])
    assert args.model == "opus"  # claude-tui's own
    assert args.extra_args == ["--mcp-config", "/tmp/m.json", "/tmp/n.json", "--strict-mcp-config",
                               "--append-system-prompt", "be brief", "--settings={\"a\":1}", "--max-turns", "5"]
    options = build_options(args, None, ["--verbose"], {}, False, args.model, None)
    assert options.extra_args[-9:] == args.extra_args and "--verbose" in options.extra_args


@pytest.mark.parametrize(("argv", "said"), [
    (["--print", "hi"], "--print: claude-tui is the interactive session"),
    (["--output-format=json"], "stream-json itself"),
    (["--modle", "opus"], "unrecognized option --modle"),
])
def test_what_cannot_be_passed_on_is_refused_with_the_reason(argv: list[str], said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "claude_tui", *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr


def test_after_a_double_dash_anything_goes() -> None:
    assert parse_app_args(["--", "--print", "--whatever"]).extra_args == ["--print", "--whatever"]


def test_words_before_any_option_are_the_first_prompt_as_in_claude_code() -> None:
    assert parse_app_args(["fix the bug"]).prompt == "fix the bug"
    assert parse_app_args(["fix", "the", "bug", "--model", "opus"]).prompt == "fix the bug"
    args = parse_app_args(["-c", "go on", "--mcp-config", "a.json", "b.json"])
    assert args.continue_session and args.prompt == "go on"
    assert args.extra_args == ["--mcp-config", "a.json", "b.json"]  # after an option, its values
    assert parse_app_args([]).prompt is None


def test_help_names_the_prompt_and_the_claude_code_options_it_passes_on() -> None:
    from claude_tui.cli import build_parser
    from claude_tui.cli_passthrough import PASSED_ON

    text = build_parser().format_help()
    usage = text.split("\n\n")[0]
    assert "[PROMPT]" in usage and "[Claude Code options]" in usage and "[-- claude arguments]" in usage
    listed = text.split("Claude Code options (passed on to claude")[1].split()
    assert set(PASSED_ON) <= set(listed)
