"""`stream_event` payloads: the Anthropic SSE events with their deltas."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .base import ProtoModel, Tagged, UnknownBase
from .content import ContentBlock, Usage

__all__ = [
    "TextDelta", "ThinkingDelta", "InputJsonDelta", "SignatureDelta", "CitationsDelta", "UnknownDelta",
    "Delta", "MessageStart", "ContentBlockStart", "ContentBlockDelta", "ContentBlockStop", "MessageDelta",
    "MessageStop", "UnknownEvent", "Event",
]


class TextDelta(ProtoModel):
    type: Literal["text_delta"] = "text_delta"
    text: str


class ThinkingDelta(ProtoModel):
    type: Literal["thinking_delta"] = "thinking_delta"
    thinking: str


class InputJsonDelta(ProtoModel):
    type: Literal["input_json_delta"] = "input_json_delta"
    partial_json: str


class SignatureDelta(ProtoModel):
    type: Literal["signature_delta"] = "signature_delta"
    signature: str


class CitationsDelta(ProtoModel):
    type: Literal["citations_delta"] = "citations_delta"
    citation: dict[str, Any] = Field(default_factory=dict)


class UnknownDelta(UnknownBase):
    pass


Delta = Annotated[
    TextDelta | ThinkingDelta | InputJsonDelta | SignatureDelta | CitationsDelta | UnknownDelta,
    Tagged(
        "type",
        {
            "text_delta": TextDelta,
            "thinking_delta": ThinkingDelta,
            "input_json_delta": InputJsonDelta,
            "signature_delta": SignatureDelta,
            "citations_delta": CitationsDelta,
        },
        UnknownDelta,
    ),
]


class StreamMessageInfo(ProtoModel):
    """`message_start.message`: id, model and the usage at the start of a response."""

    id: str | None = None
    model: str | None = None
    role: str | None = None
    content: list[Any] = Field(default_factory=list)
    stop_reason: str | None = None
    usage: Usage | None = None


class MessageStart(ProtoModel):
    type: Literal["message_start"] = "message_start"
    message: StreamMessageInfo = Field(default_factory=StreamMessageInfo)


class ContentBlockStart(ProtoModel):
    type: Literal["content_block_start"] = "content_block_start"
    index: int
    content_block: ContentBlock


class ContentBlockDelta(ProtoModel):
    type: Literal["content_block_delta"] = "content_block_delta"
    index: int
    delta: Delta


class ContentBlockStop(ProtoModel):
    type: Literal["content_block_stop"] = "content_block_stop"
    index: int


class MessageDeltaBody(ProtoModel):
    stop_reason: str | None = None
    stop_sequence: str | None = None


class MessageDelta(ProtoModel):
    type: Literal["message_delta"] = "message_delta"
    delta: MessageDeltaBody = Field(default_factory=MessageDeltaBody)
    usage: Usage | None = None


class MessageStop(ProtoModel):
    type: Literal["message_stop"] = "message_stop"


class UnknownEvent(UnknownBase):
    pass


Event = Annotated[
    MessageStart | ContentBlockStart | ContentBlockDelta | ContentBlockStop | MessageDelta | MessageStop | UnknownEvent,
    Tagged(
        "type",
        {
            "message_start": MessageStart,
            "content_block_start": ContentBlockStart,
            "content_block_delta": ContentBlockDelta,
            "content_block_stop": ContentBlockStop,
            "message_delta": MessageDelta,
            "message_stop": MessageStop,
        },
        UnknownEvent,
    ),
]
