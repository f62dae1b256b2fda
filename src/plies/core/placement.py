"""The one parser of a FEN's piece-placement field (``rnbqkbnr/pppppppp/8/...``), compiled.

``read_placement`` reads the field from an array of character codes (bytes of a
training file, or a Python string's code points) into a mailbox of piece codes,
a1 first. The Python board (``plies.board.fen``), the tuner's tracer
(``plies.core.trace``) and the trainer's line reader (``plies.learn.train.loader``)
all read placements through it, so they accept and refuse the same fields: eight
ranks of eight squares, a digit 1-8 for a run of empty squares (never two digits
in a row), a letter of ``PNBRQKpnbrqk`` for a piece.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.encoding import NO_PIECE, PIECE_LETTERS

PLACEMENT_OK, WRONG_RANKS, BAD_COUNT, BAD_LETTER, BAD_WIDTH = range(5)
"""What ``read_placement`` found: a good field, or the first fault in it."""

_SLASH = 47
_DIGIT_0 = 48
_DIGIT_9 = 57
_BLANKS = (32, 9, 13, 10)

_CODE_OF = np.zeros(128, dtype=np.int64)
"""Piece code of each ASCII letter (NO_PIECE for any other character)."""
for _code, _letter in enumerate(PIECE_LETTERS):
    if _letter != ".":
        _CODE_OF[ord(_letter)] = _code


@njit(cache=True, nogil=True)
def read_placement(
    text: np.ndarray, start: int, stop: int, squares: np.ndarray
) -> tuple[int, int, int, int]:
    """Read the placement at ``text[start:]`` (up to a blank or ``stop``) into ``squares``
    (int64[64], a1 first, NO_PIECE where empty).

    Returns (status, rank, value, end): ``end`` is where the field stopped; on a fault,
    ``rank`` (0 = rank 1) and ``value`` say where and what: WRONG_RANKS (value: how many
    ranks), BAD_COUNT (a 0, a 9 or two digits in a row), BAD_LETTER (value: the character
    code), BAD_WIDTH (value: how many squares the rank has).
    """
    end = start
    slashes = 0
    while end < stop and text[end] not in _BLANKS:
        if text[end] == _SLASH:
            slashes += 1
        end += 1
    if slashes != 7:
        return WRONG_RANKS, 0, slashes + 1, end
    for sq in range(64):
        squares[sq] = NO_PIECE
    rank = 7
    file = 0
    digit_before = False
    for i in range(start, end):
        ch = text[i]
        if ch == _SLASH:
            if file != 8:
                return BAD_WIDTH, rank, file, end
            rank -= 1
            file = 0
            digit_before = False
        elif _DIGIT_0 <= ch <= _DIGIT_9:
            if digit_before or ch == _DIGIT_0 or ch == _DIGIT_9:
                return BAD_COUNT, rank, 0, end
            file += ch - _DIGIT_0
            digit_before = True
        else:
            p = _CODE_OF[ch] if ch < 128 else NO_PIECE
            if p == NO_PIECE:
                return BAD_LETTER, rank, ch, end
            if file < 8:
                squares[rank * 8 + file] = p
            file += 1
            digit_before = False
    if file != 8:
        return BAD_WIDTH, 0, file, end
    return PLACEMENT_OK, 0, 0, end
