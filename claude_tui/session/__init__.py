"""The conversation state machine: protocol messages in, log items and status out (no Textual)."""

from claude_tui.session.conversation import Conversation
from claude_tui.session.items import NoteItem, NoteKind, TextItem, ThinkingItem, ToolItem, ToolState, UserItem
from claude_tui.session.log import Log
from claude_tui.session.permissions import PermissionDecision, PermissionRequest, describe_suggestion
from claude_tui.session.status import Activity, SessionStatus
from claude_tui.session.tasks import AgentEntry, TaskBoard, TaskEntry, TodoEntry

__all__ = [
    "Activity", "AgentEntry", "Conversation", "Log", "NoteItem", "NoteKind", "PermissionDecision",
    "PermissionRequest", "SessionStatus", "TaskBoard", "TaskEntry", "TextItem", "ThinkingItem",
    "TodoEntry", "ToolItem", "ToolState", "UserItem", "describe_suggestion",
]
