"""Half an answer arriving in one `Events` batch draws exactly what the conversation holds.

The connection batches whatever the CLI printed in one read (up to 256 lines): on a fast CLI the
message start, the block start and the first deltas land together. Applying the whole batch and
drawing afterwards drew the first delta twice ("word0 word0 word1", seen against the real CLI).
"""

from __future__ import annotations

import json
from pathlib import Path

from claude_tui.protocol.decode import decode_obj
from claude_tui.session.items import TextItem
from claude_tui.ui.chat.connection import CliConnection
from claude_tui.ui.log.assistant_text import AssistantText
from tests.conftest import recording
from tests.pilot.helpers import chat, make_app, wait_for


async def test_a_recorded_turn_in_one_batch_is_drawn_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        view = chat(app)
        await wait_for(pilot, lambda: view.session.alive and bool(view.session.conversation.commands),
                       what="the CLI ready")
        lines = [json.loads(line) for line in recording("long-stream")]
        # The stream only (no closing `assistant` message, which would redraw the answer whole):
        # what is on screen while an answer streams.
        streamed = [line for line in lines if line.get("type") == "stream_event"]
        half = streamed[: len(streamed) // 2]
        view.post_message(CliConnection.Events([decode_obj(line) for line in half]))
        answers = lambda: [i for i in view.session.conversation.items if isinstance(i, TextItem)]  # noqa: E731
        await wait_for(pilot, lambda: answers() and list(view.query(AssistantText)), what="the answer drawn")
        widget = list(view.query(AssistantText))[-1]
        assert answers()[-1].streaming, "still streaming: nothing redrew it whole"
        assert widget.source == answers()[-1].text, (widget.source[:60], answers()[-1].text[:60])
        await app.shutdown()
