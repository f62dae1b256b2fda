"""Chess through the generic ``Game`` interface, adapting :class:`plies.board.Board`.

This shows the search layer is truly generic; it is slow next to the engine
(:mod:`plies.engine`), which searches inside the compiled core. States are ``Board``
objects: ``result`` copies before it moves, so a board handed to a search is never
changed. Treat states as read-only.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from plies.board import BISHOP, KNIGHT, PAWN, QUEEN, ROOK, Board, Move
from plies.games.protocol import BaseGame

#: Material values in pawns, for the heuristic and for ordering captures.
PIECE_VALUES = {PAWN: 1, KNIGHT: 3, BISHOP: 3, ROOK: 5, QUEEN: 9}
# A material lead of this many pawns maps to a heuristic value of 0.5.
_SCALE = 10.0


class ChessGame(BaseGame[Board, Move]):
    """Chess: player 0 is White, 1 is Black; actions are :class:`~plies.board.Move` objects.

    The game ends at checkmate, stalemate, insufficient material and the automatic
    draws (75 moves, fivefold repetition); with ``claim_draw`` also at a claimable
    fifty-move or threefold-repetition draw (slower: every node checks for it). The
    transposition key is the Zobrist key, which ignores how a position was reached.
    """

    def __init__(self, fen: str | None = None, claim_draw: bool = False) -> None:
        """Start games from ``fen`` (the usual starting position by default)."""
        self.start_fen = Board.STARTING_FEN if fen is None else fen
        # Refuse a broken or unplayable FEN now, with the board's own message.
        Board(self.start_fen).check_playable()
        self.claim_draw = claim_draw

    def __repr__(self) -> str:
        """Show the starting FEN."""
        return f"ChessGame({self.start_fen!r})"

    def initial_state(self) -> Board:
        """Return a fresh board at the starting position."""
        return Board(self.start_fen)

    def to_move(self, state: Board) -> int:
        """Return the side to move: 0 White, 1 Black."""
        return 0 if state.turn else 1

    def actions(self, state: Board) -> Sequence[Move]:
        """Return the legal moves, or nothing once the game is over."""
        if self.is_terminal(state):
            return []
        return list(state.legal_moves)

    def result(self, state: Board, action: Move) -> Board:
        """Return a copy of ``state`` with ``action`` played."""
        after = state.copy()
        after.push(action)
        return after

    def is_terminal(self, state: Board) -> bool:
        """Return whether the game is over."""
        return state.outcome(self.claim_draw) is not None

    def utility(self, state: Board, player: int) -> float:
        """Return +1 if ``player`` checkmated the other side, -1 if mated, 0 for a draw."""
        outcome = state.outcome(self.claim_draw)
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == (player == 0) else -1.0  # player 0 is White

    def evaluate(self, state: Board, player: int) -> float:
        """Count material (pawn 1, knight and bishop 3, rook 5, queen 9) for ``player``."""
        balance = 0
        color = player == 0  # player 0 is White, python-chess's True
        for piece_type, value in PIECE_VALUES.items():
            balance += value * (
                len(state.pieces(piece_type, color)) - len(state.pieces(piece_type, not color))
            )
        return balance / (abs(balance) + _SCALE)

    def key(self, state: Board) -> Hashable:
        """Return the Zobrist key of the position."""
        return state.zobrist_key()

    def captures_first(self, state: Board, actions: Sequence[Move]) -> Sequence[Move]:
        """Order moves: promotions and captures of big pieces first (a move-ordering hook)."""

        def gain(move: Move) -> int:
            """Return the value a move wins outright (captured piece, promotion)."""
            captured = state.piece_at(move.to_square)
            value = PIECE_VALUES.get(captured.piece_type, 0) if captured is not None else 0
            if state.is_en_passant(move):
                value = PIECE_VALUES[PAWN]
            if move.promotion is not None:
                value += PIECE_VALUES.get(move.promotion, 0)
            return value

        return sorted(actions, key=gain, reverse=True)

    def action_text(self, action: Move) -> str:
        """Return the move in UCI notation (``e2e4``); SAN needs the position."""
        return action.uci()

    def parse_action(self, state: Board, text: str) -> Move:
        """Read a move in SAN (``Nf3``) or UCI (``g1f3``); ``ValueError`` if illegal."""
        text = text.strip()
        if self.is_terminal(state):
            raise ValueError("the game is over")
        for parse in (state.parse_san, state.parse_uci):
            try:
                move = parse(text)
            except ValueError:
                continue
            if move:  # not the null move python-chess reads in "--" and "0000"
                return move
        raise ValueError(f"not a legal move here: {text!r}")

    def render(self, state: Board) -> str:
        """Return the board's picture (Unicode, files and ranks labelled)."""
        return state.pretty()
