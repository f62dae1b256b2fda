"""How bad a move was: lichess's winning chances and its inaccuracy/mistake/blunder thresholds.

A score becomes *winning chances* in [-1, 1] for the side it is seen from
(1: certain win, -1: certain loss, 0: even, so expected score = (1 + wc) / 2)
with the logistic curve lichess fitted to its games (lila pull request 11148,
``ui/ceval/src/winningChances.ts``)::

    winning_chances(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1

with centipawns capped at +-1000 and a mate in N counted as
``(21 - min(10, N)) * 100`` centipawns.  A move is judged by how much it
lowers its player's winning chances compared with the best play before it,
using lichess's thresholds (lila ``Advice.scala``): a drop of at least 0.1
is an inaccuracy (``?!``), 0.2 a mistake (``?``), 0.3 a blunder (``??``).
On the expected-score scale these are drops of 5, 10 and 15 percentage points.
"""

from __future__ import annotations

import enum
import math

import chess.engine
import chess.pgn

from plies.engine.score import score_int

WIN_MULTIPLIER = 0.00368208
"""Slope of lichess's centipawns-to-winning-chances curve."""
CP_CEILING = 1000
"""Centipawn scores are capped at +-this before conversion (and in centipawn loss)."""
MATE_BASE = 21
"""A mate in N counts as (MATE_BASE - min(MATE_CAP, N)) * 100 centipawns."""
MATE_CAP = 10
"""Mates further away than this count as this far."""


class Judgement(enum.Enum):
    """A flagged move; the value is the drop in winning chances that earns it."""

    INACCURACY = 0.1
    MISTAKE = 0.2
    BLUNDER = 0.3

    @property
    def nag(self) -> int:
        """The PGN numeric annotation glyph: ``?!`` (6), ``?`` (2) or ``??`` (4)."""
        return _NAGS[self]

    @property
    def label(self) -> str:
        """``Inaccuracy``, ``Mistake`` or ``Blunder``."""
        return self.name.capitalize()


_NAGS = {
    Judgement.INACCURACY: chess.pgn.NAG_DUBIOUS_MOVE,
    Judgement.MISTAKE: chess.pgn.NAG_MISTAKE,
    Judgement.BLUNDER: chess.pgn.NAG_BLUNDER,
}


def capped_cp(score: chess.engine.Score) -> int:
    """Centipawns capped at +-CP_CEILING; a mate counts as the cap."""
    return max(-CP_CEILING, min(CP_CEILING, score_int(score)))


def winning_chances(score: chess.engine.Score) -> float:
    """lichess's winning chances in [-1, 1] for the side ``score`` is seen from."""
    mate = score.mate()
    if mate is not None:
        sign = 1 if score > chess.engine.Cp(0) else -1
        cp = sign * (MATE_BASE - min(MATE_CAP, abs(mate))) * 100
    else:
        cp = capped_cp(score)
    return 2.0 / (1.0 + math.exp(-WIN_MULTIPLIER * cp)) - 1.0


def judge(drop: float) -> Judgement | None:
    """The judgement for a drop in winning chances, or None below the inaccuracy threshold."""
    for judgement in (Judgement.BLUNDER, Judgement.MISTAKE, Judgement.INACCURACY):
        if drop >= judgement.value:
            return judgement
    return None
