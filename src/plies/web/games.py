"""Tic-tac-toe and connect four over JSON: the page sends the moves so far, the server
replays them (checking each), answers with the position, the computer's move and its counts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Sequence
from typing import Any

from plies.games import Connect4, Solver, TicTacToe
from plies.games.algorithms import SEARCHES, make_player
from plies.games.protocol import Game
from plies.web.errors import ApiError
from plies.web.fields import get_choice, get_optional_int

GAMES = ("tictactoe", "connect4")
ALGORITHMS = SEARCHES.builtin_names()
#: Longest move list a page may send (connect four has 42 cells).
MAX_MOVES = 64
MAX_SECONDS_TENTHS = 100
MAX_PLAYOUTS = 50_000
#: Connect four is far too big for minimax to the end: it gets this depth unless told.
CONNECT4_MINIMAX_DEPTH = 4
CONNECT4_MINIMAX_MAX_DEPTH = 7
#: Iterative deepening's time per move when none is given.
DEFAULT_SECONDS = 1.0
#: Longest any search runs, whatever it was asked (minimax to the end, 50,000 playouts...).
CAP_SECONDS = 10.0
#: The clock is read once per this many nodes (reading it costs more than a node).
CLOCK_EVERY = 256

_TICTACTOE = TicTacToe()
_CONNECT4 = Connect4()
_SOLVER = Solver(_TICTACTOE)
_SOLVER_LOCK = threading.Lock()


class OutOfTimeError(Exception):
    """A search ran past its deadline."""


class TimedGame:
    """A game whose positions stop the search once its time is up.

    Every search asks ``is_terminal`` at every node, so that is where the clock is read
    (once per ``CLOCK_EVERY`` calls); past the deadline it raises ``OutOfTimeError``.
    Searches with a budget of their own (iterative deepening, MCTS) stop before that.
    """

    def __init__(self, game: Game[Any, int], seconds: float) -> None:
        """Wrap ``game`` with a deadline ``seconds`` from now."""
        self.game = game
        self.deadline = time.perf_counter() + seconds
        self._calls = 0

    def is_terminal(self, state: Any) -> bool:
        """The wrapped answer, or ``OutOfTimeError`` once the time is up."""
        self._calls += 1
        if self._calls % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise OutOfTimeError
        return self.game.is_terminal(state)

    def initial_state(self) -> Any:
        """The wrapped game's start."""
        return self.game.initial_state()

    def to_move(self, state: Any) -> int:
        """The wrapped game's player to move."""
        return self.game.to_move(state)

    def actions(self, state: Any) -> Sequence[int]:
        """The wrapped game's legal actions."""
        return self.game.actions(state)

    def result(self, state: Any, action: int) -> Any:
        """The wrapped game's next state."""
        return self.game.result(state, action)

    def utility(self, state: Any, player: int) -> float:
        """The wrapped game's final value."""
        return self.game.utility(state, player)

    def evaluate(self, state: Any, player: int) -> float:
        """The wrapped game's heuristic value."""
        return self.game.evaluate(state, player)

    def key(self, state: Any) -> Hashable:
        """The wrapped game's table key."""
        return self.game.key(state)

    def render(self, state: Any) -> str:
        """The wrapped game's picture of ``state``."""
        return self.game.render(state)


def _game(data: dict[str, Any]) -> Game[Any, int]:
    """The game a request names."""
    name = get_choice(data, "game", GAMES, "tictactoe")
    return _TICTACTOE if name == "tictactoe" else _CONNECT4


def replay(game: Game[Any, int], data: dict[str, Any]) -> Any:
    """The state after the request's ``moves`` (a list of actions), each checked."""
    moves = data.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise ApiError(f"'moves' must be a list of at most {MAX_MOVES} moves")
    state = game.initial_state()
    for i, action in enumerate(moves):
        if isinstance(action, bool) or not isinstance(action, int):
            raise ApiError(f"move {i + 1} must be an integer")
        if action not in game.actions(state):
            raise ApiError(f"move {i + 1} ({action}) is not legal there")
        state = game.result(state, action)
    return state


def _cells(game: Game[Any, int], state: Any) -> list[list[int]]:
    """The board as rows from the top: 0 empty, 1 for the first player, 2 for the second."""
    marks = {".": 0, "X": 1, "O": 2}
    if isinstance(game, TicTacToe):
        flat = list(state.cells)
        return [flat[r * game.width : (r + 1) * game.width] for r in range(game.height)]
    lines = game.render(state).splitlines()[:-1]  # the last line numbers the columns
    return [[marks[token] for token in line.split()] for line in lines]


def position(game: Game[Any, int], state: Any) -> dict[str, Any]:
    """What the page draws: cells, who moves, legal moves and how the game ended."""
    terminal = game.is_terminal(state)
    winner = None
    if terminal:
        value = game.utility(state, 0)
        winner = 0 if value > 0 else 1 if value < 0 else None
    return {
        "cells": _cells(game, state),
        "to_move": game.to_move(state),
        "legal": list(game.actions(state)),
        "terminal": terminal,
        "winner": winner,
    }


def state(data: dict[str, Any]) -> dict[str, Any]:
    """The position after the given moves."""
    game = _game(data)
    return position(game, replay(game, data))


def computer_move(data: dict[str, Any], cap_s: float = CAP_SECONDS) -> dict[str, Any]:
    """The computer's move with the chosen search, its value and its node counts.

    No search runs longer than ``cap_s``: the timed ones (iterative deepening, MCTS) get
    at most that budget, and any other is stopped there with an error.
    """
    game = _game(data)
    current = replay(game, data)
    if game.is_terminal(current):
        raise ApiError("the game is over")
    algorithm = get_choice(data, "algorithm", ALGORITHMS, "alphabeta")
    depth = get_optional_int(data, "depth", 1, 42)
    tenths = get_optional_int(data, "seconds_tenths", 1, MAX_SECONDS_TENTHS)
    seconds = None if tenths is None else min(tenths / 10.0, cap_s)
    playouts = get_optional_int(data, "playouts", 1, MAX_PLAYOUTS)
    if isinstance(game, Connect4) and algorithm in ("minimax", "negamax"):
        depth = CONNECT4_MINIMAX_DEPTH if depth is None else depth
        if depth > CONNECT4_MINIMAX_MAX_DEPTH:
            raise ApiError(
                f"{algorithm} on connect four: depth at most {CONNECT4_MINIMAX_MAX_DEPTH}"
            )
    if algorithm == "alphabeta" and seconds is None and isinstance(game, Connect4):
        seconds = DEFAULT_SECONDS
    if algorithm == "mcts" and seconds is None and playouts is None:
        playouts = 2000
    if algorithm in ("alphabeta", "mcts") and seconds is None:
        seconds = cap_s
    player = make_player(algorithm, depth=depth, seconds=seconds, playouts=playouts)
    # A search with a budget of its own gets a little beyond it (it should stop on its own
    # first); one without is stopped at the cap itself.
    deadline_s = cap_s if seconds is None else cap_s + 1.0
    try:
        result = player.search(TimedGame(game, deadline_s), current)
    except OutOfTimeError:
        raise ApiError(
            f"{algorithm} did not finish within {cap_s:g} s: choose a smaller depth"
        ) from None
    if result.move is None:
        raise ApiError("the search found no move")
    after = game.result(current, result.move)
    return {
        "action": result.move,
        "value": result.value,
        "exact": result.exact,
        "nodes": result.nodes,
        "cutoffs": result.cutoffs,
        "tt_hits": result.tt_hits,
        "depth": result.depth,
        "playouts": result.iterations,
        "seconds": result.time_ms / 1000,
        "pv": list(result.pv),
        "position": position(game, after),
    }


def solve(data: dict[str, Any]) -> dict[str, Any]:
    """Tic-tac-toe solved exactly: the value for the side to move and every best move."""
    if get_choice(data, "game", GAMES, "tictactoe") != "tictactoe":
        raise ApiError("only tic-tac-toe can be solved here")
    current = replay(_TICTACTOE, data)
    with _SOLVER_LOCK:
        value, plies = _SOLVER.solve(current)
        best = [] if _TICTACTOE.is_terminal(current) else _SOLVER.best_actions(current)
        solved = len(_SOLVER)
    verdict = "win" if value > 0 else "loss" if value < 0 else "draw"
    return {
        "value": value,
        "verdict": verdict,
        "plies": plies,
        "best": best,
        "positions_solved": solved,
        "to_move": _TICTACTOE.to_move(current),
    }
