"""plies: game-playing search in Python, with a compiled chess engine at its heart.

The chess names are loaded lazily, so that ``import plies.pathfinding`` or
``import plies.games`` does not pay for numba.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "Board": "plies.board",
    "Move": "plies.board",
    "Outcome": "plies.board",
    "Termination": "plies.board",
    "InvalidFenError": "plies.board",
    "IllegalMoveError": "plies.board",
    "perft": "plies.board",
    "divide": "plies.board",
    "Engine": "plies.engine",
    "Limit": "plies.engine",
    "Info": "plies.engine",
}

if TYPE_CHECKING:
    from plies.board import (
        Board,
        IllegalMoveError,
        InvalidFenError,
        Move,
        Outcome,
        Termination,
        divide,
        perft,
    )
    from plies.engine import Engine, Info, Limit

__all__ = [
    "Board",
    "Engine",
    "IllegalMoveError",
    "Info",
    "InvalidFenError",
    "Limit",
    "Move",
    "Outcome",
    "Termination",
    "__version__",
    "divide",
    "perft",
]


def __getattr__(name: str) -> Any:
    """Import the chess names on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'plies' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
