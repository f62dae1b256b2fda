"""An honest mind that checks no compiled function of plies was compiled in its process."""

import sys


def choose(board):
    from numba.core.dispatcher import Dispatcher

    compiled = [f"{name}.{attr}" for name, module in list(sys.modules.items())
                if name.startswith("plies.") for attr, value in list(vars(module).items())
                if isinstance(value, Dispatcher) and sum(value.stats.cache_misses.values())]
    if compiled:
        raise RuntimeError("compiled in the sandbox: " + ", ".join(sorted(compiled)[:5]))
    return board.legal_moves[0]
