"""Forks in a loop; every process forks again; the first raises what stopped it."""

import os
import time


def choose(board):
    first = os.getpid()
    try:
        while True:
            os.fork()
    except OSError as exc:
        if os.getpid() == first:
            raise RuntimeError(f"refused: {type(exc).__name__}: {exc}") from None
    time.sleep(3600)  # the forked copies wait to be killed with the sandbox
