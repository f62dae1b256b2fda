"""The global search slots: at most ``limit`` at once, first come first served, a bounded
line for HTTP requests, and nothing held by those who gave up."""

from __future__ import annotations

import asyncio

import pytest
from tests.web.conftest import run_async

from plies.web.slots import BusyError, Lease, SearchSlots


def test_slots_are_granted_in_order_and_handed_on() -> None:
    """Two slots, four asking: two now, the others in order as slots come back."""
    slots = SearchSlots(2)
    granted: list[tuple[str, Lease]] = []
    for name in "abcd":
        slots.request(lambda lease, name=name: granted.append((name, lease)), bounded=False)
    assert [name for name, _ in granted] == ["a", "b"] and slots.waiting == 2
    granted[1][1].release()
    granted[1][1].release()  # a second release changes nothing
    assert [name for name, _ in granted] == ["a", "b", "c"] and slots.active == 2
    granted[0][1].release()
    granted[2][1].release()
    assert [name for name, _ in granted] == ["a", "b", "c", "d"]
    assert slots.active == 1 and slots.peak == 2


def test_a_withdrawn_request_is_never_granted() -> None:
    """Leaving the line before a slot frees means the slot goes to the next one."""
    slots = SearchSlots(1)
    first: list[Lease] = []
    slots.request(first.append)
    late: list[Lease] = []
    ticket = slots.request(late.append)
    slots.withdraw(ticket)
    first[0].release()
    assert not late and slots.active == 0 and slots.waiting == 0


def test_a_full_line_answers_busy_but_tabs_always_get_in() -> None:
    """Bounded requests beyond ``max_waiting`` are refused; unbounded ones still wait."""
    slots = SearchSlots(1, max_waiting=1)
    slots.request(lambda lease: None)
    slots.request(lambda lease: None)
    with pytest.raises(BusyError) as busy:
        slots.request(lambda lease: None)
    assert busy.value.status == 503
    slots.request(lambda lease: None, bounded=False)
    assert slots.waiting == 2


def test_acquire_waits_and_a_cancelled_wait_holds_nothing() -> None:
    """``acquire`` waits for a free slot; a waiter that times out leaves the line."""

    async def scenario() -> None:
        """Hold the only slot, time out one waiter, then let another through."""
        slots = SearchSlots(1)
        held = await slots.acquire()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(slots.acquire(), 0.05)
        assert slots.waiting == 0
        waiter = asyncio.ensure_future(slots.acquire())
        await asyncio.sleep(0)
        held.release()
        lease = await asyncio.wait_for(waiter, 1.0)
        lease.release()
        assert slots.active == 0

    run_async(scenario())
