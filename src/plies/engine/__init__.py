"""The chess engine: ``Engine``, ``Limit``, ``Info`` (its reports and result), time management."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.engine.limits import Info, Limit

if TYPE_CHECKING:
    from plies.engine.engine import Engine

__all__ = ["Engine", "Info", "Limit"]


def __getattr__(name: str) -> Any:
    """``Engine`` on first use: it loads numba and the search, and what needs only a ``Limit``
    (the UCI parser, which answers ``uci`` at once) must not wait for that."""
    if name == "Engine":
        from plies.engine.engine import Engine

        return Engine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
