"""claude_tui.git.worktree against real temporary git repositories."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from claude_tui.git.worktree import (
    BRANCH_PREFIX,
    WorktreeChanged,
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


@pytest.mark.parametrize("name", ["", "a/b", "-x", "..", "x..y", "a.lock", ".git", "sp ace", "x" * 65, "é",
                                  "lossy\n", "a\x1bb", "tab\t", "x\r"])
def test_invalid_names_are_refused(repo: Path, name: str) -> None:
    assert validate_name(name) is not None
    with pytest.raises(WorktreeError):
        create_worktree(repo, name)
    assert not worktrees_dir(repo).exists() and branches(repo) == {"main"}  # nothing made before the refusal


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
    remove_worktree(wt, state)
    assert not wt.path.exists() and wt.branch not in branches(repo)


def commit(cwd: Path, name: str, message: str) -> str:
    (cwd / name).write_text(message + "\n")
    git(cwd, "add", name)
    git(cwd, "commit", "-q", "-m", message)
    return git(cwd, "rev-parse", "HEAD").strip()


def reachable(repo: Path, sha: str) -> bool:
    return sha in git(repo, "log", "--all", "--format=%H").split()


def test_commits_not_in_the_base_keep_the_branch_until_merged(repo: Path) -> None:
    wt = create_worktree(repo, "work")
    sha = commit(wt.path, "c.txt", "add c")
    state = inspect_worktree(wt)
    assert not state.uncommitted and len(state.unmerged) == 1 and state.unmerged[0].endswith("add c")
    assert not state.loses_work and state.keeps_branch and "1 commit not merged or pushed" in state.describe_commits()
    removed = remove_worktree(wt, state)
    assert not wt.path.exists() and removed.branch_kept
    assert wt.branch in branches(repo) and reachable(repo, sha)  # the worktree goes, its commit never does
    git(repo, "merge", "-q", "--ff-only", wt.branch)
    wt2 = create_worktree(repo, "merged")
    commit(wt2.path, "m.txt", "m")
    git(repo, "merge", "-q", "--ff-only", wt2.branch)
    assert not inspect_worktree(wt2).keeps_branch
    assert not remove_worktree(wt2).branch_kept and wt2.branch not in branches(repo)


def test_commits_on_a_detached_head_inside_the_worktree_count(repo: Path) -> None:
    wt = create_worktree(repo, "moved")
    git(wt.path, "checkout", "-q", "--detach")
    (wt.path / "d.txt").write_text("d\n")
    git(wt.path, "add", "d.txt")
    git(wt.path, "commit", "-q", "-m", "on detached head")
    state = inspect_worktree(wt)
    assert [c.split(" ", 1)[1] for c in state.unmerged] == ["on detached head"]
    # Only the worktree's HEAD reaches it: removing the worktree would lose it, so that is refused.
    assert [c.split(" ", 1)[1] for c in state.stranded] == ["on detached head"]
    with pytest.raises(WorktreeError, match="detached HEAD"):
        remove_worktree(wt, state)
    assert (wt.path / "d.txt").exists()


def test_a_worktree_deleted_by_hand_leaves_its_branch_checked(repo: Path) -> None:
    wt = create_worktree(repo, "gone")
    (wt.path / "e.txt").write_text("e\n")
    git(wt.path, "add", "e.txt")
    git(wt.path, "commit", "-q", "-m", "e")
    subprocess.run(["rm", "-rf", str(wt.path)], check=True)
    state = inspect_worktree(wt)
    assert state.missing and len(state.unmerged) == 1
    removed = remove_worktree(wt)  # only git's record of it is tidied: the branch holds a commit
    assert removed.branch_kept and wt.branch in branches(repo)
    assert len(git(repo, "worktree", "list").splitlines()) == 1


# -- The consent covers what the dialog saw: whatever appeared since is never deleted (issue 28) --


def test_a_file_written_after_the_dialog_looked_is_never_deleted(repo: Path) -> None:
    wt = create_worktree(repo, "lossy")
    (wt.path / "first.txt").write_text("named in the dialog\n")
    consent = inspect_worktree(wt)  # "Discard 1 uncommitted file?"
    (wt.path / "second.txt").write_text("written while the dialog was open\n")
    with pytest.raises(WorktreeChanged) as refused:
        remove_worktree(wt, consent)
    assert refused.value.changes == ["new file second.txt"] and "second.txt" in str(refused.value)
    assert (wt.path / "second.txt").read_text() == "written while the dialog was open\n"
    assert (wt.path / "first.txt").exists() and wt.branch in branches(repo)
    # Asked again about what is there now: that answer removes it.
    remove_worktree(wt, refused.value.state)
    assert not wt.path.exists()


@pytest.mark.parametrize("change", ["edit", "stage", "delete", "chmod"])
def test_a_named_file_that_changed_since_is_not_discarded(repo: Path, change: str) -> None:
    wt = create_worktree(repo, "edited")
    (wt.path / "a.txt").write_text("first edit\n")
    consent = inspect_worktree(wt)
    if change == "edit":
        (wt.path / "a.txt").write_text("second edit\n")
    elif change == "stage":
        git(wt.path, "add", "a.txt")  # same content, now in the index: git's record of it changed
    elif change == "delete":
        (wt.path / "a.txt").unlink()
    else:
        (wt.path / "a.txt").chmod(0o755)
    with pytest.raises(WorktreeChanged, match="a.txt"):
        remove_worktree(wt, consent)
    assert wt.path.is_dir()


def test_a_commit_made_after_the_dialog_looked_keeps_worktree_and_commit(repo: Path) -> None:
    wt = create_worktree(repo, "committed")
    (wt.path / "first.txt").write_text("named\n")
    consent = inspect_worktree(wt)
    sha = commit(wt.path, "late.txt", "late work")
    with pytest.raises(WorktreeChanged) as refused:
        remove_worktree(wt, consent)
    assert any(line.startswith("new commit") and "late work" in line for line in refused.value.changes)
    assert wt.path.is_dir() and reachable(repo, sha)


def test_a_moved_head_is_a_change(repo: Path) -> None:
    wt = create_worktree(repo, "moved-head")
    consent = inspect_worktree(wt)
    git(wt.path, "checkout", "-q", "--detach")
    with pytest.raises(WorktreeChanged, match="HEAD moved"):
        remove_worktree(wt, consent)
    assert wt.path.is_dir()


def test_work_in_the_last_instant_is_left_to_gits_own_check(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file written between the last look and the removal of a clean worktree: `git worktree remove`
    runs without --force then, and refuses."""
    import claude_tui.git.worktree as module

    wt = create_worktree(repo, "instant")
    consent = inspect_worktree(wt)
    real = module.differences

    def late_write(before, after):  # type: ignore[no-untyped-def]
        found = real(before, after)
        (wt.path / "instant.txt").write_text("just now\n")
        return found

    monkeypatch.setattr(module, "differences", late_write)
    with pytest.raises(WorktreeError, match="worktree remove"):
        remove_worktree(wt, consent)
    assert (wt.path / "instant.txt").read_text() == "just now\n"


def test_a_commit_in_the_last_instant_still_keeps_the_branch(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import claude_tui.git.worktree as module

    wt = create_worktree(repo, "instant-commit")
    (wt.path / "named.txt").write_text("named\n")
    consent = inspect_worktree(wt)
    real = module.differences
    made: list[str] = []

    def late_commit(before, after):  # type: ignore[no-untyped-def]
        found = real(before, after)
        made.append(commit(wt.path, "c.txt", "in the last instant"))
        return found

    monkeypatch.setattr(module, "differences", late_commit)
    removed = remove_worktree(wt, consent)
    assert removed.branch_kept and reachable(repo, made[0])


def test_a_failed_add_leaves_no_empty_directory_and_says_gits_reason(repo: Path, tmp_path: Path) -> None:
    real_git = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True).stdout.strip()
    fake = tmp_path / "git"
    fake.write_text(f'#!/bin/sh\ncase "$*" in *"worktree add"*) printf "fatal: first line\\n  and its end\\n" >&2; '
                    f'exit 128;; esac\nexec {real_git} "$@"\n')
    fake.chmod(0o755)
    with pytest.raises(WorktreeError, match="fatal: first line and its end"):
        create_worktree(repo, "fails", git=str(fake))
    assert not worktrees_dir(repo).exists() and "worktree-fails" not in branches(repo)


def test_ignored_files_are_named_and_covered_by_the_consent(repo: Path) -> None:
    """`git worktree remove` deletes ignored files without --force: the dialog names them too."""
    (repo / ".gitignore").write_text("*.log\nbuild/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore")
    wt = create_worktree(repo, "ignored")
    (wt.path / "build").mkdir()
    (wt.path / "build" / "out.o").write_text("o")
    consent = inspect_worktree(wt)
    assert consent.ignored == ["build/"] and not consent.uncommitted
    assert consent.describe() == "only 1 ignored file or folder"
    (wt.path / "secret.log").write_text("written meanwhile\n")
    with pytest.raises(WorktreeChanged, match="new ignored file secret.log"):
        remove_worktree(wt, consent)
    assert (wt.path / "secret.log").exists()
    remove_worktree(wt, inspect_worktree(wt))
    assert not wt.path.exists()
