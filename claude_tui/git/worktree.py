"""A `git worktree` per session: create one on a new branch, see what removing it would lose, remove it.

Where they go: ``<parent>/<repo>-worktrees/<name>`` beside the main checkout, on branch
``worktree-<name>``. The branch prefix and the name rules are Claude Code's own (``claude
--worktree``: branch ``worktree-<slug>``, slugs of letters, digits, ``.``, ``_`` and ``-``, at most
64 characters). Its directory, ``<repo>/.claude/worktrees/``, is not used: that is Claude Code's
project config dir (which claude-tui never writes into, and which Claude Code cleans up itself), and
a worktree nested in the repository shows up in the main checkout's ``git status``, file lists and
searches, and inherits the main checkout's ``CLAUDE.md`` (Claude Code reads the parent directories').

Removal deletes only what the user was shown: :func:`inspect_worktree` lists uncommitted files
(untracked ones included), ignored ones (`git worktree remove` deletes them unasked) and commits
that are neither in the base branch nor on any remote, with a snapshot of them (``snapshot.py``).
:func:`remove_worktree` is handed that state as the consent: it
looks again right before removing and keeps the worktree when anything differs (a new or changed
file, a new commit, a moved HEAD), raising :class:`WorktreeChanged`. Commits are never lost: a
branch with commits neither in the base nor on a remote is kept, and a worktree whose detached HEAD
holds commits no branch, tag or remote has is not removed at all.

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

from claude_tui.git.snapshot import Snapshot, differences, parse_status, take

BRANCH_PREFIX = "worktree-"
MAX_NAME = 64
GIT_TIMEOUT = 30.0
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # fullmatch: `$` would let a final newline through
_ADJECTIVES = ("amber", "brisk", "calm", "deft", "eager", "fleet", "gentle", "keen", "lucid", "mellow",
               "nimble", "quiet", "rapid", "steady", "swift", "tidy", "vivid", "witty")
_NOUNS = ("badger", "comet", "falcon", "harbor", "heron", "lantern", "maple", "otter", "pebble", "quartz",
          "raven", "river", "spruce", "sparrow", "thistle", "willow", "walrus", "zephyr")


class WorktreeError(Exception):
    """Something the user can act on (the message says what): shown as it is."""


class WorktreeChanged(WorktreeError):
    """The worktree is not as the consent saw it: nothing was removed. `state` is how it is now."""

    def __init__(self, worktree: Worktree, state: WorktreeState, changes: list[str]) -> None:
        shown = "; ".join(changes[:4]) + (f" and {len(changes) - 4} more" if len(changes) > 4 else "")
        super().__init__(f"{worktree.path} changed since you were asked ({shown}): kept")
        self.state = state
        self.changes = changes


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
    """Changed, staged or untracked paths."""
    ignored: list[str] = field(default_factory=list)
    """Ignored files and directories (``build/``): not work to commit, but deleted with the worktree."""
    unmerged: list[str] = field(default_factory=list)
    """Commits neither in the base branch nor on a remote, as "abc1234 subject": they keep the branch."""
    stranded: list[str] = field(default_factory=list)
    """Commits only the worktree's (detached) HEAD reaches: no branch, tag or remote has them. Removing
    the worktree would make them unreachable, so it is refused while there are any."""
    missing: bool = False
    """The directory is gone already (removed by hand): only the branch is left, if that."""
    snapshot: Snapshot = field(default_factory=Snapshot)
    """All of the above as it was seen, for the check right before removing."""

    @property
    def loses_work(self) -> bool:
        """Whether removing discards something: only uncommitted files can be (commits are kept)."""
        return bool(self.uncommitted)

    @property
    def keeps_branch(self) -> bool:
        return bool(self.unmerged)

    def describe(self) -> str:
        """What removing would discard, for a dialog ("nothing: …" when it is nothing)."""
        n, i = len(self.uncommitted), len(self.ignored)
        ignored = f"{i} ignored file{'s' if i != 1 else ''} or folder{'s' if i != 1 else ''}"
        if self.uncommitted:
            return f"{n} uncommitted file{'s' if n != 1 else ''}" + (f" (and {ignored})" if i else "")
        return f"only {ignored}" if i else "nothing: no uncommitted files"

    def describe_commits(self) -> str:
        n = len(self.unmerged)
        return f"{n} commit{'s' if n != 1 else ''} not merged or pushed"


@dataclass(frozen=True)
class Removed:
    """What :func:`remove_worktree` did."""

    state: WorktreeState
    """The worktree as it was removed."""
    branch_kept: bool
    """The branch stays: it has commits neither in the base nor on a remote."""


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
        raise WorktreeError(f"git {' '.join(args[:2])} failed: {_git_message(done.stderr or done.stdout)}")
    return done


def _git_message(output: str) -> str:
    """git's own reason: from its last ``fatal:``/``error:`` line on, on one line (a name or path in it
    may span lines: its last line alone is half a sentence)."""
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    starts = [i for i, line in enumerate(lines) if line.startswith(("fatal:", "error:"))]
    return " ".join(lines[starts[-1] if starts else max(len(lines) - 1, 0):]) or "no message"


def validate_name(name: str) -> str | None:
    """Why `name` cannot name a worktree, or None when it can (Claude Code's slug rules, no `/`)."""
    if not name:
        return "the worktree name is empty"
    if len(name) > MAX_NAME:
        return f"the worktree name must be {MAX_NAME} characters or fewer (got {len(name)})"
    if not _SEGMENT.fullmatch(name):
        return (f"invalid worktree name {name!r}: use letters, digits, '.', '_' and '-', "
                "starting with a letter or digit")
    if name.lower().rstrip(".") == "git" or ".." in name or name.endswith((".", ".lock")):
        return f"invalid worktree name {name!r}: git does not allow it in a branch name"
    return None


def _check_branch_name(repo: Path, branch: str, git: str) -> None:
    """git's own rules for the branch (`check-ref-format`), before anything is created."""
    if _run(["check-ref-format", "--branch", branch], repo, git=git, check=False).returncode != 0:
        raise WorktreeError(f"invalid worktree name {branch.removeprefix(BRANCH_PREFIX)!r}: "
                            "git does not allow it in a branch name")


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
    _check_branch_name(repo, BRANCH_PREFIX + name, git)
    path = worktrees_dir(repo) / name
    made_parent = not path.parent.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        _run(["worktree", "add", "-b", BRANCH_PREFIX + name, str(path), base_commit], toplevel, git=git)
    except WorktreeError:
        if made_parent:
            _remove_if_empty(path.parent)
        raise
    relative = cwd.relative_to(toplevel)
    session_dir = path / relative if (path / relative).is_dir() else path
    return Worktree(path=path, branch=BRANCH_PREFIX + name, base=base, base_commit=base_commit, repo=repo,
                    session_dir=session_dir)


def _line(args: Sequence[str], cwd: Path, git: str) -> str:
    done = _run(args, cwd, git=git, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def _commits(args: Sequence[str], cwd: Path, git: str) -> list[str]:
    listing = _run(["log", "--format=%h %s", *args, "--"], cwd, git=git)
    return [line for line in listing.stdout.splitlines() if line.strip()]


def _base(worktree: Worktree, git: str) -> str:
    return f"refs/heads/{worktree.base}" if _branch_exists(worktree.repo, worktree.base, git) else worktree.base_commit


def inspect_worktree(worktree: Worktree, *, git: str = "git") -> WorktreeState:
    """What removing `worktree` (and its branch) would lose now, with a snapshot of it."""
    entries = []
    tips = []
    head = head_ref = ""
    stranded: list[str] = []
    missing = not worktree.path.is_dir()
    if not missing:
        status = _run(["status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignored=matching"],
                      worktree.path, git=git)
        entries = parse_status(status.stdout)
        head = _line(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], worktree.path, git)
        head_ref = _line(["symbolic-ref", "--quiet", "HEAD"], worktree.path, git)
        if head:
            # The worktree may have moved off its branch (another branch, a detached HEAD): its HEAD counts too.
            tips.append("HEAD")
            stranded = _commits(["HEAD", "--not", "--branches", "--tags", "--remotes"], worktree.path, git)
    branch_ref = f"refs/heads/{worktree.branch}"
    branch_tip = _line(["rev-parse", "--verify", "--quiet", f"{branch_ref}^{{commit}}"], worktree.repo, git)
    if branch_tip:
        tips.append(branch_ref)
    unmerged: list[str] = []
    if tips:
        unmerged = _commits([*tips, "--not", _base(worktree, git), "--remotes"],
                            worktree.path if not missing else worktree.repo, git)
    snapshot = take(worktree.path, entries, head=head, head_ref=head_ref, branch_tip=branch_tip, commits=unmerged)
    return WorktreeState(uncommitted=[e.path for e in entries if not e.ignored],
                         ignored=[e.path for e in entries if e.ignored], unmerged=unmerged, stranded=stranded,
                         missing=missing, snapshot=snapshot)


def remove_worktree(worktree: Worktree, consent: WorktreeState | None = None, *, git: str = "git") -> Removed:
    """Remove the worktree, and its branch unless the branch holds commits neither in the base nor on
    a remote (then it is kept: commits are never lost).

    `consent` is the state the user agreed to remove, as :func:`inspect_worktree` returned it for the
    dialog. The worktree is looked at again here, right before removing: when it differs from
    `consent` at all, :class:`WorktreeChanged` says what appeared and nothing is removed. Without a
    consent, a worktree with uncommitted files is refused (WorktreeError). A detached HEAD holding
    commits on no branch is always refused.
    """
    state = inspect_worktree(worktree, git=git)
    if state.stranded:
        n = len(state.stranded)
        raise WorktreeError(f"{worktree.path} has {n} commit{'s' if n != 1 else ''} on a detached HEAD that no branch "
                            f"holds (git branch NAME there keeps them): kept")
    if consent is None:
        if state.loses_work:
            raise WorktreeError(f"{worktree.path} has {state.describe()}: kept")
    elif changes := differences(consent.snapshot, state.snapshot):
        raise WorktreeChanged(worktree, state, changes)
    if not state.missing:
        # --force only over files the consent named; without it `git worktree remove` refuses a worktree
        # where anything uncommitted appeared after this last look: git's own check closes the gap.
        _run(["worktree", "remove", *(["--force"] if state.loses_work else []), str(worktree.path)], worktree.repo,
             git=git)
    else:
        _run(["worktree", "prune"], worktree.repo, git=git, check=False)
    branch_kept = False
    if _branch_exists(worktree.repo, worktree.branch, git):
        # Looked at after the worktree is gone: a commit made up to its removal keeps the branch too.
        if _commits([f"refs/heads/{worktree.branch}", "--not", _base(worktree, git), "--remotes"], worktree.repo, git):
            branch_kept = True
        else:
            _run(["branch", "-D", worktree.branch], worktree.repo, git=git)
    _remove_if_empty(worktree.path.parent)  # the `-worktrees` directory, once its last worktree is gone
    return Removed(state=state, branch_kept=branch_kept)


def _remove_if_empty(directory: Path) -> None:
    try:
        directory.rmdir()
    except OSError:
        pass
