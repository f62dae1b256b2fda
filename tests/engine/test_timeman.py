"""The time manager on simulated clocks: thousands of bullet moves, the clock never below zero.

A pure-Python model of a game: before each move the engine gets the clock (as
a GUI sends it, in whole milliseconds), the budget decides soft and hard
limits, the search uses some of it (anything up to the hard ceiling), and the
move then loses up to ``loss`` more outside the search (stop latency, the
pipe, the client's own work, as a client timing around ``go`` sees it) before
the increment is added.  On this machine the whole round trip of a ``go`` that
searches almost nothing, timed by python-chess, was 0.9-1.7 ms median and
under 5 ms at the 90th percentile, under load.
"""

from __future__ import annotations

import math
import random

import pytest

from plies.engine.engine import DEFAULT_MOVE_OVERHEAD_MS
from plies.engine.limits import Limit
from plies.engine.timeman import NODE_SCALE_DEPTH, allocate, clock_budget, node_scale

GAMES = 10
MOVES_PER_GAME = 300  # per side: far longer than the games that lost on time (ply 191-230)
SPIKE_CHANCE = 0.01  # one move in a hundred loses a spike on top (load, a pause)


def lowest_clock(
    base_ms: float, inc_ms: float, loss_ms: float, spike_ms: float, adversarial: bool, seed: int
) -> float:
    """The lowest clock after any simulated move (before its increment) over all games."""
    rng = random.Random(seed)
    lowest = math.inf
    for _ in range(GAMES):
        clock = base_ms
        for _ in range(MOVES_PER_GAME):
            budget = clock_budget(max(1, math.floor(clock)), inc_ms, None, DEFAULT_MOVE_OVERHEAD_MS)
            assert budget.soft_ms is not None and budget.hard_ms is not None
            if adversarial:
                think = budget.hard_ms  # every search runs into the hard ceiling
            else:
                # Iterations end around the soft target, often well past it.
                think = min(budget.hard_ms, budget.soft_ms * rng.uniform(0.2, 4.0))
            loss = rng.uniform(0.0, loss_ms) + (spike_ms if rng.random() < SPIKE_CHANCE else 0.0)
            clock -= think + loss
            lowest = min(lowest, clock)
            if clock <= 0:
                return lowest
            clock += inc_ms
    return lowest


@pytest.mark.parametrize("adversarial", [False, True])
@pytest.mark.parametrize(
    ("base_ms", "inc_ms", "loss_ms", "spike_ms"),
    [
        (1000.0, 10.0, 5.0, 50.0),  # 1+0.01, up to 5 ms lost per move, now and then 50 ms
        (1000.0, 10.0, 9.0, 0.0),  # ... nearly the whole increment lost on every move
        (100.0, 1.0, 0.5, 5.0),  # 0.1+0.001: the usual loss must stay below the increment
    ],
)
def test_clock_never_drains(
    base_ms: float, inc_ms: float, loss_ms: float, spike_ms: float, adversarial: bool
) -> None:
    """3,000 simulated moves per case: the clock never reaches zero."""
    assert lowest_clock(base_ms, inc_ms, loss_ms, spike_ms, adversarial, seed=9) > 0


def test_the_old_probe_now_fits_the_increment() -> None:
    """300 ms left, 10 ms increment: soft target within the increment, hard far below 82 ms."""
    budget = clock_budget(300.0, 10.0, None, DEFAULT_MOVE_OVERHEAD_MS)
    assert budget.soft_ms is not None and budget.hard_ms is not None
    assert budget.soft_ms <= 10.0
    assert budget.hard_ms <= 0.15 * 300.0


def test_overhead_is_reserved_for_every_move_to_go() -> None:
    """Each ms of overhead costs the soft target about a ms (not a ms spread over the game)."""
    cheap = clock_budget(10_000.0, 100.0, None, 0.0).soft_ms
    dear = clock_budget(10_000.0, 100.0, None, 50.0).soft_ms
    assert cheap is not None and dear is not None
    assert cheap - dear >= 50.0


def test_bullet_still_thinks() -> None:
    """The budget is not safe by playing instantly: a 1+0.01 game opens with 15+ ms per move."""
    budget = clock_budget(1000.0, 10.0, None, DEFAULT_MOVE_OVERHEAD_MS)
    assert budget.soft_ms is not None and budget.soft_ms >= 15.0
    assert lowest_clock(1000.0, 10.0, 5.0, 0.0, adversarial=False, seed=1) > 20.0


def test_last_move_before_the_control_may_use_most_of_the_clock() -> None:
    """``movestogo 1``: the hard ceiling is most of the clock, still short of all of it."""
    budget = clock_budget(10_000.0, 0.0, 1, 10.0)
    assert budget.hard_ms is not None and 5_000.0 < budget.hard_ms < 10_000.0 - 10.0


def test_allocate_reads_the_side_to_move_and_the_special_limits() -> None:
    """White's clock for White, Black's for Black; movetime and infinite as UCI says."""
    limit = Limit(wtime=60_000, btime=1_000, winc=0, binc=0)
    white = allocate(limit, True, 10).soft_ms
    black = allocate(limit, False, 10).soft_ms
    assert white is not None and black is not None and white > 10 * black
    assert allocate(Limit(movetime=500), True, 10).hard_ms == 490.0
    assert allocate(Limit(infinite=True, wtime=5), True, 10).hard_ms is None
    assert allocate(Limit(depth=5), True, 10).hard_ms is None
    # Only the opponent's clock: ours is taken to be the same, never an unlimited search.
    assert allocate(Limit(btime=1_000), True, 10).hard_ms == allocate(limit, False, 10).hard_ms
    # A GUI may send a negative clock (the overdraft): the budget is tiny, never negative.
    tiny = allocate(Limit(wtime=-50, btime=-50), True, 10)
    assert tiny.hard_ms is not None and 0 <= tiny.hard_ms <= 1.0


def test_the_clock_starts_when_go_was_read() -> None:
    """``started_at`` anchors the search's clock: time before the search began is counted."""
    import time

    from plies import Board, Engine

    engine = Engine(hash_mb=1)
    engine.warm_up()
    start = time.perf_counter() - 0.5  # as if ``go`` had been read half a second ago
    engine.start(Board(), Limit(movetime=700), started_at=start)
    result = engine.wait()
    assert result is not None and result.score is not None
    assert result.time_ms >= 500  # reported from the anchor, not from the thread start


def test_slow_mover_scales_the_soft_target() -> None:
    """Slow Mover 150 aims at 1.5 times the planned share, inside the same caps."""
    plain = clock_budget(60_000.0, 500.0, None, DEFAULT_MOVE_OVERHEAD_MS)
    slow = clock_budget(60_000.0, 500.0, None, DEFAULT_MOVE_OVERHEAD_MS, 1.5)
    assert plain.soft_ms is not None and slow.soft_ms is not None
    assert slow.soft_ms == pytest.approx(1.5 * plain.soft_ms)
    assert slow.hard_ms is not None and slow.hard_ms <= 0.5 * 60_000.0
    huge = clock_budget(60_000.0, 500.0, None, DEFAULT_MOVE_OVERHEAD_MS, 10.0)
    assert huge.soft_ms == pytest.approx(0.2 * 60_000.0)  # the clock-share cap still holds
    limit = Limit(wtime=60_000, btime=60_000, winc=500, binc=500)
    assert allocate(limit, True, DEFAULT_MOVE_OVERHEAD_MS, 150) == slow


def test_node_scale_gives_a_settled_best_move_less_time() -> None:
    """The more of the root's nodes the best move took, the smaller the factor; shallow
    or empty searches leave the soft target alone."""
    settled = node_scale(95, 100, 10)
    contested = node_scale(30, 100, 10)
    assert settled < 1.0 < contested
    assert node_scale(50, 100, 10) > settled
    assert node_scale(95, 100, NODE_SCALE_DEPTH - 1) == 1.0
    assert node_scale(0, 0, 10) == 1.0
    assert node_scale(5, 0, 10) == 1.0


def test_the_search_reports_the_best_moves_share_of_nodes() -> None:
    """After a search the main thread's counters hold the best move's nodes and the
    last root search's nodes, the first no more than the second."""
    from plies import Board, Engine

    engine = Engine()
    engine.search(Board(), Limit(depth=8))
    counts = engine._arrays.counts()
    assert 0 < counts.best_nodes <= counts.root_nodes <= counts.nodes
