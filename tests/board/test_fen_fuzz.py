"""Seeded FEN fuzzing against python-chess (the short run of benchmarks/fuzz_fen.py).

Random and mutated FENs: plies must refuse exactly those python-chess cannot
parse or calls unplayable under the shared rule set, with a one-line
InvalidFenError, and must give python-chess's legal moves and FEN for the rest.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz_fen.py"


def _load() -> ModuleType:
    """Import the fuzzer from the benchmarks directory (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("fuzz_fen", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzzed_fens_agree_with_python_chess(seed: int) -> None:
    """1,500 FENs per seed: no mismatch, and every kind of verdict occurs."""
    tally = _load().fuzz(1500, seed)
    assert tally.mismatches == []
    assert tally.counts["accepted"] > 200
    assert tally.counts["refused (unplayable)"] > 200
    assert tally.counts["refused (syntax)"] > 20
    assert tally.counts["crashed"] == 0


def test_fuzzer_catches_an_accepted_unplayable_fen() -> None:
    """The checker itself flags a FEN plies would wrongly accept (here: judged directly)."""
    fuzz = _load()
    verdict = fuzz.judge("QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1")
    assert verdict.kind == "unplayable"
    assert fuzz.judge("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").kind == "playable"
    assert fuzz.judge("4k3/8/8/8/8/8/8/4K3 w Q - 0 1").kind == "unplayable"
    assert fuzz.judge("not a fen").kind == "syntax"
