"""A small real MCP server (stdio, the `mcp` package) for the real-CLI tests of the /mcp screen.

    python -m tests.mcp.notes_server          # speaks MCP on stdin/stdout

Tools: `add_note` (records its text), `ask_profile` (asks the user for a form through an
elicitation and records the answer). Resource: `notes://readme`. Every call is appended as one
JSON line to the file named by `NOTES_SERVER_LOG`, so a test can see what the server received.
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import AcceptedElicitation, Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel, Field

server = MCPServer("notes")


def _record(entry: dict[str, Any]) -> None:
    path = os.environ.get("NOTES_SERVER_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")


class Profile(BaseModel):
    name: str = Field(description="Your name", min_length=2)
    age: int = Field(description="Age in years", ge=0, le=150)
    subscribe: bool = Field(default=False, description="Send me news")
    colour: Literal["red", "green", "blue"] = Field(default="green", description="Favourite colour")


@server.tool(description="Keep a note for later.")
def add_note(text: str) -> str:
    _record({"tool": "add_note", "text": text})
    return f"noted: {text}"


def _ask_profile() -> Elicit[Profile]:
    return Elicit("Tell me about yourself", Profile)


# A resolver rather than ctx.elicit: the CLI speaks the MCP era in which a server may not send its
# own requests mid-call, and the framework then asks through an input-required result instead.
@server.tool(description="Ask the user for their profile.")
def ask_profile(answer: Annotated[ElicitationResult[Profile], Resolve(_ask_profile)]) -> str:
    data = answer.data.model_dump(mode="json") if isinstance(answer, AcceptedElicitation) else None
    _record({"tool": "ask_profile", "action": answer.action, "data": data})
    return f"profile {answer.action}: {json.dumps(data)}"


@server.resource("notes://readme", description="How the notes server works.")
def readme() -> str:
    return "Notes are kept in memory."


if __name__ == "__main__":
    server.run("stdio")
