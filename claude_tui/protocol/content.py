"""Content blocks of `message.content` (assistant and user) and `content_block_start`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .base import ProtoModel, Tagged, UnknownBase

__all__ = [
    "TextBlock", "ThinkingBlock", "RedactedThinkingBlock", "ToolUseBlock", "ToolResultBlock",
    "ImageBlock", "UnknownBlock", "ContentBlock", "Usage",
]


class TextBlock(ProtoModel):
    type: Literal["text"] = "text"
    text: str = ""
    citations: list[Any] | None = None


class ThinkingBlock(ProtoModel):
    type: Literal["thinking"] = "thinking"
    thinking: str = ""
    signature: str | None = None


class RedactedThinkingBlock(ProtoModel):
    type: Literal["redacted_thinking"] = "redacted_thinking"
    data: str = ""


class ToolUseBlock(ProtoModel):
    type: Literal["tool_use"] = "tool_use"
    id: str
    name: str
    input: dict[str, Any] = Field(default_factory=dict)


class ToolResultBlock(ProtoModel):
    type: Literal["tool_result"] = "tool_result"
    tool_use_id: str
    content: str | list[Any] | None = None
    is_error: bool | None = None

    @property
    def text(self) -> str:
        """The result as plain text (text parts of a list joined by newlines)."""
        c = self.content
        if c is None:
            return ""
        if isinstance(c, str):
            return c
        out = []
        for part in c:
            if isinstance(part, dict) and part.get("type") == "text":
                out.append(str(part.get("text", "")))
            elif isinstance(part, dict) and part.get("type") == "image":
                out.append("[image]")
        return "\n".join(out)


class ImageBlock(ProtoModel):
    type: Literal["image"] = "image"
    source: dict[str, Any] = Field(default_factory=dict)


class UnknownBlock(UnknownBase):
    """A content block of a type we do not know (server_tool_use, document, ...)."""


ContentBlock = Annotated[
    TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock | UnknownBlock,
    Tagged(
        "type",
        {
            "text": TextBlock,
            "thinking": ThinkingBlock,
            "redacted_thinking": RedactedThinkingBlock,
            "tool_use": ToolUseBlock,
            "tool_result": ToolResultBlock,
            "image": ImageBlock,
        },
        UnknownBlock,
    ),
]


class Usage(ProtoModel):
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None

    @property
    def context_tokens(self) -> int:
        """Tokens occupying the context window (input + cache read + cache creation)."""
        return (self.input_tokens or 0) + (self.cache_read_input_tokens or 0) + (
            self.cache_creation_input_tokens or 0
        )

