"""Allocates 16 GB at once, then 16 more, touching every page."""

HOARD = []


def choose(board):
    for _ in range(2):
        block = bytearray(16 << 30)
        block[:: 1 << 12] = b"x" * len(block[:: 1 << 12])
        HOARD.append(block)
    raise RuntimeError("BREACH: holds 32 GB")
