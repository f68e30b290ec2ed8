"""After a file rewind, "what changed" no longer lists the changes the rewind put back."""

from __future__ import annotations

from claude_tui.diff import ChangeSet, preview_write
from claude_tui.protocol import decode_line
from claude_tui.session.conversation import Conversation
from claude_tui.session.items import UserItem
from claude_tui.session.rewound import forget_rewound
from claude_tui.session.status import Activity
from tests.conftest import recording

EDITED = "/home/user/project/a.txt"  # what the edit-allow recording edits


def turn(conversation: Conversation, prompt: str, name: str) -> UserItem:
    conversation.status.activity = Activity.IDLE
    conversation.add_user_prompt(prompt)
    for line in recording(name):
        conversation.apply(decode_line(line))
    return next(i for i in reversed(conversation.items) if isinstance(i, UserItem) and i.text == prompt)


def test_forget_drops_only_the_given_diffs_and_recounts() -> None:
    changes = ChangeSet()
    first, second = preview_write(True, "a\n", "a\nb\n", path="x.py"), preview_write(True, "a\nb\n", "c\n", path="x.py")
    changes.record(first)
    changes.record(second)
    version = changes.version
    assert changes.forget([second]) == 1
    [entry] = changes.session
    assert entry.diffs == [first] and (entry.added, entry.removed) == (first.added, first.removed)
    assert changes.version > version
    assert changes.forget([first]) == 1
    assert changes.session == [] and changes.turn == [] and changes.totals() == (0, 0, 0)
    assert changes.forget([first]) == 0


def test_a_rewind_drops_the_changes_since_the_prompt_and_keeps_earlier_ones() -> None:
    conversation = Conversation()
    turn(conversation, "kw:edit the file", "edit-allow")
    second = turn(conversation, "kw:edit it again", "edit-allow")
    [entry] = conversation.changes.session
    assert len(entry.diffs) == 2
    assert forget_rewound(conversation, second, [EDITED], "/elsewhere") == 1
    [entry] = conversation.changes.session
    assert len(entry.diffs) == 1  # the first prompt's edit is still on disk
    assert conversation.changes.turn == []  # the last turn's only change was put back


def test_a_rewind_to_the_first_prompt_empties_the_panel() -> None:
    conversation = Conversation()
    first = turn(conversation, "kw:edit the file", "edit-allow")
    turn(conversation, "kw:edit it again", "edit-allow")
    assert forget_rewound(conversation, first, ["a.txt"], "/home/user/project") == 2  # relative names match too
    assert conversation.changes.session == [] and len(conversation.changes) == 0


def test_files_the_rewind_did_not_name_stay() -> None:
    conversation = Conversation()
    first = turn(conversation, "kw:edit the file", "edit-allow")
    assert forget_rewound(conversation, first, ["/home/user/project/other.txt"]) == 0
    assert len(conversation.changes.session) == 1
