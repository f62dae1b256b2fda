"""The one writer of game records: python-chess PGN games for the arena, the terminal and the web.

:func:`new_game` starts every game record (the seven-tag roster, the start position
for a set-up or Chess960 game); :func:`to_pgn` builds an arena game with its move
comments and the reason it ended; :func:`format_game` writes one as text.
"""

from __future__ import annotations

import datetime
import socket
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TextIO

import chess
import chess.pgn

from plies.arena.referee import GameRecord
from plies.engine.score import pgn_score

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The seven tags every PGN game carries, in order."""


def new_game(start: chess.Board, headers: Mapping[str, str],
             moves: Iterable[chess.Move] = (), game: chess.pgn.Game | None = None,
             ) -> chess.pgn.Game:
    """A game record from ``start`` with ``headers`` (missing roster tags keep python-chess's
    unknown values) and
    ``moves`` as its main line; ``game`` is an empty game to fill (a subclass, say).

    A start other than the standard one is set up with FEN and SetUp tags; a Chess960
    game always carries them, even from the standard position (#518), since readers
    of Chess960 games expect the position.
    """
    game = game if game is not None else chess.pgn.Game()
    for tag in ROSTER:
        if tag in headers:
            game.headers[tag] = headers[tag]
    root = start.root() if start.move_stack else start
    if root.fen() != chess.STARTING_FEN or root.chess960:
        game.setup(root)
    if root.chess960:
        game.headers["FEN"] = root.fen()
        game.headers["SetUp"] = "1"
    for tag, value in headers.items():
        if tag not in ROSTER:
            game.headers[tag] = value
    node: chess.pgn.GameNode = game
    for move in moves:
        node = node.add_main_variation(move)
    return game


def to_pgn(
    record: GameRecord,
    event: str = "plies arena",
    time_control: str = "-",
    date: datetime.date | None = None,
) -> chess.pgn.Game:
    """Build a python-chess game with headers, book moves, move comments and the ending."""
    start = chess.Board(record.opening.fen, chess960=record.opening.chess960)
    headers = {
        "Event": event,
        "Site": socket.gethostname() or "?",
        "Date": (date or datetime.date.today()).strftime("%Y.%m.%d"),
        "Round": str(record.round) if record.round else "?",
        "White": record.white,
        "Black": record.black,
        "Result": record.result,
        "TimeControl": time_control,
        "Termination": record.termination,
        "PlyCount": str(len(record.opening.moves) + len(record.moves)),
    }
    if record.opening.name:
        headers["Opening"] = record.opening.name
    game = new_game(start, headers)
    node: chess.pgn.GameNode = game
    for uci in record.opening.moves:
        node = node.add_variation(chess.Move.from_uci(uci))
    if record.opening.moves:
        node.comment = "book"
    for m in record.moves:
        node = node.add_variation(m.move)
        # The mover's view, cutechess's style: ``+0.31/12``, ``+M3/12`` (mate in 3 moves).
        score = "" if m.score is None else pgn_score(m.score.relative, m.depth)
        node.comment = " ".join(p for p in (score, f"{m.elapsed_ms / 1000:.3f}s") if p)
    if record.reason:
        if node is game:
            game.comment = record.reason
        else:
            node.comment = f"{node.comment}; {record.reason}" if node.comment else record.reason
    return game


def format_game(game: chess.pgn.Game) -> str:
    """The PGN text of one game, followed by a blank line."""
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n\n"


class PgnWriter:
    """Appends finished games to a file as they end, so an interrupted match keeps them."""

    def __init__(self, path: str | Path) -> None:
        """Open (truncating) ``path`` for writing."""
        self.path = Path(path)
        self._lock = threading.Lock()
        self._fh: TextIO = self.path.open("w", encoding="utf-8")

    def write(self, game: chess.pgn.Game) -> None:
        """Append one game and flush it to disk."""
        self.write_text(format_game(game))

    def write_text(self, text: str) -> None:
        """Append one game's PGN text (as :func:`format_game` writes it) and flush it."""
        with self._lock:
            self._fh.write(text)
            self._fh.flush()

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._fh.close()
