"""Soak ``plies serve``: several browsers' worth of clients for minutes, on loopback only.

Each simulated browser opens a Play tab (random moves for the player, the engine
answering at ``--movetime``, a new game every 40 plies or at the end), an Analyse tab
(the opening of a real game from ``benchmarks/games``, 20 ms a position: every position
must get its verdict and every analysis must end) and sends Paths and Games requests
over HTTP now and then. A watcher polls ``/api/status`` all along.

At the end it prints latency percentiles per kind of request, beside the same
``/api/status`` latency measured on the idle server first (the peer: what the load
costs), peak memory of the server and its PGN workers, and counts of what was started
and what finished. Anything lost (a search without its move, an analysis without all
its verdicts, an unanswered request) makes the exit status 1.

The server is ``plies serve`` on 127.0.0.1 (its default); the run is bounded by
``--minutes`` (at most 60) and ``--browsers`` (at most 8: two tabs each, 16 at most).

    python3 benchmarks/web_soak.py [--minutes 2] [--browsers 4] [--movetime 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import httpx
from websockets.sync.client import connect

from harness import machine_line
from plies.web.launch import start_serve

GAMES = Path(__file__).parent / "games"
MAX_MINUTES = 60.0
MAX_BROWSERS = 8
#: Longest wait for any one reply before it counts as lost.
REPLY_TIMEOUT_S = 120.0
NEW_GAME_AFTER = 40
ANALYSIS_MOVETIME_MS = 20
IDLE_STATUS_SAMPLES = 200


class Record:
    """Latencies per kind, and counts of what started and what finished (thread-safe)."""

    def __init__(self) -> None:
        """Empty."""
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.count: dict[str, int] = defaultdict(int)
        self.problems: list[str] = []

    def time(self, kind: str, seconds: float) -> None:
        """Note one latency."""
        with self.lock:
            self.latency[kind].append(seconds * 1000)

    def add(self, name: str, n: int = 1) -> None:
        """Count ``name``."""
        with self.lock:
            self.count[name] += n

    def problem(self, text: str) -> None:
        """Note something lost or wrong."""
        with self.lock:
            self.problems.append(text)


def openings(limit: int = 60) -> list[list[str]]:
    """Move lists (UCI) of real games, to paste into the Analyse tab."""
    games: list[list[str]] = []
    for path in sorted(GAMES.glob("*.pgn.xz")):
        with lzma.open(path, "rt") as handle:
            while len(games) < limit:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                games.append([m.uci() for m in game.mainline_moves()])
        if len(games) >= limit:
            break
    if not games:
        raise SystemExit(f"no games found in {GAMES}")
    return games


def pgn_of(moves: list[str]) -> str:
    """A PGN of ``moves`` from the start."""
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    for uci in moves:
        node = node.add_main_variation(chess.Move.from_uci(uci))
    return str(game)


def receive(ws: Any, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next message ``accept`` takes (others are skipped); TimeoutError when none comes."""
    deadline = time.monotonic() + REPLY_TIMEOUT_S
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if accept(message):
            return message


def of(kind: str, channel: str = "play") -> Callable[[dict[str, Any]], bool]:
    """A test for messages of type ``kind`` on ``channel``."""
    return lambda m: m.get("type") == kind and m.get("channel", "play") == channel


def play_tab(url: str, record: Record, stop: threading.Event, rng: random.Random,
             movetime: int) -> None:  # fmt: skip
    """A player making random moves against the engine until ``stop``."""
    with connect(url.replace("http", "ws") + "ws", max_size=None) as ws:
        receive(ws, of("state"))
        ws.send(json.dumps({"type": "settings", "movetime": movetime}))
        receive(ws, of("state"))
        ws.send(json.dumps({"type": "new", "engine": "black"}))
        state = receive(ws, of("state"))
        while not stop.is_set():
            if state["outcome"] or len(state["moves"]) >= NEW_GAME_AFTER:
                ws.send(json.dumps({"type": "new", "engine": "black"}))
                state = receive(ws, of("state"))
                record.add("games")
                continue
            before = len(state["moves"])
            started = time.perf_counter()
            ws.send(json.dumps({"type": "move", "uci": rng.choice(state["legal"])}))
            state = receive(ws, of("state"))
            record.time("ws move -> state", time.perf_counter() - started)
            if len(state["moves"]) != before + 1:
                record.problem(f"a move was not played: {before} -> {len(state['moves'])}")
            if not state["outcome"] and state["turn"] == state["engine"]:
                record.add("searches started")
                asked = time.perf_counter()
                receive(ws, of("engine_move"))
                record.time("engine reply (move time + wait for a slot)",
                            time.perf_counter() - asked)  # fmt: skip
                record.add("searches finished")
                state = receive(ws, of("state"))


def analyse_tab(url: str, record: Record, stop: threading.Event, rng: random.Random,
                games: list[list[str]]) -> None:  # fmt: skip
    """Analyses of real openings, one after another, each checked for completeness."""
    with connect(url.replace("http", "ws") + "ws", max_size=None) as ws:
        receive(ws, of("state"))
        while not stop.is_set():
            game = rng.choice(games)
            moves = game[: rng.randint(8, min(40, len(game)))]
            started = time.perf_counter()
            request = {"channel": "analyse", "type": "analyse", "pgn": pgn_of(moves),
                       "movetime": ANALYSIS_MOVETIME_MS}  # fmt: skip
            ws.send(json.dumps(request))
            record.add("analyses started")
            head = receive(ws, lambda m: m.get("channel") == "analyse"
                           and m.get("type") in ("analysis", "error"))  # fmt: skip
            if head["type"] == "error":
                record.problem(f"analysis refused: {head['message']}")
                continue
            record.time("ws analyse -> PGN read", time.perf_counter() - started)
            seen: set[int] = set()
            while True:
                message = receive(ws, lambda m: m.get("channel") == "analyse"
                                  and m.get("type") in ("eval", "analysis_done"))  # fmt: skip
                if message["type"] == "analysis_done":
                    break
                seen.add(message["index"])
            record.time("whole analysis", time.perf_counter() - started)
            if message["stopped"] or seen != set(range(len(head["fens"]))):
                record.problem(f"analysis of {len(moves)} plies lost verdicts: "
                               f"{len(seen)} of {len(head['fens'])}")  # fmt: skip
            else:
                record.add("analyses finished")
                record.add("positions analysed", len(seen))


def http_client(url: str, record: Record, stop: threading.Event, rng: random.Random) -> None:
    """Paths and Games requests, one every half second or so."""
    with httpx.Client(base_url=url, timeout=REPLY_TIMEOUT_S) as client:
        while not stop.is_set():
            if rng.random() < 0.5:
                kind = "http games/move"
                body: dict[str, Any] = {"game": "connect4", "algorithm": "alphabeta",
                                        "moves": [rng.randrange(7) for _ in range(4)],
                                        "seconds_tenths": 2}  # fmt: skip
                path = "/api/games/move"
            else:
                kind = "http paths/search"
                maze = client.post(
                    "/api/paths/generate",
                    json={"width": 41, "height": 25, "seed": rng.randrange(1000)},
                )
                rows = maze.json()["rows"]
                body = {"rows": rows, "start": [1, 1], "goal": [39, 23], "algorithm": "astar"}
                path = "/api/paths/search"
            started = time.perf_counter()
            response = client.post(path, json=body)
            record.add("http requests")
            if response.status_code == 503:
                record.add("http busy answers")
            elif response.status_code not in (200, 400):
                record.problem(f"{path} answered {response.status_code}: {response.text[:100]}")
            else:
                record.time(kind, time.perf_counter() - started)
            stop.wait(rng.uniform(0.2, 0.8))


def watch_status(url: str, record: Record, stop: threading.Event, kind: str) -> None:
    """Poll /api/status every 50 ms until ``stop``."""
    with httpx.Client(timeout=REPLY_TIMEOUT_S) as client:
        client.get(url + "api/status")
        while not stop.is_set():
            started = time.perf_counter()
            answer = client.get(url + "api/status").json()
            record.time(kind, time.perf_counter() - started)
            with record.lock:
                record.count["most searches at once"] = max(
                    record.count["most searches at once"], answer["searching"]
                )
            stop.wait(0.05)


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (the PGN workers)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _kib(pid: int, field: str) -> int:
    """A ``/proc/PID/status`` field in KiB (0 if the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def watch_memory(pid: int, peaks: dict[str, int], stop: threading.Event) -> None:
    """Sample the resident memory of the server and its children twice a second."""
    while not stop.is_set():
        children = _children(pid)
        total = _kib(pid, "VmRSS") + sum(_kib(c, "VmRSS") for c in children)
        peaks["total"] = max(peaks.get("total", 0), total)
        peaks["workers"] = max(peaks.get("workers", 0), len(children))
        stop.wait(0.5)
    peaks["server_hwm"] = _kib(pid, "VmHWM")


def percentiles(values: list[float]) -> str:
    """``n, p50, p90, p99, max`` of ``values`` in ms."""
    if len(values) < 2:
        return f"n={len(values)}"
    q = statistics.quantiles(values, n=100, method="inclusive")
    return (f"n={len(values):6d}  p50 {q[49]:8.1f}  p90 {q[89]:8.1f}  p99 {q[98]:8.1f}  "
            f"max {max(values):8.1f} ms")  # fmt: skip


def guarded(name: str, record: Record, func: Callable[..., None], *args: Any) -> Callable[[], None]:
    """``func(*args)`` with anything it raises noted as a problem (a lost reply, a crash)."""

    def run() -> None:
        """Run and note failures."""
        try:
            func(*args)
        except TimeoutError:
            record.problem(f"{name}: no reply within {REPLY_TIMEOUT_S:g} s")
        except Exception as exc:
            record.problem(f"{name}: {type(exc).__name__}: {exc}")

    return run


def main() -> int:
    """Start the server, measure it idle, load it for ``--minutes``, report."""
    parser = argparse.ArgumentParser(description="soak plies serve with several browsers")
    parser.add_argument("--minutes", type=float, default=2.0, help="load duration (max 60)")
    parser.add_argument("--browsers", type=int, default=4, help="simulated browsers (max 8)")
    parser.add_argument("--movetime", type=int, default=100, help="engine ms per Play move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    if not 0 < args.minutes <= MAX_MINUTES or not 1 <= args.browsers <= MAX_BROWSERS:
        parser.error(f"--minutes must be in (0, {MAX_MINUTES:g}], --browsers in 1..{MAX_BROWSERS}")
    games = openings()
    process, url = start_serve()
    if not url.startswith("http://127.0.0.1:"):
        process.terminate()
        raise SystemExit(f"refusing to soak a server that is not on loopback: {url}")
    record = Record()
    peaks: dict[str, int] = {}
    try:
        with httpx.Client(timeout=10) as client:
            client.get(url + "api/status")
            for _ in range(IDLE_STATUS_SAMPLES):
                started = time.perf_counter()
                client.get(url + "api/status")
                record.time("status, idle server (peer)", time.perf_counter() - started)
                time.sleep(0.01)
        stop = threading.Event()
        rng = random.Random(args.seed)
        threads = [threading.Thread(target=watch_memory, args=(process.pid, peaks, stop)),
                   threading.Thread(target=guarded("status", record, watch_status, url, record,
                                                   stop, "status, under load"))]  # fmt: skip
        for b in range(args.browsers):
            seeded = [random.Random(rng.random()) for _ in range(3)]
            threads += [
                threading.Thread(target=guarded(f"play {b}", record, play_tab, url, record, stop,
                                                seeded[0], args.movetime)),
                threading.Thread(target=guarded(f"analyse {b}", record, analyse_tab, url, record,
                                                stop, seeded[1], games)),
                threading.Thread(target=guarded(f"http {b}", record, http_client, url, record,
                                                stop, seeded[2])),
            ]  # fmt: skip
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        stop.wait(args.minutes * 60)
        stop.set()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        final = httpx.get(url + "api/status", timeout=10).json()
    finally:
        process.terminate()
        process.wait()
    print(f"plies serve soak: {args.browsers} browsers (Play + Analyse tabs + HTTP) for "
          f"{elapsed / 60:.1f} min, engine {args.movetime} ms a move, "
          f"{final['slots']} search slots, {os.cpu_count()} cores")  # fmt: skip
    for kind in sorted(record.latency):
        print(f"  {kind:44s} {percentiles(record.latency[kind])}")
    idle = statistics.median(record.latency["status, idle server (peer)"])
    loaded = statistics.median(record.latency["status, under load"])
    print(f"  status median under load / idle: {loaded / idle:.2f}")
    for name in sorted(record.count):
        print(f"  {name:44s} {record.count[name]}")
    print(f"  peak memory: server {peaks.get('server_hwm', 0) / 1024:.0f} MB (VmHWM); server "
          f"and PGN workers together {peaks.get('total', 0) / 1024:.0f} MB (sampled), "
          f"at most {peaks.get('workers', 0)} workers")  # fmt: skip
    lost = (record.count["searches started"] - record.count["searches finished"]
            + record.count["analyses started"] - record.count["analyses finished"])  # fmt: skip
    print(f"  tabs still open at the end: {final['tabs']}, searches running: {final['searching']}")
    for problem in record.problems:
        print(f"  PROBLEM: {problem}")
    print(f"  lost: {lost} (searches or analyses started without their results)")
    return 0 if lost == 0 and not record.problems else 1


if __name__ == "__main__":
    sys.exit(main())
