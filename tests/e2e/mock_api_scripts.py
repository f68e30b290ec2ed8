"""Scripted replies for the Messages API stand-in (see ``mock_api.py``).

A reply is chosen from the *latest prompt* of the conversation the CLI sends:
the last user message that carries human text (not only tool results or
``<system-reminder>`` blocks).  A ``kw:NAME`` token in that text selects the
script ``SCRIPTS[NAME]``; ``step`` counts the assistant messages the
conversation already holds after that prompt, so a script can answer a
``tool_result`` with its next move.  Unknown prompts get the ``plain`` echo.

The scripts mirror what the stand-in behind the recordings in
``tests/fixtures/claude-code-2.1.330`` answered, with file paths inside the
project directory of the request (read from the CLI's environment block).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

KEYWORD = re.compile(r"\bkw:([a-z_]+)")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>\s*", re.S)
_CWD = re.compile(r"Primary working directory: (\S[^\n]*)")

DONE_TEXT = "All done. The tool ran. "
SUBAGENT_PROMPT = "kw:subagent explore the tree"
ESCAPE_TEXT = (
    "Here is \x1b]52;c;cHduZWQ=\x07 and [@click=app.quit]click[/] and "
    "[bold red]markup[/] \x1b[31mred\x1b[0m and bidi \u202eevil\u202c\u2067x\u2069 end. "
)
PLAN_TEXT = "## Plan\n\n1. Read the code\n2. Fix the bug\n3. Run tests"
COLOR_Q = {
    "question": "Which color?",
    "header": "Color",
    "multiSelect": False,
    "options": [
        {"label": "Red", "description": "warm"},
        {"label": "Blue", "description": "cool"},
    ],
}
TOPPINGS_Q = {
    "question": "Which toppings?",
    "header": "Toppings",
    "multiSelect": True,
    "options": [
        {"label": "Cheese", "description": "classic"},
        {"label": "Olives", "description": "salty"},
        {"label": "Basil", "description": "fresh"},
    ],
}


@dataclass
class Reply:
    """What the stand-in answers: content blocks streamed as SSE, or an HTTP error."""

    blocks: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str = "end_turn"
    delay: float = 0.0  # seconds between deltas
    status: int = 200
    error_type: str = ""
    error_message: str = ""
    headers: dict[str, str] = field(default_factory=dict)


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def thinking(t: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": t, "signature": "c2ln"}


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": inp}


def error(status: int, etype: str, message: str) -> Reply:
    return Reply(status=status, error_type=etype, error_message=message)


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content or [] if b.get("type") == "text"]


@dataclass
class RequestView:
    """The parts of a ``/v1/messages`` body the scripts look at."""

    body: dict[str, Any]
    default_project: str = ""
    attempt: int = 1  # how many times this very prompt was requested (retries)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    def _prompt_index(self) -> int:
        msgs = self.messages
        for i in range(len(msgs) - 1, -1, -1):
            if msgs[i].get("role") == "user" and self.human_text(msgs[i]):
                return i
        return -1

    @staticmethod
    def human_text(message: dict[str, Any]) -> str:
        return " ".join(_REMINDER.sub("", t).strip() for t in _texts(message)).strip()

    @property
    def prompt(self) -> str:
        i = self._prompt_index()
        return self.human_text(self.messages[i]) if i >= 0 else ""

    @property
    def keyword(self) -> str:
        m = KEYWORD.search(self.prompt)
        return m.group(1) if m else ""

    @property
    def step(self) -> int:
        i = self._prompt_index()
        return sum(1 for m in self.messages[i + 1 :] if m.get("role") == "assistant")

    @property
    def system_text(self) -> str:
        system = self.body.get("system") or []
        parts = [system] if isinstance(system, str) else [b.get("text", "") for b in system]
        parts += [t for m in self.messages if m.get("role") == "system" for t in _texts(m)]
        return "\n".join(parts)

    @property
    def project(self) -> str:
        m = _CWD.search(self.system_text)
        return m.group(1).strip() if m else self.default_project

    @property
    def is_subagent(self) -> bool:
        """Subagent requests carry ``cc_is_subagent=true`` in the CLI's billing system block
        (and an ``x-claude-code-agent-id`` header); our agent script also gives them its prompt."""
        return "cc_is_subagent=true" in self.system_text or SUBAGENT_PROMPT in self.prompt

    @property
    def prompt_key(self) -> str:
        """Identifies one prompt of one session, so retries can be counted."""
        meta = (self.body.get("metadata") or {}).get("user_id", "")
        return json.dumps([meta, self._prompt_index(), self.prompt, self.step])


Script = Callable[[RequestView], Reply]


def plain(v: RequestView) -> Reply:
    return Reply([text(f"Hello! You said: {v.prompt} ")])


def think(v: RequestView) -> Reply:
    return Reply(
        [
            thinking("Let me think about this carefully. First, the question asks for a number. "),
            text("Thought about it: **42**. "),
        ]
    )


def _tool_then_done(*blocks: dict[str, Any]) -> Script:
    def script(v: RequestView) -> Reply:
        if v.step == 0:
            return Reply(list(blocks), stop_reason="tool_use")
        return Reply([text(DONE_TEXT)])

    return script


def bash(v: RequestView) -> Reply:
    cmd = f"touch {v.project}/touched && echo hello-from-bash"
    return _tool_then_done(
        text("I will run a command. "),
        tool("Bash", command=cmd, description="Touch a file and greet"),
    )(v)


HIDDEN_TAIL = "touch PWNED"


def hiddenbash(v: RequestView) -> Reply:
    """Issue 28, item 2: `echo hello`, two hundred newlines, then what really runs."""
    cmd = "echo hello" + "\n" * 200 + f"touch {v.project}/PWNED"
    return _tool_then_done(tool("Bash", command=cmd, description="Greet"))(v)


def longbash(v: RequestView) -> Reply:
    """A 60-line script that cannot fit a dialog: its last line is what runs last."""
    lines = [f"echo step {n}" for n in range(1, 61)]
    cmd = "\n".join([*lines, f"touch {v.project}/PWNED"])
    return _tool_then_done(tool("Bash", command=cmd, description="A long script"))(v)


def edit(v: RequestView) -> Reply:
    path = f"{v.project}/a.txt"
    return _tool_then_done(
        tool("Edit", replace_all=False, file_path=path, old_string="beta", new_string="BETA")
    )(v)


def readedit(v: RequestView) -> Reply:
    """Read, then the same Edit as `edit`: CLIs before 2.1.x refuse an Edit of a file not read first."""
    path = f"{v.project}/a.txt"
    if v.step == 0:
        return Reply([tool("Read", file_path=path)], stop_reason="tool_use")
    if v.step == 1:
        return Reply([tool("Edit", replace_all=False, file_path=path, old_string="beta", new_string="BETA")],
                     stop_reason="tool_use")
    return Reply([text(DONE_TEXT)])


TWO_HUNK_BEFORE = "".join(f"line {n}\n" for n in range(1, 21))
"""`kw:twohunk`'s file (`two.txt`, the test writes it): twenty lines."""
TWO_HUNK_AFTER = TWO_HUNK_BEFORE.replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n")


def twohunk(v: RequestView) -> Reply:
    """Read `two.txt`, then one Edit that changes lines 2 and 18: two hunks (fifteen lines apart)."""
    path = f"{v.project}/two.txt"
    if v.step == 0:
        return Reply([tool("Read", file_path=path)], stop_reason="tool_use")
    if v.step == 1:
        old = TWO_HUNK_BEFORE[len("line 1\n"):-len("line 19\nline 20\n")]
        new = TWO_HUNK_AFTER[len("line 1\n"):-len("line 19\nline 20\n")]
        return Reply([tool("Edit", replace_all=False, file_path=path, old_string=old, new_string=new)],
                     stop_reason="tool_use")
    return Reply([text(DONE_TEXT)])


def write(v: RequestView) -> Reply:
    return _tool_then_done(
        tool("Write", file_path=f"{v.project}/new.txt", content="line1\nline2\n")
    )(v)


def overwrite(v: RequestView) -> Reply:
    content = "alpha\nBETA\ngamma\ndelta\n"
    return _tool_then_done(tool("Write", file_path=f"{v.project}/a.txt", content=content))(v)


ask = _tool_then_done(tool("AskUserQuestion", questions=[COLOR_Q]))
multiq = _tool_then_done(tool("AskUserQuestion", questions=[COLOR_Q, TOPPINGS_Q]))
plan = _tool_then_done(tool("ExitPlanMode", plan=PLAN_TEXT))
agent = _tool_then_done(
    text("Delegating. "),
    tool(
        "Task",
        description="Explore tree",
        prompt=SUBAGENT_PROMPT,
        subagent_type="Explore",
        run_in_background=True,
    ),
)

slowagent = _tool_then_done(
    text("Delegating a long job. "),
    tool("Task", description="Explore slowly", prompt="kw:slow explore slowly", subagent_type="Explore",
         run_in_background=True),
)
"""A background agent that streams for ~15 s (its prompt picks `slow`): long enough to interrupt around."""


def subagent(v: RequestView) -> Reply:
    return Reply([text("Subagent here, exploring. ")])


_TASK_STEPS: list[list[dict[str, Any]]] = [
    [
        text("Planning the work. "),
        tool("TaskCreate", subject="Read the code", description="Skim the modules",
             activeForm="Reading the code"),
        tool("TaskCreate", subject="Fix the bug", description="Patch the parser",
             activeForm="Fixing the bug"),
    ],
    [tool("TaskUpdate", taskId="1", status="in_progress")],
    [
        tool("TaskUpdate", taskId="1", status="completed"),
        tool("TaskUpdate", taskId="2", status="in_progress"),
    ],
]


def tasks(v: RequestView) -> Reply:
    if v.step < len(_TASK_STEPS):
        return Reply(list(_TASK_STEPS[v.step]), stop_reason="tool_use")
    return Reply([text("Tasks handled. ")])


def slow(v: RequestView) -> Reply:
    words = "".join(f"word{i} " for i in range(300))
    return Reply([text(words)], delay=0.05)


def longstream_text(n: int = 2000) -> list[str]:
    """The 2000 deltas of the long-stream recording: markdown with code fences."""
    out = []
    for i in range(n):
        if i % 50 == 0:
            out.append(f"\n\n## Section {i // 50}\n\n")
        elif i % 17 == 0:
            out.append("\n\n```python\nprint('x')\n```\n\n")
        else:
            out.append(f"token{i} ")
    return out


def longstream(v: RequestView) -> Reply:
    return Reply([{"type": "text", "text": "", "chunks": longstream_text()}])


def markdown_text(sections: int = 12) -> str:
    """A long answer using every block Markdown has: headings, prose, numbered lists (one starting
    at 3), bullets, code, a table, a quote (for checking the renderer by eye against Claude Code)."""
    parts = []
    for i in range(sections):
        prose = " ".join(f"word{j}" for j in range(60))
        parts += [f"## Part {i}\n\nSome prose for part {i}: {prose}.\n\n",
                  f"{i + 3}. first step of part {i}\n{i + 4}. second step\n{i + 5}. third step with `code`\n\n",
                  "- a bullet\n- another bullet\n  continued\n\n",
                  "```python\ndef f(x):\n    return x * 2\n\n\nprint(f(21))\n```\n\n",
                  "| name | value | note |\n|---|---:|---|\n| alpha | 1 | first |\n| beta | 22 | second |\n\n",
                  "> a quote\n> over two lines\n\n",
                  f"End of part {i}.\n\n"]
    return "".join(parts).rstrip()


def markdown(v: RequestView) -> Reply:
    body = markdown_text()
    chunks = [body[i:i + 12] for i in range(0, len(body), 12)]
    return Reply([{"type": "text", "text": "", "chunks": chunks}])


def escape(v: RequestView) -> Reply:
    return Reply([text(ESCAPE_TEXT)])


def retry(v: RequestView) -> Reply:
    if v.attempt <= 2:
        return error(529, "overloaded_error", "Overloaded")
    return Reply([text("Recovered after retries. ")])


def autherr(v: RequestView) -> Reply:
    reply = error(401, "authentication_error", "invalid x-api-key")
    reply.headers["x-should-retry"] = "false"
    return reply


#: what `kw:sleep` runs: a tool that is still running when the app is ended (fault tests)
SLEEP_COMMAND = "echo napping && sleep 300 && echo awake"


def sleep(v: RequestView) -> Reply:
    return _tool_then_done(
        text("Sleeping a while. "),
        tool("Bash", command=SLEEP_COMMAND, description="Sleep for five minutes", timeout=600000),
    )(v)


def maxturns(v: RequestView) -> Reply:
    return Reply(
        [tool("Bash", command=f"echo loop-{v.step}", description="Loop forever")],
        stop_reason="tool_use",
    )


def mcpnote(v: RequestView) -> Reply:
    """Call the notes MCP server's tool (tests/mcp/notes_server.py)."""
    return _tool_then_done(tool("mcp__notes__add_note", text="from the model"))(v)


def mcpask(v: RequestView) -> Reply:
    """Call the notes server's tool that asks the user through an elicitation."""
    return _tool_then_done(tool("mcp__notes__ask_profile"))(v)


SCRIPTS: dict[str, Script] = {
    "plain": plain,
    "think": think,
    "bash": bash,
    "hiddenbash": hiddenbash,
    "longbash": longbash,
    "edit": edit,
    "readedit": readedit,
    "twohunk": twohunk,
    "write": write,
    "overwrite": overwrite,
    "ask": ask,
    "multiq": multiq,
    "plan": plan,
    "agent": agent,
    "subagent": subagent,
    "slowagent": slowagent,
    "tasks": tasks,
    "slow": slow,
    "longstream": longstream,
    "markdown": markdown,
    "escape": escape,
    "retry": retry,
    "autherr": autherr,
    "maxturns": maxturns,
    "sleep": sleep,
    "mcpnote": mcpnote,
    "mcpask": mcpask,
}


def choose_reply(view: RequestView) -> Reply:
    """The scripted reply for one ``/v1/messages`` request."""
    return SCRIPTS.get(view.keyword, plain)(view)
