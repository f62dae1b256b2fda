"""Opening books for matches: EPD positions, PGN lines, Polyglot books, or seeded random plies.

An :class:`Opening` is a starting FEN plus the book moves played from it; each
is used twice in a match, once with each engine on each side.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import chess.pgn

if TYPE_CHECKING:
    from plies.board.polyglot import OpeningBook


@dataclass(frozen=True)
class Opening:
    """A start position and the book moves (UCI) that lead to the first engine move."""

    fen: str = chess.STARTING_FEN
    moves: tuple[str, ...] = ()
    name: str = ""

    def board(self) -> chess.Board:
        """The position after the book moves (with them on the move stack)."""
        board = chess.Board(self.fen)
        for uci in self.moves:
            board.push_uci(uci)
        return board


class OpeningError(ValueError):
    """An opening file could not be read or holds no usable opening."""


def load_openings(path: str | Path, max_plies: int | None = None) -> list[Opening]:
    """Read openings from an ``.epd`` or ``.pgn`` file (by extension; EPD otherwise)."""
    p = Path(path)
    if not p.is_file():
        raise OpeningError(f"opening file not found: {p}")
    openings = _load_pgn(p, max_plies) if p.suffix.lower() == ".pgn" else _load_epd(p)
    if not openings:
        raise OpeningError(f"no usable openings in {p}")
    return openings


def _load_epd(path: Path) -> list[Opening]:
    """One position per line; blank lines and ``#`` comments are skipped."""
    openings: list[Opening] = []
    with path.open(encoding="utf-8", errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as exc:
                raise OpeningError(f"{path}:{lineno}: bad EPD line: {exc}") from exc
            if board.status() != chess.STATUS_VALID:
                raise OpeningError(f"{path}:{lineno}: not a legal position")
            if board.is_game_over():
                continue
            name = str(ops.get("id", "")) if ops.get("id") is not None else ""
            openings.append(Opening(board.fen(), (), name))
    return openings


def _load_pgn(path: Path, max_plies: int | None) -> list[Opening]:
    """Every game's start position and main line (cut at ``max_plies`` if given)."""
    openings: list[Opening] = []
    with path.open(encoding="utf-8", errors="replace") as fh:
        while True:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            if game.errors:
                raise OpeningError(f"{path}: bad PGN game: {game.errors[0]}")
            board = game.board()
            fen = board.fen()
            moves: list[str] = []
            for move in game.mainline_moves():
                if max_plies is not None and len(moves) >= max_plies:
                    break
                moves.append(move.uci())
                board.push(move)
            if board.is_game_over():
                continue
            name = game.headers.get("Opening", "") or game.headers.get("ECO", "")
            openings.append(Opening(fen, tuple(moves), name))
    return openings


def random_opening(plies: int, rng: random.Random) -> Opening:
    """``plies`` uniformly random legal moves from the start, never ending the game."""
    for _ in range(1000):
        board = chess.Board()
        moves: list[str] = []
        while len(moves) < plies:
            legal = list(board.legal_moves)
            move = rng.choice(legal)
            board.push(move)
            moves.append(move.uci())
            if board.is_game_over():
                break
        if not board.is_game_over():
            return Opening(chess.STARTING_FEN, tuple(moves), f"random {plies} plies")
    raise OpeningError("could not build a random opening")  # pragma: no cover


def opening_schedule(
    pairs_needed: int,
    book: Sequence[Opening] | None,
    random_plies: int | None,
    seed: int | None,
) -> list[Opening]:
    """The opening for each game pair: the book in order (cycled), random lines, or the start."""
    if book:
        return [book[i % len(book)] for i in range(pairs_needed)]
    if random_plies:
        rng = random.Random(seed)
        return [random_opening(random_plies, rng) for _ in range(pairs_needed)]
    return [Opening() for _ in range(pairs_needed)]


def book_openings(path: str | Path, depth: int, count: int, seed: int | None) -> list[Opening]:
    """``count`` lines walked through a Polyglot book: weighted picks, at most ``depth`` plies.

    Each line follows the book from the start position (the RNG seeded with
    ``seed``) until it has ``depth`` plies or the book runs out; a few tries
    are spent per game pair to avoid repeating a line while the book offers
    new ones.
    """
    from plies.board.polyglot import BookError, OpeningBook

    try:
        book = OpeningBook(path)
    except BookError as exc:
        raise OpeningError(str(exc)) from None
    rng = random.Random(seed)
    openings: list[Opening] = []
    with book:
        if not book.moves(chess.Board()):
            raise OpeningError(f"the book {path} has no move for the start position")
        seen: set[tuple[str, ...]] = set()
        for _ in range(count):
            line = _book_line(book, depth, rng)
            for _retry in range(_BOOK_RETRIES):
                if line not in seen:
                    break
                line = _book_line(book, depth, rng)
            seen.add(line)
            openings.append(Opening(chess.STARTING_FEN, line, f"book {len(line)} plies"))
    return openings


# Fresh lines tried before a game pair repeats an opening already scheduled.
_BOOK_RETRIES = 20


def _book_line(book: OpeningBook, depth: int, rng: random.Random) -> tuple[str, ...]:
    """One weighted walk through the book, never ending the game."""
    board = chess.Board()
    moves: list[str] = []
    while len(moves) < depth:
        move = book.choose(board, "weighted", rng)
        if move is None:
            break
        board.push(move)
        if board.is_game_over():
            board.pop()
            break
        moves.append(move.uci())
    return tuple(moves)
