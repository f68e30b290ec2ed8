"""Git helpers (no textual, no asyncio): synchronous `git` calls the UI runs in a thread."""
