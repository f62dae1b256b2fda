"""Columns of one undo record (``Position.undo``, one int64 row per move made).

A module of its own because both the position (which writes the records) and
the net (whose accumulators catch up from them, ``plies.core.nnue``) read it.
"""

UNDO_MOVE = 0
"""The move made (0: a null move)."""
UNDO_CAPTURED = 1
"""The piece it captured, or NO_PIECE."""
UNDO_CASTLING = 2
"""Castling rights before the move."""
UNDO_EP = 3
"""En-passant square before the move."""
UNDO_HALFMOVE = 4
"""Halfmove clock before the move."""
UNDO_MOVED = 5
"""The piece that left the from square (the pawn of a promotion)."""
UNDO_PENDING = 6
"""1 while the net's accumulators after this move are not derived yet."""
UNDO_SIZE = 7
"""Columns of a record."""
