"""Start-up time: how long until plies answers, cold (first run) and warm, beside Stockfish.

Cold means what a new user meets: a fresh copy of the package (no ``__pycache__``)
and an empty numba cache (a new temporary ``NUMBA_CACHE_DIR``), so everything
compiles. Warm means the same copy run again, its cache filled by the cold runs.
Each figure is a fresh process:

    uci      ``plies uci``: seconds to ``uciok`` and to ``readyok`` (which waits for
             the engine's compilation), beside Stockfish's ``uciok``/``readyok``
    play     ``plies play --ascii``: seconds until the board is drawn (it must not
             wait for any compilation), then, after the human's ``e4``, until the
             engine's reply is printed (that waits for the engine's compilation)
    perft    ``plies perft 4``: seconds for the whole command (perft alone must not
             wait for the search and evaluation to compile)
    board    ``python -c 'Board().legal_moves'``: the first legal-move list

Cold runs happen once per command, in the order perft, board, uci, play, each
with its own empty cache, so each pays only for its own compilation. Warm
figures are the median of ``--repeat`` runs. CPU seconds are printed beside wall
seconds, with the load average before and after, because the machine may be
shared: CPU time is the figure that other load does not inflate. ``CPU`` is the
whole command's (the process and the compile workers it starts on a cold cache,
see ``plies.engine.prewarm``); for uci and play, ``main`` is the plies process's
own CPU up to the last mark: the compile workers run beside it, so on an idle
machine with enough cores the wall time approaches the larger of ``main`` and
``CPU / cores``.

``--one-process`` adds a cold ``uci`` run with ``PLIES_NO_COMPILE_WORKERS=1``
(everything compiled in the one process, as before the workers), so the two
can be compared in the same run; ``--only uci,play`` times only those commands.

``--install`` first installs a copy of the project into a new virtual
environment (``pip install --no-deps .``, whose build compiles the engine
ahead, see ``setup.py``) and times that install and the first ``uci`` start
after it: what a user of ``pip install .`` meets.

Usage: python benchmarks/startup.py [--repeat N] [--no-cold] [--one-process] [--install]
       [--only NAMES]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from harness import (
    STOCKFISH,
    children_cpu,
    clocked,
    in_turn,
    load_average,
    machine_line,
    process_cpu,
)

SOURCE = Path(__file__).resolve().parents[1] / "src"


@dataclass(frozen=True)
class Start:
    """One timed start: the moments of interest (wall seconds) and the CPU seconds used."""

    marks: dict[str, float]
    cpu: float
    main_cpu: float | None = None


@dataclass(frozen=True)
class Step:
    """A line the command prints (its start), the mark it sets, and the line then written
    back (None: the dialogue is over)."""

    seen: str
    mark: str
    answer: str | None


# The dialogue held with each interactive command: the first line written (if any), then
# the steps in order.
DIALOGUES: dict[str, tuple[str | None, tuple[Step, ...]]] = {
    "uci": ("uci", (Step("uciok", "uciok", "isready"), Step("readyok", "readyok", None))),
    # The board's last row (White below) is drawn once nothing waits for compilation; the
    # reply to e4 waits for the engine's.
    "play": (None, (Step("1 ", "board", "e4"), Step("plies plays", "reply", None))),
}


def fresh_copy(root: Path) -> Path:
    """Copy the package sources into ``root`` without any compiled caches; return its path."""
    target = root / "src"
    shutil.copytree(SOURCE, target, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return target


_RUN_ENV = ("PYTHONPATH", "NUMBA_CACHE_DIR")
"""Variables that would make an installed plies run other sources or another cache."""


def time_install(root: Path) -> tuple[float, float, Path]:
    """Install a copy of the project into a new virtual environment as a user would.

    The environment sees this Python's packages (numba, numpy...), so only plies is
    installed (``--no-deps``); pip builds it as for any user, in an isolated build
    environment, and the build compiles the engine ahead (``setup.py``). Returns the
    wall and CPU seconds of the install and the venv's python.
    """
    project = root / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(SOURCE.parent / name, project / name)
    shutil.copytree(SOURCE, project / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))  # fmt: skip
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in _RUN_ENV}
    cpu = children_cpu()
    install = clocked(lambda: subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "."],
        cwd=project, env=env, check=True, stdout=subprocess.DEVNULL,
    ))  # fmt: skip
    return install.wall, children_cpu() - cpu, python


def environment(src: Path, cache: Path) -> dict[str, str]:
    """Environment running the copy in ``src`` with numba caching into ``cache``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src)
    env["NUMBA_CACHE_DIR"] = str(cache)
    return env


def _spawn(command: list[str], env: dict[str, str] | None) -> subprocess.Popen[str]:
    """Start ``command`` with line-buffered text pipes to its stdin and stdout."""
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, bufsize=1, env=env,
    )  # fmt: skip


def _write(proc: subprocess.Popen[str], line: str) -> None:
    """Send one line to the command."""
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def _quit(proc: subprocess.Popen[str]) -> float | None:
    """The process's own CPU seconds so far; then send ``quit`` and wait for it to end."""
    main_cpu = process_cpu(proc.pid)
    _write(proc, "quit")
    proc.wait(timeout=60)
    return main_cpu


def time_dialogue(name: str, command: list[str], env: dict[str, str] | None) -> Start:
    """Start an interactive command and hold its dialogue (``DIALOGUES[name]``): the seconds
    until each mark."""
    first, steps = DIALOGUES[name]
    cpu = children_cpu()
    start = time.perf_counter()
    proc = _spawn(command, env)
    assert proc.stdout is not None
    marks: dict[str, float] = {}
    if first is not None:
        _write(proc, first)
    pending = iter(steps)
    step: Step | None = next(pending)
    for line in proc.stdout:
        if step is not None and line.strip().startswith(step.seen):
            marks[step.mark] = time.perf_counter() - start
            if step.answer is None:
                break
            _write(proc, step.answer)
            step = next(pending, None)
    main_cpu = _quit(proc)
    if steps[-1].mark not in marks:
        raise RuntimeError(f"{' '.join(command)} never reached {steps[-1].mark}")
    return Start(marks, children_cpu() - cpu, main_cpu)


def time_run(command: list[str], env: dict[str, str] | None, name: str) -> Start:
    """Run a command to completion; its wall and CPU seconds."""
    cpu = children_cpu()
    run = clocked(lambda: subprocess.run(command, capture_output=True, text=True, env=env,
                                         check=False))
    if run.value.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {run.value.stderr.strip()}")
    return Start({name: run.wall}, children_cpu() - cpu)


def load() -> str:
    """The 1-minute load average and the core count, for the record."""
    return f"load {load_average():.1f} on {os.cpu_count()} cores"


def commands() -> dict[str, list[str]]:
    """The plies commands timed, by name."""
    python = sys.executable
    return {
        "perft": [python, "-m", "plies", "perft", "4"],
        "board": [python, "-c", "from plies.board import Board; Board().legal_moves"],
        "uci": [python, "-m", "plies", "uci"],
        "play": [python, "-m", "plies", "play", "--ascii", "--time", "0.2"],
    }


def measure(name: str, command: list[str], env: dict[str, str] | None) -> Start:
    """One timed start of a named command."""
    if name in DIALOGUES:
        return time_dialogue(name, command, env)
    return time_run(command, env, name)


def show(label: str, timing: Start, peer: Start | None = None) -> None:
    """One line: each mark in seconds (beside the peer's), then the CPU seconds."""
    parts = []
    for mark, seconds in timing.marks.items():
        text = f"{mark} {seconds:7.2f} s"
        if peer is not None and mark in peer.marks:
            text += f" (Stockfish {peer.marks[mark]:.3f} s)"
        parts.append(text)
    cpu = f"CPU {timing.cpu:6.2f} s"
    if timing.main_cpu is not None:
        cpu += f" (main {timing.main_cpu:.2f} s)"
    print(f"  {label:<12} {'   '.join(parts)}   {cpu}", flush=True)


def main() -> int:
    """Measure cold and warm starts and print them beside Stockfish's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="warm runs per command (median)")
    parser.add_argument("--no-cold", action="store_true",
                        help="skip timing the cold (compiling) runs")  # fmt: skip
    parser.add_argument("--one-process", action="store_true",
                        help="also time a cold uci start without compile workers")  # fmt: skip
    parser.add_argument("--install", action="store_true",
                        help="also time `pip install .` (which compiles ahead) and the first "
                             "uci start after it")  # fmt: skip
    parser.add_argument("--only", metavar="NAMES",
                        help=f"comma-separated commands to time (of {','.join(commands())})")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    chosen = commands()
    if args.only:
        names = [n.strip() for n in args.only.split(",")]
        unknown = [n for n in names if n not in chosen]
        if unknown:
            parser.error(f"unknown command(s) {', '.join(unknown)} (of {', '.join(chosen)})")
        chosen = {n: chosen[n] for n in names}
    stockfish = time_dialogue("uci", [STOCKFISH], None) if os.path.exists(STOCKFISH) else None
    with tempfile.TemporaryDirectory(prefix="plies-startup-") as tmp:
        root = Path(tmp)
        src = fresh_copy(root)
        shared = root / "cache"
        print(f"fresh copy of {SOURCE} in {src}; {load()}", flush=True)
        if args.install:
            wall, cpu, python = time_install(root)
            print(f"  pip install . (compiles ahead): {wall:6.1f} s wall, {cpu:6.1f} s CPU")
            env = {k: v for k, v in os.environ.items() if k not in _RUN_ENV}
            installed = time_dialogue("uci", [str(python), "-m", "plies", "uci"], env)
            show("uci after install", installed, stockfish)
        if not args.no_cold:
            print("cold (empty numba cache for each command):")
            for name, command in chosen.items():
                cache = root / f"cold-{name}"
                timing = measure(name, command, environment(src, cache))
                show(name, timing, stockfish if name == "uci" else None)
                # Later warm runs reuse what the cold runs compiled.
                shutil.copytree(cache, shared, dirs_exist_ok=True)
            if args.one_process:
                env = environment(src, root / "cold-one-process")
                env["PLIES_NO_COMPILE_WORKERS"] = "1"
                show("uci, 1 proc", time_dialogue("uci", commands()["uci"], env), stockfish)
        env = environment(src, shared)
        if args.no_cold:
            for name, command in chosen.items():
                measure(name, command, env)  # untimed: fills the cache
        print(f"warm (median of {args.repeat}; {load()}):")
        for name, command in chosen.items():
            runs = in_turn([lambda n=name, c=command: measure(n, c, env)], args.repeat)[0]
            marks = {m: runs.timing(lambda r, m=m: r.marks[m]).median
                     for m in runs.results[0].marks}
            mains = [r.main_cpu for r in runs.results if r.main_cpu is not None]
            main_cpu = statistics.median(mains) if mains else None
            show(name, Start(marks, runs.timing(lambda r: r.cpu).median, main_cpu), stockfish
                 if name == "uci" else None)  # fmt: skip
        print(f"done; {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
