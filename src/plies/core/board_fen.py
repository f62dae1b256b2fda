"""A standard FEN read into a position, and a position's FEN written, each one compiled call.

``read_fen`` takes the FEN as the Python string itself and accepts the FENs of standard
chess that every rule of ``plies.board.fen`` accepts, written plainly (ASCII, fields
apart by spaces, castling as ``KQkq`` letters in that order); anything else it leaves to
the board's Python reader, which says what is wrong or reads the rarer forms, so the two
never disagree on what they both read. ``build_board`` makes the position of what it read
and hands back its handle (``plies.core.board_handle``); ``fen_text`` writes a position's
FEN as python-chess writes it for standard chess.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unicode import _get_code_point

from plies.core import position as _position
from plies.core.board_entry import placement_text
from plies.core.board_handle import _address, _at
from plies.core.encoding import (
    BLACK,
    CASTLE_ALL,
    KING,
    NO_PIECE,
    NO_SQUARE,
    PAWN,
    ROOK,
    WHITE,
    piece_code,
)
from plies.core.placement import PLACEMENT_OK, read_placement
from plies.core.position import STANDARD_CASTLE_ROOKS, Position, castling_tables

FIELDS = 72
"""Length of the ``fields`` array ``read_fen`` fills: the mailbox (64, a1 first), then the
side to move (0 white), the castling bits, the en-passant square (or NO_SQUARE), the
halfmove clock and the fullmove number."""
SIDE, CASTLING, EP, HALFMOVE, FULLMOVE = 64, 65, 66, 67, 68
"""Where ``fields`` holds each state field."""
MAX_DIGITS = 9
"""Longest clock field read here (python-chess's reader takes longer ones, checked apart)."""
FEN_BYTES = 100
"""Room for the longest FEN ``fen_text`` writes (71 + 1 + 1 + 1 + 4 + 1 + 2 + 1 + 10 + 1 +
10 bytes, clocks within the board's limit)."""

_KING_HOME = np.array([4, 4, 60, 60], dtype=np.int64)
_ROOK_HOME = np.array(STANDARD_CASTLE_ROOKS, dtype=np.int64)
_KING_OF_RIGHT = np.array([piece_code(WHITE, KING)] * 2 + [piece_code(BLACK, KING)] * 2,
                          dtype=np.int64)  # fmt: skip
_ROOK_OF_RIGHT = np.array([piece_code(WHITE, ROOK)] * 2 + [piece_code(BLACK, ROOK)] * 2,
                          dtype=np.int64)  # fmt: skip
# The castling tables of every right in standard chess (the king and rook at home): a
# position's tables keep the rows of the rights it has.
_HOME = [NO_PIECE] * 64
for _sq, _code in ((4, piece_code(WHITE, KING)), (60, piece_code(BLACK, KING))):
    _HOME[_sq] = _code
_ALL_RIGHTS = castling_tables(_HOME, STANDARD_CASTLE_ROOKS)
_EMPTY = _ALL_RIGHTS[1]
_PATH = _ALL_RIGHTS[2]
_CASTLE_LETTERS = np.array([ord(c) for c in "KQkq"], dtype=np.int64)
_SPACE = 32


@njit(cache=True, nogil=True)
def _clock(chars: np.ndarray, start: int, stop: int) -> int:
    """The decimal number ``chars[start:stop]`` (-1 unless 1 to MAX_DIGITS plain digits)."""
    if stop - start < 1 or stop - start > MAX_DIGITS:
        return -1
    value = 0
    for i in range(start, stop):
        digit = np.int64(chars[i]) - 48
        if digit < 0 or digit > 9:
            return -1
        value = value * 10 + digit
    return value


@njit(cache=True, nogil=True)
def _placement_ok(mb: np.ndarray) -> bool:
    """One king a colour, at most 16 pieces and 8 pawns a colour, kings apart, no pawn on
    the first or last rank (``plies.board.fen.validate``)."""
    kings = np.zeros(2, dtype=np.int64)
    pieces = np.zeros(2, dtype=np.int64)
    pawns = np.zeros(2, dtype=np.int64)
    king_at = np.zeros(2, dtype=np.int64)
    for sq in range(64):
        p = mb[sq]
        if p == NO_PIECE:
            continue
        color = p >> 3
        pieces[color] += 1
        kind = p & 7
        if kind == KING:
            kings[color] += 1
            king_at[color] = sq
        elif kind == PAWN:
            pawns[color] += 1
            if sq < 8 or sq >= 56:
                return False
    for color in range(2):
        if kings[color] != 1 or pieces[color] > 16 or pawns[color] > 8:
            return False
    files = abs((king_at[0] & 7) - (king_at[1] & 7))
    ranks = abs((king_at[0] >> 3) - (king_at[1] >> 3))
    return max(files, ranks) > 1


@njit(cache=True, nogil=True)
def read_fen(text: str, fields: np.ndarray) -> bool:
    """Read a plainly written FEN of standard chess into ``fields`` (see FIELDS); False,
    ``fields`` meaningless, when it is not one (malformed, or a form left to Python)."""
    n = len(text)
    # Character codes as the board's Python reader passes them to ``read_placement``: the
    # two share one compiled copy of it.
    chars = np.empty(n, dtype=np.uint32)
    for i in range(n):
        c = _get_code_point(text, i)
        if c < _SPACE or c > 126:
            return False
        chars[i] = np.uint32(c)
    starts = np.zeros(7, dtype=np.int64)
    stops = np.zeros(7, dtype=np.int64)
    count = 0
    i = 0
    while i < n:
        if chars[i] == _SPACE:
            i += 1
            continue
        if count == 6:
            return False
        starts[count] = i
        while i < n and chars[i] != _SPACE:
            i += 1
        stops[count] = i
        count += 1
    if count < 4:
        return False
    mb = np.empty(64, dtype=np.int64)
    status, _, _, end = read_placement(chars, starts[0], stops[0], mb)
    if status != PLACEMENT_OK or end != stops[0] or not _placement_ok(mb):
        return False
    for sq in range(64):
        fields[sq] = mb[sq]
    if stops[1] - starts[1] != 1 or (chars[starts[1]] != 98 and chars[starts[1]] != 119):
        return False  # not "b" or "w"
    side = 1 if chars[starts[1]] == 98 else 0
    rights = 0
    if not (stops[2] - starts[2] == 1 and chars[starts[2]] == 45):  # "-"
        right = 0
        for i in range(starts[2], stops[2]):
            while right < 4 and chars[i] != _CASTLE_LETTERS[right]:
                right += 1
            if right == 4:
                return False  # not K, Q, k, q in that order: Python reads the rest
            if mb[_KING_HOME[right]] != _KING_OF_RIGHT[right] or \
                    mb[_ROOK_HOME[right]] != _ROOK_OF_RIGHT[right]:  # fmt: skip
                return False
            rights |= 1 << right
            right += 1
    ep = NO_SQUARE
    if not (stops[3] - starts[3] == 1 and chars[starts[3]] == 45):
        if stops[3] - starts[3] != 2:
            return False
        file, rank = np.int64(chars[starts[3]]) - 97, np.int64(chars[starts[3] + 1]) - 49
        if file < 0 or file > 7 or rank < 0 or rank > 7:
            return False
        ep = rank * 8 + file
        step = -8 if side == 0 else 8
        pawn = piece_code(1 - side, PAWN)
        if rank != (5 if side == 0 else 2) or mb[ep + step] != pawn or \
                mb[ep] != NO_PIECE or mb[ep - step] != NO_PIECE:  # fmt: skip
            return False
    half = _clock(chars, starts[4], stops[4]) if count > 4 else 0
    full = _clock(chars, starts[5], stops[5]) if count > 5 else 1
    if half < 0 or full < 0:
        return False
    fields[SIDE] = side
    fields[CASTLING] = rights
    fields[EP] = ep
    fields[HALFMOVE] = half
    fields[FULLMOVE] = max(full, 1)
    return True


@njit(cache=True, nogil=True)
def _castling(rights: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The castling tables (``position.castling_tables``) of standard chess's ``rights``."""
    rooks = np.full(4, NO_SQUARE, dtype=np.int64)
    empty = np.zeros(4, dtype=np.uint64)
    path = np.zeros(4, dtype=np.uint64)
    mask = np.full(64, CASTLE_ALL, dtype=np.int64)
    for right in range(4):
        if rights >> right & 1:
            rooks[right] = _ROOK_HOME[right]
            empty[right] = _EMPTY[right]
            path[right] = _PATH[right]
            mask[_KING_HOME[right]] &= ~(3 << (2 * (right >> 1)))
            mask[_ROOK_HOME[right]] &= ~(1 << right)
    return rooks, empty, path, mask


@njit(cache=True, nogil=True)
def build_board(template: int, fields: np.ndarray) -> tuple[Position, int, int]:
    """The position ``read_fen`` read into ``fields``, sharing the slider table and the empty
    net arrays of the position of handle ``template``: ``(position, its handle, info)``,
    info's bit 0 set when the side not to move is in check, bit 1 the side to move, the
    castling bits above."""
    tpl = _at(template)
    mailbox = np.empty(64, dtype=np.int64)
    for sq in range(64):
        mailbox[sq] = fields[sq]
    state = np.empty(5, dtype=np.int64)
    for i in range(5):
        state[i] = fields[SIDE + i]
    no_net = (tpl.ft_w, tpl.ft_b, tpl.out_b, tpl.king_map)
    pos = _position._build(mailbox, state, tpl.sliders, _castling(fields[CASTLING]), no_net)
    info = (1 if _position.opponent_in_check(pos) else 0) | pos.side << 1 | pos.castling << 2
    return pos, _address(pos), info


@njit(cache=True, nogil=True)
def _digits(out: np.ndarray, n: int, value: int) -> int:
    """Write ``value`` (not negative) in decimal at ``out[n:]``; the new length."""
    width = 1
    high = 10
    while value >= high:
        width += 1
        high *= 10
    for i in range(width - 1, -1, -1):
        out[n + i] = 48 + value % 10
        value //= 10
    return n + width


@njit(cache=True, nogil=True)
def fen_text(handle: int, out: np.ndarray) -> int:
    """Write the FEN of the position of ``handle`` into ``out`` (FEN_BYTES), castling as
    standard chess writes it and the en-passant square whenever the position has one;
    its length, ``| 1 << 8`` when an en-passant square was written (whether a capture
    there is legal, which python-chess's FEN asks, is the caller's to check)."""
    pos = _at(handle)
    n = placement_text(pos, out)
    out[n] = _SPACE
    out[n + 1] = 98 if pos.side == BLACK else 119
    out[n + 2] = _SPACE
    n += 3
    if pos.castling == 0:
        out[n] = 45
        n += 1
    for right in range(4):
        if pos.castling >> right & 1:
            out[n] = _CASTLE_LETTERS[right]
            n += 1
    out[n] = _SPACE
    n += 1
    ep = 0
    if pos.ep == NO_SQUARE:
        out[n] = 45
        n += 1
    else:
        out[n] = 97 + (pos.ep & 7)
        out[n + 1] = 49 + (pos.ep >> 3)
        n += 2
        ep = 1 << 8
    out[n] = _SPACE
    n = _digits(out, n + 1, pos.halfmove)
    out[n] = _SPACE
    n = _digits(out, n + 1, pos.fullmove)
    return n | ep
