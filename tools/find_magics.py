"""Find magic multipliers for rook and bishop attack tables (seeded, reproducible).

Run ``python tools/find_magics.py`` and paste its output into
``src/plies/core/tables.py``. A magic is good when every blocker subset of a
square's relevance mask that maps to the same index has the same attack set.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.tables import BISHOP_DIRS, ROOK_DIRS

U64 = np.uint64


@njit(cache=True)
def _slide(sq: int, occ: np.uint64, dirs: np.ndarray, edges: bool) -> np.uint64:
    """Slider attacks ray by ray; with ``edges=False``, the relevance mask."""
    result = U64(0)
    f0, r0 = sq % 8, sq // 8
    for i in range(dirs.shape[0]):
        df, dr = dirs[i, 0], dirs[i, 1]
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            if not edges:
                nf, nr = f + df, r + dr
                if not (0 <= nf < 8 and 0 <= nr < 8):
                    break
            b = U64(1) << U64(r * 8 + f)
            result |= b
            if occ & b:
                break
            f, r = f + df, r + dr
    return result


@njit(cache=True)
def _xorshift(state: np.ndarray) -> np.uint64:
    """Next value of a 64-bit xorshift generator held in ``state[0]``."""
    x = state[0]
    x ^= x << U64(13)
    x ^= x >> U64(7)
    x ^= x << U64(17)
    state[0] = x
    return x


@njit(cache=True)
def _find(sq: int, dirs: np.ndarray, state: np.ndarray) -> np.uint64:
    """Search sparse random candidates until one maps the square's subsets without clash."""
    mask = _slide(sq, U64(0), dirs, False)
    bits = 0
    m = mask
    while m:
        bits += 1
        m &= m - U64(1)
    n = 1 << bits
    subsets = np.zeros(n, dtype=np.uint64)
    attacks = np.zeros(n, dtype=np.uint64)
    subset = U64(0)
    i = 0
    while True:
        subsets[i] = subset
        attacks[i] = _slide(sq, subset, dirs, True)
        i += 1
        subset = (subset - mask) & mask
        if subset == 0:
            break
    used = np.zeros(n, dtype=np.uint64)
    stamp = np.zeros(n, dtype=np.int64)
    for attempt in range(1, 100_000_000):
        magic = _xorshift(state) & _xorshift(state) & _xorshift(state)
        ok = True
        for j in range(n):
            idx = int((subsets[j] * magic) >> U64(64 - bits))
            if stamp[idx] != attempt:
                stamp[idx] = attempt
                used[idx] = attacks[j]
            elif used[idx] != attacks[j]:
                ok = False
                break
        if ok:
            return magic
    return U64(0)


def main() -> None:
    """Print both magic arrays as Python source."""
    state = np.array([0x9E3779B97F4A7C15], dtype=np.uint64)
    for name, dirs in (("ROOK_MAGICS", ROOK_DIRS), ("BISHOP_MAGICS", BISHOP_DIRS)):
        values = [int(_find(sq, dirs, state)) for sq in range(64)]
        print(f"{name} = np.array([")
        for row in range(0, 64, 4):
            print("    " + ", ".join(f"0x{v:016X}" for v in values[row : row + 4]) + ",")
        print("], dtype=np.uint64)")


if __name__ == "__main__":
    main()
