"""`versions.MANAGE_REQUESTS` against each Claude Code version of the matrix, raw: a request the table
says a version has is answered (success, or an error about its arguments, never "unknown"); one it
says the version lacks is refused or, as 2.0.77 does, never answered at all (a request the app sent
would wait for its whole timeout). The app sends each request only where the table allows
(`versions.lacks`), so this is what keeps an older CLI from being asked what it cannot answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_tui.protocol import manage, versions
from tests.e2e.raw_cli import RawCli
from tests.e2e.record_manage import notes_config
from tests.e2e.test_version_matrix import VERSIONS, matrix_clis  # noqa: F401 - the fixture, shared

#: one request of each kind ours to send (the CLI's own requests to us, elicitation and
#: request_user_dialog, are proven by test_manage_real_cli.py on the pinned version)
OURS: dict[str, dict[str, Any]] = {
    "mcp_status": manage.mcp_status(), "mcp_toggle": manage.mcp_toggle("notes", True),
    "mcp_reconnect": manage.mcp_reconnect("notes"), "get_context_usage": manage.get_context_usage(summary=True),
    "get_usage": manage.get_usage(), "list_permission_rules": manage.list_permission_rules(),
    "get_hooks_listing": manage.get_hooks_listing(), "rename_session": manage.rename_session("Named"),
    "reload_plugins": manage.reload_plugins(), "reload_skills": manage.reload_skills(),
    "apply_flag_settings": manage.apply_permission_rules(["WebFetch"], [], []),
}
_UNKNOWN = ("unsupported", "unknown", "not supported", "unrecognized", "invalid")


def _answer(cli: RawCli, payload: dict[str, Any]) -> dict[str, Any]:
    rid = payload["request_id"]
    cli.send(payload)
    reply = cli.wait_for(lambda m: m.get("type") == "control_response" and m["response"].get("request_id") == rid,
                         60)
    return dict(reply["response"])


@pytest.mark.parametrize("version", VERSIONS)
def test_the_table_matches_each_cli(version: str, request: pytest.FixtureRequest, e2e_env: dict[str, str],
                                    project_dir: Path, tmp_path: Path) -> None:
    binary = request.getfixturevalue("matrix_clis")[version]
    if isinstance(binary, str):
        pytest.fail(binary, pytrace=False)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps(notes_config(tmp_path / "notes.log", broken=False)))
    cli = RawCli(binary, e2e_env, project_dir, ["--permission-mode", "default", "--mcp-config", str(config)])
    try:
        cli.initialize()
        wrong = []
        for name, payload in OURS.items():
            if not versions.offers(version, name):
                continue
            reply = _answer(cli, payload)
            error = str(reply.get("error", ""))
            if reply.get("subtype") == "error" and name in error and any(w in error.lower() for w in _UNKNOWN):
                wrong.append(f"{name}: the table says {version} has it, the CLI says {error!r}")
        lacking = [payload for name, payload in OURS.items() if not versions.offers(version, name)]
        for payload in lacking:
            cli.send(payload)
        _answer(cli, manage.mcp_status())  # the CLI answers in turn: the ones sent before it have had theirs
        for payload in lacking:
            answered = cli.find(lambda m, rid=payload["request_id"]: m.get("type") == "control_response"
                                and m["response"].get("request_id") == rid)
            if any(m["response"].get("subtype") == "success" for m in answered):
                wrong.append(f"{payload['request']['subtype']}: the table says {version} lacks it, the CLI answered")
        assert not wrong, "\n".join(wrong)
    finally:
        cli.close()
