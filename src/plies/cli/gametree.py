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
    from plies.engine.limits import Info, Limit, Meter
    from plies.games.protocol import Ordering, TextGame
    from plies.games.rootsearch import RootValues

GAMES = ("tictactoe", "connect4", "chess")

# Per game: default depth (None: to the end) and MCTS playouts; chess playouts are long.
DEFAULT_DEPTH: dict[str, int | None] = {"tictactoe": None, "connect4": 5, "chess": 2}
DEFAULT_PLAYOUTS = {"tictactoe": 1000, "connect4": 1000, "chess": 20}
# Principal variations are cut to this many moves in the table.
_PV_SHOWN = 6
# Column widths of the table (the principal variation, last, takes what it needs).
_WIDTHS = (26, 8, 6, 11, 9, 9, 8)


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
    seconds: float | None = None,
    solve: bool = False,
) -> None:
    """Search each named position with each algorithm and print the table row by row.

    With ``solve``, each position is first solved exactly by alpha-beta with a table for
    at most ``seconds``: if that finishes, every search runs to the end and the table's
    values are proven; if not, they stop at ``depth`` and the output says they are guesses.
    ``seconds`` also stops each search that runs to the end.
    """
    out = sys.stdout
    out.write(f"{title}: MCTS {playouts:,} playouts (seed {seed}); its value is the mean "
              "playout result, never a proven one\n")
    if not solve:
        out.write(f"{_limit_text(depth, seconds)}\n")
    header = ("algorithm", "best", "value", "nodes", "cutoffs", "tt hits", "time s", "pv")
    for name, state in positions:
        out.write(f"\n{name}")
        searched, limit = depth, None if depth is not None else seconds
        if solve:
            found = _solve(game, state, order, seconds)
            if found.exact:
                out.write(f": {_solved_text(game, state, found, seconds)}\n")
                searched, limit = None, seconds
            else:
                out.write(f": not solved within {seconds:g} s (alpha-beta with a table "
                          f"completed depth {found.depth}; a longer --time may solve it)\n")
            out.write(f"  {_limit_text(searched, limit)}\n")
        else:
            out.write("\n")
        out.write(_row(header, _WIDTHS) + "\n")
        for label, search in _algorithms(order, searched, playouts, seed, limit):
            result = _run(search, game, state, limit)
            out.write(_row(_cells(game, label, result, limit), _WIDTHS) + "\n")
            out.flush()


def _limit_text(depth: int | None, seconds: float | None) -> str:
    """Say how far the searches go and what that makes of their values."""
    if depth is not None:
        return (f"searches stop at depth {depth}, so a value other than win, loss or draw is "
                "a guess (the game's evaluate there, 0 if it has none), not a proven result")
    stopped = "" if seconds is None else f" (or gives up after {seconds:g} s)"
    return f"every search runs to the end of the game{stopped}, so its values are proven"


def _solve(
    game: TextGame[Any, Any], state: Any, order: Ordering[Any, Any], seconds: float | None
) -> RootValues[Any]:
    """Solve ``state`` exactly within ``seconds`` if possible (``exact`` says whether)."""
    from plies.games.rootsearch import root_values

    return root_values(game, state, _limit(seconds), order)


def _solved_text(
    game: TextGame[Any, Any], state: Any, found: RootValues[Any], seconds: float | None
) -> str:
    """Describe an exact solution: the value, the best actions and every action's value."""
    from plies.games.console import action_label
    from plies.games.session import describe_value

    value = describe_value(found.value, True)
    best = " ".join(action_label(game, state, a) for a in found.best_actions)
    within = "" if seconds is None else f" within {seconds:g} s"
    text = (f"solved exactly{within} (alpha-beta with a table: {found.nodes:,} nodes, "
            f"{found.seconds:.3f} s)")
    if not found.values:
        return f"{text}\n  the game is over: {value} for player {game.to_move(state)}"
    kind = {"win": "winning actions", "draw": "drawing actions"}.get(value, "best actions")
    every = ", ".join(f"{action_label(game, state, a)} {describe_value(v, True)}"
                      for a, v in found.values)
    return (f"{text}\n  value for player {game.to_move(state)} to move: {value}; "
            f"{kind}: {best}\n  every action: {every}")


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


@dataclass(frozen=True)
class _Stopped:
    """A search that ran out of time before it finished: what it spent."""

    nodes: int
    seconds: float


#: A compared search: ``(game, state, meter) -> result``; the meter may stop it by raising.
_Search = Callable[[Any, Any, "Meter"], "Info"]


def _algorithms(
    order: Ordering[Any, Any], depth: int | None, playouts: int, seed: int,
    seconds: float | None = None,
) -> list[tuple[str, _Search]]:
    """Return the compared searches, each with a label; iterative deepening and MCTS keep
    to ``seconds`` their own way (the others by the meter)."""
    from plies.games.alphabeta import alphabeta
    from plies.games.deepening import iterative_deepening
    from plies.games.mcts import mcts
    from plies.games.minimax import minimax
    from plies.games.negamax import negamax
    from plies.games.ttable import TranspositionTable

    limit = _limit(seconds, depth)
    return [
        ("minimax", lambda g, s, m: minimax(g, s, depth, meter=m)),
        ("negamax", lambda g, s, m: negamax(g, s, depth, m)),
        ("alpha-beta", lambda g, s, m: alphabeta(g, s, depth, meter=m)),
        ("alpha-beta + ordering", lambda g, s, m: alphabeta(g, s, depth, order, meter=m)),
        (
            "alpha-beta + ordering + TT",
            lambda g, s, m: alphabeta(g, s, depth, order, TranspositionTable(), m),
        ),
        ("iterative deepening", lambda g, s, m: iterative_deepening(g, s, limit, order)),
        (
            f"MCTS ({playouts:,} playouts)",
            lambda g, s, m: mcts(g, s, playouts, rng=random.Random(seed)),
        ),
    ]


def _limit(seconds: float | None, depth: int | None = None) -> Limit:
    """Return the limit of ``seconds`` per search (None: no time limit) and ``depth``."""
    from plies.engine.limits import Limit

    return Limit(depth=depth, movetime=None if seconds is None else round(seconds * 1000))


def _run(
    search: _Search, game: TextGame[Any, Any], state: Any, seconds: float | None
) -> Info | _Stopped:
    """Run one search within ``seconds``: its result, or what it spent if time ran out."""
    from plies.engine.limits import Meter, SearchStoppedError

    meter = Meter(_limit(seconds))
    try:
        result = search(game, state, meter)
    except SearchStoppedError:
        return _Stopped(meter.nodes, meter.elapsed())
    # Searching to the end, only a search cut short is unproven (iterative deepening returns
    # its last finished depth then); MCTS, which proves nothing, counts its playouts.
    if seconds is not None and not result.exact and not result.iterations:
        return _Stopped(result.nodes, result.time_ms / 1000)
    return result


def _cells(
    game: TextGame[Any, Any], label: str, result: Info | _Stopped,
    seconds: float | None = None,
) -> list[str]:
    """Return the table cells of one search result."""
    from plies.games.session import describe_value

    if isinstance(result, _Stopped):
        return [label, "-", "-", f"{result.nodes:,}", "-", "-", f"{result.seconds:.3f}",
                f"(not finished within {seconds:g} s)"]
    best = "-" if result.move is None else game.action_text(result.move)
    pv = " ".join(game.action_text(a) for a in result.pv[:_PV_SHOWN])
    if len(result.pv) > _PV_SHOWN:
        pv += " ..."
    return [
        label,
        best,
        describe_value(0.0 if result.value is None else result.value, result.exact),
        f"{result.nodes:,}",
        f"{result.cutoffs:,}",
        f"{result.tt_hits:,}",
        f"{result.time_ms / 1000:.3f}",
        pv,
    ]


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Lay out one table row: the first column left-aligned, numbers right-aligned."""
    parts = [cells[0].ljust(widths[0]), cells[1].ljust(widths[1])]
    parts += [cell.rjust(width) for cell, width in zip(cells[2:], widths[2:], strict=False)]
    parts += list(cells[len(widths) :])
    return "  ".join(parts).rstrip()
