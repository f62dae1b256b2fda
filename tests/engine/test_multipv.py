"""MultiPV in the engine: the N best root moves, each a full line, best first, limits obeyed."""

from __future__ import annotations

import pytest
from tests.waiting import wait_until

from plies import Board, Engine, Info, Limit, Move
from plies.engine.score import Mate, score_int

# White to move wins the queen with Rxd8+ (the rook on d1 takes on d8); every
# other move keeps material level at best, so line 1 stands clearly above the rest.
WIN_QUEEN = "3q2k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1"
# Mate in two for White (the back rank): 1. Rd8+ Rxd8 2. Rxd8#.
MATE_IN_TWO = "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1"


def _value(info: Info) -> int:
    """A line's score with mates as huge numbers, for ordering checks."""
    assert info.score is not None
    return score_int(info.score.relative)


def _search(engine: Engine, fen: str, lines: int, limit: Limit,
            searchmoves: list[Move] | None = None) -> tuple[list[Info], list[Info], Move | None]:
    """Search with ``lines`` lines; return every reported Info, the final lines, the best move."""
    engine.new_game()
    engine.set_multipv(lines)
    seen: list[Info] = []
    try:
        result = engine.search(Board(fen), limit, on_info=seen.append, searchmoves=searchmoves)
    finally:
        engine.set_multipv(1)
    return seen, result.lines, result.move


def _check_lines(board: Board, lines: list[Info], count: int) -> None:
    """``count`` lines ranked 1..count, distinct legal first moves, scores not increasing."""
    assert [x.multipv for x in lines] == list(range(1, count + 1))
    firsts = [x.pv[0] for x in lines]
    assert len(set(firsts)) == count
    for info in lines:
        scratch = board.copy()
        for move in info.pv:
            assert scratch.is_legal(move), f"{move} illegal in line {info.multipv}"
            scratch.push(move)
    values = [_value(x) for x in lines]
    assert values == sorted(values, reverse=True)


def test_three_lines_each_iteration_in_rank_order(engine: Engine) -> None:
    """Every iteration reports lines 1, 2, 3 in that order; the best line wins the queen."""
    seen, lines, best = _search(engine, WIN_QUEEN, 3, Limit(depth=6))
    _check_lines(Board(WIN_QUEEN), lines, 3)
    depths = sorted({x.depth for x in seen})
    assert depths == list(range(1, 7))
    for depth in depths:
        assert [x.multipv for x in seen if x.depth == depth] == [1, 2, 3]
    assert best == lines[0].pv[0] == Move.from_uci("d1d8")
    assert _value(lines[0]) > _value(lines[1]) + 500


def test_one_line_is_the_plain_search(engine: Engine) -> None:
    """MultiPV 1 reports one line per iteration, as before."""
    seen, lines, _ = _search(engine, WIN_QUEEN, 1, Limit(depth=5))
    assert {x.multipv for x in seen} == {1}
    assert len(lines) == 1


def test_more_lines_than_moves_gives_every_move(engine: Engine) -> None:
    """Asking for 256 lines in a position with 3 legal moves reports 3."""
    fen = "7k/8/8/8/8/8/8/K7 w - - 0 1"
    _, lines, _ = _search(engine, fen, 256, Limit(depth=4))
    _check_lines(Board(fen), lines, len(Board(fen).legal_moves))


def test_searchmoves_bound_the_lines(engine: Engine) -> None:
    """With searchmoves, the lines are only (and all of) the moves given."""
    board = Board()
    moves = [Move.from_uci(u) for u in ("a2a3", "g1f3", "h2h4")]
    _, lines, best = _search(engine, board.fen(), 5, Limit(depth=4), moves)
    _check_lines(board, lines, 3)
    assert {x.pv[0] for x in lines} == set(moves) and best in moves


def test_node_limit_counts_all_lines(engine: Engine) -> None:
    """``nodes`` bounds the whole search, every line included."""
    seen, lines, _ = _search(engine, Board().fen(), 4, Limit(nodes=3000))
    assert lines and max(x.nodes for x in seen) <= 3000


def test_go_mate_with_lines(engine: Engine) -> None:
    """``mate 2`` with two lines stops with the mate as line 1."""
    _, lines, best = _search(engine, MATE_IN_TWO, 2, Limit(mate=2))
    assert lines[0].score is not None and lines[0].score.relative == Mate(2)
    assert best in (Move.from_uci("d2d8"), Move.from_uci("d1d8"))
    _check_lines(Board(MATE_IN_TWO), lines, 2)


def test_lines_with_two_threads(engine: Engine) -> None:
    """Lazy SMP helpers fill the table; the main thread still reports ranked lines."""
    engine.set_threads(2)
    try:
        _, lines, best = _search(engine, WIN_QUEEN, 3, Limit(depth=6))
    finally:
        engine.set_threads(1)
    _check_lines(Board(WIN_QUEEN), lines, 3)
    assert best == Move.from_uci("d1d8")


def test_bad_multipv_is_refused(engine: Engine) -> None:
    """0 or 257 lines are refused and the setting stays."""
    for bad in (0, 257):
        with pytest.raises(ValueError):
            engine.set_multipv(bad)
    assert engine.multipv == 1


def test_stopped_search_keeps_every_line(engine: Engine) -> None:
    """``stop`` in the middle of an iteration still leaves N ranked, distinct, legal lines."""
    engine.new_game()
    engine.set_multipv(3)
    seen: list[Info] = []
    try:
        engine.start(Board(), Limit(infinite=True), on_info=seen.append)
        # Stopped as soon as a fourth depth is reported: inside an iteration on any machine.
        wait_until(lambda: len({x.depth for x in seen}) >= 4, "four depths reported")
        engine.stop()
        result = engine.wait()
    finally:
        engine.set_multipv(1)
    assert result is not None and result.move in Board().legal_moves
    assert [x.multipv for x in result.lines] == [1, 2, 3]
    assert len({x.pv[0] for x in result.lines}) == 3
    # The last report of each rank is the line the result holds.
    last = {x.multipv: x for x in seen}
    assert [last[k].pv for k in (1, 2, 3)] == [x.pv for x in result.lines]
