"""From parsed command-line arguments to a running app (or a clear error)."""

from __future__ import annotations

import gc
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from claude_tui.app_args import AppArgs
from claude_tui.history.paths import cli_config_root
from claude_tui.protocol.sanitize import printable_name
from claude_tui.transport.options import CliOptions

if TYPE_CHECKING:
    from claude_tui.remote.hosts import RemoteSetup
    from claude_tui.session.conversation import Conversation


def build_options(args: AppArgs, config_claude_path: str | None, cli_args: list[str], cli_env: dict[str, str],
                  enable_todo_tools: bool, model: str | None, permission_mode: str | None,
                  file_checkpoints: bool = True, thinking_display: str | None = None) -> CliOptions:
    options = CliOptions(
        cwd=str(args.cwd),
        model=model,
        permission_mode=permission_mode,
        resume=args.resume or None,
        continue_session=args.continue_session,
        fork_session=args.fork,
        add_dirs=list(args.add_dirs),
        extra_args=list(cli_args) + list(args.extra_args),
        env=dict(cli_env),
        enable_todo_tools=enable_todo_tools,
        file_checkpoints=file_checkpoints,
        thinking_display=thinking_display,
        claude_path=args.claude_path or config_claude_path,
    )
    if args.demo:
        from claude_tui.fakecli import command

        options.command = command()
        options.env.setdefault("FAKE_CLAUDE_DELAY_MS", "12")
        options.env["FAKE_CLAUDE_DEMO"] = "1"  # recordings of tools the demo CLI has off are left out
        options.cwd = str(demo_project())
    return options


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

DEMO_SESSIONS_CWD = "/home/user/project"
"""Where the bundled demo sessions were recorded; rewritten to the demo project on install."""


def demo_config_root(project: Path) -> Path:
    """A config root of our own holding recorded past sessions of the demo project, so the demo's
    session browser (F4) has something to show: real Claude Code transcripts, one of them a
    fork. Rewritten on every demo start (their times are made recent); never the CLI's own dir."""
    from importlib import resources

    from claude_tui import paths
    from claude_tui.history.paths import encode_project_dir

    root = paths.data_dir() / "demo-claude"
    target = root / "projects" / encode_project_dir(str(project))
    target.mkdir(parents=True, exist_ok=True)
    bundled = sorted((p for p in resources.files("claude_tui.fakecli").joinpath("demo_sessions").iterdir()
                      if p.name.endswith(".jsonl")), key=lambda p: p.name)
    now = time.time()
    cwd = json.dumps(str(project))[1:-1]
    for age, source in enumerate(bundled):
        path = target / source.name
        path.write_text(source.read_text("utf-8").replace(DEMO_SESSIONS_CWD, cwd), encoding="utf-8")
        when = now - 3600 * (age + 1) * 5
        os.utime(path, (when, when))
    return root


def demo_project() -> Path:
    """A small project for the demo, so edit previews have a real file to diff against."""
    from claude_tui import paths

    root = paths.data_dir() / "demo-project"
    root.mkdir(parents=True, exist_ok=True)
    (root / "a.txt").write_text("alpha\nbeta\ngamma\n", encoding="utf-8")
    return root


def resolve_resume(args: AppArgs, options: CliOptions) -> str:
    """Turn ``--resume NAME`` / ``--continue`` into the one full session id the CLI gets.

    Returns a problem to print (nothing matched, several did, nothing to continue), else "".
    """
    if args.continue_session:
        # Resolved here so the history can be shown and the id is known.
        from claude_tui.resume import newest_session_id

        session_id = newest_session_id(args.cwd, cli_config_root(options.env))
        if session_id is None:
            return (f"no previous session in {printable_name(str(args.cwd))} to continue. "
                    "Start without --continue, or pick one with --resume.")
        options.resume, options.continue_session = session_id, False
    elif args.resume:
        from claude_tui.history.resolve import resolve

        found = resolve(args.resume, cwd=args.cwd, root=cli_config_root(options.env))
        if not found.found:
            return found.problem()
        options.resume = found.session_id
    return ""


def run_app(args: AppArgs) -> int:
    # Importing the app makes ~60,000 objects the collector tracks, nearly all for good: its 164
    # collections during the imports freed 1,346 of them and took ~10 % of the imports' time. The
    # app's mount turns collection back on (`app._tune_gc`), as does anything that ends the launch first.
    gc.disable()
    try:
        return _run_app(args)
    finally:
        gc.enable()
        from claude_tui.transport import early

        early.discard()  # started for a session that never began (a failed check, a quit at once)


def _run_app(args: AppArgs) -> int:
    from claude_tui.ui.app.shutdown import EARLY_SIGNALS

    EARLY_SIGNALS.install()  # a SIGTERM during start-up ends it as a stop does, not by the signal
    flags = {"model": args.model, "permission_mode": args.permission_mode, "claude_path": args.claude_path}
    start_before_config(args, flags)
    from claude_tui.config import ConfigError, load_config

    try:
        config = load_config(flags=flags)
    except ConfigError as error:
        print(f"claude-tui: configuration problem:\n{error}", file=sys.stderr)
        return 2
    try:
        options = build_options(args, config.claude_path, config.cli_args, config.cli_env,
                                config.enable_todo_tools, config.model, config.permission_mode,
                                config.file_checkpoints, config.thinking_display)
        if args.demo:  # the demo's project and sessions live in our data dir: it must be writable
            demo_root = demo_config_root(Path(options.cwd or "."))
    except OSError as error:
        print(f"claude-tui: --demo keeps its project in {printable_name(str(error.filename or ''))}, "
              f"which cannot be written ({error.strerror})", file=sys.stderr)
        return 1
    conversation = None
    if args.ssh is not None:
        from claude_tui.remote.hosts import remote_setup

        try:
            setup = remote_setup(args.ssh, config)
        except ValueError as error:
            print(f"claude-tui: --ssh: {error}", file=sys.stderr)
            return 2
        apply_remote_setup(options, setup, args)
        conversation, problem = _remote_history(options, args.continue_session, args.ssh)
        if problem:
            print(f"claude-tui: {problem}", file=sys.stderr)
            return 1
        if conversation is not None and args.fork and options.resume:
            from claude_tui.resume import begin_fork

            begin_fork(conversation, options.resume)
        args.continue_session = False  # resolved there (or left to the remote CLI)
    elif options.command is None:
        from claude_tui.transport.errors import ClaudeNotFoundError
        from claude_tui.transport.locate import find_claude

        try:
            options.claude_path = find_claude(options.claude_path, config.claude_path)
        except ClaudeNotFoundError as error:
            print(f"claude-tui: {error}", file=sys.stderr)
            return 1
    worktree = None
    if args.worktree is not None:
        # Last of the checks that can fail: a failed start leaves no worktree behind.
        from claude_tui.git.worktree import WorktreeError, create_worktree

        try:
            worktree = create_worktree(args.cwd, args.worktree or None)
        except WorktreeError as error:
            print(f"claude-tui: --worktree: {error}", file=sys.stderr)
            return 2
        options.cwd = str(worktree.session_dir)
        print(f"claude-tui: created worktree {worktree.path} on branch {worktree.branch}", file=sys.stderr)
    if args.demo:
        # The demo's browser lists its bundled sessions, not the user's (nor does it index theirs).
        os.environ["CLAUDE_CONFIG_DIR"] = str(demo_root)
        options.env["CLAUDE_CONFIG_DIR"] = os.environ["CLAUDE_CONFIG_DIR"]  # over a cli_env one too
    # Over ssh the sessions are the remote store's: resolved there (_remote_history), not here.
    problem = resolve_resume(args, options) if options.ssh is None else ""
    if problem:
        print(f"claude-tui: {problem}", file=sys.stderr)
        return 1
    if options.ssh is None and args.resume != "" and not options.resume:
        # Not for a resumed session: reading its transcript and drawing its history compete with the
        # CLI reading the same transcript (a 20 MB one was on screen 0.2 s later with it started early).
        start_cli_early(options)
    if options.resume and options.ssh is None:
        from claude_tui.resume import load_conversation

        conversation = load_conversation(options.resume, args.cwd, root=cli_config_root(options.env))
        if conversation is None and not args.demo:
            print(f"claude-tui: no transcript found for session {options.resume}; "
                  "Claude Code will resume it without showing earlier history.", file=sys.stderr)
        elif conversation is not None and args.fork:
            from claude_tui.resume import begin_fork

            begin_fork(conversation, options.resume)
    from claude_tui.ui.app.app import ClaudeTuiApp
    from claude_tui.ui.app.shutdown import EXIT_BUDGET, Watchdog

    app = ClaudeTuiApp(options, config, debug_log=args.debug_log, conversation=conversation,
                       open_browser=args.resume == "", worktree=worktree, first_prompt=args.prompt)
    app.watchdog = Watchdog().start()
    EARLY_SIGNALS.launching = False  # from here a signal is the app's to act on (it reads `received`)
    try:
        app.run()
    finally:
        from claude_tui.transport import early

        early.discard()  # started for a session that never began (quit at once, or the app failed)
    for line in app.resume_hint:  # after the alternate screen is left, as Claude Code prints its own
        print(line)
    # The interpreter's own exit (atexit: ending what we started) is bounded too.
    app.watchdog.arm(EXIT_BUDGET, app.return_code or 0, "exiting")
    return app.return_code or 0


def start_before_config(args: AppArgs, flags: dict[str, str | None]) -> None:
    """Start a new local session's CLI before the config is validated, from the keys that shape its
    command line (`config_peek`); `_run_app` asks again with the validated config's command line, and
    a CLI started with another is replaced (`early.spawn`). Not for what sets the command line up
    later (--demo, --worktree, --ssh, a resumed session)."""
    if args.ssh is not None or args.worktree is not None or args.demo or args.resume is not None \
            or args.continue_session:
        return
    from claude_tui.config_peek import command_settings
    from claude_tui.transport.errors import ClaudeNotFoundError
    from claude_tui.transport.locate import find_claude

    settings = command_settings(flags=flags)
    if settings is None:
        return
    options = build_options(args, settings["claude_path"], settings["cli_args"], settings["cli_env"],
                            settings["enable_todo_tools"], settings["model"], settings["permission_mode"],
                            settings["file_checkpoints"], settings["thinking_display"])
    try:
        options.claude_path = find_claude(options.claude_path, settings["claude_path"])
    except ClaudeNotFoundError:
        return  # said once the config is read, as before
    start_cli_early(options)


def start_cli_early(options: CliOptions) -> None:
    """Start the first session's CLI now, while the transcript and the app load (see transport/early.py);
    the session adopts it if it asks for the same command line, directory and environment."""
    from claude_tui.protocol.builders import session_initialize
    from claude_tui.transport import early
    from claude_tui.transport.options import local_command

    argv, env = local_command(options)
    # The handshake too: the CLI answers it as soon as it is up, while the app still loads (it took
    # 20-70 ms more once asked, after its start-up), and the session's client awaits that answer.
    early.spawn(argv, options.cwd, env, requests=[session_initialize()])


def apply_remote_setup(options: CliOptions, setup: RemoteSetup, args: AppArgs) -> None:
    """Run on ``setup``'s machine: its ssh target, its cli_env, and a ``hosts`` entry's cwd and claude
    path where the flags give none (the config's claude_path is a path on this machine)."""
    options.ssh = setup.target
    options.env.update(setup.env)
    options.claude_path = args.claude_path or setup.claude_path
    if not args.explicit_cwd and setup.cwd:
        options.cwd = setup.cwd


def _looks_like_id(text: str) -> bool:
    return bool(_UUID.match(text.strip().lower()))


def _remote_history(options: CliOptions, continue_session: bool, dest: str = "") -> tuple[Conversation | None, str]:
    """--resume NAME / --continue under --ssh: the remote store, mirrored before the app starts (nothing
    to keep responsive yet), over one connection. (history shown, a problem that stops the start).

    A name resolves as it does locally (`history/resolve.py`), against the remote store; an unknown or
    ambiguous one is a problem, worded as locally. A store that cannot be read is a warning for a full
    id or --continue (the remote CLI resumes without shown history) and a problem for any other name."""
    if not options.resume and not continue_session:
        return None, ""
    from claude_tui.history.resolve import resolve
    from claude_tui.remote.history import load_remote_conversation, newest_remote_session, remote_directory
    from claude_tui.remote.machine import SshConnectError, SshMachine, machine_for

    machine = machine_for(options)
    assert isinstance(machine, SshMachine)
    print(f"claude-tui: reading the sessions on {machine.label}…", file=sys.stderr)
    try:
        with machine.connection():
            machine.sync_sessions()
            cwd = remote_directory(machine, options.cwd or ".")
    except OSError as error:
        why = f"{error.fault.title}: {error.fault.text}" if isinstance(error, SshConnectError) else str(error)
        if options.resume and not _looks_like_id(options.resume):
            return None, f"could not read the sessions on {machine.label} to find {options.resume!r}. {why}"
        print(f"claude-tui: could not read the sessions on {machine.label} ({why}); "
              "Claude Code will resume without showing earlier history.", file=sys.stderr)
        return None, ""
    if continue_session and cwd is not None:
        session_id = newest_remote_session(machine, cwd)
        if session_id is None:
            print(f"claude-tui: no previous session in {cwd} on {machine.label}; starting a new one.",
                  file=sys.stderr)
            options.continue_session = False
            return None, ""
        options.resume, options.continue_session = session_id, False
    if not options.resume:
        return None, ""
    found = resolve(options.resume, root=machine.session_root(), cwd=cwd, index_path=machine.index_path())
    if found.found and found.session_id:
        options.resume = found.session_id
    elif not _looks_like_id(options.resume):
        return None, found.problem(f"claude-tui sessions --ssh {dest or machine.label} --all")
    conversation = load_remote_conversation(machine, options.resume, cwd)
    if conversation is None:
        print(f"claude-tui: no transcript found for session {options.resume} on {machine.label}; "
              "Claude Code will resume it without showing earlier history.", file=sys.stderr)
    return conversation, ""
