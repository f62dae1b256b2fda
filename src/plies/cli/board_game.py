"""One console game between the person and a search player, for ``tictactoe`` and ``connect4``."""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING, Any

from plies.cli.common import CliError

if TYPE_CHECKING:
    from plies.games.protocol import Ordering, TextGame


def play_computer(
    game: TextGame[Any, Any],
    order: Ordering[Any, Any],
    args: argparse.Namespace,
    depth: int | None,
    seconds: float | None,
) -> int:
    """Play ``--algorithm`` (within ``depth``/``seconds``) against the person; exit status 0."""
    from plies.games.players import make_player
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
