"""The UCI loop in-process with the real engine: state kept on bad input, options, go limits."""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest
from tests.uci.harness import Harness

from plies.options import OPTIONS
from plies.uci.protocol import Go, parse_command
from plies.uci.search_job import limit_for

#: White mates in three moves (and not sooner): king and rook against king.
MATE_IN_THREE = "k7/8/8/3K4/8/8/8/7R w - - 0 1"
#: The same with the colours swapped: Black to move mates in three.
BLACK_MATES_IN_THREE = "7r/8/8/8/3k4/8/8/K7 b - - 0 1"


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    """One loop for the module (the engine compiles once)."""
    h = Harness()
    h.send("isready")
    h.until("readyok")
    yield h
    h.loop.shutdown()


def test_illegal_move_stops_the_list_there(harness: Harness) -> None:
    """Moves after the first illegal one are ignored; the illegal one is named."""
    harness.send("position startpos moves e2e4 e7e5 e1e3 g1f3")
    out = harness.new_output()
    assert len(out) == 1 and out[0].startswith("info string illegal move 'e1e3'")
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert harness.fen() == board.fen()
    assert [m.uci() for m in harness.loop.board.move_stack] == ["e2e4", "e7e5"]


@pytest.mark.parametrize(
    "fen",
    [
        "garbage",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "K7/8/8/8/8/8/8/7k w - - 0 1 extra",
    ],
)
def test_bad_fen_keeps_the_position(harness: Harness, fen: str) -> None:
    """A FEN the board rejects leaves the previous position in place."""
    harness.send("position startpos moves d2d4")
    before = harness.fen()
    harness.new_output()
    harness.send(f"position fen {fen}")
    out = harness.new_output()
    assert len(out) == 1 and out[0].startswith("info string position unchanged")
    assert harness.fen() == before


def test_short_fen_with_moves(harness: Harness) -> None:
    """A four-field FEN is accepted and moves apply to it."""
    harness.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - moves e2e4")
    assert harness.fen().startswith("4k3/8/8/8/4P3/8/8/4K3 b - -")


def test_bad_option_values_change_nothing(harness: Harness) -> None:
    """Out-of-range, non-numeric and unknown options are refused, one line each."""
    for line in (
        "setoption name Hash value -5",
        "setoption name Hash value 99999999",
        "setoption name Hash value big",
        "setoption name Ponder value maybe",
        "setoption name Move Overhead value -1",
        "setoption name Threads value 0",
        "setoption name Contempt value 4",
    ):
        harness.send(line)
        out = harness.new_output()
        assert len(out) == 1 and out[0].startswith("info string"), (line, out)
    assert harness.loop.values["Hash"] == 64


def test_good_option_values_apply(harness: Harness) -> None:
    """Names match case-insensitively; values reach the engine."""
    harness.send("setoption name hash value 8", "setoption name MOVE OVERHEAD value 70")
    harness.send("setoption name Ponder value true", "setoption name Clear Hash")
    assert harness.new_output() == []
    assert harness.loop.values["Hash"] == 8
    assert harness.loop.values["Move Overhead"] == 70
    engine = harness.loop.engine()
    assert engine.hash_mb == 8
    assert engine.move_overhead_ms == 70
    harness.send("setoption name Hash value 64", "setoption name Move Overhead value 10")


def test_declared_defaults_match_the_engine(harness: Harness) -> None:
    """The defaults announced to GUIs are the values the engine really uses."""
    from plies.engine import Engine

    engine = harness.loop.engine()
    fresh = Engine(hash_mb=1)
    declared = {o.name: o for o in OPTIONS}
    assert declared["Hash"].default == engine.hash_mb
    assert declared["Move Overhead"].default == engine.move_overhead_ms == fresh.move_overhead_ms
    assert declared["Threads"].default == engine.threads == fresh.threads
    assert declared["Slow Mover"].default == engine.slow_mover == fresh.slow_mover
    assert declared["MultiPV"].default == fresh.multipv
    assert declared["UCI_LimitStrength"].default == fresh.limit_strength
    assert declared["UCI_Elo"].default == fresh.elo
    # The limits are the engine's own: one past them is refused, the limit itself taken.
    for name in ("Hash", "Threads", "MultiPV", "UCI_Elo", "Move Overhead", "Slow Mover"):
        option = declared[name]
        assert option.maximum is not None and option.minimum is not None
        with pytest.raises(ValueError):
            fresh.set_option(name, option.maximum + 1)
        with pytest.raises(ValueError):
            fresh.set_option(name, option.minimum - 1)
    fresh.set_option("UCI_Elo", declared["UCI_Elo"].maximum)
    assert fresh.elo == declared["UCI_Elo"].maximum


def test_slow_mover_option(harness: Harness) -> None:
    """``Slow Mover`` reaches the engine; a value out of range changes nothing."""
    harness.send("setoption name Slow Mover value 150", "isready")
    harness.until("readyok")
    assert harness.loop.engine().slow_mover == 150
    harness.send("setoption name Slow Mover value 5000", "isready")
    assert any("option unchanged" in line for line in harness.until("readyok"))
    assert harness.loop.engine().slow_mover == 150
    harness.send("setoption name Slow Mover value 100")


def test_threads_option(harness: Harness) -> None:
    """``Threads`` reaches the engine, which still answers with a legal move."""
    harness.send("setoption name Threads value 2", "position startpos", "go depth 6")
    best = chess.Move.from_uci(harness.until("bestmove")[-1].split()[1])
    assert best in chess.Board().legal_moves
    assert harness.loop.engine().threads == 2
    harness.send("setoption name Threads value 1")
    assert harness.loop.engine().threads == 1


def test_search_and_bestmove(harness: Harness) -> None:
    """``go depth`` prints infos, then a legal bestmove with a legal ponder move."""
    harness.send("ucinewgame", "position startpos moves e2e4", "go depth 5")
    got = harness.until("bestmove")
    infos = [line for line in got if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in infos] == [1, 2, 3, 4, 5]
    parts = got[-1].split()
    board = chess.Board()
    board.push_uci("e2e4")
    best = chess.Move.from_uci(parts[1])
    assert best in board.legal_moves
    if len(parts) == 4:
        assert parts[2] == "ponder"
        board.push(best)
        assert chess.Move.from_uci(parts[3]) in board.legal_moves


def test_nodes_limit(harness: Harness) -> None:
    """``go nodes`` ends on its own."""
    harness.send("position startpos", "go nodes 20000")
    assert harness.until("bestmove")[-1].startswith("bestmove ")


def test_position_change_during_search_does_not_disturb_it(harness: Harness) -> None:
    """The search works on a copy: a new ``position`` mid-search changes only the next one."""
    harness.send("position startpos", "go infinite")
    harness.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "stop")
    best = harness.until("bestmove")[-1].split()[1]
    assert chess.Move.from_uci(best) in chess.Board().legal_moves
    harness.send("go depth 3")
    assert harness.until("bestmove")[-1].startswith("bestmove d1d8")


def test_limit_conversion() -> None:
    """``go`` parameters become an engine Limit; clocks are clamped; no limit means infinite."""
    cmd = parse_command("go wtime -20 btime 5000 winc -5 binc 100 movestogo 10")
    assert isinstance(cmd, Go)
    limit = limit_for(cmd)
    assert (limit.wtime, limit.btime, limit.winc, limit.binc) == (1, 5000, 0, 100)
    assert limit.movestogo == 10 and not limit.infinite
    bare = parse_command("go")
    assert isinstance(bare, Go) and limit_for(bare).infinite
    ponder = parse_command("go ponder")
    assert isinstance(ponder, Go) and limit_for(ponder).infinite
    depth = parse_command("go depth 7 mate 3 nodes 100 movetime 50")
    assert isinstance(depth, Go)
    got = limit_for(depth)
    assert (got.depth, got.mate, got.nodes, got.movetime, got.infinite) == (7, 3, 100, 50, False)


def test_quit_returns_false(harness: Harness) -> None:
    """``quit`` is the only command that ends the loop."""
    assert harness.loop.handle("quit") is False


def test_a_longer_position_replays_only_the_new_moves(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GUIs resend the whole game each move: only the moves not seen before are played."""
    from plies.board import Board

    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]
    game = chess.Board()
    for text in moves:
        game.push_uci(text)
    played: list[str] = []
    parse_uci = Board.parse_uci

    def counting(board: Board, text: str) -> chess.Move:
        """Count, then read the move."""
        played.append(text)
        return parse_uci(board, text)

    monkeypatch.setattr(Board, "parse_uci", counting)
    harness.send("position startpos moves " + " ".join(moves[:-1]))
    played.clear()
    harness.send("position startpos moves " + " ".join(moves))
    assert played == moves[-1:]
    assert harness.fen() == game.fen()
    harness.send("position startpos moves d2d4")  # another game: rebuilt from the start
    assert played[-1] == "d2d4" and harness.fen().startswith("rnbqkbnr/pppppppp/8/8/3P4/")
    harness.send("position startpos moves d2d4 zzzz", "position startpos moves d2d4 d7d5")
    assert harness.fen().startswith("rnbqkbnr/ppp1pppp/8/3p4/3P4/")
    harness.send(f"position fen {game.fen()}", "position fen 8/8/8/8/8/8/8/8 w - - 0 1")
    assert harness.fen() == game.fen()


@pytest.mark.parametrize("fen", [MATE_IN_THREE, BLACK_MATES_IN_THREE], ids=["white", "black"])
def test_a_mate_in_three_is_reported_as_mate_3(harness: Harness, fen: str) -> None:
    """UCI scores from the mover's side in moves: a mate in three is ``score mate 3``."""
    harness.send("ucinewgame", f"position fen {fen}", "go depth 12")
    out = harness.until("bestmove")
    scores = [line.split(" score ")[1].split()[:2] for line in out if " score " in line]
    assert scores and scores[-1] == ["mate", "3"], out[-3:]
