"""The phased first compile: two parts at a time (one in a worker), each phase loading
the ones before from the cache."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
from pathlib import Path

import pytest

from plies import Engine
from plies.engine import ahead, prewarm


def test_nothing_compiles_in_phases_on_a_warm_cache() -> None:
    Engine(hash_mb=1).warm_up()
    assert not prewarm.cache_is_cold()


def test_worker_refuses_an_unknown_job(capsys: pytest.CaptureFixture[str]) -> None:
    assert prewarm.main(["everything"]) == 2
    assert "usage" in capsys.readouterr().err


def test_every_phase_names_known_jobs_each_once() -> None:
    jobs = [job for phase in prewarm.PHASES for job in phase.jobs]
    assert set(jobs) == set(prewarm.JOBS) and len(jobs) == len(set(jobs))
    # The search needs everything below it: it compiles in the last phase.
    assert prewarm.PHASES[-1].jobs[0] == "search"


def test_ahead_on_a_warm_cache_says_it_only_loads() -> None:
    Engine(hash_mb=1).warm_up()
    done = subprocess.run([sys.executable, "-m", "plies.engine.ahead"], capture_output=True,
                          text=True, timeout=600, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "compiled already" in done.stderr and "(1/" not in done.stderr
    assert ahead.step(2, 4, "x") == "compiling x (2/4)..."


# Prints the functions compiled in the warming process itself, one line each.
_WARM = """
import numba.core.event as event
class Recorder(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        print(ev.data["dispatcher"].py_func.__qualname__)
event.register("numba:compile", Recorder())
from plies.engine import Engine
Engine(hash_mb=1).warm_up()
"""


@pytest.mark.long  # a whole compile from an empty cache, with its workers
def test_cold_warm_up_compiles_each_part_once_half_of_them_in_workers(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", _WARM], env=env, capture_output=True, text=True,
                          timeout=1800, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    here = collections.Counter(proc.stdout.split())
    # This process's share: the moves, the tablebase probe, the search.
    assert {"gen_moves", "probe_wdl", "_negamax", "search_root"} <= set(here)
    # The workers': the evaluation, quiescence, perft; loaded here from the cache.
    workers = {"evaluate", "output", "probe_table", "see_ge", "_qsearch",
               "count_moves", "_perft"}  # fmt: skip
    assert not workers & set(here)
    # Nothing twice: one move generator for the board, the probe and the search alike.
    assert here["_generate"] == 1 and here["gen_moves"] == 1 and here["_negamax"] == 1
    assert any(tmp_path.rglob("evaluate.evaluate-*.nbi"))
