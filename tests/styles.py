"""The app's own .tcss files, for test apps that host widgets or screens outside `ClaudeTuiApp`.

Widgets carry their layout in `DEFAULT_CSS` and screens load their own file through `CSS_PATH`,
so a test app only adds what `ClaudeTuiApp` itself would: the theme rules (`app.tcss`) and, where
it lays widgets out the way a chat view does (a `#main` row of `#chat-log` and sidebar), `MAIN_ROW_CSS`.
"""

from __future__ import annotations

from pathlib import Path

import claude_tui.ui
from claude_tui.ui.chat.view import ROW_CSS

_UI = Path(claude_tui.ui.__file__).resolve().parent
APP_CSS = str(_UI / "app" / "app.tcss")
MAIN_ROW_CSS = ROW_CSS
"""`ChatView`'s rules for its log-and-sidebar row (`#main`, `#chat-log`)."""
