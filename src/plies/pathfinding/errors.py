"""Error types of the path-finding package: all are ``ValueError`` subclasses."""

from __future__ import annotations


class PathfindingError(ValueError):
    """Base class of every path-finding error a user can meet; the message is one line."""


class FormatError(PathfindingError):
    """A malformed input file; the message names the file and, where known, the line."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        """Record where the problem is and build the one-line ``file:line: message`` text."""
        self.source = source
        self.line = line
        self.message = message
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {message}")


class InvalidCellError(PathfindingError):
    """A start or goal cell that is off the grid or on a wall."""


class UnknownNodeError(PathfindingError):
    """A node name that the graph does not contain."""
