"""PGN output for arena games: full headers, move comments and the reason each game ended."""

from __future__ import annotations

import datetime
import socket
import threading
from pathlib import Path
from typing import TextIO

import chess
import chess.pgn

from plies.arena.game import GameRecord
from plies.arena.players import MATE_CP


def _score_text(score_cp: int | None, depth: int | None) -> str:
    """Score as seen by the mover, cutechess style: ``+0.31/12`` or ``+M5/20``."""
    if score_cp is None:
        return ""
    if abs(score_cp) >= MATE_CP - 1000:
        plies = MATE_CP - abs(score_cp)
        text = f"{'+' if score_cp > 0 else '-'}M{(plies + 1) // 2}"
    else:
        text = f"{score_cp / 100:+.2f}"
    return f"{text}/{depth}" if depth else text


def to_pgn(
    record: GameRecord,
    event: str = "plies arena",
    time_control: str = "-",
    date: datetime.date | None = None,
) -> chess.pgn.Game:
    """Build a python-chess game with headers, book moves, move comments and the ending."""
    start = chess.Board(record.opening.fen, chess960=record.opening.chess960)
    game = chess.pgn.Game()
    game.headers["Event"] = event
    game.headers["Site"] = socket.gethostname() or "?"
    game.headers["Date"] = (date or datetime.date.today()).strftime("%Y.%m.%d")
    game.headers["Round"] = str(record.round) if record.round else "?"
    game.headers["White"] = record.white
    game.headers["Black"] = record.black
    game.headers["Result"] = record.result
    if record.opening.fen != chess.STARTING_FEN or start.chess960:
        game.setup(start)
    if start.chess960:  # readers of Chess960 games expect the position even for #518
        game.headers["FEN"] = start.fen()
        game.headers["SetUp"] = "1"
    game.headers["TimeControl"] = time_control
    game.headers["Termination"] = record.termination
    game.headers["PlyCount"] = str(len(record.opening.moves) + len(record.moves))
    if record.opening.name:
        game.headers["Opening"] = record.opening.name
    node: chess.pgn.GameNode = game
    for uci in record.opening.moves:
        node = node.add_variation(chess.Move.from_uci(uci))
    if record.opening.moves:
        node.comment = "book"
    for m in record.moves:
        node = node.add_variation(m.move)
        parts = [p for p in (_score_text(m.score_cp, m.depth), f"{m.elapsed_ms / 1000:.3f}s") if p]
        node.comment = " ".join(parts)
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
