"""Positions from seeded random games, for tests that want every phase of a game."""

from __future__ import annotations

import random

import chess


def random_game_fens(
    games: int, seed: int, plies: tuple[int, int] = (20, 160), keep: float = 0.15,
    final: bool = True,
) -> list[str]:  # fmt: skip
    """FENs of ``games`` random games of ``plies`` (low, high) plies, half of the moves
    captures where one exists (so endings appear): each position kept with chance
    ``keep``, and the last one of every game if ``final``."""
    rng = random.Random(seed)
    fens = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            if rng.random() < keep:
                fens.append(board.fen())
        if final:
            fens.append(board.fen())
    return fens
