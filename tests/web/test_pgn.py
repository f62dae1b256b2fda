"""Reading pasted PGNs: the main line only, plies counted while parsing, and a worker
process that is killed when a PGN takes too long."""

from __future__ import annotations

import asyncio

import chess
import pytest
from tests.waiting import HANG_S
from tests.web.conftest import run_async

from plies.web.pgn import MainLineVisitor, PgnError, read_main_line
from plies.web.pgn_workers import PgnWorkers


def test_the_main_line_with_its_positions() -> None:
    """Moves, SAN and every position, the start first; comments and NAGs ignored."""
    line = read_main_line('[Event "x"]\n\n1. f3 {hm} e5 $2 2. g4?? Qh4# 0-1\n')
    assert line.moves == ("f2f3", "e7e5", "g2g4", "d8h4")
    assert line.sans == ("f3", "e5", "g4", "Qh4#")
    board = chess.Board()
    fens = [board.fen()]
    for move in line.moves:
        board.push_uci(move)
        fens.append(board.fen())
    assert line.fens == tuple(fens)


def test_variations_are_skipped_however_deep() -> None:
    """Thousands of nested variations are never built: only the main line comes back."""
    depth = 5000
    text = "1. Nf3 Nf6 2. Ng1 " + "(2. Nc3 " * depth + ")" * depth + " Ng8 *"
    assert read_main_line(text).sans == ("Nf3", "Nf6", "Ng1", "Ng8")


def test_the_ply_limit_stops_the_parser() -> None:
    """The visitor stops at the limit while parsing, not after."""
    text = "1. Nf3 Nf6 2. Ng1 Ng8 " * 10 + "*"
    with pytest.raises(PgnError, match="more than 12 plies"):
        read_main_line(text, max_plies=12)
    assert len(read_main_line(text, max_plies=40).moves) == 40
    visitor = MainLineVisitor(3)
    assert visitor.begin_variation() is not None  # SKIP


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1. e4 e5 2. Ke3 *", "illegal san"),
        ('[FEN "8/8/8/8 w - - 0 1"]\n\n1. e4 *', "bad PGN"),
        ("1. e4 -- *", "null move"),
        ("1. e4 $" + "9" * 5000 + " *", "could not read"),
        ("", "no game"),
    ],
)
def test_bad_pgns_get_one_line(text: str, fragment: str) -> None:
    """Each bad PGN is a PgnError with a one-line reason."""
    with pytest.raises(PgnError) as error:
        read_main_line(text)
    assert fragment in str(error.value) and "\n" not in str(error.value)


def test_a_slow_pgn_is_cut_off_and_the_next_one_is_read() -> None:
    """A PGN read past its deadline is stopped by killing its worker (a zero deadline, which
    no read can meet on any machine); the next request gets a fresh worker."""

    async def scenario() -> None:
        """Read a PGN with no time, then another with plenty, with one worker."""
        workers = PgnWorkers(1, timeout_s=0.0)
        try:
            await asyncio.to_thread(workers.warm)
            with pytest.raises(PgnError, match="too long to read"):
                await workers.read("1. e4 (1. d4 " + "{}" * 1000 + ") *")
            workers.timeout_s = HANG_S  # only a hang reaches it
            line = await workers.read("1. e4 e5 *")
            assert line.sans == ("e4", "e5")
        finally:
            workers.close()

    run_async(scenario())
