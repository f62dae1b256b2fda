"""The 960 starting positions of Chess960, numbered as Scharnagl (and python-chess) do."""

from __future__ import annotations

from plies.board.errors import InvalidFenError

POSITIONS = 960
"""Number of Chess960 starting positions (0-959)."""

_KNIGHT_PAIRS = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
"""The knights' two places among the five squares left after bishops and queen, by digit."""


def back_rank(scharnagl: int) -> str:
    """White's back rank (a to h, letters ``RNBQK``) of start position ``scharnagl``."""
    if isinstance(scharnagl, bool) or not isinstance(scharnagl, int):
        raise InvalidFenError(f"invalid chess960 position: {scharnagl!r} is not an integer")
    if not 0 <= scharnagl < POSITIONS:
        raise InvalidFenError(
            f"invalid chess960 position: {scharnagl} (expected 0-{POSITIONS - 1})"
        )
    n, light = divmod(scharnagl, 4)
    n, dark = divmod(n, 4)
    knights, queen = divmod(n, 6)
    rank = [""] * 8
    rank[2 * light + 1] = "B"
    rank[2 * dark] = "B"
    free = [f for f in range(8) if not rank[f]]
    rank[free[queen]] = "Q"
    free = [f for f in range(8) if not rank[f]]
    for i in _KNIGHT_PAIRS[knights]:
        rank[free[i]] = "N"
    # The last three squares take rook, king, rook: the king between its rooks.
    for f, piece in zip([f for f in range(8) if not rank[f]], "RKR", strict=True):
        rank[f] = piece
    return "".join(rank)


def chess960_fen(scharnagl: int) -> str:
    """FEN of Chess960 start position ``scharnagl`` (castling rights as X-FEN ``KQkq``)."""
    white = back_rank(scharnagl)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
