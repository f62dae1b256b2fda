"""``plies play --elo N``: the engine limited to a rating, and bad ratings refused."""

from __future__ import annotations

import os
import subprocess
import sys

import chess
from tests.cli.runs import RunCli, one_line_error

from plies.options import ELO

ENV = {**os.environ, "COLUMNS": "120"}

MIN_ELO, MAX_ELO = ELO.spin_range()


def play(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``plies play`` with ``stdin`` piped in."""
    return subprocess.run(
        [sys.executable, "-m", "plies", "play", *args],
        input=stdin, capture_output=True, text=True, timeout=300, env=ENV,
    )


def test_elo_opponent_replies_legally() -> None:
    """At 1400 the engine answers e4 with a legal move, quickly (a small node budget)."""
    proc = play("e4\nfen\nquit\n", "--elo", "1400", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    fens = [ln.strip() for ln in proc.stdout.splitlines()
            if len(ln.split()) == 6 and ln.split()[1] in ("w", "b")]
    board = chess.Board(fens[-1])
    assert board.turn == chess.WHITE and board.fullmove_number == 2


def test_bad_elo_gets_one_line(cli: RunCli) -> None:
    """A rating outside the UCI_Elo scale, or with --level, is refused with one line."""
    for args, message in ((["--elo", "900"], f"--elo must be between {MIN_ELO} and {MAX_ELO}"),
                          (["--elo", "1500", "--level", "3"], "not allowed with")):
        status, _, err = cli(["play", *args])
        one_line_error(status, err, message)
