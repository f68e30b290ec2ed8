"""Images attached to the prompt: `[Image #N]` in its text, the image kept here until sent (issue 30).

As Claude Code shows them. A number names one image for the session (one taken back from the
queue still has it); what is sent is the images whose placeholder is still in the text, so
deleting `[Image #1]` from the prompt drops the image. No textual.
"""

from __future__ import annotations

import re
from typing import Any

from claude_tui.clipboard_image import ClipboardImage
from claude_tui.protocol.builders import image_block

_PLACEHOLDER = re.compile(r"\[Image #(\d+)\]")


class ImageSlots:
    def __init__(self) -> None:
        self.images: dict[int, ClipboardImage] = {}
        self._next = 1

    def add(self, image: ClipboardImage) -> str:
        """Keep `image`; the placeholder the prompt shows for it."""
        number = self._next
        self._next += 1
        self.images[number] = image
        return f"[Image #{number}]"

    def blocks_for(self, text: str) -> list[dict[str, Any]]:
        """The image blocks of the placeholders in `text`, in their order (each once)."""
        numbers: list[int] = []
        for match in _PLACEHOLDER.finditer(text):
            number = int(match.group(1))
            if number in self.images and number not in numbers:
                numbers.append(number)
        return [image_block(self.images[n].data, self.images[n].media_type) for n in numbers]
