"""Game-pair (pentanomial) counts and the Elo of a paired-opening match.

A paired-opening match plays every opening twice with colours swapped, so the
two games of a pair are not independent.  Counting pairs by the points one
side scored in them (0, 0.5, 1, 1.5 or 2) gives five outcomes, the
pentanomial; its variance is what fishtest's SPRT (:mod:`plies.arena.gsprt`)
and its Elo error bar use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from plies.arena.stats import elo_from_score

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
"""Points one side can score in a game pair, in the order of the counts."""


@dataclass(frozen=True)
class Pentanomial:
    """Counts of game pairs by the points one side scored: 0, 0.5, 1, 1.5, 2."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @classmethod
    def from_pair_points(cls, points: Sequence[float]) -> Pentanomial:
        """Count a sequence of pair scores (each 0, 0.5, 1, 1.5 or 2)."""
        counts = [0] * 5
        for p in points:
            index = round(p * 2)
            if not 0 <= index <= 4 or index / 2 != p:
                raise ValueError(f"a game pair scores 0, 0.5, 1, 1.5 or 2, not {p}")
            counts[index] += 1
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def results(self) -> tuple[int, int, int, int, int]:
        """The five counts: fishtest's pentanomial layout."""
        return self.counts

    @property
    def pairs(self) -> int:
        """Number of complete game pairs."""
        return sum(self.counts)

    @property
    def games(self) -> int:
        """Number of games in the complete pairs."""
        return 2 * self.pairs

    @property
    def score(self) -> float:
        """Mean score per game (0.5 with no pairs)."""
        if not self.pairs:
            return 0.5
        return sum(c * p for c, p in zip(self.counts, PAIR_POINTS, strict=True)) / self.games

    def reversed(self) -> Pentanomial:
        """The same pairs seen from the other side."""
        c = self.counts
        return Pentanomial((c[4], c[3], c[2], c[1], c[0]))


def pair_elo_error(penta: Pentanomial, z: float = 1.959964) -> tuple[float, float]:
    """Logistic Elo and its 95% half-width from the pair variance (inf where undefined)."""
    n = penta.pairs
    if n == 0:
        return 0.0, math.inf
    mu = penta.score
    if mu in (0.0, 1.0):
        return math.copysign(math.inf, mu - 0.5), math.inf
    var_pair = (
        sum(c * (p / 2.0 - mu) ** 2 for c, p in zip(penta.counts, PAIR_POINTS, strict=True)) / n
    )
    half = z * math.sqrt(var_pair / n)
    return elo_from_score(mu), (elo_from_score(mu + half) - elo_from_score(mu - half)) / 2.0


__all__ = [
    "PAIR_POINTS",
    "Pentanomial",
    "pair_elo_error",
]
