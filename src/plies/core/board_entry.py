"""The board's own entry points: a push or a pop as one compiled call.

Kept apart from ``entry``: the compile cache keys each file on what it imports, so the
board's calls compile on their own, and nothing else recompiles when they change.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unicode import _get_code_point

from plies.core import makemove as _makemove
from plies.core import position as _position
from plies.core.bits import ZERO, popcount
from plies.core.encoding import (
    BISHOP,
    BLACK,
    CAPTURE_BIT,
    FLAG_SHIFT,
    KING,
    KNIGHT,
    MAX_MOVES,
    PAWN,
    PROMOTION_BIT,
    QUEEN,
    ROOK,
    WHITE,
    piece_code,
)
from plies.core.movegen import gen_moves
from plies.core.position import Position

GREW = 1 << 20
"""Bit set in a push's result when the undo stack was reallocated (re-read the arrays)."""


@njit(cache=True, nogil=True)
def legal_list(pos: Position) -> tuple[np.ndarray, int]:
    """A fresh array holding the legal moves of ``pos``, and how many there are."""
    scratch = np.empty(MAX_MOVES, dtype=np.int64)
    return scratch, gen_moves(pos, scratch, np.bool_(False))


@njit(cache=True, nogil=True)
def push_named(pos: Position, named: int) -> int:
    """Play the legal move whose name is ``named`` (from | to << 6 | promotion kind << 12)
    and return its move integer (``| GREW`` if the undo stack grew); 0, and nothing played,
    when no legal move has that name.

    The move is checked against the generated legal moves, so no input reaches
    ``make_move`` unchecked.
    """
    scratch, count = legal_list(pos)
    found = 0
    for i in range(count):
        m = scratch[i]
        name = m & 0xFFF
        if m & PROMOTION_BIT:
            name |= (((m >> FLAG_SHIFT) & 3) + KNIGHT) << 12
        if name == named:
            found = m
            break
    if found == 0:
        return 0
    grew = _position.reserve(pos, np.int64(1))
    _makemove.make_move(pos, found)
    return found | GREW if grew else found


@njit(cache=True, nogil=True)
def push_code(pos: Position, m: int) -> int:
    """Play legal move integer ``m`` (from this position's own generated list); ``GREW`` if
    the undo stack was reallocated, else 0."""
    grew = _position.reserve(pos, np.int64(1))
    _makemove.make_move(pos, m)
    return GREW if grew else 0


@njit(cache=True, nogil=True)
def pop_move(pos: Position) -> None:
    """Take back the last move, a null move included (its undo record tells)."""
    if _makemove.after_null(pos):
        _makemove.unmake_null(pos)
        if pos.side == BLACK:
            pos.fullmove -= 1
    else:
        _makemove.unmake_move(pos)


@njit(cache=True, nogil=True)
def push_pass(pos: Position) -> int:
    """Pass the move (a null move, counted in the move number as python-chess counts it);
    ``GREW`` if the undo stack was reallocated, else 0."""
    grew = _position.reserve(pos, np.int64(1))
    black = pos.side == BLACK
    _makemove.make_null(pos)
    if black:
        pos.fullmove += 1
    return GREW if grew else 0


@njit(cache=True, nogil=True)
def side_in_check(pos: Position) -> bool:
    """Whether the side to move is in check."""
    return _position.in_check(pos)


CHECK = 1
"""``game_status`` bit: the side to move is in check."""
NO_MOVES = 2
"""``game_status`` bit: the side to move has no legal move."""
DEAD = 4
"""``game_status`` bit: neither side can mate (python-chess's insufficient material)."""
FIFTY = 8
"""``game_status`` bit: the halfmove clock reached 100."""
SEVENTY_FIVE = 16
"""``game_status`` bit: the halfmove clock reached 150."""
THREEFOLD = 32
"""``game_status`` bit: the position stands for the third time (at least)."""
FIVEFOLD = 64
"""``game_status`` bit: the position stands for the fifth time (at least)."""
_DARK = np.uint64(0xAA55AA55AA55AA55)


@njit(cache=True, inline="always")
def _cannot_mate(bb: np.ndarray, us: int) -> bool:
    """Whether colour ``us`` cannot possibly mate (python-chess's rule, bitboards)."""
    them = 1 - us
    own = bb[piece_code(us, 0)]
    other = bb[piece_code(them, 0)]
    pawns = bb[piece_code(WHITE, PAWN)] | bb[piece_code(BLACK, PAWN)]
    knights = bb[piece_code(WHITE, KNIGHT)] | bb[piece_code(BLACK, KNIGHT)]
    bishops = bb[piece_code(WHITE, BISHOP)] | bb[piece_code(BLACK, BISHOP)]
    heavy = (bb[piece_code(WHITE, ROOK)] | bb[piece_code(BLACK, ROOK)]
             | bb[piece_code(WHITE, QUEEN)] | bb[piece_code(BLACK, QUEEN)])
    queens = bb[piece_code(WHITE, QUEEN)] | bb[piece_code(BLACK, QUEEN)]
    kings = bb[piece_code(WHITE, KING)] | bb[piece_code(BLACK, KING)]
    if own & (pawns | heavy) != ZERO:
        return False
    if own & knights != ZERO:
        return popcount(own) <= 2 and (other & ~kings & ~queens) == ZERO
    if own & bishops != ZERO:
        same = (bishops & _DARK) == ZERO or (bishops & ~_DARK) == ZERO
        return same and pawns == ZERO and knights == ZERO
    return True


@njit(cache=True, nogil=True)
def game_status(pos: Position) -> int:
    """Everything the rules ask of the position, as the bits above, in one call."""
    status = 0
    if _position.in_check(pos):
        status |= CHECK
    if legal_list(pos)[1] == 0:
        status |= NO_MOVES
    bb = pos.pieces
    if _cannot_mate(bb, WHITE) and _cannot_mate(bb, BLACK):
        status |= DEAD
    half = pos.halfmove
    if half >= 100:
        status |= FIFTY
    if half >= 150:
        status |= SEVENTY_FIVE
    ply = pos.ply
    key = pos.keys[ply]
    seen = 1
    i = ply - 2
    low = max(ply - half, 0)
    while i >= low:
        if pos.keys[i] == key:
            seen += 1
        i -= 2
    if seen >= 3:
        status |= THREEFOLD
    if seen >= 5:
        status |= FIVEFOLD
    return status


@njit(cache=True, nogil=True)
def check_after(pos: Position, m: int) -> int:
    """What legal move ``m`` gives: 0 nothing, 1 check, 2 checkmate (SAN's suffix); ``| GREW``
    if the undo stack was reallocated."""
    grew = _position.reserve(pos, np.int64(1))
    _makemove.make_move(pos, m)
    result = 0
    if _position.in_check(pos):
        result = 2 if legal_list(pos)[1] == 0 else 1
    _makemove.unmake_move(pos)
    return result | GREW if grew else result


COPY_ROOM = 16
"""Free undo rows a board's copy starts with (the stack doubles when it fills)."""


@njit(cache=True, nogil=True)
def compact_copy(pos: Position) -> Position:
    """An independent copy whose undo stack holds the history and a little room, not the
    full first allocation: a search that copies boards copies only what they hold."""
    rows = pos.ply + COPY_ROOM
    undo = np.empty((rows, pos.undo.shape[1]), dtype=np.int64)
    for i in range(pos.ply + 1):
        for j in range(pos.undo.shape[1]):
            undo[i, j] = pos.undo[i, j]
    keys = np.zeros(rows + 1, dtype=np.uint64)
    for i in range(pos.ply + 1):
        keys[i] = pos.keys[i]
    return Position(pos.pieces.copy(), pos.squares.copy(), pos.side, pos.castling, pos.ep,
                    pos.halfmove, pos.fullmove, pos.ply, undo, keys, pos.sliders,
                    pos.castle_rooks, pos.castle_empty, pos.castle_path, pos.castle_mask,
                    pos.use_net, pos.acc.copy(), pos.ft_w, pos.ft_b, pos.out_w, pos.out_b,
                    pos.king_map)  # fmt: skip


_LETTER_CODES = np.array([ord(c) for c in ".PNBRQK..pnbrqk."], dtype=np.uint8)


@njit(cache=True, nogil=True)
def placement_text(pos: Position, out: np.ndarray) -> int:
    """Write the FEN's piece-placement field (rank 8 first) into ``out`` as ASCII bytes (at
    most 71) and return its length."""
    n = 0
    for rank in range(7, -1, -1):
        empty = 0
        for file in range(8):
            code = pos.squares[rank * 8 + file]
            if code == 0:
                empty += 1
                continue
            if empty:
                out[n] = 48 + empty
                n += 1
                empty = 0
            out[n] = _LETTER_CODES[code]
            n += 1
        if empty:
            out[n] = 48 + empty
            n += 1
        if rank:
            out[n] = 47  # "/"
            n += 1
    return n


_SAN_LETTERS = np.array([ord(c) for c in "  NBRQK"], dtype=np.uint8)


@njit(cache=True, nogil=True)
def san_body(pos: Position, m: int, out: np.ndarray) -> int:
    """Write the standard algebraic notation of legal move ``m``, without its check suffix,
    into ``out`` as ASCII bytes (at most 8) and return its length: castling as ``O-O``,
    other pieces disambiguated by file, then rank, then both."""
    flag = (m >> FLAG_SHIFT) & 15
    if flag & 0b1011 == 2 or flag & 0b1011 == 3:
        n = 5 if flag & 1 else 3
        for i in range(n):
            out[i] = 45 if i % 2 else 79  # "O-O-O" alternates O and -
        return n
    frm, to = m & 63, (m >> 6) & 63
    kind = pos.squares[frm] & 7
    n = 0
    if kind == PAWN:
        if m & CAPTURE_BIT:
            out[0] = 97 + (frm & 7)
            n = 1
    else:
        out[0] = _SAN_LETTERS[kind]
        n = 1
        scratch, count = legal_list(pos)
        rivals = False
        same_file = False
        same_rank = False
        for i in range(count):
            c = scratch[i]
            f = c & 63
            cflag = (c >> FLAG_SHIFT) & 0b1011
            if ((c >> 6) & 63 != to or f == frm or pos.squares[f] & 7 != kind
                    or cflag == 2 or cflag == 3):  # fmt: skip
                continue
            rivals = True
            same_file |= (f & 7) == (frm & 7)
            same_rank |= (f >> 3) == (frm >> 3)
        if rivals:
            if not same_file:
                out[n] = 97 + (frm & 7)
                n += 1
            elif not same_rank:
                out[n] = 49 + (frm >> 3)
                n += 1
            else:
                out[n] = 97 + (frm & 7)
                out[n + 1] = 49 + (frm >> 3)
                n += 2
    if (m & CAPTURE_BIT and kind != PAWN) or (kind == PAWN and n == 1):
        out[n] = 120  # "x"
        n += 1
    out[n] = 97 + (to & 7)
    out[n + 1] = 49 + (to >> 3)
    n += 2
    if m & PROMOTION_BIT:
        out[n] = 61  # "="
        out[n + 1] = _SAN_LETTERS[((m >> FLAG_SHIFT) & 3) + KNIGHT]
        n += 2
    return n


@njit(cache=True, nogil=True)
def find_san(pos: Position, kind: int, file: int, rank: int, to: int, promotion: int) -> int:
    """The legal move a SAN names: a ``kind`` piece (never castling) to ``to``, from
    ``file``/``rank`` when they are not -1, promoting to ``promotion`` (0: none); 0 when no
    move matches, -1 when several do."""
    scratch, count = legal_list(pos)
    found = 0
    for i in range(count):
        m = scratch[i]
        frm = m & 63
        flag = (m >> FLAG_SHIFT) & 0b1011
        if (m >> 6) & 63 != to or pos.squares[frm] & 7 != kind or flag == 2 or flag == 3:
            continue
        if (file >= 0 and frm & 7 != file) or (rank >= 0 and frm >> 3 != rank):
            continue
        kind_to = ((m >> FLAG_SHIFT) & 3) + KNIGHT if m & PROMOTION_BIT else 0
        if kind_to != promotion:
            continue
        if found:
            return -1
        found = m
    return found


NOT_READ = -2
"""``read_san``: the text is not a piece or pawn move written in SAN (castling, a null move,
long algebraic, or not SAN at all): the board's Python reader takes it."""
_KIND_OF_LETTER = np.zeros(128, dtype=np.int64)
for _kind, _letter in enumerate("  NBRQK"):
    if _letter != " ":
        _KIND_OF_LETTER[ord(_letter)] = _kind
_PROMOTION_OF_LETTER = np.zeros(128, dtype=np.int64)
for _kind, _letter in enumerate("  nbrqk"):
    if _letter != " ":
        _PROMOTION_OF_LETTER[ord(_letter)] = _kind
        _PROMOTION_OF_LETTER[ord(_letter.upper())] = _kind


@njit(cache=True, nogil=True)
def read_san(pos: Position, text: str) -> int:
    """The legal move the SAN ``text`` names (python-chess's reading: ``[NBKRQ]?[a-h]?[1-8]?
    [-x]?`` then the square, ``=?`` and a promotion letter, one ``+`` or ``#``): its integer,
    0 when no move matches, -1 when several do, NOT_READ for any other text."""
    n = len(text)
    if n < 2 or n > 10:
        return NOT_READ
    chars = np.empty(n, dtype=np.int64)
    for i in range(n):
        c = _get_code_point(text, i)
        if c >= 128:
            return NOT_READ
        chars[i] = c
    end = n
    if chars[end - 1] == 43 or chars[end - 1] == 35:  # "+", "#"
        end -= 1
    promotion = 0
    if end > 0 and _PROMOTION_OF_LETTER[chars[end - 1]]:
        promotion = _PROMOTION_OF_LETTER[chars[end - 1]]
        end -= 1
        if end > 0 and chars[end - 1] == 61:  # "="
            end -= 1
    if end < 2:
        return NOT_READ
    to_file, to_rank = chars[end - 2] - 97, chars[end - 1] - 49
    if to_file < 0 or to_file > 7 or to_rank < 0 or to_rank > 7:
        return NOT_READ
    end -= 2
    if end > 0 and (chars[end - 1] == 45 or chars[end - 1] == 120):  # "-", "x"
        end -= 1
    i = 0
    kind = PAWN
    if i < end and _KIND_OF_LETTER[chars[i]]:
        kind = _KIND_OF_LETTER[chars[i]]
        i += 1
    file = -1
    if i < end and 97 <= chars[i] <= 104:
        file = chars[i] - 97
        i += 1
    rank = -1
    if i < end and 49 <= chars[i] <= 56:
        rank = chars[i] - 49
        i += 1
    if i != end or (kind == PAWN and file >= 0 and rank >= 0):
        return NOT_READ  # unread characters, or long algebraic (a move between squares)
    if kind == PAWN and file < 0:
        file = to_file  # a pawn move without a file stays on its file: no capture
    return find_san(pos, kind, file, rank, to_rank * 8 + to_file, promotion)
