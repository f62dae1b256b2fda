"""Which compiled functions a cold start compiles, in which stage, and what each costs.

Listens to numba's ``numba:compile`` events and prints, per stage (first
legal-move list, perft, the engine's warm-up), every function compiled in this
process with its wall and CPU seconds (nested compiles indented under the
function that triggered them; a function's figures include its nested ones).
Run it with an empty cache to see a first run:

    NUMBA_CACHE_DIR=$(mktemp -d) python tools/compile_profile.py [perft] [engine]

Add ``PLIES_NO_COMPILE_WORKERS=1`` to compile everything in this process (the
engine's warm-up otherwise compiles parts in worker processes, whose compiles
do not show here). numba's own helpers (``numba.*``) are left out unless
``--all`` is given. ``--sig`` adds each compile's argument types (a ``Literal``
among them is a variant compiled for a constant argument). ``--top N`` ends with
the N functions of most CPU seconds of their own (nested compiles left out),
every compile of a name summed; ``--json FILE`` saves those sums, and

    python tools/compile_profile.py --compare OLD.json NEW.json [--top N]

prints two saved runs side by side (for instance an older commit's sources on
``PYTHONPATH`` against today's).
"""

from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import dataclass, field

import numba.core.event as event

from plies.blas import answer_blas_probe

answer_blas_probe()  # as every plies process: numba's BLAS probe imports no SciPy


def cpu_seconds() -> float:
    """User + system CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Compile:
    """One finished compile: its nesting depth, function, arguments and costs."""

    depth: int
    name: str
    args: str
    wall: float
    cpu: float
    own_cpu: float


@dataclass
class Open:
    """A compile under way: its start clocks and what its nested compiles cost so far."""

    wall: float
    cpu: float
    nested_cpu: float = 0.0


@dataclass
class Recorder(event.Listener):  # type: ignore[misc]
    """Collects every compile event, keeping the stage's list and the run's sums."""

    open: list[Open] = field(default_factory=list)
    records: list[Compile] = field(default_factory=list)
    own: dict[str, list[float]] = field(default_factory=dict)
    """Per function: [compiles, own CPU seconds, CPU seconds with nested ones] of the run."""

    def on_start(self, ev: event.Event) -> None:
        """A compile begins: note the clocks."""
        self.open.append(Open(time.perf_counter(), cpu_seconds()))

    def on_end(self, ev: event.Event) -> None:
        """A compile ends: record what it cost, and what of it was its own."""
        started = self.open.pop()
        cpu = cpu_seconds() - started.cpu
        if self.open:
            self.open[-1].nested_cpu += cpu
        func = ev.data["dispatcher"].py_func
        name = f"{func.__module__}.{func.__qualname__}"
        args = ", ".join(short_type(a) for a in ev.data["args"])
        own = cpu - started.nested_cpu
        wall = time.perf_counter() - started.wall
        self.records.append(Compile(len(self.open), name, args, wall, cpu, own))
        sums = self.own.setdefault(name, [0, 0.0, 0.0])
        sums[0] += 1
        sums[1] += own
        sums[2] += cpu


def short_type(numba_type: object) -> str:
    """A type as numba prints it, a structure by its class name alone (its fields are long)."""
    text = str(numba_type)
    return type(numba_type).__name__ if "(('" in text else text


def top_table(own: dict[str, list[float]], n: int) -> list[str]:
    """The ``n`` functions of most own CPU seconds, as aligned lines."""
    rows = sorted(own.items(), key=lambda item: -item[1][1])[:n]
    lines = [f"{'function':60} {'compiles':>8} {'own CPU s':>10} {'with nested':>12}"]
    for name, (count, own_cpu, cpu) in rows:
        lines.append(f"{name:60} {int(count):8d} {own_cpu:10.2f} {cpu:12.2f}")
    return lines


def compare(old_path: str, new_path: str, n: int) -> list[str]:
    """Two saved runs side by side: the ``n`` functions of most own CPU in either."""
    with open(old_path) as f:
        old: dict[str, list[float]] = json.load(f)["own"]
    with open(new_path) as f:
        new: dict[str, list[float]] = json.load(f)["own"]
    names = set(old) | set(new)
    ranked = sorted(names, key=lambda k: -max(old.get(k, [0, 0.0])[1], new.get(k, [0, 0.0])[1]))
    lines = [f"{'function (own CPU s, compiles)':58} {'old':>12} {'new':>12} {'new-old':>8}"]
    for name in ranked[:n]:
        o, w = old.get(name, [0, 0.0]), new.get(name, [0, 0.0])
        cells = [f"{c[1]:7.2f} ({int(c[0])})" if c[0] else "-" for c in (o, w)]
        lines.append(f"{name:58} {cells[0]:>12} {cells[1]:>12} {w[1] - o[1]:+8.2f}")
    total_old = sum(v[1] for v in old.values())
    total_new = sum(v[1] for v in new.values())
    lines.append(f"{'every compiled function':58} {total_old:12.2f} {total_new:12.2f} "
                 f"{total_new - total_old:+8.2f}")  # fmt: skip
    return lines


def option(name: str, default: str) -> str:
    """The value after ``--name`` on the command line, or ``default``."""
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def main() -> int:
    """Run the stages named on the command line and print what each compiled."""
    top = int(option("--top", "0"))
    if "--compare" in sys.argv:
        at = sys.argv.index("--compare")
        print("\n".join(compare(sys.argv[at + 1], sys.argv[at + 2], top or 15)))
        return 0
    valued = {sys.argv.index(o) + 1 for o in ("--top", "--json") if o in sys.argv}
    stages = [a for i, a in enumerate(sys.argv[1:], 1)
              if not a.startswith("--") and i not in valued]  # fmt: skip
    show_all = "--all" in sys.argv
    show_sig = "--sig" in sys.argv
    recorder = Recorder()
    event.register("numba:compile", recorder)
    clock = [time.perf_counter(), cpu_seconds()]
    totals: dict[str, list[float]] = {}

    def report(stage: str) -> None:
        """Print the stage's totals and its compiles (in the order they finished)."""
        wall, cpu = time.perf_counter() - clock[0], cpu_seconds() - clock[1]
        totals[stage] = [wall, cpu]
        print(f"== {stage}: wall {wall:.2f} s, CPU {cpu:.2f} s", flush=True)
        for r in recorder.records:
            if show_all or not r.name.startswith("numba."):
                sig = f"  ({r.args})" if show_sig else ""
                print(f"   {'  ' * r.depth}{r.name}  wall {r.wall:.2f} s  CPU {r.cpu:.2f} s{sig}")
        recorder.records.clear()
        clock[:] = [time.perf_counter(), cpu_seconds()]

    from plies.board import Board, perft

    board = Board()
    board.legal_moves  # noqa: B018  # the first legal-move list compiles the generator
    report("first legal-move list")
    if "perft" in stages:
        perft(board, 3)
        report("perft")
    if "engine" in stages:
        from plies.engine import Engine

        Engine(16).warm_up()
        report("engine warm-up")
    if top:
        print("\n".join(top_table(recorder.own, top)))
    if "--json" in sys.argv:
        with open(option("--json", ""), "w") as f:
            json.dump({"stages": totals, "own": recorder.own}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
