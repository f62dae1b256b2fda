"""Perft node counts: the 126-position suite, the six standard positions, divide and the CLI.

The default run goes as deep in each position as a node budget allows; the
full published depths run under ``-m slow``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from plies.board import Board, divide, perft

DATA = Path(__file__).resolve().parents[1] / "data" / "perft"

# Deepest published depth whose count stays under this many nodes runs by
# default: ~100 M nodes over the whole table, a few seconds of bulk-counted perft.
DEFAULT_NODE_CAP = 5_000_000

# The two-bishops double check (see tests/data/README.md): python-chess calls it
# impossible, but the rules apply and the board must accept it.
DOUBLE_DIAGONAL_CHECK = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1"


def _load(name: str) -> list[tuple[str, dict[int, int]]]:
    """Read an EPD of ``FEN ;D1 n ;D2 n ...`` lines into (fen, {depth: nodes})."""
    entries = []
    with open(DATA / name, encoding="ascii") as handle:  # text mode: CRLF folds away
        for line in handle:
            line = line.strip()
            if not line:
                continue
            fen, *fields = (part.strip() for part in line.split(";"))
            counts = {}
            for field in fields:
                label, nodes = field.split()
                counts[int(label.removeprefix("D"))] = int(nodes)
            entries.append((fen, counts))
    return entries


SUITE = _load("perftsuite.epd")
STANDARD = _load("standard.epd")


def _cases(entries: list[tuple[str, dict[int, int]]], prefix: str, full: bool) -> list:
    """One pytest param per position: the default-depth or the deepest count."""
    params = []
    for index, (fen, counts) in enumerate(entries, start=1):
        if full:
            depth = max(counts)
        else:
            affordable = [d for d, n in counts.items() if n <= DEFAULT_NODE_CAP]
            depth = max(affordable, default=min(counts))
        params.append(pytest.param(fen, depth, counts[depth], id=f"{prefix}{index:03d}-d{depth}"))
    return params


def test_data_files_are_complete() -> None:
    """The copied data holds what tests/data/README.md promises."""
    assert len(SUITE) == 126
    assert len(STANDARD) == 6
    assert any(fen == DOUBLE_DIAGONAL_CHECK for fen, _ in SUITE)


@pytest.mark.parametrize(("fen", "depth", "expected"), _cases(SUITE, "suite", full=False))
def test_perft_suite(fen: str, depth: int, expected: int) -> None:
    """Each suite position counts the published number of leaves."""
    assert perft(Board(fen), depth) == expected


@pytest.mark.parametrize(("fen", "depth", "expected"), _cases(STANDARD, "std", full=False))
def test_perft_standard(fen: str, depth: int, expected: int) -> None:
    """Each standard position counts the published number of leaves."""
    assert perft(Board(fen), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("fen", "depth", "expected"), _cases(SUITE, "suite", full=True))
def test_perft_suite_full_depth(fen: str, depth: int, expected: int) -> None:
    """Each suite position at its deepest published depth."""
    assert perft(Board(fen), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("fen", "depth", "expected"), _cases(STANDARD, "std", full=True))
def test_perft_standard_full_depth(fen: str, depth: int, expected: int) -> None:
    """Each standard position at its deepest published depth."""
    assert perft(Board(fen), depth) == expected


@pytest.mark.parametrize(
    ("fen", "counts"),
    [pytest.param(f, c, id=f"std{i}") for i, (f, c) in enumerate(STANDARD, start=1)],
)
def test_perft_every_shallow_depth(fen: str, counts: dict[int, int]) -> None:
    """Depths 0..3 of the standard positions, so a wrong bulk count at depth 1 shows."""
    board = Board(fen)
    assert perft(board, 0) == 1
    for depth in (1, 2, 3):
        assert perft(board, depth) == counts[depth], depth


def test_double_diagonal_check_is_accepted() -> None:
    """The king checked from both ends of a diagonal: only king moves, counted right."""
    board = Board(DOUBLE_DIAGONAL_CHECK)
    assert board.is_check()
    assert board.fen() == DOUBLE_DIAGONAL_CHECK
    assert all(move.from_square == board.king(board.turn) for move in board.legal_moves)
    counts = dict(SUITE)[DOUBLE_DIAGONAL_CHECK]
    assert perft(board, 1) == counts[1]
    assert perft(board, 3) == counts[3]


def test_perft_leaves_board_untouched() -> None:
    """perft and divide neither move pieces nor touch the move stack."""
    board = Board()
    board.push_uci("e2e4")
    board.push_uci("c7c5")
    before = (board.fen(), list(board.move_stack), board.zobrist_key())
    perft(board, 3)
    divide(board, 3)
    assert (board.fen(), list(board.move_stack), board.zobrist_key()) == before
    board.pop()
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.mark.parametrize(
    "fen",
    [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # fool's mate
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    ],
)
def test_perft_with_no_legal_move(fen: str) -> None:
    """A finished game has no leaves below it, and divide is empty."""
    board = Board(fen)
    assert perft(board, 1) == 0
    assert perft(board, 3) == 0
    assert divide(board, 2) == {}


@pytest.mark.parametrize(
    ("fen", "counts"),
    [pytest.param(f, c, id=f"std{i}") for i, (f, c) in enumerate(STANDARD, start=1)],
)
def test_divide_sums_to_perft(fen: str, counts: dict[int, int]) -> None:
    """divide keys are the legal moves in UCI; each value is perft of the child."""
    board = Board(fen)
    split = divide(board, 3)
    assert sum(split.values()) == counts[3]
    assert set(split) == {move.uci() for move in board.legal_moves}
    assert set(split) == {move.uci() for move in chess.Board(fen).legal_moves}
    for uci, nodes in split.items():
        child = board.copy()
        child.push_uci(uci)
        assert perft(child, 2) == nodes, uci
    assert divide(board, 1) == dict.fromkeys(split, 1)


def test_divide_suite_against_published_totals() -> None:
    """divide at depth 2 sums to D2 for every suite position."""
    for fen, counts in SUITE:
        split = divide(Board(fen), 2)
        assert sum(split.values()) == counts[2], fen
        assert all(re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", key) for key in split), fen


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m plies`` with arguments, capturing text output."""
    return subprocess.run(
        [sys.executable, "-m", "plies", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_cli_perft_prints_nodes_line() -> None:
    """``plies perft 3`` ends with the Nodes/Time/NPS line and exits 0."""
    proc = _run_cli("perft", "3")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"Nodes: (\d+)\s+Time: ([\d.]+) s\s+NPS: (\d+)", last.strip())
    assert match, last
    assert int(match.group(1)) == 8902


def test_cli_perft_divide_with_fen() -> None:
    """``--divide --fen`` prints each legal move with its count, then the total."""
    fen = STANDARD[1][0]  # Kiwipete
    proc = _run_cli("perft", "2", "--fen", fen, "--divide")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    per_move = {}
    for line in lines:
        match = re.fullmatch(r"\s*([a-h][1-8][a-h][1-8][qrbn]?)\W+(\d+)\s*", line)
        if match:
            per_move[match.group(1)] = int(match.group(2))
    assert per_move == divide(Board(fen), 2)
    assert re.fullmatch(r"Nodes: 2039\s+Time: [\d.]+ s\s+NPS: \d+", lines[-1].strip()), lines[-1]
