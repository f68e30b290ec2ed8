"""Ctrl+V (and the palette): the clipboard's image into the prompt as `[Image #N]` (issue 30).

Read in a thread (`clipboard_image.read_image` runs the platform's tool); the answer comes back
to the UI thread, where the placeholder is typed where the cursor is, or one line says why not.
"""

from __future__ import annotations

from textual.widget import Widget

from claude_tui.attachments import ImageSlots
from claude_tui.clipboard_image import ClipboardError, ClipboardImage, read_image
from claude_tui.ui.panels.prompt_input import PromptInput


def paste_image(view: Widget, prompt: PromptInput, images: ImageSlots) -> None:
    def attach(image: ClipboardImage | None) -> None:
        if image is None:
            if view.app.clipboard:  # no image: what was copied in the app, as TextArea's Ctrl+V would
                prompt.action_paste()
            else:
                view.notify("The clipboard holds no image (text pastes with your terminal's paste key).",
                            timeout=4)
            return
        prompt.focus()
        prompt.insert_text(images.add(image))

    def read() -> None:
        try:
            image = read_image()
        except ClipboardError as error:
            view.app.call_from_thread(view.notify, str(error), severity="warning", timeout=8, markup=False)
            return
        view.app.call_from_thread(attach, image)

    view.run_worker(read, thread=True, exclusive=True, group="clipboard", exit_on_error=False)
