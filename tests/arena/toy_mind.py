#!/usr/bin/env python3
"""A tiny real mind program for tests: answers FENs with random legal actions, then misbehaves.

Usage: toy_mind.py [MODE [AFTER]].  MODE is none, raise (an uncaught exception:
the program dies with a traceback), illegal (an action from an empty square),
garbage (a line that is no action), die (exits at once), hang (stops answering,
without using the CPU) or resign (answers 0,0).  AFTER is how many good answers
come first.
"""

from __future__ import annotations

import random

import chess
from toy import commands, cue, misbehave


def illegal_action(board: chess.Board) -> str:
    """An action from an empty square."""
    empty = next(sq for sq in chess.SQUARES if board.piece_at(sq) is None)
    return f"{empty},{(empty + 8) % 64}"


def main() -> None:
    """Answer one FEN per line until the input ends."""
    mode, after = cue()
    rng = random.Random(7)
    answered = 0
    for words in commands():
        board = chess.Board(" ".join(words))
        if answered >= after and mode != "none":
            if mode == "raise":
                raise RuntimeError("the toy mind breaks on purpose")
            misbehave(mode, {"garbage": "hello there", "resign": "0,0",
                             "illegal": illegal_action(board)}, exit_code=3)
            continue
        move = rng.choice(list(board.legal_moves))
        print(f"{move.from_square},{move.to_square}", flush=True)
        answered += 1


if __name__ == "__main__":
    main()
