"""Theme colours for Rich text built in code (where TCSS variables cannot reach)."""

from __future__ import annotations

from textual.app import App


def theme_color(app: App[object], name: str, fallback: str) -> str:
    """The theme's `name` colour (e.g. "text-warning") as a Rich colour, else `fallback`.

    The `text-*` variants stay readable on light themes too; non-hex values (like
    "auto 87%") are not Rich colours and give the fallback.
    """
    value = app.theme_variables.get(name, "")
    return value if value.startswith("#") else fallback
