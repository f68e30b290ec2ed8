"""Two claude-tui instances on one project keep each other's prompt history and drafts (issue 28).

Real processes: the history's lock and the drafts' slots are `flock`s, which only other processes
(and other open files) can contend for.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import textwrap
from multiprocessing.synchronize import Event
from pathlib import Path

from claude_tui.store import DraftStore, PromptHistory
from claude_tui.store import history as history_module

CONTEXT = multiprocessing.get_context("spawn")  # a fresh interpreter each, as a second instance is


def _send(project: str, root: str, prompts: list[str], go: Event) -> None:
    history = PromptHistory(Path(project), Path(root))
    go.wait()
    for prompt in prompts:
        history.add(prompt)


def test_alternate_sends_from_two_instances_keep_all_four(tmp_path: Path) -> None:
    a = PromptHistory(tmp_path / "proj", tmp_path)  # both opened before either sends
    b = PromptHistory(tmp_path / "proj", tmp_path)
    for history, prompt in ((a, "a1"), (b, "b1"), (a, "a2"), (b, "b2")):
        history.add(prompt)
    assert PromptHistory(tmp_path / "proj", tmp_path).entries == ["a1", "b1", "a2", "b2"]
    # Up in the first instance walks what both sent, newest first.
    assert [a.previous(""), a.previous(""), a.previous(""), a.previous("")] == ["b2", "a2", "b1", "a1"]
    assert a.next() == "b1"


def test_many_concurrent_appends_from_two_processes_are_all_kept(tmp_path: Path) -> None:
    go = CONTEXT.Event()
    count = 300
    workers = [CONTEXT.Process(target=_send, args=(str(tmp_path / "proj"), str(tmp_path),
                                                   [f"{name}{i}" for i in range(count)], go))
               for name in ("a", "b")]
    for worker in workers:
        worker.start()
    go.set()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    entries = PromptHistory(tmp_path / "proj", tmp_path).entries
    assert sorted(entries) == sorted(f"{n}{i}" for n in "ab" for i in range(count))
    for name in "ab":  # each instance's own order survives the interleaving
        assert [e for e in entries if e.startswith(name)] == [f"{name}{i}" for i in range(count)]


def test_compaction_keeps_the_newest_entries_of_every_instance(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(history_module, "LIMIT", 10)
    a = PromptHistory(tmp_path / "proj", tmp_path)
    b = PromptHistory(tmp_path / "proj", tmp_path)
    for i in range(25):
        (a if i % 2 else b).add(f"p{i}")
    kept = PromptHistory(tmp_path / "proj", tmp_path)
    assert kept.entries == [f"p{i}" for i in range(15, 25)]
    assert len(kept.path.read_text().splitlines()) <= 20  # compacted, bounded


def test_an_older_versions_list_seeds_the_shared_file(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path / "proj", tmp_path)
    history.legacy_path.parent.mkdir(parents=True)
    history.legacy_path.write_text(json.dumps(["old one", "old two"]))
    assert PromptHistory(tmp_path / "proj", tmp_path).entries == ["old one", "old two"]
    history.add("new")
    assert PromptHistory(tmp_path / "proj", tmp_path).entries == ["old one", "old two", "new"]
    # A cut last line (a crash mid-write) costs that line only.
    with history.path.open("a") as handle:
        handle.write('"half')
    assert PromptHistory(tmp_path / "proj", tmp_path).entries == ["old one", "old two", "new"]


# -- drafts ------------------------------------------------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from claude_tui.store import DraftStore
    store = DraftStore(Path(sys.argv[1]), Path(sys.argv[2]))
    print(store.load(), flush=True)
    store.save(sys.argv[3])
    print(store.slot, flush=True)
    sys.stdin.read()  # held until the test closes stdin (or kills it)
""")


def _holder(tmp_path: Path, text: str) -> tuple[subprocess.Popen[str], str, int]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "proj"), str(tmp_path), text],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    loaded = proc.stdout.readline().rstrip("\n")
    slot = int(proc.stdout.readline())
    return proc, loaded, slot


def test_another_instances_draft_is_never_read_overwritten_or_deleted(tmp_path: Path) -> None:
    other, _, other_slot = _holder(tmp_path, "the other instance's draft")
    try:
        mine = DraftStore(tmp_path / "proj", tmp_path)
        assert mine.load() == ""  # not the other's draft
        assert mine.slot != other_slot
        mine.save("mine")
        mine.save("")  # a prompt sent here: only this draft goes
        assert DraftStore(tmp_path / "proj", tmp_path).slot_path(other_slot).read_text() == "the other instance's draft"
    finally:
        assert other.stdin is not None
        other.stdin.close()
        other.wait(timeout=30)


def test_a_dead_instances_draft_is_offered_back_to_the_next_tab(tmp_path: Path) -> None:
    first, _, _ = _holder(tmp_path, "typed before the crash")
    alive, _, alive_slot = _holder(tmp_path, "still being typed")
    first.kill()  # kill -9: its lock goes with it, its draft stays
    first.wait(timeout=30)
    try:
        recovered = DraftStore(tmp_path / "proj", tmp_path)
        assert recovered.load() == "typed before the crash"
        assert recovered.slot != alive_slot
        assert DraftStore(tmp_path / "proj", tmp_path).load() == ""  # the live one's slot is skipped
    finally:
        assert alive.stdin is not None
        alive.stdin.close()
        alive.wait(timeout=30)


def test_tabs_of_one_instance_hold_their_own_slots_until_closed(tmp_path: Path) -> None:
    one, two = DraftStore(tmp_path / "proj", tmp_path), DraftStore(tmp_path / "proj", tmp_path)
    one.save("one")
    two.save("two")
    assert (one.slot, two.slot) == (0, 1)
    assert one.load() == "one" and two.load() == "two"
    one.release()
    one.save("after closing")  # a late save of a closed tab writes nothing
    assert DraftStore(tmp_path / "proj", tmp_path).load() == "one"


# -- the other read-change-write files of the data dir ---------------------------------------------------


def _name_sessions(path: str, prefix: str, go: Event) -> None:
    from claude_tui.history.names import NameStore

    go.wait()
    for i in range(60):
        NameStore(Path(path)).set(f"{prefix}-{i}", f"name {prefix} {i}")


def _save_states(path: str, prefix: str, go: Event) -> None:
    from claude_tui.ui.app.state import save_state

    go.wait()
    for i in range(60):
        save_state({f"{prefix}-{i}": i}, Path(path))


def _at_once(target, path: Path) -> None:  # type: ignore[no-untyped-def]
    go = CONTEXT.Event()
    workers = [CONTEXT.Process(target=target, args=(str(path), prefix, go)) for prefix in ("a", "b")]
    for worker in workers:
        worker.start()
    go.set()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0


def test_two_instances_naming_sessions_at_once_keep_every_name(tmp_path: Path) -> None:
    from claude_tui.history.names import NameStore

    _at_once(_name_sessions, tmp_path / "session-names.json")
    assert len(NameStore(tmp_path / "session-names.json").all()) == 120


def test_two_instances_saving_ui_state_at_once_keep_every_key(tmp_path: Path) -> None:
    _at_once(_save_states, tmp_path / "state.json")
    assert len(json.loads((tmp_path / "state.json").read_text())) == 120
