"""The training-line format, ``FEN | result`` or ``FEN | score | result``, and its reader.

``plies datagen`` writes these lines; ``plies tune`` reads them (and EPD lines
with a result) through :func:`read_line`; ``plies train`` reads the same
format in bulk with a compiled parser (``plies.learn.train.loader``) that a
test holds to this one.
"""

from __future__ import annotations

import re

RESULT_TEXT = {"1-0": "1.0", "1/2-1/2": "0.5", "0-1": "0.0"}
"""A game's PGN result as the line's result field (White's side)."""

SEPARATOR = " | "
"""Between the fields of a line."""

_EPD_RESULT = re.compile(r'c9\s+"(1-0|0-1|1/2-1/2)"|\[(1\.0|0\.5|0\.0|1|0)\]')
_EPD_VALUES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "1.0": 1.0, "1": 1.0, "0.5": 0.5,
               "0.0": 0.0, "0": 0.0}  # fmt: skip


class DataError(ValueError):
    """Training data that cannot be used at all (missing file, nothing readable)."""


def format_line(fen: str, result: str, score_cp: int | None = None) -> str:
    """One line: ``FEN | result`` or ``FEN | score | result`` (no newline)."""
    if score_cp is None:
        return f"{fen}{SEPARATOR}{result}"
    return f"{fen}{SEPARATOR}{score_cp}{SEPARATOR}{result}"


def parse_line(line: str) -> tuple[str, int | None, float]:
    """(FEN, White-side score or None, result) of one line; ValueError if malformed."""
    fields = [f.strip() for f in line.strip().split("|")]
    if len(fields) not in (2, 3):
        raise ValueError(f"expected 'FEN | result' or 'FEN | score | result': {line.strip()!r}")
    result = float(fields[-1])
    if result not in (0.0, 0.5, 1.0):
        raise ValueError(f"result must be 1.0, 0.5 or 0.0, not {fields[-1]!r}")
    score = int(fields[1]) if len(fields) == 3 else None
    return fields[0], score, result


def read_line(line: str) -> tuple[str, int | None, float]:
    """(FEN, score or None, result) of a training line or an EPD line with a result."""
    if "|" in line:
        return parse_line(line)
    match = _EPD_RESULT.search(line)
    if match is None:
        raise ValueError('no result (expected "FEN | result" or EPD with c9 "1-0")')
    fen = " ".join(line[: match.start()].split()[:2])
    return fen, None, _EPD_VALUES[match.group(1) or match.group(2)]
