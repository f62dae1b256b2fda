"""play or solve tic-tac-toe (m x n board, k in a row).

Play tic-tac-toe against the computer (the default), or --solve it: the value under perfect
play and the numbers of games, positions and endings, all computed. Type moves as a column
letter and a row number (b2) or as a cell number counted from the top-left; 'help' lists the
legal moves, 'quit' stops.
"""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING

from plies.cli.board_game import add_player_arguments
from plies.cli.common import CliError, Command

if TYPE_CHECKING:
    from plies.games.tictactoe import TicTacToe

# Counting every game walks every reachable position; past this many cells that takes
# far too long in Python (4 x 4 alone has about ten million positions).
_SOLVE_MAX_CELLS = 12
# Plain minimax to the end is hopeless beyond the classic board; it then looks this deep.
_MINIMAX_BIG_BOARD_DEPTH = 3
# ... and iterative deepening gets this many seconds a move.
_ALPHABETA_BIG_BOARD_SECONDS = 2.0


COMMAND = Command("tictactoe", __doc__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``plies tictactoe``."""
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--play", action="store_true", help="play a game (the default)")
    modes.add_argument("--solve", action="store_true", help="solve the game and count its tree")
    parser.add_argument("--size", default="3x3", help="board as COLUMNSxROWS (default 3x3)")
    parser.add_argument("--k", type=int, default=None, help="marks in a row to win (default 3)")
    add_player_arguments(
        parser,
        depth_help="search depth limit in plies",
        time_help="seconds per move for alphabeta and mcts",
    )


def parse_size(text: str) -> tuple[int, int]:
    """Read ``MxN`` (columns x rows) or raise CliError."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not match:
        raise CliError(f"--size must look like 3x3 (columns x rows), not {text!r}")
    return int(match.group(1)), int(match.group(2))


def run(args: argparse.Namespace) -> int:
    """Solve or play, as asked."""
    from plies.games.tictactoe import TicTacToe

    width, height = parse_size(args.size)
    k = args.k if args.k is not None else min(3, max(width, height))
    try:
        game = TicTacToe(width, height, k)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.solve:
        return solve(game)
    return play(game, args)


def solve(game: TicTacToe) -> int:
    """Print the value under perfect play and the census of the game tree."""
    from plies.games.census import census
    from plies.games.solver import Solver

    cells = game.width * game.height
    if cells > _SOLVE_MAX_CELLS:
        raise CliError(
            f"--solve counts every game, which is only practical up to {_SOLVE_MAX_CELLS} cells "
            f"(this board has {cells})"
        )
    value, plies = Solver(game).solve(game.initial_state())
    if value > 0:
        verdict = f"X wins (in {plies} plies against the best defence)"
    elif value < 0:
        verdict = f"O wins (in {plies} plies against the best defence)"
    else:
        verdict = "draw"
    c = census(game)
    print(f"{game.width}x{game.height} board, {game.k} in a row, X moves first")
    print(f"value under perfect play: {verdict}")
    print(f"games: {c.games:,} (X wins {c.wins[0]:,}, O wins {c.wins[1]:,}, draws {c.draws:,})")
    print(f"positions: {c.positions:,} reachable (empty board included), {c.terminal:,} terminal")
    return 0


def play(game: TicTacToe, args: argparse.Namespace) -> int:
    """Play one game between the person at the console and the computer."""
    from plies.cli.board_game import play_computer

    big = game.width * game.height > 9
    depth = args.depth
    if depth is None and big and args.algorithm in ("minimax", "negamax"):
        depth = _MINIMAX_BIG_BOARD_DEPTH
    seconds = args.time
    if seconds is None and big and args.algorithm == "alphabeta":
        seconds = _ALPHABETA_BIG_BOARD_SECONDS
    return play_computer(game, game.centre_first, args, depth, seconds)
