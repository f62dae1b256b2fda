"""One game of a person against a computer side: the game session both front ends draw.

The terminal (:mod:`plies.play.session`) and the browser (:mod:`plies.web.play`) keep
their game here: the python-chess board (the referee, history included), the moves in
SAN, which side the computer plays, a resignation, taking moves back, how the game
ended, and its record (PGN through :func:`plies.arena.pgn.new_game`).  Each front end
only reads input and draws; the computer's thinking is theirs (an agent in the
terminal, a search runner or a configured player in the browser).
"""

from __future__ import annotations

from collections.abc import Mapping

import chess
import chess.pgn

from plies.arena.pgn import new_game

ENDINGS = {
    "CHECKMATE": "checkmate",
    "STALEMATE": "stalemate",
    "INSUFFICIENT_MATERIAL": "insufficient material",
    "SEVENTYFIVE_MOVES": "the seventy-five-move rule",
    "FIVEFOLD_REPETITION": "fivefold repetition",
    "FIFTY_MOVES": "the fifty-move rule",
    "THREEFOLD_REPETITION": "threefold repetition",
}
"""How each python-chess termination is said."""


def colour_name(color: chess.Color) -> str:
    """'White' or 'Black'."""
    return "White" if color == chess.WHITE else "Black"


class HumanGame:
    """The board, who plays which side, the moves in SAN, and how the game ended."""

    def __init__(self, start: chess.Board | None = None,
                 computer: chess.Color | None = chess.BLACK) -> None:
        """A game from ``start`` (default: the usual start), the computer playing ``computer``
        (None: nobody, the person plays both sides)."""
        self.board = chess.Board()
        self.sans: list[str] = []
        self.computer: chess.Color | None = computer
        self.resigned: chess.Color | None = None
        self.restart(start if start is not None else chess.Board(), computer)

    def restart(self, start: chess.Board, computer: chess.Color | None) -> None:
        """Begin again from ``start`` (its position, not its history)."""
        self.board = start.copy(stack=False)
        self.sans = []
        self.computer = computer
        self.resigned = None

    @property
    def human(self) -> chess.Color | None:
        """The person's side (None when the person plays both)."""
        return None if self.computer is None else not self.computer

    def push(self, move: chess.Move) -> str:
        """Play a legal ``move``; return its SAN."""
        san = self.board.san(move)
        self.board.push(move)
        self.sans.append(san)
        return san

    def pop(self) -> chess.Move:
        """Take back the last move."""
        self.sans.pop()
        return self.board.pop()

    def undo_plies(self) -> int:
        """How many moves taking back the person's last move undoes (with the computer's
        reply to it); 0 when the person has not moved."""
        if self.computer is None:
            return 1 if self.board.move_stack else 0
        probe = self.board.copy()
        count = 0
        while probe.move_stack:
            probe.pop()
            count += 1
            if probe.turn == self.human:
                return count
        return 0

    def take_back(self) -> int:
        """Take back the person's last move and the reply to it; return how many moves
        (a resignation is withdrawn first, taking back nothing)."""
        if self.resigned is not None:
            self.resigned = None
            return 0
        count = self.undo_plies()
        for _ in range(count):
            self.pop()
        return count

    def outcome(self) -> chess.Outcome | None:
        """The rules' verdict (draws that may be claimed count), or None."""
        return self.board.outcome(claim_draw=True)

    def over(self) -> bool:
        """Whether the game has ended (by the rules or a resignation)."""
        return self.resigned is not None or self.outcome() is not None

    def result(self) -> str:
        """PGN result of the game so far."""
        if self.resigned is not None:
            return "0-1" if self.resigned == chess.WHITE else "1-0"
        outcome = self.outcome()
        return outcome.result() if outcome is not None else "*"

    def reason(self) -> str:
        """Why the game ended in a few words (empty while it goes on)."""
        if self.resigned is not None:
            return f"{colour_name(self.resigned)} resigns"
        outcome = self.outcome()
        if outcome is None:
            return ""
        return ENDINGS.get(outcome.termination.name, outcome.termination.name.lower())

    def ending(self) -> str | None:
        """How the game ended, as a sentence with the result, or None while it goes on."""
        if self.resigned is not None:
            winner = colour_name(not self.resigned)
            return f"{colour_name(self.resigned)} resigns. {winner} wins ({self.result()})."
        outcome = self.outcome()
        if outcome is None:
            return None
        why = self.reason()
        if outcome.winner is None:
            return f"Draw by {why} (1/2-1/2)."
        return f"{colour_name(outcome.winner)} wins by {why} ({outcome.result()})."

    def record(self, headers: Mapping[str, str],
               game: chess.pgn.Game | None = None) -> chess.pgn.Game:
        """The game as a PGN record: ``headers`` and the result, the start position, the
        moves and, once it has ended, how (``game``: an empty game to fill)."""
        record = new_game(self.board, {**headers, "Result": self.result()},
                          self.board.move_stack, game)
        ending = self.ending()
        if ending:
            record.headers["Termination"] = "normal"
            record.end().comment = ending
        return record
