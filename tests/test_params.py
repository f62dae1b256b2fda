"""The table of search parameters: well formed, its slots, its options and its docs table."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import plies.params as params
from plies.options import OPTIONS, TUNE_OPTIONS, find_option, markdown_table
from plies.params import PARAMS, ParamError, checked_values, default_values, find_param

DOCS = Path(__file__).resolve().parents[1] / "docs" / "engine.md"


def test_every_parameter_is_well_formed() -> None:
    """Unique names (no clash with an option), defaults inside ranges, positive steps."""
    names = [p.name.lower() for p in PARAMS]
    assert len(names) == len(set(names))
    for p in PARAMS:
        assert p.minimum <= p.default <= p.maximum and p.step > 0 and p.help
        # A step of the range's size would push every perturbation to a bound.
        assert p.step < (p.maximum - p.minimum) / 2
        assert find_option(OPTIONS, p.name) is None


def test_each_slot_constant_names_its_parameter() -> None:
    """The module's upper-case slot constants cover every parameter once, in order."""
    slots = {getattr(params, n): n for n in dir(params)
             if n.isupper() and isinstance(getattr(params, n), int)}  # fmt: skip
    assert sorted(slots) == list(range(len(PARAMS)))
    for slot, constant in slots.items():
        assert constant.replace("_", "").lower() == PARAMS[slot].name.lower()


def test_checked_values() -> None:
    """Names case-insensitive, values checked against the range, others left at default."""
    values = checked_values({"rfpmargin": 90})
    assert values[params.RFP_MARGIN] == 90
    assert values[:params.RFP_MARGIN] + values[params.RFP_MARGIN + 1:] == (
        default_values()[:params.RFP_MARGIN] + default_values()[params.RFP_MARGIN + 1:])
    with pytest.raises(ParamError, match="between 30 and 150"):
        checked_values({"RfpMargin": 10})
    with pytest.raises(ParamError, match="no search parameter"):
        checked_values({"Nope": 1})
    assert find_param(" LMRBASE ") is PARAMS[params.LMR_BASE]


def test_tune_options_declare_the_parameters() -> None:
    """``plies uci --tune`` declares each as a spin with its default and range."""
    for p, o in zip(PARAMS, TUNE_OPTIONS, strict=True):
        assert o.declaration() == (
            f"option name {p.name} type spin default {p.default} min {p.minimum} max {p.maximum}")
        assert o.spin_value(str(p.maximum)) == p.maximum


def test_default_reductions_are_the_log_log_table() -> None:
    """The default LmrBase and LmrDivisor give int(0.8 + ln d ln m / 2.2)."""
    from plies.core.stack import lmr_table, new_stack

    arrays = new_stack()
    expected = np.zeros((64, 64), dtype=np.int64)
    for d in range(1, 64):
        for m in range(1, 64):
            expected[d, m] = int(0.8 + math.log(d) * math.log(m) / 2.2)
    assert np.array_equal(arrays.lmr, expected)
    assert list(arrays.params) == default_values()
    arrays.set_params(checked_values({"LmrBase": 130, "LmrDivisor": 150}))
    assert np.array_equal(arrays.lmr, lmr_table(130, 150)) and arrays.lmr[10, 10] > expected[10, 10]


def test_the_docs_table_is_the_parameter_table() -> None:
    """docs/engine.md lists the search parameters exactly as the table declares them."""
    assert "\n".join(markdown_table(TUNE_OPTIONS)) in DOCS.read_text(encoding="utf-8")
