"""Markdown for untrusted text (answers, plans, command output): what the model wrote, made inert.

Our text is sanitized with `printable()` *before* it is parsed, but markdown-it then decodes
character references (`&#x202E;`, `&#x2066;`, `&rlm;`) into the very characters sanitizing took
out — bidi overrides that reorder what the terminal shows. So:

* the parser is Textual's default ("gfm-like": tables, strikethrough, linkify) with the `entity`
  rule off: a character reference is shown as written, `&amp;` too; raw HTML is off as well, so
  `Vec<T>` or a `<details>` block is shown as text instead of dropped;
* a last core rule runs `printable()` over every token's text, attributes and info string, for
  the places markdown-it decodes references on its own (link titles, fence info);
* links never open on a click: the click shows the real address (inert) and asks first, behind
  the typeahead guard. Only http(s) addresses are offered; anything else is only shown.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from textual import on
from textual.widget import Widget
from textual.widgets import Markdown

from claude_tui.protocol.sanitize import one_line, printable

OPENABLE = ("https://", "http://")


def _inert(tokens: list[Token]) -> None:
    for token in tokens:
        token.content = printable(token.content)
        token.info = printable(token.info)
        for name, value in list(token.attrs.items()):
            if isinstance(value, str):
                token.attrs[name] = printable(value)
        if token.children:
            _inert(token.children)


def _inert_rule(state: StateCore) -> None:
    _inert(state.tokens)


def safe_parser() -> MarkdownIt:
    """Textual's default parser without entity decoding, and with every token made inert."""
    # html off: raw HTML is shown as written. On, markdown-it makes `Vec<T>` or `<div>` an HTML
    # token that no renderer draws, and the words silently vanish from the answer.
    parser = MarkdownIt("gfm-like", {"html": False}).disable("entity")
    parser.core.ruler.push("inert_text", _inert_rule)
    return parser


class SafeMarkdown(Markdown):
    """`Markdown` for untrusted text: no character references decoded, links opened only when confirmed."""

    def __init__(self, markdown: str | None = None, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(markdown, name=name, id=id, classes=classes, parser_factory=safe_parser, open_links=False)

    @on(Markdown.LinkClicked)
    def _link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        ask_to_open(self, event.href)


def ask_to_open(widget: Widget, href: str) -> None:
    """A link clicked in untrusted text: show the real address and ask before opening it (http(s) only)."""
    shown = one_line(href)
    # The address is opened exactly as shown: one with controls or spaces is never opened.
    if shown != href or not href.lower().startswith(OPENABLE):
        widget.notify(f"Link not opened: {shown[:300]}", title="Link", severity="warning", timeout=8)
        return
    from claude_tui.ui.dialogs.confirm import ConfirmScreen

    def answered(yes: bool | None) -> None:
        if yes:
            widget.app.open_url(href)

    widget.app.push_screen(ConfirmScreen("Open this link in your browser?", yes="Open", no="Cancel",
                                         detail=href), answered)
