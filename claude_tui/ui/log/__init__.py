"""The chat log: its window of mounted widgets and the items it shows (answers, tool cards, notes)."""
