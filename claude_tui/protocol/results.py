"""`type: "result"`: the end of a turn (success or any error subtype) with cumulative cost/usage."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field

from .base import ProtoModel
from .content import Usage

__all__ = ["ResultMessage", "ModelUsage", "PermissionDenial", "ResultUsage", "RESULT_ERROR_SUBTYPES"]

RESULT_ERROR_SUBTYPES = frozenset(
    {"error_max_turns", "error_during_execution", "error_max_budget_usd", "error_max_structured_output_retries"}
)


def _camel(name: str, snake: str) -> Any:
    return Field(None, validation_alias=AliasChoices(name, snake))


class ModelUsage(ProtoModel):
    """One entry of `modelUsage` (camelCase keys in the CLI output)."""

    input_tokens: int | None = _camel("inputTokens", "input_tokens")
    output_tokens: int | None = _camel("outputTokens", "output_tokens")
    cache_read_input_tokens: int | None = _camel("cacheReadInputTokens", "cache_read_input_tokens")
    cache_creation_input_tokens: int | None = _camel("cacheCreationInputTokens", "cache_creation_input_tokens")
    web_search_requests: int | None = _camel("webSearchRequests", "web_search_requests")
    cost_usd: float | None = _camel("costUSD", "cost_usd")
    context_window: int | None = _camel("contextWindow", "context_window")
    max_output_tokens: int | None = _camel("maxOutputTokens", "max_output_tokens")


class ResultUsage(Usage):
    service_tier: str | None = None


class PermissionDenial(ProtoModel):
    tool_name: str | None = None
    tool_use_id: str | None = None
    tool_input: dict[str, Any] = Field(default_factory=dict)


class ResultMessage(ProtoModel):
    """Every `result` subtype decodes to this class (a new error subtype must still end the turn)."""

    type: Literal["result"] = "result"
    subtype: str = "success"
    is_error: bool = False
    result: str | None = None
    errors: list[Any] | None = None
    num_turns: int | None = None
    duration_ms: float | None = None
    duration_api_ms: float | None = None
    total_cost_usd: float | None = Field(None, strict=True)
    """Strict: a cost is a JSON number (an int is fine); `true` or "0.5" is not one (it would show as $1.00)."""
    usage: ResultUsage | None = None
    model_usage: dict[str, ModelUsage] = Field(
        default_factory=dict, validation_alias=AliasChoices("modelUsage", "model_usage")
    )
    permission_denials: list[PermissionDenial] = Field(default_factory=list)
    stop_reason: str | None = None
    terminal_reason: str | None = None
    structured_output: Any = None
    api_error_status: int | None = None
    session_id: str | None = Field(None, validation_alias=AliasChoices("session_id", "sessionId"))
    uuid: str | None = None

    @property
    def is_success(self) -> bool:
        return self.subtype == "success" and not self.is_error

    @property
    def context_window(self) -> int | None:
        """The largest `contextWindow` reported in `modelUsage`, if any."""
        windows = [m.context_window for m in self.model_usage.values() if m.context_window]
        return max(windows) if windows else None
