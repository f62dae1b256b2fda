"""lichess's winning chances and the inaccuracy / mistake / blunder thresholds."""

from __future__ import annotations

import math

import chess.engine
import pytest

from plies.analysis.judgement import Judgement, capped_cp, judge, winning_chances


def _raw(cp: float) -> float:
    """lichess's formula, written out independently."""
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


@pytest.mark.parametrize("cp", [-1000, -350, -100, -1, 0, 1, 57, 100, 300, 999, 1000])
def test_centipawns_follow_the_lichess_curve(cp: int) -> None:
    """Within +-1000 the curve is lichess's, and symmetric."""
    assert winning_chances(chess.engine.Cp(cp)) == pytest.approx(_raw(cp), abs=1e-12)
    assert winning_chances(chess.engine.Cp(-cp)) == pytest.approx(-_raw(cp), abs=1e-12)


def test_scores_are_capped_at_a_thousand_centipawns() -> None:
    """Beyond +-1000 centipawns the chances stop growing."""
    assert winning_chances(chess.engine.Cp(5000)) == winning_chances(chess.engine.Cp(1000))
    assert capped_cp(chess.engine.Cp(-4321)) == -1000
    assert capped_cp(chess.engine.Mate(3)) == 1000
    assert capped_cp(chess.engine.Mate(-2)) == -1000


def test_mates_count_as_lichess_counts_them() -> None:
    """Mate in N counts (21 - min(10, N)) * 100 centipawns, uncapped; being mated the negative."""
    assert winning_chances(chess.engine.Mate(1)) == pytest.approx(_raw(2000))
    assert winning_chances(chess.engine.Mate(4)) == pytest.approx(_raw(1700))
    assert winning_chances(chess.engine.Mate(25)) == pytest.approx(_raw(1100))
    assert winning_chances(chess.engine.Mate(-3)) == pytest.approx(-_raw(1800))
    # Mate delivered beats any mate to come; being mated is the worst of all.
    assert winning_chances(chess.engine.MateGiven) > winning_chances(chess.engine.Mate(1))
    assert winning_chances(chess.engine.Mate(0)) < winning_chances(chess.engine.Mate(-1))
    assert winning_chances(chess.engine.Mate(2)) > winning_chances(chess.engine.Cp(1000))


@pytest.mark.parametrize(
    ("drop", "expected"),
    [
        (-0.5, None),
        (0.0, None),
        (0.099, None),
        (0.1, Judgement.INACCURACY),
        (0.19, Judgement.INACCURACY),
        (0.2, Judgement.MISTAKE),
        (0.299, Judgement.MISTAKE),
        (0.3, Judgement.BLUNDER),
        (1.9, Judgement.BLUNDER),
    ],
)
def test_thresholds(drop: float, expected: Judgement | None) -> None:
    """Drops of 0.1, 0.2 and 0.3 in winning chances: inaccuracy, mistake, blunder."""
    assert judge(drop) is expected


def test_nags_are_the_pgn_glyphs() -> None:
    """?! is NAG 6, ? is 2, ?? is 4."""
    assert Judgement.INACCURACY.nag == 6
    assert Judgement.MISTAKE.nag == 2
    assert Judgement.BLUNDER.nag == 4
