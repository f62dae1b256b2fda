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

Layout, for a queue of capacity ``C``, as fields of a ``Side`` (``state``):

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

The hot paths -- popping an entry that is not the last of its key
(``pop_first``), and pushing a recycled entry under the key of the last push
or the smallest key (``push_newest``, ``push_oldest``) -- are small inlined
helpers every kernel shares, calling ``queue_pop`` / ``queue_push`` only for
the rest.  They stay as cheap as code written out in each kernel because the
kernels and these functions are compiled with ``_nrt=False``: a call or an
inlined helper that takes arrays under numba's reference counting costs atomic
count updates, many times the cost of the push and pop themselves.  None of them may allocate.

Entries and buckets are recycled through free lists; ``queue_clear`` empties
a queue in time proportional to the keys still open, so a reused queue
costs nothing per query.  A push that finds no free entry sets the overflow
flag and does nothing; the caller then grows the queue (``state.grow_queue``)
and runs the search again.
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


@njit(cache=True, inline="always")
def key_slot(key, mask):  # type: ignore[no-untyped-def]
    """The table slot where the search for ``key`` starts."""
    x = np.int64(key * _KEY_SCALE) * _MIX
    return (x ^ (x >> 31)) & mask


@njit(cache=True, inline="always")
def _arrays(side):  # type: ignore[no-untyped-def]
    """The open list's four arrays: (ints, reals, table, state)."""
    return side.ints, side.reals, side.table, side.state


@njit(cache=True, inline="always")
def _set_slot(ints, reals, i, key, bucket):  # type: ignore[no-untyped-def]
    """Put ``bucket``, whose key is ``key``, in slot ``i`` of the heap of keys."""
    reals[i, SLOT_KEY] = key
    ints[i, SLOT] = bucket


@njit(cache=True, _nrt=False)
def queue_push(side, key, node):  # type: ignore[no-untyped-def]
    """Add ``node`` under ``key`` (front of its list for a LIFO queue, else back)."""
    ints, reals, table, state = _arrays(side)
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
        _set_slot(ints, reals, i, reals[p, SLOT_KEY], ints[p, SLOT])
        i = p
    _set_slot(ints, reals, i, key, b)


@njit(cache=True, _nrt=False)
def queue_pop(side):  # type: ignore[no-untyped-def]
    """Remove and return the first node of the smallest key's list (queue not empty)."""
    ints, reals, table, state = _arrays(side)
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
            _set_slot(ints, reals, i, reals[best, SLOT_KEY], ints[best, SLOT])
            i = best
        _set_slot(ints, reals, i, last_key, last_bucket)
    return node


@njit(cache=True, _nrt=False)
def queue_clear(side):  # type: ignore[no-untyped-def]
    """Empty the queue after a search, touching only the table slots still in use."""
    ints, reals, table, state = _arrays(side)
    mask = table.shape[0] - 1
    for k in range(state[HEAP_SIZE]):
        b = ints[k, SLOT]
        h = key_slot(reals[b, BUCKET_KEY], mask)
        while table[h] != b:
            h = (h + 1) & mask
        table[h] = -1
        reals[b, BUCKET_KEY] = np.nan
    lifo = state[LIFO]
    for k in range(state.shape[0]):
        state[k] = 0
    state[FREE_ENTRY] = -1
    state[FREE_BUCKET] = -1
    state[LIFO] = lifo


@njit(cache=True, inline="always")
def pop_first(side):  # type: ignore[no-untyped-def]
    """Remove and return the first node of the smallest key's list (queue not empty)."""
    ints = side.ints
    state = side.state
    b = ints[0, SLOT]
    e = ints[b, HEAD]
    nxt = ints[e, NEXT]
    if nxt < 0:
        return queue_pop(side)
    ints[e, NEXT] = state[FREE_ENTRY]
    state[FREE_ENTRY] = e
    ints[b, HEAD] = nxt
    return ints[e, NODE]


@njit(cache=True, inline="always")
def push_newest(side, key, node):  # type: ignore[no-untyped-def]
    """``queue_push`` on a LIFO queue, recycling a free entry under an open key in place."""
    ints = side.ints
    reals = side.reals
    state = side.state
    e = state[FREE_ENTRY]
    b = state[LAST]
    if e >= 0 and reals[b, BUCKET_KEY] != key:
        b = ints[0, SLOT]
        if reals[b, BUCKET_KEY] != key:
            # Another open key: find it in the table (-1 if it is new).
            table = side.table
            wrap = table.shape[0] - 1
            slot = key_slot(key, wrap)
            b = table[slot]
            while b >= 0 and reals[b, BUCKET_KEY] != key:
                slot = (slot + 1) & wrap
                b = table[slot]
    if e < 0 or b < 0:
        queue_push(side, key, node)
    else:
        state[FREE_ENTRY] = ints[e, NEXT]
        state[LAST] = b
        ints[e, NODE] = node
        ints[e, NEXT] = ints[b, HEAD]
        ints[b, HEAD] = e


@njit(cache=True, inline="always")
def push_oldest(side, key, node):  # type: ignore[no-untyped-def]
    """``queue_push`` on a FIFO queue, recycling a free entry at the back of the last key."""
    ints = side.ints
    state = side.state
    e = state[FREE_ENTRY]
    b = state[LAST]
    if e < 0 or side.reals[b, BUCKET_KEY] != key:
        queue_push(side, key, node)
    else:
        state[FREE_ENTRY] = ints[e, NEXT]
        ints[e, NODE] = node
        ints[e, NEXT] = -1
        ints[ints[b, TAIL], NEXT] = e
        ints[b, TAIL] = e
