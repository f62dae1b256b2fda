"""The open list of the compiled searches: a heap of distinct keys, each with a list of nodes.

This is the readable best-first search's open list (``heapq`` of distinct
priorities plus a LIFO list per priority) laid out over arrays, so the
compiled searches pop nodes in exactly the readable order by construction.
Pushing a node whose key is already open is O(1) -- the common case in A*,
where most new nodes keep the current f -- and only a new key touches the
heap of keys.  Entries are never updated: a search pushes a node again when
its cost improves and skips stale entries as they surface (lazy deletion),
again like the readable versions.  Each list pops newest first (``lifo``)
or oldest first (the bidirectional search's counter order).

Layout, for a queue of capacity ``C`` (see ``new_queue``):

==========  =========================================================
``ints``    int64[C, 5]: entry node, entry next, list head, list tail,
            and the bucket id of each heap slot
``reals``   float64[C, 2]: the key of each bucket, the key of each slot
``table``   int64[2C rounded up to a power of two]: key -> bucket id,
            open addressing with linear probing (-1 = empty)
``state``   int64[8]: heap size, entry top, free entry, bucket top,
            free bucket, overflow flag, last bucket used,
            1 for newest-first lists (0: oldest first)
==========  =========================================================

The hot paths -- popping an entry that is not the last of its key, and
pushing a recycled entry under the key of the last push or the smallest key
-- are written out inside each kernel (``FAST PATH`` comments), calling
``queue_pop`` / ``queue_push`` only for the rest.  numba cannot do that
itself: a call or an ``inline="always"`` helper that takes arrays costs
atomic reference-count updates per call, measured at ~70 ns per push+pop
against ~2 ns written out (2026-11-26, this machine).

Entries and buckets are recycled through free lists; ``queue_clear`` empties
a queue in time proportional to the keys still open, so a reused queue
costs nothing per query.  A push that finds no
free entry sets the overflow flag and does nothing; the caller then grows
the queue (``new_queue`` with twice the capacity) and runs the search again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NODE, NEXT, HEAD, TAIL, SLOT = 0, 1, 2, 3, 4
BUCKET_KEY, SLOT_KEY = 0, 1
HEAP_SIZE, ENTRY_TOP, FREE_ENTRY, BUCKET_TOP, FREE_BUCKET, OVERFLOW, LAST, LIFO = range(8)

# Keys are hashed from their value times 2**32 (the priorities are multiples of
# 2**-32 after rounding), mixed by a 64-bit odd constant (Fibonacci hashing).
_KEY_SCALE = 4294967296.0
_MIX = np.int64(-7046029254386353131)


def new_queue(
    capacity: int, lifo: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Arrays for an empty queue of up to ``capacity`` entries, newest first if ``lifo``."""
    capacity = max(16, capacity)
    table_size = 1
    while table_size < 2 * capacity:
        table_size *= 2
    ints = np.zeros((capacity, 5), np.int64)
    reals = np.full((capacity, 2), np.nan)
    table = np.full(table_size, -1, np.int64)
    state = np.zeros(8, np.int64)
    state[FREE_ENTRY] = -1
    state[FREE_BUCKET] = -1
    state[LIFO] = 1 if lifo else 0
    return ints, reals, table, state


@njit(cache=True, inline="always")
def key_slot(key, mask):  # type: ignore[no-untyped-def]
    """The table slot where the search for ``key`` starts."""
    x = np.int64(key * _KEY_SCALE) * _MIX
    return (x ^ (x >> 31)) & mask


@njit(cache=True)
def queue_push(ints, reals, table, state, key, node):  # type: ignore[no-untyped-def]
    """Add ``node`` under ``key`` (front of its list for a LIFO queue, else back)."""
    # Step 1: an entry for the node, from the free list or fresh.
    e = state[FREE_ENTRY]
    if e >= 0:
        state[FREE_ENTRY] = ints[e, NEXT]
    else:
        e = state[ENTRY_TOP]
        if e == ints.shape[0]:
            state[OVERFLOW] = 1
            return
        state[ENTRY_TOP] = e + 1
    ints[e, NODE] = node
    ints[e, NEXT] = -1
    # Step 2: find the key's bucket (most pushes reuse the last one; a freed
    # bucket's key is NaN, which equals nothing) and add the entry to its list.
    b = state[LAST]
    h = 0
    if reals[b, BUCKET_KEY] != key and state[HEAP_SIZE] > 0:
        b = ints[0, SLOT]  # the smallest key: where A* puts most new nodes
    if reals[b, BUCKET_KEY] != key:
        mask = table.shape[0] - 1
        h = key_slot(key, mask)
        while True:
            b = table[h]
            if b < 0:
                break
            if reals[b, BUCKET_KEY] == key:
                break
            h = (h + 1) & mask
    if b >= 0:
        state[LAST] = b
        if state[LIFO]:
            ints[e, NEXT] = ints[b, HEAD]
            ints[b, HEAD] = e
        else:
            ints[ints[b, TAIL], NEXT] = e
            ints[b, TAIL] = e
        return
    # Step 3: a new key: a new bucket in the table and in the heap of keys.
    b = state[FREE_BUCKET]
    if b >= 0:
        state[FREE_BUCKET] = ints[b, HEAD]
    else:
        b = state[BUCKET_TOP]
        state[BUCKET_TOP] = b + 1
    table[h] = b
    state[LAST] = b
    reals[b, BUCKET_KEY] = key
    ints[b, HEAD] = e
    ints[b, TAIL] = e
    i = state[HEAP_SIZE]
    state[HEAP_SIZE] = i + 1
    while i > 0:
        p = (i - 1) >> 1
        if reals[p, SLOT_KEY] <= key:
            break
        reals[i, SLOT_KEY] = reals[p, SLOT_KEY]
        ints[i, SLOT] = ints[p, SLOT]
        i = p
    reals[i, SLOT_KEY] = key
    ints[i, SLOT] = b


@njit(cache=True)
def queue_pop(ints, reals, table, state):  # type: ignore[no-untyped-def]
    """Remove and return the first node of the smallest key's list (queue not empty)."""
    b = ints[0, SLOT]
    e = ints[b, HEAD]
    node = ints[e, NODE]
    nxt = ints[e, NEXT]
    ints[e, NEXT] = state[FREE_ENTRY]
    state[FREE_ENTRY] = e
    if nxt >= 0:
        ints[b, HEAD] = nxt
        return node
    # The list is empty: drop its key from the table (backward-shift deletion)...
    key = reals[b, BUCKET_KEY]
    mask = table.shape[0] - 1
    i = key_slot(key, mask)
    while table[i] != b:
        i = (i + 1) & mask
    j = i
    while True:
        j = (j + 1) & mask
        other = table[j]
        if other < 0:
            break
        home = key_slot(reals[other, BUCKET_KEY], mask)
        # Move ``other`` into the hole unless its home lies cyclically in (i, j].
        if (i <= j and (home <= i or home > j)) or (i > j and home <= i and home > j):
            table[i] = other
            i = j
    table[i] = -1
    reals[b, BUCKET_KEY] = np.nan
    ints[b, HEAD] = state[FREE_BUCKET]
    state[FREE_BUCKET] = b
    # ... and from the heap of keys (it is the root): sift the last slot down.
    size = state[HEAP_SIZE] - 1
    state[HEAP_SIZE] = size
    if size > 0:
        last_key = reals[size, SLOT_KEY]
        last_bucket = ints[size, SLOT]
        i = 0
        while True:
            left = 2 * i + 1
            if left >= size:
                break
            best = left
            if left + 1 < size and reals[left + 1, SLOT_KEY] < reals[left, SLOT_KEY]:
                best = left + 1
            if reals[best, SLOT_KEY] >= last_key:
                break
            reals[i, SLOT_KEY] = reals[best, SLOT_KEY]
            ints[i, SLOT] = ints[best, SLOT]
            i = best
        reals[i, SLOT_KEY] = last_key
        ints[i, SLOT] = last_bucket
    return node


@njit(cache=True)
def queue_clear(ints, reals, table, state):  # type: ignore[no-untyped-def]
    """Empty the queue after a search, touching only the table slots still in use."""
    mask = table.shape[0] - 1
    for k in range(state[HEAP_SIZE]):
        b = ints[k, SLOT]
        h = key_slot(reals[b, BUCKET_KEY], mask)
        while table[h] != b:
            h = (h + 1) & mask
        table[h] = -1
        reals[b, BUCKET_KEY] = np.nan
    lifo = state[LIFO]
    state[:] = 0
    state[FREE_ENTRY] = -1
    state[FREE_BUCKET] = -1
    state[LIFO] = lifo
