"""One seeded self-play game for training data: random opening plies, then the players.

Game ``n`` of a run depends only on the run's settings, the base seed and
``n``: its random opening is drawn from an RNG seeded by :func:`game_seed`, and
the players are reseeded with it before the game, so games can be played (and
replayed after an interruption) one at a time in any session.
"""

from __future__ import annotations

import hashlib
import random
import threading
from dataclasses import asdict, dataclass

import chess

from plies.agents.player import Player
from plies.arena.openings import Opening
from plies.arena.referee import Adjudication, GameRecord, GameSettings, play_game
from plies.engine.limits import Limit


@dataclass(frozen=True)
class DatagenSettings:
    """Everything that decides the content of a datagen file (besides the number of games)."""

    player: str = "engine"
    opponent: str = ""
    nodes: int | None = 2000
    depth: int | None = None
    seed: int = 0
    random_plies: int = 8
    skip_plies: int = 16
    scores: bool = False
    max_moves: int = 200
    resign_score: int = 1000
    resign_moves: int = 4

    def as_dict(self) -> dict[str, object]:
        """The settings as plain JSON-ready values."""
        return asdict(self)

    def game_settings(self) -> GameSettings:
        """Arena game settings: the fixed budget, a move limit and resign adjudication."""
        return GameSettings(
            limit=Limit(depth=self.depth, nodes=self.nodes if self.depth is None else None),
            move_timeout_s=120.0,
            adjudication=Adjudication(
                resign_moves=self.resign_moves,
                resign_score=self.resign_score,
                max_moves=self.max_moves,
            ),
        )


def game_seed(base_seed: int, number: int) -> int:
    """The seed of game ``number``: a 63-bit hash of the base seed and the number."""
    digest = hashlib.sha256(f"plies-datagen:{base_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def random_start(plies: int, rng: random.Random) -> Opening:
    """``plies`` uniformly random legal moves from the start position, never ending the game."""
    for _ in range(1000):
        board = chess.Board()
        moves: list[str] = []
        while len(moves) < plies and not board.is_game_over():
            move = rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
            board.push(move)
            moves.append(move.uci())
        if not board.is_game_over():
            return Opening(chess.STARTING_FEN, tuple(moves), f"random {plies} plies")
    raise RuntimeError("no random opening without a game end")  # pragma: no cover


def play_datagen_game(
    settings: DatagenSettings,
    number: int,
    white: Player,
    black: Player,
    stop: threading.Event | None = None,
) -> GameRecord:
    """Play game ``number`` of a run: its random opening, then ``white`` against ``black``
    (unfinished, result '*', if ``stop`` is set meanwhile)."""
    seed = game_seed(settings.seed, number)
    opening = random_start(settings.random_plies, random.Random(seed))
    # Alternate colours so that two different players share White evenly.
    if number % 2 == 0:
        white, black = black, white
    return play_game(white, black, opening, settings.game_settings(), stop, seed)
