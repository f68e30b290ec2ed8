from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from claude_tui.history import index as index_mod
from claude_tui.history import index_docs as docs_mod
from claude_tui.history import scan as scan_mod
from claude_tui.history.index import SessionIndex
from claude_tui.history.names import NameStore, set_session_name
from claude_tui.history.paths import encode_project_dir
from claude_tui.history.synth import make_session, read_records, tree_digest, turn_records, used_at, write_jsonl

FIXTURES = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "sessions" / "-home-user-project"
HERE = "/home/user/project"
OTHER = "/srv/other project"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Two projects built from the three real transcripts (ids renamed, mtimes staggered)."""
    root = tmp_path / "claude"
    templates = [read_records(p) for p in sorted(FIXTURES.glob("*.jsonl"))]
    for i, tpl in enumerate(templates):
        make_session(root / "projects" / encode_project_dir(HERE), tpl, mtime=1_700_000_000 + i * 100)
        make_session(root / "projects" / encode_project_dir(OTHER), tpl, cwd=OTHER, mtime=1_700_000_050 + i * 100)
    return root


@pytest.fixture
def idx(tree: Path, tmp_path: Path):
    index = SessionIndex(tmp_path / "cache" / "sessions.sqlite", root=tree, names=NameStore(tmp_path / "names.json"))
    yield index
    index.close()


def test_current_vs_all_projects(idx: SessionIndex, tree: Path) -> None:
    here = idx.list_sessions(HERE)
    everything = idx.list_sessions(HERE, all_projects=True)
    assert len(here) == 3 and len(everything) == 6
    assert {r.project for r in here} == {encode_project_dir(HERE)}
    assert all(r.entrypoint == "sdk-cli" for r in everything)  # never hidden
    actives = [r.last_active for r in everything]
    assert actives == sorted(actives, reverse=True)
    assert idx.list_sessions("/nowhere") == []
    assert len(idx.list_sessions(HERE, all_projects=True, limit=2)) == 2


def test_index_dir_private(idx: SessionIndex) -> None:
    assert (idx.db_path.parent.stat().st_mode & 0o777) == 0o700


def test_incremental_revalidation_rereads_only_changed(idx: SessionIndex, tree: Path, monkeypatch) -> None:
    first = idx.refresh()
    assert first.added == 6
    calls: list[str] = []
    real = index_mod.read_meta
    monkeypatch.setattr(index_mod, "read_meta", lambda p, project=None: calls.append(p) or real(p, project))
    again = idx.refresh()
    assert calls == [] and again.unchanged == 6 and not again.changed
    target = sorted((tree / "projects").rglob("*.jsonl"))[0]
    used_at(target, 2_000_000_000)  # used again: its records and its mtime
    stats = idx.refresh()
    assert calls == [str(target)] and stats.updated == 1 and stats.unchanged == 5
    assert idx.sessions()[0].path == str(target)  # now the most recently active


def test_new_and_deleted_files(idx: SessionIndex, tree: Path) -> None:
    idx.refresh()
    idx.index_content()
    victim = sorted((tree / "projects").rglob("*.jsonl"))[0]
    victim_id = victim.stem
    victim.unlink()
    pdir = tree / "projects" / encode_project_dir(HERE)
    new = make_session(pdir, read_records(next(FIXTURES.glob("f12*.jsonl"))))
    stats = idx.refresh()
    assert stats.removed == 1 and stats.added == 1
    ids = {r.session_id for r in idx.sessions()}
    assert victim_id not in ids and new.stem in ids
    # its search docs went with it
    n_docs = idx.con.execute("SELECT count(*) FROM docs WHERE file_id NOT IN (SELECT id FROM files)").fetchone()[0]
    assert n_docs == 0


def test_fts_finds_prompts_text_tools_and_paths(idx: SessionIndex) -> None:
    idx.refresh()
    assert idx.index_content() == 6
    kinds = {
        "follow-up resume": "prompt",
        "All done": "answer",
        "Bash": "Bash call",
        "a.txt": "Edit call",
        "hello-from-bash": "Bash output",
        "touched": "Bash call",
    }
    for query, where in kinds.items():
        hits = idx.search(query)
        assert hits, query
        assert any(h.where == where for h in hits), (query, hits)
        for h in hits:
            assert h.uuid and h.snippet
            assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in h.snippet)
            for a, b in h.highlights:
                assert 0 <= a < b <= len(h.snippet)
    hit = idx.search("follow")[0]
    assert hit.snippet[hit.highlights[0][0] : hit.highlights[0][1]].lower().startswith("follow")
    assert hit.turn == 1  # the second prompt of that session
    # scoped search
    here = idx.project_dirs(HERE)
    assert {h.project for h in idx.search("kw", here)} == {encode_project_dir(HERE)}
    assert idx.search("") == [] and idx.search('"; DROP TABLE files; --') == []


def test_snippets_sanitised(idx: SessionIndex, tree: Path) -> None:
    pdir = tree / "projects" / encode_project_dir(HERE)
    sid = "99999999-2222-3333-4444-555555555555"
    write_jsonl(pdir / f"{sid}.jsonl", turn_records(sid, None, "evil \x1b[2J\x07 payload zebra", "fine"))
    idx.refresh()
    idx.index_content()
    hit = idx.search("zebra")[0]
    assert "\x1b" not in hit.snippet and "\x07" not in hit.snippet and "zebra" in hit.snippet


def test_content_index_is_incremental_for_appends(idx: SessionIndex, tree: Path, monkeypatch) -> None:
    idx.refresh()
    idx.index_content()
    offsets: list[int] = []
    real = scan_mod.scan_file
    monkeypatch.setattr(docs_mod, "scan_file", lambda p, state=None, **k: offsets.append(state.offset if state else 0) or real(p, state, **k))
    assert idx.index_content() == 0  # nothing stale
    target = sorted((tree / "projects" / encode_project_dir(HERE)).glob("*.jsonl"))[0]
    size = target.stat().st_size
    before = idx.sessions()[0].message_count
    with open(target, "a") as fh:
        import json

        for r in turn_records(target.stem, None, "appended quokka prompt", "appended answer"):
            fh.write(json.dumps(r) + "\n")
    idx.refresh()
    assert idx.index_content() == 1
    assert offsets == [size]  # only the new bytes were scanned
    assert idx.search("quokka")[0].session_id == target.stem
    row = next(r for r in idx.sessions() if r.path == str(target))
    assert row.message_count is not None and row.message_count >= 2
    del before


def test_rewritten_file_is_rescanned(idx: SessionIndex, tree: Path) -> None:
    idx.refresh()
    idx.index_content()
    target = sorted((tree / "projects").rglob("*.jsonl"))[0]
    write_jsonl(target, turn_records(target.stem, None, "totally different platypus", "x"))
    idx.refresh()
    idx.index_content()
    assert idx.search("platypus") and all(h.path != str(target) for h in idx.search("kw"))


def test_names_store_used_in_titles(idx: SessionIndex, tmp_path: Path, tree: Path) -> None:
    rows = idx.list_sessions(HERE)
    target = rows[1]
    set_session_name(target.session_id, "  My \x1b favourite  ", path=tmp_path / "names.json")
    rows = idx.sessions()
    named = next(r for r in rows if r.session_id == target.session_id)
    assert named.name == "My favourite" and named.display_title == "My favourite"
    assert all(r.display_title == r.title for r in rows if r.session_id != target.session_id)
    NameStore(tmp_path / "names.json").set(target.session_id, "")
    assert NameStore(tmp_path / "names.json").get(target.session_id) is None
    assert not list(tree.rglob("*names*"))  # never stored in the CLI's tree


def test_cli_tree_untouched(tree: Path, tmp_path: Path) -> None:
    from claude_tui.history.transcript import load_transcript

    before = tree_digest(tree)
    with SessionIndex(tmp_path / "c" / "s.sqlite", root=tree, names=NameStore(tmp_path / "n.json")) as idx:
        rows = idx.list_sessions(HERE, all_projects=True)
        idx.index_content()
        idx.search("kw")
        for r in rows:
            idx.message_count(r)
            load_transcript(Path(r.path))
    assert tree_digest(tree) == before


def test_corrupt_and_unknown_records_dont_break_index(idx: SessionIndex, tree: Path) -> None:
    pdir = tree / "projects" / encode_project_dir(HERE)
    sid = "88888888-2222-3333-4444-555555555555"
    path = pdir / f"{sid}.jsonl"
    path.write_text('garbage\n{"type":"mystery","x":1}\n' + '{"type":"user","message":{"role":"user","content":"wombat here"},"uuid":"u1"}\n{"trunc')
    rows = idx.list_sessions(HERE)
    assert any(r.session_id == sid and r.title == "wombat here" for r in rows)
    idx.index_content()
    assert idx.search("wombat")


def test_like_fallback(tree: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(index_mod, "fts5_available", lambda: False)
    with SessionIndex(tmp_path / "like.sqlite", root=tree, names=NameStore(tmp_path / "n.json")) as idx:
        assert idx.search_note and "LIKE" in idx.search_note
        idx.refresh()
        idx.index_content()
        hits = idx.search("follow-up")
        assert hits and "follow" in hits[0].snippet.lower() and hits[0].highlights
        assert {h.where for h in idx.search("a.txt")} >= {"Edit call", "Edit output"}


def test_second_connection_reads_while_first_writes(idx: SessionIndex, tmp_path: Path, tree: Path) -> None:
    idx.refresh()
    other = SessionIndex(idx.db_path, root=tree, names=idx.names)
    try:
        assert len(other.sessions()) == 6
    finally:
        other.close()
    with pytest.raises(sqlite3.ProgrammingError):
        import threading

        err: list[BaseException] = []

        def use() -> None:
            try:
                idx.sessions()
            except BaseException as e:  # noqa: BLE001
                err.append(e)

        t = threading.Thread(target=use)
        t.start()
        t.join()
        raise err[0]


FORKED = Path(__file__).parents[1] / "fixtures" / "claude-code-2.1.330" / "forked"
PARENT, FORK = "f61f467c-c544-4f29-ba69-c98aed385abd", "46934f4f-3972-45c7-9479-2296c0bf4f7c"


def test_surrogate_titled_transcript_among_good_ones(idx: SessionIndex, tree: Path) -> None:
    """One transcript whose title holds a lone surrogate (a Node CLI cutting an emoji) hides nothing."""
    pdir = tree / "projects" / encode_project_dir(HERE)
    sid = "77777777-2222-3333-4444-555555555555"
    lines = [__import__("json").dumps(r) for r in turn_records(sid, None, "emoji \ud83d cut", "fine \udc00")]
    lines.append('{"type":"custom-title","customTitle":"bad \\ud83d title","sessionId":"' + sid + '"}')
    (pdir / f"{sid}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    rows = idx.list_sessions(HERE)
    assert len(rows) == 4 and sid in {r.session_id for r in rows}
    bad = next(r for r in rows if r.session_id == sid)
    assert bad.title == "bad \ufffd title"
    assert idx.index_content() == 4
    assert [h.session_id for h in idx.search("cut")] == [sid]
    assert idx.search("fine")  # the other sessions' text is still searchable


def test_forks_are_marked_with_their_parent(tmp_path: Path) -> None:
    """The real CLI's --fork-session copies the parent's records (same uuids, same first prompt)."""
    root = tmp_path / "claude"
    pdir = root / "projects" / "-proj"
    pdir.mkdir(parents=True)
    for p in FORKED.glob("*.jsonl"):
        (pdir / p.name).write_bytes(p.read_bytes())
    with SessionIndex(tmp_path / "s.sqlite", root=root, names=NameStore(tmp_path / "n.json")) as idx:
        rows = {r.session_id: r for r in idx.list_sessions(all_projects=True)}
        assert rows[FORK].forked_from == PARENT and rows[PARENT].forked_from is None
        assert rows[FORK].title == rows[PARENT].title == "kw:think what is six times seven"
        assert rows[PARENT].git_branch == "HEAD"  # its folder is not on this machine: the word is kept
        idx.index_content()
        assert {h.where for h in idx.search("carefully")} == {"thinking"}
        assert {h.session_id for h in idx.search("hello-from-bash")} == {PARENT, FORK}


def test_head_is_no_branch_for_a_folder_outside_git(tmp_path: Path) -> None:
    root = tmp_path / "claude"
    project = tmp_path / "plain folder"
    project.mkdir()
    sid = "88888888-2222-3333-4444-555555555555"
    recs = turn_records(sid, None, "hi", "hello")
    for r in recs:
        r["cwd"], r["gitBranch"] = str(project), "HEAD"
    write_jsonl(root / "projects" / encode_project_dir(project) / f"{sid}.jsonl", recs)
    with SessionIndex(tmp_path / "s.sqlite", root=root, names=NameStore(tmp_path / "n.json")) as idx:
        assert idx.list_sessions(project)[0].git_branch is None
        (project / ".git").mkdir()
        os.utime(next((root / "projects").rglob("*.jsonl")), (1, 1))
        assert idx.list_sessions(project)[0].git_branch == "HEAD"  # a detached HEAD in a repository


def test_tool_output_is_found_in_the_turn_of_its_call(tmp_path: Path) -> None:
    """A tool result is a user record but no prompt: its hit names the turn of the call it answers."""
    sid = "5e55a0c0-0000-4000-8000-000000000001"
    first = turn_records(sid, None, "first prompt", "one")
    second = turn_records(sid, first[-1]["uuid"], "second prompt", "two", tool="Bash")
    path = write_jsonl(tmp_path / f"{sid}.jsonl", [*first, *second])
    docs = scan_mod.scan_file(path).docs
    turns = {d.kind: d.turn for d in docs if d.kind in ("tool", "output")}
    assert turns == {"tool": 1, "output": 1}
    assert [d.turn for d in docs if d.kind == "prompt"] == [0, 1]
