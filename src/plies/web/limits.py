"""The server's bounds in one place: time, concurrency and memory a client may cost."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def default_slots() -> int:
    """Searches allowed at once: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerLimits:
    """How much any one client (or all of them together) can make the server do."""

    search_slots: int = field(default_factory=default_slots)
    """Searches (chess engines, game searches, path searches) running at once; more wait."""
    max_waiting: int = 64
    """Requests over HTTP that may wait for a search slot; beyond that the answer is busy."""
    search_cap_ms: int | None = 60_000
    """Longest any chess search runs, a depth-only or an until-stopped one included (None: no
    cap, for a server only you use: a tab's search "until Move now" then runs until stopped)."""
    analysis_budget_ms: int = 300_000
    """Engine time for a whole analysis: a long game gets less time per position."""
    game_search_s: float = 10.0
    """Longest a tic-tac-toe or connect-four search runs (MCTS, minimax... all of them)."""
    pgn_timeout_s: float = 5.0
    """Longest a PGN may take to read; longer is an error."""
    max_body: int = 1_000_000
    """Largest HTTP request body (a Moving AI map of 512 x 512 is about 270 kB)."""
    outbox_bytes: int = 8_000_000
    """Replies a tab may leave unread before it is disconnected as a slow reader."""
