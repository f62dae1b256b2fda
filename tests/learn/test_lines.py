"""The training-line format and its one compiled reader, held to a plain Python reading
of the same rules and fed malformed lines."""

from __future__ import annotations

import random
import re
from pathlib import Path

import chess
import numpy as np
import pytest

from plies.learn.lines import (
    BAD_RESULT,
    BLANK,
    NO_SCORE,
    OK,
    PROBLEMS,
    format_line,
    parse_line,
    read_line,
    read_records,
)
from plies.learn.split import MOVE_DIGITS, NO_PLY
from plies.learn.train.features import OTHER_OFFSET
from plies.learn.train.loader import MAX_SCORE, TRAINER_PROBLEMS, parse_buffer, read_dataset
from plies.learn.tune.dataset import read_positions

DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLES = [DATA / "train" / "sf-d7-sample.txt", DATA / "tune" / "selfplay-sample.txt"]
_EPD_RESULT = re.compile(r'c9\s+"(1-0|0-1|1/2-1/2)"|\[(1\.0|0\.5|0\.0|1|0)\]')
_VALUES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "1.0": 1.0, "1": 1.0, "0.5": 0.5,
           "0.0": 0.0, "0": 0.0}  # fmt: skip


def _reference(line: str) -> tuple[str, int | None, float, int, int]:
    """(FEN, score, result, side, ply) of a well-formed line, read with str.split and a
    regular expression: the rules the compiled reader keeps, written the plain way."""
    if "|" in line:
        fields = [f.strip() for f in line.split("|")]
        assert len(fields) in (2, 3)
        fen, result = fields[0], float(fields[-1])
        score = int(fields[1]) if len(fields) == 3 else None
    else:
        match = _EPD_RESULT.search(line)
        assert match is not None
        fen = " ".join(line[: match.start()].split()[:2])
        score, result = None, _VALUES[match.group(1) or match.group(2)]
    parts = fen.split()
    side = "wb".index(parts[1])
    ply = NO_PLY
    if len(parts) == 6 and parts[5].isdigit() and len(parts[5]) <= MOVE_DIGITS:
        ply = 2 * (int(parts[5]) - 1) + side if int(parts[5]) >= 1 else NO_PLY
    return fen, score, result, side, ply


def _pieces(placement: str) -> list[int]:
    """The feature indices of a placement's pieces in FEN order, by python-chess."""
    board = chess.BaseBoard(placement)
    order = [rank * 8 + file for rank in range(7, -1, -1) for file in range(8)]
    return [
        (0 if piece.color else OTHER_OFFSET) + (piece.piece_type - 1) * 64 + sq
        for sq in order if (piece := board.piece_at(sq)) is not None
    ]  # fmt: skip


def _rows(path: Path) -> tuple[list[str], list[tuple[str, int | None, float, int, int, list[int]]]]:
    """A file's lines and, for each good one, what the compiled reader read."""
    raw = path.read_bytes()
    records, status = read_records(np.frombuffer(raw, dtype=np.uint8))
    rows = []
    columns = zip(records.spans.tolist(), records.scores().tolist(), records.results().tolist(),
                  records.sides().tolist(), records.plies().tolist(), records.pieces.tolist(),
                  strict=True)  # fmt: skip
    for (start, board_end, end), score, result, side, ply, pieces in columns:
        fen = raw[start:end].decode()
        assert raw[start:board_end].decode() == fen.split()[0]
        rows.append((fen, None if score == NO_SCORE else score, result, side, ply,
                     [p for p in pieces if p >= 0]))  # fmt: skip
    assert (status == OK).sum() == len(rows)
    return raw.decode().splitlines(), rows


def test_lines_round_trip() -> None:
    """What ``format_line`` writes, ``parse_line`` reads back, with and without a score."""
    fen = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1"
    assert parse_line(format_line(fen, "1.0", -35)) == (fen, -35, 1.0)
    assert parse_line(format_line(fen, "0.5")) == (fen, None, 0.5)
    with pytest.raises(ValueError, match=re.escape(PROBLEMS[BAD_RESULT])):
        parse_line(f"{fen} | 12 | 2.0")
    with pytest.raises(ValueError, match=re.escape("FEN | result")):
        parse_line('8/8/8/4k3/8/4K3/4P3/8 w - - c9 "0-1";')


@pytest.mark.parametrize(
    ("line", "result"),
    [
        ('8/8/8/4k3/8/4K3/4P3/8 w - - c9 "0-1";', 0.0),
        ('8/8/8/4k3/8/4K3/4P3/8 w - - c9\t"1/2-1/2"; id "x";', 0.5),
        ("8/8/8/4k3/8/4K3/4P3/8 w - - [1.0]", 1.0),
        ('8/8/8/4k3/8/4K3/4P3/8 w - - [0] c9 "1-0";', 0.0),
        ('8/8/8/4k3/8/4K3/4P3/8 w - - c9 "1-0"; [0]', 1.0),
    ],
)
def test_epd_lines_with_a_result_are_read(line: str, result: float) -> None:
    """An EPD line with a result gives its board and side, no score; the first result wins."""
    assert read_line(line) == ("8/8/8/4k3/8/4K3/4P3/8 w", None, result)


@pytest.mark.parametrize("path", SAMPLES, ids=["train", "tune"])
def test_reader_reads_the_sample_files_as_plain_python_does(path: Path) -> None:
    """Every line of both sample files: the same FEN, score, result, side, ply and pieces."""
    lines, rows = _rows(path)
    expected = [(*_reference(line), _pieces(line.split()[0])) for line in lines if line.strip()]
    assert rows == expected and len(rows) >= 1500


def test_trainer_keeps_the_scored_lines_under_the_cap() -> None:
    """The trainer keeps each scored line under MAX_SCORE, in file order, with its values."""
    path = SAMPLES[0]
    data, report = read_dataset(path)
    _, rows = _rows(path)
    kept = [row for row in rows if row[1] is not None and abs(row[1]) < MAX_SCORE]
    assert data.score.tolist() == [row[1] for row in kept]
    assert data.result.tolist() == [row[2] for row in kept]
    assert data.stm.tolist() == [row[3] for row in kept]
    assert len(kept) == report.lines - report.big_scores - report.bad


_NOISE = ["|", " ", "\t", "\r", "/", ".", "-", "+", "0", "1", "5", "8", "9", "k", "K", "q", "x",
          "w", "b", "é", "\x00", "\x0b", "[1.0]", 'c9 "1-0"', "c9", "[", '"', "||"]  # fmt: skip


def _mutate(rng: random.Random, line: str) -> str:
    """``line`` with one to three random edits: a character replaced, inserted, deleted, a
    stretch repeated, or the line cut short."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(line) + 1)
        edit = rng.randrange(5)
        if edit == 0:
            line = line[:at] + rng.choice(_NOISE) + line[at + 1 :]
        elif edit == 1:
            line = line[:at] + rng.choice(_NOISE) + line[at:]
        elif edit == 2:
            line = line[:at] + line[at + rng.randint(1, 8) :]
        elif edit == 3:
            line = line[:at] + line[max(0, at - 6) : at] + line[at:]
        else:
            line = line[:at]
    return line


@pytest.mark.parametrize("seed", [1, 2])
def test_malformed_lines_are_one_line_errors_with_their_number(tmp_path: Path, seed: int) -> None:
    """Lines damaged at random: nothing crashes, each line reads alone as it reads in bulk,
    every bad one says what is wrong in one line, both learners name the first bad line's
    number, and every line read as good holds a board python-chess reads the same way."""
    rng = random.Random(seed)
    good = [line for path in SAMPLES for line in path.read_text().splitlines()]
    # One line in five is left whole, so good lines sit among the bad ones.
    lines = [rng.choice(good) for _ in range(3000)]
    lines = [_mutate(rng, line) if rng.random() < 0.8 else line for line in lines]
    path = tmp_path / "fuzzed.txt"
    path.write_bytes("".join(line + "\n" for line in lines).encode())
    raw = path.read_bytes()
    records, status = read_records(np.frombuffer(raw, dtype=np.uint8))
    assert len(status) == len(lines) and set(status.tolist()) <= {OK, BLANK, *PROBLEMS}
    assert 300 < (status == OK).sum() < 2700  # the edits broke some lines and spared others
    row = 0
    for line, code in zip(lines, status.tolist(), strict=True):
        if code == BLANK:
            continue
        if code != OK:
            with pytest.raises(ValueError) as caught:
                read_line(line)
            assert str(caught.value) == PROBLEMS[code]
            continue
        fen, score, result = read_line(line)
        assert score is None or score == records.scores()[row]
        start, _, end = records.spans[row].tolist()
        assert raw[start:end].decode() == fen and result in (0.0, 0.5, 1.0)
        assert records.sides()[row] == "wb".index(fen.split()[1])
        assert [p for p in records.pieces[row].tolist() if p >= 0] == _pieces(fen.split()[0])
        row += 1
    assert row == len(records)
    first = int(np.flatnonzero((status != OK) & (status != BLANK))[0])
    where = f"{path}:{first + 1}: "
    positions = read_positions([path])
    assert positions.first_bad == where + PROBLEMS[int(status[first])]
    assert positions.bad == np.count_nonzero((status != OK) & (status != BLANK))
    assert len(positions.placements) == len(records)
    _, trainer_status = parse_buffer(np.frombuffer(raw, dtype=np.uint8))
    unusable = np.flatnonzero(np.isin(trainer_status, list(TRAINER_PROBLEMS)))
    _, report = read_dataset(path)
    assert report.bad == len(unusable) >= positions.bad
    code = int(trainer_status[unusable[0]])
    assert report.first_bad == f"{path}:{unusable[0] + 1}: {TRAINER_PROBLEMS[code]}"
