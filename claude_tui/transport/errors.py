"""Exceptions raised by the transport layer."""

from __future__ import annotations


class TransportError(Exception):
    """Base class for everything the transport raises on purpose."""


class ClaudeNotFoundError(TransportError, FileNotFoundError):
    """The `claude` binary could not be found; the message says what was tried."""


class ProcessGoneError(TransportError):
    """The CLI process is not running (never started, exited, or its pipes closed)."""


class ControlError(TransportError):
    """The CLI answered a control_request with ``subtype: error``."""

    def __init__(self, message: str, request_id: str = "", subtype: str = "") -> None:
        super().__init__(message)
        self.request_id = request_id
        self.subtype = subtype


class ControlTimeout(TransportError, TimeoutError):
    """No control_response arrived for a control_request in time."""

    def __init__(self, message: str, request_id: str = "", subtype: str = "") -> None:
        super().__init__(message)
        self.request_id = request_id
        self.subtype = subtype
