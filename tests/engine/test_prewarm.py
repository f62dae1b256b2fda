"""Compile workers on a first run: they fill the shared cache, and the search then loads from it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.waiting import HANG_S

from plies import Engine
from plies.compile_notice import compile_notice, quiet
from plies.engine import prewarm


def test_no_workers_on_a_warm_cache() -> None:
    Engine(hash_mb=1).warm_up()
    assert not prewarm.cache_is_cold()
    assert prewarm.start_workers(prewarm.search_jobs()) == []


def test_worker_refuses_an_unknown_job(capsys: pytest.CaptureFixture[str]) -> None:
    assert prewarm.main(["everything"]) == 2
    assert "usage" in capsys.readouterr().err
    assert set(prewarm.search_jobs()) <= set(prewarm.JOBS)
    # The search calls the evaluation and the tablebase probe itself.
    assert "evaluation-and-tables" in prewarm.search_jobs()


class WatchedStream(io.StringIO):
    """A text buffer that tells when something was written to it."""

    def __init__(self) -> None:
        """An empty buffer, not yet written."""
        super().__init__()
        self.written = threading.Event()

    def write(self, text: str) -> int:
        """Keep ``text`` and signal the write."""
        count = super().write(text)
        self.written.set()
        return count


def test_quiet_silences_notices_only_while_it_runs() -> None:
    silenced, shown = io.StringIO(), WatchedStream()
    with quiet(), compile_notice("first", delay=0.0, stream=silenced):
        pass
    with compile_notice("second", delay=0.0, stream=shown):
        # The block outlasts the zero delay until the notice is written, on any machine.
        assert shown.written.wait(HANG_S)
    assert silenced.getvalue() == ""
    assert shown.getvalue() == "second\n"


# Prints the core functions compiled in the warming process itself.
_WARM = """
import numba.core.event as event
compiled = set()
class Recorder(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        compiled.add(ev.data["dispatcher"].py_func.__qualname__)
event.register("numba:compile", Recorder())
from plies.engine import Engine
Engine(hash_mb=1).warm_up()
print(" ".join(sorted(compiled)))
"""


@pytest.mark.long  # a whole compile from an empty cache, with its workers
def test_cold_warm_up_compiles_the_parts_below_the_search_in_workers(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", _WARM], env=env, capture_output=True, text=True,
                          timeout=1800, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    here = set(proc.stdout.split())
    assert "search_root" in here and "gen_moves" in here  # this process's share
    # Loaded: the workers compiled them.
    assert not {"evaluate", "probe_wdl", "output", "see_ge", "count_moves"} & here
    assert any(tmp_path.rglob("evaluate.evaluate-*.nbi"))
