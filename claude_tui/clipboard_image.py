"""The clipboard's image, for Ctrl+V in the prompt (issue 30), read with the platform's own tool.

Wayland `wl-paste`, X11 `xclip`, macOS `pngpaste` or `osascript`, WSL `powershell.exe` — as
Claude Code reads it. Run where claude-tui runs (the user's clipboard), also with `--ssh`: the
image travels to the CLI as a content block. Blocking (a subprocess): call it from a thread.
No textual.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

MAX_BYTES = 5 * 1024 * 1024
"""The Messages API takes images up to 5 MB."""
_TIMEOUT = 5.0
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF8", "image/gif"))
_WSL_SCRIPT = ("Add-Type -AssemblyName System.Windows.Forms; Add-Type -AssemblyName System.Drawing; "
               "$i = [Windows.Forms.Clipboard]::GetImage(); if ($i) { $m = New-Object IO.MemoryStream; "
               "$i.Save($m, [Drawing.Imaging.ImageFormat]::Png); [Convert]::ToBase64String($m.ToArray()) }")
_OSASCRIPT_PNG = re.compile(rb"\xc2\xabdata PNGf([0-9A-Fa-f]+)\xc2\xbb")


class ClipboardError(Exception):
    """Said in one line to the user: no tool to read the clipboard (which to install), or it failed."""


@dataclass(frozen=True)
class ClipboardImage:
    data: bytes
    media_type: str


def media_type(data: bytes) -> str | None:
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _is_wsl() -> bool:
    try:
        return "microsoft" in Path("/proc/version").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return False


def _run(argv: list[str], env: Mapping[str, str]) -> bytes:
    try:
        done = subprocess.run(argv, capture_output=True, timeout=_TIMEOUT, env=dict(env), check=False,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ClipboardError(f"{argv[0]} did not answer within {_TIMEOUT:g} s") from None
    except OSError as error:
        raise ClipboardError(f"{argv[0]} could not run: {error.strerror or error}") from None
    return done.stdout if done.returncode == 0 else b""


def _wayland(env: Mapping[str, str]) -> bytes | None:
    if not shutil.which("wl-paste", path=env.get("PATH")):
        return None
    types = _run(["wl-paste", "--list-types"], env).decode("utf-8", "replace").split()
    kind = next((t for t in ("image/png", "image/jpeg", "image/gif", "image/webp") if t in types), None)
    return _run(["wl-paste", "--no-newline", "--type", kind], env) if kind else b""


def _x11(env: Mapping[str, str]) -> bytes | None:
    if not shutil.which("xclip", path=env.get("PATH")):
        return None
    targets = _run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"], env).decode("utf-8", "replace")
    kind = next((t for t in ("image/png", "image/jpeg", "image/gif", "image/webp") if t in targets.split()), None)
    return _run(["xclip", "-selection", "clipboard", "-t", kind, "-o"], env) if kind else b""


def _macos(env: Mapping[str, str]) -> bytes | None:
    if shutil.which("pngpaste", path=env.get("PATH")):
        return _run(["pngpaste", "-"], env)
    found = _run(["osascript", "-e", "the clipboard as «class PNGf»"], env)
    match = _OSASCRIPT_PNG.search(found)
    return bytes.fromhex(match.group(1).decode("ascii")) if match else b""


def _wsl(env: Mapping[str, str]) -> bytes | None:
    if not shutil.which("powershell.exe", path=env.get("PATH")):
        return None
    out = _run(["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", _WSL_SCRIPT], env).strip()
    try:
        return base64.b64decode(out, validate=True) if out else b""
    except ValueError:
        return b""


def install_hint(env: Mapping[str, str] | None = None) -> str:
    """Which tool to install to read this machine's clipboard."""
    env = os.environ if env is None else env
    if sys.platform == "darwin":
        return "install pngpaste (brew install pngpaste)"
    if env.get("WAYLAND_DISPLAY"):
        return "install wl-clipboard (e.g. apt install wl-clipboard)"
    if _is_wsl():
        return "make powershell.exe reachable on PATH (WSL interop)"
    return "install xclip (e.g. apt install xclip)"


def read_image(env: Mapping[str, str] | None = None) -> ClipboardImage | None:
    """The clipboard's image; None when it holds none. `ClipboardError` when it cannot be read."""
    env = os.environ if env is None else env
    readers = []
    if sys.platform == "darwin":
        readers.append(_macos)
    if env.get("WAYLAND_DISPLAY"):
        readers.append(_wayland)
    if env.get("DISPLAY"):
        readers.append(_x11)
    if _is_wsl():
        readers.append(_wsl)
    tried = False
    for reader in readers:
        data = reader(env)
        if data is None:
            continue  # its tool is not installed
        tried = True
        if data:
            kind = media_type(data)
            if kind is None:
                raise ClipboardError("the clipboard's image is in a format Claude does not read (PNG, JPEG, GIF, WebP)")
            if len(data) > MAX_BYTES:
                raise ClipboardError(f"the clipboard's image is {len(data) / 1e6:.1f} MB; Claude takes up to 5 MB")
            return ClipboardImage(data, kind)
    if not tried:
        where = "no display (DISPLAY / WAYLAND_DISPLAY unset)" if not readers else "no clipboard tool"
        raise ClipboardError(f"Cannot read the clipboard's image: {where}; {install_hint(env)}.")
    return None
