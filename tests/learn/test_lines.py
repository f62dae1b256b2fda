"""The training-line format: one Python reader, and the compiled bulk reader held to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.learn.lines import format_line, parse_line, read_line
from plies.learn.train.loader import MAX_SCORE, read_dataset

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "train" / "sf-d7-sample.txt"


def test_lines_round_trip() -> None:
    """What ``format_line`` writes, ``parse_line`` reads back, with and without a score."""
    fen = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1"
    assert parse_line(format_line(fen, "1.0", -35)) == (fen, -35, 1.0)
    assert parse_line(format_line(fen, "0.5")) == (fen, None, 0.5)
    with pytest.raises(ValueError):
        parse_line(f"{fen} | 12 | 2.0")


def test_epd_lines_with_a_result_are_read() -> None:
    """An EPD line with a ``c9`` result gives its board and side, no score."""
    fen, score, result = read_line('8/8/8/4k3/8/4K3/4P3/8 w - - c9 "0-1";')
    assert (fen, score, result) == ("8/8/8/4k3/8/4K3/4P3/8 w", None, 0.0)


def test_compiled_reader_agrees_with_the_python_reader() -> None:
    """Every row the compiled reader keeps has the score, result and side ``parse_line`` reads."""
    data, report = read_dataset(SAMPLE)
    raw = SAMPLE.read_bytes()
    kept = 0
    for row in range(len(data)):
        start = int(data.offset[row])
        line = raw[start : raw.index(b"\n", start)].decode()
        fen, score, result = parse_line(line)
        assert score is not None and abs(score) < MAX_SCORE
        assert float(data.score[row]) == score
        assert float(data.result[row]) == result
        assert int(data.stm[row]) == (0 if fen.split()[1] == "w" else 1)
        kept += 1
    expected = sum(1 for line in raw.decode().splitlines()
                   if line.strip() and abs(parse_line(line)[1] or 0) < MAX_SCORE)  # fmt: skip
    assert kept == expected == report.lines - report.big_scores - report.bad
