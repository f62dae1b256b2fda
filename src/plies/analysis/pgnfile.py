"""Read the games of a PGN file for analysis, naming each one that cannot be used.

python-chess reads leniently: on an illegal or unreadable move it records the
error on the game and drops the rest of that game.  Such a game is skipped
with a one-line reason naming the game and the move, and the file's other
games are still analysed.  A file compressed with xz, gzip or bzip2 (as the
match archives ``*.pgn.xz`` are) is read through its decompressor, told by its
first bytes rather than its name.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import chess
import chess.pgn


class PgnFileError(ValueError):
    """The file cannot be read at all (missing, unreadable, or holding no game)."""


@dataclass(frozen=True)
class Problem:
    """A game that is skipped, and why."""

    number: int
    """1-based position of the game in the file."""
    reason: str
    """One line, naming the game and (for an illegal move) the move."""


def game_label(number: int, game: chess.pgn.Game) -> str:
    """``game 2 (Anand - Carlsen)``."""
    white = game.headers.get("White", "?")
    black = game.headers.get("Black", "?")
    return f"game {number} ({white} - {black})"


def _move_label(board: chess.Board) -> str:
    """``12.`` or ``12...``: the number of the move due in ``board``."""
    return f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"


def _problem(number: int, game: chess.pgn.Game) -> str | None:
    """Why ``game`` cannot be analysed, or None if it can."""
    label = game_label(number, game)
    variant = game.headers.get("Variant", "Standard")
    if variant.lower() not in ("standard", "chess", "from position", ""):
        return f"{label}: the variant {variant!r} is not supported; skipped"
    try:
        start = game.board()
    except ValueError as exc:
        return f"{label}: bad FEN header ({exc}); skipped"
    if start.status() != chess.STATUS_VALID:
        return f"{label}: the start position is not legal; skipped"
    if game.errors:
        error = game.errors[0]
        end = game.end().board()
        text = str(error).split(" in ")[0]
        return f"{label}: move {_move_label(end)} cannot be played ({text}); skipped"
    if game.next() is None:
        return f"{label}: no moves; skipped"
    return None


# Magic bytes of the compressed formats read transparently, and the opener of each.
_COMPRESSED: tuple[tuple[bytes, str, Callable[..., TextIO]], ...] = (
    (b"\xfd7zXZ\x00", "xz", lzma.open),
    (b"\x1f\x8b", "gzip", gzip.open),
    (b"BZh", "bzip2", bz2.open),
)

# What a decompressor raises on damaged or cut-short data, part way through the file.
_DAMAGED = (OSError, EOFError, lzma.LZMAError, zlib.error)


def _open_text(p: Path) -> tuple[TextIO, str | None]:
    """The file as text (decompressed if its first bytes say so) and the compression's name."""
    with p.open("rb") as raw:
        head = raw.read(6)
    for magic, name, opener in _COMPRESSED:
        if head.startswith(magic):
            return opener(p, "rt", encoding="utf-8-sig", errors="replace"), name
    return p.open(encoding="utf-8-sig", errors="replace"), None


def read_games(path: str | Path) -> Iterator[chess.pgn.Game | Problem]:
    """Each game of the file (or the :class:`Problem` that makes it unusable), in order."""
    p = Path(path)
    if not p.exists():
        raise PgnFileError(f"no such file: {p}")
    if not p.is_file():
        raise PgnFileError(f"not a file: {p}")
    try:
        handle, compression = _open_text(p)
    except OSError as exc:
        raise PgnFileError(f"cannot read {p}: {exc.strerror or exc}") from None
    with handle:
        number = 0
        while True:
            try:
                game = chess.pgn.read_game(handle)
            except Exception as exc:
                if compression is not None and isinstance(exc, _DAMAGED):
                    # The games before the damage were whole: keep them, name where it stopped.
                    reason = (f"the {compression} data is damaged or cut short here ({exc}); "
                              "the rest of the file is skipped")
                elif isinstance(exc, OSError):
                    raise PgnFileError(f"cannot read {p}: {exc.strerror or exc}") from None
                else:  # the parser itself failed (seen: IndexError on junk)
                    reason = (f"the PGN parser failed here ({type(exc).__name__}: {exc}); "
                              "the rest of the file is skipped")
                number += 1
                yield Problem(number, f"game {number}: {reason}")
                break
            if game is None:
                break
            number += 1
            problem = _problem(number, game)
            yield game if problem is None else Problem(number, problem)
    if number == 0:
        raise PgnFileError(f"no games in {p}")
