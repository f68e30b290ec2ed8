"""Fixtures for the real-CLI tier: the pinned ``claude``, the API stand-in, an offline env.

Every test under ``tests/e2e`` is marked ``e2e``.  A CLI that cannot be
installed makes the tests FAIL with the reason (never skip).  Each CLI process
carries a marker variable in its environment so the session can prove that no
process we started (the CLI or anything it spawned) outlives the tests.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.e2e.cli_install import CliInstallError, ensure_cli
from tests.e2e.mock_api import MockApi
from tests.e2e.offline_env import offline_env
from tests.e2e.raw_cli import RawCli

if TYPE_CHECKING:
    from claude_tui.transport.options import CliOptions

HERE = Path(__file__).parent
RUN_MARKER = "CLAUDE_TUI_E2E_RUN"
RUN_ID = uuid.uuid4().hex
A_TXT = "alpha\nbeta\ngamma\n"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The version matrix (test_version_matrix.py): which Claude Code version ran which core flow."""
    from tests.e2e.test_version_matrix import FLOWS, MATRIX

    if not MATRIX:
        return
    write = terminalreporter.write_line
    terminalreporter.section("Claude Code version matrix")
    width = max(len(f) for f in FLOWS) + 2
    write("version    " + "".join(f.ljust(width) for f in FLOWS))
    for version, results in MATRIX.items():
        cells = [("ok" if results.get(f) == "ok" else "-" if f not in results else
                  "skip" if results[f].startswith("skipped") else "FAIL").ljust(width) for f in FLOWS]
        write(version.ljust(11) + "".join(cells))
    for version, results in MATRIX.items():
        for flow, why in results.items():
            if why != "ok":
                write(f"  {version} {flow}: {why}")


def marked_env(base_url: str, root: Path) -> dict[str, str]:
    """offline_env plus this session's run marker (see ``marked_processes``)."""
    env = offline_env(base_url, root)
    env[RUN_MARKER] = RUN_ID
    return env


def marked_processes() -> list[int]:
    """Pids of live processes that carry this session's run marker."""
    needle = f"{RUN_MARKER}={RUN_ID}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if needle not in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                continue
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rfind(")") + 2 :].split()[0] != "Z":
            found.append(int(entry))
    return found


@pytest.fixture(scope="session", autouse=True)
def no_leftover_cli() -> Iterator[None]:
    """Session check: nothing started by this tier may still be running at the end."""
    yield
    left = marked_processes()
    for pid in left:  # ours by marker: end them so the machine stays clean
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"processes started by the e2e tier outlived their tests: {left}"


def _tree_digest(root: Path) -> dict[str, str]:
    import hashlib

    digest: dict[str, str] = {}
    if root.is_dir():
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink():
                try:
                    digest[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    digest[str(path.relative_to(root))] = "unreadable"
    return digest


@pytest.fixture(scope="session", autouse=True)
def users_claude_dir_untouched() -> Iterator[None]:
    """The whole e2e tier (real CLI, our app) leaves the developer's own ~/.claude byte-identical."""
    roots = [Path.home() / ".claude"]
    if os.environ.get("CLAUDE_CONFIG_DIR"):
        roots.append(Path(os.environ["CLAUDE_CONFIG_DIR"]))
    before = {str(root): _tree_digest(root) for root in roots}
    yield
    after = {str(root): _tree_digest(root) for root in roots}
    assert after == before, "the e2e run modified the user's Claude Code config directory"


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    try:
        return ensure_cli()
    except CliInstallError as exc:
        pytest.fail(f"the pinned Claude Code CLI is not available: {exc}", pytrace=False)


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.txt").write_text(A_TXT)
    return project.resolve()


@pytest.fixture
def mock_api(project_dir: Path) -> Iterator[MockApi]:
    with MockApi(project_dir=str(project_dir)) as api:
        yield api


@pytest.fixture
def e2e_env(mock_api: MockApi, tmp_path: Path) -> dict[str, str]:
    return marked_env(mock_api.url, tmp_path / "cli")


@pytest.fixture
def config_dir(e2e_env: dict[str, str]) -> Path:
    return Path(e2e_env["CLAUDE_CONFIG_DIR"])


@pytest.fixture
def start_cli(claude_bin: Path, e2e_env: dict[str, str],
              project_dir: Path) -> Iterator[Callable[..., RawCli]]:
    """Factory: ``start_cli("--permission-mode", "plan")``; every CLI is ended at teardown."""
    started: list[RawCli] = []

    def start(*args: str, env: dict[str, str] | None = None) -> RawCli:
        cli = RawCli(claude_bin, env or e2e_env, project_dir, args)
        started.append(cli)
        return cli

    yield start
    for cli in started:
        cli.close()
    leftovers = marked_processes()
    assert not leftovers, f"CLI processes still alive after the test: {leftovers}"


# -- the app against the real CLI (test_app_real_cli.py, test_tmux_smoke.py) -------------


@pytest.fixture
def app_options(claude_bin: Path, e2e_env: dict[str, str], project_dir: Path,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., CliOptions]]:
    """Factory of ``CliOptions`` for the app: the real CLI, the offline env, the project dir.

    ``build_env`` starts from ``os.environ``: the developer's ANTHROPIC_*/CLAUDE_* variables
    are removed from this process for the test, and the e2e env (with the run marker) is
    passed as ``options.env`` so it wins over whatever remains.  After the test no process
    carrying the marker may be alive.
    """
    from claude_tui.transport.options import CliOptions
    from tests.e2e.offline_env import LEAKY_PREFIXES

    for key in list(os.environ):
        if key.startswith(LEAKY_PREFIXES):
            monkeypatch.delenv(key, raising=False)

    def make(**kwargs: object) -> CliOptions:
        return CliOptions(cwd=str(project_dir), claude_path=str(claude_bin), env=dict(e2e_env),
                          **kwargs)  # type: ignore[arg-type]

    yield make
    deadline = time.monotonic() + 5
    leftovers = marked_processes()
    while leftovers and time.monotonic() < deadline:  # a CLI closing in its grace period
        time.sleep(0.1)
        leftovers = marked_processes()
    assert not leftovers, f"CLI processes still alive after the app test: {leftovers}"
