"""The transposition table's memory: zeroed power-of-two tables, and prefetch."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from plies.core.tt import (
    BOUND_EXACT,
    Table,
    allocate,
    new_table,
    prefetch,
    probe,
    store,
)


@pytest.mark.parametrize("megabytes", [1, 3, 16])
def test_allocate_gives_zeroed_power_of_two_rows(megabytes: int) -> None:
    """At most ``megabytes`` MB of zeroed uint64 (check, data) rows, a power-of-two count."""
    slots = allocate(megabytes)
    assert slots.dtype == np.uint64 and slots.ndim == 2 and slots.shape[1] == 2
    n = slots.shape[0]
    assert n & (n - 1) == 0
    assert slots.nbytes <= megabytes * 1024 * 1024 < 2 * slots.nbytes
    assert not slots.any()
    slots[-1, 1] = 7  # the whole range is writable
    assert slots[-1, 1] == 7


@njit(cache=False)
def _store_prefetch_probe(table: Table, key: np.uint64) -> tuple[bool, int, int]:
    """Store an entry, prefetch its bucket, and probe it back: (hit, move, score)."""
    store(table, key, np.int64(1234), np.int64(56), np.int64(3),
          np.int64(BOUND_EXACT), np.int64(1), np.int64(10))  # fmt: skip
    prefetch(table, key)
    prefetch(table, key ^ np.uint64(0xFFFFFFFFFFFFFFFF))
    hit, move, score, _, _, _ = probe(table, key, np.int64(0))
    return hit, move, score


def test_prefetch_changes_nothing() -> None:
    """A prefetched bucket (or one never written) reads back exactly as stored."""
    table, _keys, data = new_table(1)
    key = np.uint64(0x9E3779B97F4A7C15)
    assert _store_prefetch_probe(table, key) == (True, 1234, 56)
    assert np.count_nonzero(data) == 1
