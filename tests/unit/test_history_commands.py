from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from claude_tui.history.commands import export_command, format_table, search_command, sessions_command
from claude_tui.history.index import SessionIndex
from claude_tui.history.names import NameStore
from claude_tui.history.paths import encode_project_dir
from claude_tui.history.synth import make_session, read_records, tree_digest

FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
HERE = Path("/home/user/project")


@pytest.fixture
def setup(tmp_path: Path):
    root = tmp_path / "claude"
    shutil_tree = root / "projects" / encode_project_dir(str(HERE))
    for p in sorted(FIXTURES.glob("*.jsonl")):
        shutil_tree.mkdir(parents=True, exist_ok=True)
        (shutil_tree / p.name).write_bytes(p.read_bytes())
    make_session(root / "projects" / encode_project_dir("/elsewhere"), read_records(next(FIXTURES.glob("3aa*.jsonl"))), cwd="/elsewhere")
    idx = SessionIndex(tmp_path / "cache" / "s.sqlite", root=root, names=NameStore(tmp_path / "names.json"))
    before = tree_digest(root)
    yield root, idx
    idx.close()
    assert tree_digest(root) == before  # commands never touch the CLI's files


def test_sessions_table(setup) -> None:
    root, idx = setup
    out = io.StringIO()
    assert sessions_command(False, 10, False, HERE, out, index=idx) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["SESSION", "LAST", "ACTIVE", "MSGS", "COST", "BRANCH", "TITLE"]
    assert len(lines) == 4
    assert any("1371d147-61d8-4b34-beff-86ba0e32e82d" in line and "kw:edit the file" in line and "$0.04" in line for line in lines)
    # aligned columns: every row's TITLE starts at the same offset
    col = lines[0].index("TITLE")
    assert all(line[col - 2 : col] == "  " for line in lines[1:])


def test_sessions_all_json(setup) -> None:
    root, idx = setup
    out = io.StringIO()
    assert sessions_command(True, 0, True, HERE, out, index=idx) == 0
    data = json.loads(out.getvalue())
    assert len(data) == 4
    assert {d["cwd"] for d in data} == {"/home/user/project", "/elsewhere"}
    assert all(d["entrypoint"] == "sdk-cli" and d["message_count"] > 0 for d in data)
    assert {"session_id", "display_title", "last_active", "cost_usd", "git_branch", "model"} <= set(data[0])


def test_sessions_limit_and_empty(setup) -> None:
    root, idx = setup
    out = io.StringIO()
    sessions_command(True, 2, True, HERE, out, index=idx)
    assert len(json.loads(out.getvalue())) == 2
    out = io.StringIO()
    assert sessions_command(False, 10, False, Path("/nope"), out, index=idx) == 0
    assert out.getvalue().startswith("No sessions found")


def test_search_table_and_json(setup) -> None:
    root, idx = setup
    out = io.StringIO()
    assert search_command("bash", False, False, HERE, out, index=idx) == 0
    text = out.getvalue()
    assert text.splitlines()[0].split()[:3] == ["SESSION", "TURN", "WHERE"]
    assert "3aa3043d-6dbe-4e80-8b58-4789dd1efc50" in text
    out = io.StringIO()
    assert search_command("bash", True, True, HERE, out, index=idx) == 0
    hits = json.loads(out.getvalue())
    assert len({h["session_id"] for h in hits}) == 2 and all(h["uuid"] and h["snippet"] for h in hits)
    out = io.StringIO()
    assert search_command("nonexistentword", True, False, HERE, out, index=idx) == 1


def test_export_markdown_and_json(setup) -> None:
    root, idx = setup
    out = io.StringIO()
    assert export_command("1371d147-61d8-4b34-beff-86ba0e32e82d", "markdown", out, root=root, names=idx.names) == 0
    md = out.getvalue()
    assert md.startswith("# kw:edit the file")
    assert "## Turn 1\n\n### You\n\n> kw:edit the file" in md and "#### Edit /home/user/project/a.txt (done)" in md
    assert "```diff\n--- a/home/user/project/a.txt\n+++ b/home/user/project/a.txt\n@@" in md
    assert "All done. The tool ran." in md and "lorem ipsum" not in md
    out = io.StringIO()
    assert export_command("1371d147-61d8-4b34-beff-86ba0e32e82d", "json", out, root=root) == 0
    doc = json.loads(out.getvalue())
    assert doc["session"]["cost_usd"] == 0.04242 and doc["title"] == "kw:edit the file"
    assert [i["type"] for i in doc["items"]][:2] == ["user", "tool"] and doc["items"][1]["diff"].startswith("--- a/")
    assert export_command("00000000-0000-0000-0000-000000000000", "md", io.StringIO(), root=root) == 1
    assert export_command("1371d147-61d8-4b34-beff-86ba0e32e82d", "pdf", io.StringIO(), root=root) == 1


def test_format_table_sanitises() -> None:
    table = format_table(["A", "B"], [["x\x1b[31m", "y\nz"]])
    assert "\x1b" not in table and table.splitlines()[1] == "x [31m  y z"


def test_sessions_and_search_print_a_surrogate_titled_session(tmp_path: Path) -> None:
    """`claude-tui sessions` / `search` died with UnicodeEncodeError on a title holding a lone surrogate."""
    import os
    import subprocess
    import sys

    root = tmp_path / "claude"
    project = tmp_path / "proj"
    project.mkdir()
    sid = "77777777-2222-3333-4444-555555555555"
    pdir = root / "projects" / encode_project_dir(str(project))
    pdir.mkdir(parents=True)
    prompt = {"type": "user", "uuid": "u1", "parentUuid": None, "cwd": str(project),
              "message": {"role": "user", "content": "cut \ud83d emoji"}}
    # json.dumps writes the lone surrogate as the escape "\ud83d", as a Node CLI does
    (pdir / f"{sid}.jsonl").write_text(json.dumps(prompt) + "\n" + json.dumps({"type": "custom-title",
                                       "customTitle": "title \ud83d cut"}) + "\n")
    for name in FIXTURES.glob("*.jsonl"):
        (pdir / name.name).write_bytes(name.read_bytes())
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(root), "PYTHONIOENCODING": "utf-8"}
    repo = Path(__file__).resolve().parents[2]
    for argv in (["sessions", "--cwd", str(project)], ["search", "emoji", "--cwd", str(project)],
                 ["sessions", "--json", "--cwd", str(project)]):
        run = subprocess.run([sys.executable, "-m", "claude_tui.cli", *argv], capture_output=True, text=True,
                             env=env, cwd=repo, timeout=60)
        assert run.returncode == 0, run.stderr
        assert "UnicodeEncodeError" not in run.stderr
        assert sid in run.stdout
    assert "title \ufffd cut" in subprocess.run([sys.executable, "-m", "claude_tui.cli", "sessions", "--cwd", str(project)],
                                                capture_output=True, text=True, env=env, cwd=repo).stdout
