"""``plies play`` driven through a pipe like a user script, plus the board renderer."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
from rich.console import Console
from tests.cli.runs import RunCli, one_line_error
from tests.waiting import HANG_S

from plies.agents import Player, PlayerError, make_player
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.engine.score import Cp, Mate, pov
from plies.play.render import render_board
from plies.play.session import Settings, TerminalSession, thought_line

ENV = {**os.environ, "COLUMNS": "120"}


def play(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``plies play`` with ``stdin`` piped in."""
    return subprocess.run(
        [sys.executable, "-m", "plies", "play", *args],
        input=stdin, capture_output=True, text=True, timeout=HANG_S, env=ENV,
    )


def fens(stdout: str) -> list[str]:
    """Every FEN the play command printed for the ``fen`` command."""
    out = []
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 6 and parts[1] in ("w", "b") and parts[0].count("/") == 7:
            out.append(line.strip())
    return out


def test_scripted_session_moves_undo_bad_input_resign() -> None:
    script = "\n".join([
        "e4", "fen",          # our move, the reply, then the position
        "Nf3", "undo", "fen",  # undo takes back Nf3 and the reply
        "Ke3",                 # illegal
        "xyzzy",               # not a move at all
        "e2e4",                # UCI, but the pawn already left e2
        "", "d2d4", "fen",     # UCI works; an empty line is ignored
        "resign", "pgn", "Nf3", "quit",
    ]) + "\n"
    proc = play(script, "--agent", "alphabeta:depth=1")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    f = fens(out)
    assert len(f) == 3
    assert f[0] == f[1], "undo must restore the position after e4 and the reply"
    board = chess.Board(f[0])
    assert board.piece_at(chess.E4) == chess.Piece(chess.PAWN, chess.WHITE)
    assert board.turn == chess.WHITE and board.fullmove_number == 2
    assert chess.Board(f[2]).piece_at(chess.D2) is None  # d2d4 was played
    assert "Took back 2 moves." in out
    assert "Illegal move: Ke3 (no king of yours can reach e3)." in out
    assert "Not a move or command: 'xyzzy'" in out
    assert "Illegal move: e2e4 (no piece on e2)." in out
    assert "Game over: White resigns. Black wins (0-1)." in out
    assert "The game is over; 'Nf3' is not a command here." in out
    assert "plies plays" in out and "depth 1" in out
    pgn_text = out[out.index('[Event "plies play"]'):]
    game = chess.pgn.read_game(io.StringIO(pgn_text))
    assert game is not None and game.headers["Result"] == "0-1"
    moves = [m.uci() for m in game.mainline_moves()]
    assert moves[0] == "e2e4" and moves[2] == "d2d4" and len(moves) == 4
    assert out.rstrip().endswith("Bye.")
    assert proc.stderr == ""


def test_end_of_input_exits_cleanly_and_black_side(cli: RunCli) -> None:
    status, out, err = cli(["play", "--agent", "random", "--color", "black", "--seed", "3",
                            "--ascii"], "fen\n")
    assert status == 0, err
    assert "You play Black against random" in out
    f = fens(out)
    assert len(f) == 1 and chess.Board(f[0]).turn == chess.BLACK  # random moved first
    # From Black's side rank 1 is at the top: the first board row is rank 1.
    rows = [ln for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert rows[0].strip().startswith("1") and rows[-1].strip().startswith("8")
    assert out.rstrip().endswith("Bye.")


# The computer's side to move can take a hanging queen with its rook: as Black (the person
# plays White) and, in the mirrored position, as White (the person plays Black).
FREE_QUEEN = {
    "white": ("4k3/3r4/8/8/3Q4/8/8/4K3 b - - 0 1", "Rxd4"),
    "black": ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "Rxd5"),
}


@pytest.mark.parametrize("human", ["white", "black"])
def test_the_computer_plays_its_own_colour_for_its_own_side(cli: RunCli, human: str) -> None:
    """Whichever colour the person takes, the computer moves the other one, first when it is
    its turn, and judges the position for its own side: it takes the free queen."""
    fen, capture = FREE_QUEEN[human]
    status, out, err = cli(["play", "--agent", "alphabeta:depth=2", "--color", human,
                            "--fen", fen, "--ascii"], "fen\nquit\n")
    assert status == 0, err
    assert f"You play {human.title()} against alphabeta" in out
    assert f"plies plays {capture}" in out
    expected = chess.Board(fen)
    expected.push_san(capture)
    assert fens(out) == [expected.fen()]  # the person's turn again


def test_checkmate_ends_the_game_with_its_reason(cli: RunCli) -> None:
    status, out, err = cli(["play", "--agent", "random", "--fen",
                            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"], "Rd8#\nfen\nnew\nquit\n")
    assert status == 0, err
    assert "Game over: White wins by checkmate (1-0)." in out
    assert "New game: you play White." in out


def test_bad_options_get_one_line(cli: RunCli) -> None:
    for args, message in ((["--fen", "not a fen"], "bad --fen"),
                          (["--agent", "wizard"], "unknown player"),
                          (["--level", "0"], "--level must be at least 1")):
        status, _, err = cli(["play", *args])
        one_line_error(status, err, message)


def test_every_score_is_labelled_from_whites_side(cli: RunCli) -> None:
    """White, the agent, is a queen up; the human, Black, asks for a hint. The agent's
    line and the hint's are both White's view, so both are clearly positive, and say so."""
    status, out, err = cli(["play", "--agent", "alphabeta:depth=2", "--color", "black", "--time",
                            "0.5", "--fen", "4k3/pppp1ppp/8/8/8/8/PPPP1PPP/3QK3 w - - 0 1"],
                           "hint\nquit\n")
    assert status == 0, err
    scores = re.findall(r"score (\S+) (\(White's view\))?", out)
    hint = next(line for line in out.splitlines() if line.startswith("Hint:"))
    assert "score " in hint and len(scores) == 2, out
    for value, label in scores:
        assert label == "(White's view)" and float(value) > 5, out


def test_a_mate_score_names_the_side_that_mates() -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1")  # Black to move, mated soon
    black = False

    def line(score: Cp | Mate) -> str:
        """The thinking line of Black's search reporting ``score`` (Black's view)."""
        return thought_line(board, Info(depth=3, score=pov(score, black)))

    assert line(Mate(-2)).endswith("score #2 (White mates in 2)")
    assert line(Mate(1)).endswith("score #-1 (Black mates in 1)")
    assert line(Cp(300)).endswith("score -3.00 (White's view)")


# White mates in three moves (Re7xg7+ first); Black, to move in the other, mates in three.
WHITE_MATES_IN_3 = "5rk1/1R2R1pp/8/8/8/8/5PPP/6K1 w - - 0 1"
BLACK_MATES_IN_3 = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1"


class _Reporter(Player):
    """A player that plays the first legal move and reports a fixed score."""

    name = "reporter"

    def __init__(self, score: Mate) -> None:
        """Report ``score`` (from the mover's side) with every move."""
        self.score = score

    def play(self, board: Board, limit: Limit) -> Info:
        """The first legal move, with the score."""
        move = next(iter(board.legal_moves))
        return Info(move=move, score=pov(self.score, board.turn), depth=5, pv=[move])


def _thinking_lines(player: Player, fen: str, human: str) -> list[str]:
    """The thinking lines the terminal game prints for ``player``'s first move at ``fen``."""
    console = Console(record=True, width=120, force_terminal=False)
    session = TerminalSession(player, Settings(human=human, fen=fen), console,
                          read_line=lambda: "")
    session._agent_move()
    return [ln for ln in console.export_text().splitlines() if ln.startswith("depth ")]


def test_the_thinking_line_shows_a_mate_in_3_as_mate_in_3() -> None:
    """A player reporting mate in three moves reads ``#3`` (White mates) or ``#-3`` (Black
    mates, White's view) in the terminal game's thinking line, not a move count off by one
    nor a centipawn value."""
    lines = _thinking_lines(_Reporter(Mate(3)), BLACK_MATES_IN_3, "white")
    assert lines == [lines[0]] and "score #-3 (Black mates in 3)" in lines[0], lines
    lines = _thinking_lines(make_player("engine", {"depth": 8}), WHITE_MATES_IN_3, "black")
    assert len(lines) == 1 and "score #3 (White mates in 3)" in lines[0], lines


def test_session_in_process_with_hint_flip_and_pgn_file(tmp_path: Path) -> None:
    lines = iter(["hint", "flip", "e4", f"pgn {tmp_path}/g.pgn", "undo", "undo", "quit"])
    console = Console(record=True, width=100, force_terminal=False)
    session = TerminalSession(
        make_player("alphabeta", {"depth": 1}),
        Settings(),
        console,
        read_line=lambda: next(lines) + "\n",
        hint_agent=lambda: make_player("alphabeta", {"depth": 2}),
    )
    assert session.run() == 0
    text = console.export_text()
    assert "Hint: " in text
    assert "Nothing to undo." in text
    assert (tmp_path / "g.pgn").read_text().startswith('[Event "plies play"]')


def test_render_marks_last_move_and_check() -> None:
    board = Board()
    for san in ("f3", "e5", "g4", "Qh4#"):
        board.push_san(san)
    plain = render_board(board, True, ascii_only=True, colour=False).plain
    assert "[K]" in plain  # the checked king
    assert "(q)" in plain and "(.)" in plain  # Qd8-h4
    flipped = render_board(board, False, ascii_only=True, colour=False).plain
    assert flipped.splitlines()[0].split() == list("hgfedcba")
    coloured = render_board(board, True, ascii_only=False, colour=True)
    assert "♛" in coloured.plain and coloured.spans


def test_null_moves_are_not_moves() -> None:
    # python-chess's SAN parser reads these as a null move; the game must not pass a turn.
    lines = iter(["--", "0000", "Z0", "fen", "quit"])
    console = Console(record=True, width=100, force_terminal=False)
    session = TerminalSession(make_player("random"), Settings(), console,
                          read_line=lambda: next(lines) + "\n")  # fmt: skip
    assert session.run() == 0
    text = console.export_text()
    for word in ("--", "0000", "Z0"):
        assert f"Not a move or command: {word!r}" in text
    assert chess.STARTING_FEN in text


CASTLE_MATE_960 = "2rkr3/2p1p3/8/1B6/8/8/8/RK6 w Q - 0 1"
"""A Chess960 position where castling queenside (king b1 takes rook a1) is mate."""


def test_chess960_position_number_and_castling_by_king_takes_rook(cli: RunCli) -> None:
    status, out, err = cli(["play", "--agent", "random", "--chess960", "123"], "fen\nquit\n")
    assert status == 0, err
    assert "Chess960 start position #123." in out
    assert fens(out) == [chess.Board.from_chess960_pos(123).fen()]
    for castle in ("b1a1", "O-O-O"):
        status, out, err = cli(["play", "--agent", "random", "--chess960", "--fen",
                                CASTLE_MATE_960], f"{castle}\npgn\nquit\n")
        assert status == 0, err
        assert "Game over: White wins by checkmate (1-0)." in out, out
        game = chess.pgn.read_game(io.StringIO(out[out.index("[Event"):]))
        assert game is not None and game.headers["Variant"] == "Chess960"
        assert game.headers["FEN"] == CASTLE_MATE_960
        assert [m.uci() for m in game.mainline_moves()] == ["b1a1"]


def test_chess960_new_games_start_from_seeded_positions_and_the_engine_castles() -> None:
    lines = iter(["new", "quit"])
    console = Console(record=True, width=100, force_terminal=False)
    session = TerminalSession(make_player("alphabeta", {"depth": 2}),
                          Settings(human="black", chess960=True, seed=4), console,
                          read_line=lambda: next(lines) + "\n")
    assert session.run() == 0
    text = console.export_text()
    numbers = [int(w.rstrip(".").lstrip("#")) for w in text.split() if w.startswith("#")]
    assert len(numbers) == 2 and session.board.chess960
    assert session.board.root() == chess.Board.from_chess960_pos(numbers[1])
    # The agent replies on a Chess960 board: castling is king takes rook.
    session.settings = Settings(human="black", fen=CASTLE_MATE_960, chess960=True)
    session._new_game()
    session._agent_move()
    assert session.board.move_stack == [chess.Move.from_uci("b1a1")]
    assert session.board.is_checkmate()


def test_chess960_bad_options_get_one_line(cli: RunCli) -> None:
    for args, message in ((["--chess960", "960"], "start position 0-959"),
                          (["--chess960", "x"], "start position 0-959"),
                          (["--chess960", "5", "--fen", CASTLE_MATE_960], "give one of them"),
                          (["--chess960", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "bad --fen")):
        status, _, err = cli(["play", *args])
        one_line_error(status, err, message)


class _Failing(Player):
    """A player whose every move is a fault."""

    name = "failing"

    def play(self, board: Board, limit: Limit) -> Info:
        """Fail."""
        raise PlayerError("crash", "it fell over")


def test_any_player_sits_at_the_terminal_and_a_fault_loses_the_game() -> None:
    """Any player is seated as it is (a reported mate in 3 reads #3); a player that fails
    loses the game, with the reason, instead of a move played for it."""
    lines = _thinking_lines(_Reporter(Mate(3)), WHITE_MATES_IN_3, "black")
    assert len(lines) == 1 and "score #3 (White mates in 3)" in lines[0], lines
    console = Console(record=True, width=120, force_terminal=False)
    session = TerminalSession(_Failing(), Settings(human="black"), console, read_line=lambda: "")
    session._agent_move()
    assert session.board.move_stack == [] and session.resigned == chess.WHITE
    assert "failing failed (crash): it fell over" in console.export_text()
