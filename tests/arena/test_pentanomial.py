"""Pentanomial statistics: pair counts, scores and Elo against reference values."""

from __future__ import annotations

import math

import pytest

from plies.arena.pentanomial import Pentanomial, pair_elo_error
from plies.arena.stats import normalized_elo


def test_counts_and_score_by_hand() -> None:
    """Five pairs scoring 2, 1.5, 1, 1, 0.5 give counts (0,1,2,1,1) and 6/10 points."""
    penta = Pentanomial.from_pair_points([2, 1.5, 1, 1, 0.5])
    assert penta.counts == penta.results == (0, 1, 2, 1, 1)
    assert penta.pairs == 5 and penta.games == 10
    assert penta.score == pytest.approx(0.6)
    assert penta.reversed().counts == (1, 1, 2, 1, 0)
    assert penta.reversed().score == pytest.approx(0.4)


def test_bad_pair_points_refused() -> None:
    """A pair cannot score 0.25 or 3."""
    for bad in (0.25, 3.0, -0.5):
        with pytest.raises(ValueError):
            Pentanomial.from_pair_points([bad])


# fastchess's Elo tests (app/tests/elo_test.cpp of Disservin/fastchess, EloPentanomial): its
# Stats take the pair counts LL, LD, WL, DD, WD, WW (WL and DD both score 1).
@pytest.mark.parametrize(
    ("counts", "nelo", "elo", "error"),
    [
        ((34, 54, 31 + 32, 64, 75), 57.94, 55.58, 27.65),
        ((332, 433, 457 + 41, 333, 334), -9.17, -8.64, 10.33),
        ((7895, 8757, 5485 + 200, 568, 9999), -19.01, -21.04, 2.95),
    ],
)
def test_elo_matches_fastchess(
    counts: tuple[int, int, int, int, int], nelo: float, elo: float, error: float
) -> None:
    """Normalized Elo, logistic Elo and its error bar from the pairs, to two decimals."""
    penta = Pentanomial(counts)
    assert normalized_elo(penta) == pytest.approx(nelo, abs=0.006)
    got_elo, got_error = pair_elo_error(penta)
    assert got_elo == pytest.approx(elo, abs=0.006)
    assert got_error == pytest.approx(error, abs=0.006)


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
    assert normalized_elo(Pentanomial((12, 0, 0, 0, 0))) == -math.inf
    assert normalized_elo(Pentanomial((0, 0, 5, 0, 0))) == 0.0
