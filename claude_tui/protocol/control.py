"""The control protocol: `control_request` / `control_response` / `control_cancel_request`."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AliasChoices, Field, ValidationError

from .base import ProtoModel, Tagged, UnknownBase
from .lenient import repair

__all__ = [
    "PermissionSuggestion", "CanUseToolRequest", "HookCallbackRequest", "UnknownControlRequest",
    "ControlRequestBody", "ControlRequest", "ControlResponseBody", "ControlResponse", "ControlCancelRequest",
    "InitializeResponse", "ElicitationRequest", "UserDialogRequest",
]


class PermissionSuggestion(ProtoModel):
    """One "always allow" option (`addRules`, `addDirectories`, `setMode`, ...). Sent back verbatim
    (use `.raw`) in `updatedPermissions`."""

    type: str = ""
    rules: list[dict[str, Any]] | None = None
    behavior: str | None = None
    destination: str | None = None
    directories: list[str] | None = None
    mode: str | None = None


class CanUseToolRequest(ProtoModel):
    # Strict: with a bad field dropped, the dialog would show (and an answer echo) another input.
    lenient: ClassVar[bool] = False

    subtype: Literal["can_use_tool"] = "can_use_tool"
    tool_name: str = Field(validation_alias=AliasChoices("tool_name", "toolName"))
    display_name: str | None = Field(None, validation_alias=AliasChoices("display_name", "displayName"))
    input: dict[str, Any] = Field(default_factory=dict)
    description: str | None = None
    permission_suggestions: list[PermissionSuggestion] | None = Field(
        None, validation_alias=AliasChoices("permission_suggestions", "permissionSuggestions")
    )
    blocked_path: str | None = Field(None, validation_alias=AliasChoices("blocked_path", "blockedPath"))
    decision_reason: Any = Field(None, validation_alias=AliasChoices("decision_reason", "decisionReason"))
    tool_use_id: str | None = Field(None, validation_alias=AliasChoices("tool_use_id", "toolUseID", "toolUseId"))
    requires_user_interaction: bool | None = None

    @property
    def title(self) -> str:
        return self.display_name or self.tool_name


class HookCallbackRequest(ProtoModel):
    lenient: ClassVar[bool] = False

    subtype: Literal["hook_callback"] = "hook_callback"
    callback_id: str | None = None
    input: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str | None = None


class ElicitationRequest(ProtoModel):
    """An MCP server asks the user for input, through the CLI (`elicitation`, answered with
    `{action: accept|decline|cancel, content?}`). Every text in it is the server's: untrusted."""

    subtype: Literal["elicitation"] = "elicitation"
    mcp_server_name: str = ""
    message: str = ""
    mode: str | None = None
    """form (a schema to fill in) or url (a page to open)."""
    url: str | None = None
    elicitation_id: str | None = None
    requested_schema: dict[str, Any] | None = None
    property_order: list[str] | None = None
    title: str | None = None
    display_name: str | None = None
    description: str | None = None


class UserDialogRequest(ProtoModel):
    """The CLI asks us to render one of its dialogs (`request_user_dialog`, see `user_dialogs.py`);
    the payload's shape is the kind's (read there), its texts untrusted."""

    subtype: Literal["request_user_dialog"] = "request_user_dialog"
    dialog_kind: str = ""
    payload: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str | None = None


class UnknownControlRequest(UnknownBase):
    """A control request we do not handle: answer it with `builders.control_error`."""

    subtype: Any = None


ControlRequestBody = Annotated[
    CanUseToolRequest | HookCallbackRequest | ElicitationRequest | UserDialogRequest | UnknownControlRequest,
    Tagged("subtype", {"can_use_tool": CanUseToolRequest, "hook_callback": HookCallbackRequest,
                       "elicitation": ElicitationRequest, "request_user_dialog": UserDialogRequest},
           UnknownControlRequest),
]


class ControlRequest(ProtoModel):
    lenient: ClassVar[bool] = False

    type: Literal["control_request"] = "control_request"
    request_id: str
    request: ControlRequestBody


class ControlResponseBody(ProtoModel):
    subtype: str = "success"
    request_id: str | None = None
    response: dict[str, Any] | None = None
    error: str | None = None


class ControlResponse(ProtoModel):
    type: Literal["control_response"] = "control_response"
    response: ControlResponseBody

    @property
    def request_id(self) -> str | None:
        return self.response.request_id

    @property
    def is_error(self) -> bool:
        return self.response.subtype != "success"

    @property
    def payload(self) -> dict[str, Any] | None:
        return self.response.response

    @property
    def error(self) -> str | None:
        return self.response.error


class ControlCancelRequest(ProtoModel):
    type: Literal["control_cancel_request"] = "control_cancel_request"
    request_id: str


class InitializeResponse(ProtoModel):
    """The payload of the CLI's answer to `initialize` (the fields claude-tui reads; the rest kept as extras).

    `commands` and `models` stay the dicts the CLI sent (`name`/`description`/`argumentHint`;
    `value`/`displayName`/`resolvedModel`/…): the completion menu and the model palette show them as they
    are. `current_model`, `current_permission_mode` and `claude_code_version` come from newer CLIs only.
    """

    commands: list[dict[str, Any]] = Field(default_factory=list)
    models: list[dict[str, Any]] = Field(default_factory=list)
    account: dict[str, Any] = Field(default_factory=dict)
    current_model: str | None = None
    current_permission_mode: str | None = None
    claude_code_version: str | None = None

    @classmethod
    def from_payload(cls, payload: object) -> InitializeResponse:
        """Never raises: bad fields (a command that is not an object, a number for a version) are dropped."""
        if not isinstance(payload, dict):
            return cls()
        try:
            return cls.model_validate(payload)
        except ValidationError as error:
            fixed = repair(cls, payload, cls.model_validate, error)
            return fixed[0] if fixed is not None else cls()
