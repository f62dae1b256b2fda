"""Lazy SMP: helper threads share the one transposition table, and ``nodes`` bounds all threads."""

from __future__ import annotations

import tracemalloc

import pytest
from tests.waiting import wait_until

from plies import Board, Engine, Limit
from plies.engine.smp import node_shares

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"


def _tables(engine: Engine) -> list[object]:
    """The table arrays of the main thread and of every helper."""
    arrays = [engine._arrays, *engine._helpers]
    return [a.tt_keys for a in arrays] + [a.tt_data for a in arrays]


def test_helpers_use_the_very_same_table() -> None:
    """Every helper holds the main thread's arrays themselves, also after a resize."""
    engine = Engine(hash_mb=4, threads=3)
    main = engine._arrays
    for helper in engine._helpers:
        assert helper.tt_keys is main.tt_keys and helper.tt_data is main.tt_data
    engine.set_hash(2)
    assert engine._arrays.tt_keys.nbytes + engine._arrays.tt_data.nbytes == 2 * 1024 * 1024
    for helper in engine._helpers:
        assert helper.tt_keys is engine._arrays.tt_keys
        assert helper.tt_data is engine._arrays.tt_data


def test_more_threads_cost_no_table_memory() -> None:
    """Going from 1 to 4 threads with a 64 MB table allocates well under one more table."""
    engine = Engine(hash_mb=64)
    tracemalloc.start()
    try:
        engine.set_threads(4)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert engine.threads == 4
    # Three helpers' own stacks (about 3.5 MB each, 2 MB of it continuation history),
    # not 3 x 64 MB of table.
    assert peak < 16 * 1024 * 1024


def test_threads_fill_one_table() -> None:
    """What a two-thread search stores is found through the main thread's table afterwards."""
    engine = Engine(hash_mb=4, threads=2)
    # Until the helper has searched, not for a time or a depth: a short search can end
    # before a loaded machine has scheduled the helper thread at all.
    engine.start(Board(MIDDLEGAME), Limit(infinite=True))
    try:
        wait_until(lambda: engine._helpers[0].counts().nodes > 0, "the helper searched")
    finally:
        engine.stop()
        engine.wait()
    assert int((engine._arrays.tt_data != 0).sum()) > 0


@pytest.mark.parametrize("nodes", [1, 2, 3, 100, 1_000, 1_500, 20_000, 123_457])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_go_nodes_bounds_the_total_over_threads(threads: int, nodes: int) -> None:
    """The nodes of all threads together never exceed the limit; one thread uses it exactly."""
    engine = Engine(hash_mb=4, threads=threads)
    result = engine.search(Board(MIDDLEGAME), Limit(nodes=nodes))
    total = engine.nodes_searched()
    assert total <= nodes
    assert result.nodes <= nodes
    assert result.move is not None
    if threads == 1 and nodes >= 1_000:
        assert total == nodes  # a middlegame search never ends early at these budgets


def test_node_shares_add_up() -> None:
    """The split gives every thread its share and the main thread the remainder."""
    assert node_shares(10, 3) == [4, 3, 3]
    assert node_shares(7, 1) == [7]
    for nodes in range(1, 50):
        for threads in range(1, 6):
            shares = node_shares(nodes, threads)
            assert sum(shares) == nodes and len(shares) == threads


def test_a_table_larger_than_memory_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking for more than the machine has raises and keeps the old table."""
    from plies.engine import engine as engine_module

    engine = Engine(hash_mb=2)
    before = engine._arrays.tt_keys
    monkeypatch.setattr(engine_module, "available_megabytes", lambda: 100)
    with pytest.raises(ValueError, match="more than the 100 MB available"):
        engine.set_hash(512)
    assert engine._arrays.tt_keys is before and engine.hash_mb == 2
    engine.set_hash(64)  # within what is available (plus the table it replaces)
    assert engine.hash_mb == 64


def test_available_memory_is_read() -> None:
    """On Linux the available memory is known and positive."""
    from plies.engine.state import available_megabytes

    available = available_megabytes()
    assert available is None or available > 0
