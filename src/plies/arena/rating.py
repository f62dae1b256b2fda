"""Joint maximum-likelihood ratings of a pool of players, as Ordo does.

Model: a game between A and B scores ``s`` in {1, 1/2, 0} for A, and A's
expected score is the logistic ``E = 1 / (1 + 10^((R_B - R_A) / 400))``. A draw
counts as half a win and half a loss, so the log-likelihood of a pairing is
``points * ln E + (games - points) * ln(1 - E)``: with two players the maximum
sits exactly where E equals the observed score. One player is the anchor
(its rating is fixed); every other rating is fitted jointly by Newton's method
on all the games at once, so a player who met several opponents is rated from
all of them.

Error bars: the observed information (the Hessian of the log-likelihood with
the anchor held fixed) gives a normal 95% interval, which treats each game as
a coin toss and so overstates the error when many games are drawn; a
parametric bootstrap redraws every pairing's wins, draws and losses from its
observed frequencies (as Ordo's simulations do) and refits, which counts
draws at their real weight. A player whose every game was won (or lost) has no
finite rating: it is reported as +inf / -inf, as is any player not connected
to the anchor by games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from plies.arena.stats import Tally, expected_score

__all__ = [
    "Rating",
    "RatingError",
    "bootstrap_errors",
    "fit_pool",
    "hessian_errors",
    "log_likelihood",
    "rate_pool",
]

Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""
_LN10_400 = math.log(10.0) / 400.0
"""d/dR of the logistic's log-odds: E = 1 / (1 + exp(-(R_A - R_B) * ln10 / 400))."""

Results = Mapping[tuple[str, str], Tally]
"""Pairwise results: ``(a, b) -> a's Tally against b`` (both orders may appear)."""


class RatingError(ValueError):
    """A pool that cannot be rated: an unknown anchor, no games, a bad name."""


@dataclass(frozen=True)
class Rating:
    """One player's fitted rating with its 95% error bar."""

    name: str
    """The player."""
    elo: float
    """Rating on the anchor's scale (+inf / -inf when unbounded)."""
    error: float
    """Half-width of the 95% interval (0 for the anchor; inf when unknown)."""
    games: int
    """Games the player took part in."""
    points: float
    """Points it scored in them."""


def _pairings(results: Results) -> dict[tuple[str, str], tuple[float, int]]:
    """Merge both orders of each pairing into ``(a, b) -> (a's points, games)`` with a < b."""
    merged: dict[tuple[str, str], tuple[float, int]] = {}
    for (a, b), score in results.items():
        if a == b:
            raise RatingError(f"a player cannot meet itself: {a}")
        if score.games == 0:
            continue
        key, pts = ((a, b), score.points) if a < b else ((b, a), score.games - score.points)
        old_pts, old_n = merged.get(key, (0.0, 0))
        merged[key] = (old_pts + pts, old_n + score.games)
    return merged


def log_likelihood(results: Results, ratings: Mapping[str, float]) -> float:
    """Log-likelihood of ``results`` under ``ratings`` (draws as half a win and half a loss)."""
    total = 0.0
    for (a, b), (pts, n) in _pairings(results).items():
        e = expected_score(ratings[a] - ratings[b])
        if pts > 0:
            total += pts * math.log(e)
        if n - pts > 0:
            total += (n - pts) * math.log(1.0 - e)
    return total


def _reach(edges: Mapping[str, set[str]], start: str) -> set[str]:
    """Every player reachable from ``start`` along ``edges``."""
    seen = {start}
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), set()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _unbounded(pairs: Mapping[tuple[str, str], tuple[float, int]], anchor: str,
               players: Sequence[str]) -> dict[str, float]:
    """Players with no finite rating against the anchor: +inf, -inf, or nan if unconnected.

    The maximum exists for exactly the players who have scored against someone
    rated from the anchor and conceded to someone too (Zermelo's condition):
    with an edge x -> y when x took points off y, the finite players are the
    anchor's strongly connected component.
    """
    scored: dict[str, set[str]] = {}
    conceded: dict[str, set[str]] = {}
    for (a, b), (pts, n) in pairs.items():
        if pts > 0:
            scored.setdefault(a, set()).add(b)
            conceded.setdefault(b, set()).add(a)
        if n - pts > 0:
            scored.setdefault(b, set()).add(a)
            conceded.setdefault(a, set()).add(b)
    below = _reach(scored, anchor)  # the anchor took points off them, directly or not
    above = _reach(conceded, anchor)  # they took points off the anchor, directly or not
    out: dict[str, float] = {}
    for p in players:
        if p in below and p in above:
            continue
        out[p] = math.inf if p in above else -math.inf if p in below else math.nan
    return out


def fit_pool(results: Results, anchor: str, anchor_elo: float = 0.0,
             iterations: int = 100) -> dict[str, float]:
    """Maximum-likelihood ratings of every player in ``results``, ``anchor`` fixed at anchor_elo.

    A player with a perfect (or null) record is +inf (-inf); one not connected
    to the anchor through finite players is nan.
    """
    pairs = _pairings(results)
    players = sorted({p for key in pairs for p in key})
    if anchor not in players:
        raise RatingError(f"the anchor {anchor!r} played no games")
    fixed = _unbounded(pairs, anchor, players)
    free = [p for p in players if p != anchor and p not in fixed]
    ratings = {p: anchor_elo for p in players if p not in fixed}
    index = {p: i for i, p in enumerate(free)}
    live = {k: v for k, v in pairs.items() if k[0] in ratings and k[1] in ratings}
    for _ in range(iterations if free else 0):
        grad, hess = _derivatives(live, ratings, index)
        step = _solve(hess, grad)
        # A damped step keeps Newton's method inside the logistic's well-behaved range.
        biggest = max(abs(s) for s in step)
        scale = min(1.0, 400.0 / biggest) if biggest > 0 else 1.0
        for p, s in zip(free, step, strict=True):
            ratings[p] += scale * s
        if biggest * scale < 1e-9:
            break
    return {p: fixed.get(p, ratings.get(p, math.nan)) for p in players}


def _derivatives(pairs: Mapping[tuple[str, str], tuple[float, int]], ratings: Mapping[str, float],
                 index: Mapping[str, int]) -> tuple[list[float], list[list[float]]]:
    """Gradient and negated Hessian of the log-likelihood in the free players' ratings."""
    k = len(index)
    grad = [0.0] * k
    info = [[0.0] * k for _ in range(k)]
    for (a, b), (pts, n) in pairs.items():
        e = expected_score(ratings[a] - ratings[b])
        g = _LN10_400 * (pts - n * e)
        w = _LN10_400**2 * n * e * (1.0 - e)
        ia, ib = index.get(a), index.get(b)
        if ia is not None:
            grad[ia] += g
            info[ia][ia] += w
        if ib is not None:
            grad[ib] -= g
            info[ib][ib] += w
        if ia is not None and ib is not None:
            info[ia][ib] -= w
            info[ib][ia] -= w
    return grad, info


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix x = vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    m = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-300:
            raise RatingError("the ratings are not determined by these games")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    """The diagonal of ``matrix``'s inverse (one solve per unit vector)."""
    n = len(matrix)
    return [_solve(matrix, [1.0 if j == i else 0.0 for j in range(n)])[i] for i in range(n)]


def hessian_errors(results: Results, ratings: Mapping[str, float], anchor: str,
                   z: float = Z95) -> dict[str, float]:
    """Half-widths of the normal intervals from the observed information at ``ratings``."""
    pairs = _pairings(results)
    free = [p for p in sorted(ratings) if p != anchor and math.isfinite(ratings[p])]
    out = {p: (0.0 if p == anchor else math.inf) for p in ratings}
    if not free:
        return out
    index = {p: i for i, p in enumerate(free)}
    live = {k: v for k, v in pairs.items()
            if math.isfinite(ratings.get(k[0], math.nan))
            and math.isfinite(ratings.get(k[1], math.nan))}
    _, info = _derivatives(live, ratings, index)
    for p, var in zip(free, _inverse_diagonal(info), strict=True):
        out[p] = z * math.sqrt(var) if var > 0 else math.inf
    return out


def bootstrap_errors(results: Results, anchor: str, samples: int = 1000, seed: int = 1,
                     confidence: float = 0.95) -> dict[str, float]:
    """Half-widths of the central ``confidence`` intervals of ratings refitted on resampled games.

    Each resample draws every pairing's games again from its observed win/draw/
    loss frequencies; a player whose resampled rating is unbounded in more than
    the interval's tail share gets an infinite error.
    """
    if samples < 2:
        raise RatingError("the bootstrap needs at least two samples")
    rng = random.Random(seed)
    drawn: dict[str, list[float]] = {}
    for _ in range(samples):
        fake: dict[tuple[str, str], Tally] = {}
        for key, score in results.items():
            n = score.games
            if n == 0:
                continue
            w, d = score.wins / n, score.draws / n
            wins = draws = 0
            for _ in range(n):
                u = rng.random()
                if u < w:
                    wins += 1
                elif u < w + d:
                    draws += 1
            fake[key] = Tally(wins, draws, n - wins - draws)
        for p, r in fit_pool(fake, anchor).items():
            drawn.setdefault(p, []).append(r)
    tail = (1.0 - confidence) / 2.0
    out: dict[str, float] = {}
    for p, values in drawn.items():
        values.sort(key=lambda v: -math.inf if math.isnan(v) else v)
        lo = values[int(tail * (len(values) - 1))]
        hi = values[math.ceil((1.0 - tail) * (len(values) - 1))]
        out[p] = (hi - lo) / 2.0 if math.isfinite(lo) and math.isfinite(hi) else math.inf
    out[anchor] = 0.0
    return out


def rate_pool(results: Results, anchor: str, anchor_elo: float = 0.0, bootstrap: int = 1000,
              seed: int = 1) -> list[Rating]:
    """Every player's rating (anchor fixed at ``anchor_elo``), best first, with 95% error bars.

    The error bars come from ``bootstrap`` resamples (0: from the Hessian).
    """
    ratings = fit_pool(results, anchor, anchor_elo)
    errors = (bootstrap_errors(results, anchor, bootstrap, seed) if bootstrap
              else hessian_errors(results, ratings, anchor))
    totals: dict[str, tuple[int, float]] = {}
    for (a, b), score in results.items():
        ga, pa = totals.get(a, (0, 0.0))
        gb, pb = totals.get(b, (0, 0.0))
        totals[a] = (ga + score.games, pa + score.points)
        totals[b] = (gb + score.games, pb + score.games - score.points)
    table = [Rating(p, r, errors.get(p, math.inf), *totals.get(p, (0, 0.0)))
             for p, r in ratings.items()]
    return sorted(table, key=lambda x: (-math.inf if math.isnan(x.elo) else x.elo), reverse=True)
