#!/usr/bin/env python3
"""A tiny real UCI engine for arena tests: plays random legal moves, then misbehaves on cue.

Options: Mode (none | crash | hang | illegal | null) and After (how many of its
own moves it plays normally before misbehaving); Mate, when not 0, is the mate it reports
(``score mate N``, in moves) instead of ``score cp 0``.  Crash exits the process
abruptly, hang stops answering, illegal sends a move that is not legal, null
sends ``bestmove 0000``.

Gate (a directory) and Pass (a number) hold engines back: at its first
``isready`` an engine takes one of Pass tickets in Gate, or else waits for a
file ``release`` there before answering (a worker that is slow to start).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import chess
from toy import commands, misbehave


def _wait_at_gate(gate: Path, tickets: int) -> None:
    """Take a free ticket in ``gate`` (an atomic mkdir), or wait until ``gate/release`` exists."""
    for n in range(tickets):
        try:
            (gate / f"ticket-{n}").mkdir()
            return
        except FileExistsError:
            continue
    while not (gate / "release").exists():
        time.sleep(0.05)


def main() -> None:
    """Read UCI commands from stdin until ``quit`` or end of input."""
    mode = "none"
    after = 0
    played = 0
    rng = random.Random(1)
    board = chess.Board()
    gate: Path | None = None
    tickets = 0
    mate = 0
    for parts in commands():
        cmd = parts[0]
        if cmd == "uci":
            print("id name ToyUCI")
            print("id author plies tests")
            modes = " ".join(f"var {m}" for m in ("none", "crash", "hang", "illegal", "null"))
            print(f"option name Mode type combo default none {modes}")
            print("option name After type spin default 0 min 0 max 1000")
            print("option name Gate type string default <empty>")
            print("option name Pass type spin default 0 min 0 max 100")
            print("option name Mate type spin default 0 min -100 max 100")
            print("uciok", flush=True)
        elif cmd == "isready":
            if gate is not None:
                _wait_at_gate(gate, tickets)
                gate = None
            print("readyok", flush=True)
        elif cmd == "setoption" and "name" in parts and "value" in parts:
            name = parts[parts.index("name") + 1]
            value = parts[parts.index("value") + 1]
            if name.lower() == "mode":
                mode = value
            elif name.lower() == "after":
                after = int(value)
            elif name.lower() == "gate":
                gate = Path(value)
            elif name.lower() == "pass":
                tickets = int(value)
            elif name.lower() == "mate":
                mate = int(value)
        elif cmd == "ucinewgame":
            played = 0
        elif cmd == "position":
            if parts[1] == "startpos":
                board = chess.Board()
                rest = parts[2:]
            else:
                board = chess.Board(" ".join(parts[2:8]))
                rest = parts[8:]
            if rest and rest[0] == "moves":
                for uci in rest[1:]:
                    board.push_uci(uci)
        elif cmd == "go":
            if played >= after and mode != "none":
                misbehave(mode, {"illegal": "bestmove a1a1", "null": "bestmove 0000"},
                          exit_code=3)
                continue
            move = rng.choice(list(board.legal_moves))
            played += 1
            score = f"mate {mate}" if mate else "cp 0"
            print(f"info depth 1 score {score} nodes 1 pv " + move.uci())
            print("bestmove " + move.uci(), flush=True)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
