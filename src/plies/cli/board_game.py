"""The person against a search player at the console: the options and the game, for
``tictactoe`` and ``connect4``."""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING, Any

from plies.cli.common import CliError

if TYPE_CHECKING:
    from plies.games.protocol import Ordering, TextGame


def add_player_arguments(
    parser: argparse.ArgumentParser, depth_help: str, time_help: str
) -> None:
    """The options that choose the computer player: who starts, the search and its limits."""
    parser.add_argument(
        "--first", choices=("human", "ai"), default="human", help="who plays X (default human)"
    )
    parser.add_argument(
        "--algorithm",
        default="alphabeta",
        help="the computer's search: a game search algorithm (minimax, negamax, alphabeta, "
             "mcts or an installed one; default alphabeta, iterative deepening)",
    )
    parser.add_argument("--depth", type=int, default=None, help=depth_help)
    parser.add_argument("--time", type=float, default=None, help=time_help)
    parser.add_argument("--playouts", type=int, default=None, help="MCTS playouts per move")
    parser.add_argument("--seed", type=int, default=None, help="seed for MCTS (repeatable games)")


def play_computer(
    game: TextGame[Any, Any],
    order: Ordering[Any, Any],
    args: argparse.Namespace,
    depth: int | None,
    seconds: float | None,
) -> int:
    """Play ``--algorithm`` (within ``depth``/``seconds``) against the person; exit status 0."""
    from plies.games.algorithms import make_player
    from plies.games.session import play_against_computer

    try:
        computer = make_player(
            args.algorithm,
            depth=depth,
            seconds=seconds,
            playouts=args.playouts,
            order=order,
            rng=random.Random(args.seed),
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None
    play_against_computer(game, computer, human_first=args.first == "human")
    return 0
