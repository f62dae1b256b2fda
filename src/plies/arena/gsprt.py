"""The SPRT: fishtest's generalised SPRT over trinomial or pentanomial counts.

One test, two models of the results, named by the counts it is given:

- ``pentanomial`` (a :class:`~plies.arena.pentanomial.Pentanomial`): game pairs
  of a paired-opening match counted by the points one side scored in them.
  The two games of a pair share an opening, so they are not independent; their
  pair is the sample, as on fishtest.  ``plies arena --sprt`` and ``plies sprt``
  both play paired openings and decide with this model.
- ``trinomial`` (a :class:`~plies.arena.stats.Tally`): single games counted as
  loss, draw or win, for games that are not played in pairs.

The bounds are in fishtest's ``normalized`` Elo (the default: a t-value per
game times 800 / ln 10, which does not depend on the draw rate) or in plain
``logistic`` Elo.  The log-likelihood ratios follow fishtest's
``server/fishtest/stats/LLRcalc.py`` (official-stockfish/fishtest):
``results_to_pdf`` with a 1e-3 pseudo-count for empty outcomes,
``LLR_logistic`` (maximum-likelihood distributions whose mean score matches
logistic Elo bounds, Proposition 1.1 of
https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf) and
``LLR_normalized`` (distributions whose t-value matches normalized-Elo bounds,
section 4.1 of https://www.cantate.be/Fishtest/normalized_elo_practical.pdf).
fishtest solves the secular equation with scipy's brentq; here it is a plain
bisection, so that plies needs no scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from plies.arena.stats import NELO_PER_T, Outcomes, Pdf, expected_score, pdf_stats, results_to_pdf

ELO_MODELS = ("normalized", "logistic")
"""Elo scales the bounds can be given in (fishtest's ``elo_model``)."""

MODELS = {3: "trinomial", 5: "pentanomial"}
"""The model of the results, by the number of outcomes counted."""

_BISECTIONS = 200
_T_VALUE_ROUNDS = 10


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
        if mid in (low, high):  # the interval is down to adjacent floats
            break
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


def llr_logistic(elo0: float, elo1: float, results: Sequence[float]) -> float:
    """fishtest's ``LLR_logistic``: the GSPRT's LLR of H1 (elo1) against H0 (elo0), logistic Elo.

    ``results`` are three (loss, draw, win) or five (pentanomial) outcome counts.
    """
    if sum(results) == 0:
        return 0.0
    total, pdf = results_to_pdf(results)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return total * _llr_per_sample(pdf, mle_expected(pdf, s0), mle_expected(pdf, s1))


def llr_normalized(nelo0: float, nelo1: float, results: Sequence[float]) -> float:
    """fishtest's ``LLR_normalized``: the GSPRT's LLR with bounds in normalized Elo.

    ``results`` are three (loss, draw, win) or five (pentanomial) outcome counts.
    A pair's t-value is sqrt(2) times a game's, as in fishtest.
    """
    if len(results) not in MODELS:
        raise ValueError("results must be 3 (L, D, W) or 5 (pentanomial) outcome counts")
    if sum(results) == 0:
        return 0.0
    t0, t1 = nelo0 / NELO_PER_T, nelo1 / NELO_PER_T
    if len(results) == 5:
        t0, t1 = t0 * math.sqrt(2.0), t1 * math.sqrt(2.0)
    total, pdf = results_to_pdf(results)
    return total * _llr_per_sample(pdf, mle_t_value(pdf, 0.5, t0), mle_t_value(pdf, 0.5, t1))


def model_of(counts: Outcomes) -> str:
    """``trinomial`` for a tally of games, ``pentanomial`` for counts of game pairs."""
    try:
        return MODELS[len(counts.results)]
    except KeyError:
        raise ValueError("counts must be 3 (L, D, W) or 5 (pentanomial) outcomes") from None


def sprt_llr(counts: Outcomes, elo0: float, elo1: float, elo_model: str = "normalized") -> float:
    """The one GSPRT: LLR of H1 (elo1) against H0 (elo0) for trinomial or pentanomial ``counts``.

    The model follows the counts (:func:`model_of`); the bounds are in ``elo_model`` Elo.
    """
    model_of(counts)
    if elo_model == "normalized":
        return llr_normalized(elo0, elo1, counts.results)
    if elo_model == "logistic":
        return llr_logistic(elo0, elo1, counts.results)
    raise ValueError(f"unknown Elo model {elo_model!r}: use {' or '.join(ELO_MODELS)}")


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Lower (accept H0) and upper (accept H1) LLR bounds for error rates alpha and beta."""
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def sprt_verdict(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str | None:
    """'H1' or 'H0' once the LLR crosses a bound, else None (keep playing)."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


@dataclass(frozen=True)
class Sprt:
    """One SPRT: H0 (elo0) against H1 (elo1), error rates, and the Elo model of the bounds."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    elo_model: str = "normalized"

    def __post_init__(self) -> None:
        """Refuse a test that cannot be run."""
        if not self.elo0 < self.elo1:
            raise ValueError("the SPRT needs elo0 < elo1")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("the SPRT's alpha and beta must be between 0 and 0.5")
        if self.elo_model not in ELO_MODELS:
            raise ValueError(f"unknown Elo model {self.elo_model!r}: use "
                             f"{' or '.join(ELO_MODELS)}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Lower (accept H0) and upper (accept H1) LLR bounds."""
        return sprt_bounds(self.alpha, self.beta)

    def decide(self, counts: Outcomes) -> tuple[float, str | None]:
        """The LLR of ``counts`` and the verdict ('H1', 'H0' or None: keep playing)."""
        llr = sprt_llr(counts, self.elo0, self.elo1, self.elo_model)
        return llr, sprt_verdict(llr, self.alpha, self.beta)

    def describe(self, counts: Outcomes) -> str:
        """The test in words: model, Elo model, bounds and error rates."""
        return (f"{model_of(counts)} GSPRT, {self.elo_model} Elo [{self.elo0:g}, {self.elo1:g}], "
                f"alpha={self.alpha:g}, beta={self.beta:g}")


__all__ = [
    "ELO_MODELS",
    "MODELS",
    "Sprt",
    "llr_logistic",
    "llr_normalized",
    "mle_expected",
    "mle_t_value",
    "model_of",
    "sprt_bounds",
    "sprt_llr",
    "sprt_verdict",
]
