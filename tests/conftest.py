"""Shared test helpers: recorded fixtures and an isolated home for our own stores."""

from __future__ import annotations

from pathlib import Path

import hypothesis  # noqa: F401 - imported up front: a late import from the plugin crashes on 3.11.7
import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "claude-code-2.1.330"


def recording(name: str) -> list[str]:
    """The lines the real CLI printed for scenario `name`."""
    return [line for line in (FIXTURES / f"{name}.stdout.ndjson").read_text().splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Our config/data/cache dirs go to a temp dir: tests never read or write the developer's."""
    root = tmp_path_factory.mktemp("xdg")
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_STATE_HOME", "state")):
        monkeypatch.setenv(var, str(root / sub))
    monkeypatch.delenv("CLAUDE_TUI_CONFIG", raising=False)
