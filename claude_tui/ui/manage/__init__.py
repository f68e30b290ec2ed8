"""Screens for what Claude Code manages: MCP servers, elicitation forms, context, permission
rules, hooks and plan limits. Each asks the CLI through `protocol/manage.py` requests."""
