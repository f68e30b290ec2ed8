from __future__ import annotations

from pathlib import Path

import platformdirs

from claude_tui.history import paths
from claude_tui.history.paths import (
    MAX_ENCODED_LEN,
    config_root,
    encode_project_dir,
    find_session_file,
    is_session_file_name,
    list_project_dirs,
    project_dir_for,
)


def test_config_root_env(tmp_path: Path) -> None:
    assert config_root({"CLAUDE_CONFIG_DIR": str(tmp_path)}) == tmp_path
    assert config_root({}) == Path.home() / ".claude"


def test_encode_every_non_alnum() -> None:
    assert encode_project_dir("/home/user/project") == "-home-user-project"
    assert encode_project_dir("/a b/c_d.e-f/é") == "-a-b-c-d-e-f--"


def test_long_names_truncated_with_hash_and_matched_by_prefix(tmp_path: Path) -> None:
    cwd = "/home/user/" + "deep/" * 60
    enc = encode_project_dir(cwd)
    assert len(enc) > MAX_ENCODED_LEN and enc.startswith(enc[:MAX_ENCODED_LEN] + "-")
    # the CLI's hash may differ: only the prefix is reliable
    cli_dir = tmp_path / "projects" / (enc[:MAX_ENCODED_LEN] + "-zzzzzz")
    cli_dir.mkdir(parents=True)
    (tmp_path / "projects" / "-other").mkdir()
    assert project_dir_for(cwd, tmp_path) == cli_dir
    # short names never match by prefix
    (tmp_path / "projects" / "-home-user-projectX").mkdir()
    assert project_dir_for("/home/user/project", tmp_path) is None


def test_list_and_find(tmp_path: Path) -> None:
    p = tmp_path / "projects" / "-x"
    p.mkdir(parents=True)
    sid = "12345678-1234-1234-1234-123456789abc"
    (p / f"{sid}.jsonl").write_text("{}\n")
    (p / "agent-abc.jsonl").write_text("{}\n")
    assert list_project_dirs(tmp_path) == [p]
    assert find_session_file(sid, tmp_path) == p / f"{sid}.jsonl"
    assert find_session_file("../../etc/passwd", tmp_path) is None
    assert [e.name for e in paths.iter_session_files(p)] == [f"{sid}.jsonl"]
    assert is_session_file_name(f"{sid}.jsonl") and not is_session_file_name("agent-abc.jsonl")


def test_private_dirs_are_0700(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(platformdirs, "user_cache_path", lambda app: tmp_path / "cache" / app)
    d = paths.cache_dir()
    assert d == tmp_path / "cache" / "claude-tui"
    assert (d.stat().st_mode & 0o777) == 0o700
    assert paths.default_index_path(Path.home() / ".claude") == d / "sessions.sqlite"
    other = paths.default_index_path(tmp_path / "elsewhere")  # another config root: its own index
    assert other.parent == d and other.name.startswith("sessions-") and other != paths.default_index_path(tmp_path)


def test_a_name_with_a_trailing_newline_is_no_session_file() -> None:
    # `$` in a pattern matches before a final newline; the whole name must be a session file's
    assert is_session_file_name("12345678-1234-1234-1234-123456789abc.jsonl")
    assert not is_session_file_name("12345678-1234-1234-1234-123456789abc.jsonl\n")
