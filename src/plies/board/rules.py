"""``GameRules``: check, mate, the draw rules and the game's outcome, as python-chess rules."""

from __future__ import annotations

import chess
import numpy as np
from chess import Color, Move

from plies.board.calls import (
    CHECK,
    DEAD,
    FIFTY,
    FIVEFOLD,
    NO_MOVES,
    SEVENTY_FIVE,
    THREEFOLD,
)
from plies.board.outcome import Outcome, Termination
from plies.board.query import PositionQueries

_DARK_SQUARES = chess.BB_DARK_SQUARES


class GameRules(PositionQueries):
    """Check, checkmate, stalemate, insufficient material, repetitions, the move-count rules."""

    __slots__ = ()

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.is_check()
        return bool(self._status() & CHECK)

    def gives_check(self, move: Move) -> bool:
        """Whether the legal move puts the opponent in check."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    def is_into_check(self, move: Move) -> bool:
        """Whether the move would leave the mover's own king in check (python-chess's name;
        every move the board accepts is legal, so only a pseudo-legal move can)."""
        return self._python_chess_view(stack=False).is_into_check(move)

    def _has_moves(self) -> bool:
        """Whether the side to move has a legal move."""
        if self._pos is None:
            assert self._pc is not None
            return any(self._pc.generate_legal_moves())
        return not self._status() & NO_MOVES

    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.is_checkmate()
        return self._status() & (CHECK | NO_MOVES) == CHECK | NO_MOVES

    def is_stalemate(self) -> bool:
        """Whether the side to move has no legal move and is not in check."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.is_stalemate()
        return self._status() & (CHECK | NO_MOVES) == NO_MOVES

    def has_insufficient_material(self, color: Color) -> bool:
        """Whether ``color`` cannot possibly checkmate (python-chess's rule)."""
        own = self.occupied_co[color]
        if own & (self.pawns | self.rooks | self.queens):
            return False
        other = self.occupied_co[not color]
        if own & self.knights:
            return own.bit_count() <= 2 and not (other & ~self.kings & ~self.queens)
        if own & self.bishops:
            bishops = self.bishops
            same_colour = not (bishops & _DARK_SQUARES) or not (bishops & ~_DARK_SQUARES)
            return same_colour and not self.pawns and not self.knights
        return True

    def is_insufficient_material(self) -> bool:
        """Whether neither side can possibly checkmate."""
        if self._pos is None:
            return self.has_insufficient_material(chess.WHITE) and self.has_insufficient_material(
                chess.BLACK
            )
        return bool(self._status() & DEAD)

    def _repetitions(self) -> int:
        """How often the current position occurred, counting the current one."""
        ply = self._state()[5]
        keys = self._live()[2]
        key = keys[ply]
        low = max(0, ply - self.halfmove_clock)
        return int(np.count_nonzero(keys[low : ply + 1] == key))

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position occurred at least ``count`` times."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.is_repetition(count)
        return self._repetitions() >= count

    def is_fivefold_repetition(self) -> bool:
        """Whether the position occurred five times (an automatic draw)."""
        if self._pos is None:
            return self.is_repetition(5)
        return bool(self._status() & FIVEFOLD)

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the position occurred three times, or a legal move makes it so."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.can_claim_threefold_repetition()
        if self._status() & THREEFOLD:
            return True
        ply = self._state()[5]
        seen = self._live()[2][max(0, ply - self.halfmove_clock) : ply + 1].copy()
        if len(set(seen.tolist())) == len(seen):
            return False  # no earlier position occurred twice, so no move can make a third
        for move in list(self._legal_list()):
            self.push(move)
            try:
                if np.count_nonzero(seen == self._live()[2][ply + 1]) >= 2:
                    return True
            finally:
                self.pop()
        return False

    def is_fifty_moves(self) -> bool:
        """Whether 50 moves passed without capture or pawn move and a move remains."""
        if self._pos is None:
            return self.halfmove_clock >= 100 and self._has_moves()
        return self._status() & (FIFTY | NO_MOVES) == FIFTY

    def can_claim_fifty_moves(self) -> bool:
        """Whether the fifty-move rule can be claimed now or with the next move."""
        if self.is_fifty_moves():
            return True
        if self.halfmove_clock >= 99:
            return any(not self.is_zeroing(m) for m in self._legal_list())
        return False

    def is_seventyfive_moves(self) -> bool:
        """Whether 75 moves passed without capture or pawn move (automatic draw)."""
        if self._pos is None:
            return self.halfmove_clock >= 150 and self._has_moves()
        return self._status() & (SEVENTY_FIVE | NO_MOVES) == SEVENTY_FIVE

    def can_claim_draw(self) -> bool:
        """Whether a draw by fifty moves or threefold repetition can be claimed."""
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or None; claimable draws only with ``claim_draw``."""
        if self._pos is not None and not claim_draw:
            status = self._status()
            if not status & (NO_MOVES | DEAD | SEVENTY_FIVE | FIVEFOLD):
                return None  # the common case, decided by one compiled call
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, not self.turn)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if not self._has_moves():
            return Outcome(Termination.STALEMATE, None)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if self.is_fivefold_repetition():
            return Outcome(Termination.FIVEFOLD_REPETITION, None)
        if claim_draw:
            if self.can_claim_fifty_moves():
                return Outcome(Termination.FIFTY_MOVES, None)
            if self.can_claim_threefold_repetition():
                return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    def is_game_over(self, claim_draw: bool = False) -> bool:
        """Whether the game has ended (claimable draws count with ``claim_draw``)."""
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return "*" if outcome is None else outcome.result()

    def is_variant_end(self) -> bool:
        """False: standard chess has no variant end (python-chess's name)."""
        return False

    def is_variant_win(self) -> bool:
        """False: standard chess has no variant win (python-chess's name)."""
        return False

    def is_variant_loss(self) -> bool:
        """False: standard chess has no variant loss (python-chess's name)."""
        return False

    def is_variant_draw(self) -> bool:
        """False: standard chess has no variant draw (python-chess's name)."""
        return False
