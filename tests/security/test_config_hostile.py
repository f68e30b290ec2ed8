"""A config file, environment or flag can hold anything: the loader answers with a Config or a
ConfigError whose text is inert — never a traceback, never a byte the terminal acts on."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claude_tui.config import Config, ConfigError, load_config
from claude_tui.protocol.sanitize import CONTROL_CLASS

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])
_ACTIVE = re.compile(CONTROL_CLASS.replace("\\x00-\\x1f", "\\x00-\\x09\\x0b-\\x1f"))  # all but newline
HOSTILE_KEY = "\u001b]52;c;aGVsbG8=\u0007\u001b]0;PWN\u0007"


def outcome(path: Path, environ: dict[str, str] | None = None) -> Config | str:
    """The Config, or the error's text (checked inert)."""
    try:
        return load_config(path, environ or {})
    except ConfigError as error:
        text = str(error)
        assert not _ACTIVE.search(text), repr(text)
        assert text.strip()
        return text


def test_a_byte_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'theme = "ok"\nmodel = "so\xffnnet"\n')
    said = outcome(path)
    assert isinstance(said, str) and "not UTF-8" in said and "0xff" in said and "line 2" in said


def test_brackets_nested_past_the_stack_are_refused(tmp_path: Path) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # the interpreter's default, as the app runs (hypothesis raises it)
    try:
        _nested_past_the_stack(tmp_path)
    finally:
        sys.setrecursionlimit(limit)


def _nested_past_the_stack(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("cli_args = " + "[" * 5000 + "]" * 5000 + "\n")
    said = outcome(path)
    assert isinstance(said, str) and "nested too deeply" in said
    path.write_text("cli_env = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
    assert "nested too deeply" in str(outcome(path))


def test_environment_json_nested_past_the_stack(tmp_path: Path) -> None:
    said = outcome(tmp_path / "none.toml", {"CLAUDE_TUI_CLI_ARGS": "[" * 100_000 + "]" * 100_000})
    assert isinstance(said, str) and "CLAUDE_TUI_CLI_ARGS" in said and "nested too deeply" in said


def test_an_escape_sequence_in_a_key_is_shown_inert(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"{json.dumps(HOSTILE_KEY)} = 1\n")
    said = outcome(path)
    assert isinstance(said, str) and "\x1b" not in said and "\x07" not in said
    assert "␛]52;c;aGVsbG8=␇␛]0;PWN␇" in said  # what the key was, visibly


def _run(args: list[str], config: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    import os

    return subprocess.run([sys.executable, "-m", "claude_tui", *args], capture_output=True, timeout=120,
                          env={**os.environ, "CLAUDE_TUI_CONFIG": str(config), **env}, check=False)


@pytest.mark.parametrize("body", [b'model = "a\xffb"\n', ("x = " + "[" * 5000 + "]" * 5000).encode(),
                                  f"{json.dumps(HOSTILE_KEY)} = 1\n".encode()],
                         ids=["not-utf8", "nested", "escapes"])
@pytest.mark.parametrize("args", [["config", "--show"], ["--demo"]], ids=["config-show", "start"])
def test_the_commands_say_so_in_one_inert_message(tmp_path: Path, body: bytes, args: list[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(body)
    done = _run(args, config)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr and str(config).encode() in done.stderr
    assert b"\x1b" not in done.stderr + done.stdout and b"\x07" not in done.stderr + done.stdout


_scalars = st.one_of(st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=30))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=12)
_keys = st.one_of(st.sampled_from([*Config.model_fields, "notifications", "hosts", "keymap", "cli_env"]),
                  st.text(min_size=1, max_size=20))


@FAST
@given(st.lists(st.tuples(_keys, _values), max_size=6))
def test_fuzz_toml_shaped_files(tmp_path: Path, pairs: list[tuple[str, object]]) -> None:
    path = tmp_path / "config.toml"
    path.write_text("".join(f"{json.dumps(key)} = {json.dumps(value)}\n" for key, value in pairs),
                    encoding="utf-8", errors="surrogatepass")
    outcome(path)


@FAST
@given(st.binary(max_size=400), st.integers(0, 6000))
def test_fuzz_arbitrary_bytes_and_depths(tmp_path: Path, junk: bytes, depth: int) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(junk)
    outcome(path)
    path.write_bytes(b"cli_args = " + b"[" * depth + junk[:20] + b"]" * depth + b"\n")
    outcome(path)


@FAST
@given(st.dictionaries(st.sampled_from([f"CLAUDE_TUI_{name.upper()}" for name in Config.model_fields]),
                       st.text(max_size=60), max_size=4))
def test_fuzz_environment(tmp_path: Path, environ: dict[str, str]) -> None:
    outcome(tmp_path / "absent.toml", environ)
