"""Joint maximum-likelihood ratings: hand-solvable pools, symmetry, anchoring, error bars."""

from __future__ import annotations

import math

import pytest

from plies.arena.rating import (
    RatingError,
    bootstrap_errors,
    fit_pool,
    hessian_errors,
    log_likelihood,
    rate_pool,
)
from plies.arena.stats import Tally


def elo_of(score: float) -> float:
    """The logistic Elo difference of a mean score, written out independently."""
    return 400.0 * math.log10(score / (1.0 - score))


def test_two_players_known_score_gives_known_difference() -> None:
    """75% for A over B is 400 log10(3) = +190.85 Elo, whatever the mix of wins and draws."""
    for score in (Tally(15, 0, 5), Tally(10, 10, 0), Tally(12, 6, 2)):
        r = fit_pool({("A", "B"): score}, anchor="B")
        assert r["B"] == 0.0
        assert r["A"] == pytest.approx(400.0 * math.log10(3.0), abs=1e-6)


def test_even_score_is_no_difference_and_draws_count_as_half() -> None:
    """An even match rates both players equal; all draws is an even match."""
    assert fit_pool({("A", "B"): Tally(7, 6, 7)}, "A")["B"] == pytest.approx(0.0, abs=1e-9)
    assert fit_pool({("A", "B"): Tally(0, 12, 0)}, "A")["B"] == pytest.approx(0.0, abs=1e-9)


def test_symmetry_swapping_sides_or_names_mirrors_the_ratings() -> None:
    """The same games entered from either side, or with roles exchanged, give mirrored ratings."""
    one = fit_pool({("A", "B"): Tally(9, 4, 3)}, "A")
    other = fit_pool({("B", "A"): Tally(3, 4, 9)}, "A")
    assert one["B"] == pytest.approx(other["B"], abs=1e-9)
    swapped = fit_pool({("A", "B"): Tally(3, 4, 9)}, "A")
    assert swapped["B"] == pytest.approx(-one["B"], abs=1e-9)
    both = fit_pool({("A", "B"): Tally(5, 2, 1), ("B", "A"): Tally(1, 2, 5)}, "A")
    assert both["B"] == pytest.approx(-elo_of(0.75), abs=1e-6)  # A: 12 of 16 points


def test_anchor_shifts_every_rating_and_keeps_differences() -> None:
    """Anchoring another player or at another value moves the scale, not the gaps."""
    games = {("P", "X"): Tally(12, 5, 3), ("P", "Y"): Tally(6, 6, 8), ("X", "Y"): Tally(2, 4, 14)}
    at_x = fit_pool(games, "X", 0.0)
    at_y = fit_pool(games, "Y", 2500.0)
    assert at_x["X"] == 0.0 and at_y["Y"] == 2500.0
    for a in "PXY":
        for b in "PXY":
            assert at_x[a] - at_x[b] == pytest.approx(at_y[a] - at_y[b], abs=1e-6)


def test_chain_of_known_scores_adds_up() -> None:
    """A only meets B, B only meets C: A - C is the sum of the two differences."""
    games = {("A", "B"): Tally(3, 0, 1), ("B", "C"): Tally(1, 2, 1)}
    r = fit_pool(games, "C", 1000.0)
    assert r["B"] == pytest.approx(1000.0, abs=1e-6)
    assert r["A"] == pytest.approx(1000.0 + elo_of(0.75), abs=1e-6)


def test_joint_fit_is_the_likelihood_maximum() -> None:
    """With a cycle of results the fit is a stationary point no nearby rating improves on."""
    games = {("P", "X"): Tally(12, 5, 3), ("P", "Y"): Tally(6, 6, 8), ("X", "Y"): Tally(2, 4, 14)}
    r = fit_pool(games, "X")
    best = log_likelihood(games, r)
    for name in ("P", "Y"):
        for delta in (-1.0, 1.0):
            moved = dict(r)
            moved[name] += delta
            assert log_likelihood(games, moved) < best
    # A gauntlet star (P met each, they never met each other): P is rated from the anchor alone.
    star = {("P", "X"): Tally(6, 8, 6), ("P", "Y"): Tally(15, 5, 0)}
    assert fit_pool(star, "X")["P"] == pytest.approx(0.0, abs=1e-6)


def test_perfect_and_unconnected_records_are_not_finite() -> None:
    """A player who never conceded is +inf, one who never scored -inf, one never met nan."""
    games = {("A", "B"): Tally(3, 2, 3), ("W", "A"): Tally(4, 0, 0), ("L", "B"): Tally(0, 0, 5),
             ("Q", "R"): Tally(1, 1, 1)}
    r = fit_pool(games, "A")
    assert r["B"] == pytest.approx(0.0, abs=1e-9)
    assert r["W"] == math.inf and r["L"] == -math.inf
    assert math.isnan(r["Q"]) and math.isnan(r["R"])


def test_errors_shrink_with_games_and_the_anchor_has_none() -> None:
    """Four times the games halves the Hessian error bar; the bootstrap is narrower with draws."""
    small = {("A", "B"): Tally(6, 8, 6)}
    big = {("A", "B"): Tally(24, 32, 24)}
    e_small = hessian_errors(small, fit_pool(small, "B"), "B")
    e_big = hessian_errors(big, fit_pool(big, "B"), "B")
    assert e_small["B"] == 0.0
    assert e_big["A"] == pytest.approx(e_small["A"] / 2.0, rel=1e-6)
    # 20 coin-toss games: sd of the score 0.5/sqrt(20), i.e. 1.96 * 0.1118 * 1600/ln10 Elo.
    coin = {("A", "B"): Tally(10, 0, 10)}
    expected = 1.959963984540054 * 0.5 / math.sqrt(20) * 4 * 400 / math.log(10)
    assert hessian_errors(coin, fit_pool(coin, "B"), "B")["A"] == pytest.approx(expected, rel=1e-6)
    boot = bootstrap_errors(big, "B", samples=400, seed=3)
    assert boot["B"] == 0.0
    assert 0.5 * e_big["A"] < boot["A"] < e_big["A"]


def test_rate_pool_table() -> None:
    """The table is sorted best first, counts each player's games and points."""
    games = {("plies", "X"): Tally(12, 5, 3), ("plies", "Y"): Tally(8, 6, 6)}
    table = rate_pool(games, "X", 2000.0, bootstrap=0)
    assert [row.name for row in table] == ["plies", "Y", "X"]
    by_name = {row.name: row for row in table}
    assert by_name["plies"].games == 40 and by_name["plies"].points == 25.5
    assert by_name["X"].error == 0.0 and by_name["plies"].elo == pytest.approx(2000 + elo_of(0.725))


def test_bad_pools_are_refused() -> None:
    """An anchor without games or a player meeting itself is an error."""
    with pytest.raises(RatingError):
        fit_pool({("A", "B"): Tally(1, 0, 0)}, "C")
    with pytest.raises(RatingError):
        fit_pool({("A", "A"): Tally(1, 0, 0)}, "A")
