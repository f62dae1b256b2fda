"""Reading a pasted PGN without letting it cost the server: main line only, bounded.

python-chess copies the board for every variation it follows, so a few kilobytes of
nested variations cost seconds and megabytes, and some comment layouts cost time
quadratic in the line's length. Here variations are skipped while parsing (never
built), plies are counted while parsing (the reader stops at the limit), and the
reading runs in a worker process (``python -m plies.web.pgn``, one request per line)
that the server kills when its time is up (:mod:`plies.web.pgn_workers`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from io import StringIO
from typing import Any, TextIO

import chess
import chess.pgn

from plies.web.errors import ApiError

#: Longest game read, in plies.
MAX_PLIES = 1000


class PgnError(ApiError):
    """The PGN cannot be used: unreadable, illegal, too long or too slow to read."""


@dataclass(frozen=True)
class MainLine:
    """The main line of a game: its start, its moves, and every position on the way."""

    moves: tuple[str, ...]
    """The moves in UCI notation."""
    sans: tuple[str, ...]
    """The same moves in SAN."""
    fens: tuple[str, ...]
    """The positions, the start first (one more than there are moves)."""


class _TooLongError(Exception):
    """Raised inside the parser to stop it at the ply limit."""


class _UnreadableError(Exception):
    """Raised inside the parser to stop it at the first error."""


class MainLineVisitor(chess.pgn.BaseVisitor[MainLine]):
    """A python-chess visitor that keeps the main line and skips every variation."""

    def __init__(self, max_plies: int = MAX_PLIES) -> None:
        """Stop with an error after ``max_plies`` moves."""
        self.max_plies = max_plies
        self.board: chess.Board | None = None
        self.moves: list[str] = []
        self.sans: list[str] = []
        self.fens: list[str] = []

    def visit_board(self, board: chess.Board) -> None:
        """The start position (the parser then plays the main line on this same board)."""
        self.board = board

    def begin_variation(self) -> Any:
        """Variations are not read at all."""
        return chess.pgn.SKIP

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        """One main-line move, counted as it is read."""
        if len(self.moves) >= self.max_plies:
            raise _TooLongError
        if not move:
            raise _UnreadableError(f"a null move after {len(self.moves)} plies")
        self.fens.append(board.fen())
        self.sans.append(board.san(move))
        self.moves.append(move.uci())

    def handle_error(self, error: Exception) -> None:
        """Stop at the first error (an illegal or unreadable move, a bad FEN tag)."""
        raise _UnreadableError(str(error).splitlines()[0] if str(error) else type(error).__name__)

    def result(self) -> MainLine:
        """The main line read."""
        if self.board is None:
            raise _UnreadableError("no game found in the PGN")
        return MainLine(tuple(self.moves), tuple(self.sans), (*self.fens, self.board.fen()))


def read_main_line(text: str, max_plies: int = MAX_PLIES) -> MainLine:
    """The main line of the first game in ``text``, in this process; ``PgnError`` if bad."""
    try:
        line = chess.pgn.read_game(StringIO(text), Visitor=lambda: MainLineVisitor(max_plies))
    except _TooLongError:
        raise PgnError(f"the game is too long to analyse (more than {max_plies} plies)") from None
    except _UnreadableError as exc:
        raise PgnError(f"bad PGN: {exc}") from None
    except (ValueError, KeyError, IndexError) as exc:  # e.g. a NAG of thousands of digits
        raise PgnError(f"could not read the PGN: {type(exc).__name__}") from None
    if line is None:
        raise PgnError("no game found in the PGN")
    return line


def _serve(stdin: TextIO, stdout: TextIO) -> None:
    """The worker's loop: ``ready``, then one JSON request per line in, one answer out."""
    stdout.write("ready\n")
    stdout.flush()
    for request in stdin:
        try:
            data = json.loads(request)
            line = read_main_line(str(data["text"]), int(data["max_plies"]))
            answer: dict[str, Any] = {"ok": True, **asdict(line)}
        except PgnError as exc:
            answer = {"ok": False, "error": str(exc)}
        except Exception as exc:  # anything else: one line for the user, the type for the log
            answer = {"ok": False, "error": f"could not read the PGN ({type(exc).__name__})"}
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()


if __name__ == "__main__":
    _serve(sys.stdin, sys.stdout)
