"""FEN parsing with field-by-field validation, and FEN formatting."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from chess import SQUARE_NAMES

from plies.board.errors import InvalidFenError
from plies.core.encoding import NO_PIECE, NO_SQUARE, PIECE_LETTERS
from plies.core.placement import (
    BAD_COUNT,
    BAD_LETTER,
    BAD_WIDTH,
    PLACEMENT_OK,
    WRONG_RANKS,
    read_placement,
)

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Piece codes (colour * 8 + kind, see plies.core.encoding) by FEN letter.
PIECE_CODES = {letter: code for code, letter in enumerate(PIECE_LETTERS) if letter != "."}
CASTLING_BITS = {"K": 1, "Q": 2, "k": 4, "q": 8}
STANDARD_ROOKS = (7, 0, 63, 56)
"""Rook squares of the castling rights K, Q, k, q in standard chess (the bit order)."""
NO_RIGHTS = (NO_SQUARE, NO_SQUARE, NO_SQUARE, NO_SQUARE)
"""Castling rook squares of a position without castling rights."""
_CASTLING_LETTERS = frozenset("KQkqABCDEFGHabcdefgh")
_STANDARD_TEXTS = frozenset("".join(c for bit, c in enumerate("KQkq") if bits >> bit & 1)
                            for bits in range(1, 16))  # fmt: skip
"""Castling fields in the standard order (``KQkq``, ``Kq``, ...)."""
EMPTY = NO_PIECE
MAX_PIECES = 16
"""Most pieces (king and pawns included) a colour can have: what it starts with."""
MAX_PAWNS = 8
"""Most pawns a colour can have."""
MAX_CLOCK = 1_000_000_000
"""Largest halfmove clock or fullmove number: beyond any game, far inside the core's int64."""


@dataclass(frozen=True, slots=True)
class ParsedFen:
    """The fields of a syntactically valid FEN, in core encoding."""

    mailbox: tuple[int, ...]
    """Piece code (or NO_PIECE) on each square a1..h8."""
    side: int
    """0 for white to move, 1 for black."""
    castling_text: str
    """The castling field as written (X-FEN or Shredder-FEN letters, or ``-``), resolved
    against the placement by ``castling_rights``."""
    ep_square: int | None
    """En-passant target square, or None."""
    halfmove: int
    """Halfmove clock (plies since the last capture or pawn move)."""
    fullmove: int
    """Fullmove number, starting at 1."""


def _parse_placement(text: str) -> list[int]:
    """Parse the piece-placement field into a mailbox list (a1 first), through the core's
    one placement parser; InvalidFenError says what is wrong and where."""
    codes = np.frombuffer(text.encode("utf-32-le", "replace"), dtype=np.uint32)
    squares = np.empty(64, dtype=np.int64)
    status, rank, value, end = _reader()(codes, 0, len(codes), squares)
    if status == WRONG_RANKS or (status == PLACEMENT_OK and end != len(codes)):
        ranks = len(text.split("/"))
        raise InvalidFenError(
            f"invalid fen piece placement: expected 8 ranks, got {ranks}: {text!r}"
        )
    rank_text = text.split("/")[7 - rank] if status != PLACEMENT_OK else ""
    if status == BAD_COUNT:
        raise InvalidFenError(
            f"invalid fen piece placement: bad empty-square count in rank {rank + 1}: "
            f"{rank_text!r}"
        )
    if status == BAD_LETTER:
        raise InvalidFenError(
            f"invalid fen piece placement: unknown piece letter {chr(value)!r} in rank {rank + 1}"
        )
    if status == BAD_WIDTH:
        raise InvalidFenError(
            f"invalid fen piece placement: rank {rank + 1} has {value} squares, "
            f"expected 8: {rank_text!r}"
        )
    return squares.tolist()  # type: ignore[no-any-return]


_read: Callable[..., tuple[int, int, int, int]] | None = None


def _reader() -> Callable[..., tuple[int, int, int, int]]:
    """The core's placement parser, bound to its one signature (no per-call type dispatch)."""
    global _read
    if _read is None:
        from numba import typeof, types

        text = typeof(np.zeros(1, dtype=np.uint32))  # type: ignore[no-untyped-call]
        squares = typeof(np.empty(64, dtype=np.int64))  # type: ignore[no-untyped-call]
        _read = read_placement.compile((text, types.int64, types.int64, squares))
    return _read


def _parse_int(text: str, field: str, minimum: int) -> int:
    """Parse a clock field as a decimal integer not below ``minimum``."""
    if len(text) < 10 and text.isascii() and text.isdigit():
        value = int(text)  # the common case: a short plain number, within MAX_CLOCK
        if value >= minimum:
            return value
    if not text.isdigit() or not text.isascii():
        raise InvalidFenError(f"invalid fen {field}: {text!r} is not a non-negative integer")
    digits = text.lstrip("0") or "0"
    # Length first: int() refuses strings of thousands of digits with its own error.
    if len(digits) > len(str(MAX_CLOCK)) or int(digits) > MAX_CLOCK:
        raise InvalidFenError(f"invalid fen {field}: {text[:20]!r} is above {MAX_CLOCK:,}")
    value = int(digits)
    if value < minimum:
        raise InvalidFenError(f"invalid fen {field}: {value} is below {minimum}")
    return value


def parse_fen(fen: str) -> ParsedFen:
    """Split and check every field of a FEN; InvalidFenError names the bad field."""
    if not isinstance(fen, str):
        raise InvalidFenError(f"invalid fen: expected a string, got {type(fen).__name__}")
    parts = fen.split()
    if not 4 <= len(parts) <= 6:
        raise InvalidFenError(
            f"invalid fen: expected 6 fields (4 at least), got {len(parts)}: {fen!r}"
        )
    mailbox = _parse_placement(parts[0])

    if parts[1] not in ("w", "b"):
        raise InvalidFenError(f"invalid fen side to move: {parts[1]!r} (expected 'w' or 'b')")
    side = 0 if parts[1] == "w" else 1

    text = parts[2]
    if text != "-" and (set(text) - _CASTLING_LETTERS or len(set(text)) != len(text)):
        raise InvalidFenError(f"invalid fen castling rights: {text!r}")

    ep_square = None
    if parts[3] != "-":
        if parts[3] not in SQUARE_NAMES:
            raise InvalidFenError(f"invalid fen en-passant square: {parts[3]!r}")
        ep_square = SQUARE_NAMES.index(parts[3])

    halfmove = _parse_int(parts[4], "halfmove clock", 0) if len(parts) > 4 else 0
    fullmove = _parse_int(parts[5], "fullmove number", 0) if len(parts) > 5 else 1
    return ParsedFen(tuple(mailbox), side, text, ep_square, halfmove, max(fullmove, 1))


def validate(parsed: ParsedFen, chess960: bool = False) -> tuple[int, tuple[int, ...]]:
    """Refuse positions where the rules cannot apply; InvalidFenError names the field.

    The refusals are those of python-chess's ``Board.status()`` that make a
    position unplayable: a colour without exactly one king, with more than 16
    pieces or more than 8 pawns, pawns on the first or last rank, touching
    kings (or any check of the side not to move, which the board verifies with
    its attack tables), castling rights without king and rook at home (in
    Chess960: a king on the back rank and a rook on the named side), and an
    en-passant square no double push can have left. Positions no game can
    reach but where the rules still apply are accepted, as python-chess plays
    them too: three checkers, or two that no single move could have uncovered
    (the perft suite holds such a position). An en-passant square a double
    push could have left is kept even when no capture is possible; the FEN
    written back then shows ``-``, as python-chess's does.

    The piece limits also bound the number of legal moves, which sizes the
    compiled core's move buffers (``plies.core.encoding.MAX_LEGAL_MOVES``).
    """
    mb = parsed.mailbox
    # One byte a square: bytes.count and slicing check the placement at C speed.
    squares = bytes(mb)
    for color, king in (("white", PIECE_CODES["K"]), ("black", PIECE_CODES["k"])):
        count = squares.count(king)
        if count != 1:
            raise InvalidFenError(
                f"invalid fen piece placement: {count} {color} kings (expected exactly 1)"
            )
    for color, letters in (("white", "PNBRQK"), ("black", "pnbrqk")):
        pieces = sum(squares.count(PIECE_CODES[letter]) for letter in letters)
        if pieces > MAX_PIECES:
            raise InvalidFenError(
                f"invalid fen piece placement: {pieces} {color} pieces (at most {MAX_PIECES})"
            )
        pawns = squares.count(PIECE_CODES[letters[0]])
        if pawns > MAX_PAWNS:
            raise InvalidFenError(
                f"invalid fen piece placement: {pawns} {color} pawns (at most {MAX_PAWNS})"
            )
    white_king, black_king = squares.index(PIECE_CODES["K"]), squares.index(PIECE_CODES["k"])
    if max(abs(white_king % 8 - black_king % 8), abs(white_king // 8 - black_king // 8)) == 1:
        raise InvalidFenError(
            f"invalid fen piece placement: the kings touch ({SQUARE_NAMES[white_king]} and "
            f"{SQUARE_NAMES[black_king]}), so the side not to move is in check"
        )
    back_ranks = squares[:8] + squares[56:]
    if PIECE_CODES["P"] in back_ranks or PIECE_CODES["p"] in back_ranks:
        for sq in list(range(8)) + list(range(56, 64)):
            if mb[sq] in (PIECE_CODES["P"], PIECE_CODES["p"]):
                raise InvalidFenError(
                    f"invalid fen piece placement: pawn on the back rank ({SQUARE_NAMES[sq]})"
                )
    rights = castling_rights(parsed, chess960)
    ep = parsed.ep_square
    if ep is not None:
        if parsed.side == 0:
            rank_ok, pawn_sq, origin, pawn = ep // 8 == 5, ep - 8, ep + 8, PIECE_CODES["p"]
        else:
            rank_ok, pawn_sq, origin, pawn = ep // 8 == 2, ep + 8, ep - 8, PIECE_CODES["P"]
        if not rank_ok or mb[pawn_sq] != pawn or mb[ep] != EMPTY or mb[origin] != EMPTY:
            raise InvalidFenError(
                f"invalid fen en-passant square: {SQUARE_NAMES[ep]} cannot follow "
                "a double pawn push"
            )
    return rights


def placement(mailbox: list[int] | tuple[int, ...]) -> str:
    """Piece-placement field of a mailbox."""
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            code = mailbox[rank * 8 + file]
            if code == EMPTY:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += PIECE_LETTERS[code]
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def _castling_rook(mailbox: tuple[int, ...], letter: str) -> tuple[int, int] | None:
    """The right (0-3: K, Q, k, q) a castling letter names and its rook square, or None.

    ``K``/``Q`` name the outermost rook on that side of the king (X-FEN), a file
    letter the rook on that file (Shredder-FEN and X-FEN's inner rooks).
    """
    color = 0 if letter.isupper() else 1
    rank = 7 * color
    king = PIECE_CODES["K" if color == 0 else "k"]
    rook = PIECE_CODES["R" if color == 0 else "r"]
    row = [mailbox[rank * 8 + file] for file in range(8)]
    if king not in row:
        return None
    king_file = row.index(king)
    rooks = [file for file in range(8) if row[file] == rook]
    low = letter.lower()
    if low == "k":
        files = [f for f in rooks if f > king_file]
        rook_file = max(files) if files else -1
    elif low == "q":
        files = [f for f in rooks if f < king_file]
        rook_file = min(files) if files else -1
    else:
        rook_file = ord(low) - ord("a")
        if rook_file not in rooks:
            return None
    if rook_file < 0:
        return None
    return 2 * color + (0 if rook_file > king_file else 1), rank * 8 + rook_file


_KING_HOME = (4, 4, 60, 60)
_KINGS = (PIECE_CODES["K"], PIECE_CODES["K"], PIECE_CODES["k"], PIECE_CODES["k"])
_ROOKS = (PIECE_CODES["R"], PIECE_CODES["R"], PIECE_CODES["r"], PIECE_CODES["r"])


def castling_rights(parsed: ParsedFen, chess960: bool = False) -> tuple[int, tuple[int, ...]]:
    """The castling-right bits of a FEN and each right's rook square (K, Q, k, q order,
    NO_SQUARE where absent); InvalidFenError for a right the position cannot have.

    In standard chess a right needs king and rook on their starting squares;
    in Chess960, a king on the back rank and a rook on the named side of it.
    """
    text = parsed.castling_text
    bits = 0
    rooks = list(NO_RIGHTS)
    if text == "-":
        return bits, tuple(rooks)
    if not chess960 and text in _STANDARD_TEXTS:
        # The common case: each letter's king and rook at home, the rights are the letters.
        mb = parsed.mailbox
        for letter in text:
            right = "KQkq".index(letter)
            if mb[_KING_HOME[right]] != _KINGS[right] or mb[STANDARD_ROOKS[right]] != _ROOKS[right]:
                break
            bits |= 1 << right
        else:
            return bits, tuple(sq if bits >> r & 1 else NO_SQUARE
                               for r, sq in enumerate(STANDARD_ROOKS))  # fmt: skip
        bits = 0
    for letter in text:
        found = _castling_rook(parsed.mailbox, letter)
        if found is not None and not chess960:
            right, sq = found
            home = 4 if right < 2 else 60
            king = PIECE_CODES["K" if right < 2 else "k"]
            if sq != STANDARD_ROOKS[right] or parsed.mailbox[home] != king:
                found = None
        if found is None:
            raise InvalidFenError(
                f"invalid fen castling rights: {letter!r} without king and rook "
                "on their starting squares"
            )
        right, sq = found
        if bits & (1 << right):
            raise InvalidFenError(
                f"invalid fen castling rights: {text!r} names one right twice"
            )
        bits |= 1 << right
        rooks[right] = sq
    return bits, tuple(rooks)


def castling_field(
    mailbox: list[int] | tuple[int, ...], bits: int, rooks: tuple[int, ...], shredder: bool
) -> str:
    """Castling field of the rights ``bits`` with rook squares ``rooks``: X-FEN (``KQkq``, a
    file letter for a rook that is not the outermost on its side) or Shredder-FEN
    (``HAha``), each colour's king-side right first, as python-chess writes them."""
    out = ""
    for right in range(4):
        if not bits & (1 << right):
            continue
        sq = rooks[right]
        rank, file = sq & 56, sq & 7
        letter = "abcdefgh"[file]
        if not shredder:
            rook = mailbox[sq]
            king_side = right % 2 == 0
            outer = range(file + 1, 8) if king_side else range(file)
            if all(mailbox[rank + f] != rook for f in outer):
                letter = "k" if king_side else "q"
        out += letter.upper() if right < 2 else letter
    return out or "-"
