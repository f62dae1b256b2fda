"""The chess engine: ``Engine``, ``Limit``, ``Info``, ``SearchResult``, time management."""

from plies.engine.engine import Engine
from plies.engine.limits import Info, Limit, SearchResult

__all__ = ["Engine", "Info", "Limit", "SearchResult"]
