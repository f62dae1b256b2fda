"""Scores: python-chess's ``Cp`` / ``Mate`` / ``PovScore``, and how plies writes them.

A score is a centipawn value or a mate in N *moves* (``Mate(3)``: the side it is for
mates in three of its own moves; ``Mate(-3)``: it is mated in three), exactly as
python-chess's ``chess.engine`` values, so an engine's report read by python-chess and
one made by plies compare equal.  :class:`~plies.engine.limits.Info` carries a
``PovScore``: the score from the mover's side (``.relative``) that also knows whose
move it was, so ``.white()`` gives White's view.

Here are the few ways plies turns a score into text (UCI, PGN comments, the terminal,
the web app) and its plain-int scale (for adjudication thresholds and sorting).
"""

from __future__ import annotations

from chess.engine import Cp, Mate, MateGiven, PovScore, Score

__all__ = [
    "MATE_SCORE",
    "Cp",
    "Mate",
    "PovScore",
    "Score",
    "pgn_score",
    "pov",
    "score_int",
    "score_text",
    "uci_score",
]  # fmt: skip

MATE_SCORE = 100_000
"""The plain-int value of a mate in 0 on the ``score_int`` scale; a mate in N moves is
``MATE_SCORE - N`` (so a shorter mate sorts higher than a longer one, and every mate
above any centipawn value)."""


def pov(score: Score, white_to_move: bool) -> PovScore:
    """``score`` (from the mover's side) as a ``PovScore`` for the side to move."""
    return PovScore(score, bool(white_to_move))


def score_int(score: Score) -> int:
    """The score as one int from its side: centipawns, or +-(MATE_SCORE - moves) for a mate."""
    return int(score.score(mate_score=MATE_SCORE))


def uci_score(score: Score) -> str:
    """The score as UCI's ``info`` writes it: ``cp 35`` or ``mate -3``."""
    mate = score.mate()
    return f"mate {mate}" if mate is not None else f"cp {score.score()}"


def _mated(score: Score) -> bool:
    """Whether a mate score is the loss (python-chess's ``Mate(0)`` is "mated now")."""
    mate = score.mate()
    return mate is not None and (mate < 0 or (mate == 0 and score != MateGiven))


def score_text(score: Score) -> str:
    """The score for people: ``+0.35`` pawns, ``#3`` (mate in three), ``#-3`` (mated in three)."""
    mate = score.mate()
    if mate is not None:
        return f"#-{abs(mate)}" if _mated(score) else f"#{mate}"
    return f"{score_int(score) / 100:+.2f}"


def pgn_score(score: Score, depth: int | None = None) -> str:
    """The score as a PGN comment writes it (cutechess's style): ``+0.35/12``, ``+M3/12``."""
    mate = score.mate()
    if mate is not None:
        text = f"{'-' if _mated(score) else '+'}M{abs(mate)}"
    else:
        text = f"{score_int(score) / 100:+.2f}"
    return f"{text}/{depth}" if depth else text
