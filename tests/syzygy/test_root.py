"""Root move filtering by Syzygy DTZ, checked against python-chess's own probes."""

from __future__ import annotations

import os
import random
from pathlib import Path

import chess
import chess.syzygy
import pytest
from tests.syzygy.data import DATA, copy_tables
from tests.syzygy.positions import random_position

from plies import Board, Engine, Info, Limit
from plies.board.board import core_to_move
from plies.core import MAX_PLY
from plies.syzygy.root import TB_WIN, Tablebases


def _cp(info: Info) -> int:
    """The report's centipawns from the mover's side (a tablebase win is not a mate)."""
    assert info.score is not None and not info.score.is_mate()
    return info.score.relative.score() or 0


@pytest.fixture(scope="module")
def tables() -> Tablebases:
    """The project's test tables, loaded as the engine loads them."""
    tbs = Tablebases()
    tbs.set_path(str(DATA))
    assert tbs.problems == []
    return tbs


@pytest.fixture(scope="module")
def oracle() -> chess.syzygy.Tablebase:
    """python-chess's prober over the same tables."""
    return chess.syzygy.open_tablebase(str(DATA))


@pytest.fixture(scope="module")
def engine() -> Engine:
    """One engine with the test tables for the module."""
    e = Engine(hash_mb=16)
    e.set_option("SyzygyPath", str(DATA))
    return e


def root_dtz(board: chess.Board, ref: chess.syzygy.Tablebase) -> dict[str, int]:
    """Each legal move's DTZ counted from the root, by python-chess (mates 1)."""
    values = {}
    for move in list(board.legal_moves):
        child = board.copy(stack=False)
        child.push(move)
        if child.is_checkmate():
            value = 1
        elif child.halfmove_clock == 0:
            value = {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[-ref.probe_wdl(child)]
        else:
            dtz = -ref.probe_dtz(child)
            value = dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0
        values[move.uci()] = value
    return values


def expected_kept(values: dict[str, int]) -> set[str]:
    """The moves that keep the best outcome soonest: the shortest win, every draw, or the
    longest loss (whatever the clock: it only decides how the outcome is shown)."""
    wins = [v for v in values.values() if v > 0]
    if wins:
        return {u for u, v in values.items() if v == min(wins)}
    if 0 in values.values():
        return {u for u, v in values.items() if v == 0}
    return {u for u, v in values.items() if v == min(values.values())}


def kept_moves(tbs: Tablebases, board: Board) -> tuple[set[str], int]:
    """The root moves ``tbs`` keeps for ``board`` (UCI) and their score."""
    ranking = tbs.rank_root(board, [int(m) for m in board.core_legal()])
    assert ranking is not None, board.fen()
    return {core_to_move(m).uci() for m in ranking.moves}, ranking.score


@pytest.mark.parametrize("name", ["KQvK", "KRvK", "KRvKB", "KPvK", "KPvKP"])
def test_kept_moves_match_python_chess(
    tables: Tablebases, oracle: chess.syzygy.Tablebase, name: str
) -> None:
    """40 random positions per table, at several halfmove clocks: the kept moves are
    exactly those python-chess's DTZ says keep the best outcome."""
    rng = random.Random(sum(map(ord, name)))
    tried = 0
    while tried < 40:
        board = random_position(name, rng, swap=tried % 2 == 1)
        if board.is_game_over():
            continue
        board.halfmove_clock = rng.choice([0, 0, 30, 70, 90]) if not board.ep_square else 0
        values = root_dtz(board, oracle)
        kept, score = kept_moves(tables, Board(board.fen()))
        assert kept == expected_kept(values), (board.fen(), values)
        best = next(values[u] for u in kept)
        if best > 0 and best + board.halfmove_clock <= 99:
            assert score == TB_WIN
        elif best == 0:
            assert score == 0
        tried += 1


def test_cursed_win_counts_as_a_draw_with_the_fifty_move_rule(tables: Tablebases) -> None:
    """A KRvK win too far for the clock keeps only the fastest moves and shows a near-draw
    score; without the rule it is shown as a win."""
    fen = "8/8/8/8/8/2k5/8/K6R w - - 96 80"
    board = Board(fen)
    kept, score = kept_moves(tables, board)
    values = root_dtz(chess.Board(fen), chess.syzygy.open_tablebase(str(DATA)))
    shortest = min(v for v in values.values() if v > 0)
    assert shortest + 96 > 99
    assert kept == {u for u, v in values.items() if v == shortest}
    assert 0 < score < 100
    tables.set_option("Syzygy50MoveRule", "false")
    try:
        assert kept_moves(tables, board)[1] == TB_WIN
    finally:
        tables.set_option("Syzygy50MoveRule", "true")


def test_the_clock_changes_the_score_not_the_moves(tables: Tablebases) -> None:
    """A KQvK win shows as a win early, as nearly a draw when the clock has run out."""
    kept = set()
    scores = []
    for clock in (0, 98):
        ranked = kept_moves(tables, Board(f"8/8/8/4k3/8/8/8/KQ6 w - - {clock} 80"))
        kept.add(frozenset(ranked[0]))
        scores.append(ranked[1])
    assert len(kept) == 1 and scores[0] == TB_WIN and 0 < scores[1] < 100


def test_positions_outside_the_tables_are_left_alone(tables: Tablebases) -> None:
    """Castling rights, too many men or a probe limit below the men: no ranking."""
    for fen in ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "4k3/8/8/8/8/8/PP6/RQ2K3 w - - 0 1"):
        board = Board(fen)
        assert tables.rank_root(board, [int(m) for m in board.core_legal()]) is None
    board = Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    tables.set_option("SyzygyProbeLimit", "2")
    try:
        assert tables.rank_root(board, [int(m) for m in board.core_legal()]) is None
    finally:
        tables.set_option("SyzygyProbeLimit", "7")
    assert tables.rank_root(board, [int(m) for m in board.core_legal()]) is not None


def test_wdl_ranks_when_the_dtz_table_is_missing(
    tmp_path: Path, oracle: chess.syzygy.Tablebase
) -> None:
    """KQvKR without its DTZ table: the winning moves are those python-chess's WDL says win."""
    names = ["KQvKR.rtbw", "KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"]
    tables = Tablebases()
    tables.set_path(str(copy_tables(names, tmp_path)))
    fen = "8/8/3k4/8/8/2r5/8/KQ6 w - - 0 1"
    board = chess.Board(fen)
    winning = set()
    for move in board.legal_moves:
        board.push(move)
        if oracle.probe_wdl(board) == -2:
            winning.add(move.uci())
        board.pop()
    assert winning
    kept, score = kept_moves(tables, Board(fen))
    assert kept == winning and score == TB_WIN


def test_bad_paths_are_reported_and_tables_can_be_dropped(tmp_path: Path) -> None:
    """A missing directory and a broken file are one problem line each; the rest loads."""
    broken = tmp_path / "KQvK.rtbw"
    broken.write_bytes((DATA / "KQvK.rtbw").read_bytes()[:40])
    (tmp_path / "KRvK.rtbw").write_bytes((DATA / "KRvK.rtbw").read_bytes())
    tbs = Tablebases()
    tbs.set_option("SyzygyPath", f"{tmp_path / 'nowhere'}{os.pathsep}{tmp_path}")
    lines = tbs.report()
    assert lines[0].startswith("found 1 WDL and 0 DTZ tablebases")
    assert len(lines) == 3 and all("tablebase problem" in line for line in lines[1:])
    assert tbs.loaded and tbs.cardinality == 3
    tbs.set_option("SyzygyPath", "<empty>")
    assert not tbs.loaded and tbs.report() == []
    with pytest.raises(ValueError):
        tbs.set_option("SyzygyProbeDepth", "0")
    with pytest.raises(ValueError):
        tbs.set_option("SyzygyProbeLimit", "8")


def test_search_plays_a_kept_move_and_counts_hits(engine: Engine) -> None:
    """A search of a tablebase position plays a DTZ-kept move and reports tbhits."""
    board = Board("8/8/8/8/8/2k5/8/K6R w - - 96 80")
    kept, _ = kept_moves(engine.tablebases, board)
    result = engine.search(board, Limit(depth=6))
    assert result.move is not None and result.move.uci() in kept
    assert result.tbhits is not None and result.tbhits >= len(board.legal_moves)


def test_search_probes_below_the_root(engine: Engine) -> None:
    """Five men (not in the tables): the queen takes the knight into a won KQvKR; the
    search probes there, counts the hits and scores the tablebase win."""
    board = Board("k7/1r6/8/8/3n4/8/8/3QK3 w - - 0 1")
    engine.new_game()
    result = engine.search(board, Limit(depth=8))
    assert result.move is not None and result.move.uci() == "d1d4"
    assert result.tbhits is not None and result.tbhits > 0
    assert TB_WIN - MAX_PLY <= _cp(result) <= TB_WIN


def test_helper_threads_probe_too() -> None:
    """With two threads each probes with its own scratch: the win is found, hits add up."""
    e = Engine(hash_mb=16, threads=2)
    e.set_option("SyzygyPath", str(DATA))
    result = e.search(Board("k7/1r6/8/8/3n4/8/8/3QK3 w - - 0 1"), Limit(depth=8))
    assert result.move is not None and result.move.uci() == "d1d4"
    assert result.tbhits is not None and result.tbhits > 0
    assert _cp(result) >= TB_WIN - MAX_PLY


@pytest.mark.parametrize(("option", "value"), [("SyzygyProbeLimit", "0"),
                                               ("SyzygyProbeDepth", "100")])  # fmt: skip
def test_limits_keep_the_search_from_probing(engine: Engine, option: str, value: str) -> None:
    """No men allowed, or too great a depth asked: no probe, no tablebase score."""
    default = {"SyzygyProbeLimit": "7", "SyzygyProbeDepth": "1"}[option]
    engine.set_option(option, value)
    try:
        engine.new_game()
        info = engine.search(Board("k7/1r6/8/8/3n4/8/8/3QK3 w - - 0 1"), Limit(depth=6))
    finally:
        engine.set_option(option, default)
    assert info.tbhits == 0
    assert _cp(info) < TB_WIN - MAX_PLY


def play_out(
    engine: Engine, oracle: chess.syzygy.Tablebase, fen: str, engine_side: chess.Color,
    max_plies: int, limit: Limit,
) -> chess.Board:
    """The engine against python-chess's best defence or attack (the DTZ-best move) from
    ``fen``, until the game ends or ``max_plies``; the final python-chess board."""
    board, mine = chess.Board(fen), Board(fen)
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        if board.turn == engine_side:
            move = engine.search(mine, limit).move
            assert move is not None
            reply = chess.Move.from_uci(move.uci())
        else:
            reply = _dtz_best(board, oracle)
        board.push(reply)
        mine.push_uci(reply.uci())
    return board


def _dtz_best(board: chess.Board, oracle: chess.syzygy.Tablebase) -> chess.Move:
    """python-chess's best move by DTZ: the quickest win, else a draw, else the longest loss."""
    values = root_dtz(board, oracle)

    def rank(uci: str) -> tuple[int, int]:
        """Outcome first (win > draw > loss), then speed of the win or length of the loss."""
        v = values[uci]
        return (1, -v) if v > 0 else (0, 0) if v == 0 else (-1, -v)

    return chess.Move.from_uci(max(values, key=rank))


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",  # KQvK, among the longest (mate in 10)
        "8/8/8/8/4k3/8/8/R6K w - - 0 1",  # KRvK, a long win (mate in 16)
    ],
)
def test_engine_mates_within_the_fifty_move_rule(
    engine: Engine, oracle: chess.syzygy.Tablebase, fen: str
) -> None:
    """Against the longest defence the engine mates by the shortest way the tables know
    (plies = the start's DTZ), far inside the fifty-move rule."""
    board = play_out(engine, oracle, fen, chess.WHITE, 200, Limit(depth=5))
    assert board.is_checkmate(), board.fen()
    assert len(board.move_stack) == oracle.probe_dtz(chess.Board(fen)) <= 100


def test_engine_holds_the_drawn_rook_against_bishop(
    engine: Engine, oracle: chess.syzygy.Tablebase
) -> None:
    """KRvKB: the engine with the bishop never steps into a tablebase loss against the
    strongest attack, for 60 plies."""
    fen = "8/8/3k4/8/4b3/8/2K5/6R1 w - - 0 1"
    assert oracle.probe_wdl(chess.Board(fen)) == 0
    board = play_out(engine, oracle, fen, chess.BLACK, 60, Limit(depth=4))
    assert not board.is_checkmate()
    replay = chess.Board(fen)
    for move in board.move_stack:
        replay.push(move)
        if replay.turn == chess.WHITE and not replay.is_game_over():
            assert oracle.probe_wdl(replay) <= 0, replay.fen()  # after each engine move


@pytest.mark.slow
def test_engine_mates_with_bishop_and_knight(
    engine: Engine, oracle: chess.syzygy.Tablebase
) -> None:
    """KBNvK, a long win, mated within its DTZ against the longest defence."""
    fen = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1"
    board = play_out(engine, oracle, fen, chess.WHITE, 200, Limit(depth=5))
    assert board.is_checkmate(), board.fen()
    # DTZ files may store a value rounded up by one ply (python-chess documents it).
    assert len(board.move_stack) <= oracle.probe_dtz(chess.Board(fen)) + 1 <= 100


@pytest.mark.slow
@pytest.mark.parametrize("name", ["KQvK", "KRvK", "KRvKB", "KPvK", "KQvKR", "KPvKP", "KBNvK"])
def test_engine_keeps_the_outcome_of_random_positions(
    engine: Engine, oracle: chess.syzygy.Tablebase, name: str
) -> None:
    """30 random positions per ending (engine to move), played against python-chess's
    DTZ-best replies: every win is won within the fifty-move rule, no draw is lost."""
    rng = random.Random(len(name) * 31)
    played = 0
    while played < 30:
        start = random_position(name, rng, swap=False)
        if start.is_game_over():
            continue
        wdl = oracle.probe_wdl(start)
        board = play_out(engine, oracle, start.fen(), start.turn, 400, Limit(depth=4))
        outcome = board.outcome(claim_draw=True)
        if wdl == 2:
            assert outcome is not None and outcome.winner == start.turn, start.fen()
        elif wdl >= -1:
            assert outcome is None or outcome.winner != (not start.turn), start.fen()
        played += 1
