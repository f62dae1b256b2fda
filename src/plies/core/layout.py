"""The evaluation's weight tables: names, sizes and the term each belongs to.

One table is one named constant pair ``NAME_MG`` / ``NAME_EG`` in ``core/weights.py``
(``TEMPO`` is a single number). Flattened in this order, the tables give every
weight a feature index: ``core/trace.py`` counts, per position, how often each
weight is used (white minus black), and ``plies tune`` fits the weights to game
results through those counts.

Piece-square tables are written like a diagram (rank 8 first), so their index is
``relative_square ^ 56``; every other table is indexed as its comment says.
"""

from __future__ import annotations

from typing import NamedTuple


class Table(NamedTuple):
    """One weight table: its constant name, number of entries, term and index meaning."""

    name: str
    """Constant name without the ``_MG`` / ``_EG`` suffix."""
    size: int
    """Entries (1 for a scalar, written as a plain int pair)."""
    term: int
    """Index into ``TERM_NAMES`` of the evaluation term it adds to."""
    doc: str
    """What the entries are indexed by (written above the constants)."""


# Term indices, as in evaluate.TERM_NAMES.
(
    T_MATERIAL, T_PSQT, T_PAWNS, T_PASSED, T_MOBILITY,
    T_KING, T_BISHOP_PAIR, T_ROOKS, T_THREATS, T_TEMPO,
) = range(10)  # fmt: skip

_BOARD = "piece-square table, White's view, rank 8 first (a diagram)"
_RANK = "by relative rank, index 0 = rank 1"
_MOB = "by number of safe squares reached"
_CHECK = "per square not defended by them that checks their king, reached by "

TABLES: tuple[Table, ...] = (
    Table("MATERIAL", 5, T_MATERIAL, "pawn, knight, bishop, rook, queen"),
    Table("PSQT_PAWN", 64, T_PSQT, _BOARD),
    Table("PSQT_KNIGHT", 64, T_PSQT, _BOARD),
    Table("PSQT_BISHOP", 64, T_PSQT, _BOARD),
    Table("PSQT_ROOK", 64, T_PSQT, _BOARD),
    Table("PSQT_QUEEN", 64, T_PSQT, _BOARD),
    Table("PSQT_KING", 64, T_PSQT, _BOARD),
    Table("ISOLATED", 1, T_PAWNS, "per isolated pawn"),
    Table("DOUBLED", 1, T_PAWNS, "per pawn with a friendly pawn in front of it"),
    Table("CONNECTED", 8, T_PAWNS, "per pawn defended by or beside a pawn, " + _RANK),
    Table("PASSED", 8, T_PASSED, "per passed pawn, " + _RANK),
    Table("PASSED_BLOCKED", 8, T_PASSED, "subtracted per blocked passed pawn, " + _RANK),
    Table("PASSED_THEIR_KING", 8, T_PASSED, "per step, their king to the stop square, " + _RANK),
    Table("PASSED_OUR_KING", 8, T_PASSED, "per step, our king to the stop square, " + _RANK),
    Table("MOBILITY_KNIGHT", 9, T_MOBILITY, _MOB),
    Table("MOBILITY_BISHOP", 14, T_MOBILITY, _MOB),
    Table("MOBILITY_ROOK", 15, T_MOBILITY, _MOB),
    Table("MOBILITY_QUEEN", 28, T_MOBILITY, _MOB),
    Table("SHIELD_NEAR", 1, T_KING, "per own pawn one rank in front of the king"),
    Table("SHIELD_FAR", 1, T_KING, "per own pawn two ranks in front of the king"),
    Table("KING_SEMI_OPEN_FILE", 1, T_KING, "per king-side file without own pawns"),
    Table("KING_OPEN_FILE", 1, T_KING, "per king-side file without any pawns"),
    Table("BISHOP_PAIR", 1, T_BISHOP_PAIR, "two or more bishops"),
    Table("ROOK_OPEN", 1, T_ROOKS, "per rook on a file without pawns"),
    Table("ROOK_SEMI_OPEN", 1, T_ROOKS, "per rook on a file without own pawns"),
    Table("THREAT_BY_PAWN", 1, T_THREATS, "per enemy piece attacked by a pawn"),
    Table("THREAT_BY_MINOR", 1, T_THREATS, "per enemy rook or queen attacked by a minor"),
    Table("THREAT_BY_ROOK", 1, T_THREATS, "per enemy queen attacked by a rook"),
    Table("HANGING", 1, T_THREATS, "per enemy piece attacked and not defended"),
    Table("SAFE_CHECK_KNIGHT", 1, T_KING, _CHECK + "a knight"),
    Table("SAFE_CHECK_BISHOP", 1, T_KING, _CHECK + "a bishop"),
    Table("SAFE_CHECK_ROOK", 1, T_KING, _CHECK + "a rook"),
    Table("SAFE_CHECK_QUEEN", 1, T_KING, _CHECK + "a queen"),
)
"""Every tunable table, in feature order (``TEMPO`` follows as the last weight)."""


def _offsets() -> dict[str, int]:
    """Feature index of each table's first entry."""
    out: dict[str, int] = {}
    at = 0
    for table in TABLES:
        out[table.name] = at
        at += table.size
    return out


OFFSET = _offsets()
"""First feature index of each table, by name."""

N_FEATURES = sum(t.size for t in TABLES)
"""Number of mg/eg weight pairs (``TEMPO`` not included)."""

FEATURE_TERM = tuple(t.term for t in TABLES for _ in range(t.size))
"""The term each feature adds to."""
