"""The search's tunable numbers through the Engine: they change the search, and only it."""

from __future__ import annotations

import numpy as np
import pytest

from plies import Board, Engine, Limit
from plies.params import HISTORY_BONUS, PARAMS, RAZOR_MARGIN, ParamError, default_values

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1"


def _nodes(engine: Engine) -> int:
    """Nodes of a fresh depth-8 search of Kiwipete (deterministic on one thread)."""
    engine.new_game()
    return engine.search(Board(KIWIPETE), Limit(depth=8)).nodes


def test_parameters_change_the_search_and_the_defaults_restore_it(engine: Engine) -> None:
    """Wider margins and deeper reductions search another tree; the defaults the same one."""
    assert engine.search_params() == {p.name: p.default for p in PARAMS}
    before = _nodes(engine)
    engine.set_search_params({"LmrBase": 150, "FutilityMargin": 40})
    changed = _nodes(engine)
    engine.set_search_params({p.name: p.default for p in PARAMS})
    assert _nodes(engine) == before != changed


def test_set_option_takes_a_parameter_and_checks_it(engine: Engine) -> None:
    """``set_option`` accepts a parameter by name and refuses a value out of its range."""
    engine.set_option("rfpmargin", "90")
    try:
        assert engine.search_params()["RfpMargin"] == 90
        with pytest.raises(ValueError, match="between 30 and 150"):
            engine.set_option("RfpMargin", "500")
        with pytest.raises(ParamError):
            engine.set_search_params({"RfpMargin": 95, "QsearchDelta": 0})
        assert engine.search_params()["RfpMargin"] == 90  # the refused set changed nothing
    finally:
        engine.set_option("RfpMargin", PARAMS[0].default)


def test_helper_threads_search_with_the_same_parameters() -> None:
    """Threads made before or after the parameters are set read the same numbers."""
    e = Engine(hash_mb=1, threads=2)
    e.set_search_params({"HistoryBonus": 20})
    e.set_threads(3)
    e.set_search_params({"RazorMargin": 400})
    for arrays in (e._arrays, *e._helpers):
        values = arrays.arrays.params
        assert values[HISTORY_BONUS] == 20 and values[RAZOR_MARGIN] == 400
        assert np.array_equal(arrays.arrays.lmr, e._arrays.arrays.lmr)
    assert len(default_values()) == len(e._arrays.arrays.params)
