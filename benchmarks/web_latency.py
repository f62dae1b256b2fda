"""``plies serve`` over its websocket beside the same work done in process.

1. Move request: the time from sending a move to receiving the new state (engine off,
   so no thinking is counted; each move is taken back before the next), against
   applying the move and building the same state in process (``WebPlaySession``, no server).
2. Info rate: engine reports per second reaching the browser's socket during a timed
   search, against ``Engine.search`` called directly with the same limit.

    python3 benchmarks/web_latency.py [--moves 200] [--movetime 3000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from websockets.sync.client import connect

from harness import machine_line
from plies.board import Board
from plies.engine import Engine, Limit
from plies.web.launch import start_serve
from plies.web.play import WebPlaySession

# The moves timed, each taken back (untimed) before the next.
MOVES = ("e2e4", "g1f3", "d2d4", "b1c3")


def receive(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``."""
    while True:
        message = json.loads(ws.recv())
        if message.get("type") == kind:
            return message


def server_move_times(url: str, moves: int) -> list[float]:
    """Milliseconds from sending each move to receiving the state that shows it."""
    times = []
    with connect(url.replace("http", "ws") + "ws", max_size=None) as ws:
        receive(ws, "state")
        ws.send(json.dumps({"type": "new", "engine": "none"}))
        receive(ws, "state")
        for i in range(moves):
            t0 = time.perf_counter()
            ws.send(json.dumps({"type": "move", "uci": MOVES[i % len(MOVES)]}))
            receive(ws, "state")
            times.append((time.perf_counter() - t0) * 1000)
            ws.send(json.dumps({"type": "undo"}))
            receive(ws, "state")
    return times


def local_move_times(moves: int) -> list[float]:
    """Milliseconds for the same moves and states built in process."""
    session = WebPlaySession(lambda message: None, lambda func: func())
    session.handle({"type": "new", "engine": "none"})
    times = []
    for i in range(moves):
        t0 = time.perf_counter()
        session.handle({"type": "move", "uci": MOVES[i % len(MOVES)]})
        times.append((time.perf_counter() - t0) * 1000)
        session.handle({"type": "undo"})
    return times


def server_info_rate(url: str, movetime: int) -> tuple[int, float]:
    """Info messages received during one engine move of ``movetime`` ms, and the seconds."""
    with connect(url.replace("http", "ws") + "ws", max_size=None) as ws:
        receive(ws, "state")
        ws.send(json.dumps({"type": "settings", "movetime": movetime}))
        receive(ws, "state")
        t0 = time.perf_counter()
        ws.send(json.dumps({"type": "go"}))
        count = 0
        while True:
            message = json.loads(ws.recv())
            if message["type"] == "info":
                count += 1
            elif message["type"] == "engine_move":
                return count, time.perf_counter() - t0


def local_info_rate(movetime: int) -> tuple[int, float]:
    """Info callbacks of ``Engine.search`` with the same limit, and the seconds."""
    engine = Engine(hash_mb=8)
    count = 0

    def on_info(info: object) -> None:
        """Count."""
        nonlocal count
        count += 1

    t0 = time.perf_counter()
    engine.search(Board(), Limit(movetime=movetime), on_info=on_info)
    return count, time.perf_counter() - t0


def main() -> int:
    """Measure and print both comparisons."""
    parser = argparse.ArgumentParser(description="plies serve latency and info rate")
    parser.add_argument("--moves", type=int, default=200, help="move requests to time")
    parser.add_argument("--movetime", type=int, default=3000, help="ms for the info-rate search")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    Engine(hash_mb=1).warm_up()
    process, url = start_serve()
    try:
        served = server_move_times(url, args.moves)
        local = local_move_times(args.moves)
        s_med, l_med = statistics.median(served), statistics.median(local)
        s_p95 = statistics.quantiles(served, n=20)[-1]
        print(f"move request, median over {args.moves}: server {s_med:.2f} ms (p95 {s_p95:.2f}),"
              f" in process {l_med:.2f} ms, ratio {s_med / l_med:.2f}")  # fmt: skip
        s_count, s_secs = server_info_rate(url, args.movetime)
        l_count, l_secs = local_info_rate(args.movetime)
        s_rate, l_rate = s_count / s_secs, l_count / l_secs
        print(f"info rate, {args.movetime} ms search from the start: server {s_count} infos in "
              f"{s_secs:.2f} s = {s_rate:.1f}/s, in process {l_count} in {l_secs:.2f} s = "
              f"{l_rate:.1f}/s, ratio {s_rate / l_rate:.2f}")  # fmt: skip
    finally:
        process.terminate()
        process.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
