"""``plies connect4``: play connect four against the computer."""

from __future__ import annotations

import argparse
import random

from plies.cli.common import CliError

# Defaults that answer within about a second a move in Python.
_DEFAULT_SECONDS = 1.0
_DEFAULT_MINIMAX_DEPTH = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``connect4`` subcommand."""
    parser = subparsers.add_parser(
        "connect4",
        help="play connect four (7 x 6) against the computer",
        description=(
            "Play connect four against the computer: type a column number (1-7) to drop "
            "a disc; 'help' lists the open columns, 'quit' stops. Works with piped input."
        ),
    )
    parser.add_argument("--play", action="store_true", help="play a game (the default)")
    parser.add_argument(
        "--first", choices=("human", "ai"), default="human", help="who plays X (default human)"
    )
    parser.add_argument(
        "--algorithm",
        choices=("minimax", "negamax", "alphabeta", "mcts"),
        default="alphabeta",
        help="the computer's search (default alphabeta, iterative deepening)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=None,
        help=f"search depth in plies (minimax default {_DEFAULT_MINIMAX_DEPTH}; "
        "alphabeta: deepest iteration)",
    )
    parser.add_argument(
        "--time",
        type=float,
        default=None,
        help=f"seconds per move for alphabeta (default {_DEFAULT_SECONDS}) and mcts",
    )
    parser.add_argument("--playouts", type=int, default=None, help="MCTS playouts per move")
    parser.add_argument("--seed", type=int, default=None, help="seed for MCTS (repeatable games)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play one game between the person at the console and the computer."""
    from plies.games.connect4 import Connect4
    from plies.games.players import make_player
    from plies.games.session import play_against_computer

    game = Connect4()
    depth = args.depth
    if depth is None and args.algorithm in ("minimax", "negamax"):
        depth = _DEFAULT_MINIMAX_DEPTH
    seconds = args.time
    if seconds is None and args.algorithm == "alphabeta" and args.depth is None:
        seconds = _DEFAULT_SECONDS
    try:
        computer = make_player(
            args.algorithm,
            depth=depth,
            seconds=seconds,
            playouts=args.playouts,
            order=game.centre_first,
            rng=random.Random(args.seed),
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None
    play_against_computer(game, computer, human_first=args.first == "human")
    return 0
