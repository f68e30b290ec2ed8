"""Prompts typed while a turn runs, held by claude-tui until the turn ends (issue 27).

Not handed to the CLI at once: its queue cannot be edited or withdrawn, and an interrupt sent
it on at once. Held here, they can still be taken back into the prompt (Up on an empty prompt,
as in Claude Code) or changed. When a turn ends the first goes out, each as its own prompt and
turn, exactly as typed (a burst `a⏎b⏎c⏎` sends a, b, c, never merged); the rest stay editable
until theirs. Not a widget: the view shows them (`QueuedPrompts`).
"""

from __future__ import annotations


class PromptQueue:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.texts)

    def add(self, text: str) -> None:
        self.texts.append(text)

    def pop_first(self) -> str:
        """The oldest held prompt, the next to go."""
        return self.texts.pop(0)

    def take(self) -> str:
        """Everything held, as one prompt (the queue is then empty)."""
        joined = "\n".join(self.texts)
        self.texts = []
        return joined

    def take_before(self, draft: str) -> str:
        """Everything held, then `draft`: what the prompt holds once they are taken back into it."""
        held = self.take()
        return "\n".join(part for part in (held, draft) if part)
