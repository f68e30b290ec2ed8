"""Find keeps each item's searchable text between keystrokes, and still sees every change."""

from __future__ import annotations

import gc

import pytest

from claude_tui import protocol as p
from claude_tui.session import content, export
from claude_tui.session.export import find_items
from claude_tui.session.items import Item, NoteItem, TextItem, ThinkingItem, ToolItem, ToolState, UserItem


def items() -> list[Item]:
    return [
        UserItem(text="Please look at the Parser"),
        ToolItem(tool_use_id="t1", name="Bash", input={"command": "grep -rn parse src"}, state=ToolState.DONE,
                 structured={"stdout": "src/a.py:1: def parse()", "stderr": ""}, result_text="ok"),
        ToolItem(tool_use_id="t2", name="Write", input={"file_path": "/x/notes.md", "content": "Zebra notes"},
                 state=ToolState.DONE, result_text="File created"),
        TextItem(text="The parser keeps state."),
        NoteItem(title="Cost", text="$0.01"),
    ]


def ids(found: list[str], log: list[Item]) -> list[int]:
    index = {item.id: n for n, item in enumerate(log)}
    return [index[item_id] for item_id in found]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[Item]:
    """The items whose searchable text was built (the slow part: JSON of inputs, outputs)."""
    built: list[Item] = []
    original = export.searchable_text

    def spy(item: Item) -> str:
        built.append(item)
        return original(item)

    monkeypatch.setattr(export, "searchable_text", spy)
    return built


def test_typing_a_query_builds_each_items_text_once(counted: list[Item]) -> None:
    log = items()
    for query in ("p", "pa", "par", "pars", "parse", "parser"):
        find_items(log, query)
    assert len(counted) == len(log), "built on the first key only"
    assert ids(find_items(log, "PARSER"), log) == [0, 3]
    assert ids(find_items(log, "zebra"), log) == [2]
    assert ids(find_items(log, "grep -rn"), log) == [1]
    assert len(counted) == len(log)


def test_extending_backspacing_and_shortening_give_the_same_answers_as_a_fresh_search() -> None:
    log = items()
    queries = ["s", "st", "sta", "stat", "state", "stat", "sr", "src", "src/", "s", "e", "es", "est", "t"]
    for query in queries:
        expected = [item.id for item in log if query.casefold() in export.searchable_text(item).casefold()]
        assert find_items(log, query) == expected, query


def test_a_changed_item_is_searched_again_even_when_the_query_only_grew() -> None:
    log = items()
    assert find_items(log, "walr") == []
    text = log[3]
    assert isinstance(text, TextItem)
    text.text += " A walrus appears."  # a confirmed answer replaces the streamed text
    assert ids(find_items(log, "walru"), log) == [3]

    tool = log[2]
    assert isinstance(tool, ToolItem)
    assert find_items(log, "permission den") == []
    tool.result_text = "Permission denied"  # the result arrives after the first search
    assert ids(find_items(log, "permission deni"), log) == [2]

    tool.input = {**tool.input, "file_path": "/x/moved.md"}  # an edited input (allow with changes)
    assert ids(find_items(log, "moved.md"), log) == [2]
    assert find_items(log, "notes.md") == []


def test_streamed_text_is_found_as_it_arrives() -> None:
    item = ThinkingItem(streaming=True)
    log: list[Item] = [item]
    assert find_items(log, "hyp") == []
    content.apply_delta(item, p.ThinkingDelta(type="thinking_delta", thinking="a hypothesis"))
    assert find_items(log, "hypo") == [item.id]


def test_the_cache_goes_with_the_items() -> None:
    log = items()
    find_items(log, "x")
    assert all(item in export._searched for item in log)
    del log
    gc.collect()
    assert not any(isinstance(item, UserItem) and item.text == "Please look at the Parser"
                   for item in export._searched.keys())
