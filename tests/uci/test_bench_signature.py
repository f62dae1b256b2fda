"""The ``plies bench`` node count at its default depth: the engine's behaviour signature."""

from __future__ import annotations

import pytest

from plies.engine.nets import DEFAULT_NET_ENV
from plies.uci.bench import DEFAULT_DEPTH, run_bench

BENCH_SIGNATURE = 1_385_724
"""Nodes of ``plies bench`` (depth ``DEFAULT_DEPTH``, the packaged net). A change that
alters the search or the evaluation changes it: update it then, and say so in the commit."""


def test_bench_signature_is_pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default bench searches exactly the pinned number of nodes."""
    monkeypatch.delenv(DEFAULT_NET_ENV, raising=False)  # the packaged net, as a user gets it
    assert DEFAULT_DEPTH == 13
    assert run_bench().nodes == BENCH_SIGNATURE
