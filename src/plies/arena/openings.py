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
    from plies.board import Board
    from plies.board.polyglot import OpeningBook


@dataclass(frozen=True)
class Opening:
    """A start position and the book moves (UCI) that lead to the first engine move."""

    fen: str = chess.STARTING_FEN
    moves: tuple[str, ...] = ()
    name: str = ""
    # Chess960 rules: castling as king takes rook, engines told UCI_Chess960.
    chess960: bool = False

    def board(self) -> Board:
        """The position after the book moves (with them on the move stack), the referee's."""
        from plies.board import Board

        return Board.from_chess(self.chess_board())

    def chess_board(self) -> chess.Board:
        """The same position on a python-chess board."""
        board = chess.Board(self.fen, chess960=self.chess960)
        for uci in self.moves:
            board.push_uci(uci)
        return board


class OpeningError(ValueError):
    """An opening file could not be read or holds no usable opening."""


def load_openings(
    path: str | Path, max_plies: int | None = None, chess960: bool = False
) -> list[Opening]:
    """Read openings from an ``.epd`` or ``.pgn`` file (by extension; EPD otherwise).

    With ``chess960`` EPD positions are read by Chess960 rules and every PGN
    game must carry ``[Variant "Chess960"]``.
    """
    p = Path(path)
    if not p.is_file():
        raise OpeningError(f"opening file not found: {p}")
    if p.suffix.lower() == ".pgn":
        openings = _load_pgn(p, max_plies)
        if chess960 and not all(o.chess960 for o in openings):
            raise OpeningError(f'{p}: a game without [Variant "Chess960"] in a Chess960 match')
    else:
        openings = _load_epd(p, chess960)
    if not openings:
        raise OpeningError(f"no usable openings in {p}")
    return openings


def _load_epd(path: Path, chess960: bool) -> list[Opening]:
    """One position per line; blank lines and ``#`` comments are skipped."""
    openings: list[Opening] = []
    with path.open(encoding="utf-8", errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board, ops = chess.Board.from_epd(line, chess960=chess960)
            except ValueError as exc:
                raise OpeningError(f"{path}:{lineno}: bad EPD line: {exc}") from exc
            if board.status() != chess.STATUS_VALID:
                raise OpeningError(f"{path}:{lineno}: not a legal position")
            if board.is_game_over():
                continue
            name = str(ops.get("id", "")) if ops.get("id") is not None else ""
            openings.append(Opening(board.fen(), (), name, chess960))
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
            openings.append(Opening(fen, tuple(moves), name, board.chess960))
    return openings


def random_opening(plies: int, rng: random.Random, start: Opening | None = None) -> Opening:
    """``plies`` uniformly random legal moves from ``start`` (the usual start position by
    default), never ending the game."""
    start = start or Opening()
    for _ in range(1000):
        # python-chess's move order: a seed gives the openings it always gave.
        board = start.chess_board()
        moves: list[str] = []
        while len(moves) < plies:
            legal = list(board.legal_moves)
            move = rng.choice(legal)
            board.push(move)
            moves.append(move.uci())
            if board.is_game_over():
                break
        if not board.is_game_over():
            name = f"{start.name}, random {plies} plies" if start.name else f"random {plies} plies"
            return Opening(start.fen, start.moves + tuple(moves), name, start.chess960)
    raise OpeningError("could not build a random opening")  # pragma: no cover


def chess960_openings(count: int, rng: random.Random) -> list[Opening]:
    """``count`` Chess960 start positions drawn by ``rng``, none repeated until all 960 are."""
    from plies.board.chess960 import POSITIONS, chess960_fen

    openings: list[Opening] = []
    while len(openings) < count:
        for n in rng.sample(range(POSITIONS), min(POSITIONS, count - len(openings))):
            openings.append(Opening(chess960_fen(n), (), f"Chess960 #{n}", chess960=True))
    return openings


def opening_schedule(
    pairs_needed: int,
    book: Sequence[Opening] | None,
    random_plies: int | None,
    seed: int | None,
    chess960: bool = False,
) -> list[Opening]:
    """The opening for each game pair: the book in order (cycled), random lines, or the start.

    With ``chess960`` and no book each pair starts from its own seeded Chess960
    start position (random lines are played from it).
    """
    if book:
        return [book[i % len(book)] for i in range(pairs_needed)]
    rng = random.Random(seed)
    starts = chess960_openings(pairs_needed, rng) if chess960 else [Opening()] * pairs_needed
    if random_plies:
        return [random_opening(random_plies, rng, start) for start in starts]
    return starts


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
