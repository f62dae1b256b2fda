"""Training files as compact arrays for the trainer, through the one compiled line reader."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from plies.learn.lines import (
    FEN_START,
    NO_FIELDS,
    NO_SCORE,
    OK,
    PROBLEMS,
    first_problem,
    read_bytes,
    read_records,
)
from plies.learn.split import game_ids
from plies.learn.train.features import NO_FEATURE

MAX_SCORE = 3000
"""Lines whose |score| reaches this (mates, won-out positions) are skipped."""

NEEDS_SCORE = 9
BIG_SCORE = 10
"""Statuses the trainer adds to the reader's (``plies.learn.lines``): a good line without a
score (an error: the trainer fits scores), and one whose |score| reaches MAX_SCORE (skipped
without being an error)."""

_NO_SCORE_TEXT = "expected 'FEN | score | result' (a score is needed)"
TRAINER_PROBLEMS = {**PROBLEMS, NO_FIELDS: _NO_SCORE_TEXT, NEEDS_SCORE: _NO_SCORE_TEXT}
"""What is wrong with a line the trainer cannot use."""


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
    """int64 [n]: byte offset of the row's FEN in its file."""
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


def parse_buffer(buf: np.ndarray) -> tuple[Dataset, np.ndarray]:
    """Parse newline-terminated lines in ``buf``: the rows the trainer keeps and every line's
    status (the reader's, or NEEDS_SCORE or BIG_SCORE)."""
    records, status = read_records(buf)
    score = records.scores()
    missing = score == NO_SCORE
    big = ~missing & (np.abs(score) >= MAX_SCORE)
    lines = np.flatnonzero(status == OK)
    status[lines[missing]] = NEEDS_SCORE
    status[lines[big]] = BIG_SCORE
    kept = records.keep(~(missing | big))
    data = Dataset(
        kept.pieces,
        kept.sides(),
        kept.scores().astype(np.float32),
        kept.results(),
        kept.spans[:, FEN_START].copy(),
        np.zeros(len(kept), dtype=np.int16),
        kept.plies().copy(),
    )
    return data, status


def read_dataset(path: str | Path) -> tuple[Dataset, ReadReport]:
    """Read ``path``; malformed lines are skipped and counted, a missing file is a DataError."""
    buf, cut = read_bytes(path)
    data, status = parse_buffer(buf)
    bad = int(np.count_nonzero(np.isin(status, list(TRAINER_PROBLEMS))))
    big = int(np.count_nonzero(status == BIG_SCORE))
    report = ReadReport(len(status), big, bad, first_problem(path, status, TRAINER_PROBLEMS), cut)
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
