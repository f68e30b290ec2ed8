"""Through the whole app (transport line reading, decoding, the session, the status bar): a line
with a cut emoji is shown with U+FFFD, and a `result` with wrong-typed fields ends the turn, so
`retrying 1 of 10` does not stay in the status bar (issue 15)."""

from __future__ import annotations

import sys
from pathlib import Path

from claude_tui.config import Config
from claude_tui.session.items import TextItem
from claude_tui.transport.options import CliOptions
from claude_tui.ui.app.app import ClaudeTuiApp
from claude_tui.ui.panels.status_bar import StatusBar
from tests.pilot.helpers import chat, send, wait_for

# A stand-in CLI printing the bytes the real ones were seen to print.
CLI = r'''
import json, sys, time
out = sys.stdout.buffer
def line(raw):
    out.write(raw + b"\n"); out.flush()
for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    if msg.get("type") == "control_request":
        rid = msg["request_id"]
        line(json.dumps({"type": "control_response", "response": {"subtype": "success", "request_id": rid,
             "response": {"commands": [{"name": "cost", "description": "d", "argumentHint": ""}],
                          "models": [], "account": {}}}}).encode())
    elif msg.get("type") == "user":
        # The turn's init (a CLI starts a turn with it: one before any prompt is a turn of its own,
        # which would hold the prompt in the queue), then a retry inside the turn, as the CLI reports one (held a moment, so the status bar shows it).
        line(b'{"type":"system","subtype":"init","session_id":"s1","model":"claude-x","cwd":"/","tools":[]}')
        line(b'{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":500,'
             b'"error_status":529,"session_id":"s1"}')
        time.sleep(1.0)
        # Output cut inside an emoji (a lone surrogate escape), and a byte that is not UTF-8.
        line(b'{"type":"assistant","session_id":"s1","parent_tool_use_id":null,"message":{"id":"m1",'
             b'"role":"assistant","model":"claude-x","content":[{"type":"text","text":"cut \\ud83d and \xff"}]}}')
        line(b'{"type":"result","subtype":"success","is_error":false,"result":"cut","session_id":"s1",'
             b'"num_turns":"x","duration_ms":"x","total_cost_usd":0.01,"modelUsage":{"claude-x":"bad"}}')
'''


def status_text(app: ClaudeTuiApp) -> str:
    screen = chat(app)
    return str(screen.query_one(StatusBar).render_status(screen.session.conversation.status))


async def test_a_cut_emoji_and_a_malformed_result_end_the_turn_in_the_app(tmp_path: Path) -> None:
    options = CliOptions(cwd=str(tmp_path), command=[sys.executable, "-c", CLI])
    app = ClaudeTuiApp(options, Config(typeahead_guard_ms=0))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: chat(app).session.conversation.commands, what="the CLI ready")
        await send(pilot, "hello")
        await wait_for(pilot, lambda: "retrying 1 of 10" in status_text(app), what="the retry shown")
        conversation = chat(app).session.conversation
        await wait_for(pilot, lambda: conversation.status.turns == 1, what="the result to end the turn")
        await wait_for(pilot, lambda: "retrying" not in status_text(app), what="the retry to be gone")
        texts = [item.text for item in conversation.items if isinstance(item, TextItem)]
        assert any(text.startswith("cut \ufffd and ") for text in texts), texts
        assert conversation.status.cost_total > 0  # the good fields of the bad result were kept
