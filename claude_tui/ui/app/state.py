"""UI state remembered across runs (the chosen theme, split diffs) in `data_dir()/state.json`.

The config file is the user's; this file is ours. A theme set in the config
(file, environment or flag) always wins over the remembered one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_tui import paths
from claude_tui.store.files import exclusive

if TYPE_CHECKING:
    from textual.app import App

    from claude_tui.config import Config


class ThemedApp(Protocol):
    """What the start theme needs of the app (the app imports this module: it is not imported back)."""

    config: Config
    startup_warnings: list[str]
    theme: str

    @property
    def available_themes(self) -> dict[str, Any]: ...


def state_file() -> Path:
    return paths.data_path() / "state.json"  # created on the first save, where failures are silent


def load_state(path: Path | None = None) -> dict[str, Any]:
    try:
        data = json.loads((path or state_file()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_state(updates: dict[str, Any], path: Path | None = None) -> None:
    """Merge `updates` into the state file (atomically); failures are silent (it is only a preference)."""
    path = path or state_file()
    try:
        # Another instance may save its own keys meanwhile: read, merge and write under one lock.
        with exclusive(path.with_name(path.name + ".lock")):
            data = load_state(path)
            data.update(updates)
            paths.atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
    except OSError:
        pass


def theme_from_config(app: ThemedApp) -> bool:
    """Whether the user pinned a theme in the config (then the remembered one is ignored)."""
    return "theme" in app.config.model_fields_set


def startup_theme(app: ThemedApp) -> str | None:
    """The theme to start with: the config's if set explicitly, else the remembered one, else the default."""
    if theme_from_config(app):
        return app.config.theme
    remembered = load_state().get("theme")
    if isinstance(remembered, str) and remembered:
        return remembered
    return app.config.theme or None


def apply_startup_theme(app: ThemedApp) -> None:
    """Set the start theme; an unknown name is reported, not fatal."""
    theme = startup_theme(app)
    if not theme or theme == app.theme:
        return
    if theme not in app.available_themes:
        # Reported once the app can show notifications.
        app.startup_warnings.append(f"Unknown theme {theme!r}; using {app.theme!r}. "
                                    f"Available: {', '.join(sorted(app.available_themes))}")
        return
    app.theme = theme


class ThemeMemory:
    """Saves the theme shortly after it changes (the theme picker previews themes as you move)."""

    DELAY = 0.6

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._timer: Any = None
        self._saved = app.theme

    def start(self) -> None:
        self.app.theme_changed_signal.subscribe(self.app, self._changed)

    def _changed(self, _theme: object) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.app.set_timer(self.DELAY, self.flush)

    def flush(self) -> None:
        self._timer = None
        theme = self.app.theme
        if theme != self._saved:
            self._saved = theme
            save_state({"theme": theme})
