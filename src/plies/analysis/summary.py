"""Per-player figures of an analysed game: average centipawn loss and flagged moves."""

from __future__ import annotations

from dataclasses import dataclass

import chess

from plies.analysis.game_review import GameAnalysis
from plies.analysis.judgement import Judgement


@dataclass(frozen=True)
class PlayerSummary:
    """One side's play in one game."""

    name: str
    """The player's name from the PGN headers."""
    color: chess.Color
    """The side played."""
    moves: int
    """Moves analysed."""
    acpl: float
    """Average centipawn loss (scores capped at +-1000, mates counting as the cap)."""
    inaccuracies: int
    """Moves that lowered the player's winning chances by 0.1 or more (less than 0.2)."""
    mistakes: int
    """... by 0.2 or more (less than 0.3)."""
    blunders: int
    """... by 0.3 or more."""

    def line(self) -> str:
        """``White (Carlsen): 23 average centipawn loss, 1 inaccuracy, 0 mistakes, 0 blunders``."""
        side = "White" if self.color == chess.WHITE else "Black"
        return (
            f"{side} ({self.name}): {self.acpl:.0f} average centipawn loss, "
            f"{_count(self.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
            f"{_count(self.mistakes, 'mistake', 'mistakes')}, "
            f"{_count(self.blunders, 'blunder', 'blunders')}"
        )


def _count(n: int, one: str, many: str) -> str:
    """``1 mistake`` / ``2 mistakes``."""
    return f"{n} {one if n == 1 else many}"


def summarise(analysis: GameAnalysis) -> tuple[PlayerSummary, PlayerSummary]:
    """White's and Black's summaries."""
    return (_summary(analysis, chess.WHITE), _summary(analysis, chess.BLACK))


def _summary(analysis: GameAnalysis, color: chess.Color) -> PlayerSummary:
    """One side's summary."""
    mine = [m for m in analysis.moves if m.color == color]
    flags = [m.judgement for m in mine]
    acpl = sum(m.cp_loss for m in mine) / len(mine) if mine else 0.0
    return PlayerSummary(
        name=analysis.white if color == chess.WHITE else analysis.black,
        color=color,
        moves=len(mine),
        acpl=acpl,
        inaccuracies=flags.count(Judgement.INACCURACY),
        mistakes=flags.count(Judgement.MISTAKE),
        blunders=flags.count(Judgement.BLUNDER),
    )
