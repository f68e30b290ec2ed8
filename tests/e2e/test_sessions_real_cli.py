"""Issue 18 against the real CLI 2.1.330's own transcripts: decisions survive a resume, the
session is found by its short id and its title, search finds what was on screen, the export
reads as the session did, and a fork is listed as the fork of its parent."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from claude_tui.history.commands import export_command, sessions_command
from claude_tui.history.index import SessionIndex
from claude_tui.history.names import NameStore
from claude_tui.history.resolve import resolve_session
from claude_tui.resume import load_conversation
from claude_tui.session.items import ToolItem
from claude_tui.transport.options import CliOptions
from claude_tui.ui.dialogs.permission import PermissionScreen
from claude_tui.ui.dialogs.question import QuestionScreen
from tests.e2e.app_driver import drive
from tests.e2e.test_resume_real_cli import quit_app, transcript_path

Options = Callable[..., CliOptions]


async def test_decisions_search_names_export_and_forks(app_options: Options, config_dir: Path, project_dir: Path,
                                                      tmp_path: Path) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:think what is six times seven")
        await d.send("kw:bash now run it")
        await d.wait_screen(PermissionScreen)
        await d.press("y")
        await d.wait_turns(2)
        await d.send("kw:ask me")
        await d.wait_screen(QuestionScreen)
        await d.press("1", "enter", "enter")  # Red, review, send
        await d.wait_turns(3)
        live = {t.name: t.decision for t in d.of_type(ToolItem)}
        parent = d.conversation.status.session_id
        await d.chat.controls.fork_session()  # what the palette's "Fork this session" runs
        await d.wait(lambda: d.conversation.status.session_id == "", "the fork started")
        await d.turn("kw:plain and now in the fork")
        fork = d.conversation.status.session_id
        await quit_app(d)
    assert live == {"Bash": "Allowed once", "AskUserQuestion": "Answered — Color: Red"}
    assert fork and fork != parent

    # 1. the resumed cards say what the live ones said
    path = transcript_path(config_dir, project_dir, parent)
    resumed = load_conversation(parent, path=path)
    assert {t.name: t.decision for t in resumed.items if isinstance(t, ToolItem)} == live

    with SessionIndex(tmp_path / "index.sqlite", root=config_dir, names=NameStore(tmp_path / "n.json")) as index:
        # 2. names: the 8 characters the app shows, the first prompt (shared by the fork: both listed)
        assert resolve_session(parent[:8], index).session_id == parent
        both = resolve_session("kw:think what is six times seven", index)
        assert {r.session_id for r in both.candidates} == {parent, fork}
        # 3. lineage and stable titles
        rows = {r.session_id: r for r in index.list_sessions(project_dir)}
        assert rows[fork].forked_from == parent and rows[parent].forked_from is None
        assert rows[parent].title == rows[fork].title == "kw:think what is six times seven"
        assert rows[parent].git_branch is None  # the project folder is no git repository
        out = io.StringIO()
        sessions_command(False, 10, True, project_dir, out, index=index)
        assert f'"forked_from": "{parent}"' in out.getvalue()
        # 4. search over what was on screen, saying where
        index.index_content()
        where = {q: {h.where for h in index.search(q, index.project_dirs(project_dir)) if h.session_id == parent}
                 for q in ("hello-from-bash", "touched", "carefully", "Red")}
        assert where["hello-from-bash"] >= {"Bash call", "Bash output"}
        assert "Bash call" in where["touched"] and where["carefully"] == {"thinking"}
        assert "AskUserQuestion output" in where["Red"]
        # 5. the export
        md = io.StringIO()
        assert export_command(parent[:8], "md", md, index=index) == 0
    text = md.getvalue()
    assert text.index("## Turn 1") < text.index("### You") < text.index("### Claude") < text.index("<details>")
    assert "#### Bash" in text and "hello-from-bash" in text and "*Allowed once*" in text
    assert "*Answered — Color: Red*" in text


async def test_resume_by_the_short_id_the_app_shows(app_options: Options, config_dir: Path, project_dir: Path,
                                                    monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`--resume 77ef46a8` used to reach the CLI as is ("not a UUID"); now the CLI gets the full id."""
    from claude_tui.cli import parse_app_args
    from claude_tui.ui.app.launch import resolve_resume

    async with drive(app_options()) as d:
        await d.turn("kw:plain remember the word platypus")
        session_id = d.conversation.status.session_id
        await quit_app(d)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config_dir))
    options = app_options()
    args = parse_app_args(["--resume", session_id[:8], "--cwd", str(project_dir)])
    assert resolve_resume(args, options) == "" and options.resume == session_id
    conversation = load_conversation(session_id, path=transcript_path(config_dir, project_dir, session_id))
    async with drive(options, conversation=conversation) as d:
        await d.turn("kw:plain and again")
        assert d.conversation.status.session_id == session_id  # the CLI resumed it
        assert not [e for e in d.conversation.items if "not a UUID" in getattr(e, "text", "")]
