"""The one error type of the web layer: a user-facing message sent back as JSON."""

from __future__ import annotations


class ApiError(ValueError):
    """A bad request: its message is shown to the user, nothing on the server changes."""

    def __init__(self, message: str, status: int = 400) -> None:
        """Create the error with a one-line ``message`` and an HTTP ``status``."""
        super().__init__(message)
        self.status = status
