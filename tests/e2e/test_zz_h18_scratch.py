import shutil
from pathlib import Path
from tests.e2e.raw_cli import is_type

def test_gen(start_cli, config_dir, project_dir):
    with start_cli() as cli:
        cli.initialize()
        n = cli.send_user("kw:think what is six times seven"); cli.result()
        cli.send_user("kw:bash now run it"); 
        req = cli.wait_for(lambda m: m.get("type") == "control_request" and m.get("request", {}).get("subtype") == "can_use_tool")
        cli.allow(req); cli.result(start=cli.index(req))
        sid = cli.find(is_type("system", "init"))[0]["session_id"]
    with start_cli("--resume", sid, "--fork-session") as cli:
        cli.initialize()
        i = cli.send_user("kw:plain and now in the fork"); r = cli.result(start=i)
    with start_cli("--resume", sid) as cli:
        cli.initialize()
        i = cli.send_user("kw:edit and now the parent"); 
        req = cli.wait_for(lambda m: m.get("type") == "control_request" and m.get("request", {}).get("subtype") == "can_use_tool", start=i)
        cli.allow(req); cli.result(start=cli.index(req))
    out = Path("/tmp/h18/real")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(config_dir / "projects", out)
