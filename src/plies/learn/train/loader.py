"""Reading ``FEN | score | result`` files into compact arrays, compiled, in one pass."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from plies.core.encoding import KING, NO_PIECE, PAWN
from plies.core.placement import PLACEMENT_OK, read_placement
from plies.learn.lines import DataError
from plies.learn.split import MOVE_DIGITS, NO_PLY, game_ids
from plies.learn.train.features import MAX_PIECES, NO_FEATURE, OTHER_OFFSET

MAX_SCORE = 3000
"""Lines whose |score| reaches this (mates, won-out positions) are skipped."""

OK = 0
BLANK = 1
NO_FIELDS = 2
BAD_BOARD = 3
TOO_MANY_PIECES = 4
BAD_KINGS = 5
BAD_SIDE = 6
BAD_SCORE = 7
BAD_RESULT = 8
BIG_SCORE = 9
"""Line status codes; ``BLANK`` and ``BIG_SCORE`` are skipped without being errors."""

PROBLEMS = {
    NO_FIELDS: "expected 'FEN | score | result' (a score is needed)",
    BAD_BOARD: "malformed FEN board (8 ranks of 8 squares, letters PNBRQKpnbrqk)",
    TOO_MANY_PIECES: f"more than {MAX_PIECES} pieces",
    BAD_KINGS: "needs exactly one king of each colour",
    BAD_SIDE: "the FEN needs a side to move (w or b)",
    BAD_SCORE: "the score must be an integer (centipawns)",
    BAD_RESULT: "the result must be 1.0, 0.5 or 0.0",
}
"""What is wrong with a line of each error status."""

_NEWLINE = 10
_CR = 13
_SPACE = 32
_TAB = 9
_BAR = 124
_SLASH = 47
_DOT = 46
_MINUS = 45
_PLUS = 43
_ZERO = 48
_NINE = 57


@dataclass
class Dataset:
    """Positions as arrays, one row each (White's perspective; the trainer turns them)."""

    features: np.ndarray
    """int16 [n, 32]: each piece's feature index in White's perspective, -1 padding."""
    stm: np.ndarray
    """int8 [n]: 0 White to move, 1 Black."""
    score: np.ndarray
    """float32 [n]: search score in centipawns from White's side."""
    result: np.ndarray
    """float32 [n]: game result from White's side (1.0, 0.5, 0.0)."""
    offset: np.ndarray
    """int64 [n]: byte offset of the row's line in its file."""
    source: np.ndarray
    """int16 [n]: which of the files read the row comes from (0-based)."""
    ply: np.ndarray
    """int32 [n]: half-moves since the game's start by the FEN's move number, else NO_PLY."""

    def __len__(self) -> int:
        """Number of positions."""
        return len(self.stm)

    def games(self) -> np.ndarray:
        """Each row's game number (``plies.learn.split.game_ids``), for the validation split."""
        pieces = np.count_nonzero(self.features != NO_FEATURE, axis=1)
        return game_ids(self.ply, self.result, pieces, self.source)


@dataclass
class ReadReport:
    """What reading a file skipped, beside the positions it kept."""

    lines: int
    """Complete lines read."""
    big_scores: int
    """Lines skipped for |score| >= MAX_SCORE."""
    bad: int
    """Malformed lines skipped."""
    first_bad: str
    """Where the first malformed line is and why ("" when none)."""
    unterminated: bool
    """Whether an unfinished last line (no newline: a file still being written) was left out."""


@njit(cache=True, nogil=True, inline="always")
def _space(c: int) -> bool:
    """Whether byte ``c`` is blank inside a line."""
    return c in (_SPACE, _TAB, _CR)


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
    if lo >= hi or hi - lo > 9:
        return False, 0
    value = 0
    for i in range(lo, hi):
        if buf[i] < _ZERO or buf[i] > _NINE:
            return False, 0
        value = value * 10 + (buf[i] - _ZERO)
    return True, sign * value


@njit(cache=True, nogil=True)
def _result(buf: np.ndarray, lo: int, hi: int) -> float:
    """The game result 0, 0.5 or 1 written in buf[lo:hi]; -1.0 when it is anything else."""
    while lo < hi and _space(buf[lo]):
        lo += 1
    while hi > lo and _space(buf[hi - 1]):
        hi -= 1
    if lo >= hi or buf[lo] < _ZERO or buf[lo] > _ZERO + 1:
        return -1.0
    whole = buf[lo] - _ZERO
    i = lo + 1
    half = False
    if i < hi:
        if buf[i] != _DOT:
            return -1.0
        i += 1
        if i < hi and buf[i] == _ZERO + 5 and whole == 0:
            half = True
            i += 1
        elif i < hi and buf[i] != _ZERO:
            return -1.0
        while i < hi:
            if buf[i] != _ZERO:
                return -1.0
            i += 1
    return 0.5 if half else float(whole)


@njit(cache=True, nogil=True)
def _line(
    buf: np.ndarray, lo: int, hi: int, row: np.ndarray, squares: np.ndarray
) -> tuple[int, int, int, float, int]:
    """Parse buf[lo:hi] into ``row`` (feature indices; ``squares`` is scratch); (status,
    side, score, result, ply)."""
    i = lo
    while i < hi and _space(buf[i]):
        i += 1
    if i == hi:
        return BLANK, 0, 0, 0.0, NO_PLY
    bars = 0
    first = -1
    second = -1
    for j in range(i, hi):
        if buf[j] == _BAR:
            bars += 1
            if bars == 1:
                first = j
            elif bars == 2:
                second = j
    if bars != 2:
        return NO_FIELDS, 0, 0, 0.0, NO_PLY
    status, _, _, i = read_placement(buf, i, first, squares)
    if status != PLACEMENT_OK:
        return BAD_BOARD, 0, 0, 0.0, NO_PLY
    count = 0
    kings = 0
    # FEN order (rank 8 first, files a-h): the order the features are summed in.
    for rank in range(7, -1, -1):
        for file in range(8):
            p = squares[rank * 8 + file]
            if p == NO_PIECE:
                continue
            if count == MAX_PIECES:
                return TOO_MANY_PIECES, 0, 0, 0.0, NO_PLY
            kind = p & 7
            if kind == KING:
                kings += 1 if p < 8 else 100
            row[count] = (p >> 3) * OTHER_OFFSET + (kind - PAWN) * 64 + rank * 8 + file
            count += 1
    if kings != 101:
        return BAD_KINGS, 0, 0, 0.0, NO_PLY
    for j in range(count, MAX_PIECES):
        row[j] = NO_FEATURE
    while i < first and _space(buf[i]):
        i += 1
    side = -1
    if i < first and (i + 1 == first or _space(buf[i + 1])):
        if buf[i] == ord("w"):
            side = 0
        elif buf[i] == ord("b"):
            side = 1
    if side < 0:
        return BAD_SIDE, 0, 0, 0.0, NO_PLY
    ply = _ply(buf, i + 1, first, side)
    ok, score = _integer(buf, first + 1, second)
    if not ok:
        return BAD_SCORE, 0, 0, 0.0, NO_PLY
    result = _result(buf, second + 1, hi)
    if result < 0.0:
        return BAD_RESULT, 0, 0, 0.0, NO_PLY
    if abs(score) >= MAX_SCORE:
        return BIG_SCORE, side, score, result, ply
    return OK, side, score, result, ply


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
def _parse(
    buf: np.ndarray,
    features: np.ndarray,
    stm: np.ndarray,
    score: np.ndarray,
    result: np.ndarray,
    offset: np.ndarray,
    ply: np.ndarray,
    status: np.ndarray,
) -> int:
    """Parse every newline-terminated line of ``buf``; the number of rows kept."""
    squares = np.empty(64, dtype=np.int64)
    kept = 0
    lo = 0
    line = 0
    n = len(buf)
    while lo < n:
        hi = lo
        while buf[hi] != _NEWLINE:
            hi += 1
        code, side, value, res, number = _line(buf, lo, hi, features[kept], squares)
        status[line] = code
        if code == OK:
            stm[kept] = side
            score[kept] = value
            result[kept] = res
            offset[kept] = lo
            ply[kept] = number
            kept += 1
        line += 1
        lo = hi + 1
    return kept


def read_bytes(path: str | Path) -> tuple[np.ndarray, bool]:
    """The complete lines of ``path`` as present now (bytes), and whether a tail was cut."""
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    end = raw.rfind(b"\n") + 1
    return np.frombuffer(raw, dtype=np.uint8, count=end), end < len(raw)


def parse_buffer(buf: np.ndarray) -> tuple[Dataset, np.ndarray]:
    """Parse newline-terminated lines in ``buf``: the kept rows and every line's status."""
    lines = int(np.count_nonzero(buf == _NEWLINE))
    features = np.empty((lines, MAX_PIECES), dtype=np.int16)
    stm = np.empty(lines, dtype=np.int8)
    score = np.empty(lines, dtype=np.float32)
    result = np.empty(lines, dtype=np.float32)
    offset = np.empty(lines, dtype=np.int64)
    ply = np.empty(lines, dtype=np.int32)
    status = np.empty(lines, dtype=np.int8)
    kept = _parse(buf, features, stm, score, result, offset, ply, status)
    source = np.zeros(kept, dtype=np.int16)
    data = Dataset(
        features[:kept], stm[:kept], score[:kept], result[:kept], offset[:kept], source, ply[:kept]
    )
    return data, status


def read_dataset(path: str | Path) -> tuple[Dataset, ReadReport]:
    """Read ``path``; malformed lines are skipped and counted, a missing file is a DataError."""
    buf, cut = read_bytes(path)
    data, status = parse_buffer(buf)
    counts = np.bincount(status, minlength=BIG_SCORE + 1)
    bad_lines = np.flatnonzero((status != OK) & (status != BLANK) & (status != BIG_SCORE))
    first_bad = ""
    if len(bad_lines):
        at = int(bad_lines[0])
        first_bad = f"{path}:{at + 1}: {PROBLEMS[int(status[at])]}"
    report = ReadReport(len(status), int(counts[BIG_SCORE]), len(bad_lines), first_bad, cut)
    return data, report


def combine(parts: list[Dataset]) -> Dataset:
    """The rows of every part in order, each marked with its part's number as its source."""
    if len(parts) == 1:
        return parts[0]
    sources = [np.full(len(p), i, dtype=np.int16) for i, p in enumerate(parts)]
    return Dataset(
        np.concatenate([p.features for p in parts]),
        np.concatenate([p.stm for p in parts]),
        np.concatenate([p.score for p in parts]),
        np.concatenate([p.result for p in parts]),
        np.concatenate([p.offset for p in parts]),
        np.concatenate(sources),
        np.concatenate([p.ply for p in parts]),
    )
