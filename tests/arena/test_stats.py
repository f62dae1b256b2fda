"""Match statistics checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from plies.arena.stats import (
    Score,
    elo_error,
    elo_from_score,
    expected_score,
    format_elo,
    los,
    sprt_bounds,
    sprt_llr,
    sprt_llr_approx,
    sprt_verdict,
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


def test_error_bar_of_60_40() -> None:
    # mean 0.6, per-game variance 0.24, stderr 0.04899, +/- 1.96 sigma:
    # [0.50398, 0.69602] -> [+2.77, +143.91] Elo, half-width 70.57.
    s = Score(60, 0, 40)
    assert elo_from_score(s.mean) == pytest.approx(70.437, abs=1e-3)
    assert elo_error(s) == pytest.approx(70.571, abs=1e-3)


def test_error_bar_shrinks_with_draws_and_games() -> None:
    assert elo_error(Score(30, 40, 30)) < elo_error(Score(50, 0, 50))
    assert elo_error(Score(300, 400, 300)) < elo_error(Score(30, 40, 30))
    assert elo_error(Score(5, 0, 0)) == math.inf


def test_los_known_values() -> None:
    # erf(20 / sqrt(200)) = erf(sqrt 2) = 0.954500
    assert los(Score(60, 0, 40)) == pytest.approx(0.977250, abs=1e-6)
    assert los(Score(10, 80, 10)) == 0.5
    assert los(Score(0, 3, 0)) == 0.5
    assert los(Score(40, 7, 60)) == pytest.approx(1 - 0.977250, abs=1e-6)


def test_sprt_bounds_and_verdict() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19))
    assert lower == pytest.approx(-math.log(19))
    assert sprt_verdict(3.0) == "H1"
    assert sprt_verdict(-3.0) == "H0"
    assert sprt_verdict(0.1) is None


def test_sprt_llr_symmetry_and_sign() -> None:
    balanced = Score(100, 100, 100)
    assert sprt_llr(balanced, -5, 5) == pytest.approx(0.0, abs=1e-9)
    strong = Score(300, 500, 200)
    assert sprt_llr(strong, 0, 5) > 0
    assert sprt_llr(strong.reversed(), 0, 5) < 0
    assert sprt_llr(Score(), 0, 5) == 0.0


def test_sprt_llr_matches_closed_form_for_large_samples() -> None:
    # The GSPRT and its quadratic approximation agree when the hypotheses are
    # close and the sample large.
    s = Score(3000, 5000, 2000)
    exact = sprt_llr(s, 0, 5)
    approx = sprt_llr_approx(s, 0, 5)
    assert exact == pytest.approx(approx, rel=0.02)
    # Hand check of the approximation: n=10000, mean 0.55, sigma^2 = 0.1225,
    # s0 = 0.5, s1 = E(5) = 0.5071955 -> 10000*0.0071955*0.0928045/0.245.
    assert approx == pytest.approx(27.255, abs=0.01)


def test_score_helpers() -> None:
    s = Score().add(1.0).add(0.5).add(0.0).add(1.0)
    assert (s.wins, s.draws, s.losses, s.games, s.points) == (2, 1, 1, 4, 2.5)
    assert s.reversed() == Score(1, 1, 2)
    with pytest.raises(ValueError):
        s.add(0.25)
    assert Score().mean == 0.5


def test_format_elo() -> None:
    assert format_elo(12.345) == "+12.3"
    assert format_elo(-math.inf) == "-inf"
