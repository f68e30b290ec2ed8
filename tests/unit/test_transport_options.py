"""argv/env building and locating the `claude` binary."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from claude_tui.transport.errors import ClaudeNotFoundError
from claude_tui.transport.locate import ENV_VAR, find_claude, install_locations
from claude_tui.transport.options import BASE_FLAGS, CliOptions, build_argv, build_env


def make_exe(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


# -- argv --------------------------------------------------------------------


def test_base_argv_is_stream_json_duplex() -> None:
    argv = build_argv(CliOptions(file_checkpoints=False), "/bin/claude")
    assert argv == [
        "/bin/claude",
        "--output-format", "stream-json",
        "--input-format", "stream-json",
        "--verbose",
        "--include-partial-messages",
        "--permission-prompt-tool", "stdio",
        "--permission-mode", "default",
    ]  # fmt: skip
    assert tuple(argv[1:-2]) == BASE_FLAGS


def test_all_options_map_to_flags() -> None:
    opts = CliOptions(
        model="sonnet",
        permission_mode="plan",
        resume="abc-123",
        fork_session=True,
        add_dirs=["/a", "/b c"],
        max_turns=3,
        max_budget_usd=1.5,
        extra_args=["--debug"],
    )
    argv = build_argv(opts, "claude")
    tail = argv[1 + len(BASE_FLAGS) :]
    assert tail == [
        "--replay-user-messages",
        "--model", "sonnet",
        "--permission-mode", "plan",
        "--resume", "abc-123",
        "--fork-session",
        "--add-dir", "/a",
        "--add-dir", "/b c",
        "--max-turns", "3",
        "--max-budget-usd", "1.5",
        "--debug",
    ]  # fmt: skip


def test_continue_and_fork_without_resume() -> None:
    argv = build_argv(CliOptions(continue_session=True, fork_session=True), "claude")
    assert argv[-2:] == ["--continue", "--fork-session"]
    # fork alone means nothing to the CLI: not passed
    assert "--fork-session" not in build_argv(CliOptions(fork_session=True), "claude")
    # resume wins over continue
    both = build_argv(CliOptions(resume="x", continue_session=True), "claude")
    assert "--continue" not in both and "--resume" in both


def test_command_prefix_replaces_binary() -> None:
    argv = build_argv(CliOptions(model="opus"), ["/usr/bin/python3", "-m", "claude_tui.fakecli"])
    assert argv[:3] == ["/usr/bin/python3", "-m", "claude_tui.fakecli"]
    assert argv[3] == "--output-format"
    assert argv[-4:] == ["--model", "opus", "--permission-mode", "default"]


# -- env ---------------------------------------------------------------------


def test_env_drops_claudecode_and_enables_todo_tools() -> None:
    base = {"PATH": "/bin", "CLAUDECODE": "1", "HOME": "/h"}
    env = build_env(CliOptions(env={"ANTHROPIC_BASE_URL": "http://x"}), base)
    assert "CLAUDECODE" not in env
    assert env["CLAUDE_CODE_ENABLE_TODO_TOOLS"] == "1"
    assert env["ANTHROPIC_BASE_URL"] == "http://x"
    assert env["PATH"] == "/bin" and env["HOME"] == "/h"
    assert base["CLAUDECODE"] == "1"  # input not mutated


def test_env_todo_tools_can_be_disabled_and_extra_env_wins() -> None:
    env = build_env(CliOptions(enable_todo_tools=False), {"PATH": "/bin"})
    assert "CLAUDE_CODE_ENABLE_TODO_TOOLS" not in env
    env = build_env(CliOptions(env={"CLAUDE_CODE_ENABLE_TODO_TOOLS": "0"}), {})
    assert env["CLAUDE_CODE_ENABLE_TODO_TOOLS"] == "0"


def test_file_checkpoints_set_the_env_and_the_echo_flag() -> None:
    on = CliOptions()
    assert build_env(on, {})["CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"] == "true"
    assert "--replay-user-messages" in build_argv(on, "claude")
    off = CliOptions(file_checkpoints=False)
    assert "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING" not in build_env(off, {})
    assert "--replay-user-messages" not in build_argv(off, "claude")


def test_env_defaults_to_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_TUI_PROBE", "yes")
    monkeypatch.setenv("CLAUDECODE", "1")
    env = build_env(CliOptions())
    assert env["CLAUDE_TUI_PROBE"] == "yes"
    assert "CLAUDECODE" not in env


# -- locate ------------------------------------------------------------------


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        "home": home,
        "explicit": make_exe(tmp_path / "explicit" / "claude"),
        "envvar": make_exe(tmp_path / "envvar" / "claude"),
        "configured": make_exe(tmp_path / "configured" / "claude"),
        "onpath": make_exe(tmp_path / "onpath" / "claude"),
        "local": make_exe(home / ".claude" / "local" / "claude"),
    }


def test_locate_order(layout: dict[str, Path]) -> None:
    env = {"HOME": str(layout["home"]), "PATH": str(layout["onpath"].parent), ENV_VAR: str(layout["envvar"])}
    ex, cf = str(layout["explicit"]), str(layout["configured"])
    assert find_claude(ex, cf, env) == ex
    assert find_claude(None, cf, env) == str(layout["envvar"])
    env.pop(ENV_VAR)
    assert find_claude(None, cf, env) == cf
    assert find_claude(None, None, env) == str(layout["onpath"])
    env["PATH"] = "/nonexistent"
    assert find_claude(None, None, env) == str(layout["local"])


def test_locate_usual_places_in_order(tmp_path: Path) -> None:
    home = tmp_path / "h"
    b = make_exe(home / ".bun" / "bin" / "claude")
    env = {"HOME": str(home), "PATH": "/nonexistent"}
    assert find_claude(env=env) == str(b)
    lb = make_exe(home / ".local" / "bin" / "claude")
    assert find_claude(env=env) == str(lb)  # earlier in the list wins
    names = [str(p) for p in install_locations(home)]
    assert names.index(str(lb)) < names.index(str(b))
    assert "/usr/local/bin/claude" in names


def test_locate_expands_tilde_and_bare_names(tmp_path: Path) -> None:
    home = tmp_path / "h"
    exe = make_exe(home / "bin" / "claude-nightly")
    env = {"HOME": str(home), "PATH": str(home / "bin")}
    old = os.environ.get("HOME")
    os.environ["HOME"] = str(home)  # Path.expanduser reads the real env
    try:
        assert find_claude("~/bin/claude-nightly", env=env) == str(exe)
    finally:
        if old is not None:
            os.environ["HOME"] = old
    assert find_claude("claude-nightly", env=env) == str(exe)


def test_locate_bad_explicit_value_is_an_error_not_a_fallthrough(layout: dict[str, Path], tmp_path: Path) -> None:
    env = {"HOME": str(layout["home"]), "PATH": str(layout["onpath"].parent)}
    with pytest.raises(ClaudeNotFoundError) as err:
        find_claude(str(tmp_path / "nope"), None, env)
    assert "--claude-path" in str(err.value)
    not_exec = tmp_path / "plain"
    not_exec.write_text("x")
    with pytest.raises(ClaudeNotFoundError, match=ENV_VAR):
        find_claude(None, None, {**env, ENV_VAR: str(not_exec)})


def test_not_found_message_lists_tries_and_install_hints(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "empty"), "PATH": "/nonexistent"}
    if any(p.is_file() for p in install_locations(tmp_path / "empty")):
        pytest.skip("a system-wide claude is installed")
    with pytest.raises(ClaudeNotFoundError) as err:
        find_claude(env=env)
    msg = str(err.value)
    assert "PATH" in msg
    assert str(tmp_path / "empty" / ".claude" / "local" / "claude") in msg
    assert "npm install -g @anthropic-ai/claude-code" in msg
    assert "claude-tui --demo" in msg
    assert isinstance(err.value, FileNotFoundError)


def test_the_permission_mode_is_always_explicit() -> None:
    """CLIs 2.1.285-2.1.301 start stream-json sessions in `auto` (tools run unasked) unless told."""
    argv = build_argv(CliOptions(), "claude")
    assert argv[argv.index("--permission-mode") + 1] == "default"
    argv = build_argv(CliOptions(permission_mode="acceptEdits"), "claude")
    assert argv.count("--permission-mode") == 1
    assert argv[argv.index("--permission-mode") + 1] == "acceptEdits"


def _npm_install(root: Path, version: str) -> Path:
    package = root / "node_modules" / "@anthropic-ai" / "claude-code"
    (package / "bin").mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "@anthropic-ai/claude-code", "version": version}))
    binary = package / "bin" / "claude.exe"
    binary.write_text("")
    link = root / "node_modules" / ".bin" / "claude"
    link.parent.mkdir(parents=True)
    link.symlink_to(binary)
    return link


def test_thinking_display_goes_only_to_clis_that_accept_it(tmp_path: Path) -> None:
    new = _npm_install(tmp_path / "new", "2.1.330")
    old = _npm_install(tmp_path / "old", "2.1.0")
    opts = CliOptions(thinking_display="omitted")
    assert build_argv(opts, str(new))[-2:] == ["--thinking-display", "omitted"]
    assert "--thinking-display" not in build_argv(opts, str(old))  # 2.1.0 would exit on it
    assert "--thinking-display" not in build_argv(opts, str(tmp_path / "unknown-claude"))
    assert "--thinking-display" not in build_argv(CliOptions(), str(new))


def test_hook_events_go_only_to_clis_that_accept_them(tmp_path: Path) -> None:
    new = _npm_install(tmp_path / "new", "2.1.290")
    old = _npm_install(tmp_path / "old", "2.0.77")
    assert "--include-hook-events" in build_argv(CliOptions(), str(new))
    assert "--include-hook-events" not in build_argv(CliOptions(), str(old))  # 2.0.77 would exit on it
    assert "--include-hook-events" not in build_argv(CliOptions(), str(tmp_path / "unknown-claude"))
