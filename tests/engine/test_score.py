"""Scores are python-chess's Cp/Mate/PovScore; plies writes a mate in N as mate in N."""

from __future__ import annotations

import chess
import pytest
from chess.engine import Cp, Mate, MateGiven, PovScore

from plies.engine.score import MATE_SCORE, pgn_score, score_int, score_text, uci_score


@pytest.mark.parametrize(
    ("score", "text", "pgn", "uci"),
    [
        (Cp(35), "+0.35", "+0.35/12", "cp 35"),
        (Cp(-120), "-1.20", "-1.20/12", "cp -120"),
        (Mate(3), "#3", "+M3/12", "mate 3"),
        (Mate(-3), "#-3", "-M3/12", "mate -3"),
        (Mate(0), "#-0", "-M0/12", "mate 0"),
        (MateGiven, "#0", "+M0/12", "mate 0"),
    ],
)
def test_a_score_is_written_as_it_is(score, text, pgn, uci) -> None:
    """A mate in three is mate in three in every text (people's, PGN's, UCI's)."""
    assert score_text(score) == text
    assert pgn_score(score, 12) == pgn
    assert uci_score(score) == uci


def test_the_int_scale_orders_mates_above_centipawns() -> None:
    """Shorter mates sort above longer ones, every mate above any centipawn value."""
    scores = (Mate(-1), Mate(-5), Cp(-900), Cp(0), Cp(900), Mate(5), Mate(1))
    values = [score_int(s) for s in scores]
    assert values == sorted(values)
    assert score_int(Mate(3)) == MATE_SCORE - 3


def test_a_pov_score_turns_with_the_side() -> None:
    """From the mover's side and from White's, as python-chess's engine reports."""
    score = PovScore(Mate(3), chess.BLACK)
    assert score.white() == Mate(-3)
    assert score.relative == Mate(3)
