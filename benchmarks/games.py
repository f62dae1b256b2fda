"""Generic game search beside the Python peers: alpha-beta and MCTS, same run, same positions.

Peers (the ``bench`` extra): OpenSpiel's Python ``minimax.alpha_beta_search`` and
``mcts.MCTSBot`` (over OpenSpiel's C++ game states) and easyAI's ``Negamax`` (its own
Python games). Every search is plain alpha-beta in the library's natural move order, no
transposition table, so "nodes" means the same thing everywhere: states the search
entered. Nodes are counted in a separate run (a counting wrapper costs time); the
timed runs count nothing and the least CPU time of ``--repeat`` runs is kept.

* tic-tac-toe, the whole game from the empty board (each finds the draw);
* connect four after 4 4 3 5, to a fixed depth (10) with every non-final state scored 0 (each
  finds the same value; nodes differ only by move order);
* MCTS from the empty board of each game: random playouts, one per iteration.

    python benchmarks/games.py                  # all of it, about a minute
    python benchmarks/games.py --depth 7 --simulations 5000 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness import clocked, in_turn, machine_line, ratio_text
from plies.games.alphabeta import alphabeta
from plies.games.connect4 import Connect4
from plies.games.mcts import mcts
from plies.games.spec import play_line
from plies.games.tictactoe import TicTacToe

# The connect-four position searched to a fixed depth (columns from 1).
C4_LINE = "4 4 3 5"


def best_time(func: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Return the least CPU time of ``repeat`` runs of ``func`` and that run's answer.

    CPU time, not wall time: on a shared machine the wall clock also counts other work.
    """
    fastest = in_turn([lambda: clocked(func)], repeat)[0].best(lambda run: run.cpu)
    return fastest.cpu, fastest.value


def counted_calls(owner: Any, name: str, search: Callable[[], object]) -> int:
    """How often one run of ``search`` calls ``owner.name`` (the recursion's own function),
    wrapped by a counter for that run only (the count costs time: the timed runs go bare)."""
    calls = 0
    inner = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        """Count, then call."""
        nonlocal calls
        calls += 1
        return inner(*args, **kwargs)

    setattr(owner, name, counting)
    try:
        search()
    finally:
        setattr(owner, name, inner)
    return calls


@dataclass(frozen=True)
class Row:
    """One search's line of a table: who, the value found, nodes and CPU seconds."""

    name: str
    value: float
    nodes: int
    seconds: float

    def text(self) -> str:
        """The row as printed, with nodes per second."""
        return (f"  {self.name:34} {self.value:>7.3f} {self.nodes:>11,} {self.seconds:>9.3f} "
                f"{self.nodes / self.seconds:>12,.0f}")


def table(rows: list[Row]) -> None:
    """Print the rows, then how much less CPU time plies (the first) took than each peer."""
    for r in rows:
        print(r.text())
    ours = rows[0].seconds
    print("  plies faster: " + ", ".join(
        ratio_text(ours, r.seconds, r.name.split()[0], higher_is_better=False) for r in rows[1:]))


# --- plies ---------------------------------------------------------------------------


def plies_ttt(repeat: int) -> Row:
    """plies's alpha-beta on the whole of tic-tac-toe."""
    game = TicTacToe()
    seconds, result = best_time(lambda: alphabeta(game, game.initial_state()), repeat)
    return Row("plies alphabeta", result.value, result.nodes, seconds)


def plies_c4(depth: int, repeat: int) -> Row:
    """plies's alpha-beta on the connect-four position, every non-final state scored 0."""
    game = _ZeroConnect4()
    state = play_line(game, C4_LINE)
    seconds, result = best_time(lambda: alphabeta(game, state, depth), repeat)
    return Row(f"plies alphabeta depth {depth}", result.value, result.nodes, seconds)


class _ZeroConnect4(Connect4):
    """Connect four with no heuristic, as the peers search it."""

    def evaluate(self, state: Any, player: int) -> float:
        """Know nothing."""
        return 0.0


def plies_mcts(game: Any, simulations: int, repeat: int) -> tuple[float, int]:
    """Return plies's MCTS seconds for ``simulations`` playouts, and the playouts done."""
    state = game.initial_state()
    seconds, result = best_time(
        lambda: mcts(game, state, simulations, rng=random.Random(1)), repeat
    )
    return seconds, result.iterations


# --- OpenSpiel -----------------------------------------------------------------------


def openspiel_alpha_beta(name: str, line: list[int], depth: int, repeat: int) -> Row:
    """OpenSpiel's Python alpha-beta from the state ``line`` reaches, to ``depth``."""
    import pyspiel
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for action in line:
        state.apply_action(action)
    player = state.current_player()

    def search() -> tuple[float, int]:
        """Run the search, value for the player to move."""
        value, _ = minimax.alpha_beta_search(
            game, state.clone(), value_function=lambda s: 0.0, maximum_depth=depth,
            maximizing_player_id=player,
        )
        return value, 0

    # Nodes: every call of the recursive helper is one state entered.
    nodes = counted_calls(minimax, "_alpha_beta", search)
    seconds, (value, _) = best_time(search, repeat)
    return Row(f"OpenSpiel alpha_beta_search d{depth}", value, nodes, seconds)


def openspiel_mcts(name: str, simulations: int, repeat: int) -> float:
    """Return OpenSpiel MCTSBot's seconds for one search of ``simulations`` playouts."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as os_mcts

    game = pyspiel.load_game(name)

    def search() -> None:
        """One search from the initial state."""
        evaluator = os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
        bot = os_mcts.MCTSBot(game, 2.0, simulations, evaluator, solve=False,
                              random_state=np.random.RandomState(1))
        bot.mcts_search(game.new_initial_state())

    seconds, _ = best_time(search, repeat)
    return seconds


# --- easyAI --------------------------------------------------------------------------


def easyai_search(game_name: str, moves: list[int], depth: int, repeat: int) -> Row:
    """easyAI's Negamax (alpha-beta) from the position ``moves`` reaches, to ``depth``."""
    import importlib

    from easyAI import AI_Player
    from easyAI.AI.Negamax import Negamax
    from easyAI.games import ConnectFour, TicTacToe

    def fresh() -> Any:
        """The game at the position."""
        cls = TicTacToe if game_name == "tictactoe" else ConnectFour
        game = cls([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
        for move in moves:
            game.make_move(move)
            game.switch_player()
        return game

    def search() -> float:
        """Run the search; the value for the player to move, scaled to [-1, 1]."""
        ai = Negamax(depth)
        ai(fresh())
        return float(ai.alpha) / 100.0

    module = importlib.import_module("easyAI.AI.Negamax")  # the recursion calls its global
    nodes = counted_calls(module, "negamax", search)
    seconds, value = best_time(search, repeat)
    return Row(f"easyAI Negamax d{depth}", value, nodes, seconds)


def main(argv: list[str] | None = None) -> int:
    """Run every comparison and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="connect-four depth (default 10)")
    parser.add_argument("--simulations", type=int, default=2000, help="MCTS playouts")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs, best kept")
    args = parser.parse_args(argv)
    print(machine_line(), flush=True)

    header = f"  {'search':34} {'value':>7} {'nodes':>11} {'seconds':>9} {'nodes/s':>12}"
    print("tic-tac-toe, whole game (value for X: 0, a draw)")
    print(header)
    table([plies_ttt(args.repeat), openspiel_alpha_beta("tic_tac_toe", [], 9, args.repeat),
           easyai_search("tictactoe", [], 9, args.repeat)])

    print(f"\nconnect four after {C4_LINE}, depth {args.depth}, non-final states 0")
    print(header)
    columns = [int(c) - 1 for c in C4_LINE.split()]
    table([plies_c4(args.depth, args.repeat),
           openspiel_alpha_beta("connect_four", columns, args.depth, args.repeat),
           easyai_search("connect4", columns, args.depth, args.repeat)])

    print(f"\nMCTS from the empty board, {args.simulations:,} playouts a search")
    print(f"  {'game':14} {'plies s':>9} {'plies /s':>10} {'OpenSpiel s':>12} {'OpenSpiel /s':>13}"
          f"  plies faster")
    for label, game, name in (("tic-tac-toe", TicTacToe(), "tic_tac_toe"),
                              ("connect four", Connect4(), "connect_four")):
        ours, done = plies_mcts(game, args.simulations, args.repeat)
        theirs = openspiel_mcts(name, args.simulations, args.repeat)
        print(f"  {label:14} {ours:9.3f} {done / ours:10,.0f} {theirs:12.3f} "
              f"{args.simulations / theirs:13,.0f}  {ratio_text(ours, theirs, 'OpenSpiel', False)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
