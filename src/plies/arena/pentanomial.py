"""Game-pair (pentanomial) statistics and the SPRT as fishtest computes it.

A paired-opening match plays every opening twice with colours swapped, so the
two games of a pair are not independent.  Counting pairs by the points one
side scored in them (0, 0.5, 1, 1.5 or 2) gives five outcomes, the
pentanomial; its variance is what fishtest's SPRT uses.

The log-likelihood ratios follow fishtest's ``server/fishtest/stats/LLRcalc.py``
(official-stockfish/fishtest): ``results_to_pdf`` with a 1e-3 pseudo-count for
empty outcomes, ``LLR_logistic`` (maximum-likelihood distributions whose mean
score matches logistic Elo bounds, Proposition 1.1 of
https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf) and
``LLR_normalized`` (distributions whose t-value matches normalized-Elo bounds,
section 4.1 of https://www.cantate.be/Fishtest/normalized_elo_practical.pdf).
fishtest solves the secular equation with scipy's brentq; here it is a plain
bisection, because the plies command line keeps scipy out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
"""Points one side can score in a game pair, in the order of the counts."""

NELO_PER_T = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value per game (fishtest's ``nelo_divided_by_nt``)."""

MODELS = ("normalized", "logistic")
"""Elo scales the SPRT bounds can be given in."""

# fishtest's pseudo-count for an outcome never seen (keeps the logs finite).
_EMPTY_COUNT = 1e-3
_BISECTIONS = 200
_T_VALUE_ROUNDS = 10


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


Pdf = list[tuple[float, float]]


def results_to_pdf(counts: Sequence[float]) -> tuple[float, Pdf]:
    """Total count and the empirical distribution over scores 0..1 (fishtest's layout)."""
    regular = [float(c) if c > 0 else _EMPTY_COUNT for c in counts]
    total = sum(regular)
    last = len(regular) - 1
    return total, [(i / last, c / total) for i, c in enumerate(regular)]


def pdf_stats(pdf: Pdf) -> tuple[float, float]:
    """Mean and variance of a distribution given as (value, probability) pairs."""
    mean = sum(p * a for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    return mean, var


def _secular(pdf: Pdf) -> float:
    """The root x of sum_i p_i a_i / (1 + x a_i) = 0 between the poles (values of both signs)."""
    values = [a for a, _ in pdf]
    low, high = -1.0 / max(values), -1.0 / min(values)
    margin = 1e-12 * (high - low)
    low, high = low + margin, high - margin

    def f(x: float) -> float:
        """The secular function; strictly decreasing between the poles."""
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    for _ in range(_BISECTIONS):
        mid = (low + high) / 2.0
        if f(mid) > 0.0:
            low = mid
        else:
            high = mid
    return (low + high) / 2.0


def mle_expected(pdf: Pdf, s: float) -> Pdf:
    """Most likely distribution, given the observed ``pdf``, whose mean is ``s``."""
    shifted = [(a - s, p) for a, p in pdf]
    x = _secular(shifted)
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def mle_t_value(pdf: Pdf, ref: float, t: float) -> Pdf:
    """Most likely distribution, given the observed ``pdf``, with (mean - ref) / sigma = ``t``."""
    n = len(pdf)
    mle: Pdf = [(a, 1.0 / n) for a, _ in pdf]
    for _ in range(_T_VALUE_ROUNDS):
        previous = mle
        mu, var = pdf_stats(mle)
        sigma = math.sqrt(var)
        shifted = [(a - ref - t * sigma * (1.0 + ((mu - a) / sigma) ** 2) / 2.0, p) for a, p in pdf]
        x = _secular(shifted)
        mle = [(pdf[i][0], pdf[i][1] / (1.0 + x * shifted[i][0])) for i in range(n)]
        if max(abs(previous[i][1] - mle[i][1]) for i in range(n)) < 1e-9:
            break
    return mle


def _llr_per_sample(pdf: Pdf, pdf0: Pdf, pdf1: Pdf) -> float:
    """Expected log-likelihood ratio of ``pdf1`` over ``pdf0`` under the observed ``pdf``."""
    return sum(
        p * (math.log(p1) - math.log(p0))
        for (_, p), (_, p0), (_, p1) in zip(pdf, pdf0, pdf1, strict=True)
    )


def logistic_to_score(elo: float) -> float:
    """Expected score of a side ``elo`` logistic Elo stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), bounds in logistic Elo.

    ``counts`` are three (loss, draw, win) or five (pentanomial) outcome counts.
    """
    if sum(counts) == 0:
        return 0.0
    total, pdf = results_to_pdf(counts)
    s0, s1 = logistic_to_score(elo0), logistic_to_score(elo1)
    return total * _llr_per_sample(pdf, mle_expected(pdf, s0), mle_expected(pdf, s1))


def llr_normalized(nelo0: float, nelo1: float, counts: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio of H1 (nelo1) against H0 (nelo0), bounds in normalized Elo.

    ``counts`` are three (loss, draw, win) or five (pentanomial) outcome counts.
    A pair's t-value is sqrt(2) times a game's, as in fishtest.
    """
    if sum(counts) == 0:
        return 0.0
    t0, t1 = nelo0 / NELO_PER_T, nelo1 / NELO_PER_T
    if len(counts) == 5:
        t0, t1 = t0 * math.sqrt(2.0), t1 * math.sqrt(2.0)
    elif len(counts) != 3:
        raise ValueError("counts must be 3 (L, D, W) or 5 (pentanomial) outcomes")
    total, pdf = results_to_pdf(counts)
    return total * _llr_per_sample(pdf, mle_t_value(pdf, 0.5, t0), mle_t_value(pdf, 0.5, t1))


def sprt_llr(penta: Pentanomial, elo0: float, elo1: float, model: str = "normalized") -> float:
    """The pentanomial SPRT's LLR for ``penta`` with bounds in the Elo ``model``."""
    if model == "normalized":
        return llr_normalized(elo0, elo1, penta.counts)
    if model == "logistic":
        return llr_logistic(elo0, elo1, penta.counts)
    raise ValueError(f"unknown Elo model {model!r}: use {' or '.join(MODELS)}")


def normalized_elo(penta: Pentanomial) -> float:
    """Normalized Elo: (score - 0.5) / per-game sigma times 800 / ln 10.

    0 with no pairs; +-inf when every pair scored the same (no variance) other than 1.
    """
    if penta.pairs == 0:
        return 0.0
    if max(penta.counts) == penta.pairs:
        return 0.0 if penta.counts[2] else math.copysign(math.inf, penta.score - 0.5)
    _, pdf = results_to_pdf(penta.counts)
    mu, var = pdf_stats(pdf)
    return (mu - 0.5) / math.sqrt(2.0 * var) * NELO_PER_T


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

    def elo(s: float) -> float:
        """Logistic Elo of a mean score (infinite at 0 and 1)."""
        if s <= 0.0 or s >= 1.0:
            return math.copysign(math.inf, s - 0.5)
        return -400.0 * math.log10(1.0 / s - 1.0)

    return elo(mu), (elo(mu + half) - elo(mu - half)) / 2.0


__all__ = [
    "MODELS",
    "NELO_PER_T",
    "PAIR_POINTS",
    "Pentanomial",
    "llr_logistic",
    "llr_normalized",
    "logistic_to_score",
    "mle_expected",
    "mle_t_value",
    "normalized_elo",
    "pair_elo_error",
    "pdf_stats",
    "results_to_pdf",
    "sprt_llr",
]
