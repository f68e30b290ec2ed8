"""A `git worktree` per session: create one on a new branch, see what removing it would lose, remove it.

Where they go: ``<parent>/<repo>-worktrees/<name>`` beside the main checkout, on branch
``worktree-<name>``. The branch prefix and the name rules are Claude Code's own (``claude
--worktree``: branch ``worktree-<slug>``, slugs of letters, digits, ``.``, ``_`` and ``-``, at most
64 characters). Its directory, ``<repo>/.claude/worktrees/``, is not used: that is Claude Code's
project config dir (which claude-tui never writes into, and which Claude Code cleans up itself), and
a worktree nested in the repository shows up in the main checkout's ``git status``, file lists and
searches, and inherits the main checkout's ``CLAUDE.md`` (Claude Code reads the parent directories').

Removal never loses work silently: :func:`inspect_worktree` lists uncommitted files (untracked ones
included) and commits that are neither in the base branch nor on any remote; :func:`remove_worktree`
refuses while there are any unless ``discard=True``, and checks again right before it removes.

Everything here blocks on `git` (bounded by a timeout): call it from a thread in the UI.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

BRANCH_PREFIX = "worktree-"
MAX_NAME = 64
GIT_TIMEOUT = 30.0
_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_ADJECTIVES = ("amber", "brisk", "calm", "deft", "eager", "fleet", "gentle", "keen", "lucid", "mellow",
               "nimble", "quiet", "rapid", "steady", "swift", "tidy", "vivid", "witty")
_NOUNS = ("badger", "comet", "falcon", "harbor", "heron", "lantern", "maple", "otter", "pebble", "quartz",
          "raven", "river", "spruce", "sparrow", "thistle", "willow", "walrus", "zephyr")


class WorktreeError(Exception):
    """Something the user can act on (the message says what): shown as it is."""


@dataclass(frozen=True)
class Worktree:
    """A worktree claude-tui created (for one session)."""

    path: Path
    """The worktree's top directory."""
    branch: str
    """Its branch, ``worktree-<name>``."""
    base: str
    """The branch it started from: commits in it count as kept."""
    base_commit: str
    """Where the branch started (used when ``base`` no longer exists)."""
    repo: Path
    """The main checkout (git commands that manage worktrees run there)."""
    session_dir: Path
    """Where the session runs: the same subdirectory of the worktree as the one it was started from."""

    @property
    def name(self) -> str:
        return self.path.name

    def contains(self, directory: str | Path) -> bool:
        try:
            return Path(directory).resolve().is_relative_to(self.path.resolve())
        except OSError:
            return False


@dataclass(frozen=True)
class WorktreeState:
    """What removing a worktree would lose."""

    uncommitted: list[str] = field(default_factory=list)
    """Changed, staged or untracked paths (ignored files do not count)."""
    unmerged: list[str] = field(default_factory=list)
    """Commits neither in the base branch nor on a remote, as "abc1234 subject"."""
    missing: bool = False
    """The directory is gone already (removed by hand): only the branch is left, if that."""

    @property
    def loses_work(self) -> bool:
        return bool(self.uncommitted or self.unmerged)

    def describe(self) -> str:
        """One line for a dialog: what would be lost, or that nothing would."""
        parts = []
        if self.uncommitted:
            n = len(self.uncommitted)
            parts.append(f"{n} uncommitted file{'s' if n != 1 else ''}")
        if self.unmerged:
            n = len(self.unmerged)
            parts.append(f"{n} commit{'s' if n != 1 else ''} not merged or pushed")
        return " and ".join(parts) if parts else "nothing: no uncommitted files, every commit is merged"


def _run(args: Sequence[str], cwd: Path, *, git: str = "git", check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"}
    try:
        done = subprocess.run([git, "-C", str(cwd), *args], capture_output=True, text=True, env=env,
                              timeout=GIT_TIMEOUT, stdin=subprocess.DEVNULL)
    except FileNotFoundError as error:
        raise WorktreeError(f"git is not installed (or not on PATH): {error.filename or git}") from None
    except subprocess.TimeoutExpired:
        raise WorktreeError(f"git {args[0]} took longer than {GIT_TIMEOUT:.0f} s in {cwd}") from None
    if check and done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise WorktreeError(f"git {' '.join(args[:2])} failed: {detail[-1] if detail else done.returncode}")
    return done


def validate_name(name: str) -> str | None:
    """Why `name` cannot name a worktree, or None when it can (Claude Code's slug rules, no `/`)."""
    if not name:
        return "the worktree name is empty"
    if len(name) > MAX_NAME:
        return f"the worktree name must be {MAX_NAME} characters or fewer (got {len(name)})"
    if not _SEGMENT.match(name):
        return (f"invalid worktree name {name!r}: use letters, digits, '.', '_' and '-', "
                "starting with a letter or digit")
    if name.lower().rstrip(".") == "git" or ".." in name or name.endswith((".", ".lock")):
        return f"invalid worktree name {name!r}: git does not allow it in a branch name"
    return None


def _branch_exists(repo: Path, branch: str, git: str) -> bool:
    return _run(["show-ref", "--verify", "--quiet", f"refs/heads/{branch}"], repo, git=git, check=False).returncode == 0


def worktrees_dir(repo: Path) -> Path:
    """Where the worktrees of the main checkout `repo` go: a sibling directory."""
    return repo.parent / f"{repo.name}-worktrees"


def _main_checkout(toplevel: Path, git: str) -> Path:
    """The main worktree (the first `git worktree list` names), so worktrees made from a worktree land
    beside the repository too, not in a nest of `-worktrees` directories."""
    listing = _run(["worktree", "list", "--porcelain"], toplevel, git=git).stdout
    for line in listing.splitlines():
        if line.startswith("worktree "):
            first = Path(line[len("worktree "):])
            return toplevel if "\nbare" in listing.split("\n\n", 1)[0] else first
    return toplevel


def _taken(repo: Path, name: str, git: str) -> bool:
    return (worktrees_dir(repo) / name).exists() or _branch_exists(repo, BRANCH_PREFIX + name, git)


def generate_name(repo: Path, *, git: str = "git", rng: random.Random | None = None) -> str:
    """A free name like ``swift-otter``: neither its directory nor its branch exists."""
    rng = rng or random.Random()
    for _ in range(20):
        name = f"{rng.choice(_ADJECTIVES)}-{rng.choice(_NOUNS)}"
        if not _taken(repo, name, git):
            return name
    base = f"{rng.choice(_ADJECTIVES)}-{rng.choice(_NOUNS)}"
    for number in range(2, 1000):
        if not _taken(repo, f"{base}-{number}", git):
            return f"{base}-{number}"
    raise WorktreeError(f"no free worktree name left in {worktrees_dir(repo)}")


def create_worktree(cwd: Path, name: str | None = None, *, git: str = "git") -> Worktree:
    """A new worktree of the repository `cwd` is in, on branch ``worktree-<name>`` from its HEAD.

    Uncommitted changes in `cwd` stay where they are (the worktree starts from the last commit).
    Raises :class:`WorktreeError` when git is missing, `cwd` is not in a repository, HEAD is detached
    or has no commit yet, or the name is invalid or taken (nothing is ever overwritten).
    """
    if name is not None and (problem := validate_name(name)):
        raise WorktreeError(problem)
    cwd = cwd.resolve()
    probe = _run(["rev-parse", "--show-toplevel"], cwd, git=git, check=False)
    if probe.returncode != 0:
        raise WorktreeError(f"{cwd} is not in a git repository: a worktree needs one")
    toplevel = Path(probe.stdout.strip()).resolve()
    branch = _run(["symbolic-ref", "--quiet", "--short", "HEAD"], toplevel, git=git, check=False)
    if branch.returncode != 0:
        raise WorktreeError("HEAD is detached: check out a branch first (the worktree's branch starts from it, "
                            "and is compared with it when you close the session)")
    base = branch.stdout.strip()
    head = _run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], toplevel, git=git, check=False)
    if head.returncode != 0:
        raise WorktreeError(f"branch {base} has no commit yet: commit something first")
    base_commit = head.stdout.strip()
    repo = _main_checkout(toplevel, git).resolve()
    if name is None:
        name = generate_name(repo, git=git)
    elif (worktrees_dir(repo) / name).exists():
        raise WorktreeError(f"{worktrees_dir(repo) / name} already exists: pick another name")
    elif _branch_exists(repo, BRANCH_PREFIX + name, git):
        raise WorktreeError(f"branch {BRANCH_PREFIX + name} already exists: pick another name")
    path = worktrees_dir(repo) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    _run(["worktree", "add", "-b", BRANCH_PREFIX + name, str(path), base_commit], toplevel, git=git)
    relative = cwd.relative_to(toplevel)
    session_dir = path / relative if (path / relative).is_dir() else path
    return Worktree(path=path, branch=BRANCH_PREFIX + name, base=base, base_commit=base_commit, repo=repo,
                    session_dir=session_dir)


def inspect_worktree(worktree: Worktree, *, git: str = "git") -> WorktreeState:
    """What removing `worktree` (and its branch) would lose now."""
    uncommitted: list[str] = []
    tips = []
    missing = not worktree.path.is_dir()
    if not missing:
        status = _run(["status", "--porcelain=v1", "-z", "--untracked-files=all"], worktree.path, git=git)
        entries = iter(status.stdout.split("\0"))
        for entry in entries:
            if len(entry) > 3:
                uncommitted.append(entry[3:])
                if entry[0] in "RC":
                    next(entries, None)  # a rename's second field: its old path
        # The worktree may have moved off its branch (another branch, a detached HEAD): its HEAD counts too.
        tips.append("HEAD")
    if _branch_exists(worktree.repo, worktree.branch, git):
        tips.append(f"refs/heads/{worktree.branch}")
    unmerged: list[str] = []
    if tips:
        base = f"refs/heads/{worktree.base}" if _branch_exists(worktree.repo, worktree.base, git) \
            else worktree.base_commit
        where = worktree.path if not missing else worktree.repo
        listing = _run(["log", "--format=%h %s", *tips, "--not", base, "--remotes", "--"], where, git=git)
        unmerged = [line for line in listing.stdout.splitlines() if line.strip()]
    return WorktreeState(uncommitted=uncommitted, unmerged=unmerged, missing=missing)


def remove_worktree(worktree: Worktree, *, discard: bool = False, git: str = "git") -> WorktreeState:
    """Remove the worktree and its branch. Without `discard`, refuses (WorktreeError) when that would lose
    uncommitted files or unmerged commits; the check runs here, right before removing, so work done since
    a dialog looked is never lost unasked. Returns the state it removed."""
    state = inspect_worktree(worktree, git=git)
    if state.loses_work and not discard:
        raise WorktreeError(f"{worktree.path} has {state.describe()}: kept")
    if not state.missing:
        # `git worktree remove` without --force refuses a dirty worktree itself: a second safety net.
        _run(["worktree", "remove", *(["--force"] if discard else []), str(worktree.path)], worktree.repo, git=git)
    else:
        _run(["worktree", "prune"], worktree.repo, git=git, check=False)
    if _branch_exists(worktree.repo, worktree.branch, git):
        _run(["branch", "-D", worktree.branch], worktree.repo, git=git)
    try:
        worktree.path.parent.rmdir()  # the `-worktrees` directory, once its last worktree is gone
    except OSError:
        pass
    return state
