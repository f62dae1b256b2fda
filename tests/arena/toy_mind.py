#!/usr/bin/env python3
"""A tiny real mind program for tests: answers FENs with random legal actions, then misbehaves.

Usage: toy_mind.py [MODE [AFTER]].  MODE is none, raise (an uncaught exception:
the program dies with a traceback), illegal (an action from an empty square),
garbage (a line that is no action), die (exits at once), hang (stops answering,
without using the CPU) or resign (answers 0,0).  AFTER is how many good answers
come first.
"""

from __future__ import annotations

import os
import random
import sys
import threading

import chess


def main() -> None:
    """Answer one FEN per line until the input ends."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "none"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    rng = random.Random(7)
    answered = 0
    for line in sys.stdin:
        board = chess.Board(line.strip())
        if answered >= after and mode != "none":
            if mode == "raise":
                raise RuntimeError("the toy mind breaks on purpose")
            if mode == "die":
                os._exit(3)
            if mode == "hang":
                threading.Event().wait()
            if mode == "garbage":
                print("hello there", flush=True)
                continue
            if mode == "resign":
                print("0,0", flush=True)
                continue
            if mode == "illegal":
                empty = next(sq for sq in chess.SQUARES if board.piece_at(sq) is None)
                print(f"{empty},{(empty + 8) % 64}", flush=True)
                continue
        move = rng.choice(list(board.legal_moves))
        print(f"{move.from_square},{move.to_square}", flush=True)
        answered += 1


if __name__ == "__main__":
    main()
