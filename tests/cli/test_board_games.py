"""The ``plies tictactoe``, ``plies connect4`` and ``plies gametree`` commands."""

from __future__ import annotations

import io

import pytest
from tests.cli.runs import RunCli, one_line_error, plies


def test_solve_prints_the_computed_facts(cli: RunCli) -> None:
    """``--solve``: the value and the counts of games, positions and endings."""
    status, out, _ = cli(["tictactoe", "--solve"])
    assert status == 0
    assert "value under perfect play: draw" in out
    assert "games: 255,168 (X wins 131,184, O wins 77,904, draws 46,080)" in out
    assert "positions: 5,478 reachable (empty board included), 958 terminal" in out


def test_scripted_tictactoe_explains_bad_input_and_never_lets_the_human_win(cli: RunCli) -> None:
    """Nonsense and taken cells get one line each and a new prompt; the game finishes."""
    # Always try the cells in order: taken ones are refused, the first free one is played.
    script = "hello\n\n10\n" + "a3 b3 c3 a2 b2 c2 a1 b1 c1\n".replace(" ", "\n") * 9
    status, out, _ = cli(["tictactoe"], script)
    assert status == 0
    assert "not a cell: 'hello' (type a column letter and a row number, a1 to c3)" in out
    assert "no cell 10: cells are numbered 1 to 9" in out
    assert "legal moves: a3, b3, c3, a2, b2, c2, a1, b1, c1" in out
    assert "is taken by" in out
    assert "O (computer) plays" in out and "nodes" in out
    last = out.rstrip().splitlines()[-1]
    assert last in ("O (computer) wins.", "Draw.")


def test_ai_moves_first_and_quit_stops(cli: RunCli) -> None:
    """``--first ai`` lets the computer open; ``quit`` abandons the game cleanly."""
    argv = ["tictactoe", "--first", "ai", "--algorithm", "mcts", "--playouts", "200", "--seed", "3"]
    status, out, _ = cli(argv, "quit\n")
    assert status == 0
    assert out.index("X (computer) plays") < out.index("O (you) to move")
    assert out.rstrip().endswith("game abandoned")


def test_end_of_input_through_a_real_pipe_exits_cleanly() -> None:
    """Piped input that runs out mid-game ends the game with status 0, no traceback."""
    proc = plies("connect4", "--depth", "2", stdin="4\n4\n9\nx\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "not a column: '9' (type a number from 1 to 7)" in proc.stdout
    assert "not a column: 'x'" in proc.stdout
    assert proc.stdout.count("X (you) plays 4") == 2
    assert proc.stdout.rstrip().endswith("game abandoned")


def test_connect4_full_column(cli: RunCli) -> None:
    """Dropping into a full column is refused with its reason (the replies are repeatable)."""
    script = "1\n1\n1\n4\n1\n1\n1\n"
    argv = ["connect4", "--algorithm", "minimax", "--depth", "1"]
    status, out, _ = cli(argv, script)
    assert status == 0
    assert out.count("X (you) plays 1") == 5
    assert "X (you) to move (help, quit): 1\ncolumn 1 is full\nX (you) to move" in out


def test_bad_options_are_one_line_errors(cli: RunCli) -> None:
    """Malformed sizes, impossible k, unsolvable boards and silly limits: status 2, one line."""
    cases = [
        ["tictactoe", "--size", "3y3"],
        ["tictactoe", "--k", "4"],
        ["tictactoe", "--solve", "--size", "4x4"],
        ["tictactoe", "--depth", "0"],
        ["connect4", "--time", "-1"],
        ["gametree", "--depth", "0"],
    ]
    for argv in cases:
        status, _, err = cli(argv)
        assert one_line_error(status, err).startswith(f"plies {argv[0]}: error:"), argv


def test_gametree_compares_every_algorithm_on_the_same_positions(cli: RunCli) -> None:
    """One row per algorithm and position; minimax and negamax visit the same nodes."""
    argv = ["gametree", "--game", "connect4", "--depth", "3", "--playouts", "50"]
    status, out, _ = cli(argv)
    assert status == 0
    assert out.count("\nalgorithm") == 3
    for label in ("minimax", "negamax", "alpha-beta + ordering + TT", "iterative deepening"):
        assert out.count(f"\n{label} ") == 3, label
    assert out.count("MCTS (50 playouts)") == 3
    rows = [line.split() for line in out.splitlines()]
    minimax_nodes = [r[3] for r in rows if r and r[0] == "minimax"]
    negamax_nodes = [r[3] for r in rows if r and r[0] == "negamax"]
    assert minimax_nodes == negamax_nodes


def test_console_player_survives_undecodable_input() -> None:
    """Bytes that are not text on a strict stream get an explanation, not a traceback."""
    from plies.games.console import ConsolePlayer, PlayerQuitError
    from plies.games.tictactoe import TicTacToe

    game = TicTacToe()
    # A strict decoder drops its whole buffer on an error, so the input then ends.
    typed = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\nb2\n"), encoding="utf-8", errors="strict")
    out = io.StringIO()
    player = ConsolePlayer(game, "X", input=typed, output=out, echo=False)
    with pytest.raises(PlayerQuitError):
        player(game, game.initial_state())
    assert "could not read that line as text" in out.getvalue()
