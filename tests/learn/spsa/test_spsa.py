"""SPSA's schedules, proposals and updates, and that it finds the optimum of a noisy match."""

from __future__ import annotations

import math
import random

import pytest

from plies.learn.spsa import ALPHA, GAMMA, Spsa, SpsaError, Tunable


def _tunable(value: float = 100.0, c_end: float = 10.0, r_end: float = 0.002) -> Tunable:
    """A parameter in 0..200."""
    return Tunable("X", value, 0, 200, c_end, r_end)


def test_perturbation_shrinks_to_c_end() -> None:
    """c_k starts at c_end N^gamma and reaches c_end at the last iteration (fishtest's rule)."""
    n = 100
    spsa = Spsa([_tunable()], n, seed=1)
    first = spsa.propose()
    assert first is not None and first.k == 1
    assert first.c_k[0] == pytest.approx(10.0 * n**GAMMA)
    last = first
    while (p := spsa.propose()) is not None:
        last = p
    assert last.k == n and last.c_k[0] == pytest.approx(10.0)


def test_plus_and_minus_straddle_the_value() -> None:
    """Each side is the value pushed by +-c_k along the flip, rounded, inside the range."""
    spsa = Spsa([_tunable(100.0), Tunable("Y", 3.0, 1, 6, 1.0)], 50, seed=3)
    p = spsa.propose()
    assert p is not None
    for name, flip, c_k, value, lo, hi in (("X", p.flips[0], p.c_k[0], 100.0, 0, 200),
                                           ("Y", p.flips[1], p.c_k[1], 3.0, 1, 6)):
        assert p.plus[name] == round(min(hi, max(lo, value + flip * c_k)))
        assert p.minus[name] == round(min(hi, max(lo, value - flip * c_k)))
        assert lo <= p.minus[name] <= hi and lo <= p.plus[name] <= hi


def test_update_moves_along_the_flip_by_r_k_c_k() -> None:
    """A pair won by plus moves the value by R_k c_k times the result, toward plus."""
    n = 200
    spsa = Spsa([_tunable(100.0, c_end=10.0, r_end=0.002)], n, seed=5)
    p = spsa.propose()
    assert p is not None
    spsa.update(p, 2.0)
    big_a = 0.1 * n
    a = 0.002 * 10.0**2 * (big_a + n) ** ALPHA
    c_k = 10.0 * n**GAMMA
    r_k = a / (big_a + 1) ** ALPHA / c_k**2
    assert spsa.values()["X"] == pytest.approx(100.0 + r_k * c_k * 2.0 * p.flips[0])
    assert spsa.done == 1


def test_values_stay_in_range() -> None:
    """A long run of wins for the side above pushes the value to its maximum, not past it."""
    spsa = Spsa([_tunable(195.0, c_end=10.0, r_end=0.5)], 40, seed=7)
    while (p := spsa.propose()) is not None:
        spsa.update(p, 2.0 * p.flips[0])  # plus is higher exactly when flip is +1
        assert 0 <= spsa.values()["X"] <= 200
    assert spsa.values()["X"] == 200


def test_finds_the_optimum_of_a_noisy_match() -> None:
    """Games won more often by the value nearer 60 drive two parameters from 100 and 20
    to near 60; the same number of pairs with no signal leaves them near where they were."""

    def play(p_value: float, m_value: float, rng: random.Random) -> float:
        """A pair: each game is won by the side nearer 60 with a logistic chance."""
        edge = (abs(m_value - 60) - abs(p_value - 60)) / 40
        win = 1 / (1 + math.exp(-edge))
        return sum(1.0 if rng.random() < win else -1.0 for _ in range(2))

    def tuned(signal: bool) -> dict[str, float]:
        """The values after 3000 pairs, with the match's signal or with coin flips."""
        rng = random.Random(11)
        spsa = Spsa([Tunable("A", 100.0, 0, 200, 8.0, 0.01),
                     Tunable("B", 20.0, 0, 200, 8.0, 0.01)], 3000, seed=12)  # fmt: skip
        while (p := spsa.propose()) is not None:
            if signal:  # both parameters score through one result, as in a real match
                score = play(p.plus["A"], p.minus["A"], rng) + play(p.plus["B"], p.minus["B"], rng)
                result = max(-2.0, min(2.0, score / 2))
            else:
                result = rng.choice((-2.0, -1.0, 0.0, 1.0, 2.0))
            spsa.update(p, result)
        return spsa.values()

    found = tuned(signal=True)
    assert abs(found["A"] - 60) < 15 and abs(found["B"] - 60) < 15
    drift = tuned(signal=False)
    assert abs(drift["A"] - 100) < 25 and abs(drift["B"] - 20) < 25


def test_bad_settings_and_results_are_refused() -> None:
    """No iterations, nothing to tune, a start outside the range, a result beyond +-2."""
    with pytest.raises(SpsaError):
        Spsa([_tunable()], 0)
    with pytest.raises(SpsaError):
        Spsa([], 10)
    with pytest.raises(SpsaError, match="outside"):
        Spsa([_tunable(500.0)], 10)
    spsa = Spsa([_tunable()], 2, seed=1)
    p = spsa.propose()
    assert p is not None
    with pytest.raises(SpsaError):
        spsa.update(p, 3.0)
    with pytest.raises(SpsaError):
        spsa.update(p, float("nan"))
    assert spsa.done == 0
    assert spsa.propose() is not None and spsa.propose() is None
