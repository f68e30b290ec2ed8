"""claude_tui.git.worktree against real temporary git repositories."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from claude_tui.git.worktree import (
    BRANCH_PREFIX,
    WorktreeError,
    create_worktree,
    generate_name,
    inspect_worktree,
    remove_worktree,
    validate_name,
    worktrees_dir,
)


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True,
                          env=env).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("alpha\n")
    (root / "sub").mkdir()
    (root / "sub" / "b.txt").write_text("beta\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    return root


def branches(repo: Path) -> set[str]:
    return set(git(repo, "branch", "--format=%(refname:short)").split())


def test_create_beside_the_repository_on_a_new_branch(repo: Path) -> None:
    (repo / "a.txt").write_text("dirty\n")  # uncommitted work in the main checkout does not matter
    wt = create_worktree(repo, "fix-login")
    assert wt.path == repo.parent / "app-worktrees" / "fix-login"
    assert wt.branch == "worktree-fix-login" and wt.branch in branches(repo)
    assert wt.base == "main" and wt.repo == repo.resolve() and wt.session_dir == wt.path
    assert (wt.path / "a.txt").read_text() == "alpha\n"  # from the last commit, not the dirty file
    assert git(wt.path, "rev-parse", "--abbrev-ref", "HEAD").strip() == "worktree-fix-login"
    assert wt.contains(wt.path / "a.txt") and not wt.contains(repo)


def test_a_subdirectory_session_runs_in_the_same_subdirectory(repo: Path) -> None:
    wt = create_worktree(repo / "sub")
    assert wt.session_dir == wt.path / "sub"


def test_from_a_worktree_the_new_one_still_goes_beside_the_main_checkout(repo: Path) -> None:
    first = create_worktree(repo, "one")
    second = create_worktree(first.path, "two")
    assert second.path == worktrees_dir(repo.resolve()) / "two"
    assert second.base == "worktree-one"


def test_generated_names_are_valid_and_never_taken(repo: Path) -> None:
    seen = set()
    for _ in range(5):
        wt = create_worktree(repo)
        assert validate_name(wt.name) is None
        assert wt.branch == BRANCH_PREFIX + wt.name
        seen.add(wt.name)
    assert len(seen) == 5
    # Same seed as a name that is taken (by a directory, then by a branch): another name comes out.
    taken = generate_name(repo, rng=random.Random(7))
    (worktrees_dir(repo) / taken).mkdir(parents=True)
    assert generate_name(repo, rng=random.Random(7)) != taken
    other = generate_name(repo, rng=random.Random(8))
    git(repo, "branch", BRANCH_PREFIX + other)
    assert generate_name(repo, rng=random.Random(8)) != other


def test_a_taken_name_is_refused_and_nothing_is_overwritten(repo: Path) -> None:
    create_worktree(repo, "same")
    with pytest.raises(WorktreeError, match="already exists"):
        create_worktree(repo, "same")
    git(repo, "branch", "worktree-branchonly")
    with pytest.raises(WorktreeError, match="branch worktree-branchonly already exists"):
        create_worktree(repo, "branchonly")
    keep = worktrees_dir(repo) / "dironly"
    keep.mkdir()
    (keep / "mine.txt").write_text("precious")
    with pytest.raises(WorktreeError, match="already exists"):
        create_worktree(repo, "dironly")
    assert (keep / "mine.txt").read_text() == "precious"
    assert "worktree-dironly" not in branches(repo)


@pytest.mark.parametrize("name", ["", "a/b", "-x", "..", "x..y", "a.lock", ".git", "sp ace", "x" * 65, "é"])
def test_invalid_names_are_refused(repo: Path, name: str) -> None:
    assert validate_name(name) is not None
    with pytest.raises(WorktreeError):
        create_worktree(repo, name)


def test_clear_errors(tmp_path: Path, repo: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(WorktreeError, match="not in a git repository"):
        create_worktree(plain)
    with pytest.raises(WorktreeError, match="git is not installed"):
        create_worktree(repo, git=str(tmp_path / "no-such-git"))
    git(repo, "checkout", "-q", "--detach")
    with pytest.raises(WorktreeError, match="HEAD is detached"):
        create_worktree(repo)
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q", "-b", "main")
    with pytest.raises(WorktreeError, match="no commit yet"):
        create_worktree(empty)


def test_a_clean_worktree_is_removed_with_its_branch(repo: Path) -> None:
    wt = create_worktree(repo, "clean")
    state = inspect_worktree(wt)
    assert not state.loses_work and not state.missing
    remove_worktree(wt)
    assert not wt.path.exists() and wt.branch not in branches(repo)
    assert not worktrees_dir(repo).exists()  # the empty sibling directory goes too
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_uncommitted_files_are_detected_and_kept_unless_discarded(repo: Path) -> None:
    wt = create_worktree(repo, "dirty")
    (wt.path / "a.txt").write_text("changed\n")
    (wt.path / "new dir").mkdir()
    (wt.path / "new dir" / "n.txt").write_text("new\n")
    state = inspect_worktree(wt)
    assert sorted(state.uncommitted) == ["a.txt", "new dir/n.txt"]
    assert state.loses_work and "2 uncommitted files" in state.describe()
    with pytest.raises(WorktreeError, match="uncommitted"):
        remove_worktree(wt)
    assert (wt.path / "a.txt").read_text() == "changed\n" and wt.branch in branches(repo)
    remove_worktree(wt, discard=True)
    assert not wt.path.exists() and wt.branch not in branches(repo)


def test_commits_not_in_the_base_are_detected_until_merged(repo: Path) -> None:
    wt = create_worktree(repo, "work")
    (wt.path / "c.txt").write_text("c\n")
    git(wt.path, "add", "c.txt")
    git(wt.path, "commit", "-q", "-m", "add c")
    state = inspect_worktree(wt)
    assert not state.uncommitted and len(state.unmerged) == 1 and state.unmerged[0].endswith("add c")
    assert "1 commit not merged or pushed" in state.describe()
    with pytest.raises(WorktreeError):
        remove_worktree(wt)
    assert wt.path.exists()
    git(repo, "merge", "-q", "--ff-only", wt.branch)
    assert not inspect_worktree(wt).loses_work
    remove_worktree(wt)
    assert not wt.path.exists()


def test_commits_on_a_detached_head_inside_the_worktree_count(repo: Path) -> None:
    wt = create_worktree(repo, "moved")
    git(wt.path, "checkout", "-q", "--detach")
    (wt.path / "d.txt").write_text("d\n")
    git(wt.path, "add", "d.txt")
    git(wt.path, "commit", "-q", "-m", "on detached head")
    assert [c.split(" ", 1)[1] for c in inspect_worktree(wt).unmerged] == ["on detached head"]


def test_a_worktree_deleted_by_hand_leaves_its_branch_checked(repo: Path) -> None:
    wt = create_worktree(repo, "gone")
    (wt.path / "e.txt").write_text("e\n")
    git(wt.path, "add", "e.txt")
    git(wt.path, "commit", "-q", "-m", "e")
    subprocess.run(["rm", "-rf", str(wt.path)], check=True)
    state = inspect_worktree(wt)
    assert state.missing and len(state.unmerged) == 1
    with pytest.raises(WorktreeError):
        remove_worktree(wt)
    remove_worktree(wt, discard=True)
    assert wt.branch not in branches(repo)
