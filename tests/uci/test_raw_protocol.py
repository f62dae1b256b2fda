"""``plies uci`` fed raw text: hostile input, held bestmoves, quit, EOF and the extras."""

from __future__ import annotations

import re

import chess
import pytest
from tests.uci.conftest import REPLY_TIMEOUT_S, RawUci, run_script

HOSTILE_LINES: list[bytes] = [
    b"garbage",
    b"position fen garbage",
    b"position startpos moves e2e4 e7e5 zzzz",
    b"go depth abc",
    b"setoption name Hash value -5",
    b"setoption name Hash value lots",
    b"setoption name NoSuchOption value 1",
    b"setoption",
    b"position",
    b"position fen",
    b"position fen 8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
    b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
    b"go nodes -1",
    b"go movetime 1e3",
    b"go perft abc",
    b"bench zero",
    b"",
    b"   ",
    b"\t\t",
    b"\r",
    "♔♕♖♗♘♙ ünïcödé ☃ position go".encode(),
    b"\xff\xfe\xfd invalid utf-8 \xc3\x28",
    b"\x00\x01\x02\x1b[31m",
    b"x" * 200_000,  # longer than any command: dropped as a whole
    b"go " + b"depth " * 5_000,
    b"position startpos moves " + b"e2e4 " * 3_000,
    b"ucinewgame extra tokens",
    b"stop",
    b"ponderhit",
    b"debug on",
    b"register later",
]


def _after(*moves: str) -> chess.Board:
    """python-chess's board after ``moves`` (UCI) from the start position."""
    board = chess.Board()
    for move in moves:
        board.push_uci(move)
    return board


def _held_until(uci: RawUci, reported: str, release: str) -> str:
    """Once a line starts with ``reported``, and after a readyok, no bestmove yet; then
    ``release`` brings it: the bestmove line."""
    early = uci.expect(reported)
    uci.send("isready")
    early += uci.expect("readyok")
    assert not any(line.startswith("bestmove") for line in early), early
    uci.send(release)
    return uci.expect("bestmove")[-1]


def _fen_from_display(lines: list[str]) -> str:
    """The FEN printed by ``d``."""
    fens = [line.split(":", 1)[1].strip() for line in lines if line.startswith("Fen:")]
    assert fens, lines
    return fens[-1]


def test_hostile_lines_never_break_it(shared_uci: RawUci) -> None:
    """After a script of malformed lines it is alive, ready, and plays a right move."""
    for line in HOSTILE_LINES:
        shared_uci.send_bytes(line + b"\n")
    got = shared_uci.ready()
    assert shared_uci.proc.poll() is None
    errors = [line for line in got if line.startswith("info string")]
    assert len(errors) >= 15
    assert not any(line.startswith("bestmove") for line in got)
    # A ``position`` that ran into an illegal move keeps the legal prefix.
    shared_uci.send("position startpos moves e2e4 e7e5 zzzz g1f3", "d")
    shown = shared_uci.expect("Side to move")
    assert any("zzzz" in line for line in shown if line.startswith("info string"))
    board = _after("e2e4", "e7e5")
    assert _fen_from_display(shown) == board.fen()
    # And the engine plays from exactly that position.
    shared_uci.send("go depth 4")
    best = shared_uci.expect("bestmove")[-1].split()[1]
    assert chess.Move.from_uci(best) in board.legal_moves


def test_broken_fen_keeps_the_previous_position(shared_uci: RawUci) -> None:
    """A bad FEN is reported and the position set before it stays."""
    fen = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1"
    shared_uci.send(f"position fen {fen}", "position fen this/is/not/a/fen w - - 0 1", "d")
    shown = shared_uci.expect("Side to move")
    assert any(line.startswith("info string") for line in shown)
    assert _fen_from_display(shown) == fen


def test_go_in_a_finished_game_answers_0000(shared_uci: RawUci) -> None:
    """Checkmate and stalemate: ``bestmove 0000`` with a final score."""
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    shared_uci.send(f"position fen {mated}", "go depth 5")
    got = shared_uci.expect("bestmove")
    assert got[-1] == "bestmove 0000"
    assert "info depth 0 score mate 0" in got
    shared_uci.send(f"position fen {stalemate}", "go wtime 1000 btime 1000")
    got = shared_uci.expect("bestmove")
    assert got[-1] == "bestmove 0000"
    assert "info depth 0 score cp 0" in got


def test_infinite_holds_bestmove_until_stop(shared_uci: RawUci) -> None:
    """``go infinite`` prints no bestmove on its own, even in a solved position."""
    shared_uci.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go infinite depth 3")
    # Depth 3 reported is the search done, on any machine; then readyok, and still no bestmove.
    assert _held_until(shared_uci, "info depth 3", "stop").startswith("bestmove d1d8")
    # A finished game under ``go infinite`` also waits for ``stop``.
    shared_uci.send("position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "go infinite")
    assert _held_until(shared_uci, "info depth 0", "stop") == "bestmove 0000"


def test_ponder_holds_bestmove_until_ponderhit(shared_uci: RawUci) -> None:
    """``go ponder`` with a depth: no bestmove until ``ponderhit``, then it comes."""
    shared_uci.send("position startpos moves e2e4 e7e5", "go ponder depth 3 wtime 5000 btime 5000")
    best = _held_until(shared_uci, "info depth 3", "ponderhit").split()[1]
    assert chess.Move.from_uci(best) in _after("e2e4", "e7e5").legal_moves


def test_ponderhit_right_after_go_ponder(shared_uci: RawUci) -> None:
    """A ``ponderhit`` sent the instant after ``go ponder`` (as python-chess does) still counts."""
    shared_uci.send("position startpos moves e2e4 e7e5", "go ponder movetime 200", "ponderhit")
    best = shared_uci.expect("bestmove")[-1].split()[1]
    assert chess.Move.from_uci(best) in _after("e2e4", "e7e5").legal_moves


def test_stop_without_search_and_double_stop_are_harmless(shared_uci: RawUci) -> None:
    """``stop`` when idle prints nothing; a second ``stop`` adds no second bestmove."""
    # ``ucinewgame`` waits until any search has returned and said all it will say, so a
    # stray bestmove, if one came, would stand before readyok on any machine.
    shared_uci.send("stop", "ucinewgame", "isready")
    assert not any(line.startswith("bestmove") for line in shared_uci.expect("readyok"))
    shared_uci.send("position startpos", "go infinite")
    shared_uci.expect("info depth")  # the search runs
    shared_uci.send("stop", "stop")
    shared_uci.expect("bestmove")
    shared_uci.send("stop", "ucinewgame", "isready")
    assert not any(line.startswith("bestmove") for line in shared_uci.expect("readyok"))


def test_a_new_go_during_a_search_finishes_the_old_one(shared_uci: RawUci) -> None:
    """Two ``go`` in a row: the first search is stopped and answered, then the second runs."""
    shared_uci.send("position startpos", "go infinite", "go depth 2", "isready")
    got = shared_uci.expect("readyok")
    got += shared_uci.expect("bestmove") if sum(x.startswith("bestmove") for x in got) < 2 else []
    assert sum(line.startswith("bestmove") for line in got) == 2


def test_quit_during_a_search_exits_cleanly(raw_uci: RawUci) -> None:
    """``quit`` while searching: the process ends with status 0."""
    raw_uci.send("position startpos", "go infinite")
    raw_uci.expect("info depth")  # the search runs
    raw_uci.send("quit")
    assert raw_uci.proc.wait(timeout=REPLY_TIMEOUT_S) == 0


def test_end_of_input_is_quit() -> None:
    """Closing stdin ends the process with status 0, even mid-search."""
    out = run_script("uci\nisready\nposition startpos\ngo depth 3\n")
    assert "uciok" in out and "readyok" in out and any(x.startswith("bestmove") for x in out)


def test_quit_before_compilation_is_done() -> None:
    """``uci`` then ``quit`` at once: a clean exit without waiting for ``isready``."""
    assert run_script("uci\nquit\n")[-1] == "uciok"


def test_go_perft_divides(shared_uci: RawUci) -> None:
    """``go perft 3``: one line per root move, then the total."""
    shared_uci.send("position startpos", "go perft 3")
    got = shared_uci.expect("Nodes searched")
    assert got[-1] == "Nodes searched: 8902"
    moves = [line for line in got if ":" in line and len(line.split(":")[0]) in (4, 5)]
    assert len(moves) == 20 and "e2e4: 600" in moves


def test_display_eval_and_help(shared_uci: RawUci) -> None:
    """``d`` shows the board and FEN; ``eval`` the static score and its terms; ``help`` a list."""
    shared_uci.send("position startpos moves e2e4", "d")
    shown = shared_uci.expect("Side to move")
    assert _fen_from_display(shown) == (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    )
    shared_uci.send("eval", "isready")
    got = shared_uci.expect("readyok")
    assert any(line.startswith("Static evaluation:") for line in got)
    assert any(line.startswith("material") for line in got)
    shared_uci.send("help")
    assert "go" in shared_uci.expect("info string commands:")[-1]


@pytest.mark.parametrize(("fen", "side"), [
    ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "white"),
    ("4k3/3r4/8/8/3Q4/8/8/4K3 b - - 0 1", "black"),
])
def test_display_and_eval_name_the_side_to_move(shared_uci: RawUci, fen: str, side: str) -> None:
    """``d`` names the side to move; ``eval`` turns the side to move's score into White's
    view (in both positions the side to move has a rook against a queen)."""
    shared_uci.send(f"position fen {fen}", "d")
    shown = shared_uci.expect("Side to move")
    assert shown[-1].startswith(f"Side to move: {side};"), shown[-1]
    shared_uci.send("eval", "isready")
    line = next(x for x in shared_uci.expect("readyok") if x.startswith("Static evaluation:"))
    found = re.fullmatch(r"Static evaluation: (\S+) \(side to move\), (\S+) \(White's view\)",
                         line)
    assert found is not None, line
    mover, white = float(found[1]), float(found[2])
    assert mover < -1.0 and white == (mover if side == "white" else -mover), line


def test_searchmoves_with_an_illegal_entry(shared_uci: RawUci) -> None:
    """Illegal ``searchmoves`` entries are named and skipped; the legal one is played."""
    shared_uci.send("position startpos", "go depth 3 searchmoves e2e5 h2h4")
    got = shared_uci.expect("bestmove")
    assert any("e2e5" in line for line in got if line.startswith("info string"))
    assert got[-1].split()[1] == "h2h4"


def test_go_mate_finds_the_mate(shared_uci: RawUci) -> None:
    """``go mate 1`` in a mate-in-one position reports the mate and plays it."""
    shared_uci.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go mate 1")
    got = shared_uci.expect("bestmove")
    assert any(" score mate 1 " in line for line in got)
    assert got[-1].split()[1] == "d1d8"
