"""Adding a built-in player is one class and one registration line: the spec parser, the
help texts and ``plies players``'s listing all take it from the registry."""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest

from plies.agents.ladder import LadderPlayer
from plies.agents.registry import PLAYERS, builtin_forms
from plies.agents.spec import SpecError, parse_player, spec_help
from plies.arena.openings import Opening
from plies.arena.referee import Adjudication, GameSettings, play_game
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.registry import SEED, Option


class LastMovePlayer(LadderPlayer):
    """Plays the legal move ``skip`` places from the end of the list."""

    name = "lastmove"

    def __init__(self, skip: int = 0, seed: int | None = None) -> None:
        """Count ``skip`` moves back from the last legal move."""
        super().__init__(seed)
        self.skip = skip

    def play(self, board: Board, limit: Limit) -> Info:
        """The chosen legal move (none when there is none)."""
        moves = list(board.legal_moves)
        return Info(move=moves[-1 - min(self.skip, len(moves) - 1)] if moves else None)


@pytest.fixture
def lastmove() -> Iterator[None]:
    """``lastmove`` registered for one test, as a built-in's one line registers it."""
    PLAYERS.register("lastmove", "the last legal move", Option("skip", int, 0, minimum=0),
                     SEED)(LastMovePlayer)
    yield
    PLAYERS.remove("lastmove")


def test_a_registered_player_plays_through_the_spec_parser(lastmove: None) -> None:
    spec = parse_player("lastmove:skip=1")
    assert (spec.kind, spec.agent) == ("agent", "lastmove")
    white, black = spec.create(), parse_player("random:seed=2").create()
    settings = GameSettings(limit=Limit(depth=1), adjudication=Adjudication(max_moves=6))
    record = play_game(white, black, Opening(chess.STARTING_FEN), settings, seed=1)
    board = chess.Board()
    for number, played in enumerate(record.moves):
        if number % 2 == 0:  # White's: the second-to-last legal move, every time
            assert played.move.uci() == list(Board(board.fen()).legal_moves)[-2].uci()
        board.push(played.move)
    assert len(record.moves) >= 6


def test_a_registered_player_is_in_every_help_text_and_checked(lastmove: None) -> None:
    assert "lastmove[:skip=N]" in builtin_forms()
    assert "lastmove[:skip=N]" in spec_help()
    with pytest.raises(SpecError, match="option skip of lastmove must be at least 0, not -1"):
        parse_player("lastmove:skip=-1")
    with pytest.raises(SpecError, match=r"unknown option 'depth' for lastmove \(known: seed, skip"):
        parse_player("lastmove:depth=2")


def test_without_its_line_the_name_is_unknown() -> None:
    with pytest.raises(SpecError, match="unknown player"):
        parse_player("lastmove")
