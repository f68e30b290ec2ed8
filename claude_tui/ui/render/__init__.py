"""Rendering without a widget of its own: answer segments and lines, Markdown, code blocks, diffs."""
