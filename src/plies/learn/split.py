"""The validation split: whole games are held out, so no game sits on both sides of it.

Positions of one game resemble each other (the same pawns, the same plan, a score that
moves slowly), so a validation set that shares games with the training set rewards
memorising games instead of judging positions. ``plies datagen`` writes a game's lines
together; ``game_ids`` recovers where each game starts from what the lines say.
"""

from __future__ import annotations

import numpy as np

NO_PLY = -1
"""The ply of a line whose FEN has no move number (an EPD line, a four-field FEN)."""

MOVE_DIGITS = 6
"""Longest move number ``plies.learn.lines`` reads; longer ones count as none (no real game
has one, and it cannot overflow an integer)."""


def game_ids(
    ply: np.ndarray, result: np.ndarray, pieces: np.ndarray, source: np.ndarray
) -> np.ndarray:
    """The game number (0, 1, ...) of each row of files written one game at a time.

    A row starts a new game when it comes from another file, when its game result
    differs from the row before, when it has more pieces (no move adds one), or when its
    ply does not come after the previous row's (where both FENs carry a move number).
    Two games can only merge when none of these tells them apart, which costs nothing
    worse than one larger group; a shuffled file falls apart into groups of a row or two.
    """
    n = len(ply)
    new = np.ones(n, dtype=bool)
    if n > 1:
        numbered = (ply[1:] != NO_PLY) & (ply[:-1] != NO_PLY)
        new[1:] = (
            (source[1:] != source[:-1])
            | (result[1:] != result[:-1])
            | (pieces[1:] > pieces[:-1])
            | (numbered & (ply[1:] <= ply[:-1]))
        )
    return (np.cumsum(new) - 1).astype(np.int64)


def split_rows(games: np.ndarray, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(validation rows in file order, training rows shuffled): ``fraction`` of the games whole.

    ``games`` is each row's game number as ``game_ids`` gives it (non-decreasing).
    """
    rng = np.random.default_rng(seed)
    n_games = int(games[-1]) + 1 if len(games) else 0
    order = rng.permutation(n_games)
    n_valid = round(n_games * fraction)
    if fraction > 0 and n_valid == 0 and n_games > 1:
        n_valid = 1
    if n_games > 1:
        n_valid = min(n_valid, n_games - 1)  # something is always left to train on
    held = np.zeros(n_games, dtype=bool)
    held[order[:n_valid]] = True
    valid = np.flatnonzero(held[games])
    train = rng.permutation(np.flatnonzero(~held[games]))
    return valid, train
