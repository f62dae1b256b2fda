"""Elo from results: the expected score and its inverse, tallies, error bars, LOS, normalized Elo.

The one home of the logistic Elo model, E(d) = 1 / (1 + 10^(-d/400)) and its
inverse, as fishtest's ``stat_util.L`` and ``stat_util.elo``; the pentanomial
(:mod:`plies.arena.pentanomial`), the SPRT (:mod:`plies.arena.gsprt`) and the
pool ratings (:mod:`plies.arena.rating`) read them from here.  The error bar
follows the usual normal approximation of the mean score, mapped through the
Elo curve.  Results in fishtest's layout (:func:`results_to_pdf`) are the
three (loss, draw, win) counts of a :class:`Tally` or the five pair counts of a
pentanomial.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Protocol

NELO_PER_T = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value per game (fishtest's ``nelo_divided_by_nt``)."""

# fishtest's pseudo-count for an outcome never seen (keeps the logs finite).
_EMPTY_COUNT = 1e-3


def expected_score(elo_diff: float) -> float:
    """Expected score of a player who is ``elo_diff`` Elo stronger than the opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -elo_diff / 400.0))


def elo_from_score(score: float) -> float:
    """Elo difference implied by a mean score in [0, 1] (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of one side of a pairing."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Number of games counted."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Points scored: one per win, a half per draw."""
        return self.wins + 0.5 * self.draws

    @property
    def mean(self) -> float:
        """Mean score per game (0.5 when no games were played)."""
        return self.points / self.games if self.games else 0.5

    @property
    def results(self) -> tuple[int, int, int]:
        """Losses, draws and wins: fishtest's trinomial layout."""
        return (self.losses, self.draws, self.wins)

    def reversed(self) -> Tally:
        """The same results seen from the opponent's side."""
        return Tally(self.losses, self.draws, self.wins)

    def add(self, points: float) -> Tally:
        """Return a copy with one more game scoring ``points`` (1, 0.5 or 0)."""
        if points == 1.0:
            return Tally(self.wins + 1, self.draws, self.losses)
        if points == 0.5:
            return Tally(self.wins, self.draws + 1, self.losses)
        if points == 0.0:
            return Tally(self.wins, self.draws, self.losses + 1)
        raise ValueError(f"a game scores 1, 0.5 or 0, not {points}")


class Outcomes(Protocol):
    """Counted results in fishtest's layout: a :class:`Tally` or a pentanomial."""

    @property
    def results(self) -> tuple[int, ...]:
        """Three (loss, draw, win) or five (pair scores 0, 0.5, 1, 1.5, 2) counts."""
        ...


Pdf = list[tuple[float, float]]
"""A distribution as (value, probability) pairs, values ascending in [0, 1]."""


def results_to_pdf(results: Sequence[float]) -> tuple[float, Pdf]:
    """Total count and the empirical distribution over scores 0..1 (fishtest's layout).

    An outcome never seen gets fishtest's pseudo-count of 1e-3.
    """
    regular = [float(c) if c > 0 else _EMPTY_COUNT for c in results]
    total = sum(regular)
    last = len(regular) - 1
    return total, [(i / last, c / total) for i, c in enumerate(regular)]


def pdf_stats(pdf: Pdf) -> tuple[float, float]:
    """Mean and variance of a distribution given as (value, probability) pairs."""
    mean = sum(p * a for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    return mean, var


def normalized_elo(counts: Outcomes) -> float:
    """Normalized Elo: (score - 0.5) / the per-game standard deviation, times 800 / ln 10.

    0 with no games; +-inf when every game (or pair) scored the same other than a half.
    A pair's variance is twice a game's, as in fishtest.
    """
    results = counts.results
    total = sum(results)
    if total == 0:
        return 0.0
    if max(results) == total:
        middle = len(results) // 2
        return 0.0 if results[middle] else math.copysign(math.inf, results.index(total) - middle)
    _, pdf = results_to_pdf(results)
    mu, var = pdf_stats(pdf)
    per_game = var * (len(results) - 1) / 2.0
    return (mu - 0.5) / math.sqrt(per_game) * NELO_PER_T


def score_stdev(score: Tally) -> float:
    """Standard deviation of a single game's score, estimated from the results."""
    n = score.games
    if n == 0:
        return 0.0
    mu = score.mean
    var = (
        score.wins * (1.0 - mu) ** 2 + score.draws * (0.5 - mu) ** 2 + score.losses * mu**2
    ) / n
    return math.sqrt(var)


def elo_interval(score: Tally, confidence: float = 0.95) -> tuple[float, float]:
    """Lower and upper Elo bounds of the two-sided ``confidence`` interval."""
    n = score.games
    if n == 0:
        return (-math.inf, math.inf)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    half = z * score_stdev(score) / math.sqrt(n)
    return (elo_from_score(score.mean - half), elo_from_score(score.mean + half))


def elo_error(score: Tally, confidence: float = 0.95) -> float:
    """Half the width of the Elo confidence interval (the "+/-" figure)."""
    low, high = elo_interval(score, confidence)
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2.0


def los(score: Tally) -> float:
    """Likelihood of superiority: probability that the side is truly stronger (draws ignored)."""
    decisive = score.wins + score.losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((score.wins - score.losses) / math.sqrt(2.0 * decisive)))


def format_elo(value: float) -> str:
    """Render an Elo figure for a table: signed, one decimal, or +inf/-inf."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value, 1) + 0.0:+.1f}"  # adding 0.0 turns -0.0 into 0.0


__all__ = [
    "NELO_PER_T",
    "Outcomes",
    "Pdf",
    "Tally",
    "elo_error",
    "elo_from_score",
    "elo_interval",
    "expected_score",
    "format_elo",
    "los",
    "normalized_elo",
    "pdf_stats",
    "results_to_pdf",
    "score_stdev",
]
