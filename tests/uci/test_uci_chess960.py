"""Chess960 over UCI: ``UCI_Chess960``, 960 FENs and king-takes-rook castling, in and out."""

from __future__ import annotations

import chess
import chess.engine
from tests.uci.conftest import RawUci

# White mates only by castling queen-side: king b1 to c1, rook a1 to d1 (Chess960: b1a1).
CASTLING_MATE = "2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - 0 1"
# Chess960 start position 0 (bishops on a and b files, king on g1, rooks f1 and h1).
START_0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
# Kings on b1 and b8 between their rooks: castling either way crosses the board.
WINGS = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"
# Kings and rooks where standard chess has them (e1g1 means castling here too).
CORNERS = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"


def test_option_declared(raw_uci: RawUci) -> None:
    """``uci`` declares UCI_Chess960 as a check, off by default."""
    raw_uci.send("uci")
    lines = raw_uci.expect("uciok")
    assert "option name UCI_Chess960 type check default false" in lines


def test_castling_mate_found_by_python_chess_client(uci_engine: chess.engine.SimpleEngine) -> None:
    """python-chess turns UCI_Chess960 on by itself; the only mate (castling) is played."""
    board = chess.Board(CASTLING_MATE, chess960=True)
    result = uci_engine.play(board, chess.engine.Limit(depth=4))
    assert result.move == chess.Move.from_uci("b1a1")
    assert board.san(result.move) == "O-O-O#"
    info = uci_engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["pv"][0] == chess.Move.from_uci("b1a1")
    assert info["score"].white().mate() == 1


def test_game_from_a_960_start(uci_engine: chess.engine.SimpleEngine) -> None:
    """A short game from a Chess960 start: every move and PV legal on python-chess's 960 board."""
    board = chess.Board(START_0, chess960=True)
    for _ in range(16):
        if board.is_game_over():
            break
        info = uci_engine.analyse(board, chess.engine.Limit(depth=3))
        line = board.copy()
        for move in info.get("pv", []):
            assert move in line.legal_moves, f"{move} in {line.fen()}"
            line.push(move)
        result = uci_engine.play(board, chess.engine.Limit(depth=3))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_raw_position_and_bestmove_in_960_notation(raw_uci: RawUci) -> None:
    """``position`` takes king-takes-rook castling (and e1g1-style on e1); ``bestmove`` writes
    castling king-takes-rook; the option off, the same FEN reads as standard chess."""
    raw_uci.send("setoption name UCI_Chess960 value true", "isready")
    raw_uci.expect("readyok")
    raw_uci.send(f"position fen {CASTLING_MATE}", "go depth 3")
    assert raw_uci.expect("bestmove")[-1].split()[1] == "b1a1"
    # Castling both ways, written king takes rook, then e1g1-style from e1.
    for fen, moves in ((WINGS, "b1h1 b8a8 d2d4"), (CORNERS, "e1g1 e8c8")):
        raw_uci.send(f"position fen {fen} moves {moves}", "d")
        lines = raw_uci.expect("Side to move")
        ref = chess.Board(fen, chess960=True)
        for text in moves.split():
            ref.push_uci(text)
        assert f"Fen: {ref.fen()}" in lines, (lines, ref.fen())
        raw_uci.send("go depth 2")
        best = raw_uci.expect("bestmove")[-1].split()[1]
        assert chess.Move.from_uci(best) in ref.legal_moves
    raw_uci.send(f"position fen {CORNERS} moves e1g1", "d")
    assert "Moves: e1h1" in raw_uci.expect("Moves")
    raw_uci.send("setoption name UCI_Chess960 value false", "isready")
    raw_uci.expect("readyok")
    raw_uci.send(f"position fen {CASTLING_MATE}", "isready")
    lines = raw_uci.expect("readyok")
    assert any("invalid fen castling rights" in line for line in lines), lines
