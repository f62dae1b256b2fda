"""The win/draw/loss model: per mille, summing to 1000, following the score."""

from __future__ import annotations

from plies import Board
from plies.engine.score import Cp, Mate
from plies.engine.wdl import MATERIAL_MAX, material, wdl


def test_sums_to_1000_and_follows_the_score() -> None:
    """Wins rise and losses fall with the score, at every amount of material."""
    for points in (0, 17, 40, 58, MATERIAL_MAX, 200):
        previous = (-1, 0, 1001)
        for score in range(-3000, 3001, 25):
            win, draw, loss = wdl(Cp(score), points)
            assert win + draw + loss == 1000
            assert min(win, draw, loss) >= 0
            assert win >= previous[0] and loss <= previous[2]
            previous = (win, draw, loss)


def test_symmetric_and_sensible() -> None:
    """Level scores are symmetric; +10 pawns is a win; mates are certain."""
    win, draw, loss = wdl(Cp(0), 58)
    assert win == loss and draw > 0
    assert wdl(Cp(150), 30) == wdl(Cp(-150), 30)[::-1]
    assert wdl(Cp(1000), 58)[0] > 900
    assert wdl(Mate(3), 58) == (1000, 0, 0) and wdl(Mate(-1), 58) == (0, 0, 1000)
    assert wdl(Mate(0), 58) == (0, 0, 1000)  # mated on the board


def test_material_counts_points() -> None:
    """The start position holds 78 points; kings count nothing."""
    assert material(Board()) == 78
    assert material(Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == 0
