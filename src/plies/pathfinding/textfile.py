"""Reading an input file's text (maps, mazes, scenarios, graphs) with one-line errors."""

from __future__ import annotations

from pathlib import Path

from plies.pathfinding.errors import FormatError


def read_text(path: str | Path, kind: str = "a text file", encoding: str = "utf-8") -> str:
    """Return the text of ``path``; a ``FormatError`` naming it when it cannot be read, or
    "not ``kind``" when it does not decode."""
    p = Path(path)
    try:
        return p.read_text(encoding=encoding)
    except UnicodeDecodeError as exc:
        raise FormatError(str(p), None, f"not {kind} ({exc.reason})") from None
    except OSError as exc:
        raise FormatError(str(p), None, exc.strerror or "cannot read file") from None
