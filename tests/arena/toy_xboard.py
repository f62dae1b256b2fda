#!/usr/bin/env python3
"""A tiny real xboard (CECP) engine for tests: random legal moves, then misbehaves on cue.

Usage: toy_xboard.py [MODE [AFTER]].  MODE is none, illegal (a move that is not
legal), garbage (``move hello``), die (exits), hang (stops answering, without
using the CPU), resign, or claim (claims a win it has not got).  AFTER is how
many good moves come first.  No ``setboard`` unless MODE is ``setboard``.
"""

from __future__ import annotations

import os
import random
import sys
import threading

import chess


def main() -> None:
    """Speak CECP on stdin/stdout until ``quit``."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "none"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    rng = random.Random(5)
    board = chess.Board()
    played = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
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
                if mode == "die":
                    os._exit(5)
                if mode == "hang":
                    threading.Event().wait()
                reply = {"illegal": "move a1a1", "garbage": "move hello", "resign": "resign",
                         "claim": "1-0 {I say so}" if board.turn else "0-1 {I say so}"}[mode]
                print(reply, flush=True)
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
