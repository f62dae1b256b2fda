"""The Engine layer: mates found and scored, limits obeyed, stop stops, results legal."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.waiting import HANG_S

from plies import Board, Engine, Info, Limit, Move
from plies.engine.score import Cp, Mate
from plies.engine.timeman import allocate

DATA = Path(__file__).resolve().parents[1] / "data" / "mates"


def _fens(name: str) -> list[str]:
    """Non-blank lines of a mate file."""
    return [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()]


def _is_mate_after(board: Board, moves: list[Move]) -> bool:
    """Whether playing ``moves`` from ``board`` ends in checkmate."""
    scratch = board.copy()
    for move in moves:
        scratch.push(move)
    return scratch.is_checkmate()


@pytest.mark.parametrize("fen", _fens("mate1.fen"))
def test_mate_in_one_found_with_mate_score(engine: Engine, fen: str) -> None:
    """Every mate in one is played and scored as mate 1."""
    engine.new_game()
    board = Board(fen)
    result = engine.search(board, Limit(depth=4))
    assert result.score is not None and result.score.relative == Mate(1)
    assert result.move is not None
    assert _is_mate_after(board, [result.move])


@pytest.mark.parametrize("fen", _fens("mate2.fen")[::12])
def test_mate_in_two_sample(engine: Engine, fen: str) -> None:
    """A sample of the mate-in-two file: mate 2 found (quiet first moves need depth)."""
    engine.new_game()
    result = engine.search(Board(fen), Limit(mate=2, nodes=3_000_000))
    assert result.score is not None and result.score.relative == Mate(2)


@pytest.mark.slow
@pytest.mark.parametrize("fen", _fens("mate2.fen"))
def test_mate_in_two_all(engine: Engine, fen: str) -> None:
    """All 212 mate-in-two positions."""
    engine.new_game()
    result = engine.search(Board(fen), Limit(mate=2, nodes=3_000_000))
    assert result.score is not None and result.score.relative == Mate(2)


def test_getting_mated_scores_negative(engine: Engine) -> None:
    """The side that is mated next move sees mate -1."""
    board = Board("7k/8/5K2/6Q1/8/8/8/8 b - - 0 1")
    result = engine.search(board, Limit(depth=5))
    assert result.score is not None and result.score.relative == Mate(-1)


@pytest.mark.parametrize(
    "fen",
    [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",  # checkmate
    ],
)
def test_no_legal_move_gives_no_best_move(engine: Engine, fen: str) -> None:
    """Finished games answer None rather than inventing a move."""
    result = engine.search(Board(fen), Limit(depth=3))
    assert result.move is None


def test_searchmoves_restricts_the_root(engine: Engine) -> None:
    """Only the listed moves are considered."""
    board = Board()
    only = [Move.from_uci("a2a3"), Move.from_uci("h2h3")]
    result = engine.search(board, Limit(depth=4), searchmoves=only)
    assert result.move in only


def test_infos_one_per_iteration(engine: Engine) -> None:
    """Depths count up by one and each PV is legal from the root."""
    infos: list[Info] = []
    board = Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    result = engine.search(board, Limit(depth=6), on_info=infos.append)
    assert [i.depth for i in infos] == list(range(1, 7))
    for info in infos:
        scratch = board.copy()
        for move in info.pv:
            scratch.push(move)
        assert info.nodes > 0 and info.seldepth >= info.depth
    assert result.move == infos[-1].pv[0]


def test_node_limit(engine: Engine) -> None:
    """A node limit ends the search near that count."""
    infos: list[Info] = []
    engine.search(Board(), Limit(nodes=20_000), on_info=infos.append)
    assert infos and infos[-1].nodes <= 20_000 + 2048


def test_deterministic_for_fixed_depth() -> None:
    """Two fresh engines searching the same depth visit the same nodes."""
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    runs = []
    for _ in range(2):
        infos: list[Info] = []
        result = Engine(hash_mb=8).search(board, Limit(depth=6), on_info=infos.append)
        runs.append((infos[-1].nodes, result.move))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("moves", [(), ("e2e4",)], ids=["white", "black"])
def test_the_budget_is_the_clock_of_the_side_to_move(
    engine: Engine, moves: tuple[str, ...]
) -> None:
    """With White's clock at a minute and Black's at a second, the search budgets from the
    clock of the side to move (``board.turn`` is True for White)."""
    board = Board()
    for text in moves:
        board.push_uci(text)
    limit = Limit(depth=1, wtime=60_000, btime=1_000)
    engine.search(board, limit)
    wanted = allocate(limit, board.turn, engine.move_overhead_ms, engine.slow_mover)
    assert engine._clock.soft_ms == wanted.soft_ms
    assert wanted != allocate(limit, not board.turn, engine.move_overhead_ms, engine.slow_mover)


def test_movetime_is_respected(engine: Engine) -> None:
    """A 200 ms search of the start position (which no depth ends) stops by its own clock."""
    done = threading.Event()
    engine.start(Board(), Limit(movetime=200), on_done=lambda _: done.set())
    # The bound catches an ignored movetime (the search would never end), not a slow stop.
    assert done.wait(HANG_S), "the search ignored its movetime"
    result = engine.wait()
    assert result is not None and result.move is not None


def test_stop_ends_infinite_search(engine: Engine) -> None:
    """stop() from another thread ends an infinite search with a legal move."""
    board = Board()
    done = threading.Event()
    searching = threading.Event()
    results: list[Info] = []

    def on_done(result: Info) -> None:
        """Record the result."""
        results.append(result)
        done.set()

    engine.start(board, Limit(infinite=True), on_info=lambda _: searching.set(), on_done=on_done)
    assert searching.wait(HANG_S), "the search never reported"
    assert not done.is_set()
    engine.stop()
    assert done.wait(HANG_S), "stop was ignored"
    assert results[0].move in board.legal_moves


def test_ponder_waits_for_ponderhit(engine: Engine) -> None:
    """A ponder search runs past its move time until ponderhit, then finishes on its clock."""
    board = Board()
    done = threading.Event()
    past_movetime = threading.Event()

    def on_info(info: Info) -> None:
        """Note when the search's own clock is far past its 100 ms."""
        if info.time_ms >= 1000:
            past_movetime.set()

    def on_done(_: Info) -> None:
        """Note the end (it also ends the wait below, so a search that ends early fails)."""
        done.set()
        past_movetime.set()

    engine.start(board, Limit(movetime=100), on_info=on_info, on_done=on_done, ponder=True)
    assert past_movetime.wait(HANG_S)
    assert not done.is_set(), "the ponder search ended on its own clock"
    engine.ponderhit()
    assert done.wait(HANG_S)


def _shuffled_board() -> Board:
    """Two queens against a knight, after both sides shuffled back to the start once."""
    board = Board("6nk/8/8/8/8/8/Q7/1Q2K3 b - - 0 1")
    for uci in ("g8f6", "e1d2", "f6g8", "d2e1"):
        board.push_uci(uci)
    return board


def test_losing_side_takes_the_repetition(engine: Engine) -> None:
    """Repeating a position from the game history scores 0, so the lost side repeats."""
    engine.new_game()
    result = engine.search(_shuffled_board(), Limit(depth=6))
    assert result.move == Move.from_uci("g8f6")
    assert result.score is not None and result.score.relative == Cp(0)


def test_winning_side_avoids_the_repetition(engine: Engine) -> None:
    """The winning side does not walk into the repetition the history offers."""
    engine.new_game()
    board = _shuffled_board()
    board.push_uci("g8f6")
    result = engine.search(board, Limit(depth=6))
    assert result.move != Move.from_uci("e1d2")
    assert result.score is not None and result.score.relative > Cp(500)


def test_bad_hash_size_rejected() -> None:
    """Hash sizes outside the supported range raise ValueError."""
    with pytest.raises(ValueError):
        Engine(hash_mb=0)


def test_threads_share_the_table_and_stop_together() -> None:
    """With helper threads the search still returns a legal move and stops by its clock."""
    engine = Engine(hash_mb=8, threads=2)
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    infos: list[Info] = []
    result = engine.search(board, Limit(movetime=300), on_info=infos.append)
    assert result.move in board.legal_moves
    assert infos and infos[-1].nodes > 0
    with pytest.raises(ValueError):
        engine.set_threads(0)
