"""The learning rate over training: cosine decay from the start rate to a small share of it."""

from __future__ import annotations

import math

FINAL_SHARE = 0.02
"""The rate at the last step, as a share of the start rate."""


def learning_rate(start: float, step: int, total: int) -> float:
    """The rate at ``step`` (0-based) of ``total``: start, falling on a half cosine."""
    if total <= 1:
        return start
    progress = min(step / (total - 1), 1.0)
    share = FINAL_SHARE + (1.0 - FINAL_SHARE) * 0.5 * (1.0 + math.cos(math.pi * progress))
    return start * share
