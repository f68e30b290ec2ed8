"""Keys and seconds from a dialog's appearance to its answer: claude-tui vs Claude Code's own TUI.

Three dialogs of the real pinned CLI (against the e2e Messages API stand-in, offline, in tmux at
120x40): a Bash approval (`kw:bash`), an Edit approval (`kw:edit`) and a single-choice question
(`kw:ask`). Each UI gets a fresh session per case. The clock starts when the dialog is on screen;
the user's reaction is the same for both UIs (`--react`, 0.4 s: read it, press the key); after
that each further key is pressed as soon as the UI takes it (claude-tui's typeahead guard shows
"keys paused…" while it holds keys). The clock stops when the answer shows (the tool's result,
or the picked option echoed, on screen).

claude-tui's keys are the ones its key bar asks for; `--keys enter` presses Claude Code's Enter on
its permission dialogs instead of `y`. `--keys tab` is the old way (issue 27 before
the one-key rule: Tab, the guard, then the key; the question's review step too), for a tree of
that age (`--tree`, e.g. an export of an older commit, run as the UI's code).

Needs tmux, Node and the pinned CLI (`python -m tests.e2e.cli_install`), as the e2e tier does.

    python benchmarks/approvals.py [--runs 3] [--only tui|cc] [--tree DIR] [--keys one|enter|tab]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from vs_claude_code import Bench  # noqa: E402

from tests.e2e.cli_install import ensure_cli  # noqa: E402

CASES = ("bash", "edit", "ask")
PROMPTS = {"bash": "kw:bash please", "edit": "kw:edit please", "ask": "kw:ask please"}


def dialog_shown(ui: str, case: str, text: str) -> bool:
    if ui == "tui":
        return ("Allow once" in text) if case != "ask" else ("Which color?" in text and "Other…" in text)
    if case == "ask":
        return "Which color?" in text and "Blue" in text
    return "Do you want" in text


def answered(ui: str, case: str, text: str) -> bool:
    if case == "bash":
        return "hello-from-bash" in text and not dialog_shown(ui, case, text)
    if case == "edit":
        return "BETA" in text and not dialog_shown(ui, case, text)
    if ui == "cc":
        return "→ Blue" in text  # "Answered Claude's questions: · Which color? → Blue"
    return not dialog_shown(ui, case, text) and "Blue" in text


def guard_down(text: str) -> bool:
    """Moved to the dialog (its notice says so), and its guard has fallen (the key bar's "keys paused…" gone)."""
    return ("Tab back to the prompt" in text or "Send answers" in text) and "keys paused" not in text


def steps(ui: str, case: str, keys: str) -> list[str]:
    """The keys of one answer, in order ("" = wait until the UI takes keys again)."""
    if ui == "cc":
        return ["Enter"] if case != "ask" else ["2"]  # its highlighted "Yes"; a question's number
    if keys == "one":
        return ["y"] if case != "ask" else ["2"]
    if keys == "enter":  # Claude Code's own keys, which claude-tui's permission dialogs take too
        return ["Enter"] if case != "ask" else ["2"]
    # The old way: Tab, the guard, the key; a question: Tab, the guard, 2, Enter, the review's guard, Enter.
    if case == "ask":
        return ["Tab", "", "2", "Enter", "review", "Enter"]
    return ["Tab", "", "y"]


def one(bench: Bench, ui: str, case: str, run: str, react: float, keys: str, tree: Path | None) -> dict[str, float]:
    env = bench.env(ui, run)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    # Both ask before each tool (Claude Code's TUI would otherwise start in its auto mode here).
    screen, _ = bench.launch(ui, run, "--permission-mode", "default", env=env)
    try:
        (bench.project / "a.txt").write_text("alpha\nbeta\ngamma\n")
        screen.keys(PROMPTS[case], literal=True)
        screen.wait(lambda t: PROMPTS[case] in t, "the typed prompt")
        screen.keys("Enter")
        screen.wait(lambda t: dialog_shown(ui, case, t), f"the {case} dialog", 60, poll=0.005)
        start = time.perf_counter()
        time.sleep(react)
        pressed = 0
        for key in steps(ui, case, keys):
            if key == "review":  # the review step re-arms the guard as it opens
                screen.wait(lambda t: "Send answers" in t and "keys paused" not in t, "the review", 10, poll=0.005)
                continue
            if key == "":
                screen.wait(guard_down, "the guard to fall", 10, poll=0.005)
                continue
            screen.keys(key)
            pressed += 1
        screen.wait(lambda t: answered(ui, case, t), f"the {case} answer", 60, poll=0.005)
        return {"keys": pressed, "seconds": time.perf_counter() - start}
    finally:
        screen.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("tui", "cc"))
    parser.add_argument("--react", type=float, default=0.4, help="the user's reaction, the same for both UIs")
    parser.add_argument("--keys", choices=("one", "enter", "tab"), default="one", help="claude-tui's way to answer")
    parser.add_argument("--tree", type=Path, help="run claude-tui from this tree (an export of another commit)")
    ns = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is required")
    uis = [ns.only] if ns.only else ["tui", "cc"]
    with tempfile.TemporaryDirectory(prefix="approvals-bench-") as tmp:
        bench = Bench(Path(tmp), ensure_cli())
        results: dict[tuple[str, str], list[dict[str, float]]] = {}
        try:
            for run in range(ns.runs):
                for case in CASES:
                    order = uis if run % 2 == 0 else list(reversed(uis))
                    for ui in order:
                        results.setdefault((ui, case), []).append(
                            one(bench, ui, case, f"{ui}-{case}-{run}", ns.react, ns.keys, ns.tree))
        finally:
            bench.close()
    names = {"tui": f"claude-tui ({ns.keys})", "cc": "Claude Code TUI"}
    print(f"\nFrom a dialog on screen to its answer on screen; {ns.runs} runs, the user's reaction "
          f"{ns.react:.1f} s counted in both (median, range)")
    for case in CASES:
        for ui in uis:
            rows = results[(ui, case)]
            seconds = [r["seconds"] for r in rows]
            print(f"  {case:5} {names[ui]:22} keys {int(rows[0]['keys'])}   "
                  f"{statistics.median(seconds):.2f} s ({min(seconds):.2f}–{max(seconds):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
