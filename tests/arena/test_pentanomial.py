"""Pentanomial statistics: pair counts, scores, and the SPRT against reference values."""

from __future__ import annotations

import math

import pytest

from plies.arena.pentanomial import (
    Pentanomial,
    llr_logistic,
    llr_normalized,
    mle_expected,
    mle_t_value,
    normalized_elo,
    pair_elo_error,
    pdf_stats,
    results_to_pdf,
    sprt_llr,
)
from plies.arena.stats import Score
from plies.arena.stats import sprt_llr as trinomial_llr


def test_counts_and_score_by_hand() -> None:
    """Five pairs scoring 2, 1.5, 1, 1, 0.5 give counts (0,1,2,1,1) and 6/10 points."""
    penta = Pentanomial.from_pair_points([2, 1.5, 1, 1, 0.5])
    assert penta.counts == (0, 1, 2, 1, 1)
    assert penta.pairs == 5 and penta.games == 10
    assert penta.score == pytest.approx(0.6)
    assert penta.reversed().counts == (1, 1, 2, 1, 0)
    assert penta.reversed().score == pytest.approx(0.4)


def test_bad_pair_points_refused() -> None:
    """A pair cannot score 0.25 or 3."""
    for bad in (0.25, 3.0, -0.5):
        with pytest.raises(ValueError):
            Pentanomial.from_pair_points([bad])


def test_empty_and_symmetric_results() -> None:
    """No pairs: LLR 0; the reversed result with mirrored bounds gives the opposite LLR."""
    assert sprt_llr(Pentanomial(), 0, 2) == 0.0
    penta = Pentanomial((3, 10, 20, 14, 5))
    forward = llr_logistic(0, 5, penta.counts)
    mirrored = llr_logistic(-5, 0, penta.reversed().counts)
    assert forward == pytest.approx(-mirrored, rel=1e-9)


def test_regularized_pdf_by_hand() -> None:
    """An empty outcome gets fishtest's 1e-3 pseudo-count; values run 0, 0.25, ... 1."""
    total, pdf = results_to_pdf([0, 1, 2, 1, 1])
    assert total == pytest.approx(5.001)
    assert [a for a, _ in pdf] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert pdf[0][1] == pytest.approx(0.001 / 5.001)
    assert pdf[2][1] == pytest.approx(2 / 5.001)


def test_constrained_mles_hit_their_constraints() -> None:
    """The MLE with a given mean has that mean; the one with a given t-value has that t."""
    _, pdf = results_to_pdf([3, 10, 20, 14, 5])
    mle = mle_expected(pdf, 0.48)
    assert sum(p for _, p in mle) == pytest.approx(1.0)
    assert pdf_stats(mle)[0] == pytest.approx(0.48, abs=1e-9)
    mle_t = mle_t_value(pdf, 0.5, 0.05)
    mu, var = pdf_stats(mle_t)
    assert (mu - 0.5) / math.sqrt(var) == pytest.approx(0.05, abs=1e-6)


# Reference LLRs from fastchess's SPRT tests (tests/sprt_test.cpp of Disservin/fastchess),
# which follow fishtest's LLRcalc.py; pentanomial counts are LL, LD, WL+DD, WD, WW.
@pytest.mark.parametrize(
    ("counts", "bounds", "model", "expected"),
    [
        ((365, 16618, 36029 + 200, 16974, 390), (0, 2), "normalized", 2.25),
        ((127, 4883, 10311 + 401, 5150, 104), (-1.75, 0.25), "normalized", 3.01),
        ((223, 9863, 20279 + 1000, 10037, 246), (0.5, 2.5), "logistic", -3.07),
        ((871, 26175, 55003 + 980, 26678, 821), (0, 2), "logistic", -4.98),
    ],
)
def test_pentanomial_llr_matches_fastchess(
    counts: tuple[int, int, int, int, int],
    bounds: tuple[float, float],
    model: str,
    expected: float,
) -> None:
    """Known pentanomial LLRs, to the two decimals the reference gives."""
    llr = sprt_llr(Pentanomial(counts), bounds[0], bounds[1], model)
    assert llr == pytest.approx(expected, abs=0.006)


def test_trinomial_llr_matches_fastchess_and_arena() -> None:
    """Three-outcome counts (L, D, W) give fastchess's values and the arena's own GSPRT."""
    assert llr_normalized(0, 2, [36027, 68692, 36433]) == pytest.approx(0.92, abs=0.006)
    assert llr_logistic(0, 2, [57030, 106593, 57433]) == pytest.approx(-2.59, abs=0.006)
    ours = llr_logistic(-5, 5, [30, 52, 41])
    arena = trinomial_llr(Score(41, 52, 30), -5, 5)
    assert ours == pytest.approx(arena, rel=1e-6)


def test_elo_estimates() -> None:
    """A dead-even result is 0 Elo; more wins than losses is positive with a finite error bar."""
    assert normalized_elo(Pentanomial((1, 4, 10, 4, 1))) == pytest.approx(0.0, abs=1e-9)
    elo, err = pair_elo_error(Pentanomial((1, 3, 10, 5, 1)))
    assert elo > 0 and 0 < err < math.inf
    assert pair_elo_error(Pentanomial()) == (0.0, math.inf)


def test_one_sided_results_are_infinite_not_made_up() -> None:
    """Every pair won: Elo and normalized Elo are +inf; every pair drawn: normalized Elo 0."""
    assert pair_elo_error(Pentanomial((0, 0, 0, 0, 12))) == (math.inf, math.inf)
    assert pair_elo_error(Pentanomial((12, 0, 0, 0, 0)))[0] == -math.inf
    assert normalized_elo(Pentanomial((0, 0, 0, 0, 12))) == math.inf
    assert normalized_elo(Pentanomial((0, 0, 5, 0, 0))) == 0.0
