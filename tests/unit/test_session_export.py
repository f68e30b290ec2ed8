"""The live-session exporter (Markdown/JSON), copy helpers, and `claude-tui export` on a fixture tree."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claude_tui.session.export import code_blocks, find_items, item_text, last_answer, to_json, to_markdown, tool_output
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.status import SessionStatus
from tests.conftest import FIXTURES

ANSWER = "Here it is:\n\n```python\ndef f():\n    return 1\n```\n\nand a shell one:\n\n~~~\nls -la\n~~~\n"


def _items() -> list:
    bash = ToolItem(tool_use_id="t1", name="Bash", input={"command": "echo hi"}, state=ToolState.DONE,
                    structured={"stdout": "hi\n", "stderr": ""}, result_text="hi")
    return [UserItem(text="Please  run\n  this"), ThinkingItem(text="secret reasoning"), bash,
            TextItem(text=ANSWER), NoteItem(kind=NoteKind.LOCAL_COMMAND, title="Cost", text="$0.01")]


def test_markdown_has_prompts_answers_and_tool_output() -> None:
    status = SessionStatus(session_id="abc", model="opus", cost_total=0.0123)
    text = to_markdown(_items(), status)
    assert text.startswith("# Claude Code session")
    assert "- Session: `abc`" in text and "- Cost: $0.0123" in text
    assert "## Turn 1\n\n### You\n\n> Please  run\n>   this\n" in text  # quoted, whitespace kept
    # Thinking opens Claude's part: it goes under Claude's heading, folded.
    assert "### Claude\n\n<details><summary>Thinking</summary>\n\n```\nsecret reasoning\n```\n\n</details>" in text
    assert "#### Bash (done)\n\n```bash\necho hi\n```\n\nOutput:\n\n```text\nhi\n```" in text
    assert ANSWER.rstrip("\n") in text
    assert "secret reasoning" not in to_markdown(_items(), include_thinking=False)
    assert "> Cost: $0.01" in text


def test_markdown_a_tool_call_opening_the_answer_is_claudes_and_turns_count() -> None:
    items = [UserItem(text="one"), ToolItem(name="Bash", input={"command": "ls"}, state=ToolState.DONE),
             UserItem(text="two"), TextItem(text="ok")]
    text = to_markdown(items)
    assert text.index("## Turn 1") < text.index("### You") < text.index("### Claude") < text.index("#### Bash")
    assert "## Turn 2\n\n### You\n\n> two\n\n### Claude\n\nok" in text
    assert [e["turn"] for e in json.loads(to_json(items))["items"]] == [1, 1, 2, 2]


def test_markdown_long_output_is_cut_with_a_marker_and_diffs_are_fenced() -> None:
    from claude_tui.diff.compute import preview_edit

    long = "\n".join(f"line {i}" for i in range(500))
    bash = ToolItem(name="Bash", input={"command": "seq"}, state=ToolState.DONE, result_text=long)
    edit = ToolItem(name="Edit", input={"file_path": "/p/a.txt", "old_string": "beta", "new_string": "BETA"},
                    state=ToolState.DONE, result_text="The file /p/a.txt has been updated.")
    edit.diff = preview_edit("alpha\nbeta\ngamma\n", "beta", "BETA", path="/p/a.txt")
    text = to_markdown([UserItem(text="go"), bash, edit])
    assert "line 79\n```" in text and "line 80" not in text
    assert "*… output truncated: 420 more lines not shown" in text
    assert "```diff\n--- a/p/a.txt\n+++ b/p/a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n```" in text
    data = json.loads(to_json([UserItem(text="go"), bash, edit]))
    assert data["items"][1]["output_truncated"].startswith("… output truncated")
    assert data["items"][2]["diff"].startswith("--- a/p/a.txt")


def test_markdown_fences_survive_backticks_in_output() -> None:
    tool = ToolItem(name="Read", input={"file_path": "x.md"}, state=ToolState.DONE, result_text="```\ncode\n```")
    text = to_markdown([tool])
    assert "````text\n```\ncode\n```\n````" in text


def test_json_round_trips() -> None:
    data = json.loads(to_json(_items(), SessionStatus(session_id="abc")))
    assert data["session"]["session_id"] == "abc"
    assert [entry["type"] for entry in data["items"]] == ["user", "thinking", "tool", "assistant", "note"]
    assert data["items"][2]["output"] == "hi"
    assert data["items"][3]["text"] == ANSWER


def test_copy_helpers_use_raw_text() -> None:
    items = _items()
    assert last_answer(items) is items[3]
    assert item_text(items[0]) == "Please  run\n  this"
    assert tool_output(items[2]) == "hi"
    assert code_blocks(ANSWER) == ["def f():\n    return 1", "ls -la"]
    assert code_blocks("```\nunclosed\nstill") == ["unclosed\nstill"]
    assert code_blocks("no code") == []
    error = ToolItem(name="Edit", state=ToolState.ERROR, result_text="<tool_use_error>nope</tool_use_error>")
    assert tool_output(error) == "nope"


def test_find_items_searches_tool_input_and_output() -> None:
    items = _items()
    assert find_items(items, "ECHO") == [items[2].id]
    assert find_items(items, "return 1") == [items[3].id]
    assert find_items(items, "zzz") == []


@pytest.fixture
def config_tree(tmp_path: Path) -> Path:
    root = tmp_path / "claude"
    shutil.copytree(FIXTURES / "sessions", root / "projects")
    return root


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_cli_export_against_a_config_tree(config_tree: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(config_tree), "PATH": "/usr/bin:/bin"}
    import os

    for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"):
        if var in os.environ:
            env[var] = os.environ[var]
    run = subprocess.run([sys.executable, "-m", "claude_tui.cli", "export", "1371d147-61d8-4b34-beff-86ba0e32e82d",
                          "--format", fmt], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    if fmt == "md":
        assert "kw:edit the file" in run.stdout and "### Claude" in run.stdout
    else:
        assert json.loads(run.stdout)
    missing = subprocess.run([sys.executable, "-m", "claude_tui.cli", "export", "00000000-0000-0000-0000-000000000000"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode == 1 and "no session" in missing.stderr


def test_markdown_a_prompt_cannot_restructure_the_document() -> None:
    """A prompt's own headings and an unclosed fence stay inside its quote (they are the user's text)."""
    items = [UserItem(text="# Not a turn\n```\nunclosed"), TextItem(text="answer"),
             UserItem(text="next")]
    text = to_markdown(items)
    assert "\n# Not a turn" not in text and "> # Not a turn" in text
    assert "> ```\n> unclosed\n" in text
    assert "## Turn 2\n\n### You\n\n> next" in text


def test_find_sees_a_diffs_context_lines_not_only_the_changed_ones() -> None:
    # Defect 6: the card shows " alpha" and " gamma" around the change; find looked only at the
    # input (old/new strings) and the result text, so a context line on screen was not found.
    edit = ToolItem(name="Edit", state=ToolState.DONE, result_text="The file a.txt has been updated successfully.",
                    input={"file_path": "/p/a.txt", "old_string": "beta", "new_string": "BETA"},
                    structured={"filePath": "/p/a.txt", "structuredPatch": [
                        {"oldStart": 1, "oldLines": 3, "newStart": 1, "newLines": 3,
                         "lines": [" alpha context", "-beta", "+BETA", " gamma context"]}]})
    assert find_items([edit], "gamma context") == [edit.id]
    assert find_items([edit], "alpha context") == [edit.id]
    assert find_items([edit], "-beta") == []  # the diff's markers are not text
