"""The fast 'is this square attacked' test agrees with the full attacker set."""

from __future__ import annotations

from numba import njit

from plies.board import Board
from plies.core.position import Position, attackers_to, occupied, square_attacked
from plies.uci.bench import BENCH_POSITIONS

_EXTRA = (
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/8/3k4/8/1B6/8/5Q2/K7 b - - 0 1",
    "r3k2r/8/8/8/3q4/8/8/R3K2R w KQkq - 0 1",
)


@njit(cache=False)
def _disagreements(pos: Position) -> int:
    """Squares and colours where ``square_attacked`` and ``attackers_to`` differ."""
    occ = occupied(pos)
    bad = 0
    for by in range(2):
        for sq in range(64):
            if square_attacked(pos, sq, occ, by) != (attackers_to(pos, sq, occ, by) != 0):
                bad += 1
    return bad


def test_square_attacked_matches_attackers_to() -> None:
    """Every square, both colours, over the bench positions and a few slider-heavy ones."""
    for fen in [f for _, f in BENCH_POSITIONS] + list(_EXTRA):
        assert _disagreements(Board(fen).core_position()) == 0, fen
