"""Training positions read from files and turned into a sparse feature matrix, once."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from plies.core.trace import MAX_ENTRIES, trace_placements
from plies.learn.lines import NO_SCORE, PROBLEMS, first_problem, read_bytes, read_records
from plies.learn.split import NO_PLY, game_ids

PHASE_MAX = 24
SCALE_FULL = 64

_CHUNK = 65536


@dataclass
class Positions:
    """Positions as read: FEN placement fields, side to move, result and optional score."""

    placements: list[str] = field(default_factory=list)
    """The first FEN field of each position."""
    sides: list[int] = field(default_factory=list)
    """0 for White to move, 1 for Black."""
    results: list[float] = field(default_factory=list)
    """Game result from White's side: 1.0, 0.5 or 0.0."""
    scores: list[float] = field(default_factory=list)
    """Search score in centipawns from White's side, NaN when the line has none."""
    plies: list[int] = field(default_factory=list)
    """Half-moves since the game's start by the FEN's move number, NO_PLY without one."""
    sources: list[int] = field(default_factory=list)
    """Which file read into this object the position comes from (0-based)."""
    files: int = 0
    """Files read into this object so far."""
    bad: int = 0
    """Lines that could not be read (blank lines do not count)."""
    first_bad: str = ""
    """Where the first bad line is and why, for the report."""


def read_positions(paths: Iterable[str | Path], out: Positions | None = None) -> Positions:
    """Read every position of ``paths``; bad lines are counted, a missing file is a DataError."""
    data = Positions() if out is None else out
    for path in paths:
        buf, _ = read_bytes(path, whole=True)
        records, status = read_records(buf)
        data.placements.extend(records.placements(buf))
        data.sides.extend(records.sides().tolist())
        data.results.extend(records.results().tolist())
        score = records.scores()
        data.scores.extend(np.where(score == NO_SCORE, np.nan, score).tolist())
        data.plies.extend(records.plies().tolist())
        data.sources.extend([data.files] * len(records))
        bad = int(np.count_nonzero(np.isin(status, list(PROBLEMS))))
        if bad and not data.first_bad:
            data.first_bad = first_problem(path, status, PROBLEMS)
        data.bad += bad
        data.files += 1
    return data


@dataclass
class Features:
    """The sparse count matrix (CSR, white minus black) and what each row needs besides."""

    indptr: np.ndarray
    """Row ``i``'s entries are ``cols/vals[indptr[i]:indptr[i + 1]]`` (int64)."""
    cols: np.ndarray
    """Feature index of each entry (int16)."""
    vals: np.ndarray
    """Count of each entry (int16)."""
    phase: np.ndarray
    """Game phase (0 .. 24) per row."""
    scale: np.ndarray
    """Endgame scale (of 64) per row, fixed at trace time."""
    danger: np.ndarray
    """King-attack danger per row (middlegame, white minus black), fixed."""
    mg_factor: np.ndarray
    """phase / 24 per row: the weight of middlegame values."""
    eg_factor: np.ndarray
    """scale * (24 - phase) / (24 * 64) per row: the weight of endgame values."""
    fixed: np.ndarray
    """The untuned part of each row's evaluation (the king danger, tapered)."""
    sign: np.ndarray
    """+1 for White to move, -1 for Black (the tempo's sign from White's side)."""
    results: np.ndarray
    """Game result from White's side."""
    scores: np.ndarray
    """Search score from White's side (NaN when unknown)."""
    games: np.ndarray
    """Game number of each row (``plies.learn.split.game_ids``), for the validation split."""

    def __len__(self) -> int:
        """Number of rows."""
        return len(self.results)

    def take(self, rows: np.ndarray) -> Features:
        """The rows ``rows`` (in that order) as a new matrix."""
        lengths = np.diff(self.indptr)[rows]
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        starts = self.indptr[rows]
        # Entry j of the new matrix comes from starts[row] + (j - indptr[row]).
        offsets = np.arange(indptr[-1], dtype=np.int64) - np.repeat(indptr[:-1], lengths)
        source = np.repeat(starts, lengths) + offsets
        return Features(
            indptr, self.cols[source], self.vals[source], self.phase[rows], self.scale[rows],
            self.danger[rows], self.mg_factor[rows],
            self.eg_factor[rows], self.fixed[rows], self.sign[rows], self.results[rows],
            self.scores[rows], self.games[rows],
        )  # fmt: skip


def build_features(
    data: Positions, progress: Callable[[int], None] | None = None
) -> tuple[Features, int]:
    """Trace every position (compiled, in chunks); the matrix and the number of bad FENs."""
    from plies.board import Board

    n = len(data.placements)
    encoded = [p.encode("ascii", "replace") for p in data.placements]
    bounds = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(e) for e in encoded], out=bounds[1:])
    text = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    sides = np.array(data.sides, dtype=np.int64)
    scratch = Board().core_position()
    row_len = np.zeros(n, dtype=np.int64)
    info = np.zeros((n, 4), dtype=np.int64)
    col_parts: list[np.ndarray] = []
    val_parts: list[np.ndarray] = []
    cols = np.zeros(_CHUNK * MAX_ENTRIES, dtype=np.int64)
    vals = np.zeros(_CHUNK * MAX_ENTRIES, dtype=np.int64)
    for lo in range(0, n, _CHUNK):
        hi = min(lo + _CHUNK, n)
        used = trace_placements(
            scratch, text, bounds[lo : hi + 1], sides[lo:hi], cols, vals, row_len[lo:hi],
            info[lo:hi],
        )  # fmt: skip
        col_parts.append(cols[:used].astype(np.int16))
        val_parts.append(vals[:used].astype(np.int16))
        if progress is not None:
            progress(hi - lo)
    ok = info[:, 3] == 1
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(row_len, out=indptr[1:])
    phase = info[:, 0].astype(np.float64)
    mg_factor = phase / PHASE_MAX
    eg_factor = info[:, 1] * (PHASE_MAX - phase) / (PHASE_MAX * SCALE_FULL)
    features = Features(
        indptr,
        np.concatenate(col_parts) if col_parts else np.zeros(0, dtype=np.int16),
        np.concatenate(val_parts) if val_parts else np.zeros(0, dtype=np.int16),
        info[:, 0].copy(),
        info[:, 1].copy(),
        info[:, 2].copy(),
        mg_factor,
        eg_factor,
        mg_factor * info[:, 2],
        np.where(sides == 0, 1.0, -1.0),
        np.array(data.results, dtype=np.float64),
        np.array(data.scores, dtype=np.float64),
        _games(data),
    )
    bad = int(n - ok.sum())
    if bad:
        features = features.take(np.flatnonzero(ok))
    return features, bad


def _games(data: Positions) -> np.ndarray:
    """Each position's game number, from its file, move number, result and piece count.

    Positions filled in by hand may leave ``plies`` and ``sources`` short: the rows
    without them count as having no move number and as coming from the first file.
    """
    n = len(data.placements)
    pieces = np.array([sum(c.isalpha() for c in p) for p in data.placements], dtype=np.int64)
    plies = np.full(n, NO_PLY, dtype=np.int64)
    plies[: len(data.plies)] = data.plies[:n]
    sources = np.zeros(n, dtype=np.int64)
    sources[: len(data.sources)] = data.sources[:n]
    return game_ids(plies, np.array(data.results, dtype=np.float64), pieces, sources)
