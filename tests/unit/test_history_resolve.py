"""Every name a session is shown by resolves to it: id, id prefix, our name, the CLI's custom title, the title."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from claude_tui.cli import parse_app_args
from claude_tui.history.commands import export_command
from claude_tui.history.index import SessionIndex
from claude_tui.history.names import NameStore
from claude_tui.history.resolve import resolve_session
from claude_tui.history.synth import turn_records, write_jsonl
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.launch import resolve_resume

FORKED = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "forked"
PARENT, FORK = "f61f467c-c544-4f29-ba69-c98aed385abd", "46934f4f-3972-45c7-9479-2296c0bf4f7c"
OTHER = "f6aaaaaa-2222-3333-4444-555555555555"


@pytest.fixture
def idx(tmp_path: Path):
    root = tmp_path / "claude"
    pdir = root / "projects" / "-proj"
    pdir.mkdir(parents=True)
    for p in FORKED.glob("*.jsonl"):  # the real CLI's parent and its --fork-session copy
        shutil.copy(p, pdir / p.name)
    recs = turn_records(OTHER, None, "Refactor the parser", "ok")
    write_jsonl(pdir / f"{OTHER}.jsonl", recs + [{"type": "custom-title", "customTitle": "Parser work"}])
    index = SessionIndex(tmp_path / "s.sqlite", root=root, names=NameStore(tmp_path / "names.json"))
    yield index
    index.close()


def test_full_id_and_unique_prefix(idx: SessionIndex) -> None:
    assert resolve_session(PARENT, idx).session_id == PARENT
    assert resolve_session(PARENT.upper(), idx).session_id == PARENT
    assert resolve_session(PARENT[:8], idx).how == "id prefix"  # the 8 characters the app shows
    assert resolve_session(FORK[:4], idx).session_id == FORK


def test_ambiguous_prefix_lists_candidates(idx: SessionIndex) -> None:
    found = resolve_session("f6", idx)
    assert not found.found and "at least 4" in found.problem()
    found = resolve_session("f6aa", idx)
    assert found.session_id == OTHER
    found = resolve_session("f61f", idx)
    assert found.session_id == PARENT


def test_names_and_titles(idx: SessionIndex) -> None:
    assert resolve_session("parser work", idx).session_id == OTHER  # the CLI's custom title, any case
    assert resolve_session("refactor  the parser", idx).session_id == OTHER  # the first prompt
    idx.names.set(PARENT, "my  experiment")
    assert resolve_session("My experiment", idx).session_id == PARENT
    assert resolve_session("nothing like it", idx).problem().startswith("no session 'nothing like it'")


def test_a_title_shared_by_a_fork_and_its_parent_lists_both(idx: SessionIndex) -> None:
    found = resolve_session("kw:think what is six times seven", idx)
    assert not found.found and {r.session_id for r in found.candidates} == {PARENT, FORK}
    problem = found.problem()
    assert "fits 2 sessions" in problem and f"(fork of {PARENT[:8]})" in problem
    assert PARENT in problem and FORK in problem


def test_export_by_prefix_and_by_title(idx: SessionIndex, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert export_command(OTHER[:8], "md", out, index=idx) == 0
    assert out.getvalue().startswith("# Parser work")
    out = io.StringIO()
    assert export_command("Parser work", "json", out, index=idx) == 0 and '"title": "Parser work"' in out.getvalue()
    assert export_command("kw:think what is six times seven", "md", io.StringIO(), index=idx) == 1
    assert "fits 2 sessions" in capsys.readouterr().err


def test_resume_flag_gets_the_full_id(idx: SessionIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(idx.root))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    args = parse_app_args(["--resume", PARENT[:8], "--cwd", str(tmp_path)])
    options = CliOptions(cwd=str(tmp_path))
    assert resolve_resume(args, options) == ""
    assert options.resume == PARENT  # never the prefix: the CLI wants a UUID
    args = parse_app_args(["--resume", "nothing like it", "--cwd", str(tmp_path)])
    assert "no session" in resolve_resume(args, CliOptions(cwd=str(tmp_path)))


def test_continue_with_no_sessions_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "empty"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    args = parse_app_args(["--continue", "--cwd", str(tmp_path)])
    options = CliOptions(cwd=str(tmp_path), continue_session=True)
    problem = resolve_resume(args, options)
    assert problem.startswith(f"no previous session in {tmp_path} to continue")
