"""Match statistics: Elo difference, 95% error bar, LOS and the SPRT.

All figures use the plain logistic Elo model, E(d) = 1 / (1 + 10^(-d/400)), and
a trinomial (win/draw/loss) model of a single game.  The error bar follows the
usual normal approximation of the mean score, mapped through the Elo curve.
The SPRT is the generalised SPRT: the log-likelihood ratio of the two
maximum-likelihood trinomial distributions whose expected scores match elo0
and elo1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

# Draw-free fractions of zero would make logs and the MLE degenerate; this is a
# tiny pseudo-count, far too small to move a real result.
_EPSILON_COUNT = 1e-3


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
class Score:
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

    def reversed(self) -> Score:
        """The same results seen from the opponent's side."""
        return Score(self.losses, self.draws, self.wins)

    def add(self, points: float) -> Score:
        """Return a copy with one more game scoring ``points`` (1, 0.5 or 0)."""
        if points == 1.0:
            return Score(self.wins + 1, self.draws, self.losses)
        if points == 0.5:
            return Score(self.wins, self.draws + 1, self.losses)
        if points == 0.0:
            return Score(self.wins, self.draws, self.losses + 1)
        raise ValueError(f"a game scores 1, 0.5 or 0, not {points}")


def score_stdev(score: Score) -> float:
    """Standard deviation of a single game's score, estimated from the results."""
    n = score.games
    if n == 0:
        return 0.0
    mu = score.mean
    var = (
        score.wins * (1.0 - mu) ** 2 + score.draws * (0.5 - mu) ** 2 + score.losses * mu**2
    ) / n
    return math.sqrt(var)


def elo_interval(score: Score, confidence: float = 0.95) -> tuple[float, float]:
    """Lower and upper Elo bounds of the two-sided ``confidence`` interval."""
    n = score.games
    if n == 0:
        return (-math.inf, math.inf)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    half = z * score_stdev(score) / math.sqrt(n)
    return (elo_from_score(score.mean - half), elo_from_score(score.mean + half))


def elo_error(score: Score, confidence: float = 0.95) -> float:
    """Half the width of the Elo confidence interval (the "+/-" figure)."""
    low, high = elo_interval(score, confidence)
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2.0


def los(score: Score) -> float:
    """Likelihood of superiority: probability that the side is truly stronger (draws ignored)."""
    decisive = score.wins + score.losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((score.wins - score.losses) / math.sqrt(2.0 * decisive)))


def _mle_with_mean(freqs: list[float], outcomes: list[float], mean: float) -> list[float]:
    """Maximum-likelihood distribution over ``outcomes`` with expectation ``mean``."""
    # Lagrange: p_i = f_i / (1 + lam (a_i - mean)); pick lam so the mean holds.
    shifts = [a - mean for a in outcomes]
    lo = -1.0 / max(shifts) if max(shifts) > 0 else -1e9
    hi = -1.0 / min(shifts) if min(shifts) < 0 else 1e9

    def gap(lam: float) -> float:
        """Sum whose root fixes the mean; strictly decreasing in ``lam``."""
        return sum(f * s / (1.0 + lam * s) for f, s in zip(freqs, shifts, strict=True))

    margin = 1e-12 * (hi - lo)
    lo, hi = lo + margin, hi - margin
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if gap(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2.0
    return [f / (1.0 + lam * s) for f, s in zip(freqs, shifts, strict=True)]


def sprt_llr(score: Score, elo0: float, elo1: float) -> float:
    """Generalised-SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0)."""
    if score.games == 0:
        return 0.0
    counts = [
        max(float(score.wins), _EPSILON_COUNT),
        max(float(score.draws), _EPSILON_COUNT),
        max(float(score.losses), _EPSILON_COUNT),
    ]
    total = sum(counts)
    freqs = [c / total for c in counts]
    outcomes = [1.0, 0.5, 0.0]
    p0 = _mle_with_mean(freqs, outcomes, expected_score(elo0))
    p1 = _mle_with_mean(freqs, outcomes, expected_score(elo1))
    real = [float(score.wins), float(score.draws), float(score.losses)]
    return sum(n * math.log(b / a) for n, a, b in zip(real, p0, p1, strict=True) if n > 0)


def sprt_llr_approx(score: Score, elo0: float, elo1: float) -> float:
    """The classic closed-form approximation of :func:`sprt_llr` (for cross-checks)."""
    n = score.games
    sigma = score_stdev(score)
    if n == 0 or sigma == 0.0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2.0 * score.mean - s0 - s1) / (2.0 * sigma**2)


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


def format_elo(value: float) -> str:
    """Render an Elo figure for a table: signed, one decimal, or +inf/-inf."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value, 1) + 0.0:+.1f}"  # adding 0.0 turns -0.0 into 0.0


__all__ = [
    "Score",
    "elo_error",
    "elo_from_score",
    "elo_interval",
    "expected_score",
    "format_elo",
    "los",
    "score_stdev",
    "sprt_bounds",
    "sprt_llr",
    "sprt_llr_approx",
    "sprt_verdict",
]
