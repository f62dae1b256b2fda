"""The league file: written line by line, read back, settings checked, torn lines dropped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plies.arena.league import League, LeagueError, slots, stored_settings
from plies.arena.match import pairings_for, schedule
from plies.arena.openings import Opening
from plies.arena.referee import GameRecord

SETTINGS = {"tc": None, "depth": 1, "variant": "standard"}


def finished(white: int, black: int, names: list[str], pairing: tuple[int, int],
             result: str = "1-0", fault: str = "") -> GameRecord:
    """A finished record between players ``white`` and ``black``."""
    record = GameRecord(names[white], names[black], Opening(), result=result,
                        termination="normal", reason="White mates", fault=fault)
    record.white_index, record.black_index, record.pairing = white, black, pairing
    return record


def test_new_league_writes_nothing_until_a_player_joins(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    league = League.open(path, SETTINGS)
    league.close()
    assert not path.exists()


def test_round_trip_and_pending_games(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    league = League.open(path, SETTINGS)
    assert league.add_players(["a", "b"]) == ["a", "b"]
    tasks = schedule(pairings_for(2), 4, [Opening()] * 2)
    assert slots(tasks) == [0, 1, 2, 3]
    league.record(0, finished(0, 1, ["a", "b"], (0, 1)), "[Event \"x\"]\n\n1. e4 *\n\n")
    league.record(2, finished(0, 1, ["a", "b"], (0, 1), "0-1", "crash"), "")
    league.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"league": 1, "settings": SETTINGS}
    assert [json.loads(x).get("player") for x in lines[1:3]] == ["a", "b"]

    again = League.open(path, SETTINGS)
    assert again.players == ["a", "b"] and len(again.games) == 2
    assert again.games[1].fault == "crash" and again.games[1].faulty == "white"
    assert [t.round for t in again.pending(tasks)] == [2, 4]
    # A third player: only the games of its two new pairings are pending.
    assert again.add_players(["b", "c"]) == ["c"]
    tasks3 = schedule(pairings_for(3), 4, [Opening()] * 2)
    pending = again.pending(tasks3)
    assert len(pending) == 2 + 4 + 4
    assert sum(1 for t in pending if t.pairing == (0, 1)) == 2
    again.close()
    assert League.open(path, SETTINGS).players == ["a", "b", "c"]


def test_other_settings_are_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    league = League.open(path, SETTINGS)
    league.add_players(["a"])
    league.close()
    with pytest.raises(LeagueError, match="played with depth 1, this run asks depth 2") as err:
        League.open(path, {**SETTINGS, "depth": 2})
    assert "\n" not in str(err.value)


def test_a_torn_last_line_is_dropped_and_the_file_repaired(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    league = League.open(path, SETTINGS)
    league.add_players(["a", "b"])
    league.record(0, finished(0, 1, ["a", "b"], (0, 1)), "")
    league.close()
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"game": {"white": "a", "bla')  # a crash mid-write
    league = League.open(path, SETTINGS)
    assert len(league.games) == 1
    league.record(1, finished(1, 0, ["a", "b"], (0, 1)), "")
    league.close()
    reread = League.open(path, SETTINGS)
    assert [g.slot for g in reread.games] == [0, 1]


def test_garbage_inside_the_file_is_an_error_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text('{"league": 1, "settings": {}}\nnot json\n{"player": "a"}\n')
    with pytest.raises(LeagueError, match=r"l.jsonl:2: not a league record"):
        League.open(path, {})
    path.write_text("hello\n")
    with pytest.raises(LeagueError, match="not a league"):
        League.open(path, {})


def test_stored_settings_come_from_the_header_alone(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    assert stored_settings(path) is None  # no league yet
    league = League.open(path, SETTINGS)
    league.add_players(["a", "b"])
    league.close()
    with path.open("a") as fh:
        fh.write("not json\n")  # later lines are not read
    assert stored_settings(path) == SETTINGS
    other = tmp_path / "notes.jsonl"
    other.write_text('{"player": "a"}\n')
    with pytest.raises(LeagueError, match="not a league file"):
        stored_settings(other)
