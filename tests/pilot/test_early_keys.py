"""Keys that arrive before a text field has focus are held and replayed into the prompt, in order;
a draft restored from the last run is set aside to the history (Up) rather than glued to them."""

from __future__ import annotations

from pathlib import Path

from textual import events

from tests.pilot.helpers import chat, make_app, wait_for


async def test_early_keys_go_to_the_prompt_in_order_and_set_aside_the_draft(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = chat(app)
        area = view.prompt_area
        await wait_for(pilot, lambda: area.draft_loaded, what="the prompt mounted")
        # As at a launch: a draft put back from the last run, Textual's first focus on the log
        area.prompt.text = area.restored_draft = "an unsent draft"
        app._early_keys = []
        view.log_widget.focus()
        await pilot.pause()
        for key, char in (("h", "h"), ("i", "i"), ("space", " "), ("t", "t"), ("o", "o"), ("o", "o")):
            await app.on_event(events.Key(key, char))
        assert area.prompt.text == "an unsent draft"  # held: nothing took them yet
        area.prompt.focus()
        await pilot.pause()
        await app.on_event(events.Key("x", "x"))  # the next key: the held ones go first (the timer is the e2e test's)
        await wait_for(pilot, lambda: area.prompt.text == "hi toox", what="the keys replayed, in order")
        assert app._early_keys is None
        assert view.session.history.entries[-1] == "an unsent draft"  # Up brings it back

