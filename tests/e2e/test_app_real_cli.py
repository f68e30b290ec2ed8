"""The app (Pilot) against the real Claude Code CLI 2.1.330 and the local API stand-in.

Each test runs ``ClaudeTuiApp`` headless at 120x40 with the pinned CLI as its child,
presses the keys a user would, and checks the session state *and* what is rendered.
Every wait is bounded (``AppDriver.wait``); the ``app_options`` fixture fails the test
if any process the CLI started outlives it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from claude_tui.history.transcript import load_session
from claude_tui.session.items import NoteKind, TextItem, ThinkingItem, ToolState, UserItem
from claude_tui.session.replay import replay
from claude_tui.session.status import Activity
from claude_tui.transport.options import CliOptions
from claude_tui.ui.chat.rewind_files import rewind_last_prompt
from claude_tui.ui.dialogs.permission import DENY_MESSAGE, PermissionScreen
from claude_tui.ui.dialogs.plan import PlanScreen
from claude_tui.ui.dialogs.question import QuestionScreen
from claude_tui.ui.log.items import ThinkingBlock
from claude_tui.ui.panels.sidebar import TaskSidebar
from claude_tui.ui.render.diff_view import DiffView
from tests.e2e.app_driver import AppDriver, drive
from tests.e2e.conftest import A_TXT
from tests.e2e.mock_api import MockApi
from tests.e2e.mock_api_scripts import DONE_TEXT, PLAN_TEXT

Options = Callable[..., CliOptions]


def widget_text(widget: object) -> str:
    """The plain text a widget tree shows (Statics and DiffView rows), for "is it rendered" checks."""
    from textual.widget import Widget

    assert isinstance(widget, Widget)
    lines = []
    for node in (widget, *widget.walk_children(with_self=False)):
        width, height = node.size
        if not node.display or width <= 0 or height <= 0:
            continue
        for y in range(height):
            try:
                strip = node.render_line(y)
            except Exception:  # noqa: BLE001 - containers without line rendering
                break
            lines.append(strip.text)
    return "\n".join(lines)


async def ask(d: AppDriver, prompt: str, screen: type) -> object:
    """Send a prompt whose turn asks for a permission, and return the dialog once it is on top."""
    await d.send(prompt)
    return await d.wait_screen(screen)


# -- plain answers --------------------------------------------------------------------------


async def test_streamed_answer_appears_in_the_log(app_options: Options, mock_api: MockApi) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:plain hello there")
        [answer] = d.of_type(TextItem)
        assert answer.text == "Hello! You said: kw:plain hello there "
        assert not answer.streaming
        # The log mounts widgets on its own schedule: wait for it (a busy machine is slower).
        widget = await d.wait(lambda: (w := d.widget_for(answer)) is not None and w.is_mounted and w,
                              "the answer's widget mounted")
        assert widget.source.strip() == answer.text.strip()
        await d.wait_on_screen("Hello! You said: kw:plain hello there")
        status = d.conversation.status
        assert status.session_id and status.model
        assert status.cost_total > 0 and status.context_window > 0
        assert status.activity is Activity.IDLE
        assert [r.keyword for r in mock_api.messages_requests()] == ["plain"]


async def test_thinking_is_collapsed(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:think what is the answer?")
        [thought] = d.of_type(ThinkingItem)
        assert thought.text.startswith("Let me think about this carefully.")
        assert not thought.streaming
        block = d.widget_for(thought)
        assert isinstance(block, ThinkingBlock)
        assert not block.expanded and not block._body_widget.display
        text = d.texts()
        assert text == "Thought about it: **42**. "
        screen = await d.wait_on_screen("▶ Thought")
        assert "Let me think about this carefully" not in screen  # collapsed: body hidden
        assert "Thought about it: 42." in screen  # Markdown rendered (no asterisks)


async def test_a_dropped_image_reaches_the_model(app_options: Options, mock_api: MockApi,
                                                 project_dir: Path) -> None:
    import base64
    import struct
    import zlib

    from textual.events import Paste

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    pixels = zlib.compress(b"\x00\xff\x00\x00" * 1)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))
    (project_dir / "screen shot.png").write_bytes(png)
    async with drive(app_options()) as d:
        await d.type_prompt("kw:plain look ")
        # A drag and drop: the terminal pastes the quoted absolute path.
        d.app.post_message(Paste(f"'{project_dir / 'screen shot.png'}'"))
        await d.wait(lambda: d.prompt.text.endswith('@"screen shot.png" '), "the mention in the prompt")
        await d.pilot.press("enter")
        await d.wait_turns(1)
        [request] = mock_api.messages_requests()
        blocks = [b for m in request.body["messages"] if m["role"] == "user" and isinstance(m["content"], list)
                  for b in m["content"]]
        images = [b for b in blocks if b.get("type") == "image"]
        assert images, [b.get("type") for b in blocks]
        assert base64.b64decode(images[-1]["source"]["data"]) == png


# -- Bash: allow and deny -------------------------------------------------------------------


async def test_bash_allowed_with_y(app_options: Options, project_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "wire.log"
    async with drive(app_options(), debug_log=log) as d:
        dialog = await ask(d, "kw:bash please", PermissionScreen)
        assert "touch" in d.screen_text() and "Allow once" in d.screen_text()
        assert d.tool("Bash").state is ToolState.WAITING
        await d.press("y")
        await d.wait_turns(1)
        await d.wait_chat_active()
        tool = d.tool("Bash")
        assert tool.state is ToolState.DONE
        assert tool.structured["stdout"] == "hello-from-bash"
        assert tool.decision == "Allowed once"
        assert (project_dir / "touched").exists()
        assert d.texts().endswith(DONE_TEXT)
        assert d.notes(NoteKind.DECISION) == []  # shown once: on the card, not again as a note
        [answer] = [m for m in d.sent("control_response")
                    if m["response"].get("request_id") == dialog.request.request_id]
        assert answer["response"]["response"]["behavior"] == "allow"
        screen = await d.wait_on_screen("· Allowed once")  # the card's header
        assert "Bash: Allowed once" not in screen
        await d.wait_on_screen(DONE_TEXT.strip())


async def test_bash_denied_with_n(app_options: Options, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:bash please", PermissionScreen)
        await d.press("n")
        await d.wait_turns(1)
        tool = d.tool("Bash")
        assert tool.state is ToolState.DENIED
        assert DENY_MESSAGE in tool.result_text  # what the CLI handed back to the model
        assert not (project_dir / "touched").exists()
        assert d.notes(NoteKind.DECISION) == []  # the card's "⊘ denied" says it
        assert tool.decision == "Denied"
        await d.wait_on_screen("⊘ denied")
        assert d.widget_for(tool).has_class("-denied")


# -- files: Edit, Write ------------------------------------------------------------------------


async def test_edit_allowed_shows_the_real_structured_patch(app_options: Options, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:edit the file", PermissionScreen)
        await d.press("y")
        await d.wait_turns(1)
        await d.wait_chat_active()
        tool = d.tool("Edit")
        assert tool.state is ToolState.DONE
        patch = tool.structured["structuredPatch"]
        assert patch[0]["lines"] == [" alpha", "-beta", "+BETA", " gamma"]  # from the real CLI
        assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\n"
        card = d.widget_for(tool)
        await d.wait(lambda: card.query(DiffView), "a DiffView in the Edit card")
        [diff] = card.query(DiffView)
        await d.pilot.pause()
        shown = widget_text(diff)
        assert "BETA" in shown and "beta" in shown, shown
        await d.wait_on_screen("BETA")


async def test_rewind_puts_the_edited_file_back(app_options: Options, project_dir: Path) -> None:
    from claude_tui.ui.dialogs.rewind import RewindScreen

    async with drive(app_options()) as d:
        await ask(d, "kw:edit the file", PermissionScreen)
        await d.press("y")
        await d.wait_turns(1)
        await d.wait_chat_active()
        assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\n"
        [prompt] = [i for i in d.items if isinstance(i, UserItem)]
        assert prompt.uuid, "the CLI's echo (--replay-user-messages) gives the prompt its uuid"
        rewind_last_prompt(d.chat)
        dialog = await d.wait_screen(RewindScreen)
        assert dialog.files == [str(project_dir / "a.txt")]  # the real CLI's dry run
        assert (dialog.insertions, dialog.deletions) == (1, 1)
        await d.press("y")
        await d.wait(lambda: (project_dir / "a.txt").read_text() == A_TXT, "a.txt rewound")
        await d.wait_on_screen("Rewound 1 file to before")


async def test_write_creates_a_file(app_options: Options, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:write a new file", PermissionScreen)
        await d.press("y")
        await d.wait_turns(1)
        tool = d.tool("Write")
        assert tool.state is ToolState.DONE
        assert tool.structured["type"] == "create"
        assert tool.structured["structuredPatch"] == []  # the real CLI sends no hunks for a new file
        assert (project_dir / "new.txt").read_text() == "line1\nline2\n"
        await d.wait_on_screen("new.txt (2 lines)")


async def test_write_create_card_shows_the_new_content(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:write a new file", PermissionScreen)
        await d.press("y")
        await d.wait_turns(1)
        card = d.widget_for(d.tool("Write"))
        await d.wait(lambda: card.query(DiffView), "a DiffView in the Write (create) card", 5)
        await d.wait_on_screen("line2", 5)


async def test_write_overwrites_a_file(app_options: Options, project_dir: Path) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:overwrite a.txt", PermissionScreen)
        await d.press("y")
        await d.wait_turns(1)
        await d.wait_chat_active()
        tool = d.tool("Write")
        assert tool.state is ToolState.DONE
        assert tool.structured["type"] == "update" and tool.structured["originalFile"] == A_TXT
        assert (project_dir / "a.txt").read_text() == "alpha\nBETA\ngamma\ndelta\n"
        card = d.widget_for(tool)
        await d.wait(lambda: card.query(DiffView), "a DiffView in the Write card")
        await d.pilot.pause()
        shown = widget_text(card.query_one(DiffView))
        assert "delta" in shown and "BETA" in shown, shown


# -- AskUserQuestion and plans --------------------------------------------------------------------


async def test_ask_single_question(app_options: Options, mock_api: MockApi) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:ask me", QuestionScreen)
        assert "Which color?" in d.screen_text()
        await d.press("2")  # Blue
        await d.press("enter")  # → review
        assert "Blue" in d.screen_text()
        await d.press("enter")  # send
        await d.wait_turns(1)
        tool = d.tool("AskUserQuestion")
        assert tool.state is ToolState.DONE
        assert tool.structured["answers"] == {"Which color?": "Blue"}  # the CLI got our answer
        assert '"Which color?"="Blue"' in tool.result_text
        assert any('"Which color?"="Blue"' in str(r.body["messages"]) for r in mock_api.messages_requests())


async def test_ask_two_questions_with_multiselect(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await ask(d, "kw:multiq please", QuestionScreen)
        await d.press("1")  # Red
        await d.press("enter")  # next question
        assert "Which toppings?" in d.screen_text()
        await d.press("1", "3")  # Cheese + Basil
        await d.press("enter")  # → review
        review = d.screen_text()
        assert "Cheese, Basil" in review and "Red" in review
        await d.press("enter")  # send
        await d.wait_turns(1)
        tool = d.tool("AskUserQuestion")
        assert tool.state is ToolState.DONE
        assert tool.structured["answers"] == {"Which color?": "Red", "Which toppings?": "Cheese, Basil"}


async def test_plan_approved_with_y(app_options: Options) -> None:
    async with drive(app_options(permission_mode="plan")) as d:
        assert d.conversation.status.permission_mode in ("plan", "default")
        dialog = await ask(d, "kw:plan it", PlanScreen)
        assert d.conversation.status.permission_mode == "plan"
        assert dialog.request.plan == PLAN_TEXT  # taken from the assistant's tool_use
        await d.wait_on_screen("Fix the bug")
        await d.press("y")
        await d.wait_turns(1)
        tool = d.tool("ExitPlanMode")
        assert tool.state is ToolState.DONE and tool.decision == "Plan approved; asking each time"
        await d.wait(lambda: d.conversation.status.permission_mode == "default", "the CLI to leave plan mode")
        assert d.texts().endswith(DONE_TEXT)


async def test_plan_approved_with_y_after_accept_edits_goes_back_to_asking(app_options: Options) -> None:
    # Issue 14: acceptEdits, then plan, then y on the plan. Left alone, the CLI restores acceptEdits
    # (edits would then run unasked); y must leave plan mode for default, as the dialog says.
    async with drive(app_options()) as d:
        await d.wait(lambda: d.chat.session.connection.alive and d.conversation.commands, "the CLI to be ready")
        d.chat.controls.set_mode("acceptEdits")
        await d.wait(lambda: d.conversation.status.permission_mode == "acceptEdits", "acceptEdits")
        d.chat.controls.set_mode("plan")
        await d.wait(lambda: d.conversation.status.permission_mode == "plan", "plan mode")
        await ask(d, "kw:plan it", PlanScreen)
        await d.wait_on_screen("Approve, then ask each time (default)")
        await d.press("y")
        await d.wait_turns(1)
        assert d.tool("ExitPlanMode").decision == "Plan approved; asking each time"
        await d.wait(lambda: d.conversation.status.permission_mode == "default", "default mode after the plan")


# -- interrupts ---------------------------------------------------------------------------------


async def test_escape_interrupts_a_stream_and_keeps_the_draft(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.send("kw:slow story")
        await d.wait(lambda: "word5 " in d.texts(), "the slow stream to start")
        await d.type_prompt("my draft")
        await d.press("escape")
        await d.wait_turns(1)
        assert [n for n in d.notes(NoteKind.INTERRUPT)], d.dump()
        assert d.conversation.status.activity is Activity.IDLE
        assert "word299" not in d.texts()  # the stream really stopped
        assert d.prompt.text == "my draft"
        await d.type_prompt(" and more")
        await d.pilot.pause(0.3)
        assert d.prompt.text == "my draft and more"
        await d.wait_on_screen("my draft and more")
        # the session goes on after an interrupt
        await d.turn("kw:plain after the interrupt")
        assert d.texts().endswith("kw:plain after the interrupt ")


async def test_interrupt_during_a_pending_permission_closes_the_dialog(
        app_options: Options, project_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "wire.log"
    async with drive(app_options(), debug_log=log) as d:
        dialog = await ask(d, "kw:edit the file", PermissionScreen)
        request_id = dialog.request.request_id
        # Esc on the dialog itself means "deny"; the interrupt comes from the chat screen's action.
        await d.chat.run_action("interrupt")
        await d.wait_chat_active()
        assert dialog.cancel_reason == "cancelled"
        await d.wait_turns(1)
        cancels = [m for m in d.wire("<<") if m.get("type") == "control_cancel_request"]
        assert [c["request_id"] for c in cancels] == [request_id]
        answered = [m for m in d.sent("control_response") if m["response"].get("request_id") == request_id]
        assert answered == []  # nothing was answered for the withdrawn request
        assert (project_dir / "a.txt").read_text() == A_TXT
        assert d.tool("Edit").state in (ToolState.INTERRUPTED, ToolState.ERROR, ToolState.DENIED)
        assert not d.notes(NoteKind.DECISION)
        assert d.conversation.status.activity is Activity.IDLE


# -- subagents and tasks ----------------------------------------------------------------------


async def test_background_subagent_in_the_sidebar(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.send("kw:agent go")
        await d.wait(lambda: any(isinstance(i, TextItem) and "Subagent here" in i.text
                                 for log in d.conversation.subagents.values() for i in log.items),
                     "the subagent's text in its transcript")
        [task] = d.tools("Task") or d.tools("Agent")
        assert task.tool_use_id in d.conversation.subagents
        # the CLI starts a turn of its own once the agent is done: two results in all
        await d.wait_turns(2, timeout=60)
        agents = list(d.conversation.tasks.agents.values())
        assert agents and agents[0].tool_use_id == task.tool_use_id
        await d.wait(lambda: agents[0].status == "completed", "the agent to complete")
        sidebar = d.chat.query_one("#sidebar", TaskSidebar)
        assert sidebar.display
        await d.wait_on_screen("Explore tree")
        # nothing of the subagent leaks into the main log
        assert "Subagent here" not in d.texts()


async def test_task_tools_fill_the_sidebar(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:tasks do the work")
        board = d.conversation.tasks
        assert {t.subject: t.status for t in board.visible_tasks} == {
            "Read the code": "completed", "Fix the bug": "in_progress"}
        sidebar = d.chat.query_one("#sidebar", TaskSidebar)
        assert sidebar.display
        screen = await d.wait_on_screen("Fix the bug")
        assert "Read the code" in screen
        assert d.texts().endswith("Tasks handled. ")


# -- local commands ---------------------------------------------------------------------------


async def test_cost_note_and_the_context_screen(app_options: Options, mock_api: MockApi) -> None:
    from claude_tui.ui.manage.context import ContextScreen
    from tests.e2e.test_manage_real_cli import open_screen

    async with drive(app_options()) as d:
        await d.turn("/cost")
        await d.wait(lambda: any("Estimated cost" in n.text for n in d.notes(NoteKind.LOCAL_COMMAND)),
                     "the /cost note")
        assert d.of_type(TextItem) == []  # synthetic replies are notes, not assistant text
        # /context opens claude-tui's own screen (get_context_usage), not the CLI's Markdown note.
        await open_screen(d, "/context", ContextScreen)
        await d.wait_on_screen("Free space:")
        assert not any("Context Usage" in n.text for n in d.notes(NoteKind.LOCAL_COMMAND))
        assert mock_api.messages_requests() == []


# -- API errors ----------------------------------------------------------------------------------


async def test_api_error_is_retried_and_shown(app_options: Options, mock_api: MockApi) -> None:
    async with drive(app_options()) as d:
        d.record_status()
        await d.turn("kw:retry now", timeout=60)
        retrying = [s for s in d.status_log if "retrying" in s]
        assert retrying, d.status_log
        assert any(re.search(r"retrying 1 of \d+ \(529\)", s) for s in retrying), retrying
        assert d.texts() == "Recovered after retries. "
        assert "retrying" not in d.status_log[-1]
        assert [r.status for r in mock_api.messages_requests()] == [529, 529, 200]


async def test_authentication_failure_is_shown_as_an_error(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:autherr now")
        errors = d.notes(NoteKind.ERROR)
        assert any("Invalid API key" in n.text for n in errors), d.dump()
        assert d.of_type(TextItem) == []
        screen = await d.wait_on_screen("✖ Authentication failed")
        assert "Invalid API key" in screen
        assert d.conversation.status.activity is Activity.IDLE


async def test_authentication_failure_says_authentication_once(app_options: Options) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:autherr now")
        notes = [n for n in d.notes() if "Invalid API key" in n.text or "uthentication" in n.text]
        assert len(notes) == 1, d.dump()
        assert notes[0].kind is NoteKind.ERROR
        assert "authentication" in notes[0].text.lower()


# -- resume ----------------------------------------------------------------------------------------


async def test_resume_the_session_the_cli_wrote(app_options: Options, config_dir: Path, project_dir: Path,
                                                tmp_path: Path, mock_api: MockApi) -> None:
    async with drive(app_options()) as d:
        await d.turn("kw:plain first run")
        session_id = d.conversation.status.session_id
        assert session_id
        session = d.chat.session
        await d.press("ctrl+q")
        await d.wait(lambda: d.app._exit, "the app to quit (ctrl+q)", 15)  # after the CLI closed
        assert session.connection.client is None

    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(project_dir))
    path = config_dir / "projects" / encoded / f"{session_id}.jsonl"
    assert path.is_file(), list(config_dir.rglob("*.jsonl"))
    transcript = load_session(session_id, root=config_dir, cwd=project_dir)
    assert transcript is not None and transcript.path == path
    conversation = replay(transcript.records, transcript.subagents, session_id=session_id)
    assert any(isinstance(i, UserItem) and i.text == "kw:plain first run" for i in conversation.items)

    log = tmp_path / "wire2.log"
    async with drive(app_options(resume=session_id), conversation=conversation, debug_log=log) as d:
        screen = await d.wait_on_screen("Hello! You said: kw:plain first run")
        assert "kw:plain first run" in screen
        await d.turn("kw:plain second run")
        inits = [m for m in d.wire("<<") if m.get("type") == "system" and m.get("subtype") == "init"]
        assert inits and {m["session_id"] for m in inits} == {session_id}
        assert d.conversation.status.session_id == session_id
        assert d.texts() == "Hello! You said: kw:plain first run Hello! You said: kw:plain second run "
        await d.wait_on_screen("Hello! You said: kw:plain second run")
    last = mock_api.messages_requests()[-1].body
    assert "kw:plain first run" in str(last["messages"])  # the history reached the API


async def test_clear_resets_the_clis_cost_counter_but_not_the_sessions_total(app_options: Options) -> None:
    # The real CLI restarts total_cost_usd at 0 after /clear (and sends conversation_reset):
    # the status bar keeps counting from what was already spent.
    async with drive(app_options()) as d:
        await d.turn("kw:plain one")
        one = d.conversation.status.cost_total
        assert one > 0
        await d.turn("/clear")
        await d.wait(lambda: any("cleared" in n.text.lower() for n in d.notes()), "the cleared note")
        assert d.conversation.status.cost_total == pytest.approx(one)
        await d.turn("kw:plain two")
        status = d.conversation.status
        assert status.cost_total == pytest.approx(2 * one), "the second turn counts on top"
        assert status.cost_last_turn == pytest.approx(one)
