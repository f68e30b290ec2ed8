"""The fake CLI's stand-in for file checkpoints: which files each prompt's turn changed.

The real CLI snapshots files before edits and `rewind_files` restores them. The fake CLI plays
recordings and writes no files, so it only keeps the bookkeeping: the edits its tool results
report, per echoed prompt, and answers dry runs and rewinds the way the real CLI does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Edit:
    prompt: int
    path: str
    insertions: int
    deletions: int


@dataclass
class Checkpoints:
    prompts: list[str] = field(default_factory=list)
    """uuids of echoed prompts, in order."""
    edits: list[_Edit] = field(default_factory=list)

    def prompt(self, uuid: str) -> None:
        self.prompts.append(uuid)

    def saw(self, line: dict[str, Any]) -> None:
        """Note a tool result that changed a file (Edit/Write results carry filePath + structuredPatch)."""
        result = line.get("tool_use_result")
        if line.get("type") != "user" or not isinstance(result, dict) or not self.prompts:
            return
        path, patch = result.get("filePath"), result.get("structuredPatch")
        if not isinstance(path, str) or not isinstance(patch, list):
            return
        lines = [str(row) for hunk in patch if isinstance(hunk, dict) for row in hunk.get("lines") or []]
        self.edits.append(_Edit(len(self.prompts) - 1, path, sum(r.startswith("+") for r in lines),
                                sum(r.startswith("-") for r in lines)))

    def rewind(self, uuid: str, dry_run: bool) -> dict[str, Any]:
        if uuid not in self.prompts:
            return {"canRewind": False, "error": "No file checkpoint found for this message."}
        index = self.prompts.index(uuid)
        undone = [e for e in self.edits if e.prompt >= index]
        if not dry_run:
            self.edits = [e for e in self.edits if e.prompt < index]
            return {"canRewind": True, "skippedLinks": 0}
        return {"canRewind": True, "filesChanged": sorted({e.path for e in undone}),
                "insertions": sum(e.insertions for e in undone), "deletions": sum(e.deletions for e in undone)}
