"""claude-tui vs Claude Code's own TUI: the same pinned CLI, the same machine, what each *shows*.

Both UIs run in tmux (a private socket, 120x40) against the e2e Messages API stand-in
(`tests/e2e/mock_api.py`, offline): claude-tui drives the CLI in stream-json mode, Claude Code's
TUI is the same binary run without `-p`. The screen is read with `capture-pane` every ~10 ms.
Runs are interleaved (A B, then B A) and medians are printed with their ranges.

The answer of each turn is a 2,000-delta Markdown burst (the stand-in's `longstream` reply,
headings and code fences) framed by per-turn words: `firstNx` opens it, `lastNx` ends it. So
"first text" is Enter -> `firstNx` or any of the turn's tokens (`tNx…`) on screen, and "last token"
is Enter -> `lastNx` on screen.

Figures: launch -> prompt on screen / CLI ready; first text and last token on a fresh session;
the same over a `--turns` run (per 10 turns); RSS of the UI's own process (claude-tui's Python;
Claude Code's whole TUI) at turn 0 / half / end and of the CLI child; CPU over the run; idle CPU
per minute after it (from 25 s after the last key, over 15 s); keystroke echo after it, each key typed
as soon as the last is on screen and 120 ms after it (Textual paints on a 60 Hz grid: a key a few ms
after a frame waits for the next grid point, a key at a typist's pace does not), and, without tmux,
in a pty of the benchmark's own (tmux's own handling of a UI's output is part of the first); resume of
a generated `--resume-mb` transcript -> its last message on screen, and peak RSS.

Also printed: the stream-json floor, the CLI run with claude-tui's arguments and read by a bare
reader (prompt written -> first / last text delta read): what any front end of this mode adds the
key's way in and a frame to (Claude Code's TUI does not serialise the deltas, so it is not bound
by it).

Needs tmux, Node and the pinned CLI (`python -m tests.e2e.cli_install`), as the e2e tier does.

    python benchmarks/vs_claude_code.py [--turns 100] [--runs 3] [--resume-mb 20] [--only tui|cc]
    python benchmarks/vs_claude_code.py --launch-only [--runs 12] [--tree DIR]

claude-tui runs from its tree, compiled to bytecode first (`compileall`), as `pip install .` leaves an
installed copy: an environment with PYTHONDONTWRITEBYTECODE set (this development machine's is) would
otherwise compile every module of ours from source at each start, ~0.15 s of launch no user pays.

`--launch-only` measures launch alone: after one untimed launch of each UI (node's
files in the page cache), `--runs` rounds of launches, the UIs' order alternating, each stopped once
its CLI is ready. `--tree DIR` adds a third UI, claude-tui run from DIR (an export of another
commit: `git archive COMMIT | tar -x -C DIR`), interleaved with the others: an A/B in one sitting.
"""

from __future__ import annotations

import argparse
import compileall
import fcntl
import json
import os
import re
import select
import shlex
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from claude_tui.history.synth import turn_records, write_jsonl  # noqa: E402
from claude_tui.protocol import builders  # noqa: E402
from claude_tui.transport.options import CliOptions, build_argv  # noqa: E402
from tests.e2e import mock_api_scripts as scripts  # noqa: E402
from tests.e2e.cli_install import ensure_cli  # noqa: E402
from tests.e2e.mock_api import MockApi  # noqa: E402
from tests.e2e.offline_env import offline_env  # noqa: E402

WIDTH, HEIGHT = 120, 40
POLL = 0.01
UIS = ("tui", "cc")
NAMES = {"tui": "claude-tui", "cc": "Claude Code TUI", "tree": "claude-tui (--tree)"}


# -- the stand-in's reply for the benchmark ------------------------------------------------------
def bench_reply(view: Any) -> Any:
    """`kw:bench N`: the 2,000-delta burst framed by this turn's words, its tokens this turn's own
    (`tNx0 tNx1 ...`: whichever of them is on screen first is the first text, although the
    answer's first word may have scrolled away before the first paint)."""
    turn = view.prompt.split()[-1]
    tokens = (chunk.replace("token", f"t{turn}x") for chunk in scripts.longstream_text())
    chunks = [f"first{turn}x opens this answer.\n\n", *tokens, f" last{turn}x\n"]
    return scripts.Reply([{"type": "text", "text": "", "chunks": chunks}])


# -- processes -----------------------------------------------------------------------------------
def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a live process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks


def tree(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(stat[0], []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(children.get(current, []))
    return out


def cpu(pids: list[int]) -> float:
    return sum(stat[1] for pid in pids if (stat := _stat(pid)) is not None)


def memory(pid: int, field: str = "VmRSS") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


# -- tmux ------------------------------------------------------------------------------------------
class Screen:
    """One UI in its own tmux session."""

    def __init__(self, socket: Path, name: str) -> None:
        self.socket, self.name = socket, name

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, timeout=20)

    def start(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        script = self.socket.parent / f"run-{self.name}.sh"
        lines = ["#!/bin/sh", f"cd {shlex.quote(str(cwd))} || exit 1"]
        lines += [f"export {key}={shlex.quote(value)}" for key, value in sorted(env.items()) if key.isidentifier()]
        lines.append(f"exec {shlex.join(argv)}")
        script.write_text("\n".join(lines) + "\n")
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", self.name, "-x", str(WIDTH), "-y", str(HEIGHT),
                  f"exec env -i /bin/sh {shlex.quote(str(script))}")

    def pid(self) -> int:
        return int(self.tmux("display", "-p", "-t", self.name, "#{pane_pid}").stdout.strip())

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name).stdout

    def wait(self, predicate: Callable[[str], bool], what: str, timeout: float = 60, poll: float = POLL) -> float:
        """Seconds until the screen satisfies `predicate` (polled every `poll`)."""
        start = time.perf_counter()
        text = ""
        while time.perf_counter() - start < timeout:
            text = self.text()
            if predicate(text):
                return time.perf_counter() - start
            time.sleep(poll)
        raise SystemExit(f"{self.name}: timed out waiting for {what}; screen:\n{text}")

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.tmux("send-keys", "-t", self.name, *(["-l"] if literal else []), *keys)

    def stop(self) -> None:
        """Close the terminal, and make sure the UI went with it (no process outlives the benchmark)."""
        try:
            pid = self.pid()
        except ValueError:
            pid = None
        self.tmux("kill-session", "-t", self.name)
        if pid is None:
            return
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    return
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                if _stat(pid) is None:
                    return
                time.sleep(0.05)
            if sig is None:
                print(f"{self.name}: still running 5 s after its terminal closed; terminating it", file=sys.stderr)


# -- the two UIs ---------------------------------------------------------------------------------
class Bench:
    def __init__(self, root: Path, cli: Path, tree: Path | None = None) -> None:
        self.root, self.cli, self.tree = root, cli, tree
        self.project = root / "project"
        self.project.mkdir(parents=True, exist_ok=True)
        scripts.SCRIPTS["bench"] = bench_reply
        self.api = MockApi(project_dir=str(self.project)).start()
        self.socket = root / "tmux.sock"

    def env(self, ui: str, run: str) -> dict[str, str]:
        """A fresh offline home per run, set up so the interactive TUI starts straight at its prompt."""
        base = self.root / run
        env = offline_env(self.api.url, base)
        env["TERM"] = "xterm-256color"
        config = Path(env["CLAUDE_CONFIG_DIR"])
        config.mkdir(parents=True, exist_ok=True)
        key = env["ANTHROPIC_API_KEY"]
        state = {"hasCompletedOnboarding": True, "lastOnboardingVersion": "2.1.330", "theme": "dark",
                 "numStartups": 5, "autoUpdates": False,
                 "customApiKeyResponses": {"approved": [key[-20:]], "rejected": []},
                 "projects": {str(self.project): {"hasTrustDialogAccepted": True,
                                                  "hasCompletedProjectOnboarding": True,
                                                  "allowedTools": [], "projectOnboardingSeenCount": 1}}}
        for path in (Path(env["HOME"]) / ".claude.json", config / ".claude.json"):
            path.write_text(json.dumps(state))
        for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                         ("XDG_STATE_HOME", "state")):
            env[var] = str(base / sub)  # claude-tui's own stores
        env["PYTHONPATH"] = str(self.tree if ui == "tree" and self.tree else ROOT)
        return env

    def argv(self, ui: str, *extra: str) -> list[str]:
        if ui in ("tui", "tree"):
            return [sys.executable, "-m", "claude_tui.cli", "--claude-path", str(self.cli), "--cwd", str(self.project),
                    *extra]
        return [str(self.cli), *extra]

    @staticmethod
    def prompt_shown(ui: str, text: str) -> bool:
        if ui != "cc":
            return "Sessions" in text  # the footer: the chat screen is painted
        return "❯" in text

    @staticmethod
    def cli_ready(ui: str, text: str) -> bool:
        if ui != "cc":
            return "idle" in text  # the status bar, once the CLI answered initialize
        return "❯" in text  # the TUI is the CLI

    def launch(self, ui: str, run: str, *extra: str, env: dict[str, str] | None = None) -> tuple[Screen, dict]:
        screen = Screen(self.socket, f"{ui}-{run}")
        began = time.perf_counter()
        screen.start(self.argv(ui, *extra), env or self.env(ui, run), self.project)
        screen.wait(lambda t: self.prompt_shown(ui, t), "the prompt")
        shown = time.perf_counter() - began
        screen.wait(lambda t: self.cli_ready(ui, t), "the CLI ready")
        return screen, {"launch_prompt_s": shown, "launch_ready_s": time.perf_counter() - began}

    def turn(self, screen: Screen, turn: int) -> dict[str, float]:
        screen.keys(f"kw:bench {turn}", literal=True)
        screen.wait(lambda t: f"kw:bench {turn}" in t, "the typed prompt")
        first, last = f"first{turn}x", f"last{turn}x"
        start = time.perf_counter()
        screen.keys("Enter")
        seen_first = None
        while True:
            text = screen.text()
            now = time.perf_counter() - start
            if seen_first is None and (first in text or last in text or re.search(rf"\bt{turn}x\d", text)):
                seen_first = now
            if last in text:
                return {"first_s": seen_first, "last_s": now}
            if now > 120:
                raise SystemExit(f"{screen.name}: turn {turn} never ended on screen:\n{text}")
            time.sleep(POLL)

    def settle(self, screen: Screen, ui: str) -> None:
        """Until the turn is over (the UI shows it idle)."""
        if ui == "tui":
            screen.wait(lambda t: "idle" in "".join(t.rstrip().splitlines()[-3:]), "idle", 60)
        else:
            screen.wait(lambda t: "esc to interrupt" not in t, "idle", 60)
        time.sleep(0.2)

    def echo_ms(self, screen: Screen, pause: float = 0.0) -> float:
        """Median key -> on screen of 6 keys typed after an untimed prefix: the text searched for
        (prefix and keys so far) is on no screen before it is typed (a lone "x" could be). Each key is
        typed as soon as the last is on screen (`pause` 0: a few ms after its frame, faster than anyone
        types) or `pause` seconds after it (a typist's pace)."""
        prefix, samples = "kq", []
        screen.keys(prefix, literal=True)
        screen.wait(lambda t: prefix in t, "the prefix", 10)
        typed = prefix
        for char in "xyzwvu":
            typed += char
            start = time.perf_counter()
            screen.keys(char, literal=True)
            screen.wait(lambda t, s=typed: s in t, "the keystroke", 10, poll=0.001)
            samples.append((time.perf_counter() - start) * 1000)
            time.sleep(pause)
        for _ in typed:
            screen.keys("BSpace")
        return statistics.median(samples)

    def ui_pids(self, screen: Screen, ui: str) -> tuple[int, list[int]]:
        """(the UI's own process, every process of the UI including the CLI)."""
        pid = screen.pid()
        return pid, tree(pid)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", str(self.socket), "kill-server"], capture_output=True)
        self.api.stop()


# -- the figures -----------------------------------------------------------------------------------
def fresh_runs(bench: Bench, uis: list[str], runs: int) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {ui: [] for ui in uis}
    for run in range(runs):
        order = uis if run % 2 == 0 else list(reversed(uis))
        for ui in order:
            screen, figures = bench.launch(ui, f"fresh{run}")
            figures.update(bench.turn(screen, 1))
            screen.stop()
            out[ui].append(figures)
    return out


def launch_runs(bench: Bench, uis: list[str], runs: int) -> dict[str, list[dict]]:
    """Launch alone: one untimed launch of each UI, then `runs` rounds, the order alternating."""
    for ui in uis:
        bench.launch(ui, f"warm-{ui}")[0].stop()
    out: dict[str, list[dict]] = {ui: [] for ui in uis}
    for run in range(runs):
        for ui in uis if run % 2 == 0 else list(reversed(uis)):
            screen, figures = bench.launch(ui, f"launch{run}")
            # CPU by the time the CLI was ready (read just after): the wall times move with the machine's
            # load, the work done to get there much less.
            own, everything = bench.ui_pids(screen, ui)
            figures["launch_own_cpu_s"], figures["launch_cpu_s"] = cpu([own]), cpu(everything)
            screen.stop()
            out[ui].append(figures)
            print(f"{run:2d} {ui:5s} prompt {figures['launch_prompt_s']:.3f} s, CLI ready "
                  f"{figures['launch_ready_s']:.3f} s, CPU {figures['launch_own_cpu_s']:.2f} s own, "
                  f"{figures['launch_cpu_s']:.2f} s with the CLI, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return out


def pty_echo(bench: Bench, ui: str, run: str, keys: str = "abcdefghij") -> dict[str, float]:
    """Keystroke echo without tmux: the UI in a pty of its own, each key written to it and timed until
    the output carries the character back (median), and the bytes the UI wrote for it (median)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
    proc = subprocess.Popen(bench.argv(ui), stdin=slave, stdout=slave, stderr=slave, env=bench.env(ui, run),
                            cwd=bench.project, start_new_session=True)
    os.close(slave)

    def drain(quiet: float, limit: float) -> bytes:
        """Output until `quiet` s pass without any (at most `limit` s)."""
        out, end = b"", time.monotonic() + limit
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], quiet)
            if not ready:
                break
            try:
                out += os.read(master, 65536)
            except OSError:
                break
        return out

    try:
        drain(2.0, 30)  # started and idle (its CLI ready, its cursor blinking at most)
        times, sizes = [], []
        for char in keys:
            start, got = time.perf_counter(), b""
            os.write(master, char.encode())
            while char.encode() not in got and time.perf_counter() - start < 5:
                if select.select([master], [], [], 1)[0]:
                    got += os.read(master, 65536)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(got + drain(0.15, 1)))
        return {"echo_ms": statistics.median(times), "echo_bytes": statistics.median(sizes)}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
        os.close(master)


def floor_run(bench: Bench, turns: int = 11) -> dict[str, float]:
    """The floor of any stream-json front end: the CLI run with claude-tui's arguments, read by a bare
    reader that does nothing else, prompt written -> first / last text delta read (medians of the
    turns after the first, as in the session run). A UI adds the key's way in and a frame."""
    env = bench.env("tui", "floor")
    argv = build_argv(CliOptions(cwd=str(bench.project)), str(bench.cli))
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env, cwd=bench.project, start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None
    firsts, lasts = [], []
    try:
        for turn in range(1, turns + 1):
            start, first = time.perf_counter(), None
            proc.stdin.write((json.dumps(builders.user_message(f"kw:bench {turn}")) + "\n").encode())
            proc.stdin.flush()
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise SystemExit("the CLI ended during the floor run")
                if first is None and b"text_delta" in line:
                    first = time.perf_counter() - start
                if b"text_delta" in line and f"last{turn}x".encode() in line:
                    last = time.perf_counter() - start
                if b'"type":"result"' in line and not line.startswith(b'{"type":"stream_event"'):
                    break  # the turn's result (its keys come in no fixed order)
            if turn > 1:
                firsts.append(first or last)
                lasts.append(last)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    return {"first_s": statistics.median(firsts), "last_s": statistics.median(lasts)}


def session_run(bench: Bench, ui: str, turns: int) -> dict[str, Any]:
    screen, _ = bench.launch(ui, "long")
    own, _ = bench.ui_pids(screen, ui)
    rows, rss = [], {0: memory(own)}
    child_rss = {}
    cpu0, own0 = cpu(tree(own)), cpu([own])
    for turn in range(1, turns + 1):
        rows.append(bench.turn(screen, turn))
        bench.settle(screen, ui)
        if turn in (turns // 2, turns):
            rss[turn] = memory(own)
            child_rss[turn] = sum(memory(pid) for pid in tree(own)[1:])
    pids = tree(own)
    run_cpu, own_cpu = cpu(pids) - cpu0, cpu([own]) - own0
    echo = bench.echo_ms(screen)
    echo_paced = bench.echo_ms(screen, pause=0.12)
    time.sleep(25)  # idle: past the prompt's blinking after a key (10-20 s, `quiet_cursor.py`)
    idle0 = cpu(pids)
    time.sleep(15)
    idle = (cpu(pids) - idle0) * 4
    screen.stop()
    return {"rows": rows, "rss": rss, "child_rss": child_rss, "cpu_s": run_cpu, "own_cpu_s": own_cpu,
            "idle_cpu_per_min": idle,
            "echo_ms": echo, "echo_paced_ms": echo_paced}


def make_transcript(bench: Bench, megabytes: float) -> tuple[str, Path]:
    """A resumable transcript of about `megabytes` MB for the project, ending with a marker."""
    sid = str(uuid.uuid4())
    records: list[dict] = []
    parent = None
    answer = "".join(scripts.longstream_text(400))
    size, turn = 0, 0
    while size < megabytes * 1_000_000:
        text = answer if size + 10_000 < megabytes * 1_000_000 else answer + "\n\nresumedendx"
        turn_recs = turn_records(sid, parent, f"question {turn}", text, tool="Edit" if turn % 3 == 0 else None,
                                 file_path=f"{bench.project}/f{turn}.py")
        for record in turn_recs:
            record["cwd"] = str(bench.project)
        records.extend(turn_recs)
        parent = turn_recs[-1]["uuid"]
        size += sum(len(json.dumps(r)) + 1 for r in turn_recs)
        turn += 1
    encoded = "".join(c if c.isalnum() else "-" for c in str(bench.project))
    return sid, write_jsonl(bench.root / "transcript" / encoded / f"{sid}.jsonl", records)


def resume_runs(bench: Bench, uis: list[str], runs: int, megabytes: float) -> dict[str, list[dict]]:
    sid, path = make_transcript(bench, megabytes)
    messages = sum(1 for _ in path.open())
    out: dict[str, list[dict]] = {ui: [] for ui in uis}
    for run in range(runs):
        order = uis if run % 2 == 0 else list(reversed(uis))
        for ui in order:
            env = bench.env(ui, f"resume{run}-{ui}")
            target = Path(env["CLAUDE_CONFIG_DIR"]) / "projects" / path.parent.name
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target / path.name)
            screen = Screen(bench.socket, f"{ui}-resume{run}")
            began = time.perf_counter()
            screen.start(bench.argv(ui, "--resume", sid), env, bench.project)
            peak = 0.0
            pid = None
            while True:
                text = screen.text()
                if pid is None:
                    try:
                        pid = screen.pid()
                    except ValueError:
                        pass
                if pid is not None:
                    peak = max(peak, memory(pid, "VmHWM"))
                if "resumedendx" in text:
                    break
                if time.perf_counter() - began > 120:
                    raise SystemExit(f"{ui}: the resumed history never showed its end:\n{text}")
                time.sleep(POLL)
            shown = time.perf_counter() - began
            time.sleep(1)
            if pid is not None:
                peak = max(peak, memory(pid, "VmHWM"))
            screen.stop()
            out[ui].append({"shown_s": shown, "peak_mb": peak, "mb": path.stat().st_size / 1e6, "lines": messages})
    return out


# -- printing ----------------------------------------------------------------------------------------
def med(values: list[float]) -> str:
    values = [v for v in values if v == v]
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.3f}"
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def ratio(a: list[float], b: list[float]) -> str:
    if not a or not b:
        return "-"
    return f"{statistics.median(a) / statistics.median(b):.2f}x"


def row(label: str, values: dict[str, list[float]], unit: str = "s") -> None:
    tui, cc = values.get("tui", []), values.get("cc", [])
    print(f"| {label} | {med(tui)} {unit} | {med(cc)} {unit} | {ratio(tui, cc)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=100, help="turns of the long run (default 100)")
    parser.add_argument("--runs", type=int, default=3, help="interleaved fresh-session and resume runs (default 3)")
    parser.add_argument("--resume-mb", type=float, default=20, help="size of the resumed transcript (0: skip)")
    parser.add_argument("--only", choices=UIS, help="run one UI only")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument("--launch-only", action="store_true", help="launch -> prompt / CLI ready only")
    parser.add_argument("--tree", type=Path, help="with --launch-only: also claude-tui from this tree (A/B)")
    ns = parser.parse_args()
    if ns.tree and not ns.launch_only:
        parser.error("--tree goes with --launch-only")
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is required")
    uis = [ns.only] if ns.only else list(UIS)
    for tree in [ROOT] + ([ns.tree.resolve()] if ns.tree else []):
        if not compileall.compile_dir(tree / "claude_tui", quiet=1):  # as `pip install .` does
            raise SystemExit(f"{tree}: claude_tui does not compile")
    root = Path(tempfile.mkdtemp(prefix="vs-cc-"))
    bench = Bench(root, ensure_cli(), ns.tree.resolve() if ns.tree else None)
    results: dict[str, Any] = {}
    if ns.launch_only:
        return launch_only(bench, root, uis + (["tree"] if ns.tree else []), ns)
    try:
        results["fresh"] = fresh_runs(bench, uis, ns.runs)
        results["pty"] = {ui: [] for ui in uis}
        for run in range(ns.runs):
            for ui in uis if run % 2 == 0 else list(reversed(uis)):
                results["pty"][ui].append(pty_echo(bench, ui, f"pty{run}"))
        results["session"] = {ui: session_run(bench, ui, ns.turns) for ui in uis}
        results["floor"] = floor_run(bench)
        if ns.resume_mb:
            results["resume"] = resume_runs(bench, uis, ns.runs, ns.resume_mb)
    finally:
        bench.close()
        if not os.environ.get("VS_CC_KEEP"):
            shutil.rmtree(root, ignore_errors=True)
    if ns.json:
        ns.json.write_text(json.dumps(results, indent=1))
    fresh, session = results["fresh"], results["session"]
    print(f"\nclaude-tui vs Claude Code's TUI, CLI 2.1.330, {WIDTH}x{HEIGHT} tmux, {ns.runs} interleaved runs, "
          f"{ns.turns}-turn session, {time.strftime('%Y-%m-%d')}; medians (ranges)\n")
    print("| figure | claude-tui | Claude Code TUI | ratio |\n|---|---|---|---|")
    pick = lambda data, key: {ui: [r[key] for r in data[ui]] for ui in data}  # noqa: E731
    row("launch → prompt on screen", pick(fresh, "launch_prompt_s"))
    row("launch → CLI ready", pick(fresh, "launch_ready_s"))
    row("Enter → first answer text, fresh", pick(fresh, "first_s"))
    row("Enter → last token of the burst, fresh", pick(fresh, "last_s"))
    turns = ns.turns
    blocks = [(1, min(10, turns))] + [(b, min(b + 9, turns)) for b in range(11, turns + 1, 10)]
    for key, label in (("first_s", "first text"), ("last_s", "last token")):
        for lo, hi in blocks:
            row(f"{label}, turns {lo}-{hi}", {ui: [r[key] for r in session[ui]["rows"][lo - 1:hi]] for ui in session})
    for ui in session:
        rss, child = session[ui]["rss"], session[ui]["child_rss"]
        print(f"| RSS of {NAMES[ui]}'s process at turn " + " / ".join(str(t) for t in rss) + " | "
              + " / ".join(f"{v:.0f}" for v in rss.values()) + " MB | CLI child at " + " / ".join(str(t) for t in child)
              + ": " + " / ".join(f"{v:.0f}" for v in child.values()) + " MB | |")
    floor = results["floor"]
    print(f"| the stream-json floor (no UI: the CLI with claude-tui's arguments, a bare reader), prompt → first "
          f"/ last delta read | {floor['first_s']:.3f} / {floor['last_s']:.3f} s | — | |")
    row(f"CPU over the {turns} turns (UI + CLI)", {ui: [session[ui]["cpu_s"]] for ui in session})
    row(f"CPU over the {turns} turns, the UI's own process (claude-tui's Python; Claude Code's whole TUI)",
        {ui: [session[ui]["own_cpu_s"]] for ui in session})
    row("idle CPU per minute after the run", {ui: [session[ui]["idle_cpu_per_min"]] for ui in session})
    row(f"keystroke echo after {turns} turns, keys back to back", {ui: [session[ui]["echo_ms"]] for ui in session},
        "ms")
    row(f"keystroke echo after {turns} turns, keys 120 ms apart",
        {ui: [session[ui]["echo_paced_ms"]] for ui in session}, "ms")
    row("keystroke echo in a pty of its own (no tmux), fresh", pick(results["pty"], "echo_ms"), "ms")
    row("bytes written to the terminal per keystroke", pick(results["pty"], "echo_bytes"), "B")
    if "resume" in results:
        resume = results["resume"]
        any_ui = next(iter(resume))
        label = f"resume {resume[any_ui][0]['mb']:.1f} MB ({resume[any_ui][0]['lines']:,} lines)"
        row(f"{label} → end on screen", pick(resume, "shown_s"))
        row(f"{label}: peak RSS of the UI's process", pick(resume, "peak_mb"), "MB")
    return 0


def launch_only(bench: Bench, root: Path, uis: list[str], ns: argparse.Namespace) -> int:
    load = os.getloadavg()
    try:
        fresh = launch_runs(bench, uis, ns.runs)
    finally:
        bench.close()
        if not os.environ.get("VS_CC_KEEP"):
            shutil.rmtree(root, ignore_errors=True)
    if ns.json:
        ns.json.write_text(json.dumps({"launch": fresh}, indent=1))
    print(f"\nlaunch only, CLI 2.1.330, {WIDTH}x{HEIGHT} tmux, {ns.runs} alternating rounds, "
          f"{time.strftime('%Y-%m-%d %H:%M')}, load {load[0]:.2f} -> {os.getloadavg()[0]:.2f}; medians (ranges)\n")
    print("| figure | claude-tui | Claude Code TUI | ratio |\n|---|---|---|---|")
    for key, label in (("launch_prompt_s", "launch → prompt on screen"), ("launch_ready_s", "launch → CLI ready"),
                       ("launch_own_cpu_s", "CPU of the UI's own process by then (claude-tui's Python)"),
                       ("launch_cpu_s", "CPU of the UI and the CLI by then")):
        row(label, {ui: [r[key] for r in fresh[ui]] for ui in fresh})
        if "tree" in fresh:
            row(f"{label}, --tree {ns.tree}", {"tui": [r[key] for r in fresh["tree"]],
                                                "cc": [r[key] for r in fresh.get("cc", [])]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
