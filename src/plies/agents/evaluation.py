"""The classic evaluation: material, piece-square tables and a castling bonus.

Material is P=100, N=320, B=325, R=500, Q=900.  Each piece also earns the
bonus its square has in the piece-square tables of Tomasz Michniewski's
well-known "simplified evaluation function" (knights love the centre, pawns
love to advance, the king hides in the middlegame and centralises in the
endgame).  A side that has castled gets +30.  The score is from the side to
move: positive means the side to move stands better.

Searching agents don't recompute this from scratch at every node: an
:class:`EvalState` holds the running sums and :meth:`EvalState.after` updates
them for one move from the two or three squares it touches.  :func:`evaluate`
is the from-scratch version; tests check that both always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from plies.board import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE

if TYPE_CHECKING:
    from plies.board import Board, Color, Move

PIECE_VALUES = {PAWN: 100, KNIGHT: 320, BISHOP: 325, ROOK: 500, QUEEN: 900, KING: 0}
CASTLED_BONUS = 30

# Tables as a White player sees the board: first row is rank 8, last row rank 1.
# fmt: off
PAWN_TABLE = (
      0,   0,   0,   0,   0,   0,   0,   0,
     50,  50,  50,  50,  50,  50,  50,  50,
     10,  10,  20,  30,  30,  20,  10,  10,
      5,   5,  10,  25,  25,  10,   5,   5,
      0,   0,   0,  20,  20,   0,   0,   0,
      5,  -5, -10,   0,   0, -10,  -5,   5,
      5,  10,  10, -20, -20,  10,  10,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
)
KNIGHT_TABLE = (
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20,   0,   0,   0,   0, -20, -40,
    -30,   0,  10,  15,  15,  10,   0, -30,
    -30,   5,  15,  20,  20,  15,   5, -30,
    -30,   0,  15,  20,  20,  15,   0, -30,
    -30,   5,  10,  15,  15,  10,   5, -30,
    -40, -20,   0,   5,   5,   0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
)
BISHOP_TABLE = (
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   5,   5,  10,  10,   5,   5, -10,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,   5,   0,   0,   0,   0,   5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
)
ROOK_TABLE = (
      0,   0,   0,   0,   0,   0,   0,   0,
      5,  10,  10,  10,  10,  10,  10,   5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
      0,   0,   0,   5,   5,   0,   0,   0,
)
QUEEN_TABLE = (
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
      0,   0,   5,   5,   5,   5,   0,  -5,
    -10,   5,   5,   5,   5,   5,   0, -10,
    -10,   0,   5,   0,   0,   0,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
)
KING_MIDDLEGAME_TABLE = (
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
     20,  20,   0,   0,   0,   0,  20,  20,
     20,  30,  10,   0,   0,  10,  30,  20,
)
KING_ENDGAME_TABLE = (
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10,   0,   0, -10, -20, -30,
    -30, -10,  20,  30,  30,  20, -10, -30,
    -30, -10,  30,  40,  40,  30, -10, -30,
    -30, -10,  30,  40,  40,  30, -10, -30,
    -30, -10,  20,  30,  30,  20, -10, -30,
    -30, -30,   0,   0,   0,   0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
)
# fmt: on

PIECE_TABLES = {
    PAWN: PAWN_TABLE,
    KNIGHT: KNIGHT_TABLE,
    BISHOP: BISHOP_TABLE,
    ROOK: ROOK_TABLE,
    QUEEN: QUEEN_TABLE,
}


def table_index(color: Color, sq: int) -> int:
    """Index into a White-perspective table for a piece of ``color`` on ``sq`` (a1 = 0)."""
    file, rank = sq & 7, sq >> 3
    row = 7 - rank if color == WHITE else rank  # Black reads the table upside down
    return row * 8 + file


def _square_values() -> dict[int, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Material plus square bonus for each (piece type) -> (white by square, black by square)."""
    out: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for pt, table in PIECE_TABLES.items():
        white = tuple(PIECE_VALUES[pt] + table[table_index(WHITE, sq)] for sq in range(64))
        black = tuple(PIECE_VALUES[pt] + table[table_index(BLACK, sq)] for sq in range(64))
        out[pt] = (white, black)
    return out


# SQUARE_VALUE[piece_type][side][square]: material + table bonus, precomputed; ``side`` is 0
# for White and 1 for Black, as in every per-side list of this module.
SQUARE_VALUE = _square_values()
KING_VALUE = (
    (
        tuple(KING_MIDDLEGAME_TABLE[table_index(WHITE, sq)] for sq in range(64)),
        tuple(KING_MIDDLEGAME_TABLE[table_index(BLACK, sq)] for sq in range(64)),
    ),
    (
        tuple(KING_ENDGAME_TABLE[table_index(WHITE, sq)] for sq in range(64)),
        tuple(KING_ENDGAME_TABLE[table_index(BLACK, sq)] for sq in range(64)),
    ),
)


def is_endgame(queens: tuple[int, int], minors: tuple[int, int], rooks: tuple[int, int]) -> bool:
    """The simplified evaluation's endgame: no queens, or each queen side has at most one minor."""
    return all(not (queens[c] and (rooks[c] or minors[c] > 1)) for c in (WHITE, BLACK))


@dataclass(slots=True)
class EvalState:
    """Running evaluation terms of a position, updated move by move: per side (White first),
    the material+square sum of the non-king pieces, the king's square, the counts of queens,
    minors and rooks, and whether it has castled. Equal terms compare equal, so a copy of a
    search state equals the state it was copied from (the game protocol check relies on it)."""

    sums: list[int]
    kings: list[int]
    queens: list[int]
    minors: list[int]
    rooks: list[int]
    castled: list[bool]

    @classmethod
    def from_board(cls, board: Board, castled: tuple[bool, bool] = (False, False)) -> EvalState:
        """Count everything on ``board``; ``castled`` says who has castled in the game so far
        (White, Black)."""
        sums = [0, 0]
        counts = {pt: [0, 0] for pt in PIECE_VALUES}
        for side, color in enumerate((WHITE, BLACK)):
            for pt in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN):
                squares = board.pieces(pt, color)
                counts[pt][side] = len(squares)
                sums[side] += sum(SQUARE_VALUE[pt][side][sq] for sq in squares)
        white_king, black_king = board.king(WHITE), board.king(BLACK)
        if white_king is None or black_king is None:  # only an unplayable board lacks one
            raise ValueError(f"a king is missing: {board.fen()}")
        kings = [white_king, black_king]
        minors = [counts[KNIGHT][side] + counts[BISHOP][side] for side in (0, 1)]
        return cls(sums, kings, counts[QUEEN], minors, counts[ROOK], list(castled))

    def score(self, turn: Color) -> int:
        """The evaluation from the point of view of the colour ``turn`` (``WHITE`` is True)."""
        eg = is_endgame(
            (self.queens[0], self.queens[1]),
            (self.minors[0], self.minors[1]),
            (self.rooks[0], self.rooks[1]),
        )
        kv = KING_VALUE[1 if eg else 0]
        white = self.sums[0] + kv[0][self.kings[0]] + (CASTLED_BONUS if self.castled[0] else 0)
        black = self.sums[1] + kv[1][self.kings[1]] + (CASTLED_BONUS if self.castled[1] else 0)
        return white - black if turn else black - white

    def after(self, board: Board, move: Move) -> EvalState:
        """The state after ``move`` (legal in ``board``, which is not changed)."""
        us = 0 if board.turn else 1  # the side's list index: White 0 (board.turn is a bool)
        them = 1 - us
        sums = self.sums[:]
        kings = self.kings[:]
        queens = self.queens[:]
        minors = self.minors[:]
        rooks = self.rooks[:]
        castled = self.castled[:]
        src, dst = move.from_square, move.to_square
        piece = board.piece_at(src)
        if piece is None:  # not a legal move; leave the terms alone
            return EvalState(sums, kings, queens, minors, rooks, castled)
        pt = piece.piece_type
        victim = board.piece_at(dst)
        victim_sq = dst
        if pt == PAWN and victim is None and (src & 7) != (dst & 7):
            victim_sq = (src & ~7) | (dst & 7)  # en passant: the pawn beside us
            victim = board.piece_at(victim_sq)
        if victim is not None:
            vt = victim.piece_type
            sums[them] -= SQUARE_VALUE[vt][them][victim_sq]
            if vt == QUEEN:
                queens[them] -= 1
            elif vt == ROOK:
                rooks[them] -= 1
            elif vt in (KNIGHT, BISHOP):
                minors[them] -= 1
        if pt == KING:
            kings[us] = dst
            if abs((dst & 7) - (src & 7)) == 2:
                castled[us] = True
                rank = src & ~7
                rook_from, rook_to = (rank | 7, rank | 5) if dst > src else (rank, rank | 3)
                sums[us] += SQUARE_VALUE[ROOK][us][rook_to] - SQUARE_VALUE[ROOK][us][rook_from]
        else:
            new_pt = move.promotion or pt
            sums[us] += SQUARE_VALUE[new_pt][us][dst] - SQUARE_VALUE[pt][us][src]
            if new_pt != pt:
                if new_pt == QUEEN:
                    queens[us] += 1
                elif new_pt == ROOK:
                    rooks[us] += 1
                else:
                    minors[us] += 1
        return EvalState(sums, kings, queens, minors, rooks, castled)


def evaluate(board: Board, castled: tuple[bool, bool] = (False, False)) -> int:
    """Classic evaluation of ``board`` from the side to move (centipawns)."""
    return EvalState.from_board(board, castled).score(board.turn)


def castled_in_game(board: Board) -> tuple[bool, bool]:
    """Which sides castled in the game that led to ``board``, (White, Black) (replays its
    move stack)."""
    replay = board.copy()
    undone = []
    while replay.move_stack:
        undone.append(replay.pop())
    castled = [False, False]
    for move in reversed(undone):
        if replay.is_castling(move):
            castled[0 if replay.turn else 1] = True
        replay.push(move)
    return (castled[0], castled[1])
