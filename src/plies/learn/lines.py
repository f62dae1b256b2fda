"""The training-line format and its one reader, compiled, in bulk.

A line is ``FEN | result``, ``FEN | score | result`` (score in centipawns, both from
White's side) or an EPD line with a result (``c9 "1-0"`` or ``[1.0]``). ``plies
datagen`` writes them; ``plies tune`` (``plies.learn.tune.dataset``) and ``plies train``
(``plies.learn.train.loader``) read them through :func:`read_records`, which parses a
whole file's bytes in one compiled pass. The placement is read by the core's one
FEN-placement parser (``plies.core.placement``), and each row keeps its pieces in the
trainer's feature layout in White's perspective (``plies.learn.train.features``), so
neither reader needs a second pass over the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from plies.core.encoding import KING, NO_PIECE, PAWN
from plies.core.placement import PLACEMENT_OK, read_placement
from plies.learn.split import MOVE_DIGITS, NO_PLY
from plies.learn.train.features import MAX_PIECES, NO_FEATURE, OTHER_OFFSET

RESULT_TEXT = {"1-0": "1.0", "1/2-1/2": "0.5", "0-1": "0.0"}
"""A game's PGN result as the line's result field (White's side)."""

SEPARATOR = " | "
"""Between the fields of a line."""

OK, BLANK, NO_FIELDS, BAD_BOARD, TOO_MANY_PIECES, BAD_KINGS, BAD_SIDE, BAD_SCORE, BAD_RESULT = (
    range(9)
)
"""What :func:`read_records` found on a line: a record, a blank line (skipped, no error),
or the first fault."""

PROBLEMS = {
    NO_FIELDS: "expected 'FEN | result', 'FEN | score | result' or EPD with a result "
               '(c9 "1-0" or [1.0])',
    BAD_BOARD: "malformed FEN board (8 ranks of 8 squares, letters PNBRQKpnbrqk)",
    TOO_MANY_PIECES: f"more than {MAX_PIECES} pieces",
    BAD_KINGS: "needs exactly one king of each colour",
    BAD_SIDE: "the FEN needs a side to move (w or b)",
    BAD_SCORE: "the score must be an integer (centipawns)",
    BAD_RESULT: "the result must be 1.0, 0.5 or 0.0",
}  # fmt: skip
"""What is wrong with a line of each fault status."""

NO_SCORE = np.iinfo(np.int32).min
"""The score of a line that has none (no score is nine digits long)."""

SIDE, SCORE, HALF_POINTS, PLY = range(4)
"""Columns of ``Records.numbers``: side to move (0 White, 1 Black), score or NO_SCORE,
result in half points from White's side (0, 1, 2), ply or NO_PLY."""

FEN_START, BOARD_END, FEN_END = range(3)
"""Columns of ``Records.spans``: where the FEN starts, where its placement field ends and
where the FEN ends (before the first ``|``, or after the side of an EPD line)."""

_NEWLINE = 10
_BAR = 124
_DOT = 46
_MINUS = 45
_PLUS = 43
_ZERO = 48
_NINE = 57
_QUOTE = 34
_OPEN = 91
_LETTER_C = 99
_MAX_DIGITS = 9
"""Longest score read (it then fits an int32, and NO_SCORE stays apart)."""


def _words(*pairs: tuple[bytes, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bytes padded to one width, lengths, half points) of EPD result words."""
    width = max(len(w) for w, _ in pairs)
    table = np.zeros((len(pairs), width), dtype=np.uint8)
    for i, (word, _) in enumerate(pairs):
        table[i, : len(word)] = np.frombuffer(word, dtype=np.uint8)
    lengths = np.array([len(w) for w, _ in pairs], dtype=np.int64)
    return table, lengths, np.array([h for _, h in pairs], dtype=np.int64)


_C9_WORDS, _C9_LENGTHS, _C9_HALVES = _words((b'"1-0"', 2), (b'"0-1"', 0), (b'"1/2-1/2"', 1))
_BRACKET_WORDS, _BRACKET_LENGTHS, _BRACKET_HALVES = _words(
    (b"[1.0]", 2), (b"[0.5]", 1), (b"[0.0]", 0), (b"[1]", 2), (b"[0]", 0)
)


class DataError(ValueError):
    """Training data that cannot be used at all (missing file, nothing readable)."""


def format_line(fen: str, result: str, score_cp: int | None = None) -> str:
    """One line: ``FEN | result`` or ``FEN | score | result`` (no newline)."""
    if score_cp is None:
        return f"{fen}{SEPARATOR}{result}"
    return f"{fen}{SEPARATOR}{score_cp}{SEPARATOR}{result}"


@njit(cache=True, nogil=True, inline="always")
def _space(c: int) -> bool:
    """Whether byte ``c`` is blank inside a line (space, tab, CR, vertical tab, form feed)."""
    return c == 32 or 9 <= c <= 13


@njit(cache=True, nogil=True)
def _integer(buf: np.ndarray, lo: int, hi: int) -> tuple[bool, int]:
    """The optionally signed decimal integer filling buf[lo:hi] (blanks trimmed)."""
    while lo < hi and _space(buf[lo]):
        lo += 1
    while hi > lo and _space(buf[hi - 1]):
        hi -= 1
    sign = 1
    if lo < hi and (buf[lo] == _MINUS or buf[lo] == _PLUS):
        sign = -1 if buf[lo] == _MINUS else 1
        lo += 1
    if lo >= hi or hi - lo > _MAX_DIGITS:
        return False, 0
    value = 0
    for i in range(lo, hi):
        if buf[i] < _ZERO or buf[i] > _NINE:
            return False, 0
        value = value * 10 + (buf[i] - _ZERO)
    return True, sign * value


@njit(cache=True, nogil=True)
def _half_points(buf: np.ndarray, lo: int, hi: int) -> int:
    """The game result 0, 0.5 or 1 written in buf[lo:hi] as half points; -1 if anything else."""
    while lo < hi and _space(buf[lo]):
        lo += 1
    while hi > lo and _space(buf[hi - 1]):
        hi -= 1
    if lo >= hi or buf[lo] < _ZERO or buf[lo] > _ZERO + 1:
        return -1
    half: int = 2 * (buf[lo] - _ZERO)
    i = lo + 1
    if i < hi:
        if buf[i] != _DOT:
            return -1
        i += 1
        if i < hi and buf[i] == _ZERO + 5 and half == 0:
            half = 1
            i += 1
        while i < hi:
            if buf[i] != _ZERO:
                return -1
            i += 1
    return half


@njit(cache=True, nogil=True)
def _word_at(buf: np.ndarray, at: int, hi: int, words: np.ndarray, lengths: np.ndarray) -> int:
    """Which of ``words`` starts at buf[at] and fits before ``hi``; -1 if none does."""
    for w in range(len(lengths)):
        n = lengths[w]
        if at + n > hi:
            continue
        same = True
        for k in range(n):
            if buf[at + k] != words[w, k]:
                same = False
                break
        if same:
            return w
    return -1


@njit(cache=True, nogil=True)
def _epd_result(buf: np.ndarray, lo: int, hi: int) -> tuple[int, int]:
    """(where, half points) of the first EPD result in buf[lo:hi], ``c9 "1-0"`` or ``[1.0]``
    (the first of either); (-1, -1) when there is none."""
    for j in range(lo, hi):
        if buf[j] == _OPEN:
            w = _word_at(buf, j, hi, _BRACKET_WORDS, _BRACKET_LENGTHS)
            if w >= 0:
                return j, _BRACKET_HALVES[w]
        elif buf[j] == _LETTER_C and j + 1 < hi and buf[j + 1] == _NINE:
            k = j + 2
            while k < hi and _space(buf[k]):
                k += 1
            if k > j + 2 and k < hi and buf[k] == _QUOTE:
                w = _word_at(buf, k, hi, _C9_WORDS, _C9_LENGTHS)
                if w >= 0:
                    return j, _C9_HALVES[w]
    return -1, -1


@njit(cache=True, nogil=True)
def _ply(buf: np.ndarray, lo: int, hi: int, side: int) -> int:
    """The ply by the move number ending a FEN's last four fields in buf[lo:hi], else NO_PLY."""
    fields = 0
    start = -1
    end = -1
    i = lo
    while i < hi:
        while i < hi and _space(buf[i]):
            i += 1
        if i == hi:
            break
        start = i
        while i < hi and not _space(buf[i]):
            i += 1
        end = i
        fields += 1
    if fields != 4 or end - start > MOVE_DIGITS:
        return NO_PLY
    fullmove = 0
    for j in range(start, end):
        if buf[j] < _ZERO or buf[j] > _NINE:
            return NO_PLY
        fullmove = fullmove * 10 + (buf[j] - _ZERO)
    if fullmove < 1:
        return NO_PLY
    return 2 * (fullmove - 1) + side


@njit(cache=True, nogil=True)
def _pieces(squares: np.ndarray, pieces: np.ndarray, at: int) -> int:
    """Write the pieces of ``squares`` to row ``at`` of ``pieces`` in FEN order (rank 8
    first, files a-h: the order the trainer sums features in), padded with NO_FEATURE; OK
    or the fault."""
    count = 0
    kings = 0
    for rank in range(7, -1, -1):
        for file in range(8):
            p = squares[rank * 8 + file]
            if p == NO_PIECE:
                continue
            if count == MAX_PIECES:
                return TOO_MANY_PIECES
            kind = p & 7
            if kind == KING:
                kings += 1 if p < 8 else 100
            pieces[at, count] = (p >> 3) * OTHER_OFFSET + (kind - PAWN) * 64 + rank * 8 + file
            count += 1
    if kings != 101:
        return BAD_KINGS
    for j in range(count, MAX_PIECES):
        pieces[at, j] = NO_FEATURE
    return OK


@njit(cache=True, nogil=True)
def _line(
    buf: np.ndarray, lo: int, hi: int, pieces: np.ndarray, numbers: np.ndarray,
    spans: np.ndarray, at: int, squares: np.ndarray,
) -> int:  # fmt: skip
    """Parse the line buf[lo:hi] into row ``at`` of ``pieces``, ``numbers`` and ``spans``
    (indexed, not sliced: a view per line costs reference counting); its status.
    ``squares`` is scratch."""
    i = lo
    while i < hi and _space(buf[i]):
        i += 1
    if i == hi:
        return BLANK
    bars = 0
    first = -1
    last = -1
    for j in range(i, hi):
        if buf[j] == _BAR:
            bars += 1
            if bars == 1:
                first = j
            last = j
    half = -1
    if bars == 0:
        first, half = _epd_result(buf, i, hi)
        if first < 0:
            return NO_FIELDS
    elif bars > 2:
        return NO_FIELDS
    status, _, _, board_end = read_placement(buf, i, first, squares)
    if status != PLACEMENT_OK:
        return BAD_BOARD
    status = _pieces(squares, pieces, at)
    if status != OK:
        return status
    k = board_end
    while k < first and _space(buf[k]):
        k += 1
    if not (k < first and (k + 1 == first or _space(buf[k + 1]))):
        return BAD_SIDE
    if buf[k] == ord("w"):
        side = 0
    elif buf[k] == ord("b"):
        side = 1
    else:
        return BAD_SIDE
    score = NO_SCORE
    fen_end = k + 1
    ply = NO_PLY
    if bars:
        fen_end = first
        while _space(buf[fen_end - 1]):
            fen_end -= 1
        ply = _ply(buf, k + 1, first, side)
        if bars == 2:
            ok, score = _integer(buf, first + 1, last)
            if not ok:
                return BAD_SCORE
        half = _half_points(buf, last + 1, hi)
        if half < 0:
            return BAD_RESULT
    numbers[at, SIDE] = side
    numbers[at, SCORE] = score
    numbers[at, HALF_POINTS] = half
    numbers[at, PLY] = ply
    spans[at, FEN_START] = i
    spans[at, BOARD_END] = board_end
    spans[at, FEN_END] = fen_end
    return OK


@njit(cache=True, nogil=True)
def _read(
    buf: np.ndarray, pieces: np.ndarray, numbers: np.ndarray, spans: np.ndarray,
    status: np.ndarray,
) -> int:  # fmt: skip
    """Read every newline-terminated line of ``buf``: each line's status, and a row of
    ``pieces``, ``numbers`` and ``spans`` for each good one; the number of rows."""
    squares = np.empty(64, dtype=np.int64)
    kept = 0
    lo = 0
    line = 0
    n = len(buf)
    while lo < n:
        hi = lo
        while buf[hi] != _NEWLINE:
            hi += 1
        code = _line(buf, lo, hi, pieces, numbers, spans, kept, squares)
        status[line] = code
        if code == OK:
            kept += 1
        line += 1
        lo = hi + 1
    return kept


@njit(cache=True, nogil=True)
def _compact(keep: np.ndarray, pieces: np.ndarray, numbers: np.ndarray, spans: np.ndarray) -> int:
    """Move the rows where ``keep`` is true to the front, in order, in place; how many."""
    n = 0
    for i in range(len(keep)):
        if not keep[i]:
            continue
        if n != i:
            for j in range(pieces.shape[1]):
                pieces[n, j] = pieces[i, j]
            for j in range(numbers.shape[1]):
                numbers[n, j] = numbers[i, j]
            for j in range(spans.shape[1]):
                spans[n, j] = spans[i, j]
        n += 1
    return n


@dataclass
class Records:
    """The good lines of a buffer, one row each, in file order."""

    pieces: np.ndarray
    """int16 [n, MAX_PIECES]: each piece as its feature index in White's perspective
    (colour * 384 + (kind - 1) * 64 + square, a1 = 0), in FEN order, NO_FEATURE padding."""
    numbers: np.ndarray
    """int32 [n, 4]: the columns SIDE, SCORE, HALF_POINTS and PLY."""
    spans: np.ndarray
    """int64 [n, 3]: the columns FEN_START, BOARD_END and FEN_END (byte offsets)."""

    def __len__(self) -> int:
        """Number of rows."""
        return len(self.numbers)

    def sides(self) -> np.ndarray:
        """Each row's side to move (0 White, 1 Black), int8."""
        return self.numbers[:, SIDE].astype(np.int8)

    def scores(self) -> np.ndarray:
        """Each row's score from White's side (NO_SCORE where the line has none), int32."""
        return self.numbers[:, SCORE]

    def results(self) -> np.ndarray:
        """Each row's result from White's side (1.0, 0.5, 0.0), float32."""
        return self.numbers[:, HALF_POINTS].astype(np.float32) * np.float32(0.5)

    def plies(self) -> np.ndarray:
        """Each row's ply by its FEN's move number (NO_PLY without one), int32."""
        return self.numbers[:, PLY]

    def keep(self, rows: np.ndarray) -> Records:
        """The rows where ``rows`` (bool, one per row) is true, in order: moved within these
        arrays (no copy of a large file's rows), so this object is spent afterwards."""
        n = _compact(rows, self.pieces, self.numbers, self.spans)
        return Records(self.pieces[:n], self.numbers[:n], self.spans[:n])

    def placements(self, buf: np.ndarray) -> list[str]:
        """Each row's FEN placement field, read back from ``buf`` (the buffer read)."""
        # A good placement is ASCII: one decode of the whole buffer, then string slices.
        text = str(buf.data, "latin-1")
        starts = self.spans[:, FEN_START].tolist()
        return [text[a:b] for a, b in zip(starts, self.spans[:, BOARD_END].tolist(), strict=True)]


def read_records(buf: np.ndarray) -> tuple[Records, np.ndarray]:
    """Read the newline-terminated lines of ``buf`` (uint8): the records and every line's
    status (int8, one per line)."""
    if len(buf) and buf[-1] != _NEWLINE:
        raise ValueError("the buffer must end with a newline")
    lines = int(np.count_nonzero(buf == _NEWLINE))
    pieces = np.empty((lines, MAX_PIECES), dtype=np.int16)
    numbers = np.empty((lines, 4), dtype=np.int32)
    spans = np.empty((lines, 3), dtype=np.int64)
    status = np.empty(lines, dtype=np.int8)
    kept = _read(buf, pieces, numbers, spans, status)
    return Records(pieces[:kept], numbers[:kept], spans[:kept]), status


def read_bytes(path: str | Path, whole: bool = False) -> tuple[np.ndarray, bool]:
    """The lines of ``path`` as bytes, each newline-terminated, and whether an unfinished
    last line (no newline) was cut off: a file still being written. With ``whole`` that
    line is kept, as a file written by hand may lack the last newline."""
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    end = raw.rfind(b"\n") + 1
    if end == len(raw):
        return np.frombuffer(raw, dtype=np.uint8), False
    if whole:
        return np.frombuffer(raw + b"\n", dtype=np.uint8), False
    return np.frombuffer(raw, dtype=np.uint8, count=end), True


def first_problem(path: str | Path, status: np.ndarray, problems: dict[int, str]) -> str:
    """``path:line: what is wrong`` for the first line whose status is in ``problems``
    ("" when there is none)."""
    bad = np.flatnonzero(np.isin(status, list(problems)))
    if not len(bad):
        return ""
    at = int(bad[0])
    return f"{path}:{at + 1}: {problems[int(status[at])]}"


def read_line(line: str) -> tuple[str, int | None, float]:
    """(FEN, White-side score or None, result) of one line in any accepted form; ValueError
    (saying what is wrong) if it is not one."""
    raw = line.rstrip("\r\n").encode("utf-8", "replace") + b"\n"
    if raw.count(b"\n") != 1:
        raise ValueError("a training line holds no line break")
    records, status = read_records(np.frombuffer(raw, dtype=np.uint8))
    code = int(status[0])
    if code != OK:
        raise ValueError(PROBLEMS.get(code, "a blank line"))
    start, _, end = (int(x) for x in records.spans[0])
    score = int(records.numbers[0, SCORE])
    fen = raw[start:end].decode("utf-8")
    return fen, None if score == NO_SCORE else score, float(records.results()[0])


def parse_line(line: str) -> tuple[str, int | None, float]:
    """(FEN, White-side score or None, result) of a ``FEN | [score |] result`` line (the
    form ``plies datagen`` writes); ValueError if it is anything else."""
    if "|" not in line:
        raise ValueError("expected 'FEN | result' or 'FEN | score | result'")
    return read_line(line)
