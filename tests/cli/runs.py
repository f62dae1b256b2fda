"""Running ``plies`` in the command-line tests: in this process or as a user does, the check
that an error is one line with exit status 2, and Ctrl-C pressed at a chosen moment."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Protocol

from tests.waiting import HANG_S, wait_until

ENV = {**os.environ, "COLUMNS": "200"}
"""A wide terminal, so no table of a command is folded."""


class RunCli(Protocol):
    """The ``cli`` fixture: run ``plies ARGV`` in this process with ``stdin`` as typed input;
    return the exit status, stdout and stderr."""

    def __call__(self, argv: list[str], stdin: str = "") -> tuple[int, str, str]:
        """Run ``plies ARGV``."""
        ...


def plies(*args: str, cwd: Path | None = None, stdin: str = "",
          timeout: float = HANG_S) -> subprocess.CompletedProcess[str]:
    """Run ``python -m plies ARGS`` as a user does; ``timeout`` only turns a hang into a failure."""
    return subprocess.run([sys.executable, "-m", "plies", *args], capture_output=True, text=True,
                          timeout=timeout, env=ENV, cwd=cwd, input=stdin)  # fmt: skip


def in_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``plies ARGS`` in this process, ``stdin`` as typed input, and return what
    :func:`plies` would: the same status and output, without a new interpreter's start."""
    from plies.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    typed, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as exc:  # argparse's refusal, as the shell would see it
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = typed
    return subprocess.CompletedProcess(["plies", *args], status, out.getvalue(), err.getvalue())


def one_line_error(status: int, err: str, *fragments: str) -> str:
    """The one stderr line of a command that failed with status 2; it holds every fragment."""
    lines = err.strip().splitlines()
    assert status == 2, (status, err)
    assert len(lines) == 1, err
    assert all(text in lines[0] for text in fragments), (fragments, lines[0])
    return lines[0]


def start(*args: str) -> subprocess.Popen[str]:
    """Start ``python -m plies ARGS`` with no input; a hang prints every thread's stack."""
    return subprocess.Popen(
        [sys.executable, "-m", "plies", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**ENV, "PYTHONFAULTHANDLER": "1"}, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def ctrl_c_when(proc: subprocess.Popen[str], ready: Callable[[], bool],
                what: str) -> tuple[str, str]:
    """Press Ctrl-C once ``ready()`` while the command still runs; its stdout and stderr.

    A command that has ended before is a failure; one that does not exit after Ctrl-C is
    aborted (SIGABRT: the stacks of its threads) and fails with its stderr. The process is
    never left running."""
    try:
        wait_until(lambda: proc.poll() is not None or ready(), what)
        assert proc.poll() is None, "it ended before Ctrl-C: " + proc.communicate()[1]
        proc.send_signal(signal.SIGINT)
        try:
            stdout, stderr = proc.communicate(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            stderr = proc.communicate(timeout=HANG_S)[1]
            raise AssertionError("no exit after Ctrl-C:\n" + stderr[-6000:]) from None
        return stdout, stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def sprt_wdl(out: str, pairs: int) -> tuple[int, int, int]:
    """The new build's wins, draws and losses in a ``plies sprt`` report, after checking that
    its ``pairs`` game pairs by points scored add up to the same score."""
    counts = re.search(r"2 points: (\d+) / (\d+) / (\d+) / (\d+) / (\d+)", out)
    assert counts is not None and sum(int(c) for c in counts.groups()) == pairs, out
    wdl = re.search(r"W-D-L \(new\): (\d+)-(\d+)-(\d+)", out)
    assert wdl is not None, out
    wins, draws, losses = (int(x) for x in wdl.groups())
    assert sum(i * 0.5 * int(c) for i, c in enumerate(counts.groups())) == wins + 0.5 * draws
    return wins, draws, losses
