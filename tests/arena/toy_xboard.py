#!/usr/bin/env python3
"""A tiny real xboard (CECP) engine for tests: random legal moves, then misbehaves on cue.

Usage: toy_xboard.py [MODE [AFTER]].  MODE is none, illegal (a move that is not
legal), garbage (``move hello``), die (exits), hang (stops answering, without
using the CPU), resign, or claim (claims a win it has not got).  AFTER is how
many good moves come first.  No ``setboard`` unless MODE is ``setboard``.
"""

from __future__ import annotations

import random

import chess
from toy import commands, cue, misbehave


def main() -> None:
    """Speak CECP on stdin/stdout until ``quit``."""
    mode, after = cue()
    rng = random.Random(5)
    board = chess.Board()
    played = 0
    for words in commands():
        cmd = words[0]
        if cmd == "protover":
            setboard = 1 if mode == "setboard" else 0
            print(f'feature myname="ToyXboard" ping=1 setboard={setboard} usermove=1 '
                  'option="Style -combo calm /// wild" done=1', flush=True)
        elif cmd == "new":
            board = chess.Board()
        elif cmd == "setboard":
            board = chess.Board(" ".join(words[1:]))
        elif cmd == "usermove":
            board.push_uci(words[1])
        elif cmd == "ping":
            print(f"pong {words[1]}", flush=True)
        elif cmd == "go":
            if played >= after and mode not in ("none", "setboard"):
                claim = "1-0 {I say so}" if board.turn else "0-1 {I say so}"
                misbehave(mode, {"illegal": "move a1a1", "garbage": "move hello",
                                 "resign": "resign", "claim": claim}, exit_code=5)
                continue
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            played += 1
            print(f"1 12 0 20 {move.uci()}", flush=True)
            print(f"move {move.uci()}", flush=True)
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
