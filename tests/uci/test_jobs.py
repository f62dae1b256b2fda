"""Long commands never wedge the loop: ``perft`` and ``bench`` run where ``stop`` ends them.

Each test starts a command that would run for hours and checks that
``isready`` is answered and ``stop``/``quit`` act while it runs (the timeouts
only detect a hang); plus the bounds on numbers and ``go nodes`` over threads.
"""

from __future__ import annotations

import threading

import chess
import pytest
from tests.uci.conftest import REPLY_TIMEOUT_S, RawUci

from plies.uci.jobs import Canceller
from plies.uci.perft import stoppable_divide


def test_long_perft_answers_isready_and_stops(shared_uci: RawUci) -> None:
    """``go perft 9`` (hours): ``isready`` and ``d`` answered, ``stop`` prints a partial count."""
    shared_uci.send("position startpos", "go perft 9", "isready")
    got = shared_uci.expect("readyok")
    assert not any(line.startswith("Nodes searched") for line in got)
    shared_uci.send("d")
    shared_uci.expect("Fen:")
    shared_uci.send("stop")
    got = shared_uci.expect("Nodes searched")
    assert any(line.startswith("perft stopped after") for line in got)


def test_perft_alias_is_stoppable_too(shared_uci: RawUci) -> None:
    """``perft 9`` (the shorthand) behaves the same; a new ``go`` ends it and then searches."""
    shared_uci.send("position startpos", "perft 9", "go depth 1")
    got = shared_uci.expect("bestmove")
    assert any(line.startswith("perft stopped after") for line in got)


def test_long_bench_answers_isready_and_stops(shared_uci: RawUci) -> None:
    """``bench 60``: ``isready`` answered during it; ``stop`` ends it with the totals so far."""
    shared_uci.send("bench 60", "isready")
    shared_uci.expect("readyok")
    shared_uci.send("stop")
    got = shared_uci.expect("Nodes/second")
    assert any("bench stopped after" in line for line in got)


def test_quit_during_a_perft_exits_at_once(raw_uci: RawUci) -> None:
    """``quit`` while ``go perft 9`` runs: the process ends with status 0."""
    raw_uci.send("go perft 9", "isready")
    raw_uci.expect("readyok")  # the perft was read and runs (isready is answered during it)
    raw_uci.send("quit")
    assert raw_uci.proc.wait(timeout=REPLY_TIMEOUT_S) == 0


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("go depth 128", "go depth must be 1..127"),
        ("go depth 99999999999999999999999999999999", "out of range"),
        ("go wtime 2147483648", "go wtime must be"),
        ("go mate 64", "go mate must be 1..63"),
        ("perft 13", "perft depth must be 1..12"),
        ("bench 65", "bench depth must be 1..64"),
        ("setoption name Threads value 65", "between 1 and 64"),
        ("setoption name Hash value 4097", "between 1 and 4096"),
    ],
)
def test_numbers_out_of_range_are_refused_in_one_line(
    shared_uci: RawUci, line: str, words: str
) -> None:
    """An out-of-range number: one ``info string`` naming the range, nothing started."""
    shared_uci.send(line, "isready")
    got = shared_uci.expect("readyok")
    assert any(x.startswith("info string") and words in x for x in got), got
    assert not any(x.startswith(("bestmove", "Nodes")) for x in got)


def test_go_nodes_bounds_two_threads(shared_uci: RawUci) -> None:
    """``Threads 2`` and ``go nodes 20000``: no info line reports more than 20000 nodes."""
    shared_uci.send("setoption name Threads value 2", "position startpos", "go nodes 20000")
    got = shared_uci.expect("bestmove")
    shared_uci.send("setoption name Threads value 1")
    counts = [int(x.split(" nodes ")[1].split()[0]) for x in got if " nodes " in x]
    assert counts and max(counts) <= 20000


def test_stoppable_divide_matches_python_chess() -> None:
    """The chunked perft counts what python-chess counts, root move by root move."""
    from plies.board import Board

    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    report = stoppable_divide(Board(fen), 2, Canceller())
    board = chess.Board(fen)
    expected = {}
    for move in board.legal_moves:
        board.push(move)
        expected[move.uci()] = board.legal_moves.count()
        board.pop()
    assert report.complete and report.counts == expected


def test_a_cancelled_divide_says_so() -> None:
    """Cancelled before it starts: nothing counted, marked incomplete, and the lines say it."""
    from plies.board import Board

    canceller = Canceller()
    canceller.cancel()
    report = stoppable_divide(Board(), 5, canceller)
    assert not report.complete and report.counts == {}
    assert "perft stopped after 0 of 20 root moves" in report.lines()


def test_cancel_reaches_a_watched_engine() -> None:
    """``cancel`` from another thread stops the engine a job watches."""
    from plies.board import Board
    from plies.engine import Engine, Limit

    engine = Engine(hash_mb=1)
    canceller = Canceller()
    canceller.watch(engine)
    engine.start(Board(), Limit(infinite=True))
    threading.Timer(0.2, canceller.cancel).start()
    result = engine.wait()
    assert canceller.cancelled and result is not None and result.move is not None
