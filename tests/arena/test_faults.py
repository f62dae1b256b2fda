"""A fault costs the faulty player the game, never the match: raise, illegal, garbage, death
and hang, for a Python mind (in its child process) and for a mind program."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import chess
import pytest
from tests.waiting import HANG_S

from plies.agents.player import Player
from plies.agents.registry import make_player
from plies.agents.spec import parse_player
from plies.arena.match import Match, MatchSettings
from plies.arena.openings import Opening
from plies.arena.pgn import to_pgn
from plies.arena.referee import GameRecord, GameSettings, play_game
from plies.engine.limits import Limit

TOY_MIND = Path(__file__).with_name("toy_mind.py")
# A move timeout the hanging minds can never meet (they never answer at all).
QUICK = GameSettings(limit=Limit(depth=1), move_timeout_s=1.0)
# The other faults must not turn into hangs on a busy machine: they get all the time a
# reply may take.
PATIENT = GameSettings(limit=Limit(depth=1), move_timeout_s=HANG_S)

FAULTY = """\
import os
import random

def raises(board):
    if board.fullmove_number > 2:
        raise ValueError("my bug")
    return random.choice(board.legal_moves)

def illegal(board):
    return "e2e5"

def garbage(board):
    return 42

def dies(board):
    os._exit(4)

def hangs(board):
    while True:
        pass
"""

PROGRAM = f"mind:{sys.executable} {TOY_MIND}"
#: How each kind of player is given a fault: a Python mind in a file (run in its child
#: process), a mind program faulting after two good answers, or at once for a hang (a good
#: answer would have to meet the timeout no hang can meet).
SPECS = {"python": "faulty.py:{}", "program": PROGRAM + " {}"}
FAULTS = [
    pytest.param(SPECS[who].format(mode), fault, termination, words,
                 id=f"{who}-{mode.split()[0]}")
    for who, mode, fault, termination, words in (
        ("python", "raises", "crash", "abandoned", "ValueError: my bug (faulty.py line 6)"),
        ("python", "illegal", "illegal", "rules infraction", "returned 'e2e5', not a legal move"),
        ("python", "garbage", "illegal", "rules infraction", "returned int 42, not a move"),
        ("python", "dies", "crash", "abandoned", "exited with status 4"),
        ("python", "hangs", "hang", "abandoned", "no move within 1s"),
        ("program", "raise 2", "crash", "abandoned", "exited with status 1"),
        ("program", "illegal 2", "illegal", "rules infraction", "is not a legal move"),
        ("program", "garbage 2", "illegal", "rules infraction", "answered 'hello there'"),
        ("program", "die 2", "crash", "abandoned", "exited with status 3"),
        ("program", "hang 0", "hang", "abandoned", "no move within 1s"),
    )
]
"""(player spec, fault kind, PGN Termination, words of the reason) for every fault."""


def _pid_alive(pid: int) -> bool:
    """True if a process with ``pid`` exists (and is not a zombie we reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _lose(player: Player, hangs: bool = False) -> GameRecord:
    """A game in which ``player`` (White) faults; the record, checked to be a loss."""
    record = play_game(player, make_player("random"), Opening(chess.STARTING_FEN),
                       QUICK if hangs else PATIENT, seed=5)
    assert record.result == "0-1", record.reason
    assert record.faulty_index == 0
    return record


@pytest.mark.parametrize(("spec", "fault", "termination", "words"), FAULTS)
def test_every_fault_loses_the_game_and_kills_the_process(
    spec: str, fault: str, termination: str, words: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "faulty.py").write_text(FAULTY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    player = parse_player(spec).create()
    try:
        record = _lose(player, hangs=fault == "hang")
        pid = player.pid
        assert not player.healthy
    finally:
        player.close()
    assert (record.fault, record.termination) == (fault, termination), record.reason
    assert words in record.reason, record.reason
    assert pid is None or not _pid_alive(pid)
    game = to_pgn(record)
    assert game.headers["Termination"] == termination
    assert words in game.end().comment or words in game.comment


def test_next_game_gets_a_fresh_process(tmp_path: Path) -> None:
    (tmp_path / "faulty.py").write_text(FAULTY, encoding="utf-8")
    for text in (f"{tmp_path / 'faulty.py'}:raises", f"{PROGRAM} die 3"):
        player = parse_player(text).create()
        try:
            first = player.pid
            _lose(player)
            player.new_game(1)  # what the match does before the next game
            assert player.healthy and player.pid not in (None, first)
            assert _lose(player).fault == "crash"
        finally:
            player.close()


def test_a_faulty_mind_loses_its_games_but_the_match_goes_on(tmp_path: Path) -> None:
    (tmp_path / "faulty.py").write_text(FAULTY, encoding="utf-8")
    specs = [parse_player(f"{tmp_path / 'faulty.py'}:hangs"),
             parse_player(f"{PROGRAM} garbage 0"),
             parse_player("random")]
    match = Match(specs, MatchSettings(games=2, seed=1), QUICK, [Opening(chess.STARTING_FEN)])
    result = match.run()
    assert result.played == result.scheduled == 6
    faults: dict[int, int] = {}
    for record in result.records:
        if record.faulty_index is not None:
            faults[record.faulty_index] = faults.get(record.faulty_index, 0) + 1
    # Both minds fault at their first move (no good answer has to meet the short timeout):
    # each loses its two games against random and, of the two between them, the one where
    # it moves first; random never faults.
    assert faults == {0: 3, 1: 3}
