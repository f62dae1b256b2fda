"""compare minimax, alpha-beta, MCTS ... on the same positions.

Search the same positions with every algorithm of plies.games and print a table: best move,
value, nodes visited, cutoffs, transposition hits, time and the principal variation. MCTS's
value is its mean playout result, not a minimax value.

plies game compare SPEC prints the same table for any game; this command keeps the three
built-in games and their named positions.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plies.cli.common import CliError, Command

if TYPE_CHECKING:
    from plies.games.protocol import Ordering, TextGame
    from plies.games.result import SearchResult

GAMES = ("tictactoe", "connect4", "chess")

# Per game: default depth (None: to the end) and MCTS playouts; chess playouts are long.
DEFAULT_DEPTH: dict[str, int | None] = {"tictactoe": None, "connect4": 5, "chess": 2}
DEFAULT_PLAYOUTS = {"tictactoe": 1000, "connect4": 1000, "chess": 20}
# Principal variations are cut to this many moves in the table.
_PV_SHOWN = 6


COMMAND = Command("gametree", __doc__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``plies gametree``."""
    parser.add_argument("--game", choices=GAMES, default="tictactoe", help="default tictactoe")
    parser.add_argument(
        "--depth",
        type=int,
        default=None,
        help="search depth in plies (defaults: tictactoe to the end, connect4 5, chess 2)",
    )
    parser.add_argument(
        "--playouts", type=int, default=None, help="MCTS playouts (default 1000; chess 20)"
    )
    parser.add_argument("--seed", type=int, default=1, help="MCTS seed (default 1)")


@dataclass(frozen=True)
class _Setup:
    """One game prepared for comparison: the game, named positions and its ordering hook."""

    game: TextGame[Any, Any]
    positions: list[tuple[str, Any]]
    order: Ordering[Any, Any]


def run(args: argparse.Namespace) -> int:
    """Search each position with each algorithm and print the table row by row."""
    if args.depth is not None and args.depth < 1:
        raise CliError(f"--depth must be at least 1, not {args.depth}")
    if args.playouts is not None and args.playouts < 1:
        raise CliError(f"--playouts must be at least 1, not {args.playouts}")
    depth = args.depth if args.depth is not None else DEFAULT_DEPTH[args.game]
    playouts = args.playouts if args.playouts is not None else DEFAULT_PLAYOUTS[args.game]
    setup_ = setup(args.game)
    compare(args.game, setup_.game, setup_.positions, setup_.order, depth, playouts, args.seed)
    return 0


def compare(
    title: str,
    game: TextGame[Any, Any],
    positions: Sequence[tuple[str, Any]],
    order: Ordering[Any, Any],
    depth: int | None,
    playouts: int,
    seed: int,
) -> None:
    """Search each named position with each algorithm and print the table row by row."""
    algorithms = _algorithms(order, depth, playouts, seed)
    out = sys.stdout
    limit = "to the end" if depth is None else f"depth {depth}"
    out.write(f"{title}: {limit}; MCTS {playouts:,} playouts (seed {seed})\n")
    widths = (26, 8, 6, 11, 9, 9, 8)
    header = ("algorithm", "best", "value", "nodes", "cutoffs", "tt hits", "time s", "pv")
    for name, state in positions:
        out.write(f"\n{name}\n")
        out.write(_row(header, widths) + "\n")
        for label, search in algorithms:
            result = search(game, state)
            out.write(_row(_cells(game, label, result), widths) + "\n")
            out.flush()


def setup(name: str) -> _Setup:
    """Build the game called ``name`` with its comparison positions and ordering hook."""
    if name == "tictactoe":
        from plies.games.ordering import by_evaluation
        from plies.games.tictactoe import TicTacToe

        ttt = TicTacToe()
        lines = {"empty board": "", "after b2": "b2", "after a1 b2 c3": "a1 b2 c3"}
        return _Setup(ttt, _positions(ttt, lines), by_evaluation(ttt))
    if name == "connect4":
        from plies.games.connect4 import Connect4

        c4 = Connect4()
        lines = {"empty board": "", "after 4 4 3 5": "4 4 3 5", "after 4 3 4 4 5 6": "4 3 4 4 5 6"}
        return _Setup(c4, _positions(c4, lines), c4.centre_first)
    from plies.board import Board
    from plies.games.chessgame import ChessGame

    chess_game = ChessGame()
    italian = Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"):
        italian.push_san(san)
    positions: list[tuple[str, Any]] = [
        ("starting position", chess_game.initial_state()),
        ("Italian game, 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5", italian),
    ]
    return _Setup(chess_game, positions, chess_game.captures_first)


def _positions(game: TextGame[Any, Any], lines: dict[str, str]) -> list[tuple[str, Any]]:
    """Return each named position, reached by playing its typed moves from the start."""
    out = []
    for name, moves in lines.items():
        state = game.initial_state()
        for text in moves.split():
            state = game.result(state, game.parse_action(state, text))
        out.append((name, state))
    return out


def _algorithms(
    order: Ordering[Any, Any], depth: int | None, playouts: int, seed: int
) -> list[tuple[str, Callable[[Any, Any], SearchResult[Any]]]]:
    """Return the compared searches, each a ``(game, state) -> result`` with a label."""
    from plies.games.alphabeta import alphabeta
    from plies.games.deepening import iterative_deepening
    from plies.games.mcts import mcts
    from plies.games.minimax import minimax
    from plies.games.negamax import negamax
    from plies.games.ttable import TranspositionTable

    return [
        ("minimax", lambda g, s: minimax(g, s, depth)),
        ("negamax", lambda g, s: negamax(g, s, depth)),
        ("alpha-beta", lambda g, s: alphabeta(g, s, depth)),
        ("alpha-beta + ordering", lambda g, s: alphabeta(g, s, depth, order)),
        (
            "alpha-beta + ordering + TT",
            lambda g, s: alphabeta(g, s, depth, order, TranspositionTable()),
        ),
        ("iterative deepening", lambda g, s: iterative_deepening(g, s, None, depth, order)),
        (
            f"MCTS ({playouts:,} playouts)",
            lambda g, s: mcts(g, s, playouts, rng=random.Random(seed)),
        ),
    ]


def _cells(game: TextGame[Any, Any], label: str, result: SearchResult[Any]) -> list[str]:
    """Return the table cells of one search result."""
    from plies.games.session import describe_value

    best = "-" if result.action is None else game.action_text(result.action)
    pv = " ".join(game.action_text(a) for a in result.pv[:_PV_SHOWN])
    if len(result.pv) > _PV_SHOWN:
        pv += " ..."
    return [
        label,
        best,
        describe_value(result.value, result.exact),
        f"{result.nodes:,}",
        f"{result.cutoffs:,}",
        f"{result.tt_hits:,}",
        f"{result.seconds:.3f}",
        pv,
    ]


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Lay out one table row: the first column left-aligned, numbers right-aligned."""
    parts = [cells[0].ljust(widths[0]), cells[1].ljust(widths[1])]
    parts += [cell.rjust(width) for cell, width in zip(cells[2:], widths[2:], strict=False)]
    parts += list(cells[len(widths) :])
    return "  ".join(parts).rstrip()
