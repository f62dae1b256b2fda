"""Elo from results checked against values worked out by hand and fastchess's Elo tests."""

from __future__ import annotations

import math

import pytest

from plies.arena.stats import (
    Tally,
    elo_error,
    elo_from_score,
    expected_score,
    format_elo,
    los,
    normalized_elo,
    pdf_stats,
    results_to_pdf,
)


def test_elo_of_known_scores() -> None:
    assert elo_from_score(0.5) == 0.0
    # 75% is 3:1 odds: 400 * log10(3).
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.75) == pytest.approx(190.849, abs=1e-3)
    assert elo_from_score(0.25) == pytest.approx(-190.849, abs=1e-3)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert expected_score(elo_from_score(0.64)) == pytest.approx(0.64)
    # fishtest's L(x): 400 Elo is 10:1 odds.
    assert expected_score(400.0) == pytest.approx(10 / 11)
    assert expected_score(-400.0) == pytest.approx(1 / 11)


def test_error_bar_of_60_40() -> None:
    # mean 0.6, per-game variance 0.24, stderr 0.04899, +/- 1.96 sigma:
    # [0.50398, 0.69602] -> [+2.77, +143.91] Elo, half-width 70.57.
    s = Tally(60, 0, 40)
    assert elo_from_score(s.mean) == pytest.approx(70.437, abs=1e-3)
    assert elo_error(s) == pytest.approx(70.571, abs=1e-3)


# fastchess's Elo tests (app/tests/elo_test.cpp of Disservin/fastchess, EloWDL): its Stats
# take wins, losses, draws; the figures are given to two decimals.
def test_elo_and_error_match_fastchess() -> None:
    s = Tally(wins=136, draws=111, losses=96)
    assert elo_from_score(s.mean) == pytest.approx(40.70, abs=0.006)
    assert elo_error(s) == pytest.approx(30.43, abs=0.006)
    # An older fastchess test (tests/elo_test.cpp) gives this one cut, not rounded, to -315.34.
    assert elo_from_score(Tally(wins=0, draws=14, losses=36).mean) == pytest.approx(
        -315.34, abs=0.01
    )


def test_normalized_elo_matches_fastchess() -> None:
    assert normalized_elo(Tally(wins=76, draws=123, losses=89)) == pytest.approx(-20.76, abs=0.006)
    assert normalized_elo(Tally(wins=136, draws=111, losses=96)) == pytest.approx(49.77, abs=0.006)
    # fastchess counts no draws as 0 where fishtest (and plies) puts its 1e-3 pseudo-count:
    # -508.433 here against fastchess's -508.44.
    assert normalized_elo(Tally(wins=34, draws=0, losses=356)) == pytest.approx(-508.44, abs=0.01)


def test_normalized_elo_without_variance() -> None:
    """No games: 0; every game won: +inf, every game drawn: 0 (no variance to divide by)."""
    assert normalized_elo(Tally()) == 0.0
    assert normalized_elo(Tally(5, 0, 0)) == math.inf
    assert normalized_elo(Tally(0, 0, 5)) == -math.inf
    assert normalized_elo(Tally(0, 7, 0)) == 0.0


def test_regularized_pdf_by_hand() -> None:
    """An empty outcome gets fishtest's 1e-3 pseudo-count; values run 0, 0.25, ... 1."""
    total, pdf = results_to_pdf([0, 1, 2, 1, 1])
    assert total == pytest.approx(5.001)
    assert [a for a, _ in pdf] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert pdf[0][1] == pytest.approx(0.001 / 5.001)
    assert pdf[2][1] == pytest.approx(2 / 5.001)
    mean, var = pdf_stats([(0.0, 0.5), (1.0, 0.5)])
    assert (mean, var) == (0.5, 0.25)


def test_error_bar_shrinks_with_draws_and_games() -> None:
    assert elo_error(Tally(30, 40, 30)) < elo_error(Tally(50, 0, 50))
    assert elo_error(Tally(300, 400, 300)) < elo_error(Tally(30, 40, 30))
    assert elo_error(Tally(5, 0, 0)) == math.inf


def test_los_known_values() -> None:
    # erf(20 / sqrt(200)) = erf(sqrt 2) = 0.954500
    assert los(Tally(60, 0, 40)) == pytest.approx(0.977250, abs=1e-6)
    assert los(Tally(10, 80, 10)) == 0.5
    assert los(Tally(0, 3, 0)) == 0.5
    assert los(Tally(40, 7, 60)) == pytest.approx(1 - 0.977250, abs=1e-6)


def test_tally_helpers() -> None:
    s = Tally().add(1.0).add(0.5).add(0.0).add(1.0)
    assert (s.wins, s.draws, s.losses, s.games, s.points) == (2, 1, 1, 4, 2.5)
    assert s.reversed() == Tally(1, 1, 2)
    assert s.results == (1, 1, 2)  # fishtest's order: losses, draws, wins
    with pytest.raises(ValueError):
        s.add(0.25)
    assert Tally().mean == 0.5


def test_format_elo() -> None:
    assert format_elo(12.345) == "+12.3"
    assert format_elo(-math.inf) == "-inf"
    assert format_elo(-0.04) == "+0.0"
