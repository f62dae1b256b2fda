"""A league file: every finished game of a round robin, so it can grow and resume.

The file is JSON Lines, one object a line, appended and flushed as things happen,
so a league stopped at any moment (Ctrl-C, a crash, a power cut) loses at most the
games that were being played:

- the first line, ``{"league": 1, "settings": {...}}``: the settings every game of the
  league is played under (time control or fixed depth/nodes/movetime, variant,
  adjudication); a run asking for other settings is refused, since its games
  would not be comparable with those already played;
- ``{"player": SPEC}``: a player joins, by its spec string (``random``,
  ``uci:/usr/games/stockfish``, ...); the order of these lines is the league's order;
- ``{"game": {...}}``: one finished game: the two players' specs, which pairing and
  which game of it (``slot``: game 2k and 2k+1 of a pairing share an opening, colours
  swapped), result, termination, reason, fault, and the game's PGN text.

A league is a round robin among its players with ``games`` games per pairing. A run
plays only the (pairing, slot) games not yet in the file: a player added later
plays only its new pairings, and a resumed league the games it had not finished.
A last line cut short by a crash is dropped when the file is next opened.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from plies.arena.match import GameTask
from plies.arena.referee import GameRecord
from plies.arena.standings import GameResult, faulty_side

FORMAT = 1
"""Version of the league file format."""


class LeagueError(ValueError):
    """A league file that cannot be used: unreadable, or played under other settings."""


@dataclass
class StoredGame:
    """One game as the league file keeps it."""

    white: str
    """White's spec."""
    black: str
    """Black's spec."""
    pairing: tuple[str, str]
    """The pairing's two specs, in league order."""
    slot: int
    """Which game of the pairing (0-based)."""
    result: str
    termination: str = ""
    reason: str = ""
    fault: str = ""
    faulty: str = ""
    """``white`` or ``black`` when a fault ended the game, else empty."""
    pgn: str = ""

    def to_json(self) -> dict[str, Any]:
        """The object written to the file."""
        return {"white": self.white, "black": self.black, "pairing": list(self.pairing),
                "slot": self.slot, "result": self.result, "termination": self.termination,
                "reason": self.reason, "fault": self.fault, "faulty": self.faulty,
                "pgn": self.pgn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredGame:
        """Read a game object (KeyError/TypeError/ValueError if malformed)."""
        pairing = data["pairing"]
        if not (isinstance(pairing, list) and len(pairing) == 2
                and all(isinstance(p, str) for p in pairing)):
            raise ValueError("bad pairing")
        game = cls(str(data["white"]), str(data["black"]), (pairing[0], pairing[1]),
                   int(data["slot"]), str(data["result"]), str(data.get("termination", "")),
                   str(data.get("reason", "")), str(data.get("fault", "")),
                   str(data.get("faulty", "")), str(data.get("pgn", "")))
        if game.result not in ("1-0", "0-1", "1/2-1/2"):
            raise ValueError(f"bad result {game.result!r}")
        return game

    def result_for(self, names: Mapping[str, str]) -> GameResult:
        """The standings' view, with specs shown by their display names."""
        white, black = names.get(self.white, self.white), names.get(self.black, self.black)
        faulty = white if self.faulty == "white" else black if self.faulty == "black" else ""
        return GameResult(white, black, self.result, self.fault, faulty)


@dataclass
class League:
    """A league file's contents, and the open file new lines are appended to."""

    path: Path
    settings: dict[str, Any]
    players: list[str] = field(default_factory=list)
    """Player specs in league order."""
    games: list[StoredGame] = field(default_factory=list)
    _fh: TextIO | None = None

    @classmethod
    def open(cls, path: str | Path, settings: Mapping[str, Any]) -> League:
        """Open (or create) the league at ``path`` for games under ``settings``.

        LeagueError if the file is unreadable or was played under other settings.
        """
        target = Path(path)
        wanted = json.loads(json.dumps(dict(settings)))  # as it reads back from the file
        if not target.exists() or target.stat().st_size == 0:
            # Written with the first player: a run that fails before leaves no file.
            return cls(target, wanted)
        league, good_bytes = _read(target)
        _check_settings(target, league.settings, wanted)
        if good_bytes < target.stat().st_size:  # a line cut short by a crash
            with target.open("r+b") as fh:
                fh.truncate(good_bytes)
        return league

    def add_players(self, specs: Sequence[str]) -> list[str]:
        """Add the specs not yet in the league (in order); return the new ones."""
        new = []
        for spec in specs:
            if spec not in self.players and spec not in new:
                new.append(spec)
        for spec in new:
            self.players.append(spec)
            self._append({"player": spec})
        return new

    def done(self) -> set[tuple[tuple[str, str], int]]:
        """The (pairing, slot) games already played."""
        return {(g.pairing, g.slot) for g in self.games}

    def pending(self, tasks: Sequence[GameTask]) -> list[GameTask]:
        """The scheduled tasks (over the league's players, in league order) not yet played."""
        done = self.done()
        return [t for t, slot in zip(tasks, slots(tasks), strict=True)
                if (self._pair(t), slot) not in done]

    def _pair(self, task: GameTask) -> tuple[str, str]:
        """The specs of a task's pairing."""
        a, b = task.pairing
        return (self.players[a], self.players[b])

    def record(self, task_slot: int, record: GameRecord, pgn: str) -> StoredGame:
        """Append one finished game (``task_slot``: its slot within the pairing)."""
        a, b = record.pairing
        faulty = faulty_side(record)
        side = "" if not faulty else "white" if faulty == record.white else "black"
        game = StoredGame(self.players[record.white_index], self.players[record.black_index],
                          (self.players[a], self.players[b]), task_slot, record.result,
                          record.termination, record.reason, record.fault, side, pgn)
        self.games.append(game)
        self._append({"game": game.to_json()})
        return game

    def _append(self, obj: dict[str, Any]) -> None:
        """Write one line and push it to the disk (the header first, in a new file)."""
        if self._fh is None:
            self._fh = _open_append(self.path)
            if self.path.stat().st_size == 0:
                self._append({"league": FORMAT, "settings": self.settings})
        self._fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        """Close the file."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def stored_settings(path: str | Path) -> dict[str, Any] | None:
    """The settings a league file's games are played under (None when there is no league yet).

    Reads the header line only. LeagueError if the file is unreadable or not a league.
    """
    target = Path(path)
    try:
        with target.open("rb") as fh:
            first = fh.readline()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LeagueError(f"league {target}: cannot read: {exc.strerror or exc}") from None
    if not first.strip():
        return None  # an empty file: the league starts with this run
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if (not isinstance(header, dict) or header.get("league") != FORMAT
            or not isinstance(header.get("settings"), dict)):
        raise LeagueError(f"league {target}: not a league file (no header line)")
    settings: dict[str, Any] = header["settings"]
    return settings


def slots(tasks: Sequence[GameTask]) -> list[int]:
    """Each task's game number within its pairing (0, 1, 2... in schedule order)."""
    seen: dict[tuple[int, int], int] = {}
    out = []
    for t in tasks:
        k = seen.get(t.pairing, 0)
        out.append(k)
        seen[t.pairing] = k + 1
    return out


def _open_append(path: Path) -> TextIO:
    """Open ``path`` for appending, or LeagueError saying why not."""
    try:
        return path.open("a", encoding="utf-8")
    except OSError as exc:
        raise LeagueError(f"league {path}: cannot write: {exc.strerror or exc}") from None


def _read(path: Path) -> tuple[League, int]:
    """Parse a league file; also the length of its complete lines (a torn last line is not)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LeagueError(f"league {path}: cannot read: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    good = len(data) - len(lines[-1])  # bytes up to the last newline
    complete = lines[:-1]
    torn = lines[-1]
    league: League | None = None
    for number, raw in enumerate(complete, 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            if not isinstance(obj, dict):
                raise ValueError("not an object")
            if number == 1:
                if obj.get("league") != FORMAT or not isinstance(obj.get("settings"), dict):
                    raise ValueError("not a league file")
                league = League(path, obj["settings"])
            elif league is None:
                raise ValueError("no header")
            elif "player" in obj and isinstance(obj["player"], str):
                if obj["player"] not in league.players:
                    league.players.append(obj["player"])
            elif "game" in obj and isinstance(obj["game"], dict):
                league.games.append(StoredGame.from_json(obj["game"]))
            else:
                raise ValueError("unknown line")
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(complete) and not torn:
                # The last line was cut short and then ended: treat as torn too.
                good -= len(raw) + 1
                break
            raise LeagueError(f"league {path}:{number}: not a league record ({exc})") from None
    if league is None:
        raise LeagueError(f"league {path}: not a league file (no header line)")
    return league, good


def _check_settings(path: Path, played: Mapping[str, Any], wanted: Mapping[str, Any]) -> None:
    """LeagueError naming the first setting that differs from the league's."""
    for key in sorted(set(played) | set(wanted)):
        if played.get(key) != wanted.get(key):
            raise LeagueError(
                f"league {path} was played with {key} {_show(played.get(key))}, this run asks "
                f"{key} {_show(wanted.get(key))}: the games would not be comparable "
                "(use the same settings or another league file)")


def _show(value: Any) -> str:
    """A setting's value as a user would write it."""
    return "none" if value is None else str(value)
