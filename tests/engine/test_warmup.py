"""``Engine.warm_up`` compiles (or loads) everything a game needs: nothing is compiled on the clock.

A lazily compiled function costs seconds the first time a process reaches it
(tens of milliseconds even from numba's cache): in a bullet game that is a
loss on time.  ``tt.probe`` from Python (the ponder move) and undoing a move
were once first reached mid-game.
"""

from __future__ import annotations

import importlib
import pkgutil

from numba.core.registry import CPUDispatcher

import plies.core
from plies import Board, Engine, Limit

POSITIONS = (
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate: nothing to search
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",  # mate in one
)


def _signatures() -> dict[str, int]:
    """How many compiled signatures every dispatcher of ``plies.core`` holds."""
    counts: dict[str, int] = {}
    for info in pkgutil.iter_modules(plies.core.__path__):
        module = importlib.import_module(f"plies.core.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher):
                counts[f"{info.name}.{name}"] = len(obj.signatures)
    return counts


def test_games_compile_nothing_after_warm_up() -> None:
    """Searches of every kind, results, ponder moves and undo after warm_up add no signature."""
    Board()
    engine = Engine(hash_mb=2)
    engine.warm_up()
    before = _signatures()
    for fen in POSITIONS:
        board = Board(fen)
        for limit in (Limit(depth=4), Limit(nodes=3000), Limit(wtime=40, btime=40, winc=1)):
            result = engine.search(board, limit)
            if result.move is not None:
                engine._hash_reply(board, result.move)
                board.push(result.move)
                board.pop()
    engine.set_threads(2)
    engine.search(Board(POSITIONS[0]), Limit(nodes=20_000))
    after = _signatures()
    assert {k: (before.get(k), v) for k, v in after.items() if before.get(k) != v} == {}
