"""Servers and programs a test tier needs from the machine (sshd, fish, tcsh, Xvfb, xclip, …).

On a developer's machine that lacks one, its tests are skipped with the reason and the line that
installs it, and pytest's summary lists them (``-ra``). `.ci/run` installs every one of them and
sets ``CLAUDE_TUI_REQUIRE_SERVERS=1``: there a missing one is a failure, so CI always runs the tier.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

REQUIRED_ENV = "CLAUDE_TUI_REQUIRE_SERVERS"

INSTALL = {
    "sshd": "apt-get install -y openssh-server",
    "fish": "apt-get install -y fish",
    "tcsh": "apt-get install -y tcsh",
    "csh": "apt-get install -y tcsh",
    "zsh": "apt-get install -y zsh",
    "Xvfb": "apt-get install -y xvfb",
    "xclip": "apt-get install -y xclip",
}


def required() -> bool:
    """True under `.ci/run`: every server must be there."""
    return os.environ.get(REQUIRED_ENV) == "1"


def missing(name: str, why: str = "") -> NoReturn:
    """Skip (or, under CI, fail) a test whose server or program `name` is not on this machine."""
    reason = f"{why or name + ' is not installed'} (install: {INSTALL.get(name, 'apt-get install -y ' + name)})"
    if required():
        pytest.fail(f"{reason}; {REQUIRED_ENV}=1 requires it", pytrace=False)
    pytest.skip(reason)


def need_program(name: str, path: str | None = None) -> str:
    """The path of program `name` (or the given absolute `path`), skipping/failing the test without it."""
    found = path if path and os.access(path, os.X_OK) else shutil.which(name)
    if not found:
        missing(name)
    return found
