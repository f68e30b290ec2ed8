"""The app's own .tcss files, for test apps that host widgets or screens outside `ClaudeTuiApp`.

Widgets carry their layout in `DEFAULT_CSS` and screens load their own file through `CSS_PATH`,
so a test app only adds what `ClaudeTuiApp` itself would: the theme rules (`app.tcss`) and, where
it lays widgets out the way the chat screen does (`#main`, `#chat-log`), the chat screen's file.
"""

from __future__ import annotations

from pathlib import Path

import claude_tui.ui

_UI = Path(claude_tui.ui.__file__).resolve().parent
APP_CSS = str(_UI / "app.tcss")
CHAT_CSS = str(_UI / "screens" / "chat.tcss")
